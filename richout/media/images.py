"""§13 in the line walk: the images each line considers, and what an image line becomes
(MEDIA.md §13.1-§13.5), for :class:`~richout.media.walk.Walker`, which records what they
find in its :class:`~richout.media.lines.Walk`."""

from __future__ import annotations

import bisect

from richout.markdown.engine import ImageSpan, find_images
from richout.media.lines import (
    ImageLine,
    LineChange,
    SegmentItem,
    Walk,
    line_starts,
    lines_holding,
    passes_rule1,
)
from richout.models import Span
from richout.policy import Verdict, strip_file_prefix
from richout.text.chars import LineBreaks, collapse_blank_runs, js_trim, utf16_len

__all__ = ["MAX_IMAGES_PER_LINE", "MAX_IMAGE_LINE_UNITS", "image_line", "images_by_line"]

#: §13.3: a line longer than this (UTF-16 units) has its images skipped.
MAX_IMAGE_LINE_UNITS = 20_000
#: §13.3: at most this many images of one line are considered.
MAX_IMAGES_PER_LINE = 50


def images_by_line(
    walk: Walk,
    lines: LineBreaks,
    merged: dict[int, int],
    *,
    multiline: bool,
    directives_on: bool,
) -> dict[int, list[ImageSpan]]:
    """§13.1-§13.3: the considered images of each line, keyed by line start.

    With the profile's multi-line images (``next``, PROFILES.md rule 7) an image whose
    label, destination or title runs past its first line joins the lines it covers into
    one line (at most 20,000 UTF-16 units); ``merged`` records where such a line ends (its
    first line's start -> the end of its last). ``multiline``: the profile joins such lines;
    ``directives_on``: a line that is a directive is not joined.
    """
    raw = walk.raw
    holding = lines_holding(raw, lines, "![")
    if not holding:
        return {}
    scan = False
    # A multi-line image may close its label on a later line.
    last_close = raw.rfind("](") if multiline else -1
    for ls, le in holding:
        if le - ls > MAX_IMAGE_LINE_UNITS or utf16_len(raw[ls:le]) > MAX_IMAGE_LINE_UNITS:
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
    starts = line_starts(lines)
    long_starts = {ls for ls, _ in walk.long_image_lines}
    out: dict[int, list[ImageSpan]] = {}
    cur_ls = cur_le = -1
    for im in sorted(images, key=lambda s: s.start):
        if im.start >= cur_le:
            k = bisect.bisect_right(starts, im.start) - 1
            cur_ls = starts[k]
            cur_le = lines.line_end(cur_ls)
        if cur_ls in long_starts:
            continue  # reported once per line
        bucket = out.setdefault(cur_ls, [])
        why = "spans"
        if im.end > cur_le and multiline and len(bucket) < MAX_IMAGES_PER_LINE:
            end = lines.line_end(im.end - 1)
            if directives_on and passes_rule1(raw, cur_ls, cur_le, True):
                why = "directive"
            elif utf16_len(raw[cur_ls:end]) > MAX_IMAGE_LINE_UNITS:
                why = "long"
            else:
                cur_le = end
                merged[cur_ls] = end
        if im.end > cur_le:
            walk.skipped_images.append((im, why))
            continue
        if len(bucket) >= MAX_IMAGES_PER_LINE:
            walk.skipped_images.append((im, "cap"))
            continue
        bucket.append(im)
    return {ls: found for ls, found in out.items() if found}


def image_line(
    walk: Walk,
    ls: int,
    le: int,
    images: list[ImageSpan],
    *,
    allowlist: dict[str, str] | None,
    explain: bool,
) -> None:
    """§13.4-§13.5 for one line."""
    raw = walk.raw
    seg_pieces: list[str] = []
    vis_pieces: list[str] = []
    segs: list[SegmentItem] = []
    lifted: list[tuple[ImageSpan, str]] = []
    narrowed: list[tuple[ImageSpan, Verdict]] = []
    cursor = ls
    for im in images:
        before = raw[cursor : im.start]
        seg_pieces.append(before)
        vis_pieces.append(before)
        target = strip_file_prefix(js_trim(im.destination))
        url: str | None = None
        if allowlist is not None:
            chosen = allowlist.get(target)
            if chosen:
                url = chosen
        elif target[:8].lower().startswith(("http://", "https://")) and walk.judge.ok(target):
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
    kept: list[tuple[int, int]] = []
    cursor = ls
    for im, url in lifted:
        walk.media.append(url)
        if explain:
            walk.spans.append(Span.trusted(kind="image", start=im.start, end=im.end, value=url))
        if cursor < im.start:
            kept.append((cursor, im.start))
        cursor = im.end
    if cursor < le:
        kept.append((cursor, le))
    walk.changes.append(LineChange(ls, le, cleaned or None, segs, kept))
