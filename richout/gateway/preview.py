"""A self-contained HTML preview of what replies become (issue 10, item 4).

:func:`preview_html` renders one page for people to look at: each reply's source with every
honoured directive and every diagnostic highlighted (hovering or focusing a highlight shows
its message), beside it the WebChat view (:func:`richout.render_reply`) and the delivery view
(:func:`richout.parse_reply`), and on top a summary (counts by diagnostic code; replies with
rejected references first).

The page is inert by construction, because the replies it shows are untrusted:

- every piece of reply text, reference, id and message goes through :func:`html.escape`
  with ``quote=True`` (attribute values included), after
  :func:`~richout.gateway.preview_inert.visible` has replaced
  control, bidi, zero-width and other invisible characters with a visible ``U+XXXX`` badge,
  so a ``U+202E`` cannot reorder what a reviewer reads;
- nothing is loaded: references and canvas URLs are shown as text, never as ``src``,
  ``href`` or an iframe; the only links are ``#reply-N`` fragments;
- the page has no script at all, and its Content-Security-Policy (a ``<meta>`` tag) is
  ``default-src 'none'`` with the one inline stylesheet allowed by its SHA-256 hash, so even
  an escaping mistake could neither run a script, load an asset nor add a style.

This module reads the replies (:class:`PreviewItem`, :func:`read_jsonl`), computes both views
of each and assembles the page; :mod:`richout.gateway.preview_sections` writes its sections
and :mod:`richout.gateway.preview_inert` holds the escaping and the stylesheet.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from richout.errors import InvalidInput, require_str
from richout.gateway.preview_inert import CSS, CSS_HASH, attr, esc, visible
from richout.gateway.preview_sections import (
    Note,
    Previewed,
    merge_views,
    policy_words,
    reply_html,
    span_notes,
    summary_html,
)
from richout.models import Diagnostic
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.views.render import render_reply
from richout.views.reply import parse_reply

__all__ = ["CSP", "PreviewItem", "preview_html", "read_jsonl"]


@dataclass(frozen=True)
class PreviewItem:
    """One reply to preview, with the options it is parsed with."""

    #: the reply as the assistant wrote it
    text: str
    #: the id ``[[reply_to_current]]`` resolves to in the delivery view
    current_message_id: str | None = None
    #: the profile for this reply (``None``: the page's profile)
    profile: str | Profile | None = None
    #: where the reply came from, shown in its heading (``"line 3"``)
    label: str | None = None


#: The page's Content-Security-Policy: nothing loads, no script runs, only its own stylesheet.
CSP = (
    f"default-src 'none'; style-src 'sha256-{CSS_HASH}'; img-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)


def _preview_one(
    number: int, item: PreviewItem, default: Profile, policy: Policy | None
) -> Previewed:
    """Both views of one reply, and the notes that highlight its source."""
    require_str(item.text, f"reply {number} text")
    require_str(item.current_message_id, "current_message_id", optional=True)
    prof = default if item.profile is None else resolve_profile(item.profile)
    view = render_reply(item.text, profile=prof, explain=True, policy=policy)
    reply = parse_reply(
        item.text,
        current_message_id=item.current_message_id,
        profile=prof,
        explain=True,
        policy=policy,
    )
    n = len(item.text)
    notes = span_notes(reply.spans, view.spans)
    unplaced: list[tuple[Diagnostic, str]] = []
    for d, views in merge_views(reply.diagnostics, view.diagnostics):
        if d.start is None or d.end is None:
            unplaced.append((d, views))
            continue
        start = min(max(d.start, 0), n)
        end = min(max(d.end, start), n)
        notes.append(Note(start, end, d.severity, d.code, d.message, views))
    return Previewed(number, item.text, item.label, prof, view, reply, notes, unplaced)


# --------------------------------------------------------------------------- public


def preview_html(
    texts: Iterable[str | PreviewItem],
    *,
    profile: str | Profile = DEFAULT_PROFILE,
    current_message_id: str | None = None,
    policy: Policy | None = None,
    title: str = "richout preview",
) -> str:
    """One self-contained, script-free HTML page previewing each reply (module docstring).

    ``texts`` are reply strings or :class:`PreviewItem` records (their own
    ``current_message_id`` and ``profile`` win over the arguments); ``policy`` narrows
    what both views accept, as in :func:`richout.parse_reply`. Replies with rejected
    references come first, in input order, then the rest. Raises
    :class:`~richout.errors.InvalidInput` for a non-string reply and
    :class:`~richout.errors.InvalidOptions` for an unknown profile.
    """
    default = resolve_profile(profile)
    require_str(current_message_id, "current_message_id", optional=True)
    require_str(title, "title")
    done: list[Previewed] = []
    for number, entry in enumerate(texts, 1):
        if isinstance(entry, PreviewItem):
            item = entry
            if item.current_message_id is None and current_message_id is not None:
                item = PreviewItem(item.text, current_message_id, item.profile, item.label)
        else:
            require_str(entry, f"reply {number}")
            item = PreviewItem(entry, current_message_id)
        done.append(_preview_one(number, item, default, policy))
    done.sort(key=lambda p: (p.rejected == 0, p.number))
    from richout.version import __version__

    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{esc(CSP)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="color-scheme" content="light">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{attr(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{visible(title)}</h1>"
        f'<p class="meta">richout {esc(__version__)} · profile {esc(default.name)} · '
        f"{policy_words(policy)} · "
        "nothing on this page is loaded: references and canvas URLs are shown as text.</p>"
        f"{summary_html(done)}{''.join(reply_html(p) for p in done)}</body></html>\n"
    )


def read_jsonl(text: str) -> list[PreviewItem]:
    """Replies from JSON Lines for ``richout preview --jsonl`` (one reply per line).

    A line is a JSON string (the reply) or an object with ``text`` and optional
    ``currentMessageId`` and ``profile``; blank lines are skipped. Raises
    :class:`~richout.errors.InvalidInput` naming the line that does not fit.
    """
    require_str(text)
    items: list[PreviewItem] = []
    # Only "\n" ends a line: JSON strings may hold U+2028 and other separators unescaped.
    for lineno, raw in enumerate(text.split("\n"), 1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"line {lineno}: not JSON ({exc.msg})") from exc
        label = f"line {lineno}"
        if isinstance(value, str):
            items.append(PreviewItem(value, label=label))
            continue
        if not isinstance(value, dict) or not isinstance(value.get("text"), str):
            raise InvalidInput(
                f"line {lineno}: expected a JSON string or an object with a string "
                '"text" (and optional "currentMessageId", "profile")'
            )
        unknown = sorted(set(value) - {"text", "currentMessageId", "profile"})
        if unknown:
            raise InvalidInput(f"line {lineno}: unknown keys {', '.join(map(repr, unknown))}")
        cmid, prof = value.get("currentMessageId"), value.get("profile")
        if cmid is not None and not isinstance(cmid, str):
            raise InvalidInput(f'line {lineno}: "currentMessageId" must be a string')
        if prof is not None:
            if not isinstance(prof, str):
                raise InvalidInput(f'line {lineno}: "profile" must be a string')
            try:
                resolve_profile(prof)
            except InvalidInput as exc:
                raise InvalidInput(f"line {lineno}: {exc}") from exc
        items.append(PreviewItem(value["text"], cmid, prof, label))
    return items
