"""Standalone ``MEDIA:`` lines and opt-in Markdown images → visible text + media (MEDIA.md).

The entry points: :func:`split_media`, and :func:`split_for_views` for ``parse_reply`` and
``render_reply``. They check their arguments and hand the §3 pipeline
(:mod:`richout.media.pipeline`) the trigger test, the line walk, the text and segments it
leaves, the tag pass and the explanation.

The reference (OpenClaw ``splitMediaOutput``) walks every line of the reply and runs a
handful of backtracking regexes on each. richout gives the same outputs, but:

* a reply without a trigger (``media:``, ``[[``, or ``![`` with images on) costs one
  substring scan and one result object;
* only lines that hold ``media:`` (or a Markdown image) get per-line work, and only those
  lines ask the :class:`~richout.markdown.codemap.CodeMap` whether they are code;
* payloads are tokenised, cleaned and regrouped in linear time (:mod:`richout.media.payload`);
* every stage records a patch over its input, so the input can be rebuilt from the result
  (README decision 3), and every rejected or altered directive is explained (§17).
"""

from __future__ import annotations

from collections.abc import Sequence

from richout.collector import Pause, pause_needed, paused_call
from richout.errors import InvalidInput, require_bool, require_str
from richout.media.lines import media_colon
from richout.media.pipeline import has_media_token, run_split
from richout.models import (
    MediaSplit,
    explained_call,
    lazy_media_text,
    rerun,
    view_stage_explainer,
)
from richout.policy import Policy, strip_file_prefix
from richout.profiles import DEFAULT_PROFILE, NEXT, Profile, resolve_profile
from richout.tags.pipeline import TagStages
from richout.text.chars import JS_WS, has_double_bracket, js_trim

__all__ = ["has_media_token", "split_for_views", "split_media"]

_FLAG_NAMES = (
    "extract_markdown_images",
    "extract_media_directives",
    "extract_audio_directives",
    "preserve_trailing_whitespace",
    "explain",
)


def split_media(
    text: str,
    *,
    extract_markdown_images: bool = False,
    markdown_image_allowlist: Sequence[str] | None = None,
    extract_media_directives: bool = True,
    extract_audio_directives: bool = True,
    preserve_trailing_whitespace: bool = False,
    profile: str | Profile = DEFAULT_PROFILE,
    explain: bool = False,
    policy: Policy | None = None,
) -> MediaSplit:
    """Split reply text into visible text, media references, voice flag and segments.

    ``profile`` names the upstream behaviour to reproduce (:data:`richout.PROFILES`);
    ``policy`` (:class:`richout.Policy`) refuses some of the references it accepts.
    ``preserve_trailing_whitespace`` keeps the input's trailing whitespace, and the line
    break left after a removed final ``MEDIA:`` line, as upstream's option of that name does.
    Diagnostics, spans and edits are computed when first read (``explain=True``: now).

    Long because the collector pause and the argument checks are written inline: on a
    reply without a trigger each call they would make costs a measurable share.
    """
    # First, before any other name is bound: locals() is then the call's arguments.
    if isinstance(text, str) and len(text) >= Pause.at and pause_needed():
        return paused_call(split_media, locals())
    if type(text) is not str:
        require_str(text)
    # (The default profile by identity: resolving it cost a call on every reply.)
    prof = NEXT if profile is DEFAULT_PROFILE else resolve_profile(profile)
    if not (
        type(extract_markdown_images) is bool
        and type(extract_media_directives) is bool
        and type(extract_audio_directives) is bool
        and type(preserve_trailing_whitespace) is bool
        and type(explain) is bool
    ):
        flags = (
            extract_markdown_images,
            extract_media_directives,
            extract_audio_directives,
            preserve_trailing_whitespace,
            explain,
        )
        for flag, name in zip(flags, _FLAG_NAMES, strict=True):
            require_bool(flag, name)
    #: the allowlist as the image step looks it up: cleaned destination -> entry as written
    allowlist: dict[str, str] | None = None
    if markdown_image_allowlist is not None:
        if isinstance(markdown_image_allowlist, str) or not isinstance(
            markdown_image_allowlist, Sequence
        ):
            raise InvalidInput(
                "markdown_image_allowlist must be a list of strings or None, got "
                f"{type(markdown_image_allowlist).__name__}"
            )
        allowlist = {}
        for entry in markdown_image_allowlist:
            require_str(entry, "markdown_image_allowlist entry")
            allowlist[strip_file_prefix(js_trim(entry))] = entry
    if policy is not None:
        _require_policy(policy)

    # The explainer takes the call's arguments by position: a partial holding keywords
    # builds a dict per call (0.23 against 0.11 µs by timeit, on every lazy result).
    explainer = rerun(
        explained_call,
        split_media,
        _RERUN_NAMES,
        text,
        extract_markdown_images,
        markdown_image_allowlist,
        extract_media_directives,
        extract_audio_directives,
        preserve_trailing_whitespace,
        prof,
        policy,
    )
    first: int | None = None
    if allowlist is None and not (
        explain or preserve_trailing_whitespace or extract_markdown_images
    ):
        # Most replies hold no trigger: their lazy result is their trimmed text, whatever the
        # profile and policy. Asked here rather than in run_split, whose call (ten keywords)
        # cost about a fifth of such a reply's split; the colon found goes on to it.
        raw = text.rstrip(JS_WS)
        first = media_colon(raw, 5) if extract_media_directives else -1
        if first < 0 and not has_double_bracket(raw):
            return lazy_media_text(explainer, raw)
    return run_split(
        text,
        extract_markdown_images or allowlist is not None,
        allowlist,
        extract_media_directives,
        extract_audio_directives,
        profile=prof,
        preserve=preserve_trailing_whitespace,
        explain=explain,
        policy=policy,
        explainer=explainer,
        first=first,
    )


#: split_media's keyword arguments, in the order its explainer holds them.
_RERUN_NAMES = (
    "extract_markdown_images",
    "markdown_image_allowlist",
    "extract_media_directives",
    "extract_audio_directives",
    "preserve_trailing_whitespace",
    "profile",
    "policy",
)


def _require_policy(policy: object) -> None:
    if policy is not None and not isinstance(policy, Policy):
        raise InvalidInput(f"policy must be a richout.Policy or None, got {type(policy).__name__}")


def split_for_views(
    text: str,
    *,
    extract_markdown_images: bool = False,
    extract_media_directives: bool = True,
    preserve_trailing_whitespace: bool = False,
    profile: Profile,
    explain: bool,
    policy: Policy | None,
    tag_runs: list[TagStages] | None = None,
) -> MediaSplit:
    """:func:`split_media` for ``parse_reply`` and ``render_reply``, which checked ``text``,
    the flags and the profile themselves and never read ``segments``: a walked reply's
    segments are left unset (None) instead of being built, explained or not (text, media, flags
    and the explanation are those of :func:`split_media`). For the views' own use, never returned to
    a caller: an explained result leaves its findings to the view's explanation
    (:func:`~richout.models.diagnostics.findings_of`), and the split's tag pass is appended
    to ``tag_runs`` for the view's tag layer to reuse
    (:meth:`~richout.tags.pipeline.TagStages.reusing`)."""
    _require_policy(policy)
    # The views read an explained split (explain=True) or none: a lazy one is never
    # explained on its own.
    return run_split(
        text,
        extract_markdown_images,
        None,
        extract_media_directives,
        True,
        profile=profile,
        preserve=preserve_trailing_whitespace,
        explain=explain,
        policy=policy,
        explainer=view_stage_explainer,
        segments=False,
        defer=True,
        tag_runs=tag_runs,
    )
