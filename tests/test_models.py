"""The public models as values: plain type checking, wire round trip, pickle, copy, equality."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import richout
from richout import envelope
from richout.envelope import models as envelope_models
from richout.faces.schema import public_models
from richout.models import (
    EditRecord,
    Explained,
    Model,
    Span,
    SpanKind,
    edit_record,
    span_record,
)
from richout.models.attachments import describe
from richout.models.base import SharedFieldsSet, fields_set
from richout.models.canvas import CanvasPreview, block_record, preview_record
from richout.models.diagnostics import diagnostic
from richout.models.records import (
    lazy_fields,
    lazy_media_split,
    lazy_media_text,
    lazy_text,
    media_segment,
    output_names,
    stream_chunk,
    text_segment,
)

# --------------------------------------------------------------------------- plain mypy

_TYPED_SNIPPET = """\
from richout import CanvasPreview, Diagnostic, MediaSplit, Reply, Segment, Span, StreamChunk
from richout.envelope import BudgetDecision, PayloadIntake, ReplyPayload, SendTarget

payload = ReplyPayload(text="hi")
listed = ReplyPayload(media_urls=["https://example.com/a.png"], audio_as_voice=True)
diag = Diagnostic(code="c", severity="info", message="m")
span = Span(kind="media", start=0, end=1)
seg = Segment(type="text", text="a")
split = MediaSplit(text="a")
reply = Reply(text="a", reply_to_id="m1")
preview = CanvasPreview(url="/canvas/cv_1")
chunk = StreamChunk(text="a", raw_start=0, raw_end=1)
target = SendTarget(to="u1")
decision = BudgetDecision(allowed=True)
intake = PayloadIntake(payload=payload)
text: str | None = payload.text
"""


def test_models_type_check_under_plain_mypy_strict(tmp_path: Path) -> None:
    # No pydantic plugin: a user's own mypy config need not load it to construct results
    # with only the fields they set (issue 9, defect 8).
    (tmp_path / "snippet.py").write_text(_TYPED_SNIPPET, encoding="utf-8")
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n", encoding="utf-8")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(tmp_path / "mypy.ini"),
            "--cache-dir",
            str(tmp_path / "cache"),
            str(tmp_path / "snippet.py"),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


# --------------------------------------------------------------------------- samples

_TEXT = (
    "[[reply_to_current]] [[audio_as_voice]] Here it is.\n"
    "MEDIA:https://example.com/a.png\n"
    "MEDIA:http://10.0.0.1/x.png\n"
    '[embed ref="cv_1" title="Status" height="320" /]\n'
    "`[[reply_to:9]]`"
)


def _lazy(fn: Callable[..., Explained]) -> Callable[[], Explained]:
    return lambda: fn(_TEXT)


def _eager(fn: Callable[..., Explained]) -> Callable[[], Explained]:
    return lambda: fn(_TEXT, explain=True)


def _stream_chunk() -> Model:
    sp = richout.StreamingParser()
    sp.feed("[[reply_to_current]] Hi ")
    chunk = sp.finish("[[reply_to:")
    assert chunk is not None
    return chunk


def _dedupe() -> Model:
    ledger = envelope.DeliveryLedger()
    ledger.record_block({"text": "Hello", "mediaUrls": ["https://example.com/a.png"]})
    return ledger.finalize(
        [{"text": "Hello", "mediaUrls": ["https://example.com/a.png", "/b.png"]}, {"text": ""}]
    )


def _offload() -> Model:
    return envelope.offload({"pad": "p" * 13000}, skill="s", write=lambda p, c: None)


def _budget() -> Model:
    budget = envelope.FailureBudget(per_tool=1)
    budget.call("t", {"a": 1}, {"success": False, "error": "boom"})
    return budget.admit("t", {"a": 1})


#: One real instance per public model (text side, envelope side, jsonl op outputs).
_SAMPLES: dict[str, Callable[[], Model]] = {
    "MediaSplit lazy": _lazy(richout.split_media),
    "MediaSplit eager": _eager(richout.split_media),
    "MediaSplit fast path": lambda: richout.split_media("plain"),
    "Directives lazy": _lazy(richout.parse_directives),
    "Directives eager": _eager(richout.parse_directives),
    "Reply lazy": _lazy(richout.parse_reply),
    "Reply eager": _eager(richout.parse_reply),
    "Reply silent": lambda: richout.parse_reply("NO_REPLY"),
    "EmbedResult lazy": _lazy(richout.extract_embeds),
    "EmbedResult eager": _eager(richout.extract_embeds),
    "RenderedReply lazy": _lazy(richout.render_reply),
    "RenderedReply eager": _eager(richout.render_reply),
    "RenderedReply plain": lambda: richout.render_reply("plain"),
    "StreamingParser.result": lambda: richout.StreamingParser().result(),
    "CanvasBlock": lambda: richout.render_reply(_TEXT).canvas[0],
    "CanvasPreview": lambda: richout.extract_embeds(_TEXT).previews[0],
    "ReplyTarget": lambda: richout.render_reply("[[reply_to:7]] x").reply_target,  # type: ignore[return-value]
    "Segment": lambda: (richout.split_media(_TEXT).segments or [])[0],
    "Attachment": lambda: richout.render_reply(_TEXT).attachments[0],
    "Voice note": lambda: richout.parse_reply("[[audio_as_voice]]\nMEDIA:/v.ogg").attachments[0],
    "Diagnostic": lambda: richout.parse_reply(_TEXT).diagnostics[0],
    "Span": lambda: richout.parse_reply(_TEXT).spans[0],
    "EditRecord": lambda: richout.parse_reply(_TEXT).edits[0],
    "StreamChunk": _stream_chunk,
    "ReplyPayload": lambda: envelope.ReplyPayload(
        text="hi", media_urls=[], channel_data={"k": [1, {"x": None}]}, is_error=True
    ),
    "PayloadIntake": lambda: envelope.intake_payload({"text": 3, "mediaUrls": ["/a.png", 4]}),
    "PayloadResult": lambda: envelope.resolve_payload(
        {"text": "[[reply_to_current]] hi\nMEDIA:/a.png", "mediaUrls": [" /b.png ", 7]},
        parse_final_directives=True,
        current_message_id="m1",
    ),
    "Route": lambda: envelope.Route(provider="telegram", to="u1", thread_id=4),
    "SendTarget": lambda: envelope.SendTarget(to="u1", thread_id="t", media_urls=["/a.png"]),
    "MessageSend": lambda: envelope.collect_send(
        {"action": "send", "to": "u1", "media": "/a.png", "message": "hi"},
        route=envelope.Route(provider="telegram", to="u1"),
    ),
    "DedupeResult": _dedupe,
    "CommentaryResult": lambda: envelope.capture_commentary(
        channel="webchat",
        reply_mode="auto",
        captured_refs=["/a.png"],
        blocks=[{"type": "text", "text": "MEDIA:/a.png\nMEDIA:/b.png"}],
    ),
    "SkillClassification": lambda: envelope.classify({"success": False, "error": "timeout"}),
    "SkillClassification ok": lambda: envelope.classify({"ok": True}),
    "BudgetDecision": _budget,
    "OffloadResult": _offload,
    "MaterializePlan": lambda: envelope.materialize_plan(
        {"files": [{"url": "https://example.com/a.pdf"}], "image_url": "https://example.com/i"}
    ),
    "DisplayPlacement": lambda: envelope.explain_display_md(
        "body", ["**a**", {"display_md": "b"}, 3], "webchat"
    ),
    "BackfillResult": lambda: envelope.backfill_report(["out.png", "run.py"], {"ok": True}),
    "LintFinding": lambda: envelope.lint({"success": "yes"})[0],
    "RefKeyOutput": lambda: envelope_models.RefKeyOutput(key="/srv/a.png"),
    "DedupeOutput": lambda: envelope_models.DedupeOutput(
        payload=envelope.ReplyPayload(text="x"), diagnostics=[]
    ),
    "DedupeOutput dropped": lambda: envelope_models.DedupeOutput(payload=None),
    "BudgetOutput": lambda: envelope_models.BudgetOutput(
        allowed=[True, False], reasons=[None, "skill_disabled"]
    ),
}


def test_every_public_model_has_a_sample() -> None:
    sampled = {type(make()) for make in _SAMPLES.values()}
    exported = {
        obj
        for module in (richout, envelope, envelope_models)
        for obj in (getattr(module, name) for name in module.__all__)
        if isinstance(obj, type) and issubclass(obj, Model)
    }
    assert exported | set(public_models()) <= sampled


# --------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("name", sorted(_SAMPLES))
def test_from_wire_round_trips(name: str) -> None:
    x = _SAMPLES[name]()
    wire = x.to_wire()
    back = type(x).from_wire(wire)
    assert back == x
    assert back.to_wire() == wire
    # pydantic's own entry point loads the wire form too
    assert type(x).model_validate(wire) == x


@pytest.mark.parametrize("cls", [richout.Reply, richout.MediaSplit, richout.RenderedReply])
def test_the_issue_reproducers_load_their_wire_form(cls: type[Explained]) -> None:
    fn = {
        richout.Reply: richout.parse_reply,
        richout.MediaSplit: richout.split_media,
        richout.RenderedReply: richout.render_reply,
    }[cls]
    result = fn(_TEXT)
    loaded = cls.model_validate(result.to_wire())
    assert loaded == result


def test_a_loaded_result_carries_the_explanation_it_was_given() -> None:
    reply = richout.parse_reply(_TEXT, current_message_id="m1")
    loaded = richout.Reply.from_wire(reply.to_wire())
    assert loaded.diagnostics == reply.diagnostics and loaded.diagnostics
    assert loaded.spans == reply.spans and loaded.edits == reply.edits
    assert richout.rebuild(loaded) == _TEXT
    # a wire form without them (explain: false) loads as explaining nothing
    bare = richout.Reply.from_wire(reply.outputs_wire())
    assert bare.diagnostics == [] and bare.text == reply.text
    assert bare != reply


def test_from_wire_rejects_what_is_not_the_wire_form() -> None:
    with pytest.raises(richout.InvalidInput, match="Reply"):
        richout.Reply.from_wire({"text": "a", "mediaURLs": []})
    with pytest.raises(richout.InvalidInput, match="dict"):
        richout.Reply.from_wire("text")  # type: ignore[arg-type]
    with pytest.raises(richout.InvalidInput, match="Reply"):
        richout.Reply.from_wire({"text": "a", "diagnostics": [{"code": 1}]})


def test_payload_result_rebuilds_its_python_only_payload() -> None:
    got = envelope.resolve_payload({"text": "hi", "mediaUrls": ["/a.png"]})
    back = envelope.PayloadResult.from_wire(got.to_wire())
    assert back == got and back.payload == got.payload
    # the object fields are Python only: they do not travel
    rich = envelope.resolve_payload({"text": "hi", "channelData": {"k": 1}})
    assert envelope.PayloadResult.from_wire(rich.to_wire()).payload.channel_data is None


_PIECES = [
    "MEDIA:https://example.com/a.png",
    "MEDIA: /tmp/../etc/passwd",
    "MEDIA:http://10.0.0.1/x",
    "  MEDIA:./b.png",
    "- MEDIA:x",
    "> MEDIA:https://example.com/q.png",
    "```",
    "[[audio_as_voice]]",
    "[[reply_to_current]]",
    "[[ reply_to : 77 ]]",
    "[[reply_to:",
    "`[[reply_to:9]]`",
    '[embed ref="cv_1" height="90" /]',
    '[embed url="javascript:alert(1)" /]',
    "![x](https://example.com/i.png)",
    "NO_REPLY",
    "text ",
    "",
    "\r",
    "\u00a0",
]

_PIPELINES: dict[str, Callable[..., Explained]] = {
    "split_media": richout.split_media,
    "split_media images": lambda t, **k: richout.split_media(t, extract_markdown_images=True, **k),
    "parse_directives": lambda t, **k: richout.parse_directives(t, current_message_id="m", **k),
    "parse_reply": lambda t, **k: richout.parse_reply(t, current_message_id="m", **k),
    "extract_embeds": richout.extract_embeds,
    "render_reply": richout.render_reply,
}


@settings(max_examples=150)
@given(
    st.sampled_from(sorted(_PIPELINES)),
    st.sampled_from(sorted(richout.PROFILES)),
    st.booleans(),
    st.lists(st.sampled_from(_PIECES), max_size=8),
    st.sampled_from(["\n", " ", "\r\n"]),
)
def test_generated_results_round_trip_and_pickle(
    pipeline: str, profile: str, explain: bool, pieces: list[str], sep: str
) -> None:
    text = sep.join(pieces)
    result = _PIPELINES[pipeline](text, profile=profile, explain=explain)
    wire = result.to_wire()
    back = type(result).from_wire(wire)
    assert back == result and back.to_wire() == wire
    assert richout.rebuild(back) == text
    again = _PIPELINES[pipeline](text, profile=profile, explain=explain)
    assert pickle.loads(pickle.dumps(again)) == result
    assert copy.deepcopy(again) == result == copy.copy(again)


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize("name", sorted(_SAMPLES))
def test_pickles_copies_and_compares_by_value(name: str) -> None:
    x = _SAMPLES[name]()
    fresh = _SAMPLES[name]()  # never read: a lazy result is still lazy here
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(_SAMPLES[name](), protocol=protocol)) == x
    assert copy.copy(fresh) == x
    assert copy.deepcopy(_SAMPLES[name]()) == x
    assert fresh == x
    assert (fresh != x) is False
    assert pickle.loads(pickle.dumps(fresh)).to_wire() == x.to_wire()


def test_a_lazy_result_pickles_as_its_explained_form() -> None:
    lazy = richout.parse_reply(_TEXT)
    loaded = pickle.loads(pickle.dumps(lazy))
    assert loaded._explainer is None and loaded._explanation is not None
    assert loaded == richout.parse_reply(_TEXT, explain=True)
    assert loaded.diagnostics == lazy.diagnostics


def test_copies_are_independent_values() -> None:
    reply = richout.parse_reply(_TEXT)
    clone = copy.deepcopy(reply)
    clone.media_urls.append("https://example.com/other.png")
    assert clone != reply
    other = richout.parse_reply(_TEXT.replace("Here", "There"))
    assert other != reply
    assert reply.__eq__("text") is NotImplemented


@given(
    st.sampled_from(["media", "image", "audio_tag", "reply_tag", "embed", "reply_prefix"]),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.none() | st.text(max_size=20),
    st.text(max_size=20),
)
def test_direct_spans_and_edits_equal_trusted_ones(
    kind: SpanKind, start: int, end: int, value: str | None, other: str
) -> None:
    """span_record and edit_record build what Model.trusted builds, fields set included."""
    for direct, trusted in (
        (
            span_record(kind, start, end, value),
            Span.trusted(kind=kind, start=start, end=end, value=value),
        ),
        (
            edit_record(start, end, other, value or ""),
            EditRecord.trusted(start=start, end=end, removed=other, inserted=value or ""),
        ),
    ):
        assert direct == trusted
        assert direct.__dict__ == trusted.__dict__
        assert list(direct.__dict__) == list(trusted.__dict__)
        assert direct.model_fields_set == trusted.model_fields_set
        assert direct.to_wire() == trusted.to_wire()
        assert type(direct).from_wire(direct.to_wire()) == direct


# --------------------------------------------------------------------------- shared fields sets


def _preview(i: int) -> CanvasPreview:
    return preview_record(
        f"/canvas/cv_{i}",
        view_id=f"cv_{i}",
        title=None,
        preferred_height=None,
        class_name=None,
        style=None,
    )


# Records built in bulk share one read-only fields set per shape (SharedFieldsSet). Each
# entry builds a record of one builder from a number (different numbers, different records).
_BULK_BUILDERS: dict[str, Callable[[int], Model]] = {
    "diagnostic": lambda i: diagnostic(
        "c", "info", f"m{i}", start=i, end=i + 1, line=1, column=i + 1
    ),
    "span_record": lambda i: span_record("media", i, i + 1, f"/tmp/{i}.png"),
    "edit_record": lambda i: edit_record(i, i + 1, "x", ""),
    "text_segment": lambda i: text_segment(f"t{i}"),
    "media_segment": lambda i: media_segment(f"/tmp/{i}.png"),
    "describe": lambda i: describe(f"/tmp/{i}.png"),
    "describe_voice": lambda i: describe(f"/tmp/{i}.ogg", voice=True),
    "stream_chunk": lambda i: stream_chunk(
        f"t{i}",
        reply_to_id=None,
        reply_to_explicit_id=None,
        reply_to_current=False,
        reply_to_tag=False,
        audio_as_voice=False,
        is_silent=False,
        raw_start=i,
        raw_end=i + 1,
        diagnostics=[],
    ),
    "preview_record": _preview,
    "block_record": lambda i: block_record(_preview(i)),
    # lazy_text: the lazy result of a reply without a trigger
    "split_media": lambda i: richout.split_media(f"t{i}"),
    "parse_directives": lambda i: richout.parse_directives(f"t{i}"),
}


@given(st.text(max_size=30), st.sampled_from([richout.MediaSplit, richout.Directives]))
def test_lazy_text_equals_the_generic_lazy_result(text: str, cls: type[Explained]) -> None:
    """lazy_text builds what Explained.lazy builds from the same explainer and text."""

    def explainer() -> Explained:
        return cls.explained(text=text)

    direct, generic = lazy_text(cls, explainer, text), cls.lazy(explainer, text=text)
    assert direct.__dict__ == generic.__dict__
    assert list(direct.__dict__) == list(generic.__dict__)
    assert direct.model_fields_set == generic.model_fields_set == {"text"}
    assert direct.__pydantic_private__ == generic.__pydantic_private__
    # Fresh default lists per result, as the generic builder's factories give.
    for name, value in direct.__dict__.items():
        if isinstance(value, list):
            assert value is not lazy_text(cls, explainer, text).__dict__[name]
    assert direct.to_wire() == generic.to_wire()
    assert direct == generic


@given(st.text(max_size=30), st.booleans(), st.integers(0, 3), st.sampled_from([None, 0, 2]))
def test_lazy_media_split_equals_the_generic_lazy_result(
    text: str, audio: bool, rejected: int, segment_count: int | None
) -> None:
    """lazy_media_split (MediaSplit's fields written out) builds what Explained.lazy builds
    from the same explainer and fields: the same values in the model's field order, fields
    set and private state, so a field added to the model and not to the builder fails
    here. lazy_media_text is its text-only case (lazy_text's result)."""
    model = richout.MediaSplit
    media = [text] * rejected
    segments = None if segment_count is None else [text_segment(text)] * segment_count
    fields: dict[str, Any] = {
        "text": text,
        "media_urls": media,
        "audio_as_voice": audio,
        "rejected_media_count": rejected,
    }
    if segments is not None:
        fields["segments"] = segments

    def explainer() -> richout.MediaSplit:
        return model.explained(**fields)

    names = fields_set(*fields)
    pairs = [
        (
            lazy_media_split(explainer, names, text, media, audio, rejected, segments),
            model.lazy(explainer, **fields),
        ),
        (lazy_media_text(explainer, text), model.lazy(explainer, text=text)),
    ]
    for direct, generic in pairs:
        assert list(direct.__dict__) == list(model.model_fields)
        assert direct.__dict__ == generic.__dict__
        assert direct.model_fields_set == generic.model_fields_set
        assert direct.__pydantic_private__ == generic.__pydantic_private__
        assert direct.__pydantic_extra__ is generic.__pydantic_extra__ is None
        assert direct.to_wire() == generic.to_wire()
        assert direct == generic
    assert pairs[1][0].media_urls is not lazy_media_text(explainer, text).media_urls


@given(st.text(max_size=30), st.booleans(), st.sampled_from(["reply", "render"]))
def test_lazy_fields_equals_the_generic_lazy_result(text: str, flag: bool, view: str) -> None:
    """lazy_fields builds what Explained.lazy builds from the same explainer and fields, with
    the names' shared set as its fields set (a view's outputs, every field given)."""
    fields: dict[str, Any]
    cls: type[Explained]
    if view == "reply":
        cls = richout.Reply
        fields = {
            "text": text,
            "media_urls": [text] if flag else [],
            "audio_as_voice": flag,
            "reply_to_id": text or None,
            "reply_to_current": flag,
            "reply_to_tag": flag,
            "is_silent": not flag,
            "rejected_media_count": len(text),
        }
    else:
        cls = richout.RenderedReply
        fields = {
            "text": text,
            "reply_target": None,
            "audio_as_voice": flag,
            "attachments": [],
            "canvas": [],
            "content": [{"type": "text", "text": text}] if text else [],
        }

    def explainer() -> Explained:
        return cls.explained(**fields)

    names = fields_set(*fields)
    # The names a view passes are read from its model: every output field, no explanation.
    assert output_names(cls) == names
    direct, generic = lazy_fields(cls, explainer, fields, names), cls.lazy(explainer, **fields)
    assert direct.__dict__ == generic.__dict__
    assert list(direct.__dict__) == list(generic.__dict__)
    assert direct.model_fields_set == generic.model_fields_set == set(fields)
    assert direct.__pydantic_private__ == generic.__pydantic_private__
    # Fresh default lists per result (the explanation fields), as the factories give.
    again = lazy_fields(cls, explainer, fields, names)
    for name, value in direct.__dict__.items():
        if isinstance(value, list) and name not in fields:
            assert value is not again.__dict__[name]
    assert direct.to_wire() == generic.to_wire()
    assert direct == generic


# Every way to change a set in place, each given an argument it would otherwise accept.
_MUTATIONS: dict[str, Callable[[set[str]], object]] = {
    "add": lambda s: s.add("zz"),
    "discard": lambda s: s.discard(next(iter(s))),
    "remove": lambda s: s.remove(next(iter(s))),
    "pop": lambda s: s.pop(),
    "clear": lambda s: s.clear(),
    "update": lambda s: s.update({"zz"}),
    "intersection_update": lambda s: s.intersection_update(set()),
    "difference_update": lambda s: s.difference_update(set(s)),
    "symmetric_difference_update": lambda s: s.symmetric_difference_update({"zz"}),
    "|=": lambda s: s.__ior__({"zz"}),
    "&=": lambda s: s.__iand__(set()),
    "-=": lambda s: s.__isub__(set(s)),
    "^=": lambda s: s.__ixor__({"zz"}),
}


@pytest.mark.parametrize("name", sorted(_BULK_BUILDERS))
def test_bulk_records_share_one_read_only_fields_set(name: str) -> None:
    first, second = (_BULK_BUILDERS[name](i) for i in (1, 2))
    assert first != second
    shared = first.model_fields_set
    assert isinstance(shared, SharedFieldsSet)
    assert second.model_fields_set is shared
    before = set(shared)
    for mutate in _MUTATIONS.values():
        with pytest.raises(TypeError, match=r"copy it first: set\(record.model_fields_set\)"):
            mutate(shared)
    assert shared == before
    # Operations that build a new set give a plain one.
    assert type(shared | {"zz"}) is set and "zz" not in shared


@pytest.mark.parametrize("name", sorted(_BULK_BUILDERS))
def test_copies_of_bulk_records_own_a_plain_fields_set(name: str) -> None:
    record = _BULK_BUILDERS[name](1)
    shared = record.model_fields_set
    field = next(iter(shared))
    copies = {
        "copy": copy.copy(record),
        "deepcopy": copy.deepcopy(record),
        "pickle": pickle.loads(pickle.dumps(record)),
        "model_copy": record.model_copy(),
        "model_copy(update)": record.model_copy(update={field: getattr(record, field)}),
    }
    for how, clone in copies.items():
        assert clone == record, how
        owned = clone.model_fields_set
        assert type(owned) is set and owned == shared, how
        owned.add("zz")  # the copy's own: the shared set and the original are untouched
        assert "zz" not in shared and record.model_fields_set is shared, how


@pytest.mark.parametrize("name", sorted(_BULK_BUILDERS))
def test_bulk_records_pickled_together_own_their_fields_sets(name: str) -> None:
    # Pickle keeps one object per object it saw: the shared set would come back as one
    # plain set in both records (found in review).
    first, second = pickle.loads(pickle.dumps([_BULK_BUILDERS[name](i) for i in (1, 2)]))
    assert type(first.model_fields_set) is set
    assert first.model_fields_set is not second.model_fields_set
    first.model_fields_set.add("zz")
    assert "zz" not in second.model_fields_set


def test_a_shared_fields_set_cannot_be_filled_again() -> None:
    shared = span_record("media", 0, 1, "x").model_fields_set
    before = set(shared)
    with pytest.raises(TypeError, match="copy it first"):
        shared.__init__(["zz"])  # type: ignore[misc]
    assert shared == before


def test_an_empty_shared_fields_set_cannot_be_filled() -> None:
    # Only a set fields_set() has not handed out may be filled (found in review).
    from richout.models.base import fields_set

    empty = fields_set()
    with pytest.raises(TypeError, match="copy it first"):
        empty.__init__(["zz"])  # type: ignore[misc]
    assert not empty and not fields_set()
