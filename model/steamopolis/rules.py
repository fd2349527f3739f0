"""Steamopolis legality: one named condition per rule, each returning a
Rejection (rule ID + plain words) or None; ``legal_actions`` generates what
``check`` accepts.  Effects live in transitions.py.

Scope of this layer: the multiplayer turn (start of turn, the three actions,
channelling, the flight with passengers and purchases, effect parts, store
steps, end of turn).  Parasites, envy, sponsors, galas, 'buy tile' and 'use
another district' effects, the final round and the solo rules come later:
their effect parts can only be forgone here (the rejection says so).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, permutations

from rulecraft.core import Rejection
from rulecraft.model.steamopolis.actions import (
    CHANCE_ACTIONS,
    EFFECT_ACTIONS,
    BuildCapacity,
    BuildStartingRoom,
    BuyBanner,
    BuyBonusMarker,
    BuyMachine,
    ChannelPressure,
    ChooseSide,
    DeclineCost,
    District,
    EndTurn,
    FlyToAllTargets,
    GainStone,
    LetLapse,
    MakeSteam,
    MoveArrowStones,
    MoveBaseMarker,
    MoveLeft,
    PassTurn,
    PayCost,
    PickUp,
    PlaceStone,
    RaiseOneStone,
    RaisePressure,
    SetTarget,
    SkipPart,
    SkipStep,
    StmAction,
    StopBuying,
    Store,
    TakeBack,
    TakeResources,
    TurnArrows,
    UseDistrict,
    UsePart,
)
from rulecraft.model.steamopolis.catalogue import RULES
from rulecraft.model.steamopolis.components import Destination, MachineTile, MarketSlot, PassengerTile, Resource
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import (
    COSTS,
    AdvanceBaseMarker,
    Either,
    GainCapacityTile,
    GainPressureStone,
    GainResources,
    IncreaseOneStone,
    IncreasePressure,
    LookAtMachine,
    Part,
    PayCrystalsPerStone,
    PayResources,
    ReturnStone,
    StoneToEight,
    TurnStones,
    UseAllActivationEffects,
    VotePoints,
)
from rulecraft.model.steamopolis.gauge import (
    Gauge,
    GaugeError,
    Stone,
    bump,
    can_move,
    increase,
    increase_one_stone,
    increment,
    marker_spaces_for,
    movable,
)
from rulecraft.model.steamopolis.setup import chance_outcomes, room_choices, room_rejection
from rulecraft.model.steamopolis.state import Market, Passenger, Phase, PlayerState, StmState, stones_owned

reject = RULES.reject
CHANCE_PHASES = (Phase.DEAL, Phase.REVEAL)

# Parts any effect may hold that this layer can only let lapse, with the rule that governs them.
NOT_YET: dict[str, str] = {
    "PlaceParasites": "STM-R-52",
    "ActivateParasites": "STM-R-56",
    "ShakeOff": "STM-R-55",
    "GainSponsor": "STM-R-57",
    "TurnSponsor": "STM-R-57",
    "GainCharityGala": "STM-R-58",
    "BuyTile": "STM-R-61",
    "UseAnotherDistrict": "STM-R-61",
    "GainPinkMarker": "STM-R-04",
}
PLAIN_PARTS = (VotePoints, LookAtMachine, StoneToEight, UseAllActivationEffects)


# ---------------------------------------------------------------------------
# Small readings of the state
# ---------------------------------------------------------------------------


def me(state: StmState) -> PlayerState:
    return state.players[state.to_move]


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
    return bool(ctx.own_stones(state, state.to_move))  # STM-R-24 C


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


def slot_of(ctx: Context, market: Market, tile: MachineTile) -> MarketSlot:
    """STM-R-40 / STM-AMB-25 'per-slot': the symbols beside the face-up tile's slot."""
    if market.extra:
        return ctx.pack.extra_market_slots[0]
    return next(s for s in ctx.pack.market_slots if s.rank == tile.rank)


def tile_price(ctx: Context, market: Market) -> tuple[MachineTile, MarketSlot, PayResources]:
    """The face-up tile, its slot, and row 3 plus the tile's own costs (STM-R-40)."""
    tile = ctx.pack.machine(market.tiles[0])
    slot = slot_of(ctx, market, tile)
    pay = PayResources(slot.resources.crystals + tile.costs.crystals, slot.resources.gears + tile.costs.gears)
    return tile, slot, pay


def afford(player: PlayerState, pay: PayResources) -> bool:
    return player.crystals >= pay.crystals and player.gears >= pay.gears


def head(state: StmState) -> Part:
    return state.turn.pending[0][0]


def over_capacity(ctx: Context, player: PlayerState) -> bool:
    return player.crystals + player.gears > ctx.storage(player)


# ---------------------------------------------------------------------------
# The judge
# ---------------------------------------------------------------------------


def check(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    """None when ``action`` is legal for the seat to move, else the rule that forbids it."""
    if state.phase in CHANCE_PHASES:
        if action in [a for a, _ in chance_outcomes(ctx, state)]:
            return None
        return reject("STM-R-51" if state.phase is Phase.REVEAL else "STM-R-03", f"chance cannot deal {action!r} now")
    if isinstance(action, CHANCE_ACTIONS):
        return reject("STM-R-03", "only chance deals tiles and characters")
    turn = state.turn
    if turn.storing:
        if isinstance(action, Store):
            return store_rejection(ctx, state, action)
        return reject("STM-R-32", "store your resources first: you hold more than your storage spaces")
    if turn.pending:
        if isinstance(action, EFFECT_ACTIONS):
            return effect_rejection(ctx, state, action)
        return reject("STM-R-22", f"finish the effect first: {head(state)!r} waits for a decision")
    if isinstance(action, EFFECT_ACTIONS):
        return reject("STM-R-22", "no effect is being carried out")
    if isinstance(action, Store):
        return reject("STM-R-32", "no store step is due")
    return _phase_rejection(ctx, state, action)


def _phase_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    phase = state.phase
    if phase is Phase.START_OF_TURN:
        if isinstance(action, MoveArrowStones):
            return arrows_rejection(ctx, state, action)
        return reject("STM-R-23", "the turn starts by moving the arrow stones")
    if phase is Phase.ACTION:
        return action_rejection(ctx, state, action)
    if phase is Phase.CHANNEL:
        if isinstance(action, MoveLeft | PlaceStone):
            return channel_rejection(ctx, state, action)
        return reject("STM-R-29", "the channelled stone must be moved left or placed")
    if phase is Phase.FLIGHT:
        return flight_rejection(ctx, state, action)
    if phase is Phase.END_OF_TURN:
        if isinstance(action, EndTurn):
            return None
        return reject("STM-R-49", "the action is over: only the end of the turn remains")
    if phase is Phase.SETUP_ROOM:
        if not isinstance(action, BuildStartingRoom):
            return reject("STM-R-13", "build the starting machine and the capacity tile into your machine room")
        why = room_rejection(ctx, state, action)
        return reject("STM-R-13", why) if why else None
    if phase is Phase.OVER:
        return reject("STM-R-67", "the game is over")
    return reject("STM-R-03", f"chance decides the {phase.value} step, not a player")


# -- start of turn and the choice of action ------------------------------------------------------


def arrows_rejection(ctx: Context, state: StmState, action: MoveArrowStones) -> Rejection | None:
    """STM-R-19 / STM-AMB-07: each arrow stone on the gauge once, in the player's order."""
    arrows = me(state).gauge.arrow_spaces()
    if len(set(action.order)) != len(action.order) or not set(action.order) <= set(arrows):
        return reject("STM-R-19", f"the order {list(action.order)} must name arrow stones {list(arrows)}, each once")
    if ctx.r("STM-AMB-07") != "optional" and sorted(action.order) != list(arrows):
        return reject("STM-R-19", f"every arrow stone on the gauge moves: {list(arrows)} (STM-AMB-07 'each')")
    return None


def action_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    if state.turn.final_step is not None:
        why = final_step_rejection(ctx, state, action)
        if why is not None or isinstance(action, SkipStep):
            return why
    if isinstance(action, MakeSteam):
        return make_steam_rejection(ctx, state, action)
    if isinstance(action, SetTarget):
        return set_target_rejection(ctx, state, action)
    if isinstance(action, ChannelPressure):
        return channel_start_rejection(ctx, state, action)
    if isinstance(action, FlyToAllTargets):
        if not can_fly(ctx, state):
            return reject("STM-R-24", "FLY TO ALL TARGETS needs at least one of your stones on the board")
        return None
    if isinstance(action, SkipStep):
        return reject("STM-R-66", "only a final turn lets you skip an action")
    if isinstance(action, PassTurn):
        if state.turn.final_step is not None:
            return reject("STM-R-66", "in the final turn, skip the action instead")
        if can_make_steam(state) or can_set_target(ctx, state) or can_fly(ctx, state):
            return reject("STM-R-23", "you must perform one of the three actions")
        return None
    return reject("STM-R-23", "choose MAKE STEAM, SET 1 TARGET or FLY TO ALL TARGETS")


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


def pressure_rejection(ctx: Context, gauge: Gauge, x: int, picks: tuple[int, ...]) -> Rejection | None:
    """STM-R-15 / STM-AMB-32: the increments are legal and none lapses voluntarily."""
    try:
        result = increase(gauge, x, picks)
    except GaugeError as err:
        return reject(err.rule, err.message)
    if ctx.r("STM-AMB-32") == "most":
        best = max(len(p) for p in pressure_choices(gauge, x).values())
        if result.used < best:
            used = result.used
            return reject("STM-R-15", f"another order uses {best} increments (STM-AMB-32 'most'), this one {used}")
    return None


def make_steam_rejection(ctx: Context, state: StmState, action: MakeSteam) -> Rejection | None:
    """STM-R-24/25: a stone must be able to move; the pressure rises by 2 + the machines' boilers."""
    if not can_make_steam(state):
        return reject("STM-R-24", "MAKE STEAM needs a stone on the gauge that can still move")
    return pressure_rejection(ctx, me(state).gauge, ctx.boilers(me(state)), action.picks)


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
    entry = ctx.entry(v)
    if entry is None:
        return reject("STM-R-28", f"a stone of pressure value {v} cannot channel pressure into the machine")
    if not ctx.free_districts(state, entry):
        return reject("STM-R-28", f"no free district on levels 1-{entry}: the channelled stone could not be placed")
    if ctx.r("STM-AMB-06") == "forbidden" and me(state).machine_room[entry - 1] is None:
        return reject("STM-R-28", f"no machine at position {entry} (STM-AMB-06 'forbidden')")
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


def flight_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    step = state.turn.step
    if isinstance(action, TakeBack):
        if step != "next":
            return reject("STM-R-33", "finish the steps of the current stone before taking back the next")
        return take_back_rejection(ctx, state, action)
    if isinstance(action, BuyBonusMarker | StopBuying) and step == "buying":
        return bonus_rejection(ctx, state, action) if isinstance(action, BuyBonusMarker) else None
    if step == "buying":
        return reject("STM-R-46", "buy another bonus marker or stop buying")
    if step != "passengers":
        return reject("STM-R-33", "take back one of your stones first")
    if isinstance(action, PickUp):
        return pick_up_rejection(ctx, state, action)
    if isinstance(action, UseDistrict | LetLapse):
        return None
    if isinstance(action, BuyMachine | BuyBanner):
        return buy_tile_rejection(ctx, state, action)
    if isinstance(action, BuyBonusMarker):
        return bonus_rejection(ctx, state, action)
    return reject("STM-R-38", "choose the district effect, a purchase, or nothing")


def take_back_rejection(ctx: Context, state: StmState, action: TakeBack) -> Rejection | None:
    """STM-R-33/34 with STM-R-18: one of your stones, onto the first free space or a freed one."""
    if not any((s.level, s.position) == (action.level, action.position) for s in ctx.own_stones(state, state.to_move)):
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
    if not any(s.level == dest for s in ctx.own_stones(state, state.to_move)):
        return reject("STM-R-36", f"the {who} wants to go to level {dest} and you have no stone left there")
    return None


def buy_tile_rejection(ctx: Context, state: StmState, action: BuyMachine | BuyBanner) -> Rejection | None:
    """STM-R-40..43: the face-up tile of the active level's market, paid in full."""
    assert state.turn.active is not None
    level = state.turn.active[0]
    if level == 1:
        return reject("STM-R-38", "the level-1 market sells bonus markers, not tiles")
    market = market_at(state, level, action.extra)
    if market is None or not market.tiles:
        return reject("STM-R-40", f"no face-up tile on the {'extra ' if action.extra else ''}market of level {level}")
    _tile, slot, pay = tile_price(ctx, market)
    player = me(state)
    if not afford(player, pay):
        price = f"{pay.crystals} crystals and {pay.gears} gears"
        return reject("STM-R-40", f"the tile costs {price}: you cannot pay it all")
    if isinstance(action, BuyMachine):
        return build_in_rejection(ctx, player, slot, action)
    if slot.banner_stone:
        if action.stone is None or action.stone not in player.gauge.stone_spaces():
            return reject("STM-R-43", "a banner costs a pressure stone from your gauge (STM-AMB-11 'gauge')")
        if stones_owned(state, state.to_move) < 2:
            return reject("STM-R-43", "you cannot give up your last pressure stone")
    elif action.stone is not None:
        return reject("STM-R-43", "this banner costs no pressure stone")
    return None


def build_in_rejection(ctx: Context, player: PlayerState, slot: MarketSlot, action: BuyMachine) -> Rejection | None:
    """STM-R-41/42: rank 1+ costs a machine-room tile; the tile goes to a free position."""
    room = player.machine_room
    full = all(t is not None for t in room)
    if action.remove is not None:
        if not 1 <= action.remove <= len(room) or room[action.remove - 1] is None:
            return reject("STM-R-41", f"no tile at machine-room position {action.remove} to remove")
        if not (slot.remove_machine or full):
            return reject("STM-R-42", "a free position exists and this tile costs no machine: nothing is removed")
    elif slot.remove_machine:
        return reject("STM-R-41", "from rank 1 a machine tile must be removed from your machine room")
    elif full:
        return reject("STM-R-42", "every position is taken: remove a tile to make room")
    after = tuple(None if i + 1 == action.remove else t for i, t in enumerate(room))
    if not 1 <= action.position <= len(room) or after[action.position - 1] is not None:
        return reject("STM-R-42", f"machine-room position {action.position} is not free")
    return None


def bonus_rejection(ctx: Context, state: StmState, action: BuyBonusMarker) -> Rejection | None:
    """STM-R-46/47 with STM-AMB-13 'foremost', AMB-15: a row's foremost marker, paid, on its numeral."""
    assert state.turn.active is not None
    if state.turn.active[0] != 1:
        return reject("STM-R-38", "bonus markers are sold on level 1 only")
    left = state.bonus.crystal_row if action.row == "crystal" else state.bonus.gear_row
    if not left:
        return reject("STM-R-46", f"the {action.row} row is empty")
    cost = bonus_slot(ctx, action.row, left[0])[0]
    have = me(state).crystals if action.row == "crystal" else me(state).gears
    if have < cost:
        return reject("STM-R-46", f"the #{left[0]} marker costs {cost} {action.row}s; you have {have}")
    usable = marker_spaces_for(me(state).gauge, left[0], ctx.layout)
    if action.space is None:
        if usable:
            return reject("STM-R-47", f"bonus marker #{left[0]} goes on one of the spaces {list(usable)}")
        if ctx.r("STM-AMB-15") == "no-buy":
            return reject("STM-R-47", f"no #{left[0]} space right of the base marker (STM-AMB-15 'no-buy')")
    elif action.space not in usable:
        return reject("STM-R-47", f"space {action.space} is not a #{left[0]} space right of the base marker")
    return None


def bonus_slot(ctx: Context, row: Resource, numeral: int) -> tuple[int, int]:
    """STM-P-08: (cost, VP) shown in the row while #numeral is its foremost marker."""
    found = next(r for r in ctx.pack.bonus_rows if r.resource == row)
    slot = next(s for s in found.slots if s.numeral == numeral)
    return slot.cost, slot.vp


# -- effect parts -------------------------------------------------------------------------------------


def effect_rejection(ctx: Context, state: StmState, action: StmAction) -> Rejection | None:
    part = head(state)
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


def cost_rejection(ctx: Context, state: StmState, part: Part, action: PayCost) -> Rejection | None:
    player = me(state)
    if not isinstance(part, ReturnStone) and action.stone is not None:
        return reject("STM-R-22", "this cost takes no pressure stone")
    if isinstance(part, PayResources) and not afford(player, part):
        return reject("STM-R-22", f"you cannot pay {part.crystals} crystals and {part.gears} gears")
    if isinstance(part, PayCrystalsPerStone) and player.crystals < stones_owned(state, state.to_move):
        owned = stones_owned(state, state.to_move)
        return reject("STM-R-63", f"you own {owned} pressure stones and have {player.crystals} crystals")
    if isinstance(part, ReturnStone):
        if action.stone is None or action.stone not in player.gauge.stone_spaces():
            return reject("STM-R-22", "name the gauge space of the pressure stone you give up")
        if stones_owned(state, state.to_move) < 2:
            return reject("STM-R-43", "you cannot give up your last pressure stone")
    return None


def use_rejection(ctx: Context, state: StmState, part: Part, action: StmAction) -> Rejection | None:
    """The head part carried out with the action's choices (STM-R-15..20, R-59, R-61, R-62)."""
    name = type(part).__name__
    if name in NOT_YET:
        return reject(NOT_YET[name], f"{part!r} is not modelled in this layer yet: it can only be forgone")
    player = me(state)
    if isinstance(part, PLAIN_PARTS):
        if not isinstance(action, UsePart):
            return reject("STM-R-61", f"{part!r} needs no choice: use it or skip it")
        if isinstance(part, StoneToEight) and state.turn.active_space is None:
            return reject("STM-R-61", "no stone was taken back onto your gauge for this district")
        return None
    if isinstance(part, GainResources) and isinstance(action, TakeResources):
        return resources_rejection(state, part, action)
    if isinstance(part, IncreasePressure) and isinstance(action, RaisePressure):
        return pressure_rejection(ctx, player.gauge, part.n, action.picks)
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
    return reject("STM-R-22", f"{action!r} does not carry out {part!r}")


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
        return reject("STM-R-19", f"the stones to turn lie on arrowless gauge spaces {sorted(arrowless)}")
    board = {(s.level, s.position) for s in ctx.own_stones(state, state.to_move) if not s.stone.arrow}
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


def pressure_choices(gauge: Gauge, x: int) -> dict[Gauge, tuple[int, ...]]:
    """Every end gauge of 'increase the pressure by x' (STM-R-15) with one order of increments."""
    out: dict[Gauge, tuple[int, ...]] = {}
    seen: set[tuple[Gauge, int]] = set()

    def walk(g: Gauge, left: int, picks: tuple[int, ...]) -> None:
        if (g, left) in seen:
            return
        seen.add((g, left))
        options = movable(g) if left else ()
        if not options:
            out.setdefault(g, picks)
            return
        for space in options:
            walk(increment(g, space), left - 1, (*picks, space))

    walk(gauge, x, ())
    return out


def _raises(ctx: Context, gauge: Gauge, x: int) -> Iterator[tuple[int, ...]]:
    for picks in pressure_choices(gauge, x).values():
        if pressure_rejection(ctx, gauge, x, picks) is None:
            yield picks


def legal_actions(ctx: Context, state: StmState) -> list[StmAction]:
    """Every action ``check`` accepts for the seat to move (one representative per pressure outcome)."""
    return [a for a in _candidates(ctx, state) if check(ctx, state, a) is None]


def _candidates(ctx: Context, state: StmState) -> Iterator[StmAction]:
    if state.turn.storing:
        yield from _stores(ctx, state)
    elif state.turn.pending:
        yield from _effect_moves(ctx, state)
    elif state.phase is Phase.START_OF_TURN:
        seen: set[Gauge] = set()
        for order in permutations(me(state).gauge.arrow_spaces()):
            after = _arrows_after(me(state).gauge, order)
            if after not in seen:
                seen.add(after)
                yield MoveArrowStones(order)
    elif state.phase is Phase.ACTION:
        yield from _action_moves(ctx, state)
    elif state.phase is Phase.CHANNEL:
        yield MoveLeft()
        assert state.turn.channel is not None
        yield from (PlaceStone(d.level, d.position) for d in ctx.free_districts(state, state.turn.channel))
    elif state.phase is Phase.FLIGHT:
        yield from _flight_moves(ctx, state)
    elif state.phase is Phase.END_OF_TURN:
        yield EndTurn()
    elif state.phase is Phase.SETUP_ROOM:
        yield from room_choices(state)


def _arrows_after(gauge: Gauge, order: tuple[int, ...]) -> Gauge:
    for space in order:
        gauge, _ = bump(gauge, space)
    return gauge


def _action_moves(ctx: Context, state: StmState) -> Iterator[StmAction]:
    player = me(state)
    if can_make_steam(state):
        yield from (MakeSteam(p) for p in _raises(ctx, player.gauge, ctx.boilers(player)))
    for space in player.gauge.stone_spaces():
        v = ctx.layout.value(space)
        yield from (SetTarget(space, d.level, d.position) for d in ctx.free_districts(state, v))
        yield ChannelPressure(space)
    yield FlyToAllTargets()
    yield PassTurn()
    yield SkipStep()


def _flight_moves(ctx: Context, state: StmState) -> Iterator[StmAction]:
    step = state.turn.step
    player = me(state)
    if step == "next":
        markers: tuple[int | None, ...] = (None, *player.gauge.marker_spaces())
        for s in ctx.own_stones(state, state.to_move):
            yield from (TakeBack(s.level, s.position, m) for m in markers)
        return
    if step == "buying":
        yield StopBuying()
    else:
        yield from (PickUp("banker"), PickUp("stoker"), UseDistrict(), LetLapse())
        rooms = range(1, len(player.machine_room) + 1)
        for extra in (False, True):
            for position in rooms:
                yield from (BuyMachine(position, remove, extra) for remove in (None, *rooms))
            yield from (BuyBanner(stone, extra) for stone in (None, *player.gauge.stone_spaces()))
    rows: tuple[Resource, ...] = ("crystal", "gear")
    for row in rows:
        for space in (None, *range(len(player.gauge.spaces))):
            yield BuyBonusMarker(row, space)
            if space is not None and space in player.gauge.stone_spaces() and can_move(player.gauge, space):
                yield BuyBonusMarker(row, space, bump=False)


def _effect_moves(ctx: Context, state: StmState) -> Iterator[StmAction]:
    part = head(state)
    player = me(state)
    yield from (SkipPart(), DeclineCost(), ChooseSide(0), ChooseSide(1), UsePart())
    if isinstance(part, COSTS):
        yield from (PayCost(s) for s in (None, *player.gauge.stone_spaces()))
    elif isinstance(part, GainResources):
        top_c = state.supply.crystals if part.any_number else part.crystals + part.either
        top_g = state.supply.gears if part.any_number else part.gears + part.either
        yield from (TakeResources(c, g) for c in range(top_c + 1) for g in range(top_g + 1))
    elif isinstance(part, IncreasePressure):
        yield from (RaisePressure(p) for p in _raises(ctx, player.gauge, part.n))
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
        ("b", (s.level, s.position)) for s in ctx.own_stones(state, state.to_move) if not s.stone.arrow
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
