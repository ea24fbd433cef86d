"""The jsonl protocol: one response per request, in order; nothing a request holds ends it."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from richout.faces.jsonl import handle_line, handle_request, serve
from richout.faces.ops import OPS


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


# --- issue 9, defect 6: unknown option names are errors for every op ----------------------


@pytest.mark.parametrize("op", sorted(OPS))
def test_every_op_rejects_an_unknown_option_name_and_names_the_known_ones(op: str) -> None:
    resp = handle_request({"id": "1", "op": op, "input": {}, "options": {"bogusOption": 1}})
    assert resp["error"]["type"] == "invalid_options"
    message = resp["error"]["message"]
    assert "bogusOption" in message
    known = OPS[op].options
    assert all(name in message for name in known) and (known or "none" in message)


def test_every_op_has_one_option_table_entry() -> None:
    assert all(name == op.name for name, op in OPS.items())


@pytest.mark.parametrize(
    ("op", "inp"),
    [("reply", "[[reply_to_current]] hi"), ("payload", {"text": "x"}), ("dedupe", {"final": {}})],
)
def test_a_python_or_misspelt_option_name_is_not_silently_ignored(op: str, inp: object) -> None:
    for name in ("currentMessageID", "current_message_id"):
        resp = handle_request({"id": "1", "op": op, "input": inp, "options": {name: "m"}})
        assert resp["error"]["type"] == "invalid_options", resp
        assert "currentMessageId" in resp["error"]["message"]


def test_known_envelope_options_still_work() -> None:
    resp = handle_request(
        {"id": "1", "op": "refKey", "input": "file:///srv/a.png", "options": {"legacy": False}}
    )
    assert resp["output"] == {"key": "/srv/a.png"}


# --- issue 9, defect 15: one response per line; lines end at LF only ------------------------


def test_lines_python_calls_blank_but_json_does_not_get_a_response() -> None:
    odd = ["\x1c\n", "\x0b\x0c\n", "\u2028\n", "\u00a0\n", "\u0085\n", "\x1d\x1e\n"]
    got = _serve([*odd, "\n", " \t\r\n", "", '{"id": "z", "op": "embed", "input": "z"}'])
    assert [r["id"] for r in got] == [None] * len(odd) + ["z"]
    assert all(r["error"]["type"] == "invalid_json" for r in got[:-1])  # type: ignore[index]


def test_bytes_lines_are_served_too_and_bad_utf8_is_an_error_response() -> None:
    got = _serve([b'{"id": "b", "op": "embed", "input": "\xc3\xa9"}\r\n', b"\xff\n", b" \r\n"])  # type: ignore[list-item]
    assert got[0] == {"id": "b", "output": {"text": "\u00e9", "previews": []}}
    assert got[1]["error"]["type"] == "invalid_json"  # type: ignore[index]
    assert len(got) == 2


def test_the_command_splits_requests_at_lf_only() -> None:
    stdin = b"".join(
        [
            b'{"id":"cr","op":"media",\r"input":"x"}\n',  # a bare CR is JSON whitespace
            b'{"id":"crlf","op":"embed","input":"a\xe2\x80\xa8b\xc2\x85c\\rd"}\r\n',
            b'{"id":"sep",\xe2\x80\xa8"op":"embed"}\n',  # U+2028 is not JSON whitespace
            b"\x1c\n",
            b"\xe2\x80\xa8\n",
            b"\xc2\x85\n",
            b"\x0b\x0c\n",
            b" \t\r\n",
            b"\n",
            b'{"id":"last","op":"embed","input":"z"}',  # no final LF
        ]
    )
    proc = subprocess.run(
        [sys.executable, "-m", "richout", "jsonl"], input=stdin, capture_output=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    raw_lines = proc.stdout.split(b"\n")
    assert raw_lines[-1] == b""
    # Each response is one line even for splitters that break on U+2028 / U+0085.
    assert all(len(x.decode("utf-8").splitlines()) == 1 for x in raw_lines[:-1])
    got = [json.loads(x) for x in raw_lines[:-1]]
    assert [r["id"] for r in got] == ["cr", "crlf", None, None, None, None, None, "last"]
    assert got[0]["output"]["text"] == "x"
    assert got[1]["output"]["text"] == "a\u2028b\u0085c\rd"
    assert all(r["error"]["type"] == "invalid_json" for r in got[2:7])
