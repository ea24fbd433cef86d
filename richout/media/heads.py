"""How a directive line starts: the shapes the line walk and the fused split read off a line's
head before any payload step (MEDIA.md §5-§6).

:data:`PLAIN_DIRECTIVE` is the common line of one plain token, :data:`PATHS_HEAD` the head of
a line of plain absolute paths (:func:`plain_paths`), :data:`HEAD` that of any other ASCII
``MEDIA:`` line, from which the walk reads where the payload starts.
"""

from __future__ import annotations

import re

from richout.media.regroup import plain_path_run
from richout.policy.verdict import MAX_REFERENCE_UNITS
from richout.text.chars import JS_WS

__all__ = ["HEAD", "HEAD_STOPS", "PATHS_HEAD", "PLAIN_DIRECTIVE", "plain_paths"]

#: The common directive line: spaces or tabs, ``MEDIA:`` (ASCII letter case), spaces or tabs,
#: then one token of ASCII characters that no payload step treats specially, maybe between
#: backticks. The token holds no whitespace (it is the one part, §6.6), opens no quoted list,
#: and has no wrapper, quote or comma, nor a backslash at its end, for cleaning (§6.1) to
#: strip, and no ``"`` for a JSON cut: the payload's cleaned candidate is the token itself,
#: so the token's verdict alone decides the line. (A leading backtick is skipped only where
#: the profile skips one; a trailing one is cleaned away.) The letters are spelled as
#: classes: ``re.IGNORECASE`` would also match U+0130 and U+0131 for the I.
PLAIN_DIRECTIVE = re.compile(
    r"[ \t]*[Mm][Ee][Dd][Ii][Aa]:[ \t]*(`?)"
    r"([A-Za-z0-9/._~:%?=&+#@!$*;\\-]*[A-Za-z0-9/._~:%?=&+#@!$*;-])`?"
)

#: The head of a ``MEDIA:`` line of plain absolute paths (``/`` then ASCII letters, digits,
#: ``_ - . /``) separated by spaces or tabs; :func:`~richout.media.regroup.plain_path_run`
#: reads the rest. Each such token is its own part (it starts at a root, so none joins the
#: one before, §6.6) and is accepted (§7: a local shape) unless it is longer than one
#: reference may be, which the walk checks apart; ``richout.media.payload`` answers those
#: payloads the same way.
PATHS_HEAD = re.compile(r"[ \t]*[Mm][Ee][Dd][Ii][Aa]:[ \t]*/")
#: The head of any other ASCII ``MEDIA:`` line: blanks, ``MEDIA:``, blanks; it passes rule 1
#: under every profile, its ``MEDIA:`` is the line's first, and the payload starts where the
#: blanks end unless another whitespace character or a backtick follows them.
HEAD = re.compile(r"[ \t]*[Mm][Ee][Dd][Ii][Aa]:[ \t]*")
#: What ends :data:`HEAD` without the payload starting there: more whitespace or a backtick
#: (:func:`~richout.media.lines.payload_start` reads those lines).
HEAD_STOPS = frozenset(JS_WS + "`")


def plain_paths(raw: str, ls: int, le: int) -> list[str] | None:
    """The paths of the line ``raw[ls:le]`` when it is a ``MEDIA:`` line of plain absolute
    paths (:data:`PATHS_HEAD`, :func:`~richout.media.regroup.plain_path_run`), each within
    the length a reference may have; else None."""
    m = PATHS_HEAD.match(raw, ls, le)
    if m is None:
        return None
    ps = m.end() - 1
    if not plain_path_run(raw, ps, le):
        return None
    tokens = raw[ps:le].split()
    if max(map(len, tokens)) > MAX_REFERENCE_UNITS:
        return None
    return tokens
