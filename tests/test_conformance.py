"""Every bundled conformance case passes, and every case file is well formed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from richout.conformance import Case, compare, default_cases_dir, load_cases, run

_CASES = load_cases()
_SCHEMA = json.loads((default_cases_dir().parent / "case.schema.json").read_text(encoding="utf-8"))


def test_cases_are_bundled() -> None:
    ops = Counter(c.op for c in _CASES)
    assert ops["media"] >= 307 and ops["reply"] >= 304 and ops["directives"] >= 57
    assert ops["embed"] >= 42 and ops["render"] >= 40


def test_case_ids_are_unique_and_match_their_file_names() -> None:
    ids = Counter(c.id for c in _CASES)
    assert [i for i, n in ids.items() if n > 1] == []
    for c in _CASES:
        assert c.path is not None
        assert c.path.endswith(f"/{c.op}/{c.id}.json")


def test_case_files_follow_the_schema() -> None:
    required = set(_SCHEMA["required"])
    allowed = set(_SCHEMA["properties"])
    ops = set(_SCHEMA["properties"]["op"]["enum"])
    for path in sorted(default_cases_dir().rglob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        assert required <= set(raw) <= allowed, path
        assert raw["op"] in ops and isinstance(raw["expect"], dict) and raw["expect"], path


@pytest.mark.parametrize("op", sorted({c.op for c in _CASES}))
def test_every_case_passes(op: str) -> None:
    report = run([c for c in _CASES if c.op == op])
    assert [f.line() for f in report.failures] == []


def test_compare_follows_the_null_and_false_rules() -> None:
    case = Case(id="x", op="media", input="", expect={"a": None, "b": False, "c": [{"k": None}]})
    assert compare(case, {"output": {"c": [{}]}}) == []
    assert compare(case, {"output": {"a": None, "b": False, "c": [{"k": None}]}}) == []
    assert [f.field for f in compare(case, {"output": {"a": 1, "b": True, "c": [{"k": 2}]}})] == [
        "a",
        "b",
        "c",
    ]
    assert compare(case, {"error": {"type": "unknown_op"}})[0].field == "<response>"


def test_dotted_keys_address_nested_fields() -> None:
    case = Case(id="x", op="offload", input=None, expect={"receipt.chars": 3})
    assert compare(case, {"output": {"receipt": {"chars": 3}}}) == []
    assert compare(case, {"output": {"receipt": {"chars": 4}}})[0].got == 4
