"""A policy a gateway can tighten: :class:`Policy` narrows the profile's reference policy.

The reference policy (MEDIA.md §7-§8) is the baseline and decides how every payload is read.
A :class:`Policy` is then a filter on what the baseline *accepted*: it can refuse a
reference the baseline delivers, never deliver one the baseline refuses. This module holds
the record: its fields, their checks, and the ways to build one (:meth:`Policy.strict`,
:meth:`Policy.from_mapping`, :meth:`Policy.from_toml`, :meth:`Policy.to_wire`). The rules it
applies, each refusal with its own code ``media.policy.<rule>``, are
:class:`~richout.policy.narrow_rules.PolicyRules`, which it inherits.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from richout.errors import InvalidInput, InvalidOptions
from richout.policy.narrow_rules import (
    CONTROL,
    SEPARATORS,
    PolicyRules,
    host_pattern,
    path_anchor,
    segments,
)

__all__ = ["Policy"]

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


@dataclass(frozen=True, slots=True)
class Policy(PolicyRules):
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
            parsed = tuple(host_pattern(p, name) for p in patterns)
            object.__setattr__(self, name, patterns)
            object.__setattr__(self, "_allow" if name == "allow_hosts" else "_deny", parsed)
        root = self.workspace_root
        if root is not None:
            if not isinstance(root, str):
                raise InvalidInput(
                    f"workspace_root must be a string or None, got {type(root).__name__}"
                )
            anchored = path_anchor(root)
            segs, escaped = segments(SEPARATORS.split(anchored[1])) if anchored else ([], True)
            if anchored is None or escaped or CONTROL.search(root):
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
