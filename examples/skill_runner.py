"""A skill runner: read each skill's return envelope the way the platform does.

For every skill call of a round the runner asks the ``FailureBudget`` whether the call may run
(the loop guard, skills banned after too many or non-retriable failures, a round that has to wrap
up), then reads the return value with ``richout.envelope.classify``: success, partial success,
a recoverable failure (its reason goes back to the model, and it costs nothing), or a failure
that counts against the budget. Large successful results are offloaded: the whole result is
written to ``<workspace>/.toolout/`` and the model only sees the receipt. Remote URLs the
platform would download are listed with ``materialize_plan``, and ``lint`` points out envelope
problems for the skill's author.

    python examples/skill_runner.py                          # the bundled skill_calls.json
    python examples/skill_runner.py calls.json --workspace DIR   # [{tool, args, result}]

Without ``--workspace`` offloaded results go to a temporary directory that is removed at exit.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

from richout.envelope import FailureBudget, lint, materialize_plan, offload

SAMPLE = Path(__file__).with_name("skill_calls.json")


def writer(workspace: Path) -> Any:
    """A ``write(path, text)`` for :func:`offload` that creates the file's folder first."""

    def write(path: str, text: str) -> None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    return write


def run_call(
    budget: FailureBudget, n: int, call: dict[str, Any], workspace: Path
) -> dict[str, Any] | None:
    """Run one call under the budget; return what the model gets back (None: refused)."""
    tool, args, result = call["tool"], call.get("args"), call["result"]
    head = f"[{n}] {tool}({json.dumps(args, ensure_ascii=False)})"
    decision = budget.admit(tool, args)
    if not decision.allowed:
        print(f"{head}: refused ({decision.reason})")
        return None
    verdict = budget.record(tool, result)  # a SkillClassification, never None here
    if verdict.recoverable:
        status = f"recoverable failure, back to the model: {verdict.reason}"
    elif verdict.failed:
        status = (
            f"failed: {verdict.reason} "
            f"({budget.failures(tool)}/{budget.per_tool} for {tool}, "
            f"{budget.total_failures}/{budget.total} this round)"
        )
        if verdict.blacklist_this_round:
            status += "; not retriable, skill disabled for this round"
        if verdict.config_error:
            status += "; a configuration problem"
    elif verdict.partial:
        status = "partial success"
    else:
        status = "ok"
    print(f"{head}: {status}")

    plan = materialize_plan(result)
    for url in plan.explicit:
        print(f"    download {url}")
    for url in plan.probe:
        print(f"    probe, then download unless a web page: {url}")

    seen: dict[str, Any] = result
    stored = offload(result, skill=tool, write=writer(workspace), workspace_dir=str(workspace))
    if stored.offloaded and stored.receipt is not None and stored.path is not None:
        seen = stored.receipt
        where = Path(stored.path).relative_to(workspace)
        print(
            f"    offloaded {stored.serialized_chars} chars to {where}; the model sees a receipt:"
        )
        kept = [
            f"{k}=[{len(v)} items]" if k.endswith("_sample") else f"{k}={json.dumps(v)}"
            for k, v in seen.items()
            if k not in ("ok", "offloaded", "skill", "path", "chars", "_hint")
        ]
        print(f"    {' '.join(kept)}")

    for finding in lint(result, skill=tool):
        if finding.code != "skill.offloaded":  # already reported above
            print(f"    lint {finding.code}: {finding.rule}")
    return seen


def main(argv: list[str] | None = None) -> int:
    """Run every call of the input file under one round's budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("calls", nargs="?", type=Path, default=SAMPLE)
    parser.add_argument("--workspace", type=Path, help="where offloaded results are written")
    args = parser.parse_args(argv)
    calls = json.loads(args.calls.read_text(encoding="utf-8"))
    budget = FailureBudget()
    with tempfile.TemporaryDirectory() as tmp:
        workspace = args.workspace or Path(tmp)
        answered = [run_call(budget, n, call, workspace) for n, call in enumerate(calls, 1)]
    refused = sum(1 for a in answered if a is None)
    disabled = ", ".join(sorted(budget.disabled)) or "none"
    print(
        f"{len(calls)} calls, {refused} refused; {budget.total_failures} counted failures; "
        f"disabled: {disabled}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
