"""Shared test settings.

Property tests run on slow, shared CI machines: input generation speed and per-example
wall time are not what they test, so those health checks and the deadline are off for
every test (a test's own ``@settings`` still sets its example count).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "richout",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("richout")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "pure_python(why): replaces a module function or a class constant, or counts "
        "Python-level calls; compiled modules bypass all three (they call each other "
        "directly and read constants as fields), so the compiled build skips it "
        "(scripts/check_compiled.sh)",
    )
    if os.environ.get("RICHOUT_EXPECT_COMPILED") == "1":
        # scripts/check_compiled.sh: a build that silently came out pure Python, or a
        # checkout's richout shadowing the installed one, must not pass as compiled.
        import richout

        here = Path(__file__).resolve().parent.parent
        if not richout.is_compiled() or Path(richout.__file__).resolve().is_relative_to(here):
            raise pytest.UsageError(
                f"RICHOUT_EXPECT_COMPILED=1 but richout at {richout.__file__} is not the "
                "installed compiled build"
            )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    import richout

    compiled = richout.is_compiled()
    for item in items:
        marker = item.get_closest_marker("pure_python")
        if marker is None:
            continue
        why = marker.kwargs.get("why")
        if not isinstance(why, str) or not why:
            raise pytest.UsageError(f"{item.nodeid}: write pure_python(why='...')")
        if compiled:
            item.add_marker(pytest.mark.skip(reason=f"pure Python only: {why}"))
