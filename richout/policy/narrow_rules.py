"""The rules a :class:`~richout.policy.narrow.Policy` applies (MEDIA.md §7-§8, SECURITY.md).

A policy is a filter on what the reference policy (the baseline) *accepted*: it can refuse a
reference the baseline delivers, never deliver one the baseline refuses. Every test here is
lexical, like the baseline's: no DNS, no file system, no decoding beyond what the rule
says. Each refusal carries its own code ``media.policy.<rule>`` (:data:`POLICY_CODES`).

:class:`PolicyRules` holds the verdict (:meth:`PolicyRules.check`) and its rules by kind of
reference: remote hosts (IP literals, denied and allowed host patterns), ``media://inbound``,
and local paths (``file:`` URLs, UNC and device paths, protocol-relative ``//``, home paths,
hidden traversal, the workspace root). The helpers below it read host patterns and rooted
paths the same way for the rules and for :class:`~richout.policy.narrow.Policy`'s checks of
its own fields.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from richout.errors import InvalidInput, require_str
from richout.policy.fileurl import file_url_path
from richout.policy.ip import is_legacy_ipv4_literal, parse_canonical_ipv4
from richout.policy.local import is_windows_drive, strip_file_prefix
from richout.policy.remote import whatwg_parse
from richout.policy.verdict import OK, Verdict
from richout.text.chars import ascii_lower
from richout.text.quote import shown

__all__ = [
    "CONTROL",
    "POLICY_CODES",
    "SEPARATORS",
    "PolicyRules",
    "host_pattern",
    "path_anchor",
    "segments",
]

#: Every code a narrowed rule gives (severity ``error``), one per rule.
POLICY_CODES = frozenset(
    {
        "media.policy.control_character",
        "media.policy.protocol_relative",
        "media.policy.unc_path",
        "media.policy.file_url",
        "media.policy.file_url_host",
        "media.policy.home_path",
        "media.policy.inbound",
        "media.policy.local_file",
        "media.policy.encoded_traversal",
        "media.policy.outside_workspace",
        "media.policy.ip_host",
        "media.policy.host_denied",
        "media.policy.host_not_allowed",
    }
)

# C0, DEL and C1: what URL parsers strip or drop, and what some path steps remove.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
SEPARATORS = re.compile(r"[/\\]")
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
# Overlong UTF-8 spellings of '.', '/' and '\' that lenient decoders still map to them.
_OVERLONG = re.compile(r"%c0%ae|%e0%80%ae|%c0%af|%e0%80%af|%c1%9c", re.IGNORECASE)
_OVERLONG_MAP = {"%c0%ae": ".", "%e0%80%ae": ".", "%c0%af": "/", "%e0%80%af": "/", "%c1%9c": "\\"}
#: Decoding rounds tried before a reference counts as hiding traversal behind its encoding.
_DECODE_ROUNDS = 4
_HOST_FORBIDDEN = frozenset("/\\?#@ \t\r\n%")


def host_pattern(pattern: object, name: str) -> tuple[bool, str]:
    """``(wildcard, serialized host)`` of one host pattern, or InvalidInput."""
    if not isinstance(pattern, str):
        raise InvalidInput(f"{name} entries must be strings, got {type(pattern).__name__}")
    wildcard = pattern.startswith("*.")
    body = pattern[2:] if wildcard else pattern
    bracketed = body.startswith("[") and body.endswith("]")
    bad = (
        not body
        or "*" in body
        or any(c in _HOST_FORBIDDEN for c in body)
        or (":" in body and not bracketed)
    )
    parsed = None if bad else whatwg_parse(f"https://{body}/", ("hostname",))
    if parsed is None or not parsed["hostname"]:
        raise InvalidInput(
            f"{name} entry {pattern!r} is not a host pattern; write example.com (that host) "
            "or *.example.com (any subdomain of it)"
        )
    return wildcard, parsed["hostname"].rstrip(".")


def _matches(host: str, patterns: Sequence[tuple[bool, str]]) -> bool:
    return any(host.endswith("." + h) if wildcard else host == h for wildcard, h in patterns)


def path_anchor(path: str) -> tuple[str, str] | None:
    """``(anchor, rest)`` of a rooted path (``/``, ``X:``, UNC ``//``, home ``~``), else None."""
    if path == "~" or path.startswith(("~/", "~\\")):
        return "~", path[2:]
    if is_windows_drive(path):
        return path[0].lower() + ":", path[3:]
    if path[:1] in ("/", "\\"):
        if path[1:2] in ("/", "\\"):
            return "//", path[2:]
        # "\\x" is rooted on Windows but a relative name on POSIX: never the same as "/x".
        return path[0], path[1:]
    return None


def segments(parts: Iterable[str]) -> tuple[list[str], bool]:
    """Resolve ``.``, ``..`` and empty segments; True when ``..`` climbs above the anchor."""
    out: list[str] = []
    escaped = False
    for seg in parts:
        if seg in ("", "."):
            continue
        if seg == "..":
            if out:
                out.pop()
            else:
                escaped = True
            continue
        out.append(seg)
    return out, escaped


def _decode_percent(s: str) -> str:
    def one(m: re.Match[str]) -> str:
        return bytes.fromhex(m.group().replace("%", "")).decode("utf-8", "replace")

    return _ESCAPES.sub(one, _OVERLONG.sub(lambda m: _OVERLONG_MAP[m.group().lower()], s))


def _hidden_traversal(path: str) -> str | None:
    """The decoded form of ``path`` when it hides a ``..`` segment, else None.

    Hidden means: behind percent-encoding (up to four rounds, overlong UTF-8 included),
    control characters a later step may drop (``.\\0.``), compatibility characters
    (``‥``, fullwidth dots) or trailing dots and spaces that Windows removes (``.. ``).
    A path still holding escapes after four rounds hides what it is, and counts too.
    """
    t = path
    for _ in range(_DECODE_ROUNDS):
        if "%" not in t:
            break
        u = _decode_percent(t)
        if u == t:
            break
        t = u
    else:
        if _ESCAPES.search(t):
            return t
    t = unicodedata.normalize("NFKC", CONTROL.sub("", t))
    for seg in SEPARATORS.split(t):
        if ".." in seg and not seg.strip(". "):
            return t
    return None


def _rooted(path: str) -> bool:
    """Does ``path`` start with a separator?"""
    return path[:1] in ("/", "\\")


def _unc(path: str) -> bool:
    """UNC or device path: two leading separators (any mix), or the NT ``\\??\\`` prefix."""
    return (_rooted(path) and _rooted(path[1:])) or path[:4] in (
        "\\??\\",
        "/??/",
    )


class PolicyRules:
    """The verdict of a :class:`~richout.policy.narrow.Policy` on one reference.

    ``Policy`` is this class with its fields: the rules read the fields declared here, and
    ``Policy.__post_init__`` has checked them and compiled the host patterns (``_allow``,
    ``_deny``) and the workspace root (``_root``). Inherited, not delegated, so a check costs
    no extra call per reference.
    """

    __slots__ = ()

    # The fields of Policy the rules read (documented there); _allow, _deny and _root are
    # what its __post_init__ compiles from them.
    workspace_root: str | None
    allow_hosts: Sequence[str] | None
    deny_hosts: Sequence[str]
    allow_home_paths: bool
    allow_unc_paths: bool
    allow_file_urls: bool
    allow_inbound: bool
    allow_local_files: bool
    allow_control_characters: bool
    allow_protocol_relative: bool
    allow_encoded_traversal: bool
    allow_file_url_hosts: bool
    allow_ip_hosts: bool
    _allow: tuple[tuple[bool, str], ...] | None
    _deny: tuple[tuple[bool, str], ...]
    _root: tuple[str, tuple[str, ...]] | None

    def check(self, reference: str) -> Verdict:
        """The verdict on a reference the baseline accepted: ``OK`` or ``media.policy.<rule>``."""
        require_str(reference, "reference")
        if not self.allow_control_characters:
            m = CONTROL.search(reference)
            if m is not None:
                return Verdict(
                    False,
                    "media.policy.control_character",
                    f"{shown(reference)} contains the control character "
                    f"U+{ord(m.group()):04X} at position {m.start()}, which URL parsers and "
                    "path steps drop (policy allow_control_characters=False); write the "
                    "reference without control characters",
                )
        s = strip_file_prefix(reference)
        file_url = len(s) != len(reference)
        if file_url and not self.allow_file_urls:
            return Verdict(
                False,
                "media.policy.file_url",
                f"{shown(reference)} is a file: URL, and file: URLs are not delivered "
                "(policy allow_file_urls=False); write the path itself or an https:// URL",
            )
        head = ascii_lower(s[:8])
        if head == "https://":
            return self._remote(s)
        if head == "media://":
            return self._inbound(s)
        return self._local(reference, s, file_url)

    def _inbound(self, s: str) -> Verdict:
        if not self.allow_inbound:
            return Verdict(
                False,
                "media.policy.inbound",
                f"{shown(s)} is a media://inbound reference, and inbound media is not "
                "delivered (policy allow_inbound=False); attach the file another way",
            )
        if not self.allow_encoded_traversal:
            rest = s[8:]
            if ".." in rest or "%" in rest or CONTROL.search(rest):
                decoded = _hidden_traversal(rest)
                if decoded is not None:
                    return self._traversal(s, decoded)
        return OK

    def _traversal(self, s: str, decoded: str) -> Verdict:
        return Verdict(
            False,
            "media.policy.encoded_traversal",
            f"{shown(s)} hides a '..' segment (read as {shown(decoded)} once decoded or "
            "cleaned) (policy allow_encoded_traversal=False); write the plain path without "
            "'..', escapes or control characters",
        )

    def _remote(self, url: str) -> Verdict:
        parsed = whatwg_parse(url, ("hostname",))
        if parsed is None:  # pragma: no cover - the baseline accepted it, so it parses
            return OK
        host = parsed["hostname"].rstrip(".")
        if not self.allow_ip_hosts and (
            host.startswith("[")
            or parse_canonical_ipv4(host) is not None
            or is_legacy_ipv4_literal(host)
        ):
            return Verdict(
                False,
                "media.policy.ip_host",
                f"the host of {shown(url)} is the IP literal {host} "
                "(policy allow_ip_hosts=False); use a DNS name",
            )
        if _matches(host, self._deny):
            return Verdict(
                False,
                "media.policy.host_denied",
                f"host {host} matches a denied host pattern (policy deny_hosts="
                f"{list(self.deny_hosts)!r}); use another host",
            )
        if self._allow is not None and not _matches(host, self._allow):
            allowed = list(self.allow_hosts or ())
            return Verdict(
                False,
                "media.policy.host_not_allowed",
                f"host {host} matches no allowed host pattern (policy allow_hosts="
                f"{allowed!r}); use an allowed host",
            )
        return OK

    def _local(self, reference: str, s: str, file_url: bool) -> Verdict:
        path = s
        if file_url:
            converted = file_url_path(reference)
            if converted is not None:
                path = converted
            elif reference[: len(reference) - len(s)].endswith("//") and not _rooted(s):
                # file://host/… with a host other than localhost: a UNC path on Windows.
                host = SEPARATORS.split(s, 1)[0]
                if ascii_lower(host) != "localhost":
                    if not self.allow_file_url_hosts:
                        return Verdict(
                            False,
                            "media.policy.file_url_host",
                            f"{shown(reference)} is a file: URL with the host {shown(host)}, "
                            "which names a network share (policy allow_file_url_hosts=False); "
                            "write file:///path or the path itself",
                        )
                    path = "\\\\" + s
                else:
                    path = s[len(host) :]
        if not file_url and _rooted(path) and _rooted(path[1:]):
            if path[0] == "\\" and not self.allow_unc_paths:
                return self._unc_verdict(reference)
            if not self.allow_protocol_relative:
                return self._protocol_relative(reference)
        if not self.allow_unc_paths and _unc(path):
            return self._unc_verdict(reference)
        if not self.allow_home_paths and (path.startswith(("~/", "~\\")) or s.startswith("~")):
            return Verdict(
                False,
                "media.policy.home_path",
                f"{shown(reference)} is a home-directory path "
                "(policy allow_home_paths=False); write a workspace path",
            )
        if not self.allow_local_files:
            return Verdict(
                False,
                "media.policy.local_file",
                f"{shown(reference)} is a local file, and local files are not delivered "
                "(policy allow_local_files=False); use an https:// URL",
            )
        if not self.allow_encoded_traversal:
            decoded = _hidden_traversal(s)
            if decoded is not None:
                return self._traversal(reference, decoded)
        if self._root is not None and not self._inside(path):
            return Verdict(
                False,
                "media.policy.outside_workspace",
                f"{shown(reference)} is not inside the workspace {self.workspace_root!r} "
                "(policy workspace_root); write a path inside it, or one relative to it",
            )
        return OK

    @staticmethod
    def _protocol_relative(reference: str) -> Verdict:
        return Verdict(
            False,
            "media.policy.protocol_relative",
            f"{shown(reference)} starts with two slashes, which a URL resolver reads as a "
            "host (policy allow_protocol_relative=False); write https://host/… or a path "
            "with a single leading /",
        )

    @staticmethod
    def _unc_verdict(reference: str) -> Verdict:
        return Verdict(
            False,
            "media.policy.unc_path",
            f"{shown(reference)} is a UNC or device path, which opens a network share or a "
            "raw device (policy allow_unc_paths=False); write a local path",
        )

    def _inside(self, path: str) -> bool:
        """Is ``path`` strictly below the workspace root, lexically?"""
        assert self._root is not None
        anchor, root = self._root
        anchored = path_anchor(path)
        if anchored is None:
            segs, escaped = segments((*root, *SEPARATORS.split(path)))
        elif anchored[0] != anchor:
            return False
        else:
            segs, escaped = segments(SEPARATORS.split(anchored[1]))
        n = len(root)
        return not escaped and len(segs) > n and tuple(segs[:n]) == root
