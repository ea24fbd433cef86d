"""Collecting diagnostics (README decision 2): one record per construct and reason.

Scanners call :meth:`Diagnostics.add` with code-point offsets of the text they were given;
pipelines that run a scanner on a derived text pass ``offset_map`` so spans always refer to
the caller's input. Records are sorted by ``start``, then ``code`` (MEDIA.md §17).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from operator import itemgetter

from richout.models.base import Diagnostic, Severity
from richout.text.chars import LineIndex

__all__ = ["Diagnostics", "diagnostic"]

_new = object.__new__
_set = object.__setattr__
_ALL_FIELDS = tuple(Diagnostic.model_fields)
_BY_START_CODE = itemgetter(0, 1)


def diagnostic(
    code: str,
    severity: Severity,
    message: str,
    *,
    start: int | None,
    end: int | None,
    line: int | None,
    column: int | None,
    field: str | None = None,
) -> Diagnostic:
    """``Diagnostic.trusted`` with every field given, for values richout computed itself.

    Built directly: an input with tens of thousands of findings (one per malformed tag)
    spent more on the generic record builder than on finding them. Equal to the validated
    record, fields set and wire form included (``tests/test_adversarial.py``).
    """
    obj = _new(Diagnostic)
    _set(
        obj,
        "__dict__",
        {
            "code": code,
            "severity": severity,
            "message": message,
            "start": start,
            "end": end,
            "line": line,
            "column": column,
            "field": field,
        },
    )
    _set(obj, "__pydantic_fields_set__", set(_ALL_FIELDS))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


class Diagnostics:
    """An ordered, de-duplicated collection of diagnostics over one input text."""

    __slots__ = ("_items", "_seen", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._items: list[tuple[int, str, int, Severity, str, str | None]] = []
        self._seen: set[tuple[str, int, int]] = set()

    def __bool__(self) -> bool:
        return bool(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def add(
        self,
        code: str,
        severity: Severity,
        message: str,
        start: int,
        end: int,
        *,
        field: str | None = None,
    ) -> None:
        """Record one finding over ``[start, end)`` of the input (duplicates are dropped)."""
        key = (code, start, end)
        if key in self._seen:
            return
        self._seen.add(key)
        self._items.append((start, code, end, severity, message, field))

    def extend(
        self, others: Iterable[Diagnostic], offset_map: Callable[[int], int] | None = None
    ) -> None:
        """Add diagnostics produced on another text, mapping their spans into this input."""
        for d in others:
            if d.start is None or d.end is None:
                self.add(d.code, d.severity, d.message, 0, 0, field=d.field)
                continue
            s, e = d.start, d.end
            if offset_map is not None:
                # The end maps through the last character the span covers: the gap after it
                # may be where the derived text dropped something (a trimmed line break).
                last = offset_map(e - 1) + 1 if e > s else None
                s = offset_map(s)
                e = s if last is None else max(s, last)
            self.add(d.code, d.severity, d.message, s, e, field=d.field)

    def records(self) -> list[tuple[int, str, int, Severity, str, str | None]]:
        """The findings as ``(start, code, end, severity, message, field)``, in :meth:`build`'s
        order, for a caller that turns them into its own records (no model per finding)."""
        return sorted(self._items, key=_BY_START_CODE)

    def build(self) -> list[Diagnostic]:
        """The records, sorted by start then code, with 1-based line and column."""
        if not self._items:
            return []
        index = LineIndex(self._text)
        out: list[Diagnostic] = []
        for start, code, end, severity, message, field in self.records():
            if field is not None and start == end == 0:
                out.append(
                    Diagnostic.trusted(code=code, severity=severity, message=message, field=field)
                )
                continue
            line, column = index.line_col(start)
            # Values computed here, of the declared types: validating each of thousands of
            # records (one per malformed tag) cost more than finding them.
            out.append(
                diagnostic(
                    code,
                    severity,
                    message,
                    start=start,
                    end=end,
                    line=line,
                    column=column,
                    field=field,
                )
            )
        return out
