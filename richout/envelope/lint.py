"""The envelope linter for skill authors (SKILL_ENVELOPE.md §11, seed §1 authoring rules).

:func:`lint` runs every check richout can make on one return value — classification,
materialization and offload diagnostics, plus a check for exceptions that escaped as text —
and pairs each finding with the authoring rule it breaks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from richout.envelope._common import diag
from richout.envelope.models import LintFinding
from richout.envelope.skill import classify
from richout.envelope.skill_artifacts import materialize_plan
from richout.envelope.skill_offload import offload
from richout.errors import InvalidInput, require_str
from richout.models import Diagnostic

__all__ = ["RULES", "lint"]

_R_FIX = "Recoverable errors must be marked recoverable and say how to fix them."
_R_REASON = "A failure must give a model-facing reason in error."
_R_WORDING = "Never write 'internal error' or 'contact the administrator'."
_R_PARTIAL = "Partial success must state both the success and the failure counts."
_R_NON_RETRIABLE = (
    "non_retriable is only for deployment-level failures (missing module, wrong "
    "configuration, insufficient authorisation)."
)
_R_CODE = "Do not express failure through a code field; use success/ok false."
_R_CONFIG = "Configuration errors must not carry operating instructions."
_R_BARE = "Catch timeouts and connection errors; do not let them escape bare."
_R_FLAGS = "success/ok are JSON booleans; false means failure."
_R_ERROR_TYPE = (
    "error_type is one of recoverable, retryable, need_input, need_param, config, transient."
)
_R_DISPLAY = "Do not rely on display_only; it is not implemented."
_R_OFFLOAD = "Keep results small, or put bulky data in list fields and key facts in scalars."
_R_ARTIFACTS = "Return at most 8 downloadable URLs, and either a local_path or URLs per artifact."
_R_JSON = "A return value must be JSON (string keys, reasonable nesting)."

#: The authoring rule behind each finding code.
RULES: dict[str, str] = {
    "skill.failure_without_reason": _R_REASON,
    "skill.internal_error_wording": _R_WORDING,
    "skill.recoverable_without_fix": _R_FIX,
    "skill.unknown_error_type": _R_ERROR_TYPE,
    "skill.non_retriable_ignored": _R_NON_RETRIABLE,
    "skill.non_retriable_misuse": _R_NON_RETRIABLE,
    "skill.non_retriable_not_bool": _R_NON_RETRIABLE,
    "skill.non_bool_flag": _R_FLAGS,
    "skill.conflicting_flags": _R_FLAGS,
    "skill.code_field_failure": _R_CODE,
    "skill.config_error_guidance": _R_CONFIG,
    "skill.partial_without_counts": _R_PARTIAL,
    "skill.display_only_unimplemented": _R_DISPLAY,
    "skill.offloaded": _R_OFFLOAD,
    "skill.display_md_truncated": _R_OFFLOAD,
    "skill.materialize_capped": _R_ARTIFACTS,
    "skill.materialize_skipped_local": _R_ARTIFACTS,
    "skill.bare_exception": _R_BARE,
    "skill.not_json": _R_JSON,
}

# An exception's text as Python prints it: a traceback, or "SomeError: message" at the start.
_TRACEBACK = "Traceback (most recent call last)"
_EXCEPTION_HEAD = re.compile(
    r"(?:[A-Za-z_][A-Za-z0-9_]*\.)*"
    r"(TimeoutError|ConnectionError|ConnectionResetError|ConnectionRefusedError|"
    r"ConnectionAbortedError|BrokenPipeError|OSError|OperationalError|InterfaceError|"
    r"ReadTimeout|ConnectTimeout|timeout)\b"
)


def _bare_exception(result: Any) -> list[Diagnostic]:
    if not isinstance(result, Mapping):
        return []
    found: list[Diagnostic] = []
    for key in ("stderr", "error", "msg", "user_message"):
        value = result.get(key)
        if not isinstance(value, str):
            continue
        # An exception name is at the very start; looking further is never needed.
        match = _EXCEPTION_HEAD.match(value.lstrip()[:200])
        if _TRACEBACK in value or match:
            what = match.group(1) if match else "a traceback"
            transient = result.get("error_type") == "transient"
            found.append(
                diag(
                    "skill.bare_exception",
                    "warning" if not transient else "info",
                    f"{key} holds a raw exception ({what}): the exception reached the envelope "
                    "as text. Catch timeouts and connection errors inside the skill (make writes "
                    "idempotent) and return a readable error"
                    + ("" if transient else ' with error_type "transient"')
                    + "; an exception that escapes makes the platform re-run the whole skill.",
                    key,
                )
            )
    return found


def lint(result: Any, *, skill: str = "skill") -> list[LintFinding]:
    """Every finding for one skill return value, each with the rule it breaks."""
    require_str(skill, "skill")
    found: list[Diagnostic] = list(classify(result).diagnostics)
    found.extend(_bare_exception(result))
    found.extend(materialize_plan(result).diagnostics)
    try:
        found.extend(offload(result, skill=skill).diagnostics)
    except InvalidInput as exc:
        found.append(diag("skill.not_json", "error", str(exc), "$"))
    return [
        LintFinding(
            code=d.code,
            severity=d.severity,
            message=d.message,
            field=d.field,
            rule=RULES.get(d.code, "See SKILL_ENVELOPE.md."),
        )
        for d in found
    ]
