"""Speed (issue 18): random games per second per game, the command line's start-up, and the same
random-rollout loop over OpenSpiel's games when ``open_spiel`` is installed (``pip install -e
'.[peers]'``), every figure printed as a ratio against a baseline measured in the same run.

    python bench/speed.py [--seconds 3] [--json] [--game GAME] [--no-cli] [--no-peers] [--cli-only]

- games: 4-player uniform random games (Steamopolis also under its 'purposeful' policy), chance by
  its exact odds, each generated action played with ``transition`` (the generator already checked it:
  the loop OpenSpiel's ``apply_action`` runs).  A game that reaches a state the rules can never end
  (``Game.stalled``, e.g. AIR-AMB-30) stops there and is counted apart, never as finished.  Process
  CPU time, one core.  Ratio: games per second against the issue's target.
- peers: OpenSpiel's pure-Python games (``python_*``) and a few C++ ones in the same loop (a new game,
  then until it ends: chance sampled by its odds, else a uniform legal action, applied unchecked; the
  same CPU-time window as our games); ratio: our steps per second against each peer's, and against
  the slowest and the fastest pure-Python one.
- cli (``--cli-only``: these alone): ``rulecraft --help``, ``rulecraft rules air``, ``rulecraft readings
  kas``, ``rulecraft query air -h``, one real question per game (the cheapest docs/cli.md asks), and
  ``rulecraft ambiguities air --no-search`` as whole processes (child CPU time, median of 5); ratio:
  against ``python -c pass`` (median of 5, same run) and against the issue's targets (0.15 s for
  ``--help`` and ``rules air``, 0.4 s for a query), printed beside them.

The first line names the build (pure Python, or which modules the optional mypyc build compiled:
bench/compiled.py sets the two side by side).

Throughput is measured over a CPU-time window (``--seconds``): a benchmark, not a test; the same run
on a busier machine gives smaller numbers, which is why every figure has its in-run baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from typing import Any

from rulecraft.compiled import describe
from rulecraft.core import Game
from rulecraft.registry import game_ids, make_game

# Issue 18's targets, games per second (4 players, one core).
TARGETS: dict[tuple[str, str], float] = {
    ("air", "uniform"): 200.0,
    ("kas", "uniform"): 50.0,
    ("stm", "uniform"): 20.0,
    ("stm", "purposeful"): 20.0,
    ("aer", "uniform"): 100.0,
}
CLI_TARGET_S = 0.15  # `rulecraft --help`, `rulecraft rules air`
QUERY_TARGET_S = 0.4  # one `rulecraft query` from the shell, whole process
MAX_STEPS = 20_000
PEERS_PYTHON = ("python_tic_tac_toe", "python_kuhn_poker", "python_liars_poker", "python_block_dominoes")
PEERS_CPP = ("tic_tac_toe", "backgammon", "hearts")


def play_one(game: Game[Any, Any], players: int, rng: random.Random, policy: str) -> tuple[str, int]:
    """One random game: how it ended ('over', 'stalled' or 'cap') and its steps."""
    state = game.new_game(players)
    for step in range(MAX_STEPS):
        if step % 50 == 49 and game.stalled(state):
            return "stalled", step
        action = game.random_action(state, rng, policy)
        if action is None:
            return "over", step
        state = game.transition(state, action)
    return "cap", MAX_STEPS


def games_rate(game_id: str, policy: str, seconds: float, min_games: int = 1) -> dict[str, Any]:
    game = make_game(game_id)
    players = min(4, game.max_players)
    ends = {"over": 0, "stalled": 0, "cap": 0}
    steps = games = 0
    start = time.process_time()
    while games < min_games or time.process_time() - start < seconds:
        ended, n = play_one(game, players, random.Random(games), policy)
        ends[ended] += 1
        steps += n
        games += 1
    cpu = time.process_time() - start
    target = TARGETS.get((game_id, policy))
    rate = games / cpu
    return {
        "game": game_id,
        "policy": policy,
        "players": players,
        "games": games,
        **ends,
        "games_per_s": rate,
        "steps_per_s": steps / cpu,
        "steps_per_game": steps / games,
        "target_games_per_s": target,
        "ratio_to_target": rate / target if target else None,
    }


def peer_rate(name: str, seconds: float) -> dict[str, Any] | None:
    """OpenSpiel's ``name`` in the same loop: uniform legal actions, chance by its odds."""
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401 - registers the python_* games
    except ImportError:
        return None
    try:
        game = pyspiel.load_game(name)
    except Exception:  # a game this OpenSpiel build does not have
        return None
    rng = random.Random(0)
    steps = games = 0
    start = time.process_time()
    while games < 1 or time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights=probs, k=1)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    cpu = time.process_time() - start
    return {"peer": name, "kind": "python" if name.startswith("python_") else "C++", "steps_per_s": steps / cpu}


def child_cpu(command: list[str], repeat: int = 5) -> float:
    """The median CPU time (user + system) of ``command`` run as a whole process, after one run not
    counted that writes the bytecode of every module it imports, as an installed package has it: with
    PYTHONDONTWRITEBYTECODE set (some CI images and containers set it) every run would otherwise compile
    again each source edited since its bytecode was written, and measure the compiler."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return statistics.median(times)


# The command line's start-up rows (issue 18): (label, arguments, the target in CPU seconds or
# None where the issue sets none).  Each query is the cheapest real question of its game, as
# docs/cli.md asks it: the whole process, parsing to answer.
CLI_COMMANDS: tuple[tuple[str, list[str], float | None], ...] = (
    ("rulecraft --help", ["--help"], CLI_TARGET_S),
    ("rulecraft rules air", ["rules", "air"], CLI_TARGET_S),
    ("rulecraft readings kas", ["readings", "kas"], None),
    ("rulecraft query air -h", ["query", "air", "-h"], None),
    (
        "rulecraft query air chance ...",
        ["query", "air", "chance", "--dice", "W=3", "--need", "W=2", "--target", "5", "--chips", "1"],
        QUERY_TARGET_S,
    ),
    ("rulecraft query kas flight ...", ["query", "kas", "flight", "--from", "2,0", "--moves", "2"], QUERY_TARGET_S),
    ("rulecraft query stm top ...", ["query", "stm", "top", "--max-turns", "6"], QUERY_TARGET_S),
    ("rulecraft query aer risk ...", ["query", "aer", "risk", "--targets", "12,10", "--money", "4"], QUERY_TARGET_S),
    ("rulecraft ambiguities air --no-search", ["ambiguities", "air", "--no-search"], None),
)


def cli_rows(repeat: int = 5) -> list[dict[str, Any]]:
    """Each command of :data:`CLI_COMMANDS` as a whole process: the median CPU time of ``repeat`` runs,
    beside ``python -c pass`` measured in the same run (medians of as many runs)."""
    exe = [sys.executable, "-m", "rulecraft"]
    baseline = child_cpu([sys.executable, "-c", "pass"], repeat)
    rows = []
    for label, args, target in CLI_COMMANDS:
        cpu = child_cpu(exe + args, repeat)
        rows.append(
            {
                "command": label,
                "argv": args,
                "cpu_s": cpu,
                "python_c_pass_s": baseline,
                "ratio_to_python": cpu / baseline if baseline else None,
                "target_s": target,
                "ratio_to_target": cpu / target if target else None,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measured entry")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--game", choices=game_ids(), help="only this game")
    parser.add_argument("--no-cli", action="store_true", help="skip the command-line start-up entries")
    parser.add_argument("--no-peers", action="store_true", help="skip OpenSpiel even when installed")
    parser.add_argument("--cli-only", action="store_true", help="only the command-line start-up entries")
    args = parser.parse_args()
    out: dict[str, Any] = {"build": describe(), "games": [], "peers": [], "cli": []}
    log = sys.stderr if args.json else sys.stdout
    print(f"rulecraft build: {out['build']}", file=log, flush=True)  # never read one build's figure as the other's
    for game_id, policy in TARGETS:
        if args.cli_only or (args.game and game_id != args.game):
            continue
        row = games_rate(game_id, policy, args.seconds)
        out["games"].append(row)
        print(
            f"{game_id} {policy:10} {row['games_per_s']:8.1f} games/s ({row['ratio_to_target']:.2f}x the target "
            f"{row['target_games_per_s']:g}), {row['steps_per_s']:8.0f} steps/s, {row['steps_per_game']:.0f} "
            f"steps/game; {row['over']} finished, {row['stalled']} stalled, {row['cap']} at the cap",
            file=log,
            flush=True,
        )
    if not (args.no_peers or args.cli_only):
        for name in (*PEERS_PYTHON, *PEERS_CPP):
            peer = peer_rate(name, args.seconds)
            if peer is not None:
                out["peers"].append(peer)
                print(f"OpenSpiel {peer['kind']:6} {name:22} {peer['steps_per_s']:10.0f} steps/s", file=log, flush=True)
        python_peers = [p["steps_per_s"] for p in out["peers"] if p["kind"] == "python"]
        for row in out["games"]:
            row["ratio_to_peer"] = {p["peer"]: row["steps_per_s"] / p["steps_per_s"] for p in out["peers"]}
            if row["ratio_to_peer"]:
                ratios = ", ".join(f"{name} {ratio:.2f}x" for name, ratio in row["ratio_to_peer"].items())
                print(f"{row['game']} {row['policy']:10} steps/s against each peer: {ratios}", file=log)
        if python_peers:
            for row in out["games"]:
                row["ratio_to_openspiel_python"] = row["steps_per_s"] / min(python_peers)
                fastest = row["steps_per_s"] / max(python_peers)
                print(
                    f"{row['game']} {row['policy']:10} steps/s against OpenSpiel's slowest pure-Python game: "
                    f"{row['ratio_to_openspiel_python']:.2f}x, its fastest: {fastest:.2f}x",
                    file=log,
                )
        else:
            print("OpenSpiel not installed (pip install -e '.[peers]'): no peer figures", file=log)
    if not args.no_cli:
        for row in cli_rows():
            out["cli"].append(row)
            target = (
                f"target {row['target_s']:g} s: {row['ratio_to_target']:.2f}x"
                if row["target_s"]
                else "no target in the issue"
            )
            print(
                f"{row['command']:40} {row['cpu_s']:.3f} s CPU ({row['ratio_to_python']:.1f}x python -c pass"
                f" {row['python_c_pass_s']:.3f} s; {target})",
                file=log,
                flush=True,
            )
    if args.json:
        print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
