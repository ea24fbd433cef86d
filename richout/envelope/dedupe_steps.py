"""The steps that dedupe one final payload (ENVELOPE.md §4.1-§4.2).

:class:`FinalizeRun` holds the evidence of one
:meth:`~richout.envelope.dedupe.DeliveryLedger.finalize` call and applies the specification's
order of operations to each payload: intake and the optional directive merge, message-tool
dedupe, text suppression against streamed blocks, media removal (every copy, blocks then
direct sends), voice-flag cleanup, and dropping what is no longer renderable. Each removal is
explained by a diagnostic naming what delivered it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from richout.envelope._common import diag, join_path
from richout.envelope.dedupe_text import (
    MIN_DUPLICATE_TEXT_UNITS,
    duplicate_of,
    normalize_for_duplicate,
)
from richout.envelope.models import ReplyPayload
from richout.envelope.payload import (
    ReplyMode,
    has_enabled_delivery,
    is_renderable,
    merge_final_directives,
    payload_diagnostics,
    resolve_media,
)
from richout.envelope.payload_intake import as_payload
from richout.models import Diagnostic
from richout.text.chars import JS_WS, js_trim, utf16_len

__all__ = [
    "NO_WS",
    "BlockEvidence",
    "FinalizeOptions",
    "FinalizeRun",
    "RefKeys",
    "ToolEvidence",
    "media_set",
]

#: The equality keys of one media reference (see :func:`~richout.envelope.refkey.ref_keys`).
RefKeys = Callable[[str], list[str]]
#: Message-tool evidence that applies to this route: (reference, label) and (text, label).
ToolEvidence = tuple[list[tuple[str, str]], list[tuple[str, str]]]

#: ``str.translate`` table that deletes JavaScript whitespace (joined block fragments).
NO_WS = {ord(c): None for c in JS_WS}


def media_set(items: Iterable[tuple[str, str]], keys: RefKeys) -> dict[str, str]:
    """Each equality key of each (reference, label), mapped to the first label that has it."""
    out: dict[str, str] = {}
    for ref, label in items:
        for key in keys(ref):
            out.setdefault(key, label)
    return out


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
class BlockEvidence:
    """Block evidence of one finalize call (§4.1), each item with the label of its source."""

    keys: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    fragments: list[str] = field(default_factory=list)
    fragment_labels: list[str] = field(default_factory=list)
    joined: str = ""
    caption_texts: dict[str, str] = field(default_factory=dict)
    media: dict[str, str] = field(default_factory=dict)
    any_block: bool = False


@dataclass
class FinalizeOptions:
    """The options of one finalize call, already checked."""

    stream_completed: bool
    block_streaming: bool
    parse_final_directives: bool
    current_message_id: str | None
    extract_markdown_images: bool
    silent_token: str
    reply_mode: ReplyMode


@dataclass(frozen=True)
class FinalizeRun:
    """One finalize call: its options and evidence, and the §4.2 steps for each payload."""

    opts: FinalizeOptions
    ev: BlockEvidence
    #: Media delivered by direct sends (§4.2 step 5), by equality key.
    direct: Mapping[str, str]
    #: Message-tool evidence for this route; None when there is none (or it does not apply).
    tool: ToolEvidence | None
    keys: RefKeys

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
            for key in self.keys(ref):
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

    def _text_sent(self, x: ReplyPayload) -> str | None:
        """Why ``x``'s text counts as already sent by blocks (§4.1), or None."""
        ev = self.ev
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
            and ev.joined == text.translate(NO_WS)
        ):
            return (
                "the text-only streamed blocks "
                + ", ".join(ev.fragment_labels)
                + " together delivered the same text"
            )
        return None

    def _suppress_text(
        self, p: ReplyPayload, path: str, found: list[Diagnostic]
    ) -> ReplyPayload | None:
        """§4.2 step 3; None means the payload is dropped."""
        ev, opts = self.ev, self.opts
        media = resolve_media(p)
        text = js_trim(p.text or "")
        if not opts.stream_completed:
            label = ev.keys.get(_content_key(p))
            why = (
                f"streamed block {label} delivered exactly this content"
                if label is not None
                else self._text_sent(p)
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
            why = self._text_sent(p)
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
        why = self._text_sent(text_only)
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
        evidence: ToolEvidence,
        path: str,
        found: list[Diagnostic],
    ) -> ReplyPayload | None:
        media, texts = evidence
        p, removed = self._remove_media(
            p, media_set(media, self.keys), path, found, "message-tool send"
        )
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
            if duplicate_of(norm, normalize_for_duplicate(sent)):
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

    def payload(
        self, obj: ReplyPayload | Mapping[str, Any], *, path: str, found: list[Diagnostic]
    ) -> ReplyPayload | None:
        """Apply §4.2 to one final payload; None means "do not deliver"."""
        opts, ev, tool = self.opts, self.ev, self.tool
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
            q = self._suppress_text(p, path, found)
            if q is None:
                return None
            p, _ = self._remove_media(q, ev.media, path, found, "streamed block")
        p, _ = self._remove_media(p, self.direct, path, found, "direct send")
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
