"""What the streaming parser holds back, and the text it was fed (TAGS.md §9.2).

:class:`Facts` keeps, chunk by chunk, the facts the hold-back rules ask about (the first
``[[`` no ``]]`` follows, the last line feed, how the last line begins) so a tail that stays
held is never rescanned; :class:`Fed` stores the fed text without copying it until it
leaves the parser; :class:`Emitted` is one delivery unit on its way out.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from richout.text.chars import JS_WS_CLASS

__all__ = ["Emitted", "Facts", "Fed"]

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


class Facts:
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
            self._forget_line()
            self._line(x, j + 1, old)
        else:
            self._line(x, 0, old)
        self.n = old + len(x)
        self.last = x[-1]

    def _forget_line(self) -> None:
        """Forget the last line's facts: the line is read again from its start."""
        self.ws_end = None
        self.head = ""

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
        if not rules:
            return h, trim, []
        # (A loop: a comprehension's frame cost more than the few rules it reads.)
        matched: list[int] = []
        for r, at in rules:
            if at == h:
                matched.append(r)
        return h, trim, matched

    def drop(self, h: int, read: Callable[[int, int], str]) -> None:
        """Become the facts of the held text without its first ``h`` characters.

        ``read(a, b)`` returns characters ``[a, b)`` of the current held text; it is asked
        for at most a few characters (the new text's first line can only begin inside the old
        last line at a ``[``, which is not whitespace). In place: a stream fed 64 characters
        at a time calls this once a chunk.
        """
        n = self.n
        if h == n:
            # Nothing is held: a held text ending with its last line feed has no last-line
            # facts either, so the empty text's facts are the answer.
            self.n = 0
            self.first_open = self.last_nl = -1
            self.last = ""
            self._forget_line()
            return
        self.n = n - h
        self.first_open = self.first_open - h if self.first_open >= h else -1
        last_nl = self.last_nl
        self.last_nl = last_nl - h if last_nl >= h else -1
        if last_nl + 1 >= h:
            if self.ws_end is not None:
                self.ws_end -= h
            return
        # The kept text begins inside the last line (at the "[" of rule 1 or 2, never at
        # whitespace), so its own first line starts at offset 0: read just its beginning.
        # (Forgotten through a call: assigned None here, the attribute's type would narrow
        # to None for the loop, which _line sets, and the compiled build checks it.)
        self._forget_line()
        pos = h
        while pos < n and (self.ws_end is None or len(self.head) < _HEAD):
            piece = read(pos, min(n, pos + 64))
            self._line(piece, 0, pos - h)
            pos += len(piece)


class Fed:
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
        last = self.starts[-1]
        if a >= last:
            # Inside the newest chunk, where a stream's parts mostly lie.
            return self.chunks[-1][a - last : b - last]
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


@dataclass(slots=True)
class Emitted:
    """One call's emitted part and what came with it."""

    text: str
    raw_start: int
    raw_end: int
    had_tail: bool
    held_sep: str
    final: bool
