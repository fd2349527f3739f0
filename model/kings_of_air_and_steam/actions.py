"""Kings of Air and Steam actions: one small frozen class per kind of move.

Chance actions carry what was drawn (market and demand tiles), so a game
replays exactly from its log.  Secret planning is a sequence of hidden
commits, one per seat (OpenSpiel's turn-based conversion).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex


# -- set-up and market ----------------------------------------------------------------
@attrs.frozen
class PlaceStartDepot:
    """KAS-R-07: a starting depot (and the airship) on an empty rail hex."""

    kind: ClassVar[str] = "start-depot"
    at: Hex


@attrs.frozen
class StartAirship:
    """KAS-AMB-29 'strict': a player left with no line for a starting depot places none; the
    airship alone goes on an empty rail hex, where step D would have put depot and airship."""

    kind: ClassVar[str] = "start-airship"
    at: Hex


@attrs.frozen
class DrawMarketTile:
    """Chance: the next market tile (KAS-R-15)."""

    kind: ClassVar[str] = "market-tile"
    goods: str


@attrs.frozen
class RemoveMarketTile:
    """Chance: one of the 5 tiles the Uncertainty variant removes unseen (KAS-R-06)."""

    kind: ClassVar[str] = "remove-tile"
    goods: str


@attrs.frozen
class DrawDemandTile:
    """Chance: the demand tile for a fulfilled printed city (KAS-R-40)."""

    kind: ClassVar[str] = "demand-tile"
    goods: str


@attrs.frozen
class Plan:
    """KAS-R-19: the card for the next slot (1, then 2, 3, 4), committed face down.

    Planning one slot at a time keeps the choice small (12 cards, not 11,880
    ordered plans) while the whole plan is still fixed before any reveal."""

    kind: ClassVar[str] = "plan"
    card: str


# -- a turn ------------------------------------------------------------------------------
@attrs.frozen
class Fly:
    """KAS-R-26: the flight, as the direction of every step (0=E .. 5=SE)."""

    kind: ClassVar[str] = "fly"
    path: tuple[int, ...]
    # KAS-R-87 (p.20, "ellophatsz": he MAY steal): the seats Ezekiel Crane passes but does not rob,
    # ascending; under KAS-AMB-43 'repeat' a seat once for each pass he lets go.  Empty: he robs all.
    spare: tuple[int, ...] = ()


@attrs.frozen
class Load:
    """KAS-R-29: one good into the hold from the factory or the own depot here."""

    kind: ClassVar[str] = "load"
    goods: str
    source: str  # "factory" | "depot"


@attrs.frozen
class Swap:
    """KAS-R-30: with a full hold, one good back to the supply to load one of another type."""

    kind: ClassVar[str] = "swap"
    discard: str
    goods: str
    source: str


@attrs.frozen
class Unload:
    """KAS-R-31: one good from the hold onto the own depot here."""

    kind: ClassVar[str] = "unload"
    goods: str


@attrs.frozen
class EndCargo:
    """Done loading and unloading."""

    kind: ClassVar[str] = "end-cargo"


@attrs.frozen
class BuildDepot:
    """KAS-R-33: a depot on any empty rail hex ($4 on an empty line, $7 otherwise)."""

    kind: ClassVar[str] = "build-depot"
    at: Hex


@attrs.frozen
class UpgradeAirship:
    """KAS-R-34: one level up the airship track."""

    kind: ClassVar[str] = "upgrade-airship"


@attrs.frozen
class UpgradeRail:
    """KAS-R-35: one level up the rail track."""

    kind: ClassVar[str] = "upgrade-rail"


@attrs.frozen
class ShipGoods:
    """KAS-R-36..41: ``count`` goods of one type from an own depot.

    The destination is a city (``to_city``) or an own depot (``to_depot``);
    ``lines`` the route's rail lines (the origin's first, or only those
    after it); ``payees`` the opponent chosen on each tolled line
    (KAS-R-38).  None leaves the choice open: the first legal route in the
    canonical order is taken.
    """

    kind: ClassVar[str] = "ship"
    origin: Hex
    goods: str
    count: int
    to_city: str | None = None
    to_depot: Hex | None = None
    lines: tuple[str, ...] | None = None
    payees: tuple[tuple[str, int], ...] | None = None
    # Character powers on a delivery to a city (advanced game):
    returned: bool = False  # KAS-R-75 Bishop Kingston: one good back to the supply, still paid
    swindle: str | None = None  # KAS-R-79 Corey McQueen: one of the ``count`` goods is of this type
    # KAS-AMB-39 'any-depot': the own depot the swindled good is taken from (None: the origin); the
    # shipment still leaves from ``origin`` along its route.
    swindle_from: Hex | None = None
    bet: int = 0  # KAS-R-78 Sebastian King: dollars bet on his tokens


@attrs.frozen
class CourseCorrection:
    """KAS-R-42: one hex in any direction, then load/unload."""

    kind: ClassVar[str] = "course-correction"
    direction: int


@attrs.frozen
class Grant:
    """KAS-R-43: take $3 from the bank."""

    kind: ClassVar[str] = "grant"


# -- the advanced game's team and character steps ---------------------------------------------
@attrs.frozen
class Convert:
    """KAS-R-66 (Aurelia Bayley), as the action: 1 good (hold, or an own depot
    at ``at``) becomes 2 goods of one other type; spends a converter token."""

    kind: ClassVar[str] = "convert"
    goods: str
    into: str
    at: Hex | None = None


@attrs.frozen
class Steal:
    """KAS-R-85 (Godfather card): 1 good from an opponent's depot here (``at``)
    or hold (``at`` None); with a full hold, ``discard`` one good first."""

    kind: ClassVar[str] = "steal"
    victim: int
    goods: str
    at: Hex | None = None
    discard: str | None = None


@attrs.frozen
class Gamble:
    """Chance: whether Sebastian King's turned tokens show the shipment's goods (KAS-R-78).

    ``turned``: the goods symbols turned up, in goods order, under KAS-AMB-38 'spent'
    (they are used up, so which ones matters later); empty under 'reuse'."""

    kind: ClassVar[str] = "gamble"
    win: bool
    turned: tuple[str, ...] = ()


@attrs.frozen
class DrawDemandPair:
    """Chance: the two tiles Flora Kingston draws blind (KAS-R-74), in goods order."""

    kind: ClassVar[str] = "demand-pair"
    first: str
    second: str


@attrs.frozen
class ChooseDemandTile:
    """KAS-R-74: Flora Kingston chooses which demand tile the filled city gets."""

    kind: ClassVar[str] = "choose-demand"
    goods: str


@attrs.frozen
class ExtraFlight:
    """KAS-R-83 (Eli Diamond), as the action: fly a card from his deck, face up."""

    kind: ClassVar[str] = "extra-flight"
    card: str


@attrs.frozen
class BuildLine:
    """KAS-R-71 (Eva Blane), as the action: a new rail line between two cities,
    one track tile per hex ($1 each), and a free depot of hers on it."""

    kind: ClassVar[str] = "build-line"
    ends: tuple[str, str]
    hexes: tuple[Hex, ...]
    depot: Hex


@attrs.frozen
class ExtraAction:
    """KAS-R-67 (I.S.A.A.C.): a perpetual-motion token for a second action."""

    kind: ClassVar[str] = "extra-action"


@attrs.frozen
class Pass:
    """Decline an optional team or character step."""

    kind: ClassVar[str] = "pass"


# -- upkeep and sellout -------------------------------------------------------------------
@attrs.frozen
class ReturnGood:
    """KAS-R-45: one good back to the supply instead of paying $1 for it.
    ``at`` None is the cargo hold, else an own depot."""

    kind: ClassVar[str] = "return-good"
    goods: str
    at: Hex | None = None


@attrs.frozen
class PayUpkeep:
    """KAS-R-45: $1 for every good still in the hold and the depots."""

    kind: ClassVar[str] = "pay-upkeep"


@attrs.frozen
class Sell:
    """KAS-R-51: one good sold for $4 along a route that could ship it."""

    kind: ClassVar[str] = "sell"
    origin: Hex
    goods: str
    to_city: str
    lines: tuple[str, ...] | None = None
    payees: tuple[tuple[str, int], ...] | None = None
    # KAS-AMB-26 'all': the delivery powers in the Sellout, a sale being a delivery of one good.
    returned: bool = False  # KAS-R-75 Bishop Kingston: the good takes no city slot (KAS-AMB-25 'consume-room')
    bet: int = 0  # KAS-R-78 Sebastian King: dollars bet on his tokens

    def as_delivery(self) -> ShipGoods:
        """KAS-AMB-26 'all': the sale as the delivery of its one good to the city, powers included."""
        return ShipGoods(self.origin, self.goods, 1, to_city=self.to_city, returned=self.returned, bet=self.bet)


@attrs.frozen
class EndSellout:
    kind: ClassVar[str] = "end-sellout"


KasAction = (
    PlaceStartDepot
    | DrawMarketTile
    | DrawDemandTile
    | Plan
    | Fly
    | Load
    | Swap
    | Unload
    | EndCargo
    | BuildDepot
    | UpgradeAirship
    | UpgradeRail
    | ShipGoods
    | CourseCorrection
    | Grant
    | ReturnGood
    | PayUpkeep
    | Sell
    | EndSellout
    | Convert
    | Steal
    | ExtraAction
    | Pass
    | Gamble
    | DrawDemandPair
    | ChooseDemandTile
    | ExtraFlight
    | BuildLine
    | RemoveMarketTile
    | StartAirship
)
ACTION_TYPES: tuple[type[KasAction], ...] = (
    PlaceStartDepot,
    DrawMarketTile,
    DrawDemandTile,
    Plan,
    Fly,
    Load,
    Swap,
    Unload,
    EndCargo,
    BuildDepot,
    UpgradeAirship,
    UpgradeRail,
    ShipGoods,
    CourseCorrection,
    Grant,
    ReturnGood,
    PayUpkeep,
    Sell,
    EndSellout,
    Convert,
    Steal,
    ExtraAction,
    Pass,
    Gamble,
    DrawDemandPair,
    ChooseDemandTile,
    ExtraFlight,
    BuildLine,
    RemoveMarketTile,
    StartAirship,
)
CHANCE_TYPES = (DrawMarketTile, DrawDemandTile, Gamble, DrawDemandPair, RemoveMarketTile)
