"""Promises the repository keeps: README commands, CI running exactly the README's tests."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.+?)\n```", readme)


def test_readme_opens_with_the_two_commands() -> None:
    commands = _readme_commands()
    assert len(commands) >= 2
    main_job, tests = commands[0], commands[1]
    assert "richout parse examples/reply.md" in main_job
    assert "pytest" in tests and "mypy" in tests and "ruff" in tests


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    assert ci[-1] == _readme_commands()[1]


def test_grammars_and_cases_ship_in_the_wheel() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"grammars" = "richout/grammars"' in pyproject
    assert '"conformance" = "richout/_conformance_data"' in pyproject
