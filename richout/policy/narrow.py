"""A policy a gateway can tighten: :class:`Policy` narrows the profile's reference policy.

The reference policy (MEDIA.md §7-§8) is the baseline and decides how every payload is read.
A :class:`Policy` is then a filter on what the baseline *accepted*: it can refuse a
reference the baseline delivers, never deliver one the baseline refuses. Every test here is
lexical, like the baseline's: no DNS, no file system, no decoding beyond what the rule
says. Each refusal carries its own code ``media.policy.<rule>`` (:data:`POLICY_CODES`).
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from richout.errors import InvalidInput, InvalidOptions, require_str
from richout.policy.fileurl import file_url_path
from richout.policy.ip import is_legacy_ipv4_literal, parse_canonical_ipv4
from richout.policy.local import is_windows_drive, strip_file_prefix
from richout.policy.remote import whatwg_parse
from richout.policy.verdict import OK, Verdict
from richout.text.chars import ascii_lower

__all__ = ["POLICY_CODES", "Policy"]

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
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_SEPARATORS = re.compile(r"[/\\]")
_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
# Overlong UTF-8 spellings of '.', '/' and '\' that lenient decoders still map to them.
_OVERLONG = re.compile(r"%c0%ae|%e0%80%ae|%c0%af|%e0%80%af|%c1%9c", re.IGNORECASE)
_OVERLONG_MAP = {"%c0%ae": ".", "%e0%80%ae": ".", "%c0%af": "/", "%e0%80%af": "/", "%c1%9c": "\\"}
#: Decoding rounds tried before a reference counts as hiding traversal behind its encoding.
_DECODE_ROUNDS = 4
_HOST_FORBIDDEN = frozenset("/\\?#@ \t\r\n%")

# Wire (camelCase) name of every field, and the extra key "strict".
_WIRE = {
    "workspace_root": "workspaceRoot",
    "allow_hosts": "allowHosts",
    "deny_hosts": "denyHosts",
    "allow_home_paths": "allowHomePaths",
    "allow_unc_paths": "allowUncPaths",
    "allow_file_urls": "allowFileUrls",
    "allow_inbound": "allowInbound",
    "allow_local_files": "allowLocalFiles",
    "allow_control_characters": "allowControlCharacters",
    "allow_protocol_relative": "allowProtocolRelative",
    "allow_encoded_traversal": "allowEncodedTraversal",
    "allow_file_url_hosts": "allowFileUrlHosts",
    "allow_ip_hosts": "allowIpHosts",
}


def _shown(s: str) -> str:
    return repr(s if len(s) <= 80 else s[:77] + "...")


def _host_pattern(pattern: object, name: str) -> tuple[bool, str]:
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


def _anchor(path: str) -> tuple[str, str] | None:
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


def _segments(parts: Iterable[str]) -> tuple[list[str], bool]:
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
    t = unicodedata.normalize("NFKC", _CONTROL.sub("", t))
    for seg in _SEPARATORS.split(t):
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


@dataclass(frozen=True, slots=True)
class Policy:
    """A tightening of the profile's reference policy: it can only refuse more.

    ``Policy(workspace_root="/srv/ws", deny_hosts=["*.corp.example"])``. Pass it as
    ``policy=`` to :func:`richout.split_media`, :func:`richout.parse_reply`,
    :func:`richout.render_reply` and :class:`richout.StreamingParser`: the functions that
    judge references. ``parse_directives`` and ``extract_embeds`` judge none and take no
    policy. The profile reads every payload exactly as without a policy; the policy then
    refuses some of the references the profile accepted (``MEDIA:`` lines and lifted
    Markdown images), each with a diagnostic ``media.policy.<rule>``. A refused
    reference leaves the text and is counted in ``rejected_media_count`` in profile
    ``next``; in ``release-2026.9.6`` it stays visible unless the line looks like a local
    path, as that release does with its own refusals. A refused Markdown image stays in the
    text and is not counted (nothing was hidden). Every boolean defaults to ``True``, the
    baseline; ``False`` narrows. :meth:`strict` is the preset for gateways that fetch what
    they deliver.
    """

    #: local paths must lie strictly inside this folder (``/srv/ws``, ``C:\\ws``,
    #: ``\\\\host\\share``, ``~/media``), judged lexically after resolving ``.``, ``..`` and
    #: repeated separators; relative paths are taken relative to it; ``None``: anywhere
    workspace_root: str | None = None
    #: remote hosts allowed (``example.com`` exact, ``*.example.com`` any subdomain); ``None``:
    #: any host the baseline accepts, ``[]``: no remote reference at all
    allow_hosts: Sequence[str] | None = None
    #: remote hosts refused (same patterns), checked before ``allow_hosts``
    deny_hosts: Sequence[str] = ()
    #: ``~/`` and ``~\\`` paths
    allow_home_paths: bool = True
    #: UNC and device paths (``\\\\host\\share``, ``//host/share``, ``\\\\?\\``, ``\\\\.\\``)
    allow_unc_paths: bool = True
    #: ``file:`` URLs (any ``file:`` prefix, also around an https:// URL)
    allow_file_urls: bool = True
    #: ``media://inbound/<id>`` references
    allow_inbound: bool = True
    #: local files at all (paths, ``~/``, UNC, ``file:`` URLs)
    allow_local_files: bool = True
    #: C0, DEL or C1 control characters anywhere in a reference
    allow_control_characters: bool = True
    #: protocol-relative ``//host/…`` (an absolute path to the baseline; a URL to a browser)
    allow_protocol_relative: bool = True
    #: ``..`` hidden behind percent-encoding, control characters, compatibility characters
    #: or trailing dots and spaces (``/srv/%2e%2e/x``, ``..%2f``, ``.\\0./``, ``.. /``)
    allow_encoded_traversal: bool = True
    #: ``file:`` URLs with a host other than ``localhost`` (``file://host/x`` is UNC)
    allow_file_url_hosts: bool = True
    #: IP-literal hosts in any spelling (decimal, octal, hex, IPv6, IPv4-mapped)
    allow_ip_hosts: bool = True
    _allow: tuple[tuple[bool, str], ...] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _deny: tuple[tuple[bool, str], ...] = field(default=(), init=False, repr=False, compare=False)
    _root: tuple[str, tuple[str, ...]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        for f in fields(self):
            if f.name.startswith("allow_") and f.name != "allow_hosts":
                value = getattr(self, f.name)
                if type(value) is not bool:
                    raise InvalidInput(
                        f"{f.name} must be True or False, got {type(value).__name__}"
                    )
        for name in ("allow_hosts", "deny_hosts"):
            value = getattr(self, name)
            if value is None and name == "allow_hosts":
                continue
            if isinstance(value, str) or not isinstance(value, Iterable):
                raise InvalidInput(
                    f"{name} must be a list of host patterns, got {type(value).__name__}"
                )
            patterns = tuple(value)
            parsed = tuple(_host_pattern(p, name) for p in patterns)
            object.__setattr__(self, name, patterns)
            object.__setattr__(self, "_allow" if name == "allow_hosts" else "_deny", parsed)
        root = self.workspace_root
        if root is not None:
            if not isinstance(root, str):
                raise InvalidInput(
                    f"workspace_root must be a string or None, got {type(root).__name__}"
                )
            anchored = _anchor(root)
            segs, escaped = _segments(_SEPARATORS.split(anchored[1])) if anchored else ([], True)
            if anchored is None or escaped or _CONTROL.search(root):
                raise InvalidInput(
                    f"workspace_root {root!r} must be an absolute folder (/srv/ws, C:\\ws, "
                    "\\\\host\\share or ~/media) that '..' does not climb out of"
                )
            object.__setattr__(self, "_root", (anchored[0], tuple(segs)))

    # ------------------------------------------------------------------ construction

    @classmethod
    def strict(cls, **overrides: Any) -> Policy:
        """The preset for gateways that fetch or open what they deliver (SECURITY.md).

        Refuses what the reference accepts but is a hazard downstream: control characters
        anywhere, protocol-relative ``//host/…``, UNC and device paths, encoded or NUL-split
        traversal, ``file:`` URLs with a host, and IP-literal hosts in any spelling.
        Keyword ``overrides`` set any other field (``Policy.strict(workspace_root=...)``).
        """
        base = cls(
            allow_control_characters=False,
            allow_protocol_relative=False,
            allow_unc_paths=False,
            allow_encoded_traversal=False,
            allow_file_url_hosts=False,
            allow_ip_hosts=False,
        )
        return replace(base, **overrides) if overrides else base

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, wire: bool = False) -> Policy:
        """A policy from a mapping: Python names (TOML) or, with ``wire``, camelCase names.

        ``strict: true`` starts from :meth:`strict`; the other keys then set their fields.
        Unknown keys raise :class:`~richout.InvalidOptions` naming the known ones.
        """
        if not isinstance(data, Mapping):
            raise InvalidOptions(f"a policy must be an object, got {type(data).__name__}")
        names = {(w if wire else p): p for p, w in _WIRE.items()}
        unknown = sorted(k for k in data if k not in names and k != "strict")
        if unknown:
            known = ", ".join(["strict", *names])
            raise InvalidOptions(
                f"unknown policy key(s) {', '.join(map(repr, unknown))}; known keys: {known}"
            )
        strict = data.get("strict", False)
        if type(strict) is not bool:
            raise InvalidOptions(f"policy key strict must be true or false, got {strict!r}")
        kwargs = {names[k]: v for k, v in data.items() if k != "strict"}
        try:
            return cls.strict(**kwargs) if strict else cls(**kwargs)
        except InvalidInput as exc:
            message = str(exc)
            if wire:
                for name, wire_name in _WIRE.items():
                    message = message.replace(name, wire_name)
            raise InvalidOptions(f"invalid policy: {message}") from None

    @classmethod
    def from_toml(cls, text: str) -> Policy:
        """A policy from TOML text: top-level keys named as the Python fields, plus ``strict``.

        ``workspace_root = "/srv/ws"``, ``deny_hosts = ["*.corp.example"]``, ``strict = true``.
        Python 3.10 needs the ``tomli`` package (3.11+ has ``tomllib``).
        """
        try:
            toml: Any = importlib.import_module("tomllib")
        except ModuleNotFoundError:  # pragma: no cover - Python 3.10
            try:
                toml = importlib.import_module("tomli")
            except ModuleNotFoundError:
                raise InvalidOptions(
                    "reading a TOML policy on Python 3.10 needs the tomli package "
                    "(pip install tomli), or Python 3.11+"
                ) from None
        try:
            data = toml.loads(text)
        except ValueError as exc:  # tomllib.TOMLDecodeError is a ValueError
            raise InvalidOptions(f"the policy is not valid TOML: {exc}") from None
        return cls.from_mapping(data)

    def to_wire(self) -> dict[str, Any]:
        """The fields that differ from the baseline, with wire (camelCase) names."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if value != f.default:
                out[_WIRE[f.name]] = list(value) if isinstance(value, tuple) else value
        return out

    # ------------------------------------------------------------------ the verdict

    def check(self, reference: str) -> Verdict:
        """The verdict on a reference the baseline accepted: ``OK`` or ``media.policy.<rule>``."""
        require_str(reference, "reference")
        if not self.allow_control_characters:
            m = _CONTROL.search(reference)
            if m is not None:
                return Verdict(
                    False,
                    "media.policy.control_character",
                    f"{_shown(reference)} contains the control character "
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
                f"{_shown(reference)} is a file: URL, and file: URLs are not delivered "
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
                f"{_shown(s)} is a media://inbound reference, and inbound media is not "
                "delivered (policy allow_inbound=False); attach the file another way",
            )
        if not self.allow_encoded_traversal:
            rest = s[8:]
            if ".." in rest or "%" in rest or _CONTROL.search(rest):
                decoded = _hidden_traversal(rest)
                if decoded is not None:
                    return self._traversal(s, decoded)
        return OK

    def _traversal(self, s: str, decoded: str) -> Verdict:
        return Verdict(
            False,
            "media.policy.encoded_traversal",
            f"{_shown(s)} hides a '..' segment (read as {_shown(decoded)} once decoded or "
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
                f"the host of {_shown(url)} is the IP literal {host} "
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
                host = _SEPARATORS.split(s, 1)[0]
                if ascii_lower(host) != "localhost":
                    if not self.allow_file_url_hosts:
                        return Verdict(
                            False,
                            "media.policy.file_url_host",
                            f"{_shown(reference)} is a file: URL with the host {_shown(host)}, "
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
                f"{_shown(reference)} is a home-directory path "
                "(policy allow_home_paths=False); write a workspace path",
            )
        if not self.allow_local_files:
            return Verdict(
                False,
                "media.policy.local_file",
                f"{_shown(reference)} is a local file, and local files are not delivered "
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
                f"{_shown(reference)} is not inside the workspace {self.workspace_root!r} "
                "(policy workspace_root); write a path inside it, or one relative to it",
            )
        return OK

    @staticmethod
    def _protocol_relative(reference: str) -> Verdict:
        return Verdict(
            False,
            "media.policy.protocol_relative",
            f"{_shown(reference)} starts with two slashes, which a URL resolver reads as a "
            "host (policy allow_protocol_relative=False); write https://host/… or a path "
            "with a single leading /",
        )

    @staticmethod
    def _unc_verdict(reference: str) -> Verdict:
        return Verdict(
            False,
            "media.policy.unc_path",
            f"{_shown(reference)} is a UNC or device path, which opens a network share or a "
            "raw device (policy allow_unc_paths=False); write a local path",
        )

    def _inside(self, path: str) -> bool:
        """Is ``path`` strictly below the workspace root, lexically?"""
        assert self._root is not None
        anchor, root = self._root
        anchored = _anchor(path)
        if anchored is None:
            segs, escaped = _segments((*root, *_SEPARATORS.split(path)))
        elif anchored[0] != anchor:
            return False
        else:
            segs, escaped = _segments(_SEPARATORS.split(anchored[1]))
        n = len(root)
        return not escaped and len(segs) > n and tuple(segs[:n]) == root
