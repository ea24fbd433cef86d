"""Same-process comparison of a revision with the working tree, call by call.

    python benchmarks/interleave.py BEFORE [--rounds 5] [--ops media,reply,render]
                                   [--by-kind] [--runs 3] [CASE ...]
    python benchmarks/interleave.py BEFORE --passes 15 [--ops media,reply,render]

``compare.py`` installs each side and alternates processes. On a VM whose speed moves by a
factor of two within minutes (seen on 2026-12-02: the same corpus pass took 39 ms, then
72 ms), two processes a minute apart can differ by more than the change being measured.
Here both sides run in one process, one call after the other: ``BEFORE``'s ``richout``
package is copied out of git into a temporary directory as ``richout_before`` (its own
imports renamed, the grammars beside it), so both import side by side, and each corpus
reply is timed ``--rounds`` times per side, alternating (and which side goes first),
keeping each side's fastest call.
The table gives each pipeline's corpus total per side and the speed-up (before / after,
> 1 is faster). ``--passes N`` times whole-corpus passes instead, as ``bench.py`` does (a
reply's first call is then the one timed, as in a gateway), with the trigger scan in the
same passes: each side's ratio to it, issue 8's corpus figure, before and after in one run.
``--by-kind`` adds the totals per kind of reply (``M``: ``media:``, ``T``:
``[[``, ``E``: ``[embed``, ``F``: a fence; ``-``: none of them).

A CASE is ``family:op`` as in ``compare_families.py`` (``op`` one of ``media``,
``directives``, ``reply``, ``embed``, ``render``, ``stream``; ``:e`` after it explains):
the ~1 MB family from ``adversarial.py`` (``--size`` characters: a family whose old side
costs a minute a MB is timed at 256 KB) run ``--runs`` times per side, alternating, in
s/MB (the fastest run of each), with a full collection before each run.

Both sides run from source (pure Python) in this interpreter, with this checkout's corpus
and families; the installed-wheel comparison stays ``compare.py``'s.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import adversarial  # noqa: E402
import bench  # noqa: E402

BEFORE_NAME = "richout_before"
_CASE_OPS = ("media", "directives", "reply", "embed", "render", "stream")
_IMPORT_NAME = re.compile(r"\brichout\b(?=[.\s,;)]|$)", re.MULTILINE)
_LEFT_IMPORT = re.compile(
    r"(?m)^\s*(?:from|import)\s+richout\b(?!_)|import_module\(\W*richout\b(?!_)"
)


def load_before(rev: str, into: Path) -> ModuleType:
    """``rev``'s ``richout`` package, importable as :data:`BEFORE_NAME` from ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "richout", "grammars"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    package = into / BEFORE_NAME
    shutil.move(str(into / "richout"), package)
    for path in package.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        # Module paths only (``richout.x``, ``import richout``, ``files("richout")``); a
        # word inside prose changes nothing either way.
        renamed = _IMPORT_NAME.sub(BEFORE_NAME, source).replace('"richout"', f'"{BEFORE_NAME}"')
        missed = _LEFT_IMPORT.search(renamed)
        if missed is not None:
            # A missed import would run the working tree's code on the "before" side.
            raise SystemExit(f"{path}: import left unrenamed: {missed.group(0)!r}")
        path.write_text(renamed, encoding="utf-8")
    sys.path.insert(0, str(into))
    return importlib.import_module(BEFORE_NAME)


def pipelines(mod: Any, explain: bool = False) -> dict[str, Callable[[str], Any]]:
    """The pipelines a corpus pass or a CASE can name, from one side's package."""

    def stream(text: str) -> None:
        p = mod.StreamingParser()
        for i in range(0, len(text), adversarial.CHUNK):
            p.feed(text[i : i + adversarial.CHUNK])
        p.finish()

    return {
        "media": lambda t: mod.split_media(t, explain=explain),
        "directives": lambda t: mod.parse_directives(t, explain=explain),
        "reply": lambda t: mod.parse_reply(t, explain=explain),
        "embed": lambda t: mod.extract_embeds(t, explain=explain),
        "render": lambda t: mod.render_reply(t, explain=explain),
        "stream": stream,
    }


def kind(reply: str) -> str:
    """The reply's kind for ``--by-kind``: which triggers it holds."""
    out = ("M" if "media:" in reply.lower() else "") + ("T" if "[[" in reply else "")
    out += ("E" if "[embed" in reply else "") + ("F" if "```" in reply or "~~~" in reply else "")
    return out or "-"


def _pair(
    f_old: Callable[[str], Any],
    f_new: Callable[[str], Any],
    text: str,
    new_first: bool,
    collect: bool = False,
) -> tuple[float, float]:
    """One timed call per side, in the order given: alternating the order across rounds
    keeps a cost that lands on whichever call runs second off one side. ``collect``: a
    full collection before each call, so that the garbage of a ~1 MB call is not collected
    inside the next one's timing (the pipelines pause the collector only once they run)."""
    perf = time.perf_counter
    times = {}
    for side, fn in (
        (("new", f_new), ("old", f_old))
        if new_first
        else (
            ("old", f_old),
            ("new", f_new),
        )
    ):
        if collect:
            gc.collect()
        t0 = perf()
        fn(text)
        times[side] = perf() - t0
    return times["old"], times["new"]


def corpus(before: Any, after: Any, ops: list[str], rounds: int, by_kind: bool) -> None:
    """Per pipeline: the sums of each reply's fastest call, both sides alternating."""
    replies = bench.load_replies()
    old, new = pipelines(before), pipelines(after)
    for r in replies[:200]:  # grammars, caches and specialised bytecode on both sides first
        for op in ops:
            old[op](r)
            new[op](r)
    print("| pipeline | replies | before ms | after ms | speed-up |\n|---|---|---:|---:|---:|")
    for op in ops:
        f_old, f_new = old[op], new[op]
        totals: dict[str, list[float]] = {}
        for r in replies:
            b_old = b_new = float("inf")
            for i in range(rounds):
                t_old, t_new = _pair(f_old, f_new, r, i % 2 == 1)
                b_old = min(b_old, t_old)
                b_new = min(b_new, t_new)
            for key in ("all", kind(r)) if by_kind else ("all",):
                row = totals.setdefault(key, [0, 0.0, 0.0])
                row[0] += 1
                row[1] += b_old
                row[2] += b_new
        for key, (count, t_old, t_new) in sorted(totals.items(), key=lambda kv: -kv[1][1]):
            print(
                f"| {op} ({key}) | {count} | {t_old * 1e3:.2f} | {t_new * 1e3:.2f} "
                f"| {t_old / t_new:.3f} |"
            )


def passes(before: Any, after: Any, ops: list[str], count: int) -> None:
    """Whole-corpus passes as ``bench.py`` times them: each pass runs the trigger scan and
    each side of each pipeline once over every reply (called directly, the order reversed
    every other pass, the collector off), and the table gives each side's median pass and
    its ratio to the scan's (issue 8's figure, before and after in the same run)."""
    replies = bench.load_replies()
    runs: dict[str, Callable[[str], Any]] = {"scan": bench.trigger_scan}
    for op in ops:
        if op not in _DIRECT:
            raise SystemExit(f"--passes times {sorted(_DIRECT)}, not {op!r}")
        runs[f"before {op}"] = getattr(before, _DIRECT[op])
        runs[f"after {op}"] = getattr(after, _DIRECT[op])
    for fn in runs.values():
        for r in replies[:200]:
            fn(r)
    samples = bench.time_passes(runs, replies, count, alternate=True)
    scan = statistics.median(samples["scan"])
    print(f"\ntrigger scan: {scan * 1e3:.2f} ms a pass (median of {count})")
    print("| pipeline | before ms | × scan | after ms | × scan | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    for op in ops:
        b = statistics.median(samples[f"before {op}"])
        a = statistics.median(samples[f"after {op}"])
        print(
            f"| {op} | {b * 1e3:.2f} | {b / scan:.2f} | {a * 1e3:.2f} | {a / scan:.2f} "
            f"| {b / a:.3f} |"
        )


#: The public function each corpus pipeline names (``--passes`` calls them directly).
_DIRECT = {
    "media": "split_media",
    "directives": "parse_directives",
    "reply": "parse_reply",
    "embed": "extract_embeds",
    "render": "render_reply",
}


def cases(before: Any, after: Any, names: list[str], runs: int, size: int) -> None:
    """Each CASE's fastest run per side, in s/MB, alternating, at about ``size`` characters."""
    print("\n| case | before s/MB | after s/MB | speed-up |\n|---|---:|---:|---:|")
    for case in names:
        family, op, *mode = case.split(":")
        if family not in adversarial.FAMILIES or op not in _CASE_OPS:
            raise SystemExit(
                f"unknown case {case!r}: family:op[:e], a family of "
                f"{sorted(adversarial.FAMILIES)} and an op of {list(_CASE_OPS)}"
            )
        explain = mode == ["e"]
        make = adversarial.FAMILIES[family]
        text = make(adversarial.family_n(make, size))
        f_old, f_new = pipelines(before, explain)[op], pipelines(after, explain)[op]
        f_old(text[:3000])
        f_new(text[:3000])
        b_old = b_new = float("inf")
        for i in range(runs):
            t_old, t_new = _pair(f_old, f_new, text, i % 2 == 1, collect=True)
            b_old = min(b_old, t_old)
            b_new = min(b_new, t_new)
        mb = len(text) / 2**20
        print(f"| {case} | {b_old / mb:.3f} | {b_new / mb:.3f} | {b_old / b_new:.3f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("before", help="a git revision (the working tree is the other side)")
    ap.add_argument("cases", nargs="*", help="family:op[:e] cases (see the module docs)")
    ap.add_argument("--rounds", type=int, default=5, help="calls per reply and side")
    ap.add_argument("--runs", type=int, default=3, help="runs per case and side")
    ap.add_argument("--ops", default="media,reply,render", help="corpus pipelines ('' for none)")
    ap.add_argument("--by-kind", action="store_true", help="totals per kind of reply too")
    ap.add_argument(
        "--passes",
        type=int,
        default=0,
        help="whole-corpus passes per side instead (bench.py's way)",
    )
    ap.add_argument("--size", type=int, default=adversarial.MB, help="a case's characters (about)")
    args = ap.parse_intermixed_args()
    sys.path.insert(0, str(REPO))
    after = importlib.import_module("richout")
    with tempfile.TemporaryDirectory(prefix="richout-interleave-") as tmp:
        before = load_before(args.before, Path(tmp))
        print(f"before: {args.before} ({before.__file__})\nafter: working tree ({after.__file__})")
        ops = [op for op in args.ops.split(",") if op]
        if ops and args.passes:
            passes(before, after, ops, args.passes)
        elif ops:
            corpus(before, after, ops, args.rounds, args.by_kind)
        if args.cases:
            cases(before, after, args.cases, args.runs, args.size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
