"""Wrong argument types raise InvalidInput (a ValueError) with a message, never a stray error."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

import richout
from richout import InvalidInput, envelope

_BAD_TEXT: list[Any] = [b"MEDIA:/tmp/a.png", None, 42, ["text"], bytearray(b"x")]

_TEXT_FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "split_media": richout.split_media,
    "parse_directives": richout.parse_directives,
    "parse_reply": richout.parse_reply,
    "extract_embeds": richout.extract_embeds,
    "render_reply": richout.render_reply,
    "StreamingParser.feed": lambda t: richout.StreamingParser().feed(t),
}


@pytest.mark.parametrize("name", sorted(_TEXT_FUNCTIONS))
@pytest.mark.parametrize("bad", _BAD_TEXT, ids=lambda b: type(b).__name__)
def test_text_must_be_a_string(name: str, bad: Any) -> None:
    with pytest.raises(InvalidInput, match="must be a string"):
        _TEXT_FUNCTIONS[name](bad)


class _Text(str):
    """A ``str`` subclass: a string, so every pipeline takes it (the checks ask ``type(x) is
    str`` first, for speed, and fall back to ``isinstance``)."""


@pytest.mark.parametrize("name", sorted(_TEXT_FUNCTIONS))
def test_a_str_subclass_is_a_string(name: str) -> None:
    text = "hi [[reply_to_current]]\nMEDIA:https://example.com/a.png\n"
    if name == "StreamingParser.feed":
        assert _TEXT_FUNCTIONS[name](_Text(text)) == _TEXT_FUNCTIONS[name](text)
        return
    assert _TEXT_FUNCTIONS[name](_Text(text)).to_wire() == _TEXT_FUNCTIONS[name](text).to_wire()


_BAD_OPTIONS: list[tuple[str, Callable[[], Any], str]] = [
    ("reply id", lambda: richout.parse_reply("x", current_message_id=7), "current_message_id"),
    ("tags id", lambda: richout.parse_directives("x", current_message_id=b"7"), "message_id"),
    ("silent token", lambda: richout.parse_reply("x", silent_token=None), "silent_token"),
    ("role", lambda: richout.render_reply("x", role=1), "role"),
    ("allowlist str", lambda: richout.split_media("x", markdown_image_allowlist="/a"), "list"),
    ("allowlist entry", lambda: richout.split_media("x", markdown_image_allowlist=[1]), "entry"),
    ("rebuild str", lambda: richout.rebuild("text"), "rebuild"),
    ("rebuild dict", lambda: richout.rebuild({"text": "a", "edits": []}), "rebuild"),
]


@pytest.mark.parametrize(("case", "call", "names"), _BAD_OPTIONS, ids=[c for c, *_ in _BAD_OPTIONS])
def test_bad_options_name_the_argument(case: str, call: Callable[[], Any], names: str) -> None:
    with pytest.raises(InvalidInput, match=names):
        call()


def test_invalid_input_is_a_value_error_and_a_richout_error() -> None:
    with pytest.raises(ValueError):
        richout.split_media(None)  # type: ignore[arg-type]
    assert issubclass(InvalidInput, richout.RichoutError)


# --------------------------------------------------------------------------- every argument
# Issue 9, defect 5: every public argument of every public function is checked; a wrong type
# raises InvalidInput naming the argument, never counts by truthiness or fails later.

_LEDGER = envelope.DeliveryLedger
_PAYLOAD = envelope.ReplyPayload(text="hi")

#: (public name, call with one bad argument, the argument's name as the message gives it)
_BAD_ARGUMENTS: list[tuple[str, Callable[[], Any], str]] = [
    # explain must be a bool in every pipeline ("yes", None and [1] used to be accepted)
    *[
        (name, lambda f=fn, v=bad: f("x", explain=v), "explain")  # type: ignore[misc]
        for name, fn in (
            ("split_media", richout.split_media),
            ("parse_directives", richout.parse_directives),
            ("parse_reply", richout.parse_reply),
            ("extract_embeds", richout.extract_embeds),
            ("render_reply", richout.render_reply),
        )
        for bad in ("yes", None, [1])
    ],
    (
        "parse_reply",
        lambda: richout.parse_reply("x", profile="release-2026.9.6", explain="yes"),
        "explain",
    ),
    (
        "parse_reply",
        lambda: richout.parse_reply("x", extract_markdown_images="yes"),
        "extract_markdown_images",
    ),
    (
        "parse_reply",
        lambda: richout.parse_reply("x", extract_media_directives=0),
        "extract_media_directives",
    ),
    ("parse_reply", lambda: richout.parse_reply("x", profile=1), "profile"),
    ("render_reply", lambda: richout.render_reply("x", profile=None), "profile"),
    ("extract_embeds", lambda: richout.extract_embeds(None), "text"),
    ("StreamingParser", lambda: richout.StreamingParser(silent_token=None), "silent_token"),
    ("StreamingParser", lambda: richout.StreamingParser(profile=2), "profile"),
    ("StreamingParser.feed", lambda: richout.StreamingParser().feed(None), "chunk"),
    ("StreamingParser.finish", lambda: richout.StreamingParser().finish(1), "chunk"),
    ("StreamingParser.result", lambda: richout.StreamingParser().result(1), "current_message_id"),
    ("rebuild", lambda: richout.rebuild(None), "rebuild"),
    ("is_silent", lambda: richout.is_silent(None), "text"),
    ("is_silent", lambda: richout.is_silent("NO_REPLY", token=None), "token"),
    ("delivery_strip", lambda: richout.delivery_strip(b"x"), "text"),
    ("file_url_to_path", lambda: richout.file_url_to_path(None), "ref"),
    # envelope: payloads
    ("intake_payload", lambda: envelope.intake_payload({}, path=1), "path"),
    ("intake_payload", lambda: envelope.intake_payload("x"), "obj"),
    ("resolve_media", lambda: envelope.resolve_media({"text": "x"}), "payload"),
    ("is_renderable", lambda: envelope.is_renderable(None), "payload"),
    ("merge_final_directives", lambda: envelope.merge_final_directives({"text": "x"}), "payload"),
    (
        "merge_final_directives",
        lambda: envelope.merge_final_directives(_PAYLOAD, reply_mode="x"),
        "reply_mode",
    ),
    (
        "merge_final_directives",
        lambda: envelope.merge_final_directives(_PAYLOAD, path=None),
        "path",
    ),
    (
        "merge_final_directives",
        lambda: envelope.merge_final_directives(_PAYLOAD, extract_markdown_images="no"),
        "extract_markdown_images",
    ),
    ("resolve_payload", lambda: envelope.resolve_payload("x"), "obj"),
    (
        "resolve_payload",
        lambda: envelope.resolve_payload({}, parse_final_directives="yes"),
        "parse_final_directives",
    ),
    (
        "resolve_payload",
        lambda: envelope.resolve_payload({}, current_message_id=1),
        "current_message_id",
    ),
    ("resolve_payload", lambda: envelope.resolve_payload({}, silent_token=None), "silent_token"),
    ("resolve_payload", lambda: envelope.resolve_payload({}, reply_mode=1), "reply_mode"),
    # envelope: references and sends
    ("ref_key", lambda: envelope.ref_key(None), "ref"),
    ("ref_key", lambda: envelope.ref_key("/a", legacy="yes"), "legacy"),
    ("same_ref", lambda: envelope.same_ref(None, "/a"), "a"),
    ("same_ref", lambda: envelope.same_ref("/a", 1), "b"),
    ("same_ref", lambda: envelope.same_ref("/a", "/a", legacy=None), "legacy"),
    ("posix_normalize", lambda: envelope.posix_normalize(None), "path"),
    ("build_send", lambda: envelope.build_send([1]), "refs"),
    ("build_send", lambda: envelope.build_send("/a.png"), "refs"),
    ("build_send", lambda: envelope.build_send(["/a"], message=3), "message"),
    ("validate_send", lambda: envelope.validate_send([1]), "params"),
    ("collect_sent_media", lambda: envelope.collect_sent_media(None), "params"),
    ("collect_send", lambda: envelope.collect_send("x"), "params"),
    ("collect_send", lambda: envelope.collect_send({}, route="telegram"), "route"),
    ("collect_send", lambda: envelope.collect_send({}, tool=1), "tool"),
    ("message_tool_mode_findings", lambda: envelope.message_tool_mode_findings(None), "text"),
    (
        "message_tool_mode_findings",
        lambda: envelope.message_tool_mode_findings("x", field=1),
        "field",
    ),
    (
        "capture_commentary",
        lambda: envelope.capture_commentary(
            channel=1, reply_mode="auto", captured_refs=None, blocks=[]
        ),
        "channel",
    ),
    (
        "capture_commentary",
        lambda: envelope.capture_commentary(
            channel="w", reply_mode=None, captured_refs=None, blocks=[]
        ),
        "reply_mode",
    ),
    (
        "capture_commentary",
        lambda: envelope.capture_commentary(
            channel="w", reply_mode="auto", captured_refs="x", blocks=[]
        ),
        "captured_refs",
    ),
    (
        "capture_commentary",
        lambda: envelope.capture_commentary(
            channel="w", reply_mode="auto", captured_refs=None, blocks="x"
        ),
        "blocks",
    ),
    # envelope: dedupe
    ("normalize_for_duplicate", lambda: envelope.normalize_for_duplicate(None), "text"),
    ("is_duplicate_text", lambda: envelope.is_duplicate_text(1, []), "text"),
    ("is_duplicate_text", lambda: envelope.is_duplicate_text("x", "sent"), "sent_texts"),
    ("is_duplicate_text", lambda: envelope.is_duplicate_text("x", [1]), "sent_texts"),
    ("target_matches_route", lambda: envelope.target_matches_route({"to": "x"}, None), "target"),
    (
        "target_matches_route",
        lambda: envelope.target_matches_route(envelope.SendTarget(), "r"),
        "route",
    ),
    ("DeliveryLedger", lambda: _LEDGER(route="telegram"), "route"),
    ("DeliveryLedger", lambda: _LEDGER(normalize_media="x"), "normalize_media"),
    ("DeliveryLedger", lambda: _LEDGER(legacy_refs="yes"), "legacy_refs"),
    ("DeliveryLedger.record_block", lambda: _LEDGER().record_block(None), "payload"),
    ("DeliveryLedger.record_direct_send", lambda: _LEDGER().record_direct_send("x"), "payload"),
    ("DeliveryLedger.record_message_send", lambda: _LEDGER().record_message_send(None), "params"),
    (
        "DeliveryLedger.record_message_send",
        lambda: _LEDGER().record_message_send({}, tool=1),
        "tool",
    ),
    (
        "DeliveryLedger.record_message_evidence",
        lambda: _LEDGER().record_message_evidence(sent_media_urls="x"),
        "sent_media_urls",
    ),
    (
        "DeliveryLedger.record_message_evidence",
        lambda: _LEDGER().record_message_evidence(sent_texts=[1]),
        "sent_texts",
    ),
    (
        "DeliveryLedger.record_message_evidence",
        lambda: _LEDGER().record_message_evidence(sent_targets=[1]),
        "sent_targets",
    ),
    # the reproducer: "no" used to count as true
    (
        "DeliveryLedger.finalize",
        lambda: _LEDGER().finalize([{}], stream_completed="no"),
        "stream_completed",
    ),
    (
        "DeliveryLedger.finalize",
        lambda: _LEDGER().finalize([{}], block_streaming=None),
        "block_streaming",
    ),
    (
        "DeliveryLedger.finalize",
        lambda: _LEDGER().finalize([{}], parse_final_directives=1),
        "parse_final_directives",
    ),
    (
        "DeliveryLedger.finalize",
        lambda: _LEDGER().finalize([{}], current_message_id=1),
        "current_message_id",
    ),
    (
        "DeliveryLedger.finalize",
        lambda: _LEDGER().finalize([{}], extract_markdown_images="no"),
        "extract_markdown_images",
    ),
    (
        "DeliveryLedger.finalize",
        lambda: _LEDGER().finalize([{}], silent_token=None),
        "silent_token",
    ),
    ("DeliveryLedger.finalize", lambda: _LEDGER().finalize([{}], reply_mode="never"), "reply_mode"),
    ("DeliveryLedger.finalize", lambda: _LEDGER().finalize([1]), "payloads"),
    ("DeliveryLedger.finalize", lambda: _LEDGER().finalize("x"), "payloads"),
    (
        "DeliveryLedger.finalize_one",
        lambda: _LEDGER().finalize_one({}, stream_completed="no"),
        "stream_completed",
    ),
    ("DeliveryLedger.finalize_one", lambda: _LEDGER().finalize_one({}, path=1), "path"),
    ("DeliveryLedger.finalize_one", lambda: _LEDGER().finalize_one(None), "payload"),
    # envelope: skills
    ("FailureBudget", lambda: envelope.FailureBudget(per_tool=None), "per_tool"),
    ("FailureBudget", lambda: envelope.FailureBudget(total="8"), "total"),
    ("FailureBudget", lambda: envelope.FailureBudget(same_args=True), "same_args"),
    ("FailureBudget.admit", lambda: envelope.FailureBudget().admit(None), "tool"),
    (
        "FailureBudget.call",
        lambda: envelope.FailureBudget().call("t", None, {}, validation_failed="yes"),
        "validation_failed",
    ),
    (
        "FailureBudget.record",
        lambda: envelope.FailureBudget().record("t", {}, validation_failed=None),
        "validation_failed",
    ),
    ("FailureBudget.failures", lambda: envelope.FailureBudget().failures(None), "tool"),
    ("Policy", lambda: richout.Policy(workspace_root=3), "workspace_root"),  # type: ignore[arg-type]
    ("Policy", lambda: richout.Policy(allow_hosts="x.com"), "allow_hosts"),
    ("Policy", lambda: richout.Policy(allow_home_paths="no"), "allow_home_paths"),  # type: ignore[arg-type]
    ("Policy.check", lambda: richout.Policy().check(3), "reference"),  # type: ignore[arg-type]
    ("BlockStreamer", lambda: richout.BlockStreamer(current_message_id=1), "current_message_id"),
    ("BlockStreamer", lambda: richout.BlockStreamer(policy={}), "policy"),
    ("BlockStreamer", lambda: richout.BlockStreamer(ledger=[]), "ledger"),
    ("BlockStreamer.feed", lambda: richout.BlockStreamer().feed(None), "delta"),
    ("BlockStreamer.finish", lambda: richout.BlockStreamer().finish(1), "final_text"),
    (
        "BlockStreamer.finish",
        lambda: richout.BlockStreamer().finish(stream_completed="no"),
        "stream_completed",
    ),
    ("Block", lambda: richout.Block("x", ["a"], False, None, 0, 1), "media_urls"),
    (
        "BlockFinish",
        lambda: richout.BlockFinish((), None, "reply", ()),
        "reply",
    ),
    ("BudgetCall", lambda: envelope.BudgetCall({"allowed": True}), "decision"),  # type: ignore[arg-type]
    (
        "BudgetCall",
        lambda: envelope.BudgetCall(envelope.BudgetDecision(allowed=True), {}),  # type: ignore[arg-type]
        "classification",
    ),
    ("offload", lambda: envelope.offload({}, skill=1), "skill"),
    ("offload", lambda: envelope.offload({}, skill="s", write="x"), "write"),
    ("offload", lambda: envelope.offload({}, skill="s", workspace_dir=None), "workspace_dir"),
    ("offload", lambda: envelope.offload({}, skill="s", threshold="1"), "threshold"),
    ("offload", lambda: envelope.offload({}, skill="s", display_keep=None), "display_keep"),
    (
        "is_materializable_content_type",
        lambda: envelope.is_materializable_content_type(1),
        "content_type",
    ),
    ("explain_display_md", lambda: envelope.explain_display_md(None, [], "web"), "body"),
    ("explain_display_md", lambda: envelope.explain_display_md("b", "x", "web"), "blocks"),
    ("explain_display_md", lambda: envelope.explain_display_md("b", [], None), "channel"),
    (
        "explain_display_md",
        lambda: envelope.explain_display_md("b", [], "web", honor_display_only="yes"),
        "honor_display_only",
    ),
    ("place_display_md", lambda: envelope.place_display_md("b", [], 1), "channel"),
    ("backfill_report", lambda: envelope.backfill_report("x", {}), "names"),
    (
        "backfill_report",
        lambda: envelope.backfill_report([], {}, user_wants_scripts=None),
        "user_wants_scripts",
    ),
    ("backfill_candidates", lambda: envelope.backfill_candidates([1], {}), "names"),
    (
        "max_runs",
        lambda: envelope.max_runs("x", failed_this_round="no", role_recent_failures=0),
        "failed_this_round",
    ),
    (
        "max_runs",
        lambda: envelope.max_runs("x", failed_this_round=False, role_recent_failures="1"),
        "role_recent_failures",
    ),
    (
        "max_runs",
        lambda: envelope.max_runs(None, failed_this_round=False, role_recent_failures=0),
        "exception_kind",
    ),
    ("async_dispatch", lambda: envelope.async_dispatch(None), "channel"),
    ("async_dispatch", lambda: envelope.async_dispatch("web", external_id=1), "external_id"),
    ("async_ack", lambda: envelope.async_ack(None), "message"),
    ("fill_local_path", lambda: envelope.fill_local_path({}, None), "workspace_dir"),
    ("lint", lambda: envelope.lint({}, skill=1), "skill"),
    *[
        ("set_gc_pause_threshold", lambda v=bad: richout.set_gc_pause_threshold(v), "min_chars")  # type: ignore[misc]
        for bad in (-1, 1.5, True, "64k")
    ],
]


@pytest.mark.parametrize(
    ("name", "call", "argument"),
    _BAD_ARGUMENTS,
    ids=[f"{n}-{a}-{i}" for i, (n, _c, a) in enumerate(_BAD_ARGUMENTS)],
)
def test_every_argument_is_checked(name: str, call: Callable[[], Any], argument: str) -> None:
    with pytest.raises(InvalidInput, match=rf"\b{re.escape(argument)}\b") as info:
        call()
    # the message says what the argument accepts, not only that it is wrong
    assert re.search(r"must be|must not|needs", str(info.value)), str(info.value)


#: Public callables whose every argument accepts any value (a skill's return value is any
#: JSON value; resolve_wall_sec skips what is not a positive number, as the platform does).
_TAKE_ANY = {
    "classify",
    "materialize_plan",
    "background_text",
    "resolve_wall_sec",
    "gc_pause_threshold",  # takes no argument
    "is_compiled",  # takes no argument
}


def _public_callables() -> set[str]:
    names: set[str] = set()
    for module in (richout, envelope):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                names.add(name)
            elif inspect.isclass(obj) and not issubclass(obj, (BaseException, BaseModel)):
                if obj is richout.Profile:
                    continue  # a frozen record of rule switches, built by richout itself
                names.add(name)
                names.update(
                    f"{name}.{m}"
                    for m, f in vars(obj).items()
                    if inspect.isfunction(f)
                    and not m.startswith("_")
                    and len(inspect.signature(f).parameters) > 1
                )
    return names


def test_the_table_covers_every_public_function_with_arguments() -> None:
    covered = {name for name, _c, _a in _BAD_ARGUMENTS} | {
        # checked in the tables above
        "split_media",
        "parse_directives",
    }
    missing = _public_callables() - covered - _TAKE_ANY
    assert not missing, sorted(missing)


def test_a_wrong_flag_is_never_read_as_truthy() -> None:
    ledger = envelope.DeliveryLedger()
    ledger.record_block({"text": "oops"})
    final = {"text": "oops", "isError": True}
    # "no" used to count as true: the error payload was delivered again
    with pytest.raises(InvalidInput, match="stream_completed must be True or False"):
        ledger.finalize([final], stream_completed="no")
    assert ledger.finalize([final], stream_completed=False).payloads == [None]
    assert ledger.finalize([final]).payloads[0] is not None


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: richout.split_media("x", markdown_image_allowlist=5), "markdown_image_allowlist"),
        (
            lambda: richout.split_media("x", markdown_image_allowlist={"a"}),
            "markdown_image_allowlist",
        ),
        (lambda: richout.parse_directives("x", code_map="x"), "code_map"),
    ],
)
def test_collection_and_code_map_arguments_are_checked(call: Any, name: str) -> None:
    with pytest.raises(richout.InvalidInput, match=name):
        call()
