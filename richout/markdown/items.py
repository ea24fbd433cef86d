"""Code spans of a list of items (``- `a` x``), read from each item's lines.

A run of list item lines at column 0 (a ``-``, ``+`` or ``*`` marker, or one to nine ASCII
digits and ``.`` or ``)``, then one to four spaces, then content that is not blank and
opens no block, :data:`~richout.markdown.spans.LINE_STARTER`), each maybe followed by
continuation lines (indented to its content, under four columns more, spaces only, their
content opening no block either: :func:`~richout.markdown.tables.item_continuation`),
holds one paragraph per item: the item's content starts after the marker's spaces, each
continuation line goes on with it, and the next item's marker, less indented than that
content, ends it (the list rule ends a paragraph inside an item whatever the marker, and
no other line is in the run). So each item's code spans are its content's, paired as a paragraph's
(:func:`~richout.markdown.spans.para_unsafe`; a one-line item with ``one_line``: a table
needs a delimiter row inside the item, which the next line is not). The indentation holds
no backtick or backslash and follows a line break, so an item's source pairs as its
contents joined do, at source offsets (as a quote's does, :mod:`richout.markdown.quotes`).
:class:`ItemRuns` answers :meth:`~richout.markdown.codemap.CodeMap.in_code` for such
lines without the parse; a bulleted list of 30k items with code spans and tags went to
markdown-it-py whole (2.3 s/MB; 2.1 when each item is wrapped on two lines).

A line of paragraph text under an item's paragraph line, less indented than its content,
continues that paragraph lazily (:func:`~richout.markdown.linescan.lazy_content`: it starts,
after up to three spaces, with no character a block, a container, a table's delimiter row or
a definition may start with; an item marker below it still opens the next item, the list
rule taking any marker there). A list whose items each took such a line went to the parser
whole (5.2 s/MB in ``parse_reply``).

Conservative edges: the run is the whole region between blank lines (or the text's ends):
it must open with an item line (a paragraph above may take an ordered marker as text, and
a container above may hold the lines), or with one paragraph that such an item interrupts
(a bullet, or an ordered ``1``, with content and no ``|``: :meth:`ItemRuns._past_paragraph`),
and a line that is none of an item's, a
continuation and a lazy line (a nested block) leaves the region to the parse; no fence may
touch it, and no ``]:`` may be in the text (a definition can make ``[x]`` a link).
``tests/test_codemap.py`` compares each answer with the full parse.
"""

from __future__ import annotations

import bisect
import re

from richout.markdown.fences import FenceScan
from richout.markdown.linescan import is_blank, lazy_content, line_index
from richout.markdown.quotes import LineRuns, QuoteRuns, part_head_spans, quoted_part_spans
from richout.markdown.spans import (
    LINE_CODE_SPAN,
    LINE_STARTER,
    SHORT_CHUNK,
    code_spans_in,
    line_spans,
    one_paragraph,
    para_unsafe,
    pipe_above,
)
from richout.markdown.tables import ITEM_LINE, item_continuation
from richout.text.chars import contains, has_lone_cr

__all__ = [
    "CONTAINER_FIRST",
    "INTERRUPTION",
    "ContainerRuns",
    "ItemRuns",
    "item_content",
    "item_spans",
    "listed_part_spans",
    "part_reading",
]

#: The characters a block quote's or a list item's line starts with (a list item's
#: continuation line starts with a space: :class:`ContainerRuns` reads those too).
CONTAINER_FIRST = frozenset(">-+*0123456789")
#: A marker that may interrupt a paragraph (a bullet, or an ordered list starting at 1),
#: at a line start after a line break.
_ITEM_INTERRUPTS = r"(?:[-+*]|0{0,8}1[.)]) {1,4}[^ \t\r\n]"
_INTERRUPTING_ITEM = re.compile(rf"\n{_ITEM_INTERRUPTS}")
#: A line after the first that starts a quote or such an item (:func:`part_reading`'s test
#: for a part showing a container line).
_CONTAINER_AHEAD = re.compile(rf"\n(?:>|{_ITEM_INTERRUPTS})")
#: A line (after a line break) that ends the paragraph above it, whatever holds that
#: paragraph: a block quote's, an ATX heading, or an item that may interrupt a paragraph
#: and holds no "|" (with one, it may be a delimiter row making the line above a table's
#: header: the table rule comes first).
INTERRUPTION = re.compile(
    rf"\n(?:>|#{{1,6}}(?:[ \t]|\r?$)|{_ITEM_INTERRUPTS}(?<!\|)[^|\r\n]*\r?$)", re.M
)
#: A list item holding nothing yet: a marker, spaces at most (a stream's last line).
_EMPTY_ITEM = re.compile(r"(?:[-+*]|[0-9]{1,9}[.)])[ ]*")
#: One :func:`item_content` line: ``ITEM_LINE``, content opening no block, no CR but a
#: CRLF's (a lone CR is the caller's to rule out).
_ITEM_LINE = rf"{ITEM_LINE.pattern}(?!{LINE_STARTER.pattern})[^\r\n]*"
#: Lines that are each an item of one line, the last maybe a marker holding nothing yet or
#: blank: what :func:`listed_part_spans`' loop reads with no continuation line.
_ONE_LINE_ITEMS = re.compile(
    rf"(?:{_ITEM_LINE}\r?\n)*(?:{_ITEM_LINE}|{_EMPTY_ITEM.pattern}|[ \t]*)"
)


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
    """The code spans of the list items of one text, read once per region of lines."""

    __slots__ = ("_blanks",)

    def __init__(
        self,
        text: str,
        starts: list[int],
        scan: FenceScan,
        blanks: list[int],
        definitions: bool | None = None,
    ) -> None:
        """``blanks``: where each blank line of ``text`` starts (in order)."""
        super().__init__(text, starts, scan, definitions)
        self._blanks = blanks

    def _region(self, k: int) -> tuple[int, int] | None:
        """The first and last lines of the region holding line ``k``: its lines back to a
        blank line or the text's start, on to a blank line or its end (None: ``k`` is
        blank). Found from the blank lines' starts, so a question costs no walk."""
        starts, blanks = self._starts, self._blanks
        at = starts[k]
        i = bisect.bisect_left(blanks, at)
        if i < len(blanks) and blanks[i] == at:
            return None
        k0 = bisect.bisect_left(starts, blanks[i - 1]) + 1 if i else 0
        k1 = bisect.bisect_left(starts, blanks[i]) - 1 if i < len(blanks) else len(starts) - 1
        return k0, k1

    def _read_run(self, k: int) -> None:
        """Record the spans of every line of the region holding line ``k``: each item's when
        the region is a run of items (see the module), else None (for line ``k`` alone when
        it is blank or the text holds a definition)."""
        region = self._region(k)
        if region is None or self._refdefs:
            self._runs[k] = None
            return
        k0, k1 = region
        text = self.text
        run_start, run_end = self._bounds(k0)[0], self._bounds(k1)[1]
        if item_content(text, run_start, self._bounds(k0)[1]) is None:
            # (Read once per region: every branch below records all of its lines.)
            kp = self._past_paragraph(run_start, run_end)
            if kp is None:
                # No item heads the region or follows its opening paragraph: every line of
                # it is unsure here (most regions asked here: a paragraph of "2024 was"
                # lines). Recorded for all of them at once: a quote's lazy lines, each with
                # a tag, asked the region again per line (3 µs of a 17 µs question).
                self._runs.update(dict.fromkeys(range(k0, k1 + 1)))
                return
            # The paragraph's lines are the code map's (ended by the item: INTERRUPTION).
            self._runs.update(dict.fromkeys(range(k0, kp)))
            k0 = kp
        items = self._items(k0, k1)
        if run_end >= self._scan.valid_until or self._scan.overlaps(run_start, run_end + 1):
            items = None
        if items is None:
            self._runs.update(dict.fromkeys(range(k0, k1 + 1)))
            return
        for j0, contents, ends in items:
            spans = item_spans(text, contents, ends)
            for j in range(j0, j0 + len(contents)):
                self._runs[j] = spans

    def _past_paragraph(self, start: int, end: int) -> int | None:
        """The first line of the list that interrupts the paragraph opening the region
        ``[start, end)``: a column-0 bullet or ordered ``1`` item holding content and no
        ``|`` (:data:`INTERRUPTION`), under lines that are one paragraph of their own
        (:func:`~richout.markdown.spans.one_paragraph`); None for any other region.

        After a blank line or the text's start nothing above continues into the region
        (a lazy line needs an open paragraph), and such an item ends any paragraph, in a
        container or not, and opens a list at the top level or in the container that holds
        the paragraph; either way its items read as below. A long list right under a line of
        text (a streamed part that starts inside an item) went to the parser whole
        (4.2 s/MB)."""
        text = self.text
        m = INTERRUPTION.search(text, start, end)
        if m is None or text[m.start() + 1] in ">#":
            return None
        head_end = m.start() - 1 if text.startswith("\r", m.start() - 1) else m.start()
        if not one_paragraph(text[start:head_end]):
            return None
        return bisect.bisect_left(self._starts, m.start() + 1)

    def _items(self, k0: int, k1: int) -> list[tuple[int, list[int], list[int]]] | None:
        """The items of lines ``k0``-``k1``, each as its first line, its lines' content
        starts and their ends; None when a line is neither an item's nor a continuation of
        one."""
        text = self.text
        out: list[tuple[int, list[int], list[int]]] = []
        contents: list[int] = []
        ends: list[int] = []
        width = 0
        for j in range(k0, k1 + 1):
            a, b = self._bounds(j)
            c = item_continuation(text, a, b, width) if contents else None
            if c is None and (c := item_content(text, a, b)) is not None:
                contents, ends, width = [c], [b], c - a  # the next item
                out.append((j, contents, ends))
                continue
            if c is None and contents:
                # Under an item's paragraph, a line of paragraph text continues it lazily.
                c = lazy_content(text, a, b)
            if c is None:
                return None
            contents.append(c)
            ends.append(b)
        return out


def item_spans(text: str, contents: list[int], ends: list[int]) -> list[tuple[int, int]] | None:
    """The code spans (source offsets) of one item's paragraph, whose lines' contents start
    at ``contents`` and whose lines end at ``ends`` (a line break's offset, or the text's
    end), or None when only the parse can pair them."""
    c = contents[0]
    end = ends[-1]
    if text.startswith("\r", end - 1):
        end -= 1  # (a CRLF: a lone CR is in no item, item_content, item_continuation)
    if len(contents) == 1:
        return line_spans(text, c, end)
    source = text[c:end]
    if "`" not in source:
        return []
    # para_unsafe's triggers ("]:" is out) are the same in the source as in the contents,
    # which are joined only when one is there.
    if ("|" in source or "<" in source or contains(source, "](")) and para_unsafe(
        "\n".join(text[x:e] for x, e in zip(contents, ends, strict=True)),
        headed=pipe_above(text, c),
    ):
        return None
    return code_spans_in(text, c, end)


class ContainerRuns:
    """The runs read at lines opening a container: block quote lines (:class:`QuoteRuns`)
    and list item lines and their continuations (:class:`ItemRuns`), each reading built
    when first asked."""

    __slots__ = ("_blanks", "_definitions", "_items", "_quotes", "_scan", "_starts", "text")

    def __init__(
        self, text: str, starts: list[int], scan: FenceScan, blanks: list[int], definitions: bool
    ) -> None:
        """``starts``: every line start of ``text``; ``scan``: its fence scan; ``blanks``:
        where each of its blank lines starts; ``definitions``: whether it holds ``]:`` (the
        code map's answer, which each reading would otherwise look for in the whole text)."""
        self.text = text
        self._starts = starts
        self._scan = scan
        self._blanks = blanks
        self._definitions = definitions
        self._quotes: QuoteRuns | None = None
        self._items: ItemRuns | None = None

    @classmethod
    def between(
        cls, text: str, lo: int, hi: int, scan: FenceScan, definitions: bool
    ) -> ContainerRuns:
        """The runs of the lines between two blank lines, ``lo`` the end of the one before
        (or 0) and ``hi`` the start of the one after (or the text's end), as
        :func:`~richout.markdown.bounds.near_blank_lines` gives them. No run reads past a
        blank line, so an index of those lines, the two blank lines and the line after
        the second (where that one ends) answers as the whole text's does: a megabyte
        reply's first question about a quote or list line built an index of every line
        (2.8 ms a map)."""
        a = text.rfind("\n", 0, lo) + 1 if lo else 0  # (where the blank line before starts)
        end = text.find("\n", hi) if hi < len(text) else -1
        b = len(text) if end < 0 else end + 1
        starts, blanks, _ = line_index(text[a:b])
        if end >= 0:
            blanks.pop()  # (the line at b, after the window: split() calls it empty)
        return cls(text, [a + s for s in starts], scan, [a + s for s in blanks], definitions)

    def in_code(self, pos: int, line_start: int) -> bool | None:
        """Is ``pos``, on the line starting at ``line_start`` (a quote's line, a list item's,
        or one that may continue either's paragraph), in code? None when unsure."""
        quoted = self.text.startswith(">", line_start)
        if not quoted:
            self._items = self._items or ItemRuns(
                self.text, self._starts, self._scan, self._blanks, self._definitions
            )
            found = self._items.in_code(pos, line_start)
            if found is not None:
                return found
        # A quote line, or another that may continue a quote's paragraph lazily.
        self._quotes = self._quotes or QuoteRuns(
            self.text, self._starts, self._scan, self._definitions
        )
        return self._quotes.in_code(pos, line_start)


def listed_part_spans(text: str) -> list[tuple[int, int]] | None:
    """The code spans of a text made of one paragraph's lines (or none) and then list
    items (:func:`item_content`, each maybe with continuation lines,
    :func:`~richout.markdown.tables.item_continuation`) up to its end, the last line of
    which may be a marker holding nothing yet or blank; None for any other text, or when
    only the parse can pair its backticks.

    Such a text is a streamed part of a list, most often: it starts inside an item, whose
    rest reads as a paragraph that the next item interrupts (a bullet, or an ordered marker
    numbered 1: others do not interrupt a paragraph), and each item is a paragraph of its
    own (:class:`ItemRuns`); the text's end ends the last. A bulleted list of one-line items
    with code spans and tags, streamed in 64-character chunks, parsed each part (3.5 s/MB;
    1.0 with each item on two lines).
    """
    if has_lone_cr(text) or contains(text, "]:"):
        return None  # a definition can make "[x]" a link (as in CodeMap); a lone CR: the parse
    found: list[tuple[int, int]] = []
    if item_content(text, 0, len(text) if "\n" not in text else text.index("\n")) is None:
        m = _INTERRUPTING_ITEM.search(text)
        if m is None:
            # A paragraph whose last line is a marker holding nothing yet, which it takes as
            # text (a part of an ordered list cut after the next "1."): its spans, if it is one.
            last = text.rfind("\n") + 1
            # (Not "-": under a paragraph's line it is a setext underline. Any other empty
            # marker is the paragraph's text: an empty item cannot interrupt a paragraph.)
            if (
                last
                and not text.startswith("-", last)
                and _EMPTY_ITEM.fullmatch(text, last) is not None
            ):
                return part_head_spans(text, last)
            return None
        q = m.start() + 1
        head = part_head_spans(text, q)
        if head is None:
            return None
        found = head
    else:
        q = 0
    if (
        len(text) - q <= SHORT_CHUNK
        and _ONE_LINE_ITEMS.fullmatch(text, q) is not None
        and text.find("<", q) < 0
        and text.find("](", q) < 0
        and text.find("\\`", q) < 0
    ):
        # Items of one line each, none holding what para_unsafe or an escape reads: every
        # line pairs alone, so one search pairs them all, as the loop below would item by
        # item (a streamed part of such a list: two items and a head in 64 characters).
        # Short only, as code_spans pairs by pattern: an opener with no closer makes the
        # search read to its line's end, once per opener.
        found.extend(m.span() for m in LINE_CODE_SPAN.finditer(text, q))
        return found
    n = len(text)
    a = q
    contents: list[int] = []  # the open item's lines' content starts, and their ends
    ends: list[int] = []
    width = 0
    while a < n:
        b = text.find("\n", a)
        if b < 0:
            b = n
        c = item_continuation(text, a, b, width) if contents else None
        if c is not None:
            contents.append(c)
            ends.append(b)
        else:
            c = item_content(text, a, b)
            if c is None:
                if b == n and (_EMPTY_ITEM.fullmatch(text, a, b) or is_blank(text[a:b])):
                    break  # the last line, a marker holding nothing yet, or blank: it ends
                return None  # a line that opens a block, holds nothing, or continues lazily
            if contents and not _pair_item(found, text, contents, ends):
                return None
            contents, ends, width = [c], [b], c - a
        a = b + 1
    return found if not contents or _pair_item(found, text, contents, ends) else None


def _pair_item(
    found: list[tuple[int, int]], text: str, contents: list[int], ends: list[int]
) -> bool:
    """Add the item's spans (:func:`item_spans`) to ``found``; False: only the parse pairs."""
    spans = item_spans(text, contents, ends)
    if spans is not None:
        found.extend(spans)
    return spans is not None


def part_reading(text: str) -> tuple[bool, list[tuple[int, int]] | None]:
    """How a short text (or a text of one line) pairs as a whole: ``(True, None)`` when it
    is one paragraph (:func:`~richout.markdown.spans.one_paragraph`), ``(True, spans)``
    when it is a streamed part of a quote (:func:`~richout.markdown.quotes.
    quoted_part_spans`) or of a list (:func:`listed_part_spans`), else ``(False, None)``.

    A text of several lines showing a quote or an item line is read as a part first: one
    the part readings answer has a line that opens a block, so it is no one paragraph, and
    the paragraph check (2 µs of a 64-character part) is skipped; other texts are checked
    for a paragraph first, as the readings cost a paragraph more than the check.
    """
    read = quoted_part_spans if ">" in text else listed_part_spans
    if "\n" in text and (text[0] in CONTAINER_FIRST or _CONTAINER_AHEAD.search(text)):
        found = read(text)
        return (True, found) if found is not None else (one_paragraph(text), None)
    if one_paragraph(text):
        return True, None
    found = read(text)
    return found is not None, found
