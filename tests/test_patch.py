"""Edit lists compose, invert and map offsets exactly (the basis of lossless results)."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import richout
import richout.text.derive as derive_module
import richout.text.patch as patch_module
from richout.media.lines import leftover_text
from richout.text.chars import collapse_blank_runs
from richout.text.derive import cleaned_pieces, spacing_patch
from richout.text.patch import (
    Edit,
    Patch,
    apply,
    compose,
    end_in_input,
    identity,
    invert,
    offset_mapper,
    patch_from_pieces,
)


@st.composite
def text_and_patch(draw: st.DrawFn, text: str | None = None) -> tuple[str, Patch]:
    src = text if text is not None else draw(st.text(alphabet="abcd\n", max_size=14))
    pieces: list[tuple[int, int, str | None]] = []
    pos = 0
    while pos <= len(src):
        pos += draw(st.integers(0, 3))
        if pos > len(src):
            break
        end = min(len(src), pos + draw(st.integers(0, 3)))
        repl = draw(st.text(alphabet="XYZ", max_size=3))
        pieces.append((pos, end, repl))
        pos = end + 1
    return src, patch_from_pieces(src, pieces)


@settings(max_examples=800, deadline=None)
@given(st.data())
def test_compose_equals_applying_both(data: st.DataObject) -> None:
    src, first = data.draw(text_and_patch())
    mid = apply(src, first)
    _, second = data.draw(text_and_patch(mid))
    out = apply(mid, second)
    both = compose(first, second, mid)
    assert apply(src, both) == out
    assert invert(out, both) == src
    for e in both:
        assert src[e.start : e.end] == e.removed and e.removed != e.inserted
    assert all(a.end < b.start for a, b in itertools.pairwise(both))


def _touching(data: st.DataObject, patch: Patch) -> Patch:
    """``patch`` with some edits cut in two touching ones (maybe a no-op among them): a
    valid patch the builder would not have made, which compose must take as well."""
    out: Patch = []
    for e in patch:
        if e.end - e.start >= 2 and data.draw(st.booleans()):
            m = data.draw(st.integers(e.start + 1, e.end - 1))
            k = data.draw(st.integers(0, len(e.inserted)))
            out.append(Edit(e.start, m, e.removed[: m - e.start], e.inserted[:k]))
            out.append(Edit(m, e.end, e.removed[m - e.start :], e.inserted[k:]))
        else:
            out.append(e)
    return out


@settings(max_examples=1500, deadline=None)
@given(st.data())
def test_compose_takes_runs_of_lone_edits_as_the_cluster_loop_does(data: st.DataObject) -> None:
    """The bulk runs (``_Apart``) give the very edits the cluster-by-cluster loop gives,
    for patches whose edits are apart and for patches with touching or no-op edits (which
    go to the loop)."""
    src = data.draw(st.text(alphabet="abcd \n", max_size=60))
    _, first = data.draw(text_and_patch(src))
    if data.draw(st.booleans()):
        first = _touching(data, first)
    mid = apply(src, first)
    _, second = data.draw(text_and_patch(mid))
    if data.draw(st.booleans()):
        second = _touching(data, second)
    saved = patch_module.BULK_FROM
    try:
        patch_module.BULK_FROM = 0
        bulk = compose(first, second, mid)
        patch_module.BULK_FROM = 1 << 60
        loop = compose(first, second, mid)
    finally:
        patch_module.BULK_FROM = saved
    assert bulk == loop
    assert apply(src, bulk) == apply(mid, second)


def test_a_final_trim_over_many_removals_composes_without_the_cluster_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reply's tag removals then its final trim: the removals are taken in one run, not
    one cluster at a time (one builder call each, 42k on a hostile reply)."""
    src = "x [[a]]" * 1000 + " \n"
    first = patch_from_pieces(src, [(7 * i + 1, 7 * i + 7, "") for i in range(1000)])
    mid = apply(src, first)
    second = [Edit(len(mid) - 2, len(mid), mid[-2:], "")]
    calls = 0
    add = patch_module._Builder.add

    def counted(self: object, *args: object) -> None:
        nonlocal calls
        calls += 1
        add(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(patch_module._Builder, "add", counted)
    both = compose(first, second, mid)
    assert apply(src, both) == "x" * 1000
    # the last removal and the trim touch in mid: one cluster through the loop
    assert calls <= 2, calls
    assert both[:-1] == first[:-1]


def _inserted(out: str, patch: Patch) -> list[bool]:
    """For each character of the patched text ``out``: did an edit insert it?"""
    inserted = [False] * len(out)
    shift = 0
    for e in patch:
        for j in range(e.start + shift, e.start + shift + len(e.inserted)):
            inserted[j] = True
        shift += len(e.inserted) - (e.end - e.start)
    return inserted


@settings(max_examples=800, deadline=None)
@given(text_and_patch())
def test_offsets_of_kept_characters_map_back(tp: tuple[str, Patch]) -> None:
    src, patch = tp
    out = apply(src, patch)
    to_input = offset_mapper(patch)
    inserted = _inserted(out, patch)
    for i, ch in enumerate(out):
        if not inserted[i]:
            assert src[to_input(i)] == ch
    assert to_input(len(out)) == len(src)


def test_touching_edits_merge_in_linear_time() -> None:
    src = "x" * 200_000
    patch = patch_from_pieces(src, [(i, i + 1, "") for i in range(len(src))])
    assert patch == [patch[0]] and patch[0].removed == src and patch[0].inserted == ""


def test_an_empty_patch_maps_by_the_shared_identity() -> None:
    """Callers skip mapping when the map ``is identity`` (tens of thousands of findings on a
    hostile input); a non-empty patch still maps through its edits."""
    assert offset_mapper([]) is identity
    moved = offset_mapper([Edit(0, 3, "abc", "")])
    assert moved is not identity and moved(0) == 3


@settings(max_examples=800, deadline=None)
@given(text_and_patch())
def test_a_range_maps_inside_its_input_without_the_gap_after_it(tp: tuple[str, Patch]) -> None:
    """end_in_input: never before the start's image (offset maps never decrease, which the
    collectors rely on instead of clamping), and a run of kept characters maps onto exactly
    those characters of the input, even where the patch removed what followed the run
    (mapping the end itself would take the removed text in)."""
    src, patch = tp
    out = apply(src, patch)
    to_input = offset_mapper(patch)
    images = [to_input(i) for i in range(len(out) + 1)]
    assert images == sorted(images)
    inserted = _inserted(out, patch)
    for start in range(len(out) + 1):
        for end in range(start, len(out) + 1):
            a, b = to_input(start), end_in_input(to_input, start, end)
            assert a <= b
            # Kept characters with nothing removed between them: a run of the input.
            run = images[end - 1] - images[start] == end - 1 - start if start < end else False
            if run and not any(inserted[start:end]):
                assert (b - a, src[a:b]) == (end - start, out[start:end])


@st.composite
def cleaned_line(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]], str]:
    """A line, the ranges of it a cleaned line is made from (as the walk keeps a payload's
    leftover words, the text before ``MEDIA:``, or a line without its lifted images), and
    the separator that joins them."""
    words = draw(
        st.lists(
            st.sampled_from(["ab", "[[x]]", "a", " ", "  ", "\t", "b c", "\u00a0", "\n"]),
            max_size=12,
        )
    )
    line = "".join(words)
    kept: list[tuple[int, int]] = []
    at = 0
    for w in words:
        if draw(st.booleans()):
            if kept and kept[-1][1] == at:
                kept[-1] = (kept[-1][0], at + len(w))  # touching ranges are one range
            else:
                kept.append((at, at + len(w)))
        at += len(w)
    return line, kept, draw(st.sampled_from(["", " "]))


@settings(max_examples=2000, deadline=None)
@given(cleaned_line(), st.integers(0, 3), st.integers(0, 5), st.integers(1, 6))
def test_cleaned_pieces_rebuild_the_cleaned_line_from_its_own_characters(
    case: tuple[str, list[tuple[int, int]], str], pad: int, base: int, limit: int
) -> None:
    line, kept, sep = case
    src = "<" * pad + line + ">"
    start, end = pad, pad + len(line)
    shifted = [(a + pad - base, b + pad - base) for a, b in kept]
    pieces = cleaned_pieces(src, start, end, shifted, base=base, sep=sep, limit=limit)
    new = collapse_blank_runs(sep.join(src[a + pad : b + pad] for a, b in kept))
    if pieces is None:
        return  # the caller then keeps one edit
    assert len(pieces) <= limit
    assert all(start <= a <= b <= end for a, b, _ in pieces)
    assert all(p[1] < q[0] for p, q in itertools.pairwise(pieces))  # sorted, apart
    patch = [Edit(a, b, src[a:b], r) for a, b, r in pieces]
    assert all(e.removed != e.inserted for e in patch)  # no edit changes nothing
    rebuilt = apply(src, patch)
    assert rebuilt == src[:start] + new + src[end:]
    # What no piece inserted is the source's own character, in place; only a space (a
    # separator, a collapsed run) is inserted or taken from outside the kept ranges.
    to_input, inserted = offset_mapper(patch), _inserted(rebuilt, patch)
    for i, ch in enumerate(rebuilt[start : start + len(new)], start):
        if inserted[i]:
            assert ch == " "
        else:
            p = to_input(i)
            assert src[p] == ch
            assert ch == " " or any(a + pad <= p < b + pad for a, b in kept)


@settings(max_examples=2000, deadline=None)
@given(cleaned_line(), st.integers(0, 3), st.integers(0, 5), st.integers(0, 3))
def test_cleaned_pieces_of_one_stretch_equal_the_general_steps(
    case: tuple[str, list[tuple[int, int]], str], pad: int, base: int, limit: int
) -> None:
    """The shortcut for one kept stretch with nothing to trim or collapse gives the general
    steps' replacements exactly, limit included (the general steps asked with the shortcut
    turned off)."""
    line, kept, sep = case
    src = "<" * pad + line + ">"
    start, end = pad, pad + len(line)
    shifted = [(a + pad - base, b + pad - base) for a, b in kept[:1]]
    fast = cleaned_pieces(src, start, end, shifted, base=base, sep=sep, limit=limit)
    shortcut = derive_module._kept_whole
    derive_module._kept_whole = lambda *_args, **_kw: False
    try:
        general = cleaned_pieces(src, start, end, shifted, base=base, sep=sep, limit=limit)
    finally:
        derive_module._kept_whole = shortcut
    assert fast == general


def test_cleaned_pieces_keep_a_tag_after_a_dropped_reference_in_place() -> None:
    """The review's case: the kept tag also occurs inside the dropped part of the line, where
    a search for it found the first one."""
    line = "MEDIA:https://e.example/a.png[[reply_to:1]] [[reply_to:1]]  x"
    second = line.index("[[reply_to:1]] ") + len("[[reply_to:1]] ")
    kept = [(second - 6, second + 14 - 6), (line.rindex("x") - 6, len(line) - 6)]
    assert cleaned_pieces(line, 0, len(line), kept, base=6, sep=" ", limit=16) == [
        (0, second, ""),
        (second + 15, second + 16, ""),
    ]


def test_cleaned_pieces_give_up_past_the_limit() -> None:
    line = "a  " * 20 + "b"  # 20 collapsed runs: 20 edits
    whole = [(0, len(line))]
    assert cleaned_pieces(line, 0, len(line), whole, base=0, sep="", limit=19) is None
    pieces = cleaned_pieces(line, 0, len(line), whole, base=0, sep="", limit=20)
    assert pieces == [(3 * i + 2, 3 * i + 3, "") for i in range(20)]


@st.composite
def spaced_rewrite(draw: st.DrawFn) -> tuple[str, str, list[tuple[int, int]]]:
    """A text, ranges of it to remove (tags), and the text without them, its whitespace
    rewritten gap by gap as the release's tag step does."""
    pieces = draw(
        st.lists(
            st.sampled_from(["ab", "c", "[[t]]", " ", "  ", "\r\n", "\n\n\n", "\u00a0"]),
            max_size=10,
        )
    )
    before, removed, after = "", [], []
    for p in pieces:
        if p == "[[t]]" and draw(st.booleans()):
            removed.append((len(before), len(before) + len(p)))
        else:
            after.append(p)
        before += p
    # Rewrite each whitespace run of what is left (or keep it).
    kept = re.split(r"(\s+)", "".join(after))
    out = "".join(draw(st.sampled_from(["", " ", "\n", w])) if w.isspace() else w for w in kept)
    return before, out, removed


@settings(max_examples=1500, deadline=None)
@given(spaced_rewrite())
def test_spacing_patch_rebuilds_and_keeps_every_character_it_keeps(
    case: tuple[str, str, list[tuple[int, int]]],
) -> None:
    before, after, removed = case
    patch = spacing_patch(before, after, removed, 64)
    ink = "".join(after.split())
    if "".join("".join(before[a:b] for a, b in _kept(before, removed)).split()) != ink:
        assert patch is None  # a rewrite joined two words' characters differently
        return
    assert patch is not None
    assert apply(before, patch) == after and invert(after, patch) == before
    to_input = offset_mapper(patch)
    inserted = _inserted(after, patch)
    for i, ch in enumerate(after):
        if not ch.isspace() and not inserted[i]:
            assert before[to_input(i)] == ch
    assert sum(not c.isspace() for c in after) == sum(
        not c.isspace() and not inserted[i] for i, c in enumerate(after)
    )  # every character of ink is kept, none inserted


def _kept(text: str, removed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out, cur = [], 0
    for a, b in removed:
        out.append((cur, a))
        cur = b
    out.append((cur, len(text)))
    return out


def test_spacing_patch_refuses_a_text_whose_characters_changed() -> None:
    assert spacing_patch("a b", "a c", [], 8) is None
    assert spacing_patch("ab", "a b c", [], 8) is None
    assert spacing_patch("x [[t]] y", "x y", [(2, 7)], 8) == [Edit(1, 8, " [[t]] ", " ")]
    assert spacing_patch("a  b  c", "a b c", [], 2) == [
        Edit(1, 3, "  ", " "),
        Edit(4, 6, "  ", " "),
    ]
    assert spacing_patch("a  b  c", "a b c", [], 1) is None  # over the limit


def test_a_caption_after_a_reference_keeps_its_words_in_place() -> None:
    """The words left after an accepted reference are one kept range when they stand one
    space apart (media.lines.leftover_text), else one range each; either way the edits
    remove only the reference and the collapsed blanks."""
    one = "MEDIA:https://e.example/a.png see the chart"
    assert leftover_text(one[6:], [(24, 27), (28, 31), (32, 37)]) == ("see the chart", [(24, 37)])
    split = richout.split_media(one, explain=True)
    assert [(e.start, e.end) for e in split.edits] == [(0, 30)]
    spaced = "MEDIA:https://e.example/a.png see  the   chart"
    split = richout.split_media(spaced, explain=True)
    assert split.text == "see the chart"
    assert [(e.start, e.end, e.inserted) for e in split.edits] == [
        (0, 30, ""),
        (34, 35, ""),
        (39, 41, ""),
    ]
