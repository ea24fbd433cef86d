"""``richout schema`` is the wire contract: every real output validates against it.

The outputs checked are the real answers to every conformance input of every op (each
profile's cases included), so a key the schema calls required but a result leaves out when
empty — or a key it does not know — fails here.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Any

import pytest
from jsonschema import Draft202012Validator

import richout
from richout.faces.conformance_cases import load_cases
from richout.faces.jsonl import handle_request
from richout.faces.ops import OPS
from richout.faces.schema import DRAFT, OP_RESULTS, json_schema, op_results, public_models


@functools.cache
def _doc() -> dict[str, Any]:
    return json_schema()


@functools.cache
def _validator(def_name: str) -> Draft202012Validator:
    """A validator for one ``$defs`` entry, resolved inside the whole document."""
    return Draft202012Validator({**_doc(), "$ref": f"#/$defs/{def_name}"})


def _errors(def_name: str, output: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
        for e in _validator(def_name).iter_errors(output)
    ]


def _cases_by_op() -> dict[str, list[Any]]:
    grouped: dict[str, list[Any]] = defaultdict(list)
    for case in load_cases():
        grouped[case.op].append(case)
    return grouped


_CASES = _cases_by_op()


def test_the_document_is_a_draft_2020_12_schema_with_an_id() -> None:
    doc = _doc()
    assert doc["$schema"] == DRAFT == "https://json-schema.org/draft/2020-12/schema"
    assert isinstance(doc["$id"], str) and doc["$id"].startswith("urn:richout:schema:")
    Draft202012Validator.check_schema(doc)


def test_one_entry_per_public_result_and_one_per_op() -> None:
    doc = _doc()
    entries = {ref["$ref"] for ref in doc["anyOf"]}
    for model in public_models():
        assert f"#/$defs/{model.__name__}" in entries
    # every op this build answers names the entry its output validates against
    assert set(doc["x-richout-ops"]) == set(OPS) == set(OP_RESULTS)
    for op, model in op_results().items():
        assert doc["x-richout-ops"][op] == {"$ref": f"#/$defs/{model.__name__}"}


def test_the_conformance_cases_cover_every_op() -> None:
    assert set(_CASES) == set(OP_RESULTS)


@pytest.mark.parametrize("op", sorted(OP_RESULTS))
def test_every_conformance_output_validates(op: str) -> None:
    def_name = OP_RESULTS[op]
    bad: list[str] = []
    for case in _CASES[op]:
        response = handle_request(case.request())
        assert "output" in response, (case.label, response)
        bad.extend(f"{case.label}: {msg}" for msg in _errors(def_name, response["output"]))
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("op", ["media", "directives", "reply", "embed", "render"])
def test_outputs_without_explanations_validate(op: str) -> None:
    for case in _CASES[op][:200]:
        req = case.request()
        req["options"] = {**req.get("options", {}), "explain": False}
        response = handle_request(req)
        assert not _errors(OP_RESULTS[op], response["output"]), case.label


def test_a_silent_reply_validates() -> None:
    # The reproducer: `printf NO_REPLY | richout parse -`.
    wire = richout.parse_reply("NO_REPLY").to_wire()
    assert "mediaUrls" not in wire and "spans" not in wire
    assert not _errors("Reply", wire)


_REQUIRED = {
    # exactly the keys always on the wire; everything else is absent when empty or None
    "MediaSplit": ["text"],
    "Directives": ["text", "audioAsVoice", "replyToCurrent", "hasAudioTag", "hasReplyTag"],
    "Reply": ["text", "replyToTag", "isSilent"],
    "EmbedResult": ["text", "previews"],
    "RenderedReply": [
        "text",
        "replyTarget",
        "audioAsVoice",
        "attachments",
        "canvas",
        "content",
    ],
    "Diagnostic": ["code", "severity", "message"],
    "Span": ["kind", "start", "end"],
    "SkillClassification": [
        "failed",
        "reason",
        "recoverable",
        "countsAgainstBudget",
        "nonRetriableEffective",
        "blacklistThisRound",
        "partial",
        "configError",
    ],
    "PayloadResult": ["media", "renderable"],
    "DedupeOutput": ["payload"],
}


@pytest.mark.parametrize("name", sorted(_REQUIRED))
def test_required_lists_exactly_the_keys_always_present(name: str) -> None:
    schema = _doc()["$defs"][name]
    assert schema.get("required", []) == _REQUIRED[name]
    assert schema["additionalProperties"] is False


def test_absent_when_empty_keys_are_not_required() -> None:
    defs = _doc()["$defs"]
    for name in ("MediaSplit", "Reply", "Directives", "EmbedResult", "RenderedReply"):
        required = set(defs[name].get("required", []))
        assert not required & {"diagnostics", "spans", "edits", "segments", "mediaUrls"}, name
    for name in ("MediaSplit", "Reply"):
        required = set(defs[name].get("required", []))
        assert not required & {"audioAsVoice", "rejectedMediaCount"}, name


def test_null_reply_target_and_reason_are_allowed() -> None:
    view = richout.render_reply("plain").to_wire()
    assert view["replyTarget"] is None
    assert not _errors("RenderedReply", view)
    assert _errors("RenderedReply", {k: v for k, v in view.items() if k != "replyTarget"})


def test_an_unknown_key_fails() -> None:
    wire = richout.parse_reply("hi").to_wire()
    assert _errors("Reply", {**wire, "mediaURLs": []})
