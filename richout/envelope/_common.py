"""Small helpers shared by the envelope modules: JSON paths, diagnostics, value tests."""

from __future__ import annotations

import math
from typing import Any

from .._text import LineIndex
from ..models import Diagnostic, Severity

__all__ = [
    "describe",
    "diag",
    "is_number",
    "join_path",
    "py_usable",
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
