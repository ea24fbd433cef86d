"""Offload of large skill results (SKILL_ENVELOPE.md §8).

A successful object result whose serialization is longer than
:data:`TOOL_RESULT_OFFLOAD_CHARS` is written whole to ``.toolout/`` in the workspace, and the
context keeps a receipt: the path, the size, the first keys, small scalars and artifacts, and a
count and sample of each list. :func:`offload` builds that receipt and explains what it kept.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from richout.envelope._common import diag, require_callable, require_int
from richout.envelope.models import OffloadResult
from richout.envelope.skill_failure import read_failure
from richout.errors import InvalidInput
from richout.models import Diagnostic

__all__ = [
    "TOOL_DISPLAY_KEEP_CHARS",
    "TOOL_RESULT_OFFLOAD_CHARS",
    "offload",
    "serialize_result",
]

TOOL_RESULT_OFFLOAD_CHARS = 12_000
TOOL_DISPLAY_KEEP_CHARS = 15_000

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
    failed, _, _, _ = read_failure(result)
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
