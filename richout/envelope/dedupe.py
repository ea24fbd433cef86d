"""Dedupe of final payloads against what a turn already delivered (ENVELOPE.md §4).

A :class:`DeliveryLedger` records the evidence of one turn — streamed blocks that were
delivered, payloads sent directly, and ``message(action=send)`` calls (scoped to the route
they targeted) — and :meth:`DeliveryLedger.finalize` applies the specification's order of
operations to the final payloads: message-tool dedupe, text suppression, media removal (every
copy), voice-flag cleanup, and dropping what is no longer renderable. Each removal is
explained by a diagnostic that names the block or send that delivered it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex  # type: ignore[import-untyped,unused-ignore]  # stubs are not in the test extras

from richout.envelope._common import diag, join_path, require_callable, require_str_list
from richout.envelope.models import DedupeResult, ReplyPayload, Route, SendTarget
from richout.envelope.payload import (
    ReplyMode,
    as_payload,
    check_directive_options,
    has_enabled_delivery,
    is_renderable,
    merge_final_directives,
    payload_diagnostics,
    resolve_media,
)
from richout.envelope.refkey import NormalizeMedia, ref_keys
from richout.envelope.send import collect_send
from richout.errors import InvalidInput, require_bool, require_str
from richout.models import Diagnostic
from richout.text.chars import JS_WS, JS_WS_CLASS, js_trim, utf16_len

__all__ = [
    "MIN_DUPLICATE_TEXT_UNITS",
    "DeliveryLedger",
    "is_duplicate_text",
    "normalize_for_duplicate",
    "route_from",
    "target_from",
    "target_matches_route",
]

#: Texts shorter than this (UTF-16 units, after normalisation) never count as duplicates.
MIN_DUPLICATE_TEXT_UNITS = 10

_EMOJI = regex.compile(r"[\p{Emoji_Presentation}\p{Extended_Pictographic}]+")
_WS_RUN = re.compile(f"[{JS_WS_CLASS}]+")
_NO_WS = {ord(c): None for c in JS_WS}


def normalize_for_duplicate(text: str) -> str:
    """Lower-case, drop emoji, collapse whitespace runs to one space, trim (§4.3)."""
    require_str(text)
    s = js_trim(text).lower()
    if not s.isascii():
        s = _EMOJI.sub("", s)
    return js_trim(_WS_RUN.sub(" ", s))


def _duplicate_of(norm: str, sent_norm: str) -> bool:
    """Both normalised; one contains the other and the shorter is at least half the longer."""
    n, m = utf16_len(norm), utf16_len(sent_norm)
    if n < MIN_DUPLICATE_TEXT_UNITS or m < MIN_DUPLICATE_TEXT_UNITS:
        return False
    if n >= m:
        return sent_norm in norm and 2 * m >= n
    return norm in sent_norm and 2 * n >= m


def is_duplicate_text(text: str, sent_texts: Iterable[str]) -> bool:
    """True when ``text`` duplicates one of ``sent_texts`` by the message-tool rule (§4.3)."""
    require_str(text)
    sent_texts = require_str_list(sent_texts, "sent_texts")
    norm = normalize_for_duplicate(text)
    return any(_duplicate_of(norm, normalize_for_duplicate(s)) for s in sent_texts)


def _opt_str(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string")
    return value


def _thread(value: Any) -> str | int | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        # Ids beyond 64 bits are not ids any channel uses; treating them as absent also keeps
        # them away from int-to-str conversion limits.
        return value if value.bit_length() <= 64 else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def route_from(value: Route | Mapping[str, Any] | None) -> Route | None:
    """A :class:`Route` from a model or ``{"provider", "to", "accountId"?, "threadId"?}``."""
    if value is None or isinstance(value, Route):
        return value
    if not isinstance(value, Mapping):
        raise InvalidInput('route must be an object {"provider", "to", "accountId"?, "threadId"?}')
    thread = value.get("threadId")
    if thread is not None and _thread(thread) is None:
        raise InvalidInput("route.threadId must be a string or an integer")
    return Route.model_construct(
        provider=_opt_str(value.get("provider"), "route.provider"),
        to=_opt_str(value.get("to"), "route.to"),
        account_id=_opt_str(value.get("accountId"), "route.accountId"),
        thread_id=_thread(thread),
    )


def target_from(value: SendTarget | Mapping[str, Any]) -> SendTarget:
    """A :class:`SendTarget` from a recorded target object; ill-typed fields are ignored."""
    if isinstance(value, SendTarget):
        return value
    if not isinstance(value, Mapping):
        raise InvalidInput("each sentTargets entry must be an object")

    def s(key: str) -> str | None:
        v = value.get(key)
        return v if isinstance(v, str) else None

    urls = value.get("mediaUrls")
    return SendTarget.model_construct(
        tool=s("tool"),
        provider=s("provider"),
        account_id=s("accountId"),
        to=s("to"),
        thread_id=_thread(value.get("threadId")),
        thread_implicit=value.get("threadImplicit") is True,
        text=s("text"),
        media_urls=[u for u in urls if isinstance(u, str)] if isinstance(urls, list) else [],
    )


def _thread_key(value: str | int | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, int):
        return str(value)
    return js_trim(value) or None


def target_matches_route(target: SendTarget, route: Route | None) -> bool:
    """Whether a message-tool send went to the current route (§4.3, no channel plugins)."""
    if not isinstance(target, SendTarget):
        raise InvalidInput(f"target must be a SendTarget, got {type(target).__name__}")
    if route is not None and not isinstance(route, Route):
        raise InvalidInput(f"route must be a Route or None, got {type(route).__name__}")
    if route is None or not route.provider or not js_trim(route.provider):
        return False
    route_provider = js_trim(route.provider).lower()
    if target.provider is not None:
        provider = js_trim(target.provider).lower()
        if provider and provider not in ("message", route_provider):
            return False
    route_account = js_trim(route.account_id or "")
    target_account = js_trim(target.account_id or "")
    if route_account and target_account and route_account != target_account:
        return False
    implicit = target.thread_implicit
    to = target.to
    if to is None:
        # A send without a target went to the current route, in its thread.
        to, implicit = route.to, True
    route_to = js_trim(route.to or "")
    if not route_to or route_to != js_trim(to or ""):
        return False
    route_thread = _thread_key(route.thread_id)
    target_thread = _thread_key(target.thread_id)
    if target_thread is None and implicit:
        target_thread = route_thread
    return route_thread == target_thread


def _has_rich(p: ReplyPayload) -> bool:
    return bool(p.channel_data) or p.presentation is not None or p.interactive is not None


def _has_other_content(p: ReplyPayload) -> bool:
    """Anything besides text that makes a payload worth delivering."""
    return (
        bool(resolve_media(p))
        or bool(p.channel_data)
        or p.presentation is not None
        or p.interactive is not None
        or p.location is not None
        or has_enabled_delivery(p)
    )


def _content_key(p: ReplyPayload) -> tuple[str, tuple[str, ...]]:
    return js_trim(p.text or ""), tuple(resolve_media(p))


@dataclass
class _Evidence:
    """Block evidence of one finalize call (§4.1), each item with the label of its source."""

    keys: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    fragments: list[str] = field(default_factory=list)
    fragment_labels: list[str] = field(default_factory=list)
    joined: str = ""
    caption_texts: dict[str, str] = field(default_factory=dict)
    media: dict[str, str] = field(default_factory=dict)
    any_block: bool = False


@dataclass
class _Options:
    stream_completed: bool
    block_streaming: bool
    parse_final_directives: bool
    current_message_id: str | None
    extract_markdown_images: bool
    silent_token: str
    reply_mode: ReplyMode


def _require_payload(value: object, name: str) -> None:
    """Entry check: a :class:`ReplyPayload` or a mapping (read by loose intake)."""
    if not isinstance(value, (ReplyPayload, Mapping)):
        raise InvalidInput(
            f"{name} must be a ReplyPayload or a mapping (a JSON object), "
            f"got {type(value).__name__}"
        )


def _check_finalize_options(
    *,
    stream_completed: object,
    block_streaming: object,
    parse_final_directives: object,
    current_message_id: object,
    extract_markdown_images: object,
    silent_token: object,
    reply_mode: object,
) -> None:
    """Entry checks of :meth:`DeliveryLedger.finalize` and ``finalize_one`` (never truthiness)."""
    require_bool(stream_completed, "stream_completed")
    require_bool(block_streaming, "block_streaming")
    require_bool(parse_final_directives, "parse_final_directives")
    check_directive_options(current_message_id, extract_markdown_images, silent_token, reply_mode)


class DeliveryLedger:
    """What one turn already delivered, and the dedupe of its final payloads (§4).

    Record evidence as it happens — :meth:`record_block` for each streamed block whose
    delivery succeeded, :meth:`record_direct_send` for payloads sent directly,
    :meth:`record_message_send` for each ``message(action=send)`` call — then call
    :meth:`finalize` with the final payloads.
    """

    def __init__(
        self,
        *,
        route: Route | Mapping[str, Any] | None = None,
        normalize_media: NormalizeMedia | None = None,
        legacy_refs: bool = False,
    ) -> None:
        require_callable(normalize_media, "normalize_media")
        require_bool(legacy_refs, "legacy_refs")
        self._route = route_from(route)
        self._normalize = normalize_media
        self._legacy = legacy_refs
        self._blocks: list[tuple[ReplyPayload, str]] = []
        self._direct: list[tuple[ReplyPayload, str]] = []
        self._tool_media: list[tuple[str, str]] = []
        self._tool_texts: list[tuple[str, str]] = []
        self._targets: list[tuple[SendTarget, str]] = []
        self._sends = 0
        self._diagnostics: list[Diagnostic] = []

    @property
    def route(self) -> Route | None:
        """The current route message-tool targets are matched against."""
        return self._route

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What was dropped from the recorded evidence (ill-typed fields and entries)."""
        return list(self._diagnostics)

    def record_block(self, payload: ReplyPayload | Mapping[str, Any]) -> None:
        """Record a streamed block payload that was delivered successfully, with its media."""
        _require_payload(payload, "payload")
        label = f"streamed[{len(self._blocks)}]"
        p, found = as_payload(payload, path=label)
        self._diagnostics.extend(found)
        self._blocks.append((p, label))

    def record_direct_send(self, payload: ReplyPayload | Mapping[str, Any]) -> None:
        """Record a payload delivered directly while block streaming was off (§4.2 step 5)."""
        _require_payload(payload, "payload")
        label = f"directSends[{len(self._direct)}]"
        p, found = as_payload(payload, path=label)
        self._diagnostics.extend(found)
        self._direct.append((p, label))

    def record_message_send(self, params: Mapping[str, Any], *, tool: str = "message") -> None:
        """Record one message-tool call (``message(action=send)`` and other send-like actions)."""
        sent = collect_send(params, route=self._route, tool=tool)
        if not sent.send_like:
            return
        label = f"message send #{self._sends}"
        self._sends += 1
        self._tool_media.extend((ref, label) for ref in sent.media_urls)
        if sent.text is not None and js_trim(sent.text):
            self._tool_texts.append((sent.text, label))
        for i, target in enumerate(sent.targets):
            self._targets.append((target, f"{label} target {i}"))

    def record_message_evidence(
        self,
        *,
        sent_media_urls: Iterable[str] = (),
        sent_texts: Iterable[str] = (),
        sent_targets: Iterable[SendTarget | Mapping[str, Any]] = (),
    ) -> None:
        """Record message-tool evidence as the host collected it (the ``dedupe`` op's shape)."""
        for arg, name, values, sink in (
            ("sent_media_urls", "sentMediaUrls", sent_media_urls, self._tool_media),
            ("sent_texts", "sentTexts", sent_texts, self._tool_texts),
        ):
            if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
                raise InvalidInput(f"{arg} (messageToolSends.{name}) must be a list of strings")
            start = sum(1 for _, lab in sink if lab.startswith(f"messageToolSends.{name}["))
            for i, value in enumerate(values):
                if not isinstance(value, str):
                    raise InvalidInput(f"{arg} (messageToolSends.{name})[{i}] must be a string")
                sink.append((value, f"messageToolSends.{name}[{start + i}]"))
        if isinstance(sent_targets, (str, bytes)) or not isinstance(sent_targets, Iterable):
            raise InvalidInput(
                "sent_targets (messageToolSends.sentTargets) must be a list of objects"
            )
        start = len(self._targets)
        for i, target in enumerate(sent_targets):
            if not isinstance(target, (SendTarget, Mapping)):
                raise InvalidInput(
                    f"sent_targets (messageToolSends.sentTargets)[{i}] must be a SendTarget "
                    f"or an object, got {type(target).__name__}"
                )
            self._targets.append(
                (target_from(target), f"messageToolSends.sentTargets[{start + i}]")
            )

    # -- evidence -----------------------------------------------------------------------

    def _keys(self, ref: str) -> list[str]:
        return ref_keys(ref, legacy=self._legacy, normalize_media=self._normalize)

    def _media_set(self, items: Iterable[tuple[str, str]]) -> dict[str, str]:
        out: dict[str, str] = {}
        for ref, label in items:
            for key in self._keys(ref):
                out.setdefault(key, label)
        return out

    def _block_evidence(self) -> _Evidence:
        ev = _Evidence(any_block=bool(self._blocks))
        for p, label in self._blocks:
            media = resolve_media(p)
            text = js_trim(p.text or "")
            ev.keys.setdefault((text, tuple(media)), label)
            if media:
                if text:
                    ev.caption_texts.setdefault(text, label)
            elif text:
                ev.fragments.append(text)
                ev.fragment_labels.append(label)
        ev.joined = "".join(ev.fragments).translate(_NO_WS)
        ev.media = self._media_set(
            (ref, label) for p, label in self._blocks for ref in resolve_media(p)
        )
        return ev

    def _tool_evidence(
        self, found: list[Diagnostic]
    ) -> tuple[list[tuple[str, str]], list[tuple[str, str]]] | None:
        if not (self._tool_media or self._tool_texts or self._targets):
            return None
        if not self._targets:
            return list(self._tool_media), list(self._tool_texts)
        route = self._route
        if route is None:
            found.append(
                diag(
                    "dedupe.no_route",
                    "warning",
                    "message-tool sends carry targets but no route was given, so none can be "
                    "matched and message-tool dedupe was skipped; pass the current route "
                    '({"provider", "to", "accountId"?, "threadId"?}).',
                    "messageToolSends.sentTargets",
                )
            )
            return None
        matching = [(t, lab) for t, lab in self._targets if target_matches_route(t, route)]
        if not matching:
            why = (
                "the route has no provider"
                if not route.provider or not js_trim(route.provider)
                else f"none of the {len(self._targets)} targets went to "
                f"{route.provider}:{route.to} (provider, account, target and thread must match)"
            )
            found.append(
                diag(
                    "dedupe.cross_route_ignored",
                    "info",
                    f"message-tool sends exist but {why}; what they sent elsewhere does not "
                    "remove anything from this reply.",
                    "messageToolSends.sentTargets",
                )
            )
            return None
        media = [
            (u, lab)
            for t, lab in matching
            for u in t.media_urls
            if isinstance(u, str) and js_trim(u)
        ]
        texts = [
            (t.text, lab) for t, lab in matching if isinstance(t.text, str) and js_trim(t.text)
        ]
        if len(matching) == len(self._targets):
            media = media or list(self._tool_media)
            texts = texts or list(self._tool_texts)
        return media, texts

    # -- steps --------------------------------------------------------------------------

    def _remove_media(
        self,
        p: ReplyPayload,
        sent: Mapping[str, str],
        path: str,
        found: list[Diagnostic],
        what: str,
    ) -> tuple[ReplyPayload, bool]:
        """§4.2 step 4: drop ``mediaUrl`` and every ``mediaUrls`` entry already delivered."""
        if not sent or has_enabled_delivery(p):
            return p, False

        def hit(ref: str) -> str | None:
            for key in self._keys(ref):
                if key in sent:
                    return sent[key]
            return None

        update: dict[str, Any] = {}
        single = p.media_url
        if isinstance(single, str) and single:
            source = hit(single)
            if source is not None:
                update["media_url"] = None
                found.append(
                    diag(
                        "dedupe.media_removed",
                        "info",
                        f"mediaUrl {single!r} was removed: {what} {source} already delivered it.",
                        join_path(path, "mediaUrl"),
                    )
                )
        urls = p.media_urls
        had_list = bool(urls)
        if urls:
            kept: list[str] = []
            for i, ref in enumerate(urls):
                source = hit(ref)
                if source is None:
                    kept.append(ref)
                    continue
                found.append(
                    diag(
                        "dedupe.media_removed",
                        "info",
                        f"mediaUrls entry {ref!r} was removed: {what} {source} already "
                        "delivered it.",
                        join_path(join_path(path, "mediaUrls"), i),
                    )
                )
            if len(kept) != len(urls):
                update["media_urls"] = kept or None
        if not update:
            return p, False
        out = p.model_copy(update=update)
        remaining = out.media_url
        if had_list and not out.media_urls and isinstance(remaining, str) and js_trim(remaining):
            found.append(
                diag(
                    "dedupe.legacy_media_url_promoted",
                    "warning",
                    f"every mediaUrls entry was already delivered, so the remaining legacy "
                    f"mediaUrl {remaining!r} (which mediaUrls had hidden) becomes the delivered "
                    "attachment. Keep mediaUrl equal to mediaUrls[0].",
                    join_path(path, "mediaUrl"),
                )
            )
        return out, True

    def _text_sent(self, x: ReplyPayload, ev: _Evidence) -> str | None:
        """Why ``x``'s text counts as already sent by blocks (§4.1), or None."""
        text = js_trim(x.text or "")
        if not text or resolve_media(x):
            return None
        label = ev.keys.get((text, ()))
        if label is not None:
            return f"streamed block {label} delivered the same text"
        if (
            ev.any_block
            and ev.fragments
            and not x.is_error
            and not _has_rich(x)
            and ev.joined == text.translate(_NO_WS)
        ):
            return (
                "the text-only streamed blocks "
                + ", ".join(ev.fragment_labels)
                + " together delivered the same text"
            )
        return None

    def _suppress_text(
        self,
        p: ReplyPayload,
        ev: _Evidence,
        opts: _Options,
        path: str,
        found: list[Diagnostic],
    ) -> ReplyPayload | None:
        """§4.2 step 3; None means the payload is dropped."""
        media = resolve_media(p)
        text = js_trim(p.text or "")
        if not opts.stream_completed:
            label = ev.keys.get(_content_key(p))
            why = (
                f"streamed block {label} delivered exactly this content"
                if label is not None
                else self._text_sent(p, ev)
            )
            if why is not None:
                found.append(
                    diag(
                        "dedupe.payload_dropped",
                        "info",
                        f"the final payload was dropped (text suppression, stream not "
                        f"completed): {why}.",
                        path,
                    )
                )
                return None
        if p.is_error or not text:
            return p
        if not media:
            why = self._text_sent(p, ev)
            if why is not None:
                found.append(
                    diag(
                        "dedupe.payload_dropped",
                        "info",
                        f"the final payload was dropped (text suppression): {why}.",
                        path,
                    )
                )
                return None
            return p
        text_only = p.model_copy(
            update={"media_url": None, "media_urls": None, "audio_as_voice": False}
        )
        why = self._text_sent(text_only, ev)
        if why is None:
            return p
        found.append(
            diag(
                "dedupe.text_removed",
                "info",
                f"the text was removed as already sent ({why}); the media goes on to the "
                "media checks, which remove any reference already delivered "
                "(dedupe.media_removed) and keep the rest.",
                join_path(path, "text"),
            )
        )
        return p.model_copy(update={"text": None})

    def _message_tool_step(
        self,
        p: ReplyPayload,
        evidence: tuple[list[tuple[str, str]], list[tuple[str, str]]],
        path: str,
        found: list[Diagnostic],
    ) -> ReplyPayload | None:
        media, texts = evidence
        p, removed = self._remove_media(p, self._media_set(media), path, found, "message-tool send")
        if removed and p.audio_as_voice and not resolve_media(p):
            p = p.model_copy(update={"audio_as_voice": False})
        if not texts or _has_other_content(p):
            return p
        norm = normalize_for_duplicate(p.text or "")
        if not norm:
            return p
        if utf16_len(norm) < MIN_DUPLICATE_TEXT_UNITS:
            found.append(
                diag(
                    "dedupe.short_text_not_compared",
                    "info",
                    f"the text is {utf16_len(norm)} normalised units long; texts under "
                    f"{MIN_DUPLICATE_TEXT_UNITS} are never treated as duplicates of a "
                    "message-tool send, so it is kept.",
                    join_path(path, "text"),
                )
            )
            return p
        for sent, label in texts:
            if _duplicate_of(norm, normalize_for_duplicate(sent)):
                found.append(
                    diag(
                        "dedupe.payload_dropped",
                        "info",
                        f"the final payload was dropped (message-tool dedupe): its text "
                        f"duplicates what {label} sent and it carries nothing else.",
                        path,
                    )
                )
                return None
        return p

    def _finalize_one(
        self,
        obj: ReplyPayload | Mapping[str, Any],
        *,
        path: str,
        opts: _Options,
        ev: _Evidence,
        direct: Mapping[str, str],
        tool: tuple[list[tuple[str, str]], list[tuple[str, str]]] | None,
        found: list[Diagnostic],
    ) -> ReplyPayload | None:
        p, intake = as_payload(obj, path=path)
        found.extend(intake)
        if opts.parse_final_directives:
            p, _, merged = merge_final_directives(
                p,
                current_message_id=opts.current_message_id,
                extract_markdown_images=opts.extract_markdown_images,
                silent_token=opts.silent_token,
                reply_mode=opts.reply_mode,
                path=path,
            )
            found.extend(merged)
        else:
            found.extend(
                payload_diagnostics(p, path=path, from_intake=not isinstance(obj, ReplyPayload))
            )
        if not is_renderable(p):
            found.append(
                diag(
                    "dedupe.payload_dropped",
                    "info",
                    "the final payload was dropped before dedupe: it has nothing renderable "
                    "(no text, media, voice flag or rich content).",
                    path,
                )
            )
            return None
        if tool is not None:
            q = self._message_tool_step(p, tool, path, found)
            if q is None:
                return None
            p = q
        text_before = js_trim(p.text or "")
        if opts.block_streaming:
            q = self._suppress_text(p, ev, opts, path, found)
            if q is None:
                return None
            p, _ = self._remove_media(q, ev.media, path, found, "streamed block")
        p, _ = self._remove_media(p, direct, path, found, "direct send")
        if p.audio_as_voice and not resolve_media(p):
            p = p.model_copy(update={"audio_as_voice": False})
        if not is_renderable(p):
            found.append(
                diag(
                    "dedupe.payload_dropped",
                    "info",
                    "the final payload was dropped: after dedupe nothing renderable is left "
                    "(its text and media were already delivered).",
                    path,
                )
            )
            return None
        kept_text = js_trim(p.text or "")
        if opts.block_streaming and kept_text and kept_text == text_before:
            label = ev.caption_texts.get(kept_text)
            if label is not None:
                found.append(
                    diag(
                        "dedupe.caption_resent",
                        "warning",
                        f"this text equals the caption of media-bearing block {label}, which "
                        "was already delivered; it is sent again because captions are not "
                        "text evidence. Stream the caption as its own text block, or leave "
                        "it out of the final answer.",
                        join_path(path, "text"),
                    )
                )
        return p

    def finalize(
        self,
        payloads: Sequence[ReplyPayload | Mapping[str, Any]],
        *,
        stream_completed: bool = True,
        block_streaming: bool = True,
        parse_final_directives: bool = False,
        current_message_id: str | None = None,
        extract_markdown_images: bool = False,
        silent_token: str = "NO_REPLY",
        reply_mode: ReplyMode = "auto",
    ) -> DedupeResult:
        """Apply §4.2 to each final payload; ``None`` in the result means "do not deliver"."""
        if isinstance(payloads, (ReplyPayload, Mapping)) or not isinstance(payloads, Sequence):
            raise InvalidInput("payloads must be a list of reply payloads")
        for i, payload in enumerate(payloads):
            _require_payload(payload, f"payloads[{i}]")
        _check_finalize_options(
            stream_completed=stream_completed,
            block_streaming=block_streaming,
            parse_final_directives=parse_final_directives,
            current_message_id=current_message_id,
            extract_markdown_images=extract_markdown_images,
            silent_token=silent_token,
            reply_mode=reply_mode,
        )
        opts = _Options(
            stream_completed=bool(stream_completed),
            block_streaming=bool(block_streaming),
            parse_final_directives=bool(parse_final_directives),
            current_message_id=current_message_id,
            extract_markdown_images=bool(extract_markdown_images),
            silent_token=silent_token,
            reply_mode=reply_mode,
        )
        return self._run([(p, f"final[{i}]") for i, p in enumerate(payloads)], opts)

    def _run(
        self, items: list[tuple[ReplyPayload | Mapping[str, Any], str]], opts: _Options
    ) -> DedupeResult:
        found: list[Diagnostic] = list(self._diagnostics)
        ev = self._block_evidence() if opts.block_streaming else _Evidence()
        direct = self._media_set(
            (ref, label) for p, label in self._direct for ref in resolve_media(p)
        )
        tool = self._tool_evidence(found)
        out = [
            self._finalize_one(
                obj, path=path, opts=opts, ev=ev, direct=direct, tool=tool, found=found
            )
            for obj, path in items
        ]
        return DedupeResult.model_construct(payloads=out, diagnostics=found)

    def finalize_one(
        self,
        payload: ReplyPayload | Mapping[str, Any],
        *,
        path: str = "final",
        stream_completed: bool = True,
        block_streaming: bool = True,
        parse_final_directives: bool = False,
        current_message_id: str | None = None,
        extract_markdown_images: bool = False,
        silent_token: str = "NO_REPLY",
        reply_mode: ReplyMode = "auto",
    ) -> DedupeResult:
        """:meth:`finalize` for one payload, with ``path`` as its JSON path in diagnostics."""
        _require_payload(payload, "payload")
        require_str(path, "path")
        _check_finalize_options(
            stream_completed=stream_completed,
            block_streaming=block_streaming,
            parse_final_directives=parse_final_directives,
            current_message_id=current_message_id,
            extract_markdown_images=extract_markdown_images,
            silent_token=silent_token,
            reply_mode=reply_mode,
        )
        opts = _Options(
            stream_completed=bool(stream_completed),
            block_streaming=bool(block_streaming),
            parse_final_directives=bool(parse_final_directives),
            current_message_id=current_message_id,
            extract_markdown_images=bool(extract_markdown_images),
            silent_token=silent_token,
            reply_mode=reply_mode,
        )
        return self._run([(payload, path)], opts)
