"""Stages 2-4 of :func:`richout.parse_reply` over the media split, without its argument checks.

Reply tags (:func:`richout.tags.parse.parse_directives`), the delivery strip
(:mod:`richout.views.delivery_strip`), the silent rules (:mod:`richout.tags.silent`) and the
``file:`` URL conversion (§7.2), and the output fields they give. :mod:`richout.views.reply`
holds the public function and checks its arguments; this module is apart so that the
optional compiled build can compile it (a compiled public function would raise
``TypeError`` for a wrongly typed argument, where richout's contract is ``InvalidInput``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from richout.markdown.codemap import CodeMap
from richout.models import (
    Directives,
    MediaSplit,
    lazy_fields,
    output_names,
    view_stage_explainer,
)
from richout.policy.fileurl import file_url_to_path, has_file_scheme
from richout.tags.pipeline import TagStages, stage_tags
from richout.tags.scan import REPLY_HEAD
from richout.tags.silent import SilentRule, silent_rule
from richout.text.chars import has_double_bracket
from richout.views.delivery_strip import Strip, strip_for_delivery

__all__ = ["Stages", "outputs", "reply_tags", "run_stages"]


class Stages(NamedTuple):
    """What each delivery stage produced for one reply (the input of the explanation);
    a named tuple, as :class:`~richout.views.delivery_strip.Strip` is."""

    split: MediaSplit
    directives: Directives | None
    strip: Strip
    rule: SilentRule | None
    media_urls: list[str]


def run_stages(
    split: MediaSplit,
    current_message_id: str | None,
    silent_token: str,
    explain: bool,
    prior: TagStages | None = None,
) -> Stages:
    """Stages 2-4 and §7.2 over the media split: reply tags, delivery strip, silent rule.
    ``prior``: the split's own tag pass, when it ran (its reading may be reused)."""
    if not has_double_bracket(split.text):
        # No reply tag to read, and removing reply tags never creates a "[[": no strip.
        directives, strip = None, Strip(split.text, [], ())
    else:
        # One code map of the split text for the split's tag pass, the reply stage and the
        # strip: when no reply tag is removed, the strip reads the same text (the map is
        # built lazily; one parse at most).
        shared = prior.map_of(split.text) if prior is not None else None
        if shared is None:
            # The split's text is its tag pass's, trimmed: the scan there resumes (FenceScan).
            cmap = CodeMap(split.text, prior.code2.built() if prior is not None else None)
        else:
            cmap = shared
        directives = reply_tags(split.text, current_message_id, explain, prior, cmap)
        if directives is not None and directives.has_reply_tag:
            strip = strip_for_delivery(directives.text, like=cmap)
        else:
            strip = strip_for_delivery(split.text, cmap)
    rule = silent_rule(strip.text, silent_token)
    # One conversion per distinct reference (a payload can repeat one 500k times), and none
    # for a reference the file-scheme pre-check rules out (most: a delivered line cost 0.5
    # µs more through the memo and the conversion's calls).
    converted: dict[str, str] = {}
    media_urls: list[str] = []
    for ref in split.media_urls:
        if not has_file_scheme(ref):
            media_urls.append(ref)
            continue
        path = converted.get(ref)
        if path is None:
            path = converted[ref] = file_url_to_path(ref)
        media_urls.append(path)
    return Stages(split, directives, strip, rule, media_urls)


def reply_tags(
    text: str,
    current_message_id: str | None,
    explain: bool,
    prior: TagStages | None = None,
    code_map: CodeMap | None = None,
) -> Directives | None:
    """The reply stage over the split text: reply tags read and removed, or None (no ``[[``).

    The reply tags the split's tag pass (``prior``) read are reused when it read them in
    this very text (:meth:`TagStages.reusing`; explaining, with the id findings it recorded):
    the tags are read once. ``code_map``: a map of exactly ``text`` to read code regions from.
    """
    # The stage reads tags only at REPLY_HEAD matches; without one it finds none and every
    # output it gives is the default (explanations still run it).
    if not has_double_bracket(text):
        return None
    if explain:
        # Profile next (the release has its own pipeline); the findings stay tuples until
        # the delivery view's explanation builds its records.
        reused = TagStages.reusing(prior, text, False, True, explain=True, code_map=code_map)
        if reused is not None:
            return reused.deferred(current_message_id)
        return stage_tags(
            text,
            strip_audio=False,
            strip_reply=True,
            current_message_id=current_message_id,
            code_map=code_map,
        )
    if REPLY_HEAD.search(text) is None:
        return None
    # parse_directives' own lazy result, without the public call's checks: its explanation
    # is never read inside the view (the view's own explainer reruns the view).
    run = TagStages.reusing(prior, text, False, True, code_map=code_map)
    if run is None:
        run = TagStages.outputs_only(text, False, True, code_map)
    # Assembled with the shared fields set (lazy_fields): the generic builder's keyword
    # merge cost about 0.7 µs of a tagged reply.
    return lazy_fields(Directives, view_stage_explainer, run.outputs(current_message_id), _NAMES)


#: The tag stages' output fields, all set on every run (TagStages.outputs).
_NAMES = output_names(Directives)


def outputs(st: Stages) -> dict[str, Any]:
    """The delivery view's output fields from its stages."""
    directives = st.directives
    return {
        # A silent text is never empty (the rules need the token), so emptying it is an edit.
        "text": "" if st.rule is not None else st.strip.text,
        "media_urls": st.media_urls,
        "audio_as_voice": st.split.audio_as_voice,
        "reply_to_id": directives.reply_to_id if directives is not None else None,
        "reply_to_current": directives.reply_to_current if directives is not None else False,
        "reply_to_tag": directives.has_reply_tag if directives is not None else False,
        "is_silent": st.rule is not None,
        "rejected_media_count": st.split.rejected_media_count,
    }
