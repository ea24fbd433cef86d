"""The conformance runner: language-neutral JSON cases, compared as JSONL.md says.

Cases live in ``conformance/cases`` (shipped in the wheel as ``richout/_conformance_data``):
the reference ops' cases per profile, one file per op, in ``profiles/<profile>/<op>.json``
(each run with ``options.profile`` set to its folder's name), and richout's own ops' cases,
one array per op in ``<op>.json`` (a file holding one case object is read too). :func:`run`
answers them in-process; :func:`run_program` sends them through any command that speaks the
``richout jsonl`` protocol, so another implementation can be tested against the same files.

The runner fails loudly rather than pass by accident: :func:`load_cases` raises
:class:`CaseError` for a missing or empty folder, a file that is not JSON or a case without
``id``/``op``/``expect`` (naming the file and the case's index in an array file);
:func:`run_program` raises :class:`ProgramError` when the command cannot be started and
records a program that crashes, times out or leaves cases unanswered once, in
:attr:`Report.problems` (exit status and the end of its stderr). Both take a ``progress``
callback (``done, total``; :class:`Progress` draws it), and a :class:`Report` writes itself as
JSON (:meth:`Report.to_json`) or JUnit XML (:meth:`Report.to_junit`).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import IO, Any

__all__ = [
    "Case",
    "CaseError",
    "CaseResult",
    "ConformanceError",
    "Failure",
    "ProgramError",
    "Progress",
    "ProgressCallback",
    "Report",
    "compare",
    "default_cases_dir",
    "load_cases",
    "run",
    "run_program",
]

_MISSING = object()

#: ``progress(done, total)``, called after each answered case.
ProgressCallback = Callable[[int, int], None]


class ConformanceError(Exception):
    """The runner cannot run as asked; the message says what to fix (the CLI exits 2)."""


class CaseError(ConformanceError, ValueError):
    """A case folder or file that cannot be used; the message names the file (and case)."""


class ProgramError(ConformanceError):
    """The ``--program`` command cannot be started (not found, not executable, bad quoting)."""


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
                    case_el, "failure", type="mismatch", message=_xml(_clip(message, 1000))
                ).text = _xml("\n".join(lines))
        if self.problems:
            suite = ET.SubElement(
                root, "testsuite", name="runner", tests="1", failures="0", errors="1", skipped="0"
            )
            case_el = ET.SubElement(suite, "testcase", classname="runner", name="program")
            ET.SubElement(
                case_el, "error", type="program", message=_xml(_clip(self.problems[0], 1000))
            ).text = _xml("\n\n".join(self.problems))
        ET.indent(root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


def _show(value: Any) -> str:
    if value is _MISSING:
        return "<absent>"
    return json.dumps(value, ensure_ascii=False)


def _failure_json(f: Failure) -> dict[str, Any]:
    out: dict[str, Any] = {"field": f.field, "expected": f.expected}
    if f.got is not _MISSING:
        out["got"] = f.got
    return out


def _clip(text: str, limit: int) -> str:
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


#: Stands for the response of a case the program never answered.
_NO_RESPONSE: dict[str, Any] = {}


def _tally(
    cases: list[Case],
    responses: Iterator[dict[str, Any]],
    progress: ProgressCallback | None = None,
) -> Report:
    report = Report()
    total = len(cases)
    for done, (case, response) in enumerate(zip(cases, responses, strict=True), 1):
        counts = report.groups.setdefault((case.profile or "-", case.op), [0, 0])
        if response is _NO_RESPONSE:
            found = [Failure(case.label, "<response>", "a response", _MISSING)]
            report.results.append(CaseResult(case, tuple(found), answered=False))
        else:
            found = [
                Failure(case.label, f.field, f.expected, f.got) for f in compare(case, response)
            ]
            report.results.append(CaseResult(case, tuple(found)))
        if found:
            report.failed += 1
            counts[1] += 1
            report.failures.extend(found)
        else:
            report.passed += 1
            counts[0] += 1
        if progress is not None:
            progress(done, total)
    return report


def run(
    cases: list[Case], *, with_profile: bool = True, progress: ProgressCallback | None = None
) -> Report:
    """Answer every case in-process through the jsonl request handler.

    ``with_profile=False`` sends no ``options.profile`` (the default profile's cases must
    pass that way too). ``progress(done, total)`` is called after each case.
    """
    from richout.faces.jsonl import handle_request

    return _tally(
        cases,
        (
            handle_request(json.loads(json.dumps(c.request(with_profile=with_profile))))
            for c in cases
        ),
        progress,
    )


#: How much of the program's standard error a problem report keeps.
_STDERR_TAIL = 2000


def _exit_text(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "an unknown signal"
        return f"was killed by signal {-code} ({name})"
    return f"exited with status {code}"


def _stderr_tail(data: bytes) -> str:
    text = data.decode("utf-8", errors="replace").rstrip()
    if not text:
        return "its stderr was empty"
    if len(text) > _STDERR_TAIL:
        text = "…" + text[-_STDERR_TAIL:]
    return "end of its stderr:\n" + "\n".join("  " + line for line in text.split("\n"))


def _start(command: str) -> subprocess.Popen[bytes]:
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ProgramError(f"cannot read the command {command!r}: {exc}") from exc
    if not argv:
        raise ProgramError("the program command is empty")
    try:
        return subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        )
    except OSError as exc:
        raise ProgramError(f"cannot run {argv[0]!r}: {exc.strerror or exc}") from exc


def _feed(stream: IO[bytes], data: bytes) -> None:
    # OSError: the program stopped reading (it crashed or was stopped).
    with contextlib.suppress(OSError):
        try:
            stream.write(data)
        finally:
            stream.close()


def _drain(stream: IO[bytes], into: bytearray) -> None:
    for chunk in iter(lambda: stream.read(65536), b""):
        into += chunk
        if len(into) > 4 * _STDERR_TAIL:
            del into[: len(into) - 4 * _STDERR_TAIL]


def _lines(stream: IO[bytes], into: queue.Queue[bytes | None]) -> None:
    try:
        for line in stream:
            into.put(line)
    finally:
        into.put(None)


def run_program(
    cases: list[Case],
    command: str,
    *,
    timeout: float | None = 600.0,
    progress: ProgressCallback | None = None,
) -> Report:
    """Answer every case through ``command`` (a shell-style command speaking jsonl).

    Requests go to the program's standard input while its responses are read line by line
    (lines end at LF only), so ``progress(done, total)`` follows the answers. ``timeout``
    bounds the whole run in seconds (None: no bound); when it passes the program is stopped.
    A program that cannot be started raises :class:`ProgramError`. One that times out, exits
    with a non-zero status, leaves cases unanswered or writes lines that answer no request is
    reported once in :attr:`Report.problems` (with its exit status and the end of its stderr);
    each unanswered case fails with ``<response>``.
    """
    total = len(cases)
    # Ids repeat across ops and profiles, so the wire id is the case's position.
    data = "".join(
        json.dumps({**c.request(), "id": str(i)}, ensure_ascii=True) + "\n"
        for i, c in enumerate(cases)
    ).encode("ascii")
    proc = _start(command)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    stderr = bytearray()
    lines: queue.Queue[bytes | None] = queue.Queue()
    threads = [
        threading.Thread(target=_feed, args=(proc.stdin, data), daemon=True),
        threading.Thread(target=_drain, args=(proc.stderr, stderr), daemon=True),
        threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True),
    ]
    for t in threads:
        t.start()
    deadline = None if timeout is None else time.monotonic() + timeout

    def remaining() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    by_id: dict[str, dict[str, Any]] = {}
    stray: list[bytes] = []
    timed_out = False
    while True:
        try:
            line = lines.get(timeout=remaining())
        except queue.Empty:
            timed_out = True
            break
        if line is None:
            break
        try:
            resp = json.loads(line)
        except ValueError:
            resp = None
        rid = resp.get("id") if isinstance(resp, dict) else None
        if isinstance(rid, str) and rid.isdigit() and int(rid) < total and rid not in by_id:
            by_id[rid] = resp
            if progress is not None:
                progress(len(by_id), total)
        elif line.strip(b" \t\r\n"):
            stray.append(line)
    if not timed_out:
        try:
            proc.wait(timeout=remaining())
        except subprocess.TimeoutExpired:
            timed_out = True
    if timed_out:
        proc.kill()
        proc.wait()
    for t in threads:
        t.join(timeout=1.0)

    problems: list[str] = []
    answered = len(by_id)
    who = repr(command)
    if timed_out:
        problems.append(
            f"{who} did not finish within {timeout:g} s and was stopped "
            f"({answered} of {total} cases answered); raise --timeout if it is only slow; "
            + _stderr_tail(bytes(stderr))
        )
    elif proc.returncode != 0:
        problems.append(
            f"{who} {_exit_text(proc.returncode)} after answering {answered} of {total} cases; "
            + _stderr_tail(bytes(stderr))
        )
    elif answered < total:
        problems.append(
            f"{who} ended without answering {total - answered} of {total} cases; "
            + _stderr_tail(bytes(stderr))
        )
    if stray:
        example = stray[0].decode("utf-8", errors="replace").rstrip("\r\n")
        problems.append(
            f"{who} wrote {len(stray)} line(s) that answer no request (a response needs the "
            f'request\'s "id"), the first: {_clip(example, 300)!r}'
        )
    report = _tally(cases, (by_id.get(str(i), _NO_RESPONSE) for i in range(total)))
    report.problems.extend(problems)
    return report
