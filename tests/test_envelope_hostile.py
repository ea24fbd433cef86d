"""Hostile input to every envelope entry point: a typed result or InvalidInput, nothing else."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.envelope import (
    DeliveryLedger,
    classify,
    lint,
    materialize_plan,
    offload,
    ref_key,
    resolve_payload,
)
from richout.envelope.skill_budget import canonical_args, run_budget
from richout.errors import InvalidInput
from richout.faces.envelope_ops import OPS

DEPTH = 100_000


def deep_dict(depth: int = DEPTH) -> dict[str, Any]:
    root: dict[str, Any] = {}
    cur = root
    for _ in range(depth):
        nxt: dict[str, Any] = {}
        cur["a"] = nxt
        cur = nxt
    return root


def deep_list(depth: int = DEPTH) -> list[Any]:
    root: list[Any] = []
    cur = root
    for _ in range(depth):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    return root


HOSTILE_VALUES: list[Any] = [
    deep_dict(),
    deep_list(),
    math.nan,
    math.inf,
    -math.inf,
    10**5000,
    {1: "int key", None: "null key", 2.5: "float key"},
    {(1, 2): "tuple key"},
    "x" * 1_000_000,
    "\ud800 lone surrogate",
    b"bytes",
    object(),
]


def _typed_or_invalid(call: Callable[[], Any]) -> None:
    with contextlib.suppress(InvalidInput):
        call()


@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=lambda v: type(v).__name__)
def test_skill_functions_on_hostile_values(value: Any) -> None:
    classify(value)
    classify({"success": False, "error": value, "error_type": value, "non_retriable": value})
    classify({"success": value, "ok": value, "code": value, "warning": value, "data": value})
    materialize_plan({"url": value, "images": [value, {"image_url": value}]})
    lint({"success": False, "error": "e", "data": value})
    _typed_or_invalid(lambda: offload({"success": True, "data": value}, skill="s"))
    _typed_or_invalid(lambda: canonical_args(value))
    _typed_or_invalid(lambda: run_budget({}, [{"tool": "A", "args": value, "result": value}]))


def test_unserializable_results_lint_as_errors() -> None:
    findings = lint({"success": True, "rows": deep_list()})
    assert [f.code for f in findings] == ["skill.not_json"]
    assert findings[0].severity == "error"
    with pytest.raises(InvalidInput):
        offload({"rows": deep_dict()}, skill="s")


@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=lambda v: type(v).__name__)
def test_payload_functions_on_hostile_values(value: Any) -> None:
    fields = ("text", "mediaUrl", "mediaUrls", "audioAsVoice", "channelData", "delivery")
    obj = dict.fromkeys(fields, value)
    got = resolve_payload(obj)
    assert got.media == ([value] if isinstance(value, str) else [])
    resolve_payload({**obj, "text": "x"}, parse_final_directives=True)
    ledger = DeliveryLedger()
    ledger.record_block(obj)
    ledger.record_direct_send({"mediaUrls": [value, "/a.png"]})
    result = ledger.finalize([obj, {"text": "t", "mediaUrls": [value, "/a.png", "/b.png"]}])
    assert result.payloads[1] is not None and result.payloads[1].media_urls == ["/b.png"]
    if isinstance(value, str):
        ref_key(value)
        ref_key("file://" + value)


OP_INPUTS: dict[str, list[Any]] = {
    "payload": [None, [], "text", {"mediaUrls": [deep_list()]}],
    "refKey": [None, 1, ["a"], "file:" + "/" * 100_000],
    "dedupe": [
        None,
        {},
        {"final": None},
        {"final": {}, "streamed": {}},
        {"final": {}, "streamed": [1]},
        {"final": {}, "messageToolSends": {"sentMediaUrls": "x"}},
        {"final": {}, "messageToolSends": {"sentTexts": [None]}},
        {"final": {}, "messageToolSends": {"sentTargets": [deep_dict()]}},
        {"final": {"channelData": deep_dict()}, "streamed": [{"channelData": deep_list()}]},
    ],
    "commentary": [None, {}, {"channel": "webchat", "replyMode": "auto", "blocks": deep_list()}],
    "skillResult": [deep_dict(), deep_list(), math.nan],
    "budget": [None, {"calls": None}, {"calls": [{"tool": "A", "args": deep_dict()}]}],
    "offload": [None, {"skill": None}, {"skill": "s", "result": deep_list()}],
    "materialize": [deep_dict(), {"images": deep_list()}],
}


@pytest.mark.parametrize(
    ("op", "inp"), [(op, inp) for op, inputs in OP_INPUTS.items() for inp in inputs]
)
def test_ops_answer_or_reject(op: str, inp: Any) -> None:
    try:
        out = OPS[op](inp, {})
    except InvalidInput:
        return
    assert isinstance(out, dict)


@pytest.mark.parametrize(
    ("op", "options"),
    [
        ("payload", {"parseFinalDirectives": "yes"}),
        ("payload", {"replyMode": "loud"}),
        ("dedupe", {"route": "telegram"}),
        ("dedupe", {"route": {"provider": "t", "threadId": 1.5}}),
        ("dedupe", {"streamCompleted": 1}),
        ("refKey", {"legacy": "true"}),
        ("offload", {"workspaceDir": 3}),
    ],
)
def test_bad_options_are_invalid_input(op: str, options: dict[str, Any]) -> None:
    inputs = {
        "payload": {"text": "x"},
        "dedupe": {"final": {"text": "x"}},
        "refKey": "/a",
        "offload": {"skill": "s", "result": {}},
    }
    with pytest.raises(InvalidInput):
        OPS[op](inputs[op], options)


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300)
@given(
    st.sampled_from(sorted(OPS)), JSONISH, st.dictionaries(st.text(max_size=8), JSONISH, max_size=3)
)
def test_ops_never_raise_anything_but_invalid_input(
    op: str, inp: Any, options: dict[str, Any]
) -> None:
    try:
        out = OPS[op](inp, options)
    except InvalidInput:
        return
    assert isinstance(out, dict)
