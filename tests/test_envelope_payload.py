"""Reply payloads (ENVELOPE.md §1-§2): intake, delivery list, renderability, directive merge."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.envelope import (
    ReplyPayload,
    intake_payload,
    is_renderable,
    merge_final_directives,
    resolve_media,
    resolve_payload,
)
from richout.errors import InvalidInput
from richout.text.chars import js_trim

RESOLVED: list[tuple[dict[str, Any], list[str], bool]] = [
    ({"mediaUrl": "/a.png"}, ["/a.png"], True),
    ({"mediaUrl": "/a.png", "mediaUrls": ["/a.png", "/b.png"]}, ["/a.png", "/b.png"], True),
    ({"mediaUrl": "/x.png", "mediaUrls": ["/a.png"]}, ["/a.png"], True),
    ({"mediaUrl": "/x.png", "mediaUrls": []}, ["/x.png"], True),
    ({"mediaUrls": [" /a.png ", "", "   ", "/b.png"]}, ["/a.png", "/b.png"], True),
    ({"mediaUrls": ["/a.png", 42, None, "/b.png"]}, ["/a.png", "/b.png"], True),
    ({"mediaUrls": ["/a.png", "/a.png"]}, ["/a.png", "/a.png"], True),
    ({"text": "   "}, [], False),
    ({"audioAsVoice": True}, [], True),
    ({"mediaUrls": ["  "], "mediaUrl": "x"}, [], False),
    ({"mediaUrl": "   "}, [], False),
    ({"channelData": {"k": 1}}, [], True),
    ({"channelData": {}}, [], False),
    ({"presentation": {}}, [], True),
    ({"interactive": {"blocks": []}}, [], True),
    ({"location": {}}, [], True),
    ({"delivery": {"pin": True}}, [], False),
]


@pytest.mark.parametrize(("obj", "media", "renderable"), RESOLVED)
def test_delivery_list_and_renderability(
    obj: dict[str, Any], media: list[str], renderable: bool
) -> None:
    result = resolve_payload(obj)
    assert result.media == media
    assert result.renderable is renderable
    assert resolve_media(result.payload) == media
    assert is_renderable(result.payload) is renderable


def _codes(result: Any) -> list[tuple[str, str | None]]:
    return [(d.code, d.field) for d in result.diagnostics]


DIAGNOSED: list[tuple[dict[str, Any], list[tuple[str, str]]]] = [
    ({"mediaUrl": 42}, [("payload.field_dropped", "mediaUrl")]),
    ({"text": ["a"]}, [("payload.field_dropped", "text")]),
    ({"audioAsVoice": "true"}, [("payload.field_dropped", "audioAsVoice")]),
    ({"isError": 1}, [("payload.field_dropped", "isError")]),
    ({"channelData": [1]}, [("payload.field_dropped", "channelData")]),
    ({"channelData": {1: "x"}}, [("payload.field_dropped", "channelData")]),
    ({"mediaUrls": "/a.png"}, [("payload.field_dropped", "mediaUrls")]),
    (
        {"mediaUrls": ["/a.png", None, "  ", ""]},
        [
            ("payload.media_entry_dropped", "mediaUrls[1]"),
            ("payload.media_entry_dropped", "mediaUrls[2]"),
            ("payload.media_entry_dropped", "mediaUrls[3]"),
        ],
    ),
    ({"mediaUrl": "/x.png", "mediaUrls": ["/a.png"]}, [("payload.media_url_ignored", "mediaUrl")]),
    (
        {"mediaUrls": ["  "], "mediaUrl": "x"},
        [
            ("payload.media_entry_dropped", "mediaUrls[0]"),
            ("payload.blank_media_list", "mediaUrls"),
        ],
    ),
    # false is the same as absent, null is absent, canonical shapes are fine: no findings
    ({"audioAsVoice": False, "text": None, "isError": False}, []),
    ({"mediaUrl": "/a.png", "mediaUrls": ["/a.png", "/b.png"]}, []),
    ({"mediaUrl": "/b.png", "mediaUrls": ["/a.png", "/b.png"]}, []),
]


@pytest.mark.parametrize(("obj", "expected"), DIAGNOSED)
def test_every_dropped_or_ignored_field_is_explained(
    obj: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    assert _codes(resolve_payload(obj)) == expected


def test_intake_keeps_only_well_typed_fields() -> None:
    obj = {
        "text": "t",
        "mediaUrl": "/a.png",
        "replyToId": 7,
        "audioAsVoice": True,
        "replyToTag": "yes",
        "trustedLocalMedia": True,
        "sensitiveMedia": False,
        "delivery": {"pin": {"enabled": True}},
        "unknown": 1,
    }
    got = intake_payload(obj)
    assert got.payload.to_wire() == {
        "text": "t",
        "mediaUrl": "/a.png",
        "audioAsVoice": True,
        "delivery": {"pin": {"enabled": True}},
        "trustedLocalMedia": True,
    }
    assert [d.field for d in got.diagnostics] == ["replyToId", "replyToTag"]


def test_intake_prefixes_paths_and_rejects_non_objects() -> None:
    got = intake_payload({"mediaUrls": [1]}, path="final")
    assert [d.field for d in got.diagnostics] == ["final.mediaUrls[0]"]
    for bad in (None, "text", [1], 3):
        with pytest.raises(InvalidInput):
            intake_payload(bad)


MERGED: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = [
    (
        {"text": "Here\nMEDIA:/p.png\nMEDIA:/q.png"},
        {},
        {"text": "Here", "media": ["/p.png", "/q.png"], "mediaUrl": "/p.png"},
    ),
    (
        {"text": "a\nMEDIA:/p.png", "mediaUrls": ["/q.png"]},
        {},
        {"text": "a", "media": ["/q.png"], "mediaUrl": "/p.png"},
    ),
    (
        {"text": "a\nMEDIA:/p.png\nMEDIA:/q.png", "mediaUrl": "/x.png"},
        {},
        {"text": "a", "media": ["/p.png", "/q.png"], "mediaUrl": "/x.png"},
    ),
    (
        {"text": "MEDIA:/p.ogg\n[[audio_as_voice]]"},
        {},
        {"text": None, "media": ["/p.ogg"], "mediaUrl": "/p.ogg", "audioAsVoice": True},
    ),
    (
        {"text": "Look ![chart](https://example.com/chart.png)"},
        {},
        {"text": "Look ![chart](https://example.com/chart.png)", "media": [], "mediaUrl": None},
    ),
    (
        {"text": "Look ![chart](https://example.com/chart.png)"},
        {"extract_markdown_images": True},
        {
            "text": "Look",
            "media": ["https://example.com/chart.png"],
            "mediaUrl": "https://example.com/chart.png",
        },
    ),
    (
        {"text": "Look ![chart](file:///etc/passwd) now"},
        {"extract_markdown_images": True},
        {"text": "Look ![chart](file:///etc/passwd) now", "media": [], "mediaUrl": None},
    ),
    (
        {
            "text": "**MEDIA:/w/image.png**\n`MEDIA:/w/image.png`\n"
            "Here is your image: MEDIA:/w/image.png"
        },
        {},
        {
            "text": "**MEDIA:/w/image.png**\n`MEDIA:/w/image.png`\nHere is your image: "
            "MEDIA:/w/image.png",
            "media": [],
            "mediaUrl": None,
        },
    ),
    (
        {"text": "[[reply_to_current]] hi", "replyToId": "explicit"},
        {"current_message_id": "m1"},
        {"text": "hi", "replyToId": "explicit", "replyToCurrent": True},
    ),
]


@pytest.mark.parametrize(("obj", "kwargs", "expected"), MERGED)
def test_final_directive_merge_table(
    obj: dict[str, Any], kwargs: dict[str, Any], expected: dict[str, Any]
) -> None:
    wire = resolve_payload(obj, parse_final_directives=True, **kwargs).to_wire()
    for key, value in expected.items():
        if value is None:
            assert key not in wire, key
        else:
            assert wire[key] == value, key


def test_merge_diagnoses_what_explicit_fields_discard() -> None:
    text = "a\nMEDIA:/p.png"
    got = resolve_payload({"text": text, "mediaUrls": ["/q.png"]}, parse_final_directives=True)
    [d] = [d for d in got.diagnostics if d.code == "payload.parsed_media_discarded"]
    assert d.field == "text" and d.start is not None and d.end is not None
    assert "/p.png" in text[d.start : d.end] and d.line == 2
    # the parsed mediaUrl is not the plugin's, so it is not reported as ignored
    assert "payload.media_url_ignored" not in [x.code for x in got.diagnostics]

    got = resolve_payload(
        {"text": "MEDIA:/p.png", "mediaUrl": "/x.png"}, parse_final_directives=True
    )
    assert ("payload.explicit_media_url_not_delivered", "mediaUrl") in _codes(got)
    assert "payload.media_url_ignored" not in [x.code for x in got.diagnostics]

    # an explicit list that repeats the parsed reference delivers it: nothing is discarded
    got = resolve_payload(
        {"text": "a\nMEDIA:/p.png", "mediaUrls": ["/p.png"]}, parse_final_directives=True
    )
    assert "payload.parsed_media_discarded" not in [x.code for x in got.diagnostics]


def test_silent_final_text_is_removed_and_explained() -> None:
    got = resolve_payload({"text": "NO_REPLY", "mediaUrl": "/a.png"}, parse_final_directives=True)
    assert got.is_silent is True and got.text is None and got.media == ["/a.png"]
    assert ("payload.silent", "text") in _codes(got)
    assert resolve_payload({"text": "x"}).to_wire().get("isSilent") is None


def test_message_tool_only_mode_keeps_media_lines_as_text() -> None:
    text = "Done\nMEDIA:/w/a.png"
    got = resolve_payload(
        {"text": text}, parse_final_directives=True, reply_mode="message_tool_only"
    )
    assert got.text == text and got.media == []
    [d] = [d for d in got.diagnostics if d.code == "envelope.media_line_in_message_tool_mode"]
    assert d.field == "text" and text[d.start : d.end].startswith("MEDIA:") and d.line == 2
    with pytest.raises(InvalidInput):
        merge_final_directives(ReplyPayload(text="x"), reply_mode="other")  # type: ignore[arg-type]


def test_a_constructed_payload_is_taken_as_is() -> None:
    payload = ReplyPayload(text="hi", media_urls=["/a.png", " "])
    got = resolve_payload(payload)
    assert got.payload is payload and got.media == ["/a.png"]
    assert _codes(got) == [("payload.media_entry_dropped", "mediaUrls[1]")]


def test_delivery_view_keeps_only_delivery_fields() -> None:
    payload = ReplyPayload(
        text="",
        media_url="/a.png",
        media_urls=[],
        audio_as_voice=False,
        is_error=True,
        channel_data={"k": 1},
        reply_to_id="r",
    )
    assert payload.delivery_view() == {"mediaUrl": "/a.png", "isError": True}


def test_deeply_nested_channel_data_is_kept_without_recursion() -> None:
    deep: dict[str, Any] = {}
    cur = deep
    for _ in range(100_000):
        cur["a"] = {}
        cur = cur["a"]
    got = resolve_payload({"channelData": deep, "text": "x"})
    assert got.renderable and got.payload.channel_data is not None
    assert got.to_wire()["media"] == []
    with pytest.raises(InvalidInput):
        got.payload.to_wire()


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
FIELDS = st.sampled_from(
    [
        "text",
        "mediaUrl",
        "mediaUrls",
        "audioAsVoice",
        "replyToId",
        "replyToTag",
        "replyToCurrent",
        "isError",
        "channelData",
        "presentation",
        "interactive",
        "location",
        "delivery",
        "trustedLocalMedia",
        "sensitiveMedia",
        "other",
    ]
)


@settings(max_examples=400)
@given(st.dictionaries(FIELDS, JSON | st.lists(st.text(max_size=6) | JSON, max_size=4), max_size=8))
def test_intake_of_any_json_object_is_typed_and_explained(obj: dict[str, Any]) -> None:
    got = resolve_payload(obj)
    assert all(isinstance(m, str) and m == js_trim(m) and m for m in got.media)
    # every delivered reference came from the input, trimmed
    listed = obj.get("mediaUrls") if isinstance(obj.get("mediaUrls"), list) else []
    sources = [obj.get("mediaUrl"), *listed]
    assert all(any(isinstance(s, str) and js_trim(s) == m for s in sources) for m in got.media)
    # every string entry that is not delivered is explained
    urls = obj.get("mediaUrls")
    if isinstance(urls, list) and urls and any(isinstance(u, str) and u for u in urls):
        explained = {d.field for d in got.diagnostics}
        for i, u in enumerate(urls):
            if not (isinstance(u, str) and js_trim(u)):
                assert f"mediaUrls[{i}]" in explained
    # a field that is present with a value of the wrong type is explained
    for key in ("text", "mediaUrl", "replyToId"):
        if key in obj and obj[key] is not None and not isinstance(obj[key], str):
            assert key in {d.field for d in got.diagnostics}
    got.to_wire()
    assert not any(isinstance(v, float) and math.isnan(v) for v in got.to_wire().values())
