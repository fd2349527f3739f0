"""Aeroplanes: a PickAdvantages of the wrong shape is refused under AER-R-39, never a crash.

AER-R-39(b) (seed 002, l.153-154): after the £1 advantage roll the player chooses **two** of the three
risk dice and takes, for each, the tile its face names.  A pick is therefore two dice (by index) and two
types (a type, or None: nothing).  An action built by hand through the Game API can have any shape; one
with too few, too many or no types (or dice) is an illegal action like any other: ``check`` names
AER-R-39 with its lines, ``is_legal`` says no, ``apply`` raises IllegalAction, and the state is untouched.
JSON cannot carry such a pick: ``action_from_json`` refuses it as a SerializationError naming the field,
and the protocol's ``apply`` answers with an error and keeps its state.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_aer_advantages import rolled
from test_aer_rules import step

from rulecraft.conformance.server import Session
from rulecraft.core import IllegalAction
from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.state import AerState, Phase
from rulecraft.registry import make_game
from rulecraft.serialization import SerializationError

GAME = make_game("aer")
PAGE = "l.153-154"  # AER-R-39 in the Russian seed, cited by lines


def picking() -> AerState:
    """Era 1, the three dice thrown as 2, 2, 5 (l.154): the pick is due."""
    state, _ = rolled(1)
    state = step(state, A.AdvantageThrow((2, 2, 5)))
    assert state.phase is Phase.ADVANTAGE_PICK
    return state


def misshapen(dice: Any, types: Any) -> A.PickAdvantages:
    """A pick as a Game API caller might build it: attrs does not check the tuples' lengths."""
    return A.PickAdvantages(dice, types)


def assert_refused(action: A.PickAdvantages, shown: str) -> None:
    """The game's normal refusal: AER-R-39 with its lines, in words naming what was given (``shown``)."""
    state = picking()
    why = GAME.check(state, action)
    assert why is not None
    assert (why.rule, why.page) == ("AER-R-39", PAGE)
    assert shown in why.reason and "dice" in why.reason
    assert "AER-R-39 (l.153-154) — " in str(why)
    assert GAME.is_legal(state, action) is False
    assert GAME.rejections(state, action)[0] == why
    with pytest.raises(IllegalAction) as raised:
        GAME.apply(state, action)
    assert raised.value.rejection == why
    assert action not in GAME.legal_actions(state)


@pytest.mark.parametrize(
    ("types", "shown"),
    [((2,), "not (2,)"), ((2, 2, None), "not (2, 2, None)"), ((), "not ()")],
    ids=["too-few", "too-many", "empty"],
)
def test_aer_r_39_a_pick_names_one_type_for_each_of_two_dice(types: tuple[int | None, ...], shown: str) -> None:
    """AER-R-39(b) l.154: two dice are used, so a pick names two types; one, three or none is refused."""
    assert_refused(misshapen((0, 1), types), shown)
    assert "each of the 2 chosen dice" in GAME.check(picking(), misshapen((0, 1), types)).reason  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("dice", "shown"),
    [
        ((0,), "not (0,)"),
        ((0, 1, 2), "not (0, 1, 2)"),
        ((), "not ()"),
        ((0, "1"), "not (0, '1')"),
        ([0, 1], "not [0, 1]"),
    ],
    ids=["one-die", "three-dice", "no-dice", "not-an-index", "a-list"],
)
def test_aer_r_39_a_pick_uses_two_dice_named_by_index(dice: Any, shown: str) -> None:
    """AER-R-39(b) l.154: 'choose two of them': one die, all three, none, or a die not named by its
    index is refused (the types here are well formed: the dice alone are wrong)."""
    assert_refused(misshapen(dice, (2, 2)), shown)
    assert "choose 2 of the three dice by index" in GAME.check(picking(), misshapen(dice, (2, 2))).reason  # type: ignore[union-attr]


def test_aer_r_39_types_as_a_list_are_refused_not_taken() -> None:
    """The types of a pick are a tuple, as legal_actions lists them; a list would be an action that
    check accepts but legal_actions never offers (the two must agree, AER-R-07), so it is refused."""
    assert_refused(misshapen((0, 1), [2, 2]), "not [2, 2]")


def test_aer_r_39_the_well_formed_pick_still_takes_two_tiles() -> None:
    """AER-AMB-48: doubles give two tiles of the type; the shape check lets the right pick through."""
    state = picking()
    seat = state.to_move
    action = A.PickAdvantages((0, 1), (2, 2))
    assert GAME.check(state, action) is None
    after = GAME.apply(state, action)
    assert after.players[seat].advantages[0] == state.players[seat].advantages[0] + 2


def test_aer_r_39_a_misshapen_pick_out_of_its_step_is_refused_too() -> None:
    """Before the advantage throw the pick is out of its step (AER-R-39): refused, whatever its shape,
    and ``rejections`` (which also judges the pick's own rule) lists AER-R-39 alone."""
    before, _ = rolled(1)
    assert before.phase is Phase.ADVANTAGE_ROLL
    for action in (misshapen((0, 1), (2,)), misshapen((0,), (2, 2))):
        why = GAME.check(before, action)
        assert why is not None and why.rule == "AER-R-39"
        assert [r.rule for r in GAME.rejections(before, action)] == ["AER-R-39"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"dice": [0, 1], "types": [2]}, "types"),
        ({"dice": [0, 1], "types": [2, 2, 2]}, "types"),
        ({"dice": [0, 1], "types": []}, "types"),
        ({"dice": [0], "types": [2, 2]}, "dice"),
    ],
    ids=["too-few", "too-many", "empty", "one-die"],
)
def test_json_cannot_carry_a_misshapen_pick(data: dict[str, Any], field: str) -> None:
    """action_from_json refuses the pick as a SerializationError naming the field; the protocol's apply
    answers {"ok": false, "error": ...} and the session's state is the one it had."""
    action = {"kind": "pick-advantages", **data}
    with pytest.raises(SerializationError, match=f"pick-advantages.{field}"):
        GAME.action_from_json(action)
    session = Session("aer")
    session.game = session.default_game
    session.state = picking()
    before = session.state
    answer, end = session.handle_line(json.dumps({"op": "apply", "action": action}))
    assert answer["ok"] is False and field in answer["error"] and not end
    assert session.state is before
    good, _ = session.handle_line(
        json.dumps({"op": "apply", "action": {"kind": "pick-advantages", "dice": [0, 1], "types": [2, 2]}})
    )
    assert good["ok"] is True
