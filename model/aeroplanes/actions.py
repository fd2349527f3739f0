"""Aeroplanes actions: one small frozen class per decision, in the rulebook's words.

A turn is a sequence of small decisions so that legal-move generation can
list every choice: the five actions of AER-R-07, each placement attempt of a
placement action with its route and slot, each choice of the risk process
(re-throw, cover, decline, abort), each advantage pick.  Chance steps are
actions too, listed in :data:`CHANCE_KINDS`; ``setup.chance_outcomes`` and
``setup.throw_outcomes`` give their exact odds.
Cards are named by number, passenger tiles by pack id, destinations by name,
seats 0..N-1 clockwise.
"""

from __future__ import annotations

import functools
from typing import ClassVar

import attrs

from rulecraft.model.aeroplanes.components import Face

# -- set-up (AER-SET-01..10) ----------------------------------------------------------------------


@attrs.frozen
class DealWaitingPassenger:
    """Chance (AER-SET-01): the next empty waiting slot, section by section in board order, gets this tile.
    A "¤" tile drawn is set aside and another drawn, so the tile placed is uniform over the bag's
    unmarked tiles; the set-aside tiles are back in the bag at once."""

    kind: ClassVar[str] = "deal-waiting-passenger"
    id: str


@attrs.frozen
class DrawFirstPlayer:
    """Chance (AER-SET-03): this seat is chosen at random and takes the first-player die."""

    kind: ClassVar[str] = "draw-first-player"
    seat: int


@attrs.frozen
class ChooseHome:
    """AER-SET-03: the seat to choose puts its home tile in this unoccupied start city (counter-clockwise
    from the first player's right neighbour, the first player last)."""

    kind: ClassVar[str] = "choose-home"
    city: str


# -- the start of a turn --------------------------------------------------------------------------


@attrs.frozen
class PlayEngineMaintenance:
    """AER-R-44: a free action at the start of one's turn: discard all engine-failure tiles (and the
    Engine Maintenance tile)."""

    kind: ClassVar[str] = "play-engine-maintenance"


# -- action 1: buy one plane card (l.61-74) --------------------------------------------------------


@attrs.frozen
class BuyPlane:
    """AER-R-08/09: buy this display card (its price + £1 per lower display card) and load its tiles;
    ``increased_production``: play Increased Production for one more tile of its stage (AER-R-45)."""

    kind: ClassVar[str] = "buy-plane"
    number: int
    increased_production: bool = False


@attrs.frozen
class DrawCard:
    """Chance (AER-R-10 after a purchase, AER-R-53 at the update): this deck card joins the display.
    The deck is in number order (AER-SET-08), so the lowest card left is drawn with odds 1."""

    kind: ClassVar[str] = "draw-card"
    number: int


# -- action 2: place airport tiles (l.75-132) ------------------------------------------------------


@attrs.frozen
class PlaceAirport:
    """AER-R-13: one placement attempt.  A tile from owned card ``card`` (by number) goes to
    ``destination``, slot ``slot`` (an empty slot, or a lower stage to replace when all are full,
    AER-R-29).  ``origin``: the own airport the route starts from (AER-R-14/15), ``via`` the destination
    hopped over by an LR plane (AER-R-17); ``origin`` None: an upgrade of one's own tile, no route and
    no risk (AER-R-30)."""

    kind: ClassVar[str] = "place-airport"
    card: int
    destination: str
    slot: int
    origin: str | None = None
    via: str | None = None


def _place_airport(card: int, destination: str, slot: int, origin: str | None, via: str | None) -> PlaceAirport:
    return PlaceAirport(card, destination, slot, origin, via)


# ``PlaceAirport(card, destination, slot, origin, via)``, made once per value: move generation offers the
# same few hundred placements again and again, and a frozen value can be shared.  functools' cache looks
# the value up without a Python call (its key is the arguments, as the store it replaced had them).
place_airport = functools.lru_cache(maxsize=1 << 16)(_place_airport)


@attrs.frozen
class StopPlacing:
    """AER-R-13: end the placement action after at least one attempt (AER-AMB-09)."""

    kind: ClassVar[str] = "stop-placing"


@attrs.frozen
class RiskThrow:
    """Chance (AER-R-20): one NCR roll of the three risk dice: the total of the number faces (a skull
    counts 0) and the number of skulls (each an engine-failure tile, AER-R-28)."""

    kind: ClassVar[str] = "risk-throw"
    total: int
    skulls: int


@attrs.frozen
class PlayRadioBeacons:
    """AER-R-47 (era 3): throw all three risk dice again; the skulls of the throw given up are ignored."""

    kind: ClassVar[str] = "play-radio-beacons"


@attrs.frozen
class KeepThrow:
    """AER-R-28, R-47 (AER-AMB-26 ``reroll``): a player holding Radio Beacons keeps the throw instead of
    re-throwing it; only then are its skulls taken as engine-failure tiles (and the 4-tile collapse
    checked), before the shortfall is covered or declined."""

    kind: ClassVar[str] = "keep-throw"


@attrs.frozen
class CoverShortfall:
    """AER-R-23: keep the throw, covering its shortfall in full with £1 a point and Daring Pilots (+3
    each, only outside Europe, AER-R-42/43).  ``CoverShortfall(0, 0)`` keeps a throw that passed."""

    kind: ClassVar[str] = "cover-shortfall"
    money: int = 0
    pilots: int = 0


@attrs.frozen
class Decline:
    """AER-R-26: leave a failed roll uncovered: the tile goes back onto its card and the action ends."""

    kind: ClassVar[str] = "decline"


@attrs.frozen
class Abort:
    """AER-R-27: abort a multi-roll attempt before its next roll: what was spent is lost, the tile goes
    back onto its card, the action ends."""

    kind: ClassVar[str] = "abort"


# -- action 3: claim passenger tiles (l.133-151) ---------------------------------------------------


@attrs.frozen
class ClaimPassenger:
    """AER-R-34..37: put this passenger tile from the waiting area (or the overflow area,
    ``overflow``) onto owned card ``card``.  Also each extra claim of Night Flights (AER-R-46)."""

    kind: ClassVar[str] = "claim-passenger"
    id: str
    card: int
    overflow: bool = False


@attrs.frozen
class PlayNightFlights:
    """AER-R-46 (era 2+): one more claim, within Europe, in this claim action."""

    kind: ClassVar[str] = "play-night-flights"


@attrs.frozen
class EndClaims:
    """AER-R-46: end a claim action while Night Flights claims are still open."""

    kind: ClassVar[str] = "end-claims"


# -- action 4: buy advantage tiles (l.152-161) -----------------------------------------------------


@attrs.frozen
class TakeAdvantage:
    """AER-R-39(a): pay £1 and take one available tile of this type (AER-R-40)."""

    kind: ClassVar[str] = "take-advantage"
    type: int


@attrs.frozen
class RollForAdvantages:
    """AER-R-39(b): pay £1 and roll the three risk dice for up to two tiles."""

    kind: ClassVar[str] = "roll-for-advantages"


@attrs.frozen
class AdvantageThrow:
    """Chance (AER-R-39(b)): the faces of the three risk dice, in the pack's face order."""

    kind: ClassVar[str] = "advantage-throw"
    faces: tuple[Face, ...]


@attrs.frozen
class PickAdvantages:
    """AER-R-39(b): use two of the three dice (``dice``: their indices); ``types``: the tile taken for
    each (its face, any type for a skull, None when that type is not available: nothing)."""

    kind: ClassVar[str] = "pick-advantages"
    dice: tuple[int, int]
    types: tuple[int | None, int | None]


# -- action 5: take a subsidy (l.162-163) ----------------------------------------------------------


@attrs.frozen
class TakeSubsidy:
    """AER-R-48: take £1 from the subsidy section, or the black marker when it is empty (the era ends)."""

    kind: ClassVar[str] = "take-subsidy"


# -- between rounds and eras ----------------------------------------------------------------------


@attrs.frozen
class RollFirstPlayerDie:
    """Chance (AER-R-05 between rounds, AER-R-62 after an era): the die shows ``value``; it passes that
    many players to the left of the roller."""

    kind: ClassVar[str] = "roll-first-player-die"
    value: int


@attrs.frozen
class RefillWaiting:
    """Chance (AER-R-58): the next empty waiting slot, from Rome to Berlin, gets this tile from the bag."""

    kind: ClassVar[str] = "refill-waiting"
    id: str


AerAction = (
    DealWaitingPassenger
    | DrawFirstPlayer
    | ChooseHome
    | PlayEngineMaintenance
    | BuyPlane
    | DrawCard
    | PlaceAirport
    | StopPlacing
    | RiskThrow
    | PlayRadioBeacons
    | KeepThrow
    | CoverShortfall
    | Decline
    | Abort
    | ClaimPassenger
    | PlayNightFlights
    | EndClaims
    | TakeAdvantage
    | RollForAdvantages
    | AdvantageThrow
    | PickAdvantages
    | TakeSubsidy
    | RollFirstPlayerDie
    | RefillWaiting
)


# Shared values for move generation (issue 18): a frozen attrs value costs about a microsecond to make,
# and generation offers the same few again at every decision, so each is made once and shared (as
# ``place_airport`` does; the stores are bounded by the pack: cards, tiles, types).
def buy_plane(number: int, increased_production: bool = False) -> BuyPlane:
    """``BuyPlane(number, increased_production)``, made once per value."""
    store = _BOOSTED_BUYS if increased_production else _BUYS
    found = store.get(number)
    if found is None:
        found = store[number] = BuyPlane(number, increased_production)
    return found


def take_advantage(kind: int) -> TakeAdvantage:
    """``TakeAdvantage(kind)``, made once per type."""
    found = _TAKES.get(kind)
    if found is None:
        found = _TAKES[kind] = TakeAdvantage(kind)
    return found


def _claim_passenger(tile: str, card: int, overflow: bool) -> ClaimPassenger:
    return ClaimPassenger(tile, card, overflow)


# ``ClaimPassenger(tile, card, overflow)``, made once per value (as ``place_airport``).
claim_passenger = functools.lru_cache(maxsize=1 << 16)(_claim_passenger)


def _pick_advantages(dice: tuple[int, int], types: tuple[int | None, int | None]) -> PickAdvantages:
    return PickAdvantages(dice, types)


# ``PickAdvantages(dice, types)``, made once per value (as ``place_airport``: a few hundred at most).
pick_advantages = functools.lru_cache(maxsize=1 << 12)(_pick_advantages)


def _shortfall_cover(money: int, pilots: int) -> CoverShortfall:
    return CoverShortfall(money, pilots)


# ``CoverShortfall(money, pilots)``, made once per value (as ``place_airport``).
shortfall_cover = functools.lru_cache(maxsize=1 << 12)(_shortfall_cover)


_BUYS: dict[int, BuyPlane] = {}
_BOOSTED_BUYS: dict[int, BuyPlane] = {}
_TAKES: dict[int, TakeAdvantage] = {}
# The actions with no fields: one value each.
TAKE_SUBSIDY = TakeSubsidy()
ROLL_FOR_ADVANTAGES = RollForAdvantages()
PLAY_ENGINE_MAINTENANCE = PlayEngineMaintenance()
STOP_PLACING = StopPlacing()
END_CLAIMS = EndClaims()
PLAY_NIGHT_FLIGHTS = PlayNightFlights()
DECLINE = Decline()
ABORT = Abort()
KEEP_THROW = KeepThrow()
PLAY_RADIO_BEACONS = PlayRadioBeacons()

# The chance actions: nobody chooses them; their odds are exact (setup.chance_outcomes).
CHANCE_KINDS: frozenset[str] = frozenset(
    {
        DealWaitingPassenger.kind,
        DrawFirstPlayer.kind,
        DrawCard.kind,
        RiskThrow.kind,
        AdvantageThrow.kind,
        RollFirstPlayerDie.kind,
        RefillWaiting.kind,
    }
)

# Each kind and the rule IDs it carries out.
RULES_OF: dict[str, tuple[str, ...]] = {
    DealWaitingPassenger.kind: ("AER-SET-01",),
    DrawFirstPlayer.kind: ("AER-SET-03",),
    ChooseHome.kind: ("AER-SET-03",),
    PlayEngineMaintenance.kind: ("AER-R-44",),
    BuyPlane.kind: ("AER-R-08", "AER-R-09", "AER-R-45"),
    DrawCard.kind: ("AER-R-10", "AER-R-53"),
    PlaceAirport.kind: ("AER-R-13", "AER-R-14", "AER-R-15", "AER-R-16", "AER-R-17", "AER-R-29", "AER-R-30"),
    StopPlacing.kind: ("AER-R-13",),
    RiskThrow.kind: ("AER-R-20", "AER-R-28"),
    PlayRadioBeacons.kind: ("AER-R-47",),
    KeepThrow.kind: ("AER-R-28", "AER-R-47"),
    CoverShortfall.kind: ("AER-R-23", "AER-R-42", "AER-R-43"),
    Decline.kind: ("AER-R-26",),
    Abort.kind: ("AER-R-27",),
    ClaimPassenger.kind: ("AER-R-34", "AER-R-35", "AER-R-36", "AER-R-37"),
    PlayNightFlights.kind: ("AER-R-46",),
    EndClaims.kind: ("AER-R-46",),
    TakeAdvantage.kind: ("AER-R-39", "AER-R-40"),
    RollForAdvantages.kind: ("AER-R-39",),
    AdvantageThrow.kind: ("AER-R-39",),
    PickAdvantages.kind: ("AER-R-39", "AER-R-40"),
    TakeSubsidy.kind: ("AER-R-48", "AER-R-06", "AER-R-49"),
    RollFirstPlayerDie.kind: ("AER-R-05", "AER-R-62"),
    RefillWaiting.kind: ("AER-R-58",),
}

__all__ = [
    "CHANCE_KINDS",
    "RULES_OF",
    "Abort",
    "AdvantageThrow",
    "AerAction",
    "BuyPlane",
    "ChooseHome",
    "ClaimPassenger",
    "CoverShortfall",
    "DealWaitingPassenger",
    "Decline",
    "DrawCard",
    "DrawFirstPlayer",
    "EndClaims",
    "KeepThrow",
    "PickAdvantages",
    "PlaceAirport",
    "PlayEngineMaintenance",
    "PlayNightFlights",
    "PlayRadioBeacons",
    "RefillWaiting",
    "RiskThrow",
    "RollFirstPlayerDie",
    "RollForAdvantages",
    "StopPlacing",
    "TakeAdvantage",
    "TakeSubsidy",
    "buy_plane",
    "claim_passenger",
    "pick_advantages",
    "place_airport",
    "shortfall_cover",
    "take_advantage",
]
