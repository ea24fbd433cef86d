"""Quoting user text inside a message: ``repr`` of a piece cut to a bounded length.

Messages quote the construct they are about; a hostile construct can be megabytes long, so
every quote is cut. Two cuts exist because the reference's wording differs by area: tag and
delivery messages cut at 60 characters with an ellipsis character, reference-policy
refusals at 80 with three dots.
"""

from __future__ import annotations

__all__ = ["SHOW_MAX", "show", "shown"]

#: Longest piece of a construct that a tag or delivery message quotes, in characters.
SHOW_MAX = 60


def show(s: str) -> str:
    """``s`` as a tag or delivery message quotes it: ``repr``, cut to 60 characters."""
    if len(s) > SHOW_MAX:
        s = s[: SHOW_MAX - 1] + "…"
    return repr(s)


def shown(s: str) -> str:
    """A reference as a policy refusal quotes it: ``repr``, cut to 80 characters."""
    return repr(s if len(s) <= 80 else s[:77] + "...")
