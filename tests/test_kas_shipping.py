"""Kings of Air and Steam shipping: routes, stops, tolls, legal shipments and the Sellout.

Rules KAS-R-36..41, KAS-R-51, KAS-R-86; printed examples KAS-EX-13, 14, 15
and 21 on the digest's minimal map reconstructions; ambiguity defaults
KAS-AMB-10, 14, 15, 16, 17, 18, 25, 26.  A property test compares
``routes`` with a brute-force oracle that lists the stops explicitly.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Mapping, Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.model.kings_of_air_and_steam import shipping
from rulecraft.model.kings_of_air_and_steam.components import GOODS, GOODS_INDEX, City, GameMap, MapHex, RailLine
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.shipping import (
    Destination,
    Route,
    Shipment,
    legal_shipments,
    routes,
    sell_value,
    sellout_options,
    shipment_problem,
)
from rulecraft.model.kings_of_air_and_steam.state import CityState, Depot, Goods

BLUE, YELLOW, GREEN = 0, 1, 2


def goods(**counts: int) -> Goods:
    values = [counts.get(g, 0) for g in GOODS]
    return (values[0], values[1], values[2], values[3], values[4])


def build_map(layout: str, cities: Mapping[str, str], lines: Sequence[tuple[str, str, str, int]]) -> GameMap:
    """A map with no geometry: cities on a far row, each line's rail hexes on its own row.

    The shipping model never looks at geometry (the pack loader checks it),
    so hexes only need to be distinct.
    """
    city_list = tuple(City(name, Hex(i, 100), demand) for i, (name, demand) in enumerate(sorted(cities.items())))
    rail = tuple(
        RailLine(lid, (a, b), tuple(Hex(j, i) for j in range(n))) for i, (lid, a, b, n) in enumerate(sorted(lines))
    )
    hexes = {c.at: MapHex(c.at, "A", city=c.name) for c in city_list}
    hexes.update({h: MapHex(h, "A", rail=ln.id) for ln in rail for h in ln.hexes})
    return GameMap(layout=layout, hexes=hexes, cities=city_list, lines=rail, factories=())


def city_states(game_map: GameMap, states: Mapping[str, CityState]) -> tuple[CityState, ...]:
    """CityStates in the map's city order; unnamed cities keep their printed demand, empty."""
    return tuple(states.get(c.name, CityState(c.demand)) for c in game_map.cities)


# -- KAS-EX-13 (p.13): the digest's minimal network -------------------------------------------------

EX13 = build_map(
    "EX-13",
    {
        "P": "chemical",  # no relevant demand: Blue's origin depot holds no chemical
        "Bown Town": "machine",
        "Wiesbaden": "textile",
        "Warsop": "luxury",
        "Aldenville": "food",
        "New Belfort": "luxury",
    },
    [
        ("S", "P", "Bown Town", 2),
        ("A", "Bown Town", "Wiesbaden", 1),
        ("B", "Wiesbaden", "Warsop", 1),
        ("C", "Wiesbaden", "Aldenville", 2),
        ("D", "Aldenville", "New Belfort", 1),
        ("E", "Wiesbaden", "New Belfort", 2),
    ],
)


def rail(game_map: GameMap, line: str, i: int = 0) -> Hex:
    return game_map.line(line).hexes[i]


ORIGIN = rail(EX13, "S")
DEPOT_A = rail(EX13, "A")
DEPOT_D = rail(EX13, "D")
EX13_DEPOTS = (
    Depot(ORIGIN, BLUE, goods(machine=1, textile=1, luxury=3, food=3)),
    Depot(DEPOT_A, BLUE),
    Depot(rail(EX13, "B"), YELLOW),
    Depot(rail(EX13, "C", 0), YELLOW),
    Depot(rail(EX13, "C", 1), GREEN),
    Depot(DEPOT_D, BLUE),
)
EX13_CITIES = city_states(
    EX13,
    {
        "Warsop": CityState("luxury", filled=4),  # exactly 1 free slot
        "Aldenville": CityState("food", filled=2),  # printed city, 3 free
        "New Belfort": CityState("luxury"),
    },
)
FOOD_AT_5 = {"chemical": 4, "machine": 4, "food": 5, "textile": 4, "luxury": 4}  # KAS-EX-14


def rule(found: tuple[str, str] | None) -> str | None:
    """The rule ID of a rejection (None: legal)."""
    return None if found is None else found[0]


def ex13_routes(level: int = 3, **kw: bool) -> list[Route]:
    return routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, level, **kw)


def to(dest: Destination, found: list[Route]) -> list[Route]:
    return [r for r in found if r.destination == dest]


def problem(
    count: int,
    kind: str,
    dest: Destination,
    *,
    lines: tuple[str, ...] | None = None,
    payees: tuple[tuple[str, int], ...] | None = None,
    money: int = 3,
    level: int = 3,
    depots: Sequence[Depot] = EX13_DEPOTS,
    cities: Sequence[CityState] = EX13_CITIES,
) -> tuple[str, str] | None:
    return shipment_problem(
        EX13, depots, cities, BLUE, money, FOOD_AT_5, level, ORIGIN, kind, count, dest, lines, payees
    )


def test_ex13_a_machine_to_bown_town_is_one_stop_without_toll() -> None:
    # KAS-EX-13 (a), KAS-AMB-14: the origin is not a stop and its line needs none.
    (route,) = to(Destination.city("Bown Town"), ex13_routes())
    assert (route.lines, route.stops, route.toll_per_good, route.payees) == (("S",), 1, 0, ())
    assert to(Destination.city("Bown Town"), ex13_routes(1)) == [route]  # rail level 1 suffices
    assert problem(1, "machine", Destination.city("Bown Town"), level=1) is None


def test_ex13_b_textile_to_wiesbaden_is_two_stops_own_depot_on_a() -> None:
    (route,) = to(Destination.city("Wiesbaden"), ex13_routes())
    assert (route.lines, route.stops, route.toll_per_good) == (("S", "A"), 2, 0)  # own A depot, then Wiesbaden
    assert problem(1, "textile", Destination.city("Wiesbaden"), level=2) is None
    rejected = problem(1, "textile", Destination.city("Wiesbaden"), level=1)
    assert rejected is not None and rejected[0] == "KAS-R-37" and "2 stops" in rejected[1] and "level 1" in rejected[1]


def test_ex13_c_one_luxury_to_warsop_is_three_stops_and_a_toll_to_yellow() -> None:
    (route,) = to(Destination.city("Warsop"), ex13_routes())
    assert (route.lines, route.stops, route.payees, route.toll_per_good) == (("S", "A", "B"), 3, (("B", YELLOW),), 1)
    assert Shipment(route, "luxury", 1).toll() == 1
    assert problem(1, "luxury", Destination.city("Warsop"), lines=("S", "A", "B"), payees=(("B", YELLOW),)) is None
    for count in (2, 3):  # KAS-R-36: the whole shipment must fit; Warsop has 1 free slot
        rejected = problem(count, "luxury", Destination.city("Warsop"))
        assert rejected is not None and rejected[0] == "KAS-R-36" and "1 empty" in rejected[1]


def test_ex13_d_food_to_aldenville_is_three_stops_toll_to_yellow_or_green() -> None:
    found = to(Destination.city("Aldenville"), ex13_routes())
    assert {(r.lines, r.stops, r.payees) for r in found} == {
        (("S", "A", "C"), 3, (("C", YELLOW),)),
        (("S", "A", "C"), 3, (("C", GREEN),)),
    }  # KAS-R-38: the shipper chooses whose C depot to stop at
    assert {Shipment(r, "food", 3).toll() for r in found} == {3}
    for seat in (YELLOW, GREEN):
        assert problem(3, "food", Destination.city("Aldenville"), lines=("A", "C"), payees=(("C", seat),)) is None
    assert rule(problem(4, "food", Destination.city("Aldenville"))) == "KAS-R-36"


def test_ex13_e_new_belfort_needs_four_stops() -> None:
    assert to(Destination.city("New Belfort"), ex13_routes()) == []
    rejected = problem(1, "luxury", Destination.city("New Belfort"))
    assert rejected == ("KAS-R-37", "reaching New Belfort takes 4 stops; rail level 3 allows at most 3")
    # At rail level 4 the route own A, Yellow/Green on C, own D, New Belfort is legal (KAS-P-02).
    found = to(Destination.city("New Belfort"), ex13_routes(4))
    assert {(r.lines, r.stops, r.toll_per_good) for r in found} == {(("S", "A", "C", "D"), 4, 1)}
    assert len(found) == 2  # Yellow or Green on C
    assert problem(3, "luxury", Destination.city("New Belfort"), level=4) is None


def test_ex13_line_e_has_no_depot_so_no_route_uses_it() -> None:
    # KAS-R-37: a line with no depot cannot be used by anyone, at any rail level.
    assert all("E" not in r.lines for r in ex13_routes(6))
    rejected = problem(1, "luxury", Destination.city("New Belfort"), lines=("S", "A", "E"))
    assert rejected is not None and rejected[0] == "KAS-R-37" and "no depot" in rejected[1]
    # With a depot on E it would be the 3-stop shortcut the digest mentions.
    with_e = (*EX13_DEPOTS, Depot(rail(EX13, "E"), GREEN))
    assert problem(1, "luxury", Destination.city("New Belfort"), lines=("A", "E"), depots=with_e) is None


def test_ex13_f_luxury_to_own_depot_on_d_is_three_stops() -> None:
    found = to(Destination.depot(DEPOT_D), ex13_routes())
    assert {(r.lines, r.stops, r.payees, r.toll_per_good) for r in found} == {
        (("S", "A", "C", "D"), 3, (("C", YELLOW),), 1),  # the D depot is both D's stop and the destination
        (("S", "A", "C", "D"), 3, (("C", GREEN),), 1),
    }
    assert {Shipment(r, "luxury", 3).toll() for r in found} == {3}
    assert problem(3, "luxury", Destination.depot(DEPOT_D), payees=(("C", GREEN),)) is None


def test_ex13_payee_choices_are_checked() -> None:
    dest = Destination.city("Aldenville")
    wrong_seat = problem(3, "food", dest, payees=(("C", 3),))
    assert wrong_seat is not None and wrong_seat[0] == "KAS-R-38" and "no depot on line C" in wrong_seat[1]
    own_line = problem(3, "food", dest, payees=(("A", YELLOW), ("C", YELLOW)))
    assert own_line is not None and own_line[0] == "KAS-R-38" and "depot on line A" in own_line[1]  # KAS-AMB-16
    missing = problem(3, "food", dest, payees=())
    assert missing is not None and missing[0] == "KAS-R-38" and "choose" in missing[1]


def test_ex13_exact_list_of_legal_shipments_at_level_3() -> None:
    found = legal_shipments(EX13, EX13_DEPOTS, EX13_CITIES, BLUE, 3, FOOD_AT_5, 3)
    city_deliveries = {(s.goods, s.count, s.route.destination.name) for s in found if s.route.destination.is_city}
    assert city_deliveries == {
        ("machine", 1, "Bown Town"),  # (a)
        ("textile", 1, "Wiesbaden"),  # (b)
        ("luxury", 1, "Warsop"),  # (c)
        ("food", 1, "Aldenville"),  # (d), any 1..3
        ("food", 2, "Aldenville"),
        ("food", 3, "Aldenville"),
    }
    transfers = {
        (s.goods, s.count, s.route.destination.at, s.route.stops, s.toll(), s.route.payees)
        for s in found
        if not s.route.destination.is_city
    }
    held = {"machine": 1, "textile": 1, "luxury": 3, "food": 3}
    expected: set[tuple[str, int, Hex | None, int, int, tuple[tuple[str, int], ...]]] = set()
    for kind, most in held.items():
        for n in range(1, most + 1):
            expected.add((kind, n, DEPOT_A, 1, 0, ()))  # own A depot: 1 stop, free
            for seat in (YELLOW, GREEN):
                expected.add((kind, n, DEPOT_D, 3, n, (("C", seat),)))  # (f) is the luxury case
    assert transfers == expected
    assert all(problem_of(s) is None for s in found)
    assert len(found) == len({(s.goods, s.count, s.route) for s in found})  # no duplicates


def problem_of(s: Shipment, money: int = 3) -> tuple[str, str] | None:
    return shipment_problem(
        EX13, EX13_DEPOTS, EX13_CITIES, BLUE, money, FOOD_AT_5, 3, s.route.origin, s.goods, s.count,
        s.route.destination, s.route.lines, s.route.payees,
    )


def test_ex13_first_problems_in_rule_order() -> None:
    not_own = shipment_problem(
        EX13, EX13_DEPOTS, EX13_CITIES, BLUE, 3, FOOD_AT_5, 3, DEPOT_D.step(0), "food", 1,
        Destination.city("Aldenville"), None, None,
    )
    assert not_own is not None and not_own[0] == "KAS-R-36"
    assert rule(problem(0, "food", Destination.city("Aldenville"))) == "KAS-R-36"  # AMB-18
    assert rule(problem(4, "food", Destination.depot(DEPOT_A))) == "KAS-R-36"  # only 3 held
    assert rule(problem(1, "chemical", Destination.depot(DEPOT_A))) == "KAS-R-36"
    wrong_type = problem(1, "luxury", Destination.city("Aldenville"))
    assert wrong_type is not None and wrong_type[0] == "KAS-R-36" and "demands food" in wrong_type[1]
    yellow_depot = problem(1, "food", Destination.depot(rail(EX13, "B")))
    assert yellow_depot is not None and yellow_depot[0] == "KAS-R-36"


# -- KAS-EX-14 (p.14): income pays the toll ---------------------------------------------------------


def test_ex14_income_fifteen_toll_three_net_twelve() -> None:
    route = to(Destination.city("Aldenville"), ex13_routes())[0]
    shipment = Shipment(route, "food", 3)
    assert (shipment.income(FOOD_AT_5), shipment.toll(), shipment.net(FOOD_AT_5)) == (15, 3, 12)
    assert shipment.income((4, 4, 5, 4, 4)) == 15  # prices as a tuple in GOODS order
    # KAS-R-38 / KAS-AMB-17: tolls are paid after the income, so $0 on hand is enough.
    assert problem(3, "food", Destination.city("Aldenville"), money=0) is None
    assert any(s.count == 3 and s.goods == "food" for s in legal_shipments(
        EX13, EX13_DEPOTS, EX13_CITIES, BLUE, 0, FOOD_AT_5, 3
    ) if s.route.destination.is_city)


def test_ex14_depot_transfer_with_unpayable_toll_is_illegal() -> None:
    # KAS-AMB-17: a depot-to-depot move earns nothing, so money on hand must cover the toll.
    rejected = problem(1, "luxury", Destination.depot(DEPOT_D), money=0)
    assert rejected is not None and rejected[0] == "KAS-R-38" and "$1" in rejected[1]
    assert rule(problem(3, "luxury", Destination.depot(DEPOT_D), money=2)) == "KAS-R-38"
    assert problem(2, "luxury", Destination.depot(DEPOT_D), money=2) is None
    broke = legal_shipments(EX13, EX13_DEPOTS, EX13_CITIES, BLUE, 0, FOOD_AT_5, 3)
    assert not any(s.route.destination == Destination.depot(DEPOT_D) for s in broke)
    assert problem(3, "luxury", Destination.depot(DEPOT_A), money=0) is None  # own A: no toll


def test_thaddeus_birch_pays_no_tolls() -> None:
    # KAS-R-86: his stops at opponents' depots are free, so there is nobody to choose as payee.
    found = to(Destination.depot(DEPOT_D), ex13_routes(no_tolls=True))
    assert [(r.stops, r.payees, r.toll_per_good) for r in found] == [(3, (), 0)]
    assert shipment_problem(
        EX13, EX13_DEPOTS, EX13_CITIES, BLUE, 0, FOOD_AT_5, 3, ORIGIN, "luxury", 3, Destination.depot(DEPOT_D),
        ("A", "C", "D"), (), no_tolls=True,
    ) is None
    named = shipment_problem(
        EX13, EX13_DEPOTS, EX13_CITIES, BLUE, 0, FOOD_AT_5, 3, ORIGIN, "luxury", 3, Destination.depot(DEPOT_D),
        ("A", "C", "D"), (("C", YELLOW),), no_tolls=True,
    )
    assert named is not None and named[0] == "KAS-R-86"


# -- KAS-EX-15 (p.14): a fulfilled city, then a demand tile -------------------------------------------


def test_ex15_after_the_fill_aldenville_takes_textile_then_closes() -> None:
    full = city_states(EX13, {"Aldenville": CityState("food", filled=5)})
    assert rule(problem(1, "food", Destination.city("Aldenville"), cities=full)) == "KAS-R-36"
    waiting = city_states(EX13, {"Aldenville": CityState("food", filled=0, waiting=True)})
    rejected = problem(1, "food", Destination.city("Aldenville"), cities=waiting)
    assert rejected is not None and "KAS-AMB-10" in rejected[1]  # empty demand pile: nothing accepted
    tile = city_states(EX13, {"Aldenville": CityState("textile", slots=3, tile=True)})
    assert problem(1, "textile", Destination.city("Aldenville"), cities=tile) is None  # 3 stops via C
    closed = city_states(EX13, {"Aldenville": CityState("textile", slots=3, filled=0, tile=True, closed=True)})
    assert rule(problem(1, "textile", Destination.city("Aldenville"), cities=closed)) == "KAS-R-41"


# -- KAS-EX-21 (p.16): the Sellout on the digest's two-cluster reconstruction -------------------------

EX21 = build_map(
    "EX-21",
    {
        "Raposa": "food",  # X
        "Irdyo": "chemical",  # W
        "Sartainville": "machine",  # Y
        "Geekopolis": "textile",  # Z
        "J1": "luxury", "J2": "luxury", "J3": "luxury", "J5": "luxury", "J6": "luxury",  # junctions
    },
    [
        ("L1", "Raposa", "J1", 1),
        ("L2", "J1", "J2", 1),
        ("L3", "J2", "J3", 1),
        ("L4", "J3", "Irdyo", 1),
        ("M1", "J5", "J6", 1),
        ("M2", "J6", "Sartainville", 2),
        ("M3", "J5", "Geekopolis", 1),
    ],
)
DA, DB = rail(EX21, "L1"), rail(EX21, "M1")
EX21_DEPOTS = (
    Depot(DA, BLUE, goods(chemical=1, food=2)),
    Depot(rail(EX21, "L2"), BLUE),  # empty, so DA and DB hold all of Blue's goods (digest review note)
    Depot(rail(EX21, "L3"), BLUE),
    Depot(rail(EX21, "L4"), BLUE),
    Depot(DB, BLUE, goods(textile=2, machine=3)),
    Depot(rail(EX21, "M2", 0), GREEN),
    Depot(rail(EX21, "M2", 1), YELLOW),
)
EX21_CITIES = city_states(EX21, {})


def sell(origin: Hex, kind: str) -> list[Route]:
    return sellout_options(EX21, EX21_DEPOTS, EX21_CITIES, BLUE, 3, origin, kind)


def test_ex21_each_good_of_the_sellout() -> None:
    assert sell(DA, "chemical") == []  # Irdyo: L2, L3, L4 + Irdyo = 4 stops > 3
    assert [r.stops for r in sellout_options(EX21, EX21_DEPOTS, EX21_CITIES, BLUE, 4, DA, "chemical")] == [4]
    (food,) = sell(DA, "food")
    assert (food.destination.name, food.stops, sell_value(food)) == ("Raposa", 1, 4)
    assert sell(DB, "textile") == []  # Geekopolis: M3 has no depot
    machines = sell(DB, "machine")
    assert {(r.destination.name, r.stops, r.payees, sell_value(r)) for r in machines} == {
        ("Sartainville", 2, (("M2", GREEN),), 3),
        ("Sartainville", 2, (("M2", YELLOW),), 3),
    }


def test_ex21_blue_nets_seventeen() -> None:
    total = tolls = 0
    sold: list[str] = []
    for depot in EX21_DEPOTS:
        for kind in GOODS:
            for _ in range(depot.goods[GOODS_INDEX[kind]]):  # one good at a time (KAS-R-51)
                options = sell(depot.at, kind)
                if options:
                    best = max(options, key=sell_value)
                    total += sell_value(best)
                    tolls += best.toll_per_good
                    sold.append(kind)
    assert sorted(sold) == ["food", "food", "machine", "machine", "machine"]
    assert (total, tolls) == (17, 3)  # 5 × $4 − $3


def test_sellout_needs_an_open_city_with_room() -> None:
    # KAS-AMB-25: current demand, ≥ 1 empty slot, not closed or waiting; Birch pays no toll (KAS-AMB-26).
    def raposa(state: CityState) -> list[Route]:
        cities = city_states(EX21, {"Raposa": state})
        return sellout_options(EX21, EX21_DEPOTS, cities, BLUE, 3, DA, "food")

    assert len(raposa(CityState("food", filled=4))) == 1
    assert raposa(CityState("food", filled=5)) == []
    assert raposa(CityState("food", slots=3, tile=True, closed=True)) == []
    assert raposa(CityState("food", waiting=True)) == []
    assert raposa(CityState("textile", slots=3, tile=True)) == []
    birch = sellout_options(EX21, EX21_DEPOTS, EX21_CITIES, BLUE, 3, DB, "machine", no_tolls=True)
    assert [sell_value(r) for r in birch] == [4]
    assert sellout_options(EX21, EX21_DEPOTS, EX21_CITIES, BLUE, 3, rail(EX21, "M2"), "machine") == []


# -- route shape details ---------------------------------------------------------------------------


def test_lines_may_be_named_with_or_without_the_origin_line() -> None:
    dest = Destination.city("Warsop")
    assert problem(1, "luxury", dest, lines=("A", "B")) is None
    assert problem(1, "luxury", dest, lines=("S", "A", "B")) is None
    broken = problem(1, "luxury", dest, lines=("A", "C"))
    assert broken is not None and broken[0] == "KAS-R-37" and "unbroken" in broken[1]
    twice = problem(1, "luxury", dest, lines=("A", "A", "B"))
    assert twice is not None and "KAS-AMB-15" in twice[1]


def test_another_own_depot_on_the_origin_line_is_one_stop() -> None:
    second = rail(EX13, "S", 1)
    depots = (*EX13_DEPOTS, Depot(second, BLUE))
    found = to(Destination.depot(second), routes(EX13, depots, BLUE, ORIGIN, 1))
    assert [(r.lines, r.stops, r.toll_per_good) for r in found] == [(("S",), 1, 0)]


# -- property test: routes against a brute-force oracle --------------------------------------------

OracleRoute = tuple[tuple[str, str], tuple[str, ...], int, tuple[tuple[str, int], ...]]


def oracle_routes(
    game_map: GameMap, depots: Sequence[Depot], shipper: int, origin: Hex, level: int
) -> set[OracleRoute]:
    """Breadth-first over (lines so far, city reached, stops made), listing each stop explicitly.

    A stop is ("depot", line, owner) or ("city", name); the stop count is the
    length of that list, the toll the number of stops at opponents' depots.
    """
    ends = {ln.id: ln.ends for ln in game_map.lines}
    on_line: dict[str, list[Depot]] = {}
    for d in depots:
        line = game_map.line_of(d.at)
        assert line is not None
        on_line.setdefault(line, []).append(d)
    origin_line = game_map.line_of(origin)
    assert origin_line is not None
    found: set[OracleRoute] = set()

    def record(dest: tuple[str, str], lines: tuple[str, ...], stops: tuple[tuple[str, str, int], ...]) -> None:
        if len(stops) <= level:
            payees = tuple((line, owner) for kind, line, owner in stops if kind == "depot" and owner != shipper)
            found.add((dest, lines, len(stops), payees))

    for d in on_line[origin_line]:  # another own depot on ℓ0: the destination is the only stop
        if d.owner == shipper and d.at != origin:
            record(("depot", str(d.at)), (origin_line,), (("depot", origin_line, shipper),))
    queue: deque[tuple[tuple[str, ...], str, tuple[tuple[str, str, int], ...]]] = deque()
    for city in set(ends[origin_line]):
        record(("city", city), (origin_line,), (("city", city, -1),))
        queue.append(((origin_line,), city, ()))
    while queue:
        lines, city, stops = queue.popleft()
        for m, (a, b) in sorted(ends.items()):
            if city not in (a, b) or m in lines or not on_line.get(m):
                continue
            far = b if a == city else a
            own = [d for d in on_line[m] if d.owner == shipper]
            path = (*lines, m)
            for d in own:  # the destination depot is also m's stop
                record(("depot", str(d.at)), path, (*stops, ("depot", m, shipper)))
            for d in own or on_line[m]:  # own depot if there is one, else any opponent's (KAS-R-38)
                made = (*stops, ("depot", m, d.owner))
                record(("city", far), path, (*made, ("city", far, -1)))
                if len(made) < level:
                    queue.append((path, far, made))
    return found


def as_oracle(route: Route) -> OracleRoute:
    dest = route.destination
    key = ("city", dest.name) if dest.is_city else ("depot", str(dest.at))
    return (key, route.lines, route.stops, route.payees)


@st.composite
def networks(draw: st.DrawFn) -> tuple[GameMap, tuple[Depot, ...], tuple[CityState, ...], Hex, int, int]:
    n_cities = draw(st.integers(4, 7))
    names = [f"C{i}" for i in range(n_cities)]
    cities = {name: draw(st.sampled_from(GOODS)) for name in names}
    pair = st.tuples(st.sampled_from(names), st.sampled_from(names)).filter(lambda p: p[0] != p[1])
    pairs = draw(st.lists(pair, min_size=3, max_size=9))  # repeated pairs give parallel lines
    lines = [(f"L{i}", a, b, draw(st.integers(1, 2))) for i, (a, b) in enumerate(pairs)]
    game_map = build_map("random", cities, lines)
    owners = draw(st.integers(2, 3))
    slot = st.one_of(st.none(), st.integers(0, owners - 1))
    small = st.tuples(*[st.integers(0, 2)] * 5)
    depots = []
    for i, at in enumerate(game_map.rail_hexes()):
        owner = 0 if i == 0 else draw(slot)  # the shipper (seat 0) always has a depot
        if owner is not None:
            depots.append(Depot(at, owner, draw(small) if owner == 0 else (0, 0, 0, 0, 0)))
    origin = draw(st.sampled_from([d.at for d in depots if d.owner == 0]))
    states = []
    for c in game_map.cities:
        slots = draw(st.sampled_from((5, 3)))
        states.append(
            CityState(
                draw(st.sampled_from(GOODS)) if slots == 3 else c.demand,
                slots=slots,
                filled=draw(st.integers(0, slots)),
                tile=slots == 3,
                closed=draw(st.booleans()) if slots == 3 else False,
                waiting=draw(st.integers(0, 5)) == 0,
            )
        )
    return game_map, tuple(depots), tuple(states), origin, draw(st.integers(1, 4)), draw(st.integers(0, 6))


@settings(max_examples=50)
@given(networks(), st.booleans(), st.tuples(*[st.integers(4, 8)] * 5))
def test_routes_match_the_oracle_and_shipments_pass_the_check(
    net: tuple[GameMap, tuple[Depot, ...], tuple[CityState, ...], Hex, int, int],
    no_tolls: bool,
    prices: tuple[int, int, int, int, int],
) -> None:
    game_map, depots, cities, origin, level, money = net
    found = routes(game_map, depots, 0, origin, level)
    assert len({as_oracle(r) for r in found}) == len(found)  # one Route per variant
    expected = oracle_routes(game_map, depots, 0, origin, level)
    assert {as_oracle(r) for r in found} == expected
    # The brief's projection: the same (destination, stops, toll per good) set.
    assert {(o[0], o[2], len(o[3])) for o in expected} == {(as_oracle(r)[0], r.stops, r.toll_per_good) for r in found}
    assert found == sorted(found, key=Route.sort_key)

    legal = legal_shipments(game_map, depots, cities, 0, money, prices, level, no_tolls=no_tolls)
    for s in legal:
        assert s.count >= 1 and s.route.stops <= level
        assert shipment_problem(
            game_map, depots, cities, 0, money, prices, level, s.route.origin, s.goods, s.count,
            s.route.destination, s.route.lines, s.route.payees, no_tolls=no_tolls,
        ) is None
        assert shipment_problem(
            game_map, depots, cities, 0, money, prices, level, s.route.origin, s.goods, s.count,
            s.route.destination, s.route.after_origin, None, no_tolls=no_tolls,
        ) is None
    # Completeness: every candidate up to a generous level passes the check iff it was listed.
    listed = {(s.route, s.goods, s.count) for s in legal}
    for d in depots:
        if d.owner != 0 or not any(d.goods):
            continue
        for route in routes(game_map, depots, 0, d.at, level + 2, no_tolls=no_tolls):
            for kind in GOODS:
                for count in range(1, d.goods[GOODS_INDEX[kind]] + 1):
                    verdict = shipment_problem(
                        game_map, depots, cities, 0, money, prices, level, d.at, kind, count,
                        route.destination, route.lines, route.payees, no_tolls=no_tolls,
                    )
                    assert (verdict is None) == ((route, kind, count) in listed), (route, kind, count, verdict)


# -- performance -----------------------------------------------------------------------------------


def grid_map(seed: int, depots_per_seat: int, loaded: int) -> tuple[GameMap, tuple[Depot, ...], tuple[CityState, ...]]:
    """A 7-player-sized network: a 4 × 4 grid of cities joined by 25 lines of 2–3 rail hexes.

    Every seat has ``depots_per_seat`` depots on random rail hexes; the
    shipper (seat 0) has goods (0–3 of each type) in ``loaded`` of them.
    """
    rng = random.Random(seed)
    names = {(x, y): f"K{x}{y}" for x in range(4) for y in range(4)}
    pairs = [(n, names[(x + 1, y)]) for (x, y), n in names.items() if x < 3]
    pairs += [(n, names[(x, y + 1)]) for (x, y), n in names.items() if y < 3]
    pairs.append((names[(0, 0)], names[(1, 1)]))
    spec = [(f"R{i:02}", a, b, rng.randint(2, 3)) for i, (a, b) in enumerate(pairs)]
    game_map = build_map("grid", {n: rng.choice(GOODS) for n in names.values()}, spec)
    hexes = list(game_map.rail_hexes())
    rng.shuffle(hexes)
    depots = []
    for seat in range(7):
        for i in range(depots_per_seat):
            stock = goods(**{g: rng.randint(0, 3) for g in GOODS}) if seat == 0 and i < loaded else goods()
            depots.append(Depot(hexes.pop(), seat, stock))
    return game_map, tuple(depots), city_states(game_map, {})


def test_legal_shipments_on_a_25_line_map_build_the_rail_network_once() -> None:
    """Every rail level has shipments on the 25-line grid, and a second call reuses the map's rail
    network instead of building it again (the time is measured in bench/kings_of_air_and_steam.py:
    speed is never asserted in a test)."""
    game_map, depots, cities = grid_map(1, 5, 3)
    assert len(game_map.lines) == 25
    shipping._network.cache_clear()
    for level in (3, 4, 6):
        first = legal_shipments(game_map, depots, cities, 0, 10, (4, 4, 4, 4, 4), level)
        built = shipping._network.cache_info().misses
        again = legal_shipments(game_map, depots, cities, 0, 10, (4, 4, 4, 4, 4), level)
        assert first and again == first
        assert shipping._network.cache_info().misses == built == 1
