r"""Reply and audio tags as the published ``openclaw@2026.9.6`` reads them (profile release).

The release differs from the ``next`` tag layer (:mod:`richout.tags`) in what it does to the
text around a removed tag, not in which tags it sees:

* a removed tag becomes one space when both neighbours (in the stage's input) are visible
  characters, else nothing; no gap closing beyond that;
* the result is then *whitespace-normalised* outside code: CRLF becomes LF, a run of two or
  more spaces/tabs between two visible characters becomes one space (matches do not overlap,
  so ``"a  b  c"`` keeps its second run), leading line feeds and one leading space/tab go,
  spaces/tabs before a line feed go, three or more line feeds become two, and the end is
  trimmed. Code regions are masked out while this runs and put back afterwards;
* a text with no ``[[`` at all is normalised too, but a text with ``[[`` in which no tag was
  found outside code comes back exactly as given.

The delivery strip (:func:`strip_for_delivery`) removes complete tags with the whitespace
around them (one space in their place), plus a malformed reply prefix at the very start, and
then trims the text, keeping the indentation of a leading code block.

Code regions come from :class:`richout.codemap.CodeMap`, richout's one CommonMark code parse.
The release's own ``findCodeRegions`` (micromark/mdast, GFM tables, HTML off) agrees with it on
every conformance case. Fuzzing found places where the two parsers disagree (about 0.4% of
tag-dense generated texts); they belong to CodeMap, which every profile shares, and all but
the second are not patched here:

* indented code inside a list item or block quote starts after the container prefix
  (``"-     code"``: release 2, CodeMap 0);
* whitespace-only lines indented four or more columns after top-level indented code
  extend it (``"    code\n    "``: release ends at 13, CodeMap at 8) -- the one difference
  this module does patch (:func:`_extend_indented`), since it decides which whitespace the
  normalisation keeps;
* an unclosed fence inside a container ends with its line (``"> ```\n"``: release 5,
  CodeMap 6);
* an indented line right after a link reference definition is paragraph text
  (``"[x]: /u\n    code"``: no code for the release);
* tables: a one-column table whose header has no pipe is a table for the release, so the
  indented line after it is code (``"a\n|-\n\tr"``); a fence line holding ``|`` above a
  delimiter row is a fence, not a table header (``"```||\n-|-"``);
* markdown-it trims U+00A0/U+3000 as whitespace: a first line of only such characters shifts
  CodeMap's inline-span offsets (``"\xa0\n`x`"``: release 2-5, CodeMap 0-3), and such a
  table cell changes the column count;
* the release drops a leading BOM before parsing, so its offsets then count from after it.

Everything is linear in the input: ``[[`` candidates are found with ``str.find`` from a
position that only moves forward, the first ``]`` / line feed after a value is remembered
between candidates (a text full of unclosed ``[[reply_to:`` is read in one pass), and the
whitespace rules run as single forward passes instead of regexes that could backtrack.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from richout.markdown.codemap import CodeMap, Region
from richout.policy.fileurl import file_url_to_path
from richout.tags.scan import Finder, blank_end, sanitize_reply_id, ws_end
from richout.tags.silent import DEFAULT_TOKEN, is_silent
from richout.text.chars import JS_WS_CLASS, is_js_ws, js_ltrim, js_rtrim, js_trim

__all__ = [
    "ReleaseDirectives",
    "ReleaseReply",
    "file_url_to_path",
    "parse_inline_directives",
    "reply_text",
    "strip_for_delivery",
]

# JavaScript "/i" without "/u" folds ASCII letters only; re.ASCII keeps U+017F/U+212A out.
_AUDIO_NAME = re.compile("audio_as_voice", re.IGNORECASE | re.ASCII)
# The delivery pattern is "/iu": Unicode simple case folding also maps U+017F (long s) to
# "s" (U+212A, the Kelvin sign, would map to "k", which no tag name holds).
_AUDIO_NAME_FOLDED = re.compile("audio_a[s\u017f]_voice", re.IGNORECASE | re.ASCII)
_CURRENT_NAME = re.compile("reply_to_current", re.IGNORECASE | re.ASCII)
_REPLY_NAME = re.compile("reply_to", re.IGNORECASE | re.ASCII)
_LEN_CURRENT = len("reply_to_current")
_LEN_REPLY = len("reply_to")

# "x  y" -> "x y": two visible characters around a run of 2+ spaces/tabs. Linear: only a
# visible character starts a match, and it scans just the run that follows it. The release
# matches UTF-16 units, so a character after the run that is astral (a surrogate pair) is
# consumed only by half: its other half may start the next match ("a  😀  b" -> "a 😀 b",
# while "a  b  c" -> "a b  c"). The lookahead branch reproduces that.
_ASTRAL = "\U00010000-\U0010ffff"
_GAP = re.compile(f"([^{JS_WS_CLASS}])[ \\t]{{2,}}(?:([^{JS_WS_CLASS}{_ASTRAL}])|(?=[{_ASTRAL}]))")
_LF_RUN = re.compile(r"\n{3,}")
_PRIVATE_RUN = re.compile("\ue000+")
# Cheap evidence that normalisation could change anything at all (see _normalize).
_MAY_NORMALIZE = re.compile(f"\\r\\n|[ \\t]\\n|\\n\\n\\n|[^{JS_WS_CLASS}][ \\t][ \\t]")
_DELIVERY_STOP = re.compile(r"[\]\r\n]")

TailMode = Literal["trim", "preserve", "normalize"]


@dataclass(frozen=True, slots=True)
class ReleaseDirectives:
    """What the release's ``parseInlineDirectives`` returns for one text."""

    text: str
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_explicit_id: str | None = None
    reply_to_current: bool = False
    has_audio_tag: bool = False
    has_reply_tag: bool = False


@dataclass(frozen=True, slots=True)
class ReleaseReply:
    """The reply-tag, delivery-strip and silence part of the release's reply parse."""

    text: str
    reply_to_id: str | None
    reply_to_current: bool
    reply_to_tag: bool
    is_silent: bool


class _Tag(NamedTuple):
    """A tag read at a ``[[``: where it ends, its kind and the raw id text (explicit only)."""

    end: int
    kind: Literal["audio", "current", "explicit"]
    raw_id: str | None = None


# --------------------------------------------------------------------------- reading tags


class _Reader:
    """Reads complete tags at increasing ``[[`` offsets of one text, in linear total time."""

    __slots__ = ("_audio", "_lf", "_lf_memo", "_n", "_rb", "text")

    def __init__(self, text: str, *, unicode_fold: bool = False) -> None:
        self.text = text
        self._n = len(text)
        self._audio = _AUDIO_NAME_FOLDED if unicode_fold else _AUDIO_NAME
        self._rb = Finder(text, "]")
        self._lf = Finder(text, "\n")
        # Candidates that share a value's line feed share the whitespace run after it.
        self._lf_memo = (-1, -1)

    def audio(self, marker: int) -> _Tag | None:
        """``[[`` ws ``audio_as_voice`` ws ``]]`` at ``marker``."""
        text = self.text
        m = self._audio.match(text, ws_end(text, marker + 2))
        if m is None:
            return None
        close = ws_end(text, m.end())
        return _Tag(close + 2, "audio") if text.startswith("]]", close) else None

    def reply(self, marker: int) -> _Tag | None:
        """``[[reply_to_current]]`` or ``[[reply_to:<value>]]`` at ``marker``."""
        text = self.text
        name = ws_end(text, marker + 2)
        if _CURRENT_NAME.match(text, name):
            close = ws_end(text, name + _LEN_CURRENT)
            # On failure the explicit form cannot match either: it needs ":" where "_" is.
            return _Tag(close + 2, "current") if text.startswith("]]", close) else None
        if not _REPLY_NAME.match(text, name):
            return None
        colon = ws_end(text, name + _LEN_REPLY)
        if not text.startswith(":", colon):
            return None
        after = colon + 1
        value = ws_end(text, after)
        if value >= self._n:
            return None
        if text.startswith("]]", value):
            # The value must hold one character, so the greedy whitespace gives one back: any
            # whitespace but a line feed will do. Such a value sanitises to nothing.
            if text[after:value].strip("\n"):
                return _Tag(value + 2, "explicit", "")
            return None
        if text[value] == "]":
            return None
        # The value runs to the first "]" or line feed; whitespace there must lead to "]]".
        stop = min(self._rb.find(value), self._lf.find(value))
        end = self._close_after(stop)
        return None if end is None else _Tag(end, "explicit", text[value:stop])

    def _close_after(self, stop: int) -> int | None:
        """End of ``ws* ]]`` at ``stop`` (a ``]`` or line feed), or None."""
        text = self.text
        if stop >= self._n:
            return None
        if text[stop] == "]":
            return stop + 2 if text.startswith("]]", stop) else None
        if self._lf_memo[0] != stop:
            self._lf_memo = (stop, ws_end(text, stop))
        close = self._lf_memo[1]
        return close + 2 if text.startswith("]]", close) else None

    def complete(self, marker: int) -> _Tag | None:
        """An audio or reply tag at ``marker`` (the delivery strip's first alternative)."""
        return self.audio(marker) or self.reply(marker)


# --------------------------------------------------------------------------- code regions


def _regions(text: str) -> list[Region]:
    """Every code region of ``text`` (blocks and inline spans), sorted.

    The release's parser (micromark) ends a top-level indented code block after the
    whitespace-only lines that still carry a full four-column indent, where markdown-it ends
    it at its last non-blank line; those lines are kept verbatim by the release's whitespace
    normalisation, so the block is extended here to match.
    """
    regions = CodeMap(text).regions()
    return [_extend_indented(text, r) if r.block else r for r in regions]


def _indent_columns(text: str, start: int, end: int) -> tuple[int, int]:
    """Columns of the leading spaces and tabs of ``text[start:end]`` and where they stop."""
    cols = 0
    i = start
    while i < end and text[i] in " \t":
        cols = cols + 4 - cols % 4 if text[i] == "\t" else cols + 1
        i += 1
    return cols, i


def _extend_indented(text: str, region: Region) -> Region:
    """``region`` grown over the four-column whitespace-only lines after an indented block."""
    line_start = text.rfind("\n", 0, region.start) + 1
    line_start = max(line_start, text.rfind("\r", 0, region.start) + 1)
    first_end = _line_end(text, region.start)
    cols, stop = _indent_columns(text, line_start, first_end)
    if line_start != region.start or cols < 4 or stop == first_end:
        return region  # fenced, inside a container, or not indented code
    end = region.end
    pos = end
    n = len(text)
    while pos < n:
        pos += 2 if text.startswith("\r\n", pos) else 1  # past the line break
        stop_line = _line_end(text, pos)
        cols, stop = _indent_columns(text, pos, stop_line)
        if stop != stop_line:
            break  # a line with content: the block ended before it
        if cols >= 4:
            end = stop_line
        pos = stop_line
    return Region(region.start, end, True) if end != region.end else region


def _line_end(text: str, pos: int) -> int:
    """End of the line holding ``pos`` (CR, CRLF and LF end lines)."""
    nl = text.find("\n", pos)
    cr = text.find("\r", pos)
    ends = [e for e in (nl, cr) if e >= 0]
    return min(ends) if ends else len(text)


def _may_have_blocks(text: str) -> bool:
    """False when ``text`` cannot hold a fenced or indented code block (substring tests)."""
    return "```" in text or "~~~" in text or "\t" in text or "    " in text


# --------------------------------------------------------------------------- normalisation


def _close_gap(m: re.Match[str]) -> str:
    """One space between the two visible characters of a :data:`_GAP` match."""
    return f"{m.group(1)} {m.group(2) or ''}"


def _normalize(text: str, tail: TailMode) -> str:
    """Whitespace normalisation outside code regions (``normalizeDirectiveWhitespace``)."""
    # Every rule needs one of these shapes, or leading/trailing whitespace, in the text
    # outside code (masking code never creates one): without them the parse is skipped.
    if (
        tail == "trim"
        and not _MAY_NORMALIZE.search(text)
        and (not text or (not is_js_ws(text[-1]) and text[0] not in " \t\n"))
    ):
        return text
    regions = _regions(text)
    # The release masks each region as <sentinel><index><sentinel>; the sentinel is a run
    # of U+E000 longer than any in the text, so a placeholder never meets a lookalike.
    longest = max((len(m.group()) for m in _PRIVATE_RUN.finditer(text)), default=0)
    sentinel = "\ue000" * (longest + 1)
    blocks: list[str] = []
    pieces: list[str] = []
    cursor = 0
    for region in regions:
        pieces.append(text[cursor : region.start])
        pieces.append(f"{sentinel}{len(blocks)}{sentinel}")
        blocks.append(text[region.start : region.end])
        cursor = region.end
    pieces.append(text[cursor:])
    masked = "".join(pieces)

    cut = len(js_rtrim(masked)) if tail == "preserve" else len(masked)
    body, suffix = masked[:cut], masked[cut:]
    body = body.replace("\r\n", "\n")
    body = _GAP.sub(_close_gap, body)
    body = body.lstrip("\n")
    if len(body) > 1 and body[0] in " \t" and not is_js_ws(body[1]):
        body = body[1:]
    # Spaces/tabs before each line feed, one line at a time (a "[ \t]+\n" regex would rescan
    # a long run of spaces from each of its characters).
    lines = body.split("\n")
    for i in range(len(lines) - 1):
        lines[i] = lines[i].rstrip(" \t")
    body = _LF_RUN.sub("\n\n", "\n".join(lines))
    body = js_rtrim(body) if tail == "trim" else body + suffix

    if not blocks:
        return body
    restore = re.compile(f"{sentinel}([0-9]+){sentinel}")

    def put_back(m: re.Match[str]) -> str:
        # Normalisation never touches U+E000 or digits, so every match is one placeholder;
        # the bounds check only keeps a malformed one as text instead of failing.
        index = int(m.group(1))
        return blocks[index] if index < len(blocks) else m.group()

    return restore.sub(put_back, body)


# --------------------------------------------------------------------------- parse


@dataclass(slots=True)
class _State:
    """What the tag stages saw (one text part)."""

    audio: bool = False
    reply: bool = False
    saw_current: bool = False
    explicit_id: str | None = None
    removed_trailing_line: bool = False


def _boundary(source: str, start: int, end: int) -> str:
    """One space when the removed tag sat between two visible characters, else nothing."""
    visible_before = start > 0 and not is_js_ws(source[start - 1])
    visible_after = end < len(source) and not is_js_ws(source[end])
    return " " if visible_before and visible_after else ""


def _stage(
    text: str,
    read: Callable[[_Reader, int], _Tag | None],
    on_tag: Callable[[_Tag], None],
    *,
    strip: bool,
    state: _State,
    preserve: bool,
) -> str:
    """One replace pass: tags outside code are reported and (when ``strip``) removed.

    Tags are matched left to right without overlap, like a global regex replace; code
    regions and word boundaries are those of this pass's input ``text``.
    """
    reader = _Reader(text)
    code: CodeMap | None = None
    out: list[str] = []
    last = 0
    pos = 0
    content_end = -1
    while True:
        marker = text.find("[[", pos)
        if marker < 0:
            break
        tag = read(reader, marker)
        if tag is None:
            pos = marker + 1
            continue
        pos = tag.end
        if code is None:
            code = CodeMap(text)
        if code.in_code(marker):
            continue
        on_tag(tag)
        if not strip:
            continue
        if preserve and not state.removed_trailing_line:
            if content_end < 0:
                content_end = len(js_rtrim(text))
            if tag.end == content_end:
                # The tag ends the text: was it alone on its line? Then the tail is normalised
                # instead of kept as written.
                line_start = max(text.rfind("\n", 0, marker), text.rfind("\r", 0, marker)) + 1
                state.removed_trailing_line = not text[line_start:marker].strip(" \t")
        out.append(text[last:marker])
        out.append(_boundary(text, marker, tag.end))
        last = tag.end
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def parse_inline_directives(
    text: str,
    *,
    current_message_id: str | None = None,
    strip_audio_tag: bool = True,
    strip_reply_tags: bool = True,
    preserve_trailing_whitespace: bool = False,
) -> ReleaseDirectives:
    """The release's ``parseInlineDirectives`` for one text part."""
    if not text:
        return ReleaseDirectives("")
    preserve = preserve_trailing_whitespace
    if "[[" not in text:
        return ReleaseDirectives(_normalize(text, "preserve" if preserve else "trim"))

    state = _State()

    def on_audio(_tag: _Tag) -> None:
        state.audio = True

    def on_reply(tag: _Tag) -> None:
        state.reply = True
        if tag.raw_id is None:
            state.saw_current = True
        else:
            # The last explicit id that survives sanitising wins, wherever a current tag is.
            clean = sanitize_reply_id(tag.raw_id)
            if clean:
                state.explicit_id = clean

    after_audio = _stage(
        text, _Reader.audio, on_audio, strip=strip_audio_tag, state=state, preserve=preserve
    )
    result = _stage(
        after_audio, _Reader.reply, on_reply, strip=strip_reply_tags, state=state, preserve=preserve
    )

    found = state.audio or state.reply
    if found or result != text:
        tail: TailMode = "trim"
        if preserve:
            tail = "normalize" if state.removed_trailing_line else "preserve"
        result = _normalize(result, tail)
    if not found:
        return ReleaseDirectives(result)
    reply_to_id = state.explicit_id
    if reply_to_id is None and state.saw_current and current_message_id is not None:
        reply_to_id = js_trim(current_message_id) or None
    return ReleaseDirectives(
        text=result,
        audio_as_voice=state.audio,
        reply_to_id=reply_to_id,
        reply_to_explicit_id=state.explicit_id,
        reply_to_current=state.saw_current,
        has_audio_tag=state.audio,
        has_reply_tag=state.reply,
    )


# --------------------------------------------------------------------------- delivery


def _malformed_prefix_end(text: str, marker: int) -> int | None:
    """End of a malformed reply prefix whose ``[[`` is at ``marker`` (only spaces/tabs before).

    ``[[reply_to_current`` followed by a single ``]``, by blanks then visible text, or by
    blanks to the end; ``[[reply_to:`` followed by a value closed by a single ``]`` on its
    line, or by nothing. Trailing spaces/tabs go with it.
    """
    n = len(text)
    name = ws_end(text, marker + 2)
    if _CURRENT_NAME.match(text, name):
        after = name + _LEN_CURRENT
        blank = blank_end(text, after)
        if text.startswith("]", blank) and not text.startswith("]]", blank):
            return blank_end(text, blank + 1)
        if blank == n or (blank > after and not is_js_ws(text[blank])):
            return blank
        return None
    if not _REPLY_NAME.match(text, name):
        return None
    colon = ws_end(text, name + _LEN_REPLY)
    if not text.startswith(":", colon):
        return None
    value = ws_end(text, colon + 1)
    if value == n:
        return n
    # Searched once per text (only the first "[[" can be a prefix): bounded.
    stop = _DELIVERY_STOP.search(text, value)
    if stop is None or stop.group() != "]" or text.startswith("]]", stop.start()):
        return None
    return blank_end(text, stop.start() + 1)


def _delivery_edits(text: str) -> list[tuple[int, int, str]]:
    """The delivery strip's removals: ``(start, end, replacement)`` in order, disjoint."""
    if "[[" not in text:
        return []
    n = len(text)
    reader = _Reader(text, unicode_fold=True)
    code: CodeMap | None = None
    # Asked once: four substring scans of the whole text per tag would be quadratic.
    may_have_blocks = _may_have_blocks(text)
    block_starts: list[int] | None = None
    edits: list[tuple[int, int, str]] = []
    search = 0
    prev_end = 0
    while search < n:
        marker = text.find("[[", search)
        if marker < 0:
            break
        # The padding before a tag moves into the edit, but never what a previous edit owns.
        start = marker
        while start > prev_end and is_js_ws(text[start - 1]):
            start -= 1
        tag = reader.complete(marker)
        complete = tag is not None
        if tag is not None:
            end = ws_end(text, tag.end)
        elif start == 0 and not text[:marker].strip(" \t"):
            prefix_end = _malformed_prefix_end(text, marker)
            if prefix_end is None:
                search = marker + 1
                continue
            end = prefix_end
        else:
            search = marker + 1
            continue
        search = prev_end = end
        if code is None:
            code = CodeMap(text)
        if code.in_code(marker):
            continue
        # A code block starting inside the removal keeps its line break and indentation;
        # blocks start on a new line, so only a removal spanning lines can hold one.
        keeps_block = False
        if may_have_blocks and ("\n" in text[marker:end] or "\r" in text[marker:end]):
            if block_starts is None:
                block_starts = [b.start for b in code.blocks()]
            k = bisect.bisect_right(block_starts, marker)
            keeps_block = k < len(block_starts) and block_starts[k] <= end
        if keeps_block:
            edits.append((start, start + len(js_rtrim(text[start:end])), ""))
        else:
            edits.append((start, end, " " if complete else ""))
    return edits


def _trim_keeping_code(text: str, both: bool) -> str:
    """Trim, but a leading code block keeps its indentation (``trimTextPreservingCode``)."""
    trimmed = js_ltrim(text)
    if trimmed and len(trimmed) != len(text) and _may_have_blocks(text):
        first = len(text) - len(trimmed)
        for block in CodeMap(text).blocks():
            if block.start <= first < block.end:
                trimmed = text[block.start :]
                break
    return js_rtrim(trimmed) if both else trimmed


def strip_for_delivery(text: str, *, preserve_trailing_whitespace: bool = False) -> str:
    """The release's ``stripInlineDirectiveTagsForDelivery`` for one text part."""
    edits = _delivery_edits(text)
    if not edits:
        return text
    pieces: list[str] = []
    last = 0
    for start, end, replacement in edits:
        pieces.append(text[last:start])
        pieces.append(replacement)
        last = end
    pieces.append(text[last:])
    return _trim_keeping_code("".join(pieces), not preserve_trailing_whitespace)


# --------------------------------------------------------------------------- reply


def reply_text(
    split_text: str,
    *,
    current_message_id: str | None,
    silent_token: str = DEFAULT_TOKEN,
    preserve_trailing_whitespace: bool = False,
) -> ReleaseReply:
    """The release's ``parseReplyDirectives`` after the media split, on the split's text."""
    preserve = preserve_trailing_whitespace
    parsed = (
        parse_inline_directives(
            split_text,
            current_message_id=current_message_id,
            strip_audio_tag=False,
            preserve_trailing_whitespace=preserve,
        )
        if "[[" in split_text
        else None
    )
    base = parsed.text if parsed is not None and parsed.has_reply_tag else split_text
    text = strip_for_delivery(base, preserve_trailing_whitespace=preserve)
    silent = is_silent(text, silent_token)
    return ReleaseReply(
        text="" if silent else text,
        reply_to_id=None if parsed is None else parsed.reply_to_id,
        reply_to_current=parsed is not None and parsed.reply_to_current,
        reply_to_tag=parsed is not None and parsed.has_reply_tag,
        is_silent=silent,
    )
