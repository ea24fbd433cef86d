"""The blank lines around a line, looked for near it (the code map's paragraph bounds).

Most questions are answered from the lines near them: the blank line before a line and the
one after it are found by looking at most ``reach`` characters and :data:`LOOKBACK` lines
each way; past either limit the caller builds its line index, which answers any text.
"""

from __future__ import annotations

from richout.markdown.linescan import is_blank

__all__ = ["LOOKBACK", "near_blank_lines", "near_line_bounds"]

#: Lines looked at each way before the line index answers (and before an indented line is
#: left to the parser: :meth:`~richout.markdown.codemap.CodeMap._indented_line`).
LOOKBACK = 64


def _previous_line(text: str, line_start: int, reach: int) -> int | None:
    """Start of the line before the one starting at ``line_start``; None: too long to look."""
    end = line_start - 1
    lf = text.rfind("\n", max(end - reach, 0), end)
    if lf < 0 and end > reach:
        return None
    return lf + 1


def near_line_bounds(text: str, pos: int, reach: int) -> tuple[int, int] | None:
    """Start and end (its ``\\n``, or the text's end) of the line holding ``pos``, when both
    are within ``reach`` characters of it; None otherwise (a long line: the line index's)."""
    lf = text.rfind("\n", max(pos - reach, 0), pos)
    if lf >= 0 or pos <= reach:
        end = text.find("\n", pos, pos + reach)
        if end >= 0:
            return lf + 1, end
        if pos + reach >= len(text):
            return lf + 1, len(text)
    return None


def near_blank_lines(
    text: str, line_start: int, line_end: int, reach: int
) -> tuple[int, int] | None:
    """End of the blank line before the line ``[line_start, line_end)`` (or 0), start of the
    blank line after it (or the text's end), when both are within ``reach`` characters and
    :data:`LOOKBACK` lines of it; None otherwise."""
    n = len(text)
    lo = 0
    a = line_start
    for _ in range(LOOKBACK):
        if a == 0:
            break
        prev = _previous_line(text, a, reach)
        if prev is None or line_start - prev > reach:
            return None
        if is_blank(text[prev : a - 1]):
            lo = a - 1
            break
        a = prev
    else:
        return None
    b = line_end
    for _ in range(LOOKBACK):
        if b >= n:
            return lo, n
        start = b + 1
        b = text.find("\n", start, start + reach)
        if b < 0:
            if start + reach < n:
                return None
            b = n
        if b - line_end > reach:
            return None
        if is_blank(text[start:b]):
            return lo, start
    return None
