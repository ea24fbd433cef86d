"""The fence scan: top-level fenced blocks found line by line, exact while every fence line
starts at column 0 (the code map's fast path for MEDIA lines and the first step of its cut
points).

A pipeline scans a text per stage, each an edit of the one before: a stage's scan takes
over its parent's reading where the two texts agree, before the first difference (it
resumes there) and after the last (once its state equals the parent's there, the rest is
the parent's, shifted), and reads only the lines between.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import Final

from richout.markdown.regions import (
    FENCE_OR_DEEP,
    deep_nesting_at,
    fence_or_deep_lines,
    too_deep,
)
from richout.markdown.tables import delimiter_row_follows
from richout.text.chars import contains
from richout.text.derive import common_prefix, common_suffix

__all__ = ["FenceScan"]

_LONE_CR = re.compile(r"\r(?!\n)")
_FENCE_RUN = re.compile("`+|~+")


class FenceScan:
    """Top-level fenced blocks found by a line scan, exact for lines before ``valid_until``
    (the first lone CR's line)."""

    __slots__ = ("_deep_at", "_lines", "_read", "_rest", "_text", "ends", "starts", "valid_until")

    #: A text shorter than this is scanned whole, never resumed from a prior scan: the
    #: common-prefix search and the state's rebuilding cost about what its scan does.
    RESUME_MIN: Final = 4096
    #: Lines tried for taking over the prior scan's rest before the scan reads on alone (an
    #: edit that opens a fence flips every later line's state: they never agree again).
    SYNC_TRIES: Final = 16

    def __init__(self, text: str, prior: FenceScan | None = None) -> None:
        """Scan ``text``; ``prior``: a scan of a text it may mostly agree with (a stage's
        text before its edits), whose reading of the lines before the first difference
        (:func:`_resume_state`) and after the last (:meth:`_take_rest`) is taken over rather
        than read again.

        Long because the scan's loop keeps its state in locals: a fence line costs a
        fraction of a microsecond, and a method call per line would double it."""
        starts: list[int] = []
        ends: list[int] = []
        n = len(text)
        # A lone CR ends a CommonMark line but not one of ours: the lines from the first
        # one on are left to the parser (the lines before it are lines to both).
        lone_cr = _LONE_CR.search(text) if "\r" in text else None
        valid_until = n + 1 if lone_cr is None else text.rfind("\n", 0, lone_cr.start()) + 1
        self._text = text
        self._deep_at: int | None = None  # (None: looked for when first asked)
        self._lines: list[int] | None = None  # every line the search finds (lines())
        self._rest: Iterator[re.Match[str]] | None = None  # the matches after a stop
        self.starts = starts
        self.ends = ends
        self.valid_until = valid_until
        self._read = False  # did the loop below read the lines (deep ones included)?
        if not (contains(text, "```") or contains(text, "~~~")):
            return  # no fence at all (a streamed part, most often): lines() searches later
        self._read = True
        deep = -1  # the first line found that may nest deep (past_deep)
        open_char = ""
        open_len = 0
        open_start = 0
        # One search finds the lines that may open, close or stop (a fence run after container
        # prefix only) and deep_nesting_at's: a find per run read code spans' runs too.
        matches: Iterator[re.Match[str]] | None
        lines: list[int]
        state = None
        sync_at = n + 1  # the first line whose reading may be the prior's (_prior_block)
        shift = tries = 0
        agreed = None if prior is None else _agreement(text, prior)
        if agreed is not None:
            assert prior is not None
            same, shift, sync_at = agreed
            state = _resume_state(text, prior, valid_until, same)
        if state is None:
            matches = fence_or_deep_lines(text)
            lines = []
        else:
            resume, closed_starts, closed_ends, lines, deep, open_start = state
            starts += closed_starts
            ends += closed_ends
            if open_start >= 0:
                open_char, open_len = _opener(text, open_start)
            matches = FENCE_OR_DEEP.finditer(text, resume - 1)
        self._lines = lines
        for m in matches or ():
            line_start = m.start(1)
            # (groups() is a third cheaper than group(2, 3, 4, 5): no arguments to read)
            _, prefix, run, rest, deep_prefix = m.groups()
            lines.append(line_start)
            if line_start >= valid_until:
                break
            if line_start >= sync_at:
                assert prior is not None  # (sync_at is past the text without one)
                k = _prior_block(prior, line_start - shift, open_char, open_len)
                if k is not None:
                    opened = open_start if open_char else -1
                    self._take_rest(prior, line_start, shift, k=k, open_start=opened, deep=deep)
                    return
                tries += 1
                sync_at = line_start + 1 if tries < self.SYNC_TRIES else n + 1
            if prefix is None:
                if deep < 0 and too_deep(deep_prefix):
                    deep = line_start
                continue  # no fence run after its prefix
            if deep < 0 and len(prefix) > 10 and too_deep(prefix):
                deep = line_start
            ch = run[0]
            if open_char:
                # Inside a top-level fence only a closing fence matters.
                # (Most fence lines have no prefix and nothing after the run: the empty
                # strings are told apart before a method is called on them.)
                if (
                    ch == open_char
                    and len(run) >= open_len
                    and (not prefix or (len(prefix) <= 3 and not prefix.strip(" ")))
                    and (not rest or not rest.strip(" \t\r"))
                ):
                    line_end = line_start + len(prefix) + len(run) + len(rest)
                    starts.append(open_start)
                    ends.append(line_end - 1 if rest[-1:] == "\r" else line_end)
                    open_char = ""
            elif not prefix:
                line_end = line_start + len(run) + len(rest)
                if "|" in rest and (
                    line_end + 1 >= valid_until or delimiter_row_follows(text, line_end)
                ):
                    # The table rule runs before the fence rule: this may be a table header.
                    # (From the first lone CR on, the next line is not ours to read.)
                    valid_until = line_start
                    break
                # A backtick in a backtick fence's info string makes paragraph text.
                if ch != "`" or "`" not in rest:
                    open_char = ch
                    open_len = len(run)
                    open_start = line_start
            else:
                # Indented or inside a container: nesting decides, the scan cannot.
                valid_until = line_start
                break
        else:
            matches = None
            self._deep_at = deep  # every line was read: the deep question is answered too
        self._rest = matches
        if deep >= 0:
            self._deep_at = deep
        if open_char:
            starts.append(open_start)
            ends.append(n)
        self.valid_until = valid_until

    def _take_rest(
        self, prior: FenceScan, line_start: int, shift: int, *, k: int, open_start: int, deep: int
    ) -> None:
        """End the scan at ``line_start``, a line in the part both texts end with, where its
        state is ``prior``'s at the same line (``prior``'s block ``k`` is the first not closed
        before it: :func:`_prior_block`): every later line reads as there, so the rest of
        the reading is ``prior``'s, ``shift`` characters on. ``open_start``, ``deep``: this
        scan's open block (-1: none; it closes where ``prior``'s block ``k`` did) and first
        deep line."""
        at = line_start - shift
        starts, ends = self.starts, self.ends
        if open_start >= 0:
            starts.append(open_start)
            ends.append(prior.ends[k] + shift)
            k += 1
        starts += [a + shift for a in prior.starts[k:]]
        ends += [b + shift for b in prior.ends[k:]]
        found = prior._lines
        lines = self._lines
        assert found is not None and lines is not None  # (both scans read lines)
        lines.pop()  # this line, which prior's list holds too
        lines += [a + shift for a in found[bisect.bisect_left(found, at) :]]
        # prior's search stopped where its scan did: this one's rest is searched for anew.
        self._rest = None if prior._rest is None else FENCE_OR_DEEP.finditer(self._text, lines[-1])
        self.valid_until = prior.valid_until + shift
        was = prior._deep_at  # (None, or -1: none in prior's text, or its first deep line)
        if deep >= 0:
            self._deep_at = deep
        elif was is not None and (was < 0 or was >= at):
            self._deep_at = was if was < 0 else was + shift
        # else prior's first deep line is in the part it alone has: looked for when asked

    def lines(self) -> list[int]:
        """The starts of every line the scan's search finds (a fence run after container
        prefix characters only, or a prefix that may nest deep), in order, read on past
        where the scan stopped: the lines the cut points' scan reads and more
        (:class:`~richout.markdown.regions.Cuts`), so that it searches the text no more."""
        if self._lines is None:
            self._lines = [m.start(1) for m in fence_or_deep_lines(self._text)]
        elif self._rest is not None:
            self._lines += [m.start(1) for m in self._rest]
            self._rest = None
        return self._lines

    def past_deep(self, pos: int) -> bool:
        """Is ``pos`` at or after a line whose containers may nest to the parser's limit
        (:func:`~richout.markdown.regions.deep_nesting_at`)? There markdown-it-py stops
        reading blocks (in a list item, to the text's end), so a local reading's "code"
        from there on is the parse's to confirm; its "not code" stands, the parse reading
        less there, never more. Found on the first such question: most texts ask none."""
        if self._deep_at is None:
            self._deep_at = deep_nesting_at(self._text)
        return 0 <= self._deep_at <= pos

    def block_end(self, pos: int) -> int | None:
        """The end of the fenced block holding ``pos``, or None when no block holds it."""
        k = bisect.bisect_right(self.starts, pos) - 1
        return self.ends[k] if k >= 0 and pos < self.ends[k] else None

    def overlaps(self, start: int, end: int) -> bool:
        """Does a fenced block overlap ``[start, end)``?"""
        k = bisect.bisect_right(self.starts, start) - 1
        if k >= 0 and start < self.ends[k]:
            return True
        k += 1
        return k < len(self.starts) and self.starts[k] < end


def _agreement(text: str, prior: FenceScan) -> tuple[int, int, int] | None:
    """How ``text`` agrees with ``prior``'s: the length of their common prefix, the shift
    of their common suffix (its length in ``text`` less in ``prior``'s text), and where the
    lines of ``text`` whose line break before them is in that suffix start. None when
    nothing is to be taken over: ``text`` is short, or ``prior`` read no line (its text
    holds no fence run)."""
    if len(text) < FenceScan.RESUME_MIN or not prior._read:
        return None
    old = prior._text
    same = common_prefix(old, text)
    back = common_suffix(old, text, min(len(old), len(text)) - same)
    return same, len(text) - len(old), len(text) - back + 1


def _prior_block(prior: FenceScan, at: int, open_char: str, open_len: int) -> int | None:
    """The first of ``prior``'s blocks not closed before its line ``at``, when its scan read
    that line and was then in the state given (no block open, or one opened by a run of
    ``open_len`` of ``open_char``); None otherwise."""
    if at >= prior.valid_until:
        return None
    k, start = _open_at(prior, at)
    if start < 0:
        return None if open_char else k
    return k if _opener(prior._text, start) == (open_char, open_len) else None


def _open_at(scan: FenceScan, at: int) -> tuple[int, int]:
    """The first of ``scan``'s blocks not closed before its line ``at`` (its closing line
    is not before it), and that block's start when it opened before ``at`` (-1: none open)."""
    k = bisect.bisect_left(scan.ends, at)
    return k, scan.starts[k] if k < len(scan.starts) and scan.starts[k] < at else -1


def _opener(text: str, start: int) -> tuple[str, int]:
    """The character and length of the run opening the fence line at ``start``."""
    run = _FENCE_RUN.match(text, start)
    assert run is not None  # an opening fence line starts with its run
    return text[start], run.end() - start


#: What a resumed scan starts from: where it resumes, the blocks before, the lines read, the
#: first deep line (-1: none), the open block's start (-1: none).
_State = tuple[int, list[int], list[int], list[int], int, int]


def _resume_state(text: str, prior: FenceScan, valid_until: int, same: int) -> _State | None:
    """Where ``prior``'s reading of its text holds for ``text`` too, and what it read there,
    or None (scan ``text`` from its start). ``same``: the length of the texts' common prefix.

    A line's reading depends on it and, for a possible table header, on the next line; so
    every line that starts before the line preceding the first difference's is read alike
    in both, and the scan resumes at that line with ``prior``'s state there: the blocks
    closed before it, the block open across it (its run is read again from its opening
    line), the lines found and the first deep line before it. Only when ``prior`` read
    every line up to there, and no lone CR stops the new scan before it (a resumed reading
    must be a reading the whole scan would make).
    """
    line = text.rfind("\n", 0, same) + 1  # the line holding the first difference
    resume = text.rfind("\n", 0, line - 1) + 1 if line > 0 else 0
    if resume <= 0 or prior.valid_until <= resume or valid_until <= resume:
        return None
    k, open_start = _open_at(prior, resume)  # (blocks before k closed before it)
    found = prior._lines
    assert found is not None  # (prior read its lines)
    lines = found[: bisect.bisect_left(found, resume)]
    deep = prior._deep_at
    first_deep = deep if deep is not None and 0 <= deep < resume else -1
    return resume, prior.starts[:k], prior.ends[:k], lines, first_deep, open_start
