"""parse_directives and the tag readers against every table of TAGS.md §1-§6 and §10."""

from __future__ import annotations

from typing import Any

import pytest

from richout import rebuild
from richout.markdown.codemap import CodeMap
from richout.tags.parse import parse_directives, read_audio_tag, read_reply_tag
from richout.tags.scan import ReplyTagReader, TagMatch, grammar_read, sanitize_reply_id
from richout.tags.stages import FoundReply

# --------------------------------------------------------------------------- §1 the tags

# (text, kind or None, id after sanitising); TAGS.md §1.5 table, one row per example.
TAG_TABLE: list[tuple[str, str | None, str | None]] = [
    ("[[reply_to_current]]", "current", None),
    ("[[ Reply_To_Current ]]", "current", None),
    ("[[reply_to_current\n]]", "current", None),
    ("[[reply_to:12345]]", "explicit", "12345"),
    ("[[ reply_to : abc-1 ]]", "explicit", "abc-1"),
    ("[[reply_to:abc def]]", "explicit", "abc def"),
    ("[[reply_to:\nabc]]", "explicit", "abc"),
    ("[[reply_to:abc\n]]", "explicit", "abc"),
    ("[[reply_to:a[b]]", "explicit", "ab"),
    ("[[reply_to: ]]", "explicit", ""),
    ("[[reply_to:]]", None, None),
    ("[[reply_to:\n]]", None, None),
    ("[[reply_to:a\nb]]", None, None),
    ("[[reply_to:a]b]]", None, None),
    ("[[reply_to_current:x]]", None, None),
    ("[[reply_to_currentx]]", None, None),
    ("[[reply-to-current]]", None, None),
    ("[[replyTo:1]]", None, None),
    ("[reply_to_current]", None, None),
    ("[[reply_to_current]", None, None),
    ("[[audio_as_voice]", None, None),
    ("[[reply_to:abc", None, None),
    ("[[AUDIO_AS_VOICE]]", "audio", None),
    ("[[ \n audio_as_voice \n ]]", "audio", None),
    # §1.6: other double-bracket text is not a tag here
    ("[[tts:voice=alloy]]", None, None),
    ("[[as_document]]", None, None),
    ("[[react:thumbsup]]", None, None),
    # ASCII case-insensitivity only: U+017F LONG S folds to "s" in Unicode, not in JavaScript
    ("[[audio_a\u017f_voice]]", None, None),
    ("[[reply_to:\u00a0]]", "explicit", ""),
    ("[[reply_to:\r]]", "explicit", ""),
    ("[[reply_to:\n\n]]", None, None),
    ("[[reply_to:\n \n]]", "explicit", ""),
]


@pytest.mark.parametrize(("text", "kind", "id_"), TAG_TABLE)
def test_tag_table(text: str, kind: str | None, id_: str | None) -> None:
    """A whole-text tag is recognised (and removed) exactly when §1 says so."""
    result = parse_directives(text, current_message_id="M")
    if kind is None:
        assert result.text == text
        assert not result.has_audio_tag and not result.has_reply_tag
        assert result.spans == []
        return
    assert result.text == ""
    assert result.has_audio_tag == (kind == "audio")
    assert result.has_reply_tag == (kind != "audio")
    assert result.reply_to_current == (kind == "current")
    assert result.reply_to_explicit_id == (id_ or None)
    (span,) = result.spans
    assert (span.start, span.end) == (0, len(text))


@pytest.mark.parametrize(("text", "kind", "id_"), TAG_TABLE)
def test_readers_agree_with_the_table(text: str, kind: str | None, id_: str | None) -> None:
    """The shared readers give the same verdict as parse_directives, with the raw id text."""
    audio = read_audio_tag(text, 0)
    reply = read_reply_tag(text, 0)
    if kind == "audio":
        assert audio == TagMatch(0, len(text), "audio") and reply is None
    elif kind is None:
        assert audio is None and reply is None
    else:
        assert audio is None and reply is not None
        assert (reply.start, reply.end, reply.kind, reply.complete) == (0, len(text), kind, True)
        if kind == "explicit":
            assert reply.id_text is not None
            assert sanitize_reply_id(reply.id_text) == id_


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[[reply_to:abc]]]", ("]", "abc")),  # the tag, then a literal "]"
        ("[[[reply_to_current]]]", ("[ ]", None)),  # the inner tag; outer brackets stay
        ("x[[reply_to:a]]y", ("x y", "a")),  # glued to text, mid-word
        ("[[reply_to:1]][[reply_to:2]]", ("", "2")),  # several per line
    ],
)
def test_tags_anywhere(text: str, expected: tuple[str, str | None]) -> None:
    """§1.5: position is never enforced; extra brackets stay literal."""
    result = parse_directives(text)
    assert (result.text, result.reply_to_explicit_id) == expected


def test_reader_offsets_inside_a_text() -> None:
    """Readers read at an offset and report offsets of the whole text."""
    text = "ab [[ audio_as_voice ]] cd [[reply_to: x y ]] ef"
    assert read_audio_tag(text, 3) == TagMatch(3, 23, "audio")
    assert read_audio_tag(text, 2) is None
    assert read_reply_tag(text, 27) == TagMatch(27, 45, "explicit", "x y")
    assert read_reply_tag(text, 28) is None


def test_grammar_reads_the_id_slice() -> None:
    """The grammar's record is the kind and the id text's offsets inside the slice."""
    assert grammar_read("[[audio_as_voice]]") == ("audio", -1, -1)
    assert grammar_read("[[ reply_to_current ]]") == ("current", -1, -1)
    assert grammar_read("[[reply_to: a b \n]]") == ("explicit", 12, 15)
    assert grammar_read("[[reply_to:\t]]") == ("explicit", 0, 0)
    assert grammar_read("[[reply_to:\n]]") is None
    assert grammar_read("[[reply_to_current:x]]") is None


# --------------------------------------------------------------------------- §7.1 prefixes

MALFORMED_PREFIX: list[tuple[str, int, int | None, str | None]] = [
    # (text, pos, end of the malformed prefix or None, kind)
    ("[[reply_to_current] Hello", 0, 20, "current"),
    ("  [[Reply_To_Current] Hello", 2, 22, "current"),
    ("[[reply_to_current Hello", 0, 19, "current"),
    ("[[reply_to_current]\thi", 0, 20, "current"),
    ("[[reply_to:123] Hello", 0, 16, "explicit"),
    ("[[reply_to:", 0, 11, "explicit"),
    ("[[reply_to: ", 0, 12, "explicit"),
    ("[[reply_to_current", 0, 18, "current"),
    ("[[reply_to_currentHello", 0, None, None),
    ("[[reply_to: x Hello", 0, None, None),
    ("[[reply_to:abc\ndef] hi", 0, None, None),
    ("[[reply_to:abc\rdef] hi", 0, None, None),
    ("[[reply_to:abc]] hi", 0, None, None),  # complete, not a prefix
    ("Hi [[reply_to_current] Hello", 3, None, None),
    ("\n[[reply_to_current] hi", 1, None, None),
    ("\t[[reply_to_current] hi", 1, 21, "current"),  # the caller's code check decides
    ("[[audio_as_voice] hi", 0, None, None),
    ("[[reply_to_current]] ", 0, None, None),
]


@pytest.mark.parametrize(("text", "pos", "end", "kind"), MALFORMED_PREFIX)
def test_malformed_leading_prefix(text: str, pos: int, end: int | None, kind: str | None) -> None:
    """§7.1: the reader also reads the malformed prefix at the message's first non-blank."""
    reader = ReplyTagReader(text)
    got = reader.read(pos, allow_leading_malformed=True)
    if end is None:
        assert got is None or got.complete
        return
    assert got == TagMatch(pos, end, kind, None, complete=False)  # type: ignore[arg-type]
    # Without the permission, only complete tags are read.
    assert reader.read(pos) is None


def test_complete_tag_wins_over_the_prefix() -> None:
    """A complete tag at the leading position is returned as such."""
    got = ReplyTagReader("[[reply_to:abc]] [[reply_to_current] hi").read(
        0, allow_leading_malformed=True
    )
    assert got == TagMatch(0, 16, "explicit", "abc")


# --------------------------------------------------------------------------- §2 reply ids


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("abc", "abc"),
        ("  Mixed Case Id  ", "Mixed Case Id"),
        ("a[b]c", "abc"),
        ("x\x01y", "xy"),
        ("\x7fa\x9fb\x80", "ab"),
        ("\x01 abc \x02", "abc"),  # trimmed again after removal
        ("[]", ""),
        ("   ", ""),
        ("", ""),
        ("\u00a0id\u3000", "id"),  # JavaScript whitespace trims
        ("a\x85b", "ab"),  # U+0085 is a control character (Cc)
        ("a\u200bb", "a\u200bb"),  # U+200B is format (Cf), not Cc, and not whitespace
        ("x" * 300, "x" * 256),
        ("\U0001f600" * 300, "\U0001f600" * 256),  # code points, not UTF-16 units
    ],
)
def test_sanitize_reply_id(raw: str, expected: str) -> None:
    """§2.1."""
    assert sanitize_reply_id(raw) == expected


PRECEDENCE: list[tuple[str, str | None, str | None, str | None, bool]] = [
    # (text, currentMessageId, replyToId, replyToExplicitId, replyToCurrent)
    (
        "[[reply_to:first]] a [[reply_to:second]] b [[reply_to_current]]",
        "M",
        "second",
        "second",
        True,
    ),
    ("[[reply_to_current]] a [[reply_to: ]]", "M", "M", None, True),
    ("[[reply_to:x\u0001y]] hi", "M", "xy", "xy", False),
    ("[[reply_to_current]]", "  ", None, None, True),
    ("[[reply_to_current]]", " M ", "M", None, True),
    ("[[reply_to_current]]", None, None, None, True),
    ("[[reply_to_current]] [[reply_to:a]]", "M", "a", "a", True),
    ("[[reply_to:a]] [[reply_to:\x01]]", "M", "a", "a", False),  # an empty id sets nothing
]


@pytest.mark.parametrize(("text", "current", "reply_to", "explicit", "saw_current"), PRECEDENCE)
def test_precedence(
    text: str, current: str | None, reply_to: str | None, explicit: str | None, saw_current: bool
) -> None:
    """§2.2-§2.3: the last explicit id wins, then the current message."""
    result = parse_directives(text, current_message_id=current)
    assert result.reply_to_id == reply_to
    assert result.reply_to_explicit_id == explicit
    assert result.reply_to_current == saw_current
    assert result.has_reply_tag


def test_empty_id_still_counts_as_a_reply_tag() -> None:
    """§2.2: removed, no target, not a current tag."""
    result = parse_directives("Hi [[reply_to:\x01\x02]] there", current_message_id="M")
    assert result.text == "Hi there"
    assert result.has_reply_tag and not result.reply_to_current
    assert result.reply_to_id is None and result.reply_to_explicit_id is None


def test_long_id_is_cut_to_256_code_points() -> None:
    """§2.1: ids longer than 256 code points keep the first 256."""
    result = parse_directives("[[reply_to:" + "\u00e9" * 300 + "]]")
    assert result.reply_to_id == "\u00e9" * 256


# --------------------------------------------------------------------------- §3 code


@pytest.mark.parametrize(
    "text",
    [
        "Use `[[reply_to_current]]` to reply",
        "```\n[[reply_to:abc]]\n```\nHi",
        "Para\n\n    [[reply_to:abc]]\n\nHi",
        "Use `x\n[[audio_as_voice]]` ok",
        "\t[[audio_as_voice]]x",
        "~~~\n[[audio_as_voice]]\n~~~",
        "> ```\n> [[reply_to_current]]\n> ```",
        "- item\n\n      [[audio_as_voice]]",
        "``[[audio_as_voice]] ` x``",
    ],
)
def test_tags_in_code_stay_literal(text: str) -> None:
    """§3: a tag whose ``[[`` is in a code region is neither removed nor reported."""
    result = parse_directives(text, current_message_id="M")
    assert result.text == text
    assert not (result.has_audio_tag or result.has_reply_tag or result.reply_to_id)
    assert result.spans == []
    assert {d.code for d in result.diagnostics} == {"tag.in_code"}


def test_reply_code_regions_come_from_the_text_after_audio_removal() -> None:
    """§3.2: removing an audio tag can change what is code for the reply stage."""
    # In the input the indented line continues the paragraph "[[audio_as_voice]]"; once that
    # line is gone it follows an empty line and is an indented code block.
    text = "[[audio_as_voice]]\n    [[reply_to:abc]]"
    assert parse_directives(text, strip_audio_tag=False).has_reply_tag
    result = parse_directives(text)
    assert result.has_audio_tag and not result.has_reply_tag
    assert result.text == "    [[reply_to:abc]]"
    assert [d.code for d in result.diagnostics] == ["tag.in_code"]
    assert rebuild(result) == text


def test_in_code_span_searching_resumes_after_the_tag() -> None:
    """§4.2: a tag in code is skipped whole, so a tag inside its value is not read."""
    text = "`[[reply_to:a[[reply_to_current]]` b"
    result = parse_directives(text)
    assert result.text == text
    assert not result.has_reply_tag


# --------------------------------------------------------------------------- §4 recognition


def test_reply_tag_value_hides_later_heads() -> None:
    """§4.2: reading resumes after a tag, so heads inside its value are not tags."""
    result = parse_directives("[[reply_to:a[[reply_to_current]]")
    assert result.reply_to_explicit_id == "areply_to_current"
    assert not result.reply_to_current


def test_audio_first_then_reply_on_the_closed_text() -> None:
    """§4.1-§4.2: removing an audio tag can form a reply tag from the pieces around it."""
    result = parse_directives("[[[[audio_as_voice]]reply_to_current]]", current_message_id="M")
    assert result.has_audio_tag and result.reply_to_current
    assert result.text == ""
    assert rebuild(result) == "[[[[audio_as_voice]]reply_to_current]]"


# --------------------------------------------------------------------------- §5 closing

CLOSING: list[tuple[str, str]] = [
    ("Hello[[audio_as_voice]]world", "Hello world"),
    ("Hello [[audio_as_voice]] world", "Hello world"),
    ("a[[audio_as_voice]],b", "a ,b"),
    ("Hello[[audio_as_voice]][[reply_to_current]]World", "Hello World"),
    ("[[audio_as_voice]] Hello", "Hello"),
    ("Line1\n[[audio_as_voice]] Hello", "Line1\n Hello"),
    ("Hello [[audio_as_voice]]\nNext", "Hello\nNext"),
    ("Hello [[audio_as_voice]]  \n\nNext", "Hello\n\nNext"),
    ("A\n[[audio_as_voice]]\nB", "A\n\nB"),
    ("A\n\n\n[[audio_as_voice]]\n\n\nB", "A\n\n\nB"),
    ("A\n\n[[reply_to_current]]\n\n\nB", "A\n\nB"),
    ("A  \n[[reply_to_current]]  \nB", "A  \n\nB"),
    ("Hi\r\n[[audio_as_voice]]\r\nBye", "Hi\r\n\r\nBye"),
    ("A  b [[reply_to_current]]  c  d", "A  b c  d"),
    ("[[reply_to:abc]]] hi", "] hi"),
    ("[[[reply_to_current]]]", "[ ]"),
    ("x\n \t[[audio_as_voice]] y", "x\n \t y"),
    ("[[audio_as_voice]]\n\n    code", "    code"),
    ("Text [[audio_as_voice]]\n\n```\ncode  \n\n ", "Text\n\n```\ncode  \n\n "),
    ("\n\nHello", "Hello"),
    (" One", "One"),
    ("\n\nHello [[x]]", "\n\nHello [[x]]"),
    # the NBSP rule of §5
    ("a\u00a0[[audio_as_voice]]\u00a0b", "a\u00a0 \u00a0b"),
    # more of §5's cases, worked by hand
    ("a [[audio_as_voice]] [[audio_as_voice]] b", "a b"),
    ("a\r[[audio_as_voice]]\rb", "a\r\rb"),
    ("A\n\n[[audio_as_voice]]\n[[reply_to_current]]\n\nB", "A\n\nB"),
    ("  [[audio_as_voice]]  [[audio_as_voice]]  y", "      y"),
    ("a [[audio_as_voice]]\t\n b", "a\n b"),
    ("\n  Two", "  Two"),
    ("\r\n \tx", " \tx"),
    ("\r\rx ", "\r\rx"),
    ("\n\n\n", ""),
    ("x\u2028", "x"),
]


@pytest.mark.parametrize(("text", "expected"), CLOSING)
def test_closing_and_boundaries(text: str, expected: str) -> None:
    """§5 and §5.1 tables, and the lossless record of every change."""
    result = parse_directives(text)
    assert result.text == expected
    assert rebuild(result) == text


def test_closing_is_per_pass() -> None:
    """§5: the audio pass is closed before reply tags are read; each site only once."""
    # Audio pass: "A [[reply_to_current]] B" (case 3). Reply pass: "A B".
    result = parse_directives("A [[audio_as_voice]] [[reply_to_current]] B")
    assert result.text == "A B"


# --------------------------------------------------------------------------- §6 the function


def test_empty_text() -> None:
    """§6.1."""
    result = parse_directives("")
    assert result.to_wire() == {
        "text": "",
        "audioAsVoice": False,
        "replyToCurrent": False,
        "hasAudioTag": False,
        "hasReplyTag": False,
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [("\n\nHello\n\n", "Hello"), (" One ", "One"), ("  Two", "  Two"), ("plain", "plain")],
)
def test_text_without_brackets_gets_boundaries_only(text: str, expected: str) -> None:
    """§6.2."""
    result = parse_directives(text, current_message_id="M")
    assert result.text == expected
    assert not (result.has_audio_tag or result.has_reply_tag or result.reply_to_id)
    assert rebuild(result) == text


def test_brackets_without_tags_leave_the_text_alone() -> None:
    """§6.3: no tag recognised, text returned unchanged (no boundary normalisation)."""
    text = "\n\n  [[as_document]]  \n"
    result = parse_directives(text)
    assert result.text == text
    assert result.edits == []


@pytest.mark.parametrize(
    ("text", "options", "expected"),
    [
        ("x [[audio_as_voice]] y", {"strip_audio_tag": False}, "x [[audio_as_voice]] y"),
        (" [[audio_as_voice]] y ", {"strip_audio_tag": False}, "[[audio_as_voice]] y"),
        ("x [[reply_to:1]] y", {"strip_reply_tags": False}, "x [[reply_to:1]] y"),
        # split_media's mode (MEDIA.md §3 step 6, §11)
        ("Hi [[reply_to_current]]", {"strip_reply_tags": False}, "Hi [[reply_to_current]]"),
        (
            "Hi [[audio_as_voice]] [[reply_to:1]]",
            {"strip_reply_tags": False},
            "Hi [[reply_to:1]]",
        ),
        ("\n\nHi [[reply_to:1]]  ", {"strip_reply_tags": False}, "Hi [[reply_to:1]]"),
        (
            "Hi [[audio_as_voice]] [[reply_to:1]]",
            {"strip_audio_tag": False, "strip_reply_tags": False},
            "Hi [[audio_as_voice]] [[reply_to:1]]",
        ),
    ],
)
def test_strip_options(text: str, options: dict[str, Any], expected: str) -> None:
    """§6: unstripped tags stay in the text but are still reported and still normalise."""
    result = parse_directives(text, **options)
    assert result.text == expected
    assert result.has_audio_tag == ("audio_as_voice" in text)
    assert result.has_reply_tag == ("reply_to" in text)
    assert rebuild(result) == text


def test_wire_shape() -> None:
    """§6 output keys: absent ids are not serialized; edits and spans are."""
    wire = parse_directives("Hi [[reply_to:abc]]", current_message_id="M").to_wire()
    assert wire["text"] == "Hi"
    assert wire["replyToId"] == wire["replyToExplicitId"] == "abc"
    assert wire["spans"] == [{"kind": "reply_tag", "start": 3, "end": 19, "value": "abc"}]
    assert wire["edits"] == [
        {"start": 2, "end": 19, "removed": " [[reply_to:abc]]", "inserted": ""}
    ]
    assert "diagnostics" not in wire


def test_spans_point_at_the_input() -> None:
    """One span per recognised tag outside code, in input offsets, sorted."""
    text = "[[reply_to:x]] a `[[audio_as_voice]]` [[audio_as_voice]] b [[reply_to_current]]"
    result = parse_directives(text)
    got = [(s.kind, text[s.start : s.end], s.value) for s in result.spans]
    assert got == [
        ("reply_tag", "[[reply_to:x]]", "x"),
        ("audio_tag", "[[audio_as_voice]]", None),
        ("reply_tag", "[[reply_to_current]]", None),
    ]


# --------------------------------------------------------------------------- §10 diagnostics

DIAGNOSTICS: list[tuple[str, str | None, list[tuple[str, str, int, int]]]] = [
    # (text, currentMessageId, [(code, severity, start, end)])
    ("`[[reply_to_current]]`", "M", [("tag.in_code", "info", 1, 21)]),
    ("```\n[[audio_as_voice]]\n```", None, [("tag.in_code", "info", 4, 22)]),
    ("[[reply_to_current] Hi", "M", [("tag.malformed", "warning", 0, 22)]),
    ("[[reply_to:]] x", "M", [("tag.malformed", "warning", 0, 13)]),
    ("[[reply_to:a\nb]]", "M", [("tag.malformed", "warning", 0, 12)]),
    ("[[reply_to:a]b]]", "M", [("tag.malformed", "warning", 0, 16)]),
    ("[[audio_as_voice]", None, [("tag.malformed", "warning", 0, 17)]),
    ("[[ audio_as_voice x]] y", None, [("tag.malformed", "warning", 0, 21)]),
    ("a [[reply_to_currentx]]", "M", [("tag.malformed", "warning", 2, 23)]),
    ("[[reply_to:abc", "M", [("tag.malformed", "warning", 0, 14)]),
    ("[[as_document]] Report", None, [("tag.unknown", "info", 0, 15)]),
    ("[[reply-to-current]]", "M", [("tag.unknown", "info", 0, 20)]),
    ("x [[tts:voice=alloy]]", None, [("tag.unknown", "info", 2, 21)]),
    ("[[reply_to:a[b]] hi", "M", [("tag.reply_id_sanitized", "warning", 11, 14)]),
    ("[[reply_to:" + "y" * 300 + "]]", "M", [("tag.reply_id_sanitized", "warning", 11, 311)]),
    ("Hi [[reply_to: ]] there", "M", [("tag.reply_id_empty", "warning", 3, 17)]),
    (
        "[[reply_to:a]] x [[reply_to:b]]",
        "M",
        [("tag.reply_overridden", "info", 0, 14)],
    ),
    (
        "[[reply_to_current]] x [[reply_to:b]]",
        "M",
        [("tag.reply_overridden", "info", 0, 20)],
    ),
    ("[[reply_to_current]] hi", None, [("tag.current_without_id", "info", 0, 20)]),
    ("[[reply_to_current]] hi", " ", [("tag.current_without_id", "info", 0, 20)]),
    ("[[reply_to_current]] hi", "M", []),
    # spans of the reply stage are offsets of the input, past removed audio tags
    (
        "[[audio_as_voice]] x [[reply_to:]] [[reply_to_current]]",
        None,
        [
            ("tag.malformed", "warning", 21, 34),
            ("tag.current_without_id", "info", 35, 55),
        ],
    ),
    # "[[" inside a malformed construct or a tag value is part of it, not another finding
    ("[[reply_to_current [[x]]", "M", [("tag.malformed", "warning", 0, 24)]),
    ("[[reply_to:[[x]]", "M", [("tag.reply_id_sanitized", "warning", 11, 14)]),
    # a wiki link and plain brackets are not directive-looking
    ("see [[ Some Page ]] and [x]", None, []),
    # tag names are ASCII case-insensitive: a tag in other case is a tag, not tag.unknown
    ("[[Reply_To_Current]] hi", "M", []),
    ("[[REPLY_TO:x]] hi [[Audio_As_Voice]]", None, []),
]


@pytest.mark.parametrize(("text", "current", "expected"), DIAGNOSTICS)
def test_diagnostics(
    text: str, current: str | None, expected: list[tuple[str, str, int, int]]
) -> None:
    """§10: one record per construct and reason, spans in input offsets."""
    result = parse_directives(text, current_message_id=current)
    got = [(d.code, d.severity, d.start, d.end) for d in result.diagnostics]
    assert got == expected
    for d in result.diagnostics:
        assert d.message and d.line is not None and d.column is not None


@pytest.mark.parametrize("text", ["hi [[AUDIO_AS_VOICE]] x", "hi [[Audio_As_Voice]]"])
def test_a_kept_audio_tag_in_other_case_is_no_unknown_tag(text: str) -> None:
    """An audio tag left in the text (``strip_audio_tag=False``) is still a tag, whatever its
    case: the ``tag.unknown`` pass must not report it."""
    result = parse_directives(text, strip_audio_tag=False, explain=True)
    assert result.has_audio_tag
    assert [d.code for d in result.diagnostics] == []


def test_malformed_message_says_it_stays_visible() -> None:
    """The message explains the fix and that the text stayed."""
    (d,) = parse_directives("[[reply_to_current] Hi").diagnostics
    assert "stays visible" in d.message and "[[reply_to_current]]" in d.message


def test_empty_id_message_follows_the_strip_option() -> None:
    """tag.reply_id_empty says whether the tag was removed or left in the text."""
    (removed,) = parse_directives("a [[reply_to: ]] b").diagnostics
    (kept,) = parse_directives("a [[reply_to: ]] b", strip_reply_tags=False).diagnostics
    assert "removed" in removed.message and "left in the text" in kept.message


def test_sanitized_message_names_the_original_length() -> None:
    """A cut id's message gives the original length."""
    (d,) = parse_directives("[[reply_to:" + "y" * 300 + "]]").diagnostics
    assert "300" in d.message


def test_malformed_spans_stay_linear_on_many_unclosed_heads() -> None:
    """Each unclosed head is one finding, spanning to its line end."""
    text = "[[reply_to:x\n" * 50
    result = parse_directives(text)
    assert [(d.start, d.end) for d in result.diagnostics] == [
        (13 * i, 13 * i + 12) for i in range(50)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Use `[[reply_to_current]]` here [[audio_as_voice]]",
        "```\n[[audio_as_voice]]\n```\n  ",
        " x",
    ],
)
def test_a_callers_code_map_is_reused_not_trusted_blindly(text: str) -> None:
    """A CodeMap of the same text gives the same result; one of another text is ignored."""
    plain = parse_directives(text)
    parsed = CodeMap(text)
    parsed.full()
    assert parse_directives(text, code_map=parsed) == plain
    assert parse_directives(text, code_map=CodeMap("`[[audio_as_voice]]` " + text)) == plain


def test_user_private_use_characters_next_to_a_tag_are_kept() -> None:
    # The reference marks removal sites with U+E000 runs and would swallow these (UPSTREAM.md
    # 2.3); richout records sites as positions, so only the tag goes.
    assert parse_directives("a\ue000[[audio_as_voice]]b").text == "a\ue000 b"
    assert "\ue000" in parse_directives("\ue000[[reply_to:7]]\ue000").text


def test_a_reused_reply_tag_is_read_in_the_text_the_reusing_run_reads() -> None:
    """``FoundReply.at_stage``: a tag read in a text ``shift`` characters longer in front
    moves back by them, stage and input offsets alike (the input is that text); a tag whose
    input offsets are its stage offsets, read in the same text, is itself."""
    tag = FoundReply(TagMatch(5, 25, "current"), 5, 25, None)
    assert tag.at_stage(0) is tag
    moved = tag.at_stage(2)
    assert (moved.start, moved.end, moved.in_start, moved.in_end) == (3, 23, 3, 23)
    mapped = FoundReply(TagMatch(5, 25, "explicit"), 9, 29, "x")  # (after an audio tag's removal)
    same = mapped.at_stage(0)
    assert same is not mapped
    assert (same.start, same.end, same.in_start, same.in_end, same.id) == (5, 25, 5, 25, "x")
