"""Steamopolis state: frozen, hashable classes whose reprs are valid Python.

A state holds only the dynamic parts; the component pack (districts, tiles,
characters, passenger tiles) is data the game instance interprets, and the
state names tiles by their pack ids.  Machine-room positions 1..7 are the
tuple indices 0..6.  ``SHADOW`` is the seat number of the solo game's shadow
stones (STM-R-70).
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from typing import Literal

import attrs

from rulecraft.model.steamopolis.components import BoardSide, DistrictPosition, Pack, Resource
from rulecraft.model.steamopolis.effects import (
    ActivateParasites,
    AdvanceBaseMarker,
    BuyTile,
    Either,
    Envy,
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
    Queued,
    ReturnStone,
    ShakeOff,
    StoneToEight,
    TurnSponsor,
    TurnStones,
    UseAllActivationEffects,
    UseAnotherDistrict,
    VotePoints,
)
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, GaugeLayout, Stone, gauge_problems, setup_gauge

SHADOW = -1  # the solo shadow's seat (STM-R-68/70)
Passenger = Literal["banker", "stoker"]
# "next": choose the next stone; "passengers": step 2 (and the step-3 choice); "buying": more bonus
# markers may follow (STM-R-46); "after": step 3 chosen, its effects resolve, then store (STM-R-39).
FlightStep = Literal["next", "passengers", "buying", "after"]
# STM-R-66: the final turn's actions, in their fixed order.
FinalStep = Literal["steam", "target", "fly"]
# STM-R-71/72: solo 'remove tiles' at the end of FLY: "parasites": the tiles are boxed and parasites
# beside the stack may be taken back to use their effects; "done": the passenger tile is boxed too.
# "reveal" (STM-AMB-41 'box-first'): the passenger tile is boxed first; the parasites wait on the reveal.
RemovalStep = Literal["reveal", "parasites", "done"]


class Phase(str, Enum):
    DEAL = "deal"  # chance: characters, starting machines, market tiles (STM-R-03, R-07, R-13)
    SETUP_ROOM = "setup-room"  # each player: character effect, then the machine room (STM-R-13)
    REVEAL = "reveal"  # chance: the next passenger tile turns face up (STM-R-05, R-51)
    START_OF_TURN = "start-of-turn"  # arrow stones move (STM-R-19)
    ACTION = "action"  # choose MAKE STEAM, SET 1 TARGET or FLY (STM-R-23)
    CHANNEL = "channel"  # a SET stone in the machine room (STM-R-29)
    FLIGHT = "flight"  # the flight loop (STM-R-33..39)
    END_OF_TURN = "end-of-turn"  # passengers, end-of-turn effects, solo remove tiles (STM-R-49)
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


# The phases under plain module names, for the hot paths: reading a member off the Enum class costs about
# 0.2 µs under Python 3.11 (the metaclass's attribute lookup) against a few hundredths for a module name,
# and a random game's step compares its phase a dozen times (issue 18).
DEAL = Phase.DEAL
SETUP_ROOM = Phase.SETUP_ROOM
REVEAL = Phase.REVEAL
START_OF_TURN = Phase.START_OF_TURN
ACTION = Phase.ACTION
CHANNEL = Phase.CHANNEL
FLIGHT = Phase.FLIGHT
END_OF_TURN = Phase.END_OF_TURN
OVER = Phase.OVER


@attrs.frozen(cache_hash=True)
class RoomTile:
    """A tile in a machine-room position: a bought machine, the starting machine or a capacity tile.

    The hash is cached: machine rooms key the context's memoised faces, asked after nearly every step."""

    kind: Literal["machine", "starting", "capacity"]
    id: str  # pack id ("M2-04", "S1"; "capacity" for capacity tiles)
    side: int = 0  # the visible side of a starting machine or capacity tile (0 or 1)


# One shared instance per (kind, id, side) for the tiles the rules build in: the context memoises a
# machine's face per tile, and a lookup by an equal tile built in an earlier game compares it field by
# field, where the shared one is found by identity.
room_tile = lru_cache(maxsize=4096)(RoomTile)


@attrs.frozen
class Parasite:
    """A placed parasite (STM-R-52): on ``host``'s machine in ``position`` (1..7), on its activation or
    passive symbol.  Solo: ``host`` None, beside the passenger stack (STM-R-72)."""

    owner: int
    host: int | None = None
    position: int | None = None
    on: Literal["activation", "passive"] = "activation"


@attrs.frozen
class BoardStone:
    """A pressure stone on a district: ``seat`` SHADOW for a solo shadow stone."""

    seat: int
    level: int
    position: DistrictPosition
    stone: Stone = attrs.field(factory=Stone)


# slots=False (also TurnState, StmState): the three classes a step copies, each copied by its fields' dict
# (rulecraft.evolve), 2.5% fewer instructions per uniform step than slot by slot (issue 18).
@attrs.frozen(slots=False)
class PlayerState:
    character: int  # 0: not dealt yet (STM-R-07)
    gauge: Gauge
    supply: tuple[Stone, ...] = (Stone(), Stone())  # STM-R-11: 2 stones beside the airship, faces kept (AMB-10)
    machine_room: tuple[RoomTile | None, ...] = (None,) * 7
    banners: tuple[str, ...] = ()  # machine tile ids hung banner side up (STM-R-43)
    crystals: int = 0
    gears: int = 0
    vp: int = 0
    passenger_tiles: int = 0  # face down beside the airship (STM-R-51)
    carrying: tuple[Passenger, ...] = ()  # on the 2 passenger spaces (STM-R-36)
    parasites_home: int = 3  # on the charging spaces (STM-R-12)
    sponsor: Resource | None = None  # the side up (STM-R-57)
    sponsor_used: bool = False  # this turn
    gala: Resource | None = None  # STM-R-58
    starting: str | None = None  # the starting machine drawn, until it is built in (STM-R-13)
    # STM-AMB-19 'next-step': (crystals, gears) gained outside the named store steps and not stored
    # yet; they join the player's next store step.  Always (0, 0) under the default 'at-once'.
    held: tuple[int, int] = (0, 0)
    # STM-AMB-34 'two': character 5's second sponsor (side up, used this turn); only after the first.
    sponsor2: Resource | None = None
    sponsor2_used: bool = False


@attrs.frozen
class Market:
    """A machine market (STM-R-03): tile ids left to right, the first face up; ``statue``: still under it."""

    level: int
    tiles: tuple[str, ...]
    statue: bool = True
    extra: bool = False  # a 4-player extra market on levels 2-4 (no statue)


@attrs.frozen
class BonusMarket:
    """The level-1 market (STM-R-04): the numerals left in each row, foremost (highest) first."""

    crystal_row: tuple[int, ...] = (5, 4, 3, 2)
    gear_row: tuple[int, ...] = (5, 4, 3, 2)
    statue: bool = True  # revealed when both #2 are gone (STM-AMB-26)


@attrs.frozen
class Passengers:
    """STM-R-05/R-35/R-51: where the banker and stoker stand (None: aboard), the passenger stack."""

    banker: int | None = 6
    stoker: int | None = 4
    stack: tuple[str, ...] = ()  # face-down tile ids, top first
    face_up: str | None = None  # the face-up tile on the stack (None: used up, board destinations apply)
    taken: str | None = None  # the tile taken at this turn's first drop-off (STM-R-37)


@attrs.frozen(slots=False)
class TurnState:
    """Bookkeeping of the current turn (STM-R-33, R-36, R-61 'use another district')."""

    flight_start: tuple[tuple[int, DistrictPosition], ...] = ()  # S0: districts with own stones at the start
    activated: tuple[tuple[int, DistrictPosition], ...] = ()
    transported: tuple[Passenger, ...] = ()
    end_of_turn: tuple[tuple[int, DistrictPosition], ...] = ()  # district effects waiting for the end
    # The sub-steps of the actions (rules.py judges them, transitions.py carries them out):
    channel: int | None = None  # machine-room position (= current value) of a channelled stone (STM-R-29)
    channel_stone: Stone | None = None
    step: FlightStep = "next"  # where the flight loop stands (STM-R-33..39)
    active: tuple[int, DistrictPosition] | None = None  # the active district (STM-R-33)
    active_space: int | None = None  # the gauge space of the stone just taken back (None: in the supply)
    boarded: tuple[tuple[Passenger, int], ...] = ()  # carried passengers and their destinations (STM-AMB-09)
    pending: tuple[Queued, ...] = ()  # effect programs still to resolve, the head part first (STM-R-22)
    # Whose decision it is while another player acts in this turn (a parasite's owner, an envious
    # player: STM-R-53/54, STM-AMB-21); None: the player to move.  Set and cleared by Handover steps.
    decider: int | None = None
    # Districts other players reached by 'use another district' this turn: (seat, level, position)
    # (STM-R-61: 'that you have not activated in this turn'; the active player's are in ``activated``).
    others_activated: tuple[tuple[int, int, DistrictPosition], ...] = ()
    storing: bool = False  # a store step waits: more resources than storage spaces (STM-R-32)
    final_step: FinalStep | None = None  # the final turn's next action (STM-R-66); None: a normal turn
    # Solo (STM-R-69, R-73): the time-pressure VP of this turn is paid (the final turn pays once).
    time_paid: bool = False
    # Solo 'remove tiles' (STM-R-71/72): where the step stands, and the machine tiles it boxed.
    removal: RemovalStep | None = None
    removed: tuple[str, ...] = ()


@attrs.frozen
class Supply:
    """The general supply (STM-R-06, R-21: all limited)."""

    crystals: int = 15
    gears: int = 15
    capacity_tiles: int = 20
    sponsors: int = 5
    galas: tuple[int, int] = (4, 4)  # crystal, gear


@attrs.frozen
class Solo:
    """Solo fields (STM-R-68..73)."""

    parasites_beside_stack: int = 0
    removed_markets: int = 0  # markets emptied by 'remove tiles' (their statues stand, nobody scores)


@attrs.frozen(cache_hash=True, slots=False)
class StmState:
    players: tuple[PlayerState, ...]
    board_side: BoardSide = "2-3"
    markets: tuple[Market, ...] = ()
    bonus: BonusMarket = BonusMarket()
    passengers: Passengers = Passengers()
    board: tuple[BoardStone, ...] = ()
    parasites: tuple[Parasite, ...] = ()
    supply: Supply = Supply()
    tower_top: int = 0  # statues erected (STM-R-45)
    start_player: int = 0
    to_move: int = 0
    phase: Phase = Phase.START_OF_TURN
    round: int = 1
    end_triggered: bool = False
    final_round: bool = False  # STM-R-66: every player takes one final turn from the start player
    final_turns_done: tuple[int, ...] = ()
    turn: TurnState = TurnState()
    solo: Solo | None = None
    first_game: bool = False  # STM-R-07/R-13: the first-game set-up (characters redrawn, machine room fixed)


def new_player(character: int) -> PlayerState:
    """A player after STM-R-08..R-12 (before the machine room and character effect of STM-R-13)."""
    return PlayerState(character=character, gauge=setup_gauge())


def stones_owned(state: StmState, seat: int) -> int:
    """Stones on the gauge and the board (STM-R-63: the supply does not count)."""
    return state.players[seat].gauge.stones() + sum(1 for s in state.board if s.seat == seat)


def problems(state: StmState, pack: Pack, layout: GaugeLayout | None = None) -> list[str]:
    """Every violation of the digest's invariants (3.14) that this layer can see, each naming its rule.
    ``layout``: the gauge played (Context.layout, which STM-AMB-03 picks); None: the pack's own."""
    out: list[str] = []
    stones = pack.airship.stones
    for seat, p in enumerate(state.players):
        out += [f"seat {seat}: {msg}" for msg in gauge_problems(p.gauge, layout or pack.gauge, stones)]
        total = stones_owned(state, seat) + len(p.supply)
        if state.phase is not Phase.CHANNEL and total != stones:
            out.append(f"seat {seat}: STM-R-08: {total} pressure stones on gauge, board and supply, expected {stones}")
        placed = sum(1 for x in state.parasites if x.owner == seat)
        if placed + p.parasites_home != pack.airship.parasite_spaces:
            out.append(f"seat {seat}: STM-R-12: {placed} placed + {p.parasites_home} home parasites, expected 3")
        if len(p.carrying) > pack.airship.passenger_spaces:
            out.append(f"seat {seat}: STM-R-36: carries {len(p.carrying)} passengers on 2 spaces")
    crystals = state.supply.crystals + sum(p.crystals + p.held[0] for p in state.players)
    gears = state.supply.gears + sum(p.gears + p.held[1] for p in state.players)
    if (crystals, gears) != (pack.supplies.crystals, pack.supplies.gears):
        out.append(f"STM-R-21: {crystals} crystals and {gears} gears in play, expected 15 and 15")
    if not state.final_round and state.phase is not Phase.OVER:
        seen: set[tuple[int, str]] = set()
        for s in state.board:
            if s.seat == SHADOW:
                continue  # a shadow stone shares its district with your stone until you take it back (STM-R-70)
            if (s.level, s.position) in seen:
                out.append(f"STM-R-27: two stones on L{s.level}-{s.position} outside the final round")
            seen.add((s.level, s.position))
    return out


# The effect classes are re-exported so that a state's repr (its waiting effects included)
# evaluates in this module's namespace.
__all__ = [
    "ACTION",
    "CHANNEL",
    "DEAL",
    "END_OF_TURN",
    "FLIGHT",
    "OVER",
    "REVEAL",
    "SETUP_ROOM",
    "SHADOW",
    "START_OF_TURN",
    "ActivateParasites",
    "AdvanceBaseMarker",
    "BoardStone",
    "BonusMarker",
    "BonusMarket",
    "BuyTile",
    "Either",
    "Envy",
    "EnvyParasite",
    "FinalStep",
    "FlightStep",
    "GainCapacityTile",
    "GainCharityGala",
    "GainPinkMarker",
    "GainPressureStone",
    "GainResources",
    "GainSponsor",
    "Handover",
    "IncreaseOneStone",
    "IncreasePressure",
    "LookAtMachine",
    "Market",
    "NextSharer",
    "Parasite",
    "Passengers",
    "PayCrystalsPerStone",
    "PayResources",
    "Phase",
    "PlaceParasites",
    "PlayerState",
    "RemovalStep",
    "ReturnStone",
    "RoomTile",
    "ShakeOff",
    "Solo",
    "StmState",
    "Stone",
    "StoneToEight",
    "Supply",
    "TurnSponsor",
    "TurnState",
    "TurnStones",
    "UseAllActivationEffects",
    "UseAnotherDistrict",
    "VotePoints",
    "new_player",
    "problems",
    "stones_owned",
]
