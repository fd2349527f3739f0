"""Ship Goods and the Sellout as pure functions over the rail network (KAS-R-36..41, KAS-R-51).

The network is modelled as a *line-adjacency graph*: every rail line is a
node and two lines are adjacent when they share a city (lines meet only at
cities, digest §3.0).  A route is an alternating walk

    origin depot on ℓ0 → city c1 (an end of ℓ0) → ℓ1 → c2 (ℓ1's other end) → … → ℓk → destination

where the lines ℓ0..ℓk are pairwise distinct (KAS-AMB-15: each line at most
once; cities may be passed through, open or closed, and may even repeat),
every line has at least one depot (KAS-R-37), and the destination is either
the far end of ℓk (for k = 0: either end of ℓ0) or one of the shipper's own
depots on ℓk (for k = 0: another own depot on ℓ0).

Stops (KAS-R-37, KAS-AMB-14): the origin and its line are free; each of
ℓ1..ℓk costs one stop; a destination city costs one more; a destination
depot on ℓk (k ≥ 1) *is* ℓk's stop; a destination depot on ℓ0 costs 1.

Tolls (KAS-R-38, KAS-AMB-16): on ℓ1..ℓk the stop is at the shipper's own
depot when they have one there (free); otherwise the shipper picks one
opponent owning a depot on that line and owes them $1 per good.

Nothing here mutates state; the rules layer applies what these functions
allow.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Literal

import attrs

from rulecraft.model.kings_of_air_and_steam.components import GOODS_INDEX, GameMap, RailLine
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.state import CityState, Depot

SELLOUT_PRICE = 4  # KAS-R-51: every good sold in the Sellout brings $4, whatever its market value

Problem = tuple[str, str]
Payees = tuple[tuple[str, int], ...]
Prices = Mapping[str, int] | Sequence[int]


@attrs.frozen
class RouteRules:
    """The shipping readings besides the defaults; the defaults are all False.

    ``origin_stop`` is KAS-AMB-14 'origin-stop': the origin depot's line needs a
    stop too (at the origin depot itself, so it is free).  ``open_only`` is
    KAS-AMB-15 'open-only': a route may not pass through a closed city.
    ``free_stop`` is KAS-AMB-16 'free-choice': on a line with an own depot the
    shipper may still stop at an opponent's depot there (and pay).
    ``cash_only`` is KAS-AMB-17 'cash-only': tolls must be covered by the money
    held before the shipment, delivery income not counted.  ``revisit`` is
    KAS-AMB-15 'revisit': a route may use a line again (the origin's too); every
    further use is one more line ℓi of the walk, so it costs its own stop and,
    where the shipper has no depot on it, its own toll.  The rail level bounds
    the walk (each line after the origin's costs a stop).
    """

    origin_stop: bool = False
    open_only: bool = False
    free_stop: bool = False
    cash_only: bool = False
    revisit: bool = False

    @property
    def extra_stops(self) -> int:
        return 1 if self.origin_stop else 0


DEFAULT_RULES = RouteRules()


# -- value types ------------------------------------------------------------------------------------


@attrs.frozen
class Destination:
    """Where a shipment ends: a city (by name) or one of the shipper's own depots (by hex)."""

    kind: Literal["city", "depot"]
    city_name: str | None = None
    at: Hex | None = None

    @classmethod
    def city(cls, name: str) -> Destination:
        return cls("city", city_name=name)

    @classmethod
    def depot(cls, at: Hex) -> Destination:
        return cls("depot", at=at)

    @property
    def is_city(self) -> bool:
        return self.kind == "city"

    @property
    def name(self) -> str:
        """The city name, or ``"q,r"`` for a depot (stable text for messages and keys)."""
        if self.kind == "city":
            assert self.city_name is not None
            return self.city_name
        assert self.at is not None
        return f"{self.at.q},{self.at.r}"

    def sort_key(self) -> tuple[str, str, int, int]:
        if self.at is None:
            return (self.kind, self.city_name or "", 0, 0)
        return (self.kind, "", self.at.q, self.at.r)

    def __str__(self) -> str:
        return self.name if self.kind == "city" else f"depot {self.at}"


@attrs.frozen
class Route:
    """One way to ship from ``origin``: the lines ℓ0..ℓk, the stop count and who is paid.

    ``lines`` starts with the origin depot's own line.  ``payees`` lists, in
    route order, each tolled line (one with no depot of the shipper's) and
    the opponent seat whose depot the shipment stops at there.
    ``toll_per_good`` is the number of tolled lines (0 for Thaddeus Birch).
    """

    origin: Hex
    destination: Destination
    lines: tuple[str, ...]
    stops: int
    payees: Payees = ()
    toll_per_good: int = 0

    @property
    def after_origin(self) -> tuple[str, ...]:
        """The lines used after the origin's (ℓ1..ℓk): the form actions may carry."""
        return self.lines[1:]

    def sort_key(self) -> tuple[tuple[str, str, int, int], int, tuple[str, ...], Payees]:
        return (self.destination.sort_key(), self.stops, self.lines, self.payees)


@attrs.frozen
class Shipment:
    """One Ship Goods action: ``count`` goods of type ``goods`` along ``route`` (KAS-R-36)."""

    route: Route
    goods: str
    count: int

    def income(self, prices: Prices) -> int:
        """KAS-R-39: the current value per cube delivered to a city; a depot transfer earns nothing."""
        if not self.route.destination.is_city:
            return 0
        return self.count * price_of(prices, self.goods)

    def toll(self) -> int:
        """KAS-R-38: $1 per good for every tolled line."""
        return self.count * self.route.toll_per_good

    def net(self, prices: Prices) -> int:
        return self.income(prices) - self.toll()


def price_of(prices: Prices, goods: str) -> int:
    """A goods type's current market value from a mapping or a tuple in ``GOODS`` order."""
    if isinstance(prices, Mapping):
        return int(prices[goods])
    return int(prices[GOODS_INDEX[goods]])


def free_room(city: CityState, goods: str) -> int:
    """How many ``goods`` the city can take now (KAS-R-36, KAS-R-41, KAS-AMB-10).

    A closed tile or a city waiting for a demand tile accepts nothing, and a
    city only takes its current demand type.
    """
    if city.closed or city.waiting or city.demand != goods:
        return 0
    return max(0, city.slots - city.filled)


# -- the cached network -----------------------------------------------------------------------------


@attrs.frozen
class Network:
    """The static rail network of one map: which lines meet at which city, as quick lookups."""

    ends: Mapping[str, tuple[str, str]] = attrs.field(eq=False, hash=False)
    # (line, city) -> the other lines meeting at that city, sorted: the DFS's inner loop.
    onward: Mapping[tuple[str, str], tuple[str, ...]] = attrs.field(eq=False, hash=False)

    def far_end(self, line: str, city: str) -> str:
        a, b = self.ends[line]
        return b if a == city else a


def _network_uncached(lines: tuple[RailLine, ...]) -> Network:
    # Keyed on the lines only: the network does not depend on hexes, cities' demand or factories,
    # and hashing the lines tuple is cheap next to rebuilding the lookups.  Plain dicts, not a
    # graph library: two lines are adjacent exactly when they share an end city (digest §3.0), and
    # importing one cost a third of a second on every query.
    lines_at: dict[str, set[str]] = {}
    for ln in lines:
        for city in ln.ends:
            lines_at.setdefault(city, set()).add(ln.id)
    onward = {(ln.id, city): tuple(sorted(lines_at[city] - {ln.id})) for ln in lines for city in ln.ends}
    return Network({ln.id: ln.ends for ln in lines}, onward)


# Memoised by a call rather than a decorator: mutation testing (mutmut) skips decorated functions.
_network = functools.lru_cache(maxsize=32)(_network_uncached)


def network(game_map: GameMap) -> Network:
    """The cached line-adjacency network of a map."""
    return _network(game_map.lines)


@attrs.frozen
class _DepotView:
    """Per-call depot facts by line, computed once per ``routes`` call."""

    owners: Mapping[str, tuple[int, ...]]  # line -> sorted distinct owners of its depots
    own: Mapping[str, tuple[Hex, ...]]  # line -> the shipper's depot hexes on it, sorted


def _depot_view(game_map: GameMap, depots: Sequence[Depot], shipper: int) -> _DepotView:
    owners: dict[str, set[int]] = {}
    own: dict[str, list[Hex]] = {}
    for d in depots:
        line = game_map.line_of(d.at)
        if line is None:
            continue  # a depot off the rail cannot open a line (should not happen: KAS-R-54)
        owners.setdefault(line, set()).add(d.owner)
        if d.owner == shipper:
            own.setdefault(line, []).append(d.at)
    return _DepotView(
        {ln: tuple(sorted(s)) for ln, s in owners.items()},
        {ln: tuple(sorted(hs)) for ln, hs in own.items()},
    )


# -- route enumeration ------------------------------------------------------------------------------


def _line_paths(
    net: Network,
    view: _DepotView,
    origin_line: str,
    max_stops: int,
    only: tuple[str, ...] | None = None,
    blocked: frozenset[str] = frozenset(),
    *,
    revisit: bool,
) -> Iterator[tuple[tuple[str, ...], Destination, int]]:
    """Every (lines, destination, stops) with stops ≤ max_stops, before payee choices.

    Depth-first over the alternating line/city walk; ``stops_before`` counts
    the stops already owed on ℓ1..ℓ(i-1).  Pruning is exact: going onto a
    further line always costs at least one more stop.  ``only`` restricts the
    walk to one given line path (checking a named route needs no full search).
    ``blocked`` cities may end a route but not be passed through (KAS-AMB-15 'open-only');
    ``revisit`` lets the walk take a line already used (KAS-AMB-15 'revisit').
    """
    if max_stops < 1:
        return
    for other in view.own.get(origin_line, ()):
        yield (origin_line,), Destination.depot(other), 1
    for c1 in dict.fromkeys(net.ends[origin_line]):
        yield (origin_line,), Destination.city(c1), 1
    path = [origin_line]
    used = {origin_line}

    def extend(city: str, stops_before: int) -> Iterator[tuple[tuple[str, ...], Destination, int]]:
        if city in blocked:
            return
        for m in net.onward[(path[-1], city)]:
            if (m in used and not revisit) or m not in view.owners:  # KAS-AMB-15 / KAS-R-37
                continue
            if only is not None and (len(path) >= len(only) or only[len(path)] != m):
                continue
            path.append(m)
            used.add(m)
            lines = tuple(path)
            for at in view.own.get(m, ()):
                yield lines, Destination.depot(at), stops_before + 1  # the depot is m's stop
            far = net.far_end(m, city)
            if stops_before + 2 <= max_stops:
                yield lines, Destination.city(far), stops_before + 2
                yield from extend(far, stops_before + 1)
            path.pop()
            used.discard(m)  # under 'revisit' ``used`` decides nothing

    for c1 in dict.fromkeys(net.ends[origin_line]):
        yield from extend(c1, 0)


def _payee_choices(
    view: _DepotView, shipper: int, lines: tuple[str, ...], dest: Destination, free_stop: bool = False
) -> list[Payees]:
    """KAS-R-38 / KAS-AMB-16: one opponent per line where the shipper has no depot;
    under 'free-choice' also optionally one on a line where the shipper has one."""
    tolled = lines[1:]
    if not dest.is_city:
        tolled = tolled[:-1]  # the destination depot is the last line's (own) stop
    options: list[list[Payees]] = []
    for ln in tolled:
        opponents: list[Payees] = [((ln, seat),) for seat in view.owners[ln] if seat != shipper]
        if ln in view.own:
            if free_stop:
                options.append([(), *opponents])  # the own depot (free) or any opponent's
            continue
        options.append(opponents)
    return [tuple(pair for part in choice for pair in part) for choice in itertools.product(*options)]


def _routes_from(
    game_map: GameMap,
    depots: Sequence[Depot],
    shipper: int,
    origin: Hex,
    max_stops: int,
    no_tolls: bool,
    only: tuple[str, ...] | None = None,
    rules: RouteRules = DEFAULT_RULES,
    cities: Sequence[CityState] = (),
) -> list[Route]:
    origin_line = game_map.line_of(origin)
    if origin_line is None or not any(d.at == origin and d.owner == shipper for d in depots):
        raise ValueError(f"no depot of seat {shipper} at {origin} (KAS-R-36)")
    net = network(game_map)
    view = _depot_view(game_map, depots, shipper)
    out: list[Route] = []
    seen: set[tuple[tuple[str, ...], Destination]] = set()
    extra = rules.extra_stops
    blocked = _closed_cities(game_map, cities) if rules.open_only else frozenset()
    walks = _line_paths(net, view, origin_line, max_stops - extra, only, blocked, revisit=rules.revisit)
    for lines, dest, walked in walks:
        stops = walked + extra
        if dest.at == origin:
            continue  # shipping to the depot the goods already sit in is no shipment
        if (lines, dest) in seen:
            # Parallel lines (same two cities) let one line path reach a depot from either end; the
            # stops and tolls are the same, so it is one variant.  A line path and destination fix
            # the stop count, so the first one found stands for all.
            continue
        seen.add((lines, dest))
        if no_tolls:
            # KAS-R-86: Thaddeus Birch stops anywhere for free, so no payee choice exists.
            out.append(Route(origin, dest, lines, stops))
            continue
        for payees in _payee_choices(view, shipper, lines, dest, rules.free_stop):
            out.append(Route(origin, dest, lines, stops, payees, len(payees)))
    out.sort(key=Route.sort_key)
    return out


def _closed_cities(game_map: GameMap, cities: Sequence[CityState]) -> frozenset[str]:
    """The cities a route may not pass under KAS-AMB-15 'open-only'."""
    return frozenset(c.name for c, s in zip(game_map.cities, cities, strict=False) if s.closed)


def routes(
    game_map: GameMap,
    depots: Sequence[Depot],
    shipper: int,
    origin: Hex,
    rail_level: int,
    *,
    no_tolls: bool = False,
    rules: RouteRules = DEFAULT_RULES,
    cities: Sequence[CityState] = (),
) -> list[Route]:
    """Every legal route variant from the shipper's depot at ``origin`` (KAS-R-37, KAS-R-38).

    One Route per destination × line path × payee choice, with stops ≤
    ``rail_level``; sorted by destination, stops, lines, payees.  Whether a
    city accepts the goods is not checked here (that depends on the goods).
    Raises ValueError if ``origin`` holds no depot of the shipper's.
    """
    return _routes_from(game_map, depots, shipper, origin, rail_level, no_tolls, rules=rules, cities=cities)


def _min_stops(
    game_map: GameMap, view: _DepotView, origin_line: str, dest: Destination, need_depots: bool
) -> int | None:
    """Fewest stops to ``dest`` ignoring the rail level (a BFS over (line, entry city) states).

    Used only to explain a rejection; a shortest walk never reuses a line, so
    the BFS agrees with the simple-path enumeration.
    """
    net = network(game_map)

    def open_line(ln: str) -> bool:
        return not need_depots or ln in view.owners

    dest_line = game_map.line_of(dest.at) if dest.at is not None else None
    if dest_line == origin_line:
        return 1
    if dest.is_city and dest.city_name in net.ends[origin_line]:
        return 1
    best: int | None = None
    seen: set[tuple[str, str]] = set()
    frontier: list[tuple[str, str]] = [(origin_line, c) for c in net.ends[origin_line]]
    depth = 0  # stops owed on the lines entered so far
    while frontier and best is None:
        nxt: list[tuple[str, str]] = []
        for line, city in frontier:
            for m in net.onward[(line, city)]:
                if m == origin_line or not open_line(m) or (m, city) in seen:
                    continue
                seen.add((m, city))
                far = net.far_end(m, city)
                if dest_line == m:
                    best = depth + 1 if best is None else min(best, depth + 1)
                elif dest.is_city and far == dest.city_name:
                    best = depth + 2 if best is None else min(best, depth + 2)
                nxt.append((m, far))
        frontier = nxt
        depth += 1
    return best


# -- checking one shipment --------------------------------------------------------------------------


def _owns_depot_at(depots: Sequence[Depot], shipper: int, at: Hex) -> Depot | None:
    for d in depots:
        if d.at == at and d.owner == shipper:
            return d
    return None


def _city_problem(game_map: GameMap, cities: Sequence[CityState], name: str, goods: str, count: int) -> Problem | None:
    try:
        index = game_map.city_index(name)
    except KeyError:
        return ("KAS-R-36", f"there is no city called {name!r} on this map")
    city = cities[index]
    if city.closed:
        return ("KAS-R-41", f"{name}'s demand tile is fulfilled and face down: it accepts no more goods")
    if city.waiting:
        return ("KAS-R-40", f"{name} is fulfilled and waits for a demand tile (KAS-AMB-10): it accepts nothing now")
    if city.demand != goods:
        return ("KAS-R-36", f"{name} demands {city.demand or 'nothing'}, not {goods}")
    free = city.slots - city.filled
    if free < count:
        return ("KAS-R-36", f"{name} has {free} empty {goods} slot(s); the whole shipment of {count} must fit")
    return None


def _normalise_lines(game_map: GameMap, origin_line: str, lines: tuple[str, ...]) -> tuple[str, ...]:
    # Accept both the full path ℓ0..ℓk and the lines after the origin's (ℓ1..ℓk): a full path starts
    # with ℓ0, which an after-origin list can never contain, so the two forms cannot be confused.
    if lines and lines[0] == origin_line:
        return lines
    return (origin_line, *lines)


def _lines_problem(game_map: GameMap, view: _DepotView, lines: tuple[str, ...], revisit: bool) -> Problem | None:
    known = {ln.id for ln in game_map.lines}
    for ln in lines:
        if ln not in known:
            return ("KAS-R-37", f"there is no rail line {ln!r} on this map")
    if len(set(lines)) != len(lines) and not revisit:
        return ("KAS-R-37", "a route uses each rail line at most once (KAS-AMB-15)")
    for ln in lines:
        if ln not in view.owners:
            return ("KAS-R-37", f"rail line {ln} has no depot: nobody can ship along it")
    return None


def _payees_problem(
    view: _DepotView, shipper: int, route: Route, payees: Payees, no_tolls: bool, free_stop: bool = False
) -> Problem | None:
    if no_tolls:
        if payees:
            return ("KAS-R-86", "Thaddeus Birch never pays tolls: name no payee")
        return None
    tolled = [ln for ln, _ in route.payees]
    chosen: dict[str, int] = {}
    for ln, seat in payees:
        if ln in chosen:
            return ("KAS-R-38", f"one payee per line: line {ln} is named twice (KAS-AMB-17)")
        chosen[ln] = seat
        if ln not in route.lines[1:]:
            return ("KAS-R-38", f"line {ln} needs no stop on this route, so no toll is owed there")
        if ln in view.own and not free_stop:
            return ("KAS-R-38", f"you have a depot on line {ln}: the stop there is yours and free (KAS-AMB-16)")
        if not route.destination.is_city and ln == route.lines[-1]:
            return ("KAS-R-38", f"the destination depot is the stop on line {ln}: no toll is owed there")
        if seat == shipper or seat not in view.owners.get(ln, ()):
            return ("KAS-R-38", f"seat {seat} has no depot on line {ln} to stop at")
    for ln in tolled:
        if ln not in chosen and not (free_stop and ln in view.own):
            return ("KAS-R-38", f"line {ln} has only opponents' depots: choose whose depot to stop at (and pay)")
    return None


def shipment_problem(
    game_map: GameMap,
    depots: Sequence[Depot],
    cities: Sequence[CityState],
    shipper: int,
    money: int,
    prices: Prices,
    rail_level: int,
    origin: Hex,
    goods: str,
    count: int,
    destination: Destination | None,
    lines: tuple[str, ...] | None = None,
    payees: Payees | None = None,
    *,
    no_tolls: bool = False,
    rules: RouteRules = DEFAULT_RULES,
    room_for: int | None = None,
) -> Problem | None:
    """The first reason this Ship Goods action is illegal, as (rule ID, plain words), or None.

    ``lines`` is the route: the full path ℓ0..ℓk or only ℓ1..ℓk (both are
    accepted); None lets any legal path do.  ``payees`` names the opponent
    stopped at on each tolled line; None lets any valid choice do (the toll
    is the same whichever opponent is chosen).  ``room_for`` is how many goods the city must take
    when not all are placed (Bishop Kingston's returned good under KAS-AMB-37 'placed').
    """
    origin_depot = _owns_depot_at(depots, shipper, origin)
    origin_line = game_map.line_of(origin)
    if origin_depot is None or origin_line is None:
        return ("KAS-R-36", f"goods are shipped from one of your own depots; there is none of yours at {origin}")
    if goods not in GOODS_INDEX:
        return ("KAS-R-36", f"{goods!r} is not a goods type")
    if count < 1:
        return ("KAS-R-36", "a shipment has at least 1 good (KAS-AMB-18)")
    held = origin_depot.goods[GOODS_INDEX[goods]]
    if count > held:
        return ("KAS-R-36", f"the depot at {origin} holds {held} {goods}; it cannot ship {count}")
    if destination is None:
        return ("KAS-R-36", "name a destination: a city demanding the goods or another depot of yours")
    if destination.is_city:
        assert destination.city_name is not None
        placed = count if room_for is None else room_for
        problem = _city_problem(game_map, cities, destination.city_name, goods, placed)
        if problem is not None:
            return problem
    else:
        assert destination.at is not None
        if destination.at == origin:
            return ("KAS-R-36", "the destination depot is the origin itself")
        if _owns_depot_at(depots, shipper, destination.at) is None:
            return ("KAS-R-36", f"a depot transfer goes to your own depot; none of yours is at {destination.at}")

    view = _depot_view(game_map, depots, shipper)
    path: tuple[str, ...] | None = None
    if lines is not None:
        path = _normalise_lines(game_map, origin_line, lines)
        problem = _lines_problem(game_map, view, path, rules.revisit)
        if problem is not None:
            return problem

    # Enumerate with a stop bound large enough to see the given path (or the rail level if none is
    # given), then say precisely what is wrong with the closest candidate.
    extra = rules.extra_stops
    bound = max(rail_level, len(path) + 1 + extra) if path is not None else rail_level
    candidates = [
        r
        for r in _routes_from(game_map, depots, shipper, origin, bound, no_tolls, path, rules, cities)
        if r.destination == destination and (path is None or r.lines == path)
    ]
    if not candidates:
        if path is not None:
            return ("KAS-R-37", f"the lines {' → '.join(path)} do not form an unbroken rail path to {destination}")
        needed = _min_stops(game_map, view, origin_line, destination, need_depots=True)
        if rules.open_only and _reachable_unblocked(
            game_map, depots, shipper, origin, destination, rail_level, no_tolls, rules
        ):
            return ("KAS-R-37", f"every route to {destination} passes a closed city (KAS-AMB-15 'open-only')")
        if needed is not None:
            return _too_many_stops(f"reaching {destination}", needed + extra, rail_level)
        if _min_stops(game_map, view, origin_line, destination, need_depots=False) is not None:
            return ("KAS-R-37", f"every rail path to {destination} uses a line without a depot")
        return ("KAS-R-37", f"no rail path connects {origin} to {destination}")
    legal = [r for r in candidates if r.stops <= rail_level]
    if not legal:
        stops = min(r.stops for r in candidates)
        return _too_many_stops("this route", stops, rail_level)
    if payees is not None:
        matching = [r for r in legal if _same_payees(r.payees, payees)]
        if not matching:
            problem = _payees_problem(view, shipper, legal[0], payees, no_tolls, rules.free_stop)
            return problem or ("KAS-R-38", "no route matches these payees")
        legal = matching

    income = Shipment(legal[0], goods, count).income(prices)
    toll = min(Shipment(r, goods, count).toll() for r in legal)
    if rules.cash_only and money < toll:
        return ("KAS-R-38", f"tolls of ${toll} exceed the ${money} you hold (KAS-AMB-17 'cash-only')")
    if money + income < toll:
        return (
            "KAS-R-38",
            f"tolls of ${toll} exceed your ${money} plus ${income} delivery income (KAS-AMB-17)",
        )
    return None


def _reachable_unblocked(
    game_map: GameMap,
    depots: Sequence[Depot],
    shipper: int,
    origin: Hex,
    destination: Destination,
    rail_level: int,
    no_tolls: bool,
    rules: RouteRules,
) -> bool:
    """Whether a route within the rail level would reach ``destination`` if closed cities could be
    passed: then a closed city is what blocks it (to explain a refusal)."""
    unblocked = attrs.evolve(rules, open_only=False)
    reachable = _routes_from(game_map, depots, shipper, origin, rail_level, no_tolls, None, unblocked)
    return any(r.destination == destination for r in reachable)


def _too_many_stops(what: str, stops: int, rail_level: int) -> Problem:
    return ("KAS-R-37", f"{what} takes {stops} stops; rail level {rail_level} allows at most {rail_level}")


def _same_payees(a: Payees, b: Payees) -> bool:
    # Order is not part of the choice: compare as multisets of (line, seat).  A route's payees name
    # each line once unless the route reuses it (KAS-AMB-15 'revisit'), so a payee list naming a line
    # twice matches only a route that uses that line twice.
    return sorted(a) == sorted(b)


# -- enumerations -----------------------------------------------------------------------------------


def legal_shipments(
    game_map: GameMap,
    depots: Sequence[Depot],
    cities: Sequence[CityState],
    shipper: int,
    money: int,
    prices: Prices,
    rail_level: int,
    *,
    no_tolls: bool = False,
    rules: RouteRules = DEFAULT_RULES,
) -> list[Shipment]:
    """Every legal Ship Goods action of ``shipper``: origin × type × count × route variant.

    City deliveries are limited by the city's free slots (the whole shipment
    must fit, KAS-R-36); depot transfers take any count up to what is held.
    Tolls must be payable from money plus delivery income (KAS-AMB-17).
    """
    out: list[Shipment] = []
    own = sorted((d for d in depots if d.owner == shipper and any(d.goods)), key=lambda d: d.at)
    if not own:
        return out
    # Room per (city, type) once: the inner loop runs once per route variant and type.
    room = {(c.name, g): free_room(cities[i], g) for i, c in enumerate(game_map.cities) for g in GOODS_INDEX}
    for depot in own:
        options = _routes_from(game_map, depots, shipper, depot.at, rail_level, no_tolls, None, rules, cities)
        for goods, g in GOODS_INDEX.items():
            held = depot.goods[g]
            if held < 1:
                continue
            price = price_of(prices, goods)
            for route in options:
                toll, dest = route.toll_per_good, route.destination
                if dest.kind == "city":
                    most = min(held, room[(dest.name, goods)])
                    # KAS-AMB-17: money + n·price ≥ n·toll, i.e. n·(toll − price) ≤ money;
                    # 'cash-only' counts no income: n·toll ≤ money.
                    short = toll if rules.cash_only else toll - price
                else:
                    most, short = held, toll  # no income: money ≥ n·toll
                if short > 0:
                    most = min(most, money // short)
                out.extend(Shipment(route, goods, n) for n in range(1, most + 1))
    return out


def sellout_options(
    game_map: GameMap,
    depots: Sequence[Depot],
    cities: Sequence[CityState],
    shipper: int,
    rail_level: int,
    origin: Hex,
    goods: str,
    *,
    no_tolls: bool = False,
    rules: RouteRules = DEFAULT_RULES,
) -> list[Route]:
    """KAS-R-51 / KAS-AMB-25: the routes along which one ``goods`` from ``origin`` could be sold.

    A city qualifies when its current demand is that type with at least one
    empty slot and it is neither closed nor waiting; room is not consumed
    (nothing is placed).  Payees may be chosen per good, so every payee
    variant is listed.  Empty if ``origin`` holds no depot of the shipper's.
    """
    if _owns_depot_at(depots, shipper, origin) is None or game_map.line_of(origin) is None:
        return []
    room = {c.name: free_room(cities[i], goods) for i, c in enumerate(game_map.cities)}
    return [
        r
        for r in _routes_from(game_map, depots, shipper, origin, rail_level, no_tolls, None, rules, cities)
        if r.destination.is_city and room.get(r.destination.city_name or "", 0) >= 1
    ]


def sell_value(route: Route) -> int:
    """KAS-R-51: $4 for the good, less the $1 toll per tolled line (net of the route's tolls)."""
    return SELLOUT_PRICE - route.toll_per_good
