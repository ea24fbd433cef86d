"""Run conformance cases through any `richout jsonl`-protocol program and compare (JSONL.md).

    python scripts/check_cases.py --program "node scripts/openclaw_driver.mjs" CASES...

CASES are files or folders (searched recursively for *.json). A file holds one case object
or a JSON array of cases (the shared vectors' format, e.g. vectors/profiles/<profile>/
media.json); files that hold no case (a schema) are skipped. `--profile NAME` adds
`options.profile` to every request (for richout); `--op` keeps one op.

Comparison: only the keys named in `expect`; a dotted key addresses a nested field; null in
`expect` matches absent or null, false matches absent or false; below the top level values
compare exactly with the same null/absent rule; strings compare code point by code point.
Prints one FAIL line per mismatch and ends with `N passed, N failed`; exit status 1 when
anything failed, 2 when the program cannot be run. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from differential import JsonlProgram, ProgramError, canonical

Json = Any
_MISSING = object()


def load_cases(paths: list[str]) -> list[dict[str, Json]]:
    files: list[Path] = []
    for name in paths:
        path = Path(name)
        files += sorted(path.rglob("*.json")) if path.is_dir() else [path]
    cases: list[dict[str, Json]] = []
    for file in files:
        data = json.loads(file.read_text(encoding="utf-8"))
        items = data if isinstance(data, list) else [data]
        cases += [
            item
            for item in items
            if isinstance(item, dict) and "op" in item and "expect" in item and "id" in item
        ]
    return cases


def lookup(output: dict[str, Json], key: str) -> Json:
    value: Json = output
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            return _MISSING
        value = value[part]
    return value


def mismatches(expect: dict[str, Json], output: dict[str, Json]) -> list[tuple[str, Json, Json]]:
    """(field, expected, got) for every expected field the output does not match."""
    found: list[tuple[str, Json, Json]] = []
    for key, want in expect.items():
        got = lookup(output, key)
        if want is None:
            ok = got is _MISSING or got is None
        elif want is False:
            ok = got is _MISSING or got is None or got is False
        else:
            ok = got is not _MISSING and canonical(want) == canonical(got)
        if not ok:
            found.append((key, want, None if got is _MISSING else got))
    return found


def short(value: Json) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 300 else text[:297] + "..."


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check conformance cases against a program.")
    parser.add_argument("--program", required=True, help="the jsonl program to run")
    parser.add_argument("--profile", default="", help="options.profile to send (none)")
    parser.add_argument("--op", help="only cases of this op")
    parser.add_argument("cases", nargs="+", help="case files or folders")
    args = parser.parse_args(argv)

    cases = load_cases(args.cases)
    if args.op:
        cases = [case for case in cases if case["op"] == args.op]
    requests = []
    for case in cases:
        options = dict(case.get("options") or {})
        if args.profile:
            options["profile"] = args.profile
        request = {"id": case["id"], "op": case["op"], "input": case["input"]}
        if options:
            request["options"] = options
        requests.append(request)
    try:
        with JsonlProgram(args.program, "program") as program:
            responses = program.run(requests)
    except ProgramError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    passed = failed = 0
    for case, response in zip(cases, responses, strict=True):
        if "error" in response:
            failed += 1
            print(f"FAIL {case['id']} error: {short(response['error'])}")
            continue
        found = mismatches(case["expect"], response.get("output") or {})
        if not found:
            passed += 1
            continue
        failed += 1
        for key, want, got in found:
            print(f"FAIL {case['id']} {key}: expected {short(want)}, got {short(got)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
