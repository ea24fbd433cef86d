"""``richout envelope classify | offload | lint``: skill return values on the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from richout.errors import InvalidInput
from richout.faces.console import InputError, emit_json, read_text

__all__ = ["add_parser"]

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


def _load(source: str) -> Any:
    text = read_text(source)
    try:
        return json.loads(text)
    except RecursionError as exc:
        raise InputError(f"{source} is nested too deeply to read") from exc
    except ValueError as exc:
        raise InputError(f"{source} is not JSON: {exc}") from exc


def _values(value: Any, each: bool) -> list[Any]:
    if not each:
        return [value]
    if not isinstance(value, list):
        raise InvalidInput("--each needs a JSON array of return values")
    return value


def _usage_error(exc: Exception) -> int:
    print(f"richout envelope: {exc}", file=sys.stderr)
    return EXIT_USAGE


def _cmd_classify(args: argparse.Namespace) -> int:
    from richout.envelope.skill import classify

    try:
        values = _values(_load(args.file), args.each)
        out = [classify(v).to_wire() for v in values]
    except InvalidInput as exc:
        return _usage_error(exc)
    emit_json(out if args.each else out[0], args.compact)
    return EXIT_OK


def _cmd_offload(args: argparse.Namespace) -> int:
    from richout.envelope.skill_offload import offload

    def write(path: str, content: str) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8", errors="surrogatepass")

    try:
        result = offload(
            _load(args.file),
            skill=args.skill,
            workspace_dir=args.workspace_dir,
            write=write if args.write else None,
        )
    except InvalidInput as exc:
        return _usage_error(exc)
    emit_json(result.to_wire(), args.compact)
    return EXIT_OK


#: ``--fail-on`` thresholds: a finding fails the run when its rank is at least the threshold's.
_SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}
FAIL_ON = ("error", "warning", "info", "never")


def _fails(severity: str, fail_on: str) -> bool:
    """Does a finding of ``severity`` fail a run with ``--fail-on fail_on``?"""
    if fail_on == "never":
        return False
    return _SEVERITY_RANK[severity] >= _SEVERITY_RANK[fail_on]


def _cmd_lint(args: argparse.Namespace) -> int:
    from richout.envelope.lint import lint

    try:
        values = _values(_load(args.file), args.each)
        reports = [lint(v, skill=args.skill) for v in values]
    except InvalidInput as exc:
        return _usage_error(exc)
    failed = False
    if args.json:
        emit_json(
            [[f.to_wire() for f in r] for r in reports]
            if args.each
            else [f.to_wire() for f in reports[0]],
            args.compact,
        )
    for i, findings in enumerate(reports):
        for finding in findings:
            failed = failed or _fails(finding.severity, args.fail_on)
            if not args.json:
                prefix = f"[{i}] " if args.each else ""
                print(prefix + finding.format())
    return EXIT_FINDINGS if failed else EXIT_OK


def add_parser(subparsers: Any) -> None:
    """Add ``richout envelope`` with its ``classify``, ``offload`` and ``lint`` subcommands."""
    env = subparsers.add_parser(
        "envelope", help="skill return envelopes: classify, offload receipt, lint"
    )
    sub = env.add_subparsers(dest="envelope_command", required=True)

    def common(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument("file", nargs="?", default="-", help=f"{what} JSON file, or - for stdin")
        p.add_argument("--compact", action="store_true", help="one-line JSON")

    p = sub.add_parser("classify", help="failure, reason, recoverability, budget, partial")
    common(p, "a skill return value:")
    p.add_argument("--each", action="store_true", help="the file is an array of return values")
    p.set_defaults(func=_cmd_classify)

    p = sub.add_parser("offload", help="the receipt a large result is replaced by")
    common(p, "a skill return value:")
    p.add_argument("--skill", required=True, help="the skill's name (used in the file name)")
    p.add_argument("--workspace-dir", default=".", help="session workspace (default: .)")
    p.add_argument(
        "--write", action="store_true", help="also write the full result under .toolout/"
    )
    p.set_defaults(func=_cmd_offload)

    p = sub.add_parser(
        "lint",
        help="check a return value against the authoring rules "
        "(exit 1 on a finding at or above --fail-on)",
    )
    common(p, "a skill return value:")
    p.add_argument("--each", action="store_true", help="the file is an array of return values")
    p.add_argument("--skill", default="skill", help="the skill's name (for the offload check)")
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    p.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default="error",
        help="exit 1 when a finding of this severity or a higher one exists "
        "(default: error; never: always exit 0 once the input was read)",
    )
    p.set_defaults(func=_cmd_lint)
