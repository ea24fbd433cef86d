"""Every MEDIA.md §17 diagnostic code: when it fires, its severity, span and message.

Cases run the default profile ``next`` unless their options name the release. In ``next`` a
rejected reference that looks like a media source leaves the text and is counted
(PROFILES.md rule 5); its diagnostic still explains it and says it was removed.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from richout.media import explain_directives, segments
from richout.media.explain_items import ITEM_KEY, item_checks, speaks
from richout.media.fates import Item
from richout.media.split import split_media
from richout.models import Diagnostic
from richout.models.diagnostics import Diagnostics

IMG = {"extract_markdown_images": True}
RELEASE = "release-2026.9.6"
REL = {"profile": RELEASE}

# (input, options, code, severity, the exact text its span covers)
CASES: list[tuple[str, dict[str, Any], str, str, str]] = [
    # §17.1 ignored constructs
    ("```\nMEDIA:/srv/a.png\n```", {}, "media.in_code_block", "info", "MEDIA:/srv/a.png"),
    (
        "Here is your image: MEDIA:/srv/a.png",
        {},
        "media.not_line_start",
        "info",
        "MEDIA:/srv/a.png",
    ),
    ("**MEDIA:/srv/a.png**", {}, "media.wrapped_in_markup", "info", "**MEDIA:/srv/a.png**"),
    ("\\MEDIA:x", {}, "media.wrapped_in_markup", "info", "\\MEDIA:x"),
    ("&#77;EDIA:/srv/a.png", {}, "media.wrapped_in_markup", "info", "&#77;EDIA:/srv/a.png"),
    ("- MEDIA:/srv/a.png", {}, "media.in_list_item", "info", "- MEDIA:/srv/a.png"),
    ("1) [x] MEDIA:/srv/a.png", {}, "media.in_list_item", "info", "1) [x] MEDIA:/srv/a.png"),
    ("> > MEDIA:/srv/a.png", {}, "media.in_blockquote", "info", "> > MEDIA:/srv/a.png"),
    ("| a | MEDIA:/srv/a.png |", {}, "media.in_table", "info", "| a | MEDIA:/srv/a.png |"),
    ("MEDIA : /srv/a.png", {}, "media.space_before_colon", "info", "MEDIA : /srv/a.png"),
    ("Hi\nMEDIA:\nthere [[x]]", {}, "media.empty_payload", "warning", "MEDIA:"),
    ("Hi\nMEDIA:  \nMEDIA:/a.png", {}, "media.empty_payload", "warning", "MEDIA:  "),
    (
        "MEDIA:/srv/a.png",
        {"extract_media_directives": False},
        "media.extraction_disabled",
        "info",
        "MEDIA:/srv/a.png",
    ),
    # §17.2 rejected candidates
    (
        "MEDIA:http://example.com/a.png",
        {},
        "media.remote.not_https",
        "error",
        "http://example.com/a.png",
    ),
    (
        "MEDIA:https://example.com:99999/a.png",
        {},
        "media.remote.invalid_url",
        "error",
        "https://example.com:99999/a.png",
    ),
    (
        "MEDIA:https://user:pw@example.com/a.png",
        {},
        "media.remote.credentials",
        "error",
        "https://user:pw@example.com/a.png",
    ),
    (
        "MEDIA:https://localhost/a.png",
        {},
        "media.remote.host_blocked",
        "error",
        "https://localhost/a.png",
    ),
    (
        "MEDIA:https://10.0.0.5/a.png",
        {},
        "media.remote.ip_blocked",
        "error",
        "https://10.0.0.5/a.png",
    ),
    # Only the release blocks every IPv6 literal; next judges the address.
    ("MEDIA:https://[::1]/a.png", REL, "media.remote.ipv6_literal", "error", "https://[::1]/a.png"),
    ("MEDIA:https://[::1]/a.png", {}, "media.remote.ip_blocked", "error", "https://[::1]/a.png"),
    ("MEDIA:media://inbound:80/x", {}, "media.inbound.invalid", "error", "media://inbound:80/x"),
    ("MEDIA:/srv/../etc/passwd", {}, "media.local.traversal", "error", "/srv/../etc/passwd"),
    ("MEDIA:~user/a.png", {}, "media.local.unsupported_home", "error", "~user/a.png"),
    (
        "MEDIA:ftp://example.com/a.png",
        {},
        "media.scheme_unsupported",
        "error",
        "ftp://example.com/a.png",
    ),
    ("MEDIA:report", {}, "media.not_a_reference", "error", "report"),
    ("MEDIA:../x.png", {}, "media.line_removed", "warning", "MEDIA:../x.png"),
    ("MEDIA:../x.png", REL, "media.line_removed", "warning", "MEDIA:../x.png"),
    # next removes a line whose only reference was rejected and counted.
    (
        "A\nMEDIA:https://[::1]/a.png",
        {},
        "media.line_removed",
        "warning",
        "MEDIA:https://[::1]/a.png",
    ),
    # §17.3 accepted but altered
    (
        "MEDIA:https://example.com/a b.png",
        {},
        "media.leftover_text",
        "warning",
        "b.png",
    ),
    (
        "MEDIA:/srv/voice.opus and enjoy",
        {},
        "media.words_absorbed",
        "warning",
        "/srv/voice.opus and enjoy",
    ),
    (
        "MEDIA:/srv/a.ogg [[audio_as_voice]]",
        {},
        "media.tag_in_payload",
        "warning",
        "/srv/a.ogg [[audio_as_voice]]",
    ),
    (
        "MEDIA:/srv/a.png MEDIA:/srv/b.png",
        {},
        "media.multiple_on_line",
        "warning",
        "MEDIA:/srv/b.png",
    ),
    (
        "MEDIA:**https://example.com/a.png**",
        {},
        "media.suspicious_relative",
        "warning",
        "**https://example.com/a.png**",
    ),
    (
        'MEDIA:"/srv/a b.png" trailing',
        {},
        "media.stray_quote",
        "warning",
        '"/srv/a b.png" trailing',
    ),
    (
        "MEDIA:https://example.com/a.png.",
        {},
        "media.trailing_punctuation",
        "warning",
        "https://example.com/a.png.",
    ),
    (
        'MEDIA:/srv/out.mp3{"results":[1]}',
        {},
        "media.json_residue",
        "warning",
        '/srv/out.mp3{"results":[1]}',
    ),
    ('MEDIA:/srv/a.png"}]', {}, "media.json_tail_cut", "info", '/srv/a.png"}]'),
    ('MEDIA:/srv/a.png","x":1}', {}, "media.json_tail_cut", "info", '/srv/a.png","x":1}'),
    ("MEDIA:a.png b.png", {}, "media.filenames_merged", "warning", "a.png b.png"),
    (
        "MEDIA:file://https://evil.example/a.png",
        {},
        "media.file_wraps_remote",
        "warning",
        "file://https://evil.example/a.png",
    ),
    (
        "MEDIA:media://inbound/x/../y.png",
        {},
        "media.inbound.dot_segments",
        "info",
        "media://inbound/x/../y.png",
    ),
    (
        "MEDIA:image.png  \nmore",
        {},
        "media.trailing_space_payload",
        "warning",
        "MEDIA:image.png  ",
    ),
    # LF-only lines (the release): the CR of a CRLF stays on the payload.
    (
        "Hi\r\nMEDIA:image.png\r\nmore",
        REL,
        "media.trailing_space_payload",
        "warning",
        "MEDIA:image.png\r",
    ),
    # §17.4 structure
    (
        "<pre>\nMEDIA:https://example.com/a.png\n</pre>",
        {},
        "media.in_html_block",
        "warning",
        "MEDIA:https://example.com/a.png",
    ),
    (
        "``\nMEDIA:https://example.com/a.png\n``",
        {},
        "media.in_code_span",
        "warning",
        "MEDIA:https://example.com/a.png",
    ),
    ("> quote\nMEDIA:/srv/a.png", {}, "media.lazy_continuation", "info", "MEDIA:/srv/a.png"),
    ("- item\n  MEDIA:/srv/a.png", {}, "media.lazy_continuation", "info", "  MEDIA:/srv/a.png"),
    ("Title\nMEDIA:/x.png\n---", {}, "media.structure_changed", "warning", "MEDIA:/x.png"),
    ("MEDIA:/x.png\n    continuation", {}, "media.structure_changed", "warning", "MEDIA:/x.png"),
    ("Caption  \nMEDIA:/x.png", {}, "media.structure_changed", "warning", "MEDIA:/x.png"),
    (
        "[[audio_as_voice]]\nMEDIA:/srv/a.ogg",
        {},
        "media.segment_tag_text",
        "info",
        "[[audio_as_voice]]",
    ),
    # §17.5 images
    (
        "![a](http://example.com/a.png)",
        IMG,
        "media.image.not_lifted",
        "info",
        "![a](http://example.com/a.png)",
    ),
    (
        "![a](/srv/a.png)",
        {"markdown_image_allowlist": ["/srv/b.png"]},
        "media.image.not_lifted",
        "info",
        "![a](/srv/a.png)",
    ),
    (
        " ".join(f"![i](https://e.example/{i}.png)" for i in range(51)),
        IMG,
        "media.image.limit",
        "warning",
        "![i](https://e.example/50.png)",
    ),
    # The release reads images line by line; next joins the lines an image covers, up to
    # 20,000 units (PROFILES.md rule 7).
    (
        "![a\nb](https://e.example/a.png) ![c](https://e.example/c.png)",
        {**IMG, **REL},
        "media.image.limit",
        "warning",
        "![a\nb](https://e.example/a.png)",
    ),
    (
        "![a\n" + "b" * 20_001 + "](https://e.example/a.png)",
        IMG,
        "media.image.limit",
        "warning",
        "![a\n" + "b" * 20_001 + "](https://e.example/a.png)",
    ),
    (
        "x" * 20_001 + " ![a](https://e.example/a.png)\n![b](https://e.example/b.png)",
        IMG,
        "media.image.limit",
        "warning",
        "x" * 20_001 + " ![a](https://e.example/a.png)",
    ),
]


NO_AUDIO = {"extract_audio_directives": False}

# TAGS.md §10 codes this layer emits.
CASES += [
    (
        "Hi [[audio_as_voice]]",
        NO_AUDIO,
        "tag.audio_not_extracted",
        "info",
        "[[audio_as_voice]]",
    ),
    (
        "a\nMEDIA:https://example.com/a.png\n[[ AUDIO_AS_VOICE ]] b",
        NO_AUDIO,
        "tag.audio_not_extracted",
        "info",
        "[[ AUDIO_AS_VOICE ]]",
    ),
    # What the split's tag pass finds about a single construct comes with its result (a
    # view's tag layer reports the same construct once, test_render and test_reply).
    ("hello [[foo]]\nMEDIA:/a.png", {}, "tag.unknown", "info", "[[foo]]"),
    ("Hi [[audio_as_voice]] [[foo_bar]]\nMEDIA:/a.png", {}, "tag.unknown", "info", "[[foo_bar]]"),
    ("x [[reply_to:a] y\nMEDIA:/a.png", {}, "tag.malformed", "warning", "[[reply_to:a] y"),
    ("`[[audio_as_voice]]` x\nMEDIA:/a.png", {}, "tag.in_code", "info", "[[audio_as_voice]]"),
]


def test_audio_tags_in_code_are_not_reported_as_left_in_text() -> None:
    r = split_media("`[[audio_as_voice]]`", extract_audio_directives=False)
    assert not _find(r.diagnostics, "tag.audio_not_extracted")
    r = split_media("Hi [[audio_as_voice]]")
    assert r.audio_as_voice and not _find(r.diagnostics, "tag.audio_not_extracted")


def _find(diags: list[Diagnostic], code: str) -> list[Diagnostic]:
    return [d for d in diags if d.code == code]


@pytest.mark.parametrize(
    ("text", "opts", "code", "severity", "covered"),
    CASES,
    ids=[f"{c[2]}:{i}" for i, c in enumerate(CASES)],
)
def test_code(text: str, opts: dict[str, Any], code: str, severity: str, covered: str) -> None:
    r = split_media(text, **opts)
    found = _find(r.diagnostics, code)
    assert found, (code, [d.code for d in r.diagnostics])
    d = found[0]
    assert d.severity == severity
    assert d.start is not None and d.end is not None
    assert text[d.start : d.end] == covered
    assert d.line is not None and d.column is not None
    before = text[: d.start]
    assert d.line == before.count("\n") + 1
    assert d.column == d.start - (before.rfind("\n") + 1) + 1
    assert len(d.message) > 20


def test_every_code_of_section_17_is_exercised() -> None:
    codes = {c[2] for c in CASES}
    expected = {
        "media.in_code_block",
        "media.not_line_start",
        "media.wrapped_in_markup",
        "media.in_list_item",
        "media.in_blockquote",
        "media.in_table",
        "media.space_before_colon",
        "media.empty_payload",
        "media.extraction_disabled",
        "media.remote.not_https",
        "media.remote.invalid_url",
        "media.remote.credentials",
        "media.remote.host_blocked",
        "media.remote.ip_blocked",
        "media.remote.ipv6_literal",
        "media.inbound.invalid",
        "media.local.traversal",
        "media.local.unsupported_home",
        "media.too_long",
        "media.scheme_unsupported",
        "media.not_a_reference",
        "media.line_removed",
        "media.leftover_text",
        "media.words_absorbed",
        "media.tag_in_payload",
        "media.multiple_on_line",
        "media.suspicious_relative",
        "media.stray_quote",
        "media.trailing_punctuation",
        "media.json_residue",
        "media.json_tail_cut",
        "media.filenames_merged",
        "media.file_wraps_remote",
        "media.inbound.dot_segments",
        "media.trailing_space_payload",
        "media.in_html_block",
        "media.in_code_span",
        "media.lazy_continuation",
        "media.structure_changed",
        "media.segment_tag_text",
        "media.image.not_lifted",
        "media.image.limit",
    }
    assert expected - codes == {"media.too_long"}  # covered by its own test below


def test_too_long() -> None:
    url = "https://example.com/" + "a" * 5000
    r = split_media(f"MEDIA:{url}", profile=RELEASE)
    (d,) = _find(r.diagnostics, "media.too_long")
    assert d.severity == "error"
    assert r.diagnostics[0].start == 6
    # next: the same verdict on the reference, and the line removed (it is counted).
    r = split_media(f"MEDIA:{url}")
    assert r.rejected_media_count == 1
    (d,) = _find(r.diagnostics, "media.too_long")
    assert (d.severity, d.start, d.end) == ("error", 6, 6 + len(url))
    assert "removed from the text" in d.message
    assert [x.code for x in r.diagnostics] == ["media.line_removed", "media.too_long"]


def test_multi_line_image_is_lifted_in_next() -> None:
    text = "![a\nb](https://e.example/a.png) ![c](https://e.example/c.png)"
    r = split_media(text, **IMG)
    assert r.media_urls == ["https://e.example/a.png", "https://e.example/c.png"]
    assert not _find(r.diagnostics, "media.image.limit")


def test_crlf_payload_has_no_trailing_space_in_next() -> None:
    r = split_media("Hi\r\nMEDIA:image.png\r\nmore")
    assert r.media_urls == ["image.png"]
    assert r.diagnostics == []


# ---------------------------------------------------------------- messages


def test_rejection_messages_say_visible_or_removed() -> None:
    kept = split_media("MEDIA:http://example.com/a.png", profile=RELEASE).diagnostics
    assert "stayed visible" in _find(kept, "media.remote.not_https")[0].message
    hidden = split_media("MEDIA:http://example.com/a.png").diagnostics
    assert "removed from the text" in _find(hidden, "media.remote.not_https")[0].message
    for profile in ("next", RELEASE):
        removed = split_media("MEDIA:../x.png", profile=profile).diagnostics
        assert "removed" in _find(removed, "media.local.traversal")[0].message
        text = "MEDIA:https://example.com/a.png and /srv/b.png"
        part = split_media(text, profile=profile).diagnostics
        assert "stays visible" in _find(part, "media.not_a_reference")[0].message
    dropped = split_media('MEDIA:/srv/a.png "../x y.png"', profile=RELEASE).diagnostics
    assert "dropped" in _find(dropped, "media.local.traversal")[0].message
    counted = split_media('MEDIA:/srv/a.png "../x y.png"').diagnostics
    message = _find(counted, "media.local.traversal")[0].message
    assert "removed from the text" in message and "rejected_media_count" in message


# next: (input, the rejected parts the line hides and counts)
HIDDEN: list[tuple[str, list[str]]] = [
    ("MEDIA:http://example.com/a.png", ["http://example.com/a.png"]),
    ("MEDIA:https://[::1]/a.png", ["https://[::1]/a.png"]),
    ("Intro\nMEDIA:https://[fe80::1]/a.png\nOutro", ["https://[fe80::1]/a.png"]),
    ("MEDIA:~user/a.png", ["~user/a.png"]),
    ("MEDIA:../../.env", ["../../.env"]),
    ("MEDIA:media://outbound/image.png", ["media://outbound/image.png"]),
    ("MEDIA:/srv/a.png http://x.example/b.png", ["http://x.example/b.png"]),
    ("MEDIA:https://exa mple.com/a.png", ["https://exa"]),
    (
        'MEDIA:"http://a.example/a.png" "http://b.example/b.png"',
        ['"http://a.example/a.png"', '"http://b.example/b.png"'],
    ),
    ('MEDIA:"https://example.com/a.png?x=1," "../b c.png"', ['"../b c.png"']),
    (
        "MEDIA:C:\\Users\\First Last\\..\\secret.png D:\\safe\\b.png",
        ["C:\\Users\\First Last\\..\\secret.png"],
    ),
    (
        "MEDIA:https://example.com/a.png MEDIA:https://example.com/b.png",
        ["MEDIA:https://example.com/b.png"],
    ),
]

_REJECTIONS = {
    "media.remote.not_https",
    "media.remote.invalid_url",
    "media.remote.credentials",
    "media.remote.host_blocked",
    "media.remote.ip_blocked",
    "media.remote.ipv6_literal",
    "media.inbound.invalid",
    "media.local.traversal",
    "media.local.unsupported_home",
    "media.too_long",
    "media.scheme_unsupported",
    "media.not_a_reference",
}


@pytest.mark.parametrize(("text", "parts"), HIDDEN)
def test_every_hidden_reference_is_explained_as_removed(text: str, parts: list[str]) -> None:
    r = split_media(text)
    assert r.rejected_media_count == len(parts)
    for part in parts:
        start = text.index(part, text.index("MEDIA:") + 6)
        end = start + len(part)
        assert part not in r.text
        explained = [
            d
            for d in r.diagnostics
            if d.code in _REJECTIONS
            and d.severity == "error"
            and d.start is not None
            and d.end is not None
            and d.start <= start
            and end <= d.end
        ]
        assert explained, (part, [(d.code, d.start, d.end) for d in r.diagnostics])
        assert all("removed from the text" in d.message for d in explained), explained


# The release reads the quoted pair as one (accepted) reference, so it rejects nothing there.
_RELEASE_REJECTS = [
    h for h in HIDDEN if not h[0].startswith('MEDIA:"https://example.com/a.png?x=1,"')
]


@pytest.mark.parametrize(("text", "parts"), _RELEASE_REJECTS)
def test_the_release_explains_the_same_rejections(text: str, parts: list[str]) -> None:
    r = split_media(text, profile=RELEASE)
    assert r.rejected_media_count == 0
    codes = {d.code for d in r.diagnostics}
    assert codes & _REJECTIONS, [d.code for d in r.diagnostics]


def test_rejected_parts_share_one_record_per_reason() -> None:
    text = "MEDIA: " + " ".join(["x"] * 1000)
    diags = split_media(text).diagnostics
    nar = _find(diags, "media.not_a_reference")
    assert len(nar) == 1
    assert "999 more" in nar[0].message
    assert (nar[0].start, nar[0].end) == (7, len(text))


def test_one_part_reports_the_whole_payload_verdict_once() -> None:
    text = "Hi\r\nMEDIA:http://example.com/a.png\r\nBye"
    diags = split_media(text, profile=RELEASE).diagnostics
    assert [d.code for d in diags] == ["media.remote.not_https"]
    # next hides the line: the one verdict, plus the note that the line was removed.
    diags = split_media(text).diagnostics
    assert [d.code for d in diags] == ["media.line_removed", "media.remote.not_https"]


# ---------------------------------------------------------------- no false alarms

QUIET = [
    "Hi there",
    "MEDIA:/srv/a.png",
    "Intro\n\nMEDIA:https://example.com/a.png\n\nOutro",
    "We discussed media: it matters.",
    "The media:x field",
    "```\nnot a directive\n```",
    "- item\n\nMEDIA:/srv/a.png",
    "> quote\n\nMEDIA:/srv/a.png",
    "`x` and `y`\nMEDIA:/srv/a.png",
    "Here: MEDIA:report",
    "a & b; c",
    "MEDIA:https://[2001:4860:4860::8888]/a.png",
    "Hi\r\nMEDIA:/srv/a.png\rBye",
]


@pytest.mark.parametrize("text", QUIET)
def test_ordinary_replies_have_no_diagnostics(text: str) -> None:
    assert split_media(text).diagnostics == []


def test_diagnostics_are_sorted_by_start_then_code() -> None:
    text = "- MEDIA:/a.png\nMEDIA:http://x.example/a.png\n**MEDIA:/b**\nMEDIA:/a.png MEDIA:/c.png"
    diags = split_media(text).diagnostics
    keys = [(d.start or 0, d.code) for d in diags]
    assert keys == sorted(keys)
    assert len(diags) >= 4


def test_fast_path_diagnostics_do_not_need_a_trigger() -> None:
    r = split_media("MEDIA : /srv/a.png")
    assert "segments" not in r.to_wire()
    assert [d.code for d in r.diagnostics] == ["media.space_before_colon"]


def test_code_lines_get_no_container_or_markup_diagnostics() -> None:
    text = "```\n- MEDIA:/a.png\n**MEDIA:/b.png**\nsee MEDIA:/c.png\n```"
    assert split_media(text).diagnostics == []


# Tokens of long payloads, each read its own way: accepted paths (plain, at a root, with a
# dot, a JSON tail or a wrapper to clean), refused ones counted and hidden (http, "..",
# "~"), words left visible, and a tag inside the payload.
_PAYLOAD_TOKENS = [
    "/a.png",
    "/b.png",
    "/",
    "~",
    "~/c.png",
    "x",
    "word",
    "/d.png.",
    '/e.png"}',
    "(/f.png)",
    "http://h.example/a.png",
    "../g.png",
    "https://e.example/a.png",
    "[[audio_as_voice]]",
    "/k.png,",
]


@pytest.mark.pure_python(why="raises module thresholds to compare the bulk and the one-by-one way")
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_long_payloads_explain_in_bulk_as_part_by_part(data: st.DataObject) -> None:
    """From ``_BULK_PARTS`` items or parts a line's explanation reads their distinct values
    in C (which items §17.3 speaks of, which parts are visible or counted, one record for
    parts refused for one reason), and from ``_RUN_FROM`` segments a line pushes its media
    in runs: the explained split equals the one built part by part, thresholds raised."""
    vocabulary = data.draw(st.lists(st.sampled_from(_PAYLOAD_TOKENS), min_size=1, max_size=4))
    tokens = data.draw(st.lists(st.sampled_from(vocabulary), min_size=16, max_size=40))
    text = "Intro\nMEDIA:" + data.draw(st.sampled_from([" ", "  ", "\t"])).join(tokens)
    bulk = split_media(text, explain=True)
    saved = explain_directives._BULK_PARTS, segments._RUN_FROM
    try:
        explain_directives._BULK_PARTS = segments._RUN_FROM = 1 << 60
        each = split_media(text, explain=True)
    finally:
        explain_directives._BULK_PARTS, segments._RUN_FROM = saved
    assert bulk == each
    assert bulk.diagnostics == each.diagnostics and bulk.segments == each.segments


_VALUE_PIECES = [
    "/",
    "./",
    "~/",
    "~",
    "https://",
    "http://",
    "media://",
    "file:",
    "file:///",
    "a",
    "x.png",
    ".",
    "..",
    ":",
    ";",
    "!",
    "?",
    " ",
    '"',
    "'",
    "`",
    "{",
    "}",
    "[",
    "]",
    "[[",
    "]]",
    "*",
    "_",
    "<",
    ">",
    "%2e",
    "#",
    "?q",
    "C:",
    "\\",
]


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.sampled_from(_VALUE_PIECES), min_size=1, max_size=6).map("".join),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["", ")", '"}']),
    st.sampled_from(["part", "unwrapped", "rescue", "fallback"]),
)
@example("https://e.example/a b.png", False, False, "", "fallback")
def test_an_item_speaks_of_nothing_has_no_item_check(
    value: str, absorbed: bool, cut: bool, tail: str, source: str
) -> None:
    """The explanation skips §17.3's checks for an accepted item :func:`speaks` is silent
    about (a quoted path's ``unwrapped`` item included): none of them would record anything
    (the test below shows the skip is taken)."""
    item = Item(value, 0, len(value), cut, source, absorbed, tail)
    diag = Diagnostics(value)
    item_checks(diag, item, 0, len(value))
    if not speaks(*ITEM_KEY(item)):
        assert not diag, diag.records()


@pytest.mark.parametrize("source", ["part", "unwrapped", "rescue"])
def test_quiet_items_of_every_source_but_the_fallback(source: str) -> None:
    """A rooted path or https URL with nothing cleaned is quiet whatever read it, except
    the whole-payload fallback, whose name with spaces §17.3 may warn about."""
    for value in ("/tmp/a b.png", "https://e.example/a.png", "~/x.png"):
        assert not speaks(False, False, "", source, value)
        assert speaks(False, False, "", "fallback", value)
    assert speaks(False, False, "", source, "a.png.")
