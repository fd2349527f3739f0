"""HypoFuzz's targets (issue 21, part 3): the four games' state machines and a conformance property.

``tox -e fuzz`` runs them under HypoFuzz (docs/many-machines.md).  This file holds the conformance
property a user writes (:class:`rulecraft.testing.ConformanceMachine` against an implementation
command; here the reference server, so it passes), checks that the property finds a planted rule
deviation, and checks that HypoFuzz collects every target, with a short bounded run of one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from redis_server import RedisServer  # the session fixture `redis_server` is in tests/conftest.py

from rulecraft.fuzz import patient_hub
from rulecraft.testing import ConformanceMachine

ROOT = Path(__file__).resolve().parents[1]

# The fuzz targets, as `tox -e fuzz` passes them to HypoFuzz (pytest node ids).
TARGETS = (
    "tests/test_kas_stateful.py::TestKas::runTest",
    "tests/test_air_stateful.py::TestAirships::runTest",
    "tests/test_stm_stateful.py::TestSteamopolis::runTest",
    "tests/test_aer_stateful.py::TestAeroplanes::runTest",
    "tests/test_fuzz_targets.py::TestAirshipsConformance::runTest",
)


class AirshipsConformance(ConformanceMachine):
    """A user's conformance property: the reference server stands in for their implementation."""

    game_id = "air"
    command = (sys.executable, "-m", "rulecraft.conformance.server", "air")


TestAirshipsConformance = AirshipsConformance.TestCase
TestAirshipsConformance.settings = settings(
    max_examples=max(5, settings().max_examples // 8),
    stateful_step_count=min(20, settings().stateful_step_count),
)


class PlantedStartChips(ConformanceMachine):
    """bench/planted.py's ``start-chips-seat-0``: seat 0 always takes the start player's chips."""

    game_id = "air"
    command = (sys.executable, str(ROOT / "bench" / "planted.py"), "air", "start-chips-seat-0")


def test_the_conformance_property_finds_a_planted_start_chip_deviation() -> None:
    """AIR-R-09 (p.2; [EN] agrees): the start player takes 3 chips, every other player 4.  An
    implementation giving them to seat 0 whoever starts differs right after a set-up whose start
    player is not seat 0, and the property says the states differ."""
    test = PlantedStartChips.TestCase("runTest")
    test.settings = settings(max_examples=40, stateful_step_count=3, database=None, derandomize=True)
    with pytest.raises(AssertionError, match="state: after set-up: the states differ"):
        test.runTest()


COLLECT = """
import json, sys
from hypofuzz.collection import collect_tests

collected = collect_tests(sys.argv[1:])
ran = {}
for target in collected.fuzz_targets:
    if target.nodeid.endswith("TestAirshipsConformance::runTest"):
        target._enter_fixtures()
        for _ in range(3):
            target.run_one()
        ran[target.nodeid] = target.has_found_failure
print(json.dumps({"targets": [t.nodeid for t in collected.fuzz_targets], "ran": ran,
                  "skipped": sorted(collected.not_collected)}))
"""


def _collect_and_run(database: str, targets: tuple[str, ...] = TARGETS) -> None:
    """HypoFuzz collects ``targets`` and runs three inputs of the conformance property (the last
    target), its examples going to ``database`` (a folder or a Redis URL, the setting workers share)."""
    # not an xdist worker itself, though this test may run in one (plugins read PYTEST_XDIST_*)
    own = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    # CI=true as on a CI machine, where Hypothesis's default profile is derandomized
    env = {**own, "CI": "true", "RULECRAFT_PROFILE": "campaign", "RULECRAFT_DATABASE": database}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", COLLECT, *targets, "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert sorted(result["targets"]) == sorted(targets), result
    assert result["ran"] == {TARGETS[-1]: False}


def test_hypofuzz_collects_the_four_machines_and_the_conformance_property(tmp_path: Path) -> None:
    """HypoFuzz fuzzes only tests with a generate phase, no derandomize and the default database:
    under the campaign profile every target qualifies, and three inputs of the conformance
    property run under HypoFuzz's own provider without a failure (the reference conforms)."""
    pytest.importorskip("hypofuzz", reason="hypofuzz is not installed (pip install hypofuzz; tox -e fuzz does)")
    # the run's examples go to a folder of its own (the setting workers share: a folder or Redis)
    database = str(tmp_path / "examples")
    _collect_and_run(database)
    assert any(Path(database).rglob("*")), "HypoFuzz kept nothing in the configured database"


def test_hypofuzz_workers_share_the_redis_database(redis_server: RedisServer) -> None:
    """Issue 21 part 3: HypoFuzz's workers share rulecraft's Redis example database.  A worker run
    under ``RULECRAFT_DATABASE=redis://...`` keeps what it ran (its corpus and the targets' examples)
    on the server, where every other worker on any machine reads it."""
    pytest.importorskip("hypofuzz", reason="hypofuzz is not installed (pip install hypofuzz; tox -e fuzz does)")
    assert not redis_server.keys(db=7)
    _collect_and_run(redis_server.url(db=7), TARGETS[-1:])  # the four machines: the test above
    assert redis_server.keys(db=7), "HypoFuzz kept nothing on the Redis server"


def test_the_ci_profile_is_not_fuzzable_so_the_fuzz_env_sets_the_campaign_profile() -> None:
    """The suite's default profile is derandomized (HypoFuzz skips such tests); tox's fuzz
    environment therefore sets RULECRAFT_PROFILE=campaign and shares RULECRAFT_DATABASE."""
    import configparser

    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini")
    fuzz = tox["testenv:fuzz"]
    assert "RULECRAFT_PROFILE = campaign" in fuzz["set_env"]
    assert "RULECRAFT_DATABASE" in fuzz["pass_env"]
    command = fuzz["commands"]
    assert command.strip().startswith("python -m rulecraft.fuzz")
    assert all(target.split("::")[0] in command for target in TARGETS)


def test_a_worker_still_on_its_first_examples_keeps_the_campaign_going() -> None:
    """HypoFuzz's hub stops when no worker lists a test left to fuzz, and a worker lists them only
    after its first 100 examples (minutes for a game's machine): rulecraft.fuzz's hub counts a worker
    that has not reported yet as busy with what it was given, and believes one that has."""
    hypofuzz = pytest.importorskip("hypofuzz.hypofuzz", reason="hypofuzz is not installed (pip install hypofuzz)")

    def states() -> list[dict[str, Any]]:
        return [
            {"hub_state": {}, "worker_state": {"current_lifetime": 0.0, "valid_nodeids": []}},
            {"hub_state": {}, "worker_state": {"current_lifetime": 42.0, "valid_nodeids": []}},
        ]

    plain = hypofuzz.FuzzWorkerHub(nodeids=list(TARGETS), pytest_args=[], n_processes=2)
    plain.shared_states = states()
    plain._rebalance()
    assert all(not s["worker_state"]["valid_nodeids"] for s in plain.shared_states)  # HypoFuzz would stop

    hub = patient_hub(hypofuzz.FuzzWorkerHub)(nodeids=list(TARGETS), pytest_args=[], n_processes=2)
    hub.shared_states = states()
    hub._rebalance()
    fresh, reported = hub.shared_states
    assert fresh["worker_state"]["valid_nodeids"] == sorted(fresh["hub_state"]["nodeids"])
    assert set(fresh["worker_state"]["valid_nodeids"]) <= set(TARGETS) and fresh["worker_state"]["valid_nodeids"]
    assert reported["worker_state"]["valid_nodeids"] == []
