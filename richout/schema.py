"""JSON Schema of the public models (``richout schema``)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from . import models

__all__ = ["json_schema", "public_models"]


def public_models() -> list[type[BaseModel]]:
    """Every public result model, text side and envelope side."""
    found: list[type[BaseModel]] = [
        models.MediaSplit,
        models.Directives,
        models.Reply,
        models.EmbedResult,
        models.RenderedReply,
        models.CanvasBlock,
        models.StreamChunk,
        models.Diagnostic,
    ]
    try:
        from .envelope import PUBLIC_MODELS
    except ImportError:  # pragma: no cover - until the envelope module lands
        pass
    else:
        found.extend(PUBLIC_MODELS)
    return found


def json_schema() -> dict[str, Any]:
    """One JSON Schema document with a ``$defs`` entry per public model (wire names)."""
    _, schema = models_json_schema(
        [(m, "serialization") for m in public_models()],
        title="richout public models",
    )
    return schema
