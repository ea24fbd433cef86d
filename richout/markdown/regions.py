"""Where a long text can be parsed in independent pieces (issue 8: a 1 MB reply).

A CommonMark parse costs about 0.1-0.2 s per MB, and a reply can be megabytes long while its
code questions concern a few lines. :func:`cut_points` lists (and :class:`Cuts` finds around
an offset) the line starts where a parse of the text from there gives exactly the block
structure the whole text's parse gives, so the code map parses only the piece around a
question (:mod:`richout.markdown.codemap`).

A line start is a cut when the line before it is blank (only spaces and tabs), its own line
starts at column 0 with a non-blank character, and no top-level fenced block is open there:
a fence is the only block that runs through a blank line and a line at column 0 (the code
parser reads HTML as text, so there are no HTML blocks). At such a line every container has
ended: a blank line ends a paragraph, a table and a block quote, and a line at column 0
ends list items and indented code. What follows cannot change what came before, because
only link reference definitions act at a distance; texts holding ``]:`` are never cut, nor
texts with a CR (a lone CR ends a CommonMark line but not one of ours).

The scan follows top-level fences exactly where it can and stops cutting (returns the cuts
found so far) where it cannot tell: a fence opened with indentation may be inside a list
item, where a less indented line ends it; a fence line in a table may be a table cell.
It also stops at a line whose container prefix could nest blocks deep enough to reach
markdown-it's nesting limit, past which the whole parse reads no more of the document (a
piece started after it would). Stopping is always safe, a longer piece only costs time.
``tests/test_codemap.py`` checks the pieces' answers against the whole parse on generated
Markdown.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from itertools import chain

from richout.markdown.engine import CodeParse, parse_code

__all__ = [
    "CONTAINER_PREFIX",
    "FENCE_OR_DEEP",
    "FIRST_FENCE_OR_DEEP",
    "Cuts",
    "Pieces",
    "cut_points",
    "deep_nesting_at",
    "fence_or_deep_lines",
    "too_deep",
]

_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")
#: A blank or a container marker (the patterns below read runs of them).
_PREFIX_CHAR = r"[ \t>*+\-0-9.)]"
#: Blanks and container markers at a line's start: how deep its blocks may nest (also
#: ``linescan.CONTAINERISH``, a line prefix that is only such characters).
CONTAINER_PREFIX = re.compile(f"{_PREFIX_CHAR}*")
#: Columns of container prefix past which nesting might reach markdown-it's limit
#: (engine.MAX_NESTING levels; a list level takes two columns and two levels, a block quote
#: one and one), after which the whole parse reads no more blocks of the document.
_DEEP = 40
#: A line opening with more blanks and container markers than :func:`too_deep` must weigh
#: (eleven tabs and markers are the fewest that can span more than ``_DEEP`` columns), after
#: a line break: a leading literal the regex engine finds at C speed, where ``(?m)^`` tried
#: every offset (8.6 against 1.3 ms/MB; 7 µs on a corpus reply, a tenth of its cost).
_DEEP_CANDIDATE = re.compile(f"\\n({_PREFIX_CHAR}{{11,}})")
#: The lines :class:`~richout.markdown.fences.FenceScan` reads, in one pass: a line whose
#: first fence run follows blanks and container markers only (group 2: those, 3: the run,
#: 4: the rest of the line), else one whose prefix of them may nest deep (group 5); group 1
#: (empty) marks the line's start. After a line break; the first line's own pattern below.
_FENCE_OR_DEEP = f"()(?:({_PREFIX_CHAR}*)(`{{3,}}|~{{3,}})([^\\n]*)|({_PREFIX_CHAR}{{11,}}))"
#: (The lookahead turns away a line opening with a letter before either branch is tried:
#: 5.3 -> 4.0 ms over the corpus joined.)
FENCE_OR_DEEP = re.compile("\\n(?=[ \\t>*+\\-0-9.)`~])" + _FENCE_OR_DEEP)
FIRST_FENCE_OR_DEEP = re.compile(_FENCE_OR_DEEP)


def too_deep(prefix: str) -> bool:
    """Does a line's container prefix span more than ``_DEEP`` columns (a tab counts as
    four, the most it can)?"""
    return len(prefix) + 3 * prefix.count("\t") > _DEEP


def deep_nesting_at(text: str) -> int:
    """Where the first line starts whose containers might nest as deep as markdown-it's
    limit, or -1. From there on the parse reads no block of the document (a list item's
    nested parse runs to the text's end), so no local reading of a later line can be
    trusted. One regex pass over the line starts."""
    first = CONTAINER_PREFIX.match(text)
    if first is not None and too_deep(first.group()):
        return 0
    for m in _DEEP_CANDIDATE.finditer(text):
        if too_deep(m.group(1)):
            return m.start(1)
    return -1


def _indent(line: str) -> int:
    """Leading spaces of ``line`` (a tab counts as too many: it is at least four columns)."""
    stripped = line.lstrip(" ")
    if stripped.startswith("\t"):
        return 4
    return len(line) - len(stripped)


# Each pattern below leads with a line break, which the regex engine finds at C speed
# (``^`` under ``re.M``, or ``\A|\n``, is tried at every offset: 13 ms/MB); the first line
# is matched on its own.
#: A line that may close a fence opened at column 0, by the fence's character: a run of
#: it (group 1; as long as the opening run at least), then blanks only (:func:`_fence_close`).
_CLOSERS = {c: re.compile(f"\\n {{0,3}}({c}{{3,}})[ \\t]*(?=\\n|\\Z)") for c in "`~"}
#: A blank line after a line break (:func:`_pipe_in_group`).
_BLANK_AFTER = re.compile(r"\n[ \t]*\n")
#: A line start where a cut may be: after a blank line, at a line opening at column 0 with
#: a non-blank character (the match ends there; the first line's own pattern after it).
_CUT = re.compile(_BLANK_AFTER.pattern + r"(?=[^ \t\n])")
_FIRST_CUT = re.compile(r"[ \t]*\n(?=[^ \t\n])")


def cut_points(text: str) -> list[int]:
    """Offsets where ``text`` can be parsed on its own, ``0`` first; ``[0]`` when none.

    Every line after a blank line that opens at column 0 with a non-blank character is a
    cut (:data:`_CUT`, one search), except inside a top-level fence and from where the scan
    stops. Only the lines that may open a fence or nest deep (:func:`fence_or_deep_lines`) and the
    lines inside a fence opened with indentation are read one by one
    (:func:`_fences_and_stop`; a fence at column 0 is closed by a search): a pass over
    every line of a megabyte reply cost 6.6 ms, twice per ``parse_reply``.
    """
    if "\r" in text or "]:" in text:
        return [0]
    fences, stop = _fences_and_stop(text)
    first = _FIRST_CUT.match(text)
    found = [first.end()] if first is not None else []
    found += [m.end() for m in _CUT.finditer(text, 0, stop)]
    cuts = [0]
    lo = 0
    for opening, closing in fences:
        # The candidates up to the fence's opening line stand; those after it, up to its
        # closing line, are inside it.
        hi = bisect.bisect_right(found, opening)
        cuts += found[lo:hi]
        lo = bisect.bisect_right(found, closing)
    cuts += found[lo : bisect.bisect_left(found, stop)]
    return cuts


class Cuts:
    """The cut points of one text (:func:`cut_points`), found around the offsets asked:
    the piece holding an offset is read from the cut before it to the cut after it, and
    the candidates elsewhere are never listed (listing them cost a megabyte reply's map
    2.4 ms, asked for a few pieces). The fences and the scan's stop are found once."""

    __slots__ = ("_fences", "_first", "_listed", "_opening", "_stop", "text")

    #: How far back the first look for the cut before an offset reads (then twice as far).
    BACK = 2048
    #: Searches one question may make before every cut point is listed instead (once): the
    #: candidates a run of fences holds, or a text without a cut, would be searched again
    #: by each question (cut_points' one pass bounds the cost to the text's length).
    SEARCHES = 16

    def __init__(
        self, text: str, definitions: bool | None = None, lines: Iterable[int] | None = None
    ) -> None:
        """``definitions``: whether ``text`` holds ``]:`` (looked for when not given);
        ``lines``: the starts of a superset of the lines that may open a fence or nest deep,
        in order (:meth:`~richout.markdown.fences.FenceScan.lines`; searched for when
        not given)."""
        self.text = text
        if "\r" in text or ("]:" in text if definitions is None else definitions):
            self._fences: list[tuple[int, int]] = []
            self._stop = 0  # no cut past 0
        else:
            self._fences, self._stop = _fences_and_stop(text, lines)
        self._opening = [opening for opening, _ in self._fences]
        first = _FIRST_CUT.match(text)
        self._first = first.end() if first is not None else -1
        self._listed: list[int] | None = None  # every cut point, once searching costs more

    def _list(self) -> list[int]:
        if self._listed is None:
            self._listed = cut_points(self.text)
        return self._listed

    def _fence_holding(self, cut: int) -> tuple[int, int] | None:
        """The fence a candidate lies in (after its opening line's start, up to its
        closing line's), as :func:`cut_points` excludes them; None when none does."""
        k = bisect.bisect_left(self._opening, cut) - 1
        return self._fences[k] if k >= 0 and cut <= self._fences[k][1] else None

    def before(self, pos: int) -> int:
        """The last cut at or before ``pos`` (0 when none)."""
        if self._listed is not None:
            return self._listed[bisect.bisect_right(self._listed, pos) - 1]
        text = self.text
        hi = min(pos, self._stop - 1)  # (a cut stands before the stop only)
        reach = self.BACK
        searches = 0
        while hi > 0:
            searches += 1
            if searches > self.SEARCHES:
                listed = self._list()
                return listed[bisect.bisect_right(listed, pos) - 1]
            fence = self._fence_holding(hi)
            if fence is not None:
                hi = fence[0]  # a cut at the opening line's start stands
                continue
            lo = max(hi - reach, 0)
            # A match ends at its cut; one found from lo ends after any that starts before lo.
            found = [m.end() for m in _CUT.finditer(text, lo, hi + 1)]
            if lo == 0 and 0 < self._first <= hi:
                found.insert(0, self._first)
            if found:
                last = found[-1]
                fence = self._fence_holding(last)
                if fence is None:
                    return last
                hi = fence[0]
            elif lo == 0:
                return 0
            else:
                reach *= 2  # (the same hi: a match that started before lo may end by it)
        return 0

    def after(self, pos: int, before: int = -1) -> int:
        """The first cut after ``pos``, or -1 when none; ``before``: :meth:`before`'s
        answer for ``pos``, when the caller has it."""
        if pos < self._first < self._stop:
            return self._first  # (no fence opens before the first line's end)
        text = self.text
        at = self.before(pos) if before < 0 else before
        for _ in range(self.SEARCHES):
            if self._listed is not None:
                break
            m = _CUT.search(text, at, self._stop)
            if m is None:
                return -1
            cut = m.end()
            fence = self._fence_holding(cut)
            if fence is not None:
                at = fence[1]  # (its closing line: the next match starts there at the earliest)
            elif cut > pos:
                return cut
            else:
                at = cut
        listed = self._list()
        k = bisect.bisect_right(listed, pos)
        return listed[k] if k < len(listed) else -1


class Pieces:
    """The parses of a long text's pieces, between the cut points around the offsets asked
    (:class:`Cuts`), each parsed once."""

    __slots__ = ("cuts", "parses", "starts", "whole")

    def __init__(
        self, text: str, definitions: bool | None = None, lines: Iterable[int] | None = None
    ) -> None:
        self.cuts = Cuts(text, definitions, lines)
        self.starts: list[int] = []  #: the pieces parsed, by start: their ends and parses
        self.parses: dict[int, tuple[int, CodeParse]] = {}
        self.whole = False  #: the text has no cut point: every question asks the whole parse

    def around(self, pos: int) -> tuple[CodeParse, int] | None:
        """The parse of the piece holding ``pos``, and the piece's start; None when the
        text has no cut point (only the whole text's parse answers)."""
        k = bisect.bisect_right(self.starts, pos) - 1
        if k >= 0 and pos < (known := self.parses[self.starts[k]])[0]:
            return known[1], self.starts[k]
        if self.whole:
            return None
        cuts = self.cuts
        start = cuts.before(pos)
        end = cuts.after(pos, start)
        if start == 0 and end < 0:
            self.whole = True
            return None
        n = len(cuts.text)
        parse = parse_code(cuts.text[start : n if end < 0 else end], ends_document=end < 0)
        self.parses[start] = (n if end < 0 else end, parse)
        bisect.insort(self.starts, start)
        return parse, start


def _fences_and_stop(
    text: str, lines: Iterable[int] | None = None
) -> tuple[list[tuple[int, int]], int]:
    """The top-level fences as (opening line's start, closing line's start; the text's
    length when unclosed), and the offset before which cuts stand (after it the scan cannot
    tell: a cut there would not be sure).

    The scan stops at a line whose container prefix may nest to the parser's limit (that
    line and after), at a fence opening in a group of lines holding ``|`` or on a line
    holding one (a table cell or a fence: cuts after that line), and inside a fence opened
    with indentation at a less indented line (inside a list item it would end the fence).
    """
    n = len(text)
    fences: list[tuple[int, int]] = []
    after_fence = 0  # where the lines after the last fence's closing line start
    pos = 0  # where the next line to look at starts
    if lines is None:
        lines = (m.start(1) for m in fence_or_deep_lines(text))
    for start in lines:
        if start < pos:
            continue  # (inside a fence)
        end = text.find("\n", start)
        end = n if end < 0 else end
        pos = end + 1
        prefix = CONTAINER_PREFIX.match(text, start, end)
        if prefix is not None and prefix.end() - start > 8:
            # Deep, or blanks only (nothing to read); no fence line has such a prefix (its
            # backticks or tildes are no container marker, and at most three spaces lead).
            if text[start:end].strip(" \t") and too_deep(prefix.group()):
                return fences, start
            continue
        f = _FENCE.match(text, start, end)
        if f is None or (f.group(2)[0] == "`" and "`" in f.group(3)):
            continue
        if text.find("|", start, end) >= 0 or _pipe_in_group(text, after_fence, start):
            return fences, start + 1
        close, stop = _fence_close(text, end, f.group(2), len(f.group(1)))
        if stop >= 0:
            return fences, stop
        fences.append((start, close))
        if close >= n:
            return fences, n + 1
        after_fence = text.find("\n", close)
        if after_fence < 0:
            return fences, n + 1
        after_fence += 1
        pos = after_fence
    return fences, n + 1


def fence_or_deep_lines(text: str) -> Iterator[re.Match[str]]:
    """The matches of :data:`FENCE_OR_DEEP`, the first line's included, in order: the lines
    :class:`~richout.markdown.fences.FenceScan` reads, and a superset of those
    :func:`_fences_and_stop` must (any other line opens no fence and nests nothing deep; a
    line of nine or ten prefix characters, or one whose run follows a marker or four
    spaces, it reads as a line that does neither)."""
    first = FIRST_FENCE_OR_DEEP.match(text)
    found = FENCE_OR_DEEP.finditer(text)
    return found if first is None else chain((first,), found)


def _pipe_in_group(text: str, lo: int, start: int) -> bool:
    """Does a line between the last blank line before ``start`` (or ``lo``) and the line at
    ``start`` hold ``|``? Those lines are outside any fence. Two searches: the last ``|``,
    then a blank line after it (a walk back over each line of a long group cost a line of
    Python each)."""
    pipe = text.rfind("|", lo, start)
    return pipe >= 0 and _BLANK_AFTER.search(text, pipe, start) is None


def _fence_close(text: str, end: int, fence: str, indent: int) -> tuple[int, int]:
    """The start of the line closing a top-level ``fence`` (opened with ``indent`` spaces
    on the line ending at ``end``), or the text's length when none does; and where the scan
    stops inside it (-1 when it does not): a non-blank line less indented than the fence."""
    n = len(text)
    if not indent:
        # Opened at column 0: no line inside is less indented, so only a closing line
        # matters, found by one search (a line of Python each cost a fence-dense text more
        # than the line-by-line scan this replaced).
        search = _CLOSERS[fence[0]].search
        at = end
        while (m := search(text, at)) is not None:
            if len(m.group(1)) >= len(fence):
                return m.start() + 1, -1
            at = m.end()  # a shorter run closes nothing
        return n, -1
    a = end + 1
    while a <= n:
        b = text.find("\n", a)
        b = n if b < 0 else b
        line = text[a:b]
        if line.strip(" \t"):
            spaces = _indent(line)
            if spaces < indent:
                return n, a
            body = line[spaces:]
            if spaces <= 3 and body.startswith(fence) and not body.lstrip(fence[0]).strip(" \t"):
                return a, -1
        a = b + 1
    return n, -1
