"""Typed errors. Parsing functions never raise on text; these are for invalid arguments."""

from __future__ import annotations

__all__ = ["InvalidInput", "RichoutError"]


class RichoutError(Exception):
    """Base class of every error richout raises on purpose."""

    #: Stable code used by ``richout jsonl`` (``error.type``).
    code = "error"


class InvalidInput(RichoutError, ValueError):
    """An argument has the wrong type or shape; the message says what was expected."""

    code = "invalid_input"


def require_str(value: object, name: str = "text", *, optional: bool = False) -> None:
    """Raise :class:`InvalidInput` unless ``value`` is a ``str`` (or ``None`` if optional)."""
    if isinstance(value, str) or (optional and value is None):
        return
    expected = "a string or None" if optional else "a string"
    raise InvalidInput(f"{name} must be {expected}, got {type(value).__name__}")
