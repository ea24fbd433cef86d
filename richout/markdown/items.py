"""Code spans of a list of one-line items (``- `a` x``), read from each item's line.

A run of list item lines at column 0 (a ``-``, ``+`` or ``*`` marker, or one to nine ASCII
digits and ``.`` or ``)``, then one to four spaces, then content that is not blank and
opens no block, :data:`~richout.markdown.spans.LINE_STARTER`) holds one paragraph per line:
the item's content starts after the marker's spaces, and the next item's marker, less
indented than that content, ends the paragraph (the list rule ends a paragraph inside an
item whatever the marker, and no other line is in the run). So each line's code spans are
its content's, paired as a one-line paragraph (:func:`~richout.markdown.spans.para_unsafe`
with ``one_line``: a table needs a delimiter row inside the item, which the next line is
not). :class:`ItemRuns` answers
:meth:`~richout.markdown.codemap.CodeMap.in_code` for such lines without the parse; a
bulleted list of 30k items with code spans and tags went to markdown-it-py whole (2.3
s/MB).

Conservative edges: the run must follow a blank line or open the text (a paragraph above
may take an ordered marker as text, and a container above may hold the lines), and end at
a blank line or the text's end (the last item's paragraph may go on lazily); no fence may
touch it, and no ``]:`` may be in the text (a definition can make ``[x]`` a link).
``tests/test_codemap.py`` compares each answer with the full parse.
"""

from __future__ import annotations

import re

from richout.markdown.linescan import FenceScan, is_blank
from richout.markdown.quotes import LineRuns, QuoteRuns, part_head_spans
from richout.markdown.spans import (
    LINE_STARTER,
    code_spans,
    para_unsafe,
)
from richout.markdown.tables import ITEM_LINE
from richout.text.chars import contains, has_lone_cr

__all__ = ["CONTAINER_FIRST", "ContainerRuns", "ItemRuns", "item_content", "listed_part_spans"]

#: The characters a block quote's or a list item's line starts with.
CONTAINER_FIRST = frozenset(">-+*0123456789")
#: A marker that may interrupt a paragraph (a bullet, or an ordered list starting at 1),
#: at a line start after a line break.
_INTERRUPTING_ITEM = re.compile(r"\n(?:[-+*]|0{0,8}1[.)]) {1,4}[^ \t\r\n]")
#: A list item holding nothing yet: a marker, spaces at most (a stream's last line).
_EMPTY_ITEM = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])[ ]*")


def item_content(text: str, a: int, b: int) -> int | None:
    """Where the content of the line ``text[a:b]`` starts when it is a list item's line
    whose content can only be paragraph text (see the module), else None."""
    m = ITEM_LINE.match(text, a, b)
    if m is None:
        return None
    c = m.end()
    line = text[c:b]
    if line.endswith("\r") and text.startswith("\n", b):
        line = line[:-1]  # a CRLF: one line ending, as the parse reads it
    if "\r" in line or LINE_STARTER.match(text, c) is not None:
        return None
    return c


class ItemRuns(LineRuns):
    """The code spans of the one-line list items of one text, read once per run of lines."""

    __slots__ = ()

    def _content(self, j: int) -> int | None:
        return item_content(self.text, *self._bounds(j))

    def _read_run(self, k: int) -> None:
        if self._refdefs or self._content(k) is None:
            self._runs[k] = None
            return
        last = len(self._starts) - 1
        k0 = k1 = k
        while k0 > 0 and self._content(k0 - 1) is not None:
            k0 -= 1
        while k1 < last and self._content(k1 + 1) is not None:
            k1 += 1
        run_start, run_end = self._bounds(k0)[0], self._bounds(k1)[1]
        text = self.text
        sure = (
            (k0 == 0 or is_blank(text[slice(*self._bounds(k0 - 1))]))
            and (k1 == last or is_blank(text[slice(*self._bounds(k1 + 1))]))
            and run_end < self._scan.valid_until
            and not self._scan.overlaps(run_start, run_end + 1)
        )
        for j in range(k0, k1 + 1):
            self._runs[j] = self._line_spans(j) if sure else None

    def _line_spans(self, j: int) -> list[tuple[int, int]] | None:
        """The code spans (source offsets) of item line ``j``'s content, or None."""
        c = self._content(j)
        assert c is not None  # a run is made of such lines
        content = self.text[c : self._bounds(j)[1]]
        if content.endswith("\r"):
            content = content[:-1]  # (a lone CR is not in a run: item_content)
        if "`" not in content:
            return []
        if para_unsafe(content, one_line=True):
            return None
        return [(c + a, c + b) for a, b in code_spans(content)]


class ContainerRuns:
    """The runs read at lines opening a container: block quote lines (:class:`QuoteRuns`)
    and list item lines (:class:`ItemRuns`), each reading built when first asked."""

    __slots__ = ("_items", "_quotes", "_scan", "_starts", "text")

    def __init__(self, text: str, starts: list[int], scan: FenceScan) -> None:
        """``starts``: every line start of ``text``; ``scan``: its fence scan."""
        self.text = text
        self._starts = starts
        self._scan = scan
        self._quotes: QuoteRuns | None = None
        self._items: ItemRuns | None = None

    def in_code(self, pos: int, line_start: int) -> bool | None:
        """Is ``pos``, on the line starting at ``line_start`` (which opens with ``>`` or a
        list marker's first character), in code? None when unsure."""
        if self.text.startswith(">", line_start):
            self._quotes = self._quotes or QuoteRuns(self.text, self._starts, self._scan)
            return self._quotes.in_code(pos, line_start)
        self._items = self._items or ItemRuns(self.text, self._starts, self._scan)
        return self._items.in_code(pos, line_start)


def listed_part_spans(text: str) -> list[tuple[int, int]] | None:
    """The code spans of a text made of one paragraph's lines (or none) and then one-line
    list items (:func:`item_content`) up to its end, the last of which may be a marker
    holding nothing yet; None for any other text, or when only the parse can pair its
    backticks.

    Such a text is a streamed part of a list, most often: it starts inside an item's line,
    whose rest reads as a paragraph that the next item interrupts (a bullet, or an ordered
    marker numbered 1: others do not interrupt a paragraph), and each item line is its own
    paragraph (:class:`ItemRuns`); the text's end ends the last. A bulleted list of one-line
    items with code spans and tags, streamed in 64-character chunks, parsed each part
    (3.5 s/MB).
    """
    if has_lone_cr(text) or contains(text, "]:"):
        return None  # a definition can make "[x]" a link (as in CodeMap); a lone CR: the parse
    found: list[tuple[int, int]] = []
    if item_content(text, 0, len(text) if "\n" not in text else text.index("\n")) is None:
        m = _INTERRUPTING_ITEM.search(text)
        if m is None:
            return None
        q = m.start() + 1
        head = part_head_spans(text, q)
        if head is None:
            return None
        found = head
    else:
        q = 0
    n = len(text)
    a = q
    while a < n:
        b = text.find("\n", a)
        if b < 0:
            b = n
        c = item_content(text, a, b)
        if c is None:
            if b == n and _EMPTY_ITEM.fullmatch(text, a, b) is not None:
                break  # the last line, a marker holding nothing yet: the paragraph ends
            return None  # a line that opens a block, holds nothing, or continues lazily
        content = text[c : b - 1 if text.startswith("\r", b - 1) else b]
        if "`" in content:
            if para_unsafe(content, one_line=True):
                return None
            found.extend((c + x, c + y) for x, y in code_spans(content))
        a = b + 1
    return found
