"""Z3 separating queries for the Airships dice ambiguities, held to the model's
own legality rules (the oracle) on concrete boards, targets and choices."""

from __future__ import annotations

import random

import pytest
import z3

from rulecraft.model.airships.components import COLOURS, DEPARTMENTS, Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.registry import game_class, make_game
from rulecraft.solvers.airships.separate import (
    LEGALITY_ONLY,
    department_cards,
    instance,
    legal_by_model,
    legality,
    separate,
    targets,
)
from rulecraft.witness import search_pair, solver_hooks

READINGS = [(amb, r.key) for amb in LEGALITY_ONLY for r in game_class("air").register[amb].readings]


def air(**readings: str) -> AirshipsGame:
    game = make_game("air", readings=readings)
    assert isinstance(game, AirshipsGame)
    return game


@pytest.mark.parametrize(("amb", "key"), READINGS)
def test_the_encoding_agrees_with_the_model_on_concrete_attempts(amb: str, key: str) -> None:
    game = air(**{amb: key})
    pack = game.pack
    cards, goals = department_cards(pack), targets(pack)
    board, domain = instance(pack)
    legal = z3.And([c for _, c in legality(pack, board, game.ctx.readings, game.ctx.p("dice_per_colour"))])
    rng = random.Random(hash((amb, key)) & 0xFFFF)
    agreed = allowed = 0
    for _ in range(300):
        era = rng.choice((1, 2))
        sel = [rng.randrange(len(d) + 1) for d in cards]
        sel = [k if k == 0 or era == 2 or cards[i][k - 1].group != "era2" else 0 for i, k in enumerate(sel)]
        t = rng.randrange(len(goals))
        k, gf = rng.choice((0, 0, 0, 1, 2)), rng.random() < 0.1
        # Throws near the requirement, so that legal and illegal attempts are both common.
        need = goals[t][1]
        throw = Dice(
            *(max(0, need[c] + rng.choice((-1, 0, 0, 0, 1))) if need[c] else rng.choice((0, 0, 0, 1)) for c in COLOURS)
        )
        fixed = [*(s == v for s, v in zip(board.sel, sel, strict=True)), board.era2 == (era == 2)]
        fixed += [board.target == t, board.exchanges == k, board.give_fixed == gf]
        fixed += [x == throw[c] for x, c in zip(board.throw, COLOURS, strict=True)]
        solver = z3.Solver()
        solver.add(domain + fixed + [legal])
        by_z3 = solver.check() == z3.sat
        chosen = [cards[i][s - 1].id for i, s in enumerate(sel) if s]
        by_model = legal_by_model(game, chosen, era, goals[t][1], k, gf, throw)
        assert by_z3 == by_model, (amb, key, chosen, era, goals[t], k, gf, throw)
        agreed += 1
        allowed += by_model
    assert agreed == 300 and allowed > 0, "some sampled attempts are legal, so both sides were exercised"


def test_a_separating_board_is_one_the_model_itself_separates() -> None:
    """AIR-AMB-35 'max': the board Z3 gives is legal under one reading and not the other, by the model."""
    verdict = separate(air(), air(**{"AIR-AMB-35": "max"}), 20)
    assert verdict.status == "sat" and verdict.witness is not None
    w = verdict.witness
    need, throw = Dice.from_mapping(w["requirement"]), Dice.from_mapping(w["throw"])
    default = legal_by_model(air(), w["cards"], w["era"], need, w["exchanges"], w["give_fixed"], throw)
    other = legal_by_model(
        air(**{"AIR-AMB-35": "max"}), w["cards"], w["era"], need, w["exchanges"], w["give_fixed"], throw
    )
    assert default != other
    assert w["allowed_by"] == ("default" if default else "other reading")


def test_an_unsat_answer_is_reported_as_proved_with_the_solver_reason() -> None:
    """AIR-AMB-06 (when the cap applies to an exchange): with this pack no board, target and
    choice tells the readings apart, and rulecraft ambiguities says so as a proof."""
    amb = game_class("air").register["AIR-AMB-06"]
    hook = solver_hooks(air())["AIR-AMB-06"]
    from rulecraft.witness import Budget

    result = search_pair("air", amb, "before", Budget(seconds=4), solver=hook)
    assert result.outcome == "proved" and result.solver is not None and result.solver.status == "unsat"
    assert "Z3" in result.reason


def test_a_zero_timeout_is_unknown_never_proved() -> None:
    verdict = separate(air(), air(**{"AIR-AMB-06": "before"}), 0.001)
    assert verdict.status in {"unknown", "unsat"}
    if verdict.status == "unknown":
        assert "no answer" in verdict.reason


def test_only_legality_ambiguities_get_a_hook_and_only_under_per_colour_scoring() -> None:
    assert set(solver_hooks(air())) == {*LEGALITY_ONLY, "AIR-AMB-25"}
    assert set(solver_hooks(air(**{"AIR-AMB-04": "any"}))) == {"AIR-AMB-25"}
    assert len(DEPARTMENTS) == len(department_cards(air().pack))


def test_a_pack_without_airship_dice_proves_the_airship_dice_reading_idle() -> None:
    """AIR-AMB-25: the bundled pack's airship cards show no dice (p.5 describes requirement, target, VP)."""
    assert all(c.dice.total() == 0 for c in air().pack.airships)
    amb = game_class("air").register["AIR-AMB-25"]
    from rulecraft.witness import Budget

    result = search_pair("air", amb, "yes", Budget(seconds=2), solver=solver_hooks(air())["AIR-AMB-25"])
    assert result.outcome == "proved" and "no airship card" in result.reason
