"""Airships effects, rule by rule, pinned to the rules digest.

Issue 22 (a mutation score for every module).  ``model/airships/transitions.py`` carries out
the actions the check accepted; each test builds a small state over a synthetic pack made of
the digest's example cards (AIR-EX-04/05/06, the p.6 cards AIR-EX-11 .. 22; requirements,
targets and the stage data synthetic where the digest leaves them open), has the check accept
every action it plays (``step``), and compares the state after it with the one the digest
describes (/work/shared/rules/airships.md).  The rare paths come first: the set-up around a
start seat other than 0, the era change, the Hindenburg's stages and markers, the end of the
game, additional goes and chips at zero; every reading the effects consult (AIR-AMB-02, 03,
06, 07, 09, 10, 11, 12, 13, 14, 15, 16, 19, 20, 21, 22, 23, 26) is played, not only the default.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from rulecraft.model.airships.actions import (
    AirAction,
    AttemptTarget,
    DealAirship,
    DealStarter,
    EndGo,
    ExtraGo,
    NoAttempt,
    Resolve,
    Reveal,
    Throw,
)
from rulecraft.model.airships.catalogue import PARAMETERS
from rulecraft.model.airships.components import (
    AirshipCard,
    Colour,
    Department,
    DevelopmentCard,
    Dice,
    EngineBonus,
    Exchange,
    FixedDie,
    HindenburgStage,
    Pack,
)
from rulecraft.model.airships.readings import REGISTER
from rulecraft.model.airships.rules import Context, action_rejection
from rulecraft.model.airships.state import AirState, CompanyBoard, Phase
from rulecraft.model.airships.transitions import new_game, transition

W, R, B = Colour.W, Colour.R, Colour.B
F, H, P, E, N, M = tuple(Department)  # finance, hangar, pilot, engineer, engine, material: the board's order

# -- a synthetic pack from the digest's examples --------------------------------------------------

CARDS = (
    DevelopmentCard("S1", "starter", F, Dice(W=1), 2, dice=Dice(W=1)),  # AIR-AMB-31: a starter gives 1 W
    DevelopmentCard("S2", "starter", H, Dice(W=1), 2, dice=Dice(W=1)),
    DevelopmentCard("S3", "starter", P, Dice(W=1), 2, dice=Dice(W=1)),
    DevelopmentCard("S4", "starter", N, Dice(W=1), 2, dice=Dice(W=1)),
    DevelopmentCard("FIN", "era1", F, Dice(W=1), 3, dice=Dice(W=1, R=1, B=1)),  # AIR-EX-11
    DevelopmentCard("FINWR", "era1", F, Dice(W=1), 3, dice=Dice(W=2, R=1)),
    DevelopmentCard("FINR", "era1", F, Dice(R=1), 5, dice=Dice(W=1)),  # a one-red target
    DevelopmentCard("EX04", "era1", H, Dice(W=2), 5, dice=Dice(R=1)),  # AIR-EX-04/05: 2 white for 5, gives 1 R
    DevelopmentCard("HANW", "era1", H, Dice(W=1), 2, dice=Dice(W=1)),  # AIR-EX-13
    DevelopmentCard("HANB", "era1", H, Dice(B=1), 6, dice=Dice(B=1)),  # AIR-EX-14
    DevelopmentCard("HANWR", "era1", H, Dice(W=1), 3, dice=Dice(W=1, R=1)),
    DevelopmentCard("PILWR", "era1", P, Dice(W=1), 3, dice=Dice(W=1, R=1), pilot_chips=2),  # AIR-EX-15/16
    DevelopmentCard("PILRB", "era1", P, Dice(R=1, B=1), 15),  # a red-and-black target
    DevelopmentCard("ENR", "era1", E, Dice(W=1), 3, fixed=FixedDie(R, 4)),  # AIR-EX-17
    DevelopmentCard("ENW", "era1", E, Dice(W=1), 3, fixed=FixedDie(W, 3)),  # AIR-EX-06's engineer
    DevelopmentCard("ENGR", "era1", N, Dice(W=1), 3, engine=EngineBonus(R, 1)),  # AIR-EX-20, red +1
    DevelopmentCard("ENGW", "era1", N, Dice(W=1), 3, engine=EngineBonus(W, 1)),  # AIR-EX-06 R1: the old engine
    DevelopmentCard("MOTOR", "era1", N, Dice(W=1, R=1, B=1), 15, engine=EngineBonus(R, 1)),  # AIR-EX-06's target
    DevelopmentCard("MATB", "era1", M, Dice(W=1), 3, exchange=Exchange(3, W, 1, B)),  # AIR-EX-06's Material
    DevelopmentCard("MATWR", "era1", M, Dice(W=1, R=1), 8),  # a white-and-red target
    DevelopmentCard("MATRB", "era1", M, Dice(R=1, B=1), 13),  # a red-and-black target
    DevelopmentCard("LATE", "era2", F, Dice(W=1), 3, dice=Dice(W=1)),
)
# Dark cards need two black dice, medium two red, light one white (AIR-R-03: the top tier is easiest).
AIRSHIPS = tuple(
    [AirshipCard(f"D{i}", "dark", Dice(B=2), 14, 6) for i in range(1, 5)]
    + [AirshipCard(f"M{i}", "medium", Dice(R=2), 9, 4) for i in range(1, 5)]
    + [AirshipCard(f"L{i}", "light", Dice(W=1), 2, 2) for i in range(1, 5)]
)
STAGES = (
    HindenburgStage(1, Dice(W=1), 3, 3, 5),
    HindenburgStage(2, Dice(R=1), 4, 3, 5),
    HindenburgStage(3, Dice(B=1), 6, 4, 6),
    HindenburgStage(4, Dice(W=1), 3, 5, 8),
)
PACK = Pack("synthetic", True, ("USA", "Germany", "Italy", "France"), AIRSHIPS, CARDS, STAGES)
DEPARTMENT_OF = {c.id: c.department for c in CARDS}
FULL_STACKS = tuple((f"D{i}", f"M{i}", f"L{i}") for i in range(1, 5))  # AIR-R-03: dark at the bottom


def ctx(*readings: str, **params: int) -> Context:
    """The default readings, with ``"07=repeat"`` style overrides (checked against the register)."""
    chosen = REGISTER.defaults()
    for item in readings:
        number, _, key = item.partition("=")
        amb = f"AIR-AMB-{number}"
        assert key in REGISTER[amb].choices(), item
        chosen[amb] = key
    return Context(PACK, chosen, {**PARAMETERS.defaults(), **params})


def board(
    *cards: str, chips: int = 0, airships: tuple[str, ...] = (), won: tuple[str, ...] = (), nation: str = "USA"
) -> CompanyBoard:
    fields: list[str | None] = [None] * 6
    for card in cards:
        fields[list(Department).index(DEPARTMENT_OF[card])] = card
    return CompanyBoard(nation, tuple(fields), airships, chips=chips, won_this_turn=won)


def display(*cards: str) -> tuple[tuple[str | None, ...], ...]:
    rows: list[list[str | None]] = [[None, None, None] for _ in range(6)]
    for card in cards:
        row = rows[list(Department).index(DEPARTMENT_OF[card])]
        row[row.index(None)] = card
    return tuple(tuple(r) for r in rows)


def state(*boards: CompanyBoard, **fields: Any) -> AirState:
    """A go in step 2 with a deck left (so the next go starts with a reveal, AIR-R-23).
    Per nation (AIR-R-50) each supply holds the 6 chips its board and stage markers do not."""
    boards = boards or (board("S1"), board("S2", nation="Germany"))
    fields.setdefault("phase", Phase.ATTEMPT)
    fields.setdefault("stacks", FULL_STACKS)
    fields.setdefault("deck_era1", ("FINR",))
    fields.setdefault("goes", 5)
    if "supplies" not in fields:
        stages = fields.get("stages", (None,) * 4)
        fields["supplies"] = tuple(6 - b.chips - sum(1 for o in stages if o == i) for i, b in enumerate(boards))
    return AirState(boards=boards, **fields)


def step(c: Context, st: AirState, action: AirAction) -> AirState:
    """The effect of an action the check accepts (the effects run only on those)."""
    assert action_rejection(c, st, action) is None, (action, action_rejection(c, st, action))
    return transition(c, st, action)


def attempt(c: Context, st: AirState, target: str, throw: Throw, **declared: Any) -> AirState:
    """Step 2: declare ``target`` with the dice ``throw`` shows, then throw them (AIR-R-28, AIR-R-32)."""
    dice = Dice(W=len(throw.W), R=len(throw.R), B=len(throw.B))
    st = step(c, st, AttemptTarget(target, throw=dice, **declared))
    assert st.phase is Phase.THROW
    return step(c, st, throw)


def chips(st: AirState, seat: int = 0) -> tuple[int, int]:
    """(board, own supply) of a seat, per nation."""
    return st.boards[seat].chips, st.supplies[seat]


# -- set-up (AIR-R-01 .. 10) -----------------------------------------------------------------------


def test_new_game_gives_the_start_seat_3_chips_and_the_others_4_air_r_09() -> None:
    """AIR-R-09 with the start player in seat 1: 3 chips there, 4 elsewhere; the rest of each
    nation's 6 in its supply (AIR-R-02, AIR-R-50); seat 1 both starts and is to act."""
    st = new_game(ctx(), 3, 1, ("USA", "Germany", "Italy"))
    assert st == AirState(
        phase=Phase.DEAL_AIRSHIPS,
        boards=(
            CompanyBoard("USA", chips=4),
            CompanyBoard("Germany", chips=3),
            CompanyBoard("Italy", chips=4),
        ),
        supplies=(2, 3, 2),
        airships_undealt=tuple(sorted(c.id for c in AIRSHIPS)),
        starters_undealt=("S1", "S2", "S3", "S4"),
        deck_era1=PACK.group("era1"),
        deck_era2=("LATE",),
        seat=1,
        start_seat=1,
    )
    assert st.wooden_airship is None and st.era == 1 and not st.hindenburg  # AIR-R-02, §2 initial state


@pytest.mark.parametrize(("reading", "supply"), [("participating", 6 * 3 - 11), ("all", 6 * 4 - 11)])
def test_a_pooled_supply_holds_the_chips_of_the_nations_in_play_air_amb_03(reading: str, supply: int) -> None:
    """AIR-AMB-02 'pool' with 3 players (3 + 4 + 4 chips on boards): the pool holds the
    participating nations' 6 chips each, or all 24 under AIR-AMB-03 'all', less the boards'."""
    st = new_game(ctx("02=pool", f"03={reading}"), 3, 0, ("USA", "Germany", "Italy"))
    assert st.supplies == (supply,)
    assert [b.chips for b in st.boards] == [3, 4, 4]


def test_the_whole_set_up_with_seat_1_starting_air_r_03_05_06_10() -> None:
    """AIR-R-03 .. 06 for 2 players, seat 1 oldest: 12 airship cards in 4 stacks of 3, a starter
    each (seat 0 first, by seat), the other 2 starters in their rows, then era-1 cards until 6
    lie on the board; the first go (go 1) is seat 1's and opens with step 1 (AIR-R-10, 22)."""
    c = ctx()
    st = new_game(c, 2, 1, ("USA", "Germany"))
    # dark first, then medium, then light, one card per stack in turn
    for card in ("D1", "D2", "D3", "D4", "M1", "M2", "M3", "M4", "L1", "L2", "L3", "L4"):
        st = step(c, st, DealAirship(card))
    assert st.stacks == FULL_STACKS and st.phase is Phase.DEAL_STARTERS
    st = step(c, step(c, st, DealStarter("S3")), DealStarter("S1"))
    assert st.boards[0].departments[2] == "S3" and st.boards[1].departments[0] == "S1"
    assert st.phase is Phase.FILL_DISPLAY and st.display[1][0] == "S2" and st.display[4][0] == "S4"
    for card in ("HANW", "FIN", "EX04"):
        st = step(c, st, Reveal(card))
        assert st.phase is Phase.FILL_DISPLAY and st.goes == 0
    st = step(c, st, Reveal("ENR"))
    assert st.display == (
        ("FIN", None, None),
        ("S2", "HANW", "EX04"),
        (None, None, None),
        ("ENR", None, None),
        ("S4", None, None),
        (None, None, None),
    )
    assert (st.phase, st.seat, st.start_seat, st.goes) == (Phase.REVEAL, 1, 1, 1)
    assert st.attempt is None and st.reveal_again is False


# -- step 1: the display and the era change (AIR-R-23 .. 25) ---------------------------------------


@pytest.mark.parametrize(("reading", "phase"), [("next", Phase.REVEAL), ("stop", Phase.ATTEMPT)])
def test_the_era_tile_flips_every_entrepreneur_and_leaves_the_game_air_r_25(reading: str, phase: Phase) -> None:
    """AIR-R-25: the era tile turns up; era 2 for everyone at once, the tile is out of the deck,
    and step 1 reveals the next card (AIR-AMB-15 'next') or ends ('stop')."""
    st = state(phase=Phase.REVEAL, deck_era1=(), deck_era2=("LATE",))
    after = step(ctx(f"15={reading}"), st, Reveal(None))
    assert after == attrs.evolve(st, era=2, era_tile_in_deck=False, phase=phase)
    assert after.era_tile_in_deck is False


@pytest.mark.parametrize(("reading", "row"), [("gaps", (None, "EX04", "HANB")), ("compact", ("EX04", "HANB", None))])
def test_a_card_taken_from_a_row_leaves_a_gap_unless_rows_compact_air_amb_16(
    reading: str, row: tuple[str | None, ...]
) -> None:
    """AIR-AMB-16: taking the leftmost Hangar leaves its field empty ('gaps', AIR-EX-02's gap
    case), or the two others slide left ('compact')."""
    st = state(display=display("HANW", "EX04", "HANB"))
    after = attempt(ctx(f"16={reading}"), st, "development:HANW", Throw(W=(3,)))
    assert after.display[1] == row
    assert after.boards[0].departments[1] == "HANW"  # AIR-R-38: on the empty Hangar field
    assert after.removed == ()


# -- step 2: the throw's parts (AIR-R-33 .. 37) ------------------------------------------------------


def engine_board() -> CompanyBoard:
    """AIR-EX-17 + AIR-EX-20: a fixed red 4 and a red engine, one white die (the entrepreneur)."""
    return board("ENR", "ENGR")


@pytest.mark.parametrize(("reading", "won"), [("A", True), ("B", False), ("C", True)])
def test_a_red_engine_with_only_the_fixed_red_die_air_amb_09(reading: str, won: bool) -> None:
    """AIR-EX-20: {W:1, R:1} for 8, white 3 thrown and the fixed red 4 (AIR-EX-17): S = 7.  The red
    engine adds +1 when the target requires red (A) or the fixed red counts (C), not when no
    red die is thrown (B, the default): 8 wins, 7 fails and earns the failure chip."""
    st = state(engine_board(), board("S2", nation="Germany"), display=display("MATWR"))
    after = attempt(ctx(f"09={reading}"), st, "development:MATWR", Throw(W=(3,)))
    assert (after.boards[0].departments[5] == "MATWR") is won
    assert chips(after) == ((0, 6) if won else (1, 5))  # AIR-R-41 on failure


@pytest.mark.parametrize(("reading", "won"), [("throw", False), ("die", True)])
def test_an_engine_bonus_per_throw_or_per_die_air_amb_10(reading: str, won: bool) -> None:
    """AIR-AMB-10: {R:1} for 5, two reds thrown (3, 2) with a red +1 engine: S = 3; +1 once per
    throw makes 4 (short), +1 per red die thrown makes 5."""
    st = state(board("FIN", "HANWR", "ENGR"), board("S2", nation="Germany"), display=display("FINR"))
    after = attempt(ctx(f"10={reading}"), st, "development:FINR", Throw(R=(3, 2)))
    assert (after.boards[0].departments[0] == "FINR") is won


@pytest.mark.parametrize(("pooled", "target", "won"), [("exact", "MATRB", True), ("any", "PILRB", False)])
def test_a_displaced_fixed_die_triggers_no_engine_under_c_air_amb_04_09(pooled: str, target: str, won: bool) -> None:
    """AIR-AMB-09 'C': the red engine counts when the fixed red 4 counts in S.  {R:1, B:1}, blacks
    8 and 6 thrown, no red.  'exact' (AIR-AMB-04): black 8 + fixed red 4 = 12, +1 = 13, enough
    for MATRB's 13.  'any': the best two of 8, 6, 4 are 8 + 6 = 14, the fixed 4 does not count,
    so no bonus: 14, short of PILRB's 15 (no chip to spend)."""
    st = state(board("FIN", "HANB", "ENR", "ENGR"), board("S2", nation="Germany"), display=display(target))
    after = attempt(ctx(f"04={pooled}", "09=C"), st, f"development:{target}", Throw(B=(8, 6)))
    row = list(Department).index(DEPARTMENT_OF[target])
    assert (after.boards[0].departments[row] == target) is won
    assert chips(after) == ((0, 6) if won else (1, 5))


def ex06_board(chips_on_board: int = 1) -> CompanyBoard:
    """AIR-EX-06 (reconstruction R1): n = {W:5, R:3}, fixed white 3, Material 3W -> 1B, and the
    old white-only +1 engine."""
    return board("FINWR", "HANWR", "PILWR", "ENW", "ENGW", "MATB", chips=chips_on_board)


@pytest.mark.parametrize("cap", ["after", "before"])
def test_the_motor_example_exchange_and_chip_air_ex_06(cap: str) -> None:
    """AIR-EX-06 under both AIR-AMB-06 readings (it ends the same): 3 whites exchanged for a
    black, reds 5, 4, 3 and black 6 thrown, fixed white 3: 5 + 6 + 3 = 14, the old white engine
    idle (no white thrown, AIR-AMB-09 'B'); one chip makes 15.  The Motor takes the old
    engine's place, which leaves the game; the chip goes to the own supply (AIR-R-37, 38)."""
    c = ctx(f"06={cap}")
    st = state(ex06_board(), board("S2", nation="Germany"), display=display("MOTOR"))
    st = attempt(c, st, "development:MOTOR", Throw(R=(5, 4, 3), B=(6,)), exchanges=1)
    assert st.phase is Phase.BONUS and chips(st) == (1, 5)
    after = step(c, st, Resolve(chip=True))
    assert after.boards[0].departments[4] == "MOTOR"
    assert after.removed == ("ENGW",)
    assert after.display == display()
    assert chips(after) == (0, 6)
    assert (after.seat, after.phase) == (1, Phase.REVEAL)


def test_surplus_whites_above_the_cap_may_be_given_up_twice_air_amb_06_07() -> None:
    """AIR-AMB-06 'after' with AIR-AMB-07 'repeat': AIR-EX-06's company gives up its 5 whites
    and the fixed white (6 = 2 x 3) for 2 blacks; black 8 alone already reaches HANB's 6."""
    c = ctx("07=repeat")
    st = state(ex06_board(), board("S2", nation="Germany"), display=display("HANB"))
    after = attempt(c, st, "development:HANB", Throw(B=(8,)), exchanges=2, give_fixed=True)
    assert after.boards[0].departments[1] == "HANB"
    assert after.removed == ("HANWR",)  # AIR-R-38: the old Hangar leaves the game


# -- AIR-R-34/37 with the bonus readings (AIR-AMB-11, 12) ------------------------------------------------


def test_optional_bonuses_ask_the_wooden_airships_holder_even_without_chips_air_amb_12() -> None:
    """AIR-AMB-12 'optional': the holder chooses after the throw whether to use the wooden
    airship, so the step waits (BONUS) although no chip is left and 3 already beats 2."""
    st = state(board("S1"), board("S2", nation="Germany"), display=display("HANW"), wooden_airship=0)
    after = attempt(ctx("12=optional"), st, "development:HANW", Throw(W=(3,)))
    assert after.phase is Phase.BONUS


def test_optional_bonuses_with_nothing_to_choose_settle_at_once_air_amb_12() -> None:
    """AIR-AMB-12 'optional' with no engine, no wooden airship and a throw that reaches the
    target exactly (2 for 2): nothing to choose, the chip is only for a short throw (AIR-R-37),
    so the card is won at once and play passes (AIR-R-10)."""
    st = state(board("S1", chips=1), board("S2", nation="Germany"), display=display("HANW"))
    after = attempt(ctx("12=optional"), st, "development:HANW", Throw(W=(2,)))
    assert after.boards[0].departments[1] == "HANW"
    assert (after.seat, after.phase, after.goes) == (1, Phase.REVEAL, 6)
    assert chips(after) == (1, 5)


@pytest.mark.parametrize(("use", "won"), [(True, True), (False, False)])
def test_the_wooden_airship_adds_one_when_used_air_r_36_amb_12(use: bool, won: bool) -> None:
    """AIR-R-36 under AIR-AMB-12 'optional': 2 + 2 = 4 for EX04's 5; the holder's +1 makes 5
    if used; unused, the attempt fails (AIR-R-41: +1 chip)."""
    c = ctx("12=optional")
    st = state(board("S1"), board("S2", nation="Germany"), display=display("EX04"), wooden_airship=0)
    st = attempt(c, st, "development:EX04", Throw(W=(2, 2)))
    assert st.phase is Phase.BONUS
    after = step(c, st, Resolve(wooden_airship=use))
    assert (after.boards[0].departments[1] == "EX04") is won
    assert chips(after) == ((0, 6) if won else (1, 5))


def test_a_chip_adds_exactly_one_air_r_37_amb_11() -> None:
    """AIR-R-37 with AIR-AMB-11 'legal': 2 + 1 = 3 for EX04's 5, a chip makes 4, still short:
    the chip goes back to the supply and the failure brings one back (AIR-R-41)."""
    st = state(board("S1", chips=1), board("S2", nation="Germany"), display=display("EX04"))
    st = attempt(ctx(), st, "development:EX04", Throw(W=(2, 1)))
    assert st.phase is Phase.BONUS
    after = step(ctx(), st, Resolve(chip=True))
    assert after.display == display("EX04") and after.boards[0].departments[1] is None
    assert chips(after) == (1, 5)


@pytest.mark.parametrize(
    ("faces", "phase", "after_chips"), [((2, 2), Phase.BONUS, (1, 5)), ((2, 1), Phase.REVEAL, (2, 4))]
)
def test_a_chip_is_offered_only_when_it_decides_air_amb_11_forbid(
    faces: tuple[int, ...], phase: Phase, after_chips: tuple[int, int]
) -> None:
    """AIR-AMB-11 'forbid': 4 for EX04's 5 is one short, the chip would decide: the step waits;
    3 is two short, no chip can help: the attempt fails at once (+1 chip, AIR-R-41)."""
    st = state(board("S1", chips=1), board("S2", nation="Germany"), display=display("EX04"))
    after = attempt(ctx("11=forbid"), st, "development:EX04", Throw(W=faces))
    assert after.phase is phase
    assert chips(after) == after_chips


# -- AIR-AMB-26 'next-turn': the record of cards won this turn -------------------------------------------


def test_a_card_won_this_turn_replaced_in_an_additional_go_leaves_the_record_air_amb_26() -> None:
    """AIR-AMB-26 'next-turn': HANW and L4 were won earlier this turn (an additional go now);
    EX04 takes HANW's field, so HANW leaves the game and the record, EX04 joins it."""
    st = state(board("S1", "HANW", airships=("L4",), won=("L4", "HANW")), board("S2", nation="Germany"))
    st = attrs.evolve(st, display=display("EX04"))
    after = attempt(ctx("26=next-turn"), st, "development:EX04", Throw(W=(3, 2)))
    assert after.boards[0].departments[1] == "EX04"
    assert after.removed == ("HANW",)
    assert after.boards[0].won_this_turn == ()  # the turn ended: play passed to seat 1
    assert after.seat == 1
    # the record at the moment of the win, before the turn ends: the same go with chips to go on
    rich = attrs.evolve(st, boards=(attrs.evolve(st.boards[0], chips=3), st.boards[1]), supplies=(3, 6))
    won = attempt(ctx("26=next-turn"), rich, "development:EX04", Throw(W=(3, 2)))
    assert won.phase is Phase.EXTRA_GO
    assert won.boards[0].won_this_turn == ("L4", "EX04")


def test_an_airship_won_this_turn_is_recorded_air_amb_26() -> None:
    st = state(board("S1", chips=3), board("S2", nation="Germany"))
    after = attempt(ctx("26=next-turn"), st, "airship:2", Throw(W=(2,)))
    assert after.phase is Phase.EXTRA_GO
    assert after.boards[0].airships == ("L2",)
    assert after.boards[0].won_this_turn == ("L2",)


# -- the Hindenburg (AIR-R-43 .. 46) ---------------------------------------------------------------------

HINDENBURG = {"hindenburg": True, "stacks": FULL_STACKS[:3] + ((),)}


def test_a_stage_marker_comes_from_the_supply_while_it_has_one_air_r_45_ex_08() -> None:
    """AIR-EX-08: USA completes stage 1 with 1 chip left in its supply: that chip marks the
    stage, the 5 on the board stay; the stage is USA's and so is the wooden airship."""
    st = state(board("S1", chips=5), board("S2", nation="Germany"), **HINDENBURG)
    after = attempt(ctx(), st, "stage:1", Throw(W=(3,)))
    assert chips(after) == (5, 0)
    assert after.stages == (0, None, None, None) and after.markers == (True, False, False, False)
    assert after.wooden_airship == 0
    assert after.phase is Phase.EXTRA_GO  # 5 chips pay for an additional go (AIR-R-42)


@pytest.mark.parametrize(("on_board", "marked"), [(1, True), (0, False)])
def test_a_stage_marker_from_the_board_or_none_in_a_pooled_supply_air_r_45_amb_29(on_board: int, marked: bool) -> None:
    """AIR-R-45 under AIR-AMB-02 'pool' with the pool empty: the marker comes from the board
    (1 chip there); with none there either, the stage is still owned, unmarked (AIR-AMB-29)."""
    st = state(board("S1", chips=on_board), board("S2", chips=3, nation="Germany"), supplies=(0,), **HINDENBURG)
    after = attempt(ctx("02=pool"), st, "stage:1", Throw(W=(3,)))
    assert after.stages == (0, None, None, None)
    assert after.markers == (marked, False, False, False)
    assert after.boards[0].chips == 0 and after.supplies == (0,)
    assert after.wooden_airship == 0


@pytest.mark.parametrize(
    ("reveal", "moves"),
    [(("13=stage",), True), (("13=reveal", "14=yes"), True), (("13=reveal", "14=no"), False)],
)
def test_the_airship_win_that_reveals_the_hindenburg_air_amb_13_14(reveal: tuple[str, ...], moves: bool) -> None:
    """AIR-EX-07: stack 4 holds one card; winning it reveals the Hindenburg.  The winner takes
    the wooden airship (AIR-R-40) unless AIR-AMB-13 'reveal' with AIR-AMB-14 'no' puts the
    reveal first.  The game goes on: the other fields hold 3 cards (AIR-R-47)."""
    st = state(board("S1"), board("S2", nation="Germany"), stacks=FULL_STACKS[:3] + (("L4",),), wooden_airship=1)
    after = attempt(ctx(*reveal), st, "airship:4", Throw(W=(2,)))
    assert after.hindenburg and after.stacks[3] == ()
    assert after.wooden_airship == (0 if moves else 1)
    assert after.ended is None and after.phase is Phase.REVEAL


def test_an_airship_win_before_the_reveal_moves_the_wooden_airship_air_amb_13_reveal() -> None:
    """AIR-AMB-13 'reveal', AIR-AMB-14 'no': no stack is used up, so nothing is revealed and the
    airship card brings the wooden airship (AIR-R-40)."""
    st = state(board("S1"), board("S2", nation="Germany"), wooden_airship=1)
    after = attempt(ctx("13=reveal", "14=no"), st, "airship:1", Throw(W=(2,)))
    assert not after.hindenburg and after.wooden_airship == 0


# -- the end (AIR-R-47) ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("reading", "ended"), [("every", None), ("any", "a")])
def test_one_airship_field_down_to_one_card_air_amb_21(reading: str, ended: str | None) -> None:
    """AIR-R-47 (a): stack 4 goes from 2 cards to 1, the others hold 3: the game ends only under
    AIR-AMB-21 'any' (some field holds at most one card)."""
    st = state(board("S1"), board("S2", nation="Germany"), stacks=FULL_STACKS[:3] + (("M4", "L4"),))
    after = attempt(ctx(f"21={reading}"), st, "airship:4", Throw(W=(2,)))
    assert after.ended == ended
    assert after.phase is (Phase.OVER if ended else Phase.REVEAL)


@pytest.mark.parametrize(("reading", "ended"), [("all-four", None), ("stage-four", "b")])
def test_stage_4_completed_first_air_amb_19(reading: str, ended: str | None) -> None:
    """AIR-R-47 (b): the stage numbered 4 completed while 1 to 3 are open ends the game only under
    AIR-AMB-19 'stage-four'; by default all four must be done."""
    st = state(board("S1"), board("S2", nation="Germany"), **HINDENBURG)
    after = attempt(ctx(f"19={reading}"), st, "stage:4", Throw(W=(3,)))
    assert after.stages == (None, None, None, 0)
    assert after.ended == ended
    assert after.phase is (Phase.OVER if ended else Phase.REVEAL)


def test_the_last_stage_ends_the_game_at_once_air_r_47_b() -> None:
    """AIR-R-47 (b), AIR-AMB-20 'immediate': the fourth stage done, the game is over even with
    3 chips for an additional go."""
    st = state(board("S1", chips=3), board("S2", nation="Germany"), stages=(1, 1, 1, None), **HINDENBURG)
    after = attempt(ctx(), st, "stage:4", Throw(W=(3,)))
    assert (after.ended, after.phase) == ("b", Phase.OVER)


def test_the_go_is_finished_before_the_end_air_amb_20_finish_go() -> None:
    """AIR-AMB-20 'finish-go': the win leaves every field with at most one card (AIR-R-47 a); the
    player may still pay for an additional go, and ending the go ends the game (no next seat)."""
    c = ctx("20=finish-go")
    stacks = (("L1",), ("L2",), ("L3",), ("M4", "L4"))
    st = state(board("S1", chips=3), board("S2", nation="Germany"), stacks=stacks)
    st = attempt(c, st, "airship:4", Throw(W=(2,)))
    assert (st.ended, st.phase) == ("a", Phase.EXTRA_GO)
    over = step(c, st, EndGo())
    assert over == attrs.evolve(st, phase=Phase.OVER)


def test_the_game_ends_when_the_go_ends_without_chips_air_amb_20_finish_go() -> None:
    c = ctx("20=finish-go")
    stacks = (("L1",), ("L2",), ("L3",), ("M4", "L4"))
    st = state(board("S1"), board("S2", nation="Germany"), stacks=stacks)
    after = attempt(c, st, "airship:4", Throw(W=(2,)))
    assert (after.ended, after.phase, after.seat, after.goes) == ("a", Phase.OVER, 0, 5)
    assert after.attempt is None  # the attempt was settled (AIR-R-34): none is left open at the end


# -- turn order and additional goes (AIR-R-10, AIR-R-42) ----------------------------------------------------


@pytest.mark.parametrize(("seat", "following"), [(0, 1), (1, 2), (2, 0)])
def test_play_passes_clockwise_among_three_air_r_10(seat: int, following: int) -> None:
    """AIR-R-10: with 3 players the go after seat s is seat s + 1's, round to seat 0; the go
    count grows by one and the next go opens with step 1 (AIR-R-23)."""
    boards = (board("S1"), board("S2", nation="Germany"), board("S3", nation="Italy"))
    st = state(*boards, phase=Phase.EXTRA_GO, seat=seat)
    after = step(ctx(), st, EndGo())
    assert after == attrs.evolve(st, seat=following, goes=6, phase=Phase.REVEAL)


@pytest.mark.parametrize(("reading", "phase"), [("full", Phase.REVEAL), ("attempt-only", Phase.ATTEMPT)])
def test_an_additional_go_costs_3_chips_to_the_own_supply_air_r_42_amb_22(reading: str, phase: Phase) -> None:
    """AIR-R-42: 3 chips from the board back to the own supply, and at once another go, the same
    seat: both steps ('full') or step 2 only (AIR-AMB-22 'attempt-only')."""
    st = state(board("S1", chips=3), board("S2", nation="Germany"), phase=Phase.EXTRA_GO)
    after = step(ctx(f"22={reading}"), st, ExtraGo())
    boards = (attrs.evolve(st.boards[0], chips=0), st.boards[1])
    assert after == attrs.evolve(st, boards=boards, supplies=(6, 6), goes=6, phase=phase)


def test_an_additional_go_at_a_higher_cost_air_r_42() -> None:
    """AIR-R-42 with the cost parameter at 4: exactly 4 chips move to the supply."""
    c = ctx(extra_go_cost=4)
    st = state(board("S1", chips=5), board("S2", nation="Germany"), phase=Phase.EXTRA_GO)
    after = step(c, st, ExtraGo())
    assert chips(after) == (1, 5) and after.phase is Phase.REVEAL


# -- no legal target (AIR-AMB-23) --------------------------------------------------------------------------


@pytest.mark.parametrize(("reading", "gained"), [("mandatory", 0), ("chip", 1)])
def test_no_legal_target_and_the_failure_chip_air_amb_23(reading: str, gained: int) -> None:
    """AIR-AMB-23: only white dice, an empty display and stacks topped by cards needing red or
    black: step 2 is skipped; the failure chip comes only under 'chip' (from the own supply)."""
    stacks = tuple((f"D{i}", f"M{i}") for i in range(1, 5))
    st = state(board("S1"), board("S2", nation="Germany"), stacks=stacks)
    after = step(ctx(f"23={reading}"), st, NoAttempt())
    assert chips(after) == (gained, 6 - gained)
    assert (after.seat, after.phase) == (1, Phase.REVEAL)


def test_no_failure_chip_from_an_empty_supply_air_r_41() -> None:
    """AIR-R-41: a failure with the own supply at zero brings nothing (6 chips on the board)."""
    st = state(board("S1", chips=6), board("S2", nation="Germany"), display=display("EX04"))
    st = attempt(ctx(), st, "development:EX04", Throw(W=(1, 1)))
    assert st.phase is Phase.BONUS  # AIR-AMB-11 'legal': a chip may still be spent
    after = step(ctx(), st, Resolve(chip=False))
    assert chips(after) == (6, 0)


@pytest.mark.parametrize(("give_fixed", "won"), [(True, False), (False, True)])
def test_a_fixed_die_given_up_in_the_exchange_loses_its_value_for_the_throw_air_amb_08(
    give_fixed: bool, won: bool
) -> None:
    """AIR-AMB-08 (default 'yes': the Engineer's fixed die counts as one die of its colour given up
    in an exchange, and its value is lost for that throw; p.6).  AIR-EX-06's company (5 whites, the
    fixed white 3, Material 3W -> 1B, the old white engine +1) attempts the Motor (1W 1R 1B, 15) and
    throws white 1, red 5, black 6.  Given up with two whites, the fixed 3 is gone: 1 + 5 + 6 + 1
    (the white engine: a white is thrown, AIR-AMB-09 'B') = 13, two short with one chip: failed.
    Kept (three thrown whites given up instead), the fixed 3 is the best white: 3 + 5 + 6 + 1 = 15."""
    c = ctx()
    st = state(ex06_board(), board("S2", nation="Germany"), display=display("MOTOR"))
    after = attempt(c, st, "development:MOTOR", Throw(W=(1,), R=(5,), B=(6,)), exchanges=1, give_fixed=give_fixed)
    assert (after.boards[0].departments[4] == "MOTOR") is won
    assert ("MOTOR" in {card for row in after.display for card in row}) is not won
