"""How and how long a skill runs (SKILL_ENVELOPE.md §3.1, §9).

:func:`max_runs` says how often a skill whose exception escaped is run again (§3.1);
:func:`async_dispatch`, :func:`async_ack`, :func:`background_text` and
:func:`fill_local_path` cover ``async: true`` skills and their background results (§9.1,
§9.3); :func:`resolve_wall_sec` is a skill's inner wall clock (§9).
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Mapping
from typing import Any, Literal

from richout.envelope._common import is_number, py_usable
from richout.envelope.skill_display import RICH_CHANNELS
from richout.errors import InvalidInput, require_bool, require_str

__all__ = [
    "SKILL_WALL_DEFAULT",
    "SKILL_WALL_HARDCAP",
    "async_ack",
    "async_dispatch",
    "background_text",
    "fill_local_path",
    "max_runs",
    "resolve_wall_sec",
]

SKILL_WALL_DEFAULT = 600
SKILL_WALL_HARDCAP = 1800

_RETRIED = ("TimeoutError", "ConnectionError", "OSError", "OperationalError", "InterfaceError")


def _retried_kind(kind: str | BaseException | type[BaseException]) -> bool:
    if isinstance(kind, BaseException):
        kind = type(kind)
    if isinstance(kind, type):
        return any(cls.__name__ in _RETRIED for cls in kind.__mro__)
    if not isinstance(kind, str):
        raise InvalidInput("exception_kind must be an exception, its class or its name")
    name = kind.rsplit(".", 1)[-1]
    if name in _RETRIED:
        return True
    builtin = getattr(builtins, name, None)
    return isinstance(builtin, type) and issubclass(builtin, OSError)


def max_runs(
    exception_kind: str | BaseException | type[BaseException],
    *,
    failed_this_round: bool,
    role_recent_failures: int,
) -> int:
    """How many runs in total the platform gives a skill whose exception escaped (§3.1)."""
    if isinstance(role_recent_failures, bool) or not isinstance(role_recent_failures, int):
        raise InvalidInput("role_recent_failures must be an integer (0, 1 or 2)")
    if role_recent_failures < 0:
        raise InvalidInput("role_recent_failures must not be negative")
    require_bool(failed_this_round, "failed_this_round")
    if not _retried_kind(exception_kind):
        return 1
    if failed_this_round or role_recent_failures >= 2:
        return 1
    return 3


def async_dispatch(channel: str, external_id: str | None = None) -> Literal["sync", "background"]:
    """Whether an ``async: true`` skill runs in the conversation or in the background (§9.1)."""
    if not isinstance(channel, str):
        raise InvalidInput("channel must be a string")
    require_str(external_id, "external_id", optional=True)
    if isinstance(external_id, str) and external_id.startswith("orgdeleg:"):
        return "background"
    return "sync" if channel in RICH_CHANNELS else "background"


def async_ack(message: str) -> dict[str, Any]:
    """The envelope an async skill returns at once on non-web channels (§9.1)."""
    if not isinstance(message, str):
        raise InvalidInput("message must be a string")
    return {"ok": True, "async": True, "message": message}


def background_text(result: Any) -> str | None:
    """The text pushed for a background result without media: message, result or text (§9.3)."""
    if not isinstance(result, Mapping):
        return None
    for key in ("message", "result", "text"):
        value = result.get(key)
        if py_usable(value):
            return str(value)
    return None


def fill_local_path(result: Any, workspace_dir: str) -> Any:
    """A background result that returned only ``filename`` gets ``local_path`` (§9.3).

    Returns a new object with ``local_path = <workspace>/<filename>``, or ``result`` itself
    when there is nothing to fill.
    """
    if not isinstance(workspace_dir, str):
        raise InvalidInput("workspace_dir must be a string")
    if not isinstance(result, Mapping) or py_usable(result.get("local_path")):
        return result
    filename = result.get("filename")
    if not py_usable(filename):
        return result
    base = workspace_dir if workspace_dir.endswith("/") else workspace_dir + "/"
    return {**result, "local_path": f"{base}{filename}"}


def resolve_wall_sec(
    *,
    wall_sec: Any = None,
    timeout_sec: Any = None,
    metadata_timeout: Any = None,
    policy: Any = None,
) -> int:
    """A skill's inner wall clock in seconds: first positive finite value, else 600; ≤ 1800."""
    for value in (wall_sec, timeout_sec, metadata_timeout, policy):
        if is_number(value) and value > 0:
            seconds = value if isinstance(value, int) else math.ceil(value)
            return int(min(seconds, SKILL_WALL_HARDCAP))
    return SKILL_WALL_DEFAULT
