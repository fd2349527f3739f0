"""The floor under a random game's speed (issue 18): what a step's effects alone cost, so a target can be
judged reachable or not before anyone tunes the move generation for it.

    python bench/floor.py [--games 12] [--seconds 3] [--game GAME] [--json]

For each game and policy bench/speed.py times (4 players), it plays seeded random games as bench/speed.py
does (seeds 0, 1, ..., as many as fill a CPU-time window, at least ``--games``), each game new to the
process as there, and times each step's two parts with the monotonic clock: the draw (``random_action``)
and the effects (``transition``).

A step can never be faster than its effects, so ``steps / time in the effects`` is the most steps per
second, and that over the steps per game the most games per second, a game can reach while its effects
stay as they are, however fast its moves are drawn.  The run prints that ceiling against the target, and
the effects' rate against OpenSpiel's fastest pure-Python game (kuhn poker) when ``open_spiel`` is
installed.  The games are the same on every machine (their seeds); the times are a benchmark's, which is
why each figure is set beside the others of the same run.  Each part's time holds one reading of the clock
(its cost is measured and printed; a step takes thousands of times as long).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from speed import MAX_STEPS, PEERS_PYTHON, TARGETS, peer_rate  # bench/ is not a package: its folder is put first

from rulecraft.compiled import describe
from rulecraft.core import Game
from rulecraft.registry import make_game


def play_timed(game: Game[Any, Any], players: int, rng: random.Random, policy: str) -> tuple[str, int, int, int]:
    """bench/speed.py's ``play_one`` with each part of a step timed: how the game ended ('over', 'stalled'
    or 'cap'), its steps, and the nanoseconds spent drawing moves and applying them.  The loop is written out
    rather than ``play_one`` run on a timing proxy: a proxy's extra call per part measured 9% off the effects'
    rate, and a ceiling must not be understated (tests/test_bench_floor.py holds the two loops' games equal)."""
    clock, draw, effects = time.perf_counter_ns, 0, 0
    random_action, transition = game.random_action, game.transition
    state = game.new_game(players)
    for step in range(MAX_STEPS):
        if step % 50 == 49 and game.stalled(state):
            return "stalled", step, draw, effects
        t0 = clock()
        action = random_action(state, rng, policy)
        t1 = clock()
        draw += t1 - t0
        if action is None:
            return "over", step, draw, effects
        state = transition(state, action)
        effects += clock() - t1
    return "cap", MAX_STEPS, draw, effects


def clock_cost(reads: int = 100_000) -> float:
    """Nanoseconds one reading of the monotonic clock takes (each timed part holds one)."""
    clock = time.perf_counter_ns
    start = clock()
    for _ in range(reads):
        clock()
    return (clock() - start) / reads


def floor_row(game_id: str, policy: str, games: int, seconds: float) -> dict[str, Any]:
    game = make_game(game_id)
    players = min(4, game.max_players)
    played = steps = draw = effects = 0
    start = time.process_time()
    while played < games or time.process_time() - start < seconds:
        _, n, d, e = play_timed(game, players, random.Random(played), policy)
        steps, draw, effects, played = steps + n, draw + d, effects + e, played + 1
    cpu = time.process_time() - start
    if steps == 0 or effects == 0:
        raise SystemExit(f"bench/floor.py: {game_id} {policy}: the games took no step; nothing to time")
    per_game = steps / played
    effects_rate = steps / (effects / 1e9)
    target = TARGETS[(game_id, policy)]
    return {
        "game": game_id,
        "policy": policy,
        "players": players,
        "games": played,
        "steps_per_game": per_game,
        "steps_per_s": steps / cpu,
        "games_per_s": played / cpu,
        "draw_share": draw / (draw + effects),
        "effects_share": effects / (draw + effects),
        "effects_steps_per_s": effects_rate,
        "ceiling_games_per_s": effects_rate / per_game,
        "target_games_per_s": target,
        "ceiling_to_target": effects_rate / per_game / target,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=12, help="at least this many seeded games per row (default 12)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row, at least (default 3)")
    parser.add_argument("--game", choices=sorted({g for g, _ in TARGETS}), help="this game alone")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON on stdout")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds < 0:
        parser.error("--games takes 1 or more, --seconds 0 or more")
    log = sys.stderr if args.json else sys.stdout
    cost = clock_cost()
    print(f"rulecraft build: {describe()}; one clock reading {cost:.0f} ns", file=log, flush=True)
    rows = []
    for game_id, policy in TARGETS:
        if args.game and game_id != args.game:
            continue
        row = floor_row(game_id, policy, args.games, args.seconds)
        rows.append(row)
        print(
            f"{game_id} {policy:10} {row['games']:4} games, {row['steps_per_game']:5.0f} steps/game, "
            f"{row['steps_per_s']:6.0f} steps/s ({row['games_per_s']:.1f} games/s); the draw "
            f"{100 * row['draw_share']:.0f}% of a step, the effects {100 * row['effects_share']:.0f}%: "
            f"{row['effects_steps_per_s']:6.0f} steps/s alone, so at most {row['ceiling_games_per_s']:.1f} games/s "
            f"with the draw free ({row['ceiling_to_target']:.2f}x the target {row['target_games_per_s']:g})",
            file=log,
            flush=True,
        )
    peers = [p for p in (peer_rate(name, args.seconds) for name in PEERS_PYTHON) if p is not None]
    if peers:
        fastest = max(peers, key=lambda p: p["steps_per_s"])
        for row in rows:
            row["fastest_python_peer"] = fastest["peer"]
            row["steps_to_fastest_python_peer"] = row["steps_per_s"] / fastest["steps_per_s"]
            row["effects_to_fastest_python_peer"] = row["effects_steps_per_s"] / fastest["steps_per_s"]
            print(
                f"{row['game']} {row['policy']:10} against OpenSpiel's fastest pure-Python game ({fastest['peer']}, "
                f"{fastest['steps_per_s']:.0f} steps/s): a step {row['steps_to_fastest_python_peer']:.2f}x, "
                f"the effects alone {row['effects_to_fastest_python_peer']:.2f}x",
                file=log,
            )
    else:
        print("OpenSpiel not installed (pip install -e '.[peers]'): no peer figures", file=log)
    if args.json:
        json.dump({"build": describe(), "clock_ns": cost, "rows": rows, "peers": peers}, sys.stdout, indent=2)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
