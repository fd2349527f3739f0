"""Steamopolis benchmarks: model throughput and query times.

    python bench/steamopolis.py [--seconds 5] [--states 20] [--json]

Measures, on one core, on the bundled (reconstructed) pack:
- random full 4-player games per second, under two policies: ``uniform`` (every legal action
  equally likely: games are long, because random play seldom transports passengers or buys
  out markets, the two end triggers of STM-R-64) and ``busy`` (when a flight step, purchase or
  district use is legal, one of those; otherwise uniform).  Games still running after
  ``--max-steps`` are counted apart, never as finished;
- checked steps per second (apply + every invariant after each step);
- each query's time, Z3 beside its brute-force oracle, on mid-game states of random games
  (median and worst over ``--states`` states).

Targets from the issue: >= 20 random 4-player games/s, >= 1,000 checked steps/s, every query
< 200 ms.  Figures are reported whether or not they meet the targets.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from rulecraft.core import Chance, GameOver
from rulecraft.model.steamopolis.actions import BuyBanner, BuyBonusMarker, BuyMachine, PickUp, TakeBack, UseDistrict
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.state import Phase, StmState

BUSY = (BuyMachine, BuyBanner, BuyBonusMarker, UseDistrict, TakeBack, PickUp)


def choose(game: SteamopolisGame, state: StmState, rng: random.Random, policy: str) -> Any:
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return None
    if isinstance(mover, Chance):
        return game.sample_chance(state, rng)
    legal = game.legal_actions(state)
    if policy == "busy":
        busy = [a for a in legal if isinstance(a, BUSY)]
        return rng.choice(busy or legal)
    return rng.choice(legal)


def play(game: SteamopolisGame, players: int, seed: int, policy: str, max_steps: int) -> tuple[StmState, int]:
    rng = random.Random(seed)
    state = game.new_game(players)
    for step in range(max_steps):
        action = choose(game, state, rng, policy)
        if action is None:
            return state, step
        state = game.transition(state, action)  # generated actions: the check already holds
    return state, max_steps


def games_per_second(game: SteamopolisGame, seconds: float, policy: str, max_steps: int) -> dict[str, float]:
    start = time.perf_counter()
    finished = capped = steps = 0
    seed = 0
    while time.perf_counter() - start < seconds:
        state, n = play(game, 4, seed, policy, max_steps)
        seed += 1
        steps += n
        if state.phase is Phase.OVER:
            finished += 1
        else:
            capped += 1
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": finished / elapsed,
        "finished": finished,
        "capped": capped,
        "steps_per_s": steps / elapsed,
        "steps_per_finished_game": steps / finished if finished else float("nan"),
    }


def checked_steps_per_second(game: SteamopolisGame, seconds: float) -> float:
    start = time.perf_counter()
    steps = seed = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        seed += 1
        state = game.new_game(rng.randint(2, 4))
        while time.perf_counter() - start < seconds:
            action = choose(game, state, rng, "busy")
            if action is None:
                break
            state = game.apply(state, action)
            assert not game.violations(state)
            steps += 1
    return steps / (time.perf_counter() - start)


def action_states(game: SteamopolisGame, count: int) -> list[StmState]:
    """States where a seat chooses its action, sampled along 'busy' random 4-player games."""
    out: list[StmState] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(1000 + seed)
        seed += 1
        state = game.new_game(4)
        for _ in range(3000):
            if state.phase is Phase.ACTION and not state.turn.pending and state.round > 2 and rng.random() < 0.05:
                out.append(state)
                if len(out) == count:
                    break
            action = choose(game, state, rng, "busy")
            if action is None:
                break
            state = game.apply(state, action)
    return out


QUERY_RUNS: list[tuple[str, str, dict[str, Any]]] = [
    ("placements: every placement", "placements", {}),
    ("placements: --best resources", "placements", {"best": "resources"}),
    ("placements: --wish 8", "placements", {"wish": "8"}),
    ("gauge: reachable, X = 5", "gauge", {"x": 5}),
    ("top: fewest turns to level 8", "top", {}),
]


def query_times(game: SteamopolisGame, states: list[StmState]) -> list[dict[str, Any]]:
    queries = game.queries()
    rows = []
    for label, name, params in QUERY_RUNS:
        z3_ms: list[float] = []
        oracle_ms: list[float] = []
        disagree = 0
        for state in states:
            if name == "top":
                state = _start_of_turn(state)
            answer = queries[name].run(game, {**params, "oracle": True}, state)
            z3_ms.append(float(answer.get("ms", 0.0)))
            oracle_ms.append(float(answer.get("oracle", {}).get("ms", 0.0)))
            disagree += answer.get("agrees") is False
        rows.append(
            {
                "query": label,
                "z3_median_ms": statistics.median(z3_ms),
                "z3_max_ms": max(z3_ms),
                "oracle_median_ms": statistics.median(oracle_ms),
                "oracle_max_ms": max(oracle_ms),
                "disagreements": disagree,
                "states": len(states),
            }
        )
    return rows


def _start_of_turn(state: StmState) -> StmState:
    import attrs

    return attrs.evolve(state, phase=Phase.START_OF_TURN)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--states", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = SteamopolisGame()
    results: dict[str, Any] = {
        "uniform": games_per_second(game, args.seconds, "uniform", args.max_steps),
        "busy": games_per_second(game, args.seconds, "busy", args.max_steps),
        "checked_steps_per_s": checked_steps_per_second(game, args.seconds),
        "queries": query_times(game, action_states(game, args.states)),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for policy in ("uniform", "busy"):
        r = results[policy]
        print(
            f"random 4-player games/s ({policy:7}) {r['games_per_s']:7.2f}  (target >= 20; {r['finished']} finished,"
            f" {r['capped']} stopped at {args.max_steps} steps; {r['steps_per_finished_game']:.0f} steps/finished"
            f" game, {r['steps_per_s']:.0f} steps/s)"
        )
    print(f"checked steps/s                   {results['checked_steps_per_s']:7.0f}  (target >= 1,000)")
    print(f"{'query (mid-game 4-player states)':34} {'Z3 med':>9} {'Z3 max':>9} {'oracle med':>11} {'oracle max':>11}")
    for row in results["queries"]:
        print(
            f"{row['query']:34} {row['z3_median_ms']:7.1f}ms {row['z3_max_ms']:7.1f}ms"
            f" {row['oracle_median_ms']:9.1f}ms {row['oracle_max_ms']:9.1f}ms"
            + (f"  {row['disagreements']} DISAGREE" if row["disagreements"] else "")
        )


if __name__ == "__main__":
    main()
