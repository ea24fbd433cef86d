"""Typed errors. Parsing functions never raise on text; these are for invalid arguments."""

from __future__ import annotations

__all__ = ["InvalidInput", "InvalidOptions", "RichoutError", "require_bool", "require_str"]


class RichoutError(Exception):
    """Base class of every error richout raises on purpose."""

    #: Stable code used by ``richout jsonl`` (``error.type``).
    code = "error"


class InvalidInput(RichoutError, ValueError):
    """An argument has the wrong type or shape; the message says what was expected."""

    code = "invalid_input"


class InvalidOptions(InvalidInput):
    """An option name or value is not one the operation knows (unknown profile, typo)."""

    code = "invalid_options"


def require_str(value: object, name: str = "text", *, optional: bool = False) -> None:
    """Raise :class:`InvalidInput` unless ``value`` is a ``str`` (or ``None`` if optional)."""
    if isinstance(value, str) or (optional and value is None):
        return
    expected = "a string or None" if optional else "a string"
    raise InvalidInput(f"{name} must be {expected}, got {type(value).__name__}")


def require_bool(value: object, name: str) -> None:
    """Raise :class:`InvalidInput` unless ``value`` is a ``bool`` (``1`` or ``"yes"`` is not)."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be True or False, got {value!r}")
