"""Verdicts: what the policy says about one reference, and the codes a rejection can carry."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_REFERENCE_UNITS", "OK", "REJECTION_CODES", "Verdict"]

#: Every code a rejected candidate can carry (MEDIA.md §17.2, without ``media.line_removed``,
#: which is about a directive line, not a candidate).
REJECTION_CODES = frozenset(
    {
        "media.remote.not_https",
        "media.remote.invalid_url",
        "media.remote.credentials",
        "media.remote.host_blocked",
        "media.remote.ip_blocked",
        "media.remote.ipv6_literal",
        "media.inbound.invalid",
        "media.local.traversal",
        "media.local.unsupported_home",
        "media.too_long",
        "media.scheme_unsupported",
        "media.not_a_reference",
    }
)

#: MEDIA.md §7 rule 2, in UTF-16 code units.
MAX_REFERENCE_UNITS = 4096


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a reference is acceptable; when not, the §17.2 code and a human reason."""

    ok: bool
    code: str | None = None
    reason: str = ""


#: The accepted verdict; every accepting path returns this one object.
OK = Verdict(True)
