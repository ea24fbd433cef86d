"""A fence scan that takes over an earlier stage's reading reads as a scan of the whole text.

A pipeline builds a code map per stage text (the reply, the text its directive lines left,
then its tags), each a small edit of the one before; a stage's fence scan takes over its
parent's reading of the lines before the first difference and, once their states agree,
after the last (:class:`FenceScan` with ``prior``). These tests compare every such scan
with a fresh one: the blocks, where the scan stops, the lines its search found and the
first deep line; and they check that the reading really is taken over, and where (a
comparison of two fresh scans would pass whatever the take-over did).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import richout
from richout.markdown.codemap import CodeMap
from richout.markdown.fences import FenceScan, _agreement, _resume_state
from richout.markdown.regions import deep_nesting_at
from richout.text.derive import common_prefix, common_suffix

#: Lines that open, close, stop or deepen the scan, and plain ones.
_LINES = [
    "a",
    "",
    "```",
    "````",
    "~~~",
    "``` x",
    "```|",
    "|-|",
    "  ```",
    "    ```",
    "> ```",
    "- ```",
    "``` `",
    "x ```",
    "> " * 30 + "deep",
    "\t" * 11 + "y",
    "a\rb",
    "b | c",
]

#: What stands before the edited part, at least ``RESUME_MIN`` long: plain lines, closed
#: blocks, a block left open across the edit, a deep line, a table header.
_HEADS = [
    "a\n" * 2100,
    "```\nx\n```\n\n" * 400,
    "```\n" + "x\n" * 2100,
    "~~~~\n" + "x\n" * 2100,
    "> " * 30 + "deep\n" + "a\n" * 2100,
    "```|\n" + "a\n" * 2100,
    "  ```\n" + "a\n" * 2100,
    "a\rb\n" + "a\n" * 2100,
]


def _scan_facts(scan: FenceScan) -> tuple[list[int], list[int], int, list[int]]:
    return scan.starts, scan.ends, scan.valid_until, list(scan.lines())


def _check(parent: str, child: str) -> None:
    prior = FenceScan(parent)
    resumed = FenceScan(child, prior)
    fresh = FenceScan(child)
    assert _scan_facts(resumed) == _scan_facts(fresh), (parent, child)
    deep = deep_nesting_at(child)
    for pos in {0, deep - 1, deep, len(child), *fresh.starts, *fresh.ends}:
        assert resumed.past_deep(pos) == (0 <= deep <= pos), pos


@st.composite
def edited(draw: st.DrawFn) -> tuple[str, str]:
    """A text of a head and generated lines, and the same text with edits near its end or
    its start (where a stage's edits of such a text fall)."""
    head = draw(st.sampled_from(_HEADS))
    tail = "\n".join(draw(st.lists(st.sampled_from(_LINES), max_size=12)))
    parent = head + tail
    child = parent
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            back = draw(st.integers(0, len(tail) + 8))
            at = max(len(child) - back, 0)
        else:  # near the start: the rest is taken over
            at = draw(st.integers(0, 12))
        cut = draw(st.integers(0, 6))
        insert = draw(
            st.sampled_from(["", "x", "\n", "```\n", "\n~~~", " | ", "\r", "> ", "`", "````\n"])
        )
        child = child[:at] + insert + child[at + cut :]
    return parent, child


@settings(max_examples=1500, deadline=None)
@given(edited())
@example(("```\n" + "x\n" * 2100 + "```\ny", "```\n" + "x\n" * 2100 + "``\ny"))
@example(("a\n" * 2100 + "```|\n|-|", "a\n" * 2100 + "```|\n|-|x"))  # the next line decides
@example(("a\n" * 2100 + "```\nb", "a\n" * 2100 + "```\n" + "> " * 30))  # deep after resume
@example(("> " * 30 + "d\n" + "a\n" * 2100 + "```", "> " * 30 + "d\n" + "a\n" * 2100 + "~~~"))
@example(("````\n" + "a\n" * 2100 + "```\nb\n````\n", "```\n" + "a\n" * 2100 + "```\nb\n````\n"))
def test_a_resumed_scan_equals_a_fresh_one(texts: tuple[str, str]) -> None:
    _check(*texts)


@pytest.mark.parametrize(
    ("parent", "child"),
    [
        # a block open across the first difference: its run is read again from its line
        ("```\n" + "x\n" * 2100 + "```\nz", "```\n" + "x\n" * 2100 + "`````\nz"),
        ("~~~~\n" + "x\n" * 2100 + "~~~", "~~~~\n" + "x\n" * 2100 + "~~~~"),
        # closed blocks before it, a deep line before it
        ("```\nx\n```\n\n" * 400 + "a `b` [[x]]", "```\nx\n```\n\n" * 400 + "a `b`"),
        ("> " * 30 + "d\n```\n" + "a\n" * 2100 + "```", "> " * 30 + "d\n```\n" + "a\n" * 2100),
    ],
)
def test_the_scan_resumes_where_the_texts_agree(parent: str, child: str) -> None:
    """These pairs are resumed (the state is taken over, not read again), and equal."""
    prior = FenceScan(parent)
    agreed = _agreement(child, prior)
    assert agreed is not None
    same = agreed[0]
    state = _resume_state(child, prior, len(child) + 1, same)
    assert state is not None
    resume = state[0]
    assert 0 < resume <= same == common_prefix(parent, child)
    assert child.rfind("\n", 0, same) > resume - 1
    _check(parent, child)


def _taken_over(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record where each scan takes over its prior's rest (:meth:`FenceScan._take_rest`)."""
    at: list[int] = []
    real = FenceScan._take_rest

    def recording(self: FenceScan, prior: FenceScan, line_start: int, *a: Any, **k: Any) -> None:
        at.append(line_start)
        real(self, prior, line_start, *a, **k)

    monkeypatch.setattr(FenceScan, "_take_rest", recording)
    return at


@pytest.mark.pure_python(why="replaces FenceScan._take_rest to see where it is called")
@pytest.mark.parametrize(
    ("parent", "child"),
    [
        # an edit at the start: a directive line removed before a megabyte of blocks
        ("MEDIA:/a.png\n" + "```\nx\n```\n\n" * 400, "```\nx\n```\n\n" * 400),
        ("a\n" + "```\nx\n```\n\n" * 400, "[[x]] a\n" + "```\nx\n```\n\n" * 400),
        # inside a block open across the edit, with the same run on both sides
        ("```\n[[x]]\n" + "a\n" * 2100 + "```\nb\n```", "```\n\n" + "a\n" * 2100 + "```\nb\n```"),
        # in the middle, a block before and after
        (
            "```\nx\n```\n" * 250 + "MEDIA:/a\n" + "```\ny\n```\n" * 250,
            "```\nx\n```\n" * 250 + "```\ny\n```\n" * 250,
        ),
    ],
)
def test_the_scan_takes_over_where_the_texts_end_alike(
    monkeypatch: pytest.MonkeyPatch, parent: str, child: str
) -> None:
    at = _taken_over(monkeypatch)
    _check(parent, child)
    assert at, "the rest was read again"
    # at the first line the scan reads whose line break before it the texts end with
    back = common_suffix(parent, child, len(child) - common_prefix(parent, child))
    assert at[0] == min(x for x in FenceScan(child).lines() if x > len(child) - back)


@pytest.mark.pure_python(why="replaces FenceScan._take_rest to see where it is called")
@pytest.mark.parametrize(
    ("parent", "child"),
    [
        ("a\n" * 100 + "```\n```", "b\n" * 100 + "```\n```"),  # too short to be worth it
        ("a\n" * 2100, "```\n" + "a\n" * 2100),  # the prior text had no fence: nothing read
        ("  ```\n" + "a\n" * 2100 + "```", "  ```\n" + "b\n" * 2100 + "```"),  # stopped early
        # an opener inserted: every later line's state differs, the tries run out
        ("```\nx\n```\n" * 500, "```\n" + "```\nx\n```\n" * 500),
        ("```\nx\n```\n" * 500, "~~~\n" + "```\nx\n```\n" * 500),
    ],
)
def test_the_scan_reads_alone_where_nothing_can_be_taken_over(
    monkeypatch: pytest.MonkeyPatch, parent: str, child: str
) -> None:
    at = _taken_over(monkeypatch)
    prior = FenceScan(parent)
    agreed = _agreement(child, prior)
    if agreed is not None:
        assert _resume_state(child, prior, len(child) + 1, agreed[0]) is None
    _check(parent, child)
    assert not at


@pytest.mark.pure_python(why="replaces fences._prior_block to count the tries")
def test_the_tries_to_take_over_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """An inserted opener flips the state of every later fence line: the scan stops trying
    after ``SYNC_TRIES`` lines rather than compare its state at each of 1,000."""
    from richout.markdown import fences

    tries: list[int] = []
    real = fences._prior_block

    def counting(prior: FenceScan, at: int, open_char: str, open_len: int) -> int | None:
        tries.append(at)
        return real(prior, at, open_char, open_len)

    monkeypatch.setattr(fences, "_prior_block", counting)
    _check("```\nx\n```\n" * 500, "```\n" + "```\nx\n```\n" * 500)
    assert 1 <= len(tries) <= FenceScan.SYNC_TRIES


_BLOCKS = "```\nx\n```\n\n" * 20_000
_TAGS = "a `[[reply_to_current]]` b [[reply_to_current]]\n"


@pytest.mark.pure_python(why="replaces the fence scan's search to count the lines it reads")
@pytest.mark.parametrize(
    "text",
    [
        _BLOCKS + _TAGS + "MEDIA:/a.png\n",  # the edits at the end: each scan resumes
        "MEDIA:/a.png\n" + _TAGS + _BLOCKS,  # at the start: each takes over the rest
        _BLOCKS + "MEDIA:/a.png\n" + _TAGS + _BLOCKS,  # in the middle: both
    ],
)
def test_a_pipeline_reads_a_megabyte_of_fences_once(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """A reply of small fenced blocks, reply tags and a directive line: the reply, the text
    its directive line leaves, the text its tag leaves and the delivered text each get a code
    map, and each stage's fence scan takes over its parent's reading where the texts agree
    (four scans of 170k fence lines made this reply cost 0.59 s a megabyte). Counted: the
    lines each scan's search gave it while scanning."""
    from richout.markdown import fences

    read: list[int] = []

    def counted(found: Any) -> Any:
        for m in found:
            read[-1] += 1
            yield m

    real_init, real_lines, real_pattern = (
        FenceScan.__init__,
        fences.fence_or_deep_lines,
        fences.FENCE_OR_DEEP,
    )

    class Pattern:
        def finditer(self, t: str, pos: int = 0) -> Any:
            return counted(real_pattern.finditer(t, pos))

    def init(self: FenceScan, t: str, prior: FenceScan | None = None) -> None:
        read.append(0)
        real_init(self, t, prior)
        read.append(read.pop())  # (lines() may search on later: not counted here)

    monkeypatch.setattr(FenceScan, "__init__", init)
    monkeypatch.setattr(fences, "fence_or_deep_lines", lambda t: counted(real_lines(t)))
    monkeypatch.setattr(fences, "FENCE_OR_DEEP", Pattern())
    reply = richout.parse_reply(text)
    assert "```\nx\n```" in reply.text
    assert reply.media_urls == ["/a.png"]
    assert len(read) >= 3
    assert read[0] >= 40_000  # the first scan reads every fence line
    assert max(read[1:]) <= 8, read  # the others, the lines about their edits


def test_code_maps_of_related_texts_answer_alike() -> None:
    """A map made ``like`` another answers every question as a map of its own text."""
    parent = "```\nx\n```\n\n" * 400 + "a `b` [[x]] c\n```\ny\n"
    child = parent.replace("[[x]]", "")
    base = CodeMap(parent)
    assert base.in_code(len(parent) - 3)  # builds the parent's scan
    like = CodeMap(child, base)
    fresh = CodeMap(child)
    assert [like.in_code(p) for p in range(0, len(child), 7)] == [
        fresh.in_code(p) for p in range(0, len(child), 7)
    ]


@settings(max_examples=2000, deadline=None)
@given(
    st.text(alphabet="ab\n", max_size=40).map(lambda t: t * 37),
    st.integers(0, 2000),
    st.text(alphabet="abx", max_size=3),
    st.integers(0, 3),
    st.integers(0, 5000),
)
def test_common_ends_equal_a_character_by_character_reading(
    text: str, at: int, insert: str, cut: int, limit: int
) -> None:
    """The block compares (growing and shrinking fourfold) find what a character-by-character
    comparison finds, and the suffix never reads past ``limit`` or either text's start."""
    other = text[:at] + insert + text[at + cut :]
    p = 0
    while p < min(len(text), len(other)) and text[p] == other[p]:
        p += 1
    assert common_prefix(text, other) == p
    q = 0
    while q < min(len(text), len(other)) and text[-1 - q] == other[-1 - q]:
        q += 1
    assert common_suffix(text, other, limit) == min(q, limit)
