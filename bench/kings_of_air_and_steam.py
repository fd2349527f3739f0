"""Kings of Air and Steam benchmarks: model throughput and query times.

    python bench/kings_of_air_and_steam.py [--seconds 5] [--json]

Measures, on one core, on the bundled pack:
- random full 4-player games per second (layout ABCDE) and 7-player games
  per second (the largest layout, ABCDEFG);
- checked steps per second (apply + every invariant after each step);
- each registered query's time, Z3 beside its oracle, on a mid-game
  7-player state (when the queries are installed).

Targets from the issue: >= 20 random 4-player games/s, >= 1,000 checked
steps/s, every query < 200 ms on the 7-player layout.  Figures are
reported whether or not they meet the targets.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from rulecraft.model.kings_of_air_and_steam.game import KasGame
from rulecraft.registry import make_game


def games_per_second(game: KasGame, seconds: float, players: int) -> dict[str, float]:
    start = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - start < seconds:
        _, log = game.play_random(game.new_game(players), random.Random(games))
        games += 1
        steps += len(log)
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "steps_per_s": steps / elapsed, "steps_per_game": steps / games}


def checked_steps_per_second(game: KasGame, seconds: float) -> float:
    start = time.perf_counter()
    steps = seed = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        seed += 1
        state = game.new_game(rng.randint(2, 7))
        while time.perf_counter() - start < seconds:
            action = game.random_action(state, rng)
            if action is None:
                break
            state = game.apply(state, action)
            assert not game.violations(state)
            steps += 1
    return steps / (time.perf_counter() - start)


def query_times(game: KasGame) -> list[dict[str, Any]]:
    """Each query's oracle_check on seeded inputs: the pair of times it reports, or the wall time."""
    rows = []
    rng = random.Random(0)
    for name, query in game.queries().items():
        check = getattr(query, "oracle_check", None)
        if check is None:
            continue
        times = []
        for _ in range(5):
            t = time.perf_counter()
            problem = check(game, rng)
            times.append((time.perf_counter() - t) * 1000)
            if problem:
                rows.append({"query": name, "disagreement": problem})
        rows.append({"query": name, "z3_and_oracle_ms_median": sorted(times)[len(times) // 2]})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = make_game("kas")
    assert isinstance(game, KasGame)
    results: dict[str, Any] = {
        "four_players": games_per_second(game, args.seconds, 4),
        "seven_players": games_per_second(game, args.seconds, 7),
        "checked_steps_per_s": checked_steps_per_second(game, args.seconds),
        "queries": query_times(game),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    four, seven = results["four_players"], results["seven_players"]
    print(
        f"random 4-player games/s  {four['games_per_s']:7.1f}  (target >= 20; "
        f"{four['steps_per_game']:.0f} steps/game, {four['steps_per_s']:.0f} steps/s)"
    )
    print(
        f"random 7-player games/s  {seven['games_per_s']:7.1f}  "
        f"({seven['steps_per_game']:.0f} steps/game, {seven['steps_per_s']:.0f} steps/s)"
    )
    print(f"checked steps/s          {results['checked_steps_per_s']:7.0f}  (target >= 1,000)")
    for row in results["queries"]:
        print(f"query {row['query']:<12} {row}")


if __name__ == "__main__":
    main()
