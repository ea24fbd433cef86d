"""A ``MEDIA:`` payload of one token (MEDIA.md §6-§7), the shape most directives have.

Apart from :mod:`richout.media.payload`, whose general steps reduce to these for such a
payload: no list, no unwrapping, one part whose whole-payload value is the payload itself.
"""

from __future__ import annotations

import re

from richout.media.cleaning import LEAD_CHARS, TRAIL_CHARS, Cleaner, begins_independent
from richout.media.fates import Item, PayloadResult, plain_path
from richout.media.judge import Judge
from richout.policy import bare_fallback_ok, bare_name_ok, strip_file_prefix
from richout.policy.local import has_scheme_prefix, looks_local, starts_at_root
from richout.text.chars import JS_WS_CLASS

__all__ = [
    "BARE_TOKEN",
    "bare_token_reference",
    "read_clean_token",
    "rooted_or_schemed",
    "single_token",
]


def single_token(p: str, judge: Judge, res: PayloadResult, *, clean: bool = False) -> PayloadResult:
    """The steps for a payload without whitespace that is no explicit quoted list and
    does not unwrap from one pair of quotes (most start with no quote, backtick or ``[``).

    Such a payload is no list, is not unwrapped, is one part, and its whole-payload value is
    the payload itself: the general path reduces to one clean, one verdict, the count of a
    hidden rejection, and the bare-filename fallback. Most directives take this path. A
    plain absolute path (:func:`plain_path`) is accepted whole and looks local, without the
    clean and the verdict (:func:`_read_steps`).
    """
    if plain_path(p):
        n = len(p)
        res.parts = 1
        res.value_bounds = (0, n)
        res.looks_local = True
        res.accepted = [Item(p, 0, n, False, "part", False, "")]
        return res
    return _read_steps(p, judge, res, clean=clean)


#: What a string needs to be a URL, a scheme, a file prefix, a local shape or a home form.
_PATH_MARK = re.compile(r"[:/\\~]")


def _read_steps(p: str, judge: Judge, res: PayloadResult, *, clean: bool = False) -> PayloadResult:
    """:func:`single_token` by the general steps. ``clean``: the caller knows that cleaning
    keeps ``p`` whole (a :data:`~richout.media.heads.PLAIN_DIRECTIVE` token), so ``p`` is the
    candidate, as it is again when the §6.6 test re-cleans it."""
    n = len(p)
    res.parts = 1
    res.value_bounds = (0, n)
    if clean:
        ca, cb, cut = 0, n, False
        candidate = p
    else:
        ca, cb, cut = Cleaner(p).bounds(0, n)
        candidate = p[ca:cb]
    if _PATH_MARK.search(p) is None:
        return _bare_name(p, ca, cb, cut, candidate, res=res)
    local = looks_local(p)
    res.looks_local = local or strip_file_prefix(p) != p
    if judge.ok(candidate):
        res.accepted = [Item(candidate, 0, n, cut, "part", False, p[cb:n])]
        return res
    if judge.profile.hide_rejected and (
        (local if clean else looks_local(candidate))
        or (rooted_or_schemed(candidate) if clean else begins_independent(candidate))
    ):
        res.counted = [(0, n, candidate)]
        res.rejected = [(0, n, candidate, True, False)]
    else:
        res.leftovers = [(0, n)]
        res.rejected = [(0, n, candidate, True, True)]
    # The whole-payload fallback of a token (no whitespace: the spaces switch cannot change
    # the answer) refused above, without the judge's key and memo, which a distinct
    # refused line pays for and never reads again.
    if bare_fallback_ok(candidate):
        res.accepted = [Item(candidate, ca, n, cut, "fallback", tail=p[cb:n])]
        res.leftovers = []
        res.rejected = [r for r in res.rejected if not r[4]]
        return res
    res.fallback_failed = (ca, cb, candidate)
    return res


def _bare_name(
    p: str, ca: int, cb: int, cut: bool, candidate: str, *, res: PayloadResult
) -> PayloadResult:
    """:func:`_read_steps` of a token holding none of ``: / \\ ~`` (``=.1]``, ``"a.b``).

    No rule of §7 but the bare-filename fallback accepts a slice of it, and none looks local,
    begins an independent source or has a file prefix: the token is refused as a part and
    left visible, then accepted whole when it is a bare filename (:func:`bare_name_ok`). The
    general steps ask the judge four questions for that (11-16 µs a distinct line).
    """
    n = len(p)
    if bare_name_ok(candidate):
        res.accepted = [Item(candidate, ca, n, cut, "fallback", tail=p[cb:n])]
        return res
    res.leftovers = [(0, n)]
    res.rejected = [(0, n, candidate, True, True)]
    res.fallback_failed = (ca, cb, candidate)
    return res


#: A payload :func:`bare_token_reference` answers: no whitespace, none of ``: / \ ~``, and
#: no quote but perhaps its first character.
_BARE_CHAR = f"[^{JS_WS_CLASS}:/\\\\~\"'`]"
BARE_TOKEN = re.compile(f"(?:{_BARE_CHAR}|[\"'`]){_BARE_CHAR}*")


def bare_token_reference(p: str) -> str | None:
    """What the payload steps deliver from a :data:`BARE_TOKEN` payload ``p``: its cleaned
    text when that is a bare filename, else None (the token is refused, left visible, not
    counted under any profile, and does not look local).

    Such a payload is no explicit list and unwraps from no pair of quotes (either needs a
    second quote), so it is :func:`single_token`'s, which reads it by :func:`_bare_name`;
    its cleaning cuts no serialized-JSON tail (that needs a quote after the cleaned start).
    Cleaning is then the two strips, and the verdict the bare-filename rule: the fused
    split reads a distinct such line without the steps' records (a megabyte of
    ``MEDIA:"=.1]`` lines took 13 µs a line through them).
    """
    name = p.lstrip(LEAD_CHARS).rstrip(TRAIL_CHARS)
    return name if bare_name_ok(name) else None


def rooted_or_schemed(candidate: str) -> bool:
    """:func:`~richout.media.cleaning.begins_independent` of a string cleaning keeps whole."""
    rest = strip_file_prefix(candidate)
    return starts_at_root(rest) or has_scheme_prefix(rest)


def read_clean_token(p: str, judge: Judge) -> PayloadResult:
    """:func:`~richout.media.payload.analyse_payload` of a payload that is one token cleaning
    keeps whole and that opens no list: a :data:`~richout.media.heads.PLAIN_DIRECTIVE` token
    with nothing after it (``tests/test_fastpaths.py`` compares the two)."""
    return single_token(p, judge, PayloadResult(), clean=True)
