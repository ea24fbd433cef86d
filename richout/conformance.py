"""The conformance runner: language-neutral JSON cases, compared as JSONL.md says.

Cases live in ``conformance/cases`` (shipped in the wheel as ``richout/_conformance_data``):
the reference ops' cases per profile, one file per op, in ``profiles/<profile>/<op>.json``
(each run with ``options.profile`` set to its folder's name), and richout's own ops' cases one
file per case in ``<op>/<id>.json``. :func:`run` answers them in-process; :func:`run_program`
sends them through any command that speaks the ``richout jsonl`` protocol, so another
implementation can be tested against the same files.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = [
    "Case",
    "Failure",
    "Report",
    "compare",
    "default_cases_dir",
    "load_cases",
    "run",
    "run_program",
]

_MISSING = object()


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


@dataclass(frozen=True)
class Failure:
    """One mismatch: which case, which field, what was expected and what came back."""

    case_id: str
    field: str
    expected: Any
    got: Any

    def line(self) -> str:
        """The runner's one-line report of this failure."""
        exp = json.dumps(self.expected, ensure_ascii=False)
        got = "<absent>" if self.got is _MISSING else json.dumps(self.got, ensure_ascii=False)
        return f"FAIL {self.case_id} {self.field}: expected {exp}, got {got}"


@dataclass
class Report:
    """Outcome of a run, with counts per profile and op."""

    passed: int = 0
    failed: int = 0
    failures: list[Failure] = field(default_factory=list)
    #: ``(profile or "-", op) -> [passed, failed]``
    groups: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def summary(self) -> str:
        """The last line the runner prints: ``N passed, N failed``."""
        return f"{self.passed} passed, {self.failed} failed"

    def group_lines(self) -> list[str]:
        """One line per profile and op: ``profile op: N passed, N failed``."""
        return [
            f"{prof} {op}: {counts[0]} passed, {counts[1]} failed"
            for (prof, op), counts in sorted(self.groups.items())
        ]


def default_cases_dir() -> Path:
    """The bundled cases: the wheel's copy, else the source checkout's ``conformance/cases``."""
    packaged = resources.files("richout").joinpath("_conformance_data").joinpath("cases")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "conformance" / "cases"


def _profile_of(base: Path, path: Path) -> str | None:
    """The profile folder a case file sits in (``profiles/<name>/…``), if any."""
    parts = path.relative_to(base).parts
    if len(parts) >= 3 and parts[0] == "profiles":
        return parts[1]
    return None


def load_cases(
    root: Path | None = None,
    ops: Iterable[str] | None = None,
    profiles: Iterable[str] | None = None,
) -> list[Case]:
    """Every case under ``root`` (default: the bundled cases), in file order.

    ``profiles`` keeps only the cases of those profiles (plus the profile-free ones).
    """
    base = root or default_cases_dir()
    wanted = set(ops) if ops is not None else None
    wanted_profiles = set(profiles) if profiles is not None else None
    cases: list[Case] = []
    for path in sorted(base.rglob("*.json")):
        profile = _profile_of(base, path)
        if wanted_profiles is not None and profile is not None and profile not in wanted_profiles:
            continue
        raw = json.loads(path.read_text(encoding="utf-8"))
        items = raw if isinstance(raw, list) else [raw]
        for item in items:
            case = Case(
                id=item["id"],
                op=item["op"],
                input=item.get("input"),
                expect=item["expect"],
                options=item.get("options"),
                note=item.get("note"),
                source=item.get("source"),
                path=str(path),
                profile=profile,
            )
            if wanted is None or case.op in wanted:
                cases.append(case)
    return cases


def _lookup(output: dict[str, Any], dotted: str) -> Any:
    cur: Any = output
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return _MISSING
        cur = cur[part]
    return cur


def _equal(expected: Any, got: Any) -> bool:
    if expected is None:
        return got is _MISSING or got is None
    if expected is False:
        return got is _MISSING or got is False
    if got is _MISSING:
        return False
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return False
        keys = {k for k, v in expected.items() if v is not None} | {
            k for k, v in got.items() if v is not None
        }
        return all(_equal(expected.get(k), got.get(k, _MISSING)) for k in keys)
    if isinstance(expected, list):
        return (
            isinstance(got, list)
            and len(got) == len(expected)
            and all(_equal(e, g) for e, g in zip(expected, got, strict=True))
        )
    if isinstance(expected, bool) or isinstance(got, bool):
        return type(expected) is type(got) and expected == got
    return bool(expected == got)


def compare(case: Case, response: dict[str, Any]) -> list[Failure]:
    """Failures of one response against its case (empty when it passes)."""
    if "output" not in response:
        err = response.get("error")
        return [Failure(case.id, "<response>", "an output", err if err is not None else response)]
    output = response["output"]
    if not isinstance(output, dict):
        return [Failure(case.id, "<output>", "an object", output)]
    failures = []
    for key, expected in case.expect.items():
        got = _lookup(output, key)
        if not _equal(expected, got):
            failures.append(Failure(case.id, key, expected, got))
    return failures


def _tally(cases: list[Case], responses: Iterator[dict[str, Any]]) -> Report:
    report = Report()
    for case, response in zip(cases, responses, strict=True):
        found = compare(case, response)
        counts = report.groups.setdefault((case.profile or "-", case.op), [0, 0])
        if found:
            report.failed += 1
            counts[1] += 1
            report.failures.extend(Failure(case.label, f.field, f.expected, f.got) for f in found)
        else:
            report.passed += 1
            counts[0] += 1
    return report


def run(cases: list[Case], *, with_profile: bool = True) -> Report:
    """Answer every case in-process through the jsonl request handler.

    ``with_profile=False`` sends no ``options.profile`` (the default profile's cases must
    pass that way too).
    """
    from .jsonl import handle_request

    return _tally(
        cases,
        (
            handle_request(json.loads(json.dumps(c.request(with_profile=with_profile))))
            for c in cases
        ),
    )


def run_program(cases: list[Case], command: str, *, timeout: float = 600.0) -> Report:
    """Answer every case through ``command`` (a shell-style command speaking jsonl)."""
    lines = "".join(
        json.dumps({**c.request(), "id": str(i)}, ensure_ascii=True) + "\n"
        for i, c in enumerate(cases)
    )
    proc = subprocess.run(
        shlex.split(command),
        input=lines,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )
    by_id: dict[str, dict[str, Any]] = {}
    # Ids repeat across ops and profiles, so the wire id is the case's position.
    for line in proc.stdout.splitlines():
        if not line.strip():
            continue
        try:
            resp = json.loads(line)
        except ValueError:
            continue
        if isinstance(resp, dict) and isinstance(resp.get("id"), str):
            by_id.setdefault(resp["id"], resp)
    missing = {"error": {"type": "no_response", "message": proc.stderr[-500:]}}
    return _tally(cases, (by_id.get(str(i), missing) for i in range(len(cases))))
