"""Aeroplanes set-up (AER-SET-01..10): the chance deals and the home-city choices.

Every random draw of the set-up is a chance step with exact, uniform odds over
what is left: each waiting slot's passenger tile (AER-SET-01) and the first
player (AER-SET-03).  The bag stays an unordered set of tiles; no hidden order
is stored.  A "¤" tile drawn at set-up is set aside and another drawn, and the
set-aside tiles go back into the bag once the waiting area is full, so each
slot's tile is exactly uniform over the unmarked tiles still in the bag and
the "¤" tiles never leave it: the deal below draws that tile directly.

The rest is fixed: the 3-player blockers on the "4/5" slots (AER-SET-04), the
advantage stacks (AER-SET-06), the era and subsidy markers (AER-SET-07), the
display 1..12 and the deck 13..46 in number order, unshuffled (AER-SET-08),
VP 0 (AER-SET-09).  The home cities are choices, counter-clockwise from the
first player's right neighbour, the first player last (AER-SET-03).  Then era
1's Income step (AER-SET-10: AER-R-02, R-03) starts the action round with the
first player (AER-AMB-54).

:func:`chance_outcomes` also gives the odds of the chance steps of play
(card draws, NCR throws, advantage throws, the first-player die, the waiting
refill), so the transitions layer only applies them.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

from rulecraft.core import RulecraftError
from rulecraft.model.aeroplanes.actions import (
    AdvantageThrow,
    AerAction,
    ChooseHome,
    DealWaitingPassenger,
    DrawCard,
    DrawFirstPlayer,
    RefillWaiting,
    RiskThrow,
    RollFirstPlayerDie,
)
from rulecraft.model.aeroplanes.components import Face
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.risk import throw_distribution
from rulecraft.model.aeroplanes.state import (
    ADVANTAGE_TYPE_IDS,
    BLOCKER,
    HOME,
    AerState,
    Airport,
    Phase,
    PlayerState,
    Slots,
    Waiting,
    evolve,  # attrs.evolve compiled per class, slot by slot: the hot path
    evolve_player,  # the player's fields copied whole
    evolve_state,  # the state's fields copied whole
)


def check_players(ctx: Context, players: int) -> None:
    problem = setup_problem(ctx, players)
    if problem is not None:
        raise RulecraftError(problem)


def setup_problem(ctx: Context, players: int) -> str | None:
    """Why the pack cannot seat this many players (None: it can)."""
    pack = ctx.pack
    if not pack.min_players <= players <= pack.max_players:
        return (
            f"AER-R-01 (l.9,25): the game is for {pack.min_players} to {pack.max_players} players; {players} requested"
        )
    cities = [ctx.pack.destination(c) for c in pack.start_cities]
    open_cities = [c for c in cities if c.slots_in_play(players) >= 1]
    if len(open_cities) < players:
        return (
            f"AER-SET-03 (l.24): {players} players need {players} start cities with a slot in play;"
            f" the pack has {len(open_cities)}"
        )
    waiting = len(pack.waiting_area.section_order) * pack.waiting_area.slots_per_city
    unmarked = sum(1 for p in pack.passengers if not p.not_in_era_1)
    if unmarked < waiting:
        return f"AER-SET-01 (l.23): {waiting} waiting slots but only {unmarked} passenger tiles without the ¤ mark"
    if len(pack.cards) < pack.display_size:
        return f"AER-SET-08 (l.29): a display of {pack.display_size} cards but the pack has {len(pack.cards)}"
    if any(ctx.tiles_per_stage(s) < 0 for s in (1, 2, 3)):
        return "AER-R-11 (l.66): a negative number of airport tiles per stage"
    return None


def new_game(ctx: Context, players: int) -> AerState:
    """The state before the first chance deal: AER-SET-04..09 done, the bag full, the waiting area empty."""
    check_players(ctx, players)
    pack = ctx.pack
    supply = (ctx.tiles_per_stage(1), ctx.tiles_per_stage(2), ctx.tiles_per_stage(3))
    board = _first_map(ctx, players)
    numbers = sorted(c.number for c in pack.cards)
    return AerState(
        # AER-SET-09: every VP token starts on 0 (and no money before the Income step): PlayerState's defaults.
        players=tuple(PlayerState(supply=supply) for _ in range(players)),
        era=1,  # AER-SET-07
        subsidy_pool=0,  # filled by era 1's Income step (AER-SET-10)
        marker_in_pool=True,  # AER-SET-07
        display=tuple(numbers[: pack.display_size]),  # AER-SET-08
        deck=tuple(numbers[pack.display_size :]),
        map=board,
        bag=tuple(sorted(p.id for p in pack.passengers)),  # AER-SET-01
        waiting=tuple(Waiting(c, (None,) * pack.waiting_area.slots_per_city) for c in pack.waiting_area.section_order),
        advantage_supply=_stacks(ctx),  # AER-SET-06
        phase=Phase.DEAL_PASSENGERS,
    )


def _first_map(ctx: Context, players: int) -> tuple[Slots, ...]:
    """AER-SET-04: every destination's slots empty, the "4/5" slots blocked, in pack order; one map per
    context and player count, shared by every game it starts (it is immutable: move generation keeps
    answers per destination's slots, so a destination no tile reaches in a game is answered once for many
    games).  Kept per context, as move generation's memos are: a new game (or a planted deviation's)
    works it out afresh."""
    found = _FIRST_MAPS.get((id(ctx), players))
    if found is None or found[0] is not ctx:
        board = []
        for d in ctx.pack.destinations:
            blocked = d.slots - d.slots_in_play(players)  # AER-SET-04: the "4/5" slots come last
            board.append(Slots(d.name, (None,) * (d.slots - blocked) + (Airport(BLOCKER, HOME),) * blocked))
        if len(_FIRST_MAPS) > 64:
            _FIRST_MAPS.clear()
        found = _FIRST_MAPS[(id(ctx), players)] = (ctx, tuple(board))
    return found[1]


# _first_map's answers: (id(ctx), players) -> (the context, its first map).
_FIRST_MAPS: dict[tuple[int, int], tuple[Context, tuple[Slots, ...]]] = {}


def _stacks(ctx: Context) -> tuple[int, int, int, int, int]:
    a, b, c, d, e = (ctx.pack.advantage(t).count for t in ADVANTAGE_TYPE_IDS)
    return (a, b, c, d, e)


# ---------------------------------------------------------------------------
# The odds of every chance step
# ---------------------------------------------------------------------------


def _uniform_over(pile: list[str]) -> list[tuple[str, Fraction]]:
    """Each distinct tile of ``pile`` with the share of the pile it makes up."""
    counts = Counter(pile)
    return [(t, Fraction(c, len(pile))) for t, c in sorted(counts.items())]


def throw_outcomes(ctx: Context) -> list[tuple[RiskThrow, Fraction]]:
    """AER-R-20: one NCR roll as (total, skulls), exact (risk.throw_distribution)."""
    return [(RiskThrow(t.total, t.skulls), t.probability) for t in throw_distribution(ctx.pack)]


def advantage_throw_outcomes(ctx: Context) -> list[tuple[AdvantageThrow, Fraction]]:
    """AER-R-39(b): the three risk dice as a multiset of faces (in the pack's face order), exact."""
    faces = ctx.pack.supplies.risk_die_faces
    order = {f: i for i, f in enumerate(faces)}
    n = ctx.pack.supplies.risk_dice
    tally: Counter[tuple[Face, ...]] = Counter(
        tuple(sorted(f, key=order.__getitem__)) for f in product(faces, repeat=n)
    )
    total = len(faces) ** n
    return [
        (AdvantageThrow(k), Fraction(c, total))
        for k, c in sorted(tally.items(), key=lambda kv: [order[f] for f in kv[0]])
    ]


def die_outcomes(ctx: Context) -> list[tuple[RollFirstPlayerDie, Fraction]]:
    """AER-R-05 / AER-AMB-05: the first-player die, each face equally likely."""
    faces = ctx.pack.supplies.first_player_die_faces
    counts = Counter(faces)
    return [(RollFirstPlayerDie(v), Fraction(c, len(faces))) for v, c in sorted(counts.items())]


def chance_outcomes(ctx: Context, state: AerState) -> list[tuple[AerAction, Fraction]]:
    """The chance step due now, each outcome with its exact probability ([] when a player decides)."""
    if state.phase is Phase.DEAL_PASSENGERS:
        unmarked = [t for t in state.bag if not ctx.not_in_era_1(t)]
        return [(DealWaitingPassenger(t), p) for t, p in _uniform_over(unmarked)]
    if state.phase is Phase.FIRST_PLAYER:
        n = len(state.players)
        return [(DrawFirstPlayer(seat), Fraction(1, n)) for seat in range(n)]
    if state.phase is Phase.CARD_DRAW:
        return [(DrawCard(min(state.deck)), Fraction(1))] if state.deck else []  # AER-SET-08: number order
    if state.phase is Phase.UPDATE_DRAW:  # AER-R-53: the next deck cards, in number order
        return [(DrawCard(min(state.deck)), Fraction(1))] if state.deck else []
    if state.phase is Phase.REFILL:
        return [(RefillWaiting(t), p) for t, p in _uniform_over(list(state.bag))]
    if state.phase is Phase.RISK_ROLL:
        return list(throw_outcomes(ctx))
    if state.phase is Phase.ADVANTAGE_ROLL:
        return list(advantage_throw_outcomes(ctx))
    if state.phase is Phase.ROUND_DIE:
        return list(die_outcomes(ctx))
    return []


def is_chance_outcome(ctx: Context, state: AerState, action: AerAction) -> bool:
    """Whether ``action`` is one of :func:`chance_outcomes` now (``action in`` its actions), without
    listing them: the check judges every candidate outcome, and listing ~70 tiles with their odds to
    judge each made a chance step's check quadratic (issue 18).  tests/test_aer_game.py holds the two
    equal on every outcome and on near misses."""
    phase = state.phase  # below, ``type(action) is``: an attrs action equals only one of its own class
    if phase is Phase.DEAL_PASSENGERS:
        # the tile is in the bag (so in the pack) before its "¤" mark is looked up
        return type(action) is DealWaitingPassenger and action.id in state.bag and not ctx.not_in_era_1(action.id)
    if phase is Phase.FIRST_PLAYER:
        return type(action) is DrawFirstPlayer and action.seat in range(len(state.players))
    if phase is Phase.CARD_DRAW or phase is Phase.UPDATE_DRAW:
        return type(action) is DrawCard and bool(state.deck) and action.number == min(state.deck)
    if phase is Phase.REFILL:
        return type(action) is RefillWaiting and action.id in state.bag
    if phase in _DICE_PHASES:
        return action in _dice_outcomes(ctx, phase)
    return False


# The chance steps whose outcomes depend on the pack alone (the dice), and their outcomes per context:
# id(ctx) -> (the context, phase -> its outcome actions).
_DICE_PHASES = (Phase.RISK_ROLL, Phase.ADVANTAGE_ROLL, Phase.ROUND_DIE)
_DICE_OUTCOMES: dict[int, tuple[Context, dict[Phase, tuple[AerAction, ...]]]] = {}


def _dice_outcomes(ctx: Context, phase: Phase) -> tuple[AerAction, ...]:
    found = _DICE_OUTCOMES.get(id(ctx))
    if found is None or found[0] is not ctx:
        if len(_DICE_OUTCOMES) > 64:
            _DICE_OUTCOMES.clear()
        found = _DICE_OUTCOMES[id(ctx)] = (ctx, {})
    by_phase = found[1]
    if phase not in by_phase:
        actions: list[AerAction]
        if phase is Phase.RISK_ROLL:
            actions = [a for a, _ in throw_outcomes(ctx)]
        elif phase is Phase.ADVANTAGE_ROLL:
            actions = [a for a, _ in advantage_throw_outcomes(ctx)]
        else:
            actions = [a for a, _ in die_outcomes(ctx)]
        by_phase[phase] = tuple(actions)
    return by_phase[phase]


# ---------------------------------------------------------------------------
# The set-up steps
# ---------------------------------------------------------------------------


def next_waiting_slot(state: AerState) -> tuple[int, int] | None:
    """The next empty waiting slot, section by section in board order: (section, slot)."""
    for i, w in enumerate(state.waiting):
        for j, t in enumerate(w.slots):
            if t is None:
                return i, j
    return None


def _put_waiting(state: AerState, tile: str) -> AerState:
    where = next_waiting_slot(state)
    if where is None:
        raise RulecraftError("AER-SET-01: every waiting slot is already full")
    i, j = where
    bag = list(state.bag)
    bag.remove(tile)
    w = state.waiting[i]
    section = evolve(w, slots=(*w.slots[:j], tile, *w.slots[j + 1 :]))
    return evolve_state(state, bag=tuple(bag), waiting=(*state.waiting[:i], section, *state.waiting[i + 1 :]))


def deal(ctx: Context, state: AerState, action: AerAction) -> AerState:
    """The effect of one set-up chance deal (the chance steps of play are the transitions layer's)."""
    if isinstance(action, DealWaitingPassenger) and state.phase is Phase.DEAL_PASSENGERS:
        if ctx.not_in_era_1(action.id) or action.id not in state.bag:
            raise RulecraftError(f"AER-SET-01: {action.id} cannot be dealt to the waiting area")
        state = _put_waiting(state, action.id)
        if next_waiting_slot(state) is None:
            return evolve_state(state, phase=Phase.FIRST_PLAYER)
        return state
    if isinstance(action, DrawFirstPlayer) and state.phase is Phase.FIRST_PLAYER:
        n = len(state.players)
        # AER-SET-03: the player to the right (counter-clockwise) of the first player chooses first.
        return evolve_state(state, first_player=action.seat, to_move=(action.seat - 1) % n, phase=Phase.CHOOSE_HOME)
    raise RulecraftError(f"{action!r} is not a set-up chance deal in phase {state.phase.value}")


def home_choices(ctx: Context, state: AerState) -> list[ChooseHome]:
    """AER-SET-03: the start cities with no home tile yet (and a slot in play, AER-SET-04)."""
    taken = {p.home for p in state.players}
    return [
        ChooseHome(city)
        for city in ctx.pack.start_cities
        if city not in taken and any(a is None for a in state.slots(city))
    ]


def home_rejection(ctx: Context, state: AerState, action: ChooseHome) -> str | None:
    if state.phase is not Phase.CHOOSE_HOME:
        return "AER-SET-03: home cities are chosen during set-up only"
    if action.city not in ctx.pack.start_cities:
        return f"AER-SET-03: {action.city} is not a start city ({', '.join(ctx.pack.start_cities)})"
    if action not in home_choices(ctx, state):
        return f"AER-SET-03: {action.city} already holds a home tile"
    return None


def choose_home(ctx: Context, state: AerState, action: ChooseHome) -> AerState:
    """AER-SET-03: the home tile into the first empty slot of the city; the next seat counter-clockwise
    chooses, and after the first player era 1 begins (AER-SET-10)."""
    problem = home_rejection(ctx, state, action)
    if problem is not None:
        raise RulecraftError(problem)
    seat = state.to_move
    board = []
    for s in state.map:
        if s.destination == action.city:
            j = s.slots.index(None)
            s = evolve(s, slots=(*s.slots[:j], Airport(seat, HOME), *s.slots[j + 1 :]))
        board.append(s)
    player = evolve_player(state.players[seat], home=action.city)
    state = evolve_state(state, map=tuple(board), players=(*state.players[:seat], player, *state.players[seat + 1 :]))
    if seat == state.first_player:
        return start_era(ctx, state)
    return evolve_state(state, to_move=(seat - 1) % len(state.players))


def start_era(ctx: Context, state: AerState) -> AerState:
    """The Income step (AER-R-02, R-03): eight £1 notes and the black marker into the subsidy section,
    then each player's income; the action round starts with the first player (AER-R-04).  Era 2 and 3
    income is paid here once (AER-AMB-03 ``once``: update step 7 is the same payment)."""
    # AER-R-03: each player's income for the era, on top of the money left over.
    income = ctx.pack.income.amount
    players = tuple(evolve_player(p, money=p.money + income(state.era, p.home or "")) for p in state.players)
    return evolve_state(
        state,
        players=players,
        # AER-R-61: the update left the subsidy section alone; the Income step refills it and returns the marker.
        subsidy_pool=ctx.pack.subsidy_pool,
        marker_in_pool=True,
        marker_taker=None,
        round=1,
        turns_in_round=0,
        to_move=state.first_player,
        die_roller=None,
        phase=Phase.ACTION,
    )


__all__ = [
    "advantage_throw_outcomes",
    "chance_outcomes",
    "check_players",
    "choose_home",
    "deal",
    "die_outcomes",
    "home_choices",
    "home_rejection",
    "is_chance_outcome",
    "new_game",
    "next_waiting_slot",
    "setup_problem",
    "start_era",
    "throw_outcomes",
]
