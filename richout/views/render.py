"""The WebChat / Control UI view of a message (EMBED.md §9, README decision 7).

Three fixed steps, each owned elsewhere: embeds first (so a block body's tags and ``MEDIA:``
lines vanish with it), then ``MEDIA:`` lines and the audio tag, then reply tags. Every
step's edits are composed over the input (:mod:`richout.views.render_stages`), so offsets
in diagnostics and spans always refer to the text the caller passed and the input can be
rebuilt from the result.
"""

from __future__ import annotations

import re
from typing import Any

from richout.collector import Pause, pause_needed, paused_call
from richout.embed.extract import extract
from richout.embed.parse import extract_embeds
from richout.embed.scan import OPENER
from richout.errors import require_bool, require_str
from richout.media.split import has_media_token, split_for_views
from richout.models import (
    Directives,
    RenderedReply,
    explained_call,
    lazy_fields,
    output_names,
    rerun,
)
from richout.models.diagnostics import Diagnostics
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, NEXT, Profile, resolve_profile
from richout.tags.parse import parse_directives, untagged_text
from richout.tags.pipeline import TagStages, stage_tags
from richout.text.chars import JS_WS_CLASS, has_double_bracket, js_rtrim
from richout.views.render_stages import TagOutputs, render_explanation, render_outputs

__all__ = ["render_reply"]

_ASSISTANT = "assistant"
# Directive-looking syntax a non-assistant message may carry (§9.1). The whitespace class
# has no "\n", so each line start scans only its own line: linear overall.
_EMBED_OPENER = re.compile(r"\[[Ee][Mm][Bb][Ee][Dd]")
_MEDIA_LINE = re.compile("(?m)^[" + JS_WS_CLASS.replace(r"\n", "") + r"]*[Mm][Ee][Dd][Ii][Aa]:")


def _tag_layer(text: str, prof: Profile, prior: TagStages | None) -> Directives:
    """The tag layer over the split text, explained (EMBED.md §9.1): parse_directives,
    stripping both kinds.

    Under profile next the reply tags the split's tag pass read in this very text are
    reused (:meth:`TagStages.reusing`, with the id findings it recorded), and the result's
    findings stay tuples until the view's explanation builds its records.
    """
    if prof.normalize_rewritten_whitespace:
        return parse_directives(text, profile=prof, explain=True)
    reused = TagStages.reusing(prior, text, True, True, explain=True)
    if reused is not None:
        return reused.deferred(None)
    # (An audio head left in code keeps the layer from reusing the split's reading; the
    # text may still be the one the split's reply stage read: its map answers.)
    shared = prior.map_of(text) if prior is not None else None
    return stage_tags(text, strip_audio=True, strip_reply=True, code_map=shared)


def _tag_outputs(text: str, prof: Profile, prior: TagStages | None) -> TagOutputs:
    """What the view reads of the tag layer over the split text, without explanations:
    ``parse_directives(text, profile=prof)``'s text, explicit id and current flag.

    Under profile next the stages run directly (reusing the reply tags the split's tag
    pass read in this very text): a ``Directives`` result, its explainer and the public
    argument checks cost about 2 µs of a tagged reply's render, and the view never reads
    them (its own explainer reruns the whole view).
    """
    if prof.normalize_rewritten_whitespace:
        d = parse_directives(text, profile=prof)
        return TagOutputs(d.text, d.reply_to_explicit_id, d.reply_to_current)
    run = TagStages.reusing(prior, text, True, True)
    if run is None:
        if not has_double_bracket(text):
            return TagOutputs(untagged_text(text), None, False)
        shared = prior.map_of(text) if prior is not None else None
        run = TagStages.outputs_only(text, True, True, shared)
    out = run.outputs(None)
    return TagOutputs(out["text"], out["reply_to_explicit_id"], out["reply_to_current"])


def _not_assistant(text: str, role: str) -> RenderedReply:
    """§9.1: other roles are shown as written."""
    diags = Diagnostics(text)
    if "[[" in text or _EMBED_OPENER.search(text) or _MEDIA_LINE.search(text):
        diags.add(
            "render.role_not_assistant",
            "info",
            f"This message has role {role!r}: only assistant messages are rendered, so its "
            "[embed ...] shortcodes, [[...]] tags and MEDIA: lines are shown as literal text.",
            0,
            len(text),
        )
    return RenderedReply.explained(
        text=text,
        content=[{"type": "text", "text": text}] if text else [],
        diagnostics=diags.build(),
    )


def render_reply(
    text: str,
    *,
    role: str = "assistant",
    profile: str | Profile = DEFAULT_PROFILE,
    explain: bool = False,
    policy: Policy | None = None,
) -> RenderedReply:
    """The WebChat / Control UI view: text, reply target, voice flag, attachments, canvas.

    Diagnostics, spans and edits are computed when first read (``explain=True``: now).
    """
    # First, before any other name is bound: locals() is then the call's arguments.
    if isinstance(text, str) and len(text) >= Pause.at and pause_needed():
        return paused_call(render_reply, locals())
    if type(text) is not str:
        require_str(text)
    if type(role) is not str:
        require_str(role, "role")
    # (The default profile by identity: resolving it cost a call on every reply.)
    prof = NEXT if profile is DEFAULT_PROFILE else resolve_profile(profile)
    if type(explain) is not bool:
        require_bool(explain, "explain")
    if role != _ASSISTANT:
        return _not_assistant(text, role)
    opener = "[" in text and OPENER.search(text) is not None
    if (
        not explain
        and not prof.normalize_rewritten_whitespace
        and not opener
        and not has_double_bracket(text)
        and not has_media_token(text)
    ):
        # No shortcode opener, tag or MEDIA: token (a lone "[" is none of them): the layers
        # would only trim (TAGS.md §5.1), and building their three results costs more than
        # the trimming. Every output field is set, as render_outputs sets them.
        visible = untagged_text(js_rtrim(text))
        content = [{"type": "text", "text": visible}] if visible else []
        outputs: dict[str, Any] = {
            "text": visible,
            "reply_target": None,
            "audio_as_voice": False,
            "attachments": [],
            "canvas": [],
            "content": content,
        }
    else:
        tag_runs: list[TagStages] = []
        if explain:
            embeds = extract_embeds(text, explain=True)
            media = split_for_views(
                embeds.text, profile=prof, explain=True, policy=policy, tag_runs=tag_runs
            )
            tags = _tag_layer(media.text, prof, tag_runs[0] if tag_runs else None)
            outputs = render_outputs(
                embeds.previews,
                media,
                TagOutputs(tags.text, tags.reply_to_explicit_id, tags.reply_to_current),
            )
            explanation = render_explanation(text, embeds, media, tags)
            return RenderedReply.explained(**outputs, **explanation)
        # The layers' own results are not built: only their outputs are read. Without an
        # opener the shortcode layer keeps the text and makes no preview.
        found = extract(text, explain=False) if opener else None
        media = split_for_views(
            found.text if found is not None else text,
            profile=prof,
            explain=False,
            policy=policy,
            tag_runs=tag_runs,
        )
        tag_outputs = _tag_outputs(media.text, prof, tag_runs[0] if tag_runs else None)
        outputs = render_outputs(found.previews if found is not None else [], media, tag_outputs)
    # Built only for a lazy result: the explainer is this call again with explain=True.
    # By position: a partial holding keywords builds a dict per call.
    explainer = rerun(explained_call, render_reply, _RERUN_NAMES, text, role, prof, policy)
    return lazy_fields(RenderedReply, explainer, outputs, _OUTPUT_NAMES)


#: render_reply's keyword arguments, in the order its explainer holds them.
_RERUN_NAMES = ("role", "profile", "policy")
#: The WebChat view's output fields, set on every path (``render_outputs`` sets them all).
_OUTPUT_NAMES = output_names(RenderedReply)
