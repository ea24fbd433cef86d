"""Reply payloads (ENVELOPE.md §1-§2): the delivery list, renderability, and the merge of
structured fields with directives parsed from the final text.

Loose intake of plugin JSON is :mod:`richout.envelope.payload_intake`. :func:`resolve_media`
is what is actually sent; :func:`merge_final_directives` reproduces the reference's "explicit
fields win wholesale" merge and says which parsed references that discards;
:func:`resolve_payload` (the ``payload`` op) runs intake, the optional merge and both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from richout.envelope._common import diag, join_path, json_type_name, require_choice, text_diag
from richout.envelope.commentary import message_tool_mode_findings
from richout.envelope.models import PayloadResult, ReplyPayload
from richout.envelope.payload_intake import as_payload, blank_entry_diagnostic
from richout.errors import InvalidInput, require_bool, require_str
from richout.models import Diagnostic, Reply
from richout.text.chars import js_trim
from richout.views.reply import parse_reply

__all__ = [
    "ReplyMode",
    "check_directive_options",
    "has_enabled_delivery",
    "is_renderable",
    "merge_final_directives",
    "payload_diagnostics",
    "resolve_media",
    "resolve_payload",
]

ReplyMode = Literal["auto", "message_tool_only"]

_REPLY_MODES = ("auto", "message_tool_only")


def resolve_media(payload: ReplyPayload) -> list[str]:
    """The delivery list (§1.3): ``mediaUrls`` when non-empty, else ``mediaUrl``; trimmed.

    The length test comes before trimming, and nothing is de-duplicated.
    """
    _require_reply_payload(payload)
    if payload.media_urls:
        source: Sequence[str] = payload.media_urls
    elif isinstance(payload.media_url, str) and payload.media_url:
        source = (payload.media_url,)
    else:
        return []
    out: list[str] = []
    for entry in source:
        trimmed = js_trim(entry)
        if trimmed:
            out.append(trimmed)
    return out


def is_renderable(payload: ReplyPayload) -> bool:
    """True when the payload has something to show or send (§1.4)."""
    _require_reply_payload(payload)
    if payload.text is not None and js_trim(payload.text):
        return True
    if resolve_media(payload) or payload.audio_as_voice:
        return True
    if payload.channel_data:
        return True
    return (
        payload.presentation is not None
        or payload.interactive is not None
        or payload.location is not None
    )


def has_enabled_delivery(payload: ReplyPayload) -> bool:
    """True when ``delivery.pin`` is true or ``{"enabled": true}`` (exempt from media dedupe)."""
    delivery = payload.delivery
    if not delivery:
        return False
    pin = delivery.get("pin")
    return pin is True or (isinstance(pin, Mapping) and pin.get("enabled") is True)


def _blank_entry_diagnostics(payload: ReplyPayload, path: str) -> list[Diagnostic]:
    """Blank ``mediaUrls`` entries of a payload that did not come through intake."""
    return [
        blank_entry_diagnostic(i, join_path(join_path(path, "mediaUrls"), i))
        for i, entry in enumerate(payload.media_urls or ())
        if not js_trim(entry)
    ]


def payload_diagnostics(
    payload: ReplyPayload, *, path: str = "", from_intake: bool = True
) -> list[Diagnostic]:
    """Why a set ``mediaUrl`` or a ``mediaUrls`` entry will not be delivered (§8)."""
    found = [] if from_intake else _blank_entry_diagnostics(payload, path)
    urls = payload.media_urls
    single = js_trim(payload.media_url) if isinstance(payload.media_url, str) else ""
    if urls and single:
        media = resolve_media(payload)
        if not media:
            found.append(
                diag(
                    "payload.blank_media_list",
                    "warning",
                    f"mediaUrls is non-empty but every entry is blank, so nothing is "
                    f"delivered and mediaUrl {single!r} is hidden. Drop the blank mediaUrls "
                    "or put the reference in it.",
                    join_path(path, "mediaUrls"),
                )
            )
        elif single not in media:
            found.append(
                diag(
                    "payload.media_url_ignored",
                    "warning",
                    f"mediaUrl {single!r} is not delivered: a non-empty mediaUrls wins. "
                    "Put it in mediaUrls (canonically as mediaUrls[0]).",
                    join_path(path, "mediaUrl"),
                )
            )
    return found


def merge_final_directives(
    payload: ReplyPayload,
    *,
    current_message_id: str | None = None,
    extract_markdown_images: bool = False,
    silent_token: str = "NO_REPLY",
    reply_mode: ReplyMode = "auto",
    path: str = "",
) -> tuple[ReplyPayload, bool, list[Diagnostic]]:
    """Parse directives in a final payload's text and merge them (§2).

    Returns the merged payload, whether the text was silent, and diagnostics. Explicit
    ``mediaUrls`` (even ``[]``) win wholesale over parsed ``MEDIA:`` references; an explicit
    ``mediaUrl`` stays while delivery may use the parsed list. In ``message_tool_only`` mode
    ``MEDIA:`` lines are not honoured: they stay in the text, each with a diagnostic.
    """
    _require_reply_payload(payload)
    check_directive_options(current_message_id, extract_markdown_images, silent_token, reply_mode)
    require_str(path, "path")
    source = payload.text if payload.text is not None else ""
    found: list[Diagnostic] = []
    tool_only = reply_mode == "message_tool_only"
    parsed = parse_reply(
        source,
        current_message_id=current_message_id,
        silent_token=silent_token,
        extract_markdown_images=extract_markdown_images,
        extract_media_directives=not tool_only,
    )
    if tool_only:
        found.extend(message_tool_mode_findings(source, field=join_path(path, "text")))
    merged = _merge(payload, parsed)
    found.extend(
        _merge_findings(payload, merged, parsed, source, path=path, silent_token=silent_token)
    )
    return merged, parsed.is_silent, found


def _merge(payload: ReplyPayload, parsed: Reply) -> ReplyPayload:
    """The payload's explicit fields over what was parsed from its text (§2)."""
    parsed_media = list(parsed.media_urls)
    explicit_list = payload.media_urls
    media_urls = list(explicit_list) if explicit_list is not None else (parsed_media or None)
    if payload.media_url is not None:
        media_url: str | None = payload.media_url
    elif parsed_media:
        media_url = parsed_media[0]
    elif media_urls:
        media_url = media_urls[0]
    else:
        media_url = None
    text = parsed.text or None
    if parsed.is_silent:
        text = None
    return payload.model_copy(
        update={
            "text": text,
            "media_urls": media_urls,
            "media_url": media_url,
            "reply_to_id": (
                payload.reply_to_id if payload.reply_to_id is not None else parsed.reply_to_id
            ),
            "reply_to_tag": payload.reply_to_tag or parsed.reply_to_tag,
            "reply_to_current": payload.reply_to_current or parsed.reply_to_current,
            "audio_as_voice": bool(payload.audio_as_voice or parsed.audio_as_voice),
        }
    )


def _merge_findings(
    payload: ReplyPayload,
    merged: ReplyPayload,
    parsed: Reply,
    source: str,
    *,
    path: str,
    silent_token: str,
) -> list[Diagnostic]:
    """The parse's findings on the text, then what the merge discarded or hid (§2)."""
    text_path = join_path(path, "text")
    found = [d.model_copy(update={"field": text_path}) for d in parsed.diagnostics]
    parsed_media = list(parsed.media_urls)
    delivered = set(resolve_media(merged))
    if payload.media_urls is not None and parsed_media:
        found.extend(_discarded_media(parsed, delivered, source, text_path))
    explicit_single = js_trim(payload.media_url) if isinstance(payload.media_url, str) else ""
    explained_single = False
    if (
        payload.media_urls is None
        and explicit_single
        and parsed_media
        and explicit_single not in delivered
    ):
        explained_single = True
        found.append(
            diag(
                "payload.explicit_media_url_not_delivered",
                "warning",
                f"mediaUrl {explicit_single!r} stays on the payload but is not delivered: "
                "delivery uses the MEDIA: references parsed from the text. Put every "
                "attachment in mediaUrls.",
                join_path(path, "mediaUrl"),
            )
        )
    if parsed.is_silent:
        found.append(
            diag(
                "payload.silent",
                "info",
                f"the final text is the silent token {silent_token!r}; its text was removed "
                "and only structured content (if any) is delivered.",
                text_path,
            )
        )
    for d in payload_diagnostics(merged, path=path, from_intake=True):
        if d.code == "payload.media_url_ignored" and (
            explained_single or payload.media_url is None
        ):
            # Already explained above, or the mediaUrl came from parsing, not from the plugin.
            continue
        found.append(d)
    return found


def _discarded_media(
    parsed: Reply, delivered: set[str], source: str, text_path: str
) -> list[Diagnostic]:
    """Each parsed ``MEDIA:`` reference an explicit ``mediaUrls`` discarded (no union)."""
    found: list[Diagnostic] = []
    parsed_media = list(parsed.media_urls)
    media_spans = [s for s in parsed.spans if s.kind in ("media", "image")]
    spans_match = len(media_spans) == len(parsed_media)
    for i, ref in enumerate(parsed_media):
        if js_trim(ref) in delivered:
            continue
        message = (
            f"MEDIA reference {ref!r} was removed from the text but is not delivered: "
            "the payload's explicit mediaUrls wins wholesale (no union). Put every "
            "attachment in mediaUrls, or drop mediaUrls and keep the MEDIA: line."
        )
        if spans_match:
            span = media_spans[i]
            found.append(
                text_diag(
                    "payload.parsed_media_discarded",
                    "warning",
                    message,
                    field=text_path,
                    text=source,
                    start=span.start,
                    end=span.end,
                )
            )
        else:
            found.append(diag("payload.parsed_media_discarded", "warning", message, text_path))
    return found


def resolve_payload(
    obj: Any,
    *,
    parse_final_directives: bool = False,
    current_message_id: str | None = None,
    extract_markdown_images: bool = False,
    silent_token: str = "NO_REPLY",
    reply_mode: ReplyMode = "auto",
) -> PayloadResult:
    """Intake, optional directive merge, delivery list and renderability (the ``payload`` op)."""
    if not isinstance(obj, (ReplyPayload, Mapping)):
        raise InvalidInput(
            f"obj (the payload) must be a ReplyPayload or a mapping (a JSON object), "
            f"got {json_type_name(obj)}"
        )
    require_bool(parse_final_directives, "parse_final_directives")
    check_directive_options(current_message_id, extract_markdown_images, silent_token, reply_mode)
    found: list[Diagnostic]
    if isinstance(obj, ReplyPayload):
        payload, found = obj, []
        from_intake = False
    else:
        payload, found = as_payload(obj)
        from_intake = True
    is_silent: bool | None = None
    if parse_final_directives:
        if not from_intake:
            found.extend(_blank_entry_diagnostics(payload, ""))
        payload, is_silent, merged_found = merge_final_directives(
            payload,
            current_message_id=current_message_id,
            extract_markdown_images=extract_markdown_images,
            silent_token=silent_token,
            reply_mode=reply_mode,
        )
        found.extend(merged_found)
    else:
        found.extend(payload_diagnostics(payload, from_intake=from_intake))
    return PayloadResult.model_construct(
        media=resolve_media(payload),
        renderable=is_renderable(payload),
        text=payload.text,
        media_url=payload.media_url,
        media_urls=payload.media_urls,
        audio_as_voice=payload.audio_as_voice,
        reply_to_id=payload.reply_to_id,
        reply_to_tag=payload.reply_to_tag,
        reply_to_current=payload.reply_to_current,
        is_silent=is_silent,
        diagnostics=found,
        payload=payload,
    )


def _require_reply_payload(payload: object) -> None:
    """Entry check: ``payload`` is a :class:`ReplyPayload` (intake_payload reads mappings)."""
    if not isinstance(payload, ReplyPayload):
        raise InvalidInput(
            f"payload must be a ReplyPayload (intake_payload reads a mapping), "
            f"got {type(payload).__name__}"
        )


def check_directive_options(
    current_message_id: object,
    extract_markdown_images: object,
    silent_token: object,
    reply_mode: object,
) -> None:
    """Entry checks of the options shared by the functions that parse a final text."""
    require_str(current_message_id, "current_message_id", optional=True)
    require_bool(extract_markdown_images, "extract_markdown_images")
    require_str(silent_token, "silent_token")
    require_choice(reply_mode, "reply_mode", _REPLY_MODES)
