"""Hypothesis profiles shared by the test suite, ``rulecraft verify`` and users.

- ``ci``: bounded and derandomized, so the README's test command is
  reproducible and stays well under 15 minutes on 2 cores;
- ``dev``: a little more, random, with the local example database;
- ``campaign``: long runs; failures are kept in ``.hypothesis/examples``.

Select with ``pytest --hypothesis-profile=campaign`` or the environment
variable ``RULECRAFT_PROFILE``.

:func:`example_database` puts the example database where a project's
``[tool.rulecraft] database = "path"`` says, for the length of one command
(without it Hypothesis keeps its own default, ``.hypothesis/examples`` in the
current folder).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

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


DATABASE_PROFILE = "rulecraft-database"


@contextlib.contextmanager
def example_database(path: Path) -> Iterator[None]:
    """Hypothesis keeps its examples in the folder ``path`` while the block runs; the profile that
    was loaded before is loaded again after, so a command run in-process leaves no trace."""
    previous = getattr(settings, "_current_profile", None) or "default"
    settings.register_profile(DATABASE_PROFILE, parent=settings.default, database=DirectoryBasedExampleDatabase(path))
    settings.load_profile(DATABASE_PROFILE)
    try:
        yield
    finally:
        settings.load_profile(previous)
