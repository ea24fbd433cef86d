"""The probing substring search (``text.chars.find_str``), the character tests' shortcuts
(``has_js_ws``, ``ascii_lower``) and the tag runs that build no patch.

Each is a speed path with one obligation: the answer it replaces. ``find_str``,
``contains`` and ``has_double_bracket`` must answer as ``str.find`` and ``in`` do on every
text, short (searched plainly) or long (probed from the needle's first character, then
searched plainly after ``_PROBES`` misses); a :class:`TagStages` run with ``edits=False``
must give the texts, tags and findings of the run that builds its patches.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_tags_properties import any_texts, tag_texts

from richout.tags import close
from richout.tags.close import LEADING_BREAKS, leading_breaks_end
from richout.tags.code import StageCode
from richout.tags.explain import Sink
from richout.tags.pipeline import TagStages
from richout.text import chars
from richout.text.chars import (
    JS_WS_CLASS,
    JS_WS_SET,
    ascii_lower,
    contains,
    find_str,
    has_double_bracket,
    has_js_ws,
    js_rtrim,
)

_NEEDLES = ["[[", "```", "~~~", "](", "]:", "`a", "a"]


def _random_text(rng: random.Random) -> str:
    """Prose with the needles' first characters sparse or dense, at every length band."""
    alphabet = rng.choice(["ab []", "abcdefgh ", "`~a", "[]:(a", "a b c d e f [ ` ~ ] ("])
    length = rng.choice([0, 5, 100, chars._PLAIN_BELOW - 1, chars._PLAIN_BELOW, 600, 3000])
    text = [rng.choice(alphabet) for _ in range(length)]
    for _ in range(rng.randint(0, 2)):
        # A needle planted somewhere, so that found and not found both occur at every length.
        at = rng.randint(0, len(text))
        text[at:at] = rng.choice(_NEEDLES)
    if rng.random() < 0.3:
        text.insert(0, rng.choice("é\u0634\U0001f600"))  # the wider string kinds
    return "".join(text)


def test_find_str_answers_as_str_find() -> None:
    rng = random.Random(20261202)
    probed = fell_back = found = missed = 0
    for _ in range(20_000):
        text = _random_text(rng)
        start = rng.choice([0, 0, 1, rng.randint(0, len(text) + 2)])
        for needle in _NEEDLES:
            want = text.find(needle, start)
            assert find_str(text, needle, start) == want, (text, needle, start)
            assert contains(text, needle) == (needle in text), (text, needle)
            if len(text) - start >= chars._PLAIN_BELOW:
                probed += 1
                fell_back += text.count(needle[0], start) > chars._PROBES
                found += want >= 0
                missed += want < 0
        assert has_double_bracket(text) == ("[[" in text), text
    # Not vacuous: long texts were probed, found and missed, and some ran out of probes.
    assert probed > 10_000 and fell_back > 1_000, (probed, fell_back)
    assert found > 1_000 and missed > 1_000, (found, missed)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 5000,  # every place starts the needle
        "[a" * 5000 + "[[",  # probes run out; the plain search finds the end
        "[a" * 5000,  # probes run out; nothing to find
        "a" * 5000 + "[[",  # one probe
        "``a" * 2000 + "```",
    ],
)
def test_dense_and_sparse_first_characters(text: str) -> None:
    assert has_double_bracket(text) == ("[[" in text)
    for needle in _NEEDLES:
        assert find_str(text, needle) == text.find(needle)
        assert find_str(text, needle, len(text) // 2) == text.find(needle, len(text) // 2)


def _stages(text: str, flags: tuple[bool, bool, bool], edits: bool | None) -> TagStages:
    strip_audio, strip_reply, explain = flags
    sink = Sink(text, strip_audio, strip_reply, explain)
    return TagStages(text, StageCode(text), sink, strip_audio, strip_reply, edits=edits)


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tag_texts | any_texts)
def test_tag_runs_without_patches_read_the_same(text: str) -> None:
    for flags in [(True, True, False), (False, True, False), (True, True, True)]:
        full = _stages(text, flags, edits=True)
        lean = _stages(text, flags, edits=False)
        assert (lean.text2, lean.text3, lean.final) == (full.text2, full.text3, full.final)
        assert lean.outputs("m") == full.outputs("m")
        assert lean.audio == full.audio
        assert [(r.start, r.end, r.id) for r in lean.replies] == [
            (r.start, r.end, r.id) for r in full.replies
        ]
        if flags[2]:
            out = full.outputs(None)
            assert lean.findings(out, None).records() == full.findings(out, None).records()
        assert not lean.patch2 and not lean.patch3
    # Explaining runs build their patches by default; the others do not.
    assert _stages(text, (True, True, True), None).edits
    assert not _stages(text, (True, True, False), None).edits
    # The split's own pass (audio stripped, reply tags kept and not read, nothing
    # explained) keeps its texts and flag alone: the same final text, no offsets to map.
    code, sink = StageCode(text), Sink(text, True, False, False)
    split_run = TagStages(text, code, sink, True, False, read_replies=False)
    kept = _stages(text, (True, False, False), edits=True)
    assert (split_run.text2, split_run.final, split_run.audio) == (
        kept.text2,
        kept.final,
        kept.audio,
    )
    if split_run.audio:
        assert split_run.patch1 == [] and not split_run.replies
        with pytest.raises(RuntimeError, match="no patch"):
            split_run.to_input(0)
    # A caller that right-trims the run's text (the split's) gets the same trimmed text
    # without the tail's code question.
    assert js_rtrim(_split_pass(text, trimmed=True).final) == js_rtrim(split_run.final)


def _split_pass(text: str, *, trimmed: bool) -> TagStages:
    sink = Sink(text, True, False, False)
    return TagStages(text, StageCode(text), sink, True, False, read_replies=False, trimmed=trimmed)


def test_a_trimmed_run_skips_only_the_tail_a_trim_removes() -> None:
    """An unclosed fence owns the whitespace ending the text: §5.1 keeps it, a run whose
    caller trims does not ask, and both trim to the same text."""
    text = "[[audio_as_voice]] hi\n```\nx  \n"
    exact, lean = _split_pass(text, trimmed=False), _split_pass(text, trimmed=True)
    assert exact.final == "hi\n```\nx  \n" and lean.final == "hi\n```\nx"
    assert js_rtrim(exact.final) == lean.final


def test_a_run_without_patches_refuses_to_compose_edits() -> None:
    run = _stages("[[reply_to_current]] hi", (True, True, True), edits=False)
    with pytest.raises(RuntimeError, match="edits=False"):
        run.spans_and_patch()


# --------------------------------------------------------------------------- blank-line runs

_RUN_PIECES = [" ", "\t", "\n", "\r", "\r\n", "\u00a0", "\u2028", "\x0b", "x", "\n\n"]
_WS_NO_LF = chars.JS_WS.replace("\n", "")
#: Each BlankLineRun against the group pattern it replaced (README, Speed, ninth stop).
_RUN_ORACLES = [
    (chars.BlankLineRun(_WS_NO_LF, "\n"), re.compile("(?:[" + _WS_NO_LF + "]*\n)*")),
    (
        chars.BlankLineRun(chars.JS_WS_NO_BREAK, "\r\n"),
        re.compile("(?:[" + chars.JS_WS_NO_BREAK + "]*(?:\r\n|\r|\n))*"),
    ),
    (chars.BlankLineRun(" \t", "\n"), re.compile(r"(?:[ \t]*\n)*")),
    (chars.BlankLineRun(" \t", "\r\n"), re.compile(r"(?:[ \t]*(?:\r\n|\r|\n))*")),
]


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(_RUN_PIECES), max_size=16).map("".join),
    st.integers(0, 40),
    st.integers(0, 40),
)
def test_a_blank_line_run_ends_where_its_group_pattern_does(text: str, a: int, b: int) -> None:
    start, stop = min(a, len(text)), min(max(a, b), len(text))
    for run, pattern in _RUN_ORACLES:
        m = pattern.match(text, start, stop)
        assert run.end(text, start, stop) == (m.end() if m is not None else start)
    assert leading_breaks_end(text) == LEADING_BREAKS.match(text).end()  # type: ignore[union-attr]


@pytest.mark.pure_python(why="replaces a compiled module's constant")
def test_blank_line_runs_read_a_megabyte_of_breaks_in_one_class_scan(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not the group patterns: they push a backtracking mark per line (a megabyte of line
    feeds cost 110 ms). Checked by what runs, not by a clock: a run's pattern is one
    character class, and a run of line feeds alone never reaches LEADING_BREAKS."""
    text = "\n" * 100_000 + "x"
    run = chars.BlankLineRun(" \t", "\n")
    assert "(" not in run._run.pattern
    assert run.end(text) == 100_000

    class Refuses:
        def match(self, text: str) -> None:
            raise AssertionError("the group pattern read a run without CR")

    monkeypatch.setattr(close, "LEADING_BREAKS", Refuses())
    assert leading_breaks_end(text) == 100_000
    monkeypatch.undo()
    with_cr = "\r\n" * 50_000 + "x"
    assert chars.BlankLineRun(" \t", "\r\n").end(with_cr) == 100_000
    assert leading_breaks_end(with_cr) == 100_000  # the one case left to the group pattern


def _every_character() -> str:
    """Every code point, lone surrogates included (a Python string may hold them)."""
    return "".join(map(chr, range(0x110000)))


def test_whitespace_test_answers_as_the_class_on_every_character() -> None:
    """``has_js_ws`` skips its regex for a text Python prints whole: every JavaScript
    whitespace character but the space must be one it does not print."""
    whole = _every_character()
    spaces = [ch for ch in whole if has_js_ws(ch)]
    assert "".join(spaces) == "".join(sorted(JS_WS_SET))
    assert all(not ch.isprintable() for ch in JS_WS_SET - {" "})


@given(st.text(alphabet=st.characters(codec=None), max_size=40) | st.text(max_size=40))
def test_whitespace_test_answers_as_the_class(text: str) -> None:
    assert has_js_ws(text) == (re.search(f"[{JS_WS_CLASS}]", text) is not None)
    for ch in ("\t", "\u00a0", "\ufeff", "\u3000", "\x00", "\x7f", "é"):
        mixed = text + ch
        assert has_js_ws(mixed) == (re.search(f"[{JS_WS_CLASS}]", mixed) is not None)


_UPPER_TABLE = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def test_ascii_lower_folds_only_ascii_letters_on_every_character() -> None:
    """Not ``str.lower`` on a non-ASCII text: U+0130 and U+212A (the Kelvin sign) lower-case
    to ASCII letters there, and JavaScript's ``/i`` on an ASCII pattern never folds them."""
    whole = _every_character()
    assert ascii_lower(whole) == whole.translate(_UPPER_TABLE)
    ascii_part = whole[:128]
    assert ascii_lower(ascii_part) == ascii_part.translate(_UPPER_TABLE)
    assert ascii_lower("MEDIA:\u212a") == "media:\u212a"


@given(st.text(max_size=40))
def test_ascii_lower_answers_as_the_table(text: str) -> None:
    assert ascii_lower(text) == text.translate(_UPPER_TABLE)
