"""Whether this install runs the optional compiled build (``hatch_build.py``)."""

from __future__ import annotations

from importlib.machinery import ExtensionFileLoader

__all__ = ["is_compiled"]


def is_compiled() -> bool:
    """True when richout's parsing modules are mypyc-compiled extensions, False for pure Python.

    A wheel built with ``HATCH_BUILD_HOOK_ENABLE_CUSTOM=1`` compiles them; outputs and errors
    are the same either way (the test suite runs on both), only the speed differs.
    """
    # One module stands for all: the build compiles the set together or fails.
    import richout.media.walk as probe

    return isinstance(getattr(probe, "__loader__", None), ExtensionFileLoader)
