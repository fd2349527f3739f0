"""Aeroplanes: the readings that were refused when chosen (issue 19, part 1), played.

Each test builds a state where the reading changes play, with the helpers of the other Aeroplanes
tests, and asserts the exact difference from the default reading (money, tiles, legal actions,
scores), the expected values taken from the reading's definition in the digest
(/work/shared/rules/aeroplanes-aviation-ascendant.md, section 5) and the rulebook (seed 002, Russian,
cited by line, "l.N"); and that the default still does what it did.

AER-AMB-30 ``placed`` is accepted and plays as ``paid``: no state reachable from set-up tells them apart
(see ``test_no_slot_ever_empties_so_amb_30_cannot_change_play``).
"""

from __future__ import annotations

import random

import attrs
import pytest
from test_aer_era import era_3_end, era_end_state

from rulecraft.core import GameOver
from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.readings import NOT_MODELLED_WHY, REGISTER
from rulecraft.model.aeroplanes.rules import check, legal_actions
from rulecraft.model.aeroplanes.scoring import final_ranking, final_scores, winners
from rulecraft.model.aeroplanes.setup import chance_outcomes
from rulecraft.model.aeroplanes.state import AerState, Airport, Phase, problems
from rulecraft.model.aeroplanes.transitions import transition
from rulecraft.registry import make_game

CTX = Context.printed()


def ctx_with(amb: str, key: str) -> Context:
    return Context.printed(readings={amb: key})


def go(ctx: Context, state: AerState, action: A.AerAction) -> AerState:
    """``action`` is legal under ``ctx``; its effect keeps every state invariant."""
    why = check(ctx, state, action)
    assert why is None, str(why)
    state = transition(ctx, state, action)
    assert problems(ctx, state) == [], problems(ctx, state)
    return state


def first_chances(ctx: Context, state: AerState) -> AerState:
    """Play the chance steps due, each time the first outcome listed (the card draws are forced)."""
    while outcomes := chance_outcomes(ctx, state):
        state = go(ctx, state, outcomes[0][0])
    return state


# ---------------------------------------------------------------------------
# AER-AMB-30: both readings pay the same players
# ---------------------------------------------------------------------------


def test_amb_30_placed_is_accepted_and_plays_as_paid() -> None:
    """AER-AMB-30 (l.132): ``placed`` is chosen like any reading (no longer refused) and, as the register
    says (``affects_play`` False, for the reason of the test below), seeded games under it go step by
    step exactly as under ``paid``.  The players lean to placing in an America (AER-R-31) so that the
    games pay its bonus and replace tiles there, where the two readings would part if they could."""
    assert not REGISTER["AER-AMB-30"].affects_play and not NOT_MODELLED_WHY
    paid, placed = make_game("aer"), make_game("aer", readings={"AER-AMB-30": "placed"})
    americas = set(CTX.pack.americas_bonus.destinations)
    bonuses = replaced = 0
    for seed in range(4):
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        a, b = paid.new_game(4), placed.new_game(4)
        for _ in range(800):
            assert a == b and paid.legal_actions(a) == placed.legal_actions(b)
            if isinstance(paid.to_move(a), GameOver):
                break
            if isinstance(paid.to_move(a), int):
                legal = paid.legal_actions(a)
                lean = [p for p in legal if isinstance(p, A.PlaceAirport) and p.destination in americas]
                action = rng_a.choice(lean or legal)
                assert rng_b.choice(lean or placed.legal_actions(b)) == action
                if isinstance(action, A.PlaceAirport) and action.destination in americas:
                    replaced += a.slots(action.destination)[action.slot] is not None
            else:
                action = paid.sample_chance(a, rng_a)
                assert placed.sample_chance(b, rng_b) == action
            a, b = paid.apply(a, action), placed.apply(b, action)
        bonuses += len(a.americas_paid)
    assert bonuses > 0, "the games pay the Americas bonus (AER-R-31)"
    assert replaced > 0, "and try to replace tiles in an America (l.128), whose players 'placed' would count"


def test_no_slot_ever_empties_so_amb_30_cannot_change_play() -> None:
    """The argument that AER-AMB-30's readings pay alike, checked on the bundled pack: the bonus is
    paid only for a tile put into an empty slot (l.132: "if you replace ... you do not get it"), a
    replacement needs every slot of the destination full (l.127), and no step empties a map slot (a
    replaced tile is swapped in place, l.128; a lost tile is the one being placed, l.115).  So once a
    replacement has happened in an America no empty-slot placement can follow there, and counting the
    replacing player (``placed``) or not (``paid``) pays the same players.  Here: North America, its
    two slots filled by two players, both paid; every placement offered afterwards is a replacement."""
    from test_aer_placing import with_card
    from test_aer_rules import give_airport, started

    state = started(4, seed=3)
    me = state.to_move
    a, b = (me + 1) % 4, (me + 2) % 4
    state = give_airport(give_airport(state, a, "North America"), b, "North America")
    state = attrs.evolve(state, americas_paid=(("North America", a), ("North America", b)))
    state = with_card(state, me, 19, 1)  # a stage-2 LR tile: it may replace a stage-1 tile (l.128)
    offered = [p for p in legal_actions(CTX, state) if isinstance(p, A.PlaceAirport)]
    into_america = [p for p in offered if p.destination == "North America"]
    assert into_america, "a stage-2 LR tile reaches North America from the home city (l.79, l.105)"
    assert all(state.slots("North America")[p.slot] is not None for p in into_america)


# ---------------------------------------------------------------------------
# AER-AMB-45: the end-of-era update after era 3
# ---------------------------------------------------------------------------


def test_amb_45_run_updates_after_era_3_then_ends_with_the_same_totals() -> None:
    """AER-AMB-45 ``run`` (l.53 read literally: "score and update at the end of the era, then go to the
    next era or end the game"): after era 3's scoring the update runs.  U1 (l.172): the two lowest
    display cards leave the game and the next two deck cards join; U2 (l.173): seat 0's full card 13
    goes to its discard pile, its 1 tile back to the supply (AER-AMB-41 ``supply``); U3 (l.174): seat
    1's card 14 (capacity 3, 1 used) is turned face down with 2 excess markers; U4 (l.175): P02 (1 VP)
    and P04 (2 VP) are banked, P01 (0 VP) leaves the game.  No era 4 follows (the era track has 3
    spaces, l.180; no income is printed for an era 4, l.179): the game is over in era 3.  Final
    scoring counts cards and passenger tiles wherever they lie (l.183-185), so the totals are the
    default's [60, 60, 40] and seat 1 still wins on money (l.186)."""
    ctx = ctx_with("AER-AMB-45", "run")
    before, skipped = era_3_end((5, 9, 30))
    state = go(ctx, before, A.TakeSubsidy())
    assert state.phase is Phase.UPDATE_DRAW and state.era == 3
    assert state.display == before.display[2:]
    assert state.removed_cards == (*before.removed_cards, *before.display[:2])
    over = first_chances(ctx, state)
    assert over.phase is Phase.OVER and over.era == 3 and legal_actions(ctx, over) == []
    assert over.display == (*before.display[2:], *before.deck[:2])
    zero, one = over.players[0], over.players[1]
    assert zero.cards == () and zero.discards == (13,)
    assert zero.supply[0] == before.players[0].supply[0] + 1
    assert [(c.number, c.excess, c.passengers) for c in one.cards] == [(14, 2, ())]
    assert zero.banked == ("P04",) and one.banked == ("P02",) and "P01" in over.removed_passengers
    assert [p.money for p in over.players] == [5, 9, 30]  # no era-4 income (l.179)
    # the default: no update, cards and passengers stay where they were (AER-R-63)
    assert skipped.phase is Phase.OVER and skipped.display == before.display
    assert skipped.players[0].cards == before.players[0].cards and skipped.players[0].discards == ()
    totals = [f.total for f in final_scores(ctx, over)]
    assert totals == [f.total for f in final_scores(CTX, skipped)] == [60, 60, 40]
    assert winners(ctx, over) == winners(CTX, skipped) == (1,)
    assert final_ranking(ctx, over) == (1, 0, 2)


@pytest.mark.parametrize("reading", ["skip", "run"])
def test_amb_45_an_era_2_update_is_the_same_under_both_readings(reading: str) -> None:
    """AER-AMB-45 is about era 3 only: after era 1 both readings update and go on to era 2 (l.179-181)."""
    ctx = ctx_with("AER-AMB-45", reading)
    state = first_chances(ctx, go(ctx, era_end_state(), A.TakeSubsidy()))
    assert state.era == 2 and state.phase is Phase.ACTION and state.players[0].discards == (13,)


def test_amb_45_run_pays_no_era_4_income_under_amb_03_twice() -> None:
    """AER-AMB-45 ``run`` with AER-AMB-03 ``twice`` (update step 7 pays "the money for the new era",
    l.179): after era 3 there is no new era and no printed amount for one, so nobody is paid."""
    ctx = Context.printed(readings={"AER-AMB-45": "run", "AER-AMB-03": "twice"})
    before, _ = era_3_end((5, 9, 30))
    over = first_chances(ctx, go(ctx, before, A.TakeSubsidy()))
    assert over.phase is Phase.OVER and [p.money for p in over.players] == [5, 9, 30]


# ---------------------------------------------------------------------------
# AER-AMB-41: airport tiles on a card discarded as full
# ---------------------------------------------------------------------------


def era_2_start(reading: str, tiles_on_full_card: int = 1) -> tuple[Context, AerState]:
    """era_end_state (seat 0's card 13 full, carrying P01 + P04, with ``tiles_on_full_card`` stage-1 tiles
    on it) through the marker, the era-1 update (l.171-181) and the die, then seat 0 to act."""
    ctx = ctx_with("AER-AMB-41", reading)
    state = era_end_state()
    p = state.players[0]
    card = p.cards[0]
    moved = card.tiles - tiles_on_full_card
    state = attrs.evolve(
        state,
        players=(
            attrs.evolve(
                p,
                cards=(attrs.evolve(card, tiles=tiles_on_full_card),),
                supply=(p.supply[0] + moved, p.supply[1], p.supply[2]),
            ),
            *state.players[1:],
        ),
    )
    state = first_chances(ctx, go(ctx, state, A.TakeSubsidy()))
    assert state.era == 2 and state.phase is Phase.ACTION
    return ctx, attrs.evolve(state, first_player=0, to_move=0)


def test_amb_41_supply_a_full_card_goes_to_the_discard_pile_and_its_tile_to_the_supply() -> None:
    """The default ``supply`` (l.173: a full plane goes to the personal discard pile; only face-down
    cards keep their tiles "for later eras", l.174): card 13 is discarded and its 1 tile is back in the
    supply, so no placement can take it from card 13."""
    _ctx, state = era_2_start("supply")
    before = era_end_state().players[0]
    zero = state.players[0]
    assert zero.cards == () and zero.discards == (13,) and zero.supply[0] == before.supply[0] + 1


def test_amb_41_keep_the_tile_stays_usable_on_the_discarded_card() -> None:
    """``keep``: the card is discarded with its tile still on it (kept among the cards, no capacity left:
    0 excess markers, no passengers, l.175), the supply unchanged, and a placement from card 13 is legal
    (a stage-1 tile from the home city along a connection, l.77)."""
    ctx, state = era_2_start("keep")
    before = era_end_state().players[0]
    zero = state.players[0]
    assert zero.discards == () and zero.supply == before.supply
    assert [(c.number, c.tiles, c.excess, c.passengers) for c in zero.cards] == [(13, 1, 0, ())]
    # a card with unused capacity is turned face down as by default (l.174): seat 1's card 14, 2 unused
    assert [(c.number, c.tiles, c.excess) for c in state.players[1].cards] == [(14, 1, 2)]
    from_13 = [a for a in legal_actions(ctx, state) if isinstance(a, A.PlaceAirport) and a.card == 13]
    assert from_13 and all(check(ctx, state, a) is None for a in from_13)
    # it carries nothing more: every claim needs room on a card (l.144), and card 13 has none
    assert not any(isinstance(a, A.ClaimPassenger) and a.card == 13 for a in legal_actions(ctx, state))
    # the default has no card 13 left to place from, and seat 0 holds no other card
    _, default = era_2_start("supply")
    assert not any(isinstance(a, A.PlaceAirport) for a in legal_actions(CTX, default))


def test_amb_41_keep_a_full_card_with_no_tile_left_is_discarded() -> None:
    """``keep`` with no tile on the full card: there is nothing to keep, so it is discarded as usual
    (l.173); the supply holds the tile taken off it before the marker, and nothing more."""
    _ctx, state = era_2_start("keep", tiles_on_full_card=0)
    before = era_end_state().players[0]
    zero = state.players[0]
    assert zero.cards == () and zero.discards == (13,) and zero.supply[0] == before.supply[0] + 1


def test_amb_41_lost_the_tile_can_never_be_placed() -> None:
    """``lost``: the tile is out of play for good: not back in the supply, and no placement from card 13
    is offered or accepted (AER-R-54 named); the card scores its VP at the end as any other (l.183)."""
    ctx, state = era_2_start("lost")
    before = era_end_state().players[0]
    zero = state.players[0]
    assert zero.supply == before.supply and zero.discards == ()
    assert not any(isinstance(a, A.PlaceAirport) for a in legal_actions(ctx, state))
    keep_ctx, kept = era_2_start("keep")
    from_13 = [a for a in legal_actions(keep_ctx, kept) if isinstance(a, A.PlaceAirport) and a.card == 13]
    why = check(ctx, state, from_13[0])
    assert why is not None and why.rule == "AER-R-54"
    assert why.reason == "card 13 was discarded full: its tiles are lost"
    assert [(c.number, c.tiles, c.excess) for c in state.players[1].cards] == [(14, 1, 2)]
    assert final_scores(ctx, state)[0].cards == CTX.pack.card(13).vp


# ---------------------------------------------------------------------------
# AER-AMB-09: a placement action with no attempt
# ---------------------------------------------------------------------------


def test_amb_09_pass_a_placement_action_may_place_nothing() -> None:
    """AER-AMB-09 ``pass`` (l.76: "you may, but need not, place all your airport tiles in one action",
    read as allowing none): at the start of a turn StopPlacing is the turn's action, offered and
    accepted; it changes nothing but the turn, which passes clockwise (l.46).  The default
    ``attempt`` (l.55: "you MUST take one action") refuses it there, citing AER-R-13."""
    from test_aer_rules import started

    ctx = ctx_with("AER-AMB-09", "pass")
    state = started(4, seed=3)
    me = state.to_move
    assert A.StopPlacing() in legal_actions(ctx, state)
    after = go(ctx, state, A.StopPlacing())
    assert after.phase is Phase.ACTION and after.to_move == (me + 1) % 4 and after.turns_in_round == 1
    assert after.players == state.players and after.map == state.map
    assert legal_actions(ctx, state) == [*legal_actions(CTX, state), A.StopPlacing()]
    why = check(CTX, state, A.StopPlacing())
    assert why is not None and why.rule == "AER-R-13" and "AER-AMB-09" in why.reason
    assert A.StopPlacing() not in legal_actions(CTX, state)


def test_amb_09_pass_leaves_the_steps_inside_a_placement_action_alone() -> None:
    """Under ``pass`` StopPlacing still ends a placement action after its attempts (AER-R-13), and the
    other steps (an advantage pick before a roll, l.154) are still refused at the start of a turn."""
    from test_aer_placing import example_state

    ctx = ctx_with("AER-AMB-09", "pass")
    state, me = example_state(False)
    why = check(ctx, state, A.PickAdvantages((0, 1), (2, 2)))
    assert why is not None and why.rule == "AER-R-39"
    placed = go(ctx, state, A.PlaceAirport(6, "Kenya", 0, "Ethiopia"))
    placed = go(ctx, placed, A.RiskThrow(12, 0))
    assert placed.phase is Phase.PLACING and A.StopPlacing() in legal_actions(ctx, placed)
    assert go(ctx, placed, A.StopPlacing()).to_move == (me + 1) % 4


# ---------------------------------------------------------------------------
# AER-AMB-13: upgrading one's own tile beside an empty slot
# ---------------------------------------------------------------------------


def frankfurt_upgrade_state() -> tuple[AerState, int]:
    """Seat ``me`` has a stage-1 tile in Frankfurt (2 slots, the other empty), a stage-2 card (17) with
    one tile and a stage-1 card (1) with one tile; Paris, Berlin, London, Amsterdam are the homes."""
    from test_aer_placing import with_card
    from test_aer_rules import give_airport, started

    state = started(4, homes=("Paris", "Berlin", "London", "Amsterdam"), seed=5)
    me = state.to_move
    state = give_airport(state, me, "Frankfurt")
    state = with_card(with_card(state, me, 17, 1), me, 1, 1)
    assert state.slots("Frankfurt") == (Airport(me, 1), None)
    return state, me


def test_amb_13_anytime_upgrades_an_own_tile_beside_an_empty_slot() -> None:
    """AER-AMB-13 ``anytime``: the own stage-1 tile in Frankfurt is upgraded by the stage-2 tile although
    Frankfurt's other slot is empty; no reach and no roll (l.85: no test "when you upgrade"): the tile is
    placed at once, the stage-1 tile goes back to the supply (AER-AMB-15 ``supply``).  The default
    ``full`` refuses it: "if there is an empty slot you must use it" (l.127, AER-R-29 (d))."""
    ctx = ctx_with("AER-AMB-13", "anytime")
    state, me = frankfurt_upgrade_state()
    upgrade = A.PlaceAirport(17, "Frankfurt", 0)
    assert [a for a in legal_actions(ctx, state) if isinstance(a, A.PlaceAirport) and a.origin is None] == [upgrade]
    after = go(ctx, state, upgrade)
    assert after.phase is Phase.PLACING and after.slots("Frankfurt") == (Airport(me, 2), None)
    p, q = state.players[me], after.players[me]
    assert q.supply == (p.supply[0] + 1, p.supply[1], p.supply[2]) and q.money == p.money
    assert [(c.number, c.tiles) for c in q.cards] == [(1, 1), (17, 0)]
    why = check(CTX, state, upgrade)
    assert why is not None and why.rule == "AER-R-29" and "(d)" in why.reason
    assert not any(isinstance(a, A.PlaceAirport) and a.origin is None for a in legal_actions(CTX, state))


def test_amb_13_anytime_keeps_the_other_slot_rules() -> None:
    """Under ``anytime`` the rest of l.122-129 holds: the upgrade goes onto the own tile only (one own
    tile a destination, l.126: not into the empty slot), by a higher stage only (l.128: the stage-1
    card cannot upgrade a stage-1 tile) and never onto the home tile (l.129), whose city has an empty
    slot too."""
    ctx = ctx_with("AER-AMB-13", "anytime")
    state, me = frankfurt_upgrade_state()
    home = state.players[me].home
    assert home is not None
    home_slot = next(i for i, a in enumerate(state.slots(home)) if a is not None and a.owner == me)
    assert None in state.slots(home)
    for action, words in (
        (A.PlaceAirport(17, "Frankfurt", 1), "(c)"),
        (A.PlaceAirport(1, "Frankfurt", 0), "(e)"),
        (A.PlaceAirport(17, home, home_slot), "(f)"),
    ):
        why = check(ctx, state, action)
        assert why is not None and why.rule == "AER-R-29" and words in why.reason, (action, why)
        assert action not in legal_actions(ctx, state)


# ---------------------------------------------------------------------------
# AER-AMB-12: replacing an opponent's tile without a risk roll
# ---------------------------------------------------------------------------


def kenya_full_state() -> tuple[AerState, int, int]:
    """Risk example 1's table (l.119): ``me`` in Ethiopia with the LR card 6, an opponent in East Africa;
    Kenya (red from Ethiopia, 2 slots) full with two opponents' stage-1 tiles; ``me`` holds the stage-2
    card 17 with one tile and £4."""
    from test_aer_placing import example_state, with_card
    from test_aer_rules import give_airport

    state, me = example_state(False)
    other, third = (me + 1) % 4, (me + 2) % 4
    state = give_airport(give_airport(state, other, "Kenya"), third, "Kenya")
    state = with_card(state, me, 17, 1)
    return state, me, other


def test_amb_12_any_replacing_an_opponent_needs_no_roll() -> None:
    """AER-AMB-12 ``any``: replacing the opponent's stage-1 tile in Kenya by a stage-2 tile is an
    "upgrade" (l.85: no risk test when upgrading), so it is placed at once, £0 spent, and the replaced
    tile goes back to its owner's supply (l.128).  The default ``own``: a new airport for this player,
    tested on the red connection: one roll, 12+ with +2 for the opponent there (l.88, l.110)."""
    state, me, other = kenya_full_state()
    action = A.PlaceAirport(17, "Kenya", 0, "Ethiopia")
    default = go(CTX, state, action)
    assert default.phase is Phase.RISK_ROLL
    assert default.turn.attempt is not None and default.turn.attempt.rolls == ((12, 2),)
    ctx = ctx_with("AER-AMB-12", "any")
    assert action in legal_actions(ctx, state)
    after = go(ctx, state, action)
    assert after.phase is Phase.PLACING and after.slots("Kenya")[0] == Airport(me, 2)
    assert after.players[me].money == state.players[me].money == 4
    assert after.players[other].supply[0] == state.players[other].supply[0] + 1


def test_amb_12_any_still_rolls_into_an_empty_slot_and_needs_reach() -> None:
    """Under ``any`` a tile into an empty slot is a new airport as before: risk example 1's hop into East
    Africa's empty slot still rolls 12+, then 12+ with +2 (l.119; here opponents sit in Kenya too, so
    the first roll gets +2 as well, l.110); and a replacement still needs an own airport to start from
    (l.77)."""
    state, _me, _other = kenya_full_state()
    ctx = ctx_with("AER-AMB-12", "any")
    hop = A.PlaceAirport(6, "East Africa", 1, "Ethiopia", "Kenya")
    rolled = go(ctx, state, hop)
    assert rolled.phase is Phase.RISK_ROLL
    assert rolled.turn.attempt == go(CTX, state, hop).turn.attempt
    assert rolled.turn.attempt is not None and rolled.turn.attempt.rolls == ((12, 2), (12, 2))
    why = check(ctx, state, A.PlaceAirport(17, "Kenya", 0, "Persia"))
    assert why is not None and why.rule == "AER-R-14"


# ---------------------------------------------------------------------------
# AER-AMB-21: do the ‡ routes Dakar - South America and Europe - North America need an LR card?
# ---------------------------------------------------------------------------


def plain_card_state() -> tuple[AerState, int, str]:
    """Seat ``me`` (home in Europe) with airports in Dakar and Ethiopia and the plain (not LR) stage-1
    card 1 holding one tile."""
    from test_aer_placing import with_card
    from test_aer_rules import give_airport, started

    state = started(4, seed=3)
    me = state.to_move
    home = state.players[me].home
    assert home is not None and CTX.europe(home)
    state = give_airport(give_airport(state, me, "Dakar"), me, "Ethiopia")
    return with_card(state, me, 1, 1), me, home


def test_amb_21_no_lr_a_plain_card_flies_the_dagger_routes() -> None:
    """AER-AMB-21 ``no-lr`` (only connections printed with the LR symbol need an LR plane, l.81): a tile
    from the plain card 1 goes from the European home to North America over the ‡ route, three rolls
    of 14+ (l.105), and from Dakar to South America, two rolls of 14+ (l.104).  The default ``lr``
    (the † note, l.107, singles out Java - Australia as needing none) refuses both, citing AER-R-16."""
    state, _me, home = plain_card_state()
    ctx = ctx_with("AER-AMB-21", "no-lr")
    for action, rolls in (
        (A.PlaceAirport(1, "North America", 0, home), ((14, 0), (14, 0), (14, 0))),
        (A.PlaceAirport(1, "South America", 0, "Dakar"), ((14, 0), (14, 0))),
    ):
        assert action in legal_actions(ctx, state)
        attempt = go(ctx, state, action).turn.attempt
        assert attempt is not None and attempt.rolls == rolls
        why = check(CTX, state, action)
        assert why is not None and why.rule == "AER-R-16", why
        assert action not in legal_actions(CTX, state)


def test_amb_21_no_lr_still_needs_an_lr_card_on_an_lr_symbol_connection() -> None:
    """Under ``no-lr`` a connection printed with the LR symbol (Ethiopia - India, l.81) still needs a
    tile from an LR card: the plain card's tile is refused there (AER-R-16), as by default."""
    state, _me, _home = plain_card_state()
    action = A.PlaceAirport(1, "India", 0, "Ethiopia")
    for ctx in (ctx_with("AER-AMB-21", "no-lr"), CTX):
        why = check(ctx, state, action)
        assert why is not None and why.rule == "AER-R-16", why
        assert action not in legal_actions(ctx, state)


# ---------------------------------------------------------------------------
# AER-AMB-10: may a tile placed in this action be the origin of a later attempt?
# ---------------------------------------------------------------------------


def vienna_state() -> tuple[AerState, int]:
    """Seat ``me`` has a stage-1 tile in Vienna, the plain stage-1 card 13 with two tiles and the stage-2
    card 17 with one; an opponent holds one of Warsaw's two slots (l.124).  Vienna - Warsaw is white
    (l.86); Warsaw - Stockholm is red, and Vienna has no connection to Stockholm (the map fragment)."""
    from test_aer_placing import with_card
    from test_aer_rules import give_airport, started

    state = started(4, homes=("Paris", "London", "Amsterdam", "Rome"), seed=5)
    me = state.to_move
    state = give_airport(give_airport(state, me, "Vienna"), (me + 1) % 4, "Warsaw")
    state = with_card(with_card(state, me, 13, 2), me, 17, 1)
    assert not CTX.pack.graph().has_edge("Vienna", "Stockholm")
    return state, me


def test_amb_10_fixed_a_tile_placed_in_this_action_is_no_origin() -> None:
    """AER-AMB-10: the first attempt places a tile in Warsaw over the white connection from Vienna, no roll
    (l.86).  Default ``chain`` (l.77: a destination connected to one "where you already have an
    airport"): Warsaw is now an origin, so the second tile may try Stockholm over the red connection
    (one roll, 12+, l.88).  ``fixed``: only the airports at the action's start count, so the Stockholm
    attempt is refused (AER-R-14) and not offered; attempts from Vienna still are."""
    state, me = vienna_state()
    first = A.PlaceAirport(13, "Warsaw", 1, "Vienna")
    second = A.PlaceAirport(13, "Stockholm", 0, "Warsaw")
    fixed = ctx_with("AER-AMB-10", "fixed")
    for ctx in (CTX, fixed):
        assert second not in legal_actions(ctx, state)  # before the action Warsaw is not the player's
    chained = go(CTX, state, first)
    assert chained.phase is Phase.PLACING and chained.slots("Warsaw")[1] == Airport(me, 1)
    assert second in legal_actions(CTX, chained)
    attempt = go(CTX, chained, second).turn.attempt
    assert attempt is not None and attempt.rolls == ((12, 0),)
    kept = go(fixed, state, first)
    assert kept.slots("Warsaw") == chained.slots("Warsaw") and kept.players == chained.players
    assert kept.turn.origins == state.airports(me)
    why = check(fixed, kept, second)
    assert why is not None and why.rule == "AER-R-14"
    assert why.reason == "your airport in Warsaw was placed in this action"
    offered = [a for a in legal_actions(fixed, kept) if isinstance(a, A.PlaceAirport)]
    assert second not in offered and {a.origin for a in offered} <= {*state.airports(me), None}
    assert A.PlaceAirport(13, "Berlin", 0, "Vienna") in offered  # Vienna - Berlin, white (the map)


def test_amb_10_fixed_still_upgrades_a_tile_placed_in_this_action() -> None:
    """Under ``fixed`` an upgrade needs no origin (l.85; AER-AMB-13): the tile just placed fills Warsaw's
    last slot, and the stage-2 tile may replace it (l.128) in the same action, as under ``chain``; the
    action's record of origins lasts only until the turn ends (l.46)."""
    state, me = vienna_state()
    fixed = ctx_with("AER-AMB-10", "fixed")
    upgrade = A.PlaceAirport(17, "Warsaw", 1)
    for ctx in (CTX, fixed):
        placed = go(ctx, state, A.PlaceAirport(13, "Warsaw", 1, "Vienna"))
        legal = legal_actions(ctx, placed)
        assert legal.count(upgrade) == 1
        done = go(ctx, go(ctx, placed, upgrade), A.StopPlacing())
        assert done.slots("Warsaw")[1] == Airport(me, 2) and done.turn.origins is None


def test_amb_10_fixed_a_tile_placed_in_this_action_is_upgraded_never_placed_again() -> None:
    """Under ``fixed`` the tile just placed in Warsaw (l.86, white from Vienna) is no origin, but Vienna
    still reaches Warsaw: Warsaw takes no second tile of the player (AER-R-29, l.124-125: a player has
    one airport in a destination), only the upgrade by the stage-2 card, with no route (AER-R-30,
    l.85).  So after a second tile goes to Berlin (white from Vienna, the map), Warsaw is offered as
    that one upgrade, as it was before, never as a new airport from Vienna."""
    state, me = vienna_state()
    fixed = ctx_with("AER-AMB-10", "fixed")
    upgrade = A.PlaceAirport(17, "Warsaw", 1)
    placed = go(fixed, state, A.PlaceAirport(13, "Warsaw", 1, "Vienna"))
    assert placed.slots("Warsaw")[1] == Airport(me, 1)
    assert [a for a in legal_actions(fixed, placed) if getattr(a, "destination", None) == "Warsaw"] == [upgrade]
    berlin = go(fixed, placed, A.PlaceAirport(13, "Berlin", 0, "Vienna"))
    assert berlin.phase is Phase.PLACING and berlin.slots("Warsaw") is placed.slots("Warsaw")
    assert [a for a in legal_actions(fixed, berlin) if getattr(a, "destination", None) == "Warsaw"] == [upgrade]
    why = check(fixed, berlin, A.PlaceAirport(17, "Warsaw", 0, "Vienna"))
    assert why is not None


def test_amb_10_the_default_json_has_no_origins_field() -> None:
    """The record of origins exists only under ``fixed``: the default state's JSON (the protocol's
    canonical form) is unchanged, and ``fixed``'s round-trips."""
    from rulecraft.model.aeroplanes.game import AeroplanesGame

    state, me = vienna_state()
    first = A.PlaceAirport(13, "Warsaw", 1, "Vienna")
    game = AeroplanesGame.configured()
    assert "origins" not in game.state_to_json(go(CTX, state, first))["turn"]
    kept = go(ctx_with("AER-AMB-10", "fixed"), state, first)
    data = game.state_to_json(kept)
    assert data["turn"]["origins"] == list(state.airports(me))
    assert game.state_from_json(data) == kept


# ---------------------------------------------------------------------------
# AER-AMB-15: where a replaced tile goes
# ---------------------------------------------------------------------------


def replaced_in_kenya(ctx: Context, other_cards: tuple[tuple[int, int, int | None], ...]) -> tuple[AerState, AerState]:
    """kenya_full_state with the Kenya tile's owner holding ``other_cards`` (number, tiles, excess); ``me``
    replaces that stage-1 tile by the stage-2 tile, the red roll thrown at 12 (12 + 2 >= 12, l.88, l.110:
    passed, nothing to pay).  The state before, and the state after the tile is placed."""
    from rulecraft.model.aeroplanes.state import OwnedCard

    state, _me, other = kenya_full_state()
    p = state.players[other]
    cards = tuple(OwnedCard(n, tiles, excess=excess) for n, tiles, excess in other_cards)
    used = sum(tiles for n, tiles, _ in other_cards if CTX.card(n).tile_stage == 1)
    p = attrs.evolve(p, cards=cards, supply=(p.supply[0] - used, p.supply[1], p.supply[2]))
    numbers = {n for n, _, _ in other_cards}
    state = attrs.evolve(
        state,
        players=(*state.players[:other], p, *state.players[other + 1 :]),
        display=tuple(n for n in state.display if n not in numbers),
        deck=tuple(n for n in state.deck if n not in numbers),
    )
    assert problems(CTX, state) == [], problems(CTX, state)
    after = go(ctx, go(ctx, state, A.PlaceAirport(17, "Kenya", 0, "Ethiopia")), A.RiskThrow(12, 0))
    assert after.phase is Phase.PLACING
    return state, after


def test_amb_15_card_the_replaced_tile_goes_onto_its_owners_card() -> None:
    """AER-AMB-15 ``card``: the replaced stage-1 tile is "returned to its owner" (l.128) onto one of the
    owner's stage-1 cards with room for it (l.64: a card carries tiles of its own stage), ready to be
    placed again; the owner holds the plain card 1 (room for 1) and the LR card 11 (holding 1 of 2), and
    the model puts it on the LR card.  The default ``supply``: back in the owner's supply, which only a
    new card brings back into play (l.115)."""
    cards = ((1, 0, None), (11, 1, None))
    other = kenya_full_state()[2]
    before, card = replaced_in_kenya(ctx_with("AER-AMB-15", "card"), cards)
    assert [(c.number, c.tiles) for c in card.players[other].cards] == [(1, 0), (11, 2)]
    assert card.players[other].supply == before.players[other].supply
    _, supply = replaced_in_kenya(CTX, cards)
    assert [(c.number, c.tiles) for c in supply.players[other].cards] == [(1, 0), (11, 1)]
    assert supply.players[other].supply[0] == before.players[other].supply[0] + 1
    assert card.slots("Kenya") == supply.slots("Kenya")


@pytest.mark.parametrize(
    ("cards", "onto"),
    [
        (((1, 0, None), (13, 0, None)), 1),  # two plain stage-1 cards with room: the lower number
        (((13, 2, None), (18, 0, None)), None),  # card 13 holds all it shows; card 18 is stage 2
        (((13, 1, 0),), None),  # card 13 was discarded full holding a tile (AER-AMB-41 keep / lost)
        (((13, 1, 2),), 13),  # a face-down card with room takes it (l.174: its tiles are used later)
    ],
)
def test_amb_15_card_needs_a_card_of_its_stage_with_room(
    cards: tuple[tuple[int, int, int | None], ...], onto: int | None
) -> None:
    """Under ``card`` the tile goes onto a card of its stage that shows more tiles than it holds and was
    not discarded full; when the owner has none, it goes to the supply as by default."""
    other = kenya_full_state()[2]
    before, after = replaced_in_kenya(ctx_with("AER-AMB-15", "card"), cards)
    held = {c.number: c.tiles for c in before.players[other].cards}
    want = {n: t + 1 if n == onto else t for n, t in held.items()}
    assert {c.number: c.tiles for c in after.players[other].cards} == want
    assert after.players[other].supply[0] == before.players[other].supply[0] + (1 if onto is None else 0)


def test_amb_15_card_an_upgrade_puts_ones_own_tile_back_on_a_card() -> None:
    """With ``card`` and AER-AMB-13 ``anytime``: upgrading one's own stage-1 tile in Frankfurt by the
    stage-2 tile of card 17 puts the stage-1 tile back on card 1 (a stage-1 card with room), while card
    17 gives up its tile; the supply does not change."""
    ctx = Context.printed(readings={"AER-AMB-13": "anytime", "AER-AMB-15": "card"})
    state, me = frankfurt_upgrade_state()
    p = state.players[me]
    cards = tuple(attrs.evolve(c, tiles=0) if c.number == 1 else c for c in p.cards)
    state = attrs.evolve(
        state,
        players=(
            *state.players[:me],
            attrs.evolve(p, cards=cards, supply=(p.supply[0] + 1, p.supply[1], p.supply[2])),
            *state.players[me + 1 :],
        ),
    )
    after = go(ctx, state, A.PlaceAirport(17, "Frankfurt", 0))
    q = after.players[me]
    assert [(c.number, c.tiles) for c in q.cards] == [(1, 1), (17, 0)] and q.supply == state.players[me].supply
    default = go(ctx_with("AER-AMB-13", "anytime"), state, A.PlaceAirport(17, "Frankfurt", 0)).players[me]
    assert [(c.number, c.tiles) for c in default.cards] == [(1, 0), (17, 0)]
    assert default.supply[0] == state.players[me].supply[0] + 1


def test_amb_45_run_the_update_after_era_3_counts_among_the_updates_done() -> None:
    """AER-AMB-45 ``run``: era 3's update removes two more display cards (U1, l.172), three updates in
    all, 2 cards each: the cards-conserved invariant allows 6 removed at the end of such a game, while
    under the default (no update after era 3, AER-R-63) 6 would be two more than its 2 updates allow."""
    from rulecraft.invariants.aeroplanes import check_cards

    ctx = ctx_with("AER-AMB-45", "run")
    before, _ = era_3_end((5, 9, 30))
    over = first_chances(ctx, go(ctx, before, A.TakeSubsidy()))
    assert over.phase is Phase.OVER and over.removed_cards == (*before.removed_cards, *before.display[:2])
    # the example's earlier updates removed only 2; as two real updates would, 4 more leave the deck
    over = attrs.evolve(over, deck=over.deck[4:], removed_cards=(*over.removed_cards, *over.deck[:4]))
    assert len(over.removed_cards) == 6
    assert list(check_cards(ctx, over)) == []
    assert list(check_cards(CTX, over)) == ["6 cards removed from the display after 2 updates"]
