"""Command line: ``richout parse | render | preview | jsonl | schema | conformance | envelope``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from richout.faces.console import InputError, emit_json, read_text
from richout.faces.envelope_cli import add_parser as add_envelope

if TYPE_CHECKING:
    from richout.policy import Policy

__all__ = ["main"]

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2


def _add_input(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", nargs="?", default="-", help="reply text file, or - for stdin")
    p.add_argument("--compact", action="store_true", help="one-line JSON")
    p.add_argument("--replace-invalid", action="store_true", help="read non-UTF-8 bytes as U+FFFD")
    _add_profile(p)


def _add_profile(p: argparse.ArgumentParser, default: str | None = None) -> None:
    from richout.profiles import DEFAULT_PROFILE, PROFILES

    p.add_argument(
        "--profile",
        choices=list(PROFILES),
        default=default if default is not None else DEFAULT_PROFILE,
        help="upstream behaviour to reproduce (default: %(default)s)",
    )


def _add_policy(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--policy",
        metavar="FILE.toml",
        default=None,
        help="narrow the reference policy (richout.Policy fields as TOML keys; strict = true)",
    )


def _load_policy(path: str | None) -> Policy | None:
    """The :class:`~richout.Policy` in TOML file ``path`` (None: no policy)."""
    if path is None:
        return None
    from richout.errors import InvalidInput
    from richout.policy import Policy

    try:
        return Policy.from_toml(read_text(path))
    except InvalidInput as exc:
        raise InputError(f"--policy {path}: {exc}") from None


def _cmd_parse(args: argparse.Namespace) -> int:
    from richout.views.reply import parse_reply

    text = read_text(args.file, replace_invalid=args.replace_invalid)
    result = parse_reply(
        text,
        current_message_id=args.current_message_id,
        profile=args.profile,
        explain=True,
        policy=_load_policy(args.policy),
    )
    emit_json(result.to_wire(), args.compact)
    return EXIT_OK


def _cmd_render(args: argparse.Namespace) -> int:
    from richout.views.render import render_reply

    text = read_text(args.file, replace_invalid=args.replace_invalid)
    emit_json(
        render_reply(
            text,
            role=args.role,
            profile=args.profile,
            explain=True,
            policy=_load_policy(args.policy),
        ).to_wire(),
        args.compact,
    )
    return EXIT_OK


def _cmd_jsonl(args: argparse.Namespace) -> int:
    from richout.faces.jsonl import main_stdin

    return main_stdin()


def _cmd_schema(args: argparse.Namespace) -> int:
    from richout.faces.schema import json_schema

    emit_json(json_schema(), args.compact)
    return EXIT_OK


def _cmd_preview(args: argparse.Namespace) -> int:
    from richout.errors import InvalidInput
    from richout.gateway.preview import PreviewItem, preview_html, read_jsonl

    if args.jsonl is not None and args.file is not None:
        raise InputError("give either a reply FILE or --jsonl FILE, not both")
    items: list[str | PreviewItem]
    policy = _load_policy(args.policy)
    try:
        if args.jsonl is not None:
            items = list(read_jsonl(read_text(args.jsonl, replace_invalid=args.replace_invalid)))
            title = f"richout preview: {args.jsonl}"
        else:
            source = args.file or "-"
            text = read_text(source, replace_invalid=args.replace_invalid)
            items = [PreviewItem(text, label=None if source == "-" else source)]
            title = "richout preview" if source == "-" else f"richout preview: {source}"
        page = preview_html(
            items,
            profile=args.profile,
            current_message_id=args.current_message_id,
            policy=policy,
            title=title,
        )
    except InvalidInput as exc:
        raise InputError(f"{args.jsonl or args.file or '-'}: {exc}") from exc
    data = page.encode("utf-8")
    if args.output in (None, "-"):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return EXIT_OK
    try:
        Path(args.output).write_bytes(data)
    except OSError as exc:
        raise InputError(f"cannot write {args.output}: {exc.strerror or exc}") from exc
    return EXIT_OK


#: Report formats of ``conformance --report FORMAT FILE``.
REPORT_FORMATS = ("json", "junit")

#: How many unanswered cases the runner names before it only counts them.
_UNANSWERED_SHOWN = 10


def _positive_seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {value!r}")
    return seconds


def _check_ops(wanted: list[str] | None) -> None:
    import difflib

    from richout.faces.ops import OPS

    known = sorted(OPS)
    for op in wanted or ():
        if op not in known:
            close = difflib.get_close_matches(op, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise InputError(f"unknown op {op!r} for --op{hint}; known ops: {', '.join(known)}")


def _cmd_conformance(args: argparse.Namespace) -> int:
    from richout.faces.conformance import run, run_program
    from richout.faces.conformance_cases import ConformanceError, load_cases
    from richout.faces.conformance_report import Progress

    reports: list[list[str]] = args.report or []
    for fmt, _ in reports:
        if fmt not in REPORT_FORMATS:
            raise InputError(
                f"unknown report format {fmt!r}; --report takes {' or '.join(REPORT_FORMATS)}"
            )
    _check_ops(args.op)
    profiles = None if args.profile == "all" else [args.profile]
    root = Path(args.cases) if args.cases else None
    try:
        cases = load_cases(root, args.op or None, profiles)
    except ConformanceError as exc:
        raise InputError(str(exc)) from exc
    if not cases:
        where = args.cases or "the bundled cases"
        which = [f"op {', '.join(args.op)}"] if args.op else []
        which += [f"profile {args.profile}"] if profiles else []
        of = f" of {' and '.join(which)}" if which else ""
        raise InputError(f"no cases to run: {where} holds none{of}")

    progress = None if args.progress == "none" else Progress(sys.stderr, mode=args.progress)
    try:
        if args.program:
            report = run_program(cases, args.program, timeout=args.timeout, progress=progress)
        else:
            report = run(cases, progress=progress)
    except ConformanceError as exc:
        raise InputError(str(exc)) from exc
    finally:
        if progress is not None:
            progress.close()

    for problem in report.problems:
        print(f"richout conformance: {problem}", file=sys.stderr)
    unanswered = 0
    for failure, result in ((f, r) for r in report.results for f in r.failures):
        if result.answered:
            print(failure.line())
        else:
            unanswered += 1
            if unanswered <= _UNANSWERED_SHOWN:
                print(f"FAIL {failure.case_id} <response>: no response")
    if unanswered > _UNANSWERED_SHOWN:
        print(f"FAIL ... and {unanswered - _UNANSWERED_SHOWN} more cases with no response")
    for fmt, dest in reports:
        text = (
            json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n"
            if fmt == "json"
            else report.to_junit()
        )
        try:
            Path(dest).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(
                f"cannot write the {fmt} report {dest}: {exc.strerror or exc}"
            ) from exc
    for line in report.group_lines():
        print(line)
    print(report.summary())
    return EXIT_OK if report.ok else EXIT_FAIL


def _add_parse(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("parse", help="delivery view of a reply (media, voice, reply target)")
    _add_input(p)
    p.add_argument("--current-message-id", default=None, help="id for [[reply_to_current]]")
    _add_policy(p)
    p.set_defaults(func=_cmd_parse)


def _add_render(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("render", help="WebChat view of a reply (attachments, canvas blocks)")
    _add_input(p)
    p.add_argument("--role", default="assistant", help="message role (default: assistant)")
    _add_policy(p)
    p.set_defaults(func=_cmd_render)


def _add_preview(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "preview",
        help="one self-contained HTML page showing what replies become",
        description="Write one self-contained, script-free HTML page: each reply's source with "
        "every directive and diagnostic highlighted, beside its WebChat and delivery views.",
    )
    p.add_argument("file", nargs="?", default=None, help="reply text file, or - for stdin")
    p.add_argument(
        "--jsonl",
        metavar="FILE",
        help="preview many replies: one per line, a JSON string or "
        '{"text", "currentMessageId"?, "profile"?}; adds a summary',
    )
    p.add_argument("--current-message-id", default=None, help="id for [[reply_to_current]]")
    p.add_argument("-o", "--output", metavar="PAGE", help="write the page here (default: stdout)")
    p.add_argument("--replace-invalid", action="store_true", help="read non-UTF-8 bytes as U+FFFD")
    _add_profile(p)
    _add_policy(p)
    p.set_defaults(func=_cmd_preview)


def _add_jsonl_and_schema(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("jsonl", help="answer JSON Lines requests on stdin (JSONL.md)")
    p.set_defaults(func=_cmd_jsonl)

    p = sub.add_parser("schema", help="print the JSON Schema of the public models")
    p.add_argument("--compact", action="store_true", help="one-line JSON")
    p.set_defaults(func=_cmd_schema)


def _add_conformance(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "conformance",
        help="run the conformance cases",
        description="Run the conformance cases in-process or through a jsonl program. Exit "
        "status: 0 when every case passed, 1 when any failed (or the program crashed or timed "
        "out), 2 when the run cannot start (unknown op, no cases, unreadable case, no such "
        "program).",
    )
    p.add_argument(
        "--program",
        metavar="CMD",
        help='run the cases through CMD (speaks jsonl), e.g. "richout jsonl"',
    )
    p.add_argument(
        "--cases", help="folder of case files, or one case file (default: the bundled cases)"
    )
    p.add_argument("--op", action="append", help="only cases of this op (repeatable)")
    p.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=600.0,
        metavar="SECONDS",
        help="stop --program after this long (default: %(default)g)",
    )
    p.add_argument(
        "--report",
        nargs=2,
        action="append",
        metavar=("FORMAT", "FILE"),
        help="also write the results as json or junit (JUnit XML) to FILE (repeatable)",
    )
    p.add_argument(
        "--progress",
        choices=["auto", "bar", "lines", "none"],
        default="auto",
        help="progress on stderr: a bar on a terminal, else a line every 10 s (default: auto)",
    )
    from richout.profiles import PROFILES

    p.add_argument(
        "--profile",
        choices=[*PROFILES, "all"],
        default="all",
        help="only this profile's reference cases (default: all profiles)",
    )
    p.set_defaults(func=_cmd_conformance)


def _build() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="richout",
        description="Read what an AI assistant wrote; say what a chat gateway should deliver.",
    )
    from richout.version import __version__

    parser.add_argument("--version", action="version", version=f"richout {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_parse(sub)
    _add_render(sub)
    _add_preview(sub)
    _add_jsonl_and_schema(sub)
    _add_conformance(sub)
    add_envelope(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``richout`` command; returns the exit status."""
    parser = _build()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except InputError as exc:
        print(f"richout: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # pragma: no cover - reader went away
        return EXIT_OK
    return code


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
