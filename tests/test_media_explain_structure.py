"""media.structure_changed reads the kept lines around removed directive lines; a block of
removed lines shares its neighbours without searching for them again
(``explain_structure._Around.kept_neighbours``). The shared answer is the searched one."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import richout
from richout.media.explain_structure import _Around, open_after
from richout.media.walk import Walker
from richout.profiles import resolve_profile

_LINES = st.sampled_from(
    [
        "MEDIA:/a.png",
        "MEDIA: /b /c",
        "  MEDIA:/d.png",
        "MEDIA:/e.png caption",
        "",
        "   ",
        "text",
        "Caption  ",
        "end\\",
        "---",
        "===",
        "    indented",
        "\tcode",
    ]
)
_TEXT = st.builds(
    lambda lines, breaks: (
        lines[0] + "".join(b + line for b, line in zip(breaks, lines[1:], strict=False))
    ),
    st.lists(_LINES, min_size=1, max_size=10),
    st.lists(st.sampled_from(["\n", "\n", "\r", "\r\n"]), min_size=9, max_size=9),
)


@settings(max_examples=1500, deadline=None)
@given(_TEXT, st.sampled_from(["next", "release-2026.9.6"]))
def test_shared_neighbours_are_the_searched_ones(text: str, profile: str) -> None:
    walk = Walker(
        text,
        media_on=True,
        directives_on=True,
        images_on=False,
        allowlist=None,
        profile=resolve_profile(profile),
        explain=True,
    ).run()
    removed = [d for d in walk.directives if d.line_removed]
    changes = {ch.start: ch for ch in walk.changes}
    shared = _Around(text, changes).kept_neighbours(removed)
    searched = _Around(text, changes).kept_neighbours(removed, share=False)
    assert shared == searched, text


def test_a_block_of_directive_lines_between_a_hard_break_and_an_underline() -> None:
    """Every line of the block is reported, each with the same reason, as when alone."""
    block = "\n".join(f"MEDIA:/tmp/{i}.png" for i in range(4))
    got = richout.split_media(f"Caption  \n{block}\nnext", explain=True)
    changed = [d for d in got.diagnostics if d.code == "media.structure_changed"]
    assert len(changed) == 4
    assert all("hard line break" in d.message for d in changed)
    got = richout.split_media(f"Title\n{block}\n---", explain=True)
    changed = [d for d in got.diagnostics if d.code == "media.structure_changed"]
    assert [d.start for d in changed] == [6 + 17 * i for i in range(4)]  # "Title\n", 17 a line
    assert all("setext heading" in d.message for d in changed)


def _paired_run_by_run(raw: str, a: int, b: int, open_len: int) -> int:
    """The pairing of backtick runs one run at a time (the reference for open_after)."""
    for m in re.finditer("`+", raw[a:b]):
        n = len(m.group())
        if open_len == 0:
            open_len = n
        elif n == open_len:
            open_len = 0
    return open_len


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.sampled_from(["`", "``", "```", "x", "\n", " "]), max_size=40).map("".join),
    st.integers(0, 4),
    st.data(),
)
def test_open_after_pairs_as_run_by_run(raw: str, open_len: int, data: st.DataObject) -> None:
    # Runs of one length are decided by their count, any other mix run by run: both as the
    # run-by-run pairing, from any open run and over any stretch.
    a = data.draw(st.integers(0, len(raw)))
    b = data.draw(st.integers(a, len(raw)))
    assert open_after(raw, a, b, open_len) == _paired_run_by_run(raw, a, b, open_len)


def test_open_after_reads_runs_of_one_length_by_their_count() -> None:
    # Not vacuous: both ways are taken, and each state is reached.
    fences = "```\n" * 40_001
    assert open_after(fences, 0, len(fences), 0) == 3
    assert open_after(fences, 0, len(fences), 3) == 0
    assert open_after(fences, 0, len(fences), 2) == 2
    assert open_after("``a`b``", 0, 7, 0) == 0 and open_after("``a`b", 0, 5, 0) == 2
