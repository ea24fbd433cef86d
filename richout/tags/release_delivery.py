"""The release's delivery strip (``stripInlineDirectiveTagsForDelivery``, profile release).

The delivery strip removes complete tags with the whitespace around them (one space in their
place), plus a malformed reply prefix at the very start, and then trims the text, keeping the
indentation of a leading code block (``trimTextPreservingCode``). Tags are read by
:mod:`richout.tags.release_reader`; ``[[`` candidates are found with ``str.find`` from a
position that only moves forward, so the strip is linear in the input.
"""

from __future__ import annotations

import bisect

from richout.markdown.codemap import CodeMap
from richout.markdown.linescan import may_have_blocks
from richout.tags.release_reader import ReleaseTagReader, malformed_prefix_end
from richout.tags.scan import ws_end
from richout.text.chars import is_js_ws, js_ltrim, js_rtrim

__all__ = ["strip_for_delivery"]


def _delivery_edits(text: str) -> list[tuple[int, int, str]]:
    """The delivery strip's removals: ``(start, end, replacement)`` in order, disjoint."""
    if "[[" not in text:
        return []
    n = len(text)
    reader = ReleaseTagReader(text, unicode_fold=True)
    code: CodeMap | None = None
    # Asked once: four substring scans of the whole text per tag would be quadratic.
    blocks_possible = may_have_blocks(text)
    block_starts: list[int] | None = None
    edits: list[tuple[int, int, str]] = []
    search = 0
    prev_end = 0
    while search < n:
        marker = text.find("[[", search)
        if marker < 0:
            break
        # The padding before a tag moves into the edit, but never what a previous edit owns.
        start = marker
        while start > prev_end and is_js_ws(text[start - 1]):
            start -= 1
        tag = reader.complete(marker)
        complete = tag is not None
        if tag is not None:
            end = ws_end(text, tag.end)
        elif start == 0 and not text[:marker].strip(" \t"):
            prefix_end = malformed_prefix_end(text, marker)
            if prefix_end is None:
                search = marker + 1
                continue
            end = prefix_end
        else:
            search = marker + 1
            continue
        search = prev_end = end
        if code is None:
            code = CodeMap(text)
        if code.in_code(marker):
            continue
        # A code block starting inside the removal keeps its line break and indentation;
        # blocks start on a new line, so only a removal spanning lines can hold one.
        keeps_block = False
        if blocks_possible and ("\n" in text[marker:end] or "\r" in text[marker:end]):
            if block_starts is None:
                block_starts = [b.start for b in code.blocks()]
            k = bisect.bisect_right(block_starts, marker)
            keeps_block = k < len(block_starts) and block_starts[k] <= end
        if keeps_block:
            edits.append((start, start + len(js_rtrim(text[start:end])), ""))
        else:
            edits.append((start, end, " " if complete else ""))
    return edits


def _trim_keeping_code(text: str, both: bool) -> str:
    """Trim, but a leading code block keeps its indentation (``trimTextPreservingCode``)."""
    trimmed = js_ltrim(text)
    if trimmed and len(trimmed) != len(text) and may_have_blocks(text):
        first = len(text) - len(trimmed)
        for block in CodeMap(text).blocks():
            if block.start <= first < block.end:
                trimmed = text[block.start :]
                break
    return js_rtrim(trimmed) if both else trimmed


def strip_for_delivery(text: str, *, preserve_trailing_whitespace: bool = False) -> str:
    """The release's ``stripInlineDirectiveTagsForDelivery`` for one text part."""
    edits = _delivery_edits(text)
    if not edits:
        return text
    pieces: list[str] = []
    last = 0
    for start, end, replacement in edits:
        pieces.append(text[last:start])
        pieces.append(replacement)
        last = end
    pieces.append(text[last:])
    return _trim_keeping_code("".join(pieces), not preserve_trailing_whitespace)
