"""The delivery view (TAGS.md §7): what a gateway sends on a non-web channel.

:func:`parse_reply` chains four stages over the reply, each recording a patch over its own
input so the composed patch rebuilds the reply exactly (README decision 3):

1. :func:`richout.media.split_media` lifts ``MEDIA:`` lines (and, when asked, Markdown images)
   and the ``[[audio_as_voice]]`` tag;
2. :func:`richout.tags.parse_directives` reads and removes reply tags, when the text still has
   a ``[[``;
3. :func:`delivery_strip` removes what must never reach a channel: a malformed reply prefix at
   the very start of the message, and any complete tag a code-structure change left behind;
4. the silent rules (:mod:`richout.silent`) may empty the text.

Accepted ``file:`` URLs are then converted to local paths (§7.2). ``[embed …]`` shortcodes stay
as text on this surface and are only explained. Replies without ``[[``, ``media:`` or the
silent token pass every stage with one substring test each.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from richout.embed.parse import embeds_for_delivery_diagnostics
from richout.errors import require_bool, require_str
from richout.markdown.codemap import CodeMap
from richout.media.split import has_media_token, split_for_views
from richout.models import Diagnostic, EditRecord, Reply, Span, SpanKind, rerun
from richout.models.diagnostics import Diagnostics
from richout.models.lossless import edit_records
from richout.policy import Policy
from richout.policy.fileurl import file_url_to_path
from richout.profiles import DEFAULT_PROFILE, NEXT, Profile, resolve_profile
from richout.tags.parse import ReplyTagReader, TagMatch, parse_directives, read_audio_tag
from richout.tags.scan import REPLY_HEAD, ws_end
from richout.tags.silent import DEFAULT_TOKEN, SilentRule, may_contain_token, silent_rule
from richout.text.chars import is_js_ws, js_ltrim, js_rtrim
from richout.text.patch import Edit, Patch, apply, compose, offset_mapper, patch_from_pieces
from richout.views.release import release_reply

__all__ = ["delivery_strip", "file_url_to_path", "parse_reply"]

# Reply-tag findings that split_media's own tag pass cannot get right for the delivery view:
# it runs without the current message id and leaves reply tags in place. The reply stage
# (parse_directives on the split text) reports these again, correctly.
_RECOMPUTED_BY_REPLY_STAGE = frozenset(
    {
        "tag.reply_id_empty",
        "tag.reply_id_sanitized",
        "tag.reply_overridden",
        "tag.current_without_id",
    }
)
_SHOW_MAX = 60


def _show(s: str) -> str:
    """A construct quoted for a message, shortened when long."""
    if len(s) > _SHOW_MAX:
        s = s[: _SHOW_MAX - 1] + "…"
    return repr(s)


# --------------------------------------------------------------------------- §7.1


@dataclass(frozen=True)
class _Removed:
    """A construct the delivery strip removed, in offsets of the strip's input."""

    tag: TagMatch
    start: int  # with the whitespace moved over on the left
    end: int


@dataclass(frozen=True)
class _Strip:
    """The delivery strip's output, the patch that made it, and what it removed."""

    text: str
    patch: Patch
    removed: tuple[_Removed, ...]


def _may_have_blocks(text: str) -> bool:
    """False when ``text`` cannot hold a fenced or indented code block.

    A fence needs a run of three backticks or tildes, indented code four columns of
    indentation (four spaces or a tab), whatever containers surround it; substring tests
    answer that without the Markdown parse.
    """
    return "```" in text or "~~~" in text or "\t" in text or "    " in text


def _block_starts_in(code: CodeMap, lo: int, hi: int) -> bool:
    """Does a fenced or indented code block start in ``(lo, hi]``?"""
    starts = code.full().block_starts
    k = bisect.bisect_right(starts, lo)
    return k < len(starts) and starts[k] <= hi


def _trim_preserving_code(text: str) -> tuple[int, int]:
    """The kept range after the strip's trim: a leading code block keeps its indentation."""
    first = len(text) - len(js_ltrim(text))
    if first >= len(text):
        return 0, 0
    keep = first
    if first > 0 and _may_have_blocks(text):
        parse = CodeMap(text).full()
        k = bisect.bisect_right(parse.block_starts, first) - 1
        if k >= 0 and first < parse.block_ends[k]:
            keep = parse.block_starts[k]
    return keep, len(js_rtrim(text))


def _delivery_strip(text: str) -> _Strip:
    """TAGS.md §7.1 with its patch; see :func:`delivery_strip`."""
    if "[[" not in text:
        return _Strip(text, [], ())
    n = len(text)
    reader = ReplyTagReader(text)
    code = CodeMap(text)
    blocks = _may_have_blocks(text)
    pieces: list[tuple[int, int, str | None]] = []
    removed: list[_Removed] = []
    search = 0
    prev = 0
    while search < n:
        marker = text.find("[[", search)
        if marker < 0:
            break
        tag = read_audio_tag(text, marker)
        if tag is None:
            tag = reader.read(marker, allow_leading_malformed=True)
        if tag is None:
            search = marker + 1
            continue
        end = ws_end(text, tag.end) if tag.complete else tag.end
        # Only the whitespace directly before the marker, never what an earlier construct
        # already owned, moves into the edit.
        start = marker
        while start > prev and is_js_ws(text[start - 1]):
            start -= 1
        search = prev = end
        if code.in_code(marker):
            continue
        if blocks and _block_starts_in(code, marker, end):
            # The padding before a code block is its line break and indentation: keep it.
            cut = start + len(js_rtrim(text[start:end]))
            pieces.append((start, cut, ""))
        else:
            pieces.append((start, end, " " if tag.complete else ""))
        removed.append(_Removed(tag, start, end))
    if not pieces:
        return _Strip(text, [], ())
    patch = patch_from_pieces(text, pieces)
    stripped = apply(text, patch)
    keep, stop = _trim_preserving_code(stripped)
    trim: Patch = []
    if stop < len(stripped):
        trim.append(Edit(stop, len(stripped), stripped[stop:], ""))
    if keep > 0:
        trim.insert(0, Edit(0, keep, stripped[:keep], ""))
    return _Strip(stripped[keep:stop], compose(patch, trim, stripped), tuple(removed))


def delivery_strip(text: str) -> str:
    """TAGS.md §7.1: remove a malformed leading reply prefix and stray tags before delivery."""
    require_str(text)
    return _delivery_strip(text).text


# --------------------------------------------------------------------------- parse_reply


def _as_patch(records: Iterable[EditRecord]) -> Patch:
    return [Edit(e.start, e.end, e.removed, e.inserted) for e in records]


def _map_span(to_input: Callable[[int], int], start: int, end: int) -> tuple[int, int]:
    """Input range of ``[start, end)``; the end maps through the last character it covers."""
    a = to_input(start)
    b = to_input(end - 1) + 1 if end > start else a
    return a, max(a, b)


_RULE_WORDING: dict[SilentRule, str] = {
    "8.1": "it is only the silent token (rule 8.1)",
    "8.2": "it is the silent token as a JSON string (rule 8.2)",
    "8.3": 'it is a JSON envelope {"action": <silent token>} (rule 8.3)',
    "8.4": "it is model reasoning ending in the silent token (rule 8.4)",
}


def _explain_strip(
    diags: Diagnostics,
    spans: list[Span],
    text: str,
    removed: Sequence[_Removed],
    to_input: Callable[[int], int],
) -> None:
    """Diagnostics and spans for what the delivery strip removed (in input offsets)."""
    for r in removed:
        tag = r.tag
        a, b = _map_span(to_input, tag.start, tag.end)
        literal = text[tag.start : tag.end]
        if not tag.complete:
            diags.add(
                "tag.malformed_prefix_stripped",
                "warning",
                f"{_show(literal)} at the start of the message is a malformed reply tag; it was "
                "removed before delivery and sets no reply target. Write [[reply_to_current]] "
                "or [[reply_to:<id>]] with both closing brackets.",
                a,
                b,
            )
            spans.append(Span(kind="reply_prefix", start=a, end=b))
            continue
        kind: SpanKind = "audio_tag" if tag.kind == "audio" else "reply_tag"
        diags.add(
            "tag.stripped_on_delivery",
            "info",
            f"{_show(literal)} was still in the text after the tag stages (they read it as code "
            "before an earlier edit changed the code structure); it was removed before "
            "delivery and has no effect. Keep tags out of code spans and blocks.",
            a,
            b,
        )
        spans.append(Span(kind=kind, start=a, end=b))


def _stripped_prefix_starts(
    removed: Sequence[_Removed], to_input: Callable[[int], int]
) -> frozenset[int]:
    """Input offsets of the ``[[`` of every malformed prefix the strip removed."""
    return frozenset(to_input(r.tag.start) for r in removed if not r.tag.complete)


def _without_malformed_at(
    found: Iterable[Diagnostic],
    starts: frozenset[int],
    to_input: Callable[[int], int] | None = None,
) -> list[Diagnostic]:
    """``found`` minus the ``tag.malformed`` records of constructs starting at ``starts``."""
    if not starts:
        return list(found)
    out = []
    for d in found:
        if d.code == "tag.malformed" and d.start is not None:
            at = to_input(d.start) if to_input is not None else d.start
            if at in starts:
                continue
        out.append(d)
    return out


def _reference_span(
    text: str, spans: Sequence[Span], index: int, ref: str
) -> tuple[int, int] | None:
    """Input span of the ``index``-th accepted reference (its directive narrowed to it)."""
    media = [s for s in spans if s.kind in ("media", "image")]
    if index >= len(media):
        return None
    s = media[index]
    at = text.find(ref, s.start, s.end)
    return (at, at + len(ref)) if at >= 0 else (s.start, s.end)


def _has_double_bracket(text: str) -> bool:
    """``"[[" in text``, with a single-character probe first (much cheaper on non-ASCII text)."""
    return "[" in text and "[[" in text


def parse_reply(
    text: str,
    *,
    current_message_id: str | None = None,
    silent_token: str = DEFAULT_TOKEN,
    extract_markdown_images: bool = False,
    extract_media_directives: bool = True,
    preserve_trailing_whitespace: bool = False,
    profile: str | Profile = DEFAULT_PROFILE,
    explain: bool = False,
    policy: Policy | None = None,
) -> Reply:
    """The delivery view of a reply (TAGS.md §7): text, media, voice flag, reply target.

    ``profile`` names the upstream behaviour to reproduce (:data:`richout.PROFILES`);
    ``preserve_trailing_whitespace`` keeps what follows the last visible character, as
    upstream's option of that name does.
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    require_str(text)
    prof = resolve_profile(profile)
    if not (
        type(extract_markdown_images) is bool
        and type(extract_media_directives) is bool
        and type(preserve_trailing_whitespace) is bool
        and type(explain) is bool
    ):
        require_bool(extract_markdown_images, "extract_markdown_images")
        require_bool(extract_media_directives, "extract_media_directives")
        require_bool(preserve_trailing_whitespace, "preserve_trailing_whitespace")
        require_bool(explain, "explain")
    require_str(current_message_id, "current_message_id", optional=True)
    require_str(silent_token, "silent_token")

    options: dict[str, Any] = {
        "current_message_id": current_message_id,
        "silent_token": silent_token,
        "extract_markdown_images": extract_markdown_images,
        "extract_media_directives": extract_media_directives,
        "policy": policy,
    }
    explainer = rerun(
        parse_reply,
        text,
        preserve_trailing_whitespace=preserve_trailing_whitespace,
        profile=prof,
        **options,
    )

    if prof.normalize_rewritten_whitespace:
        return release_reply(
            text,
            **options,
            preserve_trailing_whitespace=preserve_trailing_whitespace,
            profile=prof,
            explainer=explainer,
            explain=explain,
            # next's reading of the input, without preserve_trailing_whitespace as before
            reference=partial(parse_reply, text, profile=NEXT, explain=True, **options),
        )
    if (
        not explain
        and not preserve_trailing_whitespace
        and "[" not in text
        and not has_media_token(text)
    ):
        # No tag, image or MEDIA: token: every layer but the silent rule is a trim.
        visible = js_rtrim(text)
        silent = silent_rule(visible, silent_token) is not None
        return Reply.lazy(explainer, text="" if silent else visible, is_silent=silent)
    split = split_for_views(
        text,
        extract_markdown_images=extract_markdown_images,
        extract_media_directives=extract_media_directives,
        preserve_trailing_whitespace=preserve_trailing_whitespace,
        profile=prof,
        explain=explain,
        policy=policy,
    )
    t1 = split.text

    directives = None
    t2 = t1
    brackets = _has_double_bracket(t1)
    # The reply stage reads tags only at REPLY_HEAD matches; without one it finds none and
    # every output it gives is the default below (explanations still run it).
    if brackets and (explain or REPLY_HEAD.search(t1) is not None):
        directives = parse_directives(
            t1,
            current_message_id=current_message_id,
            strip_audio_tag=False,
            strip_reply_tags=True,
            explain=explain,
        )
        if directives.has_reply_tag:
            t2 = directives.text

    # Removing reply tags never creates a "[[", so a text without one needs no strip.
    strip = _delivery_strip(t2) if brackets else _Strip(t2, [], ())
    t3 = strip.text
    rule = silent_rule(t3, silent_token)
    # A silent text is never empty (the rules need the token), so emptying it is an edit.
    out_text = "" if rule is not None else t3
    media_urls = [file_url_to_path(ref) for ref in split.media_urls]
    outputs = {
        "text": out_text,
        "media_urls": media_urls,
        "audio_as_voice": split.audio_as_voice,
        "reply_to_id": directives.reply_to_id if directives is not None else None,
        "reply_to_current": directives.reply_to_current if directives is not None else False,
        "reply_to_tag": directives.has_reply_tag if directives is not None else False,
        "is_silent": rule is not None,
        "rejected_media_count": split.rejected_media_count,
    }
    if not explain:
        return Reply.lazy(explainer, **outputs)

    p1 = _as_patch(split.edits)
    p2 = _as_patch(directives.edits) if directives is not None and directives.has_reply_tag else []
    p12 = compose(p1, p2, t1)
    p123 = compose(p12, strip.patch, t2)
    patch = compose(p123, [Edit(0, len(t3), t3, "")], t3) if rule is not None else p123

    diags = Diagnostics(text)
    spans = list(split.spans)
    # A malformed prefix the strip removed is explained by the strip, not as "stays visible".
    stripped_at = (
        _stripped_prefix_starts(strip.removed, offset_mapper(p12)) if strip.removed else frozenset()
    )
    if directives is None:
        diags.extend(_without_malformed_at(split.diagnostics, stripped_at))
    else:
        diags.extend(
            d
            for d in _without_malformed_at(split.diagnostics, stripped_at)
            if d.code not in _RECOMPUTED_BY_REPLY_STAGE
        )
        from_t1 = offset_mapper(p1)
        diags.extend(_without_malformed_at(directives.diagnostics, stripped_at, from_t1), from_t1)
        if directives.has_reply_tag:
            for s in directives.spans:
                if s.kind == "reply_tag":
                    a, b = _map_span(from_t1, s.start, s.end)
                    spans.append(Span(kind=s.kind, start=a, end=b, value=s.value))
    if strip.removed:
        _explain_strip(diags, spans, t2, strip.removed, offset_mapper(p12))
    for i, (ref, path) in enumerate(zip(split.media_urls, media_urls, strict=True)):
        if ref != path:
            where = _reference_span(text, split.spans, i, ref) or (0, len(text))
            diags.add(
                "reply.file_url_converted",
                "info",
                f"the file URL {_show(ref)} is delivered as the local path {_show(path)}.",
                *where,
            )
    if rule is not None:
        diags.add(
            "reply.silent",
            "info",
            f"The reply is silent: {_RULE_WORDING[rule]} for the token {silent_token!r}, so "
            "its text is emptied and nothing is said on the channel. Write a normal reply to "
            "say something.",
            0,
            len(text),
        )
        if media_urls:
            diags.add(
                "reply.silent_with_media",
                "warning",
                f"The reply is silent but carries {len(media_urls)} media reference(s); the media "
                "is still delivered. Drop the silent token to send text with it, or drop the "
                "MEDIA: lines to send nothing.",
                0,
                len(text),
            )
    # "[embed" has no case-folding lookalike outside ASCII, so the token search is exact here.
    if may_contain_token(text, "[embed"):
        diags.extend(embeds_for_delivery_diagnostics(text))
    if len(spans) > 1:
        spans.sort(key=lambda s: (s.start, s.end))

    return Reply.explained(
        **outputs, diagnostics=diags.build(), spans=spans, edits=edit_records(patch)
    )
