"""The reference policy: is one candidate reference deliverable? (MEDIA.md §7-§8).

``check_reference`` explains (a :class:`Verdict` with a §17.2 code and a human reason);
``is_valid_reference`` makes the same decision on the hot path without building one.
Layer 3, beside `markdown/`; modules:

- `verdict` -- `Verdict`, `OK` and the rejection codes.
- `remote` -- `https:` URLs: WHATWG parse, credentials, blocked hosts (§7).
- `ip` -- IP literals and the special-use ranges that are never delivered.
- `local` -- local paths: traversal, home directories, drive letters (§8).
- `inbound` -- `media://inbound/<id>` references.
- `fileurl` -- a local `file:` URL read as a path (TAGS.md §7.2).
- `narrow` / `narrow_rules` -- a gateway's `Policy` and the rules it narrows with.
"""

from __future__ import annotations

__all__ = [
    "OK",
    "POLICY_CODES",
    "REJECTION_CODES",
    "Policy",
    "Verdict",
    "check_hostname",
    "check_inbound",
    "check_reference",
    "check_remote",
    "has_file_extension",
    "has_scheme_prefix",
    "is_likely_local_path",
    "is_traversal_or_unsupported_home",
    "is_valid_reference",
    "looks_local",
    "parse_inbound",
    "starts_at_root",
    "strip_file_prefix",
]

from richout.policy.inbound import check_inbound, parse_inbound
from richout.policy.local import (
    has_file_extension,
    has_local_shape,
    has_scheme_prefix,
    is_likely_local_path,
    is_traversal,
    is_traversal_or_unsupported_home,
    looks_local,
    starts_at_root,
    strip_file_prefix,
)
from richout.policy.narrow import Policy
from richout.policy.narrow_rules import POLICY_CODES
from richout.policy.remote import (
    check_hostname,
    check_remote,
    plain_host,
    plain_host_ok,
    remote_ok,
)
from richout.policy.verdict import MAX_REFERENCE_UNITS, OK, REJECTION_CODES, Verdict
from richout.profiles import NEXT, Profile
from richout.text.chars import ascii_lower, has_js_ws, utf16_len
from richout.text.quote import shown


def _too_long(s: str) -> bool:
    n = len(s)
    # Each code point is 1 or 2 units, so only the middle band needs counting.
    if n <= MAX_REFERENCE_UNITS // 2:
        return False
    if n > MAX_REFERENCE_UNITS:
        return True
    return utf16_len(s) > MAX_REFERENCE_UNITS


_HTTP = 1
_MEDIA = 2


def _url_kind(s: str) -> int:
    """``_HTTP`` for an ``http://``/``https://`` prefix, ``_MEDIA`` for ``media://``, else 0."""
    if s.startswith("https://"):
        return _HTTP  # the usual spelling, without the letter-case fold below
    first = s[0]
    if first in "hH":
        head = ascii_lower(s[:8])
        if head.startswith("http://") or head == "https://":
            return _HTTP
    elif first in "mM" and ascii_lower(s[:8]) == "media://":
        return _MEDIA
    return 0


def is_valid_reference(
    candidate: str,
    *,
    allow_spaces: bool = False,
    allow_bare_filename: bool = False,
    profile: Profile = NEXT,
) -> bool:
    """MEDIA §7 as a bare decision: the same answer as ``check_reference(...).ok``, faster."""
    if candidate[:8] == "https://":
        # The common reference, decided by its host alone when it is plain (what remote_ok
        # does below, without the five steps before it, which such a URL passes: no file
        # prefix, no whitespace, not too long; 1.5 against 1.0 µs).
        host = plain_host(candidate)
        if host is not None:
            return plain_host_ok(host, ip_literal_first=profile.ip_literal_first)
    s = strip_file_prefix(candidate)
    if not s or _too_long(s):
        return False
    if not allow_spaces and has_js_ws(s):
        return False
    kind = _url_kind(s)
    if kind == _HTTP:
        return remote_ok(s, ip_literal_first=profile.ip_literal_first)
    if kind == _MEDIA and profile.inbound_media:
        return parse_inbound(s) is not None
    # Traversal is a hard reject before both the local shape and the bare-filename fallback.
    if is_traversal_or_unsupported_home(s):
        return False
    if has_local_shape(s):
        return True
    return allow_bare_filename and not has_scheme_prefix(s) and has_file_extension(s)


def bare_fallback_ok(candidate: str) -> bool:
    """``is_valid_reference(candidate, allow_bare_filename=True)`` for a ``candidate`` that
    holds no whitespace and that ``is_valid_reference(candidate)`` refused.

    Bare filenames are weighed after every other rule, and a refused string fell through
    all of them or was refused by one that also refuses it here (length, a URL, traversal),
    so only that last rule remains: no scheme, and a file extension. The whole-payload
    fallback of every refused token asks this (``tests/test_policy.py`` compares the two).
    """
    s = strip_file_prefix(candidate)
    return (
        has_file_extension(s)
        and not has_scheme_prefix(s)
        and not is_traversal_or_unsupported_home(s)
        and not _too_long(s)
    )


def bare_name_ok(candidate: str) -> bool:
    """``is_valid_reference(candidate, allow_bare_filename=True)`` for a ``candidate`` that
    holds no whitespace and none of ``: / \\ ~``.

    Such a string has no file prefix, URL, scheme, local shape or home form, and its only
    traversal is ``..`` itself, so only the bare-filename rule can accept it: not empty, not
    too long, a file extension (``tests/test_policy.py`` compares the two on drawn names).
    """
    # An extension (a dot, then 1-10 word characters, at the end) rules out "" and "..".
    return has_file_extension(candidate) and not _too_long(candidate)


def _whitespace_reason(s: str) -> str:
    for index, ch in enumerate(s):
        if has_js_ws(ch):
            return (
                f"it contains whitespace (U+{ord(ch):04X} at position {index}); "
                "quote the whole reference or percent-encode the space"
            )
    return "it contains whitespace"  # pragma: no cover - has_js_ws said there is some


def _unrecognised(s: str, allow_bare_filename: bool) -> Verdict:
    """The §17.2 code and reason for a candidate that fell through every accepting rule."""
    if has_scheme_prefix(s):
        scheme = s[: s.index(":")]
        lower = ascii_lower(scheme)
        if len(scheme) == 1:
            return Verdict(
                False,
                "media.not_a_reference",
                f"{shown(s)} is a drive-relative Windows path; write {scheme}:\\… or {scheme}:/…",
            )
        if lower in ("http", "https"):
            return Verdict(
                False,
                "media.not_a_reference",
                f"{shown(s)} lacks the // after {scheme}:; write https://host/path",
            )
        if lower == "media":
            if not s.startswith("//", len(scheme) + 1):
                return Verdict(
                    False,
                    "media.not_a_reference",
                    f"{shown(s)} is another MEDIA: directive on the same line, read as part "
                    "of this payload; put each MEDIA: directive on its own line",
                )
            return Verdict(
                False,
                "media.not_a_reference",
                f"{shown(s)} is not a media:// reference; write media://inbound/<id>",
            )
        if lower == "file":
            return Verdict(
                False,
                "media.not_a_reference",
                "only one file: prefix is removed and what remains still has a scheme; "
                "write a single file:///path",
            )
        return Verdict(
            False,
            "media.scheme_unsupported",
            f"the {scheme}: scheme is not delivered; use https://, media://inbound/ "
            "or a local path",
        )
    if has_file_extension(s):
        # Only reachable with bare filenames disallowed.
        return Verdict(
            False,
            "media.not_a_reference",
            f"{shown(s)} is a bare filename, accepted only as the whole MEDIA: payload; "
            "write ./" + s[:60] + " or an absolute path",
        )
    why = (
        "a name without / or \\ must end with a file extension such as .png"
        if allow_bare_filename
        else "a name without / or \\ is accepted only as the whole MEDIA: payload"
    )
    return Verdict(
        False,
        "media.not_a_reference",
        f"{shown(s)} is not a path, https:// URL or media://inbound reference ({why})",
    )


def check_reference(
    candidate: str,
    *,
    allow_spaces: bool = False,
    allow_bare_filename: bool = False,
    profile: Profile = NEXT,
) -> Verdict:
    """MEDIA §7: strip one file prefix, then length, whitespace, remote, inbound, local rules.

    ``profile`` decides the rules that differ between upstreams: whether ``media://inbound``
    is delivered and whether IP literal hosts are judged before the name rules.
    """
    s = strip_file_prefix(candidate)
    if not s:
        return Verdict(False, "media.not_a_reference", "the reference is empty")
    if _too_long(s):
        return Verdict(
            False,
            "media.too_long",
            f"the reference is {utf16_len(s)} UTF-16 units long; "
            f"at most {MAX_REFERENCE_UNITS} are accepted",
        )
    if not allow_spaces and has_js_ws(s):
        return Verdict(False, "media.not_a_reference", _whitespace_reason(s))
    kind = _url_kind(s)
    if kind == _HTTP:
        return check_remote(s, ip_literal_first=profile.ip_literal_first)
    if kind == _MEDIA:
        if profile.inbound_media:
            return check_inbound(s)
        return Verdict(
            False,
            "media.scheme_unsupported",
            f"profile {profile.name} does not deliver media:// references; "
            "use an https:// URL or a local path",
        )
    if is_likely_local_path(s):
        return OK
    if is_traversal(s):
        return Verdict(
            False,
            "media.local.traversal",
            f"{shown(s)} climbs out of its directory with '..'; "
            "use an absolute or workspace-relative path without '..' segments",
        )
    if is_traversal_or_unsupported_home(s):
        return Verdict(
            False,
            "media.local.unsupported_home",
            f"{shown(s)} starts with '~' but not '~/'; other users' home directories "
            "are not supported, write ~/… or an absolute path",
        )
    if allow_bare_filename and not has_scheme_prefix(s) and has_file_extension(s):
        return OK
    return _unrecognised(s, allow_bare_filename)
