"""pytest plugin for mutation runs: the Hypothesis profile ``mutation``.

run.py copies this file into the mutated tree and passes ``-p rulecraft_mutation_profile`` with
``RULECRAFT_PROFILE=mutation``: a plugin named by ``-p`` is imported before tests/conftest.py loads
the profile, so the name exists by then.  Ten derandomized examples: a mutant's verdict is the same on
every run (no database, no random seed), and each test reached by a mutant stays short.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "mutation",
    max_examples=10,
    stateful_step_count=10,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
