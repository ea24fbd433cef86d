"""Where inline code could lie in a short text, whatever its blocks turn out to be.

A code span pairs backtick runs inside one inline content: a paragraph's lines, a heading's,
a table cell. Which lines make one paragraph is a question of block structure (does the
next line open a quote, continue an item, lazily continue a quote?), and answering it is
most of what a streamed part's code map costs. :func:`span_reach` answers the tag stages'
usual question, "is this ``[[`` in code?", without it, for every structure at once.

Every inline content starts at a line start (container markers and heading hashes hold no
backtick) and ends at a line end. Pairing from any line start reads backtick runs left to
right: a run opens a span closing at the next run of its width, or is literal text when
the content holds none. Take the union over every line start of the ranges a span could
cover, where a run's closer is searched in the whole text, not its (unknown) content:

* a run with no run of its width after it anywhere is literal in any content, and the
  reading goes on after it;
* a run with one is taken as opening a span to it, and the reading goes on after the
  closer. When the real content ends before that closer, the run is literal there and
  the real reading goes on after it instead; but every position of that content after the
  run lies before the closer, so inside the range already taken. A position of a later
  content is read from that content's own line start.

So a position outside the union is in no code span. An escaped backtick (an odd run of
backslashes before it) is text where a reading meets it as an opener, and the rest of its
run opens instead; a closer is always a whole run, as a backslash is text inside a span.
The constructs that take backtick runs out of the pairing, or split a line, need guards: a
link whose destination or title may hold a backtick (a link's label leaves the pairing
alone: a span holding its ``]`` makes the label end later), an image, a link reference
definition (``]:``, which makes ``[x][y]`` a link), an autolink holding a backtick, a table
(a delimiter row), and a lone CR (a line break the line-start reading would not see). A
text holding any of them gets None: ask the code map.
"""

from __future__ import annotations

import bisect
import re

from richout.markdown.links import autolink_may_hold_backtick, link_may_hold_backtick
from richout.markdown.spans import LINE_CODE_SPAN, backtick_runs, may_hold_table
from richout.text.chars import has_lone_cr

__all__ = ["span_reach"]

#: A blank line: no content crosses it. (``linescan.line_index`` lists them too, and more;
#: for a streamed part this search costs a quarter of it, and parts of a list ask often.)
_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n")
#: A line opening a list item that interrupts a paragraph (a bullet, or an ordered marker
#: numbered 1, with content after it) or a thematic break of ``*`` or ``-``: no content
#: crosses into it, whatever containers hold the line before.
_ITEM_LINE = re.compile(r"\n {0,3}(?:[-+*]|1[.)])[ \t]+[^ \t\r\n]")


def _cuts(text: str) -> list[int]:
    """Line starts of ``text`` that no inline content crosses, sorted: blank lines, lines
    opening a list item that interrupts a paragraph, and the first line opening a block
    quote when no ``>`` comes before it (no content above it is in a quote it could
    continue). Found cheaply; a cut missed only widens the reach."""
    if "\n" not in text:
        return []
    cuts = [m.start() + 1 for m in _BLANK_LINE.finditer(text)]
    cuts.extend(m.start() + 1 for m in _ITEM_LINE.finditer(text))
    q = text.find(">")
    if q > 0:
        line = text.rfind("\n", 0, q) + 1
        if line and q - line <= 3 and text.startswith(" " * (q - line), line):
            cuts.append(line)
    cuts.sort()
    return cuts


def _escaped(text: str, at: int) -> bool:
    """Is the backtick at ``at`` escaped, read outside a code span (an odd run of
    backslashes before it)?"""
    k = at
    while k and text[k - 1] == "\\":
        k -= 1
    return (at - k) % 2 == 1


def _next_of_width(runs: list[tuple[int, int]], j: int, width: int) -> int:
    """The first run after ``runs[j]`` of ``width`` backticks (-1: none, or width 0).

    An escaped run's first backtick is text, and the rest of it opens a span closed by the
    next whole run of that width: inside a span a backslash is text, so a closer is always
    a whole run."""
    if width:
        for c in range(j + 1, len(runs)):
            if runs[c][1] - runs[c][0] == width:
                return c
    return -1


def _paired_by_lines(text: str) -> list[tuple[int, int]] | None:
    """The reach of a text without escaped backticks when every backtick lies in a span its
    own line pairs (read from the line's start, :data:`LINE_CODE_SPAN`): those spans; None
    when a run is left unpaired on its line.

    Then a reading from any line start reaches each later line start with no span open
    (each line before it paired whole) and pairs that line as the line alone does: a run's
    closer on its own line is the next run of its width anywhere. A streamed part's code
    spans are most often so (a table row, a list item, a quote line); one regex pass in C
    against listing the runs and reading them in Python, about half the cost.
    """
    spans: list[tuple[int, int]] = []
    find = text.find
    prev = 0
    for m in LINE_CODE_SPAN.finditer(text):
        a, b = m.span()
        if find("`", prev, a) >= 0:
            return None
        spans.append((a, b))
        prev = b
    return None if find("`", prev) >= 0 else spans


def span_reach(text: str) -> list[tuple[int, int]] | None:
    """Sorted, disjoint ranges of ``text`` outside which no inline code span lies, however
    its lines form blocks; None when the text holds a construct that can change how its
    backtick runs pair (see the module docstring): only a parse can tell.

    Code blocks are not considered: the caller asks only of a text that cannot hold one
    (:meth:`~richout.tags.code.StageCode.inline_only`). Linear in the text's backtick runs,
    but for each escaped run a reading meets, whose closer is searched run by run: the
    caller asks only of texts of up to 256 characters.
    """
    if "`" not in text:
        return []
    # (Plain substring tests: the caller's texts are short, contains() is for long ones.)
    if (
        "]:" in text
        or ("\r" in text and has_lone_cr(text))
        # A table without a pipe has one cell a row, which starts at its line start.
        or ("|" in text and may_hold_table(text))
    ):
        return None
    # (The parser reads NUL as U+FFFD, which an autolink may hold.)
    if "<" in text and autolink_may_hold_backtick(text.replace("\x00", "\ufffd")):
        return None
    # The link reading sees a title on a later line through indentation but not through a
    # quote's markers: a text holding both is left to the map.
    if "](" in text and (">" in text or link_may_hold_backtick(text.replace("\x00", "\ufffd"))):
        return None
    escapes = "\\`" in text
    if not escapes:
        paired = _paired_by_lines(text)
        if paired is not None:
            return paired
    return _read_runs(text, escapes)


def _read_runs(text: str, escapes: bool) -> list[tuple[int, int]]:
    """The reach of a text that passed :func:`span_reach`'s guards, read run by run from
    every line start (``escapes``: it holds an escaped backtick)."""
    runs = backtick_runs(text)
    m = len(runs)
    # Each run's closer, the next run of its width (-1: none), found right to left.
    closer = [-1] * m
    after: dict[int, int] = {}
    for j in range(m - 1, -1, -1):
        s, e = runs[j]
        closer[j] = after.get(e - s, -1)
        after[e - s] = j
    reach: list[tuple[int, int]] = []
    due = {0}  # runs some reading reaches as a possible opener
    find = text.find
    cuts: list[int] | None = None  # found when a closer first lies on a later line
    prev = 0
    for j in range(m):
        s, e = runs[j]
        if j in due or find("\n", prev, s) >= 0:  # (the first run after a line start)
            c = closer[j]
            if escapes and _escaped(text, s):
                c = _next_of_width(runs, j, e - s - 1)
            if c >= 0 and find("\n", e, runs[c][0]) >= 0:
                if cuts is None:
                    cuts = _cuts(text)
                k = bisect.bisect_right(cuts, s)
                if k < len(cuts) and cuts[k] < runs[c][0]:
                    c = -1  # no content crosses the cut: no run of this width closes it
            if c < 0:
                due.add(j + 1)
            else:
                end = runs[c][1]
                if reach and s <= reach[-1][1]:
                    reach[-1] = (reach[-1][0], max(end, reach[-1][1]))
                else:
                    reach.append((s, end))
                due.add(c + 1)
        prev = e
    return reach
