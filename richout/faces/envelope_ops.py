"""The envelope's ``richout jsonl`` ops (JSONL.md): argument checking and wire conversion only.

Each handler takes the request's ``input`` and ``options`` and returns the output object with
wire names; bad arguments raise :class:`~richout.errors.InvalidInput`. :data:`OPS` holds them
as :class:`~richout.faces.op.Op` records, so an option name the op does not take raises
:class:`~richout.errors.InvalidOptions` naming the ones it does, exactly as the text ops of
:mod:`richout.faces.text_ops` do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from richout.errors import InvalidInput
from richout.faces.op import Op, opt_bool, opt_str, table
from richout.models import Diagnostic

__all__ = ["OPS"]

_DIRECTIVE_OPTIONS = (
    "parseFinalDirectives",
    "currentMessageId",
    "extractMarkdownImages",
    "silentToken",
    "replyMode",
)


def _reply_mode(options: Mapping[str, Any]) -> Any:
    mode = opt_str(options, "replyMode", "auto")
    if mode not in ("auto", "message_tool_only"):
        raise InvalidInput(f"option replyMode must be 'auto' or 'message_tool_only', got {mode!r}")
    return mode


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{what} must be a JSON object")
    return value


def _diags(found: list[Diagnostic]) -> list[dict[str, Any]]:
    return [d.to_wire() for d in found]


def _payload(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.payload import resolve_payload

    result = resolve_payload(
        _object(inp, "input (a reply payload)"),
        parse_final_directives=opt_bool(options, "parseFinalDirectives", False),
        current_message_id=opt_str(options, "currentMessageId"),
        extract_markdown_images=opt_bool(options, "extractMarkdownImages", False),
        silent_token=opt_str(options, "silentToken", "NO_REPLY") or "NO_REPLY",
        reply_mode=_reply_mode(options),
    )
    return result.to_wire()


def _ref_key(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.refkey import ref_key

    if not isinstance(inp, str):
        raise InvalidInput("input must be one media reference string")
    return {"key": ref_key(inp, legacy=opt_bool(options, "legacy", False))}


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidInput(f"{what} must be a list")
    return value


def _dedupe(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.dedupe import DeliveryLedger

    data = _object(inp, 'input ({"streamed", "final", ...})')
    if "final" not in data:
        raise InvalidInput('input needs "final" (the final payload)')
    ledger = DeliveryLedger(route=options.get("route"))
    for block in _list(data.get("streamed"), "streamed"):
        ledger.record_block(_object(block, "each streamed entry"))
    for sent in _list(data.get("directSends"), "directSends"):
        ledger.record_direct_send(_object(sent, "each directSends entry"))
    tool = data.get("messageToolSends")
    if tool is not None:
        tool = _object(tool, "messageToolSends")
        ledger.record_message_evidence(
            sent_media_urls=_list(tool.get("sentMediaUrls"), "messageToolSends.sentMediaUrls"),
            sent_texts=_list(tool.get("sentTexts"), "messageToolSends.sentTexts"),
            sent_targets=_list(tool.get("sentTargets"), "messageToolSends.sentTargets"),
        )
    result = ledger.finalize_one(
        _object(data["final"], "final"),
        path="final",
        stream_completed=opt_bool(options, "streamCompleted", True),
        block_streaming=opt_bool(options, "blockStreaming", True),
        parse_final_directives=opt_bool(options, "parseFinalDirectives", False),
        current_message_id=opt_str(options, "currentMessageId"),
        extract_markdown_images=opt_bool(options, "extractMarkdownImages", False),
        silent_token=opt_str(options, "silentToken", "NO_REPLY") or "NO_REPLY",
        reply_mode=_reply_mode(options),
    )
    final = result.payloads[0]
    out: dict[str, Any] = {"payload": None if final is None else final.delivery_view()}
    if result.diagnostics:
        out["diagnostics"] = _diags(result.diagnostics)
    return out


def _commentary(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.commentary import capture_commentary

    data = _object(inp, 'input ({"channel", "replyMode", "capturedRefs", "blocks"})')
    channel: Any = data.get("channel")
    mode: Any = data.get("replyMode")
    blocks: Any = data.get("blocks")
    return capture_commentary(
        channel=channel,
        reply_mode=mode,
        captured_refs=data.get("capturedRefs"),
        blocks=blocks,
    ).to_wire()


def _skill_result(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.skill import classify

    return classify(inp).to_wire()


def _budget(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.skill_budget import run_budget

    data = _object(inp, 'input ({"limits", "calls"})')
    decisions = run_budget(data.get("limits"), data.get("calls"))
    return {
        "allowed": [d.allowed for d in decisions],
        "reasons": [d.reason for d in decisions],
    }


def _offload(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.skill_offload import offload

    data = _object(inp, 'input ({"skill", "result"})')
    skill = data.get("skill")
    if not isinstance(skill, str):
        raise InvalidInput("input.skill must be a string (the skill's name)")
    result = offload(
        data.get("result"),
        skill=skill,
        workspace_dir=opt_str(options, "workspaceDir", ".") or ".",
    )
    return result.to_wire()


def _materialize(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.envelope.skill_artifacts import materialize_plan

    return materialize_plan(inp).to_wire()


#: The envelope ops by name: handler, the option names each takes (any other name is
#: ``invalid_options``) and the model its output is the wire form of.
OPS: dict[str, Op] = table(
    Op("payload", _payload, _DIRECTIVE_OPTIONS, "PayloadResult"),
    Op("refKey", _ref_key, ("legacy",), "RefKeyOutput"),
    Op(
        "dedupe",
        _dedupe,
        ("streamCompleted", "blockStreaming", "route", *_DIRECTIVE_OPTIONS),
        "DedupeOutput",
    ),
    Op("commentary", _commentary, (), "CommentaryResult"),
    Op("skillResult", _skill_result, (), "SkillClassification"),
    Op("budget", _budget, (), "BudgetOutput"),
    Op("offload", _offload, ("workspaceDir",), "OffloadResult"),
    Op("materialize", _materialize, (), "MaterializePlan"),
)
