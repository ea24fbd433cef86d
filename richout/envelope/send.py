"""``message(action=send)``: the attachment shape and what a call sent (ENVELOPE.md §5).

One attachment goes in ``media``; several go in ``attachments: [{"media": ...}, ...]``; text
goes in ``message``. :func:`collect_send` reads back every reference a send-like call carried,
under every alias the reference accepts, for dedupe evidence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from richout.envelope._common import diag, join_path, require_mapping, require_str_list
from richout.envelope.models import MessageSend, Route, SendTarget
from richout.envelope.routes import read_thread_id, require_route
from richout.errors import InvalidInput, require_str
from richout.models import Diagnostic
from richout.text.chars import ascii_lower, js_trim

__all__ = [
    "SEND_LIKE_ACTIONS",
    "SendValidationError",
    "build_send",
    "collect_send",
    "collect_sent_media",
    "validate_send",
]

#: Actions whose media counts as delivered (§5.2).
SEND_LIKE_ACTIONS = frozenset(
    {"send", "thread-reply", "upload-file", "sendAttachment", "sendWithEffect"}
)

_CALL_KEYS = ("media", "mediaUrl", "path", "filePath", "fileUrl")
_ATTACHMENT_KEYS = (*_CALL_KEYS, "url")

#: Other ``message(action=send)`` parameters, by wire name (§5.1).
_PARAMS = (
    "caption",
    "filename",
    "buffer",
    "contentType",
    "mimeType",
    "asVoice",
    "replyTo",
    "threadId",
    "silent",
    "forceDocument",
    "gifPlayback",
    "channel",
    "target",
    "targets",
    "accountId",
)


def _param_names() -> dict[str, str]:
    """Each parameter by wire name and by its snake_case Python spelling."""
    names: dict[str, str] = {}
    for wire in _PARAMS:
        names[wire] = wire
        names["".join("_" + c.lower() if c.isupper() else c for c in wire)] = wire
    return names


_PARAM_BY_NAME = _param_names()


class SendValidationError(InvalidInput):
    """A ``message(action=send)`` shape that the tool would reject; see ``diagnostics``."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics
        super().__init__("; ".join(f"{d.field}: {d.message}" for d in diagnostics))


def _reference_problem(ref: Any, field: str) -> Diagnostic | None:
    if not isinstance(ref, str) or not js_trim(ref):
        return diag(
            "send.empty_reference",
            "error",
            "an attachment reference must be a non-empty URL or path string; remove the "
            "entry or give the file's path or URL.",
            field,
        )
    if ascii_lower(js_trim(ref)[:5]) == "data:":
        return diag(
            "send.data_url_in_media",
            "error",
            "data: URLs are not accepted as media; pass the bytes in buffer (base64 or a data "
            "URL) with filename and contentType instead.",
            field,
        )
    return None


def build_send(refs: Iterable[str], *, message: str | None = None, **params: Any) -> dict[str, Any]:
    """The ``message(action=send)`` arguments for ``refs`` (§5.1).

    One reference becomes ``media``; two or more become ``attachments`` in order. References
    are trimmed; an empty one or a ``data:`` URL raises :class:`SendValidationError`. Other
    parameters may be given by wire name (``asVoice``) or snake_case (``as_voice``).
    """
    items = require_str_list(refs, "refs")
    require_str(message, "message", optional=True)
    problems = [
        p
        for i, ref in enumerate(items)
        if (p := _reference_problem(ref, "media" if len(items) == 1 else f"attachments[{i}].media"))
    ]
    if problems:
        raise SendValidationError(problems)
    if not items and not message:
        raise InvalidInput("nothing to send: give at least one reference or a message")
    call: dict[str, Any] = {"action": "send"}
    trimmed = [js_trim(r) for r in items]
    if len(trimmed) == 1:
        call["media"] = trimmed[0]
    elif trimmed:
        call["attachments"] = [{"media": r} for r in trimmed]
    if message is not None:
        call["message"] = message
    for name, value in params.items():
        wire = _PARAM_BY_NAME.get(name)
        if wire is None:
            raise InvalidInput(f"unknown message(action=send) parameter {name!r}")
        if wire in call:
            raise InvalidInput(f"parameter {wire!r} given twice")
        if value is not None:
            call[wire] = value
    return call


def validate_send(params: Mapping[str, Any]) -> list[Diagnostic]:
    """Problems with the ``media`` / ``attachments`` of existing send arguments (§5.1)."""
    require_mapping(params, "params (the send arguments)")
    found: list[Diagnostic] = []
    if "media" in params and params["media"] is not None:
        problem = _reference_problem(params["media"], "media")
        if problem:
            found.append(problem)
    attachments = params.get("attachments")
    if isinstance(attachments, (list, tuple)):
        for i, item in enumerate(attachments):
            where = f"attachments[{i}]"
            if not isinstance(item, Mapping):
                found.append(
                    diag(
                        "send.empty_reference",
                        "error",
                        "each attachment must be an object {media: ...}",
                        where,
                    )
                )
                continue
            problem = _reference_problem(item.get("media"), join_path(where, "media"))
            if problem:
                found.append(problem)
    return found


def _add(out: list[str], seen: set[str], value: Any) -> None:
    if isinstance(value, str):
        trimmed = js_trim(value)
        if trimmed and trimmed not in seen:
            seen.add(trimmed)
            out.append(trimmed)


def collect_sent_media(params: Mapping[str, Any]) -> list[str]:
    """Every reference a send call carried, in the reference's alias order (§5.2).

    ``media``, ``mediaUrl``, ``path``, ``filePath``, ``fileUrl``, each string of
    ``mediaUrls``, then per attachment ``media``, ``mediaUrl``, ``path``, ``filePath``,
    ``fileUrl``, ``url``. Non-strings are ignored; values are trimmed; blanks and exact
    duplicates are dropped.
    """
    require_mapping(params, "params (the send arguments)")
    out: list[str] = []
    seen: set[str] = set()
    for key in _CALL_KEYS:
        _add(out, seen, params.get(key))
    urls = params.get("mediaUrls")
    if isinstance(urls, (list, tuple)):
        for value in urls:
            _add(out, seen, value)
    attachments = params.get("attachments")
    if isinstance(attachments, (list, tuple)):
        for item in attachments:
            if isinstance(item, Mapping):
                for key in _ATTACHMENT_KEYS:
                    _add(out, seen, item.get(key))
    return out


def _opt_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def collect_send(
    params: Mapping[str, Any], *, route: Route | None = None, tool: str = "message"
) -> MessageSend:
    """What one message-tool call sent: references, text and per-target records (§5.2).

    The recorded target is ``{provider: channel or the route's provider, to: target (one
    record per entry of targets), accountId, threadId, text: message, mediaUrls}``; a call
    without ``target``/``targets`` records the current route with ``threadImplicit``.
    """
    require_mapping(params, "params (the send arguments)")
    require_route(route)
    require_str(tool, "tool")
    action = params.get("action")
    action_name = action if isinstance(action, str) else None
    if action_name not in SEND_LIKE_ACTIONS:
        return MessageSend.model_construct(
            action=action_name, send_like=False, media_urls=[], targets=[], diagnostics=[]
        )
    found = validate_send(params)
    media = collect_sent_media(params)
    message = params.get("message")
    text = message if isinstance(message, str) else None
    provider = _opt_str(params.get("channel")) or (route.provider if route else None)
    account = _opt_str(params.get("accountId"))
    thread = read_thread_id(params.get("threadId"))
    tos: list[str] = []
    target = params.get("target")
    if isinstance(target, str) and js_trim(target):
        tos.append(target)
    targets = params.get("targets")
    if isinstance(targets, (list, tuple)):
        tos.extend(t for t in targets if isinstance(t, str) and js_trim(t))
    records: list[SendTarget] = []
    if tos:
        for to in tos:
            records.append(
                SendTarget.model_construct(
                    tool=tool,
                    provider=provider,
                    account_id=account,
                    to=to,
                    thread_id=thread,
                    thread_implicit=False,
                    text=text,
                    media_urls=list(media),
                )
            )
    else:
        records.append(
            SendTarget.model_construct(
                tool=tool,
                provider=provider,
                account_id=account
                if account is not None
                else (route.account_id if route else None),
                to=route.to if route else None,
                thread_id=thread,
                thread_implicit=True,
                text=text,
                media_urls=list(media),
            )
        )
    return MessageSend.model_construct(
        action=action_name,
        send_like=True,
        media_urls=media,
        text=text,
        targets=records,
        diagnostics=found,
    )
