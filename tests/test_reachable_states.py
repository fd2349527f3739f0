"""rulecraft.strategies.reachable_histories draws start seats only where the rules let a set-up choose
one (``first_seat_chosen``): Aeroplanes (AER-SET-03, a die roll), Steamopolis, and Kings of Air and
Steam under KAS-AMB-28 'fixed' (the set-up names seat 0) were refused by new_game before."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft import strategies as rs
from rulecraft.registry import game_ids, make_game


@pytest.mark.parametrize("game_id", game_ids())
def test_reachable_states_start_from_a_set_up_the_game_takes(game_id: str) -> None:
    game = make_game(game_id)

    @settings(max_examples=5, deadline=None, database=None)
    @given(rs.reachable_histories(game, max_steps=3))
    def check(history: tuple[Any, list[Any]]) -> None:
        state, log = history
        assert len(log) <= 3 and game.state_to_json(state)

    check()


def test_a_set_up_that_names_the_start_player_draws_seat_0_alone() -> None:
    """KAS-AMB-28 'fixed' (p.6 step D): the start player is named, not drawn."""
    fixed = make_game("kas", readings={"KAS-AMB-28": "fixed"})
    assert not fixed.first_seat_chosen and make_game("kas").first_seat_chosen

    @settings(max_examples=10, deadline=None, database=None)
    @given(st.integers(2, 7).flatmap(lambda n: rs.first_seats(fixed, n)), rs.first_seats(make_game("kas"), 7))
    def check(named: int, drawn: int) -> None:
        assert named == 0 and 0 <= drawn < 7

    check()
