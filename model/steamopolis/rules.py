"""Steamopolis legality: one named condition per rule, each returning a
Rejection (rule ID + plain words) or None; ``legal_actions`` generates what
``check`` accepts.  Effects live in transitions.py.

Scope of this layer: the multiplayer turn (start of turn, the three actions,
channelling, the flight with passengers and purchases, effect parts, store
steps, end of turn), with parasites and envy (STM-R-52..56), sponsors and
charity galas (R-57/58), 'buy tile' and 'use another district' (R-61) and
character 7's pink marker (R-04).  When another player acts inside the turn
(a parasite's owner, an envious player) ``turn.decider`` names whose
decision it is: :func:`decider`; every rule below judges that player's
holdings (:func:`me`).

The solo game (R-68..73) adds few decisions of its own: time pressure and the
shadow stones need none (transitions.py); 'remove tiles' at the end of FLY
offers :class:`UseRemovedTile` / :class:`LeaveParasites` while parasites lie
beside the passenger stack, and 'activate a parasite' becomes
:class:`UseFaceUpTile` (STM-R-72).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache, partial
from itertools import combinations, permutations
from typing import assert_never

import attrs

from rulecraft.core import Rejection, all_rejections, listed
from rulecraft.model.steamopolis.actions import (
    CHANCE_ACTIONS,
    EFFECT_ACTIONS,
    ActivateParasite,
    BuildCapacity,
    BuildStartingRoom,
    BuyBanner,
    BuyBonusMarker,
    BuyMachine,
    ChannelPressure,
    ChooseSide,
    DealCharacter,
    DealMarketTile,
    DealStartingMachine,
    DeclineCost,
    District,
    EndOfTurnStep,
    EndStep,
    EndTurn,
    FlyToAllTargets,
    GainStone,
    LeaveParasites,
    LetLapse,
    LetPlayer,
    MakeSteam,
    MoveArrowStones,
    MoveBaseMarker,
    MoveLeft,
    ParasiteAt,
    PassTurn,
    PayCost,
    PickUp,
    PlaceParasite,
    PlacePinkMarker,
    PlaceStone,
    RaiseOneStone,
    RaisePressure,
    RevealPassenger,
    SetTarget,
    ShakeOffParasite,
    SkipPart,
    SkipStep,
    StmAction,
    StopBuying,
    Store,
    Symbol,
    TakeBack,
    TakeGala,
    TakeResources,
    TakeSponsor,
    TurnArrows,
    UseDistrict,
    UseFaceUpTile,
    UseOtherDistrict,
    UsePart,
    UseRemovedTile,
)
from rulecraft.model.steamopolis.catalogue import reject
from rulecraft.model.steamopolis.components import Destination, MachineTile, MarketSlot, PassengerTile, Resource
from rulecraft.model.steamopolis.components import District as BoardDistrict
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import (
    COSTS,
    ActivateParasites,
    AdvanceBaseMarker,
    BuyTile,
    Either,
    EnvyParasite,
    GainCapacityTile,
    GainCharityGala,
    GainPinkMarker,
    GainPressureStone,
    GainResources,
    GainSponsor,
    Handover,
    IncreaseOneStone,
    IncreasePressure,
    LookAtMachine,
    NextSharer,
    PayCrystalsPerStone,
    PayResources,
    PlaceParasites,
    Program,
    ReturnStone,
    ShakeOff,
    Step,
    StoneToEight,
    TurnSponsor,
    TurnStones,
    UseAllActivationEffects,
    UseAnotherDistrict,
    VotePoints,
    walk,
)
from rulecraft.model.steamopolis.gauge import (
    BonusMarker,
    Gauge,
    GaugeError,
    GaugeLayout,
    Item,
    Stone,
    bumped,
    can_move,
    increase,
    increase_one_stone,
    marker_spaces_for,
    movable,
)
from rulecraft.model.steamopolis.setup import chance_outcomes, room_choices, room_rejection
from rulecraft.model.steamopolis.state import (
    ACTION,
    CHANNEL,
    DEAL,
    END_OF_TURN,
    FLIGHT,
    OVER,
    REVEAL,
    SETUP_ROOM,
    SHADOW,
    START_OF_TURN,
    BoardStone,
    Market,
    Parasite,
    Passenger,
    PlayerState,
    RoomTile,
    StmState,
    stones_owned,
)

CHANCE_PHASES = (DEAL, REVEAL)

# Parts any effect may hold that this layer can only let lapse, with the rule that governs them.
NOT_YET: dict[str, str] = {}
PLAIN_PARTS = (VotePoints, LookAtMachine, StoneToEight, UseAllActivationEffects, TurnSponsor)
RESOURCES: tuple[Resource, ...] = ("crystal", "gear")
PASSENGERS: tuple[Passenger, ...] = ("banker", "stoker")
SYMBOLS: tuple[Symbol, ...] = ("activation", "passive")


# ---------------------------------------------------------------------------
# Small readings of the state
# ---------------------------------------------------------------------------


def decider(state: StmState) -> int:
    """Whose decision it is: the player to move, or another player acting inside the turn (a parasite's
    owner, an envious player; STM-R-53/54).  The game asks this seat."""
    seat = state.turn.decider
    return state.to_move if seat is None else seat


def me(state: StmState) -> PlayerState:
    """The deciding player's holdings (:func:`decider`, read in place: asked several times a step)."""
    seat = state.turn.decider
    return state.players[state.to_move if seat is None else seat]


def value_of(ctx: Context, gauge: Gauge, space: int) -> int | None:
    """The pressure value of the stone on ``space`` (STM-R-14); None: no stone there."""
    if not 0 <= space < len(gauge.spaces) or space not in gauge.stone_spaces():
        return None
    return ctx.layout.value(space)


def placeable(ctx: Context, state: StmState, space: int) -> bool:
    """STM-R-26: the stone on ``space`` has a free district at or below its value."""
    v = value_of(ctx, me(state).gauge, space)
    return v is not None and bool(ctx.free_districts(state, v))


def can_make_steam(state: StmState) -> bool:
    return bool(movable(me(state).gauge))  # STM-R-24 A


def can_set_target(ctx: Context, state: StmState) -> bool:
    return any(placeable(ctx, state, s) for s in me(state).gauge.stone_spaces())  # STM-R-24 B


def can_fly(ctx: Context, state: StmState) -> bool:
    return bool(ctx.own_stones(state, decider(state)))  # STM-R-24 C


def passenger_tile(ctx: Context, state: StmState) -> PassengerTile:
    """STM-R-35/R-37/R-51: the tile taken this turn, else the face-up one, else the board's print."""
    tile_id = state.passengers.taken or state.passengers.face_up
    return ctx.pack.passenger(tile_id) if tile_id else ctx.pack.board_destinations


def standing(state: StmState, passenger: Passenger) -> int | None:
    return state.passengers.banker if passenger == "banker" else state.passengers.stoker


def destination(ctx: Context, state: StmState, passenger: Passenger) -> int:
    """STM-R-35: the tile's destination, or the alternate when he already stands there."""
    tile = passenger_tile(ctx, state)
    dest: Destination = tile.banker if passenger == "banker" else tile.stoker
    return dest.alternate if standing(state, passenger) == dest.destination else dest.destination


def carried_destination(ctx: Context, state: StmState, passenger: Passenger) -> int:
    """STM-AMB-09: fixed at pick-up ('pick-up'), or re-read from the tile ('each-level')."""
    if ctx.r("STM-AMB-09") == "each-level":
        return destination(ctx, state, passenger)
    return dict(state.turn.boarded)[passenger]


def market_at(state: StmState, level: int, extra: bool) -> Market | None:
    for m in state.markets:
        if m.level == level and m.extra == extra:
            return m
    return None


@attrs.frozen
class Visible:
    """STM-R-40 (p.18 'consider only the visible symbols on the market'): the symbols in force for the
    face-up tile, counted: VP, machine removals and envies of row 1, stones -1 and envies of row 2,
    the resources of row 3.  STM-AMB-25 'per-slot': its own slot's; 'cumulative': its slot's added to
    those of the emptied slots to its left (the lower ranks)."""

    machine_vp: int
    removals: int
    machine_envy: int
    stones: int
    banner_envy: int
    resources: PayResources


def _visible_uncached(slots: tuple[MarketSlot, ...]) -> Visible:
    return Visible(
        sum(s.machine_vp for s in slots),
        sum(s.remove_machine for s in slots),
        sum(s.machine_envy for s in slots),
        sum(s.banner_stone for s in slots),
        sum(s.banner_envy for s in slots),
        PayResources(sum(s.resources.crystals for s in slots), sum(s.resources.gears for s in slots)),
    )


_visible = lru_cache(maxsize=64)(_visible_uncached)  # memoised by a call: mutmut skips decorated functions


def slot_of(ctx: Context, market: Market, tile: MachineTile) -> Visible:
    """STM-R-40 / STM-AMB-25: the symbols beside the face-up tile's slot ('per-slot'), with those of the
    emptied slots to its left ('cumulative'; a 4-player extra market has its one slot)."""
    if market.extra:
        return _visible(ctx.pack.extra_market_slots[:1])
    if ctx.r("STM-AMB-25") == "cumulative":
        return _visible(tuple(s for s in ctx.pack.market_slots if s.rank <= tile.rank))
    return _visible(tuple(s for s in ctx.pack.market_slots if s.rank == tile.rank))


def tile_price(ctx: Context, market: Market) -> tuple[MachineTile, Visible, PayResources]:
    """The face-up tile, its slot, and row 3 plus the tile's own costs (STM-R-40); memoised per tile and
    market kind (every flight step on levels 2-4 asks)."""
    return ctx.memo((tile_price, market.tiles[0], market.extra), lambda: _tile_price(ctx, market))


def _tile_price(ctx: Context, market: Market) -> tuple[MachineTile, Visible, PayResources]:
    tile = ctx.pack.machine(market.tiles[0])
    slot = slot_of(ctx, market, tile)
    pay = PayResources(slot.resources.crystals + tile.costs.crystals, slot.resources.gears + tile.costs.gears)
    return tile, slot, pay


def afford(player: PlayerState, pay: PayResources) -> bool:
    return player.crystals >= pay.crystals and player.gears >= pay.gears


def head(state: StmState) -> Step:
    return state.turn.pending[0][0]


def over_capacity(ctx: Context, player: PlayerState) -> bool:
    return player.crystals + player.gears > ctx.storage(player)


def unstored(player: PlayerState) -> str:
    """STM-AMB-19 'next-step': a refusal's note on the resources held and not stored yet, which pay
    nothing before the player's next store step (nothing is held under 'at-once': no note)."""
    if player.held == (0, 0):
        return ""
    crystals, gears = player.held
    return f" ({crystals} crystals and {gears} gears are held until your next store step: STM-AMB-19 'next-step')"


# -- the solo game (STM-R-68..73) ----------------------------------------------------------------


# STM-R-73 (p.36): the solo rank table, by final VP (the highest threshold reached).
SOLO_RANKS: tuple[tuple[int, str], ...] = (
    (0, "Nothing but hot air"),
    (7, "Hobby mechanic"),
    (14, "Tinkerer"),
    (21, "Engineer"),
    (28, "Chief engineer"),
    (35, "Airship pirate"),
    (42, "Master of steam"),
    (49, "Deus Ex Machina"),
)


def solo_lost(ctx: Context, state: StmState) -> bool:
    """STM-R-69 / STM-AMB-28: the solo player's VP reached the losing line ('zero': 0 VP or less;
    'below-zero': below 0)."""
    if state.solo is None:
        return False
    vp = state.players[0].vp
    return vp < 0 if ctx.r("STM-AMB-28") == "below-zero" else vp <= 0


def beside_stack(state: StmState) -> int:
    """STM-R-72: the solo player's parasites lying beside the passenger stack."""
    return state.solo.parasites_beside_stack if state.solo is not None else 0


def end_steps(ctx: Context, state: StmState) -> tuple[EndStep, ...]:
    """STM-R-49 / STM-AMB-16 'free' (p.24, p.35, p.37): the steps of the end of the turn still to run,
    of which the player picks the next: the passenger rewards with the new passenger tile (a passenger
    was transported), the waiting end-of-turn effects, and the solo REMOVE TILES after a FLY; none while
    'remove tiles' is under way.  Under 'fixed' there is nothing to pick: ()."""
    turn = state.turn
    if ctx.r("STM-AMB-16") != "free" or state.phase is not END_OF_TURN or turn.removal not in (None, "done"):
        return ()
    steps: list[EndStep] = []
    if turn.transported:
        steps.append("passengers")
    if turn.end_of_turn:
        steps.append("end-of-turn effects")
    if state.solo is not None and turn.flight_start and turn.removal is None:
        steps.append("remove tiles")
    return tuple(steps)


def end_step_rejection(ctx: Context, state: StmState, action: EndOfTurnStep) -> Rejection | None:
    """STM-R-49 / STM-AMB-16: under 'free' one of the end-of-turn steps still to run; under 'fixed' the
    end of the turn runs in its printed order and is never chosen."""
    if ctx.r("STM-AMB-16") != "free":
        return reject(
            "STM-R-49",
            "the end of the turn runs in its fixed order: passenger rewards and the new passenger tile, then"
            " the end-of-turn effects, then (solo) remove tiles (STM-AMB-16 'fixed')",
        )
    steps = end_steps(ctx, state)
    if action.step not in steps:
        waiting = ", ".join(steps) or "none"
        why = f"'{action.step}' is not an end-of-turn step still to run (STM-AMB-16 'free'; waiting: {waiting})"
        return reject("STM-R-49", why)
    return None


def end_turn_rejection(ctx: Context, state: StmState) -> Rejection | None:
    """STM-R-49 / STM-AMB-16 'free': the turn ends once every end-of-turn step has run."""
    steps = end_steps(ctx, state)
    if steps:
        return reject("STM-R-49", f"choose the next end-of-turn step first (STM-AMB-16 'free'): {', '.join(steps)}")
    return None


def printed_destinations(ctx: Context, state: StmState) -> tuple[int, int]:
    """STM-R-71/72: the banker's and the stoker's printed destination on the passenger tile in force
    (the one taken at this turn's first drop-off, STM-R-37, else the face-up one, else the board's
    print when the stack is used up, STM-AMB-31); alternates ignored."""
    tile = passenger_tile(ctx, state)
    return tile.banker.destination, tile.stoker.destination


def tile_effects(ctx: Context, tile_id: str, symbol: str) -> tuple[Program, ...]:
    """STM-R-72: a machine tile's activation effect (its piped boilers, as a parasite on the activation
    symbol uses them, STM-R-54) or its passive effect; () when it shows no such symbol."""
    return tile_programs(ctx, RoomTile("machine", tile_id), symbol)


# ---------------------------------------------------------------------------
# The judge
# ---------------------------------------------------------------------------


def check(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    """None when ``action`` is legal for the seat to move, else the rule that forbids it: the step's
    rule first (is this kind of action due now), then the action's own."""
    return step_rejection(ctx, state, action) or own_rejection(ctx, state, action)


def rejections(ctx: Context, state: StmState, action: StmAction) -> tuple[Rejection, ...]:
    """Every rule that forbids ``action``, each layer judged on its own: the step's (the one ``check``
    cites first), the action's own rule as if its step had come, and the independent conditions of
    that rule (a price beside a room or a space).  Another implementation may check them in another
    order and cite any of them."""
    return all_rejections(check(ctx, state, action), _JUDGES, ctx, state, action)


# -- the step layer: whose step it is and what kind of action it admits ----------------------------


def step_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    """Chance's deals (whole: an outcome or not), the store step (STM-R-32), an effect waiting for a
    decision (STM-R-22), parasites beside the stack (STM-R-72), then the phase of the turn."""
    if state.phase in CHANCE_PHASES:
        if action in [a for a, _ in chance_outcomes(ctx, state)]:
            return None
        return reject("STM-R-51" if state.phase is REVEAL else "STM-R-03", f"chance cannot deal {action!r} now")
    if isinstance(action, CHANCE_ACTIONS):
        return reject("STM-R-03", "only chance deals tiles and characters")
    turn = state.turn
    if turn.storing:
        if isinstance(action, Store):
            return None
        return reject("STM-R-32", "store your resources first: you hold more than your storage spaces")
    if turn.pending:
        if effect_step(state, action):
            return None
        return reject("STM-R-22", f"finish the effect first: {head(state)!r} waits for a decision")
    if isinstance(action, EFFECT_ACTIONS):
        return reject("STM-R-22", "no effect is being carried out")
    if isinstance(action, Store):
        return reject("STM-R-32", "no store step is due")
    if isinstance(action, UseRemovedTile | LeaveParasites):
        return None  # removal_rejection judges the step (STM-R-72) with the rest
    return phase_step_rejection(ctx, state, action)


def effect_step(state: StmState, action: StmAction) -> bool:
    """A decision of the effect waiting: a part's action, or a purchase for 'buy tile' (STM-R-61)."""
    return isinstance(action, EFFECT_ACTIONS) or (
        isinstance(action, BuyMachine | BuyBanner) and isinstance(head(state), BuyTile)
    )


def phase_step_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    phase = state.phase
    if phase is START_OF_TURN:
        if isinstance(action, MoveArrowStones):
            return None
        return reject("STM-R-23", "the turn starts by moving the arrow stones")
    if phase is ACTION:
        return action_step_rejection(ctx, state, action)
    if phase is CHANNEL:
        if isinstance(action, MoveLeft | PlaceStone):
            return None
        return reject("STM-R-29", "the channelled stone must be moved left or placed")
    if phase is FLIGHT:
        return flight_step_rejection(state, action)
    if phase is END_OF_TURN:
        if state.turn.removal == "parasites":
            return reject(
                "STM-R-72", "remove tiles: take back a parasite to use a removed tile's effect, or leave them"
            )
        if isinstance(action, EndTurn | EndOfTurnStep):
            return None  # their own rules judge them (STM-R-49, STM-AMB-16)
        return reject("STM-R-49", "the action is over: only the end of the turn remains")
    if phase is SETUP_ROOM:
        if not isinstance(action, BuildStartingRoom):
            return reject("STM-R-13", "build the starting machine and the capacity tile into your machine room")
        return None
    if phase is OVER:
        return reject("STM-R-67", "the game is over")
    return reject("STM-R-03", f"chance decides the {phase.value} step, not a player")


# STM-R-23: the three actions (and the pass when none is possible).
ACTION_CHOICES: tuple[type, ...] = (MakeSteam, SetTarget, ChannelPressure, FlyToAllTargets, PassTurn)


def action_step_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    """STM-R-23: one of the three actions; STM-R-66: in the final turn, the step due or a skip."""
    if state.turn.final_step is not None:
        return None if isinstance(action, SkipStep) else final_step_rejection(ctx, state, action)
    if isinstance(action, SkipStep):
        return reject("STM-R-66", "only a final turn lets you skip an action")
    if not isinstance(action, ACTION_CHOICES):
        return reject("STM-R-23", "choose MAKE STEAM, SET 1 TARGET or FLY TO ALL TARGETS")
    return None


def flight_step_rejection(state: StmState, action: StmAction) -> Rejection | None:
    """STM-R-33: take back a stone, then its district's steps (STM-R-38), or the level-1 buying (R-46)."""
    step = state.turn.step
    if isinstance(action, TakeBack):
        if step != "next":
            return reject("STM-R-33", "finish the steps of the current stone before taking back the next")
        return None
    if isinstance(action, BuyBonusMarker | StopBuying) and step == "buying":
        return None
    if step == "buying":
        return reject("STM-R-46", "buy another bonus marker or stop buying")
    if step != "passengers":
        return reject("STM-R-33", "take back one of your stones first")
    if isinstance(action, PickUp | UseDistrict | LetLapse | BuyMachine | BuyBanner | BuyBonusMarker):
        return None
    return reject("STM-R-38", "choose the district effect, a purchase, or nothing")


# -- the action's own rules ----------------------------------------------------------------------------


def own_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    """The action's own rules, once its step has come (``rejections`` asks out of step too), picked by
    its kind (mypy --strict proves every kind has its branch)."""
    if state.phase in CHANCE_PHASES:
        return None  # a deal is judged whole by the step: one of chance's outcomes or not
    match action:
        case BuyBonusMarker():
            return bonus_rejection(ctx, state, action)
        case (
            PayCost()
            | DeclineCost()
            | ChooseSide()
            | SkipPart()
            | UsePart()
            | TakeResources()
            | RaisePressure()
            | RaiseOneStone()
            | GainStone()
            | MoveBaseMarker()
            | TurnArrows()
            | BuildCapacity()
            | PlaceParasite()
            | ActivateParasite()
            | UseFaceUpTile()
            | ShakeOffParasite()
            | LetPlayer()
            | TakeSponsor()
            | TakeGala()
            | PlacePinkMarker()
            | UseOtherDistrict()
        ):
            return effect_rejection(ctx, state, action)
        case BuyMachine() | BuyBanner() if state.turn.pending and effect_step(state, action):
            return effect_rejection(ctx, state, action)  # 'buy tile' (STM-R-61)
        case BuyMachine() | BuyBanner():
            return buy_tile_rejection(ctx, state, action)
        case Store():
            return store_rejection(ctx, state, action)
        case UseRemovedTile() | LeaveParasites():
            return removal_rejection(ctx, state, action)
        case MoveArrowStones():
            return arrows_rejection(ctx, state, action)
        case MoveLeft() | PlaceStone():
            return channel_rejection(ctx, state, action)
        case BuildStartingRoom():
            why = room_rejection(ctx, state, action)
            return reject("STM-R-13", why) if why else None
        case TakeBack():
            return take_back_rejection(ctx, state, action)
        case PickUp():
            return pick_up_rejection(ctx, state, action)
        # The own rules of the three actions, the skip and the pass (STM-R-23/24, R-26..28, R-66).
        case SkipStep():
            # STM-AMB-17: a skip of the final turn's step due; outside the final turn the step layer refuses it.
            return final_step_rejection(ctx, state, action) if state.turn.final_step is not None else None
        case MakeSteam():
            return make_steam_rejection(ctx, state, action)
        case SetTarget():
            return set_target_rejection(ctx, state, action)
        case ChannelPressure():
            return channel_start_rejection(ctx, state, action)
        case FlyToAllTargets():
            if not can_fly(ctx, state):
                return reject("STM-R-24", "FLY TO ALL TARGETS needs at least one of your stones on the board")
            return None
        case PassTurn():
            return pass_rejection(ctx, state)
        case StopBuying() | UseDistrict() | LetLapse():
            return None  # nothing beyond their step
        case EndTurn():
            return end_turn_rejection(ctx, state)
        case EndOfTurnStep():
            return end_step_rejection(ctx, state, action)
        case DealCharacter() | DealStartingMachine() | DealMarketTile() | RevealPassenger():
            return None  # a deal is judged whole by the step: one of chance's outcomes or not
        case _:
            assert_never(action)


def pass_rejection(ctx: Context, state: StmState) -> Rejection | None:
    """STM-R-23 / STM-AMB-12: the turn passes only when none of the three actions is possible."""
    if state.turn.final_step is not None:
        return reject("STM-R-66", "in the final turn, skip the action instead")
    if can_make_steam(state) or can_set_target(ctx, state) or can_fly(ctx, state):
        return reject("STM-R-23", "you must perform one of the three actions")
    if ctx.r("STM-AMB-12") == "stuck":  # the rules give no way on: no move, the game cannot go on
        return reject(
            "STM-R-23", "none of the three actions is possible and the turn may not pass (STM-AMB-12 'stuck')"
        )
    return None


def condition_rejections(ctx: Context, state: StmState, action: StmAction) -> tuple[Rejection | None, ...]:
    """The conditions of an action's own rule that can fail together, each judged apart: a district's
    level beside its being free (STM-R-26/27), a tile's price beside the room for it (STM-R-40..42), a
    marker's price beside its space (STM-R-46/47)."""
    match action:
        case SetTarget():
            v = value_of(ctx, me(state).gauge, action.space)
            return district_conditions(ctx, state, action.level, action.position, v) if v is not None else ()
        case PlaceStone() if state.turn.channel is not None:
            return district_conditions(ctx, state, action.level, action.position, state.turn.channel)
        case BuyMachine() if state.turn.active is not None and not state.turn.pending:
            market = market_at(state, state.turn.active[0], action.extra)
            if market is None or not market.tiles:
                return ()
            _tile, slot, _pay = tile_price(ctx, market)
            return (build_in_rejection(ctx, me(state), slot, action),)
        case BuyBonusMarker() if state.turn.active is not None and state.turn.active[0] == 1:
            left = state.bonus.crystal_row if action.row == "crystal" else state.bonus.gear_row
            if not left:
                return ()
            numeral = bought_numeral(ctx, left, action)
            return (marker_space_rejection(ctx, me(state).gauge, numeral, action.space, action.bump),)
        case _:
            return ()


def district_conditions(
    ctx: Context, state: StmState, level: int, position: str, value: int
) -> tuple[Rejection | None, ...]:
    """STM-R-26 and STM-R-27 of ``district_rejection``, each judged apart (when the district exists)."""
    if not any(d.level == level and d.position == position for d in ctx.districts(state)):
        return ()
    return (
        reject("STM-R-26", f"a stone of pressure value {value} reaches level {value} at most, not {level}")
        if level > value
        else None,
        None
        if ctx.is_free(state, level, position)  # type: ignore[arg-type]
        else reject("STM-R-27", f"the {position} district of level {level} is not free"),
    )


# -- start of turn and the choice of action ------------------------------------------------------


def arrows_rejection(ctx: Context, state: StmState, action: MoveArrowStones) -> Rejection | None:
    """STM-R-19 / STM-AMB-07: each arrow stone on the gauge once, in the player's order; 'pooled': one
    increase by the number of arrow stones (STM-R-15), its increments on any own stones; when none can
    move they all lapse, as the blocked arrow stones do under 'each' (so the same order stands)."""
    arrows = me(state).gauge.arrow_spaces()
    if ctx.r("STM-AMB-07") == "pooled" and movable(me(state).gauge):
        return pressure_rejection(ctx, me(state).gauge, len(arrows), action.order)
    if len(set(action.order)) != len(action.order) or not set(action.order) <= set(arrows):
        return reject("STM-R-19", f"the order {list(action.order)} must name arrow stones {list(arrows)}, each once")
    if ctx.r("STM-AMB-07") != "optional" and sorted(action.order) != list(arrows):
        return reject("STM-R-19", f"every arrow stone on the gauge moves: {list(arrows)} (STM-AMB-07 'each')")
    return None


# STM-R-66: the final turn's actions in their fixed order, and what each step admits.
FINAL_STEP_ACTIONS: dict[str, tuple[type, ...]] = {
    "steam": (MakeSteam,),
    "target": (SetTarget, ChannelPressure),
    "fly": (FlyToAllTargets,),
}
FINAL_STEP_NAMES = {"steam": "MAKE STEAM", "target": "SET 1 TARGET", "fly": "FLY TO ALL TARGETS"}


def final_step_possible(ctx: Context, state: StmState) -> bool:
    step = state.turn.final_step
    if step == "steam":
        return can_make_steam(state)
    if step == "target":
        return can_set_target(ctx, state) or any(
            channel_start_rejection(ctx, state, ChannelPressure(s)) is None for s in me(state).gauge.stone_spaces()
        )
    return can_fly(ctx, state)


def final_step_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    """STM-R-66 / STM-AMB-17: arrows, then MAKE STEAM, SET 1 TARGET, FLY, in this order, each optional."""
    step = state.turn.final_step
    assert step is not None
    if isinstance(action, SkipStep):
        if ctx.r("STM-AMB-17") == "compulsory" and final_step_possible(ctx, state):
            return reject("STM-R-66", f"{FINAL_STEP_NAMES[step]} is possible, so it is compulsory (STM-AMB-17)")
        return None
    if not isinstance(action, FINAL_STEP_ACTIONS[step]):
        return reject(
            "STM-R-66",
            f"the final turn is MAKE STEAM, then SET 1 TARGET, then FLY TO ALL TARGETS: now {FINAL_STEP_NAMES[step]}"
            " or skip it",
        )
    return None


def pressure_rejection(
    ctx: Context, gauge: Gauge, x: int, picks: tuple[int, ...], extra: GaugeLayout | None = None
) -> Rejection | None:
    """STM-R-15 / STM-AMB-32: the increments are legal and none lapses voluntarily; ``extra``: STM-AMB-04
    'extra' (Context.extra) for 'increase the pressure by X' (p.9), None for the arrow stones' moves."""
    return _pressure_verdict(ctx.r("STM-AMB-32"), gauge, x, tuple(picks), extra)


def _pressure_verdict_uncached(
    reading: str, gauge: Gauge, x: int, picks: tuple[int, ...], extra: GaugeLayout | None
) -> Rejection | None:
    try:
        result = increase(gauge, x, picks, extra)
    except GaugeError as err:
        return reject(err.rule, err.message)
    if reading == "most":
        best = max(len(p) for p in pressure_choices(gauge, x, extra).values())
        if result.used < best:
            used = result.used
            return reject("STM-R-15", f"another order uses {best} increments (STM-AMB-32 'most'), this one {used}")
    return None


# Memoised on the reading, the gauge (frozen, hashable), x and the order: generation, the check and the
# transition ask the same question several times a turn.  By a call rather than a decorator: mutmut
# skips decorated functions (bench/mutation/README.md).
_pressure_verdict = lru_cache(maxsize=65536)(_pressure_verdict_uncached)


def make_steam_rejection(ctx: Context, state: StmState, action: MakeSteam) -> Rejection | None:
    """STM-R-24/25: a stone must be able to move; the pressure rises by 2 + the machines' boilers."""
    if not can_make_steam(state):
        return reject("STM-R-24", "MAKE STEAM needs a stone on the gauge that can still move")
    return pressure_rejection(ctx, me(state).gauge, ctx.boilers(me(state)), action.picks, ctx.extra())


def district_rejection(ctx: Context, state: StmState, level: int, position: str, value: int) -> Rejection | None:
    """STM-R-26/27: the district exists, its level is at most ``value``, and it is free."""
    if not any(d.level == level and d.position == position for d in ctx.districts(state)):
        return reject("STM-R-01", f"the {state.board_side}-player side has no {position} district on level {level}")
    if level > value:
        return reject("STM-R-26", f"a stone of pressure value {value} reaches level {value} at most, not {level}")
    if not ctx.is_free(state, level, position):  # type: ignore[arg-type]
        return reject("STM-R-27", f"the {position} district of level {level} is not free")
    return None


def set_target_rejection(ctx: Context, state: StmState, action: SetTarget) -> Rejection | None:
    v = value_of(ctx, me(state).gauge, action.space)
    if v is None:
        return reject("STM-R-26", f"no pressure stone of yours on gauge space {action.space}")
    return district_rejection(ctx, state, action.level, action.position, v)


def channel_start_rejection(ctx: Context, state: StmState, action: ChannelPressure) -> Rejection | None:
    """STM-R-28 / STM-AMB-02, AMB-06: not from the leftmost spaces, and a placement must remain."""
    v = value_of(ctx, me(state).gauge, action.space)
    if v is None:
        return reject("STM-R-28", f"no pressure stone of yours on gauge space {action.space}")
    free = ctx.free_districts(state, ctx.top_level(state))
    why = channel_problem(ctx, me(state), v, free)
    return reject("STM-R-28", why) if why else None


def channel_problem(ctx: Context, player: PlayerState, v: int, free: Sequence[BoardDistrict]) -> str | None:
    """STM-R-28 / STM-AMB-02, AMB-06 for a stone of value ``v``, given the board's free districts: why
    it cannot channel (None: it can)."""
    entry = ctx.entry(v)
    if entry is None:
        return f"a stone of pressure value {v} cannot channel pressure into the machine"
    if not any(d.level <= entry for d in free):
        return f"no free district on levels 1-{entry}: the channelled stone could not be placed"
    if ctx.r("STM-AMB-06") == "forbidden" and player.machine_room[entry - 1] is None:
        return f"no machine at position {entry} (STM-AMB-06 'forbidden')"
    return None


def channel_rejection(ctx: Context, state: StmState, action: MoveLeft | PlaceStone) -> Rejection | None:
    w = state.turn.channel
    assert w is not None
    if isinstance(action, PlaceStone):
        return district_rejection(ctx, state, action.level, action.position, w)
    if w < 2:
        return reject("STM-R-29", "the stone is at the leftmost position: it must be placed")
    if not ctx.free_districts(state, w - 1):
        return reject("STM-R-29", f"no free district on levels 1-{w - 1}: the stone could not be placed (STM-AMB-06)")
    return None


# -- the flight -------------------------------------------------------------------------------------


def take_back_rejection(ctx: Context, state: StmState, action: TakeBack) -> Rejection | None:
    """STM-R-33/34 with STM-R-18: one of your stones, onto the first free space or a freed one."""
    if not any((s.level, s.position) == (action.level, action.position) for s in ctx.own_stones(state, decider(state))):
        return reject("STM-R-33", f"you have no stone on the {action.position} district of level {action.level}")
    gauge = me(state).gauge
    if gauge.first_free() is not None:
        if action.discard is not None:
            return reject("STM-R-18", "a gauge space is free: no bonus marker goes to the box to make room")
        return None
    markers = gauge.marker_spaces()
    if markers and action.discard not in markers:
        return reject("STM-R-18", f"no free gauge space: return one of the bonus markers on {list(markers)}")
    if not markers and action.discard is not None:
        return reject("STM-R-18", "there is no bonus marker on your gauge to return")
    return None


def pick_up_rejection(ctx: Context, state: StmState, action: PickUp) -> Rejection | None:
    """STM-R-36: standing on the active level, not yet transported, a free space, a stone on his destination."""
    who = action.passenger
    assert state.turn.active is not None
    level = state.turn.active[0]
    if standing(state, who) != level:
        return reject("STM-R-36", f"the {who} is not on level {level}")
    if who in state.turn.transported:
        return reject("STM-R-36", f"you have already transported the {who} this turn")
    if len(me(state).carrying) >= ctx.pack.airship.passenger_spaces:
        return reject("STM-R-36", "both passenger spaces are taken")
    dest = destination(ctx, state, who)
    if not any(s.level == dest for s in ctx.own_stones(state, decider(state))):
        return reject("STM-R-36", f"the {who} wants to go to level {dest} and you have no stone left there")
    return None


def buy_tile_rejection(ctx: Context, state: StmState, action: BuyMachine | BuyBanner) -> Rejection | None:
    """STM-R-40..43: the face-up tile of the active level's market, paid in full."""
    assert state.turn.active is not None
    if action.level is not None:
        return reject("STM-R-38", "a flight step buys on the active level's market: name no other level")
    return purchase_rejection(ctx, state, action, state.turn.active[0])


def purchase_rejection(
    ctx: Context, state: StmState, action: BuyMachine | BuyBanner, level: int, rule: str = "STM-R-38"
) -> Rejection | None:
    """STM-R-40..43 on ``level``'s market (``rule``: what names the level), paid in full, discounts
    of the sponsor and the charity gala included (STM-R-57/58)."""
    if level == 1:
        return reject(rule, "the level-1 market sells bonus markers, not tiles")
    market = market_at(state, level, action.extra)
    if market is None or not market.tiles:
        return reject("STM-R-40", f"no face-up tile on the {'extra ' if action.extra else ''}market of level {level}")
    _tile, slot, pay = tile_price(ctx, market)
    player = me(state)
    net = discounted(ctx, player, pay.crystals, pay.gears, action.sponsor, action.gala, action.sponsor2)
    if isinstance(net, Rejection):
        return net
    if not afford(player, PayResources(*net)):
        price = f"{net[0]} crystals and {net[1]} gears"
        return reject("STM-R-40", f"the tile costs {price}: you cannot pay it all{unstored(player)}")
    if isinstance(action, BuyMachine):
        return build_in_rejection(ctx, player, slot, action)
    if slot.stones:
        further = extra_stones_rejection(player, slot.stones, action.stone, action.more)
        if further is not None:
            return further
        if action.board is not None:  # STM-AMB-11 'board': an own stone still on the board
            if ctx.r("STM-AMB-11") != "board":
                return reject("STM-R-43", "a banner's stone comes from your gauge, not the board (STM-AMB-11 'gauge')")
            if action.stone is not None:
                return reject("STM-R-43", "a banner costs one pressure stone: name a gauge space or a district")
            own = ctx.own_stones(state, decider(state))
            if not any((s.level, s.position) == action.board for s in own):
                return reject("STM-R-43", f"none of your stones lies on district {action.board}")
            level = action.board[0]
            waiting = waits_for_passenger(ctx, state, own, level)
            if waiting:
                return reject(
                    "STM-R-36",
                    f"your last stone on level {level} is where the {waiting} you carry gets off: it cannot pay",
                )
        elif action.stone is None or action.stone not in player.gauge.stone_spaces():
            return reject("STM-R-43", "a banner costs a pressure stone from your gauge (STM-AMB-11)")
        if stones_owned(state, decider(state)) < slot.stones + 1:
            return reject("STM-R-43", "you cannot give up your last pressure stone")
    elif action.stone is not None or action.board is not None or action.more:
        return reject("STM-R-43", "this banner costs no pressure stone")
    return None


def extra_stones_rejection(
    player: PlayerState, stones: int, first: int | None, more: tuple[int, ...]
) -> Rejection | None:
    """STM-AMB-25 'cumulative': a banner whose visible symbols show ``stones`` stones -1 names the
    further ones (``more``), each another own stone on the gauge."""
    if len(more) != stones - 1:
        return reject("STM-R-43", f"the visible symbols cost {stones} pressure stones: name {stones - 1} more")
    spaces = player.gauge.stone_spaces()
    if len(set(more)) != len(more) or first in more or any(s not in spaces for s in more):
        return reject("STM-R-43", f"name {stones - 1} more different stones of yours on the gauge")
    return None


def waits_for_passenger(ctx: Context, state: StmState, own: tuple[BoardStone, ...], level: int) -> Passenger | None:
    """STM-R-36/37: the carried passenger whose drop-off needs the deciding player's last stone on
    ``level`` (he boarded because a stone waited on his destination); None: no one."""
    if sum(1 for s in own if s.level == level) != 1:
        return None
    return next((who for who in me(state).carrying if carried_destination(ctx, state, who) == level), None)


def discounted(
    ctx: Context, player: PlayerState, crystals: int, gears: int, sponsor: bool, gala: bool, sponsor2: bool = False
) -> tuple[int, int] | Rejection:
    """STM-R-57/58: a resource cost after the sponsor's discount (1 of its side's resource, once per
    turn, only if that resource is part of the cost) and the charity gala's (up to 2 of its resource,
    not below 0, only while that resource is still to pay); or why a discount cannot be used.
    ``sponsor2``: character 5's second sponsor (STM-AMB-34 'two') gives its own discount, after the
    first's, only while its resource is still to pay."""
    cost = {"crystal": crystals, "gear": gears}
    if sponsor:
        side = player.sponsor
        if side is None:
            return reject("STM-R-57", "you own no sponsor")
        if player.sponsor_used:
            return reject("STM-R-57", "your sponsor has already given its discount this turn")
        if not cost[side]:
            return reject("STM-R-57", f"the sponsor shows a {side}, and this cost holds none")
        cost[side] = max(0, cost[side] - ctx.pack.supplies.sponsor_discount)
    if sponsor2:
        side = player.sponsor2
        if side is None:
            return reject("STM-R-57", "you own no second sponsor (character 5 under STM-AMB-34 'two', p.31)")
        if player.sponsor2_used:
            return reject("STM-R-57", "your second sponsor has already given its discount this turn")
        if not cost[side]:
            return reject("STM-R-57", f"the second sponsor shows a {side}, and no {side} is left to pay")
        cost[side] = max(0, cost[side] - ctx.pack.supplies.sponsor_discount)
    if gala:
        kind = player.gala
        if kind is None:
            return reject("STM-R-58", "you own no charity gala")
        if not cost[kind]:
            return reject("STM-R-58", f"your charity gala gives {kind}s, and no {kind} is left to pay")
        cost[kind] = max(0, cost[kind] - ctx.pack.supplies.gala_discount)
    return cost["crystal"], cost["gear"]


def build_in_rejection(ctx: Context, player: PlayerState, slot: Visible, action: BuyMachine) -> Rejection | None:
    """STM-R-41/42: rank 1+ costs a machine-room tile; the tile goes to a free position.  STM-AMB-25
    'cumulative': as many tiles as removal symbols are visible, the further ones named in ``more``."""
    room = player.machine_room
    full = all(t is not None for t in room)
    if action.more or slot.removals > 1:
        named = () if action.remove is None else (action.remove, *action.more)
        if len(named) != slot.removals or len(set(named)) != len(named):
            return reject("STM-R-41", f"the visible symbols call for {slot.removals} different machine tiles removed")
        if any(not 1 <= r <= len(room) or room[r - 1] is None for r in named):
            return reject("STM-R-41", f"no tile at each of machine-room positions {list(named)} to remove")
    if action.remove is not None:
        if not 1 <= action.remove <= len(room) or room[action.remove - 1] is None:
            return reject("STM-R-41", f"no tile at machine-room position {action.remove} to remove")
        if not (slot.removals or full):
            return reject("STM-R-42", "a free position exists and this tile costs no machine: nothing is removed")
    elif slot.removals:
        return reject("STM-R-41", "from rank 1 a machine tile must be removed from your machine room")
    elif full:
        return reject("STM-R-42", "every position is taken: remove a tile to make room")
    after = tuple(None if i + 1 == action.remove or i + 1 in action.more else t for i, t in enumerate(room))
    if not 1 <= action.position <= len(room) or after[action.position - 1] is not None:
        return reject("STM-R-42", f"machine-room position {action.position} is not free")
    return None


def bonus_rejection(ctx: Context, state: StmState, action: BuyBonusMarker) -> Rejection | None:
    """STM-R-46/47 with STM-AMB-13, AMB-15: a row's foremost marker ('any': any marker left in the
    row, named), paid, on its numeral."""
    return bonus_price_rejection(ctx, state, action) or bonus_space_rejection(ctx, state, action)


def bonus_price_rejection(ctx: Context, state: StmState, action: BuyBonusMarker) -> Rejection | None:
    """STM-R-46 with STM-AMB-13: the marker bought and its price, whatever the space (the first part of
    :func:`bonus_rejection`)."""
    assert state.turn.active is not None
    if state.turn.active[0] != 1:
        return reject("STM-R-38", "bonus markers are sold on level 1 only")
    left = state.bonus.crystal_row if action.row == "crystal" else state.bonus.gear_row
    if not left:
        return reject("STM-R-46", f"the {action.row} row is empty")
    if ctx.r("STM-AMB-13") == "any":
        if action.numeral not in left:
            return reject("STM-R-46", f"name a marker left in the {action.row} row {list(left)} (STM-AMB-13 'any')")
    elif action.numeral is not None:
        return reject("STM-R-46", "only a row's foremost marker is sold: name no numeral (STM-AMB-13 'foremost')")
    numeral = bought_numeral(ctx, left, action)
    cost = bonus_slot(ctx, action.row, numeral)[0]
    crystals, gears = (cost, 0) if action.row == "crystal" else (0, cost)
    net = discounted(ctx, me(state), crystals, gears, action.sponsor, action.gala, action.sponsor2)
    if isinstance(net, Rejection):
        return net
    have = me(state).crystals if action.row == "crystal" else me(state).gears
    if have < sum(net):
        why = f"the #{numeral} marker costs {sum(net)} {action.row}s; you have {have}{unstored(me(state))}"
        return reject("STM-R-46", why)
    return None


def bonus_space_rejection(ctx: Context, state: StmState, action: BuyBonusMarker) -> Rejection | None:
    """STM-R-47 with STM-AMB-15: the space of a marker whose price :func:`bonus_price_rejection` accepts."""
    left = state.bonus.crystal_row if action.row == "crystal" else state.bonus.gear_row
    numeral = bought_numeral(ctx, left, action)
    why = marker_space_rejection(ctx, me(state).gauge, numeral, action.space, action.bump)
    if why is None and action.space is None and ctx.r("STM-AMB-15") == "no-buy":
        return reject("STM-R-47", f"no #{numeral} space right of the base marker (STM-AMB-15 'no-buy')")
    return why


def bought_numeral(ctx: Context, left: tuple[int, ...], action: BuyBonusMarker) -> int:
    """STM-AMB-13: the marker an accepted purchase takes: the named one ('any') or the foremost."""
    if ctx.r("STM-AMB-13") == "any" and action.numeral is not None:
        return action.numeral
    return left[0]


def marker_space_rejection(
    ctx: Context, gauge: Gauge, numeral: int, space: int | None, bump_stone: bool
) -> Rejection | None:
    """STM-R-47: a space printed with the marker's numeral right of the base marker (None: there is
    none, the marker goes to the box); declining the bump is a choice only with a stone there that
    could move, and under STM-AMB-42 'compulsory' not even then."""
    usable = marker_spaces_for(gauge, numeral, ctx.layout)
    if space is None:
        if usable:
            return reject("STM-R-47", f"bonus marker #{numeral} goes on one of the spaces {listed(usable)}")
        return None if bump_stone else reject("STM-R-47", "no stone to leave where it is")
    if space not in usable:
        return reject("STM-R-47", f"space {space} is not a #{numeral} space right of the base marker")
    if not bump_stone and not (space in gauge.stone_spaces() and can_move(gauge, space)):
        return reject("STM-R-47", f"no stone on space {space} that could be increased: nothing to decline")
    if not bump_stone and ctx.r("STM-AMB-42") == "compulsory":  # p.22 'increase its pressure by 1 to make room'
        return reject("STM-R-47", f"stone on {space} can move: it must make room (p.22, STM-AMB-42 'compulsory')")
    return None


def bonus_slot(ctx: Context, row: Resource, numeral: int) -> tuple[int, int]:
    """STM-P-08: (cost, VP) shown in the row while #numeral is its foremost marker."""
    found = next(r for r in ctx.pack.bonus_rows if r.resource == row)
    slot = next(s for s in found.slots if s.numeral == numeral)
    return slot.cost, slot.vp


# -- effect parts -------------------------------------------------------------------------------------


def effect_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    part = head(state)
    if isinstance(part, Handover):  # applied as the effects settle; a decision never waits on it
        return reject("STM-R-54", f"the decision passes to seat {part.seat} first")
    if isinstance(part, NextSharer):
        return sharer_rejection(state, part, action)
    if isinstance(part, COSTS):
        if isinstance(action, DeclineCost):
            return None
        if isinstance(action, PayCost):
            return cost_rejection(ctx, state, part, action)
        return reject("STM-R-22", f"{part!r} is a cost: pay it in full or let it and everything beneath lapse")
    if isinstance(action, SkipPart):
        return None
    if isinstance(part, Either):
        if isinstance(action, ChooseSide) and action.side in (0, 1):
            return None
        return reject("STM-R-22", "a slash: choose the parts above it (0) or those below it (1)")
    return use_rejection(ctx, state, part, action)


def sharer_rejection(state: StmState, part: NextSharer, action: StmAction) -> Rejection | None:
    """STM-AMB-21 'owner-chooses': the deciding player names whose parasite effect or envy placement is next."""
    rule = "STM-R-53" if any(isinstance(x, EnvyParasite) for p in part.programs for x in p) else "STM-R-54"
    if isinstance(action, LetPlayer) and action.seat in part.seats:
        return None
    seats = sorted(set(part.seats))
    return reject(rule, f"choose who goes next among seats {seats} (STM-AMB-21 'owner-chooses')")


def cost_rejection(ctx: Context, state: StmState, part: Step, action: PayCost) -> Rejection | None:
    player = me(state)
    if not isinstance(part, ReturnStone) and action.stone is not None:
        return reject("STM-R-22", "this cost takes no pressure stone")
    owned = stones_owned(state, decider(state))
    if isinstance(part, PayResources | PayCrystalsPerStone):
        crystals, gears = (part.crystals, part.gears) if isinstance(part, PayResources) else (owned, 0)
        net = discounted(ctx, player, crystals, gears, action.sponsor, action.gala, action.sponsor2)
        if isinstance(net, Rejection):
            return net
        if isinstance(part, PayCrystalsPerStone) and player.crystals < net[0]:
            return reject("STM-R-63", f"you own {owned} pressure stones and have {player.crystals} crystals")
        if not afford(player, PayResources(*net)):
            return reject("STM-R-22", f"you cannot pay {net[0]} crystals and {net[1]} gears{unstored(player)}")
        return None
    if action.sponsor or action.gala or action.sponsor2:
        rule = "STM-R-57" if action.sponsor or action.sponsor2 else "STM-R-58"
        return reject(rule, f"{part!r} is not a resource cost: no discount")
    if isinstance(part, ReturnStone):
        if action.stone is None or action.stone not in player.gauge.stone_spaces():
            return reject("STM-R-22", "name the gauge space of the pressure stone you give up")
        if owned < 2:
            return reject("STM-R-43", "you cannot give up your last pressure stone")
    return None  # envy: the other players may place a parasite once the effect is done (STM-R-53)


def use_rejection(ctx: Context, state: StmState, part: Step, action: StmAction) -> Rejection | None:
    """The head part carried out with the action's choices (STM-R-15..20, R-52..61, R-04)."""
    name = type(part).__name__
    if name in NOT_YET:
        return reject(NOT_YET[name], f"{part!r} is not modelled in this layer yet: it can only be forgone")
    player = me(state)
    if isinstance(part, PLAIN_PARTS):
        if not isinstance(action, UsePart):
            return reject("STM-R-61", f"{part!r} needs no choice: use it or skip it")
        space = state.turn.active_space
        if isinstance(part, StoneToEight) and (
            space is None or state.turn.decider is not None or space not in player.gauge.stone_spaces()
        ):
            return reject("STM-R-61", "the stone you took back for this district is not (or no longer) on your gauge")
        if isinstance(part, TurnSponsor) and player.sponsor is None:
            return reject("STM-R-57", "you own no sponsor to turn")
        if action.sponsor2 and (not isinstance(part, TurnSponsor) or player.sponsor2 is None):
            return reject("STM-R-57", "only 'turn sponsor' turns a second sponsor, and only one you own (STM-AMB-34)")
        return None
    if isinstance(part, GainResources) and isinstance(action, TakeResources):
        return resources_rejection(state, part, action)
    if isinstance(part, IncreasePressure) and isinstance(action, RaisePressure):
        return pressure_rejection(ctx, player.gauge, part.n, action.picks, ctx.extra())
    if isinstance(part, IncreaseOneStone) and isinstance(action, RaiseOneStone):
        if action.space not in player.gauge.stone_spaces():
            return reject("STM-R-16", f"no pressure stone of yours on gauge space {action.space}")
        if not 0 <= action.steps <= part.up_to:
            return reject("STM-R-16", f"one stone rises by 0 to {part.up_to}, not {action.steps}")
        return None
    if isinstance(part, GainPressureStone) and isinstance(action, GainStone):
        return gain_stone_rejection(player, action)
    if isinstance(part, AdvanceBaseMarker) and isinstance(action, MoveBaseMarker):
        return base_rejection(ctx, player.gauge, action)
    if isinstance(part, TurnStones) and isinstance(action, TurnArrows):
        return turn_arrows_rejection(ctx, state, part, action)
    if isinstance(part, GainCapacityTile) and isinstance(action, BuildCapacity):
        if state.supply.capacity_tiles < 1:
            return reject("STM-R-21", "no capacity tile is left in the supply")
        if not 1 <= action.position <= len(player.machine_room) or action.side not in (0, 1):
            return reject("STM-R-59", f"no machine-room position {action.position} / side {action.side}")
        return None
    if isinstance(part, PlaceParasites | EnvyParasite | ActivateParasites | ShakeOff):
        return parasite_part_rejection(ctx, state, part, action)
    return other_part_rejection(ctx, state, part, action)


def other_part_rejection(ctx: Context, state: StmState, part: Step, action: StmAction) -> Rejection | None:
    """Sponsor and gala (STM-R-57/58), 'buy tile' and 'use another district' (R-61), the pink marker (R-04)."""
    player = me(state)
    if isinstance(part, GainSponsor) and isinstance(action, TakeSponsor):
        if action.side not in RESOURCES:
            return reject("STM-R-57", f"a sponsor shows a crystal or a gear, not {action.side!r}")
        if state.supply.sponsors < 1:
            return reject("STM-R-21", "no sponsor tile is left in the supply")
        if player.sponsor is not None and not second_sponsor(ctx, player):
            return reject("STM-R-57", "you already own a sponsor (maximum 1: the surplus lapses)")
        return None
    if isinstance(part, GainCharityGala) and isinstance(action, TakeGala):
        if action.resource not in RESOURCES:
            return reject("STM-R-58", f"a charity gala solicits crystals or gears, not {action.resource!r}")
        if state.supply.galas[RESOURCES.index(action.resource)] < 1:
            return reject("STM-R-21", f"no {action.resource} charity gala is left in the supply")
        if player.gala is not None:
            return reject("STM-R-58", "you already host a charity gala (maximum 1: the surplus lapses)")
        return None
    if isinstance(part, BuyTile) and isinstance(action, BuyMachine | BuyBanner):
        if action.level is None:
            return reject("STM-R-61", "'buy tile': name the level of the face-up tile you buy")
        return purchase_rejection(ctx, state, action, action.level, "STM-R-61")
    if isinstance(part, UseAnotherDistrict) and isinstance(action, UseOtherDistrict):
        return other_district_rejection(ctx, state, action)
    if isinstance(part, GainPinkMarker) and isinstance(action, PlacePinkMarker):
        return pink_rejection(ctx, state, action)
    return reject("STM-R-22", f"{action!r} does not carry out {part!r}")


# -- parasites and envy (STM-R-52..56) ------------------------------------------------------------


def placed(state: StmState, seat: int) -> tuple[Parasite, ...]:
    """The seat's parasites on other players' machines (or beside the stack, solo)."""
    return tuple(x for x in state.parasites if x.owner == seat)


def at(x: Parasite) -> ParasiteAt:
    assert x.host is not None and x.position is not None
    return (x.host, x.position, x.on)


def parasite_part_rejection(
    ctx: Context, state: StmState, part: PlaceParasites | EnvyParasite | ActivateParasites | ShakeOff, action: StmAction
) -> Rejection | None:
    """Place or move (STM-R-52), envy (R-53), activate without taking back (R-56), shake off (R-55)."""
    if isinstance(part, PlaceParasites | EnvyParasite) and isinstance(action, PlaceParasite):
        return placement_rejection(ctx, state, action, part.host if isinstance(part, EnvyParasite) else None)
    if isinstance(part, ActivateParasites) and isinstance(action, ActivateParasite):
        return activation_rejection(ctx, state, part, action)
    if isinstance(part, ActivateParasites) and isinstance(action, UseFaceUpTile):
        return face_up_rejection(ctx, state, action)
    if isinstance(part, ShakeOff):
        mine = [x for x in state.parasites if x.host == decider(state)]
        if part.all and isinstance(action, UsePart):
            return None if mine else reject("STM-R-55", "no opposing parasite sits on your machines")
        if not part.all and isinstance(action, ShakeOffParasite):
            if not any((x.owner, x.position, x.on) == (action.owner, action.position, action.symbol) for x in mine):
                return reject("STM-R-55", f"no parasite of seat {action.owner} on your machine {action.position}")
            return None
        what = "all opposing parasites (use the part)" if part.all else "one chosen parasite"
        return reject("STM-R-55", f"shake off {what}")
    if isinstance(part, ActivateParasites):
        if state.solo is not None:
            return reject("STM-R-72", "solo: use the face-up tile of a destination level, or skip the part")
        return reject("STM-R-56", "name the placed parasites of yours to activate, or skip the part")
    rule = "STM-R-53" if isinstance(part, EnvyParasite) else "STM-R-52"
    return reject(rule, "name the machine and symbol the parasite goes on, or skip the part")


def can_place(ctx: Context, state: StmState, envy_host: int) -> bool:
    """STM-R-53: the deciding player has a parasite at home and a machine of ``envy_host`` to put it on."""
    if not me(state).parasites_home:
        return False
    return bool(accepted_placements(ctx, state, envy_host))


def accepted_placements(ctx: Context, state: StmState, envy_host: int | None) -> list[PlaceParasite]:
    """The placements of :func:`_placements` that :func:`placement_rejection` accepts, in their order,
    each machine's count of parasites read once instead of once per candidate (a random game lists
    them at every 'place or move', STM-R-52, and every envy, R-53).  Solo: through the check."""
    if state.solo is not None:
        return [a for a in _placements(ctx, state) if placement_rejection(ctx, state, a, envy_host) is None]
    seat = decider(state)
    # From the supply only with a parasite at home; a placed one moves, never under envy (STM-R-52/53).
    sources: list[ParasiteAt | None] = [None] if state.players[seat].parasites_home >= 1 else []
    if envy_host is None:
        sources += sorted({at(x) for x in placed(state, seat) if x.host is not None})
    out: list[PlaceParasite] = []
    if not sources:
        return out
    total = ctx.r("STM-AMB-20") == "total"
    limit = parasite_limit(state)
    # STM-R-52 / STM-AMB-20, as limit_rejection counts them: the parasites on each machine, counted in one
    # pass over the placed ones rather than once per machine.
    counted: dict[tuple[int | None, int | None], int] = {}
    for x in state.parasites:
        if total or x.owner == seat:
            counted[(x.host, x.position)] = counted.get((x.host, x.position), 0) + 1
    for host, p in enumerate(state.players):
        if host == seat or (envy_host is not None and host != envy_host):
            continue  # never your own machines; the envious only on the envied player's (STM-R-52/53)
        for position, shown in _parasite_symbols(ctx, p.machine_room):
            here = counted.get((host, position), 0)
            for symbol in shown:
                for moved in sources:
                    if moved is None:
                        if here < limit:
                            out.append(_place_parasite(host, position, symbol))
                    elif moved[0] == host and moved[1] == position:
                        # The moved parasite leaves this machine, and changes its place (its symbol).
                        if moved[2] != symbol and here - 1 < limit:
                            out.append(_place_parasite(host, position, symbol, moved))
                    elif here < limit:
                        out.append(_place_parasite(host, position, symbol, moved))
    return out


def _parasite_symbols(ctx: Context, room: tuple[RoomTile | None, ...]) -> tuple[tuple[int, tuple[Symbol, ...]], ...]:
    """Each machine of ``room`` (position 1..7) with the symbols a parasite can go on (STM-R-52: the
    activation symbol of a machine with boilers, the passive one where printed); memoised per room, which
    changes only when a tile is bought or removed."""
    return ctx.memo((_parasite_symbols, room), lambda: _parasite_symbols_uncached(ctx, room))


def _parasite_symbols_uncached(
    ctx: Context, room: tuple[RoomTile | None, ...]
) -> tuple[tuple[int, tuple[Symbol, ...]], ...]:
    out: list[tuple[int, tuple[Symbol, ...]]] = []
    for position, tile in enumerate(room, start=1):
        if tile is None:
            continue
        face = ctx.face(tile)
        shown: list[Symbol] = []
        if face.boilers:
            shown.append("activation")
        if face.passive is not None:
            shown.append("passive")
        if shown:
            out.append((position, tuple(shown)))
    return tuple(out)


# One instance per placement (frozen): a random game lists a score of them at every 'place or move'.
_place_parasite = lru_cache(maxsize=4096)(PlaceParasite)


def parasite_limit(state: StmState) -> int:
    """STM-R-52 (p.33): 2 players up to 2 on the same machine, 3 or more players at most 1."""
    return 2 if len(state.players) == 2 else 1


def placement_rejection(
    ctx: Context, state: StmState, action: PlaceParasite, envy_host: int | None
) -> Rejection | None:
    """STM-R-52 (place or move) / R-53 (envy: place 1 from the supply on the envied player's machines)."""
    seat = decider(state)
    player = state.players[seat]
    rule = "STM-R-53" if envy_host is not None else "STM-R-52"
    if state.solo is not None:  # STM-R-72: placed parasites go beside the passenger stack
        if (action.host, action.position, action.moved, action.symbol) != (None, None, None, "activation"):
            return reject("STM-R-72", "solo: a placed parasite goes beside the passenger stack")
        return None if player.parasites_home else reject("STM-R-72", "no parasite left in your supply")
    if action.moved is None:
        if player.parasites_home < 1:
            why = "no parasite left in your supply" + ("" if envy_host is not None else ": move a placed one instead")
            return reject(rule, why)
    elif envy_host is not None:
        return reject("STM-R-53", "envy places a parasite from your supply; it does not move one")
    elif action.moved not in [at(x) for x in placed(state, seat) if x.host is not None]:
        return reject("STM-R-52", f"you have no parasite placed at {action.moved} to move")
    elif action.moved == (action.host, action.position, action.symbol):
        return reject("STM-R-52", "a moved parasite changes its place")
    host, position = action.host, action.position
    if host is None or position is None or not 0 <= host < len(state.players) or host == seat:
        return reject(rule, "a parasite goes onto another player's machine, never onto your own")
    if envy_host is not None and host != envy_host:
        return reject("STM-R-53", f"the envious place on the machines of seat {envy_host}, who lured them")
    room = state.players[host].machine_room
    tile = room[position - 1] if 1 <= position <= len(room) else None
    if tile is None:
        return reject(rule, f"seat {host} has no machine-room tile at position {position}")
    face = ctx.face(tile)
    if (action.symbol == "activation" and not face.boilers) or (action.symbol == "passive" and face.passive is None):
        return reject("STM-R-52", f"{tile.id} shows no {action.symbol} symbol (never on storage spaces)")
    if action.symbol not in ("activation", "passive"):
        return reject("STM-R-52", f"a parasite sits on the activation or the passive symbol, not {action.symbol!r}")
    return limit_rejection(ctx, state, seat, host, position, action.moved)


def limit_rejection(
    ctx: Context, state: StmState, seat: int, host: int, position: int, moved: ParasiteAt | None
) -> Rejection | None:
    """STM-R-52 / STM-AMB-20: own parasites per machine ('per-owner') or all of them ('total')."""
    total = ctx.r("STM-AMB-20") == "total"
    here = sum(1 for x in state.parasites if x.host == host and x.position == position and (total or x.owner == seat))
    if moved is not None and moved[0] == host and moved[1] == position:
        here -= 1  # the moved parasite (one of yours, placed: placement_rejection) leaves this machine
    limit = parasite_limit(state)
    if here >= limit:
        whose = "parasites" if total else "of your parasites"
        reading = "total" if total else "per-owner"
        n = len(state.players)
        return reject("STM-R-52", f"at most {limit} {whose} on one machine with {n} players (STM-AMB-20 '{reading}')")
    return None


def repeats(ctx: Context, state: StmState, part: PlaceParasites | ActivateParasites) -> bool:
    """STM-AMB-35 'repeat' (p.32-33): 'any number' sets no bound in the multiplayer game, so each use is
    one step (one parasite placed or moved, one activated: the same one again too) and the part waits
    for the next until the player skips it; solo 'any number' stays with STM-AMB-40."""
    return part.count is None and state.solo is None and ctx.r("STM-AMB-35") == "repeat"


def activation_rejection(
    ctx: Context, state: StmState, part: ActivateParasites, action: ActivateParasite
) -> Rejection | None:
    """STM-R-56: 1..N of your placed parasites ('any number': each at most once; STM-AMB-35 'repeat':
    one at a time, as often as the player likes); they stay."""
    if state.solo is not None:
        return reject("STM-R-72", "solo: activating a parasite uses the face-up tile of a destination level instead")
    n = len(action.targets)
    if n != 1 and repeats(ctx, state, part):
        return reject("STM-R-56", f"one parasite per use, not {n} (STM-AMB-35 'repeat'; skip the part to stop)")
    if n < 1 or (part.count is not None and n > part.count):
        most = "any number of" if part.count is None else f"1 to {part.count}"
        return reject("STM-R-56", f"activate {most} of your placed parasites, not {n}")
    own = Counter(at(x) for x in placed(state, decider(state)) if x.host is not None)
    if Counter(action.targets) - own:
        return reject("STM-R-56", f"{list(action.targets)} are not all parasites of yours on others' machines")
    return None


def face_up_rejection(ctx: Context, state: StmState, action: UseFaceUpTile) -> Rejection | None:
    """STM-R-72 'activate a parasite' in solo: with a placed parasite (beside the stack), the effect
    of the face-up tile of a level that is currently a passenger's printed destination."""
    if state.solo is None:
        return reject("STM-R-56", "only the solo game uses a face-up tile: activate your placed parasites")
    if not beside_stack(state):
        return reject("STM-R-72", "you have placed no parasite (none lies beside the passenger stack)")
    levels = printed_destinations(ctx, state)
    if action.level not in levels:
        return reject(
            "STM-R-72",
            f"level {action.level} is no passenger's destination now: levels {levels[0]} and {levels[1]}"
            " (alternate destinations are ignored)",
        )
    market = market_at(state, action.level, False)
    if market is None or not market.tiles:
        return reject("STM-R-72", f"level {action.level} shows no face-up machine tile")
    if action.symbol not in SYMBOLS or not tile_effects(ctx, market.tiles[0], action.symbol):
        return reject("STM-R-72", f"the face-up tile {market.tiles[0]} shows no {action.symbol} effect")
    if action.symbol != "activation" and ctx.r("STM-AMB-39") == "activation":
        return reject("STM-R-72", "'activate parasite' uses the face-up tile's activation effect only (STM-AMB-39)")
    return None


def removal_rejection(ctx: Context, state: StmState, action: UseRemovedTile | LeaveParasites) -> Rejection | None:
    """STM-R-72: while 'remove tiles' waits on the parasites beside the stack, take one back for the
    activation or passive effect of a tile removed in this step (the same effect again is allowed),
    or leave the rest there."""
    if state.phase is not END_OF_TURN or state.turn.removal != "parasites":
        return reject("STM-R-72", "parasites beside the stack are taken back only in 'remove tiles' at the end of FLY")
    if isinstance(action, LeaveParasites):
        return None
    if not beside_stack(state):
        return reject("STM-R-72", "no parasite lies beside the passenger stack")
    if action.tile not in state.turn.removed:
        removed = ", ".join(state.turn.removed) or "none"
        return reject("STM-R-72", f"{action.tile} was not removed in this step (removed: {removed})")
    if action.symbol not in SYMBOLS or not tile_effects(ctx, action.tile, action.symbol):
        return reject("STM-R-72", f"the removed tile {action.tile} shows no {action.symbol} effect")
    return None


def tile_programs(ctx: Context, tile: RoomTile | None, on: str) -> tuple[Program, ...]:
    """STM-R-54/56: the effect a parasite on ``tile``'s activation (its piped boilers, STM-R-30) or
    passive symbol uses."""
    if tile is None:
        return ()
    face = ctx.face(tile)
    if on == "passive":
        return (face.passive.effect,) if face.passive is not None else ()
    return tuple(b.effect for b in face.activated())


# -- sponsor, gala, other districts, the pink marker (STM-R-57, R-58, R-61, R-04) --------------------

TWO_SPONSORS_CHARACTER = 5  # p.31 'Only 1 sponsor, if you own character 5'


def second_sponsor(ctx: Context, player: PlayerState) -> bool:
    """STM-AMB-34 'two': character 5's owner keeps a second sponsor gained while owning one
    ('Sponsor (Maximum: 1)', p.29, read as not binding character 5); a third lapses."""
    two = ctx.r("STM-AMB-34") == "two" and player.character == TWO_SPONSORS_CHARACTER
    return two and player.sponsor2 is None


def other_district_rejection(ctx: Context, state: StmState, action: UseOtherDistrict) -> Rejection | None:
    """STM-R-61: a district not activated by you this turn, not in S0, without your stone; other
    players' stones do not matter (STM-AMB-23: nor shadow stones, unless 'no')."""
    where = (action.level, action.position)
    if not any((d.level, d.position) == where for d in ctx.districts(state)):
        side = state.board_side
        return reject("STM-R-01", f"the {side}-player side has no {action.position} district on level {action.level}")
    seat = decider(state)
    if state.turn.decider is None:
        if where in state.turn.activated:
            return reject("STM-R-61", f"you have already activated L{action.level}-{action.position} this turn")
        if where in state.turn.flight_start:
            return reject("STM-R-61", f"your stone lay on L{action.level}-{action.position} as the flight started (S0)")
    elif (seat, *where) in state.turn.others_activated:
        return reject("STM-R-61", f"you have already used L{action.level}-{action.position} this turn")
    here = [s.seat for s in state.board if (s.level, s.position) == where]
    if seat in here:
        return reject("STM-R-61", f"one of your stones lies on L{action.level}-{action.position}")
    if SHADOW in here and ctx.r("STM-AMB-23") == "no":
        return reject("STM-R-61", "a shadow stone lies there (STM-AMB-23 'no')")
    return None


def pink_owner(ctx: Context, player: PlayerState) -> bool:
    """STM-R-04: the pink marker is used only with the character whose set-up shows it (character 7)."""
    try:
        setup = ctx.pack.character(player.character).setup
    except KeyError:
        return False
    return any(isinstance(p, GainPinkMarker) for p in walk(setup))


def pink_rejection(ctx: Context, state: StmState, action: PlacePinkMarker) -> Rejection | None:
    """STM-R-04 / R-47: character 7's one pink marker, placed like a bought bonus marker."""
    if not pink_owner(ctx, me(state)):
        return reject("STM-R-04", "the pink bonus marker is used only with character 7")
    if any(isinstance(i, BonusMarker) and i.pink for p in state.players for i in p.gauge.spaces):
        return reject("STM-R-21", "the one pink bonus marker already lies on a gauge")
    gauge = me(state).gauge
    return marker_space_rejection(ctx, gauge, ctx.pack.pink_numeral, action.space, action.bump)


def resources_rejection(state: StmState, part: GainResources, action: TakeResources) -> Rejection | None:
    c, g = action.crystals, action.gears
    if c < 0 or g < 0 or c + g == 0:
        return reject("STM-R-22", "take at least one resource, or skip the part")
    most = part.crystals + part.gears + part.either
    if not part.any_number and (c > part.crystals + part.either or g > part.gears + part.either or c + g > most):
        return reject("STM-R-22", f"{part!r} does not give {c} crystals and {g} gears")
    if c > state.supply.crystals or g > state.supply.gears:
        return reject("STM-R-21", f"the supply holds {state.supply.crystals} crystals and {state.supply.gears} gears")
    return None


def gain_stone_rejection(player: PlayerState, action: GainStone) -> Rejection | None:
    if Stone(action.arrow) not in player.supply:
        face = "an arrow" if action.arrow else "no arrow"
        return reject("STM-R-20", f"no stone showing {face} in your personal supply")
    gauge = player.gauge
    markers = gauge.marker_spaces()
    if gauge.first_free() is not None or not markers:
        if action.discard is not None:
            return reject("STM-R-18", "no bonus marker goes to the box: a space is free or none lies there")
    elif action.discard not in markers:
        return reject("STM-R-18", f"no free gauge space: return one of the bonus markers on {list(markers)}")
    return None


def base_rejection(ctx: Context, gauge: Gauge, action: MoveBaseMarker) -> Rejection | None:
    if gauge.base >= ctx.layout.base_limit:
        return reject("STM-R-17", "the base pressure marker already stands on the value-4 space: the effect lapses")
    target = gauge.base + 1
    if not action.bump and target not in gauge.stone_spaces():
        return reject("STM-R-17", "no stone on the new base space: there is no bump to decline")
    if (
        not action.bump
        and ctx.r("STM-AMB-05") == "compulsory"
        and target in gauge.stone_spaces()
        and can_move(gauge, target)
    ):
        return reject("STM-R-17", "the stone on the new base space must be increased (STM-AMB-05 'compulsory')")
    return None


def turn_arrows_rejection(ctx: Context, state: StmState, part: TurnStones, action: TurnArrows) -> Rejection | None:
    """STM-R-19 / STM-AMB-10 'any': up to N own arrowless stones on the gauge or the board."""
    n = len(action.spaces) + len(action.districts)
    if not 1 <= n <= part.n or len(set(action.spaces)) != len(action.spaces):
        return reject("STM-R-19", f"turn 1 to {part.n} different stones")
    gauge = me(state).gauge
    arrowless = set(gauge.stone_spaces()) - set(gauge.arrow_spaces())
    if not set(action.spaces) <= arrowless:
        return reject("STM-R-19", f"the stones to turn lie on arrowless gauge spaces {listed(sorted(arrowless))}")
    board = {(s.level, s.position) for s in ctx.own_stones(state, decider(state)) if not s.stone.arrow}
    if len(set(action.districts)) != len(action.districts) or not set(action.districts) <= board:
        return reject("STM-R-19", "the districts must hold your own arrowless stones")
    return None


def store_rejection(ctx: Context, state: StmState, action: Store) -> Rejection | None:
    """STM-R-32: at most one resource per space; the rest goes back to the supply."""
    player = me(state)
    if not (0 <= action.crystals <= player.crystals and 0 <= action.gears <= player.gears):
        return reject("STM-R-32", f"you hold {player.crystals} crystals and {player.gears} gears")
    if action.crystals + action.gears > ctx.storage(player):
        return reject("STM-R-32", f"you have {ctx.storage(player)} storage spaces")
    return None


# ---------------------------------------------------------------------------
# Generation (what ``check`` accepts)
# ---------------------------------------------------------------------------


def pressure_choices(gauge: Gauge, x: int, extra: GaugeLayout | None = None) -> dict[Gauge, tuple[int, ...]]:
    """Every end gauge of 'increase the pressure by x' (STM-R-15) with one order of increments: of the
    orders that end there, one using the most increments (so STM-AMB-32 'most' sees the true best).
    A fresh dict each call over a memoised walk (the costliest part of MAKE STEAM's generation)."""
    return dict(_walk_ends(gauge, x, extra))


def _walk_ends_uncached(
    gauge: Gauge, x: int, extra: GaugeLayout | None = None
) -> tuple[tuple[Gauge, tuple[int, ...]], ...]:
    return tuple(_pressure_choices(gauge, x, extra).items())


# Memoised by a call rather than a decorator: mutmut skips decorated functions.
_walk_ends = lru_cache(maxsize=16384)(_walk_ends_uncached)


def _pressure_choices(gauge: Gauge, x: int, extra: GaugeLayout | None = None) -> dict[Gauge, tuple[int, ...]]:
    """The walk of :func:`pressure_choices` over the bare spaces (:func:`_pressure_walk`), each end a Gauge."""
    items, out = _pressure_walk(gauge, x, extra)
    return {Gauge(gauge.base, tuple(items[c // 2] for c in spaces)): picks for spaces, picks in out.items()}


def _pressure_walk(
    gauge: Gauge, x: int, extra: GaugeLayout | None = None
) -> tuple[list[Item | None], dict[tuple[int, ...], tuple[int, ...]]]:
    """Each increment (STM-R-15) moves a stone to the nearest free space on its right, as
    ``gauge.increment`` does, without building and validating a Gauge per step (the walk visits
    thousands).  Items are walked as small integer codes (0: free; stones odd; markers even), which
    hash in C: the items by code's half, and every end's codes with its order of increments (the
    generator needs only the orders, :func:`_raises_for`)."""
    items: list[Item | None] = [None]
    code_of: dict[Item, int] = {}
    codes: list[int] = []
    for item in gauge.spaces:
        if item is None:
            codes.append(0)
            continue
        if item not in code_of:  # equal items share a code: the walk meets equal gauges once
            items.append(item)
            # The code's parity says stone or marker; its half finds the item again.
            code_of[item] = 2 * (len(items) - 1) + (1 if isinstance(item, Stone) else 0)
        codes.append(code_of[item])
    out: dict[tuple[int, ...], tuple[int, ...]] = {}
    seen: set[tuple[tuple[int, ...], int]] = set()
    first, end = gauge.base + 1, len(codes)

    # Depth first, without recursion: a node's moves are pushed right to left, so they are popped (and
    # their walks finished) left to right, each end first met by its leftmost order.
    stack: list[tuple[tuple[int, ...], int, tuple[int, ...]]] = [(tuple(codes), x, ())]
    while stack:
        spaces, left, picks = stack.pop()
        node = (spaces, left)
        if node in seen:
            continue
        seen.add(node)
        moves = _increments(spaces, first, end) if left else ()
        if not moves:
            if len(picks) > len(out.get(spaces, ())) or spaces not in out:
                out[spaces] = picks
            continue
        for src, dst in moves:
            after = list(spaces)
            after[dst], after[src] = after[src], 0
            if extra is not None:
                _extra_moves(after, dst, extra.values)
            stack.append((tuple(after), left - 1, (*picks, src)))
    return items, out


def _increments_uncached(spaces: tuple[int, ...], first: int, end: int) -> tuple[tuple[int, int], ...]:
    """(stone's space, the nearest free space right of it) for every stone that can move, right to left
    (read in one pass from the right, carrying the nearest free space; the walk's stack pops them left
    to right)."""
    moves: list[tuple[int, int]] = []
    free = end
    for src in range(end - 1, first - 1, -1):
        if not spaces[src]:
            free = src
        elif spaces[src] & 1 and free < end:
            moves.append((src, free))
    return tuple(moves)


# Memoised by a call rather than a decorator (mutmut skips decorated functions): the walks of different
# gauges meet the same arrangements of codes again and again.
_increments = lru_cache(maxsize=65536)(_increments_uncached)


def _extra_moves(spaces: list[int], space: int, values: tuple[int | None, ...]) -> None:
    """STM-AMB-04 'extra' on the walk's bare spaces, as ``gauge.increment`` does: while the stone on ``space``
    shows another stone's value it moves on to the nearest free space; at the end of the gauge it stays."""
    while any(code & 1 and values[i] == values[space] for i, code in enumerate(spaces) if i != space):
        further = next((i for i in range(space + 1, len(spaces)) if not spaces[i]), None)
        if further is None:
            return
        spaces[further], spaces[space] = spaces[space], 0
        space = further


def _raises(ctx: Context, gauge: Gauge, x: int, extra: GaugeLayout | None) -> tuple[tuple[int, ...], ...]:
    """One accepted order of increments per end gauge.

    Every order the walk finds stops only when the increments are used up or no stone can move,
    which is what :func:`pressure_rejection` asks under 'free-order'; under STM-AMB-32 'most' only the
    longest orders remain.  (``legal_actions_by_check`` still puts each through the check.)"""
    return _raises_for(ctx.r("STM-AMB-32"), gauge, x, extra)


def _raises_for_uncached(reading: str, gauge: Gauge, x: int, extra: GaugeLayout | None) -> tuple[tuple[int, ...], ...]:
    choices = tuple(_pressure_walk(gauge, x, extra)[1].values())  # the orders alone: no end gauge built
    if reading == "most":
        best = max(len(p) for p in choices)
        choices = tuple(p for p in choices if len(p) == best)
    return choices


# Memoised by a call rather than a decorator: mutmut skips decorated functions.
_raises_for = lru_cache(maxsize=16384)(_raises_for_uncached)


def legal_actions(ctx: Context, state: StmState) -> list[StmAction]:
    """Every action ``check`` accepts for the seat to move (one representative per pressure outcome).

    The frequent decisions are generated legal by construction, python-chess style, or through the
    one rule condition that governs them (:func:`_direct_moves`): in a random game a candidate check
    each was most of their cost.  Every other decision filters its candidates through ``check``,
    after dropping purchases nobody could pay and the generic answers a part's kind never admits.
    :func:`legal_actions_by_check` is the plain reference, and property tests hold the two equal,
    order included.
    """
    direct = _direct_moves(ctx, state)
    if direct is not None:
        return direct
    return [a for a in _candidates(ctx, state) if check(ctx, state, a) is None]


def _direct_moves(ctx: Context, state: StmState) -> list[StmAction] | None:
    """The decisions listed without a candidate check, in the order of :func:`_candidates`; None for
    the others."""
    turn = state.turn
    if state.phase in CHANCE_PHASES:
        return None
    if turn.storing:
        # STM-R-32: the store step admits only stores, and its own rule decides them (store_rejection).
        player = me(state)
        room = ctx.storage(player)
        return [Store(c, g) for c in range(player.crystals + 1) for g in range(player.gears + 1) if c + g <= room]
    if turn.pending:
        return _direct_part_moves(ctx, state, head(state))
    phase = state.phase
    if phase is CHANNEL:
        # STM-R-29: the step admits the move left, as its own rule judges it, and the placements: the free
        # districts the stone reaches, as district_rejection judges them.
        assert turn.channel is not None
        moves: list[StmAction] = [MoveLeft()] if channel_rejection(ctx, state, MoveLeft()) is None else []
        return moves + [PlaceStone(d.level, d.position) for d in ctx.free_districts(state, turn.channel)]
    if phase is ACTION and not turn.final_step:
        return _ordinary_action_moves(ctx, state)
    if phase is START_OF_TURN:
        # Every turn starts here, and the moves follow from the gauge alone: memoised per gauge.
        return [*ctx.memo((_start_moves, me(state).gauge), lambda: _start_moves(ctx, state))]
    if phase is END_OF_TURN and turn.removal != "parasites":
        steps = end_steps(ctx, state)  # STM-AMB-16 'free': the next step to run; 'fixed': none
        return [EndOfTurnStep(s) for s in steps] if steps else [END_TURN]  # STM-R-49
    if phase is SETUP_ROOM:
        # STM-R-13: room_choices lists two different free positions and sides 0/1 (a first game's
        # fixed layout); the check adds only the capacity tile the supply must still hold (R-21).
        return [*room_choices(state)] if state.supply.capacity_tiles >= 1 else []
    if phase is FLIGHT and turn.step == "next":
        return _take_backs(ctx, state)
    if phase is FLIGHT and turn.step == "passengers":
        # STM-R-36..38: pick-ups by their own condition, the district effect or nothing always, the
        # tiles exactly as the purchase rules accept them, then the bonus markers through the check.
        assert turn.active is not None
        level = turn.active[0]
        # Only a passenger standing on the active level may board (most steps find none): the rest is asked
        # of him alone.
        out: list[StmAction] = [
            PickUp(who)
            for who in PASSENGERS
            if standing(state, who) == level and pick_up_rejection(ctx, state, PickUp(who)) is None
        ]
        out += STEP_THREE
        if level == 1:
            # Level 1 sells bonus markers only (STM-R-04/R-38), and the step admits every bonus marker
            # purchase (flight_step_rejection): its own rule decides.
            out += _accepted_bonus_purchases(ctx, state)
        else:
            out += _exact_tile_purchases(ctx, state, level, False)
            out += _exact_tile_purchases(ctx, state, level, True)
        return out
    return None


def _start_moves(ctx: Context, state: StmState) -> tuple[MoveArrowStones, ...]:
    """The start of the turn (STM-R-19), read from the deciding player's gauge alone."""
    gauge = me(state).gauge
    if not gauge.arrow_spaces():
        return (MoveArrowStones(),)  # STM-R-19: no arrow stone to move, the turn goes on
    # The step admits only the arrow stones' move (STM-R-23): its own rule decides the orders.
    return tuple(a for a in _arrow_moves(ctx, gauge) if arrows_rejection(ctx, state, a) is None)


def _direct_part_moves(ctx: Context, state: StmState, part: Step) -> list[StmAction] | None:
    """STM-R-22: skipping, then the part's own condition: the pressure orders :func:`_raises` accepts
    (STM-R-15), or the resources the part gives and the supply holds (STM-R-21)."""
    if isinstance(part, IncreasePressure):
        return [SkipPart(), *(RaisePressure(p) for p in _raises(ctx, me(state).gauge, part.n, ctx.extra()))]
    if isinstance(part, GainResources):
        # The takes follow from the part and the supply alone: memoised by them.
        key = (_resource_takes, part, state.supply.crystals, state.supply.gears)
        return [SkipPart(), *ctx.memo(key, lambda: _resource_takes(state, part))]
    if isinstance(part, PlaceParasites | EnvyParasite):
        # STM-R-52/53: every placement the part's own rule accepts (what use_rejection asks of it).
        return [SkipPart(), *accepted_placements(ctx, state, part.host if isinstance(part, EnvyParasite) else None)]
    return None


def _resource_takes(state: StmState, part: GainResources) -> tuple[TakeResources, ...]:
    """STM-R-21/22: the resources ``part`` gives that the supply holds."""
    return tuple(a for a in _resource_moves(state, part) if resources_rejection(state, part, a) is None)


def _take_backs(ctx: Context, state: StmState) -> list[StmAction]:
    """STM-R-33/34 with R-18 as take_back_rejection judges them: each own stone, returning a bonus
    marker to the box only when no gauge space is free and one lies there."""
    gauge = me(state).gauge
    discards: tuple[int | None, ...] = (None,)
    if gauge.first_free() is None:
        discards = gauge.marker_spaces() or discards
    return [_take_back(s.level, s.position, m) for s in ctx.own_stones(state, decider(state)) for m in discards]


# The decisions every turn or flight step lists, one instance each (frozen): a lookup costs less than a
# new instance, and a random game lists them at nearly every other step.
END_TURN = EndTurn()
STEP_THREE = (UseDistrict(), LetLapse())  # STM-R-38: the district effect, or neither it nor a purchase
_take_back = lru_cache(maxsize=4096)(TakeBack)


def legal_actions_by_check(ctx: Context, state: StmState) -> list[StmAction]:
    """Every unpruned candidate that ``check`` accepts, in generation order: what :func:`legal_actions`
    must equal."""
    return [a for a in _candidates(ctx, state, prune=False) if check(ctx, state, a) is None]


def _ordinary_action_moves(ctx: Context, state: StmState) -> list[StmAction]:
    """STM-R-23..R-29 outside the final turn, in the order of :func:`_action_moves`, without the check
    (a list built at once: the commonest decision of a random game)."""
    player = me(state)
    # MAKE STEAM follows from the gauge and the boilers alone: memoised by them.
    steam, moves = ctx.memo((_steam_moves, player.gauge, ctx.boilers(player)), lambda: _steam_moves(ctx, state))
    out: list[StmAction] = [*moves]
    target = False
    # STM-R-26/27, once for every level: each stone reads the levels up to its value.
    free = ctx.free_districts(state, ctx.top_level(state))
    free_ids = {id(d) for d in free}  # the pack's districts, by identity (they live as long as the context)
    layout = ctx.layout
    for space in player.gauge.stone_spaces():
        v = layout.value(space)
        # The stone's SET 1 TARGET on every district up to its value is memoised per board side and space: the
        # free ones among them are picked by identity, in the board's order as ``free`` has them.
        targets = ctx.memo((_targets, state.board_side, space), partial(_targets, ctx, state, space, v))
        reach = [move for at, move in targets if at in free_ids]
        target = target or bool(reach)
        out += reach
        if channel_problem(ctx, player, v, free) is None:  # STM-R-28, as channel_start_rejection judges
            out.append(ChannelPressure(space))
    fly = can_fly(ctx, state)
    if fly:
        out.append(FlyToAllTargets())
    if not (steam or target or fly) and ctx.r("STM-AMB-12") == "pass":
        out.append(PassTurn())  # STM-AMB-12 'pass': none of the three actions is possible ('stuck': no move at all)
    return out


def _targets(ctx: Context, state: StmState, space: int, v: int) -> tuple[tuple[int, SetTarget], ...]:
    """STM-R-26: SET 1 TARGET for the stone on ``space`` (value ``v``) on each district of the board up to
    level ``v``, in the board's order, each with its district's identity (whether it is free is asked apart)."""
    return tuple((id(d), _set_target(space, d.level, d.position)) for d in ctx.districts(state) if d.level <= v)


def _steam_moves(ctx: Context, state: StmState) -> tuple[bool, tuple[MakeSteam, ...]]:
    """STM-R-24 A / R-25: whether MAKE STEAM is possible, and its orders (one per outcome)."""
    player = me(state)
    if not can_make_steam(state):
        return False, ()
    return True, tuple(_make_steam(p) for p in _raises(ctx, player.gauge, ctx.boilers(player), ctx.extra()))


# The SET 1 TARGET actions, one instance per stone and district (frozen): the commonest decision of a
# random game lists several, and a lookup costs less than a new instance.
_set_target = lru_cache(maxsize=4096)(SetTarget)
_make_steam = lru_cache(maxsize=4096)(MakeSteam)  # likewise one MAKE STEAM per order of increments


def _candidates(ctx: Context, state: StmState, prune: bool = True) -> Iterator[StmAction]:
    if state.turn.storing:
        yield from _stores(ctx, state)
    elif state.turn.pending:
        yield from _effect_moves(ctx, state, prune)
    elif state.phase is START_OF_TURN:
        yield from _arrow_moves(ctx, me(state).gauge)
    elif state.phase is ACTION:
        yield from _action_moves(ctx, state)
    elif state.phase is CHANNEL:
        yield MoveLeft()
        assert state.turn.channel is not None
        yield from (PlaceStone(d.level, d.position) for d in ctx.free_districts(state, state.turn.channel))
    elif state.phase is FLIGHT:
        yield from _flight_moves(ctx, state, prune)
    elif state.phase is END_OF_TURN:
        if state.turn.removal == "parasites":
            yield LeaveParasites()
            yield from (UseRemovedTile(t, sym) for t in sorted(set(state.turn.removed)) for sym in SYMBOLS)
        else:
            yield from (EndOfTurnStep(s) for s in end_steps(ctx, state))  # STM-AMB-16 'free'
            yield EndTurn()
    elif state.phase is SETUP_ROOM:
        yield from room_choices(state)


def _arrow_moves(ctx: Context, gauge: Gauge) -> Iterator[MoveArrowStones]:
    """STM-R-19, one order per outcome: every arrow stone once ('each'), any of them ('optional': the
    ones that stay are left out), or the pooled increase's orders ('pooled', as MAKE STEAM's)."""
    reading = ctx.r("STM-AMB-07")
    if reading == "pooled" and movable(gauge):
        return (MoveArrowStones(p) for p in _raises(ctx, gauge, len(gauge.arrow_spaces()), None))
    return (MoveArrowStones(order) for order in _arrow_orders(reading, gauge))


def _arrow_orders_uncached(reading: str, gauge: Gauge) -> tuple[tuple[int, ...], ...]:
    """STM-R-19 under 'each' and 'optional' (:func:`_arrow_moves`): the orders, one per outcome."""
    arrows = gauge.arrow_spaces()
    sizes = range(len(arrows), -1, -1) if reading == "optional" else (len(arrows),)  # full orders first
    seen: set[Gauge] = set()
    orders: list[tuple[int, ...]] = []
    for size in sizes:
        for order in permutations(arrows, size):
            after = _arrows_after(gauge, order)
            if after not in seen:
                seen.add(after)
                orders.append(order)
    return tuple(orders)


# Memoised by a call rather than a decorator: mutmut skips decorated functions.  Every turn starts by
# moving the arrow stones, and each order's outcome is a chain of bumps.
_arrow_orders = lru_cache(maxsize=4096)(_arrow_orders_uncached)


def _arrows_after(gauge: Gauge, order: tuple[int, ...]) -> Gauge:
    return bumped(gauge, order)


def _action_moves(ctx: Context, state: StmState) -> Iterator[StmAction]:
    player = me(state)
    if can_make_steam(state):
        yield from (MakeSteam(p) for p in _raises(ctx, player.gauge, ctx.boilers(player), ctx.extra()))
    for space in player.gauge.stone_spaces():
        v = ctx.layout.value(space)
        yield from (SetTarget(space, d.level, d.position) for d in ctx.free_districts(state, v))
        yield ChannelPressure(space)
    yield FlyToAllTargets()
    yield PassTurn()
    yield SkipStep()


def _flight_moves(ctx: Context, state: StmState, prune: bool = True) -> Iterator[StmAction]:
    """``prune``: leave out the purchases of a tile or marker the player cannot pay even with every
    discount (``check`` would refuse each of them, STM-R-40/46)."""
    step = state.turn.step
    player = me(state)
    if step == "next":
        markers: tuple[int | None, ...] = (None, *player.gauge.marker_spaces())
        for s in ctx.own_stones(state, decider(state)):
            yield from (TakeBack(s.level, s.position, m) for m in markers)
        return
    if step == "buying":
        yield StopBuying()
    else:
        yield from (PickUp("banker"), PickUp("stoker"), UseDistrict(), LetLapse())
    yield from _flight_purchases(ctx, state, prune)


def _flight_purchases(ctx: Context, state: StmState, prune: bool) -> Iterator[StmAction]:
    """The purchases of a flight step (STM-R-38): a tile of the active level's markets, then (level 1)
    the bonus markers; in the 'buying' step only more bonus markers."""
    player = me(state)
    if state.turn.step != "buying":
        level = state.turn.active[0] if state.turn.active else None
        for extra in (False, True):
            # Only a market on the active level sells (STM-R-38/40): skip hopeless candidates early.
            market = market_at(state, level, extra) if level is not None else None
            if market is not None and market.tiles and (not prune or _payable(ctx, player, tile_price(ctx, market)[2])):
                yield from _purchases(ctx, state, None, extra, prune)
    yield from _bonus_purchases(ctx, state, prune)


def _exact_tile_purchases(ctx: Context, state: StmState, level: int, extra: bool) -> list[StmAction]:
    """A flight step's BuyMachine and BuyBanner on one market of the active ``level``, exactly as
    purchase_rejection accepts them, in the order of :func:`_purchases`: the face-up tile, paid with
    each discount choice that pays (STM-R-40, R-57/58); as a machine, the removals the slot and the
    room call for and each free position (R-41/42); as a banner, the stone it costs, never the last
    one (R-43, STM-AMB-11), and under 'board' not the stone a carried passenger needs (R-36)."""
    market = market_at(state, level, extra)
    if level == 1 or market is None or not market.tiles:
        return []
    _tile, slot, pay = tile_price(ctx, market)
    player = me(state)
    discounts = _paying_discounts(ctx, player, pay)
    if not discounts:
        return []
    room = player.machine_room
    rooms = range(1, len(room) + 1)
    occupied = tuple(i for i in rooms if room[i - 1] is not None)
    if ctx.r("STM-AMB-25") == "cumulative":  # the summed symbols: generated, then checked
        candidates = _cumulative_purchases(ctx, state, slot, None, extra, discounts)
        return [a for a in candidates if check(ctx, state, a) is None]
    removes: tuple[int | None, ...] = occupied if slot.removals or len(occupied) == len(room) else (None,)
    out: list[StmAction] = [
        BuyMachine(position, remove, extra, None, sp, ga, s2)
        for remove in removes
        for position in rooms
        if room[position - 1] is None or position == remove
        for sp, ga, s2 in discounts
    ]
    if not slot.stones:
        return [*out, *(BuyBanner(None, extra, None, sp, ga, sponsor2=s2) for sp, ga, s2 in discounts)]
    seat = decider(state)
    if stones_owned(state, seat) < 2:
        return out
    out += (
        BuyBanner(stone, extra, None, sp, ga, sponsor2=s2)
        for stone in player.gauge.stone_spaces()
        for sp, ga, s2 in discounts
    )
    if ctx.r("STM-AMB-11") == "board":
        own = ctx.own_stones(state, seat)
        out += (
            BuyBanner(None, extra, None, sp, ga, (s.level, s.position), s2)
            for s in own
            if not waits_for_passenger(ctx, state, own, s.level)
            for sp, ga, s2 in discounts
        )
    return out


# A bonus-marker price (row, sponsor, gala, named numeral, second sponsor) and its places (space, bump).
BonusPrice = tuple[Resource, bool, bool, int | None, bool]


def _bonus_purchases(ctx: Context, state: StmState, prune: bool) -> Iterator[BuyBonusMarker]:
    """Bonus-marker candidates of a level-1 flight step (STM-R-46/47): each offer's places in turn."""
    for (row, sp, ga, numeral, s2), places in _bonus_offers(ctx, state, prune):
        for space, bump_stone in places:
            yield BuyBonusMarker(row, space, bump_stone, sp, ga, numeral, s2)


def _bonus_offers(
    ctx: Context, state: StmState, prune: bool
) -> Iterator[tuple[BonusPrice, tuple[tuple[int | None, bool], ...]]]:
    """The bonus-marker candidates of :func:`_bonus_purchases` by price: per row, discount and named
    marker, every space (none first) with the bump, then declining it (STM-R-46/47)."""
    player = me(state)
    if state.turn.active is None or state.turn.active[0] != 1:
        return  # bonus markers are sold on level 1 only (STM-R-38/46)
    places: tuple[tuple[int | None, bool], ...] | None = None  # the same for both rows: built once
    for row in RESOURCES:
        # STM-AMB-13: 'foremost' sells the row's first marker (numeral left out); 'any' names each one left.
        left = state.bonus.crystal_row if row == "crystal" else state.bonus.gear_row
        numerals: tuple[int | None, ...] = left if ctx.r("STM-AMB-13") == "any" else (None,)
        if prune and not any(_marker_payable(ctx, player, row, left, n) for n in numerals):
            continue
        if places is None:
            # STM-R-47: declining the bump is a choice only with a stone there that could move.
            declinable = {space for space in player.gauge.stone_spaces() if can_move(player.gauge, space)}
            places = tuple(
                (space, bump_stone)
                for space in (None, *range(len(player.gauge.spaces)))
                for bump_stone in ((True, False) if space in declinable else (True,))
            )
        for sp, ga, s2 in _discounts(player):
            for numeral in numerals:
                yield (row, sp, ga, numeral, s2), places


def _accepted_bonus_purchases(ctx: Context, state: StmState) -> Iterator[BuyBonusMarker]:
    """The candidates of :func:`_bonus_purchases` that :func:`bonus_rejection` accepts, in their order:
    the price judged once per offer (row, discount and named marker; whatever the space), the space
    once per row, named marker, space and bump (each verdict depends on nothing else); a refused
    offer's places are never built."""
    spaces: dict[tuple[Resource, int | None, int | None, bool], bool] = {}
    for (row, sp, ga, numeral, s2), places in _bonus_offers(ctx, state, True):
        if bonus_price_rejection(ctx, state, BuyBonusMarker(row, None, True, sp, ga, numeral, s2)) is not None:
            continue
        for space, bump_stone in places:
            key = (row, numeral, space, bump_stone)
            if spaces.get(key) is False:
                continue
            a = BuyBonusMarker(row, space, bump_stone, sp, ga, numeral, s2)
            if key not in spaces:
                spaces[key] = bonus_space_rejection(ctx, state, a) is None
            if spaces[key]:
                yield a


def _payable(ctx: Context, player: PlayerState, pay: PayResources) -> bool:
    """The cost can be paid with some choice of the sponsor's and the gala's discounts (STM-R-57/58)."""
    return bool(_paying_discounts(ctx, player, pay))


def _paying_discounts(ctx: Context, player: PlayerState, pay: PayResources) -> tuple[tuple[bool, bool, bool], ...]:
    """The choices of :func:`_discounts` with which ``pay`` is paid, in their order (STM-R-57/58).  They follow
    from the cost and the player's resources and discounts alone: memoised by them (every flight step prices
    a tile or the bonus markers, and a random game meets the same few purses again and again)."""
    key = (
        _paying_discounts,
        pay.crystals,
        pay.gears,
        player.crystals,
        player.gears,
        player.sponsor,
        player.sponsor_used,
        player.gala,
        player.sponsor2,
        player.sponsor2_used,
    )
    return ctx.memo(key, partial(_paying_discounts_uncached, ctx, player, pay))


def _paying_discounts_uncached(
    ctx: Context, player: PlayerState, pay: PayResources
) -> tuple[tuple[bool, bool, bool], ...]:
    return tuple((sp, ga, s2) for sp, ga, s2 in _discounts(player) if _pays(ctx, player, pay, sp, ga, s2))


def _pays(
    ctx: Context, player: PlayerState, pay: PayResources, sponsor: bool, gala: bool, sponsor2: bool = False
) -> bool:
    net = discounted(ctx, player, pay.crystals, pay.gears, sponsor, gala, sponsor2)
    return not isinstance(net, Rejection) and afford(player, PayResources(*net))


def _marker_payable(
    ctx: Context, player: PlayerState, row: Resource, left: tuple[int, ...], numeral: int | None
) -> bool:
    """STM-R-46: the marker a purchase would take (the named one, or the row's foremost) is payable.  An
    empty row, or a named marker the row no longer holds, sells nothing (bonus_price_rejection refuses
    every such purchase, whatever the discount or the space): pruned before its places are built."""
    if not left or (numeral is not None and numeral not in left):
        return False
    cost = bonus_slot(ctx, row, left[0] if numeral is None else numeral)[0]
    return _payable(ctx, player, PayResources(cost, 0) if row == "crystal" else PayResources(0, cost))


def _resource_moves(state: StmState, part: GainResources) -> Iterator[TakeResources]:
    top_c = state.supply.crystals if part.any_number else part.crystals + part.either
    top_g = state.supply.gears if part.any_number else part.gears + part.either
    return (TakeResources(c, g) for c in range(top_c + 1) for g in range(top_g + 1))


def _discounts(player: PlayerState) -> list[tuple[bool, bool, bool]]:
    """The (sponsor, gala, second sponsor) choices worth listing for a resource payment (STM-R-57/58;
    the second sponsor: character 5 under STM-AMB-34 'two')."""
    sponsor = (False, True) if player.sponsor is not None and not player.sponsor_used else (False,)
    gala = (False, True) if player.gala is not None else (False,)
    second = (False, True) if player.sponsor2 is not None and not player.sponsor2_used else (False,)
    return [(s, g, s2) for s in sponsor for g in gala for s2 in second]


GENERIC_PARTS: tuple[StmAction, ...] = (SkipPart(), DeclineCost(), ChooseSide(0), ChooseSide(1), UsePart())


def _generic_part_moves(part: Step) -> tuple[StmAction, ...]:
    """The generic answers ``effect_rejection`` can accept for this kind of part, in GENERIC_PARTS order:
    a cost is paid or declined (STM-R-22), a slash takes a side, any other part is skipped or used."""
    if isinstance(part, COSTS):
        return (DeclineCost(),)
    if isinstance(part, Either):
        return (SkipPart(), ChooseSide(0), ChooseSide(1))
    if isinstance(part, (*PLAIN_PARTS, ShakeOff)):
        return (SkipPart(), UsePart())
    return (SkipPart(),)


def _effect_moves(ctx: Context, state: StmState, prune: bool = True) -> Iterator[StmAction]:
    """``prune``: only the generic answers the part's kind admits (:func:`_generic_part_moves`)."""
    part = head(state)
    player = me(state)
    if isinstance(part, Handover):
        return
    if isinstance(part, NextSharer):
        yield from (LetPlayer(s) for s in sorted(set(part.seats)))
        return
    yield from (_generic_part_moves(part) if prune else GENERIC_PARTS)
    if isinstance(part, COSTS):
        yield from (PayCost(s) for s in (None, *player.gauge.stone_spaces()))
        yield from (PayCost(None, sp, ga, s2) for sp, ga, s2 in _discounts(player)[1:])
    elif isinstance(part, GainResources):
        yield from _resource_moves(state, part)
    elif isinstance(part, IncreasePressure):
        yield from (RaisePressure(p) for p in _raises(ctx, player.gauge, part.n, ctx.extra()))
    elif isinstance(part, IncreaseOneStone):
        yield from _one_stone_moves(player.gauge, part.up_to)
    elif isinstance(part, GainPressureStone):
        for arrow in (False, True):
            yield from (GainStone(arrow, m) for m in (None, *player.gauge.marker_spaces()))
    elif isinstance(part, AdvanceBaseMarker):
        yield MoveBaseMarker(True)
        if player.gauge.base + 1 in player.gauge.stone_spaces():
            yield MoveBaseMarker(False)  # declining the bump only matters with a stone there (STM-AMB-05)
    elif isinstance(part, TurnStones):
        yield from _turn_moves(ctx, state, part.n)
    elif isinstance(part, GainCapacityTile):
        rooms = range(1, len(player.machine_room) + 1)
        yield from (BuildCapacity(p, side) for p in rooms for side in (0, 1))
    else:
        yield from _more_effect_moves(ctx, state, part, prune)


def _more_effect_moves(ctx: Context, state: StmState, part: Step, prune: bool) -> Iterator[StmAction]:
    player = me(state)
    if isinstance(part, PlaceParasites | EnvyParasite):
        yield from _placements(ctx, state)
    elif isinstance(part, ActivateParasites):
        yield from _activations(ctx, state, part)
    elif isinstance(part, ShakeOff):
        on_mine = {(x.owner, x.position, x.on) for x in state.parasites if x.host == decider(state)}
        yield from (ShakeOffParasite(o, p, on) for o, p, on in sorted(on_mine) if p is not None)
    elif isinstance(part, GainSponsor):
        yield from (TakeSponsor(r) for r in RESOURCES)
    elif isinstance(part, TurnSponsor) and player.sponsor2 is not None:
        yield UsePart(sponsor2=True)  # STM-AMB-34 'two': 'Only 1 sponsor' (p.31), the second
    elif isinstance(part, GainCharityGala):
        yield from (TakeGala(r) for r in RESOURCES)
    elif isinstance(part, GainPinkMarker):
        yield from _marker_spaces(player.gauge, PlacePinkMarker)
    elif isinstance(part, BuyTile):
        for market in state.markets:
            if market.tiles and (not prune or _payable(ctx, player, tile_price(ctx, market)[2])):
                yield from _purchases(ctx, state, market.level, market.extra, prune)
    elif isinstance(part, UseAnotherDistrict):
        yield from (UseOtherDistrict(d.level, d.position) for d in ctx.districts(state))


def _marker_spaces(gauge: Gauge, make: type[PlacePinkMarker]) -> Iterator[PlacePinkMarker]:
    yield make(None)
    for space in range(len(gauge.spaces)):
        yield make(space)
        if space in gauge.stone_spaces() and can_move(gauge, space):
            yield make(space, False)


def _purchases(
    ctx: Context, state: StmState, level: int | None, extra: bool, prune: bool = True
) -> Iterator[StmAction]:
    """BuyMachine and BuyBanner for one market: every build-in position, removal and discount;
    a banner's stone from the gauge, and under STM-AMB-11 'board' from an own board stone.

    ``prune``: only the discounts that pay the price, the removals the slot and the room call for
    (STM-R-41/42) and a stone only for a banner that costs one (R-43): what ``check`` could accept."""
    player = me(state)
    room = player.machine_room
    rooms = range(1, len(room) + 1)
    discounts = _discounts(player)
    occupied = tuple(i for i in rooms if room[i - 1] is not None)
    removes: tuple[int | None, ...] = (None, *occupied)
    stones: tuple[int | None, ...] = (None, *player.gauge.stone_spaces())
    on_board = ctx.r("STM-AMB-11") == "board"
    if ctx.r("STM-AMB-25") == "cumulative":  # STM-AMB-25: the summed symbols (candidates for the check)
        shown = market_at(state, level if level is not None else _active_level(state), extra)
        if shown is not None and shown.tiles:
            _tile, visible, pay = tile_price(ctx, shown)
            if prune:
                discounts = [(sp, ga, s2) for sp, ga, s2 in discounts if _pays(ctx, player, pay, sp, ga, s2)]
            yield from _cumulative_purchases(ctx, state, visible, level, extra, discounts)
        return
    market = market_at(state, level if level is not None else _active_level(state), extra) if prune else None
    if market is not None and market.tiles:
        _tile, slot, pay = tile_price(ctx, market)
        discounts = [(sp, ga, s2) for sp, ga, s2 in discounts if _pays(ctx, player, pay, sp, ga, s2)]
        removes = occupied if slot.removals or len(occupied) == len(room) else (None,)
        stones = stones[1:] if slot.stones else (None,)
        on_board = on_board and bool(slot.stones)
    for remove in removes:
        for position in rooms:
            if room[position - 1] is None or position == remove:
                yield from (BuyMachine(position, remove, extra, level, sp, ga, s2) for sp, ga, s2 in discounts)
    for stone in stones:
        yield from (BuyBanner(stone, extra, level, sp, ga, sponsor2=s2) for sp, ga, s2 in discounts)
    if on_board:
        for s in ctx.own_stones(state, decider(state)):
            board = (s.level, s.position)
            yield from (BuyBanner(None, extra, level, sp, ga, board, s2) for sp, ga, s2 in discounts)


Discounts = Sequence[tuple[bool, bool, bool]]


def _removals(slot: Visible, occupied: tuple[int, ...], size: int) -> list[tuple[int | None, tuple[int, ...]]]:
    """The (remove, more) choices of a machine purchase (STM-R-41/42; STM-AMB-25 'cumulative': as many
    tiles as removal symbols are visible)."""
    if slot.removals > 1:
        return [(c[0], c[1:]) for c in combinations(occupied, slot.removals)]
    removes: tuple[int | None, ...] = occupied if slot.removals or len(occupied) == size else (None,)
    return [(r, ()) for r in removes]


def _cumulative_banners(
    ctx: Context, state: StmState, stones: int, extra: bool, level: int | None, discounts: Discounts
) -> Iterator[BuyBanner]:
    """STM-AMB-25 'cumulative': a banner costing ``stones`` stones, named from the gauge (the first one
    under STM-AMB-11 'board' from an own board stone, not one a carried passenger needs)."""
    if not stones:
        yield from (BuyBanner(None, extra, level, sp, ga, sponsor2=s2) for sp, ga, s2 in discounts)
        return
    spaces = me(state).gauge.stone_spaces()
    for chosen in combinations(spaces, stones):
        yield from (BuyBanner(chosen[0], extra, level, sp, ga, None, s2, chosen[1:]) for sp, ga, s2 in discounts)
    if ctx.r("STM-AMB-11") == "board":
        own = ctx.own_stones(state, decider(state))
        for s in own:
            if waits_for_passenger(ctx, state, own, s.level):
                continue
            for more in combinations(spaces, stones - 1):
                board = (s.level, s.position)
                yield from (BuyBanner(None, extra, level, sp, ga, board, s2, more) for sp, ga, s2 in discounts)


def _cumulative_purchases(
    ctx: Context, state: StmState, slot: Visible, level: int | None, extra: bool, discounts: Discounts
) -> Iterator[StmAction]:
    """STM-AMB-25 'cumulative': the purchase candidates of the face-up tile, shaped by its summed symbols
    (the check then keeps those it accepts): as a machine as many removals as removal symbols, as a
    banner as many stones as stone symbols."""
    room = me(state).machine_room
    occupied = tuple(i for i in range(1, len(room) + 1) if room[i - 1] is not None)
    for remove, more in _removals(slot, occupied, len(room)):
        for position in range(1, len(room) + 1):
            if room[position - 1] is None or position == remove or position in more:
                yield from (BuyMachine(position, remove, extra, level, sp, ga, s2, more) for sp, ga, s2 in discounts)
    yield from _cumulative_banners(ctx, state, slot.stones, extra, level, discounts)


def _active_level(state: StmState) -> int:
    assert state.turn.active is not None
    return state.turn.active[0]


def _placements(ctx: Context, state: StmState) -> Iterator[PlaceParasite]:
    """Every parasite placement or move onto another player's machine (STM-R-52), solo beside the stack."""
    seat = decider(state)
    if state.solo is not None:
        yield PlaceParasite(None, None)
        return
    sources: list[ParasiteAt | None] = [None]
    sources += sorted({at(x) for x in placed(state, seat) if x.host is not None})
    for host, p in enumerate(state.players):
        if host == seat:
            continue
        for position, tile in enumerate(p.machine_room, start=1):
            if tile is None:
                continue
            face = ctx.face(tile)
            shown: list[Symbol] = []
            if face.boilers:
                shown.append("activation")
            if face.passive is not None:
                shown.append("passive")
            for symbol in shown:
                yield from (PlaceParasite(host, position, symbol, moved) for moved in sources)


def _activations(ctx: Context, state: StmState, part: ActivateParasites) -> Iterator[StmAction]:
    """STM-R-56: every order of every choice of own placed parasites, up to the part's count; solo
    (STM-R-72): the face-up tile of a destination level, one use at a time."""
    if state.solo is not None:
        # STM-AMB-39 'activation': the passive effect is not offered.
        symbols = ("activation",) if ctx.r("STM-AMB-39") == "activation" else SYMBOLS
        for level in sorted(set(printed_destinations(ctx, state))):
            yield from (UseFaceUpTile(level, sym) for sym in symbols)
        return
    own = sorted(at(x) for x in placed(state, decider(state)) if x.host is not None)
    if repeats(ctx, state, part):  # STM-AMB-35 'repeat': one use at a time, the same parasite again too
        yield from (ActivateParasite((x,)) for x in own)
        return
    most = len(own) if part.count is None else min(part.count, len(own))
    seen: set[tuple[ParasiteAt, ...]] = set()
    for k in range(1, most + 1):
        for chosen in combinations(own, k):
            for order in permutations(chosen):
                if order not in seen:
                    seen.add(order)
                    yield ActivateParasite(order)


def _one_stone_moves(gauge: Gauge, up_to: int) -> Iterator[StmAction]:
    seen: set[Gauge] = set()
    for space in gauge.stone_spaces():
        for steps in range(up_to + 1):
            after = increase_one_stone(gauge, space, steps, up_to).gauge
            if after not in seen:
                seen.add(after)
                yield RaiseOneStone(space, steps)


def _turn_moves(ctx: Context, state: StmState, n: int) -> Iterator[StmAction]:
    gauge = me(state).gauge
    spaces = [("g", s) for s in gauge.stone_spaces() if s not in gauge.arrow_spaces()]
    board: list[tuple[str, District]] = [
        ("b", (s.level, s.position)) for s in ctx.own_stones(state, decider(state)) if not s.stone.arrow
    ]
    items: list[tuple[str, object]] = [*spaces, *board]
    for k in range(1, min(n, len(items)) + 1):
        for chosen in combinations(items, k):
            yield TurnArrows(
                tuple(x for t, x in chosen if t == "g"),  # type: ignore[misc]
                tuple(x for t, x in chosen if t == "b"),  # type: ignore[misc]
            )


def _stores(ctx: Context, state: StmState) -> Iterator[StmAction]:
    player = me(state)
    for c in range(player.crystals + 1):
        for g in range(player.gears + 1):
            yield Store(c, g)


_Judge = Callable[[Context, StmState, StmAction], Rejection | tuple[Rejection | None, ...] | None]
# The layers ``rejections`` judges apart, in ``check``'s order.
_JUDGES: tuple[_Judge, ...] = (step_rejection, own_rejection, condition_rejections)
