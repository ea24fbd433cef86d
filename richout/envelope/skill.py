"""Skill return envelopes (SKILL_ENVELOPE.md): how a skill platform reads what a skill returned.

:func:`classify` says whether a result failed, why, whether the model may correct itself,
whether it counts against the round's :class:`FailureBudget` and whether the skill is
blacklisted; :func:`offload` builds the receipt that replaces a large result in the context;
:func:`materialize_plan` lists the remote URLs the platform would download. The smaller
helpers cover ``display_md`` placement, fallback artifact collection, retries on escaped
exceptions, async dispatch and wall clocks.

The platform is Python, so "whitespace" here is Python's (``str.isspace``), lengths are code
points and serializations are ``json.dumps(..., ensure_ascii=False)``.
"""

from __future__ import annotations

import builtins
import fnmatch
import hashlib
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal, overload

from richout.envelope._common import (
    describe,
    diag,
    is_number,
    join_path,
    py_usable,
    require_callable,
    require_int,
)
from richout.envelope.models import (
    BackfillResult,
    BudgetDecision,
    BudgetReason,
    DisplayPlacement,
    MaterializePlan,
    OffloadResult,
    SkillClassification,
)
from richout.errors import InvalidInput, require_bool, require_str
from richout.models import Diagnostic
from richout.text.chars import ascii_lower

__all__ = [
    "AMBIGUOUS_URL_FIELDS",
    "EXPLICIT_URL_FIELDS",
    "FAIL_PER_TOOL",
    "FAIL_TOTAL",
    "MATERIALIZE_MAX",
    "RECOVERABLE_ERROR_TYPES",
    "SAME_ARGS_MAX",
    "SKILL_WALL_DEFAULT",
    "SKILL_WALL_HARDCAP",
    "TOOL_DISPLAY_KEEP_CHARS",
    "TOOL_RESULT_OFFLOAD_CHARS",
    "BudgetCall",
    "FailureBudget",
    "async_ack",
    "async_dispatch",
    "backfill_candidates",
    "backfill_report",
    "background_text",
    "canonical_args",
    "classify",
    "explain_display_md",
    "fill_local_path",
    "is_materializable_content_type",
    "materialize_plan",
    "max_runs",
    "offload",
    "place_display_md",
    "resolve_wall_sec",
    "run_budget",
    "serialize_result",
]

RECOVERABLE_ERROR_TYPES = frozenset({"recoverable", "retryable", "need_input", "need_param"})
KNOWN_ERROR_TYPES = RECOVERABLE_ERROR_TYPES | {"config", "transient"}

FAIL_PER_TOOL = 4
FAIL_TOTAL = 8
SAME_ARGS_MAX = 3

TOOL_RESULT_OFFLOAD_CHARS = 12_000
TOOL_DISPLAY_KEEP_CHARS = 15_000
MATERIALIZE_MAX = 8
SKILL_WALL_DEFAULT = 600
SKILL_WALL_HARDCAP = 1800

_SUCCESS_CHAIN = ("stderr", "error", "msg", "user_message")
_OK_CHAIN = ("error", "msg")
_INTERNAL_WORDING = (
    "internal error",
    "contact the administrator",
    "contact your administrator",
    "内部错误",
    "联系管理员",
)
_CONFIG_MARKERS = ("未配置", "密钥", "api_key", "401")
_CONFIG_GUIDANCE = ("save_skill_param", "请先", "please configure", "please set")
_CONNECTIVITY = ("timeout", "timed out", "connection", "超时", "连接")
_SUCCESS_COUNTS = ("success_count", "succeeded", "ok_count")
_FAILURE_COUNTS = ("failure_count", "failed", "fail_count")
_NUMERIC_STRING = re.compile(r"\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)\s*")


def _contains_any(text: str, needles: Iterable[str]) -> str | None:
    """The first needle found in ``text`` (ASCII case-insensitive for Latin letters)."""
    low = ascii_lower(text)
    for needle in needles:
        if needle in low:
            return needle
    return None


def _failure(result: Any) -> tuple[bool, str | None, str | None, str | None]:
    """(failed, reason, the field the reason came from, the flag that made it fail)."""
    if not isinstance(result, Mapping):
        return False, None, None, None
    chain: tuple[str, ...]
    if result.get("success") is False:
        chain, flag = _SUCCESS_CHAIN, "success"
    elif result.get("ok") is False:
        chain, flag = _OK_CHAIN, "ok"
    else:
        return False, None, None, None
    for key in chain:
        value = result.get(key)
        if py_usable(value):
            return True, value, key, flag
    return True, None, None, flag


def _recoverable_signal(result: Mapping[Any, Any]) -> bool:
    error_type = result.get("error_type")
    return (
        isinstance(error_type, str) and error_type in RECOVERABLE_ERROR_TYPES
    ) or "need_param" in result


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


def _classify_diagnostics(
    result: Mapping[Any, Any],
    *,
    failed: bool,
    reason: str | None,
    reason_field: str | None,
    flag: str | None,
    signal: bool,
    recoverable: bool,
    config_error: bool,
    partial: bool,
) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for key in ("success", "ok"):
        if key in result:
            value = result[key]
            if value is not None and not isinstance(value, bool):
                found.append(
                    diag(
                        "skill.non_bool_flag",
                        "warning",
                        f"{key} is {describe(value)}, not a boolean, so it "
                        f"is not read as a failure; write {key}: false (a JSON boolean) to fail.",
                        key,
                    )
                )
    if result.get("success") is True and result.get("ok") is False:
        found.append(
            diag(
                "skill.conflicting_flags",
                "warning",
                "success is true but ok is false; the platform classifies this as a failure "
                "(reason from error, then msg). Set one consistent flag.",
                "ok",
            )
        )
    if failed and reason is None:
        found.append(
            diag(
                "skill.failure_without_reason",
                "error",
                "the result failed but gives no usable reason (stderr/error/msg"
                + ("/user_message" if flag == "success" else "")
                + "), so the platform substitutes meaningless filler; put a model-facing "
                "explanation in error.",
                flag,
            )
        )
    wording_sources: list[tuple[str, str]] = []
    if failed and reason is not None and reason_field is not None:
        wording_sources.append((reason_field, reason))
    user_message = result.get("user_message")
    if isinstance(user_message, str) and reason_field != "user_message":
        wording_sources.append(("user_message", user_message))
    for key, text in wording_sources:
        hit = _contains_any(text, _INTERNAL_WORDING)
        if hit:
            found.append(
                diag(
                    "skill.internal_error_wording",
                    "warning",
                    f"{key} says {hit!r}: the model copies it to the user and gives up. Say "
                    "what went wrong and what would fix it.",
                    key,
                )
            )
    if (
        recoverable
        and not py_usable(result.get("need_param"))
        and not py_usable(result.get("redirect"))
    ):
        found.append(
            diag(
                "skill.recoverable_without_fix",
                "info",
                "the failure is recoverable but neither need_param nor redirect says how to fix "
                "it; name the parameter to change (need_param) or the action to use (redirect).",
                "error_type" if "error_type" in result else "need_param",
            )
        )
    if "error_type" in result:
        error_type = result["error_type"]
        if not (isinstance(error_type, str) and error_type in KNOWN_ERROR_TYPES):
            shown = describe(error_type, 60)
            found.append(
                diag(
                    "skill.unknown_error_type",
                    "info",
                    f"error_type {shown} is not one of recoverable, retryable, need_input, "
                    "need_param, config, transient (case-sensitive); it counts as "
                    "non-recoverable.",
                    "error_type",
                )
            )
    if "non_retriable" in result:
        value = result["non_retriable"]
        if value is True:
            if signal:
                found.append(
                    diag(
                        "skill.non_retriable_ignored",
                        "info",
                        "non_retriable is ignored because the result also carries a recoverable "
                        "signal (error_type or need_param); the skill is not blacklisted.",
                        "non_retriable",
                    )
                )
            connectivity = _contains_any(reason, _CONNECTIVITY) if reason else None
            if result.get("error_type") == "transient" or connectivity:
                why = (
                    "error_type is transient"
                    if result.get("error_type") == "transient"
                    else f"the reason mentions {connectivity!r}"
                )
                found.append(
                    diag(
                        "skill.non_retriable_misuse",
                        "warning",
                        f"non_retriable is true but {why}: jitter is worth retrying. Reserve "
                        "non_retriable for deployment-level problems (missing module, wrong "
                        "configuration, insufficient authorisation).",
                        "non_retriable",
                    )
                )
        elif not isinstance(value, bool):
            found.append(
                diag(
                    "skill.non_retriable_not_bool",
                    "warning",
                    "non_retriable is not a boolean and is ignored; write non_retriable: true.",
                    "non_retriable",
                )
            )
    if "code" in result and not failed and _failure_code(result["code"]):
        found.append(
            diag(
                "skill.code_field_failure",
                "warning",
                "a code other than 0/200 is only logged and never makes the result a "
                "failure; return success: false with an error instead.",
                "code",
            )
        )
    if config_error and reason is not None:
        hit = _contains_any(reason, _CONFIG_GUIDANCE)
        if hit:
            found.append(
                diag(
                    "skill.config_error_guidance",
                    "warning",
                    f"a configuration error's reason carries operating instructions ({hit!r}); "
                    "the platform cuts them and substitutes a 'use another skill' hint. State "
                    "what is missing without telling the model how to configure it.",
                    reason_field,
                )
            )
    if partial and not _has_counts(result):
        found.append(
            diag(
                "skill.partial_without_counts",
                "warning",
                "partial success must state both counts: add numeric success_count and "
                "failure_count (or succeeded/failed, ok_count/fail_count).",
                "completed" if result.get("completed") is False else "warning",
            )
        )
    if "display_only" in result:
        found.append(
            diag(
                "skill.display_only_unimplemented",
                "info",
                "display_only has no effect on the current platform: display_md is still only "
                "appended after the model's body. Do not rely on it for dedupe.",
                "display_only",
            )
        )
    return found


def classify(result: Any) -> SkillClassification:
    """Failure, reason, recoverability, budget and blacklist of one return value (§2-§4)."""
    failed, reason, reason_field, flag = _failure(result)
    if not isinstance(result, Mapping):
        return SkillClassification.model_construct(
            failed=False,
            reason=None,
            recoverable=False,
            counts_against_budget=False,
            non_retriable_effective=False,
            blacklist_this_round=False,
            partial=False,
            config_error=False,
            diagnostics=[],
        )
    signal = _recoverable_signal(result)
    recoverable = failed and signal
    counts = failed and not signal
    effective = counts and result.get("non_retriable") is True
    warning = result.get("warning")
    partial = not failed and (result.get("completed") is False or py_usable(warning))
    config_error = bool(failed and reason is not None and _contains_any(reason, _CONFIG_MARKERS))
    found = _classify_diagnostics(
        result,
        failed=failed,
        reason=reason,
        reason_field=reason_field,
        flag=flag,
        signal=signal,
        recoverable=recoverable,
        config_error=config_error,
        partial=partial,
    )
    return SkillClassification.model_construct(
        failed=failed,
        reason=reason,
        recoverable=recoverable,
        counts_against_budget=counts,
        non_retriable_effective=effective,
        blacklist_this_round=effective,
        partial=partial,
        config_error=config_error,
        diagnostics=found,
    )


# -- failure budget (§10) ------------------------------------------------------------------


def canonical_args(args: Any) -> str:
    """JSON with sorted keys, compact separators and non-ASCII kept; the loop guard's key."""
    try:
        return json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInput(f"args must be a JSON value: {exc}") from exc


def _limit(value: Any, name: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidInput(f"limit {name} must be a positive integer, got {value!r}")
    return value


@dataclass(frozen=True)
class BudgetCall:
    """What :meth:`FailureBudget.call` decided and, when the call ran, how its result counted.

    ``allowed`` and ``reason`` read through to :attr:`decision`, so code written against the
    :class:`BudgetDecision` that ``call`` used to return keeps working.
    """

    decision: BudgetDecision
    #: The result's classification (§4); None when the call was refused or its parameters
    #: failed validation (then nothing was classified).
    classification: SkillClassification | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.decision, BudgetDecision):
            raise InvalidInput(
                f"decision must be a BudgetDecision, got {type(self.decision).__name__}"
            )
        if self.classification is not None and not isinstance(
            self.classification, SkillClassification
        ):
            raise InvalidInput(
                "classification must be a SkillClassification or None, got "
                f"{type(self.classification).__name__}"
            )

    @property
    def allowed(self) -> bool:
        """Whether the call was admitted."""
        return self.decision.allowed

    @property
    def reason(self) -> BudgetReason | None:
        """Why it was refused (None when admitted)."""
        return self.decision.reason


class FailureBudget:
    """The round's failure budget and loop guard (SKILL_ENVELOPE.md §10).

    Ask :meth:`admit` before running a call; after it ran, :meth:`record` its result.
    :meth:`call` does both for a call whose result is already known.
    """

    def __init__(
        self,
        *,
        per_tool: int = FAIL_PER_TOOL,
        total: int = FAIL_TOTAL,
        same_args: int = SAME_ARGS_MAX,
    ) -> None:
        require_int(per_tool, "per_tool", minimum=1)
        require_int(total, "total", minimum=1)
        require_int(same_args, "same_args", minimum=1)
        self.per_tool = _limit(per_tool, "per_tool", FAIL_PER_TOOL)
        self.total = _limit(total, "total", FAIL_TOTAL)
        self.same_args = _limit(same_args, "same_args", SAME_ARGS_MAX)
        self._calls: dict[tuple[str, str], int] = {}
        self._failures: dict[str, int] = {}
        self._total_failures = 0
        self._disabled: set[str] = set()
        self._stopped = False

    @property
    def stopped(self) -> bool:
        """True once the round reached the total failure limit: no further skill calls."""
        return self._stopped

    @property
    def disabled(self) -> frozenset[str]:
        """Skills banned for the rest of the round."""
        return frozenset(self._disabled)

    @property
    def total_failures(self) -> int:
        """Counted failures this round."""
        return self._total_failures

    def failures(self, tool: str) -> int:
        """Counted failures of ``tool`` this round."""
        require_str(tool, "tool")
        return self._failures.get(tool, 0)

    def admit(self, tool: str, args: Any = None) -> BudgetDecision:
        """May this call run? Counts it under (tool, canonical args) unless refused earlier."""
        if not isinstance(tool, str):
            raise InvalidInput("tool must be a string (the skill's name)")
        if self._stopped:
            return BudgetDecision(allowed=False, reason="round_stopped")
        if tool in self._disabled:
            return BudgetDecision(allowed=False, reason="skill_disabled")
        key = (tool, canonical_args(args))
        count = self._calls.get(key, 0) + 1
        self._calls[key] = count
        if count > self.same_args:
            self._disabled.add(tool)
            return BudgetDecision(allowed=False, reason="same_args_repeated")
        return BudgetDecision(allowed=True)

    @overload
    def record(
        self, tool: str, result: Any, *, validation_failed: Literal[False] = False
    ) -> SkillClassification: ...

    @overload
    def record(self, tool: str, result: Any, *, validation_failed: Literal[True]) -> None: ...

    @overload
    def record(
        self, tool: str, result: Any, *, validation_failed: bool
    ) -> SkillClassification | None: ...

    def record(
        self, tool: str, result: Any, *, validation_failed: bool = False
    ) -> SkillClassification | None:
        """Account for the result of an admitted call and return its classification.

        A parameter-validation failure (``validation_failed=True``) is not counted and has no
        classification, so only that form returns None; the types say so.
        """
        if not isinstance(tool, str):
            raise InvalidInput("tool must be a string (the skill's name)")
        require_bool(validation_failed, "validation_failed")
        if validation_failed:
            return None
        verdict = classify(result)
        if verdict.counts_against_budget:
            self._failures[tool] = self._failures.get(tool, 0) + 1
            self._total_failures += 1
            if self._failures[tool] >= self.per_tool or verdict.non_retriable_effective:
                self._disabled.add(tool)
            if self._total_failures >= self.total:
                self._stopped = True
        return verdict

    def call(
        self, tool: str, args: Any, result: Any, *, validation_failed: bool = False
    ) -> BudgetCall:
        """Admit a call and, when allowed, record its result: the verdict and classification."""
        require_bool(validation_failed, "validation_failed")
        decision = self.admit(tool, args)
        if not decision.allowed:
            return BudgetCall(decision)
        return BudgetCall(decision, self.record(tool, result, validation_failed=validation_failed))


def run_budget(limits: Any, calls: Any) -> list[BudgetDecision]:
    """The ``budget`` op: one decision per call of ``{"tool", "args", "result", ...}``."""
    if limits is None:
        limits = {}
    if not isinstance(limits, Mapping):
        raise InvalidInput('limits must be an object {"perTool", "total", "sameArgs"}')
    if not isinstance(calls, (list, tuple)):
        raise InvalidInput('calls must be a list of {"tool", "args", "result"} objects')
    budget = FailureBudget(
        per_tool=_limit(limits.get("perTool"), "perTool", FAIL_PER_TOOL),
        total=_limit(limits.get("total"), "total", FAIL_TOTAL),
        same_args=_limit(limits.get("sameArgs"), "sameArgs", SAME_ARGS_MAX),
    )
    out: list[BudgetDecision] = []
    for i, call in enumerate(calls):
        if not isinstance(call, Mapping):
            raise InvalidInput(f"calls[{i}] must be an object")
        tool = call.get("tool")
        if not isinstance(tool, str):
            raise InvalidInput(f"calls[{i}].tool must be a string")
        flag = call.get("validationFailed")
        if flag is not None and not isinstance(flag, bool):
            raise InvalidInput(f"calls[{i}].validationFailed must be true or false")
        out.append(
            budget.call(
                tool, call.get("args"), call.get("result"), validation_failed=bool(flag)
            ).decision
        )
    return out


# -- offload (§8) --------------------------------------------------------------------------

_FIXED_RECEIPT_KEYS = frozenset(
    {"ok", "offloaded", "skill", "path", "chars", "schema_keys", "_hint", "display_md"}
)
_ARTIFACT_SCALARS = frozenset({"filename", "local_path", "download_url", "abs_url", "media"})
_ARTIFACT_LISTS = frozenset({"images", "videos", "files", "audios"})
_SKILL_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def serialize_result(result: Any) -> str:
    """``json.dumps(result, ensure_ascii=False)``, the platform's serialization; InvalidInput
    when the value is not JSON (non-string keys of other types, nesting too deep)."""
    try:
        return json.dumps(result, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInput(f"the result is not a JSON value: {exc}") from exc


def _json_key(key: Any) -> str:
    """The object key ``json.dumps`` writes for ``key``."""
    if isinstance(key, str):
        return key
    return json.dumps(key)


def _ser(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _sample_item(item: Any) -> Any:
    if isinstance(item, str):
        return item[:300]
    text = _ser(item)
    return item if len(text) <= 300 else text[:300]


def _receipt(
    result: Mapping[Any, Any], *, skill: str, path: str, chars: int, display_keep: int
) -> tuple[dict[str, Any], list[str], list[str], bool]:
    """The receipt, the result keys summarised as count/sample, those dropped, and whether
    ``display_md`` was cut."""
    keys = [_json_key(k) for k in result]
    receipt: dict[str, Any] = {
        "ok": True,
        "offloaded": True,
        "skill": skill,
        "path": path,
        "chars": chars,
        "schema_keys": keys[:20],
        "_hint": (
            f"Full result ({chars} chars) saved to {path}; read that file for details. "
            "The fields below are a summary."
        ),
    }
    truncated = False
    display = result.get("display_md")
    if isinstance(display, str):
        if len(display) > display_keep:
            truncated = True
            display = display[:display_keep] + f"\n\n…(truncated; full text in {path})"
        receipt["display_md"] = display
    summarised: list[str] = []
    dropped: list[str] = []

    def put(key: str, value: Any) -> None:
        if key not in receipt:
            receipt[key] = value

    for raw_key, value in result.items():
        key = _json_key(raw_key)
        if key in _FIXED_RECEIPT_KEYS:
            continue
        small_artifact = (key in _ARTIFACT_SCALARS and len(_ser(value)) < 2000) or (
            key in _ARTIFACT_LISTS and len(_ser(value)) < 12000
        )
        if small_artifact or value is None or isinstance(value, (bool, int, float)):
            put(key, value)
        elif isinstance(value, str):
            if len(value) <= 500:
                put(key, value)
            else:
                dropped.append(key)
        elif isinstance(value, Mapping):
            if len(_ser(value)) <= 1000:
                put(key, value)
            else:
                dropped.append(key)
        elif isinstance(value, (list, tuple)):
            if value:
                put(f"{key}_count", len(value))
                put(f"{key}_sample", [_sample_item(item) for item in value[:3]])
                summarised.append(key)
        else:  # pragma: no cover - serialize_result rejected every other type
            dropped.append(key)
    return receipt, summarised, dropped, truncated


def _toolout_path(workspace_dir: str, skill: str, serialized: str) -> str:
    digest = hashlib.sha256(serialized.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    base = workspace_dir or "."
    if not base.endswith("/"):
        base += "/"
    return f"{base}.toolout/toolout_{_SKILL_NAME_UNSAFE.sub('_', skill)}_{digest}.json"


def offload(
    result: Any,
    *,
    skill: str,
    write: Callable[[str, str], object] | None = None,
    workspace_dir: str = ".",
    threshold: int = TOOL_RESULT_OFFLOAD_CHARS,
    display_keep: int = TOOL_DISPLAY_KEEP_CHARS,
) -> OffloadResult:
    """Replace a large successful object result with a receipt (SKILL_ENVELOPE.md §8).

    When offloaded, ``write(path, serialization)`` is called to store the full result (the
    ``offload`` op passes none and writes nothing). A failing ``write`` leaves the result in
    place, with an error diagnostic.
    """
    if not isinstance(skill, str):
        raise InvalidInput("skill must be a string (the skill's name)")
    if not isinstance(workspace_dir, str):
        raise InvalidInput("workspace_dir must be a string")
    require_callable(write, "write")
    require_int(threshold, "threshold")
    require_int(display_keep, "display_keep")
    serialized = serialize_result(result)
    chars = len(serialized)
    failed, _, _, _ = _failure(result)
    if not isinstance(result, Mapping) or failed or chars <= threshold:
        return OffloadResult.model_construct(
            offloaded=False, serialized_chars=chars, receipt=None, path=None, diagnostics=[]
        )
    path = _toolout_path(workspace_dir, skill, serialized)
    receipt, summarised, dropped, truncated = _receipt(
        result, skill=skill, path=path, chars=chars, display_keep=display_keep
    )
    found: list[Diagnostic] = []
    if write is not None:
        try:
            write(path, serialized)
        except Exception as exc:  # the caller's writer failing must not lose the result
            return OffloadResult.model_construct(
                offloaded=False,
                serialized_chars=chars,
                receipt=None,
                path=None,
                diagnostics=[
                    diag(
                        "skill.offload_write_failed",
                        "error",
                        f"writing {path} failed ({type(exc).__name__}: {exc}); the result was "
                        "kept whole instead of being replaced by a receipt.",
                        "$",
                    )
                ],
            )
    parts = [f"the result ({chars} chars) is stored whole at {path}; the context keeps a receipt"]
    if summarised:
        parts.append("summarised as <key>_count/<key>_sample: " + ", ".join(summarised))
    if dropped:
        parts.append("not kept: " + ", ".join(dropped))
    parts.append(
        "put bulky data in list fields and the few fields that matter as top-level scalars"
    )
    found.append(diag("skill.offloaded", "info", "; ".join(parts) + ".", "$"))
    if truncated:
        found.append(
            diag(
                "skill.display_md_truncated",
                "info",
                f"display_md was cut to its first {display_keep} characters in the receipt; "
                "the full text stays in the offloaded file.",
                "display_md",
            )
        )
    return OffloadResult.model_construct(
        offloaded=True, serialized_chars=chars, receipt=receipt, path=path, diagnostics=found
    )


# -- materialization (§7) ------------------------------------------------------------------

EXPLICIT_URL_FIELDS = (
    "urls",
    "image_url",
    "image_urls",
    "video_url",
    "video_urls",
    "audio_url",
    "audio_urls",
    "file_url",
    "file_urls",
    "output_url",
    "result_url",
    "oss_url",
    "cdn_url",
    "download_url",
    "abs_url",
)
AMBIGUOUS_URL_FIELDS = ("url", "link", "href", "src", "image", "video", "audio", "file")
_SOURCE_LISTS = ("images", "videos", "audios", "files", "artifacts")
_SKIPPED_CONTENT_TYPES = frozenset({"text/html", "application/xhtml+xml", "application/json"})


def _urls(value: Any) -> list[str]:
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else []
    out: list[str] = []
    for item in items:
        if isinstance(item, str):
            trimmed = item.strip()
            if ascii_lower(trimmed[:8]) == "https://" or ascii_lower(trimmed[:7]) == "http://":
                out.append(trimmed)
    return out


def _sources(result: Mapping[Any, Any]) -> list[tuple[Mapping[Any, Any], str]]:
    sources: list[tuple[Mapping[Any, Any], str]] = [(result, "")]
    for key in _SOURCE_LISTS:
        entries = result.get(key)
        if isinstance(entries, list):
            for i, entry in enumerate(entries):
                if isinstance(entry, Mapping):
                    sources.append((entry, join_path(key, i)))
    return sources


def materialize_plan(result: Any) -> MaterializePlan:
    """Remote URLs the platform downloads (``explicit``) or probes first (``probe``) (§7)."""
    if not isinstance(result, Mapping):
        return MaterializePlan.model_construct(explicit=[], probe=[], diagnostics=[])
    found: list[Diagnostic] = []
    explicit: list[str] = []
    probe: list[str] = []
    for fields, sink in ((EXPLICIT_URL_FIELDS, explicit), (AMBIGUOUS_URL_FIELDS, probe)):
        for source, _path in _sources(result):
            if py_usable(source.get("local_path")):
                continue
            for name in fields:
                sink.extend(_urls(source.get(name)))
    for source, path in _sources(result):
        if py_usable(source.get("local_path")) and any(
            _urls(source.get(n)) for n in (*EXPLICIT_URL_FIELDS, *AMBIGUOUS_URL_FIELDS)
        ):
            found.append(
                diag(
                    "skill.materialize_skipped_local",
                    "info",
                    "this entry has a local_path, so its URL fields are not downloaded; drop "
                    "the URLs or the local_path so it is clear which one is the artifact.",
                    join_path(path, "local_path") if path else "local_path",
                )
            )
    seen: set[str] = set()
    explicit_out: list[str] = []
    probe_out: list[str] = []
    for urls, sink in ((explicit, explicit_out), (probe, probe_out)):
        for url in urls:
            if url not in seen:
                seen.add(url)
                sink.append(url)
    total = len(explicit_out) + len(probe_out)
    if total > MATERIALIZE_MAX:
        kept_explicit = explicit_out[:MATERIALIZE_MAX]
        kept_probe = probe_out[: MATERIALIZE_MAX - len(kept_explicit)]
        found.append(
            diag(
                "skill.materialize_capped",
                "warning",
                f"{total} candidate URLs but at most {MATERIALIZE_MAX} are materialized per "
                f"result; {total - MATERIALIZE_MAX} were dropped. Return fewer URLs or package "
                "them (an archive, or files in the workspace).",
                "$",
            )
        )
        explicit_out, probe_out = kept_explicit, kept_probe
    return MaterializePlan.model_construct(
        explicit=explicit_out, probe=probe_out, diagnostics=found
    )


def is_materializable_content_type(content_type: str | None) -> bool:
    """False for web pages and JSON (the probe skips them); parameters are ignored (§7.7)."""
    if content_type is None:
        return True
    if not isinstance(content_type, str):
        raise InvalidInput("content_type must be a string or None")
    media = ascii_lower(content_type.split(";", 1)[0].strip())
    return media not in _SKIPPED_CONTENT_TYPES and not media.endswith("+json")


# -- display_md (§5) -----------------------------------------------------------------------

_RICH_CHANNELS = ("web", "web_admin")


def _block(item: Any) -> tuple[Any, bool]:
    if isinstance(item, Mapping):
        return item.get("display_md"), item.get("display_only") is True
    return item, False


def explain_display_md(
    body: str,
    blocks: Sequence[str | Mapping[str, Any]],
    channel: str,
    *,
    honor_display_only: bool = False,
) -> DisplayPlacement:
    """:func:`place_display_md` with the indexes appended and a diagnostic per skipped block."""
    if not isinstance(body, str):
        raise InvalidInput("body must be a string")
    if isinstance(blocks, (str, Mapping)) or not isinstance(blocks, Sequence):
        raise InvalidInput("blocks must be a list of display_md strings or skill results")
    require_str(channel, "channel")
    require_bool(honor_display_only, "honor_display_only")
    rich = channel in _RICH_CHANNELS
    parsed = [_block(b) for b in blocks]
    found: list[Diagnostic] = []
    if rich and honor_display_only and any(only and py_usable(md) for md, only in parsed):
        # The specified meaning: the model's body is replaced by the display blocks.
        body = ""
    appended: list[int] = []
    for i, (md, _only) in enumerate(parsed):
        if not py_usable(md):
            continue
        where = join_path(join_path("blocks", i), "display_md")
        if not rich:
            found.append(
                diag(
                    "skill.display_md_dropped",
                    "info",
                    f"channel {channel!r} is not a rich channel (web, web_admin); display_md is "
                    "not appended and the model relays the content itself.",
                    where,
                )
            )
            continue
        if md.strip() in body:
            found.append(
                diag(
                    "skill.display_md_dropped",
                    "info",
                    "the body already contains this display_md block verbatim; it is not "
                    "appended again.",
                    where,
                )
            )
            continue
        body = md if not body.strip() else body.rstrip() + "\n\n" + md
        appended.append(i)
    return DisplayPlacement.model_construct(body=body, appended=appended, diagnostics=found)


def place_display_md(
    body: str,
    blocks: Sequence[str | Mapping[str, Any]],
    channel: str,
    *,
    honor_display_only: bool = False,
) -> str:
    """The shown body: each usable ``display_md`` appended on rich channels unless present.

    ``blocks`` are ``display_md`` strings or whole skill results, in call order.
    ``display_only`` is ignored as on the current platform unless ``honor_display_only``.
    """
    return explain_display_md(body, blocks, channel, honor_display_only=honor_display_only).body


# -- fallback artifacts (§6.1) -------------------------------------------------------------

_SCRIPT_EXTENSIONS = frozenset({"py", "js", "sh", "log", "tmp", "srt", "pyc"})
_INTERMEDIATE = ("*_import_*.json", "*.bak", "*backup*", "*tmp*")


def backfill_report(
    names: Iterable[str], result: Any, *, user_wants_scripts: bool = False
) -> BackfillResult:
    """:func:`backfill_candidates` with a warning for each intermediate-looking name."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise InvalidInput("names must be a list of file names")
    listed = list(names)
    if not all(isinstance(n, str) for n in listed):
        raise InvalidInput("names must be strings")
    require_bool(user_wants_scripts, "user_wants_scripts")
    if not isinstance(result, Mapping):
        return BackfillResult.model_construct(names=[], diagnostics=[])
    if py_usable(result.get("filename")) or py_usable(result.get("local_path")):
        return BackfillResult.model_construct(names=[], diagnostics=[])
    out: list[str] = []
    found: list[Diagnostic] = []
    for name in listed:
        if not name or "/" in name or name.startswith((".", "toolout_")):
            continue
        dot = name.rfind(".")
        ext = ascii_lower(name[dot + 1 :]) if dot > 0 else ""
        if ext in _SCRIPT_EXTENSIONS and not user_wants_scripts:
            continue
        out.append(name)
        low = ascii_lower(name)
        if any(fnmatch.fnmatchcase(low, pattern) for pattern in _INTERMEDIATE):
            found.append(
                diag(
                    "skill.intermediate_file_collected",
                    "warning",
                    f"{name!r} looks like an intermediate file but sits at the workspace root, "
                    "so it is shown as an attachment; put working files in a subdirectory and "
                    "delete them on success.",
                    join_path("names", len(out) - 1),
                )
            )
    return BackfillResult.model_construct(names=out, diagnostics=found)


def backfill_candidates(
    names: Iterable[str], result: Any, *, user_wants_scripts: bool = False
) -> list[str]:
    """Top-level workspace names the fallback collection would attach, in order (§6.1)."""
    return backfill_report(names, result, user_wants_scripts=user_wants_scripts).names


# -- retries, async, wall clocks (§3.1, §9) ------------------------------------------------

_RETRIED = ("TimeoutError", "ConnectionError", "OSError", "OperationalError", "InterfaceError")


def _retried_kind(kind: str | BaseException | type[BaseException]) -> bool:
    if isinstance(kind, BaseException):
        kind = type(kind)
    if isinstance(kind, type):
        return any(cls.__name__ in _RETRIED for cls in kind.__mro__)
    if not isinstance(kind, str):
        raise InvalidInput("exception_kind must be an exception, its class or its name")
    name = kind.rsplit(".", 1)[-1]
    if name in _RETRIED:
        return True
    builtin = getattr(builtins, name, None)
    return isinstance(builtin, type) and issubclass(builtin, OSError)


def max_runs(
    exception_kind: str | BaseException | type[BaseException],
    *,
    failed_this_round: bool,
    role_recent_failures: int,
) -> int:
    """How many runs in total the platform gives a skill whose exception escaped (§3.1)."""
    if isinstance(role_recent_failures, bool) or not isinstance(role_recent_failures, int):
        raise InvalidInput("role_recent_failures must be an integer (0, 1 or 2)")
    if role_recent_failures < 0:
        raise InvalidInput("role_recent_failures must not be negative")
    require_bool(failed_this_round, "failed_this_round")
    if not _retried_kind(exception_kind):
        return 1
    if failed_this_round or role_recent_failures >= 2:
        return 1
    return 3


def async_dispatch(channel: str, external_id: str | None = None) -> Literal["sync", "background"]:
    """Whether an ``async: true`` skill runs in the conversation or in the background (§9.1)."""
    if not isinstance(channel, str):
        raise InvalidInput("channel must be a string")
    require_str(external_id, "external_id", optional=True)
    if isinstance(external_id, str) and external_id.startswith("orgdeleg:"):
        return "background"
    return "sync" if channel in _RICH_CHANNELS else "background"


def async_ack(message: str) -> dict[str, Any]:
    """The envelope an async skill returns at once on non-web channels (§9.1)."""
    if not isinstance(message, str):
        raise InvalidInput("message must be a string")
    return {"ok": True, "async": True, "message": message}


def background_text(result: Any) -> str | None:
    """The text pushed for a background result without media: message, result or text (§9.3)."""
    if not isinstance(result, Mapping):
        return None
    for key in ("message", "result", "text"):
        value = result.get(key)
        if py_usable(value):
            return str(value)
    return None


def fill_local_path(result: Any, workspace_dir: str) -> Any:
    """A background result that returned only ``filename`` gets ``local_path`` (§9.3).

    Returns a new object with ``local_path = <workspace>/<filename>``, or ``result`` itself
    when there is nothing to fill.
    """
    if not isinstance(workspace_dir, str):
        raise InvalidInput("workspace_dir must be a string")
    if not isinstance(result, Mapping) or py_usable(result.get("local_path")):
        return result
    filename = result.get("filename")
    if not py_usable(filename):
        return result
    base = workspace_dir if workspace_dir.endswith("/") else workspace_dir + "/"
    return {**result, "local_path": f"{base}{filename}"}


def resolve_wall_sec(
    *,
    wall_sec: Any = None,
    timeout_sec: Any = None,
    metadata_timeout: Any = None,
    policy: Any = None,
) -> int:
    """A skill's inner wall clock in seconds: first positive finite value, else 600; ≤ 1800."""
    for value in (wall_sec, timeout_sec, metadata_timeout, policy):
        if is_number(value) and value > 0:
            seconds = value if isinstance(value, int) else math.ceil(value)
            return int(min(seconds, SKILL_WALL_HARDCAP))
    return SKILL_WALL_DEFAULT
