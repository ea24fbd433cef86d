"""The public results: what each pipeline returns, snake_case in Python, camelCase on the wire."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal, NoReturn, TypeVar

from pydantic import (
    Field,
)

from richout.models.attachments import Attachment, describe
from richout.models.base import (
    Diagnostic,
    Explained,
    Model,
    SharedFieldsSet,
    _new,
    assembled,
    defaults_of,
    fields_set,
    set_dict,
    set_extra,
    set_fields_set,
    set_private,
)
from richout.models.canvas import CanvasBlock, CanvasPreview

__all__ = [
    "Directives",
    "EmbedResult",
    "MediaSplit",
    "RenderedReply",
    "Reply",
    "ReplyTarget",
    "Segment",
    "StreamChunk",
    "explained_call",
    "lazy_fields",
    "lazy_media_split",
    "lazy_media_text",
    "lazy_text",
    "media_segment",
    "output_names",
    "stream_chunk",
    "text_segment",
    "view_stage_explainer",
]

_E = TypeVar("_E", bound=Explained)


class Segment(Model):
    """One ordered piece of a reply: text or a media reference."""

    type: Literal["text", "media"]
    text: str | None = Field(default=None, description="The text of a text segment (raw lines).")
    url: str | None = Field(default=None, description="The reference of a media segment.")


def text_segment(text: str) -> Segment:
    """``Segment.trusted(type="text", text=text)``, assembled directly.

    A walked reply builds two or three segments; the generic :meth:`Model.trusted` merges a
    template per record (:func:`~richout.models.base.assembled`; ``tests/test_fused.py``
    compares them).
    """
    return assembled(Segment, {"type": "text", "text": text, "url": None}, _TEXT_SET)


def media_segment(url: str) -> Segment:
    """``Segment.trusted(type="media", url=url)``, assembled directly (see
    :func:`text_segment`)."""
    return assembled(Segment, {"type": "media", "text": None, "url": url}, _MEDIA_SET)


_TEXT_SET = fields_set("type", "text")
_MEDIA_SET = fields_set("type", "url")


class MediaSplit(Explained):
    """Result of :func:`richout.split_media` (MEDIA.md §2)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset(
        {"mediaUrls", "audioAsVoice", "rejectedMediaCount", "diagnostics", "spans", "edits"}
    )

    text: str = Field(description="Visible text.")
    media_urls: list[str] = Field(
        default_factory=list,
        description="Accepted references in document order, spelled as written.",
    )
    audio_as_voice: bool = Field(
        default=False, description="An [[audio_as_voice]] tag outside code was seen."
    )
    segments: list[Segment] | None = Field(
        default=None,
        description="Ordered text/media pieces (MEDIA.md §12); absent on the fast paths.",
    )
    rejected_media_count: int = Field(
        default=0,
        description=(
            "References the policy rejected and removed from the text (profile next; "
            "absent on the wire when 0)."
        ),
    )


class Directives(Explained):
    """Result of :func:`richout.parse_directives` (TAGS.md §6)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics", "spans", "edits"})

    text: str
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_explicit_id: str | None = None
    reply_to_current: bool = False
    has_audio_tag: bool = False
    has_reply_tag: bool = False


class Reply(Explained):
    """The delivery view: what a gateway sends on a non-web channel (TAGS.md §7)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset(
        {
            "mediaUrls",
            "audioAsVoice",
            "replyToCurrent",
            "rejectedMediaCount",
            "diagnostics",
            "spans",
            "edits",
        }
    )

    text: str
    media_urls: list[str] = Field(default_factory=list)
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_current: bool = False
    reply_to_tag: bool = False
    is_silent: bool = False
    rejected_media_count: int = Field(
        default=0,
        description=(
            "References the policy rejected and removed from the text (profile next; "
            "absent on the wire when 0)."
        ),
    )

    @property
    def attachments(self) -> list[Attachment]:
        """``media_urls`` with their kind, source and voice flag, in order (Python only).

        Derived on each read from ``media_urls`` and ``audio_as_voice``, so it costs nothing
        until read and cannot disagree with them; the wire form keeps upstream's keys.
        """
        if not self.media_urls:
            return []
        voice = self.audio_as_voice
        return [describe(ref, voice=voice) for ref in self.media_urls]


class EmbedResult(Explained):
    """Result of :func:`richout.extract_embeds` (EMBED.md §1-§7)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics", "spans", "edits"})

    text: str
    previews: list[CanvasPreview] = Field(default_factory=list)


class ReplyTarget(Model):
    """Where the reply goes: the current message, or an explicit message id."""

    mode: Literal["current", "id"]
    id: str | None = None


class RenderedReply(Explained):
    """The WebChat / Control UI view of an assistant message (EMBED.md §9).

    ``replyTarget`` is always on the wire (``null`` when the reply has no target).
    """

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics", "spans", "edits"})
    _always_on_wire: ClassVar[frozenset[str]] = frozenset({"replyTarget"})

    text: str
    reply_target: ReplyTarget | None = None
    audio_as_voice: bool = False
    attachments: list[Attachment] = Field(
        default_factory=list,
        description="One per accepted reference, in order, spelled as accepted (EMBED.md §9).",
    )
    canvas: list[CanvasBlock] = Field(default_factory=list)
    content: list[dict[str, Any]] = Field(default_factory=list)


class StreamChunk(Model):
    """Text that is safe to show now, from :class:`richout.StreamingParser` (TAGS.md §9)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    text: str
    reply_to_id: str | None = None
    reply_to_explicit_id: str | None = None
    reply_to_current: bool = False
    reply_to_tag: bool = False
    audio_as_voice: bool = False
    is_silent: bool = False
    raw_start: int = Field(description="Start of the fed text this call consumed (code points).")
    raw_end: int = Field(description="End of the fed text this call consumed (code points).")
    diagnostics: list[Diagnostic] = Field(default_factory=list)


#: Every field of a StreamChunk, as the streaming parser sets them all.
_CHUNK_SET = fields_set(*StreamChunk.model_fields)


def stream_chunk(
    text: str,
    *,
    reply_to_id: str | None,
    reply_to_explicit_id: str | None,
    reply_to_current: bool,
    reply_to_tag: bool,
    audio_as_voice: bool,
    is_silent: bool,
    raw_start: int,
    raw_end: int,
    diagnostics: list[Diagnostic],
) -> StreamChunk:
    """``StreamChunk.trusted(...)`` with every field given, assembled directly: a stream fed
    64 characters at a time builds one per call (``tests/test_streaming.py`` compares them)."""
    values = {
        "text": text,
        "reply_to_id": reply_to_id,
        "reply_to_explicit_id": reply_to_explicit_id,
        "reply_to_current": reply_to_current,
        "reply_to_tag": reply_to_tag,
        "audio_as_voice": audio_as_voice,
        "is_silent": is_silent,
        "raw_start": raw_start,
        "raw_end": raw_end,
        "diagnostics": diagnostics,
    }
    return assembled(StreamChunk, values, _CHUNK_SET)


def view_stage_explainer() -> NoReturn:
    """The explainer of a stage result a view builds for its own use without explanations
    (the media split inside ``parse_reply`` and ``render_reply``, the delivery view's reply
    tags): never called, since the view's own explainer reruns the whole view. Building a
    :data:`~richout.models.base.rerun` for each cost about 0.4 µs of a reply with a trigger."""
    raise RuntimeError(
        "richout bug: a view's stage result was asked for its explanation; explain the view"
    )


def explained_call(
    pipeline: Callable[..., _E], names: tuple[str, ...], text: str, *values: Any
) -> _E:
    """``pipeline(text, explain=True, **dict(zip(names, values)))``: the explainer a public
    pipeline builds as ``rerun(explained_call, pipeline, NAMES, text, *its arguments)``,
    ``NAMES`` being its keyword arguments' names in that order. By position: a partial
    holding keywords builds a dict on every lazy result (0.23 against 0.11 µs)."""
    return pipeline(text, explain=True, **dict(zip(names, values, strict=True)))


def lazy_text(cls: type[_E], explain: Callable[[], _E], text: str) -> _E:
    """``cls.lazy(explain, text=text)``, assembled directly: ``parse_directives``' result
    for a reply without a trigger (most replies), where the generic builder's keyword merge
    and fields set cost about 0.4 µs of a 3 µs call (``split_media``'s is
    :func:`lazy_media_text`). ``tests/test_models.py`` compares the two."""
    template, factories = defaults_of(cls)
    values = template.copy()
    values["text"] = text
    for name, make in factories:
        values[name] = make()  # a fresh list per result (text itself has no factory)
    return assembled(cls, values, _TEXT_ONLY_SET, {"_explainer": explain, "_explanation": None})


_TEXT_ONLY_SET = fields_set("text")


def lazy_media_text(explain: Callable[[], MediaSplit], text: str) -> MediaSplit:
    """``lazy_text(MediaSplit, explain, text)``, by :func:`lazy_media_split`:
    ``split_media``'s result for a reply without a trigger."""
    return lazy_media_split(explain, _TEXT_ONLY_SET, text, [], False, 0, None)


def lazy_media_split(  # noqa: PLR0917 - by position: built on every split (keywords cost)
    explain: Callable[[], MediaSplit],
    names: SharedFieldsSet,
    text: str,
    media_urls: list[str],
    audio_as_voice: bool,
    rejected_media_count: int,
    segments: list[Segment] | None,
) -> MediaSplit:
    """``MediaSplit.lazy(explain, **fields)`` with its fields written out, ``names`` (a
    :func:`~richout.models.base.fields_set`) the fields set: every split path's lazy
    result. With ``split_media``'s own trigger test, passes over the corpus's replies
    without a trigger ran 15-20% faster than through ``run_split`` and :func:`lazy_text`'s
    template copy and factory loop. ``tests/test_models.py``
    compares it with the generic builder, field order included, so a field added to
    :class:`MediaSplit` must be added here too."""
    obj = _new(MediaSplit)
    set_dict(
        obj,
        {
            "text": text,
            "media_urls": media_urls,
            "audio_as_voice": audio_as_voice,
            "segments": segments,
            "rejected_media_count": rejected_media_count,
        },
    )
    set_fields_set(obj, names)
    set_extra(obj, None)
    set_private(obj, {"_explainer": explain, "_explanation": None})
    return obj


def output_names(cls: type[Explained], *, without: tuple[str, ...] = ()) -> SharedFieldsSet:
    """The shared fields set of ``cls``'s output fields (all but its explanation's, and
    ``without``): what a pipeline that sets every output sets, for :func:`lazy_fields`."""
    skip = {"diagnostics", "spans", "edits", *without}
    return fields_set(*(name for name in cls.model_fields if name not in skip))


def lazy_fields(
    cls: type[_E], explain: Callable[[], _E], fields: dict[str, Any], names: set[str]
) -> _E:
    """``cls.lazy(explain, **fields)``, assembled directly, for a caller whose ``fields``
    always have the same names (``names``: their :func:`~richout.models.base.fields_set`,
    shared): the views' lazy results, where unpacking the fields into keywords, merging
    them and making a set of their names cost half of the generic builder's 1.5 µs (a
    plain reply's view takes 4). ``fields`` holding every field becomes the result's own
    values (the caller must not use it again). ``tests/test_models.py`` compares the two."""
    template, factories = defaults_of(cls)
    if len(fields) == len(template):
        # Every field given (a view's outputs: a fresh dict, written in declaration order,
        # which tests/test_fastpaths.py checks on every path): it is the values as they are.
        values = fields
    else:
        values = template.copy()
        values.update(fields)
        for name, make in factories:
            if name not in fields:
                values[name] = make()  # a fresh list per result
    return assembled(cls, values, names, {"_explainer": explain, "_explanation": None})
