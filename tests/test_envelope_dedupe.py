"""Dedupe of final payloads (ENVELOPE.md §4): the ledger, its steps and its explanations."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.envelope import (
    DeliveryLedger,
    ReplyPayload,
    Route,
    is_duplicate_text,
    normalize_for_duplicate,
    ref_key,
    resolve_media,
    target_matches_route,
)
from richout.envelope.routes import target_from
from richout.errors import InvalidInput


def run(
    streamed: list[dict[str, Any]],
    final: dict[str, Any],
    *,
    route: dict[str, Any] | None = None,
    sends: dict[str, Any] | None = None,
    direct: list[dict[str, Any]] | None = None,
    **options: Any,
) -> tuple[dict[str, Any] | None, list[tuple[str, str | None]], str]:
    ledger = DeliveryLedger(route=route)
    for block in streamed:
        ledger.record_block(block)
    for sent in direct or []:
        ledger.record_direct_send(sent)
    if sends:
        ledger.record_message_evidence(
            sent_media_urls=sends.get("sentMediaUrls", []),
            sent_texts=sends.get("sentTexts", []),
            sent_targets=sends.get("sentTargets", []),
        )
    result = ledger.finalize_one(final, **options)
    payload = result.payloads[0]
    messages = " | ".join(d.message for d in result.diagnostics)
    return (
        None if payload is None else payload.delivery_view(),
        [(d.code, d.field) for d in result.diagnostics],
        messages,
    )


def test_media_removal_names_the_block_that_delivered_it() -> None:
    out, codes, messages = run(
        [{"text": "intro"}, {"mediaUrl": "file:///srv/a.png"}],
        {"text": "Here it is", "mediaUrl": "/srv/a.png"},
    )
    assert out == {"text": "Here it is"}
    assert codes == [("dedupe.media_removed", "final.mediaUrl")]
    assert "streamed[1]" in messages


def test_every_copy_is_removed_with_one_finding_each() -> None:
    out, codes, _ = run(
        [{"mediaUrl": "/srv/a.png"}],
        {"text": "x", "mediaUrls": ["/srv/a.png", "/srv//a.png", "/srv/b.png"]},
    )
    assert out == {"text": "x", "mediaUrls": ["/srv/b.png"]}
    assert codes == [
        ("dedupe.media_removed", "final.mediaUrls[0]"),
        ("dedupe.media_removed", "final.mediaUrls[1]"),
    ]


def test_text_removal_and_drop_are_explained() -> None:
    out, codes, messages = run(
        [{"text": "Listen"}], {"text": "Listen", "mediaUrl": "/srv/v.ogg", "audioAsVoice": True}
    )
    assert out == {"mediaUrl": "/srv/v.ogg", "audioAsVoice": True}
    assert codes == [("dedupe.text_removed", "final.text")]
    assert "streamed[0]" in messages

    out, codes, messages = run(
        [{"text": "First paragraph."}, {"text": "Second paragraph."}],
        {"text": "First paragraph.\n\nSecond paragraph."},
    )
    assert out is None and codes == [("dedupe.payload_dropped", "final")]
    assert "streamed[0], streamed[1]" in messages and "text suppression" in messages


def test_quirks_are_reproduced_and_warned_about() -> None:
    out, codes, _ = run(
        [{"text": "caption", "mediaUrl": "/srv/v.ogg"}],
        {"text": "caption", "mediaUrl": "/srv/v.ogg"},
    )
    assert out == {"text": "caption"}
    assert ("dedupe.caption_resent", "final.text") in codes

    out, codes, _ = run(
        [{"mediaUrl": "/srv/a.png"}],
        {"text": "x", "mediaUrl": "/srv/x.png", "mediaUrls": ["/srv/a.png"]},
    )
    assert out == {"text": "x", "mediaUrl": "/srv/x.png"}
    assert ("dedupe.legacy_media_url_promoted", "final.mediaUrl") in codes


def test_only_mediaurl_removed_keeps_the_list() -> None:
    # The list is filtered on its own; removing mediaUrl never takes the list with it.
    out, _, _ = run(
        [{"mediaUrl": "/srv/a.png"}],
        {"text": "x", "mediaUrl": "/srv/a.png", "mediaUrls": ["/srv/b.png"]},
    )
    assert out == {"text": "x", "mediaUrls": ["/srv/b.png"]}


def test_stream_not_completed() -> None:
    out, _, _ = run(
        [{"text": "caption", "mediaUrl": "file:///srv/v.ogg"}],
        {"text": "caption", "mediaUrl": "file:///srv/v.ogg"},
        stream_completed=False,
    )
    assert out is None
    out, _, _ = run([{"text": "Hello"}], {"text": "Hello there"}, stream_completed=False)
    assert out == {"text": "Hello there"}
    out, _, _ = run([{"text": "oops"}], {"text": "oops", "isError": True}, stream_completed=False)
    assert out is None
    out, _, _ = run([{"text": "oops"}], {"text": "oops", "isError": True})
    assert out == {"text": "oops", "isError": True}


def test_block_streaming_off_consults_only_direct_sends() -> None:
    out, codes, messages = run(
        [{"text": "t", "mediaUrl": "/srv/a.png"}],
        {"text": "t", "mediaUrls": ["/srv/a.png", "/srv/b.png"]},
        direct=[{"mediaUrls": ["/srv/b.png"]}],
        block_streaming=False,
    )
    assert out == {"text": "t", "mediaUrls": ["/srv/a.png"]}
    assert codes == [("dedupe.media_removed", "final.mediaUrls[1]")]
    assert "direct send directSends[0]" in messages


def test_delivery_pin_exempts_from_every_media_dedupe() -> None:
    final = {"text": "t", "mediaUrl": "/srv/a.png", "delivery": {"pin": True}}
    out, _, _ = run(
        [{"mediaUrl": "/srv/a.png"}],
        final,
        direct=[{"mediaUrl": "/srv/a.png"}],
        sends={"sentMediaUrls": ["/srv/a.png"]},
    )
    assert out == {"text": "t", "mediaUrl": "/srv/a.png"}
    out, _, _ = run(
        [{"mediaUrl": "/srv/a.png"}], {**final, "delivery": {"pin": {"enabled": False}}}
    )
    assert out == {"text": "t"}


def test_unrenderable_final_and_bare_voice_flag_are_dropped() -> None:
    out, codes, _ = run([], {"text": " "})
    assert out is None and codes == [("dedupe.payload_dropped", "final")]
    out, _, _ = run([], {"audioAsVoice": True})
    assert out is None
    out, _, _ = run([], {"text": "hi", "audioAsVoice": True})
    assert out == {"text": "hi"}


def test_parse_final_directives_runs_first() -> None:
    out, codes, _ = run(
        [{"mediaUrl": "/srv/chart.png"}],
        {"text": "Chart attached.\nMEDIA:/srv/chart.png"},
        parse_final_directives=True,
    )
    assert out == {"text": "Chart attached."}
    assert ("dedupe.media_removed", "final.mediaUrl") in codes


# -- message-tool evidence -----------------------------------------------------------------

ROUTE = {"provider": "telegram", "to": "telegram:123"}


def test_global_message_tool_evidence() -> None:
    sends = {"sentMediaUrls": ["file:///srv/photo.jpg"], "sentTexts": ["hello world!"]}
    out, codes, messages = run(
        [], {"text": "hello world!", "mediaUrl": "file:///srv/photo.jpg"}, sends=sends
    )
    assert out is None
    assert codes == [
        ("dedupe.media_removed", "final.mediaUrl"),
        ("dedupe.payload_dropped", "final"),
    ]
    assert "messageToolSends.sentMediaUrls[0]" in messages
    assert "messageToolSends.sentTexts[0]" in messages


def test_short_texts_are_not_compared() -> None:
    out, codes, _ = run([], {"text": "ok done"}, sends={"sentTexts": ["ok done"]})
    assert out == {"text": "ok done"}
    assert codes == [("dedupe.short_text_not_compared", "final.text")]


def test_route_diagnostics() -> None:
    sends = {"sentTargets": [{"provider": "slack", "to": "C1", "mediaUrls": ["/srv/a.png"]}]}
    out, codes, _ = run([], {"text": "t", "mediaUrl": "/srv/a.png"}, sends=sends, route=ROUTE)
    assert out == {"text": "t", "mediaUrl": "/srv/a.png"}
    assert codes == [("dedupe.cross_route_ignored", "messageToolSends.sentTargets")]
    out, codes, _ = run([], {"text": "t", "mediaUrl": "/srv/a.png"}, sends=sends)
    assert codes == [("dedupe.no_route", "messageToolSends.sentTargets")]


MATCHES: list[tuple[dict[str, Any], dict[str, Any], bool]] = [
    ({"provider": "telegram", "to": "telegram:123"}, ROUTE, True),
    ({"provider": " TELEGRAM ", "to": "telegram:123 "}, ROUTE, True),
    ({"provider": "message", "to": "telegram:123"}, ROUTE, True),
    ({"to": "telegram:123"}, ROUTE, True),
    ({"provider": "slack", "to": "telegram:123"}, ROUTE, False),
    ({"provider": "telegram", "to": "telegram:124"}, ROUTE, False),
    ({"provider": "telegram", "to": ""}, ROUTE, False),
    ({"provider": "telegram"}, ROUTE, True),  # a send without a target: the current route
    ({"provider": "telegram", "to": "x"}, {"provider": "telegram"}, False),
    ({"provider": "telegram", "to": "x"}, {"to": "x"}, False),
    ({"to": "x", "accountId": "a"}, {"provider": "t", "to": "x", "accountId": "b"}, False),
    ({"to": "x", "accountId": "a"}, {"provider": "t", "to": "x"}, True),
    ({"to": "x"}, {"provider": "t", "to": "x", "accountId": "b"}, True),
    ({"to": "x", "threadId": 5}, {"provider": "t", "to": "x", "threadId": "5"}, True),
    ({"to": "x", "threadId": 5}, {"provider": "t", "to": "x"}, False),
    ({"to": "x"}, {"provider": "t", "to": "x", "threadId": 5}, False),
    ({"to": "x", "threadImplicit": True}, {"provider": "t", "to": "x", "threadId": 5}, True),
    (
        {"to": "x", "threadId": 6, "threadImplicit": True},
        {"provider": "t", "to": "x", "threadId": 5},
        False,
    ),
]


@pytest.mark.parametrize(("target", "route", "match"), MATCHES)
def test_route_matching(target: dict[str, Any], route: dict[str, Any], match: bool) -> None:
    from richout.envelope.routes import route_from

    assert target_matches_route(target_from(target), route_from(route)) is match


def test_recorded_message_sends_are_route_scoped() -> None:
    ledger = DeliveryLedger(route=Route(provider="telegram", to="telegram:123"))
    ledger.record_message_send(
        {"action": "send", "media": "/srv/a.png", "message": "the weekly report is here"}
    )
    ledger.record_message_send(
        {"action": "send", "target": "other", "attachments": [{"media": "/srv/b.png"}]}
    )
    ledger.record_message_send({"action": "react", "media": "/srv/c.png"})  # not send-like
    result = ledger.finalize(
        [
            {"text": "The weekly report is here!", "mediaUrls": ["/srv/a.png"]},
            {"text": "more", "mediaUrls": ["/srv/b.png", "/srv/c.png"]},
        ]
    )
    assert result.payloads[0] is None
    second = result.payloads[1]
    assert second is not None and second.media_urls == ["/srv/b.png", "/srv/c.png"]
    assert [p.text for p in result.delivered] == ["more"]


def test_duplicate_text_rule() -> None:
    assert normalize_for_duplicate("  Hello\u00a0 World! 🎉 ") == "hello world!"
    assert is_duplicate_text("hello   world!", ["Hello World! 🎉"])
    assert not is_duplicate_text("ok done", ["ok done"])
    assert is_duplicate_text("0123456789", ["0123456789"])
    assert not is_duplicate_text("abcdefghij", ["abcdefghij" + "k" * 11])
    assert is_duplicate_text("abcdefghij", ["abcdefghij" + "k" * 10])
    # UTF-16 length: an astral character counts twice
    assert not is_duplicate_text("\U0001d400" * 4 + "a", ["\U0001d400" * 4 + "a"])
    assert is_duplicate_text("\U0001d400" * 5, ["\U0001d400" * 5])


def test_normalize_media_hook_joins_every_variant() -> None:
    ledger = DeliveryLedger(normalize_media=lambda ref: ["/work/" + ref.removeprefix("./")])
    ledger.record_block({"mediaUrl": "./out/a.png"})
    result = ledger.finalize([{"text": "t", "mediaUrl": "/work/out/a.png"}])
    assert result.payloads[0] == ReplyPayload(text="t")


def test_bad_evidence_is_invalid_input() -> None:
    ledger = DeliveryLedger()
    with pytest.raises(InvalidInput):
        ledger.record_block("MEDIA:/a.png")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        ledger.record_message_evidence(sent_media_urls=[1])  # type: ignore[list-item]
    with pytest.raises(InvalidInput):
        ledger.record_message_evidence(sent_targets=["telegram"])  # type: ignore[list-item]
    with pytest.raises(InvalidInput):
        DeliveryLedger(route={"provider": 1})
    with pytest.raises(InvalidInput):
        ledger.finalize({"text": "x"})  # type: ignore[arg-type]


# -- properties ----------------------------------------------------------------------------

REFS = st.sampled_from(
    [
        "/srv/a.png",
        "file:///srv/a.png",
        "/srv//a.png",
        "/srv/b.png",
        " /srv/b.png ",
        "https://x.example/c.png",
        "c.png",
        "",
        "  ",
    ]
)
TEXTS = st.sampled_from(["", "  ", "caption", "Caption here", "hello world!", "First.", "Second."])
PAYLOAD = st.fixed_dictionaries(
    {},
    optional={
        "text": TEXTS,
        "mediaUrl": REFS,
        "mediaUrls": st.lists(REFS, max_size=4),
        "audioAsVoice": st.booleans(),
        "isError": st.booleans(),
    },
)


def _delivery_list(obj: dict[str, Any]) -> list[str]:
    """§1.2-§1.3 for the generated payloads (their references only use ASCII spaces)."""
    urls = [u for u in obj.get("mediaUrls") or [] if u != ""]  # intake drops empty entries
    source = urls if urls else ([obj["mediaUrl"]] if obj.get("mediaUrl") else [])
    return [u.strip() for u in source if u.strip()]


def _is_subsequence(part: list[str], whole: list[str]) -> bool:
    it = iter(whole)
    return all(any(p == w for w in it) for p in part)


@settings(max_examples=400)
@given(
    st.lists(PAYLOAD, max_size=4),
    PAYLOAD,
    st.lists(REFS, max_size=3),
    st.booleans(),
    st.booleans(),
)
def test_dedupe_properties(
    streamed: list[dict[str, Any]],
    final: dict[str, Any],
    direct_refs: list[str],
    completed: bool,
    block_streaming: bool,
) -> None:
    ledger = DeliveryLedger()
    for block in streamed:
        ledger.record_block(block)
    ledger.record_direct_send({"mediaUrls": direct_refs})
    out = ledger.finalize([final], stream_completed=completed, block_streaming=block_streaming)
    result = out.payloads[0]
    sent = {ref_key(r) for r in direct_refs}
    if block_streaming:
        sent |= {ref_key(r) for b in streamed for r in _delivery_list(b)}
    sent.discard("")
    if result is None:
        return
    remaining = resolve_media(result)
    single = (final.get("mediaUrl") or "").strip()
    # nothing is delivered twice, order is kept, nothing is invented
    assert all(ref_key(r) not in sent for r in remaining)
    assert _is_subsequence(remaining, _delivery_list(final)) or remaining == [single]
    # text is kept whole or removed, never edited
    assert result.text is None or result.text == final.get("text")
    assert not result.audio_as_voice or remaining


@settings(max_examples=300)
@given(PAYLOAD, st.booleans(), st.booleans())
def test_without_evidence_only_renderability_and_the_voice_flag_change(
    final: dict[str, Any], completed: bool, block_streaming: bool
) -> None:
    out = DeliveryLedger().finalize(
        [final], stream_completed=completed, block_streaming=block_streaming
    )
    result = out.payloads[0]
    media = _delivery_list(final)
    text = final.get("text") or ""
    renderable = bool(text.strip()) or bool(media)
    assert (result is None) is (not renderable)
    if result is not None:
        assert resolve_media(result) == media
        assert result.audio_as_voice is bool(final.get("audioAsVoice") and media)
        assert not [d for d in out.diagnostics if d.code.startswith("dedupe.")]


ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8) | REFS,
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
    max_leaves=12,
)
ANY_PAYLOAD = st.dictionaries(
    st.sampled_from(
        [
            "text",
            "mediaUrl",
            "mediaUrls",
            "audioAsVoice",
            "isError",
            "channelData",
            "presentation",
            "delivery",
            "replyToId",
            "x",
        ]
    ),
    ANY_JSON,
    max_size=6,
)


@settings(max_examples=300)
@given(
    st.lists(ANY_PAYLOAD, max_size=3),
    ANY_PAYLOAD,
    st.lists(ANY_PAYLOAD, max_size=2),
    st.booleans(),
)
def test_dedupe_of_arbitrary_payload_objects_is_typed(
    streamed: list[dict[str, Any]],
    final: dict[str, Any],
    direct: list[dict[str, Any]],
    parse: bool,
) -> None:
    ledger = DeliveryLedger(route={"provider": "t", "to": "x"})
    for block in streamed:
        ledger.record_block(block)
    for sent in direct:
        ledger.record_direct_send(sent)
    ledger.record_message_send(
        {"action": "send", "media": final.get("mediaUrl"), "message": final.get("text")}
    )
    result = ledger.finalize([final], parse_final_directives=parse)
    out = result.payloads[0]
    assert out is None or isinstance(out, ReplyPayload)
    if out is not None:
        view = out.delivery_view()
        assert set(view) <= {"text", "mediaUrl", "mediaUrls", "audioAsVoice", "isError"}
    assert all(d.field for d in result.diagnostics)


def test_text_removed_message_is_true_whether_the_media_stays_or_goes() -> None:
    # Media not delivered before: the text goes, the media stays.
    out, codes, messages = run([{"text": "Listen"}], {"text": "Listen", "mediaUrl": "/srv/v.ogg"})
    assert out == {"mediaUrl": "/srv/v.ogg"}
    assert codes == [("dedupe.text_removed", "final.text")]
    # Media delivered by another block: the very next record removes it, so the text record
    # must not promise that it is kept.
    out, codes, messages = run(
        [{"text": "Listen"}, {"mediaUrl": "/srv/v.ogg"}],
        {"text": "Listen", "mediaUrl": "/srv/v.ogg"},
    )
    assert out is None
    assert [c for c, _ in codes] == [
        "dedupe.text_removed",
        "dedupe.media_removed",
        "dedupe.payload_dropped",
    ]
    text_removed = messages.split(" | ")[0]
    assert "media is kept" not in text_removed
    assert "dedupe.media_removed" in text_removed
