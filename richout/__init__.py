"""richout: read what an AI assistant wrote and tell a chat gateway what to deliver.

The obvious entry point is :func:`parse_reply`; :func:`render_reply` is the WebChat view.
"""

from __future__ import annotations

from .blocks import Block, BlockFinish, BlockStreamer
from .embed import extract_embeds
from .errors import InvalidInput, InvalidOptions, RichoutError
from .lossless import rebuild
from .media import split_media
from .models import (
    Attachment,
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
from .policy import Policy
from .profiles import DEFAULT_PROFILE, PROFILES, Profile
from .render import render_reply
from .reply import delivery_strip, file_url_to_path, parse_reply
from .silent import is_silent
from .streaming import StreamingParser
from .tags import parse_directives

__version__ = "0.4.0"

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "Attachment",
    "Block",
    "BlockFinish",
    "BlockStreamer",
    "CanvasBlock",
    "CanvasPreview",
    "Diagnostic",
    "Directives",
    "EmbedResult",
    "InvalidInput",
    "InvalidOptions",
    "MediaSplit",
    "Policy",
    "Profile",
    "RenderedReply",
    "Reply",
    "ReplyTarget",
    "RichoutError",
    "Segment",
    "Span",
    "StreamChunk",
    "StreamingParser",
    "__version__",
    "delivery_strip",
    "extract_embeds",
    "file_url_to_path",
    "is_silent",
    "parse_directives",
    "parse_reply",
    "rebuild",
    "render_reply",
    "split_media",
]
