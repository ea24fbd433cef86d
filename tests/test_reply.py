"""parse_reply, the delivery strip and file-URL conversion (TAGS.md §7, §10).

Outputs are checked against the spec's tables (the 304 reference vectors run in
``test_conformance.py``); diagnostics, spans and edits against what they must explain; the
lossless property (``rebuild(parse_reply(t)) == t``) on generated and hostile text.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout import rebuild
from richout.policy.fileurl import file_url_to_path
from richout.text.patch import Edit, invert
from richout.views.delivery_strip import delivery_strip, strip_for_delivery
from richout.views.reply import parse_reply

M = "MSG_1"

# --------------------------------------------------------------------------- §7.1


DELIVERY_TABLE = [
    ("[[reply_to_current] Hello", "Hello", False, None),
    ("  [[Reply_To_Current] Hello", "Hello", False, None),
    ("[[reply_to_current Hello", "Hello", False, None),
    ("[[reply_to_current]\thi", "hi", False, None),
    ("[[reply_to:123] Hello", "Hello", False, None),
    ("[[reply_to:", "", False, None),
    ("[[reply_to_currentHello", "[[reply_to_currentHello", False, None),
    ("[[reply_to: x Hello", "[[reply_to: x Hello", False, None),
    ("[[reply_to:abc\ndef] hi", "[[reply_to:abc\ndef] hi", False, None),
    ("Hi [[reply_to_current] Hello", "Hi [[reply_to_current] Hello", False, None),
    ("\n[[reply_to_current] hi", "\n[[reply_to_current] hi", False, None),
    ("\t[[reply_to_current] hi", "\t[[reply_to_current] hi", False, None),
    ("[[reply_to_current] \n\n    code line", "    code line", False, None),
    ("[[reply_to:abc]] [[reply_to_current] hi", "hi", True, "abc"),
    ("[[audio_as_voice] hi", "[[audio_as_voice] hi", False, None),
]


@pytest.mark.parametrize(("text", "out", "tag", "target"), DELIVERY_TABLE)
def test_delivery_strip_table(text: str, out: str, tag: bool, target: str | None) -> None:
    r = parse_reply(text, current_message_id=M)
    assert r.text == out
    assert r.reply_to_tag is tag
    assert r.reply_to_id == target
    assert rebuild(r) == text


PREFIX_EDGES = [
    ("[[reply_to:x]y] hi", "y] hi"),  # the value runs to the first "]"
    ("[[reply_to: \t", ""),  # only whitespace after the colon: to the end
    ("[[reply_to:x\r] hi", "[[reply_to:x\r] hi"),  # a CR in the value
    ("[[reply_to_current  ]] ]", "]"),  # a complete tag wins over the prefix
    ("[[reply_to_current ", ""),
    ("[[reply_to_current \u00a0x", "[[reply_to_current \u00a0x"),  # NBSP is whitespace
    ("[[reply_to_current:x] hi", "[[reply_to_current:x] hi"),
    ("[[ reply_to : 7] hi", "hi"),
    ("[[\nreply_to_current] hi", "hi"),
]


@pytest.mark.parametrize(("text", "out"), PREFIX_EDGES)
def test_malformed_prefix_edges(text: str, out: str) -> None:
    assert delivery_strip(text) == out


def test_delivery_strip_of_stray_complete_tags() -> None:
    assert delivery_strip("a [[audio_as_voice]] b") == "a b"
    assert delivery_strip("a[[reply_to:1]]b") == "a b"
    assert delivery_strip("`[[audio_as_voice]]` b") == "`[[audio_as_voice]]` b"
    # Padding before a code block belongs to the block.
    assert delivery_strip("[[audio_as_voice]]\n\n    code") == "    code"
    assert delivery_strip("x [[reply_to:1]]\n```\ncode\n```") == "x\n```\ncode\n```"
    assert delivery_strip("no tags here") == "no tags here"
    assert delivery_strip("  keep [[x]] padding  ") == "  keep [[x]] padding  "


@given(
    st.lists(
        st.sampled_from(
            [
                "[[reply_to_current]",
                "[[reply_to_current]]",
                "[[audio_as_voice]]",
                "[[reply_to:a]",
                "[[reply_to:",
                "[[",
                "]",
                " ",
                "\t",
                "\n",
                "    ",
                "```",
                "`",
                "x",
                "hi",
            ]
        ),
        max_size=10,
    )
)
@settings(max_examples=400, deadline=None)
def test_delivery_strip_patch_rebuilds_its_input(parts: list[str]) -> None:
    text = "".join(parts)
    strip = strip_for_delivery(text)
    assert invert(strip.text, strip.patch) == text
    assert delivery_strip(text) == strip.text
    if "[[" not in text:
        assert strip.text == text


@given(
    st.lists(
        st.sampled_from(
            [
                *("[[reply_to:", "[[reply_to_current", "[[audio_as_voice", "[[", "]"),
                *(" ", "\t", "\n", "x", "`", "    ", "]]"),
            ]
        ),
        max_size=12,
    )
)
@settings(max_examples=600, deadline=None)
def test_the_strip_stops_at_the_first_head_when_nothing_closes_a_tag(parts: list[str]) -> None:
    """Without a "]]" only a malformed prefix at the message's start is removed, so the
    strip stops at the first head that is not there: the same result as visiting them all
    (the visit is forced by answering every "]]" question yes)."""
    from richout.views import delivery_strip as module

    text = "".join(parts)
    fast = strip_for_delivery(text)
    real = module.contains
    module.contains = lambda _text, _needle: True
    try:
        assert strip_for_delivery(text) == fast, text
    finally:
        module.contains = real


# --------------------------------------------------------------------------- §7.2


FILE_URLS = [
    ("file:///srv/x%20y.png", "/srv/x y.png"),
    ("file:/srv/x.png", "/srv/x.png"),
    ("FILE://localhost/srv/x.png", "/srv/x.png"),
    ("file://server/x.png", "file://server/x.png"),
    ("file:///srv/a%2Fb.png", "file:///srv/a%2Fb.png"),
    ("file:///srv/a%2fb.png", "file:///srv/a%2fb.png"),
    ("file:///srv/a%5Cb.png", "file:///srv/a%5Cb.png"),
    ("/srv/a.png", "/srv/a.png"),
    ("https://example.com/a.png", "https://example.com/a.png"),
    ("media://inbound/x", "media://inbound/x"),
    ("file:///work/caf%C3%A9%20100%25.png", "/work/café 100%.png"),
    ("file:///srv/a.png?x=1#y", "/srv/a.png"),  # the path only
    ("file:///srv/%E2%9C%93", "/srv/✓"),
    ("file:///srv/%FF.png", "file:///srv/%FF.png"),  # not UTF-8: kept as accepted
    ("file:///srv/%ED%A0%80", "file:///srv/%ED%A0%80"),  # an encoded surrogate
    ("file:///srv/%C0%AF", "file:///srv/%C0%AF"),  # an overlong form
    ("file:///srv/a%zz", "file:///srv/a%zz"),  # "%" without two hex digits
    ("file:///srv/a%", "file:///srv/a%"),
    ("file:///srv/%3F%23", "/srv/?#"),  # decodeURIComponent decodes reserved characters
    ("file://LOCALHOST/x", "/x"),
    ("file://[::1]/x", "file://[::1]/x"),
    (" file:///srv/x", "/srv/x"),  # WHATWG skips leading spaces
    ("fi\tle:///srv/x", "/srv/x"),  # and drops tabs
    ("filex:///srv/x", "filex:///srv/x"),
    ("file:", "/"),  # WHATWG: "file:///"
    ("file:///srv/\ud800.png", "/srv/\ufffd.png"),  # JavaScript's URL sees U+FFFD
]


@pytest.mark.parametrize(("ref", "path"), FILE_URLS)
def test_file_url_to_path(ref: str, path: str) -> None:
    assert file_url_to_path(ref) == path


def test_parse_reply_converts_accepted_file_urls_and_explains() -> None:
    text = "Hi\nMEDIA:file:///srv/x%20y.png\nMEDIA:/srv/plain.png"
    r = parse_reply(text)
    assert r.media_urls == ["/srv/x y.png", "/srv/plain.png"]
    converted = [d for d in r.diagnostics if d.code == "reply.file_url_converted"]
    assert len(converted) == 1
    d = converted[0]
    assert d.severity == "info"
    assert d.start is not None and d.end is not None
    assert text[d.start : d.end] == "file:///srv/x%20y.png"
    assert rebuild(r) == text


# --------------------------------------------------------------------------- output shape


def test_wire_presence() -> None:
    plain = parse_reply("Hello").to_wire()
    assert plain == {"text": "Hello", "replyToTag": False, "isSilent": False}
    full = parse_reply(
        "[[reply_to_current]] Hi [[audio_as_voice]]\nMEDIA:https://example.com/a.png",
        current_message_id=M,
    ).to_wire()
    assert full["mediaUrls"] == ["https://example.com/a.png"]
    assert full["audioAsVoice"] is True
    assert full["replyToId"] == M
    assert full["replyToCurrent"] is True
    assert full["replyToTag"] is True
    assert full["text"] == "Hi"
    assert "mediaUrl" not in full


REPLY_TARGETS = [
    ("[[reply_to:first]] a [[reply_to:second]] b [[reply_to_current]]", "M", "second", True),
    ("[[reply_to_current]] a [[reply_to: ]]", "M", "M", True),
    ("[[reply_to_current]] hi", "  ", None, True),
    ("[[reply_to_current]] hi", " M ", "M", True),
    ("[[reply_to_current]] hi", None, None, True),
    ("[[reply_to:x\u0001y]] hi", "M", "xy", False),
    ("hi", "M", None, False),
]


@pytest.mark.parametrize(("text", "current", "target", "current_tag"), REPLY_TARGETS)
def test_reply_targets(
    text: str, current: str | None, target: str | None, current_tag: bool
) -> None:
    r = parse_reply(text, current_message_id=current)
    assert r.reply_to_id == target
    assert r.reply_to_current is current_tag


def test_options_reach_split_media() -> None:
    assert parse_reply("MEDIA:/srv/a.png", extract_media_directives=False).text == (
        "MEDIA:/srv/a.png"
    )
    r = parse_reply("Look ![a](https://example.com/a.png)", extract_markdown_images=True)
    assert r.media_urls == ["https://example.com/a.png"]
    assert parse_reply("Look ![a](https://example.com/a.png)").media_urls == []


def test_embed_shortcodes_stay_as_text_and_are_explained() -> None:
    text = 'See [embed ref="cv_1" /] and `[embed ref="cv_2" /]`'
    r = parse_reply(text)
    assert r.text == text
    found = [d for d in r.diagnostics if d.code == "embed.not_rendered_on_delivery"]
    assert [(d.start, d.end) for d in found] == [(4, 24)]
    assert not any(
        d.code == "embed.not_rendered_on_delivery" for d in parse_reply("[embedded] x").diagnostics
    )


# --------------------------------------------------------------------------- silent


SILENT = [
    ("NO_REPLY", "8.1"),
    ("  **no_reply**  ", "8.1"),
    ('{"action":"NO_REPLY"}', "8.3"),
    ("<think>quiet</think>\nNO_REPLY", "8.4"),
    ("[[reply_to_current]] NO_REPLY", "8.1"),  # tags are removed first
    ("[[reply_to_current] NO_REPLY", "8.1"),  # and a malformed prefix
]


@pytest.mark.parametrize(("text", "rule"), SILENT)
def test_silent_replies_are_emptied_and_explained(text: str, rule: str) -> None:
    r = parse_reply(text, current_message_id=M)
    assert r.is_silent
    assert r.text == ""
    assert rebuild(r) == text
    (d,) = [d for d in r.diagnostics if d.code == "reply.silent"]
    assert f"rule {rule}" in d.message
    assert (d.start, d.end) == (0, len(text))
    assert not any(d.code == "reply.silent_with_media" for d in r.diagnostics)


def test_silent_with_media_keeps_the_media() -> None:
    text = "NO_REPLY\nMEDIA:https://example.com/a.png"
    r = parse_reply(text)
    assert r.is_silent and r.text == ""
    assert r.media_urls == ["https://example.com/a.png"]
    codes = {d.code: d.severity for d in r.diagnostics}
    assert codes["reply.silent"] == "info"
    assert codes["reply.silent_with_media"] == "warning"
    assert rebuild(r) == text


def test_custom_silent_token() -> None:
    assert parse_reply("HUSH", silent_token="HUSH").is_silent
    assert not parse_reply("NO_REPLY", silent_token="HUSH").is_silent
    assert parse_reply("NO_REPLY", silent_token="HUSH").text == "NO_REPLY"


def test_not_silent_keeps_text() -> None:
    r = parse_reply("NO_REPLY but here is the answer")
    assert not r.is_silent
    assert r.text == "NO_REPLY but here is the answer"
    assert not any(d.code.startswith("reply.silent") for d in r.diagnostics)


# --------------------------------------------------------------------------- diagnostics


def test_malformed_prefix_is_explained_once() -> None:
    text = "[[reply_to_current] Hello"
    r = parse_reply(text, current_message_id=M)
    codes = [d.code for d in r.diagnostics]
    assert codes == ["tag.malformed_prefix_stripped"]
    d = r.diagnostics[0]
    assert d.severity == "warning"
    assert d.start == 0 and d.end is not None and text[d.start : d.end].startswith("[[reply_to")
    assert [s.kind for s in r.spans] == ["reply_prefix"]


def test_a_malformed_tag_that_stays_is_still_reported() -> None:
    r = parse_reply("Hi [[reply_to_current] Hello", current_message_id=M)
    assert [d.code for d in r.diagnostics] == ["tag.malformed"]
    assert "stays visible" in r.diagnostics[0].message


def test_current_without_id_depends_on_the_current_message_id() -> None:
    codes = [d.code for d in parse_reply("[[reply_to_current]] hi").diagnostics]
    assert codes == ["tag.current_without_id"]
    assert parse_reply("[[reply_to_current]] hi", current_message_id=M).diagnostics == []


def test_reply_tag_spans_and_diagnostics_refer_to_the_input() -> None:
    text = "Intro\nMEDIA:https://example.com/a.png\n[[reply_to: a\u0001b ]] tail"
    r = parse_reply(text)
    assert r.reply_to_id == "ab"
    (span,) = [s for s in r.spans if s.kind == "reply_tag"]
    assert text[span.start : span.end] == "[[reply_to: a\u0001b ]]"
    assert span.value == "ab"
    (d,) = [d for d in r.diagnostics if d.code == "tag.reply_id_sanitized"]
    assert d.start is not None and d.end is not None
    assert text[d.start : d.end] == "a\u0001b"
    assert rebuild(r) == text


def test_diagnostics_are_sorted_and_inside_the_input() -> None:
    text = "[[reply_to:a]] [[reply_to:b]]\nMEDIA:http://x.com/a.png\n`[[audio_as_voice]]` [[x]]"
    r = parse_reply(text)
    starts = [(d.start, d.code) for d in r.diagnostics]
    assert starts == sorted(starts, key=lambda t: (t[0] or 0, t[1]))
    for d in r.diagnostics:
        assert d.start is not None and d.end is not None
        assert 0 <= d.start <= d.end <= len(text)


# --------------------------------------------------------------------------- lossless


PIECES = [
    "Hello",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\r\n",
    "\t",
    "[[reply_to_current]]",
    "[[reply_to:abc]]",
    "[[reply_to: ]]",
    "[[reply_to_current]",
    "[[audio_as_voice]]",
    "[[",
    "]]",
    "[",
    "MEDIA:https://example.com/a.png",
    "MEDIA:file:///srv/a%20b.png",
    "MEDIA:/srv/x.png",
    "MEDIA:http://x.com/a.png",
    "NO_REPLY",
    "```",
    "`",
    "    ",
    '[embed ref="cv_1" /]',
    "<think>x</think>",
    "\u00a0",
    "\u2028",
    "é",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14), st.sampled_from([None, "M", " "]))
def test_rebuild_is_lossless(parts: list[str], current: str | None) -> None:
    text = "".join(parts)
    r = parse_reply(text, current_message_id=current)
    assert rebuild(r) == text
    assert r.spans == sorted(r.spans, key=lambda s: (s.start, s.end))
    edits = [Edit(e.start, e.end, e.removed, e.inserted) for e in r.edits]
    assert all(a.end <= b.start for a, b in itertools.pairwise(edits))
    for e in edits:
        assert text[e.start : e.end] == e.removed
    for s in r.spans:
        assert 0 <= s.start <= s.end <= len(text)
    if r.is_silent:
        assert r.text == ""


def test_rebuild_on_the_reply_corpus() -> None:
    """The realistic corpus (generated in memory, as benchmarks/bench.py does) rebuilds."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import make_corpus

    replies, _meta = make_corpus.make_replies(20260520, 2400)
    for text in replies[::8]:
        for profile in ("next", "release-2026.9.6"):
            assert rebuild(parse_reply(text, profile=profile, explain=True)) == text


HOSTILE = [
    "[[" * 100_000,
    "[[reply_to_current]" + " x" * 50_000,
    "  [[reply_to:" + "a" * 200_000,
    "[[reply_to:" + " " * 200_000,
    "[[audio_as_voice]] " * 20_000,
    "\x00NO_REPLY\x00",
    "\ud800[[reply_to_current]]\udfff hi",
    "a\r\n[[reply_to_current]]\r\nb",
    "a\u2028[[reply_to:x]]\u2028b",
    "NO_REPLY " * 100_000,
    "MEDIA:file:///" + "%41" * 50_000,
    "<think" * 50_000,
    "`" * 50_000 + "[[reply_to_current]]",
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_inputs(text: str) -> None:
    r = parse_reply(text, current_message_id=M)
    assert rebuild(r) == text
    assert isinstance(r.is_silent, bool)


def test_hostile_expectations() -> None:
    assert parse_reply("NO_REPLY " * 100_000).is_silent
    r = parse_reply("[[reply_to_current]" + " x" * 1000)
    assert r.text == ("x " * 1000).strip()
    assert parse_reply("\x00NO_REPLY\x00").text == "\x00NO_REPLY\x00"


def test_tag_freed_from_code_by_an_earlier_removal_is_stripped_and_explained() -> None:
    # Line 3's fence runs to the end while the reply tags sit on line 1, so the audio tag is
    # code for split_media; removing the reply tags turns line 1 into a fence that closes on
    # line 3, the tag is prose again, and the delivery strip removes it (TAGS.md §7.1).
    text = "[[reply_to_current]][[reply_to:1]]```\n\n```\n[[audio_as_voice]]\n"
    reply = parse_reply(text)
    assert reply.text == "```\n\n```"
    assert reply.audio_as_voice is False and reply.reply_to_id == "1"
    found = {d.code: text[d.start : d.end] for d in reply.diagnostics if d.start is not None}
    assert found["tag.stripped_on_delivery"] == "[[audio_as_voice]]"
    # The span of a finding made on trimmed text stops at the tag, not at the trimmed break.
    assert found["tag.in_code"] == "[[audio_as_voice]]"
    assert rebuild(reply) == text


def _scheme_is_file_by_the_parser(ref: str) -> bool:
    """The WHATWG scheme of ``ref`` is ``file`` (the oracle of the scheme pre-check)."""
    from richout.policy.remote import whatwg_parse

    parts = whatwg_parse(ref)
    return parts is not None and parts.get("protocol") == "file:"


@settings(max_examples=800, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *("f", "F", "file:", "FiLe:", "ile:", "\t", "\n", " ", "\x00", "\x1f"),
                *("\x7f", "é", "/", "x", ":", "//", "tmp", "%2F", "https:", "ﬁle:"),
            ]
        ),
        max_size=8,
    ).map("".join)
)
def test_the_file_scheme_precheck_agrees_with_the_url_parser(ref: str) -> None:
    """A reference the pre-check rules out never parses as a file: URL; one it lets through
    converts exactly as the parser says."""
    from richout.policy.fileurl import has_file_scheme

    if not has_file_scheme(ref):
        assert not _scheme_is_file_by_the_parser(ref), repr(ref)
    elif _scheme_is_file_by_the_parser(ref):
        assert ref.lstrip("".join(map(chr, range(33))))[:1] in ("f", "F")
