"""StreamingParser (TAGS.md §9): every row of the §9.3 table, each hold-back rule, the
separator quirk, sticky reply state, finish, diagnostics and hostile streams."""

from __future__ import annotations

import pytest

from richout.errors import InvalidInput
from richout.models import StreamChunk
from richout.views.reply import parse_reply
from richout.views.streaming import StreamingParser


def _feed_all(*chunks: str, finish: bool = False) -> list[StreamChunk | None]:
    sp = StreamingParser()
    out = [sp.feed(c) for c in chunks]
    if finish:
        out.append(sp.finish())
    return out


def _texts(chunks: list[StreamChunk | None]) -> list[str | None]:
    return [None if c is None else c.text for c in chunks]


# --------------------------------------------------------------------------- §9.3 table


def test_row_partial_tag_then_completion() -> None:
    first, second = _feed_all("Hello [[rep", "ly_to_current]] world")
    assert first is not None and first.text == "Hello"
    assert not first.reply_to_current
    assert second is not None and second.text == "world"
    assert second.reply_to_current and second.reply_to_tag


def test_row_tag_only_chunk_applies_to_the_next() -> None:
    first, second = _feed_all("[[reply_to:42]]", "Answer")
    assert first is None
    assert second is not None and second.text == "Answer"
    assert second.reply_to_id == "42" and second.reply_to_tag
    assert second.reply_to_explicit_id is None  # the explicit id was in the earlier chunk


def test_row_held_bracket_gets_its_space_back() -> None:
    assert _texts(_feed_all("see [", "link](x)")) == ["see", " [link](x)"]


def test_row_media_line_is_held_until_its_line_ends() -> None:
    assert _texts(_feed_all("Done\nMED", "IA:/srv/a.png\n")) == ["Done\n", "MEDIA:/srv/a.png\n"]


def test_row_silent_token() -> None:
    assert _feed_all("NO_REPLY", finish=True) == [None, None]


def test_row_silent_prefix_then_the_rest() -> None:
    assert _texts(_feed_all("NO", "_REPLY")) == [None, "_REPLY"]


# --------------------------------------------------------------------------- §9.2 hold-back

HOLDS = [
    # (fed, emitted text of the call, held tail, rules named)
    ("a [[x", "a", "[[x", [1]),
    ("a [[x]] b [[y", "a [[x]] b", "[[y", [1]),
    ("a [[x]] b", "a [[x]] b", "", []),
    ("[[a]] [[", "[[a]]", "[[", [1]),
    ("[[[x", None, "[[[x", [1]),  # the first open "[[" starts the held construct
    ("Hi [[ab [[reply_to", "Hi", "[[ab [[reply_to", [1]),  # an earlier open "[[" too
    ("[[reply_to_current][[x", None, "[[reply_to_current][[x", [1]),
    ("[[a]] b [[c [[d", "[[a]] b", "[[c [[d", [1]),  # "]]" closes what came before
    ("see [", "see", "[", [2]),
    ("x [[a]] [", "x [[a]]", "[", [2]),
    ("[[a [", None, "[[a [", [1]),  # rule 1 holds more than rule 2
    ("Done\nMEDIA:/srv/a", "Done\n", "MEDIA:/srv/a", [3]),
    ("Done\n  media: x", "Done\n", "  media: x", [3]),
    ("Done\n\u00a0MEDIA:x", "Done\n", "\u00a0MEDIA:x", [3]),
    ("MEDIA:/srv/a", None, "MEDIA:/srv/a", [3]),
    ("Done\n  me", "Done\n", "  me", [4]),
    ("Done\nMEDIA", "Done\n", "MEDIA", [4]),
    ("Done\n\tmedi", "Done\n", "\tmedi", [4]),
    ("Done\nMEDIAX", "Done\nMEDIAX", "", []),
    ("Done\n\u00a0M", "Done\n", "\u00a0M", [4]),  # any JavaScript whitespace indents
    ("Done\n  ", "Done\n", "  ", [4]),  # blanks may still be followed by MEDIA:
    ("Done\nMEDı", "Done\n", "MEDı", [4]),  # upper-cased, a MEDIA: prefix
    ("Done\nMEDıA:x ", "Done\n", "MEDıA:x ", [3]),  # a directive in release-2026.9.6
    ("Done\nM\r", "Done\nM\r", "", []),
    ("See MEDIA:/x", "See MEDIA:/x", "", []),
    # Rule 3 moves the hold point, but rule 1 already asked for the trim (as the reference).
    ("a\nMEDIA:x [[y", "a", "MEDIA:x [[y", [3]),
]


@pytest.mark.parametrize(("fed", "emitted", "held", "rules"), HOLDS)
def test_hold_back_rules(fed: str, emitted: str | None, held: str, rules: list[int]) -> None:
    sp = StreamingParser()
    chunk = sp.feed(fed)
    assert (None if chunk is None else chunk.text) == emitted
    assert sp.held == held
    assert sp.consumed == len(fed) - len(held)
    found = [d for d in sp.diagnostics if d.code == "stream.held"]
    if not rules:
        assert found == []
        return
    (d,) = found
    assert (d.start, d.end) == (len(fed) - len(held), len(fed))
    for r in rules:
        assert f"rule 9.2.{r}" in d.message
    if chunk is not None:
        assert d in chunk.diagnostics


def test_trimmed_whitespace_becomes_the_held_separator() -> None:
    sp = StreamingParser()
    first = sp.feed("x   [")
    assert first is not None and first.text == "x"
    second = sp.feed("y")
    assert second is not None and second.text == "   [y"
    # The separator is kept verbatim and only for a text that starts with "[".
    sp = StreamingParser()
    sp.feed("x  [[")
    second = sp.feed("reply_to_current]] z")
    assert second is not None and second.text == "z"


def test_separators_accumulate_while_nothing_is_emitted() -> None:
    sp = StreamingParser()
    assert sp.feed("a [") is not None
    assert sp.feed("[") is None  # "[[" held, nothing emitted, the separator stays
    third = sp.feed("x]]")
    assert third is not None and third.text == " [[x]]"


def test_media_hold_does_not_trim() -> None:
    sp = StreamingParser()
    first = sp.feed("Done  \nMEDIA:/a")
    assert first is not None and first.text == "Done  \n"
    second = sp.feed(".png\nafter")
    assert second is not None and second.text == "MEDIA:/a.png\nafter"


def test_finish_holds_nothing() -> None:
    sp = StreamingParser()
    assert sp.feed("Done\nMEDIA:/srv/a.png") is not None
    last = sp.finish()
    assert last is not None and last.text == "MEDIA:/srv/a.png"
    assert sp.held == "" and sp.consumed == len(sp.text)


# --------------------------------------------------------------------------- §9.3 processing


def test_directives_are_read_per_chunk() -> None:
    chunk = StreamingParser().feed("Hi [[reply_to_current]] there [[audio_as_voice]]")
    assert chunk is not None
    assert chunk.text == "Hi there"
    assert chunk.reply_to_current and chunk.reply_to_tag and chunk.audio_as_voice


def test_a_voice_only_chunk_is_returned() -> None:
    chunk = StreamingParser().feed("[[audio_as_voice]]")
    assert chunk is not None and chunk.text == "" and chunk.audio_as_voice


def test_unrecognised_brackets_leave_the_text_alone() -> None:
    chunk = StreamingParser().feed("  [[tts:x]]  ")
    assert chunk is not None and chunk.text == "  [[tts:x]]  "


SILENT_CHUNKS = [
    ("NO_REPLY", None),
    ("  no_reply \n NO_REPLY ", None),
    ("**NO_REPLY**", None),
    ("NO_", None),
    ("NO", None),
    ("No", "No"),
    ("NOPE", "NOPE"),
    ("NO_REPLYhello", "hello"),
    ("NO_REPLY\n\nHi there", "Hi there"),
    ("NO_REPLY Hi", "NO_REPLY Hi"),
    ("Hi NO_REPLY", "Hi NO_REPLY"),
    ("[[reply_to_current]] NO_REPLY", None),
]


@pytest.mark.parametrize(("fed", "text"), SILENT_CHUNKS)
def test_silent_handling_per_chunk(fed: str, text: str | None) -> None:
    chunk = StreamingParser().feed(fed)
    assert (None if chunk is None else chunk.text) == text


def test_silent_flag_is_reported_when_a_chunk_still_returns() -> None:
    chunk = StreamingParser().feed("[[audio_as_voice]] NO_REPLY")
    assert chunk is not None and chunk.is_silent and chunk.text == "" and chunk.audio_as_voice


def test_custom_token() -> None:
    sp = StreamingParser(silent_token="HUSH")
    assert sp.feed("HUSH") is None
    # A letters-only token is only silent whole: its prefixes may be ordinary words.
    hu = sp.feed("HU")
    assert hu is not None and hu.text == "HU"
    chunk = StreamingParser(silent_token="HUSH").feed("NO_REPLY")
    assert chunk is not None and chunk.text == "NO_REPLY"


def test_reply_state_is_sticky_until_reset() -> None:
    sp = StreamingParser()
    assert sp.feed("[[reply_to:42]]") is None
    a, b = sp.feed("a"), sp.feed("b")
    assert a is not None and b is not None
    assert (a.reply_to_id, b.reply_to_id) == ("42", "42")
    c = sp.feed("[[reply_to:7]] c")
    assert c is not None and c.reply_to_id == "7" and c.reply_to_explicit_id == "7"
    d = sp.feed("[[reply_to_current]] d")
    assert d is not None and d.reply_to_id == "7" and d.reply_to_current
    e = sp.feed("e")
    assert e is not None and e.reply_to_current and e.reply_to_tag
    sp.reset()
    f = sp.feed("f")
    assert f is not None
    assert (f.reply_to_id, f.reply_to_current, f.reply_to_tag) == (None, False, False)
    assert (f.raw_start, f.raw_end) == (0, 1)


def test_delivery_strip_applies_at_finish_before_any_text() -> None:
    sp = StreamingParser()
    assert sp.feed("[[reply_to_current] Hello") is None  # an unclosed "[[" is held
    last = sp.finish()
    assert last is not None and last.text == "Hello"
    codes = [d.code for d in last.diagnostics]
    assert codes == ["tag.malformed_prefix_stripped"]
    d = last.diagnostics[0]
    assert (d.start, d.end) == (0, len("[[reply_to_current]"))


def test_delivery_strip_is_skipped_once_text_was_returned() -> None:
    sp = StreamingParser()
    assert sp.feed("ok\n") is not None
    last = sp.finish("[[reply_to_current] Hello")
    assert last is not None and last.text == "[[reply_to_current] Hello"


# --------------------------------------------------------------------------- spans, result


def test_raw_spans_and_consumed() -> None:
    sp = StreamingParser()
    a = sp.feed("Hello [[rep")
    assert a is not None and (a.raw_start, a.raw_end) == (0, 6)
    assert sp.consumed == 6 and sp.held == "[[rep"
    b = sp.feed("ly_to:1]] x")
    assert b is not None and (b.raw_start, b.raw_end) == (6, 22)
    assert sp.feed("") is None
    assert sp.consumed == 22
    assert sp.text == "Hello [[reply_to:1]] x"


def test_result_is_parse_reply_of_everything_fed() -> None:
    sp = StreamingParser()
    for piece in ("[[reply_to_current]] Hi\nMED", "IA:https://example.com/a.png\n", "[[audio_"):
        sp.feed(piece)
    sp.finish("as_voice]]")
    whole = sp.text
    assert sp.result("M").to_wire() == parse_reply(whole, current_message_id="M").to_wire()
    assert sp.result("M").media_urls == ["https://example.com/a.png"]


def test_wire_form() -> None:
    chunk = StreamingParser().feed("Hi")
    assert chunk is not None
    assert chunk.to_wire() == {
        "text": "Hi",
        "replyToCurrent": False,
        "replyToTag": False,
        "audioAsVoice": False,
        "isSilent": False,
        "rawStart": 0,
        "rawEnd": 2,
    }


def test_diagnostics_use_fed_offsets_and_lines() -> None:
    sp = StreamingParser()
    sp.feed("line one\nline two ")
    chunk = sp.feed("[[reply_to: a\u0001b ]] x")
    assert chunk is not None
    (d,) = [d for d in chunk.diagnostics if d.code == "tag.reply_id_sanitized"]
    assert d.start is not None and d.end is not None
    assert sp.text[d.start : d.end] == "a\u0001b"
    assert (d.line, d.column) == (2, 22)
    assert not any(d.code == "tag.current_without_id" for d in sp.diagnostics)


@pytest.mark.parametrize("profile", ["next", "release-2026.9.6"])
@pytest.mark.parametrize(
    "pieces", [["[[reply_to_current]] hi"], ["a ", "[[reply_to_current]]", " b"]]
)
def test_a_stream_says_nothing_of_a_missing_current_id(profile: str, pieces: list[str]) -> None:
    """A stream reads reply tags without a current message id by design, so
    ``tag.current_without_id`` would only be noise, under every profile: ``next``'s read
    leaves it out, the release's explained parse makes it and the parser drops it."""
    sp = StreamingParser(profile=profile)
    chunks = [sp.feed(p) for p in pieces] + [sp.finish()]
    assert any(c is not None and c.reply_to_current for c in chunks)
    assert not any(d.code == "tag.current_without_id" for d in sp.diagnostics)
    for c in chunks:
        assert c is None or not any(d.code == "tag.current_without_id" for d in c.diagnostics)


def test_bad_arguments_raise_typed_errors() -> None:
    with pytest.raises(InvalidInput):
        StreamingParser().feed(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        StreamingParser(silent_token=3)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- hostile streams


def test_a_long_unclosed_tag_stays_held_and_is_flushed() -> None:
    sp = StreamingParser()
    assert sp.feed("intro [[") is not None
    for _ in range(30_000):
        assert sp.feed("x") is None
    assert sp.held == "[[" + "x" * 30_000
    last = sp.finish()
    # The space trimmed before the held "[[" is restored: the text starts with "[".
    assert last is not None and last.text == " [[" + "x" * 30_000
    assert sp.consumed == len(sp.text)


def test_a_long_media_line_is_held_until_its_newline() -> None:
    sp = StreamingParser()
    sp.feed("MEDIA:")
    for _ in range(30_000):
        assert sp.feed("y") is None
    chunk = sp.feed("\nafter")
    assert chunk is not None and chunk.text == "MEDIA:" + "y" * 30_000 + "\nafter"


@pytest.mark.parametrize(
    "pieces",
    [
        ["[", "[", "x"] * 5_000,
        [" "] * 30_000,
        ["NO_REPLY "] * 20_000,
        ["\n", "M"] * 10_000,
        ["\x00", "\ud800", "\r\n", "\u2028", "[["] * 4_000,
        ["a" * 200_000 + "[[" + "b" * 200_000],
    ],
    ids=["brackets", "spaces", "tokens", "m-lines", "binary", "one-huge-chunk"],
)
def test_hostile_streams_partition_the_text(pieces: list[str]) -> None:
    sp = StreamingParser()
    consumed = 0
    for piece in [*pieces, None]:
        chunk = sp.finish() if piece is None else sp.feed(piece)
        if chunk is not None:
            assert chunk.raw_start == consumed
        consumed = sp.consumed
    assert consumed == len(sp.text) == sum(len(p) for p in pieces)


def _stream_texts(chunks: list[str]) -> tuple[list[str], str]:
    sp = StreamingParser()
    outs = [sp.feed(c) for c in chunks] + [sp.finish()]
    return [o.text for o in outs if o is not None], sp.result().text


def test_chunk_boundary_whitespace_is_judged_per_chunk() -> None:
    # Issue 9, defect 9: each chunk is parsed on its own, as the reference accumulator does,
    # so a tag-bearing chunk loses its trailing space; result() keeps it.
    texts, whole = _stream_texts(["[[reply_to_current]] Sure ", "— here"])
    assert texts == ["Sure", "— here"]
    assert "".join(texts) == "Sure— here"
    assert whole == "Sure — here" == parse_reply("[[reply_to_current]] Sure — here").text
    texts, whole = _stream_texts(["Line one\n", "[[reply_to_current]]\nLine two"])
    assert "".join(texts) == "Line one\nLine two" and whole == "Line one\n\nLine two"
    # Without a tag in the chunk its whitespace is left alone.
    texts, whole = _stream_texts(["Hello ", "world"])
    assert "".join(texts) == whole == "Hello world"


def test_chunk_boundary_whitespace_difference_is_documented() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    upstream = (root / "UPSTREAM.md").read_text(encoding="utf-8")
    doc = StreamingParser.__doc__ or ""
    for text in (readme, doc):
        assert '"[[reply_to_current]] Sure "' in text and '"Sure— here"' in text
        assert '"Sure — here"' in text
    section = upstream.split("### 2.6", 1)[1].split("### 2.7", 1)[0]
    assert "'Sure— here'" in section and "'Sure — here'" in section


# --------------------------------------------------------------------------- issue 10, item 3
# Each reproducer emitted a held construct in pieces (TAGS.md §9.4) before the fix.


def test_a_tag_whose_id_holds_an_open_bracket_pair_is_held_whole() -> None:
    sp = StreamingParser()
    assert sp.feed("[[reply_to:a [[b") is None  # the first open "[[" holds, not the last
    chunk = sp.feed("]] Hello")
    assert chunk is not None
    assert chunk.text == "Hello"  # no raw tag text reaches the user
    assert chunk.reply_to_id == chunk.reply_to_explicit_id == "a b"  # §2.1 drops the brackets
    assert sp.result().reply_to_id == "a b"


def test_an_nbsp_indented_media_line_is_emitted_in_one_piece() -> None:
    sp = StreamingParser()
    first = sp.feed("Hi\n\u00a0MED")
    assert first is not None and first.text == "Hi\n"
    assert sp.held == "\u00a0MED"
    second = sp.feed("IA:/srv/a.png\n")
    assert second is not None and second.text == "\u00a0MEDIA:/srv/a.png\n"
    assert sp.result().media_urls == ["/srv/a.png"]


@pytest.mark.parametrize("profile", ["next", "release-2026.9.6"])
def test_a_dotless_i_media_line_is_held_until_it_ends(profile: str) -> None:
    # release-2026.9.6 upper-cases "MEDıA:" to "MEDIA:" and lifts the later reference, so
    # the line is a directive there: neither profile emits it before its line feed.
    sp = StreamingParser(profile=profile)
    first = sp.feed("Hi\nMEDıA:x ")
    assert first is not None and first.text == "Hi\n"
    second = sp.feed("MEDIA:/srv/a.png\n")
    assert second is not None and second.text == "MEDıA:x MEDIA:/srv/a.png\n"
    expected = ["/srv/a.png"] if profile == "release-2026.9.6" else []
    assert sp.result().media_urls == expected


def test_current_message_id_resolves_reply_to_current_on_chunks() -> None:
    sp = StreamingParser(current_message_id=" m-1 ")
    chunk = sp.feed("[[reply_to_current]] Hi")
    assert chunk is not None and chunk.reply_to_id == "m-1" and chunk.reply_to_current
    later = sp.feed(" there [[reply_to:42]] ok")
    assert later is not None and later.reply_to_id == "42"  # an explicit id still wins
    assert sp.result().reply_to_id == "42"
    assert StreamingParser().feed("[[reply_to_current]] Hi") == StreamingParser(
        current_message_id=None
    ).feed("[[reply_to_current]] Hi")
    with pytest.raises(InvalidInput):
        StreamingParser(current_message_id=5)  # type: ignore[arg-type]


def test_stream_chunks_are_assembled_as_validation_builds_them() -> None:
    # The parser assembles its chunks directly (stream_chunk); a validated record of the
    # same values is the same record, with the same set fields and wire form.
    p = StreamingParser(current_message_id="m1")
    chunks = [
        p.feed("[[reply_to_current]] Hello "),
        p.feed("there\nMEDIA:/tmp/a"),
        p.feed(".png\n[[reply_to:"),
        p.finish("x9]] NO_REPLY"),
    ]
    seen = [c for c in chunks if c is not None]
    assert len(seen) >= 3
    for chunk in seen:
        fields = {name: getattr(chunk, name) for name in StreamChunk.model_fields}
        validated = StreamChunk(**fields)
        assert chunk == validated
        assert chunk.model_fields_set == validated.model_fields_set
        assert chunk.to_wire() == validated.to_wire()
    assert any(c.diagnostics for c in seen) and any(c.reply_to_current for c in seen)
