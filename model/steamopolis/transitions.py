"""Steamopolis effects: pure functions state -> state (rulecraft.evolve).

They run only on actions the check accepted (rules.py), so they assert
rather than re-check.  Each effect names the rules it carries out.  After
every action :func:`settle` moves the turn on as far as no decision is
needed: a store step that fits, the next flight stone, the end of the turn,
and in solo the 'remove tiles' step that ends a FLY (STM-R-71).
"""

from __future__ import annotations

from typing import Any, assert_never

from rulecraft.core import Rejection
from rulecraft.evolve import evolve, evolver
from rulecraft.model.steamopolis import gauge as g
from rulecraft.model.steamopolis.actions import (
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
from rulecraft.model.steamopolis.components import DistrictPosition, Resource
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import (
    ActivateParasites,
    Either,
    Envy,
    EnvyParasite,
    Handover,
    IncreaseOneStone,
    IncreasePressure,
    NextSharer,
    Part,
    PayCrystalsPerStone,
    PayResources,
    PlaceParasites,
    Program,
    Queued,
    ReturnStone,
    ShakeOff,
    Shared,
    StoneToEight,
    TurnSponsor,
    UseAllActivationEffects,
    VotePoints,
    walk,
)
from rulecraft.model.steamopolis.gauge import Gauge, Stone
from rulecraft.model.steamopolis.rules import (
    RESOURCES,
    SYMBOLS,
    at,
    beside_stack,
    bonus_slot,
    bought_numeral,
    can_place,
    carried_destination,
    decider,
    destination,
    discounted,
    end_steps,
    head,
    market_at,
    me,
    over_capacity,
    passenger_tile,
    printed_destinations,
    repeats,
    solo_lost,
    tile_effects,
    tile_price,
    tile_programs,
)
from rulecraft.model.steamopolis.setup import build_room, deal, room_done
from rulecraft.model.steamopolis.state import (
    ACTION,
    CHANNEL,
    END_OF_TURN,
    FLIGHT,
    OVER,
    REVEAL,
    SETUP_ROOM,
    SHADOW,
    START_OF_TURN,
    BoardStone,
    BonusMarket,
    Market,
    Parasite,
    Passenger,
    Passengers,
    PlayerState,
    RoomTile,
    Solo,
    StmState,
    TurnState,
    room_tile,
    stones_owned,
)

# ---------------------------------------------------------------------------
# Small pure helpers
# ---------------------------------------------------------------------------

# The three classes a step copies, their copiers bound once (rulecraft.evolve.evolver): a random game
# makes two or three copies a step, and looking the copier up by class was a third of each (issue 18).
_state_copy = evolver(StmState)
_turn_copy = evolver(TurnState)
_player_copy = evolver(PlayerState)

# A turn's bookkeeping as each turn starts (frozen: one instance serves every turn).
NEW_TURN = TurnState()


def with_player(state: StmState, player: PlayerState) -> StmState:
    """The deciding player's holdings replaced (the player to move, or a helper: :func:`decider`)."""
    return _state_copy(state, players=players_with(state, player))


def players_with(state: StmState, player: PlayerState) -> tuple[PlayerState, ...]:
    """Every seat's holdings, the deciding player's replaced (:func:`with_player` without the copy)."""
    seat = decider(state)
    return (*state.players[:seat], player, *state.players[seat + 1 :])


def with_gauge(state: StmState, gauge: Gauge) -> StmState:
    return with_player(state, _player_copy(me(state), gauge=gauge))


def with_turn(state: StmState, **changes: Any) -> StmState:
    return _state_copy(state, turn=_turn_copy(state.turn, **changes))


def to_supply(state: StmState, stone: Stone, ctx: Context) -> StmState:
    """A stone returns to the personal supply (STM-AMB-10: 'reset' turns its arrow away)."""
    kept = Stone(False) if ctx.r("STM-AMB-10") == "reset" else stone
    return with_player(state, _player_copy(me(state), supply=(*me(state).supply, kept)))


def gain(state: StmState, crystals: int, gears: int) -> StmState:
    """Resources move from the general supply to the player (negative: back to the supply)."""
    p = me(state)
    state = with_player(state, _player_copy(p, crystals=p.crystals + crystals, gears=p.gears + gears))
    s = state.supply
    return _state_copy(state, supply=evolve(s, crystals=s.crystals - crystals, gears=s.gears - gears))


def score(state: StmState, vp: int) -> StmState:
    return with_player(state, _player_copy(me(state), vp=me(state).vp + vp))


def queue(state: StmState, *programs: Queued, **changes: Any) -> StmState:
    """Effects to resolve after those already waiting; ``changes`` to the turn made in the same copy."""
    added = tuple(p for p in programs if p)
    if added:
        changes["pending"] = (*state.turn.pending, *added)
    return with_turn(state, **changes) if changes else state


def resume(state: StmState, now: tuple[Queued, ...] = (), later: tuple[Queued, ...] = ()) -> StmState:
    """The head part is done: ``now`` resolves before the rest of its effect (an effect used 'as if
    triggered', a district used through another), ``later`` once the effect is finished (STM-R-53:
    the envious wait until the effect is done), then whatever waited already."""
    first, *rest = state.turn.pending
    remaining = first[1:]
    pending = (*now, *((remaining,) if remaining else ()), *later, *rest)
    return with_turn(state, pending=tuple(p for p in pending if p))


def replace_head(state: StmState, part: Part) -> StmState:
    first, *rest = state.turn.pending
    return with_turn(state, pending=((part, *first[1:]), *rest))


def activation(ctx: Context, state: StmState, position: int) -> tuple[Program, ...]:
    """STM-R-30: the piped boilers of the tile at ``position`` (each activated once)."""
    tile = me(state).machine_room[position - 1]
    return tuple(b.effect for b in ctx.face(tile).activated()) if tile else ()


def fire(ctx: Context, state: StmState, kind: str, level: int | None = None) -> tuple[StmState, tuple[Queued, ...]]:
    """STM-R-60 with R-54: the deciding player's tiles whose passive this trigger fires, each its
    effect followed by the parasites on that passive (they go home, their owners share it)."""
    out: list[Queued] = []
    for position, tile in enumerate(me(state).machine_room, start=1):
        p = ctx.face(tile).passive if tile is not None else None
        if p and not p.end_of_turn and p.trigger.kind == kind and p.trigger.level in (None, level):
            state, block = triggered(ctx, state, position, "passive", (p.effect,))
            out += block
    return state, tuple(out)


def triggered(
    ctx: Context, state: StmState, position: int, on: str, programs: tuple[Program, ...]
) -> tuple[StmState, tuple[Queued, ...]]:
    """STM-R-54: the deciding player's tile at ``position`` triggers the effect under ``on``: its
    programs, then every parasite on that symbol goes home and its owner may use the effect once,
    whether or not the machine's owner uses it (MAKE STEAM and 'use all activation effects' never
    come here)."""
    if not programs:
        return state, ()
    host = decider(state)
    hits = [x for x in state.parasites if x.host == host and x.position == position and x.on == on]
    state = send_home(state, hits)
    owners = tuple(x.owner for x in hits)
    if ctx.r("STM-AMB-36") == "once":  # one use per symbol and owner, however many of its parasites sat there
        owners = tuple(dict.fromkeys(owners))
    return state, (*programs, *sharing(ctx, state, owners, programs))


def sharing(ctx: Context, state: StmState, seats: tuple[int, ...], programs: tuple[Shared, ...]) -> tuple[Queued, ...]:
    """Other players' turns at a shared effect (a parasite's use, an envy placement), each handed the
    decision and the decision handed back after them.  STM-AMB-21 'clockwise': from the active
    player's left; 'owner-chooses': the deciding player names who is next."""
    if not seats or not programs:
        return ()
    n = len(state.players)
    order = tuple(sorted(seats, key=lambda s: (s - state.to_move - 1) % n))
    if ctx.r("STM-AMB-21") == "owner-chooses" and len(set(order)) > 1:
        return ((NextSharer(order, programs),),)
    out: list[Queued] = []
    for seat in order:
        out += [(Handover(seat),), *programs]
    return (*out, (Handover(decider(state)),))


def envy(ctx: Context, state: StmState) -> tuple[Queued, ...]:
    """STM-R-53: each other player may place 1 parasite on the envied (deciding) player's machines
    (solo: nothing happens, STM-R-72)."""
    if state.solo is not None:
        return ()
    envied = decider(state)
    others = tuple(s for s in range(len(state.players)) if s != envied)
    return sharing(ctx, state, others, ((EnvyParasite(envied),),))


def send_home(state: StmState, parasites: list[Parasite]) -> StmState:
    """STM-R-54/55: these parasites (one each) return to their owners' supplies."""
    left = list(state.parasites)
    players = list(state.players)
    for x in parasites:
        left.remove(x)
        players[x.owner] = evolve(players[x.owner], parasites_home=players[x.owner].parasites_home + 1)
    return _state_copy(state, players=tuple(players), parasites=tuple(left))


def remove_tile(state: StmState, position: int) -> StmState:
    """STM-R-41/55/59: a machine-room tile leaves: machines to the box, capacity tiles to the supply,
    its parasites home unactivated."""
    p = me(state)
    tile = p.machine_room[position - 1]
    assert tile is not None
    room = tuple(None if i + 1 == position else t for i, t in enumerate(p.machine_room))
    state = with_player(state, _player_copy(p, machine_room=room))
    if tile.kind == "capacity":
        state = _state_copy(state, supply=evolve(state.supply, capacity_tiles=state.supply.capacity_tiles + 1))
    return send_home(state, [x for x in state.parasites if x.host == decider(state) and x.position == position])


def build(state: StmState, position: int, tile: RoomTile) -> StmState:
    p = me(state)
    room = tuple(tile if i + 1 == position else t for i, t in enumerate(p.machine_room))
    return with_player(state, _player_copy(p, machine_room=room))


def erect_statue(ctx: Context, state: StmState) -> StmState:
    """STM-R-45/R-64: a statue to the tower top; the 3rd (rule parameter ``statues_to_end``) gives its
    buyer 3 VP (``last_statue_vp``) and triggers the end."""
    tower = state.tower_top + 1
    state = _state_copy(state, tower_top=tower)
    if tower == ctx.params["statues_to_end"]:
        state = evolve(score(state, ctx.params["last_statue_vp"]), end_triggered=True)
    return state


# ---------------------------------------------------------------------------
# The dispatcher
# ---------------------------------------------------------------------------


def transition(ctx: Context, state: StmState, action: StmAction) -> StmState:
    """The effect of a legal ``action``, then :func:`settle`."""
    return settle(ctx, _effect(ctx, state, action))


def _effect(ctx: Context, state: StmState, action: StmAction) -> StmState:
    """The effect of ``action``, picked by its kind (the frequent kinds of a random game first; mypy
    --strict proves every kind has its branch)."""
    match action:
        case MoveArrowStones():
            return move_arrow_stones(state, action)
        case EndTurn():
            return end_turn(ctx, state)
        case TakeBack():
            return take_back(ctx, state, action)
        case SetTarget():
            return set_target(ctx, state, action)
        case FlyToAllTargets():
            return fly(ctx, state)
        case LetLapse() | StopBuying():
            return with_turn(state, step="after")
        case UseDistrict():
            return use_district(ctx, state)
        case MakeSteam():
            return make_steam(ctx, state, action)
        case ChannelPressure():
            return channel(ctx, state, action)
        case MoveLeft():
            return move_left(ctx, state)
        case PlaceStone():
            return place_stone(ctx, state, action)
        case PassTurn():
            return end_of_turn(ctx, state)
        case SkipStep():
            return final_step_done(ctx, state)
        case PickUp():
            return pick_up(ctx, state, action.passenger)
        case BuyMachine():
            return buy_machine(ctx, state, action)
        case BuyBanner():
            return buy_banner(ctx, state, action)
        case BuyBonusMarker():
            return buy_bonus_marker(ctx, state, action)
        case Store():
            return store(state, action)
        # STM-R-22: the decisions of the effect part waiting
        case SkipPart():
            return pop_part(state)
        case DeclineCost():
            return with_turn(state, pending=state.turn.pending[1:])  # everything beneath lapses
        case ChooseSide():
            return choose_side(state, action)
        case PayCost():
            return pay_part(ctx, state, action)
        case UsePart(sponsor2=True):  # STM-AMB-34 'two': 'turn sponsor' turns the second (p.31)
            p = me(state)
            assert p.sponsor2 is not None
            return pop_part(with_player(state, _player_copy(p, sponsor2=other_side(p.sponsor2))))
        case UsePart():
            state, now = use_plain(ctx, state)
            return resume(state, now)
        case TakeResources():
            return pop_part(take_resources(ctx, state, action))
        case RaisePressure():
            raised = g.increase(me(state).gauge, _n(state), action.picks, ctx.extra())
            return pop_part(with_gauge(state, raised.gauge))
        case RaiseOneStone():
            raised = g.increase_one_stone(me(state).gauge, action.space, action.steps, _n(state))
            return pop_part(with_gauge(state, raised.gauge))
        case GainStone():
            return pop_part(gain_stone(ctx, state, action))
        case MoveBaseMarker():
            return pop_part(move_base_marker(ctx, state, action))
        case TurnArrows():
            return pop_part(turn_arrows(state, action))
        case BuildCapacity():
            return pop_part(build_capacity(state, action))
        case PlaceParasite():
            return parasite_placed(ctx, state, action)
        case ShakeOffParasite():  # STM-R-55: one chosen opposing parasite, unactivated
            one = Parasite(action.owner, decider(state), action.position, action.symbol)
            return pop_part(send_home(state, [one]))
        case ActivateParasite():  # STM-R-56: each used once as if triggered; they stay
            now = tuple(p for host, pos, on in action.targets for p in _programs_at(ctx, state, host, pos, on))
            part = head(state)
            if isinstance(part, ActivateParasites) and repeats(ctx, state, part):  # STM-AMB-35: it waits again
                return with_turn(state, pending=(*now, *state.turn.pending))
            return resume(state, now)
        case UseFaceUpTile():
            return use_face_up_tile(ctx, state, action)
        case LetPlayer():
            return let_player(ctx, state, action.seat)
        case TakeSponsor():
            return take_sponsor(state, action)
        case TakeGala():
            return take_gala(state, action)
        case PlacePinkMarker():
            return place_pink_marker(ctx, state, action)
        case UseOtherDistrict():
            return use_other_district(ctx, state, action)
        # Set-up, chance and the solo 'remove tiles' step
        case DealCharacter() | DealStartingMachine() | DealMarketTile() | RevealPassenger():
            return deal(ctx, state, action)
        case BuildStartingRoom():
            return build_room(ctx, state, action)
        case UseRemovedTile():
            return use_removed_tile(ctx, state, action)
        case LeaveParasites():
            return parasites_done(ctx, state)
        case EndOfTurnStep():
            return end_step(ctx, state, action.step)
        case _:
            assert_never(action)


# A turn carries itself on through a few dozen automatic steps at most; a model bug that loops fails
# here at once instead of hanging the run (the rules never loop without a player's decision).
SETTLE_STEPS = 10_000


def settle(ctx: Context, state: StmState) -> StmState:
    """Carry the turn on until a decision is needed (STM-R-32 store, R-33 next stone, R-49 end; the
    decision passing between players, STM-R-53/54).  Each phase is asked only what can carry it on."""
    for _ in range(SETTLE_STEPS):
        turn = state.turn
        if turn.storing:
            break
        if turn.pending:
            part = head(state)
            if isinstance(part, Handover):
                if decider(state) != state.to_move and over_capacity(ctx, me(state)):
                    state = with_turn(state, storing=True)  # a helper stores at once (p.33, STM-R-32)
                    break
                seat = None if part.seat == state.to_move else part.seat
                state = pop_part(with_turn(state, decider=seat))
                continue
            if isinstance(part, EnvyParasite) and not can_place(ctx, state, part.host):
                state = pop_part(state)  # STM-R-21/52: no parasite or no machine to place on: it lapses
                continue
            break
        phase = state.phase
        if phase is FLIGHT:
            if turn.step == "after":
                # STM-R-39: step 4, store (STM-AMB-19 'next-step': what was held too), then the next stone.
                state = store_held(state)
                state = with_turn(state, step="next", storing=over_capacity(ctx, me(state)))
                continue
            if turn.step == "next" and not ctx.own_stones(state, state.to_move):
                state = end_of_turn(ctx, state)  # STM-R-33: no stone left on the board
                continue
        elif phase is SETUP_ROOM:
            if me(state).starting is None:
                # STM-R-13 then R-32: the room is built; store what the character gave, then the next seat.
                if over_capacity(ctx, me(state)):
                    state = with_turn(state, storing=True)
                    break
                state = room_done(ctx, state)
                continue
        elif phase is ACTION:
            if over_capacity(ctx, me(state)):
                state = with_turn(state, storing=True)  # STM-R-32 / STM-AMB-19: store after the effects
        elif phase is END_OF_TURN:
            if over_capacity(ctx, me(state)):
                state = with_turn(state, storing=True)  # STM-R-32 / STM-AMB-19: store after the effects
                break
            steps = end_steps(ctx, state)  # STM-AMB-16 'free': the steps still to run ('fixed': none)
            if len(steps) > 1:
                break  # the player picks the next one (EndOfTurnStep)
            if steps:
                state = end_step(ctx, state, steps[0])
                continue
            if removal_due(state):
                state = remove_tiles(ctx, state)  # STM-R-71 / STM-AMB-16 'fixed': after the end-of-turn effects
                continue
            if turn.removal == "parasites" and not beside_stack(state):
                state = parasites_done(ctx, state)  # STM-R-72: no parasite left to take back
                continue
            if turn.removal == "reveal":
                state = with_turn(state, removal="parasites")  # STM-AMB-41 'box-first': revealed, now the parasites
                continue
        break
    else:
        raise RuntimeError(f"settle: more than {SETTLE_STEPS} automatic steps in one turn (a model bug)")
    return state


# ---------------------------------------------------------------------------
# Start of turn and the actions
# ---------------------------------------------------------------------------


def move_arrow_stones(state: StmState, action: MoveArrowStones) -> StmState:
    """STM-R-19: each arrow stone increases by 1 in the chosen order; a blocked one does not move."""
    players = state.players
    if action.order:
        gauge = g.bumped(me(state).gauge, action.order)
        players = players_with(state, _player_copy(me(state), gauge=gauge))
    state = _state_copy(state, players=players, phase=ACTION)
    return with_turn(state, final_step="steam") if state.final_round else state


def final_step_done(ctx: Context, state: StmState) -> StmState:
    """STM-R-66: the final turn moves on to its next action; after FLY the turn ends."""
    step = state.turn.final_step
    if step == "steam":
        return with_turn(_state_copy(state, phase=ACTION), final_step="target")
    if step == "target":
        return with_turn(_state_copy(state, phase=ACTION), final_step="fly")
    return end_of_turn(ctx, state)


def time_pressure(ctx: Context, state: StmState) -> StmState:
    """STM-R-69: in solo, choosing MAKE STEAM or FLY costs 1 VP at once (STM-R-73: the final turn's
    MAKE STEAM and FLY together cost 1); at the losing line (STM-AMB-28) the game is lost at once,
    before the action is carried out."""
    if state.solo is None or state.turn.time_paid:
        return state
    state = with_turn(score(state, -1), time_paid=True)
    if solo_lost(ctx, state):
        return evolve(discard_held(state), phase=OVER, turn=TurnState())
    return state


def make_steam(ctx: Context, state: StmState, action: MakeSteam) -> StmState:
    """STM-R-25: increase the pressure by 2 + the machines' boilers (STM-R-15); the turn ends."""
    state = time_pressure(ctx, state)
    if state.phase is OVER:
        return state
    result = g.increase(me(state).gauge, ctx.boilers(me(state)), action.picks, ctx.extra())
    state = with_gauge(state, result.gauge)
    return final_step_done(ctx, state) if state.turn.final_step else end_of_turn(ctx, state)


def _put_on_board(state: StmState, level: int, position: DistrictPosition, stone: Stone, **changes: Any) -> StmState:
    """The stone goes onto the district (with ``changes`` to the state made in the same copy)."""
    return _state_copy(state, board=(*state.board, BoardStone(state.to_move, level, position, stone)), **changes)


def set_target(ctx: Context, state: StmState, action: SetTarget) -> StmState:
    """STM-R-26/27/31: the stone leaves the gauge for the district; no district effect now."""
    if state.solo is not None:
        pass  # STM-R-69: in the solo game SET 1 TARGET is free, no time pressure (MAKE STEAM and FLY pay)
    gauge, stone = g.lift(me(state).gauge, action.space)
    players = players_with(state, _player_copy(me(state), gauge=gauge))
    state = _put_on_board(state, action.level, action.position, stone, players=players)
    state = store_held(state)  # STM-R-31 (p.14, p.29): the store step after the placement
    if state.turn.final_step:
        return final_step_done(ctx, state)
    # STM-R-31: no district effect now; store, then the turn ends.
    return _state_copy(state, phase=END_OF_TURN)  # store (settle) and end of turn


def channel(ctx: Context, state: StmState, action: ChannelPressure) -> StmState:
    """STM-R-29: down the pipe into position m(v-1); the machine there is activated (STM-R-30)."""
    entry = ctx.entry(ctx.layout.value(action.space))
    assert entry is not None
    gauge, stone = g.lift(me(state).gauge, action.space, "STM-R-29")
    state = evolve(with_gauge(state, gauge), phase=CHANNEL)
    state = with_turn(state, channel=entry, channel_stone=stone)
    state, block = triggered(ctx, state, entry, "activation", activation(ctx, state, entry))
    return queue(state, *block)


def move_left(ctx: Context, state: StmState) -> StmState:
    """STM-R-29: one position left, the value drops by 1, the machine there is activated."""
    assert state.turn.channel is not None
    position = state.turn.channel - 1
    state = with_turn(state, channel=position)
    state, block = triggered(ctx, state, position, "activation", activation(ctx, state, position))
    return queue(state, *block)


def place_stone(ctx: Context, state: StmState, action: PlaceStone) -> StmState:
    """STM-R-29/31: the channelled stone is placed; then store and the turn ends (with the end-of-turn
    effects of districts a machine reached through 'use another district', STM-R-49/61)."""
    stone = state.turn.channel_stone
    assert stone is not None
    state = with_turn(_put_on_board(state, action.level, action.position, stone), channel=None, channel_stone=None)
    state = store_held(state)  # STM-R-31 (p.14, p.29): the store step after the placement
    if state.turn.final_step:
        return final_step_done(ctx, state)
    # STM-R-31: no district effect now; store, then the turn ends.
    return end_of_turn(ctx, state)


def fly(ctx: Context, state: StmState) -> StmState:
    """STM-R-33: record S0, the districts holding your stones as the flight starts; solo: time
    pressure (STM-R-69), then the shadow stones (STM-R-70)."""
    state = time_pressure(ctx, state)
    if state.phase is OVER:
        return state
    start = tuple((s.level, s.position) for s in state.board if s.seat == state.to_move)
    if state.solo is not None:
        state = place_shadow_stones(state)
    return _state_copy(state, phase=FLIGHT, turn=_turn_copy(state.turn, flight_start=start, step="next"))


def place_shadow_stones(state: StmState) -> StmState:
    """STM-R-70, the first step of a solo FLY: all shadow stones leave the board, then one goes on
    every district holding one of your stones; they block as usual until your next FLY."""
    own = tuple(s for s in state.board if s.seat == state.to_move)
    shadows = tuple(BoardStone(SHADOW, s.level, s.position) for s in own)
    return _state_copy(state, board=(*(s for s in state.board if s.seat != SHADOW), *shadows))


# ---------------------------------------------------------------------------
# The flight
# ---------------------------------------------------------------------------


def take_back(ctx: Context, state: StmState, action: TakeBack) -> StmState:
    """STM-R-34 (with R-18): the stone returns to the gauge, face unchanged; then the compulsory
    drop-offs (STM-R-37) and the take-back passives (STM-R-60, STM-EX-30)."""
    where = (action.level, action.position)
    stone = next(s for s in state.board if s.seat == state.to_move and (s.level, s.position) == where)
    placed = g.take_back(me(state).gauge, stone.stone, action.discard)
    turn = _turn_copy(state.turn, active=where, active_space=placed.space, step="passengers")
    players = players_with(state, _player_copy(me(state), gauge=placed.gauge))
    state = _state_copy(state, board=tuple(s for s in state.board if s is not stone), turn=turn, players=players)
    if placed.space is None:
        state = to_supply(state, stone.stone, ctx)
    state = drop_off(ctx, state, action.level)
    state, block = fire(ctx, state, "take-back", action.level)
    return queue(state, *block)


def drop_off(ctx: Context, state: StmState, level: int) -> StmState:
    """STM-R-37: a carried passenger whose destination is the active level gets off; the first
    drop-off of the turn takes the face-up passenger tile (no new tile yet)."""
    for who in me(state).carrying:
        if carried_destination(ctx, state, who) != level:
            continue
        p = me(state)
        state = with_player(state, _player_copy(p, carrying=tuple(x for x in p.carrying if x != who)))
        pax = state.passengers
        pax = stand(pax, who, level)
        if pax.taken is None and pax.face_up is not None:
            pax = evolve(pax, taken=pax.face_up, face_up=None)
        state = _state_copy(state, passengers=pax)
        state = with_turn(
            state,
            transported=(*state.turn.transported, who),
            boarded=tuple(b for b in state.turn.boarded if b[0] != who),
        )
    return state


def stand(pax: Passengers, who: Passenger, level: int | None) -> Passengers:
    """Where a passenger stands (None: aboard)."""
    return evolve(pax, banker=level) if who == "banker" else evolve(pax, stoker=level)


def pick_up(ctx: Context, state: StmState, who: Passenger) -> StmState:
    """STM-R-36 / STM-AMB-09 'pick-up': on board, his destination fixed now."""
    dest = destination(ctx, state, who)
    p = me(state)
    state = with_player(state, _player_copy(p, carrying=(*p.carrying, who)))
    state = _state_copy(state, passengers=stand(state.passengers, who, None))
    return with_turn(state, boarded=(*state.turn.boarded, (who, dest)))


def use_district(ctx: Context, state: StmState) -> StmState:
    """STM-R-38: the district effect; a static discharge turns the stone's arrow away (STM-R-19);
    'end of turn' effects wait (STM-R-49)."""
    assert state.turn.active is not None
    level, position = state.turn.active
    district = ctx.district(state, level, position)
    activated = (*state.turn.activated, (level, position))
    if district.static_discharge:
        state = discharge(state)
    if district.end_of_turn:
        end_of_turn = (*state.turn.end_of_turn, (level, position))
        return with_turn(state, activated=activated, step="after", end_of_turn=end_of_turn)
    return queue(state, district.effect, activated=activated, step="after")


def discharge(state: StmState) -> StmState:
    """STM-R-19: the stone just taken back turns arrow side down (in the supply if it went there; an
    effect that moved it on the gauge before a district reached through 'use another district'
    leaves nothing to turn: the stone is no longer known)."""
    space = state.turn.active_space
    if space is not None:
        if space not in me(state).gauge.stone_spaces():
            return state
        return with_gauge(state, g.turn_stone(me(state).gauge, space, False))
    p = me(state)
    return with_player(state, _player_copy(p, supply=(*p.supply[:-1], Stone(False))))


def buy_machine(ctx: Context, state: StmState, action: BuyMachine) -> StmState:
    """STM-R-40..42, R-45: pay row 3 (and the tile), give up a tile from rank 1, gain row 1's VP,
    build in; the 'buy' passives fire; from rank 2 the others are envious (STM-R-53)."""
    market = _market(state, action)
    tile, slot, price = tile_price(ctx, market)
    state = pay(ctx, state, price.crystals, price.gears, action.sponsor, action.gala, action.sponsor2)
    for removed in (action.remove, *action.more) if action.remove is not None else ():
        state = remove_tile(state, removed)
    state = score(build(state, action.position, room_tile("machine", tile.id)), slot.machine_vp)
    state = after_purchase(ctx, state, market.level, action.extra)
    return purchased(ctx, state, action.level, slot.machine_envy)


def buy_banner(ctx: Context, state: StmState, action: BuyBanner) -> StmState:
    """STM-R-40, R-43/44, R-45: pay row 3 and a stone, hang the banner, score its colour; from rank 2
    the others are envious (STM-R-53)."""
    market = _market(state, action)
    tile, slot, price = tile_price(ctx, market)
    state = pay(ctx, state, price.crystals, price.gears, action.sponsor, action.gala, action.sponsor2)
    # the stone(s) from the gauge (STM-AMB-25 'cumulative': the further ones in ``more``)
    for space in (action.stone, *action.more) if action.stone is not None else action.more:
        gauge, stone = g.lift(me(state).gauge, space, "STM-R-43")
        state = to_supply(with_gauge(state, gauge), stone, ctx)
    if action.board is not None:  # STM-AMB-11 'board': an own stone leaves its district
        seat = decider(state)
        mine = next(s for s in state.board if s.seat == seat and (s.level, s.position) == action.board)
        state = to_supply(_state_copy(state, board=tuple(s for s in state.board if s != mine)), mine.stone, ctx)
    p = me(state)
    state = with_player(state, _player_copy(p, banners=(*p.banners, tile.id)))
    state = score(state, banner_vp(ctx, me(state), tile.banner))
    state = after_purchase(ctx, state, market.level, action.extra)
    return purchased(ctx, state, action.level, slot.banner_envy)


def _market(state: StmState, action: BuyMachine | BuyBanner) -> Market:
    """The market bought from: the active level's (flight step 3) or the named one ('buy tile', STM-R-61)."""
    if action.level is not None:
        level = action.level
    else:
        assert state.turn.active is not None
        level = state.turn.active[0]
    market = market_at(state, level, action.extra)
    assert market is not None
    return market


def purchased(ctx: Context, state: StmState, level: int | None, envious: int) -> StmState:
    """After a purchase: the 'buy' passives (STM-R-60), then the envious (STM-R-53) once the tile is
    built in, once per visible envy symbol (STM-AMB-25 'cumulative': they add up).  In a flight step
    the stone's step 3 is done; under 'buy tile' the effect goes on."""
    state, now = fire(ctx, state, "buy")
    later = envy(ctx, state) * envious if envious else ()
    if level is None:
        return queue(with_turn(state, step="after"), *now, *later)
    return resume(state, now, later)


def pay(
    ctx: Context, state: StmState, crystals: int, gears: int, sponsor: bool, gala: bool, sponsor2: bool = False
) -> StmState:
    """Pay a resource cost, with the sponsor's discount (then it turns over, once per turn: STM-R-57;
    ``sponsor2``: character 5's second one, STM-AMB-34 'two') and the charity gala's (it returns to
    the supply: STM-R-58)."""
    net = discounted(ctx, me(state), crystals, gears, sponsor, gala, sponsor2)
    assert not isinstance(net, Rejection), net
    p = me(state)
    if sponsor:
        assert p.sponsor is not None
        p = _player_copy(p, sponsor=other_side(p.sponsor), sponsor_used=True)
    if sponsor2:
        assert p.sponsor2 is not None
        p = _player_copy(p, sponsor2=other_side(p.sponsor2), sponsor2_used=True)
    if gala:
        assert p.gala is not None
        galas = list(state.supply.galas)
        galas[RESOURCES.index(p.gala)] += 1
        state = _state_copy(state, supply=evolve(state.supply, galas=(galas[0], galas[1])))
        p = _player_copy(p, gala=None)
    return gain(with_player(state, p), -net[0], -net[1])


def other_side(side: Resource) -> Resource:
    """STM-R-57 (STM-EX-31): a sponsor tile shows a crystal on one side and a gear on the other."""
    return "gear" if side == "crystal" else "crystal"


def banner_vp(ctx: Context, player: PlayerState, colour: str) -> int:
    """STM-R-44: purple counts banners (a purple tile 2, STM-AMB-14), orange machine-room tiles,
    blue passenger tiles."""
    if colour == "purple":
        double = ctx.r("STM-AMB-14") == "double"
        return sum(ctx.pack.machine(b).banners if double else 1 for b in player.banners)
    if colour == "orange":
        return sum(1 for t in player.machine_room if t is not None)
    return player.passenger_tiles


def after_purchase(ctx: Context, state: StmState, level: int, extra: bool) -> StmState:
    """STM-R-45: the next tile turns face up; an emptied market's statue goes to the tower top."""
    markets = []
    emptied = False
    for m in state.markets:
        if m.level == level and m.extra == extra:
            emptied = len(m.tiles) == 1 and m.statue
            m = evolve(m, tiles=m.tiles[1:], statue=m.statue and not emptied)
        markets.append(m)
    state = _state_copy(state, markets=tuple(markets))
    return erect_statue(ctx, state) if emptied else state


def buy_bonus_marker(ctx: Context, state: StmState, action: BuyBonusMarker) -> StmState:
    """STM-R-46/47: pay and score what the row shows, then place the marker on its numeral."""
    bonus = state.bonus
    row = bonus.crystal_row if action.row == "crystal" else bonus.gear_row
    numeral = bought_numeral(ctx, row, action)  # STM-AMB-13
    cost, vp = bonus_slot(ctx, action.row, numeral)
    crystals, gears = (cost, 0) if action.row == "crystal" else (0, cost)
    state = score(pay(ctx, state, crystals, gears, action.sponsor, action.gala, action.sponsor2), vp)
    placed = g.place_bonus_marker(
        me(state).gauge, g.BonusMarker(numeral), action.space, ctx.layout, bump_stone=action.bump
    )
    state = with_gauge(state, placed.gauge)
    rest = tuple(n for i, n in enumerate(row) if i != row.index(numeral))
    if action.row == "crystal":
        bonus = evolve(bonus, crystal_row=rest)
    else:
        bonus = evolve(bonus, gear_row=rest)
    state = _state_copy(state, bonus=bonus)
    if bonus.statue and _twos_gone(bonus, ctx):
        state = erect_statue(ctx, _state_copy(state, bonus=evolve(bonus, statue=False)))
    if numeral == 2:
        state = queue(state, *envy(ctx, state))  # STM-R-46/53: a #2 lures the envious
    return with_turn(state, step="buying")


def _twos_gone(bonus: BonusMarket, ctx: Context) -> bool:
    """STM-AMB-26: the level-1 statue shows when both #2 ('both-2') or the first #2 are gone."""
    gone = (2 not in bonus.crystal_row) + (2 not in bonus.gear_row)
    return gone == 2 or (gone >= 1 and ctx.r("STM-AMB-26") == "first-2")


# ---------------------------------------------------------------------------
# Effect parts (STM-R-22)
# ---------------------------------------------------------------------------


def pop_part(state: StmState) -> StmState:
    """The head part is done: the next part of the same effect, or the next effect."""
    return resume(state)


def choose_side(state: StmState, action: ChooseSide) -> StmState:
    """STM-R-22: one side of an 'either' part replaces it."""
    part = head(state)
    assert isinstance(part, Either)
    first, *rest = state.turn.pending
    chosen = part.second if action.side else part.first
    return with_turn(state, pending=((*chosen, *first[1:]), *rest))


def pay_part(ctx: Context, state: StmState, action: PayCost) -> StmState:
    """STM-R-22: the cost is paid and the effect goes on (an envy cost: the envious act once the effect is done)."""
    part = head(state)
    state = pay_cost(ctx, state, action)
    if isinstance(part, Envy):
        return resume(state, later=envy(ctx, state))  # STM-R-53: once the effect is done
    return pop_part(state)


def pay_cost(ctx: Context, state: StmState, action: PayCost) -> StmState:
    part = head(state)
    if isinstance(part, PayResources):
        return pay(ctx, state, part.crystals, part.gears, action.sponsor, action.gala, action.sponsor2)
    if isinstance(part, PayCrystalsPerStone):
        owned = stones_owned(state, decider(state))
        return pay(ctx, state, owned, 0, action.sponsor, action.gala, action.sponsor2)  # STM-R-63
    if isinstance(part, ReturnStone):
        assert action.stone is not None
        gauge, stone = g.lift(me(state).gauge, action.stone, "STM-R-43")
        return to_supply(with_gauge(state, gauge), stone, ctx)
    assert isinstance(part, Envy)
    return state  # the envious act once the effect is done (pay_part)


def use_plain(ctx: Context, state: StmState) -> tuple[StmState, tuple[Queued, ...]]:
    part = head(state)
    if isinstance(part, VotePoints):
        return score(state, part.n), ()
    if isinstance(part, StoneToEight):
        space = state.turn.active_space
        assert space is not None
        # STM-AMB-22: 'lapse' on an occupied value-8 space; 'bump' sends its occupant off the gauge.
        eight = ctx.layout.space_of_value(8)
        occupant = me(state).gauge.spaces[eight] if eight is not None and eight != space else None
        bump = ctx.r("STM-AMB-22") == "bump"
        gauge, moved = g.stone_to_eight(me(state).gauge, space, ctx.layout, bump=bump)
        if moved:
            state = with_turn(with_gauge(state, gauge), active_space=eight)
            if isinstance(occupant, Stone):
                state = to_supply(state, occupant, ctx)  # a bonus marker there leaves the game
        return state, ()
    if isinstance(part, UseAllActivationEffects):
        # STM-R-62: right to left, as a value-8 stone channelled down to level 1; parasites sleep.
        # STM-AMB-37 'once': an activation that itself holds 'use all' is not used again (else it never ends);
        # 'again': it is, and starts over each time the player uses it (every effect may lapse, STM-R-22).
        positions = range(len(me(state).machine_room), 0, -1)
        programs = tuple(p for pos in positions for p in activation(ctx, state, pos))
        if ctx.r("STM-AMB-37") == "again":
            return state, programs
        return state, tuple(p for p in programs if not any(isinstance(x, UseAllActivationEffects) for x in walk(p)))
    if isinstance(part, TurnSponsor):
        p = me(state)
        assert p.sponsor is not None
        return with_player(state, _player_copy(p, sponsor=other_side(p.sponsor))), ()  # STM-R-57, no discount
    if isinstance(part, ShakeOff):
        return send_home(state, [x for x in state.parasites if x.host == decider(state)]), ()  # STM-R-55
    return state, ()  # look at a machine: hidden information only


# ---------------------------------------------------------------------------
# Parasites and envy (STM-R-52..56, STM-AMB-20/21)
# ---------------------------------------------------------------------------


def parasite_placed(ctx: Context, state: StmState, action: PlaceParasite) -> StmState:
    """STM-R-52/53: a parasite placed (or moved); 'place N' waits for the rest, 'place and activate'
    uses the effect under it at once."""
    part = head(state)
    state = place_parasite(state, action)
    if isinstance(part, PlaceParasites):
        if part.activate:  # 'place or move and immediately activate 1 own parasite'
            if action.host is None or action.position is None:
                return replace_head(state, ActivateParasites(1))  # solo: beside the stack (STM-R-72)
            return resume(state, _programs_at(ctx, state, action.host, action.position, action.symbol))
        if repeats(ctx, state, part):  # STM-AMB-35 'repeat': no bound, the part waits until skipped
            return state
        left = (part.count if part.count is not None else ctx.pack.airship.parasite_spaces) - 1
        if left > 0:
            return replace_head(state, PlaceParasites(left))
    return pop_part(state)


def use_face_up_tile(ctx: Context, state: StmState, action: UseFaceUpTile) -> StmState:
    """STM-R-72 'activate a parasite' in solo: the face-up tile's effect now, before the rest of the
    effect; the parasite stays beside the stack (STM-AMB-38 'stays'; 'returns': it goes back to its
    charging space).  'Activate N / any number' gives one use per parasite beside the stack, at most
    N (STM-AMB-35 'each-once', AMB-40 'per-parasite'; 'one': 'any number' gives one use in total):
    the part waits for the uses left."""
    part = head(state)
    assert isinstance(part, ActivateParasites)
    market = market_at(state, action.level, False)
    assert market is not None and market.tiles
    programs = tile_effects(ctx, market.tiles[0], action.symbol)
    beside = beside_stack(state)
    count = 1 if part.count is None and ctx.r("STM-AMB-40") == "one" else part.count
    left = min(beside if count is None else count, beside) - 1
    if ctx.r("STM-AMB-38") == "returns":
        state = take_back_beside(state)
    first, *rest = state.turn.pending
    remaining: Queued = (*((ActivateParasites(left),) if left > 0 else ()), *first[1:])
    pending = (*programs, *((remaining,) if remaining else ()), *rest)
    return with_turn(state, pending=tuple(pending))


def _programs_at(ctx: Context, state: StmState, host: int, position: int, on: str) -> tuple[Program, ...]:
    return tile_programs(ctx, state.players[host].machine_room[position - 1], on)


def place_parasite(state: StmState, action: PlaceParasite) -> StmState:
    """STM-R-52/53: a parasite from the supply, or a placed one moved; solo beside the stack (R-72)."""
    seat = decider(state)
    parasites = list(state.parasites)
    if action.moved is not None:
        parasites.remove(next(x for x in parasites if x.owner == seat and x.host is not None and at(x) == action.moved))
    else:
        p = me(state)
        state = with_player(state, _player_copy(p, parasites_home=p.parasites_home - 1))
    parasites.append(Parasite(seat, action.host, action.position, action.symbol))
    state = _state_copy(state, parasites=tuple(parasites))
    if state.solo is not None:
        solo = evolve(state.solo, parasites_beside_stack=state.solo.parasites_beside_stack + 1)
        state = _state_copy(state, solo=solo)
    return state


def let_player(ctx: Context, state: StmState, seat: int) -> StmState:
    """STM-AMB-21 'owner-chooses': ``seat`` takes all its turns at the shared effect now; the
    deciding player then names the next."""
    part = head(state)
    assert isinstance(part, NextSharer)
    rest = tuple(s for s in part.seats if s != seat)
    block: list[Queued] = [(Handover(seat),)]
    for _ in range(part.seats.count(seat)):
        block += part.programs
    block.append((Handover(decider(state)),))
    return resume(state, (*block, *sharing(ctx, state, rest, part.programs)))


# ---------------------------------------------------------------------------
# Sponsor, gala, the pink marker, 'use another district' (STM-R-57, R-58, R-04, R-61)
# ---------------------------------------------------------------------------


def take_sponsor(state: StmState, action: TakeSponsor) -> StmState:
    """STM-R-57: a sponsor tile from the supply, the chosen side up (STM-AMB-34 'two': as character 5's
    second sponsor when the first is owned)."""
    p = me(state)
    taken = _player_copy(p, sponsor=action.side) if p.sponsor is None else _player_copy(p, sponsor2=action.side)
    state = with_player(state, taken)
    return pop_part(_state_copy(state, supply=evolve(state.supply, sponsors=state.supply.sponsors - 1)))


def take_gala(state: StmState, action: TakeGala) -> StmState:
    """STM-R-58: a charity gala of the chosen resource from the supply."""
    galas = list(state.supply.galas)
    galas[RESOURCES.index(action.resource)] -= 1
    state = with_player(state, _player_copy(me(state), gala=action.resource))
    return pop_part(_state_copy(state, supply=evolve(state.supply, galas=(galas[0], galas[1]))))


def place_pink_marker(ctx: Context, state: StmState, action: PlacePinkMarker) -> StmState:
    """STM-R-04: the pink bonus marker onto the gauge."""
    marker = g.BonusMarker(ctx.pack.pink_numeral, pink=True)
    placed = g.place_bonus_marker(me(state).gauge, marker, action.space, ctx.layout, bump_stone=action.bump)
    return pop_part(with_gauge(state, placed.gauge))


def use_other_district(ctx: Context, state: StmState, action: UseOtherDistrict) -> StmState:
    """STM-R-61 'use another district': its effect now; the district counts as activated (STM-AMB-23).
    STM-AMB-33 'current': parts naming the stone taken back (static discharge, stone to 8) apply to
    the stone of the current flight step; 'lapse': they lapse."""
    where = (action.level, action.position)
    district = ctx.district(state, *where)
    lapse = ctx.r("STM-AMB-33") == "lapse"
    effect = _stoneless(district.effect) if lapse else district.effect
    if state.turn.decider is not None:  # another player's effect: no flight step of theirs, at once
        used = (*state.turn.others_activated, (decider(state), *where))
        return resume(with_turn(state, others_activated=used), (effect,))
    state = with_turn(state, activated=(*state.turn.activated, where))
    if district.static_discharge and not lapse and state.turn.active is not None:
        state = discharge(state)
    if district.end_of_turn:
        return pop_part(with_turn(state, end_of_turn=(*state.turn.end_of_turn, where)))
    return resume(state, (effect,))


def _stoneless(program: Program) -> Program:
    """STM-AMB-33 'lapse': the program without its 'stone to 8' parts."""
    out: list[Part] = []
    for part in program:
        if isinstance(part, Either):
            out.append(Either(_stoneless(part.first), _stoneless(part.second)))
        elif not isinstance(part, StoneToEight):
            out.append(part)
    return tuple(out)


def move_base_marker(ctx: Context, state: StmState, action: MoveBaseMarker) -> StmState:
    """STM-R-17: the base marker moves one space right (STM-AMB-05: a stone in the way bumped, or to the supply)."""
    moved = g.advance_base_marker(me(state).gauge, ctx.layout, bump_stone=action.bump)
    state = with_gauge(state, moved.gauge)
    return to_supply(state, moved.to_supply, ctx) if moved.to_supply else state


def _n(state: StmState) -> int:
    """The N of the head part: 'increase the pressure by N' or 'one stone by up to N'."""
    part = head(state)
    if isinstance(part, IncreaseOneStone):
        return part.up_to
    assert isinstance(part, IncreasePressure)
    return part.n


def gain_stone(ctx: Context, state: StmState, action: GainStone) -> StmState:
    """STM-R-20: a stone from the personal supply, placed as if taken back (STM-R-18)."""
    p = me(state)
    supply = list(p.supply)
    supply.remove(Stone(action.arrow))
    state = with_player(state, _player_copy(p, supply=tuple(supply)))
    placed = g.gain_stone(me(state).gauge, Stone(action.arrow), action.discard)
    state = with_gauge(state, placed.gauge)
    return to_supply(state, Stone(action.arrow), ctx) if placed.space is None else state


def turn_arrows(state: StmState, action: TurnArrows) -> StmState:
    """STM-R-19: the chosen stones turn arrow side up."""
    gauge = me(state).gauge
    for space in action.spaces:
        gauge = g.turn_stone(gauge, space, True)
    board = tuple(
        evolve(s, stone=Stone(True))
        if s.seat == state.to_move and (s.level, s.position) in action.districts
        else s
        for s in state.board
    )
    return evolve(with_gauge(state, gauge), board=board)


def build_capacity(state: StmState, action: BuildCapacity) -> StmState:
    """STM-R-59: a capacity tile into the chosen position; a tile there is removed."""
    if me(state).machine_room[action.position - 1] is not None:
        state = remove_tile(state, action.position)
    state = _state_copy(state, supply=evolve(state.supply, capacity_tiles=state.supply.capacity_tiles - 1))
    return build(state, action.position, RoomTile("capacity", "capacity", action.side))


def take_resources(ctx: Context, state: StmState, action: TakeResources) -> StmState:
    """STM-R-32 / STM-AMB-19: resources from the general supply.  'at-once': into the player's
    possession (a store step follows when they exceed the storage spaces).  'next-step': gained outside
    the named store steps - anywhere but in the active player's own SET 1 TARGET channelling (p.14) and
    flight (p.23) - they are held apart, unspent, until the player's next store step (:func:`store_held`)."""
    if ctx.r("STM-AMB-19") == "next-step" and not (
        decider(state) == state.to_move and state.phase in (CHANNEL, FLIGHT)
    ):
        p = me(state)
        state = with_player(state, _player_copy(p, held=(p.held[0] + action.crystals, p.held[1] + action.gears)))
        s = state.supply
        return _state_copy(state, supply=evolve(s, crystals=s.crystals - action.crystals, gears=s.gears - action.gears))
    return gain(state, action.crystals, action.gears)


def store_held(state: StmState) -> StmState:
    """STM-AMB-19 'next-step': at a named store step (after the placement of SET 1 TARGET, p.14/p.29;
    step 4 of a flight, p.23) the held resources join the player's possession, to be stored or returned
    with the rest (STM-R-32).  Nothing is held under 'at-once'."""
    p = me(state)
    if not any(p.held):
        return state  # nothing held (always so under 'at-once'): no copy
    return with_player(state, _player_copy(p, crystals=p.crystals + p.held[0], gears=p.gears + p.held[1], held=(0, 0)))


def discard_held(state: StmState) -> StmState:
    """STM-AMB-19 'next-step': the game is over and no store step comes; the rulebook is silent, and what
    is still held returns to the general supply (resources score nothing and break no tie, p.25)."""
    crystals = sum(p.held[0] for p in state.players)
    gears = sum(p.held[1] for p in state.players)
    s = evolve(state.supply, crystals=state.supply.crystals + crystals, gears=state.supply.gears + gears)
    return _state_copy(state, players=tuple(_player_copy(p, held=(0, 0)) for p in state.players), supply=s)


def store(state: StmState, action: Store) -> StmState:
    """STM-R-32: keep what fits, the rest returns to the general supply."""
    p = me(state)
    state = gain(state, action.crystals - p.crystals, action.gears - p.gears)
    return with_turn(state, storing=False)


# ---------------------------------------------------------------------------
# End of the turn (STM-R-49..51)
# ---------------------------------------------------------------------------


def end_of_turn(ctx: Context, state: StmState) -> StmState:
    """STM-R-49 / STM-AMB-16 'fixed': passenger rewards, a new passenger tile, then end-of-turn effects
    (then, solo, remove tiles: :func:`settle`).  'free': the steps wait; :func:`settle` runs the only one
    left, or the player picks the next (:func:`end_step`)."""
    turn = _turn_copy(state.turn, step="next", active=None, active_space=None, channel=None, channel_stone=None)
    state = _state_copy(state, phase=END_OF_TURN, turn=turn)
    if ctx.r("STM-AMB-16") == "free":
        return state
    if state.turn.transported:
        state = passenger_rewards(ctx, state)
    state = queue(state, *end_of_turn_effects(ctx, state))
    # STM-R-51 (p.24, p.37): the next tile turns face up now, before the end-of-turn effects: a chance step.
    return _state_copy(state, phase=REVEAL) if reveal_due(state) else state


def passenger_rewards(ctx: Context, state: StmState) -> StmState:
    """STM-R-50/51: per transported passenger, the tile's reward plus every 'transported passenger'
    effect; then the taken tile goes face down beside the airship."""
    tile = passenger_tile(ctx, state)
    for who in state.turn.transported:
        reward = tile.banker_reward if who == "banker" else tile.stoker_reward
        state, block = fire(ctx, state, "passenger")
        state = queue(state, reward, *block)
    return next_passenger_tile(state)


def end_of_turn_effects(ctx: Context, state: StmState) -> tuple[Program, ...]:
    """STM-R-49/60: the effects of the districts that wait for the end of the turn."""
    return tuple(ctx.district(state, level, pos).effect for level, pos in state.turn.end_of_turn)


def end_step(ctx: Context, state: StmState, step: EndStep) -> StmState:
    """STM-AMB-16 'free' (p.24, p.35, p.37): one step of the end of the turn, struck off once run: the
    passenger rewards and the new passenger tile (the next one turns face up, a chance step), the
    end-of-turn effects, or the solo REMOVE TILES.  Remove tiles run before the passenger step reads the
    tile taken at this turn's drop-off (still the tile in force, STM-R-37: its printed destinations) and
    boxes no passenger tile, as none lies face up on the stack (STM-AMB-31)."""
    if step == "passengers":
        state = with_turn(passenger_rewards(ctx, state), transported=())
        return _state_copy(state, phase=REVEAL) if reveal_due(state) else state
    if step == "end-of-turn effects":
        return with_turn(queue(state, *end_of_turn_effects(ctx, state)), end_of_turn=())
    return remove_tiles(ctx, state)


def next_passenger_tile(state: StmState) -> StmState:
    """STM-R-51 / STM-AMB-27: the taken tile goes face down beside the airship; the next tile of
    the stack turns face up after the turn (a chance step, see :func:`end_turn`); none left: the
    stack is used up and the end is triggered (STM-R-64)."""
    pax: Passengers = state.passengers
    if pax.taken is not None:
        p = me(state)
        state = with_player(state, _player_copy(p, passenger_tiles=p.passenger_tiles + 1))
    if pax.face_up is None and not pax.stack:
        state = _state_copy(state, end_triggered=True)
    return _state_copy(state, passengers=evolve(pax, taken=None))


def reveal_due(state: StmState) -> bool:
    """STM-R-51: a tile was taken this turn and the stack still holds a face-down one."""
    return state.passengers.face_up is None and bool(state.passengers.stack)


# ---------------------------------------------------------------------------
# Solo: remove tiles (STM-R-71/72)
# ---------------------------------------------------------------------------


def removal_due(state: StmState) -> bool:
    """STM-R-71: a solo FLY was chosen this turn (S0 recorded) and its last step, 'remove tiles', has
    not started; with STM-AMB-16 'fixed' it follows the passenger rewards, the new passenger tile and
    the end-of-turn effects (the caller has settled every waiting effect and store step)."""
    return (
        state.solo is not None
        and state.phase is END_OF_TURN
        and bool(state.turn.flight_start)
        and state.turn.removal is None
    )


def remove_tiles(ctx: Context, state: StmState) -> StmState:
    """STM-R-71: for each passenger's printed destination on the face-up tile (alternates ignored;
    the board's print when the stack is used up, STM-AMB-31): that level's face-up machine tile goes
    to the box and the next one turns face up (level 1: each row's highest bonus marker); an empty
    market gives nothing.  Costs, effects and envy are ignored.  Then the parasites beside the stack
    may use the removed tiles (STM-R-72), else the passenger tile goes to the box at once.
    STM-AMB-41 'box-first': the passenger tile goes to the box and the next is revealed before the
    parasites' step."""
    removed: list[str] = []
    for level in printed_destinations(ctx, state):
        if level == 1:
            state = remove_bonus_markers(ctx, state)
        else:
            state, gone = remove_market_tile(ctx, state, level)
            removed += gone
    state = with_turn(state, removed=tuple(removed))
    usable = any(tile_effects(ctx, t, sym) for t in removed for sym in SYMBOLS)
    waits = beside_stack(state) and usable
    if ctx.r("STM-AMB-41") == "box-first":  # p.35's order: 'Afterwards return the face-up passenger tile'
        boxed = box_passenger_tile(state)
        return with_turn(boxed, removal="reveal") if waits else boxed
    if waits:
        return with_turn(state, removal="parasites")
    return box_passenger_tile(state)


def parasites_done(ctx: Context, state: StmState) -> StmState:
    """STM-R-72: the parasites' step is over; the passenger tile goes to the box now, unless STM-AMB-41
    'box-first' boxed it before the step."""
    if ctx.r("STM-AMB-41") == "box-first":
        return with_turn(state, removal="done")
    return box_passenger_tile(state)


def remove_market_tile(ctx: Context, state: StmState, level: int) -> tuple[StmState, list[str]]:
    """STM-R-71: the face-up tile of ``level``'s statue market to the box; an emptied market's statue
    goes to the tower top (nobody scores)."""
    markets = list(state.markets)
    for i, m in enumerate(markets):
        if m.level != level or m.extra or not m.tiles:
            continue
        emptied = len(m.tiles) == 1 and m.statue
        markets[i] = evolve(m, tiles=m.tiles[1:], statue=m.statue and not emptied)
        state = _state_copy(state, markets=tuple(markets))
        return (solo_statue(ctx, state) if emptied else state), [m.tiles[0]]
    return state, []


def remove_bonus_markers(ctx: Context, state: StmState) -> StmState:
    """STM-R-71 on level 1: each row's bonus marker with the highest number to the box; when the #2
    markers are gone (STM-AMB-26) the statue goes to the tower top (nobody scores)."""
    bonus = state.bonus
    bonus = evolve(bonus, crystal_row=bonus.crystal_row[1:], gear_row=bonus.gear_row[1:])
    if bonus.statue and _twos_gone(bonus, ctx):
        return solo_statue(ctx, _state_copy(state, bonus=evolve(bonus, statue=False)))
    return _state_copy(state, bonus=bonus)


def solo_statue(ctx: Context, state: StmState) -> StmState:
    """STM-R-71/73: a statue revealed by 'remove tiles' goes to the tower top; nobody scores, and the
    3rd empty market triggers the end (the 3 VP only for buying it out yourself, STM-R-64)."""
    assert state.solo is not None
    tower = state.tower_top + 1
    solo: Solo = evolve(state.solo, removed_markets=state.solo.removed_markets + 1)
    return _state_copy(
        state, tower_top=tower, solo=solo, end_triggered=state.end_triggered or tower >= ctx.params["statues_to_end"]
    )


def use_removed_tile(ctx: Context, state: StmState, action: UseRemovedTile) -> StmState:
    """STM-R-72: one parasite from beside the stack returns to its charging space, and the removed
    tile's activation or passive effect is used (settle boxes the passenger tile once none is left)."""
    return queue(take_back_beside(state), *tile_effects(ctx, action.tile, action.symbol))


def take_back_beside(state: StmState) -> StmState:
    """STM-R-72: one parasite from beside the passenger stack returns to its charging space."""
    before = state.solo
    assert before is not None
    parasites = list(state.parasites)
    parasites.remove(next(x for x in parasites if x.host is None))
    p = me(state)
    state = with_player(state, _player_copy(p, parasites_home=p.parasites_home + 1))
    solo = evolve(before, parasites_beside_stack=before.parasites_beside_stack - 1)
    return _state_copy(state, parasites=tuple(parasites), solo=solo)


def box_passenger_tile(state: StmState) -> StmState:
    """STM-R-71, the end of 'remove tiles': the face-up passenger tile goes to the box and the next one
    is revealed (a chance step; the end of the turn goes on after it).  No tile to reveal: the stack
    is used up and the end is triggered (STM-R-73, STM-AMB-27); none face up: nothing is boxed
    (STM-AMB-31)."""
    state = with_turn(state, removal="done")
    pax = state.passengers
    if pax.face_up is None:
        return state
    state = _state_copy(state, passengers=evolve(pax, face_up=None))
    if pax.stack:
        return _state_copy(state, phase=REVEAL)
    return _state_copy(state, end_triggered=True)


def end_turn(ctx: Context, state: StmState) -> StmState:
    """STM-R-23 (3): the player to the left is up; a new round starts with the start player.
    STM-R-64..66: once the end is triggered, the round is finished, then every player takes one
    final turn from the start player; after the last one the game is over."""
    seat = (state.to_move + 1) % len(state.players)
    new_round = state.round + (1 if seat == state.start_player else 0)
    # STM-R-57: a sponsor gives its discount once per turn, in any player's turn.
    if any(p.sponsor_used or p.sponsor2_used for p in state.players):
        fresh = tuple(_player_copy(p, sponsor_used=False, sponsor2_used=False) for p in state.players)
        state = _state_copy(state, players=fresh)
    final_round = state.final_round
    done = state.final_turns_done
    if final_round:
        done = (*done, state.to_move)
        if len(done) == len(state.players):
            return evolve(discard_held(state), phase=OVER, final_turns_done=done, turn=TurnState())
    # STM-R-65: after the trigger the round is played to its end; the final round starts with the start player.
    elif state.end_triggered and seat == state.start_player:
        final_round = True
    return _state_copy(
        state,
        to_move=seat,
        round=new_round,
        phase=START_OF_TURN,
        turn=NEW_TURN,
        final_round=final_round,
        final_turns_done=done,
    )


__all__ = ["settle", "transition"]
