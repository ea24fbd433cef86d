"""Patches derived from texts: a cleaned line's replacements, a spacing change, a diff.

Apart from :mod:`richout.text.patch`, which holds the edit lists themselves and how they
compose, apply, invert and map offsets; these build a :class:`~richout.text.patch.Patch`
from what a stage kept or produced, so that offsets in its output map back to the very
characters they came from.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Literal

from richout.text.chars import BLANK_RUN as _BLANK_RUN
from richout.text.chars import JS_WS, JS_WS_CLASS, JS_WS_SET
from richout.text.patch import Edit, Patch

__all__ = ["cleaned_pieces", "common_prefix", "common_suffix", "diff_patch", "spacing_patch"]


def _kept_whole(
    src: str, start: int, end: int, kept: Sequence[tuple[int, int]], *, base: int, limit: int
) -> list[tuple[int, int, str]] | Literal[False] | None:
    """:func:`cleaned_pieces` for a line made from one stretch (``kept``, already joined)
    with nothing to trim or collapse (the words a reference left beside it, most rewritten
    lines): kept whole, the replacements only drop what lies around it, as the general
    steps would find at several times the cost. False for any other line."""
    if len(kept) != 1:
        return False
    a, b = base + kept[0][0], base + kept[0][1]
    if (
        a < b
        and src[a] not in JS_WS_SET
        and src[b - 1] not in JS_WS_SET
        and _BLANK_RUN.search(src, a, b) is None
    ):
        pieces = [(x, y, "") for x, y in ((start, a), (b, end)) if x < y]
        return None if len(pieces) > limit else pieces
    return False


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
    if (whole := _kept_whole(src, start, end, ranges, base=base, limit=limit)) is not False:
        return whole
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
    """Length of the common prefix of ``a`` and ``b`` (block compares, then characters).

    The blocks grow fourfold while they agree, so that two megabyte texts equal up to near
    their ends cost a dozen compares, not thousands; then they shrink fourfold down to one
    character (a power of four either way)."""
    n = min(len(a), len(b))
    p = 0
    step = 256
    while p + step <= n and a[p : p + step] == b[p : p + step]:
        p += step
        step *= 4
    while step:
        while p + step <= n and a[p : p + step] == b[p : p + step]:
            p += step
        step //= 4
    return p


def common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the common suffix of ``a`` and ``b``, at most ``limit`` (block compares from
    the ends, growing and shrinking as :func:`common_prefix`'s; no reversed copies)."""
    la, lb = len(a), len(b)
    limit = min(limit, la, lb)
    p = 0
    step = 256
    while p + step <= limit and a[la - p - step : la - p] == b[lb - p - step : lb - p]:
        p += step
        step *= 4
    while step:
        while p + step <= limit and a[la - p - step : la - p] == b[lb - p - step : lb - p]:
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
    q = common_suffix(before, after, min(len(before), len(after)) - p)
    return [Edit(p, len(before) - q, before[p : len(before) - q], after[p : len(after) - q])]
