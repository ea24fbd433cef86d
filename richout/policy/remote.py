"""Remote reference policy (MEDIA.md §8.1): https only, no credentials, blocked hostnames.

The policy is lexical, exactly like the reference: hosts are never resolved, so
``127.0.0.1.nip.io`` passes and every IPv6 literal fails (WHATWG serializes IPv6 without a
dot, so rule 2 catches it; README G18). URLs are parsed with ada-url, the WHATWG parser
Node itself uses; ``urllib`` would disagree on ``\\``, legacy IPv4 and IDNA.
"""

from __future__ import annotations

import re
from typing import cast

from ada_url import parse_url

from richout.policy.ip import (
    IpRange,
    blocked_ipv4_range,
    blocked_ipv6_range,
    embedded_ipv4,
    format_ipv4,
    is_legacy_ipv4_literal,
    legacy_ipv4_value,
    parse_canonical_ipv4,
    parse_ipv6,
)
from richout.policy.verdict import OK, Verdict
from richout.text.chars import ascii_lower, js_trim

__all__ = [
    "check_hostname",
    "check_remote",
    "normalize_hostname",
    "plain_host",
    "plain_host_ok",
    "remote_ok",
    "whatwg_parse",
]

# Each part read from ada costs a foreign call and a copy, so ask only for what is judged.
_REMOTE_PARTS = ("protocol", "username", "password", "hostname")
_BLOCKED_NAMES = frozenset({"localhost", "localhost.localdomain", "metadata.google.internal"})
_BLOCKED_SUFFIXES = (".localhost", ".local", ".internal")
_HOST_END = frozenset("/\\?#")
_HEXDIGITS = frozenset("0123456789abcdefABCDEF")
#: what a numeric host label (decimal, octal or ``0x`` hex, rules 4 and 6) starts with
_DIGITS = frozenset("0123456789")
# A plain https URL (see plain_host); each label ends at a dot, so no backtracking blowup.
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_PLAIN_HTTPS = re.compile(
    r"[Hh][Tt][Tt][Pp][Ss]://"
    rf"((?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*|(?:{_OCTET}\.){{3}}{_OCTET})"
    r"(?:[/?#][!-\[\]-~]*)?\Z"
)
_PLAIN_MAX = 2048


def _to_usv(s: str) -> str:
    """The string JavaScript's URL parser would see: paired surrogates joined, lone ones U+FFFD."""
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def whatwg_parse(
    s: str,
    parts: tuple[str, ...] = ("protocol", "username", "password", "hostname", "pathname"),
) -> dict[str, str] | None:
    """WHATWG-parse ``s`` (ada-url); the requested string parts, or None when parsing fails.

    Python strings may hold surrogate code points that UTF-8 cannot carry; JavaScript's
    ``new URL`` converts its argument to a USVString first, so do the same before retrying.
    """
    try:
        parsed = parse_url(s, parts)
    except ValueError:
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            try:
                parsed = parse_url(_to_usv(s), parts)
            except ValueError:
                return None
        else:
            return None
    # Only string parts are ever requested, so the TypedDict is a plain str mapping here.
    return cast("dict[str, str]", parsed)


def normalize_hostname(hostname: str) -> str:
    """Lower-case, drop one leading ``[`` and one trailing ``]``, drop all trailing dots."""
    h = js_trim(hostname).lower()
    if h.startswith("["):
        h = h[1:]
    if h.endswith("]"):
        h = h[:-1]
    return h.rstrip(".")


def _ip_reason(host: str, block: IpRange, written: str = "") -> str:
    return f"host {host}{written} is in the {block.name} range {block.cidr}"


def _ipv6_problem(address: int) -> str | None:
    """Why an IPv6 address is in blocked space (the IPv4 it embeds, or its own block), if it is.

    A blocked embedded address is named first ("embeds 127.0.0.1" says more than
    "2001::/23"), except the IPv4-compatible reading, which would call ``::1`` "0.0.0.1".
    """
    embedded: str | None = None
    carried = embedded_ipv4(address)
    if carried is not None:
        v4, how = carried
        v4_block = blocked_ipv4_range(v4)
        if v4_block is not None:
            embedded = (
                f"embeds {format_ipv4(v4)} ({how}), "
                f"which is in the {v4_block.name} range {v4_block.cidr}"
            )
    block = blocked_ipv6_range(address)
    if block is None or (embedded is not None and carried and carried[1] != "IPv4-compatible"):
        return embedded
    return f"is in the {block.name} range {block.cidr}"


def _ip_literal_verdict(h: str, shown: str) -> Verdict | None:
    """Profile ``next``: a canonical IPv4 or IPv6 literal is judged by its ranges alone.

    None when ``h`` is not such a literal (the name rules decide then).
    """
    v4 = parse_canonical_ipv4(h)
    if v4 is not None:
        block = blocked_ipv4_range(v4)
        if block is None:
            return OK
        return Verdict(False, "media.remote.ip_blocked", _ip_reason(h, block))
    if ":" not in h:
        return None
    v6 = parse_ipv6(h)
    if v6 is None:
        return None
    problem = _ipv6_problem(v6)
    if problem is None:
        return OK
    return Verdict(False, "media.remote.ip_blocked", f"host {shown} {problem}")


def check_hostname(hostname: str, *, ip_literal_first: bool = True) -> Verdict:
    """MEDIA §8.1 "blocked hostname" rules 1-6 on a serialized or raw hostname.

    With ``ip_literal_first`` (profile ``next``) an IP literal is judged before the name
    rules, so a public IPv6 literal passes; without it (the release) every IPv6 literal
    fails the single-label rule.
    """
    h = normalize_hostname(hostname)
    shown = hostname if hostname else "(empty)"
    # Rule 1: an empty name or any empty label.
    if not h or "" in h.split("."):
        return Verdict(
            False,
            "media.remote.host_blocked",
            f"host {shown} has an empty label; write a fully qualified public name",
        )
    # An IP literal without a colon ends in a numeric label, which starts with a digit and
    # ends with a hex digit; a host still ending in "]" after normalising is never asked,
    # as before. A name whose last label starts with a letter (".de", ".cafe") needs none.
    numeric = h[-1] in _HEXDIGITS and h[h.rfind(".") + 1] in _DIGITS
    if ip_literal_first and (numeric or ":" in h):
        literal = _ip_literal_verdict(h, shown)
        if literal is not None:
            return literal
    if "." not in h:
        # Rule 2. An IPv6 literal lands here too (WHATWG never writes one with a dot).
        if ":" in h:
            v6 = parse_ipv6(h)
            if v6 is not None:
                problem = _ipv6_problem(v6)
                extra = f"; the address {problem}" if problem else ""
                return Verdict(
                    False,
                    "media.remote.ipv6_literal",
                    f"host {shown} is an IPv6 literal, and IPv6 literal hosts are never "
                    f"delivered (the policy is lexical){extra}; use a public DNS name",
                )
        return Verdict(
            False,
            "media.remote.host_blocked",
            f"host {shown} is a single-label name (no dot), which is never public; "
            "use a fully qualified public name",
        )
    # Rule 3.
    if _blocked_name(h):
        return Verdict(
            False,
            "media.remote.host_blocked",
            f"host {shown} is a local or internal name (localhost, .localhost, .local, "
            ".internal and cloud metadata names are blocked)",
        )
    # Rules 4-6 need a numeric last label (every numeric part starts with a digit) or a
    # colon; ordinary names are accepted here without the IP parsers.
    if not numeric and ":" not in h:
        return OK
    # Rule 4: an IPv4 literal, or (for callers that do not canonicalise) an IPv6 one.
    literal = _ip_literal_verdict(h, shown)
    if literal is not None:
        return literal
    if ":" in h:
        # Rule 5.
        return Verdict(
            False,
            "media.remote.ip_blocked",
            f"host {shown} contains ':' but is not a parseable IP address",
        )
    # Rule 6.
    if is_legacy_ipv4_literal(h):
        value = legacy_ipv4_value(h)
        meaning = f" (read by browsers as {format_ipv4(value)})" if value is not None else ""
        return Verdict(
            False,
            "media.remote.ip_blocked",
            f"host {shown} is a legacy (short, octal or hex) IPv4 literal{meaning}; "
            "only canonical dotted-decimal IPv4 hosts are judged",
        )
    return OK


def _written_host(url: str) -> str:
    """The host as spelled in ``url`` (after ``//``, userinfo and port removed), lexically."""
    start = url.find("//")
    if start < 0:
        return ""
    start += 2
    end = start
    n = len(url)
    while end < n and url[end] not in _HOST_END:
        end += 1
    authority = url[start:end]
    authority = authority[authority.rfind("@") + 1 :]
    if authority.startswith("["):
        close = authority.find("]")
        return authority[: close + 1] if close >= 0 else authority
    colon = authority.rfind(":")
    return authority[:colon] if colon >= 0 else authority


def _invalid_url_reason(url: str) -> str:
    host_and_port = url[url.find("//") + 2 :] if "//" in url else ""
    host = _written_host(url)
    if not host:
        return "the URL has no host (WHATWG parsing failed); write https://host/path"
    end = 0
    while end < len(host_and_port) and host_and_port[end] not in _HOST_END:
        end += 1
    authority = host_and_port[:end]
    authority = authority[authority.rfind("@") + 1 :]
    port = authority[len(host) + 1 :] if authority.startswith(host + ":") else ""
    if port:
        digits = port.lstrip("0")
        if (
            not port.isascii()
            or not port.isdigit()
            or len(digits) > 5
            or (digits and int(digits) > 65535)
        ):
            return f"port {port[:20]!r} is not a number from 0 to 65535 (WHATWG parsing failed)"
    return f"{url[:80]!r} is not a valid URL (WHATWG parsing failed at host {host[:80]!r})"


def plain_host(url: str) -> str | None:
    """The host of ``url`` when it is a plain ``https://`` URL, lower-cased; else None.

    Plain means: the scheme, then a host, then nothing or a path, query or fragment of
    printable ASCII without ``\\``. The host is either one or more ASCII letter/digit/hyphen
    labels joined by single dots whose last label starts with a letter, or four decimal numbers
    from 0 to 255 without leading zeros. For such a URL the WHATWG parser cannot fail and
    reads exactly that host (lower-cased): no userinfo or port (no ``@`` or ``:`` before the
    first ``/?#``), no percent-decoding in the host, no IDNA work (ASCII without ``xn--``),
    no C0, space, tab or line break to strip; a name's last label is no number, so it is
    not read as IPv4, and an address already has the form its IPv4 reading writes. So its
    verdict is the hostname rules on that host alone.
    ``tests/test_fastpaths.py`` compares both on generated and hostile URLs.
    """
    if len(url) > _PLAIN_MAX:
        return None  # bounds the one regex pass on hostile input
    m = _PLAIN_HTTPS.match(url)
    if m is None:
        return None
    host = m.group(1).lower()
    return None if "xn--" in host else host


def plain_host_ok(host: str, *, ip_literal_first: bool = True) -> bool:
    """``check_hostname(host, ip_literal_first=...).ok`` for a host :func:`plain_host` gave.

    Such a name (its last label starts with a letter) is lower-case, trimmed and without
    brackets or empty labels, and cannot be an IP literal (rules 1 and 4-6 pass it): only
    the single-label rule and the blocked names decide, without the verdict's steps (about
    half of a plain URL's check). An address (four numbers) takes the full rules.
    ``tests/test_fastpaths.py`` compares both on every plain host of its URL sweep.
    """
    if host[host.rfind(".") + 1] in _DIGITS:
        return check_hostname(host, ip_literal_first=ip_literal_first).ok
    return "." in host and not _blocked_name(host)


def _blocked_name(h: str) -> bool:
    """Rule 3 on a normalised hostname: a local or internal name (the one test both
    :func:`check_hostname` and :func:`plain_host_ok` ask)."""
    return h in _BLOCKED_NAMES or h.endswith(_BLOCKED_SUFFIXES)


def _plain_https_ok(url: str, ip_literal_first: bool) -> bool:
    """Is ``url`` a plain ``https://`` URL (:func:`plain_host`) whose host the hostname
    rules accept? Every refusal goes through the full check, whose reason names what was
    written."""
    host = plain_host(url)
    return host is not None and plain_host_ok(host, ip_literal_first=ip_literal_first)


def check_remote(url: str, *, ip_literal_first: bool = True) -> Verdict:
    """MEDIA §8.1: WHATWG parse, https only, no username/password, hostname not blocked."""
    if _is_http(url):
        # Asked first, as remote_ok asks it: an http:// reference (a megabyte of refused
        # directive lines, explained) then costs no lexical pass and no new verdict.
        return _NOT_HTTPS
    if _plain_https_ok(url, ip_literal_first):
        return OK
    return _check_remote_full(url, ip_literal_first)


def remote_ok(url: str, *, ip_literal_first: bool = True) -> bool:
    """``check_remote(url).ok``, deciding a plain URL by its host alone whichever the answer
    (a refused plain host, such as ``localhost`` or ``192.168.1.20``, needs no WHATWG parse
    when no reason is asked for)."""
    if _is_http(url):
        # Refused whatever follows (as _check_remote_full says): no regex pass, no parse
        # and no reason built for the many http:// references a reply can hold.
        return False
    host = plain_host(url)
    if host is not None:
        return plain_host_ok(host, ip_literal_first=ip_literal_first)
    return _check_remote_full(url, ip_literal_first).ok


#: The one verdict on an ``http:`` URL (verdicts are frozen, so one object serves all).
_NOT_HTTPS = Verdict(
    False,
    "media.remote.not_https",
    "only https: URLs are delivered; use https://… instead of http://…",
)


def _is_http(url: str) -> bool:
    """Does ``url`` start with ``http://`` in any ASCII letter case (its fifth character
    tested first: most references asked about are ``https://``)?"""
    return url[4:5] == ":" and ascii_lower(url[:7]) == "http://"


def _check_remote_full(url: str, ip_literal_first: bool) -> Verdict:
    """:func:`check_remote` through the WHATWG parser (every URL the lexical check leaves)."""
    if _is_http(url):
        # The reference rejects http: whether or not the rest parses; say the real fix.
        return _NOT_HTTPS
    parsed = whatwg_parse(url, _REMOTE_PARTS)
    if parsed is None:
        return Verdict(False, "media.remote.invalid_url", _invalid_url_reason(url))
    protocol = parsed["protocol"]
    if protocol == "http:":
        return _NOT_HTTPS
    if protocol != "https:":
        return Verdict(
            False,
            "media.scheme_unsupported",
            f"the {protocol} scheme is not delivered; only https:// URLs are remote references",
        )
    if parsed["username"] or parsed["password"]:
        return Verdict(
            False,
            "media.remote.credentials",
            "the URL carries a username or password; remove the user:password@ part",
        )
    verdict = check_hostname(parsed["hostname"], ip_literal_first=ip_literal_first)
    if verdict.ok:
        return verdict
    written = js_trim(_written_host(url))
    if written and normalize_hostname(written) != normalize_hostname(parsed["hostname"]):
        return Verdict(
            False,
            verdict.code,
            f"{verdict.reason} (written {written[:80]!r} in the URL)",
        )
    return verdict
