"""The code map's fast paths always give the full CommonMark parse's answer."""

from __future__ import annotations

import bisect
import contextlib
import operator
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import richout
from richout.markdown import links, spans
from richout.markdown.codemap import CodeMap
from richout.markdown.engine import CodeParse, parse_code
from richout.markdown.items import listed_part_spans, part_reading
from richout.markdown.linescan import is_blank, may_have_blocks
from richout.markdown.quotes import quoted_part_spans
from richout.markdown.ticks import TickGaps
from richout.tags.code import StageCode

_PIECES = [
    "```",
    "~~~",
    "````",
    "`",
    "``",
    "` x `",
    "```py",
    "``` a`b",
    "```|a",
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
    "[l](u)",
    "![i](u 't')",
    "[a](\nu`x)",
    '[a](u "t\n`x")',
    "[a](u\n)",
    "![`a`](b)",
    "<a\x00`b>",
    '[a](<b c>\n"`")',
    "[a](<b c>\n(`))",
    "[a](b\\\r\nc`d)",
    "[a](<b\\\r\n`c>)",
    "> |-|",
    " :-: | -",
    "x | y",
    "a|b\n-|-",
    "<http://a`b>",
    "<a`b@c.d>",
    "<b>",
    "List<T>",
    "a < b",
    "\\`",
    "[x]: /u",
    "===",
    "---",
    "\r\n",
    "\r",
    "\n",
    "\n",
    "\n",
    "2024 was",
    "-x",
    "*a* ",
    "_a_",
    "#x",
    "+1",
    "1.5",
    "==x",
    "- - -",
    "\n\n",
    " ",
    "x",
    "***",
]


@st.composite
def markdownish(draw: st.DrawFn) -> str:
    return "".join(draw(st.lists(st.sampled_from(_PIECES), max_size=30)))


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], Any]:
    """Record each text the code map sends to ``parse_code``; the list and the real one."""
    from richout.markdown import codemap

    parses: list[str] = []
    real = codemap.parse_code
    monkeypatch.setattr(
        codemap, "parse_code", lambda text, **kw: parses.append(text) or real(text, **kw)
    )
    return parses, real


def _fresh(text: str) -> CodeMap:
    return CodeMap(text)


#: Lines of several kinds, for the order test below (paragraph text with code spans, block
#: starters, indented and quote lines).
_LINES_OF_BLOCKS = [
    "`a` [[reply_to_current]] ``b``",
    "x `y",
    "z` w",
    "plain",
    "    `indented`",
    "> `q` x",
    "- `item`",
    "# `h`",
    "===",
    "---",
    "```",
    "",
    "| a | `b` |",
    "|---|---|",
    "[x]: /u",
]

#: The line endings the run readings are tested with: a CRLF's CR is part of its line ending.
_EOL = st.sampled_from(["\n", "\r\n"])


@contextlib.contextmanager
def _parses_remembered() -> Iterator[None]:
    """While the block runs, the code map's parser (``parse_code``, in the map and in the
    region reader) parses each text once and hands the same answer after.

    The helpers below ask a fresh map per offset or line, and a map that gives up parses the
    whole text: the same parse for every offset (a table's 2,000 drawn texts took 3.5
    minutes). ``parse_code`` is a pure function whose answer nothing changes, so remembering
    it changes no answer, fast or not, only the time. (Compiled modules look the parser up
    in their module too: ``engine.py``, which defines it, is not compiled.)"""
    from richout.markdown import codemap, regions

    memo: dict[tuple[str, bool], CodeParse] = {}

    def remembered(text: str, *, ends_document: bool = True) -> CodeParse:
        key = (text, ends_document)
        got = memo.get(key)
        if got is None:
            got = memo[key] = parse_code(text, ends_document=ends_document)
        return got

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(codemap, "parse_code", remembered)
        mp.setattr(regions, "parse_code", remembered)
        yield


@settings(max_examples=3000, deadline=None)
@given(markdownish())
def test_fast_line_answers_equal_full_parse(text: str) -> None:
    # The parse of the text as given (a map reads a text of lone CRs with LF for CR). Lines
    # are LF lines, as the walk asks them: a line may hold lone CRs, each a line to the parse.
    full = parse_code(text)
    start = 0
    with _parses_remembered():
        for line in text.split("\n"):
            end = start + len(line)
            fast = _fresh(text)
            assert fast.line_in_block(start, end) == full.overlaps_block(start, end), (text, start)
            start = end + 1


def _assert_offsets_agree(text: str, order: list[int] | None = None) -> None:
    """Every offset's fast answer (a fresh map after each one that parsed) is the parse's
    (of the text as given: a map reads a text of lone CRs with LF for CR); ``order``: the
    offsets in the order asked (a map keeps what it read for the next question)."""
    full = parse_code(text)
    with _parses_remembered():
        fast = _fresh(text)
        for pos in range(len(text)) if order is None else order:
            assert fast.in_code(pos) == full.in_code(pos), (text, pos)
            if fast.parsed:
                fast = _fresh(text)


@settings(max_examples=3000, deadline=None)
@given(markdownish())
def test_fast_offset_answers_equal_full_parse(text: str) -> None:
    _assert_offsets_agree(text)


@settings(max_examples=1500, deadline=None)
@given(
    st.one_of(
        markdownish(),
        st.lists(st.sampled_from(_LINES_OF_BLOCKS), min_size=1, max_size=10).map("\n".join),
    ),
    st.randoms(use_true_random=False),
)
def test_offsets_asked_in_any_order_answer_as_the_full_parse(text: str, rnd: Any) -> None:
    # A map keeps the range of lines of the paragraph it answered last: questions out of
    # order (a later line, an earlier one, another paragraph's) still reach the parse's.
    order = list(range(len(text)))
    rnd.shuffle(order)
    _assert_offsets_agree(text, order)


@settings(max_examples=600, deadline=None)
@given(markdownish(), st.sampled_from(["\n", "\r\n", "\r"]))
def test_tick_gaps_never_hide_a_code_span(text: str, eol: str) -> None:
    # TickGaps' "no span can cover this" must hold for the parse's inline spans in any text
    # and, where no code block is possible, for every code region: the shortcode scan
    # answers such positions "outside code" without the map.
    text = text.replace("\r\n", "\n").replace("\n", eol)
    gaps, parse = TickGaps(text), parse_code(text)
    blocks = may_have_blocks(text)
    for pos in range(len(text)):
        if gaps.may_cover(pos):
            continue
        covering = [r for r in parse.regions if r.start <= pos < r.end]
        assert all(r.block for r in covering), (text, pos, covering)
        assert blocks or not covering, (text, pos, covering)


@settings(max_examples=1500, deadline=None)
@given(markdownish())
def test_lone_cr_lines_answer_as_the_parse_of_the_text(text: str) -> None:
    # Every line break a lone CR (CRLF pieces become CR CR): the map reads LF for CR, and
    # each answer must be the parse's of the text as given, offsets and LF lines alike.
    cr = text.replace("\r\n", "\r\r").replace("\n", "\r")
    _assert_offsets_agree(cr)
    full, fast = parse_code(cr), _fresh(cr)
    assert fast.line_in_block(0, len(cr)) == full.overlaps_block(0, len(cr)), cr


@settings(max_examples=1500, deadline=None)
@given(markdownish())
def test_crlf_lines_answer_as_the_parse_of_the_text(text: str) -> None:
    # Every line break a CRLF (lone CRs become LFs first): the run readings take a CRLF's CR
    # as part of its line ending, as the parser does.
    crlf = text.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")
    _assert_offsets_agree(crlf)
    full, fast = parse_code(crlf), _fresh(crlf)
    start = 0
    while start <= len(crlf):
        end = crlf.find("\n", start)
        end = len(crlf) if end < 0 else end
        assert fast.line_in_block(start, end) == full.overlaps_block(start, end), (crlf, start)
        start = end + 1


@pytest.mark.parametrize(
    "text",
    [
        "```|a\n|-|-|\rb\n",  # a table: its delimiter row ends at the lone CR
        "```|a\n|-|-|\r\nb\n",
        "```|a\n|-x|\rb\n",  # no delimiter row: a fence
        "MEDIA:/a.png\n```\nx\r```\ny",
    ],
)
def test_fence_scan_before_a_lone_cr_agrees_with_the_parse(text: str) -> None:
    """Lines before the first lone CR are answered by the scan; a header whose next line
    runs into the CR is left to the parser (found in review)."""
    full = _fresh(text).full()
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        assert _fresh(text).line_in_block(start, end) == full.overlaps_block(start, end)
        start = end + 1
    for pos in range(len(text)):
        assert _fresh(text).in_code(pos) == full.in_code(pos), pos


@settings(max_examples=2000, deadline=None)
@given(markdownish())
def test_block_to_end_equals_full_parse(text: str) -> None:
    """Where the fence scan answers "does the block holding pos run to the end", the full
    parse agrees: some region holds pos and ends at the text's end."""
    full = _fresh(text).full()
    n = len(text)
    for pos in range(n + 1):
        fast = _fresh(text).block_to_end(pos)
        if fast is not None:
            holding = [r for r in full.regions if r.start <= pos < r.end]
            assert holding, (text, pos)
            assert (holding[0].end == n) == fast, (text, pos)


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


# --------------------------------------------------------------------------- pieces
# Issue 8: a long text is parsed piece by piece (richout/markdown/regions.py). These tests
# lower the threshold to 0 so every generated text is cut wherever the scan allows.

_BLOCKS = [
    "```\ncode [[reply_to_current]]\n\nmore\n```",
    "```\nunclosed\n\n`x`",
    "~~~~\n~~~\n\nstill code\n~~~~",
    "  ```\n  in an item?\n\nMEDIA:/a.png\n  ```",
    "- item\n\n  ```\n  code\n\n  ```",
    "- item\n  ```\n  code\nlazy `x`",
    "1. step\n   ```sh\n   run\n   ```",
    "    indented\n\n    more",
    "> quote `x`\n> ```\n> code",
    "<pre>\n\n`not code`\n\n</pre>",
    "<!--\n\n```\n\n-->",
    "<div>\n```\n\n```\nafter",
    "| a | b |\n|---|---|\n```x|y\n\n```",
    "text with `code` and [[audio_as_voice]]",
    "`open\n\nclose`",
    "\t```\n\n```",
    " ```\ntop\n\nx\n ```",
    "<script>\n\n```\n</script>",
    "para\n```\nfenced after para\n```",
    "MEDIA:/srv/a.png",
]


@st.composite
def pieced(draw: st.DrawFn) -> str:
    """Blocks and Markdown fragments joined by blank lines and line breaks."""
    parts = draw(st.lists(st.sampled_from(_BLOCKS + _PIECES), min_size=1, max_size=14))
    seps = draw(st.lists(st.sampled_from(["\n\n", "\n", "\n\n\n", "\n \n"]), min_size=14))
    out = []
    for i, part in enumerate(parts):
        out.append(part)
        out.append(seps[i])
    return "".join(out)


def _pieced_map(text: str, monkeypatch: pytest.MonkeyPatch) -> CodeMap:
    monkeypatch.setattr(CodeMap, "PIECE_MIN", 0)
    return CodeMap(text)


@pytest.mark.pure_python(why="sets a class constant that compiled code reads as a field")
def test_a_lowered_piece_minimum_really_parses_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The piece tests above compare pieces with the whole parse only if pieces are used."""
    # (a list nested in a list item's run: a line the fast paths leave to the parse)
    text = "- a\n\n  b\n\n" * 20 + "1. a\n    - x `code` y\n"
    cm = _pieced_map(text, monkeypatch)
    assert [cm.in_code(p) for p in range(len(text) - 10, len(text))].count(True) == 6
    assert cm._pieces is not None and cm._pieces.starts and not cm.parsed


@pytest.mark.pure_python(why="sets a class constant that compiled code reads as a field")
@settings(max_examples=1500, deadline=None)
@given(st.one_of(pieced(), markdownish()))
@example("[`a`]: /u\n\nfoo\n\n[x][`a`]")  # a definition acts at a distance: no cut
def test_piece_answers_equal_full_parse(text: str) -> None:
    full = parse_code(text)
    with pytest.MonkeyPatch.context() as mp:
        cm = _pieced_map(text, mp)
        start = 0
        for line in text.split("\n"):
            end = start + len(line)
            assert cm.line_in_block(start, end) == full.overlaps_block(start, end), (text, start)
            start = end + 1
        cm = _pieced_map(text, mp)
        for pos in range(len(text)):
            assert cm.in_code(pos) == full.in_code(pos), (text, pos)


@pytest.mark.pure_python(why="sets a class constant that compiled code reads as a field")
def test_deep_nesting_then_code_matches_the_whole_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past markdown-it's nesting limit the whole parse reads no more blocks; so do pieces."""
    text = "- " * 60 + "a\n\n`code` here\n\n```\nfenced\n```\n"
    full = parse_code(text)
    cm = _pieced_map(text, monkeypatch)
    assert [cm.in_code(p) for p in range(len(text))] == [full.in_code(p) for p in range(len(text))]


def test_a_long_reply_is_parsed_in_pieces_not_whole() -> None:
    """A megabyte of replies joined by blank lines: questions parse only their pieces."""
    reply = "Intro\n\n```py\nprint(1)\n\nprint(2)\n```\n\nMEDIA:/srv/a.png\n\n- item `x`\n"
    text = "\n".join([reply] * 3000)
    cm = CodeMap(text)
    target = text.index("MEDIA:", len(text) // 2)
    assert not cm.line_in_block(target, text.index("\n", target))
    inside = text.index("print(2)", len(text) // 2)
    assert cm.in_code(inside)
    item = text.index("`x`", len(text) // 2) + 1  # in a list item: only a parse can tell
    assert cm.in_code(item)
    assert not cm.in_code(item + 3)
    assert not cm.parsed  # no whole-text parse
    assert cm._pieces is not None
    parses = cm._pieces.parses
    assert cm._pieces.starts == list(parses) and len(parses) == 1
    start, (end, _) = next(iter(parses.items()))
    assert start < item < end <= start + len(reply) + 1


@pytest.mark.parametrize(
    ("text", "cut_at"),
    [
        ("a\n\nb", ["b"]),
        ("```\nx\n\ny\n```\n\nz", ["z"]),  # no cut inside the fence
        ("  ```\nx\n\ny", []),  # an indented fence then a line at column 0: unsure, stop
        ("<pre>\n\nq\n</pre>\n\nz", ["q", "z"]),  # HTML is text to the code parser
        ("| a |\n|---|\n```\n\nw", []),  # a fence line in a table: stop
        ("a\n\n    b\n\nc", ["c"]),  # an indented line is never a cut
        ("[x]: /u\n\nb", []),  # link reference definitions act at a distance
        ("a\r\n\r\nb", []),
        ("- " * 60 + "a\n\nb", []),  # past markdown-it's nesting limit the parse stops
        ("> " * 30 + "a\n\nb\n\nc", []),
        ("\t" * 11 + "a\n\nb", []),
        ("- " * 10 + "a\n\nb", ["b"]),
    ],
)
def test_cut_points_table(text: str, cut_at: list[str]) -> None:
    from richout.markdown.regions import cut_points

    assert [text[c:].split("\n", maxsplit=1)[0] for c in cut_points(text)[1:]] == cut_at


@settings(max_examples=1000)
@given(
    st.lists(st.sampled_from(["", " ", "\t", " \r", "\r", "a", " b", "\u3000", "\f"]), max_size=12)
)
def test_line_index_reads_each_line(lines: list[str]) -> None:
    """line_index against its definition: each line's start, and the blank lines' bounds."""
    from richout.markdown.linescan import line_index

    text = "\n".join(lines)
    starts, at = [], 0
    for line in text.split("\n"):
        starts.append(at)
        at += len(line) + 1
    blank = [
        (a, a + len(line))
        for a, line in zip(starts, text.split("\n"), strict=True)
        if is_blank(line)
    ]
    assert line_index(text) == (starts, [a for a, _ in blank], [b for _, b in blank])


def _cut_points_line_by_line(text: str) -> list[int]:
    """The cut points as the scan read them before 2026-12-05, one line at a time: the
    oracle :func:`~richout.markdown.regions.cut_points`, which reads only the lines that
    may open a fence or nest deep and the lines inside an indented fence, must equal."""
    from richout.markdown.regions import _FENCE, CONTAINER_PREFIX, _indent
    from richout.markdown.regions import too_deep as _too_deep

    if "\r" in text or "]:" in text:
        return [0]
    cuts, fence, fence_indent, blank_before, group_pipe, offset = [0], "", 0, False, False, 0
    for line in text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        blank = not line.strip(" \t")
        if fence:
            if not blank:
                indent = _indent(line)
                if indent < fence_indent:
                    return cuts
                body = line[indent:]
                if (
                    indent <= 3
                    and body.startswith(fence)
                    and not body.lstrip(fence[0]).strip(" \t")
                ):
                    fence = ""
            blank_before = blank
            continue
        if blank:
            blank_before, group_pipe = True, False
            continue
        prefix = CONTAINER_PREFIX.match(line)
        if prefix is not None and prefix.end() > 8 and _too_deep(prefix.group()):
            return cuts
        if blank_before and line[0] not in " \t":
            cuts.append(start)
        blank_before = False
        m = _FENCE.match(line)
        if m is not None and (m.group(2)[0] != "`" or "`" not in m.group(3)):
            if group_pipe or "|" in line:
                return cuts
            fence, fence_indent = m.group(2), len(m.group(1))
            continue
        group_pipe = group_pipe or "|" in line
    return cuts


#: Lines around which the scan's reading turns: fences (closed, unclosed, indented, with an
#: info string holding a backtick, in a group with a pipe), deep prefixes, blank lines.
_CUT_LINES = [
    "a",
    "",
    " ",
    "\t",
    "b | c",
    "```",
    "````",
    "~~~",
    "  ```",
    "   ~~~ x",
    "    ```",
    "```py",
    "``` `x`",
    "~~~ `x`",
    "- item",
    "  cont",
    "> q",
    "\t" * 11 + "deep",
    "- " * 5 + "x",
    " " * 12,
    "\t" * 11,
    "> " * 30 + "deep",
    "1) " * 4 + "y",
    "```|",
    "x`",
    "   x",
]


_CUT_TEXTS = st.one_of(
    pieced(),
    markdownish(),
    st.lists(st.sampled_from(_CUT_LINES), max_size=16).map("\n".join),
)


@settings(max_examples=3000, deadline=None)
@given(_CUT_TEXTS)
@example("```\nx\n\ny\n```\n\nz")
@example("a\n\n  ```\nb\n\nc")  # an indented fence, then a line at column 0: stop
@example("a | b\n```\n\nc")  # a fence in a group holding a pipe: cuts up to it
@example("\n\n```\n\nx")  # blank first lines, an unclosed fence
@example("a\n" + "\t" * 11 + "\n\nb")  # a blank line of deep blanks: no stop
@example("```\n    ```\n\nz")  # four spaces before a closing run: still inside
@example("````\n```\n\nz\n````\n\ny")  # a shorter run closes nothing
def test_cut_points_equal_the_line_by_line_reading(text: str) -> None:
    from richout.markdown.regions import cut_points

    assert cut_points(text) == _cut_points_line_by_line(text), text


def _fence_scan_run_by_run(text: str) -> tuple[list[int], list[int], int]:
    """The fence scan as it read texts before 2026-12-05, one fence run at a time (the next
    three-character run of backticks or tildes, found from the line after the last): the
    oracle :class:`~richout.markdown.fences.FenceScan`, which finds the lines it reads with
    one search, must equal. Its starts, ends and ``valid_until``."""
    from richout.markdown.linescan import CONTAINERISH
    from richout.markdown.tables import delimiter_row_follows

    starts: list[int] = []
    ends: list[int] = []
    n = len(text)
    lone_cr = re.search(r"\r(?!\n)", text)
    valid_until = n + 1 if lone_cr is None else text.rfind("\n", 0, lone_cr.start()) + 1
    open_char, open_len, open_start = "", 0, 0

    def next_run(at: int) -> int:
        found = [i for i in (text.find("```", at), text.find("~~~", at)) if i >= 0]
        return min(found, default=-1)

    pos = next_run(0)
    while 0 <= pos < valid_until:
        line_start = text.rfind("\n", 0, pos) + 1
        line_end = text.find("\n", pos)
        line_end = n if line_end < 0 else line_end
        ch = text[pos]
        run_end = pos + 3
        while run_end < line_end and text[run_end] == ch:
            run_end += 1
        prefix = text[line_start:pos]
        if open_char:
            if (
                len(prefix) <= 3
                and not prefix.strip(" ")
                and ch == open_char
                and run_end - pos >= open_len
                and not text[run_end:line_end].strip(" \t\r")
            ):
                starts.append(open_start)
                ends.append(line_end - 1 if text[line_end - 1 : line_end] == "\r" else line_end)
                open_char = ""
        elif not prefix:
            if "|" in text[run_end:line_end] and (
                line_end + 1 >= valid_until or delimiter_row_follows(text, line_end)
            ):
                valid_until = line_start
                break
            if ch != "`" or "`" not in text[run_end:line_end]:
                open_char, open_len, open_start = ch, run_end - pos, line_start
        elif CONTAINERISH.fullmatch(prefix):
            valid_until = line_start
            break
        pos = next_run(line_end + 1)
    if open_char:
        starts.append(open_start)
        ends.append(n)
    return starts, ends, valid_until


@settings(max_examples=3000, deadline=None)
@given(
    st.one_of(
        pieced(),
        markdownish(),
        st.lists(
            st.sampled_from([*_CUT_LINES, "``", "~~ ```", "x ```", "> ```", "\r"]), max_size=16
        ).map("\n".join),
    ),
)
@example("```\nx\n```\n" + "> " * 30 + "deep")  # a deep line after a closed fence
@example("> " * 30 + "x\n```")  # a deep first line
@example("  ```\n" + "\t" * 11 + "x")  # the scan stops, then a deep line: asked later
@example("a\rb\n" + "- " * 25 + "x")  # a lone CR, then a deep line past valid_until
@example("a\rb\n```\nx")  # a fence line past valid_until: not the scan's
@example("```|\n|-|\n" + "> " * 30)  # a table's header, then a deep line
@example("``~~~\n````\n  ```\n```")  # a line's first run after a non-container character
def test_fence_scan_equals_the_run_by_run_reading(text: str) -> None:
    """The one-search scan finds the fences, the line it stops at and the first line that
    may nest deep (``past_deep``, read in the same search) as the reading it replaced and
    :func:`~richout.markdown.regions.deep_nesting_at` do."""
    from richout.markdown.fences import FenceScan
    from richout.markdown.regions import deep_nesting_at

    scan = FenceScan(text)
    assert (scan.starts, scan.ends, scan.valid_until) == _fence_scan_run_by_run(text), text
    deep = deep_nesting_at(text)
    for pos in {0, deep - 1, deep, len(text), *scan.starts, *scan.ends}:
        assert scan.past_deep(pos) == (0 <= deep <= pos), (text, pos)


@pytest.mark.pure_python(why="replaces a module function that compiled code binds early")
@pytest.mark.parametrize(
    "text",
    [
        "a\n```\nb\n```\nc",
        "```\nx",
        "> " * 30 + "x\n```\n" + "- " * 30,
        "~~~\n" + "\t" * 11 + "y",
        "> " * 30 + "x\n  ```\ny",  # a deep line, then the scan stops (an indented fence)
    ],
)
def test_a_scan_that_read_every_line_answers_the_deep_question_itself(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """The deep lines are found in the scan's own search; a second pass over the text
    (0.7 ms a megabyte, once per code map) is left for a scan that stopped early before
    finding one, and for a text without a fence run, which the scan does not search."""
    from richout.markdown import fences

    scan = fences.FenceScan(text)
    expected = fences.deep_nesting_at(text)
    assert scan.valid_until > len(text) or 0 <= expected < scan.valid_until
    monkeypatch.setattr(fences, "deep_nesting_at", lambda _text: pytest.fail("a second pass"))
    assert [scan.past_deep(p) for p in range(len(text) + 1)] == [
        0 <= expected <= p for p in range(len(text) + 1)
    ]


def _check_cuts_around_each_offset(text: str) -> None:
    """Cuts finds each offset's neighbours among cut_points, searching the lines itself or
    handed the fence scan's (a superset of the lines it reads, read past the scan's stop)."""
    from richout.markdown.fences import FenceScan
    from richout.markdown.regions import Cuts, cut_points

    cuts = cut_points(text)
    for around in (Cuts(text), Cuts(text, None, FenceScan(text).lines())):
        for pos in range(len(text) + 1):
            k = bisect.bisect_right(cuts, pos) - 1
            after = cuts[k + 1] if k + 1 < len(cuts) else -1
            assert (around.before(pos), around.after(pos)) == (cuts[k], after), (text, pos)
            assert around.after(pos, cuts[k]) == after, (text, pos)


@settings(max_examples=1500, deadline=None)
@given(_CUT_TEXTS)
@example("\n\nx\n\n```\n\ny\n```\n\nz")  # a first cut, a fence, cuts on both sides
@example("x\n" + " " * 40 + "\ny")  # a blank line longer than the first look back
@example("  ```\na\n\n```\nb\n\nc\n\n" + "- " * 30)  # the fence scan stops, cuts go on
@example("a\n\n" + " " * 9 + "b\n\n```\nc\n```\n\nd")  # 9 blanks: only the cut scan's
def test_the_cuts_around_an_offset_are_cut_points_neighbours(text: str) -> None:
    """The piece holding an offset, found by searching around it, is the one the listed
    cut points give (every offset, the text's end included)."""
    _check_cuts_around_each_offset(text)


@pytest.mark.pure_python(why="sets a class constant that compiled code reads as a field")
@settings(max_examples=800, deadline=None)
@given(_CUT_TEXTS, st.sampled_from([1, 2, 5]), st.sampled_from([1, 2, 16]))
@example("x\n" + " " * 40 + "\n\ny", 1, 16)  # a match longer than the look back
@example("```\n\n\n\na\n```\n\nb", 2, 16)  # candidates inside a fence, far back
@example("```\n\nx\n```\n" * 4 + "\n\ny", 5, 2)  # fences holding candidates: listed
def test_the_cuts_around_an_offset_read_further_back_when_needed(
    text: str, back: int, searches: int
) -> None:
    """With a look back of a few characters the search widens, and finds the same cuts;
    past a few searches every cut is listed (once), with the same answers."""
    from richout.markdown.regions import Cuts

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Cuts, "BACK", back)
        mp.setattr(Cuts, "SEARCHES", searches)
        _check_cuts_around_each_offset(text)


class _CountedPattern:
    """A compiled pattern whose searches are counted (the cut scan's, below)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.calls = pattern, 0

    def finditer(self, *args: Any) -> Any:
        self.calls += 1
        return self.pattern.finditer(*args)

    def search(self, *args: Any) -> Any:
        self.calls += 1
        return self.pattern.search(*args)


@pytest.mark.pure_python(why="replaces a module constant that compiled code binds early")
@pytest.mark.parametrize(
    "text",
    [
        "```\n\nx\n```\n" * 20_000 + "\n\nend",  # fences holding candidates, none between
        "word " * 100_000,  # no cut at all
    ],
)
def test_questions_about_cuts_search_a_bounded_number_of_times(
    monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    """Searching around each question would read back over every fence (or the whole text)
    again for each one: past ``Cuts.SEARCHES`` searches the cuts are listed once, and a
    text without one answers every later question at once."""
    from richout.markdown import regions

    counted = _CountedPattern(regions._CUT)
    monkeypatch.setattr(regions, "_CUT", counted)
    pieces = regions.Pieces(text)
    step = max(len(text) // 200, 1)
    answers = [pieces.around(pos) for pos in range(len(text), 0, -step)]  # (end first)
    assert counted.calls <= 3 * regions.Cuts.SEARCHES
    if "```" not in text:
        assert answers == [None] * len(answers)  # (the whole parse answers)
    counted.calls = 0
    regions.Pieces(text).around(5)  # (the cut after it: a walk forward over every fence)
    assert counted.calls <= 3 * regions.Cuts.SEARCHES


@settings(max_examples=1500, deadline=None)
@given(
    st.one_of(
        pieced(),
        markdownish(),
        st.lists(st.sampled_from([*_LINES_OF_BLOCKS, " ", "\t", "> ", "  - x"]), max_size=14).map(
            "\n".join
        ),
    ),
)
@example("a\n\n- x\n\nb")  # blank lines on both sides
@example("- x\n  ")  # a blank last line
@example("\n> q")  # an empty first line
def test_the_runs_between_blank_lines_index_those_lines_as_the_whole_text(text: str) -> None:
    """The container runs of the lines between two blank lines read an index of those
    lines, the two blank lines and the line after the second: the whole text's index
    there, so every run reading answers as it would from the whole index."""
    from richout.markdown.bounds import near_blank_lines
    from richout.markdown.fences import FenceScan
    from richout.markdown.items import ContainerRuns
    from richout.markdown.linescan import line_index

    starts, blanks, _ = line_index(text)
    scan = FenceScan(text)
    for k, a in enumerate(starts):
        end = starts[k + 1] - 1 if k + 1 < len(starts) else len(text)
        near = near_blank_lines(text, a, end, 4096)
        if near is None or a in blanks:
            continue
        lo, hi = near
        runs = ContainerRuns.between(text, lo, hi, scan, "]:" in text)
        first = max([b for b in blanks if b < a], default=0)  # the blank line before, or 0
        after = [b for b in blanks if b >= a]  # the blank line after, if any
        last = min([s for s in starts if after and s > after[0]], default=len(text) + 1)
        assert runs._starts == [s for s in starts if first <= s <= last], (text, a)
        assert runs._blanks == [b for b in blanks if first <= b < last], (text, a)


def test_a_long_replys_list_and_quote_lines_need_no_index_of_every_line() -> None:
    """Questions about quote and list lines read the lines between their blank lines: a
    megabyte reply's first one built an index of every line (2.8 ms a map)."""
    block = "Intro\n\n- item `x` [[reply_to_current]]\n- two\n\n> quoted `y`\n\nend\n\n"
    text = block * 2000
    full = parse_code(text[: len(block) * 3])
    cm = CodeMap(text)
    for pos in range(len(block), len(block) * 2):
        assert cm.in_code(pos) == full.in_code(pos), pos
    assert cm._line_starts is None and len(cm._containers) == 2


@pytest.mark.pure_python(why="sets a class constant that compiled code reads as a field")
@settings(max_examples=1000, deadline=None)
@given(st.one_of(pieced(), markdownish()), st.sampled_from([1, 3, 8]))
def test_answers_when_local_looks_give_up(text: str, reach: int) -> None:
    """With a tiny reach the line questions fall back to the whole text's line index."""
    full = parse_code(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(CodeMap, "LOCAL_REACH", reach)
        start = 0
        for line in text.split("\n"):
            end = start + len(line)
            assert CodeMap(text).line_in_block(start, end) == full.overlaps_block(start, end)
            start = end + 1
        cm = CodeMap(text)
        for pos in range(len(text)):
            assert cm.in_code(pos) == full.in_code(pos), (text, pos)
            if cm.parsed:
                cm = CodeMap(text)


@pytest.mark.parametrize(
    "text",
    [
        "\xa0\r\nb `x`",
        "\xa0\nb `x`",
        "\u3000\n\xa0\n[[r]]```\n`code`",
        "a `x`\n\xa0\n`y`",
        # the NBSP line inside containers: a list item, a quote, both, an ordered item
        "- \xa0\nword `code` word",
        "> \xa0\n> b `x`",
        "> - \xa0\n>   \u3000\n>   b `x`",
        "1) \xa0\nb `x`",
        # not containers: "1." and "-" before an NBSP are paragraph text
        "1.\xa0\nb `x`",
        "-\xa0\n`c` x",
        # an empty list item on a later line cannot interrupt the paragraph: it is its text
        "\xa0\n* \nsee `code`",
        "\xa0\n1. \n`x` hi",
        "- \xa0\n  2) \n  b `x`",
        # quote markers on later lines are the container's, not the paragraph's
        "> \xa0\n> \xa0\n> b `x`",
        # characters str.strip() drops and markdown-it-py 4's mdTrim keeps (review: the span
        # was mapped past the text's end)
        "\x1c\n`a`",
        "\x85\n`a` b",
        "- \x1f\n  `a`",
    ],
)
def test_code_spans_after_a_unicode_whitespace_line_map_to_the_source(text: str) -> None:
    """markdown-it-py's trim drops a paragraph's leading NBSP-only lines, after container
    marks too; spans still land on their text."""
    regions = parse_code(text).regions
    assert regions, text  # every text here holds a code span
    for region in regions:
        piece = text[region.start : region.end]
        assert piece.startswith("`") and piece.endswith("`"), (text, piece)


# The paragraph checks before pairing backticks are substring tests and anchored matches (a
# regex alternation walked every character: 37 µs on one 1.7 KB corpus paragraph). They
# answer what these whole-text patterns answer.
# An autolink is a "<", then characters none of which is "<", ">", a space or a control
# character, then ">": only one holding a backtick can change the pairing.
_AUTOLINK_WITH_BACKTICK = r"<[^<>\x00-\x20]*`[^<>\x00-\x20]*>"
# A link reference definition only where the paragraph opens (none can interrupt one); a
# link only when its destination or title could hold a backtick (link_may_hold_backtick,
# checked against the full parse by the offset tests); a pipe only beside a line that could
# be a table's delimiter row (_may_hold_table).
# (Only blanks and line breaks before it: "\s" also takes U+001F, which opens no line's
# indentation to the parser, and hypothesis once drew "\x1f[]:".)
_DEFINITION = r"\A[ \t\r\n]*\[(?:[^\[\]\\]|\\[\s\S])*\]:"
_UNSAFE_PATTERN = re.compile(_DEFINITION + "|" + _AUTOLINK_WITH_BACKTICK)
_ROW_CHARS = set("|:->") | {c for c in map(chr, range(0x110000)) if c.isspace()}


def _may_hold_table(chunk: str, *, headed: bool = True) -> bool:
    # A delimiter row under a line holding a "|" (the header's text is part of its line),
    # or first when the line above the chunk may be a header; lines end at LF, CR or CRLF.
    lines = re.split(r"\r\n|\r|\n", chunk)
    above = [headed, *("|" in x for x in lines)]
    rows = ["-" in x and set(x) <= _ROW_CHARS for x in lines]
    return len(lines) > 1 and any(map(operator.and_, above, rows))


def test_the_whitespace_is_what_str_strip_removes() -> None:
    assert set(spans.WHITESPACE) == {c for c in map(chr, range(0x110000)) if c.isspace()}


# A whole text of one line: no table (it needs a second line), and a link reference
# definition only at the line's start; a link only when its destination or title could
# hold a backtick (link_may_hold_backtick, checked against the full parse below).
_ONE_LINE_UNSAFE_PATTERN = _UNSAFE_PATTERN
# Block starts as CommonMark defines them (a marker, then a blank or the line's end; a line
# of nothing but a break's or an underline's characters; a backtick fence whose info string
# holds no backtick), tried at every line start.
# ("$" before a CR too: the parser breaks lines there.)
_STARTER_PATTERN = re.compile(
    r"(?m)^(?: {4}| {0,3}\t| {0,3}(?:>|(?:#{1,6}|[-+*]|\d{1,9}[.)])(?:[ \t\r]|$)"
    r"|(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,}|=+[ \t]*|-+[ \t]*)(?:\r|$)"
    r"|`{3,}[^`\r\n]*(?:\r|$)|~~~))"
)
_CHUNK_PIECES = ["`", "``", "```", "\n", "\r", " ", "    ", "\t", "<", "\\", "|", "](", "]:"]
_CHUNK_PIECES += ["<", ">", "<a", "b>", "\x00", "\x1f", "\x7f", "\u00e9", "`>", "<`"]
_CHUNK_PIECES += ["[", "\\`", "\\\\", "\\[", " \t"]
_CHUNK_PIECES += ["2024 ", "1.", "1)", "-x", "*a*", "_", "___", "- - -", "==", "#x", "+", "######"]
_CHUNK_PIECES += ["|-|", "> ", ":-:", "\u00a0", "\x0b", "\r\n", "\n|-|\n", "\r|-|", "|\x0b"]
_CHUNK_PIECES += ["\n```x`", "\n````", "\n```` `"]
_CHUNK_PIECES += ["]", "(", ":", "a", "#", "1", "-", "~", "*", "=", ">", "+", "_", "x y"]
# Long plain runs, so that backticks are rare enough for the find() loop, several times.
_CHUNK_PIECES += ["x" * 20, "word " * 8]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_CHUNK_PIECES), max_size=16).map("".join))
def test_paragraph_checks_answer_what_the_patterns_answer(chunk: str) -> None:
    # The parser reads NUL as U+FFFD (an autolink or destination may hold that).
    read = chunk.replace("\x00", "\ufffd")
    link = "](" in read and links.link_may_hold_backtick(read)
    table = "|" in read and _may_hold_table(read)
    assert spans.para_unsafe(chunk) == (bool(_UNSAFE_PATTERN.search(read)) or link or table)
    table = "|" in read and _may_hold_table(read, headed=False)
    expected = bool(_UNSAFE_PATTERN.search(read)) or link or table
    assert spans.para_unsafe(chunk, headed=False) == expected
    line = read.replace("\n", "").replace("\r", "")
    link = "](" in line and links.link_may_hold_backtick(line)
    expected = bool(_ONE_LINE_UNSAFE_PATTERN.search(line)) or link
    assert spans.para_unsafe(line, one_line=True) == expected
    assert spans.has_line_starter(chunk) == bool(_STARTER_PATTERN.search(chunk))
    runs = [m.span() for m in re.finditer("`+", chunk)]
    assert spans.backtick_runs(chunk) == runs


_LINK_TAIL_PIECES = ["](", "u", " ", "\t", '"', "'", "(", ")", "<", ">", "\\", "\n", "\r", "`"]
_LINK_TAIL_PIECES += ["x y", "\x01", "\x7f", "[l", "\u00a0", "a" * 70]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_LINK_TAIL_PIECES), min_size=1, max_size=12).map("".join))
@example("[l](u) `a`")
@example('[l](u "t)`")')
def test_a_plain_link_tail_closes_at_its_first_parenthesis(source: str) -> None:
    """Where ``link_may_hold_backtick`` takes a ``](``'s tail as plain (``_PLAIN_LINK_TAIL``,
    without the link rule's reading), that reading finds no link there, or one closing at
    the tail's ``)`` with no backtick in it."""
    for m in re.finditer(re.escape("]("), source):
        paren = m.start() + 1
        plain = links._PLAIN_LINK_TAIL.match(source, paren + 1)
        if plain is not None:
            assert "`" not in source[paren : plain.end()]
            assert links._link_end(source, paren) in (-1, plain.end() - 1), source


def test_plain_link_tails() -> None:
    # Not vacuous: a streamed part's links are plain; a title, an angle destination, a
    # nested parenthesis, an escape, a break or a long destination are read by the rule.
    tail = links._PLAIN_LINK_TAIL
    for plain in ("u)", " x )", "https://e.example/a.png)", "\t)"):
        assert tail.match(plain) is not None, plain
    for other in ('u "t")', "u 't')", "u (t))", "<a)b>)", "a\\)b)", "a\nb)", "`)", "a" * 70 + ")"):
        assert tail.match(other) is None, other
    assert not links.link_may_hold_backtick("`a` [[reply_to_current]] ``b`` [l](u)\n" * 3)
    assert links.link_may_hold_backtick('[l](u "`") [m](v)')


# Backslashes before backticks and other punctuation, in and out of code spans, runs split
# by an escape, escaped backslashes, a backslash ending a line (a hard break).
_ESCAPE_PIECES = ["\\`", "\\``", "\\\\`", "`", "``", "```", "\\", "\\\\", "\\a", "\\[", "\\*"]
_ESCAPE_PIECES += [" ", "x", "word ", "\n", "\\\n", "[[reply_to_current]]", "> ", "a|b", "*"]


@settings(max_examples=2500, deadline=None)
@given(st.lists(st.sampled_from(_ESCAPE_PIECES), min_size=1, max_size=14).map("".join))
def test_escaped_backticks_pair_as_the_full_parse(text: str) -> None:
    _assert_offsets_agree(text)
    _assert_offsets_agree("x " + text.replace("\n", " "))  # one plain line


def _assert_offsets_agree_lf_and_crlf(text: str) -> None:
    """:func:`_assert_offsets_agree` of ``text`` and of it with each LF made a CRLF."""
    _assert_offsets_agree(text)
    _assert_offsets_agree(text.replace("\n", "\r\n"))


def _answered_without_a_parse(text: str, parses: list[str], real: Any) -> list[bool]:
    """Every third offset's answer from a fresh map, which must send nothing to the parser
    (``parses``, from :func:`_count_parses`), and must be the real parse's."""
    cm = CodeMap(text)
    answers = [cm.in_code(p) for p in range(0, len(text), 3)]
    assert parses == []
    full = real(text)  # one parse: the real map answers every offset from it
    assert answers == [full.in_code(p) for p in range(0, len(text), 3)]
    return answers


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_escaped_backticks_are_answered_without_a_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not vacuous: a paragraph whose backticks are escaped (once sent to the parser whole:
    # 1.6-2 s/MB) is paired by code_spans, and the answers are the parse's.
    parses, real = _count_parses(monkeypatch)
    for text in (
        "\\`a\\` [[reply_to_current]] \\`\\`b\\`\\` `c\\`\n" * 300,
        "x \\`a\\` `b` " * 300,
    ):
        assert any(_answered_without_a_parse(text, parses, real))
    assert spans.code_spans("\\``a` \\\\`b`") == [(2, 5), (8, 11)]


# Images and line-ending destinations read locally (2026-12-07): an image's label up to its
# first "]", a destination that runs to its line's end and what the next line opens with
# (marks, a title, the ")"), and shortcut images that a definition anywhere makes.
_IMAGE_PIECES = ["![a]", "![", "![a `b`]", "![a\\]", "![a<b]", "![[x]]", "![a](u", "![a](", "\\!["]
_IMAGE_PIECES += ["](u", "](u`v", "[a](", "\n", "\n> ", "\n>", "\n  ", ")", '"t")', "'t'", "(t)"]
_IMAGE_PIECES += ["`", "``", " ", "x", "[a]: /u\n", "[a `b`]: /u\n", "\n\n", "\\", "<", "- ", "]"]
_IMAGE_PIECES += ["[[reply_to_current]]", "<!--", "\t"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_IMAGE_PIECES), min_size=1, max_size=16).map("".join))
@example("![a `b` c] x\n\n[a `b` c]: /u")  # a shortcut image a later definition makes
@example('x ![a](u\n> "`t") `y`')  # the title on the next line, after a quote's mark
@example('x ![a](u\n"`t") `y`')
@example("x ![a](u`\n)`")  # the ")" on the next line closes the image: its backtick is in it
# An inline link that fails falls back to a reference whose second label markdown-it-py
# reads one character after where the inline reading stopped (found 2026-12-07).
@example("[a `b`]: /u\n![a](<[a `b`]: /u\n")
@example("x [a](u x[a `b`]\n\n[a `b`]: /u\n")
def test_images_and_destinations_ending_lines_answer_as_the_full_parse(text: str) -> None:
    _assert_offsets_agree_lf_and_crlf(text)


def test_references_after_a_failed_inline_link() -> None:
    # Not vacuous: with a definition in the text, a "[" anywhere after a "](" may be the
    # second label of a reference (the paragraph goes to the parser); a "](" alone or a
    # "[" before it is still read locally.
    for maybe in ("[a](<[b `c`]", "[a](u x[b]", "[a]( [b]"):
        assert links.reference_may_hold_backtick(maybe), maybe
    for plain in ("[a](u) `b`", "[a] `b` [c](d)", "`x` [a](u"):
        assert not links.reference_may_hold_backtick(plain), plain


def test_image_labels_and_line_ending_destinations() -> None:
    # Not vacuous: labels ending at their first "]" hold no backtick; anything read as a
    # token of its own before it (a backtick, an escape, "<", "[") leaves it to the parser.
    for plain in ("![a](u) `x`", "![a] `b`", "x ![a b](u) ![c] `d`", "\\![a](u `b`", "![]"):
        assert not links.image_may_hold_backtick(plain), plain
    for other in ("![`a`](b)", "![a\\]](b)", "![a<b]", "![[x]](u)", "![a", "x ![a] ![b `c`]"):
        assert links.image_may_hold_backtick(other), other
    # A destination running to its line's end: the next line's content decides.
    for ended in ("[a](u`\nx)", "[a](u`\n> x", "[a](u`\n\n"):
        assert links._link_end(ended, ended.index("(")) == -1, ended
    for unsure in ("[a](u`\n)", "[a](u`\n> )", '[a](u`\n  "t")', "[a](u`\n(t)"):
        assert links._link_end(unsure, unsure.index("(")) == -2, unsure


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_paragraphs_of_images_are_answered_without_a_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not vacuous: a long paragraph of image lines with backticks went to the parser whole
    # (a paragraph of "![…](…" lines: 4.9 s/MB in parse_directives, 22 s/MB explained in
    # extract_embeds); each answer is the parse's.
    parses, real = _count_parses(monkeypatch)
    for text in (
        "<!--![a](NO_REPLY\\`[[reply_to:x]]\n" * 300,
        '\\![a](:[embed ref="`\n' * 300,
        "x ![a](u) `b` [[reply_to_current]] ![c d] ``e``\n" * 300,
    ):
        answers = _answered_without_a_parse(text, parses, real)
        assert any(answers) is not text.startswith("<")  # (the first: escaped backticks)


# Delimiter rows under lines without a "|" (2026-12-07): the table rule refuses a header
# line holding none, so such a row is paragraph text; a row first in a paragraph, a quote's
# or an item's is read against the source line above it (spans.pipe_above).
_ROW_PIECES = ["|---|", "|-|", ":-", "a|b", "a | `b`", "a", "`", "``", "x `y` z", "\n", "\n\n"]
_ROW_PIECES += ["\n> ", "\n- ", "\n  ", "\n1. ", "[[reply_to:", "[[reply_to_current]]", " ", "\\|"]
_ROW_PIECES += ["#", "\n# a|b\n", "\n```\n", "\n===\n", "\n---\n", "\r", "\t", "]: /u"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_ROW_PIECES), min_size=1, max_size=16).map("".join))
@example("|---|\nMEDIA:[[reply_to:`1. \n|---|\nx`")  # first line a row: no header above
@example("a|b\n\n|-|\n`x\n|-|\n`")  # a row after a blank line under a "|" line
@example("> a|b\n> |-|\n> `x` |\n")  # a quote's table, its header inside the quote
@example("- a\n  |-|\n  `x\n  |-|\n  y`")  # an item's paragraph with rows in it
def test_delimiter_rows_under_lines_answer_as_the_full_parse(text: str) -> None:
    _assert_offsets_agree_lf_and_crlf(text)


# List items and quotes with lazy lines (2026-12-07): a line of paragraph text under an
# item's or a quote's paragraph continues it, however little it is indented and with no
# marker (linescan.lazy_content); a list whose items each took such a line, or a quote of
# such lines, went to the parser whole (5.2 and 3.8 s/MB in parse_reply).
_LAZY_PIECES = ["- ", "1. ", "2) ", "* ", "\n", "\n\n", "\n ", "\n  ", "\n   ", "\n    ", "a"]
_LAZY_PIECES += ["`", "``", "x `y` z", "[[reply_to_current]]", "b|c", "\n|-|", "\n:-", "\n> "]
_LAZY_PIECES += ["\n# ", "\n===", "\n---", "\r", "\\", "\n- ", "\n1. ", "\n2. ", "\n\t", "]: /u"]
_LAZY_PIECES += ["> ", "\n>", "\n> > ", "\n>> ", "a|b", "\n> |-|", "<a`>", "[l](`u`)"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_LAZY_PIECES), min_size=1, max_size=16).map("".join))
@example("- a `x\nb` [[reply_to_current]]\n- c `d\ne`\n")  # spans through lazy lines
@example("- a `x\n  b\nc` d\n")  # a lazy line after a continuation line
@example("1. a `x\nb\n2. c` d\n")  # any marker ends the item, under a lazy line too
@example("- a|b\nc\n  |-|\n  `x`\n")  # a table the item may hold: the parse's
@example("> a `x\nb\n> c` d\n")  # a quote's paragraph through a lazy line
@example("> > a `x\nb` c\n> d\n")  # lazy in a nested quote; a shallower line goes to the parse
@example("> a|b\n> -|-\nc `x|y`\n")  # a lazy line ends a quoted table's rows: no row
@example("x `a\n> b\nc` d\n")  # a quote interrupting a paragraph, then a lazy line
def test_lazy_lines_answer_as_the_full_parse(text: str) -> None:
    _assert_offsets_agree_lf_and_crlf(text)


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_items_and_quotes_with_lazy_lines_are_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: each item's paragraph pairs through its lazy line; the answers are the
    # parse's. A line that may open a block under the item leaves the region to the parse.
    parses, real = _count_parses(monkeypatch)
    for text in (
        "- a `x\nb` [[reply_to_current]]\n" * 300,
        "- a\n  c `x\nb [[reply_to_current]]\n" * 300,  # (one backtick an item: no code)
        "- a\n  c `x\nb` [[reply_to_current]]\n" * 300,
    ):
        assert any(_answered_without_a_parse(text, parses, real)) is ("b`" in text)
    for text in (
        "> a `x\nb` [[reply_to_current]]\n" * 300,
        "> |---|\nMEDIA:[[reply_to:`1. \n" * 300,  # (a row under no "|": no table)
    ):
        assert any(_answered_without_a_parse(text, parses, real))
    cm = CodeMap("- a `x\n:- b`\n" * 300)  # ":-" may be a delimiter row: not read as lazy
    cm.in_code(4)
    assert parses


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_fence_like_lines_are_answered_without_a_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not vacuous: a run of backticks with a backtick after it on its line opens no fence
    # (its info string would hold one), so a paragraph of such lines is paired locally; it
    # went to the parser whole (1.5-2.3 s/MB). A real fence line still is a line starter.
    parses, real = _count_parses(monkeypatch)
    text = "```NO_REPLY``[[reply_to:x]] `a`\n" * 300
    assert any(_answered_without_a_parse(text, parses, real))
    assert spans.LINE_STARTER.match("````") and spans.LINE_STARTER.match("``` py")
    assert not spans.LINE_STARTER.match("````x`") and not spans.LINE_STARTER.match("```x`")


# A paragraph whose backticks pair into no span (2026-12-07, fourth session): its lines were
# read for block starts as a paired one's are, so every whole line of it answers from it;
# a run of "<!--![a](x\\`[[reply_to:x]]" lines read its paragraph again per line.
_SPANLESS_LINES = ["<!--![a](NO_REPLY\\`[[reply_to:x]]", "a \\` b [[x]]", "``a` [[y]]", "x `"]
_SPANLESS_LINES += ["", "<div>", "- a", "> q", "# h", "    code", "1. b", "|a|", "---", "==="]
_SPANLESS_LINES += ["[r]: /u", "```", "x ``` y", "a\\", "\t\\`", "<!-- c -->", "b"]


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.sampled_from(_SPANLESS_LINES), min_size=2, max_size=12).map("\n".join),
    st.randoms(use_true_random=False),
)
@example("<!--![a](NO_REPLY\\`[[reply_to:x]]\n" * 4, None)
@example("a \\` b\n# h\nx `", None)
def test_paragraphs_whose_backticks_pair_into_none_answer_as_the_full_parse(
    text: str, rnd: Any
) -> None:
    """Every offset, in order and shuffled: a map keeps the lines of the last paragraph it
    answered, now one with backticks and no span too."""
    _assert_offsets_agree(text)
    if rnd is not None:
        order = list(range(len(text)))
        rnd.shuffle(order)
        _assert_offsets_agree(text, order)


@pytest.mark.pure_python(why="counts calls of a CodeMap method, which compiled code binds")
def test_a_spanless_paragraph_is_read_once_for_all_its_lines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: each line's question read the paragraph's bounds, run and spans again
    # (25 µs a tag of a megabyte of such lines); under a definition the paragraph is not
    # read as far as a paired one (spans.block_spans), so its lines are asked one by one.
    calls: list[int] = []
    real = CodeMap._block_in_code

    def counting(self: CodeMap, *args: Any) -> bool | None:
        calls.append(args[1])
        return real(self, *args)

    monkeypatch.setattr(CodeMap, "_block_in_code", counting)
    line = "<!--![a](NO_REPLY\\`[[reply_to:x]]\n"
    for text, reads in ((line * 300, 1), ("[r]: /u\n" + line * 300, 300)):
        cm = CodeMap(text)
        assert not any(cm.in_code(m.start()) for m in re.finditer(r"\[\[", text))
        assert len(calls) == reads and not cm.parsed, text[:40]
        calls.clear()


# Escaped backticks and unclosed links (2026-12-07): a paragraph whose every backtick is
# escaped holds no code span, whatever its links do (spans.may_open_span); a "](" after the
# last ")" opens no inline link. One long line of either went to the parser whole (85-140
# and 19-27 s/MB in parse_reply; markdown-it-py reads each "[[" label and nested
# destination at length).
_ESCAPED_LINK_PIECES = ["[a](", "(", ")", "\\`", "`", "``", "\\", "\\\\`", "[[reply_to:x]]", "x"]
_ESCAPED_LINK_PIECES += [" ", "\n", "<", ">", "](", "[", "]", '"t"', "\n    ", "\n\t", "~~~\n"]
_ESCAPED_LINK_PIECES += ["\n> ", "\n- ", "[a]: /u\n", "|-|\n", "a|b\n"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_ESCAPED_LINK_PIECES), min_size=1, max_size=16).map("".join))
@example("[[reply_to:---<div>[a](\\`" * 5)
@example("[[reply_to:x]]---../`\\`[a](" * 5)
@example("x\n    \\`a\\`\n")  # escaped backticks in a paragraph's continuation: no code
@example("# h\n    \\`a\n")  # ...in indented code after a heading: code
@example("\\\\`a`")  # an escaped backslash: the backtick opens a span
def test_escaped_backticks_and_unclosed_links_answer_as_the_full_parse(text: str) -> None:
    _assert_offsets_agree_lf_and_crlf(text)


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_escaped_ticks_and_unclosed_links_are_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: the three lines went to the parser whole; each answer is the parse's
    # (the first holds no code: every backtick is escaped).
    parses, real = _count_parses(monkeypatch)
    for text, code in (
        ("[[reply_to:---<div>[a](\\`" * 300, False),
        ("][[audio_as_voice]]MEDIA:https://e.example/a.png``[a](http://" * 300, True),
        ("[[reply_to:x]]---../`\\`[a](" * 300, True),
    ):
        assert any(_answered_without_a_parse(text, parses, real)) is code
    assert not spans.may_open_span("\\` [a](\\`\n\\\\\\`")
    assert spans.may_open_span("\\\\`") and spans.may_open_span("a\\``")


# A run opening with indented code (2026-12-07): the first line indented less ends the
# block and opens a paragraph, whose later indented lines are lazy (CodeMap._past_code).
_CODE_TOP_PIECES = ["\t", "    ", "  ", "x", "`", "``", "\\`", "[[reply_to:", "\n", "\n\n", "\r"]
_CODE_TOP_PIECES += ["- ", "> ", "# h", "===", "```", "~~~", "[a]: /u", "|-|", "a|b", " "]


@settings(max_examples=2000, deadline=None)
@given(
    st.sampled_from(["", "x\n\n", "- a\n\n", "```\nx\n```\n", "# h\n"]),
    st.lists(st.sampled_from(_CODE_TOP_PIECES), min_size=1, max_size=14).map("".join),
)
@example("", "\t`a\nb `x\n\tc` d\n")  # a code line, then a paragraph with a lazy tab line
@example("- a\n\n", "    `a\nb `x\n    c` d\n")  # in a list item: no code block
@example("", "    a\n===\n`x`\n")  # no paragraph to underline: "===" is text
def test_runs_opening_with_indented_code_answer_as_the_full_parse(head: str, body: str) -> None:
    _assert_offsets_agree(head + body)


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_a_paragraph_under_a_code_line_is_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: the delivery strip's text once its leading tag is gone (a code line,
    # then a paragraph whose tab-led lines are lazy) went to the parser whole. Asked where
    # the pipelines ask, at each "[" (a code line's break is still the parse's to place).
    parses, real = _count_parses(monkeypatch)
    text = "\tx`[embed\n" + "[[audio_as_voice]] `a` \tx`[embed\n\tx`[embed\n" * 300
    cm = CodeMap(text)
    at = [m.start() for m in re.finditer(r"\[", text)]
    answers = [cm.in_code(p) for p in at]
    assert parses == []
    full = real(text)  # one parse answers every offset (one per offset took minutes)
    assert answers == [full.in_code(p) for p in at]
    assert answers[0] and any(answers[1:]) and not all(answers[1:])


def test_pipe_above_reads_the_line_above_and_the_lines_start() -> None:
    # Not vacuous: a "|" on the line above, or before ``at`` on its own line, counts; one
    # two lines up, or after ``at``, does not.
    assert not spans.pipe_above("a|b", 0)
    assert spans.pipe_above("a|b\n|-|", 4)
    assert spans.pipe_above("> |\n> x", 6)  # the content of a line whose marker line holds one
    assert spans.pipe_above("x\n|> y", 4)
    assert not spans.pipe_above("a|b\nc\n|-|", 6)
    assert not spans.pipe_above("a\nb|c", 2)
    assert spans.pipe_above("a|b\r|-|", 4)  # a lone CR: a wider search, never a wrong False


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_delimiter_rows_under_plain_lines_are_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: a paragraph of "|---|" rows under tag lines, first line a row, went to
    # the parser whole (23-44 s/MB explained; each unclosed "[[" label is read at length);
    # so did a block quote of such lines. Each answer is the parse's.
    parses, real = _count_parses(monkeypatch)
    for text in (
        "|---|\nMEDIA:[[reply_to:`1. \n" * 300,
        "x\n\n" + "|---|\nMEDIA:[[reply_to:`1. \n" * 300,
        "> |---|\n> a [[reply_to:`1. \n" * 300,
    ):
        assert any(_answered_without_a_parse(text, parses, real))
    # Under a line holding a "|", a row may head a table: the parse decides.
    cm = CodeMap("a|b\n|---|\n`x`\n" * 300)
    cm.in_code(10)
    assert len(parses) == 1


def test_backtick_runs_both_ways() -> None:
    sparse = "a`" + "x" * 40 + "``b" + "y" * 40 + "```"
    dense = "`a``b```"
    for chunk in (sparse, dense, "", "`", "x" * 50):
        assert spans.backtick_runs(chunk) == [m.span() for m in re.finditer("`+", chunk)]
    assert spans.backtick_runs(sparse) == [(1, 2), (42, 44), (85, 88)]


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(
        st.sampled_from(["`", "``", "```", "a", " ", "\n", "b c", "\\", "[[reply_to_current]]"]),
        max_size=40,
    ).map("".join)
)
def test_short_chunks_pair_as_the_runs_pair(chunk: str) -> None:
    """The regex that pairs a short chunk's code spans finds what listing and pairing its
    backtick runs finds (the way of longer chunks), escapes aside (read apart)."""
    # No escaped backtick (_pair_escaped's case), and short enough for the regex.
    chunk = chunk.replace("\\`", "\\ `")[: spans.SHORT_CHUNK]
    assert spans.code_spans(chunk) == spans.pair_runs(spans.backtick_runs(chunk)), chunk


def test_unclosed_runs_of_distinct_widths_pair_nothing_either_way() -> None:
    # The regex retries each run without a closer to the chunk's end, so its
    # worst case is runs of distinct widths (about the root of twice the length of them);
    # the chunk limit keeps that a few thousand steps. Both ways agree on it.
    chunk = " ".join("`" * w for w in range(1, 22))
    assert len(chunk) <= spans.SHORT_CHUNK
    assert spans.code_spans(chunk) == [] == spans.pair_runs(spans.backtick_runs(chunk))
    longer = chunk + " x" * 200
    assert len(longer) > spans.SHORT_CHUNK and spans.code_spans(longer) == []


# One-line texts (a streamed part, most often) are answered as one paragraph without the
# fence scan; the pieces favour what opens a block at the line start or changes pairing.
_LINE_PIECES = [p for p in _PIECES if "\n" not in p and "\r" not in p] + ["``x``", "a ` b"]
# whitespace CommonMark does not count as indentation or blank (form feed, vertical tab,
# NUL, Unicode spaces), at the line start or anywhere
_LINE_PIECES += ["\f", "\v", "\x00", "\u00a0", "\u3000", "\ufeff"]
# "<" and ">": autolinks holding a backtick (the parse pairs those), and every other use
_LINE_PIECES += ["<", ">", "<b>", "<http://x>", "<a@b.c>", "<x`y>", "<a`b@c.d>", "<a `b>", "a<b"]
# escapes, pipes and "]:" (a table needs a second line; a definition opens the line)
_LINE_PIECES += ["a\\b", "\\\\`", "\\[x]", "x | y", "|", "a]: b", "[", "[x]:", "`[`", "\\"]
_LINE_PIECES += ["[[reply_to_current]]: x", "[a\\]]: b", "[a\\[b]: c", "[`a]: b"]
# inline links and images: destinations and titles with and without backticks, unclosed
_LINE_PIECES += ["[l](u)", "![i](u)", "[a](b`c)", "[a](<b`c>)", '[a](u "t`")', "[a](u 't')"]
_LINE_PIECES += ["[a](u (t`))", "[a](", "](", "[`a](u)`", "[a]( u )", "[a](\\(", '"', "'", "("]
# images with code in their alt text, and NUL where the parser reads U+FFFD (review)
_LINE_PIECES += ["![`a`](b)", "![a`](b)`", "[a](b\x00", "<http://a\x00", "\x00`"]
# destinations in <…> holding blanks (review): only the link rule's reading sees their end
_LINE_PIECES += ["[a](<b c>)", "[a](<b\tc>", "<a b>", "(<b `c>)", "<b c>"]


@settings(max_examples=2500, deadline=None)
@given(st.lists(st.sampled_from(_LINE_PIECES), min_size=1, max_size=14).map("".join))
def test_one_line_answers_equal_full_parse(text: str) -> None:
    _assert_offsets_agree(text)


@settings(max_examples=2500, deadline=None)
@given(st.lists(st.sampled_from(_LINE_PIECES), min_size=1, max_size=14).map("".join))
def test_one_line_paragraph_spans_answer_as_the_full_parse(text: str) -> None:
    """Where paragraph_spans answers, every offset is in a span exactly when the parse
    puts it in code (the tag stages answer a streamed part's questions from them)."""
    found = _fresh(text).paragraph_spans()
    if found is None:
        return
    full = _fresh(text).full()
    for pos in range(len(text) + 1):
        assert spans.in_spans(found, pos, len(text)) == full.in_code(pos), (text, pos)


@settings(max_examples=1000)
@given(
    st.lists(
        st.sampled_from(["a `b`", "", " ", "\t", "> q", "- x", "    c", "x\r", "===", "y", "\r"]),
        min_size=1,
        max_size=5,
    ).map("\n".join)
)
@example("a\n\r\nb")  # a blank line of a CRLF text
@example("a\n \nb")
@example("a\n\t\r\nb")
def test_one_paragraph_reads_each_line(text: str) -> None:
    """one_paragraph against its definition read line by line."""
    lines = text.split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # a final line break ends the text, not a blank line
    lone_cr = text.count("\r") != text.count("\r\n")  # (a CRLF is one line ending)
    expected = not lone_cr and not any(
        is_blank(line) or spans.LINE_STARTER.match(line) for line in lines
    )
    assert spans.one_paragraph(text) == expected, text


@settings(max_examples=2500, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(_LINE_PIECES), min_size=0, max_size=6).map("".join),
        min_size=2,
        max_size=5,
    ).map("\n".join)
)
def test_paragraph_spans_of_several_lines_answer_as_the_full_parse(text: str) -> None:
    """A text of several lines (a streamed part of a paragraph): where paragraph_spans
    answers, every offset is in a span exactly when the parse puts it in code, and it
    answers whenever the text is one paragraph that nothing in it can make unsafe."""
    found = _fresh(text).paragraph_spans()
    if found is not None:
        full = _fresh(text).full()
        for pos in range(len(text) + 1):
            assert spans.in_spans(found, pos, len(text)) == full.in_code(pos), (text, pos)
    elif spans.one_paragraph(text) and "`" in text and "]:" not in text:
        assert spans.para_unsafe(text), text
    _assert_offsets_agree(text)


# Plain lines: backtick runs between words and tags, nothing that changes pairing, so only
# a line starter (spaces then ```) keeps paragraph_spans from answering.
_PLAIN_LINE = st.lists(
    st.sampled_from(
        [
            *["`", "``", "```", "a", " ", "b c", "[[reply_to_current]]", "[[audio_as_voice]]"],
            # "<" that opens no autolink holding a backtick
            *["<", "<b>", "<http://x>", "a < b", "List<String>"],
            # escapes other than of a backtick, and pipes
            *["a\\b", "C:\\dir", "x | y"],
            # links whose destination and title hold no backtick
            *["[l](u)", "[i](u 't')", '[a](<b c> "d")', "[a](u)`"],
        ]
    ),
    min_size=1,
    max_size=16,
).map("".join)


@settings(max_examples=1500, deadline=None)
@given(_PLAIN_LINE)
def test_plain_line_spans_answer_as_the_full_parse(text: str) -> None:
    found = _fresh(text).paragraph_spans()
    assert (found is None) == bool(spans.LINE_STARTER.match(text)), text
    if found is None:
        return
    full = _fresh(text).full()
    for pos in range(len(text) + 1):
        assert spans.in_spans(found, pos, len(text)) == full.in_code(pos), (text, pos)


@pytest.mark.parametrize("text", ["     -", "\t_a\ufeff", "    code", "\t[a](`b`)", "x\n    y"])
def test_the_end_of_an_indented_text_is_asked_of_the_parse(text: str) -> None:
    # The offset just past the text: the indented-line shortcut read text[pos] there and
    # raised IndexError (found in review, 2026-12-03).
    n = len(text)
    assert _fresh(text).in_code(n) == _fresh(text).full().in_code(n)


#: Whole lines around an indented one: paragraph text, table rows (a body row needs no
#: "|"), link reference definitions (whole, split across lines, inside a paragraph), lines
#: that start or end blocks, and indented lines.
_BLOCK_LINES = [
    "x",
    "text here",
    "a | b",
    "--|--",
    "| a |",
    "a|b",
    "[a]:",
    "[a]: /u",
    "[a]: /u 't'",
    "[a",
    "]: b",
    "/url",
    "'t'",
    "x]: y",
    "   [c]: d",
    "\\[a]: b",
    "`[a]:` x",
    "    MEDIA:/t.png",
    "    b",
    "\t c",
    "  x",
    "",
    "   ",
    "# h",
    "===",
    "---",
    "- x",
    "> q",
    "```",
    "<div>",
]


@pytest.mark.parametrize(
    "text",
    [
        "a | b\n--|--\nx\n    MEDIA:/t.png",
        "[a]:\n/url\n    MEDIA:/t.png",
        "[a\n]: b\n    MEDIA:/t.png",
        "[a\n]: \n    b\n    MEDIA:/t.png",
        "text\n[a]: /u\n    MEDIA:/t.png",
        "some text\nmore\n    MEDIA:/t.png",
    ],
)
def test_an_indented_line_after_a_table_or_definitions_is_code(text: str) -> None:
    # The first five: the indented-line shortcut read the plain line above as an open
    # paragraph and the MEDIA: line as its lazy continuation, but a table's body row or a
    # paragraph taken whole by definitions leaves no paragraph to continue (2026-12-03).
    full = _fresh(text).full()
    line = text.rindex("\n") + 1
    assert _fresh(text).line_in_block(line, len(text)) == full.overlaps_block(line, len(text))
    assert _fresh(text).in_code(line + 4) == full.in_code(line + 4)
    # What a gateway sees: a MEDIA: line in code is shown, not attached.
    code = full.overlaps_block(line, len(text))
    assert richout.split_media(text).media_urls == ([] if code else ["/t.png"])


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_an_indented_line_in_a_long_paragraph_is_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: the lazy-continuation shortcut is taken, also 100 lines into a paragraph
    # (a first version of the table and definition check looked back 64 lines only, then
    # parsed: 5 s/MB on a paragraph of such lines), and a table above still parses.
    parses, _ = _count_parses(monkeypatch)
    text = ("x\n" * 100 + "    MEDIA:/t.png\n") * 30
    cm = CodeMap(text)
    start = 0
    for _ in range(30):
        start = text.index("    MEDIA:", start)
        assert not cm.line_in_block(start, text.index("\n", start))
        start += 1
    assert parses == []
    table = "a | b\n--|--\n" + "x\n" * 100 + "    MEDIA:/t.png"
    at = table.rindex("\n") + 1
    assert CodeMap(table).line_in_block(at, len(table))
    assert parses


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_BLOCK_LINES), min_size=1, max_size=8).map("\n".join))
def test_lines_around_indented_ones_answer_as_the_full_parse(text: str) -> None:
    full = _fresh(text).full()
    start = 0
    for line in text.split("\n"):
        end = start + len(line)
        assert _fresh(text).line_in_block(start, end) == full.overlaps_block(start, end), (
            text,
            start,
        )
        start = end + 1
    _assert_offsets_agree(text)


#: Whole lines in and around block quotes: quote lines that can only be paragraph text, with
#: and without code spans, tags, links, escapes and table pipes; quote lines that open a
#: block or hold nothing; lines that may continue a quote's paragraph lazily or end it.
_QUOTE_LINES = [
    "> `a`",
    ">`b` x",
    "> x ``y",
    "> [[reply_to_current]] `",
    "> x `` y ` z",
    ">  `x",
    ">    code `x`",
    "> `a` [l](u)",
    "> [a](`b`)",
    "> ![`a`](b)",
    "> <a`b>",
    "> \\`",
    "> a\\",
    "> a|b",
    "> --|--",
    "> [x]: /u",
    "> [a][`x`]",
    "[`x`]: /u",
    "> `a\r",
    "> ```",
    "> ~~~",
    "> - x",
    "> 1. x",
    "> 2. x",
    "> # h",
    "> ===",
    "> > x",
    # nested quotes: their runs keep one depth (a line one marker deeper or shallower is
    # the parse's)
    "> > `a`",
    ">>`b` x",
    "> > x ``y",
    "> > [[reply_to_current]] `",
    ">> a|b",
    "> > --|--",
    "> > > `c",
    "> >",
    ">>",
    "> > ===",
    "> >\tx",
    ">  > x",
    ">\tx",
    " > x",
    ">",
    "> ",
    "",
    "  ",
    "text",
    "x `",
    "`c`",
    "    x",
    "- item",
    "```",
]


#: List item lines (a marker, one to four spaces, content), lines such a run reads (a lazy
#: continuation too) and lines it does not (a nested marker, indented code in the item, a
#: block), and continuation lines indented to an item's content or not (one to six spaces,
#: a tab, a nested block or table row in the item).
_ITEM_LINES = [
    "- `a`",
    "* `a` [[reply_to_current]] ``b``",
    "+ a `b",
    "1. c` d",
    "2) x | `y`",
    "-  `x` y",
    "-    `x`",
    "-     `code`",
    "-\t`x`",
    "- - `x`",
    "- > `q`",
    "- # `h`",
    "- ```",
    "- ---",
    "- [a](`b`)",
    "- <a`b>",
    "- [x]: /u",
    "- a\\",
    "- \\`a` `b`",
    "- `a` <b`c>",
    "- <http://x`y> `z`",
    "1234567890. `x`",
    "\u0663. `x`",
    "-",
    "1.",
    "  `cont`",
    " c` x",
    "   c`` d ``",
    "    `x` [[reply_to_current]]",
    "      `six`",
    "  `a` [l](`u`)",
    "  x | `y`",
    "  |---|---|",
    "  - `n`",
    "  > `q`",
    "  ===",
    "  \t`t`",
    "  ```",
    "lazy ` x",
    "    `indented`",
    "```",
    "> `q`",
    "",
    " ",
]


# (2,500 examples, each asked with LF and CRLF: about 40 s of a suite run. The fuzzes beside
# it, 2026-12-05, drew 30,000 quote and 36,000 item texts.)
@settings(max_examples=2500, deadline=None)
@given(
    st.lists(st.sampled_from(_QUOTE_LINES), min_size=1, max_size=8).map("\n".join)
    | st.lists(st.sampled_from(_ITEM_LINES), min_size=1, max_size=8).map("\n".join)
)
@example("[`x`]: /u\n\n> [a][`x`]\n")  # a definition elsewhere makes the quote's "[a][`x`]" a link
@example("```\n\n> `a`\n")  # a quote inside an unclosed fence is code, not a paragraph
@example("```\n> `a`\n```\n> `a`")
@example("- a `b\nc` d")  # the last item's paragraph goes on lazily
@example("x\n2. `a`\n")  # an ordered marker other than 1 does not interrupt a paragraph
@example("lazy ` x\n2) x | `y`")  # (so the region's first line decides, not the item's)
@example("- `a`\n  b ``c\n  d`` [[reply_to_current]]\n- e")  # a span across continuations
@example("- [a](`b`)\n")  # a link's destination holds the backtick: the parse pairs it
def test_quote_and_list_item_lines_answer_as_the_full_parse(text: str) -> None:
    _assert_offsets_agree(text)
    _assert_offsets_agree(text.replace("\n", "\r\n"))  # a CRLF's CR ends its line


#: Lines after containers nested to markdown-it's limit (engine.MAX_NESTING): the parse reads
#: no block from there to the text's end; each once had a local reading of its own.
_AFTER_DEEP = [
    "`a`",
    "- `a`",
    "> `a`",
    "> > `a`",
    "# `a`",
    "```\na\n```",
    "    code",
    "| a | b |\n|---|---|\n| `c` | d |",
    "x\n\n`a` [[reply_to_current]]",
]


@pytest.mark.parametrize("opener", ["- " * 50, "1. " * 50, "> - " * 34, "-" + " " * 4 + "- " * 49])
@pytest.mark.parametrize("after", _AFTER_DEEP)
@pytest.mark.parametrize("eol", ["\n", "\n\n", "\r\n"])
def test_lines_after_nesting_past_the_parsers_limit_answer_as_the_parse(
    opener: str, after: str, eol: str
) -> None:
    """A review (2026-12-05) found ``"- " * 50 + "x\n`a`"`` answered as code: the parse
    stops at 100 levels and reads nothing after; the line scan now stops at such a line
    (``regions.deep_nesting_at``), and every local reading with it."""
    text = opener + "x" + eol + after.replace("\n", eol)
    _assert_offsets_agree(text)
    _assert_lines_agree(text)


def _assert_lines_agree(text: str) -> None:
    """Every line's ``line_in_block`` (each asked of a fresh map) is the full parse's."""
    full = parse_code(text)
    start = 0
    with _parses_remembered():
        for line in text.split("\n"):
            end = start + len(line)
            assert CodeMap(text).line_in_block(start, end) == full.overlaps_block(start, end)
            start = end + 1


#: A streamed part of a block quote: the rest of a line (or blank lines, or nothing), then
#: quote lines; the pieces are drawn so that many parts are plain enough to be answered.
_HEAD_PIECES = st.lists(
    st.sampled_from([*_LINE_PIECES[:40], "`a`", "``b``", " x "]), max_size=5
).map("".join)
_PART_HEADS = (
    st.sampled_from(["", "\n", "\n\n", " \n"])
    | st.lists(_HEAD_PIECES, min_size=1, max_size=3).map(lambda lines: "\n".join(lines) + "\n")
    # The rest of a nested quote line cut between its markers: a quote line less deep, or
    # as deep, as the lines after it (or indented, or not a quote line at all).
    | st.tuples(
        st.sampled_from([">", "> ", " > ", "   >", "    > ", "> > ", " >> ", ">\t"]), _HEAD_PIECES
    ).map(lambda pair: "".join(pair) + "\n")
)


@settings(max_examples=2500, deadline=None)
@given(
    _PART_HEADS,
    st.lists(
        st.sampled_from([*_QUOTE_LINES[:20], "> `a` [[reply_to_current]] ``b``", ">", "> "]),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from(["", "\n"]),
    _EOL,
    st.sampled_from(["", "> ", ">"]),
)
@example("x ``b``\n", ["> `a` [[reply_to_current]] ``b``", "> `a` [["], "", "\n", "")
@example("", ["> `a", "> b`"], "\n", "\n", "")  # a span across two quote lines
@example("`a\n", ["> b`"], "", "\n", "")  # no span from the paragraph into the quote
@example("x ``b``\n", ["> `a` [[reply_to_current]] ``b``", "> `a` [["], "", "\r\n", "")
@example("x\n", ["> `a", "> b`", ">"], "", "\n", "> ")  # nested, the last line holding nothing
# A part starting between a nested line's markers: its first line a quote one level up,
# which the next line's deeper quote interrupts.
@example(" > `x` [[reply_to_current]] | ``y``\n", ["> `a` ``b", "> c``"], "", "\r\n", "> ")
@example("> `x\n", ["> y`"], "", "\n", "> ")
def test_a_quoted_part_answers_as_the_full_parse(
    head: str, lines: list[str], end: str, eol: str, outer: str
) -> None:
    """Where ``quoted_part_spans`` answers a paragraph's lines then a quote's, every offset
    is in a span exactly when the parse puts it in code, and the code map's paragraph spans
    are those spans (LF or CRLF line endings; ``outer``: each quote line nested in another
    quote, or not)."""
    lines = [outer + line if line.startswith(">") else line for line in lines]
    text = (head + "\n".join(lines) + end).replace("\n", eol)
    _assert_part_spans_agree(text, quoted_part_spans(text), read_by_map=True)


def _assert_part_spans_agree(
    text: str, found: list[tuple[int, int]] | None, *, read_by_map: bool
) -> None:
    """A streamed part's spans (``found``, None: not answered) are in code exactly where
    the parse says so; ``read_by_map``: the code map's paragraph spans are them (a text
    that is not one paragraph); every offset of the map agrees with the parse."""
    if found is not None:
        full = _fresh(text).full()
        for pos in range(len(text) + 1):
            assert spans.in_spans(found, pos, len(text)) == full.in_code(pos), (text, pos)
        if read_by_map and not spans.one_paragraph(text):
            assert _fresh(text).paragraph_spans() == found
    _assert_offsets_agree(text)


def test_quoted_parts_that_are_answered_and_that_are_not() -> None:
    # Not vacuous: streamed parts of a quote are answered (the stage questions of a 64-byte
    # part went through the line index, fence scan and run records: 0.95 s/MB streamed)...
    part = "[[reply_to_current]] ``b``\n> `a` [[reply_to_current]] ``b``\n> `a` [["
    assert quoted_part_spans(part) == [(21, 26), (29, 32), (54, 59), (62, 65)]
    assert quoted_part_spans("\n> `a\n> b`\n") == [(3, 10)]
    assert quoted_part_spans("> x") == []
    assert quoted_part_spans("> `a` x\n> `b`") == [(2, 5), (10, 13)]  # every line quoted
    assert quoted_part_spans("> `a`\r\n> b`") == [(2, 5)]  # a CRLF ends a line as an LF does
    # A part that ends as a quote line begins (nothing after its marker yet): the quote's
    # paragraph ends before it.
    assert quoted_part_spans("`a` x\n> `b` [[reply_to_current]]\n> ") == [(0, 3), (8, 11)]
    assert quoted_part_spans("`a`\n>") == [(0, 3)]
    # A part starting between a nested quote line's markers: its first line, one level up,
    # is a paragraph of its own (the next line opens a quote in its quote).
    assert quoted_part_spans(" > `x` | y\n> > `a` ``b``") == [(3, 6), (15, 18), (19, 24)]
    assert quoted_part_spans("> `x\n> > y`") == []
    # ...and what may change the structure or the pairing is left to the general path: a
    # lazy line, a quote line opening a block or holding nothing, a blank line inside the
    # head, a lone CR, a definition, a link holding a backtick, no quote at all.
    for text in (
        "> `a`\nlazy `",
        "> - `a`",
        "> `a`\n>\n> `b`",
        "> `a`\n> \nlazy `",
        "x\n\ny\n> `a`",
        "> `a`\r> b`",
        "[x]: /u\n> `a`",
        "> [a](`b`)",
        "`a` x > y",
        "# h\n> `a`",
        " > `a`\n> `b`\n> > `c`",  # (the depth changes after the second line)
        "    > `a`\n> > `b`",  # indented code
        "> > `a`\n> `b`",  # a lazy line
    ):
        assert quoted_part_spans(text) is None, text


@settings(max_examples=1500, deadline=None)
@given(
    _PART_HEADS,
    st.lists(st.sampled_from([*_ITEM_LINES, "- `a` [[reply_to_current]] ``b``"]), max_size=5),
    st.sampled_from(["", "\n", "\n-", "\n1. ", "\n2.", "1.", "+ ", "-", "\n ", "\n  "]),
    _EOL,
)
@example("x ``b``\n", ["- `a` [[reply_to_current]] ``b``", "- `a` [["], "", "\n")
@example("x `b\n", ["2. c` d"], "", "\n")  # a marker numbered 2 does not interrupt a paragraph
@example("`a\n", ["- b`"], "\n-", "\n")  # the last line, a marker holding nothing yet
def test_a_listed_part_answers_as_the_full_parse(
    head: str, lines: list[str], end: str, eol: str
) -> None:
    """Where ``listed_part_spans`` answers a paragraph's lines then list items, one line
    each or with continuation lines (a streamed part of a list), every offset is in a span
    exactly when the parse puts it in code, and the code map's paragraph spans are those
    spans (LF or CRLF line endings)."""
    text = (head + "\n".join(lines) + end).replace("\n", eol)
    # (A text holding ">" is read by the quote reading, if by any.)
    _assert_part_spans_agree(text, listed_part_spans(text), read_by_map=">" not in text)


@settings(max_examples=1500, deadline=None)
@given(
    _PART_HEADS,
    st.lists(
        st.sampled_from([*_ITEM_LINES, *_QUOTE_LINES, "a `b`", "x > y", "`c`", "2024 `d`", "-x"]),
        max_size=5,
    ),
    st.sampled_from(["", "\n", "\n-", "\n1. ", "\n>", "1.", "\n "]),
    _EOL,
)
@example("x ``b``\n", ["- `a` [[reply_to_current]] ``b``", "- `a` [["], "", "\n")
@example("x\n", ["a > b", "`c`"], "", "\n")  # ">" in a paragraph: no container line
@example("`a\n", ["b`"], "\n1. ", "\n")  # a paragraph, then an item holding nothing yet
@example("", ["2024 was `a`", "b"], "", "\n")  # a digit opening a paragraph's line
def test_a_part_read_first_as_a_container_reads_as_the_paragraph_check_first(
    head: str, lines: list[str], end: str, eol: str
) -> None:
    """``part_reading`` reads a text showing a container line as a part before asking
    whether it is one paragraph: the answer is the one the paragraph check first gives
    (a part the readings answer is never one paragraph)."""
    text = (head + "\n".join(lines) + end).replace("\n", eol)
    read = quoted_part_spans if ">" in text else listed_part_spans
    if spans.one_paragraph(text):
        expected: tuple[bool, list[tuple[int, int]] | None] = (True, None)
    else:
        found = read(text)
        expected = (found is not None, found)
    assert part_reading(text) == expected, text


@pytest.mark.pure_python(why="replaces a module's pattern, which compiled code binds")
def test_one_line_items_are_paired_in_one_search_only_when_short(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The one search over a list part's items is the pattern code_spans uses up to
    SHORT_CHUNK characters: an opener without a closer makes it read to its line's end,
    so a longer run of items is paired item by item (a 180 KB item of distinct backtick
    runs took 1.3 s)."""
    from richout.markdown import items

    read: list[int] = []
    real = items.LINE_CODE_SPAN

    class Watched:
        def finditer(self, text: str, pos: int = 0) -> Any:
            read.append(len(text) - pos)
            return real.finditer(text, pos)

    monkeypatch.setattr(items, "LINE_CODE_SPAN", Watched())
    part = "x `b`\n- `a` [[reply_to_current]] ``c``\n- `d`"
    assert listed_part_spans(part) == [(2, 5), (8, 11), (33, 38), (41, 44)]
    assert read == [len(part) - 6]
    long = "- " + " ".join("`" * i for i in range(1, 40))
    expected = items.item_spans(long, [2], [len(long)])
    assert listed_part_spans(long) == expected and read == [len(part) - 6]


def test_listed_parts_that_are_answered_and_that_are_not() -> None:
    # Not vacuous: streamed parts of a list are answered (each went to the parser: a list
    # of one-line items with tags, streamed in 64-character chunks, 3.5 s/MB)...
    part = "[[reply_to_current]] ``b``\n- `a` [[reply_to_current]] ``b``\n- `a` [["
    assert listed_part_spans(part) == [(21, 26), (29, 32), (54, 59), (62, 65)]
    assert listed_part_spans("- `a` x\n1) `b`\n-") == [(2, 5), (11, 14)]
    # an item's continuation lines go on with its paragraph (a span may cross them), a
    # last line of an empty ordered marker is the paragraph's text, blank lines may open it
    assert listed_part_spans("- `a\n  b` c\n  ``d``\n- e") == [(2, 9), (14, 19)]
    assert listed_part_spans("x `a`\n  `b`\n1.") == [(2, 5), (8, 11)]
    assert listed_part_spans("\n  `a` x\n- `b`\n   ") == [(3, 6), (11, 14)]
    # ...and what may read otherwise is not: a marker numbered 2 under a paragraph, a lazy
    # last line, a nested marker, a definition.
    for text in ("x\n2. `a`", "- `a\nb`", "- - `a`", "- [a]: /u\n- `b`", "- `a`\n  - `b`"):
        assert listed_part_spans(text) is None, text


#: Lines around an ATX heading: plain text, code spans, tags, links, a fence, a list item,
#: a quote line, blank lines; heading lines at column 0 and indented, closed and not.
_HEADING_LINES = ["a", "`b` x", "x ``", "[l](u)", "```", "- i", "> q", "", "    c", "`[[x]]`"]
_HEADINGS = [
    "# `a` [[reply_to_current]]",
    "## x ``b`` ###",
    "###### `c",
    "####### `d`",
    "#\t`e`",
    "#`f`",
    "# [a](`b`)",
    "# <x`y>",
    "# \\`g` `h`",
    "  # `i`",
    "#",
    "# `j` \r",
]


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(st.sampled_from(_HEADING_LINES), max_size=4),
    st.sampled_from(_HEADINGS),
    st.lists(st.sampled_from(_HEADING_LINES), max_size=3),
)
@example(["a"] * 5, "# `[[reply_to_current]]`", [])
@example(["```"], "# `a`", [])  # a heading inside an unclosed fence is code
@example(["[`x`]: /u"], "# [a][`x`]", [])  # a definition elsewhere makes a link
def test_heading_lines_answer_as_the_full_parse(
    above: list[str], heading: str, below: list[str]
) -> None:
    _assert_offsets_agree("\n".join([*above, heading, *below]))


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_a_heading_after_a_long_paragraph_is_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: a heading at column 0 is a block of its own line, paired alone. A tag in
    # one after a paragraph of 500k lines (no cut point divides a paragraph) sent the whole
    # megabyte to markdown-it-py: 3 s/MB in parse_directives, 5.8 in parse_reply.
    parses, real = _count_parses(monkeypatch)
    text = "a\n" * 20_000 + "## `x` [[reply_to_current]] ``y`` ##"
    heading = text.rindex("\n") + 1
    cm = CodeMap(text)
    offsets = range(heading - 4, len(text) + 1)
    answers = [cm.in_code(p) for p in offsets]
    assert parses == []
    full = real(text)
    assert answers == [full.in_code(p) for p in offsets]
    assert richout.parse_reply(text).reply_to_id is None and parses == []
    assert "[[reply_to_current]]" not in richout.parse_reply(text).text
    # A heading the line scan cannot place (inside a fence) still asks the parse.
    fenced = "```\n" + text
    assert CodeMap(fenced).in_code(fenced.index("[[")) == real(fenced).in_code(fenced.index("[["))


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
@pytest.mark.parametrize(
    "body",
    [
        "+\n" * 20_000,  # empty list items: no paragraph is open after any of them
        "- \n+\n" * 10_000,
        "a\n> q\n" + "a\n" * 20_000,  # a quote interrupts a paragraph; lazy lines continue it
        "a\n    b\n" * 10_000,  # indented lines continue a top-level paragraph
        "a\n\tb\n" * 10_000,
    ],
)
def test_runs_of_empty_items_quotes_and_indented_lines_are_read_without_a_parse(
    monkeypatch: pytest.MonkeyPatch, body: str
) -> None:
    # Not vacuous: each of these runs, with a tag in code after it, went to markdown-it-py
    # whole (1.7-3 s/MB); each answer near the tag is the parse's.
    parses, real = _count_parses(monkeypatch)
    for eol in ("\n", "\r\n"):
        text = (body + "x `y` [[reply_to_current]] ``z``").replace("\n", eol)
        at = text.index("`y`")
        cm = CodeMap(text)
        answers = [cm.in_code(p) for p in range(at - 2, len(text))]  # (the tag's line)
        assert parses == []
        full = real(text)
        assert answers == [full.in_code(p) for p in range(at - 2, len(text))]
        assert "[[reply_to_current]]" not in richout.parse_reply(text).text
        parses.clear()


#: Runs of lines that open with a block of their own line or a container line, or end with
#: an underline; plain lines, code spans and tags between, and what keeps a run to the parse.
_RUN_FIRST = ["# h", "## `h`", "---", "***", "> q", "> `q", "- i", "- `i", "1. `o", "-", ">", "a"]
_RUN_FIRST += ["+", "> ", "  a", "    `a", "- >`", "2. >`", "x"]
_RUN_LINES = ["a", "`b` x", "x ``", "`[[x]]`", "[l](u)", "  c", "    d", "> e", "- f", "# g"]
# empty containers, indented continuation lines, quote lines that lazy lines may join
_RUN_LINES += [
    "+",
    ">",
    "- ",
    ">    ",
    "1.",
    "    `d",
    "\t`t",
    "      - x",
    "> `e",
    ">`",
    "  >`",
    "   >`",
]
_RUN_LAST = ["", "===", "---", "-", "***", "- - -", "= =", "`z`", "> `z`"]


@settings(max_examples=3000, deadline=None)
@given(
    st.sampled_from(_RUN_FIRST),
    st.lists(st.sampled_from(_RUN_LINES), max_size=6),
    st.sampled_from(_RUN_LAST),
    st.sampled_from(["", "x\n\n", "```\nc\n```\n"]),
    _EOL,
)
@example("# h", ["a"] * 3, "`[[reply_to_current]]`", "", "\n")
@example("# h", ["a"] * 3, "`[[reply_to_current]]`", "", "\r\n")
@example("- `i", ["a"], "b`", "", "\n")  # a list item's lazy lines continue its paragraph
@example("- `i", ["a"], "===", "", "\n")  # ...and an underline after them is text
@example("a `x", ["b"], "===", "", "\n")  # a setext heading's content pairs as the paragraph
# a quote line continuing a quote nested in a list item (review): not a quote of its own
@example("- >`", ["  >`"], "", "", "\n")
@example("- > `a", ["b", "  > c`"], "", "", "\r\n")
def test_runs_of_lines_answer_as_the_full_parse(
    first: str, lines: list[str], last: str, before: str, eol: str
) -> None:
    """A run opening with a heading, break, quote or list line, or ending with an underline
    or break: every offset as the full parse answers it (LF or CRLF lines)."""
    _assert_offsets_agree((before + "\n".join([first, *lines, last])).replace("\n", eol))


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ("# h\n", ""),  # a heading opens the run: the paragraph after it
        ("> h\n", ""),  # a quote line: the run continues its paragraph lazily
        ("- h\n", ""),  # a list item: the same
        ("***\n", ""),  # a thematic break
        ("", "\n==="),  # an underline ends the run: a setext heading's content
        ("", "\n---"),
    ],
)
def test_a_run_of_lines_with_a_block_at_an_end_is_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch, head: str, tail: str
) -> None:
    # Not vacuous: no cut point divides a run of lines, and one block opener at its start or
    # an underline at its end sent a megabyte run with a tag in code to markdown-it-py
    # (3.4-8.9 s/MB in parse_directives and parse_reply).
    parses, real = _count_parses(monkeypatch)
    for eol in ("\n", "\r\n"):  # (a CRLF text's runs are read alike)
        text = (head + "a\n" * 20_000 + "x `y` [[reply_to_current]] ``z``" + tail).replace(
            "\n", eol
        )
        at = text.index("`y`")
        cm = CodeMap(text)
        end = len(text) - len(tail.replace("\n", eol)) + 1  # (an underline holds no construct)
        answers = [cm.in_code(p) for p in range(at - 4, end)]
        assert parses == []
        full = real(text)
        assert answers == [full.in_code(p) for p in range(at - 4, end)]
        assert "[[reply_to_current]]" not in richout.parse_reply(text).text
        parses.clear()
    assert parses == []


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
@pytest.mark.parametrize("marker", ["> ", "> > ", ">>", "> > > ", "- ", "* ", "1. ", "10) ", "-  "])
@pytest.mark.parametrize("wrapped", [False, True])
def test_a_long_block_quote_or_list_is_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch, marker: str, wrapped: bool
) -> None:
    # Not vacuous: a quote paragraph of 3,000 lines with tags and code spans, or a list of
    # 3,000 such items (one line each, or ``wrapped`` onto a second line indented to their
    # content), is paired without markdown-it-py (each once went to the parser whole, 2-3
    # s/MB; a nested quote and a list until the twenty-fourth stop, a wrapped list until the
    # twenty-fifth), and each answer is the parse's; a fence in a quote still parses (a lazy
    # line continues the quote's paragraph, which the run pairs, and since 2026-12-07 so
    # does a quote line after a lazy one).
    parses, real = _count_parses(monkeypatch)
    lead = marker if marker.startswith(">") else " " * len(marker)
    for eol in ("\n", "\r\n"):
        item = marker + "`a` [[reply_to_current]] ``b``" + eol
        if wrapped:
            item += lead + "c `d [[reply_to_current]] e` f" + eol
        text = "intro `x`" + eol + eol + item * 3000
        cm = CodeMap(text)
        answers = [cm.in_code(p) for p in range(0, len(text), 7)]
        assert parses == []
        full = real(text)
        assert answers == [full.in_code(p) for p in range(0, len(text), 7)]
        assert richout.parse_directives(text).reply_to_current
        assert parses == []
    for other, parsed in (
        ("> `a` x\nlazy ` b\n", 0),
        ("> `a` x\nlazy ` b\n> c`\n", 0),
        ("> ```\n> `a` [[reply_to_current]]\n", 1),
    ):
        before = len(parses)
        at = other.index("`a`") + 1
        assert CodeMap(other).in_code(at) == real(other).in_code(at)
        assert len(parses) == before + parsed, other


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ("[[reply_to_current]] ``b``\n", ""),  # a paragraph line, then a quote interrupts it
        ("`c` [[reply_to:1]] d\ne ``f`` g\n", ""),
        ("x ``b``\n", "> `a` [[repl"),  # a streamed part, cut inside a quote line
    ],
)
def test_a_paragraph_before_a_quote_ends_at_it_without_a_parse(
    monkeypatch: pytest.MonkeyPatch, head: str, tail: str
) -> None:
    # Not vacuous: the paragraph's lines are paired up to the first ">" line at column 0
    # (which interrupts it); read through to the text's end, the quote's markers made the
    # paragraph unsafe and every question about it went to markdown-it-py.
    parses, real = _count_parses(monkeypatch)
    text = head + "> `a` x ``y``\n" * 2000 + tail
    cm = CodeMap(text)
    offsets = [*range(len(head)), *range(len(head), len(text), 11)]
    answers = [cm.in_code(p) for p in offsets]
    assert parses == []
    full = real(text)
    assert answers == [full.in_code(p) for p in offsets]


_STAGE_LINE = st.lists(st.sampled_from(_LINE_PIECES), min_size=1, max_size=14).map("".join)


@settings(max_examples=600, deadline=None)
@given(
    _STAGE_LINE
    | _PLAIN_LINE
    # a few lines (a streamed part), their line endings LF, CRLF or lone CRs
    | st.tuples(
        st.lists(_STAGE_LINE | st.sampled_from(_QUOTE_LINES), min_size=2, max_size=4),
        st.sampled_from(["\n", "\r\n", "\r"]),
    ).map(lambda pair: pair[1].join(pair[0])),
    st.data(),
)
def test_stage_code_answers_a_line_like_the_full_parse(text: str, data: st.DataObject) -> None:
    """The tag stages' questions about a one-line or short text (a streamed part, CRs
    included), answered from its spans in any order, are the full parse's answers; also
    when another reader of the same map has it parsed in between."""
    full = _fresh(text).full()
    positions = data.draw(st.permutations(range(len(text) + 1)), label="order")
    parse_at = data.draw(st.integers(0, len(positions)), label="parse at")
    shared = _fresh(text)
    code = StageCode(text, shared)
    for i, pos in enumerate(positions):
        if i == parse_at:
            shared.full()
        assert code.in_code(pos) == full.in_code(pos), (text, pos)


def test_stage_code_keeps_a_lines_spans() -> None:
    # Not vacuous: the spans of a streamed part are paired once and answer every question.
    text = "`a` [[reply_to_current]] ``b`` `a` [[reply_to_current]] ``b``"
    code = StageCode(text)
    assert [code.in_code(p) for p in (1, 4, 27, 31, 40)] == [True, False, True, True, False]
    assert code._paragraph == [(0, 3), (25, 30), (31, 34), (56, 61)]
    assert not code.map().parsed
    # so are those of a part of several lines of one paragraph, by the map, without the
    # fence scan
    text = "`a` [[reply_to_current]]\n``b`` [l](u) `a`\n[[reply_to_current]] ``b``"
    code = StageCode(text)
    full = _fresh(text).full()
    assert [code.in_code(p) for p in range(len(text))] == [
        full.in_code(p) for p in range(len(text))
    ]
    assert code._paragraph == [(0, 3), (25, 30), (38, 41), (63, 68)]  # the stage keeps them
    assert code.map()._para_spans == {(0, len(text)): code._paragraph}
    assert not code.map().parsed and code.map()._fences is None
    # A short text of several lines (a streamed part) whose tags no reading of its lines
    # puts in a code span builds no map (span_reach, tests/test_span_reach.py)...
    text = "`a` b\nc d [[reply_to_current]] e\nf [[audio_as_voice]]"
    code = StageCode(text)
    assert not any(code.in_code(text.index(t)) for t in ("[[reply", "[[audio"))
    assert code._map is None and code._paragraph is None
    # ...and one where a reading could is paired up front, like one line...
    text = "`a` b\nc `d [[reply_to_current]] e\nf` [[audio_as_voice]]"
    code = StageCode(text)
    assert [code.in_code(text.index(t)) for t in ("[[reply", "[[audio")] == [True, False]
    assert code._paragraph == [(0, 3), (8, 36)]
    # ...and a longer one whose tags are far from any backtick builds no map at all.
    text = (
        "`a` b\n"
        + "words and more words\n" * 20
        + "c d [[reply_to_current]] e\nf [[audio_as_voice]]"
    )
    code = StageCode(text)
    assert not any(code.in_code(text.index(t)) for t in ("[[reply", "[[audio"))
    assert code._map is None


@pytest.mark.pure_python(why="counts CodeMap.paragraph_spans calls through a monkeypatch")
def test_a_lines_spans_are_paired_once(monkeypatch: pytest.MonkeyPatch) -> None:
    cm = _fresh("`a` [[reply_to_current]] ``b``")
    found = cm.paragraph_spans()
    assert found == [(0, 3), (25, 30)]
    assert cm._para_spans == {(0, len(cm.text)): found}  # the map's own questions reuse them
    asked: list[str] = []
    real = CodeMap.paragraph_spans

    def counting(self: CodeMap) -> list[tuple[int, int]] | None:
        asked.append(self.text)
        return real(self)

    monkeypatch.setattr(CodeMap, "paragraph_spans", counting)
    for text in ("<b>`a`</b> [[x", "`a` b `c`"):  # no spans (the parse pairs), and spans
        code = StageCode(text)
        for pos in range(len(text)):
            code.in_code(pos)
        assert asked.count(text) == 1, text


@pytest.mark.pure_python(
    why="counts calls of one_paragraph and code_spans, which compiled code binds"
)
def test_a_paragraphs_spans_are_read_once_and_only_near(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not vacuous (review): uncached, every question on a long line paired it again; read
    # on any text, a long one's first question walked every line (134 ms for 500k lines
    # before a fence), where the local checks answer from near the question.
    from richout.markdown import items

    calls: list[str] = []
    for module, name in ((items, "one_paragraph"), (spans, "code_spans")):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda t, _n=name, _r=real: calls.append(_n) or _r(t))
    line = "`a` [[reply_to_current]] ``b`` " * 500
    cm = CodeMap(line)
    assert [cm.in_code(p) for p in range(0, len(line), 31)] == [True] * len(line[::31])
    assert calls == ["one_paragraph", "code_spans"]
    calls.clear()
    text = "a `b`\n" * 3000 + "```\ncode\n```\n"
    cm = CodeMap(text)
    at = text.index("code")
    assert cm.in_code(at) and not cm.parsed
    assert "one_paragraph" not in calls and cm._whole is False


def test_paragraph_spans_only_for_one_plain_paragraph() -> None:
    assert _fresh("[[reply_to_current]] ``b`` `a` x").paragraph_spans() == [(21, 26), (27, 30)]
    assert _fresh("no code here").paragraph_spans() == []
    # Several lines of one paragraph pair as one (a lone CR or a CRLF ends a line as LF
    # does); a blank line, a line opening a block, or a pairing the parse must decide (or a
    # CRLF beside a lone CR): no spans.
    assert _fresh("`a`\nb ``c`` `\nd`").paragraph_spans() == [(0, 3), (6, 11), (12, 16)]
    assert _fresh("`a`\rb ``c`` `\rd`").paragraph_spans() == [(0, 3), (6, 11), (12, 16)]
    assert _fresh("`a\n`\n").paragraph_spans() == [(0, 4)]
    assert _fresh("`a`\r\nb `c\r\nd`").paragraph_spans() == [(0, 3), (7, 13)]
    for text in ("`a`\n\nb", "`a`\n \n", "`a`\r\n\r\nb", "`a`\r\n\rb", "`a`\n    b", "# `a`"):
        assert _fresh(text).paragraph_spans() is None, text
    # A paragraph's lines then a quote's (a streamed part of a quote) pair each on its own.
    assert _fresh("`a`\n> b `c`").paragraph_spans() == [(0, 3), (8, 11)]
    # A table's delimiter row on a later line is read as in any text of several lines
    # (review): the header's cells split "`a | b`", which holds no code. So is a definition
    # opening the text; on a later line one is paragraph text (none interrupts a paragraph).
    for text in ("`a | b`\n--|--", "[x]: /u\n`a` [x]", "a|`b\n-|-\n`c", "`a`\n[x]: /u `b`"):
        found = _fresh(text).paragraph_spans()
        assert (found is None) == (text != "`a`\n[x]: /u `b`"), text
        full = _fresh(text).full()
        assert all(_fresh(text).in_code(p) == full.in_code(p) for p in range(len(text) + 1))
    for text in ("    `a`", "<x`y>`a`", "[x](`y`)"):
        assert _fresh(text).paragraph_spans() is None, text
    # A "<" that opens no autolink holding a backtick leaves the pairing to the spans (HTML
    # is off in the code parser): the 1 MB line of such tags and spans it parsed took 1.5 s.
    assert _fresh("<b>`a`</b> List<String> `c`").paragraph_spans() == [(3, 6), (24, 27)]
    assert _fresh("a < `b` > c").paragraph_spans() == [(4, 7)]
    # Nor do an escape of anything but a backtick, a pipe (a table needs a second line), or
    # "]:" after the line's start (a definition opens the line).
    assert _fresh("C:\\dir `a` x | y a]: b `c`").paragraph_spans() == [(7, 10), (23, 26)]
    for text in ("[x]: /u `a`", "  [x]: `a`", "[a\\]]: `b`"):
        assert _fresh(text).paragraph_spans() is None, text
    # An escaped backtick opens nothing; the run after it pairs as the parse pairs it.
    escaped = "\\`a` `b`"
    assert _fresh(escaped).paragraph_spans() == [(3, 6)]
    assert [(r.start, r.end) for r in _fresh(escaped).regions()] == [(3, 6)]
    # a tag at the start is no definition: its label would hold a "["
    assert _fresh("[[reply_to_current]]: `a`").paragraph_spans() == [(22, 25)]
    # A link or image skips its destination and title: only one holding a backtick there
    # changes the pairing.
    line = "see [docs](https://x.test/a_(b) 'T') and [x](/p.png) `c` [[reply_to_current]] `d`"
    full = _fresh(line).full()
    found = _fresh(line).paragraph_spans()
    assert found == [(53, 56), (78, 81)]
    assert [p for p in range(len(line)) if full.in_code(p)] == [*range(53, 56), *range(78, 81)]
    for text in ("[a](b`c) `d`", "[a](<b`c>) `d`", '[a](u "t`x") `d`', "[a](u (t`)) `d`"):
        assert _fresh(text).paragraph_spans() is None, text
    # An image's alt text keeps no code span for the reference (found in review), and the
    # parser reads NUL as U+FFFD, which a destination or an autolink may hold.
    for text in ("![`a`](b)", "[![`a`](b)](c)", "[a](b\x00`c) `z`", "<http://a\x00`b> `c`"):
        assert _fresh(text).paragraph_spans() is None, text
    # A destination in <…> holding a blank, then a title after a line break; a backslash
    # before a CRLF (the parser reads one escaped line break): both found in review.
    for text in ('[a](<b c>\n"`") `d`', "[a](b\\\r\nc`d) `e`", "[a](<b\\\r\n`c>) `d`"):
        full = _fresh(text).full()
        assert all(_fresh(text).in_code(p) == full.in_code(p) for p in range(len(text) + 1))
    assert _fresh("[a](<b `c>) `d`").paragraph_spans() is None


def test_one_line_shortcut_is_taken() -> None:
    # Not vacuous: a plain line with code spans is answered without the fence scan.
    cm = _fresh("[[reply_to_current]] ``b`` `a` x")
    assert cm.in_code(22) and not cm.in_code(0) and not cm.in_code(31)
    assert cm._fences is None and not cm.parsed


def test_few_runs_pair_as_the_width_index() -> None:
    import random

    rng = random.Random(20261203)
    tokens = ["`", "``", "```", "a", " "]
    several = 0
    for _ in range(3000):
        chunk = "".join(rng.choice(tokens) for _ in range(rng.randint(0, 40)))
        runs = spans.backtick_runs(chunk)
        assert spans._pair_few(runs) == spans._pair_indexed(runs), chunk
        several += len(runs) > 2
    assert several > 1000  # many chunks hold several runs


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
@pytest.mark.parametrize("explain", [False, True])
def test_a_reply_parses_each_text_once(monkeypatch: pytest.MonkeyPatch, explain: bool) -> None:
    # The reply stage and the delivery strip read the same split text when no reply tag is
    # removed: they share its map, where each once parsed it (parse_reply cost twice
    # parse_directives on a text only a parse can answer). A removed tag changes the text,
    # and the strip's text is then another.
    parses, _ = _count_parses(monkeypatch)
    lines = "a\n" * 40
    shapes = (
        "[x]: /u\n'\\" + lines + "`[[reply_to_current]]`",  # an escape in a definition's title
        # a table's row with an escaped pipe (the parse locates its cells)
        "| a | b |\n|---|---|\n" + lines + "`[[reply_to_current]]` \\| x",
        "[x]: /u\n'\\" + lines + "`[[reply_to_current]]` [[reply_to:m2]]",  # the tag removed
    )
    for text in shapes:
        parses.clear()
        reply = richout.parse_reply(text, explain=explain)
        assert len(parses) == len(set(parses)), text
        assert parses, "not vacuous: each shape is one only a parse answers"
        assert reply == richout.parse_reply(text, explain=explain)  # the outputs still equal
        assert reply.text.startswith("[x]: /u") or reply.text.startswith("| a |")


#: First lines that are, or nearly are, a link reference definition of one line, and lines
#: that may follow one: a title's openers, another definition, blocks, code spans.
_DEFINITION_LINES = [
    "[x]: /u",
    "[x]: /u \t",
    "[x]:/u",
    "   [x]: /u",
    "    [x]: /u",
    "[ ]: /u",
    "[\u00a0]: /u",
    "[x]: <u>",
    "[x]: /u 't'",
    "[x]: /u 't",
    "[x]:",
    "[x\\]]: /u",
    "[x]: /u(",
    "[x]: /u\\",
    "[x]: /u\u00a0",
    "[x]: /u`a",
    "[`x]: /u",
    "> [x]: /u",
    "[x][y]: /u",
    # a destination the parser's link validation refuses: no definition (review)
    "[`]: javascript:xfoo",
    "[x]: JavaScript:x",
    "[x]: vbscript:x",
    "[x]: file:/x",
    "[x]: data:x",
    "[x]: data:image/png;x",
    "[x]: javascriptx:y",
    "[x]: &#106;avascript:x",
    "[x]: /a&amp;b",
    "[a\u200bb]:|\t",  # a table's header when a delimiter row follows (review)
    "   [a b]:\thttp://x|",
    "[a|b]: /u",
]
_AFTER_DEFINITION = [
    # titles on the next line: closed at once, later, never, or with more after them
    "'a",
    "a'",
    "a' ",
    "a' x",
    '"',
    '"t" \t',
    "(t",
    "t)",
    "(t(u)",
    "a\\'",
    "'t'",
    "  'a `b",
    "t'\rfoo",  # a lone CR ends the title's line for the parser
    "'a\r# h",
    ":-:",
    "a `b",
    "``a`",
    "` c",
    "'t'",
    "  (t)",
    '"t',
    "\t't",
    "/u",
    "===",
    "---",
    "[y]: /v",
    "    x",
    "> q",
    "- i",
    "# h",
    "[x]",
    "[a][x] `",
    "``",
    "[[reply_to_current]]",
    "x]`",
    "",
]


@settings(max_examples=1500, deadline=None)
@given(
    st.sampled_from(_DEFINITION_LINES),
    st.lists(st.sampled_from(_AFTER_DEFINITION), min_size=1, max_size=6),
    st.sampled_from(["", "x\n\n", "```\nc\n```\n", "# h\n"]),
    _EOL,
)
def test_a_definition_opening_a_run_answers_as_the_parse(
    first: str, lines: list[str], before: str, eol: str
) -> None:
    # A run whose first line is a definition: its paragraph begins on the next line unless
    # that line opens a title (definitions.after_definition); everything else is the parse's.
    _assert_offsets_agree((before + first + "\n" + "\n".join(lines)).replace("\n", eol))


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_a_definition_opening_a_long_run_is_read_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: the run of 2,000 lines after the definition is paired, not parsed.
    parses, real = _count_parses(monkeypatch)
    for eol in ("\n", "\r\n"):
        text = ("[x]: /u\n" + "a\n" * 2000 + "`[[reply_to_current]]` [x]").replace("\n", eol)
        at = text.index("[[")
        assert CodeMap(text).in_code(at) and parses == []
        assert real(text).in_code(at)
        parses.clear()
    # A title on the next line: never closed, closed with more on its line, or closed a few
    # lines on, the paragraph's start is read; a backslash in it leaves it to the parse.
    tag = "`[[reply_to_current]]`"
    for titled, parsed in (
        ("[x]: /u\n'" + "a\n" * 2000 + tag, 0),
        ("[x]: /u\n'a\n" + "'a\n" * 2000 + tag, 0),
        ("[x]: /u\n(a\nb\nc)\n" + "a\n" * 2000 + tag + "\n[x]", 0),
        ("[x]: /u\n'a\\'\n" + "a\n" * 2000 + tag, 1),
    ):
        at = titled.index("[[")
        assert CodeMap(titled).in_code(at) == real(titled).in_code(at), titled[:20]
        assert len(parses) == parsed, titled[:20]
        parses.clear()


#: Lines of runs of paragraph text and "=" lines, and the lines just outside that shape.
_SETEXT_LINES = [
    "a",
    "a `b",
    "c` d",
    "``",
    "[[reply_to_current]] `x`",
    "=",
    "===",
    "=\t ",
    " =",
    "= =",
    "==x",
    "=\r",
    "a\r",
    "```",
    "~~~",
    "```a`b",
    "-",
    "---",
    "- a",
    "> q",
    "# h",
    "    x",
    "x | y",
    ":-|-",
    "[x]: /u",
    "<div>",
    "1. a",
    "",
]


@settings(max_examples=3000, deadline=None)
@given(
    st.sampled_from(["", "x\n\n", "- a\n\n", "> q\n", "```\nc\n```\n", "    c\n\n"]),
    st.lists(st.sampled_from(_SETEXT_LINES), min_size=1, max_size=10),
    _EOL,
)
def test_setext_headings_in_a_run_answer_as_the_parse(
    before: str, lines: list[str], eol: str
) -> None:
    # A run of top-level text lines and "=" lines (linescan.setext_underlines): each line's
    # paragraph lies between the underlines around it; any other run is read as before.
    _assert_offsets_agree((before + "\n".join(lines)).replace("\n", eol))


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_setext_headings_in_a_long_run_are_read_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: runs of headings and a tag in code after them are paired, not parsed.
    parses, real = _count_parses(monkeypatch)
    tag = "`[[reply_to_current]]` [[reply_to_current]]"
    lf_texts = ("a\n=\n" * 1000 + tag, "a\n" * 1000 + "===\n" + "a\n" * 1000 + tag)
    for text in [*lf_texts, *(t.replace("\n", "\r\n") for t in lf_texts)]:
        cm = CodeMap(text)
        answers = [cm.in_code(text.index("[[")), cm.in_code(text.rindex("[["))]
        assert answers == [True, False] and parses == []
        assert answers == [real(text).in_code(text.index("[[")), False]


# A long list right under a paragraph's lines (2026-12-07, third session): a column-0 bullet
# or ordered "1" item with content and no "|" ends any paragraph above it (INTERRUPTION),
# and a region that opens with one paragraph and then such an item reads its items as a
# region of items does (ItemRuns._past_paragraph). Over LOCAL_REACH no part reading
# answers, and such a streamed part went to the parser whole (4.2 s/MB).
_PARA_HEAD_PIECES = ["x", "`", "``", "[[reply_to:", "a|b", "<a", "[l](u)", " ", "\n", "1. ", "2. "]
_PARA_HEAD_PIECES += ["> ", "# ", "    ", "=", "-", "*", "\\", "\t", "\r", "]: /u", "```"]
_PARA_HEAD_PIECES += ["<div>", "<!-- ", "<pre>"]  # HTML blocks, which run to a blank line
_LIST_UNDER_LINES = ["- a `b\n", "- `c`\n", "1. x\n", "2. y `z\n", "  cont `w\n", "lazy `\n"]
_LIST_UNDER_LINES += [
    "- |-|\n",
    "* a|b\n",
    "+ \n",
    "-\n",
    "> q `\n",
    "# h\n",
    "  |-|\n",
    "-   d`\n",
]
_LIST_UNDER_LINES += ["01. e\n", "- - -\n", "    f`\n", "-\tg\n", "- a\r\n", "1) `h`\n"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["", "\n", "z\n\n", "- p\n\n", "> q\n\n", "```\n\n", "  - p\n\n"]),
    st.lists(st.sampled_from(_PARA_HEAD_PIECES), min_size=1, max_size=8).map("".join),
    st.lists(st.sampled_from(_LIST_UNDER_LINES), min_size=1, max_size=6).map("".join),
)
@example("", "[[reply_to:`1. ", "- a\n  MEDIA:[[reply_to:`1. \n")  # the streamed part
@example("", "x `a", "- b`\n")  # the item ends the paragraph: no span across it
@example("", "a |", "- |\n")  # a delimiter-like item under a "|" line: the parse's
@example("- p\n\n", "  x `a", "- b`\n")  # the paragraph in an item above: same answers
def test_a_long_list_under_a_paragraph_answers_as_the_full_parse(
    lead: str, head: str, items: str
) -> None:
    body = lead + head + "\n" + items * (4200 // len(items) + 1)
    for text in (body, body.replace("\n", "\r\n")):
        full = parse_code(text)
        with _parses_remembered():
            fast = _fresh(text)
            parsed = 0  # a text the readings leave to the parse is asked again a few times
            for pos in [*range(min(len(text), 400)), *range(len(text) - 100, len(text))]:
                assert fast.in_code(pos) == full.in_code(pos), (text[:300], pos)
                if fast.parsed:
                    parsed += 1
                    if parsed == 3:
                        break
                    fast = _fresh(text)


@pytest.mark.pure_python(why="counts calls of parse_code, which compiled code binds")
def test_a_long_list_under_a_paragraph_is_answered_without_a_parse(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not vacuous: over LOCAL_REACH, a paragraph line then a list reads without the parse.
    parses, real = _count_parses(monkeypatch)
    for text in (
        "[[reply_to:`1. \n" + "- a\n  MEDIA:[[reply_to:`1. \n" * 300,
        "x `1\n" + "- a `b\n  c` [[reply_to_current]]\n" * 300,
    ):
        _answered_without_a_parse(text, parses, real)
    assert any(_answered_without_a_parse("x `1\n" + "- a `b` c\n" * 600, parses, real))
