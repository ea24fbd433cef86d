"""One ``MEDIA:`` payload → accepted references and visible leftovers (MEDIA.md §6).

Every step of the reference here is a regular expression that backtracks: the cleaning
regex's ``.*`` before the serialized-JSON cut, the quoted-token alternatives, the quote-pair
scan, and the regrouping loop that re-cleans a growing part for every new token. This module
computes the same answers with forward and backward scans whose total cost is linear in the
payload (the regrouping step adds a ``log n`` factor for one binary search per token).

Cleaning (§6.1) only ever removes a prefix and a suffix, so it is computed as *bounds* into
the payload: a part ``payload[a:b]`` cleans to ``payload[s:e]``. That lets the regrouping
step ask "what does the part built so far clean to?" without rebuilding or rescanning it.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from richout.policy import OK, Policy, Verdict, check_reference, strip_file_prefix
from richout.policy.local import (
    has_file_extension,
    has_scheme_prefix,
    is_traversal_or_unsupported_home,
    looks_local,
    starts_at_root,
)
from richout.profiles import NEXT, Profile
from richout.text.chars import JS_WS, JS_WS_CLASS, has_js_ws, js_trim

__all__ = [
    "Cleaner",
    "Item",
    "Judge",
    "PayloadResult",
    "analyse_payload",
    "begins_independent",
    "clean",
    "quoted_list",
    "split_parts",
    "unwrap_bounds",
]

_LEAD_CHARS = "`\"'[{("
_TRAIL_CHARS = "`\"'\\})],"
_LEAD = frozenset(_LEAD_CHARS)
_TRAIL = frozenset(_TRAIL_CHARS)
_QUOTES = "\"'`"
_JSON_FOLLOW = frozenset("]},:")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WS = frozenset(JS_WS)
_NON_WS_RUN = re.compile(f"[^{JS_WS_CLASS}]+")
_WS_RUN = re.compile(f"[{JS_WS_CLASS}]+")
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

    __slots__ = ("_memo", "_narrowed", "policy", "profile")

    def __init__(self, profile: Profile = NEXT, policy: Policy | None = None) -> None:
        self.profile = profile
        self.policy = policy
        self._memo: dict[tuple[str, bool, bool], Verdict] = {}
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

    def verdict(self, candidate: str, spaces: bool = False, bare: bool = False) -> Verdict:
        """``check_reference`` with the given switches, memoised."""
        if spaces and not has_js_ws(candidate):
            spaces = False
        if bare:
            head = strip_file_prefix(candidate[:15])[:8].lower()
            if head.startswith(("http://", "https://", "media://")):
                bare = False
        key = (candidate, spaces, bare)
        v = self._memo.get(key)
        if v is None:
            v = check_reference(
                candidate, allow_spaces=spaces, allow_bare_filename=bare, profile=self.profile
            )
            self._memo[key] = v
        return v

    def ok(self, candidate: str, spaces: bool = False, bare: bool = False) -> bool:
        """Is ``candidate`` acceptable (§7)?"""
        return self.verdict(candidate, spaces, bare).ok


def _file_prefix_len(s: str, a: int, b: int) -> int:
    """Length of the ``file:`` / ``file://`` prefix of ``s[a:b]`` (0 when absent)."""
    head = s[a : min(b, a + 7)]
    return len(head) - len(strip_file_prefix(head))


class Cleaner:
    """``clean`` (§6.1) of any slice of one string, answered as bounds into that string."""

    __slots__ = ("_cuts", "_dots", "s")

    def __init__(self, s: str) -> None:
        self.s = s
        self._cuts: list[int] | None = None
        self._dots: list[int] = []

    def _json_cut_index(self) -> tuple[list[int], list[int]]:
        """Every ``"`` that can end a serialized-JSON tail, with the ``.`` of its extension.

        A quote qualifies when the next character is ``]``, ``}``, ``:`` or ``,`` and it is
        preceded by an optional ``\\``, then 1-10 word characters, then ``.``. (The
        reference also allows the end of the string after the quote, but cleaning has just
        removed every trailing quote, so that case cannot occur.)
        """
        if self._cuts is None:
            s = self.s
            cuts: list[int] = []
            dots: list[int] = []
            find = s.find
            q = find('"')
            n = len(s)
            while q >= 0:
                if q + 1 < n and s[q + 1] in _JSON_FOLLOW:
                    j = q - 1
                    if j >= 0 and s[j] == "\\":
                        j -= 1
                    k = j
                    while k >= 0 and j - k <= 10 and s[k] in _WORD:
                        k -= 1
                    run = j - k
                    if 1 <= run <= 10 and k >= 0 and s[k] == ".":
                        cuts.append(q)
                        dots.append(k)
                q = find('"', q + 1)
            self._cuts = cuts
            self._dots = dots
        return self._cuts, self._dots

    def bounds(self, a: int, b: int) -> tuple[int, int, bool]:
        """``clean(s[a:b])`` as ``(start, end, cut)``; ``cut`` when the JSON tail was cut."""
        s = self.s
        la = a
        if la < b and s[la] in _LEAD:
            # A run of wrapper characters is skipped in C (a payload may hold 50k of them).
            seg = s[a:b]
            la = a + len(seg) - len(seg.lstrip(_LEAD_CHARS))
        tb = b
        if tb > la and s[tb - 1] in _TRAIL:
            tb = la + len(s[la:b].rstrip(_TRAIL_CHARS))
        if tb - la < 4 or (tb - la <= 64 and '"' not in s[la:tb]):
            return la, tb, False
        cuts, dots = self._json_cut_index()
        if not cuts:
            return la, tb, False
        # The last qualifying quote whose follower lies inside the stripped slice; dot
        # positions grow with quote positions, so if it fails the left bound none can pass.
        k = bisect.bisect_right(cuts, tb - 2) - 1
        if k < 0 or dots[k] < la:
            return la, tb, False
        q = cuts[k]
        end = q - 1 if s[q - 1] == "\\" else q
        return la, end, True


def clean(s: str) -> str:
    """MEDIA §6.1 ``clean``: strip wrapper characters, then cut a serialized-JSON tail."""
    start, end, _ = Cleaner(s).bounds(0, len(s))
    return s[start:end]


def unwrap_bounds(s: str, a: int, b: int) -> tuple[int, int] | None:
    """MEDIA §6.2 ``unwrap(s[a:b])`` as bounds of the inner value, or None when unset."""
    sub = s[a:b]
    left = len(sub) - len(sub.lstrip(JS_WS))
    x = a + left
    y = a + len(sub.rstrip(JS_WS)) if left < len(sub) else x
    if y - x < 2:
        return None
    first = s[x]
    if first != s[y - 1] or first not in _QUOTES:
        return None
    inner = s[x + 1 : y - 1]
    il = len(inner) - len(inner.lstrip(JS_WS))
    if il == len(inner):
        return x + 1, x + 1
    return x + 1 + il, x + 1 + len(inner.rstrip(JS_WS))


#: A quote character followed by whitespace, a comma or the end: the only places a quoted
#: list member can close (searched in C instead of looking at every quote in Python).
_CLOSERS = {q: re.compile(re.escape(q) + f"(?=[{JS_WS_CLASS},]|\\Z)") for q in _QUOTES}


def _quoted_end(p: str, start: int, end: int) -> int:
    """Where the quote at ``p[start]`` closes inside ``p[:end]`` (PROFILES.md rule 3), or -1.

    A closing quote counts only before whitespace, the end, or a comma whose next
    non-space character is another quote: apostrophes in names and prose after a comma stay
    inside the value. Each character is looked at a bounded number of times.
    """
    search = _CLOSERS[p[start]].search
    m = search(p, start + 1, end)
    while m is not None:
        after = m.end()
        if after >= end or p[after] != ",":
            return m.start()
        k = after + 1
        while k < end and p[k] in _WS:
            k += 1
        if k < end and p[k] in _QUOTES:
            return m.start()
        m = search(p, after, end)
    return -1


def quoted_list(p: str) -> list[tuple[int, int]] | None:
    """PROFILES.md rule 3: the bounds of each quoted member of an explicit list, or None.

    The payload (optionally inside one complete ``[...]``) must be only two or more fully
    quoted tokens separated by whitespace and/or commas.
    """
    a, b = 0, len(p)
    la = b - len(p.lstrip(JS_WS))
    rb = len(p.rstrip(JS_WS))
    if rb - la >= 2 and p[la] == "[" and p[rb - 1] == "]":
        a, b = la + 1, rb - 1
    members: list[tuple[int, int]] = []
    i = a
    while i < b:
        ch = p[i]
        if ch in _WS or ch == ",":
            i += 1
            continue
        if ch not in _QUOTES:
            return None
        close = _quoted_end(p, i, b)
        if close < 0:
            return None
        members.append((i, close + 1))
        i = close + 1
    return members if len(members) >= 2 else None


def split_parts(p: str) -> list[tuple[int, int]]:
    """The whitespace-separated tokens of ``p`` (``/\\S+/g``), as bounds."""
    return [m.span() for m in _NON_WS_RUN.finditer(p)]


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


def _begins_independent(cl: Cleaner, a: int, b: int) -> bool:
    """§6.6 "begins an independent source": strip_file(clean(s[a:b])) is rooted or has a scheme."""
    s = cl.s
    x, y, _ = cl.bounds(a, b)
    x += _file_prefix_len(s, x, y)
    value = s[x:y]
    return starts_at_root(value) or has_scheme_prefix(value)


def _regroup(p: str, cl: Cleaner, tokens: list[tuple[int, int]], judge: Judge) -> list[list[int]]:
    """MEDIA §6.6: merge tokens into parts; each part is ``[start, end, absorbed]``."""
    parts: list[list[int]] = []
    # Clean bounds of the current last part, recomputed only when it grows.
    prev_clean: tuple[int, int] | None = None
    for ts, te in tokens:
        if parts:
            last = parts[-1]
            if prev_clean is None:
                x, y, _ = cl.bounds(last[0], last[1])
                x += _file_prefix_len(p, x, y)
                prev_clean = (x, y)
            px, py = prev_clean
            if starts_at_root(p[px : min(py, px + 3)]):
                cx, cy, _ = cl.bounds(ts, te)
                cx += _file_prefix_len(p, cx, cy)
                # The value judged here has already lost one file prefix; beginning an
                # independent source cleans and strips it a second time (reference quirk).
                if not _begins_independent(cl, cx, cy):
                    prev_ext = has_file_extension(p[max(px, py - 11) : py])
                    if not prev_ext or not judge.ok(p[cx:cy]):
                        if last[2] == -1:
                            last[2] = 1 if prev_ext else 0
                        last[1] = te
                        prev_clean = None
                        continue
        parts.append([ts, te, -1])
        prev_clean = None
    return parts


def _single_token(p: str, judge: Judge, res: PayloadResult) -> PayloadResult:
    """The steps for a payload without whitespace that starts with no quote or ``[``.

    Such a payload is no list, is not unwrapped, is one part, and its whole-payload value is
    the payload itself: the general path reduces to one clean, one verdict, the count of a
    hidden rejection, and the bare-filename fallback. Most directives take this path.
    """
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


def begins_independent(value: str) -> bool:
    """§6.6 "begins an independent source" of a string: its cleaned form is rooted or schemed."""
    x, y, _ = Cleaner(value).bounds(0, len(value))
    x += _file_prefix_len(value, x, y)
    rest = value[x:y]
    return starts_at_root(rest) or has_scheme_prefix(rest)


def analyse_payload(p: str, judge: Judge | None = None) -> PayloadResult:
    """MEDIA §6 for one payload ``p`` (not trimmed), under the judge's profile.

    The steps follow the profile's upstream: an explicit quoted list (profile ``next``),
    else the whole payload unwrapped from one pair of quotes, else whitespace tokens
    regrouped into parts; then per-part verdicts, the spaced-path rescue and the
    whole-payload fallback. Rejected parts that look like media sources are counted and
    hidden where the profile says so (``PayloadResult.counted``).
    """
    if judge is None:
        judge = Judge()
    profile = judge.profile
    res = PayloadResult()
    n = len(p)
    if n and p[0] not in _LIST_OPEN and not has_js_ws(p):
        return _single_token(p, judge, res)
    cl = Cleaner(p)
    head = p.lstrip(JS_WS)[:1]
    members = quoted_list(p) if profile.quoted_lists and head in _LIST_OPEN else None
    ub = unwrap_bounds(p, 0, n) if head and head in _QUOTES else None
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
        parts = _regroup(p, cl, split_parts(p), judge)
    res.parts = len(parts)

    accepted: list[Item] = []
    leftovers: list[tuple[int, int]] = []
    bare = members is not None
    hide = profile.hide_rejected
    for a, b, absorbed in parts:
        cut = False
        cb = b
        if unwrapped is not None:
            # An empty unwrapped value still replaces every candidate in ``next``; the
            # release reads each whitespace part as written then.
            candidate = unwrapped if unwrapped or profile.unwrap_quoted_parts else p[a:b]
        else:
            qb = unwrap_bounds(p, a, b) if profile.unwrap_quoted_parts and p[a] in _QUOTES else None
            if qb is not None:
                ca, cb = qb
                candidate = p[ca:cb]
            else:
                ca, cb, cut = cl.bounds(a, b)
                candidate = p[ca:cb]
        if judge.ok(candidate, True, bare):
            accepted.append(Item(candidate, a, b, cut, "part", absorbed == 1, p[cb:b]))
        elif hide and (begins_independent(candidate) or looks_local(candidate)):
            res.counted.append((a, b, candidate))
            res.rejected.append((a, b, candidate, True, False))
        elif not has_js_ws(p[a:b]) or not is_traversal_or_unsupported_home(candidate):
            leftovers.append((a, b))
            res.rejected.append((a, b, candidate, True, True))
        else:
            res.rejected.append((a, b, candidate, True, False))

    local_value = js_trim(stripped if stripped is not None else p)
    res.looks_local = looks_local(local_value) or strip_file_prefix(local_value) != local_value
    if (
        members is None
        and not unwrapped
        and len(accepted) == 1
        and leftovers
        and has_js_ws(value)
        and res.looks_local
        and not any(_begins_independent(cl, a, b) for a, b, _ in parts[1:])
    ):
        fa, fb, fcut = cl.bounds(vs, ve)
        rescue = p[fa:fb]
        if judge.ok(rescue, True):
            vb = max(fb, res.value_bounds[1])
            accepted = [Item(rescue, fa, vb, fcut, "rescue", tail=p[fb:vb])]
            leftovers = []
            res.rejected = [r for r in res.rejected if (r[0], r[1], r[2]) in res.counted]

    if not accepted and members is None:
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
