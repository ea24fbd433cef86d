"""Skill return envelopes (SKILL_ENVELOPE.md): classification, budget, offload, artifacts."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.envelope import (
    BudgetCall,
    BudgetDecision,
    FailureBudget,
    async_ack,
    async_dispatch,
    backfill_candidates,
    backfill_report,
    background_text,
    classify,
    explain_display_md,
    fill_local_path,
    is_materializable_content_type,
    materialize_plan,
    max_runs,
    offload,
    place_display_md,
    resolve_wall_sec,
)
from richout.envelope.skill_budget import canonical_args, run_budget
from richout.errors import InvalidInput

FAILURE: list[tuple[Any, bool, str | None]] = [
    ({"success": False, "error": "bad token"}, True, "bad token"),
    (
        {
            "success": False,
            "stderr": "Traceback: boom",
            "error": "boom",
            "msg": "m",
            "user_message": "u",
        },
        True,
        "Traceback: boom",
    ),
    ({"success": False, "stderr": "", "error": "boom"}, True, "boom"),
    ({"success": False, "stderr": "  \n", "error": "e"}, True, "e"),
    ({"success": False, "msg": "m", "user_message": "u"}, True, "m"),
    ({"success": False, "user_message": "请稍后再试"}, True, "请稍后再试"),
    ({"ok": False, "error": "e", "msg": "m"}, True, "e"),
    ({"ok": False, "msg": "m", "stderr": "s", "user_message": "u"}, True, "m"),
    ({"ok": False, "user_message": "u"}, True, None),
    ({"success": False}, True, None),
    ({"success": False, "ok": False, "stderr": "s", "error": "e"}, True, "s"),
    ({"success": True, "ok": False, "error": "e"}, True, "e"),
    ({"success": None, "error": "x"}, False, None),
    ({"error": "x"}, False, None),
    ({"success": 0, "error": "e"}, False, None),
    ({"success": "false", "error": "e"}, False, None),
    ({"success": True, "code": 500}, False, None),
    ({"success": False, "error": 7, "msg": "m"}, True, "m"),
    ([{"success": False}], False, None),
    ("failed", False, None),
    (None, False, None),
]


@pytest.mark.parametrize(("result", "failed", "reason"), FAILURE)
def test_failure_and_reason(result: Any, failed: bool, reason: str | None) -> None:
    got = classify(result)
    assert (got.failed, got.reason) == (failed, reason)


RECOVERY: list[tuple[dict[str, Any], bool, bool, bool]] = [
    ({"success": False, "error": "need city", "error_type": "need_param"}, True, False, False),
    ({"success": False, "error": "x", "need_param": "city"}, True, False, False),
    ({"success": False, "error": "x", "need_param": None}, True, False, False),
    ({"success": False, "error": "x", "error_type": "retryable"}, True, False, False),
    ({"success": False, "error": "x", "error_type": "need_input"}, True, False, False),
    ({"success": False, "error": "x", "error_type": "recoverable"}, True, False, False),
    ({"success": False, "error": "x", "error_type": "Recoverable"}, False, True, False),
    ({"success": False, "error": "API key missing", "error_type": "config"}, False, True, False),
    ({"success": False, "error": "timeout", "error_type": "transient"}, False, True, False),
    ({"success": False, "error": "unsupported format", "non_retriable": True}, False, True, True),
    (
        {"success": False, "error": "x", "non_retriable": True, "error_type": "recoverable"},
        True,
        False,
        False,
    ),
    (
        {"success": False, "error": "x", "non_retriable": True, "need_param": "date"},
        True,
        False,
        False,
    ),
    (
        {"success": False, "error": "x", "non_retriable": True, "error_type": "config"},
        False,
        True,
        True,
    ),
    ({"success": False, "error": "x", "non_retriable": "true"}, False, True, False),
    ({"success": True, "need_param": "city"}, False, False, False),
]


@pytest.mark.parametrize(("result", "recoverable", "counts", "effective"), RECOVERY)
def test_recoverability_table(
    result: dict[str, Any], recoverable: bool, counts: bool, effective: bool
) -> None:
    got = classify(result)
    assert (got.recoverable, got.counts_against_budget) == (recoverable, counts)
    assert got.non_retriable_effective is got.blacklist_this_round is effective


@pytest.mark.parametrize(
    ("result", "partial"),
    [
        (
            {
                "success": True,
                "completed": False,
                "success_count": 3,
                "failure_count": 2,
                "data": {},
            },
            True,
        ),
        ({"success": True, "warning": "2 rows skipped", "data": {}}, True),
        ({"ok": True, "data": {}}, False),
        ({"success": True, "warning": " ", "data": {}}, False),
        ({"success": True, "completed": 0}, False),
        ({"success": False, "error": "x", "warning": "w"}, False),
    ],
)
def test_partial(result: dict[str, Any], partial: bool) -> None:
    assert classify(result).partial is partial


DIAGNOSED: list[tuple[Any, list[tuple[str, str]]]] = [
    ({"success": False}, [("skill.failure_without_reason", "success")]),
    ({"ok": False}, [("skill.failure_without_reason", "ok")]),
    (
        {"success": False, "error": "内部错误，请联系管理员"},
        [("skill.internal_error_wording", "error")],
    ),
    (
        {"success": True, "user_message": "Please Contact The Administrator."},
        [("skill.internal_error_wording", "user_message")],
    ),
    (
        {"success": False, "error": "bad", "error_type": "recoverable"},
        [("skill.recoverable_without_fix", "error_type")],
    ),
    ({"success": False, "error": "bad", "error_type": "recoverable", "redirect": "other"}, []),
    (
        {"success": False, "error": "x", "error_type": "Recoverable"},
        [("skill.unknown_error_type", "error_type")],
    ),
    (
        {"success": False, "non_retriable": True, "need_param": "date", "error": "x"},
        [("skill.non_retriable_ignored", "non_retriable")],
    ),
    (
        {"success": False, "error": "connection reset", "non_retriable": True},
        [("skill.non_retriable_misuse", "non_retriable")],
    ),
    (
        {"success": False, "error": "x", "error_type": "transient", "non_retriable": True},
        [("skill.non_retriable_misuse", "non_retriable")],
    ),
    ({"success": False, "error": "missing module foo", "non_retriable": True}, []),
    (
        {"success": False, "error": "x", "non_retriable": "true"},
        [("skill.non_retriable_not_bool", "non_retriable")],
    ),
    ({"success": 0}, [("skill.non_bool_flag", "success")]),
    ({"success": True, "ok": "no"}, [("skill.non_bool_flag", "ok")]),
    ({"success": True, "ok": False, "error": "e"}, [("skill.conflicting_flags", "ok")]),
    ({"code": 500, "error": "x"}, [("skill.code_field_failure", "code")]),
    ({"code": " 404 "}, [("skill.code_field_failure", "code")]),
    ({"code": 200}, []),
    ({"code": "0"}, []),
    ({"code": "E42"}, []),
    ({"success": False, "error": "x", "code": 500}, []),
    (
        {"success": False, "error": "未配置 api_key，请先 save_skill_param"},
        [("skill.config_error_guidance", "error")],
    ),
    ({"success": False, "error": "Please set the thing"}, []),
    ({"success": True, "warning": "some skipped"}, [("skill.partial_without_counts", "warning")]),
    ({"success": True, "completed": False, "succeeded": 1, "failed": 2}, []),
    ({"success": True, "completed": False, "data": {"ok_count": 1, "fail_count": 0}}, []),
    (
        {"success": True, "completed": False, "success_count": "3", "failure_count": 1},
        [("skill.partial_without_counts", "completed")],
    ),
    (
        {"display_md": "x", "display_only": True},
        [("skill.display_only_unimplemented", "display_only")],
    ),
]


@pytest.mark.parametrize(("result", "expected"), DIAGNOSED)
def test_classification_diagnostics(result: Any, expected: list[tuple[str, str]]) -> None:
    got = classify(result)
    assert [(d.code, d.field) for d in got.diagnostics] == expected


def test_config_error_flag() -> None:
    assert classify({"success": False, "error": "HTTP 401"}).config_error
    assert classify({"success": False, "error": "缺少密钥"}).config_error
    assert classify({"success": False, "error": "bad API_Key"}).config_error
    assert not classify({"success": True, "error": "未配置"}).config_error
    assert classify({"success": False, "user_message": "HTTP 401"}).config_error


def test_wire_form_always_has_reason() -> None:
    assert classify({"ok": True}).to_wire()["reason"] is None


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["recoverable", "config", "transient", "need_param", "401", "timeout"]),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=15,
)
ENVELOPE_KEYS = st.sampled_from(
    [
        "success",
        "ok",
        "error",
        "stderr",
        "msg",
        "user_message",
        "need_param",
        "error_type",
        "non_retriable",
        "redirect",
        "completed",
        "warning",
        "code",
        "display_only",
        "data",
    ]
)


@settings(max_examples=400)
@given(st.one_of(JSON, st.dictionaries(ENVELOPE_KEYS, JSON, max_size=8)))
def test_classification_invariants(result: Any) -> None:
    got = classify(result)
    assert not got.recoverable or got.failed
    assert got.counts_against_budget == (got.failed and not got.recoverable)
    assert got.blacklist_this_round == got.non_retriable_effective
    assert not got.non_retriable_effective or got.counts_against_budget
    assert not got.partial or not got.failed
    assert got.reason is None or (got.failed and got.reason.strip() != "")
    assert not got.config_error or got.failed
    assert set(got.to_wire()) >= {"failed", "reason", "recoverable", "partial", "configError"}


# -- budget --------------------------------------------------------------------------------

CONFIG_FAIL = {"success": False, "error": "x", "error_type": "config"}
OK = {"success": True}


def _allowed(calls: list[tuple[str, Any, Any]], **limits: int) -> list[bool]:
    budget = FailureBudget(**limits)
    return [budget.call(tool, args, result).allowed for tool, args, result in calls]


def test_budget_table() -> None:
    assert _allowed([("A", i, CONFIG_FAIL) for i in range(5)]) == [True] * 4 + [False]
    calls = [(t, i, CONFIG_FAIL) for t, n in (("A", 3), ("B", 3), ("C", 2)) for i in range(n)]
    assert _allowed([*calls, ("D", 0, OK)]) == [True] * 8 + [False]
    assert _allowed([("A", {"q": 1}, OK)] * 4) == [True, True, True, False]
    need = {"success": False, "error": "x", "need_param": "city"}
    assert _allowed([("A", i, need) for i in range(6)]) == [True] * 6
    nr = {"success": False, "error": "x", "non_retriable": True}
    assert _allowed([("A", 0, nr), ("A", 1, OK), ("B", 0, OK)]) == [True, False, True]
    seq = [CONFIG_FAIL, CONFIG_FAIL, CONFIG_FAIL, OK, CONFIG_FAIL, OK]
    assert _allowed([("A", i, r) for i, r in enumerate(seq)]) == [True] * 5 + [False]


def test_budget_limits_and_reasons() -> None:
    assert _allowed([("A", i, CONFIG_FAIL) for i in range(3)], per_tool=2) == [True, True, False]
    assert _allowed([("A", 0, OK)] * 3, same_args=1) == [True, False, False]
    budget = FailureBudget(total=1)
    assert budget.call("A", 0, CONFIG_FAIL).allowed and budget.stopped
    assert budget.admit("B").reason == "round_stopped"
    budget = FailureBudget()
    budget.call("A", 0, {"success": False, "error": "x", "non_retriable": True})
    assert budget.admit("A", 1).reason == "skill_disabled" and budget.disabled == {"A"}
    budget = FailureBudget()
    assert [budget.admit("A", {"b": 1, "a": [1]}).reason for _ in range(4)][-1] == (
        "same_args_repeated"
    )
    assert budget.record("A", CONFIG_FAIL, validation_failed=True) is None
    assert budget.failures("A") == 0 and budget.total_failures == 0
    for bad in ({"per_tool": 0}, {"total": True}, {"same_args": 1.5}):
        with pytest.raises(InvalidInput):
            FailureBudget(**bad)  # type: ignore[arg-type]


def test_canonical_args() -> None:
    assert canonical_args({"b": "é", "a": [1, None]}) == '{"a":[1,null],"b":"é"}'
    assert canonical_args(None) == "null"
    with pytest.raises(InvalidInput):
        canonical_args({1: "a", "b": 2})
    with pytest.raises(InvalidInput):
        canonical_args(object())


def test_run_budget_validates_its_input() -> None:
    assert [d.allowed for d in run_budget(None, [{"tool": "A", "result": OK}])] == [True]
    for limits, calls in (
        ([], []),
        ({}, {}),
        ({}, [1]),
        ({}, [{"tool": 1}]),
        ({}, [{"tool": "A", "validationFailed": "yes"}]),
        ({"perTool": -1}, []),
    ):
        with pytest.raises(InvalidInput):
            run_budget(limits, calls)


# -- offload -------------------------------------------------------------------------------


def _path(result: Any, skill: str) -> str:
    text = json.dumps(result, ensure_ascii=False)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"./.toolout/toolout_{skill}_{digest}.json"


def test_offload_receipt_order_and_contents() -> None:
    result = {
        "success": True,
        "display_md": "d" * 20000,
        "ok": "shadowed",
        "rows": [{"i": i, "v": "x" * 400} for i in range(30)],
        "rows_count": "first writer is the list rule",
        "note": "n",
        "flag": None,
        "media": "file",
        "images": [{"url": "u"}],
        "empty": [],
        "blob": "b" * 600,
        "big": {"k": "v" * 2000},
    }
    written: list[tuple[str, str]] = []
    got = offload(result, skill="demo skill/1", write=lambda p, c: written.append((p, c)))
    path = _path(result, skill="demo_skill_1")
    assert got.offloaded and got.path == path
    assert written == [(path, json.dumps(result, ensure_ascii=False))]
    receipt = got.receipt
    assert receipt is not None
    assert list(receipt)[:8] == [
        "ok",
        "offloaded",
        "skill",
        "path",
        "chars",
        "schema_keys",
        "_hint",
        "display_md",
    ]
    assert receipt["ok"] is True and receipt["skill"] == "demo skill/1"
    assert receipt["chars"] == got.serialized_chars == len(written[0][1])
    assert receipt["_hint"] == (
        f"Full result ({receipt['chars']} chars) saved to {path}; read that file for details. "
        "The fields below are a summary."
    )
    assert receipt["display_md"] == "d" * 15000 + f"\n\n…(truncated; full text in {path})"
    assert receipt["rows_count"] == 30
    assert receipt["rows_sample"][0] == json.dumps({"i": 0, "v": "x" * 400})[:300]
    assert list(receipt)[8:] == [
        "success",
        "rows_count",
        "rows_sample",
        "note",
        "flag",
        "media",
        "images",
    ]
    codes = [d.code for d in got.diagnostics]
    assert codes == ["skill.offloaded", "skill.display_md_truncated"]
    assert "blob, big" in got.diagnostics[0].message


def test_offload_boundaries_and_refusals() -> None:
    assert not offload({"pad": "p" * 11989}, skill="s").offloaded
    assert offload({"pad": "p" * 11991}, skill="s").serialized_chars == 12002
    assert not offload({"success": False, "pad": "p" * 13000}, skill="s").offloaded
    assert not offload(["p" * 13000], skill="s").offloaded
    got = offload({"pad": "p" * 13000}, skill="s", workspace_dir="/ws/")
    assert got.path is not None and got.path.startswith("/ws/.toolout/toolout_s_")
    with pytest.raises(InvalidInput):
        offload({1j: 1}, skill="s")  # type: ignore[dict-item]
    with pytest.raises(InvalidInput):
        offload({}, skill=3)  # type: ignore[arg-type]

    def broken(path: str, content: str) -> None:
        raise OSError("disk full")

    failed = offload({"pad": "p" * 13000}, skill="s", write=broken)
    assert not failed.offloaded and failed.receipt is None
    assert failed.diagnostics[0].code == "skill.offload_write_failed"


def test_offload_samples() -> None:
    result = {"items": ["s" * 400, {"k": "v"}, [1] * 200, "x"], "pad": "p" * 12000}
    receipt = offload(result, skill="s").receipt
    assert receipt is not None
    assert receipt["items_count"] == 4
    assert receipt["items_sample"] == ["s" * 300, {"k": "v"}, json.dumps([1] * 200)[:300]]


# -- materialize ---------------------------------------------------------------------------


def test_materialize_plan_diagnostics() -> None:
    got = materialize_plan(
        {"success": True, "image_urls": [f"https://x.example/{i}" for i in range(10)]}
    )
    assert len(got.explicit) == 8 and got.probe == []
    assert [d.code for d in got.diagnostics] == ["skill.materialize_capped"]
    got = materialize_plan({"local_path": "/w/a.png", "image_url": "https://x.example/a.png"})
    assert (got.explicit, got.probe) == ([], [])
    assert [(d.code, d.field) for d in got.diagnostics] == [
        ("skill.materialize_skipped_local", "local_path")
    ]
    got = materialize_plan({"videos": [{"local_path": "/w/v.mp4", "url": "https://x.example/v"}]})
    assert [(d.code, d.field) for d in got.diagnostics] == [
        ("skill.materialize_skipped_local", "videos[0].local_path")
    ]
    assert materialize_plan("https://x.example/a").explicit == []


@pytest.mark.parametrize(
    ("content_type", "ok"),
    [
        ("image/png", True),
        ("TEXT/HTML; charset=utf-8", False),
        ("application/xhtml+xml", False),
        ("application/json", False),
        ("application/ld+json", False),
        ("application/pdf;x=json", True),
        (None, True),
    ],
)
def test_materializable_content_types(content_type: str | None, ok: bool) -> None:
    assert is_materializable_content_type(content_type) is ok


# -- display_md, backfill, retries, async, wall clock --------------------------------------


def test_place_display_md() -> None:
    table = "| a | 1 |"
    assert place_display_md("Body  \n", [table], "web") == "Body\n\n" + table
    assert place_display_md("   ", [{"display_md": table}], "web_admin") == table
    assert place_display_md(f"see {table} above", [f"\n{table}\n"], "web") == f"see {table} above"
    assert place_display_md("Body", [table], "telegram") == "Body"
    assert place_display_md("Body", [table, table, 3, "  "], "web") == "Body\n\n" + table
    only = {"display_md": table, "display_only": True}
    assert place_display_md("Body", [only], "web") == "Body\n\n" + table
    assert place_display_md("Body", [only], "web", honor_display_only=True) == table
    got = explain_display_md("Body", [table, table], "web")
    assert got.appended == [0]
    assert [(d.code, d.field) for d in got.diagnostics] == [
        ("skill.display_md_dropped", "blocks[1].display_md")
    ]
    assert [d.code for d in explain_display_md("B", [table], "WEB").diagnostics] == [
        "skill.display_md_dropped"
    ]


def test_backfill_candidates() -> None:
    names = [
        "report.xlsx",
        ".hidden",
        "toolout_x.json",
        "run.PY",
        "notes.log",
        "a.tar.gz",
        "orders_import_01.json",
        "sub/dir.png",
        "backup.zip",
        "script.py.txt",
    ]
    assert backfill_candidates(names, {"ok": True}) == [
        "report.xlsx",
        "a.tar.gz",
        "orders_import_01.json",
        "backup.zip",
        "script.py.txt",
    ]
    assert "run.PY" in backfill_candidates(names, {"ok": True}, user_wants_scripts=True)
    assert backfill_candidates(names, {"ok": True, "filename": "r.xlsx"}) == []
    assert backfill_candidates(names, ["not an object"]) == []
    report = backfill_report(names, {"ok": True})
    assert [d.field for d in report.diagnostics] == ["names[2]", "names[3]"]
    with pytest.raises(InvalidInput):
        backfill_candidates("report.xlsx", {})


@pytest.mark.parametrize(
    ("kind", "failed", "recent", "runs"),
    [
        ("TimeoutError", False, 0, 3),
        (ConnectionResetError("x"), False, 1, 3),
        ("sqlalchemy.exc.OperationalError", False, 0, 3),
        ("InterfaceError", True, 0, 1),
        (OSError, False, 2, 1),
        ("FileNotFoundError", False, 0, 3),
        ("ValueError", False, 0, 1),
        (KeyError, False, 0, 1),
    ],
)
def test_max_runs(kind: Any, failed: bool, recent: int, runs: int) -> None:
    assert max_runs(kind, failed_this_round=failed, role_recent_failures=recent) == runs


def test_async_and_wall_clock() -> None:
    assert async_dispatch("web") == "sync"
    assert async_dispatch("web_admin", "orgdeleg:42") == "background"
    assert async_dispatch("Web") == "background"
    assert async_dispatch("telegram") == "background"
    assert async_ack("working on it") == {"ok": True, "async": True, "message": "working on it"}
    assert background_text({"message": " ", "result": "done", "text": "t"}) == "done"
    assert background_text({"images": []}) is None
    assert resolve_wall_sec() == 600
    assert resolve_wall_sec(wall_sec=0, timeout_sec=90.2) == 91
    assert resolve_wall_sec(wall_sec=True, metadata_timeout=5000) == 1800
    assert resolve_wall_sec(wall_sec=math.inf, timeout_sec=math.nan, policy="30") == 600
    assert resolve_wall_sec(policy=10**400) == 1800
    with pytest.raises(InvalidInput):
        max_runs("TimeoutError", failed_this_round=False, role_recent_failures=-1)
    with pytest.raises(InvalidInput):
        async_ack(None)  # type: ignore[arg-type]


def test_fill_local_path() -> None:
    assert fill_local_path({"ok": True, "filename": "r.xlsx"}, "/ws") == {
        "ok": True,
        "filename": "r.xlsx",
        "local_path": "/ws/r.xlsx",
    }
    kept = {"filename": "r.xlsx", "local_path": "/elsewhere/r.xlsx"}
    assert fill_local_path(kept, "/ws/") is kept
    assert fill_local_path({"filename": " "}, "/ws") == {"filename": " "}
    assert fill_local_path("r.xlsx", "/ws") == "r.xlsx"


# -- budget: the classification comes back (issue 10, item 3) -------------------------------


def test_call_returns_the_classification_with_the_verdict() -> None:
    budget = FailureBudget(per_tool=1)
    ran = budget.call("A", 0, CONFIG_FAIL)
    assert isinstance(ran, BudgetCall)
    assert ran.allowed and ran.reason is None and ran.decision == BudgetDecision(allowed=True)
    assert ran.classification == classify(CONFIG_FAIL)
    assert ran.classification is not None and ran.classification.counts_against_budget
    refused = budget.call("A", 1, OK)  # per_tool=1: the failure above disabled A
    assert not refused.allowed and refused.reason == "skill_disabled"
    assert refused.classification is None  # refused calls are not classified
    unvalidated = FailureBudget().call("A", 0, CONFIG_FAIL, validation_failed=True)
    assert unvalidated.allowed and unvalidated.classification is None


def test_record_returns_a_value_whenever_one_exists() -> None:
    budget = FailureBudget()
    verdict = budget.record("A", OK)
    # No Optional here: mypy --strict checks this file, so the attribute access proves it.
    assert verdict.failed is False and verdict == classify(OK)
    assert budget.record("A", OK, validation_failed=False).failed is False
    assert budget.record("A", CONFIG_FAIL, validation_failed=True) is None
