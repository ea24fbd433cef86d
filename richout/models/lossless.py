"""Nothing is lost (README decision 3): rebuild the input text from a result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from richout.errors import InvalidInput
from richout.models.base import EditRecord, edit_record
from richout.text.patch import Edit, invert

__all__ = ["edit_records", "rebuild"]


class _HasEdits(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def edits(self) -> list[EditRecord]: ...


def edit_records(patch: Sequence[Edit]) -> list[EditRecord]:
    """Public records of an internal patch (values of the declared types: not re-validated)."""
    return [edit_record(e.start, e.end, e.removed, e.inserted) for e in patch]


def rebuild(result: _HasEdits) -> str:
    """The exact input text a result was computed from (its ``text`` with ``edits`` undone)."""
    if not isinstance(getattr(result, "text", None), str) or not hasattr(result, "edits"):
        raise InvalidInput(
            f"rebuild needs a richout result with text and edits, got {type(result).__name__}"
        )
    patch = [Edit(e.start, e.end, e.removed, e.inserted) for e in result.edits]
    return invert(result.text, patch)
