"""Reasoning readers of the silent rule §8.4 (TAGS.md): thinking blocks, prefixes, intent.

A reply can be silent after the model's reasoning: closed ``<think>…</think>`` blocks, an open
reasoning tag, or a plain ``thinking:`` prefix, followed by the token, optionally after a
silent-intent sentence ("I will stay quiet."). This module reads those pieces with forward
scanners (the reference's regexes backtrack badly on ``<think`` runs); how they combine into
the rule §8.4 is decided in :mod:`richout.tags.silent`.

The silent-intent grammar is a finite set of word sequences, so a sentence is split into at
most nine words and looked up.
"""

from __future__ import annotations

import itertools
import re

from richout.tags.scan import ws_end
from richout.tags.silent_tokens import is_regular_token, token_pattern
from richout.text.chars import JS_WS_CLASS, ascii_lower, is_js_ws, js_rtrim, js_trim

__all__ = [
    "open_tag_end",
    "strip_closed_reasoning_blocks",
    "strip_plain_reasoning_prefix",
    "variant_a",
    "variant_b",
]

_WS_SPLIT = re.compile(f"[{JS_WS_CLASS}]+")
_ASCII_WORD = re.compile(r"[A-Za-z0-9_]+")
_ANGLE = re.compile(r"[<>]")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")

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


def open_tag_end(s: str, i: int) -> int | None:
    """End of ``\\s*<\\s*NAME\\b[^<>]*>`` read at ``i``, or None."""
    i = ws_end(s, i)
    if not s.startswith("<", i):
        return None
    i = ws_end(s, i + 1)
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
    i = ws_end(s, lt + 1)
    if not s.startswith("/", i):
        return None
    i = ws_end(s, i + 1)
    for e in _reasoning_name_ends(s, i):
        j = ws_end(s, e)
        if s.startswith(">", j):
            return j + 1
    return None


def strip_closed_reasoning_blocks(x: str) -> str:
    """Remove every leading closed reasoning block (§8.4, first bullet) and following spaces.

    Each block ends at the first closing tag after its opening tag. Every ``<`` tried as a
    closing tag is passed once: what a failed attempt reads (whitespace, a slash, a name)
    holds no other ``<``, so the whole walk is linear.
    """
    pos = 0
    n = len(x)
    while True:
        body = open_tag_end(x, pos)
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
        pos = ws_end(x, end)
        if pos >= n:
            return ""


def strip_plain_reasoning_prefix(x: str) -> str | None:
    """§8.4 third bullet: ``thinking:\\n…`` → the text after the prefix's last line feed."""
    head = ascii_lower(x[:9])
    n = len(x)
    for name in _PLAIN_NAMES:
        if not head.startswith(name):
            continue
        e = len(name)
        w1 = ws_end(x, e)
        if w1 < n and x[w1] == ":":
            w2 = ws_end(x, w1 + 1)
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
    pat = token_pattern(token)
    # The token must reach into the trailing whitespace: for a regular token exactly one
    # start is possible, otherwise every start within the whitespace tail is tried.
    last = r - m if is_regular_token(token) else n - m
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
        j = ws_end(s, e)
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


def variant_a(y: str, token: str) -> bool:
    """After closed reasoning blocks: final token stripped, leaving nothing or silent intent."""
    w = _strip_final_token(y, token)
    return w is not None and (not w or _is_silent_intent(w))


def variant_b(y: str, token: str) -> bool:
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
