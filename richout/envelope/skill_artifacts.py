"""Which artifacts a skill result yields (SKILL_ENVELOPE.md §6.1, §7).

:func:`materialize_plan` lists the remote URLs the platform downloads (explicit URL fields) or
probes first (ambiguous ones), at most :data:`MATERIALIZE_MAX` per result (§7);
:func:`backfill_candidates` lists the workspace files the fallback collection attaches when a
result names no file of its own (§6.1).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from typing import Any

from richout.envelope._common import diag, join_path, py_usable
from richout.envelope.models import BackfillResult, MaterializePlan
from richout.errors import InvalidInput, require_bool
from richout.models import Diagnostic
from richout.text.chars import ascii_lower

__all__ = [
    "AMBIGUOUS_URL_FIELDS",
    "EXPLICIT_URL_FIELDS",
    "MATERIALIZE_MAX",
    "backfill_candidates",
    "backfill_report",
    "is_materializable_content_type",
    "materialize_plan",
]

MATERIALIZE_MAX = 8

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
