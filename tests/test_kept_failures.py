"""Failures a verb's search finds are kept in the example database and replayed first (issue 21,
part 1 for ``verify``): rulecraft.kept on its own, then two ``verify`` workers sharing a real Redis
server (tests/redis_server.py), one finding a planted failure and the other replaying it first.

The planted failure is an invariant registered only inside the worker processes (never in the
package): "no game reaches its end".  Worker A plays whole games and breaks it; worker B's own
search is capped at a few steps per game, so it cannot reach an end by searching, and fails only by
replaying A's saved game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis.database import InMemoryExampleDatabase
from redis_server import RedisServer

from rulecraft.kept import FORMAT, MAX_ENTRY, FailureStore, MalformedEntry, failure_key
from rulecraft.tools import tools

ROOT = Path(__file__).resolve().parents[1]


# -- rulecraft.kept on its own -------------------------------------------------------------------------


def _parse(data: Mapping[str, Any]) -> int:
    value = data["n"]
    if not isinstance(value, int):
        raise MalformedEntry(f"n: a whole number, got {value!r}")
    return value


def _store(database: InMemoryExampleDatabase, warned: list[str], key: bytes = b"k") -> FailureStore[int]:
    return FailureStore(database, key, dump=lambda n: {"n": n}, parse=_parse, warn=warned.append)


def test_a_failure_key_names_verb_game_check_and_options_canonically() -> None:
    key = failure_key("verify", "air", "invariants", {"readings": {"AIR-AMB-09": "B", "AIR-AMB-01": "A"}})
    same = failure_key("verify", "air", "invariants", {"readings": {"AIR-AMB-01": "A", "AIR-AMB-09": "B"}})
    assert key == same
    assert key.startswith(b"rulecraft-failures:verify:air:invariants:")
    assert b'"AIR-AMB-09":"B"' in key
    others = {
        failure_key("verify", "kas", "invariants", {"readings": {"AIR-AMB-09": "B", "AIR-AMB-01": "A"}}),
        failure_key("verify", "air", "solvers", {"readings": {"AIR-AMB-09": "B", "AIR-AMB-01": "A"}}),
        failure_key("verify", "air", "invariants", {"readings": {"AIR-AMB-09": "C", "AIR-AMB-01": "A"}}),
        failure_key("conform", "air", "invariants", {"readings": {"AIR-AMB-09": "B", "AIR-AMB-01": "A"}}),
    }
    assert key not in others and len(others) == 4
    with pytest.raises(ValueError, match="not a name"):
        failure_key("verify", "air:x", "invariants")


def test_a_worker_reads_what_another_saved_but_not_its_own_saves() -> None:
    database = InMemoryExampleDatabase()
    warned: list[str] = []
    mine, theirs = _store(database, warned), _store(database, warned)
    mine.save(7)
    assert mine.fresh() == []  # its own save is not replayed back to it
    got = theirs.fresh()
    assert [k.entry for k in got] == [7]
    assert theirs.fresh() == []  # replayed once: seen
    theirs.forget(got[0])
    assert list(database.fetch(b"k")) == [] and warned == []


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"\x80\x03cos\nsystem\nq\x00.", "not JSON"),  # a pickle is bytes, never loaded
        (b'{"n": 1}', f"not a {FORMAT} document"),
        (json.dumps({"format": FORMAT, "entry": {"n": "1"}}).encode(), "n: a whole number"),
        (json.dumps({"format": FORMAT, "entry": {}}).encode(), "'n'"),
        (b" " * (MAX_ENTRY + 1), "more than"),
    ],
    ids=["pickle", "no-envelope", "wrong-type", "missing-field", "too-large"],
)
def test_a_malformed_entry_is_one_line_and_skipped(raw: bytes, reason: str) -> None:
    database = InMemoryExampleDatabase()
    warned: list[str] = []
    _store(database, []).save(3)
    database.save(b"k", raw)
    assert [k.entry for k in _store(database, warned).fresh()] == [3]
    assert len(warned) == 1 and "\n" not in warned[0] and reason in warned[0]
    assert warned[0].startswith("rulecraft: skipped a malformed saved failure")


# -- two verify workers on a real Redis server -----------------------------------------------------------


WORKER = """
    import sys
    from rulecraft.invariants.airships import _invariant

    @_invariant("planted-no-end", "AIR-R-47")
    def planted_no_end(game, state):
        # test-only: registered in this worker process alone
        if game.is_over(state):
            yield "planted: the game reached its end"

    # the printed examples reach ends too, and are not what this test is about: none here
    import rulecraft.scenarios.loader, rulecraft.verify
    rulecraft.scenarios.loader.scenario_files = rulecraft.verify.scenario_files = lambda *a, **k: iter(())

    from rulecraft.cli import main
    sys.exit(main(["verify", "air", "--json", "--solver-checks", "0", "--shrink-replays", "0", *sys.argv[1:]]))
"""


def _verify(folder: Path, *argv: str) -> tuple[int, dict[str, Any], str]:
    folder.mkdir()
    script = folder / "worker.py"
    script.write_text(textwrap.dedent(WORKER))
    done = subprocess.run(
        [sys.executable, str(script), *argv],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT), "RULECRAFT_DATABASE": ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode in (0, 1), done.stderr[-3000:]
    report: dict[str, Any] = json.loads(done.stdout)["reports"][0]
    return done.returncode, report, done.stderr


def test_a_verify_failure_found_by_one_worker_is_replayed_first_by_the_next(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    url, empty = redis_server.url(db=7), redis_server.url(db=8)
    # Worker B alone (an empty database): five steps a game never reach the end, so it passes.
    code, control, err = _verify(tmp_path / "control", "--database", empty, "--games", "2", "--max-steps", "5")
    assert code == 0 and control["findings"] == [] and "replayed" not in err

    # Worker A plays whole games: the first that ends breaks the planted invariant, kept in Redis.
    code, found, err = _verify(tmp_path / "a", "--database", url, "--games", "1", "--seed", "1")
    assert code == 1
    planted = [f for f in found["findings"] if "planted: the game reached its end" in f["message"]]
    assert len(planted) == 1 and not planted[0]["message"].startswith("replayed")
    import redis

    client = redis.Redis(host="127.0.0.1", port=redis_server.port, db=7)
    keys = [k for k in client.keys(b"*") if b"rulecraft-failures:verify:air:invariants:" in k]
    assert len(keys) == 1, client.keys(b"*")
    # a malformed entry under the same key (from a broken or hostile worker): one line, skipped
    client.sadd(keys[0], b'{"format": "rulecraft-failure/1", "entry": {"kind": "invariant"}}')
    client.close()

    # Worker B, another process with another seed, replays A's game before its own search.
    code, replayed, err = _verify(tmp_path / "b", "--database", url, "--games", "2", "--max-steps", "5", "--seed", "9")
    assert code == 1
    first = replayed["findings"][0]
    assert first["message"].startswith("replayed from the example database: after step")
    assert "planted: the game reached its end" in first["message"]
    assert first["log"] == planted[0]["log"] and first["setup"] == planted[0]["setup"]
    lines = err.splitlines()
    assert sum("skipped a malformed saved failure" in line for line in lines) == 1
    said = [line for line in lines if "replayed 1 saved failure(s)" in line]
    assert len(said) == 1 and url in said[0] and "before any new search" in said[0], err
    assert "1 still fail" in said[0]
    assert [f for f in replayed["findings"] if "planted" in f["message"]] == [first]  # B's search found none


def test_a_replayed_failure_that_no_longer_fails_is_dropped(redis_server: RedisServer, tmp_path: Path) -> None:
    """A saved game that now plays through without a failure (the bug fixed) is dropped, as
    Hypothesis drops a fixed example, and the next run has nothing to replay."""
    from rulecraft.core import Setup
    from rulecraft.profiles import open_database
    from rulecraft.registry import make_game
    from rulecraft.verify import GameReport, KeptGame, VerifyKept, verify_game

    game = make_game("air")
    url = redis_server.url(db=9)
    database = open_database(url, local=tmp_path / "local")
    earlier = VerifyKept(game, database, GameReport("air", "Airships"), say=lambda line: None)
    earlier.games.save(KeptGame("invariant", 5, Setup(2, 0), ()))  # a new game breaks no invariant
    said: list[str] = []
    report = verify_game(game, games=0, solver_count=0, database=database, say=said.append)
    assert report.replayed == 1 and report.replayed_failing == 0 and report.findings == []
    assert said == [
        f"air: replayed 1 saved failure(s) from {url} before any new search: 0 still fail, 1 no longer fail (dropped)"
    ]
    again = verify_game(game, games=0, solver_count=0, database=database, say=said.append)
    assert again.replayed == 0 and len(said) == 1


def test_a_shared_database_takes_change_listeners_without_a_warning(redis_server: RedisServer, tmp_path: Path) -> None:
    """HypoFuzz's workers add a change listener to the database; the shared one passes it to Redis."""
    from rulecraft.profiles import open_database

    database = open_database(redis_server.url(db=10), local=tmp_path / "local")
    events: list[object] = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        database.add_listener(events.append)
        database.remove_listener(events.append)


def test_a_failing_solver_check_is_kept_and_replayed_from_its_seed_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A solver check that disagrees with its oracle (planted: on half the seeds) is kept as its query
    and seed; a run that makes no solver checks of its own still replays every one of them first."""
    import random

    from rulecraft.registry import make_game
    from rulecraft.verify import verify_game

    game = make_game("air")
    query = tools(game).queries()["reach"]

    def planted(self: object, game: object, rng: random.Random) -> str | None:
        return "planted: the solver and the oracle disagree" if rng.random() < 0.5 else None

    monkeypatch.setattr(type(query), "oracle_check", planted)
    database = InMemoryExampleDatabase()
    said: list[str] = []
    first = verify_game(game, games=0, solver_count=8, database=database, say=said.append)
    found = [f for f in first.findings if "planted" in f.message]
    assert found and first.replayed == 0 and said == []
    second = verify_game(game, games=0, solver_count=0, database=database, say=said.append)
    assert second.solver_checks == 0 and second.replayed_failing == len(found)
    assert sorted(f.seed or 0 for f in second.findings) == sorted(f.seed or 0 for f in found)
    assert all(f.message.startswith("replayed from the example database: reach: planted") for f in second.findings)
    assert said == [
        f"air: replayed {len(found)} saved failure(s) from InMemoryExampleDatabase before any new search: "
        f"{len(found)} still fail, 0 no longer fail (dropped)"
    ]


def test_a_failure_saved_during_a_campaign_is_the_next_game_replayed() -> None:
    """A long campaign looks at the database before each of its games: a failure another worker
    saves while it runs is replayed before its next game, not at the next run."""
    from rulecraft.core import Setup
    from rulecraft.registry import make_game
    from rulecraft.verify import GameReport, KeptGame, VerifyKept, verify_game

    game = make_game("air")
    database = InMemoryExampleDatabase()
    other = VerifyKept(game, database, GameReport("air", "Airships"), say=lambda line: None)
    said: list[str] = []

    def progress(phase: str, n: int) -> None:
        if phase != "campaign":
            return
        played.append(phase)
        if len(played) == 2:  # after this run's second game
            other.games.save(KeptGame("invariant", 3, Setup(3, 1), ()))  # the other worker's find

    played: list[str] = []
    report = verify_game(
        game, games=4, max_steps=3, solver_count=0, database=database, say=said.append, progress=progress
    )
    assert report.replay_at == [2] and report.replayed == 1
    assert said == [
        "air: replayed 1 saved failure(s) from InMemoryExampleDatabase after 2 new game(s): "
        "0 still fail, 1 no longer fail (dropped)"
    ]
