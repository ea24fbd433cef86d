"""What the backticks alone say about inline code: :class:`TickGaps`.

Apart from :mod:`richout.markdown.spans` (which pairs backticks) because it pairs nothing:
it bounds where a pairing could reach, so that a question about a position far from any
backtick pair is answered without one.
"""

from __future__ import annotations

import bisect
import re

__all__ = ["TickGaps"]

#: A blank line (only spaces and tabs) between two CommonMark line breaks ("\r\n" is one).
_BLANK_BETWEEN_BREAKS = re.compile(r"(?:\r\n|\r(?!\n)|\n)[ \t]*(?:\r\n|\r(?!\n)|\n)")


class TickGaps:
    """Could an inline code span cover a position of ``text``? Answered from its backticks.

    A span covering ``pos`` opens at or before the nearest backtick before ``pos`` and
    closes at or after the nearest one after it, within one paragraph, which no blank line
    crosses. So when ``pos`` has no backtick on one side, or a blank line lies between its
    two neighbours, no span covers it, whatever the Markdown around it; each pair of
    neighbours is searched once, however many positions lie between them. For a text that
    cannot hold a code block (:func:`~richout.markdown.linescan.may_have_blocks`) a
    False answer is the code map's. True only means "ask the map".
    """

    __slots__ = ("_gaps", "_text", "_ticks")

    def __init__(self, text: str) -> None:
        self._text = text
        self._ticks: list[int] | None = None
        self._gaps: dict[int, bool] = {}  # a backtick's offset -> blank line before the next

    def may_cover(self, pos: int) -> bool:
        """Could a code span cover ``pos`` (True for a backtick itself)?"""
        text = self._text
        if text.startswith("`", pos):
            return True
        ticks = self._ticks
        if ticks is None:
            ticks = self._ticks = [m.start() for m in _BACKTICK.finditer(text)]
        k = bisect.bisect_left(ticks, pos)
        if k == 0 or k == len(ticks):
            return False
        before, after = ticks[k - 1], ticks[k]
        gap = self._gaps.get(before)
        if gap is None:
            gap = self._gaps[before] = _BLANK_BETWEEN_BREAKS.search(text, before, after) is not None
        return not gap


_BACKTICK = re.compile(r"`")
