"""The conformance runner: language-neutral JSON cases, compared as JSONL.md says.

Cases live in ``conformance/cases/<op>/<id>.json`` (shipped in the wheel as
``richout/_conformance_data``). :func:`run` answers them in-process; :func:`run_program`
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

    def request(self) -> dict[str, Any]:
        """The ``richout jsonl`` request line for this case."""
        req: dict[str, Any] = {"id": self.id, "op": self.op, "input": self.input}
        if self.options is not None:
            req["options"] = self.options
        return req


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
    """Outcome of a run."""

    passed: int = 0
    failed: int = 0
    failures: list[Failure] = field(default_factory=list)

    def summary(self) -> str:
        """The last line the runner prints: ``N passed, N failed``."""
        return f"{self.passed} passed, {self.failed} failed"


def default_cases_dir() -> Path:
    """The bundled cases: the wheel's copy, else the source checkout's ``conformance/cases``."""
    packaged = resources.files("richout").joinpath("_conformance_data").joinpath("cases")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "conformance" / "cases"


def load_cases(root: Path | None = None, ops: Iterable[str] | None = None) -> list[Case]:
    """Every case under ``root`` (default: the bundled cases), sorted by op and id."""
    base = root or default_cases_dir()
    wanted = set(ops) if ops is not None else None
    cases: list[Case] = []
    for path in sorted(base.rglob("*.json")):
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
        if found:
            report.failed += 1
            report.failures.extend(found)
        else:
            report.passed += 1
    return report


def run(cases: list[Case]) -> Report:
    """Answer every case in-process through the jsonl request handler."""
    from .jsonl import handle_request

    return _tally(cases, (handle_request(json.loads(json.dumps(c.request()))) for c in cases))


def run_program(cases: list[Case], command: str, *, timeout: float = 600.0) -> Report:
    """Answer every case through ``command`` (a shell-style command speaking jsonl)."""
    lines = "".join(json.dumps(c.request(), ensure_ascii=True) + "\n" for c in cases)
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
    return _tally(cases, (by_id.get(c.id, missing) for c in cases))
