"""A self-contained HTML preview of what replies become (issue 10, item 4).

:func:`preview_html` renders one page for people to look at: each reply's source with every
honoured directive and every diagnostic highlighted (hovering or focusing a highlight shows
its message), beside it the WebChat view (:func:`richout.render_reply`) and the delivery view
(:func:`richout.parse_reply`), and on top a summary (counts by diagnostic code; replies with
rejected references first).

The page is inert by construction, because the replies it shows are untrusted:

- every piece of reply text, reference, id and message goes through :func:`html.escape`
  with ``quote=True`` (attribute values included), after :func:`_visible` has replaced
  control, bidi, zero-width and other invisible characters with a visible ``U+XXXX`` badge,
  so a ``U+202E`` cannot reorder what a reviewer reads;
- nothing is loaded: references and canvas URLs are shown as text, never as ``src``,
  ``href`` or an iframe; the only links are ``#reply-N`` fragments;
- the page has no script at all, and its Content-Security-Policy (a ``<meta>`` tag) is
  ``default-src 'none'`` with the one inline stylesheet allowed by its SHA-256 hash, so even
  an escaping mistake could neither run a script, load an asset nor add a style.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from richout.errors import InvalidInput, require_str
from richout.models import Diagnostic, RenderedReply, Reply, Span
from richout.models.diagnostics import Diagnostics
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


# Characters a reader cannot see or that change how the text around them reads: C0/C1
# controls (but tab and line feed), DEL, soft hyphen, non-ASCII spaces, zero-width and
# bidi controls, line/paragraph separators, invisible operators, BOM, interlinear
# annotation controls, lone surrogates and Unicode tag characters.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u180e"
    "\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\ufff9-\ufffb"
    "\ud800-\udfff\U000e0000-\U000e007f]"
)
_NAMED = {"\r": "CR", "\x00": "NUL", "\x1b": "ESC", "\u202e": "RLO", "\u202d": "LRO"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _esc(s: str) -> str:
    return html.escape(s, quote=True)


def _badge(ch: str) -> str:
    name = _NAMED.get(ch, f"U+{ord(ch):04X}")
    return f'<span class="cc" title="{_esc(f"U+{ord(ch):04X}")}">{_esc(name)}</span>'


def _visible(s: str) -> str:
    """``s`` as HTML text: escaped, invisible and bidi characters shown as badges."""
    out: list[str] = []
    pos = 0
    for m in _INVISIBLE.finditer(s):
        out.append(_esc(s[pos : m.start()]))
        out.append(_badge(m.group()))
        pos = m.end()
    out.append(_esc(s[pos:]))
    return "".join(out)


def _attr(s: str) -> str:
    """``s`` as an attribute value: escaped, invisible characters spelled out."""
    return _esc(_INVISIBLE.sub(lambda m: f"U+{ord(m.group()):04X}", s))


_CSS = """
:root{--fg:#1d2330;--muted:#5c6577;--line:#d8dde6;--bg:#f5f7fa;--card:#fff;
--err:#c62828;--err-bg:#fde2e1;--warn:#a15c00;--warn-bg:#fff0c7;--info:#1f5fae;
--info-bg:#dde9fb;--span:#1b7a3d;--span-bg:#d9f3e1}
*{box-sizing:border-box}
body{margin:0;padding:24px;font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;
color:var(--fg);background:var(--bg)}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:0 0 8px}
h3{font-size:13px;margin:0 0 6px;text-transform:uppercase;letter-spacing:.04em;
color:var(--muted)}
.meta{color:var(--muted);margin:0 0 16px}
.summary,.reply{background:var(--card);border:1px solid var(--line);border-radius:8px;
padding:16px;margin:0 0 16px}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:3px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600}
th.n,td.n{text-align:right;font-variant-numeric:tabular-nums}
code,pre,.mono{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;
font-size:13px}
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:16px}
@media (max-width:900px){.grid{grid-template-columns:minmax(0,1fr)}}
.views{display:grid;gap:12px;align-content:start}
pre.source{margin:0;padding:12px;background:#fbfcfd;border:1px solid var(--line);
border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere;line-height:1.7}
.hl{position:relative;border-radius:3px;padding:1px 0;color:inherit;cursor:help;outline:0}
.hl.span{background:var(--span-bg);box-shadow:inset 0 -2px 0 var(--span)}
.hl.info{background:var(--info-bg);box-shadow:inset 0 -2px 0 var(--info)}
.hl.warning{background:var(--warn-bg);box-shadow:inset 0 -2px 0 var(--warn)}
.hl.error{background:var(--err-bg);box-shadow:inset 0 -2px 0 var(--err)}
.hl.point{padding:0 2px;font-weight:700}
.hl:focus{outline:2px solid var(--fg);outline-offset:1px}
.tip{display:none;position:absolute;left:0;top:100%;z-index:10;margin-top:4px;
width:max-content;max-width:420px;padding:6px 8px;border-radius:6px;background:#1d2330;
color:#fff;font:12px/1.4 system-ui,sans-serif;white-space:normal;box-shadow:0 4px 14px
rgba(0,0,0,.25)}
.tip .cc{background:#3a4356;color:#fff;border-color:#56607a}
.hl:hover>.tip,.hl:focus>.tip{display:block}
.hl:focus>.tip{z-index:11}
.tip-line{display:block}.tip-line+.tip-line{margin-top:4px}
.tip b{font-weight:600}
.cc{display:inline-block;margin:0 1px;padding:0 3px;border:1px solid #b9a3d9;
border-radius:3px;background:#f1e9fb;color:#5b2c99;font:10px/1.4 ui-monospace,monospace;
vertical-align:1px}
.card{border:1px solid var(--line);border-radius:8px;padding:12px;background:#fff}
.bubble{background:#eef2f8;border-radius:12px;padding:10px 12px}
.bubble-text{white-space:pre-wrap;overflow-wrap:anywhere}
.empty{color:var(--muted);font-style:italic}
.pill,.flag,.kind{display:inline-block;border-radius:999px;padding:0 8px;font-size:12px;
margin:0 4px 6px 0}
.pill{background:#e3e9ff;color:#2b3f91;border:1px solid #b8c4f5}
.flag{background:#fff3e0;color:#8a4b00;border:1px solid #f3c98b}
.flag.bad{background:var(--err-bg);color:var(--err);border-color:#f3a9a5}
.kind{background:#eceff4;color:var(--fg);border:1px solid var(--line);margin:0 6px 0 0}
ul.attachments,ul.media{list-style:none;margin:8px 0 0;padding:0}
ul.attachments li,ul.media li{padding:4px 8px;margin:0 0 4px;background:#fff;
border:1px solid var(--line);border-radius:6px;overflow-wrap:anywhere}
.canvas-card{margin-top:8px;border:1px dashed #8a94a8;border-radius:8px;background:#fff;
padding:8px 10px}
.canvas-card .title{font-weight:600}
.canvas-card dl,.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);
gap:2px 10px;margin:6px 0 0}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.verdict-load{color:var(--span)}.verdict-flag{color:var(--info)}.verdict-none{color:var(--err)}
.badges{display:inline}
.count{display:inline-block;border-radius:999px;padding:0 7px;font-size:12px;margin-left:6px;
font-weight:600}
.count.error{background:var(--err-bg);color:var(--err)}
.count.warning{background:var(--warn-bg);color:var(--warn)}
.count.info{background:var(--info-bg);color:var(--info)}
.count.rejected{background:var(--err);color:#fff}
.sev{font-weight:600}.sev.error{color:var(--err)}.sev.warning{color:var(--warn)}
.sev.info{color:var(--info)}
.legend{font-size:12px;color:var(--muted);margin:8px 0 0}
.legend .hl{cursor:default;padding:0 4px}
details.diags{margin-top:10px}details.diags summary{cursor:pointer;color:var(--muted)}
ol.index{margin:8px 0 0;padding-left:20px}
a{color:#2b3f91}
"""

_CSS_HASH = base64.b64encode(hashlib.sha256(_CSS.encode("utf-8")).digest()).decode("ascii")

#: The page's Content-Security-Policy: nothing loads, no script runs, only its own stylesheet.
CSP = (
    f"default-src 'none'; style-src 'sha256-{_CSS_HASH}'; img-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)

_SEVERITY_RANK = {"span": 0, "info": 1, "warning": 2, "error": 3}
_TIP_LINES = 8  # a highlight under many findings lists this many, then counts the rest


@dataclass(frozen=True)
class _Note:
    """One highlighted range of the source: an honoured directive or a diagnostic."""

    start: int
    end: int
    level: str  # "span" or a severity
    head: str  # code or "honoured <kind>"
    message: str
    views: str  # "delivery", "WebChat" or "both views"


@dataclass
class _Previewed:
    """A reply with both views computed."""

    number: int
    item: PreviewItem
    profile: Profile
    view: RenderedReply
    reply: Reply
    notes: list[_Note]
    unplaced: list[tuple[Diagnostic, str]]  # diagnostics without a source range

    @property
    def rejected(self) -> int:
        return self.reply.rejected_media_count


def _merge_views(
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


def _span_notes(delivery: Sequence[Span], webchat: Sequence[Span]) -> list[_Note]:
    seen: dict[tuple[str, int, int, str | None], set[str]] = {}
    for name, spans in (("delivery", delivery), ("WebChat", webchat)):
        for s in spans:
            seen.setdefault((s.kind, s.start, s.end, s.value), set()).add(name)
    notes = []
    for (kind, start, end, value), views in seen.items():
        label = "both views" if len(views) == 2 else next(iter(views))
        message = f"carries {value!r}" if value is not None else "honoured"
        notes.append(_Note(start, end, "span", f"{kind} directive", message, label))
    return notes


def _preview_one(
    number: int, item: PreviewItem, default: Profile, policy: Policy | None
) -> _Previewed:
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
    notes = _span_notes(reply.spans, view.spans)
    unplaced: list[tuple[Diagnostic, str]] = []
    for d, views in _merge_views(reply.diagnostics, view.diagnostics):
        if d.start is None or d.end is None:
            unplaced.append((d, views))
            continue
        start = min(max(d.start, 0), n)
        end = min(max(d.end, start), n)
        notes.append(_Note(start, end, d.severity, d.code, d.message, views))
    return _Previewed(number, item, prof, view, reply, notes, unplaced)


# --------------------------------------------------------------------------- source


def _tip(notes: Sequence[_Note]) -> str:
    lines = []
    ordered = sorted(notes, key=lambda x: -_SEVERITY_RANK[x.level])
    for note in ordered[:_TIP_LINES]:
        sev = "" if note.level == "span" else f"{note.level} "
        lines.append(
            f'<span class="tip-line"><b>{_esc(sev)}{_visible(note.head)}</b> '
            f"({_esc(note.views)}): {_visible(note.message)}</span>"
        )
    if len(notes) > _TIP_LINES:
        lines.append(f'<span class="tip-line">… and {len(notes) - _TIP_LINES} more</span>')
    return f'<span class="tip" role="tooltip">{"".join(lines)}</span>'


def _mark(notes: Sequence[_Note], body: str, extra: str = "") -> str:
    level = max((n.level for n in notes), key=_SEVERITY_RANK.__getitem__)
    codes = " ".join(sorted({n.head for n in notes if n.level != "span"}))
    kinds = " ".join(sorted({n.head.split()[0] for n in notes if n.level == "span"}))
    return (
        f'<mark class="hl {level}{extra}" tabindex="0" data-codes="{_attr(codes)}" '
        f'data-spans="{_attr(kinds)}">{body}{_tip(notes)}</mark>'
    )


def _source_html(text: str, notes: Sequence[_Note]) -> str:
    """The source with each stretch under one or more notes wrapped in one highlight.

    Notes may overlap (a diagnostic over a whole line holding a honoured directive), so the
    text is cut at every note boundary and each piece lists every note covering it.
    Zero-width notes become a caret mark at their position.
    """
    starts: dict[int, list[_Note]] = {}
    ends: dict[int, list[_Note]] = {}
    points: dict[int, list[_Note]] = {}
    for note in notes:
        if note.start == note.end:
            points.setdefault(note.start, []).append(note)
        else:
            starts.setdefault(note.start, []).append(note)
            ends.setdefault(note.end, []).append(note)
    cuts = sorted({0, len(text), *starts, *ends, *points})
    active: dict[int, _Note] = {}
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
        piece = _visible(text[pos : cuts[i + 1]])
        out.append(_mark(list(active.values()), piece) if active else piece)
    return "".join(out)


# --------------------------------------------------------------------------- views


def _or_empty(text: str, empty: str = "(no text)") -> str:
    return (
        f'<div class="bubble-text">{_visible(text)}</div>'
        if text
        else (f'<div class="bubble-text empty">{_esc(empty)}</div>')
    )


def _frame_verdict(url: str) -> tuple[str, str]:
    """How the Control UI treats a preview URL (EMBED.md §11), as (css class, words)."""
    from richout.embed.parse import _url_diagnostics  # the one implementation of §11

    diags = Diagnostics(url)
    _url_diagnostics(diags, url, 0, len(url))
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
        ("url", f'<span class="mono">{_visible(url)}</span>'),
        ("viewId", _visible(str(preview["viewId"])) if "viewId" in preview else None),
        (
            "preferred height",
            f"{int(height)} px" if isinstance(height, int) else '<span class="empty">none</span>',
        ),
        ("className", _visible(str(preview["className"])) if "className" in preview else None),
        ("style", _visible(str(preview["style"])) if "style" in preview else None),
        ("frame", f'<span class="{css}">{_esc(verdict)}</span>'),
    ]
    body = "".join(f"<dt>{_esc(k)}</dt><dd>{v}</dd>" for k, v in rows if v is not None)
    head = _visible(str(title)) if isinstance(title, str) else '<span class="empty">untitled</span>'
    return (
        f'<div class="canvas-card" data-height="{_attr(str(height or ""))}">'
        f'<div class="title">canvas · {head}</div><dl>{body}</dl></div>'
    )


def _attachment(entry: dict[str, Any]) -> str:
    url = str(entry.get("url", ""))
    kind = entry.get("kind")
    source = entry.get("source")
    tags = "".join(
        f'<span class="kind">{_visible(str(v))}</span>'
        for v in (kind, source)
        if isinstance(v, str) and v
    )
    if entry.get("voice") is True:
        tags += '<span class="kind">voice</span>'
    data = f' data-kind="{_attr(kind)}"' if isinstance(kind, str) else ""
    return f'<li class="attachment"{data}>{tags}<span class="mono">{_visible(url)}</span></li>'


def _webchat_html(p: _Previewed) -> str:
    wire = p.view.to_wire()
    parts: list[str] = []
    target = wire.get("replyTarget")
    if isinstance(target, dict):
        if target.get("mode") == "id":
            words = f"replying to message {_visible(str(target.get('id', '')))}"
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


def _delivery_html(p: _Previewed) -> str:
    r = p.reply
    if r.reply_to_id is not None:
        target = f'<span class="mono">{_visible(r.reply_to_id)}</span>'
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
    rows = "".join(f"<dt>{_esc(k)}</dt><dd>{v}</dd>" for k, v in facts)
    return (
        '<div class="card delivery"><h3>Delivery view</h3>'
        f"{_or_empty(r.text)}"
        + (f'<ul class="media">{media}</ul>' if media else "")
        + f'<dl class="facts">{rows}</dl></div>'
    )


def _diag_table(p: _Previewed) -> str:
    rows = []
    merged = _merge_views(p.reply.diagnostics, p.view.diagnostics)
    for d, views in merged:
        where = f"{d.line}:{d.column}" if d.line is not None else (d.field or "—")
        rows.append(
            f'<tr><td class="mono">{_esc(where)}</td>'
            f'<td><span class="sev {_attr(d.severity)}">{_esc(d.severity)}</span></td>'
            f'<td class="mono">{_visible(d.code)}</td><td>{_esc(views)}</td>'
            f"<td>{_visible(d.message)}</td></tr>"
        )
    if not rows:
        return ""
    return (
        f'<details class="diags"><summary>{_plural(len(rows), "diagnostic")}</summary>'
        "<table><thead><tr><th>at</th>"
        "<th>severity</th><th>code</th><th>view</th><th>message</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></details>"
    )


def _severity_counts(p: _Previewed) -> Counter[str]:
    return Counter(n.level for n in p.notes if n.level != "span") + Counter(
        d.severity for d, _ in p.unplaced
    )


def _reply_html(p: _Previewed) -> str:
    label = f" · {_visible(p.item.label)}" if p.item.label else ""
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
        f"<h2>Reply {p.number}{label} · profile {_visible(p.profile.name)}{badges}</h2>"
        '<div class="grid"><div class="source-col"><h3>Source</h3>'
        f'<pre class="source">{_source_html(p.item.text, p.notes)}</pre>'
        f"{_diag_table(p)}</div>"
        f'<div class="views">{_webchat_html(p)}{_delivery_html(p)}</div></div></section>'
    )


def _summary_html(done: Sequence[_Previewed]) -> str:
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
        f'<tr data-code="{_attr(code)}"><td class="mono">{_visible(code)}</td>'
        f'<td><span class="sev {_attr(sev)}">{_esc(sev)}</span></td>'
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
        f"{' · ' + _visible(p.item.label) if p.item.label else ''}</a>"
        + (f' <span class="count rejected">{p.rejected} rejected</span>' if p.rejected else "")
        + "</li>"
        for p in done
    )
    return (
        '<section class="summary" id="summary"><h2>Summary</h2>'
        f'<p class="totals" data-replies="{len(done)}" data-rejected-replies="{len(rejected)}">'
        f"{len(done)} repl{'y' if len(done) == 1 else 'ies'} · {len(rejected)} with rejected "
        f"references ({_plural(total_rejected, 'reference')}) · "
        f"{_plural(sum(by_code.values()), 'diagnostic')}</p>"
        f'{table}<ol class="index">{index}</ol>'
        '<p class="legend">Highlights: <mark class="hl span">honoured directive</mark> '
        '<mark class="hl info">info</mark> <mark class="hl warning">warning</mark> '
        '<mark class="hl error">error</mark> — hover or focus (Tab) one to read it. '
        '<span class="cc">U+202E</span> marks an invisible or bidi character.</p></section>'
    )


def _policy_words(policy: Policy | None) -> str:
    if policy is None:
        return "reference policy"
    narrowed = policy.to_wire()
    if not narrowed:
        return "policy: as the reference"
    shown = json.dumps(narrowed, ensure_ascii=False, sort_keys=True)
    return f'policy <span class="mono policy">{_visible(shown)}</span>'


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
    done: list[_Previewed] = []
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
        f'<meta http-equiv="Content-Security-Policy" content="{_esc(CSP)}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="color-scheme" content="light">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_attr(title)}</title><style>{_CSS}</style></head><body>"
        f"<h1>{_visible(title)}</h1>"
        f'<p class="meta">richout {_esc(__version__)} · profile {_esc(default.name)} · '
        f"{_policy_words(policy)} · "
        "nothing on this page is loaded: references and canvas URLs are shown as text.</p>"
        f"{_summary_html(done)}{''.join(_reply_html(p) for p in done)}</body></html>\n"
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
