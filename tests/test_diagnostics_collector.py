"""The findings collector (``models.diagnostics.Diagnostics``) against a plain oracle: the
first finding of each (code, start, end) is kept, whichever way it came in (one by one, a
run of one code, another collector's findings, mapped or not), a later layer's finding about
a construct already held (``once_per_construct``: same ``PER_CONSTRUCT`` code and start) is
dropped, and the findings are read sorted by start then code, stably, however often and
whenever they are read."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_patch import text_and_patch

from richout.models import Diagnostic, span_record
from richout.models.diagnostics import PER_CONSTRUCT, Diagnostics, Finding, mapped_spans
from richout.text.chars import LineIndex
from richout.text.patch import Edit, apply, end_in_input, identity, offset_mapper, unmoved_below

_CODES = st.sampled_from(["tag.malformed", "tag.unknown", "media.in_code_block", "reply.silent"])
_FINDING = st.builds(
    lambda start, width, code, message: (start, code, start + width, "warning", message, None),
    st.integers(0, 12),
    st.integers(0, 3),
    _CODES,
    st.sampled_from(["a", "b"]),
)
_MAPS = st.sampled_from(["none", "identity", "shift"])
_STEP = st.one_of(
    st.tuples(st.just("add"), _FINDING),
    st.tuples(st.just("add_all"), st.lists(_FINDING, max_size=6)),
    st.tuples(
        st.just("extend_records"),
        st.tuples(st.lists(_FINDING, max_size=6), _MAPS, st.booleans()),
    ),
    # another collector's findings, adopted or handed on as records, and that collector
    # growing afterwards
    st.tuples(
        st.just("collector"),
        st.tuples(st.lists(_FINDING, max_size=6), st.booleans(), st.booleans(), _FINDING),
    ),
    st.just(("read", None)),
)
_SHIFT = offset_mapper([Edit(0, 2, "xx", "")])  # derived offset p is input offset p + 2


def _mapped(f: Finding, how: str) -> Finding:
    start, code, end, severity, message, field = f
    if how != "shift":
        return f
    return (_SHIFT(start), code, end_in_input(_SHIFT, start, end), severity, message, field)


def _key(f: Finding) -> tuple[str, int, int]:
    return (f[1], f[0], f[2])


@settings(max_examples=600, deadline=None)
@given(st.lists(_STEP, max_size=8))
def test_the_collector_keeps_the_first_of_each_key_in_start_then_code_order(
    steps: list[tuple[str, Any]],
) -> None:
    diags = Diagnostics("x" * 40)
    oracle: list[Finding] = []

    def take(f: Finding) -> None:
        if all(_key(g) != _key(f) for g in oracle):
            oracle.append(f)

    for op, arg in steps:
        if op == "add":
            start, code, end, severity, message, field = arg
            diags.add(code, severity, message, start, end, field=field)
            take(arg)
        elif op == "add_all":
            # add_all takes one code and severity: the run's, as a replay hands it on
            rows = [(f[4], f[0], f[2]) for f in arg]
            diags.add_all("tag.malformed", "warning", rows)
            for message, start, end in rows:
                take((start, "tag.malformed", end, "warning", message, None))
        elif op == "extend_records":
            found, how, once = arg
            offset_map = {"none": None, "identity": identity, "shift": _SHIFT}[how]
            held = {(g[1], g[0]) for g in oracle if g[1] in PER_CONSTRUCT}
            diags.extend_records(
                iter(found) if how == "none" else found, offset_map, once_per_construct=once
            )
            for f in found:
                g = _mapped(f, how)
                if not (once and (g[1], g[0]) in held):
                    take(g)
        elif op == "collector":
            found, once, grows, extra = arg
            other = Diagnostics("x" * 40)
            other.extend_records(found)
            handed = other.records()
            held = {(g[1], g[0]) for g in oracle if g[1] in PER_CONSTRUCT}
            # adopted whole into an empty collector, else handed on as records
            assert diags.adopt(other) == (not oracle)
            if oracle:
                diags.extend_records(handed, once_per_construct=once)
            if grows:  # a finding the other collector gets afterwards is its own
                other.add(extra[1], extra[3], extra[4], extra[0], extra[2])
            for f in handed:
                if not (once and (f[1], f[0]) in held):
                    take(f)
        else:
            assert diags.records() == sorted(oracle, key=lambda f: (f[0], f[1]))
    expected = sorted(oracle, key=lambda f: (f[0], f[1]))
    assert diags.records() == expected
    assert diags.records() == expected  # read twice: the same
    assert len(diags) == len(expected) and bool(diags) == bool(expected)
    assert [(d.start, d.code, d.end, d.message) for d in diags.build()] == [
        (f[0], f[1], f[2], f[4]) for f in expected
    ]


@settings(max_examples=600, deadline=None)
@given(
    st.text(st.sampled_from("ab\n\r"), max_size=30),
    st.lists(st.tuples(st.integers(0, 30), _CODES, st.booleans()), max_size=12),
)
def test_records_name_the_line_and_column_of_their_start(
    text: str, found: list[tuple[int, str, bool]]
) -> None:
    """``build`` reads the line of each start in order (a bisection only past the line of
    the record before): each record's line and column are ``LineIndex``'s, and a finding
    about a field (at 0, empty) has none."""
    diags = Diagnostics(text)
    for start, code, about_field in found:
        at = 0 if about_field else min(start, len(text))
        diags.add(code, "warning", "m", at, at, field="f" if about_field else None)
    index = LineIndex(text)
    for d in diags.build():
        if d.field is not None:
            assert (d.line, d.column) == (None, None)
        else:
            assert d.start is not None
            assert (d.line, d.column) == index.line_col(d.start)
            validated = Diagnostic.model_validate(d.model_dump())
            assert d == validated and d.model_fields_set == validated.model_fields_set


@settings(max_examples=800, deadline=None)
@given(st.data())
def test_ranges_below_a_patchs_first_edit_are_taken_as_mapped(data: st.DataObject) -> None:
    """``unmoved_below`` (the patch's first edit start): spans and findings of the patched
    text that all start below it and end by it are kept as they are, which is what mapping
    each gives (an empty range at it moves); any other list is mapped one by one. Both ways
    give equal records, and an unmoved span is the very record it was."""
    src, patch = data.draw(text_and_patch())
    out = apply(src, patch)
    to_input, below = offset_mapper(patch), unmoved_below(patch)
    # Offsets at and around the first edit, where the shortcut's bounds lie, drawn often.
    near = [x for x in (below - 1, below, below + 1) if 0 <= x <= len(out)]
    offset = st.one_of(st.integers(0, len(out)), *([st.sampled_from(near)] if near else []))
    ranges = data.draw(st.lists(st.tuples(offset, offset).map(sorted).map(tuple), max_size=6))
    spans = [span_record("reply_tag", a, b, None) for a, b in ranges]
    fast = mapped_spans(spans, to_input, unmoved_below=below)
    slow = mapped_spans(spans, to_input)
    assert fast == slow
    assert [x is y for x, y in zip(fast, slow, strict=True)] == [
        (s.start, s.end) == (m.start, m.end) for s, m in zip(spans, slow, strict=True)
    ]
    found: list[Finding] = [(a, "tag.unknown", b, "warning", "m", None) for a, b in ranges]
    with_bound, without = Diagnostics(src), Diagnostics(src)
    with_bound.extend_records(list(found), to_input, unmoved_below=below)
    without.extend_records(iter(found), to_input)
    assert with_bound.records() == without.records()
    if ranges and max(b for _, b in ranges) <= below and max(a for a, _ in ranges) < below:
        unmapped = Diagnostics(src)
        unmapped.extend_records(list(found))
        assert with_bound.records() == unmapped.records()
        assert fast == spans
