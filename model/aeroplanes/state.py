"""Aeroplanes state: frozen, hashable classes whose reprs are valid Python.

A state holds only the dynamic parts; the component pack (map, cards,
passenger tiles, tables) is data the game instance interprets, and the state
names cards by number and passenger tiles by pack id.  Seats are numbered
0..N-1 clockwise (the direction of play, AER-R-04).  Every unordered pile
(the passenger bag, the deck, banked and removed tiles) is a sorted tuple, so
equal piles give equal states; which tile is drawn next is a chance step
(``setup.chance_outcomes``), never a hidden order stored here.

Airport tiles on the map are :class:`Airport` (owner seat, stage 1..3); the
home tile is stage ``HOME`` (0) and a 3-player blocker on a "4/5" slot is
owner ``BLOCKER`` (AER-SET-04).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from enum import Enum
from typing import TYPE_CHECKING, Generic, TypeVar

import attrs

from rulecraft import evolve as _evolve
from rulecraft.model.aeroplanes.components import Face

if TYPE_CHECKING:
    from rulecraft.model.aeroplanes.context import Context

T = TypeVar("T")

HOME = 0  # the stage of a home tile (AER-SET-03)
BLOCKER = -1  # the owner of a face-down 3-player blocker (AER-SET-04)
ADVANTAGE_TYPE_IDS: tuple[int, ...] = (2, 3, 4, 5, 6)  # l.154


class Phase(str, Enum):
    DEAL_PASSENGERS = "deal-passengers"  # chance: fill the waiting area (AER-SET-01)
    FIRST_PLAYER = "first-player"  # chance: the random first player (AER-SET-03)
    CHOOSE_HOME = "choose-home"  # counter-clockwise from the first player's right (AER-SET-03)
    ACTION = "action"  # the player to move chooses one of the five actions (AER-R-07)
    PLACING = "placing"  # inside a placement action: next attempt or stop (AER-R-13)
    RISK_ROLL = "risk-roll"  # chance: the three risk dice of an NCR roll (AER-R-20)
    COVER = "cover"  # after an NCR roll: Radio Beacons, pay / Daring Pilot, or give up (AER-R-23, R-26, R-27, R-47)
    ADVANTAGE_ROLL = "advantage-roll"  # chance: the three risk dice of an advantage roll (AER-R-39)
    ADVANTAGE_PICK = "advantage-pick"  # choose two of the three dice (AER-R-39)
    CLAIMING = "claiming"  # extra claims with Night Flights (AER-R-46)
    ROUND_DIE = "round-die"  # chance: the first-player die between rounds (AER-R-05) or after an era (AER-R-62)
    CARD_DRAW = "card-draw"  # chance: the display refill after a purchase (AER-R-10)
    UPDATE_DRAW = "update-draw"  # chance: the two display cards of update step 1 (AER-R-53)
    REFILL = "refill"  # chance: the waiting-area refill of the update (AER-R-58)
    OVER = "over"  # final scoring done (AER-R-63/64)

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


# The phases under plain module names, for the hot paths: reading a member off an Enum class costs about
# 0.2 µs under Python 3.11 (EnumType's __getattr__ puts every class attribute read through a Python-level
# hook) against a few hundredths for a module name, and a step compares its phase several times (issue 18).
DEAL_PASSENGERS = Phase.DEAL_PASSENGERS
FIRST_PLAYER = Phase.FIRST_PLAYER
CHOOSE_HOME = Phase.CHOOSE_HOME
ACTION = Phase.ACTION
PLACING = Phase.PLACING
RISK_ROLL = Phase.RISK_ROLL
COVER = Phase.COVER
ADVANTAGE_ROLL = Phase.ADVANTAGE_ROLL
ADVANTAGE_PICK = Phase.ADVANTAGE_PICK
CLAIMING = Phase.CLAIMING
ROUND_DIE = Phase.ROUND_DIE
CARD_DRAW = Phase.CARD_DRAW
UPDATE_DRAW = Phase.UPDATE_DRAW
REFILL = Phase.REFILL
OVER = Phase.OVER


@attrs.frozen
class Airport:
    """An airport tile on a map slot: ``owner`` a seat (BLOCKER: a 3-player blocker), ``stage`` 1..3
    (HOME: a home tile)."""

    owner: int
    stage: int

    @property
    def home(self) -> bool:
        return self.stage == HOME and self.owner != BLOCKER

    @property
    def blocker(self) -> bool:
        return self.owner == BLOCKER


@attrs.frozen
class Slots:
    """The slots of one destination, in printed order; the "4/5" slots come last (AER-R-29, AER-SET-04)."""

    destination: str
    slots: tuple[Airport | None, ...]


@attrs.frozen
class OwnedCard:
    """A plane card a player owns (AER-R-09, R-36, R-55).

    ``tiles``: airport tiles of the card's stage still on it (AER-R-09, R-45);
    ``passengers``: passenger tile ids carried (AER-R-34), sorted;
    ``excess``: None while face up (the printed capacity applies); once turned
    face down at an update, the unused capacity shown by excess-passenger
    markers (AER-R-55, AER-AMB-42), which is then the card's capacity.
    """

    number: int
    tiles: int = 0
    passengers: tuple[str, ...] = ()
    excess: int | None = None

    @property
    def face_down(self) -> bool:
        return self.excess is not None


@attrs.frozen(slots=False)  # a field dict, copied whole by ``evolve_player``
class PlayerState:
    home: str | None = None  # the start city of the home tile (None: not chosen yet, AER-SET-03)
    money: int = 0  # AER-SET-10: nothing before the era-1 income
    vp: int = 0  # AER-SET-09
    supply: tuple[int, int, int] = (9, 9, 9)  # airport tiles of stages 1..3 not yet on a card (AER-R-11)
    cards: tuple[OwnedCard, ...] = ()  # face up and face down, by card number
    discards: tuple[int, ...] = ()  # full planes in the personal discard pile (AER-R-54), sorted
    banked: tuple[str, ...] = ()  # passenger tiles beside the discard pile (AER-R-56), sorted
    advantages: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)  # held tiles of types 2..6 (AER-R-39)
    engine_failures: int = 0  # EF tiles held (AER-R-28)

    def held(self, advantage_type: int) -> int:
        return self.advantages[advantage_type - 2]


@attrs.frozen
class Waiting:
    """One start city's section of the passenger waiting area (AER-R-32): tile ids or None, in slot order."""

    city: str
    slots: tuple[str | None, ...]


@attrs.frozen
class Attempt:
    """A placement attempt in progress (AER-R-13..28).

    The tile comes from ``card`` (the owned card's number; it stays on the card until placed or lost)
    and goes to ``destination`` from ``origin`` (hopping over ``via``). ``rolls`` are the (target,
    bonus) pairs still to make, the current one first (AER-R-25); ``throw`` is the kept throw of the
    current roll as (total, skulls) (None: not thrown yet, AER-R-20); ``spent`` is the money and the
    Daring Pilots paid (lost on failure, AER-R-26/27)."""

    card: int
    destination: str
    origin: str | None = None  # None: an upgrade of one's own tile (no reach, AER-R-30)
    via: str | None = None  # the hopped-over destination of an LR hop (AER-R-17)
    slot: int = 0  # the slot the tile will fill or replace (AER-R-29), chosen before the rolls
    rolls: tuple[tuple[int, int], ...] = ()
    throw: tuple[int, int] | None = None  # (total of the number faces, skulls) of the kept throw
    spent: int = 0
    # AER-R-47, AER-AMB-26 ``reroll``: the throw is seen but not kept yet (its skulls not taken), because
    # the player holds Radio Beacons and may still throw again (KeepThrow keeps it).
    pending: bool = False


@attrs.frozen
class TurnState:
    """Bookkeeping of the current action (cleared at its end)."""

    maintenance_done: bool = False  # Engine Maintenance played at the start of this turn (AER-R-44)
    placements: int = 0  # attempts begun in this placement action (AER-R-13; no Engine Maintenance after)
    attempt: Attempt | None = None
    advantage_dice: tuple[Face, ...] | None = None  # an advantage roll waiting for its two picks (AER-R-39)
    claims_left: int = 0  # Night Flights extra claims still open (AER-R-46)
    # AER-AMB-10 ``fixed``: the player's airports when this placement action began, the only origins of
    # its attempts (None: not kept, as under the default ``chain``; serial.py leaves it out of the JSON then)
    origins: tuple[str, ...] | None = None


# A turn with nothing recorded yet: one shared value (a frozen TurnState costs about 2 µs to make, and
# every action's end clears the turn).
FRESH_TURN = TurnState()


@attrs.frozen(cache_hash=True, slots=False)  # a field dict, copied whole by ``evolve_state``
class AerState:
    players: tuple[PlayerState, ...]
    era: int = 1  # the era marker (AER-SET-07, AER-R-60)
    round: int = 1  # rounds begun in this era (AER-R-04)
    first_player: int = 0  # the holder of the first-player die (AER-R-04)
    to_move: int = 0
    turns_in_round: int = 0  # actions taken in the current round (AER-R-05)
    die_roller: int | None = None  # who rolls the first-player die in ROUND_DIE (AER-R-05, R-62)
    subsidy_pool: int = 0  # £1 notes in the subsidy section (AER-R-02, R-48)
    marker_in_pool: bool = True  # the black subsidy marker (AER-SET-07, AER-R-48)
    marker_taker: int | None = None  # who took the marker this era (AER-R-48, R-62)
    display: tuple[int, ...] = ()  # face-up card numbers, ascending (AER-SET-08, AER-R-08)
    deck: tuple[int, ...] = ()  # the cards left to draw, an unordered remainder kept sorted (AER-SET-08)
    removed_cards: tuple[int, ...] = ()  # discarded from the display at the updates (AER-R-53), sorted
    map: tuple[Slots, ...] = ()  # every destination, in pack order (AER-R-29)
    bag: tuple[str, ...] = ()  # passenger tiles in the bag, sorted (AER-SET-01)
    waiting: tuple[Waiting, ...] = ()  # the six sections, in refill order Rome..Berlin (AER-R-58)
    overflow: tuple[str, ...] = ()  # the overflow area, in arrival order (AER-R-57)
    removed_passengers: tuple[str, ...] = ()  # 0-VP tiles out of the game (AER-R-56), sorted
    advantage_supply: tuple[int, int, int, int, int] = (6, 6, 6, 6, 6)  # types 2..6 (AER-SET-06)
    americas_paid: tuple[tuple[str, int], ...] = ()  # (America, seat) bonuses paid, in order (AER-R-31)
    phase: Phase = Phase.DEAL_PASSENGERS
    turn: TurnState = FRESH_TURN

    def slots(self, destination: str) -> tuple[Airport | None, ...]:
        found = self.board().get(destination)
        if found is None:
            raise KeyError(f"no destination {destination!r} on the map")
        return found

    def board(self) -> dict[str, tuple[Airport | None, ...]]:
        """Each destination's slots by name, kept per map as ``airports`` is (shared: read it, never change
        it).  Move generation looks destinations up at every decision."""
        key = id(self.map)
        found = _BOARDS.get(key)
        if found is None or found[0] is not self.map:
            if len(_BOARDS) > 256:
                _BOARDS.clear()
            found = _BOARDS[key] = (self.map, {s.destination: s.slots for s in self.map})
        return found[1]

    def airports(self, seat: int) -> tuple[str, ...]:
        """The destinations where ``seat`` has a tile (home tile included), in map order.  Move
        generation asks this at every decision and the map changes only when a tile is placed, so the
        answers are kept per map (the same tuple object: it is immutable, and held beside the answer),
        every seat's worked out in the one pass over the map that a new map's first question pays."""
        key = id(self.map)
        found = _AIRPORTS.get(key)
        if found is None or found[0] is not self.map:
            if len(_AIRPORTS) > 256:
                _AIRPORTS.clear()
            found = _AIRPORTS[key] = (self.map, _owners(self.map))
        return found[1].get(seat, ())


def _owners(board: tuple[Slots, ...]) -> dict[int, tuple[str, ...]]:
    """Each owner's destinations (a tile in one of its slots), in map order: ``AerState.airports``."""
    out: dict[int, list[str]] = {}
    for s in board:  # plain loops
        for a in s.slots:
            if a is not None:
                held = out.setdefault(a.owner, [])
                if not held or held[-1] != s.destination:  # one entry a destination
                    held.append(s.destination)
    return {owner: tuple(held) for owner, held in out.items()}


def map_with(board: tuple[Slots, ...], destination: str, slots: tuple[Airport | None, ...]) -> tuple[Slots, ...]:
    """The map ``board`` with ``destination``'s slots now ``slots`` (a tile placed, AER-R-29).  The new map's
    ``AerState.board`` and ``AerState.airports`` answers are carried over from the old map's when those are
    known (only this destination changed, and only the owners of a tile here before or now), rather than
    worked out again from every destination at the new map's first question."""
    before: tuple[Airport | None, ...] = ()
    out: list[Slots] = []
    for s in board:
        if s.destination == destination:
            before = s.slots
            s = Slots(destination, slots)
        out.append(s)
    new_map = tuple(out)
    known = _BOARDS.get(id(board))
    if known is not None and known[0] is board and len(_BOARDS) <= 256:
        carried = dict(known[1])
        carried[destination] = slots
        _BOARDS[id(new_map)] = (new_map, carried)
    held = _AIRPORTS.get(id(board))
    if held is not None and held[0] is board and len(_AIRPORTS) <= 256:
        was = {a.owner for a in before if a is not None}
        now = {a.owner for a in slots if a is not None}
        owners = dict(held[1])
        names = [s.destination for s in board]
        for owner in now - was:  # a new owner here: the destination joins its airports, in map order
            owners[owner] = tuple(sorted((*owners.get(owner, ()), destination), key=names.index))
        for owner in was - now:  # its tile replaced: the destination leaves its airports
            rest = tuple([d for d in owners[owner] if d != destination])
            if rest:
                owners[owner] = rest
            else:
                del owners[owner]
        _AIRPORTS[id(new_map)] = (new_map, owners)
    return new_map


# state.airports per map: id(map) -> (the map, seat -> its airports).
_AIRPORTS: dict[int, tuple[tuple[Slots, ...], dict[int, tuple[str, ...]]]] = {}
# state.board per map: id(map) -> (the map, destination -> its slots).
_BOARDS: dict[int, tuple[tuple[Slots, ...], dict[str, tuple[Airport | None, ...]]]] = {}


class MapMemo(Generic[T]):
    """Answers kept per map (or per any tuple that stands for a part of it, as one destination's slots):
    id(map) -> (the map, the context, key -> the answer).  The map and the
    context are held beside their answers and compared by identity (an id is reused only after its
    object is gone), so a key holds only what else the answer depends on.  ``cache_clear`` and
    ``cache_info`` as functools caches have them: the mutation profile empties it before every test as
    it does those (bench/mutation/rulecraft_mutation_profile.py)."""

    def __init__(self) -> None:
        self._by_map: dict[int, tuple[object, object, dict[Hashable, T]]] = {}

    def get(self, ctx: object, board: tuple[object, ...], key: Hashable) -> T | None:
        found = self._by_map.get(id(board))
        if found is None or found[0] is not board or found[1] is not ctx:
            return None
        return found[2].get(key)

    def put(self, ctx: object, board: tuple[object, ...], key: Hashable, value: T) -> T:
        found = self._by_map.get(id(board))
        if found is None or found[0] is not board or found[1] is not ctx:
            if len(self._by_map) > 256:
                self._by_map.clear()
            found = self._by_map[id(board)] = (board, ctx, {})
        found[2][key] = value
        return value

    def lookup(self, ctx: object, board: tuple[object, ...], key: Hashable, compute: Callable[[], T]) -> T:
        """The answer kept for (ctx, board, key), else ``compute()``'s, kept (``get`` and ``put`` in one
        call: asked at every decision)."""
        found = self._by_map.get(id(board))
        if found is not None and found[0] is board and found[1] is ctx:
            answer = found[2].get(key)
            if answer is not None:
                return answer
        return self.put(ctx, board, key, compute())

    def cache_clear(self) -> None:
        self._by_map.clear()

    def cache_info(self) -> int:
        return len(self._by_map)


class SlotsMemo(Generic[T]):
    """Answers about a destination's slots, kept per question (``key``, with the context) and destination:
    the slots last asked about beside the answer, compared by identity (a destination's slots tuple is
    shared by every map until a tile lands there, so most answers serve many decisions).  Move generation
    takes the question's table once (``answers``) and looks destinations up in it with no call on the
    way.  ``cache_clear`` and ``cache_info`` as functools caches have them (the mutation profile empties
    it before every test)."""

    def __init__(self) -> None:
        self._by_key: dict[Hashable, tuple[object, dict[str, tuple[object, T]]]] = {}

    def answers(self, ctx: object, key: Hashable) -> dict[str, tuple[object, T]]:
        """The table of question ``key``: destination -> (its slots when answered, the answer)."""
        found = self._by_key.get(key)
        if found is None or found[0] is not ctx:
            if len(self._by_key) > 1024:
                self._by_key.clear()
            found = self._by_key[key] = (ctx, {})
        return found[1]

    def cache_clear(self) -> None:
        self._by_key.clear()

    def cache_info(self) -> int:
        return len(self._by_key)


# ---------------------------------------------------------------------------
# Copies with changes
# ---------------------------------------------------------------------------

# The state's parts are plain frozen slotted classes: rulecraft.evolve copies them slot by slot.
evolve = _evolve.evolve

# The state and the players (slots=False, no validator, converter or post-init) are copied by their fields'
# dict; bound once, since the transitions copy them once or twice a step (issue 18).
evolve_state = _evolve.evolver(AerState)
evolve_player = _evolve.evolver(PlayerState)


# ---------------------------------------------------------------------------
# Derived counts
# ---------------------------------------------------------------------------


def tiles_on_map(state: AerState, seat: int, stage: int) -> int:
    return sum(1 for s in state.map for a in s.slots if a is not None and a.owner == seat and a.stage == stage)


def tiles_on_cards(ctx: Context, player: PlayerState, stage: int) -> int:
    return sum(c.tiles for c in player.cards if ctx.pack.card(c.number).tile_stage == stage)


def capacity(ctx: Context, card: OwnedCard) -> int:
    """The most a card can carry now: its printed capacity, or the excess markers once face down (AER-R-55)."""
    return card.excess if card.excess is not None else ctx.pack.card(card.number).capacity


def load(ctx: Context, card: OwnedCard) -> int:
    """The capacity used by the passengers on a card (AER-R-36)."""
    used = 0
    for tile in card.passengers:  # a plain loop: asked of every card at every claim decision
        used += ctx.pack.passenger(tile).capacity
    return used


def passengers_in_play(state: AerState) -> Counter[str]:
    """Every passenger tile wherever it is: bag, waiting, overflow, cards, banked, out of the game."""
    out: Counter[str] = Counter(state.bag)
    out.update(t for w in state.waiting for t in w.slots if t is not None)
    out.update(state.overflow)
    out.update(state.removed_passengers)
    for p in state.players:
        out.update(p.banked)
        out.update(t for c in p.cards for t in c.passengers)
    return out


def cards_in_play(state: AerState) -> Counter[int]:
    out: Counter[int] = Counter(state.display)
    out.update(state.deck)
    out.update(state.removed_cards)
    for p in state.players:
        out.update(c.number for c in p.cards)
        out.update(p.discards)
    return out


# ---------------------------------------------------------------------------
# Conservation and sanity
# ---------------------------------------------------------------------------


def problems(ctx: Context, state: AerState) -> list[str]:
    """Every violation of the digest's invariants (AER-INV-01..10) this layer can see, each naming its rule."""
    out: list[str] = []
    pack = ctx.pack
    n = len(state.players)
    if not pack.min_players <= n <= pack.max_players:
        out.append(f"AER-R-01: {n} players; the game seats {pack.min_players} to {pack.max_players}")
    out += _player_problems(ctx, state)
    out += _map_problems(ctx, state)
    out += _card_problems(ctx, state)
    out += _passenger_problems(ctx, state)
    out += _advantage_problems(ctx, state)
    out += _turn_problems(state)
    if not 1 <= state.era <= 3:
        out.append(f"AER-R-01: era {state.era}; the game has eras 1 to 3")
    if not 0 <= state.subsidy_pool <= pack.subsidy_pool:
        out.append(f"AER-R-02: {state.subsidy_pool} subsidy notes; the section takes 0 to {pack.subsidy_pool}")
    if state.marker_in_pool == (state.marker_taker is not None):
        out.append("AER-R-48: the black subsidy marker must be either in the subsidy section or taken by one player")
    if not state.marker_in_pool and state.subsidy_pool:
        out.append(f"AER-R-48: the marker was taken with {state.subsidy_pool} notes still in the subsidy section")
    for seat in (state.first_player, state.to_move, state.marker_taker, state.die_roller):
        if seat is not None and not 0 <= seat < n:
            out.append(f"AER-R-04: seat {seat} is not at the table of {n}")
    if not 0 <= state.turns_in_round <= n:
        out.append(f"AER-R-04: {state.turns_in_round} actions in a round of {n} players")
    return out


def _player_problems(ctx: Context, state: AerState) -> list[str]:
    out: list[str] = []
    homes = [p.home for p in state.players if p.home is not None]
    if len(homes) != len(set(homes)):
        out.append(f"AER-SET-03: two home tiles in the same start city ({sorted(homes)})")
    between_actions = state.phase not in (Phase.RISK_ROLL, Phase.COVER)
    for seat, p in enumerate(state.players):
        where = f"seat {seat}"
        for stage in (1, 2, 3):
            supply = p.supply[stage - 1]
            cards = tiles_on_cards(ctx, p, stage)
            placed = tiles_on_map(state, seat, stage)
            want = ctx.tiles_per_stage(stage)
            if supply < 0 or supply + cards + placed != want:
                out.append(
                    f"{where}: AER-R-11: stage {stage}: {supply} in supply + {cards} on cards + {placed} on the map,"
                    f" expected {want}"
                )
        home_tiles = tiles_on_map(state, seat, HOME)
        if p.home is None:
            if home_tiles:
                out.append(f"{where}: AER-SET-03: a home tile on the map but no home city chosen")
        else:
            if p.home not in ctx.pack.start_cities:
                out.append(f"{where}: AER-SET-03: home {p.home!r} is not a start city")
            elif home_tiles != 1 or not any(
                a is not None and a.owner == seat and a.stage == HOME for a in state.slots(p.home)
            ):
                out.append(f"{where}: AER-SET-03: the home tile must be on the map once, in {p.home}")
        if p.money < 0:
            out.append(f"{where}: AER-R-08: money {p.money} below 0 (every payment needs the money, AER-INV-08)")
        if p.vp < 0:
            out.append(f"{where}: AER-R-49: {p.vp} VP below 0 (VP are only ever added, AER-INV-08)")
        if p.engine_failures < 0 or (between_actions and p.engine_failures >= ctx.pack.risk.engine_failure_limit):
            out.append(
                f"{where}: AER-R-28: {p.engine_failures} engine-failure tiles"
                f" (at {ctx.pack.risk.engine_failure_limit} they are all discarded at once)"
            )
        for card in p.cards:
            printed = ctx.pack.card(card.number)
            if card.tiles < 0:
                out.append(f"{where}: AER-R-09: card {card.number} holds {card.tiles} airport tiles")
            used, room = load(ctx, card), capacity(ctx, card)
            if used > room:
                out.append(f"{where}: AER-R-36: card {card.number} carries {used} on a capacity of {room}")
            if card.excess is not None and not 0 <= card.excess <= printed.capacity:
                out.append(
                    f"{where}: AER-R-55: card {card.number} face down with {card.excess} excess markers"
                    f" (printed capacity {printed.capacity})"
                )
        numbers = [c.number for c in p.cards]
        if numbers != sorted(numbers):
            out.append(f"{where}: AER-R-11: owned cards must be kept by number, got {numbers}")
    return out


def _map_problems(ctx: Context, state: AerState) -> list[str]:
    out: list[str] = []
    n = len(state.players)
    names = [s.destination for s in state.map]
    want = [d.name for d in ctx.pack.destinations]
    if names != want:
        out.append(f"AER-R-29: the map's destinations {names} are not the pack's {want}")
        return out
    paid = Counter(a for a, _ in state.americas_paid)
    for america, count in paid.items():
        if count > ctx.pack.americas_bonus.first_players:
            out.append(f"AER-R-31: {count} Americas bonuses paid for {america}")
    if len(set(state.americas_paid)) != len(state.americas_paid):
        out.append("AER-R-31: a player was paid twice for the same America")
    for slots, dest in zip(state.map, ctx.pack.destinations, strict=True):
        if len(slots.slots) != dest.slots:
            out.append(f"AER-R-29: {dest.name} has {len(slots.slots)} slots; the board prints {dest.slots}")
            continue
        owners = [a.owner for a in slots.slots if a is not None and a.owner != BLOCKER]
        if len(owners) != len(set(owners)):
            out.append(f"AER-R-29: a player has two tiles in {dest.name}")
        blocked = dest.slots - dest.slots_in_play(n)
        for i, a in enumerate(slots.slots):
            four_five = i >= dest.slots - blocked
            if four_five and a != Airport(BLOCKER, HOME):
                out.append(f"AER-SET-04: with 3 players the 4/5 slot {i} of {dest.name} holds a blocker for the game")
            if a is None or four_five:
                continue
            if a.owner == BLOCKER:
                out.append(f"AER-SET-04: a blocker in slot {i} of {dest.name}, not a 3-player 4/5 slot")
            elif not 0 <= a.owner < n:
                out.append(f"AER-R-29: a tile of seat {a.owner} in {dest.name}, not at the table")
            elif a.stage == HOME and state.players[a.owner].home != dest.name:
                out.append(f"AER-SET-03: seat {a.owner}'s home tile in {dest.name}, not in its home city")
            elif a.stage not in (HOME, 1, 2, 3):
                out.append(f"AER-R-29: a stage-{a.stage} tile in {dest.name}")
    return out


def _card_problems(ctx: Context, state: AerState) -> list[str]:
    out: list[str] = []
    seen = cards_in_play(state)
    want = Counter(c.number for c in ctx.pack.cards)
    if seen != want:
        extra = sorted((seen - want).elements())
        missing = sorted((want - seen).elements())
        out.append(f"AER-R-10: cards not conserved: extra {extra}, missing {missing} (AER-INV-04)")
    if list(state.display) != sorted(set(state.display)):
        out.append(f"AER-R-08: the display must be in ascending number order, got {list(state.display)}")
    if list(state.deck) != sorted(set(state.deck)):
        out.append("AER-SET-08: the deck is kept as a sorted remainder")
    if state.display and state.deck and min(state.deck) < max(state.display):
        out.append("AER-R-10: a deck card is lower than a display card (the deck is in number order, AER-SET-08)")
    if len(state.display) > ctx.pack.display_size:
        out.append(f"AER-SET-08: {len(state.display)} cards on display; it holds {ctx.pack.display_size}")
    return out


def _passenger_problems(ctx: Context, state: AerState) -> list[str]:
    out: list[str] = []
    seen = passengers_in_play(state)
    want = Counter(p.id for p in ctx.pack.passengers)
    if seen != want:
        extra = sorted((seen - want).elements())
        missing = sorted((want - seen).elements())
        out.append(f"AER-R-56: passenger tiles not conserved: extra {extra}, missing {missing} (AER-INV-05)")
    for label, pile in (("bag", state.bag), ("removed", state.removed_passengers)):
        if list(pile) != sorted(pile):
            out.append(f"AER-SET-01: the {label} pile is kept sorted (it is unordered)")
    cap = ctx.pack.waiting_area.overflow_capacity
    if len(state.overflow) > cap:
        out.append(f"AER-R-57: {len(state.overflow)} tiles in the overflow area; moves stop at {cap}")
    before_update = state.era == 1 and state.marker_in_pool  # the era-1 update starts with the marker
    if before_update and state.overflow:
        out.append("AER-SET-01: the overflow area starts empty and is first filled at the era-1 update (AER-R-57)")
    cities = [w.city for w in state.waiting]
    if cities != list(ctx.pack.waiting_area.section_order):
        out.append(f"AER-R-58: the waiting sections {cities} are not the board's {ctx.pack.waiting_area.section_order}")
    for w in state.waiting:
        if len(w.slots) != ctx.pack.waiting_area.slots_per_city:
            out.append(f"AER-SET-01: {w.city}'s waiting section has {len(w.slots)} slots")
    if before_update:
        marked = sorted(
            t
            for w in state.waiting
            for t in w.slots
            if t is not None and ctx.pack.passenger(t).not_in_era_1 and t in want
        )
        if marked:
            out.append(f"AER-SET-01: ¤ tiles {marked} in the waiting area during era 1 (AER-AMB-31)")
    return out


def _advantage_problems(ctx: Context, state: AerState) -> list[str]:
    out: list[str] = []
    for i, kind in enumerate(ADVANTAGE_TYPE_IDS):
        advantage = ctx.pack.advantage(kind)
        supply = state.advantage_supply[i]
        held = sum(p.advantages[i] for p in state.players)
        if supply < 0 or any(p.advantages[i] < 0 for p in state.players) or supply + held != advantage.count:
            out.append(
                f"AER-R-40: type {kind} ({advantage.name}): {supply} in supply + {held} held,"
                f" expected {advantage.count} (AER-INV-07)"
            )
        if held and state.era < advantage.first_era:
            out.append(f"AER-R-40: {advantage.name} held in era {state.era}; available from era {advantage.first_era}")
    return out


def _turn_problems(state: AerState) -> list[str]:
    """The bookkeeping of the action in progress belongs to its phase (AER-R-39, R-46, R-47)."""
    out: list[str] = []
    turn = state.turn
    if turn.claims_left < 0 or (turn.claims_left and state.phase is not Phase.CLAIMING):
        out.append(f"AER-R-46: {turn.claims_left} Night Flights claims open outside a claim action")
    if (turn.advantage_dice is not None) != (state.phase is Phase.ADVANTAGE_PICK):
        out.append("AER-R-39: the dice of an advantage roll wait for their picks only in the pick step")
    attempt = turn.attempt
    if attempt is not None and attempt.pending:
        if state.phase is not Phase.COVER or attempt.throw is None:
            out.append("AER-R-47: a throw waits to be kept or re-thrown only just after it is thrown")
        elif state.players[state.to_move].held(6) < 1:
            out.append("AER-R-47: a throw waits for a Radio Beacons re-throw, but none is held")
    return out


__all__ = [
    "ADVANTAGE_TYPE_IDS",
    "BLOCKER",
    "FRESH_TURN",
    "HOME",
    "AerState",
    "Airport",
    "Attempt",
    "MapMemo",
    "OwnedCard",
    "Phase",
    "PlayerState",
    "Slots",
    "SlotsMemo",
    "TurnState",
    "Waiting",
    "capacity",
    "cards_in_play",
    "evolve",
    "evolve_player",
    "evolve_state",
    "load",
    "map_with",
    "passengers_in_play",
    "problems",
    "tiles_on_cards",
    "tiles_on_map",
]
