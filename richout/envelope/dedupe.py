"""Dedupe of final payloads against what a turn already delivered (ENVELOPE.md §4).

A :class:`DeliveryLedger` records the evidence of one turn — streamed blocks that were
delivered, payloads sent directly, and ``message(action=send)`` calls (scoped to the route
they targeted) — and :meth:`DeliveryLedger.finalize` applies the specification's order of
operations to the final payloads (:mod:`richout.envelope.dedupe_steps`): message-tool dedupe,
text suppression, media removal (every copy), voice-flag cleanup, and dropping what is no
longer renderable. Each removal is explained by a diagnostic that names the block or send
that delivered it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from richout.envelope._common import diag, require_callable
from richout.envelope.dedupe_steps import (
    NO_WS,
    BlockEvidence,
    FinalizeOptions,
    FinalizeRun,
    ToolEvidence,
    media_set,
)
from richout.envelope.models import DedupeResult, ReplyPayload, Route, SendTarget
from richout.envelope.payload import ReplyMode, check_directive_options, resolve_media
from richout.envelope.payload_intake import as_payload
from richout.envelope.refkey import NormalizeMedia, ref_keys
from richout.envelope.routes import route_from, target_from, target_matches_route
from richout.envelope.send import collect_send
from richout.errors import InvalidInput, require_bool, require_str
from richout.models import Diagnostic
from richout.text.chars import js_trim

__all__ = ["DeliveryLedger"]


def _require_payload(value: object, name: str) -> None:
    """Entry check: a :class:`ReplyPayload` or a mapping (read by loose intake)."""
    if not isinstance(value, (ReplyPayload, Mapping)):
        raise InvalidInput(
            f"{name} must be a ReplyPayload or a mapping (a JSON object), "
            f"got {type(value).__name__}"
        )


def _finalize_options(
    *,
    stream_completed: bool,
    block_streaming: bool,
    parse_final_directives: bool,
    current_message_id: str | None,
    extract_markdown_images: bool,
    silent_token: str,
    reply_mode: ReplyMode,
) -> FinalizeOptions:
    """Entry checks of :meth:`DeliveryLedger.finalize` and ``finalize_one`` (never truthiness),
    then the checked options."""
    require_bool(stream_completed, "stream_completed")
    require_bool(block_streaming, "block_streaming")
    require_bool(parse_final_directives, "parse_final_directives")
    check_directive_options(current_message_id, extract_markdown_images, silent_token, reply_mode)
    return FinalizeOptions(
        stream_completed=bool(stream_completed),
        block_streaming=bool(block_streaming),
        parse_final_directives=bool(parse_final_directives),
        current_message_id=current_message_id,
        extract_markdown_images=bool(extract_markdown_images),
        silent_token=silent_token,
        reply_mode=reply_mode,
    )


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
        return media_set(items, self._keys)

    def _block_evidence(self) -> BlockEvidence:
        ev = BlockEvidence(any_block=bool(self._blocks))
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
        ev.joined = "".join(ev.fragments).translate(NO_WS)
        ev.media = self._media_set(
            (ref, label) for p, label in self._blocks for ref in resolve_media(p)
        )
        return ev

    def _tool_evidence(self, found: list[Diagnostic]) -> ToolEvidence | None:
        """The message-tool evidence that applies to the current route (§4.3)."""
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

    # -- finalize -----------------------------------------------------------------------

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
        opts = _finalize_options(
            stream_completed=stream_completed,
            block_streaming=block_streaming,
            parse_final_directives=parse_final_directives,
            current_message_id=current_message_id,
            extract_markdown_images=extract_markdown_images,
            silent_token=silent_token,
            reply_mode=reply_mode,
        )
        return self._run([(p, f"final[{i}]") for i, p in enumerate(payloads)], opts)

    def _run(
        self, items: list[tuple[ReplyPayload | Mapping[str, Any], str]], opts: FinalizeOptions
    ) -> DedupeResult:
        found: list[Diagnostic] = list(self._diagnostics)
        run = FinalizeRun(
            opts=opts,
            ev=self._block_evidence() if opts.block_streaming else BlockEvidence(),
            direct=self._media_set(
                (ref, label) for p, label in self._direct for ref in resolve_media(p)
            ),
            tool=self._tool_evidence(found),
            keys=self._keys,
        )
        out = [run.payload(obj, path=path, found=found) for obj, path in items]
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
        opts = _finalize_options(
            stream_completed=stream_completed,
            block_streaming=block_streaming,
            parse_final_directives=parse_final_directives,
            current_message_id=current_message_id,
            extract_markdown_images=extract_markdown_images,
            silent_token=silent_token,
            reply_mode=reply_mode,
        )
        return self._run([(payload, path)], opts)
