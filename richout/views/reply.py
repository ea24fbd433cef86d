"""The delivery view (TAGS.md §7): what a gateway sends on a non-web channel.

:func:`parse_reply` chains four stages over the reply, each recording a patch over its own
input so the composed patch rebuilds the reply exactly (README decision 3):

1. :func:`richout.split_media` lifts ``MEDIA:`` lines (and, when asked, Markdown images)
   and the ``[[audio_as_voice]]`` tag;
2. :func:`richout.parse_directives` reads and removes reply tags, when the text still has
   a ``[[``;
3. the delivery strip (:mod:`richout.views.delivery_strip`) removes what must never reach a
   channel: a malformed reply prefix at the very start of the message, and any complete tag
   a code-structure change left behind;
4. the silent rules (:mod:`richout.tags.silent`) may empty the text.

Stages 2-4 run in :mod:`richout.views.reply_stages`. Accepted ``file:`` URLs are then
converted to local paths (§7.2). ``[embed …]`` shortcodes stay as text on this surface and
are only explained. Replies without ``[[``, ``media:`` or the silent token pass every stage
with one substring test each.
"""

from __future__ import annotations

from typing import Any

from richout.collector import Pause, pause_needed, paused_call
from richout.errors import require_bool, require_str
from richout.media.split import has_media_token, split_for_views
from richout.models import Reply, explained_call, lazy_fields, output_names, rerun
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, NEXT, Profile, resolve_profile
from richout.tags.pipeline import TagStages
from richout.tags.silent import DEFAULT_TOKEN, silent_rule
from richout.text.chars import has_double_bracket, js_rtrim
from richout.views.release import release_reply
from richout.views.reply_explain import explain_reply
from richout.views.reply_stages import outputs as reply_outputs
from richout.views.reply_stages import run_stages

__all__ = ["parse_reply"]


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

    Long because the argument checks, the plain-reply path and the explainer are written
    inline: on a reply without a trigger (most replies) each extra call was measured at
    about 0.2-0.3 µs of a 4-5 µs parse.
    """
    # First, before any other name is bound: locals() is then the call's arguments.
    if isinstance(text, str) and len(text) >= Pause.at and pause_needed():
        return paused_call(parse_reply, locals())
    if type(text) is not str:
        require_str(text)
    # (The default profile by identity: resolving it cost a call on every reply.)
    prof = NEXT if profile is DEFAULT_PROFILE else resolve_profile(profile)
    if not (
        type(extract_markdown_images) is bool
        and type(extract_media_directives) is bool
        and type(preserve_trailing_whitespace) is bool
        and type(explain) is bool
        and type(silent_token) is str
        and (current_message_id is None or type(current_message_id) is str)
    ):
        _argument_error(
            current_message_id=current_message_id,
            silent_token=silent_token,
            extract_markdown_images=extract_markdown_images,
            extract_media_directives=extract_media_directives,
            preserve_trailing_whitespace=preserve_trailing_whitespace,
            explain=explain,
        )
    if prof.normalize_rewritten_whitespace:
        return release_reply(
            text,
            current_message_id=current_message_id,
            silent_token=silent_token,
            extract_markdown_images=extract_markdown_images,
            extract_media_directives=extract_media_directives,
            preserve_trailing_whitespace=preserve_trailing_whitespace,
            profile=prof,
            explain=explain,
            policy=policy,
            pipeline=parse_reply,
        )
    if (
        not explain
        and not preserve_trailing_whitespace
        and not has_double_bracket(text)
        and not (extract_markdown_images and "![" in text)
        and not has_media_token(text)
    ):
        # No tag, image or MEDIA: token: every layer but the silent rule is a trim. (A lone
        # "[", as in "[embed" or code, is no trigger for this view.)
        # Every output field is set, as the layers set them: model_fields_set, and so
        # model_dump(exclude_unset=True), must not depend on the path taken.
        visible = js_rtrim(text)
        silent = silent_rule(visible, silent_token) is not None
        outputs: dict[str, Any] = {
            "text": "" if silent else visible,
            "media_urls": [],
            "audio_as_voice": False,
            "reply_to_id": None,
            "reply_to_current": False,
            "reply_to_tag": False,
            "is_silent": silent,
            "rejected_media_count": 0,
        }
    else:
        tag_runs: list[TagStages] = []
        split = split_for_views(
            text,
            extract_markdown_images=extract_markdown_images,
            extract_media_directives=extract_media_directives,
            preserve_trailing_whitespace=preserve_trailing_whitespace,
            profile=prof,
            explain=explain,
            policy=policy,
            tag_runs=tag_runs,
        )
        prior = tag_runs[0] if tag_runs else None
        stages = run_stages(split, current_message_id, silent_token, explain, prior)
        outputs = reply_outputs(stages)
        if explain:
            diagnostics, spans, edits = explain_reply(text, stages, silent_token)
            return Reply.explained(**outputs, diagnostics=diagnostics, spans=spans, edits=edits)
    # Built only for a lazy result: the explainer is this call again with explain=True
    # (by position: a partial holding keywords builds a dict per call, twice the cost).
    explainer = rerun(
        explained_call,
        parse_reply,
        _RERUN_NAMES,
        text,
        current_message_id,
        silent_token,
        extract_markdown_images,
        extract_media_directives,
        preserve_trailing_whitespace,
        prof,
        policy,
    )
    return lazy_fields(Reply, explainer, outputs, _OUTPUT_NAMES)


#: parse_reply's keyword arguments, in the order its explainer holds them.
_RERUN_NAMES = (
    "current_message_id",
    "silent_token",
    "extract_markdown_images",
    "extract_media_directives",
    "preserve_trailing_whitespace",
    "profile",
    "policy",
)

#: The delivery view's output fields, set on every path (``outputs`` above).
_OUTPUT_NAMES = output_names(Reply)


def _argument_error(
    *,
    current_message_id: object,
    silent_token: object,
    extract_markdown_images: object,
    extract_media_directives: object,
    preserve_trailing_whitespace: object,
    explain: object,
) -> None:
    """InvalidInput naming the first argument of the wrong type (called only when one may be)."""
    require_bool(extract_markdown_images, "extract_markdown_images")
    require_bool(extract_media_directives, "extract_media_directives")
    require_bool(preserve_trailing_whitespace, "preserve_trailing_whitespace")
    require_bool(explain, "explain")
    require_str(current_message_id, "current_message_id", optional=True)
    require_str(silent_token, "silent_token")
