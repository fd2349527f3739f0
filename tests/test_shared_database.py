"""A shared example database on a real Redis server (issue 21, parts 1 and 4).

A session fixture starts Debian's ``redis-server`` on a free loopback port with no persistence and
stops it at the end; without the binary the tests skip, unless ``RULECRAFT_REQUIRE_REDIS=1`` (CI),
where they fail.  Workers are separate Python processes, as on many machines.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from redis_server import RedisServer, required_binary  # the session fixture `redis_server` is in tests/conftest.py

from rulecraft.cli import EXIT_USAGE, main
from rulecraft.profiles import DatabaseSettingError, SharedDatabase, open_database

ROOT = Path(__file__).resolve().parents[1]


def _worker(script: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in its own Python, in ``folder`` (its local database lives there)."""
    path = folder / "worker.py"
    path.write_text(textwrap.dedent(script))
    return subprocess.run(
        [sys.executable, str(path)],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


# One property, the same source (so the same database key) in every worker: it fails on the numbers
# LOW..HIGH.  The first worker fails on every number from 1000 up, which search finds at once and
# shrinks to exactly 1000; the second fails on 1000 alone, which a seeded search over 0..2**32 with
# three examples does not reach.  The first example each worker runs is printed.
PROPERTY = """
    import json, os, sys
    from hypothesis import given, seed, settings, strategies as st
    from rulecraft.profiles import open_database

    LOW, HIGH = int(os.environ["LOW"]), int(os.environ["HIGH"])
    seen = []

    @settings(database=open_database(os.environ["URL"]), max_examples=int(os.environ["EXAMPLES"]), deadline=None)
    @seed(int(os.environ["SEED"]))
    @given(st.integers(0, 2**32))
    def planted(x):
        seen.append(x)
        assert not LOW <= x <= HIGH, "planted failure"

    try:
        planted()
        failed = False
    except AssertionError:
        failed = True
    print(json.dumps({"failed": failed, "first": seen[0], "last": seen[-1]}))
"""


def _run_property(tmp: Path, url: str, low: int, high: int, examples: int, seed: int) -> dict[str, object]:
    folder = tmp / f"w-{low}-{high}-{examples}-{seed}-{url.rsplit('/', 1)[-1]}"
    folder.mkdir()
    done = _worker(
        PROPERTY,
        folder,
        {"URL": url, "LOW": str(low), "HIGH": str(high), "EXAMPLES": str(examples), "SEED": str(seed)},
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_failure_found_by_one_worker_is_the_first_example_of_the_next(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Issue 21 part 4: worker 1 finds and saves the planted failure in Redis; worker 2, another
    process with another seed and three examples, runs it first and fails on it."""
    url = redis_server.url(db=1)
    control_url = redis_server.url(db=2)  # an empty database: what worker 2 finds by search alone
    control = _run_property(tmp_path, control_url, 1000, 1000, 3, seed=7)
    assert control["failed"] is False and control["first"] != 1000

    first = _run_property(tmp_path, url, 1000, 2**40, 200, seed=1)
    assert first["failed"] is True and first["last"] == 1000  # shrunk, then replayed last
    assert redis_server.keys(db=1), "the failure was not saved in Redis"

    second = _run_property(tmp_path, url, 1000, 1000, 3, seed=7)
    assert second == {"failed": True, "first": 1000, "last": 1000}


MACHINE = """
    import os, unittest
    from hypothesis import Phase, settings
    from hypothesis.stateful import invariant
    from rulecraft.profiles import open_database
    from rulecraft.testing import GameMachine

    class Planted(GameMachine):
        game_id = "air"

        @invariant()
        def planted_deviation(self):
            assert self.steps < 3, "planted deviation after three steps"

    # the finding run does not shrink (seconds of state-machine shrinking; the unshrunk failure is saved)
    phases = [Phase.reuse] if os.environ["REUSE_ONLY"] == "1" else [Phase.reuse, Phase.generate]
    Planted.TestCase.settings = settings(
        database=open_database(os.environ["URL"]), max_examples=20, stateful_step_count=5, deadline=None,
        phases=phases, suppress_health_check=list(__import__("hypothesis").HealthCheck),
    )
    try:
        Planted.TestCase("runTest").runTest()
        print("passed")
    except AssertionError as exc:
        print("failed:", str(exc).splitlines()[0])
    except unittest.SkipTest:
        print("nothing to replay")
"""


def test_a_rulecraft_state_machine_failure_is_replayed_from_redis(redis_server: RedisServer, tmp_path: Path) -> None:
    """A rulecraft.testing search stores its failure in Redis; a second run with the replay phase
    alone (no search at all) fails on it, while the same run on an empty database passes."""
    url, empty = redis_server.url(db=3), redis_server.url(db=4)
    outcomes = []
    for n, (where, reuse_only) in enumerate([(empty, "1"), (url, "0"), (url, "1")]):
        folder = tmp_path / f"m{n}"
        folder.mkdir()
        done = _worker(MACHINE, folder, {"URL": where, "REUSE_ONLY": reuse_only})
        assert done.returncode == 0, done.stderr
        outcomes.append(done.stdout.strip().splitlines()[-1])
    assert outcomes[0] == "nothing to replay"
    assert outcomes[1].startswith("failed: planted deviation")
    assert outcomes[2].startswith("failed: planted deviation")  # read back from Redis, not searched
    assert redis_server.keys(db=3)


def test_redis_going_away_mid_run_falls_back_to_the_local_database(tmp_path: Path) -> None:
    """The server stops in the middle of a search: the search completes, its failure is kept in the
    local folder, and one line naming the URL says so."""
    server = RedisServer(required_binary(), tmp_path)
    local = tmp_path / "local"
    stderr = io.StringIO()
    try:
        database = open_database(server.url(), local=local)
        assert isinstance(database, SharedDatabase)
        database._stream = stderr
        calls = []

        @settings(database=database, max_examples=100, deadline=None, phases=[Phase.generate, Phase.shrink])
        @given(st.integers(0, 1000))
        def search(x: int) -> None:
            calls.append(x)
            if len(calls) == 5:
                server.stop()
            assert len(calls) < 10, "planted failure after the server stopped"

        with pytest.raises(AssertionError, match="planted failure"):
            search()
    finally:
        server.stop()
    lines = stderr.getvalue().splitlines()
    assert len(lines) == 1 and server.url() in lines[0] and "local database" in lines[0]
    assert any(local.rglob("*")), "the failure was not kept in the local folder"


@pytest.mark.parametrize(
    "setting",
    ["redis://", "redis://host", "redis://host:port", "redis://host:1/x", "http://host:1", "redis://:1", ""],
)
def test_a_malformed_database_setting_is_one_line(setting: str) -> None:
    with pytest.raises(DatabaseSettingError, match="database: ") as caught:
        open_database(setting)
    assert "\n" not in str(caught.value)


def test_a_malformed_database_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "air", "--database", "redis://nowhere"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "redis://HOST:PORT[/DB]" in err and "Traceback" not in err


def test_a_folder_setting_is_a_directory_database(tmp_path: Path) -> None:
    database = open_database("examples", base=tmp_path)
    assert database == DirectoryBasedExampleDatabase(tmp_path / "examples")


def test_a_malformed_url_in_the_project_file_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.rulecraft]\ndatabase = "redis://host:port"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RULECRAFT_DATABASE", raising=False)
    assert main(["verify", "air"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tool.rulecraft.database" in err and "redis://HOST:PORT[/DB]" in err


def test_the_pytest_option_and_the_environment_variable_choose_the_database(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """``--rulecraft-database`` wins over ``RULECRAFT_DATABASE``; both reach every search's settings."""
    (tmp_path / "test_probe.py").write_text(
        textwrap.dedent(
            """
            import os
            from hypothesis import settings

            def test_probe():
                database = settings().database
                assert getattr(database, "url", None) == os.environ["EXPECTED"], repr(database)
            """
        )
    )
    option, variable = redis_server.url(db=5), redis_server.url(db=6)
    for argv, expected in [(["--rulecraft-database", option], option), ([], variable)]:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *argv, "test_probe.py"],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT), "RULECRAFT_DATABASE": variable, "EXPECTED": expected},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_database_option_beats_the_variable_which_beats_the_project_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--database`` on a searching verb, then ``RULECRAFT_DATABASE``, then ``[tool.rulecraft]``;
    the run's searches see it, and the profile before is back after."""
    import rulecraft.cli as cli

    (tmp_path / "pyproject.toml").write_text('[tool.rulecraft]\ndatabase = "redis://127.0.0.1:1/3"\n')
    monkeypatch.chdir(tmp_path)
    before = settings().database
    seen: list[object] = []

    def errata(args: object) -> int:
        seen.append(getattr(settings().database, "url", None))
        return 0

    monkeypatch.setattr(cli, "cmd_errata", errata)
    monkeypatch.delenv("RULECRAFT_DATABASE", raising=False)
    assert main(["errata", "air", "x.toml"]) == 0
    monkeypatch.setenv("RULECRAFT_DATABASE", "redis://127.0.0.1:1/2")
    assert main(["errata", "air", "x.toml"]) == 0
    assert main(["errata", "air", "x.toml", "--database", "redis://127.0.0.1:1/1"]) == 0
    assert seen == ["redis://127.0.0.1:1/3", "redis://127.0.0.1:1/2", "redis://127.0.0.1:1/1"]
    assert settings().database == before
