"""``message(action=send)`` (ENVELOPE.md §5) and WebChat commentary capture (§6-§7)."""

from __future__ import annotations

from typing import Any

import pytest

from richout.envelope import (
    Route,
    SendValidationError,
    build_send,
    capture_commentary,
    collect_send,
    collect_sent_media,
    message_tool_mode_findings,
    validate_send,
)
from richout.errors import InvalidInput


def test_build_send_shapes() -> None:
    assert build_send([" /w/a.png "]) == {"action": "send", "media": "/w/a.png"}
    assert build_send(["/w/a.png", "https://x.example/b.png"], message="two") == {
        "action": "send",
        "attachments": [{"media": "/w/a.png"}, {"media": "https://x.example/b.png"}],
        "message": "two",
    }
    assert build_send([], message="text only") == {"action": "send", "message": "text only"}
    assert build_send(["/a"], as_voice=True, threadId="7", reply_to=None) == {
        "action": "send",
        "media": "/a",
        "asVoice": True,
        "threadId": "7",
    }


@pytest.mark.parametrize(
    ("refs", "codes"),
    [
        (["  "], [("send.empty_reference", "media")]),
        (["DATA:image/png;base64,AA"], [("send.data_url_in_media", "media")]),
        (
            ["/a", "", "data:x"],
            [
                ("send.empty_reference", "attachments[1].media"),
                ("send.data_url_in_media", "attachments[2].media"),
            ],
        ),
    ],
)
def test_build_send_rejects_bad_references(refs: list[str], codes: list[tuple[str, str]]) -> None:
    with pytest.raises(SendValidationError) as info:
        build_send(refs)
    assert [(d.code, d.field) for d in info.value.diagnostics] == codes
    assert all(d.severity == "error" for d in info.value.diagnostics)


def test_build_send_argument_errors() -> None:
    for call in (
        lambda: build_send("/a.png"),
        lambda: build_send([]),
        lambda: build_send(["/a"], media="/b"),
        lambda: build_send(["/a"], asVoice=True, as_voice=True),
        lambda: build_send(["/a"], message=3),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidInput):
            call()


def test_validate_send_checks_existing_arguments() -> None:
    found = validate_send(
        {"media": "data:,x", "attachments": [{"media": " "}, "x", {"media": "/ok"}]}
    )
    assert [(d.code, d.field) for d in found] == [
        ("send.data_url_in_media", "media"),
        ("send.empty_reference", "attachments[0].media"),
        ("send.empty_reference", "attachments[1]"),
    ]


def test_collect_sent_media_alias_order() -> None:
    params: dict[str, Any] = {
        "attachments": [
            {"url": "/u", "fileUrl": "/fu", "media": "/m2", "filePath": 3, "path": " /p2 "},
            "not an object",
        ],
        "mediaUrls": ["/l1", 4, "/media", " "],
        "fileUrl": "/fileurl",
        "filePath": "/filepath",
        "path": "/path",
        "mediaUrl": " /media ",
        "media": "/media",
    }
    assert collect_sent_media(params) == [
        "/media",
        "/path",
        "/filepath",
        "/fileurl",
        "/l1",
        "/m2",
        "/p2",
        "/fu",
        "/u",
    ]


def test_collect_send_records_targets() -> None:
    route = Route(provider="telegram", to="telegram:1", account_id="acct")
    sent = collect_send(
        {"action": "sendAttachment", "media": "/a", "message": "hi", "targets": ["x", "y", 3]},
        route=route,
    )
    assert sent.send_like and sent.media_urls == ["/a"] and sent.text == "hi"
    assert [(t.provider, t.to, t.thread_implicit) for t in sent.targets] == [
        ("telegram", "x", False),
        ("telegram", "y", False),
    ]
    implicit = collect_send({"action": "send", "channel": "slack", "media": "/a"}, route=route)
    [target] = implicit.targets
    assert (target.provider, target.to, target.account_id, target.thread_implicit) == (
        "slack",
        "telegram:1",
        "acct",
        True,
    )
    assert not collect_send({"action": "react", "media": "/a"}).send_like
    assert collect_send({"action": "send", "media": "data:,x"}).diagnostics[0].code == (
        "send.data_url_in_media"
    )


# -- commentary ----------------------------------------------------------------------------


def _commentary(channel: str, mode: str, captured: list[str], *blocks: tuple[Any, str]) -> Any:
    return capture_commentary(
        channel=channel,
        reply_mode=mode,
        captured_refs=captured,
        blocks=[{"phase": phase, "text": text} for phase, text in blocks],
    )


def test_hook_added_reference_stays_text_and_is_explained() -> None:
    text = "Before\nMEDIA:https://m.example/x\nAfter\nMEDIA:https://m.example/hook"
    got = _commentary("webchat", "auto", ["https://m.example/x"], ("commentary", text))
    assert (got.attach, got.left_as_text) == (["https://m.example/x"], ["https://m.example/hook"])
    [d] = got.diagnostics
    assert d.code == "commentary.ref_not_captured" and d.field == "blocks[0].text"
    assert d.start is not None and text[d.start : d.end].startswith("MEDIA:https://m.example/hook")
    assert d.line == 4


def test_commentary_diagnostics() -> None:
    got = _commentary("telegram", "auto", ["/w/a.png"], ("commentary", "P\nMEDIA:/w/a.png"))
    assert (got.attach, got.left_as_text) == ([], [])
    assert [(d.code, d.field) for d in got.diagnostics] == [("commentary.not_webchat", "channel")]

    got = _commentary("webchat", "auto", ["/w/a.png"], (None, "P\nMEDIA:/w/a.png"))
    assert [(d.code, d.field) for d in got.diagnostics] == [
        ("commentary.phase_missing", "blocks[0].phase")
    ]

    got = _commentary(
        "webchat", "message_tool_only", ["/w/a.png"], ("commentary", "P\nMEDIA:/w/a.png")
    )
    assert (got.attach, got.left_as_text) == ([], ["/w/a.png"])
    assert [d.code for d in got.diagnostics] == ["envelope.media_line_in_message_tool_mode"]

    got = _commentary("webchat", "auto", ["/w/a.png"], ("commentary", "no media here"))
    assert (got.attach, got.left_as_text, got.diagnostics) == ([], [], [])


def test_commentary_input_errors() -> None:
    good: dict[str, Any] = {
        "channel": "webchat",
        "reply_mode": "auto",
        "captured_refs": [],
        "blocks": [],
    }
    for change in (
        {"reply_mode": "visible"},
        {"channel": None},
        {"captured_refs": [1]},
        {"blocks": "MEDIA:/a"},
        {"blocks": ["x"]},
        {"blocks": [{"phase": "commentary", "text": 3}]},
    ):
        with pytest.raises(InvalidInput):
            capture_commentary(**{**good, **change})


def test_message_tool_mode_findings_locate_each_directive() -> None:
    text = "Here\nMEDIA:/a.png\n`MEDIA:/b.png`\nMEDIA:https://x.example/c.png"
    found = message_tool_mode_findings(text, field="final.text")
    assert [text[d.start : d.end].split(maxsplit=1)[0] for d in found if d.start is not None] == [
        "MEDIA:/a.png",
        "MEDIA:https://x.example/c.png",
    ]
    assert {d.field for d in found} == {"final.text"}
    assert message_tool_mode_findings("nothing") == []
