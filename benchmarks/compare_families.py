"""Same-run comparison of two revisions on chosen hostile families: seconds per MB.

    python benchmarks/compare_families.py BEFORE [--after REV] [--runs 3] CASE [CASE ...]

A CASE is ``family:op`` or ``family:op:mode``: a family of ``adversarial.py``'s ``FAMILIES``
(sized about 1 MB), an op of its ``op_functions`` (``media``, ``directives``, ``reply``,
``embed``, ``render``), and ``e`` to run it with ``explain=True`` or ``s`` to stream it in
64-character chunks instead. Each revision is installed into its own venv as ``compare.py``
does (``--after`` defaults to the working tree); each run is one process per revision, alternating,
that times every case once after a warm-up. Both sides build the inputs with this checkout's
``adversarial.py``. The table gives the median s/MB over the runs and
before/after (> 1 is faster). Example (the README's 2026-12-02 table)::

    python benchmarks/compare_families.py f248d46 --runs 3 \\
        malformed_reply_tags_one_line:reply:e reply_to_openers_one_close:reply:e
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import compare  # noqa: E402

# Run inside each revision's venv, from this checkout's benchmarks/ folder.
_TIMER = r"""
import json, sys, time
import adversarial
out = {}
for case in sys.argv[1:]:
    family, op, *rest = case.split(":")
    mode = rest[0] if rest else ""
    make = adversarial.FAMILIES[family]
    text = make(adversarial.family_n(make))
    fn = adversarial.stream if mode == "s" else adversarial.op_functions(None, mode == "e")[op]
    fn(text[:2000])  # warm-up: grammars, parsers
    t0 = time.perf_counter()
    fn(text)
    out[case] = (time.perf_counter() - t0) / (len(text) / (1 << 20))
print(json.dumps(out))
"""


def _time(venv: Path, cases: list[str]) -> dict[str, float]:
    out = subprocess.run(
        [str(venv / "bin" / "python"), "-c", _TIMER, *cases],
        # This checkout's families on both sides: an older revision may lack the newer ones,
        # and the inputs must be the same for the comparison to mean anything.
        cwd=HERE,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> int:
    """Time the cases in both revisions alternately and print the comparison table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("cases", nargs="+", metavar="CASE")
    ap.add_argument("--after", default=None, help="a revision (default: the working tree)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    compare.WORK.mkdir(parents=True, exist_ok=True)
    sides = {
        "before": compare._prepare(args.before, "before"),
        "after": compare._prepare(args.after, "after"),
    }
    results: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for i in range(args.runs):
        order = list(sides) if i % 2 == 0 else list(sides)[::-1]
        for side in order:
            results[side].append(_time(sides[side][1], args.cases))
    print(f"before={args.before} after={args.after or 'working tree'} runs={args.runs}")
    print("| case | before s/MB | after s/MB | before/after |")
    print("|---|---:|---:|---:|")
    for case in args.cases:
        b = statistics.median(r[case] for r in results["before"])
        a = statistics.median(r[case] for r in results["after"])
        print(f"| {case} | {b:.3f} | {a:.3f} | {b / a:.2f} |")
    for src, _venv in sides.values():
        subprocess.run(
            ["git", "-C", str(compare.REPO), "worktree", "remove", "--force", str(src)],
            check=False,
            capture_output=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
