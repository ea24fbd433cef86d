"""The sections of the preview page: the summary, and per reply its source and both views.

Each reply is a :class:`Previewed` (both views computed) with its :class:`Note` list, the
highlighted ranges of its source: honoured directives and diagnostics. :func:`reply_html`
writes one reply's section (the source with every note highlighted, its diagnostics table,
the WebChat view and the delivery view) and :func:`summary_html` the summary on top (counts
by diagnostic code; replies with rejected references marked). Every string from a reply goes
through :mod:`richout.gateway.preview_inert`; references and canvas URLs are shown as text
only, never as ``src``, ``href`` or an iframe.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from richout.embed.diagnostics import url_diagnostics
from richout.gateway.preview_inert import attr, esc, plural, visible
from richout.models import Diagnostic, RenderedReply, Reply, Span
from richout.models.diagnostics import Diagnostics
from richout.policy import Policy
from richout.profiles import Profile

__all__ = [
    "Note",
    "Previewed",
    "merge_views",
    "policy_words",
    "reply_html",
    "span_notes",
    "summary_html",
]


_SEVERITY_RANK = {"span": 0, "info": 1, "warning": 2, "error": 3}
_TIP_LINES = 8  # a highlight under many findings lists this many, then counts the rest


@dataclass(frozen=True)
class Note:
    """One highlighted range of the source: an honoured directive or a diagnostic."""

    start: int
    end: int
    level: str  # "span" or a severity
    head: str  # code or "honoured <kind>"
    message: str
    views: str  # "delivery", "WebChat" or "both views"


@dataclass
class Previewed:
    """A reply with both views computed."""

    number: int
    #: the reply as written, and where it came from (:attr:`PreviewItem.label`)
    text: str
    label: str | None
    profile: Profile
    view: RenderedReply
    reply: Reply
    notes: list[Note]
    unplaced: list[tuple[Diagnostic, str]]  # diagnostics without a source range

    @property
    def rejected(self) -> int:
        return self.reply.rejected_media_count


def merge_views(
    delivery: Sequence[Diagnostic], webchat: Sequence[Diagnostic]
) -> list[tuple[Diagnostic, str]]:
    """Both views' diagnostics, each finding once, labelled with the views that report it."""
    seen: dict[tuple[str, int | None, int | None, str], tuple[Diagnostic, set[str]]] = {}
    for name, found in (("delivery", delivery), ("WebChat", webchat)):
        for d in found:
            key = (d.code, d.start, d.end, d.message)
            seen.setdefault(key, (d, set()))[1].add(name)
    out = []
    for d, views in seen.values():
        out.append((d, "both views" if len(views) == 2 else next(iter(views))))
    out.sort(key=lambda t: (t[0].start if t[0].start is not None else -1, t[0].code))
    return out


def span_notes(delivery: Sequence[Span], webchat: Sequence[Span]) -> list[Note]:
    """A note per honoured directive, each once, labelled with the views that honour it."""
    seen: dict[tuple[str, int, int, str | None], set[str]] = {}
    for name, spans in (("delivery", delivery), ("WebChat", webchat)):
        for s in spans:
            seen.setdefault((s.kind, s.start, s.end, s.value), set()).add(name)
    notes = []
    for (kind, start, end, value), views in seen.items():
        label = "both views" if len(views) == 2 else next(iter(views))
        message = f"carries {value!r}" if value is not None else "honoured"
        notes.append(Note(start, end, "span", f"{kind} directive", message, label))
    return notes


# --------------------------------------------------------------------------- source


def _tip(notes: Sequence[Note]) -> str:
    lines = []
    ordered = sorted(notes, key=lambda x: -_SEVERITY_RANK[x.level])
    for note in ordered[:_TIP_LINES]:
        sev = "" if note.level == "span" else f"{note.level} "
        lines.append(
            f'<span class="tip-line"><b>{esc(sev)}{visible(note.head)}</b> '
            f"({esc(note.views)}): {visible(note.message)}</span>"
        )
    if len(notes) > _TIP_LINES:
        lines.append(f'<span class="tip-line">… and {len(notes) - _TIP_LINES} more</span>')
    return f'<span class="tip" role="tooltip">{"".join(lines)}</span>'


def _mark(notes: Sequence[Note], body: str, extra: str = "") -> str:
    level = max((n.level for n in notes), key=_SEVERITY_RANK.__getitem__)
    codes = " ".join(sorted({n.head for n in notes if n.level != "span"}))
    kinds = " ".join(sorted({n.head.split()[0] for n in notes if n.level == "span"}))
    return (
        f'<mark class="hl {level}{extra}" tabindex="0" data-codes="{attr(codes)}" '
        f'data-spans="{attr(kinds)}">{body}{_tip(notes)}</mark>'
    )


def _source_html(text: str, notes: Sequence[Note]) -> str:
    """The source with each stretch under one or more notes wrapped in one highlight.

    Notes may overlap (a diagnostic over a whole line holding a honoured directive), so the
    text is cut at every note boundary and each piece lists every note covering it.
    Zero-width notes become a caret mark at their position.
    """
    starts: dict[int, list[Note]] = {}
    ends: dict[int, list[Note]] = {}
    points: dict[int, list[Note]] = {}
    for note in notes:
        if note.start == note.end:
            points.setdefault(note.start, []).append(note)
        else:
            starts.setdefault(note.start, []).append(note)
            ends.setdefault(note.end, []).append(note)
    cuts = sorted({0, len(text), *starts, *ends, *points})
    active: dict[int, Note] = {}
    out: list[str] = []
    for i, pos in enumerate(cuts):
        for note in ends.get(pos, ()):
            active.pop(id(note), None)
        for note in starts.get(pos, ()):
            active[id(note)] = note
        if pos in points:
            out.append(_mark(points[pos], "‸", " point"))
        if i + 1 == len(cuts):
            break
        piece = visible(text[pos : cuts[i + 1]])
        out.append(_mark(list(active.values()), piece) if active else piece)
    return "".join(out)


# --------------------------------------------------------------------------- views


def _or_empty(text: str, empty: str = "(no text)") -> str:
    return (
        f'<div class="bubble-text">{visible(text)}</div>'
        if text
        else (f'<div class="bubble-text empty">{esc(empty)}</div>')
    )


def _frame_verdict(url: str) -> tuple[str, str]:
    """How the Control UI treats a preview URL (EMBED.md §11), as (css class, words)."""
    diags = Diagnostics(url)
    url_diagnostics(diags, url, 0, len(url))  # the one implementation of §11
    codes = {d.code for d in diags.build()}
    if "embed.unsafe_url" in codes:
        return "verdict-none", "never loaded (unsafe scheme): card without a frame"
    if "embed.external_url" in codes:
        return "verdict-flag", "external: loads only with allowExternalEmbedUrls"
    if "embed.url_not_renderable" in codes:
        return "verdict-none", "not a canvas path: card without a frame"
    return "verdict-load", "canvas path: the Control UI frames it"


def _canvas_card(preview: dict[str, Any]) -> str:
    url = str(preview.get("url", ""))
    height = preview.get("preferredHeight")
    css, verdict = _frame_verdict(url)
    title = preview.get("title")
    rows = [
        ("url", f'<span class="mono">{visible(url)}</span>'),
        ("viewId", visible(str(preview["viewId"])) if "viewId" in preview else None),
        (
            "preferred height",
            f"{int(height)} px" if isinstance(height, int) else '<span class="empty">none</span>',
        ),
        ("className", visible(str(preview["className"])) if "className" in preview else None),
        ("style", visible(str(preview["style"])) if "style" in preview else None),
        ("frame", f'<span class="{css}">{esc(verdict)}</span>'),
    ]
    body = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in rows if v is not None)
    head = visible(str(title)) if isinstance(title, str) else '<span class="empty">untitled</span>'
    return (
        f'<div class="canvas-card" data-height="{attr(str(height or ""))}">'
        f'<div class="title">canvas · {head}</div><dl>{body}</dl></div>'
    )


def _attachment(entry: dict[str, Any]) -> str:
    url = str(entry.get("url", ""))
    kind = entry.get("kind")
    source = entry.get("source")
    tags = "".join(
        f'<span class="kind">{visible(str(v))}</span>'
        for v in (kind, source)
        if isinstance(v, str) and v
    )
    if entry.get("voice") is True:
        tags += '<span class="kind">voice</span>'
    data = f' data-kind="{attr(kind)}"' if isinstance(kind, str) else ""
    return f'<li class="attachment"{data}>{tags}<span class="mono">{visible(url)}</span></li>'


def _webchat_html(p: Previewed) -> str:
    wire = p.view.to_wire()
    parts: list[str] = []
    target = wire.get("replyTarget")
    if isinstance(target, dict):
        if target.get("mode") == "id":
            words = f"replying to message {visible(str(target.get('id', '')))}"
        else:
            words = "replying to the current message"
        parts.append(f'<span class="pill reply-pill">↩ {words}</span>')
    if wire.get("audioAsVoice"):
        parts.append('<span class="flag voice">voice note</span>')
    parts.append(_or_empty(str(wire.get("text", ""))))
    attachments = wire.get("attachments") or []
    if attachments:
        items = "".join(_attachment(a) for a in attachments if isinstance(a, dict))
        parts.append(f'<ul class="attachments">{items}</ul>')
    for block in wire.get("canvas") or []:
        if isinstance(block, dict) and isinstance(block.get("preview"), dict):
            parts.append(_canvas_card(block["preview"]))
    return (
        '<div class="card webchat"><h3>WebChat view</h3>'
        f'<div class="bubble">{"".join(parts)}</div></div>'
    )


def _delivery_html(p: Previewed) -> str:
    r = p.reply
    if r.reply_to_id is not None:
        target = f'<span class="mono">{visible(r.reply_to_id)}</span>'
    elif r.reply_to_current:
        target = '<span class="empty">current message (no id given)</span>'
    else:
        target = '<span class="empty">none</span>'
    # The attachment records (kind, source, voice) where this richout has them.
    facts = getattr(r, "attachments", None)
    if isinstance(facts, list) and facts and all(hasattr(a, "to_wire") for a in facts):
        media = "".join(_attachment(a.to_wire()) for a in facts)
    else:
        media = "".join(_attachment({"url": u}) for u in r.media_urls)
    rejected = (
        f'<span class="flag bad">{r.rejected_media_count}</span>' if r.rejected_media_count else "0"
    )
    facts = [
        ("reply to", target),
        ("voice note", "yes" if r.audio_as_voice else "no"),
        ("silent", "yes" if r.is_silent else "no"),
        ("rejected", rejected),
    ]
    rows = "".join(f"<dt>{esc(k)}</dt><dd>{v}</dd>" for k, v in facts)
    return (
        '<div class="card delivery"><h3>Delivery view</h3>'
        f"{_or_empty(r.text)}"
        + (f'<ul class="media">{media}</ul>' if media else "")
        + f'<dl class="facts">{rows}</dl></div>'
    )


def _diag_table(p: Previewed) -> str:
    rows = []
    merged = merge_views(p.reply.diagnostics, p.view.diagnostics)
    for d, views in merged:
        where = f"{d.line}:{d.column}" if d.line is not None else (d.field or "—")
        rows.append(
            f'<tr><td class="mono">{esc(where)}</td>'
            f'<td><span class="sev {attr(d.severity)}">{esc(d.severity)}</span></td>'
            f'<td class="mono">{visible(d.code)}</td><td>{esc(views)}</td>'
            f"<td>{visible(d.message)}</td></tr>"
        )
    if not rows:
        return ""
    return (
        f'<details class="diags"><summary>{plural(len(rows), "diagnostic")}</summary>'
        "<table><thead><tr><th>at</th>"
        "<th>severity</th><th>code</th><th>view</th><th>message</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></details>"
    )


def _severity_counts(p: Previewed) -> Counter[str]:
    return Counter(n.level for n in p.notes if n.level != "span") + Counter(
        d.severity for d, _ in p.unplaced
    )


def reply_html(p: Previewed) -> str:
    label = f" · {visible(p.label)}" if p.label else ""
    counts = _severity_counts(p)
    badges = "".join(
        f'<span class="count {sev}">{counts[sev]} {sev}</span>'
        for sev in ("error", "warning", "info")
        if counts[sev]
    )
    if p.rejected:
        badges = f'<span class="count rejected">{p.rejected} rejected</span>' + badges
    return (
        f'<section class="reply" id="reply-{p.number}" data-rejected="{p.rejected}">'
        f"<h2>Reply {p.number}{label} · profile {visible(p.profile.name)}{badges}</h2>"
        '<div class="grid"><div class="source-col"><h3>Source</h3>'
        f'<pre class="source">{_source_html(p.text, p.notes)}</pre>'
        f"{_diag_table(p)}</div>"
        f'<div class="views">{_webchat_html(p)}{_delivery_html(p)}</div></div></section>'
    )


def summary_html(done: Sequence[Previewed]) -> str:
    by_code: Counter[tuple[str, str]] = Counter()
    replies_with: Counter[tuple[str, str]] = Counter()
    for p in done:
        found = [(n.head, n.level) for n in p.notes if n.level != "span"]
        found += [(d.code, d.severity) for d, _ in p.unplaced]
        by_code.update(found)
        replies_with.update(set(found))
    rejected = [p for p in done if p.rejected]
    total_rejected = sum(p.rejected for p in rejected)
    rows = "".join(
        f'<tr data-code="{attr(code)}"><td class="mono">{visible(code)}</td>'
        f'<td><span class="sev {attr(sev)}">{esc(sev)}</span></td>'
        f'<td class="n">{count}</td><td class="n">{replies_with[code, sev]}</td></tr>'
        for (code, sev), count in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0]))
    )
    table = (
        '<table class="codes"><thead><tr><th>diagnostic code</th><th>severity</th>'
        f'<th class="n">count</th><th class="n">replies</th></tr></thead><tbody>{rows}'
        "</tbody></table>"
        if rows
        else '<p class="empty">No diagnostics.</p>'
    )
    index = "".join(
        f'<li><a href="#reply-{p.number}">Reply {p.number}'
        f"{' · ' + visible(p.label) if p.label else ''}</a>"
        + (f' <span class="count rejected">{p.rejected} rejected</span>' if p.rejected else "")
        + "</li>"
        for p in done
    )
    return (
        '<section class="summary" id="summary"><h2>Summary</h2>'
        f'<p class="totals" data-replies="{len(done)}" data-rejected-replies="{len(rejected)}">'
        f"{len(done)} repl{'y' if len(done) == 1 else 'ies'} · {len(rejected)} with rejected "
        f"references ({plural(total_rejected, 'reference')}) · "
        f"{plural(sum(by_code.values()), 'diagnostic')}</p>"
        f'{table}<ol class="index">{index}</ol>'
        '<p class="legend">Highlights: <mark class="hl span">honoured directive</mark> '
        '<mark class="hl info">info</mark> <mark class="hl warning">warning</mark> '
        '<mark class="hl error">error</mark> — hover or focus (Tab) one to read it. '
        '<span class="cc">U+202E</span> marks an invisible or bidi character.</p></section>'
    )


def policy_words(policy: Policy | None) -> str:
    if policy is None:
        return "reference policy"
    narrowed = policy.to_wire()
    if not narrowed:
        return "policy: as the reference"
    shown = json.dumps(narrowed, ensure_ascii=False, sort_keys=True)
    return f'policy <span class="mono policy">{visible(shown)}</span>'
