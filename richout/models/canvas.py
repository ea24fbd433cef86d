"""Canvas blocks: the embed preview records and reading a stored block back (EMBED.md §6, §8)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Literal

from richout.errors import InvalidInput
from richout.models.base import Model, assembled, fields_set

__all__ = [
    "MAX_HEIGHT",
    "MIN_HEIGHT",
    "CanvasBlock",
    "CanvasPreview",
    "block_record",
    "block_wire",
    "canvas_block_from_json",
    "normalize_preferred_height",
    "preview_record",
]

#: EMBED.md §6.2: preferred heights below the minimum are dropped, above the maximum capped.
MIN_HEIGHT = 160
MAX_HEIGHT = 1200


def normalize_preferred_height(value: float) -> int | None:
    """§6.2: kept when finite and >= 160, truncated toward zero, capped at 1200."""
    if not math.isfinite(value) or value < MIN_HEIGHT:
        return None
    return min(math.trunc(value), MAX_HEIGHT)


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
        return canvas_block_from_json(obj)


#: The fields a preview built by the embed rules sets (all but the three constants), as
#: ``CanvasPreview(url=..., view_id=..., ...)`` sets them.
_PREVIEW_SET = fields_set("url", "view_id", "title", "preferred_height", "class_name", "style")
_BLOCK_SET = fields_set("preview")
#: Wire names of the optional preview fields, in declaration order.
_PREVIEW_OPTIONAL = (
    ("viewId", "view_id"),
    ("title", "title"),
    ("preferredHeight", "preferred_height"),
    ("className", "class_name"),
    ("style", "style"),
)


def preview_record(
    url: str,
    *,
    view_id: str | None,
    title: str | None,
    preferred_height: int | None,
    class_name: str | None,
    style: str | None,
) -> CanvasPreview:
    """``CanvasPreview(url=url, view_id=view_id, ...)`` from values of the declared types,
    assembled without validation (the embed rules compute them; ``tests/test_render.py``
    compares both)."""
    values = {
        "kind": "canvas",
        "surface": "assistant_message",
        "render": "url",
        "url": url,
        "view_id": view_id,
        "title": title,
        "preferred_height": preferred_height,
        "class_name": class_name,
        "style": style,
    }
    return assembled(CanvasPreview, values, _PREVIEW_SET)


def block_record(preview: CanvasPreview) -> CanvasBlock:
    """``CanvasBlock(preview=preview)``, assembled without validation."""
    return assembled(CanvasBlock, {"type": "canvas", "preview": preview}, _BLOCK_SET)


def block_wire(block: CanvasBlock) -> dict[str, object]:
    """``block.to_wire()`` written out: the render view puts one in its content per card,
    and the generic dump-then-prune cost about 12 µs of a 65 µs one-card reply."""
    p = block.preview
    preview: dict[str, object] = {
        "kind": p.kind,
        "surface": p.surface,
        "render": p.render,
        "url": p.url,
    }
    for wire, name in _PREVIEW_OPTIONAL:
        value = getattr(p, name)
        if value is not None:
            preview[wire] = value
    return {"type": block.type, "preview": preview}


def _stored_height(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None  # beyond a double: Infinity to JavaScript, not finite
    return normalize_preferred_height(number)


def canvas_block_from_json(obj: object) -> CanvasBlock:
    """Read a stored canvas block (EMBED.md §8.3); raises InvalidInput when it is rejected."""
    if not isinstance(obj, Mapping):
        raise InvalidInput(f"a canvas block must be an object, got {type(obj).__name__}")
    if obj.get("type") != "canvas":
        raise InvalidInput('a canvas block needs "type": "canvas"')
    preview = obj.get("preview")
    if not isinstance(preview, Mapping):
        raise InvalidInput('a canvas block needs a "preview" object')
    if preview.get("kind") != "canvas":
        raise InvalidInput('a canvas preview needs "kind": "canvas"')
    if preview.get("render") != "url":
        raise InvalidInput('a canvas preview needs "render": "url"')
    if preview.get("surface") == "tool_card":
        raise InvalidInput("tool_card canvas previews are not assistant message content")
    url = preview.get("url")
    if not isinstance(url, str):
        raise InvalidInput('a canvas preview needs a string "url"')

    def text_field(key: str) -> str | None:
        value = preview.get(key)
        return value if isinstance(value, str) else None

    return CanvasBlock(
        preview=CanvasPreview(
            url=url,
            view_id=text_field("viewId"),
            title=text_field("title"),
            preferred_height=_stored_height(preview.get("preferredHeight")),
            class_name=text_field("className"),
            style=text_field("style"),
        )
    )
