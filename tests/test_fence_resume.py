"""A fence scan resumed from an earlier stage's scan reads as a scan of the whole text.

A pipeline builds a code map per stage text (the reply, the text its directive lines left,
then its tags), each a small edit of the one before; a stage's fence scan takes over its
parent's reading of the lines before the first difference (:class:`FenceScan` with
``prior``). These tests compare every resumed scan with a fresh one: the blocks, where the
scan stops, the lines its search found and the first deep line; and they check the resume
really happens (a comparison of two fresh scans would pass whatever the resume did).
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import richout
from richout.markdown.codemap import CodeMap
from richout.markdown.fences import FenceScan, _resume_state
from richout.markdown.regions import deep_nesting_at
from richout.text.derive import common_prefix

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
    """A text of a head and generated lines, and the same text with edits near its end
    (where a stage's edits of such a text fall), the first difference after the head."""
    head = draw(st.sampled_from(_HEADS))
    tail = "\n".join(draw(st.lists(st.sampled_from(_LINES), max_size=12)))
    parent = head + tail
    child = parent
    for _ in range(draw(st.integers(1, 3))):
        back = draw(st.integers(0, len(tail) + 8))
        at = max(len(child) - back, 0)
        cut = draw(st.integers(0, 6))
        insert = draw(st.sampled_from(["", "x", "\n", "```\n", "\n~~~", " | ", "\r", "> "]))
        child = child[:at] + insert + child[at + cut :]
    return parent, child


@settings(max_examples=1500, deadline=None)
@given(edited())
@example(("```\n" + "x\n" * 2100 + "```\ny", "```\n" + "x\n" * 2100 + "``\ny"))
@example(("a\n" * 2100 + "```|\n|-|", "a\n" * 2100 + "```|\n|-|x"))  # the next line decides
@example(("a\n" * 2100 + "```\nb", "a\n" * 2100 + "```\n" + "> " * 30))  # deep after resume
@example(("> " * 30 + "d\n" + "a\n" * 2100 + "```", "> " * 30 + "d\n" + "a\n" * 2100 + "~~~"))
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
    state = _resume_state(child, prior, len(child) + 1)
    assert state is not None
    resume = state[0]
    assert 0 < resume <= common_prefix(parent, child)
    assert child.rfind("\n", 0, common_prefix(parent, child)) > resume - 1
    _check(parent, child)


@pytest.mark.parametrize(
    ("parent", "child"),
    [
        ("a\n" * 100 + "```", "a\n" * 100 + "~~~"),  # too short to be worth it
        ("x" + "a\n" * 2100 + "```", "y" + "a\n" * 2100 + "```"),  # differs at once
        ("a\n" * 2100, "a\n" * 2100 + "```"),  # the prior text had no fence: nothing read
        ("  ```\n" + "a\n" * 2100 + "b", "  ```\n" + "a\n" * 2100 + "```"),  # stopped early
    ],
)
def test_the_scan_starts_afresh_where_nothing_can_be_taken_over(parent: str, child: str) -> None:
    assert _resume_state(child, FenceScan(parent), len(child) + 1) is None
    _check(parent, child)


@pytest.mark.pure_python(why="replaces FenceScan.__init__ to count the lines each scan read")
def test_a_pipeline_scans_a_megabyte_of_fences_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reply of small fenced blocks, then a reply tag and a directive line: the reply, the
    text its directive line leaves, the text its tag leaves and the delivered text each get
    a code map, and each stage's fence scan resumes its parent's (four scans of 170k fence
    lines made this reply cost 0.59 s a megabyte). Counted: the lines each scan read."""
    text = "```\nx\n```\n\n" * 20_000 + "a `[[reply_to_current]]` b [[reply_to_current]]\n"
    text += "MEDIA:/a.png\n"
    read: list[int] = []
    real = FenceScan.__init__

    def counting(self: FenceScan, t: str, prior: FenceScan | None = None) -> None:
        real(self, t, prior)
        state = None if prior is None else _resume_state(t, prior, len(t) + 1)
        read.append(len(self.lines()) - (0 if state is None else len(state[3])))

    monkeypatch.setattr(FenceScan, "__init__", counting)
    reply = richout.parse_reply(text)
    assert reply.text.startswith("```\nx\n```")
    assert reply.media_urls == ["/a.png"]
    assert len(read) >= 3
    assert read[0] >= 40_000  # the first scan reads every fence line
    assert max(read[1:]) <= 4, read  # the others, the lines from their first difference


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
