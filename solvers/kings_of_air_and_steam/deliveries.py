"""Z3 over Kings of Air and Steam shipping: reachable deliveries, building synthesis, Sellout value.

Three questions, each answered by Z3 and re-checked by the brute-force model
(:mod:`rulecraft.model.kings_of_air_and_steam.shipping`, which walks the
line-adjacency graph):

* ``deliveries`` — the design card's "which deliveries are reachable": for a
  player, every (origin depot, goods type, destination) with the largest
  legal count, the fewest stops, the lowest toll per good and the payee
  choices at that toll; for the demanded-but-unreachable ones, the rule IDs
  of an unsat core ("why not");
* ``synthesis`` — the cheapest new depots (KAS-R-33) and rail upgrades
  (KAS-R-35) that make one delivery possible, or "impossible" with a core;
* ``sellout`` — the Sellout value of a player (KAS-R-51, KAS-AMB-25).

Encoding.  A route is ℓ0 (the origin depot's line) followed by up to K
further lines, unrolled as K steps: ``on{i}.{ℓ}`` says line ℓ is the i-th
line after the origin, ``via{i}.{c}`` that the walk leaves step i at city c
(a line is entered at the city it shares with the previous line and left at
its far end).  Without building K = min(#lines − 1, rail level + 1): every
legal route fits (a route never repeats a line, KAS-AMB-15, and has at least
one stop per line after ℓ0), and a route one stop too long is still built so
that its core names the stop rule; synthesis uses the top of the rail track.

The origin, goods type, destination and count are choice variables (``q.*``),
so one encoding per map and size serves every depot of every player; it is
cached.  The state enters only as facts on ``i.*`` variables (the instance),
asserted untracked.  Each rule family is guarded by a label such as
``KAS-R-37#stops`` that every check assumes, so an unsat core names rule IDs;
``why`` shrinks the core until every label in it matters.  Questions are
put as assumption literals (no clause added, no push/pop), which keeps the
SAT solver's learnt clauses between the many small checks of one query.
Every check may say ``unknown`` (a timeout included): that is reported as
such, never as a proof.

Digest points this module encodes: stops per KAS-R-37 / KAS-AMB-14; tolls
per tolled line, one opponent per line, the shipper's own depot free
(KAS-R-38, KAS-AMB-16); toll test money + income ≥ toll (KAS-AMB-17);
count ≥ 1 of one type from one depot (KAS-AMB-18); the Sellout one good at
a time to a city with ≥ 1 free slot, tolls out of the $4 (KAS-AMB-25).
Thaddeus Birch (KAS-R-86) and Victor Blane (KAS-R-70) are advanced-game
characters the model does not play: not encoded.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import attrs
import z3

from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.kings_of_air_and_steam import shipping
from rulecraft.model.kings_of_air_and_steam.components import GOODS, GOODS_INDEX, GameMap
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.scenario import fixture_map
from rulecraft.model.kings_of_air_and_steam.shipping import DEFAULT_RULES, SELLOUT_PRICE, Destination, RouteRules
from rulecraft.model.kings_of_air_and_steam.state import CityState, Depot, KasState
from rulecraft.query import Query
from rulecraft.solvers.kings_of_air_and_steam.mapfile import MAP_HELP, use_map
from rulecraft.solving import ms as _ms
from rulecraft.statefile import admit, load_state

DEFAULT_TIMEOUT_MS = 2000
PAYEE_CAP = 32  # payee choices listed per delivery; beyond that the list is marked truncated
PLAN_CAP = 16  # cost-minimal building plans listed
DEPOT_COST_FIRST, DEPOT_COST_MORE = 4, 7  # KAS-R-33 (base game: Victor Blane's discount is not modelled)
ORACLE_MAX_LINES = 10  # the synthesis oracle tries every subset of lines: small maps only

Tracked = tuple[str, z3.BoolRef]
Payees = tuple[tuple[str, int], ...]


# -- the facts a query reads --------------------------------------------------------------------------


@attrs.frozen
class ShipView:
    """What shipping depends on, for one shipper: a state slice plus the pack's rail track.

    ``rail_costs[j - 1]`` is the price of reaching rail level j (KAS-R-35);
    its length is the top level.  Queries and oracles both read only this,
    so the random checks need no full game state.
    """

    game_map: GameMap
    depots: tuple[Depot, ...]
    cities: tuple[CityState, ...]
    shipper: int
    seats: int
    money: int
    prices: tuple[int, ...]  # in GOODS order
    rail_level: int
    rail_costs: tuple[int, ...]
    depots_left: int = 10
    # The shipping readings KAS-AMB-14..17 of the game (the model's RouteRules; defaults: all off).
    rules: RouteRules = DEFAULT_RULES

    @property
    def top_level(self) -> int:
        return len(self.rail_costs)

    def own_depots(self) -> list[Depot]:
        """The shipper's depots holding goods, by hex: the possible origins."""
        return sorted((d for d in self.depots if d.owner == self.shipper and any(d.goods)), key=lambda d: d.at)

    def depot(self, at: Hex) -> Depot | None:
        return next((d for d in self.depots if d.at == at and d.owner == self.shipper), None)

    def free_hexes(self, line: str) -> tuple[Hex, ...]:
        taken = {d.at for d in self.depots}
        return tuple(h for h in self.game_map.line(line).hexes if h not in taken)


def view_of(game: KingsOfAirAndSteamGame, state: KasState, seat: int) -> ShipView:
    """The shipping slice of a game state for ``seat``."""
    if not 0 <= seat < len(state.players):
        raise RulecraftError(f"there is no seat {seat} in a {len(state.players)}-player game")
    player = state.players[seat]
    if player.character in ("Thaddeus Birch", "Victor Blane"):
        # Their powers change tolls (KAS-R-86) and depot prices (KAS-R-70); the encoding does not
        # carry them yet, and a wrong answer is worse than none.
        raise RulecraftError(f"the delivery queries do not model {player.character}'s power yet (KAS-R-86 / KAS-R-70)")
    return ShipView(
        game.ctx.map_of(state),  # with Eva Blane's new lines (KAS-R-71)
        tuple(state.depots),
        tuple(state.cities),
        seat,
        len(state.players),
        player.money,
        tuple(game.ctx.prices(state)),
        player.rail_level,
        tuple(lv.cost for lv in game.pack.rail_track),
        player.depots_left,
        game.ctx.route_rules(),
    )


def _norm_payees(payees: Iterable[tuple[str, int]]) -> Payees:
    # A payee choice is a line -> seat map; route order is not part of it.
    return tuple(sorted(payees))


def _dest_key(dest: Destination) -> tuple[str, str, int, int]:
    return dest.sort_key()


# -- the encoding -----------------------------------------------------------------------------------


@attrs.frozen
class Encoding:
    """Variables and constraints for shipping on one map; the instance (and the origin) is separate."""

    rules: tuple[Tracked, ...]
    shape: tuple[z3.BoolRef, ...]  # untracked: the question's form and variable ranges
    ovar: z3.ArithRef  # the origin, as an index into ``origins`` (every rail hex)
    origins: tuple[Hex, ...]
    gvar: z3.ArithRef  # the goods type, as an index into GOODS
    dvar: z3.ArithRef  # the destination, as an index into ``dests``
    dests: tuple[Destination, ...]
    goods: Mapping[str, z3.BoolRef]  # gvar == i
    to_city: Mapping[str, z3.BoolRef]  # dvar == i
    to_depot: Mapping[Hex, z3.BoolRef]
    n: z3.ArithRef
    stops: z3.ArithRef
    toll: z3.ArithRef  # tolled lines = $ per good
    payto: Mapping[str, z3.ArithRef]  # per line: the opponent paid there, −1 for nobody
    new: Mapping[str, z3.BoolRef]  # synthesis: build a depot of the shipper's on this line
    level: z3.ArithRef  # the rail level in force (raised by synthesis)
    cost: z3.ArithRef  # synthesis: total building cost
    # Terms the queries ask again and again (one per origin and per triple), built once per encoding.
    memo: dict[Any, z3.BoolRef] = attrs.field(factory=dict, eq=False, hash=False, repr=False)

    def origin(self, at: Hex) -> z3.BoolRef:
        found = self.memo.get(at)
        if found is None:
            found = self.memo[at] = self.ovar == self.origins.index(at)
        return found

    def dest(self, dest: Destination) -> z3.BoolRef:
        if dest.is_city:
            assert dest.city_name is not None
            return self.to_city[dest.city_name]
        assert dest.at is not None
        return self.to_depot[dest.at]


def _iv(name: str) -> z3.ArithRef:
    return z3.Int(f"i.{name}")


def _ib(name: str) -> z3.BoolRef:
    return z3.Bool(f"i.{name}")


def _hex_name(h: Hex) -> str:
    return f"{h.q},{h.r}"


def _at_most_one(bools: Sequence[z3.BoolRef]) -> z3.BoolRef:
    return z3.PbLe([(b, 1) for b in bools], 1) if len(bools) > 1 else z3.BoolVal(True)


def _count(bools: Iterable[z3.BoolRef]) -> z3.ArithRef:
    terms = [z3.If(b, 1, 0) for b in bools]
    return z3.Sum(terms) if terms else z3.IntVal(0)


def steps_for(game_map: GameMap, level: int) -> int:
    """K: the most lines a route can use after the origin's (see the module docstring).

    Without building, ``level`` is the shipper's rail level + 1: every legal
    route fits, and a route one stop too long is still built so that its
    core names the stop rule; synthesis passes the top of the track.
    """
    return max(0, min(len(game_map.lines) - 1, level))


def count_bound(view: ShipView, count: int = 1) -> int:
    """The count's range for the toll sum: a power of two ≥ every stock, so the cached rules are reused."""
    most = max([count, 4, *(n for d in view.own_depots() for n in d.goods)])
    return 1 << (most - 1).bit_length()


@lru_cache(maxsize=32)
def encode(
    game_map: GameMap,
    steps: int,
    seats: int,
    nmax: int,
    mode: str,
    rail_costs: tuple[int, ...],
    rules: RouteRules = DEFAULT_RULES,
) -> Encoding:
    """The rules for shipping on this map from any origin; no state value enters here.

    ``mode``: "ship" (Ship Goods), "sellout" (one good to a city, tolls out
    of the $4, KAS-AMB-25) or "synth" (Ship Goods to a city after optional
    building).  ``nmax`` bounds the count (it only sizes the toll sum).  The
    origin is a choice like the goods and the destination, so one encoding
    (and one solver) serves every depot of every player.  ``rules`` are the
    game's shipping readings: KAS-AMB-14 'origin-stop' (one stop more),
    KAS-AMB-15 'open-only' (no passing a closed city), KAS-AMB-17 'cash-only'
    (no income toward tolls).  KAS-AMB-16 'free-choice' only adds dearer
    variants of the same routes (an optional toll on a line with an own
    depot), so no answer here changes under it: the cheapest toll, the
    fewest stops and their Pareto front are the default's.
    """
    lines = [ln.id for ln in game_map.lines]
    ends = {ln.id: ln.ends for ln in game_map.lines}
    city_names = sorted({c for ln in lines for c in ends[ln]})
    synth = mode == "synth"
    rail = game_map.rail_hexes()

    ovar, gvar, dvar, n = z3.Int("q.origin"), z3.Int("q.goods"), z3.Int("q.dest"), z3.Int("q.n")
    goods = {g: gvar == i for i, g in enumerate(GOODS)}
    dests = [Destination.city(c.name) for c in game_map.cities]
    if mode == "ship":
        dests += [Destination.depot(h) for h in rail]
    to_city = {d.name: dvar == i for i, d in enumerate(dests) if d.is_city}
    to_depot = {d.at: dvar == i for i, d in enumerate(dests) if d.at is not None}

    new = {ln: z3.Bool(f"b.new.{ln}") for ln in lines} if synth else {}
    level = z3.Int("b.level") if synth else _iv("level")

    def depot_on(ln: str) -> z3.BoolRef:
        return z3.Or(_ib(f"depot.{ln}"), new[ln]) if synth else _ib(f"depot.{ln}")

    def own_on(ln: str) -> z3.BoolRef:
        # KAS-R-38: a new depot of the shipper's makes its line a free stop too.
        return z3.Or(_ib(f"own.{ln}"), new[ln]) if synth else _ib(f"own.{ln}")

    origin = {h: ovar == i for i, h in enumerate(rail)}
    start = {ln: z3.Or([origin[h] for h in game_map.line(ln).hexes]) for ln in lines}  # ℓ0

    # -- the walk: KAS-R-37 ---------------------------------------------------------------------------
    on = {(i, ln): z3.Bool(f"on{i}.{ln}") for i in range(1, steps + 1) for ln in lines}
    via = {(i, c): z3.Bool(f"via{i}.{c}") for i in range(steps + 1) for c in city_names}
    act: list[z3.BoolRef] = [z3.BoolVal(True)]
    act += [z3.Or([on[(i, ln)] for ln in lines]) for i in range(1, steps + 1)]
    act.append(z3.BoolVal(False))
    last = [z3.And(act[i], z3.Not(act[i + 1])) for i in range(steps + 1)]

    path: list[z3.BoolRef] = [_at_most_one([via[(0, c)] for c in city_names])]
    for ln in lines:  # the origin may leave ℓ0 by either end
        path.append(z3.Implies(start[ln], z3.Or([via[(0, c)] for c in ends[ln]])))
    for i in range(1, steps + 1):
        path.append(_at_most_one([on[(i, ln)] for ln in lines]))
        path.append(z3.Implies(act[i + 1], act[i]))  # steps are used as a prefix
        path.append(_at_most_one([via[(i, c)] for c in city_names]))
        path.append(z3.Implies(act[i], z3.Or([via[(i, c)] for c in city_names])))
        path += [z3.Implies(via[(i, c)], act[i]) for c in city_names]
        for ln in lines:
            a, b = ends[ln]
            # Consecutive lines share a city: enter at the previous exit, leave by the far end.
            path.append(z3.Implies(on[(i, ln)], z3.Or(via[(i - 1, a)], via[(i - 1, b)])))
            path.append(z3.Implies(z3.And(on[(i, ln)], via[(i - 1, a)]), via[(i, b)]))
            path.append(z3.Implies(z3.And(on[(i, ln)], via[(i - 1, b)]), via[(i, a)]))
    for c, var in to_city.items():
        if c not in city_names:
            path.append(z3.Not(var))  # a city no line reaches
            continue
        path.append(z3.Implies(var, z3.Or([z3.And(last[i], via[(i, c)]) for i in range(steps + 1)])))
    for h, var in to_depot.items():
        lh = game_map.line_of(h)
        assert lh is not None
        # Another depot on ℓ0 needs no further line; any other ends the route on its line.
        ends_here = [z3.And(start[lh], z3.Not(act[1]))] + [z3.And(last[i], on[(i, lh)]) for i in range(1, steps + 1)]
        path.append(z3.Implies(var, z3.Or(ends_here)))

    once = []  # KAS-AMB-15: each line at most once, ℓ0 included
    for ln in lines:
        steps_on = [on[(i, ln)] for i in range(1, steps + 1)]
        once.append(_at_most_one(steps_on))
        once += [z3.Implies(start[ln], z3.Not(x)) for x in steps_on]
    opened = [z3.Implies(on[key], depot_on(key[1])) for key in on]
    # KAS-AMB-15 'open-only': a city the route goes on from (not its end) must not be closed.
    passing: list[z3.BoolRef] = []
    if rules.open_only:
        passing = [
            z3.Implies(z3.And(via[(i, c)], act[i + 1]), z3.Not(_ib(f"closed.{c}")))
            for i in range(steps)
            for c in city_names
        ]

    k = _count(act[1 : steps + 1])
    to_a_city = z3.And(dvar >= 0, dvar < len(to_city))
    # KAS-R-37 / KAS-AMB-14: the city is a stop of its own; a destination depot is its line's stop.
    stops = z3.If(to_a_city, k + 1, z3.If(k == 0, 1, k))
    if rules.extra_stops:  # KAS-AMB-14 'origin-stop': the origin's line needs a stop too
        stops = stops + rules.extra_stops

    # -- tolls: KAS-R-38 -------------------------------------------------------------------------------
    used = {ln: z3.Or([on[(i, ln)] for i in range(1, steps + 1)]) for ln in lines}
    tolled = {ln: z3.And(used[ln], z3.Not(own_on(ln))) for ln in lines}
    toll = _count(tolled.values())
    payto = {ln: z3.Int(f"payto.{ln}") for ln in lines}
    payee: list[z3.BoolRef] = []
    for ln in lines:
        payee.append((payto[ln] >= 0) == tolled[ln])  # one opponent per tolled line, nobody elsewhere
        payee += [z3.Implies(payto[ln] == s, _ib(f"has.{ln}.{s}")) for s in range(seats)]
    price = z3.Sum([z3.If(goods[g], _iv(f"price.{g}"), 0) for g in GOODS])
    # KAS-AMB-17: income pays tolls, n·short ≤ money; 'cash-only' counts no income.
    short = toll if rules.cash_only else toll - z3.If(to_a_city, price, 0)
    owed = z3.Sum([z3.If(n >= j, short, 0) for j in range(1, nmax + 1)])

    # -- what and where: KAS-R-36, 40, 41 ------------------------------------------------------------------
    stock = [z3.Implies(z3.And(origin[h], goods[g]), n <= _iv(f"held.{_hex_name(h)}.{g}")) for h in rail for g in GOODS]
    count_rule = z3.And(n >= 1, *stock)
    city_rule, closed_rule, waiting_rule = [], [], []
    for c, var in to_city.items():
        demanded = z3.Or([z3.And(goods[g], _ib(f"demand.{c}.{g}")) for g in GOODS])
        city_rule.append(z3.Implies(var, z3.And(demanded, _iv(f"free.{c}") >= n)))
        closed_rule.append(z3.Implies(var, z3.Not(_ib(f"closed.{c}"))))
        waiting_rule.append(z3.Implies(var, z3.Not(_ib(f"waiting.{c}"))))
    depot_rule = [
        z3.Implies(var, z3.And(_ib(f"ownhex.{_hex_name(h)}"), z3.Not(origin[h]))) for h, var in to_depot.items()
    ]

    tracked: list[Tracked] = [
        ("KAS-R-36#origin", z3.Or([z3.And(origin[h], _ib(f"ownhex.{_hex_name(h)}")) for h in rail])),
        ("KAS-R-36#count", count_rule),
        ("KAS-R-36#city", z3.And(city_rule)),
        ("KAS-R-41#closed", z3.And(closed_rule)),
        ("KAS-R-40#waiting", z3.And(waiting_rule)),
        ("KAS-R-37#path", z3.And(path)),
        ("KAS-R-37#once", z3.And(once)),
        *([("KAS-AMB-15#open-only", z3.And(passing))] if rules.open_only else []),
        ("KAS-R-37#depots", z3.And(opened)),
        ("KAS-R-37#stops", stops <= level),
        ("KAS-R-38#payee", z3.And(payee)),
    ]
    if to_depot:
        tracked.append(("KAS-R-36#depot", z3.And(depot_rule)))
    if mode != "sellout":  # KAS-AMB-25: in the Sellout the toll comes out of the $4
        tracked.append(("KAS-R-38#pay", owed <= _iv("money")))

    cost: z3.ArithRef = z3.IntVal(0)
    # The question's ranges; QF_FD bit-blasts only integers it can bound.
    shape = [ovar >= 0, ovar < len(rail), gvar >= 0, gvar < len(GOODS), dvar >= 0, dvar < len(dests)]
    shape += [n >= 0, n <= nmax, *[z3.And(payto[ln] >= -1, payto[ln] < seats) for ln in lines]]
    if synth:
        first = _count(new.values()) <= _iv("depots_left")
        room = [z3.Implies(new[ln], _iv(f"freehex.{ln}") >= 1) for ln in lines]
        tracked.append(("KAS-R-33#build", z3.And(first, *room)))
        tracked.append(("KAS-R-35#level", level >= _iv("level")))
        shape += [level >= 1, level <= len(rail_costs)]  # the track's own length: not a rule to explain
        depots_cost = [z3.If(new[ln], z3.If(_ib(f"depot.{ln}"), DEPOT_COST_MORE, DEPOT_COST_FIRST), 0) for ln in lines]
        upgrades = [
            z3.If(z3.And(level >= j, _iv("level") < j), rail_costs[j - 1], 0) for j in range(2, len(rail_costs) + 1)
        ]
        cost = z3.Sum(depots_cost + upgrades)
    if mode == "sellout":
        shape.append(n == 1)
    return Encoding(
        tuple(tracked),
        tuple(shape),
        ovar,
        tuple(rail),
        gvar,
        dvar,
        tuple(dests),
        goods,
        to_city,
        to_depot,
        n,
        stops,
        toll,
        payto,
        new,
        level,
        cost,
    )


def _fact(name: str, value: bool) -> z3.BoolRef:
    # A Bool fact as a literal (cheaper to build and to load than an equality with True/False).
    var = _ib(name)
    return var if value else z3.Not(var)


def instance(view: ShipView) -> list[z3.BoolRef]:
    """The state's values as facts on the ``i.*`` variables (asserted untracked)."""
    gm = view.game_map
    out: list[z3.BoolRef] = [
        _iv("level") == view.rail_level,
        _iv("money") == view.money,
        _iv("depots_left") == view.depots_left,
    ]
    owners: dict[str, set[int]] = {ln.id: set() for ln in gm.lines}
    own_hexes = {d.at for d in view.depots if d.owner == view.shipper}
    for d in view.depots:
        line = gm.line_of(d.at)
        if line is not None:
            owners[line].add(d.owner)
    taken = {d.at for d in view.depots}
    for ln in gm.lines:
        out += [
            _fact(f"depot.{ln.id}", bool(owners[ln.id])),
            _fact(f"own.{ln.id}", view.shipper in owners[ln.id]),
            _iv(f"freehex.{ln.id}") == sum(1 for h in ln.hexes if h not in taken),
        ]
        out += [_fact(f"has.{ln.id}.{s}", s != view.shipper and s in owners[ln.id]) for s in range(view.seats)]
    stock = {d.at: d.goods for d in view.depots if d.owner == view.shipper}
    for h in gm.rail_hexes():  # only the shipper's own depots hold goods they may ship
        out.append(_fact(f"ownhex.{_hex_name(h)}", h in own_hexes))
        held = stock.get(h, (0, 0, 0, 0, 0))
        out += [_iv(f"held.{_hex_name(h)}.{g}") == held[i] for g, i in GOODS_INDEX.items()]
    for g, i in GOODS_INDEX.items():
        out.append(_iv(f"price.{g}") == view.prices[i])
    for city, cs in zip(gm.cities, view.cities, strict=True):
        out += [_fact(f"demand.{city.name}.{g}", cs.demand == g) for g in GOODS]
        out += [
            _iv(f"free.{city.name}") == max(0, cs.slots - cs.filled),
            _fact(f"closed.{city.name}", cs.closed),
            _fact(f"waiting.{city.name}", cs.waiting),
        ]
    return out


def _check(solver: z3.Solver, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """One place that runs Z3 (tests replace it to force 'unknown')."""
    return solver.check(*assumptions)


def _core_ids(labels: Iterable[z3.ExprRef]) -> tuple[str, ...]:
    return tuple(sorted({name.split("#", 1)[0] for name in _core_labels(labels)}))


def _core_labels(labels: Iterable[z3.ExprRef]) -> tuple[str, ...]:
    # A core also holds the question's own literals (``ask.*``): only the rule labels explain.
    return tuple(sorted(str(b) for b in labels if str(b).startswith("KAS-")))


class Undecided(Exception):
    """A check came back 'unknown': the answer so far is not a proof."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@attrs.define
class _Session:
    """One solver over one view: rules tracked, the instance asserted, questions asked two ways.

    ``ask`` checks under assumption literals only.  Each literal names one
    atom of a question (``q.origin == 3``, ``stops <= 2``) and is defined
    once, at the base level, by an untracked equivalence; asking then adds
    no clause, so the SAT solver keeps everything it learnt (about 0.2 ms a
    check here, against 1–3 ms for push / add / check / pop).  ``check``
    (push/pop) is kept for questions that need fresh clauses: blocking
    clauses while enumerating, "anything else?" completeness checks.
    """

    enc: Encoding
    solver: z3.Solver
    view: ShipView
    checks: int = 0
    model: z3.ModelRef | None = None
    core: tuple[z3.ExprRef, ...] = ()
    lits: dict[Any, z3.BoolRef] = attrs.field(factory=dict)
    labels: tuple[z3.BoolRef, ...] = ()
    sat: bool = False

    @classmethod
    def open(cls, view: ShipView, mode: str, timeout_ms: int, count: int = 1) -> _Session:
        steps = steps_for(view.game_map, view.top_level if mode == "synth" else view.rail_level + 1)
        enc = encode(view.game_map, steps, view.seats, count_bound(view, count), mode, view.rail_costs, view.rules)
        # QF_FD bit-blasts the bounded integers to SAT: several times faster here than the default solver.
        solver = z3.SolverFor("QF_FD")
        solver.set("timeout", max(1, timeout_ms))
        solver.add(instance(view))
        solver.add(list(enc.shape))
        # Tracked by hand (label → rule, the labels assumed in every check) so that ``why`` can drop labels.
        labels = []
        for label, constraint in enc.rules:
            labels.append(z3.Bool(label))
            solver.add(z3.Implies(labels[-1], constraint))
        return cls(enc, solver, view, labels=tuple(labels))

    def lit(self, key: Any, atom: z3.BoolRef) -> z3.BoolRef:
        """The assumption literal standing for ``atom`` (defined on first use)."""
        found = self.lits.get(key)
        if found is None:
            found = self.lits[key] = z3.Bool(f"ask.{len(self.lits)}")
            self.solver.add(found == atom)  # a definition, not a rule: never in a core
        return found

    # Literals for the atoms the queries use.
    def o(self, at: Hex) -> z3.BoolRef:
        return self.lit(("origin", at), _origin_var(self.enc, at))

    def g(self, goods: str) -> z3.BoolRef:
        return self.lit(("goods", goods), self.enc.goods[goods])

    def d(self, dest: Destination) -> z3.BoolRef:
        return self.lit(("dest", dest), _dest_var(self.enc, dest))

    def t(self, t: Triple) -> list[z3.BoolRef]:
        return [self.o(t[0]), self.g(t[1]), self.d(t[2])]

    def n_is(self, n: int) -> z3.BoolRef:
        return self.lit(("n==", n), self.enc.n == n)

    def at_most(self, name: str, expr: z3.ArithRef, bound: int) -> z3.BoolRef:
        return self.lit((name, "<=", bound), expr <= bound)

    def at_least(self, name: str, expr: z3.ArithRef, bound: int) -> z3.BoolRef:
        return self.lit((name, ">=", bound), expr >= bound)

    def _run(self, *assumptions: z3.BoolRef, core: bool = False, labels: Sequence[z3.BoolRef] | None = None) -> bool:
        self.checks += 1
        result = _check(self.solver, *assumptions, *(self.labels if labels is None else labels))
        if result == z3.unknown:
            raise Undecided(self.solver.reason_unknown())
        # Model and core are read only when used: each costs about as much as a check here.
        self.model, self.sat = None, result == z3.sat
        self.core = tuple(self.solver.unsat_core()) if result == z3.unsat and core else ()
        return self.sat

    def ask(self, *lits: z3.BoolRef) -> bool:
        """sat → True (model kept), unsat → False; unknown raises Undecided."""
        return self._run(*lits)

    def why(self, *lits: z3.BoolRef) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The rule IDs and labels of an irreducible unsat core; ((), ()) when it is sat after all.

        Z3's own core may carry bystanders (a stock rule beside the stop
        rule that really says no); dropping each label in turn and keeping
        the drop when the question stays unsat leaves only rules that matter.
        """
        if self._run(*lits, core=True):
            return (), ()
        keep = [b for b in self.core if str(b).startswith("KAS-")]
        for label in list(keep):
            if not any(b.eq(label) for b in keep):
                continue  # already gone with an earlier, smaller core
            rest = [b for b in keep if not b.eq(label)]
            if not self._run(*lits, core=True, labels=rest):
                keep = [b for b in self.core if str(b).startswith("KAS-")]  # an even smaller core
        return _core_ids(keep), _core_labels(keep)

    def guard(self, constraint: z3.BoolRef) -> z3.BoolRef:
        """A fresh literal that switches ``constraint`` on when assumed (blocking clauses, one-off questions).

        Cheaper than push / add / pop in this solver; an unassumed guard leaves the clause asleep.
        """
        lit = z3.Bool(f"guard.{len(self.lits)}")
        self.lits[("guard", len(self.lits))] = lit
        self.solver.add(z3.Implies(lit, constraint))
        return lit

    def _model(self) -> z3.ModelRef:
        assert self.sat, "no model: the last check was not sat"
        if self.model is None:
            self.model = self.solver.model()
        return self.model

    def val(self, expr: z3.ExprRef) -> int:
        return int(self._model().eval(expr, model_completion=True).as_long())

    def true(self, expr: z3.ExprRef) -> bool:
        return bool(z3.is_true(self._model().eval(expr, model_completion=True)))

    def minimum(self, name: str, expr: z3.ArithRef, fixed: Sequence[z3.BoolRef], start: int, floor: int = 0) -> int:
        """The least value of ``expr`` under ``fixed``, descending from a model's value ``start``.

        ``floor`` is a bound no model can beat (stops ≥ 1, toll ≥ 0): reaching it ends the descent.
        """
        best = start
        while best > floor and self.ask(*fixed, self.at_most(name, expr, best - 1)):
            best = self.val(expr)
        return best

    def maximum(self, name: str, expr: z3.ArithRef, fixed: Sequence[z3.BoolRef], low: int, high: int) -> int:
        """The greatest value in [low, high] (``low`` known sat): the top first, then a binary search."""
        if low < high and self.ask(*fixed, self.at_least(name, expr, high)):
            return high
        high -= 1
        while low < high:
            mid = (low + high + 1) // 2
            if self.ask(*fixed, self.at_least(name, expr, mid)):
                low = max(mid, self.val(expr))
            else:
                high = mid - 1
        return low


# -- 1. reachable deliveries --------------------------------------------------------------------------


@attrs.frozen(order=True)
class Delivery:
    """One reachable (origin, goods, destination) with its best figures (KAS-R-36..38)."""

    origin: Hex
    goods: str
    destination: Destination = attrs.field(order=_dest_key)
    max_count: int
    min_stops: int
    min_toll: int  # $ per good on the cheapest route (0: toll-free)
    payees: tuple[Payees, ...]  # the payee choices at that toll, normalised
    # The Pareto-best routes as (stops, toll per good), fewest stops first: the fewest stops and the
    # lowest toll may come from different routes, and a rules person needs each route's pair.
    routes: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "origin": f"{self.origin.q},{self.origin.r}",
            "goods": self.goods,
            "to": self.destination.name,
            "to_kind": self.destination.kind,
            "max_count": self.max_count,
            "min_stops": self.min_stops,
            "min_toll_per_good": self.min_toll,
            "payees": [[[ln, seat] for ln, seat in p] for p in self.payees],
            "routes": [{"stops": stops, "toll_per_good": toll} for stops, toll in self.routes],
        }


def pareto(pairs: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The (stops, toll) pairs no other pair beats on both, fewest stops first."""
    front: list[tuple[int, int]] = []
    for stops, toll in sorted(set(pairs)):
        if not front or toll < front[-1][1]:
            front.append((stops, toll))
    return tuple(front)


@attrs.frozen
class WhyNot:
    origin: Hex
    goods: str
    destination: Destination
    core: tuple[str, ...]
    labels: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "origin": f"{self.origin.q},{self.origin.r}",
            "goods": self.goods,
            "to": self.destination.name,
            "core": list(self.core),
            "labels": list(self.labels),
        }


@attrs.frozen
class DeliveriesAnswer:
    status: str  # "ok" | "unknown"
    deliveries: tuple[Delivery, ...]
    why_not: tuple[WhyNot, ...]
    checks: int
    reason: str | None = None
    truncated: bool = False  # some payee list was cut at PAYEE_CAP


Triple = tuple[Hex, str, Destination]


def _triple_of(s: _Session) -> Triple:
    enc = s.enc
    return enc.origins[s.val(enc.ovar)], GOODS[s.val(enc.gvar)], enc.dests[s.val(enc.dvar)]


def _origin_var(enc: Encoding, at: Hex) -> z3.BoolRef:
    try:
        return enc.origin(at)
    except ValueError:
        raise RulecraftError(f"{at} is not a rail hex: no depot can stand there (KAS-R-54)") from None


def _dest_var(enc: Encoding, dest: Destination) -> z3.BoolRef:
    try:
        return enc.dest(dest)
    except KeyError:
        raise RulecraftError(f"{dest} is not a destination on this map") from None


def _is(enc: Encoding, t: Triple) -> z3.BoolRef:
    found = enc.memo.get(t)
    if found is None:
        found = enc.memo[t] = z3.And(enc.origin(t[0]), enc.goods[t[1]], enc.dest(t[2]))
    return found


def _explained(view: ShipView, origin: Hex | None, goods: str | None, to: Destination | None) -> list[Triple]:
    """The refusals worth a core: each held type to each city demanding it now and to each other own depot.

    Narrowed by the filters; a filter naming what the list leaves out (a
    city wanting another type, a depot holding nothing) is explained anyway,
    so that "why not?" always gets an answer.
    """
    gm = view.game_map
    out: list[Triple] = []
    depots = [d for d in view.own_depots() if origin is None or d.at == origin]
    if origin is not None and not depots:  # a depot holding nothing, or not the shipper's
        depots = [view.depot(origin) or Depot(origin, view.shipper)]
    own = [d.at for d in view.depots if d.owner == view.shipper]
    for depot in depots:
        kinds = [g for g in GOODS if (goods is None and depot.goods[GOODS_INDEX[g]] > 0) or g == goods]
        for g in kinds:
            if to is not None:
                out.append((depot.at, g, to))
                continue
            wanting = [c.name for c, cs in zip(gm.cities, view.cities, strict=True) if cs.demand == g]
            out += [(depot.at, g, Destination.city(name)) for name in wanting]
            out += [(depot.at, g, Destination.depot(h)) for h in own if h != depot.at]
    return out


def deliveries(
    view: ShipView,
    *,
    origin: Hex | None = None,
    goods: str | None = None,
    to: Destination | None = None,
    timeout_ms: int = DEFAULT_TIMEOUT_MS,
    why_not: bool = True,
) -> DeliveriesAnswer:
    """Z3: every reachable delivery of the shipper (optionally filtered), and why the demanded ones fail.

    1. enumerate (origin, goods, destination) triples at count 1 (the most
       permissive count: fewer goods never break a room, stock or toll
       rule), blocking each one found, until unsat;
    2. an unsat core for each refusal worth explaining (``_explained``);
    3. per triple the fewest stops and the lowest toll (descending from the
       first model), the largest count (its cap first, then a binary
       search), and the payee choices at the lowest toll (blocking each).
    """
    s = _Session.open(view, "ship", timeout_ms)
    enc = s.enc
    one = s.n_is(1)
    found: list[Triple] = []
    stops: dict[Triple, int] = {}
    tolls: dict[Triple, int] = {}
    most: dict[Triple, int] = {}
    payees: dict[Triple, list[Payees]] = {}
    routes: dict[Triple, tuple[tuple[int, int], ...]] = {}
    reasons: list[WhyNot] = []
    truncated = False
    try:
        narrow = [one]
        narrow += [s.o(origin)] if origin is not None else []
        narrow += [s.g(goods)] if goods is not None else []
        narrow += [s.d(to)] if to is not None else []
        while s.ask(*narrow):
            t = _triple_of(s)
            found.append(t)
            stops[t], tolls[t] = s.val(enc.stops), s.val(enc.toll)
            narrow.append(s.guard(z3.Not(_is(enc, t))))  # block it: the next model is another triple
        if why_not:
            for t in _explained(view, origin, goods, to):
                if t not in stops:
                    ids, labels = s.why(*s.t(t), one)
                    reasons.append(WhyNot(*t, ids, labels))
        for t in found:
            fixed = [*s.t(t), one]
            stops[t] = s.minimum("stops", enc.stops, fixed, stops[t], floor=1)
            tolls[t] = s.minimum("toll", enc.toll, fixed, tolls[t])
            # The stock and the city's room cap n (KAS-R-36): only the toll test can stop it below that.
            most[t] = s.maximum("n", enc.n, s.t(t), 1, _cap(view, t))
            payees[t], cut = _payee_options(s, t, tolls[t])
            truncated |= cut
            routes[t] = _pareto_routes(s, fixed, stops[t], tolls[t])
    except Undecided as exc:
        rows = _rows(found, most, stops, tolls, payees, routes)
        return DeliveriesAnswer("unknown", rows, tuple(reasons), s.checks, exc.reason, truncated)
    rows = _rows(found, most, stops, tolls, payees, routes)
    return DeliveriesAnswer("ok", rows, tuple(reasons), s.checks, None, truncated)


def _pareto_routes(
    s: _Session, fixed: Sequence[z3.BoolRef], min_stops: int, min_toll: int
) -> tuple[tuple[int, int], ...]:
    """From the fewest stops up: the lowest toll within that many stops, then the fewest stops that
    lower it, until the lowest toll is reached (a few checks: stops are at most the rail level)."""
    enc = s.enc
    bound, front = min_stops, []
    while True:
        within = [*fixed, s.at_most("stops", enc.stops, bound)]
        if not s.ask(*within):
            raise Undecided("the fewest stops found before are no longer possible")
        toll = s.minimum("toll", enc.toll, within, s.val(enc.toll))
        front.append((bound, toll))
        if toll <= min_toll:
            return tuple(front)
        cheaper = [*fixed, s.at_most("toll", enc.toll, toll - 1)]
        if not s.ask(*cheaper):
            raise Undecided("the lowest toll found before is no longer possible")
        bound = s.minimum("stops", enc.stops, cheaper, s.val(enc.stops), floor=1)


def _payee_options(s: _Session, t: Triple, toll: int) -> tuple[list[Payees], bool]:
    """Every distinct payee choice at this toll, blocking each one found."""
    if toll == 0:
        return [()], False  # KAS-R-38#payee: no tolled line, so nobody is paid: one choice
    enc = s.enc
    fixed = [*s.t(t), s.n_is(1), s.lit(("toll==", toll), enc.toll == toll)]
    found: list[Payees] = []
    while len(found) < PAYEE_CAP and s.ask(*fixed):
        paid = [(ln, seat) for ln, var in enc.payto.items() if (seat := s.val(var)) >= 0]
        found.append(_norm_payees(paid))
        # Every choice at this toll pays on exactly ``toll`` lines, so naming the paid ones blocks this choice.
        fixed.append(s.guard(z3.Not(z3.And([enc.payto[ln] == seat for ln, seat in paid]))))
    truncated = len(found) >= PAYEE_CAP and s.ask(*fixed)
    return found, truncated


def _rows(
    found: list[Triple],
    most: Mapping[Triple, int],
    stops: Mapping[Triple, int],
    tolls: Mapping[Triple, int],
    payees: Mapping[Triple, list[Payees]],
    routes: Mapping[Triple, tuple[tuple[int, int], ...]],
) -> tuple[Delivery, ...]:
    # After an 'unknown' only the triples whose figures were all settled are listed.
    done = [t for t in found if t in most and t in payees and t in routes]
    return tuple(sorted(Delivery(*t, most[t], stops[t], tolls[t], tuple(sorted(payees[t])), routes[t]) for t in done))


def _cap(view: ShipView, t: Triple) -> int:
    """The count no rule but the toll can stop: the stock, and a city's free slots (a search bound only)."""
    depot = view.depot(t[0])
    held = depot.goods[GOODS_INDEX[t[1]]] if depot is not None else 0
    if t[2].is_city:
        city = view.cities[view.game_map.city_index(t[2].name)]
        return max(1, min(held, city.slots - city.filled))
    return max(1, held)


def explain(
    view: ShipView, origin: Hex, goods: str, dest: Destination, count: int = 1, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> tuple[str, tuple[str, ...]]:
    """Is this one shipment possible?  ("sat", ()) or ("unsat", core rule IDs) or ("unknown", (reason,))."""
    s = _Session.open(view, "ship", timeout_ms, count)
    try:
        ids, _ = s.why(*s.t((origin, goods, dest)), s.n_is(count))
        return ("unsat", ids) if ids else ("sat", ())
    except Undecided as exc:
        return "unknown", (exc.reason,)


def oracle_deliveries(view: ShipView) -> list[Delivery]:
    """The same table from the model's brute force (``shipping.legal_shipments``)."""
    shipments = shipping.legal_shipments(
        view.game_map,
        view.depots,
        view.cities,
        view.shipper,
        view.money,
        view.prices,
        view.rail_level,
        rules=view.rules,
    )
    groups: dict[tuple[Hex, str, Destination], list[shipping.Shipment]] = {}
    for sh in shipments:
        groups.setdefault((sh.route.origin, sh.goods, sh.route.destination), []).append(sh)
    out: list[Delivery] = []
    for (origin, goods, dest), items in groups.items():
        ones = [sh.route for sh in items if sh.count == 1]  # every legal route is legal for one good
        toll = min(r.toll_per_good for r in ones)
        payees = tuple(sorted({_norm_payees(r.payees) for r in ones if r.toll_per_good == toll}))
        front = pareto((r.stops, r.toll_per_good) for r in ones)
        out.append(
            Delivery(
                origin, goods, dest, max(sh.count for sh in items), min(r.stops for r in ones), toll, payees, front
            )
        )
    return sorted(out)


# -- 2. synthesis: the cheapest building that makes a delivery possible ----------------------------------------


@attrs.frozen(order=True)
class Plan:
    """New depots (one per line, at the line's first free hex) and the rail level to reach."""

    cost: int
    lines: tuple[str, ...]
    level: int
    hexes: tuple[Hex, ...] = attrs.field(order=False)
    stops: int = attrs.field(order=False, default=0)
    toll: int = attrs.field(order=False, default=0)

    def sort_key(self) -> tuple[int, int, int, tuple[str, ...]]:
        return (self.cost, len(self.lines), self.level, self.lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "cost": self.cost,
            "depots": [{"line": ln, "at": f"{h.q},{h.r}"} for ln, h in zip(self.lines, self.hexes, strict=True)],
            "rail_level": self.level,
            "stops": self.stops,
            "toll_per_good": self.toll,
        }


@attrs.frozen
class SynthesisAnswer:
    status: str  # "possible" | "impossible" | "unknown"
    cost: int | None
    plans: tuple[Plan, ...]  # every cost-minimal plan (up to PLAN_CAP), best first
    core: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    checks: int = 0
    reason: str | None = None
    affordable: bool | None = None  # the shipper's money covers the cheapest plan now


def synthesis(
    view: ShipView, origin: Hex, goods: str, count: int, city: str, *, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> SynthesisAnswer:
    """Z3: the cheapest depots (KAS-R-33) and rail upgrades (KAS-R-35) that make the delivery legal.

    The building is priced as if done now, one line at a time ($4 on a
    line with no depot, $7 otherwise); the toll test uses the shipper's
    current money (building happens on earlier turns, with income between,
    so the plan's cost is reported, not deducted).  Cost is minimised by
    tightening a bound until unsat, then every plan at that cost is listed.
    """
    if goods not in GOODS_INDEX:
        raise RulecraftError(f"{goods!r} is not a goods type ({', '.join(GOODS)})")
    if city not in {c.name for c in view.game_map.cities}:
        raise RulecraftError(f"there is no city called {city!r} on this map")
    s = _Session.open(view, "synth", timeout_ms, count)
    enc = s.enc
    ask = [*s.t((origin, goods, Destination.city(city))), s.n_is(count)]
    best: Plan | None = None
    plans: list[Plan] = []
    try:
        ids, labels = s.why(*ask)
        if ids:
            return SynthesisAnswer("impossible", None, (), ids, labels, s.checks)
        cost = s.minimum("cost", enc.cost, ask, s.val(enc.cost))
        blocks = [*ask, s.lit(("cost==", cost), enc.cost == cost)]
        while len(plans) < PLAN_CAP and s.ask(*blocks):
            chosen = tuple(ln for ln, var in enc.new.items() if s.true(var))
            level = s.val(enc.level)
            # The plan as literals: each line's new-depot flag itself, and the level.
            fixed = [*ask, s.lit(("level", level), enc.level == level)]
            fixed += [var if ln in chosen else z3.Not(var) for ln, var in enc.new.items()]
            s.ask(*fixed)
            stops = s.minimum("stops", enc.stops, fixed, s.val(enc.stops), floor=1)
            s.ask(*fixed)
            toll = s.minimum("toll", enc.toll, fixed, s.val(enc.toll))
            hexes = tuple(view.free_hexes(ln)[0] for ln in chosen)
            plans.append(Plan(cost, chosen, level, hexes, stops, toll))
            best = best or plans[-1]
            same = z3.And(enc.level == level, *[var == (ln in chosen) for ln, var in enc.new.items()])
            blocks.append(s.guard(z3.Not(same)))
    except Undecided as exc:
        found = (best,) if best is not None else ()
        return SynthesisAnswer("unknown", None, found, checks=s.checks, reason=exc.reason)
    plans.sort(key=Plan.sort_key)
    return SynthesisAnswer("possible", cost, tuple(plans), checks=s.checks, affordable=view.money >= cost)


def _with_plan(view: ShipView, lines: Sequence[str], level: int) -> ShipView:
    extra = tuple(Depot(view.free_hexes(ln)[0], view.shipper) for ln in lines)
    return attrs.evolve(view, depots=tuple(sorted(view.depots + extra, key=lambda d: d.at)), rail_level=level)


def plan_cost(view: ShipView, lines: Sequence[str], level: int) -> int:
    """KAS-R-33 and KAS-R-35 priced directly (the oracle's arithmetic)."""
    gm = view.game_map
    opened = {gm.line_of(d.at) for d in view.depots}
    depots = sum(DEPOT_COST_MORE if ln in opened else DEPOT_COST_FIRST for ln in lines)
    return depots + sum(view.rail_costs[j - 1] for j in range(view.rail_level + 1, level + 1))


def oracle_synthesis(view: ShipView, origin: Hex, goods: str, count: int, city: str) -> tuple[int | None, list[Plan]]:
    """Brute force: every subset of buildable lines × every reachable rail level, checked by the model."""
    buildable = [ln.id for ln in view.game_map.lines if view.free_hexes(ln.id)]
    if len(buildable) > ORACLE_MAX_LINES:
        raise ValueError(f"the synthesis oracle is for small maps (≤ {ORACLE_MAX_LINES} buildable lines)")
    options: list[tuple[int, tuple[str, ...], int]] = []
    for r in range(min(len(buildable), view.depots_left) + 1):
        for subset in itertools.combinations(buildable, r):
            for level in range(view.rail_level, view.top_level + 1):
                options.append((plan_cost(view, subset, level), subset, level))
    options.sort()
    best: int | None = None
    plans: list[Plan] = []
    for cost, subset, level in options:
        if best is not None and cost > best:
            break
        changed = _with_plan(view, subset, level)
        # The delivery's check on the changed board: the shipment as a whole, then route by route.
        to = Destination.city(city)
        check = partial(
            shipping.shipment_problem,
            changed.game_map, changed.depots, changed.cities, view.shipper, view.money, view.prices, level,
            origin, goods, count, to, rules=view.rules,
        )  # fmt: skip
        if check() is not None:
            continue
        best = cost
        every = shipping.routes(
            changed.game_map, changed.depots, view.shipper, origin, level, rules=view.rules, cities=changed.cities
        )
        routes = [r for r in every if r.destination == to and check(r.lines, r.payees) is None]
        hexes = tuple(view.free_hexes(ln)[0] for ln in subset)
        stops, toll = min(r.stops for r in routes), min(r.toll_per_good for r in routes)
        plans.append(Plan(cost, subset, level, hexes, stops, toll))
    plans.sort(key=Plan.sort_key)
    return best, plans


# -- 3. the Sellout value --------------------------------------------------------------------------------


@attrs.frozen
class SelloutLine:
    """One goods type in one depot: how many, the cheapest route's toll, the value per good."""

    origin: Hex
    goods: str
    count: int
    sellable: bool
    min_toll: int | None
    each: int  # $4 − toll, 0 when not worth selling or not sellable
    core: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "origin": f"{self.origin.q},{self.origin.r}",
            "goods": self.goods,
            "count": self.count,
            "sellable": self.sellable,
            "min_toll_per_good": self.min_toll,
            "value_each": self.each,
            "value": self.each * self.count,
            "core": list(self.core),
        }


@attrs.frozen
class SelloutAnswer:
    status: str  # "ok" | "unknown"
    value: int
    lines: tuple[SelloutLine, ...]
    checks: int = 0
    reason: str | None = None


def _worth(toll: int) -> int:
    # KAS-R-51: selling is optional, so a good is only sold when $4 beats its toll.
    return max(0, SELLOUT_PRICE - toll)


def sellout(view: ShipView, *, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> SelloutAnswer:
    """Z3: the money the shipper collects in the Sellout, good by good (KAS-R-51, KAS-AMB-25)."""
    s = _Session.open(view, "sellout", timeout_ms)
    lines: list[SelloutLine] = []
    try:
        for depot in view.own_depots():
            for g, i in GOODS_INDEX.items():
                held = depot.goods[i]
                if held < 1:
                    continue
                fixed = [s.o(depot.at), s.g(g)]  # any city: the good is sold, not delivered
                ids, _ = s.why(*fixed)
                if ids:
                    lines.append(SelloutLine(depot.at, g, held, False, None, 0, ids))
                    continue
                toll = s.minimum("toll", s.enc.toll, fixed, s.val(s.enc.toll))
                lines.append(SelloutLine(depot.at, g, held, True, toll, _worth(toll)))
    except Undecided as exc:
        return SelloutAnswer("unknown", 0, (), s.checks, exc.reason)
    return SelloutAnswer("ok", sum(x.each * x.count for x in lines), tuple(lines), s.checks)


def oracle_sellout(view: ShipView) -> tuple[int, dict[tuple[Hex, str], int | None]]:
    """The model's answer: total value and the cheapest toll per (depot, goods) (None: unsellable)."""
    total = 0
    tolls: dict[tuple[Hex, str], int | None] = {}
    for depot in view.own_depots():
        for g, i in GOODS_INDEX.items():
            if depot.goods[i] < 1:
                continue
            options = shipping.sellout_options(
                view.game_map, view.depots, view.cities, view.shipper, view.rail_level, depot.at, g, rules=view.rules
            )
            toll = min((r.toll_per_good for r in options), default=None)
            tolls[(depot.at, g)] = toll
            if toll is not None:
                total += depot.goods[i] * _worth(toll)
    return total, tolls


# -- Z3 against the oracles ------------------------------------------------------------------------------


def compare_deliveries(view: ShipView, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> str | None:
    got = deliveries(view, timeout_ms=timeout_ms, why_not=False)
    if got.status == "unknown":
        return None  # not a disagreement: Z3 proved nothing
    want = oracle_deliveries(view)
    z3_rows = [d for d in got.deliveries]
    if got.truncated:  # compare all but the (cut) payee lists
        z3_rows = [attrs.evolve(d, payees=()) for d in z3_rows]
        want = [attrs.evolve(d, payees=()) for d in want]
    if z3_rows != want:
        extra = sorted(set(z3_rows) - set(want))
        missing = sorted(set(want) - set(z3_rows))
        return (
            f"deliveries differ: z3 only {[d.to_json() for d in extra]}, oracle only {[d.to_json() for d in missing]}"
        )
    return None


def compare_synthesis(
    view: ShipView, origin: Hex, goods: str, count: int, city: str, timeout_ms: int = DEFAULT_TIMEOUT_MS
) -> str | None:
    got = synthesis(view, origin, goods, count, city, timeout_ms=timeout_ms)
    if got.status == "unknown":
        return None
    cost, plans = oracle_synthesis(view, origin, goods, count, city)
    if got.cost != cost:
        return f"synthesis {goods}×{count} → {city}: z3 cost {got.cost}, oracle {cost}"
    if len(got.plans) < PLAN_CAP and list(got.plans) != plans:
        mine, theirs = [p.to_json() for p in got.plans], [p.to_json() for p in plans]
        return f"synthesis {goods}×{count} → {city}: z3 {mine}, oracle {theirs}"
    return None


def compare_sellout(view: ShipView, timeout_ms: int = DEFAULT_TIMEOUT_MS) -> str | None:
    got = sellout(view, timeout_ms=timeout_ms)
    if got.status == "unknown":
        return None
    total, tolls = oracle_sellout(view)
    mine = {(x.origin, x.goods): x.min_toll for x in got.lines}
    if (got.value, mine) != (total, tolls):
        return f"sellout: z3 ${got.value} {mine}, oracle ${total} {tolls}"
    return None


# -- random small networks ------------------------------------------------------------------------------


def random_view(
    rng: random.Random, rail_costs: tuple[int, ...] = (0, 2, 3, 4, 5, 6), rules: RouteRules = DEFAULT_RULES
) -> ShipView:
    """A random small network: 4–7 cities, a few lines, depots of 2–3 owners, random demand and room;
    shipped under ``rules`` (a game's shipping readings)."""
    n_cities = rng.randint(4, 7)
    names = [f"C{i}" for i in range(n_cities)]
    pairs: list[tuple[str, str]] = [(names[rng.randrange(i)], names[i]) for i in range(1, n_cities)]  # a tree
    for _ in range(rng.randint(0, 3)):
        a, b = rng.sample(names, 2)
        pairs.append((a, b))  # extra lines: cycles and parallel lines
    lines = []
    for j, (a, b) in enumerate(pairs):
        lines.append({"id": f"L{j}", "ends": [a, b], "hexes": [[k, j] for k in range(rng.randint(1, 3))]})
    cities = [{"name": c, "at": [i, 50], "demand": rng.choice(GOODS)} for i, c in enumerate(names)]
    hexes = [h for ln in lines for h in ln["hexes"]] + [c["at"] for c in cities]
    game_map = fixture_map({"hexes": hexes, "cities": cities, "lines": lines}, "random")
    seats = rng.randint(2, 3)
    rail = list(game_map.rail_hexes())
    rng.shuffle(rail)
    depots: list[Depot] = []
    for at in rail[: rng.randint(2, min(len(rail), 7))]:
        owner = rng.randrange(seats)
        stock = tuple(rng.choice((0, 0, 1, 2, 3)) for _ in GOODS) if owner == 0 else (0,) * 5
        depots.append(Depot(at, owner, (stock[0], stock[1], stock[2], stock[3], stock[4])))
    if not any(d.owner == 0 and any(d.goods) for d in depots):  # the shipper needs something to ship
        depots[0] = Depot(depots[0].at, 0, (1, 1, 1, 1, 1))
    city_states = []
    for c in game_map.cities:
        tile = rng.random() < 0.3
        slots = 3 if tile else c.slots
        roll = rng.random()
        city_states.append(
            CityState(
                rng.choice(GOODS) if tile else c.demand,
                slots,
                rng.randint(0, slots - 1),
                tile,
                closed=tile and roll < 0.15,
                waiting=not tile and roll < 0.1,
            )
        )
    return ShipView(
        game_map,
        tuple(sorted(depots, key=lambda d: d.at)),
        tuple(city_states),
        0,
        seats,
        rng.randint(0, 5),
        tuple(rng.choice((4, 5, 6, 8)) for _ in GOODS),
        rng.randint(1, 4),
        rail_costs,
        rng.randint(1, 4),
        rules,
    )


def _random_view_of(game: KingsOfAirAndSteamGame, rng: random.Random) -> ShipView:
    """A random view shipped by ``game``'s rail track and shipping readings (for the oracle checks)."""
    return random_view(rng, tuple(lv.cost for lv in game.pack.rail_track), game.ctx.route_rules())


def random_target(view: ShipView, rng: random.Random) -> tuple[Hex, str, int, str]:
    """A synthesis question on a random view: an origin holding the goods, a count, any city."""
    depot = rng.choice(view.own_depots())
    held = [g for g in GOODS if depot.goods[GOODS_INDEX[g]] > 0]
    goods = rng.choice(held)
    count = rng.randint(1, depot.goods[GOODS_INDEX[goods]])
    # Mostly a city that wants the goods, so that building (not demand) decides the answer.
    wanting = [c.name for c, cs in zip(view.game_map.cities, view.cities, strict=True) if cs.demand == goods]
    if wanting and rng.random() < 0.8:
        return depot.at, goods, count, rng.choice(wanting)
    return depot.at, goods, count, rng.choice(view.game_map.cities).name


# -- the queries --------------------------------------------------------------------------------------------


# Readings that change shipping or the Sellout, which this encoding states at their defaults.
# KAS-AMB-14..17 are encoded (``encode``'s rules); 15's 'revisit' needs nothing: a route repeating a line
# holds a simple one with no more stops or toll, so every minimum is a simple route's (tested).
SHIPPING_READINGS = (
    "KAS-AMB-07",
    "KAS-AMB-18",
    "KAS-AMB-25",
    "KAS-AMB-26",
)


def _kas(game: Any) -> KingsOfAirAndSteamGame:
    if not isinstance(game, KingsOfAirAndSteamGame):
        raise RulecraftError(f"the shipping queries need a Kings of Air and Steam game, got {game!r}")
    unencoded = {amb: game.ctx.r(amb) for amb in SHIPPING_READINGS if game.ctx.r(amb) != game.register[amb].default}
    if unencoded:  # the encoding states the default shipping rules; answering with them would mislead
        raise NotApplicable(f"the shipping queries encode the default readings; this game plays {unencoded}")
    changed = game.parameters.changed(game.ctx.params)
    if changed:  # the encoding states the printed $4/$7 depot costs (DEPOT_COST_FIRST/MORE)
        raise NotApplicable(f"the shipping queries are encoded for the printed parameters; changed: {changed}")
    return game


def _hex_param(value: Any, name: str) -> Hex:
    try:
        q, r = str(value).split(",", 1)
        return Hex(int(q), int(r))
    except ValueError:
        raise RulecraftError(f"--{name}: a hex is q,r (e.g. 3,-1), got {value!r}") from None


def _by_city(found: Sequence[Any]) -> dict[str, dict[str, list[int]]]:
    """City deliveries as {city: {goods: [most goods, fewest stops, least toll per good]}}: the
    compact form a printed example lists (KAS-EX-13)."""
    out: dict[str, dict[str, list[int]]] = {}
    for d in found:
        row = d.to_json()
        if row["to_kind"] == "city":
            out.setdefault(row["to"], {})[row["goods"]] = [row["max_count"], row["min_stops"], row["min_toll_per_good"]]
    return out


def _view_from(game: KingsOfAirAndSteamGame, params: Mapping[str, Any], state: Any) -> ShipView:
    if state is None and params.get("state"):
        # A state file saved from a printed example carries its own board (the fixture): load_state
        # gives it to the game, so the map of layout "fixture" is there for view_of.
        state = load_state(Path(str(params["state"])), game)
    if not isinstance(state, KasState):
        raise RulecraftError("the shipping queries read a game state: give --state FILE")
    if params.get("map"):  # the same position on the judge's own map: its depots must stand on its rail
        state = attrs.evolve(state, layout=use_map(game, params["map"]))
    # A state read by another path (cmd_query, a caller) is checked too: a fixture layout whose board
    # did not come with it is one line naming the layout, not a KeyError deep in view_of.
    admit(game, state)
    seat = params.get("seat")
    return view_of(game, state, state.seat if seat is None else int(seat))


def _dest_param(view: ShipView, value: Any) -> Destination:
    text = str(value)
    if text in {c.name for c in view.game_map.cities}:
        return Destination.city(text)
    if "," in text:
        return Destination.depot(_hex_param(text, "to"))
    raise RulecraftError(f"--to: {text!r} is neither a city of this map nor a depot hex q,r")


def _goods_param(value: Any) -> str | None:
    if value is None:
        return None
    if value not in GOODS_INDEX:
        raise RulecraftError(f"--goods: {value!r} is not a goods type ({', '.join(GOODS)})")
    return str(value)


def add_state_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--state", metavar="FILE", help="a JSON state (game.state_to_json)")
    parser.add_argument("--seat", type=int, help="the shipper (default: the seat to move)")
    parser.add_argument("--map", metavar="FILE", help="the state on " + MAP_HELP)


@attrs.frozen
class DeliveriesQuery:
    name: str = "deliveries"
    help: str = (
        "Z3: every delivery a player can make now (count, stops, toll, payees, the Pareto-best routes when the"
        " fewest stops cost a toll) and why not"
    )
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_state_arguments(parser)
        parser.add_argument("--origin", help="only from the depot at q,r")
        parser.add_argument("--goods", choices=GOODS, help="only this goods type")
        parser.add_argument("--to", help="only to this city, or to the own depot at q,r")

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        view = _view_from(_kas(game), params, state)
        origin = _hex_param(params["origin"], "origin") if params.get("origin") else None
        to = _dest_param(view, params["to"]) if params.get("to") else None
        answer = deliveries(
            view, origin=origin, goods=_goods_param(params.get("goods")), to=to, timeout_ms=self.timeout_ms
        )
        return {
            "query": self.name,
            "solver": "z3",
            "seat": view.shipper,
            "rail_level": view.rail_level,
            "status": answer.status,
            "reason": answer.reason,
            "truncated": answer.truncated,
            "deliveries": [d.to_json() for d in answer.deliveries],
            "by_city": _by_city(answer.deliveries),
            "why_not": [w.to_json() for w in answer.why_not],
            "checks": answer.checks,
            "ms": _ms(start),
        }

    def format(self, answer: Mapping[str, Any]) -> str:
        out = [f"seat {answer['seat']} at rail level {answer['rail_level']}: {answer['status']}"]
        for d in answer["deliveries"]:
            count = f"1–{d['max_count']}" if d["max_count"] > 1 else "1"
            kind = "depot " if d["to_kind"] == "depot" else ""
            toll = "no toll"
            if d["min_toll_per_good"]:
                who = " | ".join(", ".join(f"{ln}→seat {s}" for ln, s in p) for p in d["payees"])
                toll = f"${d['min_toll_per_good']}/good to {who}"
            out.append(f"  {d['origin']}: {count} {d['goods']} → {kind}{d['to']} ({d['min_stops']} stop(s), {toll})")
            if len(d.get("routes", ())) > 1:  # the fewest stops and the lowest toll are different routes
                best = "; ".join(f"{r['stops']} stop(s) at ${r['toll_per_good']}/good" for r in d["routes"])
                out.append(f"    best routes: {best}")
        if not answer["deliveries"]:
            out.append("  no delivery is possible")
        for w in answer["why_not"]:
            out.append(f"  not {w['goods']} {w['origin']} → {w['to']}: {', '.join(w['core'])}")
        if answer["status"] == "unknown":
            out.append(f"Z3 could not decide: {answer['reason']} (the list may be incomplete)")
        out.append(f"({answer['checks']} checks, {answer['ms']} ms)")
        return "\n".join(out)

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        view = _random_view_of(_kas(game), rng)
        return compare_deliveries(view, self.timeout_ms)


@attrs.frozen
class SynthesisQuery:
    name: str = "synthesis"
    help: str = "Z3: the cheapest new depots and rail upgrades that make a delivery possible"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_state_arguments(parser)
        parser.add_argument("--origin", required=True, help="the shipper's depot at q,r")
        parser.add_argument("--goods", required=True, choices=GOODS, help="the goods type")
        parser.add_argument("--count", type=int, default=1, help="how many (default 1)")
        parser.add_argument("--to", required=True, help="the destination city")

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        view = _view_from(_kas(game), params, state)
        for key in ("origin", "goods", "to"):
            if not params.get(key):
                raise RulecraftError(f"synthesis needs --{key}")
        origin = _hex_param(params["origin"], "origin")
        goods = _goods_param(params["goods"])
        assert goods is not None
        count = int(params.get("count") or 1)
        a = synthesis(view, origin, goods, count, str(params["to"]), timeout_ms=self.timeout_ms)
        return {
            "query": self.name,
            "solver": "z3",
            "seat": view.shipper,
            "rail_level": view.rail_level,
            "target": {"origin": f"{origin.q},{origin.r}", "goods": goods, "count": count, "to": params["to"]},
            "status": a.status,
            "cost": a.cost,
            "affordable": a.affordable,
            "plans": [p.to_json() for p in a.plans],
            "core": list(a.core),
            "labels": list(a.labels),
            "reason": a.reason,
            "checks": a.checks,
            "ms": _ms(start),
        }

    def format(self, answer: Mapping[str, Any]) -> str:
        t = answer["target"]
        head = f"{t['count']} {t['goods']} {t['origin']} → {t['to']}: {answer['status']}"
        out = [head]
        if answer["status"] == "possible":
            out[0] += f", cheapest ${answer['cost']}" + ("" if answer["affordable"] else " (not affordable now)")
            for p in answer["plans"]:
                parts = [f"depot on {d['line']} at {d['at']}" for d in p["depots"]]
                if p["rail_level"] != answer["rail_level"]:
                    parts.append(f"rail level {answer['rail_level']} → {p['rail_level']}")
                what = " + ".join(parts) or "nothing to build"
                out.append(f"  {what}: {p['stops']} stop(s), toll ${p['toll_per_good']}/good")
        elif answer["status"] == "impossible":
            out.append(f"  even unlimited building cannot help: {', '.join(answer['core'])}")
        else:
            out.append(f"  Z3 could not decide: {answer['reason']}")
        out.append(f"({answer['checks']} checks, {answer['ms']} ms)")
        return "\n".join(out)

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        view = _random_view_of(_kas(game), rng)
        origin, goods, count, city = random_target(view, rng)
        return compare_synthesis(view, origin, goods, count, city, self.timeout_ms)


@attrs.frozen
class SelloutQuery:
    name: str = "sellout"
    help: str = "Z3: the Sellout value of a player's depots ($4 per sellable good less tolls)"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_state_arguments(parser)

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        view = _view_from(_kas(game), params, state)
        a = sellout(view, timeout_ms=self.timeout_ms)
        return {
            "query": self.name,
            "solver": "z3",
            "seat": view.shipper,
            "rail_level": view.rail_level,
            "status": a.status,
            "value": a.value,
            "goods": [x.to_json() for x in a.lines],
            "reason": a.reason,
            "checks": a.checks,
            "ms": _ms(start),
        }

    def format(self, answer: Mapping[str, Any]) -> str:
        out = [f"seat {answer['seat']}: Sellout value ${answer['value']} ({answer['status']})"]
        for x in answer["goods"]:
            if x["sellable"]:
                toll = f", toll ${x['min_toll_per_good']}" if x["min_toll_per_good"] else ""
                out.append(f"  {x['count']} {x['goods']} at {x['origin']}: ${x['value_each']} each{toll}")
            else:
                out.append(f"  {x['count']} {x['goods']} at {x['origin']}: unsellable ({', '.join(x['core'])})")
        if answer["status"] == "unknown":
            out.append(f"Z3 could not decide: {answer['reason']}")
        out.append(f"({answer['checks']} checks, {answer['ms']} ms)")
        return "\n".join(out)

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        view = _random_view_of(_kas(game), rng)
        return compare_sellout(view, self.timeout_ms)


QUERIES: dict[str, Query] = {"deliveries": DeliveriesQuery(), "synthesis": SynthesisQuery(), "sellout": SelloutQuery()}
