"""render_reply: the WebChat view (EMBED.md §9) as tables, plus properties on generated text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.embed.parse import extract_embeds
from richout.errors import InvalidInput
from richout.media.split import split_media
from richout.models import CanvasBlock, CanvasPreview
from richout.models.canvas import block_record, block_wire, preview_record
from richout.models.lossless import rebuild
from richout.text.chars import ascii_lower
from richout.views.render import render_reply

DOCS = "/__openclaw__/canvas/documents/"


def preview(url: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "canvas", "surface": "assistant_message", "render": "url", "url": url, **extra}


def block(url: str, **extra: Any) -> dict[str, Any]:
    return {"type": "canvas", "preview": preview(url, **extra)}


# --------------------------------------------------------------------------- §9.4 table


@pytest.mark.parametrize(
    ("text", "role", "out", "target", "attachments", "canvas", "voice"),
    [
        (
            '[[reply_to_current]] Here it is [embed ref="cv_1" height="320" /]',
            "assistant",
            "Here it is",
            {"mode": "current"},
            [],
            [block(DOCS + "cv_1/index.html", viewId="cv_1", preferredHeight=320)],
            False,
        ),
        (
            "Chart:\nMEDIA:https://example.com/c.png\n"
            '[embed url="/__openclaw__/canvas/x/index.html" /]\nDone [[reply_to:m1]]',
            "assistant",
            "Chart:\n\nDone",
            {"mode": "id", "id": "m1"},
            [{"url": "https://example.com/c.png", "kind": "image", "source": "remote"}],
            [block("/__openclaw__/canvas/x/index.html")],
            False,
        ),
        (
            "[[audio_as_voice]]\nMEDIA:/srv/v.ogg",
            "assistant",
            "",
            None,
            [{"url": "/srv/v.ogg", "kind": "audio", "source": "local", "voice": True}],
            [],
            True,
        ),
        (
            '[embed content_type="html"]<b>x</b>[/embed]',
            "assistant",
            '[embed content_type="html"]<b>x</b>[/embed]',
            None,
            [],
            [],
            False,
        ),
        ('Use `[embed ref="x" /]`', "assistant", 'Use `[embed ref="x" /]`', None, [], [], False),
        ('[embed ref="x" /]', "user", '[embed ref="x" /]', None, [], [], False),
    ],
)
def test_spec_table(
    *,
    text: str,
    role: str,
    out: str,
    target: dict[str, str] | None,
    attachments: list[dict[str, Any]],
    canvas: list[dict[str, Any]],
    voice: bool,
) -> None:
    wire = render_reply(text, role=role).to_wire()
    assert wire["text"] == out
    assert wire["replyTarget"] == target
    assert wire["attachments"] == attachments
    assert wire["canvas"] == canvas
    assert wire["audioAsVoice"] is voice
    expected_content = ([{"type": "text", "text": out}] if out else []) + [
        {"type": "media", "url": a["url"]} for a in attachments
    ]
    assert wire["content"] == expected_content + canvas


# --------------------------------------------------------------------------- §9.1 roles


@pytest.mark.parametrize("role", ["user", "tool", "system", "Assistant", "assistant ", ""])
def test_other_roles_show_the_text_as_written(role: str) -> None:
    text = (
        '[[reply_to:m1]] [[audio_as_voice]] hi\nMEDIA:https://example.com/a.png [embed ref="x" /]'
    )
    result = render_reply(text, role=role)
    assert result.text == text
    assert result.reply_target is None
    assert result.audio_as_voice is False
    assert result.attachments == []
    assert result.canvas == []
    assert result.content == [{"type": "text", "text": text}]
    assert result.edits == []
    assert rebuild(result) == text


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ('[embed ref="x" /]', True),
        ("[EMBED whatever", True),
        ("[[anything]]", True),
        ("MEDIA:/srv/a.png", True),
        ("intro\n  media:/srv/a.png", True),
        ("say MEDIA: x", False),
        ("plain words", False),
        ("", False),
    ],
)
def test_role_not_assistant_diagnostic(text: str, flagged: bool) -> None:
    result = render_reply(text, role="user")
    found = [d for d in result.diagnostics if d.code == "render.role_not_assistant"]
    assert len(found) == int(flagged)
    if flagged:
        assert (found[0].severity, found[0].start, found[0].end) == ("info", 0, len(text))


@pytest.mark.parametrize(("text", "role"), [(None, "assistant"), (b"x", "assistant"), ("x", None)])
def test_wrong_argument_types_are_typed_errors(text: Any, role: Any) -> None:
    with pytest.raises(InvalidInput):
        render_reply(text, role=role)
    if not isinstance(text, str):
        with pytest.raises(InvalidInput):
            extract_embeds(text)


def test_empty_text_has_no_content() -> None:
    assert render_reply("", role="user").content == []
    assert render_reply("").content == []
    assert render_reply("   ").content == []


# --------------------------------------------------------------------------- the wire


def test_wire_always_has_reply_target_and_voice_flag() -> None:
    wire = render_reply("hi").to_wire()
    assert wire == {
        "text": "hi",
        "replyTarget": None,
        "audioAsVoice": False,
        "attachments": [],
        "canvas": [],
        "content": [{"type": "text", "text": "hi"}],
    }


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("[[reply_to_current]] a", {"mode": "current"}),
        ("[[reply_to:x]] a", {"mode": "id", "id": "x"}),
        ("[[reply_to_current]][[reply_to:y]] a", {"mode": "id", "id": "y"}),
        ("[[reply_to: ]] a", None),
    ],
)
def test_reply_target_wire_forms(text: str, target: dict[str, str] | None) -> None:
    assert render_reply(text).to_wire()["replyTarget"] == target


def test_canvas_blocks_have_exactly_type_and_preview() -> None:
    wire = render_reply('[embed ref="cv_1" title="T" /]').to_wire()
    assert [sorted(b) for b in wire["canvas"]] == [["preview", "type"]]
    assert wire["content"] == wire["canvas"]


# --------------------------------------------------------------------------- order (§9.3-§9.4)


def test_canvas_follows_text_and_attachments_wherever_the_shortcode_was() -> None:
    text = '[embed ref="a" /]\nMEDIA:https://example.com/x.png\nMiddle [embed ref="b" /]\nEnd'
    wire = render_reply(text).to_wire()
    assert [item["type"] for item in wire["content"]] == ["text", "media", "canvas", "canvas"]
    assert [b["preview"]["viewId"] for b in wire["canvas"]] == ["a", "b"]


def test_block_body_tags_and_media_are_gone_before_they_are_read() -> None:
    text = '[embed ref="a"]\n[[reply_to:x]]\n[[audio_as_voice]]\nMEDIA:/srv/a.png\n[/embed] ok'
    result = render_reply(text)
    assert result.text == "ok"
    assert result.reply_target is None
    assert result.audio_as_voice is False
    assert result.attachments == []
    assert [b.preview.view_id for b in result.canvas] == ["a"]


def test_media_line_freed_by_an_embed_becomes_a_directive() -> None:
    # Removing the shortcode puts MEDIA: at the start of its line (embeds come first).
    text = '[embed ref="a" /]MEDIA:/srv/a.png'
    result = render_reply(text)
    assert [a["url"] for a in result.attachments] == ["/srv/a.png"]
    assert result.text == ""


# --------------------------------------------------------------------------- offsets


def test_diagnostics_of_later_steps_point_into_the_input() -> None:
    text = '[embed ref="x" /][[reply_to_current]] hi'
    result = render_reply(text)
    tag = [d for d in result.diagnostics if d.code.startswith("tag.")]
    assert tag, [d.code for d in result.diagnostics]
    for d in tag:
        assert d.start is not None and d.end is not None
        assert text[d.start : d.end] == "[[reply_to_current]]"
        assert (d.line, d.column) == (1, 18)


def test_media_diagnostics_point_into_the_input() -> None:
    text = 'Intro [embed ref="x" /]\nMEDIA:http://example.com/a.png'
    t1 = extract_embeds(text).text
    direct = [d for d in split_media(t1).diagnostics if d.start is not None]
    mapped = [d for d in render_reply(text).diagnostics if d.code.startswith("media.")]
    assert direct and len(mapped) == len(direct)
    for d0, d in zip(direct, mapped, strict=True):
        assert d0.start is not None and d0.end is not None
        assert d.start is not None and d.end is not None
        assert text[d.start : d.end] == t1[d0.start : d0.end]


def test_spans_point_into_the_input() -> None:
    text = '[embed ref="x" /]\nMEDIA:/srv/a.png\nSee [[reply_to:m1]] now [[audio_as_voice]]'
    result = render_reply(text)
    assert [(s.kind, text[s.start : s.end]) for s in result.spans] == [
        ("embed", '[embed ref="x" /]'),
        ("media", "MEDIA:/srv/a.png"),
        ("reply_tag", "[[reply_to:m1]]"),
        ("audio_tag", "[[audio_as_voice]]"),
    ]
    assert rebuild(result) == text


# --------------------------------------------------------------------------- properties

_PIECES = [
    '[embed ref="a" /]',
    '[embed url="/u"]',
    "[embed ",
    "[/embed]",
    "]",
    "/]",
    'title="t"',
    "MEDIA:/srv/a.png",
    "MEDIA:https://example.com/b.png",
    "MEDIA:http://example.com/c.png",
    "media:",
    "[[reply_to_current]]",
    "[[reply_to:x]]",
    "[[audio_as_voice]]",
    "[[",
    "]]",
    "`",
    "```\n",
    "    ",
    " ",
    "\n",
    "\r\n",
    "x",
    "\u2028",
    "\ud800",
]
texts = st.one_of(
    st.lists(st.sampled_from(_PIECES), max_size=20).map("".join),
    st.text(st.characters(exclude_categories=[]), max_size=120),
)


@settings(max_examples=300, deadline=None)
@given(texts, st.sampled_from(["assistant", "user"]))
def test_never_raises_and_loses_nothing(text: str, role: str) -> None:
    result = render_reply(text, role=role)
    assert rebuild(result) == text
    for d in result.diagnostics:
        assert d.start is not None and d.end is not None
        assert 0 <= d.start <= d.end <= len(text)
    keys = [(d.start, d.code, d.end) for d in result.diagnostics]
    assert len(set(keys)) == len(keys)
    assert [k[:2] for k in keys] == sorted(k[:2] for k in keys)
    for s in result.spans:
        assert 0 <= s.start <= s.end <= len(text)
    assert result.spans == sorted(result.spans, key=lambda s: (s.start, s.end))


@settings(max_examples=300, deadline=None)
@given(texts)
def test_the_three_steps_compose(text: str) -> None:
    result = render_reply(text)
    embeds = extract_embeds(text)
    media = split_media(embeds.text)
    assert [b.preview for b in result.canvas] == embeds.previews
    assert [a["url"] for a in result.attachments] == media.media_urls
    assert result.audio_as_voice == media.audio_as_voice
    head = [{"type": "text", "text": result.text}] if result.text else []
    media_items = [{"type": "media", "url": u} for u in media.media_urls]
    assert result.content == head + media_items + [b.to_wire() for b in result.canvas]
    for s in result.spans:
        if s.kind == "embed":
            assert ascii_lower(text[s.start : s.start + 6]) == "[embed"


HOSTILE = {
    "openers": "[embed " * 20000,
    "self_closing": '[embed ref="x" /]\n' * 5000,
    "brackets": "[[" * 50000,
    "media_lines": "MEDIA:/srv/a.png\n" * 5000,
    "mixed": '[[reply_to:x]] [embed ref="a"]MEDIA:/srv/a.png[/embed]\n' * 3000,
    "nul": '\x00[embed ref="\x00" /]\x00MEDIA:/\x00',
    "surrogates": '\udc00[embed ref="a\ud800" /][[reply_to:\ud800]]',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs(name: str) -> None:
    text = HOSTILE[name]
    result = render_reply(text)
    assert rebuild(result) == text


# --------------------------------------------------------------------------- canvas records

_ATTR_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    st.none() | _ATTR_TEXT,
    st.none() | _ATTR_TEXT,
    st.none() | st.integers(min_value=160, max_value=1200),
    st.none() | _ATTR_TEXT,
    st.none() | _ATTR_TEXT,
)
def test_canvas_records_assembled_as_validation_builds_them(
    view_id: str | None,
    title: str | None,
    height: int | None,
    class_name: str | None,
    style: str | None,
) -> None:
    # The embed rules and the render view assemble their canvas records and write the
    # content's wire form directly; validated records of the same values are the same
    # records, with the same set fields and the same wire form, key order included.
    fields: dict[str, Any] = {
        "view_id": view_id,
        "title": title,
        "preferred_height": height,
        "class_name": class_name,
        "style": style,
    }
    url = f"/__openclaw__/canvas/documents/{view_id}/index.html"
    got = preview_record(url, **fields)
    validated = CanvasPreview(url=url, **fields)
    assert got == validated
    assert got.model_fields_set == validated.model_fields_set
    block = block_record(got)
    checked = CanvasBlock(preview=validated)
    assert block == checked and block.model_fields_set == checked.model_fields_set
    assert json.dumps(block_wire(block)) == json.dumps(checked.to_wire())


def test_render_content_writes_each_card_as_its_block() -> None:
    text = 'A\n\n[embed ref="cv_1" title="Q3" height="300" /]\n[embed url="/c/x.html" /]'
    rendered = render_reply(text)
    cards = [c for c in rendered.content if c["type"] == "canvas"]
    assert [json.dumps(c) for c in cards] == [json.dumps(b.to_wire()) for b in rendered.canvas]
    assert len(cards) == 2


@pytest.mark.pure_python(why="replaces CodeMap.__init__ to count the maps built")
@pytest.mark.parametrize("explain", [False, True])
def test_the_tag_layer_asks_the_split_s_map_of_its_text(
    monkeypatch: pytest.MonkeyPatch, explain: bool
) -> None:
    """An audio head left in code keeps the tag layer from reusing the split's reading of
    reply tags, but the text it reads is the one the split's reply stage read: it asks the
    same code map, not a second one (a 1 MB reply's line index, fences and cut points)."""
    from richout.markdown.codemap import CodeMap

    built: list[str] = []
    real = CodeMap.__init__

    def counting(self: CodeMap, text: str, like: CodeMap | None = None) -> None:
        built.append(text)
        real(self, text, like)

    monkeypatch.setattr(CodeMap, "__init__", counting)
    text = "x `[[audio_as_voice]]` [[reply_to_current]]\n\n    code [[reply_to:1]]\n\ny `z`\n"
    plain = render_reply(text + "MEDIA:https://example.com/a.png\n", explain=explain)
    assert plain.reply_target is not None  # the reply tag was read outside code
    assert built and len(built) == len(set(built)), built
