"""Every bundled conformance case passes, and every case file is well formed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from richout.conformance import Case, compare, default_cases_dir, load_cases, run
from richout.profiles import DEFAULT_PROFILE, PROFILES

_CASES = load_cases()
_SCHEMA = json.loads((default_cases_dir().parent / "case.schema.json").read_text(encoding="utf-8"))


def test_cases_are_bundled_for_every_profile() -> None:
    for name in PROFILES:
        ops = Counter(c.op for c in _CASES if c.profile == name)
        assert ops["media"] >= 652 and ops["reply"] >= 649, name
        assert ops["directives"] >= 253 and ops["embed"] >= 158, name
    assert Counter(c.op for c in _CASES if c.profile is None)["render"] >= 40


def test_case_ids_are_unique_and_match_their_files() -> None:
    labels = Counter(c.label for c in _CASES)
    assert [i for i, n in labels.items() if n > 1] == []
    for c in _CASES:
        assert c.path is not None
        if c.profile is None:
            assert c.path.endswith(f"/{c.op}/{c.id}.json")
        else:
            assert c.path.endswith(f"/profiles/{c.profile}/{c.op}.json")
            assert c.profile in PROFILES


def test_case_files_follow_the_schema() -> None:
    required = set(_SCHEMA["required"])
    allowed = set(_SCHEMA["properties"])
    ops = set(_SCHEMA["properties"]["op"]["enum"])
    for path in sorted(default_cases_dir().rglob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        for item in raw if isinstance(raw, list) else [raw]:
            assert required <= set(item) <= allowed, path
            assert item["op"] in ops and isinstance(item["expect"], dict) and item["expect"], path


_GROUPS = sorted({(c.profile or "-", c.op) for c in _CASES})


@pytest.mark.parametrize(("profile", "op"), _GROUPS)
def test_every_case_passes(profile: str, op: str) -> None:
    report = run([c for c in _CASES if (c.profile or "-") == profile and c.op == op])
    assert [f.line() for f in report.failures] == []


def test_default_profile_cases_pass_with_no_profile_given() -> None:
    cases = [c for c in _CASES if c.profile == DEFAULT_PROFILE]
    report = run(cases, with_profile=False)
    assert [f.line() for f in report.failures] == []
    assert report.passed == len(cases)


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
