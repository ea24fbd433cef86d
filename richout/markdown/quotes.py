"""Code spans of a block quote's first paragraph or table, from its lines' contents.

A block quote whose paragraph is a run of ``>`` lines that can only be paragraph text pairs
its backtick runs as a plain paragraph does once the markers are taken off
(:mod:`richout.markdown.spans`): :class:`QuoteRuns` answers
:meth:`~richout.markdown.codemap.CodeMap.in_code` for such lines without the parse, and
leaves every other quote to it. A quote whose first block is a table, or whose paragraph a
table interrupts, is read as a table opening a run is (:mod:`richout.markdown.tables`),
from its lines' contents. A quote nested in quotes (``> > x``, up to :data:`MAX_DEPTH`
deep) is read the same way when every line of the run has the same markers' count.
``tests/test_codemap.py`` and ``tests/test_codemap_tables.py`` compare each answer with the
full parse.
"""

from __future__ import annotations

import bisect

from richout.markdown.fences import FenceScan
from richout.markdown.linescan import is_blank, lazy_content
from richout.markdown.spans import (
    LINE_STARTER,
    code_spans_in,
    in_spans,
    line_spans,
    may_hold_table,
    one_paragraph,
    para_unsafe,
    pipe_above,
)
from richout.markdown.tables import (
    ODD_CELL_CHAR,
    ROW_MEMO,
    cell_spans,
    header_columns,
    rows_in_table,
)
from richout.text.chars import contains, has_lone_cr

__all__ = [
    "MAX_DEPTH",
    "LineRuns",
    "QuoteRuns",
    "markers_only",
    "nested_content",
    "part_head_spans",
    "quoted_part_spans",
]


def _no_reference(_: str) -> bool:
    return False  # a text holding a definition is not read here (QuoteRuns._refdefs)


#: The deepest nesting :class:`QuoteRuns` reads (markdown-it-py stops nesting far deeper).
MAX_DEPTH = 4


def nested_content(text: str, a: int, b: int, depth: int = MAX_DEPTH) -> tuple[int, int] | None:
    """Where the content of the line ``text[a:b]`` starts, and how many quote markers come
    before it, when it is a block quote line that can only be paragraph text: ``>`` at
    column 0, one optional space (not a tab), up to ``depth`` times, each ``>`` right after
    the one before and its space (``> > x``, ``>>x``); then content that is not blank and
    opens no block (:data:`~richout.markdown.spans.LINE_STARTER`), with no CR but a CRLF's
    at its end; else None."""
    if a >= b or text[a] != ">":
        return None
    c = a
    level = 0
    while c < b and text[c] == ">" and level < depth:
        level += 1
        c += 1
        if c < b and text[c] == " ":
            c += 1
        elif c < b and text[c] == "\t":
            return None
    line = text[c:b]
    if line.endswith("\r") and text.startswith("\n", b):
        line = line[:-1]  # a CRLF: one line ending, as the parse reads it
    if not line.strip(" \t") or "\r" in line or LINE_STARTER.match(text, c) is not None:
        return None
    return c, level


def markers_only(text: str, a: int, b: int) -> bool:
    """Is the line ``text[a:b]`` blank, or quote markers holding nothing (``>``, ``> >``)?"""
    i = a
    while i < b and text[i] == ">":
        i += 2 if text.startswith(" ", i + 1) else 1
    return is_blank(text[i:b])


class LineRuns:
    """Code spans of one text's lines, read once per run of lines that a reading of one
    kind of container line (:class:`QuoteRuns`, :class:`~richout.markdown.items.ItemRuns`)
    answers: each question finds its line's run, read on first asking."""

    __slots__ = ("_refdefs", "_runs", "_scan", "_starts", "text")

    def __init__(
        self, text: str, starts: list[int], scan: FenceScan, definitions: bool | None = None
    ) -> None:
        """``starts``: every line start of ``text``; ``scan``: its fence scan;
        ``definitions``: whether ``text`` holds ``]:`` (looked for when not given)."""
        self.text = text
        self._starts = starts
        self._scan = scan
        # A link reference definition anywhere can turn "[x]" into a link whose label or
        # destination changes the pairing: such texts go to the parser (as in CodeMap).
        self._refdefs = "]:" in text if definitions is None else definitions
        #: the spans of the run holding each line read so far, by line number (None: unsure)
        self._runs: dict[int, list[tuple[int, int]] | None] = {}

    def in_code(self, pos: int, line_start: int) -> bool | None:
        """Is ``pos``, on the line starting at ``line_start``, in code? None when unsure."""
        k = bisect.bisect_right(self._starts, line_start) - 1
        if k not in self._runs:
            self._read_run(k)
        spans = self._runs[k]
        return None if spans is None else in_spans(spans, pos, len(self.text))

    def _bounds(self, j: int) -> tuple[int, int]:
        starts = self._starts
        return starts[j], starts[j + 1] - 1 if j + 1 < len(starts) else len(self.text)

    def _read_run(self, k: int) -> None:
        """Record the spans (or None) of every line of the run holding line ``k``: found
        once for the run, so that asking about each of its lines stays linear."""
        raise NotImplementedError


class QuoteRuns(LineRuns):
    """The code spans of the block quote paragraphs of one text, read once per run of lines.

    Answered for a run of :func:`nested_content` lines of one depth that opens its quote:
    after a blank line, the text's start, or paragraph lines (none opening a block: a ``>``
    at column 0 interrupts a paragraph, but continues a quote whose paragraph lazily took
    the lines in between); outside any fenced block; ending at a blank line, a line of
    markers with nothing after them, or the text's end (any other line may continue the
    paragraph lazily). No line of it can open or continue another block, so its code spans
    are those of its lines' contents joined, paired as a plain paragraph's, each mapped back
    to the source from its first to its last backtick, as the parse maps them. A quote of
    30k lines with tags and code spans went to markdown-it-py whole, whose inline parse of
    ``[[`` tags cost 2-3 s/MB.

    Lines with no marker that can only be paragraph text (:func:`lazy_content`) are in the
    run too, below its first quote line: the quote takes each as a lazy continuation of its
    paragraph (markdown-it-py marks it so, and neither a table nor another block starts
    there). A table is read in runs of quote lines only: when a run with a lazy line may
    hold one (:func:`~richout.markdown.spans.may_hold_table`), its lazy lines are the
    parse's and its quote lines are read without them. A quote of such lines went to the
    parser whole (3.8 s/MB in ``parse_reply``, 48 explained).
    """

    __slots__ = ()

    def _line(self, j: int) -> tuple[int, int] | None:
        """Line ``j``'s content start and quote depth (:func:`nested_content`), or None."""
        return nested_content(self.text, *self._bounds(j))

    def _content(self, j: int) -> int | None:
        """Line ``j``'s content start: a quote line's, or a lazy line's (:func:`lazy_content`)."""
        found = self._line(j)
        return lazy_content(self.text, *self._bounds(j)) if found is None else found[0]

    def _lazy(self, j: int) -> bool:
        """Is line ``j``, no quote line, a lazy one (:func:`lazy_content`)?"""
        return lazy_content(self.text, *self._bounds(j)) is not None

    def _quote_above(self, k: int) -> int:
        """The quote line whose paragraph the lazy line ``k`` may continue: the first line
        above the lazy lines ending at ``k``, when it is a quote line; else -1, and each line
        walked is recorded as unread (so each is walked once, whatever is asked)."""
        j = k
        while j >= 0 and (found := self._line(j)) is None and self._lazy(j):
            j -= 1
        if j < 0 or j == k or found is None:
            self._runs.update(dict.fromkeys(range(max(j, 0), k + 1)))
            return -1
        return j

    def _read_run(self, k: int) -> None:
        found = self._line(k)
        if found is None and (k := self._quote_above(k)) < 0:
            return
        found = self._line(k)
        assert found is not None  # (a quote line, or the one above a lazy line)
        depth = found[1]
        last = len(self._starts) - 1
        k0 = k1 = k
        # A run keeps one depth: a line one marker deeper opens a quote in the paragraph
        # (which ends there), one shallower continues it lazily (both left to the parse).
        # A line of paragraph text with no marker continues it lazily (CommonMark 5.1): the
        # run takes such lines below its quote lines, and above them back to another one.
        j = k0 - 1
        lazy = between = False  # (a lazy line in the run; one above its first quote line)
        while j >= 0 and ((f := self._line(j)) is None or f[1] == depth):
            if f is not None:
                k0, lazy = j, lazy or between
            elif not self._lazy(j):
                break
            between = f is None
            j -= 1
        while k1 < last and ((f := self._line(k1 + 1)) is None or f[1] == depth):
            if f is None and not self._lazy(k1 + 1):
                break
            lazy = lazy or f is None
            k1 += 1
        run_start, run_end = self._bounds(k0)[0], self._bounds(k1)[1]
        if (
            lazy
            and self.text.find("|", run_start, run_end) >= 0
            and may_hold_table(self._joined(k0, k1), headed=pipe_above(self.text, run_start))
        ):
            # Tables are read in runs of quote lines only (a lazy line ends a table's rows):
            # the lazy lines are the parse's, the quote lines around line k read alone.
            self._runs.update((j, None) for j in range(k0, k1 + 1) if self._line(j) is None)
            k0, k1 = self._quote_lines(k, depth)
        opens = self._opens_quote(k0)
        table = self._table(k0, k1) if opens else None
        head: int | None = k0
        if table is None and opens:
            head = self._interrupting(k0, k1)
            table = self._table(head, k1) if head is not None else None
        if table is not None and head is not None:
            if head > k0:
                # The paragraph the table interrupts: its lines, paired as the lines above
                # a blank one are (a table is the only block that can start inside a run).
                above = self._spans(k0, head - 1)
                for j in range(k0, head):
                    self._runs[j] = above
            for j in range(head, k1 + 1):
                self._runs[j] = table.get(j)
            return
        spans = self._spans(k0, k1) if opens and self._ends(k1) else None
        for j in range(k0, k1 + 1):
            self._runs[j] = spans

    def _quote_lines(self, k: int, depth: int) -> tuple[int, int]:
        """The first and last of the quote lines of ``depth`` next to each other around the
        quote line ``k``."""
        last = len(self._starts) - 1
        k0 = k1 = k
        while k0 > 0 and (f := self._line(k0 - 1)) is not None and f[1] == depth:
            k0 -= 1
        while k1 < last and (f := self._line(k1 + 1)) is not None and f[1] == depth:
            k1 += 1
        return k0, k1

    def _opens_quote(self, k0: int) -> bool:
        """Does the run starting at line ``k0`` open its block quote? The lines before it,
        back to a blank one or the text's start, must open no block: a quote line among
        them may be continued by the run, the lines between taken lazily. The walk stops at
        the first blank line, the first line that opens a block (a quote line among them),
        or the text's start, so each line is read by the run after it only."""
        j = k0 - 1
        while j >= 0:
            line = self.text[slice(*self._bounds(j))]
            if is_blank(line):
                return True
            if LINE_STARTER.match(line) is not None:
                return False
            j -= 1
        return True

    def _ends(self, k1: int) -> bool:
        """Does the paragraph end with line ``k1`` (no line after it may continue it)? The
        next line is blank, or markers holding nothing (as deep as the run's or not: blank
        in an outer quote, an empty quote opening in this one)."""
        return k1 + 1 >= len(self._starts) or markers_only(self.text, *self._bounds(k1 + 1))

    def _table(self, k0: int, k1: int) -> dict[int, list[tuple[int, int]] | None] | None:
        """The code spans (source offsets) of each line of the run ``k0``-``k1`` when its
        first line's content heads a table over the second's (the run opens its quote, or
        the table interrupts the paragraph above it, :meth:`_interrupting`; the table rule
        is the first block rule), by line number; a line missing or None: a row this
        reading leaves to the parse. None when no table opens the run.

        Every line of the run is a row: its content is neither blank nor a block's start
        (:data:`~richout.markdown.spans.LINE_STARTER`, a superset of the table's
        terminators and indented code). The run ends before a line of markers holding
        nothing or a line with fewer markers (either ends the table; one with more opens a
        quote, which ends it too), or before a line that may open a block (a ``> ===`` row,
        say, which the table keeps: the lines from there are the parse's). Rows end early at
        a character markdown-it-py 3 and 4 trim differently, and (version 4) at the row
        whose filled-in cells pass its limit (:func:`~richout.markdown.tables.rows_in_table`).
        A quoted table of 40k rows with code spans and tags went to markdown-it-py whole
        (1.7-1.9 s/MB).
        """
        if k1 == k0 or self._refdefs:
            return None
        header = self._row(k0)
        if "|" not in header[1]:
            return None  # most quotes: a paragraph, read by _spans
        delimiter = self._row(k0 + 1)
        columns = header_columns(header[1][header[2] :], delimiter[1][delimiter[2] :])
        if columns is None:
            return None
        run_start, run_end = self._bounds(k0)[0], self._bounds(k1)[1]
        if run_end >= self._scan.valid_until or self._scan.overlaps(run_start, run_end + 1):
            return None
        rows = [header, delimiter, *(self._row(j) for j in range(k0 + 2, k1 + 1))]
        body = [line[at:] for _, line, at in rows[2:]]
        kept = rows_in_table(body, columns)
        out: dict[int, list[tuple[int, int]] | None] = {}
        # Rows repeat: each distinct one is read once (Tables.row_spans says why).
        read: dict[tuple[str, int], list[tuple[int, int]] | None] = {}
        for j, (a, line, at) in enumerate(rows[: kept + 2], start=k0):
            if ODD_CELL_CHAR.search(line, at) is not None:
                break  # this row and the ones after it: the parse reads them
            key = (line, at)
            if key in read:
                spans = read[key]
            else:
                spans = cell_spans(line, at, columns, _no_reference)
                if len(read) < ROW_MEMO:
                    read[key] = spans
            out[j] = None if spans is None else [(a + x, a + y) for x, y in spans]
        return out

    def _interrupting(self, k0: int, k1: int) -> int | None:
        """The line of the run ``k0``-``k1`` that heads a table interrupting the paragraph
        the run opens (the table rule is one of the paragraph's terminators), or None when
        no line does or when this reading cannot tell.

        Each line of the run but the last, from the first, is asked whether it heads a
        table over the next: no line holding no ``|``; a line holding a character
        markdown-it-py 3 and 4 trim differently, or over one, gives up; else the two
        contents decide (:func:`~richout.markdown.tables.header_columns`). No other block
        can start inside the run (each line's content opens none), so the first line that
        heads one ends the paragraph above it. A quote paragraph over 40k table rows with
        code spans and tags went to markdown-it-py whole (2 s/MB).
        """
        text = self.text
        for j in range(k0, k1):
            a, b = self._bounds(j)
            if text.find("|", a, b) < 0:
                continue
            _, header, at = self._row(j)
            _, delimiter, dat = self._row(j + 1)
            if ODD_CELL_CHAR.search(header, at) or ODD_CELL_CHAR.search(delimiter, dat):
                return None
            if header_columns(header[at:], delimiter[dat:]) is not None:
                return j if j > k0 else None  # (the first line's table is _table's to read)
        return None

    def _row(self, j: int) -> tuple[int, str, int]:
        """Line ``j`` of a run, as a table row: its start, its text (a CRLF's CR off) and
        where its content starts in it."""
        a, b = self._bounds(j)
        c = self._content(j)
        assert c is not None  # a run is made of such lines
        line = self.text[a:b]
        return a, line[:-1] if line.endswith("\r") else line, c - a

    def _spans(self, k0: int, k1: int) -> list[tuple[int, int]] | None:
        """The code spans (source offsets) of the quote lines ``k0``-``k1``, or None."""
        text = self.text
        run_start, run_end = self._bounds(k0)[0], self._bounds(k1)[1]
        if run_end >= self._scan.valid_until or self._scan.overlaps(run_start, run_end + 1):
            return None
        if self._refdefs:
            return None
        source = text[run_start:run_end]
        if "`" not in source:
            return []
        # Each line's content was checked for a block starter (nested_content). The markers
        # hold no backtick or backslash and follow a line break, so the source pairs as the
        # contents joined do, at source offsets (from a span's first backtick to its last,
        # as the parse maps it); only the checks of what can change the pairing read the
        # contents, and only when the source holds one of their triggers ("]:" is out).
        if ("|" in source or "<" in source or contains(source, "](")) and para_unsafe(
            self._joined(k0, k1), headed=pipe_above(text, run_start)
        ):
            return None
        return code_spans_in(text, run_start, run_end)

    def _joined(self, k0: int, k1: int) -> str:
        """The contents of the run's lines ``k0``-``k1``, joined by line feeds."""
        pieces = []
        for j in range(k0, k1 + 1):
            c = self._content(j)
            assert c is not None  # the run is made of such lines
            pieces.append(self.text[c : self._bounds(j)[1]])
        return "\n".join(pieces)


#: What a blank line starts with (a line starting otherwise holds content).
_BLANK_START = frozenset(" \t\r\n")


def part_head_spans(text: str, q: int) -> list[tuple[int, int]] | None:
    """The code spans of a streamed part's head, the lines before the line at ``q`` (its
    line break off): one paragraph of its own, which the container line at ``q``
    interrupts (blank lines before it aside); None when it is not one, or when only the
    parse can pair it."""
    end = q - 2 if text.startswith("\r", q - 2) else q - 1  # (before its CRLF)
    h = 0  # where the paragraph starts: after the blank lines a part may start with
    while text[h : h + 1] in _BLANK_START and (nl := text.find("\n", h, end)) >= 0:
        if not is_blank(text[h:nl]):
            break
        h = nl + 1
    head = text[h:end]
    if is_blank(head):
        return []  # no paragraph at all
    if not one_paragraph(head):
        return None
    if "`" not in head:
        return []
    return None if para_unsafe(head) else code_spans_in(text, h, end)


def _shallow_head_spans(text: str) -> list[tuple[int, int]] | None:
    """The code spans of a streamed part's first line when it is a block quote line (up to
    three spaces before its first marker) less deep than the quote line after it; else None.

    A 64-byte part of a nested quote often starts between a line's markers (`` > `x` |`` of
    ``> > `x` |``): its first line is a quote at depth one, whose content the next line, a
    quote line at depth two, interrupts (inside the outer quote its content opens a
    block quote). That paragraph is the first line alone: its spans are its content's,
    paired as a one-line paragraph's (no delimiter row follows it; ``]:`` is out). Such
    parts went to the parse (a quote nested in a quote, streamed: a fifth of its cost).
    """
    b = text.find("\n")
    if b < 0 or not text.startswith((">>", "> >"), b + 1):
        return None  # (a deeper second line has two markers at least: most parts stop here)
    a = 0
    while a < 4 and text.startswith(" ", a):
        a += 1
    if a > 3:
        return None  # indented code
    first = nested_content(text, a, b)
    if first is None:
        return None
    c = text.find("\n", b + 1)
    second = nested_content(text, b + 1, len(text) if c < 0 else c)
    if second is None or second[1] <= first[1]:
        return None
    return line_spans(text, first[0], b - 1 if text.startswith("\r", b - 1) else b)


def quoted_part_spans(text: str) -> list[tuple[int, int]] | None:
    """The code spans of a text made of one paragraph's lines (or none, or blank lines only)
    and then one block quote's paragraph lines up to its end (nested or not, all at one
    depth), the last of which may be a quote line holding nothing yet; None for any other
    text, or when only the parse can pair its backticks.

    Such a text is a streamed part of a block quote, most often: it starts inside a quote
    line, whose rest reads as a paragraph that the next ``>`` line at column 0 interrupts.
    The paragraph pairs its own backticks, the quote its contents' joined (as
    :class:`QuoteRuns` pairs a run), and no span crosses from one to the other; no line of
    either can open or hold a fence. The quote's markers hold no backtick or backslash and
    follow a line break, so its source pairs as its joined contents do, at source offsets.
    Asked once per text, it spares a short part the line index, fence scan and run records
    of the general path (about half of a streamed quote part's cost).
    """
    if has_lone_cr(text) or contains(text, "]:"):
        return None  # a definition can make "[x]" a link (as in CodeMap); a lone CR: the parse
    found: list[tuple[int, int]] | None = _shallow_head_spans(text)
    if found is not None:
        q = text.index("\n") + 1
    else:
        quoted = text.startswith(">")
        q = 0 if quoted else text.find("\n>") + 1
        if q == 0 and not quoted:
            return None
        found = []
        if q and text[:q].strip(" \t\r\n"):
            head = part_head_spans(text, q)
            if head is None:
                return None
            found = head
    pieces: list[str] = []  # the quote lines' contents
    n = len(text)
    a = q
    depth = 0  # the quote lines' (all alike: a line deeper or shallower is the parse's)
    while a < n:
        b = text.find("\n", a)
        if b < 0:
            b = n
        line = nested_content(text, a, b)
        if line is None or depth not in (0, line[1]):
            if b >= n - 1 and text[a] == ">" and markers_only(text, a, b):
                break  # the last line, a quote line holding nothing yet: the paragraph ends
            return None  # a line that opens a block, holds nothing, or continues lazily
        c, depth = line
        pieces.append(text[c:b])
        a = b + 1
    quote = text[q:a]
    if "`" not in quote:
        return found
    # para_unsafe's triggers ("]:" is out) are the same in the source as in the contents.
    if ("|" in quote or "<" in quote or contains(quote, "](")) and para_unsafe(
        "\n".join(pieces), headed=pipe_above(text, q)
    ):
        return None
    found.extend(code_spans_in(text, q, min(a, n)))
    return found
