"""Kings of Air and Steam state: frozen, hashable, valid-Python reprs.

Per-type goods counts are 5-tuples in the order of ``components.GOODS``
(chemical, machine, food, textile, luxury).  Factories and cities are held
as tuples aligned with the map's fixed order (``GameMap.factories``,
``GameMap.cities``).
"""

from __future__ import annotations

from enum import Enum

import attrs

# Re-exported for the effects: KasState and PlayerState (slots=False) are copied by their fields' dict.
from rulecraft.evolve import evolve as evolve
from rulecraft.model.kings_of_air_and_steam.components import RailLine
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex

Goods = tuple[int, int, int, int, int]
NO_GOODS: Goods = (0, 0, 0, 0, 0)


class Phase(str, Enum):
    REMOVE_TILES = "remove-tiles"  # chance: the Uncertainty variant's 5 unseen tiles (KAS-R-06)
    START_DEPOTS = "start-depots"  # seats place starting depots in reverse order (KAS-R-07)
    NEW_MARKET = "new-market"  # chance: 3 market tiles (KAS-R-15)
    PLANNING = "planning"  # seats commit 4 cards, hidden (KAS-R-19)
    FLIGHT = "flight"  # the seat to move flies its card (KAS-R-26)
    CARGO = "cargo"  # load / unload / swap after a flight (KAS-R-28..31)
    ACTION = "action"  # one of the six actions (KAS-R-32)
    BONUS = "bonus"  # a team or character step beside the action (advanced game)
    DEMAND_DRAW = "demand-draw"  # chance: a demand tile for a fulfilled city (KAS-R-40)
    GAMBLE = "gamble"  # chance: Sebastian King's tokens (KAS-R-78)
    DEMAND_PAIR = "demand-pair"  # chance: Flora Kingston's two blind tiles (KAS-R-74)
    DEMAND_CHOICE = "demand-choice"  # Flora Kingston chooses the demand tile (KAS-R-74)
    UPKEEP = "upkeep"  # storage fee, seat by seat (KAS-R-45)
    SELLOUT = "sellout"  # one good at a time (KAS-R-51)
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


class SlotStatus(str, Enum):
    PLANNED = "planned"  # face down
    EXECUTED = "executed"  # slid under the board: its diamonds count (KAS-R-44)
    RETURNED = "returned"  # lost to the diamond check, back in the deck (KAS-AMB-05)

    def __repr__(self) -> str:
        return f"SlotStatus.{self.name}"


# The members under plain module names, for the hot paths: reading a member off an Enum class costs about
# 0.2 µs under Python 3.11 (EnumType's __getattr__ puts every class attribute read through a Python-level
# hook) against a few hundredths for a module name, and a step compares its phase several times (issue 18).
REMOVE_TILES = Phase.REMOVE_TILES
START_DEPOTS = Phase.START_DEPOTS
NEW_MARKET = Phase.NEW_MARKET
PLANNING = Phase.PLANNING
FLIGHT = Phase.FLIGHT
CARGO = Phase.CARGO
ACTION = Phase.ACTION
BONUS = Phase.BONUS
DEMAND_DRAW = Phase.DEMAND_DRAW
GAMBLE = Phase.GAMBLE
DEMAND_PAIR = Phase.DEMAND_PAIR
DEMAND_CHOICE = Phase.DEMAND_CHOICE
UPKEEP = Phase.UPKEEP
SELLOUT = Phase.SELLOUT
OVER = Phase.OVER
PLANNED = SlotStatus.PLANNED
EXECUTED = SlotStatus.EXECUTED
RETURNED = SlotStatus.RETURNED


@attrs.frozen
class Depot:
    """A depot token on a rail hex (KAS-R-54) with the goods stored there."""

    at: Hex
    owner: int
    goods: Goods = NO_GOODS


@attrs.frozen
class CityState:
    """A city's current demand (KAS-R-39..41).

    ``demand`` is the printed type, then a demand tile's type; ``slots`` is
    5 for the printed demand and 3 for a tile; ``filled`` counts the goods on
    the slots.  ``closed``: a fulfilled tile lies face down (accepts
    nothing).  ``waiting``: fulfilled with an empty demand pile, waiting for
    a tile (KAS-AMB-10 'pending').  Under KAS-AMB-10 'd' (stays-full) such a
    city is not cleared: it keeps its demand and goods (``filled == slots``,
    so it accepts nothing), ``waiting`` stays False, and it queues in
    ``KasState.waiting_cities`` until a tile comes.
    """

    demand: str | None
    slots: int = 5
    filled: int = 0
    tile: bool = False
    closed: bool = False
    waiting: bool = False
    # Goods of another type on the slots: Corey McQueen's swindled goods (KAS-R-79).
    other: tuple[str, ...] = ()


# slots=False like KasState: copied by its fields' dict at every step that changes a player (``evolve``).
@attrs.frozen(slots=False)
class PlayerState:
    money: int
    position: Hex | None = None  # the airship (None before the starting depot)
    airship_level: int = 1  # KAS-AMB-07
    rail_level: int = 1
    hold: Goods = NO_GOODS
    depots_left: int = 10  # KAS-R-02: 10 depot tokens, the starting one included
    plan: tuple[str, ...] = ()  # the 4 planned card ids, slot 1..4 (hidden from others)
    slots: tuple[SlotStatus, ...] = ()
    team: str | None = None  # advanced game
    character: str | None = None
    tokens: int = 0  # ability tokens left (advanced game)
    extra_cards: tuple[str, ...] = ()  # Eli Diamond's cards played face up this round (KAS-R-83)
    # The goods symbols of Sebastian King's gambler tokens used up, in goods order
    # (KAS-AMB-38 'spent'; under 'reuse' his turned tokens go back, so this stays empty).
    spent_tokens: tuple[str, ...] = ()
    # The tolls received from other sellers in the Sellout (KAS-R-51), counted under every reading;
    # under KAS-AMB-30 'simultaneous' they are paid out after all sales, so they fund no toll or bet in it.
    sellout_tolls: int = 0


@attrs.frozen
class CargoStep:
    """What the current load/unload step has done (KAS-R-30, KAS-AMB-21):
    no good is discarded of a type loaded in the same step, and back."""

    loaded: frozenset[str] = frozenset()
    discarded: frozenset[str] = frozenset()
    source: str | None = None  # where this step loaded from ("factory" | "depot"; KAS-AMB-22 'one-source')
    # What follows the step: "flight" -> the action; "course-correction" -> the turn ends;
    # "pre-flight" -> Clint Castle's flight (KAS-R-82); "pre-course-correction" -> his
    # Course Correction step (KAS-AMB-40 'all-moves').
    after: str = "flight"
    # The direction of the Course Correction chosen before Clint's loading step ("pre-course-correction").
    direction: int | None = None


# slots=False: a frozen class with a __dict__ gets an __init__ that fills the dict directly, where a
# slotted one calls object.__setattr__ once per field; a random game builds a state for every
# step of every transition (38 fields), and that was a fifth of its time.
@attrs.frozen(cache_hash=True, slots=False)
class KasState:
    phase: Phase
    players: tuple[PlayerState, ...]
    layout: str
    round: int = 1
    cycle: int = 1
    start_player: int = 0  # the start-player token (base game)
    # Market (KAS-R-05, R-15..17): tiles still in the draw pile per type, the
    # three future-market slots, tiles drawn so far per type (the price index).
    market_pile: Goods = (3, 3, 3, 3, 3)
    market_slots: tuple[str, ...] = ()
    pushes: Goods = NO_GOODS
    # KAS-R-06 (Uncertainty variant): all 20 tiles, 5 removed unseen.
    uncertainty: bool = False
    removed_tiles: Goods = NO_GOODS
    demand_pile: Goods = NO_GOODS  # face-down demand tiles per type (KAS-R-49)
    factories: tuple[int, ...] = ()  # goods on each factory, in GameMap.factories order
    cities: tuple[CityState, ...] = ()  # in GameMap.cities order
    depots: tuple[Depot, ...] = ()  # sorted by hex
    supply: Goods = NO_GOODS  # the general supply per type (KAS-AMB-12)
    # The bank's takings less its payouts since set-up: with the players'
    # money it adds up to the starting money (KAS-R-55; money is conserved).
    bank: int = 0
    # Turn bookkeeping.
    order: tuple[int, ...] = ()  # seats in turn order for the current cycle or sequence
    turn: int = 0  # index into ``order``
    seat: int = 0  # the seat whose decision it is (or who acts in a chance step's context)
    cargo: CargoStep | None = None
    waiting_cities: tuple[str, ...] = ()  # cities filled with an empty demand pile, in order
    demand_for: str | None = None  # the city whose demand tile is being drawn
    resume: Phase | None = None  # the phase a chance interruption returns to
    # The advanced game (KAS-R-57..87): characters and their turn steps.
    advanced: bool = False
    actions_left: int = 1  # the Emperor card gives two actions (KAS-R-61)
    flights_left: int = 1  # the Rose & Thorn card gives two flights (KAS-R-73)
    bonus: str | None = None  # "ship-one" (KAS-R-69), "steal" (KAS-R-85), "extra-action" (KAS-R-67)
    extra_taken: bool = False  # I.S.A.A.C.'s extra action, once per turn (KAS-R-67)
    # The kinds of the actions already taken this turn (KAS-AMB-20 'once', 32 'distinct', 45 'different').
    taken: tuple[str, ...] = ()
    # Sebastian King's bet on a delivery (KAS-R-78): (dollars bet, goods delivered, city).
    gamble: tuple[int, int, str] | None = None
    # Flora Kingston's demand-tile choice (KAS-R-74): who decides, and between which tiles
    # (empty: any tile of the pile, when she filled the city herself).
    decider: int | None = None
    demand_choices: tuple[str, ...] = ()
    flying: str | None = None  # the card Eli Diamond flies as his action (KAS-R-83)
    new_lines: tuple[RailLine, ...] = ()  # rail lines Eva Blane built (KAS-R-71)

    @property
    def player_count(self) -> int:
        return len(self.players)
