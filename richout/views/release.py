"""Profile ``release-2026.9.6``: ``parse_reply`` results from the release's reply code.

The release's media split, then its reply step (:mod:`richout.tags.release`). Explained as
the delivery view explains ``next`` (:func:`~richout.views.reply_explain.explain_reply`),
over the release's own layers: its explained media split, its tag step on the split's text
(explained as :mod:`richout.tags.release_result` explains tag results), ``next``'s delivery
strip and the silent rule. Where ``next``'s strip leaves another text than the release's
(the release keeps trailing whitespace under ``preserve_trailing_whitespace``), one more
edit turns the one into the other; ``next``'s strip's removals are explained when the two
texts differ only in trailing whitespace.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from functools import partial
from typing import Any

from richout.media.split import split_media
from richout.models import Directives, MediaSplit, Reply, rerun
from richout.policy import Policy
from richout.policy.fileurl import file_url_to_path
from richout.profiles import NEXT, Profile
from richout.tags import release as _release_tags
from richout.tags.parse import parse_directives
from richout.tags.release import ReleaseReply
from richout.tags.release_result import finish
from richout.tags.silent import silent_rule
from richout.text.chars import has_double_bracket, js_rtrim
from richout.text.derive import diff_patch
from richout.text.patch import compose
from richout.views.delivery_strip import Strip, strip_for_delivery
from richout.views.reply_explain import explain_reply
from richout.views.reply_stages import Stages

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
    # Explaining, the split is explained once and serves the outputs as well.
    split = split_media(
        text,
        extract_markdown_images=extract_markdown_images,
        extract_media_directives=extract_media_directives,
        preserve_trailing_whitespace=preserve_trailing_whitespace,
        profile=profile,
        policy=policy,
        explain=explain,
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
    if explain:
        return _layered(
            text,
            split,
            after,
            outputs,
            current_message_id=current_message_id,
            silent_token=silent_token,
            profile=profile,
        )
    explainer = rerun(
        pipeline,
        text,
        current_message_id=current_message_id,
        silent_token=silent_token,
        extract_markdown_images=extract_markdown_images,
        extract_media_directives=extract_media_directives,
        preserve_trailing_whitespace=preserve_trailing_whitespace,
        profile=profile,
        policy=policy,
        explain=True,
    )
    return Reply.lazy(explainer, **outputs)


def _layered(
    text: str,
    split: MediaSplit,
    after: ReleaseReply,
    outputs: dict[str, Any],
    *,
    current_message_id: str | None,
    silent_token: str,
    profile: Profile,
) -> Reply:
    """The explained result from the release's own layers (the module says how): the
    explained ``split`` and the reply step's result ``after``."""
    directives: Directives | None = None
    if after.tags is not None:
        # The reply step's tag result, explained as parse_directives explains it.
        options: dict[str, Any] = {
            "current_message_id": current_message_id,
            "strip_audio_tag": False,
            "strip_reply_tags": True,
        }
        directives = finish(
            Directives,
            asdict(after.tags),
            split.text,
            explainer=rerun(parse_directives, split.text, profile=profile, explain=True, **options),
            explain=True,
            reference=partial(parse_directives, split.text, profile=NEXT, explain=True, **options),
            removed_kinds=frozenset({"reply_tag"}),
        )
    t2 = directives.text if directives is not None and directives.has_reply_tag else split.text
    strip = strip_for_delivery(t2) if has_double_bracket(t2) else Strip(t2, [], ())
    if strip.text != after.stripped:
        # The release keeps trailing whitespace next's strip trims (preserve_trailing_
        # whitespace): next's removals, then one edit to the release's text. They are the
        # release's removals too when the two texts differ only there.
        same = js_rtrim(strip.text) == js_rtrim(after.stripped)
        strip = Strip(
            after.stripped,
            compose(strip.patch, diff_patch(strip.text, after.stripped), strip.text),
            strip.removed if same else (),
        )
    # The release's own rule on the same text: it agrees with after.is_silent.
    rule = silent_rule(strip.text, silent_token)
    stages = Stages(split, directives, strip, rule, outputs["media_urls"])
    diagnostics, spans, edits = explain_reply(text, stages, silent_token)
    return Reply.explained(**outputs, diagnostics=diagnostics, spans=spans, edits=edits)
