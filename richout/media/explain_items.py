"""§17.3: what an accepted reference's spelling warns about (MEDIA.md).

One accepted :class:`~richout.media.fates.Item` at a time: words absorbed into a path, a tag
or markup read as part of it, stray quotes, JSON residue, punctuation at its end, ``file:``
around a URL, dot segments in ``media://``. Apart from :mod:`richout.media.explain_directives`,
which reads each directive line and asks here about its accepted references.
"""

from __future__ import annotations

import re
from operator import attrgetter

from richout.media.explain_lines import shown
from richout.media.lines import says_nothing
from richout.media.payload import Item
from richout.models.diagnostics import Recorder
from richout.policy import strip_file_prefix
from richout.policy.local import (
    has_scheme_prefix,
    is_likely_local_path,
    is_windows_drive,
    starts_at_root,
)
from richout.text.chars import has_js_ws

__all__ = ["ITEM_KEY", "item_checks", "speaks"]


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


def item_checks(diag: Recorder, item: Item, start: int, end: int) -> None:
    """§17.3 for one accepted reference (``start``, ``end``: where it stands in the input).

    Not called for an item :func:`speaks` says nothing of: the caller asks that once per
    distinct set of fields."""
    v = item.value
    quoted = shown(v)
    s = strip_file_prefix(v)
    _reading_checks(diag, item, s, quoted=quoted, start=start, end=end)
    _ending_checks(diag, item, s, quoted=quoted, start=start, end=end)
    _wrapper_checks(diag, item, s, quoted=quoted, start=start, end=end)


def _reading_checks(
    diag: Recorder, item: Item, s: str, *, quoted: str, start: int, end: int
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
    diag: Recorder, item: Item, s: str, *, quoted: str, start: int, end: int
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
    diag: Recorder, item: Item, s: str, *, quoted: str, start: int, end: int
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


#: The fields of an accepted item that decide whether §17.3 speaks of it.
ITEM_KEY = attrgetter("absorbed", "cut", "tail", "source", "value")


def speaks(absorbed: bool, cut: bool, tail: str, source: str, value: str) -> bool:
    """Has §17.3 something to say about an accepted item with these fields (``ITEM_KEY``)?
    One not absorbed, cut, cleaned or taken by the fallback only for its value: no check
    reads another source (a quoted path, ``unwrapped``, was asked every check per line)."""
    return absorbed or cut or bool(tail) or source == "fallback" or not says_nothing(value)
