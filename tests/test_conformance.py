"""Every bundled conformance case passes, and every case file is well formed."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from richout.faces.conformance import compare, run
from richout.faces.conformance_cases import Case, default_cases_dir, load_cases
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
            assert c.path.endswith(f"/cases/{c.op}.json")
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


# --- issue 9, defect 7: the runner's Python API -------------------------------------------

import io  # noqa: E402  (appended section)
import re  # noqa: E402
from pathlib import Path  # noqa: E402


def test_load_cases_errors_name_the_file_and_the_case(tmp_path: Path) -> None:
    from richout.faces.conformance_cases import CaseError

    with pytest.raises(CaseError, match="does not exist"):
        load_cases(tmp_path / "missing")
    with pytest.raises(CaseError, match="no case files"):
        load_cases(tmp_path)
    path = tmp_path / "profiles" / "next" / "embed.json"
    path.parent.mkdir(parents=True)
    path.write_text("[{]")
    with pytest.raises(CaseError, match=f"^{re.escape(str(path))}: not JSON"):
        load_cases(tmp_path)
    path.write_text(json.dumps([{"id": "a", "op": "embed", "expect": {}}]))
    with pytest.raises(CaseError, match=r"case \[0\] \(id 'a'\): expect must be a non-empty"):
        load_cases(tmp_path)
    path.write_text(json.dumps([{"id": "a", "op": "embed", "expect": {"text": ""}}, 3]))
    with pytest.raises(CaseError, match=r"case \[1\]: a case must be a JSON object"):
        load_cases(tmp_path)
    path.write_text(json.dumps([{"id": "a", "op": "embed", "expect": {"text": ""}}]))
    (case,) = load_cases(path)  # one file works too, its profile read from its place
    assert case.label == "next/embed/a"


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_draws_a_bar_on_a_terminal_and_plain_lines_otherwise() -> None:
    from richout.faces.conformance_report import Progress

    now = [0.0]
    tty = _Stream(tty=True)
    bar = Progress(tty, width=4, clock=lambda: now[0])
    assert bar.mode == "bar"
    bar(1, 4)  # too soon after the start: not drawn
    now[0] = 1.0
    bar(2, 4)
    bar(3, 4)  # too soon after the last draw
    bar(4, 4)  # the end is always drawn
    bar.close()
    assert tty.getvalue() == "\r[##--] 2/4 cases (50%)\r[####] 4/4 cases (100%)\r\x1b[2K"

    now[0] = 0.0
    plain = _Stream(tty=False)
    lines = Progress(plain, interval=10.0, clock=lambda: now[0])
    assert lines.mode == "lines"
    for done in range(1, 101):
        now[0] = done * 0.25  # a case every quarter second: a line every 40 cases
        lines(done, 100)
    lines.close()
    assert plain.getvalue().splitlines() == [
        "conformance: 40/100 cases (40%)",
        "conformance: 80/100 cases (80%)",
    ]


def test_run_reports_progress_and_per_case_results() -> None:
    cases = [
        Case(id="a", op="embed", input="x", expect={"text": "x"}),
        Case(id="b", op="embed", input="x", expect={"text": "y"}),
    ]
    seen: list[tuple[int, int]] = []
    report = run(cases, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)]
    assert [(r.case.id, r.passed) for r in report.results] == [("a", True), ("b", False)]
    assert not report.ok and report.summary() == "1 passed, 1 failed"
