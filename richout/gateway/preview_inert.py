"""What keeps the preview page inert: escaping every untrusted string, and its one stylesheet.

Every piece of reply text, reference, id and message on the page goes through :func:`visible`
(HTML text) or :func:`attr` (attribute values): :func:`html.escape` with ``quote=True``, after
control, bidi, zero-width and other invisible characters have become a visible ``U+XXXX``
badge, so a ``U+202E`` cannot reorder what a reviewer reads. :data:`CSS` is the page's only
style; the page's Content-Security-Policy (:data:`richout.gateway.preview.CSP`) allows it by
its hash, :data:`CSS_HASH`, alone.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re

__all__ = ["CSS", "CSS_HASH", "attr", "esc", "plural", "visible"]


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


def plural(n: int, word: str) -> str:
    """``"1 word"``, ``"2 words"``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def esc(s: str) -> str:
    """``s`` escaped for HTML text and attribute values alike."""
    return html.escape(s, quote=True)


def _badge(ch: str) -> str:
    name = _NAMED.get(ch, f"U+{ord(ch):04X}")
    return f'<span class="cc" title="{esc(f"U+{ord(ch):04X}")}">{esc(name)}</span>'


def visible(s: str) -> str:
    """``s`` as HTML text: escaped, invisible and bidi characters shown as badges."""
    out: list[str] = []
    pos = 0
    for m in _INVISIBLE.finditer(s):
        out.append(esc(s[pos : m.start()]))
        out.append(_badge(m.group()))
        pos = m.end()
    out.append(esc(s[pos:]))
    return "".join(out)


def attr(s: str) -> str:
    """``s`` as an attribute value: escaped, invisible characters spelled out."""
    return esc(_INVISIBLE.sub(lambda m: f"U+{ord(m.group()):04X}", s))


CSS = """
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

#: SHA-256 of :data:`CSS`, base64: the one style the page's CSP allows.
CSS_HASH = base64.b64encode(hashlib.sha256(CSS.encode("utf-8")).digest()).decode("ascii")
