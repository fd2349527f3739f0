"""Aeroplanes scoring, the paths the scoring tests leave open (issue 22: a mutation score for every module,
here ``model/aeroplanes/scoring.py``).

From the digest (/work/shared/rules/aeroplanes-aviation-ascendant.md): the VP parts of the track and of
final scoring (AER-R-31 the Americas bonus, AER-R-49..52 era scoring, AER-R-63 final scoring), the
tie-break that decides the winner (AER-R-64, AER-AMB-53) for two and three leaders, market counts over
slots filled out of order (AER-R-29 lets a tile go into any empty slot) with the home tile under
AER-AMB-39, and the profitability boundary of AER-AMB-59 ``positive``.
"""

from __future__ import annotations

import attrs
import pytest
from test_aer_scoring import CTX, PACK, board, ctx_with, put

from rulecraft.model.aeroplanes import scoring as SC
from rulecraft.model.aeroplanes.state import HOME, AerState, Airport, PlayerState, Slots

BONUS = PACK.americas_bonus.vp  # AER-R-31 (l.132): 1 VP to each of the first two players in each America


def players(*specs: tuple[int, int]) -> AerState:
    """A board whose seats have (track VP, money)."""
    return attrs.evolve(board(len(specs)), players=tuple(PlayerState(vp=v, money=m) for v, m in specs))


def test_score_parts_split_the_track_aer_r_31_49() -> None:
    """The track holds the Americas bonuses paid to the seat (AER-R-31) and the era scoring (the rest);
    the parts add up to the track, and to the final total once plane cards and passenger tiles are added
    (AER-R-63)."""
    state = attrs.evolve(
        board(3),
        americas_paid=(("North America", 0), ("South America", 0), ("North America", 1)),
        players=(
            PlayerState(vp=10, discards=(8, 9)),
            PlayerState(vp=4),
            PlayerState(vp=0),
        ),
    )
    parts = SC.score_parts(CTX, state, final=False)
    assert parts == {
        0: {"americas_bonus": 2 * BONUS, "era_scoring": 10 - 2 * BONUS, "total": 10},
        1: {"americas_bonus": BONUS, "era_scoring": 4 - BONUS, "total": 4},
        2: {"americas_bonus": 0, "era_scoring": 0, "total": 0},
    }
    final = SC.score_parts(CTX, state, final=True)
    cards = PACK.card(8).vp + PACK.card(9).vp
    assert final[0] == {
        "americas_bonus": 2 * BONUS,
        "era_scoring": 10 - 2 * BONUS,
        "plane_cards": cards,
        "passenger_tiles": 0,
        "total": 10 + cards,
    }
    assert [final[s]["total"] for s in range(3)] == [f.total for f in SC.final_scores(CTX, state)]


@pytest.mark.parametrize(
    ("specs", "rule"),
    [
        (((30, 5), (31, 0), (12, 40)), None),  # one leader: no tie-break
        (((30, 5), (30, 9), (12, 40)), "AER-R-64"),  # two leaders, money decides (l.186)
        (((30, 9), (30, 9), (12, 40)), "AER-AMB-53"),  # two leaders tied on money too: shared
        (((30, 5), (30, 9), (30, 8)), "AER-R-64"),  # three leaders, one richest
        (((30, 9), (30, 9), (30, 8)), "AER-AMB-53"),  # three leaders, two richest
        (((30, 9), (20, 9), (30, 2)), "AER-R-64"),  # the richest overall is not a leader
    ],
)
def test_the_tiebreak_for_the_win_aer_r_64_amb_53(specs: tuple[tuple[int, int], ...], rule: str | None) -> None:
    """AER-R-64 (l.186): a VP tie for the most is broken by money; AER-AMB-53: a tie on both is shared."""
    state = players(*specs)
    assert SC.tiebreak(CTX, state) == rule
    leaders = SC.winners(CTX, state)
    assert (len(leaders) > 1) == (rule == "AER-AMB-53")


def test_a_seat_without_a_place_has_no_rank_and_no_vp_aer_amb_39() -> None:
    """AER-AMB-39 ``min-1``: a seat with no tile in a market does not rank there: no rank, no VP."""
    state = put(board(3), "Cairo", 1)
    africa = next(r for r in SC.era_scores(CTX, state, 1).markets if r.source == "Africa")
    assert africa.rank(1) == 1 and africa.rank(0) is None and africa.vp(0) == 0
    assert [p.seat for p in africa.places] == [1]


def test_era_scores_know_their_era_and_seats_aer_r_49() -> None:
    """AER-R-49: one era's scoring maps each seat (and only a seat) to its VP; profitability is its last
    source."""
    state = board(3)
    scores = SC.era_scores(CTX, state, 2)
    assert scores.era == 2 and len(scores) == 3 and list(scores) == [0, 1, 2]
    assert scores.profit.source == SC.PROFIT == "profit"
    for seat in (3, -1):
        with pytest.raises(KeyError) as caught:
            scores[seat]
        assert caught.value.args == (seat,)


def test_places_are_listed_best_first_aer_r_52() -> None:
    """AER-R-52 (l.169-170): the ranking lists places best first, ties by seat, whatever the seat order."""
    ranking = SC.rank_places("profit", {0: 1, 1: 5, 2: 3, 3: 5}, PACK.profit_vp(1))
    assert [(p.seat, p.rank) for p in ranking.places] == [(1, 1), (3, 1), (2, 3), (0, 4)]
    first, _second, third = PACK.profit_vp(1)
    assert [p.vp for p in ranking.places] == [first, first, third, 0]


def test_market_counts_over_slots_filled_out_of_order_aer_r_50() -> None:
    """AER-R-50 (l.167): every tile of a seat in the market counts, also one in a later slot beside an
    empty or home slot (AER-R-29 lets a tile go into any empty slot); AER-AMB-39 ``no-home`` leaves only
    the home tile out."""
    state = board(3)
    board_map = []
    for s in state.map:
        if s.destination == "Cairo":
            s = Slots(s.destination, (None, Airport(1, 1)))
        elif s.destination == "London":
            s = Slots(s.destination, (Airport(0, HOME), Airport(2, 1), None))
        board_map.append(s)
    state = attrs.evolve(state, map=tuple(board_map))
    assert SC.market_counts(CTX, state, "Africa") == {0: 0, 1: 1, 2: 0}
    assert SC.market_counts(CTX, state, "Europe") == {0: 1, 1: 0, 2: 1}
    assert SC.market_counts(ctx_with(AER_AMB_39="no-home"), state, "Europe") == {0: 0, 1: 0, 2: 1}


def test_a_tile_of_no_seat_counts_for_nobody_aer_r_50() -> None:
    """A tile whose owner is no seat of the game (a blocker, or a seat number past the last) scores for
    nobody: the counts are per seat of the game."""
    state = board(3)
    state = attrs.evolve(
        state,
        map=tuple(
            Slots(s.destination, (Airport(3, 1), Airport(0, 1))) if s.destination == "Cairo" else s for s in state.map
        ),
    )
    assert SC.market_counts(CTX, state, "Africa") == {0: 1, 1: 0, 2: 0}


def test_a_profit_of_zero_pays_nothing_under_positive_aer_amb_59() -> None:
    """AER-AMB-59 ``positive``: a profit of 0 or less takes no paying place; the default pays by rank."""
    first, second, third = PACK.profit_vp(1)
    profits = {0: 0, 1: -2, 2: 4}
    assert [SC.rank_profits(CTX, profits, 1).vp(s) for s in range(3)] == [second, third, first]
    positive = ctx_with(AER_AMB_59="positive")
    ranking = SC.rank_profits(positive, profits, 1)
    assert [ranking.vp(s) for s in range(3)] == [0, 0, first]
    assert ranking.source == "profit" and [p.rank for p in ranking.places] == [1, 2, 3]


def test_plane_cards_can_make_the_tie_for_the_win_aer_r_63_64() -> None:
    """AER-R-63 (l.184): the plane cards' VP join the track before the winner is found, so a card can
    make a tie that money then breaks (AER-R-64)."""
    card_vp = PACK.card(8).vp
    assert card_vp >= 1
    state = attrs.evolve(
        board(3),
        players=(
            PlayerState(vp=30, money=4),
            PlayerState(vp=30 - card_vp, money=9, discards=(8,)),
            PlayerState(vp=10, money=50),
        ),
    )
    assert SC.tiebreak(CTX, state) == "AER-R-64"
    assert SC.winners(CTX, state) == (1,)
