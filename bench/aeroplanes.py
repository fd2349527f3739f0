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
from typing import Any

from _harness import checked_steps_per_second, games_per_second, play, print_query_rows, query_times, sample_states

from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.model.aeroplanes.state import AerState, Phase


def action_states(game: AeroplanesGame, count: int) -> list[AerState]:
    """States where a seat chooses its action, sampled along random 4-player games after round 2."""

    def keep(state: AerState, rng: random.Random) -> bool:
        return state.phase is Phase.ACTION and (state.era > 1 or state.round > 2) and rng.random() < 0.1

    return sample_states(game, count, keep)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--states", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=AeroplanesGame.campaign_steps)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = AeroplanesGame()

    def one_game(seed: int) -> tuple[bool, int]:
        state, steps = play(game, 4, seed, args.max_steps)
        return state.phase is Phase.OVER, steps

    results: dict[str, Any] = {
        "random": games_per_second(one_game, args.seconds),
        "checked_steps_per_s": checked_steps_per_second(game, args.seconds, (3, 4, 5)),
        "queries": query_times(game, action_states(game, args.states), QUERY_RUNS),
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
    print_query_rows(results["queries"], "query (4-player action states)")


if __name__ == "__main__":
    main()
