"""When a final text duplicates a message-tool send (ENVELOPE.md §4.3).

Both texts are normalised (lower-cased, emoji dropped, whitespace runs collapsed, trimmed);
one duplicates the other when it contains the other and the shorter is at least half the
longer, both being at least :data:`MIN_DUPLICATE_TEXT_UNITS` UTF-16 units long.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import regex  # type: ignore[import-untyped,unused-ignore]  # stubs are not in the test extras

from richout.envelope._common import require_str_list
from richout.errors import require_str
from richout.text.chars import JS_WS_CLASS, js_trim, utf16_len

__all__ = [
    "MIN_DUPLICATE_TEXT_UNITS",
    "duplicate_of",
    "is_duplicate_text",
    "normalize_for_duplicate",
]

#: Texts shorter than this (UTF-16 units, after normalisation) never count as duplicates.
MIN_DUPLICATE_TEXT_UNITS = 10

_EMOJI = regex.compile(r"[\p{Emoji_Presentation}\p{Extended_Pictographic}]+")
_WS_RUN = re.compile(f"[{JS_WS_CLASS}]+")


def normalize_for_duplicate(text: str) -> str:
    """Lower-case, drop emoji, collapse whitespace runs to one space, trim (§4.3)."""
    require_str(text)
    s = js_trim(text).lower()
    if not s.isascii():
        s = _EMOJI.sub("", s)
    return js_trim(_WS_RUN.sub(" ", s))


def duplicate_of(norm: str, sent_norm: str) -> bool:
    """Both normalised; one contains the other and the shorter is at least half the longer."""
    n, m = utf16_len(norm), utf16_len(sent_norm)
    if n < MIN_DUPLICATE_TEXT_UNITS or m < MIN_DUPLICATE_TEXT_UNITS:
        return False
    if n >= m:
        return sent_norm in norm and 2 * m >= n
    return norm in sent_norm and 2 * n >= m


def is_duplicate_text(text: str, sent_texts: Iterable[str]) -> bool:
    """True when ``text`` duplicates one of ``sent_texts`` by the message-tool rule (§4.3)."""
    require_str(text)
    sent_texts = require_str_list(sent_texts, "sent_texts")
    norm = normalize_for_duplicate(text)
    return any(duplicate_of(norm, normalize_for_duplicate(s)) for s in sent_texts)
