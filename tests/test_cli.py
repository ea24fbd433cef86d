"""The command line: parse, render, schema, conformance, input errors."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from richout.faces.cli import main

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
        "expect": {
            "text": "",
            "attachments": [{"url": "file:///srv/a.png", "kind": "image", "source": "file_url"}],
        },
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


# --- issue 9: --version --------------------------------------------------------------------


def test_version_flag_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    import richout

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"richout {richout.__version__}\n"
    proc = _run("--version")
    assert proc.returncode == 0
    assert proc.stdout.decode() == f"richout {richout.__version__}\n"


# --- issue 9, defect 7: a conformance runner contributors trust ---------------------------


def _conformance(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["conformance", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_conformance_unknown_op_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _conformance(capsys, "--op", "bogus")
    assert code == 2 and out == ""
    assert "unknown op 'bogus'" in err and "media" in err and "refKey" in err
    code, _, err = _conformance(capsys, "--op", "medai")
    assert code == 2 and "did you mean media?" in err


def test_conformance_missing_or_empty_case_folders_are_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _conformance(capsys, "--cases", str(tmp_path / "nope"))
    assert (code, out) == (2, "") and "does not exist" in err
    code, out, err = _conformance(capsys, "--cases", str(tmp_path))
    assert (code, out) == (2, "") and "no case files" in err
    # Cases exist, but none of the op asked for.
    code, out, err = _conformance(capsys, "--cases", str(_cases(tmp_path)), "--op", "budget")
    assert (code, out) == (2, "") and "no cases to run" in err and "budget" in err


def test_conformance_unreadable_cases_name_the_file_and_index(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "render" / "broken.json"
    bad.parent.mkdir()
    bad.write_text('{"id": "x", "op": "render",')
    code, out, err = _conformance(capsys, "--cases", str(tmp_path))
    assert (code, out) == (2, "")
    assert str(bad) in err and "not JSON" in err and "Traceback" not in err
    ok = {"id": "a", "op": "embed", "input": "x", "expect": {"text": "x"}}
    bad.write_text(json.dumps([ok, {"id": "b", "op": "embed", "input": "x"}]))
    code, _, err = _conformance(capsys, "--cases", str(tmp_path))
    assert code == 2
    assert f"{bad}, case [1] (id 'b'): the case has no expect" in err
    bad.write_text(json.dumps({"id": "c", "input": "x", "expect": {"text": "x"}}))
    code, _, err = _conformance(capsys, "--cases", str(tmp_path))
    assert code == 2 and f"{bad} (id 'c'): the case has no op" in err


def _program(tmp_path: Path, body: str) -> str:
    """A fake jsonl program: ``body`` runs with ``reqs``, the request objects read from stdin."""
    script = tmp_path / "prog.py"
    script.write_text(
        "import json, sys\n"
        "reqs = [json.loads(x) for x in sys.stdin.buffer.read().split(b'\\n') if x]\n"
        "out = sys.stdout.buffer\n" + body
    )
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def test_conformance_missing_program_is_an_error_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _conformance(capsys, "--op", "embed", "--program", "no-such-command-x9")
    assert (code, out) == (2, "")
    assert "cannot run 'no-such-command-x9'" in err and "Traceback" not in err


def test_conformance_crashed_program_is_reported_once_with_status_and_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prog = _program(
        tmp_path,
        # Answers the first request, then crashes.
        "r = reqs[0]\n"
        "out.write(json.dumps({'id': r['id'], 'output': {'text': r['input']}}).encode() + b'\\n')\n"
        "sys.stderr.write('Traceback: something broke\\n')\n"
        "sys.exit(3)\n",
    )
    code, out, err = _conformance(
        capsys, "--cases", str(_cases(tmp_path / "c")), "--op", "embed", "--program", prog
    )
    assert code == 1
    assert err.count("exited with status 3") == 1 and err.count("something broke") == 1
    assert "answering 1 of 3 cases" in err
    lines = out.splitlines()
    assert lines[-1] == "0 passed, 3 failed"  # bad.one answered (wrongly); two unanswered
    assert lines[0] == 'FAIL next/embed/bad.one text: expected "y", got "x"'
    assert sum(line.endswith("<response>: no response") for line in lines) == 2
    assert "something broke" not in out


def test_conformance_timeout_is_reported_not_raised(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prog = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(60)'"
    code, out, err = _conformance(
        capsys, "--op", "embed", "--profile", "next", "--program", prog, "--timeout", "0.3"
    )
    assert code == 1
    assert "did not finish within 0.3 s" in err and "Traceback" not in err
    assert out.splitlines()[-1] == "0 passed, 158 failed"


def test_conformance_timeout_must_be_positive() -> None:
    proc = _run("conformance", "--timeout", "0")
    assert proc.returncode == 2 and b"positive number of seconds" in proc.stderr


def test_conformance_program_responses_split_at_lf_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Raw U+2028 / U+0085 / CR in a response's strings (legal JSON) do not break the line."""
    text = "a\u2028b\u0085c\u2029d"
    (tmp_path / "c" / "render").mkdir(parents=True)
    case = {"id": "sep", "op": "render", "input": text, "expect": {"text": text}}
    (tmp_path / "c" / "render" / "sep.json").write_text(json.dumps(case))
    prog = _program(
        tmp_path,
        "for r in reqs:\n"
        "    resp = {'id': r['id'], 'output': {'text': r['input']}}\n"
        "    out.write(json.dumps(resp, ensure_ascii=False).encode() + b'\\r\\n')\n",
    )
    code, out, err = _conformance(capsys, "--cases", str(tmp_path / "c"), "--program", prog)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "1 passed, 0 failed"


def test_conformance_reports_json_and_junit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import xml.etree.ElementTree as ET

    cases = str(_cases(tmp_path / "c"))
    rj, rx = tmp_path / "r.json", tmp_path / "r.xml"
    code, out, err = _conformance(
        capsys, "--cases", cases, "--report", "json", str(rj), "--report", "junit", str(rx)
    )
    assert code == 1 and err == ""
    assert out.splitlines()[-1] == "5 passed, 1 failed"
    data = json.loads(rj.read_text(encoding="utf-8"))
    assert (data["passed"], data["failed"], data["problems"]) == (5, 1, [])
    assert {"profile": "next", "op": "embed", "passed": 1, "failed": 1} in data["groups"]
    failed = [c for c in data["cases"] if c["status"] != "passed"]
    assert failed == [
        {
            "label": "next/embed/bad.one",
            "profile": "next",
            "op": "embed",
            "id": "bad.one",
            "path": str(tmp_path / "c" / "profiles" / "next" / "embed.json"),
            "status": "failed",
            "failures": [{"field": "text", "expected": "y", "got": "x"}],
        }
    ]
    root = ET.parse(rx).getroot()
    assert root.tag == "testsuites" and (root.get("tests"), root.get("failures")) == ("6", "1")
    names = sorted(tc.get("name", "") for tc in root.iter("testcase"))
    assert names == [
        "-/render/render.one",
        "next/embed/bad.one",
        "next/embed/ok.one",
        "next/media/v6",
        "release-2026.9.6/embed/ok.one",
        "release-2026.9.6/media/v6",
    ]
    (failure,) = root.iter("failure")
    assert failure.get("message") == 'text: expected "y", got "x"'
    assert failure.text == 'FAIL next/embed/bad.one text: expected "y", got "x"'
    code, _, err = _conformance(capsys, "--cases", cases, "--report", "xml", str(rx))
    assert code == 2 and "json or junit" in err


def test_conformance_junit_escapes_what_xml_cannot_carry(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from richout.faces.conformance import run
    from richout.faces.conformance_cases import Case

    case = Case(id="ctl", op="embed", input="a\x00\ud800\ufffe", expect={"text": "b\x1c"})
    report = run([case])
    xml = report.to_junit()
    (failure,) = ET.fromstring(xml.split("\n", 1)[1]).iter("failure")
    assert "\\u001c" in (failure.text or "") and "\\ud800" in (failure.text or "")


def test_conformance_progress_is_quiet_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _conformance(capsys, "--op", "embed", "--profile", "next")
    assert code == 0 and err == ""
    assert out.splitlines()[-1] == "158 passed, 0 failed"
