"""The command line: parse, render, schema, conformance, input errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from richout.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "reply.md"


def _run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "richout", *args], input=stdin, capture_output=True, check=False
    )


def test_parse_prints_the_delivery_view_of_the_bundled_example() -> None:
    proc = _run("parse", str(EXAMPLE), "--current-message-id", "m-1")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["mediaUrls"] == [
        "https://example.com/charts/q3.png",
        "/workspace/reports/Q3 summary.xlsx",
    ]
    assert out["replyToId"] == "m-1" and out["replyToTag"] is True
    assert "MEDIA:/workspace/this/stays/code.png" in out["text"]
    assert "[embed" in out["text"]  # embeds are not rendered on delivery


def test_render_turns_the_embed_into_a_canvas_block() -> None:
    proc = _run("render", str(EXAMPLE), "--compact")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["canvas"] == [
        {
            "type": "canvas",
            "preview": {
                "kind": "canvas",
                "surface": "assistant_message",
                "render": "url",
                "url": "/__openclaw__/canvas/documents/cv_q3/index.html",
                "viewId": "cv_q3",
                "title": "Q3 dashboard",
                "preferredHeight": 320,
            },
        }
    ]
    assert out["replyTarget"] == {"mode": "current"}
    assert len(proc.stdout.strip().splitlines()) == 1


def test_parse_reads_stdin_and_python_dash_m_works() -> None:
    proc = _run("parse", "-", stdin=b"Hi\nMEDIA:https://example.com/a.png")
    assert json.loads(proc.stdout)["mediaUrls"] == ["https://example.com/a.png"]


def test_non_utf8_input_is_a_clear_error_unless_replacement_is_asked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"Hi \xff\xfe\nMEDIA:https://example.com/a.png")
    proc = _run("parse", str(bad))
    assert proc.returncode == 2
    assert b"not UTF-8" in proc.stderr and b"offset 3" in proc.stderr
    proc = _run("parse", str(bad), "--replace-invalid")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["text"] == "Hi \ufffd\ufffd"


def test_missing_file_is_exit_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "/nonexistent/reply.md"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_schema_lists_the_public_models() -> None:
    proc = _run("schema")
    schema = json.loads(proc.stdout)
    for name in ("MediaSplit", "Reply", "RenderedReply", "CanvasBlock", "Diagnostic"):
        assert name in schema["$defs"]
    props = schema["$defs"]["MediaSplit"]["properties"]
    assert "mediaUrls" in props and "media_urls" not in props


def test_conformance_through_a_program_matches_in_process() -> None:
    proc = _run("conformance", "--op", "embed", "--program", f"{sys.executable} -m richout jsonl")
    last = proc.stdout.decode().strip().splitlines()[-1]
    assert last.endswith(" passed, 0 failed"), proc.stdout
    assert proc.returncode == 0


_V6 = "MEDIA:https://[2001:4860:4860::8888]/a.png"


def _cases(root: Path) -> Path:
    """A small case tree in the bundled layout: per-profile op arrays plus one own-op case."""
    prof = root / "profiles"
    (prof / "next").mkdir(parents=True)
    (prof / "release-2026.9.6").mkdir(parents=True)
    bad = {"id": "bad.one", "op": "embed", "input": "x", "expect": {"text": "y"}}
    ok = {"id": "ok.one", "op": "embed", "input": "x", "expect": {"text": "x"}}
    (prof / "next" / "embed.json").write_text(json.dumps([bad, ok]))
    (prof / "release-2026.9.6" / "embed.json").write_text(json.dumps([ok]))
    # Passes only when each folder's cases run with their own profile.
    v6 = {"id": "v6", "op": "media", "input": _V6}
    (prof / "next" / "media.json").write_text(
        json.dumps([{**v6, "expect": {"text": "", "mediaUrls": [_V6[6:]]}}])
    )
    (prof / "release-2026.9.6" / "media.json").write_text(
        json.dumps([{**v6, "expect": {"text": _V6, "mediaUrls": None}}])
    )
    (root / "render").mkdir()
    render = {
        "id": "render.one",
        "op": "render",
        "input": "MEDIA:file:///srv/a.png",
        "expect": {"text": "", "attachments": [{"url": "file:///srv/a.png"}]},
    }
    (root / "render" / "render.one.json").write_text(json.dumps(render))
    return root


def test_conformance_reports_failures_with_exit_status_1(tmp_path: Path) -> None:
    proc = _run("conformance", "--cases", str(_cases(tmp_path)))
    lines = proc.stdout.decode().strip().splitlines()
    assert lines == [
        'FAIL next/embed/bad.one text: expected "y", got "x"',
        "- render: 1 passed, 0 failed",
        "next embed: 1 passed, 1 failed",
        "next media: 1 passed, 0 failed",
        "release-2026.9.6 embed: 1 passed, 0 failed",
        "release-2026.9.6 media: 1 passed, 0 failed",
        "5 passed, 1 failed",
    ]
    assert proc.returncode == 1


def test_conformance_profile_filter(tmp_path: Path) -> None:
    cases = str(_cases(tmp_path))
    proc = _run("conformance", "--cases", cases, "--profile", "release-2026.9.6")
    assert proc.stdout.decode().strip().splitlines() == [
        "- render: 1 passed, 0 failed",
        "release-2026.9.6 embed: 1 passed, 0 failed",
        "release-2026.9.6 media: 1 passed, 0 failed",
        "3 passed, 0 failed",
    ]
    assert proc.returncode == 0
    proc = _run("conformance", "--cases", cases, "--profile", "next", "--op", "embed")
    assert proc.stdout.decode().strip().splitlines() == [
        'FAIL next/embed/bad.one text: expected "y", got "x"',
        "next embed: 1 passed, 1 failed",
        "1 passed, 1 failed",
    ]
    assert proc.returncode == 1
    proc = _run("conformance", "--cases", cases, "--profile", "all", "--op", "media")
    assert proc.stdout.decode().strip().splitlines()[-1] == "2 passed, 0 failed"
    assert proc.returncode == 0
    proc = _run("conformance", "--cases", cases, "--profile", "no-such-profile")
    assert proc.returncode == 2
    assert b"no-such-profile" in proc.stderr


def test_bundled_conformance_prints_a_line_per_profile_and_op() -> None:
    proc = _run("conformance", "--op", "embed", "--op", "render")
    lines = proc.stdout.decode().strip().splitlines()
    assert [line.split(":")[0] for line in lines[:-1]] == [
        "- render",
        "next embed",
        "release-2026.9.6 embed",
    ]
    assert all(line.endswith(" passed, 0 failed") for line in lines)
    assert proc.returncode == 0
