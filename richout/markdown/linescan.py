"""Line scans behind the code map's fast paths: container prefixes, indentation, runs.

Each answers one question about lines exactly, or says it cannot (the code map then parses):
:func:`container_content` finds where a line's content starts after block-quote and list
markers, :func:`indent_columns` measures indentation with tab stops of 4 (the fences are
:class:`~richout.markdown.fences.FenceScan`'s).
"""

from __future__ import annotations

import bisect
import re
from itertools import accumulate, compress
from operator import not_

from richout.markdown.definitions import NOT_TEXT_LINE, after_definition
from richout.markdown.regions import CONTAINER_PREFIX
from richout.markdown.spans import LINE_STARTER
from richout.markdown.tables import heads_table
from richout.text.chars import contains, has_lone_cr

__all__ = [
    "CONTAINERISH",
    "CONTAINER_LINE",
    "LAZY_LINE",
    "Runs",
    "container_content",
    "indent_columns",
    "inline_start",
    "is_blank",
    "lazy_content",
    "lf_lines",
    "line_index",
    "may_have_blocks",
    "needs_code_parse",
    "paragraph_end",
    "past_indented",
    "run_paragraph",
    "setext_underlines",
]


#: A line that can only be paragraph continuation text: up to three spaces, then a
#: character no block, container, table row or definition starts with (CommonMark 5.1).
LAZY_LINE = re.compile(r" {0,3}[^\s#`~=*_+>\-\d<\[|:]")


def lazy_content(text: str, a: int, b: int) -> int | None:
    """Where the content of the line ``text[a:b]`` starts when, under a paragraph's line,
    it can only continue that paragraph (lazily, when less indented than the paragraph's
    container: :data:`LAZY_LINE`), with no CR but a CRLF's at its end; else None."""
    if LAZY_LINE.match(text, a, b) is None:
        return None
    end = b - 1 if text.startswith("\r\n", b - 1) else b
    if text.find("\r", a, end) >= 0:
        return None  # a lone CR: the parse's
    c = a
    while text.startswith(" ", c):
        c += 1
    return c


def may_have_blocks(text: str) -> bool:
    """False when ``text`` cannot hold a fenced or indented code block.

    A fence needs a run of three backticks or tildes, indented code four columns of
    indentation (four spaces or a tab), whatever containers surround it; substring tests
    answer that without the Markdown parse (the three-character ones through
    :func:`~richout.text.chars.contains`: a plain ``in`` reads the whole text at about
    1 ns a character).
    """
    return "\t" in text or contains(text, "```") or contains(text, "~~~") or "    " in text


def needs_code_parse(text: str) -> bool:
    """False when ``text`` cannot contain code (no backtick, ``~``, tab or four spaces)."""
    # Four substring tests run at C speed; one regex alternation walks the text in Python.
    return "`" in text or "~" in text or "\t" in text or "    " in text


#: A line prefix that is only blanks and container markers (block quotes, list items).
CONTAINERISH = CONTAINER_PREFIX


def is_blank(line: str) -> bool:
    """Only spaces and tabs, before at most one trailing CR (a CommonMark blank line)."""
    body = line[:-1] if line.endswith("\r") else line
    return not body.strip(" \t")


def lf_lines(text: str) -> str:
    """``text`` with LF for each lone CR, when it holds no CRLF; else ``text``.

    The parser reads a lone CR as a line feed, so the result has the lines, length and code
    regions of ``text``, read by the code map's LF-line readings (CR-only lines were parsed
    whole: 4 s/MB). A CRLF is one line ending of two characters (the readings know it).
    """
    if "\r" in text and "\r\n" not in text:
        return text.replace("\r", "\n")
    return text


def line_index(text: str) -> tuple[list[int], list[int], list[int]]:
    """Every LF line's start, and the starts and ends of the blank lines (:func:`is_blank`)."""
    # One split and C-level sums: a Python loop over find() per line, and a multi-line
    # regex for the blank lines, cost 30 ms on a 1 MB reply. An empty line is blank; only
    # the lines that are all whitespace (found in C) are asked is_blank (asking every one
    # cost 0.13 µs a line), and the starts are summed in C (an enumerate: 0.7 ms/MB more).
    lines = text.split("\n")
    starts = list(accumulate(map((1).__add__, map(len, lines)), initial=0))
    starts.pop()
    numbers = range(len(lines))
    empty = list(compress(numbers, map(not_, lines)))
    spaced = [i for i in compress(numbers, map(str.isspace, lines)) if is_blank(lines[i])]
    if not spaced:
        blank_starts = [starts[i] for i in empty]
        return starts, blank_starts, blank_starts.copy()
    blank = sorted(empty + spaced)
    return starts, [starts[i] for i in blank], [starts[i] + len(lines[i]) for i in blank]


def past_indented(text: str, a: int, hi: int) -> int:
    """The start of the first line from ``a`` (a line start) up to ``hi`` indented under four
    columns, or ``hi``. After a blank line, a fence or the text's start, with no container
    open, lines indented four columns are an indented code block and the first line indented
    less ends it: it opens no paragraph's continuation, so indented lines after it in its
    paragraph are lazy (a paragraph under a code line, its lines tab-led, went to the parser
    whole: 30-50 s/MB explained)."""
    while a < hi and indent_columns(text, a) >= 4:
        a = text.find("\n", a, hi) + 1 or hi
    return a


def indent_columns(text: str, start: int) -> int:
    """Columns of leading spaces/tabs of the line at ``start`` (tab stops of 4), capped at 4.

    A blank line counts as 4: it belongs to whatever block surrounds it, so only the full
    parse can place it.
    """
    col = 0
    n = len(text)
    i = start
    while i < n and col < 4:
        ch = text[i]
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        elif ch in "\r\n":
            return 4
        else:
            return col
        i += 1
    return 4 if i >= n else col


def container_content(text: str, start: int, end: int) -> int | None:
    """Where a line's content starts after its block-quote and list markers.

    None when the content (or the way a marker is followed) could make indented code, which
    only the parser can settle: a marker followed by five or more spaces or a tab, or content
    indented four columns past the markers.
    """
    i = start
    while True:
        j = i
        while j < end and j - i < 3 and text[j] == " ":
            j += 1
        if j >= end:
            return end
        ch = text[j]
        if ch == ">":
            j += 1
            if j < end and text[j] == "\t":
                return None
            if j < end and text[j] == " ":
                j += 1
            i = j
            continue
        k = j
        if ch in "-+*":
            k = j + 1
        else:
            while k < end and k - j < 9 and "0" <= text[k] <= "9":
                k += 1
            if k == j or k >= end or text[k] not in ".)":
                break
            k += 1
        if k >= end or text[k] in "\r":
            return end  # an empty item holds no code on this line
        if text[k] == "\t":
            return None
        if text[k] != " ":
            break
        spaces = k
        while spaces < end and text[spaces] == " ":
            spaces += 1
        if spaces - k >= 5 and spaces < end and text[spaces] not in "\r":
            return None
        i = spaces
    return None if indent_columns(text, i) >= 4 else i


#: A thematic break's characters (a whole line of them).
_BREAK = r"(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,}"
#: A block of its own line that can open a run of lines: an ATX heading or a thematic break.
_OWN_LINE_BLOCK = re.compile(rf" {{0,3}}(?:#{{1,6}}(?:[ \t]|$)|(?:{_BREAK})$)")
#: A line opening a container, which can hold code after its marker ("-     code").
CONTAINER_LINE = re.compile(r" {0,3}(?:[>*+-]|\d{1,9}[.)])")


#: A line at column 0 that starts a block whatever comes before it, so that the lines after
#: it (plain ones) belong to it: an ATX heading, a bullet list item with content, an
#: ordered one numbered 1 (the only number that interrupts a paragraph), a block quote
#: (indented up to three spaces too: a quote nested in a list item's content opens there).
_BLOCK_LINE = re.compile(r"^(?:#{1,6}(?:[ \t]|\r?$)|[-+*][ \t]+\S|1[.)][ \t]+\S| {0,3}>)", re.M)
_QUOTE_LINE = re.compile(r" {0,3}>")


def inline_start(text: str, lo: int, hi: int, line_start: int, blocks: dict[int, list[int]]) -> int:
    """Where the inline content holding the line at ``line_start`` may begin, in the run of
    non-blank lines ``[lo, hi)`` (``lo`` after a blank line, a fence or the text's start).

    The last line of the run up to ``line_start`` that opens a block is where: a heading or
    thematic break is skipped for a later line; a block quote or list item whose content
    opens no other block gives that content's start (its later lines, when none opens a
    block, which the caller's pairing checks, continue its paragraph lazily; the markers
    hold no backtick). Such lines are the run's first, or a column-0 heading or list item,
    or a quote line (indented up to three spaces, holding the run's first ``>``), that
    interrupts it (:data:`_BLOCK_LINE`, found once per run and kept in ``blocks``); empty
    container lines after one are skipped (:func:`_past_empty_items`).
    A link reference definition on the run's first line gives the next line
    (:func:`after_definition`). Else ``lo``. A tag in code after a heading, quote or list
    line, or a definition, in a run of 500k lines sent the whole megabyte to the parser
    (3-9 s/MB): no cut point divides a run of lines.
    """
    first_line = lo + 1 if text.startswith("\n", lo) else lo
    found = blocks.get(lo)
    if found is None:
        # A quote line opens a quote of its own only if no ">" stands before it in the run:
        # else it may continue an earlier quote (nested in a list item, say) whose lazy
        # lines reach it. Left out, such a line stays in the paragraph, for the parse.
        q = text.find(">", first_line, hi)
        found = blocks[lo] = [
            m.start()
            for m in _BLOCK_LINE.finditer(text, first_line, hi)
            if m.end() - 1 == q or not _QUOTE_LINE.match(text, m.start())
        ]
    k = bisect.bisect_right(found, line_start) - 1
    at = found[k] if k >= 0 else first_line
    end = text.find("\n", at, hi)
    end = hi if end < 0 else end
    line = text[at:end]
    if line.endswith("\r") and text.startswith("\n", end):
        line = line[:-1]  # a CRLF: one line ending, as the parse reads it
    if "\r" in line:
        return lo  # a lone CR breaks the line: as the parse reads it
    if at == first_line and line_start > at and line.lstrip(" ").startswith("["):
        nxt = after_definition(text, at, hi)  # a definition opening the run, on its own line
        if nxt > at:
            return nxt
    if _OWN_LINE_BLOCK.match(line) is not None:
        if heads_table(text, line, end):
            return lo  # a table's header, maybe (the table rule is tried first): the parse's
        # (a heading's own line: the caller's)
        return _past_empty_items(text, end + 1, line_start, hi) if line_start > at else lo
    if CONTAINER_LINE.match(line) is not None:
        stop = at + len(line)  # (before a CRLF's CR)
        c = container_content(text, at, stop)
        if c == stop:
            # An empty container line: no paragraph for the next line to continue.
            return _past_empty_items(text, end + 1, line_start, hi) if line_start > at else lo
        if c is not None and LINE_STARTER.match(text, c) is None:
            return c
    return lo


#: Lines :func:`container_content` finds empty: a bullet then spaces, ">" then at most four.
_EMPTY_ITEMS = re.compile(r"(?: {0,3}(?:[-+*] *|> {0,4})\r?\n)*")


def _past_empty_items(text: str, at: int, line_start: int, hi: int) -> int:
    """The first line from ``at`` (no paragraph open) up to ``line_start`` that is no empty
    container line: such a line opens a container holding nothing, so no paragraph is open
    after it either. 250k empty list items went to the parser whole (2.3 s/MB)."""
    m = _EMPTY_ITEMS.match(text, at, line_start)
    at = m.end() if m else at  # (then any line the pattern leaves out)
    while at < line_start:
        end = text.find("\n", at, hi)
        end = hi if end < 0 else end
        stop = end - 1 if text.startswith("\r\n", end - 1) else end  # (a CRLF's CR)
        if (
            CONTAINER_LINE.match(text, at, stop) is None
            or container_content(text, at, stop) != stop
        ):
            break
        at = end + 1
    return at


class Runs:
    """What a code map found once per run of lines, by the run's start."""

    __slots__ = ("blocks", "underlines")

    def __init__(self) -> None:
        #: the lines opening a block (:func:`inline_start`)
        self.blocks: dict[int, list[int]] = {}
        #: the setext underlines of a run of top-level text lines (:func:`setext_underlines`)
        self.underlines: dict[int, list[int] | None] = {}


def run_paragraph(
    text: str, lo: int, hi: int, line_start: int, line_end: int, *, runs: Runs
) -> tuple[int, int]:
    """The bounds of the inline content holding the line ``[line_start, line_end)`` in the
    run of non-blank lines ``[lo, hi)``, as far as a local reading can tell: between the
    setext underlines around it in a run of top-level text lines
    (:func:`setext_underlines`), else from :func:`inline_start` to :func:`paragraph_end`.
    """
    first_line = lo + 1 if text.startswith("\n", lo) else lo
    if first_line not in runs.underlines:
        runs.underlines[first_line] = setext_underlines(text, first_line, hi)
    found = runs.underlines[first_line]
    if found and not _EQUALS_LINE.match(text, line_start, line_end):
        k = bisect.bisect_right(found, line_start)
        start = text.find("\n", found[k - 1], hi) + 1 if k else lo
        return start, found[k] if k < len(found) else hi
    start = inline_start(text, lo, hi, line_start, runs.blocks)
    return start, paragraph_end(text, start, hi, line_end)


#: A line of "=" (a setext underline where a paragraph is open, else paragraph text).
_EQUALS_LINE = re.compile(r"^=+[ \t]*\r?$", re.M)  # (a CRLF's CR ends the line)


def setext_underlines(text: str, first_line: int, hi: int) -> list[int] | None:
    """The starts of the ``=`` lines that underline a setext heading in the run of lines
    from ``first_line`` to ``hi``, when every line of it is top-level paragraph text or such
    a line; None for any other run.

    After a blank line, a fence or the text's start, a line at column 0 that opens no
    block continues no container, and such lines only open or continue paragraphs: a ``=``
    line underlines the open paragraph (closing it), or opens one as text when none is open
    (the run's first line, or the line after an underline). Many headings in one run, or
    one in its middle, with a tag in code after them, sent the run to the parser (2-3 s/MB).
    """
    if NOT_TEXT_LINE.search(text, first_line, hi) is not None or has_lone_cr(text, first_line, hi):
        return None
    out: list[int] = []
    prev_end = -2
    prev_underline = False
    for m in _EQUALS_LINE.finditer(text, first_line, hi):
        a = m.start()
        # (the line before is a "=" line too: the opposite of its reading)
        underline = a != first_line and (prev_end + 1 != a or not prev_underline)
        if underline:
            out.append(a)
        prev_end, prev_underline = m.end(), underline
    return out


#: A line that ends a paragraph above it: a setext underline or a thematic break.
_UNDERLINE = re.compile(rf" {{0,3}}(?:=+[ \t]*|-+[ \t]*|{_BREAK})")


def paragraph_end(text: str, start: int, hi: int, line_end: int) -> int:
    """Where the paragraph holding the line ending at ``line_end`` ends, in a run of lines
    whose inline content starts at ``start`` (:func:`inline_start`) and which ends at ``hi``:
    before the run's last line when that line is a setext underline or a thematic break
    (either ends the paragraph, whose content is the same), else ``hi``.

    Only for a run whose content starts at a line (a container's lazy lines are continued
    by such a line as text, or closed by it). A tag in code before an underline ending a run
    of 500k lines sent the whole megabyte to the parser (3.8-6.6 s/MB).
    """
    if start and text[start - 1] != "\n":
        return hi
    end = hi - 1 if hi and text[hi - 1] == "\n" else hi
    last = text.rfind("\n", line_end, end) + 1
    if end > last and text[end - 1] == "\r":
        end -= 1  # a CRLF, or a CR ending the text: the line's ending either way
    if last <= line_end or "\r" in text[last:end]:
        return hi
    if _UNDERLINE.fullmatch(text, last, end) is None:
        return hi
    # A "-" line under a line holding "|" may be a table's delimiter row (the table rule
    # comes first): the parse tells.
    above = max(text.rfind("\n", start, last - 1) + 1, start)
    return hi if "|" in text[above:last] and "-" in text[last:end] else last
