"""§17.2-§17.3: why a directive line's references were rejected or look wrong (MEDIA.md).

One :class:`~richout.media.lines.DirectiveLine` at a time: an empty payload, a second
``MEDIA:`` on the line, the rejected parts and the failed whole-payload fallback (one record
per reason), what became of the line (removed, or kept because of trailing whitespace), and
the §17.3 warnings about each accepted reference (absorbed words, stray quotes, JSON
residue, punctuation, ``file:`` around a URL, dot segments in ``media://``).
"""

from __future__ import annotations

import re
from typing import Any

from richout.media.cleaning import clean
from richout.media.explain_lines import shown
from richout.media.lines import DirectiveLine, next_directive_token, says_nothing
from richout.media.payload import Item, Judge, PayloadResult
from richout.media.regroup import WORD_CHARS
from richout.models.diagnostics import Diagnostics
from richout.policy import Verdict, strip_file_prefix
from richout.policy.local import (
    has_scheme_prefix,
    is_likely_local_path,
    is_windows_drive,
    starts_at_root,
)
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.text.chars import has_js_ws, js_rtrim, js_trim

__all__ = ["directive_checks"]


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


def _reject(diag: Diagnostics, verdict: Verdict, start: int, end: int, tail: str) -> None:
    """Record why a candidate was rejected (its ``verdict``) over ``[start, end)``."""
    if verdict.ok or verdict.code is None:
        return
    diag.add(verdict.code, "error", f"{verdict.reason}; {tail}", start, end)


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
    #: per code, in the order first met: [first start, last end, parts, reason]
    found: dict[str, list[Any]] = {}
    # A part equal to the one before it takes its verdict: a payload of 260k refused "~"
    # tokens spent more on the judge's memo key than on the rest of this loop. (A memo of
    # every part here cost a payload of distinct words 10%.)
    prev_candidate: str | None = None
    prev_spaces = False
    verdict: Verdict | None = None
    for a, b, candidate, spaces, _visible in rejected:
        if verdict is None or candidate != prev_candidate or spaces != prev_spaces:
            verdict = judge.verdict(candidate, spaces, False)
            prev_candidate, prev_spaces = candidate, spaces
        code = verdict.code
        if verdict.ok or code is None:
            continue
        tally = found.get(code)
        if tally is None:
            found[code] = [ps + a, ps + b, 1, verdict.reason]
        else:
            tally[1] = ps + b
            tally[2] += 1
    if not found:
        return set()
    tail = _visibility(d, visible, counted)
    for code, (start, end, n, reason) in found.items():
        more = f" (and {n - 1} more parts for the same reason)" if n > 1 else ""
        diag.add(code, "error", f"{reason}{more}; {tail}", start, end)
    return set(found)


#: A word longer than a reference may be (too long, not "not a reference"), found from
#: word starts only, so that a megabyte word costs one pass.
_LONG_WORD = re.compile(f"(?<![{WORD_CHARS}])[{WORD_CHARS}]{{{MAX_REFERENCE_UNITS + 1}}}")
_NOT_A_REFERENCE = "media.not_a_reference"


def _reject_words(
    diag: Diagnostics,
    judge: Judge,
    ps: int,
    rejected: list[tuple[int, int, str, bool, bool]],
    tail: str,
) -> set[str]:
    """:func:`_reject_parts` for a payload of words (every one refused, none too long): one
    record, the first word's reason, spanning them all."""
    a, _, first, spaces, _ = rejected[0]
    reason = judge.verdict(first, spaces, False).reason
    n = len(rejected)
    more = f" (and {n - 1} more parts for the same reason)" if n > 1 else ""
    diag.add(_NOT_A_REFERENCE, "error", f"{reason}{more}; {tail}", ps + a, ps + rejected[-1][1])
    return {_NOT_A_REFERENCE}


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
    """§17.3 for one accepted reference (``start``, ``end``: where it stands in the input).

    Not called for a plain part with nothing to say (:func:`says_nothing`): the caller asks
    that once per distinct value."""
    v = item.value
    quoted = shown(v)
    s = strip_file_prefix(v)
    _reading_checks(diag, item, s, quoted=quoted, start=start, end=end)
    _ending_checks(diag, item, s, quoted=quoted, start=start, end=end)
    _wrapper_checks(diag, item, s, quoted=quoted, start=start, end=end)


def _reading_checks(
    diag: Diagnostics, item: Item, s: str, *, quoted: str, start: int, end: int
) -> None:
    """§17.3, how the payload was read: words absorbed into a path, a tag inside the
    reference, markup or a URL fragment taken for a relative path, a stray quote.

    ``quoted`` is the value as messages show it; ``s`` is the value without ``file:`` (the
    same for the other §17.3 groups).
    """
    v = item.value
    if item.absorbed:
        diag.add(
            "media.words_absorbed",
            "warning",
            f"the words after a complete path were read as part of it ({quoted}); put prose "
            "on its own line, or quote the path",
            start,
            end,
        )
    if "[[" in v or "]]" in v:
        diag.add(
            "media.tag_in_payload",
            "warning",
            f"a [[…]] tag was read as part of the reference {quoted} and had no effect; put "
            "tags on their own line, not after a MEDIA: reference",
            start,
            end,
        )
    lower = s[:8].lower()
    if (
        not lower.startswith(("http://", "https://", "media://"))
        and _is_second_branch_local(s)
        and ("://" in s or s[:1] in ("*", "_", "<", ">") or s[-1:] in ("*", "_", ">"))
    ):
        diag.add(
            "media.suspicious_relative",
            "warning",
            f"{quoted} was accepted as a relative path although it looks like markup or a "
            "URL fragment; write the bare https:// URL or path without wrapping",
            start,
            end,
        )
    if any(q in v for q in "\"'`"):
        diag.add(
            "media.stray_quote",
            "warning",
            f"the accepted reference {quoted} contains a quote character; quote the whole "
            "reference and put nothing after the closing quote",
            start,
            end,
        )


def _ending_checks(
    diag: Diagnostics, item: Item, s: str, *, quoted: str, start: int, end: int
) -> None:
    """§17.3, how the reference ends: sentence punctuation, JSON after the extension or cut
    off after it, and a whole payload of several names taken as one name with spaces."""
    v = item.value
    if v[-1:] in (".", ";", ":", "!", "?"):
        diag.add(
            "media.trailing_punctuation",
            "warning",
            f"the accepted reference {quoted} ends with sentence punctuation, which is kept; "
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
                f"the accepted reference {quoted} carries JSON after its file extension; "
                "emit the path alone, not serialized JSON",
                start,
                end,
            )
    tail = item.tail
    if item.cut or ('"' in tail and ("}" in tail or "]" in tail)):
        diag.add(
            "media.json_tail_cut",
            "info",
            f"a serialized-JSON tail after the reference was cut off, leaving {quoted}; "
            "emit the path alone",
            start,
            end,
        )
    if item.source == "fallback" and has_js_ws(v) and not starts_at_root(s):
        diag.add(
            "media.filenames_merged",
            "warning",
            f"the whole payload {quoted} was accepted as one file name with spaces; "
            "use one MEDIA: line per file, or quote a name that really has spaces",
            start,
            end,
        )


def _wrapper_checks(
    diag: Diagnostics, item: Item, s: str, *, quoted: str, start: int, end: int
) -> None:
    """§17.3, what the reference wraps: a remote URL behind ``file:``, and ``.`` or ``..``
    segments in an inbound ``media://`` reference."""
    v = item.value
    lower = s[:8].lower()
    if s is not v and len(s) != len(v) and s[:8].lower().startswith(("http://", "https://")):
        diag.add(
            "media.file_wraps_remote",
            "warning",
            f"{quoted} is a file: prefix around a remote URL; it was checked as the remote URL "
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
                f"{quoted} contains '.' or '..' path segments; it is delivered as written; "
                "refer to the inbound id directly (media://inbound/<id>)",
                start,
                end,
            )


def directive_checks(diag: Diagnostics, d: DirectiveLine, raw: str, judge: Judge) -> None:
    """§17.2-§17.3 for one directive line."""
    res = d.result
    if res is None:
        return  # the walk's fast path saw to it that nothing here applies (DirectiveLine)
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
    k = next_directive_token(raw, ps, d.end)
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
        _accepted_line(diag, d, res, payload, judge)
    else:
        _refused_line(diag, d, res, payload, judge)


def _accepted_line(
    diag: Diagnostics, d: DirectiveLine, res: PayloadResult, payload: str, judge: Judge
) -> None:
    """§17.3 for each accepted reference, then the parts left beside them: rejected (visible,
    hidden and counted, or dropped) and leftover text."""
    ps = d.payload
    # Whether §17.3 has nothing to say about a plain part depends on its value alone: asked
    # once per distinct value (a payload of 500k equal paths asks once, not 500k times).
    quiet: dict[str, bool] = {}
    for item in res.accepted:
        if not item.absorbed and not item.cut and not item.tail and item.source == "part":
            v = item.value
            q = quiet.get(v)
            if q is None:
                q = quiet[v] = says_nothing(v)
            if q:
                continue
        _item_checks(diag, item, ps + item.start, ps + item.end)
    if not res.rejected and not res.leftovers:
        return  # most accepted lines: one reference and nothing beside it
    # The rejected parts in one pass: those left visible, those hidden and counted, the
    # others dropped (each list keeps the payload's order).
    shown_parts: list[tuple[int, int, str, bool, bool]] = []
    counted: list[tuple[int, int, str, bool, bool]] = []
    dropped: list[tuple[int, int, str, bool, bool]] = []
    hidden = {(a, b) for a, b, _ in res.counted} if res.counted else None
    for r in res.rejected:
        if r[4]:
            shown_parts.append(r)
        elif hidden is not None and (r[0], r[1]) in hidden:
            counted.append(r)
        else:
            dropped.append(r)
    # Most lines leave all their rejected parts visible: an empty list records nothing, and
    # three calls each setting up its tallies cost a tenth of an accepted line's explanation.
    if shown_parts:
        _reject_parts(diag, judge, d, ps=ps, rejected=shown_parts, visible=True)
    if counted:
        _reject_parts(diag, judge, d, ps=ps, rejected=counted, visible=False, counted=True)
    if dropped:
        _reject_parts(diag, judge, d, ps=ps, rejected=dropped, visible=False)
    if res.leftovers:
        a = res.leftovers[0][0]
        b = res.leftovers[-1][1]
        diag.add(
            "media.leftover_text",
            "warning",
            f"{shown(payload[a:b])} was not part of an accepted reference and stays "
            "visible as text; quote references that contain spaces and put prose on its "
            "own line",
            ps + a,
            ps + b,
        )


def _refused_line(
    diag: Diagnostics, d: DirectiveLine, res: PayloadResult, payload: str, judge: Judge
) -> None:
    """§17.2 for a line with no accepted reference: why the parts and the whole-payload
    fallback failed, and what became of the line (removed, or kept although it would pass
    without its trailing whitespace)."""
    ps = d.payload
    tail = _visibility(d, True)
    part_codes: set[str] = set()
    # Words and spaces only, none longer than a reference may be: every part, and the
    # whole payload as the fallback, is refused as media.not_a_reference (no scheme,
    # separator, extension or home form; tests/test_fastpaths.py compares the
    # general steps). A 1 MB payload of distinct words once asked 500k verdicts here.
    words = res.words and res.parts > 1 and _LONG_WORD.search(payload) is None
    if words:
        part_codes = _reject_words(diag, judge, ps, res.rejected, tail)
    elif res.parts > 1:
        # Each part is what the reference tried; the whole-payload fallback is reported
        # only when it fails for a reason none of the parts already gives.
        part_codes = _reject_parts(diag, judge, d, ps=ps, rejected=res.rejected, visible=True)
    if res.fallback_failed is not None and not (words and len(payload) <= MAX_REFERENCE_UNITS):
        fa, fb, candidate = res.fallback_failed
        fb = fa + len(js_rtrim(payload[fa:fb]))
        if fb <= fa:
            fa, fb = res.value_bounds
        verdict = judge.verdict(candidate, True, True)
        if verdict.code not in part_codes:
            _reject(diag, verdict, ps + fa, ps + fb, tail)
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
                f"{shown(trimmed)} would be accepted without the whitespace after it; remove "
                "trailing spaces (or the CR of a CRLF line end) after the reference; the "
                "directive stayed visible as text",
                d.match,
                d.end,
            )
