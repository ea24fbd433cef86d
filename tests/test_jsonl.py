"""The jsonl protocol: one response per request, in order; nothing a request holds ends it."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from richout.jsonl import handle_line, serve


def _serve(lines: list[str]) -> list[dict[str, object]]:
    out = io.StringIO()
    serve(lines, out)
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_every_bad_line_gets_an_error_response_and_the_process_goes_on() -> None:
    got = _serve(
        [
            "not json\n",
            "[1, 2]\n",
            '{"op": "media"}\n',
            '{"id": "a", "op": "nope"}\n',
            '{"id": "b", "op": "media", "input": 42}\n',
            '{"id": "c", "op": "media", "input": "x", "options": []}\n',
            '{"id": "d", "op": "media", "input": "x", '
            '"options": {"extractMediaDirectives": "yes"}}\n',
            '{"id": "e", "op": "media", "input": NaN}\n',
            "\n",
            '{"id": "f", "op": "media", "input": "MEDIA:https://example.com/a.png"}\n',
        ]
    )
    kinds = [r.get("error", {}).get("type") if "error" in r else "ok" for r in got]  # type: ignore[union-attr]
    assert kinds == [
        "invalid_json",
        "invalid_request",
        "invalid_request",
        "unknown_op",
        "invalid_input",
        "invalid_input",
        "invalid_input",
        "invalid_json",
        "ok",
    ]
    assert [r["id"] for r in got] == [None, None, None, "a", "b", "c", "d", None, "f"]
    out = got[-1]["output"]
    assert isinstance(out, dict)
    assert out["text"] == ""
    assert out["mediaUrls"] == ["https://example.com/a.png"]
    assert out["segments"] == [{"type": "media", "url": "https://example.com/a.png"}]


def test_unknown_op_message_lists_the_known_ops() -> None:
    resp = handle_line('{"id": "1", "op": "frobnicate"}')
    assert resp["error"]["type"] == "unknown_op"
    assert "media" in resp["error"]["message"] and "render" in resp["error"]["message"]


def test_lone_surrogates_round_trip_as_json_escapes() -> None:
    got = _serve(['{"id": "s", "op": "embed", "input": "a\\ud800b"}\n'])
    assert got[0]["output"]["text"] == "a\ud800b"  # type: ignore[index]


def test_the_command_answers_in_order_and_exits_zero_at_end_of_input() -> None:
    reqs = b"".join(
        json.dumps({"id": str(i), "op": "directives", "input": f"[[reply_to:{i}]] hi"}).encode()
        + b"\n"
        for i in range(20)
    )
    proc = subprocess.run(
        [sys.executable, "-m", "richout", "jsonl"],
        input=reqs + b"\xff\xfe not utf-8\n",
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0
    lines = [json.loads(x) for x in proc.stdout.decode("utf-8").splitlines()]
    assert [r["id"] for r in lines] == [str(i) for i in range(20)] + [None]
    assert [r["output"]["replyToId"] for r in lines[:20]] == [str(i) for i in range(20)]
    assert lines[-1]["error"]["type"] == "invalid_json"
