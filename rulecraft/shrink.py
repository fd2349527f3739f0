"""Shrinking a failing game to a shortest one, for any registered game.

A game is replayed from a *choice sequence*: at each step the next integer
picks, modulo their number, one of the legal actions (a seat's decision) or
one of the chance outcomes.  A failing random game is first turned into its
choices, then shrunk the way Hypothesis shrinks its own choice sequences:
cut the tail after the first failure, delete runs of choices, lower each
choice towards 0.  Every candidate is replayed from scratch, so the result
is a real legal game, and the failure it shows is re-checked, not assumed.

Shrinking is bounded by a *count of replays*, as ``conform --shrink-replays`` is, so that the same
seed shrinks to the same game on every machine; the wall-clock ``seconds`` is only a safety net,
and a result it cut short says so (``cut_short``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from rulecraft.core import A, AnyGame, Chance, Game, GameOver, S, Setup

# (state after a step, step number) -> a message when that state fails, else None
Failure = Callable[[Any, int], "str | None"]


DEFAULT_REPLAYS = 1000  # enough for the campaign's games to shrink to a local minimum
DEFAULT_SAFETY_SECONDS = 120.0  # a net under the count, never the bound a result depends on


@attrs.frozen
class Replay:
    actions: tuple[Any, ...]
    failure: str | None
    failed_at: int | None  # number of actions when the failure showed
    replays: int = 0  # replays spent shrinking
    exhausted: bool = False  # the replay count ran out before no smaller game failed
    cut_short: bool = False  # the wall-clock safety cap stopped shrinking (the result depends on speed)


def options(game: Game[S, A], state: S) -> Sequence[Any]:
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return ()
    if isinstance(mover, Chance):
        return [a for a, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))


def _start(game: AnyGame, setup: Setup | int) -> Any:
    return game.start(setup) if isinstance(setup, Setup) else game.new_game(setup)


def replay_choices(game: AnyGame, players: Setup | int, choices: Sequence[int], failing: Failure) -> Replay:
    state = _start(game, players)
    actions: list[Any] = []
    for i, choice in enumerate(choices):
        opts = options(game, state)
        if not opts:
            break
        action = opts[choice % len(opts)]
        actions.append(action)
        try:
            state = game.apply(state, action)
            problem = failing(state, i + 1)
        except Exception as exc:  # a crash is a failure too
            problem = f"{type(exc).__name__}: {exc}"
        if problem:
            return Replay(tuple(actions), problem, i + 1)
    return Replay(tuple(actions), None, None)


def choices_of(game: Game[S, A], players: Setup | int, log: Sequence[A]) -> list[int]:
    """The choice sequence that replays ``log`` exactly."""
    state = _start(game, players)
    out = []
    for action in log:
        opts = options(game, state)
        out.append(opts.index(action))
        state = game.apply(state, action)
    return out


def shrink(
    game: Game[S, A],
    players: Setup | int,
    log: Sequence[A],
    failing: Failure,
    *,
    replays: int = DEFAULT_REPLAYS,
    seconds: float = DEFAULT_SAFETY_SECONDS,
) -> Replay:
    """A locally shortest game that still fails (``failing`` decides), found in at most ``replays``
    replays; ``seconds`` is a safety cap whose biting is reported in ``cut_short``."""
    deadline = time.monotonic() + seconds
    best_choices = choices_of(game, players, log)
    best = replay_choices(game, players, best_choices, failing)
    if best.failure is None:
        return best  # not reproducible: report the original as it is
    best_choices = best_choices[: best.failed_at]
    spent = 0
    cut_short = False

    def more() -> bool:
        nonlocal cut_short
        if spent >= replays:
            return False
        if time.monotonic() >= deadline:
            cut_short = True
            return False
        return True

    def better(candidate: list[int]) -> bool:
        nonlocal best, best_choices, spent
        spent += 1
        result = replay_choices(game, players, candidate, failing)
        if result.failure is None or result.failed_at is None:
            return False
        key = (result.failed_at, sum(candidate[: result.failed_at]))
        if key < (best.failed_at or 0, sum(best_choices)):
            best, best_choices = result, candidate[: result.failed_at]
            return True
        return False

    improved = True
    while improved and more():
        improved = False
        size = max(1, len(best_choices) // 2)
        while size >= 1 and more():
            i = 0
            while i < len(best_choices) and more():
                candidate = best_choices[:i] + best_choices[i + size :]
                if candidate and better(candidate):
                    improved = True
                else:
                    i += size
            size //= 2
        # Zero one choice at a time; a success may shorten the game, so the bound is re-read each time.
        i = 0
        while i < len(best_choices) and more():
            if best_choices[i] and better([*best_choices[:i], 0, *best_choices[i + 1 :]]):
                improved = True
            i += 1
    return attrs.evolve(best, replays=spent, exhausted=spent >= replays, cut_short=cut_short)
