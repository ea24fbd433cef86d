"""What a conformance run reports: each case's failures, the whole run, its progress.

A :class:`Failure` is one mismatched field (:meth:`Failure.line` is the runner's line for it),
a :class:`CaseResult` one case's outcome, and a :class:`Report` the run: counts per profile
and op, the problems of the run itself, written as JSON (:meth:`Report.to_json`) or JUnit XML
(:meth:`Report.to_junit`). :class:`Progress` draws the ``progress(done, total)`` callback the
runners call (:mod:`richout.faces.conformance`).
"""

from __future__ import annotations

import json
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from richout.faces.conformance_cases import Case

__all__ = [
    "MISSING",
    "CaseResult",
    "Failure",
    "Progress",
    "ProgressCallback",
    "Report",
    "clip",
]

#: Stands for a key the output lacks (``got`` of a :class:`Failure`; shown as ``<absent>``).
MISSING = object()

#: ``progress(done, total)``, called after each answered case.
ProgressCallback = Callable[[int, int], None]


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
        got = "<absent>" if self.got is MISSING else json.dumps(self.got, ensure_ascii=False)
        return f"FAIL {self.case_id} {self.field}: expected {exp}, got {got}"


@dataclass(frozen=True)
class CaseResult:
    """The outcome of one case: its failures (none when it passed)."""

    case: Case
    failures: tuple[Failure, ...] = ()
    #: False when the program gave no response for the case
    answered: bool = True

    @property
    def passed(self) -> bool:
        """True when the case passed."""
        return not self.failures


@dataclass
class Report:
    """Outcome of a run, with counts per profile and op."""

    passed: int = 0
    failed: int = 0
    failures: list[Failure] = field(default_factory=list)
    #: ``(profile or "-", op) -> [passed, failed]``
    groups: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    #: every case's outcome, in run order
    results: list[CaseResult] = field(default_factory=list)
    #: problems of the run itself (a program that crashed or timed out), each reported once
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every case passed and the run itself had no problem."""
        return self.failed == 0 and not self.problems

    @property
    def unanswered(self) -> list[str]:
        """Labels of the cases the program gave no response for."""
        return [r.case.label for r in self.results if not r.answered]

    def summary(self) -> str:
        """The last line the runner prints: ``N passed, N failed``."""
        return f"{self.passed} passed, {self.failed} failed"

    def group_lines(self) -> list[str]:
        """One line per profile and op: ``profile op: N passed, N failed``."""
        return [
            f"{prof} {op}: {counts[0]} passed, {counts[1]} failed"
            for (prof, op), counts in sorted(self.groups.items())
        ]

    def to_json(self) -> dict[str, Any]:
        """The machine-readable report (``richout conformance --report json FILE``).

        ``cases`` lists every case with ``status`` ``passed``, ``failed`` or ``no_response``
        and, when it failed, each mismatch's ``field``, ``expected`` and ``got`` (``got``
        left out when the output lacks the key).
        """
        cases = []
        for r in self.results:
            c = r.case
            status = "passed" if r.passed else "failed" if r.answered else "no_response"
            entry: dict[str, Any] = {
                "label": c.label,
                "profile": c.profile,
                "op": c.op,
                "id": c.id,
                "path": c.path,
                "status": status,
            }
            if r.answered and r.failures:
                entry["failures"] = [_failure_json(f) for f in r.failures]
            cases.append(entry)
        return {
            "passed": self.passed,
            "failed": self.failed,
            "problems": list(self.problems),
            "groups": [
                {"profile": prof, "op": op, "passed": n[0], "failed": n[1]}
                for (prof, op), n in sorted(self.groups.items())
            ],
            "cases": cases,
        }

    def to_junit(self) -> str:
        """The run as JUnit XML (``--report junit FILE``): one ``testsuite`` per profile and
        op, one ``testcase`` per case named ``profile/op/id``, a ``failure`` with expected and
        got for each failed case; a problem of the run is an ``error`` in suite ``runner``."""
        root = ET.Element(
            "testsuites",
            name="richout conformance",
            tests=str(self.passed + self.failed + (1 if self.problems else 0)),
            failures=str(self.failed),
            errors=str(1 if self.problems else 0),
        )
        suites: dict[tuple[str, str], ET.Element] = {}
        for (prof, op), counts in sorted(self.groups.items()):
            suites[(prof, op)] = ET.SubElement(
                root,
                "testsuite",
                name=_xml(f"{prof}/{op}"),
                tests=str(counts[0] + counts[1]),
                failures=str(counts[1]),
                errors="0",
                skipped="0",
            )
        for r in self.results:
            c = r.case
            key = (c.profile or "-", c.op)
            case_el = ET.SubElement(
                suites[key], "testcase", classname=_xml(f"{key[0]}/{key[1]}"), name=_xml(c.label)
            )
            if not r.answered:
                ET.SubElement(
                    case_el, "failure", type="no_response", message="the program gave no response"
                ).text = "no response (see the runner's problems)"
            elif r.failures:
                lines = [f.line() for f in r.failures]
                first = r.failures[0]
                message = f"{first.field}: expected {_show(first.expected)}, got {_show(first.got)}"
                if len(r.failures) > 1:
                    message += f" (and {len(r.failures) - 1} more field(s))"
                ET.SubElement(
                    case_el, "failure", type="mismatch", message=_xml(clip(message, 1000))
                ).text = _xml("\n".join(lines))
        if self.problems:
            suite = ET.SubElement(
                root, "testsuite", name="runner", tests="1", failures="0", errors="1", skipped="0"
            )
            case_el = ET.SubElement(suite, "testcase", classname="runner", name="program")
            ET.SubElement(
                case_el, "error", type="program", message=_xml(clip(self.problems[0], 1000))
            ).text = _xml("\n\n".join(self.problems))
        ET.indent(root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _show(value: Any) -> str:
    if value is MISSING:
        return "<absent>"
    return json.dumps(value, ensure_ascii=False)


def _failure_json(f: Failure) -> dict[str, Any]:
    out: dict[str, Any] = {"field": f.field, "expected": f.expected}
    if f.got is not MISSING:
        out["got"] = f.got
    return out


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, the last one an ellipsis when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: Characters XML 1.0 cannot carry even as references (C0 controls, surrogates, U+FFFE/F).
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class Progress:
    """Draws ``progress(done, total)`` on ``stream`` (standard error in the CLI).

    ``mode`` ``"bar"`` redraws one line (at most every ``redraw`` seconds), for a terminal;
    ``"lines"`` writes a plain line at most every ``interval`` seconds, so a short run (a test)
    prints nothing and a long one in a CI log shows it is alive; ``"auto"`` picks ``"bar"``
    when ``stream`` is a terminal. Call :meth:`close` when the run ends.
    """

    def __init__(
        self,
        stream: IO[str],
        *,
        mode: str = "auto",
        interval: float = 10.0,
        redraw: float = 0.1,
        width: int = 30,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if mode == "auto":
            isatty = getattr(stream, "isatty", None)
            mode = "bar" if isatty is not None and isatty() else "lines"
        if mode not in ("bar", "lines"):
            raise ValueError(f"progress mode must be auto, bar or lines, got {mode!r}")
        self.stream = stream
        self.mode = mode
        self._every = redraw if mode == "bar" else interval
        self._width = width
        self._clock = clock
        self._last = clock()
        self._drawn = False

    def __call__(self, done: int, total: int) -> None:
        now = self._clock()
        if now - self._last < self._every and not (self.mode == "bar" and done == total):
            return
        self._last = now
        pct = 100 * done // total if total else 100
        if self.mode == "bar":
            filled = self._width * done // total if total else self._width
            bar = "#" * filled + "-" * (self._width - filled)
            self.stream.write(f"\r[{bar}] {done}/{total} cases ({pct}%)")
            self._drawn = True
        else:
            self.stream.write(f"conformance: {done}/{total} cases ({pct}%)\n")
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar (plain lines need nothing)."""
        if self._drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self._drawn = False
