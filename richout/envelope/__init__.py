"""The envelope module: what is actually delivered, and how skill results are read.

ENVELOPE.md: reply payloads (:func:`resolve_payload`), media reference equality
(:func:`ref_key`), dedupe against streamed blocks and message-tool sends
(:class:`DeliveryLedger`), the ``message(action=send)`` shape (:func:`build_send`) and WebChat
commentary capture (:func:`capture_commentary`). SKILL_ENVELOPE.md: :func:`classify`,
:class:`FailureBudget`, :func:`offload`, :func:`materialize_plan` and the envelope
:func:`lint`. Every public name is importable from here.

Modules (section numbers are ENVELOPE.md's up to ``commentary``, then SKILL_ENVELOPE.md's):

- ``models`` — the public records (``ReplyPayload``, ``Route``, ``DedupeResult``, ...).
- ``_common`` — shared helpers: JSON paths, diagnostics, value tests, argument checks.
- ``payload_intake`` — loose intake of plugin payload JSON, every dropped field explained (§1.2).
- ``payload`` — the delivery list, renderability and the final-directive merge (§1.3-§2).
- ``refkey`` — when two media references are the same file (§3).
- ``routes`` — routes and message-tool targets read from JSON, and matched (§4.3, §5.2).
- ``dedupe_text`` — when a final text duplicates a message-tool send (§4.3).
- ``dedupe_steps`` — the steps that dedupe one final payload (§4.1-§4.2).
- ``dedupe`` — :class:`DeliveryLedger`: a turn's delivery evidence and finalize (§4).
- ``send`` — the ``message(action=send)`` shape and what a call sent (§5).
- ``commentary`` — WebChat commentary capture and message-tool-only mode (§6-§7).
- ``skill_failure`` — how a skill result says it failed: flags, reasons, error types (§2-§3).
- ``skill_findings`` — what :func:`classify` tells a skill author, one check per mistake.
- ``skill`` — :func:`classify` (§2-§4).
- ``skill_budget`` — the round's failure budget and loop guard (§10).
- ``skill_offload`` — large results replaced by a receipt (§8).
- ``skill_artifacts`` — URLs to materialize (§7) and fallback workspace files (§6.1).
- ``skill_display`` — where ``display_md`` ends up (§5).
- ``skill_runs`` — retries, async dispatch and wall clocks (§3.1, §9).
- ``lint`` — every finding on one return value, with the authoring rule it breaks (§11).
"""

from __future__ import annotations

from pydantic import BaseModel

from richout.envelope.commentary import capture_commentary, message_tool_mode_findings
from richout.envelope.dedupe import DeliveryLedger
from richout.envelope.dedupe_text import is_duplicate_text, normalize_for_duplicate
from richout.envelope.lint import lint
from richout.envelope.models import (
    BackfillResult,
    BudgetDecision,
    CommentaryResult,
    DedupeResult,
    DisplayPlacement,
    LintFinding,
    MaterializePlan,
    MessageSend,
    OffloadResult,
    PayloadIntake,
    PayloadResult,
    ReplyPayload,
    Route,
    SendTarget,
    SkillClassification,
)
from richout.envelope.payload import (
    is_renderable,
    merge_final_directives,
    resolve_media,
    resolve_payload,
)
from richout.envelope.payload_intake import intake_payload
from richout.envelope.refkey import posix_normalize, ref_key, same_ref
from richout.envelope.routes import target_matches_route
from richout.envelope.send import (
    SendValidationError,
    build_send,
    collect_send,
    collect_sent_media,
    validate_send,
)
from richout.envelope.skill import classify
from richout.envelope.skill_artifacts import (
    backfill_candidates,
    backfill_report,
    is_materializable_content_type,
    materialize_plan,
)
from richout.envelope.skill_budget import BudgetCall, FailureBudget
from richout.envelope.skill_display import explain_display_md, place_display_md
from richout.envelope.skill_offload import offload
from richout.envelope.skill_runs import (
    async_ack,
    async_dispatch,
    background_text,
    fill_local_path,
    max_runs,
    resolve_wall_sec,
)

__all__ = [
    "PUBLIC_MODELS",
    "BackfillResult",
    "BudgetCall",
    "BudgetDecision",
    "CommentaryResult",
    "DedupeResult",
    "DeliveryLedger",
    "DisplayPlacement",
    "FailureBudget",
    "LintFinding",
    "MaterializePlan",
    "MessageSend",
    "OffloadResult",
    "PayloadIntake",
    "PayloadResult",
    "ReplyPayload",
    "Route",
    "SendTarget",
    "SendValidationError",
    "SkillClassification",
    "async_ack",
    "async_dispatch",
    "backfill_candidates",
    "backfill_report",
    "background_text",
    "build_send",
    "capture_commentary",
    "classify",
    "collect_send",
    "collect_sent_media",
    "explain_display_md",
    "fill_local_path",
    "intake_payload",
    "is_duplicate_text",
    "is_materializable_content_type",
    "is_renderable",
    "lint",
    "materialize_plan",
    "max_runs",
    "merge_final_directives",
    "message_tool_mode_findings",
    "normalize_for_duplicate",
    "offload",
    "place_display_md",
    "posix_normalize",
    "ref_key",
    "resolve_media",
    "resolve_payload",
    "resolve_wall_sec",
    "same_ref",
    "target_matches_route",
    "validate_send",
]

#: The envelope's public models, for ``richout schema``.
PUBLIC_MODELS: list[type[BaseModel]] = [
    ReplyPayload,
    PayloadIntake,
    PayloadResult,
    Route,
    SendTarget,
    MessageSend,
    DedupeResult,
    CommentaryResult,
    SkillClassification,
    BudgetDecision,
    OffloadResult,
    MaterializePlan,
    DisplayPlacement,
    BackfillResult,
    LintFinding,
]
