"""Explanations of the delivery view: the diagnostics, spans and edits of ``parse_reply``.

Run only when a result is explained (``explain=True`` or a lazy result's first read); the
outputs never depend on anything here (README decision: outputs first, explanations after).
"""

from __future__ import annotations

from collections.abc import Sequence

from richout.embed.parse import embeds_for_delivery_diagnostics
from richout.models import (
    Diagnostic,
    Directives,
    EditRecord,
    MediaSplit,
    Span,
    SpanKind,
    span_record,
)
from richout.models.base import SPAN_ORDER
from richout.models.diagnostics import (
    Diagnostics,
    Finding,
    mapped_spans,
    patch_of,
    pending_findings,
    spans_of,
    stage_findings,
)
from richout.models.lossless import edit_records
from richout.tags.silent import SilentRule, may_contain_token
from richout.text.patch import (
    Edit,
    OffsetMap,
    Patch,
    compose,
    end_in_input,
    offset_mapper,
    unmoved_below,
)
from richout.text.quote import show
from richout.views.delivery_strip import Removed
from richout.views.reply_stages import Stages

__all__ = ["explain_reply"]


def _map_span(to_input: OffsetMap, start: int, end: int) -> tuple[int, int]:
    """Input range of ``[start, end)``; the end maps through the last character it covers."""
    return to_input(start), end_in_input(to_input, start, end)


_RULE_WORDING: dict[SilentRule, str] = {
    "8.1": "it is only the silent token (rule 8.1)",
    "8.2": "it is the silent token as a JSON string (rule 8.2)",
    "8.3": 'it is a JSON envelope {"action": <silent token>} (rule 8.3)',
    "8.4": "it is model reasoning ending in the silent token (rule 8.4)",
}


def _explain_strip(
    diags: Diagnostics,
    spans: list[Span],
    text: str,
    removed: Sequence[Removed],
    to_input: OffsetMap,
) -> None:
    """Diagnostics and spans for what the delivery strip removed (in input offsets)."""
    for r in removed:
        tag = r.tag
        a, b = _map_span(to_input, tag.start, tag.end)
        literal = text[tag.start : tag.end]
        if not tag.complete:
            diags.add(
                "tag.malformed_prefix_stripped",
                "warning",
                f"{show(literal)} at the start of the message is a malformed reply tag; it was "
                "removed before delivery and sets no reply target. Write [[reply_to_current]] "
                "or [[reply_to:<id>]] with both closing brackets.",
                a,
                b,
            )
            spans.append(span_record("reply_prefix", a, b, None))
            continue
        kind: SpanKind = "audio_tag" if tag.kind == "audio" else "reply_tag"
        diags.add(
            "tag.stripped_on_delivery",
            "info",
            f"{show(literal)} was still in the text after the tag stages (they read it as code "
            "before an earlier edit changed the code structure); it was removed before "
            "delivery and has no effect. Keep tags out of code spans and blocks.",
            a,
            b,
        )
        spans.append(span_record(kind, a, b, None))


def _stripped_prefix_starts(removed: Sequence[Removed], to_input: OffsetMap) -> frozenset[int]:
    """Input offsets of the ``[[`` of every malformed prefix the strip removed."""
    return frozenset(to_input(r.tag.start) for r in removed if not r.tag.complete)


def _without_malformed_at(
    found: list[Finding],
    starts: frozenset[int],
    to_input: OffsetMap | None = None,
) -> list[Finding]:
    """``found`` minus the ``tag.malformed`` findings of constructs starting at ``starts``."""
    if not starts:
        return found
    out = []
    for f in found:
        if f[1] == "tag.malformed":
            at = to_input(f[0]) if to_input is not None else f[0]
            if at in starts:
                continue
        out.append(f)
    return out


def _add_stage(
    diags: Diagnostics,
    result: MediaSplit | Directives,
    starts: frozenset[int],
    to_input: OffsetMap | None = None,
    *,
    unmoved: int = 0,
) -> None:
    """A stage's findings minus stripped prefixes, mapped by ``to_input`` (which maps offsets
    below ``unmoved`` to themselves). The split hands on only its tag findings about single
    constructs (``media/pipeline.py``, ``_TAG_CODES_KEPT``): the reply-tag findings it could
    not get right for this view (no current message id, reply tags left in place) are the
    reply stage's alone."""
    if not starts and to_input is None:
        # All of the split's findings, unmoved, into the view's empty collector: taken with
        # their keys and order.
        source = pending_findings(result)
        if source is not None and diags.adopt(source):
            return
    kept = _without_malformed_at(stage_findings(result), starts, to_input)
    # The reply stage reads the split's text: a construct both read is reported once, as
    # the split read it (its range can end differently in the trimmed text).
    diags.extend_records(kept, to_input, once_per_construct=True, unmoved_below=unmoved)


def _reference_span(
    text: str, spans: Sequence[Span], index: int, ref: str
) -> tuple[int, int] | None:
    """Input span of the ``index``-th accepted reference (its directive narrowed to it)."""
    media = [s for s in spans if s.kind in ("media", "image")]
    if index >= len(media):
        return None
    s = media[index]
    at = text.find(ref, s.start, s.end)
    return (at, at + len(ref)) if at >= 0 else (s.start, s.end)


def _tagged_text(st: Stages) -> str:
    """The text after the reply-tag stage (the delivery strip's input)."""
    d = st.directives
    return d.text if d is not None and d.has_reply_tag else st.split.text


def _patch(text: str, st: Stages) -> tuple[Patch, Patch, Patch]:
    """The media patch, media + reply tags, and the whole composed patch over ``text``."""
    t1 = st.split.text
    p1 = patch_of(st.split)
    d = st.directives
    p2 = patch_of(d) if d is not None and d.has_reply_tag else []
    t2 = _tagged_text(st)
    p12 = compose(p1, p2, t1)
    whole = compose(p12, st.strip.patch, t2)
    t3 = st.strip.text
    if st.rule is not None:
        whole = compose(whole, [Edit(0, len(t3), t3, "")], t3)
    return p1, p12, whole


def _stage_findings(
    diags: Diagnostics, spans: list[Span], st: Stages, p1: Patch, p12: Patch
) -> None:
    """The media and tag stages' own findings, in input offsets, minus what later stages own."""
    strip = st.strip
    # A malformed prefix the strip removed is explained by the strip, not as "stays visible".
    stripped_at = (
        _stripped_prefix_starts(strip.removed, offset_mapper(p12)) if strip.removed else frozenset()
    )
    directives = st.directives
    _add_stage(diags, st.split, stripped_at)
    if directives is None:
        return
    from_t1, unmoved = offset_mapper(p1), unmoved_below(p1)
    _add_stage(diags, directives, stripped_at, from_t1, unmoved=unmoved)
    if directives.has_reply_tag:
        replies = [s for s in spans_of(directives) if s.kind == "reply_tag"]
        spans += mapped_spans(replies, from_t1, unmoved_below=unmoved)


def _delivery_findings(diags: Diagnostics, text: str, st: Stages, silent_token: str) -> None:
    """Converted file URLs, the silent rule, and shortcodes left as text on this surface."""
    split = st.split
    for i, (ref, path) in enumerate(zip(split.media_urls, st.media_urls, strict=True)):
        if ref != path:
            where = _reference_span(text, spans_of(split), i, ref) or (0, len(text))
            diags.add(
                "reply.file_url_converted",
                "info",
                f"the file URL {show(ref)} is delivered as the local path {show(path)}.",
                *where,
            )
    if st.rule is not None:
        diags.add(
            "reply.silent",
            "info",
            f"The reply is silent: {_RULE_WORDING[st.rule]} for the token {silent_token!r}, so "
            "its text is emptied and nothing is said on the channel. Write a normal reply to "
            "say something.",
            0,
            len(text),
        )
        if st.media_urls:
            diags.add(
                "reply.silent_with_media",
                "warning",
                f"The reply is silent but carries {len(st.media_urls)} media reference(s); the "
                "media is still delivered. Drop the silent token to send text with it, or drop "
                "the MEDIA: lines to send nothing.",
                0,
                len(text),
            )
    # "[embed" has no case-folding lookalike outside ASCII, so the token search is exact here.
    if may_contain_token(text, "[embed"):
        diags.extend(embeds_for_delivery_diagnostics(text))


def explain_reply(
    text: str, st: Stages, silent_token: str
) -> tuple[list[Diagnostic], list[Span], list[EditRecord]]:
    """Diagnostics, spans (input offsets, in order) and edits of one delivery-view reading."""
    p1, p12, whole = _patch(text, st)
    diags = Diagnostics(text)
    spans = list(spans_of(st.split))
    from_split = len(spans)
    _stage_findings(diags, spans, st, p1, p12)
    if st.strip.removed:
        t2 = (
            st.directives.text
            if st.directives is not None and st.directives.has_reply_tag
            else st.split.text
        )
        _explain_strip(diags, spans, t2, st.strip.removed, offset_mapper(p12))
    _delivery_findings(diags, text, st, silent_token)
    if len(spans) > from_split:
        spans.sort(key=SPAN_ORDER)  # (the split's own come in order)
    return diags.build(), spans, edit_records(whole)
