"""What the walk's line changes make of the text: removal patches and segments (MEDIA.md).

The walk (:mod:`richout.media.walk`) records each changed line as a
:class:`~richout.media.lines.LineChange`; this module turns them into the text the walk
leaves (§3 step 5), directly for the outputs or as a patch over the input when explaining (so
the input can be rebuilt from the result, README decision 3), measures the leading blank
lines the split drops (:func:`walked_text`), and builds the §12 segments with upstream's
"push" semantics in linear time (:func:`build_segments`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import groupby
from operator import itemgetter

from richout.media.lines import LineChange
from richout.models import Segment, media_segment, text_segment
from richout.text.chars import JS_WS, JS_WS_NO_BREAK, JS_WS_SET, BlankLineRun, LineBreaks, js_trim
from richout.text.derive import cleaned_pieces, common_prefix, common_suffix
from richout.text.patch import Patch, apply, patch_from_pieces

__all__ = ["BLANK_LINES_LF", "build_segments", "drop_ws_only_lines", "walked_text"]

# Whitespace-only lines are emptied with patterns that open on a line break: the engine
# then jumps from break to break instead of trying a line start at every offset (an
# anchored "(?m)^" pattern ran at about 50 MB/s over kept text).
_WS_NO_LF = JS_WS.replace("\n", "")
_WS_NO_BREAK = JS_WS_NO_BREAK
#: The whitespace of a line made only of whitespace, after the line feed that opens it.
_WS_LINE_AFTER_LF = re.compile("\n[" + _WS_NO_LF + "]+(?=\n|\\Z)")
#: The same for a text's first line.
_WS_FIRST_LINE = re.compile("[" + _WS_NO_LF + "]+(?=\n|\\Z)")
#: The same where CR, CRLF and LF all end a line.
_WS_LINE_AFTER_BREAK_CR = re.compile("([\r\n])[" + _WS_NO_BREAK + "]+(?=[\r\n]|\\Z)")
_WS_FIRST_LINE_CR = re.compile("[" + _WS_NO_BREAK + "]+(?=[\r\n]|\\Z)")
#: At most this many edits for one rewritten line; past it, one edit (segments._coalesced_patch).
_LINE_EDITS = 16
#: A run of whitespace-only lines, each with its break (``.end(text, start, stop)``).
BLANK_LINES_LF = BlankLineRun(_WS_NO_LF, "\n")
_BLANK_LINES_CR = BlankLineRun(_WS_NO_BREAK, "\r\n")
#: Leading lines of only spaces and tabs (what the split drops from the walked text).
_LEADING_BLANKS_LF = BlankLineRun(" \t", "\n")
_LEADING_BLANKS_CR = BlankLineRun(" \t", "\r\n")


def walked_text(
    lines: LineBreaks, changes: list[LineChange], explain: bool
) -> tuple[str, Patch, int]:
    """The text the line walk leaves (§3 step 5), and how much of its start the split drops.

    Returns the text, the patch over ``lines.text`` that made it (only with ``explain``: the
    outputs need the text alone, built directly from the replacements), and the length of its
    leading run of lines holding only spaces and tabs, with their breaks. One function for
    the three, so a walked reply pays one call here.
    """
    raw = lines.text
    patch: Patch = []
    if explain:
        patch = _coalesced_patch(raw, _walk_pieces(lines, changes))
        joined = apply(raw, patch) if patch else raw
    elif changes:
        out: list[str] = []
        cursor = 0
        for start, end, repl, _ in _walk_pieces(lines, changes):
            out.append(raw[cursor:start])
            out.append(repl)
            cursor = end
        out.append(raw[cursor:])
        joined = "".join(out)
    else:
        joined = raw
    return joined, patch, leading_blank_lines(joined, lines.cr)


def leading_blank_lines(joined: str, cr: bool) -> int:
    """The length of the leading run of lines of ``joined`` holding only spaces and tabs,
    with their breaks (a CR is a break when ``cr``): what the split drops from the start of
    the text the walk leaves."""
    return (_LEADING_BLANKS_CR if cr else _LEADING_BLANKS_LF).end(joined)


def _walk_pieces(
    lines: LineBreaks, changes: list[LineChange]
) -> list[tuple[int, int, str, LineChange | None]]:
    """Replacements over the text: changed lines, and removed lines with one break each.

    Kept lines are joined by the break that followed each of them in the input, so a
    removed line leaves with its own break, except after the last kept line, where the
    removed tail leaves together with that line's break.
    """
    n = len(lines.text)
    k = len(changes)
    tail = k  # changes[tail:] remove every line up to the end of the text
    reach = n
    while tail > 0:
        ch = changes[tail - 1]
        # The text's last line ends at its end; a text ending in a break has an empty last
        # line after it, which is kept.
        after = ch.end if reach == n else ch.end + lines.break_after(ch.end)
        if ch.replacement is not None or after != reach:
            break
        tail -= 1
        reach = ch.start
    pieces: list[tuple[int, int, str, LineChange | None]] = []
    for ch in changes[:tail]:
        if ch.replacement is not None:
            pieces.append((ch.start, ch.end, ch.replacement, ch))
        else:
            pieces.append((ch.start, ch.end + lines.break_after(ch.end), "", None))
    if tail < k:
        start = reach - lines.break_before(reach)
        pieces.append((start, n, "", None))
    return pieces


def _narrow_edit(raw: str, start: int, end: int, repl: str) -> tuple[int, int, str]:
    """Shrink a replacement of ``raw[start:end]`` by its common prefix and suffix."""
    old = raw[start:end]
    p = common_prefix(old, repl)
    q = common_suffix(old, repl, min(len(old), len(repl)) - p)
    return start + p, end - q, repl[p : len(repl) - q]


def _coalesced_patch(raw: str, pieces: Sequence[tuple[int, int, str, LineChange | None]]) -> Patch:
    """``patch_from_pieces`` with touching pieces joined here first.

    Thousands of consecutive removed lines touch each other; joining them pairwise would
    copy the growing edit once per line, so each run is joined once with ``str.join``.
    """
    merged: list[tuple[int, int, str | None]] = []
    run_start = run_end = -1
    inserted: list[str] = []
    for start, end, repl, change in pieces:
        parts: Sequence[tuple[int, int, str]] = ((start, end, repl),)
        if change is not None:
            if len(repl) == end - start and raw.startswith(repl, start):
                continue  # a directive line kept as it was written
            # Keep the edits minimal: what a cleaned line kept of the raw line stays outside
            # them, so later stages' offsets map back to the exact input characters (a tag
            # after a refused reference). A line rewritten in many places (a hostile payload
            # of 500k parts) keeps one edit between its unchanged head and tail.
            exact = cleaned_pieces(
                raw, start, end, change.kept, base=change.base, sep=change.sep, limit=_LINE_EDITS
            )
            parts = (_narrow_edit(raw, start, end, repl),) if exact is None else exact
        for start, end, repl in parts:
            if start == end and not repl:
                continue
            if start == run_end:
                inserted.append(repl)
                run_end = end
                continue
            if run_end >= 0:
                merged.append((run_start, run_end, "".join(inserted)))
            run_start, run_end, inserted = start, end, [repl]
    if run_end >= 0:
        merged.append((run_start, run_end, "".join(inserted)))
    return patch_from_pieces(raw, merged)


def drop_ws_only_lines(block: str, cr: bool) -> str:
    """``block`` with every line made only of whitespace emptied (its breaks kept)."""
    if cr:
        after, first, repl = _WS_LINE_AFTER_BREAK_CR, _WS_FIRST_LINE_CR, "\\1"
    else:
        after, first, repl = _WS_LINE_AFTER_LF, _WS_FIRST_LINE, "\n"
    out = after.sub(repl, block)
    if out[:1] not in JS_WS_SET:
        return out  # the first line opens on content (most blocks): it stays
    # The substitution keeps every break, so the first line still ends where it did.
    m = first.match(out)
    return out[m.end() :] if m is not None else out


class _TextSeg:
    """A text segment under construction: pieces joined once at the end."""

    __slots__ = ("ends_break", "pieces")

    def __init__(self, first: str, breaks: str) -> None:
        self.pieces = [first]
        self.ends_break = first[-1:] in breaks


class _SegmentBuilder:
    """§12 "push" semantics, with text segments kept as piece lists (linear joins).

    Each pushed line carries the break that ended it; a later line is joined to an open text
    segment with the break of the line pushed before it.
    """

    def __init__(self, lines: LineBreaks) -> None:
        self.items: list[_TextSeg | str] = []  # a str item is a media URL
        self.last_text: _TextSeg | None = None
        self.lines = lines
        #: characters that count as "the text already ends with a line break"
        self.breaks = "\r\n" if lines.cr else "\n"
        self.sep = ""

    def push(self, line: str, sep: str) -> None:
        """Push one line (or a changed line's text) ended by ``sep``, as §12 says."""
        items = self.items
        blank = not line or not js_trim(line)
        last = items[-1] if items else None
        if isinstance(last, _TextSeg):
            last.pieces.append(self.sep)
            if blank:
                last.ends_break = bool(self.sep) or last.ends_break
            else:
                last.pieces.append(line)
                last.ends_break = line[-1] in self.breaks
            self.sep = sep
        elif blank:
            lt = self.last_text
            if last is not None and lt is not None and not lt.ends_break:
                lt.pieces.append(self.sep)
                lt.ends_break = bool(self.sep)
        else:
            seg = _TextSeg(line, self.breaks)
            items.append(seg)
            self.last_text = seg
            self.sep = sep

    def push_block(self, start: int, end: int) -> None:
        """Push every line of ``text[start:end]`` (kept lines), in bulk once a text is open."""
        lines = self.lines
        raw = lines.text
        cr = lines.cr
        while start <= end and not (self.items and isinstance(self.items[-1], _TextSeg)):
            if cr:
                stop = min(lines.line_end(start), end)
                brk = lines.break_after(stop)
            else:
                stop = raw.find("\n", start, end)
                if stop < 0:
                    stop = end
                brk = 1 if raw.startswith("\n", stop) else 0
            line = raw[start:stop]
            self.push(line, raw[stop : stop + brk])
            start = stop + brk if brk else stop + 1
            if (
                brk
                and not js_trim(line)
                and not (self.items and isinstance(self.items[-1], _TextSeg))
            ):
                # Another whitespace-only line pushed while no text segment is open changes
                # nothing (the first one set the open text's break): skip the run in C.
                # Seeing one character past ``end`` lets a run take the first character of
                # the block's final break: enough to pass ``end`` and end the block.
                start = (_BLANK_LINES_CR if cr else BLANK_LINES_LF).end(raw, start, end + 1)
        if start > end:
            return
        # Appending to an open text segment: each line adds the previous break and itself,
        # except that a whitespace-only line adds nothing after that break.
        block = raw[start:end]
        rest = drop_ws_only_lines(block, lines.cr)
        seg = self.items[-1]
        assert isinstance(seg, _TextSeg)
        seg.pieces.append(self.sep)
        seg.pieces.append(rest)
        if rest:
            seg.ends_break = rest[-1] in self.breaks
        elif self.sep:
            seg.ends_break = True
        brk = lines.break_after(end)
        self.sep = raw[end : end + brk]

    def media(self, url: str) -> None:
        """Append a media segment."""
        self.items.append(url)

    def media_run(self, urls: Iterable[str]) -> None:
        """Append a media segment for each of ``urls``, in order."""
        self.items.extend(urls)

    def build(self) -> list[Segment]:
        """The finished segments.

        Segments are frozen, so one media segment serves every repeat of its reference: a
        payload of half a million equal references builds one record, not half a million.
        """
        shared: dict[str, Segment] = {}
        out: list[Segment] = []
        append = out.append
        for item in self.items:
            if isinstance(item, _TextSeg):
                append(text_segment("".join(item.pieces)))
            else:
                seg = shared.get(item)
                if seg is None:
                    seg = shared[item] = media_segment(item)
                append(seg)
        return out


#: A line change with more segments than this pushes its media segments in runs.
_RUN_FROM = 8
_KIND, _VALUE = itemgetter(0), itemgetter(1)


def build_segments(lines: LineBreaks, changes: list[LineChange]) -> list[Segment]:
    """§12: push every kept line and every changed line's own segments, in order."""
    raw = lines.text
    sb = _SegmentBuilder(lines)
    cursor = 0  # start of the next unpushed line
    cr = lines.cr
    n = len(raw)
    for ch in changes:
        if ch.start > cursor:
            sb.push_block(cursor, ch.start - (lines.break_before(ch.start) if cr else 1))
        if cr:
            brk = lines.break_after(ch.end)
            sep = raw[ch.end : ch.end + brk]
        else:
            brk, sep = (1, "\n") if ch.end < n else (0, "")
        if len(ch.segments) <= _RUN_FROM:
            for kind, value in ch.segments:
                if kind == "text":
                    sb.push(value, sep)
                else:
                    sb.media(value)
        else:
            # A payload of many references: its media segments in runs, listed in C.
            for kind, run in groupby(ch.segments, _KIND):
                if kind == "text":
                    for _, value in run:
                        sb.push(value, sep)
                else:
                    sb.media_run(map(_VALUE, run))
        cursor = ch.end + brk if brk else ch.end + 1
    if cursor <= len(raw):
        sb.push_block(cursor, len(raw))
    return sb.build()
