"""Each named Steamopolis invariant: silent on a valid state, and reporting a
hand-made break (``attrs.evolve``) under its name, citing the rule that the
break violates.  A check that cannot fail is worthless, so every check is
broken at least once.  States are built by hand from the state classes (as in
tests/test_stm_state.py and tests/test_stm_rules.py); a last test plays a few
seeded random games and asks for no violation at any step.
"""

from __future__ import annotations

import random
from typing import Any, cast

import attrs
import pytest
from invariant_helpers import game_with

from rulecraft.invariants.steamopolis import (
    INVARIANTS,
    STEP_INVARIANTS,
    Violation,
    check_all,
    check_step,
    report,
)
from rulecraft.model.steamopolis.catalogue import RULES
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import VotePoints
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Stone, gauge_of
from rulecraft.model.steamopolis.readings import REGISTER
from rulecraft.model.steamopolis.state import (
    SHADOW,
    BoardStone,
    Market,
    Parasite,
    Passengers,
    Phase,
    PlayerState,
    RoomTile,
    Solo,
    StmState,
    Supply,
    TurnState,
    new_player,
)

CTX = Context.printed()
PRINTED = game_with("stm", CTX)  # the printed game, as the invariant checks take it
PACK = CTX.pack
PASSENGER_IDS = tuple(t.id for t in PACK.passengers)


# -- building states ------------------------------------------------------------------------------


def room(*tiles: tuple[int, RoomTile]) -> tuple[RoomTile | None, ...]:
    """A machine room from (position 1..7, tile) pairs."""
    out: list[RoomTile | None] = [None] * PACK.machine_room.positions
    for position, tile in tiles:
        out[position - 1] = tile
    return tuple(out)


def start(players: int = 2) -> StmState:
    """A state right after the set-up (STM-R-01..13), as the rulebook describes it.

    Seat 0 plays character 1 (1 crystal), S1 on position 1 and a storage-side capacity tile on 2;
    seat 1 character 3 (a second capacity tile); seat 2 character 9 (2 gears); seat 3 character 13.
    Markets on levels 2-8 hold one tile of each rank; P01 is face up on the 15 other passenger tiles.
    """
    characters = (1, 3, 9, 13)[:players]
    starting = ("S1", "S2", "S3", "S4")
    seats: list[PlayerState] = []
    capacity = 0
    for seat, number in enumerate(characters):
        tiles = [(1, RoomTile("starting", starting[seat], 0)), (2, RoomTile("capacity", "capacity", 1))]
        if number == 3:
            tiles.append((3, RoomTile("capacity", "capacity", 0)))
        capacity += len(tiles) - 1
        p = attrs.evolve(new_player(number), machine_room=room(*tiles))
        if number == 1:
            p = attrs.evolve(p, crystals=1)
        if number in (9, 13):
            p = attrs.evolve(p, gears=2)
        seats.append(p)
    if players == 1:
        seats[0] = attrs.evolve(seats[0], vp=4)  # STM-R-68
    crystals = sum(p.crystals for p in seats)
    gears = sum(p.gears for p in seats)
    markets = tuple(Market(level, tuple(f"M{rank}-0{level - 1}" for rank in range(4))) for level in range(2, 9))
    return StmState(
        players=tuple(seats),
        board_side="4" if players == 4 else "2-3",
        markets=markets,
        passengers=Passengers(stack=PASSENGER_IDS[1:], face_up=PASSENGER_IDS[0]),
        supply=Supply(crystals=15 - crystals, gears=15 - gears, capacity_tiles=20 - capacity),
        solo=Solo() if players == 1 else None,
    )


def player(state: StmState, seat: int, **changes: Any) -> StmState:
    players = list(state.players)
    players[seat] = attrs.evolve(players[seat], **changes)
    return attrs.evolve(state, players=tuple(players))


def turn(state: StmState, **changes: Any) -> StmState:
    return attrs.evolve(state, turn=attrs.evolve(state.turn, **changes))


def on_board(state: StmState, *stones: BoardStone) -> StmState:
    """Put stones on districts; each own stone comes out of its player's personal supply."""
    for s in stones:
        if s.seat != SHADOW:
            supply = state.players[s.seat].supply
            state = player(state, s.seat, supply=supply[1:])
    return attrs.evolve(state, board=(*state.board, *stones))


def give(state: StmState, seat: int, crystals: int = 0, gears: int = 0) -> StmState:
    """Resources from the general supply to a player (STM-R-21 conservation kept)."""
    p = state.players[seat]
    state = player(state, seat, crystals=p.crystals + crystals, gears=p.gears + gears)
    s = state.supply
    return attrs.evolve(state, supply=attrs.evolve(s, crystals=s.crystals - crystals, gears=s.gears - gears))


def bought_out(state: StmState, *levels: int) -> StmState:
    """The markets of ``levels`` emptied, their statues on the tower top (STM-R-45)."""
    markets = tuple(
        attrs.evolve(m, tiles=(), statue=False) if m.level in levels and not m.extra else m for m in state.markets
    )
    return attrs.evolve(state, markets=markets, tower_top=state.tower_top + len(levels))


def market(state: StmState, level: int, **changes: Any) -> StmState:
    markets = tuple(attrs.evolve(m, **changes) if m.level == level and not m.extra else m for m in state.markets)
    return attrs.evolve(state, markets=markets)


# -- asserting ------------------------------------------------------------------------------------


def clean(state: StmState, ctx: Context = CTX) -> None:
    found = check_all(game_with("stm", ctx), state)
    assert found == [], report(found)


def reports(name: str, state: StmState, rule: str, ctx: Context = CTX, words: str = "") -> list[Violation]:
    """The named check reports the state, citing ``rule``, and a message holding ``words``."""
    found = INVARIANTS[name].check(game_with("stm", ctx), state)
    assert found, f"{name} missed the break"
    assert all(v.invariant == name and rule in v.rules for v in found), report(found)
    assert any(words in v.message for v in found), report(found)
    return found


def silent(name: str, state: StmState, ctx: Context = CTX) -> None:
    found = INVARIANTS[name].check(game_with("stm", ctx), state)
    assert found == [], report(found)


# -- the registry and the fresh state -------------------------------------------------------------


def test_registry_names_known_rules_and_docs() -> None:
    specs = [(s.rules, s.doc) for s in INVARIANTS.values()] + [(s.rules, s.doc) for s in STEP_INVARIANTS.values()]
    assert len(INVARIANTS) == 15 and len(STEP_INVARIANTS) == 3
    for rules, doc in specs:
        assert doc and rules
        for rule in rules:
            known = rule in RULES if rule.startswith("STM-R-") else rule in {a.id for a in REGISTER.ambiguities}
            assert known, rule


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_a_fresh_start_like_state_has_no_violation(players: int) -> None:
    clean(start(players))
    assert report([]) == "state satisfies every invariant"


def test_report_words_every_violation() -> None:
    state = attrs.evolve(start(), tower_top=2, round=0)
    text = report(check_all(PRINTED, state), where="after step 3")
    assert text.startswith("state after step 3 violates 2 invariants:")
    assert "statues-and-markets [STM-R-02" in text and "seats-and-board-side" in text


def test_a_check_that_crashes_reports_instead_of_raising() -> None:
    """A room tile the pack does not know breaks the storage count; the check says so."""
    state = player(start(), 0, machine_room=room((1, RoomTile("starting", "S9"))))
    found = INVARIANTS["resources-within-storage"].check(PRINTED, state)
    assert len(found) == 1 and found[0].message.startswith("the check could not run: KeyError")
    assert "S9" in found[0].message
    reports("machine-tiles-once", state, "STM-R-13", words="S9")


# -- one test per invariant -----------------------------------------------------------------------


def test_seats_and_board_side() -> None:
    silent("seats-and-board-side", start(4))
    reports("seats-and-board-side", attrs.evolve(start(2), board_side="4"), "STM-R-01", words="2-3-player side")
    reports("seats-and-board-side", attrs.evolve(start(4), board_side="2-3"), "STM-R-01")
    reports("seats-and-board-side", attrs.evolve(start(2), solo=Solo()), "STM-R-68", words="solo")
    reports("seats-and-board-side", player(start(2), 1, character=1), "STM-R-07", words="drawn 2 times")
    reports("seats-and-board-side", attrs.evolve(start(2), to_move=2), "STM-R-01", words="to_move")
    # Character 0 ("not dealt yet") only while dealing.
    undealt = player(start(2), 1, character=0)
    silent("seats-and-board-side", attrs.evolve(undealt, phase=Phase.DEAL))
    reports("seats-and-board-side", undealt, "STM-R-07", words="character 0")


def test_stones_conserved() -> None:
    state = on_board(start(), BoardStone(0, 3, "left"), BoardStone(1, 2, "right"))
    clean(state)
    reports("stones-conserved", player(state, 0, supply=()), "STM-R-08", words="= 4 stones, expected 5")
    reports("stones-conserved", player(state, 1, supply=(Stone(), Stone())), "STM-R-11", words="= 6 stones")


def test_stones_conserved_while_channelling() -> None:
    """STM-R-29: the channelled stone is in the machine room, out of gauge, board and supply."""
    base = attrs.evolve(start(), phase=Phase.ACTION)
    lifted = player(base, 0, gauge=gauge_of([(1, False), (2, False)]))
    channelling = turn(attrs.evolve(lifted, phase=Phase.CHANNEL), channel=1, channel_stone=Stone())
    clean(channelling)
    reports("stones-conserved", lifted, "STM-R-08", words="machine room 0 = 4 stones")
    stray = turn(lifted, channel=1, channel_stone=Stone())
    reports("stones-conserved", stray, "STM-R-29", words="only while channelling")
    reports("stones-conserved", attrs.evolve(base, phase=Phase.CHANNEL), "STM-R-29", words="without a stone")


def test_shadow_stones_only_in_solo() -> None:
    solo = on_board(start(1), BoardStone(SHADOW, 4, "left"))
    clean(solo)
    two = on_board(start(2), BoardStone(SHADOW, 4, "left"))
    reports("stones-conserved", two, "STM-R-70", words="shadow stones on the board in a 2-player game")


def test_gauge_items() -> None:
    at_limit = player(start(), 0, gauge=gauge_of([(7, False), (8, False), (9, False)], base=6))
    clean(at_limit)
    beyond = player(at_limit, 0, gauge=gauge_of([(8, False), (9, False), (10, False)], base=7))
    reports("gauge-items", beyond, "STM-R-17", words="base marker on space 7")
    # The Gauge class refuses items left of the base marker; a corrupted one is built without validators.
    spaces = list(gauge_of([(1, False), (3, False), (4, False)]).spaces)
    with attrs.validators.disabled():
        left_of_base = Gauge(2, tuple(spaces))
    reports("gauge-items", player(start(), 0, gauge=left_of_base), "STM-R-14", words="on or left of the base")
    spaces[5] = cast(Any, "two stones")
    with attrs.validators.disabled():
        crowded = Gauge(0, tuple(spaces))
    reports("gauge-items", player(start(), 0, gauge=crowded), "STM-R-14", words="not one stone or bonus marker")
    short = Gauge(0, tuple(spaces[:8]))
    reports("gauge-items", player(start(), 0, gauge=short), "STM-R-14", words="8 gauge spaces")


def test_one_stone_per_district_outside_the_final_round() -> None:
    shared = on_board(start(3), BoardStone(0, 3, "left"), BoardStone(1, 3, "left"))
    reports("districts-occupied", shared, "STM-R-27", words="share L3-left outside the final round")
    final = bought_out(attrs.evolve(shared, end_triggered=True, final_round=True), 2, 3, 4)
    clean(final)
    twice = on_board(final, BoardStone(1, 3, "left"))
    reports("districts-occupied", twice, "STM-R-66", words="2 seat 1's stones on L3-left")


def test_stones_only_on_districts_of_the_board_side() -> None:
    third = on_board(start(2), BoardStone(0, 1, "third"))
    reports("districts-occupied", third, "STM-R-01", words="no district of the 2-3-player side (16 districts)")
    clean(on_board(start(4), BoardStone(0, 1, "third")))
    reports("districts-occupied", on_board(start(2), BoardStone(0, 9, "left")), "STM-R-01", words="L9-left")


def test_shadow_stones_share_only_during_the_solo_flight() -> None:
    """STM-R-70 / STM-EX-37: the shadow stone shares your district until you take yours back."""
    solo = on_board(start(1), BoardStone(0, 3, "left"), BoardStone(SHADOW, 3, "left"))
    clean(attrs.evolve(solo, phase=Phase.FLIGHT))
    reports("districts-occupied", solo, "STM-R-70", words="share L3-left")
    doubled = on_board(attrs.evolve(solo, phase=Phase.FLIGHT), BoardStone(SHADOW, 3, "left"))
    reports("districts-occupied", doubled, "STM-R-27", words="2 shadow stones on L3-left")


def test_resources_within_storage() -> None:
    """STM-R-32: seat 0 has 3 built-in spaces + 1 on its capacity tile."""
    full = give(start(), 0, crystals=1, gears=2)  # 2 crystals + 2 gears on 4 spaces
    clean(full)
    over = give(full, 0, gears=1)
    reports("resources-within-storage", over, "STM-R-32", words="seat 0 keeps 2 crystals + 3 gears on 4")
    silent("resources-within-storage", turn(over, storing=True))
    silent("resources-within-storage", turn(over, pending=((VotePoints(1),),)))
    silent("resources-within-storage", attrs.evolve(over, phase=Phase.CHANNEL))
    # STM-R-39: inside a flight step the store waits for step 4.
    flying = turn(attrs.evolve(over, phase=Phase.FLIGHT), step="after")
    silent("resources-within-storage", flying)
    other = turn(attrs.evolve(give(full, 1, crystals=5), phase=Phase.FLIGHT), step="after")
    reports("resources-within-storage", other, "STM-R-31", words="seat 1 keeps 5 crystals")


def test_resources_conserved() -> None:
    state = give(start(), 1, crystals=2, gears=1)
    clean(state)
    lost = attrs.evolve(state, supply=attrs.evolve(state.supply, crystals=state.supply.crystals - 1))
    reports("resources-conserved", lost, "STM-R-21", words="crystals: supply 11 + players 3 = 14, expected 15")
    negative = player(give(state, 0, gears=3), 0, gears=-1)
    negative = attrs.evolve(negative, supply=attrs.evolve(negative.supply, gears=16))
    reports("resources-conserved", negative, "STM-R-21", words="seat 0 holds -1 gears")
    owing = player(give(state, 0, crystals=3), 0, crystals=-1)  # the supply keeps its count: only the seat is wrong
    owing = attrs.evolve(owing, supply=attrs.evolve(owing.supply, crystals=owing.supply.crystals + 4))
    reports("resources-conserved", owing, "STM-R-21", words="seat 0 holds -1 crystals")


def _parasite_state(players: int) -> StmState:
    """Seat 1's parasite on seat 0's starting machine S1 (position 1), on its boiler."""
    state = start(players)
    state = player(state, 1, parasites_home=2)
    return attrs.evolve(state, parasites=(Parasite(owner=1, host=0, position=1),))


def test_parasites_conserved() -> None:
    state = _parasite_state(3)
    clean(state)
    reports("parasites", player(state, 1, parasites_home=3), "STM-R-12", words="1 placed + 3 at home")


def test_parasites_placed_on_another_players_machine() -> None:
    state = _parasite_state(3)
    own = attrs.evolve(state, parasites=(Parasite(owner=1, host=1, position=1),))
    reports("parasites", own, "STM-R-52", words="its own machine")
    empty = attrs.evolve(state, parasites=(Parasite(owner=1, host=0, position=5),))
    reports("parasites", empty, "STM-R-52", words="empty machine-room position 5")
    storage = attrs.evolve(state, parasites=(Parasite(owner=1, host=0, position=2),))
    reports("parasites", storage, "STM-R-52", words="shows no boiler")
    passive = attrs.evolve(state, parasites=(Parasite(owner=1, host=0, position=1, on="passive"),))
    reports("parasites", passive, "STM-R-52", words="which shows none")
    beside = attrs.evolve(state, parasites=(Parasite(owner=1),))
    reports("parasites", beside, "STM-R-72", words="beside the stack in a 3-player game")


def test_parasites_per_machine_limit() -> None:
    """STM-R-52 / STM-AMB-20 'per-owner': 2 players at most 2 own per machine, 3-4 players at most 1."""
    two = player(start(2), 1, parasites_home=1)
    two = attrs.evolve(two, parasites=(Parasite(1, 0, 1), Parasite(1, 0, 1)))
    clean(two)
    three = player(_parasite_state(3), 1, parasites_home=1)
    three = attrs.evolve(three, parasites=(Parasite(1, 0, 1), Parasite(1, 0, 1)))
    reports("parasites", three, "STM-R-52", words="at most 1 with 3 players")
    # Another player's parasite on the same machine does not count ('per-owner') but does for 'total'.
    joined = player(_parasite_state(3), 2, parasites_home=2)
    joined = attrs.evolve(joined, parasites=(*joined.parasites, Parasite(2, 0, 1)))
    clean(joined)
    total = Context.printed(readings={"STM-AMB-20": "total"})
    reports("parasites", joined, "STM-AMB-20", ctx=total, words="2 parasites on seat 0's machine position 1")


def test_solo_parasites_lie_beside_the_stack() -> None:
    """STM-R-72: solo parasites are placed beside the passenger stack (host None)."""
    solo = player(start(1), 0, parasites_home=2)
    solo = attrs.evolve(solo, parasites=(Parasite(0),), solo=Solo(parasites_beside_stack=1))
    clean(solo)
    reports("parasites", attrs.evolve(solo, solo=Solo()), "STM-R-72", words="parasites_beside_stack is 0")


def test_statues_on_the_tower_top() -> None:
    state = bought_out(start(), 2)
    clean(state)
    reports("statues-and-markets", attrs.evolve(state, tower_top=0), "STM-R-45", words="0 statues on the tower top")
    too_soon = market(start(), 5, statue=False)
    reports("statues-and-markets", too_soon, "STM-R-02", words="statue is gone but 4 tiles")
    reports("statues-and-markets", market(start(), 5, tiles=()), "STM-R-45", words="1 statue markets bought out")


def test_level_one_statue_follows_the_number_two_markers() -> None:
    """STM-AMB-26 'both-2': the level-1 statue shows when both #2 are gone."""
    state = start()
    one_gone = attrs.evolve(state, bonus=attrs.evolve(state.bonus, crystal_row=()))
    clean(one_gone)
    early = attrs.evolve(one_gone, bonus=attrs.evolve(one_gone.bonus, statue=False), tower_top=1)
    reports("statues-and-markets", early, "STM-AMB-26", words="#2 still in a row")
    first_two = Context.printed(readings={"STM-AMB-26": "first-2"})
    silent("statues-and-markets", early, ctx=first_two)
    both = attrs.evolve(state, bonus=attrs.evolve(state.bonus, crystal_row=(), gear_row=(), statue=False), tower_top=1)
    clean(both)


def test_more_than_three_statues_only_after_the_end() -> None:
    three = attrs.evolve(bought_out(start(), 2, 3, 4), end_triggered=True)
    clean(three)
    four = bought_out(three, 5)
    clean(four)
    reports("statues-and-markets", attrs.evolve(four, end_triggered=False), "STM-R-64", words="4 statues")


def test_solo_removals_count_among_the_bought_out_markets() -> None:
    """STM-R-71: a market emptied by 'remove tiles' reveals its statue too (nobody scores)."""
    removed = market(start(1), 6, tiles=())
    removed = attrs.evolve(removed, tower_top=1, solo=Solo(removed_markets=1))
    clean(removed)
    reports("statues-and-markets", attrs.evolve(removed, solo=Solo()), "STM-R-71", words="still show their statue")
    reports(
        "statues-and-markets",
        attrs.evolve(removed, solo=Solo(removed_markets=2)),
        "STM-R-71",
        words="2 markets removed",
    )


def test_market_tiles_in_rank_order() -> None:
    """STM-R-03: ranks 0-3 left to right; bought from the left; dealt rank by rank."""
    half = market(start(), 4, tiles=("M2-03", "M3-03"))
    silent("statues-and-markets", half)
    reports("statues-and-markets", market(start(), 4, tiles=("M0-03", "M1-03")), "STM-R-03", words="ranks [0, 1]")
    dealing = attrs.evolve(market(start(), 4, tiles=("M0-03", "M1-03")), phase=Phase.DEAL)
    silent("statues-and-markets", dealing)
    extra = attrs.evolve(start(4), markets=(*start(4).markets, Market(2, ("M0-09",), statue=False, extra=True)))
    clean(extra)
    reports("statues-and-markets", attrs.evolve(start(2), markets=extra.markets), "STM-R-03", words="extra market")


def test_bonus_markers_accounted() -> None:
    state = start()
    bought = attrs.evolve(state, bonus=attrs.evolve(state.bonus, crystal_row=(4, 3, 2)))
    bought = player(bought, 0, gauge=gauge_of([(1, False), (2, False), (3, False)], markers=[(7, 5)]))
    clean(bought)
    skipped = attrs.evolve(state, bonus=attrs.evolve(state.bonus, gear_row=(5, 3, 2)))
    reports("bonus-markers-accounted", skipped, "STM-R-46", words="the gear row holds [5, 3, 2]")
    wrong_space = player(bought, 0, gauge=gauge_of([(1, False), (2, False), (3, False)], markers=[(6, 5)]))
    reports("bonus-markers-accounted", wrong_space, "STM-R-47", words="#5 on space 6, printed numeral 4")
    third = player(bought, 1, gauge=gauge_of([(1, False), (2, False), (3, False)], markers=[(7, 5)]))
    reports("bonus-markers-accounted", third, "STM-R-04", words="3 white #5 markers")


def test_the_pink_marker_is_character_sevens() -> None:
    pink = BonusMarker(PACK.pink_numeral, pink=True)
    spaces = list(gauge_of([(1, False), (2, False), (3, False)]).spaces)
    spaces[PACK.gauge.numerals.index(PACK.pink_numeral)] = pink
    seven = player(start(), 1, character=7, gauge=Gauge(0, tuple(spaces)))
    clean(seven)
    reports("bonus-markers-accounted", player(seven, 1, character=11), "STM-R-04", words="pink bonus marker")


def test_machine_tiles_in_one_place() -> None:
    state = start()
    built = market(state, 2, tiles=("M1-01", "M2-01", "M3-01"))
    built = player(
        built, 0, machine_room=(*state.players[0].machine_room[:2], RoomTile("machine", "M0-01"), *(None,) * 4)
    )
    built = player(built, 1, banners=("M0-02",))
    built = market(built, 3, tiles=("M1-02", "M2-02", "M3-02"))
    clean(built)
    twice = player(built, 1, banners=("M0-02", "M0-01"))
    reports("machine-tiles-once", twice, "STM-R-21", words="M0-01 is in 2 places")
    reports("machine-tiles-once", player(built, 1, banners=("M9-99",)), "STM-R-21", words="M9-99")


def test_starting_machines_and_capacity_tiles() -> None:
    state = start()
    drawn = player(state, 0, starting="S5", machine_room=room((2, RoomTile("capacity", "capacity", 1))))
    drawn = attrs.evolve(drawn, phase=Phase.SETUP_ROOM)
    silent("machine-tiles-once", drawn)
    reports("machine-tiles-once", attrs.evolve(drawn, phase=Phase.ACTION), "STM-R-13", words="after the set-up")
    reports("machine-tiles-once", player(state, 1, starting="S5"), "STM-R-13", words="2 starting machines")
    reports("machine-tiles-once", player(state, 1, machine_room=state.players[0].machine_room), "STM-R-13", words="S1")
    extra = attrs.evolve(state, supply=attrs.evolve(state.supply, capacity_tiles=18))
    reports("machine-tiles-once", extra, "STM-R-59", words="= 21, at most 20")


def test_passengers_within_their_halves() -> None:
    clean(attrs.evolve(start(), passengers=attrs.evolve(start().passengers, banker=8, stoker=1)))
    low_banker = attrs.evolve(start(), passengers=attrs.evolve(start().passengers, banker=3))
    reports("passengers", low_banker, "STM-R-35", words="the banker stands on level 3")
    high_stoker = attrs.evolve(start(), passengers=attrs.evolve(start().passengers, stoker=5))
    reports("passengers", high_stoker, "STM-R-35", words="levels 1-4")


def _carrying() -> StmState:
    """Seat 0 flies with the banker aboard, bound for level 5 (STM-R-36)."""
    state = attrs.evolve(start(), phase=Phase.FLIGHT, passengers=attrs.evolve(start().passengers, banker=None))
    state = player(state, 0, carrying=("banker",))
    return turn(state, boarded=(("banker", 5),), step="passengers", active=(6, "left"))


def test_a_passenger_aboard_is_carried_by_exactly_one_player() -> None:
    clean(_carrying())
    nobody = player(_carrying(), 0, carrying=())
    reports("passengers", turn(nobody, boarded=()), "STM-R-36", words="carried by seats []")
    both = player(_carrying(), 1, carrying=("banker",))
    reports("passengers", both, "STM-R-36", words="carried by seats [0, 1]")
    standing = attrs.evolve(_carrying(), passengers=attrs.evolve(_carrying().passengers, banker=6))
    reports("passengers", standing, "STM-R-36", words="stands on level 6 and is carried")
    again = turn(_carrying(), transported=("banker",))
    reports("passengers", again, "STM-R-36", words="carried again")


def test_passengers_get_off_in_the_same_flight() -> None:
    """STM-R-37 with STM-AMB-09 'pick-up': nobody carries a passenger outside his own flight."""
    after = attrs.evolve(_carrying(), phase=Phase.START_OF_TURN)
    reports("passengers", after, "STM-R-37", words="outside its own flight")
    silent("passengers", after, ctx=Context.printed(readings={"STM-AMB-09": "each-level"}))


def test_passenger_tiles_accounted() -> None:
    state = start()
    delivered = attrs.evolve(state, passengers=attrs.evolve(state.passengers, stack=PASSENGER_IDS[2:]))
    delivered = player(delivered, 1, passenger_tiles=1)
    clean(delivered)
    lost = player(delivered, 1, passenger_tiles=0)
    reports("passengers", lost, "STM-R-51", words="= 15, expected 16")
    doubled = attrs.evolve(state, passengers=attrs.evolve(state.passengers, face_up=PASSENGER_IDS[1]))
    reports("passengers", doubled, "STM-R-51", words="P02 is in 2 places")
    unrevealed = attrs.evolve(state, passengers=attrs.evolve(state.passengers, face_up=None, stack=PASSENGER_IDS[1:]))
    reports("passengers", player(unrevealed, 0, passenger_tiles=1), "STM-R-51", words="no face-up passenger tile")
    silent("passengers", attrs.evolve(player(unrevealed, 0, passenger_tiles=1), phase=Phase.REVEAL))
    taken = attrs.evolve(state, passengers=attrs.evolve(state.passengers, face_up=None, taken=PASSENGER_IDS[0]))
    reports("passengers", taken, "STM-R-37", words="without a transport")


def test_sponsor_and_gala() -> None:
    state = start()
    owned = player(state, 0, sponsor="gear", gala="crystal")
    owned = attrs.evolve(owned, supply=attrs.evolve(owned.supply, sponsors=4, galas=(3, 4)))
    clean(owned)
    silent("sponsor-and-gala", turn(player(attrs.evolve(owned, phase=Phase.FLIGHT), 0, sponsor_used=True)))
    extra_sponsor = attrs.evolve(owned, supply=attrs.evolve(owned.supply, sponsors=5))
    reports("sponsor-and-gala", extra_sponsor, "STM-R-57", words="sponsors: supply 5 + players 1")
    gala = player(owned, 0, gala="gear")
    reports("sponsor-and-gala", gala, "STM-R-58", words="gear galas: supply 4 + players 1")
    stale = player(owned, 0, sponsor_used=True)
    reports("sponsor-and-gala", stale, "STM-R-57", words="still marked used as a new turn starts")
    reports("sponsor-and-gala", player(state, 1, sponsor_used=True), "STM-R-57", words="owns none")


def test_vp_never_negative() -> None:
    clean(player(start(), 1, vp=12))
    reports("vp-never-negative", player(start(), 1, vp=-1), "STM-R-09", words="seat 1 has -1 VP")


def test_solo_loses_at_zero_vp() -> None:
    """STM-R-69 / STM-AMB-28 'zero': at 0 VP the solo game is lost at once; 'below-zero': at -1."""
    zero = player(attrs.evolve(start(1), phase=Phase.ACTION), 0, vp=0)
    reports("vp-never-negative", zero, "STM-R-69", words="0 VP in phase action")
    clean(attrs.evolve(zero, phase=Phase.OVER))
    below = Context.printed(readings={"STM-AMB-28": "below-zero"})
    silent("vp-never-negative", zero, ctx=below)
    minus = player(attrs.evolve(zero, phase=Phase.OVER), 0, vp=-1)
    silent("vp-never-negative", minus, ctx=below)
    clean(minus, ctx=below)
    reports("vp-never-negative", minus, "STM-R-09", words="-1 VP")


def test_end_triggered_by_three_statues() -> None:
    three = bought_out(start(), 2, 3, 4)
    reports("end-trigger", three, "STM-R-64", words="3 statues on the tower top but the end is not triggered")
    silent("end-trigger", attrs.evolve(three, phase=Phase.FLIGHT))  # at the end of the turn
    clean(attrs.evolve(three, end_triggered=True))
    reports("end-trigger", attrs.evolve(start(), end_triggered=True), "STM-R-64", words="not used up")


def test_end_triggered_by_the_used_up_stack() -> None:
    """STM-R-51 / STM-AMB-27 'due': no tile to reveal when one is due."""
    state = start()
    used_up = attrs.evolve(state, passengers=attrs.evolve(state.passengers, stack=(), face_up=None))
    used_up = player(used_up, 0, passenger_tiles=16)
    reports("end-trigger", used_up, "STM-R-64", words="the passenger stack is used up")
    clean(attrs.evolve(used_up, end_triggered=True))
    # 'empty': the end comes as soon as no face-down tile is left, the last one face up.
    last = attrs.evolve(state, passengers=attrs.evolve(state.passengers, stack=()))
    last = player(last, 0, passenger_tiles=15)
    clean(last)
    empty = Context.printed(readings={"STM-AMB-27": "empty"})
    reports("end-trigger", last, "STM-AMB-27", ctx=empty, words="used up")
    clean(attrs.evolve(last, end_triggered=True), ctx=empty)


def test_the_final_round_only_after_the_trigger() -> None:
    """STM-R-65/66: the final round follows the trigger; each player takes one final turn."""
    triggered = attrs.evolve(bought_out(start(3), 2, 3, 4), end_triggered=True)
    final = attrs.evolve(triggered, final_round=True, final_turns_done=(0,), to_move=1)
    clean(final)
    reports("end-trigger", attrs.evolve(final, end_triggered=False), "STM-R-66", words="before the end was triggered")
    reports("end-trigger", attrs.evolve(final, to_move=0), "STM-R-66", words="second final turn")
    reports("end-trigger", attrs.evolve(triggered, final_turns_done=(0,)), "STM-R-66", words="outside the final round")
    stray = turn(triggered, final_step="steam")
    reports("end-trigger", stray, "STM-R-66", words="final-turn step (steam) outside the final round")
    over = attrs.evolve(final, phase=Phase.OVER, final_turns_done=(0, 1, 2))
    clean(over)
    reports("end-trigger", attrs.evolve(over, final_turns_done=(0, 2)), "STM-R-66", words="seats [0, 2] only")
    reports("end-trigger", attrs.evolve(start(), phase=Phase.OVER), "STM-R-64", words="never triggered")


# -- the step invariants ----------------------------------------------------------------------------


def test_vp_never_decreases() -> None:
    before = player(start(), 0, vp=5)
    assert check_step(PRINTED, before, player(before, 0, vp=7)) == []
    found = check_step(PRINTED, before, player(before, 0, vp=4))
    assert [v.invariant for v in found] == ["vp-never-decreases"] and "STM-R-69" in found[0].rules


def test_solo_time_pressure_costs_one_vp() -> None:
    """STM-R-69: choosing MAKE STEAM or FLY costs the solo player 1 VP; SET is free."""
    before = attrs.evolve(start(1), phase=Phase.ACTION)
    assert check_step(PRINTED, before, player(attrs.evolve(before, phase=Phase.FLIGHT), 0, vp=3)) == []
    found = check_step(PRINTED, before, player(before, 0, vp=2))
    assert [v.invariant for v in found] == ["vp-never-decreases"]
    flying = attrs.evolve(before, phase=Phase.FLIGHT)
    assert [v.invariant for v in check_step(PRINTED, flying, player(flying, 0, vp=3))] == ["vp-never-decreases"]


def test_the_end_stays_triggered() -> None:
    before = attrs.evolve(bought_out(start(), 2, 3, 4), end_triggered=True)
    found = check_step(PRINTED, before, attrs.evolve(before, end_triggered=False))
    assert [v.invariant for v in found] == ["end-stays-triggered"] and "STM-R-64" in found[0].rules
    final = attrs.evolve(before, final_round=True, final_turns_done=(0,))
    found = check_step(PRINTED, final, attrs.evolve(final, final_turns_done=()))
    assert [v.invariant for v in found] == ["end-stays-triggered"]


def test_statues_and_passenger_tiles_never_leave() -> None:
    before = player(bought_out(start(), 2), 1, passenger_tiles=2)
    assert check_step(PRINTED, before, before) == []
    found = check_step(PRINTED, before, attrs.evolve(before, tower_top=0))
    assert [v.invariant for v in found] == ["tower-top-never-falls"] and "STM-R-45" in found[0].rules
    found = check_step(PRINTED, before, player(before, 1, passenger_tiles=1))
    assert [v.invariant for v in found] == ["tower-top-never-falls"] and "STM-R-51" in found[0].rules


def test_a_step_between_different_player_counts_is_reported() -> None:
    found = check_step(PRINTED, start(2), start(3))
    assert any("2 players before the step, 3 after" in v.message for v in found)


# -- played games -----------------------------------------------------------------------------------


def _game() -> Any:
    from rulecraft.model.steamopolis.game import SteamopolisGame

    return SteamopolisGame()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_seeded_random_games_break_no_invariant(seed: int) -> None:
    """The set-up deals, then random legal play: every state and every step keeps every invariant."""
    game = _game()
    rng = random.Random(seed)
    state = game.new_game(2 + seed % 3)
    for step in range(600):
        found = check_all(game, state)
        assert found == [], report(found, where=f"after step {step} (seed {seed})")
        action = game.random_action(state, rng)
        if action is None:
            break
        following = game.apply(state, action)
        moved = check_step(game, state, following)
        assert moved == [], report(moved, where=f"at step {step} (seed {seed}): {action!r}")
        state = following
    assert state.phase is not Phase.DEAL
    assert isinstance(state.turn, TurnState)


# -- readings the game does not play by default, and the losing line (issue 22) ---------------------------


def _count_messages(state: StmState, ctx: Context) -> list[str]:
    found = INVARIANTS["seats-and-board-side"].check(game_with("stm", ctx), state)
    return [v.message for v in found if "players; the game is" in v.message]


def _more_players(state: StmState, *characters: int) -> StmState:
    return attrs.evolve(state, players=(*state.players, *(new_player(c) for c in characters)))


def test_the_player_count_follows_stm_amb_24() -> None:
    """STM-AMB-24 (p.2 component list "4-5" against 4 colours): 1-4 players by default, 1-5 under
    '1-5'; never 6."""
    five = _more_players(start(4), 5)
    assert _count_messages(start(4), CTX) == []
    assert _count_messages(five, CTX) == ["5 players; the game is for 1-4 (STM-AMB-24 '1-4')"]
    one_to_five = Context.printed(readings={"STM-AMB-24": "1-5"})
    assert _count_messages(five, one_to_five) == []
    six = _more_players(five, 11)
    assert _count_messages(six, one_to_five) == ["6 players; the game is for 1-5 (STM-AMB-24 '1-5')"]


def test_one_vp_left_is_no_solo_loss() -> None:
    """STM-R-69 (p.35): the solo game is lost on reaching 0 VP, not at 1."""
    silent("vp-never-negative", player(attrs.evolve(start(1), phase=Phase.ACTION), 0, vp=1))


def test_a_stack_with_tiles_left_is_not_used_up_under_either_reading() -> None:
    """STM-AMB-27: neither 'due' nor 'empty' ends the game while face-down tiles are left."""
    silent("end-trigger", start())
    silent("end-trigger", start(), ctx=Context.printed(readings={"STM-AMB-27": "empty"}))


def test_the_pink_marker_of_an_unknown_character_is_reported() -> None:
    """STM-R-04: only character 7's set-up gives the pink marker; a character the pack does not
    have gives none."""
    pink = BonusMarker(PACK.pink_numeral, pink=True)
    spaces = list(gauge_of([(1, False), (2, False), (3, False)]).spaces)
    spaces[PACK.gauge.numerals.index(PACK.pink_numeral)] = pink
    stranger = player(start(), 1, character=99, gauge=Gauge(0, tuple(spaces)))
    reports("bonus-markers-accounted", stranger, "STM-R-04", words="pink bonus marker")


@pytest.mark.parametrize("emptied", ["crystal_row", "gear_row"])
def test_the_level_one_statue_counts_the_number_two_markers_of_each_row(emptied: str) -> None:
    """STM-AMB-26 'both-2' with STM-AMB-13 'any' (any marker may leave): one row emptied, the other
    without its #2 but with #3-#5: both #2 are gone, so the level-1 statue is on the tower top."""
    any_marker = Context.printed(readings={"STM-AMB-13": "any"})
    other = "gear_row" if emptied == "crystal_row" else "crystal_row"
    state = start()
    bonus = attrs.evolve(state.bonus, **{emptied: (), other: (3, 4, 5)}, statue=False)
    silent("statues-and-markets", attrs.evolve(state, bonus=bonus, tower_top=1), ctx=any_marker)
