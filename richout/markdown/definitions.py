"""Link reference definitions that open a run of lines, read as the parser reads them.

A definition is not inline content: the paragraph after it begins on a later line, and
:func:`after_definition` says which, or that only the parse can tell. Apart from
:mod:`richout.markdown.spans`, whose paragraph checks it serves, to keep each module short.
"""

from __future__ import annotations

import re

from richout.text.chars import has_lone_cr

__all__ = ["NOT_TEXT_LINE", "after_definition"]


#: A link reference definition that is a whole line, read as the parser reads it or not
#: at all: a label without brackets or escapes, then ``]:``, a destination without angle
#: brackets, parentheses, escapes, entities (``&``: the parser decodes them before it
#: validates the link) or whitespace, and blanks to the line's end; no ``|`` (the table
#: rule comes first: with a delimiter row next, the line is a table's header).
_LINE_DEFINITION = re.compile(
    r" {0,3}\[([^\[\]\\|\n]{1,999})\]:[ \t]*"
    r"([^\s<()\\&|\x00-\x1f\x7f][^\s()\\&|\x00-\x1f\x7f]*)[ \t]*\r?(?=\n)"
)
#: Destinations markdown-it's link validation refuses (and a definition with one is text),
#: ``data:`` images included here: the parse reads those.
_REFUSED_SCHEME = re.compile(r"(?:vbscript|javascript|file|data):", re.IGNORECASE)


def after_definition(text: str, at: int, hi: int) -> int:
    """The start of the line after a :data:`_LINE_DEFINITION` at the line start ``at`` of
    a run of lines ending at ``hi``, where its paragraph begins; else ``at``.

    A definition opening a paragraph is not inline content, and one on a line of its own
    ends there unless the next line opens its title (``"``, ``'`` or ``(`` after blanks):
    :func:`_after_title`. The parser validates the destination as a link's: one with a
    refused scheme (``javascript:``...) makes no definition.
    """
    m = _LINE_DEFINITION.match(text, at, hi)
    if m is None or not m.group(1).strip() or _REFUSED_SCHEME.match(m.group(2)):
        return at  # (an empty label defines nothing; a refused link is no definition)
    nxt = first = m.end() + 1
    while first < hi and text[first] in " \t":
        first += 1
    if first >= hi or text[first] in "\r\n":
        return at
    return _after_title(text, first, hi, nxt) or at if text[first] in "\"'(" else nxt


#: A line that a run of top-level paragraph text (or setext underlines, or a definition's
#: title) cannot hold: one with indentation (a container's line, or code), or one whose
#: first character may open a block, a table's delimiter row, a definition or an HTML
#: block. (Fence lines do not reach the run readings: the fence scan bounds every run.)
NOT_TEXT_LINE = re.compile(r"^[ \t#*_+>\-\d<\[|:]", re.M)


def _after_title(text: str, first: int, hi: int, nxt: int) -> int:
    """Where the paragraph after a definition begins when the line ``nxt`` opens a title at
    ``first``, or 0 when only the parse can tell.

    The parser reads the title on, line after line, to its closing mark (``)`` for ``(``,
    which an unescaped ``(`` before it spoils), and keeps it only when blanks follow the mark
    to its line's end; otherwise the definition is its own line and the paragraph begins at
    ``nxt``. A closing mark nowhere in the run, or blanks missing after it, is such a case; a
    title that holds gives the line after it, when no line it spans could have stopped the
    parser's reading. Backslashes (escapes) leave it to the parse. A definition, a line
    opening a title never closed, then 250k lines went to the parser whole (9.5 s/MB).
    """
    mark = ")" if text[first] == "(" else text[first]
    close = text.find(mark, first + 1, hi)
    if text.find("\\", first, hi if close < 0 else close + 1) >= 0:
        return 0
    if close < 0 or (mark == ")" and text.find("(", first + 1, close) >= 0):
        return nxt  # no title: the parser's reading fails, and it reads none
    end = text.find("\n", close, hi)
    end = hi if end < 0 else end
    if has_lone_cr(text, first, end):
        return 0  # a lone CR breaks a line where the parser may stop, or end the title's
    if text[close + 1 : end].rstrip("\r").strip(" \t"):
        return nxt  # something after the title on its line: read without it
    title_end = text.find("\n", first, hi)
    if title_end < close and NOT_TEXT_LINE.search(text, title_end + 1, end) is not None:
        return 0
    return end + 1 if end + 1 < hi else 0
