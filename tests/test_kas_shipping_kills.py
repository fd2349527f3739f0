"""Kings of Air and Steam shipping (model/kings_of_air_and_steam/shipping.py): the paths the survivors
of the mutation baseline (bench/mutation/baseline/kas-shipping.md) showed unpinned (issue 22).

Refusals of a Ship Goods action with their rule and the stop count they name, the four shipping
readings (KAS-AMB-14 'origin-stop', KAS-AMB-15 'open-only', KAS-AMB-16 'free-choice', KAS-AMB-17
'cash-only'), payee choices and the rest of the route listing.  Expected values come from the
Hungarian rulebook (seeds/000, pp.13-14 "Áruszállítás", p.16 Sellout, p.20 Thaddeus Birch) and the
digest (/work/shared/rules/kings-of-air-and-steam.md: KAS-R-36..41, KAS-R-51, KAS-R-86, KAS-EX-13),
worked out by hand on small maps; never from running the model.

Stops (KAS-R-37, KAS-AMB-14 default, p.13): a route over lines ℓ0..ℓk costs k + 1 stops to a city at
the end of ℓk, k stops to an own depot on ℓk (k ≥ 1) and 1 to another own depot on ℓ0; under
'origin-stop' each costs one more.
"""

from __future__ import annotations

import pytest
from test_kas_shipping import (
    BLUE,
    DEPOT_A,
    DEPOT_D,
    EX13,
    EX13_CITIES,
    EX13_DEPOTS,
    FOOD_AT_5,
    GREEN,
    ORIGIN,
    YELLOW,
    build_map,
    city_states,
    goods,
    rail,
)

from rulecraft.model.kings_of_air_and_steam.components import GameMap
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.shipping import (
    DEFAULT_RULES,
    Destination,
    Payees,
    Problem,
    Route,
    RouteRules,
    legal_shipments,
    routes,
    sellout_options,
    shipment_problem,
)
from rulecraft.model.kings_of_air_and_steam.state import CityState, Depot

ORIGIN_STOP = RouteRules(origin_stop=True)  # KAS-AMB-14 'origin-stop'
OPEN_ONLY = RouteRules(open_only=True)  # KAS-AMB-15 'open-only'
FREE_CHOICE = RouteRules(free_stop=True)  # KAS-AMB-16 'free-choice'
CASH_ONLY = RouteRules(cash_only=True)  # KAS-AMB-17 'cash-only'


def ask(
    dest: Destination | None,
    *,
    kind: str = "luxury",
    count: int = 1,
    game_map: GameMap = EX13,
    depots: tuple[Depot, ...] = EX13_DEPOTS,
    cities: tuple[CityState, ...] = EX13_CITIES,
    origin: Hex = ORIGIN,
    money: int = 10,
    level: int = 3,
    lines: tuple[str, ...] | None = None,
    payees: Payees | None = None,
    no_tolls: bool = False,
    rules: RouteRules = DEFAULT_RULES,
) -> Problem | None:
    """shipment_problem for Blue (EX13 by default: Blue's bottom-left depot of KAS-EX-13, rail level 3)."""
    return shipment_problem(
        game_map,
        depots,
        cities,
        BLUE,
        money,
        FOOD_AT_5,
        level,
        origin,
        kind,
        count,
        dest,
        lines,
        payees,
        no_tolls=no_tolls,
        rules=rules,
    )


def refusal(found: Problem | None) -> Problem:
    assert found is not None, "the shipment should be refused"
    return found


def summary(found: list[Route]) -> list[tuple[str, int, Payees]]:
    return [(str(r.destination), r.stops, r.payees) for r in found]


def destinations(found: list[Route]) -> set[tuple[str, int]]:
    return {(str(r.destination), r.stops) for r in found}


def with_city(cities: tuple[CityState, ...], game_map: GameMap, name: str, state: CityState) -> tuple[CityState, ...]:
    i = game_map.city_index(name)
    return (*cities[:i], state, *cities[i + 1 :])


# -- Destination and the route listing's order --------------------------------------------------------


def test_a_depot_destination_is_a_depot_not_a_city_r36_p13() -> None:
    """KAS-R-36 (p.13): a shipment goes to a city or to another own depot; a depot names its hex."""
    d = Destination.depot(DEPOT_D)
    assert d == Destination("depot", at=DEPOT_D)
    assert d.kind == "depot" and not d.is_city
    assert str(d).startswith("depot ")
    assert str(Destination.city("Warsop")) == "Warsop"


def test_routes_are_listed_by_destination_city_names_first_r37_p13() -> None:
    """KAS-EX-13 (p.13) at rail level 3: Aldenville over C (Yellow or Green), Bown Town, P, Warsop,
    Wiesbaden, then the own depots on A and on D (C's payee twice); cities by name, then depots."""
    found = routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 3)
    assert [r.destination for r in found] == [
        Destination.city("Aldenville"),
        Destination.city("Aldenville"),
        Destination.city("Bown Town"),
        Destination.city("P"),
        Destination.city("Warsop"),
        Destination.city("Wiesbaden"),
        Destination.depot(DEPOT_A),
        Destination.depot(DEPOT_D),
        Destination.depot(DEPOT_D),
    ]


def test_a_depot_off_the_rail_changes_no_route_r54_p15() -> None:
    """KAS-R-54: depots stand beside rail lines; a stray depot (listed first) opens and closes nothing."""
    stray = Depot(Hex(50, 50), GREEN)
    assert routes(EX13, (stray, *EX13_DEPOTS), BLUE, ORIGIN, 3) == routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 3)


def test_routes_start_only_from_an_own_depot_r36_p13() -> None:
    """KAS-R-36 (p.13): goods leave from one of the shipper's own depots."""
    with pytest.raises(ValueError, match="KAS-R-36"):
        routes(EX13, EX13_DEPOTS, BLUE, rail(EX13, "S", 1), 3)  # a rail hex without any depot
    with pytest.raises(ValueError, match="KAS-R-36"):
        routes(EX13, EX13_DEPOTS, BLUE, rail(EX13, "B"), 3)  # Yellow's depot, not Blue's


# -- KAS-AMB-14 'origin-stop': the origin line needs a stop too -------------------------------------


def test_origin_stop_adds_one_stop_to_every_route_amb14() -> None:
    """KAS-AMB-14 'origin-stop' on KAS-EX-13: P, Bown Town and the own depot on A cost 2 instead of 1."""
    assert routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 1, rules=ORIGIN_STOP) == []
    assert destinations(routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 1)) == {
        ("P", 1),
        ("Bown Town", 1),
        (str(Destination.depot(DEPOT_A)), 1),
    }
    assert destinations(routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 2, rules=ORIGIN_STOP)) == {
        ("P", 2),
        ("Bown Town", 2),
        (str(Destination.depot(DEPOT_A)), 2),
    }


def test_origin_stop_refusal_names_two_stops_to_the_origin_lines_end_amb14() -> None:
    """Option (a) of KAS-EX-13 (Bown Town, 1 stop) takes 2 under 'origin-stop': too many at level 1."""
    found = refusal(ask(Destination.city("Bown Town"), kind="machine", level=1, rules=ORIGIN_STOP))
    assert found == ("KAS-R-37", "reaching Bown Town takes 2 stops; rail level 1 allows at most 1")


def test_origin_stop_refusal_for_a_depot_on_the_origin_line_amb14() -> None:
    """Another own depot on the origin line is 1 stop (KAS-R-37), 2 under 'origin-stop'."""
    second = rail(EX13, "S", 1)
    depots = (*EX13_DEPOTS, Depot(second, BLUE))
    reason = refusal(ask(Destination.depot(second), depots=depots, level=1, rules=ORIGIN_STOP))
    assert reason[0] == "KAS-R-37"
    assert reason[1].startswith("reaching depot ")
    assert reason[1].endswith("takes 2 stops; rail level 1 allows at most 1")
    assert ask(Destination.depot(second), depots=depots, level=1) is None


def test_a_named_route_too_long_says_its_stop_count_r37_p13() -> None:
    """KAS-EX-13 (e): A, C, D to New Belfort is 4 stops, 1 more than rail level 3 (p.13); 5 under
    'origin-stop'."""
    dest = Destination.city("New Belfort")
    assert ask(dest, lines=("A", "C", "D")) == ("KAS-R-37", "this route takes 4 stops; rail level 3 allows at most 3")
    assert ask(dest, lines=("A", "C", "D"), rules=ORIGIN_STOP) == (
        "KAS-R-37",
        "this route takes 5 stops; rail level 3 allows at most 3",
    )


# -- stop counts in refusals without a named route (KAS-R-37) ---------------------------------------


def test_new_belfort_needs_four_stops_r37_ex13e_p13() -> None:
    """KAS-EX-13 (e), p.13: "4 megállóra van szükség odáig" - level 3 is one short."""
    found = ask(Destination.city("New Belfort"))
    assert found == ("KAS-R-37", "reaching New Belfort takes 4 stops; rail level 3 allows at most 3")


def test_the_own_depot_on_d_needs_three_stops_r37_ex13f_p13() -> None:
    """KAS-EX-13 (f), p.13: the own depot on D needs rail level 3; at level 2 it is refused for 3 stops."""
    reason = refusal(ask(Destination.depot(DEPOT_D), count=3, level=2))
    assert reason[0] == "KAS-R-37"
    assert reason[1].startswith("reaching depot ")
    assert reason[1].endswith("takes 3 stops; rail level 2 allows at most 2")


def test_line_e_without_a_depot_is_why_new_belfort_is_unreachable_r37_p13() -> None:
    """KAS-R-37, p.13: "Az E vasútvonal nem használható, mert nincs rajta raktár".  Without Blue's
    depot on D, New Belfort is reachable only over depot-less lines."""
    depots = tuple(d for d in EX13_DEPOTS if d.at != DEPOT_D)
    found = ask(Destination.city("New Belfort"), depots=depots)
    assert found == ("KAS-R-37", "every rail path to New Belfort uses a line without a depot")


# A diamond: from Q lines X1 and X2 (Yellow) lead to R1 and R2; W (Blue) joins R1-R2; L1 and L2
# (Green) lead from R1 and R2 to Z; E joins Q-Z directly but has no depot.
DIAMOND = build_map(
    "diamond",
    {"P": "food", "Q": "food", "R1": "food", "R2": "food", "Z": "food"},
    [
        ("S", "P", "Q", 1),
        ("E", "Q", "Z", 1),
        ("X1", "Q", "R1", 1),
        ("X2", "Q", "R2", 1),
        ("W", "R1", "R2", 1),
        ("L1", "R1", "Z", 1),
        ("L2", "R2", "Z", 1),
    ],
)
DIAMOND_ORIGIN = rail(DIAMOND, "S")
DIAMOND_W = rail(DIAMOND, "W")
DIAMOND_DEPOTS = (
    Depot(DIAMOND_ORIGIN, BLUE, goods(food=3)),
    Depot(rail(DIAMOND, "X1"), YELLOW),
    Depot(rail(DIAMOND, "X2"), YELLOW),
    Depot(DIAMOND_W, BLUE),
    Depot(rail(DIAMOND, "L1"), GREEN),
    Depot(rail(DIAMOND, "L2"), GREEN),
)
DIAMOND_CITIES = city_states(DIAMOND, {})


def ask_diamond(dest: Destination, level: int) -> Problem | None:
    return ask(
        dest,
        kind="food",
        game_map=DIAMOND,
        depots=DIAMOND_DEPOTS,
        cities=DIAMOND_CITIES,
        origin=DIAMOND_ORIGIN,
        level=level,
    )


def test_two_equal_ways_to_a_city_count_three_stops_r37_p13() -> None:
    """Z over X1, L1 or X2, L2: a stop on each line and at Z = 3 stops (KAS-R-37); E has no depot."""
    assert ask_diamond(Destination.city("Z"), 3) is None
    found = ask_diamond(Destination.city("Z"), 2)
    assert found == ("KAS-R-37", "reaching Z takes 3 stops; rail level 2 allows at most 2")


def test_two_equal_ways_to_an_own_depot_count_two_stops_r37_p13() -> None:
    """The own depot on W over X1 or X2: X's stop and the depot (W's stop) = 2 stops (KAS-R-37)."""
    assert ask_diamond(Destination.depot(DIAMOND_W), 2) is None
    reason = refusal(ask_diamond(Destination.depot(DIAMOND_W), 1))
    assert reason[0] == "KAS-R-37"
    assert reason[1].startswith("reaching depot ")
    assert reason[1].endswith("takes 2 stops; rail level 1 allows at most 1")


# A triangle X, Y, Z beyond the origin line and a separate line I: Y2 cannot be reached at all.
TRIANGLE = build_map(
    "triangle",
    {"P": "food", "Q": "food", "R": "food", "T": "food", "Y1": "food", "Y2": "food"},
    [
        ("S", "P", "Q", 1),
        ("X", "Q", "R", 1),
        ("Y", "R", "T", 1),
        ("Z", "T", "Q", 1),
        ("I", "Y1", "Y2", 1),
    ],
)


def test_no_rail_path_to_a_separate_line_r37_p13() -> None:
    """KAS-R-37 (p.13): an unbroken rail path must join origin and destination."""
    origin = rail(TRIANGLE, "S")
    depots = (
        Depot(origin, BLUE, goods(food=1)),
        Depot(rail(TRIANGLE, "X"), YELLOW),
        Depot(rail(TRIANGLE, "Y"), YELLOW),
        Depot(rail(TRIANGLE, "Z"), YELLOW),
        Depot(rail(TRIANGLE, "I"), YELLOW),
    )

    def to(city: str, level: int) -> Problem | None:
        cities = city_states(TRIANGLE, {})
        return ask(
            Destination.city(city),
            kind="food",
            game_map=TRIANGLE,
            depots=depots,
            cities=cities,
            origin=origin,
            level=level,
        )

    reason = refusal(to("Y2", 5))
    assert reason[0] == "KAS-R-37"
    assert reason[1].startswith("no rail path connects ")
    assert reason[1].endswith(" to Y2")
    assert to("T", 2) is None  # S, then Z straight to T: 2 stops


# -- KAS-AMB-15 'open-only': closed cities block the route ------------------------------------------

WIESBADEN_CLOSED = with_city(EX13_CITIES, EX13, "Wiesbaden", CityState("textile", slots=3, tile=True, closed=True))
EVERY_EX13_DESTINATION = {
    ("Aldenville", 3),
    ("Bown Town", 1),
    ("P", 1),
    ("Warsop", 3),
    ("Wiesbaden", 2),
    (str(Destination.depot(DEPOT_A)), 1),
    (str(Destination.depot(DEPOT_D)), 3),
}


def test_by_default_a_route_passes_a_closed_city_amb15() -> None:
    """KAS-AMB-15 default (p.13 "bármely városon"): Wiesbaden closed changes no route of KAS-EX-13."""
    found = routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 3, cities=WIESBADEN_CLOSED)
    assert destinations(found) == EVERY_EX13_DESTINATION


def test_open_only_stops_routes_at_a_closed_city_amb15() -> None:
    """'open-only': nothing beyond closed Wiesbaden (Warsop, Aldenville, the depot on D) is reachable."""
    found = routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 3, rules=OPEN_ONLY, cities=WIESBADEN_CLOSED)
    assert destinations(found) == {("Bown Town", 1), ("P", 1), ("Wiesbaden", 2), (str(Destination.depot(DEPOT_A)), 1)}
    # With no city states given, no city is known to be closed.
    assert destinations(routes(EX13, EX13_DEPOTS, BLUE, ORIGIN, 3, rules=OPEN_ONLY)) == EVERY_EX13_DESTINATION


def test_open_only_refusal_names_the_closed_city_amb15() -> None:
    """Option (c) of KAS-EX-13 (1 luxury to Warsop) passes Wiesbaden: refused under 'open-only'."""
    dest = Destination.city("Warsop")
    assert ask(dest, cities=WIESBADEN_CLOSED) is None
    assert ask(dest, cities=WIESBADEN_CLOSED, rules=OPEN_ONLY) == (
        "KAS-R-37",
        "every route to Warsop passes a closed city (KAS-AMB-15 'open-only')",
    )
    assert ask(dest, cities=WIESBADEN_CLOSED, rules=OPEN_ONLY, lines=("A", "B")) == (
        "KAS-R-37",
        "the lines S → A → B do not form an unbroken rail path to Warsop",
    )


def test_open_only_with_origin_stop_blames_the_stops_when_too_far_anyway() -> None:
    """'open-only' with 'origin-stop': Warsop is 3 + 1 = 4 stops, beyond level 3 even if Wiesbaden were
    open, so the stop count is the reason; at level 4 the closed city is."""
    both = RouteRules(origin_stop=True, open_only=True)
    dest = Destination.city("Warsop")
    assert ask(dest, cities=WIESBADEN_CLOSED, rules=both) == (
        "KAS-R-37",
        "reaching Warsop takes 4 stops; rail level 3 allows at most 3",
    )
    assert ask(dest, cities=WIESBADEN_CLOSED, rules=both, level=4) == (
        "KAS-R-37",
        "every route to Warsop passes a closed city (KAS-AMB-15 'open-only')",
    )


def test_open_only_legal_shipments_and_sellout_amb15() -> None:
    """With Wiesbaden closed, 'open-only' leaves Bown Town's machine as the only city delivery of
    KAS-EX-13, no transfer to the depot on D, and no Sellout of a luxury at Warsop (KAS-R-51, p.16)."""
    everything = legal_shipments(EX13, EX13_DEPOTS, WIESBADEN_CLOSED, BLUE, 10, FOOD_AT_5, 3)
    assert {(s.route.destination.name, s.goods) for s in everything if s.route.destination.is_city} == {
        ("Bown Town", "machine"),
        ("Warsop", "luxury"),
        ("Aldenville", "food"),
    }
    found = legal_shipments(EX13, EX13_DEPOTS, WIESBADEN_CLOSED, BLUE, 10, FOOD_AT_5, 3, rules=OPEN_ONLY)
    assert {(s.route.destination.name, s.goods) for s in found if s.route.destination.is_city} == {
        ("Bown Town", "machine")
    }
    assert {s.route.destination for s in found if not s.route.destination.is_city} == {Destination.depot(DEPOT_A)}
    sold = sellout_options(EX13, EX13_DEPOTS, WIESBADEN_CLOSED, BLUE, 3, ORIGIN, "luxury")
    assert summary(sold) == [("Warsop", 3, (("B", YELLOW),))]
    assert sellout_options(EX13, EX13_DEPOTS, WIESBADEN_CLOSED, BLUE, 3, ORIGIN, "luxury", rules=OPEN_ONLY) == []


# -- KAS-AMB-17 'cash-only' -------------------------------------------------------------------------


def test_cash_only_needs_the_toll_in_hand_amb17() -> None:
    """KAS-EX-14: 3 food to Aldenville owe $3 toll.  By default income pays it ($0 suffices); under
    'cash-only' $3 in hand is enough and $2 is not."""
    dest = Destination.city("Aldenville")
    assert ask(dest, kind="food", count=3, money=0) is None
    assert ask(dest, kind="food", count=3, money=3, rules=CASH_ONLY) is None
    assert ask(dest, kind="food", count=3, money=2, rules=CASH_ONLY) == (
        "KAS-R-38",
        "tolls of $3 exceed the $2 you hold (KAS-AMB-17 'cash-only')",
    )


def test_cash_only_limits_the_food_delivered_to_aldenville_amb17() -> None:
    """With $2: by default 1-3 food go to Aldenville (income pays the toll); 'cash-only' allows 1-2."""

    def counts(rules: RouteRules) -> set[int]:
        found = legal_shipments(EX13, EX13_DEPOTS, EX13_CITIES, BLUE, 2, FOOD_AT_5, 3, rules=rules)
        return {s.count for s in found if s.route.destination == Destination.city("Aldenville")}

    assert counts(DEFAULT_RULES) == {1, 2, 3}
    assert counts(CASH_ONLY) == {1, 2}


# -- payees (KAS-R-38, KAS-AMB-16) on a chain P-Q-R-T-U-V -------------------------------------------

# S: Blue's origin; A: Blue and Yellow; B: Yellow; C: Green; D: Blue and Green.
CHAIN = build_map(
    "chain",
    {"P": "food", "Q": "food", "R": "food", "T": "food", "U": "food", "V": "food"},
    [("S", "P", "Q", 2), ("A", "Q", "R", 2), ("B", "R", "T", 1), ("C", "T", "U", 1), ("D", "U", "V", 2)],
)
CHAIN_ORIGIN = rail(CHAIN, "S")
CHAIN_D = rail(CHAIN, "D", 0)
CHAIN_DEPOTS = (
    Depot(CHAIN_ORIGIN, BLUE, goods(food=3)),
    Depot(rail(CHAIN, "A", 0), BLUE),
    Depot(rail(CHAIN, "A", 1), YELLOW),
    Depot(rail(CHAIN, "B"), YELLOW),
    Depot(rail(CHAIN, "C"), GREEN),
    Depot(CHAIN_D, BLUE),
    Depot(rail(CHAIN, "D", 1), GREEN),
)
CHAIN_CITIES = city_states(CHAIN, {})


def chain(
    dest: Destination,
    payees: Payees | None,
    *,
    lines: tuple[str, ...] | None = None,
    no_tolls: bool = False,
    rules: RouteRules = DEFAULT_RULES,
) -> Problem | None:
    return ask(
        dest,
        kind="food",
        game_map=CHAIN,
        depots=CHAIN_DEPOTS,
        cities=CHAIN_CITIES,
        origin=CHAIN_ORIGIN,
        level=5,
        lines=lines,
        payees=payees,
        no_tolls=no_tolls,
        rules=rules,
    )


def test_free_choice_lets_the_stop_on_a_line_with_an_own_depot_be_an_opponents_amb16() -> None:
    """KAS-R-38 (p.13, "Ha lehet, akkor saját raktárnál kell megállni"): on A Blue stops at its own
    depot, free; under 'free-choice' Yellow's depot on A may be the stop too, for $1 a good."""
    r = Destination.city("R")
    assert summary([x for x in routes(CHAIN, CHAIN_DEPOTS, BLUE, CHAIN_ORIGIN, 5) if x.destination == r]) == [
        ("R", 2, ())
    ]
    free = [x for x in routes(CHAIN, CHAIN_DEPOTS, BLUE, CHAIN_ORIGIN, 5, rules=FREE_CHOICE) if x.destination == r]
    assert [(x.stops, x.payees, x.toll_per_good) for x in free] == [(2, (), 0), (2, (("A", YELLOW),), 1)]


def test_naming_a_payee_on_a_line_with_an_own_depot_is_refused_amb16() -> None:
    """KAS-AMB-16 default: the stop on A is Blue's own depot, so Yellow cannot be paid there."""
    assert chain(Destination.city("R"), (("A", YELLOW),)) == (
        "KAS-R-38",
        "you have a depot on line A: the stop there is yours and free (KAS-AMB-16)",
    )
    assert chain(Destination.city("R"), (("A", YELLOW),), rules=FREE_CHOICE) is None


def test_the_shipper_is_never_their_own_payee_r38() -> None:
    """KAS-R-38: a toll is owed to an opponent; under 'free-choice' Blue still cannot name itself on A."""
    assert chain(Destination.city("R"), (("A", BLUE),), rules=FREE_CHOICE) == (
        "KAS-R-38",
        "seat 0 has no depot on line A to stop at",
    )


def test_a_destination_depot_is_its_lines_stop_r37_ex13f_p13() -> None:
    """KAS-EX-13 (f): the own destination depot on D is D's stop; even under 'free-choice' no payee
    may be named on D (Green's depot there)."""
    found = chain(
        Destination.depot(CHAIN_D),
        (("B", YELLOW), ("C", GREEN), ("D", GREEN)),
        lines=("A", "B", "C", "D"),
        rules=FREE_CHOICE,
    )
    assert found == ("KAS-R-38", "the destination depot is the stop on line D: no toll is owed there")
    assert (
        chain(Destination.depot(CHAIN_D), (("B", YELLOW), ("C", GREEN)), lines=("A", "B", "C", "D"), rules=FREE_CHOICE)
        is None
    )


def test_every_line_with_only_opponents_depots_needs_a_payee_r38_p13() -> None:
    """KAS-R-38 (p.13): on B (only Yellow) and C (only Green) the shipper must choose whose depot."""
    assert chain(Destination.city("U"), (("B", YELLOW), ("C", GREEN))) is None
    assert chain(Destination.city("U"), (("B", YELLOW),)) == (
        "KAS-R-38",
        "line C has only opponents' depots: choose whose depot to stop at (and pay)",
    )
    # 'free-choice': A's stop may stay Blue's own, but B still needs Yellow named.
    assert chain(Destination.city("T"), (), rules=FREE_CHOICE) == (
        "KAS-R-38",
        "line B has only opponents' depots: choose whose depot to stop at (and pay)",
    )


def test_a_payee_on_a_line_off_the_route_is_refused_r38() -> None:
    """KAS-R-38: tolls are owed only on the route's lines; D is not on the way to U."""
    assert chain(Destination.city("U"), (("B", YELLOW), ("C", GREEN), ("D", GREEN))) == (
        "KAS-R-38",
        "line D needs no stop on this route, so no toll is owed there",
    )


def test_one_payee_per_line_r38() -> None:
    """KAS-R-38 / KAS-AMB-17: one stop, so one payee, per line."""
    found = refusal(chain(Destination.city("T"), (("B", YELLOW), ("B", YELLOW))))
    assert found[0] == "KAS-R-38"
    assert "line B is named twice" in found[1]


def test_thaddeus_birch_names_no_payee_r86_p20() -> None:
    """KAS-R-86 (p.20, "sosem kell vámot fizetned"): Birch never pays tolls, so names no payee."""
    assert chain(Destination.city("T"), (), no_tolls=True) is None
    assert chain(Destination.city("T"), (("B", YELLOW),), no_tolls=True) == (
        "KAS-R-86",
        "Thaddeus Birch never pays tolls: name no payee",
    )


# -- the other refusals of shipment_problem, each with its rule --------------------------------------


def test_refusals_of_what_and_where_r36_p13() -> None:
    """KAS-R-36 (p.13): one goods type, at least one good, a destination city or own depot."""
    assert refusal(ask(Destination.city("Warsop"), kind="coal"))[0] == "KAS-R-36"
    zero = refusal(ask(Destination.city("Warsop"), count=0))
    assert zero[0] == "KAS-R-36"
    assert zero[1].startswith("a shipment has at least 1 good") and "(KAS-AMB-18)" in zero[1]
    assert ask(None) == ("KAS-R-36", "name a destination: a city demanding the goods or another depot of yours")
    assert ask(Destination.depot(ORIGIN)) == ("KAS-R-36", "the destination depot is the origin itself")
    assert refusal(ask(Destination.city("Atlantis")))[0] == "KAS-R-36"


def test_refusals_of_the_city_r36_r40_p14() -> None:
    """KAS-R-40 / KAS-AMB-10: a fulfilled city waiting for a demand tile accepts nothing; a city with
    no demand accepts nothing either (KAS-R-36)."""
    waiting = with_city(EX13_CITIES, EX13, "Aldenville", CityState("food", filled=5, waiting=True))
    assert refusal(ask(Destination.city("Aldenville"), kind="food", cities=waiting))[0] == "KAS-R-40"
    none = with_city(EX13_CITIES, EX13, "Aldenville", CityState(None))
    found = refusal(ask(Destination.city("Aldenville"), kind="food", cities=none))
    assert found == ("KAS-R-36", "Aldenville demands nothing, not food")


def test_refusals_of_the_named_lines_r37_amb15() -> None:
    """KAS-R-37 / KAS-AMB-15: only the map's lines, each at most once."""
    assert refusal(ask(Destination.city("Warsop"), lines=("A", "Q9")))[0] == "KAS-R-37"
    twice = refusal(ask(Destination.city("Warsop"), lines=("A", "A", "B")))
    assert twice == ("KAS-R-37", "a route uses each rail line at most once (KAS-AMB-15)")
