"""Where the published ``openclaw@2026.9.6`` recognises a tag (profile release).

The release reads the same three tags as profile ``next`` (TAGS.md §1) but with its own
regexes, which this module reproduces as forward scans: :class:`ReleaseTagReader` reads a
complete tag at a ``[[`` (the tag stages and the delivery strip), and
:func:`malformed_prefix_end` the malformed reply prefix the delivery strip also removes at the
very start of a text.

Everything is linear in the input: candidates come in increasing order, and the first ``]`` /
line feed after a value is remembered between candidates (a text full of unclosed
``[[reply_to:`` is read in one pass).
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from richout.tags.scan import Finder, blank_end, ws_end
from richout.text.chars import is_js_ws

__all__ = ["ReleaseTag", "ReleaseTagReader", "malformed_prefix_end"]

# JavaScript "/i" without "/u" folds ASCII letters only; re.ASCII keeps U+017F/U+212A out.
_AUDIO_NAME = re.compile("audio_as_voice", re.IGNORECASE | re.ASCII)
# The delivery pattern is "/iu": Unicode simple case folding also maps U+017F (long s) to
# "s" (U+212A, the Kelvin sign, would map to "k", which no tag name holds).
_AUDIO_NAME_FOLDED = re.compile("audio_a[s\u017f]_voice", re.IGNORECASE | re.ASCII)
_CURRENT_NAME = re.compile("reply_to_current", re.IGNORECASE | re.ASCII)
_REPLY_NAME = re.compile("reply_to", re.IGNORECASE | re.ASCII)
_LEN_CURRENT = len("reply_to_current")
_LEN_REPLY = len("reply_to")
_DELIVERY_STOP = re.compile(r"[\]\r\n]")


class ReleaseTag(NamedTuple):
    """A tag read at a ``[[``: where it ends, its kind and the raw id text (explicit only)."""

    end: int
    kind: Literal["audio", "current", "explicit"]
    raw_id: str | None = None


class ReleaseTagReader:
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

    def audio(self, marker: int) -> ReleaseTag | None:
        """``[[`` ws ``audio_as_voice`` ws ``]]`` at ``marker``."""
        text = self.text
        m = self._audio.match(text, ws_end(text, marker + 2))
        if m is None:
            return None
        close = ws_end(text, m.end())
        return ReleaseTag(close + 2, "audio") if text.startswith("]]", close) else None

    def reply(self, marker: int) -> ReleaseTag | None:
        """``[[reply_to_current]]`` or ``[[reply_to:<value>]]`` at ``marker``."""
        text = self.text
        name = ws_end(text, marker + 2)
        if _CURRENT_NAME.match(text, name):
            close = ws_end(text, name + _LEN_CURRENT)
            # On failure the explicit form cannot match either: it needs ":" where "_" is.
            return ReleaseTag(close + 2, "current") if text.startswith("]]", close) else None
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
                return ReleaseTag(value + 2, "explicit", "")
            return None
        if text[value] == "]":
            return None
        # The value runs to the first "]" or line feed; whitespace there must lead to "]]".
        stop = min(self._rb.find(value), self._lf.find(value))
        end = self._close_after(stop)
        return None if end is None else ReleaseTag(end, "explicit", text[value:stop])

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

    def complete(self, marker: int) -> ReleaseTag | None:
        """An audio or reply tag at ``marker`` (the delivery strip's first alternative)."""
        return self.audio(marker) or self.reply(marker)


def malformed_prefix_end(text: str, marker: int) -> int | None:
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
