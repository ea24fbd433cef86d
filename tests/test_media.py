"""split_media against every example table of MEDIA.md (§3-§16) and the reference's quirks.

Tests run the default profile ``next`` unless they name one. Where ``next`` differs from
MEDIA.md (PROFILES.md: rejected references hidden and counted, quoted lists, CR line ends,
ASCII-only ``MEDIA:``, public IPv6 hosts), the release profile keeps the old expectation
beside the ``next`` one.
"""

from __future__ import annotations

from typing import Any

import pytest

from richout.media.split import split_media
from richout.models import MediaSplit
from richout.models.lossless import rebuild

ABSENT = object()
NEXT = "next"
RELEASE = "release-2026.9.6"
_WIRE = ("text", "mediaUrls", "audioAsVoice", "segments", "rejectedMediaCount")


def wire(r: MediaSplit) -> dict[str, Any]:
    """The compared wire fields only (no diagnostics/spans/edits)."""
    w = r.to_wire()
    return {k: w[k] for k in _WIRE if k in w}


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
    assert r.rejected_media_count == got.get("rejectedMediaCount", 0)
    return r


# ---------------------------------------------------------------- §3 pipeline

# (profile, input, text, mediaUrls, segments, rejectedMediaCount)
PIPELINE = [
    (NEXT, "Hi there", "Hi there", ABSENT, ABSENT, ABSENT),
    (NEXT, "   ", "", ABSENT, ABSENT, ABSENT),
    # The release keeps a rejected directive as written; next hides the line and counts it.
    (
        RELEASE,
        "MEDIA:http://example.com/a.png  x",
        "MEDIA:http://example.com/a.png  x",
        ABSENT,
        [t("MEDIA:http://example.com/a.png  x")],
        ABSENT,
    ),
    (NEXT, "MEDIA:http://example.com/a.png  x", "", ABSENT, [], 1),
    (RELEASE, "MEDIA:~", "", ABSENT, [], ABSENT),
    (NEXT, "MEDIA:~", "", ABSENT, [], 1),
    (
        NEXT,
        "MEDIA : https://example.com/a.png",
        "MEDIA : https://example.com/a.png",
        ABSENT,
        ABSENT,
        ABSENT,
    ),
    (NEXT, "Hi there  \n\n", "Hi there", ABSENT, ABSENT, ABSENT),
]


@pytest.mark.parametrize("row", PIPELINE)
def test_pipeline_table(row: tuple[Any, ...]) -> None:
    profile, text, out, urls, segments, rejected = row
    check(
        text,
        {"text": out, "mediaUrls": urls, "segments": segments, "rejectedMediaCount": rejected},
        profile=profile,
    )


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


def test_dotless_i_spelling_passes_rule_one_only_in_the_release() -> None:
    # The release upper-cases the line's first six units, so "MEDıA:" opens a directive.
    check(
        "MEDıA:x MEDIA:/srv/a.png",
        {"text": "", "mediaUrls": ["/srv/a.png"], "segments": [t("MEDıA:x"), m("/srv/a.png")]},
        profile=RELEASE,
    )
    # Rule 1 passes, rule 2 does not: the line is text and is not image-scanned.
    img = "MEDıA: ![a](https://example.com/a.png)"
    check(img, {"text": img, "mediaUrls": ABSENT}, extract_markdown_images=True, profile=RELEASE)


def test_dotless_i_spelling_is_not_a_directive_in_next() -> None:
    # next matches MEDIA: in ASCII case only: the line is ordinary text ...
    text = "MEDıA:x MEDIA:/srv/a.png"
    check(text, {"text": text, "mediaUrls": ABSENT, "segments": [t(text)]})
    # ... so its Markdown images are lifted like on any other line.
    check(
        "MEDıA: ![a](https://example.com/a.png)",
        {
            "text": "MEDıA:",
            "mediaUrls": ["https://example.com/a.png"],
            "segments": [t("MEDıA:"), m("https://example.com/a.png")],
        },
        extract_markdown_images=True,
    )


def test_one_directive_per_line() -> None:
    text = "MEDIA:https://example.com/a.png MEDIA:https://example.com/b.png"
    check(
        text,
        {
            "text": "MEDIA:https://example.com/b.png",
            "mediaUrls": ["https://example.com/a.png"],
            "rejectedMediaCount": ABSENT,
        },
        profile=RELEASE,
    )
    # In next the second "MEDIA:..." is a rejected part that starts with a scheme: hidden
    # and counted.
    check(
        text,
        {"text": "", "mediaUrls": ["https://example.com/a.png"], "rejectedMediaCount": 1},
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
    ("'a.png' 'b.png'", ["a.png", "b.png"], ""),
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


# The release reads an explicit quoted list as one whole-payload reference (MEDIA.md §6).
RELEASE_PAYLOADS = [
    ("'a.png' 'b.png'", ["a.png' 'b.png"]),
    (
        '"/srv/first image.png" "/srv/second image.png"',
        ['/srv/first image.png" "/srv/second image.png'],
    ),
]


@pytest.mark.parametrize(("payload", "urls"), RELEASE_PAYLOADS)
def test_release_reads_quoted_lists_as_one_reference(payload: str, urls: list[str]) -> None:
    r = check(f"A\nMEDIA:{payload}", {"text": "A"}, profile=RELEASE)
    assert r.media_urls == urls


def test_payload_lists_quoted_references_only_with_whitespace_between() -> None:
    # Touching quote pairs are one value.
    check('MEDIA:"/a b.png""/c.png"', {"mediaUrls": ['/a b.png""/c.png']})


def test_quoted_part_keeps_its_punctuation() -> None:
    check(
        'MEDIA:"https://example.com/a.png?x=1," "/srv/b c.png"',
        {"mediaUrls": ["https://example.com/a.png?x=1,", "/srv/b c.png"], "text": ""},
    )


def test_traversal_part_with_spaces_is_discarded() -> None:
    text = 'MEDIA:/srv/a.png "../x y.png"'
    # The release drops it silently; next counts it (it looks like a media source).
    for profile, rejected in ((RELEASE, ABSENT), (NEXT, 1)):
        r = check(
            text,
            {"mediaUrls": ["/srv/a.png"], "text": "", "rejectedMediaCount": rejected},
            profile=profile,
        )
        assert any(d.code == "media.local.traversal" for d in r.diagnostics)


def test_double_file_prefix_in_regrouping_and_validation() -> None:
    check("MEDIA:file:file:///srv/x.png", {"text": "", "mediaUrls": ABSENT, "segments": []})
    check("MEDIA:file:///srv/x.png", {"text": "", "mediaUrls": ["file:///srv/x.png"]})


def test_trailing_whitespace_defeats_the_bare_filename_fallback() -> None:
    check("MEDIA:image.png  \nmore", {"text": "MEDIA:image.png  \nmore", "mediaUrls": ABSENT})
    check("MEDIA:image.png\nmore", {"text": "more", "mediaUrls": ["image.png"]})


def test_over_long_quoted_reference_is_rejected_not_shortened() -> None:
    url = "https://example.com/" + "a" * 5000 + ".png"
    check(f'MEDIA:"{url}"', {"text": f'MEDIA:"{url}"', "mediaUrls": ABSENT}, profile=RELEASE)
    check(f'MEDIA:"{url}"', {"text": "", "mediaUrls": ABSENT, "rejectedMediaCount": 1})


def test_length_cap_counts_utf16_units() -> None:
    # 2047 astral characters are 4094 units (+ "/x" = 4096): accepted; one more is not.
    ok = "/" + "😀" * 2047 + "x"
    check(f"MEDIA:{ok}", {"mediaUrls": [ok]})
    bad = "/" + "😀" * 2048 + "x"
    check(f"MEDIA:{bad}", {"mediaUrls": ABSENT, "text": ""})


# ---------------------------------------------------------------- §7-§8 policy through the line

# (reference, accepted in next, accepted in the release)
POLICY = [
    ("https://Example.COM/a.png", True, True),
    ("http://example.com/a.png", False, False),
    ("https://user@example.com/a.png", False, False),
    ("https://0x7f.1/a.png", False, False),
    ("https://printer/a.png", False, False),
    ("https://[::1]/a.png", False, False),
    ("https://[::ffff:127.0.0.1]/a.png", False, False),
    ("https://[2001:4860:4860::8888]/a.png", True, False),
    ("https://127.0.0.1.nip.io/a.png", True, True),
    ("https://example.com\\@127.0.0.1/a.png", True, True),
    ("file:///srv/a.png", True, True),
    ("media://inbound/abc123", True, False),
    ("media://inbound:80/x", False, False),
    ("media://inbound/x/../y.png", True, False),
    ("Media://inbound/a.png", True, False),
    ("ftp://example.com/a.png", False, False),
    ("photo.jpeg.", False, False),
    ("/etc/passwd", True, True),
    ("~/a.png", True, True),
    ("\\\\server\\share\\a.png", True, True),
]


@pytest.mark.parametrize("profile", [NEXT, RELEASE])
@pytest.mark.parametrize(("ref", "in_next", "in_release"), POLICY)
def test_policy_through_split_media(
    ref: str, in_next: bool, in_release: bool, profile: str
) -> None:
    accepted = in_next if profile == NEXT else in_release
    r = check(f"MEDIA:{ref}", {}, profile=profile)
    assert r.media_urls == ([ref] if accepted else [])


# ---------------------------------------------------------------- §9 outcomes

# (profile, input, text, mediaUrls)
OUTCOMES = [
    (
        NEXT,
        "MEDIA:https://example.com/a.png and /srv/b.png",
        "and",
        ["https://example.com/a.png", "/srv/b.png"],
    ),
    (
        NEXT,
        "A\nMEDIA:https://example.com/a.png tail words",
        "A\ntail words",
        ["https://example.com/a.png"],
    ),
    (NEXT, "x\nMEDIA:../x.png", "x", []),
    (
        NEXT,
        "Hi\nMEDIA:   \nMEDIA:https://example.com/a.png",
        "Hi\nMEDIA:",
        ["https://example.com/a.png"],
    ),
    # A rejected remote reference: the release keeps its line (its text rewrite collapses
    # the double space); next removes it.
    (
        RELEASE,
        "MEDIA:http://example.com/a.png  x\nMEDIA:https://example.com/b.png",
        "MEDIA:http://example.com/a.png x",
        ["https://example.com/b.png"],
    ),
    (
        NEXT,
        "MEDIA:http://example.com/a.png  x\nMEDIA:https://example.com/b.png",
        "",
        ["https://example.com/b.png"],
    ),
    (RELEASE, "MEDIA:https://[::1]/a.png", "MEDIA:https://[::1]/a.png", []),
    (NEXT, "MEDIA:https://[::1]/a.png", "", []),
    (NEXT, "Intro   words\nMEDIA:~user/a.png", "Intro   words", []),
]


@pytest.mark.parametrize(("profile", "text", "out", "urls"), OUTCOMES)
def test_outcome_table(profile: str, text: str, out: str, urls: list[str]) -> None:
    r = check(text, {"text": out}, profile=profile)
    assert r.media_urls == urls


# next only (PROFILES.md rule 5): (input, text, mediaUrls, rejectedMediaCount)
HIDDEN = [
    ("MEDIA:http://example.com/a.png", "", [], 1),
    ("Intro\nMEDIA:https://[fe80::1]/a.png\nOutro", "Intro\nOutro", [], 1),
    ("MEDIA:../../.env", "", [], 1),
    ("MEDIA:ftp://example.com/a.png", "", [], 1),
    ("MEDIA:media://outbound/image.png", "", [], 1),
    ("MEDIA:/srv/a.png http://x.example/b.png", "", ["/srv/a.png"], 1),
    ('MEDIA:"http://a.example/a.png" "http://b.example/b.png"', "", [], 2),
    ("MEDIA:/tmp/shots/../../.env /tmp/safe/second.png", "", ["/tmp/safe/second.png"], 1),
    # Bare words are not media sources: they stay text and are not counted.
    ("MEDIA:screenshot", "MEDIA:screenshot", [], 0),
    (
        "MEDIA:https://example.com/a.png and /srv/b.png",
        "and",
        ["https://example.com/a.png", "/srv/b.png"],
        0,
    ),
    ('MEDIA:"x" "y"', 'MEDIA:"x" "y"', [], 0),
]


@pytest.mark.parametrize(("text", "out", "urls", "rejected"), HIDDEN)
def test_rejected_media_sources_are_hidden_and_counted(
    text: str, out: str, urls: list[str], rejected: int
) -> None:
    r = check(text, {"text": out, "rejectedMediaCount": rejected or ABSENT})
    assert r.media_urls == urls
    assert r.rejected_media_count == rejected
    # The release has no count and hides nothing a local path would not hide.
    assert split_media(text, profile=RELEASE).rejected_media_count == 0


# ---------------------------------------------------------------- §10 visible text


def test_blank_lines_are_never_collapsed() -> None:
    check("Hi\n\n\nMEDIA:/x.png\n\n\nBye", {"text": "Hi\n\n\n\n\nBye"})


def test_blank_lines_are_collapsed_by_the_release_rewrite() -> None:
    check("Hi\n\n\nMEDIA:/x.png\n\n\nBye", {"text": "Hi\n\nBye"}, profile=RELEASE)


def test_cr_and_crlf_end_lines_in_next() -> None:
    url = "https://example.com/a.png"
    for eol in ("\r\n", "\r"):
        check(
            f"Hi{eol}MEDIA:{url}{eol}Bye",
            {"text": f"Hi{eol}Bye", "mediaUrls": [url], "segments": [t("Hi"), m(url), t("Bye")]},
        )
    # Each kept line keeps its own terminator.
    check(f"A\rB\r\nMEDIA:{url}\nC\rD", {"text": "A\rB\r\nC\rD", "mediaUrls": [url]})


def test_only_lf_ends_lines_in_the_release() -> None:
    url = "https://example.com/a.png"
    # The CR stays on the line before the directive (the rewrite turns CRLF into LF) ...
    check(
        f"Hi\r\nMEDIA:{url}\r\nBye",
        {"text": "Hi\nBye", "mediaUrls": [url], "segments": [t("Hi\r"), m(url), t("Bye")]},
        profile=RELEASE,
    )
    # ... and a lone CR does not end a line, so MEDIA: is not at a line start.
    text = f"Hi\rMEDIA:{url}\rBye"
    check(text, {"text": text, "mediaUrls": ABSENT}, profile=RELEASE)


def test_leading_blank_lines_are_removed() -> None:
    for profile in (NEXT, RELEASE):
        check("MEDIA:/a.png\n  \n\t\nHi", {"text": "Hi"}, profile=profile)
        check("MEDIA:/a.png\n\r\nHi", {"text": "Hi"}, profile=profile)
    # In next a line ended by CR or CRLF is a blank line like any other.
    check("MEDIA:/a.png\n \r\nHi", {"text": "Hi"})
    check("MEDIA:/a.png\n\rHi", {"text": "Hi"})


def test_release_does_not_remove_cr_lines() -> None:
    # LF only: "\rHi" is one line, not a blank line and then "Hi".
    check(
        "MEDIA:/a.png\n\rHi",
        {"text": "\rHi", "segments": [m("/a.png"), t("\rHi")]},
        profile=RELEASE,
    )
    # " \r" is not blank either; the rewrite then drops the space before the line feed.
    check("MEDIA:/a.png\n \r\nHi", {"text": "\nHi"}, profile=RELEASE)


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

# (input, options, text, mediaUrls, rejectedMediaCount) in next; RELEASE_TEXT gives the
# release's text where it differs (the release never counts).
EXAMPLES = [
    (
        "Here is the image.\n\nMEDIA:/workspace/image.png",
        {},
        "Here is the image.",
        ["/workspace/image.png"],
        0,
    ),
    (
        'MEDIA:"/Users/pete/My Files/render final.png"',
        {},
        "",
        ["/Users/pete/My Files/render final.png"],
        0,
    ),
    ("MEDIA:https://Example.COM/a.png", {}, "", ["https://Example.COM/a.png"], 0),
    ("MEDIA:http://example.com/a.png", {}, "", [], 1),
    ("MEDIA:https://user@example.com/a.png", {}, "", [], 1),
    ("MEDIA:https://0x7f.1/a.png", {}, "", [], 1),
    ("MEDIA:https://printer/a.png", {}, "", [], 1),
    ("MEDIA:file:///srv/a.png", {}, "", ["file:///srv/a.png"], 0),
    ("MEDIA:~user/a.png", {}, "", [], 1),
    ("MEDIA:media://inbound/abc123", {}, "", ["media://inbound/abc123"], 0),
    ("MEDIA:media://inbound:80/x", {}, "", [], 1),
    ("MEDIA:photo.jpeg.", {}, "MEDIA:photo.jpeg.", [], 0),
    (
        "Hi\nMEDIA:/srv/a.png",
        {"extract_media_directives": False},
        "Hi\nMEDIA:/srv/a.png",
        [],
        0,
    ),
]

# The release keeps every rejected remote or inbound directive visible and has no inbound.
RELEASE_TEXT = {
    "MEDIA:http://example.com/a.png": "MEDIA:http://example.com/a.png",
    "MEDIA:https://user@example.com/a.png": "MEDIA:https://user@example.com/a.png",
    "MEDIA:https://0x7f.1/a.png": "MEDIA:https://0x7f.1/a.png",
    "MEDIA:https://printer/a.png": "MEDIA:https://printer/a.png",
    "MEDIA:media://inbound/abc123": "MEDIA:media://inbound/abc123",
    "MEDIA:media://inbound:80/x": "MEDIA:media://inbound:80/x",
}


@pytest.mark.parametrize(("text", "opts", "out", "urls", "rejected"), EXAMPLES)
def test_examples(
    text: str, opts: dict[str, Any], out: str, urls: list[str], rejected: int
) -> None:
    r = check(text, {"text": out, "rejectedMediaCount": rejected or ABSENT}, **opts)
    assert r.media_urls == urls


@pytest.mark.parametrize(("text", "opts", "out", "urls", "rejected"), EXAMPLES)
def test_examples_in_the_release(
    text: str, opts: dict[str, Any], out: str, urls: list[str], rejected: int
) -> None:
    r = check(
        text,
        {"text": RELEASE_TEXT.get(text, out), "rejectedMediaCount": ABSENT},
        profile=RELEASE,
        **opts,
    )
    assert r.media_urls == ([] if text in RELEASE_TEXT else urls)


# ---------------------------------------------------------------- result shape


def test_wire_shape_has_no_media_url_and_omits_empty_fields() -> None:
    w = split_media("MEDIA:/a.png").to_wire()
    assert "mediaUrl" not in w
    assert w["mediaUrls"] == ["/a.png"]
    assert "audioAsVoice" not in w
    assert "diagnostics" not in w
    assert split_media("Hi").to_wire() == {"text": "Hi"}
    # rejectedMediaCount is on the wire only when something was counted.
    assert "rejectedMediaCount" not in split_media("MEDIA:screenshot").to_wire()
    assert split_media("MEDIA:http://example.com/a.png").to_wire()["rejectedMediaCount"] == 1
    w = split_media("MEDIA:http://example.com/a.png", profile=RELEASE).to_wire()
    assert "rejectedMediaCount" not in w


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
