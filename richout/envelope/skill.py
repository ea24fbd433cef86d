"""Skill return envelopes (SKILL_ENVELOPE.md): how a skill platform reads what a skill returned.

:func:`classify` says whether a result failed, why, whether the model may correct itself,
whether it counts against the round's failure budget and whether the skill is blacklisted
(§2-§4). The rest of SKILL_ENVELOPE.md lives beside it: ``skill_failure`` (the reading rules),
``skill_findings`` (what classify tells the author), ``skill_budget`` (§10), ``skill_offload``
(§8), ``skill_artifacts`` (§6.1, §7), ``skill_display`` (§5) and ``skill_runs`` (§3.1, §9).

The platform is Python, so "whitespace" here is Python's (``str.isspace``), lengths are code
points and serializations are ``json.dumps(..., ensure_ascii=False)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from richout.envelope._common import contains_any, py_usable
from richout.envelope.models import SkillClassification
from richout.envelope.skill_failure import has_recoverable_signal, read_failure
from richout.envelope.skill_findings import ClassifyFacts, classify_findings

__all__ = ["classify"]

_CONFIG_MARKERS = ("未配置", "密钥", "api_key", "401")


def classify(result: Any) -> SkillClassification:
    """Failure, reason, recoverability, budget and blacklist of one return value (§2-§4)."""
    failed, reason, reason_field, flag = read_failure(result)
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
    signal = has_recoverable_signal(result)
    recoverable = failed and signal
    counts = failed and not signal
    effective = counts and result.get("non_retriable") is True
    warning = result.get("warning")
    partial = not failed and (result.get("completed") is False or py_usable(warning))
    config_error = bool(failed and reason is not None and contains_any(reason, _CONFIG_MARKERS))
    found = classify_findings(
        ClassifyFacts(
            result=result,
            failed=failed,
            reason=reason,
            reason_field=reason_field,
            flag=flag,
            signal=signal,
            recoverable=recoverable,
            config_error=config_error,
            partial=partial,
        )
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
