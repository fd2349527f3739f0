"""Airships solvers: the digest's exact numbers, Z3 and the exact chance
against the brute-force oracle, unsat cores, 'unknown', and the smallest help."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest
import z3
from hypothesis import event, given
from hypothesis import strategies as st

from rulecraft.core import CHANCE
from rulecraft.model.airships.components import (
    COLOURS,
    Colour,
    Dice,
    EngineBonus,
    Exchange,
    FixedDie,
)
from rulecraft.model.airships.dice import company_of
from rulecraft.model.airships.rules import open_targets
from rulecraft.registry import make_game
from rulecraft.solvers.airships import reach as reach_module
from rulecraft.solvers.airships.chance import chance, fraction_json
from rulecraft.solvers.airships.oracle import oracle
from rulecraft.solvers.airships.queries import QUERIES, shrink_to_budget
from rulecraft.solvers.airships.reach import reach
from rulecraft.solvers.airships.spec import AttemptSpec, SpecError

DEFAULT = make_game("air")

EX04 = {"dice": "W=3", "need": "W=2", "target": 5, "chips": 1}
EX06 = {
    "dice": "W=5,R=3",
    "fixed": "W3",
    "exchange": "3W>1B",
    "need": "W=1,R=1,B=1",
    "target": 15,
    "chips": 1,
    "wooden_airship": False,
}


def run_query(name: str, argv: list[str], game: Any = DEFAULT) -> dict[str, Any]:
    """Through argparse, as the CLI does: params are the parser's dests."""
    query = QUERIES[name]
    parser = argparse.ArgumentParser()
    query.add_arguments(parser)
    answer = query.run(game, vars(parser.parse_args(argv)))
    json.dumps(answer)  # the answer is JSON-able
    assert isinstance(query.format(answer), str) and query.format(answer)
    return answer


def chance_of(params: dict[str, Any], game: Any = DEFAULT) -> tuple[Fraction, Fraction]:
    answer = QUERIES["chance"].run(game, params)
    assert answer["solver"] == "exact"
    return Fraction(answer["without_chip"]), Fraction(answer["with_chip"])


# -- (a) the digest's exact numbers --------------------------------------------------


def test_air_ex_04_p3_three_whites_for_two_counting() -> None:
    """AIR-EX-04 (p.3): {W:2}, T 5, 3 white dice: 16/27, and 23/27 with one chip."""
    assert chance_of(EX04) == (Fraction(16, 27), Fraction(23, 27))


def test_air_ex_04_p3_two_whites() -> None:
    """AIR-EX-04 (p.3): with only 2 white dice: 1/3, and 2/3 with one chip."""
    assert chance_of(EX04 | {"dice": "W=2"}) == (Fraction(1, 3), Fraction(2, 3))


def test_air_ex_04_p3_one_white_is_illegal() -> None:
    """AIR-EX-04 (p.3): illegal with n_W = 1 and no fixed white (AIR-R-27)."""
    spec = AttemptSpec.from_params(EX04 | {"dice": "W=1"})
    answer = reach(DEFAULT, spec)
    assert answer.status == "unreachable"
    assert "AIR-R-27" in answer.core
    assert chance(DEFAULT, spec).choice is None


def test_air_ex_04_p3_via_cli_flags() -> None:
    argv = ["--dice", "W=3", "--need", "W=2", "--target", "5", "--chips", "1"]
    answer = run_query("chance", argv)
    assert (answer["probability"], answer["without_chip"], answer["with_chip"]) == ("23/27", "16/27", "23/27")
    assert answer["approx"] == pytest.approx(23 / 27, abs=1e-6)
    assert answer["choice"]["throw"] == {"W": 3, "R": 0, "B": 0}


def test_air_ex_06_p4_exchange_and_chip() -> None:
    """AIR-EX-06 (p.4): 5 W + fixed W3 + 3 R, exchange 3W>1B, {W,R,B} for 15:
    7/24, and 17/36 with a chip."""
    assert chance_of(EX06) == (Fraction(7, 24), Fraction(17, 36))
    answer = QUERIES["chance"].run(DEFAULT, EX06)
    assert answer["choice"]["exchanges"] == 1  # black is only there through the exchange


def test_air_ex_06_p4_old_white_engine_r1() -> None:
    """AIR-EX-06 (p.4), reconstruction R1 (old white engine +1, AIR-AMB-09 'B'): 17/36 and 5/8."""
    assert chance_of(EX06 | {"engine": "W+1"}) == (Fraction(17, 36), Fraction(5, 8))
    answer = QUERIES["chance"].run(DEFAULT, EX06 | {"engine": "W+1"})
    assert answer["choice"]["throw"]["W"] >= 1  # the engine fires only if a white is thrown


def test_air_ex_06_p4_via_cli_and_reach() -> None:
    argv = [
        "--dice",
        "W=5,R=3",
        "--fixed",
        "W3",
        "--exchange",
        "3W>1B",
        "--need",
        "W=1,R=1,B=1",
        "--target",
        "15",
        "--chips",
        "1",
    ]
    assert run_query("chance", argv)["with_chip"] == "17/36"
    answer = run_query("reach", argv)
    assert answer["solver"] == "z3" and answer["status"] == "reachable"
    assert answer["best_total"] == 3 + 5 + 8 + 1  # fixed W3, red 5, black 8, chip
    assert answer["witness"]["exchanges"] == 1
    assert answer["witness"]["model_total"] >= 15  # the model's scoring agrees
    assert answer["ms"] >= 0


def test_air_ex_06_p4_illegal_without_the_exchange() -> None:
    """AIR-EX-06 (p.4): before the exchange the target is illegal, black is missing."""
    spec = AttemptSpec.from_params(EX06 | {"exchange": None})
    answer = reach(DEFAULT, spec)
    assert answer.status == "unreachable" and "AIR-R-27" in answer.core
    assert answer.best_total is None and answer.help is None


def test_air_ex_18_p6_fixed_black_seven() -> None:
    """AIR-EX-18 (p.6): fixed B7, {B:1}, T 8: S 7; a chip makes 8."""
    params = {"fixed": "B7", "need": "B=1", "target": 8}
    assert chance_of(params) == (Fraction(0), Fraction(1))
    assert reach(DEFAULT, AttemptSpec.from_params(params)).help in (("chip",), ("wooden_airship",))


def test_air_ex_19_p6_grey_engine() -> None:
    """AIR-EX-19 (p.6): grey +1, {W:2} T 5 with 2 W: 1/3 without it, P(S>=4) = 2/3 with it."""
    without, _ = chance_of({"dice": "W=2", "need": "W=2", "target": 5})
    with_engine, _ = chance_of({"dice": "W=2", "need": "W=2", "target": 5, "engine": "any+1"})
    assert (without, with_engine) == (Fraction(1, 3), Fraction(2, 3))


# -- (b) Z3 and the exact chance against the brute-force oracle ---------------------------

ORACLE_BUDGET = 1300  # face combinations per spec: bounds the oracle to ~20 ms

READINGS: list[dict[str, str]] = [
    {},
    {"AIR-AMB-09": "A", "AIR-AMB-06": "before", "AIR-AMB-07": "repeat"},
    {"AIR-AMB-09": "C", "AIR-AMB-32": "uncapped", "AIR-AMB-10": "die", "AIR-AMB-05": "yes"},
    {"AIR-AMB-09": "C", "AIR-AMB-35": "max", "AIR-AMB-36": "forbidden", "AIR-AMB-08": "no"},
]
GAMES = [make_game("air", readings=r) for r in READINGS]

colours = st.sampled_from(COLOURS)


@st.composite
def attempt_specs(draw: st.DrawFn) -> AttemptSpec:
    """Requirement 1..4 dice (at most 3 of a colour); dice 0..6 per colour,
    mostly covering the requirement (Hypothesis favours small counts, which
    would make most attempts illegal), sometimes one short of it."""
    needed = draw(st.lists(colours, min_size=1, max_size=4))
    need = Dice(*(min(needed.count(c), 3) for c in COLOURS))
    dice = Dice(*(draw(st.integers(need[c], 6)) for c in COLOURS))
    short = draw(st.sampled_from([None, None, None, *needed]))
    if short is not None:
        dice = dice.with_count(short, dice[short] - 1)
    fixed = draw(st.none() | st.builds(FixedDie, colours, st.integers(1, 9)))
    engine = draw(st.none() | st.builds(EngineBonus, st.none() | colours, st.integers(1, 2)))
    exchange = None
    if draw(st.booleans()):
        give_c, get_c = draw(st.permutations(COLOURS))[:2]
        exchange = Exchange(draw(st.integers(1, 3)), give_c, draw(st.integers(1, 2)), get_c)
    return AttemptSpec(
        dice=dice,
        fixed=fixed,
        engine=engine,
        exchange=exchange,
        wooden_airship=draw(st.booleans()),
        chips=draw(st.integers(0, 2)),
        requirement=need,
        target=draw(st.integers(1, 30)),
    )


@pytest.mark.parametrize("game", GAMES, ids=[",".join(f"{k}={v}" for k, v in r.items()) or "default" for r in READINGS])
@given(raw=attempt_specs())
def test_solvers_agree_with_the_oracle(game: Any, raw: AttemptSpec) -> None:
    spec = shrink_to_budget(game, raw, ORACLE_BUDGET)
    want = oracle(game, spec)
    got = reach(game, spec, want_help=False)
    event(f"{got.status}, legal={want.legal}, chance>0={want.probability > 0}")
    assert got.status == ("reachable" if want.reachable else "unreachable"), spec
    assert got.best_total == want.best_total, spec
    if got.status == "reachable":
        assert got.witness is not None and got.witness["model_total"] >= spec.target
    if not want.legal:
        assert "AIR-R-27" in got.core
    exact = chance(game, spec)
    assert (exact.p_no_chip, exact.p_with_chip) == (want.p_no_chip, want.p_with_chip), spec
    assert exact.probability == want.probability
    # Reachable means a positive chance, with the chips the board has.
    assert (exact.probability > 0) == want.reachable


# -- (c) unsat cores and 'unknown' -----------------------------------------------------------


def test_core_names_legality_when_black_is_missing() -> None:
    spec = AttemptSpec.from_params({"dice": "W=3,R=2", "need": "B=2", "target": 8})
    answer = reach(DEFAULT, spec)
    assert answer.status == "unreachable"
    assert "AIR-R-27" in answer.core
    assert all(rule.startswith("AIR-R-") and "#" not in rule for rule in answer.core)
    assert list(answer.core) == sorted(answer.core)


def test_core_names_the_score_rules_when_the_total_is_too_high() -> None:
    spec = AttemptSpec.from_params({"dice": "W=3", "need": "W=2", "target": 30, "chips": 1})
    answer = reach(DEFAULT, spec)
    assert answer.status == "unreachable"
    assert {"AIR-R-33", "AIR-R-34"} <= set(answer.core)
    assert "AIR-R-27" not in answer.core  # the attempt is legal, just hopeless
    assert answer.best_total == 3 + 3 + 1 == oracle(DEFAULT, spec).best_total
    assert answer.help is None  # neither a chip (held) nor the airship makes 30


def test_unknown_is_its_own_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reach_module, "_check", lambda solver: z3.unknown)
    answer = reach(DEFAULT, AttemptSpec.from_params(EX04))
    assert answer.status == "unknown"
    assert answer.core == () and answer.witness is None and answer.best_total is None
    assert answer.help is None


def test_query_reports_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reach_module, "_check", lambda solver: z3.unknown)
    answer = QUERIES["reach"].run(DEFAULT, EX04)
    assert answer["status"] == "unknown"
    assert "could not decide" in QUERIES["reach"].format(answer)


# -- (d) the smallest help -------------------------------------------------------------------


def test_smallest_help_one_addition() -> None:
    spec = AttemptSpec.from_params({"dice": "W=3", "need": "W=2", "target": 7})
    answer = reach(DEFAULT, spec)
    assert answer.status == "unreachable" and answer.best_total == 6
    assert answer.help in (("chip",), ("wooden_airship",))
    assert set(answer.help_alternatives) == {("chip",), ("wooden_airship",)}


def test_smallest_help_needs_both() -> None:
    answer = reach(DEFAULT, AttemptSpec.from_params({"dice": "W=3", "need": "W=2", "target": 8}))
    assert answer.help == ("chip", "wooden_airship")


def test_smallest_help_when_nothing_helps() -> None:
    answer = reach(DEFAULT, AttemptSpec.from_params({"dice": "W=3", "need": "W=2", "target": 9}))
    assert answer.status == "unreachable" and answer.help is None
    assert (
        QUERIES["reach"]
        .format(QUERIES["reach"].run(DEFAULT, {"dice": "W=3", "need": "W=2", "target": 9}))
        .count("nothing helps")
        == 1
    )


# -- the spec: parameters and states --------------------------------------------------------


def test_from_params_reads_every_form() -> None:
    text = AttemptSpec.from_params(
        {
            "dice": "W=5,R=3",
            "fixed": "W3",
            "engine": "any+2",
            "exchange": "3W>1B",
            "need": "W=1,R=1,B=1",
            "target": "15",
            "chips": "1",
            "wooden_airship": "yes",
        }
    )
    mapping = AttemptSpec.from_params(
        {
            "dice": {"W": 5, "R": 3},
            "fixed": {"colour": "W", "value": 3},
            "engine": {"colour": "any", "bonus": 2},
            "exchange": {"give": 3, "give_colour": "W", "get": 1, "get_colour": "B"},
            "need": {"W": 1, "R": 1, "B": 1},
            "target": 15,
            "chips": 1,
            "wooden_airship": True,
        }
    )
    assert text == mapping
    assert text.fixed == FixedDie(Colour.W, 3) and text.engine == EngineBonus(None, 2)
    assert text.exchange == Exchange(3, Colour.W, 1, Colour.B)
    assert AttemptSpec.from_params(text.to_json()) == text


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"dice": "W=x", "need": "W=1", "target": 3}, "dice"),
        ({"dice": "Q=1", "need": "W=1", "target": 3}, "dice"),
        ({"need": "W=1"}, "target"),
        ({"need": "W=1", "target": -2}, "target"),
        ({"target": 5}, "need"),
        ({"need": "W=1", "target": 5, "fixed": "3W"}, "fixed"),
        ({"need": "W=1", "target": 5, "engine": "R1"}, "engine"),
        ({"need": "W=1", "target": 5, "exchange": "3W to 1B"}, "exchange"),
        ({"need": "W=1", "target": 5, "exchange": "3W>1W"}, "exchange"),
        ({"need": "W=1", "target": 5, "chips": "many"}, "chips"),
        ({"need": "W=1", "target": 5, "wooden_airship": "perhaps"}, "wooden_airship"),
    ],
)
def test_bad_parameters_are_named(params: dict[str, Any], name: str) -> None:
    with pytest.raises(SpecError) as info:
        AttemptSpec.from_params(params)
    assert info.value.param.split(".")[0] == name
    assert str(info.value).startswith(name)


def _attempt_state(game: Any) -> Any:
    """Play the set-up's chance steps (first outcome each) up to the first attempt."""
    state = game.new_game(2)
    while game.to_move(state) == CHANCE:
        state = game.transition(state, game.chance_outcomes(state)[0][0])
    return state


def test_from_state_and_the_state_file(tmp_path: Path) -> None:
    state = _attempt_state(DEFAULT)
    target = open_targets(DEFAULT.ctx, state)[0]
    spec = AttemptSpec.from_state(DEFAULT, state, state.seat, target.ref)
    board = state.boards[state.seat]
    assert spec.dice == company_of(board, state.era, DEFAULT.pack).dice
    assert (spec.requirement, spec.target) == (target.requirement, target.target)
    assert spec.chips == board.chips and spec.wooden_airship is False
    path = tmp_path / "state.json"
    path.write_text(json.dumps(DEFAULT.state_to_json(state)), "utf-8")
    by_file = QUERIES["chance"].run(DEFAULT, {"state": str(path), "target_ref": target.ref, "seat": state.seat})
    by_state = QUERIES["chance"].run(DEFAULT, {"target_ref": target.ref}, state)
    exact = str(chance(DEFAULT, spec).probability)
    assert by_file["probability"] == by_state["probability"] == exact
    with pytest.raises(SpecError, match="target_ref"):
        AttemptSpec.from_state(DEFAULT, state, state.seat, "airship:9")


def test_oracle_checks_for_verify() -> None:
    import random

    rng = random.Random(7)
    for query in QUERIES.values():
        assert [query.oracle_check(DEFAULT, rng) for _ in range(5)] == [None] * 5


# -- (e) the chance answer's parts: choices counted, the best choice, readings, JSON ---------------


def test_air_r_30_p3_choices_are_the_legal_throws_ex_04() -> None:
    """AIR-R-30 (p.3-4), AIR-EX-04: {W:2} with 3 white dice and nothing else: t_W is 2 or 3
    (t_W + |F_W| >= q_W, t_W <= min(n_W, 3)); unlisted colours are not thrown (AIR-AMB-05):
    2 choices; with 2 white dice only t_W = 2; with 1 white die none (AIR-R-27)."""
    assert chance(DEFAULT, AttemptSpec.from_params(EX04)).choices == 2
    assert chance(DEFAULT, AttemptSpec.from_params(EX04 | {"dice": "W=2"})).choices == 1
    assert chance(DEFAULT, AttemptSpec.from_params(EX04 | {"dice": "W=1"})).choices == 0


def test_air_r_29_p6_choices_of_ex_06_counted_by_hand() -> None:
    """AIR-EX-06 (p.4), AIR-R-29/30, AIR-AMB-07 'once', AIR-AMB-08 'yes': without the exchange black
    is missing (illegal). With it, either the fixed W3 stays (2 throwable W: t_W 0..2, t_R 1..3,
    t_B 1: 9 throws) or it is one of the 3 whites given up (3 throwable W: t_W 1..3: 9 more): 18."""
    answer = QUERIES["chance"].run(DEFAULT, EX06)
    assert answer["choices"] == 18


def test_air_ex_04_p3_best_throw_without_a_chip_is_three_whites() -> None:
    """AIR-EX-04 (p.3): no chip on the board, so the answer is the chip-less one: throwing 3 whites
    (16/27) beats 2 whites (1/3); the reported choice is t_W = 3."""
    spec = AttemptSpec.from_params(EX04 | {"chips": 0})
    answer = chance(DEFAULT, spec)
    assert answer.chips_available is False
    assert answer.probability == answer.p_no_chip == Fraction(16, 27)
    assert answer.choice_no_chip is not None
    assert answer.choice_no_chip.throw == Dice(W=3)
    assert answer.choice == answer.choice_no_chip
    assert QUERIES["chance"].run(DEFAULT, EX04 | {"chips": 0})["choice_without_chip"]["throw"] == {
        "W": 3,
        "R": 0,
        "B": 0,
    }


def test_air_ex_17_p6_fixed_red_four_with_three_reds() -> None:
    """AIR-EX-17 (p.6), AIR-R-18/31/33: fixed red 4 and 3 red dice, {R:1}, T 5: t_R may be 0..3
    (the fixed die is outside the cap), 4 choices; the best of the 4 values counts, so S >= 5
    iff a red 5 shows: with 3 reds 1 - (5/6)^3 = 91/216; with a chip S >= 4 always: 1."""
    spec = AttemptSpec.from_params({"dice": "R=3", "fixed": "R4", "need": "R=1", "target": 5})
    answer = chance(DEFAULT, spec)
    assert answer.choices == 4
    assert (answer.p_no_chip, answer.p_with_chip) == (Fraction(91, 216), Fraction(1))
    assert answer.choice_no_chip is not None and answer.choice_no_chip.throw == Dice(R=3)


# AIR-EX-17 (p.6) fixed red 4 covering {R:1} alone, with a red engine +1 (AIR-EX-20, p.6), T 5:
# S = 4 with no throw (AIR-AMB-36).  Whether the engine fires is AIR-AMB-09's question.
FIXED_RED_ENGINE = {"fixed": "R4", "engine": "R+1", "need": "R=1", "target": 5, "chips": 1}


@pytest.mark.parametrize(
    ("reading", "want"),
    [
        ("B", (Fraction(0), Fraction(1))),  # no red thrown: no bonus (AIR-EX-20's last bullet)
        ("A", (Fraction(1), Fraction(1))),  # the target requires red: +1, 5 >= 5
        ("C", (Fraction(1), Fraction(1))),  # the fixed red counts in S: +1
    ],
)
def test_air_amb_09_p6_fixed_red_only_under_each_reading(reading: str, want: tuple[Fraction, Fraction]) -> None:
    """AIR-R-35 (p.6), AIR-EX-20 (p.6), AIR-AMB-09: a fixed red die only, no red die thrown."""
    game = make_game("air", readings={"AIR-AMB-09": reading})
    assert chance_of(FIXED_RED_ENGINE, game) == want
    assert chance(game, AttemptSpec.from_params(FIXED_RED_ENGINE)).choices == 1  # t_R = 0 only


def test_air_amb_09_c_p6_a_fixed_die_of_an_unlisted_colour_does_not_count() -> None:
    """AIR-AMB-09 (C), AIR-R-33/35 (p.6): a fixed red 4 on a {W:1} target is not in S, so a red
    engine does not fire; S is one white die (1,1,2,2,3,3), T 4: 0; with a chip S >= 3: 1/3."""
    game = make_game("air", readings={"AIR-AMB-09": "C"})
    params = {"dice": "W=1", "fixed": "R4", "engine": "R+1", "need": "W=1", "target": 4}
    assert chance_of(params, game) == (Fraction(0), Fraction(1, 3))


def test_air_amb_10_p6_bonus_per_thrown_die() -> None:
    """AIR-AMB-10 'die' (AIR-R-19, p.6): a red engine +1 per thrown red; {R:1}, 2 red dice, T 7.
    Red faces 2,3,3,4,4,5. t_R = 2: max + 2 >= 7 iff a 5 shows: 1 - (5/6)^2 = 11/36 (t_R = 1:
    face + 1 >= 7 never); with a chip max >= 4: 1 - (1/2)^2 = 3/4. Once per throw (default):
    max + 1 >= 7 never; with a chip a 5: 11/36."""
    params = {"dice": "R=2", "engine": "R+1", "need": "R=1", "target": 7, "chips": 1}
    assert chance_of(params, make_game("air", readings={"AIR-AMB-10": "die"})) == (Fraction(11, 36), Fraction(3, 4))
    assert chance_of(params) == (Fraction(0), Fraction(11, 36))


def test_fraction_json_is_exact_and_rounded() -> None:
    """The chance module's JSON form of a probability: the exact fraction and 6 decimals."""
    assert fraction_json(Fraction(1, 3)) == {"p": "1/3", "approx": 0.333333}
    assert fraction_json(Fraction(23, 27)) == {"p": "23/27", "approx": 0.851852}
    assert json.loads(json.dumps(fraction_json(Fraction(1)))) == {"p": "1", "approx": 1.0}


def test_air_r_29_p6_giving_up_a_low_fixed_white_keeps_a_third_thrown_white() -> None:
    """AIR-R-18/29 (p.6: the imaginary dice 'may be counted in the exchange'), AIR-AMB-08 'yes':
    3 white dice, fixed W1, exchange 1W>1B, {W:3, B:1}, T 17. Keeping W1 leaves 2 thrown whites:
    at most 3 + 3 + 1 + 8 = 15. Giving up W1 keeps 3 thrown whites: 17 needs 3, 3, 3 and black 8:
    (1/3)^3 * 1/3 = 1/81; with a chip 16: whites >= 8 (3,3,3 or a 2 and two 3s: 4/27) and black 8:
    4/81 (keeping W1: 3 + 3 + 1 + 8 + 1 = 16 needs two 3s and an 8: 1/27, less)."""
    params = {"dice": "W=3", "fixed": "W1", "exchange": "1W>1B", "need": "W=3,B=1", "target": 17, "chips": 1}
    assert chance_of(params) == (Fraction(1, 81), Fraction(4, 81))
    answer = QUERIES["chance"].run(DEFAULT, params)
    assert answer["choice"] == {"exchanges": 1, "give_fixed": True, "throw": {"W": 3, "R": 0, "B": 1}}


def test_air_ex_06_p4_the_fixed_white_is_kept_and_legality_needs_the_exchange() -> None:
    """AIR-EX-06 (p.4): 'the fixed die was not exchanged': it is a sure 3, the most a white die
    shows, so the best choice keeps it (give_fixed false, not a missing value). Before the
    exchange black is missing, so the brute-force oracle too finds the attempt illegal (AIR-R-27)."""
    answer = QUERIES["chance"].run(DEFAULT, EX06)
    assert answer["choice"]["give_fixed"] is False
    assert oracle(DEFAULT, AttemptSpec.from_params(EX06 | {"exchange": None})).legal is False


@pytest.mark.parametrize(("reading", "legal"), [("capped", False), ("uncapped", True)])
def test_air_amb_32_p4_four_whites_required(reading: str, legal: bool) -> None:
    """AIR-R-27 (p.3-4), AIR-AMB-32: a {W:4} target (possible only on airship cards and stages) with
    4 white dice and no fixed die: min(4, 3) + 0 < 4 is illegal under 'capped' (default); 4 >= 4 is
    legal under 'uncapped'. Either way no throw is allowed (at most 3 of a colour, AIR-R-30)."""
    game = make_game("air", readings={"AIR-AMB-32": reading})
    spec = AttemptSpec.from_params({"dice": "W=4", "need": "W=4", "target": 4})
    assert oracle(game, spec).legal is legal
    assert chance(game, spec).choices == 0


def test_air_r_18_19_20_p6_from_state_reads_the_board_s_effects() -> None:
    """AIR-R-18/19/20 (p.6): the Engineer's fixed die (AIR-EX-17: red 4), a red Engine +1
    (AIR-EX-20) and a Material exchange 3 white -> 2 red (AIR-EX-21) on the board are the
    spec's fixed die, engine and exchange."""
    air: Any = DEFAULT  # an AirshipsGame: its ctx reads the pack's cards
    state = _attempt_state(air)
    seat = state.seat
    fields = list(state.boards[seat].departments)
    fields[3], fields[4], fields[5] = "E1-ENR-1", "E2-ENG-1", "E1-MAT-1"  # engineer, engine, material
    boards = list(state.boards)
    boards[seat] = attrs.evolve(boards[seat], departments=tuple(fields))
    state = attrs.evolve(state, boards=tuple(boards))
    target = open_targets(air.ctx, state)[0]
    spec = AttemptSpec.from_state(air, state, seat, target.ref)
    assert spec.fixed == FixedDie(Colour.R, 4)
    assert spec.engine == EngineBonus(Colour.R, 1)
    assert spec.exchange == Exchange(3, Colour.W, 2, Colour.R)
    with pytest.raises(SpecError) as info:
        AttemptSpec.from_state(air, state, len(state.boards), target.ref)
    last = len(state.boards) - 1
    assert (info.value.param, info.value.message) == ("seat", f"seat {last + 1} is not 0..{last}")
    with pytest.raises(SpecError) as info:
        AttemptSpec.from_state(air, state, seat, "airship:9")  # AIR-R-26: airship stacks 1-4
    assert info.value.param == "target_ref" and "airship 9" in info.value.message


@pytest.mark.parametrize(
    ("text", "holds"),
    [(t, True) for t in ("yes", "Y", "On", "TRUE", "1")] + [(t, False) for t in ("no", "N", "Off", "FALSE", "0")],
)
def test_wooden_airship_yes_no_forms(text: str, holds: bool) -> None:
    """The yes/no forms of 'wooden_airship' (AIR-R-36's +1), in any case."""
    assert AttemptSpec.from_params({"need": "W=1", "target": 3, "wooden_airship": text}).wooden_airship is holds


def test_spec_parameter_forms_from_the_parsers_docstrings() -> None:
    """Whole numbers may come as floats; colours in any case; 'grey'/'gray' engines are 'any'
    (AIR-R-19's grey marker); an exchange gives and gets at least one die (AIR-R-20)."""
    base = {"need": "w=1", "target": 5.0}
    spec = AttemptSpec.from_params(base | {"dice": "w=2,r=1", "fixed": "r4", "engine": "Gray+2"})
    assert (spec.requirement, spec.target, spec.dice) == (Dice(W=1), 5, Dice(W=2, R=1))
    assert spec.fixed == FixedDie(Colour.R, 4) and spec.engine == EngineBonus(None, 2)
    assert AttemptSpec.from_params(base | {"engine": "grey+1"}).engine == EngineBonus(None, 1)
    assert AttemptSpec.from_params(base | {"engine": "r+1"}).to_json()["engine"] == "R+1"
    assert AttemptSpec.from_params(base | {"engine": "any+1"}).to_json()["engine"] == "any+1"
    assert AttemptSpec.from_params(base | {"exchange": "1w>1b"}).exchange == Exchange(1, Colour.W, 1, Colour.B)
    assert AttemptSpec.from_params(base | {"engine": {"colour": "any", "bonus": 1}}).engine == EngineBonus(None, 1)


@pytest.mark.parametrize(
    ("params", "name", "words"),
    [
        ({"target": 5.5}, "target", "whole number"),
        ({"exchange": "0W>1B"}, "exchange", "at least one die"),
        ({"exchange": "3W>0B"}, "exchange", "at least one die"),
        ({"exchange": {"give": 3, "give_colour": "W", "get": 1}}, "exchange", "get_colour"),
        ({"fixed": {"colour": "W"}}, "fixed", "'colour' and 'value'"),
        ({"fixed": {"value": 3}}, "fixed", "'colour' and 'value'"),
        ({"fixed": {"colour": "W", "value": ""}}, "fixed.value", "required"),
        ({"engine": "R+0"}, "engine", "at least 1"),
        ({"engine": {"colour": "R"}}, "engine.bonus", "required"),
        ({"engine": "X+1"}, "engine", "is not W, R or B"),
        ({"dice": "W=1,W=2"}, "dice", "given twice"),
        ({"dice": "W="}, "dice", "COLOUR=COUNT"),
        ({"dice": {"W": ""}}, "dice.W", "required"),
        ({"dice": 5}, "dice", "a mapping"),
        ({"need": "W=0"}, "need", "at least one die"),
        ({"exchange": {"give": "", "give_colour": "W", "get": 1, "get_colour": "B"}}, "exchange.give", "required"),
        ({"exchange": {"give": 1, "give_colour": "W", "get": "", "get_colour": "B"}}, "exchange.get", "required"),
        ({"exchange": "1Q>1B"}, "exchange", "is not W, R or B"),
        ({"exchange": "1W>1Q"}, "exchange", "is not W, R or B"),
        ({"wooden_airship": "perhaps"}, "wooden_airship", "yes/no"),
        ({"need": None}, "need", "is required"),
        ({"need": "W=0"}, "need", "requires at least one die"),
        ({"chips": True}, "chips", "expected a whole number"),
        ({"chips": "many"}, "chips", "expected a whole number"),
        ({"target": ""}, "target", "is required"),
        ({"fixed": "3W"}, "fixed", "is not COLOUR VALUE"),
        ({"fixed": "Q3"}, "fixed", "colour 'Q' is not W, R or B"),
        ({"fixed": {"colour": "Q", "value": 3}}, "fixed", "colour 'Q' is not W, R or B"),
        ({"engine": "R1"}, "engine", "is not COLOUR+BONUS"),
        ({"engine": {"bonus": 1}}, "engine", "colour '' is not W, R or B"),
        ({"exchange": "3W to 1B"}, "exchange", "is not GIVE>GET"),
        ({"exchange": "3W>1W"}, "exchange", "an exchange turns one colour into another"),
    ],
)
def test_bad_parameters_name_the_parameter_and_say_why(params: dict[str, Any], name: str, words: str) -> None:
    with pytest.raises(SpecError) as info:
        AttemptSpec.from_params({"need": "W=1", "target": 5} | params)
    assert (info.value.param, words in info.value.message) == (name, True)
    assert str(info.value) == f"{name}: {info.value.message}"


@pytest.mark.parametrize(
    ("params", "text"),
    [
        ({"need": None}, "need: is required, e.g. 'W=1,R=1'"),
        ({"need": "W=0"}, "need: a target requires at least one die, e.g. 'W=2'"),
        ({"target": None}, "target: is required"),
        ({"fixed": {"colour": "W"}}, "fixed: a mapping needs 'colour' and 'value'"),
        ({"engine": "R+0"}, "engine: the bonus must be at least 1"),
        ({"exchange": "0W>1B"}, "exchange: both sides of an exchange need at least one die"),
        ({"exchange": "3W>1W"}, "exchange: an exchange turns one colour into another"),
    ],
)
def test_spec_errors_read_as_printed(params: dict[str, Any], text: str) -> None:
    """The CLI prints a SpecError as 'PARAM: reason'; the reasons are plain sentences."""
    with pytest.raises(SpecError) as info:
        AttemptSpec.from_params({"need": "W=1", "target": 5} | params)
    assert str(info.value) == text
