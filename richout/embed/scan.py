"""Where a shortcode is found: the pre-scan of ``[embed`` openers (EMBED.md §2).

The reference finds shortcodes with two regexes that backtrack heavily on hostile input. Here
:class:`OpenerIndex` lists, once, where every opener, every ``]`` and every ``[/embed]`` is;
the two independent scans of §2.3 then walk those lists with moving pointers, so each
shortcode costs O(1) to locate and thousands of unclosed openers stay linear.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from richout.text.chars import is_js_ws

__all__ = ["CLOSER_LEN", "OPENER", "VIEW", "Found", "OpenerIndex", "positions"]

# Literal, quantifier-free patterns: ASCII case-insensitive without lower-casing the text.
OPENER = re.compile(r"\[[Ee][Mm][Bb][Ee][Dd]")
_CLOSER = re.compile(r"\[/[Ee][Mm][Bb][Ee][Dd]\]")
CLOSER_LEN = len("[/embed]")
VIEW = re.compile(r"\[[Vv][Ii][Ee][Ww]")


class Found(NamedTuple):
    """A shortcode found by one of the two scans (§2.3)."""

    start: int
    end: int
    close: int  # offset of the opener's "]"
    block: bool


def positions(haystack: str, needle: str) -> list[int]:
    """Every offset of ``needle`` in ``haystack``, ascending (one C-level search each)."""
    out: list[int] = []
    find = haystack.find
    i = find(needle)
    while i >= 0:
        out.append(i)
        i = find(needle, i + 1)
    return out


class OpenerIndex:
    """Where every opener, ``]`` and ``[/embed]`` of one text is (one pass each)."""

    __slots__ = ("brackets", "closers", "newlines", "openers", "quotes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        n = len(text)
        self.openers = [
            m.start() for m in OPENER.finditer(text) if m.end() < n and is_js_ws(text[m.end()])
        ]
        self.brackets = positions(text, "]")
        self.closers = [m.start() for m in _CLOSER.finditer(text)]
        self.newlines: list[int] | None = None
        self.quotes: tuple[list[int], list[int]] | None = None

    def scan(self, block: bool) -> list[Found]:
        """One of the two independent left-to-right scans of §2.3."""
        text = self.text
        brackets = self.brackets
        closers = self.closers
        nb, nc = len(brackets), len(closers)
        jb = jc = 0
        cursor = 0
        found: list[Found] = []
        for s in self.openers:
            if s < cursor:
                continue
            # Openers only move right, so the "next ]" and "next [/embed]" pointers do too.
            while jb < nb and brackets[jb] <= s + 6:
                jb += 1
            if jb == nb:
                break
            r = brackets[jb]
            self_closing = text[r - 1] == "/"
            if not block:
                if self_closing:
                    found.append(Found(s, r + 1, r, False))
                    cursor = r + 1
                continue
            if self_closing:
                continue  # PR #96449: a self-closing opener never starts a block
            while jc < nc and closers[jc] <= r:
                jc += 1
            if jc == nc:
                continue
            end = closers[jc] + CLOSER_LEN
            found.append(Found(s, end, r, True))
            cursor = end
        return found

    def line_end(self, pos: int) -> int:
        """Offset of the ``\\n`` ending the line of ``pos`` (or the end of the text)."""
        if self.newlines is None:
            self.newlines = positions(self.text, "\n")
        k = bisect.bisect_left(self.newlines, pos)
        return self.newlines[k] if k < len(self.newlines) else len(self.text)

    def odd_quotes(self, start: int, end: int) -> bool:
        """Does ``[start, end)`` hold an odd number of ``"`` or of ``'``?"""
        if self.quotes is None:
            self.quotes = (positions(self.text, '"'), positions(self.text, "'"))
        for marks in self.quotes:
            if (bisect.bisect_left(marks, end) - bisect.bisect_left(marks, start)) % 2:
                return True
        return False

    def next_bracket(self, pos: int) -> int:
        """Offset of the first ``]`` at or after ``pos``, or -1."""
        k = bisect.bisect_left(self.brackets, pos)
        return self.brackets[k] if k < len(self.brackets) else -1
