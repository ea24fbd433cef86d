"""The fate of a payload's parts (MEDIA.md §6.7): the verdicts and the sorting.

:func:`part_fate` decides one part from its text (accepted, hidden and counted, left visible,
dropped); :func:`tokens_apart` reads a payload of many tokens none of which can join another,
deciding each distinct token once and sorting every token by its fate with C-level maps.
:mod:`richout.media.payload` runs the steps around them.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from itertools import accumulate, compress, islice, repeat

from richout.media.cleaning import QUOTES, Cleaner, begins_independent, unwrap_bounds
from richout.media.judge import Judge
from richout.media.regroup import WORD_TOKEN, is_plain_path, token_facts
from richout.media.results import Item, PayloadResult
from richout.policy.local import is_traversal_or_unsupported_home, looks_local
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.text.chars import JS_WS, JS_WS_CLASS, has_js_ws

__all__ = [
    "ACCEPTED",
    "APART_MIN_TOKENS",
    "COUNTED",
    "DROPPED",
    "LEFT",
    "LIST_OPEN",
    "Fate",
    "Item",
    "PayloadResult",
    "fate",
    "part_fate",
    "plain_path",
    "tokens_apart",
]

#: first characters an explicit quoted list can start with (after whitespace)
LIST_OPEN = frozenset("\"'`[")


#: A part's fate as :func:`tokens_apart` keeps it per distinct text: the candidate, the tail
#: cleaning removed after it, whether the JSON tail was cut, and the verdict (``ACCEPTED``..).
Fate = tuple[str, str, bool, int]


#: A payload of at least this many tokens is first offered to :func:`tokens_apart`: below
#: it, splitting the payload twice costs more than the lane saves.
APART_MIN_TOKENS = 16
# Whitespace runs and the tokens between them, split in C (tokens are the odd pieces).
_TOKEN_SPLIT = re.compile(f"([^{JS_WS_CLASS}]+)")


def tokens_apart(
    p: str, cl: Cleaner, judge: Judge, res: PayloadResult
) -> tuple[list[Item], list[tuple[int, int]], Iterable[tuple[int, int]]] | None:
    """§6.6-§6.7 for a payload of many whitespace tokens none of which can join another:
    the accepted items, the visible leftovers and the bounds of every part after the first
    (for the rescue), with ``res`` filled as ``payload._read_parts`` and
    ``payload._judge_parts`` fill it; None when the payload is not such a payload.

    A token joins the part before it only when that part is rooted and the token begins no
    independent source (:func:`~richout.media.regroup.regroup`), and both facts are the
    token's own (:func:`~richout.media.regroup.token_facts`). So when no distinct token is
    rooted, or every one is independent, each token is a part, judged by its text. The
    tokens, their bounds and their first occurrences are listed in C, and only distinct
    tokens are read in Python: a 1 MB payload of two alternating tokens reads two
    (``tests/test_media_payload.py`` compares this lane with the general steps).
    """
    if p.count(" ") + p.count("\t") < APART_MIN_TOKENS - 1:
        # Too few blanks to hold that many tokens (tokens apart only by other whitespace
        # are left to the general steps, which read them alike): most payloads stop here.
        return None
    head = p.lstrip(JS_WS)[:1]
    if not head or head in LIST_OPEN or head in QUOTES:
        return None  # a quoted list or an unwrapped value is read by _read_parts
    memo: dict[str, tuple[int, int, bool, bool]] = {}
    # The first tokens decide most refusals before the payload is split whole: a rooted
    # token followed by words ("/a b b b ...") is declined after two.
    if _may_join(p, cl, (m.span() for m in islice(_TOKEN_SPLIT.finditer(p), _SAMPLE)), memo):
        return None
    pieces = _TOKEN_SPLIT.split(p)
    k = len(pieces) // 2
    if k < APART_MIN_TOKENS:
        return None
    bounds = list(accumulate(map(len, pieces)))
    starts = bounds[0 : 2 * k : 2]
    ends = bounds[1 : 2 * k : 2]
    texts = pieces[1::2]
    # Each distinct text with the index of its first occurrence (later keys overwrite).
    first = dict(zip(reversed(texts), range(k - 1, -1, -1), strict=True))
    if _may_join(p, cl, ((starts[i], ends[i]) for i in first.values()), memo):
        return None  # a token may join another: the general steps regroup them
    res.unwrapped = None
    res.quoted_list = False
    res.value_bounds = (starts[0], ends[-1])
    res.parts = k
    # Each distinct text's fate (§6.7), decided at its first occurrence as
    # payload._judge_parts decides it; then every token is sorted by its text's fate in C.
    fates: dict[str, Fate] = {}
    for text, i in first.items():
        fx, fy, cut, kind = part_fate(p, cl, starts[i], ends[i], judge, bare=False)
        fates[text] = (text[fx:fy], text[fy:], cut, kind)
    accepted, leftovers = _sort_by_fate(texts, starts, ends, fates, res)
    return accepted, leftovers, zip(starts[1:], ends[1:], strict=True)


def _sort_by_fate(
    texts: list[str], starts: list[int], ends: list[int], fates: dict[str, Fate], res: PayloadResult
) -> tuple[list[Item], list[tuple[int, int]]]:
    """Each token (``texts`` and their bounds, each its own part) where its text's fate puts
    it, as ``payload._judge_parts`` puts a part, with maps and ``compress`` over the token
    lists: accepted items and visible leftovers are returned, rejections go to ``res``.
    A selection that holds every token (or none) is not built: each pass over 500k tokens
    costs about as much as a tenth of the whole lane."""
    kinds = {text: f[3] for text, f in fates.items()}
    present = set(kinds.values())
    candidate = {text: f[0] for text, f in fates.items()}.__getitem__
    accepted: list[Item] = []
    rtexts, rstarts, rends = texts, starts, ends
    if ACCEPTED in present:
        is_accepted = list(map({t: k == ACCEPTED for t, k in kinds.items()}.__getitem__, texts))
        kept = list(compress(texts, is_accepted))
        accepted = list(
            map(
                Item,
                map(candidate, kept),
                compress(starts, is_accepted),
                compress(ends, is_accepted),
                map({t: f[2] for t, f in fates.items()}.__getitem__, kept),
                repeat("part"),
                repeat(False),
                map({t: f[1] for t, f in fates.items()}.__getitem__, kept),
            )
        )
        if len(present) == 1:
            return accepted, []
        refused = list(map(operator.not_, is_accepted))
        rtexts = list(compress(texts, refused))
        rstarts = list(compress(starts, refused))
        rends = list(compress(ends, refused))
    present.discard(ACCEPTED)
    # Rejections in token order; a left part is visible, a counted or dropped one is not.
    rcands = list(map(candidate, rtexts))
    leftovers: list[tuple[int, int]] = []
    if present == {LEFT}:
        res.rejected = list(zip(rstarts, rends, rcands, repeat(True), repeat(True)))
        leftovers = list(zip(rstarts, rends, strict=True))
    elif LEFT in present:
        visible = list(map({t: k == LEFT for t, k in kinds.items()}.__getitem__, rtexts))
        res.rejected = list(zip(rstarts, rends, rcands, repeat(True), visible))
        leftovers = list(zip(compress(rstarts, visible), compress(rends, visible), strict=True))
    else:
        res.rejected = list(zip(rstarts, rends, rcands, repeat(True), repeat(False)))
    if present == {COUNTED}:
        res.counted = list(zip(rstarts, rends, rcands, strict=True))
    elif COUNTED in present:
        is_counted = list(map({t: k == COUNTED for t, k in kinds.items()}.__getitem__, rtexts))
        res.counted = list(
            zip(
                compress(rstarts, is_counted),
                compress(rends, is_counted),
                compress(rcands, is_counted),
                strict=True,
            )
        )
    return accepted, leftovers


#: Tokens read before the payload is split whole (:func:`tokens_apart`).
_SAMPLE = 64


def _may_join(
    p: str,
    cl: Cleaner,
    bounds: Iterable[tuple[int, int]],
    memo: dict[str, tuple[int, int, bool, bool]],
) -> bool:
    """Among the tokens at ``bounds``, is one rooted and one (maybe another) dependent? Only
    then can a token join the part before it (§6.6)."""
    rooted = dependent = False
    for a, b in bounds:
        _, _, independent, is_rooted = token_facts(p, cl, a, b, memo)
        rooted = rooted or is_rooted
        dependent = dependent or not independent
        if rooted and dependent:
            return True
    return False


# The fate of one part (§6.7): accepted, hidden and counted, left visible, dropped silently.
ACCEPTED, COUNTED, LEFT, DROPPED = range(4)


def fate(judge: Judge, candidate: str, part: str, bare: bool) -> int:
    """§6.7 for a part as written (``part``) and the candidate read from it."""
    if judge.ok(candidate, True, bare):
        return ACCEPTED
    if judge.profile.hide_rejected and (begins_independent(candidate) or looks_local(candidate)):
        return COUNTED
    if not has_js_ws(part) or not is_traversal_or_unsupported_home(candidate):
        return LEFT
    return DROPPED


def part_fate(
    p: str, cl: Cleaner, a: int, b: int, judge: Judge, *, bare: bool
) -> tuple[int, int, bool, int]:
    """``(start, end, cut, fate)`` of the part ``p[a:b]``: its candidate's bounds (offsets
    into the part), whether the JSON tail was cut, and its :func:`fate`.

    Unwrapping and cleaning read nothing outside the slice, so the answer depends on the
    part's text alone; a word is left visible and a plain absolute path accepted without
    cleaning or judging them (:data:`WORD_TOKEN`, :data:`PLAIN_PATH`).
    """
    part = p[a:b]
    if WORD_TOKEN.fullmatch(part) is not None:
        return 0, b - a, False, LEFT
    if plain_path(part):
        return 0, b - a, False, ACCEPTED
    return _read_part_fate(p, cl, a, b, judge, bare=bare)


def plain_path(s: str) -> bool:
    """A :data:`PLAIN_PATH` within ``MAX_REFERENCE_UNITS``: cleaning keeps it whole, it
    looks local, and §7 accepts it under every profile (with or without spaces or bare
    names allowed)."""
    return is_plain_path(s) and len(s) <= MAX_REFERENCE_UNITS


def _read_part_fate(
    p: str, cl: Cleaner, a: int, b: int, judge: Judge, *, bare: bool
) -> tuple[int, int, bool, int]:
    """:func:`part_fate` by the general steps: unwrap or clean, then judge (§6.7)."""
    cut = False
    qb = unwrap_bounds(p, a, b) if judge.profile.unwrap_quoted_parts and p[a] in QUOTES else None
    if qb is not None:
        ca, cb = qb
    else:
        ca, cb, cut = cl.bounds(a, b)
    return ca - a, cb - a, cut, fate(judge, p[ca:cb], p[a:b], bare)
