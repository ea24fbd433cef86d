"""A local ``file:`` URL read as a POSIX path (TAGS.md §7.2).

Both the delivery view (``file_url_to_path``) and a gateway ``Policy`` (which judges the path
a ``file:`` URL names) need this one conversion, so it lives with the local-reference rules.
"""

from __future__ import annotations

from richout.errors import require_str
from richout.policy.remote import whatwg_parse
from richout.text.chars import ascii_lower

__all__ = ["file_url_path", "file_url_to_path", "has_file_scheme"]

_HEX = frozenset("0123456789abcdefABCDEF")


def has_file_scheme(ref: str) -> bool:
    """Could the WHATWG parser see the scheme ``file:`` in ``ref`` (it skips leading C0
    controls and spaces, and drops tabs and line breaks)? False rules a ``file:`` URL out
    (``file_url_to_path`` then returns ``ref``); ``tests/test_reply.py`` checks it against
    the parser."""
    first = ref[:1]
    if first > " " and first not in "fF":
        return False  # most references: nothing skipped, and no "f" to start the scheme
    n = len(ref)
    i = 0
    while i < n and ref[i] <= " ":
        i += 1
    head: list[str] = []
    while i < n and len(head) < 5:
        c = ref[i]
        i += 1
        if c not in "\t\n\r":
            head.append(c)
    return ascii_lower("".join(head)) == "file:"


def _decode_uri_component(s: str) -> str | None:
    """JavaScript ``decodeURIComponent``: every ``%XX`` decoded as strict UTF-8; None on error."""
    out: list[str] = []
    i = 0
    n = len(s)
    while i < n:
        j = s.find("%", i)
        if j < 0:
            out.append(s[i:])
            break
        out.append(s[i:j])
        buf = bytearray()
        while j < n and s[j] == "%":
            h1, h2 = s[j + 1 : j + 2], s[j + 2 : j + 3]
            if not h1 or not h2 or h1 not in _HEX or h2 not in _HEX:
                return None
            buf.append(int(h1 + h2, 16))
            j += 3
        try:
            out.append(buf.decode("utf-8"))
        except UnicodeDecodeError:
            return None
        i = j
    return "".join(out)


def file_url_path(ref: str) -> str | None:
    """The local path of a ``file:`` URL with an empty host (§7.2), or None."""
    if not has_file_scheme(ref):
        return None
    parts = whatwg_parse(ref)
    if parts is None or parts.get("protocol") != "file:" or parts.get("hostname") != "":
        return None
    path = parts.get("pathname", "")
    low = ascii_lower(path)
    if "%2f" in low or "%5c" in low:
        return None
    return _decode_uri_component(path)


def file_url_to_path(ref: str) -> str:
    """TAGS.md §7.2: a local ``file:`` URL as a POSIX path; any other reference unchanged."""
    require_str(ref, "ref")
    path = file_url_path(ref)
    return ref if path is None else path
