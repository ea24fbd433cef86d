"""IP literal parsing and the special-use ranges of the remote reference policy (MEDIA.md §8.1).

Addresses are handled as integers (32-bit IPv4, 128-bit IPv6) so range tests are two
shifts and a compare. Parsers here are strict and hand-written: they accept only ASCII,
never call ``int()`` on unbounded digit runs, and reject anything they cannot judge
exactly, because a host this module cannot parse is blocked by the policy (rule 5).
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

__all__ = [
    "BLOCKED_IPV4_RANGES",
    "BLOCKED_IPV6_RANGES",
    "IpRange",
    "blocked_ipv4_range",
    "blocked_ipv6_range",
    "embedded_ipv4",
    "format_ipv4",
    "format_ipv6",
    "is_canonical_dotted_decimal",
    "is_legacy_ipv4_literal",
    "legacy_ipv4_value",
    "parse_canonical_ipv4",
    "parse_ipv6",
]

_DEC = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_OCT = frozenset("01234567")


@dataclass(frozen=True, slots=True)
class IpRange:
    """One special-use block: its CIDR text, a human name, and the integer bounds."""

    cidr: str
    name: str
    version: int
    base: int
    prefix: int

    def contains(self, address: int) -> bool:
        """True when ``address`` (same version) lies inside this block."""
        bits = 32 if self.version == 4 else 128
        shift = bits - self.prefix
        return (address >> shift) == (self.base >> shift)


def _v4(cidr: str, name: str) -> IpRange:
    net = ipaddress.IPv4Network(cidr)
    return IpRange(cidr, name, 4, int(net.network_address), net.prefixlen)


def _v6(cidr: str, name: str) -> IpRange:
    net = ipaddress.IPv6Network(cidr)
    return IpRange(cidr, name, 6, int(net.network_address), net.prefixlen)


#: MEDIA.md §8.1 rule 4, IPv4. Broadcast precedes 240.0.0.0/4 so the more specific name wins
#: in messages; membership is a plain union, so the order never changes a verdict.
BLOCKED_IPV4_RANGES: tuple[IpRange, ...] = (
    _v4("0.0.0.0/8", "unspecified ('this network')"),
    _v4("10.0.0.0/8", "private"),
    _v4("100.64.0.0/10", "carrier-grade NAT"),
    _v4("127.0.0.0/8", "loopback"),
    _v4("169.254.0.0/16", "link-local (cloud metadata)"),
    _v4("172.16.0.0/12", "private"),
    _v4("192.0.0.0/24", "IETF protocol assignments"),
    _v4("192.0.2.0/24", "documentation (TEST-NET-1)"),
    _v4("192.88.99.0/24", "6to4 relay anycast"),
    _v4("192.168.0.0/16", "private"),
    _v4("198.18.0.0/15", "benchmarking"),
    _v4("198.51.100.0/24", "documentation (TEST-NET-2)"),
    _v4("203.0.113.0/24", "documentation (TEST-NET-3)"),
    _v4("224.0.0.0/4", "multicast"),
    _v4("255.255.255.255/32", "broadcast"),
    _v4("240.0.0.0/4", "reserved"),
)

#: MEDIA.md §8.1 rule 4, IPv6 (the embedded-IPv4 forms are checked by :func:`embedded_ipv4`).
#: More specific blocks come first so messages name the narrowest one.
BLOCKED_IPV6_RANGES: tuple[IpRange, ...] = (
    _v6("::/128", "unspecified"),
    _v6("::1/128", "loopback"),
    _v6("fe80::/10", "link-local"),
    _v6("fc00::/7", "unique local (private)"),
    _v6("ff00::/8", "multicast"),
    _v6("2001:2::/48", "benchmarking"),
    _v6("2001:20::/28", "ORCHIDv2"),
    _v6("2001::/23", "IETF protocol assignments"),
    _v6("2001:db8::/32", "documentation"),
    _v6("3fff::/20", "documentation"),
    _v6("100::/64", "discard-only"),
    _v6("fec0::/10", "deprecated site-local"),
    _v6("64:ff9b:1::/48", "local-use NAT64"),
)


def blocked_ipv4_range(address: int) -> IpRange | None:
    """The blocked special-use IPv4 block containing ``address``, if any."""
    for block in BLOCKED_IPV4_RANGES:
        if block.contains(address):
            return block
    return None


def blocked_ipv6_range(address: int) -> IpRange | None:
    """The blocked special-use IPv6 block containing ``address``, if any (not embedded IPv4)."""
    for block in BLOCKED_IPV6_RANGES:
        if block.contains(address):
            return block
    return None


def embedded_ipv4(address: int) -> tuple[int, str] | None:
    """The IPv4 address an IPv6 address carries, with the name of the mechanism, if any.

    Prefix forms are tried in the order the reference classifies them (mapped, RFC 6145,
    NAT64 well-known prefix, 6to4, Teredo), then IPv4-compatible and ISATAP.
    """
    h = [(address >> (112 - 16 * i)) & 0xFFFF for i in range(8)]
    low32 = address & 0xFFFFFFFF
    if h[0] == h[1] == h[2] == h[3] == h[4] == 0 and h[5] == 0xFFFF:
        return low32, "IPv4-mapped"
    if h[0] == h[1] == h[2] == h[3] == 0 and h[4] == 0xFFFF and h[5] == 0:
        return low32, "IPv4-translated (RFC 6145)"
    if h[0] == 0x64 and h[1] == 0xFF9B and h[2] == h[3] == h[4] == h[5] == 0:
        return low32, "NAT64 (64:ff9b::/96)"
    if h[0] == 0x2002:
        return (h[1] << 16) | h[2], "6to4"
    if h[0] == 0x2001 and h[1] == 0:
        return low32 ^ 0xFFFFFFFF, "Teredo"
    if h[0] == h[1] == h[2] == h[3] == h[4] == h[5] == 0:
        return low32, "IPv4-compatible"
    if (h[4] & 0xFCFF) == 0 and h[5] == 0x5EFE:
        return low32, "ISATAP"
    return None


def format_ipv4(address: int) -> str:
    """Dotted-decimal text of a 32-bit address."""
    return str(ipaddress.IPv4Address(address))


def format_ipv6(address: int) -> str:
    """RFC 5952 text of a 128-bit address."""
    return ipaddress.IPv6Address(address).compressed


def _dec_octet(part: str) -> int | None:
    """A canonical decimal octet: ``0`` or 1-3 digits without a leading zero, at most 255."""
    n = len(part)
    if n == 0 or n > 3 or not all(c in _DEC for c in part):
        return None
    if n > 1 and part[0] == "0":
        return None
    value = int(part)
    return value if value <= 255 else None


def parse_canonical_ipv4(s: str) -> int | None:
    """The address when ``s`` is canonical four-part dotted decimal (``1.2.3.4``), else None."""
    if len(s) > 15:
        return None
    parts = s.split(".")
    if len(parts) != 4:
        return None
    value = 0
    for part in parts:
        octet = _dec_octet(part)
        if octet is None:
            return None
        value = (value << 8) | octet
    return value


def is_canonical_dotted_decimal(s: str) -> bool:
    """True only for canonical four-part dotted-decimal IPv4 (no leading zeros, each <= 255)."""
    return parse_canonical_ipv4(s) is not None


def _strip_brackets(s: str) -> str:
    if len(s) >= 2 and s[0] == "[" and s[-1] == "]":
        return s[1:-1]
    return s


def _is_numeric_part(part: str) -> bool:
    """ASCII decimal digits (leading zeros allowed) or ``0x``/``0X`` followed by hex digits."""
    if not part:
        return False
    if len(part) > 2 and part[0] == "0" and part[1] in "xX":
        return all(c in _HEX for c in part[2:])
    return all(c in _DEC for c in part)


def is_legacy_ipv4_literal(s: str) -> bool:
    """MEDIA.md §8.1 rule 6: 1-4 dot-separated decimal or ``0x`` hex parts, not canonical.

    Octal spellings (``0177``) are decimal digit runs and so count; bare ``0x`` does not.
    """
    s = _strip_brackets(s)
    if not s or ":" in s or is_canonical_dotted_decimal(s):
        return False
    # Four parts of any sane size fit easily; a longer string still gets a linear scan.
    parts = s.split(".", 4)
    if len(parts) > 4:
        return False
    return all(_is_numeric_part(part) for part in parts)


def _number(part: str) -> int | None:
    """One WHATWG IPv4 number (decimal, ``0x`` hex, leading-zero octal); None when invalid."""
    if len(part) >= 2 and part[0] == "0" and part[1] in "xX":
        digits, base, alphabet = part[2:], 16, _HEX
    elif len(part) >= 2 and part[0] == "0":
        digits, base, alphabet = part[1:], 8, _OCT
    else:
        digits, base, alphabet = part, 10, _DEC
    if not all(c in alphabet for c in digits):
        return None
    digits = digits.lstrip("0")
    if not digits:
        return 0
    if len(digits) > 12:
        # Larger than any IPv4 number in every base; avoids int() on huge digit runs.
        return 1 << 40
    return int(digits, base)


def legacy_ipv4_value(s: str) -> int | None:
    """The address a browser would read from a legacy literal (``0x7f.1`` -> 127.0.0.1), if any.

    Used only to explain a rule-6 block; the verdict never depends on it.
    """
    s = _strip_brackets(s)
    if not is_legacy_ipv4_literal(s):
        return None
    parts = s.split(".")
    numbers = [_number(p) for p in parts]
    if any(n is None for n in numbers):
        return None
    values = [n for n in numbers if n is not None]
    *head, last = values
    if any(v > 255 for v in head) or last >= 256 ** (5 - len(values)):
        return None
    value = last
    for i, v in enumerate(head):
        value += v << (8 * (3 - i))
    return value


def _hextets(group: str, allow_ipv4_tail: bool) -> list[int] | None:
    """Parse ``a:b:c`` (no ``::``) into 16-bit pieces; the last piece may be dotted IPv4."""
    if not group:
        return []
    pieces = group.split(":")
    out: list[int] = []
    for index, piece in enumerate(pieces):
        if allow_ipv4_tail and index == len(pieces) - 1 and "." in piece:
            v4 = parse_canonical_ipv4(piece)
            if v4 is None:
                return None
            out.extend((v4 >> 16, v4 & 0xFFFF))
            continue
        if not 1 <= len(piece) <= 4 or not all(c in _HEX for c in piece):
            return None
        out.append(int(piece, 16))
    return out


def parse_ipv6(s: str) -> int | None:
    """The address when ``s`` is an RFC 4291 IPv6 text form (optionally bracketed), else None.

    Accepts ``::`` compression (once, for at least one group) and a dotted-decimal IPv4
    tail; rejects zone ids, hextets over four digits and non-canonical IPv4 tails, so such
    spellings stay "unparseable" and the policy blocks them (rule 5).
    """
    s = _strip_brackets(s)
    if not s or len(s) > 47 or ":" not in s or not s.isascii():
        return None
    head, compressed, tail = s.partition("::")
    if compressed and "::" in tail:
        return None
    if compressed:
        left = _hextets(head, allow_ipv4_tail=False)
        right = _hextets(tail, allow_ipv4_tail=True)
        # "::" stands for one or more zero groups (RFC 4291 2.2; WHATWG and ada agree), so
        # it cannot sit beside seven written groups.
        if left is None or right is None or len(left) + len(right) > 7:
            return None
        pieces = left + [0] * (8 - len(left) - len(right)) + right
    else:
        whole = _hextets(head, allow_ipv4_tail=True)
        if whole is None or len(whole) != 8:
            return None
        pieces = whole
    value = 0
    for piece in pieces:
        value = (value << 16) | piece
    return value
