"""What :func:`~richout.envelope.skill.classify` tells a skill author (SKILL_ENVELOPE.md §2-§4).

Each check below reads the result and the classification's facts and yields the diagnostics
of one authoring mistake (a flag that is not a boolean, a failure without a reason, wording
the model copies to the user, a misused ``non_retriable`` ...). :data:`CHECKS` runs them in
a fixed order, which is the order of the diagnostics in a classification.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from richout.envelope._common import contains_any, describe, diag, is_number, py_usable
from richout.envelope.skill_failure import KNOWN_ERROR_TYPES
from richout.models import Diagnostic

__all__ = ["CHECKS", "ClassifyFacts", "classify_findings"]

_INTERNAL_WORDING = (
    "internal error",
    "contact the administrator",
    "contact your administrator",
    "内部错误",
    "联系管理员",
)
_CONFIG_GUIDANCE = ("save_skill_param", "请先", "please configure", "please set")
_CONNECTIVITY = ("timeout", "timed out", "connection", "超时", "连接")
_SUCCESS_COUNTS = ("success_count", "succeeded", "ok_count")
_FAILURE_COUNTS = ("failure_count", "failed", "fail_count")
_NUMERIC_STRING = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*")


@dataclass(frozen=True)
class ClassifyFacts:
    """One result and what :func:`~richout.envelope.skill.classify` decided about it."""

    result: Mapping[Any, Any]
    failed: bool
    reason: str | None
    reason_field: str | None
    #: ``success`` or ``ok``: the flag that made the result fail (None when it did not).
    flag: str | None
    #: The result carries a recoverable ``error_type`` or a ``need_param``.
    signal: bool
    recoverable: bool
    config_error: bool
    partial: bool


def _has_counts(result: Mapping[Any, Any]) -> bool:
    def pair(obj: Any) -> bool:
        if not isinstance(obj, Mapping):
            return False
        return any(is_number(obj.get(k)) for k in _SUCCESS_COUNTS) and any(
            is_number(obj.get(k)) for k in _FAILURE_COUNTS
        )

    return pair(result) or pair(result.get("data"))


def _failure_code(value: Any) -> bool:
    """A number or numeric string other than 0 and 200 (compared exactly, never as floats)."""
    if is_number(value):
        return value not in (0, 200)
    if isinstance(value, str) and _NUMERIC_STRING.fullmatch(value):
        return Decimal(value.strip()) not in (0, 200)
    return False


def _non_bool_flags(f: ClassifyFacts) -> Iterator[Diagnostic]:
    for key in ("success", "ok"):
        if key in f.result:
            value = f.result[key]
            if value is not None and not isinstance(value, bool):
                yield diag(
                    "skill.non_bool_flag",
                    "warning",
                    f"{key} is {describe(value)}, not a boolean, so it "
                    f"is not read as a failure; write {key}: false (a JSON boolean) to fail.",
                    key,
                )


def _conflicting_flags(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if f.result.get("success") is True and f.result.get("ok") is False:
        yield diag(
            "skill.conflicting_flags",
            "warning",
            "success is true but ok is false; the platform classifies this as a failure "
            "(reason from error, then msg). Set one consistent flag.",
            "ok",
        )


def _failure_without_reason(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if f.failed and f.reason is None:
        yield diag(
            "skill.failure_without_reason",
            "error",
            "the result failed but gives no usable reason (stderr/error/msg"
            + ("/user_message" if f.flag == "success" else "")
            + "), so the platform substitutes meaningless filler; put a model-facing "
            "explanation in error.",
            f.flag,
        )


def _internal_error_wording(f: ClassifyFacts) -> Iterator[Diagnostic]:
    sources: list[tuple[str, str]] = []
    if f.failed and f.reason is not None and f.reason_field is not None:
        sources.append((f.reason_field, f.reason))
    user_message = f.result.get("user_message")
    if isinstance(user_message, str) and f.reason_field != "user_message":
        sources.append(("user_message", user_message))
    for key, text in sources:
        hit = contains_any(text, _INTERNAL_WORDING)
        if hit:
            yield diag(
                "skill.internal_error_wording",
                "warning",
                f"{key} says {hit!r}: the model copies it to the user and gives up. Say "
                "what went wrong and what would fix it.",
                key,
            )


def _recoverable_without_fix(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if (
        f.recoverable
        and not py_usable(f.result.get("need_param"))
        and not py_usable(f.result.get("redirect"))
    ):
        yield diag(
            "skill.recoverable_without_fix",
            "info",
            "the failure is recoverable but neither need_param nor redirect says how to fix "
            "it; name the parameter to change (need_param) or the action to use (redirect).",
            "error_type" if "error_type" in f.result else "need_param",
        )


def _unknown_error_type(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if "error_type" not in f.result:
        return
    error_type = f.result["error_type"]
    if not (isinstance(error_type, str) and error_type in KNOWN_ERROR_TYPES):
        shown = describe(error_type, 60)
        yield diag(
            "skill.unknown_error_type",
            "info",
            f"error_type {shown} is not one of recoverable, retryable, need_input, "
            "need_param, config, transient (case-sensitive); it counts as "
            "non-recoverable.",
            "error_type",
        )


def _non_retriable(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if "non_retriable" not in f.result:
        return
    value = f.result["non_retriable"]
    if value is True:
        if f.signal:
            yield diag(
                "skill.non_retriable_ignored",
                "info",
                "non_retriable is ignored because the result also carries a recoverable "
                "signal (error_type or need_param); the skill is not blacklisted.",
                "non_retriable",
            )
        transient = f.result.get("error_type") == "transient"
        connectivity = contains_any(f.reason, _CONNECTIVITY) if f.reason else None
        if transient or connectivity:
            why = (
                "error_type is transient" if transient else f"the reason mentions {connectivity!r}"
            )
            yield diag(
                "skill.non_retriable_misuse",
                "warning",
                f"non_retriable is true but {why}: jitter is worth retrying. Reserve "
                "non_retriable for deployment-level problems (missing module, wrong "
                "configuration, insufficient authorisation).",
                "non_retriable",
            )
    elif not isinstance(value, bool):
        yield diag(
            "skill.non_retriable_not_bool",
            "warning",
            "non_retriable is not a boolean and is ignored; write non_retriable: true.",
            "non_retriable",
        )


def _code_field_failure(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if "code" in f.result and not f.failed and _failure_code(f.result["code"]):
        yield diag(
            "skill.code_field_failure",
            "warning",
            "a code other than 0/200 is only logged and never makes the result a "
            "failure; return success: false with an error instead.",
            "code",
        )


def _config_error_guidance(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if not (f.config_error and f.reason is not None):
        return
    hit = contains_any(f.reason, _CONFIG_GUIDANCE)
    if hit:
        yield diag(
            "skill.config_error_guidance",
            "warning",
            f"a configuration error's reason carries operating instructions ({hit!r}); "
            "the platform cuts them and substitutes a 'use another skill' hint. State "
            "what is missing without telling the model how to configure it.",
            f.reason_field,
        )


def _partial_without_counts(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if f.partial and not _has_counts(f.result):
        yield diag(
            "skill.partial_without_counts",
            "warning",
            "partial success must state both counts: add numeric success_count and "
            "failure_count (or succeeded/failed, ok_count/fail_count).",
            "completed" if f.result.get("completed") is False else "warning",
        )


def _display_only(f: ClassifyFacts) -> Iterator[Diagnostic]:
    if "display_only" in f.result:
        yield diag(
            "skill.display_only_unimplemented",
            "info",
            "display_only has no effect on the current platform: display_md is still only "
            "appended after the model's body. Do not rely on it for dedupe.",
            "display_only",
        )


#: Every check, in the order its diagnostics appear in a classification.
CHECKS: tuple[Callable[[ClassifyFacts], Iterator[Diagnostic]], ...] = (
    _non_bool_flags,
    _conflicting_flags,
    _failure_without_reason,
    _internal_error_wording,
    _recoverable_without_fix,
    _unknown_error_type,
    _non_retriable,
    _code_field_failure,
    _config_error_guidance,
    _partial_without_counts,
    _display_only,
)


def classify_findings(facts: ClassifyFacts) -> list[Diagnostic]:
    """The diagnostics of one classification, in :data:`CHECKS` order."""
    return [d for check in CHECKS for d in check(facts)]
