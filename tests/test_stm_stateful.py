"""Steamopolis as a Hypothesis state machine (rulecraft.testing.GameMachine): legal actions only
(chance by its outcomes), over generated component packs, 1 to 4 players (1: the solo game with a
drawn start score, STM-R-68) and the modelled readings, every invariant after every step (digest
3.14) and every step invariant, the fast move generator against the check, the state's JSON round
trip, and the outcome at game over (STM-R-67; solo: no winner when lost on time pressure, STM-R-69,
else seat 0 and a rank, STM-R-73)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant, precondition, rule

from rulecraft.core import Game
from rulecraft.invariants.steamopolis import check_step
from rulecraft.model.steamopolis.actions import BuyBanner, BuyBonusMarker, BuyMachine, TakeBack, UseDistrict
from rulecraft.model.steamopolis.game import SOLO_LOST, SteamopolisGame
from rulecraft.model.steamopolis.policies import purposeful
from rulecraft.model.steamopolis.readings import NEEDS_PACK_DATA, NOT_MODELLED, REGISTER
from rulecraft.model.steamopolis.rules import SOLO_RANKS, legal_actions, legal_actions_by_check
from rulecraft.model.steamopolis.strategies import packs
from rulecraft.ruleset import Ruleset
from rulecraft.testing import GameMachine

# Readings that need pack data the drawn packs lack (NEEDS_PACK_DATA) are refused with them: left out.
READINGS = sorted(
    (a.id, r.key)
    for a in REGISTER
    for r in a.readings
    if r.key != a.default and (a.id, r.key) not in NOT_MODELLED | frozenset(NEEDS_PACK_DATA)
)
# Random play seldom buys: the leaning rule prefers what moves the game on (purchases, flights).
BUSY = (BuyMachine, BuyBanner, BuyBonusMarker, UseDistrict, TakeBack)


def _game(pack: Any, chosen: list[tuple[str, str]], start_vp: int) -> SteamopolisGame:
    return SteamopolisGame(Ruleset.from_overrides(REGISTER, dict(chosen)), pack, {"solo_start_vp": start_vp})


class SteamopolisMachine(GameMachine):
    game_id = "stm"
    game: SteamopolisGame

    def games(self) -> st.SearchStrategy[Game[Any, Any]]:
        chosen = st.lists(st.sampled_from(READINGS), max_size=2, unique_by=lambda pair: pair[0])
        return st.builds(_game, st.one_of(st.none(), packs()), chosen, st.integers(1, 10))

    def start_state(self, game: Game[Any, Any], data: st.DataObject) -> Any:
        players = data.draw(st.integers(1, 4), label="players")
        return game.new_game(players, first_game=data.draw(st.booleans(), label="first_game"))

    def leans_to(self, action: Any) -> bool:
        return isinstance(action, BUSY)

    def no_legal_action(self) -> None:
        """STM-AMB-12 'stuck': where none of the three actions is possible there is no move, and the game
        says so (``stalled``); anywhere else a seat without a move is a bug."""
        why = self.game.stalled(self.state)
        if why is None or not why.startswith("STM-AMB-12 'stuck'"):
            super().no_legal_action()
        self.stopped = why

    def step_violations(self, before: Any, action: Any, after: Any) -> Sequence[Any]:
        return check_step(self.game, before, after)

    def check_outcome(self) -> None:
        super().check_outcome()
        scores = self.game.scores(self.state)
        if self.state.solo is not None:
            lost = self.game.solo_lost(self.state)
            assert self.game.winners(self.state) == (() if lost else (0,)), "STM-R-69/73"
            rank = self.game.solo_rank(self.state)
            assert rank == SOLO_LOST if lost else rank in dict(SOLO_RANKS).values()
            return
        (winner,) = self.game.winners(self.state)
        assert scores[winner] == max(scores.values()), "STM-R-67: the winner has the most VP"

    @precondition(lambda self: isinstance(self.game.to_move(self.state), int))
    @rule(rng=st.randoms(use_true_random=False))
    def seat_plays_purposefully(self, rng: random.Random) -> None:
        """The 'purposeful' playout policy (towards passengers and markets) reaches the late game."""
        action = purposeful(self.game, self.state, rng)
        assert action in self.game.legal_actions(self.state)
        self._apply(action)

    @invariant()
    def fast_generation_agrees_with_the_check(self) -> None:
        """python-chess style: the fast generator lists exactly the candidates ``check`` accepts, in order."""
        if isinstance(self.game.to_move(self.state), int):
            assert legal_actions(self.game.ctx, self.state) == legal_actions_by_check(self.game.ctx, self.state)


TestSteamopolis = SteamopolisMachine.TestCase
# A turn is several small decisions: longer runs than the profile's default reach flights and purchases.
TestSteamopolis.settings = settings(
    stateful_step_count=max(200, settings().stateful_step_count),
    max_examples=max(8, settings().max_examples // 4),
    deadline=None,
)
