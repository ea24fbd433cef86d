"""Optional mypyc build of richout's hot modules (issue 8, item 5).

Off by default: ``pip install .`` builds the pure-Python wheel, with nothing extra to
download. ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 pip install .`` turns this hook on (hatchling's
switch for a custom hook); hatchling then also puts the hook's ``dependencies`` (mypy,
setuptools) and richout's runtime dependencies in the build environment, since mypyc
type-checks what it compiles with the project's own mypy settings (strict, pydantic plugin).

The modules to compile are the globs of ``compile`` minus those of ``exclude`` in
``[tool.hatch.build.targets.wheel.hooks.custom]``: the parsing path, not the pydantic models
(mypyc cannot compile pydantic classes) nor the faces. The compiled extensions are added to
the wheel beside the ``.py`` files, which stay for reading and tracebacks; Python imports the
extension when both are present. An editable install stays pure Python: extensions beside
sources that are being edited would hide every edit.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def compiled_sources(root: Path, config: dict[str, Any]) -> list[str]:
    """The ``.py`` paths (relative to ``root``, sorted) the hook compiles."""

    def expand(key: str) -> set[str]:
        patterns = config.get(key, [])
        if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
            raise TypeError(f"hooks.custom.{key} must be a list of glob strings")
        found: set[str] = set()
        for pattern in patterns:
            # root.glob: the checkout's own path may hold glob characters
            found.update(p.relative_to(root).as_posix() for p in root.glob(pattern))
        return found

    return sorted(expand("compile") - expand("exclude"))


class MypycBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles the configured modules with mypyc into the wheel (see the module docstring)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        if version == "editable":
            self.app.display_warning(
                "richout: the compiled build applies to wheels; this editable install is pure "
                "Python (HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 pip install . compiles)"
            )
            return
        # Imported here: only a build with the hook on has them (its `dependencies`).
        from mypyc.build import mypycify
        from setuptools import Distribution

        root = Path(self.root)
        sources = compiled_sources(root, self.config)
        if not sources:
            raise ValueError("hooks.custom.compile matched no module to compile")
        self._work = tempfile.mkdtemp(prefix="richout-mypyc-")
        out = Path(self._work) / "lib"
        here = os.getcwd()
        os.chdir(root)  # mypyc reads the [tool.mypy] settings of the current directory
        try:
            # One C file per module (multi_file) rather than one for the whole group: gcc
            # at -O3 compiles the pieces in about 60% of the time the single file took
            # (101 against 169 s on a 2-CPU VM, with the extensions built side by side),
            # and the compiled corpus pipelines read no slower in alternating runs.
            extensions = mypycify(
                sources, opt_level="3", target_dir=str(Path(self._work) / "c"), multi_file=True
            )
            dist = Distribution({"ext_modules": extensions, "script_name": "hatch_build.py"})
            command: Any = dist.get_command_obj("build_ext")
            command.build_lib = str(out)
            command.build_temp = str(Path(self._work) / "tmp")
            command.parallel = os.cpu_count() or 1  # the per-module extensions at once
            command.ensure_finalized()
            command.run()
            built = sorted(p for p in out.rglob("*") if p.is_file())
            if len(built) <= len(sources):
                # One extension per module plus mypyc's shared runtime library.
                raise RuntimeError(f"mypyc built {len(built)} file(s) for {len(sources)} modules")
        except BaseException:
            shutil.rmtree(self._work, ignore_errors=True)  # finalize() is not called then
            raise
        finally:
            os.chdir(here)
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out).as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
