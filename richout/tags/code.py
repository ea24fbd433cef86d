"""Code awareness for the tag stages: one :class:`CodeMap` per stage text, asked sparingly.

A tag stage asks "is this ``[[`` in code?" a few times per text, and §5.1 asks about one
leading blank and the whitespace tail. The code map answers exactly; the full CommonMark
parse behind it costs milliseconds, so the questions go through exact shortcuts first. They
rest on facts about where code can be:

* an inline code span opens at a backtick before the position and closes at one after it,
  inside one paragraph, so it never spans a blank line;
* a fenced block needs a run of three backticks or tildes;
* an indented block needs four columns of indentation after its containers, that is four
  consecutive spaces or a tab before its content on the line;
* no inline span ends in whitespace, and a closed fence or an indented block ends before the
  line break of its last line: a whitespace tail holding a line break can only belong to a
  fence left open to the end of the text.

Whatever the shortcuts cannot settle goes to the code map (its own fast paths, then the
parse). A property test compares every answer with the full parse.
"""

from __future__ import annotations

from richout.markdown.codemap import CodeMap
from richout.markdown.linescan import CONTAINERISH
from richout.markdown.reach import span_reach
from richout.markdown.spans import in_spans
from richout.markdown.ticks import TickGaps
from richout.tags.scan import Finder
from richout.text.chars import contains

__all__ = ["StageCode"]

#: Texts up to this long are paired up front whatever their lines (a streamed part of 64
#: characters asks each tag of its spans; one of several lines asks its reach first);
#: longer ones once a question reaches the map.
_PART_MAX = 256
#: :attr:`StageCode._reach` before it is read.
_UNREAD: list[tuple[int, int]] = []


class StageCode:
    """The code regions of one stage text (the map is built on the first hard question)."""

    __slots__ = (
        "_fences",
        "_gaps",
        "_indent",
        "_like",
        "_line_start",
        "_lines",
        "_map",
        "_no_code",
        "_paragraph",
        "_paragraph_asked",
        "_prefix",
        "_reach",
        "text",
    )

    def __init__(
        self, text: str, code_map: CodeMap | None = None, like: StageCode | CodeMap | None = None
    ) -> None:
        """``code_map``: a map of exactly ``text``. ``like``: the code of the text this one
        was made from (a stage's input), whose map, when one was built, this one's fence scan
        resumes where the texts agree (:class:`~richout.markdown.fences.FenceScan`)."""
        self.text = text
        self._map = code_map
        self._like = like
        self._fences: bool | None = None
        self._indent: bool | None = None
        self._gaps: TickGaps | None = None  # built on the first question that needs it
        self._lines: Finder | None = None
        # (position asked last, start of its line on U+000A, start of its CommonMark line):
        # questions come left to right, so line starts are found by looking back only over
        # what is new.
        self._line_start = (0, 0, 0)
        # (line start, position checked up to, dirty): the indentation prefix, same idea.
        self._prefix = (-1, 0, False)
        # No backtick, fence run, tab or four spaces: no code region anywhere.
        self._no_code: bool | None = None
        # The map's code spans of a text that is one paragraph (CodeMap.paragraph_spans);
        # None: not asked yet, or the text is not such a paragraph.
        self._paragraph: list[tuple[int, int]] | None = None
        self._paragraph_asked = False
        # Where a code span could lie, whatever the blocks (span_reach); None: unknown.
        self._reach: list[tuple[int, int]] | None = _UNREAD

    def map(self) -> CodeMap:
        """The code map of the text (built once)."""
        if self._map is None:
            like, self._like = self._like, None
            self._map = CodeMap(self.text, like.built() if isinstance(like, StageCode) else like)
        return self._map

    def built(self) -> CodeMap | None:
        """The code map, when a question built it (or the caller gave it), else None."""
        return self._map

    # ------------------------------------------------------------------ text facts

    def has_fences(self) -> bool:
        """Could the text hold a fenced block (a run of three backticks or tildes)?"""
        if self._fences is None:
            # Substring tests found from their first character (contains()); a regex
            # alternation tries every offset.
            self._fences = contains(self.text, "```") or contains(self.text, "~~~")
        return self._fences

    def inline_only(self) -> bool:
        """True when the text cannot hold a fenced or indented code block."""
        if self._indent is None:
            self._indent = "\t" in self.text or "    " in self.text
        return not (self._indent or self.has_fences())

    def _may_be_inline(self, pos: int) -> bool:
        """Could an inline code span cover ``pos``? (:class:`TickGaps`, built once.)"""
        gaps = self._gaps
        if gaps is None:
            gaps = self._gaps = TickGaps(self.text)
        return gaps.may_cover(pos)

    def _starts_of_line(self, pos: int) -> tuple[int, int]:
        """Start of ``pos``'s line split on U+000A only, and split as CommonMark does."""
        asked, nl_start, cm_start = self._line_start
        text = self.text
        lo = asked if asked <= pos else 0
        if lo == 0:
            nl_start = cm_start = 0
        lf = text.rfind("\n", lo, pos)
        if lf >= 0:
            nl_start = lf + 1
        cm_start = max(cm_start, nl_start, text.rfind("\r", lo, pos) + 1)
        self._line_start = (pos, nl_start, cm_start)
        return nl_start, cm_start

    def _clean_prefix(self, pos: int) -> bool:
        """Is ``pos``'s line certainly not indented code?

        Indented code has a tab or four spaces before its content, and everything before the
        content is container markers and blanks; so it is enough that neither occurs up to
        ``pos`` or, when ``pos`` lies in the line's leading run of such characters, up to the
        end of that run.
        """
        text = self.text
        start = self._starts_of_line(pos)[1]
        line, upto, dirty = self._prefix
        if line == start:
            if dirty or pos <= upto:
                return not dirty
            lo = max(start, upto - 3)  # a run of four may straddle the last check
        else:
            lo = start
            lead = CONTAINERISH.match(text, start)
            lead_end = lead.end() if lead else start
            if lead_end >= len(text) or text[lead_end] in "\r\n":
                # A blank line (after any container markers) belongs to whatever block
                # surrounds it: indented code continues across it, so only the map can tell.
                self._prefix = (start, lead_end, True)
                return False
            pos = max(pos, lead_end)
        piece = text[lo:pos]
        dirty = "\t" in piece or "    " in piece
        self._prefix = (start, pos, dirty)
        return not dirty

    # ------------------------------------------------------------------ questions

    def in_code(self, pos: int) -> bool:
        """Is ``pos`` inside a code region of the text?"""
        no_code = self._no_code
        if no_code is None:
            no_code = self._no_code = "`" not in self.text and self.inline_only()
        if no_code:
            return False  # asked once per tag head: a run of 80k heads asks 80k times
        spans = self._paragraph
        if (
            spans is None
            and not self._paragraph_asked
            and ("\n" not in self.text or len(self.text) <= _PART_MAX)
        ):
            reach = self._reach
            if reach is _UNREAD:
                # Several lines only: a line is one paragraph, paired below for less.
                lines = "\n" in self.text and len(self.text) <= _PART_MAX
                # Only a text without blocks keeps its reach, so that is asked first: a short
                # reply with a fence read its spans' reach to drop it (2 µs of a 70 µs split),
                # and the answer (four substring tests) is kept for the questions below.
                reach = span_reach(self.text) if lines and self.inline_only() else None
                self._reach = reach
            if reach is not None and not in_spans(reach, pos, len(self.text)):
                # Most tags of a streamed part: no reading of its lines puts a code span
                # here, so the map (the part's block structure, then its spans) is not built.
                return False
            # A one-line or short text (a streamed part, most often) pairs its backticks
            # once and answers every question from the spans: the checks below, then the
            # map, cost four calls per tag. Asked once: pairing a long line is linear in the
            # line, and a short text's lines are few.
            self._paragraph_asked = True
            # (CRs too: the map pairs a text of CRLF or lone-CR lines as its LF twin; parts
            # of a CRLF quote skipped this and asked the map per tag, 12% slower streamed.)
            if not self.map().parsed:
                spans = self._paragraph = self.map().paragraph_spans()
        if spans is not None:
            return in_spans(spans, pos, len(self.text))
        codes = self._map
        if (codes is not None and codes.parsed) or self._may_be_inline(pos):
            if not self._paragraph_asked:
                # Several lines, and the map is asked anyway: when they are one paragraph,
                # its spans answer this question and every later one. (Asked up front, the
                # map and the paragraph check cost replies whose tags are far from code.)
                self._paragraph_asked = True
                spans = self._paragraph = self.map().paragraph_spans()
                if spans is not None:
                    return in_spans(spans, pos, len(self.text))
            return self.map().in_code(pos)
        # Not in an inline span: only a block can hold it.
        if self.inline_only():
            return False
        if not self.has_fences() and self._clean_prefix(pos):
            return False  # no fenced block anywhere, and this line is not indented code
        start = self._starts_of_line(pos)[0]
        if self._lines is None:
            self._lines = Finder(self.text, "\n")
        end = self._lines.find(pos)
        codes = self.map()
        return codes.line_in_block(start, end) and codes.in_code(pos)

    def owns_tail(self, content_end: int) -> bool:
        """Does a code region starting at or before ``content_end`` run to the text's end?"""
        text = self.text
        if self._map is None or not self._map.parsed:
            if self.inline_only():
                return False
            tail = text[content_end:]
            # Past a line break only a fence can own the tail: indented code ends at its last
            # non-blank line. A tail of more than spaces, tabs and breaks holds such a line
            # (U+00A0 is whitespace to JavaScript, not to CommonMark).
            if (
                ("\n" in tail or "\r" in tail)
                and not tail.strip(" \t\r\n")
                and not self.has_fences()
            ):
                return False
        codes = self.map()
        n = len(text)
        if not codes.parsed and not text.endswith("`"):
            # Only a block can run to an end that is no backtick (a code span ends with its
            # closing run), and a block starting at or before content_end overlaps the line
            # holding it: when no block overlaps that line, the line checks answer without
            # the parse the position question needed there (a list item as the last line).
            ls = text.rfind("\n", 0, content_end) + 1
            le = text.find("\n", content_end)
            if not codes.line_in_block(ls, n if le < 0 else le):
                return False
        # Such a region contains content_end: the cheap question first.
        if not codes.in_code(content_end):
            return False
        # A top-level fence the line scan sees whole answers without parsing (10k unclosed
        # fences after the last tag cost a 60 KB parse here).
        fenced = codes.block_to_end(content_end)
        if fenced is not None:
            return fenced
        return any(r.start <= content_end and r.end == n for r in codes.regions())
