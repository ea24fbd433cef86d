"""Python's cyclic garbage collector, held off while a long text is read.

Reading a reply builds small records (a directive line, a payload part, a segment, a
diagnostic) that all stay alive until the result is returned. CPython runs a full
collection each time the containers created since the last one reach a quarter of those
alive, and a full collection visits every live container: on a 1 MB reply of 100,000
``MEDIA:`` lines, 8 full collections took 0.94 s of a 1.65 s ``split_media`` call, and the
hostile inputs of ``benchmarks/adversarial.py`` spent about half their time there. Those
records are all still referenced until the call returns, so the collector cannot free any
of them: the work is overhead.

A pipeline called with a text of at least :func:`gc_pause_threshold` characters (16 Ki by
default) therefore disables the collector for the duration of the call and enables it again
on the way out, when nothing else had disabled it first. Shorter texts leave the collector
alone: their records are too few for a full collection to matter. Calls may nest and may run
in several threads at once: the collector comes back when the last paused call returns.
Garbage created meanwhile by other threads is collected then, not lost. A gateway that
wants the collector never touched calls ``set_gc_pause_threshold(None)``.
"""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from richout.errors import InvalidInput

__all__ = ["gc_pause_threshold", "pauses_collector", "set_gc_pause_threshold"]

_P = ParamSpec("_P")
_R = TypeVar("_R")


class _State:
    """The switch and the count of paused calls, shared by every thread."""

    #: texts shorter than this (characters) never pause the collector; ``None``: nothing does
    threshold: int | None = 1 << 14
    lock = threading.Lock()
    #: paused calls running now, in every thread
    depth = 0
    #: the outermost paused call found the collector enabled and disabled it
    disabled_here = False


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


def _enter() -> None:
    with _State.lock:
        if _State.depth == 0 and gc.isenabled():
            gc.disable()
            _State.disabled_here = True
        _State.depth += 1


def _leave() -> None:
    with _State.lock:
        _State.depth -= 1
        if _State.depth == 0 and _State.disabled_here:
            _State.disabled_here = False
            gc.enable()


def pauses_collector(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` with the collector paused when its text is long (see the module docs).

    The text is ``fn``'s first positional argument, or its ``text`` keyword. Anything that
    is not a ``str`` passes through untouched, for ``fn`` to refuse.
    """

    @functools.wraps(fn)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        text = args[0] if args else kwargs.get("text")
        limit = _State.threshold
        if limit is None or not isinstance(text, str) or len(text) < limit:
            return fn(*args, **kwargs)
        _enter()
        try:
            return fn(*args, **kwargs)
        finally:
            _leave()

    return paused
