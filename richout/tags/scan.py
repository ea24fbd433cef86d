"""Reading reply/audio tags: a pre-scan that cannot backtrack, then the grammar on a slice.

TAGS.md §1 describes three tags. ``grammars/tags.lark`` holds their grammar; this module finds
the few places where a tag can start and hands the grammar only the slice from that ``[[``
to the ``]]`` that could close it:

* a *head* regex (``[[``, whitespace, a tag name) locates candidates in C; a ``[[`` that is
  not followed by a name never reaches Python code;
* for audio and current tags the slice ends at the ``]]`` right after the name's whitespace;
* for an explicit tag it ends at the first ``]`` after the value start, which must be doubled.
  That ``]`` is found once per text with a memo (:class:`Finder`), so a text holding 20,000
  unclosed ``[[reply_to:x`` is read in one pass, not 20,000.

Parsed slices are cached by their text: real replies repeat the same handful of tags.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Literal, NamedTuple

from richout.grammar import load_grammar

if TYPE_CHECKING:
    from lark import Token, Tree
from richout.text.chars import JS_WS_CLASS, JS_WS_SET, js_trim

__all__ = [
    "AUDIO_HEAD",
    "MAX_REPLY_ID_LENGTH",
    "REPLY_HEAD",
    "TAG_HEAD",
    "TAG_NAMES",
    "UNSAFE_ID_CHARS",
    "Finder",
    "ReplyHead",
    "ReplyTagReader",
    "TagKind",
    "TagMatch",
    "blank_end",
    "grammar_read",
    "read_audio_at",
    "sanitize_reply_id",
    "value_shape",
    "ws_end",
]

#: The three tags of TAGS.md §1.
TagKind = Literal["audio", "current", "explicit"]

_WS_RUN = re.compile(f"[{JS_WS_CLASS}]*")
_BLANK_RUN = re.compile(r"[ \t]*")
# ASCII case-insensitive (JavaScript /i without /u): re.A keeps U+017F and U+212A out.
# ``[[`` then a whitespace class then a literal that is not whitespace: one way to match.
_AUDIO_NAME = rf"[{JS_WS_CLASS}]*audio_as_voice"
# The current name is tried first and, once it matched, the explicit form is not (§1.4):
# "_current" cannot start the explicit alternative, so the alternation keeps that order.
_REPLY_NAME = rf"[{JS_WS_CLASS}]*reply_to(?:(_current)|[{JS_WS_CLASS}]*:)"
#: What follows ``[[`` in an audio or reply head (compile with re.IGNORECASE | re.ASCII).
TAG_NAMES = f"{_AUDIO_NAME}|{_REPLY_NAME}"
AUDIO_HEAD = re.compile(r"\[\[" + _AUDIO_NAME, re.IGNORECASE | re.ASCII)
REPLY_HEAD = re.compile(r"\[\[" + _REPLY_NAME, re.IGNORECASE | re.ASCII)
#: A ``[[`` where :data:`AUDIO_HEAD` or :data:`REPLY_HEAD` matches (built from the same
#: names): a walk over every ``[[`` that only reads tags jumps between these in C (a run of
#: a million ``[`` holds none).
TAG_HEAD = re.compile(rf"\[\[(?={TAG_NAMES})", re.IGNORECASE | re.ASCII)
_NOT_WS = re.compile(f"[^{JS_WS_CLASS}]")
_OTHER_WS = re.compile(f"(?!\\n)[{JS_WS_CLASS}]")

_CACHE_MAX_ENTRIES = 2048
_CACHE_MAX_SLICE = 512


class TagMatch(NamedTuple):
    """A tag read at ``start``: ``[start, end)`` of the text, its kind and raw id text.

    ``id_text`` is the explicit tag's id text before sanitising (``""`` for an empty value);
    None for audio and current tags. ``complete`` is False only for the malformed leading
    reply prefix of TAGS.md §7.1 (``ReplyTagReader.read(..., allow_leading_malformed=True)``).
    """

    start: int
    end: int
    kind: TagKind
    id_text: str | None = None
    complete: bool = True


def ws_end(text: str, pos: int) -> int:
    """First offset at or after ``pos`` that is not JavaScript whitespace (``pos`` clamped to
    the text, as :mod:`re` clamps it)."""
    if 0 <= pos < len(text) and text[pos] not in JS_WS_SET:
        return pos  # most heads are followed by no whitespace: no regex call
    m = _WS_RUN.match(text, pos)
    return pos if m is None else m.end()


def blank_end(text: str, pos: int) -> int:
    """First offset at or after ``pos`` that is not U+0020 or U+0009."""
    m = _BLANK_RUN.match(text, pos)
    return pos if m is None else m.end()


# --------------------------------------------------------------------------- the grammar

_Parsed = tuple[TagKind, int, int] | None
_cache: dict[str, _Parsed] = {}


def _walk(tree: Tree[Token]) -> tuple[TagKind, int, int]:
    """The typed record of a parse: kind and the id text's slice offsets (-1 when none)."""
    from lark import Token, Tree  # loaded with the grammar, not with richout

    tag = tree.children[0]
    assert isinstance(tag, Tree)
    name = tag.data
    if name == "audio_tag":
        return ("audio", -1, -1)
    if name == "current_tag":
        return ("current", -1, -1)
    for child in tag.children:
        if isinstance(child, Tree) and child.data == "reply_id":
            word = child.children[0]
            assert isinstance(word, Token)
            start = word.start_pos if word.start_pos is not None else 0
            return ("explicit", start, start + len(word))
    # blank_id: whitespace only, a tag with an empty id
    return ("explicit", 0, 0)


def grammar_read(piece: str, key: str | None = None) -> _Parsed:
    """Parse one candidate slice with ``grammars/tags.lark``; None when it is not a tag.

    ``key`` names the slice in the cache when several slices are known to parse alike (see
    :func:`value_shape`); by default the slice itself.
    """
    key = piece if key is None else key
    if key in _cache:
        return _cache[key]
    from lark.exceptions import LarkError

    try:
        result: _Parsed = _walk(load_grammar("tags.lark").parse(piece))
    except LarkError:
        result = None
    if len(key) <= _CACHE_MAX_SLICE:
        if len(_cache) >= _CACHE_MAX_ENTRIES:
            _cache.clear()
        _cache[key] = result
    return result


def value_shape(value: str) -> str:
    """``value`` with each character replaced by its class for the grammar.

    Inside an explicit tag's value the grammar only tells apart U+000A, other whitespace and
    anything else (the slice holds no ``]`` before its closing ``]]``), so two values with the
    same shape parse alike, with the id at the same offsets: ids that differ only in their
    characters ("[[reply_to:1]]", "[[reply_to:2]]") share one parse.
    """
    return _OTHER_WS.sub(" ", _NOT_WS.sub("x", value))


# --------------------------------------------------------------------------- readers


def read_audio_at(text: str, pos: int) -> TagMatch | None:
    """A complete audio tag (§1.1) starting exactly at ``pos``, or None."""
    m = AUDIO_HEAD.match(text, pos)
    if m is None:
        return None
    close = ws_end(text, m.end())
    if not text.startswith("]]", close):
        return None
    parsed = grammar_read(text[pos : close + 2])
    if parsed is None or parsed[0] != "audio":
        return None  # pragma: no cover - the pre-scan and the grammar agree (property test)
    return TagMatch(pos, close + 2, "audio")


class Finder:
    """First occurrence of ``needle`` at or after a position, remembered between queries.

    Queries at increasing positions reuse the last answer while it is still ahead, so walking
    every candidate of a text costs one scan of the text in total.
    """

    __slots__ = ("_from", "_hit", "needle", "text")

    def __init__(self, text: str, needle: str) -> None:
        self.text = text
        self.needle = needle
        self._from = len(text) + 1
        self._hit = -1

    def find(self, pos: int) -> int:
        """Offset of the first ``needle`` at or after ``pos``; ``len(text)`` when none."""
        if not (self._from <= pos <= self._hit):
            hit = self.text.find(self.needle, pos)
            self._hit = len(self.text) if hit < 0 else hit
            self._from = pos
        return self._hit


class ReplyHead(NamedTuple):
    """What follows a reply head ``[[ reply_to``: the form and where its parts are."""

    kind: Literal["current", "explicit"]
    head_end: int  # after "reply_to_current", or after the colon
    value_start: int  # head_end with the whitespace after it skipped


class ReplyTagReader:
    """Reads reply tags (§1.2-§1.4) at increasing ``[[`` offsets of one text in linear time.

    Build one per text and call :meth:`read` at each ``[[`` from left to right (the delivery
    strip of §7.1 and the streaming hold-back walk texts this way); the first ``]`` and line
    feed after a position are remembered, so a text full of unclosed ``[[reply_to:`` is
    still read in one pass.
    """

    __slots__ = ("_close", "_leading", "_lf", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._close: Finder | None = None
        self._lf: Finder | None = None
        self._leading = -1

    def head(self, pos: int) -> ReplyHead | None:
        """The reply head at ``pos`` (``[[``, whitespace, then the current or explicit name)."""
        m = REPLY_HEAD.match(self.text, pos)
        return None if m is None else self.head_of(m)

    def head_of(self, m: re.Match[str]) -> ReplyHead:
        """The head matched by :data:`REPLY_HEAD` at ``m``."""
        end = m.end()
        kind: Literal["current", "explicit"] = "current" if m.group(1) else "explicit"
        return ReplyHead(kind, end, ws_end(self.text, end))

    def first_close(self, pos: int) -> int:
        """Offset of the first ``]`` at or after ``pos`` (``len(text)`` when none)."""
        if self._close is None:
            self._close = Finder(self.text, "]")
        return self._close.find(pos)

    def may_start_tag(self, pos: int) -> bool:
        """Could a complete tag start at the ``[[`` at ``pos``? Not when the first ``]`` after
        it is no ``]]``: a tag's name and whitespace hold no ``]``, and its value (explicit
        tags) ends at the first one, which must be doubled. A run of malformed heads each
        closed by a single ``]`` is passed over without reading each head."""
        close = self.first_close(pos + 2)
        return self.text.startswith("]]", close)

    def first_lf(self, pos: int) -> int:
        """Offset of the first U+000A at or after ``pos`` (``len(text)`` when none)."""
        if self._lf is None:
            self._lf = Finder(self.text, "\n")
        return self._lf.find(pos)

    def read(self, pos: int, *, allow_leading_malformed: bool = False) -> TagMatch | None:
        """The reply tag starting exactly at ``pos``, or None.

        With ``allow_leading_malformed`` a malformed reply prefix (§7.1) is also returned, as a
        match with ``complete=False``, when ``pos`` is the first offset of the text that is not
        U+0020/U+0009.
        """
        head = self.head(pos)
        if head is None:
            return None
        tag = self.read_head(pos, head)
        if tag is None and allow_leading_malformed:
            return self.read_malformed_prefix(pos, head)
        return tag

    def read_head(self, pos: int, head: ReplyHead) -> TagMatch | None:
        """A complete reply tag at ``pos`` whose head (from :meth:`head`) is ``head``."""
        text = self.text
        if head.kind == "current":
            if not text.startswith("]]", head.value_start):
                return None
            end = head.value_start + 2
            parsed = grammar_read(text[pos:end])
        else:
            close = self.first_close(head.value_start)
            if not text.startswith("]]", close):
                return None
            lf = self.first_lf(head.value_start)
            if lf < close and ws_end(text, lf) < close:
                # The id holds no line feed (only the whitespace around it may): this slice
                # is no tag, decided without handing it to the grammar. Many openers before
                # one far "]]" would otherwise each parse the whole rest of the text.
                return None
            end = close + 2
            key = None
            if end - pos <= _CACHE_MAX_SLICE:
                key = text[pos : head.head_end] + value_shape(text[head.head_end : close]) + "]]"
            parsed = grammar_read(text[pos:end], key)
        if parsed is None:
            return None
        kind, a, b = parsed
        if kind != head.kind:
            return None  # pragma: no cover - the pre-scan and the grammar agree
        if kind == "current":
            return TagMatch(pos, end, "current")
        return TagMatch(pos, end, "explicit", text[pos + a : pos + b])

    def leading_start(self) -> int:
        """First offset of the text that is not U+0020/U+0009 (where §7.1 prefixes may sit)."""
        if self._leading < 0:
            self._leading = blank_end(self.text, 0)
        return self._leading

    def read_malformed_prefix(self, pos: int, head: ReplyHead) -> TagMatch | None:
        """The malformed leading reply prefix of TAGS.md §7.1 at ``pos``, or None."""
        if pos != self.leading_start():
            return None
        text = self.text
        n = len(text)
        if head.kind == "explicit":
            v = head.value_start
            if v == n:
                return TagMatch(pos, n, "explicit", None, complete=False)
            close = self.first_close(v)
            if close == n or text.startswith("]", close + 1):
                return None
            # Only examined at the one leading position, so this scan is bounded once.
            if "\n" in text[v:close] or "\r" in text[v:close]:
                return None
            return TagMatch(pos, blank_end(text, close + 1), "explicit", None, complete=False)
        e = blank_end(text, head.head_end)
        if text.startswith("]", e) and not text.startswith("]", e + 1):
            return TagMatch(pos, blank_end(text, e + 1), "current", None, complete=False)
        if e == n or (e > head.head_end and ws_end(text, e) == e):
            return TagMatch(pos, e, "current", None, complete=False)
        return None


#: Longest reply id kept, in code points (§2.1).
MAX_REPLY_ID_LENGTH = 256
# Unicode general category Cc, and the brackets that could re-form a tag (§2.1).
UNSAFE_ID_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\[\]]")


def sanitize_reply_id(id_text: str) -> str:
    """The reply id of §2.1 for ``id_text``; ``""`` when the tag has no id."""
    trimmed = js_trim(id_text)
    if not trimmed:
        return ""
    cleaned = js_trim(UNSAFE_ID_CHARS.sub("", trimmed))
    return cleaned[:MAX_REPLY_ID_LENGTH]
