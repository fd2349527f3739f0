"""Named invariants of Aeroplanes: Aviation Ascendant states, in the style of python-chess ``status()``.

Each check is a small function ``(game, state) -> list[Violation]`` that
recounts a fact of the rules digest (section 3.11, AER-INV-01..10, and the
rules it summarises) straight from the state and the game's rules context
(its component pack and readings, ``game.ctx``),
without calling the model's transition code (nor ``state.problems``), so that a
wrong transition shows up as a violation.  ``check_all`` returns every
violation at once, and ``report`` words them for a person::

    from rulecraft.invariants.aeroplanes import check_all, report

    violations = check_all(game, state)
    assert not violations, report(violations, where="after step 37")

``INVARIANTS`` lists the single-state checks in order: name -> (rules, check,
doc).  Facts that need two states (home tiles and blockers never leave the
map, tiles replaced only by a higher stage, VP never falls, money moves only
with the player acting or at an Income step, subsidy notes go one at a time to
the player taking them, the era moves one step on) are ``STEP_INVARIANTS`` and
``check_step(game, before, after)``.

``check_legality(game, state, candidates)`` holds the two legality layers to
agreement (python-chess's pseudo-legal / legal split): every action
``legal_actions`` lists passes ``check``, a chance step lists exactly its
outcomes with odds summing to 1, and every candidate ``check`` accepts is
listed.

Left out, because the state cannot express it (no field is invented):

* the bank: the state keeps no bank total, so money is checked as never
  negative, moving only with the player acting, and paid exactly by the
  Income steps (AER-R-03, R-59) and the subsidy notes (AER-R-48); the price
  paid for a card or a cover is not visible from two states without the action;
* VP sources: the state keeps only a VP total, so VP is checked as never
  negative, equal to the Americas bonuses before the first era scoring, at
  least those bonuses afterwards, and never falling;
* which tile was lost in an engine-failure collapse (it goes back to the
  supply, AER-R-28), and which cards a discard pile held full (AER-R-54): both
  are recounted only through the tile and card conservation;
* the EF supply and the excess-passenger markers are not separate piles in the
  state: held EF tiles are bounded by the component count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from rulecraft.invariant import InvariantSpec, Registry, StepSpec, Violation, report
from rulecraft.model.aeroplanes.actions import AerAction
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import CHANCE_PHASES, check, legal_actions
from rulecraft.model.aeroplanes.setup import chance_outcomes
from rulecraft.model.aeroplanes.state import (
    ADVANTAGE_TYPE_IDS,
    BLOCKER,
    HOME,
    AerState,
    Airport,
    OwnedCard,
    Phase,
    TurnState,
)

if TYPE_CHECKING:
    from rulecraft.model.aeroplanes.game import AeroplanesGame

__all__ = [
    "INVARIANTS",
    "STEP_INVARIANTS",
    "InvariantSpec",
    "StepSpec",
    "Violation",
    "check_advantages",
    "check_airport_tiles",
    "check_all",
    "check_americas_bonus",
    "check_cards",
    "check_engine_failures",
    "check_era_advances",
    "check_era_and_phase",
    "check_home_tiles_stay",
    "check_legality",
    "check_money",
    "check_money_moves",
    "check_passengers",
    "check_plane_capacity",
    "check_replacements",
    "check_slots",
    "check_step",
    "check_subsidy_marker",
    "check_subsidy_notes",
    "check_turn_bookkeeping",
    "check_turn_order",
    "check_vp",
    "check_vp_never_decreases",
    "report",
]

SETUP_PHASES = (Phase.DEAL_PASSENGERS, Phase.FIRST_PLAYER, Phase.CHOOSE_HOME)  # AER-SET-01..10
# A seat's action is under way: the seat to move is the one acting (AER-R-07).
ACTING_PHASES = (
    Phase.ACTION,
    Phase.PLACING,
    Phase.RISK_ROLL,
    Phase.COVER,
    Phase.ADVANTAGE_ROLL,
    Phase.ADVANTAGE_PICK,
    Phase.CLAIMING,
)
TURN_PHASES = (*ACTING_PHASES, Phase.CARD_DRAW)  # the refill after a purchase is still that turn (AER-R-10)
UPDATE_PHASES = (Phase.UPDATE_DRAW, Phase.REFILL)  # only after the marker is taken (AER-R-53, R-58)
ATTEMPT_PHASES = (Phase.RISK_ROLL, Phase.COVER)  # an attempt waits on a roll or its cover (AER-R-20, R-23)
ERAS = (1, 2, 3)  # AER-R-01
RADIO_BEACONS = 6  # advantage type 6 (l.160, AER-R-47)


def _same_players(before: AerState, after: AerState) -> str | None:
    """A step never changes the number of players: states that differ there are not compared."""
    if len(before.players) != len(after.players):
        return f"{len(before.players)} players before the step, {len(after.players)} after"
    return None


def _rules_context(game: AeroplanesGame) -> Context:
    """What the recounts read: the game's pack and readings."""
    return game.ctx


_REGISTRY = Registry(_same_players, subject=_rules_context)
INVARIANTS: dict[str, InvariantSpec] = _REGISTRY.invariants
STEP_INVARIANTS: dict[str, StepSpec] = _REGISTRY.steps
_invariant = _REGISTRY.invariant
_step_invariant = _REGISTRY.step


def check_all(game: AeroplanesGame, state: AerState) -> list[Violation]:
    """Every violation of every registered single-state invariant, in registry order."""
    return _REGISTRY.check_all(game, state)


def check_step(game: AeroplanesGame, before: AerState, after: AerState) -> list[Violation]:
    """Every violation of the two-state invariants for one step ``before`` -> ``after``."""
    return _REGISTRY.check_step(game, before, after)


# -- helpers ----------------------------------------------------------------------


def _seats(state: AerState) -> range:
    return range(len(state.players))


def _tiles(state: AerState) -> Iterator[tuple[str, int, Airport]]:
    """Every tile on the map as (destination, slot, tile)."""
    for s in state.map:
        for i, a in enumerate(s.slots):
            if a is not None:
                yield s.destination, i, a


def _on_cards(ctx: Context, cards: Iterable[OwnedCard], stage: int) -> int:
    return sum(c.tiles for c in cards if ctx.pack.card(c.number).tile_stage == stage)


def _load(ctx: Context, card: OwnedCard) -> int:
    return sum(ctx.pack.passenger(t).capacity for t in card.passengers)


def _capacity(ctx: Context, card: OwnedCard) -> int:
    """AER-R-36 face up; AER-R-55 face down: the excess markers are the card's capacity."""
    return card.excess if card.excess is not None else ctx.pack.card(card.number).capacity


def _before_first_update(state: AerState) -> bool:
    """Era 1 and the black marker still in the subsidy section: no era has been scored or updated."""
    return state.era == 1 and state.marker_in_pool


def _updates_done(ctx: Context, state: AerState) -> int:
    """Era updates run so far (AER-R-53): one per era ended, the running one included; none after era 3
    (AER-AMB-45 'run': era 3's update runs too before the game ends)."""
    over = state.phase is Phase.OVER and ctx.r("AER-AMB-45") != "run"  # AER-AMB-45
    running = 0 if state.marker_in_pool or over else 1
    return state.era - 1 + running


def _acting(state: AerState) -> int | None:
    """The seat whose action is under way in ``state`` (None: set-up, chance between actions, update)."""
    if state.phase in ACTING_PHASES and 0 <= state.to_move < len(state.players):
        return state.to_move
    return None


def _income_paid(before: AerState, after: AerState) -> bool:
    """An Income step (AER-R-02, R-03) ran in this step: the action round of an era starts, from the
    set-up's last home choice (AER-SET-10), after an era's update (the marker was out) or in the same
    step as the era marker moved on."""
    if after.phase is not Phase.ACTION:
        return False
    return before.phase is Phase.CHOOSE_HOME or after.era > before.era or not before.marker_in_pool


def _income_due(ctx: Context, before: AerState, after: AerState, seat: int) -> int:
    """The money a seat must gain in one step outside its own action: the Income step's amount, and under
    AER-AMB-03 ``twice`` the update's step 7 as well (AER-R-59), paid when the era marker moves."""
    home = after.players[seat].home or ""
    due = ctx.pack.income.amount(after.era, home) if _income_paid(before, after) else 0
    if after.era > before.era and ctx.r("AER-AMB-03") == "twice":
        due += ctx.pack.income.by_era[after.era - 1]  # era 2 or 3: no home modifier (AER-R-03)
    return due


def _era_scored(before: AerState, after: AerState) -> bool:
    """The black marker was taken in this step, so the era was scored (AER-R-06, R-48, R-49)."""
    if before.marker_in_pool and not after.marker_in_pool:
        return True
    return after.era > before.era and before.marker_in_pool


# -- the invariants ---------------------------------------------------------------


def check_era_and_phase(ctx: Context, state: AerState) -> Iterator[str]:
    """Era 1..3 and a round of 1 or more; set-up only in era 1, before anyone holds anything; update steps
    only with the marker taken; the game over only after era 3's marker.

    The set-up phases (AER-SET-01..10) come before the era-1 Income step: no money, no VP, no cards,
    the subsidy section empty (AER-SET-10), the bag holding what the waiting area does not.
    """
    n = len(state.players)
    if not ctx.pack.min_players <= n <= ctx.pack.max_players:
        yield f"{n} players; the game is for {ctx.pack.min_players} to {ctx.pack.max_players} (AER-R-01)"
    if state.era not in ERAS:
        yield f"era {state.era}; the game has eras 1 to 3"
    if state.round < 1:
        yield f"round {state.round}"
    if state.phase in SETUP_PHASES:
        if state.era != 1 or state.round != 1:
            yield f"set-up phase {state.phase.value} in era {state.era}, round {state.round}"
        holding = [s for s, p in enumerate(state.players) if p.money or p.vp or p.cards or p.discards or p.banked]
        if holding:
            yield f"seats {holding} hold money, VP, cards or passengers during the set-up (AER-SET-09, SET-10)"
        if state.subsidy_pool or not state.marker_in_pool:
            yield f"the subsidy section holds {state.subsidy_pool} notes during the set-up; the Income step fills it"
        if state.phase is not Phase.CHOOSE_HOME and any(p.home is not None for p in state.players):
            yield f"a home city chosen in phase {state.phase.value}, before the first player is drawn"
    if state.phase in UPDATE_PHASES and state.marker_in_pool:
        yield f"update phase {state.phase.value} with the black marker still in the subsidy section"
    if state.phase is Phase.OVER and (state.era != 3 or state.marker_in_pool):
        yield f"the game is over in era {state.era} with the marker {'in the pool' if state.marker_in_pool else 'out'}"
    if not state.marker_in_pool and state.phase not in (*UPDATE_PHASES, Phase.ROUND_DIE, Phase.OVER):
        yield f"the marker is taken but play goes on in phase {state.phase.value} (AER-R-06: the round ends at once)"


_invariant("era-and-phase", "AER-R-01", "AER-R-06", "AER-R-53", "AER-R-58", "AER-R-63", "AER-SET-10")(
    check_era_and_phase
)


def check_turn_order(ctx: Context, state: AerState) -> Iterator[str]:
    """Seats in range; the seat to move is the first player's k-th left neighbour after k actions of the
    round; the die roller is the first player between rounds and the marker-taker after an update.

    During the home choices the seats that chose are the first player's right neighbours counter-clockwise,
    the first player last (AER-SET-03).
    """
    n = len(state.players)
    for name, seat in (
        ("to_move", state.to_move),
        ("first_player", state.first_player),
        ("marker_taker", state.marker_taker),
        ("die_roller", state.die_roller),
    ):
        if seat is not None and not 0 <= seat < n:
            yield f"{name} is seat {seat}, outside 0..{n - 1}"
    if not n:
        return
    turns = state.turns_in_round
    if not 0 <= turns <= n:
        yield f"{turns} actions in a round of {n} players"
    if state.phase is Phase.CHOOSE_HOME:
        chosen = {s for s, p in enumerate(state.players) if p.home is not None}
        k = len(chosen)
        want = {(state.first_player - 1 - j) % n for j in range(k)}
        if chosen != want:
            yield f"seats {sorted(chosen)} chose a home city; counter-clockwise from the first player: {sorted(want)}"
        chooser = (state.first_player - 1 - k) % n
        if state.to_move != chooser:
            yield f"seat {state.to_move} chooses a home after {k} choices; expected seat {chooser}"
    if state.phase in (*TURN_PHASES, *UPDATE_PHASES):
        if turns >= n:
            yield f"{turns} actions taken in a round of {n}, yet phase {state.phase.value}"
        elif state.to_move != (state.first_player + turns) % n:
            yield (
                f"seat {state.to_move} acts after {turns} actions of the round; clockwise from first player"
                f" {state.first_player} it is seat {(state.first_player + turns) % n}"
            )
    if (state.die_roller is None) == (state.phase is Phase.ROUND_DIE):
        yield f"die roller {state.die_roller} in phase {state.phase.value}"
    if state.phase is Phase.ROUND_DIE and state.die_roller is not None:
        if state.marker_in_pool:
            if state.die_roller != state.first_player:
                yield f"seat {state.die_roller} rolls between rounds; the first player is seat {state.first_player}"
            if turns != n:
                yield f"the die is rolled after {turns} of {n} actions of the round"
        elif state.die_roller != state.marker_taker:
            yield f"seat {state.die_roller} rolls after the update; the marker-taker is seat {state.marker_taker}"


_invariant("turn-order", "AER-R-04", "AER-R-05", "AER-R-62", "AER-SET-03")(check_turn_order)


def check_airport_tiles(ctx: Context, state: AerState) -> Iterator[str]:
    """Per player and stage: supply + on own cards + on the map = the pack's count (9); one home tile each.

    Rulebook (seed 002): 9 tiles of each stage a player (l.66), the home tile in a start city (l.24).

    The count per stage is ``ctx.tiles_per_stage`` (the pack's, one fewer of stage 1 under AER-AMB-02
    ``box-count``).  A lost tile (engine failure, AER-R-28), a replaced one (AER-AMB-15) and the tiles
    of a discarded card (AER-AMB-41 ``supply``) are back in the supply, so no "lost" pile exists.
    A seat with a home city has exactly the pack's home tiles on the map, in that city; a seat without
    one has none; home cities are start cities, one player each.
    """
    tiles = [(d, a.owner, a.stage) for d, _, a in _tiles(state)]  # the map read once, not per seat and stage
    for seat, p in enumerate(state.players):
        mine = [(d, stage) for d, owner, stage in tiles if owner == seat]
        stages = [s for _, s in mine]
        for stage in (1, 2, 3):
            supply = p.supply[stage - 1]
            cards = _on_cards(ctx, p.cards, stage)
            placed = stages.count(stage)
            want = ctx.tiles_per_stage(stage)
            if supply < 0 or supply + cards + placed != want:
                yield (
                    f"seat {seat}, stage {stage}: supply {supply} + on cards {cards} + on the map {placed}"
                    f" = {supply + cards + placed}, expected {want}"
                )
        homes = [d for d, s in mine if s == HOME]
        if p.home is None:
            if homes:
                yield f"seat {seat} has home tiles in {homes} but no home city"
        else:
            if p.home not in ctx.pack.start_cities:
                yield f"seat {seat}'s home {p.home} is not a start city"
            if homes != [p.home] * ctx.pack.airport_tiles.home_tiles_per_player:
                yield f"seat {seat} (home {p.home}) has home tiles in {homes}"
    chosen = [p.home for p in state.players if p.home is not None]
    for city in dict.fromkeys(chosen):  # each city once, in seat order (a Counter costs more to build)
        times = chosen.count(city)
        if times > 1:
            yield f"{times} players have their home in {city} (AER-SET-03: a free start city each)"


_invariant("airport-tiles-conserved", "AER-R-11", "AER-R-09", "AER-R-28", "AER-R-29", "AER-SET-03", "AER-AMB-02")(
    check_airport_tiles
)


def check_slots(ctx: Context, state: AerState) -> Iterator[str]:
    """The pack's destinations and slots; at most one own tile per destination; 3-player blockers exactly on
    the "4/5" slots and nowhere else; tiles of seats at the table, of stage home or 1..3.

    Rulebook: the slot rules l.122-129, the "4/5" slots blocked with 3 players l.25.

    "One tile per slot" is structural (a slot holds one entry): the check makes sure every entry is an
    airport tile and each destination has its printed slot count.
    """
    n = len(state.players)
    names = [s.destination for s in state.map]
    want = [d.name for d in ctx.pack.destinations]
    if names != want:
        yield f"the map's destinations {names} are not the pack's {want}"
        return
    seats = range(n)
    for slots, dest in zip(state.map, ctx.pack.destinations, strict=True):
        if len(slots.slots) != dest.slots:
            yield f"{dest.name} has {len(slots.slots)} slots; the board prints {dest.slots}"
            continue
        in_play = dest.slots_in_play(n)
        entries: tuple[object, ...] = slots.slots  # a corrupt state may hold anything
        owners: list[int] = []
        for i, a in enumerate(entries):
            if a is not None and not isinstance(a, Airport):
                yield f"slot {i} of {dest.name} holds {a!r}, not one airport tile"
                continue
            if i >= in_play:
                if a != _BLOCKED:
                    yield f"slot {i} of {dest.name} is a 3-player '4/5' slot and holds {a!r}, not a blocker"
                continue
            if a is None:
                continue
            if a.owner == BLOCKER:
                yield f"a blocker in slot {i} of {dest.name}, which is in play with {n} players"
                continue
            if a.owner not in seats:
                yield f"a tile of seat {a.owner} in {dest.name}: no such seat"
            if a.stage not in (HOME, 1, 2, 3):
                yield f"a stage-{a.stage} tile of seat {a.owner} in {dest.name}"
            if a.stage == HOME and a.owner in seats and state.players[a.owner].home != dest.name:
                yield f"seat {a.owner}'s home tile in {dest.name}, not in its home city"
            owners.append(a.owner)
        for owner in dict.fromkeys(owners):  # each seat once, in slot order (a Counter costs more to build)
            times = owners.count(owner)
            if times > 1:
                yield f"seat {owner} has {times} tiles in {dest.name}; at most one (AER-R-29 c)"


# What a "4/5" slot holds with 3 players (AER-SET-04): built once, compared with every such slot.
_BLOCKED = Airport(BLOCKER, HOME)

_invariant("one-tile-per-slot", "AER-R-29", "AER-SET-03", "AER-SET-04")(check_slots)


def check_money(ctx: Context, state: AerState) -> Iterator[str]:
    """No player's money below £0: every payment (a card, a cover, an advantage) needs the money.

    The state keeps no bank total, so the bank side is not recounted; the step invariant
    ``money-moves-with-the-mover`` checks how money may change.
    """
    for seat, p in enumerate(state.players):
        if p.money < 0:
            yield f"seat {seat} has £{p.money}"


_invariant("money", "AER-R-08", "AER-R-23", "AER-R-39", "AER-SET-10")(check_money)


def check_subsidy_marker(ctx: Context, state: AerState) -> Iterator[str]:
    """The subsidy section holds 0..8 notes; the black marker is in it xor held by exactly one taker, who took
    it only from an empty section; from the era's start the notes taken are 8 minus those left.

    While the marker is out the era is over: the section stays empty until the next Income step (AER-R-61).
    Rulebook: eight £1 notes and the marker each era l.40, the subsidy action l.163, the era's end l.52-53.
    """
    full = ctx.pack.subsidy_pool
    if not 0 <= state.subsidy_pool <= full:
        yield f"{state.subsidy_pool} notes in the subsidy section; it takes 0 to {full}"
    if state.marker_in_pool == (state.marker_taker is not None):
        where = "in the subsidy section" if state.marker_in_pool else "out of the section"
        yield f"the black marker is {where} and its taker is {state.marker_taker}"
    if not state.marker_in_pool and state.subsidy_pool:
        yield f"the marker was taken with {state.subsidy_pool} notes still in the subsidy section"


_invariant("subsidy-pool-and-marker", "AER-R-02", "AER-R-06", "AER-R-48", "AER-R-61", "AER-SET-07")(
    check_subsidy_marker
)


def check_passengers(ctx: Context, state: AerState) -> Iterator[str]:
    """Bag + waiting area + overflow + on owned cards + banked + out of the game = the pack's tiles (96).

    Also: the waiting sections in board order with their slot counts; at most 8 in the overflow (AER-R-57),
    all bound outside Europe and none before the first update; no ¤ tile waiting before the first update
    (AER-SET-01, AER-AMB-31); banked tiles score VP and the tiles out of the game score none (AER-R-56);
    the unordered piles are kept sorted.  Rulebook: 96 tiles l.11, the deal l.23, the update l.175-178.
    """
    # Every tile gathered into one list and counted once (one Counter update per pile cost more).
    tiles = [*state.bag, *(t for w in state.waiting for t in w.slots if t is not None)]
    tiles += state.overflow
    tiles += state.removed_passengers
    for p in state.players:
        tiles += p.banked
        tiles += [t for c in p.cards for t in c.passengers]
    seen: Counter[str] = Counter(tiles)
    want = Counter([t.id for t in ctx.pack.passengers])
    if dict(seen) != dict(want):  # dicts compared in C (Counter's own == loops in Python); no count is 0
        extra = sorted((seen - want).elements())
        missing = sorted((want - seen).elements())
        yield (
            f"{sum(seen.values())} passenger tiles in play, the pack has {len(ctx.pack.passengers)}:"
            f" extra {extra}, missing {missing}"
        )
    known = set(want)
    area = ctx.pack.waiting_area
    if [w.city for w in state.waiting] != list(area.section_order):
        yield f"waiting sections {[w.city for w in state.waiting]}, the board's are {list(area.section_order)}"
    for w in state.waiting:
        if len(w.slots) != area.slots_per_city:
            yield f"{w.city}'s waiting section has {len(w.slots)} slots, the board {area.slots_per_city}"
    if len(state.overflow) > area.overflow_capacity:
        yield f"{len(state.overflow)} tiles in the overflow area; it stops at {area.overflow_capacity}"
    for t in state.overflow:
        if t in known and ctx.europe(ctx.pack.passenger(t).destination):
            yield f"{t} in the overflow area is bound for {ctx.pack.passenger(t).destination}, in Europe"
    if _before_first_update(state):
        if state.overflow:
            yield f"{len(state.overflow)} tiles in the overflow area before the first update"
        marked = sorted(
            t for w in state.waiting for t in w.slots if t is not None and t in known and ctx.not_in_era_1(t)
        )
        if marked:
            yield f"¤ tiles {marked} wait during era 1"
    for seat, p in enumerate(state.players):
        worthless = [t for t in p.banked if t in known and ctx.pack.passenger(t).vp <= 0]
        if worthless:
            yield f"seat {seat} banked 0-VP tiles {worthless}; they leave the game"
    scoring = [t for t in state.removed_passengers if t in known and ctx.pack.passenger(t).vp > 0]
    if scoring:
        yield f"tiles worth VP {scoring} are out of the game; they go beside the discard pile"
    piles = [("bag", state.bag), ("out of the game", state.removed_passengers)]
    piles += [(f"seat {s}'s banked", p.banked) for s, p in enumerate(state.players)]
    for label, pile in piles:
        if list(pile) != sorted(pile):
            yield f"the {label} pile is not kept sorted"


_invariant("passengers-conserved", "AER-SET-01", "AER-R-34", "AER-R-56", "AER-R-57", "AER-R-58", "AER-AMB-31")(
    check_passengers
)


def check_plane_capacity(ctx: Context, state: AerState) -> Iterator[str]:
    """The passengers on each owned card need at most its capacity (face down: the excess markers); a face-down
    card shows 0..printed capacity excess markers, and carries nothing under AER-AMB-42 ``closed``.

    Face-down cards exist only once an update has run (AER-R-55).  Rulebook: l.146-148, l.174.
    """
    closed = ctx.r("AER-AMB-42") == "closed"
    for seat, p in enumerate(state.players):
        for card in p.cards:
            printed = ctx.pack.card(card.number).capacity
            used, room = _load(ctx, card), _capacity(ctx, card)
            if used > room:
                side = "face down" if card.face_down else "face up"
                yield f"seat {seat}'s card {card.number} ({side}) carries {used} on a capacity of {room}"
            if card.excess is not None:
                if not 0 <= card.excess <= printed:
                    yield f"seat {seat}'s card {card.number} shows {card.excess} excess markers (capacity {printed})"
                if closed and card.passengers:
                    carried = list(card.passengers)
                    yield f"seat {seat}'s face-down card {card.number} carries {carried} (AER-AMB-42 closed)"
                if _updates_done(ctx, state) == 0:
                    yield f"seat {seat}'s card {card.number} is face down before any update"


_invariant("plane-capacity", "AER-R-36", "AER-R-55", "AER-AMB-42")(check_plane_capacity)


def check_cards(ctx: Context, state: AerState) -> Iterator[str]:
    """Display + deck + owned + discarded + removed at the updates = the pack's 46 cards, each once.

    The display is strictly increasing, at most 12, full whenever the deck holds a card (outside the draws
    of AER-R-10 and R-53); every deck card is higher than every display card (the deck is in number order,
    AER-SET-08); owned cards are kept by number; a card holds 0..its printed tile count airport tiles (one
    more with Increased Production, AER-R-45); at most 2 cards leave the display per update done.
    """
    # Every card gathered into one list and counted once (one Counter update per pile cost more).
    numbers = [*state.display, *state.deck, *state.removed_cards]
    for p in state.players:
        numbers += [c.number for c in p.cards]
        numbers += p.discards
    seen: Counter[int] = Counter(numbers)
    want = Counter([c.number for c in ctx.pack.cards])
    if dict(seen) != dict(want):  # dicts compared in C (Counter's own == loops in Python); no count is 0
        extra = sorted((seen - want).elements())
        missing = sorted((want - seen).elements())
        yield f"cards not conserved: extra {extra}, missing {missing}"
    display = list(state.display)
    if display != sorted(set(display)):
        yield f"the display {display} is not strictly increasing"
    if list(state.deck) != sorted(set(state.deck)):
        yield "the deck is not kept as a sorted remainder"
    if display and state.deck and min(state.deck) < max(display):
        yield f"deck card {min(state.deck)} is lower than display card {max(display)}"
    size = ctx.pack.display_size
    if len(display) > size:
        yield f"{len(display)} cards on display; it holds {size}"
    drawing = state.phase in (Phase.CARD_DRAW, Phase.UPDATE_DRAW)
    if state.deck and len(display) < size and not drawing:
        yield f"{len(display)} cards on display with {len(state.deck)} in the deck, in phase {state.phase.value}"
    most = ctx.pack.era_end_discards * _updates_done(ctx, state)
    if len(state.removed_cards) > most:
        yield f"{len(state.removed_cards)} cards removed from the display after {_updates_done(ctx, state)} updates"
    for seat, p in enumerate(state.players):
        numbers = [c.number for c in p.cards]
        if numbers != sorted(set(numbers)):
            yield f"seat {seat}'s cards {numbers} are not kept by number"
        if list(p.discards) != sorted(p.discards):
            yield f"seat {seat}'s discard pile is not kept sorted"
        for c in p.cards:
            top = ctx.pack.card(c.number).tile_count + 1
            if not 0 <= c.tiles <= top:
                yield f"seat {seat}'s card {c.number} holds {c.tiles} airport tiles; it loads at most {top}"


_invariant("cards-conserved", "AER-R-08", "AER-R-09", "AER-R-10", "AER-R-45", "AER-R-53", "AER-SET-08")(check_cards)


def check_advantages(ctx: Context, state: AerState) -> Iterator[str]:
    """Per type 2..6: supply + held by the players = the pack's stack (6); none held before its first era.

    A played tile goes back to the supply (AER-R-41), so there is no discard pile to add.
    Rulebook: six tiles of each type l.16, l.27; the first eras l.155-160; back to the supply l.161.
    """
    if len(state.advantage_supply) != len(ADVANTAGE_TYPE_IDS):
        yield f"advantage supply {state.advantage_supply} is not one stack per type {ADVANTAGE_TYPE_IDS}"
        return
    for i, kind in enumerate(ADVANTAGE_TYPE_IDS):
        advantage = ctx.pack.advantage(kind)
        supply = state.advantage_supply[i]
        held = [p.advantages[i] for p in state.players]
        if supply < 0 or min(held, default=0) < 0 or supply + sum(held) != advantage.count:
            yield f"type {kind} ({advantage.name}): supply {supply} + held {held} != {advantage.count}"
        if sum(held) and state.era < advantage.first_era:
            yield f"{advantage.name} held in era {state.era}; it is available from era {advantage.first_era}"


_invariant("advantage-tiles-conserved", "AER-SET-06", "AER-R-39", "AER-R-40", "AER-R-41")(check_advantages)


def check_engine_failures(ctx: Context, state: AerState) -> Iterator[str]:
    """Every player holds 0..3 engine-failure tiles (the 4th collapses the attempt and discards them all), and
    all players together no more than the box's EF tiles (l.113-117)."""
    limit = ctx.pack.risk.engine_failure_limit
    for seat, p in enumerate(state.players):
        if not 0 <= p.engine_failures < limit:
            yield f"seat {seat} holds {p.engine_failures} EF tiles; at {limit} they are all discarded"
    total = sum(p.engine_failures for p in state.players)
    if total > ctx.pack.supplies.engine_failure_tiles:
        yield f"{total} EF tiles held; the box has {ctx.pack.supplies.engine_failure_tiles}"


_invariant("engine-failures", "AER-R-28", "AER-SET-05")(check_engine_failures)


def check_turn_bookkeeping(ctx: Context, state: AerState) -> Iterator[str]:
    """An attempt exists exactly while a roll or its cover is due, from an owned card holding the tile, to a
    destination slot in play; placements are counted only inside a placement action; advantage dice and
    Night Flights claims only in their phases; outside a seat's action the turn record is clear.

    A throw left pending (AER-AMB-26 ``reroll``) waits only in the cover step, for a held Radio Beacons.
    """
    turn = state.turn
    attempt = turn.attempt
    n = len(state.players)
    if (attempt is not None) != (state.phase in ATTEMPT_PHASES):
        yield f"attempt {attempt!r} in phase {state.phase.value}"
    if attempt is not None and 0 <= state.to_move < n:
        card = next((c for c in state.players[state.to_move].cards if c.number == attempt.card), None)
        if card is None or card.tiles < 1:
            yield f"the attempt's tile comes from card {attempt.card}; seat {state.to_move} holds no tile on it"
        if not attempt.rolls:
            yield "an attempt waits on a roll with none left to make (AER-R-25)"
        if (attempt.throw is not None) != (state.phase is Phase.COVER):
            yield f"a kept throw {attempt.throw} in phase {state.phase.value}"
        if attempt.pending and (state.phase is not Phase.COVER or attempt.throw is None):
            yield f"a throw waits to be kept or re-thrown in phase {state.phase.value} (AER-R-47)"
        elif attempt.pending and state.players[state.to_move].held(RADIO_BEACONS) < 1:
            yield "a throw waits for a Radio Beacons re-throw, but none is held (AER-R-47)"
        if attempt.spent < 0:
            yield f"the attempt has spent £{attempt.spent}"
        if attempt.destination not in {d.name for d in ctx.pack.destinations}:
            yield f"the attempt goes to {attempt.destination}, not on the map"
        elif not 0 <= attempt.slot < ctx.pack.destination(attempt.destination).slots_in_play(n):
            yield f"the attempt fills slot {attempt.slot} of {attempt.destination}, not in play"
    placing = state.phase in (Phase.PLACING, *ATTEMPT_PHASES)
    if placing and turn.placements < 1:
        yield f"phase {state.phase.value} with {turn.placements} attempts begun"
    if not placing and turn.placements:
        yield f"{turn.placements} attempts counted in phase {state.phase.value}"
    if (turn.advantage_dice is not None) != (state.phase is Phase.ADVANTAGE_PICK):
        yield f"advantage dice {turn.advantage_dice} in phase {state.phase.value} (they wait only for the picks)"
    if turn.advantage_dice is not None and len(turn.advantage_dice) != ctx.pack.supplies.risk_dice:
        yield f"{len(turn.advantage_dice)} advantage dice; the roll is all {ctx.pack.supplies.risk_dice}"
    if turn.claims_left < 0 or (turn.claims_left and state.phase is not Phase.CLAIMING):
        yield f"{turn.claims_left} Night Flights claims open in phase {state.phase.value}"
    if state.phase not in TURN_PHASES and turn != TurnState():
        yield f"turn record {turn!r} outside a seat's action (phase {state.phase.value})"


_invariant(
    "turn-bookkeeping", "AER-R-07", "AER-R-13", "AER-R-20", "AER-R-23", "AER-R-25", "AER-R-39", "AER-R-46", "AER-R-47"
)(check_turn_bookkeeping)


def check_americas_bonus(ctx: Context, state: AerState) -> Iterator[str]:
    """At most the first two players per America are paid, each once, a seat at the table, an America.

    Rulebook: l.131-132 (£3 and 1 VP to each of the first two players).
    """
    bonus = ctx.pack.americas_bonus
    for america, seat in state.americas_paid:
        if america not in bonus.destinations:
            yield f"an Americas bonus paid for {america}"
        if seat not in _seats(state):
            yield f"an Americas bonus paid to seat {seat}: no such seat"
    for america, times in Counter(a for a, _ in state.americas_paid).items():
        if times > bonus.first_players:
            yield f"{times} bonuses paid for {america}; only the first {bonus.first_players} players are"
    for pair, times in Counter(state.americas_paid).items():
        if times > 1:
            yield f"seat {pair[1]} paid {times} times for {pair[0]}"


_invariant("americas-bonus", "AER-R-31", "AER-AMB-30")(check_americas_bonus)


def check_vp(ctx: Context, state: AerState) -> Iterator[str]:
    """VP never below 0; before the first era scoring a player's VP are exactly their Americas bonuses, and
    afterwards at least those (the track only gains: era scoring places never score less than 0).

    The state keeps no VP sources beyond ``americas_paid``: the era scores are not recounted here.
    """
    per = ctx.pack.americas_bonus.vp
    paid = Counter(seat for _, seat in state.americas_paid)
    scored = not _before_first_update(state)
    for seat, p in enumerate(state.players):
        bonus = per * paid[seat]
        if p.vp < 0:
            yield f"seat {seat} has {p.vp} VP"
        elif not scored and p.vp != bonus:
            yield f"seat {seat} has {p.vp} VP before any era scoring; its Americas bonuses give {bonus}"
        elif p.vp < bonus:
            yield f"seat {seat} has {p.vp} VP, less than its Americas bonuses ({bonus})"


_invariant("vp-sources", "AER-R-31", "AER-R-49", "AER-SET-09")(check_vp)


# -- the step invariants ----------------------------------------------------------


def check_home_tiles_stay(ctx: Context, before: AerState, after: AerState) -> Iterator[str]:
    """A home tile or 3-player blocker on the map before a step is in the same slot after it (AER-INV-10)."""
    if [s.destination for s in before.map] != [s.destination for s in after.map]:
        yield "the map's destinations changed in one step"
        return
    for b, a in zip(before.map, after.map, strict=True):
        for i, tile in enumerate(b.slots):
            if tile is not None and tile.stage == HOME:
                now = a.slots[i] if i < len(a.slots) else None
                if now != tile:
                    what = "blocker" if tile.owner == BLOCKER else f"seat {tile.owner}'s home tile"
                    yield f"the {what} in slot {i} of {b.destination} became {now!r}"


_step_invariant("home-tiles-never-replaced", "AER-R-29", "AER-R-30", "AER-SET-04")(check_home_tiles_stay)


def check_replacements(ctx: Context, before: AerState, after: AerState) -> Iterator[str]:
    """A map tile never leaves except replaced by a strictly higher stage; one slot at most changes a step,
    and the new tile is the acting (or home-choosing) seat's."""
    if [len(s.slots) for s in before.map] != [len(s.slots) for s in after.map]:
        yield "the map's slots changed in one step"
        return
    changed: list[tuple[str, int, Airport | None, Airport | None]] = []
    for b, a in zip(before.map, after.map, strict=True):
        for i, (old, new) in enumerate(zip(b.slots, a.slots, strict=True)):
            if old != new:
                changed.append((b.destination, i, old, new))
    if len(changed) > 1:
        yield f"{len(changed)} slots changed in one step: {[(d, i) for d, i, _, _ in changed]}"
    placer = before.to_move if before.phase in (*ACTING_PHASES, Phase.CHOOSE_HOME) else None
    for destination, i, old, new in changed:
        where = f"slot {i} of {destination}"
        if new is None:
            yield f"{old!r} left {where} without a replacement"
            continue
        if old is not None and new.stage <= old.stage:
            yield f"{old!r} in {where} replaced by {new!r}, not a higher stage (AER-R-29 e)"
        if new.owner != placer:
            yield f"{new!r} went into {where}, but seat {placer} was placing (phase {before.phase.value})"


_step_invariant("tiles-replaced-only-by-higher-stage", "AER-R-13", "AER-R-24", "AER-R-29", "AER-R-30", "AER-SET-03")(
    check_replacements
)


def check_vp_never_decreases(ctx: Context, before: AerState, after: AerState) -> Iterator[str]:
    """No step lowers a player's VP; outside an era's scoring, VP rise only by the Americas bonus just paid.

    The era scores themselves are not recounted (the state keeps no VP sources).
    """
    scored = _era_scored(before, after)
    paid = after.americas_paid[len(before.americas_paid) :]
    if after.americas_paid[: len(before.americas_paid)] != before.americas_paid or len(paid) > 1:
        yield f"Americas bonuses {list(before.americas_paid)} became {list(after.americas_paid)}"
        paid = ()
    for seat, (b, a) in enumerate(zip(before.players, after.players, strict=True)):
        if a.vp < b.vp:
            yield f"seat {seat}'s VP fell from {b.vp} to {a.vp} (phase {before.phase.value} -> {after.phase.value})"
        elif not scored:
            bonus = sum(ctx.pack.americas_bonus.vp for _, s in paid if s == seat)
            if a.vp - b.vp != bonus:
                yield f"seat {seat}'s VP went from {b.vp} to {a.vp} outside an era scoring; its Americas bonus: {bonus}"


_step_invariant("vp-never-decreases", "AER-R-31", "AER-R-49", "AER-R-63")(check_vp_never_decreases)


def check_money_moves(ctx: Context, before: AerState, after: AerState) -> Iterator[str]:
    """Only the acting seat's money changes in a step, except at an Income step, which pays every seat exactly
    its income (AER-R-03; under AER-AMB-03 ``twice`` update step 7 pays it too, AER-R-59).

    The acting seat's payments (a price, a cover, £1 for an advantage) are not recounted: the step does not
    show the action.  Its gains are: no more than the income due, the subsidy note it took and the Americas
    bonuses paid to it (the bank is unlimited, AER-AMB-52, so this is what conservation can say).
    """
    acting = _acting(before)
    for seat, (b, a) in enumerate(zip(before.players, after.players, strict=True)):
        if seat == acting:
            continue
        due = _income_due(ctx, before, after, seat)
        if a.money - b.money != due:
            yield (
                f"seat {seat}'s money went from £{b.money} to £{a.money} in phase {before.phase.value}"
                f" -> {after.phase.value}; income due £{due}, and it was not acting"
            )
    for america, seat in after.americas_paid[len(before.americas_paid) :]:
        if seat != acting:
            yield f"seat {seat} was paid the {america} bonus while seat {acting} was acting"
    if acting is None:
        return
    # Against the bank and the subsidy section: the acting seat gains no more than the income due, a
    # subsidy note taken and the Americas bonuses paid to it in this step (AER-R-31, R-48); it may pay
    # some of that out again in the same step (a cover before the bonus), so only the gain is bounded.
    gain = after.players[acting].money - before.players[acting].money
    notes = max(before.subsidy_pool - after.subsidy_pool, 0) if not _income_paid(before, after) else 0
    bonuses = sum(1 for _, seat in after.americas_paid[len(before.americas_paid) :] if seat == acting)
    allowed = _income_due(ctx, before, after, acting) + notes + bonuses * ctx.pack.americas_bonus.money
    if gain > allowed:
        yield (
            f"seat {acting} gained £{gain} ({before.phase.value} -> {after.phase.value}); income, subsidy"
            f" notes and Americas bonuses account for £{allowed}: the rest came from nowhere"
        )


_step_invariant("money-moves-with-the-mover", "AER-R-02", "AER-R-03", "AER-R-31", "AER-R-48", "AER-R-59", "AER-AMB-03")(
    check_money_moves
)


def check_subsidy_notes(ctx: Context, before: AerState, after: AerState) -> Iterator[str]:
    """The subsidy section loses at most one note a step, to the seat taking it, who gains exactly £1; it is
    refilled only by an Income step, to the full eight; the marker leaves only an empty section, to the mover.
    """
    acting = _acting(before)
    drop = before.subsidy_pool - after.subsidy_pool
    if drop > 1:
        yield f"{drop} subsidy notes left the section in one step"
    if drop == 1:
        if acting is None:
            yield f"a subsidy note left the section in phase {before.phase.value}, with nobody acting"
        else:
            gain = after.players[acting].money - before.players[acting].money
            if gain != 1:
                yield f"seat {acting} took a subsidy note and its money changed by £{gain}"
    if _income_paid(before, after) and after.subsidy_pool != ctx.pack.subsidy_pool:
        yield f"the Income step left {after.subsidy_pool} notes in the subsidy section, not {ctx.pack.subsidy_pool}"
    elif drop < 0 and not _income_paid(before, after):
        yield (
            f"the subsidy section went from {before.subsidy_pool} to {after.subsidy_pool} notes"
            f" ({before.phase.value} -> {after.phase.value}); only the Income step refills it"
        )
    if before.marker_in_pool and not after.marker_in_pool:
        if before.subsidy_pool:
            yield f"the marker was taken with {before.subsidy_pool} notes in the section"
        if after.marker_taker != acting:
            yield f"the marker went to seat {after.marker_taker}; seat {acting} was acting"


_step_invariant("subsidy-notes-to-the-mover", "AER-R-02", "AER-R-48", "AER-R-61")(check_subsidy_notes)


def check_era_advances(ctx: Context, before: AerState, after: AerState) -> Iterator[str]:
    """The era never goes back and moves one space at most, only once the marker has ended the era; the
    game ends only from era 3."""
    if after.era < before.era or after.era > before.era + 1:
        yield f"the era went from {before.era} to {after.era}"
    if after.era > before.era and before.marker_in_pool and before.subsidy_pool:
        yield f"the era moved on with {before.subsidy_pool} subsidy notes left and the marker in the section"
    if before.phase is Phase.OVER and after != before:
        yield "the state changed after the game was over"


_step_invariant("era-advances-by-one", "AER-R-01", "AER-R-06", "AER-R-60", "AER-R-62")(check_era_advances)


# -- the legality layers ----------------------------------------------------------


def check_legality(game: AeroplanesGame, state: AerState, candidates: Sequence[AerAction] = ()) -> list[Violation]:
    """``legal_actions`` and ``check`` agree: every listed action passes the check, none twice; a chance step
    lists exactly its outcomes, with exact odds summing to 1; every candidate the check accepts is listed,
    and a refused one names a rule (AER-R-07 and the rule of each condition)."""
    name, rules, ctx = "legality-layers", ("AER-R-07",), _rules_context(game)
    out: list[str] = []
    legal = legal_actions(ctx, state)
    if len(set(legal)) != len(legal):
        out.append(f"legal_actions lists {len(legal) - len(set(legal))} actions twice")
    for action in legal:
        why = check(ctx, state, action)
        if why is not None:
            out.append(f"{action!r} is listed as legal but refused: {why}")
    if state.phase in CHANCE_PHASES:
        outcomes = chance_outcomes(ctx, state)
        total = sum((p for _, p in outcomes), Fraction(0))
        if outcomes and total != 1:
            out.append(f"the chance outcomes of {state.phase.value} sum to {total}")
        if any(p <= 0 for _, p in outcomes):
            out.append(f"a chance outcome of {state.phase.value} has odds 0 or less")
        if [a for a, _ in outcomes] != legal:
            out.append(f"the chance step {state.phase.value} lists other actions than its outcomes")
    listed = set(legal)
    for action in candidates:
        why = check(ctx, state, action)
        if why is None and action not in listed:
            out.append(f"{action!r} passes the check but is not listed as legal")
        elif why is not None and not why.rule:
            out.append(f"{action!r} is refused without a rule: {why}")
    return [Violation(name, rules, m) for m in out]
