"""Airships legality, condition by condition, pinned to the rules digest.

Issue 22 (a mutation score for every module).  ``model/airships/rules.py`` holds one named
condition per rule; each test builds a small state over a synthetic pack made of the
digest's example cards (AIR-EX-04/05/06, the p.6 cards AIR-EX-11 .. 22; requirements and
targets synthetic where the digest leaves them open) and asserts what the digest says
(/work/shared/rules/airships.md): the rule ID a refusal cites and the meaningful words of its
reason (card, counts, colour), or the exact legal options.  Each ambiguity reading the
conditions consult (AIR-AMB-04..08, 11, 12, 18, 23, 25, 32, 35, 36) is tested, not only the
default.
"""

from __future__ import annotations

from typing import Any, cast

import attrs
import pytest

from rulecraft.core import Rejection
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
from rulecraft.model.airships.dice import Company, Pool
from rulecraft.model.airships.readings import REGISTER
from rulecraft.model.airships.rules import (
    Context,
    TargetInfo,
    action_rejection,
    attempts,
    company,
    exchange_options,
    grounds,
    open_targets,
    parse_target,
    phase_rejection,
    pool_or_rejection,
    rejections,
    requirement_met,
    throw_allowed,
    throw_candidates,
)
from rulecraft.model.airships.state import AirState, Attempt, CompanyBoard, Phase

W, R, B = Colour.W, Colour.R, Colour.B
F, H, P, E, N, M = tuple(Department)  # finance, hangar, pilot, engineer, engine, material: the board's order

# -- a synthetic pack from the digest's examples --------------------------------------------------

CARDS = (
    DevelopmentCard("FIN", "era1", F, Dice(W=1), 3, dice=Dice(W=1, R=1, B=1)),  # AIR-EX-11
    DevelopmentCard("FIN3", "era1", F, Dice(W=1), 3, vp=3, dice=Dice(W=1)),  # AIR-EX-12
    DevelopmentCard("FINWR", "era1", F, Dice(W=1), 3, dice=Dice(W=2, R=1)),
    DevelopmentCard("EX04", "era1", H, Dice(W=2), 5, dice=Dice(R=1)),  # AIR-EX-04/05: 2 white for 5, gives 1 R
    DevelopmentCard("HANW", "era1", H, Dice(W=1), 2, dice=Dice(W=1)),  # AIR-EX-13
    DevelopmentCard("HANB", "era1", H, Dice(B=1), 6, dice=Dice(B=1)),  # AIR-EX-14
    DevelopmentCard("HANWR", "era1", H, Dice(W=1), 3, dice=Dice(W=1, R=1)),
    DevelopmentCard("RED2", "era1", H, Dice(R=2), 6, dice=Dice(W=1)),  # AIR-EX-21's {R:2} target
    DevelopmentCard("PILWR", "era1", P, Dice(W=1), 3, dice=Dice(W=1, R=1), pilot_chips=2),
    DevelopmentCard("ENR", "era1", E, Dice(R=1), 4, fixed=FixedDie(R, 4)),  # AIR-EX-17
    DevelopmentCard("ENW", "era1", E, Dice(W=1), 3, fixed=FixedDie(W, 3)),  # AIR-EX-06's engineer
    DevelopmentCard("ENG", "era1", N, Dice(W=1), 3, engine=EngineBonus(None, 1)),  # AIR-EX-19, grey +1
    DevelopmentCard("ENGW", "era1", N, Dice(W=1), 3, engine=EngineBonus(W, 1)),  # AIR-EX-06 R1: the old engine
    DevelopmentCard("MOTOR", "era1", N, Dice(W=1, R=1, B=1), 15, engine=EngineBonus(R, 1)),  # AIR-EX-06's target
    DevelopmentCard("MAT", "era1", M, Dice(W=1), 3, exchange=Exchange(3, W, 2, R)),  # AIR-EX-21
    DevelopmentCard("MATB", "era1", M, Dice(W=1), 3, exchange=Exchange(3, W, 1, B)),  # AIR-EX-06's Material
    DevelopmentCard("S1", "starter", F, Dice(W=1), 2, dice=Dice(W=1)),
    DevelopmentCard("S2", "starter", H, Dice(W=1), 2, dice=Dice(W=1)),
)
AIRSHIPS = (
    AirshipCard("D1", "dark", Dice(B=2), 14, 6),
    AirshipCard("D2", "dark", Dice(B=2), 14, 6),
    AirshipCard("M1", "medium", Dice(R=2), 9, 4),
    AirshipCard("L1", "light", Dice(W=2), 6, 2, dice=Dice(R=1)),  # a red die at its bottom (AIR-AMB-25)
    AirshipCard("L4", "light", Dice(W=4), 12, 4),  # a requirement above 3 (AIR-AMB-32)
)
STAGES = (
    HindenburgStage(1, Dice(W=1), 3, 3, 5),
    HindenburgStage(2, Dice(R=1), 4, 3, 5),
    HindenburgStage(3, Dice(B=1), 6, 4, 6),
    HindenburgStage(4, Dice(W=1, R=1, B=1), 15, 5, 8),
)
PACK = Pack("synthetic", True, ("USA", "Germany", "Italy", "France"), AIRSHIPS, CARDS, STAGES)
DEPARTMENT_OF = {c.id: c.department for c in CARDS}

MATB = Exchange(3, W, 1, B)
# AIR-EX-06's company: n = {W:5, R:3}, F = {W:3}, Material 3W -> 1B.
EX06 = Company(Dice(W=5, R=3), FixedDie(W, 3), None, MATB)


def ctx(*readings: str, **params: int) -> Context:
    """The default readings, with ``"07=repeat"`` style overrides (checked against the register)."""
    chosen = REGISTER.defaults()
    for item in readings:
        number, _, key = item.partition("=")
        amb = f"AIR-AMB-{number}"
        assert key in REGISTER[amb].choices(), item
        chosen[amb] = key
    return Context(PACK, chosen, {**PARAMETERS.defaults(), **params})


def board(*cards: str, chips: int = 0, airships: tuple[str, ...] = ()) -> CompanyBoard:
    fields: list[str | None] = [None] * 6
    for card in cards:
        fields[list(Department).index(DEPARTMENT_OF[card])] = card
    return CompanyBoard("USA", tuple(fields), airships, chips=chips)


def display(*cards: str) -> tuple[tuple[str | None, ...], ...]:
    rows: list[list[str | None]] = [[None, None, None] for _ in range(6)]
    for card in cards:
        row = rows[list(Department).index(DEPARTMENT_OF[card])]
        row[row.index(None)] = card
    return tuple(tuple(r) for r in rows)


def state(*boards: CompanyBoard, **fields: Any) -> AirState:
    fields.setdefault("phase", Phase.ATTEMPT)
    fields.setdefault("supplies", (2,) * max(1, len(boards)))
    return AirState(boards=boards or (board(), board()), **fields)


def refused(result: object, rule: str, *words: str) -> None:
    """``result`` is a refusal citing ``rule`` whose reason holds every one of ``words``."""
    assert isinstance(result, Rejection), result
    assert result.rule == rule, result
    for word in words:
        assert word in result.reason, (word, result.reason)


STACKS = (("D1", "L1"), (), ("M1",), ("D2", "L4"))
HINDENBURG = {"hindenburg": True, "stacks": STACKS}


# -- AIR-R-26: what may be chosen ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ("Zeppelin", ("'Zeppelin'", "development:<card>")),
        ("pilot:1", ("target kind 'pilot'",)),
        ("airship:x", ("airship number 'x'", "not a number")),
        ("stage:1:2", ("stage number '1:2'",)),  # the kind is what precedes the first colon
        ("airship:5", ("no airship 5", "1 to 4")),
        ("stage:0", ("no stage 0", "1 to 4")),
        ("airship:2", ("airship field 2 is empty",)),
        ("development:HANB", ("HANB", "not in the display")),
    ],
)
def test_a_target_outside_the_three_kinds_is_refused_air_r_26(ref: str, words: tuple[str, ...]) -> None:
    """AIR-R-26: a displayed development card, a stack's top card or an open stage, nothing else."""
    st = state(display=display("EX04"), **HINDENBURG)
    refused(parse_target(ctx(), st, ref), "AIR-R-26", *words)


def test_each_target_kind_reads_its_requirement_and_target_air_r_26() -> None:
    """AIR-R-26: the displayed card, the top (last dealt) card of a stack, the stage on the board."""
    st = state(display=display("EX04"), **HINDENBURG)
    assert parse_target(ctx(), st, "development:EX04") == TargetInfo(
        "development:EX04", "development", Dice(W=2), 5, card="EX04"
    )
    assert parse_target(ctx(), st, "airship:1") == TargetInfo("airship:1", "airship", Dice(W=2), 6, card="L1", index=1)
    assert parse_target(ctx(), st, "stage:2") == TargetInfo("stage:2", "stage", Dice(R=1), 4, index=2)


def test_stages_are_no_target_before_the_hindenburg_is_revealed_air_r_43() -> None:
    st = state(stacks=STACKS)
    refused(parse_target(ctx(), st, "stage:1"), "AIR-R-43", "Hindenburg is not revealed")


def test_a_completed_stage_is_built_only_once_air_r_44() -> None:
    st = state(stages=(None, 1, None, None), **HINDENBURG)
    refused(parse_target(ctx(), st, "stage:2"), "AIR-R-44", "stage 2", "seat 1")


@pytest.mark.parametrize(
    ("stages", "index", "first"),
    [
        ((None, None, None, None), 1, None),
        ((None, None, None, None), 2, 1),
        ((None, None, None, None), 4, 1),
        ((0, None, None, None), 2, None),
        ((0, None, None, None), 3, 2),
        ((0, 1, None, None), 4, 3),
        ((0, 1, 0, None), 4, None),
    ],
)
def test_sequential_stages_are_built_one_to_four_air_amb_18(
    stages: tuple[int | None, ...], index: int, first: int | None
) -> None:
    """AIR-AMB-18 'sequential': the refusal names the lowest stage still open."""
    st = state(stages=stages, **HINDENBURG)
    result = parse_target(ctx("18=sequential"), st, f"stage:{index}")
    if first is None:
        assert result == TargetInfo(
            f"stage:{index}", "stage", STAGES[index - 1].requirement, STAGES[index - 1].target, index=index
        )
    else:
        refused(result, "AIR-R-44", f"stage {first} comes first")


def test_stages_may_be_built_in_any_order_by_default_air_amb_18() -> None:
    st = state(**HINDENBURG)
    assert parse_target(ctx(), st, "stage:3") == TargetInfo("stage:3", "stage", Dice(B=1), 6, index=3)


def test_open_targets_are_the_displayed_cards_the_stack_tops_and_the_open_stages_air_r_26() -> None:
    """AIR-R-26/43/44: stage 1 is done, so stages 2-4 are offered (free order), stage 2 alone
    when they are sequential (AIR-AMB-18); stacks 2 is empty, so it offers nothing."""
    st = state(display=display("FIN", "EX04", "HANB"), stages=(0, None, None, None), **HINDENBURG)
    cards = [
        TargetInfo("development:FIN", "development", Dice(W=1), 3, card="FIN"),
        TargetInfo("development:EX04", "development", Dice(W=2), 5, card="EX04"),
        TargetInfo("development:HANB", "development", Dice(B=1), 6, card="HANB"),
        TargetInfo("airship:1", "airship", Dice(W=2), 6, card="L1", index=1),
        TargetInfo("airship:3", "airship", Dice(R=2), 9, card="M1", index=3),
        TargetInfo("airship:4", "airship", Dice(W=4), 12, card="L4", index=4),
    ]
    stages = [TargetInfo(f"stage:{s.index}", "stage", s.requirement, s.target, index=s.index) for s in STAGES[1:]]
    assert list(open_targets(ctx(), st)) == cards + stages
    assert list(open_targets(ctx("18=sequential"), st)) == [*cards, stages[0]]
    assert list(open_targets(ctx(), attrs.evolve(st, hindenburg=False))) == cards


# -- AIR-R-12/14, AIR-AMB-25: the company's dice ------------------------------------------------


def test_airship_cards_give_no_dice_unless_air_amb_25_yes_air_r_14() -> None:
    st = state(board(airships=("L1",)))
    assert company(ctx(), st, 0).dice == Dice(W=1)
    assert company(ctx("25=no"), st, 0).dice == Dice(W=1)
    assert company(ctx("25=yes"), st, 0).dice == Dice(W=1, R=1)


# -- AIR-R-29, AIR-AMB-06/07/08: the Material exchange --------------------------------------------


def test_no_material_card_no_exchange_air_r_20() -> None:
    assert list(exchange_options(ctx(), Company(Dice(W=5)))) == [(0, False)]


def test_the_motor_example_may_exchange_once_with_or_without_the_fixed_die_air_ex_06() -> None:
    """AIR-EX-06 / AIR-AMB-07 'once', AIR-AMB-08 'yes': no exchange, 3 thrown whites, or 2 whites
    and the fixed white die."""
    assert list(exchange_options(ctx(), EX06)) == [(0, False), (1, False), (1, True)]


def test_the_fixed_die_is_not_offered_under_air_amb_08_no() -> None:
    assert list(exchange_options(ctx("08=no"), EX06)) == [(0, False), (1, False)]


def test_a_fixed_die_of_another_colour_cannot_be_given_up_air_amb_08() -> None:
    """The Material card gives up whites; a red fixed die (AIR-EX-17) is no white die."""
    comp = Company(Dice(W=5), FixedDie(R, 4), None, MATB)
    assert list(exchange_options(ctx(), comp)) == [(0, False), (1, False)]


def test_repeated_exchanges_last_while_the_input_dice_do_air_amb_07_repeat() -> None:
    """AIR-AMB-07 'repeat': with 5 whites and the fixed white, 2 exchanges need the fixed die
    (6 whites); a third would need 9."""
    assert list(exchange_options(ctx("07=repeat"), EX06)) == [(0, False), (1, False), (1, True), (2, True)]
    six = Company(Dice(W=6), None, None, MATB)
    assert list(exchange_options(ctx("07=repeat"), six)) == [(0, False), (1, False), (2, False)]
    assert list(exchange_options(ctx("07=once"), six)) == [(0, False), (1, False)]


def test_repeated_exchanges_are_offered_as_long_as_the_check_takes_them_air_amb_07_repeat() -> None:
    """AIR-AMB-07 'repeat' with a Material card giving up 1 white for 1 red and 7 whites: 7 exchanges,
    each one legal by the check, and the 8th refused (generation and the check agree; an earlier
    generator stopped at 6)."""
    seven = Company(Dice(W=7), None, None, Exchange(1, W, 1, R))
    offered = [k for k, _ in exchange_options(ctx("07=repeat"), seven)]
    assert offered == list(range(8))
    assert all(isinstance(pool_or_rejection(ctx("07=repeat"), seven, k, False), Pool) for k in offered)
    refused(pool_or_rejection(ctx("07=repeat"), seven, 8, False), "AIR-R-29")


def test_the_exchange_count_cannot_be_negative_air_r_29() -> None:
    refused(pool_or_rejection(ctx(), EX06, -1, False), "AIR-R-29", "negative")


def test_an_exchange_needs_a_material_card_air_r_20() -> None:
    refused(pool_or_rejection(ctx(), Company(Dice(W=5)), 1, False), "AIR-R-20", "Material card")


def test_a_second_exchange_is_refused_when_applied_once_air_amb_07() -> None:
    six = Company(Dice(W=6), None, None, MATB)
    refused(pool_or_rejection(ctx(), six, 2, False), "AIR-R-29", "once per throw", "2 requested")
    assert pool_or_rejection(ctx("07=repeat"), six, 2, False) == Pool(Dice(W=0, B=2), None)


def test_the_fixed_die_given_up_air_amb_08() -> None:
    """AIR-AMB-08 'yes': the fixed white counts as one of the 3 whites given up (5 - 2 = 3 left)."""
    assert pool_or_rejection(ctx(), EX06, 1, True) == Pool(Dice(W=3, R=3, B=1), None)
    refused(pool_or_rejection(ctx("08=no"), EX06, 1, True), "AIR-R-18", "fixed die cannot be given up", "AIR-AMB-08")


def test_an_exchange_short_of_input_dice_is_refused_air_r_29() -> None:
    comp = Company(Dice(W=2), None, None, MATB)
    refused(pool_or_rejection(ctx(), comp, 1, False), "AIR-R-29", "gives up 3 W", "only 2")


def test_surplus_dice_above_the_cap_may_be_exchanged_unless_capped_first_air_amb_06() -> None:
    """AIR-AMB-06 'after' (default): 6 whites give two 3W->1B exchanges; 'before': only 3 of them can."""
    six = Company(Dice(W=6), None, None, MATB)
    assert pool_or_rejection(ctx("07=repeat"), six, 2, False) == Pool(Dice(B=2), None)
    assert pool_or_rejection(ctx("07=repeat", "06=after"), six, 2, False) == Pool(Dice(B=2), None)
    refused(pool_or_rejection(ctx("07=repeat", "06=before"), six, 2, False), "AIR-R-29", "gives up 6 W", "only 3")


def test_the_motor_example_pool_after_the_exchange_air_ex_06() -> None:
    """AIR-EX-06: n' = {W:2, R:3, B:1}, F' = {W:3}; a variant cap travels with the pool."""
    assert pool_or_rejection(ctx(), EX06, 1, False) == Pool(Dice(W=2, R=3, B=1), FixedDie(W, 3))
    assert pool_or_rejection(ctx(dice_per_colour=4), EX06, 1, False) == Pool(Dice(W=2, R=3, B=1), FixedDie(W, 3), 4)
    # 'before' with a cap of 4: 4 of the 6 whites may go, so 2 exchanges still fail
    six = Company(Dice(W=6), None, None, MATB)
    refused(pool_or_rejection(ctx("07=repeat", "06=before", dice_per_colour=4), six, 2, False), "AIR-R-29", "only 4")


# -- AIR-R-27, AIR-AMB-04/32: the required dice ---------------------------------------------------


def target(ref: str) -> TargetInfo:
    info = parse_target(ctx(), state(display=display("EX04", "HANB", "RED2", "FIN"), **HINDENBURG), ref)
    assert isinstance(info, TargetInfo)
    return info


def test_two_white_dice_needed_one_owned_air_ex_04() -> None:
    """AIR-EX-04: illegal for a player with n_W = 1 and no fixed white."""
    refused(
        requirement_met(ctx(), Pool(Dice(W=1), None), target("development:EX04")),
        "AIR-R-27",
        "development:EX04 needs 2 W dice",
        "can use 1",
    )
    assert requirement_met(ctx(), Pool(Dice(W=2), None), target("development:EX04")) is None
    assert requirement_met(ctx(), Pool(Dice(W=1), FixedDie(W, 3)), target("development:EX04")) is None


def test_one_black_die_needed_none_owned_air_ex_14() -> None:
    refused(
        requirement_met(ctx(), Pool(Dice(W=1), None), target("development:HANB")),
        "AIR-R-27",
        "needs 1 B die;",
        "can use 0",
    )


def test_a_requirement_above_three_counts_capped_dice_air_amb_32() -> None:
    """AIR-AMB-32 'capped': 5 whites give min(5, 3) = 3 towards {W:4}; 'uncapped' all 5."""
    pool = Pool(Dice(W=5), None)
    refused(requirement_met(ctx(), pool, target("airship:4")), "AIR-R-27", "airship:4 needs 4 W dice", "can use 3")
    refused(requirement_met(ctx("32=capped"), pool, target("airship:4")), "AIR-R-27", "can use 3")
    assert requirement_met(ctx("32=uncapped"), pool, target("airship:4")) is None
    # 'uncapped' short by one: {W:5} with 4 whites names all 4 as usable
    five = TargetInfo("airship:4", "airship", Dice(W=5), 15, card="L5", index=4)
    refused(requirement_met(ctx("32=uncapped"), Pool(Dice(W=4), None), five), "AIR-R-27", "needs 5 W", "can use 4")
    refused(requirement_met(ctx(), Pool(Dice(W=4), None), five), "AIR-R-27", "needs 5 W", "can use 3")
    refused(
        requirement_met(ctx("04=any", "32=uncapped"), Pool(Dice(W=4), None), five), "AIR-R-27", "needs 5", "can use 4"
    )
    # the fixed die on top of the cap (AIR-R-31) meets it under either reading
    assert requirement_met(ctx(), Pool(Dice(W=5), FixedDie(W, 3)), target("airship:4")) is None


def test_surplus_dice_may_stand_in_for_another_colour_under_air_amb_04_any() -> None:
    """AIR-AMB-04 'any': {W:1, R:1, B:1} needs 3 dice of its colours in total."""
    motor = TargetInfo("development:MOTOR", "development", Dice(W=1, R=1, B=1), 15, card="MOTOR")
    assert requirement_met(ctx("04=any"), Pool(Dice(W=3), None), motor) is None
    refused(requirement_met(ctx(), Pool(Dice(W=3), None), motor), "AIR-R-27", "needs 1 R die")
    refused(
        requirement_met(ctx("04=any"), Pool(Dice(W=2), None), motor),
        "AIR-R-27",
        "needs 3 dice of its colours",
        "can use 2",
    )
    # the cap of 3 holds for the total too (AIR-AMB-32 'capped'); 'uncapped' lets all 5 count
    refused(
        requirement_met(ctx("04=any"), Pool(Dice(W=5), None), target("airship:4")), "AIR-R-27", "needs 4", "can use 3"
    )
    assert requirement_met(ctx("04=any", "32=uncapped"), Pool(Dice(W=5), None), target("airship:4")) is None


# -- AIR-R-30/31, AIR-AMB-04/05/35/36: the dice thrown ------------------------------------------


def test_more_dice_than_the_company_has_are_refused_air_r_12() -> None:
    refused(
        throw_allowed(ctx(), Pool(Dice(R=1), None), target("airship:3"), Dice(R=2)),
        "AIR-R-12",
        "has 1 R dice",
        "2 requested",
    )


def test_unlisted_colours_are_not_thrown_unless_air_amb_05_yes() -> None:
    """AIR-R-30 / AIR-AMB-05 'no': {W:2} uses no black die; 'yes' allows one (for an engine)."""
    pool = Pool(Dice(W=2, B=1), None)
    refused(throw_allowed(ctx(), pool, target("development:EX04"), Dice(W=2, B=1)), "AIR-R-30", "EX04 does not use B")
    assert throw_allowed(ctx("05=yes"), pool, target("development:EX04"), Dice(W=2, B=1)) is None
    assert throw_allowed(ctx(), pool, target("development:EX04"), Dice(W=2)) is None


def test_a_required_colour_needs_its_dice_less_the_fixed_die_air_r_30_31() -> None:
    """AIR-R-30: t + |F| >= q.  {W:2} with no fixed die needs 2 thrown; {R:2} with the fixed
    red 4 (AIR-EX-17) needs 1."""
    refused(
        throw_allowed(ctx(), Pool(Dice(W=3), None), target("development:EX04"), Dice(W=1)),
        "AIR-R-30",
        "needs 2 W: throw at least 2, 1 requested",
    )
    pool = Pool(Dice(R=2), FixedDie(R, 4))
    refused(throw_allowed(ctx(), pool, target("development:RED2"), Dice()), "AIR-R-30", "throw at least 1, 0 requested")
    assert throw_allowed(ctx(), pool, target("development:RED2"), Dice(R=1)) is None


def test_all_usable_dice_are_thrown_under_air_amb_35_max() -> None:
    """AIR-AMB-35 'max': min(n', 3) dice of each required colour; 'choice' (default): any count in range."""
    five = Pool(Dice(W=5), None)
    ex04 = target("development:EX04")
    refused(throw_allowed(ctx("35=max"), five, ex04, Dice(W=2)), "AIR-R-30", "all 3 usable W dice")
    assert throw_allowed(ctx("35=max"), five, ex04, Dice(W=3)) is None
    assert throw_allowed(ctx("35=choice"), five, ex04, Dice(W=2)) is None
    two = Pool(Dice(W=2), None)
    stage1 = target("stage:1")
    refused(throw_allowed(ctx("35=max"), two, stage1, Dice(W=1)), "AIR-R-30", "all 2 usable W dice")
    assert throw_allowed(ctx("35=max"), two, stage1, Dice(W=2)) is None


def test_pooled_colours_count_thrown_and_fixed_dice_together_air_amb_04_any() -> None:
    """AIR-AMB-04 'any': the Motor's 3 dice may come from any listed colour, the fixed die included."""
    motor = TargetInfo("development:MOTOR", "development", Dice(W=1, R=1, B=1), 15, card="MOTOR")
    ex06 = Pool(Dice(W=2, R=3, B=1), FixedDie(W, 3))
    assert throw_allowed(ctx("04=any"), ex06, motor, Dice(R=1, B=1)) is None  # 0 + fixed, 1, 1
    assert throw_allowed(ctx("04=any"), Pool(Dice(R=2, B=1), None), motor, Dice(R=2, B=1)) is None  # no white
    refused(
        throw_allowed(ctx("04=any"), Pool(Dice(R=2, B=1), None), motor, Dice(R=2)),
        "AIR-R-30",
        "needs 3 dice of its colours: 2 thrown or fixed",
    )
    refused(throw_allowed(ctx(), Pool(Dice(R=2, B=1), None), motor, Dice(R=2, B=1)), "AIR-R-30", "needs 1 W")


def test_an_attempt_with_no_die_thrown_air_amb_36() -> None:
    """AIR-AMB-36: a stage needing one red, covered by the fixed red 4, thrown with no die:
    'allowed' (default) judges it legal, 'forbidden' refuses it; a thrown die is fine under both."""
    stage2 = target("stage:2")
    fixed_only = Pool(Dice(R=1), FixedDie(R, 4))
    assert throw_allowed(ctx(), fixed_only, stage2, Dice()) is None
    assert throw_allowed(ctx("36=allowed"), fixed_only, stage2, Dice()) is None
    refused(
        throw_allowed(ctx("36=forbidden"), fixed_only, stage2, Dice()), "AIR-R-30", "at least one die", "AIR-AMB-36"
    )
    assert throw_allowed(ctx("36=forbidden"), fixed_only, stage2, Dice(R=1)) is None
    # dice thrown of the first colour only: still a throw
    assert throw_allowed(ctx("36=forbidden"), Pool(Dice(W=2), None), target("development:EX04"), Dice(W=2)) is None


def test_throw_candidates_span_the_required_range_air_r_30() -> None:
    """AIR-R-30/31: from max(0, q - |F|) to min(n', 3) per required colour; unlisted colours
    0 unless AIR-AMB-05 'yes' (then 0 to min(n', 3)); AIR-AMB-04 'any' starts every listed colour at 0."""
    ex04 = Dice(W=2)
    assert throw_candidates(ctx(), Pool(Dice(W=5), None), ex04) == [Dice(W=2), Dice(W=3)]
    assert throw_candidates(ctx(), Pool(Dice(R=2), FixedDie(R, 4)), Dice(R=1)) == [Dice(), Dice(R=1), Dice(R=2)]
    assert throw_candidates(ctx(), Pool(Dice(R=2), FixedDie(R, 4)), Dice(R=2)) == [Dice(R=1), Dice(R=2)]
    mixed = Pool(Dice(W=2, R=1, B=4), None)
    assert throw_candidates(ctx(), mixed, ex04) == [Dice(W=2)]
    assert throw_candidates(ctx("05=yes"), mixed, ex04) == [Dice(2, r, b) for r in range(2) for b in range(4)]
    motor = Dice(W=1, R=1, B=1)
    assert throw_candidates(ctx("04=any"), Pool(Dice(W=2, R=1), None), motor) == [
        Dice(w, r, 0) for w in range(3) for r in range(2)
    ]


def test_the_motor_is_attempted_only_with_the_exchange_air_ex_06() -> None:
    """AIR-EX-06: before the exchange black is missing; after it every legal attempt at the
    Motor uses the one exchange (with or without the fixed white)."""
    st = state(board("FINWR", "HANWR", "PILWR", "ENW", "ENGW", "MATB"), display=display("MOTOR"))
    motor = [a for a in attempts(ctx(), st) if a.target == "development:MOTOR"]
    assert motor, "the exchange makes the Motor a legal target"
    assert {a.exchanges for a in motor} == {1}
    assert AttemptTarget("development:MOTOR", Dice(R=3, B=1), 1, False) in motor


# -- the check's first layer: the step (AIR-R-22, AIR-R-47) -------------------------------------


def test_an_unknown_action_is_no_airships_action_air_r_22() -> None:
    refused(phase_rejection(state(), cast(AirAction, "pass")), "AIR-R-22", "'pass'", "not an Airships action")


def test_no_action_after_the_end_air_r_47() -> None:
    refused(phase_rejection(state(phase=Phase.OVER), EndGo()), "AIR-R-47", "game is over")


def test_an_action_out_of_its_step_cites_the_step_air_r_22() -> None:
    refused(phase_rejection(state(), Throw(W=(3,))), "AIR-R-22", "a throw is not possible", "waits for attempt")
    assert phase_rejection(state(), NoAttempt()) is None


def test_rejections_list_the_step_rule_and_the_action_rule_each_once_air_r_22_42() -> None:
    """``rejections``: an additional go asked during step 2 with no chips breaks AIR-R-22 (the
    step) and AIR-R-42 (3 chips); a legal action breaks nothing; an action whose own check
    needs its step's bookkeeping (a throw with no declared attempt) cites the step alone."""
    poor = state(board(chips=2), board())
    assert [r.rule for r in rejections(ctx(), poor, ExtraGo())] == ["AIR-R-22", "AIR-R-42"]
    assert [r.rule for r in rejections(ctx(), poor, Throw(W=(3,)))] == ["AIR-R-22"]
    assert [r.rule for r in rejections(ctx(), poor, EndGo())] == ["AIR-R-22"]
    in_extra_go = attrs.evolve(poor, phase=Phase.EXTRA_GO)
    assert [r.rule for r in rejections(ctx(), in_extra_go, ExtraGo())] == ["AIR-R-42"]
    assert rejections(ctx(), in_extra_go, EndGo()) == ()
    refused(rejections(ctx(), in_extra_go, ExtraGo())[0], "AIR-R-42", "costs 3 chips", "has 2")


# -- the action's own rules ---------------------------------------------------------------------


def test_an_additional_go_costs_three_chips_air_r_42() -> None:
    """AIR-R-42: exactly 3 chips suffice, 2 do not; a variant cost replaces the 3."""
    extra = Phase.EXTRA_GO
    refused(action_rejection(ctx(), state(board(chips=2), phase=extra), ExtraGo()), "AIR-R-42", "costs 3", "has 2")
    assert action_rejection(ctx(), state(board(chips=3), phase=extra), ExtraGo()) is None
    assert action_rejection(ctx(extra_go_cost=0), state(board(), phase=extra), ExtraGo()) is None
    assert action_rejection(ctx(), state(board(), phase=extra), EndGo()) is None


def test_step_2_is_not_optional_with_a_target_in_reach_air_amb_23() -> None:
    """AIR-AMB-23 'mandatory': HANW ({W:1}) is in reach of the entrepreneur's white die, so no
    pass; with EX04 alone ({W:2}) nothing is, so step 2 is skipped; 'pass' always allows it."""
    in_reach = state(board(), display=display("HANW", "EX04"))
    refused(action_rejection(ctx(), in_reach, NoAttempt()), "AIR-R-22", "step 2 is not optional", "AIR-AMB-23")
    assert action_rejection(ctx("23=pass"), in_reach, NoAttempt()) is None
    out_of_reach = state(board(), display=display("EX04"))
    assert action_rejection(ctx(), out_of_reach, NoAttempt()) is None


def test_starters_are_dealt_from_the_undealt_ones_air_r_05() -> None:
    st = state(phase=Phase.DEAL_STARTERS, starters_undealt=("S1", "S2"))
    assert action_rejection(ctx(), st, DealStarter("S1")) is None
    refused(action_rejection(ctx(), st, DealStarter("FIN")), "AIR-R-05", "FIN is not an undealt starter")


def test_airship_cards_are_dealt_dark_then_medium_then_light_air_r_03() -> None:
    undealt = ("D1", "D2", "M1", "L1")
    st = state(phase=Phase.DEAL_AIRSHIPS, airships_undealt=undealt)
    assert action_rejection(ctx(), st, DealAirship("D2")) is None
    refused(action_rejection(ctx(), st, DealAirship("M1")), "AIR-R-03", "the dark cards are dealt now; M1 is medium")
    refused(action_rejection(ctx(), st, DealAirship("L4")), "AIR-R-03", "L4 is not an undealt airship")
    four_dark = attrs.evolve(st, stacks=(("D",),) * 4)
    assert action_rejection(ctx(), four_dark, DealAirship("M1")) is None


def test_the_deck_is_era_1_then_the_era_tile_then_era_2_air_r_04() -> None:
    """AIR-R-04: 18 era-1 cards, the era tile, 24 era-2 cards; AIR-R-23: an empty deck."""
    era1 = state(phase=Phase.REVEAL, deck_era1=("FIN", "HANW"), deck_era2=("MAT",))
    assert action_rejection(ctx(), era1, Reveal("HANW")) is None
    refused(action_rejection(ctx(), era1, Reveal(None)), "AIR-R-04", "the era tile is not one of them")
    refused(action_rejection(ctx(), era1, Reveal("MAT")), "AIR-R-04", "MAT is not one of them")
    tile = attrs.evolve(era1, deck_era1=())
    assert action_rejection(ctx(), tile, Reveal(None)) is None
    refused(action_rejection(ctx(), tile, Reveal("MAT")), "AIR-R-04", "era tile lies on top")
    era2 = attrs.evolve(tile, era_tile_in_deck=False)
    assert action_rejection(ctx(), era2, Reveal("MAT")) is None
    refused(action_rejection(ctx(), era2, Reveal("FIN")), "AIR-R-04", "FIN is not in the deck")
    refused(action_rejection(ctx(), era2, Reveal(None)), "AIR-R-04", "the era tile is not in the deck")
    empty = attrs.evolve(era2, deck_era2=())
    refused(action_rejection(ctx(), empty, Reveal("MAT")), "AIR-R-23", "deck is empty")


def thrown(declared: Dice) -> AirState:
    return state(phase=Phase.THROW, attempt=Attempt("development:EX04", 0, False, declared))


def test_the_faces_match_the_declared_dice_air_r_32_51() -> None:
    """AIR-R-32: one face per declared die, listed high to low; AIR-R-51: faces of the real dice."""
    st = thrown(Dice(W=2, R=1))
    assert action_rejection(ctx(), st, Throw(W=(3, 2), R=(5,))) is None
    refused(action_rejection(ctx(), st, Throw(W=(2,), R=(3,))), "AIR-R-32", "2 W dice were declared; 1 faces")
    refused(action_rejection(ctx(), st, Throw(W=(3, 2), R=(6,))), "AIR-R-51", "R dice show only [2, 3, 4, 5]; got [6]")
    refused(
        action_rejection(ctx(), st, Throw(W=(2, 3), R=(3,))), "AIR-R-32", "W faces are listed high to low; got [2, 3]"
    )


# -- AIR-R-34..37, AIR-AMB-11/12: the bonuses after the throw ----------------------------------


def short_throw(chips: int = 1, faces: tuple[int, ...] = (2, 1)) -> AirState:
    """EX04 ({W:2}, T 5) thrown with 2 whites; the company has a grey +1 engine (AIR-EX-19)
    and holds the wooden airship (+1)."""
    return state(
        board("HANW", "ENG", chips=chips),
        board(),
        phase=Phase.BONUS,
        display=display("EX04"),
        wooden_airship=0,
        attempt=Attempt("development:EX04", 0, False, Dice(W=2), faces=(faces, (), ())),
    )


def test_no_chip_to_spend_air_r_37() -> None:
    refused(action_rejection(ctx(), short_throw(chips=0), Resolve(chip=True)), "AIR-R-37", "no chip")


def test_engine_and_wooden_airship_always_apply_under_air_amb_12_auto() -> None:
    refused(action_rejection(ctx(), short_throw(), Resolve(engine=False)), "AIR-R-34", "always apply", "AIR-AMB-12")
    refused(action_rejection(ctx(), short_throw(), Resolve(wooden_airship=False)), "AIR-R-34", "always apply")
    assert action_rejection(ctx("12=optional"), short_throw(), Resolve(engine=False)) is None


@pytest.mark.parametrize(
    ("engine", "wooden", "reached"),
    [(True, True, 5), (True, False, None), (False, True, None), (False, False, None)],
)
def test_a_chip_is_only_for_a_short_throw_air_r_37(engine: bool, wooden: bool, reached: int | None) -> None:
    """AIR-R-34/37: 2 + 1 = 3, + engine 1 + wooden airship 1 = 5 of 5: a success, no chip.  Under
    AIR-AMB-12 'optional', leaving out a bonus keeps the throw short, so the chip may be spent."""
    result = action_rejection(
        ctx("12=optional"), short_throw(), Resolve(chip=True, engine=engine, wooden_airship=wooden)
    )
    if reached is None:
        assert result is None
    else:
        refused(result, "AIR-R-37", f"already makes {reached} of 5")


def test_a_chip_that_does_not_decide_is_forbidden_only_under_air_amb_11_forbid() -> None:
    """AIR-AMB-11: 3 + 1 = 4 of 5 is not decisive ('forbid' refuses, 'legal' allows); 3 + engine
    1 + chip 1 = 5 of 5 is decisive under both."""
    st = short_throw()
    bare = Resolve(chip=True, engine=False, wooden_airship=False)
    refused(
        action_rejection(ctx("12=optional", "11=forbid"), st, bare), "AIR-R-37", "a chip makes 4 of 5", "not decisive"
    )
    assert action_rejection(ctx("12=optional", "11=legal"), st, bare) is None
    with_engine = Resolve(chip=True, engine=True, wooden_airship=False)
    assert action_rejection(ctx("12=optional", "11=forbid"), st, with_engine) is None
    # a 1-1 throw: 2 + chip 1 = 3 of 5
    refused(
        action_rejection(ctx("12=optional", "11=forbid"), short_throw(faces=(1, 1)), bare), "AIR-R-37", "makes 3 of 5"
    )


# -- Game.grounds: why a legal action is legal --------------------------------------------------


def test_grounds_of_the_chance_and_bookkeeping_actions() -> None:
    st = state()
    assert grounds(ctx(), st, Reveal(None)) == ("AIR-R-25", "AIR-R-23")
    assert grounds(ctx(), st, Reveal("FIN")) == ("AIR-R-23", "AIR-R-24")
    assert grounds(ctx(), st, DealAirship("D1")) == ("AIR-R-03",)
    assert grounds(ctx(), st, EndGo()) == ("AIR-R-42",)
    assert grounds(ctx(), st, Throw(W=(3,))) == ("AIR-R-32", "AIR-R-51")
    assert grounds(ctx(), st, cast(AirAction, "pass")) == ()


def test_the_motor_attempt_rests_on_each_card_it_cannot_do_without_air_ex_06() -> None:
    """AIR-EX-06 with reconstruction R1: 5 whites (entrepreneur 1 + Finance 2 + Hangar 1 +
    Pilot 1), 3 reds (Finance, Hangar, Pilot), the fixed white 3, the old white engine, the
    3W->1B Material.  Throwing 3 reds and the black: without the Finance, Hangar or Pilot card 3
    reds are too many (AIR-R-12); without the Engineer no white counts (AIR-R-30); without the
    Material no exchange (AIR-R-20).  The white engine changes nothing: it is not decisive."""
    st = state(board("FINWR", "HANWR", "PILWR", "ENW", "ENGW", "MATB"), display=display("MOTOR"))
    action = AttemptTarget("development:MOTOR", Dice(R=3, B=1), 1, False)
    assert action_rejection(ctx(), st, action) is None
    assert grounds(ctx(), st, action) == (
        "AIR-R-12",
        "AIR-R-15",
        "AIR-R-16",
        "AIR-R-17",
        "AIR-R-18",
        "AIR-R-20",
        "AIR-R-26",
        "AIR-R-27",
        "AIR-R-30",
        "AIR-R-29",
    )


def test_a_stage_attempt_rests_on_the_hindenburg_rules_air_r_43_44() -> None:
    st = state(board(), **HINDENBURG)
    assert grounds(ctx(), st, AttemptTarget("stage:1", Dice(W=1))) == (
        "AIR-R-26",
        "AIR-R-27",
        "AIR-R-30",
        "AIR-R-43",
        "AIR-R-44",
    )


def test_an_attempt_only_the_era_change_allows_rests_on_it_air_r_25_13() -> None:
    """AIR-R-13/25: stage 2 needs a red die; only the flipped entrepreneur tile gives one."""
    st = state(board(), era=2, **HINDENBURG)
    assert grounds(ctx(), st, AttemptTarget("stage:2", Dice(R=1))) == (
        "AIR-R-25",
        "AIR-R-13",
        "AIR-R-26",
        "AIR-R-27",
        "AIR-R-30",
        "AIR-R-43",
        "AIR-R-44",
    )
    # in era 2 a white-only attempt does not rest on the era change
    assert grounds(ctx(), st, AttemptTarget("stage:1", Dice(W=1)))[:1] == ("AIR-R-26",)
