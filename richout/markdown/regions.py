"""Where a long text can be parsed in independent pieces (issue 8: a 1 MB reply).

A CommonMark parse costs about 0.1-0.2 s per MB, and a reply can be megabytes long while its
code questions concern a few lines. :func:`cut_points` finds line starts where a parse of the
text from there gives exactly the block structure the whole text's parse gives, so the code
map parses only the piece around a question (:mod:`richout.markdown.codemap`).

A line start is a cut when the line before it is blank (only spaces and tabs), its own line
starts at column 0 with a non-blank character, and no top-level fenced block is open there:
a fence is the only block that runs through a blank line and a line at column 0 (the code
parser reads HTML as text, so there are no HTML blocks). At such a line every container has
ended: a blank line ends a paragraph, a table and a block quote, and a line at column 0
ends list items and indented code. What follows cannot change what came before, because
only link reference definitions act at a distance; texts holding ``]:`` are never cut, nor
texts with a CR (a lone CR ends a CommonMark line but not one of ours).

The scan follows top-level fences exactly where it can and stops cutting (returns the cuts
found so far) where it cannot tell: a fence opened with indentation may be inside a list
item, where a less indented line ends it; a fence line in a table may be a table cell.
It also stops at a line whose container prefix could nest blocks deep enough to reach
markdown-it's nesting limit, past which the whole parse reads no more of the document (a
piece started after it would). Stopping is always safe, a longer piece only costs time.
``tests/test_codemap.py`` checks the pieces' answers against the whole parse on generated
Markdown.
"""

from __future__ import annotations

import re

__all__ = ["CONTAINER_PREFIX", "cut_points", "deep_nesting_at"]

_FENCE = re.compile(r"( {0,3})(`{3,}|~{3,})(.*)")
#: Blanks and container markers at a line's start: how deep its blocks may nest (also
#: ``linescan.CONTAINERISH``, a line prefix that is only such characters).
CONTAINER_PREFIX = re.compile(r"[ \t>*+\-0-9.)]*")
#: Columns of container prefix past which nesting might reach markdown-it's limit
#: (engine.MAX_NESTING levels; a list level takes two columns and two levels, a block quote
#: one and one), after which the whole parse reads no more blocks of the document.
_DEEP = 40
#: A line opening with more blanks and container markers than :func:`_too_deep` must weigh
#: (eleven tabs and markers are the fewest that can span more than ``_DEEP`` columns), after
#: a line break: a leading literal the regex engine finds at C speed, where ``(?m)^`` tried
#: every offset (8.6 against 1.3 ms/MB; 7 µs on a corpus reply, a tenth of its cost).
_DEEP_CANDIDATE = re.compile(r"\n([ \t>*+\-0-9.)]{11,})")


def _too_deep(prefix: str) -> bool:
    """Does a line's container prefix span more than ``_DEEP`` columns (a tab counts as
    four, the most it can)?"""
    return len(prefix) + 3 * prefix.count("\t") > _DEEP


def deep_nesting_at(text: str) -> int:
    """Where the first line starts whose containers might nest as deep as markdown-it's
    limit, or -1. From there on the parse reads no block of the document (a list item's
    nested parse runs to the text's end), so no local reading of a later line can be
    trusted. One regex pass over the line starts."""
    first = CONTAINER_PREFIX.match(text)
    if first is not None and _too_deep(first.group()):
        return 0
    for m in _DEEP_CANDIDATE.finditer(text):
        if _too_deep(m.group(1)):
            return m.start(1)
    return -1


def _indent(line: str) -> int:
    """Leading spaces of ``line`` (a tab counts as too many: it is at least four columns)."""
    stripped = line.lstrip(" ")
    if stripped.startswith("\t"):
        return 4
    return len(line) - len(stripped)


def cut_points(text: str) -> list[int]:
    """Offsets where ``text`` can be parsed on its own, ``0`` first; ``[0]`` when none.

    Long because it is one forward pass with its state in locals: a line costs a few
    operations, and the pass runs over every line of a megabyte reply.
    """
    if "\r" in text or "]:" in text:
        return [0]
    cuts = [0]
    fence = ""  # the open top-level fence's marker run ("" when none)
    fence_indent = 0
    blank_before = False
    # Since the last blank line, did a line hold "|"? Then a table may be open.
    group_pipe = False
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        blank = not line.strip(" \t")
        if fence:
            if not blank:
                indent = _indent(line)
                if indent < fence_indent:
                    return cuts  # inside a list item this line would end the fence: unsure
                body = line[indent:]
                if (
                    indent <= 3
                    and body.startswith(fence)
                    and not body.lstrip(fence[0]).strip(" \t")
                ):
                    fence = ""
            blank_before = blank
            continue
        if blank:
            blank_before = True
            group_pipe = False
            continue
        prefix = CONTAINER_PREFIX.match(line)
        if prefix is not None and prefix.end() > 8 and _too_deep(prefix.group()):
            return cuts  # nesting may reach the parser's limit: the rest is one piece
        if blank_before and line[0] not in " \t":
            cuts.append(start)
        blank_before = False
        m = _FENCE.match(line)
        if m is not None and (m.group(2)[0] != "`" or "`" not in m.group(3)):
            if group_pipe or "|" in line:
                return cuts  # a table cell or a fence: unsure
            fence = m.group(2)
            fence_indent = len(m.group(1))
            continue
        group_pipe = group_pipe or "|" in line
    return cuts
