"""``span_reach``: outside its ranges no inline code span lies, whatever the blocks.

The reach answers the tag stages' "is this ``[[`` in code?" for a short text without the
text's block structure (``richout/markdown/reach.py``). Its claim is one-sided: a position
outside the reach is in no code region by the full CommonMark parse. These tests draw short
texts from pieces that make paragraphs, quotes, list items, tables, links, autolinks,
escapes and backtick runs of several widths meet, and check the claim at every position.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from richout.markdown.codemap import CodeMap
from richout.markdown.reach import _paired_by_lines, _read_runs, span_reach
from richout.markdown.spans import in_spans
from richout.tags.code import StageCode

_PIECES = [
    "`",
    "``",
    "```",
    "` x `",
    "`a`",
    "``b``",
    "x",
    " ",
    "  ",
    "   ",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "\n \n",
    "> ",
    ">",
    "> > ",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "1) ",
    "2. ",
    "-",
    "---",
    "- - -",
    "===",
    "# ",
    "| a | b |",
    "|---|---|",
    "-|-",
    "x | y",
    "[[reply_to_current]]",
    "[l](u)",
    "[a](`b`)",
    '[a](u\n"`x")',
    '[a](u\n> "t`x")',
    "![`a`](b)",
    "[a](<b c>\n`)",
    "[x]: /u",
    "[x]",
    "<http://a`b>",
    "<b>",
    "a < b",
    "<a\x00`b>",
    "\\`",
    "\\",
    "    ",
    "\t",
]

_LINES = [
    "`a` [[reply_to_current]] ``b``",
    "x` [[reply_to_current]] | ``y`` z",
    "> > `x` [[reply_to_current]] | ``y`` z",
    "> `a` [[reply_to_current]] ``b``",
    "- `a` [[reply_to_current]] ``b`` c",
    "1. a `x` [[reply_to_current]] b",
    "   c ``y`` d [[reply_to_current]]",
    "  `x` [[reply_to_current]] | ``y`` z",
    "`y`` d [[reply_to_current]]",
    "b`` c",
    "` z",
    "2. b `",
    "  > c`",
    "- > d `",
    "> - e`",
    "",
    "   ",
    "# h `",
    "x `y",
    "z` w",
    "---",
]


@st.composite
def _short_texts(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return "".join(draw(st.lists(st.sampled_from(_PIECES), max_size=24)))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    return eol.join(draw(st.lists(st.sampled_from(_LINES), min_size=1, max_size=5)))


def _assert_sound(text: str) -> list[tuple[int, int]] | None:
    reach = span_reach(text)
    if reach is None:
        return None
    assert reach == sorted(reach)
    assert all(a < b < c for (a, b), (c, _) in itertools.pairwise(reach)), reach
    full = CodeMap(text).full()
    # Code blocks are the caller's to rule out: only texts that cannot hold one are judged.
    if StageCode(text).inline_only():
        for pos in range(len(text) + 1):
            if not in_spans(reach, pos, len(text)):
                assert not full.in_code(pos), (text, pos, reach)
    return reach


@settings(max_examples=4000, deadline=None)
@given(_short_texts())
@example("x` [[reply_to_current]] | ``y`` z\n> > `x` [[reply_to_current]] |")
@example("`a\n> b` [[reply_to_current]] `")  # the quote interrupts the paragraph
@example("> a `b\nc [[reply_to_current]] `")  # a lazy line continues the quote's paragraph
@example("> a\n`b\n> c [[reply_to_current]] `")  # a quote line continues a lazy paragraph
@example("- a `b\n  - c` [[reply_to_current]] `")  # a nested item interrupts
@example("a `b\n2. c [[reply_to_current]] `")  # an item numbered 2 does not interrupt
@example("a `b\n*\nc [[reply_to_current]] `")  # an empty item does not interrupt
@example("a `b\n1.\nc [[reply_to_current]] `")
@example("[a][`b] `` x ` [[reply_to_current]] ``\n\n[`b]: /u")  # a label takes a run
@example("a `b\n# c` [[reply_to_current]] `")  # a heading line is content of its own
@example("`a\nb > [[reply_to_current]] `")  # a ">" inside a line opens no quote
@example('> [b](u\n> "`") ` [[reply_to_current]] `')  # a title past a quote's marker
@example('[b](u\n"`") ` [[reply_to_current]] `')  # a title on the next line
@example("![`a](u) ` [[reply_to_current]] `")  # an image's alt text
@example("\\`a ` [[reply_to_current]] `")  # an escaped backtick opens nothing
@example("\\\\\\`a ` [[reply_to_current]] `")  # ... after any odd run of backslashes
@example("\\``a` [[reply_to_current]] ` ``")  # the rest of an escaped run opens
@example("`a\\` [[reply_to_current]] `")  # a backslash is text inside a span
@example("\\`a`b`c` [[reply_to_current]]")  # paired line by line unless escapes are read
def test_no_code_outside_the_reach(text: str) -> None:
    _assert_sound(text)


@settings(max_examples=3000, deadline=None)
@given(_short_texts())
@example("`a` [[reply_to_current]] ``b``\n> `a` [[reply_to_current]] ``b``")
@example("`a` x\n`b` ``c")  # a run its line leaves unpaired
@example("`a``b` ``\nc ``")  # a run inside a span, of a width that pairs on a later line
@example("\\`a`b`c` [[reply_to_current]]")  # an escape moves the pairing: no shortcut
def test_lines_paired_whole_are_the_reach(text: str) -> None:
    """Where every backtick lies in a span its own line pairs, those spans are what the
    reading from every line start gives (the shortcut of ``_paired_by_lines``, taken for
    texts without an escaped backtick)."""
    reach = span_reach(text)
    if reach is not None:
        assert reach == _read_runs(text, "\\`" in text)


@pytest.mark.parametrize(
    ("text", "paired"),
    [
        ("[[reply_to_current]] | ``y`` z\n  `x` [[reply_to_current]] | ``y``", True),
        ("`a` [[reply_to_current]] ``b`` [l](u)\n`a` [[reply_to_current]]", True),
        ("x\n`a`\r\n``b``", True),
        ("`y`` z\n`x` [[reply_to_current]]", False),  # the part opens inside a span
        ("`x` [[reply_to_current]] | ``y", False),  # ... or ends inside one
        ("`a\n`", False),  # a span across lines
    ],
)
def test_the_lines_shortcut_answers_parts_paired_line_by_line(text: str, paired: bool) -> None:
    # Not vacuous: most streamed parts of code spans pair line by line.
    assert (_paired_by_lines(text) is not None) is paired


@pytest.mark.parametrize(
    ("text", "clear"),
    [
        # Parts of streamed replies whose block structure the map would have to read.
        ("[[reply_to_current]]\n1. a `x` [[reply_to_current]] b\n   c ``y`` d", True),
        ("x` [[reply_to_current]] | ``y`` z\n> > `x` [[reply_to_current]] |", True),
        ("b`` c\n- `a` [[reply_to_current]] ``b`` c\n- `a`", True),
        ("`\n> `a` [[reply_to_current]] ``b``\n> `a` [[reply_to_current]] ``", True),
        ("`a\n\nb [[reply_to_current]] `c`", True),  # no content crosses a blank line
        ("\\``a` [[reply_to_current]] x", True),  # the rest of an escaped run opens
        ("`a` [[reply_to_current]] ``b`` [l](u)\n`a` [[reply_to_current]]", True),  # a link
        ("\\\\`a` [[reply_to_current]] x", True),  # an escaped backslash escapes nothing
        ("[[reply_to_current]] \\`\\`b `c`\n\\`a\\` [[reply_to_current]] \\`\\`b", True),
        # The escaped run opens nothing, so the next one does: the tag is in a span.
        ("\\`a ` [[reply_to_current]] `", False),
        # The second line may continue the first's paragraph, whose run may then close on
        # it (here it does: the tag is in code); only the parse can tell.
        ("` z\n  `x` [[reply_to_current]] | ``y`` z\n  `x`", False),
    ],
)
def test_the_reach_clears_the_tags_of_streamed_parts(text: str, clear: bool) -> None:
    # Not vacuous: the reach leaves the tags of common part shapes outside it.
    reach = _assert_sound(text)
    assert reach is not None
    tags = [i for i in range(len(text)) if text.startswith("[[", i)]
    assert all(not in_spans(reach, t, len(text)) for t in tags) is clear


@pytest.mark.parametrize(
    "text",
    [
        "`a` [l](`u`) [[reply_to_current]] `",  # a link takes a run into its destination
        '`a` [l](u\n> "`") [[reply_to_current]] `',  # ... or its title, past a quote marker
        "`a` [x] [[reply_to_current]]\n\n[x]: /u",  # a definition makes [x] a link
        "`a <http://x`y> [[reply_to_current]] `",  # an autolink holding a backtick
        "`a <a\x00`b> [[reply_to_current]] `",  # ... NUL read as U+FFFD
        "a | `b\n-|-\nc` [[reply_to_current]] | d",  # a table splits its rows into cells
        "`a\rb` [[reply_to_current]]",  # a lone CR ends a line the reading would not see
    ],
)
def test_constructs_that_move_backticks_leave_the_reach_unknown(text: str) -> None:
    assert span_reach(text) is None
