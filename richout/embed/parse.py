"""`[embed ...]` shortcodes: find them, turn them into canvas previews (EMBED.md §1-§7, §13).

:func:`extract_embeds` is the entry: the pre-scan (:mod:`richout.embed.scan`) finds the
shortcodes outside code, each handled opener is read (:mod:`richout.embed.attributes`) and
turned into a preview (:mod:`richout.embed.rules`), and shortcodes that made one are removed.
When explaining, :mod:`richout.embed.diagnostics` says what happened to every construct.
"""

from __future__ import annotations

from dataclasses import dataclass

from richout.collector import pauses_collector
from richout.embed.attributes import final_attributes, parse_opener
from richout.embed.diagnostics import Skip, explain_rest, explain_shortcode, legacy_diagnostics
from richout.embed.rules import preview
from richout.embed.scan import OPENER, VIEW, Found, OpenerIndex
from richout.errors import require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.models import CanvasPreview, Diagnostic, EmbedResult, Span, rerun
from richout.models.diagnostics import Diagnostics
from richout.models.lossless import edit_records
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile
from richout.text.patch import Edit

__all__ = ["embeds_for_delivery_diagnostics", "extract_embeds"]


@dataclass
class _Extraction:
    text: str
    previews: list[CanvasPreview]
    removed: list[Found]
    diagnostics: Diagnostics


def _extract(text: str, *, explain: bool) -> _Extraction:
    diags = Diagnostics(text)
    bracket = "[" in text
    # Whitespace-only text (§1) holds no opener, so one search covers the whole fast path.
    if not bracket or OPENER.search(text) is None:
        if explain and ((bracket and VIEW.search(text)) or "present_view" in text):
            legacy_diagnostics(diags, text, OpenerIndex(text), Skip(CodeMap(text), []))
        return _Extraction(text, [], [], diags)
    index = OpenerIndex(text)
    codes = CodeMap(text)
    surviving: list[Found] = []
    in_code: list[Found] = []
    for found in sorted(index.scan(True) + index.scan(False), key=lambda f: (f.start, not f.block)):
        (in_code if codes.in_code(found.start) else surviving).append(found)

    previews: list[CanvasPreview] = []
    removed: list[Found] = []
    handled: list[Found] = []
    ignored: list[Found] = []
    cursor = 0
    for found in surviving:
        if found.start < cursor:
            ignored.append(found)
            continue
        handled.append(found)
        cursor = found.end
        opener = parse_opener(text[found.start : found.close + 1])
        final = final_attributes(opener)
        outcome = preview(final)
        if outcome.preview is not None:
            previews.append(outcome.preview)
            removed.append(found)
        if explain:
            explain_shortcode(diags, text, found=found, opener=opener, final=final, outcome=outcome)

    if explain:
        skip = Skip(codes, [(f.start, f.end) for f in handled])
        explain_rest(
            diags,
            text,
            index=index,
            codes=codes,
            skip=skip,
            handled=handled,
            ignored=ignored,
            in_code=in_code,
            removed=removed,
        )
        removed_skip = Skip(codes, [(f.start, f.end) for f in removed])
        legacy_diagnostics(diags, text, index, removed_skip)

    if not removed:
        return _Extraction(text, [], [], diags)
    out: list[str] = []
    cur = 0
    for found in removed:
        out.append(text[cur : found.start])
        cur = found.end
    out.append(text[cur:])
    return _Extraction("".join(out), previews, removed, diags)


@pauses_collector
def extract_embeds(
    text: str, *, profile: str | Profile = DEFAULT_PROFILE, explain: bool = False
) -> EmbedResult:
    """Turn ``[embed ...]`` shortcodes outside code into canvas previews (EMBED.md §1-§7).

    Every profile reads shortcodes the same way; ``profile`` is checked and accepted so all
    parsing functions take the same arguments.
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    require_str(text)
    if profile is not DEFAULT_PROFILE:
        resolve_profile(profile)
    if type(explain) is not bool:
        require_bool(explain, "explain")
    ex = _extract(text, explain=explain)
    if not explain:
        # The profile changes nothing in a shortcode's reading (or its explanation).
        explainer = rerun(extract_embeds, text, explain=True)
        return EmbedResult.lazy(explainer, text=ex.text, previews=ex.previews)
    patch = _removal_patch(text, ex.removed)
    spans = [
        Span.trusted(kind="embed", start=f.start, end=f.end, value=p.view_id or p.url)
        for f, p in zip(ex.removed, ex.previews, strict=True)
    ]
    return EmbedResult.explained(
        text=ex.text,
        previews=ex.previews,
        diagnostics=ex.diagnostics.build(),
        spans=spans,
        edits=edit_records(patch),
    )


def _removal_patch(text: str, removed: list[Found]) -> list[Edit]:
    """One edit per run of touching removed shortcodes (built in one slice, never by +=)."""
    patch: list[Edit] = []
    i, n = 0, len(removed)
    while i < n:
        start = removed[i].start
        end = removed[i].end
        i += 1
        while i < n and removed[i].start == end:
            end = removed[i].end
            i += 1
        patch.append(Edit(start, end, text[start:end], ""))
    return patch


def embeds_for_delivery_diagnostics(text: str) -> list[Diagnostic]:
    """``embed.not_rendered_on_delivery`` per shortcode extract_embeds would render (TAGS §7)."""
    require_str(text)
    ex = _extract(text, explain=False)
    diags = Diagnostics(text)
    for found in ex.removed:
        diags.add(
            "embed.not_rendered_on_delivery",
            "info",
            "This [embed ...] shortcode renders only in WebChat / the Control UI; on this "
            "channel it is delivered as literal text.",
            found.start,
            found.end,
        )
    return diags.build()
