"""Edit lists: how an output text was made from an input text, so nothing is lost.

Every pipeline stage that changes text records what it replaced as a :class:`Patch` over its
own input; :func:`compose` turns the stage patches into one patch over the original input. A
patch plus the output text rebuilds the input exactly (README decision 3). Patches built
from what a stage kept or produced (a cleaned line, a spacing change, a diff) are
:mod:`richout.text.derive`'s.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate, islice
from operator import eq, itemgetter, lt
from typing import NamedTuple

__all__ = [
    "Edit",
    "OffsetMap",
    "Patch",
    "apply",
    "compose",
    "end_in_input",
    "identity",
    "invert",
    "offset_mapper",
    "patch_from_pieces",
    "source_offset",
    "unmoved_below",
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

    def extend(self, edits: Sequence[Edit]) -> None:
        """Append ``edits`` as they are: apart from each other and from the pending edit,
        none a no-op (:class:`_Apart`)."""
        self._flush()
        self._out.extend(edits)

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

    Long because the cluster loop keeps its state in locals and writes the common clusters
    (an edit of ``second`` alone, or touching one of ``first``) without the general case's
    piece lists: explained replies compose patches of tens of thousands of edits.
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
    runs = _Apart.of(first, second)
    while i < n1 or j < n2:
        if runs is not None:
            taken = runs.take(out, i, j, shift)
            if taken is not None:
                i, j, shift = taken
                continue
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
        if j == j0 + 1 and len(c1) < 2:
            # One edit of ``second``, alone (the cluster is its range) or touching one of
            # ``first``: what the general case below builds, without its piece lists (27k
            # line removals; as many CR-only lines removed, each with the tag after it).
            e2 = second[j0]
            if not c1:
                out.add(in_start, in_end, mid[cs:ce], e2.inserted)
                continue
            ms, e1 = c1[0]
            out.add(
                in_start,
                in_end,
                mid[cs:ms] + e1.removed + mid[ms + len(e1.inserted) : ce],
                mid[cs : e2.start] + e2.inserted + mid[e2.end : ce],
            )
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


_START = itemgetter(0)
_END = itemgetter(1)
_REMOVED = itemgetter(2)
_INSERTED = itemgetter(3)
#: Patches with fewer edits in all compose cluster by cluster: listing the offsets costs
#: more than it saves (tests lower it to 0 and compare the two ways).
BULK_FROM = 16


class _Apart:
    """Where :func:`compose` may take runs of edits in bulk: both patches' edits are apart
    (no two touch) and none is a no-op.

    An edit that meets no edit of the other patch is then a cluster of its own, copied
    as it is (an edit of ``second`` moved back by the shift before it), and a run of such
    edits is found by bisection: a reply's final trim composed over 42k tag removals went
    through the cluster loop once per removal, a tenth of an explained reply's time.
    """

    __slots__ = ("ends2", "first", "mid_ends", "mid_starts", "second", "shifts")

    def __init__(self, first: Sequence[Edit], second: Sequence[Edit]) -> None:
        self.first = first
        self.second = second
        #: shifts[i]: mid offset less input offset before first[i] (shifts[n1]: after all)
        self.shifts = [0, *accumulate(len(e.inserted) - (e.end - e.start) for e in first)]
        #: where each edit of ``first`` starts and ends in mid (its inserted text)
        self.mid_starts = list(map(int.__add__, map(_START, first), self.shifts))
        self.mid_ends = list(map(int.__add__, map(_END, first), islice(self.shifts, 1, None)))
        self.ends2 = list(map(_END, second))

    @classmethod
    def of(cls, first: Sequence[Edit], second: Sequence[Edit]) -> _Apart | None:
        """The runs of two patches whose edits are apart, else None (or for a few edits)."""
        if len(first) + len(second) < BULK_FROM or not (_apart(first) and _apart(second)):
            return None
        return cls(first, second)

    def take(self, out: _Builder, i: int, j: int, shift: int) -> tuple[int, int, int] | None:
        """Write the run of lone edits at ``first[i]`` or ``second[j]`` to ``out``; the
        next ``(i, j, shift)``, or None when the next cluster holds edits of both."""
        first, second = self.first, self.second
        if j >= len(second):
            out.extend(first[i:])
            return len(first), j, self.shifts[-1]
        if i >= len(first):
            out.extend(_moved(second[j:], shift))
            return i, len(second), shift
        s2 = second[j].start
        if self.mid_ends[i] < s2:
            k = bisect.bisect_left(self.mid_ends, s2, i + 1)
            out.extend(first[i:k])
            return k, j, self.shifts[k]
        m1 = self.mid_starts[i]
        if self.ends2[j] < m1:
            k = bisect.bisect_left(self.ends2, m1, j + 1)
            out.extend(_moved(second[j:k], shift))
            return i, k, shift
        return None


def _apart(patch: Sequence[Edit]) -> bool:
    """Does each edit of ``patch`` end before the next starts, and change something?"""
    return all(map(lt, map(_END, patch), islice(map(_START, patch), 1, None))) and not any(
        map(eq, map(_REMOVED, patch), map(_INSERTED, patch))
    )


def _moved(edits: Sequence[Edit], shift: int) -> Sequence[Edit]:
    """``edits`` of a patched text, moved back by ``shift`` onto the patch's input."""
    if not shift:
        return edits
    return [Edit(a - shift, b - shift, r, x) for a, b, r, x in edits]


def source_offset(patch: Sequence[Edit], pos: int) -> int:
    """Map offset ``pos`` of the patched text back to the input of ``patch``."""
    return offset_mapper(patch)(pos)


def identity(pos: int) -> int:
    """The offset map of a text that is its input: callers test ``map is identity`` to skip
    mapping (tens of thousands of findings on a hostile input)."""
    return pos


def unmoved_below(patch: Sequence[Edit]) -> int:
    """An offset below which :func:`offset_mapper` of ``patch`` maps every offset to itself:
    where the first edit starts (past every offset for an empty patch). A range starting
    below it and ending by it is the same range in the input (an end maps through the last
    character it covers), so a caller can keep a whole list of them unmapped."""
    return patch[0].start if patch else _PAST_EVERY


#: Past every offset of any text (:func:`unmoved_below` of an empty patch).
_PAST_EVERY = 1 << 62


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
