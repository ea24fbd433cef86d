"""Profile ``release-2026.9.6``: the results of the published release's tag and reply code.

The release rewrites text with a whitespace normalisation (CRLF to LF, blank-line runs to
two, space runs between words to one) instead of removing tags site by site, so its outputs
come from :mod:`richout._release_tags`. Explanations keep richout's promises in this
profile too: diagnostics and spans are those of the same input read by the ``next`` tag
layer (the tags found are the same; UPSTREAM.md names where the wording can differ), and
the edits are one coarse edit from the input to the release's text, which rebuilds the
input exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any, TypeVar

from . import _release_tags
from ._patch import diff_patch
from .lossless import edit_records
from .models import Directives, Explained, Explanation, Reply
from .policy import Policy
from .profiles import PROFILES, Profile

__all__ = ["release_directives", "release_reply"]

_NEXT = PROFILES["next"]


_R = TypeVar("_R", Directives, Reply)


def _finish(
    cls: type[_R],
    outputs: dict[str, Any],
    text: str,
    *,
    explainer: Callable[[], Explanation],
    explain: bool,
    reference: Callable[[], Explained],
) -> _R:
    """The result: lazy, or explained by ``next``'s reading plus one edit that rebuilds."""
    if not explain:
        return cls.lazy(explainer, **outputs)
    ref = reference()
    return cls.explained(
        **outputs,
        diagnostics=ref.diagnostics,
        spans=ref.spans,
        edits=edit_records(diff_patch(text, outputs["text"])),
    )


def release_directives(
    text: str,
    *,
    current_message_id: str | None,
    strip_audio_tag: bool,
    strip_reply_tags: bool,
    explainer: Callable[[], Explanation],
    explain: bool,
) -> Directives:
    """``parse_directives`` under the release profile."""
    from .tags import parse_directives

    found = _release_tags.parse_inline_directives(
        text,
        current_message_id=current_message_id,
        strip_audio_tag=strip_audio_tag,
        strip_reply_tags=strip_reply_tags,
    )
    # ReleaseDirectives has exactly the output fields of Directives.
    return _finish(
        Directives,
        asdict(found),
        text,
        explainer=explainer,
        explain=explain,
        reference=lambda: parse_directives(
            text,
            current_message_id=current_message_id,
            strip_audio_tag=strip_audio_tag,
            strip_reply_tags=strip_reply_tags,
            profile=_NEXT,
            explain=True,
        ),
    )


def release_reply(
    text: str,
    *,
    current_message_id: str | None,
    silent_token: str,
    extract_markdown_images: bool,
    extract_media_directives: bool,
    preserve_trailing_whitespace: bool,
    profile: Profile,
    explainer: Callable[[], Explanation],
    explain: bool,
    policy: Policy | None = None,
) -> Reply:
    """``parse_reply`` under the release profile: its media split, then its reply step."""
    from .media import split_media
    from .reply import file_url_to_path, parse_reply

    split = split_media(
        text,
        extract_markdown_images=extract_markdown_images,
        extract_media_directives=extract_media_directives,
        preserve_trailing_whitespace=preserve_trailing_whitespace,
        profile=profile,
        policy=policy,
    )
    after = _release_tags.reply_text(
        split.text,
        current_message_id=current_message_id,
        silent_token=silent_token,
        preserve_trailing_whitespace=preserve_trailing_whitespace,
    )
    outputs = {
        "text": after.text,
        "media_urls": [file_url_to_path(ref) for ref in split.media_urls],
        "audio_as_voice": split.audio_as_voice,
        "reply_to_id": after.reply_to_id,
        "reply_to_current": after.reply_to_current,
        "reply_to_tag": after.reply_to_tag,
        "is_silent": after.is_silent,
    }
    return _finish(
        Reply,
        outputs,
        text,
        explainer=explainer,
        explain=explain,
        reference=lambda: parse_reply(
            text,
            current_message_id=current_message_id,
            silent_token=silent_token,
            extract_markdown_images=extract_markdown_images,
            extract_media_directives=extract_media_directives,
            profile=_NEXT,
            explain=True,
            policy=policy,
        ),
    )
