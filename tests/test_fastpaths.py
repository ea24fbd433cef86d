"""Fast paths on the trigger path give exactly the outputs of the full passes they skip.

Each shortcut replaces a pass only when the outputs it would give are certain; explanations
(``explain=True``) always run the full passes, so the eager result is the oracle for the lazy
one. The generators favour the text that decides: tag heads, near-misses, ``MEDIA:`` lines,
code markers and JavaScript whitespace at both ends.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import richout
from richout.codemap import CodeMap
from richout.media import _tag_pass_shortcut
from richout.profiles import PROFILES

_PIECES = [
    "x",
    "word",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "\u00a0",
    "\u3000",
    "`",
    "```",
    "~~~",
    "    ",
    "> ",
    "- ",
    "1. ",
    "[[",
    "]]",
    "]",
    "[",
    "[[audio_as_voice]]",
    "[[ AUDIO_AS_VOICE ]]",
    "[[audio_as_voice]",
    "[[reply_to_current]]",
    "[[reply_to: 42 ]]",
    "[[reply_to:abc]]",
    "[[reply_to:",
    "[[reply_to_current]",
    "[[unknown_tag]]",
    "[[ reply_to :x]]",
    "MEDIA:",
    "MEDIA: https://example.com/a.png",
    "media: ./local/file.png",
    "MEDIA: http://example.com/b.png",
    "MEDIA: `https://cdn.example.org/v.mp4`",
    "![alt](https://example.com/i.png)",
    '[embed ref="a"]',
    "NO_REPLY",
]
_TEXT = st.lists(st.sampled_from(_PIECES), max_size=24).map("".join)
_NO_BRACKETS = st.lists(
    st.sampled_from([p for p in _PIECES if "[[" not in p and "[" not in p]), max_size=24
).map("".join)
_PROFILES = st.sampled_from(sorted(PROFILES))
_SETTINGS = settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_SPLIT_OUT = ("text", "media_urls", "audio_as_voice", "segments", "rejected_media_count")
_REPLY_OUT = (
    "text",
    "media_urls",
    "audio_as_voice",
    "reply_to_id",
    "reply_to_current",
    "reply_to_tag",
    "is_silent",
    "rejected_media_count",
)
_RENDER_OUT = ("text", "reply_target", "audio_as_voice", "attachments", "canvas", "content")


def _outputs(result: Any, names: tuple[str, ...]) -> list[Any]:
    return [getattr(result, n) for n in names]


@_SETTINGS
@given(_NO_BRACKETS, st.booleans())
def test_untagged_shortcut_is_the_tag_pass(text: str, with_map: bool) -> None:
    """Without ``[[`` the tag pass is the §5.1 trim, code-owned tails included."""
    prof = PROFILES["next"]
    cmap = CodeMap(text) if with_map else None
    got = _tag_pass_shortcut(text, True, cmap, prof)
    full = richout.parse_directives(text, strip_audio_tag=True, strip_reply_tags=False)
    assert got == full.text
    assert not full.audio_as_voice


@_SETTINGS
@given(_TEXT, st.booleans())
def test_tag_shortcut_agrees_with_parse_directives(text: str, walked: bool) -> None:
    """Whenever the shortcut answers, the audio flag is False and (if read) the text equal."""
    for name, prof in PROFILES.items():
        got = _tag_pass_shortcut(text, walked, None, prof)
        if got is None:
            continue
        assert name == "next"  # the release keeps its own tag module
        full = richout.parse_directives(
            text, strip_audio_tag=True, strip_reply_tags=False, profile=prof
        )
        assert not full.audio_as_voice
        if walked:
            assert got == full.text


@_SETTINGS
@given(_TEXT, _PROFILES, st.booleans())
def test_split_media_lazy_outputs_equal_full(text: str, profile: str, preserve: bool) -> None:
    lazy = richout.split_media(text, profile=profile, preserve_trailing_whitespace=preserve)
    full = richout.split_media(
        text, profile=profile, preserve_trailing_whitespace=preserve, explain=True
    )
    assert _outputs(lazy, _SPLIT_OUT) == _outputs(full, _SPLIT_OUT)


@_SETTINGS
@given(_TEXT, _PROFILES)
def test_parse_reply_lazy_outputs_equal_full(text: str, profile: str) -> None:
    lazy = richout.parse_reply(text, current_message_id="m1", profile=profile)
    full = richout.parse_reply(text, current_message_id="m1", profile=profile, explain=True)
    assert _outputs(lazy, _REPLY_OUT) == _outputs(full, _REPLY_OUT)


@_SETTINGS
@given(_TEXT, _PROFILES)
def test_render_reply_lazy_outputs_equal_full(text: str, profile: str) -> None:
    lazy = richout.render_reply(text, profile=profile)
    full = richout.render_reply(text, profile=profile, explain=True)
    assert _outputs(lazy, _RENDER_OUT) == _outputs(full, _RENDER_OUT)
