"""One Hypothesis state machine for Steamopolis: legal actions only (chance by its
outcomes), over generated component packs, 1 to 4 players (1: the solo game with a drawn
start score, STM-R-68) and the modelled readings, every invariant after every step
(digest 3.14) and every step invariant, the fast move generator against the check, the
state's JSON round trip, and the outcome at game over (STM-R-67; solo: no winner when
lost on time pressure, STM-R-69, else seat 0 and a rank, STM-R-73)."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rulecraft.core import Chance, GameOver
from rulecraft.invariants.steamopolis import check_step
from rulecraft.model.steamopolis.actions import BuyBanner, BuyBonusMarker, BuyMachine, TakeBack, UseDistrict
from rulecraft.model.steamopolis.game import SOLO_LOST, SOLO_RANKS, SteamopolisGame
from rulecraft.model.steamopolis.policies import purposeful
from rulecraft.model.steamopolis.readings import NOT_MODELLED, REGISTER
from rulecraft.model.steamopolis.rules import legal_actions, legal_actions_by_check
from rulecraft.model.steamopolis.state import StmState
from rulecraft.model.steamopolis.strategies import packs
from rulecraft.ruleset import Ruleset

READINGS = sorted(
    (a.id, r.key) for a in REGISTER for r in a.readings if r.key != a.default and (a.id, r.key) not in NOT_MODELLED
)
# Random play seldom buys: this rule leans towards what moves the game on (purchases, flights).
BUSY = (BuyMachine, BuyBanner, BuyBonusMarker, UseDistrict, TakeBack)


class SteamopolisMachine(RuleBasedStateMachine):
    game: SteamopolisGame
    state: StmState
    steps: int

    @initialize(
        players=st.integers(1, 4),
        pack=st.one_of(st.none(), packs()),
        chosen=st.lists(st.sampled_from(READINGS), max_size=2, unique_by=lambda pair: pair[0]),
        first_game=st.booleans(),
        start_vp=st.integers(1, 10),
    )
    def start(self, players: int, pack: Any, chosen: list[tuple[str, str]], first_game: bool, start_vp: int) -> None:
        ruleset = Ruleset.from_overrides(REGISTER, dict(chosen))
        self.game = SteamopolisGame(ruleset, pack, {"solo_start_vp": start_vp})
        self.state = self.game.new_game(players, first_game=first_game)
        self.steps = 0

    def _mover(self) -> Any:
        return self.game.to_move(self.state)

    def _apply(self, action: Any) -> None:
        rejection = self.game.check(self.state, action)
        assert rejection is None, rejection
        before = self.state
        self.state = self.game.apply(self.state, action)
        self.steps += 1
        changes = check_step(self.game.ctx, before, self.state)
        assert not changes, "\n".join(map(str, changes)) + f"\nafter step {self.steps}: {action!r}"

    @precondition(lambda self: isinstance(self._mover(), int))
    @rule(data=st.data())
    def seat_plays_a_legal_action(self, data: st.DataObject) -> None:
        legal = self.game.legal_actions(self.state)
        assert legal, "a seat to move always has a legal action (STM-AMB-12 'pass')"
        self._apply(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: isinstance(self._mover(), int))
    @rule(data=st.data())
    def seat_prefers_flights_and_purchases(self, data: st.DataObject) -> None:
        legal = self.game.legal_actions(self.state)
        busy = [a for a in legal if isinstance(a, BUSY)]
        self._apply(data.draw(st.sampled_from(busy or legal)))

    @precondition(lambda self: isinstance(self._mover(), int))
    @rule(rng=st.randoms(use_true_random=False))
    def seat_plays_purposefully(self, rng: random.Random) -> None:
        """The 'purposeful' playout policy (towards passengers and markets) reaches the late game."""
        action = purposeful(self.game, self.state, rng)
        assert action in self.game.legal_actions(self.state)
        self._apply(action)

    @precondition(lambda self: isinstance(self._mover(), Chance))
    @rule(data=st.data())
    def chance_deals(self, data: st.DataObject) -> None:
        outcomes = self.game.chance_outcomes(self.state)
        assert sum((p for _, p in outcomes), Fraction(0)) == 1
        self._apply(data.draw(st.sampled_from([a for a, _ in outcomes])))

    @precondition(lambda self: isinstance(self._mover(), GameOver))
    @rule()
    def game_over(self) -> None:
        scores = self.game.scores(self.state)
        if self.state.solo is not None:
            lost = self.game.solo_lost(self.state)
            assert self.game.winners(self.state) == (() if lost else (0,)), "STM-R-69/73"
            rank = self.game.solo_rank(self.state)
            assert rank == SOLO_LOST if lost else rank in dict(SOLO_RANKS).values()
            return
        (winner,) = self.game.winners(self.state)
        assert scores[winner] == max(scores.values()), "STM-R-67: the winner has the most VP"

    @invariant()
    def every_invariant_holds(self) -> None:
        violations = self.game.violations(self.state)
        assert not violations, "\n".join(map(str, violations)) + f"\nafter step {self.steps}"

    @invariant()
    def generation_agrees_with_the_check(self) -> None:
        """python-chess style: the fast generator lists exactly the candidates ``check`` accepts, in order."""
        if isinstance(self._mover(), int):
            assert legal_actions(self.game.ctx, self.state) == legal_actions_by_check(self.game.ctx, self.state)

    @invariant()
    def state_round_trips_through_json(self) -> None:
        text = json.dumps(self.game.state_to_json(self.state))
        assert self.game.state_from_json(json.loads(text)) == self.state


TestSteamopolis = SteamopolisMachine.TestCase
# A turn is several small decisions: longer runs than the profile's default reach flights and purchases.
TestSteamopolis.settings = settings(
    stateful_step_count=max(200, settings().stateful_step_count),
    max_examples=max(8, settings().max_examples // 4),
    deadline=None,
)
