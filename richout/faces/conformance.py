"""The conformance runner: answer the cases, compare as JSONL.md says, tally a report.

:func:`run` answers the cases (:mod:`richout.faces.conformance_cases`) in-process;
:func:`run_program` sends them through any command that speaks the ``richout jsonl``
protocol, so another implementation can be tested against the same files. :func:`compare`
checks one response against its case's ``expect``.

The runner fails loudly rather than pass by accident: :func:`run_program` raises
:class:`ProgramError` when the command cannot be started and records a program that crashes,
times out or leaves cases unanswered once, in :attr:`Report.problems` (exit status and the end
of its stderr). Both take a ``progress`` callback (``done, total``;
:class:`~richout.faces.conformance_report.Progress` draws it) and return a
:class:`~richout.faces.conformance_report.Report`.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from richout.faces.conformance_cases import Case, ConformanceError
from richout.faces.conformance_report import (
    MISSING,
    CaseResult,
    Failure,
    ProgressCallback,
    Report,
    clip,
)
from richout.faces.jsonl import handle_request

__all__ = ["ProgramError", "compare", "run", "run_program"]


class ProgramError(ConformanceError):
    """The ``--program`` command cannot be started (not found, not executable, bad quoting)."""


def _lookup(output: dict[str, Any], dotted: str) -> Any:
    cur: Any = output
    for part in dotted.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return MISSING
        cur = cur[part]
    return cur


def _equal(expected: Any, got: Any) -> bool:
    if expected is None:
        return got is MISSING or got is None
    if expected is False:
        return got is MISSING or got is False
    if got is MISSING:
        return False
    if isinstance(expected, dict):
        if not isinstance(got, dict):
            return False
        keys = {k for k, v in expected.items() if v is not None} | {
            k for k, v in got.items() if v is not None
        }
        return all(_equal(expected.get(k), got.get(k, MISSING)) for k in keys)
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
            found = [Failure(case.label, "<response>", "a response", MISSING)]
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


@dataclass
class _Answers:
    """What the program wrote back: responses by wire id, lines answering nothing, a timeout."""

    by_id: dict[str, dict[str, Any]] = field(default_factory=dict)
    stray: list[bytes] = field(default_factory=list)
    timed_out: bool = False


def _requests(cases: list[Case]) -> bytes:
    """The request lines for ``cases``, as the program's standard input."""
    # Ids repeat across ops and profiles, so the wire id is the case's position.
    return "".join(
        json.dumps({**c.request(), "id": str(i)}, ensure_ascii=True) + "\n"
        for i, c in enumerate(cases)
    ).encode("ascii")


def _read_answers(
    lines: queue.Queue[bytes | None],
    total: int,
    remaining: Callable[[], float | None],
    progress: ProgressCallback | None,
) -> _Answers:
    """Collect response lines until the program's stdout ends or the deadline passes."""
    answers = _Answers()
    while True:
        try:
            line = lines.get(timeout=remaining())
        except queue.Empty:
            answers.timed_out = True
            return answers
        if line is None:
            return answers
        try:
            resp = json.loads(line)
        except ValueError:
            resp = None
        rid = resp.get("id") if isinstance(resp, dict) else None
        if isinstance(rid, str) and rid.isdigit() and int(rid) < total and rid not in answers.by_id:
            answers.by_id[rid] = resp
            if progress is not None:
                progress(len(answers.by_id), total)
        elif line.strip(b" \t\r\n"):
            answers.stray.append(line)


def _converse(
    proc: subprocess.Popen[bytes],
    data: bytes,
    stderr: bytearray,
    total: int,
    *,
    timeout: float | None,
    progress: ProgressCallback | None,
) -> _Answers:
    """Feed ``data`` to the program while reading its answers, then let it end (or stop it).

    One thread writes standard input, one keeps the tail of standard error in ``stderr`` and
    one splits standard output into lines, so a program that answers while it reads (or
    fills a pipe) never deadlocks the runner; ``timeout`` bounds the whole exchange.
    """
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
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

    answers = _read_answers(lines, total, remaining, progress)
    if not answers.timed_out:
        try:
            proc.wait(timeout=remaining())
        except subprocess.TimeoutExpired:
            answers.timed_out = True
    if answers.timed_out:
        proc.kill()
        proc.wait()
    for t in threads:
        t.join(timeout=1.0)
    return answers


def _problems(
    who: str,
    returncode: int,
    answers: _Answers,
    stderr: bytes,
    *,
    total: int,
    timeout: float | None,
) -> list[str]:
    """The run's problems, each once: timeout, crash or unanswered cases, then stray lines."""
    problems: list[str] = []
    answered = len(answers.by_id)
    if answers.timed_out:
        problems.append(
            f"{who} did not finish within {timeout:g} s and was stopped "
            f"({answered} of {total} cases answered); raise --timeout if it is only slow; "
            + _stderr_tail(stderr)
        )
    elif returncode != 0:
        problems.append(
            f"{who} {_exit_text(returncode)} after answering {answered} of {total} cases; "
            + _stderr_tail(stderr)
        )
    elif answered < total:
        problems.append(
            f"{who} ended without answering {total - answered} of {total} cases; "
            + _stderr_tail(stderr)
        )
    if answers.stray:
        example = answers.stray[0].decode("utf-8", errors="replace").rstrip("\r\n")
        problems.append(
            f"{who} wrote {len(answers.stray)} line(s) that answer no request (a response "
            f'needs the request\'s "id"), the first: {clip(example, 300)!r}'
        )
    return problems


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
    data = _requests(cases)
    proc = _start(command)
    stderr = bytearray()
    answers = _converse(proc, data, stderr, total, timeout=timeout, progress=progress)
    problems = _problems(
        repr(command), proc.returncode, answers, bytes(stderr), total=total, timeout=timeout
    )
    report = _tally(cases, (answers.by_id.get(str(i), _NO_RESPONSE) for i in range(total)))
    report.problems.extend(problems)
    return report
