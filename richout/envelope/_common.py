"""Small helpers shared by the envelope modules: JSON paths, diagnostics, value tests."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from richout.errors import InvalidInput
from richout.models import Diagnostic, Severity
from richout.text.chars import LineIndex, ascii_lower

__all__ = [
    "contains_any",
    "describe",
    "diag",
    "is_number",
    "join_path",
    "json_type_name",
    "py_usable",
    "require_callable",
    "require_choice",
    "require_int",
    "require_mapping",
    "require_str_list",
    "text_diag",
]


def join_path(prefix: str, key: str | int) -> str:
    """``prefix`` extended by an object key or a list index, as a JSON path."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


def diag(code: str, severity: Severity, message: str, field: str | None) -> Diagnostic:
    """A payload-level finding whose span is the JSON path ``field``."""
    return Diagnostic(code=code, severity=severity, message=message, field=field or "$")


def text_diag(
    code: str,
    severity: Severity,
    message: str,
    *,
    field: str,
    text: str,
    start: int,
    end: int,
    index: LineIndex | None = None,
) -> Diagnostic:
    """A finding inside the string at ``field``: code-point span plus 1-based line/column."""
    line, column = (index or LineIndex(text)).line_col(start)
    return Diagnostic(
        code=code,
        severity=severity,
        message=message,
        start=start,
        end=end,
        line=line,
        column=column,
        field=field or "$",
    )


def py_usable(value: Any) -> bool:
    """A string with at least one non-whitespace character (the skill platform is Python)."""
    return isinstance(value, str) and not (value == "" or value.isspace())


def is_number(value: Any) -> bool:
    """A JSON number: int or finite float, never a boolean."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def contains_any(text: str, needles: Iterable[str]) -> str | None:
    """The first needle found in ``text`` (ASCII case-insensitive for Latin letters)."""
    low = ascii_lower(text)
    for needle in needles:
        if needle in low:
            return needle
    return None


def describe(value: Any, limit: int = 40) -> str:
    """A short, safe preview of a JSON-like value for messages (never recurses into it)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        text = str(value) if value.bit_length() < 128 else "a very large integer"
        return text
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    if isinstance(value, str):
        shown = value if len(value) <= limit else value[:limit] + "…"
        return repr(shown)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return f"an object of {len(value)} keys"
    return f"a {type(value).__name__}"


def json_type_name(value: Any) -> str:
    """The JSON type of ``value`` for messages (``object``, ``list``, ``number``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, Mapping):
        if all(isinstance(k, str) for k in value):
            return "object"
        return "mapping with non-string keys"
    return type(value).__name__


# -- argument checks of the public functions (wrong types raise InvalidInput, naming them) --


def require_mapping(value: object, name: str, what: str = "a mapping (a JSON object)") -> None:
    """Raise :class:`InvalidInput` unless ``value`` is a mapping."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{name} must be {what}, got {describe(value)}")


def require_choice(value: object, name: str, choices: tuple[str, ...]) -> None:
    """Raise :class:`InvalidInput` unless ``value`` is one of the strings ``choices``."""
    if not (isinstance(value, str) and value in choices):
        known = " or ".join(repr(c) for c in choices)
        raise InvalidInput(f"{name} must be {known}, got {describe(value)}")


def require_int(value: object, name: str, *, minimum: int = 0) -> None:
    """Raise :class:`InvalidInput` unless ``value`` is an int ≥ ``minimum`` (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise InvalidInput(f"{name} must be an integer ≥ {minimum}, got {describe(value)}")


def require_callable(value: object, name: str) -> None:
    """Raise :class:`InvalidInput` unless ``value`` is callable or ``None``."""
    if value is not None and not callable(value):
        raise InvalidInput(f"{name} must be a function or None, got {describe(value)}")


def require_str_list(value: object, name: str) -> list[str]:
    """``value`` as a list of strings; InvalidInput for a string or a non-string entry.

    Returns a list so a one-shot iterator is read only once.
    """
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidInput(f"{name} must be a list of strings, got {describe(value)}")
    items = list(value)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise InvalidInput(f"{name}[{i}] must be a string, got {describe(item)}")
    return items
