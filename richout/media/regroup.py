"""MEDIA §6.6: whitespace tokens regrouped into parts, and what regrouping asks of a token.

A token joins the part before it when that part's cleaned value starts at a root, the token
begins no independent source, and the part did not already end with a file extension that
the token, judged alone, would spoil. The facts of a token depend on its text alone, so each
distinct text is read once (:func:`token_facts`), and two shapes are read from their
characters (:data:`WORD_TOKEN`, :data:`PLAIN_PATH`); a grown part keeps its clean start and
rootedness and reads its new end from the new token (:func:`regroup`).
:mod:`richout.media.payload` judges the parts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from string import ascii_letters

from richout.media.cleaning import LEAD_CHARS, Cleaner, begins_independent_at, file_prefix_len
from richout.policy.local import has_file_extension_in, starts_at_root

__all__ = [
    "PLAIN_PATH",
    "PLAIN_PATH_CHARS",
    "WORD_CHARS",
    "WORD_TOKEN",
    "is_plain_path",
    "may_be_rooted",
    "plain_path_run",
    "read_token_facts",
    "regroup",
    "token_facts",
]

#: first characters of a part whose cleaned value may start at a root (§6.6): wrapper
#: characters (cleaning removes them) and ``/ ~ . \\``; an ASCII letter only as an ``X:``
#: drive or a ``file:`` prefix (:func:`may_be_rooted`). A part starting with anything else
#: is never rooted, so no token can join it.
_MAYBE_ROOTED = frozenset(LEAD_CHARS + "/~.\\")
_LETTERS = frozenset(ascii_letters)


#: Tokens whose §6.6 facts and §6.7 fate follow from their characters, answered without
#: cleaning or judging them (a payload of 150k distinct tokens would otherwise run the
#: general steps 150k times; ``tests/test_media_payload.py`` checks both answers against
#: the general path under every profile).
#:
#: A *word*: ASCII letters, digits, ``_`` and ``-``. No wrapper or trailing character, so
#: cleaning keeps it whole; no ``:``, so no file prefix, drive or scheme; no ``/ \\ ~ .``, so
#: no root, no local shape and no extension: §7 refuses it, it does not look local, and a
#: part that is one word is left visible.
WORD_CHARS = r"A-Za-z0-9_\-"
WORD_TOKEN = re.compile(f"[{WORD_CHARS}]+")
#: A *plain absolute path*: ``/`` then word characters, ``-``, ``.`` and ``/``, and (checked
#: apart) no ``..``. Cleaning keeps it whole, it starts at a root, and §7 accepts its local
#: shape (no traversal, no home form) up to ``MAX_REFERENCE_UNITS``
#: (:mod:`richout.policy.verdict`).
PLAIN_PATH_CHARS = WORD_CHARS + "./"
PLAIN_PATH = re.compile(f"/[{PLAIN_PATH_CHARS}]*")


def is_plain_path(s: str) -> bool:
    """Is ``s`` a :data:`PLAIN_PATH` holding no ``..``? (Its verdict also asks its length.)"""
    return PLAIN_PATH.fullmatch(s) is not None and ".." not in s


# Plain paths and blanks, and a blank before a token that does not start at "/": one
# character class each, so a 1 MB line cannot make them backtrack.
_PATHS_AND_BLANKS = re.compile(f"[{PLAIN_PATH_CHARS} \t]*")
_UNROOTED_TOKEN = re.compile(r"[ \t][^/ \t]")


def plain_path_run(s: str, a: int, b: int) -> bool:
    """Is ``s[a:b]`` one or more :data:`PLAIN_PATH` tokens separated (and possibly ended)
    by spaces and tabs, none holding ``..``? Each such token is its own part, accepted
    (§6.6-§6.7); the caller checks ``MAX_REFERENCE_UNITS`` per token."""
    return (
        s.startswith("/", a, b)
        and _PATHS_AND_BLANKS.fullmatch(s, a, b) is not None
        and _UNROOTED_TOKEN.search(s, a, b) is None
        and s.find("..", a, b) < 0
    )


def may_be_rooted(p: str, ts: int) -> bool:
    """Could the cleaned value of a part starting at ``ts`` start at a root (§6.6)? Not when
    its first character rules it out (:data:`_MAYBE_ROOTED`), nor when it starts with an
    ASCII letter followed by no colon (a drive: broader than ``X:/`` or ``X:\\``, on
    purpose) and begins no ``file:`` prefix (any letter case)."""
    c = p[ts]
    if c in _MAYBE_ROOTED:
        return True
    return c in _LETTERS and (
        p[ts + 1 : ts + 2] == ":"
        or (p[ts + 4 : ts + 5] == ":" and p[ts : ts + 4].lower() == "file")
    )


def _rooted_value(p: str, cl: Cleaner, a: int, b: int) -> tuple[int, int, bool]:
    """Bounds of ``clean(p[a:b])`` without one file prefix, and whether it starts at a root."""
    x, y, _ = cl.bounds(a, b)
    x += file_prefix_len(p, x, y)
    return x, y, starts_at_root(p[x : min(y, x + 3)])


def token_facts(
    p: str, cl: Cleaner, ts: int, te: int, memo: dict[str, tuple[int, int, bool, bool]]
) -> tuple[int, int, bool, bool]:
    """What regrouping asks of one token, memoised on its text.

    ``(start, end, independent, rooted)``: the bounds of its cleaned value without one file
    prefix (offsets into the token), whether it begins an independent source, and whether
    that value starts at a root. Each is a function of the token's text alone (cleaning of a
    slice reads nothing outside it), so a payload of repeated tokens answers each once, and
    a word or plain absolute path is answered from its characters.
    """
    key = p[ts:te]
    facts = memo.get(key)
    if facts is None:
        if WORD_TOKEN.fullmatch(key) is not None:
            facts = (0, te - ts, False, False)
        elif is_plain_path(key):
            facts = (0, te - ts, True, True)
        else:
            facts = read_token_facts(p, cl, ts, te)
        memo[key] = facts
    return facts


def read_token_facts(p: str, cl: Cleaner, ts: int, te: int) -> tuple[int, int, bool, bool]:
    """:func:`token_facts` by the general steps: clean, strip a file prefix, test the root."""
    cx, cy, rooted = _rooted_value(p, cl, ts, te)
    # The value judged here has already lost one file prefix; beginning an independent
    # source cleans and strips it a second time (reference quirk).
    return cx - ts, cy - ts, begins_independent_at(cl, cx, cy), rooted


def regroup(
    p: str, cl: Cleaner, tokens: list[tuple[int, int]], ok: Callable[[str], bool]
) -> list[list[int]]:
    """MEDIA §6.6: merge tokens into parts; each part is ``[start, end, absorbed]``.

    A token can only join a part whose cleaned value starts at a root; a part whose first
    characters rule that out (:func:`may_be_rooted`) skips the question. Tokens are judged
    through :func:`token_facts`, once per distinct text.
    """
    parts: list[list[int]] = []
    memo: dict[str, tuple[int, int, bool, bool]] = {}
    last: list[int] = []
    #: the last part may be rooted: its first character does not rule it out
    maybe = False
    #: the last part is still one token (its facts are its token's)
    single = False
    # Clean bounds and rootedness of a grown last part, recomputed only when it grows.
    grown: tuple[int, int, bool] | None = None
    # A grown part that starts after the last JSON tail's "." (Cleaner.last_cut_dot; its
    # clean start px is after it exactly when its start is, as a file prefix holds no ".")
    # cleans to its last token's end (the whitespace before that token stops the strip),
    # and its clean start and rootedness read at most ten characters from the start (a
    # file prefix, then a root): once the part reaches past them, growing it changes only
    # the end, found from the new token alone. (A part of two tokens is already past them;
    # the length test below is conservative.)
    last_dot = cl.last_cut_dot()
    # The facts of the last part's token when this loop has already looked them up.
    last_facts: tuple[int, int, bool, bool] | None = None
    # Whether a file extension ends the grown part (None: not known yet). A grown part that
    # ends with a token after whitespace has that token's cleaned end, and an extension's
    # run cannot cross the whitespace: both are the token's own, kept per distinct text.
    grown_ext: bool | None = None
    tails: dict[str, tuple[int, bool]] = {}
    for ts, te in tokens:
        facts = None
        if maybe:
            if single:
                if last_facts is None:
                    last_facts = token_facts(p, cl, last[0], last[1], memo)
                fx, fy, _, rooted = last_facts
                px, py = last[0] + fx, last[0] + fy
            else:
                if grown is None:
                    grown = _rooted_value(p, cl, last[0], last[1])
                    grown_ext = None
                px, py, rooted = grown
            if rooted:
                # The memo looked up here, not in a call: this runs once per token.
                key = p[ts:te]
                facts = memo.get(key)
                if facts is None:
                    facts = token_facts(p, cl, ts, te, memo)
                cx, cy, independent, _ = facts
                if not independent:
                    prev_ext = grown_ext
                    if prev_ext is None:
                        prev_ext = has_file_extension_in(p, px, py)
                    if not prev_ext or not ok(p[ts + cx : ts + cy]):
                        if last[2] == -1:
                            last[2] = 1 if prev_ext else 0
                        last[1] = te
                        if single or last_dot >= px or py < px + 10:
                            grown = grown_ext = None
                        else:
                            tail = tails.get(key)
                            if tail is None:
                                end = cl.end_after_token(ts, te)
                                tail = tails[key] = (end - ts, has_file_extension_in(p, ts, end))
                            grown = (px, ts + tail[0], rooted)
                            grown_ext = tail[1]
                        single = False
                        continue
        last = [ts, te, -1]
        parts.append(last)
        c = p[ts]  # may_be_rooted, its call made only for a letter (once per part)
        maybe = c in _MAYBE_ROOTED or (c in _LETTERS and may_be_rooted(p, ts))
        single = True
        grown = grown_ext = None
        last_facts = facts
    return parts
