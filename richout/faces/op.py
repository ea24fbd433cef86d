"""The shape of a ``richout jsonl`` op (JSONL.md): one :class:`Op` record per op.

An :class:`Op` names its handler, the option names it takes (wire spelling) and the public
model its output is the wire form of; calling it checks the option names
(:func:`check_options`, ``invalid_options`` on the wire) before the handler runs. The readers
here (:func:`req_str`, :func:`opt_bool`, :func:`opt_str`, :func:`opt_str_list`) are what every
handler uses for its arguments; bad arguments raise :class:`~richout.errors.InvalidInput`.
The text ops (:mod:`richout.faces.text_ops`) and the envelope ops
(:mod:`richout.faces.envelope_ops`) are both tables of this shape, joined in
:mod:`richout.faces.ops`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from richout.errors import InvalidInput, InvalidOptions

__all__ = [
    "Handler",
    "Op",
    "check_options",
    "opt_bool",
    "opt_str",
    "opt_str_list",
    "req_str",
    "table",
]

#: An op handler: ``(input, options) -> output`` (wire names); raises InvalidInput.
Handler = Callable[[Any, dict[str, Any]], dict[str, Any]]


def check_options(options: Mapping[str, Any], op: str, known: tuple[str, ...]) -> None:
    """Raise :class:`InvalidOptions` for an option name ``op`` does not take."""
    unknown = sorted(k for k in options if k not in known)
    if unknown:
        names = ", ".join(known) if known else "none"
        raise InvalidOptions(
            f"op {op} does not take option(s) {', '.join(unknown)}; it takes: {names} "
            "(option names are camelCase, as on the wire)"
        )


@dataclass(frozen=True, slots=True)
class Op:
    """One ``richout jsonl`` op; call it as its handler: ``op(input, options) -> output``."""

    #: the op's name on the wire (``"media"``, ``"refKey"``)
    name: str
    #: answers ``(input, options)`` once the option names are known to be ones it takes
    handler: Handler
    #: the option names (wire spelling) it takes; any other name is ``invalid_options``
    options: tuple[str, ...]
    #: the public model its output is the wire form of (``x-richout-ops`` in the schema)
    result: str

    def __call__(self, inp: Any, options: dict[str, Any]) -> dict[str, Any]:
        check_options(options, self.name, self.options)
        return self.handler(inp, options)


def table(*ops: Op) -> dict[str, Op]:
    """``ops`` by name, in the order given."""
    return {op.name: op for op in ops}


def req_str(value: Any, what: str = "input") -> str:
    """``value`` as a string, or InvalidInput."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, got {type(value).__name__}")
    return value


def opt_bool(options: Mapping[str, Any], name: str, default: bool) -> bool:
    """Boolean option ``name`` (absent or null means ``default``)."""
    value = options.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"option {name} must be true or false, got {value!r}")
    return value


def opt_str(options: Mapping[str, Any], name: str, default: str | None = None) -> str | None:
    """String option ``name`` (absent or null means ``default``)."""
    value = options.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise InvalidInput(f"option {name} must be a string, got {value!r}")
    return value


def opt_str_list(options: Mapping[str, Any], name: str) -> list[str] | None:
    """List-of-strings option ``name`` or None."""
    value = options.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"option {name} must be a list of strings")
    return value
