"""Each named Aeroplanes invariant: silent on every state of a few seeded random games (reachable states,
played through ``rules.check`` and ``transitions.transition``), and reporting a hand-made break
(``attrs.evolve``) under its name, citing the rule the break violates.  A check that cannot fail is
worthless, so every check is broken at least once.  The last tests hold the legality layers to
agreement on random reachable states: every action ``legal_actions`` lists passes ``check``, and every
candidate ``check`` accepts is listed.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from invariant_helpers import game_with
from test_aer_rules import candidates

from rulecraft.invariants.aeroplanes import (
    INVARIANTS,
    STEP_INVARIANTS,
    Violation,
    check_all,
    check_legality,
    check_step,
    report,
)
from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.catalogue import RULES, SETUP
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.readings import REGISTER
from rulecraft.model.aeroplanes.rules import CHANCE_PHASES, check, legal_actions
from rulecraft.model.aeroplanes.setup import new_game
from rulecraft.model.aeroplanes.state import BLOCKER, HOME, AerState, Airport, OwnedCard, Phase, Slots
from rulecraft.model.aeroplanes.transitions import transition

CTX = Context.printed()
PRINTED = game_with("aer", CTX)  # the printed game, as the invariant checks take it
PACK = CTX.pack
# A few readings the model builds, to see the invariants hold under them too (AER-AMB-02/03/04/06/42).
READINGS: tuple[dict[str, str], ...] = (
    {},
    {"AER-AMB-03": "twice", "AER-AMB-04": "taker"},
    {"AER-AMB-02": "box-count", "AER-AMB-06": "gap", "AER-AMB-42": "closed"},
)


# -- reachable states -----------------------------------------------------------------------------


def play(ctx: Context, players: int, seed: int) -> list[AerState]:
    """A random game from the set-up to the end (AER-R-63), every state on the way; the subsidy is favoured
    a little so that the eras end (AER-R-48)."""
    rng = random.Random(seed)
    state = new_game(ctx, players)
    states = [state]
    for _ in range(3000):
        legal = legal_actions(ctx, state)
        if not legal:
            break
        if state.phase is Phase.ACTION and A.TakeSubsidy() in legal and rng.random() < 0.3:
            action: A.AerAction = A.TakeSubsidy()
        else:
            action = rng.choice(legal)
        assert check(ctx, state, action) is None
        state = transition(ctx, state, action)
        states.append(state)
    assert state.phase is Phase.OVER, state.phase
    return states


@cache
def games() -> tuple[tuple[Context, tuple[AerState, ...]], ...]:
    out = []
    for i, readings in enumerate(READINGS):
        ctx = Context.printed(readings=readings)
        for players in (3, 4, 5):
            out.append((ctx, tuple(play(ctx, players, seed=10 * i + players))))
    return tuple(out)


def default_states() -> Iterator[AerState]:
    for ctx, states in games():
        if ctx.readings == CTX.readings:
            yield from states


def find(where: Callable[[AerState], bool], players: int | None = None) -> AerState:
    """The first reachable state (default readings) that satisfies ``where``."""
    for state in default_states():
        if (players is None or len(state.players) == players) and where(state):
            return state
    raise LookupError("no reachable state of that kind")


def in_phase(phase: Phase, players: int | None = None, era: int | None = None) -> AerState:
    return find(lambda s: s.phase is phase and (era is None or s.era == era), players)


def player(state: AerState, seat: int, **changes: Any) -> AerState:
    p = attrs.evolve(state.players[seat], **changes)
    return attrs.evolve(state, players=(*state.players[:seat], p, *state.players[seat + 1 :]))


def set_slots(state: AerState, destination: str, slots: tuple[Airport | None, ...]) -> AerState:
    board = tuple(Slots(s.destination, slots) if s.destination == destination else s for s in state.map)
    return attrs.evolve(state, map=board)


def holding(state: AerState) -> int:
    """A seat that owns a card with room left (for capacity breaks)."""
    for seat, p in enumerate(state.players):
        if p.cards:
            return seat
    raise LookupError("nobody owns a card")


# -- asserting ------------------------------------------------------------------------------------


def reports(name: str, state: AerState, rule: str, words: str = "", ctx: Context = CTX) -> list[Violation]:
    """The named check reports the state, citing ``rule``, with a message holding ``words``."""
    found = INVARIANTS[name].check(game_with("aer", ctx), state)
    assert found, f"{name} missed the break"
    assert all(v.invariant == name and rule in v.rules for v in found), report(found)
    assert any(words in v.message for v in found), report(found)
    return found


def step_reports(name: str, before: AerState, after: AerState, rule: str, words: str = "") -> None:
    found = STEP_INVARIANTS[name].check(PRINTED, before, after)
    assert found, f"{name} missed the break"
    assert all(v.invariant == name and rule in v.rules for v in found), report(found)
    assert any(words in v.message for v in found), report(found)


def silent(name: str, state: AerState, ctx: Context = CTX) -> None:
    found = INVARIANTS[name].check(game_with("aer", ctx), state)
    assert found == [], report(found)


# -- the registry ---------------------------------------------------------------------------------


def test_registry_names_known_rules_and_docs() -> None:
    specs = [(s.rules, s.doc) for s in INVARIANTS.values()] + [(s.rules, s.doc) for s in STEP_INVARIANTS.values()]
    assert len(INVARIANTS) == 14 and len(STEP_INVARIANTS) == 6
    ambiguities = {a.id for a in REGISTER.ambiguities}
    for rules, doc in specs:
        assert doc and rules
        for rule in rules:
            assert rule in RULES or rule in SETUP or rule in ambiguities, rule


def test_report_words_every_violation() -> None:
    state = attrs.evolve(in_phase(Phase.ACTION), era=4, subsidy_pool=9)
    text = report(check_all(PRINTED, state), where="after step 3")
    assert text.startswith("state after step 3 violates 2 invariants:")
    assert "era-and-phase [AER-R-01" in text and "subsidy-pool-and-marker [AER-R-02" in text
    assert report([]) == "state satisfies every invariant"


def test_a_check_that_crashes_reports_instead_of_raising() -> None:
    """A card number the pack does not know breaks the recount; the check says so instead of raising."""
    state = in_phase(Phase.ACTION, era=2)
    seat = holding(state)
    state = player(state, seat, cards=(*state.players[seat].cards, OwnedCard(99)))
    found = INVARIANTS["plane-capacity"].check(PRINTED, state)
    assert len(found) == 1 and found[0].message.startswith("the check could not run: ")
    reports("cards-conserved", state, "AER-R-10", words="no plane card 99")


# -- every invariant holds on reachable states ----------------------------------------------------


@pytest.mark.parametrize("name", list(INVARIANTS))
def test_invariant_holds_on_reachable_states(name: str) -> None:
    seen = 0
    for ctx, states in games():
        for i, state in enumerate(states):
            found = INVARIANTS[name].check(game_with("aer", ctx), state)
            assert found == [], report(found, where=f"at step {i} ({len(state.players)} players)")
            seen += 1
    assert seen > 1000


@pytest.mark.parametrize("name", list(STEP_INVARIANTS))
def test_step_invariant_holds_on_reachable_steps(name: str) -> None:
    for ctx, states in games():
        for i, (before, after) in enumerate(itertools.pairwise(states)):
            found = STEP_INVARIANTS[name].check(game_with("aer", ctx), before, after)
            assert found == [], report(found, where=f"after step {i + 1} ({before.phase.value})")


def test_the_games_reach_every_phase_of_the_built_model() -> None:
    """The reachable states cover the set-up, actions, placements, covers, era updates and the end."""
    phases = {s.phase for _, states in games() for s in states}
    assert {Phase.CHOOSE_HOME, Phase.PLACING, Phase.COVER, Phase.UPDATE_DRAW, Phase.REFILL, Phase.OVER} <= phases


# -- one break per invariant ----------------------------------------------------------------------


def test_era_and_phase() -> None:
    state = in_phase(Phase.ACTION)
    silent("era-and-phase", state)
    reports("era-and-phase", attrs.evolve(state, era=4), "AER-R-01", "era 4")
    reports("era-and-phase", attrs.evolve(in_phase(Phase.OVER), era=2), "AER-R-63", "over in era 2")
    reports("era-and-phase", attrs.evolve(in_phase(Phase.REFILL), marker_in_pool=True), "AER-R-58", "update phase")
    home = in_phase(Phase.CHOOSE_HOME)
    reports("era-and-phase", player(home, 0, money=12), "AER-SET-10", "during the set-up")
    taken = attrs.evolve(state, subsidy_pool=0, marker_in_pool=False, marker_taker=state.to_move)
    reports("era-and-phase", taken, "AER-R-06", "play goes on")


def test_turn_order() -> None:
    state = in_phase(Phase.ACTION, players=4)
    silent("turn-order", state)
    reports("turn-order", attrs.evolve(state, to_move=(state.to_move + 1) % 4), "AER-R-04", "clockwise")
    reports("turn-order", attrs.evolve(state, to_move=7), "AER-R-04", "outside 0..3")
    die = find(lambda s: s.phase is Phase.ROUND_DIE and s.marker_in_pool)
    silent("turn-order", die)
    reports("turn-order", attrs.evolve(die, die_roller=None), "AER-R-05", "die roller None")
    wrong = (die.first_player + 1) % len(die.players)
    reports("turn-order", attrs.evolve(die, die_roller=wrong), "AER-R-05", "the first player is")
    update_die = find(lambda s: s.phase is Phase.ROUND_DIE and not s.marker_in_pool)
    other = ((update_die.marker_taker or 0) + 1) % len(update_die.players)
    reports("turn-order", attrs.evolve(update_die, die_roller=other), "AER-R-62", "marker-taker")
    home = find(lambda s: s.phase is Phase.CHOOSE_HOME and any(p.home for p in s.players))
    reports("turn-order", attrs.evolve(home, to_move=home.first_player), "AER-SET-03", "chooses a home")


def test_airport_tiles_conserved() -> None:
    state = find(lambda s: s.era == 2 and any(c.tiles for p in s.players for c in p.cards))
    silent("airport-tiles-conserved", state)
    p = state.players[1]
    broken = player(state, 1, supply=(p.supply[0] + 1, p.supply[1], p.supply[2]))
    reports("airport-tiles-conserved", broken, "AER-R-11", "seat 1, stage 1")
    # The count is read from the context: under AER-AMB-02 box-count a player has one stage-1 tile fewer.
    reports(
        "airport-tiles-conserved",
        state,
        "AER-AMB-02",
        "expected 8",
        ctx=Context.printed(readings={"AER-AMB-02": "box-count"}),
    )
    home = state.players[0].home
    assert home is not None
    slots = tuple(None if a is not None and a.owner == 0 and a.stage == HOME else a for a in state.slots(home))
    reports("airport-tiles-conserved", set_slots(state, home, slots), "AER-SET-03", "has home tiles in []")


def test_one_tile_per_slot() -> None:
    state = in_phase(Phase.ACTION, players=3, era=2)
    silent("one-tile-per-slot", state)
    home = state.players[0].home
    assert home is not None
    slots = state.slots(home)
    empty = slots.index(None) if None in slots else None
    if empty is not None:
        doubled = (*slots[:empty], Airport(0, 1), *slots[empty + 1 :])
        reports("one-tile-per-slot", set_slots(state, home, doubled), "AER-R-29", "seat 0 has 2 tiles")
    # A 3-player "4/5" slot holds its blocker for the whole game (AER-SET-04).
    unblocked = tuple(None if a is not None and a.owner == BLOCKER else a for a in slots)
    reports("one-tile-per-slot", set_slots(state, home, unblocked), "AER-SET-04", "not a blocker")
    four = in_phase(Phase.ACTION, players=4)
    paris = four.slots("Paris")
    j = paris.index(None) if None in paris else 0
    blocked = (*paris[:j], Airport(BLOCKER, HOME), *paris[j + 1 :])
    reports("one-tile-per-slot", set_slots(four, "Paris", blocked), "AER-SET-04", "in play with 4 players")
    cut = set_slots(four, "Warsaw", (None,))
    reports("one-tile-per-slot", cut, "AER-R-29", "Warsaw has 1 slots")


def test_money_never_negative() -> None:
    state = in_phase(Phase.ACTION)
    silent("money", state)
    reports("money", player(state, 2, money=-1), "AER-R-08", "seat 2 has £-1")


def test_subsidy_pool_and_marker() -> None:
    state = in_phase(Phase.ACTION)
    silent("subsidy-pool-and-marker", state)
    reports("subsidy-pool-and-marker", attrs.evolve(state, subsidy_pool=9), "AER-R-02", "0 to 8")
    reports("subsidy-pool-and-marker", attrs.evolve(state, marker_taker=1), "AER-R-48", "its taker is 1")
    refill = in_phase(Phase.REFILL)
    silent("subsidy-pool-and-marker", refill)
    reports("subsidy-pool-and-marker", attrs.evolve(refill, subsidy_pool=3), "AER-R-48", "3 notes still")
    reports("subsidy-pool-and-marker", attrs.evolve(refill, marker_taker=None), "AER-R-48", "out of the section")


def test_passengers_conserved() -> None:
    state = find(lambda s: s.era == 2 and bool(s.overflow) and bool(s.bag) and s.phase is Phase.ACTION)
    silent("passengers-conserved", state)
    reports("passengers-conserved", attrs.evolve(state, bag=state.bag[1:]), "AER-R-56", f"missing ['{state.bag[0]}']")
    doubled = attrs.evolve(state, bag=tuple(sorted((*state.bag, state.bag[0]))))
    reports("passengers-conserved", doubled, "AER-SET-01", "extra")
    europe = next(t.id for t in PACK.passengers if CTX.europe(t.destination) and t.id in state.bag)
    moved = attrs.evolve(state, bag=tuple(t for t in state.bag if t != europe), overflow=(*state.overflow, europe))
    reports("passengers-conserved", moved, "AER-R-57", "in Europe")
    worthless = next(t.id for t in PACK.passengers if t.vp == 0 and t.id in state.bag)
    banked = player(attrs.evolve(state, bag=tuple(t for t in state.bag if t != worthless)), 0, banked=(worthless,))
    reports("passengers-conserved", banked, "AER-R-56", "0-VP")
    era_1 = in_phase(Phase.ACTION, era=1)
    marked = next(t.id for t in PACK.passengers if t.not_in_era_1)
    w = era_1.waiting[0]
    swapped_out = w.slots[0]
    assert swapped_out is not None and marked in era_1.bag
    section = attrs.evolve(w, slots=(marked, *w.slots[1:]))
    bag = tuple(sorted((*(t for t in era_1.bag if t != marked), swapped_out)))
    swapped = attrs.evolve(era_1, waiting=(section, *era_1.waiting[1:]), bag=bag)
    reports("passengers-conserved", swapped, "AER-AMB-31", "wait during era 1")


def test_plane_capacity() -> None:
    state = find(lambda s: any(c.passengers for p in s.players for c in p.cards))
    silent("plane-capacity", state)
    seat, card = next((i, c) for i, p in enumerate(state.players) for c in p.cards if c.passengers)
    heavy = next(t.id for t in PACK.passengers if t.id in state.bag and t.capacity >= 1)
    big = [heavy] * (PACK.card(card.number).capacity + 1)
    overloaded = attrs.evolve(card, passengers=tuple(sorted((*card.passengers, *big))))
    cards = tuple(overloaded if c.number == card.number else c for c in state.players[seat].cards)
    reports("plane-capacity", player(state, seat, cards=cards), "AER-R-36", f"card {card.number}")
    down = find(lambda s: any(c.face_down for p in s.players for c in p.cards))
    silent("plane-capacity", down)
    seat, card = next((i, c) for i, p in enumerate(down.players) for c in p.cards if c.face_down)
    too_many = attrs.evolve(card, excess=PACK.card(card.number).capacity + 1)
    cards = tuple(too_many if c.number == card.number else c for c in down.players[seat].cards)
    reports("plane-capacity", player(down, seat, cards=cards), "AER-R-55", "excess markers")
    early = find(lambda s: s.era == 1 and s.phase is Phase.ACTION and any(p.cards for p in s.players))
    owner = holding(early)
    flipped = tuple(attrs.evolve(c, excess=0) for c in early.players[owner].cards)
    reports("plane-capacity", player(early, owner, cards=flipped), "AER-R-55", "before any update")


def test_cards_conserved() -> None:
    state = in_phase(Phase.ACTION, era=2)
    silent("cards-conserved", state)
    reports("cards-conserved", attrs.evolve(state, display=state.display[1:]), "AER-R-10", "missing")
    swapped = attrs.evolve(state, display=tuple(reversed(state.display)))
    reports("cards-conserved", swapped, "AER-R-08", "not strictly increasing")
    low, high = state.display[0], state.deck[0]
    exchanged = attrs.evolve(
        state, display=tuple(sorted((*state.display[1:], high))), deck=tuple(sorted((*state.deck[1:], low)))
    )
    reports("cards-conserved", exchanged, "AER-SET-08", f"deck card {low}")
    seat = holding(state)
    card = state.players[seat].cards[0]
    loaded = attrs.evolve(card, tiles=PACK.card(card.number).tile_count + 2)
    cards = (loaded, *state.players[seat].cards[1:])
    reports("cards-conserved", player(state, seat, cards=cards), "AER-R-09", "airport tiles")


def test_advantage_tiles_conserved() -> None:
    state = in_phase(Phase.ACTION, era=1)
    silent("advantage-tiles-conserved", state)
    supply = state.advantage_supply
    fewer = attrs.evolve(state, advantage_supply=(supply[0] - 1, *supply[1:]))
    reports("advantage-tiles-conserved", fewer, "AER-SET-06", "type 2")
    # Increased Production (type 4) is available from era 2 only (AER-R-40).
    early = attrs.evolve(state, advantage_supply=(supply[0], supply[1], supply[2] - 1, supply[3], supply[4]))
    p = early.players[0]
    early = player(early, 0, advantages=(p.advantages[0], p.advantages[1], p.advantages[2] + 1, *p.advantages[3:]))
    reports("advantage-tiles-conserved", early, "AER-R-40", "available from era 2")


def test_engine_failures() -> None:
    state = in_phase(Phase.ACTION)
    silent("engine-failures", state)
    reports("engine-failures", player(state, 0, engine_failures=4), "AER-R-28", "holds 4 EF tiles")
    reports("engine-failures", player(state, 0, engine_failures=-1), "AER-R-28", "holds -1")
    # AER-SET-05 (l.26): the engine-failure tiles are a supply of the box's count; together no more are held.
    small = attrs.evolve(PACK, supplies=attrs.evolve(PACK.supplies, engine_failure_tiles=4))
    held = player(player(state, 0, engine_failures=3), 1, engine_failures=2)
    reports("engine-failures", held, "AER-SET-05", "5 EF tiles held; the box has 4", ctx=Context.printed(small))


def test_turn_bookkeeping() -> None:
    cover = in_phase(Phase.COVER)
    silent("turn-bookkeeping", cover)
    attempt = cover.turn.attempt
    assert attempt is not None
    action = in_phase(Phase.ACTION)
    stray = attrs.evolve(action, turn=attrs.evolve(action.turn, attempt=attempt))
    reports("turn-bookkeeping", stray, "AER-R-13", "in phase action")
    unthrown = attrs.evolve(cover, turn=attrs.evolve(cover.turn, attempt=attrs.evolve(attempt, throw=None)))
    reports("turn-bookkeeping", unthrown, "AER-R-20", "kept throw None")
    placing = in_phase(Phase.PLACING)
    silent("turn-bookkeeping", placing)
    reports("turn-bookkeeping", attrs.evolve(placing, turn=attrs.evolve(placing.turn, placements=0)), "AER-R-13", "0")
    claims = attrs.evolve(action, turn=attrs.evolve(action.turn, claims_left=2))
    reports("turn-bookkeeping", claims, "AER-R-46", "Night Flights")
    dice = attrs.evolve(action, turn=attrs.evolve(action.turn, advantage_dice=("skull", 2, 3)))
    reports("turn-bookkeeping", dice, "AER-R-39", "wait only for the picks")
    pending = attrs.evolve(attempt, pending=True)
    beacons = player(cover, cover.to_move, advantages=(*cover.players[cover.to_move].advantages[:4], 0))
    waiting = attrs.evolve(beacons, turn=attrs.evolve(cover.turn, attempt=pending))
    reports("turn-bookkeeping", waiting, "AER-R-47", "none is held")
    die = in_phase(Phase.ROUND_DIE)
    busy = attrs.evolve(die, turn=attrs.evolve(die.turn, maintenance_done=True))
    reports("turn-bookkeeping", busy, "AER-R-07", "outside a seat's action")


def test_americas_bonus() -> None:
    state = in_phase(Phase.ACTION, players=4)
    silent("americas-bonus", state)
    three = (("North America", 0), ("North America", 1), ("North America", 2))
    reports("americas-bonus", attrs.evolve(state, americas_paid=three), "AER-R-31", "3 bonuses")
    twice = (("South America", 3), ("South America", 3))
    reports("americas-bonus", attrs.evolve(state, americas_paid=twice), "AER-R-31", "paid 2 times")
    reports("americas-bonus", attrs.evolve(state, americas_paid=(("Paris", 0),)), "AER-R-31", "for Paris")


def test_vp_sources() -> None:
    state = in_phase(Phase.ACTION, era=1)
    silent("vp-sources", state)
    reports("vp-sources", player(state, 0, vp=3), "AER-R-49", "before any era scoring")
    later = in_phase(Phase.ACTION, era=3)
    silent("vp-sources", later)
    reports("vp-sources", player(later, 1, vp=-1), "AER-R-49", "-1 VP")
    paid = attrs.evolve(later, americas_paid=(("North America", 1),))
    reports("vp-sources", player(paid, 1, vp=0), "AER-R-31", "less than its Americas bonuses")


# -- the step invariants --------------------------------------------------------------------------


def pair(where: Callable[[AerState, AerState], bool]) -> tuple[AerState, AerState]:
    for ctx, states in games():
        if ctx.readings != CTX.readings:
            continue
        for before, after in itertools.pairwise(states):
            if where(before, after):
                return before, after
    raise LookupError("no reachable step of that kind")


def era_begins(before: AerState, after: AerState) -> bool:
    """The die after an era's update: the next era's Income step (AER-R-62, R-02, R-03)."""
    return before.phase is Phase.ROUND_DIE and not before.marker_in_pool and after.phase is Phase.ACTION


def test_home_tiles_never_replaced() -> None:
    before, after = pair(lambda b, a: b.phase is Phase.ACTION and len(b.players) == 3)
    home = after.players[0].home
    assert home is not None
    slots = tuple(Airport(1, 3) if x is not None and x.owner == 0 and x.stage == HOME else x for x in after.slots(home))
    step_reports("home-tiles-never-replaced", before, set_slots(after, home, slots), "AER-R-29", "home tile")
    blocker = tuple(None if x is not None and x.owner == BLOCKER else x for x in after.slots(home))
    step_reports("home-tiles-never-replaced", before, set_slots(after, home, blocker), "AER-SET-04", "blocker")


def test_tiles_replaced_only_by_higher_stage() -> None:
    before, after = pair(lambda b, a: b.map != a.map and b.phase is not Phase.CHOOSE_HOME)
    assert check_step(PRINTED, before, after) == []
    changed = next(
        (s.destination, i)
        for s, t in zip(before.map, after.map, strict=True)
        for i, (x, y) in enumerate(zip(s.slots, t.slots, strict=True))
        if x != y
    )
    destination, i = changed
    slots = after.slots(destination)
    new = slots[i]
    assert new is not None

    def with_tile(tile: Airport | None, owner: int = new.owner) -> AerState:
        return set_slots(after, destination, (*slots[:i], tile, *slots[i + 1 :]))

    name = "tiles-replaced-only-by-higher-stage"
    step_reports(name, after, with_tile(None), "AER-R-29", "without a replacement")
    step_reports(name, with_tile(Airport(new.owner, 3)), with_tile(Airport(new.owner, 1)), "AER-R-29", "not a higher")
    foreign = with_tile(Airport((new.owner + 1) % len(after.players), new.stage))
    step_reports(name, before, foreign, "AER-R-13", "was placing")


def test_vp_never_decreases() -> None:
    before, after = pair(lambda b, a: b.phase is Phase.ACTION and b.era == 2)
    step_reports("vp-never-decreases", before, player(after, 0, vp=before.players[0].vp - 1), "AER-R-49", "fell")
    more = player(after, 0, vp=after.players[0].vp + 2)
    step_reports("vp-never-decreases", before, more, "AER-R-31", "outside an era scoring")


def test_money_moves_with_the_mover() -> None:
    before, after = pair(lambda b, a: b.phase is Phase.ACTION and len(b.players) == 4)
    other = (before.to_move + 1) % 4
    richer = player(after, other, money=after.players[other].money + 1)
    step_reports("money-moves-with-the-mover", before, richer, "AER-R-03", "it was not acting")
    # The Income step pays exactly the era's income (AER-R-03: £22 in era 2).
    income_before, income_after = pair(era_begins)
    assert check_step(PRINTED, income_before, income_after) == []
    short = player(income_after, 0, money=income_after.players[0].money - 1)
    due = PACK.income.amount(income_after.era, "")
    step_reports("money-moves-with-the-mover", income_before, short, "AER-R-03", f"income due £{due}")
    # The acting seat itself gains only what the bank and the subsidy section pay out (AER-R-31, R-48).
    mover = before.to_move
    found = player(after, mover, money=after.players[mover].money + 5)
    step_reports("money-moves-with-the-mover", before, found, "AER-R-48", "came from nowhere")


def test_subsidy_notes_to_the_mover() -> None:
    before, after = pair(lambda b, a: a.subsidy_pool == b.subsidy_pool - 1)
    seat = before.to_move
    step_reports(
        "subsidy-notes-to-the-mover",
        before,
        attrs.evolve(after, subsidy_pool=after.subsidy_pool - 1),
        "AER-R-48",
        "2 subsidy notes",
    )
    kept = player(after, seat, money=before.players[seat].money)
    step_reports("subsidy-notes-to-the-mover", before, kept, "AER-R-48", "changed by £0")
    refilled = attrs.evolve(after, subsidy_pool=before.subsidy_pool + 1)
    step_reports("subsidy-notes-to-the-mover", before, refilled, "AER-R-02", "only the Income step refills")
    income_before, income_after = pair(era_begins)
    step_reports(
        "subsidy-notes-to-the-mover", income_before, attrs.evolve(income_after, subsidy_pool=7), "AER-R-61", "left 7"
    )


def test_era_advances_by_one() -> None:
    before, after = pair(lambda b, a: b.phase is Phase.ACTION and b.era == 1)
    step_reports("era-advances-by-one", before, attrs.evolve(after, era=3), "AER-R-60", "from 1 to 3")
    step_reports("era-advances-by-one", before, attrs.evolve(after, era=2), "AER-R-06", "subsidy notes left")
    over = in_phase(Phase.OVER)
    step_reports("era-advances-by-one", over, player(over, 0, money=0), "AER-R-01", "after the game was over")


def test_a_step_between_different_player_counts_is_reported() -> None:
    three, four = in_phase(Phase.ACTION, players=3), in_phase(Phase.ACTION, players=4)
    found = check_step(PRINTED, three, four)
    assert len(found) == len(STEP_INVARIANTS)
    assert all("3 players before the step, 4 after" in v.message for v in found)


# -- the legality layers --------------------------------------------------------------------------


@settings(max_examples=5, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 10**6), readings=st.sampled_from(READINGS))
def test_legal_actions_and_check_agree_on_reachable_states(players: int, seed: int, readings: dict[str, str]) -> None:
    """Every listed action passes the check; every candidate the check accepts is listed (AER-R-07)."""
    ctx = Context.printed(readings=readings)
    game = game_with("aer", ctx)
    rng = random.Random(seed)
    state = new_game(ctx, players)
    for i in range(240):
        # The candidate set is broad (every card, throw, slot...): a seeded sample of it is judged on every
        # other step past the deal, which keeps the test to seconds.
        cands: list[A.AerAction] = []
        if state.phase is not Phase.DEAL_PASSENGERS and i % 2 == 0:
            pool = candidates(state)
            cands = rng.sample(pool, min(len(pool), 120))
        found = check_legality(game, state, cands)
        assert found == [], report(found, where=f"at step {i}")
        legal = legal_actions(ctx, state)
        if not legal:
            break
        state = transition(ctx, state, rng.choice(legal))
        found = check_all(game, state)
        assert found == [], report(found, where=f"after step {i + 1}")


def test_the_legality_check_fires_on_a_listed_illegal_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_legality can fail: a candidate check accepts that legal_actions omits is reported, so is a listed
    action check refuses, and so is a chance step whose list is not its outcomes."""
    state = in_phase(Phase.ACTION)
    assert check_legality(PRINTED, state, [A.TakeSubsidy()]) == []
    original = legal_actions

    def without_subsidy(ctx: Context, state: AerState) -> list[A.AerAction]:
        return [a for a in original(ctx, state) if a != A.TakeSubsidy()]

    def with_a_stray_die(ctx: Context, state: AerState) -> list[A.AerAction]:
        return [*original(ctx, state), A.RollFirstPlayerDie(9)]

    def one_outcome_short(ctx: Context, state: AerState) -> list[A.AerAction]:
        return original(ctx, state)[1:]

    monkeypatch.setattr("rulecraft.invariants.aeroplanes.legal_actions", without_subsidy)
    found = check_legality(PRINTED, state, [A.TakeSubsidy()])
    assert [v.invariant for v in found] == ["legality-layers"]
    assert "passes the check but is not listed" in found[0].message
    monkeypatch.setattr("rulecraft.invariants.aeroplanes.legal_actions", with_a_stray_die)
    assert any("listed as legal but refused" in v.message for v in check_legality(PRINTED, state))
    monkeypatch.setattr("rulecraft.invariants.aeroplanes.legal_actions", one_outcome_short)
    found = check_legality(PRINTED, new_game(CTX, 3))
    assert any("other actions than its outcomes" in v.message for v in found)


# -- the legality layers, each condition on its own (issue 22) ---------------------------------------------


def test_a_genuine_chance_step_and_a_refused_candidate_are_no_violation() -> None:
    """AER-R-07: the deal at set-up lists exactly its outcomes with odds summing to 1, each above 0;
    a candidate the check refuses with a rule, and does not list, is as it should be."""
    deal = new_game(CTX, 3)
    assert deal.phase in CHANCE_PHASES
    assert check_legality(PRINTED, deal) == []
    action = in_phase(Phase.ACTION)
    refused = A.RollFirstPlayerDie(9)  # a die roll in the middle of an action round
    assert check(CTX, action, refused) is not None
    assert check_legality(PRINTED, action, [refused]) == []


def test_each_broken_layer_is_named_with_its_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    from fractions import Fraction

    from rulecraft.core import Rejection
    from rulecraft.model.aeroplanes.setup import chance_outcomes as real_outcomes

    deal = new_game(CTX, 3)
    outcomes = real_outcomes(CTX, deal)
    assert len(outcomes) >= 2

    # Odds that do not add up to 1: three quarters of the mass.
    short = [(a, p * Fraction(3, 4)) for a, p in outcomes]
    monkeypatch.setattr("rulecraft.invariants.aeroplanes.chance_outcomes", lambda ctx, state: short)
    found = check_legality(PRINTED, deal)
    assert [v.message for v in found] == [f"the chance outcomes of {deal.phase.value} sum to 3/4"]
    assert found[0].invariant == "legality-layers" and found[0].rules == ("AER-R-07",)

    # An outcome with odds 0 (the others keep the whole mass): listed, but it cannot happen.
    zero = [(outcomes[0][0], Fraction(0)), *((a, p / (1 - outcomes[0][1])) for a, p in outcomes[1:])]
    monkeypatch.setattr("rulecraft.invariants.aeroplanes.chance_outcomes", lambda ctx, state: zero)
    assert [v.message for v in check_legality(PRINTED, deal)] == [
        f"a chance outcome of {deal.phase.value} has odds 0 or less"
    ]
    monkeypatch.undo()

    # An action listed twice.
    action = in_phase(Phase.ACTION)
    original = legal_actions
    twice = lambda ctx, state: [*original(ctx, state), original(ctx, state)[0]]  # noqa: E731
    monkeypatch.setattr("rulecraft.invariants.aeroplanes.legal_actions", twice)
    assert [v.message for v in check_legality(PRINTED, action)] == ["legal_actions lists 1 actions twice"]
    monkeypatch.undo()

    # A candidate refused without naming a rule.
    nameless = Rejection("", "no reason given")
    monkeypatch.setattr(
        "rulecraft.invariants.aeroplanes.check",
        lambda ctx, state, a: None if a in original(ctx, state) else nameless,
    )
    stray = A.RollFirstPlayerDie(9)
    assert [v.message for v in check_legality(PRINTED, action, [stray])] == [
        f"{stray!r} is refused without a rule: {nameless}"
    ]


def test_a_face_down_card_carries_no_more_than_its_excess_markers() -> None:
    """AER-R-55 (l.174): once face down, the excess markers are the card's capacity, not the printed one:
    a face-down card showing 0 markers that carries a passenger is over its capacity."""
    down = find(lambda s: any(c.face_down for p in s.players for c in p.cards))
    seat, card = next((i, c) for i, p in enumerate(down.players) for c in p.cards if c.face_down)
    printed = PACK.card(card.number).capacity
    tile = next(t for t in PACK.passengers if t.id in down.bag and 1 <= t.capacity <= printed)
    loaded = attrs.evolve(card, excess=0, passengers=(tile.id,))
    cards = tuple(loaded if c.number == card.number else c for c in down.players[seat].cards)
    found = reports("plane-capacity", player(down, seat, cards=cards), "AER-R-55", f"card {card.number}")
    assert any(f"carries {tile.capacity} on a capacity of 0" in v.message for v in found), report(found)


def test_the_running_update_counts_once_for_the_cards_it_removes() -> None:
    """AER-R-53: each update removes at most the era-end discards from the display; during era 1's update
    (the black marker taken) one update is running, so one more card than that is one too many."""
    updating = find(lambda s: s.era == 1 and not s.marker_in_pool and s.phase is not Phase.OVER)
    allowed = PACK.era_end_discards
    extra = allowed + 1 - len(updating.removed_cards)
    assert 0 < extra <= len(updating.deck)
    moved = attrs.evolve(
        updating,
        deck=updating.deck[extra:],
        removed_cards=tuple(sorted((*updating.removed_cards, *updating.deck[:extra]))),
    )
    reports("cards-conserved", moved, "AER-R-53", words=f"{allowed + 1} cards removed from the display after 1 updates")
