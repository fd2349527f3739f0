"""What the game benchmarks share: random games per second, checked steps per second, and each query's
time with Z3 beside its oracle (median and worst over sampled states).

``python bench/<game>.py`` puts bench/ first on the import path, so the scripts import this module by
name.  Games still running at the step cap are counted apart, never as finished.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from rulecraft.core import Game, RulecraftError
from rulecraft.tools import tools

# play(seed) -> (the game finished, the steps it took)
PlayOne = Callable[[int], tuple[bool, int]]


def play(game: Game[Any, Any], players: int, seed: int, max_steps: int, policy: str = "uniform") -> tuple[Any, int]:
    """One seeded random game under the playout ``policy`` (``Game.random_action``): the last state and
    the steps taken (``max_steps`` when it did not end)."""
    rng = random.Random(seed)
    state = game.new_game(players)
    for step in range(max_steps):
        action = game.random_action(state, rng, policy)
        if action is None:
            return state, step
        state = game.transition(state, action)  # generated actions: the check already holds
    return state, max_steps


def sample_states(
    game: Game[Any, Any],
    count: int,
    keep: Callable[[Any, random.Random], bool],
    policy: str = "uniform",
    players: int = 4,
) -> list[Any]:
    """``count`` states that ``keep(state, rng)`` picks along seeded random games (seeds 1000, 1001...)."""
    out: list[Any] = []
    seed = 0
    while len(out) < count:
        rng = random.Random(1000 + seed)
        seed += 1
        state = game.new_game(players)
        for _ in range(3000):
            if keep(state, rng):
                out.append(state)
                if len(out) == count:
                    break
            action = game.random_action(state, rng, policy)
            if action is None:
                break
            state = game.apply(state, action)
    return out


def games_per_second(play: PlayOne, seconds: float) -> dict[str, float]:
    start = time.perf_counter()
    finished = capped = steps = seed = 0
    while time.perf_counter() - start < seconds:
        done, n = play(seed)
        seed += 1
        steps += n
        finished += done
        capped += not done
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": finished / elapsed,
        "finished": finished,
        "capped": capped,
        "steps_per_s": steps / elapsed,
        "steps_per_finished_game": steps / finished if finished else float("nan"),
    }


def checked_steps_per_second(
    game: Game[Any, Any], seconds: float, players: Sequence[int], policy: str = "uniform"
) -> float:
    """Apply (the check, then the transition) plus every invariant after each step."""
    start = time.perf_counter()
    steps = seed = 0
    while time.perf_counter() - start < seconds:
        rng = random.Random(seed)
        seed += 1
        state = game.new_game(rng.choice(list(players)))
        while time.perf_counter() - start < seconds:
            action = game.random_action(state, rng, policy)
            if action is None:
                break
            state = game.apply(state, action)
            problems = tools(game).violations(state)
            assert not problems, problems
            steps += 1
    return steps / (time.perf_counter() - start)


def query_times(
    game: Game[Any, Any],
    states: Sequence[Any],
    runs: Sequence[tuple[str, str, dict[str, Any]]],
    prepare: Callable[[str, Any], Any] | None = None,
) -> list[dict[str, Any]]:
    """Each (label, query, parameters) on every state, with the oracle; a state a query refuses (no
    candidate there) is skipped and counted.  ``prepare(query, state)``: the state the query is asked on."""
    queries = tools(game).queries()
    rows: list[dict[str, Any]] = []
    for label, name, params in runs:
        if name not in queries:
            rows.append({"query": label, "missing": True})
            continue
        z3_ms: list[float] = []
        oracle_ms: list[float] = []
        disagree = skipped = 0
        for state in states:
            try:
                answer = queries[name].run(game, {**params, "oracle": True}, prepare(name, state) if prepare else state)
            except RulecraftError:
                skipped += 1
                continue
            z3_ms.append(float(answer.get("ms", 0.0)))
            oracle_ms.append(float(answer.get("oracle", {}).get("ms", 0.0)))
            disagree += answer.get("agrees") is False
        row: dict[str, Any] = {"query": label, "missing": False, "states": len(z3_ms), "skipped": skipped}
        if z3_ms:
            row |= {
                "z3_median_ms": statistics.median(z3_ms),
                "z3_max_ms": max(z3_ms),
                "oracle_median_ms": statistics.median(oracle_ms),
                "oracle_max_ms": max(oracle_ms),
                "disagreements": disagree,
            }
        rows.append(row)
    return rows


def print_query_rows(rows: Sequence[dict[str, Any]], heading: str) -> None:
    print(f"{heading:34} {'Z3 med':>9} {'Z3 max':>9} {'oracle med':>11} {'oracle max':>11}")
    for row in rows:
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
