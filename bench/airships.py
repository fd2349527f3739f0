"""Airships benchmarks: throughput of the reference model and query times.

    python bench/airships.py [--seconds 5] [--json]

Measures, on one core:
- random full 4-player games per second (legal actions drawn uniformly,
  chance by its odds, every action re-checked by ``apply``);
- checked stateful steps per second (apply + every invariant after each step);
- reach (Z3) and chance (exact) query times beside their brute-force oracles,
  on the printed examples AIR-EX-04 and AIR-EX-06 and on seeded random specs.

Targets from the foundation issue: >= 200 games/s, >= 1,000 checked steps/s,
every query < 50 ms. The figures are reported whether or not they are met.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rulecraft.core import GameOver
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.registry import make_game
from rulecraft.solvers.airships.chance import chance
from rulecraft.solvers.airships.oracle import oracle, oracle_cost
from rulecraft.solvers.airships.queries import random_spec
from rulecraft.solvers.airships.reach import reach
from rulecraft.solvers.airships.spec import AttemptSpec
from rulecraft.tools import tools


def games_per_second(game: AirshipsGame, seconds: float, players: int = 4) -> dict[str, float]:
    start = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - start < seconds:
        _, log = game.play_random(game.new_game(players), random.Random(games))
        games += 1
        steps += len(log)
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "steps_per_s": steps / elapsed, "steps_per_game": steps / games}


def checked_steps_per_second(game: AirshipsGame, seconds: float) -> dict[str, float]:
    start = time.perf_counter()
    steps = 0
    seed = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        seed += 1
        state = game.new_game(rng.randint(2, 4))
        while not isinstance(game.to_move(state), GameOver) and time.perf_counter() - start < seconds:
            state = game.apply(state, game.random_action(state, rng))
            assert not tools(game).violations(state)
            steps += 1
    return {"checked_steps_per_s": steps / (time.perf_counter() - start)}


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


PRINTED = {
    "AIR-EX-04 (3 W, need 2 W for 5, 1 chip)": {"dice": "W=3", "need": "W=2", "target": 5, "chips": 1},
    "AIR-EX-06 (exchange 3W>1B, fixed W3, need W R B for 15)": {
        "dice": "W=5,R=3",
        "fixed": "W3",
        "exchange": "3W>1B",
        "need": "W=1,R=1,B=1",
        "target": 15,
        "chips": 1,
    },
    "AIR-EX-06 R1 (plus the old white engine +1)": {
        "dice": "W=5,R=3",
        "fixed": "W3",
        "exchange": "3W>1B",
        "engine": "W+1",
        "need": "W=1,R=1,B=1",
        "target": 15,
        "chips": 1,
    },
}


def query_times(game: AirshipsGame, random_specs: int) -> list[dict[str, Any]]:
    rows = []
    specs = [(name, AttemptSpec.from_params(params)) for name, params in PRINTED.items()]
    rng = random.Random(0)
    specs += [(f"random spec {i}", random_spec(game, rng)) for i in range(random_specs)]
    for name, spec in specs:
        cost = oracle_cost(game, spec)
        repeat_oracle = 1 if cost > 50_000 else 5
        rows.append(
            {
                "spec": name,
                "reach_z3_ms": median_ms(lambda spec=spec: reach(game, spec), 5),
                "chance_exact_ms": median_ms(lambda spec=spec: chance(game, spec), 5),
                "oracle_ms": median_ms(lambda spec=spec: oracle(game, spec), repeat_oracle),
                "oracle_faces": cost,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per throughput measurement")
    parser.add_argument("--random-specs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = make_game("air")
    assert isinstance(game, AirshipsGame)
    results: dict[str, Any] = {}
    results.update(games_per_second(game, args.seconds))
    results.update(checked_steps_per_second(game, args.seconds))
    results["queries"] = query_times(game, args.random_specs)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"random 4-player games/s  {results['games_per_s']:8.1f}   (target >= 200; "
        f"{results['steps_per_game']:.0f} steps/game, {results['steps_per_s']:.0f} steps/s)"
    )
    print(
        f"checked steps/s          {results['checked_steps_per_s']:8.0f}   (target >= 1,000; every invariant each step)"
    )
    print(f"{'query input':58} {'reach Z3':>10} {'chance':>9} {'oracle':>10} {'faces':>8}")
    for row in results["queries"]:
        print(
            f"{row['spec']:58} {row['reach_z3_ms']:8.1f}ms {row['chance_exact_ms']:7.2f}ms "
            f"{row['oracle_ms']:8.1f}ms {row['oracle_faces']:8d}"
        )


if __name__ == "__main__":
    main()
