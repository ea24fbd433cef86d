"""The fence scan: top-level fenced blocks found line by line, exact while every fence line
starts at column 0, and resumable from a scan of an earlier stage's text (the code map's
fast path for MEDIA lines and the first step of its cut points).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from richout.markdown.regions import (
    FENCE_OR_DEEP,
    deep_nesting_at,
    fence_or_deep_lines,
    too_deep,
)
from richout.markdown.tables import delimiter_row_follows
from richout.text.chars import contains
from richout.text.derive import common_prefix

__all__ = ["FenceScan"]

_LONE_CR = re.compile(r"\r(?!\n)")
_FENCE_RUN = re.compile("`+|~+")


class FenceScan:
    """Top-level fenced blocks found by a line scan, exact for lines before ``valid_until``
    (the first lone CR's line)."""

    __slots__ = ("_deep_at", "_lines", "_read", "_rest", "_text", "ends", "starts", "valid_until")

    #: A text shorter than this is scanned whole, never resumed from a prior scan: the
    #: common-prefix search and the state's rebuilding cost about what its scan does.
    RESUME_MIN = 4096

    def __init__(self, text: str, prior: FenceScan | None = None) -> None:
        """Scan ``text``; ``prior``: a scan of a text that may share a long prefix with it
        (a stage's text before its edits), whose reading of the lines before the first
        difference is taken over rather than read again (:func:`_resume_state`).

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
        state = None if prior is None else _resume_state(text, prior, valid_until)
        if state is None:
            matches = fence_or_deep_lines(text)
            lines = []
        else:
            resume, closed_starts, closed_ends, lines, deep, open_start = state
            starts += closed_starts
            ends += closed_ends
            if open_start >= 0:
                opener = _FENCE_RUN.match(text, open_start)
                assert opener is not None  # an opening fence line starts with its run
                open_char = text[open_start]
                open_len = opener.end() - open_start
            matches = FENCE_OR_DEEP.finditer(text, resume - 1)
        self._lines = lines
        for m in matches or ():
            line_start = m.start(1)
            prefix, run, rest, deep_prefix = m.group(2, 3, 4, 5)
            lines.append(line_start)
            if line_start >= valid_until:
                break
            if prefix is None:
                if deep < 0 and too_deep(deep_prefix):
                    deep = line_start
                continue  # no fence run after its prefix
            if deep < 0 and len(prefix) > 10 and too_deep(prefix):
                deep = line_start
            ch = run[0]
            if open_char:
                # Inside a top-level fence only a closing fence matters.
                if (
                    len(prefix) <= 3
                    and not prefix.strip(" ")
                    and ch == open_char
                    and len(run) >= open_len
                    and not rest.strip(" \t\r")
                ):
                    line_end = line_start + len(prefix) + len(run) + len(rest)
                    starts.append(open_start)
                    ends.append(line_end - 1 if rest.endswith("\r") else line_end)
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


#: What a resumed scan starts from: where it resumes, the blocks before, the lines read, the
#: first deep line (-1: none), the open block's start (-1: none).
_State = tuple[int, list[int], list[int], list[int], int, int]


def _resume_state(text: str, prior: FenceScan, valid_until: int) -> _State | None:
    """Where ``prior``'s reading of its text holds for ``text`` too, and what it read there,
    or None (scan ``text`` whole).

    The two texts agree up to their common prefix. A line's reading depends on it and, for a
    possible table header, on the next line; so every line that starts before the line
    preceding the first difference's is read alike in both, and the scan resumes at that
    line with ``prior``'s state there: the blocks closed before it, the block open across it
    (its run is read again from its opening line), the lines found and the first deep line
    before it. Only when ``prior`` read every line up to there, and no lone CR stops the
    new scan before it (a resumed reading must be a reading the whole scan would make).
    """
    old = prior._text
    if len(text) < FenceScan.RESUME_MIN or not prior._read or prior._lines is None:
        return None
    same = common_prefix(old, text)
    if same < FenceScan.RESUME_MIN:
        return None
    line = text.rfind("\n", 0, same) + 1  # the line holding the first difference
    resume = text.rfind("\n", 0, line - 1) + 1 if line > 0 else 0
    if resume <= 0 or prior.valid_until <= resume or valid_until <= resume:
        return None
    k = bisect.bisect_left(prior.ends, resume)  # blocks whose closing line is before
    open_start = prior.starts[k] if k < len(prior.starts) and prior.starts[k] < resume else -1
    found = prior._lines
    lines = found[: bisect.bisect_left(found, resume)]
    deep = prior._deep_at
    first_deep = deep if deep is not None and 0 <= deep < resume else -1
    return resume, prior.starts[:k], prior.ends[:k], lines, first_deep, open_start
