"""Aeroplanes: Aviation Ascendant benchmarks: model throughput and query times.

    python bench/aeroplanes.py [--seconds 5] [--states 20] [--json]

Measures, on one core, on the bundled (reconstructed) pack:
- random full 4-player games per second (every legal action equally likely, chance by its exact
  odds); games still running after ``--max-steps`` are counted apart, never as finished;
- checked steps per second (apply + every named invariant after each step);
- each query's time, Z3 beside its brute-force oracle, on states of random games where a seat
  chooses its action (median and worst over ``--states`` states).

Targets from issue 7: >= 50 random 4-player games/s, >= 1,000 checked steps/s, every query
< 200 ms.  Figures are reported whether or not they meet the targets.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from rulecraft.core import Chance, GameOver, RulecraftError
from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.model.aeroplanes.state import AerState, Phase


def choose(game: AeroplanesGame, state: AerState, rng: random.Random) -> Any:
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return None
    if isinstance(mover, Chance):
        return game.sample_chance(state, rng)
    return rng.choice(game.legal_actions(state))


def play(game: AeroplanesGame, players: int, seed: int, max_steps: int) -> tuple[AerState, int]:
    rng = random.Random(seed)
    state = game.new_game(players)
    for step in range(max_steps):
        action = choose(game, state, rng)
        if action is None:
            return state, step
        state = game.transition(state, action)  # generated actions: the check already holds
    return state, max_steps


def games_per_second(game: AeroplanesGame, seconds: float, max_steps: int) -> dict[str, float]:
    start = time.perf_counter()
    finished = capped = steps = seed = 0
    while time.perf_counter() - start < seconds:
        state, n = play(game, 4, seed, max_steps)
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


def checked_steps_per_second(game: AeroplanesGame, seconds: float) -> float:
    start = time.perf_counter()
    steps = seed = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        seed += 1
        state = game.new_game(rng.randint(3, 5))
        while time.perf_counter() - start < seconds:
            action = choose(game, state, rng)
            if action is None:
                break
            state = game.apply(state, action)  # the check, then the transition
            problems = game.violations(state)
            assert not problems, problems
            steps += 1
    return steps / (time.perf_counter() - start)


def action_states(game: AeroplanesGame, count: int) -> list[AerState]:
    """States where a seat chooses its action, sampled along random 4-player games after round 2."""
    out: list[AerState] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(1000 + seed)
        seed += 1
        state = game.new_game(4)
        for _ in range(3000):
            if state.phase is Phase.ACTION and (state.era > 1 or state.round > 2) and rng.random() < 0.1:
                out.append(state)
                if len(out) == count:
                    break
            action = choose(game, state, rng)
            if action is None:
                break
            state = game.apply(state, action)
    return out


# (label, query name, parameters); a query that refuses a state (no candidate) is skipped for it.
QUERY_RUNS: list[tuple[str, str, dict[str, Any]]] = [
    ("placements: every destination", "placements", {}),
    ("placements: --wish Australia", "placements", {"wish": "Australia"}),
    ("risk: the state's hardest attempt", "risk", {}),
    ("risk: rolls 12+, 10+ (example 1)", "risk", {"targets": "12,10"}),
    ("risk: rolls 14+, 12+, 12+", "risk", {"targets": "14,12,12"}),
    ("standings: profitability", "standings", {"profit": True}),
    ("standings: a market", "standings", {"market": "Europe"}),
]


def query_times(game: AeroplanesGame, states: list[AerState]) -> list[dict[str, Any]]:
    queries = game.queries()
    rows = []
    for label, name, params in QUERY_RUNS:
        if name not in queries:
            rows.append({"query": label, "missing": True})
            continue
        z3_ms: list[float] = []
        oracle_ms: list[float] = []
        disagree = skipped = 0
        for state in states:
            try:
                answer = queries[name].run(game, {**params, "oracle": True}, state)
            except RulecraftError:
                skipped += 1
                continue
            z3_ms.append(float(answer.get("ms", 0.0)))
            oracle_ms.append(float(answer.get("oracle", {}).get("ms", 0.0)))
            disagree += answer.get("agrees") is False
        if not z3_ms:
            rows.append({"query": label, "missing": False, "states": 0, "skipped": skipped})
            continue
        rows.append(
            {
                "query": label,
                "missing": False,
                "z3_median_ms": statistics.median(z3_ms),
                "z3_max_ms": max(z3_ms),
                "oracle_median_ms": statistics.median(oracle_ms),
                "oracle_max_ms": max(oracle_ms),
                "disagreements": disagree,
                "states": len(z3_ms),
                "skipped": skipped,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--states", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=AeroplanesGame.campaign_steps)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = AeroplanesGame()
    results: dict[str, Any] = {
        "random": games_per_second(game, args.seconds, args.max_steps),
        "checked_steps_per_s": checked_steps_per_second(game, args.seconds),
        "queries": query_times(game, action_states(game, args.states)),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    r = results["random"]
    print(
        f"random 4-player games/s  {r['games_per_s']:7.2f}  (target >= 50; {r['finished']} finished,"
        f" {r['capped']} stopped at {args.max_steps} steps; {r['steps_per_finished_game']:.0f} steps/finished"
        f" game, {r['steps_per_s']:.0f} steps/s)"
    )
    print(f"checked steps/s          {results['checked_steps_per_s']:7.0f}  (target >= 1,000)")
    print(f"{'query (4-player action states)':34} {'Z3 med':>9} {'Z3 max':>9} {'oracle med':>11} {'oracle max':>11}")
    for row in results["queries"]:
        if row.get("missing"):
            print(f"{row['query']:34} (query not installed)")
        elif not row.get("states"):
            print(f"{row['query']:34} (no state it applies to; {row['skipped']} skipped)")
        else:
            print(
                f"{row['query']:34} {row['z3_median_ms']:7.1f}ms {row['z3_max_ms']:7.1f}ms"
                f" {row['oracle_median_ms']:9.1f}ms {row['oracle_max_ms']:9.1f}ms"
                + (f"  {row['disagreements']} DISAGREE" if row["disagreements"] else "")
                + (f"  ({row['skipped']} skipped)" if row["skipped"] else "")
            )


if __name__ == "__main__":
    main()
