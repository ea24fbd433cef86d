"""richout: read what an AI assistant wrote and tell a chat gateway what to deliver.

The obvious entry point is :func:`parse_reply`; :func:`render_reply` is the WebChat view.
"""

from __future__ import annotations

from richout.collector import gc_pause_threshold, set_gc_pause_threshold
from richout.compiled import is_compiled
from richout.embed.parse import extract_embeds
from richout.errors import InvalidInput, InvalidOptions, RichoutError
from richout.gateway.blocks import Block, BlockFinish, BlockStreamer
from richout.media.split import split_media
from richout.models import (
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
from richout.models.lossless import rebuild
from richout.policy import Policy
from richout.policy.fileurl import file_url_to_path
from richout.profiles import DEFAULT_PROFILE, PROFILES, Profile
from richout.tags.parse import parse_directives
from richout.tags.silent import is_silent
from richout.version import __version__
from richout.views.delivery_strip import delivery_strip
from richout.views.render import render_reply
from richout.views.reply import parse_reply
from richout.views.streaming import StreamingParser

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
    "gc_pause_threshold",
    "is_compiled",
    "is_silent",
    "parse_directives",
    "parse_reply",
    "rebuild",
    "render_reply",
    "set_gc_pause_threshold",
    "split_media",
]
