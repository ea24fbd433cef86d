"""§17.1: why a line holding ``MEDIA:`` is not a directive (MEDIA.md §17.1).

The walk (:mod:`richout.media.walk`) visits only the lines that pass §5 rule 1; these checks
look at the other lines holding ``media`` (or an HTML entity that could spell it) and say
what hid the directive: a list item, block quote or table cell, markup or an entity before
it, a space before the colon, ``MEDIA:`` later in the line, or extraction switched off.
Also :func:`shown`, how every media diagnostic quotes a value.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from richout.markdown.codemap import CodeMap
from richout.media.lines import MEDIA_AT_BOUNDARY, lines_holding, passes_rule1
from richout.media.payload import Judge
from richout.models.diagnostics import Diagnostics
from richout.text.chars import JS_WS, LineBreaks, ascii_lower

__all__ = ["line_checks", "shown"]

_WS = frozenset(JS_WS)
_LIST_ITEM = re.compile(
    r"(?:[-*+]|[0-9]{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]*)?media:", re.IGNORECASE | re.ASCII
)
_TABLE_CELL = re.compile(r"\|[ \t]*media:", re.IGNORECASE | re.ASCII)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MARKUP = frozenset("*_`~\\\"'([")
_NON_WS_RUN = re.compile(f"[^{re.escape(JS_WS)}]*")
#: A token longer than this (code points) is over §7's 4096-unit cap even after the prefix.
_MAX_TOKEN = 4096 + 7


def shown(s: str, limit: int = 60) -> str:
    return repr(s if len(s) <= limit else s[: limit - 3] + "...")
    """``s`` quoted for a message, cut to ``limit`` characters."""


def _left_trim(raw: str, ls: int, le: int) -> int:
    i = ls
    while i < le and raw[i] in _WS:
        i += 1
    return i


def _wrapped(raw: str, lt: int, le: int) -> bool:
    """§17.1 wrapped_in_markup: markup characters or entities, then ``MEDIA:``."""
    i = lt
    saw = False
    while i < le:
        ch = raw[i]
        if ch in _MARKUP:
            i += 1
            saw = True
            continue
        if ch == "&":
            m = _ENTITY.match(raw, i, le)
            if m is not None:
                decoded = html.unescape(m.group())
                if decoded and all(c in _MARKUP for c in decoded):
                    i = m.end()
                    saw = True
                    continue
        break
    out: list[str] = []
    while i < le and len(out) < 6:
        if raw[i] == "&":
            m = _ENTITY.match(raw, i, le)
            if m is not None:
                out.append(html.unescape(m.group()))
                saw = True
                i = m.end()
                continue
        out.append(raw[i])
        i += 1
    return saw and ascii_lower("".join(out))[:6] == "media:"


def _space_before_colon(raw: str, low: str, lt: int, le: int) -> bool:
    if not low.startswith("media", lt) or lt + 5 >= le or raw[lt + 5] not in _WS:
        return False
    j = lt + 5
    while j < le and raw[j] in _WS:
        j += 1
    return j < le and raw[j] == ":"


def _classify(raw: str, low: str, lt: int, le: int) -> tuple[str | None, set[int]]:
    """The §17.1 container/markup code of a non-directive line, and the ``MEDIA:`` it explains."""
    if lt >= le:
        return None, set()
    ch = raw[lt]
    if ch in "-*+0123456789":
        m = _LIST_ITEM.match(raw, lt, le)
        if m is not None:
            return "media.in_list_item", {m.end() - 6}
    if ch == ">":
        j = lt
        while j < le and raw[j] in "> \t":
            j += 1
        if low.startswith("media:", j):
            return "media.in_blockquote", {j}
    if ch == "|":
        cells = {m.end() - 6 for m in _TABLE_CELL.finditer(raw, lt, le)}
        if cells:
            return "media.in_table", cells
    if (ch in _MARKUP or ch == "&") and _wrapped(raw, lt, le):
        j = lt
        while j < le and raw[j] in _MARKUP:
            j += 1
        return "media.wrapped_in_markup", {j}
    if ch in "mM" and _space_before_colon(raw, low, lt, le):
        return "media.space_before_colon", {lt}
    return None, set()


_LINE_MESSAGES = {
    "media.in_list_item": (
        "info",
        "a MEDIA: directive on a list item's own line is not honoured; move it to a line "
        "of its own (a continuation line of the item works); it stays visible as text",
    ),
    "media.in_blockquote": (
        "info",
        "a MEDIA: directive after a block-quote marker is not honoured; put it on a line "
        "of its own outside the quote; it stays visible as text",
    ),
    "media.in_table": (
        "info",
        "a MEDIA: directive in a table cell is not honoured; put it on a line of its own "
        "outside the table; it stays visible as text",
    ),
    "media.wrapped_in_markup": (
        "info",
        "markup or an HTML entity before MEDIA: hides the directive; remove the wrapping "
        "(no bold, code, quotes, escapes or entities around it); it stays visible as text",
    ),
    "media.space_before_colon": (
        "info",
        "'MEDIA :' is not a directive; write MEDIA: with no space before the colon; "
        "it stays visible as text",
    ),
}


def _next_token(raw: str, pos: int, le: int) -> tuple[int, int]:
    """The whitespace-delimited token after ``pos`` (leading whitespace skipped)."""
    i = pos
    while i < le and raw[i] in _WS:
        i += 1
    m = _NON_WS_RUN.match(raw, i, min(le, i + _MAX_TOKEN + 1))
    return i, m.end() if m is not None else i


def line_checks(
    diag: Diagnostics,
    *,
    judge: Judge,
    raw: str,
    low: str,
    cmap: Callable[[], CodeMap],
    handled: set[int],
    media_on: bool,
) -> None:
    """§17.1 for lines the walk did not treat as directives (and extraction_disabled)."""
    ascii_prefix = judge.profile.ascii_media_prefix
    breaks = LineBreaks(raw, judge.profile.cr_lines)
    lines: dict[int, int] = {}
    for ls, le in lines_holding(low, breaks, "media"):
        lines[ls] = le
    if "&" in raw and ";" in raw:
        for ls, le in lines_holding(raw, breaks, "&"):
            lines.setdefault(ls, le)
    in_block: dict[int, bool] = {}

    def code(ls: int, le: int) -> bool:
        if ls not in in_block:
            in_block[ls] = cmap().line_in_block(ls, le)
        return in_block[ls]

    for ls in sorted(lines):
        if ls in handled:
            continue
        le = lines[ls]
        lt = _left_trim(raw, ls, le)
        if not media_on:
            if passes_rule1(raw, ls, le, ascii_prefix) and not code(ls, le):
                m = MEDIA_AT_BOUNDARY.search(raw, ls, le)
                if m is not None and m.end() < le:
                    diag.add(
                        "media.extraction_disabled",
                        "info",
                        "MEDIA: directives are not extracted (extractMediaDirectives is off); "
                        "the line stays visible as text",
                        ls,
                        le,
                    )
            continue
        if passes_rule1(raw, ls, le, ascii_prefix):
            continue  # a U+0131 spelling without an ASCII MEDIA: stays text (§5)
        cls, explained = _classify(raw, low, lt, le)
        if cls is not None and not code(ls, le):
            severity, message = _LINE_MESSAGES[cls]
            diag.add(cls, severity, message, ls, le)  # type: ignore[arg-type]
        if "media:" not in low[ls:le]:
            continue
        for m in MEDIA_AT_BOUNDARY.finditer(raw, ls, le):
            pos = m.start()
            if pos in explained or pos == lt or raw.startswith("//", m.end()):
                continue  # a media:// reference is not a directive
            ts, te = _next_token(raw, m.end(), le)
            if ts == te or te - ts > _MAX_TOKEN:
                continue
            token = raw[ts:te]
            if not judge.ok(token, False, True) or code(ls, le):
                continue
            diag.add(
                "media.not_line_start",
                "info",
                f"MEDIA:{token[:60]} is not at the start of its line, so it is not a directive "
                "and stays visible as text; put it on a line of its own to attach "
                f"{shown(token)}",
                pos,
                te,
            )
