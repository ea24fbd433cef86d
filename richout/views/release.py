"""Profile ``release-2026.9.6``: ``parse_reply`` results from the release's reply code.

The release's media split, then its reply step (:mod:`richout.tags.release`), explained as
:mod:`richout.tags.release_result` explains its tag results.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from richout.media.split import split_media
from richout.models import Reply, rerun
from richout.policy import Policy
from richout.policy.fileurl import file_url_to_path
from richout.profiles import NEXT, Profile
from richout.tags import release as _release_tags
from richout.tags.release_result import finish

__all__ = ["release_reply"]


def release_reply(
    text: str,
    *,
    current_message_id: str | None,
    silent_token: str,
    extract_markdown_images: bool,
    extract_media_directives: bool,
    preserve_trailing_whitespace: bool,
    profile: Profile,
    explain: bool,
    policy: Policy | None,
    pipeline: Callable[..., Reply],
) -> Reply:
    """``parse_reply`` (passed as ``pipeline``) under the release profile: its media split,
    then its reply step."""
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
    options: dict[str, Any] = {
        "current_message_id": current_message_id,
        "silent_token": silent_token,
        "extract_markdown_images": extract_markdown_images,
        "extract_media_directives": extract_media_directives,
        "policy": policy,
    }
    explainer = rerun(
        pipeline,
        text,
        preserve_trailing_whitespace=preserve_trailing_whitespace,
        profile=profile,
        explain=True,
        **options,
    )
    # next's reading of the input, without preserve_trailing_whitespace
    reference = partial(pipeline, text, profile=NEXT, explain=True, **options)
    return finish(Reply, outputs, text, explainer=explainer, explain=explain, reference=reference)
