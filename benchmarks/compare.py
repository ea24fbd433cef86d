"""Same-run comparison of two revisions: ``bench.py`` in each, alternating processes.

    python benchmarks/compare.py BEFORE [AFTER] [--runs 3] [--rounds 7] [--best]
                                 [--compiled-after] [--per-reply N]

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

``--per-reply N`` runs ``bench.py --per-reply N`` instead: each reply timed alone, the
fastest of N calls, then the fastest over all runs of each side. The table gives each
pipeline's total over the corpus, its ratio to the same side's baseline total (which cancels
a machine that ran one side's processes faster) and the speed-up: the before ratio over the
after ratio (> 1 is faster, as in the other table).
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


def _per_reply(venv: Path, calls: int) -> dict[str, list[float]]:
    out = subprocess.run(
        [str(venv / "bin" / "python"), "bench.py", "--per-reply", str(calls)],
        cwd=Path(__file__).resolve().parent,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    times: dict[str, list[float]] = json.loads(out)
    return times


def _per_reply_table(results: dict[str, list[dict[str, list[float]]]]) -> None:
    """Per reply, the fastest over all runs of a side; totals and ratios to the baseline."""
    fastest = {
        side: {
            name: [min(t) for t in zip(*(r[name] for r in runs), strict=True)] for name in runs[0]
        }
        for side, runs in results.items()
    }
    names = list(fastest["before"])
    base = {side: sum(times[names[0]]) for side, times in fastest.items()}
    print("| pipeline | before ms | after ms | before × base | after × base | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in names:
        b, a = sum(fastest["before"][name]), sum(fastest["after"][name])
        rb, ra = b / base["before"], a / base["after"]
        print(f"| {name} | {b * 1e3:.1f} | {a * 1e3:.1f} | {rb:.2f} | {ra:.2f} | {rb / ra:.2f} |")


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
    ap.add_argument("--per-reply", type=int, metavar="N", help="each reply alone, best of N")
    args = ap.parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    sides = {
        "before": _prepare(args.before, "before"),
        "after": _prepare(args.after, "after", compiled=args.compiled_after),
    }
    load = [os.getloadavg()[0]]
    results: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "after": []}
    per_reply: dict[str, list[dict[str, list[float]]]] = {"before": [], "after": []}
    for i in range(args.runs):
        # Alternate which side runs first: a machine that slows down over time then
        # slows both alike.
        order = list(sides.items()) if i % 2 == 0 else list(sides.items())[::-1]
        for side, (_src, venv) in order:
            if args.per_reply:
                per_reply[side].append(_per_reply(venv, args.per_reply))
            else:
                results[side].append(_bench(venv, args.rounds))
            load.append(os.getloadavg()[0])
    mode = f"per reply, best of {args.per_reply}" if args.per_reply else f"rounds={args.rounds}"
    print(
        f"before={args.before} after={args.after or 'working tree'}"
        f"{' (compiled)' if args.compiled_after else ''} runs={args.runs} "
        f"{mode}{' best' if args.best else ''} load {min(load):.2f}-{max(load):.2f}"
    )
    if args.per_reply:
        _per_reply_table(per_reply)
        _cleanup(sides)
        return 0
    names = list(results["before"][0])
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
    _cleanup(sides)
    return 0


def _cleanup(sides: dict[str, tuple[Path, Path]]) -> None:
    """Remove the checkouts (the venvs stay for the next comparison)."""
    for src, _venv in sides.values():
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "remove", "--force", str(src)],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(src, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
