"""Hypothesis profiles shared by the test suite, ``rulecraft verify`` and users.

- ``ci``: bounded and derandomized, so the README's test command is
  reproducible and stays well under 15 minutes on 2 cores;
- ``dev``: a little more, random, with the local example database;
- ``campaign``: long runs; failures are kept in ``.hypothesis/examples``.

Select with ``pytest --hypothesis-profile=campaign`` or the environment
variable ``RULECRAFT_PROFILE``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "dev",
    max_examples=100,
    stateful_step_count=60,
    deadline=None,
    print_blob=True,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "campaign",
    max_examples=5_000,
    stateful_step_count=200,
    deadline=None,
    print_blob=True,
    database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
    suppress_health_check=_SLOW_OK,
)


def load_default() -> str:
    """Load the profile named by RULECRAFT_PROFILE (default ``ci``)."""
    name = os.environ.get("RULECRAFT_PROFILE", "ci")
    settings.load_profile(name)
    return name
