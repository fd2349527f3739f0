"""Aeroplanes effects: pure functions state -> state (attrs.evolve, compiled: rulecraft.evolve).

They run only on actions ``rules.check`` accepted, so they assert rather than
re-check.  Each names the rules it carries out.  The scope is rules.py's:
set-up (delegated to setup.py), the turn and round structure, buying a plane,
claiming a passenger, taking a subsidy or the black marker, and the end of an
era: scoring, the update in its printed order (chance steps for the card
draws, the waiting refill and the die), the next era's Income step, and the
end of the game.

The end of an era runs as these steps (each deterministic stretch inside one
transition, each random draw a chance action with exact odds):

    TakeSubsidy (empty section: the marker, AER-R-48, R-06)
      -> scoring: VP += scoring.era_scores (AER-R-49..52)
      -> era 3: Phase.OVER (AER-R-63/64; AER-AMB-45 skip: no update; run: U1..U6 first, then OVER)
      -> U1 discard the two lowest display cards (AER-R-53)
      -> Phase.UPDATE_DRAW: DrawCard x2 (AER-R-53; fewer if the deck runs out, AER-AMB-55)
      -> U2 full planes, U3 partly used planes, U4 passengers off the cards, U5 overflow (AER-R-54..57)
      -> Phase.REFILL: RefillWaiting per empty slot, Rome to Berlin (AER-R-58)
      -> U7 money (AER-R-59; AER-AMB-03 once: paid by the Income step), U8 era marker (AER-R-60)
      -> Phase.ROUND_DIE: the marker-taker rolls (AER-R-62; AER-AMB-04 taker: no roll)
      -> the new era's Income step (setup.start_era: AER-R-02, R-03, R-61)
"""

from __future__ import annotations

from typing import Any, assert_never

from rulecraft.model.aeroplanes.actions import (
    Abort,
    AdvantageThrow,
    AerAction,
    BuyPlane,
    ChooseHome,
    ClaimPassenger,
    CoverShortfall,
    DealWaitingPassenger,
    Decline,
    DrawCard,
    DrawFirstPlayer,
    EndClaims,
    KeepThrow,
    PickAdvantages,
    PlaceAirport,
    PlayEngineMaintenance,
    PlayNightFlights,
    PlayRadioBeacons,
    RefillWaiting,
    RiskThrow,
    RollFirstPlayerDie,
    RollForAdvantages,
    StopPlacing,
    TakeAdvantage,
    TakeSubsidy,
)
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import (
    ADVANTAGE_PRICE,
    DARING_PILOT,
    ENGINE_MAINTENANCE,
    INCREASED_PRODUCTION,
    NIGHT_FLIGHTS,
    RADIO_BEACONS,
    attempt_rolls,
    me,
    plane_cost,
    room,
    throw_pending,
    tiles_loaded,
)
from rulecraft.model.aeroplanes.scoring import era_scores
from rulecraft.model.aeroplanes.setup import choose_home, deal, next_waiting_slot, start_era
from rulecraft.model.aeroplanes.state import (
    FRESH_TURN,
    AerState,
    Airport,
    Attempt,
    OwnedCard,
    Phase,
    PlayerState,
    TurnState,
    Waiting,
    evolve,  # attrs.evolve compiled per class, slot by slot: the hot path
    evolve_player,  # the player's fields copied whole
    evolve_state,  # the state's fields copied whole
    map_with,
)


def _bump(counts: tuple[int, int, int, int, int], i: int, by: int) -> tuple[int, int, int, int, int]:
    a = list(counts)
    a[i] += by
    return (a[0], a[1], a[2], a[3], a[4])


def transition(ctx: Context, state: AerState, action: AerAction) -> AerState:
    """The effect of a legal ``action`` (the caller checked it with ``rules.check``)."""
    match action:
        case DealWaitingPassenger() | DrawFirstPlayer():
            return deal(ctx, state, action)
        case ChooseHome():
            return choose_home(ctx, state, action)  # the last choice starts era 1 (AER-SET-10, R-02, R-03)
        case DrawCard():
            if state.phase is Phase.UPDATE_DRAW:
                return update_draw(ctx, state, action)
            return draw_card(state, action)
        case RefillWaiting():
            return refill_waiting(ctx, state, action)
        case RollFirstPlayerDie():
            if not state.marker_in_pool:
                return era_die(ctx, state, action)
            return roll_first_player_die(state, action)
        case BuyPlane():
            return buy_plane(ctx, state, action)
        case ClaimPassenger():
            return claim_passenger(ctx, state, action)
        case TakeSubsidy():
            if state.subsidy_pool == 0:
                return take_marker(ctx, state)
            return take_subsidy(state)
        case PlaceAirport():
            return place_airport(ctx, state, action)
        case StopPlacing() | Decline() | Abort():
            return end_turn(state)  # AER-R-13 stop; R-26/27: the tile stays on its card, spending is lost
        case RiskThrow():
            return risk_throw(ctx, state, action)
        case CoverShortfall():
            return cover_shortfall(ctx, state, action)
        case KeepThrow():
            return keep_throw(ctx, state)
        case PlayRadioBeacons():
            return play_radio_beacons(state)
        case PlayEngineMaintenance():
            return play_engine_maintenance(ctx, state)
        case TakeAdvantage(type=kind):  # AER-R-39(a): £1, the tile, and the action is over
            i = kind - 2
            p = me(state)
            players = players_with_me(state, money=p.money - ADVANTAGE_PRICE, advantages=_bump(p.advantages, i, +1))
            return end_turn(state, players=players, advantage_supply=_bump(state.advantage_supply, i, -1))
        case RollForAdvantages():
            players = players_with_me(state, money=me(state).money - ADVANTAGE_PRICE)  # AER-R-39: £1 first
            return evolve_state(state, players=players, phase=Phase.ADVANTAGE_ROLL)
        case AdvantageThrow(faces=faces):
            return evolve_state(state, turn=evolve(state.turn, advantage_dice=faces), phase=Phase.ADVANTAGE_PICK)
        case PickAdvantages(types=types):
            held, supply = state.players[state.to_move].advantages, state.advantage_supply
            for kind in (t for t in types if t is not None):  # AER-R-39: the tiles into the hand
                held, supply = _bump(held, kind - 2, +1), _bump(supply, kind - 2, -1)
            return end_turn(state, players=players_with_me(state, advantages=held), advantage_supply=supply)
        case PlayNightFlights():
            return give_back(state, NIGHT_FLIGHTS, turn=evolve(state.turn, claims_left=state.turn.claims_left + 1))
        case EndClaims():
            return end_turn(state)  # AER-R-46: Night Flights claims still open are lost (the tiles were played)
        case _:
            assert_never(action)


# ---------------------------------------------------------------------------
# The turn and the round
# ---------------------------------------------------------------------------


def end_turn(state: AerState, **changes: Any) -> AerState:
    """AER-R-04 (l.46): the action is over; play passes clockwise (to the left).  When every player has
    acted, the round is over and the first player rolls the first-player die (AER-R-05, l.48).
    ``changes``: the action's last effects, made in the same copy of the state."""
    acted = state.turns_in_round + 1
    n = len(state.players)
    if acted == n:
        return evolve_state(
            state,
            turns_in_round=acted,
            turn=FRESH_TURN,
            phase=Phase.ROUND_DIE,
            die_roller=state.first_player,
            **changes,
        )
    return evolve_state(
        state, turns_in_round=acted, turn=FRESH_TURN, to_move=(state.to_move + 1) % n, phase=Phase.ACTION, **changes
    )


def players_with_me(state: AerState, **changes: Any) -> tuple[PlayerState, ...]:
    """The players with the one to move changed (for a single copy of the state with other changes)."""
    seat = state.to_move
    return (*state.players[:seat], evolve_player(state.players[seat], **changes), *state.players[seat + 1 :])


def roll_first_player_die(state: AerState, action: RollFirstPlayerDie) -> AerState:
    """AER-R-05 (l.48-51): count ``value`` players to the left of the roller; the die goes where the count
    stops (back to the roller when it goes round the table).  The new round starts with that player."""
    assert state.die_roller is not None
    first = (state.die_roller + action.value) % len(state.players)
    return evolve_state(
        state,
        first_player=first,
        to_move=first,
        die_roller=None,
        round=state.round + 1,
        turns_in_round=0,
        phase=Phase.ACTION,
    )


# ---------------------------------------------------------------------------
# Action 2: place airport tiles (AER-R-13..31)
# ---------------------------------------------------------------------------


def place_airport(ctx: Context, state: AerState, action: PlaceAirport) -> AerState:
    """AER-R-13: begin an attempt.  An upgrade (R-30) or a route with no roll (white, R-21) places at once;
    otherwise the first NCR roll is due (R-20).  The tile stays on its card until it is placed or lost.
    AER-AMB-12 ``any``: replacing an opponent's tile is an upgrade too: it still needs reach (l.77, the
    player has no airport there), but no NCR roll."""
    # AER-R-19: only a new airport (an origin) faces the NCR test; an upgrade of one's own tile rolls nothing.
    rolls: tuple[tuple[int, int], ...] = ()
    if action.origin is not None:
        found = attempt_rolls(ctx, state, state.to_move, action.origin, action.destination, action.via)
        rolls = tuple([(r.target, r.bonus) for r in found])
    if ctx.r("AER-AMB-12") == "any" and state.slots(action.destination)[action.slot] is not None:  # AER-AMB-12 any
        rolls = ()  # AER-AMB-12: any replacement by a higher stage is an upgrade, which rolls nothing (l.85)
    attempt = Attempt(action.card, action.destination, action.origin, action.via, action.slot, rolls)
    turn = evolve(state.turn, placements=state.turn.placements + 1, attempt=attempt)
    if ctx.r("AER-AMB-10") == "fixed" and turn.origins is None:  # AER-AMB-10 fixed: the action's first attempt
        turn = evolve(turn, origins=state.airports(state.to_move))  # AER-AMB-10: its airports now
    if not rolls:
        return place_tile(ctx, state, turn)
    return evolve_state(state, turn=turn, phase=Phase.RISK_ROLL)


def risk_throw(ctx: Context, state: AerState, action: RiskThrow) -> AerState:
    """AER-R-20: the throw.  AER-R-47 with AER-AMB-26 ``reroll``: a Radio Beacons holder first chooses to
    throw again or keep it (Phase.COVER, the throw pending); otherwise it is kept at once (keep_throw)."""
    attempt = state.turn.attempt
    assert attempt is not None
    attempt = evolve(attempt, throw=(action.total, action.skulls), pending=throw_pending(ctx, state))
    if attempt.pending:
        return evolve_state(state, turn=evolve(state.turn, attempt=attempt), phase=Phase.COVER)
    return keep_throw(ctx, state, attempt)


def keep_throw(ctx: Context, state: AerState, thrown: Attempt | None = None) -> AerState:
    """AER-R-28 (l.113-117): one EF tile a skull of the kept throw, and at the limit the collapse: the tile
    goes to the supply, every EF tile is discarded, the action ends.  Then pass or cover (R-23); under
    AER-AMB-26 ``at-once`` a Radio Beacons holder may still throw again (its skulls stay taken)."""
    attempt = thrown or state.turn.attempt  # ``thrown``: the attempt with the throw just made (risk_throw)
    assert attempt is not None and attempt.throw is not None
    total, skulls = attempt.throw
    if attempt.pending:
        attempt = evolve(attempt, pending=False)
    p = me(state)
    ef = p.engine_failures + skulls
    if ef >= ctx.pack.risk.engine_failure_limit:
        stage = ctx.pack.card(attempt.card).tile_stage
        supply = list(p.supply)
        supply[stage - 1] += 1
        cards = tuple([evolve(c, tiles=c.tiles - 1) if c.number == attempt.card else c for c in p.cards])
        players = players_with_me(state, engine_failures=0, supply=(supply[0], supply[1], supply[2]), cards=cards)
        return end_turn(state, players=players)
    players = players_with_me(state, engine_failures=ef) if skulls else state.players
    target, bonus = attempt.rolls[0]
    beacons = ctx.r("AER-AMB-26") == "at-once" and p.held(RADIO_BEACONS) > 0
    if total + bonus >= target and len(attempt.rolls) == 1 and not beacons:
        # AER-R-24/25: the last roll passed, nothing to decide: placed, with the EF tiles, in one copy of the
        # state (the turn's attempt names the same card, destination and slot; its throw is done with)
        return place_tile(ctx, state, state.turn, players)
    return evolve_state(state, players=players, turn=evolve(state.turn, attempt=attempt), phase=Phase.COVER)


def play_radio_beacons(state: AerState) -> AerState:
    """AER-R-47 (l.160): the tile goes back to the supply and all three risk dice are thrown again; the
    thrown-away throw's skulls are ignored (under AER-AMB-26 ``at-once`` they were already taken)."""
    attempt = state.turn.attempt
    assert attempt is not None
    attempt = evolve(attempt, throw=None, pending=False)
    return give_back(state, RADIO_BEACONS, turn=evolve(state.turn, attempt=attempt), phase=Phase.RISK_ROLL)


# ---------------------------------------------------------------------------
# Advantage tiles (AER-R-39..47)
# ---------------------------------------------------------------------------


def give_back(state: AerState, kind: int, mine: dict[str, Any] | None = None, **changes: Any) -> AerState:
    """AER-R-41 (l.161): a played advantage tile goes back to the supply at once.  ``mine``: the player's
    other changes, ``changes`` the state's, made in the same copy."""
    p = me(state)
    players = players_with_me(state, advantages=_bump(p.advantages, kind - 2, -1), **(mine or {}))
    return evolve_state(state, players=players, advantage_supply=_bump(state.advantage_supply, kind - 2, +1), **changes)


def play_engine_maintenance(ctx: Context, state: AerState) -> AerState:
    """AER-R-44 (l.157): every engine-failure tile is discarded and the tile goes back to the supply.
    AER-AMB-50 ``free``: the turn's action is still to come; ``action``: it was the turn's action."""
    turn = evolve(state.turn, maintenance_done=True)
    state = give_back(state, ENGINE_MAINTENANCE, {"engine_failures": 0}, turn=turn)
    if ctx.r("AER-AMB-50") == "action":
        return end_turn(state)
    return state


def cover_shortfall(ctx: Context, state: AerState, action: CoverShortfall) -> AerState:
    """AER-R-23 (l.121): £1 a point to the bank and Daring Pilots back to the supply (R-42/43); go on."""
    attempt = state.turn.attempt
    assert attempt is not None
    if action.money == 0 and action.pilots == 0:  # a throw that passed: nothing to pay
        return next_roll(ctx, state)
    p = me(state)
    players = players_with_me(
        state, money=p.money - action.money, advantages=_bump(p.advantages, DARING_PILOT - 2, -action.pilots)
    )
    attempt = evolve(attempt, spent=attempt.spent + action.money)
    state = evolve_state(
        state,
        players=players,
        advantage_supply=_bump(state.advantage_supply, DARING_PILOT - 2, action.pilots),
        turn=evolve(state.turn, attempt=attempt),
    )
    return next_roll(ctx, state)


def next_roll(ctx: Context, state: AerState) -> AerState:
    """AER-R-25: the current roll is done; the next one is due, or the tile is placed (R-24)."""
    attempt = state.turn.attempt
    assert attempt is not None
    attempt = evolve(attempt, rolls=attempt.rolls[1:], throw=None)
    turn = evolve(state.turn, attempt=attempt)
    if attempt.rolls:
        return evolve_state(state, turn=turn, phase=Phase.RISK_ROLL)
    return place_tile(ctx, state, turn)


def place_tile(
    ctx: Context, state: AerState, turn: TurnState, before: tuple[PlayerState, ...] | None = None
) -> AerState:
    """AER-R-24, R-29 (l.122-129): the tile from its card into the chosen slot; a replaced tile goes back to
    its owner's supply (AER-AMB-15 ``supply``; ``card``: onto one of the owner's cards, when one has room);
    AER-R-31 (l.131-132): the Americas bonus for an empty slot.  ``turn``: the turn with the attempt (the
    state's is the one before it; ``before``: the players before the tile is placed, default the state's;
    the state is copied once, here)."""
    attempt = turn.attempt
    assert attempt is not None
    seat = state.to_move
    stage = ctx.pack.card(attempt.card).tile_stage
    players = list(before or state.players)
    p = players[seat]
    mine: dict[str, Any] = {}
    slots = state.slots(attempt.destination)
    old = slots[attempt.slot]
    if old is not None:
        owner = players[old.owner]
        back = card_for_returned_tile(ctx, owner, old.stage)  # AER-AMB-15 card: onto a card, if one has room
        supply = list(owner.supply)
        supply[old.stage - 1] += 1
        players[old.owner] = evolve_player(owner, supply=(supply[0], supply[1], supply[2]))
        if back is not None:  # AER-AMB-15 card: the tile goes onto that card, not into the supply
            onto = [evolve(c, tiles=c.tiles + 1) if c.number == back else c for c in owner.cards]  # AER-AMB-15
            players[old.owner] = evolve_player(owner, cards=tuple(onto))  # AER-AMB-15
    new = (*slots[: attempt.slot], Airport(seat, stage), *slots[attempt.slot + 1 :])
    board = map_with(state.map, attempt.destination, new)  # its board and airports carried over
    americas_paid = state.americas_paid
    bonus = ctx.pack.americas_bonus
    if old is None and attempt.destination in bonus.destinations:
        paid = [a for a, _ in americas_paid if a == attempt.destination]
        if len(paid) < bonus.first_players and (attempt.destination, seat) not in americas_paid:
            mine |= {"money": p.money + bonus.money, "vp": p.vp + bonus.vp}
            americas_paid = (*americas_paid, (attempt.destination, seat))
    mine["cards"] = tuple(
        [evolve(c, tiles=c.tiles - 1) if c.number == attempt.card else c for c in players[seat].cards]
    )
    players[seat] = evolve_player(players[seat], **mine)  # after an upgrade's own replaced tile went back
    return evolve_state(
        state,
        players=tuple(players),
        map=board,
        americas_paid=americas_paid,
        phase=Phase.PLACING,
        turn=evolve(turn, attempt=None),
    )


def card_for_returned_tile(ctx: Context, owner: PlayerState, stage: int) -> int | None:
    """AER-AMB-15 ``card`` (l.128: the replaced tile is "returned to its owner"): the owner's card it goes
    back onto, ready to be placed again: a card of its stage (l.64) holding fewer tiles than it shows, and
    not one discarded full (AER-AMB-41); the model chooses for the owner an LR card first (its tiles go
    everywhere a plain card's go, and hop, l.81-83), then the lowest number.  None (the default
    ``supply``, or no such card): the tile goes to the owner's supply."""
    if ctx.r("AER-AMB-15") != "card":  # AER-AMB-15 supply: no card takes it
        return None
    fits: list[tuple[bool, int]] = []  # AER-AMB-15
    for c in owner.cards:  # AER-AMB-15
        printed = ctx.pack.card(c.number)  # AER-AMB-15
        if printed.tile_stage == stage and c.tiles < printed.tile_count and c.excess != 0:  # AER-AMB-15
            fits.append((not printed.long_range, c.number))  # AER-AMB-15: an LR card first, then the lowest
    return min(fits)[1] if fits else None  # AER-AMB-15


# ---------------------------------------------------------------------------
# Action 1: buy one plane card
# ---------------------------------------------------------------------------


def buy_plane(ctx: Context, state: AerState, action: BuyPlane) -> AerState:
    """AER-R-08 (l.62): pay the price + £1 per card skipped to the bank; AER-R-09 (l.63-64): load the card's
    tiles of its stage from the supply (AER-AMB-07: as far as it holds; AER-R-45: one more with Increased
    Production, whose tile goes back to the supply); AER-R-10 (l.65): then the next deck card is drawn."""
    player = me(state)
    # AER-R-12: the printed card (price, tiles and their stage, LR icon, VP, capacity) is pack data.
    printed = ctx.pack.card(action.number)
    cost = plane_cost(ctx, state, action.number)
    loaded = tiles_loaded(ctx, player, action.number, action.increased_production)
    stage = printed.tile_stage - 1
    supply = tuple([n - loaded if i == stage else n for i, n in enumerate(player.supply)])
    cards = tuple(sorted((*player.cards, OwnedCard(action.number, tiles=loaded)), key=lambda c: c.number))
    advantages = player.advantages
    advantage_supply = state.advantage_supply
    if action.increased_production:
        i = INCREASED_PRODUCTION - 2
        advantages = _bump(advantages, i, -1)
        advantage_supply = _bump(advantage_supply, i, +1)
    players = players_with_me(state, money=player.money - cost, supply=supply, cards=cards, advantages=advantages)
    display = tuple([c for c in state.display if c != action.number])
    if state.deck:
        return evolve_state(
            state, players=players, display=display, advantage_supply=advantage_supply, phase=Phase.CARD_DRAW
        )
    # AER-AMB-55 'shrink': nothing left to draw
    return end_turn(state, players=players, display=display, advantage_supply=advantage_supply)


def draw_card(state: AerState, action: DrawCard) -> AerState:
    """AER-R-10 (l.65): the drawn card joins the display in number order; the purchase is over."""
    display = tuple(sorted((*state.display, action.number)))
    deck = tuple([c for c in state.deck if c != action.number])
    return end_turn(state, display=display, deck=deck)


# ---------------------------------------------------------------------------
# Action 3: claim one passenger tile
# ---------------------------------------------------------------------------


def claim_passenger(ctx: Context, state: AerState, action: ClaimPassenger) -> AerState:
    """AER-R-34/37 (l.141-151): the tile leaves the waiting area (its slot stays empty until the refill,
    AER-R-58) or the overflow area, and rides on the chosen card (AER-R-36).  AER-R-46 (l.159): a player
    holding Night Flights (or with Night Flights claims open) stays in the claim action (Phase.CLAIMING)."""
    changes: dict[str, Any] = {}
    if action.overflow:
        overflow = list(state.overflow)
        overflow.remove(action.id)
        changes["overflow"] = tuple(overflow)
    else:
        changes["waiting"] = tuple(
            [Waiting(w.city, tuple([None if t == action.id else t for t in w.slots])) for w in state.waiting]
        )
    player = me(state)
    cards = tuple(
        [
            evolve(c, passengers=tuple(sorted((*c.passengers, action.id)))) if c.number == action.card else c
            for c in player.cards
        ]
    )
    changes["players"] = players_with_me(state, cards=cards)
    turn = state.turn
    if state.phase is Phase.CLAIMING:  # AER-R-46: an extra claim uses up one Night Flights claim
        turn = evolve(turn, claims_left=turn.claims_left - 1)
    if turn.claims_left > 0 or player.held(NIGHT_FLIGHTS) > 0:
        return evolve_state(state, turn=turn, phase=Phase.CLAIMING, **changes)  # AER-R-46: more claims
    return end_turn(state, **changes)


# ---------------------------------------------------------------------------
# Action 5: take a subsidy
# ---------------------------------------------------------------------------


def take_subsidy(state: AerState) -> AerState:
    """AER-R-48 (l.163): £1 from the subsidy section to the player (the black marker is not in this layer)."""
    assert state.subsidy_pool > 0
    players = players_with_me(state, money=me(state).money + 1)
    return end_turn(state, players=players, subsidy_pool=state.subsidy_pool - 1)


# ---------------------------------------------------------------------------
# The black marker and the end of an era (AER-R-06, R-48..62)
# ---------------------------------------------------------------------------


def take_marker(ctx: Context, state: AerState) -> AerState:
    """AER-R-48 (l.163): the subsidy section is empty, so the player takes the black marker; AER-R-06
    (l.52-53): the action round ends at once (nobody else acts, no die between rounds), and the era is
    scored (AER-R-49)."""
    assert state.subsidy_pool == 0 and state.marker_in_pool
    state = evolve_state(state, marker_in_pool=False, marker_taker=state.to_move, turn=FRESH_TURN)
    return score_era(ctx, state)


def score_era(ctx: Context, state: AerState) -> AerState:
    """AER-R-49 (l.164-165): majorities (AER-R-50), then profitability (AER-R-51/52), added to the VP
    track at once (scoring.era_scores).  After era 3 the game ends (AER-R-63, AER-AMB-45 ``skip``: no
    update; ``run``: the update's steps U1..U6 first, l.53 read literally): the track holds every era's
    VP and final scoring is ``scoring.final_scores`` of the OVER state (cards and passengers added to
    the track), the winner ``scoring.winners`` (AER-R-64)."""
    scores = era_scores(ctx, state, state.era)
    players = tuple(evolve_player(p, vp=p.vp + scores[seat]) for seat, p in enumerate(state.players))
    state = evolve_state(state, players=players)
    if state.era == 3 and ctx.r("AER-AMB-45") == "skip":
        return evolve_state(state, phase=Phase.OVER)
    return update_display(ctx, state)  # AER-AMB-45 run: after era 3 too


def update_display(ctx: Context, state: AerState) -> AerState:
    """U1, AER-R-53 (l.172): the two lowest-numbered display cards leave the game; the next two deck cards
    are then drawn (chance steps in Phase.UPDATE_DRAW; fewer when the deck runs out, AER-AMB-55)."""
    gone = state.display[:2]
    state = evolve_state(state, display=state.display[2:], removed_cards=tuple(sorted((*state.removed_cards, *gone))))
    if draws_due(ctx, state):
        return evolve_state(state, phase=Phase.UPDATE_DRAW)
    return update_planes(ctx, state)


def draws_due(ctx: Context, state: AerState) -> bool:
    """U1 (l.172): "add the next two deck cards".  Outside a purchase the display is full whenever the
    deck holds a card (AER-R-10), so the two cards discarded are the two places to fill; fewer once the
    deck runs out (AER-AMB-55)."""
    return bool(state.deck) and len(state.display) < ctx.pack.display_size


def update_draw(ctx: Context, state: AerState, action: DrawCard) -> AerState:
    """U1, AER-R-53 (l.172): the drawn card joins the display in number order."""
    display = tuple(sorted((*state.display, action.number)))
    deck = tuple([c for c in state.deck if c != action.number])
    state = evolve_state(state, display=display, deck=deck)
    if draws_due(ctx, state):
        return state
    return update_planes(ctx, state)


def update_planes(ctx: Context, state: AerState) -> AerState:
    """U2, AER-R-54 (l.173): a card whose capacity is fully used goes to its owner's discard pile (its tiles
    back to the supply, AER-AMB-41 ``supply``).  Under AER-AMB-41 ``keep`` / ``lost`` a full card still
    holding tiles is the discarded card with its tiles on it, kept among the cards with no capacity left
    (face down, 0 excess markers: it carries nothing and adds no unused capacity, AER-R-51); ``keep``: its
    tiles can still be placed, ``lost``: never (rules.place_card_rejection); it joins the discard pile at
    the first update after its last tile is gone.  U3, AER-R-55 (l.174): a card with unused capacity is
    turned face down, the excess markers showing that unused capacity; its tiles stay on it.  U4, AER-R-56
    (l.175): the passenger tiles on the cards go beside the discard pile if they score VP, else out of
    the game.  Then U5."""
    removed = list(state.removed_passengers)
    players = []
    for p in state.players:
        supply = list(p.supply)
        discards = list(p.discards)
        banked = list(p.banked)
        kept = []
        for card in p.cards:
            for t in card.passengers:  # U4
                (banked if ctx.pack.passenger(t).vp > 0 else removed).append(t)
            unused = room(ctx, card)
            if unused == 0 and card.tiles and ctx.r("AER-AMB-41") != "supply":  # AER-AMB-41 keep / lost
                kept.append(evolve(card, excess=0, passengers=()))  # AER-AMB-41: discarded, tiles on it
            elif unused == 0:  # U2
                discards.append(card.number)
                supply[ctx.pack.card(card.number).tile_stage - 1] += card.tiles
            else:  # U3
                kept.append(evolve(card, excess=unused, passengers=()))
        players.append(
            evolve_player(
                p,
                supply=(supply[0], supply[1], supply[2]),
                cards=tuple(kept),
                discards=tuple(sorted(discards)),
                banked=tuple(sorted(banked)),
            )
        )
    state = evolve_state(state, players=tuple(players), removed_passengers=tuple(sorted(removed)))
    return update_overflow(ctx, state)


def update_overflow(ctx: Context, state: AerState) -> AerState:
    """U5, AER-R-57 (l.176): from each waiting section, in board order Rome to Berlin (AER-AMB-43), the
    lowest-slot tile bound outside Europe moves to the overflow area, until it holds its cap (8).
    Then U6: the refill (chance steps in Phase.REFILL) if a slot is empty and the bag holds a tile."""
    cap = ctx.pack.waiting_area.overflow_capacity
    overflow = list(state.overflow)
    waiting = []
    for w in state.waiting:
        slots = list(w.slots)
        if len(overflow) < cap:
            for j, t in enumerate(slots):
                if t is not None and not ctx.europe(ctx.pack.passenger(t).destination):
                    overflow.append(t)
                    slots[j] = None
                    break
        waiting.append(Waiting(w.city, tuple(slots)))
    state = evolve_state(state, overflow=tuple(overflow), waiting=tuple(waiting))
    return refill_or_finish(ctx, state)


def refill_or_finish(ctx: Context, state: AerState) -> AerState:
    if state.bag and next_waiting_slot(state) is not None:
        return state if state.phase is Phase.REFILL else evolve_state(state, phase=Phase.REFILL)
    return update_money_and_era(ctx, state)


def refill_waiting(ctx: Context, state: AerState, action: RefillWaiting) -> AerState:
    """U6, AER-R-58 (l.177-178): the drawn tile fills the next empty waiting slot, sections Rome to Berlin;
    ¤ tiles are placed like any other (one pass, AER-AMB-44; slots stay empty once the bag is)."""
    where = next_waiting_slot(state)
    assert where is not None and action.id in state.bag
    i, j = where
    bag = list(state.bag)
    bag.remove(action.id)
    w = state.waiting[i]
    section = Waiting(w.city, (*w.slots[:j], action.id, *w.slots[j + 1 :]))
    state = evolve_state(state, bag=tuple(bag), waiting=(*state.waiting[:i], section, *state.waiting[i + 1 :]))
    return refill_or_finish(ctx, state)


def update_money_and_era(ctx: Context, state: AerState) -> AerState:
    """U7, AER-R-59 (l.179): the new era's money; AER-AMB-03 ``once``: it is the Income step's payment
    (setup.start_era), so nothing here (``twice``: paid here as well).  U8, AER-R-60 (l.180): the era
    marker moves on.  U9, AER-R-62 (l.181): the marker-taker rolls the first-player die (AER-AMB-04
    ``roll``); ``taker``: the marker-taker is first player without a roll.  After era 3 (AER-AMB-45
    ``run``) these steps prepare no era: the game is over."""
    if state.era == 3:  # AER-AMB-45 run: no era 4 follows (no income, era marker or die): the game ends
        return evolve_state(state, phase=Phase.OVER)  # AER-AMB-45
    era = state.era + 1
    if ctx.r("AER-AMB-03") == "twice":
        # The new era is 2 or 3, whose income has no home-city modifier (AER-R-03): the bare amount.
        paid = ctx.pack.income.by_era[era - 1]
        state = evolve_state(state, players=tuple(evolve_player(p, money=p.money + paid) for p in state.players))
    taker = state.marker_taker
    assert taker is not None
    state = evolve_state(state, era=era, turns_in_round=0)
    if ctx.r("AER-AMB-04") == "taker":
        return start_era(ctx, evolve_state(state, first_player=taker))
    return evolve_state(state, phase=Phase.ROUND_DIE, die_roller=taker)


def era_die(ctx: Context, state: AerState, action: RollFirstPlayerDie) -> AerState:
    """U9, AER-R-62 (l.181): the die passes as in AER-R-05, counting from the marker-taker; the player it
    reaches is first player of the new era, which starts with its Income step (AER-R-02, R-03, R-61)."""
    assert state.die_roller is not None
    first = (state.die_roller + action.value) % len(state.players)
    return start_era(ctx, evolve_state(state, first_player=first, die_roller=None))


__all__ = [
    "buy_plane",
    "claim_passenger",
    "draw_card",
    "end_turn",
    "era_die",
    "refill_waiting",
    "roll_first_player_die",
    "score_era",
    "take_marker",
    "take_subsidy",
    "transition",
    "update_draw",
]
