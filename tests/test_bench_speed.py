"""bench/speed.py (issue 18) measures what it says: whole random games, stalled ones apart, ratios
against baselines of the same run."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from rulecraft.registry import make_game

BENCH = Path(__file__).resolve().parents[1] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import speed  # noqa: E402 - bench/ is not a package


@pytest.mark.parametrize("game_id", ["air", "aer"])
def test_a_random_game_is_played_to_its_end_with_generated_actions(game_id: str) -> None:
    game = make_game(game_id)
    ended, steps = speed.play_one(game, game.min_players, random.Random(3), "uniform")
    assert ended in ("over", "stalled") and 0 < steps < speed.MAX_STEPS


def test_a_game_that_can_never_end_is_counted_apart_not_as_finished() -> None:
    class Stuck:  # a game whose state is stalled from the start and never over
        def new_game(self, players: int) -> int:
            return 0

        def stalled(self, state: int) -> str:
            return "the same loop for ever"

        def random_action(self, state: int, rng: random.Random, policy: str) -> int:
            return 1

        def transition(self, state: int, action: int) -> int:
            return state + action

    assert speed.play_one(Stuck(), 2, random.Random(0), "uniform") == ("stalled", 49)  # type: ignore[arg-type]


def test_the_games_row_carries_its_ratio_to_the_target() -> None:
    row = speed.games_rate("air", "uniform", seconds=0.0)
    assert row["games"] == 1 and row["over"] + row["stalled"] + row["cap"] == 1
    assert row["ratio_to_target"] == pytest.approx(row["games_per_s"] / 200.0)
    assert row["steps_per_s"] > 0
