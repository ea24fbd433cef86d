"""An explained directive line of one refused token, decided without a payload reading.

The walk's other shortcut (MEDIA.md §6-§9, §17.2): the line is ``MEDIA:`` and one token
(:data:`~richout.media.heads.PLAIN_DIRECTIVE`) that cleaning keeps whole and that the profile
refuses, as a token and as the whole-payload fallback. The payload steps would read it as
one part (:func:`~richout.media.single_token.read_clean_token`) and the explanation would
then ask that reading again (:func:`~richout.media.explain_directives.directive_checks`);
here the line is recorded and its findings are made at once, with no payload result, which
a megabyte of such lines (``MEDIA:../a1.png``, ``MEDIA:http://x/a1.png``) spent a fifth of
its explained time building and reading back. ``tests/test_fastpaths.py`` compares every
output and the whole explanation with the general path.
"""

from __future__ import annotations

import re
from typing import Literal

from richout.media.explain_directives import refused_token_findings
from richout.media.lines import DirectiveLine, Walk, refused_change
from richout.media.single_token import rooted_or_schemed
from richout.policy import strip_file_prefix
from richout.policy.local import looks_local
from richout.profiles import Profile

__all__ = ["refused_token_line"]


def refused_token_line(
    walk: Walk, raw: str, m: re.Match[str], ls: int, le: int, *, profile: Profile
) -> bool:
    """Record the line ``raw[ls:le]`` (``m``: its :data:`~richout.media.heads.PLAIN_DIRECTIVE`
    match) in ``walk`` with its §17.2 findings when its payload is one token, ending the
    line, that the profile refuses with and without bare filenames; False, having recorded
    nothing, otherwise (the general path reads it).

    What the general path does with such a line: a refused part that looks local or begins
    an independent source is hidden and counted where the profile hides refusals; the line
    is removed when the token looks local (or carries the file prefix) or was counted, and
    kept as text otherwise.
    """
    if m.end(2) != le:
        return False  # a closing backtick: cleaned into a tail, read by the general steps
    if m.start(1) < m.end(1) and not profile.skip_leading_backtick:
        return False  # the backtick is part of the payload
    token = m.group(2)
    judge = walk.judge
    if judge.ok(token):
        return False  # accepted, maybe then narrowed or not quiet: the general path
    # The verdict with both switches (a token holds no whitespace, so it is the one with
    # bare filenames alone): the fallback's, and the one the findings give.
    verdict = judge.verdict(token, True, True)
    if verdict.ok:
        return False  # the bare-filename fallback accepts it: the general path
    local = looks_local(token)
    hidden = profile.hide_rejected and (local or rooted_or_schemed(token))
    ms = raw.find(":", ls) - 5  # the line opens with [ \t]*MEDIA:
    if hidden:
        walk.rejected_count += 1
    removed = hidden or local or strip_file_prefix(token) != token
    if removed:
        walk.consumed = True
    change = refused_change(raw, ls, ms, le, removed=removed)
    walk.changes.append(change)
    ps = m.start(2)
    outcome: Literal["removed", "kept"] = "removed" if removed else "kept"
    walk.directives.append(DirectiveLine(ls, le, ms, ps, None, outcome, change.replacement is None))
    line = (ms, ps, le)
    counted = 1 if hidden else 0
    refused_token_findings(walk.findings, verdict, raw, line, outcome=outcome, counted=counted)
    return True
