"""Streaming (TAGS.md §9): show a reply while it is generated, never half a directive.

:class:`StreamingParser` follows the reference accumulator
(``src/auto-reply/reply/streaming-directives.ts``), with hold-back rules that keep every held
construct whole (§9.2 as richout amends it; UPSTREAM.md §2.6): each call appends text, holds
back a tail that could still become a tag or a ``MEDIA:`` line, and returns what is left as
one delivery unit parsed on its own (§9.3), with a reply target that stays for the whole
message.

The reference rebuilds ``held tail + new chunk`` and rescans it on every call, so a tail that
stays held (an unclosed ``[[`` followed by thousands of small chunks) costs quadratic time.
Here the facts the hold-back rules ask about (the first ``[[`` that no ``]]`` follows, the
last line feed, how the last line begins) are kept up to date chunk by chunk, and text is
only copied when it leaves the parser, so every fed character is looked at a bounded number of
times. Offsets (``rawStart``/``rawEnd``, diagnostics) are code points of all text fed since the
last :meth:`StreamingParser.reset`.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from richout.errors import InvalidInput
from richout.models import Diagnostic, Reply, Severity, StreamChunk
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.tags.parse import TagMatch, parse_directives
from richout.tags.silent import DEFAULT_TOKEN, is_silent_prefix, is_token_only, strip_leading_token
from richout.text.chars import JS_WS_CLASS, js_rtrim, js_trim
from richout.views.reply import _delivery_strip, parse_reply

__all__ = ["StreamingParser"]

_WS_RUN = re.compile(f"[{JS_WS_CLASS}]*")
_HEAD = 6  # len("MEDIA:")


def _media_head(head: str) -> bool:
    """Rule 3: the line's first six characters could open a ``MEDIA:`` directive.

    Both profiles' directive tests are covered: ASCII case-insensitive (``next``) and full
    Unicode upper-casing (``release-2026.9.6``, where ``MEDıA:`` opens one), so a line either
    profile may lift is never emitted before it ends.
    """
    return head.upper().startswith("MEDIA:")


def _media_prefix(head: str) -> bool:
    """Rule 4: the whole line so far (after whitespace) may still grow into ``MEDIA:``."""
    return len(head) < _HEAD and "MEDIA:".startswith(head.upper())


_SHOW_MAX = 60


def _show(s: str) -> str:
    if len(s) > _SHOW_MAX:
        s = s[: _SHOW_MAX - 1] + "…"
    return repr(s)


class _Facts:
    """What the hold-back rules (§9.2) need to know about the held text, kept incrementally.

    Offsets are relative to the start of the held text. ``first_open`` is the first ``[[``
    that no later ``]]`` closes (rule 1): every ``[[`` after the last ``]]``, the first of them
    included, is still open, so a tag whose id holds ``[[`` is never cut. ``ws_end``/``head``
    describe the last line's first character that is not JavaScript whitespace and up to six
    characters from it (rules 3 and 4).
    """

    __slots__ = ("first_open", "head", "last", "last_nl", "n", "ws_end")

    def __init__(self) -> None:
        self.n = 0
        self.first_open = -1  # offset of the first "[[" after the last "]]"
        self.last_nl = -1
        self.ws_end: int | None = None
        self.head = ""
        self.last = ""  # the last character (a "[[" or "]]" can straddle two chunks)

    def extend(self, x: str) -> None:
        """Account for ``x`` appended to the held text (cost O(len(x)))."""
        if not x:
            return
        old = self.n
        joint = self.last + x
        base = old - len(self.last)
        j = joint.rfind("]]")
        if j >= 0:
            # A "]]" closes every "[[" before it; the open ones start after it.
            k = joint.find("[[", j + 2)
            self.first_open = base + k if k >= 0 else -1
        elif self.first_open < 0:
            k = joint.find("[[")
            if k >= 0:
                self.first_open = base + k
        j = x.rfind("\n")
        if j >= 0:
            self.last_nl = old + j
            self.ws_end = None
            self.head = ""
            self._line(x, j + 1, old)
        else:
            self._line(x, 0, old)
        self.n = old + len(x)
        self.last = x[-1]

    def _line(self, x: str, s: int, old: int) -> None:
        """Extend the last line's facts with ``x[s:]`` (``x`` starts at offset ``old``)."""
        if self.ws_end is None:
            m = _WS_RUN.match(x, s)
            k = s if m is None else m.end()
            if k < len(x):
                self.ws_end = old + k
                self.head = x[k : k + _HEAD]
        elif len(self.head) < _HEAD:
            self.head += x[s : s + _HEAD - len(self.head)]

    def hold(self) -> tuple[int, bool, list[int]]:
        """§9.2: the hold position, the trim flag, and which rules (1-4) set or matched it."""
        n = self.n
        h = n
        trim = False
        rules: list[tuple[int, int]] = []
        if self.first_open >= 0:
            h = self.first_open
            trim = True
            rules.append((1, h))
        if self.last == "[" and n - 1 < h:
            h = n - 1
            trim = True
            rules.append((2, h))
        line_start = self.last_nl + 1
        if self.ws_end is not None and _media_head(self.head):
            h = min(h, line_start)
            rules.append((3, line_start))
        elif n > line_start and (
            self.ws_end is None or (len(self.head) == n - self.ws_end and _media_prefix(self.head))
        ):
            h = min(h, line_start)
            rules.append((4, line_start))
        return h, trim, [r for r, at in rules if at == h]

    def suffix(self, h: int, read: Callable[[int, int], str]) -> _Facts:
        """The facts of the held text without its first ``h`` characters.

        ``read(a, b)`` returns characters ``[a, b)`` of the current held text; it is asked
        for at most a few characters (the new text's first line can only begin inside the old
        last line at a ``[``, which is not whitespace).
        """
        f = _Facts()
        f.n = self.n - h
        if self.first_open >= h:
            f.first_open = self.first_open - h
        f.last_nl = self.last_nl - h if self.last_nl >= h else -1
        f.last = self.last if f.n else ""
        if self.last_nl + 1 >= h:
            f.ws_end = None if self.ws_end is None else self.ws_end - h
            f.head = self.head
            return f
        # The kept text begins inside the last line (at the "[" of rule 1 or 2, never at
        # whitespace), so its own first line starts at offset 0: read just its beginning.
        pos = h
        while pos < self.n and (f.ws_end is None or len(f.head) < _HEAD):
            piece = read(pos, min(self.n, pos + 64))
            f._line(piece, 0, pos - h)
            pos += len(piece)
        return f


class _Fed:
    """All text fed since the last reset: chunks, their offsets and the line feeds."""

    __slots__ = ("chunks", "joined", "n", "newlines", "starts")

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.starts: list[int] = []
        self.newlines: list[int] = []
        self.n = 0
        self.joined: str | None = ""

    def append(self, x: str) -> None:
        if not x:
            return
        self.chunks.append(x)
        self.starts.append(self.n)
        i = x.find("\n")
        while i >= 0:
            self.newlines.append(self.n + i)
            i = x.find("\n", i + 1)
        self.n += len(x)
        self.joined = None

    def slice(self, a: int, b: int) -> str:
        """Characters ``[a, b)`` of the fed text (cost O(b - a) plus the chunks crossed)."""
        if a >= b:
            return ""
        k = bisect.bisect_right(self.starts, a) - 1
        parts: list[str] = []
        while k < len(self.chunks) and self.starts[k] < b:
            s = self.starts[k]
            chunk = self.chunks[k]
            parts.append(chunk[max(a - s, 0) : b - s])
            k += 1
        return "".join(parts)

    def text(self) -> str:
        if self.joined is None:
            self.joined = "".join(self.chunks)
        return self.joined

    def line_col(self, pos: int) -> tuple[int, int]:
        """1-based line and column of ``pos`` (lines end at ``\\n``)."""
        k = bisect.bisect_left(self.newlines, pos)
        start = self.newlines[k - 1] + 1 if k else 0
        return k + 1, pos - start + 1


@dataclass
class _Emitted:
    """One call's emitted part and what came with it."""

    text: str
    raw_start: int
    raw_end: int
    had_tail: bool
    held_sep: str
    final: bool


class StreamingParser:
    """Streams a reply chunk by chunk, holding back incomplete tags and ``MEDIA:`` lines.

    Each returned chunk is a delivery unit parsed on its own, as the reference accumulator
    does, so whitespace at chunk boundaries is judged per chunk: in a chunk where a tag is
    recognised, the chunk's trailing whitespace, its leading line breaks and a single leading
    blank are removed (the message-boundary step of ``parse_directives``, TAGS.md §5.1), and
    whitespace trimmed before a held ``[`` or ``[[`` is given back only when the next text
    starts with ``[`` (§9.3 step 3). Joined, the chunk texts can therefore differ from
    ``parse_reply(whole).text`` in whitespace at chunk boundaries: feeding
    ``"[[reply_to_current]] Sure "`` then ``"— here"`` streams ``"Sure"`` and ``"— here"``
    (``"Sure— here"`` joined) where ``parse_reply`` gives ``"Sure — here"``. :meth:`result`
    is the authoritative text.
    """

    def __init__(
        self,
        *,
        current_message_id: str | None = None,
        silent_token: str = DEFAULT_TOKEN,
        profile: str | Profile = DEFAULT_PROFILE,
        policy: Policy | None = None,
    ) -> None:
        """A parser for one assistant message at a time (call :meth:`reset` between them).

        ``current_message_id`` is the message being answered: with it, a chunk after
        ``[[reply_to_current]]`` carries it as ``reply_to_id`` (TAGS.md §2.3; an explicit id
        still wins), and :meth:`result` uses it unless given another. ``profile`` names the
        upstream behaviour the chunks and :meth:`result` follow; ``policy``
        (:class:`richout.Policy`) narrows the references :meth:`result` delivers.
        """
        if not isinstance(silent_token, str):
            raise InvalidInput(f"silent_token must be a string, got {type(silent_token).__name__}")
        if current_message_id is not None and not isinstance(current_message_id, str):
            raise InvalidInput(
                "current_message_id must be a string or None, got "
                f"{type(current_message_id).__name__}"
            )
        self.current_message_id = current_message_id
        self.silent_token = silent_token
        self.profile = resolve_profile(profile)
        if policy is not None and not isinstance(policy, Policy):
            raise InvalidInput(
                f"policy must be a richout.Policy or None, got {type(policy).__name__}"
            )
        self.policy = policy
        self.reset()

    # ------------------------------------------------------------------ public API

    def reset(self) -> None:
        """Forget everything: the next call starts a new assistant message at offset 0."""
        self._fed = _Fed()
        self._facts = _Facts()
        self._consumed = 0
        self._sep = ""
        self._reply_to_id: str | None = None
        self._reply_to_current = False
        self._reply_to_tag = False
        self._returned_text = False
        self._diagnostics: list[Diagnostic] = []

    def feed(self, chunk: str) -> StreamChunk | None:
        """Add ``chunk``; return the text that is safe to show now, or None (§9.2-§9.3)."""
        return self._consume(chunk, final=False)

    def finish(self, chunk: str = "") -> StreamChunk | None:
        """Add the last ``chunk`` and flush everything held (the message is complete)."""
        return self._consume(chunk, final=True)

    def result(self, current_message_id: str | None = None) -> Reply:
        """``parse_reply`` of all text fed since :meth:`reset`: the authoritative delivery view.

        ``current_message_id`` defaults to the one the parser was built with.
        """
        if current_message_id is None:
            current_message_id = self.current_message_id
        return parse_reply(
            self._fed.text(),
            current_message_id=current_message_id,
            silent_token=self.silent_token,
            profile=self.profile,
            policy=self.policy,
        )

    @property
    def consumed(self) -> int:
        """Code points of the fed text consumed so far (the next call's ``rawStart``)."""
        return self._consumed

    @property
    def held(self) -> str:
        """The held tail: fed text not consumed yet."""
        return self._fed.slice(self._consumed, self._fed.n)

    @property
    def text(self) -> str:
        """All text fed since the last :meth:`reset`."""
        return self._fed.text()

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every diagnostic of this message so far, including calls that returned None."""
        return list(self._diagnostics)

    # ------------------------------------------------------------------ the accumulator

    def _consume(self, chunk: str, *, final: bool) -> StreamChunk | None:
        if not isinstance(chunk, str):
            raise InvalidInput(f"chunk must be a string, got {type(chunk).__name__}")
        fed = self._fed
        start = self._consumed
        had_tail = fed.n > start
        held_sep = self._sep
        self._sep = ""
        fed.append(chunk)
        diags: list[Diagnostic] = []

        rules: list[int] = []
        if final:
            h, trim = fed.n - start, False
            self._facts = _Facts()
        else:
            self._facts.extend(chunk)
            h, trim, rules = self._facts.hold()
            self._facts = self._facts.suffix(h, lambda a, b: fed.slice(start + a, start + b))
        end = start + h
        part = fed.slice(start, end)
        # Only rules 1 and 2 trim, and both hold something back.
        emitted = js_rtrim(part) if trim else part
        if end < fed.n:
            diags.append(self._held_diagnostic(end, rules))
            separator = part[len(emitted) :]
            self._sep = separator if emitted else held_sep + separator
        self._consumed = end
        out = None
        if emitted:
            out = self._process(_Emitted(emitted, start, end, had_tail, held_sep, final), diags)
        self._diagnostics.extend(diags)
        return out

    def _process(self, e: _Emitted, diags: list[Diagnostic]) -> StreamChunk | None:
        """§9.3 on one emitted part; findings are appended to ``diags``."""
        token = self.silent_token
        # Every chunk reports its tag findings, so explain in the same pass: a lazy result
        # would parse the part a second time when its diagnostics are read below.
        d = parse_directives(e.text, profile=self.profile, explain=True) if "[[" in e.text else None
        recognised = d is not None and (d.has_reply_tag or d.has_audio_tag)
        text = d.text if d is not None and recognised else e.text
        silent = is_token_only(text, token) or is_silent_prefix(text, token)
        if silent:
            text = ""
        else:
            stripped = strip_leading_token(text, token)
            if stripped is not None:
                text = stripped
        if e.had_tail and e.held_sep and text.startswith("["):
            # A held "[" that turned out not to be a tag gets its space back.
            text = e.held_sep + text
        prefix_at: int | None = None
        if e.final and not self._returned_text:
            # Only a message-leading malformed reply marker is delivery control (§7.1).
            strip = _delivery_strip(text)
            for r in strip.removed:
                if not r.tag.complete:
                    prefix_at = self._explain_prefix(e, text, r.tag, diags)
            text = strip.text
        if d is not None:
            diags.extend(self._directive_diagnostics(d.diagnostics, e.raw_start, prefix_at))
            if d.reply_to_explicit_id is not None:
                self._reply_to_id = d.reply_to_explicit_id
            self._reply_to_current = self._reply_to_current or d.reply_to_current
            self._reply_to_tag = self._reply_to_tag or d.has_reply_tag
        audio = d.audio_as_voice if d is not None else False
        if not text and not audio:
            return None
        self._returned_text = self._returned_text or bool(text)
        return StreamChunk.trusted(
            text=text,
            reply_to_id=self._reply_target(),
            reply_to_explicit_id=d.reply_to_explicit_id if d is not None else None,
            reply_to_current=self._reply_to_current,
            reply_to_tag=self._reply_to_tag,
            audio_as_voice=audio,
            is_silent=silent,
            raw_start=e.raw_start,
            raw_end=e.raw_end,
            diagnostics=diags,
        )

    def _reply_target(self) -> str | None:
        """§2.3 on the sticky state: the explicit id, else the current message's id."""
        if self._reply_to_id is not None:
            return self._reply_to_id
        if self._reply_to_current and self.current_message_id is not None:
            return js_trim(self.current_message_id) or None
        return None

    # ------------------------------------------------------------------ diagnostics

    def _diag(
        self, code: str, severity: Severity, message: str, start: int, end: int
    ) -> Diagnostic:
        line, column = self._fed.line_col(start)
        # Values computed here, of the declared types: no validation per record.
        return Diagnostic.trusted(
            code=code,
            severity=severity,
            message=message,
            start=start,
            end=end,
            line=line,
            column=column,
        )

    def _held_diagnostic(self, at: int, rules: list[int]) -> Diagnostic:
        why = {
            1: "an unclosed '[[' (a tag may still be completing)",
            2: "a trailing '[' (it may start a tag)",
            3: "a MEDIA: line that has not ended (its reference may still be streaming)",
            4: "a line that may be the start of MEDIA:",
        }
        reasons = "; ".join(f"rule 9.2.{r}: {why[r]}" for r in rules)
        return self._diag(
            "stream.held",
            "info",
            f"{self._fed.n - at} character(s) are held back until more text arrives ({reasons}); "
            "they are released by a later feed() or by finish().",
            at,
            self._fed.n,
        )

    def _directive_diagnostics(
        self, found: list[Diagnostic], base: int, prefix_at: int | None
    ) -> list[Diagnostic]:
        """The chunk's tag findings in fed-text offsets.

        Streaming reads reply tags without a current message id by design (the caller maps
        ``replyToCurrent`` itself), so ``tag.current_without_id`` would only be noise; a
        malformed prefix removed at ``finish`` is explained by its own record.
        """
        out = []
        for d in found:
            if d.code == "tag.current_without_id" or d.start is None or d.end is None:
                continue
            if d.code == "tag.malformed" and prefix_at is not None and d.start == prefix_at:
                continue
            out.append(self._diag(d.code, d.severity, d.message, base + d.start, base + d.end))
        return out

    def _explain_prefix(
        self, e: _Emitted, text: str, tag: TagMatch, diags: list[Diagnostic]
    ) -> int | None:
        """``tag.malformed_prefix_stripped`` for a prefix removed at finish; its offset in ``e``.

        The prefix starts the message, and nothing before it in the emitted part survived
        into ``text``, so its first occurrence in the emitted part is the one removed.
        """
        core = text[tag.start : tag.end].rstrip(" \t")
        at = e.text.find(core)
        if at < 0:
            return None
        diags.append(
            self._diag(
                "tag.malformed_prefix_stripped",
                "warning",
                f"{_show(core)} at the start of the message is a malformed reply tag; it was "
                "removed before delivery and sets no reply target. Write [[reply_to_current]] "
                "or [[reply_to:<id>]] with both closing brackets.",
                e.raw_start + at,
                e.raw_start + at + len(core),
            )
        )
        return at
