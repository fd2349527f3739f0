"""Z3 shipping queries for Kings of Air and Steam: reachable deliveries, building synthesis, Sellout value.

Printed examples KAS-EX-13 (the five options, and the digest's exact list
of reachable deliveries) and KAS-EX-21 (the $17 Sellout) on the digest's
minimal reconstructions, built through ``scenario_state`` so that the
queries run exactly as a scenario or the CLI would run them.  Every Z3
answer is compared with the brute-force model (``shipping``), here and in
a Hypothesis property on random small networks.  Timings on the bundled
pack's 7-player layout are printed (``pytest -s``) and asserted loosely.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.kings_of_air_and_steam.components import GOODS
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.shipping import Destination, RouteRules
from rulecraft.model.kings_of_air_and_steam.state import KasState
from rulecraft.solvers.kings_of_air_and_steam import deliveries as kd
from rulecraft.tools import tools

BLUE, YELLOW, GREEN = 0, 1, 2


def line(row: int, lid: str, a: str, b: str, n: int) -> dict[str, Any]:
    """A line on its own hex row: the shipping rules never look at geometry."""
    return {"id": lid, "ends": [a, b], "hexes": [[q, row] for q in range(n)]}


def fixture(cities: list[tuple[str, str]], lines: list[dict[str, Any]]) -> dict[str, Any]:
    at = [{"name": name, "at": [i, 40], "demand": demand} for i, (name, demand) in enumerate(cities)]
    hexes = [h for ln in lines for h in ln["hexes"]] + [c["at"] for c in at]
    return {"hexes": hexes, "cities": at, "lines": lines}


# -- KAS-EX-13 (p.13): the digest's minimal network -----------------------------------------------------

EX13_CITIES = [
    ("P", "chemical"),  # the origin line's other end: no relevant demand
    ("Bown Town", "machine"),
    ("Wiesbaden", "textile"),
    ("Warsop", "luxury"),
    ("Aldenville", "food"),
    ("New Belfort", "luxury"),
]
EX13_LINES = [
    line(0, "S", "P", "Bown Town", 2),
    line(1, "A", "Bown Town", "Wiesbaden", 1),
    line(2, "B", "Wiesbaden", "Warsop", 1),
    line(3, "C", "Wiesbaden", "Aldenville", 2),
    line(4, "D", "Aldenville", "New Belfort", 1),
    line(5, "E", "Wiesbaden", "New Belfort", 2),  # no depot
]
ORIGIN, DEPOT_A, DEPOT_D = Hex(0, 0), Hex(0, 1), Hex(0, 4)


def ex13_given(**extra: Any) -> dict[str, Any]:
    given: dict[str, Any] = {
        "players": 3,
        "map": fixture(EX13_CITIES, EX13_LINES),
        "players_state": {BLUE: {"money": 3, "rail_level": 3}},  # ≥ $3: option (f)'s toll without income
        "depots": [
            {"at": [0, 0], "owner": BLUE, "goods": {"machine": 1, "textile": 1, "luxury": 3, "food": 3}},
            {"at": [0, 1], "owner": BLUE},  # A
            {"at": [0, 2], "owner": YELLOW},  # B
            {"at": [0, 3], "owner": YELLOW},  # C
            {"at": [1, 3], "owner": GREEN},  # C
            {"at": [0, 4], "owner": BLUE},  # D
        ],
        "cities": {"Warsop": {"filled": 4}, "Aldenville": {"filled": 2}},  # 1 luxury slot; 3 food slots
    }
    given.update(extra)
    return given


@pytest.fixture
def game() -> KingsOfAirAndSteamGame:
    return KingsOfAirAndSteamGame()


def scenario(given: Mapping[str, Any]) -> tuple[KingsOfAirAndSteamGame, KasState]:
    """A state with its own game: an inline map lives in the game's context (one per game)."""
    game = KingsOfAirAndSteamGame()
    return game, tools(game).scenario_state(given)


@pytest.fixture
def ex13(game: KingsOfAirAndSteamGame) -> KasState:
    return tools(game).scenario_state(ex13_given())


def ex13_view(**extra: Any) -> kd.ShipView:
    game, state = scenario(ex13_given(**extra))
    return kd.view_of(game, state, BLUE)


def row(goods: str, to: Destination, most: int, stops: int, toll: int, *payees: tuple[str, int]) -> kd.Delivery:
    options = tuple((p,) for p in payees) if payees else ((),)
    return kd.Delivery(ORIGIN, goods, to, most, stops, toll, options, ((stops, toll),))  # one best route each


def ex13_expected() -> list[kd.Delivery]:
    """The digest's list: four city deliveries; every held type to Blue's depots on A and D."""
    city, depot = Destination.city, Destination.depot
    c_payees = (("C", YELLOW), ("C", GREEN))
    out = [
        row("machine", city("Bown Town"), 1, 1, 0),  # (a)
        row("textile", city("Wiesbaden"), 1, 2, 0),  # (b)
        row("luxury", city("Warsop"), 1, 3, 1, ("B", YELLOW)),  # (c): only one fits
        row("food", city("Aldenville"), 3, 3, 1, *c_payees),  # (d): 1–3 food
    ]
    for goods, held in (("machine", 1), ("textile", 1), ("luxury", 3), ("food", 3)):
        out.append(row(goods, depot(DEPOT_A), held, 1, 0))
        out.append(row(goods, depot(DEPOT_D), held, 3, 1, *c_payees))  # (f) is the luxury case
    return sorted(out)


def test_ex13_exact_list_of_reachable_deliveries_z3_and_oracle(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    view = kd.view_of(game, ex13, BLUE)
    got = kd.deliveries(view)
    assert got.status == "ok"
    assert list(got.deliveries) == ex13_expected()
    assert kd.oracle_deliveries(view) == ex13_expected()
    assert not any(d.destination == Destination.city("New Belfort") for d in got.deliveries)  # (e)


def test_ex13_new_belfort_is_refused_by_the_stop_rule(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    view = kd.view_of(game, ex13, BLUE)
    (why,) = [w for w in kd.deliveries(view).why_not if w.destination == Destination.city("New Belfort")]
    assert why.goods == "luxury"
    assert "KAS-R-37" in why.core
    assert "KAS-R-37#stops" in why.labels  # 4 stops (own A, C, own D, New Belfort) > rail level 3
    assert kd.explain(view, ORIGIN, "luxury", Destination.city("New Belfort")) == ("unsat", ("KAS-R-37",))
    # At level 4 the same route is legal (with a $1 toll on C); E still cannot be used (no depot).
    level4 = ex13_view(players_state={BLUE: {"money": 3, "rail_level": 4}})
    (nb,) = [d for d in kd.deliveries(level4).deliveries if d.destination == Destination.city("New Belfort")]
    assert (nb.max_count, nb.min_stops, nb.min_toll) == (3, 4, 1)


def test_ex13_why_not_names_room_and_demand(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    view = kd.view_of(game, ex13, BLUE)
    assert kd.explain(view, ORIGIN, "luxury", Destination.city("Warsop"), count=2) == ("unsat", ("KAS-R-36",))
    assert kd.explain(view, ORIGIN, "machine", Destination.city("Warsop")) == ("unsat", ("KAS-R-36",))
    assert kd.explain(view, ORIGIN, "food", Destination.city("Aldenville"), count=3) == ("sat", ())
    broke = ex13_view(players_state={BLUE: {"money": 0, "rail_level": 3}})
    # KAS-AMB-17: a depot transfer has no income, so with $0 the $1 toll on C is unpayable.
    status, core = kd.explain(broke, ORIGIN, "food", Destination.depot(DEPOT_D))
    assert status == "unsat" and "KAS-R-38" in core  # with the route rules that force line C
    assert kd.explain(broke, ORIGIN, "food", Destination.city("Aldenville"), count=3) == ("sat", ())


def test_ex13_filters_and_the_query_object(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    query = kd.QUERIES["deliveries"]
    answer = query.run(game, {"seat": BLUE, "goods": "food", "to": "Aldenville"}, ex13)
    json.dumps(answer)  # JSON-able for --json
    assert [(d["goods"], d["to"], d["max_count"], d["min_toll_per_good"]) for d in answer["deliveries"]] == [
        ("food", "Aldenville", 3, 1)
    ]
    text = query.format(query.run(game, {"seat": BLUE}, ex13))
    assert "1 luxury → Warsop (3 stop(s), $1/good to B→seat 1)" in text
    assert "not luxury 0,0 → New Belfort: KAS-R-37" in text
    only = query.run(game, {"seat": BLUE, "origin": "0,0", "to": "New Belfort", "goods": "luxury"}, ex13)
    assert only["deliveries"] == [] and only["why_not"][0]["core"] == ["KAS-R-37"]
    with pytest.raises(RulecraftError):
        query.run(game, {"seat": BLUE, "origin": "9,9"}, ex13)
    with pytest.raises(RulecraftError):
        query.run(game, {"seat": BLUE, "to": "Atlantis"}, ex13)


def test_queries_read_a_state_file_as_the_cli_does(
    game: KingsOfAirAndSteamGame, ex13: KasState, tmp_path: Path
) -> None:
    path = tmp_path / "ex13.json"
    path.write_text(json.dumps(game.state_to_json(ex13)), "utf-8")
    argv = {
        "deliveries": ["--goods", "luxury"],
        "synthesis": ["--origin", "0,0", "--goods", "luxury", "--to", "New Belfort"],
        "sellout": [],
    }
    for name, extra in argv.items():
        query = kd.QUERIES[name]
        parser = argparse.ArgumentParser()
        query.add_arguments(parser)
        params = vars(parser.parse_args(["--state", str(path), "--seat", "0", *extra]))
        answer = query.run(game, params)  # no state object: read from --state
        assert answer["status"] in ("ok", "possible") and json.dumps(answer)
    with pytest.raises(RulecraftError):
        kd.QUERIES["sellout"].run(game, {})  # neither a state nor --state


# -- synthesis on KAS-EX-13 ----------------------------------------------------------------------------


def test_ex13_synthesis_new_belfort_rail_upgrade_or_depot_on_e(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    view = kd.view_of(game, ex13, BLUE)
    assert game.pack.rail_track[3].cost == 4  # the bundled pack: level 3 → 4 costs $4 (KAS-EX-12)
    got = kd.synthesis(view, ORIGIN, "luxury", 1, "New Belfort")
    assert (got.status, got.cost) == ("possible", 4)
    assert [p.to_json() for p in got.plans] == [
        {"cost": 4, "depots": [], "rail_level": 4, "stops": 4, "toll_per_good": 1},  # via own A, C, own D
        {"cost": 4, "depots": [{"line": "E", "at": "0,5"}], "rail_level": 3, "stops": 3, "toll_per_good": 0},
    ]
    cost, plans = kd.oracle_synthesis(view, ORIGIN, "luxury", 1, "New Belfort")
    assert (cost, plans) == (got.cost, list(got.plans))
    assert got.affordable is False  # Blue has $3
    # Already possible: nothing to build.
    assert kd.synthesis(view, ORIGIN, "food", 3, "Aldenville").plans[0].to_json()["cost"] == 0


def test_synthesis_impossible_names_the_rules(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    view = kd.view_of(game, ex13, BLUE)
    demand = kd.synthesis(view, ORIGIN, "machine", 1, "Warsop")  # Warsop wants luxury
    assert (demand.status, demand.core) == ("impossible", ("KAS-R-36",))
    room = kd.synthesis(view, ORIGIN, "luxury", 2, "Warsop")  # one slot: no building makes room
    assert (room.status, room.core) == ("impossible", ("KAS-R-36",))
    island = ex13_view(map=fixture([*EX13_CITIES, ("Island", "luxury")], EX13_LINES))
    cut_off = kd.synthesis(island, ORIGIN, "luxury", 1, "Island")  # no line reaches it
    assert (cut_off.status, cut_off.core) == ("impossible", ("KAS-R-37",))
    query = kd.QUERIES["synthesis"]
    text = query.format(query.run(game, {"seat": 0, "origin": "0,0", "goods": "luxury", "to": "New Belfort"}, ex13))
    assert "rail level 3 → 4: 4 stop(s)" in text and "depot on E at 0,5: 3 stop(s), toll $0/good" in text


# -- KAS-EX-21 (p.16): the Sellout ----------------------------------------------------------------------

EX21_CITIES = [
    ("Raposa", "food"),  # X
    ("Irdyo", "chemical"),  # W
    ("Sartainville", "machine"),  # Y
    ("Geekopolis", "textile"),  # Z
    *[(j, "luxury") for j in ("J1", "J2", "J3", "J5", "J6")],  # junctions
]
EX21_LINES = [
    line(0, "L1", "Raposa", "J1", 1),
    line(1, "L2", "J1", "J2", 1),
    line(2, "L3", "J2", "J3", 1),
    line(3, "L4", "J3", "Irdyo", 1),
    line(4, "M1", "J5", "J6", 1),
    line(5, "M2", "J6", "Sartainville", 2),
    line(6, "M3", "J5", "Geekopolis", 1),  # no depot
]


@pytest.fixture
def ex21(game: KingsOfAirAndSteamGame) -> KasState:
    return tools(game).scenario_state(
        {
            "players": 3,
            "phase": "sellout",
            "map": fixture(EX21_CITIES, EX21_LINES),
            "players_state": {BLUE: {"rail_level": 3}},
            "depots": [
                {"at": [0, 0], "owner": BLUE, "goods": {"chemical": 1, "food": 2}},  # DA
                {"at": [0, 1], "owner": BLUE},  # empty, so DA and DB hold all of Blue's goods
                {"at": [0, 2], "owner": BLUE},
                {"at": [0, 3], "owner": BLUE},
                {"at": [0, 4], "owner": BLUE, "goods": {"textile": 2, "machine": 3}},  # DB
                {"at": [0, 5], "owner": GREEN},
                {"at": [1, 5], "owner": YELLOW},
            ],
        }
    )


def test_ex21_sellout_is_seventeen(ex21: KasState, game: KingsOfAirAndSteamGame) -> None:
    view = kd.view_of(game, ex21, BLUE)
    got = kd.sellout(view)
    assert (got.status, got.value) == ("ok", 17)  # 5 goods × $4 − $3 tolls
    assert kd.oracle_sellout(view)[0] == 17
    assert kd.compare_sellout(view) is None
    by = {(x.origin, x.goods): x for x in got.lines}
    assert (by[(Hex(0, 0), "food")].each, by[(Hex(0, 4), "machine")].each) == (4, 3)
    # The destination is free here, so the cores also name KAS-R-36 (no other city wants the type).
    assert "KAS-R-37" in by[(Hex(0, 0), "chemical")].core  # Irdyo: 4 stops > 3
    assert "KAS-R-37" in by[(Hex(0, 4), "textile")].core  # Geekopolis: M3 has no depot
    query = kd.QUERIES["sellout"]
    answer = query.run(game, {"seat": BLUE}, ex21)
    assert answer["value"] == 17
    assert "Sellout value $17" in query.format(answer)


# -- 'unknown' is never a proof -----------------------------------------------------------------------------


@pytest.fixture
def z3_gives_up(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(kd, "_check", lambda solver, *assumptions: z3.unknown)
    yield


@pytest.mark.usefixtures("z3_gives_up")
def test_unknown_is_reported_never_proved(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    view = kd.view_of(game, ex13, BLUE)
    d = kd.deliveries(view)
    assert (d.status, d.deliveries, d.why_not) == ("unknown", (), ())
    s = kd.synthesis(view, ORIGIN, "luxury", 1, "New Belfort")
    assert (s.status, s.cost, s.core) == ("unknown", None, ())
    assert kd.sellout(view).status == "unknown"
    assert kd.explain(view, ORIGIN, "luxury", Destination.city("Warsop"))[0] == "unknown"
    assert kd.compare_deliveries(view) is None  # no disagreement claimed from an unknown
    for name in ("deliveries", "synthesis", "sellout"):
        query = kd.QUERIES[name]
        params = {"seat": 0, "origin": "0,0", "goods": "luxury", "to": "New Belfort"}
        assert "could not decide" in query.format(query.run(game, params, ex13))


def test_a_tiny_timeout_is_unknown_or_right(game: KingsOfAirAndSteamGame, ex13: KasState) -> None:
    view = kd.view_of(game, ex13, BLUE)
    got = kd.deliveries(view, timeout_ms=1)
    assert got.status in ("ok", "unknown")
    if got.status == "ok":
        assert list(got.deliveries) == ex13_expected()


# -- Z3 against the oracle on random small networks ----------------------------------------------------------


@settings(max_examples=25)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_z3_agrees_with_the_oracle_on_random_networks(seed: int) -> None:
    rng = random.Random(seed)
    view = kd.random_view(rng)
    assert kd.compare_deliveries(view) is None
    assert kd.compare_sellout(view) is None
    origin, goods, count, city = kd.random_target(view, rng)
    assert kd.compare_synthesis(view, origin, goods, count, city) is None


def test_oracle_checks_for_verify(game: KingsOfAirAndSteamGame) -> None:
    rng = random.Random(2026)
    for query in kd.QUERIES.values():
        for _ in range(3):
            assert query.oracle_check(game, rng) is None


# -- timings on the bundled pack's 7-player layout ------------------------------------------------------------


def mid_game(game: KingsOfAirAndSteamGame, seed: int = 7) -> KasState:
    """Seven players, three depots each (two stocked), rail levels 3–4, on ABCDEFG."""
    game_map = game.ctx.game_map("ABCDEFG")
    rng = random.Random(seed)
    rail = list(game_map.rail_hexes())
    rng.shuffle(rail)
    depots = []
    for i, at in enumerate(rail[:21]):
        stock = {g: rng.randint(0, 3) for g in rng.sample(GOODS, 2)} if i < 14 else {}
        depots.append({"at": [at.q, at.r], "owner": i % 7, "goods": stock})
    players = {seat: {"money": 10, "rail_level": 3 + seat % 2} for seat in range(7)}
    return tools(game).scenario_state({"players": 7, "layout": "ABCDEFG", "depots": depots, "players_state": players})


def timed(f: Any, *args: Any) -> tuple[Any, float]:
    start = time.perf_counter()
    out = f(*args)
    return out, (time.perf_counter() - start) * 1000


def test_the_queries_agree_with_the_oracle_on_the_seven_player_layout(
    game: KingsOfAirAndSteamGame, capsys: pytest.CaptureFixture[str]
) -> None:
    state = mid_game(game)
    report: list[str] = []
    worst = {"deliveries": 0.0, "sellout": 0.0, "synthesis": 0.0, "oracle": 0.0}
    for seat in range(7):
        view = kd.view_of(game, state, seat)
        got, ms_z3 = timed(kd.deliveries, view)
        want, ms_oracle = timed(kd.oracle_deliveries, view)
        assert got.status == "ok" and list(got.deliveries) == want
        sold, ms_sell = timed(kd.sellout, view)
        assert sold.value == kd.oracle_sellout(view)[0]
        depot = view.own_depots()[0]
        kind = next(g for g, n in zip(GOODS, depot.goods, strict=True) if n)
        wanted = [c.name for c, cs in zip(view.game_map.cities, view.cities, strict=True) if cs.demand == kind]
        plan, ms_syn = timed(kd.synthesis, view, depot.at, kind, 1, (wanted or ["Aldenville"])[0])
        assert plan.status in ("possible", "impossible")
        for key, ms in (("deliveries", ms_z3), ("sellout", ms_sell), ("synthesis", ms_syn), ("oracle", ms_oracle)):
            worst[key] = max(worst[key], ms)
        report.append(
            f"seat {seat}: deliveries {ms_z3:.0f} ms ({got.checks} checks, {len(got.deliveries)} rows; "
            f"oracle {ms_oracle:.1f} ms), sellout {ms_sell:.0f} ms, synthesis {ms_syn:.0f} ms ({plan.status})"
        )
    with capsys.disabled():
        print("\nKAS shipping queries on ABCDEFG, 7 players:\n  " + "\n  ".join(report))
        print(f"  worst: {', '.join(f'{k} {v:.0f} ms' for k, v in worst.items())} (target < 200 ms per query)")
    # No time limit is asserted: speed is measured in bench/ (a loaded CI machine failed the old one).


@pytest.mark.parametrize("seed", [84, 219, 374])  # random views where the fewest stops cost a toll
def test_deliveries_give_each_pareto_best_route_when_fewest_stops_and_lowest_toll_differ(
    seed: int, game: KingsOfAirAndSteamGame
) -> None:
    """KAS-R-37 (stops) and KAS-R-38 (tolls) are minimised apart; a route with both minima may not
    exist.  The answer lists each Pareto-best (stops, toll) route, Z3 against the brute force."""
    view = kd.random_view(random.Random(seed), tuple(lv.cost for lv in game.pack.rail_track))
    got = kd.deliveries(view, why_not=False)
    assert got.status == "ok" and list(got.deliveries) == kd.oracle_deliveries(view)
    traded = [d for d in got.deliveries if len(d.routes) > 1]
    assert traded, "this view has a delivery whose fewest stops cost a toll"
    for d in got.deliveries:
        stops = [s for s, _ in d.routes]
        tolls = [t for _, t in d.routes]
        assert stops == sorted(set(stops)) and tolls == sorted(set(tolls), reverse=True)
        assert (stops[0], tolls[-1]) == (d.min_stops, d.min_toll)
    d = traded[0]
    assert d.routes[0][1] > d.min_toll  # the fewest-stops route is not the cheapest one
    text = kd.DeliveriesQuery().format(
        {"seat": 0, "rail_level": view.rail_level, "status": "ok", "deliveries": [d.to_json()], "why_not": [],
         "checks": 0, "ms": 0}
    )  # fmt: skip
    assert "best routes: " in text


# -- the shipping readings KAS-AMB-14..17 (issue 19): encoded, not refused --------------------------------

READING_RULES = {
    "KAS-AMB-14": RouteRules(origin_stop=True),
    "KAS-AMB-15": RouteRules(open_only=True),
    "KAS-AMB-17": RouteRules(cash_only=True),
}
# Random views where the reading changes the brute force's table (found once by search; any such view does).
READING_SEEDS = {"KAS-AMB-14": [0, 1, 3], "KAS-AMB-15": [8, 16, 26], "KAS-AMB-17": [4, 19, 25]}


@pytest.mark.parametrize("amb", sorted(READING_RULES))
def test_z3_agrees_with_the_oracle_under_each_shipping_reading(amb: str, game: KingsOfAirAndSteamGame) -> None:
    """The encoding follows the reading where it changes the answer; the brute force is the model's
    shipping module under the same reading."""
    costs = tuple(lv.cost for lv in game.pack.rail_track)
    for seed in READING_SEEDS[amb]:
        default = kd.random_view(random.Random(seed), costs)
        view = attrs.evolve(default, rules=READING_RULES[amb])
        expected = kd.oracle_deliveries(view)
        assert expected != kd.oracle_deliveries(default), "a view where the reading matters"
        got = kd.deliveries(view, why_not=False)
        assert got.status == "ok" and list(got.deliveries) == expected
        assert kd.compare_sellout(view) is None


def test_origin_stop_costs_every_delivery_one_stop_more(game: KingsOfAirAndSteamGame) -> None:
    """KAS-AMB-14 'origin-stop': the origin depot's line needs a stop too, so each delivery's fewest
    stops is the default's plus one, and one that needed all of the rail level is gone."""
    view = kd.random_view(random.Random(0), tuple(lv.cost for lv in game.pack.rail_track))
    default = {(d.origin, d.goods, d.destination): d for d in kd.deliveries(view, why_not=False).deliveries}
    stricter = kd.deliveries(attrs.evolve(view, rules=RouteRules(origin_stop=True)), why_not=False)
    assert stricter.status == "ok"
    for d in stricter.deliveries:
        assert d.min_stops == default[(d.origin, d.goods, d.destination)].min_stops + 1 <= view.rail_level
    kept = {(d.origin, d.goods, d.destination) for d in stricter.deliveries}
    assert {k for k, d in default.items() if d.min_stops + 1 <= view.rail_level} <= kept


def test_cash_only_needs_the_tolls_in_hand(game: KingsOfAirAndSteamGame) -> None:
    """KAS-AMB-17 'cash-only': tolls are paid from the money held before the shipment (income not
    counted), so every delivery's count times its cheapest toll is at most that money."""
    for seed in READING_SEEDS["KAS-AMB-17"]:
        view = attrs.evolve(
            kd.random_view(random.Random(seed), tuple(lv.cost for lv in game.pack.rail_track)),
            rules=RouteRules(cash_only=True),
        )
        got = kd.deliveries(view, why_not=False)
        assert got.status == "ok"
        assert all(d.max_count * d.min_toll <= view.money for d in got.deliveries)


def test_the_deliveries_query_answers_under_the_shipping_readings() -> None:
    """Issue 19: KAS-AMB-14..17 are no longer refused by the shipping queries (the encoding is checked
    against the brute force above); readings the encoding does not state are still refused."""
    for amb, key in (("KAS-AMB-14", "origin-stop"), ("KAS-AMB-15", "open-only"), ("KAS-AMB-16", "free-choice")):
        g = KingsOfAirAndSteamGame.configured(readings={amb: key})
        assert kd.QUERIES["deliveries"].oracle_check(g, random.Random(1)) is None
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-18": "all-of-type"})
    with pytest.raises(NotApplicable, match="KAS-AMB-18"):
        kd.QUERIES["deliveries"].oracle_check(g, random.Random(1))


def test_revisit_never_changes_a_delivery_so_the_encoding_answers_under_it(game: KingsOfAirAndSteamGame) -> None:
    """KAS-AMB-15 'revisit' (p.13): a route may use a line again, each further use one more line of the
    route with its own stop and toll.  A route that repeats a line contains a simple route from the
    same origin to the same city with no more stops and no more toll (cut out the loop between the
    two uses), so every fewest-stops, lowest-toll and Pareto-best answer is a simple route's: the
    default encoding answers for 'revisit' too.  The brute force walks repeated lines under
    'revisit' (model shipping), and it agrees on every view."""
    costs = tuple(lv.cost for lv in game.pack.rail_track)
    for seed in range(30):
        default = kd.random_view(random.Random(seed), costs)
        view = attrs.evolve(default, rules=RouteRules(revisit=True))
        expected = kd.oracle_deliveries(view)
        assert expected == kd.oracle_deliveries(default)
        got = kd.deliveries(view, why_not=False)
        assert got.status == "ok" and list(got.deliveries) == expected
    g = KingsOfAirAndSteamGame.configured(readings={"KAS-AMB-15": "revisit"})
    assert kd.QUERIES["deliveries"].oracle_check(g, random.Random(2)) is None
