"""The round's failure budget and loop guard (SKILL_ENVELOPE.md §10).

:class:`FailureBudget` admits or refuses each skill call of a round: a skill that failed
``per_tool`` times, or called with the same arguments more than ``same_args`` times, is banned
for the rest of the round, and the round stops after ``total`` counted failures. Which failures
count is :func:`~richout.envelope.skill.classify`'s answer. :func:`run_budget` is the jsonl
``budget`` op.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, overload

from richout.envelope._common import require_int
from richout.envelope.models import BudgetDecision, BudgetReason, SkillClassification
from richout.envelope.skill import classify
from richout.errors import InvalidInput, require_bool, require_str

__all__ = [
    "FAIL_PER_TOOL",
    "FAIL_TOTAL",
    "SAME_ARGS_MAX",
    "BudgetCall",
    "FailureBudget",
    "canonical_args",
    "run_budget",
]

FAIL_PER_TOOL = 4
FAIL_TOTAL = 8
SAME_ARGS_MAX = 3


def canonical_args(args: Any) -> str:
    """JSON with sorted keys, compact separators and non-ASCII kept; the loop guard's key."""
    try:
        return json.dumps(args, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidInput(f"args must be a JSON value: {exc}") from exc


def _limit(value: Any, name: str, default: int) -> int:
    """One of the ``budget`` op's ``limits`` (camelCase names): absent means the default."""
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
        self.per_tool = per_tool
        self.total = total
        self.same_args = same_args
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
