"""Promises the repository keeps: README commands, CI running exactly the README's tests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

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


def _pyproject() -> dict[str, Any]:
    import pytest

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+; CI runs 3.11
    with (ROOT / "pyproject.toml").open("rb") as f:
        data: dict[str, Any] = tomllib.load(f)
    return data


def test_packaging_facts_one_version_license_and_a_testable_sdist() -> None:
    # Issue 9, defect 10: the version was written twice, there was no LICENSE file, and the
    # sdist lacked .ci/run, so the sdist's own tests failed.
    pyproject = _pyproject()
    project = pyproject["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert pyproject["tool"]["hatch"]["version"]["path"] == "richout/version.py"
    init = (ROOT / "richout" / "version.py").read_text(encoding="utf-8")
    assert len(re.findall(r'^__version__ = "[^"]+"$', init, re.M)) == 1

    assert project["license"] == "MIT"
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert license_text.startswith("MIT License") and "the richout authors" in license_text

    sdist = pyproject["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    for needed in (".ci/run", "constraints", "scripts", "tests", "LICENSE", "SECURITY.md"):
        assert needed in sdist
    for path in sdist:  # a stale entry would silently ship less than it says
        assert (ROOT / path).exists(), path


def test_floors_file_pins_every_declared_floor_and_ci_checks_it() -> None:
    # Issue 9, defect 1: pydantic>=2.6 was declared but only 2.11 worked. The floors job
    # installs constraints/floors.txt; it must pin exactly the declared floors.
    declared = {}
    for req in _pyproject()["project"]["dependencies"]:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9][0-9A-Za-z.]*)", req)
        assert m, f"{req}: every runtime dependency declares a plain floor"
        declared[re.sub(r"[-_.]+", "-", m[1]).lower()] = m[2]
    pinned = {}
    for line in (ROOT / "constraints" / "floors.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pinned[re.sub(r"[-_.]+", "-", name).lower()] = version
    assert pinned == declared
    assert "typing-extensions" in declared  # richout.models.base imports it
    assert " && bash scripts/check_floors.sh" in _readme_commands()[1]
    assert _readme_commands()[1].endswith(" && bash scripts/check_compiled.sh")
