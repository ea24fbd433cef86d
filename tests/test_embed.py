"""extract_embeds and the stored canvas block: every example of EMBED.md as a table."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from richout.embed.attributes import parse_opener
from richout.embed.parse import embeds_for_delivery_diagnostics, extract_embeds
from richout.embed.rules import encode_uri_component, js_number
from richout.errors import InvalidInput
from richout.markdown.codemap import CodeMap
from richout.models import CanvasBlock, EmbedResult
from richout.models.canvas import canvas_block_from_json, normalize_preferred_height
from richout.models.lossless import rebuild

DOC = "/__openclaw__/canvas/documents/"


def doc_url(ref: str) -> str:
    return f"{DOC}{ref}/index.html"


def view_ids(result: EmbedResult) -> list[str | None]:
    return [p.view_id for p in result.previews]


def codes(result: EmbedResult) -> list[str]:
    return [d.code for d in result.diagnostics]


def spanned(text: str, result: EmbedResult, code: str) -> list[str]:
    out = []
    for d in result.diagnostics:
        if d.code == code:
            assert d.start is not None and d.end is not None
            out.append(text[d.start : d.end])
    return out


# --------------------------------------------------------------------------- §1 fast path


@pytest.mark.parametrize(
    "text",
    ["", "   ", "\n\t ", "no shortcode here", "The [embedded] view  stays", "[EMBEDDED] x"],
)
def test_fast_path_returns_the_text_unchanged(text: str) -> None:
    result = extract_embeds(text)
    assert result.text == text
    assert result.previews == []
    assert result.edits == []


# --------------------------------------------------------------------------- §2 forms


@pytest.mark.parametrize(
    ("text", "out", "refs"),
    [
        ('[embed ref="x" /]', "", ["x"]),
        ('[embed ref="x"/]', "", ["x"]),
        ('[embed\nref="x"\n/]', "", ["x"]),
        ('[EMBED ref="x" /]', "", ["x"]),
        ('[Embed\tref="x" /]', "", ["x"]),
        ('[embed\u00a0ref="x" /]', "", ["x"]),  # NBSP is JavaScript whitespace
        ('[embed\u2028ref="x" /]', "", ["x"]),
        ('[embed ref="x"] body [/embed]', "", ["x"]),
        ('[embed ref="x"] body [/EMBED]', "", ["x"]),
        ('[embed ref="x"][/embed]', "", ["x"]),
        ("[embed]", "[embed]", []),
        ("[embed/]", "[embed/]", []),
        ('[embedref="x" /]', '[embedref="x" /]', []),
        ('[embed\x85ref="x" /]', '[embed\x85ref="x" /]', []),  # U+0085 is not JS whitespace
        ('[embed\x1cref="x" /]', '[embed\x1cref="x" /]', []),
        ("[embed /]", "[embed /]", []),
    ],
)
def test_shortcode_forms(text: str, out: str, refs: list[str]) -> None:
    result = extract_embeds(text)
    assert result.text == out
    assert view_ids(result) == refs


def test_self_closing_needs_the_slash_right_before_the_bracket() -> None:
    # §2.2: the character before "]" is a space, so this is a block running to [/embed].
    result = extract_embeds('[embed url="https://a"/ ]body[/embed] after')
    assert result.text == " after"
    assert [p.url for p in result.previews] == ["https://a"]


def test_a_self_closing_opener_never_starts_a_block() -> None:
    result = extract_embeds('[embed url="https://a.com" /] keep me [/embed]')
    assert result.text == " keep me [/embed]"
    assert [p.url for p in result.previews] == ["https://a.com"]


def test_block_runs_to_the_first_closer() -> None:
    result = extract_embeds('[embed ref="a"]x[/embed]y[/embed]')
    assert result.text == "y[/embed]"
    assert view_ids(result) == ["a"]


def test_block_without_closer_is_no_shortcode() -> None:
    assert extract_embeds('[embed ref="a"] no close').text == '[embed ref="a"] no close'


def test_scan_resumes_after_a_discarded_in_code_block() -> None:
    # §2.3 reproduced quirk: the in-code block swallows the real one.
    text = '`[embed x]` [embed url="a"]b[/embed] tail'
    result = extract_embeds(text)
    assert result.text == text
    assert result.previews == []
    assert spanned(text, result, "embed.in_code") == ['[embed x]` [embed url="a"]b[/embed]']
    assert spanned(text, result, "embed.unmatched") == ['[embed url="a"]b[/embed] tail']


def test_scan_resumes_after_a_discarded_in_code_self_closing_shortcode() -> None:
    # The same rule in the self-closing scan: the opener in code reaches the "/]" outside it.
    text = '`[embed a` [embed ref="b" /]'
    result = extract_embeds(text)
    assert result.text == text
    assert result.previews == []


def test_self_closing_outside_a_discarded_in_code_block_is_still_found() -> None:
    # The two scans are independent: the block scan's quirk does not hide self-closing ones.
    text = '`[embed x]` [embed ref="a" /] [/embed]'
    result = extract_embeds(text)
    assert result.text == "`[embed x]`  [/embed]"
    assert view_ids(result) == ["a"]


# --------------------------------------------------------------------------- §3 code


@pytest.mark.parametrize(
    ("text", "out", "refs"),
    [
        ('`[embed ref="x" /]` now', '`[embed ref="x" /]` now', []),
        (
            '```\n[embed ref="x" /]\n```\n[embed ref="y" /]',
            '```\n[embed ref="x" /]\n```\n',
            ["y"],
        ),
        ('    [embed ref="x" /]', '    [embed ref="x" /]', []),
        ('Para\n    [embed ref="x" /]', "Para\n    ", ["x"]),
        ('Use `[embed ref="cv_ic" /]` to embed', 'Use `[embed ref="cv_ic" /]` to embed', []),
        ('Intro\n```\n[embed ref="cv_u" /]', 'Intro\n```\n[embed ref="cv_u" /]', []),
        ('~~~\n[embed ref="x" /]\n~~~', '~~~\n[embed ref="x" /]\n~~~', []),
        ('> ```\n> [embed ref="x" /]\n> ```', '> ```\n> [embed ref="x" /]\n> ```', []),
        ('- item\n\n      [embed ref="x" /]', '- item\n\n      [embed ref="x" /]', []),
    ],
)
def test_code_protection(text: str, out: str, refs: list[str]) -> None:
    result = extract_embeds(text)
    assert result.text == out
    assert view_ids(result) == refs


def test_only_the_start_is_tested_against_code() -> None:
    # The block starts outside code; a code span inside its body does not protect it.
    result = extract_embeds('[embed ref="a"] `code` [/embed]!')
    assert result.text == "!"
    assert view_ids(result) == ["a"]


# --------------------------------------------------------------------------- §4 overlaps


def test_inner_self_closing_inside_a_block_is_ignored() -> None:
    text = '[embed ref="a"][embed ref="b" /][/embed]'
    result = extract_embeds(text)
    assert result.text == ""
    assert view_ids(result) == ["a"]
    assert spanned(text, result, "embed.overlap_ignored") == ['[embed ref="b" /]']


def test_inner_shortcode_of_a_kept_block_stays_text() -> None:
    text = '[embed title="t"][embed ref="b" /][/embed] end'
    result = extract_embeds(text)
    assert result.text == text
    assert result.previews == []


# --------------------------------------------------------------------------- §5 attributes


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ('ref="x"', {"ref": "x"}),
        ("ref='x'", {"ref": "x"}),
        ('REF="x"', {"ref": "x"}),
        ('ref = "x"', {"ref": "x"}),
        ('ref\n=\n"x"', {"ref": "x"}),
        ('ref="  x \t"', {"ref": "x"}),
        ('ref="\u00a0x\ufeff"', {"ref": "x"}),  # JS trim
        ('ref="\x85x"', {"ref": "\x85x"}),  # not JS whitespace: kept
        ('1ref="x"', {"ref": "x"}),
        ('xref="x"', {"xref": "x"}),
        ('data-url="u"', {"data-url": "u"}),
        ('please ref="x"', {"ref": "x"}),
        ('ref="x" ref="y"', {"ref": "y"}),
        ('ref="x" ref=""', {"ref": "x"}),
        ('ref="x" ref="   "', {"ref": "x"}),
        ("ref=cv_1", {}),
        ("height=400", {}),
        ('title="Say \\"hi\\""', {"title": "Say \\"}),
        ("title='it\"s'", {"title": 'it"s'}),
        ('title="It\'s fine"', {"title": "It's fine"}),
        ('a=b="x"', {"b": "x"}),
        ("a=\"x b='y'", {"b": "y"}),  # an unterminated quote starts no pair
        ('é="x" xé="y"', {}),
        ('_a="x" a_-9="y"', {"_a": "x", "a_-9": "y"}),
    ],
)
def test_attribute_pairs(attrs: str, expected: dict[str, str]) -> None:
    opener = parse_opener(f"[embed {attrs} /]")
    final: dict[str, str] = {}
    for a in opener.attributes:
        if a.value:
            final[a.name] = a.value
    assert final == expected


def test_a_bracket_inside_quotes_ends_the_opener() -> None:
    text = '[embed ref="x" title="a]b" /]'
    result = extract_embeds(text)
    assert result.text == text
    assert result.previews == []


def test_opener_grammar_forms() -> None:
    assert parse_opener('[embed ref="x" /]').self_closing
    assert not parse_opener('[embed ref="x"]').self_closing
    assert not parse_opener('[embed ref="x"/ ]').self_closing
    assert parse_opener("[embed\n/]").attributes == ()


# --------------------------------------------------------------------------- §6 previews


def preview_of(attrs: str) -> dict[str, Any] | None:
    result = extract_embeds(f"[embed {attrs} /]")
    if not result.previews:
        assert result.text == f"[embed {attrs} /]"
        return None
    assert result.text == ""
    return result.previews[0].to_wire()


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        (
            'ref="cv_123" title="Status"',
            {"url": doc_url("cv_123"), "viewId": "cv_123", "title": "Status"},
        ),
        ('url="https://b.com"', {"url": "https://b.com"}),
        ('url="  https://b.com  "', {"url": "https://b.com"}),
        ('ref="cv_a" url="/x"', {"url": "/x", "viewId": "cv_a"}),
        ('ref="cv 1"', {"url": doc_url("cv%201"), "viewId": "cv 1"}),
        ('ref="../etc/passwd"', {"url": doc_url("..%2Fetc%2Fpasswd"), "viewId": "../etc/passwd"}),
        ('ref="é"', {"url": doc_url("%C3%A9"), "viewId": "é"}),
        ('ref="a!~*\'()"', {"url": doc_url("a!~*'()"), "viewId": "a!~*'()"}),
        ('ref="😀"', {"url": doc_url("%F0%9F%98%80"), "viewId": "😀"}),
        ('ref="x" target="assistant_message"', {"url": doc_url("x"), "viewId": "x"}),
        ('ref="x" target="tool_card"', None),
        ('ref="x" target="ASSISTANT_MESSAGE"', None),
        ('ref="x" target=""', {"url": doc_url("x"), "viewId": "x"}),
        ('title="No source"', None),
        ('ref=""', None),
        (
            'ref="x" class="a" class_name="b"',
            {"url": doc_url("x"), "viewId": "x", "className": "a"},
        ),
        ('ref="x" class_name="b"', {"url": doc_url("x"), "viewId": "x", "className": "b"}),
        (
            'ref="x" style="height: 1px"',
            {"url": doc_url("x"), "viewId": "x", "style": "height: 1px"},
        ),
        (
            'ref="x" width="600" content_type="html" preferredHeight="400" '
            'preferred_height="500" onclick="alert(1)"',
            {"url": doc_url("x"), "viewId": "x"},
        ),
        ('url="javascript:alert(1)"', {"url": "javascript:alert(1)"}),
        ('url="file:///tmp/snake.html"', {"url": "file:///tmp/snake.html"}),
        ('ref="x" title="  "', {"url": doc_url("x"), "viewId": "x"}),
    ],
)
def test_preview_construction(attrs: str, expected: dict[str, Any] | None) -> None:
    if expected is not None:
        expected = {"kind": "canvas", "surface": "assistant_message", "render": "url", **expected}
    assert preview_of(attrs) == expected


def test_preview_keys_are_in_the_specified_order() -> None:
    result = extract_embeds('[embed style="s" class="c" height="300" title="t" ref="r" url="/u" /]')
    assert list(result.previews[0].to_wire()) == [
        "kind",
        "surface",
        "render",
        "url",
        "viewId",
        "title",
        "preferredHeight",
        "className",
        "style",
    ]


def test_lone_surrogate_ref_keeps_the_shortcode_as_text() -> None:
    text = '[embed ref="\ud800" /] after'
    result = extract_embeds(text)
    assert result.text == text
    assert result.previews == []
    assert spanned(text, result, "embed.bad_ref") == ['ref="\ud800"']


def test_lone_surrogate_ref_with_url_still_renders() -> None:
    # The reference only encodes ref when url is absent, so nothing throws there.
    result = extract_embeds('[embed ref="\ud800" url="/__openclaw__/canvas/x" /]')
    assert result.text == ""
    assert [(p.url, p.view_id) for p in result.previews] == [("/__openclaw__/canvas/x", "\ud800")]


def test_surrogate_pair_spelled_as_two_code_points_encodes_as_one_character() -> None:
    assert encode_uri_component("\ud83d\ude00") == "%F0%9F%98%80"
    with pytest.raises(ValueError):
        encode_uri_component("a\udc00")


# --------------------------------------------------------------------------- §6.2 heights


@pytest.mark.parametrize(
    ("height", "expected"),
    [
        ("90", None),
        ("-500", None),
        ("400px", None),
        ("Infinity", None),
        ("-Infinity", None),
        ("1_000", None),
        ("-0x10", None),
        ("", None),
        ("tall", None),
        ("NaN", None),
        ("inf", None),
        ("1e400", None),
        ("0x" + "f" * 300, None),  # beyond a double: Infinity
        ("4 00", None),
        ("159.99", None),
        ("160", 160),
        ("320.7", 320),
        ("+400", 400),
        (" 400 ", 400),
        (".5e3", 500),
        ("0x200", 512),
        ("0X200", 512),
        ("0o777", 511),
        ("0b11111111", 255),
        ("0B11111111", 255),
        ("1e3", 1000),
        ("1E3", 1000),
        ("400.", 400),
        ("0400", 400),
        ("1200.9", 1200),
        ("5000", 1200),
        ("0x" + "f" * 200, 1200),
    ],
)
def test_height(height: str, expected: int | None) -> None:
    result = extract_embeds(f'[embed ref="h" height="{height}" /]')
    assert [p.preferred_height for p in result.previews] == [expected]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", 0.0),
        ("  12  ", 12.0),
        ("-0", -0.0),
        ("0x", math.nan),
        ("0b2", math.nan),
        ("+0x10", math.nan),
        ("1e", math.nan),
        (".", math.nan),
        ("e3", math.nan),
        ("0.1", 0.1),
        ("Infinity", math.inf),
        ("+Infinity", math.inf),
        ("infinity", math.nan),
    ],
)
def test_js_number(value: str, expected: float) -> None:
    got = js_number(value)
    if math.isnan(expected):
        assert math.isnan(got)
    else:
        assert got == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(159.999, None), (160.0, 160), (-1e9, None), (math.inf, None), (math.nan, None), (1e9, 1200)],
)
def test_normalize_preferred_height(value: float, expected: int | None) -> None:
    assert normalize_preferred_height(value) == expected


# --------------------------------------------------------------------------- §7 removal


@pytest.mark.parametrize(
    ("text", "out", "urls"),
    [
        ('see [embed url="https://b.com" /] end', "see  end", ["https://b.com"]),
        ('before [embed ref="doc1"] hi [/embed] after', "before  after", [doc_url("doc1")]),
        ('[embed url="https://a.com" /] keep me [/embed]', " keep me [/embed]", ["https://a.com"]),
        ('  [embed ref="x" /]  ', "    ", [doc_url("x")]),
        ('A\n\n\n\n[embed ref="x" /]\n\n\n\nB  ', "A" + "\n" * 8 + "B  ", [doc_url("x")]),
        ('[embed ref="a"] body [[reply_to:x]] [/EMBED] tail', " tail", [doc_url("a")]),
        ('[embed ref="a"] no close', '[embed ref="a"] no close', []),
        ('[embed ref="a" /][embed ref="b" /]', "", [doc_url("a"), doc_url("b")]),
        (
            '[embed content_type="html"]<div>x</div>[/embed]',
            '[embed content_type="html"]<div>x</div>[/embed]',
            [],
        ),
        ('Hi\r\n[embed ref="x" /]\r\nBye', "Hi\r\n\r\nBye", [doc_url("x")]),
        ('[view ref="x" /]', '[view ref="x" /]', []),
        ("[view]x[/view]", "[view]x[/view]", []),
        ('{"kind":"present_view"}', '{"kind":"present_view"}', []),
    ],
)
def test_text_removal(text: str, out: str, urls: list[str]) -> None:
    result = extract_embeds(text)
    assert result.text == out
    assert [p.url for p in result.previews] == urls
    assert rebuild(result) == text


def test_spans_and_edits_cover_exactly_the_removed_shortcodes() -> None:
    text = 'a [embed ref="x" /] b [embed title="t" /] c [embed url="/u"]z[/embed]'
    result = extract_embeds(text)
    assert [(s.kind, text[s.start : s.end], s.value) for s in result.spans] == [
        ("embed", '[embed ref="x" /]', "x"),
        ("embed", '[embed url="/u"]z[/embed]', "/u"),
    ]
    assert [(e.removed, e.inserted) for e in result.edits] == [
        ('[embed ref="x" /]', ""),
        ('[embed url="/u"]z[/embed]', ""),
    ]


def test_touching_shortcodes_become_one_edit() -> None:
    text = '[embed ref="a" /][embed ref="b" /]!'
    result = extract_embeds(text)
    assert [(e.start, e.end) for e in result.edits] == [(0, 34)]
    assert rebuild(result) == text


# --------------------------------------------------------------------------- §8 canvas block


def test_stored_block_shape() -> None:
    result = extract_embeds('[embed ref="cv_123" title="Status" height="320" /]')
    block = CanvasBlock(preview=result.previews[0])
    assert block.to_wire() == {
        "type": "canvas",
        "preview": {
            "kind": "canvas",
            "surface": "assistant_message",
            "render": "url",
            "viewId": "cv_123",
            "url": "/__openclaw__/canvas/documents/cv_123/index.html",
            "title": "Status",
            "preferredHeight": 320,
        },
    }


def stored(**preview: Any) -> dict[str, Any]:
    return {"type": "canvas", "preview": {"kind": "canvas", "render": "url", **preview}}


@pytest.mark.parametrize(
    ("obj", "expected_preview"),
    [
        (stored(url="/u"), {"url": "/u"}),
        (stored(url="/u", surface="assistant_message"), {"url": "/u"}),
        (stored(url="/u", surface="elsewhere"), {"url": "/u"}),
        (
            stored(url="/u", viewId="v", title="t", className="c", style="s", preferredHeight=320),
            {
                "url": "/u",
                "viewId": "v",
                "title": "t",
                "className": "c",
                "style": "s",
                "preferredHeight": 320,
            },
        ),
        (stored(url="/u", title=5, viewId=None, className=["x"], style={}), {"url": "/u"}),
        (stored(url="/u", title=""), {"url": "/u", "title": ""}),
        (stored(url="/u", preferredHeight=90), {"url": "/u"}),
        (stored(url="/u", preferredHeight=320.9), {"url": "/u", "preferredHeight": 320}),
        (stored(url="/u", preferredHeight=5000), {"url": "/u", "preferredHeight": 1200}),
        (stored(url="/u", preferredHeight=10**400), {"url": "/u"}),
        (stored(url="/u", preferredHeight=math.inf), {"url": "/u"}),
        (stored(url="/u", preferredHeight=math.nan), {"url": "/u"}),
        (stored(url="/u", preferredHeight=True), {"url": "/u"}),
        (stored(url="/u", preferredHeight="320"), {"url": "/u"}),
        (stored(url="/u", sandbox="strict", rawText="x"), {"url": "/u"}),
        ({**stored(url="/u"), "rawText": "[embed ...]"}, {"url": "/u"}),
    ],
)
def test_reading_stored_blocks(obj: Any, expected_preview: dict[str, Any]) -> None:
    block = CanvasBlock.from_json(obj)
    assert block.to_wire() == {
        "type": "canvas",
        "preview": {
            "kind": "canvas",
            "surface": "assistant_message",
            "render": "url",
            **expected_preview,
        },
    }
    assert canvas_block_from_json(block.to_wire()) == block


@pytest.mark.parametrize(
    "obj",
    [
        None,
        "canvas",
        [],
        {"preview": stored(url="/u")["preview"]},
        {"type": "Canvas", "preview": stored(url="/u")["preview"]},
        {"type": "canvas"},
        {"type": "canvas", "preview": "x"},
        {"type": "canvas", "preview": {"kind": "canvas", "url": "/u"}},
        {"type": "canvas", "preview": {"render": "url", "url": "/u"}},
        {"type": "canvas", "preview": {"kind": "present_view", "render": "url", "url": "/u"}},
        stored(url="/u", surface="tool_card"),
        stored(),
        stored(url=5),
        stored(url=None),
    ],
)
def test_rejected_stored_blocks_raise(obj: Any) -> None:
    with pytest.raises(InvalidInput):
        CanvasBlock.from_json(obj)


# --------------------------------------------------------------------------- §13 diagnostics


@pytest.mark.parametrize(
    ("text", "code", "severity", "span"),
    [
        ('[embed title="x" /]', "embed.missing_source", "error", '[embed title="x" /]'),
        (
            '[embed content_type="html"]<div/>[/embed]',
            "embed.missing_source",
            "error",
            '[embed content_type="html"]<div/>[/embed]',
        ),
        ('[embed ref="x" target="tool_card" /]', "embed.bad_target", "error", 'target="tool_card"'),
        ('[embed ref="\ud800" /]', "embed.bad_ref", "error", 'ref="\ud800"'),
        ('`[embed ref="x" /]`', "embed.in_code", "info", '[embed ref="x" /]'),
        (
            '[embed ref="a"] no close\nnext',
            "embed.unmatched",
            "warning",
            '[embed ref="a"] no close',
        ),
        ('[embed ref="a"', "embed.unmatched", "warning", '[embed ref="a"'),
        (
            '[embed title="a]b" ref="x" /]',
            "embed.unmatched",
            "warning",
            '[embed title="a]b" ref="x" /]',
        ),
        (
            '[embed ref="a"][embed ref="b" /][/embed]',
            "embed.overlap_ignored",
            "warning",
            '[embed ref="b" /]',
        ),
        ('[embed ref="a"] hi [/embed]', "embed.body_discarded", "info", " hi "),
        (
            '[embed ref="a"] [[reply_to:x]] [/embed]',
            "embed.directive_in_body",
            "warning",
            " [[reply_to:x]] ",
        ),
        (
            '[embed ref="a"]\nMEDIA:/srv/a.png\n[/embed]',
            "embed.directive_in_body",
            "warning",
            "\nMEDIA:/srv/a.png\n",
        ),
        ('[embed ref=cv_1 url="/u" /]', "embed.unquoted_attribute", "warning", "ref=cv_1"),
        (
            '[embed ref="x" title="Say \\"hi\\"" /]',
            "embed.escaped_quote",
            "warning",
            'title="Say \\"',
        ),
        ('[embed ref="x" ref="y" /]', "embed.duplicate_attribute", "info", 'ref="x"'),
        ('[embed ref="x" width="600" /]', "embed.unknown_attribute", "info", 'width="600"'),
        ('[embed ref="x" onload="go()" /]', "embed.unknown_attribute", "warning", 'onload="go()"'),
        ('[embed ref="x" height="400px" /]', "embed.height_ignored", "warning", 'height="400px"'),
        ('[embed ref="x" height="90" /]', "embed.height_ignored", "warning", 'height="90"'),
        ('[embed ref="x" height="5000" /]', "embed.height_clamped", "warning", 'height="5000"'),
        ('[embed ref="x" height="320.7" /]', "embed.height_truncated", "info", 'height="320.7"'),
        (
            '[embed url="javascript:alert(1)" /]',
            "embed.unsafe_url",
            "error",
            'url="javascript:alert(1)"',
        ),
        ('[embed url="data:text/html,x" /]', "embed.unsafe_url", "error", 'url="data:text/html,x"'),
        ('[embed url="VBScript:x" /]', "embed.unsafe_url", "error", 'url="VBScript:x"'),
        ('[embed url="file:///etc/x" /]', "embed.unsafe_url", "error", 'url="file:///etc/x"'),
        (
            '[embed url="https://example.com/app" /]',
            "embed.external_url",
            "info",
            'url="https://example.com/app"',
        ),
        (
            '[embed url="//example.com/app" /]',
            "embed.external_url",
            "info",
            'url="//example.com/app"',
        ),
        (
            '[embed url="reports/x.html" /]',
            "embed.url_not_renderable",
            "warning",
            'url="reports/x.html"',
        ),
        ('[embed url="/other/x" /]', "embed.url_not_renderable", "warning", 'url="/other/x"'),
        ('[embed url="mailto:a@b" /]', "embed.url_not_renderable", "warning", 'url="mailto:a@b"'),
        (
            '[embed url="/__openclaw__/canvas/../x" /]',
            "embed.url_not_renderable",
            "warning",
            'url="/__openclaw__/canvas/../x"',
        ),
        ('[embed url="http://[bad" /]', "embed.url_not_renderable", "warning", 'url="http://[bad"'),
        (
            '[embed ref="../etc/passwd" /]',
            "embed.ref_not_document_id",
            "warning",
            'ref="../etc/passwd"',
        ),
        ('[view ref="x" /] after', "embed.legacy_view", "warning", '[view ref="x" /]'),
        ("[VIEW]x[/view]", "embed.legacy_view", "warning", "[VIEW]"),
        ("[view ref=x\nmore]", "embed.legacy_view", "warning", "[view ref=x"),
        ("call present_view(id) now", "embed.present_view", "info", "present_view"),
    ],
)
def test_diagnostics(text: str, code: str, severity: str, span: str) -> None:
    before = extract_embeds(text)
    found = [d for d in before.diagnostics if d.code == code]
    assert len(found) == 1, [d.code for d in before.diagnostics]
    d = found[0]
    assert d.severity == severity
    assert d.start is not None and d.end is not None
    assert text[d.start : d.end] == span
    assert d.line is not None and d.column is not None
    assert d.message


@pytest.mark.parametrize(
    "text",
    [
        '[embed ref="cv_1" /]',
        '[embed url="/__openclaw__/canvas/x/index.html?a=1#h" /]',
        '[embed url="/__openclaw__/a2ui" /]',
        '[embed url="http://localhost/__openclaw__/canvas/x" /]',
        '[embed ref="x" height="160" /]',
        '[embed ref="x" height="1200.0" /]',
        '[embed ref="x"]   \n  [/embed]',
        "[viewer] [views] present_views mypresent_view",
        '`[view x]` `present_view`\n```\n[embed ref="x" /]\n```',
        "[embed] [embed/]",
    ],
)
def test_clean_inputs_have_no_warnings_or_errors(text: str) -> None:
    result = extract_embeds(text)
    assert [d.code for d in result.diagnostics if d.code != "embed.in_code"] == []


def test_unquoted_values_start_right_after_the_equals_sign() -> None:
    text = '[embed d= ref=cv_1 e =f url="/u" /]'
    assert spanned(text, extract_embeds(text), "embed.unquoted_attribute") == ["ref=cv_1", "e =f"]


def test_diagnostics_never_change_outputs() -> None:
    text = '[embed ref="x" ref="y" onload="z" height="5000" url="javascript:1" /] tail'
    result = extract_embeds(text)
    assert result.text == " tail"
    assert [p.to_wire() for p in result.previews] == [
        {
            "kind": "canvas",
            "surface": "assistant_message",
            "render": "url",
            "url": "javascript:1",
            "viewId": "y",
            "preferredHeight": 1200,
        }
    ]
    assert {
        "embed.duplicate_attribute",
        "embed.unknown_attribute",
        "embed.height_clamped",
        "embed.unsafe_url",
    } <= set(codes(result))


def test_constructs_inside_removed_text_are_not_reported_again() -> None:
    text = '[embed ref="a"] `[embed ref="b" /]` [view x] [/embed]'
    result = extract_embeds(text)
    assert result.text == ""
    assert "embed.in_code" not in codes(result)
    assert "embed.legacy_view" not in codes(result)


def test_openers_inside_a_handled_shortcode_are_not_unmatched() -> None:
    result = extract_embeds('[embed title="[embed x" /]')
    assert "embed.unmatched" not in codes(result)
    assert "embed.missing_source" in codes(result)


def test_diagnostic_lines_and_columns() -> None:
    text = 'one\ntwo [embed ref="x" width="1" /]'
    d = next(d for d in extract_embeds(text).diagnostics if d.code == "embed.unknown_attribute")
    assert (d.line, d.column) == (2, 20)


def test_delivery_diagnostics_name_each_renderable_shortcode() -> None:
    text = 'A [embed ref="x" /] B [embed title="t" /] `[embed ref="y" /]` [embed url="/u"]b[/embed]'
    found = embeds_for_delivery_diagnostics(text)
    assert [(d.code, d.severity, text[d.start or 0 : d.end or 0]) for d in found] == [
        ("embed.not_rendered_on_delivery", "info", '[embed ref="x" /]'),
        ("embed.not_rendered_on_delivery", "info", '[embed url="/u"]b[/embed]'),
    ]
    assert embeds_for_delivery_diagnostics("plain") == []


# --------------------------------------------------------------------------- hostile input


HOSTILE = {
    "nul": 'a\x00[embed ref="x\x00" /]\x00',
    "binary": "".join(chr(i) for i in range(256)) + '[embed ref="b" /]',
    "lone_surrogates": '\ud800[embed ref="x" title="\udfff" /]\udc00',
    "crlf": 'Hi\r\n[embed\r\nref="x"\r\n/]\r\n',
    "u2028": '[embed\u2028ref="x"\u2029/]\u2028tail',
    "openers_no_bracket": "[embed " * 20000,
    "openers_one_bracket": "[embed " * 20000 + "]",
    "openers_self_closing": '[embed ref="x" /]' * 20000,
    "blocks_without_closer": "[embed x]" * 20000,
    "closers_only": "[/embed]" * 20000,
    "huge_attribute": "[embed " + 'a="' * 20000 + " /]",
    "unquoted_chain": "[embed " + "a=" * 20000 + 'x ref="r" /]',
    "huge_body": '[embed ref="x"]' + "b" * 200000 + "[/embed]",
    "nested_blocks": '[embed ref="a"]' * 5000 + "[/embed]" * 5000,
    "views": "[view " * 20000,
    "code_spans": "`[embed x]` " * 5000 + '[embed ref="a" /]',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs_get_a_result_and_lose_nothing(name: str) -> None:
    text = HOSTILE[name]
    result = extract_embeds(text)
    assert rebuild(result) == text
    removed = "".join(text[s.start : s.end] for s in result.spans)
    assert len(result.text) + len(removed) == len(text)


def test_hostile_results_are_the_expected_ones() -> None:
    assert extract_embeds(HOSTILE["openers_no_bracket"]).previews == []
    assert len(extract_embeds(HOSTILE["openers_self_closing"]).previews) == 20000
    assert extract_embeds(HOSTILE["openers_self_closing"]).text == ""
    nested = extract_embeds(HOSTILE["nested_blocks"])
    assert view_ids(nested) == ["a"]
    assert nested.text == "[/embed]" * 4999
    code = extract_embeds(HOSTILE["code_spans"])
    assert code.text == "`[embed x]` " * 5000
    assert CodeMap(HOSTILE["code_spans"]).in_code(1)


@pytest.mark.parametrize(
    "value",
    ["cv_123", "A-z.0_9!~*'()", "", "a b", "a/b", "é", "a%20", "a+b", "[x]", "\x7f", "a\u00a0"],
)
def test_a_reference_with_nothing_to_encode_is_kept_as_encodeuricomponent_keeps_it(
    value: str,
) -> None:
    """The short way for unreserved characters gives what quote gives, and only for them."""
    from urllib.parse import quote

    assert encode_uri_component(value) == quote(value, safe="!~*'()")


@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=30))
def test_encoding_a_reference_is_quote_with_the_javascript_safe_set(value: str) -> None:
    from urllib.parse import quote

    assert encode_uri_component(value) == quote(value, safe="!~*'()")
