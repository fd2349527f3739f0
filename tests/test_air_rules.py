"""Airships rules, one at a time: each test names the rule and the page it
checks, builds only what matters, and asserts the rulebook's outcome."""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.core import IllegalAction
from rulecraft.model.airships.actions import (
    AttemptTarget,
    EndGo,
    ExtraGo,
    NoAttempt,
    Resolve,
    Reveal,
    Throw,
)
from rulecraft.model.airships.components import Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState, Phase
from rulecraft.registry import make_game
from rulecraft.tools import tools


def game(**readings: str) -> AirshipsGame:
    g = make_game("air", readings={k.replace("_", "-"): v for k, v in readings.items()})
    assert isinstance(g, AirshipsGame)
    return g


def given(g: AirshipsGame, **spec: Any) -> AirState:
    return tools(g).scenario_state(spec)


def rule_of(g: AirshipsGame, state: AirState, action: Any) -> str | None:
    rejection = g.check(state, action)
    return rejection.rule if rejection else None


# -- set-up (AIR-R-01..09) ------------------------------------------------------------


def test_setup_chips_three_for_the_start_player_four_for_the_others_r09() -> None:
    """AIR-R-09."""
    g = game()
    s = g.new_game(3, first_seat=1)
    assert [b.chips for b in s.boards] == [4, 3, 4]
    assert s.supplies == (2, 3, 2)


@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four_is_refused_r01(players: int) -> None:
    """AIR-R-01."""
    with pytest.raises(Exception, match="AIR-R-01"):
        game().new_game(players)


def test_setup_deals_dark_then_medium_then_light_and_starts_with_two_white_dice_r03_r08() -> None:
    """AIR-R-03, AIR-R-08."""
    import random

    g = game()
    s = g.new_game(4)
    rng = random.Random(5)
    while s.phase is not Phase.REVEAL:
        s = g.apply(s, g.sample_chance(s, rng))
    tiers = [[g.pack.airship(c).tier for c in stack] for stack in s.stacks]
    assert tiers == [["dark", "medium", "light"]] * 4
    assert len(s.airships_undealt) == 6
    assert sum(1 for row in s.display for c in row if c) == 6, "AIR-R-06: 6 cards on display"
    assert len(s.deck_era1) == 18 - 4
    for seat in range(4):
        assert tools(g).facts(s)["dice"][seat] == {"W": 2, "R": 0, "B": 0}


# -- targets and dice (AIR-R-26..33) ------------------------------------------------------


def test_four_white_dice_requested_is_refused_with_the_cap_of_three_r30() -> None:
    """AIR-R-30."""
    g = game()
    s = given(g, boards={0: {"cards": ["S-FIN", "E1-HAN-3"]}}, display=["E1-FIN-3"])
    assert tools(g).facts(s)["dice"][0]["W"] == 4
    action = AttemptTarget("development:E1-FIN-3", Dice(W=4))
    with pytest.raises(IllegalAction) as info:
        g.apply(s, action)
    assert info.value.rejection.rule == "AIR-R-30"
    assert "at most 3 dice of one colour" in str(info.value)
    assert g.check(s, AttemptTarget("development:E1-FIN-3", Dice(W=3))) is None


def test_missing_required_colour_is_refused_r27() -> None:
    """AIR-R-27."""
    g = game()
    s = given(g, display=["E2-HAN-1"])  # needs 2 red
    assert rule_of(g, s, AttemptTarget("development:E2-HAN-1", Dice(R=2))) == "AIR-R-27"
    assert not any(isinstance(a, AttemptTarget) and a.target == "development:E2-HAN-1" for a in g.legal_actions(s))
    s2 = given(g, boards={0: {"cards": ["E1-ENR-1"]}}, display=["E2-HAN-1"])  # fixed red 4 only
    assert rule_of(g, s2, AttemptTarget("development:E2-HAN-1", Dice(R=0))) == "AIR-R-27"


def test_only_the_top_airship_card_and_only_displayed_cards_are_targets_r26() -> None:
    """AIR-R-26."""
    g = game()
    s = given(g)
    assert rule_of(g, s, AttemptTarget("development:E1-FIN-1", Dice(W=2))) == "AIR-R-26"
    assert rule_of(g, s, AttemptTarget("airship:5", Dice(W=2))) == "AIR-R-26"
    assert rule_of(g, s, AttemptTarget("stage:1", Dice(W=2))) == "AIR-R-43"


def test_fixed_die_is_not_thrown_and_not_capped_r18_r31() -> None:
    """AIR-R-18, AIR-R-31."""
    g = game()
    s = given(g, boards={0: {"cards": ["E1-ENR-1", "E2-FIN-3"]}}, era=2, display=["E2-HAN-3"])
    # 1 red (era 2 tile) + 2 red (finance) = 3 thrown + the fixed red 4
    s = g.apply(s, AttemptTarget("development:E2-HAN-3", Dice(R=3)))
    s = g.apply(s, Throw(R=(2, 2, 2)))
    # best two of 2,2,2 and fixed 4 = 6 < 8; no chip used -> failure
    assert s.phase is Phase.BONUS
    s = g.apply(s, Resolve(chip=False))
    assert s.boards[0].departments[1] is None


def test_exchange_makes_a_missing_colour_available_for_one_throw_r29() -> None:
    """AIR-R-29."""
    g = game()
    s = given(g, boards={0: {"cards": ["E1-MAT-1", "S-FIN", "E1-HAN-3"]}}, display=["E2-HAN-3"])
    assert rule_of(g, s, AttemptTarget("development:E2-HAN-3", Dice(R=2))) == "AIR-R-27"
    ok = AttemptTarget("development:E2-HAN-3", Dice(R=2), exchanges=1)
    assert g.check(s, ok) is None
    assert rule_of(g, s, AttemptTarget("development:E2-HAN-3", Dice(R=2), exchanges=2)) == "AIR-R-29"
    s = g.apply(g.apply(s, ok), Throw(R=(5, 4)))
    assert s.boards[0].departments[1] == "E2-HAN-3"
    # the exchange lasted one throw: the whites are back, the new card adds 2 red
    assert tools(g).facts(s)["dice"][0] == {"W": 2, "R": 2, "B": 0}


def test_best_dice_of_the_required_count_are_summed_r33() -> None:
    """AIR-R-33."""
    g = game()
    s = given(g, boards={0: {"cards": ["S-FIN", "E1-PIL-1"]}}, display=["E1-HAN-2"])
    s = g.apply(s, AttemptTarget("development:E1-HAN-2", Dice(W=3)))
    s = g.apply(s, Throw(W=(3, 1, 1)))
    assert s.phase is Phase.BONUS, "3 + 1 = 4 < 5: short by one"
    assert g.legal_actions(s) == [Resolve(chip=False), Resolve(chip=True)]


# -- outcome (AIR-R-37..42) ------------------------------------------------------------------


def test_chip_makes_up_the_last_point_and_goes_back_to_the_supply_r37() -> None:
    """AIR-R-37."""
    g = game()
    s = given(g, boards={0: {"cards": ["S-FIN", "E1-PIL-1"], "chips": 1}}, display=["E1-HAN-2"])
    supply = s.supplies[0]
    s = g.apply(s, AttemptTarget("development:E1-HAN-2", Dice(W=3)))
    s = g.apply(g.apply(s, Throw(W=(3, 1, 1))), Resolve(chip=True))
    assert s.boards[0].chips == 0 and s.supplies[0] == supply + 1
    assert s.boards[0].departments[1] == "E1-HAN-2"


def test_failure_earns_one_chip_from_the_own_supply_if_any_r41() -> None:
    """AIR-R-41."""
    g = game()
    for supply, expected in ((2, 1), (0, 0)):
        s = given(g, boards={0: {"cards": ["S-FIN"], "chips": 0, "supply": supply}}, display=["E1-HAN-2"])
        s = g.apply(s, AttemptTarget("development:E1-HAN-2", Dice(W=2)))
        s = g.apply(s, Throw(W=(1, 1)))
        assert s.boards[0].chips == expected


def test_pilot_chips_come_once_and_only_as_many_as_the_supply_holds_r39() -> None:
    """AIR-R-39."""
    g = game()
    s = given(g, boards={0: {"cards": ["S-FIN"], "chips": 0, "supply": 1}}, display=["E1-PIL-1"])
    s = g.apply(s, AttemptTarget("development:E1-PIL-1", Dice(W=2)))
    s = g.apply(s, Throw(W=(3, 3)))
    assert s.boards[0].departments[2] == "E1-PIL-1"
    assert s.boards[0].chips == 1 and s.supplies[0] == 0


def test_won_card_replaces_the_old_one_of_its_department_r38() -> None:
    """AIR-R-38."""
    g = game()
    s = given(g, boards={0: {"cards": ["S-FIN", "E1-HAN-1"]}}, display=["E1-HAN-2"])
    s = g.apply(s, AttemptTarget("development:E1-HAN-2", Dice(W=2)))
    s = g.apply(s, Throw(W=(3, 3)))
    assert s.boards[0].departments[1] == "E1-HAN-2"
    assert "E1-HAN-1" in s.removed


def test_additional_go_costs_three_chips_and_repeats_both_steps_r42() -> None:
    """AIR-R-42."""
    g = game()
    s = given(g, boards={0: {"cards": ["S-FIN"], "chips": 4, "supply": 2}}, display=["E1-HAN-2"])
    s = g.apply(s, AttemptTarget("development:E1-HAN-2", Dice(W=2)))
    s = g.apply(s, Throw(W=(3, 3)))
    assert s.phase is Phase.EXTRA_GO and set(g.legal_actions(s)) == {EndGo(), ExtraGo()}
    s = g.apply(s, ExtraGo())
    assert s.boards[0].chips == 1 and s.supplies[0] == 5
    assert s.seat == 0 and s.phase is Phase.REVEAL, "AIR-AMB-22: a full go, step 1 first"
    poor = given(g, boards={0: {"chips": 2}}, phase="extra-go")
    assert rule_of(g, poor, ExtraGo()) == "AIR-R-42"


def test_step_two_is_mandatory_when_a_target_is_within_reach_amb23() -> None:
    """AIR-AMB-23."""
    g = game()
    spec: dict[str, Any] = {"boards": {0: {"cards": ["S-FIN"]}}, "display": ["E1-HAN-2"]}
    s = tools(g).scenario_state(spec)
    assert rule_of(g, s, NoAttempt()) == "AIR-R-22"
    assert NoAttempt() not in g.legal_actions(s)
    passing = game(AIR_AMB_23="pass")
    assert passing.check(tools(passing).scenario_state(spec), NoAttempt()) is None
    lone = given(g, display=["E1-HAN-2"])  # only the entrepreneur's white die: no target
    assert g.legal_actions(lone) == [NoAttempt()]


# -- display and deck (AIR-R-23..25) --------------------------------------------------------


def test_era_tile_flips_every_entrepreneur_and_step_one_reveals_again_r25() -> None:
    """AIR-R-25."""
    g = game()
    s = given(g, phase="reveal", deck={"era1": []})
    assert g.chance_outcomes(s) == [(Reveal(None), 1)]
    s = g.apply(s, Reveal(None))
    assert s.era == 2 and s.phase is Phase.REVEAL, "AIR-AMB-15 'next': step 1 reveals a card"
    assert all(tools(g).facts(s)["dice"][seat]["R"] == 1 for seat in range(2))
    stop = game(AIR_AMB_15="stop")
    s2 = stop.apply(tools(stop).scenario_state({"phase": "reveal", "deck": {"era1": []}}), Reveal(None))
    assert s2.phase is Phase.ATTEMPT


def test_full_row_drops_its_leftmost_card_r24() -> None:
    """AIR-R-24."""
    g = game()
    s = given(g, phase="reveal", rows={"finance": ["E1-FIN-1", "E1-FIN-2", "E1-FIN-3"]}, deck={"era1": ["E2-FIN-1"]})
    # a hand-built deck: the era-2 card stands in the era-1 segment for the test
    s = g.apply(s, Reveal("E2-FIN-1"))
    assert s.display[0] == ("E1-FIN-2", "E1-FIN-3", "E2-FIN-1")
    assert "E1-FIN-1" in s.removed


def test_empty_deck_skips_step_one_r23() -> None:
    """AIR-R-23."""
    import attrs

    g = game()
    s = given(
        g, boards={0: {"cards": ["S-FIN"], "chips": 0}}, display=["E1-HAN-2"], deck={"era1": [], "era2": []}, era=2
    )
    s = g.apply(s, AttemptTarget("development:E1-HAN-2", Dice(W=2)))
    s = g.apply(s, Throw(W=(1, 1)))
    assert s.seat == 1 and s.phase is Phase.ATTEMPT, "the next go starts with step 2"
    assert g.chance_outcomes(attrs.evolve(s, phase=Phase.REVEAL)) == []


# -- airships, Hindenburg, end (AIR-R-40..49) ------------------------------------------------


def _airship_win(g: AirshipsGame, s: AirState, stack: int, faces: dict[str, tuple[int, ...]]) -> AirState:
    top = g.pack.airship(s.stacks[stack - 1][-1])
    s = g.apply(s, AttemptTarget(f"airship:{stack}", top.requirement))
    return g.apply(s, Throw(**faces))


def test_emptying_a_stack_reveals_the_hindenburg_and_moves_the_wooden_airship_r40_r43() -> None:
    """AIR-R-40, AIR-R-43."""
    g = game()
    s = given(
        g,
        boards={0: {"cards": ["S-FIN"]}},
        stacks=[["L1"], ["D2", "M2", "L2"], ["D3", "M3", "L3"], ["D4", "M4", "L4"]],
        wooden_airship=1,
    )
    s = _airship_win(g, s, 1, {"W": (3, 3)})
    assert s.hindenburg and s.wooden_airship == 0 and s.boards[0].airships == ("L1",)
    assert s.phase is not Phase.OVER


def test_after_a_stage_only_a_further_stage_moves_the_wooden_airship_r46() -> None:
    """AIR-R-46."""
    g = game()
    s = given(
        g,
        boards={0: {"cards": ["S-FIN"]}},
        stacks=[[], ["D2", "M2", "L1"], ["D3", "M3", "L3"], ["D4", "M4", "L4"]],
        stages={1: 1},
        wooden_airship=1,
    )
    s = _airship_win(g, s, 2, {"W": (3, 3)})
    assert s.boards[0].airships == ("L1",) and s.wooden_airship == 1
    reveal = game(AIR_AMB_13="reveal")
    s2 = tools(reveal).scenario_state(
        {
            "boards": {0: {"cards": ["S-FIN"]}},
            "wooden_airship": 1,
            "stacks": [[], ["D2", "M2", "L1"], ["D3", "M3", "L3"], ["D4", "M4", "L4"]],
        }
    )
    s2 = _airship_win(reveal, s2, 2, {"W": (3, 3)})
    assert s2.wooden_airship == 1, "AIR-AMB-13 'reveal': after the reveal airship cards never move it"


def test_stage_is_marked_with_an_own_chip_and_done_once_r44_r45() -> None:
    """AIR-R-44, AIR-R-45."""
    g = game()
    spec: dict[str, Any] = {
        "boards": {0: {"cards": ["E2-FIN-3", "S-HAN"]}},
        "era": 2,
        "stacks": [[], ["D2", "M2", "L2"], ["D3", "M3", "L3"], ["D4", "M4", "L4"]],
    }
    s = tools(g).scenario_state(spec)
    supply = s.supplies[0]
    s = g.apply(s, AttemptTarget("stage:1", Dice(W=2, R=3)))  # stage 1 needs 2 W + 2 R for 14
    s = g.apply(s, Throw(W=(3, 3), R=(5, 5, 4)))
    assert s.stages[0] == 0 and s.wooden_airship == 0 and s.supplies[0] == supply - 1
    s = g.apply(s, EndGo()) if s.phase is Phase.EXTRA_GO else s
    assert s.seat == 1 and s.phase is Phase.REVEAL
    s = g.apply(s, g.chance_outcomes(s)[0][0])
    assert rule_of(g, s, AttemptTarget("stage:1", Dice(W=2, R=1))) == "AIR-R-44"


def test_failed_stage_attempt_earns_the_failure_chip_amb33() -> None:
    """AIR-AMB-33."""
    spec: dict[str, Any] = {
        "boards": {0: {"cards": ["E2-FIN-3", "S-HAN"], "chips": 0}},
        "era": 2,
        "stacks": [[], ["D2", "M2", "L2"], ["D3", "M3", "L3"], ["D4", "M4", "L4"]],
    }
    for reading, chips in (("chip", 1), ("none", 0)):
        g = game(AIR_AMB_33=reading)
        s = tools(g).scenario_state(spec)
        s = g.apply(s, AttemptTarget("stage:1", Dice(W=2, R=2)))
        s = g.apply(s, Throw(W=(1, 1), R=(2, 2)))
        assert s.boards[0].chips == chips


def test_game_ends_at_once_when_every_airship_field_holds_at_most_one_card_r47() -> None:
    """AIR-R-47."""
    g = game()
    s = given(
        g, boards={0: {"cards": ["S-FIN"], "chips": 5, "supply": 1}}, stacks=[["D1", "L1"], ["D2"], ["D3"], ["D4"]]
    )
    s = _airship_win(g, s, 1, {"W": (3, 3)})
    assert s.phase is Phase.OVER and s.ended == "a", "no additional go once the game has ended"


def test_scores_and_the_airship_tie_break_r48_r49() -> None:
    """AIR-R-48, AIR-R-49."""
    g = game()
    s = given(
        g,
        boards={0: {"cards": ["E1-FIN-1"], "airships": ["L1"]}, 1: {"airships": ["L3", "L2"]}},
        stacks=[["D1"], ["D2"], ["D3"], ["D4"]],
    )
    scores = g.scores(s)
    assert scores == {0: 3 + 2, 1: 2 + 3}
    assert g.winners(s) == (1,), "equal VP: the company with more airships wins"


def test_the_supply_holds_the_wooden_airship_and_every_chip_at_setup_r02() -> None:
    """AIR-R-02: chips, the wooden airship (held by nobody) and the dice go beside the board."""
    s = game().new_game(4)
    assert s.wooden_airship is None
    assert sum(s.supplies) + sum(b.chips for b in s.boards) == 4 * 6


def test_era_one_cards_come_first_then_the_era_tile_then_era_two_r04() -> None:
    """AIR-R-04: the deck is 18 era-1 cards on the era tile on 24 era-2 cards."""
    g = game()
    s = given(g, phase="reveal", deck={"era1": ["E1-FIN-2"]})
    assert [a for a, _ in g.chance_outcomes(s)] == [Reveal("E1-FIN-2")]
    assert rule_of(g, s, Reveal(None)) == "AIR-R-04"
    assert rule_of(g, s, Reveal("E2-FIN-1")) == "AIR-R-04"


def test_airship_cards_give_no_dice_r14() -> None:
    """AIR-R-14 (AIR-AMB-25 'no'): an owned airship card adds no die."""
    g = game()
    with_card = given(g, boards={0: {"cards": ["S-FIN"], "airships": ["L5", "M5"]}})
    without = given(g, boards={0: {"cards": ["S-FIN"]}})
    assert tools(g).facts(with_card)["dice"][0] == tools(g).facts(without)["dice"][0] == {"W": 2, "R": 0, "B": 0}


def test_one_card_per_department_on_a_board_r11() -> None:
    """AIR-R-11: a second card of a department cannot sit beside the first."""
    from rulecraft.scenarios.runner import ScenarioError

    with pytest.raises(ScenarioError, match=r"a second hangar card \(AIR-R-11\)"):
        given(game(), boards={0: {"cards": ["E1-HAN-1", "E1-HAN-2"]}})


def test_one_throw_of_exactly_the_declared_dice_r32_r51() -> None:
    """AIR-R-32: one throw of the declared dice; AIR-R-51: faces are those of the shared dice."""
    g = game()
    s = given(g, boards={0: {"cards": ["S-FIN"]}}, display=["E1-HAN-2"])
    s = g.apply(s, AttemptTarget("development:E1-HAN-2", Dice(W=2)))
    assert rule_of(g, s, Throw(W=(3, 2, 1))) == "AIR-R-32"
    assert rule_of(g, s, Throw(W=(4, 1))) == "AIR-R-51"
    assert rule_of(g, s, Throw(W=(1, 3))) == "AIR-R-32"
    s = g.apply(s, Throw(W=(2, 1)))
    assert rule_of(g, s, Throw(W=(3, 3))) is not None, "no reroll: the throw is over"


def test_a_game_that_can_never_end_is_recognised_amb30() -> None:
    """AIR-AMB-30 / AIR-R-47: deck empty and nobody has the dice for any target."""
    g = game()
    stuck: dict[str, Any] = {
        "era": 2,
        "deck": {"era1": [], "era2": []},
        "stacks": [["D1", "M1", "L1"], ["D2", "M2", "L2"], ["D3", "M3", "L4"], ["D4", "M4", "L5"]],
    }
    s = tools(g).scenario_state(stuck)  # both companies: the entrepreneur's 1 white + 1 red only
    assert g.legal_actions(s) == [NoAttempt()]
    assert g.stalled(s) is not None and "AIR-AMB-30" in (g.stalled(s) or "")
    stuck["stacks"][2] = ["D3", "M3", "L3"]  # L3 needs 1 white + 1 red: within reach
    assert g.stalled(tools(g).scenario_state(stuck)) is None
    stuck["deck"] = {"era2": ["E2-FIN-1"]}  # a card still to come may change the dice
    stuck["stacks"][2] = ["D3", "M3", "L4"]
    assert g.stalled(tools(g).scenario_state(stuck)) is None


def test_grounds_name_the_decisive_dice_sources_first() -> None:
    """Game.grounds: a die the attempt cannot do without names the rule that gives it."""
    g = game()
    # Engineer (fixed red 4), Finance (2 red), era 2 (the entrepreneur's red die); the target needs 2 red.
    s = given(g, boards={0: {"cards": ["E1-ENR-1", "E2-FIN-3"]}}, era=2, display=["E2-HAN-3"])
    three = AttemptTarget("development:E2-HAN-3", Dice(R=3))  # needs the era-2 red die and the Finance dice
    assert g.grounds(s, three)[:4] == ("AIR-R-25", "AIR-R-13", "AIR-R-12", "AIR-R-15")
    one = AttemptTarget("development:E2-HAN-3", Dice(R=1))  # 1 thrown + the fixed die: the Engineer is decisive
    grounds = g.grounds(s, one)
    assert grounds[:2] == ("AIR-R-12", "AIR-R-18")
    assert "AIR-R-25" not in grounds and "AIR-R-15" not in grounds
    assert {"AIR-R-26", "AIR-R-27", "AIR-R-30"} <= set(grounds)
