"""Public result models: snake_case in Python, camelCase on the wire, JSON Schema exported.

Presence on the wire follows the specification exactly: a key whose value is "absent" in the
reference is absent here too. Every model serializes with :meth:`Model.to_wire`; ``None`` is
never written, and each model names the fields it omits when they are false or empty
(``_omit_empty``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializationInfo, model_serializer
from pydantic.alias_generators import to_camel

__all__ = [
    "CanvasBlock",
    "CanvasPreview",
    "Diagnostic",
    "Directives",
    "EditRecord",
    "EmbedResult",
    "MediaSplit",
    "Model",
    "RenderedReply",
    "Reply",
    "ReplyTarget",
    "Segment",
    "Severity",
    "Span",
    "SpanKind",
    "StreamChunk",
]

Severity = Literal["error", "warning", "info"]
SpanKind = Literal["media", "image", "audio_tag", "reply_tag", "embed", "reply_prefix"]


class Model(BaseModel):
    """Base of every public model: frozen, camelCase aliases, spec-exact presence."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        frozen=True,
        extra="forbid",
    )

    #: Wire names of fields left out when false, ``[]`` or ``{}``.
    _omit_empty: ClassVar[frozenset[str]] = frozenset()

    @model_serializer(mode="wrap")
    def _serialize(self, handler: Any, info: SerializationInfo) -> Any:
        data = handler(self)
        if not isinstance(data, dict):  # pragma: no cover - models always dump to dicts
            return data
        omit = type(self)._omit_empty
        return {
            k: v
            for k, v in data.items()
            if v is not None and not (k in omit and (v is False or v in ([], {})))
        }

    def to_wire(self) -> dict[str, Any]:
        """The JSON-ready dict with wire names and the specification's key presence."""
        out: dict[str, Any] = self.model_dump(mode="json")
        return out


class Diagnostic(Model):
    """Why a directive-looking construct was rejected, dropped, ignored or altered."""

    code: str = Field(description="Stable reason code, e.g. media.remote.not_https.")
    severity: Severity
    message: str = Field(description="What happened and how to fix it.")
    start: int | None = Field(None, description="Start offset in code points of the input.")
    end: int | None = Field(None, description="End offset (exclusive) in code points.")
    line: int | None = Field(None, description="1-based line of start.")
    column: int | None = Field(None, description="1-based column of start, in code points.")
    field: str | None = Field(None, description="JSON path, for payload-level findings.")


class Span(Model):
    """Source span of one honoured directive (README decision 3)."""

    kind: SpanKind
    start: int
    end: int
    value: str | None = Field(None, description="What the directive carried (reference, id).")


class EditRecord(Model):
    """Input ``[start, end)`` (``removed``) became ``inserted`` in the output text."""

    start: int
    end: int
    removed: str
    inserted: str


class Segment(Model):
    """One ordered piece of a reply: text or a media reference."""

    type: Literal["text", "media"]
    text: str | None = Field(None, description="The text of a text segment (raw lines).")
    url: str | None = Field(None, description="The reference of a media segment.")


class MediaSplit(Model):
    """Result of :func:`richout.split_media` (MEDIA.md §2)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset(
        {"mediaUrls", "audioAsVoice", "diagnostics", "spans", "edits"}
    )

    text: str = Field(description="Visible text.")
    media_urls: list[str] = Field(
        default_factory=list,
        description="Accepted references in document order, spelled as written.",
    )
    audio_as_voice: bool = Field(
        False, description="An [[audio_as_voice]] tag outside code was seen."
    )
    segments: list[Segment] | None = Field(
        None,
        description="Ordered text/media pieces (MEDIA.md §12); absent on the fast paths.",
    )
    diagnostics: list[Diagnostic] = Field(
        default_factory=list, description="Why directives were ignored, rejected or altered."
    )
    spans: list[Span] = Field(
        default_factory=list,
        description="Source span of each accepted item, lifted image and removed audio tag.",
    )
    edits: list[EditRecord] = Field(
        default_factory=list, description="Edits over the input that produced text."
    )


class Directives(Model):
    """Result of :func:`richout.parse_directives` (TAGS.md §6)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics", "spans", "edits"})

    text: str
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_explicit_id: str | None = None
    reply_to_current: bool = False
    has_audio_tag: bool = False
    has_reply_tag: bool = False
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    spans: list[Span] = Field(default_factory=list)
    edits: list[EditRecord] = Field(default_factory=list)


class Reply(Model):
    """The delivery view: what a gateway sends on a non-web channel (TAGS.md §7)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset(
        {"mediaUrls", "audioAsVoice", "replyToCurrent", "diagnostics", "spans", "edits"}
    )

    text: str
    media_urls: list[str] = Field(default_factory=list)
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_current: bool = False
    reply_to_tag: bool = False
    is_silent: bool = False
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    spans: list[Span] = Field(default_factory=list)
    edits: list[EditRecord] = Field(default_factory=list)


class CanvasPreview(Model):
    """An embed preview, exactly the seed's shape (EMBED.md §6.3)."""

    kind: Literal["canvas"] = "canvas"
    surface: Literal["assistant_message"] = "assistant_message"
    render: Literal["url"] = "url"
    url: str
    view_id: str | None = None
    title: str | None = None
    preferred_height: int | None = None
    class_name: str | None = None
    style: str | None = None


class CanvasBlock(Model):
    """The stored canvas block: ``{"type": "canvas", "preview": {...}}`` (EMBED.md §8)."""

    type: Literal["canvas"] = "canvas"
    preview: CanvasPreview

    @classmethod
    def from_json(cls, obj: object) -> CanvasBlock:
        """Read a stored block as the Control UI does (EMBED.md §8.3); InvalidInput if rejected."""
        # embed.py imports this module; importing it lazily keeps the cycle out of load time.
        from .embed import canvas_block_from_json

        return canvas_block_from_json(obj)


class EmbedResult(Model):
    """Result of :func:`richout.extract_embeds` (EMBED.md §1-§7)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics", "spans", "edits"})

    text: str
    previews: list[CanvasPreview] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    spans: list[Span] = Field(default_factory=list)
    edits: list[EditRecord] = Field(default_factory=list)


class ReplyTarget(Model):
    """Where the reply goes: the current message, or an explicit message id."""

    mode: Literal["current", "id"]
    id: str | None = None


class RenderedReply(Model):
    """The WebChat / Control UI view of an assistant message (EMBED.md §9)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics", "spans", "edits"})

    text: str
    reply_target: ReplyTarget | None = None
    audio_as_voice: bool = False
    attachments: list[dict[str, str]] = Field(default_factory=list)
    canvas: list[CanvasBlock] = Field(default_factory=list)
    content: list[dict[str, Any]] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    spans: list[Span] = Field(default_factory=list)
    edits: list[EditRecord] = Field(default_factory=list)

    def to_wire(self) -> dict[str, Any]:
        """Wire form; ``replyTarget`` is always present (``null`` when unset)."""
        out = super().to_wire()
        out.setdefault("replyTarget", None)
        return out


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
