"""StreamingParser on every way of cutting a reply into chunks (TAGS.md §9.4).

The guarantees are checked directly (spans partition the fed text, a held construct is never
emitted in pieces, ``result()`` is ``parse_reply`` of the whole), and the parser is compared
with a *model*: the §9.2/§9.3 accumulator transcribed naively, rebuilding and rescanning
``held tail + chunk`` on every call as the reference does. richout keeps the hold-back facts
incrementally instead, so agreement on thousands of cut texts is evidence those facts are
right.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from hypothesis import example, given, settings
from hypothesis import strategies as st

from richout.models import StreamChunk
from richout.tags.code import StageCode
from richout.tags.parse import parse_directives
from richout.tags.pipeline import _one_kind_only, read_part
from richout.tags.silent import is_silent_prefix, is_token_only, strip_leading_token
from richout.text.chars import JS_WS_CLASS, js_rtrim
from richout.views.delivery_strip import delivery_strip
from richout.views.reply import parse_reply
from richout.views.streaming import StreamingParser

PIECES = [
    "Hello",
    "world",
    " ",
    "  ",
    "\n",
    "\n\n",
    "\t",
    "\r\n",
    "[[reply_to_current]]",
    "[[reply_to:42]]",
    "[[reply_to: ]]",
    "[[audio_as_voice]]",
    "[[reply_to_current]",
    "[[rep",
    "ly_to_current]]",
    "[[",
    "]]",
    "[",
    "]",
    "[link](x)",
    "MEDIA:/srv/a.png",
    "MEDIA:https://example.com/b.png",
    "  MEDIA:x",
    "\tmedia:y",
    "M",
    "ME",
    "MED",
    "EDIA:",
    "MEDIA",
    "NO_REPLY",
    "NO",
    "_REPLY",
    "no_reply",
    "`",
    "```",
    "x",
    "é",
    "\u00a0",
    "ı",
    "MEDıA:",
    "[[reply_to:a [[b",
]


@st.composite
def cut_reply(draw: st.DrawFn) -> tuple[str, list[str]]:
    """A reply built from the pieces, and a way of cutting it into chunks."""
    text = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=12)))
    if draw(st.booleans()) and len(text) < 60:
        return text, list(text)  # one character at a time
    cuts = sorted(set(draw(st.lists(st.integers(0, len(text)), max_size=8))))
    bounds = [0, *cuts, len(text)]
    return text, [text[a:b] for a, b in itertools.pairwise(bounds)]


# --------------------------------------------------------------------------- the model

_MEDIA_LINE = re.compile(f"[{JS_WS_CLASS}]*MEDIA:", re.IGNORECASE | re.ASCII)
_WS = re.compile(f"[{JS_WS_CLASS}]*")


def _open_brackets(c: str) -> list[int]:
    """Every "[[" of ``c`` that no later "]]" closes."""
    return [i for i in range(len(c) - 1) if c[i : i + 2] == "[[" and "]]" not in c[i + 2 :]]


def model_hold(c: str) -> tuple[int, bool]:
    """§9.2 read literally on the whole combined text."""
    h = len(c)
    trim = False
    opens = _open_brackets(c)
    if opens:
        h, trim = opens[0], True
    if c.endswith("[") and len(c) - 1 < h:
        h, trim = len(c) - 1, True
    nl = c.rfind("\n")
    line = c[nl + 1 :]
    rest = line[_WS.match(line).end() :]  # type: ignore[union-attr]
    if rest[:6].upper().startswith("MEDIA:") or (line and "MEDIA".startswith(rest.upper())):
        h = min(h, nl + 1)
    return h, trim


@dataclass
class Model:
    tail: str = ""
    sep: str = ""
    consumed: int = 0
    reply_to_id: str | None = None
    current: bool = False
    tag: bool = False
    returned: bool = False

    def consume(self, raw: str, final: bool) -> tuple[int, int, dict[str, object] | None]:
        had_tail = bool(self.tail)
        held_sep = self.sep
        c = self.tail + raw
        self.tail = self.sep = ""
        start = self.consumed
        if final:
            h, e = len(c), c
        else:
            h, trim = model_hold(c)
            e = c
            if h < len(c):
                e = js_rtrim(c[:h]) if trim else c[:h]
                self.sep = c[len(e) : h] if e else held_sep + c[len(e) : h]
                self.tail = c[h:]
        self.consumed = start + h
        if not e:
            return start, self.consumed, None
        d = parse_directives(e) if "[[" in e else None
        text = d.text if d is not None and (d.has_reply_tag or d.has_audio_tag) else e
        silent = is_token_only(text) or is_silent_prefix(text)
        if silent:
            text = ""
        elif (stripped := strip_leading_token(text)) is not None:
            text = stripped
        if had_tail and held_sep and text.startswith("["):
            text = held_sep + text
        if final and not self.returned:
            text = delivery_strip(text)
        if d is not None:
            self.reply_to_id = d.reply_to_explicit_id or self.reply_to_id
            self.current = self.current or d.reply_to_current
            self.tag = self.tag or d.has_reply_tag
        audio = d.audio_as_voice if d is not None else False
        if not text and not audio:
            return start, self.consumed, None
        self.returned = self.returned or bool(text)
        return (
            start,
            self.consumed,
            {
                "text": text,
                "reply_to_id": self.reply_to_id,
                "reply_to_explicit_id": d.reply_to_explicit_id if d is not None else None,
                "reply_to_current": self.current,
                "reply_to_tag": self.tag,
                "audio_as_voice": audio,
                "is_silent": silent,
            },
        )


def _fields(chunk: StreamChunk) -> dict[str, object]:
    return {
        "text": chunk.text,
        "reply_to_id": chunk.reply_to_id,
        "reply_to_explicit_id": chunk.reply_to_explicit_id,
        "reply_to_current": chunk.reply_to_current,
        "reply_to_tag": chunk.reply_to_tag,
        "audio_as_voice": chunk.audio_as_voice,
        "is_silent": chunk.is_silent,
    }


# --------------------------------------------------------------------------- properties


def _run(chunks: list[str]) -> list[tuple[int, int, bool, StreamChunk | None, str]]:
    """Feed the chunks then finish; per call: span, final?, chunk, fed text so far."""
    sp = StreamingParser()
    calls = []
    for i, piece in enumerate([*chunks, ""]):
        final = i == len(chunks)
        before = sp.consumed
        chunk = sp.finish(piece) if final else sp.feed(piece)
        calls.append((before, sp.consumed, final, chunk, sp.text))
    return calls


@settings(max_examples=800, deadline=None)
@given(cut_reply())
# A held MEDIA: line whose next line starts a new MEDIA: prefix: the kept facts' offsets
# move with what was emitted (found by a mutant the generated cases missed).
@example(("MEDIA:x\nMEDIA:\nM A", ["MED", "IA:x\nM", "E", "DIA", ":\nM A"]))
def test_agrees_with_the_naive_accumulator(case: tuple[str, list[str]]) -> None:
    _text, chunks = case
    sp = StreamingParser()
    model = Model()
    for i, piece in enumerate([*chunks, ""]):
        final = i == len(chunks)
        got = sp.finish(piece) if final else sp.feed(piece)
        start, end, expected = model.consume(piece, final)
        assert sp.consumed == end
        assert sp.held == model.tail
        if expected is None:
            assert got is None
        else:
            assert got is not None
            assert _fields(got) == expected
            assert (got.raw_start, got.raw_end) == (start, end)


@settings(max_examples=800, deadline=None)
@given(cut_reply())
def test_spans_partition_the_fed_text(case: tuple[str, list[str]]) -> None:
    text, chunks = case
    calls = _run(chunks)
    cursor = 0
    for start, end, _final, chunk, _fed in calls:
        assert start == cursor <= end
        if chunk is not None:
            assert (chunk.raw_start, chunk.raw_end) == (start, end)
        cursor = end
    assert cursor == len(text)


@settings(max_examples=800, deadline=None)
@given(cut_reply())
def test_held_constructs_are_never_emitted_in_pieces(case: tuple[str, list[str]]) -> None:
    text, chunks = case
    for start, end, final, _chunk, fed in _run(chunks):
        if final:
            continue
        # Rule 1: no "[[" that nothing closes yet is emitted, so no tag is cut.
        opens = _open_brackets(fed)
        if opens:
            assert opens[0] >= end, (text[start:end], chunks)
        assert not (fed.endswith("[") and end == len(fed)), chunks  # rule 2
        # A line whose line feed has not arrived yet is emitted only when it can no longer
        # become a MEDIA: line: nothing of a MEDIA: line, not even its indentation, is emitted.
        line_start = text.rfind("\n", 0, end) + 1
        if end > line_start and "\n" not in fed[line_start:]:
            line_end = text.find("\n", line_start)
            line = text[line_start : len(text) if line_end < 0 else line_end]
            rest = line[_WS.match(line).end() :]  # type: ignore[union-attr]
            assert not rest[:6].upper().startswith("MEDIA:"), (text[line_start:end], chunks)


@settings(max_examples=400, deadline=None)
@given(cut_reply(), st.sampled_from([None, "M", " "]))
def test_result_is_parse_reply_of_the_whole_text(
    case: tuple[str, list[str]], current: str | None
) -> None:
    text, chunks = case
    sp = StreamingParser()
    for piece in chunks:
        sp.feed(piece)
    assert sp.text == text
    expected = parse_reply(text, current_message_id=current).to_wire()
    assert sp.result(current).to_wire() == expected  # before finish: computed on all fed text
    sp.finish()
    assert sp.result(current).to_wire() == expected


@settings(max_examples=300, deadline=None)
@given(cut_reply())
def test_chunk_diagnostics_point_into_the_fed_text(case: tuple[str, list[str]]) -> None:
    text, chunks = case
    sp = StreamingParser()
    for piece in chunks:
        sp.feed(piece)
    sp.finish()
    for d in sp.diagnostics:
        assert d.start is not None and d.end is not None
        assert 0 <= d.start <= d.end <= len(text)
        assert d.line is not None and d.column is not None
        assert d.line == text.count("\n", 0, d.start) + 1


# --------------------------------------------------------------------------- read_part

_PART_PIECES = [*PIECES, "`[[audio_as_voice]]`", "    [[reply_to:9]]\n", "```\n", "[[foo]]"]


@settings(max_examples=600)
@given(st.lists(st.sampled_from(_PART_PIECES), min_size=1, max_size=10).map("".join))
def test_read_part_is_the_explained_parse_without_its_records(text: str) -> None:
    """The stream's tag read (no spans, edits or result records) says what an explained
    ``parse_directives`` says: the same outputs and the same findings, in the same order,
    less ``tag.current_without_id`` (a stream has no current message id by design)."""
    text = "[[" + text  # read_part is only asked about parts holding "[["
    got = read_part(text)
    want = parse_directives(text, explain=True)
    assert got.text == want.text
    assert got.audio_as_voice == want.audio_as_voice
    assert got.has_audio_tag == want.has_audio_tag
    assert got.has_reply_tag == want.has_reply_tag
    assert got.reply_to_explicit_id == want.reply_to_explicit_id
    assert got.reply_to_current == want.reply_to_current
    assert got.findings == [
        (d.start, d.code, d.end, d.severity, d.message, d.field)
        for d in want.diagnostics
        if d.code != "tag.current_without_id"
    ]


#: Parts of code spans, text, blanks, line breaks and current tags, the shape the stream's
#: lexical read of ``[[reply_to_current]]`` answers (tags in code included), and what
#: sends a part back to the stages ("[" before a tag, another spelling, an audio tag).
_CURRENT_PIECES = [
    *["[[reply_to_current]]"] * 4,
    *["`a`", "``b``", "`", "``", "x", " ", "  ", "\t", "\n", "\n\n", "> ", "- ", "    "],
    *["\\`", "[l](u)", "\r\n", "\u00a0", "NO_REPLY", "\r", "]]"],
    *["[", "[[REPLY_TO_CURRENT]]", "[[ reply_to_current ]]", "[[audio_as_voice]]", "```\n"],
]
#: The same with the audio tag as the one read lexically (and a reply tag sending back).
_SWAPPED = {
    "[[reply_to_current]]": "[[audio_as_voice]]",
    "[[audio_as_voice]]": "[[reply_to_current]]",
    "[[REPLY_TO_CURRENT]]": "[[AUDIO_AS_VOICE]]",
    "[[ reply_to_current ]]": "[[ audio_as_voice ]]",
}
_AUDIO_PIECES = [_SWAPPED.get(p, p) for p in _CURRENT_PIECES]


@settings(max_examples=3000)
@given(
    st.sampled_from([_CURRENT_PIECES, _AUDIO_PIECES]).flatmap(
        lambda pieces: st.lists(st.sampled_from(pieces), min_size=1, max_size=12).map("".join)
    )
)
@example("`a` [[reply_to_current]] ``b`` `a` [[reply_to_current]] ``b``")
@example("`[[reply_to_current]]` x [[reply_to_current]]")  # one tag in code
@example("\n\t[[reply_to_current]]")  # all in code (indented): no boundary step
@example("[[[reply_to_current]]")
@example("[ [[audio_as_voice]][x")  # closing a gap between brackets makes no "[["
@example("x [\n[[audio_as_voice]]\n[b [[audio_as_voice]]")
@example("`[[audio_as_voice]]` x [[audio_as_voice]]")
def test_read_part_of_one_kind_of_tag_is_the_explained_parse(text: str) -> None:
    """Parts whose every ``[[`` opens ``[[reply_to_current]]``, or every one
    ``[[audio_as_voice]]``, are read lexically (``_one_kind_only``); what it answers is
    what an explained ``parse_directives`` says, and a part it passes on is read by the
    stages."""
    if "[[" not in text:
        text += "[[reply_to_current]]"
    fast = _one_kind_only(text, StageCode(text))
    got = read_part(text)
    want = parse_directives(text, explain=True)
    findings = [
        (d.start, d.code, d.end, d.severity, d.message, d.field)
        for d in want.diagnostics
        if d.code != "tag.current_without_id"
    ]
    assert (
        got.text,
        got.audio_as_voice,
        got.has_audio_tag,
        got.has_reply_tag,
        got.reply_to_explicit_id,
        got.reply_to_current,
        got.findings,
    ) == (
        want.text,
        want.audio_as_voice,
        want.has_audio_tag,
        want.has_reply_tag,
        want.reply_to_explicit_id,
        want.reply_to_current,
        findings,
    )
    if fast is not None:
        assert fast == got  # read_part takes the lexical read whenever it answers


def test_the_lexical_read_answers_plain_parts_only() -> None:
    # Not vacuous: the family's streamed parts are read lexically; a part with anything
    # the stages explain or read otherwise is not.
    part = "[[reply_to_current]] ``b`` `a` [[reply_to_current]] ``b`` `a`"
    want = parse_directives(part, explain=True)
    assert _one_kind_only(part, StageCode(part)) == (
        want.text,
        False,
        False,
        True,
        None,
        True,
        [],
    )
    assert want.text == "``b`` `a` ``b`` `a`"
    # A tag in code stays and is explained, as the stages do: a part of a table row cut
    # inside a span (the row's block structure puts the tag in it) and one all in code.
    for part in (
        "`[[reply_to_current]]` [[reply_to_current]]",
        "` z\n  `x` [[reply_to_current]] | ``y`` z\n  `x`",
        "\n\t[[reply_to_current]]",
    ):
        fast = _one_kind_only(part, StageCode(part))
        want = parse_directives(part, explain=True)
        assert fast is not None, part
        assert (fast.text, fast.has_reply_tag) == (want.text, want.has_reply_tag)
        assert [f[1] for f in fast.findings] == ["tag.in_code"]
    # A part of audio tags (a stream of them, one corpus reply) is read the same way.
    part = "[[audio_as_voice]] [[audio_as_voice]] x `[[audio_as_voice]]`"
    want = parse_directives(part, explain=True)
    fast = _one_kind_only(part, StageCode(part))
    assert fast is not None
    assert (fast.text, fast.audio_as_voice, fast.has_audio_tag, fast.has_reply_tag) == (
        want.text,
        True,
        True,
        False,
    )
    assert [f[1] for f in fast.findings] == ["tag.in_code"]
    for other in (
        "[[reply_to_current]] [[audio_as_voice]]",
        "[[audio_as_voice]] [[audio_as_voice ]]",
        "[[[audio_as_voice]]",
        "[[reply_to_current]] [[reply_to:1]]",
        "[[[reply_to_current]]",
        "[[reply_to_current]] [[",
        "[[Reply_To_Current]]",
        "no tag",
    ):
        assert _one_kind_only(other, StageCode(other)) is None, other
