"""An explained directive line of a reference and words after it, decided without a payload
reading.

The payload steps read ``MEDIA:https://…/a.png the chart`` by their captioned-URL lane
(:data:`~richout.media.payload.CAPTIONED_URL`: the URL is the one part that can be a
reference, each word a part refused and left visible) and ``MEDIA:/tmp/a.png the chart``
by their spaced-path lane (:data:`~richout.media.shapes.SPACED_PATH`: one accepted part,
the words absorbed). Explaining, the walk kept that reading (a
:class:`~richout.media.fates.PayloadResult` with its lists) for
:func:`~richout.media.explain_directives.directive_checks` to read back; a megabyte of such
lines spent about a third of its explained time building and reading it. Here the line is
recorded as the general path records it and its findings are made at once
(:func:`~richout.media.explain_directives.caption_findings`,
:func:`~richout.media.explain_directives.spaced_path_findings`), with no payload result.
``tests/test_fastpaths.py`` compares every output and the whole explanation with the
general path.
"""

from __future__ import annotations

from typing import Literal

from richout.media.explain_directives import caption_findings, spaced_path_findings
from richout.media.lines import (
    DirectiveLine,
    LineChange,
    SegmentItem,
    Walk,
    leftover_text,
    refused_change,
    says_nothing,
)
from richout.media.payload import CAPTIONED_URL, PayloadResult, caption_words
from richout.media.shapes import SPACED_PATH, names_join, spaced_path
from richout.models import span_record
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.profiles import Profile

__all__ = ["spaced_path_line", "url_caption_line"]


def spaced_path_line(walk: Walk, raw: str, ps: int, ls: int, le: int) -> bool:
    """Record the line ``raw[ls:le]`` (blanks, ``MEDIA:``, blanks, then its payload at
    ``ps``) in ``walk`` with its §17.3 findings when the payload is a rooted path written
    with spaces (:data:`~richout.media.shapes.SPACED_PATH`, ``MEDIA:/tmp/a.png the
    chart``) that the payload steps read as one accepted part, the words absorbed
    (:func:`~richout.media.shapes.spaced_path`), and the gateway's policy keeps; False,
    having recorded nothing, otherwise (the general path reads it).

    No earlier step of :func:`~richout.media.payload.analyse_payload` takes such a payload:
    it holds blanks (not one token), starts at a root (no URL, no words alone) and has a
    later name that does not (not a payload of plain paths). The line leaves the text; its
    findings are the §17.3 checks of its one reference, which says something whenever a
    word was absorbed.
    """
    if le - ps > MAX_REFERENCE_UNITS:
        return False  # (the payload lane's bound: the general steps read longer payloads)
    p = raw[ps:le]
    m = SPACED_PATH.fullmatch(p)
    if m is None or ".." in p or not names_join(p, m):
        return False
    res = spaced_path(p, m, PayloadResult())
    item = res.accepted[0]
    value = item.value
    judge = walk.judge
    if not judge.narrowed(value).ok:
        return False  # the policy refuses it: the general path decides where it goes
    ms = raw.find(":", ls) - 5  # the line opens with [ \t]*MEDIA:
    walk.consumed = True
    walk.media.append(value)
    walk.spans.append(span_record("media", ms, le, value))
    walk.changes.append(LineChange(ls, le, None, [("media", value)], [], ps, " "))
    d = DirectiveLine(ls, le, ms, ps, None, "accepted", True)
    walk.directives.append(d)
    spaced_path_findings(walk.findings, raw, d, item)
    return True


def url_caption_line(walk: Walk, raw: str, ps: int, ls: int, le: int, *, profile: Profile) -> bool:
    """Record the line ``raw[ls:le]`` (blanks, ``MEDIA:``, blanks, then its payload at
    ``ps``) in ``walk`` with its §17.2-§17.3 findings when the payload is a URL and its
    caption (:data:`~richout.media.payload.CAPTIONED_URL`, no blanks after it), the URL
    either accepted (a quiet value the gateway's policy keeps) or refused with the whole
    payload; False, having recorded nothing, otherwise (the general path reads it).

    What the general path does with such a line: an accepted URL is delivered and the words
    stay as the line's text; a refused one, having a scheme, is hidden and counted where
    the profile hides refusals, and the line is then removed, else the line is kept as text.
    Every word is a refused part left visible.
    """
    if le - ps > MAX_REFERENCE_UNITS:
        return False  # (the payload lane's bound: the general steps read longer payloads)
    m = CAPTIONED_URL.fullmatch(raw, ps, le)
    if m is None or m.end(2) != le:
        return False  # not the shape, or blanks after it: the general steps trim and explain
    b = m.end(1)
    token = raw[ps:b]
    judge = walk.judge
    accepted = judge.ok(token)
    if accepted:
        if not says_nothing(token) or not judge.narrowed(token).ok:
            return False  # §17.3 speaks of it, or the policy refuses it: the general path
    elif judge.ok(raw[ps:le], True, True):
        return False  # the whole-payload fallback accepts it: the general steps
    hidden = not accepted and profile.hide_rejected
    # The payload steps' parts after the URL, offsets in the payload: each word.
    payload = raw[ps:le]
    words, rejected = caption_words(payload, b - ps, le - ps)
    ms = raw.find(":", ls) - 5  # the line opens with [ \t]*MEDIA:
    outcome: Literal["accepted", "removed", "kept"]
    if accepted:
        outcome = "accepted"
        walk.consumed = True
        walk.media.append(token)
        walk.spans.append(span_record("media", ms, le, token))
        segments: list[SegmentItem] = [("media", token)]
        cleaned, kept = leftover_text(payload, words)
        if cleaned:
            segments.append(("text", cleaned))
        change = LineChange(ls, le, cleaned or None, segments, kept, ps, " ")
    else:
        # The URL is the first part, hidden where the profile hides it.
        rejected.insert(0, (0, b - ps, token, True, not hidden))
        outcome = "removed" if hidden else "kept"
        if hidden:
            walk.rejected_count += 1
            walk.consumed = True
        change = refused_change(raw, ls, ms, le, removed=hidden)
    walk.changes.append(change)
    d = DirectiveLine(ls, le, ms, ps, None, outcome, change.replacement is None)
    walk.directives.append(d)
    caption_findings(walk.findings, judge, raw, d, rejected, counted=1 if hidden else 0)
    return True
