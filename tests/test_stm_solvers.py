"""Steamopolis solver queries (placements, gauge, top): Z3 against the brute-force oracles.

Hand-built states use the digest's values: gauge spaces g1..g10 with values 1,1,2,2,3,4,5,6,7,8
(STM-R-14), the setup gauge g1, g2, g3 = values 1, 1, 2 (STM-R-11), a channelled stone of value v
entering machine position v-1 (STM-AMB-02 (a)).  Expected answers come from the rulebook examples
(cited by STM-EX ID) or are derived by hand in the test's docstring, never from running a solver.
"""

from __future__ import annotations

import argparse
import json
import random
import types
from collections.abc import Sequence
from typing import Any

import attrs
import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft import solving
from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.steamopolis.actions import ChannelPressure, MoveLeft
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import Handover
from rulecraft.model.steamopolis.gauge import Gauge, gauge_of, increase, setup_gauge, values
from rulecraft.model.steamopolis.state import (
    BoardStone,
    Parasite,
    Phase,
    PlayerState,
    RoomTile,
    StmState,
    Stone,
    Supply,
    TurnState,
    new_player,
)
from rulecraft.model.steamopolis.transitions import transition
from rulecraft.solvers.steamopolis import common, placements, top
from rulecraft.solvers.steamopolis import gauge as gauges  # the solver module beside the local gauge values
from rulecraft.solvers.steamopolis.common import parse_target
from rulecraft.solvers.steamopolis.queries import QUERIES
from rulecraft.solvers.steamopolis.samples import random_state

CTX = Context.printed()
GAME: Any = types.SimpleNamespace(ctx=CTX, pack=CTX.pack)  # what the queries read from StmGame
T = 5000  # Z3 timeout (ms)


def room(*tiles: tuple[int, RoomTile]) -> tuple[RoomTile | None, ...]:
    out: list[RoomTile | None] = [None] * 7
    for position, tile in tiles:
        out[position - 1] = tile
    return tuple(out)


def player(stones: Sequence[tuple[int, bool]], **kw: Any) -> PlayerState:
    p = attrs.evolve(new_player(1), gauge=gauge_of(stones), supply=(Stone(),) * (5 - len(stones)))
    return attrs.evolve(p, **kw)


def game(me: PlayerState, *occupied: tuple[int, str], phase: Phase = Phase.ACTION) -> StmState:
    """Seat 0 to move; ``occupied`` districts hold seat 1's stones."""
    board = tuple(BoardStone(1, level, position) for level, position in occupied)  # type: ignore[arg-type]
    supply = Supply(crystals=15 - me.crystals, gears=15 - me.gears)
    other = attrs.evolve(new_player(3), supply=(Stone(),) * max(0, 2 - len(board)))
    return StmState(players=(me, other), phase=phase, board=board, supply=supply)


def keys(found: Sequence[placements.Placement]) -> set[tuple[int, int, str, bool, int]]:
    return {p.key for p in found}


def oracle_keys(state: StmState) -> set[tuple[int, int, str, bool, int]]:
    walked, _ = placements.oracle_placements(CTX, state, state.to_move)
    return {w.placement.key for w in walked}


# ---------------------------------------------------------------------------
# placements: STM-R-26..30
# ---------------------------------------------------------------------------


def test_setup_gauge_has_ten_placements() -> None:
    """Setup (STM-R-11): values 1, 1, 2.  The value-1 stones reach level 1 (2 districts each), the
    value-2 stone levels 1-2 (4) and, channelled (STM-EX-05: it enters m1, value 1), level 1 (2)."""
    found = placements.placements_z3(CTX, common.default_state(), 0, timeout_ms=T)
    assert found.status == "done"
    assert values(common.default_state().players[0].gauge) == ("1", "1", "2")
    want = {(s, 1, pos, False, 0) for s in (1, 2, 3) for pos in ("left", "right")}
    want |= {(3, 2, pos, False, 0) for pos in ("left", "right")}
    want |= {(3, 1, pos, True, 0) for pos in ("left", "right")}
    assert keys(found.placements) == want
    assert oracle_keys(common.default_state()) == want


def test_ex03_a_value_4_stone_reaches_the_free_districts_of_levels_1_to_4() -> None:
    """STM-EX-03 (p.12): value 4 on g6; L2-left, L3-right, L4-left, L4-right occupied → direct
    L1-left, L1-right, L2-right, L3-left.  Channelled it enters m3 and may drop to 2 and 1."""
    state = game(player([(6, False)]), (2, "left"), (3, "right"), (4, "left"), (4, "right"))
    found = placements.placements_z3(CTX, state, 0, timeout_ms=T).placements
    direct = {(p.level, p.position) for p in found if not p.channel}
    assert direct == {(1, "left"), (1, "right"), (2, "right"), (3, "left")}
    channelled = {(p.moves, p.level, p.position) for p in found if p.channel}
    assert channelled == {
        (0, 1, "left"), (0, 1, "right"), (0, 2, "right"), (0, 3, "left"),
        (1, 1, "left"), (1, 1, "right"), (1, 2, "right"),
        (2, 1, "left"), (2, 1, "right"),
    }  # fmt: skip
    assert keys(found) == oracle_keys(state)


def test_ex39_channel_path_activates_the_piped_machines() -> None:
    """STM-EX-39 (p.36): value 4 from g6 enters m3 (empty), left to m2 (capacity tile, +1) and m1
    (starting machine, +1), placed at value 1 on L1-left."""
    machines = room((1, RoomTile("starting", "S1", 0)), (2, RoomTile("capacity", "capacity", 0)))
    me = player([(6, False), (8, False), (9, True)], machine_room=machines)
    state = game(me)
    inst = placements.instance(CTX, state, 0)
    found = placements.placements_z3(CTX, state, 0, timeout_ms=T).placements
    chosen = [p for p in found if p.space == 6 and p.channel and p.moves == 2 and (p.level, p.position) == (1, "left")]
    assert len(chosen) == 1
    answer = chosen[0].to_json(inst)
    assert answer["path"] == [3, 2, 1] and answer["placed_at_value"] == 1
    assert [a["position"] for a in answer["activates"]] == [2, 1]
    walked = [w for w in placements.oracle_placements(CTX, state, 0)[0] if w.placement.key == chosen[0].key]
    assert walked[0].activated == (2, 1)  # where the model itself queued effects


def ex06_state() -> StmState:
    """STM-EX-06 (p.14), reconstructed: value 7 on g9 enters m6; m6 '2 gears', m4 '1 crystal', m3
    'pay 2 crystals: 2 VP'; she holds crystal, crystal, gear."""
    machines = room(
        (6, RoomTile("machine", "M0-03")), (4, RoomTile("machine", "M0-01")), (3, RoomTile("machine", "M1-02"))
    )
    return game(player([(9, False)], machine_room=machines, crystals=2, gears=1))


def test_ex06_channelling_a_7_down_to_2_and_placing_on_level_1() -> None:
    """STM-EX-06: channel the value-7 stone down to value 2 (m6..m2, 4 moves) and place on level 1."""
    state = ex06_state()
    found = placements.placements_z3(CTX, state, 0, timeout_ms=T).placements
    assert (9, 1, "left", True, 4) in keys(found)
    assert keys(found) == oracle_keys(state)


def test_ex06_best_gains() -> None:
    """STM-EX-06: 2 gears + 1 crystal are the most resources a path gains (m6 and m4, no payment);
    2 VP the most vote points (pay 2 crystals at m3), with 2 + 1 - 2 crystals left."""
    state = ex06_state()
    best = placements.best_placement(CTX, state, 0, "resources", timeout_ms=T)
    assert best.status == "optimal" and best.value == 3
    assert best.gain == placements.Gain(1, 2, 0)
    vp = placements.best_placement(CTX, state, 0, "vp", timeout_ms=T)
    assert vp.status == "optimal" and vp.value == 2
    assert vp.placement is not None and vp.placement.reduced <= 3  # the path passed m3
    assert vp.gain is not None and vp.gain.vp == 2 and vp.gain.crystals <= 0
    answer = QUERIES["placements"].run(GAME, {"best": "vp", "oracle": True}, state)
    assert answer["agrees"] and answer["oracle"]["value"] == 2


def test_wish_out_of_reach_names_the_rules() -> None:
    """Setup: no stone is worth 3, and channelling only lowers the value (STM-R-26, R-29); with no
    stone on the gauge, nothing can be set at all (STM-R-26)."""
    wish = placements.wish_z3(CTX, common.default_state(), 0, 3, None, timeout_ms=T)
    assert wish.status == "unreachable"
    assert wish.core == (placements.R26_LEVEL, placements.R29_PATH)
    empty = placements.wish_z3(CTX, game(player([])), 0, 1, None, timeout_ms=T)
    assert empty.status == "unreachable" and empty.core == (placements.R26_STONE,)


def test_wish_on_an_occupied_district_names_the_free_district_rule() -> None:
    state = game(player([(6, False)]), (2, "left"))
    wish = placements.wish_z3(CTX, state, 0, 2, "left", timeout_ms=T)
    assert wish.status == "unreachable" and wish.core == (placements.R27_FREE,)
    ok = placements.wish_z3(CTX, state, 0, 2, "right", timeout_ms=T)
    assert ok.status == "reachable" and ok.placement is not None and ok.placement.level == 2


def test_amb06_forbidden_needs_a_machine_at_the_entry() -> None:
    """STM-AMB-06 'forbidden': no channelling without a tile at the entry position."""
    ctx = Context.printed(readings={"STM-AMB-06": "forbidden"})
    state = game(player([(6, False)], machine_room=room((2, RoomTile("capacity", "capacity", 0)))))
    found = placements.placements_z3(ctx, state, 0, timeout_ms=T).placements
    assert not any(p.channel for p in found)  # value 4 enters m3, which is empty
    walked, _ = placements.oracle_placements(ctx, state, 0)
    assert keys(found) == {w.placement.key for w in walked}


def test_best_counts_only_the_channellers_own_gains_not_a_parasites_share() -> None:
    """Regression (bench ``action_states(SteamopolisGame(), 10)[8]``: seat 3, one value-6 stone, M2-01 at m3 carrying
    another player's parasite; the oracle counted 6 resources, Z3 3), rebuilt small: value 6
    on g8 enters m5; m3 holds M2-01 (two piped boilers: 2 gears, 1 crystal) with seat 1's parasite on
    its activation; m1 holds M0-04 (pay 1 crystal: pressure +3).  Passing m3 gains seat 0 2 gears + 1
    crystal = 3; the parasite goes home and seat 1 may use the same effect once (STM-R-54): that is
    seat 1's gain, never seat 0's.  The model queues it behind a hand-over to seat 1."""
    machines = room((3, RoomTile("machine", "M2-01")), (1, RoomTile("machine", "M0-04")))
    me = player([(8, False)], machine_room=machines, gears=1)
    state = game(me)
    other = attrs.evolve(state.players[1], parasites_home=2)
    state = attrs.evolve(
        state, players=(me, other), parasites=(Parasite(owner=1, host=0, position=3, on="activation"),)
    )
    channelled = transition(CTX, state, ChannelPressure(8))
    moved = transition(CTX, transition(CTX, channelled, MoveLeft()), MoveLeft())
    assert moved.turn.channel == 3 and (Handover(1),) in moved.turn.pending  # seat 1's share is queued
    walked, _ = placements.oracle_placements(CTX, state, 0)
    through_m3 = [w for w in walked if w.placement.channel and w.placement.reduced <= 3]
    assert through_m3 and all(w.activated[0] == 3 and len(w.programs) >= 2 for w in through_m3)
    inst = placements.instance(CTX, state, 0)
    assert {placements.oracle_gain(inst, w.programs, "resources")[0] for w in through_m3} == {3}
    best = placements.best_placement(CTX, state, 0, "resources", timeout_ms=T)
    assert best.status == "optimal" and best.value == 3 and best.gain == placements.Gain(1, 2, 0)
    answer = QUERIES["placements"].run(GAME, {"best": "resources", "oracle": True}, state)
    assert answer["agrees"] and answer["oracle"]["value"] == 3


@settings(max_examples=20, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_placements_agree_with_the_oracle_on_random_states(seed: int) -> None:
    state = random_state(CTX, random.Random(seed))
    found = placements.placements_z3(CTX, state, 0, timeout_ms=T)
    assert found.status == "done"
    assert keys(found.placements) == oracle_keys(state)


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(placements.OBJECTIVES))
def test_best_agrees_with_the_oracle_on_random_states(seed: int, objective: str) -> None:
    state = random_state(CTX, random.Random(seed), stones=(1, 5))
    best = placements.best_placement(CTX, state, 0, objective, timeout_ms=T)
    walked, _ = placements.oracle_placements(CTX, state, 0)
    inst = placements.instance(CTX, state, 0)
    if not walked:
        assert best.status == "none"
        return
    want = max(placements.oracle_gain(inst, w.programs, objective)[0] for w in walked)
    assert best.status == "optimal" and best.value == want
    assert best.placement is not None and best.placement.key in {w.placement.key for w in walked}


# ---------------------------------------------------------------------------
# gauge: STM-R-15
# ---------------------------------------------------------------------------


def test_ex02_increase_by_6_ends_at_the_right_end() -> None:
    """STM-EX-02 (p.10): stones g4, g8, g9 (2, 6, 7), +6: every order ends on 6, 7, 8; the printed
    one (the leftmost stone 4 times) lets 2 lapse, other orders use 5 or 6 increments."""
    gauge = gauge_of([(4, False), (8, False), (9, False)])
    found = gauges.reachable_gauges(CTX, gauge, 6, timeout_ms=T)
    assert found.status == "done"
    assert [values(o.gauge) for o in found.outcomes] == [("6", "7", "8")]
    assert increase(gauge, 6, (4, 5, 6, 7)).lapsed == 2
    assert found.outcomes[0].lapsed in (0, 1, 2)


def test_ex38_make_steam_reaches_the_printed_values() -> None:
    """STM-EX-38 (p.36): 1, 2, 2A (g2, g3, g4A) + 4 → '4, 5A, 6' (leftmost each time)."""
    gauge = gauge_of([(2, False), (3, False), (4, True)])
    reach = gauges.can_reach(CTX, gauge, 4, parse_target("4,5A,6", CTX.layout), timeout_ms=T)
    assert reach.status == "reachable" and reach.outcome is not None
    assert values(increase(gauge, 4, reach.outcome.picks).gauge) == ("4", "5A", "6")


def test_ex42_both_orders_of_plus_two() -> None:
    """STM-EX-42 (p.36 ff.): 1A, 1, 2 + 2: g1A→g4 then g2→g5 gives 2, 2A, 3; g2 first gives 1A, 2, 2."""
    gauge = gauge_of([(1, True), (2, False), (3, False)])
    found = {values(o.gauge) for o in gauges.reachable_gauges(CTX, gauge, 2, timeout_ms=T).outcomes}
    assert ("2", "2A", "3") in found and ("1A", "2", "2") in found


def test_ex39_most_increments_reading_keeps_one_outcome() -> None:
    """STM-EX-39 / STM-AMB-32: 6, 7A (g8, g9A) + 2: g8→g10 first is stuck after one (7A, 8), g9A→g10
    then g8→g9 uses both (7, 8A).  'free-order' keeps both, 'most' only the second."""
    gauge = gauge_of([(8, False), (9, True)])
    free = {values(o.gauge) for o in gauges.reachable_gauges(CTX, gauge, 2, timeout_ms=T).outcomes}
    assert free == {("7A", "8"), ("7", "8A")}
    most_ctx = Context.printed(readings={"STM-AMB-32": "most"})
    most = gauges.reachable_gauges(most_ctx, gauge, 2, timeout_ms=T)
    assert {values(o.gauge) for o in most.outcomes} == {("7", "8A")} and most.most == 2
    assert {o.gauge for o in most.outcomes} == gauges.oracle_gauges(most_ctx, gauge, 2)[0]


def test_unreachable_gauge_names_the_increment_rule() -> None:
    """+1 moves one stone to the nearest free space: 1, 1, 2 cannot become g4, g5, g6."""
    reach = gauges.can_reach(CTX, setup_gauge(), 1, parse_target("g4,g5,g6", CTX.layout), timeout_ms=T)
    assert reach.status == "unreachable" and reach.core == ("STM-R-15 increment to the nearest free space",)
    fewer = gauges.can_reach(CTX, setup_gauge(), 5, parse_target("8", CTX.layout), timeout_ms=T)
    assert fewer.status == "unreachable" and fewer.reason is not None and "STM-R-15" in fewer.reason


@st.composite
def gauges_st(draw: st.DrawFn, most: int = 4) -> Gauge:
    base = draw(st.integers(0, 2))
    spaces = draw(st.lists(st.integers(base + 1, 10), unique=True, max_size=most))
    stones = [(s, draw(st.booleans())) for s in spaces]
    free_numerals = [s for s in (3, 4, 5, 6, 7) if s > base and s not in spaces]
    marks = draw(st.lists(st.sampled_from(free_numerals), unique=True, max_size=2)) if free_numerals else []
    return gauge_of(stones, [(s, CTX.layout.numerals[s] or 2) for s in marks], base)


@settings(max_examples=25, deadline=None)
@given(gauges_st(), st.integers(0, 4))
def test_reachable_gauges_agree_with_the_oracle(gauge: Gauge, x: int) -> None:
    found = gauges.reachable_gauges(CTX, gauge, x, timeout_ms=T)
    assert found.status == "done"
    assert {o.gauge for o in found.outcomes} == gauges.oracle_gauges(CTX, gauge, x)[0]
    for o in found.outcomes:
        assert gauges.replay_problem(CTX, gauge, x, o) is None


# ---------------------------------------------------------------------------
# top: the fewest turns to level 8
# ---------------------------------------------------------------------------


def spec(
    gauge: Gauge, boilers: int = 2, level: int = 8, free: bool = True, arrows_first: bool = False, max_turns: int = 8
) -> top.TopSpec:
    return top.TopSpec(gauge, boilers, level, None, free, arrows_first, max_turns)


def test_setup_reaches_level_8_in_five_turns() -> None:
    """An increment moves the front stone at most one space; g3 → g10 takes 7 increments: four
    MAKE STEAM turns of 2, then SET on level 8 in turn 5.  With 4 boilers: 2 + 1 turns."""
    for boilers, turns in ((2, 5), (4, 3)):
        s = spec(setup_gauge(), boilers)
        found = top.fewest_turns(CTX, s, timeout_ms=T)
        assert (found.status, found.turns) == ("reachable", turns)
        assert top.replay_problem(CTX, s, found.plan) is None
        assert top.oracle_fewest(CTX, s)[0] == turns


def test_solo_start_with_an_arrow_stone_sets_on_level_8_in_turn_3() -> None:
    """STM-EX-38..40: 1A, 1, 2 at the start of the turn, 4 boilers: turn 1 arrow + steam → 4, 5A, 6;
    turn 2 arrow → 4, 6, 7A, steam; turn 3 a value-8 stone goes to L8 (STM-EX-40)."""
    s = spec(gauge_of([(1, True), (2, False), (3, False)]), 4, arrows_first=True)
    found = top.fewest_turns(CTX, s, timeout_ms=T)
    assert (found.status, found.turns) == ("reachable", 3)
    assert found.plan[0].arrows == (1,) and top.replay_problem(CTX, s, found.plan) is None


def test_too_few_turns_names_the_rules() -> None:
    found = top.fewest_turns(CTX, spec(setup_gauge(), max_turns=3), timeout_ms=T)
    assert found.status == "unreachable"
    assert set(found.core) == {"STM-R-15 increment to the nearest free space", top.R26_GAUGE, top.R26_LEVEL}
    blocked = top.fewest_turns(CTX, spec(setup_gauge(), free=False), timeout_ms=T)
    assert blocked.core == (top.R27_FREE,)
    empty = top.fewest_turns(CTX, spec(gauge_of([]), max_turns=2), timeout_ms=T)
    assert empty.status == "unreachable" and empty.core == (top.R26_GAUGE,)


def test_top_refuses_readings_it_does_not_encode() -> None:
    with pytest.raises(NotApplicable, match="STM-AMB-07"):
        top.fewest_turns(Context.printed(readings={"STM-AMB-07": "optional"}), spec(setup_gauge()), timeout_ms=T)


@settings(max_examples=20, deadline=None)
@given(gauges_st(), st.integers(1, 5), st.integers(1, 8), st.booleans())
def test_fewest_turns_agree_with_breadth_first_search(gauge: Gauge, boilers: int, level: int, first: bool) -> None:
    s = spec(gauge, boilers, level, arrows_first=first, max_turns=4)
    found = top.fewest_turns(CTX, s, timeout_ms=T)
    assert found.status in ("reachable", "unreachable")
    assert found.turns == top.oracle_fewest(CTX, s)[0]
    if found.plan:
        assert top.replay_problem(CTX, s, found.plan) is None


# ---------------------------------------------------------------------------
# the queries: parameters, JSON, oracle checks, unknown
# ---------------------------------------------------------------------------


def parse(name: str, argv: list[str]) -> dict[str, Any]:
    parser = argparse.ArgumentParser()
    QUERIES[name].add_arguments(parser)
    return {k: v for k, v in vars(parser.parse_args(argv)).items() if k != "state"}


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("placements", []),
        ("placements", ["--best", "resources"]),
        ("placements", ["--wish", "2,left"]),
        ("gauge", []),
        ("gauge", ["--gauge", "g2,g3,g4A", "--x", "4", "--target", "4,5A,6"]),
        ("top", []),
        ("top", ["--district", "3,right", "--max-turns", "2"]),
    ],
)
def test_queries_answer_in_json_with_timings_and_agree_with_the_oracle(name: str, argv: list[str]) -> None:
    answer = QUERIES[name].run(GAME, {**parse(name, argv), "oracle": True})
    json.dumps(answer)
    assert answer["query"] == name and answer["ms"] >= 0 and answer["agrees"] is True
    assert answer["total_ms"] < 5000  # typical states take well under 200 ms (measured in the report)
    assert QUERIES[name].format(answer)


@pytest.mark.parametrize(
    ("name", "params", "flag"),
    [
        ("placements", {"wish": "9"}, "--wish"),
        ("placements", {"wish": "2,middle"}, "--wish"),
        ("placements", {"best": "gold"}, "--best"),
        ("placements", {"seat": 5}, "--seat"),
        ("placements", {"timeout_ms": "soon"}, "--timeout-ms"),
        ("gauge", {"gauge": "g11"}, "--gauge"),
        ("gauge", {"gauge": "g1,g1"}, "--gauge"),
        ("gauge", {"target": "9"}, "--target"),
        ("gauge", {"x": -1}, "--x"),
        ("gauge", {"markers": "g3=2"}, "--markers"),
        ("top", {"district": "1,middle"}, "--district"),
        ("top", {"max_turns": 0}, "--max-turns"),
    ],
)
def test_bad_parameters_name_the_flag(name: str, params: dict[str, Any], flag: str) -> None:
    with pytest.raises(RulecraftError, match=flag):
        QUERIES[name].run(GAME, params)


def test_a_state_mid_action_is_refused() -> None:
    state = attrs.evolve(common.default_state(), phase=Phase.CHANNEL, turn=TurnState(channel=1))
    for name in ("placements", "top"):
        with pytest.raises(RulecraftError, match="--state"):
            QUERIES[name].run(GAME, {}, state)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_oracle_check_finds_no_disagreement(name: str) -> None:
    rng = random.Random(2024)
    assert [QUERIES[name].oracle_check(GAME, rng) for _ in range(4)] == [None] * 4


def test_unknown_is_reported_as_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solving, "check", lambda solver, *assumptions: z3.unknown)  # the one place Z3 runs
    state = common.default_state()
    assert placements.placements_z3(CTX, state, 0, timeout_ms=T).status == "unknown"
    assert placements.wish_z3(CTX, state, 0, 1, None, timeout_ms=T).status == "unknown"
    assert placements.best_placement(CTX, state, 0, "vp", timeout_ms=T).status == "unknown"
    assert gauges.reachable_gauges(CTX, setup_gauge(), 3, timeout_ms=T).status == "unknown"
    reach = gauges.can_reach(CTX, setup_gauge(), 1, parse_target("g4,g5,g6", CTX.layout), timeout_ms=T)
    assert reach.status == "unknown" and reach.core == ()
    found = top.fewest_turns(CTX, spec(setup_gauge()), timeout_ms=T)
    assert found.status == "unknown" and found.turns is None and found.core == ()
    for name in QUERIES:
        answer = QUERIES[name].run(GAME, {"oracle": True})
        assert answer["status"] == "unknown" and answer["agrees"] is True


def test_a_tiny_timeout_never_claims_a_proof() -> None:
    """With 1 ms Z3 may or may not finish; whatever it says must not contradict the oracle."""
    gauge = gauge_of([(1, True), (2, False), (3, False), (4, False)])
    answer = QUERIES["gauge"].run(GAME, {"gauge": "g1A,g2,g3,g4", "x": 5, "timeout_ms": 1, "oracle": True})
    assert answer["status"] in ("done", "unknown") and answer["agrees"] is True
    found = top.fewest_turns(CTX, spec(gauge), timeout_ms=1)
    assert found.status == "unknown" or found.turns == top.oracle_fewest(CTX, spec(gauge))[0]


def test_final_turn_placements_are_asked_at_its_set_target_step() -> None:
    """STM-R-66: the final turn runs MAKE STEAM, SET 1 TARGET, FLY in order.  At its FLY step no
    placement is legal any more, so the query refuses (rather than list placements the check would
    refuse); at its SET 1 TARGET step others' stones do not block and Z3 agrees with the oracle."""
    me = player([(5, False), (8, False)])
    final = attrs.evolve(game(me, (1, "left"), (4, "right")), final_round=True)
    for step in ("steam", "fly"):
        state = attrs.evolve(final, turn=TurnState(final_step=step))
        with pytest.raises(RulecraftError, match="STM-R-66"):
            QUERIES["placements"].run(GAME, {}, state)
    state = attrs.evolve(final, turn=TurnState(final_step="target"))
    answer = QUERIES["placements"].run(GAME, {"oracle": True}, state)
    assert answer["agrees"] is True
    found = placements.placements_z3(CTX, state, 0, timeout_ms=T)
    assert (5, 1, "left", False, 0) in keys(found.placements)  # seat 1's stone does not block (R-66)


def test_final_round_free_districts_are_judged_for_the_seat_asked_about() -> None:
    """STM-R-66: in the final round only one's own stones block.  Asked about seat 1 while seat 0 is to
    move, seat 1's own stone on L1 left blocks it, seat 0's would not."""
    me = player([(5, False)])
    state = attrs.evolve(game(me, (1, "left")), final_round=True, turn=TurnState(final_step="target"))
    inst = placements.instance(CTX, state, 1)
    free = dict(zip(((d.level, d.position) for d in inst.districts), inst.free, strict=True))
    assert free[(1, "left")] is False
    assert placements.instance(CTX, state, 0).free[0] is True
