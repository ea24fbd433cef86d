"""The shape lanes of :func:`~richout.media.payload.analyse_payload` for rooted paths and
quoted URLs: payloads whose shape alone settles §6's steps, read without regrouping.

Each lane is checked field for field against the general steps (``tests/test_media_payload.py``);
a payload the lane is unsure of goes to them.
"""

from __future__ import annotations

import re

from richout.media.fates import Item, PayloadResult
from richout.media.judge import Judge
from richout.media.regroup import PLAIN_PATH_CHARS, WORD_CHARS
from richout.policy.local import has_file_extension_in

__all__ = [
    "QUOTED_PATH",
    "QUOTED_URL",
    "SPACED_PATH",
    "URL_CHARS",
    "names_join",
    "paths_only",
    "quoted_path",
    "spaced_path",
]


def paths_only(p: str, tokens: list[tuple[int, int]], res: PayloadResult) -> PayloadResult:
    """The steps for a payload of plain absolute paths (``tokens``) separated by blanks
    (:func:`~richout.media.regroup.plain_path_run`, each within ``MAX_REFERENCE_UNITS``).

    Every path starts at a root and so begins an independent source: none joins the part
    before it (§6.6), each is a part, cleaning keeps it whole, and §7 accepts it. Nothing is
    left, rejected or counted, so neither the rescue nor the fallback runs, and the payload,
    which starts with ``/``, looks local.
    """
    res.parts = len(tokens)
    res.value_bounds = (0, tokens[-1][1])
    res.looks_local = True
    res.accepted = [Item(p[a:b], a, b, False, "part", False, "") for a, b in tokens]
    return res


#: A rooted path written with spaces: a plain path from ``/`` or ``~/``, then blank-separated
#: names (word characters, ``.``, ``-`` and ``/``, starting with a word character; each
#: joins the part before it only when :func:`names_join` says so), maybe a closing
#: backtick (group 3: the payload of ``MEDIA:`/tmp/my file.png```, whose opening backtick
#: profile ``next`` skips), blanks around. Group 1 is the first token, group 2 the rest.
#: Blanks and names share no character, so a failed match gives each run back at once: the
#: cost stays linear.
SPACED_PATH = re.compile(
    f"[ \t]*((?:/|~/)[{PLAIN_PATH_CHARS}]*)"
    f"((?:[ \t]+[{WORD_CHARS}][{PLAIN_PATH_CHARS}]*)+)(`?)[ \t]*"
)
#: One later name of a :data:`SPACED_PATH` payload (group 1), with the blanks before it.
_LATER_NAME = re.compile(f"[ \t]+([{WORD_CHARS}][{PLAIN_PATH_CHARS}]*)")


def names_join(p: str, m: re.Match[str]) -> bool:
    """Does each later name of the :data:`SPACED_PATH` payload ``m`` join the part before
    it (§6.6)? A name without ``/`` is refused alone, so it does; one with a ``/`` (``My
    Files/x.pdf``) may be accepted alone, so it is certain to join only when the part before
    it has no file extension."""
    rest_start = m.start(2)
    if "/" not in p[rest_start : m.end(2)]:
        return True
    part_start, part_end = m.start(1), m.end(1)
    for name in _LATER_NAME.finditer(p, rest_start, m.end(2)):
        if "/" in name.group(1) and has_file_extension_in(p, part_start, part_end):
            return False
        part_end = name.end()
    return True


def spaced_path(p: str, m: re.Match[str], res: PayloadResult) -> PayloadResult:
    """The steps for a :data:`SPACED_PATH` payload holding no ``..`` (so no traversal),
    at most ``MAX_REFERENCE_UNITS`` long.

    The first token starts at a root; no later one does, nor has a scheme (no ``:``), so
    none begins an independent source; and §7 refuses each alone that holds no ``/`` (no
    separator, no local shape, bare names not allowed), so each joins the part before it
    whether or not that part ended with an extension (§6.6), and the caller checked that
    the part before each name with a ``/`` ends with none (:func:`names_join`): the payload
    is one part, ``absorbed`` when the first token ended with one. Cleaning keeps it whole
    (no wrapper character, no quote) but for a closing backtick, which it strips into the
    tail, and §7 accepts it with spaces allowed: it is a local path from ``/`` or ``~/``,
    with no traversal and no unsupported home form. It looks local, and nothing is left,
    rejected, counted, rescued or tried as a fallback.
    """
    a, b = m.start(1), m.end(2)
    res.parts = 1
    res.looks_local = True
    absorbed = has_file_extension_in(p, a, m.end(1))
    if m.end(3) > b:
        # The closing backtick is a wrapper character cleaning strips, and the only one: a
        # name's characters are none; the part runs over it.
        res.value_bounds = (a, b + 1)
        res.accepted = [Item(p[a:b], a, b + 1, False, "part", absorbed, "`")]
        return res
    res.value_bounds = (a, b)
    res.accepted = [Item(p[a:b], a, b, False, "part", absorbed, "")]
    return res


#: A rooted path in one pair of quotes or backticks (each unwraps, §6.2), maybe with single
#: spaces or runs of them between its names (``"/tmp/my file.png"``), blanks around
#: (:func:`quoted_path`). Group 1 is the quote, group 2 the path; runs of path characters
#: alternate with runs of spaces, so a failed match gives each run back at once.
QUOTED_PATH = re.compile(
    f"[ \t]*([\"'`])((?:/|~/)[{PLAIN_PATH_CHARS}]*(?: +[{PLAIN_PATH_CHARS}]+)*)\\1[ \t]*"
)
#: The characters of a URL the lanes read (:data:`QUOTED_URL`, and the captioned-URL lane of
#: :mod:`richout.media.payload`): no wrapper, quote, bracket, comma or backslash, so
#: cleaning keeps it whole.
URL_CHARS = "A-Za-z0-9._~/%?=&:+#@-"
#: The same for an ``http://`` or ``https://`` URL, maybe with spaces in it
#: (``"https://cdn.example.com/a b/c.pdf"``).
QUOTED_URL = re.compile(f"[ \t]*([\"'`])(https?://[{URL_CHARS}]+(?: +[{URL_CHARS}]+)*)\\1[ \t]*")


def quoted_path(m: re.Match[str], judge: Judge, res: PayloadResult, *, local: bool) -> bool:
    """The steps for a :data:`QUOTED_PATH` or :data:`QUOTED_URL` payload (``local``: the
    first; at most ``MAX_REFERENCE_UNITS`` long) whose value §7 accepts with spaces allowed,
    filling ``res``; False, with ``res`` untouched, when it refuses it (``..``, a loopback
    host: the general steps explain that).

    Two quotes make no explicit list (it needs two members), so the whole payload is
    unwrapped: the value, which has no blank at either end, is the one part and the
    candidate, accepted as ``unwrapped``; a path starts at a root, so the payload looks
    local, and a URL has a scheme, so it does not. Nothing is left, rejected or counted,
    and neither the rescue nor the fallback runs.
    """
    a, b = m.span(2)
    path = m.group(2)
    if not judge.ok(path, True):
        return False
    res.parts = 1
    res.value_bounds = (a, b)
    res.unwrapped = path
    res.looks_local = local
    res.accepted = [Item(path, a, b, False, "unwrapped", False, "")]
    return True
