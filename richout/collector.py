"""Python's cyclic garbage collector, held off while a long text is read.

Reading a reply builds small records (a directive line, a payload part, a segment, a
diagnostic) that all stay alive until the result is returned. CPython runs a full
collection each time the containers created since the last one reach a quarter of those
alive, and a full collection visits every live container: on a 1 MB reply of 100,000
``MEDIA:`` lines, 8 full collections took 0.94 s of a 1.65 s ``split_media`` call, and the
hostile inputs of ``benchmarks/adversarial.py`` spent about half their time there. Those
records are all still referenced until the call returns, so the collector cannot free any
of them: the work is overhead.

``parse_reply``, ``render_reply``, ``split_media``, ``parse_directives``, ``extract_embeds``
and ``delivery_strip``, called with a text of at least :func:`gc_pause_threshold` characters
(16 Ki by default), therefore disable the collector for the duration of the call and enable
it again when the last such call returns, in any thread (``StreamingParser`` and
``BlockStreamer`` pause through the pipelines and tag reads they call). Shorter texts leave the
collector alone: their records are too few for a full collection to matter. A call made
inside a paused call of the same thread runs as it is: the outer call holds the pause.

The first five check the length themselves (``len(text) >= Pause.at``) and call
:func:`paused_call` only for a long text: a wrapper around every call cost about 0.6 µs,
an eighth of a short reply's ``split_media``. :func:`pauses_collector` wraps the others.

- A collector that was off when the first paused call began stays off; turning it off
  during a paused call is undone when the last one returns.
- Garbage other threads create meanwhile is collected once the pause ends, not lost; if
  overlapping calls keep it going for more than :data:`MAX_PAUSE_SECONDS`, a returning call
  runs one collection.
- A process forked during a paused call starts with the collector enabled again.
- ``set_gc_pause_threshold(None)`` leaves the collector alone entirely.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from richout.errors import InvalidInput

__all__ = [
    "MAX_PAUSE_SECONDS",
    "Pause",
    "gc_pause_threshold",
    "pause_needed",
    "paused_call",
    "pauses_collector",
    "set_gc_pause_threshold",
]

_P = ParamSpec("_P")
_R = TypeVar("_R")


class _State:
    """The switch and the count of paused calls, shared by every thread."""

    #: texts shorter than this (characters) never pause the collector; ``None``: nothing does
    threshold: int | None = 1 << 14
    #: reentrant: a signal handler may call a pipeline while this thread holds it
    lock = threading.RLock()
    #: paused calls running now, in every thread
    depth = 0
    #: the outermost paused call found the collector enabled and disabled it
    disabled_here = False
    #: when the collector was last paused or last ran a collection of our own
    since = 0.0


#: Overlapping calls (worker threads reading long replies back to back) can keep the pause
#: going; after this many seconds a returning call collects once, so it never starves.
MAX_PAUSE_SECONDS = 1.0


class Pause:
    """What a pipeline reads on every call: texts of at least ``at`` characters pause.

    ``at`` is :func:`gc_pause_threshold`, or a length no text reaches when that is None.
    """

    at: int = 1 << 14


#: Whether this thread is inside a paused call (its nested calls then run as they are).
_here = threading.local()


def gc_pause_threshold() -> int | None:
    """The text length (characters) from which a pipeline pauses the cyclic collector.

    ``None`` means the collector is never paused.
    """
    return _State.threshold


def set_gc_pause_threshold(min_chars: int | None) -> None:
    """Pause the cyclic collector for texts of at least ``min_chars`` characters.

    ``None`` turns the pause off for every call; ``0`` pauses for every text. The default
    is 16,384. Raises :class:`~richout.errors.InvalidInput` for anything but a
    non-negative ``int`` or ``None``.
    """
    if min_chars is not None and (
        type(min_chars) is not int or min_chars < 0  # bool is not a length
    ):
        raise InvalidInput(
            "set_gc_pause_threshold: min_chars must be a non-negative int (characters) or "
            f"None (never pause), got {min_chars!r}"
        )
    _State.threshold = min_chars
    Pause.at = sys.maxsize if min_chars is None else min_chars


def _enter() -> None:
    with _State.lock:
        if _State.depth == 0 and gc.isenabled():
            gc.disable()
            _State.disabled_here = True
            _State.since = time.monotonic()
        _State.depth += 1


def _leave() -> None:
    overdue = False
    with _State.lock:
        _State.depth -= 1
        if _State.depth == 0:
            if _State.disabled_here:
                _State.disabled_here = False
                gc.enable()
        elif _State.disabled_here and time.monotonic() - _State.since > MAX_PAUSE_SECONDS:
            _State.since = time.monotonic()
            overdue = True
    if overdue:
        # Other calls still run paused; this one has returned, so it pays for the collection.
        gc.collect()


def _after_fork_in_child() -> None:
    """A child forked during a paused call starts with no call running: undo the pause."""
    _State.lock = threading.RLock()
    _State.depth = 0
    _here.inside = False
    if _State.disabled_here:
        _State.disabled_here = False
        gc.enable()


if hasattr(os, "register_at_fork"):  # not on Windows
    os.register_at_fork(after_in_child=_after_fork_in_child)


def pause_needed() -> bool:
    """Is this thread outside any paused call? (Asked only for a text of at least
    ``Pause.at`` characters.)"""
    return not getattr(_here, "inside", False)


def paused_call(fn: Callable[..., _R], arguments: dict[str, Any]) -> _R:
    """``fn(**arguments)`` with the collector paused: what a pipeline that checks the length
    itself returns for a long text, with ``arguments`` its parameters (``locals()`` taken
    before anything else is bound), after :func:`pause_needed` said yes. ``fn`` sees this
    thread inside the pause and runs as it is."""
    _enter()
    was_inside = not pause_needed()
    _here.inside = True
    try:
        return fn(**arguments)
    finally:
        _here.inside = was_inside
        _leave()


def pauses_collector(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` with the collector paused when its text is long (see the module docs).

    The text is ``fn``'s first positional argument, or its ``text`` keyword. Anything that
    is not a ``str`` passes through untouched, for ``fn`` to refuse.
    """

    @functools.wraps(fn)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        text = args[0] if args else kwargs.get("text")
        if not isinstance(text, str) or len(text) < Pause.at or not pause_needed():
            return fn(*args, **kwargs)
        _enter()
        _here.inside = True
        try:
            return fn(*args, **kwargs)
        finally:
            _here.inside = False
            _leave()

    return paused
