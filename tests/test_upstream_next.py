"""Profile ``next`` against the cases of upstream's own parser tests.

The table is ``tests/data/upstream_next_cases.json``: the inputs, options and expected values
that upstream's ``parse-output`` test file asserts (read_file id 70437216877, see PROFILES.md),
one case per asserted input. Only the fields upstream checks are listed in ``expect``:

- ``text``, ``media_urls``, ``segments``, ``rejected_media_count``, ``audio_as_voice``:
  equal to the wire value; ``null`` means the key is absent (upstream ``undefined``).
- ``media_segments``: the media segments only, in order.
- ``same_as``: the whole result equals the result for this other input (same options).
- ``calls``: run that many times, each result must match.
- ``max_seconds``: the wall-clock bound upstream puts on the call. It is not checked here (a
  busy machine must not fail a test); ``benchmarks/adversarial.py`` times these inputs.

``input`` (and an expected ``text``) may be a list of parts; ``{"repeat": s, "times": n}``
stands for ``s * n``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import richout

DATA = Path(__file__).parent / "data" / "upstream_next_cases.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]

WIRE_KEYS = {
    "text": "text",
    "media_urls": "mediaUrls",
    "segments": "segments",
    "rejected_media_count": "rejectedMediaCount",
    "audio_as_voice": "audioAsVoice",
}


def build(value: Any) -> Any:
    """Expand the parts notation of the table into a string."""
    if not isinstance(value, list):
        return value
    out = []
    for part in value:
        out.append(part["repeat"] * part["times"] if isinstance(part, dict) else part)
    return "".join(out)


def wire(result: richout.MediaSplit) -> dict[str, Any]:
    """The compared fields of a result, with upstream's key presence."""
    data = result.to_wire()
    return {key: data[key] for key in WIRE_KEYS.values() if key in data}


def mismatches(got: dict[str, Any], expect: dict[str, Any]) -> dict[str, Any]:
    """Every expected field that ``got`` does not satisfy, as ``{field: (expected, got)}``."""
    bad: dict[str, Any] = {}
    for field, want in expect.items():
        if field in WIRE_KEYS:
            key = WIRE_KEYS[field]
            want = build(want) if field == "text" else want
            have = got.get(key)
            if want is None:
                if key in got:
                    bad[field] = ("<absent>", have)
            elif key not in got or have != want:
                bad[field] = (want, got.get(key, "<absent>"))
        elif field == "media_segments":
            have = [s for s in got.get("segments", []) if s.get("type") == "media"]
            if have != want:
                bad[field] = (want, have)
    return bad


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES])
def test_upstream_next(case: dict[str, Any]) -> None:
    text = build(case["input"])
    options = case.get("options", {})
    expect = case["expect"]
    for _ in range(expect.get("calls", 1)):
        got = wire(richout.split_media(text, **options))
        assert not mismatches(got, expect), (case["id"], text[:300], options)
        if "same_as" in expect:
            assert got == wire(richout.split_media(expect["same_as"], **options))


def test_table_ids_are_unique() -> None:
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
