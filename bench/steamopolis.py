"""Steamopolis benchmarks: model throughput and query times.

    python bench/steamopolis.py [--seconds 5] [--states 20] [--json]

Measures, on one core, on the bundled (reconstructed) pack:
- random full 4-player games per second under the model's two playout policies
  (rulecraft.model.steamopolis.policies): ``purposeful`` (random, but towards the passengers and
  the markets, as a player plays: games end in about 30 rounds) and ``uniform`` (every legal action
  equally likely: a random walk that seldom carries a passenger, so STM-R-64 triggers only after
  hundreds of rounds).  Each line gives the rounds per finished game, so the two are comparable per
  decision as well.  Games still running after ``--max-steps`` are counted apart, never as finished;
- checked steps per second (apply + every invariant after each step);
- each query's time, Z3 beside its brute-force oracle, on mid-game states of purposeful games
  (median and worst over ``--states`` states).

Targets from the issue: >= 20 random 4-player games/s, >= 1,000 checked steps/s, every query
< 200 ms.  Figures are reported whether or not they meet the targets.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from typing import Any

import attrs
from _harness import checked_steps_per_second, games_per_second, play, print_query_rows, query_times, sample_states

from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.state import Phase, StmState


def action_states(game: SteamopolisGame, count: int) -> list[StmState]:
    """States where a seat chooses its action, sampled along purposeful random 4-player games."""

    def keep(state: StmState, rng: random.Random) -> bool:
        return state.phase is Phase.ACTION and not state.turn.pending and state.round > 2 and rng.random() < 0.05

    return sample_states(game, count, keep, "purposeful")


QUERY_RUNS: list[tuple[str, str, dict[str, Any]]] = [
    ("placements: every placement", "placements", {}),
    ("placements: --best resources", "placements", {"best": "resources"}),
    ("placements: --wish 8", "placements", {"wish": "8"}),
    ("gauge: reachable, X = 5", "gauge", {"x": 5}),
    ("top: fewest turns to level 8", "top", {}),
]


def _start_of_turn(query: str, state: StmState) -> StmState:
    """'top' counts turns from a turn's start."""
    return attrs.evolve(state, phase=Phase.START_OF_TURN) if query == "top" else state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--states", type=int, default=20)
    parser.add_argument("--max-steps", type=int, default=20_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = SteamopolisGame()

    def games(policy: str) -> dict[str, float]:
        rounds: list[int] = []

        def one_game(seed: int) -> tuple[bool, int]:
            state, steps = play(game, 4, seed, args.max_steps, policy)
            if state.phase is Phase.OVER:
                rounds.append(state.round)
            return state.phase is Phase.OVER, steps

        result = games_per_second(one_game, args.seconds)
        result["rounds_per_finished_game"] = statistics.mean(rounds) if rounds else float("nan")
        return result

    results: dict[str, Any] = {
        "purposeful": games("purposeful"),
        "uniform": games("uniform"),
        "checked_steps_per_s": checked_steps_per_second(game, args.seconds, (2, 3, 4), "purposeful"),
        "queries": query_times(game, action_states(game, args.states), QUERY_RUNS, _start_of_turn),
    }
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for policy in ("purposeful", "uniform"):
        r = results[policy]
        print(
            f"random 4-player games/s ({policy:10}) {r['games_per_s']:7.2f}  (target >= 20; {r['finished']} finished,"
            f" {r['capped']} stopped at {args.max_steps} steps; {r['rounds_per_finished_game']:.0f} rounds and"
            f" {r['steps_per_finished_game']:.0f} steps per finished game, {r['steps_per_s']:.0f} steps/s)"
        )
    print(f"checked steps/s                      {results['checked_steps_per_s']:7.0f}  (target >= 1,000)")
    print_query_rows(results["queries"], "query (mid-game 4-player states)")


if __name__ == "__main__":
    main()
