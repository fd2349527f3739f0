"""The Hypothesis profiles (rulecraft/profiles.py) mean the same on a CI machine as on a desk.

Hypothesis reads a CI variable (``CI=true``) and makes its default profile derandomized with no
database; a profile that does not say otherwise inherits that.  HypoFuzz skips derandomized tests, so
on CI the fuzz targets vanished (the stop-32 CI run).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SHOW = """
import json
from hypothesis import settings
from rulecraft.profiles import load_default
name = load_default()
s = settings()
print(json.dumps({"name": name, "derandomize": s.derandomize, "database": s.database is not None}))
"""


def _profile(name: str, ci: bool) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["RULECRAFT_PROFILE"] = name
    if ci:
        env["CI"] = "true"
    done = subprocess.run([sys.executable, "-c", SHOW], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("ci", [False, True], ids=["desk", "CI=true"])
@pytest.mark.parametrize("name", ["dev", "campaign"])
def test_the_random_profiles_stay_random_with_a_database(name: str, ci: bool) -> None:
    assert _profile(name, ci) == {"name": name, "derandomize": False, "database": True}


@pytest.mark.parametrize("ci", [False, True], ids=["desk", "CI=true"])
def test_the_ci_profile_is_derandomized_without_a_database(ci: bool) -> None:
    assert _profile("ci", ci) == {"name": "ci", "derandomize": True, "database": False}
