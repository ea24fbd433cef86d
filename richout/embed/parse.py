"""`[embed ...]` shortcodes: find them, turn them into canvas previews (EMBED.md §1-§7, §13).

:func:`extract_embeds` is the entry; :mod:`richout.embed.extract` runs the steps: the
pre-scan (:mod:`richout.embed.scan`) finds the shortcodes outside code, each handled opener
is read (:mod:`richout.embed.attributes`) and turned into a preview
(:mod:`richout.embed.rules`), and shortcodes that made one are removed. When explaining,
:mod:`richout.embed.diagnostics` says what happened to every construct.
"""

from __future__ import annotations

from richout.collector import Pause, pause_needed, paused_call
from richout.embed.extract import extract, removal_patch
from richout.errors import require_bool, require_str
from richout.models import Diagnostic, EmbedResult, Span, explained_call, rerun
from richout.models.diagnostics import Diagnostics
from richout.models.lossless import edit_records
from richout.profiles import DEFAULT_PROFILE, Profile, resolve_profile

__all__ = ["embeds_for_delivery_diagnostics", "extract_embeds"]


def extract_embeds(
    text: str, *, profile: str | Profile = DEFAULT_PROFILE, explain: bool = False
) -> EmbedResult:
    """Turn ``[embed ...]`` shortcodes outside code into canvas previews (EMBED.md §1-§7).

    Every profile reads shortcodes the same way; ``profile`` is checked and accepted so all
    parsing functions take the same arguments.
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    # First, before any other name is bound: locals() is then the call's arguments.
    if isinstance(text, str) and len(text) >= Pause.at and pause_needed():
        return paused_call(extract_embeds, locals())
    require_str(text)
    if profile is not DEFAULT_PROFILE:
        resolve_profile(profile)
    if type(explain) is not bool:
        require_bool(explain, "explain")
    ex = extract(text, explain=explain)
    if not explain:
        # The profile changes nothing in a shortcode's reading (or its explanation).
        # (By position: a partial holding a keyword builds a dict per call.)
        explainer = rerun(explained_call, extract_embeds, (), text)
        return EmbedResult.lazy(explainer, text=ex.text, previews=ex.previews)
    patch = removal_patch(text, ex.removed)
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


def embeds_for_delivery_diagnostics(text: str) -> list[Diagnostic]:
    """``embed.not_rendered_on_delivery`` per shortcode extract_embeds would render (TAGS §7)."""
    require_str(text)
    ex = extract(text, explain=False)
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
