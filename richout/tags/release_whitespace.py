r"""The release's whitespace normalisation outside code (profile ``release-2026.9.6``).

After removing tags the release does not close gaps the way profile ``next`` does (TAGS.md
§5); it *whitespace-normalises* the text outside code (``normalizeDirectiveWhitespace``): CRLF
becomes LF, a run of two or more spaces/tabs between two visible characters becomes one space
(matches do not overlap, so ``"a  b  c"`` keeps its second run), leading line feeds and one
leading space/tab go, spaces/tabs before a line feed go, three or more line feeds become two,
and the end is trimmed. Code regions are masked out while this runs and put back afterwards.
The rules run as single forward passes instead of regexes that could backtrack.

Code regions come from :class:`richout.markdown.codemap.CodeMap`, richout's one CommonMark
code parse.
The release's own ``findCodeRegions`` (micromark/mdast, GFM tables, HTML off) agrees with it on
every conformance case. Fuzzing found places where the two parsers disagree (about 0.4% of
tag-dense generated texts); they belong to CodeMap, which every profile shares, and all but
the second are not patched here:

* indented code inside a list item or block quote starts after the container prefix
  (``"-     code"``: release 2, CodeMap 0);
* whitespace-only lines indented four or more columns after top-level indented code
  extend it (``"    code\n    "``: release ends at 13, CodeMap at 8) -- the one difference
  this module does patch (:func:`_extend_indented`), since it decides which whitespace the
  normalisation keeps;
* an unclosed fence inside a container ends with its line (``"> ```\n"``: release 5,
  CodeMap 6);
* an indented line right after a link reference definition is paragraph text
  (``"[x]: /u\n    code"``: no code for the release);
* tables: a one-column table whose header has no pipe is a table for the release, so the
  indented line after it is code (``"a\n|-\n\tr"``); a fence line holding ``|`` above a
  delimiter row is a fence, not a table header (``"```||\n-|-"``);
* markdown-it trims U+00A0/U+3000 as whitespace: a first line of only such characters shifts
  CodeMap's inline-span offsets (``"\xa0\n`x`"``: release 2-5, CodeMap 0-3), and such a
  table cell changes the column count;
* the release drops a leading BOM before parsing, so its offsets then count from after it.
"""

from __future__ import annotations

import re
from typing import Literal

from richout.markdown.codemap import CodeMap, Region
from richout.text.chars import JS_WS_CLASS, is_js_ws, js_rtrim

__all__ = ["TailMode", "normalize"]

# "x  y" -> "x y": two visible characters around a run of 2+ spaces/tabs. Linear: only a
# visible character starts a match, and it scans just the run that follows it. The release
# matches UTF-16 units, so a character after the run that is astral (a surrogate pair) is
# consumed only by half: its other half may start the next match ("a  😀  b" -> "a 😀 b",
# while "a  b  c" -> "a b  c"). The lookahead branch reproduces that.
_ASTRAL = "\U00010000-\U0010ffff"
_GAP = re.compile(f"([^{JS_WS_CLASS}])[ \\t]{{2,}}(?:([^{JS_WS_CLASS}{_ASTRAL}])|(?=[{_ASTRAL}]))")
_LF_RUN = re.compile(r"\n{3,}")
_PRIVATE_RUN = re.compile("\ue000+")
# Cheap evidence that normalisation could change anything at all (see normalize).
_MAY_NORMALIZE = re.compile(f"\\r\\n|[ \\t]\\n|\\n\\n\\n|[^{JS_WS_CLASS}][ \\t][ \\t]")

TailMode = Literal["trim", "preserve", "normalize"]


def _regions(text: str) -> list[Region]:
    """Every code region of ``text`` (blocks and inline spans), sorted.

    The release's parser (micromark) ends a top-level indented code block after the
    whitespace-only lines that still carry a full four-column indent, where markdown-it ends
    it at its last non-blank line; those lines are kept verbatim by the release's whitespace
    normalisation, so the block is extended here to match.
    """
    regions = CodeMap(text).regions()
    return [_extend_indented(text, r) if r.block else r for r in regions]


def _indent_columns(text: str, start: int, end: int) -> tuple[int, int]:
    """Columns of the leading spaces and tabs of ``text[start:end]`` and where they stop."""
    cols = 0
    i = start
    while i < end and text[i] in " \t":
        cols = cols + 4 - cols % 4 if text[i] == "\t" else cols + 1
        i += 1
    return cols, i


def _extend_indented(text: str, region: Region) -> Region:
    """``region`` grown over the four-column whitespace-only lines after an indented block."""
    line_start = text.rfind("\n", 0, region.start) + 1
    line_start = max(line_start, text.rfind("\r", 0, region.start) + 1)
    first_end = _line_end(text, region.start)
    cols, stop = _indent_columns(text, line_start, first_end)
    if line_start != region.start or cols < 4 or stop == first_end:
        return region  # fenced, inside a container, or not indented code
    end = region.end
    pos = end
    n = len(text)
    while pos < n:
        pos += 2 if text.startswith("\r\n", pos) else 1  # past the line break
        stop_line = _line_end(text, pos)
        cols, stop = _indent_columns(text, pos, stop_line)
        if stop != stop_line:
            break  # a line with content: the block ended before it
        if cols >= 4:
            end = stop_line
        pos = stop_line
    return Region(region.start, end, True) if end != region.end else region


def _line_end(text: str, pos: int) -> int:
    """End of the line holding ``pos`` (CR, CRLF and LF end lines)."""
    nl = text.find("\n", pos)
    cr = text.find("\r", pos)
    ends = [e for e in (nl, cr) if e >= 0]
    return min(ends) if ends else len(text)


def _close_gap(m: re.Match[str]) -> str:
    """One space between the two visible characters of a :data:`_GAP` match."""
    return f"{m.group(1)} {m.group(2) or ''}"


def normalize(text: str, tail: TailMode) -> str:
    """Whitespace normalisation outside code regions (``normalizeDirectiveWhitespace``)."""
    # Every rule needs one of these shapes, or leading/trailing whitespace, in the text
    # outside code (masking code never creates one): without them the parse is skipped.
    if (
        tail == "trim"
        and not _MAY_NORMALIZE.search(text)
        and (not text or (not is_js_ws(text[-1]) and text[0] not in " \t\n"))
    ):
        return text
    regions = _regions(text)
    # The release masks each region as <sentinel><index><sentinel>; the sentinel is a run
    # of U+E000 longer than any in the text, so a placeholder never meets a lookalike.
    longest = max((len(m.group()) for m in _PRIVATE_RUN.finditer(text)), default=0)
    sentinel = "\ue000" * (longest + 1)
    blocks: list[str] = []
    pieces: list[str] = []
    cursor = 0
    for region in regions:
        pieces.append(text[cursor : region.start])
        pieces.append(f"{sentinel}{len(blocks)}{sentinel}")
        blocks.append(text[region.start : region.end])
        cursor = region.end
    pieces.append(text[cursor:])
    masked = "".join(pieces)

    cut = len(js_rtrim(masked)) if tail == "preserve" else len(masked)
    body, suffix = masked[:cut], masked[cut:]
    body = body.replace("\r\n", "\n")
    body = _GAP.sub(_close_gap, body)
    body = body.lstrip("\n")
    if len(body) > 1 and body[0] in " \t" and not is_js_ws(body[1]):
        body = body[1:]
    # Spaces/tabs before each line feed, one line at a time (a "[ \t]+\n" regex would rescan
    # a long run of spaces from each of its characters).
    lines = body.split("\n")
    for i in range(len(lines) - 1):
        lines[i] = lines[i].rstrip(" \t")
    body = _LF_RUN.sub("\n\n", "\n".join(lines))
    body = js_rtrim(body) if tail == "trim" else body + suffix

    if not blocks:
        return body
    restore = re.compile(f"{sentinel}([0-9]+){sentinel}")

    def put_back(m: re.Match[str]) -> str:
        # Normalisation never touches U+E000 or digits, so every match is one placeholder;
        # the bounds check only keeps a malformed one as text instead of failing.
        index = int(m.group(1))
        return blocks[index] if index < len(blocks) else m.group()

    return restore.sub(put_back, body)
