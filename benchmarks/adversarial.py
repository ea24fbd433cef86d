"""Cost of every op on the hostile corpus: seconds and seconds per MB, worst first.

    python benchmarks/adversarial.py [--ops media,directives,reply,embed,render] [--top 15]

The inputs are ``make_corpus.py``'s ``adversarial.json`` (60 inputs, 17 MB: 1 MB lines,
100k ``MEDIA:`` lines, 100k ``[[``, unclosed ``[[reply_to:`` runs, 50k-backtick runs,
1000-deep containers, lone surrogates ...). Linear cost shows as a flat seconds-per-MB column.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import make_corpus  # noqa: E402

SEED = 20260520


def op_functions(options: dict[str, Any] | None) -> dict[str, Callable[[str], Any]]:
    """Each public pipeline, with the input's options where they apply."""
    import richout

    opts = options or {}
    media_kw = {
        "extract_markdown_images": bool(opts.get("extractMarkdownImages", False)),
        "markdown_image_allowlist": opts.get("markdownImageAllowlist"),
    }
    return {
        "media": lambda t: richout.split_media(t, **media_kw),
        "directives": richout.parse_directives,
        "reply": richout.parse_reply,
        "embed": richout.extract_embeds,
        "render": richout.render_reply,
    }


def main() -> int:
    """Time every op on every adversarial input and print the worst cases."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--ops", default="media,directives,reply,embed,render")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    wanted = args.ops.split(",")
    rows = []
    for name, text, _note, options in make_corpus.make_adversarial(SEED):
        mb = max(len(text.encode("utf-8", "surrogatepass")) / 1e6, 1e-6)
        for op, fn in op_functions(options).items():
            if op not in wanted:
                continue
            t0 = time.perf_counter()
            fn(text)
            dt = time.perf_counter() - t0
            rows.append((dt / mb, dt, mb, op, name))
    rows.sort(reverse=True)
    print("| input | op | MB | s | s / MB |")
    print("|---|---|---:|---:|---:|")
    for per_mb, dt, mb, op, name in rows[: args.top]:
        print(f"| {name} | {op} | {mb:.2f} | {dt:.3f} | {per_mb:.3f} |")
    total = sum(r[1] for r in rows)
    worst = rows[0]
    print(f"\n{len(rows)} runs, {total:.1f} s in all; worst {worst[0]:.3f} s/MB")
    print(f"(input {worst[4]}, op {worst[3]})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
