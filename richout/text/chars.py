"""Character facts shared by every layer: JavaScript whitespace, UTF-16 lengths, line index.

The reference implementation is JavaScript, so "whitespace", "trim" and string lengths follow
ECMAScript rules, not Python's: ``str.isspace()`` also accepts U+001C-U+001F and U+0085, and
``len()`` counts code points where JavaScript counts UTF-16 code units.
"""

from __future__ import annotations

import bisect
import re

__all__ = [
    "BLANK_RUN",
    "JS_WS",
    "JS_WS_CLASS",
    "JS_WS_NO_BREAK",
    "JS_WS_SET",
    "BlankLineRun",
    "LineBreaks",
    "LineIndex",
    "ascii_lower",
    "collapse_blank_runs",
    "contains",
    "find_str",
    "has_double_bracket",
    "has_js_ws",
    "has_lone_cr",
    "is_js_ws",
    "js_ltrim",
    "js_rtrim",
    "js_trim",
    "utf16_len",
    "utf16_prefix",
]

#: ECMAScript WhiteSpace + LineTerminator: what ``String.prototype.trim`` and ``\s`` remove.
JS_WS = (
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
#: The same set as the body of a regex character class (no brackets).
JS_WS_CLASS = r"\t\n\x0b\x0c\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
#: JavaScript whitespace that ends no line under any profile's rule (no CR, no LF).
JS_WS_NO_BREAK = JS_WS.replace("\n", "").replace("\r", "")

#: :data:`JS_WS` as a set: a one-character string is looked up in it without a scan.
JS_WS_SET = frozenset(JS_WS)
_HAS_WS = re.compile(f"[{JS_WS_CLASS}]")
#: A run of two or more spaces and tabs: what :func:`collapse_blank_runs` makes one space.
BLANK_RUN = re.compile(r"[ \t]{2,}")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_ASCII_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def is_js_ws(ch: str) -> bool:
    """True when ``ch`` is one JavaScript whitespace character."""
    return ch in JS_WS_SET


def has_js_ws(s: str) -> bool:
    """True when ``s`` contains a JavaScript whitespace character (JS ``/\\s/.test``)."""
    # Every JavaScript whitespace character but the space is one Python does not print
    # (a control or a separator), and isprintable is one C loop: a reference without
    # whitespace, the usual one, skips the regex (110 against 220 ns on a URL, timeit).
    return " " in s or (not s.isprintable() and _HAS_WS.search(s) is not None)


def js_trim(s: str) -> str:
    """JavaScript ``String.prototype.trim``."""
    return s.strip(JS_WS)


def js_ltrim(s: str) -> str:
    """JavaScript ``String.prototype.trimStart``."""
    return s.lstrip(JS_WS)


def js_rtrim(s: str) -> str:
    """JavaScript ``String.prototype.trimEnd``."""
    return s.rstrip(JS_WS)


#: How many places of its first character :func:`find_str` tries before a plain search.
_PROBES = 8
#: Below this many characters a plain search costs about what the call and a few probes
#: cost (a corpus reply with a fence and inline code read 0.3 µs slower probed at 256).
_PLAIN_BELOW = 1024


def find_str(text: str, needle: str, start: int = 0) -> int:
    """``text.find(needle, start)`` (``needle`` not empty), found from its first character.

    CPython finds one character at memory speed (20-60x faster than a longer needle, which
    it reads at about 1 ns a character on every string width), so where that character is
    rare, as ``[``, backticks and tildes are in prose, probing each place of it answers
    sooner. After :data:`_PROBES` places that do not start ``needle`` the rest of the text is
    searched plainly: a text dense with the character costs one plain search, not a probe
    per place. A short text is searched plainly at once.
    """
    if len(text) - start < _PLAIN_BELOW:
        return text.find(needle, start)
    first = needle[0]
    at = text.find(first, start)
    probes = 0
    while at >= 0:
        if text.startswith(needle, at):
            return at
        probes += 1
        if probes == _PROBES:
            return text.find(needle, at + 1)
        at = text.find(first, at + 1)
    return -1


def contains(text: str, needle: str) -> bool:
    """``needle in text`` (``needle`` not empty), through :func:`find_str` for a long text."""
    if len(text) < _PLAIN_BELOW:
        # (A streamed part asks several times: one call, not two.) The first character is
        # found at memory speed, and most texts lack it ("~", "]", "["): a search for the
        # whole needle reads about a nanosecond a character (0.75 against 0.14 µs for
        # "~~~" over the corpus replies).
        return needle[0] in text and needle in text
    return find_str(text, needle) >= 0


def has_lone_cr(text: str, start: int = 0, end: int | None = None) -> bool:
    """Does ``text[start:end]`` hold a CR that is no CRLF's (a line break of its own to
    CommonMark, where a CRLF is one line ending)? Two C-level counts."""
    stop = len(text) if end is None else end
    crs = text.count("\r", start, stop)
    return crs > 0 and crs != text.count("\r\n", start, stop + 1)


def has_double_bracket(text: str) -> bool:
    """``"[[" in text``: most replies hold no ``[`` at all (one single-character test), and
    those that do hold few (:func:`contains` probes them)."""
    return "[" in text and contains(text, "[[")


def collapse_blank_runs(s: str) -> str:
    """Collapse runs of 2+ spaces/tabs to one space, then JS-trim (the reference's line clean)."""
    return js_trim(BLANK_RUN.sub(" ", s))


def utf16_len(s: str) -> int:
    """Length of ``s`` in UTF-16 code units (JavaScript ``.length``)."""
    n = len(s)
    if s.isascii():
        return n
    return n + len(_ASTRAL.findall(s))


def utf16_prefix(s: str, units: int) -> str:
    """The longest prefix of ``s`` that fits in ``units`` UTF-16 code units.

    JavaScript ``slice(0, units)`` may cut a surrogate pair in half; the half is never a
    letter, so callers that only compare the prefix with ASCII lose nothing by dropping it.
    """
    out = []
    used = 0
    for ch in s:
        w = 2 if ord(ch) > 0xFFFF else 1
        if used + w > units:
            break
        out.append(ch)
        used += w
        if used == units:
            break
    return "".join(out)


def ascii_lower(s: str) -> str:
    """Lower-case ASCII letters only (JavaScript ``/i`` on ASCII patterns)."""
    # An ASCII string (a flag CPython keeps) lower-cases to the same through str.lower,
    # several times faster than the table walk: 60 against 330 ns on a URL's first eight
    # characters (timeit; references, schemes and attribute names are folded so).
    return s.lower() if s.isascii() else s.translate(_ASCII_UPPER)


class BlankLineRun:
    """Where a run of whole lines holding only ``blanks`` ends: the end of what
    ``(?:[blanks]*[breaks])*`` matches (each line with its one-character break; ``\r\n``
    is two breaks with nothing between, so it needs no alternative of its own).

    Found with one character class and a backward search for the last break: the group
    form keeps a backtracking mark per line, about 100 ns a character against 2 for the
    class, and a 1 MB run of line feeds cost 110 ms in one ``match``.
    """

    __slots__ = ("_breaks", "_run")

    def __init__(self, blanks: str, breaks: str) -> None:
        self._run = re.compile("[" + re.escape(blanks + breaks) + "]*")
        self._breaks = breaks

    def end(self, text: str, start: int = 0, stop: int | None = None) -> int:
        """The end of the run of blank lines starting at ``start`` (at most the text's
        length) and read up to ``stop`` (default: the text's end); ``start`` when no whole
        line is blank."""
        limit = len(text) if stop is None else stop
        run = self._run.match(text, start, limit)
        reach = run.end() if run is not None else start
        last = start - 1
        for brk in self._breaks:
            last = max(last, text.rfind(brk, start, reach))
        return last + 1


class LineIndex:
    """Maps code-point offsets of one text to 1-based (line, column); lines end at ``\\n``."""

    __slots__ = ("_starts",)

    def __init__(self, text: str) -> None:
        starts = [0]
        find = text.find
        i = find("\n")
        while i != -1:
            starts.append(i + 1)
            i = find("\n", i + 1)
        self._starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of ``offset``."""
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def line_start(self, line: int) -> int:
        """Offset where 1-based ``line`` starts."""
        return self._starts[line - 1]

    @property
    def starts(self) -> list[int]:
        """Where each line starts, in order (the first at 0); not to be changed."""
        return self._starts


class LineBreaks:
    """Where the lines of one text end, under a profile's rule: LF only, or CR, CRLF and LF.

    Queries move forward through the text in practice, so the next position of each break
    character is cached and found again only once the query passes it: many short lines
    cost one scan in all, not one scan each. A text without CR takes the LF-only paths.
    """

    __slots__ = ("_cr_at", "_cr_from", "_nl_at", "_nl_from", "cr", "text")

    def __init__(self, text: str, cr: bool) -> None:
        self.text = text
        #: CR ends a line too (and the text holds one)
        self.cr = cr and "\r" in text
        self._nl_at = self._cr_at = -1
        self._nl_from = self._cr_from = 1

    def line_end(self, pos: int) -> int:
        """End of the line holding ``pos`` (where its break starts, or the text's end)."""
        at = self._nl_at
        if not (self._nl_from <= pos <= at):
            at = self.text.find("\n", pos)
            if at < 0:
                at = len(self.text)
            self._nl_at = at
            self._nl_from = pos
        if not self.cr:
            return at
        cr = self._cr_at
        if not (self._cr_from <= pos <= cr):
            cr = self.text.find("\r", pos)
            if cr < 0:
                cr = len(self.text)
            self._cr_at = cr
            self._cr_from = pos
        return cr if cr < at else at

    def line_start(self, pos: int, floor: int = 0) -> int:
        """Start of the line holding ``pos``, looking back no further than ``floor``."""
        text = self.text
        start = text.rfind("\n", floor, pos) + 1
        if self.cr:
            start = max(start, text.rfind("\r", floor, pos) + 1)
        return max(start, floor)

    def break_after(self, end: int) -> int:
        """Length of the line break that starts at ``end`` (0 at the text's end)."""
        text = self.text
        if end >= len(text):
            return 0
        ch = text[end]
        if ch == "\n":
            return 1
        if ch == "\r" and self.cr:
            return 2 if text.startswith("\n", end + 1) else 1
        return 0

    def break_before(self, start: int) -> int:
        """Length of the line break that ends at ``start`` (0 at the text's start)."""
        text = self.text
        if start <= 0:
            return 0
        ch = text[start - 1]
        if ch == "\n":
            return 2 if self.cr and start >= 2 and text[start - 2] == "\r" else 1
        return 1 if ch == "\r" and self.cr else 0
