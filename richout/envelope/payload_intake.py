"""Loose intake of reply payloads (ENVELOPE.md §1.2): keep what the reference keeps.

Payloads arrive from plugins as loose JSON. :func:`intake_payload` keeps each well-typed
field — strings, the ``mediaUrls`` list, the true-only flags, object fields — and explains
every field or ``mediaUrls`` entry it drops, so a plugin author sees why an attachment or a
flag vanished.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from richout.envelope._common import diag, join_path, json_type_name
from richout.envelope.models import PayloadIntake, ReplyPayload
from richout.errors import InvalidInput, require_str
from richout.models import Diagnostic
from richout.text.chars import js_trim

__all__ = ["as_payload", "blank_entry_diagnostic", "intake_payload"]

_STRING_FIELDS = (("text", "text"), ("mediaUrl", "media_url"), ("replyToId", "reply_to_id"))
_TRUE_FLAGS = (
    ("audioAsVoice", "audio_as_voice"),
    ("isError", "is_error"),
    ("replyToTag", "reply_to_tag"),
    ("replyToCurrent", "reply_to_current"),
    ("trustedLocalMedia", "trusted_local_media"),
    ("sensitiveMedia", "sensitive_media"),
)
_OBJECT_FIELDS = (
    ("channelData", "channel_data"),
    ("presentation", "presentation"),
    ("interactive", "interactive"),
    ("location", "location"),
    ("delivery", "delivery"),
)


def _is_json_object(value: Any) -> bool:
    """A mapping whose keys are all strings (what a JSON object can be)."""
    return isinstance(value, Mapping) and all(isinstance(k, str) for k in value)


def blank_entry_diagnostic(i: int, where: str) -> Diagnostic:
    """A ``mediaUrls`` entry that is kept but blank: it keeps the list non-empty (so
    ``mediaUrl`` is ignored) yet resolves to nothing (§1.3 step 4)."""
    return diag(
        "payload.media_entry_dropped",
        "warning",
        f"mediaUrls entry {i} is blank; it is dropped when the delivery list is resolved. "
        "Remove it or give a reference.",
        where,
    )


def _media_urls(
    value: list[Any] | tuple[Any, ...], path: str, found: list[Diagnostic]
) -> list[str]:
    """The string entries of ``mediaUrls``; each dropped or blank entry explained."""
    kept: list[str] = []
    for i, entry in enumerate(value):
        where = join_path(join_path(path, "mediaUrls"), i)
        if not isinstance(entry, str) or entry == "":
            what = "an empty string" if entry == "" else f"a {json_type_name(entry)}"
            found.append(
                diag(
                    "payload.media_entry_dropped",
                    "warning",
                    f"mediaUrls entry {i} is {what}, not a reference; it was dropped. "
                    "Each entry must be a non-empty URL or path string.",
                    where,
                )
            )
            continue
        kept.append(entry)
        if not js_trim(entry):
            found.append(blank_entry_diagnostic(i, where))
    return kept


def _intake(obj: Mapping[Any, Any], path: str) -> tuple[ReplyPayload, list[Diagnostic]]:
    found: list[Diagnostic] = []
    fields: dict[str, Any] = {}

    def dropped(key: str, value: Any, want: str) -> None:
        found.append(
            diag(
                "payload.field_dropped",
                "warning",
                f"{key} must be {want}, got {json_type_name(value)}; the field was ignored "
                f"(treated as absent). Send {key} as {want}.",
                join_path(path, key),
            )
        )

    for key, name in _STRING_FIELDS:
        if key in obj:
            value = obj[key]
            if isinstance(value, str):
                fields[name] = value
            elif value is not None:
                dropped(key, value, "a string")

    if "mediaUrls" in obj:
        value = obj["mediaUrls"]
        if isinstance(value, (list, tuple)):
            fields["media_urls"] = _media_urls(value, path, found)
        elif value is not None:
            dropped("mediaUrls", value, "a list of strings")

    for key, name in _TRUE_FLAGS:
        if key in obj:
            value = obj[key]
            if value is True:
                fields[name] = True
            elif value is not None and value is not False:
                # false is the same as absent; only a non-boolean is a dropped value.
                dropped(key, value, "true or false")

    for key, name in _OBJECT_FIELDS:
        if key in obj:
            value = obj[key]
            if _is_json_object(value):
                fields[name] = dict(value)
            elif value is not None:
                dropped(key, value, "an object")

    return ReplyPayload.model_construct(**fields), found


def intake_payload(obj: Any, *, path: str = "") -> PayloadIntake:
    """Loose intake of a plugin payload (§1.2): keep well-typed fields, explain the rest.

    ``obj`` must be a mapping (a JSON object); anything else is an InvalidInput. ``path`` is
    the JSON path prefix used in diagnostics (e.g. ``final``).
    """
    require_str(path, "path")
    if isinstance(obj, ReplyPayload):
        return PayloadIntake(payload=obj)
    if not isinstance(obj, Mapping):
        where = path or "obj (the payload)"
        raise InvalidInput(f"{where} must be a JSON object, got {json_type_name(obj)}")
    payload, found = _intake(obj, path)
    return PayloadIntake.model_construct(payload=payload, diagnostics=found)


def as_payload(obj: Any, *, path: str = "") -> tuple[ReplyPayload, list[Diagnostic]]:
    """A :class:`ReplyPayload` from a payload or a loose mapping, with intake diagnostics."""
    if isinstance(obj, ReplyPayload):
        return obj, []
    if not isinstance(obj, Mapping):
        intake_payload(obj, path=path)  # raises the InvalidInput with its message
    return _intake(obj, path)
