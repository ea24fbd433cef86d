"""An opener's attributes: the grammar reading of one opener slice (EMBED.md §5).

Only the opener slice (``[embed`` ... first ``]``) of a shortcode that is actually handled goes
through the grammar (``grammars/embed.lark``); the reading is memoised for short slices, as
replies repeat the same few shortcodes. :func:`final_attributes` applies §5.2 to the pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from richout.grammar import load_grammar
from richout.text.chars import ascii_lower, is_js_ws, js_trim

if TYPE_CHECKING:
    from lark import Token

__all__ = ["NAME_CHARS", "Attribute", "Opener", "final_attributes", "parse_opener"]

NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@dataclass(frozen=True, slots=True)
class Attribute:
    """One ``name="value"`` pair of an opener; offsets are relative to the opener slice."""

    name: str
    value: str
    raw: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Opener:
    """An opener read by the grammar: its form, its pairs and its unquoted ``name=value`` text."""

    self_closing: bool
    attributes: tuple[Attribute, ...]
    unquoted: tuple[tuple[int, int], ...]


def _pair(token: Token) -> Attribute:
    text = str(token)
    n = len(text)
    i = 0
    while i < n and text[i] in NAME_CHARS:
        i += 1
    name = ascii_lower(text[:i])
    j = text.index("=", i) + 1
    while is_js_ws(text[j]):
        j += 1
    raw = text[j + 1 : n - 1]
    start = token.start_pos or 0
    return Attribute(name, js_trim(raw), raw, start, start + n)


#: Openers up to this length are memoised: replies repeat the same few shortcodes, and a
#: bound keeps the cache from pinning huge hostile slices in memory.
_CACHED_OPENER_LEN = 1024


def parse_opener(slice_: str) -> Opener:
    """Read one opener slice (``[embed`` ... first ``]``) with ``grammars/embed.lark``."""
    if len(slice_) <= _CACHED_OPENER_LEN:
        return _parse_opener_cached(slice_)
    return _parse_opener(slice_)


@lru_cache(maxsize=2048)
def _parse_opener_cached(slice_: str) -> Opener:
    return _parse_opener(slice_)


def _parse_opener(slice_: str) -> Opener:
    from lark import Token, Tree  # loaded with the grammar, not with richout

    tree = load_grammar("embed.lark").parse(slice_)
    attr_text = tree.children[1]
    assert isinstance(attr_text, Tree)
    attrs: list[Attribute] = []
    unquoted: list[tuple[int, int]] = []
    # The attribute text stops before the self-closing "/" (§2.2); an unquoted value does too.
    limit = len(slice_) - (2 if tree.data == "self_closing" else 1)
    # An unquoted value runs to the next whitespace or quote. Tokens come left to right, so
    # the stop found for one value also ends every value starting before it ("a=a=a=x"):
    # remembering it keeps the scan linear.
    stop = -1
    for tok in attr_text.children:
        assert isinstance(tok, Token)
        if tok.type == "PAIR":
            attrs.append(_pair(tok))
        elif tok.type == "UNQUOTED":
            start = tok.start_pos or 0
            value_start = start + len(tok)
            if value_start > stop:
                stop = value_start
                while stop < limit and not is_js_ws(slice_[stop]) and slice_[stop] not in "\"'":
                    stop += 1
            if stop > value_start:
                unquoted.append((start, stop))
    return Opener(tree.data == "self_closing", tuple(attrs), tuple(unquoted))


def final_attributes(opener: Opener) -> dict[str, Attribute]:
    """§5.2: lower-cased names, empty values dropped, a later pair replaces an earlier one."""
    final: dict[str, Attribute] = {}
    for attr in opener.attributes:
        if attr.value:
            final[attr.name] = attr
    return final
