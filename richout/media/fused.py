"""The fused split: the common walked reply read in one pass, without the walk's records.

Most replies that hold a ``MEDIA:`` directive hold it as whole lines (``MEDIA:https://…``,
``MEDIA:/tmp/a.png``, a quoted path, a refused reference), with LF line breaks. For such a
reply the line walk (:mod:`richout.media.walk`) records a
:class:`~richout.media.lines.LineChange` per line, :func:`~richout.media.segments.walked_text`
removes the lines and :func:`~richout.media.segments.build_segments` pushes every kept line
(MEDIA.md §12); each step is general (CR breaks, rewritten lines, images, explanations) and
pays for it.

:func:`directive_cuts` finds the lines the walk would remove, by the walk's own tests and
payload steps, and gives up (None) when a line would be rewritten rather than removed or
kept (text before ``MEDIA:``, a payload part left visible, a kept line the walk trims).
:func:`text_without` and :func:`segments_of` then give what the walk and the segment builder
give for those removals. Only the outputs are built here; an explanation reruns the general
path (``tests/test_fused.py`` compares the two).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, NamedTuple

from richout.markdown.codemap import CodeMap
from richout.media.fates import plain_path
from richout.media.heads import PLAIN_DIRECTIVE, plain_paths
from richout.media.lines import MEDIA_AT_BOUNDARY, media_colon, passes_rule1, payload_start
from richout.media.payload import Judge, analyse_payload, may_name_a_source
from richout.media.segments import BLANK_LINES_LF, drop_ws_only_lines
from richout.media.single_token import BARE_TOKEN, bare_token_reference, read_clean_token
from richout.media.tagpass import read_tags
from richout.models import (
    MediaSplit,
    Segment,
    lazy_media_split,
    media_segment,
    output_names,
    text_segment,
)
from richout.policy import is_valid_reference
from richout.profiles import Profile
from richout.tags.close import boundaries_kept
from richout.tags.pipeline import TagStages
from richout.text.chars import (
    JS_WS_SET,
    BlankLineRun,
    collapse_blank_runs,
    has_double_bracket,
    js_rtrim,
)

__all__ = [
    "Cut",
    "Cuts",
    "directive_cuts",
    "fused_cuts",
    "fused_split",
    "lazy_split",
    "segments_of",
    "text_without",
]

#: One removed line: its start, its end (its ``\n`` or the text's end) and its references
#: (none for a line of refused references that leaves the text).
Cut = tuple[int, int, list[str]]


class Cuts(NamedTuple):
    """The lines a walk would remove, and the references it would hide and count."""

    cuts: list[Cut]
    rejected: int


#: Leading lines of only spaces and tabs, each with its ``\n`` (what the split drops, §3).
_LEADING_BLANK_LINES = BlankLineRun(" \t", "\n")
#: What such a run can open with (the empty string: an empty text has none).
_BLANK_LEAD = frozenset((" ", "\t", "\n"))


def directive_cuts(
    raw: str, profile: Profile, cmap: CodeMap, first: int | None = None
) -> Cuts | None:
    """The lines the walk would remove from ``raw`` (no CR; ``cmap`` its code map) and the
    references it would count, when every line it would change leaves the text whole; else
    None.

    The walk visits exactly the lines holding ``media:`` (in any letter case); a line that
    fails rule 1 is left as it is, and a rule-1 line in a fenced or indented block is code.
    A line matching :data:`~richout.media.heads.PLAIN_DIRECTIVE` whose token §7 accepts
    leaves the text as a whole, with its token as its one reference (the walk's own line
    shortcut). Any other directive line is read by the payload steps, as the walk reads it
    (:func:`~richout.media.payload.analyse_payload`): it leaves as a whole when nothing
    stands before ``MEDIA:`` and nothing of its payload stays visible, and it is kept as it
    is when its payload is refused and its cleaned line is the line itself; any other
    outcome rewrites the line: None. An empty list: the walk changes no line.

    The lines are found from their colons, as the trigger test finds ``media:``
    (:func:`~richout.media.lines.media_colon`): lower-casing a reply with non-ASCII text
    costs about as much as the trigger scan itself. ``first``, when the caller found it, is
    the first such colon.
    """
    n = len(raw)
    cuts: list[Cut] = []
    rejected = 0
    # One judge for the reply: a refused plain token is read again by the payload steps,
    # whose first, switch-free question then finds its answer in the memo. (An accepted one
    # is not: it is asked directly, as a memo of 100k distinct tokens costs more than it
    # saves.) Made on the first refusal or payload read: most replies need none.
    judge: Judge | None = None
    # Each line is read as it is found: a reply whose first directive line gives up the
    # fused split (a caption left visible) was once scanned to its end first (7% of a
    # megabyte render of such lines).
    scan_from = 0
    seen: tuple[set[str], dict[str, _Outcome | None]] = (set(), {})
    colon = media_colon(raw, 5) if first is None else first
    while colon >= 0:
        ls = raw.rfind("\n", scan_from, colon) + 1 or scan_from
        le = raw.find("\n", colon)
        if le < 0:
            le = n
        scan_from = le + 1
        colon = media_colon(raw, scan_from + 5) if le < n else -1
        m = PLAIN_DIRECTIVE.fullmatch(raw, ls, le)
        if m is None and not passes_rule1(raw, ls, le, profile.ascii_media_prefix):
            continue
        if cmap.line_in_block(ls, le):
            continue
        if m is not None and (m.start(1) == m.end(1) or profile.skip_leading_backtick):
            token = m.group(2)
            # A plain absolute path is accepted from its characters (fates.plain_path), as
            # the walk accepts it: the full check took a fifth of a render of 100k such lines.
            if plain_path(token) or is_valid_reference(token, profile=profile):
                cuts.append((ls, le, [token]))
                continue
            if judge is None:
                judge = Judge(profile, explains=False)
            judge.decided(token, False)
        paths = plain_paths(raw, ls, le) if m is None else None
        if paths is not None:
            # A line of plain absolute paths: each is a delivered part (the walk's shortcut).
            cuts.append((ls, le, paths))
            continue
        if judge is None:
            judge = Judge(profile, explains=False)
        read = _remembered(raw, ls, le, judge, m, seen=seen)
        if read is None:
            return None
        refs, counted = read
        if counted >= 0:
            cuts.append((ls, le, refs))
            rejected += counted
    return Cuts(cuts, rejected)


#: :func:`_read_line`'s outcome for a line the walk removes or keeps: the line's references
#: and the refused ones it counts, or :data:`_KEPT`. (Compared by value, not identity:
#: compiled code may unbox a tuple.)
_Outcome = tuple[list[str], int]
#: The outcome of a line the walk keeps as it is.
_KEPT: _Outcome = ([], -1)
#: Not in the line memo.
_UNREAD: _Outcome = ([], -2)


def _remembered(
    raw: str,
    ls: int,
    le: int,
    judge: Judge,
    plain: re.Match[str] | None,
    *,
    seen: tuple[set[str], dict[str, _Outcome | None]],
) -> _Outcome | None:
    """:func:`_read_line`, remembered by the line's text (which alone decides): the lines
    met once, and the outcomes of those met again (``seen``).

    A megabyte of one refused line repeated went from 0.47 to 0.27 s/MB. Only a line met
    twice is kept: keeping every line's outcome cost distinct lines 3-10% (100k live
    records for the collector to walk)."""
    once, known = seen
    line = raw[ls:le]
    read = known.get(line, _UNREAD)
    if read == _UNREAD:
        read = _read_line(raw, ls, le, judge, plain)
        if line in once:
            known[line] = read
        else:
            once.add(line)
    return read


def _read_line(
    raw: str, ls: int, le: int, judge: Judge, plain: re.Match[str] | None = None
) -> _Outcome | None:
    """The walk's reading of the directive line ``raw[ls:le]`` (``Walker._directive_line``)
    when it leaves the line whole or keeps it as it is: the line's references and the
    refused ones it counts when it leaves, :data:`_KEPT` when it stays; None when the line
    would be rewritten. Only the line's text decides (it starts at the text's start or
    after a ``\\n``, which the boundary search reads as no word character)."""
    if (
        plain is not None
        and plain.end(2) == le
        and (plain.start(1) == plain.end(1) or judge.profile.skip_leading_backtick)
    ):
        # The payload is the token: the head and payload steps below find it there (after
        # blanks, a case-blind MEDIA: and blanks, and the backtick the profile skips).
        return _read_payload_line(raw, ls, le, plain.group(2), judge, clean=True)
    head = MEDIA_AT_BOUNDARY.search(raw, ls, le)
    if head is None or head.end() >= le:
        return _KEPT  # no ASCII MEDIA:, or nothing after it: the walk keeps the line
    if head.start() > ls and collapse_blank_runs(raw[ls : head.start()]):
        return None  # text before MEDIA: stays in the line
    ps = payload_start(raw, head.end(), le, judge.profile.skip_leading_backtick)
    return _read_payload_line(raw, ls, le, raw[ps:le], judge)


def _read_payload_line(
    raw: str, ls: int, le: int, payload: str, judge: Judge, *, clean: bool = False
) -> _Outcome | None:
    """:func:`_read_line` of the directive line ``raw[ls:le]`` from its ``payload``;
    ``clean``: the payload is a :data:`~richout.media.heads.PLAIN_DIRECTIVE` token."""
    if not may_name_a_source(payload):
        # Words and spaces, say: nothing is delivered or counted, and nothing looks local.
        # The payload steps would list each word, 500k in a 1 MB line, to find that, and
        # read a distinct short token such as `"=1]` in 20-45 µs.
        line = raw[ls:le]
        return _KEPT if collapse_blank_runs(line) == line else None
    if BARE_TOKEN.fullmatch(payload) is not None:
        # A bare name, delivered whole or refused and left visible, counted by no profile:
        # the payload steps' records and dispatch were most of such a distinct line's cost.
        name = bare_token_reference(payload)
        if name is not None:
            return [name], 0
        line = raw[ls:le]
        return _KEPT if collapse_blank_runs(line) == line else None
    # (A clean payload is the token: no list, no unwrapping, no cleaning.)
    res = read_clean_token(payload, judge) if clean else analyse_payload(payload, judge)
    counted = len(res.counted)
    if res.accepted:
        if res.leftovers:
            return None  # part of the payload stays visible
        return [item.value for item in res.accepted], counted
    if res.looks_local or res.counted:
        return [], counted
    line = raw[ls:le]
    return _KEPT if collapse_blank_runs(line) == line else None


def text_without(raw: str, cuts: list[Cut]) -> str:
    """``raw`` without the cut lines (§3 step 5) and its leading blank lines.

    A removed line leaves with the ``\\n`` after it, except that removed lines running to the
    end of the text leave with the ``\\n`` before the first of them, as the walk's pieces do.
    """
    n = len(raw)
    tail = len(cuts)
    reach = n
    while tail > 0:
        ls, le, _ = cuts[tail - 1]
        if (le if reach == n else le + 1) != reach:
            break
        tail -= 1
        reach = ls
    pieces: list[str] = []
    cursor = 0
    for ls, le, _ in cuts[:tail]:
        pieces.append(raw[cursor:ls])
        cursor = le + 1
    if tail < len(cuts):
        pieces.append(raw[cursor : reach - 1 if reach else 0])
    else:
        pieces.append(raw[cursor:])
    joined = "".join(pieces)
    if joined[:1] not in _BLANK_LEAD:
        return joined  # most texts open on content (the run's search cost 0.4 µs a reply)
    lead = _LEADING_BLANK_LINES.end(joined)
    return joined[lead:] if lead else joined


def segments_of(raw: str, cuts: list[Cut]) -> list[Segment]:
    """The §12 segments of ``raw`` (trimmed: it ends in no whitespace) with the cut lines
    each replaced by its references.

    Between two cut lines the kept lines form blocks; each is pushed at once (§12): onto an
    open text segment, its lines with their blank lines emptied; else its leading blank
    lines add a ``\n`` to the latest text segment when a media segment follows it and it
    does not end with one, and the rest of the block, from its first line with content, is
    a new text segment with its blank lines emptied.

    The records are made in the one pass over the blocks (a text segment that grows later
    is made again, which is rare): a list of the texts, then one of the records, cost 0.4
    µs more of a fused reply's 3.
    """
    out: list[Segment] = []
    shared: dict[str, Segment] = {}  # segments are frozen: one record per reference
    latest = -1  # where the latest text segment is in out, and its text
    latest_text = ""
    open_text = False  # the last segment is a text segment
    cursor = 0
    n = len(raw)
    # The text after the last cut line is one more block, as if a line followed the end.
    for ls, le, urls in (*cuts, (n + 1, n, [])):
        if ls > cursor:
            end = ls - 1  # the block's last line ends here (its \n, or the text's end)
            if open_text:
                # Each line adds the break before it and itself, a blank line nothing more.
                latest_text += "\n" + drop_ws_only_lines(raw[cursor:end], False)
                out[latest] = text_segment(latest_text)
            else:
                # Most blocks open on content: no blank line to measure. A block of only
                # blank lines is followed by a cut line (raw ends in no whitespace), so
                # each has its \n and the run reaches past the block: no text is left.
                rest = cursor
                if raw[cursor : cursor + 1] in JS_WS_SET:
                    rest = BLANK_LINES_LF.end(raw, cursor, end + 1)
                    if rest > cursor and latest >= 0 and not latest_text.endswith("\n"):
                        # A blank line pushed after a media segment (no text is open, and
                        # one exists): the latest text ends with a break.
                        latest_text += "\n"
                        out[latest] = text_segment(latest_text)
                if rest < end:
                    latest_text = drop_ws_only_lines(raw[rest:end], False)
                    latest = len(out)
                    out.append(text_segment(latest_text))
                    open_text = True
        for url in urls:
            seg = shared.get(url)
            if seg is None:
                seg = shared[url] = media_segment(url)
            out.append(seg)
            open_text = False
        cursor = le + 1
    return out


def fused_cuts(raw: str, profile: Profile, cmap: CodeMap, first: int | None = None) -> Cuts | None:
    """The lines the walk would remove and the references it would count, when
    :mod:`richout.media.fused` can read the reply (LF line breaks, a profile without the
    release's whitespace rewrite, every line the walk changes removed whole; maybe none);
    else None."""
    if "\r" in raw or profile.normalize_rewritten_whitespace:
        return None
    return directive_cuts(raw, profile, cmap, first)


def fused_split(
    raw: str,
    found: Cuts,
    profile: Profile,
    audio_on: bool,
    explainer: Callable[[], MediaSplit],
    *,
    segments: bool,
    tag_runs: list[TagStages] | None,
    cmap: CodeMap | None = None,
) -> MediaSplit:
    """What the walked split (``pipeline._walked_split``) gives without explanations when
    the walk would only remove the ``found`` lines (at least one) and count its references
    (``cmap``: ``raw``'s code map, which the tag pass's resumes):
    the text they leave, the tag pass (the walk consumed lines, so it runs), the trim and
    the segments."""
    cuts = found.cuts
    visible = text_without(raw, cuts)
    audio = False
    tagged = visible
    # Without "[[" the pass is TAGS.md §5.1 alone, which keeps a text opening on content
    # and ending in no whitespace (most): its call chain cost 0.5 µs of such a reply.
    if audio_on and (has_double_bracket(visible) or not boundaries_kept(visible)):
        tagged, audio, _ = read_tags(
            visible,
            raw,
            cmap,
            profile,
            walked=True,
            preserve=False,
            explain=False,
            tag_runs=tag_runs,
        )
    text = js_rtrim(tagged)
    media = [url for _, _, urls in cuts for url in urls]
    fields = {
        "text": text,
        "media_urls": media,
        "audio_as_voice": audio,
        "rejected_media_count": found.rejected,
    }
    if segments:
        # Without a reference the walk's segments are its text, as one segment; that record
        # is built only then (built and dropped, it cost a microsecond on most fused replies).
        fields["segments"] = (
            segments_of(raw, cuts) if media else ([text_segment(text)] if text else [])
        )
    return lazy_split(explainer, fields)


def lazy_split(explainer: Callable[[], MediaSplit], fields: dict[str, Any]) -> MediaSplit:
    """The lazy result of a split path from its output ``fields``: every output but the
    segments, which a path leaves out when its caller reads none
    (:func:`~richout.models.records.lazy_media_split`, with the fields set of those names)."""
    segments = fields.get("segments")
    return lazy_media_split(
        explainer,
        _OUTPUT_NAMES if segments is None else _SEGMENTED_NAMES,
        fields["text"],
        fields["media_urls"],
        fields["audio_as_voice"],
        fields["rejected_media_count"],
        segments,
    )


#: The names of a split's output fields, without and with its segments (every path of the
#: split sets one of the two).
_OUTPUT_NAMES = output_names(MediaSplit, without=("segments",))
_SEGMENTED_NAMES = output_names(MediaSplit)
