"""Aeroplanes effects: pure functions state -> state (attrs.evolve).

They run only on actions ``rules.check`` accepted, so they assert rather than
re-check.  Each names the rules it carries out.  The scope is rules.py's:
set-up (delegated to setup.py), the turn and round structure, buying a plane,
claiming a passenger, taking a £1 subsidy.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulecraft.core import RulecraftError
from rulecraft.model.aeroplanes.actions import (
    AerAction,
    BuyPlane,
    ChooseHome,
    ClaimPassenger,
    DealWaitingPassenger,
    DrawCard,
    DrawFirstPlayer,
    RollFirstPlayerDie,
    TakeSubsidy,
)
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import INCREASED_PRODUCTION, check, me, plane_cost, tiles_loaded
from rulecraft.model.aeroplanes.setup import choose_home, deal
from rulecraft.model.aeroplanes.state import AerState, OwnedCard, Phase, PlayerState, TurnState, Waiting


def _bump(counts: tuple[int, int, int, int, int], i: int, by: int) -> tuple[int, int, int, int, int]:
    a = list(counts)
    a[i] += by
    return (a[0], a[1], a[2], a[3], a[4])


def with_player(state: AerState, seat: int, player: PlayerState) -> AerState:
    return attrs.evolve(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def with_me(state: AerState, **changes: Any) -> AerState:
    return with_player(state, state.to_move, attrs.evolve(me(state), **changes))


def transition(ctx: Context, state: AerState, action: AerAction) -> AerState:
    """The effect of a legal ``action`` (the caller checked it with ``rules.check``)."""
    if isinstance(action, DealWaitingPassenger | DrawFirstPlayer):
        return deal(ctx, state, action)
    if isinstance(action, ChooseHome):
        return choose_home(ctx, state, action)  # the last choice starts era 1 (AER-SET-10, R-02, R-03)
    if isinstance(action, DrawCard):
        return draw_card(state, action)
    if isinstance(action, RollFirstPlayerDie):
        return roll_first_player_die(state, action)
    if isinstance(action, BuyPlane):
        return buy_plane(ctx, state, action)
    if isinstance(action, ClaimPassenger):
        return claim_passenger(ctx, state, action)
    if isinstance(action, TakeSubsidy):
        return take_subsidy(state)
    raise RulecraftError(f"{action!r} has no effect in this layer")


def apply(ctx: Context, state: AerState, action: AerAction) -> AerState:
    """``check`` then ``transition``: raises on an illegal action."""
    why = check(ctx, state, action)
    if why is not None:
        raise RulecraftError(str(why))
    return transition(ctx, state, action)


# ---------------------------------------------------------------------------
# The turn and the round
# ---------------------------------------------------------------------------


def end_turn(state: AerState) -> AerState:
    """AER-R-04 (l.46): the action is over; play passes clockwise (to the left).  When every player has
    acted, the round is over and the first player rolls the first-player die (AER-R-05, l.48)."""
    acted = state.turns_in_round + 1
    n = len(state.players)
    if acted == n:
        return attrs.evolve(
            state, turns_in_round=acted, turn=TurnState(), phase=Phase.ROUND_DIE, die_roller=state.first_player
        )
    return attrs.evolve(state, turns_in_round=acted, turn=TurnState(), to_move=(state.to_move + 1) % n)


def roll_first_player_die(state: AerState, action: RollFirstPlayerDie) -> AerState:
    """AER-R-05 (l.48-51): count ``value`` players to the left of the roller; the die goes where the count
    stops (back to the roller when it goes round the table).  The new round starts with that player."""
    assert state.die_roller is not None
    first = (state.die_roller + action.value) % len(state.players)
    return attrs.evolve(
        state,
        first_player=first,
        to_move=first,
        die_roller=None,
        round=state.round + 1,
        turns_in_round=0,
        phase=Phase.ACTION,
    )


# ---------------------------------------------------------------------------
# Action 1: buy one plane card
# ---------------------------------------------------------------------------


def buy_plane(ctx: Context, state: AerState, action: BuyPlane) -> AerState:
    """AER-R-08 (l.62): pay the price + £1 per card skipped to the bank; AER-R-09 (l.63-64): load the card's
    tiles of its stage from the supply (AER-AMB-07: as far as it holds; AER-R-45: one more with Increased
    Production, whose tile goes back to the supply); AER-R-10 (l.65): then the next deck card is drawn."""
    player = me(state)
    printed = ctx.pack.card(action.number)
    cost = plane_cost(ctx, state, action.number)
    loaded = tiles_loaded(ctx, player, action.number, action.increased_production)
    stage = printed.tile_stage - 1
    supply = tuple(n - loaded if i == stage else n for i, n in enumerate(player.supply))
    cards = tuple(sorted((*player.cards, OwnedCard(action.number, tiles=loaded)), key=lambda c: c.number))
    advantages = player.advantages
    advantage_supply = state.advantage_supply
    if action.increased_production:
        i = INCREASED_PRODUCTION - 2
        advantages = _bump(advantages, i, -1)
        advantage_supply = _bump(advantage_supply, i, +1)
    state = with_me(state, money=player.money - cost, supply=supply, cards=cards, advantages=advantages)
    state = attrs.evolve(
        state,
        display=tuple(c for c in state.display if c != action.number),
        advantage_supply=advantage_supply,
    )
    if state.deck:
        return attrs.evolve(state, phase=Phase.CARD_DRAW)
    return end_turn(state)  # AER-AMB-55 'shrink': nothing left to draw


def draw_card(state: AerState, action: DrawCard) -> AerState:
    """AER-R-10 (l.65): the drawn card joins the display in number order; the purchase is over."""
    display = tuple(sorted((*state.display, action.number)))
    deck = tuple(c for c in state.deck if c != action.number)
    return end_turn(attrs.evolve(state, display=display, deck=deck, phase=Phase.ACTION))


# ---------------------------------------------------------------------------
# Action 3: claim one passenger tile
# ---------------------------------------------------------------------------


def claim_passenger(ctx: Context, state: AerState, action: ClaimPassenger) -> AerState:
    """AER-R-34/37 (l.141-151): the tile leaves the waiting area (its slot stays empty until the refill,
    AER-R-58) or the overflow area, and rides on the chosen card (AER-R-36)."""
    if action.overflow:
        overflow = list(state.overflow)
        overflow.remove(action.id)
        state = attrs.evolve(state, overflow=tuple(overflow))
    else:
        state = attrs.evolve(
            state,
            waiting=tuple(
                Waiting(w.city, tuple(None if t == action.id else t for t in w.slots)) for w in state.waiting
            ),
        )
    player = me(state)
    cards = tuple(
        attrs.evolve(c, passengers=tuple(sorted((*c.passengers, action.id)))) if c.number == action.card else c
        for c in player.cards
    )
    return end_turn(with_me(state, cards=cards))


# ---------------------------------------------------------------------------
# Action 5: take a subsidy
# ---------------------------------------------------------------------------


def take_subsidy(state: AerState) -> AerState:
    """AER-R-48 (l.163): £1 from the subsidy section to the player (the black marker is not in this layer)."""
    assert state.subsidy_pool > 0
    state = with_me(state, money=me(state).money + 1)
    return end_turn(attrs.evolve(state, subsidy_pool=state.subsidy_pool - 1))


__all__ = [
    "apply",
    "buy_plane",
    "claim_passenger",
    "draw_card",
    "end_turn",
    "roll_first_player_die",
    "take_subsidy",
    "transition",
]
