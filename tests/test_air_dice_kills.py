"""Airships dice: what a company may throw and what a throw scores, pinned to the rules digest.

Issue 22 (a mutation score for every module).  ``model/airships/dice.py`` holds pure
functions; each test feeds one of the digest's worked examples (AIR-EX-04 .. 22, the p.6
cards) or an edge (no dice, the cap of 3 exactly, a tie with the fixed die) and asserts the
value the digest gives (/work/shared/rules/airships.md).  Each ambiguity reading the
functions take (AIR-AMB-04, 06, 08, 09, 10, 25, 26, 35, 36) is tested, not only the default.
"""

from __future__ import annotations

import pytest

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
from rulecraft.model.airships.dice import (
    Company,
    Pool,
    base_score,
    company_of,
    covers,
    covers_pooled,
    engine_bonus,
    entrepreneur_dice,
    exchanged,
    faces_valid,
    fixed_counts,
    throw_range,
)
from rulecraft.model.airships.state import CompanyBoard

W, R, B = Colour.W, Colour.R, Colour.B
NONE: tuple[int, ...] = ()

# The p.6 example cards (AIR-EX-11, 17, 19, 21), their requirement and target synthetic.
FINANCE = DevelopmentCard("FIN", "era1", Department.FINANCE, Dice(W=1), 3, dice=Dice(W=1, R=1, B=1))
ENGINEER_R4 = DevelopmentCard("ENR", "era1", Department.ENGINEER, Dice(W=1), 3, fixed=FixedDie(R, 4))
ENGINE_GREY = DevelopmentCard("ENG", "era1", Department.ENGINE, Dice(W=1), 3, engine=EngineBonus(None, 1))
MATERIAL_3W_2R = DevelopmentCard("MAT", "era1", Department.MATERIAL, Dice(W=1), 3, exchange=Exchange(3, W, 2, R))
# An airship card whose bottom shows a red die: it counts only under AIR-AMB-25 'yes'.
AIRSHIP_RED = AirshipCard("L1", "light", Dice(W=2), 6, 2, dice=Dice(R=1))
PACK = Pack(
    "synthetic",
    True,
    ("USA", "Germany", "Italy", "France"),
    (AIRSHIP_RED,),
    (FINANCE, ENGINEER_R4, ENGINE_GREY, MATERIAL_3W_2R),
    (HindenburgStage(1, Dice(W=2), 10, 3, 5),),
)


def board(
    *cards: str, airships: tuple[str, ...] = (), extra_red_dice: int = 0, won_this_turn: tuple[str, ...] = ()
) -> CompanyBoard:
    """A company board with ``cards`` on their department fields."""
    fields: list[str | None] = [None] * 6
    for card in cards:
        fields[list(Department).index(PACK.development(card).department)] = card
    return CompanyBoard("USA", tuple(fields), airships, extra_red_dice=extra_red_dice, won_this_turn=won_this_turn)


# -- AIR-R-12/13/14: the dice a company may use --------------------------------------------------


def test_entrepreneur_tile_gives_one_white_then_white_and_red_air_r_13() -> None:
    assert entrepreneur_dice(1) == Dice(W=1)
    assert entrepreneur_dice(2) == Dice(W=1, R=1)


def test_finance_card_adds_its_dice_to_the_entrepreneur_die_air_ex_11() -> None:
    """AIR-EX-11: entrepreneur 1 W plus Finance 1W 1R 1B gives {W:2, R:1, B:1}."""
    assert company_of(board("FIN"), 1, PACK) == Company(Dice(W=2, R=1, B=1))
    assert company_of(board("FIN"), 2, PACK).dice == Dice(W=2, R=2, B=1)  # AIR-R-13 after the era change


def test_engineer_engine_and_material_cards_give_their_effect_air_r_18_19_20() -> None:
    company = company_of(board("ENR", "ENG", "MAT"), 1, PACK)
    assert company == Company(Dice(W=1), FixedDie(R, 4), EngineBonus(None, 1), Exchange(3, W, 2, R))


def test_extra_red_dice_of_air_amb_01_every_success_count_like_card_dice() -> None:
    assert company_of(board(extra_red_dice=2), 1, PACK).dice == Dice(W=1, R=2)


def test_airship_cards_give_no_dice_by_default_air_r_14() -> None:
    """AIR-R-14 / AIR-AMB-25 'no' (the default): an owned airship card's die symbols do not count."""
    assert company_of(board(airships=("L1",)), 1, PACK).dice == Dice(W=1)
    assert company_of(board(airships=("L1",)), 1, PACK, airship_dice=False).dice == Dice(W=1)


def test_airship_cards_give_their_dice_under_air_amb_25_yes() -> None:
    assert company_of(board(airships=("L1",)), 1, PACK, airship_dice=True).dice == Dice(W=1, R=1)


def test_every_colour_of_an_airship_cards_dice_counts_under_air_amb_25_yes() -> None:
    """AIR-AMB-25 'yes' reads p.2's "the cards on the company board show (at the bottom) the dice" for
    airship cards too: each colour at an owned airship card's bottom is added like a development
    card's (AIR-R-12), here 1 W and 2 B on top of Finance's 1W 1R 1B and the entrepreneur's 1 W."""
    white_black = AirshipCard("LWB", "light", Dice(W=2), 6, 2, dice=Dice(W=1, B=2))
    pack = Pack("synthetic", True, PACK.nations, (AIRSHIP_RED, white_black), PACK.developments, PACK.stages)
    owner = board("FIN", airships=("LWB", "L1"))
    assert company_of(owner, 1, pack, airship_dice=True).dice == Dice(W=3, R=2, B=3)
    assert company_of(owner, 1, pack).dice == Dice(W=2, R=1, B=1)  # AIR-R-14, the default: none


def test_cards_won_this_turn_do_not_count_yet_under_air_amb_26_next_turn() -> None:
    """AIR-AMB-26 'next-turn': a card won this turn, development or airship, waits."""
    waiting = board("FIN", "ENR", "ENG", "MAT", airships=("L1",), won_this_turn=("FIN", "ENR", "ENG", "MAT", "L1"))
    assert company_of(waiting, 1, PACK, airship_dice=True) == Company(Dice(W=1))
    # the airship card alone waiting: the Finance dice count, the airship's red die does not
    only_airship = board("FIN", airships=("L1",), won_this_turn=("L1",))
    assert company_of(only_airship, 1, PACK, airship_dice=True).dice == Dice(W=2, R=1, B=1)


# -- AIR-R-27/30/31 and AIR-AMB-32: usable dice --------------------------------------------------


def test_usable_dice_are_capped_at_three_per_colour_air_r_30() -> None:
    pool = Pool(Dice(W=5), None)
    assert pool.usable(W) == 3
    assert pool.usable(W, capped=True) == 3
    assert pool.usable(W, capped=False) == 5  # AIR-AMB-06: the exchange works on the uncapped count
    assert Pool(Dice(W=3), None).usable(W) == 3  # exactly the cap
    assert Pool(Dice(W=2), None).usable(W) == 2
    assert Pool(Dice(), None).usable(W) == 0


def test_the_fixed_die_counts_on_top_of_the_cap_air_r_31_air_ex_06() -> None:
    """AIR-EX-06: of 5 white dice and the fixed white, min(5, 3) + 1 = 4 are usable."""
    pool = Pool(Dice(W=5, R=3), FixedDie(W, 3))
    assert pool.usable(W) == 4
    assert pool.usable(R) == 3  # the white fixed die is not a red die
    assert pool.usable(B) == 0
    assert pool.fixed_count(W) == 1
    assert pool.fixed_count(R) == 0
    assert Pool(Dice(W=5), None).fixed_count(W) == 0


def test_a_variant_cap_replaces_the_three_air_r_30() -> None:
    assert Pool(Dice(W=5), None, cap=4).usable(W) == 4


# -- AIR-R-29, AIR-AMB-06/07/08: the Material exchange --------------------------------------------


EX06 = Company(Dice(W=5, R=3), FixedDie(W, 3), None, Exchange(3, W, 1, B))  # AIR-EX-06's company


def test_the_motor_example_exchanges_3_white_for_1_black_air_ex_06() -> None:
    """AIR-EX-06: n = {W:5, R:3}, F = {W:3}, 3W -> 1B gives n' = {W:2, R:3, B:1}, F' = {W:3}."""
    assert exchanged(EX06, 1, False) == Pool(Dice(W=2, R=3, B=1), FixedDie(W, 3))


def test_material_examples_air_ex_21_and_22() -> None:
    ex21 = Company(Dice(W=3), exchange=Exchange(3, W, 2, R))
    assert exchanged(ex21, 1, False) == Pool(Dice(W=0, R=2), None)
    ex22 = Company(Dice(W=1, R=2), exchange=Exchange(2, R, 1, B))
    assert exchanged(ex22, 1, False) == Pool(Dice(W=1, R=0, B=1), None)


def test_no_exchange_keeps_the_dice_and_the_cap() -> None:
    """AIR-EX-21: the exchange is optional; without it the throw starts from the entitlement."""
    assert exchanged(EX06, 0, False) == Pool(Dice(W=5, R=3), FixedDie(W, 3))
    assert exchanged(EX06, 0, False, cap=4) == Pool(Dice(W=5, R=3), FixedDie(W, 3), 4)
    assert exchanged(EX06, 1, False, cap=4) == Pool(Dice(W=2, R=3, B=1), FixedDie(W, 3), 4)


def test_giving_up_the_fixed_die_without_an_exchange_is_refused_air_amb_08() -> None:
    reason = exchanged(EX06, 0, True)
    assert isinstance(reason, str)
    assert "no exchange" in reason and "fixed die" in reason


def test_an_exchange_needs_a_material_card_air_r_20() -> None:
    reason = exchanged(Company(Dice(W=3)), 1, False)
    assert isinstance(reason, str)
    assert "Material card" in reason


def test_the_fixed_die_may_be_one_of_the_dice_given_up_air_amb_08_air_ex_18() -> None:
    """AIR-EX-18: the Engineer's black 7 may be given up to a (hypothetical) 1B -> 2R card."""
    company = Company(Dice(W=1), FixedDie(B, 7), None, Exchange(1, B, 2, R))
    assert exchanged(company, 1, True) == Pool(Dice(W=1, R=2), None)
    # 3W -> 1B with two thrown whites and the fixed white: the fixed die makes the third
    company = Company(Dice(W=2, R=3), FixedDie(W, 3), None, Exchange(3, W, 1, B))
    assert exchanged(company, 1, True) == Pool(Dice(W=0, R=3, B=1), None)


def test_the_fixed_die_given_up_must_be_of_the_colour_given_air_amb_08() -> None:
    wrong_colour = Company(Dice(W=3), FixedDie(R, 4), None, Exchange(3, W, 2, R))
    reason = exchanged(wrong_colour, 1, True)
    assert isinstance(reason, str)
    assert "no fixed W die" in reason
    no_fixed = Company(Dice(W=3), None, None, Exchange(3, W, 2, R))
    reason = exchanged(no_fixed, 1, True)
    assert isinstance(reason, str)
    assert "no fixed W die" in reason


def test_an_exchange_short_of_dice_says_how_many_can_be_given_air_r_29() -> None:
    short = Company(Dice(W=2), exchange=Exchange(3, W, 2, R))
    reason = exchanged(short, 1, False)
    assert isinstance(reason, str)
    assert "gives up 3 W dice" in reason and "only 2 can be given" in reason
    # one thrown white and the fixed white: 2 can be given, 3 are needed
    with_fixed = Company(Dice(W=1), FixedDie(W, 3), None, Exchange(3, W, 2, R))
    reason = exchanged(with_fixed, 1, True)
    assert isinstance(reason, str)
    assert "gives up 3 W dice" in reason and "only 2 can be given" in reason


def test_an_exchange_may_give_exactly_the_dice_there_are_air_r_29() -> None:
    assert exchanged(Company(Dice(W=3), exchange=Exchange(3, W, 2, R)), 1, False) == Pool(Dice(R=2), None)


def test_surplus_dice_above_the_cap_may_be_given_by_default_air_amb_06_after() -> None:
    """AIR-AMB-06 'after' (default): the exchange works on the uncapped entitlement; 'before'
    lets only the 3 capped dice go.  Two applications (AIR-AMB-07 'repeat') of 3W -> 1B need 6."""
    six = Company(Dice(W=6), exchange=Exchange(3, W, 1, B))
    assert exchanged(six, 2, False) == Pool(Dice(W=0, B=2), None)
    assert exchanged(six, 2, False, cap_first=False) == Pool(Dice(W=0, B=2), None)
    reason = exchanged(six, 2, False, cap_first=True)
    assert isinstance(reason, str)
    assert "gives up 6 W dice" in reason and "only 3 can be given" in reason
    # under 'before' with a variant cap of 4, four of the six can be given
    reason = exchanged(six, 2, False, cap_first=True, cap=4)
    assert isinstance(reason, str)
    assert "only 4 can be given" in reason
    # one application is within the cap under both readings
    assert exchanged(six, 1, False, cap_first=True) == Pool(Dice(W=3, B=1), None)


# -- AIR-R-27, AIR-AMB-04/32: does the pool cover the requirement -----------------------------------


def test_covers_names_the_first_colour_short_air_r_27() -> None:
    assert covers(Pool(Dice(W=2), None), Dice(W=2)) is None
    assert covers(Pool(Dice(W=1), None), Dice(W=2)) is W  # AIR-EX-04: n_W = 1 is illegal
    assert covers(Pool(Dice(), None), Dice(R=1, B=1)) is R
    assert covers(Pool(Dice(R=1), None), Dice(R=1, B=1)) is B
    assert covers(Pool(Dice(B=1), None), Dice(B=2)) is B  # AIR-EX-14: {B:2} illegal with one black


def test_covers_counts_at_most_three_thrown_dice_air_amb_32() -> None:
    """AIR-AMB-32: {W:4} needs the fixed die: 5 whites alone give min(5, 3) = 3."""
    five = Pool(Dice(W=5), None)
    assert covers(five, Dice(W=4)) is W
    assert covers(five, Dice(W=4), capped=True) is W
    assert covers(five, Dice(W=4), capped=False) is None
    assert covers(Pool(Dice(W=5), FixedDie(W, 3)), Dice(W=4)) is None


def test_covers_pooled_lets_a_surplus_colour_stand_in_air_amb_04_any() -> None:
    pool = Pool(Dice(W=3), None)
    assert covers_pooled(pool, Dice(W=1, R=1))
    assert covers(pool, Dice(W=1, R=1)) is R  # the default reading: exact colours
    assert not covers_pooled(Pool(Dice(W=1), None), Dice(W=1, R=1))
    # the listed colours only: black dice do not stand in for a white-and-red requirement
    assert not covers_pooled(Pool(Dice(W=1, B=3), None), Dice(W=1, R=1))


def test_covers_pooled_counts_at_most_three_of_a_colour() -> None:
    five = Pool(Dice(W=5), None)
    assert not covers_pooled(five, Dice(W=2, R=2))
    assert not covers_pooled(five, Dice(W=2, R=2), capped=True)
    assert covers_pooled(five, Dice(W=2, R=2), capped=False)
    assert covers_pooled(Pool(Dice(W=3, R=1), None), Dice(W=2, R=2))  # exactly the total


# -- AIR-AMB-35/36: how many dice of a colour may be thrown ---------------------------------------


def test_throw_range_runs_from_the_required_to_the_capped_entitlement_air_amb_35() -> None:
    """t_c is in [max(0, q_c - |F_c|), min(n_c, 3)]."""
    assert throw_range(Pool(Dice(W=5), None), Dice(W=2), W) == range(2, 4)
    assert throw_range(Pool(Dice(W=2), None), Dice(W=2), W) == range(2, 3)
    assert throw_range(Pool(Dice(W=5), FixedDie(W, 3)), Dice(W=2), W) == range(1, 4)
    # the fixed die of another colour does not lower the white minimum
    assert throw_range(Pool(Dice(W=5), FixedDie(R, 4)), Dice(W=2), W) == range(2, 4)
    assert throw_range(Pool(Dice(W=5), None, cap=4), Dice(W=2), W) == range(2, 5)


def test_throw_range_may_be_zero_dice_when_the_fixed_die_covers_air_ex_06_air_amb_36() -> None:
    """AIR-EX-06 throws no white: the fixed white covers {W:1}."""
    assert list(throw_range(Pool(Dice(W=2, R=3, B=1), FixedDie(W, 3)), Dice(W=1, R=1, B=1), W)) == [0, 1, 2]
    assert list(throw_range(Pool(Dice(), FixedDie(R, 4)), Dice(R=1), R)) == [0]  # AIR-EX-17


# -- AIR-R-33, AIR-AMB-04: the base score ----------------------------------------------------------


def test_base_score_keeps_the_best_q_dice_air_ex_05() -> None:
    """AIR-EX-05: {W:2}, three whites 3, 2, 2 -> 3 + 2 = 5."""
    assert base_score(Dice(W=2), ((3, 2, 2), NONE, NONE), None) == 5


def test_base_score_counts_the_fixed_die_as_a_die_of_its_colour_air_ex_06() -> None:
    """AIR-EX-06: red 5, black 6, fixed white 3 -> 14."""
    assert base_score(Dice(W=1, R=1, B=1), (NONE, (5, 4, 3), (6,)), FixedDie(W, 3)) == 14
    assert base_score(Dice(R=1), (NONE, NONE, NONE), FixedDie(R, 4)) == 4  # AIR-EX-17, no randomness
    assert base_score(Dice(R=2), (NONE, (5, 3, 2), NONE), FixedDie(R, 4)) == 9  # best 2 of 5, 4, 3, 2
    assert base_score(Dice(B=1), (NONE, NONE, NONE), FixedDie(B, 7)) == 7  # AIR-EX-18


def test_base_score_pooled_takes_the_best_of_all_listed_colours_air_amb_04_any() -> None:
    faces = ((3, 3), (2,), NONE)
    assert base_score(Dice(W=1, R=1), faces, None) == 5  # default: per colour, 3 + 2
    assert base_score(Dice(W=1, R=1), faces, None, pooled=False) == 5
    assert base_score(Dice(W=1, R=1), faces, None, pooled=True) == 6  # best two of 3, 3, 2
    # the fixed die competes with every listed colour
    assert base_score(Dice(W=1, B=1), ((1,), NONE, (4,)), FixedDie(B, 7), pooled=True) == 11
    # a fixed die of an unlisted colour does not count
    assert base_score(Dice(W=2), ((1, 1), NONE, NONE), FixedDie(R, 4), pooled=True) == 2


def test_faces_are_one_group_per_colour() -> None:
    """Faces come as (white, red, black); a short tuple is refused, not read as missing colours."""
    with pytest.raises(ValueError):
        base_score(Dice(W=2), ((3, 2),), None)
    with pytest.raises(ValueError):
        base_score(Dice(W=2), ((3, 2),), None, pooled=True)
    with pytest.raises(ValueError):
        fixed_counts(Dice(W=2), ((3, 2),), FixedDie(W, 3), pooled=True)


# -- AIR-AMB-09 'C': does the fixed die count ------------------------------------------------------


def test_fixed_die_counts_only_when_among_the_best_q() -> None:
    assert not fixed_counts(Dice(R=1), (NONE, (5,), NONE), None)  # no fixed die
    assert not fixed_counts(Dice(W=1), ((3,), NONE, NONE), FixedDie(R, 4))  # red not required
    assert not fixed_counts(Dice(R=1), (NONE, (5,), NONE), FixedDie(R, 4))  # a 5 beats it
    assert fixed_counts(Dice(R=1), (NONE, (3,), NONE), FixedDie(R, 4))
    assert fixed_counts(Dice(R=1), (NONE, NONE, NONE), FixedDie(R, 4))  # AIR-EX-17: the only red
    assert fixed_counts(Dice(R=2), (NONE, (5, 3), NONE), FixedDie(R, 4))  # second best of 5, 4, 3
    assert not fixed_counts(Dice(R=2), (NONE, (5, 5), NONE), FixedDie(R, 4))
    assert fixed_counts(Dice(W=1, R=1, B=1), (NONE, (5, 4, 3), (6,)), FixedDie(W, 3))  # AIR-EX-06


def test_a_fixed_die_tied_with_a_thrown_die_counts() -> None:
    """Only a strictly better thrown die pushes the fixed die out: on a tie either may be
    the one counted, and the bonuses are taken in the player's favour (AIR-AMB-12)."""
    assert fixed_counts(Dice(R=1), (NONE, (4,), NONE), FixedDie(R, 4))
    assert fixed_counts(Dice(R=1, B=1), (NONE, NONE, (4, 4)), FixedDie(R, 4), pooled=True)


def test_fixed_die_pooled_competes_with_every_listed_colour_air_amb_04_any() -> None:
    faces = ((3,), (5,), NONE)
    assert not fixed_counts(Dice(W=1, R=1), faces, FixedDie(R, 4))  # default: against the red 5 only
    assert not fixed_counts(Dice(W=1, R=1), faces, FixedDie(R, 4), pooled=False)
    assert fixed_counts(Dice(W=1, R=1), faces, FixedDie(R, 4), pooled=True)  # 5, 4 are the best two
    assert not fixed_counts(Dice(R=1, B=1), (NONE, (5,), (8,)), FixedDie(R, 4), pooled=True)
    # unlisted colours do not compete: the black 8 is not thrown for {W:1, R:1}
    assert fixed_counts(Dice(W=1, R=1), ((3,), (5,), (8,)), FixedDie(R, 4), pooled=True)


# -- AIR-R-19/35, AIR-AMB-09/10/36: the engine bonus -----------------------------------------------


GREY = EngineBonus(None, 1)
RED = EngineBonus(R, 1)


def _exact(value: int, expected: int) -> None:
    assert value == expected and type(value) is int


def test_no_engine_no_bonus() -> None:
    _exact(engine_bonus(None, Dice(W=2), Dice(W=2)), 0)


def test_grey_engine_counts_once_on_every_throw_air_ex_19() -> None:
    """AIR-EX-19: {W:2}, 2 + 2 = 4, grey +1 -> 5.  Once per throw (AIR-AMB-10 'throw')."""
    _exact(engine_bonus(GREY, Dice(W=2), Dice(W=2)), 1)
    _exact(engine_bonus(GREY, Dice(W=1, R=1, B=1), Dice(W=3, R=3, B=1)), 1)
    _exact(engine_bonus(EngineBonus(None, 2), Dice(W=2), Dice(W=3), per="throw"), 2)
    _exact(engine_bonus(GREY, Dice(R=1), Dice()), 1)  # AIR-AMB-36: no die thrown still counts


def test_grey_engine_per_die_under_air_amb_10_die() -> None:
    _exact(engine_bonus(EngineBonus(None, 2), Dice(W=2), Dice(W=2, R=1), per="die"), 6)
    _exact(engine_bonus(GREY, Dice(R=1), Dice(), per="die"), 1)  # AIR-AMB-36: one throw, no die


def test_red_engine_needs_a_red_die_thrown_by_default_air_ex_20() -> None:
    """AIR-EX-20 under AIR-AMB-09 'B': {W:2} no bonus; a red die thrown +1; a fixed red only: none."""
    _exact(engine_bonus(RED, Dice(W=2), Dice(W=2)), 0)
    _exact(engine_bonus(RED, Dice(W=1, R=1), Dice(W=1, R=1)), 1)
    _exact(engine_bonus(RED, Dice(W=1, R=1), Dice(W=1, R=3)), 1)  # once per throw
    fixed_red = FixedDie(R, 4)
    _exact(engine_bonus(RED, Dice(R=1), Dice(), fixed_counted=True, fixed=fixed_red), 0)
    _exact(engine_bonus(RED, Dice(R=1), Dice(), involved="B", fixed_counted=True, fixed=fixed_red), 0)


def test_coloured_engine_under_air_amb_09_a_needs_the_colour_required() -> None:
    _exact(engine_bonus(RED, Dice(R=1), Dice(), involved="A"), 1)  # required, none thrown
    _exact(engine_bonus(RED, Dice(W=2), Dice(W=2), involved="A"), 0)
    _exact(engine_bonus(RED, Dice(R=2), Dice(R=2), involved="A"), 1)


def test_coloured_engine_under_air_amb_09_c_counts_a_counting_fixed_die() -> None:
    fixed_red = FixedDie(R, 4)
    _exact(engine_bonus(RED, Dice(R=1), Dice(), involved="C", fixed_counted=True, fixed=fixed_red), 1)
    _exact(engine_bonus(RED, Dice(R=1), Dice(), involved="C", fixed=fixed_red), 0)  # not said to count
    _exact(engine_bonus(RED, Dice(R=1), Dice(), involved="C", fixed_counted=False, fixed=fixed_red), 0)
    # a counting fixed die of another colour does not make red involved
    _exact(engine_bonus(RED, Dice(W=1, R=1), Dice(), involved="C", fixed_counted=True, fixed=FixedDie(W, 3)), 0)
    _exact(engine_bonus(RED, Dice(R=1), Dice(), involved="C", fixed_counted=True, fixed=None), 0)
    # a thrown red die is involved under 'C' too, with or without the fixed die
    _exact(engine_bonus(RED, Dice(R=1), Dice(R=1), involved="C"), 1)
    _exact(engine_bonus(RED, Dice(W=1), Dice(W=1), involved="C"), 0)


def test_coloured_engine_per_die_under_air_amb_10_die() -> None:
    two = EngineBonus(R, 2)
    _exact(engine_bonus(two, Dice(W=1, R=1), Dice(W=1, R=2), per="die"), 4)  # the red dice only
    _exact(engine_bonus(two, Dice(W=1, R=1), Dice(W=1, R=2), per="throw"), 2)
    # under 'A' with no red thrown the bonus still counts once
    _exact(engine_bonus(two, Dice(R=1), Dice(), involved="A", per="die"), 2)


# -- AIR-R-51: faces of the three dice --------------------------------------------------------------


def test_faces_valid_follows_the_printed_faces() -> None:
    assert faces_valid(W, (1, 2, 3))
    assert not faces_valid(W, (4,))
    assert faces_valid(R, (2, 5))
    assert not faces_valid(R, (1,))
    assert not faces_valid(B, (7,))  # AIR-EX-18: 7 is a fixed value, not a black face
    assert faces_valid(B, ())
