"""The cyclic collector is held off while a long text is read, and always comes back.

``richout.collector`` disables Python's garbage collector for pipelines called with a text
of at least ``gc_pause_threshold()`` characters. These tests pin the contract: when it
pauses (every wrapped pipeline, seen by the collector's own callbacks), that it comes back
after returns, errors, nested and concurrent calls and in a forked child, that overlapping
calls cannot starve it, that a collector the caller had disabled stays disabled, and that
outputs do not depend on the switch.
"""

from __future__ import annotations

import gc
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import richout
from richout import collector
from richout.collector import pauses_collector

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import make_corpus


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    before = richout.gc_pause_threshold()
    enabled = gc.isenabled()
    yield
    assert collector._State.depth == 0, "a paused call did not leave"
    richout.set_gc_pause_threshold(before)
    if enabled:
        gc.enable()
    else:
        gc.disable()


@pauses_collector
def _seen(text: str, *, fail: bool = False) -> bool:
    """Whether the collector was enabled inside a paused call."""
    if fail:
        raise RuntimeError("boom")
    return gc.isenabled()


def test_default_threshold_is_16_ki() -> None:
    assert richout.gc_pause_threshold() == 16384


def test_long_text_pauses_and_restores() -> None:
    gc.enable()
    assert _seen("x" * 16384) is False
    assert gc.isenabled()


def test_short_text_leaves_the_collector_alone() -> None:
    gc.enable()
    assert _seen("x" * 16383) is True
    assert _seen(text="short") is True


def test_keyword_text_is_read() -> None:
    gc.enable()
    assert _seen(text="x" * 70000) is False
    assert gc.isenabled()


def test_non_text_passes_through() -> None:
    gc.enable()
    with pytest.raises(richout.InvalidInput):
        richout.split_media(123)  # type: ignore[arg-type]
    assert gc.isenabled()


def test_error_inside_restores() -> None:
    gc.enable()
    with pytest.raises(RuntimeError):
        _seen("x" * 70000, fail=True)
    assert gc.isenabled()


def test_caller_disabled_collector_stays_disabled() -> None:
    gc.disable()
    assert _seen("x" * 70000) is False
    assert not gc.isenabled()


def test_none_turns_the_pause_off() -> None:
    gc.enable()
    richout.set_gc_pause_threshold(None)
    assert _seen("x" * 200000) is True
    richout.set_gc_pause_threshold(0)
    assert _seen("") is False
    assert gc.isenabled()


def test_nested_calls_restore_once_at_the_outermost() -> None:
    gc.enable()

    @pauses_collector
    def outer(text: str) -> tuple[bool, bool]:
        inner = _seen(text)
        return inner, gc.isenabled()

    assert outer("x" * 70000) == (False, False)
    assert gc.isenabled()


def test_concurrent_calls_restore_when_the_last_returns() -> None:
    gc.enable()
    inside = threading.Barrier(2)
    first_done = threading.Event()
    seen: dict[str, bool] = {}

    @pauses_collector
    def slow(text: str, name: str) -> None:
        inside.wait(timeout=10)
        if name == "second":
            first_done.wait(timeout=10)
        seen[name] = gc.isenabled()

    def run(name: str) -> None:
        slow("x" * 70000, name)
        if name == "first":
            seen["after first"] = gc.isenabled()
            first_done.set()

    threads = [threading.Thread(target=run, args=(n,)) for n in ("first", "second")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    # The first call returned while the second still ran: the collector stayed off for it.
    assert seen == {"first": False, "second": False, "after first": False}
    assert gc.isenabled()


@pytest.mark.parametrize("bad", [-1, 1.5, True, "64k"])
def test_threshold_must_be_a_length(bad: object) -> None:
    with pytest.raises(richout.InvalidInput, match="min_chars must be a non-negative int"):
        richout.set_gc_pause_threshold(bad)  # type: ignore[arg-type]


def stream_whole(text: str) -> object:
    """A streaming parser given the whole text at once: one long part to read."""
    return richout.StreamingParser().finish(text)


_PIPELINES = (
    richout.split_media,
    richout.parse_directives,
    richout.parse_reply,
    richout.render_reply,
    richout.extract_embeds,
    richout.delivery_strip,
    stream_whole,
)


#: ~30 KB: media lines, tags, code, an embed: every pipeline builds records from it.
_LONG = (
    "Intro [[reply_to_current]] text `code [[audio_as_voice]]`\n"
    "MEDIA:/tmp/a.png\n"
    '[embed ref="cv_1" /] and [[reply_to:abc]]\n'
    "```\nMEDIA:/tmp/in_code.png\n```\n"
) * 250


def _collections_during(op: object) -> int:
    """Collections that start while ``op(_LONG)`` runs, with a low gen-0 threshold."""
    started: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    old = gc.get_threshold()
    gc.enable()
    gc.set_threshold(50, 10, 10)
    gc.callbacks.append(watch)
    try:
        op(_LONG)  # type: ignore[operator]
    finally:
        gc.callbacks.remove(watch)
        gc.set_threshold(*old)
    return len(started)


@pytest.mark.parametrize("op", _PIPELINES, ids=lambda f: f.__name__)
def test_every_pipeline_pauses_on_long_text(op: object) -> None:
    """Without the pause the call triggers collections; with it, none start inside (one may
    start on the way out, once the collector is back)."""
    richout.set_gc_pause_threshold(None)
    assert _collections_during(op) > 10
    richout.set_gc_pause_threshold(len(_LONG))
    assert _collections_during(op) <= 1
    assert gc.isenabled()


def test_overlapping_calls_cannot_starve_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call returning while another still runs paused collects once the pause is overdue."""
    # Below zero, so that any elapsed time counts, even on a clock too coarse to move.
    monkeypatch.setattr(collector, "MAX_PAUSE_SECONDS", -1.0)
    gc.enable()
    inside = threading.Event()
    release = threading.Event()
    full: list[bool] = []

    @pauses_collector
    def long_running(text: str) -> None:
        inside.set()
        release.wait(timeout=10)

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(gc.isenabled())

    worker = threading.Thread(target=long_running, args=("x" * 20000,))
    worker.start()
    assert inside.wait(timeout=10)
    gc.callbacks.append(watch)
    try:
        assert _seen("x" * 20000) is False  # returns while the worker is still paused
    finally:
        gc.callbacks.remove(watch)
        release.set()
        worker.join(timeout=10)
    # the returning call ran a full collection although the collector was still paused
    assert False in full
    assert gc.isenabled()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX")
def test_a_child_forked_during_a_pause_gets_the_collector_back() -> None:
    gc.enable()
    collector._enter()
    try:
        pid = os.fork()
        if pid == 0:  # the child: report through the exit status, never return to pytest
            ok = gc.isenabled() and collector._State.depth == 0
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
    finally:
        collector._leave()
    assert os.waitstatus_to_exitcode(status) == 0
    assert gc.isenabled()


_TEXTS, _ = make_corpus.make_replies(20260521, 60)
_TEXTS += [
    _LONG,
    "MEDIA:" + " /a" * 3000,
    "[" * 20000 + "[[reply_to_current]] x",
    "\r".join(["MEDIA:/tmp/a.png", "[[audio_as_voice]] x"] * 500),
]


def test_outputs_do_not_depend_on_the_pause() -> None:
    """Every pipeline gives the same explained wire output with the pause always and never."""
    ops = _PIPELINES[:5]
    for text in _TEXTS:
        richout.set_gc_pause_threshold(0)
        paused = [op(text, explain=True).to_wire() for op in ops]  # type: ignore[operator]
        richout.set_gc_pause_threshold(None)
        plain = [op(text, explain=True).to_wire() for op in ops]  # type: ignore[operator]
        assert paused == plain


#: Each pipeline that checks the length itself, with every argument away from its default,
#: so that a paused call (which passes its arguments on as they were given) is seen to
#: keep them all.
_NON_DEFAULT: list[tuple[Any, dict[str, Any]]] = [
    (
        richout.split_media,
        {
            "extract_markdown_images": True,
            "markdown_image_allowlist": ["https://x.test/a.png"],
            "extract_media_directives": False,
            "extract_audio_directives": False,
            "preserve_trailing_whitespace": True,
            "profile": "release-2026.9.6",
            "explain": True,
            "policy": richout.Policy(allow_local_files=False),
        },
    ),
    (
        richout.parse_directives,
        {
            "current_message_id": "m1",
            "strip_audio_tag": False,
            "strip_reply_tags": False,
            "profile": "release-2026.9.6",
            "explain": True,
        },
    ),
    (
        richout.parse_reply,
        {
            "current_message_id": "m1",
            "silent_token": "QUIET",
            "extract_markdown_images": True,
            "extract_media_directives": False,
            "preserve_trailing_whitespace": True,
            "profile": "release-2026.9.6",
            "explain": True,
            "policy": richout.Policy(allow_local_files=False),
        },
    ),
    (
        richout.render_reply,
        {
            "profile": "release-2026.9.6",
            "explain": True,
            "policy": richout.Policy(allow_local_files=False),
        },
    ),
    (richout.extract_embeds, {"profile": "release-2026.9.6", "explain": True}),
]


@pytest.mark.parametrize(("op", "kwargs"), _NON_DEFAULT, ids=lambda x: getattr(x, "__name__", ""))
def test_a_paused_call_keeps_every_argument(op: Any, kwargs: dict[str, Any]) -> None:
    text = "  [[reply_to:x]] ![a](https://x.test/a.png)\nMEDIA:/tmp/a.png\n" + _LONG[:400] + "\n "
    for variant in (kwargs, {k: v for k, v in kwargs.items() if k != "explain"}):
        richout.set_gc_pause_threshold(0)
        paused = op(text, **variant)
        richout.set_gc_pause_threshold(None)
        plain = op(text, **variant)
        assert paused.to_wire() == plain.to_wire()
        assert paused.model_fields_set == plain.model_fields_set
    if op is not richout.extract_embeds:  # whose reading no argument changes (EMBED.md)
        # and the arguments did reach the call: the defaults give another result
        assert op(text).to_wire() != op(text, **kwargs).to_wire()


def test_the_five_pipelines_check_the_length_themselves() -> None:
    """Not wrapped (the wrapper cost 0.6 µs a call), and their signatures are their own."""
    for op, _ in _NON_DEFAULT:
        assert not hasattr(op, "__wrapped__"), op.__name__
