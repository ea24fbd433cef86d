"""find_images reads a line of simple inline images lexically (engine.IMAGE_RUN): it must
give exactly what markdown-it-py's inline parse gives, wherever the lexical reading answers.

The drawn images mix the characters the lexical reading admits with those it must refuse
(brackets, escapes, backticks, angle brackets, entities, quotes, parentheses, blanks), and the
texts put the lines in the block contexts a reply has (paragraphs, lists, quotes, headings,
tables, code), so both readings are compared where the difference would show.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from richout.markdown import engine
from richout.markdown.engine import IMAGE_RUN, SIMPLE_IMAGE, _image_parser, find_images

# Pieces the lexical reading admits, and pieces it must refuse (each a way the parse could
# read differently); most draws are admitted ones, so many runs are read lexically.
_LABEL_OK = ["a", "b1", " ", ".", "_", "-"]
_LABEL_NOT = ["[", "]", "\\", "`", "<b>", "&amp;", "*", "!", "![x](y)", "\n"]
_DEST_OK = [
    "a",
    "https://x.test/",
    "p.png",
    "?q=1",
    "#f",
    "%20",
    "+",
    "@",
    "!",
    "$",
    "*",
    ",",
    ";",
    "~",
    "-",
    ":",
]
_DEST_NOT = ["(", ")", "<", ">", " ", '"', "'", "\\", "&amp;", "&#41;", "\t", "\n"]


def _drawn(ok: list[str], bad: list[str]) -> st.SearchStrategy[str]:
    """An admitted piece seven times in eight, else one to refuse."""
    return st.sampled_from([True] * 7 + [False]).flatmap(
        lambda admitted: st.sampled_from(ok if admitted else bad)
    )


def _pieces(ok: list[str], bad: list[str], min_size: int) -> st.SearchStrategy[str]:
    return st.lists(_drawn(ok, bad), min_size=min_size, max_size=4).map("".join)


_LABEL = _pieces(_LABEL_OK, _LABEL_NOT, 0)
_DEST = _pieces(_DEST_OK, _DEST_NOT, 1)
_IMAGE = st.builds(lambda label, dest: f"![{label}]({dest})", _LABEL, _DEST)
_SEP = _drawn([" ", "  ", "\t", "\n", "", " \n "], [" x ", "\\", "`", "[", "<b>", "&amp;"])
_RUN = st.lists(st.tuples(_IMAGE, _SEP), min_size=1, max_size=6).map(
    lambda pairs: "".join(image + sep for image, sep in pairs)
)


def _parsed(content: str) -> list[tuple[int, int, str]]:
    """The images markdown-it-py's inline parse records for ``content`` (find_images's
    general reading)."""
    md = _image_parser()
    env: dict[str, Any] = {"src": content, "images": []}
    md.inline.parse(content, md, env, [])
    return list(env["images"])


@settings(max_examples=1500, deadline=None)
@given(_RUN)
def test_a_run_of_simple_images_reads_as_the_inline_parse_reads_it(content: str) -> None:
    if IMAGE_RUN.fullmatch(content) is None:
        return
    lexical = [(m.start(), m.end(), m.group(1)) for m in SIMPLE_IMAGE.finditer(content)]
    assert lexical == _parsed(content)


_NEVER = re.compile(r"(?!)")
_CONTEXT = st.sampled_from(
    ["", "- ", "1. ", "> ", "# ", "    ", "| a | b |\n|---|---|\n| ", "```\n"]
)


@settings(max_examples=600, deadline=None)
@given(st.lists(st.tuples(_CONTEXT, _RUN), min_size=1, max_size=4))
def test_find_images_with_and_without_the_lexical_reading_agree(
    lines: list[tuple[str, str]],
) -> None:
    text = "\n".join(context + run for context, run in lines)
    fast = find_images(text)
    gate = engine.IMAGE_RUN
    engine.IMAGE_RUN = _NEVER
    try:
        general = find_images(text)
    finally:
        engine.IMAGE_RUN = gate
    assert fast == general


def test_the_lexical_reading_answers_the_hostile_line() -> None:
    """The corpus's 400 images on one line take the lexical reading (and give 400 images)."""
    line = " ".join(f"![i](https://cdn.example.com/{i}.png)" for i in range(400))
    assert IMAGE_RUN.fullmatch(line) is not None
    images = find_images(line)
    assert [im.destination for im in images] == [
        f"https://cdn.example.com/{i}.png" for i in range(400)
    ]
