"""Code spans of a table's rows, read as markdown-it-py's table rule reads them.

A run of lines (after a blank line, a fence or the text's start) whose first line is at
column 0, holds a ``|`` and is followed by a delimiter row is a table: the table rule is
the first block rule tried, so nothing else can take those two lines (but the list rule,
which takes a marker's line as the next item of a list open above the blank line without
trying another rule: such a header is read at the text's start only). It is also one of the
paragraph's terminators: below lines of top-level paragraph text, such a pair of lines
starts a table too (:meth:`Tables._interrupting`); and it is the first rule tried in a list
item opening the run (:meth:`Tables._in_item`; below the item's paragraph lines it
interrupts them, :meth:`Tables._item_interrupting`) and in a block quote (which
:class:`~richout.markdown.quotes.QuoteRuns` reads from its lines' contents). Its rows then
run on to the first line that is blank, opens a block (a quote, fence, thematic
break, list item, heading or indented code; :data:`~richout.markdown.spans.LINE_STARTER` is
a superset of them), or brings the count of cells filled in for short rows past
markdown-it-py's limit (65,536 in version 4, :func:`~richout.markdown.engine.table_cell_limit`;
version 3 has none): that row opens a block as after a blank line.

Each row is one line, split at each ``|`` not after a backslash; each of the first
*header-count* cells, trimmed, is parsed as inline text of its own, so a code span never
leaves its cell. :func:`richout.markdown.engine.parse_code` locates each such cell in its
whole source line (a marker included) with ``str.find`` from the end of the previous
located cell; :func:`cell_spans` does the same, so its spans are the parse's. A table of
40k rows with code spans and tags went to markdown-it-py whole (1.6-1.8 s/MB).
``tests/test_codemap_tables.py`` compares every offset with the full parse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final, NamedTuple

from richout.markdown.definitions import NOT_TEXT_LINE
from richout.markdown.engine import table_cell_limit
from richout.markdown.spans import LINE_STARTER, WHITESPACE, code_spans, para_unsafe
from richout.text.chars import has_lone_cr

__all__ = [
    "ITEM_LINE",
    "ODD_CELL_CHAR",
    "TableRead",
    "Tables",
    "cell_count",
    "cell_spans",
    "delimiter_row_follows",
    "header_columns",
    "heads_table",
    "item_continuation",
    "rows_in_table",
]

#: A line that ends a table's rows (or that may: :data:`LINE_STARTER` is a superset of the
#: table's terminators, quote, fence, thematic break, list item and heading, and of
#: indented code), matched at each line start.
_ROW_END = re.compile(f"(?m)^(?:{LINE_STARTER.pattern})")
#: What markdown-it-py trims from a cell but a space or tab (version 3 strips
#: ``str.strip()``'s :data:`~richout.markdown.spans.WHITESPACE`, version 4 a list of
#: CommonMark whitespace inside it; the two differ), line breaks aside, and NUL (read as
#: U+FFFD): a line holding one is left to the parse.
_TRIMMED = WHITESPACE.translate(dict.fromkeys(map(ord, " \t\r\n")))
ODD_CELL_CHAR = re.compile("[\x00" + re.escape(_TRIMMED) + "]")
#: A line that may be a list item: a marker, then a blank or the line's end.
_MARKER = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])(?:[ \t]|$)")
#: A list item's marker at column 0 and the one to four spaces after it, content after them
#: (five or more spaces: the content is indented code; a tab is not read here); the match
#: ends where the content starts.
ITEM_LINE = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)]) {1,4}(?=[^ \t\r\n])")
#: A delimiter row (after up to three spaces): its first two characters as the rule checks
#: them, then pipes, colons, dashes, spaces and tabs only.
_DELIMITER = re.compile(r" {0,3}(?:[|:][-|: \t]|-[-|:])[-|: \t]*")
_ALIGN = re.compile(r":?-+:?")


def _indent(line: str) -> int:
    """How many spaces ``line`` starts with."""
    return len(line) - len(line.lstrip(" "))


def _line_at(text: str, a: int, hi: int) -> tuple[str, int]:
    """The line starting at ``a`` in ``text[:hi]`` (a CRLF's CR off) and its end's offset."""
    b = text.find("\n", a, hi)
    if b < 0:
        b = hi
    line = text[a:b]
    return (line[:-1] if line.endswith("\r") else line), b


def item_continuation(text: str, a: int, b: int, width: int) -> int | None:
    """Where the content of the line ``text[a:b]`` starts when it is a continuation line of
    a list item whose content starts ``width`` columns in: indented ``width`` to
    ``width + 3`` spaces, then content that is not blank and opens no block, with no CR but
    a CRLF's at its end; else None."""
    c = a + width
    if c >= b or text[a:c].strip(" "):
        return None
    if LINE_STARTER.match(text, c) is not None:
        return None  # (indented four columns more, a tab, or a block's start)
    while text.startswith(" ", c):
        c += 1
    end = b - 1 if text.startswith("\r\n", b - 1) else b  # (a CRLF: one line ending)
    if c >= end or text.find("\r", c, end) >= 0:
        return None  # blank, or a lone CR in it
    return c


def delimiter_row_follows(text: str, line_end: int) -> bool:
    """Could the line after ``line_end`` be a table's delimiter row (``|---|:--|``)?

    The table rule's own tests of that line (:data:`_DELIMITER`), and a ``-``, which each of
    its columns needs: every delimiter row passes, and the lines that pass are few. (A CRLF's
    CR is off; a lone CR is the caller's to look for.)"""
    if line_end >= len(text):
        return False
    line = _line_at(text, line_end + 1, len(text))[0]
    return "-" in line and _DELIMITER.fullmatch(line) is not None


def heads_table(text: str, line: str, line_end: int) -> bool:
    """Could ``line``, ending at ``line_end``, head a table: does it hold a ``|`` with a
    delimiter row on the next line? (Then the table rule, tried first, may take it.)"""
    return "|" in line and delimiter_row_follows(text, line_end)


class TableRead(NamedTuple):
    """A table in a run of lines: where its header row starts (the run's first line, or a
    line interrupting the paragraph above it), its header's cell count, where its body rows
    start (the line after the delimiter row), where the lines read as its rows end (a line
    start, or the run's end), whether the table surely ends there (too many cells filled
    in: the next line opens a block as after a blank line), and where its header row's
    content starts (the first content of a list item opening the run, :meth:`Tables._in_item`)."""

    head: int
    columns: int
    body: int
    end: int
    ended: bool = False
    #: where the header row's content starts in its line (after a list item's marker)
    marker: int = 0


def cell_count(line: str) -> int:
    """How many cells markdown-it-py splits the trimmed row ``line`` into: one more than its
    pipes not after a backslash, less an empty first and an empty last one."""
    n = line.count("|") - line.count("\\|") + 1
    if line.startswith("|"):
        n -= 1
    if n and line.endswith("|") and not line.endswith("\\|"):
        n -= 1
    return n


def _delimiter_columns(line: str) -> int | None:
    """The number of columns the delimiter row ``line`` (indentation and CR off) aligns, or
    None when it is none: cells of ``:?-+:?`` between pipes, empty only at either end."""
    cells = line.split("|")
    count = 0
    for i, cell in enumerate(cells):
        t = cell.strip(" \t")
        if not t:
            if i == 0 or i == len(cells) - 1:
                continue
            return None
        if _ALIGN.fullmatch(t) is None:
            return None
        count += 1
    return count


#: How many distinct rows a :class:`Tables` keeps the code spans of (bounds the memo on a
#: table of distinct rows, which gains nothing from it).
ROW_MEMO: Final = 1024


class Tables:
    """The tables opening runs of one text's lines, read once per run (see the module)."""

    __slots__ = ("_reads", "_rows", "recent", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._reads: dict[int, TableRead | None] = {}
        #: :meth:`row_spans`' answers by the row as written: rows repeat (a table of 40k
        #: equal rows with a tag each asked :func:`cell_spans` 40k times, 2.9 of the 4.5 µs
        #: each code question cost), and the answer depends on the row, its start and the
        #: table's width alone (``references_matter`` reads this text's definitions, the
        #: same for every row). At most :data:`ROW_MEMO` rows are kept.
        self._rows: dict[tuple[str, int, int], list[tuple[int, int]] | None] = {}
        #: the table :meth:`read` found last (its body rows are plain lines: a question on
        #: one of them needs no other check, :meth:`~richout.markdown.codemap.CodeMap.in_code`)
        self.recent: TableRead | None = None

    def read(self, lo: int, hi: int) -> TableRead | None:
        """The table opening the run of lines ``[lo, hi)`` (``lo`` at a line start or at the
        line break of the blank line before it), or None when none does or when this
        reading cannot tell."""
        first = lo + 1 if self.text.startswith("\n", lo) else lo
        # Kept by the first line alone: every line of one run is asked with the same hi
        # (the blank line or fence ending the run), and runs never share a first line.
        if first not in self._reads:
            self._reads[first] = self._read(first, hi)
        table = self._reads[first]
        if table is not None:
            self.recent = table
        return table

    def _read(self, first: int, hi: int) -> TableRead | None:
        text = self.text
        if (first and text[first - 1] != "\n") or text[first : first + 1] in ("", " ", "\t"):
            return None  # not at a line start, or indented (maybe a container's line)
        if "|" in _line_at(text, first, hi)[0]:
            return self._table_at(first, hi) or self._in_item(first, hi)
        return self._interrupting(first, hi) or self._item_interrupting(first, hi)

    def _in_item(self, first: int, hi: int) -> TableRead | None:
        """A table opening the list item whose marker opens the run ``[first, hi)`` (a
        marker at column 0, one to four spaces, then content), when its first two lines are
        surely no table of their own; else None.

        The item's content starts ``width`` columns in; a row is a line indented at least
        that far and less than four columns more (else code), whose content opens no block
        (:data:`~richout.markdown.spans.LINE_STARTER`, as for a table opening a run): a line
        indented less ends the table and the list with it. No tab is read. A list item
        holding a table of 40k rows with code spans and tags went to markdown-it-py whole
        (1.7-1.9 s/MB).
        """
        text = self.text
        m = ITEM_LINE.match(text, first)
        if m is None:
            return None
        width = m.end() - first
        header, b = _line_at(text, first, hi)
        if b >= hi:
            return None
        delimiter, c = _line_at(text, b + 1, hi)
        indent = _indent(delimiter)
        if not width <= indent < width + 4 or "\t" in text[first:c] or has_lone_cr(text, first, c):
            return None
        if ODD_CELL_CHAR.search(header) or ODD_CELL_CHAR.search(delimiter):
            return None  # (then the first line's own table was not surely refused either)
        if header_columns(header, delimiter) is not None:
            # A table of the two lines as they stand, unless a list open above takes the
            # first as its next item (_table_at): this reading cannot tell which.
            return None
        columns = header_columns(header[width:], delimiter[indent:])
        if columns is None:
            return None
        return self._item_rows(first, width, columns, c + 1, hi, marker=width)

    def _item_interrupting(self, first: int, hi: int) -> TableRead | None:
        """A table interrupting the paragraph of the list item whose marker opens the run
        ``[first, hi)`` (its first line holds no ``|``: :meth:`_in_item` reads the other
        case), when every line of that paragraph is surely the item's paragraph text; else
        None.

        The item's content starts ``width`` columns in. Each line after the marker's, down
        to the table's header, must be indented ``width`` to ``width + 3`` columns (spaces
        only: a line indented less may be lazy, one indented more cannot interrupt the
        paragraph; both are left to the parse) and open no block
        (:data:`~richout.markdown.spans.LINE_STARTER`, a superset of the paragraph's
        terminators but the table, and of a setext underline): :func:`item_continuation`,
        with no tab (as :meth:`_in_item`). The first of them over a delimiter row indented
        as far (:func:`header_columns` of the two contents) ends the paragraph and heads
        the table, whose rows :meth:`_item_rows` reads. A list item
        whose paragraph a table of 40k rows with code spans and tags interrupts went to
        markdown-it-py whole (1.8-1.9 s/MB).
        """
        text = self.text
        m = ITEM_LINE.match(text, first)
        if m is None or LINE_STARTER.match(text, m.end()) is not None:
            return None
        width = m.end() - first
        line, b = _line_at(text, first, hi)
        if "\t" in line:
            return None
        at = b + 1
        while at < hi:
            head, end = _line_at(text, at, hi)
            if "\t" in head or item_continuation(text, at, end, width) is None:
                return None  # a line this reading does not take as the paragraph's
            indent = _indent(head)
            if "|" in head and end < hi:
                delimiter, c = _line_at(text, end + 1, hi)
                if ODD_CELL_CHAR.search(head) or ODD_CELL_CHAR.search(delimiter):
                    return None
                dent = _indent(delimiter)
                if "\t" in delimiter:
                    return None
                if width <= dent < width + 4:
                    columns = header_columns(head[indent:], delimiter[dent:])
                    if columns is not None:
                        if has_lone_cr(text, first, c):
                            return None
                        return self._item_rows(at, width, columns, c + 1, hi, marker=0)
            at = end + 1
        return None

    def _item_rows(
        self, head: int, width: int, columns: int, body: int, hi: int, *, marker: int
    ) -> TableRead:
        """The table headed at ``head`` in a list item whose content starts ``width``
        columns in, its body from ``body``: a row is a line indented at least ``width``
        columns whose content opens no block (:data:`~richout.markdown.spans.LINE_STARTER`,
        which holds indented code); the first other line ends the rows."""
        text = self.text
        at = body
        rows: list[str] = []
        starts: list[int] = []  # each row's start (a row's text has its CRLF's CR off)
        while at < hi:
            row, end = _line_at(text, at, hi)
            if (
                _indent(row) < width
                or LINE_STARTER.match(row, width) is not None
                or ODD_CELL_CHAR.search(row) is not None
                or "\t" in row
                or has_lone_cr(text, at, end)
            ):
                break
            rows.append(row)
            starts.append(at)
            at = end + 1
        kept = rows_in_table(rows, columns)
        if kept < len(rows):
            return TableRead(head, columns, body, starts[kept], True, marker)
        return TableRead(head, columns, body, min(at, hi), False, marker)

    def _interrupting(self, first: int, hi: int) -> TableRead | None:
        """A table interrupting the paragraph that opens the run ``[first, hi)``, when the
        lines before its header are all top-level paragraph text; else None.

        The table rule is one of the paragraph's terminators: at column 0 a header row over
        a delimiter row ends the paragraph above it. Lines that open no block and start
        with no character a block, a container, a definition or a delimiter row may start
        with (:data:`~richout.markdown.definitions.NOT_TEXT_LINE`) only continue a paragraph
        or a setext heading, so the first line that does start with one is the delimiter
        row (the header is the line above it) or a ``|`` header; anything else is left to
        the parse. A paragraph line over 40k table rows with code spans and tags sent the
        whole table to markdown-it-py (1.8-2.9 s/MB).
        """
        text = self.text
        m = NOT_TEXT_LINE.search(text, first, hi)
        if m is None:
            return None  # no delimiter row: no table
        at = m.start()
        if at == first or has_lone_cr(text, first, at):
            return None  # a block opens the run, or the lines above are not the parser's
        above = text.rfind("\n", first, at - 1) + 1
        if above > first and heads_table(text, _line_at(text, above, hi)[0], at - 1):
            # The line above may head a table over the delimiter row at ``at``: when this
            # reading cannot tell, the parse does (the row at ``at`` is then no header).
            return self._table_at(above, hi)
        # A header written with its first "|" (the line above holds none over it).
        return self._table_at(at, hi) if text.startswith("|", at) else None

    def _table_at(self, first: int, hi: int) -> TableRead | None:
        """The table whose header row is the column-0 line at ``first`` in the run ending at
        ``hi``, or None when none is or this reading cannot tell."""
        text = self.text
        header, b = _line_at(text, first, hi)
        if b >= hi or (first and _MARKER.match(header)):
            # (A list open above the blank line takes a marker's line as its next item
            # before any other rule is tried: only at the text's start is none open.)
            return None
        delimiter, c = _line_at(text, b + 1, hi)
        columns = header_columns(header, delimiter)
        if columns is None or has_lone_cr(text, first, c):
            return None
        body = c + 1
        end = hi
        stop = _ROW_END.search(text, body, hi)
        if stop is not None:
            end = stop.start()
        odd = ODD_CELL_CHAR.search(text, body, end)
        if odd is not None:
            end = text.rfind("\n", body, odd.start()) + 1 or body
        if has_lone_cr(text, body, end):
            return None
        if body < end:
            rows = text[body:end].split("\n")
            if rows[-1] == "":
                rows.pop()  # the line break before the blank line or fence ending the run
            kept = rows_in_table(rows, columns)
            if kept < len(rows):
                at = body + sum(len(row) + 1 for row in rows[:kept])
                return TableRead(first, columns, body, at, True)
        return TableRead(first, columns, body, end)

    def row_spans(
        self,
        table: TableRead,
        line_start: int,
        line_end: int,
        references_matter: Callable[[str], bool],
    ) -> list[tuple[int, int]] | None:
        """The code spans (offsets from ``line_start``) of the line ``[line_start, line_end)``,
        a row of ``table`` (its header and delimiter row included: before ``table.end``), as
        :func:`cell_spans` reads them."""
        line, _ = _line_at(self.text, line_start, line_end)
        at = table.marker if line_start == table.head else 0
        key = (line, at, table.columns)
        rows = self._rows
        if key in rows:
            return rows[key]
        spans = cell_spans(line, at, table.columns, references_matter)
        if len(rows) < ROW_MEMO:
            rows[key] = spans
        return spans


def header_columns(header: str, delimiter: str) -> int | None:
    """How many columns a table has whose header row holds ``header`` and whose delimiter
    row holds ``delimiter`` (each its line's content, a CRLF's CR off), or None when the two
    open no table, or may open one this reading cannot read (a character markdown-it-py 3
    and 4 trim differently in the header)."""
    if "|" not in header or _DELIMITER.fullmatch(delimiter) is None or ODD_CELL_CHAR.search(header):
        return None
    columns = _delimiter_columns(delimiter.lstrip(" "))
    if columns is None or columns == 0 or cell_count(header.strip(" \t")) != columns:
        return None
    return columns


def rows_in_table(rows: list[str], columns: int) -> int:
    """How many of the body ``rows`` (each its line's content) a table of ``columns``
    columns takes before the cells filled in for short rows pass markdown-it-py's limit
    (:func:`~richout.markdown.engine.table_cell_limit`): all of them on version 3."""
    limit = table_cell_limit()
    if limit is None or len(rows) * columns <= limit:
        return len(rows)  # (a row fills in at most ``columns`` cells)
    filled = 0
    for i, row in enumerate(rows):
        filled += columns - cell_count(row.strip(" \t\r"))
        if filled > limit:
            return i
    return len(rows)


def cell_spans(
    line: str, at: int, columns: int, references_matter: Callable[[str], bool]
) -> list[tuple[int, int]] | None:
    """The code spans (offsets in ``line``) of a table row whose content starts at ``at`` of
    its source ``line`` (a CRLF's CR off; after a block quote's marker, say), the table
    ``columns`` wide; None when a cell may hold a link or autolink that changes the pairing,
    or a reference that does (``references_matter``), or the row an escaped pipe (the parse
    then answers).

    The first ``columns`` cells, trimmed, are paired as one-line paragraphs, and each cell
    with a code span is located as :func:`~richout.markdown.engine.parse_code` locates it:
    ``str.find`` in the whole source line, from the end of the previous located cell.
    """
    content = line[at:]
    if "\\|" in content:
        return None  # the cell's text is not its source: the parse locates it
    cells = content.strip(" \t").split("|")
    if cells[0] == "":
        cells.pop(0)
    if cells and cells[-1] == "":
        cells.pop()
    spans: list[tuple[int, int]] = []
    cursor = 0
    for cell in cells[:columns]:
        text = cell.strip(" \t")
        if "`" in text:
            if para_unsafe(text, one_line=True) or references_matter(text):
                return None
            found = code_spans(text)
            if not found:
                continue  # the parse locates only cells with code spans, or no backtick
            start = line.find(text, cursor)
            if start < 0:
                return None
            cursor = start + len(text)
            spans.extend((start + a, start + b) for a, b in found)
        elif text:
            start = line.find(text, cursor)
            if start >= 0:
                cursor = start + len(text)
    return spans
