"""Block streaming for gateways: deliver a reply in blocks while it streams, media once.

:class:`BlockStreamer` takes the model's text deltas and returns :class:`Block` records at
safe boundaries: the start of a paragraph (a line after a blank line) that begins at column 0
with neither whitespace nor ``[``, outside a fenced code block, with no ``[[`` still open
before it. A block therefore never ends inside a fence, a half-written tag or a half-written
``MEDIA:`` line, and the CommonMark context at the cut is the top level, so each block is
parsed as ``parse_reply`` parses that stretch of the whole reply. Every emitted block is
recorded in a :class:`~richout.envelope.DeliveryLedger` (its text and its media as separate
evidence, ENVELOPE.md §4.1), and :meth:`BlockStreamer.finish` runs the final reply through
:meth:`~richout.envelope.DeliveryLedger.finalize`, so media already streamed is not sent again
and text already streamed is dropped.

Until a block delivers text, each segment starts the message, so the delivery strip and the
silent rules read it as they read the start of the whole reply. What a start leaves can
depend on what follows: whitespace it leaves (a line of U+00A0, a refused ``MEDIA:`` line's
remains) may keep a later malformed reply prefix from being at the start, and a later
consumed line makes the whole reply drop leading blank lines, which may put one there. So a
start that leaves no text, or text a later line could change (read once more with a stand-in
for such lines), is held and read again with what follows, its media sent at once. The held
text is read again only when it has doubled (or at the end), so the cost stays linear.

What is guaranteed, for a stream that completes with a reply ``parse_reply`` does not find
silent (``tests/test_blocks.py`` checks it on random cuttings of generated replies):

- the blocks' ``media_urls``, in order, are ``parse_reply``'s ``media_urls`` with repeats
  removed (each reference is delivered once), and the final payload carries no media;
- the blocks' texts, concatenated, equal ``parse_reply``'s text once every JavaScript
  whitespace character is removed from both — the comparison ENVELOPE.md §4.1 makes, so the
  final payload carries no text either: finishing a completed stream sends nothing more;
- no block's span (``raw_start``/``raw_end``) cuts a tag or ``MEDIA:`` line of the whole reply.

Limits, inherent to sending before the end is known: a reply target or voice flag that only a
later block sets applies from that block on (the final payload carries the whole reply's), and
a reply that turns out silent (TAGS.md §8.4) may already have streamed blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from richout.envelope.dedupe import DeliveryLedger
from richout.envelope.models import ReplyPayload
from richout.errors import InvalidInput, require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.models import Attachment, Diagnostic, Reply
from richout.models.attachments import describe
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.tags.silent import DEFAULT_TOKEN
from richout.text.chars import JS_WS, js_ltrim, js_trim
from richout.views.reply import parse_reply

__all__ = ["Block", "BlockFinish", "BlockStreamer"]

# A fence line at the top level: up to three spaces, then ``` or ~~~ (CommonMark 4.5).
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
# Prepended to every block after the first: a paragraph and a blank line put the block at the
# top level, as in the whole reply, and keep the message-start rules (the delivery strip of
# TAGS.md §7.1 and the silent rules of §8) from reading the block as a message of its own.
_GUARD = "x\n\n"
_NO_WS = {ord(c): None for c in JS_WS}
# Stands for what may follow the message start: a consumed MEDIA: line and recognised tags
# (the split then drops leading blank lines, and section 5.1 trims the start), all removed, so
# the text of a start that no later line can change is the same with it (BlockStreamer).
_LATER = "\n\n[[reply_to_current]] [[audio_as_voice]]\nMEDIA:./richout-probe.png"


@dataclass(frozen=True)
class Block:
    """One block to deliver now: its text, its attachments and the reply's flags so far."""

    text: str
    #: References of the block's ``MEDIA:`` lines not delivered by an earlier block.
    media_urls: tuple[str, ...]
    #: True once the reply so far holds ``[[audio_as_voice]]``.
    audio_as_voice: bool
    #: The reply target so far (TAGS.md §2.3, with the streamer's ``current_message_id``).
    reply_to_id: str | None
    #: Code points of the fed text this block adds. Blocks cover disjoint stretches; text held
    #: from the message start (see the module) is delivered with a later block's text.
    raw_start: int
    raw_end: int
    #: :attr:`media_urls` as attachment facts (kind, source, voice;
    #: :mod:`richout.models.attachments`).
    attachments: tuple[Attachment, ...] = ()

    def __post_init__(self) -> None:
        require_str(self.text, "text")
        if not isinstance(self.media_urls, tuple) or not all(
            isinstance(r, str) for r in self.media_urls
        ):
            raise InvalidInput("media_urls must be a tuple of strings")
        if not isinstance(self.attachments, tuple) or not all(
            isinstance(a, Attachment) for a in self.attachments
        ):
            raise InvalidInput("attachments must be a tuple of richout.Attachment")
        require_bool(self.audio_as_voice, "audio_as_voice")
        if self.reply_to_id is not None:
            require_str(self.reply_to_id, "reply_to_id")
        for name in ("raw_start", "raw_end"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise InvalidInput(f"{name} must be a non-negative int, got {value!r}")

    def to_payload(self) -> dict[str, Any]:
        """The block as a reply payload (ENVELOPE.md §1.1 wire names; empty fields left out)."""
        out: dict[str, Any] = {}
        if self.text:
            out["text"] = self.text
        if self.media_urls:
            out["mediaUrls"] = list(self.media_urls)
            if self.audio_as_voice:
                out["audioAsVoice"] = True
        if self.reply_to_id is not None:
            out["replyToId"] = self.reply_to_id
        return out


@dataclass(frozen=True)
class BlockFinish:
    """What finishing a stream leaves to send: the last blocks, then the final payload."""

    #: The rest of the reply, as blocks to send before :attr:`payload`.
    blocks: tuple[Block, ...]
    #: What the final reply still adds after dedupe; None when everything was streamed.
    payload: ReplyPayload | None
    #: ``parse_reply`` of the final reply: the authoritative delivery view.
    reply: Reply
    #: Why the dedupe removed what it removed (ENVELOPE.md §4, ``dedupe.*`` codes).
    diagnostics: tuple[Diagnostic, ...]

    def __post_init__(self) -> None:
        if not all(isinstance(b, Block) for b in self.blocks):
            raise InvalidInput("blocks must be a tuple of Block")
        if self.payload is not None and not isinstance(self.payload, ReplyPayload):
            raise InvalidInput("payload must be a ReplyPayload or None")
        if not isinstance(self.reply, Reply):
            raise InvalidInput("reply must be a Reply")


class BlockStreamer:
    """Cuts a streaming reply into blocks at safe boundaries and delivers each medium once."""

    def __init__(
        self,
        *,
        current_message_id: str | None = None,
        profile: str | Profile = DEFAULT_PROFILE,
        policy: Policy | None = None,
        silent_token: str = DEFAULT_TOKEN,
        ledger: DeliveryLedger | None = None,
    ) -> None:
        """A streamer for one assistant message; ``ledger`` defaults to a new one."""
        if current_message_id is not None:
            require_str(current_message_id, "current_message_id")
        require_str(silent_token, "silent_token")
        if policy is not None and not isinstance(policy, Policy):
            raise InvalidInput(f"policy must be a richout.Policy, got {type(policy).__name__}")
        if ledger is not None and not isinstance(ledger, DeliveryLedger):
            raise InvalidInput(
                f"ledger must be a richout.envelope.DeliveryLedger, got {type(ledger).__name__}"
            )
        self.current_message_id = current_message_id
        self.profile = resolve_profile(profile)
        self.policy = policy
        self.silent_token = silent_token
        self.ledger = DeliveryLedger() if ledger is None else ledger
        self._fed: list[str] = []
        self._n = 0
        self._lines: list[str] = []  # complete lines since the last cut
        self._pending = 0  # code points in self._lines
        self._start = 0  # offset of the first pending character
        self._line: list[str] = []  # the line being written
        self._line_checked = False
        self._after_blank = False
        self._fence: tuple[str, int] | None = None
        self._open = False  # a "[[" after the last "]]" in the pending text
        self._first = True  # no text delivered yet
        # The message start not yet delivered as text (segments that left none, or whose
        # text a later line could still change): read again with what follows.
        self._held: list[str] = []
        self._held_len = 0
        self._held_read = 0  # length of the held text when it was last read with a segment
        self._explicit: str | None = None
        self._current = False
        self._voice = False
        self._sent: set[str] = set()
        self._blocks: list[Block] = []
        self._finished = False

    @property
    def blocks(self) -> tuple[Block, ...]:
        """Every block emitted so far, in order."""
        return tuple(self._blocks)

    @property
    def text(self) -> str:
        """All text fed so far."""
        return "".join(self._fed)

    @property
    def pending(self) -> str:
        """Fed text no block covers yet (it waits for a safe boundary or :meth:`finish`)."""
        return self.text[self._start :]

    def feed(self, delta: str) -> list[Block]:
        """Add ``delta``; return the blocks that became safe to deliver (often none)."""
        require_str(delta, "delta")
        if self._finished:
            raise InvalidInput("feed() after finish(): start a new BlockStreamer per message")
        self._fed.append(delta)
        self._n += len(delta)
        out: list[Block] = []
        pos = 0
        while pos < len(delta):
            nl = delta.find("\n", pos)
            piece = delta[pos:] if nl < 0 else delta[pos : nl + 1]
            pos += len(piece)
            if not self._line_checked:
                self._line_checked = True
                block = self._maybe_cut(piece[0])
                if block is not None:
                    out.append(block)
            if nl < 0:
                self._line.append(piece)
            else:
                self._line.append(piece)
                self._complete_line("".join(self._line))
                self._line = []
                self._line_checked = False
        return out

    def finish(
        self, final_text: str | None = None, *, stream_completed: bool = True
    ) -> BlockFinish:
        """End the message: the last blocks and the final payload, deduped (ENVELOPE.md §4).

        ``final_text`` is the runner's final reply; by default, everything fed. When the stream
        completed, what is still pending becomes the last blocks first (a ``final_text`` that
        extends the fed text is fed first). When it broke off (``stream_completed=False``),
        nothing more is streamed and the final payload carries what the blocks did not.
        """
        if final_text is not None:
            require_str(final_text, "final_text")
        require_bool(stream_completed, "stream_completed")
        if self._finished:
            raise InvalidInput("finish() was already called for this message")
        fed = self.text
        blocks: list[Block] = []
        if stream_completed:
            if final_text is not None and final_text.startswith(fed):
                blocks += self.feed(final_text[len(fed) :])
            tail = self._emit(self._pending_text() + "".join(self._line), last=True)
            if tail is not None:
                blocks.append(tail)
            self._lines, self._line, self._pending = [], [], 0
        self._finished = True
        whole = self.text if final_text is None else final_text
        reply = parse_reply(
            whole,
            current_message_id=self.current_message_id,
            silent_token=self.silent_token,
            profile=self.profile,
            policy=self.policy,
        )
        final: dict[str, Any] = {"text": reply.text, "mediaUrls": list(reply.media_urls)}
        if reply.audio_as_voice:
            final["audioAsVoice"] = True
        if reply.reply_to_id is not None:
            final["replyToId"] = reply.reply_to_id
        result = self.ledger.finalize([final], stream_completed=stream_completed)
        return BlockFinish(
            blocks=tuple(blocks),
            payload=result.payloads[0],
            reply=reply,
            diagnostics=tuple(result.diagnostics),
        )

    # ------------------------------------------------------------------ cutting

    def _pending_text(self) -> str:
        if len(self._lines) > 1:
            self._lines = ["".join(self._lines)]
        return self._lines[0] if self._lines else ""

    def _maybe_cut(self, first: str) -> Block | None:
        """Cut before the line whose first character just arrived, if that is safe."""
        if (
            not self._pending
            or not self._after_blank
            or self._fence is not None
            or self._open
            or first in " \t\r\n["
        ):
            return None
        pending = self._pending_text()
        # The fence tracker reads top-level fences only; the CommonMark parse confirms the
        # new line is not inside a code block the tracker could not see.
        if CodeMap(pending + first).line_in_block(len(pending), len(pending) + 1):
            return None
        if self._first and self._parse(pending).is_silent:
            return None  # the reply may still be a silent one; wait for more
        self._lines, self._pending = [], 0
        return self._emit(pending)

    def _complete_line(self, line: str) -> None:
        self._lines.append(line)
        self._pending += len(line)
        j = line.rfind("]]")
        if j >= 0:
            self._open = "[[" in line[j + 2 :]
        elif "[[" in line:
            self._open = True
        self._after_blank = not line.strip(" \t\r\n")
        body = line.rstrip("\r\n")
        m = _FENCE.fullmatch(body)
        if self._fence is None:
            if m is not None and (m[1][0] == "~" or "`" not in m[2]):
                self._fence = (m[1][0], len(m[1]))
        elif (
            m is not None
            and m[1][0] == self._fence[0]
            and len(m[1]) >= self._fence[1]
            and not m[2].strip(" \t")
        ):
            self._fence = None

    def _parse(self, text: str) -> Reply:
        return parse_reply(
            text,
            silent_token=self.silent_token,
            profile=self.profile,
            policy=self.policy,
        )

    def _emit(self, segment: str, *, last: bool = False) -> Block | None:
        """Parse one segment as the whole reply parses it; record and return its block."""
        start = self._start
        self._start += len(segment)
        if not segment and not (last and self._held):
            return None
        if self._first:
            reply, text = self._read_start(segment, last)
        else:
            reply = self._parse(_GUARD + segment)
            text = js_ltrim(reply.text[1:]) if reply.text.startswith("x") else reply.text
        if reply.reply_to_id is not None:
            self._explicit = reply.reply_to_id
        self._current = self._current or reply.reply_to_current
        self._voice = self._voice or reply.audio_as_voice
        media: list[str] = []
        for ref in reply.media_urls:
            if ref not in self._sent:
                self._sent.add(ref)
                media.append(ref)
        if not js_trim(text) and not media:
            return None
        block = Block(
            text=text,
            media_urls=tuple(media),
            audio_as_voice=self._voice,
            reply_to_id=self._target(),
            raw_start=start,
            raw_end=self._start,
            attachments=tuple(describe(ref, voice=self._voice) for ref in media),
        )
        # Text and media are separate evidence: a caption is not text evidence (§4.1).
        if js_trim(text):
            self.ledger.record_block({"text": text})
        if media:
            self.ledger.record_block({"mediaUrls": media})
        self._blocks.append(block)
        return block

    def _read_start(self, segment: str, last: bool) -> tuple[Reply, str]:
        """Read a segment while no text was delivered: it starts the message, so the delivery
        strip and silent rules apply to it as they do to the whole reply.

        What the message start leaves can depend on what follows: whitespace a segment
        leaves may stay in front of a later malformed reply prefix (so it is not at the
        start), and a later consumed line (a ``MEDIA:`` line, a tag) makes the whole reply
        drop leading blank lines (so it is). Such a start is held and read again with what
        follows; the returned text is empty while it is held, and the held start's media
        is delivered at once. A start that left no text alone is read again with the first
        segment that leaves text; after that, the held text is read again only when it has
        at least doubled since it was last read (or at the end), so the cost stays linear.
        """
        alone = self._parse(segment)
        held = self._held
        if held and (last or (js_trim(alone.text) and self._held_len >= 2 * self._held_read)):
            source = "".join(held) + segment
            reply = self._parse(source)
        elif held:
            held.append(segment)
            self._held_len += len(segment)
            return alone, ""
        else:
            source, reply = segment, alone
        text = reply.text
        if js_trim(text) and (last or not self._may_change(source, text)):
            self._first = False
            self._held, self._held_len, self._held_read = [], 0, 0
            return reply, text
        if not last:
            # A start that left no text alone is read with the next segment that leaves text;
            # once read with what followed (or holding text) it waits until it has doubled.
            read = len(source) if held or js_trim(text) else 0
            self._held, self._held_len, self._held_read = [source], len(source), read
        return reply, ""

    def _may_change(self, start: str, text: str) -> bool:
        """Could a later line change the text ``start`` leaves (beyond whitespace)?"""
        probe = self._parse(start + _LATER).text
        return squash(probe) != squash(text)

    def _target(self) -> str | None:
        if self._explicit is not None:
            return self._explicit
        if self._current and self.current_message_id is not None:
            return js_trim(self.current_message_id) or None
        return None


def squash(text: str) -> str:
    """``text`` without JavaScript whitespace: what ENVELOPE.md §4.1 compares streamed text by."""
    return text.translate(_NO_WS)
