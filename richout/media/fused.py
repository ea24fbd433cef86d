"""The fused split: the common walked reply read in one pass, without the walk's records.

Most replies that hold a ``MEDIA:`` directive hold it as whole lines of one plain token
each (``MEDIA:https://…``, ``MEDIA:/tmp/a.png``), with LF line breaks. For such a reply the
line walk (:mod:`richout.media.walk`) records a :class:`~richout.media.lines.LineChange` per
line, :func:`~richout.media.segments.walked_text` removes the lines and
:func:`~richout.media.segments.build_segments` pushes every kept line (MEDIA.md §12); each
step is general (CR breaks, directive remainders, images, explanations) and pays for it.

:func:`directive_cuts` finds the lines the walk would remove, in the walk's own order and
by its own tests, and gives up (None) at the first line the general path would judge
differently: a ``MEDIA:`` line that is not one plain token, a token §7 refuses, a backtick
the profile does not skip. :func:`text_without` and :func:`segments_of` then give what the
walk and the segment builder give for those removals. Only the outputs are built here; an
explanation reruns the general path (``tests/test_fastpaths.py`` compares the two).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from richout.markdown.codemap import CodeMap
from richout.media.lines import passes_rule1
from richout.media.segments import BLANK_LINES_LF, drop_ws_only_lines
from richout.media.tagpass import read_tags
from richout.media.walk import PLAIN_DIRECTIVE
from richout.models import MediaSplit, Segment, media_segment, text_segment
from richout.policy import is_valid_reference
from richout.profiles import Profile
from richout.tags.pipeline import TagStages
from richout.text.chars import JS_WS, js_rtrim

__all__ = ["Cut", "directive_cuts", "fused_cuts", "fused_split", "segments_of", "text_without"]

#: One removed line: its start, its end (its ``\n`` or the text's end) and its reference.
Cut = tuple[int, int, str]

#: Leading lines of only spaces and tabs, each with its ``\n`` (what the split drops, §3).
_LEADING_BLANK_LINES = re.compile(r"(?:[ \t]*\n)*")


def directive_cuts(raw: str, profile: Profile, cmap: CodeMap) -> list[Cut] | None:
    """The lines the walk would remove from ``raw`` (no CR; ``cmap`` its code map), when
    every line holding ``media:`` (in any letter case) is a removed plain directive, a line
    inside a code block, or a line that fails §5 rule 1; else None.

    The walk visits exactly the lines holding ``media:``; a line that fails rule 1 is left
    as it is, and a rule-1 line in a fenced or indented block is code. A line matching
    :data:`~richout.media.walk.PLAIN_DIRECTIVE` whose token §7 accepts leaves the text as a
    whole, with its token as its one reference (the walk's own line shortcut). Any other
    rule-1 line needs the payload steps: None. An empty list: the walk removes no line.
    The shapes are read first and the code and §7 questions asked after, so a reply that
    needs the walk costs little more here than the search for its lines. The lines are
    found from their colons, as the trigger test finds ``media:`` (no non-ASCII character
    lower-cases to one of its letters): lower-casing a reply with non-ASCII text costs
    about as much as the trigger scan itself.
    """
    n = len(raw)
    plain: list[tuple[int, int, re.Match[str]]] = []
    scan_from = 0
    find = raw.find
    colon = find(":", 5)
    while colon >= 0:
        if raw[colon - 5 : colon].lower() != "media":
            colon = find(":", colon + 1)
            continue
        ls = raw.rfind("\n", scan_from, colon) + 1 or scan_from
        le = find("\n", colon)
        if le < 0:
            le = n
        m = PLAIN_DIRECTIVE.fullmatch(raw, ls, le)
        if m is not None:
            plain.append((ls, le, m))
        elif passes_rule1(raw, ls, le, profile.ascii_media_prefix):
            return None
        if le >= n:
            break
        scan_from = le + 1
        colon = find(":", scan_from + 5)
    cuts: list[Cut] = []
    for ls, le, m in plain:
        if cmap.line_in_block(ls, le):
            continue
        if m.start(1) < m.end(1) and not profile.skip_leading_backtick:
            return None
        token = m.group(2)
        if not is_valid_reference(token, profile=profile):
            return None
        cuts.append((ls, le, token))
    return cuts


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
    lead = _LEADING_BLANK_LINES.match(joined)
    return joined[lead.end() :] if lead is not None and lead.end() else joined


def segments_of(raw: str, cuts: list[Cut]) -> list[Segment]:
    """The §12 segments of ``raw`` (trimmed: it ends in no whitespace) with the cut lines
    each replaced by its reference.

    Between two references the kept lines form blocks that follow a media segment (or open
    the reply), so §12's push reduces to: a block's leading blank lines add a ``\\n`` to the
    latest text segment when it does not end with one (after a media segment only), and the
    rest of the block, from its first line with content, is a new text segment with its
    blank lines emptied.
    """
    texts: list[str] = []  # the text segments' contents
    order: list[int | str] = []  # the segments: an index into texts, or a reference
    n = len(raw)
    cursor = 0
    for ls, le, url in cuts:
        if ls > cursor:
            _block(raw, cursor, ls - 1, texts, order)
        order.append(url)
        cursor = le + 1
    if cursor <= n:
        _block(raw, cursor, n, texts, order)
    # Segments are frozen: one media record serves every repeat of its reference.
    shared: dict[str, Segment] = {}
    out: list[Segment] = []
    for item in order:
        if type(item) is int:
            out.append(text_segment(texts[item]))
            continue
        url = str(item)
        seg = shared.get(url)
        if seg is None:
            seg = shared[url] = media_segment(url)
        out.append(seg)
    return out


def _block(raw: str, start: int, end: int, texts: list[str], order: list[int | str]) -> None:
    """Push the kept lines of ``raw[start:end]`` (``end`` is their last line's end), which
    follow a media segment or open the reply. A block of only blank lines is followed by a
    cut line (``raw`` ends in no whitespace), so each of them has its ``\\n``."""
    m = BLANK_LINES_LF.match(raw, start, end + 1)
    rest = m.end() if m is not None else start
    block = raw[rest:end] if rest < end else ""
    if rest > start and texts and not texts[-1].endswith("\n"):
        # A blank line pushed after a media segment (only the first block has none before
        # it, and no text either): the latest text ends with a break.
        texts[-1] += "\n"
    if block.strip(JS_WS):
        order.append(len(texts))
        texts.append(drop_ws_only_lines(block, False))


def fused_cuts(raw: str, profile: Profile, cmap: CodeMap) -> list[Cut] | None:
    """The lines the walk would remove, when :mod:`richout.media.fused` can read the reply
    (LF line breaks, profile ``next``'s tag pass, only plain directives removed, maybe none);
    else None."""
    if "\r" in raw or profile.normalize_rewritten_whitespace:
        return None
    return directive_cuts(raw, profile, cmap)


def fused_split(
    raw: str,
    cuts: list[Cut],
    profile: Profile,
    audio_on: bool,
    explainer: Callable[[], MediaSplit],
    *,
    segments: bool,
    tag_runs: list[TagStages] | None,
) -> MediaSplit:
    """What the walked split (``pipeline._walked_split``) gives without explanations for a
    reply whose walk would
    only remove the ``cuts`` lines, each with its one reference: the text they leave, the
    tag pass (the walk consumed lines, so it runs), the trim and the segments."""
    visible = text_without(raw, cuts)
    audio = False
    tagged = visible
    if audio_on:
        tagged, audio, _ = read_tags(
            visible,
            raw,
            None,
            profile,
            walked=True,
            preserve=False,
            explain=False,
            tag_runs=tag_runs,
        )
    media = [url for _, _, url in cuts]
    if not segments:
        return MediaSplit.lazy(
            explainer,
            text=js_rtrim(tagged),
            media_urls=media,
            audio_as_voice=audio,
            rejected_media_count=0,
        )
    return MediaSplit.lazy(
        explainer,
        text=js_rtrim(tagged),
        media_urls=media,
        audio_as_voice=audio,
        segments=segments_of(raw, cuts),
        rejected_media_count=0,
    )
