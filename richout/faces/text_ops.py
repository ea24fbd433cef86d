"""The text ops of ``richout jsonl`` (JSONL.md): argument checking and wire conversion only.

``media``, ``directives``, ``reply``, ``embed`` and ``render`` answer with
:func:`~richout.split_media`, :func:`~richout.parse_directives`, :func:`~richout.parse_reply`,
:func:`~richout.extract_embeds` and :func:`~richout.render_reply`. Each handler takes the
request's ``input`` and ``options`` and returns the output object with wire names; bad
arguments raise :class:`~richout.errors.InvalidInput`. :data:`OPS` holds them as
:class:`~richout.faces.op.Op` records, which check the option names first.
"""

from __future__ import annotations

from typing import Any, cast

from richout.errors import InvalidOptions
from richout.faces.op import Op, opt_bool, opt_str, opt_str_list, req_str, table
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, PROFILES, Profile, resolve_profile

__all__ = ["OPS"]


def _profile(options: dict[str, Any]) -> Profile:
    value = options.get("profile")
    if value is None:
        return PROFILES[DEFAULT_PROFILE]
    if not isinstance(value, str):
        raise InvalidOptions(f"option profile must be a string, got {value!r}")
    return resolve_profile(value, "option profile")


def _policy(options: dict[str, Any]) -> Policy | None:
    """Option ``policy``: a :class:`~richout.Policy` from its wire form (``"strict": true``
    starts from :meth:`Policy.strict`), or None."""
    value = options.get("policy")
    if value is None:
        return None
    return Policy.from_mapping(value, wire=True)


def _wire(result: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The result's wire form; with ``explain: false`` only the output keys."""
    if opt_bool(options, "explain", True):
        return cast("dict[str, Any]", result.to_wire())
    return cast("dict[str, Any]", result.outputs_wire())


def _media(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.media.split import split_media

    explain = opt_bool(options, "explain", True)
    return _wire(
        split_media(
            req_str(inp),
            extract_markdown_images=opt_bool(options, "extractMarkdownImages", False),
            markdown_image_allowlist=opt_str_list(options, "markdownImageAllowlist"),
            extract_media_directives=opt_bool(options, "extractMediaDirectives", True),
            extract_audio_directives=opt_bool(options, "extractAudioDirectives", True),
            preserve_trailing_whitespace=opt_bool(options, "preserveTrailingWhitespace", False),
            profile=_profile(options),
            explain=explain,
            policy=_policy(options),
        ),
        options,
    )


def _directives(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.tags.parse import parse_directives

    return _wire(
        parse_directives(
            req_str(inp),
            current_message_id=opt_str(options, "currentMessageId"),
            strip_audio_tag=opt_bool(options, "stripAudioTag", True),
            strip_reply_tags=opt_bool(options, "stripReplyTags", True),
            profile=_profile(options),
            explain=opt_bool(options, "explain", True),
        ),
        options,
    )


def _reply(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.views.reply import parse_reply

    token = opt_str(options, "silentToken")
    return _wire(
        parse_reply(
            req_str(inp),
            current_message_id=opt_str(options, "currentMessageId"),
            silent_token="NO_REPLY" if token is None else token,
            extract_markdown_images=opt_bool(options, "extractMarkdownImages", False),
            extract_media_directives=opt_bool(options, "extractMediaDirectives", True),
            preserve_trailing_whitespace=opt_bool(options, "preserveTrailingWhitespace", False),
            profile=_profile(options),
            explain=opt_bool(options, "explain", True),
            policy=_policy(options),
        ),
        options,
    )


def _embed(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.embed.parse import extract_embeds

    return _wire(
        extract_embeds(
            req_str(inp), profile=_profile(options), explain=opt_bool(options, "explain", True)
        ),
        options,
    )


def _render(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.views.render import render_reply

    role = opt_str(options, "role")
    return _wire(
        render_reply(
            req_str(inp),
            role="assistant" if role is None else role,
            profile=_profile(options),
            explain=opt_bool(options, "explain", True),
            policy=_policy(options),
        ),
        options,
    )


#: Options every text op takes besides its own.
_COMMON = ("profile", "explain")

#: The text ops by name: handler, the option names each takes (any other name is
#: ``invalid_options``) and the model its output is the wire form of.
OPS: dict[str, Op] = table(
    Op(
        "media",
        _media,
        (
            "extractMarkdownImages",
            "markdownImageAllowlist",
            "extractMediaDirectives",
            "extractAudioDirectives",
            "preserveTrailingWhitespace",
            "policy",
            *_COMMON,
        ),
        "MediaSplit",
    ),
    Op(
        "directives",
        _directives,
        ("currentMessageId", "stripAudioTag", "stripReplyTags", *_COMMON),
        "Directives",
    ),
    Op(
        "reply",
        _reply,
        (
            "currentMessageId",
            "silentToken",
            "extractMarkdownImages",
            "extractMediaDirectives",
            "preserveTrailingWhitespace",
            "policy",
            *_COMMON,
        ),
        "Reply",
    ),
    Op("embed", _embed, _COMMON, "EmbedResult"),
    Op("render", _render, ("role", "policy", *_COMMON), "RenderedReply"),
)
