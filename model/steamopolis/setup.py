"""Steamopolis set-up (STM-R-01..13): the chance deals and each player's machine room.

Every random draw of the set-up is a chance step with exact, uniform odds
over what is left: each seat's character, each seat's starting machine, one
tile of each rank per market (level by level), and the first face-up
passenger tile.  The passenger stack stays an unordered set of face-down
tiles; which one turns up next is a chance step whenever one is due
(STM-R-51), so no hidden order is stored in the state.  The unused tiles and
characters go to the box: they are simply never dealt.
"""

from __future__ import annotations

from fractions import Fraction
from typing import assert_never

import attrs

from rulecraft.core import RulecraftError
from rulecraft.model.steamopolis.actions import (
    BuildStartingRoom,
    DealCharacter,
    DealMarketTile,
    DealStartingMachine,
    RevealPassenger,
    StmAction,
)
from rulecraft.model.steamopolis.components import BoardSide
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import setup_gauge
from rulecraft.model.steamopolis.state import (
    Market,
    Passengers,
    Phase,
    PlayerState,
    RoomTile,
    Solo,
    StmState,
    Supply,
    TurnState,
    new_player,
    room_tile,
)

FIRST_GAME_REDRAW = (5, 11, 15)  # STM-R-07: characters left out of a first game
MARKET_LEVELS = range(2, 9)  # STM-R-03: levels 2-8 hold a machine market
EXTRA_MARKET_LEVELS = (2, 3, 4)  # STM-R-03: the 4-player side's second market
RANKS = (0, 1, 2, 3)
SOLO_START_VP = 4  # STM-R-68


def board_side(players: int) -> BoardSide:
    """STM-R-01: the 4-player side for 4 players (and 5, STM-AMB-24 '1-5': the '4-5' side), the 2/3-player side
    otherwise (solo included)."""
    return "4" if players >= 4 else "2-3"


def new_game(ctx: Context, players: int, *, first_game: bool = False, solo_vp: int = SOLO_START_VP) -> StmState:
    """The state before the first chance deal (STM-R-01..12 are fixed; R-03, R-05, R-07, R-13 draw)."""
    supplies = ctx.pack.supplies
    # STM-R-09: every score marker starts before the first space, at 0 VP (new_player's default).
    seats = tuple(attrs.evolve(new_player(0), gauge=setup_gauge(ctx.layout)) for _ in range(players))
    # STM-R-68: solo, the score marker starts at 4 VP (harder 3 or 2, easier 5: ``solo_vp``).
    if players == 1:
        seats = (attrs.evolve(seats[0], vp=solo_vp),)
    ids = tuple(sorted(p.id for p in ctx.pack.passengers))
    return StmState(
        players=seats,
        board_side=board_side(players),
        passengers=Passengers(stack=ids, face_up=None),
        # STM-R-06: crystals, gears and capacity tiles form the general supply; sponsor and gala tiles lie ready.
        supply=Supply(
            crystals=supplies.crystals,
            gears=supplies.gears,
            capacity_tiles=supplies.capacity_tiles,
            sponsors=len(supplies.sponsors),
            galas=(supplies.galas.count("crystal"), supplies.galas.count("gear")),
        ),
        phase=Phase.DEAL,
        solo=Solo() if players == 1 else None,
        first_game=first_game,
    )


# ---------------------------------------------------------------------------
# What is dealt next
# ---------------------------------------------------------------------------


def market_slots(players: int) -> tuple[tuple[int, bool, int], ...]:
    """Every market slot to fill, in dealing order: (level, extra market, rank)."""
    out = [(level, False, rank) for level in MARKET_LEVELS for rank in RANKS]
    if players >= 4:  # STM-AMB-24 '1-5': the 4-player extra markets at 5 too (the rules give none for 5)
        out += [(level, True, 0) for level in EXTRA_MARKET_LEVELS]
    return tuple(out)


def _dealt_tiles(state: StmState) -> int:
    return sum(len(m.tiles) for m in state.markets)


def next_market_slot(state: StmState) -> tuple[int, bool, int] | None:
    slots = market_slots(len(state.players))
    n = _dealt_tiles(state)
    return slots[n] if n < len(slots) else None


def chance_outcomes(ctx: Context, state: StmState) -> list[tuple[StmAction, Fraction]]:
    """The chance step due now, each outcome with its exact probability (uniform over what is left)."""
    options: list[StmAction] = []
    if state.phase is Phase.REVEAL or (state.phase is Phase.DEAL and _deals_done(state)):
        options = [RevealPassenger(t) for t in sorted(set(state.passengers.stack))]
    elif state.phase is Phase.DEAL:
        if any(p.character == 0 for p in state.players):
            taken = {p.character for p in state.players}
            # STM-R-07: a first game leaves characters 5, 11 and 15 out of the draw.
            skip = set(FIRST_GAME_REDRAW) if state.first_game else set()
            options = [
                DealCharacter(c.number) for c in ctx.pack.characters if c.number not in taken and c.number not in skip
            ]
        elif any(p.starting is None and not any(p.machine_room) for p in state.players):
            taken_s = {p.starting for p in state.players}
            options = [DealStartingMachine(m.id) for m in ctx.pack.starting_machines if m.id not in taken_s]
        else:
            slot = next_market_slot(state)
            assert slot is not None
            used = {t for m in state.markets for t in m.tiles}
            options = [DealMarketTile(m.id) for m in ctx.pack.rank(slot[2]) if m.id not in used]
    if not options:
        return []
    # The stack may hold copies of a tile id (a user's pack); each copy is one way.
    if state.phase is Phase.REVEAL or (state.phase is Phase.DEAL and _deals_done(state)):
        stack = state.passengers.stack
        return [(a, Fraction(stack.count(a.id), len(stack))) for a in options if isinstance(a, RevealPassenger)]
    return [(a, Fraction(1, len(options))) for a in options]


def _deals_done(state: StmState) -> bool:
    return (
        all(p.character for p in state.players)
        and all(p.starting is not None or any(p.machine_room) for p in state.players)
        and next_market_slot(state) is None
    )


def setup_problem(ctx: Context, players: int, first_game: bool) -> str | None:
    """Why the pack cannot set up this many players (None: it can)."""
    skip = set(FIRST_GAME_REDRAW) if first_game else set()
    characters = [c for c in ctx.pack.characters if c.number not in skip]
    if len(characters) < players:
        return f"STM-R-07: the pack has {len(characters)} characters to draw for {players} players"
    if ctx.pack.supplies.colours < players:
        return f"STM-R-08: the pack has pieces in {ctx.pack.supplies.colours} player colours for {players} players"
    if len(ctx.pack.starting_machines) < players:
        return f"STM-R-13: the pack has {len(ctx.pack.starting_machines)} starting machines for {players} players"
    for rank in RANKS:
        need = sum(1 for s in market_slots(players) if s[2] == rank)
        if len(ctx.pack.rank(rank)) < need:
            return f"STM-R-03: {players} players need {need} rank-{rank} tiles; the pack has {len(ctx.pack.rank(rank))}"
    if not ctx.pack.passengers:
        return "STM-R-05: the pack has no passenger tiles"
    return None


# ---------------------------------------------------------------------------
# Effects of the deals
# ---------------------------------------------------------------------------


def _with_seat(state: StmState, seat: int, player: PlayerState) -> StmState:
    return attrs.evolve(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def deal(
    ctx: Context, state: StmState, action: DealCharacter | DealStartingMachine | DealMarketTile | RevealPassenger
) -> StmState:
    """The effect of one chance deal (or reveal), picked by its kind."""
    match action:
        case DealCharacter():
            seat = next(i for i, p in enumerate(state.players) if p.character == 0)
            state = _with_seat(state, seat, attrs.evolve(state.players[seat], character=action.number))
            if all(p.character for p in state.players):
                # STM-R-07: the lowest number starts (and takes the zeppelin).
                first = min(range(len(state.players)), key=lambda i: state.players[i].character)
                state = attrs.evolve(state, start_player=first, to_move=first)
            return state
        case DealStartingMachine():
            seat = next(i for i, p in enumerate(state.players) if p.starting is None)
            return _with_seat(state, seat, attrs.evolve(state.players[seat], starting=action.id))
        case DealMarketTile():
            slot = next_market_slot(state)
            assert slot is not None
            level, extra, rank = slot
            if rank == 0:
                # STM-R-02: a statue lies under every market of levels 2-8; the 4-player extra markets have none.
                market = Market(level, (action.id,), statue=not extra, extra=extra)
                return attrs.evolve(state, markets=(*state.markets, market))
            last = state.markets[-1]
            tiles = (*last.tiles, action.id)
            return attrs.evolve(state, markets=(*state.markets[:-1], attrs.evolve(last, tiles=tiles)))
        case RevealPassenger():
            stack = list(state.passengers.stack)
            stack.remove(action.id)
            pax = attrs.evolve(state.passengers, face_up=action.id, stack=tuple(stack))
            state = attrs.evolve(state, passengers=pax)
            if not stack and ctx.r("STM-AMB-27") == "empty":
                state = attrs.evolve(state, end_triggered=True)  # STM-AMB-27 'empty': no face-down tile is left
            if state.phase is Phase.DEAL:
                return begin_room(ctx, attrs.evolve(state, phase=Phase.SETUP_ROOM, to_move=state.start_player))
            return attrs.evolve(state, phase=Phase.END_OF_TURN)  # STM-R-51: the end of the turn goes on
        case _:
            assert_never(action)


def begin_room(ctx: Context, state: StmState) -> StmState:
    """STM-R-13 for the seat to move: the character effect, top to bottom, waits as an effect."""
    character = ctx.pack.character(state.players[state.to_move].character)
    pending = (character.setup,) if character.setup else ()
    return attrs.evolve(state, turn=TurnState(pending=pending))


def build_room(ctx: Context, state: StmState, action: BuildStartingRoom) -> StmState:
    """STM-R-13: both tiles into the machine room (the store step and the next seat follow, see
    :func:`room_done`)."""
    seat = state.to_move
    p = state.players[seat]
    assert p.starting is not None
    room = list(p.machine_room)
    room[action.machine_position - 1] = room_tile("starting", p.starting, action.machine_side)
    room[action.capacity_position - 1] = RoomTile("capacity", "capacity", action.capacity_side)
    state = _with_seat(state, seat, attrs.evolve(p, machine_room=tuple(room), starting=None))
    return attrs.evolve(state, supply=attrs.evolve(state.supply, capacity_tiles=state.supply.capacity_tiles - 1))


def room_done(ctx: Context, state: StmState) -> StmState:
    """After the store step (STM-R-32): the next seat sets up, or the start player's first turn starts."""
    following = (state.to_move + 1) % len(state.players)
    if following == state.start_player:
        return attrs.evolve(state, to_move=following, phase=Phase.START_OF_TURN, turn=TurnState())
    return begin_room(ctx, attrs.evolve(state, to_move=following))


def first_game_room(state: StmState) -> BuildStartingRoom:
    """STM-R-13 first game: the starting machine back side up on position 1, the capacity tile on 2.
    When a character's set-up has already filled one of them (a capacity tile of its own), the two
    lowest free positions take their place, so the fixed layout never leaves a player stuck."""
    room = state.players[state.to_move].machine_room
    free = [i + 1 for i, t in enumerate(room) if t is None]
    return BuildStartingRoom(free[0], 1, free[1], 0)


def room_choices(state: StmState) -> list[BuildStartingRoom]:
    """STM-R-13: two different free positions, sides free; a first game fixes them (:func:`first_game_room`)."""
    if state.first_game:
        return [first_game_room(state)]
    room = state.players[state.to_move].machine_room
    free = [i + 1 for i, t in enumerate(room) if t is None]
    return [
        BuildStartingRoom(m, ms, c, cs)
        for m in free
        for c in free
        if m != c
        for ms in (0, 1)
        for cs in (0, 1)
    ]


def room_rejection(ctx: Context, state: StmState, action: BuildStartingRoom) -> str | None:
    room = state.players[state.to_move].machine_room
    n = len(room)
    m, c = action.machine_position, action.capacity_position
    if not (1 <= m <= n and 1 <= c <= n) or m == c:
        return f"the starting machine and the capacity tile go on two different positions 1..{n}, not {m} and {c}"
    if room[m - 1] is not None or room[c - 1] is not None:
        return f"positions {m} and {c} must be free"
    if action.machine_side not in (0, 1) or action.capacity_side not in (0, 1):
        return "each tile shows side 0 or side 1"
    if state.first_game and action != first_game_room(state):
        want = first_game_room(state)
        return (
            f"a first game places the starting machine back side up on position {want.machine_position}"
            f" and the capacity tile on {want.capacity_position}"
        )
    if state.supply.capacity_tiles < 1:
        return "no capacity tile is left in the general supply (STM-R-21)"
    return None


def check_players(players: int) -> None:
    if not 1 <= players <= 4:
        raise RulecraftError(f"STM-R-01 (p.4) — Steamopolis is for 1 to 4 players; {players} requested")
