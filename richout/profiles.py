"""Profiles: which upstream behaviour richout reproduces (PROFILES.md).

A profile is data: a small frozen record of rule choices that the layers consult. Adding an
upstream release means a new record, its conformance cases, and only the switches that are
really new; the pipelines stay one.

``next`` (the default) follows the newest upstream ``parse-output.ts`` (the one that reports
``rejectedMediaCount``); ``release-2026.9.6`` follows the published package
``openclaw@2026.9.6``. UPSTREAM.md names the sources and every deliberate deviation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType

from richout.errors import InvalidInput, InvalidOptions

__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "resolve_profile"]


@dataclass(frozen=True, slots=True)
class Profile:
    """One upstream behaviour as a set of rule switches (PROFILES.md)."""

    #: the name callers pass (``profile="next"``)
    name: str
    #: one line saying what it reproduces
    description: str
    #: lines end at CR, CRLF and LF and keep their own terminator (False: LF only)
    cr_lines: bool
    #: ``MEDIA:`` opens a directive after JavaScript ``\\s*`` in ASCII case only (True), or
    #: when the left-trimmed line's first six UTF-16 units upper-case to ``MEDIA:`` (False)
    ascii_media_prefix: bool
    #: one backtick after ``MEDIA:`` and its spaces is skipped before the payload
    skip_leading_backtick: bool
    #: explicit quoted lists split into one reference per member (PROFILES.md rule 3)
    quoted_lists: bool
    #: a whitespace part written in quotes is unwrapped, not cleaned, and an empty
    #: whole-payload unwrap stands for every part (False: parts are cleaned as written)
    unwrap_quoted_parts: bool
    #: policy-rejected references leave the text and are counted (``rejected_media_count``)
    hide_rejected: bool
    #: ``media://inbound/<id>`` references are delivered
    inbound_media: bool
    #: the host check reads an IP literal first, so public IPv6 literal hosts pass
    ip_literal_first: bool
    #: a Markdown image may span lines (label, destination or title across line breaks)
    multiline_images: bool
    #: rewritten text has its whitespace normalised (CRLF to LF, blank-line runs to two,
    #: space runs between words to one) as the published release does
    normalize_rewritten_whitespace: bool

    def __post_init__(self) -> None:
        # A record built by hand (dataclasses.replace(NEXT, cr_lines=0)) is checked here:
        # the layers read the switches as bools, and the compiled build would raise a bare
        # TypeError on the first one read.
        for f in fields(self):
            value = getattr(self, f.name)
            wanted = str if f.name in ("name", "description") else bool
            if type(value) is not wanted:
                raise InvalidInput(
                    f"Profile.{f.name} must be a {wanted.__name__}, got {type(value).__name__}"
                )


NEXT = Profile(
    name="next",
    description=(
        "the newest upstream parser (parse-output.ts reporting rejectedMediaCount) over the "
        "tag, reply and canvas code of the 009d683 era; the default"
    ),
    cr_lines=True,
    ascii_media_prefix=True,
    skip_leading_backtick=True,
    quoted_lists=True,
    unwrap_quoted_parts=True,
    hide_rejected=True,
    inbound_media=True,
    ip_literal_first=True,
    multiline_images=True,
    normalize_rewritten_whitespace=False,
)

RELEASE_2026_9_6 = Profile(
    name="release-2026.9.6",
    description="the published package openclaw@2026.9.6, what deployed gateways run",
    cr_lines=False,
    ascii_media_prefix=False,
    skip_leading_backtick=True,
    quoted_lists=False,
    unwrap_quoted_parts=False,
    hide_rejected=False,
    inbound_media=False,
    ip_literal_first=False,
    multiline_images=False,
    normalize_rewritten_whitespace=True,
)

#: The default profile's name.
DEFAULT_PROFILE = NEXT.name

#: Every known profile by name (read-only).
_BY_NAME: dict[str, Profile] = {p.name: p for p in (NEXT, RELEASE_2026_9_6)}
PROFILES: Mapping[str, Profile] = MappingProxyType(_BY_NAME)


def resolve_profile(profile: str | Profile, name: str = "profile") -> Profile:
    """The :class:`Profile` named ``profile`` (a record is returned as it is).

    Raises :class:`InvalidOptions` naming the known profiles for an unknown name, and
    :class:`~richout.errors.InvalidInput` for a value that is neither a name nor a record.
    """
    if type(profile) is str:
        found = _BY_NAME.get(profile)
        if found is not None:
            return found
        known = ", ".join(repr(k) for k in PROFILES)
        raise InvalidOptions(f"unknown {name} {profile!r}; known profiles: {known}")
    if isinstance(profile, Profile):
        return profile
    raise InvalidInput(
        f"{name} must be a profile name (one of {', '.join(PROFILES)}), "
        f"got {type(profile).__name__}"
    )
