"""Edit lists: how an output text was made from an input text, so nothing is lost.

Every pipeline stage that changes text records what it replaced as a :class:`Patch` over its
own input; :func:`compose` turns the stage patches into one patch over the original input. A
patch plus the output text rebuilds the input exactly (README decision 3).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import NamedTuple

from richout.text.chars import BLANK_RUN as _BLANK_RUN
from richout.text.chars import JS_WS, JS_WS_CLASS

__all__ = [
    "Edit",
    "OffsetMap",
    "Patch",
    "apply",
    "cleaned_pieces",
    "common_prefix",
    "compose",
    "diff_patch",
    "end_in_input",
    "identity",
    "invert",
    "offset_mapper",
    "patch_from_pieces",
    "source_offset",
    "spacing_patch",
]


class Edit(NamedTuple):
    """Input ``[start, end)`` was replaced by ``inserted``; ``removed`` is the input slice."""

    start: int
    end: int
    removed: str
    inserted: str


Patch = list[Edit]

#: Maps an offset of a patched text back to the patch's input (:func:`offset_mapper`).
OffsetMap = Callable[[int], int]


class _Builder:
    """Collects edits in order, merging touching ones; each merge is O(1) (joined once)."""

    __slots__ = ("_end", "_inserted", "_merged", "_out", "_removed", "_start")

    def __init__(self) -> None:
        self._out: Patch = []
        self._start = -1
        self._end = -1
        self._removed = ""
        self._inserted = ""
        # The pieces of a pending edit that absorbed the ones touching it; None while it
        # is one edit (most are: composing 27k line removals merges none of them).
        self._merged: tuple[list[str], list[str]] | None = None

    def add(self, start: int, end: int, removed: str, inserted: str) -> None:
        if self._start >= 0 and self._end == start:
            self._end = end
            merged = self._merged
            if merged is None:
                merged = self._merged = ([self._removed], [self._inserted])
            merged[0].append(removed)
            merged[1].append(inserted)
            return
        self._flush()
        self._start, self._end = start, end
        self._removed, self._inserted = removed, inserted

    def _flush(self) -> None:
        if self._start < 0:
            return
        merged = self._merged
        if merged is None:
            removed, inserted = self._removed, self._inserted
        else:
            removed, inserted = "".join(merged[0]), "".join(merged[1])
            self._merged = None
        # An unchanged region is not an edit; a merged no-op splits back into nothing.
        if removed != inserted:
            self._out.append(Edit(self._start, self._end, removed, inserted))
        self._start = -1

    def done(self) -> Patch:
        self._flush()
        return self._out


def patch_from_pieces(src: str, pieces: Iterable[tuple[int, int, str | None]]) -> Patch:
    """Build a patch from ordered pieces ``(start, end, replacement)`` covering parts of ``src``.

    ``replacement`` None means "kept as is"; gaps between pieces are kept as is too.
    """
    out = _Builder()
    for start, end, repl in pieces:
        if repl is None:
            continue
        out.add(start, end, src[start:end], repl)
    return out.done()


def apply(src: str, patch: Sequence[Edit]) -> str:
    """Apply ``patch`` (sorted, non-overlapping) to ``src``."""
    parts: list[str] = []
    cur = 0
    for e in patch:
        parts.append(src[cur : e.start])
        parts.append(e.inserted)
        cur = e.end
    parts.append(src[cur:])
    return "".join(parts)


def invert(out: str, patch: Sequence[Edit]) -> str:
    """Rebuild the input of ``patch`` from its output text ``out``."""
    parts: list[str] = []
    in_cur = 0
    out_cur = 0
    for e in patch:
        keep = e.start - in_cur
        parts.append(out[out_cur : out_cur + keep])
        parts.append(e.removed)
        out_cur += keep + len(e.inserted)
        in_cur = e.end
    parts.append(out[out_cur:])
    return "".join(parts)


def compose(first: Sequence[Edit], second: Sequence[Edit], mid: str) -> Patch:
    """One patch over the input of ``first`` equal to applying ``first`` then ``second``.

    ``mid`` is the text ``first`` produced (the input of ``second``); it supplies the
    characters that ``second`` removed from text ``first`` had kept.
    """
    if not second:
        return list(first)
    if not first:
        return list(second)
    # Intervals in mid coordinates: an edit of ``first`` occupies its inserted text, an edit
    # of ``second`` its own range. Overlapping or touching intervals form a cluster; a
    # cluster becomes one edit over the input of ``first``.
    out = _Builder()
    shift = 0  # mid position = input position + shift, for input before first[i]
    i = j = 0
    n1, n2 = len(first), len(second)
    while i < n1 or j < n2:
        if i < n1:
            cs = first[i].start + shift
            if j < n2 and second[j].start < cs:
                cs = second[j].start
        else:
            cs = second[j].start
        in_start = cs - shift
        ce = cs
        c1: list[tuple[int, Edit]] = []  # (mid start, edit) of first in this cluster
        j0 = j
        while True:
            if i < n1 and first[i].start + shift <= ce:
                e1 = first[i]
                ms = e1.start + shift
                c1.append((ms, e1))
                ce = max(ce, ms + len(e1.inserted))
                shift += len(e1.inserted) - (e1.end - e1.start)
                i += 1
                continue
            if j < n2 and second[j].start <= ce:
                ce = max(ce, second[j].end)
                j += 1
                continue
            break
        in_end = ce - shift
        if j == j0:
            # Only edits of ``first``: copy them unchanged.
            for _ms, e1 in c1:
                out.add(e1.start, e1.end, e1.removed, e1.inserted)
            continue
        if not c1 and j == j0 + 1:
            # One edit of ``second`` alone (the cluster is its range): what the general
            # case below builds, without its piece lists (a patch of 27k line removals).
            out.add(in_start, in_end, mid[cs:ce], second[j0].inserted)
            continue
        removed: list[str] = []
        cur = cs
        for ms, e1 in c1:
            removed.append(mid[cur:ms])
            removed.append(e1.removed)
            cur = ms + len(e1.inserted)
        removed.append(mid[cur:ce])
        inserted: list[str] = []
        cur = cs
        for k in range(j0, j):
            e2 = second[k]
            inserted.append(mid[cur : e2.start])
            inserted.append(e2.inserted)
            cur = e2.end
        inserted.append(mid[cur:ce])
        out.add(in_start, in_end, "".join(removed), "".join(inserted))
    return out.done()


def source_offset(patch: Sequence[Edit], pos: int) -> int:
    """Map offset ``pos`` of the patched text back to the input of ``patch``."""
    return offset_mapper(patch)(pos)


def identity(pos: int) -> int:
    """The offset map of a text that is its input: callers test ``map is identity`` to skip
    mapping (tens of thousands of findings on a hostile input)."""
    return pos


def offset_mapper(patch: Sequence[Edit]) -> OffsetMap:
    """A function mapping offsets of the patched text back to the input of ``patch``.

    A position inside an inserted text maps to the start of the edit that inserted it; a
    position at or after an edit's output end maps past the edit. Each call is O(log n).
    An empty patch maps by :func:`identity`.
    """
    if not patch:
        return identity
    out_starts: list[int] = []
    out_ends: list[int] = []
    shift = 0
    for e in patch:
        out_starts.append(e.start + shift)
        out_ends.append(e.start + shift + len(e.inserted))
        shift += len(e.inserted) - (e.end - e.start)
    edits = list(patch)
    head = out_starts[0]

    def to_input(pos: int) -> int:
        if pos < head:
            return pos  # before every edit (a trim's patch is all at the text's end)
        k = bisect.bisect_right(out_starts, pos) - 1
        # Several pure deletions can share an output start; the last one decides.
        if k < 0:
            return pos
        e = edits[k]
        if pos < out_ends[k]:
            return e.start
        return e.end + (pos - out_ends[k])

    return to_input


def end_in_input(to_input: OffsetMap, start: int, end: int) -> int:
    """Input offset of the exclusive ``end`` of a range ``[start, end)`` of a patched text.

    Mapped through the range's last character, not the gap after it: the gap may be where
    the patch removed something (a trimmed line break, a tag or line removed right after the
    range), which would otherwise be pulled into the range. An empty range maps as its
    start. Maps from :func:`offset_mapper` never decrease, so the result is at least
    ``to_input(start)``.
    """
    return to_input(end - 1) + 1 if end > start else to_input(start)


def cleaned_pieces(
    src: str,
    start: int,
    end: int,
    kept: Sequence[tuple[int, int]],
    *,
    base: int,
    sep: str,
    limit: int,
) -> list[tuple[int, int, str]] | None:
    """Replacements over ``src[start:end]`` that turn it into the line the walk cleaned
    from it: ``collapse_blank_runs(sep.join(src[base + a : base + b] for a, b in kept))``,
    where ``kept`` are the ranges the cleaned line was made from (offsets from ``base``;
    sorted, apart, inside the line).

    Every character of the cleaned line that comes from a kept range stays outside the
    replacements, so an offset in it maps back to its own character (a tag after a refused
    reference); a collapsed run of blanks keeps its first space from ``src``, if it has one,
    and a separator keeps the space the dropped stretch it stands for opens or ends with.
    None past ``limit`` replacements, or (to bound the work) past ``limit`` gaps that are
    not exactly ``sep`` or ``2 * limit`` collapsed runs: the caller then keeps one edit.
    Between ranges of visible characters (the walk's) each such gap is a replacement;
    ranges of blanks alone can share one and get None early.
    """
    ranges = _joined_ranges(src, kept, base, sep, limit)
    if ranges is None:
        return None
    kept = ranges
    joined = sep.join([src[base + a : base + b] for a, b in kept])
    lo = len(joined) - len(joined.lstrip(JS_WS))
    hi = len(joined.rstrip(JS_WS))
    # Where each kept range starts in ``joined``; separators lie between them.
    offsets: list[int] = []
    at = 0
    for a, b in kept:
        offsets.append(at)
        at += b - a + len(sep)
    # The cleaned line, in order: (a, b) copies src[a:b]; a string is inserted.
    out: list[tuple[int, int] | str] = []
    k = 0  # the kept range holding (or followed by the separator holding) the next offset

    def copy(x: int, y: int) -> None:
        """Append joined[x:y] (x only grows from call to call) as source stretches."""
        nonlocal k
        while x < y:
            while k + 1 < len(kept) and offsets[k + 1] <= x:
                k += 1
            a, b = kept[k]
            part_end = offsets[k] + b - a
            if x < part_end:
                z = min(y, part_end)
                shift = base + a - offsets[k]
                out.append((x + shift, z + shift))
            else:  # in the separator after range k
                z = min(y, offsets[k + 1])
                out.append(sep[x - part_end : z - part_end])
            x = z

    cur = lo
    for runs, m in enumerate(_BLANK_RUN.finditer(joined, lo, hi)):
        if runs >= 2 * limit:
            return None  # each run removes a character, so most are edits of their own
        s, e = m.span()
        copy(cur, s)
        mark = len(out)
        copy(s, e)
        space: tuple[int, int] | str = " "
        for item in out[mark:]:
            if not isinstance(item, str):
                p = src.find(" ", item[0], item[1])
                if p >= 0:
                    space = (p, p + 1)
                    break
        del out[mark:]
        out.append(space)
        cur = e
    copy(cur, hi)
    return _stretch_edits(src, start, end, out, limit)


def _joined_ranges(
    src: str, kept: Sequence[tuple[int, int]], base: int, sep: str, limit: int
) -> Sequence[tuple[int, int]] | None:
    """``kept`` with every two ranges apart by exactly ``sep`` in ``src`` made one (nothing
    changes between them); None past ``limit`` ranges apart otherwise."""
    if len(kept) < 2:
        return kept
    merged = [kept[0]]
    width = len(sep)
    for a, b in kept[1:]:
        end = merged[-1][1]
        if end + width == a and src.startswith(sep, base + end):
            merged[-1] = (merged[-1][0], b)
            continue
        if len(merged) > limit:
            return None  # each gap that is not the separator is a replacement
        merged.append((a, b))
    return merged


def _stretch_edits(
    src: str, start: int, end: int, out: list[tuple[int, int] | str], limit: int
) -> list[tuple[int, int, str]] | None:
    """The replacements over ``src[start:end]`` that leave the line ``out`` spells (source
    stretches ``(a, b)``, in order, and inserted strings); None past ``limit``."""
    pieces: list[tuple[int, int, str]] = []
    pos = start  # the source offset after the last copied stretch
    inserted: list[str] = []
    for item in [*out, (end, end)]:
        if isinstance(item, str):
            inserted.append(item)
            continue
        a, b = item
        text = "".join(inserted)
        gap = src[pos:a]
        if gap != text:
            if len(pieces) == limit:
                return None
            # A separator standing where the dropped stretch has the same space keeps it.
            if text and gap.startswith(text):
                pieces.append((pos + len(text), a, ""))
            elif text and gap.endswith(text):
                pieces.append((pos, a - len(text), ""))
            else:
                pieces.append((pos, a, text))
        inserted = []
        pos = b
    return pieces


#: A run of characters JavaScript's ``trim`` keeps.
_INK = re.compile(f"[^{JS_WS_CLASS}]+")


def spacing_patch(
    before: str, after: str, removed: Sequence[tuple[int, int]], limit: int
) -> Patch | None:
    """The edits that turn ``before`` into ``after`` when ``after`` is ``before`` without the
    ``removed`` ranges (sorted, apart) and with its whitespace rewritten; None when it is
    not (its other characters differ, in content or order), or when that takes more than
    ``limit`` edits.

    For the release's tag step, which removes tags and rewrites whitespace over the whole
    text: one edit per gap between characters whose whitespace (or removed range) changed,
    so an offset of a kept character maps back to that character, where one edit from the
    first change to the last maps every offset inside it to its start. Linear in the number
    of runs of non-whitespace characters.
    """
    if not removed and before == after:
        return []  # the tag step changed nothing (most replies it reads hold no tag)
    runs_b = _ink_runs(before, removed)
    runs_a = (m.span() for m in _INK.finditer(after))
    cur_b, cur_a = next(runs_b, None), next(runs_a, None)
    if cur_b is None or cur_a is None:
        # All whitespace on one side: the other must be too; then one edit, if any.
        if cur_b is not None or cur_a is not None:
            return None
        return [Edit(0, len(before), before, after)] if before != after else []
    out: list[Edit] = []
    # Runs are read as they are needed: a text with more changed gaps than ``limit`` stops
    # at the first one over, without listing the rest.
    pa, pb = cur_b[0], cur_a[0]
    gap_b, gap_a = (0, pa), (0, pb)
    while True:
        if before[gap_b[0] : gap_b[1]] != after[gap_a[0] : gap_a[1]]:
            if len(out) == limit:
                return None
            out.append(
                Edit(gap_b[0], gap_b[1], before[gap_b[0] : gap_b[1]], after[gap_a[0] : gap_a[1]])
            )
        if cur_b is None or cur_a is None:
            break
        # Consume equal characters until a run ends.
        n = min(cur_b[1] - pa, cur_a[1] - pb)
        if before[pa : pa + n] != after[pb : pb + n]:
            return None
        pa += n
        pb += n
        nb, na = pa, pb  # where the next characters are: here, unless a run ended
        if pa == cur_b[1]:
            cur_b = next(runs_b, None)
            nb = cur_b[0] if cur_b is not None else len(before)
        if pb == cur_a[1]:
            cur_a = next(runs_a, None)
            na = cur_a[0] if cur_a is not None else len(after)
        if (cur_b is None) != (cur_a is None):
            return None  # one text has characters left that the other lacks
        gap_b, gap_a = (pa, nb), (pb, na)
        pa, pb = nb, na
    return out


def _ink_runs(text: str, removed: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The runs of non-whitespace characters of ``text``, cut by the ``removed`` ranges."""
    k = 0
    for m in _INK.finditer(text):
        a, b = m.span()
        while a < b:
            while k < len(removed) and removed[k][1] <= a:
                k += 1
            if k < len(removed) and removed[k][0] < b:
                if removed[k][0] > a:
                    yield (a, removed[k][0])
                a = removed[k][1]
            else:
                yield (a, b)
                a = b


def common_prefix(a: str, b: str) -> int:
    """Length of the common prefix of ``a`` and ``b`` (block compares, then characters)."""
    n = min(len(a), len(b))
    p = 0
    step = 256
    while step:
        while p + step <= n and a[p : p + step] == b[p : p + step]:
            p += step
        step //= 4
    return p


def diff_patch(before: str, after: str) -> Patch:
    """One edit turning ``before`` into ``after``: the span between their common ends.

    For stages whose rewriting is a whole-text normalisation (profile ``release-2026.9.6``)
    rather than a list of removals; it rebuilds the input exactly, though coarsely.
    """
    if before == after:
        return []
    p = common_prefix(before, after)
    q = common_prefix(before[p:][::-1], after[p:][::-1])
    return [Edit(p, len(before) - q, before[p : len(before) - q], after[p : len(after) - q])]
