"""Aeroplanes: the state model, the action vocabulary and the set-up
(model/aeroplanes/state.py, actions.py, setup.py, context.py).

The set-up's printed numbers are the rulebook's (seed 002, Russian, cited by
line): the waiting area filled without "¤" tiles (l.23), the random first
player and the counter-clockwise home choices (l.24), the 3-player blockers on
the "4/5" slots (l.25), 6 advantage tiles a type (l.16, l.27), the era marker
on 1 (l.28), display 1..12 and deck 13..46 (l.29), VP 0 (l.30), the subsidy
section and era-1 income (l.40-41), 27 tiles a player, 9 a stage (l.66).
Every chance step is checked for exact odds summing to 1, and ``problems``
for each rule it guards, on hand-corrupted states.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import attrs
import pytest

from rulecraft.core import RulecraftError
from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes import state as S
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.setup import (
    advantage_throw_outcomes,
    chance_outcomes,
    choose_home,
    deal,
    die_outcomes,
    home_choices,
    home_rejection,
    new_game,
    setup_problem,
    throw_outcomes,
)
from rulecraft.model.aeroplanes.state import (
    BLOCKER,
    HOME,
    AerState,
    Airport,
    OwnedCard,
    Phase,
    PlayerState,
    problems,
)

CTX = Context.printed()


def _chance_to_decision(state: AerState, rng: random.Random) -> AerState:
    """Apply chance deals (picked by their exact odds) until a player decides; check each step."""
    while outcomes := chance_outcomes(CTX, state):
        assert sum(p for _, p in outcomes) == 1
        assert all(p > 0 for _, p in outcomes)
        assert len({a for a, _ in outcomes}) == len(outcomes)
        actions = [a for a, _ in outcomes]
        action = rng.choices(actions, weights=[float(p) for _, p in outcomes])[0]
        assert action.kind in A.CHANCE_KINDS
        state = deal(CTX, state, action)
        assert problems(CTX, state) == []
    return state


def _set_up(players: int, seed: int = 0) -> AerState:
    """The full set-up: chance deals, then each home city in turn (the first one offered)."""
    rng = random.Random(seed)
    state = _chance_to_decision(new_game(CTX, players), rng)
    while state.phase is Phase.CHOOSE_HOME:
        choices = home_choices(CTX, state)
        state = choose_home(CTX, state, rng.choice(choices))
        assert problems(CTX, state) == []
    return state


# ---------------------------------------------------------------------------
# The set-up, step by step
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_new_game_is_clean_and_repr_round_trips(players: int) -> None:
    state = new_game(CTX, players)
    assert problems(CTX, state) == []
    assert eval(repr(state), vars(S)) == state
    assert hash(state) == hash(eval(repr(state), vars(S)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_reaches_the_first_decision_through_chance_only(players: int) -> None:
    state = _chance_to_decision(new_game(CTX, players), random.Random(players))
    # AER-SET-02 (AER-AMB-01): the seed's missing step B does nothing; A's deals lead straight to C.
    assert state.phase is Phase.CHOOSE_HOME
    # l.23: every waiting slot is full and none holds a "¤" tile; the "¤" tiles are all back in the bag.
    slots = [t for w in state.waiting for t in w.slots]
    assert None not in slots
    assert len(slots) == 6 * CTX.pack.waiting_area.slots_per_city
    assert not any(CTX.not_in_era_1(t) for t in slots if t is not None)
    marked = {p.id for p in CTX.pack.passengers if p.not_in_era_1}
    assert marked <= set(state.bag)
    assert len(state.bag) == 96 - len(slots)  # l.11
    assert state.overflow == ()  # l.23 note: nothing in the overflow area
    # l.24: the player to the right of the first player chooses first.
    assert state.to_move == (state.first_player - 1) % players


@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_printed_numbers(players: int) -> None:
    state = _set_up(players, seed=10 + players)
    assert state.phase is Phase.ACTION
    assert state.to_move == state.first_player  # AER-AMB-54: the first player starts era 1
    assert state.era == 1  # l.28, AER-SET-07: the era marker on space 1
    assert state.display == tuple(range(1, 13))  # l.29: cards 1..12 face up
    assert state.deck == tuple(range(13, 47))  # l.29: the other 34 in the deck
    assert state.subsidy_pool == 8 and state.marker_in_pool and state.marker_taker is None  # l.40
    assert state.advantage_supply == (6, 6, 6, 6, 6)  # l.16, l.27
    homes = [p.home for p in state.players]
    assert len(set(homes)) == players
    for seat, p in enumerate(state.players):
        assert p.vp == 0  # l.30, AER-SET-09
        assert p.supply == (9, 9, 9)  # l.66: 27 tiles, 9 a stage
        assert p.cards == () and p.engine_failures == 0 and p.advantages == (0, 0, 0, 0, 0)
        assert p.money == 12 + {"Paris": -1, "Berlin": 2}.get(p.home or "", 0)  # l.41
        assert state.airports(seat) == (p.home,)
    blockers = [a for s in state.map for a in s.slots if a is not None and a.owner == BLOCKER]
    assert len(blockers) == (6 if players == 3 else 0)  # l.25: the six "4/5" slots
    for city in CTX.pack.start_cities:
        slots = state.slots(city)
        if players == 3:
            assert slots[-1] == Airport(BLOCKER, HOME)
        else:
            assert Airport(BLOCKER, HOME) not in slots


def test_home_choices_run_counter_clockwise_first_player_last() -> None:
    state = _chance_to_decision(new_game(CTX, 5), random.Random(3))
    first = state.first_player
    order = []
    while state.phase is Phase.CHOOSE_HOME:
        order.append(state.to_move)
        state = choose_home(CTX, state, home_choices(CTX, state)[0])
    assert order == [(first - k) % 5 for k in range(1, 6)]
    assert order[-1] == first


def test_income_modifiers_paris_and_berlin() -> None:
    """AER-EX-01/02 (l.41): Paris £11, Berlin £14."""
    state = _chance_to_decision(new_game(CTX, 3), random.Random(1))
    wanted = {(state.first_player - 1) % 3: "Paris", (state.first_player - 2) % 3: "Berlin", state.first_player: "Rome"}
    while state.phase is Phase.CHOOSE_HOME:
        state = choose_home(CTX, state, A.ChooseHome(wanted[state.to_move]))
    money = {p.home: p.money for p in state.players}
    assert money == {"Paris": 11, "Berlin": 14, "Rome": 12}


def test_a_taken_city_is_rejected() -> None:
    state = _chance_to_decision(new_game(CTX, 4), random.Random(2))
    state = choose_home(CTX, state, A.ChooseHome("London"))
    assert A.ChooseHome("London") not in home_choices(CTX, state)
    assert home_rejection(CTX, state, A.ChooseHome("London")) is not None
    assert home_rejection(CTX, state, A.ChooseHome("Madrid")) is not None
    with pytest.raises(RulecraftError, match="AER-SET-03"):
        choose_home(CTX, state, A.ChooseHome("London"))


def test_first_deal_odds_are_uniform_over_unmarked_tiles() -> None:
    state = new_game(CTX, 4)
    outcomes = chance_outcomes(CTX, state)
    unmarked = [p.id for p in CTX.pack.passengers if not p.not_in_era_1]
    assert {a.id for a, _ in outcomes if isinstance(a, A.DealWaitingPassenger)} == set(unmarked)
    assert {p for _, p in outcomes} == {Fraction(1, len(unmarked))}
    marked = next(p.id for p in CTX.pack.passengers if p.not_in_era_1)
    with pytest.raises(RulecraftError, match="AER-SET-01"):
        deal(CTX, state, A.DealWaitingPassenger(marked))


def test_first_player_odds() -> None:
    state = attrs.evolve(new_game(CTX, 5), phase=Phase.FIRST_PLAYER)
    assert chance_outcomes(CTX, state) == [(A.DrawFirstPlayer(s), Fraction(1, 5)) for s in range(5)]


@pytest.mark.parametrize("players", [1, 2, 6])
def test_setup_problem_names_the_player_count(players: int) -> None:
    problem = setup_problem(CTX, players)
    assert problem is not None and problem.startswith("AER-R-01")
    with pytest.raises(RulecraftError, match="AER-R-01"):
        new_game(CTX, players)


def test_setup_problem_names_a_short_pack() -> None:
    pack = CTX.pack
    few = attrs.evolve(pack, passengers=tuple(p for p in pack.passengers if p.not_in_era_1) + pack.passengers[:5])
    problem = setup_problem(Context.printed(few), 4)
    assert problem is not None and problem.startswith("AER-SET-01")
    short = attrs.evolve(pack, cards=pack.cards[:11])
    problem = setup_problem(Context.printed(short), 4)
    assert problem is not None and problem.startswith("AER-SET-08")
    for n in (3, 4, 5):
        assert setup_problem(CTX, n) is None


def test_box_count_reading_gives_eight_stage_one_tiles() -> None:
    """AER-AMB-02 'box-count': 130 tiles / 5 = 26 a player, one fewer of stage 1."""
    ctx = Context.printed(readings={"AER-AMB-02": "box-count"})
    state = new_game(ctx, 4)
    assert state.players[0].supply == (8, 9, 9)
    assert problems(ctx, state) == []
    assert any("AER-R-11" in m for m in problems(CTX, state))


# ---------------------------------------------------------------------------
# The chance steps of play: exact odds
# ---------------------------------------------------------------------------


def test_play_chance_steps_sum_to_one() -> None:
    base = _set_up(4, seed=5)
    for phase in (Phase.RISK_ROLL, Phase.ADVANTAGE_ROLL, Phase.ROUND_DIE, Phase.CARD_DRAW, Phase.REFILL):
        outcomes = chance_outcomes(CTX, attrs.evolve(base, phase=phase))
        assert outcomes and sum(p for _, p in outcomes) == 1, phase
        assert all(a.kind in A.CHANCE_KINDS for a, _ in outcomes)
    assert chance_outcomes(CTX, attrs.evolve(base, phase=Phase.CARD_DRAW)) == [(A.DrawCard(13), Fraction(1))]
    assert chance_outcomes(CTX, base) == []  # a decision


def test_throw_odds() -> None:
    """l.89: three dice, skull, 2..6 (digest section 1): 216 ways; three skulls = total 0, 3 EF."""
    throws = dict((a, p) for a, p in throw_outcomes(CTX))
    assert throws[A.RiskThrow(0, 3)] == Fraction(1, 216)
    assert throws[A.RiskThrow(18, 0)] == Fraction(1, 216)
    # 3, 5, skull (l.89): the skull in 3 places, the other two (2,6) (3,5) (4,4) (5,3) (6,2): 15 ways.
    assert throws[A.RiskThrow(8, 1)] == Fraction(15, 216)
    faces = dict((a, p) for a, p in advantage_throw_outcomes(CTX))
    assert len(faces) == 56  # multisets of 3 from 6 faces
    assert faces[A.AdvantageThrow(("skull", 2, 3))] == Fraction(6, 216)
    assert faces[A.AdvantageThrow((4, 4, 4))] == Fraction(1, 216)
    assert die_outcomes(CTX) == [(A.RollFirstPlayerDie(v), Fraction(1, 6)) for v in range(1, 7)]


def test_every_action_kind_is_distinct_and_cites_rules() -> None:
    kinds = [getattr(A, name).kind for name in A.__all__ if hasattr(getattr(A, name), "kind")]
    assert len(kinds) == len(set(kinds)) == len(A.RULES_OF)
    assert set(kinds) == set(A.RULES_OF)
    assert set(kinds) >= A.CHANCE_KINDS
    from rulecraft.model.aeroplanes.catalogue import RULES

    for ids in A.RULES_OF.values():
        assert all(i in RULES or i.startswith("AER-SET-") for i in ids)


# ---------------------------------------------------------------------------
# problems(): each hand-corrupted state names its rule
# ---------------------------------------------------------------------------


def _seat(state: AerState, seat: int, **changes: Any) -> AerState:
    p = attrs.evolve(state.players[seat], **changes)
    return attrs.evolve(state, players=(*state.players[:seat], p, *state.players[seat + 1 :]))


def _put(state: AerState, destination: str, slot: int, tile: Airport | None) -> AerState:
    board = []
    for s in state.map:
        if s.destination == destination:
            s = attrs.evolve(s, slots=(*s.slots[:slot], tile, *s.slots[slot + 1 :]))
        board.append(s)
    return attrs.evolve(state, map=tuple(board))


def _with_card(state: AerState, seat: int, card: OwnedCard) -> AerState:
    """Move card ``card.number`` from the display to ``seat``, with its tiles out of the supply."""
    stage = CTX.card(card.number).tile_stage
    p = state.players[seat]
    supply = list(p.supply)
    supply[stage - 1] -= card.tiles
    display = tuple(n for n in state.display if n != card.number)
    state = attrs.evolve(state, display=display)
    return _seat(state, seat, cards=(*p.cards, card), supply=tuple(supply))


def _claim(state: AerState, seat: int, card_number: int, tile: str) -> AerState:
    """Move a waiting tile onto ``seat``'s card."""
    waiting = tuple(attrs.evolve(w, slots=tuple(None if t == tile else t for t in w.slots)) for w in state.waiting)
    p = state.players[seat]
    cards = tuple(attrs.evolve(c, passengers=(*c.passengers, tile)) if c.number == card_number else c for c in p.cards)
    return _seat(attrs.evolve(state, waiting=waiting), seat, cards=cards)


BASE = _set_up(3, seed=7)
HOME0: str = BASE.players[0].home or ""
assert HOME0
OTHER = next(d.name for d in CTX.pack.destinations if not d.start_city)


def test_base_and_legal_edits_are_clean() -> None:
    assert problems(CTX, BASE) == []
    card = CTX.card(BASE.display[0])
    state = _with_card(BASE, 0, OwnedCard(card.number, tiles=card.tile_count))
    state = _put(state, OTHER, 0, Airport(1, 1))
    # A stage-1 tile of seat 1 on the map must come out of its supply.
    assert any("AER-R-11" in m for m in problems(CTX, state))
    state = _seat(state, 1, supply=(8, 9, 9))
    assert problems(CTX, state) == []


def _waiting_tile(state: AerState) -> str:
    return next(t for w in state.waiting for t in w.slots if t is not None)


def _cases() -> dict[str, tuple[str, Callable[[], AerState]]]:
    card = CTX.card(BASE.display[0])
    owned = _with_card(BASE, 0, OwnedCard(card.number, tiles=card.tile_count))
    tile = _waiting_tile(BASE)
    big = next(p for p in CTX.pack.passengers if p.capacity > card.capacity and p.id in BASE.bag)
    seat1 = BASE.players[1].home
    assert seat1 is not None
    return {
        "tile lost from supply": ("AER-R-11", lambda: _seat(BASE, 0, supply=(8, 9, 9))),
        "tile counted twice": ("AER-R-11", lambda: _seat(owned, 0, supply=BASE.players[0].supply)),
        "card duplicated": ("AER-R-10", lambda: attrs.evolve(owned, display=BASE.display)),
        "two own tiles in one destination": (
            "AER-R-29",
            lambda: _seat(_put(_put(BASE, OTHER, 0, Airport(0, 1)), OTHER, 1, Airport(0, 2)), 0, supply=(8, 8, 9)),
        ),
        "wrong slot count": (
            "AER-R-29",
            lambda: attrs.evolve(BASE, map=(attrs.evolve(BASE.map[0], slots=BASE.map[0].slots[:-1]), *BASE.map[1:])),
        ),
        "blocker removed": ("AER-SET-04", lambda: _put(BASE, HOME0, 2, None)),
        "blocker with 4 players": (
            "AER-SET-04",
            lambda: _put(_set_up(4, seed=1), OTHER, 0, Airport(BLOCKER, HOME)),
        ),
        "home tile moved": (
            "AER-SET-03",
            lambda: _put(
                _put(BASE, HOME0, BASE.slots(HOME0).index(Airport(0, HOME)), None), OTHER, 0, Airport(0, HOME)
            ),
        ),
        "same home twice": ("AER-SET-03", lambda: _seat(BASE, 1, home=HOME0)),
        "negative money": ("AER-R-08", lambda: _seat(BASE, 0, money=-1)),
        "negative VP": ("AER-R-49", lambda: _seat(BASE, 2, vp=-3)),
        "four engine failures": ("AER-R-28", lambda: _seat(BASE, 0, engine_failures=4)),
        "subsidy pool over 8": ("AER-R-02", lambda: attrs.evolve(BASE, subsidy_pool=9)),
        "marker both in pool and taken": ("AER-R-48", lambda: attrs.evolve(BASE, marker_taker=1)),
        "marker taken with notes left": (
            "AER-R-48",
            lambda: attrs.evolve(BASE, marker_in_pool=False, marker_taker=1, subsidy_pool=3),
        ),
        "passenger duplicated": ("AER-R-56", lambda: attrs.evolve(BASE, bag=tuple(sorted((*BASE.bag, tile))))),
        "passenger lost": ("AER-R-56", lambda: attrs.evolve(BASE, bag=BASE.bag[1:])),
        "overflow in era 1": (
            "AER-SET-01",
            lambda: attrs.evolve(BASE, bag=tuple(t for t in BASE.bag if t != BASE.bag[0]), overflow=(BASE.bag[0],)),
        ),
        "overflow over 8": (
            "AER-R-57",
            lambda: attrs.evolve(BASE, era=2, bag=BASE.bag[9:], overflow=BASE.bag[:9]),
        ),
        "¤ tile waiting in era 1": (
            "AER-SET-01",
            lambda: attrs.evolve(
                BASE,
                waiting=(
                    attrs.evolve(BASE.waiting[0], slots=(_marked(), *BASE.waiting[0].slots[1:])),
                    *BASE.waiting[1:],
                ),
                bag=tuple(sorted((*(t for t in BASE.bag if t != _marked()), BASE.waiting[0].slots[0] or ""))),
            ),
        ),
        "over capacity": (
            "AER-R-36",
            lambda: _seat(
                attrs.evolve(owned, bag=tuple(t for t in owned.bag if t != big.id)),
                0,
                cards=(attrs.evolve(owned.players[0].cards[0], passengers=(big.id,)),),
            ),
        ),
        "face-down capacity exceeded": (
            "AER-R-36",
            lambda: _seat(
                _claim(owned, 0, card.number, tile),
                0,
                cards=(attrs.evolve(_claim(owned, 0, card.number, tile).players[0].cards[0], excess=0),),
            ),
        ),
        "advantage tile created": ("AER-R-40", lambda: _seat(BASE, 0, advantages=(1, 0, 0, 0, 0))),
        "advantage before its era": (
            "AER-R-40",
            lambda: _seat(attrs.evolve(BASE, advantage_supply=(6, 6, 6, 5, 6)), 0, advantages=(0, 0, 0, 1, 0)),
        ),
        "card lost": ("AER-R-10", lambda: attrs.evolve(BASE, deck=BASE.deck[1:])),
        "display out of order": ("AER-R-08", lambda: attrs.evolve(BASE, display=BASE.display[::-1])),
        "deck below display": (
            "AER-R-10",
            lambda: attrs.evolve(BASE, display=(*BASE.display[:-1], 13), deck=(12, *BASE.deck[1:])),
        ),
        "americas paid three times": (
            "AER-R-31",
            lambda: attrs.evolve(
                BASE, americas_paid=(("North America", 0), ("North America", 1), ("North America", 2))
            ),
        ),
        "era 4": ("AER-R-01", lambda: attrs.evolve(BASE, era=4)),
        "seat off the table": ("AER-R-04", lambda: attrs.evolve(BASE, to_move=3)),
    }


def _marked() -> str:
    return next(p.id for p in CTX.pack.passengers if p.not_in_era_1)


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_corrupted_state_names_its_rule(name: str) -> None:
    rule, build = CASES[name]
    found = problems(CTX, build())
    assert found, name
    assert any(rule in m for m in found), found


def test_problem_ids_are_catalogued() -> None:
    from rulecraft.model.aeroplanes.catalogue import RULES

    for rule, _ in CASES.values():
        assert rule in RULES or rule.startswith("AER-SET-")


def test_state_helpers() -> None:
    card = CTX.card(BASE.display[0])
    state = _claim(
        _with_card(BASE, 0, OwnedCard(card.number, tiles=card.tile_count)), 0, card.number, _waiting_tile(BASE)
    )
    owned = state.players[0].cards[0]
    assert S.load(CTX, owned) == CTX.pack.passenger(owned.passengers[0]).capacity
    assert S.capacity(CTX, owned) == card.capacity
    assert S.capacity(CTX, attrs.evolve(owned, excess=1)) == 1 and attrs.evolve(owned, excess=1).face_down
    assert S.tiles_on_cards(CTX, state.players[0], card.tile_stage) == card.tile_count
    assert Counter(S.passengers_in_play(state)) == Counter(p.id for p in CTX.pack.passengers)
    assert PlayerState().held(2) == 0
    assert repr(Phase.ACTION) == "Phase.ACTION"


def test_repr_round_trips_mid_game() -> None:
    card = CTX.card(BASE.display[0])
    state = _claim(_with_card(BASE, 0, OwnedCard(card.number, tiles=1)), 0, card.number, _waiting_tile(BASE))
    attempt = S.Attempt(card.number, OTHER, origin=HOME0, rolls=((12, 2), (14, 0)), throw=(9, 1), spent=2)
    state = attrs.evolve(
        state,
        phase=Phase.COVER,
        turn=S.TurnState(placements=1, attempt=attempt, advantage_dice=("skull", 2, 5)),
        americas_paid=(("North America", 1),),
    )
    again = eval(repr(state), vars(S))
    assert again == state and hash(again) == hash(state)


# ---------------------------------------------------------------------------
# The state's copy (state.evolve_state, issue 18)
# ---------------------------------------------------------------------------


def test_a_states_copy_is_what_attrs_evolve_builds_with_a_fresh_hash() -> None:
    """``evolve_state`` copies the fields' dict instead of calling ``__init__``: the copy equals
    ``attrs.evolve``'s field for field, is an AerState, leaves the original as it was, clears the cached
    hash (a stale one would make two different states look alike to every dict keyed on states), stays
    frozen, and refuses a name that is no field as ``attrs.evolve`` does."""
    st = _set_up(4)
    before = hash(st)
    changes: dict[str, Any] = {"phase": Phase.PLACING, "to_move": (st.to_move + 1) % 4, "subsidy_pool": 3}
    copy = S.evolve_state(st, **changes)
    assert copy == attrs.evolve(st, **changes) and type(copy) is AerState
    assert attrs.asdict(copy, recurse=False) == attrs.asdict(attrs.evolve(st, **changes), recurse=False)
    assert hash(copy) == hash(attrs.evolve(st, **changes)) != before
    assert hash(st) == before and st.phase is Phase.ACTION and st.subsidy_pool != 3
    assert S.evolve_state(st) == st and S.evolve_state(st) is not st
    assert eval(repr(copy), vars(S)) == copy
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        copy.era = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field 'gold'"):
        S.evolve_state(st, gold=1)


def test_a_players_copy_is_what_attrs_evolve_builds() -> None:
    """``evolve_player`` copies the fields' dict as ``evolve_state`` does: the copy equals ``attrs.evolve``'s
    field for field, is a PlayerState, leaves the original as it was (and its hash), stays frozen, and
    refuses a name that is no field."""
    player = _set_up(4).players[0]
    before = hash(player)
    changes: dict[str, Any] = {"money": player.money + 3, "cards": (OwnedCard(7, tiles=2),), "vp": 4}
    copy = S.evolve_player(player, **changes)
    assert copy == attrs.evolve(player, **changes) and type(copy) is PlayerState
    assert attrs.asdict(copy, recurse=False) == attrs.asdict(attrs.evolve(player, **changes), recurse=False)
    assert hash(copy) == hash(attrs.evolve(player, **changes)) != before
    assert hash(player) == before and player.cards == () and player.vp == 0
    assert S.evolve_player(player) == player and S.evolve_player(player) is not player
    assert copy.held(2) == player.held(2) and eval(repr(copy), vars(S)) == copy
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        copy.money = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field 'gold'"):
        S.evolve_player(player, gold=1)


# ---------------------------------------------------------------------------
# A placed tile's map (state.map_with): board and airports carried over (issue 18)
# ---------------------------------------------------------------------------


def _fresh(state: AerState) -> tuple[dict[str, Any], dict[int, tuple[str, ...]]]:
    """The board and every owner's airports worked out from the map itself (what a new map's first
    question works out when nothing is carried)."""
    return {s.destination: s.slots for s in state.map}, S._owners(state.map)


def test_map_with_carries_the_board_and_airports_as_worked_out_afresh() -> None:
    """AER-R-29/30: a tile into an empty slot adds its destination to its owner's airports in map order; a
    higher stage over an opponent's tile (l.124-125) moves the destination from one owner to the other; an
    upgrade of one's own tile changes no airports.  Each carried answer equals the fresh one and is the one
    kept for the new map (asked before any other question could work it out)."""
    # Kept answers are carried only while the memos have room (256): start them empty, as a fresh process
    # does, so that earlier tests in this worker cannot decide what this one sees.
    S._BOARDS.clear()
    S._AIRPORTS.clear()
    state = _set_up(4)
    state.board(), state.airports(0)  # the old map's answers are known
    first = state.map[0].destination
    seat = next(p for p in range(4) if first not in state.airports(p))
    cases = [
        (seat, 1),  # a new airport of ``seat``
        ((seat + 1) % 4, 2),  # a higher stage over it: the destination changes hands
        ((seat + 1) % 4, 3),  # an upgrade of one's own tile
    ]
    slot = next(i for i, a in enumerate(state.slots(first)) if a is None)
    for owner, stage in cases:
        slots = state.slots(first)
        slots = (*slots[:slot], Airport(owner, stage), *slots[slot + 1 :])
        board = S.map_with(state.map, first, slots)
        assert [s.destination for s in board] == [s.destination for s in state.map]
        assert [s.slots for s in board] == [slots if s.destination == first else s.slots for s in state.map]
        assert S._BOARDS[id(board)][0] is board and S._AIRPORTS[id(board)][0] is board  # carried, kept
        state = attrs.evolve(state, map=board)
        fresh_board, fresh_owners = _fresh(state)
        assert state.board() == fresh_board
        assert S._AIRPORTS[id(board)][1] == fresh_owners
        assert first in state.airports(owner)
    assert first not in state.airports(seat)  # its only tile there was replaced


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_games_carry_the_same_board_and_airports_as_worked_out_afresh(seed: int) -> None:
    """Every map a random game's placements make (transitions.place_tile uses ``map_with``) answers
    ``board`` and ``airports`` as one worked out from its own destinations."""
    from rulecraft.registry import make_game

    game = make_game("aer")
    rng = random.Random(seed)
    state = game.new_game(4)
    maps = 0
    while (action := game.random_action(state, rng)) is not None:
        before = state.map
        state = game.transition(state, action)
        if state.map is not before:
            maps += 1
            fresh_board, fresh_owners = _fresh(state)
            assert state.board() == fresh_board
            for owner in {*fresh_owners, *range(4)}:
                assert state.airports(owner) == fresh_owners.get(owner, ())
    assert maps > 20
