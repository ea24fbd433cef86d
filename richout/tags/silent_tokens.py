"""Token runs of the silent rules (TAGS.md §8.1, §9.3): ``\\s*T(?:\\s+T)*`` read forward.

The reference matches the silent token with case-insensitive regexes; here a run of tokens is
read left to right. For a *regular* token (non-empty, neither starting nor ending with
whitespace) the split between whitespace and tokens is unique and a greedy read is exact; for
the rare other tokens, where that split is ambiguous, a small NFA over the token's positions
gives the regex's exact answer.
"""

from __future__ import annotations

import re
from functools import lru_cache

from richout.tags.scan import ws_end
from richout.text.chars import ascii_lower, is_js_ws

__all__ = ["TokenRunNfa", "is_regular_token", "run_ends", "token_pattern"]


@lru_cache(maxsize=64)
def token_pattern(token: str) -> re.Pattern[str]:
    """The token as a literal pattern, ASCII case-insensitive (JavaScript ``/i`` without ``u``)."""
    return re.compile(re.escape(token), re.IGNORECASE | re.ASCII)


def is_regular_token(token: str) -> bool:
    """Non-empty and neither starting nor ending with whitespace: token runs read greedily.

    For such a token every whitespace run must end where a token begins, so there is exactly
    one way to split ``ws T ws T ...``; other tokens go through :class:`TokenRunNfa`.
    """
    return bool(token) and not is_js_ws(token[0]) and not is_js_ws(token[-1])


class TokenRunNfa:
    """Positions reachable by ``^\\s*T(?:\\s+T)*`` for any token, by simulating the NFA.

    States: in the leading whitespace, ``i`` characters of the current token matched, or in
    the whitespace after a complete token. O(len(text) * len(token)); only used for tokens
    that are empty or start/end with whitespace, where greedy reading is not exact.
    """

    def __init__(self, token: str) -> None:
        self.low = ascii_lower(token)
        self.m = len(token)

    def token_ends(self, s: str) -> list[int]:
        """Offsets right after a complete token of a run starting at 0 (ascending)."""
        m = self.m
        low = self.low
        lead = True  # inside the leading \s*
        gap = False  # inside the \s+ after a complete token
        progress: set[int] = set()
        ends: list[int] = []
        n = len(s)
        p = 0
        while True:
            if lead or gap:
                progress.add(0)
            complete = m in progress
            if complete:
                ends.append(p)
            if p >= n:
                return ends
            c = s[p]
            ws = is_js_ws(c)
            lc = ascii_lower(c)
            progress = {i + 1 for i in progress if i < m and low[i] == lc}
            lead = lead and ws
            gap = (gap or complete) and ws
            if not (lead or gap or progress):
                return ends
            p += 1


def _regular_run_ends(s: str, token: str, start: int = 0) -> list[int]:
    """Ends of the tokens of the run ``\\s*T(?:\\s+T)*`` read at ``start`` (regular token)."""
    pat = token_pattern(token)
    m = len(token)
    ends: list[int] = []
    i = ws_end(s, start)
    while pat.match(s, i):
        i += m
        ends.append(i)
        j = ws_end(s, i)
        if j == i:
            break
        i = j
    return ends


def run_ends(s: str, token: str) -> list[int]:
    """Ends of every complete token of a leading ``\\s*T(?:\\s+T)*`` run of ``s``."""
    if is_regular_token(token):
        return _regular_run_ends(s, token)
    return TokenRunNfa(token).token_ends(s)
