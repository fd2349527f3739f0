"""Aeroplanes legality: one named condition per rule, each returning a
Rejection (rule ID + plain words) or None; ``legal_actions`` lists exactly
what ``check`` accepts.  Effects live in transitions.py.

Scope of this layer (issue 7, part 1):

* set-up: the chance deals and the home-city choices (AER-SET-01, SET-03),
  delegated to setup.py, whose last choice starts era 1 (AER-SET-10: R-02, R-03);
* the turn structure: one action a turn (AER-R-07), the turn passing
  clockwise and the round ending (R-04), the first-player die between rounds
  (R-05);
* action 1, buying a plane card: skip pricing (R-08), loading tiles (R-09,
  R-11, R-45), the display refill in number order (R-10);
* action 3, claiming one passenger tile from the waiting area or the
  overflow area onto one card with room (R-34..37);
* action 5, taking a subsidy (R-48): £1 while the subsidy section holds notes, else the black
  marker, which ends the action round at once (R-06);
* the end of an era: scoring (R-49..52, scoring.era_scores), the update in its printed order
  (R-53..62: U1 display, U2 full planes, U3 partly used planes, U4 passengers off the cards,
  U5 overflow, U6 refill, U7 money, U8 era marker, U9 the marker-taker's die roll), then the next
  era's Income step (R-02, R-03); after era 3 final scoring and the winner (R-63, R-64: phase OVER,
  the totals and the money tie-break read with scoring.final_scores / final_ranking / winners).

* action 2, placing airport tiles (R-13..31): attempts from an own airport, direct or an LR hop, with the
  special one-way and LR-symbol connections from the map graph; the rolls from risk.rolls_for; RiskThrow chance
  steps (setup.chance_outcomes); cover in full (risk.cover_options), decline, abort; the engine-failure
  collapse; the slot rules, replacement by a higher stage, never a home tile; upgrades; the Americas bonus.
  AER-AMB-09 ``pass`` (a placement action placing nothing), AER-AMB-12 ``any`` (no roll to replace any
  tile), AER-AMB-13 ``anytime`` (an upgrade beside an empty slot), AER-AMB-21 ``no-lr`` (the ‡ routes need
  no LR card) and AER-AMB-10 ``fixed`` (origins only among the airports at the action's start) are built;
  AER-AMB-15 ``card`` (transitions.card_for_returned_tile); AER-AMB-30's two readings pay the same players
  (readings: a replacement needs a full destination and no slot ever empties), so no code asks it.
* action 4, advantage tiles (R-39..41): £1 for one tile of an available type (TakeAdvantage), or £1 to roll
  (RollForAdvantages, then the AdvantageThrow chance step over the 56 multisets of the three risk dice,
  exact odds) and pick two dice (PickAdvantages, one after the other against the stacks: a face takes its
  type, a skull any available type, an unavailable type nothing); availability by era and the 6-tile
  stacks (R-40); AER-AMB-48 ``two``, AER-AMB-49 ``no-limit``.
* the tiles' effects: Daring Pilot in a cover (R-42/43); Engine Maintenance at the start of a turn
  (R-44; AER-AMB-50 ``free`` and ``action``); Increased Production on a purchase (R-45); Night Flights
  (R-46): after the claim action's first claim a holder stays in Phase.CLAIMING to play tiles, claim one
  European passenger per tile played (AER-AMB-33 ``destination`` and ``trip``, AER-AMB-35) or EndClaims;
  Radio Beacons (R-47) in Phase.COVER: under AER-AMB-26 ``reroll`` a holder's fresh throw is pending
  (PlayRadioBeacons or KeepThrow, the skulls taken only when kept), under ``at-once`` the skulls are
  taken at once and the re-throw is offered beside the cover choices.

Every reading of the advantage ambiguities (AER-AMB-26, -33, -48..51) is built, and of the end-of-era
ones AER-AMB-41 (tiles on a discarded card: transitions.update_planes) and AER-AMB-45 (the update after
era 3: transitions.score_era).  The subsidy action is always legal (AER-AMB-46), so a player always has
an action.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any, assert_never

from rulecraft.core import Rejection, all_rejections
from rulecraft.model.aeroplanes.actions import (
    ABORT,
    DECLINE,
    END_CLAIMS,
    KEEP_THROW,
    PLAY_ENGINE_MAINTENANCE,
    PLAY_NIGHT_FLIGHTS,
    PLAY_RADIO_BEACONS,
    ROLL_FOR_ADVANTAGES,
    RULES_OF,
    STOP_PLACING,
    TAKE_SUBSIDY,
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
    buy_plane,
    claim_passenger,
    pick_advantages,
    place_airport,
    shortfall_cover,
    take_advantage,
)
from rulecraft.model.aeroplanes.catalogue import RULES, SETUP
from rulecraft.model.aeroplanes.components import Face
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.risk import Opponents, RiskError, Roll, cover_options, rolls_for, route_from_pack
from rulecraft.model.aeroplanes.setup import chance_outcomes, home_choices, home_rejection, is_chance_outcome
from rulecraft.model.aeroplanes.state import (
    ADVANTAGE_TYPE_IDS,
    BLOCKER,
    AerState,
    MapMemo,
    OwnedCard,
    Phase,
    PlayerState,
    SlotsMemo,
    capacity,
    load,
)

DARING_PILOT = 2  # advantage type 2 (l.156, AER-R-42/43)
ENGINE_MAINTENANCE = 3  # advantage type 3 (l.157, AER-R-44)
INCREASED_PRODUCTION = 4  # advantage type 4 (l.158, AER-R-45)
NIGHT_FLIGHTS = 5  # advantage type 5 (l.159, AER-R-46)
RADIO_BEACONS = 6  # advantage type 6 (l.160, AER-R-47)
ADVANTAGE_PRICE = 1  # l.153: £1 to the bank, to take one tile or to roll for two
ADVANTAGE_PICKS = 2  # l.154: two of the three dice are used

_CHANCE_ORDER = (
    Phase.RISK_ROLL,
    Phase.ADVANTAGE_ROLL,
    Phase.DEAL_PASSENGERS,
    Phase.FIRST_PLAYER,
    Phase.CARD_DRAW,
    Phase.ROUND_DIE,
    Phase.UPDATE_DRAW,
    Phase.REFILL,
)
CHANCE_PHASES = frozenset(_CHANCE_ORDER)  # a set: asked several times at every step (issue 18)
SETUP_CHANCE = (DealWaitingPassenger, DrawFirstPlayer)
# Steps only chance makes (refused as a player's move whenever their chance step is not due).
CHANCE_ONLY = (
    DealWaitingPassenger,
    DrawFirstPlayer,
    DrawCard,
    RollFirstPlayerDie,
    RefillWaiting,
    RiskThrow,
    AdvantageThrow,
)
# The action type of each chance step, so a check of another type skips listing the outcomes.
CHANCE_ACTION_OF: dict[Phase, type[object]] = {
    Phase.DEAL_PASSENGERS: DealWaitingPassenger,
    Phase.FIRST_PLAYER: DrawFirstPlayer,
    Phase.CARD_DRAW: DrawCard,
    Phase.UPDATE_DRAW: DrawCard,
    Phase.REFILL: RefillWaiting,
    Phase.RISK_ROLL: RiskThrow,
    Phase.ROUND_DIE: RollFirstPlayerDie,
    Phase.ADVANTAGE_ROLL: AdvantageThrow,
}
# The phases this layer can reach; any other is a later layer's.
BUILT_PHASES = (
    *_CHANCE_ORDER,
    Phase.CHOOSE_HOME,
    Phase.ACTION,
    Phase.PLACING,
    Phase.RISK_ROLL,
    Phase.COVER,
    Phase.ADVANTAGE_PICK,
    Phase.CLAIMING,
    Phase.OVER,
)


def reject(rule_id: str, reason: str) -> Rejection:
    """The rejection naming ``rule_id`` with its seed lines: a rule of play (RULES) or a set-up step (SETUP)."""
    page = _PAGES.get(rule_id)
    if page is None:
        raise KeyError(f"{rule_id} is not a rule of aer")  # as the catalogue words it
    return Rejection(rule_id, reason, page)


# Every rule's seed lines, a set-up step's from SETUP: looked up in one dict (the move checks reject a few
# million candidates in the test suite, and two catalogue lookups each were a tenth of it; issue 18).
_PAGES: dict[str, str] = {rule.id: rule.page for rule in (*RULES, *SETUP)}


def me(state: AerState) -> PlayerState:
    return state.players[state.to_move]


# ---------------------------------------------------------------------------
# Derived facts
# ---------------------------------------------------------------------------


def skipped(ctx: Context, state: AerState, number: int) -> int:
    """AER-R-08 (l.62): the display cards passed over to take card ``number``.  AER-AMB-06 'position':
    the display cards lower than it; 'gap': the card numbers between the lowest display card and it."""
    if ctx.r("AER-AMB-06") == "gap":
        return number - state.display[0]
    return sum(1 for c in state.display if c < number)


def plane_cost(ctx: Context, state: AerState, number: int) -> int:
    """AER-R-08 (l.62): the printed price plus £1 for each display card skipped."""
    return ctx.pack.card(number).price + skipped(ctx, state, number)


def tiles_loaded(ctx: Context, player: PlayerState, number: int, increased_production: bool) -> int:
    """AER-R-09 (l.63-64), R-11 (l.66), AER-AMB-07 'partial': the printed count of the card's stage, as far as
    the supply holds; one more with Increased Production (AER-R-45)."""
    printed = ctx.pack.card(number)
    want = printed.tile_count + (1 if increased_production else 0)
    return min(want, player.supply[printed.tile_stage - 1])


def room(ctx: Context, card: OwnedCard) -> int:
    """AER-R-36 (l.146-148): the unused capacity of one card."""
    return capacity(ctx, card) - load(ctx, card)


def waiting_city(state: AerState, tile_id: str) -> str | None:
    """AER-R-32 (l.134): the start city whose waiting section holds this passenger tile (None: not waiting)."""
    for w in state.waiting:
        if tile_id in w.slots:
            return w.city
    return None


def owned(player: PlayerState, number: int) -> OwnedCard | None:
    for c in player.cards:
        if c.number == number:
            return c
    return None


# ---------------------------------------------------------------------------
# check
# ---------------------------------------------------------------------------


def check(ctx: Context, state: AerState, action: AerAction) -> Rejection | None:
    """None when ``action`` is legal now (for the seat to move, or as the chance step due), else the rule
    that forbids it: the phase's first (is this kind of action due now), then the turn's repeat rule,
    then the action's own."""
    return (
        phase_rejection(ctx, state, action) or repeat_rejection(ctx, state, action) or own_rejection(ctx, state, action)
    )


def rejections(ctx: Context, state: AerState, action: AerAction) -> tuple[Rejection, ...]:
    """Every rule that forbids ``action``, each layer judged on its own: the phase's (the one ``check``
    cites first), the turn's repeat rule, the action's own rule as if its phase had come, and the
    independent conditions of that rule (a route beside a slot, a price beside a capacity).  Another
    implementation may check them in another order and cite any of them."""
    return all_rejections(check(ctx, state, action), _JUDGES, ctx, state, action)


# -- the phase layer: is this kind of action due now ------------------------------------------------


def phase_rejection(ctx: Context, state: AerState, action: AerAction) -> Rejection | None:
    """The game's end (AER-R-63), the chance step due (judged whole), set-up (AER-SET-03), then what
    each phase of a turn admits."""
    phase = state.phase
    if phase is Phase.OVER:
        return reject("AER-R-63", "the game is over: era 3 has been scored and final scoring done")
    if phase in CHANCE_PHASES:
        return chance_rejection(ctx, state, action)
    if isinstance(action, CHANCE_ONLY):
        return reject(RULES_OF[action.kind][0], "only chance makes this step, and it is not due now")
    if phase is Phase.CHOOSE_HOME:
        if not isinstance(action, ChooseHome):
            return reject("AER-SET-03", "set-up: each player puts their home tile in a start city first")
        return None
    if isinstance(action, ChooseHome):
        return reject("AER-SET-03", "home cities are chosen during set-up only")
    if phase is Phase.ACTION:
        return action_step_rejection(ctx, action)
    if isinstance(action, PlayEngineMaintenance):
        return reject(
            "AER-R-44", "Engine Maintenance is played only at the start of a turn, before its action (l.118, l.157)"
        )
    if phase is Phase.PLACING:
        if isinstance(action, StopPlacing | PlaceAirport):
            return None
        return reject("AER-R-13", "inside a placement action: another attempt (PlaceAirport) or StopPlacing")
    if phase is Phase.COVER:
        return cover_step_rejection(ctx, state, action)
    if phase is Phase.ADVANTAGE_PICK:
        if isinstance(action, PickAdvantages):
            return None
        return reject("AER-R-39", "after an advantage roll: choose two of the three dice (PickAdvantages)")
    if phase is Phase.CLAIMING:
        if isinstance(action, PlayNightFlights | EndClaims | ClaimPassenger):
            return None
        return reject("AER-R-46", "inside a claim action: play Night Flights, make its extra claim, or EndClaims")
    return reject("AER-R-01", f"the {phase.value} step is not modelled in this layer yet")


def repeat_rejection(ctx: Context, state: AerState, action: AerAction) -> Rejection | None:
    """AER-R-46 (l.159): a claim action makes one claim; each more needs a Night Flights tile played first."""
    if state.phase is Phase.CLAIMING and isinstance(action, ClaimPassenger) and state.turn.claims_left < 1:
        return reject("AER-R-46", "each extra claim needs a Night Flights tile played first (l.159)")
    return None


def own_rejection(ctx: Context, state: AerState, action: AerAction) -> Rejection | None:
    """The action's own rules, once its phase has come (``rejections`` asks out of phase too)."""
    if state.phase in CHANCE_PHASES:
        return None  # a chance step is judged whole by the phase layer: one of chance's outcomes or not
    match action:
        case (
            DealWaitingPassenger()
            | DrawFirstPlayer()
            | DrawCard()
            | RollFirstPlayerDie()
            | RefillWaiting()
            | RiskThrow()
            | AdvantageThrow()
        ):
            return None  # CHANCE_ONLY: judged whole by the phase layer, as above
        case ChooseHome():
            why = home_rejection(ctx, state, action)
            return reject("AER-SET-03", why) if why else None
        case ClaimPassenger():
            claim = claim_rejection(ctx, state, action)
            if claim is None and state.phase is Phase.CLAIMING:
                return night_flights_rejection(ctx, state, action)
            return claim
        case PlayNightFlights():
            return None if me(state).held(NIGHT_FLIGHTS) else reject("AER-R-46", "you hold no Night Flights tile")
        case PlayRadioBeacons():
            return radio_rejection(state)
        case CoverShortfall() | Decline() | Abort():
            return cover_own_rejection(ctx, state, action)
        # The own rules of the five actions, Engine Maintenance and the advantage picks.
        case BuyPlane():
            return buy_rejection(ctx, state, action)
        case TakeSubsidy():
            return subsidy_rejection(ctx, state)
        case PlaceAirport():
            return place_rejection(ctx, state, action)
        case PlayEngineMaintenance():
            return maintenance_rejection(state)
        case TakeAdvantage():
            return take_advantage_rejection(ctx, state, action)
        case RollForAdvantages():
            return roll_for_advantages_rejection(ctx, state)
        case PickAdvantages():
            return pick_rejection(ctx, state, action)
        case StopPlacing() | EndClaims() | KeepThrow():
            return None  # nothing beyond their phase
        case _:
            assert_never(action)


def condition_rejections(ctx: Context, state: AerState, action: AerAction) -> tuple[Rejection | None, ...]:
    """The conditions of an action's own rule that can fail together, each judged apart: a placement's
    slot (AER-R-29/30) beside its route (AER-R-14..17); a claim's airports (AER-R-34/35/37) beside the
    card's room (AER-R-36); a plane's price (AER-R-08) beside Increased Production (AER-R-45); an
    advantage's price (AER-R-39) beside its availability (AER-R-40)."""
    match action:
        case PlaceAirport():
            return (place_slot_rejection(ctx, state, action), place_reach_rejection(ctx, state, action))
        case ClaimPassenger(id=passenger) if passenger in ctx.pack.passenger_ids:
            return (capacity_rejection(ctx, state, action, ctx.pack.passenger(passenger).capacity),)
        case BuyPlane(increased_production=boosted) if boosted:
            return (increased_production_rejection(ctx, state, action),)
        case TakeAdvantage(type=kind) if kind in ADVANTAGE_TYPE_IDS:
            reason = unavailable(ctx, state, kind)
            return (reject("AER-R-40", reason) if reason else None,)
        case RollForAdvantages() if not available_types(ctx, state):
            return (
                reject("AER-R-40", "no advantage type is available now, so the roll could give nothing (AER-AMB-48)"),
            )
        case _:
            return ()


def chance_rejection(ctx: Context, state: AerState, action: AerAction) -> Rejection | None:
    """The chance step due now: set-up deals (AER-SET-01, SET-03), the display refill (AER-R-10), the
    first-player die (AER-R-05)."""
    phase = state.phase
    if isinstance(action, CHANCE_ACTION_OF.get(phase, ())) and is_chance_outcome(ctx, state, action):
        return None
    if phase is Phase.DEAL_PASSENGERS:
        return reject("AER-SET-01", f"the waiting area is being filled from the bag, not {action!r}")
    if phase is Phase.FIRST_PLAYER:
        return reject("AER-SET-03", f"the first player is chosen at random, not {action!r}")
    if phase is Phase.CARD_DRAW:
        return draw_rejection(state, action)
    if phase is Phase.RISK_ROLL:
        return reject("AER-R-20", f"an NCR roll is due: a RiskThrow of the three risk dice, not {action!r}")
    if phase is Phase.ADVANTAGE_ROLL:
        return reject(
            "AER-R-39",
            f"an advantage roll is due: an AdvantageThrow of the three risk dice (pack face order), not {action!r}",
        )
    if phase is Phase.UPDATE_DRAW:
        if not isinstance(action, DrawCard):
            return reject("AER-R-53", "update step 1: the next deck cards join the display first")
        return reject("AER-R-53", f"the next card in number order is {min(state.deck)}, not {action.number}")
    if phase is Phase.REFILL:
        if not isinstance(action, RefillWaiting):
            return reject("AER-R-58", "update step 6: the empty waiting slots are refilled from the bag first")
        return reject("AER-R-58", f"{action.id} is not in the bag")
    return die_rejection(ctx, state, action)


def draw_rejection(state: AerState, action: AerAction) -> Rejection | None:
    """AER-R-10 (l.65): after a purchase the next deck card, the lowest (the deck is in number order)."""
    if not isinstance(action, DrawCard):
        return reject("AER-R-10", "after a purchase the next deck card joins the display first")
    return reject("AER-R-10", f"the next card in number order is {min(state.deck)}, not {action.number}")


def die_rejection(ctx: Context, state: AerState, action: AerAction) -> Rejection | None:
    """AER-R-05 (l.48): once every player has acted, the first player rolls the first-player die;
    AER-R-62 (l.181): after an era's update the marker-taker rolls it."""
    rule = "AER-R-62" if not state.marker_in_pool else "AER-R-05"
    if not isinstance(action, RollFirstPlayerDie):
        who = "the marker-taker" if rule == "AER-R-62" else "the first player"
        return reject(rule, f"{who} rolls the first-player die now")
    faces = sorted(set(ctx.pack.supplies.first_player_die_faces))
    return reject(rule, f"the first-player die shows one of {faces}, not {action.value}")


# AER-R-07 (l.55-60): the five actions, and Engine Maintenance before the turn's action (AER-R-44).
ACTION_KINDS: tuple[type, ...] = (
    BuyPlane,
    ClaimPassenger,
    TakeSubsidy,
    PlaceAirport,
    PlayEngineMaintenance,
    TakeAdvantage,
    RollForAdvantages,
)


def action_step_rejection(ctx: Context, action: AerAction) -> Rejection | None:
    """AER-R-07 (l.55-60): the player to move takes exactly one of the five actions; the steps inside
    an action wait for it to be open.  AER-AMB-09 ``pass``: a placement action that places no tile
    (StopPlacing as the turn's action) is one of them."""
    kinds = (*ACTION_KINDS, StopPlacing) if ctx.r("AER-AMB-09") == "pass" else ACTION_KINDS  # AER-AMB-09
    if isinstance(action, kinds):
        return None
    match action:
        case StopPlacing():
            return reject("AER-R-13", "a placement action starts with an attempt (AER-AMB-09 'attempt')")
        case PickAdvantages():
            return reject("AER-R-39", "two dice are picked only after an advantage roll (RollForAdvantages)")
        case PlayNightFlights():
            return reject("AER-R-46", "Night Flights is played inside a claim action, after its first claim (l.159)")
        case EndClaims():
            return reject("AER-R-46", "no claim action is open to end")
        case PlayRadioBeacons():
            return reject("AER-R-47", "Radio Beacons re-throws an NCR roll of a placement attempt; no roll is waiting")
        case _:
            rule = RULES_OF.get(action.kind, ("AER-R-07",))[0]
            return reject(
                rule, f"no NCR roll waits for a decision: {action.kind} is not one of the five actions (l.55-60)"
            )


# ---------------------------------------------------------------------------
# Action 4: advantage tiles (AER-R-39..41) and playing them
# ---------------------------------------------------------------------------


def unavailable(ctx: Context, state: AerState, kind: int, supply: tuple[int, ...] | None = None) -> str | None:
    """AER-R-40 (l.155-160): why advantage type ``kind`` cannot be taken now (None: it can): the era has
    not reached the type's first era, or every tile of it is in players' hands (``supply``: the stacks
    to judge by, default the state's)."""
    advantage = ctx.pack.advantage(kind)
    if state.era < advantage.first_era:
        return f"{advantage.name} (type {kind}) is available from era {advantage.first_era}; this is era {state.era}"
    if (supply if supply is not None else state.advantage_supply)[kind - 2] < 1:
        return f"all {advantage.count} {advantage.name} tiles (type {kind}) are in players' hands (l.155)"
    return None


def available_types(ctx: Context, state: AerState, supply: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """AER-R-40: the advantage types that can be taken now: from the type's first era, while a tile of it
    is left in ``supply`` (the stacks, default the state's): ``unavailable`` is None for exactly these."""
    era, left, advantage = state.era, supply if supply is not None else state.advantage_supply, ctx.pack.advantage
    return tuple([t for t in ADVANTAGE_TYPE_IDS if advantage(t).first_era <= era and left[t - 2] > 0])


def price_rejection(state: AerState) -> Rejection | None:
    """AER-R-39 (l.153): an advantage purchase costs £1, paid to the bank."""
    money = me(state).money
    if money < ADVANTAGE_PRICE:
        return reject("AER-R-39", f"buying an advantage costs £{ADVANTAGE_PRICE} (l.153); you have £{money}")
    return None


def take_advantage_rejection(ctx: Context, state: AerState, action: TakeAdvantage) -> Rejection | None:
    """AER-R-39(a) (l.153): £1 for one tile of one's choice, of a type available now (AER-R-40)."""
    if action.type not in ADVANTAGE_TYPE_IDS:
        return reject("AER-R-39", f"advantages are numbered 2 to 6 (l.154), not {action.type}")
    why = price_rejection(state)
    if why is not None:
        return why
    reason = unavailable(ctx, state, action.type)
    return reject("AER-R-40", reason) if reason else None


def roll_for_advantages_rejection(ctx: Context, state: AerState) -> Rejection | None:
    """AER-R-39(b) (l.153-154): £1 to roll the three risk dice for up to two tiles; AER-AMB-48 ``two``: only
    while at least one type is available."""
    why = price_rejection(state)
    if why is not None:
        return why
    if not available_types(ctx, state):
        return reject("AER-R-40", "no advantage type is available now, so the roll could give nothing (AER-AMB-48)")
    return None


def pick_options(ctx: Context, state: AerState, face: Face, supply: tuple[int, ...]) -> tuple[int | None, ...]:
    """AER-R-39(b) (l.154), AER-AMB-48 ``two``: what one chosen die gives, judged against ``supply`` (the
    stacks after the dice picked before it): its own type if available, a skull any available type
    (wild), and nothing (None) when that is unavailable."""
    available = available_types(ctx, state, supply)
    if not isinstance(face, int):  # the skull
        return available or (None,)
    return (face,) if face in available else (None,)


def pick_shape_rejection(action: PickAdvantages) -> Rejection | None:
    """AER-R-39(b) (l.154): a pick names two dice by index and, for each, the tile it takes (None:
    nothing).  An action built by hand (the Game API) can have any shape: refused, never a crash."""
    # Read untyped: compiled code (the optional mypyc build, docs/speed.md) checks a typed read against
    # its annotation and would raise TypeError before the refusal below could name the rule.
    given: Any = action
    dice, types = given.dice, given.types
    if not isinstance(dice, tuple) or len(dice) != ADVANTAGE_PICKS or not all(isinstance(d, int) for d in dice):
        return reject("AER-R-39", f"choose {ADVANTAGE_PICKS} of the three dice by index (0, 1 or 2), not {dice!r}")
    if not isinstance(types, tuple) or len(types) != ADVANTAGE_PICKS:
        return reject(
            "AER-R-39",
            f"name the tile each of the {ADVANTAGE_PICKS} chosen dice takes (a type, or None: nothing), not {types!r}",
        )
    return None


def pick_rejection(ctx: Context, state: AerState, action: PickAdvantages) -> Rejection | None:
    """AER-R-39(b) (l.154): two of the three dice, each taking the tile its face names (a skull: any
    available type), one after the other; a type not available gives nothing (AER-R-40, l.154-155)."""
    faces = state.turn.advantage_dice
    assert faces is not None
    shape = pick_shape_rejection(action)
    if shape is not None:
        return shape
    first, second = action.dice
    if not 0 <= first < second < len(faces):
        return reject(
            "AER-R-39",
            f"use two different dice of {list(faces)}, named by index in increasing order, not {action.dice}",
        )
    supply: tuple[int, ...] = state.advantage_supply
    a, b = action.types
    for die, kind in ((first, a), (second, b)):
        face = faces[die]
        options = pick_options(ctx, state, face, supply)
        if kind not in options:
            if not isinstance(face, int):
                return reject("AER-R-39", f"the skull (die {die}) is wild: it names one available type of {options}")
            if options == (None,):
                why = unavailable(ctx, state, face, supply) if face in ADVANTAGE_TYPE_IDS else "no such advantage"
                return reject("AER-R-40", f"die {die} shows {face}: {why}, so it gives nothing (None)")
            return reject("AER-R-39", f"die {die} shows {face}: it takes a type-{face} tile, not {kind}")
        if kind is not None:
            supply = tuple(n - 1 if t == kind else n for t, n in zip(ADVANTAGE_TYPE_IDS, supply, strict=True))
    return None


def picks(ctx: Context, state: AerState) -> Iterator[PickAdvantages]:
    """Every PickAdvantages pick_rejection accepts."""
    faces = state.turn.advantage_dice
    assert faces is not None
    for first, second in itertools.combinations(range(len(faces)), ADVANTAGE_PICKS):
        for a in pick_options(ctx, state, faces[first], state.advantage_supply):
            supply: tuple[int, ...] = state.advantage_supply
            if a is not None:
                supply = tuple([n - 1 if t == a else n for t, n in zip(ADVANTAGE_TYPE_IDS, supply, strict=True)])
            for b in pick_options(ctx, state, faces[second], supply):
                yield pick_advantages((first, second), (a, b))


def maintenance_rejection(state: AerState) -> Rejection | None:
    """AER-R-44 (l.118, l.157): at the start of one's turn, before its action, with a tile held.  AER-AMB-50
    ``free``: a free action, the turn's action still to come; ``action``: it is the turn's action."""
    if me(state).held(ENGINE_MAINTENANCE) < 1:
        return reject("AER-R-44", "you hold no Engine Maintenance tile")
    return None


def night_flights_rejection(ctx: Context, state: AerState, action: ClaimPassenger) -> Rejection | None:
    """AER-R-46 (l.159), AER-AMB-33: the extra passenger stays within Europe: ``destination`` its destination
    is European; ``trip`` its start city too (so never an overflow tile, which waits at no city)."""
    tile = ctx.pack.passenger(action.id)
    if not ctx.europe(tile.destination):
        return reject(
            "AER-R-46", f"a Night Flights claim stays within Europe (l.159): {action.id} flies to {tile.destination}"
        )
    if ctx.r("AER-AMB-33") == "trip":
        city = None if action.overflow else waiting_city(state, action.id)
        if city is None or not ctx.europe(city):
            return reject("AER-R-46", f"AER-AMB-33 'trip': {action.id} does not wait at a European start city")
    return None


def buy_rejection(ctx: Context, state: AerState, action: BuyPlane) -> Rejection | None:
    """AER-R-08 (l.62): a display card, paid at its price + £1 per card skipped; AER-R-45: Increased
    Production loads one more tile, era 2 on, if one is held and the supply has the extra tile."""
    if action.number not in state.display:
        return reject("AER-R-08", f"card {action.number} is not on the display {list(state.display)}")
    player = me(state)
    cost = plane_cost(ctx, state, action.number)
    if player.money < cost:
        printed = ctx.pack.card(action.number)
        return reject(
            "AER-R-08",
            f"card {action.number} costs £{printed.price} + £{cost - printed.price} for the cards skipped"
            f" = £{cost}; you have £{player.money}",
        )
    if action.increased_production:
        return increased_production_rejection(ctx, state, action)
    return None


def increased_production_rejection(ctx: Context, state: AerState, action: BuyPlane) -> Rejection | None:
    """AER-R-45 (l.158) with AER-AMB-51: a held tile, era 2 or later, and the extra tile in the supply."""
    player = me(state)
    advantage = ctx.pack.advantage(INCREASED_PRODUCTION)
    if state.era < advantage.first_era:
        return reject("AER-R-45", f"Increased Production is available from era {advantage.first_era}")
    if player.held(INCREASED_PRODUCTION) < 1:
        return reject("AER-R-45", "you hold no Increased Production tile")
    printed = ctx.pack.card(action.number)
    if player.supply[printed.tile_stage - 1] < printed.tile_count + 1:
        return reject(
            "AER-R-45",
            f"the extra stage-{printed.tile_stage} tile is not in your supply"
            f" ({player.supply[printed.tile_stage - 1]} left for a card showing {printed.tile_count})",
        )
    return None


def claim_rejection(ctx: Context, state: AerState, action: ClaimPassenger) -> Rejection | None:
    """AER-R-34..37 (l.141-151): the airports the tile needs, and one card with the room it needs."""
    seat = state.to_move
    airports = set(state.airports(seat))
    # AER-R-33: the printed tile (destination, required capacity) is pack data.
    tile = ctx.pack.passenger(action.id) if action.id in ctx.pack.passenger_ids else None
    if tile is None:
        return reject("AER-R-34", f"there is no passenger tile {action.id!r}")
    if action.overflow:
        if action.id not in state.overflow:
            return reject("AER-R-37", f"{action.id} is not in the overflow area")
        if tile.destination not in airports:
            return reject("AER-R-37", f"an overflow claim needs your airport at its destination, {tile.destination}")
    else:
        city = waiting_city(state, action.id)
        if city is None:
            return reject("AER-R-34", f"{action.id} is not in the waiting area")
        if city not in airports:
            return reject("AER-R-34", f"{action.id} waits in {city}: you need an airport there")
        if tile.destination not in airports:
            rule = "AER-R-35" if tile.destination == city else "AER-R-34"
            return reject(rule, f"{action.id} flies to {tile.destination}: you need an airport there")
    return capacity_rejection(ctx, state, action, tile.capacity)


def capacity_rejection(ctx: Context, state: AerState, action: ClaimPassenger, needed: int) -> Rejection | None:
    """AER-R-36 (l.146-148): one card carries the whole tile; its capacity cannot be split."""
    card = owned(me(state), action.card)
    if card is None:
        return reject("AER-R-36", f"you do not own card {action.card}")
    if card.face_down and ctx.r("AER-AMB-42") == "closed":
        return reject("AER-R-55", f"card {action.card} is face down and takes no passengers (AER-AMB-42 closed)")
    if room(ctx, card) < needed:
        return reject(
            "AER-R-36",
            f"card {action.card} has {room(ctx, card)} unused capacity; {action.id} needs {needed} on one card",
        )
    return None


def subsidy_rejection(ctx: Context, state: AerState) -> Rejection | None:
    """AER-R-48 (l.163): £1 from the subsidy section; once it is empty, the black marker instead, which
    ends the era at once (AER-R-06, l.52-53).  Always legal (AER-AMB-46)."""
    return None


# ---------------------------------------------------------------------------
# Action 2: placing airport tiles (AER-R-13..31)
# ---------------------------------------------------------------------------


def opponent_at(state: AerState, seat: int, destination: str) -> bool:
    """AER-R-22, AER-AMB-23: another player (not a 3-player blocker) has a tile at ``destination``."""
    for a in state.slots(destination):  # noqa: SIM110 - a plain loop: asked for every attempt's rolls
        if a is not None and a.owner not in (seat, BLOCKER):
            return True
    return False


def attempt_rolls(
    ctx: Context, state: AerState, seat: int, origin: str, destination: str, via: str | None
) -> tuple[Roll, ...]:
    """AER-R-21/22/25: the attempt's rolls, from risk.rolls_for (the calculator's own function).

    Memoised per context: the rolls depend only on the route, who else is there and the readings, and
    move generation asks for every route at every decision."""
    opp = Opponents(opponent_at(state, seat, destination), via is not None and opponent_at(state, seat, via))
    return _memo_rolls(ctx, origin, destination, via, opp)


def _memo_rolls(ctx: Context, origin: str, destination: str, via: str | None, opp: Opponents) -> tuple[Roll, ...]:
    memo = _rolls_memo(ctx)
    key = (origin, destination, via, opp.destination, opp.hopped)
    if key not in memo:
        try:
            memo[key] = rolls_for(ctx.pack, cached_route(ctx, origin, destination, via), opp, ctx.readings)
        except RiskError as e:
            memo[key] = e
    found = memo[key]
    if isinstance(found, RiskError):
        raise found
    return found


_ROLLS: dict[int, tuple[Context, dict[tuple[str, str, str | None, bool, bool], tuple[Roll, ...] | RiskError]]] = {}


def _rolls_memo(ctx: Context) -> dict[tuple[str, str, str | None, bool, bool], tuple[Roll, ...] | RiskError]:
    entry = _ROLLS.get(id(ctx))
    if entry is None or entry[0] is not ctx:
        if len(_ROLLS) > 64:  # property tests make many contexts: keep the memo small
            _ROLLS.clear()
        entry = _ROLLS[id(ctx)] = (ctx, {})
    return entry[1]


def slot_rejection(
    ctx: Context, state: AerState, seat: int, destination: str, slot: int, stage: int, upgrade: bool
) -> Rejection | None:
    """AER-R-29 (l.122-129) and AER-R-30 (l.85, l.128): the slot the tile goes into."""
    slots = state.slots(destination)
    dest = ctx.pack.destination(destination)
    in_play = dest.slots_in_play(len(state.players))
    if not 0 <= slot < in_play:
        return reject("AER-R-29", f"{destination} has slots 0..{in_play - 1} in play, not {slot}")
    empty = [i for i in range(in_play) if slots[i] is None]
    mine = [i for i in range(in_play) if slots[i] is not None and slots[i].owner == seat]  # type: ignore[union-attr]
    if upgrade:
        if not mine:
            return reject("AER-R-30", f"an upgrade replaces your own tile; you have none in {destination}")
        if slot != mine[0]:
            return reject(
                "AER-R-29", f"(c) you may hold one tile in {destination}: an upgrade replaces yours (slot {mine[0]})"
            )
    elif mine:
        return reject("AER-R-29", f"(c) you already have a tile in {destination}; only an upgrade may go there")
    if empty and not (upgrade and ctx.r("AER-AMB-13") == "anytime"):  # AER-AMB-13 anytime: upgrade beside one
        if slot not in empty:
            return reject("AER-R-29", f"(d) {destination} has an empty slot {empty}: no replacement while one is empty")
        return None
    held = slots[slot]
    assert held is not None
    if held.home:
        return reject("AER-R-29", f"(f) slot {slot} of {destination} holds a home tile, which is never replaced")
    if held.stage >= stage:
        return reject("AER-R-29", f"(e) a stage-{stage} tile replaces only a lower stage, not stage {held.stage}")
    return None


def place_rejection(ctx: Context, state: AerState, action: PlaceAirport) -> Rejection | None:
    """AER-R-13..18 (reach), R-29/30 (slots, checked before any roll, AER-AMB-13)."""
    return (
        place_card_rejection(ctx, state, action)
        or place_slot_rejection(ctx, state, action)
        or place_reach_rejection(ctx, state, action)
    )


def place_card_rejection(ctx: Context, state: AerState, action: PlaceAirport) -> Rejection | None:
    """AER-R-13: an own card holding a tile; AER-R-14: a destination of the map."""
    card = owned(me(state), action.card)
    if card is None:
        return reject("AER-R-13", f"you do not own card {action.card}")
    if card.tiles < 1:
        return reject("AER-R-13", f"card {action.card} holds no airport tile")
    if card.excess == 0 and ctx.r("AER-AMB-41") == "lost":  # AER-AMB-41 lost: a discarded card's tiles
        return reject("AER-R-54", f"card {action.card} was discarded full: its tiles are lost")  # AER-AMB-41
    if action.destination not in ctx.pack.destination_names:
        return reject("AER-R-14", f"there is no destination {action.destination!r}")
    return None


def place_slot_rejection(ctx: Context, state: AerState, action: PlaceAirport) -> Rejection | None:
    """AER-R-29/30: the slot the card's tile goes into (an upgrade: the own tile's)."""
    printed = ctx.pack.card(action.card)
    upgrade = action.origin is None
    return slot_rejection(ctx, state, state.to_move, action.destination, action.slot, printed.tile_stage, upgrade)


def place_reach_rejection(ctx: Context, state: AerState, action: PlaceAirport) -> Rejection | None:
    """AER-R-14..18: from an own airport, directly or with an LR tile over one hop (an upgrade needs none)."""
    if action.origin is None:
        return None
    seat = state.to_move
    printed = ctx.pack.card(action.card)
    if action.origin not in state.airports(seat):
        return reject("AER-R-14", f"you have no airport in {action.origin} to start from")
    if action.origin not in origins(ctx, state):  # AER-AMB-10 fixed
        return reject("AER-R-14", f"your airport in {action.origin} was placed in this action")  # AER-AMB-10
    if action.via is not None:
        if not printed.long_range:
            return reject("AER-R-17", f"only a tile from an LR card hops; card {action.card} is not one")
        if action.via in (action.origin, action.destination):
            return reject("AER-R-17", "a hop goes over one other destination")
    try:
        # AER-R-18: reach: one usable arc from the own tile at the origin, or two over a hop with an LR tile.
        route = cached_route(ctx, action.origin, action.destination, action.via)
        attempt_rolls(ctx, state, seat, action.origin, action.destination, action.via)
    except RiskError as e:
        return reject("AER-R-17" if action.via else "AER-R-14", str(e))
    if not printed.long_range and needs_long_range(ctx, route):
        return reject(
            "AER-R-16", f"a connection on this route needs a tile from an LR card; card {action.card} is not one"
        )
    return None


def cover_choices(ctx: Context, state: AerState) -> tuple[Roll, int, tuple[CoverShortfall, ...]]:
    """AER-R-23: the current roll, its shortfall (<= 0: passed) and the full covers affordable."""
    attempt = state.turn.attempt
    assert attempt is not None and attempt.throw is not None and attempt.origin is not None
    full = attempt_rolls(ctx, state, state.to_move, attempt.origin, attempt.destination, attempt.via)
    roll = full[len(full) - len(attempt.rolls)]
    shortfall = roll.need - attempt.throw[0]
    player = me(state)
    options = cover_options(roll, shortfall, player.money, player.held(DARING_PILOT), ctx.pack.risk.daring_pilot_bonus)
    return roll, shortfall, tuple([shortfall_cover(c.money, c.pilots) for c in options])


def cover_step_rejection(ctx: Context, state: AerState, action: AerAction) -> Rejection | None:
    """AER-R-23/26/27 after an NCR roll; AER-R-47: a throw waiting to be kept or re-thrown first."""
    attempt = state.turn.attempt
    assert attempt is not None
    if attempt.pending:
        if isinstance(action, PlayRadioBeacons | KeepThrow):
            return None
        return reject(
            "AER-R-47",
            "the throw is not kept yet: throw again with Radio Beacons or keep it (KeepThrow); its engine"
            " failures come with keeping it (AER-AMB-26 'reroll')",
        )
    match action:
        case PlayRadioBeacons():
            if ctx.r("AER-AMB-26") != "at-once":
                return radio_rejection(state) or reject(
                    "AER-R-47", "the throw is kept and its engine failures taken: re-throws come before (AER-AMB-26)"
                )
            return None
        case KeepThrow():
            return reject("AER-R-47", "no throw waits to be kept: KeepThrow follows a throw made holding Radio Beacons")
        case CoverShortfall() | Decline() | Abort():
            return None
        case _:
            rule = RULES_OF.get(action.kind, ("AER-R-23",))[0]
            return reject(rule, f"after an NCR roll: Radio Beacons, cover, decline or abort, not {action.kind}")


def cover_own_rejection(ctx: Context, state: AerState, action: CoverShortfall | Decline | Abort) -> Rejection | None:
    """AER-R-23 (cover in full), R-26 (decline), R-27 (abort before a later roll)."""
    attempt = state.turn.attempt
    assert attempt is not None
    _, shortfall, options = cover_choices(ctx, state)
    match action:
        case CoverShortfall():
            if shortfall <= 0:
                return (
                    None if action == CoverShortfall(0, 0) else reject("AER-R-23", "the roll passed: nothing to cover")
                )
            if action in options:
                return None
            return reject(
                "AER-R-23",
                f"the shortfall of {shortfall} is covered in full by one of {list(options)}"
                f" (£1 a point; Daring Pilots +{ctx.pack.risk.daring_pilot_bonus} only outside Europe;"
                " no more pilots than needed)",
            )
        case Decline():
            return None if shortfall > 0 else reject("AER-R-26", "the roll passed: there is nothing to decline")
        case Abort():
            return (
                None
                if len(attempt.rolls) > 1
                else reject("AER-R-27", "no later roll to abort before: cover or decline")
            )
        case _:
            assert_never(action)


def radio_rejection(state: AerState) -> Rejection | None:
    """AER-R-47 (l.160): a Radio Beacons tile held (taken in era 3 only, AER-R-40; AER-AMB-49: holding is
    enough to play it)."""
    if me(state).held(RADIO_BEACONS) < 1:
        return reject("AER-R-47", "you hold no Radio Beacons tile")
    return None


def throw_pending(ctx: Context, state: AerState) -> bool:
    """AER-AMB-26 ``reroll``: a fresh NCR throw by a Radio Beacons holder waits to be kept or re-thrown
    before its skulls are taken."""
    return ctx.r("AER-AMB-26") == "reroll" and me(state).held(RADIO_BEACONS) > 0


def placements(ctx: Context, state: AerState) -> tuple[PlaceAirport, ...]:
    """Every PlaceAirport place_rejection accepts, generated without calling it (python-chess style:
    generation and the legality check are separate, and tests hold them equal).

    Routes follow the map's arcs out of the player's own airports (direct, and over one hop for an LR
    card's tile) plus upgrades; each route's reach and rolls are worked out once, each destination's
    open slots once per stage, and only then are the cards with tiles paired with them.
    """
    seat = state.to_move
    lost = ctx.r("AER-AMB-41") == "lost"  # AER-AMB-41 lost: no tile from a card discarded full
    usable = tuple([c.number for c in me(state).cards if c.tiles >= 1 and not (lost and c.excess == 0)])  # AER-AMB-41
    if not usable:
        return ()
    start = origins(ctx, state)  # AER-AMB-10: start, the action's origins
    n = len(state.players)

    def worked_out() -> tuple[PlaceAirport, ...]:
        """The cards numbered ``usable`` (tiles on them) placed from the airports ``start``."""
        out: list[PlaceAirport] = []
        board = state.board()
        routes, hops = _routes(ctx, start)  # AER-AMB-10
        routes = routes + [(d, None, None, False) for d in state.airports(seat) if d not in start]  # AER-AMB-10 fixed
        for number in usable:
            printed = ctx.pack.card(number)
            stage, long_range = printed.tile_stage, printed.long_range
            known = _OPEN_SLOTS.answers(ctx, (seat, n, stage, False))  # _open_slots' table for a new airport
            for destination, origin, via, needs_lr in routes + hops if long_range else routes:
                if needs_lr and not long_range:
                    continue
                held = board[destination]
                found = known.get(destination)
                if origin is None or found is None or found[0] is not held:  # AER-R-30: an upgrade, or not kept
                    slots = _open_slots(ctx, held, destination, seat, n, stage, origin is None)
                else:
                    slots = found[1]
                for slot in slots:  # most routes have none open: no list made for them
                    out.append(place_airport(number, destination, slot, origin, via))
        return tuple(out)

    # Kept per map (and context): the key holds everything else the placements depend on.
    return _PLACEMENTS.lookup(ctx, state.map, (seat, n, start, usable), worked_out)


_PLACEMENTS: MapMemo[tuple[PlaceAirport, ...]] = MapMemo()  # placements per map, seat, start and cards


def origins(ctx: Context, state: AerState) -> tuple[str, ...]:
    """AER-R-14 (l.77): the own airports an attempt may start from.  AER-AMB-10 ``chain``: every one on the
    map now, those placed earlier in this action included; ``fixed``: those on the map when the action
    began (transitions.place_airport keeps them at its first attempt)."""
    start = state.turn.origins
    if ctx.r("AER-AMB-10") == "fixed" and start is not None:  # AER-AMB-10 fixed
        return start  # AER-AMB-10
    return state.airports(state.to_move)


RouteOption = tuple[str, str | None, str | None, bool]  # (destination, origin, via, needs an LR tile)
RouteSets = tuple[Context, list[RouteOption], list[RouteOption]]
_ROUTE_SETS: dict[tuple[int, tuple[str, ...]], RouteSets] = {}


def _routes(ctx: Context, mine: tuple[str, ...]) -> tuple[list[RouteOption], list[RouteOption]]:
    """The direct routes and upgrades, and the LR hops, out of the airports ``mine`` whose reach and rolls
    hold (AER-R-14..17).  Whether a route's rolls are defined does not depend on who else is there
    (risk.rolls_for only adds the +2s), so the memo is keyed on the player's airports alone."""
    key = (id(ctx), mine)
    found = _ROUTE_SETS.get(key)
    if found is not None and found[0] is ctx:
        return found[1], found[2]
    own = set(mine)
    routes: list[RouteOption] = [(d, None, None, False) for d in mine]
    hops: list[RouteOption] = []
    for o in mine:
        direct, over = _routes_from(ctx, o)
        routes += [r for r in direct if r[0] not in own]
        hops += [r for r in over if r[0] not in own]
    if len(_ROUTE_SETS) > 4096:  # property tests make many contexts: keep the memo bounded
        _ROUTE_SETS.clear()
    _ROUTE_SETS[key] = (ctx, routes, hops)
    return routes, hops


_ROUTES_FROM: dict[tuple[int, str], tuple[Context, list[RouteOption], list[RouteOption]]] = {}


def _routes_from(ctx: Context, origin: str) -> tuple[list[RouteOption], list[RouteOption]]:
    """Every direct route and every LR hop out of ``origin`` whose reach and rolls hold, in map order
    (the player's own airports are filtered out by the caller)."""
    found = _ROUTES_FROM.get((id(ctx), origin))
    if found is not None and found[0] is ctx:
        return found[1], found[2]
    graph = _graph(ctx)
    direct: list[RouteOption] = []
    over: list[RouteOption] = []
    for m in graph.successors(origin):
        direct += _reachable(ctx, origin, m, None)
    for m in graph.successors(origin):
        for d in graph.successors(m):
            if d not in (origin, m):
                over += _reachable(ctx, origin, d, m)
    if len(_ROUTES_FROM) > 4096:
        _ROUTES_FROM.clear()
    _ROUTES_FROM[(id(ctx), origin)] = (ctx, direct, over)
    return direct, over


def _reachable(ctx: Context, origin: str, destination: str, via: str | None) -> list[RouteOption]:
    """The route as (destination, origin, via, needs an LR tile) when the map has it and its rolls are
    defined (AER-R-14..17, R-21), else nothing."""
    try:
        route = cached_route(ctx, origin, destination, via)
        _memo_rolls(ctx, origin, destination, via, Opponents())
    except RiskError:
        return []
    return [(destination, origin, via, needs_long_range(ctx, route))]


def needs_long_range(ctx: Context, route: Any) -> bool:
    """AER-R-16 (l.81-82), AER-AMB-21: a leg marked long-range in the pack needs a tile from an LR card.
    The pack's mark on a ‡ route (l.103-107) is AER-AMB-21's default ``lr``; under ``no-lr`` only
    connections printed with the LR symbol need one, so a ‡ leg never does."""
    no_lr = ctx.r("AER-AMB-21") == "no-lr"  # AER-AMB-21 no-lr: the ‡ routes need no LR card
    return any(leg.long_range and not (no_lr and leg.dagger) for leg in route.legs)  # AER-AMB-21


def _open_slots(
    ctx: Context, slots: tuple[Any, ...], destination: str, seat: int, players: int, stage: int, upgrade: bool
) -> tuple[int, ...]:
    """``_slots_open``, kept per destination (the slots tuple is shared by every map until a tile is placed
    there, so most destinations are worked out once for many decisions) as a tuple: a tuple of numbers
    kept for long is soon left alone by the garbage collector, a list never is."""
    known = _OPEN_SLOTS.answers(ctx, (seat, players, stage, upgrade))
    found = known.get(destination)
    if found is None or found[0] is not slots:
        found = known[destination] = (slots, tuple(_slots_open(ctx, slots, destination, seat, players, stage, upgrade)))
    return found[1]


# open slots per seat, players, stage and kind, and destination
_OPEN_SLOTS: SlotsMemo[tuple[int, ...]] = SlotsMemo()


def _slots_open(
    ctx: Context, slots: tuple[Any, ...], destination: str, seat: int, players: int, stage: int, upgrade: bool
) -> list[int]:
    """The slots slot_rejection accepts for a stage-``stage`` tile (AER-R-29/30): an empty slot while
    one is empty; else a lower stage that is no home tile; an upgrade only onto one's own tile."""
    in_play = ctx.pack.destination(destination).slots_in_play(players)
    held = slots[:in_play]
    mine = [i for i, a in enumerate(held) if a is not None and a.owner == seat]
    if bool(mine) != upgrade:
        return []
    empty = [i for i, a in enumerate(held) if a is None]
    if empty and not (upgrade and ctx.r("AER-AMB-13") == "anytime"):  # AER-AMB-13 anytime: upgrade beside one
        return [] if upgrade else empty
    candidates = mine[:1] if upgrade else range(in_play)
    return [i for i in candidates if not held[i].home and held[i].stage < stage]


_GRAPHS: dict[int, Any] = {}
_ROUTES: dict[tuple[int, str, str, str | None], Any] = {}


def cached_route(ctx: Context, origin: str, destination: str, via: str | None) -> Any:
    """risk.route_from_pack, memoised per pack (it builds the map graph afresh on every call)."""
    key = (id(ctx.pack), origin, destination, via)
    if key not in _ROUTES:
        graph = _graph(ctx)
        names = [origin, destination] if via is None else [origin, via, destination]
        if any(not graph.has_edge(a, b) for a, b in itertools.pairwise(names)):
            _ROUTES[key] = None
        else:
            _ROUTES[key] = route_from_pack(ctx.pack, origin, destination, via)
    route = _ROUTES[key]
    if route is None:
        raise RiskError(f"no connection on the map along {origin} -> {via or ''} -> {destination} (AER-R-14, AER-R-15)")
    return route


def _graph(ctx: Context) -> Any:
    key = id(ctx.pack)
    if key not in _GRAPHS:
        _GRAPHS[key] = (ctx.pack, ctx.pack.graph())
    return _GRAPHS[key][1]


# ---------------------------------------------------------------------------
# legal_actions
# ---------------------------------------------------------------------------


def legal_actions(ctx: Context, state: AerState) -> list[AerAction]:
    """Every action ``check`` accepts now, chance steps included."""
    if state.phase is Phase.ACTION:  # the phases most asked first
        return [
            *maintenances(state),
            *buys(ctx, state),
            *placements(ctx, state),
            *claims(ctx, state),
            *advantage_buys(ctx, state),
            *subsidies(ctx, state),
            *empty_placements(ctx),
        ]
    if state.phase is Phase.PLACING:
        return [*placements(ctx, state), STOP_PLACING]
    if state.phase in CHANCE_PHASES:
        return [a for a, _ in chance_outcomes(ctx, state)]
    if state.phase is Phase.CHOOSE_HOME:
        return list(home_choices(ctx, state))
    if state.phase is Phase.COVER:
        return covers(ctx, state)
    if state.phase is Phase.ADVANTAGE_PICK:
        return list(picks(ctx, state))
    if state.phase is Phase.CLAIMING:
        out: list[AerAction] = [PLAY_NIGHT_FLIGHTS] if me(state).held(NIGHT_FLIGHTS) else []
        if state.turn.claims_left > 0:
            out += [c for c in claims(ctx, state) if night_flights_rejection(ctx, state, c) is None]
        return [*out, END_CLAIMS]
    return []


def covers(ctx: Context, state: AerState) -> list[AerAction]:
    """AER-R-23/26/27/47: the choices after an NCR throw."""
    attempt = state.turn.attempt
    assert attempt is not None
    if attempt.pending:
        return [PLAY_RADIO_BEACONS, KEEP_THROW]
    _, shortfall, options = cover_choices(ctx, state)
    out: list[AerAction] = [shortfall_cover(0, 0)] if shortfall <= 0 else [*options, DECLINE]
    if len(attempt.rolls) > 1:
        out.append(ABORT)
    if ctx.r("AER-AMB-26") == "at-once" and radio_rejection(state) is None:
        out.append(PLAY_RADIO_BEACONS)
    return out


def empty_placements(ctx: Context) -> tuple[StopPlacing, ...]:
    """AER-AMB-09 ``pass``: a placement action may place no tile (l.76), a free pass for any player."""
    return (STOP_PLACING,) if ctx.r("AER-AMB-09") == "pass" else ()  # AER-AMB-09


def maintenances(state: AerState) -> tuple[PlayEngineMaintenance, ...]:
    """AER-R-44: with an Engine Maintenance tile held (maintenance_rejection's test, without building its
    refusal: most players hold none)."""
    return (PLAY_ENGINE_MAINTENANCE,) if me(state).held(ENGINE_MAINTENANCE) >= 1 else ()


def advantage_buys(ctx: Context, state: AerState) -> list[TakeAdvantage | RollForAdvantages]:
    if price_rejection(state) is not None:
        return []
    kinds = available_types(ctx, state)
    out: list[TakeAdvantage | RollForAdvantages] = [take_advantage(t) for t in kinds]
    if kinds:
        out.append(ROLL_FOR_ADVANTAGES)
    return out


def buys(ctx: Context, state: AerState) -> list[BuyPlane]:
    """Every BuyPlane buy_rejection accepts: the display cards the player can pay for (AER-R-08)."""
    player = me(state)
    money = player.money
    gap = ctx.r("AER-AMB-06") == "gap"
    # AER-R-45: no boosted buy without an Increased Production tile held (increased_production_rejection
    # judges the rest; asked only when the player holds one, as most never do)
    holds = player.held(INCREASED_PRODUCTION) >= 1
    display = state.display
    card = ctx.pack.card
    out: list[BuyPlane] = []
    for position, number in enumerate(display):
        # skipped(): the cards before it on the ascending display, or the numbers between (AER-AMB-06)
        passed = number - display[0] if gap else position
        if card(number).price + passed <= money:
            out.append(buy_plane(number))
            if holds:
                boosted = buy_plane(number, True)
                if increased_production_rejection(ctx, state, boosted) is None:
                    out.append(boosted)
    return out


def claims(ctx: Context, state: AerState) -> list[ClaimPassenger]:
    """Every ClaimPassenger claim_rejection accepts: a tile waiting at one's airport (or in the overflow
    area) bound for one's airport, onto each card with the room (AER-R-34..37)."""
    player = me(state)
    airports = set(state.airports(state.to_move))
    if not airports or not player.cards:
        return []
    tile = ctx.pack.passenger
    # (tile, from the overflow area, its capacity) for the tiles bound for one's airports, in order
    candidates = [
        (t, False, tile(t).capacity)
        for w in state.waiting
        if w.city in airports
        for t in w.slots
        if t is not None and tile(t).destination in airports
    ] + [(t, True, tile(t).capacity) for t in state.overflow if tile(t).destination in airports]
    if not candidates:
        return []
    closed = ctx.r("AER-AMB-42") == "closed"
    rooms = [(card.number, room(ctx, card)) for card in player.cards if not (card.face_down and closed)]
    out: list[ClaimPassenger] = []
    for tile_id, overflow, needed in candidates:
        for number, free in rooms:
            if free >= needed:
                out.append(claim_passenger(tile_id, number, overflow))
    return out


def subsidies(ctx: Context, state: AerState) -> tuple[TakeSubsidy, ...]:
    return (TAKE_SUBSIDY,) if subsidy_rejection(ctx, state) is None else ()


_Judge = Callable[[Context, AerState, AerAction], Rejection | tuple[Rejection | None, ...] | None]
# The layers ``rejections`` judges apart, in ``check``'s order.
_JUDGES: tuple[_Judge, ...] = (phase_rejection, repeat_rejection, own_rejection, condition_rejections)


__all__ = [
    "ADVANTAGE_PRICE",
    "BUILT_PHASES",
    "CHANCE_PHASES",
    "DARING_PILOT",
    "ENGINE_MAINTENANCE",
    "INCREASED_PRODUCTION",
    "NIGHT_FLIGHTS",
    "RADIO_BEACONS",
    "available_types",
    "check",
    "legal_actions",
    "plane_cost",
    "reject",
    "rejections",
    "room",
    "skipped",
    "tiles_loaded",
    "unavailable",
]
