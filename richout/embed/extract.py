"""The steps of :func:`richout.extract_embeds`, without its argument checks.

:func:`extract` pre-scans the shortcodes outside code, reads each handled opener, turns it
into a preview and removes the shortcodes that made one; :func:`removal_patch` is the edit
list of those removals. :mod:`richout.embed.parse` holds the public function; this module is
apart so that the optional compiled build can compile it (a compiled public function would
raise ``TypeError`` for a wrongly typed argument, where richout's contract is
``InvalidInput``).
"""

from __future__ import annotations

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

__all__ = ["Extraction", "extract", "removal_patch"]


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
    # Without a possible code block, a shortcode no code span can reach is outside code:
    # the map's answer for it paired its paragraph's backticks (half of an [embed reply's
    # extraction on the corpus).
    gaps = None if may_have_blocks(text) else TickGaps(text)
    surviving: list[Found] = []
    in_code: list[Found] = []
    for found in sorted(index.scan(True) + index.scan(False), key=lambda f: (f.start, not f.block)):
        at = found.start
        coded = (gaps is None or gaps.may_cover(at)) and codes.in_code(at)
        (in_code if coded else surviving).append(found)

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
