"""Steamopolis actions: one small frozen class per kind of move, in the game's words.

A turn is a sequence of small decisions so that legal-move generation can
list every choice: the start-of-turn arrow order, the action (MAKE STEAM,
SET 1 TARGET directly or by channelling, FLY TO ALL TARGETS), each step of
the channel and of the flight, each part of an effect, each store step.
Gauge spaces are numbered 0..10 (``gauge.py``); machine-room positions
1..7; districts are (level, position).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import attrs

from rulecraft.model.steamopolis.components import DistrictPosition, Resource
from rulecraft.model.steamopolis.state import Passenger

District = tuple[int, DistrictPosition]
Symbol = Literal["activation", "passive"]
ParasiteAt = tuple[int, int, Symbol]  # a placed parasite: (host seat, machine-room position, symbol)

# -- set-up: chance deals and the machine room (STM-R-03..R-13) --------------------------------


@attrs.frozen
class DealCharacter:
    """Chance (STM-R-07): the next seat without a character draws this one."""

    kind: ClassVar[str] = "deal-character"
    number: int


@attrs.frozen
class DealStartingMachine:
    """Chance (STM-R-13): the next seat without one draws this starting machine."""

    kind: ClassVar[str] = "deal-starting-machine"
    id: str


@attrs.frozen
class DealMarketTile:
    """Chance (STM-R-03): the next market slot, level by level and rank by rank, gets this tile."""

    kind: ClassVar[str] = "deal-market-tile"
    id: str


@attrs.frozen
class RevealPassenger:
    """Chance (STM-R-05, R-51): this tile of the face-down stack turns face up."""

    kind: ClassVar[str] = "reveal-passenger"
    id: str


@attrs.frozen
class BuildStartingRoom:
    """STM-R-13: the starting machine and the capacity tile into the machine room, sides free."""

    kind: ClassVar[str] = "build-starting-room"
    machine_position: int
    machine_side: int
    capacity_position: int
    capacity_side: int


# -- start of the turn and the three actions (STM-R-19, R-23..R-29) ------------------------------


@attrs.frozen
class MoveArrowStones:
    """STM-R-19: each arrow stone on the gauge increases by 1, in this order of starting spaces."""

    kind: ClassVar[str] = "move-arrow-stones"
    order: tuple[int, ...] = ()


@attrs.frozen
class MakeSteam:
    """Action A (STM-R-25): the increments of 'increase the pressure by X', each the current space
    of the stone moved."""

    kind: ClassVar[str] = "make-steam"
    picks: tuple[int, ...] = ()


@attrs.frozen
class SetTarget:
    """Action B without channelling (STM-R-26): the stone on gauge ``space`` onto a free district."""

    kind: ClassVar[str] = "set-target"
    space: int
    level: int
    position: DistrictPosition


@attrs.frozen
class ChannelPressure:
    """Action B with channelling (STM-R-28/29): the stone on gauge ``space`` runs down the pipe."""

    kind: ClassVar[str] = "channel-pressure"
    space: int


@attrs.frozen
class FlyToAllTargets:
    """Action C (STM-R-33): start the flight."""

    kind: ClassVar[str] = "fly-to-all-targets"


@attrs.frozen
class PassTurn:
    """STM-AMB-12 'pass': none of the three actions is possible; the turn passes."""

    kind: ClassVar[str] = "pass"


@attrs.frozen
class SkipStep:
    """STM-R-66 / STM-AMB-17 'optional': forgo this action of the final turn."""

    kind: ClassVar[str] = "skip-step"


# -- channelling (STM-R-29) ----------------------------------------------------------------------


@attrs.frozen
class MoveLeft:
    """Move the channelled stone one machine-room position left, activating the machine there."""

    kind: ClassVar[str] = "move-left"


@attrs.frozen
class PlaceStone:
    """Place the channelled stone on a free district of a level at most its reduced value."""

    kind: ClassVar[str] = "place-stone"
    level: int
    position: DistrictPosition


# -- the flight (STM-R-33..46) --------------------------------------------------------------------


@attrs.frozen
class TakeBack:
    """Step 1 (STM-R-34): the next stone, from this district; ``discard`` the bonus marker that
    makes room when no gauge space is free (STM-R-18)."""

    kind: ClassVar[str] = "take-back"
    level: int
    position: DistrictPosition
    discard: int | None = None


@attrs.frozen
class PickUp:
    """Step 2a (STM-R-36): take the passenger standing on the active level on board."""

    kind: ClassVar[str] = "pick-up"
    passenger: Passenger


@attrs.frozen
class UseDistrict:
    """Step 3 (STM-R-38): carry out the active district's effect."""

    kind: ClassVar[str] = "use-district"


@attrs.frozen
class BuyMachine:
    """Step 3 (STM-R-40..42): buy a market's face-up tile as a machine.  ``remove``: the machine-room
    position given up (rank 1+ cost, or room for the tile when every position is taken);
    ``position``: where the tile is built in; ``extra``: the 4-player second market; ``level``: the
    market's level under a 'buy tile' effect (STM-R-61; None: the active level of the flight step);
    ``sponsor`` / ``gala``: pay with the sponsor's or the charity gala's discount (STM-R-57/58)."""

    kind: ClassVar[str] = "buy-machine"
    position: int
    remove: int | None = None
    extra: bool = False
    level: int | None = None
    sponsor: bool = False
    gala: bool = False
    sponsor2: bool = False  # STM-AMB-34 'two': character 5's second sponsor's discount too
    more: tuple[int, ...] = ()  # STM-AMB-25 'cumulative': further machine-room positions given up


@attrs.frozen
class BuyBanner:
    """Step 3 (STM-R-40, R-43/44): buy a market's face-up tile as a banner; ``stone`` the gauge space
    of the stone returned to the supply; ``level``, ``sponsor``, ``gala`` as for :class:`BuyMachine`;
    ``board``: under STM-AMB-11 'board', the district of an own board stone returned instead."""

    kind: ClassVar[str] = "buy-banner"
    stone: int | None = None
    extra: bool = False
    level: int | None = None
    sponsor: bool = False
    gala: bool = False
    board: District | None = None
    sponsor2: bool = False  # STM-AMB-34 'two': character 5's second sponsor's discount too
    more: tuple[int, ...] = ()  # STM-AMB-25 'cumulative': gauge spaces of further stones returned


@attrs.frozen
class BuyBonusMarker:
    """Step 3 on level 1 (STM-R-46/47): the foremost marker of a row onto gauge ``space`` (None: no
    usable space, it goes to the box); ``bump``: a stone there is increased by 1 to make room;
    ``sponsor`` / ``gala``: pay with their discount (STM-R-57/58); ``numeral``: the marker bought
    under STM-AMB-13 'any' (None, as under 'foremost': the row's foremost marker)."""

    kind: ClassVar[str] = "buy-bonus-marker"
    row: Resource
    space: int | None
    bump: bool = True
    sponsor: bool = False
    gala: bool = False
    numeral: int | None = None
    sponsor2: bool = False  # STM-AMB-34 'two': character 5's second sponsor's discount too


@attrs.frozen
class StopBuying:
    """No further bonus marker (STM-R-46: any number, one at a time)."""

    kind: ClassVar[str] = "stop-buying"


@attrs.frozen
class LetLapse:
    """Step 3 (STM-R-38): neither district effect nor purchase."""

    kind: ClassVar[str] = "let-lapse"


# -- effect parts, top to bottom (STM-R-22) -----------------------------------------------------------


@attrs.frozen
class PayCost:
    """Pay the black cost at the head of the effect, to use the parts beneath; ``stone``: the gauge
    space of the stone a 'pressure stone -1' returns; ``sponsor`` / ``gala``: a resource cost paid
    with the sponsor's discount of 1 or the charity gala's of up to 2 (STM-R-57/58)."""

    kind: ClassVar[str] = "pay-cost"
    stone: int | None = None
    sponsor: bool = False
    gala: bool = False
    sponsor2: bool = False  # STM-AMB-34 'two': character 5's second sponsor's discount too


@attrs.frozen
class DeclineCost:
    """Do not pay: the cost and every part beneath it lapse (STM-R-22)."""

    kind: ClassVar[str] = "decline-cost"


@attrs.frozen
class ChooseSide:
    """A slash (STM-R-22): the parts above it (0) or those below it (1)."""

    kind: ClassVar[str] = "choose-side"
    side: int


@attrs.frozen
class SkipPart:
    """Forgo the head part (STM-R-22: parts you will not do lapse)."""

    kind: ClassVar[str] = "skip-part"


@attrs.frozen
class UsePart:
    """Carry out a head part that needs no choice (VP, stone to 8, look at a machine...).  ``sponsor2``:
    'turn sponsor' turns character 5's second sponsor instead of the first (STM-AMB-34 'two', p.31
    'Only 1 sponsor, if you own character 5')."""

    kind: ClassVar[str] = "use-part"
    sponsor2: bool = False


@attrs.frozen
class TakeResources:
    """Receive resources (white; partly allowed): this many crystals and gears."""

    kind: ClassVar[str] = "take-resources"
    crystals: int = 0
    gears: int = 0


@attrs.frozen
class RaisePressure:
    """'Increase the pressure by N' (STM-R-15): the increments, as in MakeSteam."""

    kind: ClassVar[str] = "raise-pressure"
    picks: tuple[int, ...] = ()


@attrs.frozen
class RaiseOneStone:
    """'Increase the pressure of one stone by up to N' (STM-R-16)."""

    kind: ClassVar[str] = "raise-one-stone"
    space: int
    steps: int


@attrs.frozen
class GainStone:
    """'Pressure stone' (STM-R-20): a stone of this face from the supply, placed as if taken back."""

    kind: ClassVar[str] = "gain-stone"
    arrow: bool = False
    discard: int | None = None


@attrs.frozen
class MoveBaseMarker:
    """'Base pressure marker' (STM-R-17); ``bump`` a stone on the new space (STM-AMB-05)."""

    kind: ClassVar[str] = "move-base-marker"
    bump: bool = True


@attrs.frozen
class TurnArrows:
    """'Turn N pressure stones' arrow side up (STM-R-19, STM-AMB-10): gauge spaces and districts."""

    kind: ClassVar[str] = "turn-arrows"
    spaces: tuple[int, ...] = ()
    districts: tuple[District, ...] = ()


@attrs.frozen
class BuildCapacity:
    """'Capacity tile' (STM-R-59): into machine-room ``position`` with ``side`` up."""

    kind: ClassVar[str] = "build-capacity"
    position: int
    side: int


# -- parasites, sponsors, galas and the other execution effects (STM-R-52..61) -------------------------


@attrs.frozen
class PlaceParasite:
    """'Place or move' (STM-R-52) or an envy placement (STM-R-53): one own parasite onto ``host``'s
    machine in ``position``, on its activation or passive ``symbol``; ``moved``: the placed parasite that
    moves instead of one from the supply.  Solo (STM-R-72): ``host`` and ``position`` None, beside
    the passenger stack."""

    kind: ClassVar[str] = "place-parasite"
    host: int | None
    position: int | None
    symbol: Symbol = "activation"
    moved: ParasiteAt | None = None


@attrs.frozen
class ActivateParasite:
    """'Activate without taking back' (STM-R-56): these own placed parasites, in this order; each
    one's effect is used once as if triggered, the parasites stay."""

    kind: ClassVar[str] = "activate-parasite"
    targets: tuple[ParasiteAt, ...]


@attrs.frozen
class UseFaceUpTile:
    """Solo 'activate a parasite' (STM-R-72): with a parasite beside the passenger stack, use the
    activation or passive ``symbol`` effect of the face-up machine tile on ``level``, a level that is
    currently a passenger's printed destination; the parasite stays beside the stack (STM-AMB-38)."""

    kind: ClassVar[str] = "use-face-up-tile"
    level: int
    symbol: Symbol = "activation"


@attrs.frozen
class ShakeOffParasite:
    """'Shake off' one opposing parasite (STM-R-55): ``owner``'s parasite on your machine in
    ``position``, on that symbol, returns to its owner unactivated."""

    kind: ClassVar[str] = "shake-off-parasite"
    owner: int
    position: int
    symbol: Symbol = "activation"


@attrs.frozen
class LetPlayer:
    """STM-AMB-21 'owner-chooses': this player's parasite effect or envy placement comes next."""

    kind: ClassVar[str] = "let-player"
    seat: int


@attrs.frozen
class TakeSponsor:
    """'Sponsor' (STM-R-57): a sponsor tile from the supply, this side up."""

    kind: ClassVar[str] = "take-sponsor"
    side: Resource


@attrs.frozen
class TakeGala:
    """'Charity gala' (STM-R-58): a gala tile of this resource from the supply."""

    kind: ClassVar[str] = "take-gala"
    resource: Resource


@attrs.frozen
class PlacePinkMarker:
    """Character 7's pink bonus marker (STM-R-04, R-47): onto gauge ``space`` with its numeral (None:
    no usable space, it goes to the box); ``bump`` a stone there by 1 to make room."""

    kind: ClassVar[str] = "place-pink-marker"
    space: int | None
    bump: bool = True


@attrs.frozen
class UseOtherDistrict:
    """'Use another district' (STM-R-61): the effect of this district."""

    kind: ClassVar[str] = "use-other-district"
    level: int
    position: DistrictPosition


@attrs.frozen
class Store:
    """A store step with more resources than spaces (STM-R-32): keep these, return the rest."""

    kind: ClassVar[str] = "store"
    crystals: int
    gears: int


# -- solo: remove tiles (STM-R-71/72) ------------------------------------------------------------------


@attrs.frozen
class UseRemovedTile:
    """Solo 'remove tiles' (STM-R-72): take back one parasite from beside the passenger stack to use
    the activation or passive ``symbol`` effect of ``tile``, a machine tile boxed in this step."""

    kind: ClassVar[str] = "use-removed-tile"
    tile: str
    symbol: Symbol = "activation"


@attrs.frozen
class LeaveParasites:
    """Solo 'remove tiles' (STM-R-71/72): the other parasites stay beside the stack; the face-up
    passenger tile goes to the box and the next one is revealed."""

    kind: ClassVar[str] = "leave-parasites"


# STM-R-49 / STM-AMB-16 'free': the steps of the end of the turn, in the rulebook's words (p.24: the
# passenger transport's rewards and the new passenger tile; effects that take place at the end of your
# turn; p.35, solo: REMOVE TILES).
EndStep = Literal["passengers", "end-of-turn effects", "remove tiles"]


@attrs.frozen
class EndOfTurnStep:
    """STM-AMB-16 'free' (p.24, p.37): the end-of-turn ``step`` the player carries out next, while more
    than one of them is still to be done."""

    kind: ClassVar[str] = "end-of-turn-step"
    step: EndStep


@attrs.frozen
class EndTurn:
    """STM-R-23 (3): the turn is over; the player to the left is up."""

    kind: ClassVar[str] = "end-turn"


StmAction = (
    DealCharacter
    | DealStartingMachine
    | DealMarketTile
    | RevealPassenger
    | BuildStartingRoom
    | SkipStep
    | MoveArrowStones
    | MakeSteam
    | SetTarget
    | ChannelPressure
    | FlyToAllTargets
    | PassTurn
    | MoveLeft
    | PlaceStone
    | TakeBack
    | PickUp
    | UseDistrict
    | BuyMachine
    | BuyBanner
    | BuyBonusMarker
    | StopBuying
    | LetLapse
    | PayCost
    | DeclineCost
    | ChooseSide
    | SkipPart
    | UsePart
    | TakeResources
    | RaisePressure
    | RaiseOneStone
    | GainStone
    | MoveBaseMarker
    | TurnArrows
    | BuildCapacity
    | PlaceParasite
    | ActivateParasite
    | UseFaceUpTile
    | ShakeOffParasite
    | LetPlayer
    | TakeSponsor
    | TakeGala
    | PlacePinkMarker
    | UseOtherDistrict
    | Store
    | UseRemovedTile
    | LeaveParasites
    | EndOfTurnStep
    | EndTurn
)

CHANCE_ACTIONS: tuple[type, ...] = (DealCharacter, DealStartingMachine, DealMarketTile, RevealPassenger)

EFFECT_ACTIONS: tuple[type, ...] = (
    PayCost,
    DeclineCost,
    ChooseSide,
    SkipPart,
    UsePart,
    TakeResources,
    RaisePressure,
    RaiseOneStone,
    GainStone,
    MoveBaseMarker,
    TurnArrows,
    BuildCapacity,
    PlaceParasite,
    ActivateParasite,
    UseFaceUpTile,
    ShakeOffParasite,
    LetPlayer,
    TakeSponsor,
    TakeGala,
    PlacePinkMarker,
    UseOtherDistrict,
)
