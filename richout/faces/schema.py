"""JSON Schema of the public models (``richout schema``): the wire contract.

One JSON Schema (draft 2020-12) document: a ``$defs`` entry per public model, a top-level
``anyOf`` over the public results, and ``x-richout-ops``, which maps each ``richout jsonl``
op to the ``$defs`` entry its output validates against (:data:`OP_RESULTS`). Each object's
``required`` lists exactly the keys always present on the wire: a key the model leaves out
when false or empty (``_omit_empty``) or when ``None`` is optional; a key it always writes
(``_always_on_wire``) is required and may be ``null``.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from richout import models
from richout.faces.ops import OPS
from richout.models import Model

__all__ = ["DRAFT", "OP_RESULTS", "json_schema", "op_results", "public_models"]

#: The JSON Schema dialect of :func:`json_schema`.
DRAFT = "https://json-schema.org/draft/2020-12/schema"

#: ``richout jsonl`` op -> name of the public model its output is the wire form of (read from
#: the op registry, :data:`richout.faces.ops.OPS`).
OP_RESULTS: dict[str, str] = {name: op.result for name, op in OPS.items()}


def _envelope_models() -> list[type[BaseModel]]:
    from richout.envelope import PUBLIC_MODELS
    from richout.envelope import models as envelope_models

    found = list(PUBLIC_MODELS)
    for name in ("RefKeyOutput", "DedupeOutput", "BudgetOutput"):
        model = getattr(envelope_models, name)
        if model not in found:
            found.append(model)
    return found


def public_models() -> list[type[BaseModel]]:
    """Every public result model, text side and envelope side (jsonl op outputs included)."""
    return [
        models.MediaSplit,
        models.Directives,
        models.Reply,
        models.EmbedResult,
        models.RenderedReply,
        models.CanvasBlock,
        models.Attachment,
        models.StreamChunk,
        models.Diagnostic,
        *_envelope_models(),
    ]


def op_results() -> dict[str, type[BaseModel]]:
    """``richout jsonl`` op -> the model whose wire form its output is."""
    by_name = {m.__name__: m for m in public_models()}
    return {op: by_name[name] for op, name in OP_RESULTS.items()}


def _nullable(annotation: Any) -> bool:
    """Can a value of this annotation be ``None``?"""
    if annotation is None or annotation is type(None) or annotation is Any:
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        return any(_nullable(arg) for arg in typing.get_args(annotation))
    return False


def wire_required(model: type[Model]) -> list[str]:
    """The wire names ``model.to_wire()`` always writes, in declaration order."""
    required: list[str] = []
    for name, info in model.model_fields.items():
        if info.exclude:
            continue
        wire = info.serialization_alias or info.alias or name
        if wire in model._always_on_wire or (
            wire not in model._omit_empty and not _nullable(info.annotation)
        ):
            required.append(wire)
    for name, cinfo in model.model_computed_fields.items():
        wire = cinfo.alias or name
        if wire in model._always_on_wire or (
            wire not in model._omit_empty and not _nullable(cinfo.return_type)
        ):
            required.append(wire)
    return required


def _model_classes() -> dict[str, type[Model]]:
    """Every subclass of :class:`Model` by class name (the ``$defs`` names pydantic uses)."""
    found: dict[str, type[Model]] = {}
    todo: list[type[Model]] = [Model]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            found.setdefault(sub.__name__, sub)
            todo.append(sub)
    return found


def json_schema() -> dict[str, Any]:
    """The wire contract: a draft 2020-12 document, one ``$defs`` entry per public model."""
    from richout.version import __version__

    results = public_models()
    refs, generated = models_json_schema(
        [(m, "serialization") for m in results], ref_template="#/$defs/{model}"
    )
    defs: dict[str, Any] = generated.get("$defs", {})
    classes = _model_classes()
    for def_name, schema in defs.items():
        cls = classes.get(def_name)
        if cls is None or schema.get("type") != "object":
            continue
        required = wire_required(cls)
        if required:
            schema["required"] = required
        else:
            schema.pop("required", None)
    result_refs = [refs[(m, "serialization")] for m in results]
    names = {m.__name__: ref["$ref"] for m, ref in zip(results, result_refs, strict=True)}
    return {
        "$schema": DRAFT,
        "$id": f"urn:richout:schema:{__version__}",
        "title": "richout public results",
        "description": (
            "Wire form (camelCase) of every public richout result. `x-richout-ops` maps "
            "each `richout jsonl` op to the $defs entry its output validates against."
        ),
        "anyOf": result_refs,
        "x-richout-ops": {op: {"$ref": names[name]} for op, name in OP_RESULTS.items()},
        "$defs": defs,
    }
