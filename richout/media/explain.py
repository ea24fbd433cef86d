"""Why a ``MEDIA:`` directive or Markdown image was ignored, rejected or altered (MEDIA.md §17).

The entry points of the media diagnostics: :func:`fast_path` for a reply the split did not
walk, :func:`explain` for one it walked (it runs the §17.1 line checks of
:mod:`~richout.media.explain_lines`, the §17.2-§17.3 directive checks of
:mod:`~richout.media.explain_directives` and the §17.4-§17.5 structure and image checks of
:mod:`~richout.media.explain_structure`, then reports what the gateway's policy refused), and
:func:`audio_left` for audio tags left in the text by request (TAGS.md §10).

Runs after :func:`richout.split_media` has computed its outputs and only reads them, so
diagnostics can never change ``text``, ``mediaUrls``, ``audioAsVoice`` or ``segments``.
Every check is gated on a cheap substring test so replies without the construct it explains
pay nothing; the CommonMark views it needs (code spans, HTML blocks, containers) are asked
for only when a honoured directive exists and the text holds something that could open them.
"""

from __future__ import annotations

from collections.abc import Callable

from richout.markdown.codemap import CodeMap
from richout.media.explain_directives import directive_checks
from richout.media.explain_lines import line_checks
from richout.media.explain_structure import images, structure
from richout.media.lines import Walk
from richout.media.payload import Judge
from richout.models import Diagnostic, Span
from richout.models.diagnostics import Diagnostics
from richout.profiles import Profile
from richout.tags.parse import parse_directives
from richout.text.patch import OffsetMap, end_in_input

__all__ = ["audio_left", "explain", "fast_path"]


def fast_path(
    text: str, raw: str, low: str, media_on: bool, images_on: bool, *, profile: Profile
) -> list[Diagnostic]:
    """Diagnostics for a reply that took the §3 step 2 fast path (usually none)."""
    if "media" not in low and not ("&" in raw and ";" in raw):
        return []
    diag = Diagnostics(text)
    box: list[CodeMap] = []

    def cmap() -> CodeMap:
        if not box:
            box.append(CodeMap(raw))
        return box[0]

    line_checks(
        diag, judge=Judge(profile), raw=raw, low=low, cmap=cmap, handled=set(), media_on=media_on
    )
    return diag.build()


def explain(
    diag: Diagnostics,
    walk: Walk,
    *,
    raw: str,
    low: str,
    cmap: Callable[[], CodeMap],
    media_on: bool,
    allowlist: dict[str, str] | None,
    audio_spans: list[Span],
) -> None:
    """Add every §17 diagnostic for a reply that went through the line walk, then one
    error per reference the gateway's policy refused."""
    handled: set[int] = set()
    for ls, le in walk.code_lines:
        handled.add(ls)
        diag.add(
            "media.in_code_block",
            "info",
            "this MEDIA: line is inside a code block and is shown as code, not attached; "
            "move it outside the block to attach it",
            ls,
            le,
        )
    for ls, le in walk.empty_lines:
        handled.add(ls)
        diag.add(
            "media.empty_payload",
            "warning",
            "MEDIA: has nothing after it; write MEDIA:<path or https URL>; it stays visible "
            "as text",
            ls,
            le,
        )
    for d in walk.directives:
        handled.add(d.start)
        directive_checks(diag, d, raw, walk.judge)
    if walk.findings:
        diag.extend_records(walk.findings)
    unexplained = any(ls not in handled for ls in walk.media_lines)
    if (
        unexplained
        or not media_on
        or low.count("media") != low.count("media:")
        or ("&" in raw and ";" in raw)
    ):
        line_checks(
            diag,
            judge=walk.judge,
            raw=raw,
            low=low,
            cmap=cmap,
            handled=handled,
            media_on=media_on,
        )
    structure(diag, walk, raw, cmap)
    if walk.image_lines or walk.skipped_images or walk.long_image_lines:
        images(diag, walk, allowlist)
    for s in audio_spans:
        diag.add(
            "media.segment_tag_text",
            "info",
            "this [[audio_as_voice]] tag was removed from text but still appears in a text "
            "segment (segments are not tag-processed); put the tag on its own line",
            s.start,
            s.end,
        )
    if walk.judge.policy is not None:
        _narrowed(diag, walk)


def audio_left(diag: Diagnostics, visible: str, to_input: OffsetMap) -> None:
    """TAGS.md §10 ``tag.audio_not_extracted``: audio tags left as text by request."""
    kept = parse_directives(visible, strip_audio_tag=False, strip_reply_tags=False, explain=True)
    for sp in kept.spans:
        if sp.kind == "audio_tag":
            start = to_input(sp.start)
            diag.add(
                "tag.audio_not_extracted",
                "info",
                "[[audio_as_voice]] stays in the text because audio directives were not "
                "extracted (extract_audio_directives=False); enable it to send a voice note",
                start,
                end_in_input(to_input, sp.start, sp.end),
            )


def _narrowed(diag: Diagnostics, walk: Walk) -> None:
    """One ``media.policy.<rule>`` error per reference the gateway's policy refused."""
    hide = walk.judge.profile.hide_rejected
    for d in walk.directives:
        for item, verdict in d.narrowed:
            if hide:
                tail = (
                    "the reference was removed from the text and counted in "
                    "rejected_media_count, as the profile does with any refused reference"
                )
            elif d.outcome == "accepted":
                tail = "the reference stays visible as text next to the accepted one"
            elif d.outcome == "removed":
                tail = (
                    "the directive was removed from the text because it looks like a local "
                    "path, as the profile does with any refused reference"
                )
            else:
                tail = (
                    "the directive stayed visible as text, as the profile does with any "
                    "refused reference"
                )
            start = d.payload + item.start
            end = max(d.payload + item.end, start + 1)
            diag.add(
                verdict.code or "media.policy", "error", f"{verdict.reason}; {tail}", start, end
            )
    for line in walk.image_lines:
        for im, verdict in line.narrowed:
            diag.add(
                verdict.code or "media.policy",
                "error",
                f"{verdict.reason}; the Markdown image was not lifted and stays in the text",
                im.start,
                im.end,
            )
