"""pytest plugin for mutation runs: the Hypothesis profile ``mutation``.

run.py copies this file into the mutated tree and passes ``-p rulecraft_mutation_profile`` with
``RULECRAFT_PROFILE=mutation``: a plugin named by ``-p`` is imported before tests/conftest.py loads
the profile, so the name exists by then.  Ten derandomized examples: a mutant's verdict is the same on
every run (no database, no random seed), and each test reached by a mutant stays short.

Memo caches (``functools.cache`` / ``lru_cache`` wrapped around a mutated function by a call) are
emptied before every test: mutmut forks each mutant's run from a process that has already imported,
and maybe run, the code, and a result cached there would hide the mutant; and mutmut's record of
which tests reach a function would miss every test that found the answer in the cache.
"""

from __future__ import annotations

import sys
from typing import Any

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


def clear_memo_caches() -> int:
    """Empty every module-level memo cache of rulecraft's modules; returns how many there were."""
    cleared = 0
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "rulecraft" or name.startswith("rulecraft.")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, type):  # a class's cache_clear would be an unbound method
                continue
            if callable(getattr(value, "cache_clear", None)) and callable(getattr(value, "cache_info", None)):
                value.cache_clear()
                cleared += 1
    return cleared


def pytest_runtest_setup(item: Any) -> None:
    clear_memo_caches()
