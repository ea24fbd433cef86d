"""``[[audio_as_voice]]``, ``[[reply_to_current]]`` and ``[[reply_to:<id>]]`` (TAGS.md §1-§6).

:func:`parse_directives` reads the tags the way the reference does, in two stages
(:mod:`richout.tags.stages`, run by :class:`richout.tags.pipeline.TagStages`):

1. audio tags on the input text (code regions of the input);
2. reply tags on the text after the audio tags were removed and their gaps closed (code
   regions of that text);

then closes the reply gaps and, when any tag outside code was recognised (or the text has no
``[[`` at all), normalises the message boundaries (§5.1). Each stage records a patch over its
own input; the composed patch is the result's ``edits``, so ``rebuild(result) == text``.

Everything is linear in the input: candidate ``[[`` are found by head regexes that cannot
backtrack, the first ``]`` after a value is remembered across candidates, the grammar only
sees one candidate slice at a time, and every gap is closed with amortised O(1) work.

The readers (:func:`read_audio_tag`, :class:`~richout.tags.scan.ReplyTagReader`,
:func:`read_reply_tag`) are shared with the delivery strip (§7.1) and the streaming parser.
"""

from __future__ import annotations

from typing import Any

from richout.collector import Pause, pause_needed, paused_call
from richout.errors import InvalidInput, require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.models import (
    Directives,
    explained_call,
    lazy_fields,
    lazy_text,
    output_names,
    rerun,
)
from richout.models.lossless import edit_records
from richout.profiles import DEFAULT_PROFILE, NEXT, Profile, resolve_profile
from richout.tags.close import boundaries_kept
from richout.tags.code import StageCode
from richout.tags.explain import Sink
from richout.tags.pipeline import TagStages, untagged
from richout.tags.release_result import release_directives
from richout.tags.scan import ReplyTagReader, TagMatch, read_audio_at
from richout.text.chars import has_double_bracket

__all__ = [
    "parse_directives",
    "read_audio_tag",
    "read_reply_tag",
    "untagged_text",
]


def read_audio_tag(text: str, pos: int) -> TagMatch | None:
    """A complete audio tag (§1.1) starting exactly at ``pos`` (a ``[[``), or None."""
    return read_audio_at(text, pos)


def read_reply_tag(text: str, pos: int) -> TagMatch | None:
    """A complete reply tag (§1.2-§1.4) starting exactly at ``pos``, or None.

    One-off convenience: to read many positions of one text use a :class:`ReplyTagReader`,
    which keeps the walk linear.
    """
    return ReplyTagReader(text).read(pos)


def untagged_text(text: str) -> str:
    """``parse_directives(text).text`` for a ``text`` without ``[[`` (§5.1 trimming only)."""
    # Most texts keep their boundaries: asked here, it saves two calls of a plain reply's
    # render.
    return text if boundaries_kept(text) else untagged(text)[0]


def parse_directives(
    text: str,
    *,
    current_message_id: str | None = None,
    strip_audio_tag: bool = True,
    strip_reply_tags: bool = True,
    code_map: CodeMap | None = None,
    profile: str | Profile = DEFAULT_PROFILE,
    explain: bool = False,
) -> Directives:
    """Read the audio and reply tags of ``text`` (TAGS.md §6); remove the stripped kinds.

    ``code_map`` is an optional :class:`~richout.markdown.codemap.CodeMap` the caller already built
    for exactly ``text`` (reused, with whatever it has computed; ignored for another text).
    ``profile`` names the upstream behaviour to reproduce (:data:`richout.PROFILES`).
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    # First, before any other name is bound: locals() is then the call's arguments.
    if isinstance(text, str) and len(text) >= Pause.at and pause_needed():
        return paused_call(parse_directives, locals())
    prof = NEXT if profile is DEFAULT_PROFILE else resolve_profile(profile)
    # The checks are inline: a call for them costs ~0.15 µs of a ~4 µs reply without "[[".
    if type(text) is not str:
        require_str(text)
    if current_message_id is not None and type(current_message_id) is not str:
        require_str(current_message_id, "current_message_id", optional=True)
    if code_map is not None and not isinstance(code_map, CodeMap):
        raise InvalidInput(
            "code_map must be a richout.markdown.codemap.CodeMap or None, "
            f"got {type(code_map).__name__}"
        )
    if not (type(strip_audio_tag) is bool and type(strip_reply_tags) is bool):
        require_bool(strip_audio_tag, "strip_audio_tag")
        require_bool(strip_reply_tags, "strip_reply_tags")
    if type(explain) is not bool:
        require_bool(explain, "explain")
    if prof.normalize_rewritten_whitespace:
        return release_directives(
            text,
            current_message_id=current_message_id,
            strip_audio_tag=strip_audio_tag,
            strip_reply_tags=strip_reply_tags,
            profile=prof,
            explain=explain,
            pipeline=parse_directives,
        )
    if not text:
        return Directives.explained(text="")
    if code_map is not None and code_map.text is not text and code_map.text != text:
        code_map = None
    outputs: dict[str, Any] | None = None
    if not has_double_bracket(text):
        out, patch = untagged(text, code_map)
        if explain:
            return Directives.explained(text=out, edits=edit_records(patch))
    else:
        sink = Sink(text, strip_audio_tag, strip_reply_tags, explain)
        run = TagStages(text, StageCode(text, code_map), sink, strip_audio_tag, strip_reply_tags)
        outputs = run.outputs(current_message_id)
        if explain:
            return run.explained(outputs, current_message_id)
    # Built only for a lazy result: the explainer is this call again with explain=True.
    # (By position: a partial holding keywords builds a dict per call.)
    explainer = rerun(
        explained_call,
        parse_directives,
        _RERUN_NAMES,
        text,
        current_message_id,
        strip_audio_tag,
        strip_reply_tags,
        prof,
    )
    if outputs is None:
        return lazy_text(Directives, explainer, out)
    return lazy_fields(Directives, explainer, outputs, _OUTPUT_NAMES)


#: parse_directives' keyword arguments, in the order its explainer holds them (the code
#: map is not kept: the rerun builds its own).
_RERUN_NAMES = ("current_message_id", "strip_audio_tag", "strip_reply_tags", "profile")
#: The output fields TagStages.outputs sets, all of them on every run.
_OUTPUT_NAMES = output_names(Directives)
