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
from typing import Any

import attrs
from _harness import checked_steps_per_second, games_per_second, print_query_rows, query_times, uniform

from rulecraft.core import Chance, GameOver
from rulecraft.model.steamopolis.actions import BuyBanner, BuyBonusMarker, BuyMachine, PickUp, TakeBack, UseDistrict
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.state import Phase, StmState

BUSY = (BuyMachine, BuyBanner, BuyBonusMarker, UseDistrict, TakeBack, PickUp)


def choose(game: SteamopolisGame, state: StmState, rng: random.Random, policy: str) -> Any:
    """'uniform': every legal action equally likely; 'busy': a purchase, district use, pick-up or take-back
    when one is legal (random play seldom moves the game on otherwise)."""
    if policy != "busy":
        return uniform(game, state, rng)
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return None
    if isinstance(mover, Chance):
        return game.sample_chance(state, rng)
    legal = game.legal_actions(state)
    busy = [a for a in legal if isinstance(a, BUSY)]
    return rng.choice(busy or legal)


def busy(game: Any, state: Any, rng: random.Random) -> Any:
    return choose(game, state, rng, "busy")


def play(game: SteamopolisGame, players: int, seed: int, policy: str, max_steps: int) -> tuple[StmState, int]:
    rng = random.Random(seed)
    state = game.new_game(players)
    for step in range(max_steps):
        action = choose(game, state, rng, policy)
        if action is None:
            return state, step
        state = game.transition(state, action)  # generated actions: the check already holds
    return state, max_steps


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
        def one_game(seed: int) -> tuple[bool, int]:
            state, steps = play(game, 4, seed, policy, args.max_steps)
            return state.phase is Phase.OVER, steps

        return games_per_second(one_game, args.seconds)

    results: dict[str, Any] = {
        "uniform": games("uniform"),
        "busy": games("busy"),
        "checked_steps_per_s": checked_steps_per_second(game, args.seconds, (2, 3, 4), busy),
        "queries": query_times(game, action_states(game, args.states), QUERY_RUNS, _start_of_turn),
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
    print_query_rows(results["queries"], "query (mid-game 4-player states)")


if __name__ == "__main__":
    main()
