"""The WebChat view's outputs and explanation from its three layers' results (EMBED.md §9).

:func:`render_outputs` builds the view's fields (reply target, attachments, canvas blocks,
content parts); :func:`render_explanation` maps each layer's diagnostics and spans into the
input through the earlier layers' edits and composes the edits. :mod:`richout.views.render`
holds the public function and checks its arguments; this module is apart so that the
optional compiled build can compile it (a compiled public function would raise
``TypeError`` for a wrongly typed argument, where richout's contract is ``InvalidInput``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from richout.models import (
    CanvasPreview,
    Diagnostic,
    Directives,
    EmbedResult,
    MediaSplit,
    ReplyTarget,
)
from richout.models.attachments import Attachment, describe
from richout.models.base import SPAN_ORDER
from richout.models.canvas import block_record, block_wire
from richout.models.diagnostics import (
    Diagnostics,
    built_diagnostics,
    has_findings,
    mapped_spans,
    patch_of,
    spans_of,
    stage_findings,
)
from richout.models.lossless import edit_records
from richout.text.patch import Edit, OffsetMap, compose, offset_mapper, unmoved_below

__all__ = ["TagOutputs", "render_explanation", "render_outputs"]


def _union(
    text: str,
    first: list[Diagnostic],
    *later: tuple[MediaSplit | Directives, Sequence[Edit], OffsetMap],
) -> list[Diagnostic]:
    """The steps' diagnostics over the input, sorted and de-duplicated.

    Each step's findings are added as tuples
    (:func:`~richout.models.diagnostics.stage_findings`), so each becomes one record, here.
    """
    spoke = [(result, patch) for result, patch, _ in later if has_findings(result)]
    if not first and len(spoke) == 1 and not spoke[0][1]:
        # One step spoke and nothing before it moved text: its records are already over the
        # input, sorted and de-duplicated. Rebuilding 500k of them would double the cost.
        return built_diagnostics(spoke[0][0])
    if not spoke:
        return list(first)
    diags = Diagnostics(text)
    diags.extend(first)
    for result, patch, to_input in later:
        # Each layer reads what the one before it left: a construct both read is reported
        # once, as the first read it (its range can end differently in a later text).
        diags.extend_records(
            stage_findings(result),
            to_input,
            once_per_construct=True,
            unmoved_below=unmoved_below(patch),
        )
    return diags.build()


#: The current-message target, one frozen record for every reply that has it (a validated
#: record per reply cost about a microsecond, and the first one built the model's validator).
_CURRENT = ReplyTarget.trusted(mode="current")


class TagOutputs(NamedTuple):
    """What the WebChat view reads of its tag layer (``Directives`` fields of these names)."""

    text: str
    reply_to_explicit_id: str | None
    reply_to_current: bool


def render_outputs(
    previews: list[CanvasPreview], media: MediaSplit, tags: TagOutputs
) -> dict[str, Any]:
    """The WebChat view's output fields from the three layers' results (§9.2-§9.3):
    the shortcode layer's previews, the media split, the tag layer's outputs."""
    if tags.reply_to_explicit_id is not None:
        target: ReplyTarget | None = ReplyTarget.trusted(mode="id", id=tags.reply_to_explicit_id)
    elif tags.reply_to_current:
        target = _CURRENT
    else:
        target = None

    attachments: list[Attachment] = []
    if media.media_urls:
        voice = media.audio_as_voice
        # Attachments are frozen: a reference repeated (a payload of 500k equal paths)
        # is described once and its record shared.
        described: dict[str, Attachment] = {}
        for ref in media.media_urls:
            found = described.get(ref)
            if found is None:
                found = described[ref] = describe(ref, voice=voice)
            attachments.append(found)
    canvas = [block_record(p) for p in previews]
    # §9.3: the canvas cards always come after the text and the attachments.
    content: list[dict[str, Any]] = []
    if tags.text:
        content.append({"type": "text", "text": tags.text})
    content.extend({"type": "media", "url": ref} for ref in media.media_urls)
    content.extend(block_wire(block) for block in canvas)
    return {
        "text": tags.text,
        "reply_target": target,
        "audio_as_voice": media.audio_as_voice,
        "attachments": attachments,
        "canvas": canvas,
        "content": content,
    }


def render_explanation(
    text: str, embeds: EmbedResult, media: MediaSplit, tags: Directives
) -> dict[str, Any]:
    """Diagnostics, spans and edits over the input: each layer's, mapped through the earlier."""
    p_embeds = patch_of(embeds)
    p_media = compose(p_embeds, patch_of(media), embeds.text)
    p_all = compose(p_media, patch_of(tags), media.text)
    diagnostics = _union(
        text,
        embeds.diagnostics,
        (media, p_embeds, offset_mapper(p_embeds)),
        (tags, p_media, offset_mapper(p_media)),
    )
    tag_spans = mapped_spans(
        spans_of(tags), offset_mapper(p_media), unmoved_below=unmoved_below(p_media)
    )
    spans = [
        *embeds.spans,
        *mapped_spans(
            spans_of(media), offset_mapper(p_embeds), unmoved_below=unmoved_below(p_embeds)
        ),
        *tag_spans,
    ]
    if embeds.spans or tag_spans or p_embeds:
        # (The split's own spans, unmoved and alone, are already in order.)
        spans.sort(key=SPAN_ORDER)
    return {"diagnostics": diagnostics, "spans": spans, "edits": edit_records(p_all)}
