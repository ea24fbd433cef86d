"""§17.2-§17.3: why a directive line's references were rejected or look wrong (MEDIA.md).

One :class:`~richout.media.lines.DirectiveLine` at a time: an empty payload, a second
``MEDIA:`` on the line, the rejected parts and the failed whole-payload fallback (one record
per reason), what became of the line (removed, or kept because of trailing whitespace), and
the §17.3 warnings about its accepted references (:mod:`richout.media.explain_items`).
"""

from __future__ import annotations

import re
from operator import eq, itemgetter
from typing import Any

from richout.media.cleaning import clean
from richout.media.explain_items import ITEM_KEY, item_checks, speaks
from richout.media.explain_lines import shown
from richout.media.lines import DirectiveLine, next_directive_token, says_nothing
from richout.media.payload import Item, Judge, PayloadResult
from richout.media.regroup import WORD_CHARS
from richout.models.diagnostics import Diagnostics, Finding, FindingList, Recorder
from richout.policy import Verdict
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.text.chars import js_rtrim, js_trim

__all__ = [
    "caption_findings",
    "directive_checks",
    "refused_token_findings",
    "spaced_path_findings",
]


def _visibility(outcome: str, visible_part: bool, counted: bool = False) -> str:
    """What became of a rejected part of a line whose ``outcome`` is given."""
    if counted:
        return (
            "it was removed from the text and counted in rejected_media_count, so the "
            "gateway can tell the user an attachment was refused"
        )
    if outcome == "accepted":
        if visible_part:
            return "this part stays visible as text next to the accepted reference"
        return "this part was dropped from the text"
    if outcome == "removed":
        return "nothing on the line was accepted and the directive was removed from the text"
    return "nothing on the line was accepted and the directive stayed visible as text"


_MULTIPLE_ON_LINE = (
    "only one MEDIA: directive is read per line; this one is part of the previous payload; "
    "put each MEDIA: directive on its own line"
)


def _removed(counted: int) -> str:
    """The media.line_removed message of a line that hid and counted ``counted`` references
    (made once per count: a megabyte of removed lines spent 3% formatting it again)."""
    message = _REMOVED.get(counted)
    if message is None:
        message = _removed_message(counted)
        if counted < _REMOVED_KEPT:
            _REMOVED[counted] = message
    return message


#: :func:`_removed`'s messages by count, the small counts only (a line hides at most a
#: payload's parts, so a hostile reply could ask for many counts)
_REMOVED: dict[int, str] = {}
_REMOVED_KEPT = 64


def _removed_message(counted: int) -> str:
    why = (
        f"{counted} rejected reference(s) were counted in rejected_media_count"
        if counted
        else "it looks like a local path"
    )
    return (
        f"no reference on this MEDIA: line was accepted and, because {why}, the directive "
        "was removed from the text; fix the reference (https:// to a public host, an "
        "absolute, ./ or ~/ path, no '..')"
    )


def refused_token_findings(
    found: list[Finding],
    verdict: Verdict,
    raw: str,
    line: tuple[int, int, int],
    *,
    outcome: str,
    counted: int,
) -> None:
    """§17.2 for a directive line ``line`` (``MEDIA:``, payload and end offsets) whose payload
    is one token that cleaning keeps whole and the profile refused (``verdict``, asked with
    both switches), which the walk decided itself (:mod:`richout.media.refused`): the
    findings :func:`directive_checks` makes of the payload steps' reading of such a line,
    appended to ``found``. That reading has one part, the token, whose failed fallback is the
    token again and ends the line, nothing after it to trim, and no words; so a second
    ``MEDIA:`` in the token, the verdict, and the line's removal are all there is to say.
    """
    ms, ps, le = line
    k = next_directive_token(raw, ps, le)
    if k >= 0:
        found.append((k, "media.multiple_on_line", le, "warning", _MULTIPLE_ON_LINE, None))
    if not verdict.ok and verdict.code is not None:
        tail = _visibility(outcome, True)
        found.append((ps, verdict.code, le, "error", f"{verdict.reason}; {tail}", None))
    if outcome == "removed":
        found.append((ms, "media.line_removed", le, "warning", _removed(counted), None))


def caption_findings(
    found: list[Finding],
    judge: Judge,
    raw: str,
    d: DirectiveLine,
    rejected: list[tuple[int, int, str, bool, bool]],
    *,
    counted: int,
) -> None:
    """§17.2-§17.3 for a directive line ``d`` whose payload is a URL and its caption
    (:data:`~richout.media.payload.CAPTIONED_URL`, no blanks around) with the URL accepted
    and quiet, or refused as a part and as the whole payload, which the walk decided itself
    (:mod:`richout.media.captioned`): the findings :func:`directive_checks` makes of the
    payload steps' reading of such a line, appended to ``found``. ``rejected`` are that
    reading's refused parts as it lists them (the words, after the URL when it was refused),
    and ``counted`` the references it hid. Accepted, its leftovers are the words; refused,
    its fallback is the whole payload, which ends the line with nothing to trim, and its
    parts are not all words. The records are made by the functions the general reading's
    are made by.
    """
    ps, le = d.payload, d.end
    k = next_directive_token(raw, ps, le)
    if k >= 0:
        found.append((k, "media.multiple_on_line", le, "warning", _MULTIPLE_ON_LINE, None))
    sink = FindingList(found)
    codes = _reject_parts(sink, judge, d, ps=ps, rejected=rejected, visible=True)
    if d.outcome == "accepted":
        a, b = ps + rejected[0][0], ps + rejected[-1][1]
        sink.add("media.leftover_text", "warning", _leftover_message(raw[a:b]), a, b)
        return
    verdict = judge.verdict(raw[ps:le], True, True)
    if verdict.code not in codes:
        _reject(sink, verdict, ps, le, _visibility(d.outcome, True))
    if d.outcome == "removed":
        found.append((d.match, "media.line_removed", le, "warning", _removed(counted), None))


def spaced_path_findings(found: list[Finding], raw: str, d: DirectiveLine, item: Item) -> None:
    """§17.3 for a directive line ``d`` whose payload is a rooted path written with spaces,
    one accepted part (:func:`~richout.media.shapes.spaced_path`'s ``item``), which the walk
    decided itself (:mod:`richout.media.captioned`): the findings :func:`directive_checks`
    makes of the payload steps' reading of such a line (nothing is rejected or left beside
    the part), appended to ``found``."""
    ps, le = d.payload, d.end
    k = next_directive_token(raw, ps, le)
    if k >= 0:
        found.append((k, "media.multiple_on_line", le, "warning", _MULTIPLE_ON_LINE, None))
    if speaks(item.absorbed, item.cut, item.tail, item.source, item.value):
        item_checks(FindingList(found), item, ps + item.start, ps + item.end)


def _reject(diag: Recorder, verdict: Verdict, start: int, end: int, tail: str) -> None:
    """Record why a candidate was rejected (its ``verdict``) over ``[start, end)``."""
    if verdict.ok or verdict.code is None:
        return
    diag.add(verdict.code, "error", f"{verdict.reason}; {tail}", start, end)


#: From this many accepted items or rejected parts a line's explanation reads them in
#: bulk (their distinct values, in C) before, or instead of, one by one. Tests raise it
#: past any payload to compare the two ways.
_BULK_PARTS = 16
_CANDIDATE_SPACES = itemgetter(2, 3)


def _reject_parts(
    diag: Recorder,
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
    if len(rejected) >= _BULK_PARTS:
        # Most long payloads refuse every part for one reason (260k "~" tokens): the
        # distinct parts, listed in C, are judged, and one record spans them all.
        judged = [
            judge.verdict(candidate, spaces, False)
            for candidate, spaces in dict.fromkeys(map(_CANDIDATE_SPACES, rejected))
        ]
        code = judged[0].code
        if code is not None and all(not v.ok and v.code == code for v in judged):
            found[code] = [
                ps + rejected[0][0],
                ps + rejected[-1][1],
                len(rejected),
                judged[0].reason,
            ]
            rejected = []
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
    tail = _visibility(d.outcome, visible, counted)
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
        diag.add("media.multiple_on_line", "warning", _MULTIPLE_ON_LINE, k, d.end)
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
    if len(res.accepted) >= _BULK_PARTS:
        # Whether §17.3 has something to say about an item depends on its fields alone, not
        # its place: each distinct set of them is asked once, listed in C (a payload of
        # 500k equal paths asks once, and loops over its items only when one speaks).
        loud = {key for key in set(map(ITEM_KEY, res.accepted)) if speaks(*key)}
        if loud:
            for item in res.accepted:
                if ITEM_KEY(item) in loud:
                    item_checks(diag, item, ps + item.start, ps + item.end)
    else:
        # (speaks, asked field by field: a line's one reference builds no key tuple)
        for item in res.accepted:
            if (
                item.absorbed
                or item.cut
                or item.tail
                or item.source == "fallback"
                or not says_nothing(item.value)
            ):
                item_checks(diag, item, ps + item.start, ps + item.end)
    if not res.rejected and not res.leftovers:
        return  # most accepted lines: one reference and nothing beside it
    shown_parts, counted, dropped = _partition(res)
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
        diag.add("media.leftover_text", "warning", _leftover_message(payload[a:b]), ps + a, ps + b)


def _leftover_message(text: str) -> str:
    """The media.leftover_text message for the leftover ``text`` of an accepted line."""
    return (
        f"{shown(text)} was not part of an accepted reference and stays visible as text; "
        "quote references that contain spaces and put prose on its own line"
    )


_BOUNDS = itemgetter(0, 1)
_START, _END = itemgetter(0), itemgetter(1)
_VISIBLE = itemgetter(4)


_Parts = list[tuple[int, int, str, bool, bool]]


def _partition(res: PayloadResult) -> tuple[_Parts, _Parts, _Parts]:
    """The rejected parts of an accepted line: those left visible, those hidden and counted,
    the others dropped (each list keeps the payload's order).

    From :data:`_BULK_PARTS` parts, a payload whose parts are all visible or all counted
    (most long ones: 260k refused tokens) is told apart in C; any other goes part by part."""
    rejected = res.rejected
    visible = list(map(_VISIBLE, rejected)) if len(rejected) >= _BULK_PARTS else None
    if visible is not None and all(visible):
        return rejected, [], []
    counted_all = res.counted
    if (
        visible is not None
        and not any(visible)
        and len(counted_all) == len(rejected)
        and all(map(eq, map(_START, counted_all), map(_START, rejected)))
        and all(map(eq, map(_END, counted_all), map(_END, rejected)))
    ):
        return [], rejected, []
    shown_parts: _Parts = []
    counted: _Parts = []
    dropped: _Parts = []
    hidden = set(map(_BOUNDS, res.counted))
    for r in rejected:
        if r[4]:
            shown_parts.append(r)
        elif (r[0], r[1]) in hidden:
            counted.append(r)
        else:
            dropped.append(r)
    return shown_parts, counted, dropped


def _refused_line(
    diag: Diagnostics, d: DirectiveLine, res: PayloadResult, payload: str, judge: Judge
) -> None:
    """§17.2 for a line with no accepted reference: why the parts and the whole-payload
    fallback failed, and what became of the line (removed, or kept although it would pass
    without its trailing whitespace)."""
    ps = d.payload
    tail = _visibility(d.outcome, True)
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
        diag.add("media.line_removed", "warning", _removed(len(res.counted)), d.match, d.end)
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
