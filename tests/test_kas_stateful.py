"""One Hypothesis state machine for Kings of Air and Steam: legal actions
only (chance by its outcomes), over generated component packs, player
counts 2-7 and the modelled readings, every invariant after every step (KAS-R-56)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rulecraft.core import Chance, GameOver
from rulecraft.invariants.kings_of_air_and_steam import check_all, report
from rulecraft.model.kings_of_air_and_steam.actions import Load, ShipGoods, Swap, Unload
from rulecraft.model.kings_of_air_and_steam.game import KasGame
from rulecraft.model.kings_of_air_and_steam.readings import MODELLED_ALTERNATIVES, REGISTER
from rulecraft.model.kings_of_air_and_steam.state import KasState
from rulecraft.model.kings_of_air_and_steam.strategies import packs
from rulecraft.ruleset import Ruleset

READINGS = sorted(MODELLED_ALTERNATIVES)


class KasMachine(RuleBasedStateMachine):
    game: KasGame
    state: KasState
    steps: int

    @initialize(
        players=st.integers(2, 7),
        first=st.integers(0, 6),
        pack=st.one_of(st.none(), packs()),
        chosen=st.lists(st.sampled_from(READINGS), max_size=2, unique_by=lambda pair: pair[0]),
    )
    def start(self, players: int, first: int, pack: Any, chosen: list[tuple[str, str]]) -> None:
        readings = dict(chosen)
        if readings.get("KAS-AMB-47") == "cutthroat" and players != 3:
            readings.pop("KAS-AMB-47")
        self.game = KasGame(Ruleset.from_overrides(REGISTER, readings), pack)
        self.state = self.game.new_game(players, first_seat=first % players)
        self.steps = 0

    def _mover(self) -> Any:
        return self.game.to_move(self.state)

    def _apply(self, action: Any) -> None:
        assert self.game.check(self.state, action) is None
        self.state = self.game.apply(self.state, action)
        self.steps += 1

    @precondition(lambda self: isinstance(self._mover(), int))
    @rule(data=st.data())
    def seat_plays_a_legal_action(self, data: st.DataObject) -> None:
        legal = self.game.legal_actions(self.state)
        assert legal, "a seat to move always has a legal action"
        self._apply(data.draw(st.sampled_from(legal)))

    @precondition(lambda self: isinstance(self._mover(), int))
    @rule(data=st.data())
    def seat_moves_goods_when_it_can(self, data: st.DataObject) -> None:
        """Random play seldom ships; this rule prefers loading, unloading and shipping."""
        legal = self.game.legal_actions(self.state)
        busy = [a for a in legal if isinstance(a, ShipGoods | Load | Swap | Unload)]
        self._apply(data.draw(st.sampled_from(busy or legal)))

    @precondition(lambda self: isinstance(self._mover(), Chance))
    @rule(data=st.data())
    def chance_draws(self, data: st.DataObject) -> None:
        outcomes = self.game.chance_outcomes(self.state)
        assert sum((p for _, p in outcomes), Fraction(0)) == 1
        self._apply(data.draw(st.sampled_from([a for a, _ in outcomes])))

    @precondition(lambda self: isinstance(self._mover(), GameOver))
    @rule()
    def game_over(self) -> None:
        scores = self.game.scores(self.state)
        winners = self.game.winners(self.state)
        assert winners and all(scores[w] == max(scores.values()) for w in winners)

    @invariant()
    def every_invariant_holds(self) -> None:
        violations = check_all(self.game, self.state)
        assert not violations, report(violations, where=f"after step {self.steps}")

    @invariant()
    def state_round_trips_through_json(self) -> None:
        text = json.dumps(self.game.state_to_json(self.state))
        assert self.game.state_from_json(json.loads(text)) == self.state


TestKas = KasMachine.TestCase
# A Kings of Air and Steam game is several hundred steps long: fewer, longer
# runs than the profile's default reach the later rounds, upkeep and the sellout.
TestKas.settings = settings(
    stateful_step_count=max(300, settings().stateful_step_count),
    max_examples=max(8, settings().max_examples // 4),
)
