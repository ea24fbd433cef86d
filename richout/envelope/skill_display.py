"""Where a skill's ``display_md`` ends up (SKILL_ENVELOPE.md §5).

On rich channels (:data:`RICH_CHANNELS`) each usable ``display_md`` block is appended after
the model's body unless the body already contains it; elsewhere the model relays the content
itself. :func:`explain_display_md` says why each block was or was not appended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from richout.envelope._common import diag, join_path, py_usable
from richout.envelope.models import DisplayPlacement
from richout.errors import InvalidInput, require_bool, require_str
from richout.models import Diagnostic

__all__ = ["RICH_CHANNELS", "explain_display_md", "place_display_md"]

#: Channels that show ``display_md`` (and run ``async: true`` skills in the conversation).
RICH_CHANNELS = ("web", "web_admin")


def _block(item: Any) -> tuple[Any, bool]:
    if isinstance(item, Mapping):
        return item.get("display_md"), item.get("display_only") is True
    return item, False


def explain_display_md(
    body: str,
    blocks: Sequence[str | Mapping[str, Any]],
    channel: str,
    *,
    honor_display_only: bool = False,
) -> DisplayPlacement:
    """:func:`place_display_md` with the indexes appended and a diagnostic per skipped block."""
    if not isinstance(body, str):
        raise InvalidInput("body must be a string")
    if isinstance(blocks, (str, Mapping)) or not isinstance(blocks, Sequence):
        raise InvalidInput("blocks must be a list of display_md strings or skill results")
    require_str(channel, "channel")
    require_bool(honor_display_only, "honor_display_only")
    rich = channel in RICH_CHANNELS
    parsed = [_block(b) for b in blocks]
    found: list[Diagnostic] = []
    if rich and honor_display_only and any(only and py_usable(md) for md, only in parsed):
        # The specified meaning: the model's body is replaced by the display blocks.
        body = ""
    appended: list[int] = []
    for i, (md, _only) in enumerate(parsed):
        if not py_usable(md):
            continue
        where = join_path(join_path("blocks", i), "display_md")
        if not rich:
            found.append(
                diag(
                    "skill.display_md_dropped",
                    "info",
                    f"channel {channel!r} is not a rich channel (web, web_admin); display_md is "
                    "not appended and the model relays the content itself.",
                    where,
                )
            )
            continue
        if md.strip() in body:
            found.append(
                diag(
                    "skill.display_md_dropped",
                    "info",
                    "the body already contains this display_md block verbatim; it is not "
                    "appended again.",
                    where,
                )
            )
            continue
        body = md if not body.strip() else body.rstrip() + "\n\n" + md
        appended.append(i)
    return DisplayPlacement.model_construct(body=body, appended=appended, diagnostics=found)


def place_display_md(
    body: str,
    blocks: Sequence[str | Mapping[str, Any]],
    channel: str,
    *,
    honor_display_only: bool = False,
) -> str:
    """The shown body: each usable ``display_md`` appended on rich channels unless present.

    ``blocks`` are ``display_md`` strings or whole skill results, in call order.
    ``display_only`` is ignored as on the current platform unless ``honor_display_only``.
    """
    return explain_display_md(body, blocks, channel, honor_display_only=honor_display_only).body
