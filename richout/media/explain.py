"""Why a ``MEDIA:`` directive or Markdown image was ignored, rejected or altered (MEDIA.md §17).

Runs after :func:`richout.media.split_media` has computed its outputs and only reads them, so
diagnostics can never change ``text``, ``mediaUrls``, ``audioAsVoice`` or ``segments``.
Every check is gated on a cheap substring test so replies without the construct it explains
pay nothing; the CommonMark views it needs (code spans, HTML blocks, containers) are asked
for only when a honoured directive exists and the text holds something that could open them.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from richout.markdown.codemap import CodeMap
from richout.markdown.engine import block_structure
from richout.media.cleaning import clean
from richout.media.payload import Item, Judge
from richout.models import Diagnostic, Span
from richout.models.diagnostics import Diagnostics
from richout.policy import strip_file_prefix
from richout.policy.local import (
    has_scheme_prefix,
    is_likely_local_path,
    is_windows_drive,
    starts_at_root,
)
from richout.profiles import Profile
from richout.text.chars import JS_WS, ascii_lower, has_js_ws, js_rtrim, js_trim

if TYPE_CHECKING:
    from richout.media.split import DirectiveLine, Walk

__all__ = ["explain", "fast_path"]

_WS = frozenset(JS_WS)
_MEDIA_AT_BOUNDARY = re.compile(r"(?<![A-Za-z0-9_])media:", re.IGNORECASE | re.ASCII)
_LIST_ITEM = re.compile(
    r"(?:[-*+]|[0-9]{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]*)?media:", re.IGNORECASE | re.ASCII
)
_TABLE_CELL = re.compile(r"\|[ \t]*media:", re.IGNORECASE | re.ASCII)
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_MARKUP = frozenset("*_`~\\\"'([")
_CONTAINER_START = re.compile(r"(?m)^[ \t]*(?:>|[-*+](?:[ \t]|$)|[0-9]{1,9}[.)](?:[ \t]|$))")
_HTML_START = re.compile(r"(?m)^ {0,3}<")
_BLANK_LINE = re.compile(r"(?m)^[ \t\r]*\n")
_BACKTICK_RUN = re.compile("`+")
#: Values no §17.3 check can flag: rooted (the local-path test's first branch, so never
#: "suspicious relative") or https://, without quotes, brackets or braces anywhere.
_PLAIN_ROOTED = re.compile(r"(?:/|\./|~/|https://)[^\"'`{}\[\]]*")
_PUNCT_END = frozenset(".;:!?")
_NON_WS_RUN = re.compile(f"[^{re.escape(JS_WS)}]*")
_SETEXT = re.compile(r" {0,3}(?:=+|-+)[ \t]*\r?")
#: A token longer than this (code points) is over §7's 4096-unit cap even after the prefix.
_MAX_TOKEN = 4096 + 7
_WHAT_TO_DO = "put the reference alone on its own line as MEDIA:<reference>"


def _shown(s: str, limit: int = 60) -> str:
    return repr(s if len(s) <= limit else s[: limit - 3] + "...")


# --------------------------------------------------------------------------- line classes


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


def _line_checks(
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
    from richout.media.split import _lines_holding, _passes_rule1
    from richout.text.chars import LineBreaks

    ascii_prefix = judge.profile.ascii_media_prefix
    breaks = LineBreaks(raw, judge.profile.cr_lines)
    lines: dict[int, int] = {}
    for ls, le in _lines_holding(low, breaks, "media"):
        lines[ls] = le
    if "&" in raw and ";" in raw:
        for ls, le in _lines_holding(raw, breaks, "&"):
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
            if _passes_rule1(raw, ls, le, ascii_prefix) and not code(ls, le):
                m = _MEDIA_AT_BOUNDARY.search(raw, ls, le)
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
        if _passes_rule1(raw, ls, le, ascii_prefix):
            continue  # a U+0131 spelling without an ASCII MEDIA: stays text (§5)
        cls, explained = _classify(raw, low, lt, le)
        if cls is not None and not code(ls, le):
            severity, message = _LINE_MESSAGES[cls]
            diag.add(cls, severity, message, ls, le)  # type: ignore[arg-type]
        if "media:" not in low[ls:le]:
            continue
        for m in _MEDIA_AT_BOUNDARY.finditer(raw, ls, le):
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
                f"{_shown(token)}",
                pos,
                te,
            )


# --------------------------------------------------------------------------- directives


def _visibility(d: DirectiveLine, visible_part: bool, counted: bool = False) -> str:
    if counted:
        return (
            "it was removed from the text and counted in rejected_media_count, so the "
            "gateway can tell the user an attachment was refused"
        )
    if d.outcome == "accepted":
        if visible_part:
            return "this part stays visible as text next to the accepted reference"
        return "this part was dropped from the text"
    if d.outcome == "removed":
        return "nothing on the line was accepted and the directive was removed from the text"
    return "nothing on the line was accepted and the directive stayed visible as text"


def _reject(
    diag: Diagnostics,
    judge: Judge,
    candidate: str,
    start: int,
    end: int,
    *,
    spaces: bool,
    bare: bool,
    tail: str,
) -> str | None:
    """Record why ``candidate`` was rejected; returns the code."""
    verdict = judge.verdict(candidate, spaces, bare)
    if verdict.ok or verdict.code is None:
        return None
    diag.add(verdict.code, "error", f"{verdict.reason}; {tail}", start, end)
    return verdict.code


def _reject_parts(
    diag: Diagnostics,
    judge: Judge,
    d: DirectiveLine,
    *,
    ps: int,
    rejected: list[tuple[int, int, str, bool, bool]],
    visible: bool,
    counted: bool = False,
) -> set[str]:
    """One record per reason for the rejected parts of one directive; returns the codes.

    A payload can hold hundreds of thousands of parts; one record per part would bury the
    reason, so parts failing for the same reason share a record spanning all of them.
    """
    first: dict[str, tuple[int, str]] = {}
    last: dict[str, int] = {}
    count: dict[str, int] = {}
    for a, b, candidate, spaces, _visible in rejected:
        verdict = judge.verdict(candidate, spaces, False)
        code = verdict.code
        if verdict.ok or code is None:
            continue
        if code not in first:
            first[code] = (ps + a, verdict.reason)
        last[code] = ps + b
        count[code] = count.get(code, 0) + 1
    tail = _visibility(d, visible, counted)
    for code, (start, reason) in first.items():
        n = count[code]
        more = f" (and {n - 1} more parts for the same reason)" if n > 1 else ""
        diag.add(code, "error", f"{reason}{more}; {tail}", start, last[code])
    return set(first)


def _ext_tail(value: str) -> str | None:
    """The text after the last ``.word`` run (1-10 word characters) of ``value``, if any."""
    i = value.rfind(".")
    word = re.compile(r"[A-Za-z0-9_]{1,10}(?![A-Za-z0-9_])", re.ASCII)
    while i >= 0:
        m = word.match(value, i + 1)
        if m is not None:
            return value[m.end() :]
        i = value.rfind(".", 0, i)
    return None


_DOT_SEGMENTS = frozenset({".", "..", "%2e", ".%2e", "%2e.", "%2e%2e"})


def _is_second_branch_local(s: str) -> bool:
    """Accepted by §8.3's "no scheme, contains a separator" branch, not by a root form."""
    if s.startswith(("/", "./", "~/", "~\\", "\\\\")) or is_windows_drive(s):
        return False
    return is_likely_local_path(s) and not has_scheme_prefix(s)


def _item_checks(diag: Diagnostics, item: Item, start: int, end: int) -> None:
    """§17.3 for one accepted reference."""
    v = item.value
    if (
        not item.absorbed
        and not item.cut
        and not item.tail
        and item.source == "part"
        and v[-1:] not in _PUNCT_END
        and _PLAIN_ROOTED.fullmatch(v) is not None
    ):
        return  # a rooted path or https URL with no quote, bracket or brace: nothing to say
    shown = _shown(v)
    if item.absorbed:
        diag.add(
            "media.words_absorbed",
            "warning",
            f"the words after a complete path were read as part of it ({shown}); put prose "
            "on its own line, or quote the path",
            start,
            end,
        )
    if "[[" in v or "]]" in v:
        diag.add(
            "media.tag_in_payload",
            "warning",
            f"a [[…]] tag was read as part of the reference {shown} and had no effect; put "
            "tags on their own line, not after a MEDIA: reference",
            start,
            end,
        )
    s = strip_file_prefix(v)
    lower = s[:8].lower()
    if (
        not lower.startswith(("http://", "https://", "media://"))
        and _is_second_branch_local(s)
        and ("://" in s or s[:1] in ("*", "_", "<", ">") or s[-1:] in ("*", "_", ">"))
    ):
        diag.add(
            "media.suspicious_relative",
            "warning",
            f"{shown} was accepted as a relative path although it looks like markup or a "
            "URL fragment; write the bare https:// URL or path without wrapping",
            start,
            end,
        )
    if any(q in v for q in "\"'`"):
        diag.add(
            "media.stray_quote",
            "warning",
            f"the accepted reference {shown} contains a quote character; quote the whole "
            "reference and put nothing after the closing quote",
            start,
            end,
        )
    if v[-1:] in (".", ";", ":", "!", "?"):
        diag.add(
            "media.trailing_punctuation",
            "warning",
            f"the accepted reference {shown} ends with sentence punctuation, which is kept; "
            "end the line right after the reference",
            start,
            end,
        )
    if any(c in v for c in '{}"'):
        tail = _ext_tail(v)
        if tail is not None and any(c in tail for c in '{}"'):
            diag.add(
                "media.json_residue",
                "warning",
                f"the accepted reference {shown} carries JSON after its file extension; "
                "emit the path alone, not serialized JSON",
                start,
                end,
            )
    tail = item.tail
    if item.cut or ('"' in tail and ("}" in tail or "]" in tail)):
        diag.add(
            "media.json_tail_cut",
            "info",
            f"a serialized-JSON tail after the reference was cut off, leaving {shown}; "
            "emit the path alone",
            start,
            end,
        )
    if item.source == "fallback" and has_js_ws(v) and not starts_at_root(s):
        diag.add(
            "media.filenames_merged",
            "warning",
            f"the whole payload {shown} was accepted as one file name with spaces; "
            "use one MEDIA: line per file, or quote a name that really has spaces",
            start,
            end,
        )
    if s is not v and len(s) != len(v) and s[:8].lower().startswith(("http://", "https://")):
        diag.add(
            "media.file_wraps_remote",
            "warning",
            f"{shown} is a file: prefix around a remote URL; it was checked as the remote URL "
            "but is delivered as written; write the https:// URL alone",
            start,
            end,
        )
    if lower == "media://":
        rest = s[8:]
        cut = len(rest)
        for sep in "?#":
            k = rest.find(sep)
            if 0 <= k < cut:
                cut = k
        segments = rest[:cut].split("/")[1:]
        if any(seg.lower() in _DOT_SEGMENTS for seg in segments):
            diag.add(
                "media.inbound.dot_segments",
                "info",
                f"{shown} contains '.' or '..' path segments; it is delivered as written; "
                "refer to the inbound id directly (media://inbound/<id>)",
                start,
                end,
            )


def _next_directive_token(raw: str, start: int, end: int) -> int:
    """Where a second ``MEDIA:`` directive token stands in ``raw[start:end]``, or -1.

    The scheme of a ``media://`` reference is not one.
    """
    for m in _MEDIA_AT_BOUNDARY.finditer(raw, start, end):
        if not raw.startswith("//", m.end()):
            return m.start()
    return -1


def _directive(diag: Diagnostics, d: DirectiveLine, raw: str, low: str, judge: Judge) -> None:
    """§17.2-§17.3 for one directive line."""
    res = d.result
    ps = d.payload
    payload = raw[ps : d.end]
    if not js_trim(payload):
        diag.add(
            "media.empty_payload",
            "warning",
            "MEDIA: has nothing after it; write MEDIA:<path or https URL>; the line stays as "
            "the text 'MEDIA:'",
            d.start,
            d.end,
        )
        return
    k = _next_directive_token(raw, ps, d.end)
    if k >= 0:
        diag.add(
            "media.multiple_on_line",
            "warning",
            "only one MEDIA: directive is read per line; this one is part of the previous "
            "payload; put each MEDIA: directive on its own line",
            k,
            d.end,
        )
    if d.outcome == "accepted":
        for item in res.accepted:
            _item_checks(diag, item, ps + item.start, ps + item.end)
        _reject_parts(
            diag, judge, d, ps=ps, rejected=[r for r in res.rejected if r[4]], visible=True
        )
        hidden = {(a, b) for a, b, _ in res.counted}
        _reject_parts(
            diag,
            judge,
            d,
            ps=ps,
            rejected=[r for r in res.rejected if not r[4] and (r[0], r[1]) in hidden],
            visible=False,
            counted=True,
        )
        _reject_parts(
            diag,
            judge,
            d,
            ps=ps,
            rejected=[r for r in res.rejected if not r[4] and (r[0], r[1]) not in hidden],
            visible=False,
        )
        if res.leftovers:
            a = res.leftovers[0][0]
            b = res.leftovers[-1][1]
            diag.add(
                "media.leftover_text",
                "warning",
                f"{_shown(payload[a:b])} was not part of an accepted reference and stays "
                "visible as text; quote references that contain spaces and put prose on its "
                "own line",
                ps + a,
                ps + b,
            )
        return
    tail = _visibility(d, True)
    part_codes: set[str] = set()
    if res.parts > 1:
        # Each part is what the reference tried; the whole-payload fallback is reported
        # only when it fails for a reason none of the parts already gives.
        part_codes = _reject_parts(diag, judge, d, ps=ps, rejected=res.rejected, visible=True)
    if res.fallback_failed is not None:
        fa, fb, candidate = res.fallback_failed
        fb = fa + len(js_rtrim(payload[fa:fb]))
        if fb <= fa:
            fa, fb = res.value_bounds
        verdict = judge.verdict(candidate, True, True)
        if verdict.code not in part_codes:
            _reject(diag, judge, candidate, ps + fa, ps + fb, spaces=True, bare=True, tail=tail)
    if d.outcome == "removed":
        why = (
            f"{len(res.counted)} rejected reference(s) were counted in rejected_media_count"
            if res.counted
            else "it looks like a local path"
        )
        diag.add(
            "media.line_removed",
            "warning",
            f"no reference on this MEDIA: line was accepted and, because {why}, the directive "
            "was removed from the text; fix the reference (https:// to a public host, an "
            "absolute, ./ or ~/ path, no '..')",
            d.match,
            d.end,
        )
    elif res.unwrapped is None and js_rtrim(payload) != payload:
        trimmed = clean(js_rtrim(payload))
        if judge.ok(trimmed, True, True):
            diag.add(
                "media.trailing_space_payload",
                "warning",
                f"{_shown(trimmed)} would be accepted without the whitespace after it; remove "
                "trailing spaces (or the CR of a CRLF line end) after the reference; the "
                "directive stayed visible as text",
                d.match,
                d.end,
            )


# --------------------------------------------------------------------------- structure


def _merged(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for a, b in sorted(spans):
        if ends and a <= ends[-1]:
            ends[-1] = max(ends[-1], b)
        else:
            starts.append(a)
            ends.append(b)
    return starts, ends


def _covers(index: tuple[list[int], list[int]], a: int, b: int) -> bool:
    starts, ends = index
    k = bisect.bisect_right(starts, a) - 1
    return k >= 0 and b <= ends[k]


def _columns(line: str) -> int:
    col = 0
    for ch in line:
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            break
        if col >= 4:
            break
    return col


def _blank_ends(raw: str) -> list[int]:
    """Offsets just after each blank line of ``raw``."""
    return [m.end() for m in _BLANK_LINE.finditer(raw)]


def _html_possible(raw: str, honoured: list[DirectiveLine]) -> bool:
    """Could an HTML block hold a honoured line? Only if some earlier line starts with ``<``."""
    if "<" not in raw:
        return False
    m = _HTML_START.search(raw, 0, honoured[-1].start)
    return m is not None


def _container_possible(
    raw: str, honoured: list[DirectiveLine], blanks: Callable[[], list[int]]
) -> bool:
    """Could a list item or block quote hold a honoured line (without parsing)?

    A line starting with ``MEDIA:`` is inside a container only as a continuation: indented
    (2+ columns, under a list item) or lazily continuing a paragraph that is itself in a
    container, which then has a marker line or starts indented. Paragraph scans are
    remembered, so many directives in one paragraph stay linear.
    """
    first = _CONTAINER_START.search(raw)
    if first is None:
        return False
    blank_ends = blanks()
    memo: dict[int, tuple[int, bool]] = {}
    for d in honoured:
        if d.start <= first.start():
            continue
        if _columns(raw[d.start : d.match]) >= 2:
            return True
        k = bisect.bisect_right(blank_ends, d.start) - 1
        lo = blank_ends[k] if k >= 0 else 0
        if lo == d.start:
            continue  # a paragraph of its own, outside any container
        if _columns(raw[lo : lo + 4]) >= 2:
            return True
        scanned, found = memo.get(lo, (lo, False))
        if not found and scanned < d.start:
            found = _CONTAINER_START.search(raw, scanned, d.start) is not None
            memo[lo] = (d.start, found)
        if found:
            return True
    return False


class _SpanGate:
    """Could an inline code span be open where a line starts? (A cheap, conservative test.)

    A code span covering a line that starts with ``MEDIA:`` opens earlier in the same
    paragraph. Pairing backtick runs the way CommonMark does (a run opens, the next run of
    the same length closes) shows whether one is still open; escapes and ``<`` (autolinks)
    can change the pairing, so they make the answer "maybe" and the code map decides.
    State is kept per paragraph, so many directives in one paragraph stay linear.
    """

    def __init__(self, raw: str, blank_ends: list[int]) -> None:
        self.raw = raw
        self.blank_ends = blank_ends
        self.state: dict[int, tuple[int, int, bool]] = {}  # lo -> (scanned, open, unsafe)

    def may_be_open(self, line_start: int, pos: int) -> bool:
        raw = self.raw
        k = bisect.bisect_right(self.blank_ends, line_start) - 1
        lo = self.blank_ends[k] if k >= 0 else 0
        scanned, open_len, unsafe = self.state.get(lo, (lo, 0, False))
        if scanned < pos and not unsafe:
            if raw.find("`", scanned, pos) >= 0:
                if "<" in raw[scanned:pos] or "\\`" in raw[max(lo, scanned - 1) : pos]:
                    unsafe = True
                else:
                    for m in _BACKTICK_RUN.finditer(raw, scanned, pos):
                        n = m.end() - m.start()
                        if open_len == 0:
                            open_len = n
                        elif n == open_len:
                            open_len = 0
            self.state[lo] = (pos, open_len, unsafe)
        return unsafe or open_len != 0


def _structure(diag: Diagnostics, walk: Walk, raw: str, cmap: Callable[[], CodeMap]) -> None:
    """§17.4: HTML blocks, code spans, containers, and neighbours of removed lines."""
    honoured = [d for d in walk.directives if d.outcome != "kept"]
    if not honoured:
        return
    box: list[list[int]] = []

    def blanks() -> list[int]:
        if not box:
            box.append(_blank_ends(raw))
        return box[0]

    if _html_possible(raw, honoured) or _container_possible(raw, honoured, blanks):
        bs = block_structure(raw)
        html_index = _merged(bs.html)
        box_index = _merged(bs.containers)
        for d in honoured:
            if _covers(html_index, d.start, d.end):
                diag.add(
                    "media.in_html_block",
                    "warning",
                    "this MEDIA: line was honoured although a Markdown renderer sees it inside "
                    "an HTML block; move the directive out of the HTML",
                    d.start,
                    d.end,
                )
            if _covers(box_index, d.start, d.end):
                diag.add(
                    "media.lazy_continuation",
                    "info",
                    "this MEDIA: line was honoured although a Markdown renderer sees it inside "
                    "a list item or block quote (continuation line); put a blank line before "
                    "it to keep it outside",
                    d.start,
                    d.end,
                )
    if "`" in raw:
        spans = _SpanGate(raw, blanks())
        for d in honoured:
            if spans.may_be_open(d.start, d.match) and cmap().in_code(d.match):
                diag.add(
                    "media.in_code_span",
                    "warning",
                    "this MEDIA: line was honoured although it lies inside a multi-line inline "
                    "code span; use a fenced code block to show a directive literally",
                    d.start,
                    d.end,
                )
    removed = [d for d in walk.directives if d.line_removed]
    if removed:
        _neighbours(diag, walk, raw, removed)


_NONBLANK = re.compile(r"[^ \t\r]")
#: A neighbouring line: its ``(start, end)`` in the text, or the string it was changed to.
_Line = tuple[int, int] | str


def _neighbours(diag: Diagnostics, walk: Walk, raw: str, removed: list[DirectiveLine]) -> None:
    """media.structure_changed: what the lines around a removed directive line become.

    Lines are ``\n``-delimited here, so in a text of CR-only lines the line before (after) a
    directive is everything before (after) it. The lines are kept as ranges of ``raw`` and
    asked only bounded questions (blank? leading columns? an underline? a trailing hard
    break?): copying them cost the rest of the text per directive (quadratic).
    """
    changes = {ch.start: ch for ch in walk.changes}
    n = len(raw)
    first_nonblank: dict[int, int] = {}
    # Line feeds are searched only between consecutive queries (asked in increasing order
    # before, decreasing after): with few line feeds, a search to the text's edge per
    # directive was quadratic.
    lf_before = [0, -1]  # [searched up to, last "\n" before it]
    lf_after = [n, n]  # [searched down to, first "\n" at or after it]

    def line_before(ls: int) -> tuple[int, _Line | None] | None:
        """(start, the line or None when removed) of the line before ``ls``."""
        if ls == 0:
            return None
        pe = ls - 1
        if pe < lf_before[0]:
            lf_before[1] = raw.rfind("\n", 0, pe)
        else:
            k = raw.rfind("\n", lf_before[0], pe)
            if k >= 0:
                lf_before[1] = k
        lf_before[0] = pe
        pls = lf_before[1] + 1
        ch = changes.get(pls)
        return pls, ((pls, pe) if ch is None else ch.replacement)

    def line_after(le: int) -> tuple[int, _Line | None] | None:
        if le >= n:
            return None
        ns = le + 1
        if ns > lf_after[0]:
            k = raw.find("\n", ns)
            lf_after[1] = n if k < 0 else k
        else:
            k = raw.find("\n", ns, lf_after[0])
            if k >= 0:
                lf_after[1] = k
        lf_after[0] = ns
        ne = lf_after[1]
        ch = changes.get(ns)
        return ne, ((ns, ne) if ch is None else ch.replacement)

    def blank(line: _Line) -> bool:
        """``not line.strip(" \t\r")``."""
        if isinstance(line, str):
            return not line.strip(" \t\r")
        a, b = line
        # Lines before directives sharing a start (CR-only text) share this search.
        q = first_nonblank.get(a)
        if q is None:
            m = _NONBLANK.search(raw, a)
            q = first_nonblank[a] = n if m is None else m.start()
        return q >= b

    def indented(line: _Line) -> bool:
        """``_columns(line) >= 4`` (at most four characters decide)."""
        if isinstance(line, str):
            return _columns(line) >= 4
        return _columns(raw[line[0] : min(line[1], line[0] + 4)]) >= 4

    def underline(line: _Line) -> bool:
        if isinstance(line, str):
            return _SETEXT.fullmatch(line) is not None
        return _SETEXT.fullmatch(raw, line[0], line[1]) is not None

    def hard_break(line: _Line) -> bool:
        """``line.rstrip("\r").endswith(...)``."""
        ends = ("  ", "\t ", " \t", "\\")
        if isinstance(line, str):
            return line.rstrip("\r").endswith(ends)
        a, e = line
        while e > a and raw[e - 1] == "\r":
            e -= 1
        return raw.endswith(ends, a, e)

    prev_of: dict[int, _Line | None] = {}
    for d in removed:
        info = line_before(d.start)
        if info is None:
            prev_of[d.start] = None
        elif info[1] is None:
            prev_of[d.start] = prev_of.get(info[0])
        else:
            prev_of[d.start] = info[1]
    next_of: dict[int, _Line | None] = {}
    for d in reversed(removed):
        info = line_after(d.end)
        if info is None:
            next_of[d.end] = None
        elif info[1] is None:
            next_of[d.end] = next_of.get(info[0])
        else:
            next_of[d.end] = info[1]
    for d in removed:
        prev = prev_of[d.start]
        nxt = next_of[d.end]
        prev_blank = prev is None or blank(prev)
        why = None
        if nxt is not None and not blank(nxt) and indented(nxt) and prev_blank:
            why = "the next line is indented by 4+ columns and now starts an indented code block"
        elif nxt is not None and not prev_blank and underline(nxt):
            why = "the next line now underlines the previous one as a setext heading"
        elif prev is not None and hard_break(prev):
            why = "the previous line ends with a hard line break that now has nothing to break"
        if why is not None:
            diag.add(
                "media.structure_changed",
                "warning",
                f"removing this MEDIA: line changed the Markdown around it: {why}; put a blank "
                "line before and after the directive",
                d.start,
                d.end,
            )


# --------------------------------------------------------------------------- images


def _images(diag: Diagnostics, walk: Walk, allowlist: dict[str, str] | None) -> None:
    """§17.5 for the lines the image step saw."""
    for line in walk.image_lines:
        lifted = {im.start for im, _ in line.lifted}
        for im in line.images:
            if im.start in lifted:
                continue
            target = strip_file_prefix(js_trim(im.destination))
            if allowlist is not None:
                why = (
                    "the image allowlist is empty"
                    if not allowlist
                    else f"{_shown(target)} is not in the image allowlist"
                )
            elif not target[:8].lower().startswith(("http://", "https://")):
                why = f"{_shown(target)} is not an https:// URL (local images are not lifted)"
            else:
                verdict = walk.judge.verdict(target)
                why = verdict.reason if not verdict.ok else "it was not accepted"
            diag.add(
                "media.image.not_lifted",
                "info",
                f"this Markdown image stays in the text: {why}; use a public https:// URL "
                "or a MEDIA: line",
                im.start,
                im.end,
            )
    for im, why in walk.skipped_images:
        reason = {
            "spans": "it spans more than one line",
            "long": "with the lines it spans it is longer than 20,000 UTF-16 units",
            "directive": "it starts on a MEDIA: line, which is read as a directive",
        }.get(why, "only the first 50 images of a line are considered")
        diag.add(
            "media.image.limit",
            "warning",
            f"this Markdown image was not considered: {reason}; it stays in the text",
            im.start,
            im.end,
        )
    for ls, le in walk.long_image_lines:
        diag.add(
            "media.image.limit",
            "warning",
            "Markdown images on a line longer than 20000 UTF-16 units are not considered; "
            "they stay in the text; break the line",
            ls,
            le,
        )


# --------------------------------------------------------------------------- entry points


def fast_path(
    text: str, raw: str, low: str, media_on: bool, images_on: bool, *, profile: Profile
) -> list[Diagnostic]:
    """Diagnostics for a reply that took the §3 step 2 fast path (usually none)."""
    if "media" not in low and not ("&" in raw and ";" in raw):
        return []
    diag = Diagnostics(text)
    box: list[CodeMap] = []

    def cmap() -> CodeMap:
        if not box:
            box.append(CodeMap(raw))
        return box[0]

    _line_checks(
        diag, judge=Judge(profile), raw=raw, low=low, cmap=cmap, handled=set(), media_on=media_on
    )
    return diag.build()


def explain(
    diag: Diagnostics,
    walk: Walk,
    *,
    raw: str,
    low: str,
    cmap: Callable[[], CodeMap],
    media_on: bool,
    allowlist: dict[str, str] | None,
    audio_spans: list[Span],
) -> None:
    """Add every §17 diagnostic for a reply that went through the line walk."""
    handled: set[int] = set()
    for ls, le in walk.code_lines:
        handled.add(ls)
        diag.add(
            "media.in_code_block",
            "info",
            "this MEDIA: line is inside a code block and is shown as code, not attached; "
            "move it outside the block to attach it",
            ls,
            le,
        )
    for ls, le in walk.empty_lines:
        handled.add(ls)
        diag.add(
            "media.empty_payload",
            "warning",
            "MEDIA: has nothing after it; write MEDIA:<path or https URL>; it stays visible "
            "as text",
            ls,
            le,
        )
    for d in walk.directives:
        handled.add(d.start)
        _directive(diag, d, raw, low, walk.judge)
    unexplained = any(ls not in handled for ls in walk.media_lines)
    if (
        unexplained
        or not media_on
        or low.count("media") != low.count("media:")
        or ("&" in raw and ";" in raw)
    ):
        _line_checks(
            diag,
            judge=walk.judge,
            raw=raw,
            low=low,
            cmap=cmap,
            handled=handled,
            media_on=media_on,
        )
    _structure(diag, walk, raw, cmap)
    if walk.image_lines or walk.skipped_images or walk.long_image_lines:
        _images(diag, walk, allowlist)
    for s in audio_spans:
        diag.add(
            "media.segment_tag_text",
            "info",
            "this [[audio_as_voice]] tag was removed from text but still appears in a text "
            "segment (segments are not tag-processed); put the tag on its own line",
            s.start,
            s.end,
        )
