"""richout: read what an AI assistant wrote and tell a chat gateway what to deliver.

The obvious entry point is :func:`parse_reply`; :func:`render_reply` is the WebChat view.
"""

from __future__ import annotations

from typing import Any

from .errors import InvalidInput, RichoutError
from .models import (
    CanvasBlock,
    CanvasPreview,
    Diagnostic,
    Directives,
    EmbedResult,
    MediaSplit,
    RenderedReply,
    Reply,
    ReplyTarget,
    Segment,
    Span,
    StreamChunk,
)

__version__ = "0.3.0"

__all__ = [
    "CanvasBlock",
    "CanvasPreview",
    "Diagnostic",
    "Directives",
    "EmbedResult",
    "InvalidInput",
    "MediaSplit",
    "RenderedReply",
    "Reply",
    "ReplyTarget",
    "RichoutError",
    "Segment",
    "Span",
    "StreamChunk",
    "__version__",
]

# Filled in as the layers land; see the modules named here.
_LAZY = {
    "split_media": "media",
    "parse_directives": "tags",
    "parse_reply": "reply",
    "extract_embeds": "embed",
    "render_reply": "render",
    "StreamingParser": "streaming",
    "rebuild": "lossless",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'richout' has no attribute {name!r}")
