"""Airships readings, one ambiguity at a time: a small state where the default
and the alternative reading part ways, with the difference reasoned from the
rule text (../shared/rules/airships.md, section 5)."""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.core import NotApplicable
from rulecraft.model.airships.actions import AttemptTarget, EndGo, ExtraGo, Reveal, Throw
from rulecraft.model.airships.components import Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState
from rulecraft.registry import make_game
from rulecraft.solvers.airships.queries import QUERIES
from rulecraft.tools import tools


def game(**readings: str) -> AirshipsGame:
    g = make_game("air", readings=readings)
    assert isinstance(g, AirshipsGame)
    return g


def given(g: AirshipsGame, **spec: Any) -> AirState:
    return tools(g).scenario_state(spec)


def attempts_at(g: AirshipsGame, state: AirState, target: str) -> set[Dice]:
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
        assert tools(g).facts(s)["dice"][0] == {"W": 3, "R": 1, "B": 0}
        supply = s.supplies[0]
        s = g.apply(g.apply(s, AttemptTarget(target, Dice(W=3, R=1))), Throw(W=(3, 3, 1), R=(2,)))
        results[reading] = (s.boards[0].departments[3], s.boards[0].chips, s.supplies[0] - supply)
    assert results["exact"] == (None, 1, -1)
    assert results["any"] == ("E1-ENR-3", 0, 0)


def _extra_go_attempt(g: AirshipsGame, s: AirState, reveal: str) -> AirState:
    """AIR-R-42: pay 3 chips; the additional go reveals a card (step 1), then step 2."""
    return g.apply(g.apply(s, ExtraGo()), Reveal(reveal))


def test_air_amb_01_every_success_adds_a_red_die_from_then_on() -> None:
    """AIR-AMB-01: 'if the throw is successful ... from then on the player has an
    extra red die too' (p.3).  Entrepreneur + S-FIN give 2 W; E1-HAN-1 (2 W for 4,
    gives 1 W) is won with 3 + 2.  'caption' reads the sentence as the example
    card's picture: the company has 3 W and no red.  'every-success' reads it as a
    rule: the success adds a red die at once, counted like card dice (AIR-R-12),
    so in the additional go (3 chips, AIR-R-42) E1-ENR-3 (1 W + 1 R) becomes a
    legal target, with 1 to 3 whites (AIR-AMB-35 'choice') and the one red."""
    spec: dict[str, Any] = {
        "boards": {0: {"cards": ["S-FIN"], "chips": 3}},
        "display": ["E1-HAN-1", "E1-ENR-3"],
        "deck": {"era1": ["E1-FIN-1"]},
    }
    target = "development:E1-ENR-3"
    legal = {}
    for reading in ("caption", "every-success"):
        g = game(**{"AIR-AMB-01": reading})
        s = given(g, **spec)
        assert attempts_at(g, s, target) == set()
        s = g.apply(g.apply(s, AttemptTarget("development:E1-HAN-1", Dice(W=2))), Throw(W=(3, 2)))
        assert s.boards[0].departments[1] == "E1-HAN-1" and s.boards[0].chips == 3
        red = 1 if reading == "every-success" else 0
        assert s.boards[0].extra_red_dice == red
        assert tools(g).facts(s)["dice"][0] == {"W": 3, "R": red, "B": 0}
        legal[reading] = attempts_at(g, _extra_go_attempt(g, s, "E1-FIN-1"), target)
    assert legal["caption"] == set()
    assert legal["every-success"] == {Dice(W=1, R=1), Dice(W=2, R=1), Dice(W=3, R=1)}


def test_air_amb_01_any_successful_attempt_counts_a_failure_does_not() -> None:
    """AIR-AMB-01 'every-success': a success is a successful attempt (AIR-R-34),
    whatever the target: winning airship card L1 (2 W for 6, thrown 3 + 3) adds
    a red die as a development card does.  A failed throw (1 + 1) adds none; it
    earns the failure chip (AIR-R-41) under both readings."""
    spec: dict[str, Any] = {"boards": {0: {"cards": ["S-FIN"], "chips": 0}}}
    for faces, won, red in (((3, 3), True, 1), ((1, 1), False, 0)):
        for reading in ("caption", "every-success"):
            g = game(**{"AIR-AMB-01": reading})
            s = given(g, **spec)
            s = g.apply(g.apply(s, AttemptTarget("airship:1", Dice(W=2))), Throw(W=faces))
            assert (s.boards[0].airships == ("L1",)) is won
            assert s.boards[0].chips == (0 if won else 1)
            assert s.boards[0].extra_red_dice == (red if reading == "every-success" else 0)


def test_air_amb_26_a_card_won_counts_only_from_the_next_turn() -> None:
    """AIR-AMB-26: entrepreneur + S-FIN give 2 W.  E1-PIL-2 (Pilot, 2 W for 5,
    gives 1 R and 1 chip) is won with 3 + 2.  Its chip comes at once under both
    readings (AIR-R-39: taken when the card is won), making the 3 chips of an
    additional go.  'next-throw' counts the red die in that additional go, so
    E1-ENR-3 (1 W + 1 R) is a legal target; 'next-turn' keeps the card's effect
    for the player's next regular go: in the additional go the company has only
    its 2 W and cannot attempt E1-ENR-3.  When the turn ends, the red die counts."""
    spec: dict[str, Any] = {
        "boards": {0: {"cards": ["S-FIN"], "chips": 2}},
        "display": ["E1-PIL-2", "E1-ENR-3"],
        "deck": {"era1": ["E1-FIN-1"]},
    }
    target = "development:E1-ENR-3"
    legal = {}
    for reading in ("next-throw", "next-turn"):
        g = game(**{"AIR-AMB-26": reading})
        s = given(g, **spec)
        s = g.apply(g.apply(s, AttemptTarget("development:E1-PIL-2", Dice(W=2))), Throw(W=(3, 2)))
        assert s.boards[0].departments[2] == "E1-PIL-2" and s.boards[0].chips == 3
        waiting = ("E1-PIL-2",) if reading == "next-turn" else ()
        assert s.boards[0].won_this_turn == waiting
        extra = _extra_go_attempt(g, s, "E1-FIN-1")
        assert tools(g).facts(extra)["dice"][0] == {"W": 2, "R": 0 if waiting else 1, "B": 0}
        legal[reading] = attempts_at(g, extra, target)
        # The turn ends (no additional go): from seat 0's next regular go the card counts.
        after = g.apply(s, EndGo())
        assert after.seat == 1 and after.boards[0].won_this_turn == ()
        assert tools(g).facts(after)["dice"][0] == {"W": 2, "R": 1, "B": 0}
    assert legal["next-throw"] == {Dice(W=1, R=1), Dice(W=2, R=1)}
    assert legal["next-turn"] == set()


def test_air_amb_26_next_turn_a_replaced_card_is_gone_and_its_successor_waits() -> None:
    """AIR-AMB-26 'next-turn': seat 0 holds E1-HAN-2 (Hangar, 1 R) and wins
    E1-HAN-1 (Hangar, 2 W for 4, gives 1 W) with 2 + 2.  AIR-R-38: the old card
    leaves the game at once, so its red die is lost at once under both readings;
    the new white die counts in the additional go only under 'next-throw'."""
    spec: dict[str, Any] = {
        "boards": {0: {"cards": ["S-FIN", "E1-HAN-2"], "chips": 3}},
        "display": ["E1-HAN-1"],
    }
    dice = {}
    for reading in ("next-throw", "next-turn"):
        g = game(**{"AIR-AMB-26": reading})
        s = given(g, **spec)
        assert tools(g).facts(s)["dice"][0] == {"W": 2, "R": 1, "B": 0}
        s = g.apply(g.apply(s, AttemptTarget("development:E1-HAN-1", Dice(W=2))), Throw(W=(2, 2)))
        assert s.boards[0].departments[1] == "E1-HAN-1" and s.removed[-1] == "E1-HAN-2"
        dice[reading] = tools(g).facts(s)["dice"][0]
    assert dice["next-throw"] == {"W": 3, "R": 0, "B": 0}
    assert dice["next-turn"] == {"W": 2, "R": 0, "B": 0}


def test_the_unused_board_records_stay_out_of_the_canonical_state() -> None:
    """docs/protocol.md: extra_red_dice and won_this_turn appear only when in use,
    so the printed rules' state reads as before; a state without them loads."""
    g = game(**{"AIR-AMB-26": "next-turn"})
    s = given(g, boards={0: {"cards": ["S-FIN"], "chips": 3}}, display=["E1-HAN-1"])
    data = g.state_to_json(s)
    assert set(data["boards"][0]) == {"nation", "departments", "airships", "chips"}
    assert g.state_from_json(data) == s
    s = g.apply(g.apply(s, AttemptTarget("development:E1-HAN-1", Dice(W=2))), Throw(W=(3, 2)))
    data = g.state_to_json(s)  # the additional go is open: the turn goes on
    assert data["boards"][0]["won_this_turn"] == ["E1-HAN-1"]
    assert g.state_from_json(data) == s


@pytest.mark.parametrize("reading", [("AIR-AMB-01", "every-success"), ("AIR-AMB-26", "next-turn")])
def test_the_solver_queries_refuse_the_readings_they_do_not_encode(reading: tuple[str, str]) -> None:
    g = game(**{reading[0]: reading[1]})
    params = {"dice": "W=2", "need": "W=2", "target": 5}
    for query in QUERIES.values():
        with pytest.raises(NotApplicable, match=reading[0]):
            query.run(g, params)


# -- the other reading of AIR-AMB-12, 17, 19 and 24 (issue 22: a reading that can be chosen is tested) -----


@pytest.mark.parametrize("supply", [0, 1, 2, 5])
def test_air_amb_24_pilot_chips_with_a_short_supply(supply: int) -> None:
    """AIR-R-39 (p.6): a Pilot won by a throw brings its N chips 'if there are still some'.
    E1-PIL-1 (2 W for 5, 2 chips) won with 3 + 2 by seat 0 (S-FIN: 2 W, no chips on the board).
    'partial' takes as many as the supply holds (min(2, supply)); 'all-or-none' takes both or none."""
    spec: dict[str, Any] = {"boards": {0: {"cards": ["S-FIN"], "chips": 0, "supply": supply}}, "display": ["E1-PIL-1"]}
    expected = {"partial": min(2, supply), "all-or-none": 2 if supply >= 2 else 0}
    for reading, chips in expected.items():
        g = game(**{"AIR-AMB-24": reading})
        s = given(g, **spec)
        s = g.apply(g.apply(s, AttemptTarget("development:E1-PIL-1", Dice(W=2))), Throw(W=(3, 2)))
        assert s.boards[0].departments[2] == "E1-PIL-1", "won: the Pilot field"
        assert s.boards[0].chips == chips, (reading, supply)
        assert s.supplies[0] == supply - chips, "the chips come out of the company's own supply"


def test_air_amb_19_stage_four_alone_ends_the_game_only_under_its_reading() -> None:
    """AIR-R-47 (b) (p.5): the game ends when 'the fourth stage is completed'.  Stage 4 owned by seat 1,
    stages 1-3 open; seat 0 fails an attempt on L1 (1 + 1 against 6), a step 2 after which the end is
    checked.  'stage-four': stage 4 is done, the game is over (b).  'all-four' (default): three stages
    are still open, the game goes on.  AIR-R-48: the high values only when all four are completed, so
    the owner of stage 4 scores its low value (6) either way."""
    spec: dict[str, Any] = {
        "boards": {0: {"cards": ["S-FIN"], "chips": 0}, 1: {"cards": ["S-HAN"], "chips": 0}},
        "hindenburg": True,
        "stages": {4: 1},
    }
    ends = {}
    for reading in ("all-four", "stage-four"):
        g = game(**{"AIR-AMB-19": reading})
        s = given(g, **spec)
        assert g.scores(s)[1] == 6, "stage 4's low value (reconstructed pack: 6 low, 8 high)"
        s = g.apply(g.apply(s, AttemptTarget("airship:1", Dice(W=2))), Throw(W=(1, 1)))
        ends[reading] = (g.is_over(s), s.ended)
        assert g.scores(s)[1] == 6
    assert ends == {"all-four": (False, None), "stage-four": (True, "b")}


def test_air_amb_12_optional_bonuses_are_a_choice_after_the_throw() -> None:
    """AIR-R-34/35 (p.4): the engine bonus 'may' be used.  Seat 0 holds E1-ENG-1 (+1 for any throw)
    and attempts L1 (2 W for 6), throwing 3 + 2 = 5.  'auto' (default) adds the +1 at once: won.
    'optional' stops for the choice (phase bonus): with the engine the card is won; without it the
    attempt fails and earns the failure chip (AIR-R-41).  Under 'auto' declining the engine is refused
    (AIR-R-34)."""
    spec: dict[str, Any] = {"boards": {0: {"cards": ["S-FIN", "E1-ENG-1"], "chips": 0}}}
    auto = game()
    s = given(auto, **spec)
    s = auto.apply(auto.apply(s, AttemptTarget("airship:1", Dice(W=2))), Throw(W=(3, 2)))
    assert s.boards[0].airships == ("L1",)
    from rulecraft.model.airships.actions import Resolve
    from rulecraft.model.airships.state import Phase

    optional = game(**{"AIR-AMB-12": "optional"})
    thrown = optional.apply(
        optional.apply(given(optional, **spec), AttemptTarget("airship:1", Dice(W=2))), Throw(W=(3, 2))
    )
    assert thrown.phase is Phase.BONUS
    choices = set(optional.legal_actions(thrown))
    assert {Resolve(False, True, False), Resolve(False, False, False)} <= choices
    assert all(not r.chip for r in choices if isinstance(r, Resolve)), "no chip to spend"
    used = optional.apply(thrown, Resolve(False, True, False))
    assert used.boards[0].airships == ("L1",)
    declined = optional.apply(thrown, Resolve(False, False, False))
    assert declined.boards[0].airships == () and declined.boards[0].chips == 1
    # 'auto': a short throw with a chip stops for the chip alone; declining the engine is refused
    short = auto.apply(
        auto.apply(
            given(auto, boards={0: {"cards": ["S-FIN", "E1-ENG-1"], "chips": 1}}), AttemptTarget("airship:1", Dice(W=2))
        ),
        Throw(W=(2, 2)),
    )
    assert short.phase is Phase.BONUS
    refused = auto.check(short, Resolve(True, False, True))
    assert refused is not None and refused.rule == "AIR-R-34"
    assert auto.apply(short, Resolve(True, True, True)).boards[0].airships == ("L1",), "2 + 2 + 1 + chip = 6"


def test_air_amb_17_an_overflow_during_set_up_counts_against_n_draws_only_under_its_reading() -> None:
    """AIR-R-06 (p.2): 'draw as many cards that 6 development cards lie on the board'.  Four players:
    S-ENG, S-ENR, S-FIN and S-HAN are dealt, S-PIL and S-MAT lie face up.  The set-up draws
    E1-MAT-1, E1-MAT-2, E1-MAT-3: the third overflows the Materials row (AIR-R-24), S-MAT leaves the
    game.  'until-six' (default) draws until 6 cards lie: two more.  'n-draws' draws exactly n = 4
    cards: one more, and 5 lie on the board when the first go begins."""
    from rulecraft.model.airships.state import Phase
    from rulecraft.model.airships.transitions import displayed

    wanted = ["S-ENG", "S-ENR", "S-FIN", "S-HAN", "E1-MAT-1", "E1-MAT-2", "E1-MAT-3", "E1-FIN-1", "E1-HAN-1"]
    on_board = {}
    for reading in ("until-six", "n-draws"):
        g = game(**{"AIR-AMB-17": reading})
        s = g.new_game(4)
        queue = list(wanted)
        while s.phase in (Phase.DEAL_AIRSHIPS, Phase.DEAL_STARTERS, Phase.FILL_DISPLAY):
            outcomes = [a for a, _ in g.chance_outcomes(s)]
            named = [a for a in outcomes if queue and g.action_to_json(a).get("card") == queue[0]]
            if named:
                queue.pop(0)
            s = g.apply(s, named[0] if named else outcomes[0])
        assert "S-MAT" in s.removed, "the overflow put S-MAT out of the game"
        on_board[reading] = displayed(s)
    assert on_board == {"until-six": 6, "n-draws": 5}
