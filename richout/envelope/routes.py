"""Routes and message-tool targets (ENVELOPE.md §4.3, §5.2): read from JSON, and matched.

A message-tool send removes content from the final reply only when it went to the current
route: same provider (or the generic ``message`` tool), same account when both name one, same
target and same thread (a send without a thread, or without a target, is in the route's
thread). :func:`route_from` and :func:`target_from` read the host's JSON records;
:func:`read_thread_id` is the thread-id reading both they and ``send`` use.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from richout.envelope.models import Route, SendTarget
from richout.errors import InvalidInput
from richout.text.chars import js_trim

__all__ = [
    "read_thread_id",
    "require_route",
    "route_from",
    "target_from",
    "target_matches_route",
]


def _opt_str(value: Any, what: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string")
    return value


def read_thread_id(value: Any) -> str | int | None:
    """A thread id from a JSON value: a string, an int of at most 64 bits, or an integral
    float; anything else is absent (None)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        # Ids beyond 64 bits are not ids any channel uses; treating them as absent also keeps
        # them away from int-to-str conversion limits.
        return value if value.bit_length() <= 64 else None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def require_route(route: object) -> None:
    """Entry check: ``route`` is a :class:`Route` or None (mappings go through route_from)."""
    if route is not None and not isinstance(route, Route):
        raise InvalidInput(f"route must be a Route or None, got {type(route).__name__}")


def route_from(value: Route | Mapping[str, Any] | None) -> Route | None:
    """A :class:`Route` from a model or ``{"provider", "to", "accountId"?, "threadId"?}``."""
    if value is None or isinstance(value, Route):
        return value
    if not isinstance(value, Mapping):
        raise InvalidInput('route must be an object {"provider", "to", "accountId"?, "threadId"?}')
    thread = value.get("threadId")
    if thread is not None and read_thread_id(thread) is None:
        raise InvalidInput("route.threadId must be a string or an integer")
    return Route.model_construct(
        provider=_opt_str(value.get("provider"), "route.provider"),
        to=_opt_str(value.get("to"), "route.to"),
        account_id=_opt_str(value.get("accountId"), "route.accountId"),
        thread_id=read_thread_id(thread),
    )


def target_from(value: SendTarget | Mapping[str, Any]) -> SendTarget:
    """A :class:`SendTarget` from a recorded target object; ill-typed fields are ignored."""
    if isinstance(value, SendTarget):
        return value
    if not isinstance(value, Mapping):
        raise InvalidInput("each sentTargets entry must be an object")

    def s(key: str) -> str | None:
        v = value.get(key)
        return v if isinstance(v, str) else None

    urls = value.get("mediaUrls")
    return SendTarget.model_construct(
        tool=s("tool"),
        provider=s("provider"),
        account_id=s("accountId"),
        to=s("to"),
        thread_id=read_thread_id(value.get("threadId")),
        thread_implicit=value.get("threadImplicit") is True,
        text=s("text"),
        media_urls=[u for u in urls if isinstance(u, str)] if isinstance(urls, list) else [],
    )


def _thread_key(value: str | int | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, int):
        return str(value)
    return js_trim(value) or None


def target_matches_route(target: SendTarget, route: Route | None) -> bool:
    """Whether a message-tool send went to the current route (§4.3, no channel plugins)."""
    if not isinstance(target, SendTarget):
        raise InvalidInput(f"target must be a SendTarget, got {type(target).__name__}")
    require_route(route)
    if route is None or not route.provider or not js_trim(route.provider):
        return False
    route_provider = js_trim(route.provider).lower()
    if target.provider is not None:
        provider = js_trim(target.provider).lower()
        if provider and provider not in ("message", route_provider):
            return False
    route_account = js_trim(route.account_id or "")
    target_account = js_trim(target.account_id or "")
    if route_account and target_account and route_account != target_account:
        return False
    implicit = target.thread_implicit
    to = target.to
    if to is None:
        # A send without a target went to the current route, in its thread.
        to, implicit = route.to, True
    route_to = js_trim(route.to or "")
    if not route_to or route_to != js_trim(to or ""):
        return False
    route_thread = _thread_key(route.thread_id)
    target_thread = _thread_key(target.thread_id)
    if target_thread is None and implicit:
        target_thread = route_thread
    return route_thread == target_thread
