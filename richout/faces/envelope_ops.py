"""The envelope's ``richout jsonl`` ops (JSONL.md): argument checking and wire conversion only.

Each handler takes the request's ``input`` and ``options`` and returns the output object with
wire names; bad arguments raise :class:`~richout.errors.InvalidInput`, and an option name the
op does not take raises :class:`~richout.errors.InvalidOptions` naming the ones it does
(:data:`OPTIONS`), exactly as the text ops of :mod:`richout.ops` do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from richout.errors import InvalidInput
from richout.faces.jsonl import Handler
from richout.models import Diagnostic

__all__ = ["OPS", "OPTIONS"]

_DIRECTIVE_OPTIONS = (
    "parseFinalDirectives",
    "currentMessageId",
    "extractMarkdownImages",
    "silentToken",
    "replyMode",
)

#: The option names (wire spelling) each envelope op takes; any other name is an error.
OPTIONS: dict[str, tuple[str, ...]] = {
    "payload": _DIRECTIVE_OPTIONS,
    "refKey": ("legacy",),
    "dedupe": ("streamCompleted", "blockStreaming", "route", *_DIRECTIVE_OPTIONS),
    "commentary": (),
    "skillResult": (),
    "budget": (),
    "offload": ("workspaceDir",),
    "materialize": (),
}


def _check(options: Mapping[str, Any], op: str) -> None:
    """Raise InvalidOptions for an option name ``op`` does not take (the text ops' check)."""
    if not options:
        return
    # Imported here: richout.ops imports this module while it is being built.
    from richout.faces.ops import check_options

    check_options(dict(options), op, OPTIONS[op])


def _bool(options: Mapping[str, Any], name: str, default: bool) -> bool:
    value = options.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"option {name} must be true or false, got {value!r}")
    return value


def _str(options: Mapping[str, Any], name: str, default: str | None = None) -> str | None:
    value = options.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidInput(f"option {name} must be a string, got {value!r}")
    return value


def _reply_mode(options: Mapping[str, Any]) -> Any:
    mode = _str(options, "replyMode", "auto")
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
    _check(options, "payload")
    from richout.envelope.payload import resolve_payload

    result = resolve_payload(
        _object(inp, "input (a reply payload)"),
        parse_final_directives=_bool(options, "parseFinalDirectives", False),
        current_message_id=_str(options, "currentMessageId"),
        extract_markdown_images=_bool(options, "extractMarkdownImages", False),
        silent_token=_str(options, "silentToken", "NO_REPLY") or "NO_REPLY",
        reply_mode=_reply_mode(options),
    )
    return result.to_wire()


def _ref_key(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    _check(options, "refKey")
    from richout.envelope.refkey import ref_key

    if not isinstance(inp, str):
        raise InvalidInput("input must be one media reference string")
    return {"key": ref_key(inp, legacy=_bool(options, "legacy", False))}


def _list(value: Any, what: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise InvalidInput(f"{what} must be a list")
    return value


def _dedupe(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    _check(options, "dedupe")
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
        stream_completed=_bool(options, "streamCompleted", True),
        block_streaming=_bool(options, "blockStreaming", True),
        parse_final_directives=_bool(options, "parseFinalDirectives", False),
        current_message_id=_str(options, "currentMessageId"),
        extract_markdown_images=_bool(options, "extractMarkdownImages", False),
        silent_token=_str(options, "silentToken", "NO_REPLY") or "NO_REPLY",
        reply_mode=_reply_mode(options),
    )
    final = result.payloads[0]
    out: dict[str, Any] = {"payload": None if final is None else final.delivery_view()}
    if result.diagnostics:
        out["diagnostics"] = _diags(result.diagnostics)
    return out


def _commentary(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    _check(options, "commentary")
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
    _check(options, "skillResult")
    from richout.envelope.skill import classify

    return classify(inp).to_wire()


def _budget(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    _check(options, "budget")
    from richout.envelope.skill import run_budget

    data = _object(inp, 'input ({"limits", "calls"})')
    decisions = run_budget(data.get("limits"), data.get("calls"))
    return {
        "allowed": [d.allowed for d in decisions],
        "reasons": [d.reason for d in decisions],
    }


def _offload(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    _check(options, "offload")
    from richout.envelope.skill import offload

    data = _object(inp, 'input ({"skill", "result"})')
    skill = data.get("skill")
    if not isinstance(skill, str):
        raise InvalidInput("input.skill must be a string (the skill's name)")
    result = offload(
        data.get("result"),
        skill=skill,
        workspace_dir=_str(options, "workspaceDir", ".") or ".",
    )
    return result.to_wire()


def _materialize(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    _check(options, "materialize")
    from richout.envelope.skill import materialize_plan

    return materialize_plan(inp).to_wire()


OPS: dict[str, Handler] = {
    "payload": _payload,
    "refKey": _ref_key,
    "dedupe": _dedupe,
    "commentary": _commentary,
    "skillResult": _skill_result,
    "budget": _budget,
    "offload": _offload,
    "materialize": _materialize,
}
