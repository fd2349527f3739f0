"""Aeroplanes solver queries (placements, risk, standings): Z3 against the model's own functions.

Risk examples 1 and 2 (seed 002, l.119-121; AER-EX-16/17) are checked with their printed numbers: 12+ then
10+ (an opponent in East Africa), 10+ and 10+ (also one in Kenya); (2, 5, 4) = 11 short 1, (3, 4, skull) = 7
and one engine failure, short 3; £4 spent (example 2: £3).  The exact probabilities (28651/46656 and
£64663/46656 with £4) are derived, not printed: tests/test_aer_risk.py derives them by hand.
"""

from __future__ import annotations

import json
import random
import types
from typing import Any

import attrs
import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st
from test_aer_placing import LR1, PLAIN1, with_card
from test_aer_rules import give_airport, started

from rulecraft import solving
from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.state import AerState, Airport, Slots
from rulecraft.solvers.aeroplanes import odds, placements, standings
from rulecraft.solvers.aeroplanes.queries import QUERIES
from rulecraft.solvers.aeroplanes.samples import random_state

CTX = Context.printed()
GAME: Any = types.SimpleNamespace(ctx=CTX)
T = 5000


def example_state(opponent_in_kenya: bool, card: int = LR1) -> tuple[AerState, int]:
    """AER-EX-16/17: own tile in Ethiopia, an opponent in East Africa (and Kenya), an LR card with 2 tiles."""
    state = started(4, seed=3)
    me = state.to_move
    other = (me + 1) % 4
    state = give_airport(state, me, "Ethiopia")
    state = give_airport(state, other, "East Africa")
    if opponent_in_kenya:
        state = give_airport(state, other, "Kenya")
    return with_card(state, me, card, 2), me


# ---------------------------------------------------------------------------
# placements
# ---------------------------------------------------------------------------


def test_example_1_hop_is_listed_with_12_then_10() -> None:
    """l.119: Ethiopia -> (Kenya) -> East Africa, red + red, an opponent in East Africa: 12+ and 10+."""
    state, me = example_state(False)
    found = placements.placements_z3(CTX, state, me, timeout_ms=T)
    assert found.status == "done"
    hop = [o for o in found.options if o.destination == "East Africa" and o.via == "Kenya"]
    assert len(hop) == 1 and hop[0].origin == "Ethiopia" and hop[0].needs_lr and hop[0].daring_pilot
    assert [(r.target, r.bonus, r.need) for r in hop[0].rolls] == [(12, 0, 12), (12, 2, 10)]
    assert hop[0].slots == (1,) and hop[0].cards == (LR1,)  # AER-R-29 (d): the empty slot
    assert placements.disagreement(found, placements.oracle_placements(CTX, state, me)) is None


def test_example_2_both_rolls_at_10() -> None:
    """l.120: an opponent in Kenya too: 10+, 10+ (AER-R-22 (b))."""
    state, me = example_state(True)
    found = placements.placements_z3(CTX, state, me, timeout_ms=T)
    hop = [o for o in found.options if o.destination == "East Africa" and o.via == "Kenya"]
    assert [r.need for r in hop[0].rolls] == [10, 10]
    assert placements.disagreement(found, placements.oracle_placements(CTX, state, me)) is None


def test_wish_cores_name_the_rules() -> None:
    """A plain card cannot hop (AER-R-17); no card with a tile at all: AER-R-13; the home city: the home tile
    is never replaced (AER-R-30 (f)) and a second own tile is refused (AER-R-29 (c))."""
    state, me = example_state(False, card=PLAIN1)
    far = placements.wish_z3(CTX, state, me, "East Africa", timeout_ms=T)
    assert far.status == "unreachable" and placements.R17 in far.core
    assert placements.oracle_rejection(CTX, state, me, "East Africa") is not None
    bare = started(4, seed=3)
    none = placements.wish_z3(CTX, bare, bare.to_move, "Paris", timeout_ms=T)
    assert none.status == "unreachable" and none.core == (placements.R13,)
    home = state.players[me].home
    assert home is not None
    own = placements.wish_z3(CTX, state, me, home, timeout_ms=T)
    assert own.status == "unreachable" and set(own.core) & {placements.R30F, placements.R29C, placements.R29D}
    assert placements.oracle_rejection(CTX, state, me, home) is not None


def test_full_destination_needs_a_higher_stage() -> None:
    """AER-EX-19: Copenhagen-like: every slot holds an opponent's stage-1 tile; a stage-1 tile cannot go in
    (AER-R-29 (e)), whatever the route."""
    state, me = example_state(False)
    other = (me + 1) % 4
    n = len(state.players)
    d = CTX.pack.destination("East Africa")
    full = tuple(Airport(other if j == 0 else (me + 2) % 4, 1) for j in range(d.slots_in_play(n)))
    board = tuple(
        Slots(s.destination, full + s.slots[len(full) :]) if s.destination == d.name else s for s in state.map
    )
    state = attrs.evolve(state, map=board)
    wish = placements.wish_z3(CTX, state, me, "East Africa", timeout_ms=T)
    assert wish.status == "unreachable" and placements.R29E in wish.core
    assert placements.oracle_rejection(CTX, state, me, "East Africa") is not None


@settings(max_examples=12, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_placements_agree_with_the_model_on_random_states(seed: int) -> None:
    rng = random.Random(seed)
    state = random_state(CTX, rng)
    found = placements.placements_z3(CTX, state, state.to_move, timeout_ms=T)
    assert found.status == "done"
    assert placements.disagreement(found, placements.oracle_placements(CTX, state, state.to_move)) is None
    wish = rng.choice([d.name for d in CTX.pack.destinations])
    got = placements.wish_z3(CTX, state, state.to_move, wish, timeout_ms=T)
    why = placements.oracle_rejection(CTX, state, state.to_move, wish)
    assert (got.status == "reachable") == (why is None)
    assert got.status == "reachable" or got.core


# ---------------------------------------------------------------------------
# risk
# ---------------------------------------------------------------------------


def test_risk_example_1_printed_numbers_through_the_query() -> None:
    """l.119, l.121: 12+ and 10+; 11 is short 1 (pay £1), 7 with a skull short 3 (pay £3): £4, 1 EF, placed."""
    state, _ = example_state(False)
    route = {"origin": "Ethiopia", "destination": "East Africa", "via": "Kenya", "money": 4}
    answer = QUERIES["risk"].run(GAME, route | {"dice": "2,5,4;3,4,skull", "oracle": True}, state)
    assert [r["need"] for r in answer["rolls"]] == [12, 10]
    assert [(s["total"], s["skulls"], s["shortfall"]) for s in answer["steps"]] == [(11, 0, 1), (7, 1, 3)]
    assert (answer["end"], answer["money_spent"], answer["engine_failures_after"]) == ("placed", 4, 1)
    assert answer["agrees"] is True and "AER-R-23 success: total + bonus >= target" in answer["core"]
    odds_answer = QUERIES["risk"].run(GAME, route | {"oracle": True}, state)
    assert odds_answer["success"] == "28651/46656" and odds_answer["expected_money"] == "64663/46656"
    assert odds_answer["agrees"] is True


def test_risk_example_2_printed_numbers_through_the_query() -> None:
    """l.120: 10+, 10+; 11 passes, 7 and a skull still costs £3: placed, £3."""
    state, _ = example_state(True)
    route = {"origin": "Ethiopia", "destination": "East Africa", "via": "Kenya", "money": 4}
    answer = QUERIES["risk"].run(GAME, route | {"dice": "2,5,4;3,4,skull", "oracle": True}, state)
    assert [r["need"] for r in answer["rolls"]] == [10, 10]
    assert [s["outcome"] for s in answer["steps"]] == ["pass", "cover"] and answer["steps"][1]["shortfall"] == 3
    assert (answer["end"], answer["money_spent"]) == ("placed", 3) and answer["agrees"] is True


def test_roll_classes_count_216_throws() -> None:
    """Z3 lists the 56 multisets (sorted dice) standing for the 6^3 = 216 throws; the passes at 12+ are
    counted by hand (a skull counts 0, l.89)."""
    classes = odds.roll_classes(CTX.pack, 12, timeout_ms=T)
    assert sum(c for _, c in classes.counts) == 216 and classes.total == 216
    assert classes.checks == 57  # 56 models and the unsat that ends the listing
    passes = sum(c for (s, _), c in classes.counts if s == 0)
    faces = (0, 2, 3, 4, 5, 6)
    assert passes == sum(1 for a in faces for b in faces for c in faces if a + b + c >= 12) == 75


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from([10, 12, 14]), st.sampled_from([0, 2]), st.booleans()), min_size=1, max_size=3),
    st.integers(0, 9),
    st.integers(0, 2),
    st.integers(0, 1),
    st.integers(0, 3),
    st.sampled_from(["optimal", "always-pay"]),
    st.booleans(),
)
def test_exact_odds_agree_with_risk_analyse(
    rolls: list[tuple[int, int, bool]], money: int, pilots: int, beacons: int, ef: int, policy: str, at_once: bool
) -> None:
    from rulecraft.model.aeroplanes import risk

    specs = [odds.RollSpec(t, b, dp) for t, b, dp in rolls]
    got = odds.exact(CTX.pack, specs, money=money, pilots=pilots, beacons=beacons, engine_failures=ef,
                     policy=policy, at_once=at_once, timeout_ms=T)  # fmt: skip
    model_rolls = [risk.Roll(i, 1, t, b, dp, "") for i, (t, b, dp) in enumerate(rolls)]
    readings = {"AER-AMB-26": "at-once" if at_once else "reroll"}
    want = risk.analyse(CTX.pack, model_rolls, money=money, pilots=pilots, beacons=beacons, engine_failures=ef,
                        policy="optimal" if policy == "optimal" else "always-pay", readings=readings)  # fmt: skip
    assert got.status == "done"
    assert (got.success, got.failure, got.collapse) == (want.success, want.failure, want.collapse)
    assert (got.expected_money, got.expected_pilots, got.expected_beacons) == (
        want.expected_money,
        want.expected_pilots,
        want.expected_beacons,
    )


# ---------------------------------------------------------------------------
# standings
# ---------------------------------------------------------------------------


def test_market_first_place_and_the_tiles_rule() -> None:
    """A seat with no tiles left to place cannot gain in a market it trails (AER-R-11); with tiles it needs
    as many as the leader's lead (competition ranking: a tie is first place, AER-R-50 l.167), one more alone."""
    state, me = example_state(False)
    other = (me + 1) % 4
    state = give_airport(state, other, "Kenya")  # the other seat leads Africa 2 to 1
    got = standings.market_z3(CTX, state, me, "Africa", timeout_ms=T)
    assert (got.status, got.extra) == ("reachable", 1)
    alone = standings.market_z3(CTX, state, me, "Africa", alone=True, timeout_ms=T)
    assert alone.extra == 2
    assert standings.oracle_market(CTX, state, me, "Africa")[0] == 1
    assert standings.oracle_market(CTX, state, me, "Africa", alone=True)[0] == 2
    p = state.players[me]
    empty = attrs.evolve(p, supply=(0, 0, 0), cards=tuple(attrs.evolve(c, tiles=0) for c in p.cards))
    broke = attrs.evolve(state, players=tuple(empty if i == me else x for i, x in enumerate(state.players)))
    none = standings.market_z3(CTX, broke, me, "Africa", timeout_ms=T)
    assert none.status == "unreachable" and standings.R11 in none.core and standings.R50 in none.core
    assert standings.oracle_market(CTX, broke, me, "Africa")[0] is None


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.booleans(), st.booleans())
def test_standings_agree_with_scoring_on_random_states(seed: int, alone: bool, claimable: bool) -> None:
    rng = random.Random(seed)
    state = random_state(CTX, rng)
    seat = rng.randrange(len(state.players))
    market = rng.choice(CTX.pack.markets)
    got = standings.market_z3(CTX, state, seat, market, alone=alone, timeout_ms=T)
    assert got.status in ("reachable", "unreachable")
    assert got.extra == standings.oracle_market(CTX, state, seat, market, alone=alone)[0]
    prof = standings.profit_z3(CTX, state, seat, claimable=claimable, alone=alone, timeout_ms=T)
    assert prof.extra == standings.oracle_profit(CTX, state, seat, claimable=claimable, alone=alone)[0]
    assert prof.status == "reachable" or prof.core


# ---------------------------------------------------------------------------
# the queries: JSON, flags, oracle checks, unknown
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("placements", {}),
        ("placements", {"wish": "Cairo"}),
        ("risk", {}),
        ("risk", {"targets": "12,12-2", "money": 4, "daring_pilot": True}),
        ("standings", {"market": "Europe"}),
        ("standings", {"profit": True, "claimable": True}),
    ],
)
def test_queries_answer_in_json_and_agree(name: str, params: dict[str, Any]) -> None:
    answer = QUERIES[name].run(GAME, {**params, "oracle": True})
    json.dumps(answer)
    assert answer["query"] == name and answer["ms"] >= 0 and answer["agrees"] is True
    assert QUERIES[name].format(answer)


@pytest.mark.parametrize(
    ("name", "params", "flag"),
    [
        ("placements", {"wish": "Atlantis"}, "--wish"),
        ("placements", {"seat": 9}, "--seat"),
        ("risk", {"targets": "x"}, "--targets"),
        ("risk", {"targets": "12", "dice": "2,7"}, "--dice"),
        ("risk", {"engine_failures": 4}, "--engine-failures"),
        ("standings", {"market": "Mars"}, "--market"),
        ("standings", {"timeout_ms": "soon"}, "--timeout-ms"),
    ],
)
def test_bad_parameters_name_the_flag(name: str, params: dict[str, Any], flag: str) -> None:
    with pytest.raises(RulecraftError, match=flag):
        QUERIES[name].run(GAME, params)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_oracle_check_finds_no_disagreement(name: str) -> None:
    rng = random.Random(2025)
    assert [QUERIES[name].oracle_check(GAME, rng) for _ in range(3)] == [None] * 3


def test_other_readings_are_refused() -> None:
    ctx = Context.printed(readings={"AER-AMB-18": "per-leg"})
    with pytest.raises(NotApplicable, match="AER-AMB-18"):
        placements.placements_z3(ctx, started(4, seed=3), 0, timeout_ms=T)


def test_unknown_is_reported_as_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solving, "check", lambda solver, *assumptions: z3.unknown)  # the one place Z3 runs
    state, me = example_state(False)
    assert placements.placements_z3(CTX, state, me, timeout_ms=T).status == "unknown"
    assert placements.wish_z3(CTX, state, me, "Kenya", timeout_ms=T).status == "unknown"
    assert odds.exact(CTX.pack, [odds.RollSpec(7)], money=1, timeout_ms=T).status == "unknown"  # 7+: not cached
    assert standings.market_z3(CTX, state, me, "Africa", timeout_ms=T).status == "unknown"
    for name, params in (("placements", {}), ("standings", {"profit": True})):
        answer = QUERIES[name].run(GAME, {**params, "oracle": True}, state)
        assert answer["status"] == "unknown" and answer["agrees"] is True


@pytest.mark.parametrize(("need", "money"), [(10, 3), (12, 4), (14, 0)])
def test_risk_gives_the_cost_of_an_attempt_that_places_beside_the_cost_over_all(need: int, money: int) -> None:
    """One roll of the three risk dice (faces skull, 2..6, l.89: a skull counts 0): the tile is placed when
    the shortfall is at most the pounds held (AER-R-23, £1 a point).  Brute force over the 216 throws:
    E[£ spent] counts every throw; E[£ spent | placed] only the placing ones."""
    from fractions import Fraction
    from itertools import product

    faces = [0, 2, 3, 4, 5, 6]
    placed = spent = Fraction(0)
    for throw in product(faces, repeat=3):
        short = max(0, need - sum(throw))
        if short <= money:
            placed += Fraction(1, 216)
            spent += Fraction(short, 216)
    params = {"targets": str(need), "money": money, "pilots": 0, "beacons": 0, "engine_failures": 0}
    answer = QUERIES["risk"].run(GAME, params | {"oracle": True}, started(3))
    assert answer["success"] == str(placed) and answer["agrees"] is True
    assert answer["expected_money"] == str(spent)  # a single roll: no pound is spent on a failure
    assert answer["expected_money_if_placed"] == (str(spent / placed) if placed else None)
    assert answer["from_seat"] == []


def test_risk_says_which_inputs_it_took_from_the_seat() -> None:
    """--targets with no --money/--pilots/...: the seat's values are used and the answer names them."""
    answer = QUERIES["risk"].run(GAME, {"targets": "12,10", "money": 2}, started(3))
    assert answer["from_seat"] == ["pilots", "beacons", "engine_failures"]
    text = QUERIES["risk"].format(answer)
    assert f"pilots, beacons, engine_failures as seat {answer['seat']} holds them" in text
    assert "when the tile is placed" in text


def test_the_risk_query_s_help_names_both_expected_costs() -> None:
    """Issue 19: the answer gives the cost with failures and the cost when the tile is placed; the
    one-line help says so, so a rules person knows both are there before asking."""
    from rulecraft.solvers.aeroplanes.queries import RiskQuery

    text = RiskQuery().help
    assert "with failures" in text and "when it places" in text
