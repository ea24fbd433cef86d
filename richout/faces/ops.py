"""Every op ``richout jsonl`` answers (JSONL.md): the one registry of :class:`~richout.faces.op.Op`.

The text ops (:mod:`richout.faces.text_ops`) then the envelope ops
(:mod:`richout.faces.envelope_ops`), by name. :mod:`richout.faces.jsonl` answers from it,
``richout conformance --op`` is checked against it, and :mod:`richout.faces.schema` maps each
op to the model its output validates against from it.
"""

from __future__ import annotations

from richout.faces import envelope_ops, text_ops
from richout.faces.op import Op

__all__ = ["OPS"]

#: Every op this build answers, by name.
OPS: dict[str, Op] = {**text_ops.OPS, **envelope_ops.OPS}
