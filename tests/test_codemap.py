"""The code map's fast paths always give the full CommonMark parse's answer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from richout.markdown.codemap import CodeMap
from richout.markdown.engine import parse_code

_PIECES = [
    "```",
    "~~~",
    "````",
    "`",
    "``",
    "` x `",
    "```py",
    "``` a`b",
    "~~~ x",
    "- ",
    "* ",
    "1. ",
    "> ",
    "  ",
    "    ",
    "\t",
    " \t",
    "# ",
    "| a | b |",
    "|---|---|",
    "[[reply_to_current]]",
    "[[audio_as_voice]]",
    "MEDIA:/srv/a.png",
    "media:x",
    '[embed ref="x" /]',
    "text",
    "word `code` word",
    "[a](`b`)",
    "<http://a`b>",
    "\\`",
    "[x]: /u",
    "===",
    "---",
    "\r\n",
    "\r",
    "\n",
    "\n",
    "\n",
    "\n\n",
    " ",
    "x",
    "***",
]


@st.composite
def markdownish(draw: st.DrawFn) -> str:
    return "".join(draw(st.lists(st.sampled_from(_PIECES), max_size=30)))


def _fresh(text: str) -> CodeMap:
    return CodeMap(text)


@settings(max_examples=3000, deadline=None)
@given(markdownish())
def test_fast_line_answers_equal_full_parse(text: str) -> None:
    full = _fresh(text).full()
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        fast = _fresh(text)
        assert fast.line_in_block(start, end) == full.overlaps_block(start, end), (text, start)
        start = end + 1


@settings(max_examples=3000, deadline=None)
@given(markdownish())
def test_fast_offset_answers_equal_full_parse(text: str) -> None:
    full = _fresh(text).full()
    fast = _fresh(text)
    for pos in range(len(text)):
        assert fast.in_code(pos) == full.in_code(pos), (text, pos)
        if fast.parsed:
            fast = _fresh(text)


def test_no_code_markers_never_parses() -> None:
    cm = CodeMap("Hello [[reply_to_current]]\nMEDIA:/srv/a.png")
    assert not cm.in_code(6)
    assert not cm.line_in_block(27, 43)
    assert not cm.parsed


def test_plain_paragraph_answers_without_parsing() -> None:
    text = "Use `[[reply_to_current]]` here\n\n```\nMEDIA:/srv/a.png\n```\nMEDIA:/srv/b.png"
    cm = CodeMap(text)
    assert cm.in_code(text.index("[["))
    media = text.index("MEDIA:/srv/a")
    assert cm.line_in_block(media, media + 16)
    last = text.index("MEDIA:/srv/b")
    assert not cm.line_in_block(last, len(text))
    assert not cm.parsed


@pytest.mark.parametrize(
    "text",
    [
        "```| a | b |\r\n|---|---|---",  # found by the property above on a clean CI run
        "```| a | b |\n|---|---|---\nMEDIA:x\n```",
        "~~~ a|b\n:-- | --\nMEDIA:x",
    ],
)
def test_fence_line_that_heads_a_table_is_not_a_fence(text: str) -> None:
    # markdown-it's table rule runs before its fence rule, so these are tables, not code.
    fast, full = CodeMap(text), parse_code(text)
    assert [fast.in_code(i) for i in range(len(text))] == [
        full.in_code(i) for i in range(len(text))
    ]
