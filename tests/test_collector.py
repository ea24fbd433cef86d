"""The cyclic collector is held off while a long text is read, and always comes back.

``richout.collector`` disables Python's garbage collector for pipelines called with a text
of at least ``gc_pause_threshold()`` characters. These tests pin the contract: when it
pauses, that the collector comes back after returns, errors, nested and concurrent calls,
that a collector the caller had disabled stays disabled, and that outputs do not depend on
the switch.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import richout
from richout.collector import pauses_collector

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import make_corpus


@pytest.fixture(autouse=True)
def _restore() -> Iterator[None]:
    before = richout.gc_pause_threshold()
    enabled = gc.isenabled()
    yield
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


_PIPELINES = (
    richout.split_media,
    richout.parse_directives,
    richout.parse_reply,
    richout.render_reply,
    richout.extract_embeds,
    richout.delivery_strip,
)


@pytest.mark.parametrize("op", _PIPELINES, ids=lambda f: f.__name__)
def test_every_pipeline_is_wrapped(op: object) -> None:
    assert getattr(op, "__wrapped__", None) is not None


def test_verdicts_run_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside a long split_media call the reference checks see the collector off."""
    from richout.media import payload

    gc.enable()
    observed: list[bool] = []
    real = payload.check_reference

    def watching(*args: object, **kwargs: object) -> object:
        observed.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(payload, "check_reference", watching)
    richout.split_media("MEDIA:/tmp/a.png\n" + "x" * 70000)
    richout.split_media("MEDIA:/tmp/b.png")
    assert observed == [False, True]
    assert gc.isenabled()


_TEXTS, _ = make_corpus.make_replies(20260521, 60)
_TEXTS += [t for _n, t, _d, _o in make_corpus.make_adversarial(20260520) if len(t) < 20_000]


def test_outputs_do_not_depend_on_the_pause() -> None:
    """Every pipeline gives the same explained wire output with the pause always and never."""
    ops = _PIPELINES[:5]
    for text in _TEXTS:
        richout.set_gc_pause_threshold(0)
        paused = [op(text, explain=True).to_wire() for op in ops]  # type: ignore[operator]
        richout.set_gc_pause_threshold(None)
        plain = [op(text, explain=True).to_wire() for op in ops]  # type: ignore[operator]
        assert paused == plain
