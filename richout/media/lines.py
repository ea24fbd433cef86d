"""What the line walk records, and the line questions both the walk and the diagnostics ask.

The records (:class:`Walk` and the lines it holds) are written by :mod:`richout.media.walk`
(MEDIA.md §3 step 4, §5-§9, §13), turned into text and segments by
:mod:`richout.media.segments`, and otherwise read only by the ``explain_*`` modules (§17).
The helpers answer MEDIA.md §5 rule 1 and "which lines hold this substring", which the walk
asks to find directive lines and the §17.1 checks ask again to explain the lines it passed
over; where a payload starts and a reply lower-cased without moving offsets, for the walk and
the fused pass alike; and the two §17.2-§17.3 questions an explained walk asks before taking
a plain line by its shortcut, which the directive checks ask too (a quiet value, a second
``MEDIA:`` on the line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import repeat
from operator import attrgetter
from typing import Literal

from richout.markdown.engine import ImageSpan
from richout.media.payload import Item, Judge, PayloadResult
from richout.models import Span, span_record
from richout.models.diagnostics import Finding
from richout.policy import Verdict
from richout.text.chars import JS_WS, LineBreaks, ascii_lower, collapse_blank_runs, utf16_prefix

__all__ = [
    "MEDIA_AT_BOUNDARY",
    "DirectiveLine",
    "ImageLine",
    "LineChange",
    "SegmentItem",
    "Walk",
    "leftover_text",
    "line_starts",
    "lines_holding",
    "lower_same_length",
    "media_colon",
    "next_directive_token",
    "passes_rule1",
    "payload_start",
    "refused_change",
    "says_nothing",
]

#: MEDIA_TOKEN: ``MEDIA:`` (ASCII case-insensitive) not preceded by an ASCII word character.
MEDIA_AT_BOUNDARY = re.compile(r"(?<![A-Za-z0-9_])media:", re.IGNORECASE | re.ASCII)
#: One piece of a changed line's own segments: ``("text", text)`` or ``("media", url)``.
SegmentItem = tuple[Literal["text", "media"], str]


@dataclass(slots=True)
class DirectiveLine:
    """One directive line (§5) and what became of it (§9)."""

    start: int
    end: int
    #: offset of ``MEDIA:`` (the match runs from here to ``end``)
    match: int
    #: offset of the payload
    payload: int
    #: the payload as §6-§7 read it; None for a line the walk's fast path took while
    #: explaining, which it takes only when §17.2-§17.3 have nothing to say about the line:
    #: every token a quiet reference (:func:`says_nothing`), all delivered,
    #: nothing left beside them, no second ``MEDIA:`` (``tests/test_fastpaths.py``); or
    #: whose findings the walk recorded itself (one refused token, :attr:`Walk.findings`)
    result: PayloadResult | None
    outcome: Literal["accepted", "removed", "kept"]
    #: the whole line left the text
    line_removed: bool
    #: references the profile accepted and the gateway's policy refused
    narrowed: list[tuple[Item, Verdict]] = field(default_factory=list)


@dataclass(slots=True)
class ImageLine:
    """One line offered to the image step (§13)."""

    start: int
    end: int
    images: list[ImageSpan]
    lifted: list[tuple[ImageSpan, str]]
    #: images the profile would lift and the gateway's policy refused (not in ``images``)
    narrowed: list[tuple[ImageSpan, Verdict]] = field(default_factory=list)


@dataclass(slots=True)
class LineChange:
    """A line whose visible form or segments differ from the raw line."""

    start: int
    end: int
    #: the line's new text; None removes it
    replacement: str | None
    segments: list[SegmentItem]
    #: the ranges of the raw text a replacement was cleaned from, offsets from ``base``,
    #: joined by ``sep`` (``collapse_blank_runs(sep.join(...))``): what lets the explanation
    #: keep each of their characters in place (:func:`~richout.text.derive.cleaned_pieces`)
    kept: list[tuple[int, int]] = field(default_factory=list)
    base: int = 0
    sep: str = ""


def leftover_text(
    payload: str, leftovers: list[tuple[int, int]]
) -> tuple[str, list[tuple[int, int]]]:
    """The visible text a directive line keeps after its accepted references (its
    ``leftovers`` of ``payload``, joined by one space and cleaned), and the ranges it was
    made from for :attr:`LineChange.kept`: one range when the leftovers stand one space
    apart (a caption after a reference), so the explanation does not read them word by
    word."""
    if not leftovers:
        return "", leftovers
    joined = " ".join([payload[a:b] for a, b in leftovers])
    first, last = leftovers[0][0], leftovers[-1][1]
    if len(leftovers) > 1 and joined == payload[first:last]:
        return collapse_blank_runs(joined), [(first, last)]
    return collapse_blank_runs(joined), leftovers


def refused_change(raw: str, ls: int, ms: int, le: int, *, removed: bool) -> LineChange:
    """The change a directive line ``raw[ls:le]`` (``MEDIA:`` at ``ms``) makes when nothing
    on it was delivered (§9): ``removed``, the text before ``MEDIA:`` stays; else the whole
    line stays; either with its blank runs collapsed, and as the line's one text segment
    unless it is empty. (The walk's general path and its refused-line shortcuts share it.)"""
    cleaned = collapse_blank_runs(raw[ls : ms if removed else le])
    segments: list[SegmentItem] = [("text", cleaned)] if cleaned else []
    return LineChange(ls, le, cleaned or None, segments, [(ls, ms if removed else le)])


@dataclass(slots=True)
class Walk:
    """Everything the line walk found (read by the diagnostics pass)."""

    raw: str
    changes: list[LineChange] = field(default_factory=list)
    directives: list[DirectiveLine] = field(default_factory=list)
    image_lines: list[ImageLine] = field(default_factory=list)
    #: rule-1 lines inside code blocks, rule-1 lines without a payload, lines seen with
    #: extraction off: (start, end)
    code_lines: list[tuple[int, int]] = field(default_factory=list)
    empty_lines: list[tuple[int, int]] = field(default_factory=list)
    disabled_lines: list[tuple[int, int]] = field(default_factory=list)
    #: images skipped by §13.3 (line too long, beyond the per-line cap, spanning lines)
    skipped_images: list[tuple[ImageSpan, str]] = field(default_factory=list)
    long_image_lines: list[tuple[int, int]] = field(default_factory=list)
    media: list[str] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    consumed: bool = False
    #: starts of the lines holding "media:" that the walk visited
    media_lines: list[int] = field(default_factory=list)
    #: every §7 verdict of this reply (the diagnostics pass reuses them)
    judge: Judge = field(default_factory=Judge)
    #: references rejected and hidden (profile ``next``'s ``rejectedMediaCount``)
    rejected_count: int = 0
    #: §17.2 findings of the directive lines the walk explained itself
    #: (:func:`~richout.media.explain_directives.refused_token_findings`)
    findings: list[Finding] = field(default_factory=list)


def media_colon(raw: str, start: int) -> int:
    """The offset of the first colon at or after ``start`` that ends ``media:`` in any ASCII
    letter case, or -1 (``start`` >= 5 finds only colons with five characters before them).

    Checking the five characters before each colon is several times cheaper than
    lower-casing the whole reply (a reply with non-ASCII text lower-cases slowly). No
    non-ASCII character lower-cases to one of the letters alone: U+0130 becomes two
    characters, so its slice no longer reads ``media``, and where it occurs the walk
    lower-cases ASCII only.
    """
    find = raw.find
    i = find(":", start)
    while i >= 0:
        # Most colons follow no "a" (a URL's scheme, a time, a label): one character
        # compared before a slice is made and lower-cased.
        if raw[i - 1] in "aA" and i >= 5 and raw[i - 5 : i].lower() == "media":
            return i
        i = find(":", i + 1)
    return -1


def lines_holding(hay: str, lines: LineBreaks, needle: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every line where ``hay`` (the text or a same-length form of it)
    holds ``needle`` (linear: each search starts past the previous line)."""
    out: list[tuple[int, int]] = []
    raw = lines.text
    n = len(raw)
    pos = hay.find(needle)
    scan_from = 0
    if not lines.cr:
        # LF-only lines: two finds per line, no method calls (most replies).
        while pos >= 0:
            ls = raw.rfind("\n", scan_from, pos) + 1 or scan_from
            le = raw.find("\n", pos)
            if le < 0:
                out.append((ls, n))
                break
            out.append((ls, le))
            scan_from = le + 1
            pos = hay.find(needle, scan_from)
        return out
    while pos >= 0:
        ls = lines.line_start(pos, scan_from)
        le = lines.line_end(pos)
        out.append((ls, le))
        if le >= n:
            break
        scan_from = le + lines.break_after(le)
        pos = hay.find(needle, scan_from)
    return out


def passes_rule1(raw: str, start: int, end: int, ascii_prefix: bool) -> bool:
    """§5 rule 1: does the line open a ``MEDIA:`` directive?

    ``ascii_prefix`` (profile ``next``): ``MEDIA:`` in ASCII letter case after JavaScript
    whitespace. Otherwise (the release): the left-trimmed line's first six UTF-16 units,
    upper-cased, begin ``MEDIA:`` (so ``MEDıA:`` passes).
    """
    i = start
    # Most candidate lines start with the letter itself; skip the strip in that case.
    if i < end and raw[i] in JS_WS:
        line = raw[start:end]
        i = start + len(line) - len(line.lstrip(JS_WS))
    head = raw[i : min(end, i + 6)]
    if head.isascii():
        return head.upper() == "MEDIA:"
    if ascii_prefix:
        return False
    return utf16_prefix(head, 6).upper().startswith("MEDIA:")


def lower_same_length(raw: str) -> str:
    """``raw`` lower-cased with offsets preserved (``str.lower`` can lengthen U+0130)."""
    low = raw.lower()
    if len(low) != len(raw):
        low = ascii_lower(raw)
    return low


def payload_start(raw: str, after_colon: int, end: int, skip_backtick: bool) -> int:
    """Where ``\\s*`?([^\\n]+)`` puts the payload: past the whitespace and one backtick,
    keeping at least one character."""
    start = after_colon
    if start < end and raw[start] in JS_WS:
        # (Most payloads follow the colon directly: no copy of the line's rest to strip.)
        rest = raw[after_colon:end]
        start += len(rest) - len(rest.lstrip(JS_WS))
    if start >= end:
        return end - 1
    if skip_backtick and raw[start] == "`" and start + 1 < end:
        return start + 1
    return start


#: Values no §17.3 check can flag: rooted (the local-path test's first branch, so never
#: "suspicious relative") or https://, without quotes, brackets or braces anywhere.
_PLAIN_ROOTED = re.compile(r"(?:/|\./|~/|https://)[^\"'`{}\[\]]*")
_PUNCT_END = frozenset(".;:!?")


def says_nothing(v: str) -> bool:
    """§17.3 has nothing to say about a plain part (no absorbed words, no cut, no tail) with
    value ``v``: a rooted path or ``https`` URL with no quote, bracket or brace, and no
    sentence punctuation at its end."""
    return v[-1:] not in _PUNCT_END and _PLAIN_ROOTED.fullmatch(v) is not None


def next_directive_token(raw: str, start: int, end: int) -> int:
    """Where a second ``MEDIA:`` directive token stands in ``raw[start:end]``, or -1.

    The scheme of a ``media://`` reference is not one.
    """
    # Its colons first (media_colon): most payloads hold none, or only a scheme's
    # ("http://…", asked once per refused line explained), and the regex is for a line
    # holding a second "media:". (The search may run on to the next line's MEDIA:; an end
    # bound on media_colon cost every caller 20 ns a call, so a line without the "a:" or
    # "A:" that ends any spelling of "media:", most refused references, is told by two
    # bounded finds.)
    if raw.find("a:", start, end) < 0 and raw.find("A:", start, end) < 0:
        return -1
    i = media_colon(raw, start + 5)
    if i < 0 or i >= end:
        return -1
    for m in MEDIA_AT_BOUNDARY.finditer(raw, i - 5, end):
        if not raw.startswith("//", m.end()):
            return m.start()
    return -1


def line_starts(lines: LineBreaks) -> list[int]:
    """The start of every line of the text."""
    text = lines.text
    starts = [0]
    pos = 0
    n = len(text)
    while True:
        end = lines.line_end(pos)
        if end >= n:
            return starts
        pos = end + lines.break_after(end)
        starts.append(pos)


#: An accepted item's reference (``Item.value``), read in C.
_VALUE = attrgetter("value")


def record_references(
    walk: Walk, accepted: list[Item], segs: list[SegmentItem], *, span_of: tuple[int, int] | None
) -> None:
    """Record a directive line's ``accepted`` references (at least one): delivered, each a
    media segment of the line (``segs``) and, explaining, a span over ``span_of`` (the
    directive from ``MEDIA:`` to the line's end)."""
    if len(accepted) == 1:
        # Most lines: one reference, recorded without the listing below (its comprehension,
        # maps and zip cost a microsecond on a line of one path).
        value = accepted[0].value
        walk.media.append(value)
        if span_of is not None:
            walk.spans.append(span_record("media", span_of[0], span_of[1], value))
        segs.append(("media", value))
        return
    # The references, their spans and segments listed in C (a payload of 500k tokens looped
    # over each in Python). Spans are frozen and every span of the line covers the
    # directive, so one record serves each repeat of a reference.
    values = list(map(_VALUE, accepted))
    walk.media.extend(values)
    if span_of is not None:
        ms, le = span_of
        line_spans = {v: span_record("media", ms, le, v) for v in dict.fromkeys(values)}
        walk.spans.extend(map(line_spans.__getitem__, values))
    segs.extend(zip(repeat("media"), values))
