"""How a skill result says it failed (SKILL_ENVELOPE.md §2-§3): the reading rules.

A result fails when ``success`` is ``false`` (reason from ``stderr``, ``error``, ``msg``, then
``user_message``) or, failing that, when ``ok`` is ``false`` (reason from ``error``, then
``msg``). ``error_type`` values and ``need_param`` make a failure recoverable. These rules are
shared by :func:`~richout.envelope.skill.classify` (which explains them) and by
:func:`~richout.envelope.skill_offload.offload` (which never offloads a failure).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from richout.envelope._common import py_usable

__all__ = [
    "KNOWN_ERROR_TYPES",
    "RECOVERABLE_ERROR_TYPES",
    "has_recoverable_signal",
    "read_failure",
]

RECOVERABLE_ERROR_TYPES = frozenset({"recoverable", "retryable", "need_input", "need_param"})
KNOWN_ERROR_TYPES = RECOVERABLE_ERROR_TYPES | {"config", "transient"}

_SUCCESS_CHAIN = ("stderr", "error", "msg", "user_message")
_OK_CHAIN = ("error", "msg")


def read_failure(result: Any) -> tuple[bool, str | None, str | None, str | None]:
    """(failed, reason, the field the reason came from, the flag that made it fail)."""
    if not isinstance(result, Mapping):
        return False, None, None, None
    chain: tuple[str, ...]
    if result.get("success") is False:
        chain, flag = _SUCCESS_CHAIN, "success"
    elif result.get("ok") is False:
        chain, flag = _OK_CHAIN, "ok"
    else:
        return False, None, None, None
    for key in chain:
        value = result.get(key)
        if py_usable(value):
            return True, value, key, flag
    return True, None, None, flag


def has_recoverable_signal(result: Mapping[Any, Any]) -> bool:
    """A recoverable ``error_type`` (case-sensitive) or a ``need_param`` key, whatever its value."""
    error_type = result.get("error_type")
    return (
        isinstance(error_type, str) and error_type in RECOVERABLE_ERROR_TYPES
    ) or "need_param" in result
