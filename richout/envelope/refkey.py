"""Media reference equality (ENVELOPE.md §3): two references are the same when keys match.

The current comparator normalises local paths the way Node's ``path.posix.normalize`` does
(never resolving ``..`` in plain paths), reads ``file:`` URLs with the WHATWG parser and
compares everything else (remote URLs, relative paths) as exact strings. The legacy
comparator of older releases is kept behind ``legacy=True``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from ada_url import parse_url

from richout.errors import InvalidInput, require_bool, require_str
from richout.text.chars import ascii_lower, js_trim

__all__ = ["NormalizeMedia", "posix_normalize", "ref_key", "ref_keys", "same_ref"]

#: A host hook mapping one reference to its workspace-resolved variants.
NormalizeMedia = Callable[[str], Iterable[str]]

#: Prefix that keeps ``file:////host/x`` keys apart from every plain path.
LOCAL_NETWORK_MARKER = "\u0000file-url-local-network:"

# A ".." segment bounded by the start/end of the string, "/" or "\" on each side.
_PARENT_SEGMENT = re.compile(r"(?:^|[\\/])\.\.(?:[\\/]|$)")
_ENCODED_SEPARATOR = re.compile(r"%(?:2[fF]|5[cC])")
_HEX = frozenset("0123456789abcdefABCDEF")


def posix_normalize(path: str) -> str:
    """Node's ``path.posix.normalize``: collapse ``//``, drop ``.``, resolve ``..``, keep ``/``.

    Unlike ``posixpath.normpath``, a leading ``//`` collapses to ``/`` and a trailing ``/``
    survives.
    """
    require_str(path, "path")
    if path == "":
        return "."
    absolute = path.startswith("/")
    trailing = path.endswith("/")
    parts: list[str] = []
    for seg in path.split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if parts and parts[-1] != "..":
                parts.pop()
            elif not absolute:
                parts.append("..")
            continue
        parts.append(seg)
    body = "/".join(parts)
    if not body and not absolute:
        body = "."
    if body and trailing:
        body += "/"
    return "/" + body if absolute else body


def _has_parent_segment(path: str) -> bool:
    return _PARENT_SEGMENT.search(path) is not None


def _plain_key(t: str) -> str:
    """Step 2: absolute POSIX paths without ``..`` are normalised; anything else is exact."""
    if t.startswith("/") and not t.startswith("//") and not _has_parent_segment(t):
        return posix_normalize(t)
    return t


def _local_key(p: str) -> str:
    """``local(p)``: a decoded file-URL path; ``//host`` paths never equal a plain path."""
    if p.startswith("//"):
        if _has_parent_segment(p):
            return LOCAL_NETWORK_MARKER + p
        return LOCAL_NETWORK_MARKER + "//" + posix_normalize(p[2:])
    return _plain_key(p)


def _percent_decode_utf8(s: str) -> str | None:
    """``decodeURIComponent`` on a URL path: None on a malformed escape or invalid UTF-8."""
    if "%" not in s:
        return s
    out = bytearray()
    i = 0
    n = len(s)
    while i < n:
        ch = s[i]
        if ch == "%":
            if i + 2 >= n or s[i + 1] not in _HEX or s[i + 2] not in _HEX:
                return None
            out.append(int(s[i + 1 : i + 3], 16))
            i += 3
            continue
        try:
            out += ch.encode("utf-8")
        except UnicodeEncodeError:
            return None
        i += 1
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _parse_file_url(t: str) -> tuple[str, str] | None:
    """(hostname, pathname) of a WHATWG-parsed ``file:`` URL, or None when it does not parse."""
    try:
        parts = parse_url(t)
    except (ValueError, UnicodeError):
        return None
    if parts.get("protocol") != "file:":
        return None
    return str(parts.get("hostname") or ""), str(parts.get("pathname") or "")


def _fallback_key(t: str) -> str:
    """Step 4: strip ``file://`` or ``file:`` and read what is left as a local path."""
    rest = t[7:] if ascii_lower(t[:7]) == "file://" else t[5:]
    if rest.startswith("/"):
        return _local_key(rest)
    if ascii_lower(rest[:9]) == "localhost" and (len(rest) == 9 or rest[9] == "/"):
        return _local_key(rest[9:])
    return t


def _current_key(t: str) -> str:
    if ascii_lower(t[:5]) != "file:":
        return _plain_key(t)
    parsed = _parse_file_url(t)
    if parsed is not None:
        host, path = parsed
        if _ENCODED_SEPARATOR.search(path):
            return t
        if host == "":
            decoded = _percent_decode_utf8(path)
            if decoded is not None:
                return _local_key(decoded)
    return _fallback_key(t)


def _legacy_key(t: str) -> str:
    if ascii_lower(t[:7]) != "file://":
        return t
    try:
        parts = parse_url(t)
    except (ValueError, UnicodeError):
        parts = None
    if parts is not None and parts.get("protocol") == "file:":
        decoded = _percent_decode_utf8(str(parts.get("pathname") or ""))
        if decoded is not None:
            return decoded
    return t[7:]


@functools.lru_cache(maxsize=4096)
def _cached_key(t: str, legacy: bool) -> str:
    return _legacy_key(t) if legacy else _current_key(t)


def ref_key(ref: str, *, legacy: bool = False) -> str:
    """The comparison key of one media reference; ``""`` (blank input) never matches."""
    if not isinstance(ref, str):
        raise InvalidInput(f"ref (a media reference) must be a string, got {type(ref).__name__}")
    if type(legacy) is not bool:
        require_bool(legacy, "legacy")
    t = js_trim(ref)
    if not t:
        return ""
    if len(t) > 2048:
        # Dedupe asks for the same few references again and again; huge ones are not kept.
        return _legacy_key(t) if legacy else _current_key(t)
    return _cached_key(t, legacy)


def ref_keys(
    ref: str, *, legacy: bool = False, normalize_media: NormalizeMedia | None = None
) -> list[str]:
    """Every non-empty key of ``ref`` and of its host-resolved variants, first one first."""
    keys: list[str] = []
    first = ref_key(ref, legacy=legacy)
    if first:
        keys.append(first)
    if normalize_media is not None:
        try:
            variants = list(normalize_media(ref))
        except Exception:  # a host hook failing must not stop dedupe; the plain key stands
            variants = []
        for variant in variants:
            if isinstance(variant, str):
                key = ref_key(variant, legacy=legacy)
                if key and key not in keys:
                    keys.append(key)
    return keys


def same_ref(a: str, b: str, *, legacy: bool = False) -> bool:
    """True when ``a`` and ``b`` name the same media (equal, non-empty keys)."""
    require_str(a, "a")
    require_str(b, "b")
    ka = ref_key(a, legacy=legacy)
    return bool(ka) and ka == ref_key(b, legacy=legacy)
