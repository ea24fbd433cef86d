"""The house rules, read from the code: folders are layers, imports only go down, no circles.

ARCHITECTURE.md draws the layers; this file is the contract that keeps the drawing true. It
reads every module of the package with :mod:`ast` (no import is executed), so an import
written inside a function or under ``TYPE_CHECKING`` counts exactly like one at the top: a
lazy import is still a dependency a newcomer has to hold in their head.

Rules:

- every module belongs to exactly one layer (a new folder must be placed in ``LAYERS``);
- a module imports only from its own layer group or from lower layers; groups that share a
  layer (``markdown`` and ``policy``, ``tags`` and ``embed``) do not import each other;
- the module graph has no cycle (lazy imports included);
- no module is over 500 lines; a function over 80 lines says why in its docstring
  (a paragraph starting "Long because").
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "richout"

#: Bottom to top. Each layer is a tuple of sibling groups; a group is a tuple of module
#: prefixes (a folder's package name, or a single module).
LAYERS: tuple[tuple[tuple[str, ...], ...], ...] = (
    (
        (
            "richout.errors",
            "richout.profiles",
            "richout.grammar",
            "richout.version",
            "richout.collector",
        ),
    ),
    (("richout.text",),),
    (("richout.models",),),
    (("richout.markdown",), ("richout.policy",)),
    (("richout.tags",), ("richout.embed",)),
    (("richout.media",),),
    (("richout.views",),),
    (("richout.envelope",),),
    (("richout.gateway",),),
    (("richout.faces",),),
    (("richout", "richout.__main__", "richout.compiled"),),
)

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80
LONG_REASON = "Long because"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
PACKAGES = {name for name, path in MODULES.items() if path.name == "__init__.py"}


def _place(module: str) -> tuple[int, int]:
    """(layer index, group index) of ``module``: the longest prefix that names it."""
    best: tuple[int, int, int] | None = None
    for li, layer in enumerate(LAYERS):
        for gi, group in enumerate(layer):
            for prefix in group:
                exact = module == prefix
                inside = module.startswith(prefix + ".") and prefix != "richout"
                if (exact or inside) and (best is None or len(prefix) > best[2]):
                    best = (li, gi, len(prefix))
    if best is None:
        raise LookupError(module)
    return best[0], best[1]


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if module in PACKAGES else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _imports(module: str) -> Iterator[tuple[str, int]]:
    """Every richout module ``module`` imports, with the line, wherever the import is written."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "richout":
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(module, node)
            if target.split(".")[0] != "richout":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                # ``from richout.media import explain`` imports the module, not the package.
                yield (sub if sub in MODULES else target), node.lineno


def _with_parents(module: str) -> Iterator[tuple[str, int]]:
    """``_imports`` plus the packages each import runs first (their ``__init__``).

    ``from richout.a.b import x`` executes ``richout/a/__init__.py`` before ``b``: a cycle
    through a package's ``__init__`` is a real one. A module's own enclosing packages are
    left out: they are already being imported when it runs.
    """
    for target, line in _imports(module):
        yield target, line
        parts = target.split(".")
        for i in range(2, len(parts)):
            parent = ".".join(parts[:i])
            if parent in PACKAGES and not module.startswith(parent + "."):
                yield parent, line


def _dynamic_imports(module: str) -> Iterator[int]:
    """Lines of ``importlib.import_module``/``__import__`` calls naming a richout module."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        arg = node.args[0]
        if name in ("import_module", "__import__") and (
            not isinstance(arg, ast.Constant) or str(arg.value).startswith("richout")
        ):
            yield node.lineno


GRAPH: dict[str, list[tuple[str, int]]] = {m: sorted(set(_with_parents(m))) for m in MODULES}


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for module in MODULES:
        try:
            _place(module)
        except LookupError:
            unplaced.append(module)
    assert not unplaced, f"place these modules in a layer (tests/test_layers.py LAYERS): {unplaced}"


def test_imports_only_go_down() -> None:
    wrong = []
    for module, targets in GRAPH.items():
        here = _place(module)
        for target, line in targets:
            there = _place(target)
            upward = there[0] > here[0]
            sideways = there[0] == here[0] and there[1] != here[1]
            if upward or sideways:
                wrong.append(f"{MODULES[module].relative_to(PACKAGE.parent)}:{line} -> {target}")
    assert not wrong, "imports that go up or sideways between layers:\n" + "\n".join(wrong)


def _cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in GRAPH:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = [t for t, _ in GRAPH[node] if t in GRAPH and t != node]
            if i < len(targets):
                work.append((node, i + 1))
                nxt = targets[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return found


def test_no_dynamic_imports_of_richout() -> None:
    """An import the ast cannot see would escape every rule above."""
    found = [f"{m}:{line}" for m in MODULES for line in _dynamic_imports(m)]
    assert not found, f"import richout modules with import statements: {found}"


def test_no_import_cycles() -> None:
    assert _cycles() == []


def test_cycle_finder_finds_a_cycle(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finder is not vacuous: a planted circle a -> b -> c -> a is reported."""
    planted = {"a": [("b", 1)], "b": [("c", 1)], "c": [("a", 1), ("d", 1)], "d": []}
    monkeypatch.setattr(f"{__name__}.GRAPH", planted)
    assert _cycles() == [["a", "b", "c"]]


def test_an_upward_import_would_be_caught() -> None:
    """The placement is not vacuous: a tag module importing a view would be reported."""
    assert _place("richout.tags.parse")[0] < _place("richout.views.reply")[0]
    assert _place("richout.markdown.codemap") == (3, 0)
    assert _place("richout.policy.narrow") == (3, 1)
    assert _place("richout") == (len(LAYERS) - 1, 0)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_module_is_small(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, f"{module} has {lines} lines; split it by responsibility"


def test_long_functions_say_why() -> None:
    unexplained = []
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES and LONG_REASON not in (ast.get_docstring(node) or ""):
                unexplained.append(f"{module}.{node.name} ({length} lines)")
    assert not unexplained, (
        f"functions over {MAX_FUNCTION_LINES} lines without a '{LONG_REASON} ...' paragraph "
        f"in their docstring:\n" + "\n".join(unexplained)
    )


def test_importing_a_submodule_counts_its_package() -> None:
    """``from richout.models.base import x`` runs ``richout/models/__init__.py`` first."""
    targets = {t for t, _ in GRAPH["richout.views.reply_explain"]}
    assert {"richout.models.diagnostics", "richout.models"} <= targets
    inside = {t for t, _ in GRAPH["richout.models.records"]}
    assert "richout.models" not in inside  # its own package is already being imported
