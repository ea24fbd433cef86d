"""The ``richout jsonl`` ops (JSONL.md): argument checking and wire conversion only.

Each handler takes the request's ``input`` and ``options`` and returns the output object with
wire names; bad arguments raise :class:`~richout.errors.InvalidInput`.
"""

from __future__ import annotations

from typing import Any, cast

from richout.errors import InvalidInput, InvalidOptions
from richout.faces.jsonl import Handler
from richout.policy import Policy
from richout.profiles import DEFAULT_PROFILE, PROFILES, Profile, resolve_profile

__all__ = ["OPS", "OPTIONS", "check_options", "opt_bool", "opt_str", "opt_str_list", "req_str"]


def req_str(value: Any, what: str = "input") -> str:
    """``value`` as a string, or InvalidInput."""
    if not isinstance(value, str):
        raise InvalidInput(f"{what} must be a string, got {type(value).__name__}")
    return value


def opt_bool(options: dict[str, Any], name: str, default: bool) -> bool:
    """Boolean option ``name`` (absent or null means ``default``)."""
    value = options.get(name)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidInput(f"option {name} must be true or false, got {value!r}")
    return value


def opt_str(options: dict[str, Any], name: str) -> str | None:
    """String option ``name`` or None."""
    value = options.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"option {name} must be a string, got {value!r}")
    return value


def opt_str_list(options: dict[str, Any], name: str) -> list[str] | None:
    """List-of-strings option ``name`` or None."""
    value = options.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidInput(f"option {name} must be a list of strings")
    return value


#: Options every text op takes besides its own.
_COMMON = ("profile", "explain")

#: The option names (wire spelling) each op takes; any other name is ``invalid_options``.
#: The envelope ops' names are merged in below (``richout.envelope.ops.OPTIONS``).
OPTIONS: dict[str, tuple[str, ...]] = {
    "media": (
        "extractMarkdownImages",
        "markdownImageAllowlist",
        "extractMediaDirectives",
        "extractAudioDirectives",
        "preserveTrailingWhitespace",
        "policy",
        *_COMMON,
    ),
    "directives": ("currentMessageId", "stripAudioTag", "stripReplyTags", *_COMMON),
    "reply": (
        "currentMessageId",
        "silentToken",
        "extractMarkdownImages",
        "extractMediaDirectives",
        "preserveTrailingWhitespace",
        "policy",
        *_COMMON,
    ),
    "embed": _COMMON,
    "render": ("role", "policy", *_COMMON),
}


def check_options(options: dict[str, Any], op: str, known: tuple[str, ...]) -> None:
    """Raise :class:`InvalidOptions` for an option name ``op`` does not take."""
    unknown = sorted(k for k in options if k not in known)
    if unknown:
        names = ", ".join(known) if known else "none"
        raise InvalidOptions(
            f"op {op} does not take option(s) {', '.join(unknown)}; it takes: {names} "
            "(option names are camelCase, as on the wire)"
        )


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

    check_options(options, "media", OPTIONS["media"])
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

    check_options(options, "directives", OPTIONS["directives"])
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

    check_options(options, "reply", OPTIONS["reply"])
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

    check_options(options, "embed", OPTIONS["embed"])
    return _wire(
        extract_embeds(
            req_str(inp), profile=_profile(options), explain=opt_bool(options, "explain", True)
        ),
        options,
    )


def _render(inp: Any, options: dict[str, Any]) -> dict[str, Any]:
    from richout.views.render import render_reply

    check_options(options, "render", OPTIONS["render"])
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


def _text_ops() -> dict[str, Handler]:
    return {
        "media": _media,
        "directives": _directives,
        "reply": _reply,
        "embed": _embed,
        "render": _render,
    }


def _all_ops() -> dict[str, Handler]:
    table = _text_ops()
    try:
        from richout.faces.envelope_ops import OPS as ENVELOPE_OPS
        from richout.faces.envelope_ops import OPTIONS as ENVELOPE_OPTIONS
    except ModuleNotFoundError as exc:  # pragma: no cover - until the envelope module lands
        if exc.name is None or not exc.name.startswith("richout.envelope"):
            raise
    else:
        table.update(ENVELOPE_OPS)
        OPTIONS.update(ENVELOPE_OPTIONS)
    return table


OPS: dict[str, Handler] = _all_ops()
