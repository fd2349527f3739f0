"""Z3: the fewest extra airports (a market, AER-R-50) or passenger tiles (profitability, AER-R-51/52) a seat
needs to take first place at the end of the era, or a proof that it cannot (an unsat core).

First place is rank 1 under the tie rules of scoring.py: competition ranking, so a tie for first is first
place (everyone tied gets the first-place VPs, AER-R-50 l.167, AER-R-52 l.169); ``alone`` asks for a
strict lead.  Only the default readings are encoded (AER-AMB-36/37/39/40/42/58/59; others NotApplicable).

Market (rule families):

* ``AER-R-29 (c)`` one own tile a destination: at most one new tile on each market destination, none
  where the seat already has one;
* ``AER-R-29 (a)`` into an empty slot in play only if there is one; ``AER-R-29 (d)``: no replacement
  while a slot is empty; ``AER-R-29 (e)``: only a tile of stage 1 or 2 is replaced (by a higher stage);
  ``AER-R-30 (f)``: never a home tile (nor a blocker);
* ``AER-R-11`` the seat's tiles not yet on the map (supply and cards), by stage: a replacement of a
  stage-s tile needs a tile above s (Hall's condition on the nested stage sets);
* ``AER-R-50`` first place: the seat's tiles there (+ new) >= each other seat's (- replaced);
  ``AER-AMB-39 min-1``: at least one tile to rank.

Reach (connections, risk) is not asked: this is the standings at the era's end, not a plan.

Profitability: the candidate tiles are those in the waiting area and the overflow area (``claimable``:
only those the seat may claim now, AER-R-34/35/37); rule families ``AER-R-36`` (one card carries the
whole tile; a card's unused capacity), ``AER-R-51`` (profit = passenger VP - unused capacity: a claimed
tile adds its VP and fills its capacity) and ``AER-R-52`` (first place).

Both minimise with an iterative bound (assumption ``extra <= k`` for k = 0, 1, ...).  The oracles count
with scoring.py: the market one tries every multiset of choices (add into an empty slot / replace seat
j's tile), smallest first, applied to a copy of the state and ranked by ``scoring.market_majorities``;
the profit one takes the best fitting set of k tiles (exhaustive search over tile kinds and cards) and
ranks the state with them on the cards by ``scoring.profitability``.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement

import attrs
import z3

from rulecraft.core import RulecraftError
from rulecraft.model.aeroplanes import scoring
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.state import BLOCKER, HOME, AerState, Airport, Slots, Waiting
from rulecraft.solvers.aeroplanes.common import RuleSolver, int_in, ms, require_readings, status_of

R29C = "AER-R-29 (c) one own tile a destination"
R29A = "AER-R-29 (a) into an empty slot in play"
R29D = "AER-R-29 (d) no replacement while a slot is empty"
R29E = "AER-R-29 (e) replace a lower stage only"
R30F = "AER-R-30 (f) a home tile is never replaced"
R11 = "AER-R-11 the player's tiles by stage"
R50 = "AER-R-50 first place in the market"
AMB39 = "AER-AMB-39 at least one tile to rank"
R36 = "AER-R-36 one card carries the whole tile"
R51 = "AER-R-51 profit: passenger VP minus unused capacity"
R52 = "AER-R-52 first place in profitability"
R34 = "AER-R-34 claimable: airports at the tile's city and destination"

SCORING_DEFAULTS = {
    "AER-AMB-36": "vp",
    "AER-AMB-37": "all",
    "AER-AMB-39": "min-1",
    "AER-AMB-40": "competition",
    "AER-AMB-58": "competition",
    "AER-AMB-59": "this-era",
}


@attrs.frozen
class Answer:
    status: str  # "reachable" | "unreachable" | "unknown"
    extra: int | None  # the fewest extra airports / passenger tiles
    plan: tuple[str, ...]  # what Z3 adds (destinations / tile ids)
    passengers: int | None  # profitability: the passengers (capacity) those tiles carry
    core: tuple[str, ...]
    checks: int
    ms: float
    reason: str | None = None


def _minimise(rs: RuleSolver, extra: z3.ArithRef, most: int) -> tuple[str, int | None, z3.ModelRef | None, int]:
    """The least k with ``extra <= k`` satisfiable (k = 0..most)."""
    checks = 0
    result = rs.check()
    checks += 1
    if result != z3.sat:
        return status_of(result), None, None, checks
    for k in range(most + 1):
        lit = z3.Bool(f"bound!{k}")
        rs.solver.add(z3.Implies(lit, extra <= k))
        checks += 1
        result = rs.check(lit)
        if result == z3.sat:
            return "sat", k, rs.model(), checks
        if result != z3.unsat:
            return "unknown", None, None, checks
    return "unknown", None, None, checks  # pragma: no cover - sat without a bound means one within ``most``


# --- market ------------------------------------------------------------------------------------------------


@attrs.frozen
class Choice:
    destination: str
    slot: int
    replaces: int | None  # the seat whose tile goes back (None: an empty slot)
    stage: int  # the replaced tile's stage (0 for an empty slot)


def _counts(ctx: Context, state: AerState, market: str) -> list[int]:
    out = [0] * len(state.players)
    for s in state.map:
        if ctx.pack.market_of(s.destination) == market:
            for a in s.slots:
                if a is not None and a.owner != BLOCKER:
                    out[a.owner] += 1
    return out


def _available(ctx: Context, state: AerState, seat: int) -> tuple[int, int, int]:
    p = state.players[seat]
    on_cards = [sum(c.tiles for c in p.cards if ctx.pack.card(c.number).tile_stage == s) for s in (1, 2, 3)]
    return (p.supply[0] + on_cards[0], p.supply[1] + on_cards[1], p.supply[2] + on_cards[2])


def market_choices(ctx: Context, state: AerState, seat: int, market: str) -> list[list[Choice]]:
    """Per market destination where ``seat`` has no tile, the ways a new tile can go in (AER-R-29)."""
    n = len(state.players)
    out = []
    for d in ctx.pack.destinations:
        if ctx.pack.market_of(d.name) != market:
            continue
        slots = state.slots(d.name)[: d.slots_in_play(n)]
        if any(a is not None and a.owner == seat for a in slots):
            continue
        empty = [j for j, a in enumerate(slots) if a is None]
        if empty:
            out.append([Choice(d.name, empty[0], None, 0)])
            continue
        here = []
        for j, a in enumerate(slots):
            if a is not None and a.owner != BLOCKER and a.stage != HOME and a.stage < 3:
                here.append(Choice(d.name, j, a.owner, a.stage))
        if here:
            out.append(here)
    return out


def market_z3(ctx: Context, state: AerState, seat: int, market: str, *, alone: bool = False, timeout_ms: int) -> Answer:
    begin = time.perf_counter()
    require_readings(ctx, SCORING_DEFAULTS, "the standings encoding")
    if market not in ctx.pack.markets:
        raise RulecraftError(f"--market: one of {', '.join(ctx.pack.markets)}, got {market!r}")
    n = len(state.players)
    counts = _counts(ctx, state, market)
    avail = _available(ctx, state, seat)
    rs = RuleSolver(timeout_ms)
    adds: list[tuple[z3.BoolRef, str, int | None, int]] = []  # (var, destination, replaced owner, stage)
    families: dict[str, list[z3.BoolRef]] = {}
    for d in ctx.pack.destinations:
        if ctx.pack.market_of(d.name) != market:
            continue
        slots = state.slots(d.name)[: d.slots_in_play(n)]
        mine = any(a is not None and a.owner == seat for a in slots)
        empty = any(a is None for a in slots)
        here: list[z3.BoolRef] = []
        e = z3.Bool(f"add!{d.name}")
        here.append(e)
        adds.append((e, d.name, None, 0))
        if not empty:
            families.setdefault(R29A, []).append(z3.Not(e))
        for j, a in enumerate(slots):
            if a is None or a.owner == seat:
                continue
            r = z3.Bool(f"replace!{d.name}!{j}")
            here.append(r)
            adds.append((r, d.name, a.owner if a.owner != BLOCKER else None, a.stage))
            if empty:
                families.setdefault(R29D, []).append(z3.Not(r))
            if a.stage == HOME or a.owner == BLOCKER:
                families.setdefault(R30F, []).append(z3.Not(r))
            elif a.stage >= 3:
                families.setdefault(R29E, []).append(z3.Not(r))
        if mine:
            families.setdefault(R29C, []).extend(z3.Not(x) for x in here)
        else:
            families.setdefault(R29C, []).append(z3.PbLe([(x, 1) for x in here], 1))
    for label, parts in families.items():
        rs.rule(label, parts)

    def total(xs: Sequence[z3.BoolRef]) -> z3.ArithRef:
        return z3.Sum([z3.If(x, 1, 0) for x in xs]) if xs else z3.IntVal(0)

    everything = [x for x, _, _, _ in adds]
    above2 = [x for x, _, _, s in adds if s == 2]
    above1 = [x for x, _, _, s in adds if s in (1, 2)]
    rs.rule(R11, [total(everything) <= sum(avail), total(above1) <= avail[1] + avail[2], total(above2) <= avail[2]])
    mine_now = counts[seat] + total(everything)
    r50 = []
    for j in range(n):
        if j == seat:
            continue
        theirs = counts[j] - total([x for x, _, o, _ in adds if o == j])
        r50.append(mine_now > theirs if alone else mine_now >= theirs)
    rs.rule(R50, r50)
    rs.rule(AMB39, [mine_now >= 1])
    extra = z3.Int("extra")
    rs.add(extra == total(everything))
    status, k, model, checks = _minimise(rs, extra, len(adds))
    if status == "sat" and model is not None:
        plan = tuple(
            f"{d}" if o is None and s == 0 else f"{d} (replaces seat {o}'s stage-{s} tile)"
            for x, d, o, s in adds
            if z3.is_true(model.eval(x, model_completion=True))
        )
        return Answer("reachable", k, plan, None, (), checks, ms(begin))
    if status == "unsat":
        return Answer("unreachable", None, (), None, rs.core(), checks, ms(begin))
    return Answer("unknown", None, (), None, (), checks, ms(begin), rs.reason())


def _first(ranking: scoring.Ranking, seat: int, alone: bool) -> bool:
    rank = ranking.rank(seat)
    if rank != 1:
        return False
    return not alone or sum(1 for p in ranking.places if p.rank == 1) == 1


def _with_market_choices(state: AerState, seat: int, choices: Sequence[Choice]) -> AerState:
    by_dest = {c.destination: c for c in choices}
    board = []
    for s in state.map:
        c = by_dest.get(s.destination)
        if c is not None:
            slots = list(s.slots)
            slots[c.slot] = Airport(seat, 3)
            s = Slots(s.destination, tuple(slots))
        board.append(s)
    return attrs.evolve(state, map=tuple(board))


def oracle_market(
    ctx: Context, state: AerState, seat: int, market: str, *, alone: bool = False
) -> tuple[int | None, float]:
    """The fewest choices, by brute force over kinds of choice (empty slot / replace seat j's stage-s tile),
    each combination placed on a copy of the state and ranked by scoring.market_majorities."""
    begin = time.perf_counter()
    per_dest = market_choices(ctx, state, seat, market)
    avail = _available(ctx, state, seat)
    era = state.era

    def first(st: AerState) -> bool:
        ranking = next(r for r in scoring.market_majorities(ctx, st, era) if r.source == market)
        return _first(ranking, seat, alone)

    kinds = sorted({(c.replaces, c.stage) for options in per_dest for c in options}, key=str)
    for k in range(0, len(per_dest) + 1):
        for combo in combinations_with_replacement(kinds, k):
            need = Counter(combo)
            if k > sum(avail) or need_stage(combo, 2) > avail[2] or need_stage(combo, 1) > avail[1] + avail[2]:
                continue
            picked = _match(per_dest, list(need.elements()))
            if picked is not None and first(_with_market_choices(state, seat, picked)):
                return k, ms(begin)
    return None, ms(begin)


def need_stage(combo: Sequence[tuple[int | None, int]], at_least: int) -> int:
    return sum(1 for _, s in combo if s >= at_least)


def _match(per_dest: list[list[Choice]], wanted: list[tuple[int | None, int]]) -> list[Choice] | None:
    """Distinct destinations for the wanted kinds of choice (a small backtracking matching)."""
    used: set[int] = set()
    out: list[Choice] = []

    def go(i: int) -> bool:
        if i == len(wanted):
            return True
        for di, options in enumerate(per_dest):
            if di in used:
                continue
            for c in options:
                if (c.replaces, c.stage) == wanted[i]:
                    used.add(di)
                    out.append(c)
                    if go(i + 1):
                        return True
                    used.discard(di)
                    out.pop()
                    break
        return False

    return out if go(0) else None


# --- profitability ------------------------------------------------------------------------------------


@attrs.frozen
class Tile:
    id: str
    capacity: int
    vp: int
    claimable: bool
    overflow: bool


def candidate_tiles(ctx: Context, state: AerState, seat: int) -> list[Tile]:
    """The tiles in the waiting area and the overflow area, and whether ``seat`` may claim each now."""
    airports = set(state.airports(seat))
    out = []
    for w in state.waiting:
        for t in w.slots:
            if t is not None:
                p = ctx.pack.passenger(t)
                out.append(Tile(t, p.capacity, p.vp, w.city in airports and p.destination in airports, False))
    for t in state.overflow:
        p = ctx.pack.passenger(t)
        out.append(Tile(t, p.capacity, p.vp, p.destination in airports, True))
    return out


def _profits(ctx: Context, state: AerState) -> list[int]:
    """AER-R-51 with the default readings: VP of the tiles on the cards minus every card's unused capacity."""
    out = []
    for p in state.players:
        carried = sum(ctx.pack.passenger(t).vp for c in p.cards for t in c.passengers)
        unused = 0
        for c in p.cards:
            cap = c.excess if c.excess is not None else ctx.pack.card(c.number).capacity
            unused += cap - sum(ctx.pack.passenger(t).capacity for t in c.passengers)
        out.append(carried - unused)
    return out


def _rooms(ctx: Context, state: AerState, seat: int) -> list[tuple[int, int]]:
    """(card number, unused capacity) of the seat's cards that may take passengers (AER-R-36, R-55)."""
    closed = ctx.r("AER-AMB-42") == "closed"
    out = []
    for c in state.players[seat].cards:
        if closed and c.face_down:
            continue
        cap = c.excess if c.excess is not None else ctx.pack.card(c.number).capacity
        out.append((c.number, cap - sum(ctx.pack.passenger(t).capacity for t in c.passengers)))
    return out


def profit_z3(
    ctx: Context, state: AerState, seat: int, *, claimable: bool = False, alone: bool = False, timeout_ms: int
) -> Answer:
    """Tiles of one kind (capacity, VP, claimable now) are interchangeable, so the encoding counts tiles
    of each kind per card instead of choosing tile by tile: a Boolean per tile and card let Z3 wander
    through every permutation of equal tiles (seconds on a full waiting area)."""
    begin = time.perf_counter()
    require_readings(ctx, SCORING_DEFAULTS, "the standings encoding")
    tiles = candidate_tiles(ctx, state, seat)
    rooms = _rooms(ctx, state, seat)
    profits = _profits(ctx, state)
    by_kind: dict[tuple[int, int, bool], list[Tile]] = {}
    for t in tiles:
        by_kind.setdefault((t.capacity, t.vp, t.claimable or not claimable), []).append(t)
    kinds = sorted(by_kind)
    rs = RuleSolver(timeout_ms)
    n = [[z3.Int(f"carry!{cap}!{vp}!{ok}!{card}") for card, _ in rooms] for cap, vp, ok in kinds]
    for row, kind in zip(n, kinds, strict=True):  # a tile is claimed once (structure)
        rs.add(*[v >= 0 for v in row])
        if row:
            rs.add(z3.Sum(row) <= len(by_kind[kind]))
    r36 = []
    for c, (_, room) in enumerate(rooms):
        load = [n[k][c] * cap for k, (cap, _, _) in enumerate(kinds)]
        if load:
            r36.append(z3.Sum(load) <= room)
    rs.rule(R36, r36)
    if claimable:
        rs.rule(R34, [v == 0 for k, (_, _, ok) in enumerate(kinds) if not ok for v in n[k]])
    gain = z3.Int("gain")
    parts = [v * (vp + cap) for k, (cap, vp, _) in enumerate(kinds) for v in n[k]]
    rs.rule(R51, [gain == (z3.Sum(parts) if parts else z3.IntVal(0))])
    mine = profits[seat] + gain
    rs.rule(R52, [(mine > p if alone else mine >= p) for j, p in enumerate(profits) if j != seat])
    extra = z3.Int("extra")
    counts = [v for row in n for v in row]
    rs.add(extra == (z3.Sum(counts) if counts else z3.IntVal(0)))
    status, k, model, checks = _minimise(rs, extra, len(tiles))
    if status == "sat" and model is not None:
        chosen: list[Tile] = []
        for i, kind in enumerate(kinds):
            taken = sum(int_in(model, v) for v in n[i])
            chosen += by_kind[kind][:taken]  # any tiles of the kind: they are alike
        return Answer(
            "reachable", k, tuple(t.id for t in chosen), sum(t.capacity for t in chosen), (), checks, ms(begin)
        )
    if status == "unsat":
        return Answer("unreachable", None, (), None, rs.core(), checks, ms(begin))
    return Answer("unknown", None, (), None, (), checks, ms(begin), rs.reason())


def _best_fit(kinds: list[tuple[int, int]], mult: list[int], rooms: list[int], k: int) -> tuple[int, list[int]] | None:
    """The largest gain of exactly ``k`` tiles of these kinds (capacity, vp) that fit the rooms, and the
    kind of each tile taken (exhaustive: every kind multiset, every card)."""
    best: tuple[int, list[int]] | None = None

    def go(start: int, left: int, free: list[int], gain: int, taken: list[int], used: Counter[int]) -> None:
        nonlocal best
        if left == 0:
            if best is None or gain > best[0]:
                best = (gain, list(taken))
            return
        for i in range(start, len(kinds)):
            if used[i] >= mult[i]:
                continue
            cap, vp = kinds[i]
            for c in range(len(free)):
                if free[c] >= cap:
                    free[c] -= cap
                    used[i] += 1
                    taken.append(i)
                    go(i, left - 1, free, gain + cap + vp, taken, used)
                    taken.pop()
                    used[i] -= 1
                    free[c] += cap

    go(0, k, list(rooms), 0, [], Counter())
    return best


def oracle_profit(
    ctx: Context, state: AerState, seat: int, *, claimable: bool = False, alone: bool = False
) -> tuple[int | None, float]:
    """The fewest tiles, by exhaustive search for the best k tiles, checked on the state by scoring.py."""
    begin = time.perf_counter()
    tiles = [t for t in candidate_tiles(ctx, state, seat) if t.claimable or not claimable]
    rooms = _rooms(ctx, state, seat)
    kinds_count = Counter((t.capacity, t.vp) for t in tiles)
    kinds = sorted(kinds_count)
    mult = [kinds_count[k] for k in kinds]
    for k in range(0, len(tiles) + 1):
        found = _best_fit(kinds, mult, [r for _, r in rooms], k)
        if found is None:
            break
        chosen: list[Tile] = []
        pool = list(tiles)
        for i in found[1]:
            t = next(t for t in pool if (t.capacity, t.vp) == kinds[i])
            pool.remove(t)
            chosen.append(t)
        st = _with_tiles_exact(ctx, state, seat, chosen, [r for _, r in rooms], [n for n, _ in rooms])
        if st is not None and _first(scoring.profitability(ctx, st, state.era), seat, alone):
            return k, ms(begin)
    return None, ms(begin)


def _assign(tiles: Sequence[Tile], rooms: list[int]) -> list[int] | None:
    free = list(rooms)
    out: list[int] = []

    def go(i: int) -> bool:
        if i == len(tiles):
            return True
        for c in range(len(free)):
            if free[c] >= tiles[i].capacity:
                free[c] -= tiles[i].capacity
                out.append(c)
                if go(i + 1):
                    return True
                out.pop()
                free[c] += tiles[i].capacity
        return False

    return out if go(0) else None


def _with_tiles_exact(
    ctx: Context, state: AerState, seat: int, tiles: Sequence[Tile], rooms: list[int], numbers: list[int]
) -> AerState | None:
    cards = _assign(tiles, rooms)
    if cards is None:
        return None
    put: dict[int, list[str]] = {n: [] for n in numbers}
    for t, c in zip(tiles, cards, strict=True):
        put[numbers[c]].append(t.id)
    return _apply_tiles(state, seat, tiles, put)


def _apply_tiles(state: AerState, seat: int, tiles: Sequence[Tile], put: dict[int, list[str]]) -> AerState:
    ids = Counter(t.id for t in tiles if not t.overflow)
    over = Counter(t.id for t in tiles if t.overflow)
    waiting = []
    for w in state.waiting:
        slots: list[str | None] = []
        for t in w.slots:
            if t is not None and ids[t] > 0:
                ids[t] -= 1
                slots.append(None)
            else:
                slots.append(t)
        waiting.append(Waiting(w.city, tuple(slots)))
    overflow = []
    for t in state.overflow:
        if over[t] > 0:
            over[t] -= 1
        else:
            overflow.append(t)
    p = state.players[seat]
    cards = tuple(
        attrs.evolve(c, passengers=tuple(sorted((*c.passengers, *put.get(c.number, []))))) if put.get(c.number) else c
        for c in p.cards
    )
    players = list(state.players)
    players[seat] = attrs.evolve(p, cards=cards)
    return attrs.evolve(state, players=tuple(players), waiting=tuple(waiting), overflow=tuple(overflow))
