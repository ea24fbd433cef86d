"""Is this offset inside code? One answer per text, cheap when it can be, exact always.

Every layer asks the same two questions of a text: does a line overlap a fenced or indented
code block (``MEDIA:`` lines), and does an offset lie in any code region, inline code spans
included (tags, embeds). The exact answer comes from one CommonMark parse
(:func:`richout.markdown.engine.parse_code`). Most replies never need it:

* no backtick, ``~``, tab or four spaces: there is no code at all (MEDIA.md 4.2);
* while every fence line starts at column 0 and nothing earlier could nest a fence in a
  container, a line scan finds the fenced blocks exactly;
* a line with under four columns of indentation is never indented code;
* an inline code span lives in one paragraph: a paragraph with no backtick holds none, and a
  paragraph where nothing can change the pairing (no block starter; no autolink, link
  destination or title holding a backtick, image, table or link reference definition:
  :func:`~richout.markdown.spans.para_unsafe`) pairs backtick runs exactly as CommonMark
  does, escaped backticks included (:mod:`richout.markdown.spans`); so is a block quote's
  paragraph of plain lines, markers taken off (:mod:`richout.markdown.quotes`), and a
  paragraph ends where a quote interrupts it. A short text that is one paragraph, or a
  paragraph then a quote's (a streamed part, most often) is paired without the line scan.

Anything else falls through to the parse, computed once and cached. A text of at least
``CodeMap.PIECE_MIN`` characters (1 KB) is parsed in pieces: only the piece holding the
question, between the cut points around it (:class:`richout.markdown.regions.Cuts`), so a
megabyte reply costs a parse of the few kilobytes around its candidates, and a realistic one
the block around its candidate. Property tests (``tests/test_codemap.py``) check that fast
and piecewise answers equal the full parse.
"""

from __future__ import annotations

import bisect
import re

from richout.markdown.bounds import LOOKBACK, near_blank_lines, near_line_bounds
from richout.markdown.engine import CodeParse, Region, parse_code
from richout.markdown.fences import FenceScan
from richout.markdown.items import CONTAINER_FIRST, INTERRUPTION, ContainerRuns, part_reading
from richout.markdown.linescan import (
    CONTAINER_LINE,
    Runs,
    container_content,
    indent_columns,
    lf_lines,
    line_index,
    may_have_blocks,
    needs_code_parse,
    past_indented,
    run_paragraph,
)
from richout.markdown.links import reference_may_hold_backtick
from richout.markdown.regions import Pieces
from richout.markdown.spans import UNPAIRED, block_spans, heading_spans, in_spans, plain_spans
from richout.markdown.tables import TableRead, Tables, heads_table

__all__ = ["CodeMap", "Region", "needs_code_parse"]

_CONTAINER_ANYWHERE = re.compile(r"(?m)^ {0,3}(?:>|(?:[*+-]|\d{1,9}[.)])(?:[ \t]|\r?$))")
# A line that can only be paragraph text (no block starts with these characters).
_PLAIN_TEXT_LINE = re.compile(r" {0,3}[^\s#`~=*_+>\-\d<\[|]")
_UNDER = CONTAINER_FIRST | {" "}  # what a line a lazy line may continue starts with


class CodeMap:
    """Code regions of one text, answered by fast paths or one cached CommonMark parse."""

    __slots__ = (
        "_blank_ends",
        "_blank_starts",
        "_blocks",
        "_code_tops",
        "_containers",
        "_fences",
        "_first_container",
        "_full",
        "_last_line",
        "_like",
        "_line_starts",
        "_needs",
        "_para_spans",
        "_pieces",
        "_quote_at",
        "_refdefs",
        "_run_marks",
        "_runs",
        "_src",
        "_tables",
        "_whole",
        "text",
    )

    #: How far line questions look before the line index is built (one huge line is asked often).
    LOCAL_REACH = 4096
    #: Texts this long are parsed piece by piece (cut points ~20 µs a KB, the parse ~700).
    PIECE_MIN = 1024

    def __init__(self, text: str, like: CodeMap | None = None) -> None:
        """``like``: the map of a text this one may mostly agree with (an earlier stage's),
        whose fence scan, if built, this one's takes over where they agree (FenceScan)."""
        self.text = text
        self._src = text = lf_lines(text)  # what every reading below reads
        self._like = like
        self._needs = needs_code_parse(text)
        self._blocks: bool | None = None  # can it hold a code block? (asked by a line)
        self._full: CodeParse | None = None
        self._fences: FenceScan | None = None
        self._refdefs: bool | None = None
        self._line_starts: list[int] | None = None
        self._blank_starts: list[int] = []  # (where each blank line starts and ends)
        self._blank_ends: list[int] = []
        #: the code spans of each paragraph paired, by its bounds
        self._para_spans: dict[tuple[int, int], list[tuple[int, int]] | None] = {}
        #: by a paragraph's start: its first INTERRUPTION (-1: none before its end)
        self._quote_at: dict[int, int] = {}
        #: each run's first "|" or "]:" by its start, else its end (:meth:`_paragraph_above`)
        self._run_marks: dict[int, int] = {}
        self._runs = Runs()  # what was found once per run of lines
        self._code_tops: dict[int, int] = {}  # by a run's start: past its indented code
        self._first_container = -1
        self._whole: bool | None = None  # the text is one paragraph (paragraph_spans)?
        #: the quote and list item runs read, by their lines' window (-1: all lines)
        self._containers: dict[int, ContainerRuns] = {}
        self._tables = Tables(text)  # the tables opening runs of lines, read once each
        #: the last lines answered from their paragraph's spans: (start, end, its start, spans)
        self._last_line: tuple[int, int, int, list[tuple[int, int]]] | None = None
        self._pieces: Pieces | None = None  # the pieces parsed

    def full(self) -> CodeParse:
        """The full CommonMark parse (computed once)."""
        if self._full is None:
            self._full = parse_code(self._src) if self._needs else CodeParse([])
        return self._full

    @property
    def parsed(self) -> bool:
        """Whether the full parse has been run (for tests and benchmarks)."""
        return self._full is not None

    def blocks(self) -> list[Region]:
        """Fenced and indented code blocks, sorted."""
        return self.full().blocks

    def regions(self) -> list[Region]:
        """Every code region (blocks and inline spans), sorted."""
        return self.full().regions

    def line_in_block(self, start: int, end: int) -> bool:
        """Does the line ``[start, end)`` overlap a fenced or indented code block (MEDIA 4.3)?
        ``start`` is the offset of a line start, ``end`` the offset of its ``\\n`` (or EOF)."""
        if self._blocks is None:  # (no fence run or 4-column indent: no fence scan needed)
            self._blocks = self._needs and may_have_blocks(self._src)
        if not self._blocks:
            return False
        find = self._src.find
        cut = find("\n", start, end) if self._src is not self.text else -1
        while cut >= 0:  # the lone CRs in the line end CommonMark lines: asked one by one
            if self._line_in_block(start, cut):
                return True
            start, cut = cut + 1, find("\n", cut + 1, end)
        return self._line_in_block(start, end)

    def _line_in_block(self, start: int, end: int) -> bool:
        if self._full is None:
            indent = indent_columns(self._src, start)
            if indent < 4 and (
                not CONTAINER_LINE.match(self._src, start)
                or container_content(self._src, start, end) is not None
            ):
                scan = self._scan()
                hit = start < scan.valid_until and scan.overlaps(start, end)
                if start < scan.valid_until and not (hit and scan.past_deep(start)):
                    return hit
            elif indent >= 4:
                answer = self._indented_line(start)
                if answer is not None and not (answer and self._scan().past_deep(start)):
                    return answer
            piece = self._piece(start)
            if piece is not None:
                return piece[0].overlaps_block(start - piece[1], end - piece[1])
        return self.full().overlaps_block(start, end)

    def in_code(self, pos: int) -> bool:
        """Is ``pos`` inside any code region (blocks and inline code spans)?"""
        if not self._needs:
            return False
        if self._full is None:
            answer = self._fast_in_code(pos)
            # A "code" past deep nesting is the parse's (a one-paragraph text nests none).
            if answer is False or (answer and (self._whole or not self._scan().past_deep(pos))):
                return answer
            piece = self._piece(pos)
            if piece is not None:
                return piece[0].in_code(pos - piece[1])
        return self.full().in_code(pos)

    def paragraph_spans(self) -> list[tuple[int, int]] | None:
        """The code spans of a text that is one paragraph (:func:`~richout.markdown.spans.
        one_paragraph`) or a paragraph then a quote's (:func:`~richout.markdown.quotes.
        quoted_part_spans`, or a list's, :func:`~richout.markdown.items.listed_part_spans`;
        several lines up to ``LOCAL_REACH``), as :meth:`in_code` answers;
        None for other texts, unsure pairings or once parsed. For a streamed part, mostly."""
        if not self._needs:
            return []
        return None if self._full is not None or not self._one_paragraph() else self._spans()

    def _one_paragraph(self) -> bool:
        if self._whole is None:
            # Several lines only up to LOCAL_REACH: walking 500k lines cost a first question 134 ms.
            text = self._src
            short = len(text) <= self.LOCAL_REACH or "\n" not in text
            # A streamed part of a quote or a list: its spans, found at once, are final.
            whole, found = part_reading(text) if short else (False, None)
            if found is not None:
                self._para_spans[(0, len(text))] = found
            self._whole = whole
        return self._whole

    def _spans(self) -> list[tuple[int, int]] | None:
        """The spans of a text that is one paragraph, paired once (None: the parse pairs)."""
        key = (0, len(self._src))
        if key not in self._para_spans:
            one_line, refs = "\n" not in self._src, self._definitions_matter
            self._para_spans[key] = plain_spans(
                self._src, *key, one_line=one_line, starters=False, references=refs
            )
        return self._para_spans[key]

    def block_to_end(self, pos: int) -> bool | None:
        """Does the fenced block holding ``pos`` run to the end of the text? From the fence
        scan when it covers the text and a block of it holds ``pos``; None: only the parse."""
        if self._full is not None or not self._needs:
            return None
        scan = self._scan()
        n = len(self._src)
        end = scan.block_end(pos) if scan.valid_until > n else None
        return None if end is None else end == n

    def _piece(self, pos: int) -> tuple[CodeParse, int] | None:
        """The parse of the piece holding ``pos`` and the piece's start; None: parse whole."""
        if len(self._src) < self.PIECE_MIN:
            return None
        if self._pieces is None:
            self._pieces = Pieces(self._src, self._has_definitions(), self._scan().lines())
        return self._pieces.around(pos)

    def _scan(self) -> FenceScan:
        if self._fences is None:
            like, self._like = self._like, None
            self._fences = FenceScan(self._src, like._fences if like is not None else None)
        return self._fences

    def _index(self) -> list[int]:
        """Every line start, and the blank lines' bounds (built once, when local looks fail)."""
        if self._line_starts is None:
            self._line_starts, self._blank_starts, self._blank_ends = line_index(self._src)
        return self._line_starts

    def _line_bounds(self, pos: int) -> tuple[int, int]:
        """Start and end (its ``\\n``, or the text's end) of the line holding ``pos``."""
        if self._line_starts is None:
            # Most questions are answered by looking near pos; the index is for long lines.
            near = near_line_bounds(self._src, pos, self.LOCAL_REACH)
            if near is not None:
                return near
        starts = self._index()
        k = bisect.bisect_right(starts, pos) - 1
        end = starts[k + 1] - 1 if k + 1 < len(starts) else len(self._src)
        return starts[k], end

    def _paragraph_bounds(self, line_start: int, line_end: int) -> tuple[int, int]:
        """End of the blank line before the line, start of the blank line after (or the ends)."""
        if self._line_starts is None:
            # Bounded: at most LOCAL_REACH characters each way, then the index answers.
            near = near_blank_lines(self._src, line_start, line_end, self.LOCAL_REACH)
            if near is not None:
                return near
        self._index()
        k = bisect.bisect_right(self._blank_ends, line_start) - 1
        lo = self._blank_ends[k] if k >= 0 else 0
        k = bisect.bisect_left(self._blank_starts, line_end)
        hi = self._blank_starts[k] if k < len(self._blank_starts) else len(self._src)
        return lo, hi

    def _indented_line(self, line_start: int) -> bool | None:
        """Is a line indented four or more columns indented code? None when unsure. Outside
        containers it is a lazy continuation only when the lines back to the nearest plain
        one are indented and not blank, and that one's run is a paragraph
        (:meth:`_paragraph_above`; None otherwise); after a blank line, or first, it is code.
        """
        text = self._src
        ls, le = self._line_bounds(line_start)
        if not text[ls:le].strip(" \t\r"):
            return None  # a blank line belongs to whatever surrounds it
        scan = self._scan()
        if ls >= scan.valid_until:
            return None
        if scan.overlaps(ls, le + 1):
            return True
        if self._container_before(ls):
            return None
        starts = self._index()
        k = bisect.bisect_right(starts, ls) - 1
        saw_blank = False
        for j in range(k - 1, max(k - LOOKBACK, -1), -1):
            a = starts[j]
            b = starts[j + 1] - 1
            line = text[a:b]
            if not line.strip(" \t\r"):
                saw_blank = True
                continue
            if indent_columns(text, a) >= 4:
                continue
            if saw_blank:
                return True
            if _PLAIN_TEXT_LINE.match(line) and self._paragraph_above(ls):
                return False  # a lazy paragraph continuation
            return None
        if k - LOOKBACK >= 0:
            return None  # every looked-at line was indented or blank: too far back to tell
        return True

    def _container_runs(self, line_start: int, line_end: int) -> ContainerRuns:
        """The runs of the lines between the blank lines around a line in a long text while
        they are near and no index of all was built (:meth:`ContainerRuns.between`), else all's."""
        near = (
            None
            if self._line_starts is not None or len(self._src) < self.PIECE_MIN
            else near_blank_lines(self._src, line_start, line_end, self.LOCAL_REACH)
        )
        key = -1 if near is None else near[0]
        if (runs := self._containers.get(key)) is None:
            scan, defs = self._scan(), self._has_definitions()
            runs = self._containers[key] = (
                ContainerRuns(self._src, self._index(), scan, self._blank_starts, defs)
                if near is None
                else ContainerRuns.between(self._src, *near, scan, defs)
            )
        return runs

    def _container_before(self, ls: int) -> bool:
        """Does a line that may open a container start before ``ls``? (Searched once.)"""
        if self._first_container < 0:
            m = _CONTAINER_ANYWHERE.search(self._src)
            self._first_container = m.start() if m is not None else len(self._src) + 1
        return self._first_container < ls

    def _paragraph_above(self, ls: int) -> bool:
        """Are the lines above the line at ``ls``, back to a blank line or the text's start,
        surely an open paragraph's? False when unsure. A plain text line can still end no
        paragraph: a table's body row needs no ``|``, and definitions can take the whole
        paragraph (``[a]:`` then ``/u``); an indented line after either is code. A run of
        non-blank lines holding neither a header row's ``|`` nor ``]:`` above ``ls`` is a
        paragraph. Each run's first such mark is found once (a paragraph of 100k lines with
        indented ones in it is read once)."""
        self._index()
        k = bisect.bisect_right(self._blank_ends, ls) - 1
        lo = self._blank_ends[k] if k >= 0 else 0
        mark = self._run_marks.get(lo)
        if mark is None:
            k = bisect.bisect_left(self._blank_starts, ls)
            hi = self._blank_starts[k] if k < len(self._blank_starts) else len(self._src)
            found = (self._src.find("|", lo, hi), self._src.find("]:", lo, hi))
            mark = self._run_marks[lo] = min((at for at in found if at >= 0), default=hi)
        return mark >= ls

    def _fast_in_code(self, pos: int) -> bool | None:
        text = self._src
        if self._one_paragraph():
            # One paragraph (a streamed part, most often): paired without the checks below.
            spans = self._spans()
            if spans is not None:
                return in_spans(spans, pos, len(text))
        line_start, line_end = self._line_bounds(pos)
        last = self._last_line
        if last is not None and last[0] <= line_start < last[1]:
            # A line that reached the span lookup answers from its spans again (30k tags on
            # a line), as do its paired paragraph's other lines (40k lines with a tag each).
            return in_spans(last[3], pos - last[2], len(text))
        table = self._tables.recent
        if table is not None and table.body <= line_start < table.end:
            return self._row_in_code(table, pos, line_start, line_end)  # a plain line
        # (A space: maybe an item's continuation; text under a container's or continuation's
        # line, read back LOCAL_REACH at most: maybe a lazy one. Else the paragraph path.)
        lead = text[line_start : line_start + 1]
        far = max(line_start - self.LOCAL_REACH, 0)
        above = text.rfind("\n", far, max(line_start - 1, 0)) + 1 or (line_start if far else 0)
        under = lead == " " or (lead > " " and above < line_start - 1 and text[above] in _UNDER)
        if lead in CONTAINER_FIRST or (under and self._container_before(line_start)):
            quoted = self._container_runs(line_start, line_end).in_code(pos, line_start)
            if quoted is not None:
                return quoted
            # Unsure: the checks below still answer a quote line in a backtick-free paragraph.
        if indent_columns(text, line_start) >= 4:
            indented = self._indented_line(line_start)
            if indented is None or (indented and text[pos : pos + 1] in ("", "\r", "\n")):
                return None  # the block's end (or the text's) is exact only in the parse
            if indented:
                return True
            # A lazy continuation line: its paragraph decides, below.
        if (
            CONTAINER_LINE.match(text, line_start)
            and container_content(text, line_start, line_end) is None
        ):
            return None
        scan = self._scan()
        if line_start >= scan.valid_until:
            return None
        if scan.overlaps(line_start, line_end + 1):
            # A fence line: all of it is code except a CR after the closing fence.
            k = bisect.bisect_right(scan.starts, pos) - 1
            return k >= 0 and pos < scan.ends[k]
        if text.startswith("#", line_start):
            line = text[line_start:line_end]  # an ATX heading is a block of its own line
            # (A line with a "|" over a delimiter row heads a table: the table rule is first.)
            unsure = self._definitions_matter(line) or heads_table(text, line, line_end)
            heading = None if unsure else heading_spans(line)
            if heading is not None:
                self._last_line = (line_start, line_start + 1, line_start, heading)
                return in_spans(heading, pos - line_start, len(text))
        return self._block_in_code(pos, line_start, line_end, scan)

    def _block_in_code(
        self, pos: int, line_start: int, line_end: int, scan: FenceScan
    ) -> bool | None:
        """:meth:`_fast_in_code` for a line that opens no block of its own: the table row or
        the paragraph holding ``pos``, bounded by blank lines, fences and its run's ends."""
        text = self._src
        lo, hi = self._paragraph_bounds(line_start, line_end)
        k = bisect.bisect_right(scan.ends, line_start) - 1
        if k >= 0:
            lo = max(lo, scan.ends[k])
        k = bisect.bisect_left(scan.starts, line_end)
        if k < len(scan.starts):
            hi = min(hi, scan.starts[k])
        if hi <= scan.valid_until and (table := self._tables.read(lo, hi)) is not None:
            if line_start < table.head:
                hi = table.head  # the paragraph the table interrupts ends at its header
            elif line_start < table.end:  # a row of the table
                return self._row_in_code(table, pos, line_start, line_end)
            elif table.ended:  # its last row ended it: what follows begins as after a blank line
                lo = table.end - 1
        lo, hi = run_paragraph(text, lo, hi, line_start, line_end, runs=self._runs)
        lo = self._past_code(lo, hi, line_start)
        q = self._quote_at.get(lo)
        if q is None:
            # (Not in a container's lazy run, whose quote lines may continue it.)
            m = INTERRUPTION.search(text, lo, hi) if not lo or text[lo - 1] == "\n" else None
            q = self._quote_at[lo] = -1 if m is None else m.start()
        if line_end <= q:  # (q is -1 when there is none)
            # A column-0 quote, ATX heading or item ends the paragraph (the lines above open none).
            hi = q + 1
        if hi > scan.valid_until:
            return None
        key = (lo, hi)
        top = not lo or text[lo - 1] == "\n" or text.startswith("\n", lo)
        if key not in self._para_spans:
            refs = self._definitions_matter
            self._para_spans[key] = block_spans(text, lo, hi, top=top, references=refs)
        spans = self._para_spans[key]
        if spans is None:
            return None
        whole = bool(spans) or spans is UNPAIRED  # (no line of it opens a block)
        first = line_start  # (after a container's marker: the marker's line is not its own)
        if whole and top:
            first = lo + 1 if text.startswith("\n", lo) else lo
        self._last_line = (first, hi if whole else line_start + 1, lo, spans)
        return in_spans(spans, pos - lo, len(text))

    def _past_code(self, lo: int, hi: int, line_start: int) -> int:
        """Where the line at ``line_start`` starts its block when the run ``[lo, hi)`` (after a
        blank line or the text's start, no container line before it) opens with indented code:
        the first line indented less (:func:`past_indented`); else ``lo``."""
        text = self._src
        a = lo + 1 if text.startswith("\n", lo) else lo
        if lo and a == lo:
            return lo
        if (got := self._code_tops.get(a)) is None:
            code = indent_columns(text, a) >= 4 and not self._container_before(a)
            got = self._code_tops[a] = past_indented(text, a, hi) if code else a
        return got if a < got <= line_start else lo

    def _row_in_code(self, table: TableRead, pos: int, ls: int, le: int) -> bool | None:
        """Is ``pos`` in a code span of its cell on the line ``[ls, le)``, a row of ``table``?"""
        row = self._tables.row_spans(table, ls, le, self._definitions_matter)
        if row is None:
            return None
        self._last_line = (ls, ls + 1, ls, row)
        return in_spans(row, pos - ls, len(self._src))

    def _has_definitions(self) -> bool:
        """Does the text hold ``]:``? (Looked for once, for every reading of the map.)"""
        if self._refdefs is None:
            self._refdefs = "]:" in self._src
        return self._refdefs

    def _definitions_matter(self, chunk: str) -> bool:
        # A definition elsewhere makes "[a][`x`]" a link, its label no inline text, and
        # "![a `x`]" an image, whose alt text keeps no code span.
        return self._has_definitions() and reference_may_hold_backtick(chunk)
