"""The delivery strip (TAGS.md §7.1): what must never reach a channel, removed last.

A malformed reply prefix at the very start of the message, and any complete tag that a
code-structure change left behind (an earlier stage read it as code), are removed from the
text :func:`richout.views.reply.parse_reply` delivers; :func:`delivery_strip` is the stage
on its own.
"""

from __future__ import annotations

import bisect
from typing import NamedTuple

from richout.collector import pauses_collector
from richout.errors import require_str
from richout.markdown.codemap import CodeMap
from richout.markdown.linescan import may_have_blocks
from richout.tags.parse import read_audio_tag
from richout.tags.scan import TAG_HEAD, ReplyTagReader, TagMatch, ws_end
from richout.text.chars import contains, has_double_bracket, is_js_ws, js_ltrim, js_rtrim
from richout.text.patch import Edit, Patch, apply, compose, patch_from_pieces

__all__ = ["Removed", "Strip", "delivery_strip", "strip_for_delivery"]


class Removed(NamedTuple):
    """A construct the delivery strip removed, in offsets of the strip's input.

    (Immutable records as named tuples: a frozen dataclass sets each field through
    ``object.__setattr__``, 0.39 against 0.17 µs for three fields, and the delivery view
    builds a :class:`Strip` for every reply with a trigger.)"""

    tag: TagMatch
    start: int  # with the whitespace moved over on the left
    end: int


class Strip(NamedTuple):
    """The delivery strip's output, the patch that made it, and what it removed."""

    text: str
    patch: Patch
    removed: tuple[Removed, ...]


def _block_starts_in(code: CodeMap, lo: int, hi: int) -> bool:
    """Does a fenced or indented code block start in ``(lo, hi]``? A block starts on a line
    of its own (at its start, or at its fence after a container's marks): with no line
    break in ``[lo, hi)`` none does, and no parse is needed (a 1 MB line of tags and
    backtick runs was parsed whole for each reply: 22-33 s/MB)."""
    src = code.text
    if src.find("\n", lo, hi) < 0 and src.find("\r", lo, hi) < 0:
        return False
    starts = code.full().block_starts
    k = bisect.bisect_right(starts, lo)
    return k < len(starts) and starts[k] <= hi


def _trim_preserving_code(text: str) -> tuple[int, int]:
    """The kept range after the strip's trim: a leading code block keeps its indentation."""
    first = len(text) - len(js_ltrim(text))
    if first >= len(text):
        return 0, 0
    keep = first
    if first > 0 and may_have_blocks(text):
        parse = CodeMap(text).full()
        k = bisect.bisect_right(parse.block_starts, first) - 1
        if k >= 0 and first < parse.block_ends[k]:
            keep = parse.block_starts[k]
    return keep, len(js_rtrim(text))


def strip_for_delivery(
    text: str, code_map: CodeMap | None = None, like: CodeMap | None = None
) -> Strip:
    """TAGS.md §7.1 with its patch; see :func:`delivery_strip`. ``code_map``: a map of
    exactly ``text`` an earlier stage may have parsed already; ``like``: a map of the text
    ``text`` was made from (:class:`~richout.markdown.codemap.CodeMap`)."""
    if not has_double_bracket(text):
        return Strip(text, [], ())
    n = len(text)
    reader = ReplyTagReader(text)
    code = CodeMap(text, like) if code_map is None else code_map
    blocks = may_have_blocks(text)
    # Every complete tag ends with "]]": without one, only a malformed prefix at the
    # message's start can be removed (a streamed message of 20k unclosed reply heads,
    # flushed at finish, visited each head here).
    closes = contains(text, "]]")
    pieces: list[tuple[int, int, str | None]] = []
    removed: list[Removed] = []
    search = 0
    prev = 0
    find_head = TAG_HEAD.search
    while search < n:
        # A "[[" with neither head reads as no tag, so only heads are visited.
        head = find_head(text, search)
        if head is None:
            break
        marker = head.start()
        if not reader.may_start_tag(marker) and marker != reader.leading_start():
            # No complete tag here, and a malformed prefix only at the message's start
            # (every later head is past it too).
            if not closes:
                break
            search = marker + 1
            continue
        tag = read_audio_tag(text, marker)
        if tag is None:
            tag = reader.read(marker, allow_leading_malformed=True)
        if tag is None:
            search = marker + 1
            continue
        end = ws_end(text, tag.end) if tag.complete else tag.end
        # Only the whitespace directly before the marker, never what an earlier construct
        # already owned, moves into the edit.
        start = marker
        while start > prev and is_js_ws(text[start - 1]):
            start -= 1
        search = prev = end
        if code.in_code(marker):
            continue
        if blocks and _block_starts_in(code, marker, end):
            # The padding before a code block is its line break and indentation: keep it.
            cut = start + len(js_rtrim(text[start:end]))
            pieces.append((start, cut, ""))
        else:
            pieces.append((start, end, " " if tag.complete else ""))
        removed.append(Removed(tag, start, end))
    if not pieces:
        return Strip(text, [], ())
    patch = patch_from_pieces(text, pieces)
    stripped = apply(text, patch)
    keep, stop = _trim_preserving_code(stripped)
    trim: Patch = []
    if stop < len(stripped):
        trim.append(Edit(stop, len(stripped), stripped[stop:], ""))
    if keep > 0:
        trim.insert(0, Edit(0, keep, stripped[:keep], ""))
    return Strip(stripped[keep:stop], compose(patch, trim, stripped), tuple(removed))


@pauses_collector
def delivery_strip(text: str) -> str:
    """TAGS.md §7.1: remove a malformed leading reply prefix and stray tags before delivery."""
    require_str(text)
    return strip_for_delivery(text).text
