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
import statistics
import time
from collections.abc import Callable
from typing import Any

from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.registry import make_game
from rulecraft.tools import tools


def games_per_second(game: KingsOfAirAndSteamGame, seconds: float, players: int) -> dict[str, float]:
    start = time.perf_counter()
    games = steps = 0
    while time.perf_counter() - start < seconds:
        _, log = game.play_random(game.new_game(players), random.Random(games))
        games += 1
        steps += len(log)
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "steps_per_s": steps / elapsed, "steps_per_game": steps / games}


def checked_steps_per_second(game: KingsOfAirAndSteamGame, seconds: float) -> float:
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
            assert not tools(game).violations(state)
            steps += 1
    return steps / (time.perf_counter() - start)


def median_ms(fn: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def seven_player_state(game: KingsOfAirAndSteamGame) -> Any:
    """A mid-game state on the largest layout: random play to the third round."""
    state = game.new_game(7)
    rng = random.Random(7)
    while state.round < 3 or state.phase.value != "action":
        state = game.apply(state, game.random_action(state, rng))
    return state


def model_times(game: KingsOfAirAndSteamGame) -> dict[str, float]:
    """The model's own heavy steps on the 7-player layout (tests only check that the caches are used)."""
    import attrs

    from rulecraft.model.kings_of_air_and_steam.flight import FlightRules, endpoints

    game_map = game.ctx.game_map("ABCDEFG")
    start = next(iter(game_map.rail_hexes()))
    rules = FlightRules()
    state = seven_player_state(game)
    return {
        # a copy of the map has no tables yet: the search runs in full
        "flight_5_uncached_ms": median_ms(lambda: endpoints(attrs.evolve(game_map), start, 5, rules)),
        "flight_5_cached_ms": median_ms(lambda: endpoints(game_map, start, 5, rules), repeat=101),
        "legal_actions_7p_ms": median_ms(lambda: game.legal_actions(state)),
    }


def query_times(game: KingsOfAirAndSteamGame) -> list[dict[str, Any]]:
    """Each query, Z3 beside its oracle, on the bundled pack's 7-player layout ABCDEFG."""
    from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
    from rulecraft.solvers.kings_of_air_and_steam import deliveries as kd
    from rulecraft.solvers.kings_of_air_and_steam import flights as kf
    from rulecraft.solvers.kings_of_air_and_steam import plans as kp

    rows: list[dict[str, Any]] = []

    def row(name: str, z3: Callable[[], object], oracle: Callable[[], object], repeat: int = 5) -> None:
        z, o = median_ms(z3, repeat), median_ms(oracle, repeat)
        rows.append({"query": name, "z3_ms": z, "oracle_ms": o, "oracle_over_z3": o / z if z else None})

    spec = kp.plan_spec(game, ["S05", "S07", "S11", "S12"], money=12)
    row("plan: one 4-card plan", lambda: kp.check_plan(spec), lambda: kp.oracle_free(spec))
    row("plan: count all legal plans", lambda: kp.legal_plans(game, 12), lambda: kp.oracle_legal_plans(game, 12), 3)
    row("plan: best by movement", lambda: kp.best_plan(game, 12), lambda: kp.oracle_best_plan(game, 12), 3)
    for card in ("S12", "SKY", "DAV", "ROS"):
        fspec = kf.flight_spec(game, Hex(0, 0), card=card, layout="ABCDEFG")
        row(
            f"flight: {card} on ABCDEFG",
            lambda f=fspec: kf.card_ends(game, f),
            lambda f=fspec: kf.oracle_card_ends(game, f),
        )
    state = seven_player_state(game)
    for seat in range(7):
        view = kd.view_of(game, state, seat)
        row(f"deliveries: seat {seat} of 7", lambda v=view: kd.deliveries(v), lambda v=view: kd.oracle_deliveries(v), 3)
    view = kd.view_of(game, state, 0)
    row("sellout: seat 0 of 7", lambda: kd.sellout(view), lambda: kd.oracle_sellout(view), 3)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = make_game("kas")
    assert isinstance(game, KingsOfAirAndSteamGame)
    results: dict[str, Any] = {
        "four_players": games_per_second(game, args.seconds, 4),
        "seven_players": games_per_second(game, args.seconds, 7),
        "checked_steps_per_s": checked_steps_per_second(game, args.seconds),
        "model": model_times(game),
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
    model = results["model"]
    print(
        f"flight endpoints, length 5, ABCDEFG: {model['flight_5_uncached_ms']:.2f} ms searched, "
        f"{model['flight_5_cached_ms']:.3f} ms cached; legal actions, 7-player mid-game: "
        f"{model['legal_actions_7p_ms']:.1f} ms"
    )
    print(f"{'query (7-player layout ABCDEFG)':40} {'Z3':>10} {'oracle':>10} {'oracle/Z3':>10}")
    for row in results["queries"]:
        ratio = f"{row['oracle_over_z3']:.3g}" if row["oracle_over_z3"] is not None else "-"
        print(f"{row['query']:40} {row['z3_ms']:8.1f}ms {row['oracle_ms']:8.1f}ms {ratio:>10}")


if __name__ == "__main__":
    main()
