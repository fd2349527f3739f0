"""``conform``, ``ambiguities`` and ``errata`` keep what they find in the example database and replay
it first (issue 21, part 1 for the other verbs; ``verify``'s is tests/test_kept_failures.py).

Each verb runs twice against one real Redis server (tests/redis_server.py), each run with its own
database object, as two workers would: the first finds a difference and keeps it; the second replays
it before any new search, and is given no search budget of its own (no differential game, no set-up
sweep), so the difference can only come from the database.  Expected values come from the
rulebooks: Airships' start player takes 3 chips and every other player 4 (AIR-R-09, p. 2), each
nation has 6 (AIR-AMB-02 default, AIR-R-50); AIR-AMB-09 (p. 4) parts its readings only where a
colour is covered by a fixed die alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from redis_server import RedisServer

from rulecraft.conformance.kept import REPLAYED, KeptDifference, parse_difference
from rulecraft.kept import MalformedEntry

ROOT = Path(__file__).resolve().parents[1]
PLANTED = f"""import sys
sys.path.insert(0, {str(ROOT / "bench")!r})
sys.argv = ["planted.py", "air", "start-chips-seat-0"]
import planted
sys.exit(planted.main())
"""
FIXED = """import sys
from rulecraft.conformance.server import serve
sys.exit(serve("air"))
"""
MALFORMED = b'{"format": "rulecraft-failure/1", "entry": {"start": {"setup": {"players": 2}}, "steps": "x"}}'


def _client(server: RedisServer, db: int) -> Any:
    import redis

    return redis.Redis(host="127.0.0.1", port=server.port, db=db)


def _keys(server: RedisServer, db: int, prefix: bytes) -> list[bytes]:
    client = _client(server, db)
    try:
        return sorted(k for k in client.keys(b"*") if prefix in k)  # Hypothesis's own prefix first
    finally:
        client.close()


def _members(server: RedisServer, db: int, key: bytes) -> set[bytes]:
    client = _client(server, db)
    try:
        members: set[bytes] = client.smembers(key)
        return members
    finally:
        client.close()


def _plant(server: RedisServer, db: int, key: bytes, raw: bytes) -> None:
    client = _client(server, db)
    try:
        client.sadd(key, raw)
    finally:
        client.close()


# -- conform ---------------------------------------------------------------------------------------------------


def _conform(database: Any, command: str, said: list[str], **options: Any) -> Any:
    from rulecraft.conformance.conform import conform
    from rulecraft.registry import make_game

    budget: dict[str, Any] = {"max_examples": 2, "max_steps": 30, "shrink_replays": 20, "scenarios": False}
    return conform(make_game("air"), command, database=database, say=said.append, **(budget | options))


def test_a_conform_finding_is_replayed_first_by_the_next_worker_and_dropped_once_fixed(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """The planted deviation 'start-chips-seat-0' (seat 0 takes the start player's 3 chips: AIR-R-09,
    p. 2, gives them to the start player) is found and kept; the next worker replays it without any
    game of its own; a run with the same seed reports the same one finding; fixed, it is dropped."""
    from rulecraft.profiles import open_database

    url = redis_server.url(db=3)
    script = tmp_path / "impl.py"
    script.write_text(PLANTED)
    command = f"{sys.executable} {script}"  # the same command before and after the fix

    said: list[str] = []
    first = _conform(open_database(url, local=tmp_path / "a"), command, said)
    assert first.status == "findings" and len(first.findings) == 1 and said == []
    found = first.findings[0]
    assert "AIR-R-09" in found.rules and not found.title.startswith(REPLAYED)
    assert found.setup is not None and found.setup["first_seat"] != 0  # the seat the deviation confuses
    keys = _keys(redis_server, 3, b"rulecraft-failures:conform:air:differential:")
    assert len(keys) == 1 and json.dumps(command).encode() in keys[0]  # the command names the key
    _plant(redis_server, 3, keys[0], MALFORMED)  # a broken or hostile worker's entry
    boarded = {"start": {"setup": found.setup}, "steps": [], "fixture": {"map": "elsewhere"}}
    _plant(redis_server, 3, keys[0], json.dumps({"format": "rulecraft-failure/1", "entry": boarded}).encode())

    # Another worker (another database object, another seed) with no search budget at all.
    said = []
    second = _conform(open_database(url, local=tmp_path / "b"), command, said, max_examples=0, seed=99)
    assert second.examples_run == 0 and second.setups_compared == 0  # no search ran
    assert len(second.findings) == 1 and second.replayed == second.replayed_found == 1
    again = second.findings[0]
    assert again.title == REPLAYED + found.title and "AIR-R-09" in again.rules
    assert again.setup == found.setup and again.steps == found.steps
    assert sum("skipped a malformed saved failure" in line for line in said) == 1
    lines = [line for line in said if "replayed 1 saved difference(s)" in line]
    assert len(lines) == 1 and url in lines[0] and "before any new search" in lines[0]
    assert "1 still found, 0 no longer found" in lines[0]

    # Same seed, same result: a worker that replays it and searches too reports the one finding.
    said = []
    third = _conform(open_database(url, local=tmp_path / "c"), command, said)
    assert third.status == first.status and len(third.findings) == 1
    assert third.findings[0].title == REPLAYED + found.title and third.findings[0].unit == found.unit

    # The implementation fixed behind the same command: the saved game no longer differs, and is dropped.
    script.write_text(FIXED)
    said = []
    fixed = _conform(open_database(url, local=tmp_path / "d"), command, said, max_examples=0)
    assert fixed.findings == [] and fixed.replayed == 1 and fixed.replayed_found == 0
    assert any("0 still found, 1 no longer found (dropped)" in line for line in said), said
    left = _members(redis_server, 3, keys[0])  # the malformed entry, and the boarded one never replayed
    assert MALFORMED in left and len(left) == 2


def test_each_shard_replays_the_kept_findings_of_its_own_lanes(redis_server: RedisServer, tmp_path: Path) -> None:
    """Two lanes find the planted deviation once each (AIR-R-09, p. 2); shards 1/2 and 2/2 of the
    same campaign then replay one each, their own lane's, so a merge reports each once."""
    from rulecraft.profiles import open_database
    from rulecraft.shard import Shard

    url = redis_server.url(db=6)
    command = f"{sys.executable} {ROOT / 'bench' / 'planted.py'} air start-chips-seat-0"
    whole = _conform(open_database(url, local=tmp_path / "w"), command, [], lanes=2)
    assert sorted(f.unit for f in whole.findings) == ["lane:1/2", "lane:2/2"]
    for index in (1, 2):
        said: list[str] = []
        shard = Shard(index, 2)
        part = _conform(open_database(url, local=tmp_path / f"s{index}"), command, said, lanes=2, shard=shard)
        assert part.replayed == 1 and [f.unit for f in part.findings] == [f"lane:{index}/2"]
        assert part.findings[0].title.startswith(REPLAYED)  # the lane's own search found it again: once


def test_without_a_database_conform_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No setting: no replay, nothing written, no .hypothesis folder (as ``verify``)."""
    from rulecraft.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RULECRAFT_DATABASE", raising=False)
    impl = f"{sys.executable} {ROOT / 'bench' / 'planted.py'} air start-chips-seat-0"
    small = ["--no-scenarios", "--max-examples", "1", "--max-steps", "20", "--shrink-replays", "5", "--quiet"]
    assert main(["conform", "air", "--impl", impl, *small]) == 1  # the deviation is found
    assert not (tmp_path / ".hypothesis").exists()


# -- ambiguities -----------------------------------------------------------------------------------------------


def test_an_ambiguity_witness_is_replayed_first_and_its_search_skipped(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """AIR-AMB-09 (p. 4): the first worker's search finds a witness for each other reading; the next
    worker replays them under both readings and plays no game of its own for those pairs."""
    from rulecraft.profiles import open_database
    from rulecraft.witness import Budget, ambiguities

    url = redis_server.url(db=4)
    budget = Budget(seconds=120, max_examples=3, max_steps=40)
    said: list[str] = []
    database = open_database(url, local=tmp_path / "a")
    first = ambiguities("air", only=["AIR-AMB-09"], budget=budget, examples=False, database=database, say=said.append)
    pairs = {p.reading: p for p in first[0].pairs}
    assert sorted(pairs) == ["A", "C"] and said == []
    assert all(p.outcome == "witness" and p.finding is not None and p.games > 0 for p in pairs.values())
    keys = _keys(redis_server, 4, b"rulecraft-failures:ambiguities:air:AIR-AMB-09:")
    assert len(keys) == 2  # one per reading pair
    _plant(redis_server, 4, keys[0], MALFORMED)

    said = []
    database = open_database(url, local=tmp_path / "b")
    second = ambiguities("air", only=["AIR-AMB-09"], budget=budget, examples=False, database=database, say=said.append)
    for again in second[0].pairs:
        before = pairs[again.reading].finding
        assert again.outcome == "witness" and again.games == 0  # the same verdict, no search game
        assert again.finding is not None and before is not None
        assert again.reason == REPLAYED + before.title and again.finding.steps == before.steps
    assert sum("skipped a malformed saved failure" in line for line in said) == 1
    replays = [line for line in said if "replayed 1 saved difference(s)" in line]
    assert len(replays) == 2 and all("AIR-AMB-09=" in line and "1 still found" in line for line in replays)


# -- errata ----------------------------------------------------------------------------------------------------


def test_an_erratas_change_of_play_is_replayed_first_through_the_command_line(
    redis_server: RedisServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one-chip-pool variant (AIR-AMB-02 'pool'): one pool of 6 x 2 chips after set-up holds
    12 - 3 - 4 = 5, where each nation's 6 hold 3 and 2 (AIR-R-09, p. 2): play changes at set-up.
    Two ``rulecraft errata --database`` runs: the second replays the kept state, searching nothing."""
    from rulecraft.cli import main

    monkeypatch.chdir(tmp_path)
    url = redis_server.url(db=5)
    variant = str(ROOT / "examples" / "errata" / "airships-one-chip-pool.yaml")
    argv = ["errata", "air", variant, "--database", url, "--games", "1", "--campaign-games", "1"]
    argv += ["--max-steps", "40", "--seconds", "60", "--json", "--quiet"]

    def run() -> tuple[dict[str, Any], list[str]]:
        main(argv)
        out, err = capsys.readouterr()
        data: dict[str, Any] = json.loads(out)["play_changes"]
        return data, [line for line in err.splitlines() if line.startswith(("errata air", "rulecraft:"))]

    first, said = run()
    assert first["outcome"] == "witness" and said == []
    fields = {f["field"]: (f["default"], f["reading"]) for f in first["witness"]["fields"]}
    assert fields["supplies"] == ([3, 2], [5]) and first["witness"]["steps"] == []
    keys = _keys(redis_server, 5, b"rulecraft-failures:errata:air:witness:")
    assert len(keys) == 1 and b"one-chip-pool" in keys[0]

    second, said = run()
    assert second["outcome"] == "witness" and second["games"] == 0 and second["states_compared"] == 1
    assert second["reason"] == REPLAYED + first["reason"]
    assert second["witness"]["fields"] == first["witness"]["fields"]
    assert said == [
        f"errata air one-chip-pool: replayed 1 saved difference(s) from {url} before any new search: "
        "1 still found, 0 no longer found (dropped)"
    ]


# -- entries are checked, never run ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ({"start": {"setup": {"players": 2}, "state": {}}, "steps": []}, "start"),
        ({"start": {"setup": {"players": "two"}}, "steps": []}, "start.setup"),
        ({"start": {"state": {}}, "steps": [{"kind": "no-such-action"}]}, "steps[0]"),
        ({"start": {"state": {}}, "steps": [], "probe": 3}, "probe[0]"),
        ({"start": {"state": {}}, "steps": [], "full": {"path": [[]]}}, "full.path[0]"),
    ],
    ids=["two-starts", "bad-setup", "unknown-action", "probe-not-object", "path-not-actions"],
)
def test_a_kept_difference_is_checked_field_by_field(entry: dict[str, Any], field: str) -> None:
    from rulecraft.registry import make_game

    with pytest.raises(MalformedEntry, match=rf"^{field.replace('[', '.').replace(']', '.')}"):
        parse_difference(make_game("air"), entry)


def test_an_entry_nested_too_deeply_is_one_line_and_skipped() -> None:
    """JSON nested past the parser's depth is a malformed entry like any other, not a crash."""
    from hypothesis.database import InMemoryExampleDatabase

    from rulecraft.conformance.kept import DifferenceStore
    from rulecraft.registry import make_game

    said: list[str] = []
    store = DifferenceStore(InMemoryExampleDatabase(), "conform", make_game("air"), "differential", {}, say=said.append)
    store.store.database.save(store.store.key, b"[" * 200_000)
    assert store.replay(lambda kept: (None, 0)) == []
    assert len(said) == 1 and "nested too deeply" in said[0] and said[0].startswith("rulecraft: skipped")


def test_a_kept_difference_reads_back_as_it_was_kept() -> None:
    from rulecraft.registry import make_game

    kept = KeptDifference({"players": 2, "first_seat": 1, "options": {}}, None, (), unit="lane:1/1", root="a new game")
    assert parse_difference(make_game("air"), kept.to_json()) == kept
