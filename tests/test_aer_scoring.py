"""Aeroplanes: end-of-era and end-of-game scoring (model/aeroplanes/scoring.py).

Rulebook: seed 002 (Russian), cited by line.  l.164-165 two scorings a era;
l.167 market majorities and their tie rules; l.169 profitability and the
"skip back by one position" tie rule; l.170 the printed example (AER-EX-22:
5/3/1, Coleman 10, Pete 10, Morgan 9, Larry 9, Ron 5 -> 5, 5, 1, 1, 0);
l.183-186 final scoring and the money tie-break.  The market rows of the
VPs/Era table are reconstructed pack data (only the era-1 Profit row is
printed, l.170), so majority tests read the row from the pack, never a
hard-coded number.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.model.aeroplanes import scoring as SC
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.readings import REGISTER
from rulecraft.model.aeroplanes.state import BLOCKER, HOME, AerState, Airport, OwnedCard, PlayerState, Slots

CTX = Context.printed()
PACK = CTX.pack
EUROPE, AFRICA, ASIA = "Europe", "Africa", "Asia/Australasia"


def ctx_with(**readings: str) -> Context:
    chosen = {k.replace("_", "-"): v for k, v in readings.items()}
    for amb_id, key in chosen.items():
        assert key in REGISTER[amb_id].choices(), f"{amb_id} has no reading {key!r}"
    return Context.printed(readings=chosen)


SCORING_READINGS = {
    "AER-AMB-36": {"vp", "count"},
    "AER-AMB-37": {"all", "face-up"},
    "AER-AMB-39": {"min-1", "zero", "no-home"},
    "AER-AMB-40": {"competition"},
    "AER-AMB-53": {"shared"},
    "AER-AMB-58": {"competition", "one-place"},
    "AER-AMB-59": {"this-era", "all-time", "positive"},
}


def test_scoring_readings_are_the_registers() -> None:
    """The readings scoring.py branches on are exactly those of the register (a typo would silently
    fall to a default branch); the defaults are those of the digest."""
    for amb_id, keys in SCORING_READINGS.items():
        assert set(REGISTER[amb_id].choices()) == keys, amb_id
    assert {k: CTX.r(k) for k in SCORING_READINGS} == {
        "AER-AMB-36": "vp",
        "AER-AMB-37": "all",
        "AER-AMB-39": "min-1",
        "AER-AMB-40": "competition",
        "AER-AMB-53": "shared",
        "AER-AMB-58": "competition",
        "AER-AMB-59": "this-era",
    }


def board(players: int, homes: Mapping[int, str] | None = None) -> AerState:
    """An empty map for ``players`` seats, with home tiles where given (scoring reads only players and map)."""
    homes = homes or {}
    state = AerState(
        players=tuple(PlayerState(home=homes.get(s)) for s in range(players)),
        map=tuple(Slots(d.name, (None,) * d.slots) for d in PACK.destinations),
    )
    for seat, city in homes.items():
        state = put(state, city, seat, HOME)
    return state


def put(state: AerState, destination: str, owner: int, stage: int = 1) -> AerState:
    """Put an airport tile in the destination's first empty slot."""
    new_map = []
    for s in state.map:
        if s.destination == destination:
            i = s.slots.index(None)
            s = Slots(s.destination, s.slots[:i] + (Airport(owner, stage),) + s.slots[i + 1 :])
        new_map.append(s)
    return attrs.evolve(state, map=tuple(new_map))


def spread(state: AerState, market: str, counts: Mapping[int, int]) -> AerState:
    """Give each seat ``counts[seat]`` tiles in ``market``, one a destination, filling destinations in order."""
    dests = PACK.in_region(market)
    for seat, n in counts.items():
        free = [
            d for d in dests if all(a is None or a.owner != seat for a in state.slots(d)) and None in state.slots(d)
        ]
        assert len(free) >= n, f"the reconstructed map has no room for {n} tiles of seat {seat} in {market}"
        for d in free[:n]:
            state = put(state, d, seat)
    return state


def with_players(state: AerState, **changes: PlayerState) -> AerState:
    players = list(state.players)
    for key, p in changes.items():
        players[int(key[1:])] = p
    return attrs.evolve(state, players=tuple(players))


class Pool:
    """Distinct passenger tiles of the pack by (vp, size), handed out without repeats."""

    def __init__(self) -> None:
        self.left: dict[tuple[int, int], list[str]] = defaultdict(list)
        for t in PACK.passengers:
            self.left[(t.vp, t.capacity)].append(t.id)

    def take(self, vp: int, size: int, n: int = 1) -> tuple[str, ...]:
        out = tuple(self.left[(vp, size)][:n])
        assert len(out) == n, f"the pack has too few ({vp} VP, size {size}) tiles"
        del self.left[(vp, size)][:n]
        return out


def card(number: int, *passengers: str, excess: int | None = None) -> OwnedCard:
    return OwnedCard(number, passengers=tuple(sorted(passengers)), excess=excess)


def cap(number: int) -> int:
    return PACK.card(number).capacity


# ---------------------------------------------------------------------------
# AER-EX-22 (l.170): the printed profitability example
# ---------------------------------------------------------------------------

COLEMAN, PETE, MORGAN, LARRY, RON = range(5)
EX22_PROFITS = {COLEMAN: 10, PETE: 10, MORGAN: 9, LARRY: 9, RON: 5}  # l.170
EX22_VP = {COLEMAN: 5, PETE: 5, MORGAN: 1, LARRY: 1, RON: 0}  # l.170


def ex22_state() -> AerState:
    """The five airlines of l.170 built from pack tiles and cards (profit = passenger VP - unused seats)."""
    pool = Pool()
    assert (cap(36), cap(10), cap(12), cap(43), cap(44), cap(1), cap(2), cap(3), cap(4)) == (7, 4, 4, 8, 8, 2, 2, 2, 3)
    coleman = (card(10), card(36, *pool.take(2, 1, 7)))  # 14 VP carried, 4 seats unused (card 10)
    pete = (card(12, *pool.take(3, 1, 2), *pool.take(2, 1, 2)),)  # 10 VP, full
    morgan = (card(1, *pool.take(1, 2)), card(43, *pool.take(2, 2, 4)))  # 9 VP, full
    larry = (card(2, *pool.take(1, 2)), card(44, *pool.take(2, 2, 4)))  # 9 VP, full
    ron = (card(3, *pool.take(1, 2)), card(4, *pool.take(4, 3)))  # 5 VP, full
    return attrs.evolve(board(5), players=tuple(PlayerState(cards=c) for c in (coleman, pete, morgan, larry, ron)))


def test_ex22_printed_profits_score_5_5_1_1_0() -> None:
    """AER-EX-22, l.170: the printed profits ranked with the printed 5/3/1 row."""
    assert PACK.profit_vp(1) == (5, 3, 1)  # l.170: "5 / 3 / 1 VPs"
    ranking = SC.rank_profits(CTX, EX22_PROFITS, 1)
    assert {p.seat: p.vp for p in ranking.places} == EX22_VP
    assert {p.seat: p.rank for p in ranking.places} == {COLEMAN: 1, PETE: 1, MORGAN: 3, LARRY: 3, RON: 5}
    assert all(p.vp != 3 for p in ranking.places)  # nobody gets the 2nd place's 3 VP (l.169)


def test_ex22_from_a_state() -> None:
    """AER-EX-22, l.170: Coleman's profit is 14 - 4 = 10; the built state gives the printed profits and VPs."""
    state = ex22_state()
    assert {s: SC.profit(CTX, p) for s, p in enumerate(state.players)} == EX22_PROFITS
    ranking = SC.profitability(CTX, state, 1)
    assert {s: ranking.vp(s) for s in range(5)} == EX22_VP
    scores = SC.era_scores(CTX, state, 1)  # no airports: the majorities pay nothing
    assert dict(scores) == EX22_VP


@pytest.mark.parametrize("reading", ["competition", "one-place"])
def test_ex22_holds_under_both_tie_readings(reading: str) -> None:
    """AER-AMB-58: both readings of "skip back by one position" (l.169) reproduce the two-way example (l.170)."""
    ranking = SC.rank_profits(ctx_with(AER_AMB_58=reading), EX22_PROFITS, 1)
    assert {p.seat: p.vp for p in ranking.places} == EX22_VP


def test_ex22_rejects_dense_ranking() -> None:
    """AER-AMB-38: dense ranking would pay Morgan and Larry the 2nd place's 3 VP; l.170 pays them 1."""
    dense = sorted(set(EX22_PROFITS.values()), reverse=True)
    dense_vp = {s: PACK.profit_vp(1)[dense.index(v)] if dense.index(v) < 3 else 0 for s, v in EX22_PROFITS.items()}
    assert dense_vp[MORGAN] == 3 != EX22_VP[MORGAN]
    assert SC.rank_profits(CTX, EX22_PROFITS, 1).vp(MORGAN) == 1


# ---------------------------------------------------------------------------
# Profit tie rule (l.169) and the profit readings
# ---------------------------------------------------------------------------


def test_profit_three_way_tie_for_first() -> None:
    """AER-AMB-58: three tied for 1st all get 1st; next is 4th and scores nothing (competition),
    or 3rd and scores the 3rd-place VPs (one-place)."""
    profits = {0: 7, 1: 7, 2: 7, 3: 4}
    first, _, third = PACK.profit_vp(2)
    comp = SC.rank_profits(CTX, profits, 2)
    assert [comp.vp(s) for s in range(4)] == [first, first, first, 0]
    assert comp.rank(3) == 4
    one = SC.rank_profits(ctx_with(AER_AMB_58="one-place"), profits, 2)
    assert [one.vp(s) for s in range(4)] == [first, first, first, third]
    assert one.rank(3) == 3


def test_profit_tie_for_second_and_third() -> None:
    """l.169: tied players get the same VPs, those of the best place they share."""
    first, second, third = PACK.profit_vp(3)
    r = SC.rank_profits(CTX, {0: 9, 1: 6, 2: 6, 3: 2, 4: 1}, 3)
    assert [r.vp(s) for s in range(5)] == [first, second, second, 0, 0]
    r = SC.rank_profits(CTX, {0: 9, 1: 8, 2: 3, 3: 3, 4: 3}, 3)
    assert [r.vp(s) for s in range(5)] == [first, second, third, third, third]


def test_one_place_ranks_after_untied_and_tied_groups() -> None:
    """AER-AMB-58 ``one-place``: an untied score moves the next rank by one, any tie by two."""
    with pytest.raises(ValueError, match="AER-AMB-58"):
        SC.rank_places("profit", {0: 1}, (5, 3, 1), rule="dense")
    assert SC.one_place_ranks({0: 5, 1: 5, 2: 5, 3: 4, 4: 3, 5: 3, 6: 1}) == {0: 1, 1: 1, 2: 1, 3: 3, 4: 4, 5: 4, 6: 6}
    assert SC.competition_ranks({0: 5, 1: 5, 2: 5, 3: 4, 4: 3, 5: 3, 6: 1}) == {
        0: 1,
        1: 1,
        2: 1,
        3: 4,
        4: 5,
        5: 5,
        6: 7,
    }


def test_profit_counts_unused_capacity_of_empty_and_face_down_cards() -> None:
    """AER-R-38, AER-R-51, AER-AMB-37 (l.149, l.169, l.174): unused seats of every card not discarded count
    against profit; ``face-up`` drops the face-down cards'.  Discarded cards count nothing."""
    pool = Pool()
    tiles = pool.take(3, 2, 2)  # 6 VP, size 4
    player = PlayerState(
        cards=(card(10), card(12, *tiles), card(20, excess=3)),  # empty 4 seats; full; face down, 3 seats left
        discards=(5,),
    )
    assert (cap(10), cap(12)) == (4, 4)
    assert SC.profit(CTX, player) == 6 - 4 - 0 - 3
    assert SC.profit(ctx_with(AER_AMB_37="face-up"), player) == 6 - 4


def test_profit_passenger_value_reading() -> None:
    """AER-AMB-36 (l.169-170): the VP of the tiles (default) or the passengers they stand for (size)."""
    pool = Pool()
    player = PlayerState(cards=(card(36, *pool.take(0, 1), *pool.take(6, 3), *pool.take(1, 2)),))  # load 6 of 7
    assert cap(36) == 7
    assert SC.profit(CTX, player) == (0 + 6 + 1) - 1
    assert SC.profit(ctx_with(AER_AMB_36="count"), player) == (1 + 3 + 2) - 1


def test_profit_scope_and_non_positive_profit() -> None:
    """AER-AMB-59 (l.169-170, l.175): banked tiles of earlier eras count only under ``all-time``;
    ``positive`` pays no place to a profit of 0 or less."""
    pool = Pool()
    banked = pool.take(5, 3, 2)
    a = PlayerState(cards=(card(10, *pool.take(1, 1)),), banked=banked)  # this era 1 - 3 = -2
    b = PlayerState(cards=(card(1),))  # 0 - 2 = -2 ... tied
    c = PlayerState(cards=(card(3, *pool.take(1, 2)),))  # 1 - 0 = 1
    state = attrs.evolve(board(3), players=(a, b, c))
    assert [SC.profit(CTX, p) for p in state.players] == [-2, -2, 1]
    first, second, third = PACK.profit_vp(1)
    assert [SC.profitability(CTX, state, 1).vp(s) for s in range(3)] == [second, second, first]
    all_time = ctx_with(AER_AMB_59="all-time")
    assert SC.profit(all_time, a) == 10 + 1 - 3
    assert [SC.profitability(all_time, state, 1).vp(s) for s in range(3)] == [first, third, second]
    positive = ctx_with(AER_AMB_59="positive")
    assert [SC.profitability(positive, state, 1).vp(s) for s in range(3)] == [0, 0, first]


def test_a_profit_of_exactly_zero_is_paid_by_default_and_not_under_positive() -> None:
    """AER-AMB-59 (l.169): the text is silent on a profit of 0 or less.  Default: ranking alone decides,
    so a profit of exactly 0 in second place takes the second paying place; ``positive``: 0 is not a
    profit, the place pays nothing (the boundary a ``>`` / ``>=`` slip would move)."""
    pool = Pool()
    zero = PlayerState(cards=(card(1, *pool.take(1, 1)),))  # 1 VP carried - (2 - 1) unused = 0
    one = PlayerState(cards=(card(3, *pool.take(1, 2)),))  # 1 - 0 = 1
    loss = PlayerState(cards=(card(1),))  # 0 - 2 = -2
    state = attrs.evolve(board(3), players=(zero, one, loss))
    assert [SC.profit(CTX, p) for p in state.players] == [0, 1, -2]
    first, second, third = PACK.profit_vp(1)
    assert [SC.profitability(CTX, state, 1).vp(s) for s in range(3)] == [second, first, third]
    positive = ctx_with(AER_AMB_59="positive")
    assert [SC.profitability(positive, state, 1).vp(s) for s in range(3)] == [0, first, 0]


# ---------------------------------------------------------------------------
# AER-R-50: market majorities (l.167)
# ---------------------------------------------------------------------------


def majority(ctx: Context, state: AerState, market: str, era: int = 1) -> dict[int, int]:
    ranking = next(r for r in SC.market_majorities(ctx, state, era) if r.source == market)
    return {s: ranking.vp(s) for s in range(len(state.players))}


def test_majorities_plain_first_and_second() -> None:
    """l.167: 1st and 2nd in each market score that market's VPs/Era row (higher for 1st)."""
    state = spread(board(4), AFRICA, {0: 3, 1: 2, 2: 1})
    first, second = PACK.majority_vp(AFRICA, 2)
    assert first > second
    assert majority(CTX, state, AFRICA, 2) == {0: first, 1: second, 2: 0, 3: 0}


def test_majorities_tie_for_first_pays_first_and_no_second() -> None:
    """l.167: "both get the award for first place, and nobody gets the award for second place"."""
    state = spread(board(4), ASIA, {0: 2, 1: 2, 2: 1})
    first, _ = PACK.majority_vp(ASIA, 1)
    assert majority(CTX, state, ASIA) == {0: first, 1: first, 2: 0, 3: 0}


def test_majorities_tie_for_second_pays_both_the_lower_vp() -> None:
    """l.167: "a tie for second place: both get the same (lower) number of points"."""
    state = spread(board(4), AFRICA, {0: 3, 1: 1, 2: 1})
    first, second = PACK.majority_vp(AFRICA, 3)
    assert majority(CTX, state, AFRICA, 3) == {0: first, 1: second, 2: second, 3: 0}


def test_majorities_three_way_tie_for_first() -> None:
    """AER-AMB-40: three tied for 1st all get 1st and nobody 2nd (competition ranking)."""
    state = spread(board(5), AFRICA, {0: 1, 1: 1, 2: 1, 3: 0})
    first, _ = PACK.majority_vp(AFRICA, 1)
    assert majority(CTX, state, AFRICA) == {0: first, 1: first, 2: first, 3: 0, 4: 0}


def test_majorities_home_tile_and_blockers() -> None:
    """AER-AMB-39: the home tile counts in Europe (``no-home``: it does not); a 3-player blocker belongs
    to nobody (AER-SET-04); the Americas form no market."""
    state = board(3, {0: "London", 1: "Paris", 2: "Rome"})
    state = put(state, "Berlin", BLOCKER, HOME)
    state = put(state, "Frankfurt", 0)
    state = put(state, "North America", 1)
    state = put(state, "South America", 1)
    assert SC.market_counts(CTX, state, EUROPE) == {0: 2, 1: 1, 2: 1}
    first, second = PACK.majority_vp(EUROPE, 1)
    assert majority(CTX, state, EUROPE) == {0: first, 1: second, 2: second}
    no_home = ctx_with(AER_AMB_39="no-home")
    assert SC.market_counts(no_home, state, EUROPE) == {0: 1, 1: 0, 2: 0}
    assert majority(no_home, state, EUROPE) == {0: first, 1: 0, 2: 0}
    assert [r.source for r in SC.market_majorities(CTX, state, 1)] == [EUROPE, AFRICA, ASIA]


def test_majorities_zero_tiles_rank_only_under_zero_reading() -> None:
    """AER-AMB-39: by default a player needs 1 tile in the market to rank; ``zero`` ranks everyone,
    so the tile-less players tie for 2nd behind a lone holder."""
    state = spread(board(3), ASIA, {2: 1})
    first, second = PACK.majority_vp(ASIA, 1)
    assert majority(CTX, state, ASIA) == {0: 0, 1: 0, 2: first}
    assert majority(ctx_with(AER_AMB_39="zero"), state, ASIA) == {0: second, 1: second, 2: first}
    assert SC.market_majorities(CTX, board(3), 1)[0].places == ()  # nobody anywhere: nobody scores


# ---------------------------------------------------------------------------
# AER-R-49: the era's scoring, per source
# ---------------------------------------------------------------------------


def test_era_scores_add_majorities_and_profit() -> None:
    """AER-R-49 (l.164-165): majorities then profitability; the total is the sum of the breakdown."""
    state = spread(ex22_state(), AFRICA, {RON: 2, PETE: 1})
    state = spread(state, EUROPE, {MORGAN: 1})
    scores = SC.era_scores(CTX, state, 1)
    africa, europe = PACK.majority_vp(AFRICA, 1), PACK.majority_vp(EUROPE, 1)
    assert scores.breakdown(RON) == {
        "majority:Europe": 0,
        "majority:Africa": africa[0],
        "majority:Asia/Australasia": 0,
        "profit": 0,
    }
    assert scores[PETE] == africa[1] + 5
    assert scores[MORGAN] == europe[0] + 1
    assert all(scores[s] == sum(scores.breakdown(s).values()) for s in scores)
    assert set(scores) == set(range(5)) and len(scores) == 5
    with pytest.raises(KeyError):
        scores[5]
    with pytest.raises(ValueError, match="AER-R-01"):
        SC.era_scores(CTX, state, 4)


def test_scoring_is_pure() -> None:
    state = spread(ex22_state(), AFRICA, {RON: 2})
    before = hash(state), state
    SC.era_scores(CTX, state, 2)
    SC.final_scores(CTX, state)
    assert (hash(state), state) == before


# ---------------------------------------------------------------------------
# AER-R-63/64: end of the game (l.183-186)
# ---------------------------------------------------------------------------


def test_final_scores_add_cards_and_passengers() -> None:
    """AER-R-63 (l.184-185): the VP of every plane card (face up, face down or discarded) and every passenger
    tile (banked or still on a card) is added to the track."""
    pool = Pool()
    on_card, banked = pool.take(4, 3), pool.take(2, 2, 2)
    p = PlayerState(vp=17, cards=(card(41, *on_card), card(36, excess=2)), discards=(8, 9), banked=banked)
    assert [PACK.card(n).vp for n in (41, 36, 8, 9)] == [1, 1, 1, 0]
    state = attrs.evolve(board(3), players=(p, PlayerState(), PlayerState()))
    f = SC.final_scores(CTX, state)[0]
    assert (f.track, f.cards, f.passengers, f.total) == (17, 3, 8, 28)


def test_final_ranking_money_tie_break_and_shared_win() -> None:
    """AER-R-64 (l.186): most VP wins; a VP tie goes to the most money; a full tie is shared (AER-AMB-53)."""
    state = attrs.evolve(
        board(4),
        players=(
            PlayerState(vp=30, money=5),
            PlayerState(vp=30, money=9),
            PlayerState(vp=31, money=0),
            PlayerState(vp=12, money=40),
        ),
    )
    assert SC.final_ranking(CTX, state) == (2, 1, 0, 3)
    assert SC.winners(CTX, state) == (2,)
    tied = with_players(state, p2=PlayerState(vp=30, money=9))
    assert SC.final_ranking(CTX, tied) == (1, 2, 0, 3)
    assert SC.winners(CTX, tied) == (1, 2)
    by_money = with_players(state, p2=PlayerState(vp=30, money=8))
    assert SC.winners(CTX, by_money) == (1,)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

DESTS = [d for d in PACK.destinations if PACK.market_of(d.name) is not None]


@st.composite
def scored_states(draw: st.DrawFn) -> AerState:
    """A 3..5 player map with random airports in the markets and random planes and passengers."""
    n = draw(st.integers(3, 5))
    state = board(n)
    for d in DESTS:
        owners = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=min(d.slots, n)))
        for o in owners:
            state = put(state, d.name, o, draw(st.integers(1, 3)))
    singles = [t.id for t in PACK.passengers if t.capacity == 1]
    numbers = iter(range(1, 47))
    players = []
    for _ in range(n):
        cards = []
        for _ in range(draw(st.integers(0, 2))):
            number = next(numbers)
            k = draw(st.integers(0, min(cap(number), len(singles))))
            loaded, singles = singles[:k], singles[k:]
            cards.append(card(number, *loaded))
        players.append(PlayerState(vp=draw(st.integers(0, 40)), money=draw(st.integers(0, 20)), cards=tuple(cards)))
    return attrs.evolve(state, players=tuple(players))


def renamed(state: AerState, perm: list[int]) -> AerState:
    """Seat s becomes seat perm[s]."""
    players = [PlayerState()] * len(perm)
    for s, p in enumerate(state.players):
        players[perm[s]] = p
    new_map = tuple(
        Slots(sl.destination, tuple(None if a is None else Airport(perm[a.owner], a.stage) for a in sl.slots))
        for sl in state.map
    )
    return attrs.evolve(state, players=tuple(players), map=new_map)


@settings(max_examples=25, deadline=None)
@given(state=scored_states(), era=st.integers(1, 3))
def test_market_vp_never_exceed_the_row(state: AerState, era: int) -> None:
    """AER-R-50: each seat's market VP is a value of the row (or 0), never above 1st place; more tiles never
    score less; nobody gets 2nd when 1st is shared (l.167)."""
    for ranking in SC.market_majorities(CTX, state, era):
        row = PACK.majority_vp(ranking.source, era)
        assert ranking.table == row
        for p in ranking.places:
            assert p.vp in (*row, 0) and p.vp <= row[0]
        for p in ranking.places:
            for q in ranking.places:
                if p.score > q.score:
                    assert p.vp >= q.vp
        if sum(1 for p in ranking.places if p.rank == 1) > 1:
            assert all(p.vp in (row[0], 0) for p in ranking.places)
    profit = SC.profitability(CTX, state, era)
    assert all(p.vp in (*PACK.profit_vp(era), 0) for p in profit.places)


@settings(max_examples=25, deadline=None)
@given(state=scored_states(), era=st.integers(1, 3), data=st.data())
def test_scoring_invariant_under_renaming_seats(state: AerState, era: int, data: st.DataObject) -> None:
    """Renaming the seats renames the scores and rankings and changes nothing else."""
    n = len(state.players)
    perm = data.draw(st.permutations(range(n)))
    other = renamed(state, perm)
    for ctx in (CTX, ctx_with(AER_AMB_58="one-place", AER_AMB_39="zero")):
        before, after = SC.era_scores(ctx, state, era), SC.era_scores(ctx, other, era)
        for s in range(n):
            assert after[perm[s]] == before[s]
            assert after.breakdown(perm[s]) == before.breakdown(s)
            assert after.profit.rank(perm[s]) == before.profit.rank(s)
    fb, fa = SC.final_scores(CTX, state), SC.final_scores(CTX, other)
    assert [fa[perm[s]].total for s in range(n)] == [f.total for f in fb]
    assert sorted(perm[s] for s in SC.winners(CTX, state)) == list(SC.winners(CTX, other))
    key = {s: (fb[s].total, fb[s].money) for s in range(n)}
    assert [key[s] for s in SC.final_ranking(CTX, state)] == [
        key[s] for s in (perm.index(t) for t in SC.final_ranking(CTX, other))
    ]
