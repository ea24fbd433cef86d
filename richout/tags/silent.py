"""Silent replies (TAGS.md §8): is this reply the model's way of saying "send nothing"?

The reference decides with a handful of case-insensitive regexes, several of which backtrack
badly on hostile text (``<think`` runs, long whitespace runs between repeated tokens). richout
answers the same questions with forward scanners that look at each character a bounded number
of times:

* a reply that does not contain the token at all (ASCII case-insensitively) is never silent,
  so the common case costs one C-level substring search;
* token runs (``NO_REPLY NO_REPLY``) are read left to right; for the rare token that begins or
  ends with whitespace (or is empty), where the split between whitespace and token is
  ambiguous, a small NFA over the token's positions gives the regex's exact answer;
* JSON forms are checked by an iterative validator (no recursion on nesting depth) that only
  keeps the top-level members;
* the silent-intent grammar is a finite set of word sequences, so a sentence is split into at
  most nine words and looked up.

The streaming helpers (:func:`is_silent_prefix`, :func:`strip_leading_token`) implement the
per-chunk rules of TAGS.md §9.3 step 2.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from functools import lru_cache
from typing import Literal

from richout.errors import require_str
from richout.text.chars import (
    JS_WS_CLASS,
    ascii_lower,
    is_js_ws,
    js_ltrim,
    js_rtrim,
    js_trim,
    utf16_len,
)

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

_WS_RUN = re.compile(f"[{JS_WS_CLASS}]*")
_WS_SPLIT = re.compile(f"[{JS_WS_CLASS}]+")
_ASCII_WORD = re.compile(r"[A-Za-z0-9_]+")
_ANGLE = re.compile(r"[<>]")
_UPPER_AZ_ONLY = re.compile(r"[A-Z_]*")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _ws_end(s: str, pos: int) -> int:
    """First offset at or after ``pos`` that is not JavaScript whitespace."""
    m = _WS_RUN.match(s, pos)
    return pos if m is None else m.end()


@lru_cache(maxsize=64)
def _token_re(token: str) -> re.Pattern[str]:
    """The token as a literal pattern, ASCII case-insensitive (JavaScript ``/i`` without ``u``)."""
    return re.compile(re.escape(token), re.IGNORECASE | re.ASCII)


def _regular(token: str) -> bool:
    """Non-empty and neither starting nor ending with whitespace: token runs read greedily.

    For such a token every whitespace run must end where a token begins, so there is exactly
    one way to split ``ws T ws T ...``; other tokens go through :class:`_TokenRunNfa`.
    """
    return bool(token) and not is_js_ws(token[0]) and not is_js_ws(token[-1])


@lru_cache(maxsize=64)
def _anchor(token: str) -> tuple[str, int] | None:
    """The token's first character that is not an ASCII letter (it must match exactly)."""
    for k, ch in enumerate(token):
        if not ("a" <= ascii_lower(ch) <= "z"):
            return ch, k
    return None


_ANCHOR_TRIES = 32


def may_contain_token(text: str, token: str = DEFAULT_TOKEN) -> bool:
    """False only when ``token`` cannot occur in ``text`` ASCII case-insensitively.

    Every silent rule needs the token, so this is the cheap gate before any of them. A
    case-insensitive regex tries every offset in Python's matcher; instead the token's first
    character that has no case (``_`` of ``NO_REPLY``) is found at C speed and only its few
    occurrences are compared. Texts with many of them, and tokens made only of letters, fall
    back to one full lower-casing, which maps every ASCII letter as ASCII lower-casing does
    and leaves the rest of an occurrence intact, so it never misses one.
    """
    if not token:
        return True
    anchor = _anchor(token)
    if anchor is not None:
        ch, k = anchor
        low = ascii_lower(token)
        m = len(token)
        p = text.find(ch)
        tries = 0
        while p >= 0 and tries < _ANCHOR_TRIES:
            if p >= k and ascii_lower(text[p - k : p - k + m]) == low:
                return True
            p = text.find(ch, p + 1)
            tries += 1
        if p < 0:
            return False
    return token.lower() in text.lower()


# --------------------------------------------------------------------------- token runs


class _TokenRunNfa:
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
    pat = _token_re(token)
    m = len(token)
    ends: list[int] = []
    i = _ws_end(s, start)
    while pat.match(s, i):
        i += m
        ends.append(i)
        j = _ws_end(s, i)
        if j == i:
            break
        i = j
    return ends


def _run_ends(s: str, token: str) -> list[int]:
    """Ends of every complete token of a leading ``\\s*T(?:\\s+T)*`` run of ``s``."""
    if _regular(token):
        return _regular_run_ends(s, token)
    return _TokenRunNfa(token).token_ends(s)


def _exact_token_only(s: str, token: str) -> bool:
    """``^\\s*T(?:\\s+T)*\\s*$`` (ASCII case-insensitive): the text is tokens and whitespace."""
    if not s:
        return False
    ends = _run_ends(s, token)
    n = len(s)
    return any(_ws_end(s, e) == n for e in ends)


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

_JSON_WS = re.compile(r"[ \t\n\r]*")
# One alternative per character (a plain character or one escape): no nested quantifier, so a
# long unterminated string fails in linear time.
_JSON_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_NOT_A_STRING = object()


def _jws(s: str, pos: int) -> int:
    """First offset at or after ``pos`` that is not JSON whitespace."""
    m = _JSON_WS.match(s, pos)
    return pos if m is None else m.end()


def _json_scalar(s: str, pos: int, decode: bool) -> tuple[int, object] | None:
    """A JSON string, number or literal at ``pos``: (its end, the decoded string or a sentinel)."""
    c = s[pos]
    if c == '"':
        m = _JSON_STRING.match(s, pos)
        if m is None:
            return None
        return m.end(), (json.loads(m.group()) if decode else _NOT_A_STRING)
    if c in "-0123456789":
        m = _JSON_NUMBER.match(s, pos)
        return None if m is None else (m.end(), _NOT_A_STRING)
    for lit in ("true", "false", "null"):
        if s.startswith(lit, pos):
            return pos + len(lit), _NOT_A_STRING
    return None


def _json_object_members(s: str) -> list[tuple[str, object]] | None:
    """Top-level members of the JSON object ``s``; None unless ``s`` is exactly valid JSON.

    Iterative (a stack of open containers), so nesting depth costs no recursion; values other
    than top-level strings are validated but kept as a sentinel. Strict JSON as ``JSON.parse``
    reads it: no ``NaN``/``Infinity``, no trailing commas, no control characters in strings.
    """
    n = len(s)
    pos = _jws(s, 0)
    if pos >= n or s[pos] != "{":
        return None
    stack = ["{"]
    pos += 1
    members: list[tuple[str, object]] = []
    key = ""
    expect = "key_or_close"
    while True:
        pos = _jws(s, pos)
        if pos >= n:
            return None
        c = s[pos]
        top_level = len(stack) == 1
        if expect == "colon":
            if c != ":":
                return None
            pos += 1
            expect = "value"
            continue
        if expect in ("key_or_close", "key") and not (c == "}" and expect == "key_or_close"):
            m = _JSON_STRING.match(s, pos)
            if m is None:
                return None
            if top_level:
                key = json.loads(m.group())
            pos = m.end()
            expect = "colon"
            continue
        if expect in ("value", "value_or_close") and not (c == "]" and expect == "value_or_close"):
            if c in "{[":
                if top_level:
                    members.append((key, _NOT_A_STRING))
                stack.append(c)
                pos += 1
                expect = "key_or_close" if c == "{" else "value_or_close"
                continue
            scalar = _json_scalar(s, pos, top_level)
            if scalar is None:
                return None
            pos, value = scalar
            if top_level:
                members.append((key, value))
            expect = "comma_or_close"
            continue
        if expect == "comma_or_close" and c == ",":
            pos += 1
            expect = "key" if stack[-1] == "{" else "value"
            continue
        # What is left is a closing bracket, which must match the open container.
        if c != ("}" if stack[-1] == "{" else "]"):
            return None
        stack.pop()
        pos += 1
        if not stack:
            return members if _jws(s, pos) == n else None
        expect = "comma_or_close"


def _is_json_string_silent(trimmed: str, token: str) -> bool:
    """TAGS.md §8.2 on the trimmed text: a JSON string whose trimmed value is the token."""
    if len(trimmed) < 2 or trimmed[0] != '"' or trimmed[-1] != '"' or token not in trimmed:
        return False
    if _JSON_STRING.fullmatch(trimmed) is None:
        return False
    value = json.loads(trimmed)
    return isinstance(value, str) and js_trim(value) == token


def _is_json_envelope_silent(trimmed: str, token: str) -> bool:
    """TAGS.md §8.3 on the trimmed text: ``{"action": T}`` with exactly that one key."""
    if not trimmed or trimmed[0] != "{" or trimmed[-1] != "}" or token not in trimmed:
        return False
    members = _json_object_members(trimmed)
    if members is None:
        return False
    obj = dict(members)  # duplicate keys: the last one wins, as in JSON.parse
    if len(obj) != 1 or "action" not in obj:
        return False
    action = obj["action"]
    return isinstance(action, str) and js_trim(action) == token


# --------------------------------------------------------------------------- reasoning prefixes

_PREFIXED_NAMES = ("thinking", "think", "thought")
_NAMESPACES = ("antml:", "mm:")
_PLAIN_NAMES = ("thinking", "think", "thought", "analysis", "reasoning")


def _reasoning_name_ends(s: str, i: int) -> list[int]:
    """Ends of every reasoning tag name (§8.4) that starts exactly at ``i``."""
    head = ascii_lower(s[i : i + 17])
    base = 0
    for ns in _NAMESPACES:
        if head.startswith(ns):
            base = len(ns)
            break
    ends = [i + base + len(name) for name in _PREFIXED_NAMES if head.startswith(name, base)]
    if base == 0 and head.startswith("antthinking"):
        ends.append(i + 11)
    return ends


def _open_tag_end(s: str, i: int) -> int | None:
    """End of ``\\s*<\\s*NAME\\b[^<>]*>`` read at ``i``, or None."""
    i = _ws_end(s, i)
    if not s.startswith("<", i):
        return None
    i = _ws_end(s, i + 1)
    n = len(s)
    # A name must be followed by a word boundary; which name matched does not matter, the
    # attribute text runs to the first angle bracket either way.
    if not any(e >= n or s[e] not in _WORD_CHARS for e in _reasoning_name_ends(s, i)):
        return None
    m = _ANGLE.search(s, i)
    if m is None or m.group() != ">":
        return None
    return m.end()


def _close_tag_end(s: str, lt: int) -> int | None:
    """End of ``<\\s*/\\s*NAME\\s*>`` read at the ``<`` at ``lt``, or None."""
    i = _ws_end(s, lt + 1)
    if not s.startswith("/", i):
        return None
    i = _ws_end(s, i + 1)
    for e in _reasoning_name_ends(s, i):
        j = _ws_end(s, e)
        if s.startswith(">", j):
            return j + 1
    return None


def _strip_closed_reasoning_blocks(x: str) -> str:
    """Remove every leading closed reasoning block (§8.4, first bullet) and following spaces.

    Each block ends at the first closing tag after its opening tag. Every ``<`` tried as a
    closing tag is passed once: what a failed attempt reads (whitespace, a slash, a name)
    holds no other ``<``, so the whole walk is linear.
    """
    pos = 0
    n = len(x)
    while True:
        body = _open_tag_end(x, pos)
        if body is None:
            return x[pos:]
        lt = x.find("<", body)
        end: int | None = None
        while lt >= 0:
            end = _close_tag_end(x, lt)
            if end is not None:
                break
            lt = x.find("<", lt + 1)
        if end is None:
            return x[pos:]
        pos = _ws_end(x, end)
        if pos >= n:
            return ""


def _strip_plain_reasoning_prefix(x: str) -> str | None:
    """§8.4 third bullet: ``thinking:\\n…`` → the text after the prefix's last line feed."""
    head = ascii_lower(x[:9])
    n = len(x)
    for name in _PLAIN_NAMES:
        if not head.startswith(name):
            continue
        e = len(name)
        w1 = _ws_end(x, e)
        if w1 < n and x[w1] == ":":
            w2 = _ws_end(x, w1 + 1)
            lf = x.rfind("\n", w1 + 1, w2)
            if lf >= 0:
                return x[lf + 1 :]
        lf = x.rfind("\n", e, w1)
        if lf >= 0:
            return x[lf + 1 :]
    return None


def _strip_final_token(y: str, token: str) -> str | None:
    """``(?:^|[\\s*.])T\\s*$`` removed and the rest trimmed; None when nothing changed."""
    n = len(y)
    m = len(token)
    r = len(js_rtrim(y))
    pat = _token_re(token)
    # The token must reach into the trailing whitespace: for a regular token exactly one
    # start is possible, otherwise every start within the whitespace tail is tried.
    last = r - m if _regular(token) else n - m
    for p in range(max(0, r - m), last + 1):
        if not pat.match(y, p):
            continue
        if p == 0:
            cut = 0
        elif is_js_ws(y[p - 1]) or y[p - 1] in "*.":
            cut = p - 1
        else:
            continue
        stripped = js_trim(y[:cut])
        return None if stripped == js_trim(y) else stripped
    return None


# Silent-intent sentences (§8.4): subject, then one predicate, as word sequences.
_SUBJECTS = (
    ("i",),
    ("i'll",),
    ("i", "will"),
    ("i'm",),
    ("i", "am"),
    ("we",),
    ("we'll",),
    ("we", "will"),
    ("the", "assistant"),
    ("assistant",),
    ("the", "bot"),
    ("bot",),
    ("openclaw",),
)
_SCOPES: tuple[tuple[str, ...], ...] = (
    (),
    ("here",),
    ("for", "now"),
    ("on", "this"),
    *(("in", "this", place) for place in ("chat", "thread", "channel", "conversation")),
)
_NEGATIONS = (
    ("do", "not"),
    ("don't",),
    ("dont",),
    ("will", "not"),
    ("won't",),
    ("would", "not"),
    ("should", "not"),
)


def _predicates() -> frozenset[tuple[str, ...]]:
    out: set[tuple[str, ...]] = set()
    for will, verb, state, scope in itertools.product(
        ((), ("will",)), ("stay", "remain", "keep", "be"), ("quiet", "silent"), _SCOPES
    ):
        out.add((*will, verb, state, *scope))
    for neg, verb, scope in itertools.product(_NEGATIONS, ("reply", "respond"), _SCOPES):
        out.add((*neg, verb, *scope))
    for have, prep, verb in itertools.product(
        ("have", "has"), ("to", "for"), ("say", "add", "reply", "respond")
    ):
        out.add((have, "nothing", prep, verb))
    return frozenset(out)


_PREDICATES = _predicates()
_MAX_INTENT_WORDS = 2 + max(len(p) for p in _PREDICATES)


def _is_silent_intent(s: str) -> bool:
    """The whole string is a silent-intent sentence (§8.4), optionally ending in ``.!?``."""
    core = js_trim(s).rstrip(".!?")
    if not core or is_js_ws(core[-1]):
        return False
    words = _WS_SPLIT.split(core, maxsplit=_MAX_INTENT_WORDS)
    if len(words) > _MAX_INTENT_WORDS:
        return False
    low = tuple(ascii_lower(w) for w in words)
    return any(low[: len(subj)] == subj and low[len(subj) :] in _PREDICATES for subj in _SUBJECTS)


_CUE_WORDS = frozenset(
    ("answer", "please", "try", "use", "send", "resolved", "retry", "yes", "sure")
)
_CUE_PAIRS = {
    "here": ("is",),
    "tell": ("them",),
    "you": ("should", "can", "could", "need", "must"),
    "service": ("is",),
}


def _has_substantive_cue(s: str) -> bool:
    """A substantive cue (§8.4) with ASCII word boundaries, anywhere in ``s``."""
    n = len(s)
    for m in _ASCII_WORD.finditer(s):
        w = ascii_lower(m.group())
        e = m.end()
        if w in _CUE_WORDS:
            return True
        if w == "no":
            if e + 1 < n and s[e] == "," and s[e + 1] in _WORD_CHARS:
                return True
            continue
        if (
            w == "here"
            and s.startswith("'", e)
            and s[e + 1 : e + 2] in ("s", "S")
            and (e + 2 >= n or s[e + 2] not in _WORD_CHARS)
        ):
            return True
        seconds = _CUE_PAIRS.get(w)
        if seconds is None:
            continue
        j = _ws_end(s, e)
        if j == e:
            continue
        nxt = _ASCII_WORD.match(s, j)
        if nxt is not None and ascii_lower(nxt.group()) in seconds:
            return True
    return False


def _is_reasoning_placeholder(s: str) -> bool:
    """``[internal|private] reasoning|thinking|thought(s)|analysis [note(s)]``, whole string."""
    core = js_trim(s)
    if not core:
        return False
    words = [ascii_lower(w) for w in _WS_SPLIT.split(core, maxsplit=3)]
    if len(words) > 3:
        return False
    if words[0] in ("internal", "private"):
        words = words[1:]
    if not words or words[0] not in ("reasoning", "thinking", "thought", "thoughts", "analysis"):
        return False
    return words[1:] in ([], ["note"], ["notes"])


def _variant_a(y: str, token: str) -> bool:
    """After closed reasoning blocks: final token stripped, leaving nothing or silent intent."""
    w = _strip_final_token(y, token)
    return w is not None and (not w or _is_silent_intent(w))


def _variant_b(y: str, token: str) -> bool:
    """After an open tag or a plain prefix: variant A, or an intent line after plain notes."""
    w = _strip_final_token(y, token)
    if w is None:
        return False
    if not w or _is_silent_intent(w):
        return True
    lines = [t for t in (js_trim(line) for line in w.split("\n")) if t]
    if (
        len(lines) >= 2
        and _is_silent_intent(lines[-1])
        and not _has_substantive_cue("\n".join(lines[:-1]))
    ):
        return True
    return _is_reasoning_placeholder(w)


def _is_reasoning_prefixed_silent(text: str, token: str) -> bool:
    """TAGS.md §8.4."""
    x = js_trim(text)
    if not x:
        return False
    y = _strip_closed_reasoning_blocks(x)
    if y != x:
        return is_token_only(y, token) or _variant_a(y, token)
    opened = _open_tag_end(x, 0)
    if opened is not None:
        y = x[opened:]
        return is_token_only(y, token) or _variant_b(y, token)
    plain = _strip_plain_reasoning_prefix(x)
    if plain is None:
        return False
    return is_token_only(plain, token) or _variant_b(plain, token)


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
    if not u or utf16_len(u) > utf16_len(upper_token):
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
    ends = _run_ends(s, token)
    n = len(s)
    return any(e < n and unicodedata.category(s[e])[0] in "LN" for e in ends)


def _leading_tokens_end(s: str, token: str) -> tuple[int, int] | None:
    """``^\\s*T(?:\\s*T)*`` then ``\\s*``: (end of the last token, end of the match), or None.

    Each ``\\s*T`` takes the longest whitespace run after which the token matches, as the
    regex's first match does; a repetition that consumes nothing ends the run.
    """
    pat = _token_re(token)
    m = len(token)

    regular = _regular(token)

    def ws_then_token(i: int) -> int | None:
        w = _ws_end(s, i)
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
    return end, _ws_end(s, end)


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
