"""Airships readings, one ambiguity at a time: a small state where the default
and the alternative reading part ways, with the difference reasoned from the
rule text (../shared/rules/airships.md, section 5)."""

from __future__ import annotations

from typing import Any

from rulecraft.model.airships.actions import AttemptTarget, Throw
from rulecraft.model.airships.components import Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirshipsState
from rulecraft.registry import make_game


def game(**readings: str) -> AirshipsGame:
    g = make_game("air", readings=readings)
    assert isinstance(g, AirshipsGame)
    return g


def given(g: AirshipsGame, **spec: Any) -> AirshipsState:
    return g.scenario_state(spec)


def attempts_at(g: AirshipsGame, state: AirshipsState, target: str) -> set[Dice]:
    return {a.throw for a in g.legal_actions(state) if isinstance(a, AttemptTarget) and a.target == target}


def test_air_amb_04_surplus_dice_stand_in_for_a_missing_colour() -> None:
    """AIR-AMB-04: E1-ENR-3 needs 1 W + 1 R (target 6).  A company of 2 white
    dice (entrepreneur + starter) and no red cannot attempt it when only the
    dice of each listed colour count ('exact', AIR-R-27); under 'any' a surplus
    white fills the red requirement, so both whites are thrown (AIR-AMB-05 'no':
    only listed colours; no red to throw), and two 3s make the 6."""
    target = "development:E1-ENR-3"
    spec: dict[str, Any] = {"boards": {0: {"cards": ["S-FIN"], "chips": 0}}, "display": ["E1-ENR-3"]}

    exact = game()
    s = given(exact, **spec)
    assert attempts_at(exact, s, target) == set()
    rejection = exact.check(s, AttemptTarget(target, Dice(W=2)))
    assert rejection is not None and rejection.rule == "AIR-R-27"

    any_die = game(**{"AIR-AMB-04": "any"})
    s = given(any_die, **spec)
    assert attempts_at(any_die, s, target) == {Dice(W=2)}
    # One white alone does not reach the two dice the card lists.
    one = any_die.check(s, AttemptTarget(target, Dice(W=1)))
    assert one is not None and one.rule == "AIR-R-30"
    s = any_die.apply(any_die.apply(s, AttemptTarget(target, Dice(W=2))), Throw(W=(3, 3)))
    assert s.boards[0].departments[3] == "E1-ENR-3"  # won: the Engineer field


def test_air_amb_04_the_best_dice_of_any_listed_colour_count() -> None:
    """AIR-AMB-04: 3 W + 1 R (entrepreneur, starter, E1-PIL-1 white; E1-HAN-2 red)
    throw everything at E1-ENR-3 (1 W + 1 R, target 6) and show W 3,3,1 and R 2.
    'exact' (AIR-R-33) counts the best white and the best red: 3 + 2 = 5, short,
    and with no chip the attempt fails (AIR-R-41: one chip from the supply).
    'any' counts the best two dice of the listed colours: 3 + 3 = 6, a success."""
    target = "development:E1-ENR-3"
    spec: dict[str, Any] = {
        "boards": {0: {"cards": ["S-FIN", "E1-PIL-1", "E1-HAN-2"], "chips": 0}},
        "display": ["E1-ENR-3"],
    }
    results = {}
    for reading in ("exact", "any"):
        g = game(**{"AIR-AMB-04": reading})
        s = given(g, **spec)
        assert g.facts(s)["dice"][0] == {"W": 3, "R": 1, "B": 0}
        supply = s.supplies[0]
        s = g.apply(g.apply(s, AttemptTarget(target, Dice(W=3, R=1))), Throw(W=(3, 3, 1), R=(2,)))
        results[reading] = (s.boards[0].departments[3], s.boards[0].chips, s.supplies[0] - supply)
    assert results["exact"] == (None, 1, -1)
    assert results["any"] == ("E1-ENR-3", 0, 0)
