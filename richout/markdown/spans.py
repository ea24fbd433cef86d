"""Code spans of one plain paragraph, from its backtick runs (CommonMark 6.1).

:class:`~richout.markdown.codemap.CodeMap` answers an offset question in a paragraph without
the parse when nothing in the paragraph can change which backtick runs pair
(:func:`para_unsafe`, :func:`has_line_starter`): each opening run then closes at the next run
of the same width, and a run without one is literal text. Outside code spans a
backslash escape makes a backtick literal (the rest of its run can still open a span);
inside one backslashes are literal, so a closing run is never escaped (:func:`code_spans`).
``tests/test_codemap.py`` checks every function here against a pattern or the full parse.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from richout.markdown.links import autolink_may_hold_backtick, link_may_hold_backtick
from richout.text.chars import contains, has_lone_cr

__all__ = [
    "LINE_CODE_SPAN",
    "LINE_STARTER",
    "SHORT_CHUNK",
    "UNPAIRED",
    "WHITESPACE",
    "backtick_runs",
    "block_spans",
    "code_spans",
    "code_spans_in",
    "has_line_starter",
    "heading_spans",
    "in_spans",
    "line_spans",
    "may_hold_table",
    "may_open_span",
    "one_paragraph",
    "pair_runs",
    "para_unsafe",
    "pipe_above",
    "plain_spans",
]

#: What may open a block at a line start (matched at each line start of a paragraph), as
#: the code parser's block rules read one: a block quote; an ATX heading, a list item (each
#: marker followed by a blank or the line's end); a thematic break or setext underline (a
#: line of nothing else); a fence; indented code. Tables are :func:`may_hold_table`'s and
#: definitions ``]:``'s; HTML blocks are off. A digit, ``-``, ``*``, ``#`` or ``_`` that
#: opens none of these (``2024 was``, ``-x``, ``*a*``) is paragraph text: lines starting
#: so once sent their paragraph to the parser (1.6 s/MB on a paragraph of 12k such lines).
#: So is a run of backticks with a backtick after it on its line (a backtick fence's info
#: string holds none): a paragraph of such lines with tags went to the parser whole
#: (1.5-2.3 s/MB, 3.5 explained).
_BLOCK_STARTS = (
    r" {0,3}(?:>"
    r"|#{1,6}(?![^ \t\r\n])"
    r"|[-+*](?![^ \t\r\n])"
    r"|\d{1,9}[.)](?![^ \t\r\n])"
    r"|(?:\*[ \t]*){3,}(?![^\r\n])|(?:-[ \t]*){3,}(?![^\r\n])|(?:_[ \t]*){3,}(?![^\r\n])"
    r"|=+[ \t]*(?![^\r\n])|-+[ \t]*(?![^\r\n])"
    r"|`{3,}(?![^`\r\n]*`)|~~~)"
)
LINE_STARTER = re.compile(_BLOCK_STARTS + r"| {4}| {0,3}\t")
#: :data:`LINE_STARTER` but indented code, which cannot interrupt a paragraph: a line
#: indented four columns continues a top-level paragraph.
_UNINDENTED_STARTER = re.compile(_BLOCK_STARTS)
# A run of backticks, matched where one starts (a search would scan each gap in Python).
_BACKTICK_RUN = re.compile(r"`+")


#: How a link reference definition opens a paragraph (after the line breaks and blanks a
#: paragraph's bounds may hold): its label, a ``[``, characters that are no unescaped
#: bracket, then ``]:`` (a tag such as ``[[reply_to_current]]: x`` is none).
_DEFINITION_START = re.compile(r"[ \t\r\n]*\[(?:[^\[\]\\]|\\[\s\S])*\]:")


def para_unsafe(chunk: str, *, one_line: bool = False, headed: bool = True) -> bool:
    """Could an autolink, a table, a link or an image in ``chunk`` change which backticks
    pair (:func:`autolink_may_hold_backtick`, :func:`may_hold_table`,
    :func:`link_may_hold_backtick`, ``]:``)? The checks read NUL as U+FFFD, as the parser
    does. (An escaped backtick is :func:`code_spans`' to read.)

    ``one_line``: ``chunk`` is a whole text without a line break. A table then needs a
    second line for its delimiter row, so ``|`` says nothing. ``headed``: as
    :func:`may_hold_table`'s. A link reference definition
    cannot interrupt a paragraph, so one in ``chunk`` (a paragraph's source from its start)
    opens it (:data:`_DEFINITION_START`): ``]:`` anywhere else is text (a 1 MB paragraph
    ending in ``[x]: /u`` went to the parser whole).

    Other escapes leave the backtick runs alone (an escaped ``[``, ``]`` or ``(`` only
    matters to a link, whose checks are conservative about escapes, and an escaped ``<``
    only removes an autolink). Substring tests: a regex alternation tried at every offset
    cost about 20 ns a character, 37 µs on one 1.7 KB corpus paragraph (the two-character
    ones through :func:`~richout.text.chars.contains`).
    """
    # Each construct needs its trigger (table "|", definition "]:", link "](", autolink "<";
    # NUL, read as U+FFFD, is none): most paragraphs of a streamed part hold none.
    bracket = "]" in chunk
    link = bracket and contains(chunk, "](")
    angle = "<" in chunk
    tables = not one_line and "|" in chunk
    if not (link or angle or tables or (bracket and contains(chunk, "]:"))):
        return False
    if "\x00" in chunk:
        chunk = chunk.replace("\x00", "\ufffd")  # as the parser reads it
    return (
        (tables and may_hold_table(chunk, headed=headed))
        or (bracket and _DEFINITION_START.match(chunk) is not None)
        or (link and link_may_hold_backtick(chunk))
        or (angle and autolink_may_hold_backtick(chunk))
    )


#: Every character ``str.strip()`` removes (markdown-it-py strips a table's cells with it):
#: the whitespace of ``str.isspace`` (``tests/test_codemap.py`` computes it).
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
#: What a table's delimiter row is made of, with the block quote markers before it.
_DELIMITER_ROW = "|:->" + WHITESPACE


def may_hold_table(chunk: str, *, headed: bool = True) -> bool:
    """Could ``chunk``, a paragraph's source bounded by blank lines or fences, hold a table?

    A table needs its header line and, on the next line, a delimiter row: pipes, colons,
    dashes and whitespace only (after any block quote markers), with a dash. The table
    rule also refuses a header line without a ``|``, and a header's text is part of its
    source line (after any container's markers), so a delimiter row counts only under a
    line holding one. A chunk of one line holds no such pair. Lines are the parser's: a
    line break is an LF, a CR or a CRLF (``str.splitlines`` also splits at characters
    CommonMark keeps inside a line, and a piece of a header may lack its ``|``).

    ``headed``: the chunk's first line may be a delimiter row under a header above the
    chunk. Callers that know the source line above holds no ``|`` (:func:`pipe_above`)
    pass False: a 1 MB paragraph of ``|---|`` rows under tag lines, first line a row, went
    to the parser whole (23-44 s/MB explained).
    """
    if "-" not in chunk or ("\n" not in chunk and "\r" not in chunk):
        return False  # (a streamed part of table rows: no dash, no generator per line)
    if "\r" in chunk:
        chunk = chunk.replace("\r\n", "\n").replace("\r", "\n")
    above = headed
    for line in chunk.split("\n"):
        if above and "-" in line and not line.strip(_DELIMITER_ROW):
            return True
        above = "|" in line
    return False


def pipe_above(text: str, at: int) -> bool:
    """Does ``text`` hold a ``|`` from the start of the line above the one holding ``at``
    up to ``at``? When not, a line starting at ``at`` (or a line's content starting
    there, after a container's markers) is no table's delimiter row: the header would be
    that line above. (Only LF is read as a line break: a CR-only text's answer is a
    wider search, so never a wrong False.)"""
    if at <= 0:
        return False
    start = text.rfind("\n", 0, at)  # the break before the line of ``at`` (at - 1 at a start)
    if start > 0:
        start = text.rfind("\n", 0, start)
    return text.find("|", max(start, 0), at) >= 0


#: A blank line: only spaces and tabs from the text's start or a line break to the next line
#: break or the text's end.
_BLANK_LINE = re.compile(r"(?:\A|\n)[ \t]*\r?(?:\n|\Z)")
#: What a line that may be blank starts with (spaces, tabs, a CRLF's CR, a line feed).
_BLANK_START = frozenset(" \t\r\n")


def one_paragraph(text: str) -> bool:
    """Is all of ``text`` one paragraph: no CR but a CRLF's, no blank line (a final line
    break aside), no line that may open a block (:func:`has_line_starter`)? Then nothing but
    a table or link reference definitions can take lines of it (:func:`para_unsafe` and the
    code map's ``]:`` check leave those to the parse), and no line scan is needed to bound
    it. (A CRLF is one line ending to the parser: a streamed CRLF quote was parsed.)"""
    if has_lone_cr(text):
        return False
    if "\n" not in text:  # one line (a streamed part, most often): one match
        return LINE_STARTER.match(text) is None and bool(text.strip(" \t"))
    end = len(text) - 1 if text[-1] == "\n" else len(text)
    # Blank lines first (one C-level search, before a walk over every line), searched only
    # where one may be: the search tries every offset (0.9 us of a 64-character part). A
    # tab-led line is a line starter, blank or not.
    blank = (
        text[0] in _BLANK_START or "\n\n" in text or "\n " in text or "\n\r" in text
    ) and _BLANK_LINE.search(text, 0, end) is not None
    return not blank and not has_line_starter(text)


#: An ATX heading opening its line (CommonMark 4.2): one to six ``#``, then a blank or the
#: line's end.
_ATX_HEADING = re.compile(r"#{1,6}(?:[ \t]|$)")


def heading_spans(line: str) -> list[tuple[int, int]] | None:
    """The code spans (offsets in ``line``) of a line that is an ATX heading at column 0
    outside any container or fence (the caller knows), or None when it is no such heading,
    holds a CR, or only the parse can pair its content.

    Such a heading is a block of its own line (it interrupts a paragraph, and nothing
    continues it), and its content is read inline as a paragraph's is. The markers and the
    closing sequence hold no backtick or backslash, so the line pairs as its content does,
    at line offsets. A tag in a heading at the end of a paragraph of 500k lines sent the
    whole megabyte to the parser (about 3 s/MB; no cut point divides a paragraph).
    """
    if _ATX_HEADING.match(line) is None or "\r" in line:
        return None
    return line_spans(line)


def line_spans(text: str, a: int = 0, b: int | None = None) -> list[tuple[int, int]] | None:
    """The code spans of the line ``text[a:b]`` (to the end by default), a paragraph's only
    line (or what pairs as one), at offsets in ``text``; None when only the parse can pair
    it.

    The one-line reading shared by headings, a streamed quote part's head and an item's
    one-line paragraph: no backtick, no span; a link, autolink or table the parse would
    have to place, no answer.
    """
    if b is None:
        b = len(text)
    if text.find("`", a, b) < 0:
        return []
    if para_unsafe(text[a:b], one_line=True):
        return None
    return code_spans_in(text, a, b)


def has_line_starter(chunk: str, *, top: bool = False) -> bool:
    """Does a line of ``chunk`` start with what may open a block (:data:`LINE_STARTER`)?

    ``top``: ``chunk`` starts at a line start (after line breaks) where no paragraph is open
    (the code map's runs: after a blank line, a fence, a heading, empty containers or a
    definition), so an unindented first line that opens no block is a top-level paragraph's
    (no container continues an unindented line there), and no indentation interrupts it
    (a paragraph of 500k lines, every other one indented, went to the parser whole:
    1.7 s/MB). Each line is matched in C (``map`` over the split lines): a loop of ``find``
    and ``match`` cost 0.46 µs a line.
    """
    if top:
        first = len(chunk) - len(chunk.lstrip("\r\n"))
        if chunk[first : first + 1] not in (" ", "\t") and LINE_STARTER.match(chunk, first) is None:
            i = chunk.find("\n", first)
            return i >= 0 and any(map(_UNINDENTED_STARTER.match, chunk[i + 1 :].split("\n")))
    return any(map(LINE_STARTER.match, chunk.split("\n")))


def backtick_runs(chunk: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every run of backticks in ``chunk``.

    A ``finditer`` walks every character (about 17 ns each: 30 µs for a 1.7 KB corpus
    paragraph with six backticks); a ``find`` loop skips to each backtick in C but pays
    Python per run. The loop is taken when backticks are rarer than one in fifteen
    characters, where it is the cheaper of the two.
    """
    if chunk.count("`") * 15 > len(chunk):
        return [m.span() for m in _BACKTICK_RUN.finditer(chunk)]
    runs: list[tuple[int, int]] = []
    find = chunk.find
    run = _BACKTICK_RUN.match
    i = find("`")
    while i >= 0:
        m = run(chunk, i)
        j = m.end() if m is not None else i + 1  # m is never None: chunk[i] is a backtick
        runs.append((i, j))
        i = find("`", j)
    return runs


#: The characters a backslash escapes (CommonMark 2.4: ASCII punctuation).
_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_TICK_OR_BACKSLASH = re.compile(r"[`\\]")


# A whole run of backticks, its content ({}), the next whole run of the same width.
_SPAN = r"(?<!`)(`+)(?!`){}(?<!`)\1(?!`)"
#: A code span of a plain paragraph, as :func:`pair_runs` pairs it: a whole run of
#: backticks, then the nearest whole run of the same width. A run without one is tried
#: again from each later run, to the chunk's end: only for chunks of up to
#: :data:`SHORT_CHUNK` characters, where the regex beats listing and pairing the runs.
_CODE_SPAN = re.compile(_SPAN.format(".*?"), re.S)
#: :data:`_CODE_SPAN` kept to one line: lines that are each a paragraph, in one search.
LINE_CODE_SPAN = re.compile(_SPAN.format(r"[^\r\n]*?"))
SHORT_CHUNK = 256


def plain_spans(
    text: str,
    lo: int,
    hi: int,
    *,
    one_line: bool = False,
    starters: bool = True,
    top: bool = False,
    references: Callable[[str], bool],
) -> list[tuple[int, int]] | None:
    """The code spans of the paragraph ``text[lo:hi]`` (offsets in it) when nothing can change
    which backtick runs pair, else None. ``one_line``: it is the whole text, one line
    (:func:`para_unsafe` reads its definition); ``starters``: whether a line may start a
    block (:func:`has_line_starter`, ``top`` as its); ``references``: whether a definition
    elsewhere may make a reference of a piece of it. Its first line heads no table under a
    line without a ``|`` (:func:`pipe_above`)."""
    chunk = text[lo:hi]
    if "`" not in chunk:
        return []
    if starters and has_line_starter(chunk, top=top):
        return None
    if not may_open_span(chunk):
        return []  # (every backtick escaped: no span, whatever links or tables make)
    if not one_line and references(chunk):
        return None
    if para_unsafe(chunk, one_line=one_line, headed=pipe_above(text, lo)):
        return None
    return code_spans(chunk)


#: :func:`block_spans`' answer for a paragraph whose backticks pair into no span (an empty
#: list, told apart by identity; never changed).
UNPAIRED: list[tuple[int, int]] = []


def block_spans(
    text: str, lo: int, hi: int, *, top: bool, references: Callable[[str], bool]
) -> list[tuple[int, int]] | None:
    """:func:`plain_spans` of the paragraph ``text[lo:hi]`` of a run of lines (the code
    map's), or :data:`UNPAIRED` when it holds backticks, pairs into no span and passes the
    checks a paired paragraph passes (block starts, definitions, :func:`para_unsafe`; the
    last two are asked here, as :func:`plain_spans` stops before them when every backtick
    is escaped): read that far, no line of it opens a block or belongs to a definition,
    so each of its lines answers from it as a paired paragraph's lines do. A paragraph
    without a backtick is not read for block starts: an empty list."""
    found = plain_spans(text, lo, hi, top=top, references=references)
    if found != [] or text.find("`", lo, hi) < 0:
        return found
    chunk = text[lo:hi]
    return [] if references(chunk) or para_unsafe(chunk, headed=pipe_above(text, lo)) else UNPAIRED


#: A backtick after an even run of backslashes (none included): one an escape leaves alone.
_UNESCAPED_TICK = re.compile(r"(?<!\\)(?:\\\\)*`")


def may_open_span(chunk: str) -> bool:
    """Could a backtick of ``chunk``, a paragraph's source, open a code span? Not when each
    one follows an odd run of backslashes: the inline parser reads a run of backslashes from
    its first (no token ends inside one: a destination, a title and a label's text read a
    backslash with the character after it, an autolink ends at its ``>``), so the last
    escapes the backtick, which opens nothing; and a span needs an opener. No link, image,
    table or definition then changes the pairing: a 1 MB line of ``[a](\\``` links nesting
    their destinations' parentheses went to the parser whole (85-140 s/MB in
    ``parse_reply``). Only block starts (:func:`has_line_starter`) still matter."""
    i = chunk.find("`")
    if i <= 0 or chunk[i - 1] != "\\":
        return i >= 0  # (most often: the first backtick is unescaped, no pattern search)
    j = len(chunk[:i].rstrip("\\"))  # where the backslashes before it start
    return _UNESCAPED_TICK.search(chunk, j) is not None


def code_spans(chunk: str) -> list[tuple[int, int]]:
    """The code spans of a plain paragraph's source ``chunk`` (one :func:`para_unsafe` and
    :func:`has_line_starter` pass), left to right."""
    if "\\" in chunk and contains(chunk, "\\`"):
        return _pair_escaped(chunk)
    if len(chunk) <= SHORT_CHUNK:
        return [m.span() for m in _CODE_SPAN.finditer(chunk)]
    return pair_runs(backtick_runs(chunk))


def code_spans_in(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """:func:`code_spans` of ``text[a:b]``, at offsets in ``text``: a short range is paired
    where it lies (no copy, no shift; a streamed part pairs three or four such ranges).

    The pattern sees the character before ``a``: a range a backtick precedes is read as a
    copy, as is one with an escaped backtick or longer than :data:`SHORT_CHUNK`."""
    if b - a > SHORT_CHUNK or (a and text[a - 1] == "`") or text.find("\\`", a, b) >= 0:
        return [(a + x, a + y) for x, y in code_spans(text[a:b])]
    return [m.span() for m in _CODE_SPAN.finditer(text, a, b)]


def _pair_escaped(chunk: str) -> list[tuple[int, int]]:
    """:func:`code_spans` of a chunk holding an escaped backtick, read as the inline parser
    reads it: outside code spans a backslash before ASCII punctuation makes it literal
    (an escaped backtick opens nothing, and the run after it starts one later); an opening
    run then closes at the next whole run of its width, backslashes in between or before
    it taken literally, as in any code span. Each backslash and each opening run is read
    once; a closer is found by bisection among the runs of its width."""
    runs = backtick_runs(chunk)
    by_width: dict[int, list[int]] = {}
    for a, b in runs:
        by_width.setdefault(b - a, []).append(a)
    spans: list[tuple[int, int]] = []
    n = len(chunk)
    search = _TICK_OR_BACKSLASH.search
    i = 0
    while (m := search(chunk, i)) is not None:
        j = m.start()
        if chunk[j] == "\\":
            i = j + 2 if j + 1 < n and chunk[j + 1] in _ESCAPABLE else j + 1
            continue
        k = j + 1
        while k < n and chunk[k] == "`":
            k += 1
        starts = by_width.get(k - j)
        c = bisect.bisect_left(starts, k) if starts else 0
        if starts is None or c == len(starts):
            i = k  # no closer: the run is literal text
            continue
        i = starts[c] + k - j
        spans.append((j, i))
    return spans


def in_spans(spans: list[tuple[int, int]], rel: int, limit: int) -> bool:
    """Is offset ``rel`` inside one of the sorted, disjoint ``spans``?"""
    k = bisect.bisect_right(spans, (rel, limit + 1)) - 1
    return k >= 0 and rel < spans[k][1]


#: Up to this many backtick runs are paired by :func:`_pair_few` (a streamed part holds a
#: handful); more by :func:`_pair_indexed`, whose cost stays linear however the widths fall.
_FEW_RUNS = 32


def pair_runs(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code spans ``(start, end)`` that the backtick ``runs`` of a plain paragraph form,
    left to right."""
    return _pair_few(runs) if len(runs) <= _FEW_RUNS else _pair_indexed(runs)


def _pair_few(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code spans of a few backtick ``runs``: each opener closes at the next run of its
    width, searched in C (``list.index``); an opener without one is literal text. Quadratic
    in the number of runs, so only for :data:`_FEW_RUNS` of them."""
    widths = [b - a for a, b in runs]
    spans: list[tuple[int, int]] = []
    i, k = 0, len(widths)
    while i < k:
        try:
            j = widths.index(widths[i], i + 1)
        except ValueError:
            i += 1
            continue
        spans.append((runs[i][0], runs[j][1]))
        i = j + 1
    return spans


def _pair_indexed(runs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """:func:`pair_runs` with the runs indexed by width, so a closer is found without
    rescanning (linear overall)."""
    by_width: dict[int, list[int]] = {}
    for idx, (a, b) in enumerate(runs):
        by_width.setdefault(b - a, []).append(idx)
    cursor: dict[int, int] = {}
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(runs):
        a, b = runs[i]
        width = b - a
        lst = by_width[width]
        c = cursor.get(width, 0)
        while c < len(lst) and lst[c] <= i:
            c += 1
        cursor[width] = c
        if c == len(lst):
            i += 1
            continue
        j = lst[c]
        spans.append((a, runs[j][1]))
        i = j + 1
    return spans
