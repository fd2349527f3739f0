"""bench/floor.py (issue 18) times the parts of a step on the very games bench/speed.py plays: the kept
moves replay the game, and each figure is the ratio it says it is (never a timed assertion)."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from rulecraft.registry import make_game

BENCH = Path(__file__).resolve().parents[1] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import floor  # noqa: E402 - bench/ is not a package
import speed  # noqa: E402


class Counting:
    """A game that counts to ``end`` by ones, its moves drawn from the generator given."""

    def __init__(self, end: int, stalls_at: int | None = None) -> None:
        self.end, self.stalls_at = end, stalls_at

    def new_game(self, players: int) -> int:
        return 0

    def stalled(self, state: int) -> str | None:
        return "the same loop for ever" if self.stalls_at is not None and state >= self.stalls_at else None

    def random_action(self, state: int, rng: random.Random, policy: str) -> int | None:
        return None if state >= self.end else rng.choice([1])

    def transition(self, state: int, action: int) -> int:
        return state + action


def test_a_timed_game_is_the_game_bench_speed_plays() -> None:
    assert floor.play_timed(Counting(5), 2, random.Random(0), "uniform")[:2] == ("over", 5)  # type: ignore[arg-type]
    game = make_game("air")
    ended, steps, draw, effects = floor.play_timed(game, 4, random.Random(1), "uniform")
    assert (ended, steps) == speed.play_one(game, 4, random.Random(1), "uniform")
    assert draw > 0 and effects > 0


def test_a_game_that_can_never_end_is_timed_up_to_where_it_is_found_stalled() -> None:
    ended, steps, _, _ = floor.play_timed(Counting(10**6, stalls_at=0), 2, random.Random(0), "uniform")  # type: ignore[arg-type]
    assert (ended, steps) == ("stalled", 49)  # bench/speed.py asks stalled() every 50 steps, first at step 49


def test_a_row_sets_each_figure_beside_the_others_of_its_run() -> None:
    row = floor.floor_row("air", "uniform", games=2, seconds=0.0)
    assert row["games"] == 2 and row["players"] == 4 and row["steps_per_game"] > 0
    assert row["draw_share"] + row["effects_share"] == pytest.approx(1.0)
    assert 0 < row["effects_share"] < 1
    assert row["ceiling_games_per_s"] == pytest.approx(row["effects_steps_per_s"] / row["steps_per_game"])
    assert row["ceiling_to_target"] == pytest.approx(row["ceiling_games_per_s"] / 200.0)  # issue 18: Airships 200


def test_the_clock_cost_is_a_positive_count_of_nanoseconds() -> None:
    assert 0 < floor.clock_cost(1000) < 1e6


def test_json_names_the_build_and_a_row_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert floor.main(["--game", "air", "--games", "1", "--seconds", "0", "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert out["build"] and [(r["game"], r["policy"]) for r in out["rows"]] == [("air", "uniform")]


def test_nonsense_counts_are_one_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        floor.main(["--games", "0"])
    assert exit_.value.code == 2 and "--games takes 1 or more" in capsys.readouterr().err
