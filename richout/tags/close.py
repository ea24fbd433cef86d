"""Closing the gaps left by removed tags (TAGS.md §5) and message boundaries (§5.1).

Both steps return the new text *and* the patch that made it, so a result can always be
rebuilt into its input (README decision 3).

Removal sites are positions, not a marker character written into the text: the reference
writes U+E000 runs and searches for them again, which can mistake a user's own U+E000 next
to a tag for part of the marker (a deliberate deviation, see UPSTREAM.md). Here a site is a
maximal run of directly adjacent removed ranges, and nothing else can be confused with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from richout.markdown.spans import LINE_STARTER
from richout.tags.scan import blank_end
from richout.text.chars import JS_WS, JS_WS_SET, is_js_ws
from richout.text.patch import Edit, Patch, apply, patch_from_pieces

__all__ = ["boundaries_kept", "close_sites", "leading_breaks_end", "normalize_boundaries"]

_BLANKS = " \t"
_BREAKS = "\r\n"
_BREAK_RUN = re.compile(r"[\r\n]*")
#: The line breaks §5.1 removes first (also what a reused tag reading may differ by).
LEADING_BREAKS = re.compile(r"(?:\r?\n)*")
_LF_RUN = re.compile(r"\n*")


def leading_breaks_end(text: str) -> int:
    """The end of :data:`LEADING_BREAKS`' match at the start of ``text``. Line feeds alone
    are one character class; the group form keeps a backtracking mark per break (1 MB of
    them: 110 ms against 2), so it reads only a run that holds a CR."""
    if not text or text[0] not in _BREAKS:
        return 0  # (most texts: no regex call)
    run = _LF_RUN.match(text)
    end = run.end() if run is not None else 0
    if not text.startswith("\r", end):
        return end
    m = LEADING_BREAKS.match(text)
    return m.end() if m is not None else 0


class _Out:
    """The output under construction: kept source ranges and inserted strings, in order.

    Besides the pieces it keeps, incrementally, the facts §5 asks about the output with its
    trailing blanks ignored: the last character that is not a blank, and how many U+000A end
    it (ignoring U+000D, at most 2). Trimming trailing blanks never changes those facts, so
    every step is amortised O(1) and many sites stay linear (a run of U+000D is looked at
    once, when it is pushed, not once per site).
    """

    __slots__ = ("ends_blank", "last", "newlines", "pieces", "src")

    def __init__(self, src: str) -> None:
        self.src = src
        self.pieces: list[tuple[int, int, str | None]] = []
        self.last: str | None = None  # last non-blank character; None while empty/blank
        self.newlines = 0  # U+000A count in the trailing break run of the blank-trimmed out
        self.ends_blank = False  # does the output (untrimmed) end with a blank?

    def keep(self, start: int, end: int) -> None:
        """Append ``src[start:end]``."""
        if start >= end:
            return
        src = self.src
        self.pieces.append((start, end, None))
        k = end
        while k > start and src[k - 1] in _BLANKS:
            k -= 1
        if k == start:
            self.ends_blank = True
            return
        was_blank = self.ends_blank
        self.ends_blank = k < end
        self.last = src[k - 1]
        count = 0
        x = k
        while x > start and src[x - 1] in _BREAKS:
            if src[x - 1] == "\n":
                count += 1
                if count >= 2:
                    break
            x -= 1
        if x == start and count < 2 and not was_blank:
            # The piece is line breaks only: they continue the output's own trailing run.
            count += self.newlines
        self.newlines = min(count, 2)

    def insert(self, s: str) -> None:
        """Append an inserted string (only ever one U+0020)."""
        self.pieces.append((-1, -1, s))
        self.ends_blank = True

    def trim_blanks(self) -> None:
        """Remove the output's trailing U+0020/U+0009, across pieces."""
        pieces = self.pieces
        src = self.src
        while pieces:
            start, end, ins = pieces[-1]
            if ins is not None:
                pieces.pop()
                continue
            k = end
            while k > start and src[k - 1] in _BLANKS:
                k -= 1
            if k > start:
                if k < end:
                    pieces[-1] = (start, k, None)
                break
            pieces.pop()
        self.ends_blank = False

    def patch(self) -> Patch:
        """The patch turning ``src`` into the output.

        Each gap between kept pieces is one edit, written directly: a kept piece is never
        empty, so no two edits touch and none needs merging (``patch_from_pieces`` cost a
        builder call per removed tag, 42k on a hostile reply), and every edit changes
        something: one that inserts a space also removes the site it closes, and any
        other removes text and inserts nothing."""
        src = self.src
        out: Patch = []
        cursor = 0
        pending: list[str] = []
        for start, end, ins in self.pieces:
            if ins is not None:
                pending.append(ins)
                continue
            if start > cursor or pending:
                out.append(Edit(cursor, start, src[cursor:start], "".join(pending)))
                pending = []
            cursor = end
        if cursor < len(src) or pending:
            out.append(Edit(cursor, len(src), src[cursor:], "".join(pending)))
        return out

    def text(self) -> str:
        """The output itself, joined from the pieces (no patch built)."""
        src = self.src
        return "".join(src[s:e] if ins is None else ins for s, e, ins in self.pieces)


def _sites(removed: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The sites of ``removed`` (sorted, disjoint ranges): maximal runs of directly adjacent
    ranges, each as one range."""
    i = 0
    count = len(removed)
    while i < count:
        site_start, site_end = removed[i]
        i += 1
        while i < count and removed[i][0] == site_end:
            site_end = removed[i][1]
            i += 1
        yield site_start, site_end


def close_sites(
    text: str, removed: Sequence[tuple[int, int]], *, with_patch: bool = True
) -> tuple[str, Patch]:
    """Remove the ranges ``removed`` (sorted, disjoint) and close each site's gap (§5).

    ``with_patch=False``: the patch is left empty, for a caller that needs only the text (a
    tag run that explains nothing builds no edit per site: 30k tags, 30k edits).
    """
    if not removed:
        return text, []
    if not with_patch:
        closed = _closed_site_by_site(text, removed)
        if closed is not None:
            return closed, []
    n = len(text)
    out = _Out(text)
    content_end = -1  # computed on first use: only case 2 needs it
    cursor = 0
    for site_start, site_end in _sites(removed):
        out.keep(cursor, site_start)
        nxt = blank_end(text, site_end)
        at_line_start = out.last is None or out.last in _BREAKS
        at_line_end = nxt >= n or text[nxt] in _BREAKS
        if at_line_start and at_line_end:
            # The line held only tags and blanks: the seam keeps at most one blank line.
            out.trim_blanks()
            breaks = out.newlines
            run_end = _BREAK_RUN.match(text, nxt)
            stop = run_end.end() if run_end else nxt
            while nxt < stop and breaks < 2:
                width = 2 if text.startswith("\r\n", nxt) else 1
                out.keep(nxt, nxt + width)
                breaks += 1
                nxt += width
            cursor = stop
            continue
        if not at_line_start:
            if content_end < 0:
                content_end = len(text.rstrip(JS_WS))
            if nxt < content_end:
                out.trim_blanks()
                if not at_line_end:
                    out.insert(" ")
                cursor = nxt
                continue
        # At the start of a line with content after it, or only whitespace to the end of the
        # message: the indentation belongs to the next content and the tail to §5.1.
        cursor = site_end
    out.keep(cursor, n)
    if not with_patch:
        return out.text(), []
    patch = out.patch()
    return apply(text, patch), patch


def _closed_site_by_site(text: str, removed: Sequence[tuple[int, int]]) -> str | None:
    """:func:`close_sites`' text, site by site without the output's running facts; None
    when a site follows another with only blanks between them and that one neither closed
    inside its line nor opened it, or stands on a line of tags and blanks after another site
    unless the output so far is the text before the first site and blanks (the general
    steps close those).

    The running facts (:class:`_Out`) are for such seams, whose breaks depend on all the
    output before them; a streamed part (``[[reply_to_current]]`` on a line of its own,
    then ``a [[reply_to_current]] b``, a row ending in a tag, ``a [[audio_as_voice]]
    [[audio_as_voice]] b``) needs none of them, and they were about half of its closing cost
    (``tests/test_tags_properties.py`` compares the two).
    """
    pieces: list[str] = []
    cursor = 0
    content_end = -1
    # The previous site closed inside its line (content before it and after it), and
    # whether it put a space in its place; or it opened its line with content after it.
    mid = spaced = lead = False
    # Where the blanks before the first site begin, while every site opened a line with
    # content after it, the first with nothing but text before it, the others with only
    # blanks since the one before (the output is then that text and blanks): -1 otherwise.
    chain = -1
    for site_start, site_end in _sites(removed):
        k = site_start
        while k > cursor and text[k - 1] in _BLANKS:
            k -= 1
        took_space = False
        if k > cursor:
            line_start = text[k - 1] in _BREAKS
        elif cursor == 0:
            line_start = True  # only blanks before it in the text
        elif mid:
            # Only blanks since a site that closed inside its line: the content before that
            # site is still the last kept, so this one is inside the line too.
            line_start = False
            took_space = spaced
        elif lead:
            line_start = True  # only blanks since a site that opened its line: so does this
        else:
            return None
        if cursor == 0:
            chain = k
        elif not (lead and k == cursor):
            chain = -1
        mid = spaced = lead = False
        nxt = blank_end(text, site_end)
        if line_start and (nxt >= len(text) or text[nxt] in _BREAKS):
            # A line of tags and blanks: its seam needs the text kept before it, known
            # when that is the text before the first site (the blanks kept since go).
            if cursor:
                if chain < 0:
                    return None
                k = chain
            pieces, cursor = _tag_line_seam(text, k, nxt)
            continue
        if line_start:
            # Case 1: what precedes the site stays, its indentation goes to the next content.
            pieces.append(text[cursor:site_start])
            cursor = site_end
            lead = True
            continue
        if content_end < 0:
            content_end = len(text.rstrip(JS_WS))
        if nxt < content_end:
            if took_space:
                pieces.pop()  # the two close as one: the general steps take the space back
            pieces.append(text[cursor:k])
            if text[nxt] not in _BREAKS:
                pieces.append(" ")
                spaced = True
            cursor = nxt
            mid = True
        else:
            # Only whitespace to the end: it stays for §5.1.
            pieces.append(text[cursor:site_start])
            cursor = site_end
    pieces.append(text[cursor:])
    return "".join(pieces)


def _tag_line_seam(text: str, k: int, nxt: int) -> tuple[list[str], int]:
    """What :func:`_closed_site_by_site` keeps of a line of tags and blanks when the output
    before it is ``text[:k]`` (``nxt``: where the blanks after its last site end): that
    text, then line breaks after the line up to one blank line at the seam, counting the
    line feeds that end ``text[:k]``; and where the closing resumes."""
    breaks = 0
    x = k
    while x and text[x - 1] in _BREAKS and breaks < 2:
        breaks += text[x - 1] == "\n"
        x -= 1
    pieces = [text[:k]]
    m = _BREAK_RUN.match(text, nxt)
    stop = m.end() if m is not None else nxt
    while nxt < stop and breaks < 2:
        width = 2 if text.startswith("\r\n", nxt) else 1
        pieces.append(text[nxt : nxt + width])
        breaks += 1
        nxt += width
    return pieces, stop


def boundaries_kept(text: str) -> bool:
    """Does §5.1 certainly keep ``text`` whole, before any code question? True when it
    starts with no line break or blank (steps 1-2) and ends in no whitespace (step 3):
    most texts, which then need no code view at all."""
    return not text or (
        text[0] not in _BREAKS and text[0] not in _BLANKS and text[-1] not in JS_WS_SET
    )


def _space_opening_a_paragraph(text: str, start: int) -> bool:
    """Is ``text[start]`` a space on a line that opens no block, ``start`` being the end of
    the text's leading line breaks (nothing else above it: after an open fence, say, the
    answer would mean nothing)?

    Such a line starts the text's first paragraph, whose code spans start at a backtick
    after the space, so the space is in no code region and step 2 needs no code question.
    A streamed part that began with a reply tag is such a text: asking its code map paired
    its backticks once more per part (``tests/test_tags_properties.py`` compares the full
    parse).
    """
    return text[start] == " " and LINE_STARTER.match(text, start) is None


def normalize_boundaries(
    text: str,
    in_code: Callable[[int], bool],
    tail_owned: Callable[[int], bool],
    *,
    with_patch: bool = True,
) -> tuple[str, Patch]:
    """§5.1 on ``text``: leading line breaks, one leading blank, trailing whitespace.

    ``in_code(pos)`` answers for the code regions of ``text`` (step 2);
    ``tail_owned(content_end)`` says whether a code region starting at or before
    ``content_end`` runs to the very end of ``text`` (step 3). Both are only asked when the
    answer matters. ``with_patch=False`` leaves the patch empty (see :func:`close_sites`).
    """
    n = len(text)
    if n == 0:
        return text, []
    start = leading_breaks_end(text)
    if (
        start + 1 < n
        and text[start] in _BLANKS
        and not is_js_ws(text[start + 1])
        and (_space_opening_a_paragraph(text, start) or not in_code(start))
    ):
        start += 1
    end = n
    if is_js_ws(text[-1]):
        content_end = len(text.rstrip(JS_WS))
        if not tail_owned(content_end):
            end = max(content_end, start)
    if start == 0 and end == n:
        return text, []
    if not with_patch:
        return text[start:end], []
    pieces: list[tuple[int, int, str | None]] = []
    if start > 0:
        pieces.append((0, start, ""))
    if end < n:
        pieces.append((end, n, ""))
    patch = patch_from_pieces(text, pieces)
    return text[start:end], patch
