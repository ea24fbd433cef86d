"""Standalone ``MEDIA:`` lines and opt-in Markdown images → visible text + media (MEDIA.md).

The reference (OpenClaw ``splitMediaOutput``) walks every line of the reply and runs a
handful of backtracking regexes on each. richout gives the same outputs, but:

* a reply without a trigger (``media:``, ``[[``, or ``![`` with images on) costs one
  substring scan and one result object;
* only lines that hold ``media:`` (or a Markdown image) get per-line work, and only those
  lines ask the :class:`~richout.codemap.CodeMap` whether they are code;
* payloads are tokenised, cleaned and regrouped in linear time (:mod:`richout._payload`);
* every stage records a patch over its input, so the input can be rebuilt from the result
  (README decision 3), and every rejected or altered directive is explained (§17).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from richout.errors import InvalidInput, require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.markdown.engine import ImageSpan, find_images
from richout.media import explain as _media_diag
from richout.media.payload import Item, Judge, PayloadResult, analyse_payload
from richout.models import Diagnostic, Directives, Explanation, MediaSplit, Segment, Span
from richout.models.diagnostics import Diagnostics
from richout.models.lossless import edit_records
from richout.policy import Policy, Verdict, strip_file_prefix
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.tags.close import normalize_boundaries
from richout.tags.code import StageCode
from richout.tags.parse import parse_directives
from richout.tags.scan import AUDIO_HEAD, REPLY_HEAD
from richout.text.chars import (
    JS_WS,
    LineBreaks,
    collapse_blank_runs,
    js_rtrim,
    js_trim,
    utf16_len,
    utf16_prefix,
)
from richout.text.patch import (
    Edit,
    Patch,
    apply,
    common_prefix,
    compose,
    offset_mapper,
    patch_from_pieces,
)

__all__ = ["split_media"]

#: MEDIA_TOKEN: ``MEDIA:`` (ASCII case-insensitive) not preceded by an ASCII word character.
_MEDIA_AT_BOUNDARY = re.compile(r"(?<![A-Za-z0-9_])media:", re.IGNORECASE | re.ASCII)
# Whitespace-only lines are emptied with patterns that open on a line break: the engine
# then jumps from break to break instead of trying a line start at every offset (an
# anchored "(?m)^" pattern ran at about 50 MB/s over kept text).
_WS_NO_LF = JS_WS.replace("\n", "")
_WS_NO_BREAK = _WS_NO_LF.replace("\r", "")
#: The whitespace of a line made only of whitespace, after the line feed that opens it.
_WS_LINE_AFTER_LF = re.compile("\n[" + _WS_NO_LF + "]+(?=\n|\\Z)")
#: The same for a text's first line.
_WS_FIRST_LINE = re.compile("[" + _WS_NO_LF + "]+(?=\n|\\Z)")
#: The same where CR, CRLF and LF all end a line.
_WS_LINE_AFTER_BREAK_CR = re.compile("([\r\n])[" + _WS_NO_BREAK + "]+(?=[\r\n]|\\Z)")
_WS_FIRST_LINE_CR = re.compile("[" + _WS_NO_BREAK + "]+(?=[\r\n]|\\Z)")
_TAG_CODES_KEPT = frozenset({"tag.in_code", "tag.malformed", "tag.unknown"})
_BLANKS = re.compile(r"[ \t]*")
_MAX_IMAGE_LINE_UNITS = 20_000
_MAX_IMAGES_PER_LINE = 50
_SegmentItem = tuple[Literal["text", "media"], str]
_FLAG_NAMES = (
    "extract_markdown_images",
    "extract_media_directives",
    "extract_audio_directives",
    "preserve_trailing_whitespace",
    "explain",
)


@dataclass
class DirectiveLine:
    """One directive line (§5) and what became of it (§9)."""

    start: int
    end: int
    #: offset of ``MEDIA:`` (the match runs from here to ``end``)
    match: int
    #: offset of the payload
    payload: int
    result: PayloadResult
    outcome: Literal["accepted", "removed", "kept"]
    #: the whole line left the text
    line_removed: bool
    #: references the profile accepted and the gateway's policy refused
    narrowed: list[tuple[Item, Verdict]] = field(default_factory=list)


@dataclass
class ImageLine:
    """One line offered to the image step (§13)."""

    start: int
    end: int
    images: list[ImageSpan]
    lifted: list[tuple[ImageSpan, str]]
    #: images the profile would lift and the gateway's policy refused (not in ``images``)
    narrowed: list[tuple[ImageSpan, Verdict]] = field(default_factory=list)


@dataclass
class _LineChange:
    """A line whose visible form or segments differ from the raw line."""

    start: int
    end: int
    #: the line's new text; None removes it
    replacement: str | None
    segments: list[_SegmentItem]


@dataclass
class Walk:
    """Everything the line walk found (read by the diagnostics pass)."""

    raw: str
    changes: list[_LineChange] = field(default_factory=list)
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


def _lower_same_length(raw: str) -> str:
    """``raw`` lower-cased with offsets preserved (``str.lower`` can lengthen U+0130)."""
    low = raw.lower()
    if len(low) != len(raw):
        from richout.text.chars import ascii_lower

        low = ascii_lower(raw)
    return low


def has_media_token(raw: str) -> bool:
    """Does ``raw`` hold ``media:`` in any ASCII letter case (§3 step 2)?

    Checking the five characters before each colon is several times cheaper than
    lower-casing the whole reply, and no non-ASCII character lower-cases to one of them.
    """
    find = raw.find
    i = find(":", 5)
    while i >= 0:
        if raw[i - 5 : i].lower() == "media":
            return True
        i = find(":", i + 1)
    return False


def _lines_holding(hay: str, lines: LineBreaks, needle: str) -> list[tuple[int, int]]:
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


def _passes_rule1(raw: str, start: int, end: int, ascii_prefix: bool) -> bool:
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


def _payload_start(raw: str, after_colon: int, end: int, skip_backtick: bool) -> int:
    """Where ``\\s*`?([^\\n]+)`` puts the payload: past the whitespace and one backtick,
    keeping at least one character."""
    rest = raw[after_colon:end]
    skipped = len(rest) - len(rest.lstrip(JS_WS))
    start = after_colon + skipped
    if start >= end:
        return end - 1
    if skip_backtick and raw[start] == "`" and start + 1 < end:
        return start + 1
    return start


def _is_http_prefix(s: str) -> bool:
    head = s[:8].lower()
    return head.startswith("http://") or head == "https://"


class _Walker:
    """The §3 step 4 line walk over the lines that can change."""

    def __init__(
        self,
        raw: str,
        low: str,
        *,
        media_on: bool,
        directives_on: bool,
        images_on: bool,
        allowlist: dict[str, str] | None,
        profile: Profile,
        explain: bool = True,
        policy: Policy | None = None,
    ) -> None:
        self.explain = explain
        self.profile = profile
        self.lines = LineBreaks(raw, profile.cr_lines)
        self.raw = raw
        self.low = low
        self.media_on = media_on
        self.directives_on = directives_on
        self.images_on = images_on
        self.allowlist = allowlist
        self._cmap: CodeMap | None = None
        self.walk = Walk(raw, judge=Judge(profile, policy))
        #: lines joined by a multi-line image: first line's start -> end of the last line
        self.merged: dict[int, int] = {}

    @property
    def cmap(self) -> CodeMap:
        """The one code map of *raw*, built on first use."""
        if self._cmap is None:
            self._cmap = CodeMap(self.raw)
        return self._cmap

    def code_map_if_built(self) -> CodeMap | None:
        """The code map when some line needed it (the diagnostics pass reuses it)."""
        return self._cmap

    # ------------------------------------------------------------------ images

    def _images_by_line(self) -> dict[int, list[ImageSpan]]:
        """§13.1-§13.3: the considered images of each line, keyed by line start.

        With the profile's multi-line images (``next``, PROFILES.md rule 7) an image whose
        label, destination or title runs past its first line joins the lines it covers into
        one line (at most 20,000 UTF-16 units); :attr:`merged` records where such a line ends.
        """
        raw = self.raw
        walk = self.walk
        multiline = self.profile.multiline_images
        lines = _lines_holding(raw, self.lines, "![")
        if not lines:
            return {}
        scan = False
        # A multi-line image may close its label on a later line.
        last_close = raw.rfind("](") if multiline else -1
        for ls, le in lines:
            if le - ls > _MAX_IMAGE_LINE_UNITS or utf16_len(raw[ls:le]) > _MAX_IMAGE_LINE_UNITS:
                walk.long_image_lines.append((ls, le))
            elif raw.find("](", raw.find("![", ls, le), le) >= 0 or (
                last_close > raw.find("![", ls, le)
            ):
                scan = True
        # The reference scans when a short line holds "![". An inline image needs "](" after
        # its "![" to be considered at all, so without one the scan cannot change the output;
        # skipping it avoids the parser's quadratic label search.
        if not scan:
            return {}
        images = find_images(raw)
        if not images:
            return {}
        starts = _line_starts(self.lines)
        long_starts = {ls for ls, _ in walk.long_image_lines}
        out: dict[int, list[ImageSpan]] = {}
        cur_ls = cur_le = -1
        for im in sorted(images, key=lambda s: s.start):
            if im.start >= cur_le:
                k = bisect.bisect_right(starts, im.start) - 1
                cur_ls = starts[k]
                cur_le = self.lines.line_end(cur_ls)
            if cur_ls in long_starts:
                continue  # reported once per line
            bucket = out.setdefault(cur_ls, [])
            why = "spans"
            if im.end > cur_le and multiline and len(bucket) < _MAX_IMAGES_PER_LINE:
                end = self.lines.line_end(im.end - 1)
                if self.directives_on and _passes_rule1(raw, cur_ls, cur_le, True):
                    why = "directive"
                elif utf16_len(raw[cur_ls:end]) > _MAX_IMAGE_LINE_UNITS:
                    why = "long"
                else:
                    cur_le = end
                    self.merged[cur_ls] = end
            if im.end > cur_le:
                walk.skipped_images.append((im, why))
                continue
            if len(bucket) >= _MAX_IMAGES_PER_LINE:
                walk.skipped_images.append((im, "cap"))
                continue
            bucket.append(im)
        return {ls: found for ls, found in out.items() if found}

    def _image_line(self, ls: int, le: int, images: list[ImageSpan]) -> None:
        """§13.4-§13.5 for one line."""
        raw = self.raw
        walk = self.walk
        seg_pieces: list[str] = []
        vis_pieces: list[str] = []
        segs: list[_SegmentItem] = []
        lifted: list[tuple[ImageSpan, str]] = []
        narrowed: list[tuple[ImageSpan, Verdict]] = []
        cursor = ls
        for im in images:
            before = raw[cursor : im.start]
            seg_pieces.append(before)
            vis_pieces.append(before)
            target = strip_file_prefix(js_trim(im.destination))
            url: str | None = None
            if self.allowlist is not None:
                chosen = self.allowlist.get(target)
                if chosen:
                    url = chosen
            elif _is_http_prefix(target) and walk.judge.ok(target):
                url = target
            if url is not None and walk.judge.policy is not None:
                # The policy only filters what the profile lifts; the image stays as text.
                verdict = walk.judge.narrowed(url)
                if not verdict.ok:
                    narrowed.append((im, verdict))
                    url = None
            if url is not None:
                text = collapse_blank_runs("".join(seg_pieces))
                if text:
                    segs.append(("text", text))
                seg_pieces = []
                segs.append(("media", url))
                lifted.append((im, url))
            else:
                original = raw[im.start : im.end]
                seg_pieces.append(original)
                vis_pieces.append(original)
            cursor = im.end
        after = raw[cursor:le]
        seg_pieces.append(after)
        vis_pieces.append(after)
        if narrowed:
            refused = {id(im) for im, _ in narrowed}
            images = [im for im in images if id(im) not in refused]
        walk.image_lines.append(ImageLine(ls, le, images, lifted, narrowed))
        if not lifted:
            return
        trailing = collapse_blank_runs("".join(seg_pieces))
        if trailing:
            segs.append(("text", trailing))
        cleaned = collapse_blank_runs("".join(vis_pieces))
        walk.consumed = True
        for im, url in lifted:
            walk.media.append(url)
            if self.explain:
                walk.spans.append(Span(kind="image", start=im.start, end=im.end, value=url))
        walk.changes.append(_LineChange(ls, le, cleaned or None, segs))

    # ------------------------------------------------------------------ directives

    def _directive_line(self, ls: int, le: int) -> None:
        """§5 rule 2 and §6-§9 for a rule-1 line outside code."""
        raw = self.raw
        walk = self.walk
        m = _MEDIA_AT_BOUNDARY.search(raw, ls, le)
        if m is None:
            return  # rule 1 passed on a U+0131 spelling with no ASCII MEDIA: on the line
        if m.end() >= le:
            walk.empty_lines.append((ls, le))
            return
        ms = m.start()
        ps = _payload_start(raw, m.end(), le, self.profile.skip_leading_backtick)
        res = analyse_payload(raw[ps:le], walk.judge)
        narrowed = self._narrow(res) if walk.judge.policy is not None and res.accepted else []
        before = raw[ls:ms]
        segs: list[_SegmentItem] = []
        outcome: Literal["accepted", "removed", "kept"]
        if res.counted:
            walk.rejected_count += len(res.counted)
            walk.consumed = True
        if res.accepted:
            outcome = "accepted"
            walk.consumed = True
            text = collapse_blank_runs(before)
            if text:
                segs.append(("text", text))
            payload = raw[ps:le]
            for item in res.accepted:
                walk.media.append(item.value)
                if self.explain:
                    walk.spans.append(Span(kind="media", start=ms, end=le, value=item.value))
                segs.append(("media", item.value))
            cleaned = collapse_blank_runs(" ".join(payload[a:b] for a, b in res.leftovers))
        elif res.looks_local or res.counted:
            outcome = "removed"
            walk.consumed = True
            cleaned = collapse_blank_runs(before)
        else:
            outcome = "kept"
            cleaned = collapse_blank_runs(raw[ls:le])
        if cleaned:
            segs.append(("text", cleaned))
        walk.changes.append(_LineChange(ls, le, cleaned or None, segs))
        walk.directives.append(DirectiveLine(ls, le, ms, ps, res, outcome, not cleaned, narrowed))

    def _narrow(self, res: PayloadResult) -> list[tuple[Item, Verdict]]:
        """Apply the gateway's policy to the references the profile accepted on one line.

        The payload was read as the profile reads it; a refused reference then goes where
        the profile puts its own refusals: hidden and counted where it hides them (``next``),
        else left as visible text (the whole line, unless it looks like a local path).
        """
        judge = self.walk.judge
        kept: list[Item] = []
        refused: list[tuple[Item, Verdict]] = []
        for item in res.accepted:
            verdict = judge.narrowed(item.value)
            if verdict.ok:
                kept.append(item)
            else:
                refused.append((item, verdict))
        if not refused:
            return refused
        res.accepted = kept
        if self.profile.hide_rejected:
            res.counted.extend((item.start, item.end, item.value) for item, _ in refused)
        elif kept:
            res.leftovers = sorted(res.leftovers + [(item.start, item.end) for item, _ in refused])
        return refused

    # ------------------------------------------------------------------ walk

    def run(self) -> Walk:
        """Visit the lines that can change, in document order."""
        raw = self.raw
        walk = self.walk
        lines: dict[int, int] = {}
        if self.media_on:
            for ls, le in _lines_holding(self.low, self.lines, "media:"):
                lines[ls] = le
                walk.media_lines.append(ls)
        images: dict[int, list[ImageSpan]] = {}
        if self.images_on and "![" in raw:
            images = self._images_by_line()
            for ls in images:
                lines[ls] = self.merged.get(ls) or self.lines.line_end(ls)
        skip_until = -1
        for ls in sorted(lines):
            if ls < skip_until:
                continue  # inside a line joined by a multi-line image
            le = lines[ls]
            skip_until = self.merged.get(ls, -1)
            rule1 = _passes_rule1(raw, ls, le, self.profile.ascii_media_prefix)
            # The option, not the presence of "media:", decides: a U+0131 spelling passes
            # rule 1 without any "media:" and is then neither a directive nor image-scanned.
            if rule1 and self.directives_on:
                if self.cmap.line_in_block(ls, le):
                    walk.code_lines.append((ls, le))
                    continue
                self._directive_line(ls, le)
                continue
            line_images = images.get(ls)
            if line_images and not self.cmap.line_in_block(ls, le):
                self._image_line(ls, le, line_images)
        return walk


def _line_starts(lines: LineBreaks) -> list[int]:
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


def _walk_patch(lines: LineBreaks, changes: list[_LineChange]) -> Patch:
    """The line walk as a patch over the text (§3 step 5)."""
    return _coalesced_patch(lines.text, _walk_pieces(lines, changes))


def _walk_text(lines: LineBreaks, changes: list[_LineChange]) -> str:
    """The text the line walk leaves (what applying :func:`_walk_patch` gives, directly)."""
    raw = lines.text
    out: list[str] = []
    cursor = 0
    for start, end, repl in _walk_pieces(lines, changes):
        out.append(raw[cursor:start])
        out.append(repl)
        cursor = end
    out.append(raw[cursor:])
    return "".join(out)


def _walk_pieces(lines: LineBreaks, changes: list[_LineChange]) -> list[tuple[int, int, str]]:
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
    pieces: list[tuple[int, int, str]] = []
    for ch in changes[:tail]:
        if ch.replacement is not None:
            pieces.append((ch.start, ch.end, ch.replacement))
        else:
            pieces.append((ch.start, ch.end + lines.break_after(ch.end), ""))
    if tail < k:
        start = reach - lines.break_before(reach)
        pieces.append((start, n, ""))
    return pieces


def _narrow_edit(raw: str, start: int, end: int, repl: str) -> tuple[int, int, str]:
    """Shrink a replacement of ``raw[start:end]`` by its common prefix and suffix."""
    old = raw[start:end]
    p = common_prefix(old, repl)
    q = common_prefix(old[p:][::-1], repl[p:][::-1])
    return start + p, end - q, repl[p : len(repl) - q]


def _coalesced_patch(raw: str, pieces: Sequence[tuple[int, int, str | None]]) -> Patch:
    """``patch_from_pieces`` with touching pieces joined here first.

    Thousands of consecutive removed lines touch each other; joining them pairwise would
    copy the growing edit once per line, so each run is joined once with ``str.join``.
    """
    merged: list[tuple[int, int, str | None]] = []
    run_start = run_end = -1
    inserted: list[str] = []
    for piece in pieces:
        start, end, repl = piece
        if repl is None:
            continue
        if repl:
            # Keep the edit minimal: the unchanged head and tail of a cleaned line stay
            # outside it, so later stages' offsets map back to the exact input characters.
            start, end, repl = _narrow_edit(raw, start, end, repl)
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


def _leading_blank_lines(s: str, cr: bool) -> int:
    """Length of the leading run of lines holding only spaces and tabs (with their breaks)."""
    end = 0
    n = len(s)
    match = _BLANKS.match
    while True:
        m = match(s, end)
        j = m.end() if m is not None else end
        if j < n and s[j] == "\n":
            end = j + 1
            continue
        if cr and j < n and s[j] == "\r":
            end = j + 2 if s.startswith("\n", j + 1) else j + 1
            continue
        return end


def _drop_ws_only_lines(block: str, cr: bool) -> str:
    """``block`` with every line made only of whitespace emptied (its breaks kept)."""
    if cr:
        after, first, repl = _WS_LINE_AFTER_BREAK_CR, _WS_FIRST_LINE_CR, "\\1"
    else:
        after, first, repl = _WS_LINE_AFTER_LF, _WS_FIRST_LINE, "\n"
    out = after.sub(repl, block)
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
            self.push(raw[start:stop], raw[stop : stop + brk])
            start = stop + brk if brk else stop + 1
        if start > end:
            return
        # Appending to an open text segment: each line adds the previous break and itself,
        # except that a whitespace-only line adds nothing after that break.
        block = raw[start:end]
        rest = _drop_ws_only_lines(block, lines.cr)
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

    def build(self) -> list[Segment]:
        """The finished segments."""
        return [
            Segment.trusted(type="text", text="".join(item.pieces))
            if isinstance(item, _TextSeg)
            else Segment.trusted(type="media", url=item)
            for item in self.items
        ]


def _build_segments(lines: LineBreaks, changes: list[_LineChange]) -> list[Segment]:
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
        for kind, value in ch.segments:
            if kind == "text":
                sb.push(value, sep)
            else:
                sb.media(value)
        cursor = ch.end + brk if brk else ch.end + 1
    if cursor <= len(raw):
        sb.push_block(cursor, len(raw))
    return sb.build()


def _tag_pass_shortcut(
    core: str, walked: bool, cmap: CodeMap | None, profile: Profile
) -> str | None:
    """What ``parse_directives(core, strip_reply_tags=False).text`` gives, when the audio
    flag it would report is certainly False and the answer needs no tag reading; else None.

    Only the outputs are replaced (explanations run the full pass). Profile ``next``'s tag
    pass reads audio tags only at :data:`AUDIO_HEAD` matches and reply tags only at
    :data:`REPLY_HEAD` matches, and normalises the boundaries (§5.1) when it recognised a tag
    or the text holds no ``[[``:

    * no ``[[``: the pass is exactly that normalisation (``tests/test_fastpaths.py``);
    * no audio head: no audio tag, so when the walk consumed nothing the split keeps its
      raw text and the tag text is never read; with no reply head either, the text is kept.
    """
    if profile.normalize_rewritten_whitespace:
        return None  # the release has its own tag module
    if "[[" not in core:
        code = StageCode(core, cmap)
        return normalize_boundaries(core, code.in_code, code.owns_tail)[0]
    if AUDIO_HEAD.search(core) is not None:
        return None
    if not walked or REPLY_HEAD.search(core) is None:
        return core
    return None


def _no_trim(s: str) -> tuple[str, Patch]:
    """``s`` kept whole (``preserve_trailing_whitespace``): no trim, no edit."""
    return s, []


def _trim_patch(s: str) -> tuple[str, Patch]:
    """Right-trim ``s`` (JS whitespace) and the patch that did it."""
    t = js_rtrim(s)
    if len(t) == len(s):
        return s, []
    return t, [Edit(len(t), len(s), s[len(t) :], "")]


def _explain_audio_left(diag: Diagnostics, visible: str, to_input: Callable[[int], int]) -> None:
    """TAGS.md §10 ``tag.audio_not_extracted``: audio tags left as text by request."""
    kept = parse_directives(visible, strip_audio_tag=False, strip_reply_tags=False, explain=True)
    for sp in kept.spans:
        if sp.kind == "audio_tag":
            start = to_input(sp.start)
            diag.add(
                "tag.audio_not_extracted",
                "info",
                "[[audio_as_voice]] stays in the text because audio directives were not "
                "extracted (extract_audio_directives=False); enable it to send a voice note",
                start,
                to_input(sp.end - 1) + 1,
            )


def _explain_narrowed(diag: Diagnostics, walk: Walk) -> None:
    """One ``media.policy.<rule>`` error per reference the gateway's policy refused."""
    hide = walk.judge.profile.hide_rejected
    for d in walk.directives:
        for item, verdict in d.narrowed:
            if hide:
                tail = (
                    "the reference was removed from the text and counted in "
                    "rejected_media_count, as the profile does with any refused reference"
                )
            elif d.outcome == "accepted":
                tail = "the reference stays visible as text next to the accepted one"
            elif d.outcome == "removed":
                tail = (
                    "the directive was removed from the text because it looks like a local "
                    "path, as the profile does with any refused reference"
                )
            else:
                tail = (
                    "the directive stayed visible as text, as the profile does with any "
                    "refused reference"
                )
            start = d.payload + item.start
            end = max(d.payload + item.end, start + 1)
            diag.add(
                verdict.code or "media.policy", "error", f"{verdict.reason}; {tail}", start, end
            )
    for line in walk.image_lines:
        for im, verdict in line.narrowed:
            diag.add(
                verdict.code or "media.policy",
                "error",
                f"{verdict.reason}; the Markdown image was not lifted and stays in the text",
                im.start,
                im.end,
            )


def split_media(
    text: str,
    *,
    extract_markdown_images: bool = False,
    markdown_image_allowlist: Sequence[str] | None = None,
    extract_media_directives: bool = True,
    extract_audio_directives: bool = True,
    preserve_trailing_whitespace: bool = False,
    profile: str | Profile = DEFAULT_PROFILE,
    explain: bool = False,
    policy: Policy | None = None,
) -> MediaSplit:
    """Split reply text into visible text, media references, voice flag and segments.

    ``profile`` names the upstream behaviour to reproduce (:data:`richout.PROFILES`);
    ``policy`` (:class:`richout.Policy`) refuses some of the references it accepts.
    ``preserve_trailing_whitespace`` keeps the input's trailing whitespace, and the line
    break left after a removed final ``MEDIA:`` line, as upstream's option of that name does.
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    require_str(text)
    prof = resolve_profile(profile)
    if not (
        type(extract_markdown_images) is bool
        and type(extract_media_directives) is bool
        and type(extract_audio_directives) is bool
        and type(preserve_trailing_whitespace) is bool
        and type(explain) is bool
    ):
        flags = (
            extract_markdown_images,
            extract_media_directives,
            extract_audio_directives,
            preserve_trailing_whitespace,
            explain,
        )
        for flag, name in zip(flags, _FLAG_NAMES, strict=True):
            require_bool(flag, name)
    if markdown_image_allowlist is not None:
        if isinstance(markdown_image_allowlist, str) or not isinstance(
            markdown_image_allowlist, Sequence
        ):
            raise InvalidInput(
                "markdown_image_allowlist must be a list of strings or None, got "
                f"{type(markdown_image_allowlist).__name__}"
            )
        for entry in markdown_image_allowlist:
            require_str(entry, "markdown_image_allowlist entry")
    _require_policy(policy)
    return _split(
        text,
        extract_markdown_images,
        markdown_image_allowlist,
        extract_media_directives,
        extract_audio_directives,
        profile=prof,
        preserve=preserve_trailing_whitespace,
        explain=explain,
        policy=policy,
    )


def _require_policy(policy: object) -> None:
    if policy is not None and not isinstance(policy, Policy):
        raise InvalidInput(f"policy must be a richout.Policy or None, got {type(policy).__name__}")


def split_for_views(
    text: str,
    *,
    extract_markdown_images: bool = False,
    extract_media_directives: bool = True,
    preserve_trailing_whitespace: bool = False,
    profile: Profile,
    explain: bool,
    policy: Policy | None,
) -> MediaSplit:
    """:func:`split_media` for ``parse_reply`` and ``render_reply``, which checked ``text``,
    the flags and the profile themselves and never read ``segments``: without ``explain``
    the result's segments are left empty instead of being built (text, media, flags and the
    explanation are those of :func:`split_media`)."""
    _require_policy(policy)
    return _split(
        text,
        extract_markdown_images,
        None,
        extract_media_directives,
        True,
        profile=profile,
        preserve=preserve_trailing_whitespace,
        explain=explain,
        policy=policy,
        segments=False,
    )


def _split(
    text: str,
    extract_markdown_images: bool,
    markdown_image_allowlist: Sequence[str] | None,
    extract_media_directives: bool,
    extract_audio_directives: bool,
    *,
    profile: Profile,
    preserve: bool = False,
    explain: bool,
    policy: Policy | None = None,
    segments: bool = True,
) -> MediaSplit:
    """The split; ``preserve`` skips the trims of the input's and the result's end, as
    upstream's ``preserveTrailingWhitespace`` does (the text is then walked as given).
    ``segments=False`` leaves the segments of a result without explanation empty."""

    def explainer() -> Explanation:
        return _split(
            text,
            extract_markdown_images,
            markdown_image_allowlist,
            extract_media_directives,
            extract_audio_directives,
            profile=profile,
            preserve=preserve,
            explain=True,
            policy=policy,
        ).explanation()

    trim = _no_trim if preserve else _trim_patch
    raw = text if preserve else js_rtrim(text)
    if not raw or (preserve and not js_trim(raw)):
        blank = raw if preserve else ""
        if not explain:
            return MediaSplit.lazy(explainer, text=blank)
        _, trim_patch = trim(text)
        return MediaSplit.explained(text=blank, edits=edit_records(trim_patch))
    images_on = extract_markdown_images or markdown_image_allowlist is not None
    media_on = extract_media_directives and has_media_token(raw)
    if not (media_on or (images_on and "![" in raw) or "[[" in raw):
        if not explain:
            return MediaSplit.lazy(explainer, text=raw)
        low = _lower_same_length(raw)
        _, trim_patch = trim(text)
        diags = _media_diag.fast_path(
            text, raw, low, extract_media_directives, images_on, profile=profile
        )
        return MediaSplit.explained(text=raw, diagnostics=diags, edits=edit_records(trim_patch))

    low = _lower_same_length(raw)
    allowlist: dict[str, str] | None = None
    if markdown_image_allowlist is not None:
        allowlist = {}
        for entry in markdown_image_allowlist:
            allowlist[strip_file_prefix(js_trim(entry))] = entry

    walker = _Walker(
        raw,
        low,
        media_on=media_on,
        directives_on=extract_media_directives,
        images_on=images_on,
        allowlist=allowlist,
        profile=profile,
        explain=explain,
        policy=policy,
    )
    walk = walker.run()
    lines = walker.lines

    if explain:
        walk_patch = _walk_patch(lines, walk.changes)
        joined = apply(raw, walk_patch) if walk_patch else raw
    else:
        joined = _walk_text(lines, walk.changes) if walk.changes else raw
    lead = _leading_blank_lines(joined, lines.cr)
    visible = joined[lead:]

    audio = False
    tagged = visible
    directives: Directives | None = None
    # Without "[[" the tag pass can only trim, and an unconsumed reply keeps its raw text, so
    # nothing the pass computes would reach the outputs.
    walked = bool(walk.media) or walk.consumed
    tags_matter = explain or "[[" in visible or walked
    if extract_audio_directives and tags_matter:
        # With ``preserve`` the tags are read in the text before its trailing whitespace,
        # which then ends the result unchanged.
        core = js_rtrim(visible) if preserve else visible
        cmap = walker.code_map_if_built() if core == raw else None
        shortcut = None if explain else _tag_pass_shortcut(core, walked, cmap, profile)
        if shortcut is not None:
            tagged = shortcut + visible[len(core) :]
        else:
            directives = parse_directives(
                core,
                strip_audio_tag=True,
                strip_reply_tags=False,
                explain=explain,
                code_map=cmap,
                profile=profile,
            )
            tagged = directives.text + visible[len(core) :]
            audio = directives.audio_as_voice
    final = tagged if preserve else js_rtrim(tagged)

    media = walk.media
    rejected = walk.rejected_count
    consumed = bool(media) or walk.consumed or audio
    out_text = final if consumed else raw
    built = False
    if not (segments or explain):
        return MediaSplit.lazy(
            explainer,
            text=out_text,
            media_urls=media,
            audio_as_voice=audio,
            rejected_media_count=rejected,
        )
    segs: list[Segment]
    if not media:
        segs = [Segment.trusted(type="text", text=out_text)] if out_text else []
    else:
        segs = _build_segments(lines, walk.changes)
        built = bool(segs)
        if not segs:
            segs = [Segment.trusted(type="text", text=out_text)]
    if not explain:
        return MediaSplit.lazy(
            explainer,
            text=out_text,
            media_urls=media,
            audio_as_voice=audio,
            segments=segs,
            rejected_media_count=rejected,
        )

    # ---- explanation: edits, spans and diagnostics, over the input text
    _, trim_patch = trim(text)
    lead_patch: Patch = [Edit(0, lead, joined[:lead], "")] if lead else []
    to_visible = compose(compose(trim_patch, walk_patch, raw), lead_patch, joined)
    tag_patch: Patch = []
    tag_spans: list[Span] = []
    tag_diags: list[Diagnostic] = []
    if directives is not None:
        tag_patch = [Edit(e.start, e.end, e.removed, e.inserted) for e in directives.edits]
        tag_spans = [x for x in directives.spans if x.kind == "audio_tag"]
        # Reply tags are read but not applied here (no reply target is computed), so only
        # findings about the text itself (tags in code, malformed or unknown tags) carry over.
        tag_diags = [x for x in directives.diagnostics if x.code in _TAG_CODES_KEPT]
    _, final_patch = trim(tagged)
    if consumed:
        patch = compose(compose(to_visible, tag_patch, visible), final_patch, tagged)
    else:
        patch = trim_patch

    spans = list(walk.spans)
    if tag_spans or tag_diags:
        to_input = offset_mapper(to_visible)
        for sp in tag_spans:
            a = to_input(sp.start)
            # An end sits just after the last character: map that character, not the gap
            # after it (the gap may be where a removed line was).
            b = to_input(sp.end - 1) + 1 if sp.end > sp.start else a
            spans.append(Span(kind=sp.kind, start=a, end=b, value=sp.value))
    spans.sort(key=lambda sp: (sp.start, sp.end))

    diag = Diagnostics(text)
    if tag_diags:
        diag.extend(tag_diags, offset_mapper(to_visible))
    if not extract_audio_directives and "[[" in visible:
        _explain_audio_left(diag, visible, offset_mapper(to_visible))
    _media_diag.explain(
        diag,
        walk,
        raw=raw,
        low=low,
        cmap=lambda: walker.cmap,
        media_on=extract_media_directives,
        allowlist=allowlist,
        audio_spans=[x for x in spans if x.kind == "audio_tag"] if built else [],
    )
    if policy is not None:
        _explain_narrowed(diag, walk)
    return MediaSplit.explained(
        text=out_text,
        media_urls=media,
        audio_as_voice=audio,
        segments=segs,
        rejected_media_count=rejected,
        diagnostics=diag.build(),
        spans=spans,
        edits=edit_records(patch),
    )
