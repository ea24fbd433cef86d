"""The steps of :func:`richout.extract_embeds`, without its argument checks.

:func:`extract` pre-scans the shortcodes outside code, reads each handled opener, turns it
into a preview and removes the shortcodes that made one; :func:`removal_patch` is the edit
list of those removals. :mod:`richout.embed.parse` holds the public function; this module is
apart so that the optional compiled build can compile it (a compiled public function would
raise ``TypeError`` for a wrongly typed argument, where richout's contract is
``InvalidInput``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from richout.embed.attributes import final_attributes, parse_opener
from richout.embed.diagnostics import Skip, explain_rest, explain_shortcode, legacy_diagnostics
from richout.embed.rules import preview
from richout.embed.scan import OPENER, VIEW, Found, OpenerIndex
from richout.markdown.codemap import CodeMap
from richout.markdown.linescan import may_have_blocks
from richout.markdown.ticks import TickGaps
from richout.models import CanvasPreview
from richout.models.diagnostics import Diagnostics
from richout.text.patch import Edit

__all__ = ["Extraction", "ShortcodeCode", "extract", "removal_patch"]


@dataclass
class Extraction:
    text: str
    previews: list[CanvasPreview]
    removed: list[Found]
    diagnostics: Diagnostics


def extract(text: str, *, explain: bool) -> Extraction:
    diags = Diagnostics(text)
    bracket = "[" in text
    # Whitespace-only text (§1) holds no opener, so one search covers the whole fast path.
    if not bracket or OPENER.search(text) is None:
        if explain and ((bracket and VIEW.search(text)) or "present_view" in text):
            legacy_diagnostics(diags, text, OpenerIndex(text), Skip(CodeMap(text), []))
        return Extraction(text, [], [], diags)
    index = OpenerIndex(text)
    codes = CodeMap(text)
    coded = ShortcodeCode(text, codes)
    surviving: list[Found] = []
    in_code: list[Found] = []
    for found in sorted(index.scan(True) + index.scan(False), key=lambda f: (f.start, not f.block)):
        (in_code if coded.in_code(found.start) else surviving).append(found)

    previews: list[CanvasPreview] = []
    removed: list[Found] = []
    handled: list[Found] = []
    ignored: list[Found] = []
    cursor = 0
    for found in surviving:
        if found.start < cursor:
            ignored.append(found)
            continue
        handled.append(found)
        cursor = found.end
        opener = parse_opener(text[found.start : found.close + 1])
        final = final_attributes(opener)
        outcome = preview(final)
        if outcome.preview is not None:
            previews.append(outcome.preview)
            removed.append(found)
        if explain:
            explain_shortcode(diags, text, found=found, opener=opener, final=final, outcome=outcome)

    if explain:
        skip = Skip(codes, [(f.start, f.end) for f in handled])
        explain_rest(
            diags,
            text,
            index=index,
            codes=codes,
            skip=skip,
            handled=handled,
            ignored=ignored,
            in_code=in_code,
            removed=removed,
        )
        removed_skip = Skip(codes, [(f.start, f.end) for f in removed])
        legacy_diagnostics(diags, text, index, removed_skip)

    if not removed:
        return Extraction(text, [], [], diags)
    out: list[str] = []
    cur = 0
    for found in removed:
        out.append(text[cur : found.start])
        cur = found.end
    out.append(text[cur:])
    return Extraction("".join(out), previews, removed, diags)


class ShortcodeCode:
    """Is a shortcode in code? The code map's answer, asked as little as it can be.

    A shortcode no code span can reach (:class:`~richout.markdown.ticks.TickGaps`) is in
    code only inside a block, and a block holds every character of its lines from their
    content on, where a shortcode starts (a fence's region opens at its run): the line
    question answers for it, once per line. Asking the map about the position paired its
    paragraph's backticks (half of an ``[embed`` reply's extraction on the corpus), or read
    the paragraph around it (30 µs a shortcode in a reply with blocks).
    ``tests/test_embed_properties.py`` compares the answers with the full parse's.
    """

    __slots__ = ("_cr", "_line", "blocks", "codes", "gaps", "text")

    def __init__(self, text: str, codes: CodeMap) -> None:
        self.text = text
        self.codes = codes
        self.gaps = TickGaps(text)
        self.blocks = may_have_blocks(text)
        self._cr = "\r" in text
        #: the last line asked about: its start, the offset of its break, its answer
        self._line = (0, 0, False)

    def in_code(self, at: int) -> bool:
        """Is the shortcode starting at ``at`` in code?"""
        if self.gaps.may_cover(at):
            return self.codes.in_code(at)
        if not self.blocks:
            return False
        start, end, answer = self._line
        if not start <= at < end:
            # The line around it, found by looking from it to its breaks, back no further
            # than the last line's break when the shortcodes come in order (as extract asks
            # them): each line is read once, and its later shortcodes (50k on one line)
            # answer from the first's. A CR alone or in a CRLF ends a CommonMark line too,
            # so a text with one looks for either break (a search for LF alone crossed
            # every CR-broken line before it, once per line).
            text = self.text
            lo = end if end <= at else 0
            if self._cr:
                start = max(text.rfind("\n", lo, at), text.rfind("\r", lo, at), lo - 1) + 1
                found = _BREAK.search(text, at)
                end = len(text) if found is None else found.start()
            else:
                start = text.rfind("\n", lo, at) + 1 or lo
                end = text.find("\n", at)
                if end < 0:
                    end = len(text)
            answer = self.codes.line_in_block(start, end)
            self._line = (start, end, answer)
        return answer


_BREAK = re.compile("[\r\n]")


def removal_patch(text: str, removed: list[Found]) -> list[Edit]:
    """One edit per run of touching removed shortcodes (built in one slice, never by +=)."""
    patch: list[Edit] = []
    i, n = 0, len(removed)
    while i < n:
        start = removed[i].start
        end = removed[i].end
        i += 1
        while i < n and removed[i].start == end:
            end = removed[i].end
            i += 1
        patch.append(Edit(start, end, text[start:end], ""))
    return patch
