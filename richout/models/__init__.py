"""Layer 2, records: the public results and the explanation plumbing every pipeline shares.

- `base` -- `Model` (camelCase wire form, `to_wire`/`from_wire`), `Diagnostic`, `Span`,
  `EditRecord`, the lazy `Explained` result and `rerun`, the one way to build its explainer;
  `span_record` and `edit_record` build spans and edits richout computed.
- `records` -- the pipelines' results: `MediaSplit`, `Directives`, `Reply`, `EmbedResult`,
  `RenderedReply`, `StreamChunk`, `Segment`, `ReplyTarget`; `text_segment` and
  `media_segment` build segments richout computed, `lazy_text` a lazy result holding only
  its text and `lazy_fields` one whose fields always have the same names (`output_names`);
  `lazy_media_split` builds a split's lazy result with its fields written out (and
  `lazy_media_text` one holding only its text);
  a public pipeline's explainer holds its arguments by position through `explained_call`;
  a view's own stage results, never explained on their own, take `view_stage_explainer`
  instead of a `rerun`.
- `canvas` -- `CanvasPreview`/`CanvasBlock` and reading a stored block back (EMBED.md §8).
- `attachments` -- `Attachment` and `describe`: kind and source of a reference, lexically.
- `diagnostics` -- the `Diagnostics` builder (line/column, sorting, de-duplication).
- `lossless` -- edit lists as `EditRecord`s and `rebuild`, which inverts them.

Other layers import the records from here (`from richout.models import Reply`).
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
    edit_record,
    rerun,
    span_record,
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
    explained_call,
    lazy_fields,
    lazy_media_split,
    lazy_media_text,
    lazy_text,
    media_segment,
    output_names,
    text_segment,
    view_stage_explainer,
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
    "edit_record",
    "explained_call",
    "lazy_fields",
    "lazy_media_split",
    "lazy_media_text",
    "lazy_text",
    "media_segment",
    "output_names",
    "rerun",
    "span_record",
    "text_segment",
    "view_stage_explainer",
]
