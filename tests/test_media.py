"""split_media against every example table of MEDIA.md (§3-§16) and the reference's quirks."""

from __future__ import annotations

from typing import Any

import pytest

from richout.lossless import rebuild
from richout.media import split_media
from richout.models import MediaSplit

ABSENT = object()


def wire(r: MediaSplit) -> dict[str, Any]:
    """The compared wire fields only (no diagnostics/spans/edits)."""
    w = r.to_wire()
    return {k: w[k] for k in ("text", "mediaUrls", "audioAsVoice", "segments") if k in w}


def t(s: str) -> dict[str, str]:
    return {"type": "text", "text": s}


def m(u: str) -> dict[str, str]:
    return {"type": "media", "url": u}


def check(text: str, expected: dict[str, Any], **opts: Any) -> MediaSplit:
    r = split_media(text, **opts)
    got = wire(r)
    for key, value in expected.items():
        if value is ABSENT:
            assert key not in got, (text, key, got)
        else:
            assert got.get(key) == value, (text, key, got)
    assert rebuild(r) == text
    return r


# ---------------------------------------------------------------- §3 pipeline

PIPELINE = [
    ("Hi there", "Hi there", ABSENT, ABSENT),
    ("   ", "", ABSENT, ABSENT),
    (
        "MEDIA:http://example.com/a.png  x",
        "MEDIA:http://example.com/a.png  x",
        ABSENT,
        [t("MEDIA:http://example.com/a.png  x")],
    ),
    ("MEDIA:~", "", ABSENT, []),
    ("MEDIA : https://example.com/a.png", "MEDIA : https://example.com/a.png", ABSENT, ABSENT),
    ("Hi there  \n\n", "Hi there", ABSENT, ABSENT),
]


@pytest.mark.parametrize(("text", "out", "urls", "segments"), PIPELINE)
def test_pipeline_table(text: str, out: str, urls: Any, segments: Any) -> None:
    check(text, {"text": out, "mediaUrls": urls, "segments": segments})


def test_empty_and_whitespace_only_inputs_have_no_segments() -> None:
    for text in ("", "\n\n", "\u2028\u3000\ufeff"):
        r = split_media(text)
        assert wire(r) == {"text": ""}
        assert rebuild(r) == text


def test_fast_path_triggers_are_exact() -> None:
    # No trigger: text only, no segments. "MEDİA:" (U+0130) is not ASCII case-insensitive.
    for text in ("Hello", "MEDİA:/srv/a.png", "media :x", "![a](https://example.com/a.png)"):
        assert "segments" not in wire(split_media(text)), text
    # Any trigger leaves the fast path, even when nothing is extracted.
    for text in ("a media: b", "x [[y", "see MeDiA:"):
        assert wire(split_media(text))["segments"] == [t(text)], text
    img = "![a](http://example.com/a.png)"
    assert wire(split_media(img, extract_markdown_images=True))["segments"] == [t(img)]


# ---------------------------------------------------------------- §4 code blocks

CODE = [
    ("```\nMEDIA:/srv/a.png\n```", False),
    ("x\n```\nMEDIA:/srv/a.png", False),
    ("Para\n\n    MEDIA:/srv/a.png", False),
    ("Caption\n    MEDIA:/srv/a.png", True),
    ("# Heading\n    MEDIA:/srv/a.png", False),
    ("Para\n\n  \tMEDIA:/srv/a.png", False),
    ("- item\n\n    MEDIA:/srv/a.png", True),
    ("- ```\n  MEDIA:/srv/a.png\n  ```", False),
    ("~~~\nMEDIA:/srv/a.png\n```\n", False),
    ("```\nMEDIA:/srv/a.png\n`````\nMEDIA:/srv/b.png", True),
    ("```a`b\nMEDIA:/srv/a.png\n```", True),
    ("Para\n    ```\nMEDIA:/srv/a.png\n", True),
    ("> ```\n> x\nMEDIA:/srv/a.png", True),
]


@pytest.mark.parametrize(("text", "directive"), CODE)
def test_code_block_table(text: str, directive: bool) -> None:
    r = check(text, {})
    assert bool(r.media_urls) == directive, r
    if not directive:
        assert r.text == text.rstrip()
        assert any(d.code == "media.in_code_block" for d in r.diagnostics)


def test_html_and_inline_code_are_not_code_blocks() -> None:
    check(
        "<pre>\nMEDIA:https://example.com/a.png\n</pre>",
        {"text": "<pre>\n</pre>", "mediaUrls": ["https://example.com/a.png"]},
    )
    check(
        "``\nMEDIA:https://example.com/a.png\n``",
        {"text": "``\n``", "mediaUrls": ["https://example.com/a.png"]},
    )


def test_indented_paragraph_continuation_is_kept_byte_for_byte() -> None:
    check("Caption\n    more   words\nMEDIA:/a.png", {"text": "Caption\n    more   words"})


# ---------------------------------------------------------------- §5 directive test

DIRECTIVE = [
    ("MEDIA:/srv/a.png", True),
    ("   media:/srv/a.png", True),
    ("\u00a0MEDIA:/srv/a.png", True),
    ("The MEDIA: tag is used for /srv/a.png", False),
    ("Here is your image: MEDIA:/srv/a.png", False),
    ("**MEDIA:/srv/a.png**", False),
    ("`MEDIA:/srv/a.png`", False),
    ("_MEDIA:x_", False),
    ("\\MEDIA:x", False),
    ("- MEDIA:/srv/a.png", False),
    ("1. MEDIA:/srv/a.png", False),
    ("- [ ] MEDIA:/srv/a.png", False),
    ("> MEDIA:/srv/a.png", False),
    ("| MEDIA:/srv/a.png |", False),
    ("[[audio_as_voice]] MEDIA:/srv/a.png", False),
    ("MEDIA : /srv/a.png", False),
    ("MEDIA:", False),
]


@pytest.mark.parametrize(("line", "directive"), DIRECTIVE)
def test_directive_table(line: str, directive: bool) -> None:
    r = check(line, {})
    assert bool(r.media_urls) == directive
    if directive:
        assert r.text == ""


def test_continuation_and_lazy_lines_are_directives() -> None:
    check("- item\n  MEDIA:/srv/a.png", {"text": "- item", "mediaUrls": ["/srv/a.png"]})
    check("> quote\nMEDIA:/srv/a.png", {"text": "> quote", "mediaUrls": ["/srv/a.png"]})


def test_dotless_i_spelling_passes_rule_one_only() -> None:
    check(
        "MEDıA:x MEDIA:/srv/a.png",
        {"text": "", "mediaUrls": ["/srv/a.png"], "segments": [t("MEDıA:x"), m("/srv/a.png")]},
    )
    # Rule 1 passes, rule 2 does not: the line is text and is not image-scanned.
    img = "MEDıA: ![a](https://example.com/a.png)"
    check(img, {"text": img, "mediaUrls": ABSENT}, extract_markdown_images=True)


def test_one_directive_per_line() -> None:
    check(
        "MEDIA:https://example.com/a.png MEDIA:https://example.com/b.png",
        {
            "text": "MEDIA:https://example.com/b.png",
            "mediaUrls": ["https://example.com/a.png"],
        },
    )


def test_whitespace_payload_is_kept_cleaned() -> None:
    check(
        "Hi\nMEDIA:   \nMEDIA:https://example.com/a.png",
        {"text": "Hi\nMEDIA:", "mediaUrls": ["https://example.com/a.png"]},
    )


def test_extraction_disabled() -> None:
    check(
        "Hi\nMEDIA:/srv/a.png",
        {"text": "Hi\nMEDIA:/srv/a.png", "mediaUrls": ABSENT, "segments": ABSENT},
        extract_media_directives=False,
    )
    # With a tag the slow path runs, still without extracting.
    check(
        "MEDIA:/srv/a.png [[audio_as_voice]]",
        {"text": "MEDIA:/srv/a.png", "audioAsVoice": True, "mediaUrls": ABSENT},
        extract_media_directives=False,
    )


# ---------------------------------------------------------------- §6 payloads

PAYLOADS = [
    ('"https://example.com/v.mp4?token=ends,"', ["https://example.com/v.mp4?token=ends,"], ""),
    (
        '"/srv/first image.png" "/srv/second image.png"',
        ["/srv/first image.png", "/srv/second image.png"],
        "",
    ),
    (
        '"https://example.com/v.mp4?token=ends"""',
        ['https://example.com/v.mp4?token=ends""'],
        "",
    ),
    ("image.png", ["image.png"], ""),
    ("render final.png", ["render final.png"], ""),
    ("a.png b.png", ["a.png b.png"], ""),
    ("image.png extra", [], None),
    ("'a.png' 'b.png'", ["a.png' 'b.png"], ""),
    ("/srv/a.png, /srv/b.png", ["/srv/a.png", "/srv/b.png"], ""),
    (
        "https://example.com/a.png and /srv/b.png",
        ["https://example.com/a.png", "/srv/b.png"],
        "and",
    ),
    ('"/srv/a b.png" trailing', ['/srv/a b.png" trailing'], ""),
    ("/srv/a.ogg [[audio_as_voice]]", ["/srv/a.ogg [[audio_as_voice"], ""),
    # §6.1 cleaning
    ('/srv/image.png"}],"details":{"x":1}', ["/srv/image.png"], ""),
    ('/srv/image.png\\"}],\\"details\\"', ["/srv/image.png"], ""),
    ('"/srv/a.png",', ["/srv/a.png"], ""),
    ('/srv/out.mp3{"results":[1]}', ['/srv/out.mp3{"results":[1'], ""),
    ("https://example.com/a.png);", ["https://example.com/a.png);"], ""),
    # §6.6 regrouping
    ("C:\\Users\\First Last\\shot.png", ["C:\\Users\\First Last\\shot.png"], ""),
    ("/srv/a.png /srv/b.png", ["/srv/a.png", "/srv/b.png"], ""),
    ("/srv/a.png media/b.png", ["/srv/a.png", "media/b.png"], ""),
    ("/srv/a.png trailing words", ["/srv/a.png trailing words"], ""),
    ("https://example.com/a b.png", ["https://example.com/a"], "b.png"),
    # §6.8 spaced-local rescue
    ("/srv/My Files/render final.png", ["/srv/My Files/render final.png"], ""),
    ("./a b/c.png x.png", ["./a b/c.png x.png"], ""),
]


@pytest.mark.parametrize(("payload", "urls", "remainder"), PAYLOADS)
def test_payload_table(payload: str, urls: list[str], remainder: str | None) -> None:
    text = f"A\nMEDIA:{payload}"
    r = check(text, {})
    assert r.media_urls == urls
    if remainder is None:
        assert r.text == text
    else:
        assert r.text == ("A\n" + remainder if remainder else "A")


def test_payload_lists_quoted_references_only_with_whitespace_between() -> None:
    # Touching quote pairs are one value.
    check('MEDIA:"/a b.png""/c.png"', {"mediaUrls": ['/a b.png""/c.png']})


def test_quoted_part_keeps_its_punctuation() -> None:
    check(
        'MEDIA:"https://example.com/a.png?x=1," "/srv/b c.png"',
        {"mediaUrls": ["https://example.com/a.png?x=1,", "/srv/b c.png"], "text": ""},
    )


def test_traversal_part_with_spaces_is_discarded_silently() -> None:
    r = check('MEDIA:/srv/a.png "../x y.png"', {"mediaUrls": ["/srv/a.png"], "text": ""})
    assert any(d.code == "media.local.traversal" for d in r.diagnostics)


def test_double_file_prefix_in_regrouping_and_validation() -> None:
    check("MEDIA:file:file:///srv/x.png", {"text": "", "mediaUrls": ABSENT, "segments": []})
    check("MEDIA:file:///srv/x.png", {"text": "", "mediaUrls": ["file:///srv/x.png"]})


def test_trailing_whitespace_defeats_the_bare_filename_fallback() -> None:
    check("MEDIA:image.png  \nmore", {"text": "MEDIA:image.png  \nmore", "mediaUrls": ABSENT})
    check("MEDIA:image.png\nmore", {"text": "more", "mediaUrls": ["image.png"]})


def test_over_long_quoted_reference_is_rejected_not_shortened() -> None:
    url = "https://example.com/" + "a" * 5000 + ".png"
    check(f'MEDIA:"{url}"', {"text": f'MEDIA:"{url}"', "mediaUrls": ABSENT})


def test_length_cap_counts_utf16_units() -> None:
    # 2047 astral characters are 4094 units (+ "/x" = 4096): accepted; one more is not.
    ok = "/" + "😀" * 2047 + "x"
    check(f"MEDIA:{ok}", {"mediaUrls": [ok]})
    bad = "/" + "😀" * 2048 + "x"
    check(f"MEDIA:{bad}", {"mediaUrls": ABSENT, "text": ""})


# ---------------------------------------------------------------- §7-§8 policy through the line

POLICY = [
    ("https://Example.COM/a.png", True),
    ("http://example.com/a.png", False),
    ("https://user@example.com/a.png", False),
    ("https://0x7f.1/a.png", False),
    ("https://printer/a.png", False),
    ("https://[::1]/a.png", False),
    ("https://[2001:4860:4860::8888]/a.png", False),
    ("https://127.0.0.1.nip.io/a.png", True),
    ("https://example.com\\@127.0.0.1/a.png", True),
    ("file:///srv/a.png", True),
    ("media://inbound/abc123", True),
    ("media://inbound:80/x", False),
    ("media://inbound/x/../y.png", True),
    ("Media://inbound/a.png", True),
    ("ftp://example.com/a.png", False),
    ("photo.jpeg.", False),
    ("/etc/passwd", True),
    ("~/a.png", True),
    ("\\\\server\\share\\a.png", True),
]


@pytest.mark.parametrize(("ref", "accepted"), POLICY)
def test_policy_through_split_media(ref: str, accepted: bool) -> None:
    r = check(f"MEDIA:{ref}", {})
    assert r.media_urls == ([ref] if accepted else [])


# ---------------------------------------------------------------- §9 outcomes

OUTCOMES = [
    (
        "MEDIA:https://example.com/a.png and /srv/b.png",
        "and",
        ["https://example.com/a.png", "/srv/b.png"],
    ),
    (
        "A\nMEDIA:https://example.com/a.png tail words",
        "A\ntail words",
        ["https://example.com/a.png"],
    ),
    ("x\nMEDIA:../x.png", "x", []),
    ("Hi\nMEDIA:   \nMEDIA:https://example.com/a.png", "Hi\nMEDIA:", ["https://example.com/a.png"]),
    (
        "MEDIA:http://example.com/a.png  x\nMEDIA:https://example.com/b.png",
        "MEDIA:http://example.com/a.png x",
        ["https://example.com/b.png"],
    ),
    ("MEDIA:https://[::1]/a.png", "MEDIA:https://[::1]/a.png", []),
    ("Intro   words\nMEDIA:~user/a.png", "Intro   words", []),
]


@pytest.mark.parametrize(("text", "out", "urls"), OUTCOMES)
def test_outcome_table(text: str, out: str, urls: list[str]) -> None:
    r = check(text, {"text": out})
    assert r.media_urls == urls


# ---------------------------------------------------------------- §10 visible text


def test_blank_lines_are_never_collapsed() -> None:
    check("Hi\n\n\nMEDIA:/x.png\n\n\nBye", {"text": "Hi\n\n\n\n\nBye"})


def test_cr_is_not_special() -> None:
    check(
        "Hi\r\nMEDIA:https://example.com/a.png\r\nBye",
        {"text": "Hi\r\nBye", "mediaUrls": ["https://example.com/a.png"]},
    )


def test_leading_blank_lines_are_removed_but_not_cr_lines() -> None:
    check("MEDIA:/a.png\n  \n\t\nHi", {"text": "Hi"})
    check("MEDIA:/a.png\n\r\nHi", {"text": "Hi"})  # the boundary step removes "\r\n"
    check("MEDIA:/a.png\n \r\nHi", {"text": " \r\nHi"})


def test_u2028_is_not_a_line_break() -> None:
    check(
        "MEDIA:/srv/a.png\u2028tail",
        {"mediaUrls": ["/srv/a.png\u2028tail"], "text": ""},
    )


# ---------------------------------------------------------------- §11 audio tag

AUDIO = [
    ("Hi [[audio_as_voice]]", {"text": "Hi", "mediaUrls": ABSENT, "audioAsVoice": True}),
    (
        "[[audio_as_voice]]\nMEDIA:/srv/a.ogg",
        {"text": "", "mediaUrls": ["/srv/a.ogg"], "audioAsVoice": True},
    ),
    (
        "[[audio_as_voice]] MEDIA:/srv/a.ogg",
        {"text": "MEDIA:/srv/a.ogg", "mediaUrls": ABSENT, "audioAsVoice": True},
    ),
    (
        "MEDIA:/srv/a.ogg [[audio_as_voice]]",
        {"text": "", "mediaUrls": ["/srv/a.ogg [[audio_as_voice"], "audioAsVoice": ABSENT},
    ),
    (
        "Hi [[reply_to_current]]",
        {"text": "Hi [[reply_to_current]]", "mediaUrls": ABSENT, "audioAsVoice": ABSENT},
    ),
]


@pytest.mark.parametrize(("text", "expected"), AUDIO)
def test_audio_table(text: str, expected: dict[str, Any]) -> None:
    check(text, expected)


def test_audio_extraction_disabled() -> None:
    check(
        "Hi [[audio_as_voice]]",
        {"text": "Hi [[audio_as_voice]]", "audioAsVoice": ABSENT},
        extract_audio_directives=False,
    )


# ---------------------------------------------------------------- §12 segments

SEGMENTS = [
    (
        "Caption\n\nMEDIA:/srv/a.png\n\nMore\nMEDIA:/srv/b.png",
        [t("Caption\n"), m("/srv/a.png"), t("More"), m("/srv/b.png")],
    ),
    ("MEDIA:/srv/a.png\n\nB", [m("/srv/a.png"), t("B")]),
    (
        "A\nMEDIA:/srv/a.png\n\nMEDIA:/srv/b.png\n\nB",
        [t("A\n"), m("/srv/a.png"), m("/srv/b.png"), t("B")],
    ),
    ("[[audio_as_voice]]\nMEDIA:/srv/a.ogg", [t("[[audio_as_voice]]"), m("/srv/a.ogg")]),
    (" One\nMEDIA:/srv/a.png", [t(" One"), m("/srv/a.png")]),
    ("A\n\n\nB\nMEDIA:/a.png", [t("A\n\n\nB"), m("/a.png")]),
    (
        "MEDIA:/a.png\nMEDIA:https://x.example/b.png tail",
        [m("/a.png"), m("https://x.example/b.png"), t("tail")],
    ),
]


@pytest.mark.parametrize(("text", "segments"), SEGMENTS)
def test_segment_table(text: str, segments: list[dict[str, str]]) -> None:
    check(text, {"segments": segments})


def test_segments_of_code_lines_are_raw() -> None:
    text = "```\nMEDIA:/a.png\n```\nMEDIA:/b.png"
    check(text, {"segments": [t("```\nMEDIA:/a.png\n```"), m("/b.png")]})


# ---------------------------------------------------------------- §13 images

IMAGES = [
    ("Look ![a](https://example.com/a.png) now", "Look now", ["https://example.com/a.png"]),
    ("> ![a](https://example.com/a.png)", ">", ["https://example.com/a.png"]),
    ("`![a](https://example.com/a.png)` x", "`![a](https://example.com/a.png)` x", []),
    ("![a](http://example.com/a.png)", "![a](http://example.com/a.png)", []),
    ("![a](/srv/a.png)", "![a](/srv/a.png)", []),
    ("![a][ref]\n\n[ref]: https://example.com/a.png", None, []),
    (
        "![a ![b](https://e.example/b.png)](https://e.example/a.png)",
        "",
        ["https://e.example/a.png"],
    ),
    (
        "[![a](https://e.example/a.png)](https://e.example/)",
        "[](https://e.example/)",
        ["https://e.example/a.png"],
    ),
]


@pytest.mark.parametrize(("text", "out", "urls"), IMAGES)
def test_image_table(text: str, out: str | None, urls: list[str]) -> None:
    r = check(text, {}, extract_markdown_images=True)
    assert r.media_urls == urls
    assert r.text == (text if out is None else out)


def test_image_allowlist_returns_the_entry_spelling() -> None:
    check(
        "Look ![a](/srv/a.png) now",
        {"text": "Look now", "mediaUrls": ["file:///srv/a.png"]},
        markdown_image_allowlist=["file:///srv/a.png"],
    )
    # A later duplicate entry wins; the remote policy is not applied.
    check(
        "![a](http://example.com/a.png)",
        {"mediaUrls": ["file:http://example.com/a.png"]},
        markdown_image_allowlist=["http://example.com/a.png", "file:http://example.com/a.png"],
    )
    # An empty allowlist turns extraction on and lifts nothing.
    check(
        "![a](https://example.com/a.png)",
        {
            "text": "![a](https://example.com/a.png)",
            "segments": [t("![a](https://example.com/a.png)")],
        },
        markdown_image_allowlist=[],
    )


def test_image_line_limits() -> None:
    many = " ".join(f"![i](https://e.example/{i}.png)" for i in range(60))
    r = check(many, {}, extract_markdown_images=True)
    assert len(r.media_urls) == 50
    long_line = "x" * 20_001 + " ![a](https://e.example/a.png)"
    r = check(long_line, {"text": long_line}, extract_markdown_images=True)
    assert r.media_urls == []


def test_image_segments_and_blank_runs() -> None:
    check(
        "A  ![a](https://e.example/a.png)  b   c",
        {
            "text": "A b c",
            "segments": [t("A"), m("https://e.example/a.png"), t("b c")],
        },
        extract_markdown_images=True,
    )


def test_directive_lines_are_never_image_scanned() -> None:
    check(
        "MEDIA:/a.png ![a](https://e.example/a.png)",
        {"mediaUrls": ["/a.png", "![a](https://e.example/a.png"]},
        extract_markdown_images=True,
    )


# ---------------------------------------------------------------- §16 examples

EXAMPLES = [
    (
        "Here is the image.\n\nMEDIA:/workspace/image.png",
        {},
        "Here is the image.",
        ["/workspace/image.png"],
    ),
    (
        'MEDIA:"/Users/pete/My Files/render final.png"',
        {},
        "",
        ["/Users/pete/My Files/render final.png"],
    ),
    ("MEDIA:https://Example.COM/a.png", {}, "", ["https://Example.COM/a.png"]),
    ("MEDIA:http://example.com/a.png", {}, "MEDIA:http://example.com/a.png", []),
    ("MEDIA:https://user@example.com/a.png", {}, "MEDIA:https://user@example.com/a.png", []),
    ("MEDIA:https://0x7f.1/a.png", {}, "MEDIA:https://0x7f.1/a.png", []),
    ("MEDIA:https://printer/a.png", {}, "MEDIA:https://printer/a.png", []),
    ("MEDIA:file:///srv/a.png", {}, "", ["file:///srv/a.png"]),
    ("MEDIA:~user/a.png", {}, "", []),
    ("MEDIA:media://inbound/abc123", {}, "", ["media://inbound/abc123"]),
    ("MEDIA:media://inbound:80/x", {}, "MEDIA:media://inbound:80/x", []),
    ("MEDIA:photo.jpeg.", {}, "MEDIA:photo.jpeg.", []),
    ("Hi\nMEDIA:/srv/a.png", {"extract_media_directives": False}, "Hi\nMEDIA:/srv/a.png", []),
]


@pytest.mark.parametrize(("text", "opts", "out", "urls"), EXAMPLES)
def test_examples(text: str, opts: dict[str, Any], out: str, urls: list[str]) -> None:
    r = check(text, {"text": out}, **opts)
    assert r.media_urls == urls


# ---------------------------------------------------------------- result shape


def test_wire_shape_has_no_media_url_and_omits_empty_fields() -> None:
    w = split_media("MEDIA:/a.png").to_wire()
    assert "mediaUrl" not in w
    assert w["mediaUrls"] == ["/a.png"]
    assert "audioAsVoice" not in w
    assert "diagnostics" not in w
    assert split_media("Hi").to_wire() == {"text": "Hi"}


def test_spans_point_at_the_directive_and_image() -> None:
    text = "Intro\nMEDIA:/a.png\n![x](https://e.example/a.png) [[audio_as_voice]]"
    r = split_media(text, extract_markdown_images=True)
    kinds = [(s.kind, text[s.start : s.end], s.value) for s in r.spans]
    assert kinds == [
        ("media", "MEDIA:/a.png", "/a.png"),
        ("image", "![x](https://e.example/a.png)", "https://e.example/a.png"),
        ("audio_tag", "[[audio_as_voice]]", None),
    ]


def test_one_span_per_accepted_item() -> None:
    text = "MEDIA:/a.png /b.png"
    r = split_media(text)
    assert [(s.start, s.end, s.value) for s in r.spans] == [(0, 19, "/a.png"), (0, 19, "/b.png")]


def test_edits_rebuild_the_input_on_every_stage() -> None:
    text = (
        "  \n\nIntro  \r\n[[audio_as_voice]]\nMEDIA:https://e.example/a.png extra\n"
        "MEDIA:../x\n\n  tail \n\n"
    )
    r = split_media(text)
    assert rebuild(r) == text
    # The tag's own line closes as TAGS.md §5 case 1 (one line break is copied).
    assert r.text == "Intro  \r\n\nextra\n\n  tail"
