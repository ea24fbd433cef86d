"""Code spans of a top-level table's rows, read as markdown-it-py's table rule reads them.

A run of lines (after a blank line, a fence or the text's start) whose first line is at
column 0, holds a ``|`` and is followed by a delimiter row is a table: the table rule is
the first block rule tried, so nothing else can take those two lines. It is also one of the
paragraph's terminators: below lines of top-level paragraph text, such a pair of lines
starts a table too (:meth:`Tables._interrupting`). Its rows then run on
to the first line that is blank, opens a block (a quote, fence, thematic break, list item,
heading or indented code; :data:`~richout.markdown.spans.LINE_STARTER` is a superset of
them), or brings the count of cells filled in for short rows past markdown-it-py's limit
(65,536 in version 4, :func:`~richout.markdown.engine.table_cell_limit`; version 3 has
none): that row opens a block as after a blank line.

Each row is one line, split at each ``|`` not after a backslash; each of the first
*header-count* cells, trimmed, is parsed as inline text of its own, so a code span never
leaves its cell. :func:`richout.markdown.engine.parse_code` locates each such cell in its
line with ``str.find`` from the end of the previous located cell; :meth:`Tables.row_spans`
does the same, so its spans are the parse's. A table of 40k rows with code spans and tags
went to markdown-it-py whole (1.6-1.8 s/MB). ``tests/test_codemap_tables.py`` compares
every offset with the full parse.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from richout.markdown.definitions import NOT_TEXT_LINE
from richout.markdown.engine import table_cell_limit
from richout.markdown.spans import LINE_STARTER, WHITESPACE, code_spans, para_unsafe
from richout.text.chars import has_lone_cr

__all__ = ["TableRead", "Tables", "cell_count", "heads_table"]

#: A line that ends a table's rows (or that may: :data:`LINE_STARTER` is a superset of the
#: table's terminators, quote, fence, thematic break, list item and heading, and of
#: indented code), matched at each line start.
_ROW_END = re.compile(f"(?m)^(?:{LINE_STARTER.pattern})")
#: What markdown-it-py trims from a cell but a space or tab (version 3 strips
#: ``str.strip()``'s :data:`~richout.markdown.spans.WHITESPACE`, version 4 a list of
#: CommonMark whitespace inside it; the two differ), line breaks aside, and NUL (read as
#: U+FFFD): a line holding one is left to the parse.
_TRIMMED = WHITESPACE.translate(dict.fromkeys(map(ord, " \t\r\n")))
_ODD = re.compile("[\x00" + re.escape(_TRIMMED) + "]")
#: A delimiter row (after up to three spaces): its first two characters as the rule checks
#: them, then pipes, colons, dashes, spaces and tabs only.
_DELIMITER = re.compile(r" {0,3}(?:[|:][-|: \t]|-[-|:])[-|: \t]*")
_ALIGN = re.compile(r":?-+:?")


def _line_at(text: str, a: int, hi: int) -> tuple[str, int]:
    """The line starting at ``a`` in ``text[:hi]`` (a CRLF's CR off) and its end's offset."""
    b = text.find("\n", a, hi)
    if b < 0:
        b = hi
    line = text[a:b]
    return (line[:-1] if line.endswith("\r") else line), b


def heads_table(text: str, line: str, line_end: int) -> bool:
    """Could ``line``, ending at ``line_end``, head a table: does it hold a ``|`` with a
    delimiter row on the next line? (Then the table rule, tried first, may take it.)"""
    if "|" not in line or line_end >= len(text):
        return False
    return _DELIMITER.fullmatch(_line_at(text, line_end + 1, len(text))[0]) is not None


class TableRead(NamedTuple):
    """A table in a run of lines: where its header row starts (the run's first line, or a
    line interrupting the paragraph above it), its header's cell count, where its body rows
    start (the line after the delimiter row), where the lines read as its rows end (a line
    start, or the run's end), and whether the table surely ends there (too many cells filled
    in: the next line opens a block as after a blank line)."""

    head: int
    columns: int
    body: int
    end: int
    ended: bool = False


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


class Tables:
    """The tables opening runs of one text's lines, read once per run (see the module)."""

    __slots__ = ("_reads", "recent", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._reads: dict[int, TableRead | None] = {}
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
            return self._table_at(first, hi)
        return self._interrupting(first, hi)

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
        if b >= hi or "|" not in header:
            return None
        delimiter, c = _line_at(text, b + 1, hi)
        m = _DELIMITER.fullmatch(delimiter)
        if m is None or _ODD.search(header) or has_lone_cr(text, first, c):
            return None
        columns = _delimiter_columns(delimiter.lstrip(" "))
        if columns is None or columns == 0 or cell_count(header.strip(" \t")) != columns:
            return None
        body = c + 1
        end = hi
        stop = _ROW_END.search(text, body, hi)
        if stop is not None:
            end = stop.start()
        odd = _ODD.search(text, body, end)
        if odd is not None:
            end = text.rfind("\n", body, odd.start()) + 1 or body
        if has_lone_cr(text, body, end):
            return None
        if body < end:
            rows = text[body:end].split("\n")
            if rows[-1] == "":
                rows.pop()  # the line break before the blank line or fence ending the run
            limit = table_cell_limit()
            if limit is not None and len(rows) * columns > limit:
                filled = 0
                at = body
                for row in rows:
                    filled += columns - cell_count(row.strip(" \t\r"))
                    if filled > limit:
                        return TableRead(first, columns, body, at, True)
                    at += len(row) + 1
        return TableRead(first, columns, body, end)

    def row_spans(
        self,
        table: TableRead,
        line_start: int,
        line_end: int,
        references_matter: Callable[[str], bool],
    ) -> list[tuple[int, int]] | None:
        """The code spans (offsets from ``line_start``) of the line ``[line_start, line_end)``,
        a row of ``table`` (its header and delimiter row included: before ``table.end``);
        None when a cell may hold a link or autolink that changes the pairing, or a reference
        that does (``references_matter``: the code map's own check, as for a paragraph), or
        the row an escaped pipe (the parse then answers)."""
        line, _ = _line_at(self.text, line_start, line_end)
        if "\\|" in line:
            return None  # the cell's text is not its source: the parse locates it
        cells = line.strip(" \t").split("|")
        if cells[0] == "":
            cells.pop(0)
        if cells and cells[-1] == "":
            cells.pop()
        spans: list[tuple[int, int]] = []
        cursor = 0
        for cell in cells[: table.columns]:
            content = cell.strip(" \t")
            if "`" in content:
                if para_unsafe(content, one_line=True) or references_matter(content):
                    return None
                found = code_spans(content)
                if not found:
                    continue  # the parse locates only cells with code spans, or no backtick
                at = line.find(content, cursor)
                if at < 0:
                    return None
                cursor = at + len(content)
                spans.extend((at + a, at + b) for a, b in found)
            elif content:
                at = line.find(content, cursor)
                if at >= 0:
                    cursor = at + len(content)
        return spans
