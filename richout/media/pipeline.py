"""The §3 split pipeline behind :func:`richout.split_media` (MEDIA.md), without its argument checks.

The trigger test, the fused split of the common reply (:mod:`richout.media.fused`), else the
line walk (:mod:`richout.media.walk`), the text and segments it leaves
(:mod:`richout.media.segments`), the tag pass (:mod:`richout.media.tagpass`), and, when
explaining, the edits, spans and diagnostics over the input (:mod:`richout.media.explain`).
:mod:`richout.media.split` holds the public entry points and checks their arguments; this
module is apart so that the optional compiled build can compile it (a compiled public
function would raise ``TypeError`` for a wrongly typed argument, where richout's contract is
``InvalidInput``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from richout.markdown.codemap import CodeMap
from richout.media import explain as _media_diag
from richout.media.fused import fused_cuts, fused_split, lazy_split
from richout.media.lines import lower_same_length, media_colon
from richout.media.segments import build_segments, leading_blank_lines, walked_text
from richout.media.tagpass import read_tags
from richout.media.walk import Walker
from richout.models import (
    Diagnostic,
    Directives,
    MediaSplit,
    Span,
    lazy_media_text,
    text_segment,
)
from richout.models.base import SPAN_ORDER
from richout.models.diagnostics import (
    PER_CONSTRUCT,
    Diagnostics,
    Finding,
    deferred,
    findings_of,
    mapped_spans,
    patch_of,
    spans_of,
)
from richout.models.lossless import edit_records
from richout.policy import Policy
from richout.profiles import Profile
from richout.tags.pipeline import TagStages
from richout.tags.scan import AUDIO_HEAD
from richout.text.chars import JS_WS_NO_BREAK, has_double_bracket, js_rtrim, js_trim
from richout.text.patch import Edit, Patch, compose, offset_mapper, unmoved_below

__all__ = ["has_media_token", "run_split", "strips_no_audio_tag"]

#: The tag pass's findings a split keeps: those about a construct in the text itself (a tag
#: in code, a malformed or unknown tag), the same codes a view reports once per construct.
_TAG_CODES_KEPT = PER_CONSTRUCT


def has_media_token(raw: str) -> bool:
    """Does ``raw`` hold ``media:`` in any ASCII letter case (§3 step 2)?"""
    return media_colon(raw, 5) >= 0  # (the first such colon: asked on every plain reply)


def _media_token_at_line_start(raw: str, first: int | None = None) -> bool:
    """Is there a ``media:`` in any ASCII letter case that follows a line start and
    whitespace (CR counts as a line start under any profile)?

    The tokens are found from their colons (:func:`~richout.media.lines.media_colon`);
    ``first``, when known, is the first such colon (or -1: none).
    """
    i = media_colon(raw, 5) if first is None else first
    while i >= 0:
        k = i - 5
        while k > 0 and raw[k - 1] in JS_WS_NO_BREAK:
            k -= 1
        if k == 0 or raw[k - 1] in "\r\n":
            return True
        i = media_colon(raw, i + 1)
    return False


def _no_trim(s: str) -> tuple[str, Patch]:
    """``s`` kept whole (``preserve_trailing_whitespace``): no trim, no edit."""
    return s, []


def _trim_patch(s: str) -> tuple[str, Patch]:
    """Right-trim ``s`` (JS whitespace) and the patch that did it."""
    t = js_rtrim(s)
    if len(t) == len(s):
        return s, []
    return t, [Edit(len(t), len(s), s[len(t) :], "")]


def run_split(
    text: str,
    images_on: bool,
    allowlist: dict[str, str] | None,
    directives_on: bool,
    audio_on: bool,
    *,
    profile: Profile,
    preserve: bool,
    explain: bool,
    policy: Policy | None,
    explainer: Callable[[], MediaSplit],
    segments: bool = True,
    defer: bool = False,
    tag_runs: list[TagStages] | None = None,
    first: int | None = None,
) -> MediaSplit:
    """The §3 split of ``text``; a lazy result keeps ``explainer`` (this call again with
    ``explain=True``). ``preserve`` skips the trims of the input's and the result's end, as
    upstream's ``preserveTrailingWhitespace`` does (the text is then walked as given).
    ``segments=False`` leaves the segments of a result without explanation empty.
    ``defer``: an explained walked result leaves its findings to the caller's stage
    (:func:`~richout.models.diagnostics.findings_of`); ``tag_runs`` receives the tag pass's
    stages when it ran without explanations (:meth:`TagStages.reusing`); both for the views'
    own use. ``first``, when the caller found it (``preserve`` off), is the first ``media:``
    colon of the trimmed text (-1: none, or directives off).

    Long because it routes every reply to the cheapest exact way in one place (no trigger,
    tags only, prose mentions only, the fused split, the walk), each test reusing what the
    previous ones found."""
    raw = text if preserve else js_rtrim(text)
    if not raw or (preserve and not js_trim(raw)):
        blank = raw if preserve else ""
        if not explain:
            return lazy_media_text(explainer, blank)
        return _explained_as_is(text, blank, preserve, [])
    # The first media: colon, found once: the later steps scan on from it.
    if first is None:
        first = media_colon(raw, 5) if directives_on else -1
    media_on = first >= 0
    if not (media_on or (images_on and "![" in raw) or has_double_bracket(raw)):
        if not explain:
            return lazy_media_text(explainer, raw)
        diags = _media_diag.fast_path(
            text, raw, lower_same_length(raw), directives_on, images_on, profile=profile
        )
        return _explained_as_is(text, raw, preserve, diags)
    cmap: CodeMap | None = None
    if not (explain or images_on):
        if not media_on:  # only "[[" triggered the split: no line to visit
            split = _tags_only(
                raw, audio_on, profile, preserve, explainer, segments=segments, tag_runs=tag_runs
            )
            if split is not None:
                return split
        elif not has_double_bracket(raw) and _mentions_only(raw, profile, first):
            return _kept_whole(raw, explainer, segments)
        elif not preserve and policy is None:
            # The common walked reply, read in one pass (media/fused.py), else the walk.
            cmap = CodeMap(raw)
            found = fused_cuts(raw, profile, cmap, first)
            if found is not None and found.cuts:
                return fused_split(
                    raw,
                    found,
                    profile,
                    audio_on,
                    explainer,
                    segments=segments,
                    tag_runs=tag_runs,
                    cmap=cmap,
                )
            if found is not None and strips_no_audio_tag(raw, audio_on, profile):
                return _kept_whole(raw, explainer, segments)
    walker = Walker(
        raw,
        cmap=cmap,
        media_on=media_on,
        directives_on=directives_on,
        images_on=images_on,
        allowlist=allowlist,
        profile=profile,
        explain=explain,
        policy=policy,
    )
    return _walked_split(
        text,
        walker,
        audio_on=audio_on,
        preserve=preserve,
        explain=explain,
        explainer=explainer,
        segments=segments,
        defer=defer,
        tag_runs=tag_runs,
    )


def _kept_whole(raw: str, explainer: Callable[[], MediaSplit], segments: bool) -> MediaSplit:
    """What the walk gives for a reply it changes nothing in: the text, as one segment."""
    fields: dict[str, Any] = {
        "text": raw,
        "media_urls": [],
        "audio_as_voice": False,
        "rejected_media_count": 0,
    }
    if segments:
        fields["segments"] = [text_segment(raw)]
    return lazy_split(explainer, fields)


def _tags_only(
    raw: str,
    audio_on: bool,
    profile: Profile,
    preserve: bool,
    explainer: Callable[[], MediaSplit],
    *,
    segments: bool,
    tag_runs: list[TagStages] | None,
) -> MediaSplit | None:
    """What :func:`_walked_split` gives without explanations when the walk visits no line
    (no ``media:`` to read, images off): with no audio tag to strip, the text kept whole;
    else the text after its leading blank lines goes through the tag pass, and only a
    removed audio tag changes the result. Building the walker (line breaks, a lower-cased
    copy of the reply, a judge) for a walk that visits nothing cost about a third of such a
    reply's split.

    Never None here; None would hand the reply to the walk, which is how
    ``tests/test_fused.py`` compares the two ways."""
    if strips_no_audio_tag(raw, audio_on, profile):
        return _kept_whole(raw, explainer, segments)
    visible = raw[leading_blank_lines(raw, profile.cr_lines and "\r" in raw) :]
    audio = False
    tagged = visible
    if has_double_bracket(visible):
        tagged, audio, _ = read_tags(
            visible,
            raw,
            None,
            profile,
            walked=False,
            preserve=preserve,
            explain=False,
            tag_runs=tag_runs,
        )
    if not audio:
        return _kept_whole(raw, explainer, segments)
    final = tagged if preserve else js_rtrim(tagged)
    fields: dict[str, Any] = {
        "text": final,
        "media_urls": [],
        "audio_as_voice": True,
        "rejected_media_count": 0,
    }
    if segments:
        fields["segments"] = [text_segment(final)] if final else []
    return lazy_split(explainer, fields)


def strips_no_audio_tag(raw: str, audio_on: bool, profile: Profile) -> bool:
    """Is it certain that the split's tag pass strips no audio tag from (what is left of)
    ``raw``? Profile ``next``'s pass reads one only at an :data:`AUDIO_HEAD` match; the
    release has its own tag module. A reply the walk changes nothing in then keeps its text:
    without a tag removed, the split returns its (trimmed) input."""
    if not audio_on:
        return True
    return not profile.normalize_rewritten_whitespace and AUDIO_HEAD.search(raw) is None


def _mentions_only(raw: str, profile: Profile, first: int | None = None) -> bool:
    """Does no line holding ``media:`` pass §5 rule 1 (``media:`` inside prose only)?

    The line walk then changes nothing: with images off it visits no other line, and
    without ``[[`` the split keeps the text as it is (about one corpus reply in nine that
    holds the token mentions it only in a sentence). Under an ASCII rule 1 a line passes
    only when an ASCII ``media:`` follows its start and whitespace (a CR counts as a line
    start even where it ends no line: a superset, the walk then answers). The release's
    rule 1 also folds U+0131: its lines are always walked.
    """
    return profile.ascii_media_prefix and not _media_token_at_line_start(raw, first)


def _walked_split(
    text: str,
    walker: Walker,
    *,
    audio_on: bool,
    preserve: bool,
    explain: bool,
    explainer: Callable[[], MediaSplit],
    segments: bool,
    defer: bool,
    tag_runs: list[TagStages] | None,
) -> MediaSplit:
    """§3 steps 4-6 for a reply with a trigger: the walk, the text it leaves, the tag pass
    (TAGS.md, audio tags only), the trims and the segments (§12); the explanation when asked.
    """
    walk = walker.run()
    raw = walker.raw
    joined, walk_patch, lead = walked_text(walker.lines, walk.changes, explain)
    visible = joined[lead:]
    # Without "[[" the tag pass can only trim, and an unconsumed reply keeps its raw text, so
    # nothing the pass computes would reach the outputs.
    walked = bool(walk.media) or walk.consumed
    tagged = visible
    audio = False
    directives: Directives | None = None
    if audio_on and (explain or walked or has_double_bracket(visible)):
        tagged, audio, directives = read_tags(
            visible,
            walker.raw,
            walker.code_map_if_built(),
            walker.profile,
            walked=walked,
            preserve=preserve,
            explain=explain,
            tag_runs=tag_runs,
        )
    final = tagged if preserve else js_rtrim(tagged)

    media = walk.media
    consumed = bool(media) or walk.consumed or audio
    out_text = final if consumed else raw
    fields = {
        "text": out_text,
        "media_urls": media,
        "audio_as_voice": audio,
        "rejected_media_count": walk.rejected_count,
    }
    if not (segments or explain):
        return lazy_split(explainer, fields)
    if segments:
        segs = build_segments(walker.lines, walk.changes) if media else []
        built = bool(segs)
        if not segs and (media or out_text):
            segs = [text_segment(out_text)]
        fields["segments"] = segs
    else:
        # A view's explained split, whose segments no view reads: built, they would hold a
        # segment per reference, so they would be built exactly when there is media (a
        # megabyte of captioned references spent 8% of an explained render on them).
        built = bool(media)
    if not explain:
        return lazy_split(explainer, fields)
    findings, spans, patch = _explanation(
        text,
        walker,
        walk_patch,
        joined,
        lead,
        directives=directives,
        tagged=tagged,
        consumed=consumed,
        preserve=preserve,
        audio_on=audio_on,
        built=built,
    )
    if defer:
        return deferred(MediaSplit, findings, spans, patch, **fields)
    return MediaSplit.explained(
        diagnostics=findings.build(), spans=spans, edits=edit_records(patch), **fields
    )


def _explained_as_is(
    text: str, out_text: str, preserve: bool, diagnostics: list[Diagnostic]
) -> MediaSplit:
    """The explained result of a reply the split did not walk: ``out_text`` is the input,
    trimmed unless ``preserve``."""
    _, trim_patch = (_no_trim if preserve else _trim_patch)(text)
    return MediaSplit.explained(
        text=out_text, diagnostics=diagnostics, edits=edit_records(trim_patch)
    )


def _explanation(
    text: str,
    walker: Walker,
    walk_patch: Patch,
    joined: str,
    lead: int,
    *,
    directives: Directives | None,
    tagged: str,
    consumed: bool,
    preserve: bool,
    audio_on: bool,
    built: bool,
) -> tuple[Diagnostics, list[Span], Patch]:
    """Findings, spans and edits of a walked reply, over the input ``text``.

    The stages' patches (trim, walk, leading blank lines, tags, final trim) compose into one
    patch from the input to the result; spans and diagnostics found on a later stage's text
    are mapped back through it. ``built``: the segments were built from the walk, so an
    audio tag the tag pass removed still shows in a text segment.
    """
    trim = _no_trim if preserve else _trim_patch
    raw = walker.raw
    walk = walker.walk
    visible = joined[lead:]
    _, trim_patch = trim(text)
    lead_patch: Patch = [Edit(0, lead, joined[:lead], "")] if lead else []
    to_visible = compose(compose(trim_patch, walk_patch, raw), lead_patch, joined)
    tag_patch: Patch = []
    tag_spans: list[Span] = []
    tag_diags: list[Diagnostic] = []
    tag_findings: list[Finding] = []
    if directives is not None:
        tag_patch = patch_of(directives)
        tag_spans = [x for x in spans_of(directives) if x.kind == "audio_tag"]
        # Reply tags are read but not applied here (no reply target is computed), so only
        # findings about the text itself (tags in code, malformed or unknown tags) carry over.
        found = findings_of(directives)
        if found is not None:
            tag_findings = [x for x in found if x[1] in _TAG_CODES_KEPT]
        else:
            tag_diags = [x for x in directives.diagnostics if x.code in _TAG_CODES_KEPT]
    _, final_patch = trim(tagged)
    if consumed:
        patch = compose(compose(to_visible, tag_patch, visible), final_patch, tagged)
    else:
        patch = trim_patch

    spans = list(walk.spans)
    if tag_spans:
        spans += mapped_spans(
            tag_spans, offset_mapper(to_visible), unmoved_below=unmoved_below(to_visible)
        )
        # The walk lists its spans in order (lines in order, each line's within it): only
        # merged with the tag pass's do they need sorting (260k spans of one payload cost
        # 35 ms a sort, and each view sorted them again).
        spans.sort(key=SPAN_ORDER)

    diag = Diagnostics(text)
    if tag_diags:
        diag.extend(tag_diags, offset_mapper(to_visible))
    if tag_findings:
        diag.extend_records(
            tag_findings, offset_mapper(to_visible), unmoved_below=unmoved_below(to_visible)
        )
    if not audio_on and "[[" in visible:
        _media_diag.audio_left(diag, visible, offset_mapper(to_visible))
    _media_diag.explain(
        diag,
        walk,
        raw=raw,
        low=walker.low,
        cmap=lambda: walker.cmap,
        media_on=walker.directives_on,
        allowlist=walker.allowlist,
        # (the walk records no audio tag: only the tag pass's spans can be one)
        audio_spans=[x for x in spans if x.kind == "audio_tag"] if built and tag_spans else [],
    )
    return diag, spans, patch
