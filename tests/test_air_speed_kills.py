"""Airships' fast paths (issue 18) give what the rules give, pinned to the rules digest.

The context keeps what a random game meets again and again: each board's company (AIR-R-12..14,
with AIR-AMB-01/25/26), the pools its exchanges leave (AIR-R-29), each target (AIR-R-26) and the
attempts at it (AIR-R-27/30).  Each test plays a cache against what the rules say and against the
check (``action_rejection``), on one context reused across states that differ in exactly one thing
the cache must notice, so a cache keyed on too little fails here; the identity checks fail when a
cache is never hit.  The effects' short cuts (a throw that settles at once never stores its faces,
the attempt's target read once, a go begun in one step) are checked against AIR-R-10, 22, 23, 34,
37 and 38.  The kernel's and the game's random draws are the ones they replaced (the same seed
plays the same game): the uniform policy draws as ``rng.choice`` over the listed actions did, and a
uniform chance step as ``rng.choice`` over ``chance_outcomes`` did.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
from test_air_rules_kills import PACK, STACKS, board, ctx, display, state
from test_air_transitions_kills import attempt as declare_and_throw
from test_air_transitions_kills import board as tboard
from test_air_transitions_kills import ctx as tctx
from test_air_transitions_kills import display as tdisplay
from test_air_transitions_kills import state as tstate
from test_air_transitions_kills import step

from rulecraft.core import Game, Rejection, _uniform
from rulecraft.evolve import evolve
from rulecraft.model.airships.actions import AttemptTarget, EndGo, NoAttempt, Resolve, Reveal, Throw
from rulecraft.model.airships.catalogue import PARAMETERS
from rulecraft.model.airships.components import Colour, Dice, FixedDie
from rulecraft.model.airships.dice import Pool
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.readings import REGISTER
from rulecraft.model.airships.rules import (
    Context,
    TargetInfo,
    action_rejection,
    allowed_throws,
    attempt_actions,
    attempt_groups,
    attempts,
    board_of,
    check,
    company,
    exchange_options,
    has_legal_target,
    open_targets,
    pool_attempts,
    pool_or_rejection,
    pools,
    throw_candidates,
)
from rulecraft.model.airships.state import AirState, Attempt, Phase, evolve_state
from rulecraft.model.airships.transitions import throw_totals
from rulecraft.registry import make_game


def checked_attempts(c: Context, st: AirState) -> list[AttemptTarget]:
    """The attempts the check accepts, built without the context's attempt cache: per open target
    (AIR-R-26), per exchange choice (AIR-R-29), per throw within AIR-R-30/31's ranges."""
    comp = company(c, st, st.seat)
    out = []
    for target in open_targets(c, st):
        for k, give_fixed in exchange_options(c, comp):
            pool = pool_or_rejection(c, comp, k, give_fixed)
            if not isinstance(pool, Pool):
                continue
            for throw in throw_candidates(c, pool, target.requirement):
                action = AttemptTarget(target.ref, throw, k, give_fixed)
                if action_rejection(c, st, action) is None:
                    out.append(action)
    return out


# -- AIR-R-26: the targets, each kept once ------------------------------------------------------------


def test_open_targets_are_kept_and_follow_each_stacks_top_card_air_r_26() -> None:
    """AIR-R-26: a displayed card and each stack's top card; asked again, the same objects come back,
    and a stack whose top card changed (or the same card on another stack) gives that card."""
    c = ctx()
    st = state(display=display("EX04"), stacks=STACKS)
    first = list(open_targets(c, st))
    assert first == [
        TargetInfo("development:EX04", "development", Dice(W=2), 5, card="EX04"),
        TargetInfo("airship:1", "airship", Dice(W=2), 6, card="L1", index=1),
        TargetInfo("airship:3", "airship", Dice(R=2), 9, card="M1", index=3),
        TargetInfo("airship:4", "airship", Dice(W=4), 12, card="L4", index=4),
    ]
    again = list(open_targets(c, st))
    assert all(a is b for a, b in zip(first, again, strict=True))
    # L1 won from stack 1: D1 (two black dice for 14) is its top card now.
    won = list(open_targets(c, attrs.evolve(st, stacks=(("D1",), (), ("M1",), ("D2", "L4")))))
    assert won[1] == TargetInfo("airship:1", "airship", Dice(B=2), 14, card="D1", index=1)
    # The same card on stack 2 is the target 'airship:2'.
    moved = list(open_targets(c, attrs.evolve(st, stacks=((), ("D1", "L1"), (), ()))))
    assert moved[1:] == [TargetInfo("airship:2", "airship", Dice(W=2), 6, card="L1", index=2)]


# -- AIR-R-12..14: a board's company, kept per board ---------------------------------------------------


def test_a_boards_company_follows_every_thing_that_gives_dice_air_r_12_13_14() -> None:
    """One context, one board at a time changed in one respect: its company changes with it.
    AIR-R-12/13: the entrepreneur's 1 W (era 1) plus FIN's W, R, B (AIR-EX-11); AIR-R-13: 1 W + 1 R
    in era 2; AIR-AMB-01 'every-success': an extra red die; AIR-AMB-26 'next-turn': a card won this
    turn gives nothing yet; AIR-AMB-25 'yes': an owned airship's dice (L1: one red) count."""
    c = ctx("25=yes", "26=next-turn", "01=every-success")
    base = board("FIN")
    st = state(base, board())
    assert company(c, st, 0).dice == Dice(W=2, R=1, B=1)
    assert board_of(c, st, 0) is board_of(c, st, 0)  # kept
    assert company(c, attrs.evolve(st, era=2), 0).dice == Dice(W=2, R=2, B=1)
    assert company(c, state(attrs.evolve(base, extra_red_dice=1)), 0).dice == Dice(W=2, R=2, B=1)
    assert company(c, state(attrs.evolve(base, won_this_turn=("FIN",))), 0).dice == Dice(W=1)
    assert company(c, state(attrs.evolve(base, airships=("L1",))), 0).dice == Dice(W=2, R=2, B=1)
    assert company(c, state(board("FINWR")), 0).dice == Dice(W=3, R=1)
    assert company(c, st, 0).dice == Dice(W=2, R=1, B=1)  # the first board, unchanged


def test_airship_cards_share_a_board_unless_they_give_dice_air_r_14_amb_25() -> None:
    """AIR-R-14 (p.3): airship cards give no dice, so two boards that differ only in their airships have
    the same company and share what the context keeps of it; under AIR-AMB-25 'yes' the airship's dice
    count (L1: one red die), so they do not."""
    c = ctx()
    plain = state(board("FIN"))
    owner = state(attrs.evolve(board("FIN"), airships=("L1",)))
    assert board_of(c, owner, 0) is board_of(c, plain, 0)
    assert company(c, owner, 0).dice == Dice(W=2, R=1, B=1)
    yes = ctx("25=yes")
    assert company(yes, plain, 0).dice == Dice(W=2, R=1, B=1)
    assert company(yes, owner, 0).dice == Dice(W=2, R=2, B=1)
    assert board_of(yes, owner, 0) is not board_of(yes, plain, 0)


def test_the_board_cache_is_emptied_when_full_and_answers_the_same() -> None:
    """A bound on memory (``board_limit``, 4096 by default): at the limit the kept boards are dropped,
    and a board met again is worked out again the same way (AIR-R-12)."""
    assert Context(PACK, REGISTER.defaults()).board_limit == 4096
    c = Context(PACK, REGISTER.defaults(), PARAMETERS.defaults(), board_limit=2)
    one, two, three = state(board("FIN")), state(board("FINWR")), state(board("HANB"))
    kept = board_of(c, one, 0)
    board_of(c, two, 0)
    assert len(c.boards) == 2
    assert board_of(c, one, 0) is kept  # both kept up to the limit
    assert company(c, three, 0).dice == Dice(W=1, B=1)
    assert len(c.boards) == 1  # emptied, then the new board
    assert board_of(c, one, 0) is not kept
    assert company(c, one, 0).dice == Dice(W=2, R=1, B=1)


# -- AIR-R-29: the pools a board's exchanges leave -------------------------------------------------------


def test_pools_are_numbered_by_exchange_and_dice_air_r_29() -> None:
    """MATB gives up 3 W for 1 B (AIR-EX-06's Material).  A board with 4 W and 1 R has two pools:
    no exchange (4 W, 1 R) and one exchange (1 W, 1 R, 1 B).  Another board whose own dice are
    1 W, 1 R, 1 B without an exchange has a pool of the same dice but a different choice, so a
    different number; the same choice on another board keeps its number."""
    c = ctx()
    material = state(board("FINWR", "HANW", "MATB"))
    found = pools(c, board_of(c, material, 0))
    assert [(k, gf, p.dice) for k, gf, p, _ in found] == [
        (0, False, Dice(W=4, R=1)),
        (1, False, Dice(W=1, R=1, B=1)),
    ]
    assert pools(c, board_of(c, material, 0)) is found  # kept on the board
    plain = state(attrs.evolve(board("HANB"), extra_red_dice=1))
    (only,) = pools(c, board_of(c, plain, 0))
    assert (only[0], only[1], only[2].dice) == (0, False, Dice(W=1, R=1, B=1))
    numbers = [found[0][3], found[1][3], only[3]]
    assert len(set(numbers)) == 3
    same = state(board("FINWR", "PILWR", "MATB"))  # 1 + 2 + 1 W is 4 W again; red 1 + 1 = 2 R
    assert [p[3] for p in pools(c, board_of(c, same, 0))][1:] != [found[1][3]]
    twin = state(board("FINWR", "HANW", "MATB"), board())  # the same dice on a board with another seat list
    assert [p[3] for p in pools(c, board_of(c, twin, 0))] == [found[0][3], found[1][3]]


def test_pools_follow_the_fixed_die_and_the_material_card_not_the_engine_air_r_18_19_20_29() -> None:
    """Three boards with the same thrown dice (4 W, 1 R) and MATB's exchange: an Engineer's fixed white
    3 (AIR-R-18) may be one of the 3 W given up (AIR-AMB-08 'yes'), so it adds a choice and stays in
    the pools without it; MAT's exchange (3 W for 2 R, AIR-EX-21) leaves other dice; a grey engine
    (AIR-R-19) changes no pool, so that board gets the very same pools."""
    c = ctx()
    plain = pools(c, board_of(c, state(board("FINWR", "HANW", "MATB")), 0))
    fixed = pools(c, board_of(c, state(board("FINWR", "HANW", "MATB", "ENW")), 0))
    w3 = FixedDie(Colour.W, 3)
    assert [(k, gf, p.dice, p.fixed) for k, gf, p, _ in fixed] == [
        (0, False, Dice(W=4, R=1), w3),
        (1, False, Dice(W=1, R=1, B=1), w3),
        (1, True, Dice(W=2, R=1, B=1), None),
    ]
    other = pools(c, board_of(c, state(board("FINWR", "HANW", "MAT")), 0))
    assert [(k, p.dice) for k, _, p, _ in other] == [(0, Dice(W=4, R=1)), (1, Dice(W=1, R=3))]
    assert pools(c, board_of(c, state(board("FINWR", "HANW", "MATB", "ENG")), 0)) is plain


# -- AIR-R-27/30: the attempts, kept per target and pool --------------------------------------------------


def test_allowed_throws_are_kept_per_pool_and_requirement_air_r_30() -> None:
    """AIR-R-30: for 1 W with 2 W in hand, 1 or 2 white dice are thrown (AIR-AMB-35 'choice', other
    colours not thrown under AIR-AMB-05 'no'); asked again, the same tuple comes back."""
    c = ctx()
    pool = Pool(Dice(W=2), None)
    target = TargetInfo("development:HANW", "development", Dice(W=1), 2, card="HANW")
    first = allowed_throws(c, pool, target)
    assert first == (Dice(W=1), Dice(W=2))
    assert allowed_throws(c, pool, target) is first
    assert allowed_throws(c, Pool(Dice(W=3), None), target) == (Dice(W=1), Dice(W=2), Dice(W=3))


def test_attempts_are_the_ones_the_check_accepts_for_each_exchange_air_r_27_29_30() -> None:
    """With and without the exchange the same dice may be in hand (1 W, 1 R, 1 B): each attempt names
    its own exchange count (AIR-R-29), and the attempts are exactly those the check accepts."""
    c = ctx()
    shown = display("HANW", "FIN3", "HANB")
    plain = state(attrs.evolve(board("HANB"), extra_red_dice=1), display=shown, stacks=STACKS)
    material = state(board("FINWR", "HANW", "MATB"), display=shown, stacks=STACKS)
    for st in (plain, material, plain, material):
        assert list(attempts(c, st)) == checked_attempts(c, st)
    exchanges = {a.exchanges for a in attempts(c, material) if a.target == "development:HANB"}
    assert exchanges == {1}  # the black die comes only from the exchange (AIR-R-27, AIR-EX-06)
    assert {a.exchanges for a in attempts(c, plain)} == {0}


def test_attempts_follow_the_targets_requirement_not_only_its_name_air_r_26_27() -> None:
    """'airship:1' is L1 (2 W) and then D1 (2 B): the company has 2 W and no black die, so it may try
    L1 but not D1 (AIR-R-27)."""
    c = ctx()
    st = state(board("HANW"), stacks=STACKS)
    assert any(a.target == "airship:1" for a in attempts(c, st))
    later = attrs.evolve(st, stacks=(("D1",), (), ("M1",), ("D2", "L4")))
    assert not any(a.target == "airship:1" for a in attempts(c, later))
    assert list(attempts(c, later)) == checked_attempts(c, later)


def test_attempt_groups_are_kept_per_target_with_each_pool_in_turn_air_r_26_29() -> None:
    """One group per open target (AIR-R-26: 2 cards, 3 stack tops), holding its attempts with each
    exchange choice in turn (AIR-R-29: none, then one); asked twice, each group is the same tuple (the
    cache is hit), and the groups together are the attempts the check accepts."""
    c = ctx()
    st = state(board("FINWR", "HANW", "MATB"), display=display("HANW", "HANB"), stacks=STACKS)
    first, again = list(attempt_groups(c, st)), list(attempt_groups(c, st))
    assert len(first) == 5
    assert all(a is b for a, b in zip(first, again, strict=True))
    assert [a for group in first for a in group] == checked_attempts(c, st)
    for group in first:
        exchanges = [a.exchanges for a in group]
        assert exchanges == sorted(exchanges)  # the pool without the exchange first
    assert {a.exchanges for a in first[1]} == {1}  # HANB's black die comes only from the exchange


def test_the_attempts_with_one_pool_are_kept_and_name_the_fixed_die_given_air_r_18_29() -> None:
    """An Engineer's fixed white 3 (AIR-R-18) may be one of the 3 W MATB gives up (AIR-R-29, AIR-AMB-08
    'yes'): with 2 W, 1 R, 1 B left, HANB (1 B) is tried with that exchange, and the attempt says the
    fixed die went.  The attempts with one pool are kept: asked again for the same target and pool, the
    same tuple comes back; another target's attempts name that target."""
    c = ctx()
    st = state(board("FINWR", "HANW", "MATB", "ENW"), display=display("HANB", "HANW"), stacks=STACKS)
    found = list(attempts(c, st))
    assert found == checked_attempts(c, st)
    given = [a for a in found if a.give_fixed]
    assert given and all(a.exchanges == 1 for a in given)
    assert AttemptTarget("development:HANB", Dice(B=1), 1, True) in given
    choices = pools(c, board_of(c, st, 0))
    hanb, hanw = (t for t in open_targets(c, st) if t.kind == "development")
    with_fixed = choices[2]
    assert with_fixed[1] is True
    once = pool_attempts(c, hanb, with_fixed)
    assert once == (AttemptTarget("development:HANB", Dice(B=1), 1, True),)
    assert pool_attempts(c, hanb, with_fixed) is once
    assert {a.target for a in pool_attempts(c, hanw, with_fixed)} == {"development:HANW"}


def said(result: object, rule: str, reason: str) -> None:
    """``result`` is a refusal citing ``rule`` in exactly these words."""
    assert isinstance(result, Rejection), result
    assert (result.rule, result.reason) == (rule, reason)


def test_refusals_say_why_in_their_own_words_air_r_04_20_23_29_37_43_47() -> None:
    """Each refusal keeps its rule and its words (the check's reasons are what a user reads): a stage
    before the Hindenburg shows (AIR-R-43, p.5: only once a stack is used up); a negative exchange count
    and an exchange without a Material card (AIR-R-29, AIR-R-20, p.4/p.6); a card revealed under the
    era tile (AIR-R-04, p.2: the tile lies between the eras); a reveal from an empty deck (AIR-R-23,
    p.3); a chip the board does not have (AIR-R-37, p.4); any move once the game is over (AIR-R-47)."""
    c = ctx()
    st = state(board("HANW"), stacks=STACKS)
    said(
        action_rejection(c, st, AttemptTarget("stage:1", Dice(W=1))),
        "AIR-R-43",
        "the Hindenburg is not revealed yet: no airship stack has been used up",
    )
    said(
        action_rejection(c, st, AttemptTarget("airship:1", Dice(W=2), exchanges=-1)),
        "AIR-R-29",
        "the number of exchanges cannot be negative",
    )
    said(
        action_rejection(c, st, AttemptTarget("airship:1", Dice(W=2), exchanges=1)),
        "AIR-R-20",
        "an exchange needs a Material card on the board",
    )
    tile = attrs.evolve(st, phase=Phase.REVEAL, deck_era1=(), era_tile_in_deck=True, deck_era2=("HANB",))
    said(action_rejection(c, tile, Reveal("HANB")), "AIR-R-04", "the era tile lies on top of the deck now")
    empty = attrs.evolve(tile, era_tile_in_deck=False, deck_era2=())
    said(action_rejection(c, empty, Reveal("HANB")), "AIR-R-23", "the deck is empty")
    short = attrs.evolve(st, phase=Phase.BONUS, attempt=Attempt("airship:1", 0, False, Dice(W=2), ((1, 1), (), ())))
    said(action_rejection(c, short, Resolve(chip=True)), "AIR-R-37", "no chip on the company board to spend")
    said(check(c, attrs.evolve(st, phase=Phase.OVER), EndGo()), "AIR-R-47", "the game is over")


def test_dice_above_the_cap_change_no_throw_air_r_30_amb_32() -> None:
    """AIR-R-30 (p.4): at most 3 dice of one colour are thrown, so a fourth or fifth die of a colour
    changes no throw; a requirement only those dice would cover (AIR-AMB-32 'uncapped') has no throw
    anyway (t_c + |F'_c| >= q_c with t_c <= 3).  Under every reading of AIR-AMB-04/05/32/35/36 the
    throws of a pool are those of the pool with each colour cut to 3."""
    requirements = (Dice(W=4), Dice(R=2, B=1), Dice(W=1, R=1, B=1), Dice(R=3), Dice(W=2, B=4))
    fixed_w3 = FixedDie(Colour.W, 3)
    for a04, a05, a32, a35, a36 in itertools.product(
        ("exact", "any"), ("no", "yes"), ("capped", "uncapped"), ("choice", "max"), ("allowed", "forbidden")
    ):
        c = ctx(f"04={a04}", f"05={a05}", f"32={a32}", f"35={a35}", f"36={a36}")
        for w, r, b in itertools.product((3, 5), repeat=3):
            for fixed in (None, fixed_w3):
                for req in requirements:
                    target = TargetInfo("airship:1", "airship", req, 10, card="L1", index=1)
                    raw = allowed_throws(c, Pool(Dice(W=w, R=r, B=b), fixed), target)
                    c.throws.clear()  # the cut pool's throws worked out afresh, not read back from raw's
                    cut = allowed_throws(c, Pool(Dice(W=min(w, 3), R=min(r, 3), B=min(b, 3)), fixed), target)
                    assert raw == cut, (a04, a05, a32, a35, a36, w, r, b, fixed, req)
                    assert all(t[colour] <= 3 for t in raw for colour in Colour)


def test_pools_beyond_the_cap_share_their_number_air_r_30_amb_32() -> None:
    """FINWR with 3 and with 4 extra red dice (AIR-AMB-01 'every-success'): 4 R and 5 R, of which 3 are
    thrown at most (AIR-R-30), so both boards' pools get the same number and share the attempts; 2 R
    is another pool.  The attempts are the ones the check accepts, the cap counted or not
    (AIR-AMB-32), for M1 (2 R) and L4 (4 W: FINWR's 3 W fall short)."""
    for reading in ("32=capped", "32=uncapped"):
        c = ctx(reading)
        four, five, two = (state(attrs.evolve(board("FINWR"), extra_red_dice=n), stacks=STACKS) for n in (3, 4, 1))
        number = [p[3] for p in pools(c, board_of(c, four, 0))]
        assert [p[3] for p in pools(c, board_of(c, five, 0))] == number
        assert [p[3] for p in pools(c, board_of(c, two, 0))] != number
        assert board_of(c, four, 0).pool_set == board_of(c, five, 0).pool_set
        for st in (four, five, two):
            assert list(attempts(c, st)) == checked_attempts(c, st)
        assert Dice(R=3) in {a.throw for a in attempts(c, five) if a.target == "airship:3"}
        assert Dice(R=3) not in {a.throw for a in attempts(c, two) if a.target == "airship:3"}


def test_stage_targets_are_kept_each_with_its_own_attempts_air_r_43_44() -> None:
    """AIR-R-43/44 (p.5): once the Hindenburg shows, its four stages are targets, each with its own
    requirement; asked again, each stage is the same kept target with the same attempts, and the
    attempts are the ones the check accepts."""
    c = ctx()
    st = state(board("FIN", "HANW"), display=display("HANB"), hindenburg=True, stacks=STACKS)
    stages = [t for t in open_targets(c, st) if t.kind == "stage"]
    assert [t.ref for t in stages] == ["stage:1", "stage:2", "stage:3", "stage:4"]
    assert [t.requirement for t in stages] == [PACK.stage(i).requirement for i in range(1, 5)]
    again = [t for t in open_targets(c, st) if t.kind == "stage"]
    assert all(a is b for a, b in zip(stages, again, strict=True))
    first, second = list(attempt_groups(c, st)), list(attempt_groups(c, st))
    assert all(a is b for a, b in zip(first, second, strict=True))
    assert list(attempts(c, st)) == checked_attempts(c, st)
    assert {a.target for a in attempts(c, st)} & {t.ref for t in stages}


def test_a_target_is_in_reach_when_one_group_is_not_empty_air_amb_23() -> None:
    """AIR-AMB-23: 2 W and no black die: HANB (1 B) and D1 (2 B) are out of reach, HANW (1 W) is not."""
    c = ctx()
    out_of_reach = state(board("HANW"), display=display("HANB"), stacks=(("D1",), (), (), ()))
    assert not has_legal_target(c, out_of_reach)
    assert has_legal_target(c, attrs.evolve(out_of_reach, display=display("HANB", "HANW")))


# -- the effects' short cuts (AIR-R-28, 34, 37, 38, 10, 22, 23) -------------------------------------------


def test_the_declared_attempt_is_recorded_with_its_exchange_air_r_28_29() -> None:
    """AIR-R-28: the target, the exchanges (AIR-R-29) and the dice are declared before the throw and
    kept for it.  5 W and 1 R with MATB (3 W for 1 B): one exchange brings the black die HANB needs."""
    c = tctx()
    st = tstate(tboard("FINWR", "S2", "S3", "MATB"), tboard("S2", nation="Germany"), display=tdisplay("HANB"))
    after = step(c, st, AttemptTarget("development:HANB", Dice(B=1), 1, False))
    assert after.phase is Phase.THROW
    assert after.attempt == Attempt("development:HANB", 1, False, Dice(B=1))


def test_a_short_throw_keeps_its_faces_for_the_chip_air_r_34_37() -> None:
    """HANB needs 1 B for 6 (pack data); FIN gives the black die (AIR-EX-11).  A 4 is short by 2: with
    the chip it stays short, and AIR-AMB-11 'legal' (the default) still offers the chip after the
    throw (AIR-R-37), so the state keeps the thrown faces and the declared target for that step."""
    c = tctx()
    st = tstate(tboard("FIN", chips=1), tboard("S2", nation="Germany"), display=tdisplay("HANB"))
    after = declare_and_throw(c, st, "development:HANB", Throw(B=(4,)))
    assert after.phase is Phase.BONUS
    assert after.attempt is not None
    assert after.attempt.target == "development:HANB"
    assert after.attempt.faces == ((), (), (4,))


def test_the_bonus_step_reads_the_throws_totals_once_air_r_33_36_37() -> None:
    """HANB needs 1 B for 6 (pack data); a 4 is short by 2, so with a chip on the board the bonus step
    follows (AIR-R-37).  That step's totals are the throw's: base 4 (AIR-R-33), no engine, no wooden
    airship, target 6, the same object each time it is asked; a state that differs (the wooden airship
    held by the seat: +1, AIR-R-36) has its own; a chip still leaves the throw short (5 of 6), so the
    attempt fails and the failure chip comes (AIR-R-41)."""
    c = tctx()
    st = tstate(tboard("FIN", chips=1), tboard("S2", nation="Germany"), display=tdisplay("HANB"))
    after = declare_and_throw(c, st, "development:HANB", Throw(B=(4,)))
    assert after.phase is Phase.BONUS
    totals = throw_totals(c, after)
    assert (totals.base, totals.engine, totals.airship, totals.target) == (4, 0, 0, 6)
    assert totals.info.ref == "development:HANB"
    assert throw_totals(c, after) is totals
    copy = evolve(after, goes=after.goes)  # equal, not the same object: worked out again, the same numbers
    assert copy is not after
    assert throw_totals(c, copy) == totals
    wooden = throw_totals(c, evolve(after, wooden_airship=0))
    assert (wooden.base, wooden.airship, wooden.target) == (4, 1, 6)
    assert throw_totals(c, after) is totals
    done = step(c, after, Resolve(chip=True))
    assert done.boards[0].departments[1] is None  # not won: 4 + 1 chip = 5 of 6
    assert done.boards[0].chips == 1  # the chip spent (AIR-R-37), the failure chip taken (AIR-R-41)


def test_an_optional_bonus_step_keeps_the_thrown_faces_air_r_34_37_amb_12() -> None:
    """AIR-AMB-12 'optional': after a short throw (HANB: 1 B for 6, pack data; a 4) with a chip on the
    board the player chooses the bonuses (AIR-R-34/37), so the state keeps the declared attempt with
    the faces thrown; worked out again from those faces on an equal copy, the throw is 4 of 6."""
    c = tctx("12=optional")
    st = tstate(tboard("FIN", chips=1), tboard("S2", nation="Germany"), display=tdisplay("HANB"))
    after = declare_and_throw(c, st, "development:HANB", Throw(B=(4,)))
    assert after.phase is Phase.BONUS
    assert after.attempt == Attempt("development:HANB", 0, False, Dice(B=1), ((), (), (4,)))
    again = throw_totals(c, evolve(after, goes=after.goes))
    assert (again.base, again.engine, again.airship, again.target) == (4, 0, 0, 6)


def test_a_throw_that_reaches_the_target_settles_at_once_air_r_34_38() -> None:
    """HANB (1 B for 6) thrown an 8: won at once (AIR-R-34), onto the hangar field (AIR-R-38); no chip
    on the board, so the go ends and the next seat reveals (AIR-R-10, AIR-R-22/23)."""
    c = tctx()
    st = tstate(tboard("FIN"), tboard("S2", nation="Germany"), display=tdisplay("HANB"))
    after = declare_and_throw(c, st, "development:HANB", Throw(B=(8,)))
    assert after.attempt is None
    assert after.boards[0].departments[1] == "HANB"
    assert (after.phase, after.seat, after.goes) == (Phase.REVEAL, 1, st.goes + 1)


def test_the_chip_decides_the_declared_target_air_r_37_38() -> None:
    """HANW needs 1 W for 2 (AIR-EX-13); a 1 is short by one, the chip makes 2: HANW is won and the
    chip goes back to the own supply (AIR-R-37, AIR-R-50)."""
    c = tctx()
    st = tstate(tboard("S1", chips=1), tboard("S2", nation="Germany"), display=tdisplay("HANW"))
    bonus = declare_and_throw(c, st, "development:HANW", Throw(W=(1,)))
    assert bonus.phase is Phase.BONUS
    after = step(c, bonus, Resolve(chip=True))
    assert after.boards[0].departments[1] == "HANW"
    assert after.boards[0].chips == 0
    assert after.supplies[0] == st.supplies[0] + 1


def test_ending_a_go_begins_the_next_seats_go_in_one_step_air_r_10_22_23() -> None:
    """AIR-R-10: play passes clockwise; AIR-R-22/23: the new go starts with a reveal while the deck has
    cards, with no attempt pending."""
    c = tctx()
    st = tstate(tboard("S1", chips=3), tboard("S2", nation="Germany"), phase=Phase.EXTRA_GO)
    after = step(c, st, EndGo())
    assert (after.phase, after.seat, after.goes, after.attempt) == (Phase.REVEAL, 1, st.goes + 1, None)
    empty = attrs.evolve(st, deck_era1=(), era_tile_in_deck=False, deck_era2=())
    assert step(c, empty, EndGo()).phase is Phase.ATTEMPT  # the deck is empty: step 1 is skipped


# -- the same draws as before: the same seed plays the same game ---------------------------------------------


def _chance_states(game: AirshipsGame) -> list[AirState]:
    """A state of every uniform chance step: dealing airships and starters (AIR-R-03/05), filling the
    display (AIR-R-06), revealing from era 1, the era tile and era 2 (AIR-R-04/23/25)."""
    rng = random.Random(7)
    st = game.new_game(4)
    seen: dict[tuple[Phase, bool, bool], AirState] = {}
    for _ in range(3000):
        if st.phase in (Phase.DEAL_AIRSHIPS, Phase.DEAL_STARTERS, Phase.FILL_DISPLAY, Phase.REVEAL):
            seen.setdefault((st.phase, bool(st.deck_era1), st.era_tile_in_deck), st)
        action = game.random_action(st, rng)
        if action is None:
            break
        st = game.transition(st, action)
    if not any(not era1 and tile for _, era1, tile in seen):  # the era tile on top, if the game ended first
        last = seen[(Phase.REVEAL, True, True)]
        seen[(Phase.REVEAL, False, True)] = attrs.evolve(last, deck_era1=())
    return list(seen.values())


def test_a_uniform_chance_step_draws_what_choice_over_its_outcomes_drew() -> None:
    """The sampler draws the action ``rng.choice(chance_outcomes)`` drew, leaving the generator in the
    same state, and every outcome is equally likely (AIR-R-03/04/05)."""
    game = make_game("air")
    assert isinstance(game, AirshipsGame)
    states = _chance_states(game)
    assert {st.phase for st in states} == {Phase.DEAL_AIRSHIPS, Phase.DEAL_STARTERS, Phase.FILL_DISPLAY, Phase.REVEAL}
    assert any(not st.deck_era1 and st.era_tile_in_deck for st in states)
    for st in states:
        outcomes = game.chance_outcomes(st)
        assert len({p for _, p in outcomes}) == 1 and sum(p for _, p in outcomes) == 1
        for seed in range(5):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert game.sample_chance(st, ours) == theirs.choice(outcomes)[0]
            assert ours.getstate() == theirs.getstate()


class _Listed(Sequence[int]):
    """A sequence that is neither a list nor a tuple."""

    def __init__(self, items: list[int]) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        return self.items[index]


class _Stub:
    def __init__(self, actions: Sequence[int]) -> None:
        self.actions = actions

    def legal_actions(self, state: object) -> Sequence[int]:
        return self.actions

    def candidates(self, state: object) -> tuple[Sequence[int], None]:
        return self.actions, None  # Game's default: the legal actions, every one legal


@pytest.mark.parametrize("kind", [list, tuple, _Listed])
def test_the_uniform_policy_draws_what_choice_over_the_listed_actions_drew(kind: type) -> None:
    """Every legal action equally likely, and the same draw for a seed as ``rng.choice(list(...))``."""
    actions = kind([3, 1, 4, 1, 5, 9, 2, 6])
    stub: Game[object, int] = _Stub(actions)  # type: ignore[assignment]
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        assert _uniform(stub, None, ours) == theirs.choice(list(actions))
        assert ours.getstate() == theirs.getstate()


# -- evolve: keyword-only fields ---------------------------------------------------------------------------


@attrs.frozen
class _Mixed:
    a: int
    b: int = attrs.field(default=2, kw_only=True)
    c: FixedDie | None = None


def test_evolve_passes_keyword_only_fields_by_keyword() -> None:
    mixed = _Mixed(1, b=5, c=FixedDie(Colour.W, 3))
    assert evolve(mixed, a=7) == attrs.evolve(mixed, a=7) == _Mixed(7, b=5, c=mixed.c)
    assert evolve(mixed, b=9) == _Mixed(1, b=9, c=mixed.c)
    assert evolve(mixed, c=None) == _Mixed(1, b=5)


# -- session 13: the throws keyed on what they read, the display's rows and the declared target kept ---------


def test_a_fixed_dies_value_changes_no_throw_only_its_colour_does_air_r_18_30_31() -> None:
    """AIR-R-30/31 (p.4, p.6): EX04 needs 2 W; with one white die and an Engineer's white fixed die
    (AIR-R-18) the one white die must be thrown, whatever value the fixed die shows (its value counts
    only in the score, AIR-R-33), so both fixed dice give the very same throws; a red fixed die does
    not count for white, so one white die falls short (AIR-R-27) and there is no throw."""
    c = ctx()
    target = TargetInfo("development:EX04", "development", Dice(W=2), 5, card="EX04")
    three = allowed_throws(c, Pool(Dice(W=1), FixedDie(Colour.W, 3)), target)
    assert three == (Dice(W=1),)
    assert allowed_throws(c, Pool(Dice(W=1), FixedDie(Colour.W, 1)), target) is three
    assert allowed_throws(c, Pool(Dice(W=1), FixedDie(Colour.R, 3)), target) == ()
    assert allowed_throws(c, Pool(Dice(W=2), FixedDie(Colour.R, 3)), target) == (Dice(W=2),)


def test_a_display_rows_targets_are_kept_by_its_fields_air_r_24_26() -> None:
    """AIR-R-24/26 (p.2-3): each row holds its department's cards; the targets of a row are kept by
    the row's fields (an empty row offers none), in field order, and are the cards' own kept targets."""
    c = ctx()
    st = state(display=display("HANW", "HANB", "FIN"), stacks=((), (), (), ()))
    found = open_targets(c, st)
    assert [t.ref for t in found] == ["development:FIN", "development:HANW", "development:HANB"]
    assert c.rows[st.display[1]] == (found[1], found[2])
    assert c.rows[st.display[0]] == (found[0],)
    assert c.rows[(None, None, None)] == ()
    kept = c.rows[st.display[1]]
    assert open_targets(c, st) == found
    assert c.rows[st.display[1]] is kept  # asked again, the row's kept targets are read back
    moved = state(display=display("HANB", "HANW"), stacks=((), (), (), ()))  # the same cards, other fields
    again = open_targets(c, moved)
    assert [t.ref for t in again] == ["development:HANB", "development:HANW"]
    assert again[0] is found[2] and again[1] is found[1]


def test_a_declared_targets_totals_read_the_kept_target_air_r_26_28_33() -> None:
    """AIR-R-28 (p.3): the target declared before the throw is the one the throw is scored against.
    HANB (1 B for 6, pack data) thrown a 4 goes to the bonus step (AIR-R-37); its totals name HANB's
    kept target, the one the display offered (AIR-R-26), with its requirement and target 6 (AIR-R-33)."""
    c = tctx()
    st = tstate(tboard("FIN", chips=1), tboard("S2", nation="Germany"), display=tdisplay("HANB"))
    (offered,) = [t for t in open_targets(c, st) if t.ref == "development:HANB"]
    after = declare_and_throw(c, st, "development:HANB", Throw(B=(4,)))
    totals = throw_totals(c, after)
    assert totals.info is offered
    assert (totals.info.requirement, totals.target, totals.base) == (Dice(B=1), 6, 4)


def test_the_open_stages_follow_their_owners_on_one_context_air_r_43_44_amb_18() -> None:
    """AIR-R-44 (p.5): a completed stage is no target any more; the stages the context keeps by their
    owners answer for each set of owners apart: stage 2 built leaves 1, 3, 4; none built, all four
    again (the same kept targets); under AIR-AMB-18 'sequential' only the first unbuilt one (stage 1,
    then stage 2 once stage 1 is built); and nothing before the Hindenburg shows (AIR-R-43)."""
    c = ctx()
    st = state(hindenburg=True, stacks=STACKS)
    first = [t for t in open_targets(c, st) if t.kind == "stage"]
    assert [t.ref for t in first] == ["stage:1", "stage:2", "stage:3", "stage:4"]
    built = attrs.evolve(st, stages=(None, 1, None, None))
    assert [t.ref for t in open_targets(c, built) if t.kind == "stage"] == ["stage:1", "stage:3", "stage:4"]
    again = [t for t in open_targets(c, st) if t.kind == "stage"]
    assert all(a is b for a, b in zip(first, again, strict=True))
    assert not [t for t in open_targets(c, attrs.evolve(st, hindenburg=False)) if t.kind == "stage"]
    seq = ctx("18=sequential")
    assert [t.ref for t in open_targets(seq, st) if t.kind == "stage"] == ["stage:1"]
    one_built = attrs.evolve(st, stages=(0, None, None, None))
    assert [t.ref for t in open_targets(seq, one_built) if t.kind == "stage"] == ["stage:2"]


def test_the_stacks_targets_are_emptied_at_the_board_limit_and_answer_the_same_air_r_26() -> None:
    """A bound on memory: the stacks' targets are kept by the stacks up to ``board_limit`` sets of
    stacks, then dropped; stacks met again give the same top cards (AIR-R-26) and the same kept
    targets, and other stacks give their own top cards."""
    c = Context(PACK, REGISTER.defaults(), PARAMETERS.defaults(), board_limit=2)
    one, two, three = STACKS, (("D1",), (), (), ()), ((), ("M1",), (), ("L4",))
    refs = [[(t.ref, t.card) for t in open_targets(c, state(stacks=s)) if t.kind == "airship"] for s in (one, two)]
    assert refs == [[("airship:1", "L1"), ("airship:3", "M1"), ("airship:4", "L4")], [("airship:1", "D1")]]
    assert len(c.stack_targets) == 2
    kept = c.stack_targets[one]
    assert [(t.ref, t.card) for t in open_targets(c, state(stacks=three)) if t.kind == "airship"] == [
        ("airship:2", "M1"),
        ("airship:4", "L4"),
    ]
    assert len(c.stack_targets) == 1  # emptied, then the new stacks
    again = [t for t in open_targets(c, state(stacks=one)) if t.kind == "airship"]
    assert again == list(kept) and all(a is b for a, b in zip(again, kept, strict=True))


def test_a_declared_airship_targets_totals_read_the_stacks_top_card_air_r_26_28_33() -> None:
    """AIR-R-28 (p.3): the airship card on top of the declared stack when the attempt is declared is
    the one scored: its kept target, the one the stacks offered (AIR-R-26); the same stack number with
    another card on top scores that card (pack data: L1 1 white for 2, D1 2 black for 14)."""
    c = tctx()
    st = tstate(tboard("FIN", chips=1), tboard("S2", nation="Germany"), stacks=(("D1", "L1"), (), (), ("D2",)))
    (offered,) = [t for t in open_targets(c, st) if t.ref == "airship:1"]
    after = declare_and_throw(c, st, "airship:1", Throw(W=(1,)))
    totals = throw_totals(c, after)
    assert totals.info is offered
    assert (totals.info.card, totals.info.requirement, totals.target, totals.base) == ("L1", Dice(W=1), 2, 1)
    black = (tboard("FIN", "HANB", chips=1), st.boards[1])  # 2 black dice: FIN's and HANB's
    lower = attrs.evolve(st, stacks=(("D1",), (), (), ("D2",)), boards=black)
    thrown = declare_and_throw(c, lower, "airship:1", Throw(B=(4, 4)))
    totals = throw_totals(c, thrown)
    assert (totals.info.card, totals.info.requirement, totals.target, totals.base) == ("D1", Dice(B=2), 14, 8)


def test_the_stacks_and_stages_targets_are_kept_and_read_again_air_r_26_43_44() -> None:
    """Asked again for the same stacks and the same stages' owners, ``open_targets`` reads the kept
    tuples (the very objects stay in the context) rather than working them out and storing new ones;
    the answers are the same targets (AIR-R-26: the top cards; AIR-R-44: the unbuilt stages)."""
    c = ctx()
    st = state(hindenburg=True, stacks=STACKS, stages=(None, 0, None, None))
    first = open_targets(c, st)
    stacks, stages = c.stack_targets[STACKS], c.stage_targets[None, 0, None, None]
    assert [t.ref for t in stacks] == ["airship:1", "airship:3", "airship:4"]
    assert [t.ref for t in stages] == ["stage:1", "stage:3", "stage:4"]
    assert open_targets(c, st) == first
    assert c.stack_targets[STACKS] is stacks and c.stage_targets[None, 0, None, None] is stages


def test_the_attempt_steps_actions_read_the_kept_groups_air_r_26_29() -> None:
    """``attempt_actions`` reads each target's kept group for the board's pools, as ``attempt_groups``
    does, and stores a group only when none is kept: asked twice, the groups stay the same objects."""
    c = ctx()
    st = state(board("FIN", "HANW"), display=display("HANB", "EX04"), stacks=STACKS)
    groups = attempt_groups(c, st)
    listed = attempt_actions(c, st)
    assert listed == list(itertools.chain.from_iterable(groups)) and listed
    assert all(a is b for a, b in zip(attempt_groups(c, st), groups, strict=True))
    fresh = ctx()
    assert attempt_actions(fresh, st) == listed  # a context with nothing kept: worked out and stored
    assert all(a is b for a, b in zip(attempt_groups(fresh, st), attempt_groups(fresh, st), strict=True))
    kept = attempt_groups(fresh, st)
    attempt_actions(fresh, st)
    assert all(a is b for a, b in zip(attempt_groups(fresh, st), kept, strict=True))


def test_a_declared_stages_totals_read_the_kept_stage_target_air_r_28_43_44() -> None:
    """AIR-R-44 (p.5): a stage's requirement and target are printed on the board, so the stage the
    throw is scored against (AIR-R-28) is the kept target the open stages offered (pack data: stage 1,
    1 white for 3); asked for again it is the same one."""
    c = tctx()
    st = tstate(tboard("FIN", chips=1), tboard("S2", nation="Germany"), hindenburg=True)
    (offered,) = [t for t in open_targets(c, st) if t.ref == "stage:1"]
    after = declare_and_throw(c, st, "stage:1", Throw(W=(1,)))
    totals = throw_totals(c, after)
    assert totals.info is offered
    assert (totals.info.kind, totals.info.requirement, totals.target, totals.base) == ("stage", Dice(W=1), 3, 1)
    assert [t for t in open_targets(c, st) if t.ref == "stage:1"] == [offered]


@pytest.mark.parametrize(
    "readings",
    [
        {},
        {"AIR-AMB-04": "any", "AIR-AMB-05": "yes"},
        {"AIR-AMB-07": "repeat", "AIR-AMB-08": "no", "AIR-AMB-32": "uncapped"},
    ],
)
def test_the_attempt_steps_actions_are_the_attempts_in_their_order_air_r_26_29_30(readings: dict[str, str]) -> None:
    """``attempt_actions`` (what ``legal_actions`` lists at step 2) is ``attempts`` flattened from the
    groups, in the same order, at every step 2 of seeded random games under readings that change the
    pools (AIR-AMB-07/08) and the throws (AIR-AMB-04/05/32); each answer is a new list, so adding
    to it (``NoAttempt``) changes no kept group."""
    game = make_game("air", readings=readings)
    assert isinstance(game, AirshipsGame)
    c, rng, met = game.ctx, random.Random(7), 0
    for _ in range(3):
        st = game.new_game(4)
        for _ in range(400):
            if st.phase is Phase.ATTEMPT:
                listed = attempt_actions(c, st)
                assert listed == list(attempts(c, st)) == list(itertools.chain.from_iterable(attempt_groups(c, st)))
                listed.append(NoAttempt())
                assert attempt_actions(c, st) == listed[:-1] and attempt_actions(c, st) is not listed
                met += 1
            action = game.random_action(st, rng)
            if action is None:
                break
            st = game.transition(st, action)
    assert met > 100


# -- the state's copy (state.evolve_state) ---------------------------------------------------------------


def test_a_states_copy_is_what_attrs_evolve_builds_with_a_fresh_hash() -> None:
    """``evolve_state`` copies the fields' dict instead of calling ``__init__``: the copy equals
    ``attrs.evolve``'s field for field, is an AirState, leaves the original as it was, clears the
    cached hash (a stale one would make two different states look alike to every dict keyed on
    states), stays frozen, and refuses a name that is no field as ``attrs.evolve`` does."""
    st = state(display=display("EX04"), stacks=STACKS)
    before = hash(st)
    changes: dict[str, Any] = {
        "phase": Phase.THROW,
        "seat": 1,
        "goes": 4,
        "attempt": Attempt("airship:1", 0, False, Dice(W=2)),
    }
    copy = evolve_state(st, **changes)
    assert copy == attrs.evolve(st, **changes) and type(copy) is AirState
    assert attrs.asdict(copy, recurse=False) == attrs.asdict(attrs.evolve(st, **changes), recurse=False)
    assert hash(copy) == hash(attrs.evolve(st, **changes)) != before
    assert hash(st) == before and st.phase is not Phase.THROW and st.attempt is None
    assert evolve_state(st) == st and evolve_state(st) is not st
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        copy.seat = 2  # type: ignore[misc]
    with pytest.raises(TypeError, match="no field 'gold'"):
        evolve_state(st, gold=1)
