"""Kings of Air and Steam solvers: plans free of forfeits (KAS-R-25/34/55) and
flight reachability (KAS-R-26/27, special cards), Z3 against brute force.

Printed examples: KAS-EX-04 and KAS-EX-05 (p.10).  The oracles are direct
enumeration (plans × upgrade schedules) and the model's own
``flight.endpoints``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.model.kings_of_air_and_steam import flight
from rulecraft.model.kings_of_air_and_steam.components import AirshipLevel, GameMap
from rulecraft.model.kings_of_air_and_steam.flight import FlightRules
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.registry import make_game
from rulecraft.solvers.kings_of_air_and_steam import flights, plans
from rulecraft.solvers.kings_of_air_and_steam.queries import QUERIES

GAME: Any = make_game("kas")
ABC: GameMap = GAME.ctx.game_map("ABC")
ABC_HEXES = sorted(ABC.hexes)
ABC_ENDS = sorted(h for h in ABC.hexes if ABC.can_end_on(h))

# KAS-AMB-06 (a): Green is at level 2 (rating 1) and level 3 has diamond 2, so one
# upgrade lifts the rating from 1 to 2 (KAS-EX-05).  Built here, not read from the pack.
EX_TRACK = (
    AirshipLevel(1, 0, 1, 2),
    AirshipLevel(2, 3, 1, 3),
    AirshipLevel(3, 4, 2, 3),
)


def ex_spec(x: int, money: int = 0) -> plans.PlanSpec:
    return plans.PlanSpec((0, 1, 1, x), EX_TRACK, money, start_level=2)


def run_query(name: str, argv: list[str]) -> dict[str, Any]:
    """Through argparse, as the CLI does: params are the parser's dests."""
    query = QUERIES[name]
    parser = argparse.ArgumentParser()
    query.add_arguments(parser)
    answer = query.run(GAME, vars(parser.parse_args(argv)))
    json.dumps(answer)  # JSON-able
    assert answer["solver"] == "z3"
    assert isinstance(query.format(answer), str) and query.format(answer)
    return answer


# -- KAS-EX-04 / KAS-EX-05 (p.10) ----------------------------------------------------------------


@pytest.mark.parametrize("x", [0, 1, 2])
def test_kas_ex_04_rating_1_throughout(x: int) -> None:
    """d = [0, 1, 1, x], rating 1 throughout: exec = [T, T, F, x == 0]."""
    answer = plans.executions(ex_spec(x), (False, False, False, False))
    assert answer.best_effort is not None
    assert answer.best_effort.executed == (True, True, False, x == 0)
    assert answer.best_effort.ratings == (1, 1, 1, 1)
    assert answer.status == "forfeit"
    # With no money no schedule does better: the plan is forfeited, KAS-R-25 says why.
    free = plans.check_plan(ex_spec(x))
    assert free.status == "forfeit" and "KAS-R-25" in free.core
    assert free.best_effort is not None and free.best_effort.executed == (True, True, False, x == 0)


@pytest.mark.parametrize("turn", [0, 1])
def test_kas_ex_05_an_upgrade_in_turn_1_or_2_saves_the_third_card(turn: int) -> None:
    upgrades = tuple(i == turn for i in range(4))
    answer = plans.executions(ex_spec(0, money=4), upgrades)
    assert answer.best_effort is not None
    assert answer.best_effort.executed == (True, True, True, True)
    assert answer.best_effort.ratings[2] == 2
    assert answer.best_effort.ratings[1] == (2 if turn == 0 else 1)


def test_kas_ex_05_an_upgrade_in_turn_3_is_too_late() -> None:
    """The check is step a, the upgrade step c: turn 3's own upgrade does not help it."""
    answer = plans.executions(ex_spec(0, money=4), (False, False, True, False))
    assert answer.status == "forfeit" and answer.best_effort is None  # the schedule cannot happen:
    assert set(answer.core) == {"KAS-R-25", "KAS-R-34"}  # turn 3 is lost, so it has no action step
    # Over every schedule Z3 can play: the third card executes exactly when turn 1 or 2 upgraded.
    for bits in range(16):
        upgrades = tuple(bool(bits >> i & 1) for i in range(4))
        outcome = plans.executions(ex_spec(0, money=8), upgrades).best_effort
        if outcome is not None:
            assert outcome.executed[2] == (upgrades[0] or upgrades[1])


def test_kas_ex_05_free_with_the_money_for_one_upgrade() -> None:
    answer = plans.check_plan(ex_spec(0, money=4))
    assert answer.status == "free"
    assert answer.schedule is not None
    assert answer.schedule.upgrades.index(True) in (0, 1) and sum(answer.schedule.upgrades) == 1
    assert answer.schedule.spent == 4
    # $3 cannot pay level 3's $4: the money is why no schedule avoids the lost turn.
    short = plans.check_plan(ex_spec(0, money=3))
    assert short.status == "forfeit"
    assert set(short.core) == {"KAS-R-25", "KAS-R-34", "KAS-R-55"}


# -- plans against the brute force ---------------------------------------------------------------


@pytest.mark.parametrize(("money", "level"), [(0, 1), (3, 1), (4, 2), (12, 1), (7, 4)])
def test_legal_plan_count_matches_brute_force(money: int, level: int) -> None:
    got = plans.legal_plans(GAME, money, level)
    want = plans.oracle_legal_plans(GAME, money, level)
    assert got.status == "done"
    assert got.count == len(want)
    assert got.total == 12 * 11 * 10 * 9


def test_legal_plans_list_is_the_brute_force_list() -> None:
    got = plans.legal_plans(GAME, 4, 2)
    want = {tuple(c.id for c in p) for p in plans.oracle_legal_plans(GAME, 4, 2)}
    assert set(got.plans()) == want


@pytest.mark.parametrize(
    ("money", "level", "letters"), [(0, 1, None), (12, 1, None), (7, 2, None), (12, 1, "A?C?"), (0, 3, "?G??")]
)
def test_best_plan_agrees_with_brute_force(money: int, level: int, letters: str | None) -> None:
    objective = "letters" if letters else "movement"
    got = plans.best_plan(GAME, money, level, objective, letters)
    value, ties = plans.oracle_best_plan(GAME, money, level, letters)
    assert got.status == "optimal"
    assert got.movement == value
    assert got.cards in {tuple(c.id for c in p) for p in ties}


def test_best_plan_with_special_cards_in_the_deck() -> None:
    """A team deck: Rose & Thorn's card counts its 2 twice (KAS-R-73), DaVinci's 7 once."""
    deck = [c.id for c in GAME.pack.deck] + ["ROS", "DAV"]
    got = plans.best_plan(GAME, 7, 2, deck=deck)
    value, ties = plans.oracle_best_plan(GAME, 7, 2, deck=deck)
    assert got.status == "optimal" and got.movement == value
    assert got.cards in {tuple(c.id for c in p) for p in ties}
    assert plans.legal_plans(GAME, 7, 2, deck).count == len(plans.oracle_legal_plans(GAME, 7, 2, deck))


def test_best_plan_none_fits_names_the_rules() -> None:
    got = plans.best_plan(GAME, 0, 1, "letters", "GGGG")  # one G card in the deck
    assert got.status == "none" and "KAS-R-19" in got.core
    assert plans.oracle_best_plan(GAME, 0, 1, "GGGG") == (None, [])


def test_forfeit_core_names_kas_r_25_only_when_no_upgrade_could_help() -> None:
    # S11 (2 diamonds) in slot 1 at rating 1: no upgrade can come before the first check.
    answer = plans.plan_free_of_forfeits(GAME, ["S11", "S01", "S02", "S03"], 30, 1)
    assert answer.status == "forfeit" and answer.core == ("KAS-R-25",)


def test_forfeit_core_names_kas_r_55_when_money_is_the_reason() -> None:
    cards = ["S01", "S05", "S07", "S02"]  # 0, 1, 1, 0 diamonds: the third needs rating 2
    poor = plans.plan_free_of_forfeits(GAME, cards, 3, 2)
    assert poor.status == "forfeit"
    assert {"KAS-R-25", "KAS-R-55"} <= set(poor.core)
    rich = plans.plan_free_of_forfeits(GAME, cards, 4, 2)
    assert rich.status == "free" and rich.schedule is not None and rich.schedule.spent == 4


@given(st.randoms(use_true_random=False))
@settings(max_examples=25)
def test_random_plans_agree_with_the_oracle(rng: random.Random) -> None:
    assert QUERIES["plan"].oracle_check(GAME, rng) is None


def test_unknown_is_reported_as_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plans, "_check", lambda solver: z3.unknown)
    answer = plans.check_plan(ex_spec(0, money=4))
    assert answer.status == "unknown" and answer.schedule is None and answer.core == ()
    assert plans.legal_plans(GAME, 4, 2).status == "unknown"
    assert plans.best_plan(GAME, 4, 2).status == "unknown"
    shown = run_query("plan", ["--cards", "S01,S05,S07,S02", "--money", "4", "--level", "2"])
    assert shown["status"] == "unknown"
    monkeypatch.setattr(flights, "_check", lambda solver: z3.unknown)
    spec = flights.flight_spec(GAME, ABC_ENDS[0], moves=[3])
    status, per, _ = flights.can_end_on(GAME, spec, ABC_ENDS[1])
    assert status == "unknown" and per[0].core == ()
    ends, _ = flights.card_ends(GAME, spec)
    assert ends[0].status == "unknown"


# -- flights against flight.endpoints ------------------------------------------------------------

RULES = {
    "wide": FlightRules(),
    "sharp_ok": FlightRules(sharp_ok=True),
    "straight": FlightRules(straight_only=True),
    "spaced": FlightRules(turns="spaced"),
}


@given(
    start=st.sampled_from(ABC_HEXES),
    length=st.integers(0, 5),
    kind=st.sampled_from(sorted(RULES)),
)
@settings(max_examples=25)
def test_z3_endpoints_equal_the_model(start: Hex, length: int, kind: str) -> None:
    rules = RULES[kind]
    got = flights.endpoints_z3(ABC, start, length, rules)
    assert got.status == "done"
    assert set(got.ends) == set(flight.endpoints(ABC, start, length, rules))
    for path in got.ends.values():  # every witness is legal by the model's judge
        assert flight.flight_problem(ABC, start, path, length, rules) is None


@pytest.mark.parametrize(
    "readings", [{"KAS-AMB-01": "b"}, {"KAS-AMB-01": "c"}, {"KAS-AMB-02": "b"}, {"KAS-AMB-02": "c"}]
)
def test_z3_endpoints_follow_the_readings(readings: dict[str, str]) -> None:
    """KAS-AMB-01 (b) spacing / (c) straight, KAS-AMB-02 (b) no revisit / (c) no return."""
    game: Any = make_game("kas", readings=readings)
    for start, card in zip(ABC_ENDS[3::15], ["S10", "S12", "SKY", "ROS"], strict=False):
        spec = flights.flight_spec(game, start, card=card)
        got, _ = flights.card_ends(game, spec)
        want, _ = flights.oracle_card_ends(game, spec)
        assert {e.distance: set(e.ends) for e in got} == want


@pytest.mark.parametrize("start", ABC_ENDS[::9])
def test_davinci_straight_seven(start: Hex) -> None:
    spec = flights.flight_spec(GAME, start, card="DAV")
    assert spec.rules.straight_only and spec.distances == (7,)
    (got,), _ = flights.card_ends(GAME, spec)
    assert set(got.ends) == set(flight.endpoints(ABC, start, 7, spec.rules))
    assert all(len(set(p)) == 1 for p in got.ends.values())


@pytest.mark.parametrize("start", ABC_ENDS[::12])
def test_clint_sharp_turns(start: Hex) -> None:
    spec = flights.flight_spec(GAME, start, moves=[4], sharp_ok=True)
    (got,), _ = flights.card_ends(GAME, spec)
    assert set(got.ends) == set(flight.endpoints(ABC, start, 4, spec.rules))
    assert set(got.ends) >= set(flight.endpoints(ABC, start, 4, FlightRules()))


@pytest.mark.parametrize("start", ABC_ENDS[::8])
def test_rose_and_thorn_two_flights_of_two(start: Hex) -> None:
    spec = flights.flight_spec(GAME, start, card="ROS")
    assert spec.legs == 2
    (got,), _ = flights.card_ends(GAME, spec)
    first = flight.endpoints(ABC, start, 2, spec.rules)
    want = {e for mid in first for e in flight.endpoints(ABC, mid, 2, spec.rules)}
    assert set(got.ends) == want
    for path in got.ends.values():
        assert flights.judge_path(ABC, start, path, 2, 2, spec.rules) is None


@pytest.mark.parametrize(("card", "distances"), [("KOA", (0, 1, 2, 3)), ("GOD", (0, 1, 2)), ("SKY", (6,))])
def test_choose_distance_cards(card: str, distances: tuple[int, ...]) -> None:
    start = ABC_ENDS[len(ABC_ENDS) // 2]
    spec = flights.flight_spec(GAME, start, card=card)
    assert spec.distances == distances
    got, _ = flights.card_ends(GAME, spec)
    for ends in got:
        assert set(ends.ends) == set(flight.endpoints(ABC, start, ends.distance, spec.rules))
    assert got[0].distance != 0 or set(got[0].ends) == {start}


def test_can_end_on_witness_and_cores() -> None:
    start = ABC_ENDS[len(ABC_ENDS) // 2]
    rules = FlightRules()
    spec = flights.flight_spec(GAME, start, moves=[3])
    target = next(iter(flight.endpoints(ABC, start, 3, rules)))
    status, (reach,), _ = flights.can_end_on(GAME, spec, target)
    assert status == "reachable" and reach.path is not None
    assert flight.flight_problem(ABC, start, reach.path, 3, rules) is None
    city = next(h for h, mh in ABC.hexes.items() if mh.city is not None and 1 <= start.distance(h) <= 3)
    status, (reach,), _ = flights.can_end_on(GAME, spec, city)
    assert status == "unreachable" and "KAS-R-27" in reach.core
    far = max(ABC_ENDS, key=start.distance)
    status, (reach,), _ = flights.can_end_on(GAME, spec, far)
    assert status == "unreachable" and reach.core == ("KAS-R-26",)  # no 3 steps get that far


# -- the walk and its certificate (issue 18) -------------------------------------------------------

LAYOUTS = ("ABC", "ABCDE", "ABCFG", "ABCDEFG")
WALKED = {
    **RULES,
    "straight turns": FlightRules(turns="straight"),
    "no return": FlightRules(no_return=True),
    # Clint Castle's sharp turns (KAS-R-82) under KAS-AMB-01 (b): any turn, no straight step needed between
    "spaced, sharp_ok": FlightRules(turns="spaced", sharp_ok=True),
}


def some_ends(layout: str, every: int) -> list[Hex]:
    game_map = GAME.ctx.game_map(layout)
    return sorted(h for h in game_map.hexes if game_map.can_end_on(h))[::every]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kind", sorted(WALKED))
def test_the_walk_proved_by_one_check_is_the_models_answer_on_every_layout(layout: str, kind: str) -> None:
    """KAS-R-26/27 (and KAS-R-65/82, KAS-AMB-01 (b)/(c), KAS-AMB-02 (c)): the ends, each with the
    smallest path as the model offers it, in the model's order; one Z3 check proved the set."""
    game_map = GAME.ctx.game_map(layout)
    rules = WALKED[kind]
    for start in some_ends(layout, 11):
        for length in (1, 3, 5, 7):
            got = flights.endpoints_z3(game_map, start, length, rules)
            assert got.status == "done" and got.checks == 1
            want = flight.endpoints(game_map, start, length, rules)
            assert got.ends == want and list(got.ends) == list(want)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_rose_and_thorn_walked_on_every_layout(layout: str) -> None:
    """KAS-R-73: two flights of 2, the middle hex a legal end (KAS-R-27); each witness legal leg by leg."""
    game_map = GAME.ctx.game_map(layout)
    rules = FlightRules()
    for start in some_ends(layout, 9):
        got = flights.endpoints_z3(game_map, start, 2, rules, legs=2)
        assert got.status == "done" and got.checks == 1
        assert set(got.ends) == flights.oracle_ends(game_map, start, 2, rules, legs=2)
        for path in got.ends.values():
            assert flights.judge_path(game_map, start, path, 2, 2, rules) is None


@pytest.mark.parametrize(("card", "legs"), [("S12", 1), ("SKY", 1), ("DAV", 1), ("ROS", 2)])
def test_the_walk_finds_the_ends_z3_enumerates_alone_on_the_seven_player_layout(card: str, legs: int) -> None:
    """The cards the benchmark times: the proved set equals Z3's own end-by-end enumeration."""
    spec = flights.flight_spec(GAME, Hex(0, 0), card=card, layout="ABCDEFG")
    game_map = GAME.ctx.game_map("ABCDEFG")
    (length,) = spec.distances
    assert spec.legs == legs
    walked = flights.endpoints_z3(game_map, spec.start, length, spec.rules, legs=legs)
    alone = flights.enumerate_ends_z3(game_map, spec.start, length, spec.rules, legs=legs)
    assert walked.status == alone.status == "done"
    assert (
        set(walked.ends) == set(alone.ends) == flights.oracle_ends(game_map, spec.start, length, spec.rules, legs=legs)
    )
    assert walked.checks == 1 and alone.checks == len(alone.ends) + 1


def certified(start: Hex, length: int, legs: int, rules: FlightRules, claimed: dict[Hex, tuple[int, ...]]) -> str:
    """Z3's verdict on the certificate that ``claimed`` is the end set on ABC: 'unsat' proves it."""
    area, endable = flights._hex_sets(ABC)
    solver = z3.SolverFor("QF_FD")
    solver.from_string(flights._certificate(area, endable, start, length, legs, rules, claimed))
    return str(solver.check())


@pytest.mark.parametrize(
    ("rules", "length", "legs"), [(FlightRules(), 3, 1), (FlightRules(turns="spaced"), 4, 1), (FlightRules(), 2, 2)]
)
def test_the_certificate_is_unsat_only_for_the_exact_set(rules: FlightRules, length: int, legs: int) -> None:
    """A set missing an end, or holding a city (KAS-R-27#end) or a hex too far (KAS-R-26), is refuted."""
    start = ABC_ENDS[len(ABC_ENDS) // 2]
    area, endable = flights._hex_sets(ABC)
    ends = flights._walk(area, endable, start, length, legs, rules)
    assert set(ends) == flights.oracle_ends(ABC, start, length, rules, legs=legs)
    assert certified(start, length, legs, rules, ends) == "unsat"
    first = next(iter(ends))
    assert certified(start, length, legs, rules, {h: p for h, p in ends.items() if h != first}) == "sat"
    city = next(h for h, mh in ABC.hexes.items() if mh.city is not None)
    far = max(ABC_HEXES, key=start.distance)
    assert certified(start, length, legs, rules, {**ends, city: ()}) == "sat"
    assert certified(start, length, legs, rules, {**ends, far: ()}) == "sat"


@pytest.mark.parametrize("how", ["drop", "add"])
def test_a_walk_the_certificate_refutes_is_replaced_by_z3s_enumeration(
    monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    start = ABC_ENDS[len(ABC_ENDS) // 2]
    rules = FlightRules()
    walk = flights._walk

    def wrong(
        area: frozenset[Hex], endable: frozenset[Hex], at: Hex, length: int, legs: int, r: FlightRules
    ) -> dict[Hex, tuple[int, ...]]:
        ends = walk(area, endable, at, length, legs, r)
        if how == "drop":
            ends.pop(next(iter(ends)))
        else:
            ends[max(ABC_HEXES, key=at.distance)] = (0, 0, 0)
        return ends

    monkeypatch.setattr(flights, "_walk", wrong)
    got = flights.endpoints_z3(ABC, start, 3, rules)
    want = flight.endpoints(ABC, start, 3, rules)
    assert got.status == "done" and set(got.ends) == set(want)
    assert got.checks == 1 + len(want) + 1  # the refuting check, then one per end and the last unsat
    for path in got.ends.values():
        assert flight.flight_problem(ABC, start, path, 3, rules) is None


@pytest.mark.parametrize(("rules", "legs"), [(FlightRules(no_revisit=True), 1), (FlightRules(no_return=True), 2)])
def test_readings_that_look_at_the_whole_path_are_enumerated_by_z3(rules: FlightRules, legs: int) -> None:
    """KAS-AMB-02 (b) no revisit, (c) no return across Rose & Thorn's two legs (KAS-R-73)."""
    start = ABC_ENDS[len(ABC_ENDS) // 2]
    length = 2 if legs == 2 else 4
    got = flights.endpoints_z3(ABC, start, length, rules, legs=legs)
    assert got.status == "done" and got.checks == len(got.ends) + 1
    assert set(got.ends) == flights.oracle_ends(ABC, start, length, rules, legs=legs)


def test_an_unknown_certificate_proves_no_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """Z3 'unknown' stays its own outcome: the walk's ends are not reported as proved."""
    monkeypatch.setattr(flights, "_check", lambda solver: z3.unknown)
    got = flights.endpoints_z3(ABC, ABC_ENDS[0], 3, FlightRules())
    assert got.status == "unknown" and got.ends == {} and got.checks == 1
    alone = flights.endpoints_z3(ABC, ABC_ENDS[0], 3, FlightRules(no_revisit=True))
    assert alone.status == "unknown" and alone.ends == {} and alone.checks == 1


# -- the queries -----------------------------------------------------------------------------------


def test_plan_query_modes() -> None:
    check = run_query("plan", ["--cards", "S01,S05,S07,S02", "--money", "4", "--level", "2", "--oracle"])
    assert check["status"] == "free" and check["agrees"] and check["schedule"]["upgrade_turns"]
    every = run_query("plan", ["--all", "--money", "0", "--oracle"])
    assert every["count"] == every["oracle"]["count"] and every["agrees"]
    best = run_query("plan", ["--best", "letters", "--letters", "A?C?", "--money", "12", "--oracle"])
    assert best["letters"][0] == "A" and best["letters"][2] == "C" and best["agrees"]


def test_flight_query_modes() -> None:
    start = ABC_ENDS[len(ABC_ENDS) // 2]
    at = f"{start.q},{start.r}"
    ends = run_query("flight", ["--from", at, "--card", "S07", "--oracle"])
    assert ends["agrees"] and ends["count"] == len(flight.endpoints(ABC, start, 3, FlightRules()))
    q, r = ends["ends"][0]
    reach = run_query("flight", ["--from", at, "--moves", "3", "--to", f"{q},{r}", "--oracle"])
    assert reach["status"] == "reachable" and reach["agrees"]
    clint = run_query("flight", ["--from", at, "--moves", "4", "--sharp-ok", "--oracle"])
    assert clint["agrees"]


def test_oracle_checks_agree_on_seeded_inputs() -> None:
    rng = random.Random(7)
    for _ in range(5):
        assert QUERIES["plan"].oracle_check(GAME, rng) is None
        assert QUERIES["flight"].oracle_check(GAME, rng) is None


def test_queries_include_the_delivery_queries_when_present() -> None:
    assert {"plan", "flight"} <= set(QUERIES)
    try:
        from rulecraft.solvers.kings_of_air_and_steam import deliveries
    except ImportError:
        return
    assert set(getattr(deliveries, "QUERIES", {})) <= set(QUERIES)


def test_report_query_times_on_the_seven_player_layout(capsys: pytest.CaptureFixture[str]) -> None:
    """Reported, not asserted tightly: Z3 against the oracle on ABC and ABCDEFG."""
    lines = []
    for layout in ("ABC", "ABCDEFG"):
        game_map = GAME.ctx.game_map(layout)
        start = sorted(h for h in game_map.hexes if game_map.can_end_on(h))[len(game_map.hexes) // 3]
        for label, n, rules in (
            ("S12 5", 5, FlightRules()),
            ("Clint 5", 5, FlightRules(sharp_ok=True)),
            ("DaVinci 7", 7, FlightRules(straight_only=True)),
        ):
            t = time.perf_counter()
            got = flights.endpoints_z3(game_map, start, n, rules)
            z3_ms = (time.perf_counter() - t) * 1000
            t = time.perf_counter()
            want = flights.oracle_ends(game_map, start, n, rules)
            oracle_ms = (time.perf_counter() - t) * 1000
            assert set(got.ends) == want
            lines.append(f"{layout} {label}: {len(want)} ends, z3 {z3_ms:.0f} ms, oracle {oracle_ms:.1f} ms")
            assert z3_ms < 30_000
    with capsys.disabled():
        print("\n" + "\n".join(lines))


@settings(max_examples=40, deadline=None)
@given(
    diamonds=st.lists(st.integers(0, 4), min_size=4, max_size=4),
    money=st.integers(0, 20),
    level=st.integers(1, 3),
)
def test_a_plan_given_by_diamond_ratings_agrees_with_the_brute_force_oracle(
    diamonds: list[int], money: int, level: int
) -> None:
    """`query kas plan --diamonds`: a rules question about diamond values needs no card ids (the plan's
    forfeits depend on its cards only through their diamonds, KAS-R-25)."""
    answer = QUERIES["plan"].run(
        GAME, {"diamonds": ",".join(map(str, diamonds)), "money": money, "level": level, "oracle": True}
    )
    assert answer["spec"]["diamonds"] == diamonds and answer["agrees"] is True
    assert answer["status"] in ("free", "forfeit", "unknown")


def test_a_plan_by_diamonds_answers_as_the_cards_with_those_diamonds() -> None:
    cards = ["S01", "S05", "S09", "S12"]
    ratings = [GAME.pack.card(c).diamonds for c in cards]
    by_cards = QUERIES["plan"].run(GAME, {"cards": ",".join(cards), "money": 4})
    by_diamonds = QUERIES["plan"].run(GAME, {"diamonds": ",".join(map(str, ratings)), "money": 4})
    assert by_cards["status"] == by_diamonds["status"] and by_cards["spec"]["diamonds"] == ratings


@pytest.mark.parametrize("bad", ["1,2", "1,2,3,x", "1,-1,2,3", "1,2,3,4,5"])
def test_diamond_ratings_that_are_no_plan_are_refused_in_one_line(bad: str) -> None:
    from rulecraft.core import RulecraftError

    with pytest.raises(RulecraftError, match=r"--diamonds: 4 diamond ratings >= 0, one per slot \(KAS-R-19\)"):
        QUERIES["plan"].run(GAME, {"diamonds": bad})
