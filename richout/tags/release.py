r"""Reply and audio tags as the published ``openclaw@2026.9.6`` reads them (profile release).

The release differs from the ``next`` tag layer (:mod:`richout.tags`) in what it does to the
text around a removed tag, not in which tags it sees:

* a removed tag becomes one space when both neighbours (in the stage's input) are visible
  characters, else nothing; no gap closing beyond that;
* the result is then *whitespace-normalised* outside code
  (:mod:`richout.tags.release_whitespace`);
* a text with no ``[[`` at all is normalised too, but a text with ``[[`` in which no tag was
  found outside code comes back exactly as given.

:func:`parse_inline_directives` is the release's tag parse; :func:`reply_text` its reply step
after the media split: the tag parse, the delivery strip (:mod:`richout.tags.release_delivery`)
and the silent rule. Tags are read by :mod:`richout.tags.release_reader`.

Everything is linear in the input: ``[[`` candidates are found with ``str.find`` from a
position that only moves forward, and the reader remembers what it searched between
candidates.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from richout.markdown.codemap import CodeMap
from richout.tags.release_delivery import strip_for_delivery
from richout.tags.release_reader import ReleaseTag, ReleaseTagReader
from richout.tags.release_whitespace import TailMode, normalize
from richout.tags.scan import sanitize_reply_id
from richout.tags.silent import DEFAULT_TOKEN, is_silent
from richout.text.chars import is_js_ws, js_rtrim, js_trim

__all__ = [
    "ReleaseDirectives",
    "ReleaseReply",
    "parse_inline_directives",
    "reply_text",
]


@dataclass(frozen=True, slots=True)
class ReleaseDirectives:
    """What the release's ``parseInlineDirectives`` returns for one text."""

    text: str
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_explicit_id: str | None = None
    reply_to_current: bool = False
    has_audio_tag: bool = False
    has_reply_tag: bool = False


@dataclass(frozen=True, slots=True)
class ReleaseReply:
    """The reply-tag, delivery-strip and silence part of the release's reply parse."""

    text: str
    reply_to_id: str | None
    reply_to_current: bool
    reply_to_tag: bool
    is_silent: bool
    #: the delivery strip's text, before the silent rule empties it
    stripped: str
    #: the tag step's result on the split's text (None: the text holds no ``[[``), which an
    #: explained reply reuses
    tags: ReleaseDirectives | None = None


# --------------------------------------------------------------------------- parse


@dataclass(slots=True)
class _State:
    """What the tag stages saw (one text part)."""

    audio: bool = False
    reply: bool = False
    saw_current: bool = False
    explicit_id: str | None = None
    removed_trailing_line: bool = False


def _boundary(source: str, start: int, end: int) -> str:
    """One space when the removed tag sat between two visible characters, else nothing."""
    visible_before = start > 0 and not is_js_ws(source[start - 1])
    visible_after = end < len(source) and not is_js_ws(source[end])
    return " " if visible_before and visible_after else ""


def _stage(
    text: str,
    read: Callable[[ReleaseTagReader, int], ReleaseTag | None],
    on_tag: Callable[[ReleaseTag], None],
    *,
    strip: bool,
    state: _State,
    preserve: bool,
) -> str:
    """One replace pass: tags outside code are reported and (when ``strip``) removed.

    Tags are matched left to right without overlap, like a global regex replace; code
    regions and word boundaries are those of this pass's input ``text``.
    """
    reader = ReleaseTagReader(text)
    code: CodeMap | None = None
    out: list[str] = []
    last = 0
    pos = 0
    content_end = -1
    while True:
        marker = text.find("[[", pos)
        if marker < 0:
            break
        tag = read(reader, marker)
        if tag is None:
            pos = marker + 1
            continue
        pos = tag.end
        if code is None:
            code = CodeMap(text)
        if code.in_code(marker):
            continue
        on_tag(tag)
        if not strip:
            continue
        if preserve and not state.removed_trailing_line:
            if content_end < 0:
                content_end = len(js_rtrim(text))
            if tag.end == content_end:
                # The tag ends the text: was it alone on its line? Then the tail is normalised
                # instead of kept as written.
                line_start = max(text.rfind("\n", 0, marker), text.rfind("\r", 0, marker)) + 1
                state.removed_trailing_line = not text[line_start:marker].strip(" \t")
        out.append(text[last:marker])
        out.append(_boundary(text, marker, tag.end))
        last = tag.end
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def parse_inline_directives(
    text: str,
    *,
    current_message_id: str | None = None,
    strip_audio_tag: bool = True,
    strip_reply_tags: bool = True,
    preserve_trailing_whitespace: bool = False,
) -> ReleaseDirectives:
    """The release's ``parseInlineDirectives`` for one text part."""
    if not text:
        return ReleaseDirectives("")
    preserve = preserve_trailing_whitespace
    if "[[" not in text:
        return ReleaseDirectives(normalize(text, "preserve" if preserve else "trim"))

    state = _State()

    def on_audio(_tag: ReleaseTag) -> None:
        state.audio = True

    def on_reply(tag: ReleaseTag) -> None:
        state.reply = True
        if tag.raw_id is None:
            state.saw_current = True
        else:
            # The last explicit id that survives sanitising wins, wherever a current tag is.
            clean = sanitize_reply_id(tag.raw_id)
            if clean:
                state.explicit_id = clean

    after_audio = _stage(
        text,
        ReleaseTagReader.audio,
        on_audio,
        strip=strip_audio_tag,
        state=state,
        preserve=preserve,
    )
    result = _stage(
        after_audio,
        ReleaseTagReader.reply,
        on_reply,
        strip=strip_reply_tags,
        state=state,
        preserve=preserve,
    )

    found = state.audio or state.reply
    if found or result != text:
        tail: TailMode = "trim"
        if preserve:
            tail = "normalize" if state.removed_trailing_line else "preserve"
        result = normalize(result, tail)
    if not found:
        return ReleaseDirectives(result)
    reply_to_id = state.explicit_id
    if reply_to_id is None and state.saw_current and current_message_id is not None:
        reply_to_id = js_trim(current_message_id) or None
    return ReleaseDirectives(
        text=result,
        audio_as_voice=state.audio,
        reply_to_id=reply_to_id,
        reply_to_explicit_id=state.explicit_id,
        reply_to_current=state.saw_current,
        has_audio_tag=state.audio,
        has_reply_tag=state.reply,
    )


# --------------------------------------------------------------------------- reply


def reply_text(
    split_text: str,
    *,
    current_message_id: str | None,
    silent_token: str = DEFAULT_TOKEN,
    preserve_trailing_whitespace: bool = False,
) -> ReleaseReply:
    """The release's ``parseReplyDirectives`` after the media split, on the split's text."""
    preserve = preserve_trailing_whitespace
    parsed = (
        parse_inline_directives(
            split_text,
            current_message_id=current_message_id,
            strip_audio_tag=False,
            preserve_trailing_whitespace=preserve,
        )
        if "[[" in split_text
        else None
    )
    base = parsed.text if parsed is not None and parsed.has_reply_tag else split_text
    text = strip_for_delivery(base, preserve_trailing_whitespace=preserve)
    silent = is_silent(text, silent_token)
    return ReleaseReply(
        text="" if silent else text,
        reply_to_id=None if parsed is None else parsed.reply_to_id,
        reply_to_current=parsed is not None and parsed.reply_to_current,
        reply_to_tag=parsed is not None and parsed.has_reply_tag,
        is_silent=silent,
        stripped=text,
        tags=parsed,
    )
