"""One ``MEDIA:`` payload → accepted references and visible leftovers (MEDIA.md §6-§7).

The payload is read as the profile's upstream reads it (an explicit quoted list, one pair
of quotes, or whitespace tokens regrouped into parts, §6.6), each part is judged (§7, by a
memoising :class:`Judge`), then come the spaced-path rescue (§6.8) and the whole-payload
fallback (§6.9). Regrouping (:mod:`richout.media.regroup`) reads what a growing part
cleans to from its ends, where the reference re-cleans it for every new token. Parts are
judged once per distinct text, and a word or a plain absolute path (the shapes a payload of
many distinct tokens is made of) from its characters alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import repeat

from richout.media.cleaning import (
    QUOTES,
    Cleaner,
    begins_independent,
    begins_independent_at,
    quoted_list,
    split_parts,
    unwrap_bounds,
)
from richout.media.regroup import (
    WORD_CHARS,
    WORD_TOKEN,
    is_plain_path,
    plain_path_run,
    regroup,
)
from richout.policy import (
    OK,
    Policy,
    Verdict,
    check_reference,
    is_valid_reference,
    strip_file_prefix,
)
from richout.policy.local import (
    is_traversal_or_unsupported_home,
    looks_local,
)
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.profiles import NEXT, Profile
from richout.text.chars import JS_WS, has_js_ws, js_trim

__all__ = ["Item", "Judge", "PayloadResult", "analyse_payload", "is_words_payload"]

#: first characters an explicit quoted list can start with (after whitespace)
_LIST_OPEN = frozenset("\"'`[")


class Judge:
    """MEDIA §7 verdicts for one reply under one profile, each candidate judged once.

    The reference validates the same string several times (per part, whole-payload
    fallback, and richout again to explain a rejection), and a remote verdict parses a URL.
    The switches are normalised to what can change the answer: *spaces* only for strings
    holding whitespace, *bare filenames* never for http(s):// or media:// strings.

    A gateway's :class:`~richout.policy.Policy` is kept apart: :meth:`verdict` and
    :meth:`ok` stay the profile's baseline (the payload is read as without a policy), and
    :meth:`narrowed` judges a reference the baseline accepted.
    """

    __slots__ = ("_memo", "_narrowed", "_passes", "explains", "policy", "profile")

    def __init__(
        self, profile: Profile = NEXT, policy: Policy | None = None, *, explains: bool = True
    ) -> None:
        self.profile = profile
        self.policy = policy
        #: False: only :meth:`ok` is asked (a walk without explanations), and it is answered
        #: by :func:`~richout.policy.is_valid_reference`, which builds no reason text
        self.explains = explains
        self._memo: dict[tuple[str, bool, bool], Verdict] = {}
        self._passes: dict[tuple[str, bool, bool], bool] = {}
        self._narrowed: dict[str, Verdict] = {}

    def narrowed(self, reference: str) -> Verdict:
        """The policy's verdict on an accepted ``reference`` (``OK`` without a policy)."""
        if self.policy is None:
            return OK
        v = self._narrowed.get(reference)
        if v is None:
            v = self.policy.check(reference)
            self._narrowed[reference] = v
        return v

    @staticmethod
    def _key(candidate: str, spaces: bool, bare: bool) -> tuple[str, bool, bool]:
        """The memo key: the switches kept only where they can change the answer, so that
        a fallback asking again with both on finds the first answer."""
        if spaces and not has_js_ws(candidate):
            spaces = False
        if bare:
            head = strip_file_prefix(candidate[:15])[:8].lower()
            if head.startswith(("http://", "https://", "media://")):
                bare = False
        return candidate, spaces, bare

    def verdict(self, candidate: str, spaces: bool = False, bare: bool = False) -> Verdict:
        """``check_reference`` with the given switches, memoised."""
        key = self._key(candidate, spaces, bare) if spaces or bare else (candidate, False, False)
        v = self._memo.get(key)
        if v is None:
            v = check_reference(
                candidate, allow_spaces=key[1], allow_bare_filename=key[2], profile=self.profile
            )
            self._memo[key] = v
        return v

    def decided(self, candidate: str, passes: bool) -> None:
        """Remember ``is_valid_reference(candidate)`` (no switches), asked by the caller."""
        self._passes[candidate, False, False] = passes

    def ok(self, candidate: str, spaces: bool = False, bare: bool = False) -> bool:
        """Is ``candidate`` acceptable (§7)?"""
        if self.explains:
            return self.verdict(candidate, spaces, bare).ok
        # The bare decision, equal to the verdict's (tests/test_policy.py and the security
        # tables prove it): the reason texts cost more than the decision on a word.
        key = self._key(candidate, spaces, bare) if spaces or bare else (candidate, False, False)
        passes = self._passes.get(key)
        if passes is None:
            passes = self._passes[key] = is_valid_reference(
                candidate, allow_spaces=key[1], allow_bare_filename=key[2], profile=self.profile
            )
        return passes


@dataclass
class Item:
    """One accepted reference with where it came from (payload offsets)."""

    value: str
    start: int
    end: int
    #: the serialized-JSON cut shortened it (§6.1 step 3)
    cut: bool = False
    #: ``part``, ``unwrapped``, ``rescue`` (§6.8) or ``fallback`` (§6.9)
    source: str = "part"
    #: regrouped (§6.6) after a first token that already ended with a file extension
    absorbed: bool = False
    #: what cleaning removed after the value (wrapper characters, a JSON tail)
    tail: str = ""


@dataclass
class PayloadResult:
    """What one payload yields (MEDIA §6-§9); offsets are payload offsets."""

    accepted: list[Item] = field(default_factory=list)
    #: leftover parts that stay visible (§6.7), as bounds
    leftovers: list[tuple[int, int]] = field(default_factory=list)
    #: ``trim(V)`` looks local or starts with the file prefix (§9.2)
    looks_local: bool = False
    #: parts judged and not accepted (§6.7): ``(start, end, candidate, spaces, visible)``;
    #: ``visible`` is False for a part discarded silently (traversal with spaces)
    rejected: list[tuple[int, int, str, bool, bool]] = field(default_factory=list)
    #: the §6.9 fallback that was tried and failed: ``(start, end, candidate)``
    fallback_failed: tuple[int, int, str] | None = None
    #: number of parts (§6.6)
    parts: int = 0
    #: bounds of the whole-payload value V after trimming (for payload-level diagnostics)
    value_bounds: tuple[int, int] = (0, 0)
    #: the whole-payload value was unwrapped from quotes (U set)
    unwrapped: str | None = None
    #: rejected parts that look like media sources, hidden and counted (profile ``next``):
    #: ``(start, end, candidate)``
    counted: list[tuple[int, int, str]] = field(default_factory=list)
    #: the payload was an explicit quoted list (PROFILES.md rule 3)
    quoted_list: bool = False

    @property
    def ok(self) -> bool:
        """At least one reference was accepted."""
        return bool(self.accepted)


#: A payload of words and spaces only (:func:`_words_only`); one character class, so the
#: match never backtracks.
_WORDS_AND_SPACES = re.compile(f"[{WORD_CHARS} ]+")


def _single_token(p: str, judge: Judge, res: PayloadResult) -> PayloadResult:
    """The steps for a payload without whitespace that starts with no quote or ``[``.

    Such a payload is no list, is not unwrapped, is one part, and its whole-payload value is
    the payload itself: the general path reduces to one clean, one verdict, the count of a
    hidden rejection, and the bare-filename fallback. Most directives take this path. A
    plain absolute path (:func:`_plain_path`) is accepted whole and looks local, without the
    clean and the verdict (:func:`_read_single_token`).
    """
    if _plain_path(p):
        n = len(p)
        res.parts = 1
        res.value_bounds = (0, n)
        res.looks_local = True
        res.accepted = [Item(p, 0, n, False, "part", False, "")]
        return res
    return _read_single_token(p, judge, res)


def _read_single_token(p: str, judge: Judge, res: PayloadResult) -> PayloadResult:
    """:func:`_single_token` by the general steps."""
    n = len(p)
    res.parts = 1
    res.value_bounds = (0, n)
    ca, cb, cut = Cleaner(p).bounds(0, n)
    candidate = p[ca:cb]
    res.looks_local = looks_local(p) or strip_file_prefix(p) != p
    if judge.ok(candidate):
        res.accepted = [Item(candidate, 0, n, cut, "part", False, p[cb:n])]
        return res
    if judge.profile.hide_rejected and (begins_independent(candidate) or looks_local(candidate)):
        res.counted = [(0, n, candidate)]
        res.rejected = [(0, n, candidate, True, False)]
    else:
        res.leftovers = [(0, n)]
        res.rejected = [(0, n, candidate, True, True)]
    if judge.ok(candidate, True, True):
        res.accepted = [Item(candidate, ca, n, cut, "fallback", tail=p[cb:n])]
        res.leftovers = []
        res.rejected = [r for r in res.rejected if not r[4]]
        return res
    res.fallback_failed = (ca, cb, candidate)
    return res


def analyse_payload(p: str, judge: Judge | None = None) -> PayloadResult:
    """MEDIA §6 for one payload ``p`` (not trimmed), under the judge's profile.

    The steps follow the profile's upstream: an explicit quoted list (profile ``next``),
    else the whole payload unwrapped from one pair of quotes, else whitespace tokens
    regrouped into parts (:func:`_read_parts`, :mod:`richout.media.regroup`); then per-part verdicts
    (:func:`_judge_parts`), the spaced-path rescue and the whole-payload fallback. Rejected
    parts that look like media sources are counted and hidden where the profile says so
    (``PayloadResult.counted``). A payload of one token takes :func:`_single_token`, one of
    words and spaces :func:`_words_only`, one of plain absolute paths :func:`_paths_only`.
    """
    if judge is None:
        judge = Judge()
    res = PayloadResult()
    n = len(p)
    if n and p[0] not in _LIST_OPEN and not has_js_ws(p):
        return _single_token(p, judge, res)
    if is_words_payload(p):
        return _words_only(p, res)
    if plain_path_run(p, 0, n):
        tokens = split_parts(p)
        if max(b - a for a, b in tokens) <= MAX_REFERENCE_UNITS:
            return _paths_only(p, tokens, res)
    return _read_payload(p, judge, res)


def _paths_only(p: str, tokens: list[tuple[int, int]], res: PayloadResult) -> PayloadResult:
    """The steps for a payload of plain absolute paths (``tokens``) separated by blanks
    (:func:`~richout.media.regroup.plain_path_run`, each within ``MAX_REFERENCE_UNITS``).

    Every path starts at a root and so begins an independent source: none joins the part
    before it (§6.6), each is a part, cleaning keeps it whole, and §7 accepts it. Nothing is
    left, rejected or counted, so neither the rescue nor the fallback runs, and the payload,
    which starts with ``/``, looks local.
    """
    res.parts = len(tokens)
    res.value_bounds = (0, tokens[-1][1])
    res.looks_local = True
    res.accepted = [Item(p[a:b], a, b, False, "part", False, "") for a, b in tokens]
    return res


def is_words_payload(p: str) -> bool:
    """Is ``p`` :data:`WORD_TOKEN` words and spaces, not spaces alone? Holding a space, it
    takes :func:`_words_only`: every word is left visible, nothing is accepted or counted,
    and the payload does not look local."""
    return _WORDS_AND_SPACES.fullmatch(p) is not None and not p.isspace()


def _words_only(p: str, res: PayloadResult) -> PayloadResult:
    """The steps for a payload of :data:`WORD_TOKEN` words separated by spaces.

    No word starts at a root, so none joins another (§6.6) and each is a part; each part is
    left visible (§6.7); the whole payload has no quote to unwrap, no file prefix, no local
    shape, no scheme and no extension, so the §6.9 fallback is refused and it does not look
    local. The parts are listed in C-level loops: a 1 MB payload holds 500k of them.
    """
    tokens = split_parts(p)
    starts = [a for a, _ in tokens]
    ends = [b for _, b in tokens]
    res.parts = len(tokens)
    res.value_bounds = (tokens[0][0], tokens[-1][1])
    res.leftovers = tokens
    res.rejected = list(
        zip(starts, ends, map(p.__getitem__, map(slice, starts, ends)), repeat(True), repeat(True))
    )
    res.fallback_failed = (0, len(p), p)
    return res


def _read_payload(p: str, judge: Judge, res: PayloadResult) -> PayloadResult:
    """:func:`analyse_payload` by the general steps."""
    cl = Cleaner(p)
    parts, stripped, vs, ve = _read_parts(p, cl, judge, res)
    accepted, leftovers = _judge_parts(p, cl, parts, judge, res)
    members = res.quoted_list
    unwrapped = res.unwrapped
    value = p[vs:ve]

    local_value = js_trim(stripped if stripped is not None else p)
    res.looks_local = looks_local(local_value) or strip_file_prefix(local_value) != local_value
    if (
        not members
        and not unwrapped
        and len(accepted) == 1
        and leftovers
        and has_js_ws(value)
        and res.looks_local
        and not any(begins_independent_at(cl, a, b) for a, b, _ in parts[1:])
    ):
        fa, fb, fcut = cl.bounds(vs, ve)
        rescue = p[fa:fb]
        if judge.ok(rescue, True):
            vb = max(fb, res.value_bounds[1])
            accepted = [Item(rescue, fa, vb, fcut, "rescue", tail=p[fb:vb])]
            leftovers = []
            res.rejected = [r for r in res.rejected if (r[0], r[1], r[2]) in res.counted]

    if not accepted and not members:
        if unwrapped is not None:
            fa, fb, fcut = vs, ve, False
            fallback = unwrapped
        else:
            fa, fb, fcut = cl.bounds(vs, ve)
            fallback = p[fa:fb]
        if judge.ok(fallback, True, True):
            vb = max(fb, res.value_bounds[1])
            accepted = [Item(fallback, fa, vb, fcut, "fallback", tail=p[fb:vb])]
            leftovers = []
            res.rejected = [r for r in res.rejected if (r[0], r[1], r[2]) in res.counted]
        else:
            res.fallback_failed = (fa, fb, fallback)
    elif unwrapped:
        for item in accepted:
            item.source = "unwrapped"

    res.accepted = accepted
    res.leftovers = leftovers
    return res


def _read_parts(
    p: str, cl: Cleaner, judge: Judge, res: PayloadResult
) -> tuple[list[list[int]], str | None, int, int]:
    """§6.2-§6.6: the parts of a payload that is not one plain token, as the profile reads it.

    Records on ``res`` whether the payload was a quoted list or unwrapped, the bounds of its
    whole-payload value V and the number of parts. Returns the parts (``[start, end,
    absorbed]``), the payload unwrapped from one pair of quotes even when it was read as a
    list (its ``looks_local`` test uses it), and the bounds ``vs, ve`` of V before trimming.
    """
    profile = judge.profile
    n = len(p)
    head = p.lstrip(JS_WS)[:1]
    members = quoted_list(p) if profile.quoted_lists and head in _LIST_OPEN else None
    ub = unwrap_bounds(p, 0, n) if head and head in QUOTES else None
    stripped = p[ub[0] : ub[1]] if ub is not None else None
    unwrapped = None if members is not None else stripped
    res.unwrapped = unwrapped
    if unwrapped is not None and ub is not None:
        vs, ve = ub
    else:
        vs, ve = 0, n
    value = p[vs:ve]
    lt = len(value) - len(value.lstrip(JS_WS))
    res.value_bounds = (vs + lt, vs + len(value.rstrip(JS_WS))) if lt < len(value) else (vs, vs)
    res.quoted_list = members is not None

    if members is not None:
        parts: list[list[int]] = [[a, b, -1] for a, b in members]
    elif unwrapped:
        parts = [[vs, ve, -1]]
    else:
        parts = regroup(p, cl, split_parts(p), judge.ok)
    res.parts = len(parts)
    return parts, stripped, vs, ve


def _judge_parts(
    p: str, cl: Cleaner, parts: list[list[int]], judge: Judge, res: PayloadResult
) -> tuple[list[Item], list[tuple[int, int]]]:
    """§6.7 and §7 for each part: accepted, hidden and counted, left visible, or dropped.

    Returns the accepted items and the visible leftovers; rejections go to ``res``. Unless
    the payload was unwrapped as a whole, a part's fate is a function of its text (under one
    profile and one reading), so it is decided once per distinct text (:func:`_part_fate`).
    """
    unwrapped = res.unwrapped
    bare = res.quoted_list
    accepted: list[Item] = []
    leftovers: list[tuple[int, int]] = []
    memo: dict[str, tuple[int, int, bool, int]] = {}
    counted = res.counted
    rejected = res.rejected
    for a, b, absorbed in parts:
        key = p[a:b]
        if unwrapped is None:
            fate = memo.get(key)
            if fate is None:
                fate = memo[key] = _part_fate(p, cl, a, b, judge, bare=bare)
            fx, fy, cut, kind = fate
            candidate = key[fx:fy]
            tail = key[fy:]
        else:
            # An empty unwrapped value still replaces every candidate in ``next``; the
            # release reads each whitespace part as written then.
            unwrap_all = unwrapped or judge.profile.unwrap_quoted_parts
            candidate = unwrapped if unwrap_all else key
            cut, tail = False, ""
            kind = _fate(judge, candidate, key, bare)
        if kind == _ACCEPTED:
            accepted.append(Item(candidate, a, b, cut, "part", absorbed == 1, tail))
        elif kind == _COUNTED:
            counted.append((a, b, candidate))
            rejected.append((a, b, candidate, True, False))
        elif kind == _LEFT:
            leftovers.append((a, b))
            rejected.append((a, b, candidate, True, True))
        else:
            rejected.append((a, b, candidate, True, False))
    return accepted, leftovers


# The fate of one part (§6.7): accepted, hidden and counted, left visible, dropped silently.
_ACCEPTED, _COUNTED, _LEFT, _DROPPED = range(4)


def _fate(judge: Judge, candidate: str, part: str, bare: bool) -> int:
    """§6.7 for a part as written (``part``) and the candidate read from it."""
    if judge.ok(candidate, True, bare):
        return _ACCEPTED
    if judge.profile.hide_rejected and (begins_independent(candidate) or looks_local(candidate)):
        return _COUNTED
    if not has_js_ws(part) or not is_traversal_or_unsupported_home(candidate):
        return _LEFT
    return _DROPPED


def _part_fate(
    p: str, cl: Cleaner, a: int, b: int, judge: Judge, *, bare: bool
) -> tuple[int, int, bool, int]:
    """``(start, end, cut, fate)`` of the part ``p[a:b]``: its candidate's bounds (offsets
    into the part), whether the JSON tail was cut, and its :func:`_fate`.

    Unwrapping and cleaning read nothing outside the slice, so the answer depends on the
    part's text alone; a word is left visible and a plain absolute path accepted without
    cleaning or judging them (:data:`WORD_TOKEN`, :data:`PLAIN_PATH`).
    """
    part = p[a:b]
    if WORD_TOKEN.fullmatch(part) is not None:
        return 0, b - a, False, _LEFT
    if _plain_path(part):
        return 0, b - a, False, _ACCEPTED
    return _read_part_fate(p, cl, a, b, judge, bare=bare)


def _plain_path(s: str) -> bool:
    """A :data:`PLAIN_PATH` within ``MAX_REFERENCE_UNITS``: cleaning keeps it whole, it
    looks local, and §7 accepts it under every profile (with or without spaces or bare
    names allowed)."""
    return is_plain_path(s) and len(s) <= MAX_REFERENCE_UNITS


def _read_part_fate(
    p: str, cl: Cleaner, a: int, b: int, judge: Judge, *, bare: bool
) -> tuple[int, int, bool, int]:
    """:func:`_part_fate` by the general steps: unwrap or clean, then judge (§6.7)."""
    cut = False
    qb = unwrap_bounds(p, a, b) if judge.profile.unwrap_quoted_parts and p[a] in QUOTES else None
    if qb is not None:
        ca, cb = qb
    else:
        ca, cb, cut = cl.bounds(a, b)
    return ca - a, cb - a, cut, _fate(judge, p[ca:cb], p[a:b], bare)
