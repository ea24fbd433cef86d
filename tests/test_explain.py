"""Lazy explanations equal eager ones.

Every text pipeline skips diagnostics, spans and edits unless asked (``explain=True``) and
computes them on first read. These tests prove the two routes give the same result, field by
field, on the realistic corpus, the adversarial corpus and generated text — so laziness is an
optimisation no caller can observe.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import make_corpus

import richout
from richout.models import Explained, rerun

_OPS: dict[str, Callable[..., Explained]] = {
    "media": richout.split_media,
    "media_images": lambda t, **k: richout.split_media(t, extract_markdown_images=True, **k),
    "media_no_audio": lambda t, **k: richout.split_media(t, extract_audio_directives=False, **k),
    "directives": lambda t, **k: richout.parse_directives(t, current_message_id="m1", **k),
    "reply": lambda t, **k: richout.parse_reply(t, current_message_id="m1", **k),
    "embed": richout.extract_embeds,
    "render": richout.render_reply,
}

_REPLIES, _ = make_corpus.make_replies(20260520, 400)
_HOSTILE = [t for _n, t, _d, _o in make_corpus.make_adversarial(20260520) if len(t) < 200_000]


def _same(op: str, text: str) -> None:
    fn = _OPS[op]
    lazy = fn(text)
    eager = fn(text, explain=True)
    # Compared as JSON text, so key order (what a gateway prints) must match too.
    assert json.dumps(lazy.to_wire()) == json.dumps(eager.to_wire()), (op, text[:200])
    assert lazy.explanation() == eager.explanation()
    assert richout.rebuild(lazy) == text


@pytest.mark.parametrize("op", sorted(_OPS))
def test_corpus_lazy_equals_eager(op: str) -> None:
    for text in _REPLIES:
        _same(op, text)


@pytest.mark.parametrize("op", sorted(_OPS))
def test_hostile_lazy_equals_eager(op: str) -> None:
    for text in _HOSTILE:
        _same(op, text)


_PIECES = [
    "MEDIA:https://example.com/a.png",
    "MEDIA: /tmp/../etc/passwd",
    "MEDIA:http://10.0.0.1/x",
    "  MEDIA:./b.png",
    "    MEDIA:~/c.png",
    "```",
    "~~~",
    "- MEDIA:x",
    "> MEDIA:https://example.com/q.png",
    "[[audio_as_voice]]",
    "[[reply_to_current]]",
    "[[ reply_to : 77 ]]",
    "[[reply_to:",
    "`[[reply_to:9]]`",
    '[embed ref="cv_1" height="90" /]',
    '[embed url="javascript:alert(1)" /]',
    "![x](https://example.com/i.png)",
    "NO_REPLY",
    "text",
    "",
    "\r",
]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(_OPS)), st.lists(st.sampled_from(_PIECES), max_size=10))
def test_generated_lazy_equals_eager(op: str, pieces: list[str]) -> None:
    _same(op, "\n".join(pieces))


def test_explanation_is_computed_once() -> None:
    calls: list[int] = []
    real = richout.split_media

    def explainer() -> Any:
        calls.append(1)
        return real("MEDIA:http://a/x", explain=True)

    split = real("MEDIA:http://a/x")
    assert isinstance(split, Explained)
    lazy = type(split).lazy(explainer, **{k: getattr(split, k) for k in type(split).model_fields})
    first = lazy.diagnostics
    assert lazy.diagnostics is first and lazy.spans == lazy.spans
    assert calls == [1]
    assert [d.code for d in first] == [d.code for d in split.diagnostics]


def test_an_explainer_that_is_not_explained_is_refused() -> None:
    """rerun without explain=True would rerun forever; the first read says so instead."""
    split = richout.split_media("MEDIA:http://a/x")
    outputs = {k: getattr(split, k) for k in type(split).model_fields}
    lazy = type(split).lazy(rerun(richout.split_media, "MEDIA:http://a/x"), **outputs)
    with pytest.raises(RuntimeError, match="explain=True"):
        _ = lazy.diagnostics
