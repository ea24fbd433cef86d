"""§17.4-§17.5: what a honoured line does to the Markdown around it, and images left as text.

§17.4 warns when a directive line was honoured although a Markdown renderer sees it inside
an HTML block, a list item or block quote, or a multi-line code span, and when removing a
line changed its neighbours (an indented code block, a setext heading, a dangling hard
break). The CommonMark views it needs are asked for only when a honoured directive exists
and the text holds something that could open them. §17.5 explains the Markdown images the
image step saw and did not lift, or did not consider.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from richout.markdown.codemap import CodeMap
from richout.markdown.engine import block_structure
from richout.media.explain_lines import shown
from richout.media.lines import DirectiveLine, LineChange, Walk
from richout.models.diagnostics import Diagnostics
from richout.policy import strip_file_prefix
from richout.text.chars import js_trim

__all__ = ["images", "open_after", "structure"]

_CONTAINER_START = re.compile(r"(?m)^[ \t]*(?:>|[-*+](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$))")
_HTML_START = re.compile(r"(?m)^ {0,3}<")
_BLANK_LINE = re.compile(r"(?m)^[ \t\r]*\n")
_BACKTICK_RUN = re.compile("`+")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*\r?")


def _merged(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(spans):
        if ends and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends


def _covers(index: tuple[list[int], list[int]], a: int, b: int) -> bool:
    starts, ends = index
    k = bisect.bisect_right(starts, a) - 1
    return k >= 0 and b <= ends[k]


def _columns(line: str) -> int:
    col = 0
    for ch in line:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
        if col >= 4:
            break
    return col


def _blank_ends(raw: str) -> list[int]:
    """Offsets just after each blank line of ``raw``."""
    return [m.end() for m in _BLANK_LINE.finditer(raw)]


def _html_possible(raw: str, honoured: list[DirectiveLine]) -> bool:
    """Could an HTML block hold a honoured line? Only if some earlier line starts with ``<``."""
    if "<" not in raw:
        return False
    m = _HTML_START.search(raw, 0, honoured[-1].start)
    return m is not None


def _container_possible(
    raw: str, honoured: list[DirectiveLine], blanks: Callable[[], list[int]]
) -> bool:
    """Could a list item or block quote hold a honoured line (without parsing)?

    A line starting with ``MEDIA:`` is inside a container only as a continuation: indented
    (2+ columns, under a list item) or lazily continuing a paragraph that is itself in a
    container, which then has a marker line or starts indented. Paragraph scans are
    remembered, so many directives in one paragraph stay linear.
    """
    first = _CONTAINER_START.search(raw)
    if first is None:
        return False
    blank_ends = blanks()
    memo: dict[int, tuple[int, bool]] = {}
    for d in honoured:
        if d.start <= first.start():
            continue
        if _columns(raw[d.start : d.match]) >= 2:
            return True
        k = bisect.bisect_right(blank_ends, d.start) - 1
        lo = blank_ends[k] if k >= 0 else 0
        if lo == d.start:
            continue  # a paragraph of its own, outside any container
        if _columns(raw[lo : lo + 4]) >= 2:
            return True
        scanned, found = memo.get(lo, (lo, False))
        if not found and scanned < d.start:
            found = _CONTAINER_START.search(raw, scanned, d.start) is not None
            memo[lo] = (d.start, found)
        if found:
            return True
    return False


class _SpanGate:
    """Could an inline code span be open where a line starts? (A cheap, conservative test.)

    A code span covering a line that starts with ``MEDIA:`` opens earlier in the same
    paragraph. Pairing backtick runs the way CommonMark does (a run opens, the next run of
    the same length closes) shows whether one is still open; escapes and ``<`` (autolinks)
    can change the pairing, so they make the answer "maybe" and the code map decides.
    State is kept per paragraph, so many directives in one paragraph stay linear.
    """

    def __init__(self, raw: str, blank_ends: list[int]) -> None:
        self.raw = raw
        self.blank_ends = blank_ends
        self.state: dict[int, tuple[int, int, bool]] = {}  # lo -> (scanned, open, unsafe)

    def may_be_open(self, line_start: int, pos: int) -> bool:
        raw = self.raw
        k = bisect.bisect_right(self.blank_ends, line_start) - 1
        lo = self.blank_ends[k] if k >= 0 else 0
        scanned, open_len, unsafe = self.state.get(lo, (lo, 0, False))
        if scanned < pos and not unsafe:
            if raw.find("`", scanned, pos) >= 0:
                if "<" in raw[scanned:pos] or "\\`" in raw[max(lo, scanned - 1) : pos]:
                    unsafe = True
                else:
                    open_len = open_after(raw, scanned, pos, open_len)
            self.state[lo] = (pos, open_len, unsafe)
        return unsafe or open_len != 0


def open_after(raw: str, a: int, b: int, open_len: int) -> int:
    """The length of the backtick run left open (0: none) once the runs of ``raw[a:b]`` are
    paired after ``open_len`` (a run opens when none is open; the next of its length closes).

    Runs all of one length (a paragraph of fence-like lines: 40k runs before a directive
    line in the corpus) alternate, so their count decides, read in C; any other mix is
    paired run by run."""
    runs = _BACKTICK_RUN.findall(raw, a, b)
    lengths = set(map(len, runs))
    if len(lengths) == 1:
        (n,) = lengths
        odd = len(runs) % 2 == 1
        if open_len == 0:
            return n if odd else 0
        if open_len == n:
            return 0 if odd else n
        return open_len  # no run of another length closes it, or opens while it is open
    for run in runs:
        n = len(run)
        if open_len == 0:
            open_len = n
        elif n == open_len:
            open_len = 0
    return open_len


def structure(diag: Diagnostics, walk: Walk, raw: str, cmap: Callable[[], CodeMap]) -> None:
    """§17.4: HTML blocks, code spans, containers, and neighbours of removed lines."""
    honoured = [d for d in walk.directives if d.outcome != "kept"]
    if not honoured:
        return
    box: list[list[int]] = []

    def blanks() -> list[int]:
        if not box:
            box.append(_blank_ends(raw))
        return box[0]

    if _html_possible(raw, honoured) or _container_possible(raw, honoured, blanks):
        bs = block_structure(raw)
        html_index = _merged(bs.html)
        box_index = _merged(bs.containers)
        for d in honoured:
            if _covers(html_index, d.start, d.end):
                diag.add(
                    "media.in_html_block",
                    "warning",
                    "this MEDIA: line was honoured although a Markdown renderer sees it inside "
                    "an HTML block; move the directive out of the HTML",
                    d.start,
                    d.end,
                )
            if _covers(box_index, d.start, d.end):
                diag.add(
                    "media.lazy_continuation",
                    "info",
                    "this MEDIA: line was honoured although a Markdown renderer sees it inside "
                    "a list item or block quote (continuation line); put a blank line before "
                    "it to keep it outside",
                    d.start,
                    d.end,
                )
    if "`" in raw:
        spans = _SpanGate(raw, blanks())
        for d in honoured:
            if spans.may_be_open(d.start, d.match) and cmap().in_code(d.match):
                diag.add(
                    "media.in_code_span",
                    "warning",
                    "this MEDIA: line was honoured although it lies inside a multi-line inline "
                    "code span; use a fenced code block to show a directive literally",
                    d.start,
                    d.end,
                )
    removed = [d for d in walk.directives if d.line_removed]
    if removed:
        _neighbours(diag, walk, raw, removed)


_NONBLANK = re.compile(r"[^ \t\r]")
#: A neighbouring line: its ``(start, end)`` in the text, or the string it was changed to.
_Line = tuple[int, int] | str


_UNASKED = object()


def _neighbours(diag: Diagnostics, walk: Walk, raw: str, removed: list[DirectiveLine]) -> None:
    """media.structure_changed: what the lines around a removed directive line become.

    Lines are ``\n``-delimited here, so in a text of CR-only lines the line before (after) a
    directive is everything before (after) it. The lines are kept as ranges of ``raw`` and
    asked only bounded questions (blank? leading columns? an underline? a trailing hard
    break?): copying them cost the rest of the text per directive (quadratic).
    """
    around = _Around(raw, {ch.start: ch for ch in walk.changes})
    prev_of, next_of = around.kept_neighbours(removed)
    # The neighbours last asked about (None is a neighbour too: the text's edge, shared by
    # a reply made only of directive lines, which asked once per line before).
    asked: tuple[object, object, str | None] = (_UNASKED, _UNASKED, None)
    for d in removed:
        prev = prev_of[d.start]
        nxt = next_of[d.end]
        if prev is asked[0] and nxt is asked[1]:
            why = asked[2]  # a block of removed lines shares its neighbours, and the answer
        else:
            why = around.changed_by_removal(prev, nxt)
            asked = (prev, nxt, why)
        if why is not None:
            diag.add(
                "media.structure_changed",
                "warning",
                f"removing this MEDIA: line changed the Markdown around it: {why}; put a blank "
                "line before and after the directive",
                d.start,
                d.end,
            )


class _Around:
    """The ``\n``-delimited lines around removed directive lines, and what is asked of them.

    Line feeds are searched only between consecutive queries (asked in increasing order
    before, decreasing after): with few line feeds, a search to the text's edge per
    directive was quadratic.
    """

    def __init__(self, raw: str, changes: dict[int, LineChange]) -> None:
        self.raw = raw
        self.n = n = len(raw)
        #: the walk's changed lines by start (a ``None`` replacement: the line was removed)
        self.changes = changes
        self.first_nonblank: dict[int, int] = {}
        self.lf_before = [0, -1]  # [searched up to, last "\n" before it]
        self.lf_after = [n, n]  # [searched down to, first "\n" at or after it]

    def kept_neighbours(
        self, removed: list[DirectiveLine], *, share: bool = True
    ) -> tuple[dict[int, _Line | None], dict[int, _Line | None]]:
        """The nearest line that stays before each removed line (by its start) and after it
        (by its end); None at the text's edge. Removed neighbours are skipped over.

        ``share``: a removed line that is a whole ``\n``-delimited line, right after (before)
        another such, takes that one's neighbour without searching (a block of directive
        lines); the same answer as the search (``tests/test_media_explain_structure.py``).
        """
        prev_of: dict[int, _Line | None] = {}
        raw = self.raw
        n = self.n
        last: DirectiveLine | None = None
        for d in removed:
            if (
                share
                and last is not None
                and last.end + 1 == d.start
                and raw[last.end] == "\n"
                and (last.start == 0 or raw[last.start - 1] == "\n")
            ):
                # The line before d is all of last, which was removed: line_before would
                # find last's start and defer to last's own neighbour.
                prev_of[d.start] = prev_of[last.start]
                last = d
                continue
            last = d
            info = self.line_before(d.start)
            if info is None:
                prev_of[d.start] = None
            elif info[1] is None:
                prev_of[d.start] = prev_of.get(info[0])
            else:
                prev_of[d.start] = info[1]
        next_of: dict[int, _Line | None] = {}
        last = None
        for d in reversed(removed):
            if (
                share
                and last is not None
                and d.end + 1 == last.start
                and raw[d.end] == "\n"
                and (last.end == n or raw[last.end] == "\n")
            ):
                next_of[d.end] = next_of[last.end]
                last = d
                continue
            last = d
            info = self.line_after(d.end)
            if info is None:
                next_of[d.end] = None
            elif info[1] is None:
                next_of[d.end] = next_of.get(info[0])
            else:
                next_of[d.end] = info[1]
        return prev_of, next_of

    def changed_by_removal(self, prev: _Line | None, nxt: _Line | None) -> str | None:
        """What removing the lines between ``prev`` and ``nxt`` (kept neighbours; None at
        the text's edge) did to the Markdown around them, or None."""
        prev_blank = prev is None or self.blank(prev)
        if nxt is not None and not self.blank(nxt) and self.indented(nxt) and prev_blank:
            return "the next line is indented by 4+ columns and now starts an indented code block"
        if nxt is not None and not prev_blank and self.underline(nxt):
            return "the next line now underlines the previous one as a setext heading"
        if prev is not None and self.hard_break(prev):
            return "the previous line ends with a hard line break that now has nothing to break"
        return None

    def line_before(self, ls: int) -> tuple[int, _Line | None] | None:
        """(start, the line or None when removed) of the line before ``ls``."""
        if ls == 0:
            return None
        raw = self.raw
        lf_before = self.lf_before
        pe = ls - 1
        if pe < lf_before[0]:
            lf_before[1] = raw.rfind("\n", 0, pe)
        else:
            k = raw.rfind("\n", lf_before[0], pe)
            if k >= 0:
                lf_before[1] = k
        lf_before[0] = pe
        pls = lf_before[1] + 1
        ch = self.changes.get(pls)
        return pls, ((pls, pe) if ch is None else ch.replacement)

    def line_after(self, le: int) -> tuple[int, _Line | None] | None:
        """(end, the line or None when removed) of the line after ``le``."""
        n = self.n
        if le >= n:
            return None
        raw = self.raw
        lf_after = self.lf_after
        ns = le + 1
        if ns > lf_after[0]:
            k = raw.find("\n", ns)
            lf_after[1] = n if k < 0 else k
        else:
            k = raw.find("\n", ns, lf_after[0])
            if k >= 0:
                lf_after[1] = k
        lf_after[0] = ns
        ne = lf_after[1]
        ch = self.changes.get(ns)
        return ne, ((ns, ne) if ch is None else ch.replacement)

    def blank(self, line: _Line) -> bool:
        """``not line.strip(" \t\r")``."""
        if isinstance(line, str):
            return not line.strip(" \t\r")
        a, b = line
        # Lines before directives sharing a start (CR-only text) share this search.
        q = self.first_nonblank.get(a)
        if q is None:
            m = _NONBLANK.search(self.raw, a)
            q = self.first_nonblank[a] = self.n if m is None else m.start()
        return q >= b

    def indented(self, line: _Line) -> bool:
        """``_columns(line) >= 4`` (at most four characters decide)."""
        if isinstance(line, str):
            return _columns(line) >= 4
        return _columns(self.raw[line[0] : min(line[1], line[0] + 4)]) >= 4

    def underline(self, line: _Line) -> bool:
        """Is ``line`` a setext heading underline?"""
        if isinstance(line, str):
            return _SETEXT.fullmatch(line) is not None
        return _SETEXT.fullmatch(self.raw, line[0], line[1]) is not None

    def hard_break(self, line: _Line) -> bool:
        """``line.rstrip("\r").endswith(...)``."""
        ends = ("  ", "\t ", " \t", "\\")
        if isinstance(line, str):
            return line.rstrip("\r").endswith(ends)
        raw = self.raw
        a, e = line
        while e > a and raw[e - 1] == "\r":
            e -= 1
        return raw.endswith(ends, a, e)


# --------------------------------------------------------------------------- images


def images(diag: Diagnostics, walk: Walk, allowlist: dict[str, str] | None) -> None:
    """§17.5 for the lines the image step saw."""
    for line in walk.image_lines:
        lifted = {im.start for im, _ in line.lifted}
        for im in line.images:
            if im.start in lifted:
                continue
            target = strip_file_prefix(js_trim(im.destination))
            if allowlist is not None:
                why = (
                    "the image allowlist is empty"
                    if not allowlist
                    else f"{shown(target)} is not in the image allowlist"
                )
            elif not target[:8].lower().startswith(("http://", "https://")):
                why = f"{shown(target)} is not an https:// URL (local images are not lifted)"
            else:
                verdict = walk.judge.verdict(target)
                why = verdict.reason if not verdict.ok else "it was not accepted"
            diag.add(
                "media.image.not_lifted",
                "info",
                f"this Markdown image stays in the text: {why}; use a public https:// URL "
                "or a MEDIA: line",
                im.start,
                im.end,
            )
    for im, why in walk.skipped_images:
        reason = {
            "spans": "it spans more than one line",
            "long": "with the lines it spans it is longer than 20,000 UTF-16 units",
            "directive": "it starts on a MEDIA: line, which is read as a directive",
        }.get(why, "only the first 50 images of a line are considered")
        diag.add(
            "media.image.limit",
            "warning",
            f"this Markdown image was not considered: {reason}; it stays in the text",
            im.start,
            im.end,
        )
    for ls, le in walk.long_image_lines:
        diag.add(
            "media.image.limit",
            "warning",
            "Markdown images on a line longer than 20000 UTF-16 units are not considered; "
            "they stay in the text; break the line",
            ls,
            le,
        )
