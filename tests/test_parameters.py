"""Rule parameters: the numbers rules state, changed by name, checked by range."""

from __future__ import annotations

import pytest

from rulecraft.core import IllegalAction, RulecraftError
from rulecraft.model.airships.actions import AttemptTarget, ExtraGo
from rulecraft.model.airships.components import Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.parameters import ParameterError
from rulecraft.registry import make_game
from rulecraft.tools import tools


def air(**parameters: int) -> AirshipsGame:
    game = make_game("air", parameters=parameters)
    assert isinstance(game, AirshipsGame)
    return game


def test_the_printed_values_are_the_defaults() -> None:
    table = AirshipsGame.parameters
    assert table.defaults() == {
        "start_chips_first": 3,  # AIR-R-09, p.2
        "start_chips_other": 4,
        "dice_per_colour": 3,  # AIR-R-30, p.3-4
        "failure_chips": 1,  # AIR-R-41, p.4
        "extra_go_cost": 3,  # AIR-R-42, p.4
        "wooden_airship_bonus": 1,  # AIR-R-36, p.1,4
    }
    assert all(p.rule in AirshipsGame.catalogue for p in table)


def test_start_chips_follow_the_parameters() -> None:
    state = air(start_chips_first=2, start_chips_other=5).new_game(3, first_seat=1)
    assert [b.chips for b in state.boards] == [5, 2, 5]
    assert state.supplies == (1, 4, 1)  # 6 chips per nation (pack), the rest in the supply


def test_a_cheaper_additional_go() -> None:
    """AIR-R-42 with extra_go_cost 2: a company with 2 chips may pay for another go; printed, it may not."""
    spec = {"boards": {0: {"chips": 2}}, "phase": "extra-go"}
    printed = make_game("air")
    cheaper = air(extra_go_cost=2)
    assert printed.check(tools(printed).scenario_state(spec), ExtraGo()) is not None
    state = tools(cheaper).scenario_state(spec)
    assert cheaper.check(state, ExtraGo()) is None
    assert ExtraGo() in cheaper.legal_actions(state), "listed where the check allows it"
    assert ExtraGo() not in printed.legal_actions(tools(printed).scenario_state(spec))
    after = cheaper.apply(state, ExtraGo())
    assert after.boards[0].chips == 0 and after.supplies[0] == state.supplies[0] + 2


def test_a_fourth_die_of_one_colour() -> None:
    """AIR-R-30 with dice_per_colour 4: the company's four white dice may all be thrown."""
    spec = {"boards": {0: {"cards": ["S-FIN", "E1-HAN-3"]}}, "display": ["E1-FIN-3"]}
    four = AttemptTarget("development:E1-FIN-3", Dice(W=4))
    printed = make_game("air")
    with pytest.raises(IllegalAction, match="at most 3 dice"):
        printed.apply(tools(printed).scenario_state(spec), four)
    wider = air(dice_per_colour=4)
    assert wider.check(tools(wider).scenario_state(spec), four) is None
    assert four in wider.legal_actions(tools(wider).scenario_state(spec))


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"extra_go_cost": 9}, r"parameters\.extra_go_cost: 9 is out of range 0\.\.6 \(AIR-R-42"),
        ({"extra_go_cost": True}, r"parameters\.extra_go_cost: a whole number is needed"),
        ({"extra_go_cost": "2"}, r"parameters\.extra_go_cost: a whole number is needed"),
        ({"go_cost": 2}, r"parameters\.go_cost: 'go_cost' is not a parameter of air; known: start_chips_first"),
    ],
)
def test_bad_values_name_the_parameter_the_range_and_the_rule(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        make_game("air", parameters=overrides)  # type: ignore[arg-type]


def test_the_solver_queries_refuse_a_variant_they_do_not_encode() -> None:
    game = air(dice_per_colour=4)
    with pytest.raises(RulecraftError, match="printed rule parameters"):
        tools(game).queries()["reach"].run(game, {"need": "W2", "target": 6})


def test_the_repr_names_changed_parameters_and_is_valid_python() -> None:
    game = air(extra_go_cost=2)
    assert "parameters={'extra_go_cost': 2}" in repr(game)
    again = eval(repr(game), {"AirshipsGame": AirshipsGame})
    assert again.ctx.params == game.ctx.params


def test_kings_of_air_and_steam_costs_and_money_follow_the_parameters() -> None:
    from rulecraft.model.kings_of_air_and_steam.actions import Grant

    printed = make_game("kas")
    richer = make_game("kas", parameters={"starting_money": 20, "grant": 5})
    assert [p.money for p in printed.new_game(3).players] == [12, 12, 12]  # KAS-R-03, p.6
    assert [p.money for p in richer.new_game(3).players] == [20, 20, 20]
    spec = {
        "players": 2,
        "phase": "action",
        "market": {"slots": ["food", "food", "food"]},
        "players_state": {
            0: {"plan": ["S01", "S02", "S03", "S04"], "at": [0, -1]},
            1: {"plan": ["S05", "S06", "S07", "S08"], "at": [0, -1]},
        },
    }
    assert printed.apply(tools(printed).scenario_state(spec), Grant()).players[0].money == 15  # KAS-R-43: $3
    state = tools(richer).scenario_state(spec)
    after = richer.apply(state, Grant())
    assert after.players[0].money == state.players[0].money + 5
    assert tools(richer).violations(after) == [], "money stays conserved against the variant's starting money"


def test_kings_of_air_and_steam_parameters_are_checked() -> None:
    with pytest.raises(ParameterError, match=r"parameters\.depot_cost_first: 99 is out of range 0\.\.30 \(KAS-R-33"):
        make_game("kas", parameters={"depot_cost_first": 99})
    game = make_game("kas", parameters={"depot_cost_first": 2})
    with pytest.raises(RulecraftError, match="printed parameters"):
        tools(game).queries()["plan"].run(game, {})
    with pytest.raises(RulecraftError, match="printed parameters"):
        tools(game).queries()["sellout"].run(game, {}, game.new_game(2))


def test_the_airships_queries_refuse_a_reading_they_do_not_encode() -> None:
    game = make_game("air", readings={"AIR-AMB-04": "any"})
    with pytest.raises(RulecraftError, match="AIR-AMB-04"):
        tools(game).queries()["reach"].run(game, {"need": "W2", "target": 6})


def test_the_shipping_queries_refuse_readings_they_do_not_encode() -> None:
    # KAS-AMB-14..17 are encoded now (issue 19); KAS-AMB-25 (the Sellout's toll) is not.
    game = make_game("kas", readings={"KAS-AMB-25": "consume-room"})
    with pytest.raises(RulecraftError, match="KAS-AMB-25"):
        tools(game).queries()["sellout"].run(game, {}, game.new_game(2))
