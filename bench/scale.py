"""Scale-out figures (issue 21, part 6): throughput with 1 and 2 workers, and how soon a failure one
worker finds is known to another.

    python bench/scale.py [--game air] [--seconds 20] [--json]

1. States compared per second: each worker is a separate process running a conformance campaign
   (differential games, rulecraft.conformance.differential) of the game's reference against the
   same rules in-process (:class:`rulecraft.conformance.inprocess.InProcess`), for ``--seconds``;
   a state compared is one step both sides took and compared (``steps_compared``).  One worker
   alone, then two at once with different seeds; the ratio of the totals is the figure (target
   >= 1.8x on a 2-core machine: it needs both cores free).  Beside it, the share of a core each
   worker had and the states per CPU-second of two workers against one: that one is 1.0 when the
   workers cost each other nothing, whatever else the machine runs.
2. Time until a planted failure found by one worker is known to the other: a real ``redis-server``
   (tests/redis_server.py, the tests' own) is the shared database; worker B runs a long ``verify``
   campaign whose games are too short to find the planted failure ("no game reaches its end",
   an invariant registered in the workers alone), worker A plays whole games, finds it and saves
   it.  The figure is the number of games B played between A's save and B's replay of it, and the
   seconds between (target: the next game it runs, i.e. at most the one game in flight).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the Redis server the tests start: shared, not copied

from redis_server import RedisServer, redis_binary  # noqa: E402 - tests/ is not a package

TARGET_RATIO = 1.8


# -- 1. throughput -------------------------------------------------------------------------------------


def throughput_worker(game_id: str, seconds: float, seed: int) -> dict[str, Any]:
    """One worker: differential games against the in-process reference for ``seconds``."""
    from rulecraft.conformance.differential import differential
    from rulecraft.conformance.findings import ConformReport
    from rulecraft.conformance.inprocess import InProcess
    from rulecraft.registry import make_game

    game, other = make_game(game_id), make_game(game_id)
    report = ConformReport(game.id, "in-process reference", seed=seed)
    report.protocol = 2
    start, cpu = time.perf_counter(), time.process_time()
    differential(
        game,
        InProcess(other),
        ("*",),
        max_examples=10**9,
        max_steps=max(game.campaign_steps, 1000),
        seed=seed,
        players=list(range(game.min_players, game.max_players + 1)),
        report=report,
        deadline=time.monotonic() + seconds,
        self_test=True,
    )
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"states": report.steps_compared, "games": report.examples_run, "seconds": elapsed, "cpu_seconds": cpu}


def _spawn(*argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), *argv], stdout=subprocess.PIPE, text=True, env=env
    )


def _result(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, _ = proc.communicate(timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"a worker failed (exit {proc.returncode})")
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def throughput(game_id: str, seconds: float) -> dict[str, Any]:
    alone = _result(_spawn("--throughput-worker", game_id, str(seconds), "1"))
    pair = [_spawn("--throughput-worker", game_id, str(seconds), str(seed)) for seed in (1, 2)]
    both = [_result(p) for p in pair]
    rate1 = alone["states"] / alone["seconds"]
    rate2 = sum(w["states"] / w["seconds"] for w in both)
    return {
        "game": game_id,
        "seconds": seconds,
        "one_worker_states_per_second": round(rate1, 1),
        "two_workers_states_per_second": round(rate2, 1),
        "ratio": round(rate2 / rate1, 2),
        # the share of a core each worker had: below 1 the machine was busy with others' work
        "cpu_share_alone": round(alone["cpu_seconds"] / alone["seconds"], 2),
        "cpu_share_of_two": [round(w["cpu_seconds"] / w["seconds"], 2) for w in both],
        # states per CPU-second, two workers against one: 1.0 means the workers cost each other
        # nothing, so the wall-clock ratio reaches 2x when each has a core of its own
        "per_cpu_efficiency": round(
            (sum(w["states"] for w in both) / sum(w["cpu_seconds"] for w in both))
            / (alone["states"] / alone["cpu_seconds"]),
            2,
        ),
        "target_ratio": TARGET_RATIO,
        "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }


# -- 2. how soon a failure is known to another worker ---------------------------------------------------------


def _plant() -> None:
    """The planted failure (Airships): registered in the bench's worker processes alone."""
    from rulecraft.invariants.airships import _invariant

    @_invariant("planted-no-end", "AIR-R-47")
    def planted_no_end(game: Any, state: Any) -> Iterator[str]:
        if game.is_over(state):
            yield "planted: the game reached its end"


class _Replayed(Exception):
    pass


def latency_worker(role: str, url: str, folder: str, log: str) -> None:
    """Worker A (``finder``) plays whole games until the planted failure is found and saved; worker B
    (``searcher``) plays short games until the failure is replayed.  Each appends timestamped events
    to ``log``."""
    from rulecraft import kept
    from rulecraft.profiles import open_database
    from rulecraft.registry import make_game
    from rulecraft.verify import verify_game

    _plant()
    game = make_game("air")
    database = open_database(url, local=Path(folder) / "local")
    empty = Path(folder) / "no-scenarios"  # the printed examples reach ends too: none here
    empty.mkdir(parents=True, exist_ok=True)

    def event(name: str, **data: Any) -> None:
        with open(log, "a", encoding="utf-8") as out:
            out.write(json.dumps({"who": role, "event": name, "time": time.time(), **data}) + "\n")

    if role == "finder":
        original = kept.FailureStore.save

        def save(self: kept.FailureStore[Any], entry: Any) -> bytes:
            raw = original(self, entry)
            event("saved")
            return raw

        kept.FailureStore.save = save  # type: ignore[method-assign]
        event("started")
        verify_game(game, seed=11, games=20, solver_count=0, shrink_replays=0, database=database, scenario_root=empty)
        return

    def say(line: str) -> None:
        event("replayed", line=line)
        if "still fail" in line and " 0 still fail" not in line:
            raise _Replayed

    event("started")
    try:
        verify_game(
            game,
            seed=5,
            games=100_000,
            max_steps=5,
            solver_count=0,
            shrink_replays=0,
            database=database,
            scenario_root=empty,
            progress=lambda phase, n: event("game") if phase == "campaign" else None,
            say=say,
        )
    except _Replayed:
        return


def latency() -> dict[str, Any]:
    binary = redis_binary()
    if binary is None:
        return {"skipped": "redis-server is not installed (apt-get install redis-server)"}
    with tempfile.TemporaryDirectory() as tmp:
        server = RedisServer(binary, Path(tmp))
        try:
            log = str(Path(tmp) / "events.jsonl")
            searcher = _spawn("--latency-worker", "searcher", server.url(1), str(Path(tmp) / "b"), log)
            time.sleep(3.0)  # B is searching when A starts
            finder = _spawn("--latency-worker", "finder", server.url(1), str(Path(tmp) / "a"), log)
            finder.communicate(timeout=900)
            searcher.communicate(timeout=900)
        finally:
            server.stop()
        events = [json.loads(line) for line in Path(log).read_text().splitlines()]
    saved = next(e["time"] for e in events if e["who"] == "finder" and e["event"] == "saved")
    replayed = next(
        e["time"] for e in events if e["who"] == "searcher" and e["event"] == "replayed" and e["time"] >= saved
    )
    between = [e for e in events if e["who"] == "searcher" and e["event"] == "game" and saved <= e["time"] <= replayed]
    games_b = [e for e in events if e["who"] == "searcher" and e["event"] == "game"]
    return {
        "games_b_finished_between_save_and_replay": len(between),
        "seconds_between_save_and_replay": round(replayed - saved, 3),
        "b_games_before_the_save": sum(1 for e in games_b if e["time"] < saved),
        "target": "the next game B runs (at most the one in flight finishes first)",
        "met": len(between) <= 1,
    }


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--throughput-worker"]:
        print(json.dumps(throughput_worker(args[1], float(args[2]), int(args[3]))))
        return 0
    if args[:1] == ["--latency-worker"]:
        latency_worker(*args[1:5])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="air")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args(args)
    figures = {"throughput": throughput(options.game, options.seconds), "shared_failure": latency()}
    if options.json:
        print(json.dumps(figures, indent=2))
        return 0
    t, s = figures["throughput"], figures["shared_failure"]
    print(
        f"{t['game']}: {t['one_worker_states_per_second']} states compared/s with 1 worker, "
        f"{t['two_workers_states_per_second']} with 2: {t['ratio']}x (target >= {TARGET_RATIO}x; "
        f"{t['cpus']} CPUs, load {t['load_average_before']}; share of a core: alone {t['cpu_share_alone']}, "
        f"two {t['cpu_share_of_two']}; per CPU-second, two workers do {t['per_cpu_efficiency']}x what one does)"
    )
    if "skipped" in s:
        print(f"shared failure: skipped: {s['skipped']}")
    else:
        print(
            f"shared failure: worker B replayed A's failure {s['seconds_between_save_and_replay']} s after A saved it, "
            f"finishing {s['games_b_finished_between_save_and_replay']} game(s) in between "
            f"({'met' if s['met'] else 'missed'}: {s['target']})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
