"""WebChat commentary capture and message-tool-only mode (ENVELOPE.md §6-§7).

In automatic mode WebChat attaches the media a committed commentary block still names, but only
references captured *before* the write hooks ran: a reference a hook inserted stays literal
``MEDIA:`` text. In message-tool-only mode no ``MEDIA:`` line is honoured anywhere; visible
media must go through ``message(action=send)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from richout.envelope._common import diag, join_path, text_diag
from richout.envelope.models import CommentaryResult
from richout.errors import InvalidInput, require_str
from richout.media.split import split_media
from richout.models import Diagnostic, MediaSplit
from richout.text.chars import LineIndex, ascii_lower

__all__ = ["capture_commentary", "message_tool_mode_findings"]

_MODES = ("auto", "message_tool_only")

#: Where a reference first appeared: (field, text, start, end, the text's line index).
_Place = tuple[str, str, int | None, int | None, LineIndex]


def _refs_with_spans(split: MediaSplit) -> list[tuple[str, int | None, int | None]]:
    """Each honoured ``MEDIA:`` reference with its span in the text (when known)."""
    spans = [s for s in split.spans if s.kind == "media"]
    if len(spans) == len(split.media_urls):
        return [(ref, s.start, s.end) for ref, s in zip(split.media_urls, spans, strict=True)]
    return [(ref, None, None) for ref in split.media_urls]


def _located(
    code: str,
    severity: Any,
    message: str,
    *,
    field: str,
    text: str,
    start: int | None,
    end: int | None,
    index: LineIndex | None,
) -> Diagnostic:
    if start is None or end is None:
        return diag(code, severity, message, field)
    return text_diag(
        code, severity, message, field=field, text=text, start=start, end=end, index=index
    )


def message_tool_mode_findings(text: str, *, field: str = "text") -> list[Diagnostic]:
    """One ``envelope.media_line_in_message_tool_mode`` per ``MEDIA:`` directive in ``text``."""
    require_str(field, "field")
    require_str(text, field)
    if "media:" not in ascii_lower(text):
        return []
    index = LineIndex(text)
    return [
        _located(
            "envelope.media_line_in_message_tool_mode",
            "warning",
            f"MEDIA:{ref} is not honoured in message-tool-only mode and stays visible as text; "
            "send the attachment with message(action=send) (media, or attachments: "
            "[{media: ...}]) instead.",
            field=field,
            text=text,
            start=start,
            end=end,
            index=index,
        )
        for ref, start, end in _refs_with_spans(split_media(text))
    ]


def _blocks(blocks: Any) -> list[tuple[Any, str]]:
    if not isinstance(blocks, (list, tuple)):
        raise InvalidInput("blocks must be a list of {phase, text} objects")
    out: list[tuple[Any, str]] = []
    for i, block in enumerate(blocks):
        if not isinstance(block, Mapping):
            raise InvalidInput(f"blocks[{i}] must be an object with phase and text")
        text = block.get("text")
        if text is None:
            text = ""
        if not isinstance(text, str):
            raise InvalidInput(f"blocks[{i}].text must be a string")
        out.append((block.get("phase"), text))
    return out


def _captured(refs: Any) -> list[str]:
    if refs is None:
        return []
    if not isinstance(refs, (list, tuple)) or not all(isinstance(r, str) for r in refs):
        raise InvalidInput("captured_refs (capturedRefs) must be a list of strings or None")
    return list(refs)


def capture_commentary(
    *,
    channel: str,
    reply_mode: str,
    captured_refs: Sequence[str] | None,
    blocks: Sequence[Mapping[str, Any]],
) -> CommentaryResult:
    """Which commentary references to attach and which stay literal text (§6.2).

    ``blocks`` are the committed message's text blocks (``{"phase", "text"}``);
    ``captured_refs`` are the references captured before the write hooks ran.
    """
    if not isinstance(channel, str):
        raise InvalidInput("channel must be a string")
    if reply_mode not in _MODES:
        raise InvalidInput(
            f"reply_mode (replyMode) must be 'auto' or 'message_tool_only', got {reply_mode!r}"
        )
    captured = _captured(captured_refs)
    parsed_blocks = _blocks(blocks)
    tool_only = reply_mode == "message_tool_only"
    found: list[Diagnostic] = []
    collected, where = _commentary_refs(parsed_blocks, tool_only=tool_only, found=found)
    if ascii_lower(channel) != "webchat":
        if collected:
            found.append(
                diag(
                    "commentary.not_webchat",
                    "info",
                    f"commentary capture only runs for WebChat, not {channel!r}; commentary "
                    "MEDIA: lines are left as they are. Send media with structured fields or "
                    "message(action=send).",
                    "channel",
                )
            )
        return CommentaryResult.model_construct(attach=[], left_as_text=[], diagnostics=found)
    if not captured:
        return CommentaryResult.model_construct(attach=[], left_as_text=[], diagnostics=found)
    if tool_only:
        return CommentaryResult.model_construct(
            attach=[], left_as_text=collected, diagnostics=found
        )
    captured_set = set(captured)
    attach = [r for r in collected if r in captured_set]
    left = [r for r in collected if r not in captured_set]
    for ref in left:
        field, text, start, end, index = where[ref]
        found.append(
            _located(
                "commentary.ref_not_captured",
                "info",
                f"MEDIA:{ref} was not among the references captured before the write hooks "
                "ran (a hook inserted it, or it differs from the captured spelling), so it "
                "stays literal text.",
                field=field,
                text=text,
                start=start,
                end=end,
                index=index,
            )
        )
    return CommentaryResult.model_construct(attach=attach, left_as_text=left, diagnostics=found)


def _commentary_refs(
    blocks: list[tuple[Any, str]], *, tool_only: bool, found: list[Diagnostic]
) -> tuple[list[str], dict[str, _Place]]:
    """The distinct ``MEDIA:`` references of the commentary blocks, in order, with where
    each first appeared; blocks of another phase and message-tool-only mode are explained."""
    collected: list[str] = []
    where: dict[str, _Place] = {}
    for i, (phase, text) in enumerate(blocks):
        if "media:" not in ascii_lower(text):
            continue
        field = join_path(join_path("blocks", i), "text")
        refs = _refs_with_spans(split_media(text))
        if not refs:
            continue
        index = LineIndex(text)
        if phase != "commentary":
            found.append(_phase_missing(phase, join_path(join_path("blocks", i), "phase")))
            if tool_only:
                found.extend(message_tool_mode_findings(text, field=field))
            continue
        for ref, start, end in refs:
            if tool_only:
                found.append(
                    _located(
                        "envelope.media_line_in_message_tool_mode",
                        "warning",
                        f"MEDIA:{ref} is not honoured in message-tool-only mode and stays "
                        "visible as text; send it with message(action=send) instead.",
                        field=field,
                        text=text,
                        start=start,
                        end=end,
                        index=index,
                    )
                )
            if ref not in where:
                collected.append(ref)
                where[ref] = (field, text, start, end, index)
    return collected, where


def _phase_missing(phase: Any, field: str) -> Diagnostic:
    """A block with ``MEDIA:`` lines whose phase is not ``commentary``."""
    return diag(
        "commentary.phase_missing",
        "info",
        (
            "this block has MEDIA: lines but no phase; only blocks with phase "
            "'commentary' are handled here, so its references are not attached"
            if phase is None
            else f"this block's phase is {phase!r}, not 'commentary'; its MEDIA: "
            "lines go through the final-reply path, not commentary capture"
        ),
        field,
    )
