"""Properties of parse_directives on generated and hostile text.

The strongest one compares richout with a *model*: a deliberately naive transcription of
TAGS.md §4-§5.1 (a marker character written into the text and searched again, strings
rebuilt by concatenation, code regions straight from the full CommonMark parse). The model
shares no code with richout's pre-scan, grammar, position-based closing or code-map
shortcuts, so agreement on thousands of tag-dense texts is real evidence.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from richout import rebuild
from richout.markdown.codemap import CodeMap
from richout.models.diagnostics import PER_CONSTRUCT, findings_of, patch_of, spans_of
from richout.tags.close import (
    _closed_site_by_site,
    _space_opening_a_paragraph,
    close_sites,
    leading_breaks_end,
    normalize_boundaries,
)
from richout.tags.code import StageCode
from richout.tags.explain import Sink, reply_malformed_row
from richout.tags.parse import parse_directives, read_audio_tag
from richout.tags.pipeline import TagStages, stage_tags
from richout.tags.scan import (
    AUDIO_HEAD,
    REPLY_HEAD,
    TAG_HEAD,
    ReplyTagReader,
    grammar_read,
    sanitize_reply_id,
    value_shape,
)
from richout.text.chars import JS_WS, JS_WS_CLASS
from richout.text.patch import apply, invert, patch_from_pieces

# --------------------------------------------------------------------------- the model

_MARK = "\ue000"
_AUDIO_RE = re.compile(
    rf"\[\[[{JS_WS_CLASS}]*audio_as_voice[{JS_WS_CLASS}]*\]\]", re.IGNORECASE | re.ASCII
)
_HEAD_RE = re.compile(
    rf"\[\[[{JS_WS_CLASS}]*(reply_to_current|reply_to[{JS_WS_CLASS}]*:)", re.IGNORECASE | re.ASCII
)


def _skip_ws(t: str, i: int) -> int:
    while i < len(t) and t[i] in JS_WS:
        i += 1
    return i


def model_read_reply(t: str, p: int) -> tuple[int, str | None] | None:
    """§1.2-§1.4 read literally: (end, raw id or None for a current tag)."""
    m = _HEAD_RE.match(t, p)
    if m is None:
        return None
    head_end = m.end()
    v = _skip_ws(t, head_end)
    if not m.group(1).endswith(":"):
        return (v + 2, None) if t.startswith("]]", v) else None
    close = t.find("]", v)
    if close < 0 or not t.startswith("]]", close):
        return None
    id_end = close
    while id_end > v and t[id_end - 1] in JS_WS:
        id_end -= 1
    if v < close:
        value = t[v:id_end]
        return None if "\n" in value else (close + 2, value)
    if any(c != "\n" for c in t[head_end:close]):
        return (close + 2, "")
    return None


def model_close(t: str) -> str:
    """§5 with a literal marker, as described (quadratic, obviously correct)."""
    if _MARK not in t:
        return t
    content_end = len(t.rstrip(JS_WS))
    out = ""
    cursor = 0
    while True:
        start = t.find(_MARK, cursor)
        if start < 0:
            return out + t[cursor:]
        end = start
        while t.startswith(_MARK, end):
            end += 1
        out += t[cursor:start]
        nxt = end
        while nxt < len(t) and t[nxt] in " \t":
            nxt += 1
        trimmed = out.rstrip(" \t")
        at_line_start = trimmed == "" or trimmed[-1] in "\r\n"
        at_line_end = nxt >= len(t) or t[nxt] in "\r\n"
        if at_line_start and at_line_end:
            out = trimmed
            breaks = 0
            for ch in reversed(out):
                if ch == "\n":
                    breaks += 1
                    if breaks >= 2:
                        break
                elif ch != "\r":
                    break
            while nxt < len(t) and t[nxt] in "\r\n":
                width = 2 if t.startswith("\r\n", nxt) else 1
                if breaks < 2:
                    out += t[nxt : nxt + width]
                    breaks += 1
                nxt += width
        elif at_line_start or nxt >= content_end:
            nxt = end
        else:
            out = trimmed
            if not at_line_end:
                out += " "
        cursor = nxt


def model_boundaries(t: str) -> str:
    """§5.1 with the full parse's regions."""
    codes = CodeMap(t)
    start = 0
    while True:
        if t.startswith("\n", start):
            start += 1
        elif t.startswith("\r\n", start):
            start += 2
        else:
            break
    if (
        start + 1 < len(t)
        and t[start] in " \t"
        and t[start + 1] not in JS_WS
        and not codes.full().in_code(start)
    ):
        start += 1
    content_end = len(t.rstrip(JS_WS))
    owned = content_end < len(t) and any(
        r.start <= content_end and r.end == len(t) for r in codes.regions()
    )
    return t[start:] if owned else t[start : max(content_end, start)]


def model(text: str, current: str | None, strip_audio: bool, strip_reply: bool) -> dict[str, Any]:
    """parse_directives' outputs by the book."""
    if not text:
        return {"text": "", "audio": False, "reply": False, "current": False, "explicit": None}
    if "[[" not in text:
        return {
            "text": model_boundaries(text),
            "audio": False,
            "reply": False,
            "current": False,
            "explicit": None,
        }
    codes = CodeMap(text).full()
    audio = False
    pieces: list[str] = []
    cursor = 0
    for m in _AUDIO_RE.finditer(text):
        if codes.in_code(m.start()):
            continue
        audio = True
        pieces.append(text[cursor : m.start()] + (_MARK if strip_audio else m.group()))
        cursor = m.end()
    text2 = model_close("".join(pieces) + text[cursor:])
    codes2 = CodeMap(text2).full()
    reply = saw_current = False
    explicit: str | None = None
    pieces = []
    cursor = search = 0
    while True:
        p = text2.find("[[", search)
        if p < 0:
            break
        tag = model_read_reply(text2, p)
        if tag is None:
            search = p + 1
            continue
        end, raw = tag
        search = end
        if codes2.in_code(p):
            continue
        reply = True
        if raw is None:
            saw_current = True
        elif sanitize_reply_id(raw):
            explicit = sanitize_reply_id(raw)
        pieces.append(text2[cursor:p] + (_MARK if strip_reply else text2[p:end]))
        cursor = end
    text3 = model_close("".join(pieces) + text2[cursor:])
    final = model_boundaries(text3) if audio or reply else text3
    reply_to = explicit
    if reply_to is None and saw_current:
        reply_to = (current or "").strip(JS_WS) or None
    return {
        "text": final,
        "audio": audio,
        "reply": reply,
        "current": saw_current,
        "explicit": explicit,
        "reply_to": reply_to,
    }


def observed(text: str, current: str | None, strip_audio: bool, strip_reply: bool) -> Any:
    result = parse_directives(
        text,
        current_message_id=current,
        strip_audio_tag=strip_audio,
        strip_reply_tags=strip_reply,
    )
    return result, {
        "text": result.text,
        "audio": result.has_audio_tag,
        "reply": result.has_reply_tag,
        "current": result.reply_to_current,
        "explicit": result.reply_to_explicit_id,
        "reply_to": result.reply_to_id,
    }


# --------------------------------------------------------------------------- strategies

_FRAGMENTS = [
    "[[",
    "]]",
    "[",
    "]",
    ":",
    "audio_as_voice",
    "AUDIO_as_Voice",
    "reply_to_current",
    "reply_to",
    "Reply_To",
    "[[audio_as_voice]]",
    "[[reply_to_current]]",
    "[[reply_to:abc]]",
    "[[ reply_to : x y ]]",
    "[[reply_to: ]]",
    "[[reply_to:",
    "[[as_document]]",
    " ",
    "  ",
    "    ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "\u00a0",
    "\u2028",
    "\x01",
    "`",
    "``",
    "```",
    "~~~",
    "> ",
    "- ",
    "1. ",
    "x",
    "word",
    "é",
    "\U0001f600",
]

tag_texts = st.lists(st.sampled_from(_FRAGMENTS), max_size=24).map("".join)
any_texts = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=80)
options = st.fixed_dictionaries(
    {
        "current": st.sampled_from([None, "", " ", "M", " m1 "]),
        "strip_audio": st.booleans(),
        "strip_reply": st.booleans(),
    }
)

_SETTINGS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --------------------------------------------------------------------------- properties


@_SETTINGS
@given(text=tag_texts, opts=options)
@example(
    text="[[[[audio_as_voice]]reply_to_current]]",
    opts={"current": "M", "strip_audio": True, "strip_reply": True},
)
@example(
    text="A\n\n[[audio_as_voice]]\r\n\r\n\n[[reply_to_current]]\r\rB",
    opts={"current": None, "strip_audio": True, "strip_reply": True},
)
@example(
    text="x  [[audio_as_voice]]  \n```\n  ",
    opts={"current": None, "strip_audio": True, "strip_reply": True},
)
def test_matches_the_model(text: str, opts: dict[str, Any]) -> None:
    """Outputs equal the naive transcription of the specification."""
    assume(_MARK not in text)
    result, got = observed(text, opts["current"], opts["strip_audio"], opts["strip_reply"])
    want = model(text, opts["current"], opts["strip_audio"], opts["strip_reply"])
    want.setdefault("reply_to", None)
    assert got == want
    assert rebuild(result) == text


@settings(max_examples=500, deadline=None)
@given(text=any_texts | tag_texts, opts=options)
@example(
    text="\ud800[[audio_as_voice]]\udfff",
    opts={"current": None, "strip_audio": True, "strip_reply": True},
)
@example(
    text="\x00[[reply_to:\x00]]\x00",
    opts={"current": "\x00", "strip_audio": True, "strip_reply": True},
)
@example(
    text="a\u2028[[reply_to_current]]\u2029b\r\n",
    opts={"current": None, "strip_audio": True, "strip_reply": True},
)
def test_never_raises_and_loses_nothing(text: str, opts: dict[str, Any]) -> None:
    """Any str (lone surrogates, NUL, CRLF, U+2028 included) gets a result that rebuilds it."""
    result = parse_directives(
        text,
        current_message_id=opts["current"],
        strip_audio_tag=opts["strip_audio"],
        strip_reply_tags=opts["strip_reply"],
    )
    assert rebuild(result) == text
    result.to_wire()  # serialisable
    last = -1
    for e in result.edits:
        assert last <= e.start <= e.end <= len(text)
        assert text[e.start : e.end] == e.removed
        last = e.end
    for d in result.diagnostics:
        assert d.start is not None and d.end is not None
        assert 0 <= d.start <= d.end <= len(text)
    starts = [s.start for s in result.spans]
    assert starts == sorted(starts)


@_SETTINGS
@given(text=tag_texts, opts=options)
def test_unstripped_tags_stay_in_the_text(text: str, opts: dict[str, Any]) -> None:
    """With both strip options off, every recognised tag is still in the output, verbatim."""
    result = parse_directives(
        text, current_message_id=opts["current"], strip_audio_tag=False, strip_reply_tags=False
    )
    recognised = result.has_audio_tag or result.has_reply_tag
    assert len(result.spans) >= int(recognised)
    out = result.text
    for span in result.spans:
        piece = text[span.start : span.end]
        assert piece in out
    # Only the message boundaries can change: always without "[[", else only when a tag
    # was recognised.
    if not recognised and "[[" in text:
        assert out == text
    else:
        assert out in text


@_SETTINGS
@given(text=tag_texts, opts=options)
def test_stripping_one_kind_keeps_the_other(text: str, opts: dict[str, Any]) -> None:
    """Flags do not depend on the strip options; unstripped kinds keep their tags."""
    both = parse_directives(text, current_message_id=opts["current"])
    audio_only = parse_directives(text, current_message_id=opts["current"], strip_reply_tags=False)
    assert audio_only.has_audio_tag == both.has_audio_tag
    assert audio_only.audio_as_voice == both.audio_as_voice
    audio_spans = [(s.start, s.end) for s in audio_only.spans if s.kind == "audio_tag"]
    for span in audio_only.spans:
        if span.kind == "audio_tag" or any(
            span.start <= a and b <= span.end for a, b in audio_spans
        ):
            continue  # a reply tag formed across a removed audio tag is not in the input
        assert text[span.start : span.end] in audio_only.text


@_SETTINGS
@given(text=tag_texts)
@example(text="[[audio_as_voice]]\n\n[[reply_to_current]]  ")
@example(text="`[[audio_as_voice]]` [[reply_to:x]]\n")
def test_the_splits_tag_pass_needs_no_reply_tags_once_audio_is_found(text: str) -> None:
    """The split strips audio tags only and reads no reply tag's target: after an audio tag
    was recognised, skipping the reply stage (``read_replies=False``) leaves the text and
    the flag as the full stages give them."""
    assume("[[" in text)
    full = TagStages(text, StageCode(text), Sink(text, True, False, False), True, False)
    lean = TagStages(
        text, StageCode(text), Sink(text, True, False, False), True, False, read_replies=False
    )
    assert (lean.final, lean.audio) == (full.final, full.audio)

    def found(run: TagStages) -> list[tuple[int, int, str, str | None]]:
        return [(r.start, r.end, r.kind, r.id) for r in run.replies]

    assert found(lean) == ([] if full.audio else found(full))


@_SETTINGS
@given(text=tag_texts)
@example(text="[[audio_as_voice]] [[reply_to:a]] [[reply_to:b]] [[foo]] [[reply_to:c]")
@example(text="[[reply_to_current]] `[[audio_as_voice]]` [[audio_as_voice]]")
def test_the_splits_tag_pass_keeps_what_the_split_reads(text: str) -> None:
    """``stage_tags(constructs_only=True)``, the split's tag pass: the text, the flag, the
    edits, the audio spans and the findings (those about single constructs, PER_CONSTRUCT,
    the ones the split keeps, among them) are the full run's; it makes no reply tag span
    and no precedence finding (§2.3)."""
    assume("[[" in text)
    full = stage_tags(text, strip_audio=True, strip_reply=False)
    lean = stage_tags(text, strip_audio=True, strip_reply=False, constructs_only=True)
    assert (lean.text, lean.audio_as_voice) == (full.text, full.audio_as_voice)
    assert patch_of(lean) == patch_of(full)
    assert spans_of(lean) == [s for s in spans_of(full) if s.kind == "audio_tag"]
    every, found = findings_of(full) or [], findings_of(lean) or []
    assert found == [f for f in every if f[1] not in _PRECEDENCE]
    assert not _PRECEDENCE & PER_CONSTRUCT


_PRECEDENCE = {"tag.reply_overridden", "tag.current_without_id"}


@_SETTINGS
@given(text=tag_texts | any_texts)
def test_idempotent_once_no_brackets_remain(text: str) -> None:
    """A result without ``[[`` is a fixed point (only §5.1 applies, and it is idempotent)."""
    once = parse_directives(text).text
    assume("[[" not in once)
    assert parse_directives(once).text == once


@_SETTINGS
@given(text=tag_texts)
def test_spans_are_tags(text: str) -> None:
    """Every span covers a tag of its kind (reply spans: unless formed across an audio gap)."""
    result = parse_directives(text, current_message_id="M")
    audio_spans = [(s.start, s.end) for s in result.spans if s.kind == "audio_tag"]
    for span in result.spans:
        piece = text[span.start : span.end]
        if span.kind == "audio_tag":
            assert read_audio_tag(text, span.start) is not None
            assert grammar_read(piece) == ("audio", -1, -1)
            continue
        if any(span.start <= a and b <= span.end for a, b in audio_spans):
            continue
        parsed = grammar_read(piece)
        assert parsed is not None and parsed[0] != "audio"
        if parsed[0] == "explicit":
            assert span.value == (sanitize_reply_id(piece[parsed[1] : parsed[2]]) or None)


@settings(max_examples=800, deadline=None)
@given(
    head=st.sampled_from(["[[", "[[ ", "[[\n", "[[\t\u00a0"]),
    name=st.sampled_from(["reply_to_current", "reply_to", "REPLY_TO", "audio_as_voice", "reply"]),
    rest=st.lists(
        st.sampled_from([" ", "\n", "\r", "\t", "\u2028", ":", "]", "]]", "[", "a", "b c", "\x01"]),
        max_size=10,
    ).map("".join),
)
def test_grammar_and_prescan_agree_with_the_letter_of_section_1(
    head: str, name: str, rest: str
) -> None:
    """The pre-scan + grammar reader equals a literal reading of §1.2-§1.4 at one offset."""
    text = head + name + rest
    want = model_read_reply(text, 0)
    got = ReplyTagReader(text).read(0)
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert (got.end, got.id_text) == want
    audio = _AUDIO_RE.match(text)
    got_audio = read_audio_tag(text, 0)
    assert (got_audio.end if got_audio else None) == (audio.end() if audio else None)


@settings(max_examples=500, deadline=None)
@given(
    head=st.sampled_from(["[[reply_to:", "[[ Reply_To\n:", "[[reply_to :"]),
    value=st.text(
        alphabet=st.sampled_from(
            [" ", "\n", "\r", "\t", "\u00a0", "\u2028", "a", "[", ":", "\x01"]
        ),
        max_size=12,
    ),
)
def test_values_of_one_shape_parse_alike(head: str, value: str) -> None:
    """The cache may share a parse between values of one shape: the grammar agrees."""
    piece = head + value + "]]"
    shaped = head + value_shape(value) + "]]"
    assert len(shaped) == len(piece)
    assert grammar_read(piece) == grammar_read(shaped)


def test_reader_walk_is_in_order() -> None:
    """ReplyTagReader answers questions at increasing offsets like fresh readers do."""
    text = "[[reply_to:a [[reply_to_current]] [[reply_to: b ]] [[reply_to:c\n]] x"
    reader = ReplyTagReader(text)
    for pos in range(len(text)):
        assert reader.read(pos) == ReplyTagReader(text).read(pos)


_MARKDOWN = [
    "```",
    "~~~",
    "````",
    "`",
    "``",
    "` x `",
    "```py",
    "- ",
    "* ",
    "1. ",
    "> ",
    "  ",
    "    ",
    "\t",
    "# ",
    "| a | b |",
    "|---|---|",
    "[[reply_to_current]]",
    "[[audio_as_voice]]",
    "text",
    "word `code` word",
    "[a](`b`)",
    "\\`",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    " ",
    "\u00a0",
]
markdown_texts = st.lists(st.sampled_from(_MARKDOWN), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=markdown_texts, data=st.data())
# A blank line inside indented code, asked before the line break above it: the indentation
# shortcut once called it certainly outside code (found by this test, 2026-12-02). With
# ``data=None`` the odd positions are asked first.
@example(text="    - \n\n\t`", data=None)
# Indented code whose last line is U+00A0 after the indentation: blank to JavaScript, not to
# CommonMark, so the block owns the tail; the tail shortcut once said no fence, no owner.
@example(text="    code\n    \u00a0", data=None)
# A list item whose paragraph opens with a U+00A0 line: markdown-it-py strips that line from
# the content, and the full parse once placed the code span two characters early, where the
# shortcut was right (found by this test, 2026-12-02).
@example(text="- \u00a0\nword `code` word", data=None)
def test_stage_code_answers_like_the_full_parse(text: str, data: st.DataObject | None) -> None:
    """The tag stages' code shortcuts never change an answer of the full parse."""
    full = CodeMap(text).full()
    # The code map promises sorted, disjoint regions; a fence that a container cuts short
    # can break that today (reported), and then its own in_code and regions disagree.
    regions = full.regions
    assume(all(a.end <= b.start for a, b in itertools.pairwise(regions)))
    positions = list(range(len(text)))
    if data is None:
        positions = positions[1::2] + positions[::2]
    elif data.draw(st.booleans(), label="shuffled"):
        positions = data.draw(st.permutations(positions), label="order")
    code = StageCode(text)
    for pos in positions:
        assert code.in_code(pos) == full.in_code(pos), pos
    content_end = len(text.rstrip(JS_WS))
    if content_end < len(text):
        want = any(r.start <= content_end and r.end == len(text) for r in full.regions)
        assert StageCode(text).owns_tail(content_end) == want


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(["", "\n", "\r\n", "\n\n"]), markdown_texts)
def test_a_space_opening_a_paragraph_line_is_not_code(breaks: str, rest: str) -> None:
    """§5.1 step 2 asks no code question about a leading space on a line that opens no
    block (``close._space_opening_a_paragraph``): the full parse agrees it is not code."""
    text = breaks + " " + rest
    start = leading_breaks_end(text)
    if _space_opening_a_paragraph(text, start):
        assert not CodeMap(text).full().in_code(start), text


def test_a_leading_space_opening_a_paragraph_asks_no_code_question() -> None:
    # Not vacuous: step 2 removes the space without asking (a fence line still asks).
    def never(pos: int) -> bool:
        raise AssertionError(f"asked about {pos}")

    assert normalize_boundaries(" ``b`` x", never, never)[0] == "``b`` x"
    assert normalize_boundaries("\n ``b`` x", never, never)[0] == "``b`` x"
    asked: list[int] = []
    normalize_boundaries(" ```x", lambda pos: asked.append(pos) or False, never)
    assert asked == [0]


# --------------------------------------------------------------------------- hostile input

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def _adversarial() -> list[tuple[str, str]]:
    import make_corpus

    return [(name, text) for name, text, *_ in make_corpus.make_adversarial(20260520)]


_HOSTILE = [
    ("open_brackets", "[[" * 100_000),
    ("unclosed_reply_runs", "[[reply_to:x" * 20_000),
    ("reply_then_spaces", "[[reply_to:" + " " * 100_000),
    ("reply_then_spaces_closed", "[[reply_to:" + " " * 100_000 + "]]"),
    ("reply_then_newlines_closed", "[[reply_to:" + "\n" * 100_000 + "]]"),
    ("long_id_words", "[[reply_to:" + "a " * 50_000 + "]]"),
    ("backticks_and_tag", "`" * 50_000 + " [[reply_to_current]]"),
    ("audio_tags", "[[audio_as_voice]]" * 50_000),
    ("audio_tags_lines", "[[audio_as_voice]]\n" * 50_000),
    ("cr_run_between_tags", "x" + ("\r" * 1000 + "[[audio_as_voice]]") * 200),
    ("current_then_tabs", "[[reply_to_current" + "\t" * 100_000),
    ("nested_values", "[[reply_to:" * 20_000 + "]]"),
    ("unknown_names", "[[a" * 50_000),
    ("unknown_closed", "[[a]]" * 40_000),
]


@pytest.mark.parametrize(("name", "text"), _HOSTILE + _adversarial(), ids=lambda v: str(v)[:40])
def test_hostile_inputs_finish_and_rebuild(name: str, text: str) -> None:
    """Each hostile input gets a result that rebuilds it.

    No wall-clock bound here (a busy machine must not fail a test): growth is checked by
    counting work in tests/test_adversarial.py, and times live in benchmarks/adversarial.py.
    """
    result = parse_directives(text)
    assert rebuild(result) == text, name
    json.dumps(result.to_wire())


@given(text=tag_texts | any_texts)
def test_tag_head_finds_exactly_the_audio_and_reply_heads(text: str) -> None:
    """TAG_HEAD (the delivery strip's jump between heads) matches at a ``[[`` exactly where
    AUDIO_HEAD or REPLY_HEAD does, so skipping the other ``[[`` reads no tag less."""
    heads = [m.start() for m in TAG_HEAD.finditer(text)]
    # finditer resumes after "[[", so a head starting inside an earlier match is looked
    # up from each position separately as well.
    expected = [
        i for i in range(len(text)) if AUDIO_HEAD.match(text, i) or REPLY_HEAD.match(text, i)
    ]
    assert [i for i in range(len(text)) if TAG_HEAD.match(text, i)] == expected
    assert set(heads) <= set(expected)


@_SETTINGS
@given(text=tag_texts | any_texts)
@example(text="hi [[AUDIO_AS_VOICE]] [[Reply_To_Current]] [[REPLY_TO: x]] [[Foo]]")
def test_unknown_candidates_are_the_names_no_tag_head_starts(text: str) -> None:
    """``tag.unknown``'s candidate regex leaves out audio and reply heads itself; it finds
    exactly the ``[[name`` matches that a filter reading each head afterwards keeps."""
    from richout.tags.explain import _UNKNOWN_HEAD

    names = re.compile(r"\[\[[A-Za-z0-9_:-]+")
    want = [
        m.span()
        for m in names.finditer(text)
        if not AUDIO_HEAD.match(text, m.start()) and not REPLY_HEAD.match(text, m.start())
    ]
    assert [m.span() for m in _UNKNOWN_HEAD.finditer(text)] == want


@_SETTINGS
@given(text=tag_texts | any_texts)
@example(text="[[reply_to:a]]]")
@example(text="[[RePlY_To_CuRrEnT\u00a0]] [[AUDIO_AS_VOICE]] [[reply_to:\ufeffx ]]")
def test_a_tag_starts_only_where_the_first_close_is_doubled(text: str) -> None:
    """``ReplyTagReader.may_start_tag``, the walks' skip over heads that cannot close, is
    never False where a complete audio or reply tag starts."""
    reader = ReplyTagReader(text)
    for pos in range(len(text) - 1):
        if not text.startswith("[[", pos):
            continue
        tag = read_audio_tag(text, pos) or ReplyTagReader(text).read(pos)
        if tag is not None:
            assert reader.may_start_tag(pos), (pos, tag)


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.sampled_from([" ", "\t", "\n", "\r\n", "a", "[[x]]"]), max_size=14),
    st.lists(st.booleans(), min_size=14, max_size=14),
)
def test_closing_sites_gives_a_patch_of_apart_edits_that_rebuilds_the_input(
    tokens: list[str], chosen: list[bool]
) -> None:
    """``close_sites`` writes its patch edit by edit, without the patch builder: for tag
    sites the edits are in order, apart (none touches the next) and each changes something
    (it removes a tag), as the builder would leave them, and the patch turns the input into
    the closed text, and back."""
    text = "".join(tokens)
    starts = list(itertools.accumulate(map(len, tokens), initial=0))
    sites = [(starts[k], starts[k + 1]) for k, t in enumerate(tokens) if t == "[[x]]" and chosen[k]]
    closed, patch = close_sites(text, sites)
    assert (closed, []) == close_sites(text, sites, with_patch=False)
    assert patch == patch_from_pieces(text, [(e.start, e.end, e.inserted) for e in patch])
    assert all(a.end < b.start for a, b in itertools.pairwise(patch))
    assert all(e.removed != e.inserted and text[e.start : e.end] == e.removed for e in patch)
    assert apply(text, patch) == closed and invert(closed, patch) == text
    assert closed.count("[[x]]") == text.count("[[x]]") - len(sites)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from([" ", "\t", "\n", "\r\n", "\r", "\u00a0", "a", "|", "[[x]]"]),
        max_size=16,
    ),
    st.lists(st.booleans(), min_size=16, max_size=16),
)
def test_closing_sites_without_running_facts_takes_the_general_steps_text(
    tokens: list[str], chosen: list[bool]
) -> None:
    """The shortcut (``_closed_site_by_site``), taken without a patch, gives the general
    steps' text wherever it answers (blanks, breaks, trailing whitespace, U+00A0 and
    adjacent sites around the tags)."""
    text = "".join(tokens)
    starts = list(itertools.accumulate(map(len, tokens), initial=0))
    sites = [(starts[k], starts[k + 1]) for k, t in enumerate(tokens) if t == "[[x]]" and chosen[k]]
    fast = _closed_site_by_site(text, sites)
    if fast is not None:
        assert fast == close_sites(text, sites)[0]


@pytest.mark.parametrize(
    ("text", "closed"),
    [
        ("a [[x]] b", "a b"),
        ("a\t[[x]]\t\tb [[x]]c\n", "a b c\n"),
        ("| `x` [[x]] | y |\n| `x` [[x]] | y", "| `x` | y |\n| `x` | y"),
        ("[[x]] b", " b"),  # at the text's start: the blank after it is §5.1's
        ("a\n  [[x]]  b [[x]]", "a\n    b "),  # at a line's start; blanks to the end stay
        ("a\n[[x]]\nb", "a\n\nb"),  # a line of tags only: one blank line at most
        (" [[x]] \r\n\r\n\nb", "\r\n\r\nb"),
        ("a\n\n[[x]]\n\nb", "a\n\nb"),
        ("a\r\r[[x]]\nb", "a\r\r\nb"),  # the seam counts line feeds only
        ("a [[x]] b\n[[x]]\nc", None),  # ... after another site
        ("a [[x]] \nb [[x]]\t\r\nc", "a\nb\r\nc"),  # at lines' ends
        ("a [[x]] \u00a0", "a  \u00a0"),  # only whitespace after it: left to §5.1
        ("\u00a0[[x]] b", "\u00a0 b"),  # after a space that is not a blank
        ("a [[x]][[x]] b", "a b"),  # adjacent sites are one
        ("[[x]][[x]]", ""),
        ("a [[x]] [[x]] b", "a b"),  # blanks only between them, inside a line
        ("a [[x]]\t[[x]]  [[x]]\nb", "a\nb"),
        ("a [[x]] [[x]] ", "a  "),  # the second has only whitespace after it
        ("[[x]] [[x]] b", "  b"),  # ... at the text's start (§5.1 trims the blanks)
        ("a\n[[x]] [[x]] b", "a\n  b"),  # ... or a line's
        ("[[x]] [[x]]\t[[x]]", ""),  # a line of tags only, from the text's start
        ("\n\n\n [[x]] [[x]]\n\nb", "\n\n\nb"),
        ("a\n[[x]] [[x]]\nb", "a\n\nb"),  # the text before it ends in a break
        ("a [[x]] b\n[[x]] [[x]]", None),  # ... after another site
    ],
)
def test_closing_sites_without_running_facts_answers_where_it_can(
    text: str, closed: str | None
) -> None:
    """Which shapes the shortcut answers (so the property above is not vacuous), and that
    its answers are the general steps'."""
    sites = [(m.start(), m.end()) for m in re.finditer(re.escape("[[x]]"), text)]
    assert _closed_site_by_site(text, sites) == closed
    if closed is not None:
        assert close_sites(text, sites)[0] == closed


# ------------------------------------------------- the reply heads left when nothing closes

_UNCLOSED_PIECES = st.sampled_from(
    [
        "[[reply_to:",
        "[[reply_to:x ",
        "[[ REPLY_TO : y",
        "[[reply_to_current",
        "[[reply_to_current ",
        "[[reply_to_current]]",
        "[[reply_to:a]]",
        "[[audio_as_voice]]",
        "]",
        "]]",
        "x",
        " ",
        "\n",
        "\n\n",
        "`",
        "``",
        "```\n",
        "    ",
        "> ",
    ]
)


def _each_head_read(
    text: str, heads: Any, *, in_code: Any, sink: Any, to_input: Any, ends: Any
) -> list[tuple[str, int, int]]:
    """The general reading of the heads left: each read as a tag (none forms one), then
    explained by reply_malformed_row."""
    reader = ReplyTagReader(text)
    rows = []
    for m in heads:
        p = m.start()
        head = reader.head_of(m)
        assert reader.read_head(p, head) is None  # no "]" left: no head can close
        if not in_code(p):
            rows.append(
                reply_malformed_row(
                    text, p, head=head, reader=reader, sink=sink, to_input=to_input, ends=ends
                )
            )
    return rows


@pytest.mark.pure_python(why="replaces a module attribute of a compiled module")
@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_UNCLOSED_PIECES, max_size=14).map("".join), st.booleans())
def test_the_unclosed_heads_run_explains_as_reading_each_head(text: str, audio: bool) -> None:
    """Explaining, the reply heads after one that no "]" follows are explained without
    being read as tags (stages.unclosed_rows); reading each one, as the loop does, gives
    the same findings, spans and outputs (the views and the streaming parser included)."""
    import richout
    from richout.tags import stages

    def results() -> list[Any]:
        out: list[Any] = [
            parse_directives(text, strip_audio_tag=audio, explain=True),
            richout.parse_reply(text, explain=True),
            richout.render_reply(text, explain=True),
        ]
        stream = richout.StreamingParser()
        out += [stream.feed(text[i : i + 7]) for i in range(0, len(text), 7)]
        out.append(stream.finish())
        return [None if r is None else r.model_dump() for r in out]

    fast = results()
    run = stages.unclosed_rows
    stages.unclosed_rows = _each_head_read
    try:
        general = results()
    finally:
        stages.unclosed_rows = run
    assert fast == general
