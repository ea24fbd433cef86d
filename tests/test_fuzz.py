"""Fuzzing with a short fixed budget, and the crashes fuzzing found.

``benchmarks/fuzz.py`` holds the generator (texts joined from the protocol's pieces) and the
checks (nothing raises but ``InvalidInput``, lossless rebuild eager and lazy, delivered
references pass the policy, streaming partitions, jsonl answers every line); here Hypothesis
drives them deterministically (``derandomize=True``), a few hundred examples in all.
``python benchmarks/fuzz.py --seconds N`` runs the long version.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import richout
from richout import envelope

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import fuzz

# --------------------------------------------------------------------------- the strategy

_PIECE = st.one_of(
    st.sampled_from(fuzz.PIECES),
    st.sampled_from(fuzz.ODD_CHARS),
    st.builds(lambda run, n: run * n, st.sampled_from(fuzz.RUNS), st.integers(2, 60)),
)


@st.composite
def cases(draw: st.DrawFn) -> fuzz.Case:
    """A text built from the protocol's pieces, stream cuts and options."""
    text = "".join(draw(st.lists(_PIECE, max_size=16)))
    return fuzz.Case(
        text=text,
        cuts=tuple(draw(st.lists(st.integers(0, len(text)), max_size=5))),
        images=draw(st.booleans()),
        preserve=draw(st.booleans()),
        current=draw(st.sampled_from([None, "msg-1", " ", "\ud800"])),
        role=draw(st.sampled_from(["assistant", "user"])),
        ascii_json=draw(st.booleans()),
        variant=draw(st.integers(0, len(fuzz.VARIANTS) - 1)),
    )


# Budgets: text-side checks are the widest (5 functions x 2 profiles x eager/lazy).
@settings(max_examples=120, derandomize=True, deadline=None)
@given(cases())
@example(fuzz.Case(text="[](`\ud83d\ude00[[a]]`"))  # defect 14 (the long run finds it in a minute)
def test_fuzz_text_functions(case: fuzz.Case) -> None:
    fuzz.check(case, ("text",))


@settings(max_examples=80, derandomize=True, deadline=None)
@given(cases())
def test_fuzz_streaming_under_random_chunkings(case: fuzz.Case) -> None:
    fuzz.check(case, ("streaming",))


@settings(max_examples=60, derandomize=True, deadline=None)
@given(cases())
def test_fuzz_envelope_functions(case: fuzz.Case) -> None:
    fuzz.check(case, ("envelope",))


@settings(max_examples=40, derandomize=True, deadline=None)
@given(cases())
def test_fuzz_jsonl(case: fuzz.Case) -> None:
    fuzz.check(case, ("jsonl",))


def test_the_plain_engine_is_deterministic_and_reports_executions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gen = fuzz.random_cases(7)
    first = [next(gen) for _ in range(5)]
    gen = fuzz.random_cases(7)
    assert [next(gen) for _ in range(5)] == first
    assert fuzz.main(["--engine", "random", "--seconds", "0", "--checks", "text"]) == 0
    assert "0 executions, 0 failures" in capsys.readouterr().out


def test_a_failure_is_shrunk_to_a_minimal_reproducer(monkeypatch: pytest.MonkeyPatch) -> None:
    # A stand-in bug: split_media crashes on any text holding a NUL.
    real = richout.split_media

    def buggy(text: str, **kw: Any) -> Any:
        if "\0" in text:
            raise KeyError("boom")
        return real(text, **kw)

    monkeypatch.setattr(richout, "split_media", buggy)
    case = fuzz.Case(text="Hello [[reply_to_current]]\nMEDIA:/srv/a.png\x00 tail", cuts=(3, 9))
    with pytest.raises(fuzz.FuzzFailure) as exc:
        fuzz.check(case, ("text",))
    assert exc.value.signature == ("split_media", "KeyError")
    assert fuzz.minimize(case, exc.value) == fuzz.Case(text="\x00")
    assert "minimal case: Case(text='\\x00'" in fuzz.report(case, exc.value)


# --------------------------------------------------------------------------- defect 14

# Surrogate code units (from JS bridges or lenient JSON decoders) inside a Markdown link
# destination reached markdown-it-py's link normaliser, whose UTF-8 encoder refused them.
SURROGATE_TEXTS = [
    "[](`\ud83d\ude00[[a]]`",  # the reproducer: a paired surrogate
    "[](`\ud83d[[a]]`",  # a lone high half
    "[](`\ude00[[a]]`",  # a lone low half
    "a`[x](<\ud83d\ude00>)` [[b]]",
    "[a](http://\ud83d\ude00.example/`) [[c]]`",
    "<http://\ud83d\ude00.com/`>`[[d]]",
    "- [x](\ud83d\ude00 `y`)\n  MEDIA:/srv/a.png\n[[reply_to_current]]",
    '[view `](\ud83d\ude00 [embed ref="cv_1" /]',
]

PIPELINES: dict[str, Callable[..., Any]] = {
    "split_media": richout.split_media,
    "parse_directives": richout.parse_directives,
    "parse_reply": richout.parse_reply,
    "extract_embeds": richout.extract_embeds,
    "render_reply": richout.render_reply,
}


@pytest.mark.parametrize("text", SURROGATE_TEXTS)
@pytest.mark.parametrize("name", sorted(PIPELINES))
@pytest.mark.parametrize("profile", sorted(richout.PROFILES))
def test_surrogates_in_link_destinations_do_not_crash(text: str, name: str, profile: str) -> None:
    fn = PIPELINES[name]
    eager = fn(text, profile=profile, explain=True)
    lazy = fn(text, profile=profile)
    assert lazy.to_wire() == eager.to_wire()  # reading a lazy result explains it too
    assert richout.rebuild(eager) == richout.rebuild(lazy) == text


def test_a_surrogate_pair_reads_like_the_character_it_encodes() -> None:
    # Outputs are unchanged: the code span after the link is found as it is for the
    # astral character itself, so the same diagnostics come back.
    pair = richout.split_media("[](`\ud83d\ude00[[a]]`", explain=True)
    char = richout.split_media("[](`\U0001f600[[a]]`", explain=True)
    assert pair.text == "[](`\ud83d\ude00[[a]]`"
    assert [d.code for d in pair.diagnostics] == [d.code for d in char.diagnostics]
    tags = richout.parse_directives("`x` [](\ud83d\ude00 `[[reply_to_current]]`", explain=True)
    assert not tags.reply_to_current
    assert [d.code for d in tags.diagnostics] == ["tag.in_code"]


def test_surrogates_reach_the_streaming_parser_safely() -> None:
    sp = richout.StreamingParser()
    chunk = sp.feed("a```\r[[a]][](\ud83d\ude00")
    assert chunk is not None and chunk.text == "a```\r[[a]][](\ud83d\ude00"
    assert sp.finish() is None
    assert sp.result().to_wire() == richout.parse_reply(sp.text).to_wire()


def test_surrogates_reach_the_envelope_text_functions_safely() -> None:
    text = "[](`\ud83d\ude00[[a]]`\nMEDIA:/srv/a.png"
    out = envelope.resolve_payload({"text": text}, parse_final_directives=True).to_wire()
    assert out["media"] == ["/srv/a.png"]
    merged, _, _ = envelope.merge_final_directives(envelope.ReplyPayload(text=text))
    assert merged.media_urls == ["/srv/a.png"]
    ledger = envelope.DeliveryLedger()
    ledger.record_block({"text": text})
    ledger.finalize([{"text": text}], parse_final_directives=True).to_wire()
    assert [d.code for d in envelope.message_tool_mode_findings(text)] == [
        "envelope.media_line_in_message_tool_mode"
    ]
