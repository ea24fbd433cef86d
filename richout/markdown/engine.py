"""The one place richout runs a CommonMark parser (markdown-it-py), with source offsets.

markdown-it reports block positions as line ranges and inline tokens with no positions at
all. richout needs code-point offsets in the *original* text, so this module:

* splits the original text into lines the way the parser does (``\\r\\n``, ``\\r``, ``\\n``);
* runs the block parser once with the inline pass disabled;
* re-runs the inline parser only on inline blocks that can hold what is asked for (a backtick
  for code spans, ``![`` for images), with a rule hook that records ``state.pos`` spans;
* maps inline-content offsets back to the source line by line (container prefixes removed by
  the block parser are recovered by locating each content line in its source line).
"""

from __future__ import annotations

import bisect
import importlib
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    # markdown-it-py is imported when a parser is first built (a reply that needs no code
    # parse never loads it).
    from markdown_it import MarkdownIt
    from markdown_it.rules_block.state_block import StateBlock
    from markdown_it.rules_inline.state_inline import StateInline
    from markdown_it.token import Token

from richout.text.chars import js_ltrim

__all__ = [
    "BlockStructure",
    "CodeParse",
    "ImageSpan",
    "Region",
    "SourceLines",
    "block_structure",
    "find_images",
    "parse_code",
]

#: Container nesting the parser follows before it stops descending (markdown-it's guard
#: against recursion); deeper content yields no code regions.
MAX_NESTING = 100

_LINE_BREAK = re.compile(r"\r\n?|\n")
#: The container marks that may open a line before a paragraph's text: block quote markers,
#: and list markers followed by a space, a tab or the line's end (``1.`` before an NBSP is
#: paragraph text, not a list item).
_CONTAINER_MARKS = re.compile(r"(?:[ \t]*(?:>|[-+*](?=[ \t]|$)|[0-9]{1,9}[.)](?=[ \t]|$)))*")
#: What may stand before a later line of the same paragraph: indentation and block quote
#: markers. A list marker there is paragraph text (a new item would end the paragraph).
_CONTINUATION_MARKS = re.compile(r"[ \t>]*")


class Region(NamedTuple):
    """A code region ``[start, end)`` in code points; ``block`` for fenced/indented code."""

    start: int
    end: int
    block: bool


class ImageSpan(NamedTuple):
    """One inline Markdown image: the whole ``![...](...)`` syntax and its destination."""

    start: int
    end: int
    destination: str


class SourceLines:
    """The original text split into CommonMark lines, with offsets."""

    __slots__ = ("lines", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        starts = [0]
        for m in _LINE_BREAK.finditer(text):
            starts.append(m.end())
        self.starts = starts
        # The parser turns NUL into U+FFFD before it splits lines; search the same spelling.
        self.lines = _LINE_BREAK.split(text.replace("\0", "\ufffd"))

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line`` (before its line break)."""
        return self.starts[line] + len(self.lines[line])

    def inline_mapper(self, content: str, first_line: int) -> Callable[[int], int]:
        """Map offsets in an inline block's ``content`` to offsets in the source text."""
        anchors: list[tuple[int, int]] = []  # (content offset of line start, source delta)
        cstart = 0
        # markdown-it-py trims a paragraph's content (_paragraph_trim), which also removes
        # leading lines of Unicode whitespace only (a lone NBSP line is not blank to
        # CommonMark): the content's first line is the first source line with other text
        # after its container marks ("- \u00a0" opens a list item whose paragraph starts
        # with such a line; on later lines only quote markers and indentation count).
        trim = _paragraph_trim()
        lines = self.lines
        marks_of = _CONTAINER_MARKS.match  # the paragraph's first line may open containers
        while first_line < len(lines) - 1:
            line = lines[first_line]
            marks = marks_of(line)
            if trim(line[marks.end() if marks is not None else 0 :]):
                break
            first_line += 1
            marks_of = _CONTINUATION_MARKS.match
        for i, cline in enumerate(content.split("\n")):
            line_no = first_line + i
            if line_no >= len(self.lines):
                break
            original = self.lines[line_no]
            stripped = js_ltrim(cline)
            found = original.find(stripped) if stripped else 0
            found = max(found, 0)
            lead = len(cline) - len(stripped)
            # content offset c (in this line) -> source offset starts[line] + found + (c - lead)
            anchors.append((cstart, self.starts[line_no] + found - lead - cstart))
            cstart += len(cline) + 1

        if not anchors:
            return lambda offset: offset
        # The anchor of the last content line starting at or before the offset (the first
        # line's before it): found by bisection, as a paragraph of 12k lines holds a code
        # span on each (a scan of the anchors per span was quadratic: 4.7 s on 470 KB).
        cstarts = [cs for cs, _ in anchors]

        def to_source(offset: int) -> int:
            k = bisect.bisect_right(cstarts, offset) - 1
            return offset + anchors[k if k > 0 else 0][1]

        return to_source


class CodeParse:
    """Code regions found by one full CommonMark parse (sorted, disjoint)."""

    __slots__ = ("block_ends", "block_starts", "blocks", "ends", "regions", "starts")

    def __init__(self, regions: list[Region]) -> None:
        self.regions = sorted(regions)
        self.starts = [r.start for r in self.regions]
        self.ends = [r.end for r in self.regions]
        self.blocks = [r for r in self.regions if r.block]
        self.block_starts = [r.start for r in self.blocks]
        self.block_ends = [r.end for r in self.blocks]

    def in_code(self, pos: int) -> bool:
        """Is ``pos`` inside a region?"""
        k = bisect.bisect_right(self.starts, pos) - 1
        return k >= 0 and pos < self.ends[k]

    def overlaps_block(self, start: int, end: int) -> bool:
        """Does ``[start, end)`` overlap a block (MEDIA.md 4.3: ``end > block.start``)?"""
        k = bisect.bisect_right(self.block_starts, start) - 1
        if k >= 0 and start < self.block_ends[k] and end > self.block_starts[k]:
            return True
        k += 1
        return k < len(self.blocks) and self.block_starts[k] < end


# --------------------------------------------------------------------------- parsers


def _hook(
    ruler: Any, name: str, make: Callable[[Callable[..., bool]], Callable[..., bool]]
) -> None:
    """Replace rule ``name`` by ``make(original)``, keeping the rule's terminator chains."""
    for r in ruler.__rules__:
        if r.name == name:
            # Ruler.at() resets "alt" unless told again: without it a fence would no longer
            # interrupt a paragraph.
            ruler.at(name, make(r.fn), {"alt": list(r.alt)})
            return
    raise LookupError(name)  # pragma: no cover - markdown-it always has these rules


def _fence_closed(state: StateBlock, start_line: int, markup: str) -> bool:
    """Did the fence opened at ``start_line`` end with a closing fence (not by EOF/container)?"""
    last = state.line - 1
    if last <= start_line:
        return False
    pos = state.bMarks[last] + state.tShift[last]
    end = state.eMarks[last]
    if state.sCount[last] - state.blkIndent >= 4 or pos >= end:
        return False
    ch = markup[0]
    run = pos
    while run < end and state.src[run] == ch:
        run += 1
    if run - pos < len(markup):
        return False
    while run < end and state.src[run] in " \t":
        run += 1
    return run == end


@cache
def _paragraph_trim() -> Callable[[str], str]:
    """How the installed markdown-it-py trims a paragraph's content: ``mdTrim`` (4.x, the
    characters JavaScript's ``trim`` removes: it keeps U+001C-U+001F and U+0085) or, before
    it, ``str.strip``. Read the other way, "\x1c\n`a`" mapped its code span past the text's
    end (found in review)."""
    try:
        from markdown_it.common.utils import mdTrim
    except ImportError:  # markdown-it-py 3.x
        return str.strip
    return mdTrim


def _join_surrogates(url: str) -> str:
    """``url`` with each surrogate pair spelled as two code points joined into one character.

    Text from JavaScript (or a lenient JSON decoder) may hold UTF-16 surrogates. To the
    reference a pair is one character and a lone half is encoded as U+FFFD; markdown-it-py's
    link normaliser (mdurl) handles lone halves the same way but hands a pair to
    ``urllib.parse.quote``, whose UTF-8 encoder refuses it. Joining pairs first gives the
    reference's encoding; the normalised URL only decides whether a link is valid, so no
    offset depends on it.
    """
    return url.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _surrogate_safe(normalize: Callable[[str], str]) -> Callable[[str], str]:
    """Wrap a markdown-it link normaliser so surrogates in a destination never raise."""

    def wrapped(url: str) -> str:
        if any("\ud800" <= ch <= "\udfff" for ch in url):
            url = _join_surrogates(url)
        return normalize(url)

    return wrapped


@cache
def _code_parser() -> MarkdownIt:
    """commonmark + GFM tables, HTML off; the inline pass only records code spans."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "maxNesting": MAX_NESTING})
    md.enable("table")
    # Links and autolinks still decide where code spans can start, so keep the normalisers
    # (validateLink reads their output) but make them safe for surrogates.
    md.normalizeLink = _surrogate_safe(md.normalizeLink)  # type: ignore[method-assign,assignment]
    md.normalizeLinkText = _surrogate_safe(md.normalizeLinkText)  # type: ignore[method-assign,assignment]
    md.core.ruler.disable(["inline", "text_join"])

    def fence_hook(fence: Callable[..., bool]) -> Callable[..., bool]:
        def rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
            n = len(state.tokens)
            ok = fence(state, start, end, silent)
            if ok and not silent:
                for tok in state.tokens[n:]:
                    if tok.type == "fence":
                        closed = _fence_closed(state, start, tok.markup)
                        tok.meta["closed"] = closed
                        # A container lowers lineMax while it parses its content: only the real
                        # end of the document lets an unclosed fence own the text's tail.
                        tok.meta["to_eof"] = not closed and state.line >= len(state.bMarks) - 1
            return ok

        return rule

    def backticks_hook(backticks: Callable[..., bool]) -> Callable[..., bool]:
        def rule(state: StateInline, silent: bool) -> bool:
            start = state.pos
            n = len(state.tokens)
            ok = backticks(state, silent)
            if (
                ok
                and not silent
                and len(state.tokens) > n
                and state.tokens[-1].type == "code_inline"
                # Image labels are parsed from a copy of the label; mdast drops their
                # children, so a code span in an image's alt text is not code for the
                # reference.
                and state.src is state.env["src"]
            ):
                state.env["spans"].append((start, state.pos))
            return ok

        return rule

    _hook(md.block.ruler, "fence", fence_hook)
    _hook(md.inline.ruler, "backticks", backticks_hook)
    return md


@cache
def _image_parser() -> MarkdownIt:
    """The reference's image scanner: commonmark preset (HTML on), no link normalisation."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING, "store_labels": True})
    md.core.ruler.disable(["inline", "text_join"])
    md.normalizeLink = lambda url: url  # type: ignore[method-assign]
    md.validateLink = lambda url: True  # type: ignore[method-assign]

    def image_hook(image: Callable[..., bool]) -> Callable[..., bool]:
        def rule(state: StateInline, silent: bool) -> bool:
            start = state.pos
            ok = image(state, silent)
            # Nested images are parsed from a copy of the outer label: only the outer source
            # owns offsets, and an image inside another image's label is not an attachment.
            # Reference-style images carry their label and stay text.
            if ok and not silent and state.src is state.env["src"]:
                tok = state.tokens[-1]
                if not tok.meta.get("label"):
                    state.env["images"].append((start, state.pos, str(tok.attrGet("src") or "")))
            return ok

        return rule

    _hook(md.inline.ruler, "image", image_hook)
    return md


@cache
def table_cell_limit() -> int | None:
    """How many cells markdown-it-py fills in for a table's short rows before it ends the
    table (``MAX_AUTOCOMPLETED_CELLS``, markdown-it-py 4), or None: no limit (version 3)."""
    # (The module: the package's name "table" is the rule function.)
    table = importlib.import_module("markdown_it.rules_block.table")
    limit = getattr(table, "MAX_AUTOCOMPLETED_CELLS", None)
    return limit if isinstance(limit, int) else None


def _table_cell(tokens: list[Token], i: int) -> bool:
    return i > 0 and tokens[i - 1].type in ("th_open", "td_open")


def parse_code(text: str, *, ends_document: bool = True) -> CodeParse:
    """Fenced, indented and inline code regions of ``text`` (one CommonMark parse).

    ``ends_document=False`` parses a piece of a longer text (see :mod:`richout.markdown.regions`):
    its end is where a container closed, not the document's end, so an unclosed fence that
    reaches it ends with its last line instead of owning the text's tail.
    """
    md = _code_parser()
    block_env: dict[str, Any] = {}
    tokens = md.parse(text, block_env)
    src = SourceLines(text)
    regions: list[Region] = []
    line_max = len(src.lines)
    row_cursor: dict[int, int] = {}
    for i, tok in enumerate(tokens):
        if tok.map is None:
            continue
        l0, l1 = tok.map
        if tok.type == "fence":
            line = src.lines[l0] if l0 < line_max else ""
            col = line.find(tok.markup)
            start = src.starts[l0] + max(col, 0)
            if tok.meta.get("closed"):
                end = src.line_end(l1 - 1)
            elif tok.meta.get("to_eof") and ends_document:
                end = len(text)
            else:
                end = src.line_end(max(l1 - 1, l0))
            regions.append(Region(start, end, True))
        elif tok.type == "code_block":
            regions.append(Region(src.starts[l0], src.line_end(l1 - 1), True))
        elif tok.type == "inline" and "`" in tok.content:
            content = tok.content
            env: dict[str, Any] = {**block_env, "src": content, "spans": []}
            md.inline.parse(content, md, env, [])
            if not env["spans"]:
                continue
            if _table_cell(tokens, i):
                # A table cell is one line holding several cells: locate this cell's text
                # after the previous cell of the same row.
                original = src.lines[l0]
                cur = row_cursor.get(l0, 0)
                found = original.find(content, cur)
                if found < 0:
                    found = max(original.find(content), 0)
                row_cursor[l0] = found + len(content)
                base = src.starts[l0] + found
                for a, b in env["spans"]:
                    regions.append(Region(base + a, base + b, False))
                continue
            to_source = src.inline_mapper(content, l0)
            for a, b in env["spans"]:
                regions.append(Region(to_source(a), to_source(b - 1) + 1, False))
        elif tok.type == "inline" and _table_cell(tokens, i):
            original = src.lines[l0]
            found = original.find(tok.content, row_cursor.get(l0, 0)) if tok.content else -1
            if found >= 0:
                row_cursor[l0] = found + len(tok.content)
    return CodeParse(regions)


def find_images(text: str) -> list[ImageSpan]:
    """Inline Markdown images of ``text`` in source order (the reference's image scanner)."""
    if "![" not in text:
        return []
    md = _image_parser()
    block_env: dict[str, Any] = {}
    tokens = md.parse(text, block_env)
    src = SourceLines(text)
    out: list[ImageSpan] = []
    for tok in tokens:
        if tok.type != "inline" or tok.map is None or "![" not in tok.content:
            continue
        content = tok.content
        images: list[tuple[int, int, str]]
        if IMAGE_RUN.fullmatch(content) is not None:
            images = [(m.start(), m.end(), m.group(1)) for m in SIMPLE_IMAGE.finditer(content)]
        else:
            env: dict[str, Any] = {**block_env, "src": content, "images": []}
            md.inline.parse(content, md, env, [])
            images = env["images"]
        if not images:
            continue
        to_source = src.inline_mapper(content, tok.map[0])
        for a, b, dest in images:
            out.append(ImageSpan(to_source(a), to_source(b - 1) + 1, dest))
    return out


#: An inline image markdown-it-py reads as written: a label of letters, digits, spaces and
#: ``. _ -`` (no bracket, escape, code span, tag or entity for its label parse to meet) and a
#: destination of URL characters with no parenthesis, angle bracket, quote, backslash,
#: ``&`` or whitespace, closed at once (no title). Its source is the destination as written.
SIMPLE_IMAGE = re.compile(r"!\[[A-Za-z0-9 ._-]*\]\(([A-Za-z0-9._~:/?#%=+@!$*,;-]+)\)")
#: An inline content made only of such images and blanks between them. find_images reads
#: its images lexically: markdown-it-py's inline parse of each image's label cost 25 us an
#: image (400 on one line: over the hostile-input budget). tests/test_engine_images.py
#: compares the two readings.
IMAGE_RUN = re.compile(rf"(?:{SIMPLE_IMAGE.pattern}[ \t\n]*)+")


class BlockStructure(NamedTuple):
    """Where CommonMark (HTML enabled) sees HTML blocks and list-item / block-quote containers.

    Spans are ``[start, end)`` in code points of the original text, sorted by start, each
    covering whole source lines; containers may nest, so their spans may overlap.
    """

    html: list[tuple[int, int]]
    containers: list[tuple[int, int]]


def block_structure(text: str) -> BlockStructure:
    """HTML blocks and list-item/block-quote spans of ``text`` (one block-level parse)."""
    md = _image_parser()
    tokens = md.parse(text, {})
    src = SourceLines(text)
    last = len(src.lines) - 1
    html: list[tuple[int, int]] = []
    containers: list[tuple[int, int]] = []
    for tok in tokens:
        if tok.map is None:
            continue
        if tok.type not in ("html_block", "list_item_open", "blockquote_open"):
            continue
        l0, l1 = tok.map
        if l0 > last:
            continue
        span = (src.starts[l0], src.line_end(min(max(l1 - 1, l0), last)))
        (html if tok.type == "html_block" else containers).append(span)
    return BlockStructure(html, sorted(containers))
