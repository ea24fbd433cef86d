"""What ``extract_embeds`` says about shortcodes: every ``embed.*`` diagnostic (EMBED.md §13).

Findings inside a handled opener (unquoted values, escapes, duplicate and unknown names),
about a preview that was produced (height, URL as the Control UI treats it -- §11 --, document
id), about a removed block body, about shortcodes that overlap, sit in code or never close,
and about the obsolete ``[view ...]`` and ``present_view`` (§10). Outputs never depend on
anything in this module.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping

from richout.embed.attributes import NAME_CHARS, Attribute, Opener
from richout.embed.rules import SURFACE, Outcome, js_number
from richout.embed.scan import CLOSER_LEN, VIEW, Found, OpenerIndex, positions
from richout.markdown.codemap import CodeMap
from richout.models import CanvasPreview
from richout.models.canvas import MAX_HEIGHT, MIN_HEIGHT
from richout.models.diagnostics import Diagnostics
from richout.text.chars import ascii_lower, is_js_ws, js_ltrim, js_trim

__all__ = [
    "Skip",
    "explain_rest",
    "explain_shortcode",
    "legacy_diagnostics",
    "url_diagnostics",
]

#: Attributes §6 reads; every other pair name is reported as unknown.
_KNOWN = frozenset({"target", "url", "ref", "title", "height", "class", "class_name", "style"})
_UNSAFE_SCHEMES = frozenset({"javascript:", "data:", "vbscript:", "file:"})
_RENDERABLE_PREFIXES = ("/__openclaw__/canvas", "/__openclaw__/a2ui")
_DOC_ID = re.compile(r"[A-Za-z0-9._-]+")
_EVENT_HANDLER = re.compile(r"on[a-z]+")
_WORD_CHARS = NAME_CHARS - {"-"}


def _attribute_diagnostics(diags: Diagnostics, opener: Opener, base: int) -> None:
    """Syntax findings inside one handled opener (§13: unquoted, escapes, names)."""
    for a, b in opener.unquoted:
        diags.add(
            "embed.unquoted_attribute",
            "warning",
            'This attribute value has no quotes, so it is ignored; write name="value".',
            base + a,
            base + b,
        )
    last_seen: dict[str, int] = {}
    for idx, attr in enumerate(opener.attributes):
        if attr.value:
            last_seen[attr.name] = idx
    for idx, attr in enumerate(opener.attributes):
        start, end = base + attr.start, base + attr.end
        if attr.raw.endswith("\\"):
            diags.add(
                "embed.escaped_quote",
                "warning",
                "This value ends with a backslash: shortcodes have no escapes, so the value "
                "stops at the first matching quote. Use the other quote style around a value "
                "that contains a quote.",
                start,
                end,
            )
        if attr.value and last_seen.get(attr.name, idx) != idx:
            diags.add(
                "embed.duplicate_attribute",
                "info",
                f"Attribute {attr.name!r} is given again later; the last non-empty value wins.",
                start,
                end,
            )
        if attr.name not in _KNOWN:
            if _EVENT_HANDLER.fullmatch(attr.name):
                diags.add(
                    "embed.unknown_attribute",
                    "warning",
                    f"Event-handler attribute {attr.name!r} is ignored; embeds never run "
                    "inline script. Remove it.",
                    start,
                    end,
                )
            else:
                diags.add(
                    "embed.unknown_attribute",
                    "info",
                    f"Attribute {attr.name!r} is not read (known: ref, url, title, height, "
                    "target, class, class_name, style); it has no effect.",
                    start,
                    end,
                )


def _height_diagnostics(diags: Diagnostics, attr: Attribute, base: int) -> None:
    start, end = base + attr.start, base + attr.end
    number = js_number(attr.value)
    if not math.isfinite(number) or number < MIN_HEIGHT:
        diags.add(
            "embed.height_ignored",
            "warning",
            f"height={attr.value!r} is not a finite number of at least {MIN_HEIGHT}, so the "
            'preview has no preferred height; write a plain number such as height="320".',
            start,
            end,
        )
        return
    whole = math.trunc(number)
    if whole > MAX_HEIGHT:
        diags.add(
            "embed.height_clamped",
            "warning",
            f"height={attr.value!r} is above {MAX_HEIGHT}; it is stored as {MAX_HEIGHT}.",
            start,
            end,
        )
    elif whole != number:
        diags.add(
            "embed.height_truncated",
            "info",
            f"height={attr.value!r} is fractional; it is stored as {whole}.",
            start,
            end,
        )


def url_diagnostics(diags: Diagnostics, url: str, start: int, end: int) -> None:
    """§11: how the Control UI will treat the preview URL (resolved against localhost)."""
    protocol: str | None = None
    origin: str | None = None
    pathname: str | None = None
    # Browsers parse a USVString: lone surrogates become U+FFFD before the URL parser runs.
    usv = url.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    from ada_url import URL

    try:
        parsed = URL(usv, base="http://localhost")
        protocol, origin, pathname = parsed.protocol, parsed.origin, parsed.pathname
    except ValueError:
        pass  # not a URL at all: the card gets no frame
    if protocol in _UNSAFE_SCHEMES:
        diags.add(
            "embed.unsafe_url",
            "error",
            f"The preview URL uses the {protocol} scheme, which the Control UI never loads; "
            'the card shows without a frame. Use a canvas document (ref="...") or an '
            "http(s) URL.",
            start,
            end,
        )
        return
    if origin == "http://localhost" and pathname is not None:
        if any(pathname == p or pathname.startswith(p + "/") for p in _RENDERABLE_PREFIXES):
            return
    elif protocol in ("http:", "https:"):
        diags.add(
            "embed.external_url",
            "info",
            "The preview URL is an absolute external http(s) URL; the Control UI loads it "
            "only when gateway.controlUi.allowExternalEmbedUrls is true.",
            start,
            end,
        )
        return
    diags.add(
        "embed.url_not_renderable",
        "warning",
        "The preview URL is neither under /__openclaw__/canvas or /__openclaw__/a2ui nor an "
        "absolute http(s) URL, so the Control UI shows the card without a frame.",
        start,
        end,
    )


def _preview_diagnostics(
    diags: Diagnostics, final: Mapping[str, Attribute], preview: CanvasPreview, base: int
) -> None:
    """Findings about a preview that was produced (heights, URL, document id)."""
    height = final.get("height")
    if height is not None:
        _height_diagnostics(diags, height, base)
    url_attr = final.get("url")
    if url_attr is not None:
        url_diagnostics(diags, preview.url, base + url_attr.start, base + url_attr.end)
    else:
        ref = final["ref"]
        if not _DOC_ID.fullmatch(ref.value):
            diags.add(
                "embed.ref_not_document_id",
                "warning",
                f"ref={ref.value!r} is not a canvas document id (letters, digits, '.', '_', "
                "'-'), so the server will not find such a document.",
                base + ref.start,
                base + ref.end,
            )


def _body_diagnostics(diags: Diagnostics, text: str, found: Found) -> None:
    body_start = found.close + 1
    body_end = found.end - CLOSER_LEN
    body = text[body_start:body_end]
    if not js_trim(body):
        return
    diags.add(
        "embed.body_discarded",
        "info",
        "The text between ] and [/embed] was removed with the shortcode; put visible text "
        "outside the block or use the self-closing form [embed ... /].",
        body_start,
        body_end,
    )
    has_tag = False
    k = body.find("[[")
    if k >= 0 and body.find("]]", k + 2) >= 0:
        has_tag = True
    has_media = any(ascii_lower(js_ltrim(line)[:6]) == "media:" for line in body.split("\n")[1:])
    if has_tag or has_media:
        diags.add(
            "embed.directive_in_body",
            "warning",
            "The removed block body contained a [[...]] tag or a MEDIA: line, which is "
            "discarded with it; move directives outside the shortcode.",
            body_start,
            body_end,
        )


def legacy_diagnostics(diags: Diagnostics, text: str, index: OpenerIndex, skip: Skip) -> None:
    """``[view ...]`` and ``present_view`` are obsolete (§10); say so where they appear."""
    n = len(text)
    for m in VIEW.finditer(text):
        i = m.start()
        nxt = text[i + 5] if i + 5 < n else ""
        if not (nxt == "]" or (nxt and is_js_ws(nxt))) or skip.hidden(i):
            continue
        line_end = index.line_end(i)
        close = index.next_bracket(i)
        end = close + 1 if 0 <= close < line_end else line_end
        diags.add(
            "embed.legacy_view",
            "warning",
            '[view ...] is obsolete and stays as literal text; use [embed ref="..." /] instead.',
            i,
            end,
        )
    for i in positions(text, "present_view"):
        end = i + len("present_view")
        if (i > 0 and text[i - 1] in _WORD_CHARS) or (end < n and text[end] in _WORD_CHARS):
            continue
        if skip.hidden(i):
            continue
        diags.add(
            "embed.present_view",
            "info",
            'present_view is not recognised; to show a canvas document write [embed ref="..." /].',
            i,
            end,
        )


class Skip:
    """Positions a diagnostic should not talk about: in code, or inside removed text."""

    __slots__ = ("_codes", "_ends", "_starts")

    def __init__(self, codes: CodeMap, removed: list[tuple[int, int]]) -> None:
        self._codes = codes
        self._starts = [a for a, _ in removed]
        self._ends = [b for _, b in removed]

    def inside(self, pos: int) -> bool:
        """Is ``pos`` strictly inside one of the spans (after its start)?"""
        k = bisect.bisect_left(self._starts, pos) - 1
        return k >= 0 and pos < self._ends[k]

    def hidden(self, pos: int) -> bool:
        """In code, or inside a handled shortcode."""
        return self.inside(pos) or self._codes.in_code(pos)


def explain_shortcode(
    diags: Diagnostics,
    text: str,
    *,
    found: Found,
    opener: Opener,
    final: Mapping[str, Attribute],
    outcome: Outcome,
) -> None:
    base = found.start
    _attribute_diagnostics(diags, opener, base)
    target = final.get("target")
    if target is not None and target.value != SURFACE:
        diags.add(
            "embed.bad_target",
            "error",
            f"target={target.value!r} is not assistant_message (case-sensitive), so the "
            'shortcode stays as text; drop target or write target="assistant_message".',
            base + target.start,
            base + target.end,
        )
    if "ref" not in final and "url" not in final:
        diags.add(
            "embed.missing_source",
            "error",
            "This shortcode has neither ref nor url, so it renders nothing and stays as text "
            '(inline HTML bodies are not rendered); add ref="<document id>" or url="...".',
            found.start,
            found.end,
        )
    if outcome.bad_ref:
        ref = final["ref"]
        diags.add(
            "embed.bad_ref",
            "error",
            "ref contains a lone UTF-16 surrogate, which cannot be put in a URL; the "
            "shortcode stays as text. Fix the document id.",
            base + ref.start,
            base + ref.end,
        )
    if outcome.preview is not None:
        _preview_diagnostics(diags, final, outcome.preview, base)
        if found.block:
            _body_diagnostics(diags, text, found)


def explain_rest(
    diags: Diagnostics,
    text: str,
    *,
    index: OpenerIndex,
    codes: CodeMap,
    skip: Skip,
    handled: list[Found],
    ignored: list[Found],
    in_code: list[Found],
    removed: list[Found],
) -> None:
    """Overlaps, shortcodes in code, and openers that start nothing."""
    handled_starts = [f.start for f in handled]
    removed_starts = {f.start for f in removed}
    for found in ignored:
        # Sorted by start and ignored only when it starts before the cursor: the enclosing
        # shortcode is the last handled one starting before it.
        outer = handled[bisect.bisect_left(handled_starts, found.start) - 1]
        fate = (
            "removed with that block's body"
            if outer.start in removed_starts
            else "kept as text inside it"
        )
        diags.add(
            "embed.overlap_ignored",
            "warning",
            f"This shortcode starts inside an earlier one and is ignored ({fate}); put "
            "shortcodes one after another, not inside a block.",
            found.start,
            found.end,
        )
    for found in in_code:
        if skip.inside(found.start):
            continue
        diags.add(
            "embed.in_code",
            "info",
            "This shortcode is inside code, so it is shown as literal text; move it out of "
            "the code span or block to render it.",
            found.start,
            found.end,
        )
    starts = set(handled_starts) | {f.start for f in ignored}
    code_starts = [f.start for f in in_code]
    for s in index.openers:
        if s in starts or skip.inside(s) or codes.in_code(s):
            continue
        k = bisect.bisect_left(code_starts, s) - 1
        swallowed = k >= 0 and in_code[k].end > s
        diags.add(
            "embed.unmatched",
            "warning",
            _unmatched_reason(index, s, swallowed),
            s,
            index.line_end(s),
        )


def _unmatched_reason(index: OpenerIndex, s: int, swallowed: bool) -> str:
    if swallowed:
        return (
            "This [embed opener lies inside a shortcode that starts in code, which hides it, "
            "so it stays as text; close the code span before it or move the example."
        )
    r = index.next_bracket(s + 7)
    if r < 0:
        return "This [embed opener has no closing ], so it stays as text; end it with /] or ]."
    if index.odd_quotes(s + 7, r):
        return (
            "A ] inside a quoted value ends this [embed opener early, so it stays as text; "
            "shortcode values cannot contain ]."
        )
    return (
        "This block [embed ...] has no [/embed] after it, so it stays as text; close it with "
        "[/embed] or use the self-closing form [embed ... /]."
    )
