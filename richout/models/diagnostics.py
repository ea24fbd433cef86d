"""Collecting diagnostics (README decision 2): one record per construct and reason.

Scanners call :meth:`Diagnostics.add` with code-point offsets of the text they were given;
pipelines that run a scanner on a derived text pass ``offset_map`` so spans always refer to
the caller's input. Records are sorted by ``start``, then ``code`` (MEDIA.md §17).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from operator import attrgetter, itemgetter
from typing import Any, Protocol, TypeVar

from richout.models.base import (
    Diagnostic,
    Explained,
    Severity,
    Span,
    edit_record,
    fields_set,
    set_dict,
    set_extra,
    set_fields_set,
    set_private,
    span_record,
)
from richout.text.chars import LineIndex
from richout.text.patch import Edit, OffsetMap, Patch, end_in_input, identity

__all__ = [
    "PER_CONSTRUCT",
    "Deferred",
    "Diagnostics",
    "Finding",
    "FindingList",
    "Recorder",
    "built_diagnostics",
    "deferred",
    "diagnostic",
    "findings_of",
    "has_findings",
    "mapped_spans",
    "patch_of",
    "pending_findings",
    "spans_of",
    "stage_findings",
]

#: A finding as :meth:`Diagnostics.records` gives it: start, code, end, severity, message, field.
Finding = tuple[int, str, int, Severity, str, str | None]


class Recorder(Protocol):
    """What a check records its findings through: a :class:`Diagnostics` collector, or a
    :class:`FindingList` (a walk's own findings, handed to a collector later)."""

    def add(self, code: str, severity: Severity, message: str, start: int, end: int) -> None:
        """Record one finding over ``[start, end)`` of the input."""


class FindingList:
    """A list of findings taking them as :meth:`Diagnostics.add` takes them; the collector
    they are handed to (:meth:`Diagnostics.extend_records`) drops duplicates as ``add``
    would."""

    __slots__ = ("found",)

    def __init__(self, found: list[Finding]) -> None:
        self.found = found

    def add(self, code: str, severity: Severity, message: str, start: int, end: int) -> None:
        """Append one finding over ``[start, end)``."""
        self.found.append((start, code, end, severity, message, None))


_E = TypeVar("_E", bound=Explained)

_new = object.__new__
_ALL_SET = fields_set(*Diagnostic.model_fields)
_BY_START_CODE = itemgetter(0, 1)
_FINDING_START, _FINDING_END = itemgetter(0), itemgetter(2)
_SPAN_START, _SPAN_END = attrgetter("start"), attrgetter("end")
#: Past every offset: where the last line of a text ends, for :meth:`Diagnostics.build`.
_NO_END = 1 << 62


def diagnostic(  # noqa: PLR0917 - Diagnostics.build passes all eight by position
    code: str,
    severity: Severity,
    message: str,
    start: int | None,
    end: int | None,
    line: int | None,
    column: int | None,
    field: str | None = None,
) -> Diagnostic:
    """``Diagnostic.trusted`` with every field given, for values richout computed itself.

    Built directly: an input with tens of thousands of findings (one per malformed tag)
    spent more on the generic record builder than on finding them. Equal to the validated
    record, fields set and wire form included (``tests/test_adversarial.py``). The fields
    may be given by position (:meth:`Diagnostics.build`'s hundred thousand calls: a keyword
    call was a fifth of a record).
    """
    obj = _new(Diagnostic)
    set_dict(
        obj,
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
    set_fields_set(obj, _ALL_SET)
    set_extra(obj, None)
    set_private(obj, None)
    return obj


#: Codes whose finding is about one construct, known by where it starts: its ``[[``. Two
#: layers of a view read the same construct in texts that end differently (the split's tag
#: pass before the final trim, the tag layer after it, or with an audio tag removed after
#: it), so their ranges for it can differ in the end
#: (:meth:`Diagnostics.extend_records` with ``once_per_construct``).
PER_CONSTRUCT = frozenset({"tag.in_code", "tag.malformed", "tag.unknown"})


class Diagnostics:
    """An ordered, de-duplicated collection of diagnostics over one input text: a finding
    is dropped when one with the same code and range was added before."""

    __slots__ = ("_items", "_seen", "_sorted", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._items: list[tuple[int, str, int, Severity, str, str | None]] = []
        self._seen: set[tuple[str, int, int]] = set()
        #: ``_items`` is in :meth:`records`' order (sorted once, not at every reading)
        self._sorted = True

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
        self._sorted = False

    def add_all(self, code: str, severity: Severity, rows: Iterable[tuple[str, int, int]]) -> None:
        """:meth:`add` for each ``(message, start, end)`` of one code and severity."""
        seen, items = self._seen, self._items
        self._sorted = False
        for message, start, end in rows:
            key = (code, start, end)
            if key not in seen:
                seen.add(key)
                items.append((start, code, end, severity, message, None))

    def extend(self, others: Iterable[Diagnostic], offset_map: OffsetMap | None = None) -> None:
        """Add diagnostics produced on another text, mapping their spans into this input."""
        if offset_map is identity:
            offset_map = None
        for d in others:
            if d.start is None or d.end is None:
                self.add(d.code, d.severity, d.message, 0, 0, field=d.field)
                continue
            s, e = d.start, d.end
            if offset_map is not None:
                s, e = offset_map(s), end_in_input(offset_map, s, e)
            self.add(d.code, d.severity, d.message, s, e, field=d.field)

    def extend_records(
        self,
        records: Iterable[Finding],
        offset_map: OffsetMap | None = None,
        *,
        once_per_construct: bool = False,
        unmoved_below: int = 0,
    ) -> None:
        """:meth:`extend` for another collector's findings (:func:`findings_of`), mapped the
        same way, without a :class:`Diagnostic` per finding. ``unmoved_below``: ``offset_map``
        maps every offset below it to itself (:func:`~richout.text.patch.unmoved_below` of
        the patch it maps through), so findings that all lie before it are taken unmapped.

        ``once_per_construct``: the findings are a later layer's reading of a text whose
        constructs an earlier layer reported here; a :data:`PER_CONSTRUCT` finding whose
        code and start one held before this call already has is that construct again, and
        is dropped (a view reports each construct once, with the first layer's range)."""
        # add() inlined, and end_in_input with it: a stage hands on one finding per
        # malformed tag, and a view passes each through three collectors.
        seen, items = self._seen, self._items
        if offset_map is identity:
            offset_map = None
        elif offset_map is not None and unmoved_below:
            # Most tag findings of a view lie before its only later edit, the final trim: one
            # C-level pass over their ends instead of two map calls per finding.
            records = records if isinstance(records, list) else list(records)
            if not records or (
                max(map(_FINDING_END, records)) <= unmoved_below
                and max(map(_FINDING_START, records)) < unmoved_below
            ):
                offset_map = None
        self._sorted = False
        held = None
        if once_per_construct and items:
            # Only a per-construct finding is dropped: the held ones are listed when one comes
            # (a view's split held 58k findings of refused lines, and its tag layer none).
            records = records if isinstance(records, list) else list(records)
            if any(code in PER_CONSTRUCT for _, code, _, _, _, _ in records):
                held = {(code, start) for start, code, _, _, _, _ in items if code in PER_CONSTRUCT}
        if offset_map is None and not items:
            # Into an empty collector, unmoved: taken whole when no two share a key (another
            # collector's findings never do), in their order, as the loop below would.
            found = records if isinstance(records, list) else list(records)
            keys = {(code, start, end) for start, code, end, _, _, _ in found}
            if len(keys) == len(found):
                items.extend(found)
                seen.update(keys)
                return
            records = found
        for start, code, end, severity, message, field in records:
            if offset_map is None:
                s, e = start, end
            else:
                s = offset_map(start)
                e = offset_map(end - 1) + 1 if end > start else s
            if held is not None and code in PER_CONSTRUCT and (code, s) in held:
                continue
            key = (code, s, e)
            if key not in seen:
                seen.add(key)
                items.append((s, code, e, severity, message, field))

    def records(self) -> list[Finding]:
        """The findings as ``(start, code, end, severity, message, field)``, in :meth:`build`'s
        order, for a caller that turns them into its own records (no model per finding)."""
        return list(self._in_order())

    def adopt(self, other: Diagnostics) -> bool:
        """Take every finding of ``other`` (a collector over the same input, unmoved), with
        its keys and in its order, when this collector holds none; False, having taken
        nothing, when it holds some. A view's split hands on 117k findings of a megabyte of
        refused directive lines, which :meth:`extend_records` keyed and sorted again."""
        if self._items:
            return False
        self._items = list(other._in_order())
        self._seen = set(other._seen)
        self._sorted = True
        return True

    def _in_order(self) -> list[Finding]:
        if not self._sorted:
            self._items.sort(key=_BY_START_CODE)
            self._sorted = True
        return self._items

    def build(self) -> list[Diagnostic]:
        """The records, sorted by start then code, with 1-based line and column."""
        if not self._items:
            return []
        starts = LineIndex(self._text).starts
        last = len(starts) - 1
        # The records come sorted by start, so the line found last is asked first: a bisection
        # only when a record starts past it (117k findings of a megabyte of refused directive
        # lines took 0.16 s/MB to build, a bisection and a LineIndex call each).
        k, lo, hi = 0, 0, starts[1] if last else _NO_END
        out: list[Diagnostic] = []
        append = out.append
        for start, code, end, severity, message, field in self._in_order():
            if field is not None and start == end == 0:
                append(
                    Diagnostic.trusted(code=code, severity=severity, message=message, field=field)
                )
                continue
            if not lo <= start < hi:
                # Findings of consecutive lines (one or more per directive line) step to
                # the next line; a bisection only for a farther one.
                if start >= hi and k + 1 < last and start < starts[k + 2]:
                    k += 1
                else:
                    k = bisect_right(starts, start) - 1
                lo, hi = starts[k], starts[k + 1] if k < last else _NO_END
            # Values computed here, of the declared types: validating each of thousands of
            # records (one per malformed tag) cost more than finding them.
            append(diagnostic(code, severity, message, start, end, k + 1, start - lo + 1, field))
        return out


class Deferred:
    """The explainer of a result whose findings are collected but not yet made records.

    The stages inside ``parse_reply`` and ``render_reply`` hand their results on to the next
    stage, which reads the findings as tuples (:func:`findings_of`) and builds its own
    records. Building a :class:`Diagnostic` per finding at every stage cost four records per
    malformed tag in an explained ``parse_reply``; a result of :func:`deferred` builds them
    only if someone reads its ``diagnostics`` (or compares or pickles it), as a lazy result
    does. Its spans and its patch are read with :func:`spans_of` and :func:`patch_of`,
    which build nothing either (the result's own ``spans`` and ``edits`` build the whole
    explanation, records included). The patch stays edit tuples until then: the next stage
    composes it into its own patch, and an :class:`EditRecord` per tag removal built here
    was read back into a tuple there (42k of each on a hostile reply).
    """

    __slots__ = ("_cls", "_fields", "findings", "patch", "spans")

    def __init__(
        self,
        cls: type[Explained],
        findings: Diagnostics,
        spans: list[Span],
        patch: Patch,
        fields: dict[str, Any],
    ) -> None:
        self._cls = cls
        self.findings = findings
        self.spans = spans
        self.patch = patch
        self._fields = fields

    def __call__(self) -> Explained:
        return self._cls.explained(
            diagnostics=self.findings.build(),
            spans=self.spans,
            edits=[edit_record(*e) for e in self.patch],
            **self._fields,
        )


def deferred(
    cls: type[_E],
    findings: Diagnostics,
    spans: list[Span],
    patch: Patch,
    **fields: Any,
) -> _E:
    """An explained result of ``cls`` whose diagnostics and edit records are built from
    ``findings`` and ``patch`` when read."""
    return cls.lazy(Deferred(cls, findings, spans, patch, fields), **fields)


def _pending(result: Explained) -> Deferred | None:
    """The :class:`Deferred` explainer of a result not yet explained, else None."""
    # The private state read directly: pydantic's attribute hook for private names costs
    # more than the rest of this check, and the views ask several times per reply.
    private = result.__pydantic_private__
    if private is None:
        return None
    explainer = private.get("_explainer")
    if isinstance(explainer, Deferred) and private.get("_explanation") is None:
        return explainer
    return None


def pending_findings(result: Explained) -> Diagnostics | None:
    """The collector of a :func:`deferred` result not yet read, else None."""
    pending = _pending(result)
    return None if pending is None else pending.findings


def findings_of(result: Explained) -> list[Finding] | None:
    """The findings of a :func:`deferred` result not yet read, as tuples; else None (read
    ``result.diagnostics``)."""
    pending = _pending(result)
    return None if pending is None else pending.findings.records()


def built_diagnostics(result: Explained) -> list[Diagnostic]:
    """A copy of ``result.diagnostics``; of a :func:`deferred` result not yet read, its
    findings' records alone (its edit records are not built: a caller that reads only the
    diagnostics of a stage whose patch it composes itself)."""
    pending = _pending(result)
    return list(result.diagnostics) if pending is None else pending.findings.build()


def has_findings(result: Explained) -> bool:
    """Does ``result`` have diagnostics (without building a :func:`deferred` result's)?"""
    pending = _pending(result)
    return bool(result.diagnostics) if pending is None else bool(pending.findings)


def stage_findings(result: Explained) -> list[Finding]:
    """A stage result's findings as tuples: a :func:`deferred` result's as collected, else
    its built records read back (every stage finding has a range, so none is lost)."""
    found = findings_of(result)
    if found is not None:
        return found
    return [
        (d.start or 0, d.code, d.end or 0, d.severity, d.message, d.field)
        for d in result.diagnostics
    ]


def mapped_spans(
    spans: Iterable[Span], to_input: OffsetMap, *, unmoved_below: int = 0
) -> list[Span]:
    """Spans of a later stage's text moved into the input by ``to_input``, each end through
    the last character it covers (:func:`~richout.text.patch.end_in_input`).
    ``unmoved_below``: ``to_input`` maps every offset below it to itself
    (:func:`~richout.text.patch.unmoved_below`).

    Records are frozen, so a span nothing moved is kept as it is (most tags of a reply whose
    only edit is its final trim), and one record a stage shared between equal spans maps to
    one record: values computed here, built without validation (100k spans on a hostile
    input)."""
    if to_input is identity:
        return list(spans)
    if unmoved_below:
        spans = list(spans)
        # Spans that all end by the first edit are all unmoved: C-level passes over their
        # ends and starts, not two map calls each (42k tag spans before a reply's final
        # trim, the last tag ending where it starts). An empty range at the edit would move.
        if not spans or (
            max(map(_SPAN_END, spans)) <= unmoved_below
            and max(map(_SPAN_START, spans)) < unmoved_below
        ):
            return spans
    mapped: dict[int, Span] = {}
    out: list[Span] = []
    for s in spans:
        m = mapped.get(id(s))
        if m is None:
            start, end = to_input(s.start), end_in_input(to_input, s.start, s.end)
            if start == s.start and end == s.end:
                m = mapped[id(s)] = s
            else:
                m = mapped[id(s)] = span_record(s.kind, start, end, s.value)
        out.append(m)
    return out


def spans_of(result: Explained) -> list[Span]:
    """``result.spans``, without building a :func:`deferred` result's diagnostics."""
    pending = _pending(result)
    return result.spans if pending is None else pending.spans


def patch_of(result: Explained) -> Patch:
    """``result.edits`` as a patch (edit tuples), without building a :func:`deferred`
    result's diagnostics or records: its own patch, which the caller must not change."""
    pending = _pending(result)
    if pending is not None:
        return pending.patch
    return [Edit(e.start, e.end, e.removed, e.inserted) for e in result.edits]
