"""Hostile inputs get a result, in time linear in their size (a catastrophe guard, not a timing).

Every input of the shared adversarial corpus goes through every public text pipeline. The
bound is deliberately generous (seconds per MB on a slow CI machine); quadratic or cubic
behaviour on these inputs costs minutes to hours, so it still fails loudly.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import make_corpus

import richout

_INPUTS = make_corpus.make_adversarial(20260520)
_SECONDS_PER_MB = 60.0
_FLOOR = 5.0


def _ops(options: dict[str, Any] | None) -> dict[str, Any]:
    opts = options or {}
    return {
        "media": lambda t: richout.split_media(
            t,
            extract_markdown_images=bool(opts.get("extractMarkdownImages", False)),
            markdown_image_allowlist=opts.get("markdownImageAllowlist"),
        ),
        "directives": richout.parse_directives,
        "reply": richout.parse_reply,
        "embed": richout.extract_embeds,
        "render": richout.render_reply,
    }


@pytest.mark.parametrize(
    ("name", "text", "options"), [(n, t, o) for n, t, _, o in _INPUTS], ids=[n for n, *_ in _INPUTS]
)
def test_every_pipeline_finishes_and_keeps_the_text(
    name: str, text: str, options: dict[str, Any] | None
) -> None:
    mb = len(text.encode("utf-8", "surrogatepass")) / 1e6
    bound = _FLOOR + _SECONDS_PER_MB * mb
    for op, fn in _ops(options).items():
        t0 = time.perf_counter()
        result = fn(text)
        elapsed = time.perf_counter() - t0
        assert elapsed < bound, f"{op} took {elapsed:.1f}s on {name} ({mb:.2f} MB)"
        if hasattr(result, "edits"):
            assert richout.rebuild(result) == text, f"{op} lost text on {name}"


# Families whose cost once grew faster than their size (a fence scan that searched to the end
# of the text from every fence line was quadratic on the first one).
_FAMILIES: dict[str, Any] = {
    "backtick_fence_lines": lambda n: "MEDIA:/tmp/a.png\n" + "```\n" * n + "MEDIA:/tmp/b.png",
    "tilde_fence_lines": lambda n: "MEDIA:/tmp/a.png\n" + "~~~ x\n" * n,
    "media_lines": lambda n: "MEDIA:https://example.com/a.png\n" * n,
    "unclosed_reply_tags": lambda n: "[[reply_to:" * n + "\nMEDIA:/tmp/a.png",
    "backtick_runs": lambda n: "MEDIA:/tmp/a.png\n" + "`a" * n,
    "embed_openers": lambda n: '[embed ref="x" ' * n,
}


def _cost(fn: Any, text: str) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - t0)
    return best


@pytest.mark.parametrize("family", sorted(_FAMILIES))
def test_cost_grows_linearly(family: str) -> None:
    """Eight times the input costs far less than the 64 times a quadratic scan would."""
    make = _FAMILIES[family]
    small, large = make(5_000), make(40_000)
    for op, fn in _ops(None).items():
        ratio = _cost(fn, large) / max(_cost(fn, small), 1e-4)
        assert ratio < 24, f"{op} on {family}: 8x the input cost {ratio:.0f}x the time"
