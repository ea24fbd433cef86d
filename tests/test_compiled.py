"""The optional compiled build (hatch_build.py): what it compiles, and how to tell.

The whole suite runs on both builds (``scripts/check_compiled.sh``); these tests hold the
compile set to the rules that keep the public contract the same in both.
"""

from __future__ import annotations

import importlib
import inspect
from importlib.machinery import ExtensionFileLoader
from pathlib import Path
from typing import Any

import pytest

import richout
from richout import envelope

ROOT = Path(__file__).resolve().parent.parent


def _compile_set() -> set[str]:
    """Module names the hook compiles: ``compile`` globs minus ``exclude`` globs."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+; CI runs 3.11
    config: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["custom"]

    def expand(key: str) -> set[str]:
        found: set[str] = set()
        for pattern in hook[key]:
            for path in ROOT.glob(pattern):
                found.add(".".join(path.relative_to(ROOT).with_suffix("").parts))
        return found

    return expand("compile") - expand("exclude")


def test_the_compile_set_is_the_parsing_path() -> None:
    names = _compile_set()
    assert {"richout.media.walk", "richout.media.payload", "richout.tags.scan"} <= names
    assert not any(n.endswith("__init__") for n in names)
    assert not any(n.startswith(("richout.faces", "richout.envelope")) for n in names)


def test_no_public_name_is_defined_in_a_compiled_module() -> None:
    """A compiled function checks annotated argument types itself (TypeError, not the
    InvalidInput richout promises); a compiled class cannot be subclassed in Python and
    loses its docstrings. So every public name, and every base of a public class, lives in
    a module that stays Python."""
    compiled = _compile_set()
    for module in (richout, envelope):
        for name in module.__all__:
            obj = getattr(module, name)
            owners = [obj]
            if inspect.isclass(obj):
                owners = [c for c in obj.__mro__ if c.__module__.startswith("richout")]
            for owner in owners:
                where = getattr(owner, "__module__", None)
                assert where not in compiled, f"{module.__name__}.{name}: {where} is compiled"


def test_is_compiled_tells_the_truth_for_every_module_of_the_set() -> None:
    """All of the set is compiled, or none is (a partial build would hide behind the probe)."""
    kinds = {
        name: isinstance(importlib.import_module(name).__loader__, ExtensionFileLoader)
        for name in sorted(_compile_set())
    }
    assert set(kinds.values()) == {richout.is_compiled()}, kinds
