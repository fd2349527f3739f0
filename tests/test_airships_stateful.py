"""Airships as a Hypothesis state machine: legal play only, every invariant every step.

The machine starts from ``new_game(players)`` (2-4 players, readings and the
component pack optionally drawn) and then plays only actions from the
current legal set: a seat's action from ``legal_actions``, a chance action
from ``chance_outcomes``.  After every step it checks the named invariants
of ``rulecraft.invariants.airships``, the JSON and ``repr`` round trips,
hash/eq consistency, and that generation and the check agree.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

from hypothesis import note, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from rulecraft.core import Chance, GameOver, IllegalAction
from rulecraft.invariants.airships import check_all, report
from rulecraft.model.airships.actions import EndGo
from rulecraft.model.airships.components import Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirshipsState, Attempt, CompanyBoard, Phase
from rulecraft.strategies import airships_games, airships_packs, player_counts, readings

# The names a state's repr uses (the design wants reprs that are valid Python).
REPR_NAMESPACE: dict[str, Any] = {
    "AirshipsState": AirshipsState,
    "CompanyBoard": CompanyBoard,
    "Attempt": Attempt,
    "Phase": Phase,
    "Dice": Dice,
}


def _seat_to_move(machine: AirshipsMachine) -> bool:
    return isinstance(machine.game.to_move(machine.state), int)


def _chance_to_move(machine: AirshipsMachine) -> bool:
    return isinstance(machine.game.to_move(machine.state), Chance)


def _game_over(machine: AirshipsMachine) -> bool:
    return isinstance(machine.game.to_move(machine.state), GameOver)


def _not_over(machine: AirshipsMachine) -> bool:
    return not _game_over(machine)


class AirshipsMachine(RuleBasedStateMachine):
    game: AirshipsGame
    state: AirshipsState

    def __init__(self) -> None:
        super().__init__()
        self.steps = 0
        self.log: list[Any] = []

    @initialize(
        game=airships_games(
            readings=st.just({}) | readings("air"),
            packs=st.none() | airships_packs(),
        ),
        data=st.data(),
    )
    def new_game(self, game: Any, data: st.DataObject) -> None:
        assert isinstance(game, AirshipsGame)
        self.game = game
        players = data.draw(player_counts(game), label="players")
        first = data.draw(st.integers(0, players - 1), label="first_seat")
        # AIR-R-07: the nations chosen, seat by seat (default: the pack's order)
        chosen = data.draw(st.none() | st.permutations(game.pack.nations), label="nations")
        options = {} if chosen is None else {"nations": tuple(chosen[:players])}
        self.state = game.new_game(players, first_seat=first, **options)
        note(f"game: {game!r}; pack {game.pack.source}")

    def _apply(self, action: Any) -> None:
        self.state = self.game.apply(self.state, action)
        self.steps += 1
        self.log.append(action)

    def _assert_invariants(self) -> None:
        violations = check_all(self.game, self.state)
        assert violations == [], report(violations, where=f"after step {self.steps}") + (
            f"\nlast actions: {self.log[-5:]!r}"
        )

    # -- moves --------------------------------------------------------------------

    @precondition(_seat_to_move)
    @rule(data=st.data())
    def seat_moves(self, data: st.DataObject) -> None:
        actions = list(self.game.legal_actions(self.state))
        assert actions, f"seat {self.state.seat} to move in {self.state.phase} with no legal action"
        self._apply(data.draw(st.sampled_from(actions), label="action"))

    @precondition(_chance_to_move)
    @rule(data=st.data())
    def chance_moves(self, data: st.DataObject) -> None:
        outcomes = [a for a, _ in self.game.chance_outcomes(self.state)]
        self._apply(data.draw(st.sampled_from(outcomes), label="chance"))

    @precondition(_chance_to_move)
    @rule(rng=st.randoms(use_true_random=False))
    def chance_by_its_odds(self, rng: random.Random) -> None:
        action = self.game.sample_chance(self.state, rng)
        support = [a for a, _ in self.game.chance_outcomes(self.state)]
        assert action in support, f"sample_chance gave {action!r}, outside chance_outcomes"
        self._apply(action)

    @precondition(_not_over)
    @rule(rng=st.randoms(use_true_random=False), steps=st.integers(1, 40))
    def play_on(self, rng: random.Random, steps: int) -> None:
        """Several random legal steps at once, so runs reach the late game;
        the invariants are still checked after every single step."""
        for _ in range(steps):
            mover = self.game.to_move(self.state)
            if isinstance(mover, GameOver):
                return
            if isinstance(mover, Chance):
                action = self.game.sample_chance(self.state, rng)
            else:
                action = rng.choice(list(self.game.legal_actions(self.state)))
            self._apply(action)
            self._assert_invariants()

    @precondition(_game_over)
    @rule()
    def nothing_after_the_end(self) -> None:
        assert list(self.game.legal_actions(self.state)) == []
        assert list(self.game.chance_outcomes(self.state)) == []
        rejection = self.game.check(self.state, EndGo())
        assert rejection is not None and rejection.rule == "AIR-R-47"
        try:
            self.game.apply(self.state, EndGo())
        except IllegalAction as exc:
            assert exc.rejection == rejection
        else:  # pragma: no cover - a failure
            raise AssertionError("an action was applied after the game ended")

    @precondition(_game_over)
    @rule()
    def winners_are_the_best(self) -> None:
        scores = self.game.scores(self.state)
        winners = self.game.winners(self.state)
        assert set(winners) <= set(range(self.state.players))
        if winners:
            best = max(scores.values())
            assert all(scores[w] == best for w in winners), (scores, winners)

    # -- invariants -----------------------------------------------------------------

    @invariant()
    def named_invariants_hold(self) -> None:
        self._assert_invariants()

    @invariant()
    def json_round_trip(self) -> None:
        data = self.game.state_to_json(self.state)
        assert self.game.state_from_json(data) == self.state
        text = json.dumps(data)
        assert self.game.state_from_json(json.loads(text)) == self.state

    @invariant()
    def hash_agrees_with_eq(self) -> None:
        copy = self.game.state_from_json(self.game.state_to_json(self.state))
        assert copy == self.state and hash(copy) == hash(self.state)

    @invariant()
    def repr_is_python(self) -> None:
        # Holds for the current state.py (Phase and Dice have evaluable reprs).
        rebuilt = eval(repr(self.state), dict(REPR_NAMESPACE))
        assert rebuilt == self.state

    @invariant()
    def generation_agrees_with_check(self) -> None:
        for action in self.game.legal_actions(self.state):
            rejection = self.game.check(self.state, action)
            assert rejection is None, f"legal_actions offers {action!r}; check says {rejection}"
        outcomes = list(self.game.chance_outcomes(self.state))
        if outcomes:
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert all(p > 0 for _, p in outcomes)
            for action, _ in outcomes:
                assert self.game.check(self.state, action) is None, action


TestAirships = AirshipsMachine.TestCase
# The loaded profile: ci unless RULECRAFT_PROFILE says otherwise.
TestAirships.settings = settings()
