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

import adversarial
import make_corpus

import richout
from richout.media.split import split_for_views
from richout.models import Explained, rerun
from richout.models.diagnostics import findings_of, patch_of, spans_of
from richout.profiles import resolve_profile
from richout.tags.pipeline import stage_tags

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
    # Every record sets every field, whichever path built it: model_dump(exclude_unset=True)
    # must not depend on the route (parse_directives once left an audio span's value unset).
    for record in (*eager.spans, *eager.diagnostics, *lazy.spans, *lazy.diagnostics):
        assert record.model_fields_set == set(type(record).model_fields), (op, record)


@pytest.mark.parametrize(
    ("text", "end"),
    [
        # The split's tag pass reads "[[reply_to: x  " (the line break before the removed
        # MEDIA: line goes with it); the tag layer reads the trimmed "[[reply_to: x".
        ("hi [[reply_to: x  \nMEDIA:/tmp/a.png", 18),
        # The split's pass reads it before the audio tag goes; the tag layer after.
        ("hi [[reply_to: x [[audio_as_voice]]", 17),
    ],
)
def test_a_construct_two_layers_read_differently_is_reported_once(text: str, end: int) -> None:
    """The views once reported such a construct twice, the tag layer's copy reaching over the
    removed line or tag (its reused reading kept the split's longer range)."""
    for fn in (richout.split_media, richout.parse_reply, richout.render_reply):
        found = [(d.code, d.start, d.end) for d in fn(text, explain=True).diagnostics]
        assert [f for f in found if f[0].startswith("tag.")] == [("tag.malformed", 3, end)]


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
    # payloads without / \ ~ . : (the split and an unexplained walk keep such a line
    # without reading it; the explanation reads it)
    'MEDIA:"=]',
    "MEDIA: 'a' b",
    " MEDIA:`x` y,z",
    '\tmedia:["a", "b"]',
    "> MEDIA:https://example.com/q.png",
    "[[audio_as_voice]]",
    "[[reply_to_current]]",
    "[[ reply_to : 77 ]]",
    "[[reply_to:",
    "[[reply_to:abc] hi",
    "[[reply_to: x  ",
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


# Deferred results: the stages inside parse_reply and render_reply hand findings on as tuples
# (richout.models.diagnostics.deferred). What the next stage reads before any record is built
# must be exactly what the eager result holds, and the result itself must equal it.

_FAMILY_TEXTS = [make(40) for make in adversarial.FAMILIES.values()]


def _deferred_equals_eager(deferred_result: Explained, eager: Explained) -> None:
    found = findings_of(deferred_result)
    assert found is not None  # nothing was built yet
    spans, patch = spans_of(deferred_result), patch_of(deferred_result)
    assert [(f[0], f[1], f[2], f[3], f[4]) for f in found] == [
        (d.start, d.code, d.end, d.severity, d.message) for d in eager.diagnostics
    ]
    assert spans == eager.spans and patch == patch_of(eager)
    assert findings_of(deferred_result) is not None  # reading parts built nothing
    assert deferred_result == eager  # builds the records now
    assert findings_of(deferred_result) is None


@pytest.mark.parametrize(
    ("strip_audio", "strip_reply"), [(True, True), (True, False), (False, True)]
)
def test_deferred_tag_stages_equal_parse_directives(strip_audio: bool, strip_reply: bool) -> None:
    checked = 0
    for text in [*_REPLIES, *_HOSTILE, *_FAMILY_TEXTS]:
        if "[[" not in text:
            continue
        got = stage_tags(
            text, strip_audio=strip_audio, strip_reply=strip_reply, current_message_id="m1"
        )
        eager = richout.parse_directives(
            text,
            current_message_id="m1",
            strip_audio_tag=strip_audio,
            strip_reply_tags=strip_reply,
            explain=True,
        )
        _deferred_equals_eager(got, eager)
        checked += 1
    assert checked > 40


def test_deferred_split_equals_split_media() -> None:
    """The views' split is split_media's, explanation included, but for the segments of a
    walked reply, which no view reads and which it leaves unset."""
    next_profile = resolve_profile("next")
    checked = 0
    for text in [*_REPLIES, *_HOSTILE, *_FAMILY_TEXTS]:
        got = split_for_views(text, profile=next_profile, explain=True, policy=None)
        eager = richout.split_media(text, explain=True)
        if findings_of(got) is None:  # the split did not walk: an eager result, as before
            assert got == eager
            continue
        assert got.segments is None
        outputs = {k: getattr(eager, k) for k in type(eager).model_fields if k != "segments"}
        without_segments = type(eager).explained(
            diagnostics=eager.diagnostics, spans=eager.spans, edits=eager.edits, **outputs
        )
        _deferred_equals_eager(got, without_segments)
        checked += 1
    assert checked > 40


def test_two_constructs_whose_starts_map_to_one_place_are_both_reported() -> None:
    """A line rewritten in more places than it gets edits for is one edit, so both code
    spans' tags map to its start; they are still two findings (a first version of the
    one-per-construct rule keyed every collector by start and lost the second)."""
    text = "MEDIA:https://e.example/a.png " + "a  " * 20 + "`[[reply_to:1]]` `[[reply_to:  2]]`"
    for fn in (richout.split_media, richout.parse_reply, richout.render_reply):
        found = [d for d in fn(text, explain=True).diagnostics if d.code == "tag.in_code"]
        assert len(found) == 2, fn


_ARGUMENT_TEXT = (
    "[[reply_to_current]] hi ![x](https://example.com/i.png)\n"
    "MEDIA:https://example.com/a.png  \n\n[[audio_as_voice]] NO_REPLY  \n"
)
_DENY = richout.Policy(deny_hosts=["example.com"])
_PRESERVED = "hi\nMEDIA:https://example.com/a.png\n  "


_ARGUMENT_ROWS: list[tuple[str, str, dict[str, Any]]] = [
    ("split_media", _ARGUMENT_TEXT, {"extract_markdown_images": True}),
    (
        "split_media",
        _ARGUMENT_TEXT,
        {"markdown_image_allowlist": ["https://example.com/i.png"]},
    ),
    ("split_media", _ARGUMENT_TEXT, {"extract_media_directives": False}),
    ("split_media", _ARGUMENT_TEXT, {"extract_audio_directives": False}),
    ("split_media", _ARGUMENT_TEXT, {"preserve_trailing_whitespace": True}),
    ("split_media", _ARGUMENT_TEXT, {"profile": "release-2026.9.6"}),
    ("split_media", _ARGUMENT_TEXT, {"policy": _DENY}),
    ("parse_reply", _ARGUMENT_TEXT, {"current_message_id": "m1"}),
    ("parse_reply", "HUSH", {"silent_token": "HUSH"}),
    ("parse_reply", _ARGUMENT_TEXT, {"extract_markdown_images": True}),
    ("parse_reply", _ARGUMENT_TEXT, {"extract_media_directives": False}),
    ("parse_reply", _PRESERVED, {"preserve_trailing_whitespace": True}),
    ("parse_reply", _ARGUMENT_TEXT, {"profile": "release-2026.9.6"}),
    ("parse_reply", _ARGUMENT_TEXT, {"policy": _DENY}),
    ("render_reply", _ARGUMENT_TEXT, {"role": "user"}),
    ("render_reply", _ARGUMENT_TEXT, {"profile": "release-2026.9.6"}),
    ("render_reply", _ARGUMENT_TEXT, {"policy": _DENY}),
    ("parse_directives", _ARGUMENT_TEXT, {"current_message_id": "m1"}),
    ("parse_directives", _ARGUMENT_TEXT, {"strip_audio_tag": False}),
    ("parse_directives", _ARGUMENT_TEXT, {"strip_reply_tags": False}),
    ("parse_directives", _ARGUMENT_TEXT, {"profile": "release-2026.9.6"}),
]


@pytest.mark.parametrize(
    ("name", "text", "arguments"),
    _ARGUMENT_ROWS,
    ids=[f"{name}-{next(iter(arguments))}" for name, _, arguments in _ARGUMENT_ROWS],
)
def test_a_lazy_result_explains_the_call_with_every_argument(
    name: str, text: str, arguments: dict[str, Any]
) -> None:
    """The explainer reruns the call with each of its arguments (it takes them by position,
    so one dropped or swapped would explain another call): each row's argument changes the
    explanation, and the lazy result's is the eager one's."""
    fn = getattr(richout, name)
    lazy = fn(text, **arguments)
    eager = fn(text, explain=True, **arguments)
    assert eager.explanation() != fn(text, explain=True).explanation()  # the row's power
    assert lazy.explanation() == eager.explanation()
    assert json.dumps(lazy.to_wire()) == json.dumps(eager.to_wire())
