"""What a ``MEDIA:`` payload reads as, before any verdict: cleaning and splitting (MEDIA.md §6).

Every step of the reference here is a regular expression that backtracks: the cleaning
regex's ``.*`` before the serialized-JSON cut, the quoted-token alternatives and the
quote-pair scan. This module computes the same answers with forward and backward scans whose
total cost is linear in the payload.

Cleaning (§6.1) only ever removes a prefix and a suffix, so it is computed as *bounds* into
the payload: a part ``payload[a:b]`` cleans to ``payload[s:e]``. That lets the regrouping
step (:mod:`richout.media.payload`) ask "what does the part built so far clean to?" without
rebuilding or rescanning it. Also here: §6.2 ``unwrap``, the explicit quoted list
(PROFILES.md rule 3), whitespace tokens, and §6.6 "begins an independent source".
"""

from __future__ import annotations

import bisect
import re

from richout.policy import strip_file_prefix
from richout.policy.local import has_scheme_prefix, starts_at_root
from richout.text.chars import JS_WS, JS_WS_CLASS

__all__ = [
    "LEAD_CHARS",
    "QUOTES",
    "TRAIL_CHARS",
    "Cleaner",
    "begins_independent",
    "begins_independent_at",
    "clean",
    "file_prefix_len",
    "quoted_list",
    "split_parts",
    "unwrap_bounds",
]

#: the wrapper characters cleaning strips from the start of a value (§6.1)
LEAD_CHARS = "`\"'[{("
#: the wrapper characters cleaning strips from the end of a value (§6.1)
TRAIL_CHARS = "`\"'\\})],"
_LEAD = frozenset(LEAD_CHARS)
_TRAIL = frozenset(TRAIL_CHARS)
#: the quote characters of §6.2 ``unwrap`` and of quoted list members
QUOTES = "\"'`"
_JSON_FOLLOW = frozenset("]},:")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_WS = frozenset(JS_WS)
_NON_WS_RUN = re.compile(f"[^{JS_WS_CLASS}]+")
_NOT_LEAD = re.compile("[^" + re.escape(LEAD_CHARS) + "]")


def file_prefix_len(s: str, a: int, b: int) -> int:
    """Length of the ``file:`` / ``file://`` prefix of ``s[a:b]`` (0 when absent)."""
    head = s[a : min(b, a + 7)]
    return len(head) - len(strip_file_prefix(head))


class Cleaner:
    """``clean`` (§6.1) of any slice of one string, answered as bounds into that string."""

    __slots__ = ("_cuts", "_dots", "_lead_ends", "s")

    def __init__(self, s: str) -> None:
        self.s = s
        self._cuts: list[int] | None = None
        self._dots: list[int] = []
        # Regrouping asks for the bounds of one growing part once per token; the end of
        # the wrapper run at its start is found once, not rescanned with every token.
        self._lead_ends: dict[int, int] = {}

    def _lead_end(self, a: int) -> int:
        """Where the run of wrapper characters starting at ``a`` ends (found once per ``a``)."""
        end = self._lead_ends.get(a)
        if end is None:
            m = _NOT_LEAD.search(self.s, a)
            end = self._lead_ends[a] = m.start() if m is not None else len(self.s)
        return end

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

    def last_cut_dot(self) -> int:
        """The ``.`` of the last serialized-JSON tail in the string, or -1 when there is none.

        A tail is cut from a slice only when its ``.`` lies in the slice after the leading
        wrapper characters, and the dots grow with the quotes: a slice whose cleaned start
        is after this position cleans to an end that depends only on its trailing wrapper
        characters."""
        dots = self._json_cut_index()[1]
        return dots[-1] if dots else -1

    def end_after_token(self, ts: int, te: int) -> int:
        """The cleaned end of a slice that ends with the token ``s[ts:te]`` after whitespace
        and starts after :meth:`last_cut_dot`: the whitespace before the token stops the
        strip of trailing wrapper characters, so only the token is read."""
        if self.s[te - 1] in _TRAIL:
            return _trail_start(self.s, ts, te)
        return te

    def bounds(self, a: int, b: int) -> tuple[int, int, bool]:
        """``clean(s[a:b])`` as ``(start, end, cut)``; ``cut`` when the JSON tail was cut."""
        s = self.s
        la = a
        if la < b and s[la] in _LEAD:
            la = min(self._lead_end(a), b)
        tb = b
        if tb > la and s[tb - 1] in _TRAIL:
            tb = _trail_start(s, la, b)
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


def _trail_start(s: str, lo: int, hi: int) -> int:
    """``lo + len(s[lo:hi].rstrip(TRAIL_CHARS))``, looking only at the trailing run.

    Windows grow fourfold from the end, so the cost is linear in the run, not in ``hi - lo``
    (a part grown token by token is cleaned again after each one).
    """
    width = 16
    while True:
        start = max(lo, hi - width)
        kept = s[start:hi].rstrip(TRAIL_CHARS)
        if kept or start == lo:
            return start + len(kept)
        width *= 4


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
    if first != s[y - 1] or first not in QUOTES:
        return None
    inner = s[x + 1 : y - 1]
    il = len(inner) - len(inner.lstrip(JS_WS))
    if il == len(inner):
        return x + 1, x + 1
    return x + 1 + il, x + 1 + len(inner.rstrip(JS_WS))


#: A quote character followed by whitespace, a comma or the end: the only places a quoted
#: list member can close (searched in C instead of looking at every quote in Python).
_CLOSERS = {q: re.compile(re.escape(q) + f"(?=[{JS_WS_CLASS},]|\\Z)") for q in QUOTES}


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
        if k < end and p[k] in QUOTES:
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
        if ch not in QUOTES:
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


def begins_independent(value: str) -> bool:
    """§6.6 "begins an independent source" of a string: its cleaned form is rooted or schemed."""
    x, y, _ = Cleaner(value).bounds(0, len(value))
    x += file_prefix_len(value, x, y)
    rest = value[x:y]
    return starts_at_root(rest) or has_scheme_prefix(rest)


def begins_independent_at(cl: Cleaner, a: int, b: int) -> bool:
    """:func:`begins_independent` of the slice ``cl.s[a:b]``: strip_file(clean(s[a:b])) is rooted
    or has a scheme."""
    s = cl.s
    x, y, _ = cl.bounds(a, b)
    x += file_prefix_len(s, x, y)
    value = s[x:y]
    return starts_at_root(value) or has_scheme_prefix(value)
