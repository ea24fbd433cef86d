"""Local-path shape tests of the reference policy (MEDIA.md §1.5-§1.7, §6.6, §8.3).

Every test is lexical and mirrors a JavaScript check of the reference: ASCII letters only
for drive letters and schemes, ``/`` and ``\\`` both separate segments, ``$`` means the
very end of the string (Python's ``$`` would also match before a final newline, so no
pattern here relies on it). All functions are O(len(s)) with no backtracking.
"""

from __future__ import annotations

import re

__all__ = [
    "has_file_extension",
    "has_file_extension_in",
    "has_local_shape",
    "has_scheme_prefix",
    "is_likely_local_path",
    "is_supported_home",
    "is_traversal",
    "is_traversal_or_unsupported_home",
    "is_unsupported_home",
    "is_windows_drive",
    "looks_local",
    "starts_at_root",
    "strip_file_prefix",
]

_ASCII_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# Anchored with match(); one quantifier followed by a literal, so at most one linear pass.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_SEGMENT_SPLIT = re.compile(r"[/\\]")


def strip_file_prefix(s: str) -> str:
    """MEDIA §1.7: remove one leading ``file:`` (+ optional ``//``), ASCII case-insensitive."""
    # s[3] first: most strings with a colon there are http: URLs, which it turns away.
    if len(s) >= 5 and s[4] == ":" and s[3] in "eE" and s[:4].isascii() and s[:4].lower() == "file":
        return s[7:] if s[5:7] == "//" else s[5:]
    return s


def has_scheme_prefix(s: str) -> bool:
    """MEDIA §1.6: ``[A-Za-z][A-Za-z0-9+.-]*:`` at the start of ``s``."""
    return _SCHEME.match(s) is not None


_EXTENSION_AT_END = re.compile(r"\.[A-Za-z0-9_]{1,10}\Z")


def has_file_extension(s: str) -> bool:
    """MEDIA §1.5: ``.`` followed by 1-10 ASCII word characters at the very end of ``s``."""
    return has_file_extension_in(s, 0, len(s))


def has_file_extension_in(s: str, a: int, b: int) -> bool:
    """:func:`has_file_extension` of ``s[a:b]`` without copying it (one C-level search).

    Only the last 11 characters can hold the dot and its run, so the search is bounded
    there: a 1 MB string of dots costs what a short one does.
    """
    return _EXTENSION_AT_END.search(s, max(a, b - 11), b) is not None


def is_windows_drive(s: str) -> bool:
    """``X:\\`` or ``X:/`` at the start, X an ASCII letter."""
    return len(s) >= 3 and s[0] in _ASCII_LETTERS and s[1] == ":" and s[2] in "/\\"


def is_supported_home(s: str) -> bool:
    """``~/`` or ``~\\``: the only home-relative forms the reference accepts."""
    return s.startswith(("~/", "~\\"))


def is_unsupported_home(s: str) -> bool:
    """Starts with ``~`` but not ``~/`` or ``~\\`` (``~``, ``~user/x``)."""
    return s.startswith("~") and not is_supported_home(s)


def is_traversal(s: str) -> bool:
    """``../`` prefix, exactly ``..``, or ``..`` as a whole ``/``- or ``\\``-bounded segment."""
    if s.startswith("../") or s == "..":
        return True
    if ".." not in s:
        return False
    return any(seg == ".." for seg in _SEGMENT_SPLIT.split(s))


def is_traversal_or_unsupported_home(s: str) -> bool:
    """MEDIA §8.3 traversal / unsupported home form (hard reject)."""
    return is_traversal(s) or is_unsupported_home(s)


def _has_separator(s: str) -> bool:
    return "/" in s or "\\" in s


def has_local_shape(s: str) -> bool:
    """The positive half of the local-path test (callers must reject traversal first)."""
    return (
        s.startswith(("/", "./", "~/", "~\\", "\\\\"))
        or is_windows_drive(s)
        or (_has_separator(s) and not has_scheme_prefix(s))
    )


def is_likely_local_path(s: str) -> bool:
    """MEDIA §8.3 local-path test: the accepting test for local references."""
    return not is_traversal_or_unsupported_home(s) and has_local_shape(s)


def looks_local(s: str) -> bool:
    """MEDIA §8.3 "looks local": decides whether a rejected directive is hidden (§9.2)."""
    return (
        s.startswith(("/", "./", "../", "~", "\\\\"))
        or is_windows_drive(s)
        or (_has_separator(s) and not has_scheme_prefix(s))
    )


def starts_at_root(s: str) -> bool:
    """MEDIA §6.6 root: ``X:\\`` ``X:/`` ``/`` ``~`` ``./`` ``../`` ``.\\`` ``..\\`` ``\\\\``."""
    return s.startswith(("/", "~", "./", "../", ".\\", "..\\", "\\\\")) or is_windows_drive(s)
