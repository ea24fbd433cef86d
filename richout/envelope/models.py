"""Public models of the envelope module (ENVELOPE.md, SKILL_ENVELOPE.md).

Wire names are camelCase (``richout.models.Model``); Python names are snake_case. Presence on
the wire follows the specification: ``None`` is never written (except for the keys a model
names in ``_always_on_wire``), and each model names the fields it leaves out when false or
empty. Every model loads its own wire form (:meth:`~richout.models.Model.from_wire`).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from richout.errors import InvalidInput
from richout.models import Diagnostic, Model

__all__ = [
    "BackfillResult",
    "BudgetDecision",
    "BudgetOutput",
    "CommentaryResult",
    "DedupeOutput",
    "DedupeResult",
    "DisplayPlacement",
    "LintFinding",
    "MaterializePlan",
    "MessageSend",
    "OffloadResult",
    "PayloadIntake",
    "PayloadResult",
    "RefKeyOutput",
    "ReplyPayload",
    "Route",
    "SendTarget",
    "SkillClassification",
]

ThreadId = str | int
BudgetReason = Literal["round_stopped", "skill_disabled", "same_args_repeated"]


class ReplyPayload(Model):
    """A reply payload as a gateway delivers it (ENVELOPE.md §1.1)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset(
        {
            "audioAsVoice",
            "replyToTag",
            "replyToCurrent",
            "isError",
            "trustedLocalMedia",
            "sensitiveMedia",
        }
    )

    text: str | None = Field(default=None, description="Visible text (may still hold directives).")
    media_url: str | None = Field(default=None, description="Legacy single attachment.")
    media_urls: list[str] | None = Field(
        default=None, description="Attachments; present-but-empty differs from absent (§2)."
    )
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_tag: bool = False
    reply_to_current: bool = False
    is_error: bool = False
    channel_data: dict[str, Any] | None = None
    presentation: dict[str, Any] | None = None
    interactive: dict[str, Any] | None = None
    location: dict[str, Any] | None = None
    delivery: dict[str, Any] | None = None
    trusted_local_media: bool = False
    sensitive_media: bool = False

    def to_wire(self) -> dict[str, Any]:
        """Wire form; an object field nested too deeply to serialize is an InvalidInput."""
        try:
            return super().to_wire()
        except (ValueError, RecursionError) as exc:
            raise InvalidInput(f"payload cannot be serialized: {exc}") from exc

    def delivery_view(self) -> dict[str, Any]:
        """Only the delivery fields, as the ``dedupe`` op returns them (ENVELOPE.md §4.4)."""
        out: dict[str, Any] = {}
        if isinstance(self.text, str) and self.text:
            out["text"] = self.text
        if isinstance(self.media_url, str) and self.media_url:
            out["mediaUrl"] = self.media_url
        if self.media_urls:
            out["mediaUrls"] = list(self.media_urls)
        if self.audio_as_voice:
            out["audioAsVoice"] = True
        if self.is_error:
            out["isError"] = True
        return out


class PayloadIntake(Model):
    """A loose plugin payload after intake (§1.2), with what was dropped and why."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    payload: ReplyPayload
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class PayloadResult(Model):
    """Result of :func:`resolve_payload`: the ``payload`` op output (ENVELOPE.md §1-§2).

    ``payload`` is Python only: a payload's objects (``channelData`` …) may be nested deeper
    than serialization allows, and the delivery fields are on the wire already. Loading the
    wire form (:meth:`from_wire`) rebuilds ``payload`` from those delivery fields, so the
    round trip is exact for a payload that holds nothing else; ``isError``, the object fields
    and the media flags of the payload do not travel.
    """

    _omit_empty: ClassVar[frozenset[str]] = frozenset(
        {"audioAsVoice", "replyToTag", "replyToCurrent", "diagnostics"}
    )

    media: list[str] = Field(description="The resolved delivery list (§1.3).")
    renderable: bool
    text: str | None = None
    media_url: str | None = None
    media_urls: list[str] | None = None
    audio_as_voice: bool = False
    reply_to_id: str | None = None
    reply_to_tag: bool = False
    reply_to_current: bool = False
    is_silent: bool | None = Field(default=None, description="Only when the text was parsed (§2).")
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    payload: ReplyPayload = Field(
        exclude=True, description="The whole payload after intake and merge (Python only)."
    )

    @model_validator(mode="before")
    @classmethod
    def _payload_from_delivery_fields(cls, data: Any) -> Any:
        """Rebuild ``payload`` from the delivery fields when the input is the wire form."""
        if isinstance(data, dict) and "payload" not in data:
            fields = {k: data[k] for k in _PAYLOAD_WIRE_KEYS if k in data}
            data = {**data, "payload": fields}
        return data


#: The ``PayloadResult`` keys that are also ``ReplyPayload`` fields (wire and Python names).
_PAYLOAD_WIRE_KEYS = (
    "text",
    "mediaUrl",
    "media_url",
    "mediaUrls",
    "media_urls",
    "audioAsVoice",
    "audio_as_voice",
    "replyToId",
    "reply_to_id",
    "replyToTag",
    "reply_to_tag",
    "replyToCurrent",
    "reply_to_current",
)


class Route(Model):
    """Where the current reply goes: the route message-tool sends are matched against."""

    provider: str | None = None
    to: str | None = None
    account_id: str | None = None
    thread_id: ThreadId | None = None


class SendTarget(Model):
    """One recorded ``message(action=send)`` target (ENVELOPE.md §4.3, §5.2)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"threadImplicit", "mediaUrls"})

    tool: str | None = None
    provider: str | None = None
    account_id: str | None = None
    to: str | None = None
    thread_id: ThreadId | None = None
    thread_implicit: bool = False
    text: str | None = None
    media_urls: list[str] = Field(default_factory=list)


class MessageSend(Model):
    """What one message-tool call sent: references, text and targets (ENVELOPE.md §5.2)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"mediaUrls", "targets", "diagnostics"})

    action: str | None = None
    send_like: bool
    media_urls: list[str] = Field(default_factory=list)
    text: str | None = None
    targets: list[SendTarget] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class DedupeResult(Model):
    """Final payloads after dedupe, index-aligned with the input (``None`` = not delivered)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    payloads: list[ReplyPayload | None]
    diagnostics: list[Diagnostic] = Field(default_factory=list)

    @property
    def delivered(self) -> list[ReplyPayload]:
        """The payloads still to deliver, in order."""
        return [p for p in self.payloads if p is not None]


class CommentaryResult(Model):
    """Which commentary references become attachments and which stay literal (§6.2)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    attach: list[str] = Field(default_factory=list)
    left_as_text: list[str] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class SkillClassification(Model):
    """How the platform reads a skill's return value (SKILL_ENVELOPE.md §2-§4).

    ``reason`` is always on the wire (``null`` when there is none).
    """

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})
    _always_on_wire: ClassVar[frozenset[str]] = frozenset({"reason"})

    failed: bool
    reason: str | None = None
    recoverable: bool
    counts_against_budget: bool
    non_retriable_effective: bool
    blacklist_this_round: bool
    partial: bool
    config_error: bool
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class BudgetDecision(Model):
    """Whether one skill call may run under the round's failure budget (§10)."""

    allowed: bool
    reason: BudgetReason | None = None


class OffloadResult(Model):
    """Outcome of :func:`offload` (SKILL_ENVELOPE.md §8)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    offloaded: bool
    serialized_chars: int
    receipt: dict[str, Any] | None = None
    path: str | None = None
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class MaterializePlan(Model):
    """Remote URLs the platform would fetch for a result, in order (SKILL_ENVELOPE.md §7)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    explicit: list[str] = Field(default_factory=list)
    probe: list[str] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class DisplayPlacement(Model):
    """The body after ``display_md`` placement, with each skipped block explained (§5)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    body: str
    appended: list[int] = Field(default_factory=list, description="Indexes of appended blocks.")
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class BackfillResult(Model):
    """Top-level workspace names the fallback collection would take (§6.1)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})

    names: list[str] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class LintFinding(Model):
    """One envelope-linter finding: a diagnostic plus the authoring rule it breaks (§11)."""

    code: str
    severity: Literal["error", "warning", "info"]
    message: str
    field: str | None = None
    rule: str = Field(description="The seed's authoring rule this finding breaks.")

    def format(self) -> str:
        """The linter's one-line report of this finding.

        Named ``format`` (it was ``line``) so it cannot be mistaken for
        :attr:`richout.Diagnostic.line`, which is a line number.
        """
        where = self.field if self.field else "$"
        return f"{self.severity} {where} {self.code}: {self.message} [rule: {self.rule}]"


# The jsonl ops whose output is not one of the results above (JSONL.md): their wire shapes,
# so ``richout schema`` describes every op's output and a caller can load it.


class RefKeyOutput(Model):
    """Output of the ``refKey`` op: the comparison key of one reference (ENVELOPE.md §3)."""

    key: str


class DedupeOutput(Model):
    """Output of ``dedupe``: the final payload's delivery fields, or ``None`` (ENVELOPE.md §4.4)."""

    _omit_empty: ClassVar[frozenset[str]] = frozenset({"diagnostics"})
    _always_on_wire: ClassVar[frozenset[str]] = frozenset({"payload"})

    payload: ReplyPayload | None = Field(
        description="ReplyPayload.delivery_view() of the final payload; null when dropped."
    )
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class BudgetOutput(Model):
    """Output of the ``budget`` op: one decision per call, in order (SKILL_ENVELOPE.md §10)."""

    allowed: list[bool]
    reasons: list[BudgetReason | None]
