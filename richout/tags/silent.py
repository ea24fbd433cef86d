"""Silent replies (TAGS.md §8): is this reply the model's way of saying "send nothing"?

The rules §8.1-§8.4 and the streaming helpers of §9.3 live here; the readers they use are
split by what they read:

* :mod:`richout.tags.silent_tokens` -- token runs (``NO_REPLY NO_REPLY``), read left to right;
* :mod:`richout.tags.silent_json` -- the strict JSON forms of §8.2 and §8.3;
* :mod:`richout.tags.silent_reasoning` -- reasoning blocks, prefixes and silent-intent
  sentences of §8.4.

The reference decides with a handful of case-insensitive regexes, several of which backtrack
badly on hostile text (``<think`` runs, long whitespace runs between repeated tokens). richout
answers the same questions with forward scanners that look at each character a bounded number
of times; a reply that does not contain the token at all (ASCII case-insensitively) is never
silent, so the common case costs one C-level substring search (:func:`may_contain_token`).

The streaming helpers (:func:`is_silent_prefix`, :func:`strip_leading_token`) implement the
per-chunk rules of TAGS.md §9.3 step 2.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Literal

from richout.errors import require_str
from richout.tags.scan import ws_end
from richout.tags.silent_json import json_object_members, json_string_value
from richout.tags.silent_reasoning import (
    open_tag_end,
    strip_closed_reasoning_blocks,
    strip_plain_reasoning_prefix,
    variant_a,
    variant_b,
)
from richout.tags.silent_tokens import is_regular_token, run_ends, token_pattern
from richout.text.chars import ascii_lower, js_ltrim, js_trim, utf16_len

__all__ = [
    "DEFAULT_TOKEN",
    "SilentRule",
    "is_silent",
    "is_silent_prefix",
    "is_token_only",
    "may_contain_token",
    "silent_rule",
    "strip_leading_token",
]

#: The reference's default silent token.
DEFAULT_TOKEN = "NO_REPLY"

#: Which rule of TAGS.md §8 made a text silent.
SilentRule = Literal["8.1", "8.2", "8.3", "8.4"]

_UPPER_AZ_ONLY = re.compile(r"[A-Z_]*")


@lru_cache(maxsize=64)
def _anchor(token: str) -> tuple[str, int, str] | None:
    """The token's first character that is not an ASCII letter (it must match exactly), its
    place, and the token ASCII lower-cased (kept here: a streamed part asks per chunk)."""
    for k, ch in enumerate(token):
        if not ("a" <= ascii_lower(ch) <= "z"):
            return ch, k, ascii_lower(token)
    return None


#: Anchors compared before the whole text is lower-cased instead: at least this many, and
#: one per 1024 characters (a comparison costs about 0.4 µs, lower-casing 3 ns a character;
#: a 1 MB reply with 400 underscores, capped at 32, was lower-cased whole: 3 ms of its
#: 35 ms ``parse_reply``).
_ANCHOR_TRIES = 32


def may_contain_token(text: str, token: str = DEFAULT_TOKEN) -> bool:
    """False only when ``token`` cannot occur in ``text`` ASCII case-insensitively.

    Every silent rule needs the token, so this is the cheap gate before any of them. A
    case-insensitive regex tries every offset in Python's matcher; instead the token's first
    character that has no case (``_`` of ``NO_REPLY``) is found at C speed and only its few
    occurrences are compared. Texts with many of them (more than one per KB), and tokens made
    only of letters, fall back to one full lower-casing, which maps every ASCII letter as
    ASCII lower-casing does and leaves the rest of an occurrence intact, so it never misses
    one.
    """
    if not token:
        return True
    anchor = _anchor(token)
    if anchor is not None:
        ch, k, low = anchor
        m = len(token)
        p = text.find(ch)
        tries = 0
        while p >= 0:
            if p >= k and ascii_lower(text[p - k : p - k + m]) == low:
                return True
            p = text.find(ch, p + 1)
            tries += 1
            if tries >= _ANCHOR_TRIES and tries >= len(text) >> 10:
                break  # (the budget is read only here: most texts hold no anchor at all)
        if p < 0:
            return False
    return _lowered_contains(text, token)


def _lowered_contains(text: str, token: str) -> bool:
    """``token`` in ``text``, both lower-cased (every ASCII letter as ASCII lower-casing
    maps it; other characters may map too, which only ever finds more)."""
    return token.lower() in text.lower()


def _exact_token_only(s: str, token: str) -> bool:
    """``^\\s*T(?:\\s+T)*\\s*$`` (ASCII case-insensitive): the text is tokens and whitespace."""
    if not s:
        return False
    ends = run_ends(s, token)
    n = len(s)
    return any(ws_end(s, e) == n for e in ends)


def _is_punct(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "P"


def _strip_edge_punctuation(s: str) -> str:
    """Remove a leading and a trailing run of Unicode punctuation (general category P*)."""
    n = len(s)
    start = 0
    while start < n and _is_punct(s[start]):
        start += 1
    end = n
    while end > 0 and _is_punct(s[end - 1]):
        end -= 1
    # An all-punctuation text yields "" (both runs cover it), as in the reference.
    return s[start:end] if start < end else ""


def is_token_only(text: str, token: str = DEFAULT_TOKEN) -> bool:
    """TAGS.md §8.1: only the token (repeated, whitespace-separated), maybe in punctuation."""
    if not text or not may_contain_token(text, token):
        return False
    return _exact_token_only(text, token) or _exact_token_only(
        _strip_edge_punctuation(js_trim(text)), token
    )


# --------------------------------------------------------------------------- JSON forms


def _is_json_string_silent(trimmed: str, token: str) -> bool:
    """TAGS.md §8.2 on the trimmed text: a JSON string whose trimmed value is the token."""
    if len(trimmed) < 2 or trimmed[0] != '"' or trimmed[-1] != '"' or token not in trimmed:
        return False
    value = json_string_value(trimmed)
    return isinstance(value, str) and js_trim(value) == token


def _is_json_envelope_silent(trimmed: str, token: str) -> bool:
    """TAGS.md §8.3 on the trimmed text: ``{"action": T}`` with exactly that one key."""
    if not trimmed or trimmed[0] != "{" or trimmed[-1] != "}" or token not in trimmed:
        return False
    members = json_object_members(trimmed)
    if members is None:
        return False
    obj = dict(members)  # duplicate keys: the last one wins, as in JSON.parse
    if len(obj) != 1 or "action" not in obj:
        return False
    action = obj["action"]
    return isinstance(action, str) and js_trim(action) == token


def _is_reasoning_prefixed_silent(text: str, token: str) -> bool:
    """TAGS.md §8.4."""
    x = js_trim(text)
    if not x:
        return False
    y = strip_closed_reasoning_blocks(x)
    if y != x:
        return is_token_only(y, token) or variant_a(y, token)
    opened = open_tag_end(x, 0)
    if opened is not None:
        y = x[opened:]
        return is_token_only(y, token) or variant_b(y, token)
    plain = strip_plain_reasoning_prefix(x)
    if plain is None:
        return False
    return is_token_only(plain, token) or variant_b(plain, token)


# --------------------------------------------------------------------------- public API


def silent_rule(text: str, token: str = DEFAULT_TOKEN) -> SilentRule | None:
    """Which rule of TAGS.md §8 makes ``text`` silent, or None when it is not silent."""
    if not text or not may_contain_token(text, token):
        return None
    if is_token_only(text, token):
        return "8.1"
    trimmed = js_trim(text)
    if _is_json_string_silent(trimmed, token):
        return "8.2"
    if _is_json_envelope_silent(trimmed, token):
        return "8.3"
    if _is_reasoning_prefixed_silent(text, token):
        return "8.4"
    return None


def is_silent(text: str, token: str = DEFAULT_TOKEN) -> bool:
    """TAGS.md §8: is ``text`` a silent reply for ``token`` (rules 8.1-8.4)?"""
    require_str(text)
    require_str(token, "token")
    return silent_rule(text, token) is not None


def is_silent_prefix(text: str, token: str = DEFAULT_TOKEN) -> bool:
    """TAGS.md §9.3 step 2: the left-trimmed text could be the start of a streamed token."""
    upper_token = token.upper()
    u = js_ltrim(text)
    # A code point is one or two UTF-16 units: a text more than twice the token's code
    # points is longer in units too, whatever it holds (a streamed part usually is).
    if not u or len(u) > 2 * len(upper_token) or utf16_len(u) > utf16_len(upper_token):
        return False
    if u != u.upper() or utf16_len(u) < 2 or not upper_token.startswith(u):
        return False
    if "_" in u or u == upper_token:
        return True
    if _UPPER_AZ_ONLY.fullmatch(upper_token) is None:
        # A token with digits or symbols: only a prefix that already reaches one of them.
        return _UPPER_AZ_ONLY.fullmatch(u) is None
    return upper_token == DEFAULT_TOKEN and u == "NO"


def _attached(s: str, token: str) -> bool:
    """``^\\s*(?:T\\s+)*T`` followed directly by a letter or digit (``NO_REPLYhello``)."""
    ends = run_ends(s, token)
    n = len(s)
    return any(e < n and unicodedata.category(s[e])[0] in "LN" for e in ends)


def _leading_tokens_end(s: str, token: str) -> tuple[int, int] | None:
    """``^\\s*T(?:\\s*T)*`` then ``\\s*``: (end of the last token, end of the match), or None.

    Each ``\\s*T`` takes the longest whitespace run after which the token matches, as the
    regex's first match does; a repetition that consumes nothing ends the run.
    """
    pat = token_pattern(token)
    m = len(token)

    regular = is_regular_token(token)

    def ws_then_token(i: int) -> int | None:
        w = ws_end(s, i)
        if regular:
            # The token cannot start inside the whitespace run.
            return w + m if pat.match(s, w) else None
        while True:
            if pat.match(s, w):
                return w + m
            if w == i:
                return None
            w -= 1

    end = ws_then_token(0)
    if end is None:
        return None
    while True:
        nxt = ws_then_token(end)
        if nxt is None or nxt == end:
            break
        end = nxt
    return end, ws_end(s, end)


def strip_leading_token(text: str, token: str = DEFAULT_TOKEN) -> str | None:
    """TAGS.md §9.3 step 2: drop leading tokens glued to text or followed by a line break.

    Returns the text without the leading tokens and the whitespace after them, trimmed; None
    when the text does not start that way (then it is left alone).
    """
    if not text or not may_contain_token(text, token):
        return None
    lead = _leading_tokens_end(text, token)
    if lead is None:
        return None
    last, end = lead
    if not _attached(text, token):
        separator = text[last:end]
        if ("\n" not in separator and "\r" not in separator) or end >= len(text):
            return None
    return js_trim(text[end:])
