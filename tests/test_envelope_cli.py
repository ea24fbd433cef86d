"""``richout envelope classify | offload | lint`` and the jsonl faces of the envelope ops."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from richout.envelope import PUBLIC_MODELS, lint
from richout.envelope.lint import RULES
from richout.faces.cli import main
from richout.faces.jsonl import handle_request


def _file(tmp_path: Path, value: Any, name: str = "r.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return str(path)


def test_classify_prints_the_classification(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            ["envelope", "classify", "--compact", _file(tmp_path, {"success": False, "error": "e"})]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["failed"] is True and out["reason"] == "e" and out["countsAgainstBudget"] is True

    many = _file(tmp_path, [{"ok": True}, {"ok": False, "msg": "m"}], "many.json")
    assert main(["envelope", "classify", "--each", many]) == 0
    assert [r["failed"] for r in json.loads(capsys.readouterr().out)] == [False, True]


def test_offload_prints_the_receipt_and_writes_on_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = {"success": True, "rows": list(range(5000))}
    src = _file(tmp_path, result)
    ws = tmp_path / "ws"
    assert main(["envelope", "offload", "--skill", "demo", "--workspace-dir", str(ws), src]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["offloaded"] is True and out["receipt"]["rows_count"] == 5000
    assert not (ws / ".toolout").exists()
    assert (
        main(["envelope", "offload", "--skill", "demo", "--workspace-dir", str(ws), "--write", src])
        == 0
    )
    written = json.loads(capsys.readouterr().out)["path"]
    assert json.loads(Path(written).read_text(encoding="utf-8")) == result


def test_lint_prints_rules_and_exits_on_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["envelope", "lint", _file(tmp_path, {"success": False})]) == 1
    line = capsys.readouterr().out.strip()
    assert line.startswith("error success skill.failure_without_reason:")
    assert "[rule: A failure must give a model-facing reason in error.]" in line

    warn = {"success": False, "error": "connection reset", "non_retriable": True}
    assert main(["envelope", "lint", _file(tmp_path, warn)]) == 0
    assert "skill.non_retriable_misuse" in capsys.readouterr().out

    assert main(["envelope", "lint", "--json", _file(tmp_path, {"ok": True})]) == 0
    assert json.loads(capsys.readouterr().out) == []


LINT_LEVELS = {
    "error": {"success": False},
    "warning": {"success": False, "error": "connection reset", "non_retriable": True},
    "info": {"success": True, "blob": "b" * 13000},
    "clean": {"ok": True},
}
# (--fail-on, the findings' severity) -> exit status: 1 when a finding is at or above the bar.
FAIL_ON_EXITS = {
    "error": {"error": 1, "warning": 0, "info": 0, "clean": 0},
    "warning": {"error": 1, "warning": 1, "info": 0, "clean": 0},
    "info": {"error": 1, "warning": 1, "info": 1, "clean": 0},
    "never": {"error": 0, "warning": 0, "info": 0, "clean": 0},
}


@pytest.mark.parametrize("fail_on", sorted(FAIL_ON_EXITS))
def test_lint_fail_on_sets_the_exit_threshold(
    fail_on: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for level, value in LINT_LEVELS.items():
        src = _file(tmp_path, value, f"{level}.json")
        status = main(["envelope", "lint", "--fail-on", fail_on, src])
        assert status == FAIL_ON_EXITS[fail_on][level], (fail_on, level)
        # The threshold changes the exit status only, never what is printed.
        printed = capsys.readouterr().out
        assert printed == "".join(f"{f.format()}\n" for f in lint(value))


def test_lint_fail_on_default_is_error_and_applies_to_each_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    warn = _file(tmp_path, LINT_LEVELS["warning"])
    assert main(["envelope", "lint", warn]) == 0
    assert "skill.non_retriable_misuse" in capsys.readouterr().out
    many = _file(tmp_path, [{"ok": True}, LINT_LEVELS["warning"]], "many.json")
    assert main(["envelope", "lint", "--each", "--fail-on", "warning", many]) == 1
    assert capsys.readouterr().out.startswith("[1] warning ")
    assert main(["envelope", "lint", "--json", "--fail-on", "warning", warn]) == 1
    assert json.loads(capsys.readouterr().out)[0]["severity"] == "warning"
    with pytest.raises(SystemExit) as exc:
        main(["envelope", "lint", "--fail-on", "warnings", warn])
    assert exc.value.code == 2
    assert "--fail-on" in capsys.readouterr().err


def test_cli_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    assert main(["envelope", "classify", str(bad)]) == 2
    assert "not JSON" in capsys.readouterr().err
    assert main(["envelope", "lint", "--each", _file(tmp_path, {"ok": True})]) == 2
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert main(["envelope", "classify", str(deep)]) == 2


LINTED: list[tuple[dict[str, Any], set[str]]] = [
    (
        {"success": False, "error": "Traceback (most recent call last):\n  ..."},
        {"skill.bare_exception"},
    ),
    (
        {"success": False, "error": "requests.exceptions.ReadTimeout: read timed out"},
        {"skill.bare_exception"},
    ),
    (
        {"success": False, "error": "TimeoutError", "error_type": "transient"},
        {"skill.bare_exception"},
    ),
    (
        {
            "success": False,
            "error": "The upstream API timed out; try again",
            "error_type": "transient",
        },
        set(),
    ),
    (
        {"success": True, "image_urls": [f"https://x.example/{i}" for i in range(9)]},
        {"skill.materialize_capped"},
    ),
    ({"success": True, "blob": "b" * 13000}, {"skill.offloaded"}),
]


@pytest.mark.parametrize(("result", "codes"), LINTED)
def test_lint_findings(result: dict[str, Any], codes: set[str]) -> None:
    findings = lint(result)
    assert {f.code for f in findings} == codes
    assert all(f.rule == RULES[f.code] for f in findings)


def test_every_lint_code_has_a_rule() -> None:
    assert all(code.startswith("skill.") and rule.endswith(".") for code, rule in RULES.items())


def test_jsonl_faces() -> None:
    def ask(op: str, inp: Any, options: dict[str, Any] | None = None) -> dict[str, Any]:
        return handle_request({"id": "1", "op": op, "input": inp, "options": options or {}})

    assert ask("refKey", "file:///srv/a.png")["output"] == {"key": "/srv/a.png"}
    assert ask("refKey", 3)["error"]["type"] == "invalid_input"
    out = ask(
        "dedupe", {"streamed": [{"mediaUrl": "/a"}], "final": {"text": "t", "mediaUrl": "/a"}}
    )
    assert out["output"]["payload"] == {"text": "t"}
    assert out["output"]["diagnostics"][0]["code"] == "dedupe.media_removed"
    assert ask("budget", {"calls": [{"tool": "A"}] * 4})["output"] == {
        "allowed": [True, True, True, False],
        "reasons": [None, None, None, "same_args_repeated"],
    }
    assert (
        ask(
            "commentary", {"channel": "webchat", "replyMode": "x", "capturedRefs": [], "blocks": []}
        )["error"]["type"]
        == "invalid_input"
    )


def test_public_models_have_a_schema() -> None:
    from pydantic.json_schema import models_json_schema

    _, schema = models_json_schema([(m, "serialization") for m in PUBLIC_MODELS])
    assert {m.__name__ for m in PUBLIC_MODELS} <= set(schema["$defs"])
