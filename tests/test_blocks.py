"""BlockStreamer: blocks at safe boundaries, media delivered once (issue 10, item 3).

The properties run on generated replies cut into random chunks. For a completed stream whose
whole reply is not silent they check exactly what richout/gateway/blocks.py promises:

- the blocks' media, in order, equal ``parse_reply``'s ``media_urls`` with repeats removed,
  and the final payload is None (nothing left: no media, no text);
- the blocks' texts, concatenated, equal ``parse_reply``'s text once all JavaScript whitespace
  is removed (``squash``; the comparison ENVELOPE.md §4.1 makes for streamed text);
- no block boundary falls strictly inside a span of a directive of the whole reply, and every
  boundary is a line start.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import richout
from richout import Block, BlockStreamer
from richout.envelope import DeliveryLedger
from richout.errors import InvalidInput
from richout.gateway.blocks import squash

REFS = ["https://example.com/a.png", "/srv/b.png", "./c.mp3", "https://example.com/d.pdf"]

PIECES = [
    "Hello",
    "world",
    " ",
    "\n",
    "\n\n",
    "\n\n\n",
    "\t",
    "\r\n",
    "\u00a0",
    *[f"MEDIA:{r}" for r in REFS],
    *[f"\n  MEDIA:{r}\n" for r in REFS[:2]],
    "\nMEDIA:http://intranet/x.png\n",
    "MEDıA:x ",
    "[[reply_to_current]]",
    "[[reply_to:42]]",
    "[[reply_to:a [[b]]",
    "[[audio_as_voice]]",
    "[[reply_to_current]",
    "[[",
    "]]",
    "[",
    "\n```\n",
    "\n~~~~\n",
    "`",
    "- ",
    "1. ",
    "> ",
    "    ",
    "NO_REPLY",
    "#",
    "x",
]


@st.composite
def cut_reply(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A reply built from the pieces, and a way of cutting it into chunks."""
    text = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=16)))
    if draw(st.booleans()) and len(text) < 80:
        return text, list(text)  # one character at a time
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=10))))
    bounds = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds)]


def _stream(
    chunks: list[str], profile: str = "next", **kw: object
) -> tuple[list[Block], richout.BlockFinish]:
    bs = BlockStreamer(current_message_id="m-1", profile=profile, **kw)  # type: ignore[arg-type]
    blocks = [b for c in chunks for b in bs.feed(c)]
    done = bs.finish()
    return blocks + list(done.blocks), done


@settings(max_examples=600, deadline=None)
@given(cut_reply(), st.sampled_from(["next", "release-2026.9.6"]))
def test_media_once_and_the_text_matches(case: tuple[str, list[str]], profile: str) -> None:
    text, chunks = case
    whole = richout.parse_reply(text, current_message_id="m-1", profile=profile)
    assume(not whole.is_silent)
    blocks, done = _stream(chunks, profile)
    media = [ref for b in blocks for ref in b.media_urls]
    assert media == list(dict.fromkeys(whole.media_urls)), (text, chunks)
    assert [a.reference for b in blocks for a in b.attachments] == media
    assert squash("".join(b.text for b in blocks)) == squash(whole.text), (text, chunks)
    assert done.payload is None, (text, chunks, done.diagnostics)
    assert done.reply == whole
    # Blocks cover disjoint stretches of the fed text, in order (a stretch that yields
    # nothing to send, such as a refused reference, makes no block).
    assert all(a.raw_end <= b.raw_start for a, b in itertools.pairwise(blocks))
    assert all(b.raw_start < b.raw_end <= len(text) for b in blocks)


@settings(max_examples=600, deadline=None)
@given(cut_reply(), st.sampled_from(["next", "release-2026.9.6"]))
def test_no_block_holds_part_of_a_directive(case: tuple[str, list[str]], profile: str) -> None:
    text, chunks = case
    blocks, _ = _stream(chunks, profile)
    spans = richout.parse_reply(text, profile=profile, explain=True).spans
    for b in blocks[:-1]:
        cut = b.raw_end
        assert text[cut - 1] == "\n", (text, cut)  # a line start: no half-written line
        for s in spans:
            assert not s.start < cut < s.end, (text, chunks, s)


def test_a_broken_off_stream_leaves_the_rest_to_the_final_payload() -> None:
    bs = BlockStreamer(current_message_id="m-1")
    first = bs.feed("Here is the chart.\n\nMEDIA:https://example.com/a.png\n\n")
    assert [b.text for b in first] == ["Here is the chart."]  # the media line may continue
    (media,) = bs.feed("And ")  # a new paragraph begins: the media block is complete
    assert media.media_urls == ("https://example.com/a.png",) and media.text == ""
    assert bs.feed("the table:\n") == []
    final = "Here is the chart.\n\nMEDIA:https://example.com/a.png\n\nAnd the table:\n" + (
        "MEDIA:/srv/t.csv"
    )
    done = bs.finish(final, stream_completed=False)
    assert done.blocks == ()
    assert done.payload is not None
    assert done.payload.media_urls == ["/srv/t.csv"]  # the chart is not sent twice
    assert "dedupe.media_removed" in [d.code for d in done.diagnostics]


def test_blocks_wait_for_safe_boundaries() -> None:
    bs = BlockStreamer()
    assert bs.feed("```\ncode\n\n") == []
    assert bs.feed("MEDIA:/srv/in-code.png\n\nstill code\n```\n\n") == []
    (code,) = bs.feed("After")  # the first character of a top-level paragraph cuts
    assert code.text.startswith("```") and code.media_urls == ()
    assert bs.feed(" [[reply_to:a\n\nb") == []  # a "[[" is open: no cut
    assert bs.feed("]] c\n\n[x]\n\n") == []  # a line starting with "[" is never a cut
    assert bs.feed("  indented\n\n") == []
    done = bs.finish()
    assert [b.text for b in done.blocks] == ["After [[reply_to:a\n\nb]] c\n\n[x]\n\n  indented"]
    assert done.payload is None


def test_reply_target_voice_and_ledger() -> None:
    ledger = DeliveryLedger()
    bs = BlockStreamer(current_message_id=" m-9 ", ledger=ledger)
    assert bs.ledger is ledger
    blocks = bs.feed("[[reply_to_current]] Hi [[audio_as_voice]]\n\nMEDIA:./a.mp3\n\n")
    blocks += bs.feed("MEDIA:./a.mp3\n\nBye")
    assert [b.to_payload() for b in blocks] == [
        {"text": "Hi", "replyToId": "m-9"},
        {"mediaUrls": ["./a.mp3"], "audioAsVoice": True, "replyToId": "m-9"},
        # the repeated reference is not sent again; the block has nothing left
    ]
    assert [(a.reference, a.kind, a.voice) for a in blocks[1].attachments] == [
        ("./a.mp3", "audio", True)
    ]
    done = bs.finish()
    assert [b.text for b in done.blocks] == ["Bye"]
    assert done.payload is None  # the text and the voice note were all streamed
    assert done.reply.media_urls == ["./a.mp3", "./a.mp3"]
    evidence = ledger.finalize([{"text": "Hi", "mediaUrls": ["./a.mp3"]}])
    assert evidence.payloads == [None]  # both were recorded, as separate evidence


def test_a_possibly_silent_start_is_not_streamed() -> None:
    bs = BlockStreamer()
    assert bs.feed("NO_REPLY\n\n") == []
    assert bs.feed("x") == []  # "NO_REPLY" alone would be silent: wait for more
    done = bs.finish()
    assert [b.text for b in done.blocks] == [richout.parse_reply("NO_REPLY\n\nx").text]
    silent = BlockStreamer()
    assert silent.feed("NO_REPLY") == []
    finished = silent.finish()
    assert finished.blocks == () and finished.payload is None and finished.reply.is_silent


def test_bad_arguments_raise_typed_errors() -> None:
    with pytest.raises(InvalidInput):
        BlockStreamer(current_message_id=1)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        BlockStreamer(policy="strict")  # type: ignore[arg-type]
    bs = BlockStreamer()
    with pytest.raises(InvalidInput):
        bs.feed(None)  # type: ignore[arg-type]
    bs.finish()
    with pytest.raises(InvalidInput):
        bs.feed("late")


@settings(max_examples=400, deadline=None)
@given(cut_reply(), st.integers(0, 10))
def test_a_broken_off_stream_still_delivers_each_medium_once(
    case: tuple[str, list[str]], stop: int
) -> None:
    text, chunks = case
    whole = richout.parse_reply(text, current_message_id="m-1")
    assume(not whole.is_silent)
    bs = BlockStreamer(current_message_id="m-1")
    blocks = [b for c in chunks[:stop] for b in bs.feed(c)]
    done = bs.finish(text, stream_completed=False)  # the runner's final text is the whole
    assert done.blocks == ()
    streamed = [ref for b in blocks for ref in b.media_urls]
    assert len(streamed) == len(set(streamed))
    final = [] if done.payload is None else (done.payload.media_urls or [])
    assert final == [ref for ref in whole.media_urls if ref not in streamed], (text, chunks)
    assert set(streamed) | set(final) == set(whole.media_urls)


# Message starts that leave no text on their own, but whitespace the whole reply may keep in
# front of what follows (a U+00A0 line; a CR line the release does not treat as blank), then a
# malformed reply prefix that parse_reply keeps or strips depending on that whitespace.
HELD_STARTS = [
    ("\xa0\n\nMEDIA:http://intranet/x.png\n[[reply_to_current]", "next"),
    ("\xa0\n\nMEDIA:http://intranet/x.png\n[[reply_to_current]", "release-2026.9.6"),
    ("\r\nMEDIA:/srv/b.png\n[[reply_to_current]", "next"),
    ("\r\nMEDIA:/srv/b.png\n[[reply_to_current]", "release-2026.9.6"),
    ("\xa0\n\nMEDIA:/srv/b.png\n[[reply_to_current]", "next"),
    ("  \n\nMEDIA:/srv/b.png\n[[reply_to_current]", "next"),
    ("\xa0\n\nMEDIA:/srv/b.png\n[[reply_to_current]\n\nHello", "next"),
    ("\xa0\n\n\xa0\n\nMEDIA:/srv/b.png\n\nMEDIA:/srv/c.png\n[[reply_to:a", "next"),
    ("\n\nMEDIA:/srv/b.png\n\nNO_REPLY", "next"),
    # A start that leaves text a later line changes: a consumed MEDIA: line makes the whole
    # reply drop the leading CR line, so the malformed prefix is at the start and stripped.
    ("\r[[reply_to_current]\n\nHi ]]\n\nMEDIA:/srv/b.png", "next"),
    ("\r[[reply_to_current]\n\nHi ]]\n\nMore text", "next"),
    ("\r[[reply_to_current]\n\nHi ]]\n\nMEDIA:/srv/b.png", "release-2026.9.6"),
    ("  \n\n[[reply_to_current]\n\nHi\n\nMEDIA:/srv/b.png", "next"),
]


@pytest.mark.parametrize(("text", "profile"), HELD_STARTS)
@pytest.mark.parametrize("chunking", ["by_char", "whole"])
def test_a_held_message_start_is_read_with_what_follows(
    text: str, profile: str, chunking: str
) -> None:
    whole = richout.parse_reply(text, current_message_id="m-1", profile=profile)
    blocks, done = _stream(list(text) if chunking == "by_char" else [text], profile)
    if whole.is_silent:
        # Outside the guarantee, but a silent reply must not have streamed its text.
        assert all(not b.text for b in blocks)
        assert [ref for b in blocks for ref in b.media_urls] == list(
            dict.fromkeys(whole.media_urls)
        )
        return
    assert [ref for b in blocks for ref in b.media_urls] == list(dict.fromkeys(whole.media_urls))
    assert squash("".join(b.text for b in blocks)) == squash(whole.text)
    assert done.payload is None


HEADS = ["\xa0", "  ", "\t", "\n", "\n\n", "\r\n", "\r", "\u2028", "    ", "x", "MEDIA:/srv/b.png"]
HEADS += ["\nMEDIA:http://intranet/x.png\n", "\n  MEDIA:/srv/b.png\n", "[[audio_as_voice]]"]
TAILS = ["[[reply_to_current]", "[[reply_to:a", "[[reply_to_current]]", "NO_REPLY", "x"]
TAILS += ["MEDIA:/srv/c.png", "    code", "\n[[reply_to_current]", "[[audio_as_voice]] y"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(HEADS), max_size=6),
    st.lists(st.sampled_from(TAILS), min_size=1, max_size=3),
    st.sampled_from(["next", "release-2026.9.6"]),
)
def test_whitespace_starts_then_tags_match_the_whole_reply(
    heads: list[str], tails: list[str], profile: str
) -> None:
    """The class of replies behind HELD_STARTS, fed a character at a time (most cuts)."""
    text = "".join(heads) + "".join(tails)
    whole = richout.parse_reply(text, current_message_id="m-1", profile=profile)
    assume(not whole.is_silent)
    blocks, done = _stream(list(text), profile)
    assert [ref for b in blocks for ref in b.media_urls] == list(dict.fromkeys(whole.media_urls))
    assert squash("".join(b.text for b in blocks)) == squash(whole.text), text
    assert done.payload is None


@pytest.mark.parametrize(
    ("head", "unit"),
    [
        ("", "\xa0\n\n"),
        ("", "MEDIA:/srv/b.png\n\n"),
        ("", "\xa0\nMEDIA:/x.png\n\n"),
        # A start whose text a later line could change is held while paragraphs follow.
        ("\r[[reply_to_current]\n\nHi ]]\n\n", "Paragraph.\n\n"),
        ("\r[[reply_to_current]\n\nHi ]]\n\n", "Text\n\nMEDIA:/srv/b.png\n\n"),
    ],
)
def test_held_starts_are_read_a_bounded_number_of_times(
    head: str, unit: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Segments that leave no text are held and read again once, with the segment that first
    leaves text: the characters parsed grow linearly with the stream (work, not seconds)."""
    from richout.gateway import blocks as blocks_module

    parsed = [0]
    real = blocks_module.BlockStreamer._parse

    def counting(self: BlockStreamer, text: str) -> richout.Reply:
        parsed[0] += len(text)
        return real(self, text)

    monkeypatch.setattr(blocks_module.BlockStreamer, "_parse", counting)
    for n in (100, 400):
        parsed[0] = 0
        text = head + unit * n + "Hello [[reply_to_current]"
        bs = BlockStreamer()
        for i in range(0, len(text), 7):
            bs.feed(text[i : i + 7])
        bs.finish()
        assert 0 < parsed[0] <= 8 * len(text), (n, parsed[0])


def test_a_start_that_leaves_no_text_does_not_delay_the_next_paragraph() -> None:
    """Holding a media-only start costs no latency: the first paragraph after it is read with
    it and delivered as soon as the paragraph after that begins, as without the hold."""
    bs = BlockStreamer()
    (media,) = bs.feed("MEDIA:/srv/a.png\n\nHere is the chart.\n\n")
    assert media.media_urls == ("/srv/a.png",) and media.text == ""
    (first,) = bs.feed("M")
    assert first.text == "Here is the chart." and first.media_urls == ()
    bs.feed("ore text.")
    assert [b.text for b in bs.finish().blocks] == ["More text."]
