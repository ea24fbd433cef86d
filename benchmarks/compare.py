"""Same-run comparison of two revisions: ``bench.py`` in each, alternating processes.

    python benchmarks/compare.py BEFORE [AFTER] [--runs 3] [--rounds 7] [--best]
                                 [--compiled-after]

Two versions of richout cannot be imported in one process, so each revision is installed
as a wheel into its own virtual environment (under ``$TMPDIR/richout-compare/``) and this
checkout's ``benchmarks/bench.py`` runs in each (the same measurement on both sides; it uses
the public API only), alternating before/after ``--runs`` times so that machine noise falls
on both alike. AFTER defaults to the working tree. The table gives, per pipeline, the median
over the runs of MB/s and of the ratio to the trigger-scan baseline measured in the same
process, and after/before (> 1 is faster). ``--best`` takes instead the fastest round of all
runs (noise only slows a round, so on a busy machine the fastest rounds compare best).
``--compiled-after`` installs the AFTER side as the optional compiled build
(``hatch_build.py``): ``compare.py HEAD --compiled-after`` on a clean tree compares the
pure-Python and the compiled build of the same code.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORK = Path(tempfile.gettempdir()) / "richout-compare"


def _prepare(rev: str | None, label: str, compiled: bool = False) -> tuple[Path, Path]:
    """A checkout of ``rev`` (None: the working tree) and a venv with it installed."""
    env = dict(os.environ)
    env.pop("HATCH_BUILD_HOOK_ENABLE_CUSTOM", None)
    if compiled:
        env["HATCH_BUILD_HOOK_ENABLE_CUSTOM"] = "1"
    src = WORK / f"src-{label}"
    venv = WORK / f"venv-{label}"
    if src.exists():
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "remove", "--force", str(src)],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(src, ignore_errors=True)
    if rev is None:
        shutil.copytree(REPO, src, ignore=shutil.ignore_patterns(".venv", ".git", "*.pyc"))
    else:
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "add", "--detach", str(src), rev],
            check=True,
            capture_output=True,
        )
    if not (venv / "bin" / "pip").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--force-reinstall", "--no-deps", str(src)],
        check=True,
        env=env,
    )
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(src)], check=True, env=env)
    return src, venv


def _bench(venv: Path, rounds: int) -> dict[str, dict[str, float]]:
    out = subprocess.run(
        [str(venv / "bin" / "python"), "bench.py", "--rounds", str(rounds), "--json"],
        cwd=Path(__file__).resolve().parent,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    rows = json.loads(out)
    return {r["pipeline"]: r for r in rows} if isinstance(rows, list) else rows


def main(argv: list[str] | None = None) -> int:
    """Run both revisions' benchmarks alternately and print the comparison table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after", nargs="?", default=None)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--compiled-after", action="store_true", help="AFTER as the compiled build")
    ap.add_argument(
        "--best",
        action="store_true",
        help="compare the fastest round of all runs instead of the median run's median round",
    )
    args = ap.parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    sides = {
        "before": _prepare(args.before, "before"),
        "after": _prepare(args.after, "after", compiled=args.compiled_after),
    }
    load = [os.getloadavg()[0]]
    results: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "after": []}
    for _ in range(args.runs):
        for side, (_src, venv) in sides.items():
            results[side].append(_bench(venv, args.rounds))
            load.append(os.getloadavg()[0])
    names = list(results["before"][0])
    print(
        f"before={args.before} after={args.after or 'working tree'}"
        f"{' (compiled)' if args.compiled_after else ''} runs={args.runs} "
        f"rounds={args.rounds}{' best' if args.best else ''} load {min(load):.2f}-{max(load):.2f}"
    )
    print("| pipeline | before MB/s | after MB/s | before × base | after × base | after/before |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        if not all(name in r for r in results["after"]):
            continue

        def med(side: str, key: str, name: str = name) -> float:
            if not args.best:
                return statistics.median(r[name][key] for r in results[side])
            if key == "mb_per_s":
                return max(r[name]["best_mb_per_s"] for r in results[side])
            # The fastest round of the pipeline over the fastest round of the baseline, each
            # over all runs (not the luckiest pairing within one run).
            fastest = min(r[name]["best_s"] for r in results[side])
            return fastest / min(r[names[0]]["best_s"] for r in results[side])

        b, a = med("before", "mb_per_s"), med("after", "mb_per_s")
        print(
            f"| {name} | {b:.1f} | {a:.1f} | {med('before', 'ratio_to_baseline'):.2f} | "
            f"{med('after', 'ratio_to_baseline'):.2f} | {a / b:.2f} |"
        )
    for src, _venv in sides.values():
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "remove", "--force", str(src)],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(src, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
