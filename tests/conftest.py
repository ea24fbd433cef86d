"""Shared test settings.

Property tests run on slow, shared CI machines: input generation speed and per-example
wall time are not what they test, so those health checks and the deadline are off for
every test (a test's own ``@settings`` still sets its example count).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "richout",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("richout")
