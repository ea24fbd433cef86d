"""Wrong argument types raise InvalidInput (a ValueError) with a message, never a stray error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import richout
from richout import InvalidInput

_BAD_TEXT: list[Any] = [b"MEDIA:/tmp/a.png", None, 42, ["text"], bytearray(b"x")]

_TEXT_FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "split_media": richout.split_media,
    "parse_directives": richout.parse_directives,
    "parse_reply": richout.parse_reply,
    "extract_embeds": richout.extract_embeds,
    "render_reply": richout.render_reply,
    "StreamingParser.feed": lambda t: richout.StreamingParser().feed(t),
}


@pytest.mark.parametrize("name", sorted(_TEXT_FUNCTIONS))
@pytest.mark.parametrize("bad", _BAD_TEXT, ids=lambda b: type(b).__name__)
def test_text_must_be_a_string(name: str, bad: Any) -> None:
    with pytest.raises(InvalidInput, match="must be a string"):
        _TEXT_FUNCTIONS[name](bad)


_BAD_OPTIONS: list[tuple[str, Callable[[], Any], str]] = [
    ("reply id", lambda: richout.parse_reply("x", current_message_id=7), "current_message_id"),
    ("tags id", lambda: richout.parse_directives("x", current_message_id=b"7"), "message_id"),
    ("silent token", lambda: richout.parse_reply("x", silent_token=None), "silent_token"),
    ("role", lambda: richout.render_reply("x", role=1), "role"),
    ("allowlist str", lambda: richout.split_media("x", markdown_image_allowlist="/a"), "list"),
    ("allowlist entry", lambda: richout.split_media("x", markdown_image_allowlist=[1]), "entry"),
    ("rebuild str", lambda: richout.rebuild("text"), "rebuild"),
    ("rebuild dict", lambda: richout.rebuild({"text": "a", "edits": []}), "rebuild"),
]


@pytest.mark.parametrize(("case", "call", "names"), _BAD_OPTIONS, ids=[c for c, *_ in _BAD_OPTIONS])
def test_bad_options_name_the_argument(case: str, call: Callable[[], Any], names: str) -> None:
    with pytest.raises(InvalidInput, match=names):
        call()


def test_invalid_input_is_a_value_error_and_a_richout_error() -> None:
    with pytest.raises(ValueError):
        richout.split_media(None)  # type: ignore[arg-type]
    assert issubclass(InvalidInput, richout.RichoutError)
