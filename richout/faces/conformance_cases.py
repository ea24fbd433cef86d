"""Conformance cases: the :class:`Case` record and the reader of case files.

Cases live in ``conformance/cases`` (shipped in the wheel as ``richout/_conformance_data``, so
an installed richout reads its own copy, :func:`default_cases_dir`): the reference ops' cases
per profile, one file per op, in ``profiles/<profile>/<op>.json`` (each run with
``options.profile`` set to its folder's name), and richout's own ops' cases, one array per op
in ``<op>.json`` (a file holding one case object is read too).

The reader fails loudly rather than pass by accident: :func:`load_cases` raises
:class:`CaseError` for a missing or empty folder, a file that is not JSON or a case without
``id``/``op``/``expect`` (naming the file and the case's index in an array file).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["Case", "CaseError", "ConformanceError", "default_cases_dir", "load_cases"]


class ConformanceError(Exception):
    """The runner cannot run as asked; the message says what to fix (the CLI exits 2)."""


class CaseError(ConformanceError, ValueError):
    """A case folder or file that cannot be used; the message names the file (and case)."""


@dataclass(frozen=True)
class Case:
    """One conformance case: a request plus what to expect."""

    id: str
    op: str
    input: Any
    expect: dict[str, Any]
    options: dict[str, Any] | None = None
    note: str | None = None
    source: str | None = None
    path: str | None = None
    #: the profile the case belongs to (its folder under ``profiles/``); None for the
    #: ops that every profile answers alike
    profile: str | None = None

    def request(self, *, with_profile: bool = True) -> dict[str, Any]:
        """The ``richout jsonl`` request line for this case (``options.profile`` included)."""
        req: dict[str, Any] = {"id": self.id, "op": self.op, "input": self.input}
        options = dict(self.options or {})
        if with_profile and self.profile is not None:
            options["profile"] = self.profile
        if options or self.options is not None:
            req["options"] = options
        return req

    @property
    def label(self) -> str:
        """``profile/op/id`` (ids repeat across ops and profiles)."""
        return f"{self.profile or '-'}/{self.op}/{self.id}"


def default_cases_dir() -> Path:
    """The bundled cases: the wheel's copy, else the source checkout's ``conformance/cases``."""
    packaged = resources.files("richout").joinpath("_conformance_data").joinpath("cases")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "conformance" / "cases"


def _profile_of(base: Path, path: Path) -> str | None:
    """The profile folder a case file sits in (``profiles/<name>/…``), if any."""
    if base == path:  # a single file: its own place decides
        parts = path.parts[-3:]
        return parts[1] if len(parts) == 3 and parts[0] == "profiles" else None
    parts = path.relative_to(base).parts
    if len(parts) >= 3 and parts[0] == "profiles":
        return parts[1]
    return None


def _case_files(base: Path) -> list[Path]:
    if base.is_file():
        return [base]
    if not base.is_dir():
        raise CaseError(f"no case folder {base} (it does not exist)")
    files = sorted(base.rglob("*.json"))
    if not files:
        raise CaseError(f"no case files (*.json) under {base}")
    return files


def _read_cases(path: Path) -> list[Any] | dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CaseError(f"{path}: cannot read it: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CaseError(f"{path}: not UTF-8 (byte offset {exc.start})") from exc
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise CaseError(f"{path}: not JSON: {exc}") from exc
    if not isinstance(raw, (list, dict)):
        raise CaseError(f"{path}: a case file holds one case object or an array of them")
    return raw


def _make_case(item: Any, path: Path, index: int | None, profile: str | None) -> Case:
    where = str(path) if index is None else f"{path}, case [{index}]"
    if not isinstance(item, dict):
        raise CaseError(f"{where}: a case must be a JSON object, got {type(item).__name__}")
    if isinstance(item.get("id"), str):
        where += f" (id {item['id']!r})"
    missing = [k for k in ("id", "op", "expect") if k not in item]
    if missing:
        raise CaseError(
            f"{where}: the case has no {', '.join(missing)} "
            '(a case is {"id", "op", "input", "options"?, "expect"})'
        )
    for key in ("id", "op"):
        if not isinstance(item[key], str) or not item[key]:
            raise CaseError(f"{where}: {key} must be a non-empty string, got {item[key]!r}")
    expect = item["expect"]
    if not isinstance(expect, dict) or not expect:
        raise CaseError(
            f"{where}: expect must be a non-empty object (the output keys to compare), "
            f"got {json.dumps(expect)}"
        )
    options = item.get("options")
    if options is not None and not isinstance(options, dict):
        raise CaseError(f"{where}: options must be an object when given")
    return Case(
        id=item["id"],
        op=item["op"],
        input=item.get("input"),
        expect=expect,
        options=options,
        note=item.get("note"),
        source=item.get("source"),
        path=str(path),
        profile=profile,
    )


def load_cases(
    root: Path | None = None,
    ops: Iterable[str] | None = None,
    profiles: Iterable[str] | None = None,
) -> list[Case]:
    """Every case under ``root`` (default: the bundled cases), in file order.

    ``root`` may also be one case file. ``ops`` keeps only those ops' cases; ``profiles``
    keeps only the cases of those profiles (plus the profile-free ones). Raises
    :class:`CaseError` when ``root`` does not exist or holds no ``*.json`` file, and for a
    file that is not JSON or a case that lacks ``id``, ``op`` or ``expect`` (the message
    names the file, and the index of the case in an array file).
    """
    base = root or default_cases_dir()
    wanted = set(ops) if ops is not None else None
    wanted_profiles = set(profiles) if profiles is not None else None
    cases: list[Case] = []
    for path in _case_files(base):
        profile = _profile_of(base, path)
        if wanted_profiles is not None and profile is not None and profile not in wanted_profiles:
            continue
        raw = _read_cases(path)
        items = enumerate(raw) if isinstance(raw, list) else [(None, raw)]
        for index, item in items:
            case = _make_case(item, path, index, profile)
            if wanted is None or case.op in wanted:
                cases.append(case)
    return cases
