"""Layer 2, records: the public result models and the explanation plumbing.

`records` holds the frozen pydantic models (camelCase on the wire); `diagnostics` builds
`Diagnostic` lists; `lossless` turns edit lists into `EditRecord`s and back (`rebuild`);
`attachments` derives an `Attachment` from a delivered reference.
"""

from richout.models.attachments import Attachment, AttachmentKind, AttachmentSource
from richout.models.base import (
    Diagnostic,
    EditRecord,
    Explained,
    Explanation,
    Model,
    Severity,
    Span,
    SpanKind,
    rerun,
)
from richout.models.canvas import CanvasBlock, CanvasPreview
from richout.models.records import (
    Directives,
    EmbedResult,
    MediaSplit,
    RenderedReply,
    Reply,
    ReplyTarget,
    Segment,
    StreamChunk,
)

__all__ = [
    "Attachment",
    "AttachmentKind",
    "AttachmentSource",
    "CanvasBlock",
    "CanvasPreview",
    "Diagnostic",
    "Directives",
    "EditRecord",
    "EmbedResult",
    "Explained",
    "Explanation",
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
    "rerun",
]
