"""Inbound media-store references ``media://inbound/<id>`` (MEDIA.md §8.2).

The WHATWG parse resolves dot segments before the id is read, so ``x/../y.png`` names
``y.png``; the raw authority is compared as written because the parsed hostname cannot
tell ``inbound``, ``inbound:``, ``inbound:80`` and ``user@inbound`` apart.
"""

from __future__ import annotations

import re

from richout.policy.remote import whatwg_parse
from richout.policy.verdict import OK, Verdict
from richout.text.chars import ascii_lower, js_trim

__all__ = ["check_inbound", "decode_uri_component", "parse_inbound"]

_PREFIX = "media://"
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_AUTHORITY_END = frozenset("/?#")
_HEX = frozenset("0123456789abcdefABCDEF")
_INBOUND_PARTS = ("username", "password", "hostname", "pathname", "search", "hash")


def _decode_ascii(s: str) -> str | None:
    """The ASCII case (every WHATWG path): gather all bytes, then one strict UTF-8 decode.

    Decoding the whole buffer at once is equivalent to JavaScript's escape-by-escape
    decoding because literal ASCII bytes can neither complete nor continue a multi-byte
    sequence, so any run that is malformed on its own stays malformed here.
    """
    pieces = s.split("%")
    buf = bytearray(pieces[0], "ascii")
    for piece in pieces[1:]:
        if len(piece) < 2 or piece[0] not in _HEX or piece[1] not in _HEX:
            return None
        buf.append(int(piece[:2], 16))
        buf += piece[2:].encode("ascii")
    try:
        return buf.decode("utf-8")
    except UnicodeDecodeError:
        return None


def decode_uri_component(s: str) -> str | None:
    """JavaScript ``decodeURIComponent``; None where it would throw ``URIError``.

    Runs of ``%XX`` escapes must be well-formed UTF-8 (no surrogates, no overlongs), and a
    ``%`` that does not start an escape is an error.
    """
    if "%" not in s:
        return s
    if s.isascii():
        return _decode_ascii(s)
    out: list[str] = []
    pos = 0
    for match in _ESCAPES.finditer(s):
        if "%" in s[pos : match.start()]:
            return None
        out.append(s[pos : match.start()])
        try:
            out.append(bytes.fromhex(match.group().replace("%", "")).decode("utf-8"))
        except UnicodeDecodeError:
            return None
        pos = match.end()
    if "%" in s[pos:]:
        return None
    out.append(s[pos:])
    return "".join(out)


def _raw_authority(source: str) -> str:
    rest = source[len(_PREFIX) :]
    end = 0
    n = len(rest)
    while end < n and rest[end] not in _AUTHORITY_END:
        end += 1
    return rest[:end]


def _problem(s: str) -> tuple[str | None, str]:
    """The decoded id, or None and the rule that failed."""
    source = js_trim(s)
    if ascii_lower(source[: len(_PREFIX)]) != _PREFIX:
        return None, "it does not start with media://"
    parsed = whatwg_parse(source, _INBOUND_PARTS)
    if parsed is None:
        return None, "it is not a valid URL (WHATWG parsing failed)"
    authority = _raw_authority(source)
    if parsed["hostname"] != "inbound" or authority != "inbound":
        shown = repr(authority[:80]) if authority else "(missing)"
        if "@" in authority:
            why = "user information is not allowed"
        elif ":" in authority:
            why = "a port (even an empty one) is not allowed"
        elif ascii_lower(authority) == "inbound":
            why = "the location is case-sensitive and must be lower-case"
        else:
            why = "only the inbound store exists"
        return None, f"the location {shown} must be exactly 'inbound' ({why})"
    if parsed["username"] or parsed["password"]:
        return None, "user information is not allowed"
    if parsed["search"]:
        return None, "a query (?…) is not allowed"
    if parsed["hash"]:
        return None, "a fragment (#…) is not allowed"
    ident = decode_uri_component(parsed["pathname"].lstrip("/"))
    if ident is None:
        return None, "the id has a malformed percent-escape"
    if not ident:
        if source[len(_PREFIX) + len(authority) :].strip("/"):
            return None, "the id is empty once dot segments (., .., %2e%2e) are resolved"
        return None, "the id is empty; write media://inbound/<id>"
    if ident in (".", ".."):
        return None, f"the id {ident!r} is a dot segment"
    if "/" in ident or "\\" in ident:
        return None, "the id contains a path separator (/ or \\, possibly percent-encoded)"
    if "\0" in ident:
        return None, "the id contains a NUL character"
    return ident, ""


def parse_inbound(s: str) -> str | None:
    """The decoded id when ``s`` is a valid ``media://inbound/<id>``, else None."""
    return _problem(s)[0]


def check_inbound(s: str) -> Verdict:
    """MEDIA §8.2 as a verdict: code ``media.inbound.invalid`` naming the failed rule."""
    ident, why = _problem(s)
    if ident is not None:
        return OK
    return Verdict(False, "media.inbound.invalid", f"media://inbound reference rejected: {why}")
