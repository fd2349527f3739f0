"""Airships as a Hypothesis state machine (rulecraft.testing.GameMachine): legal play only, every
invariant every step.

The machine starts from ``new_game(players)`` (2-4 players, the nations chosen or the pack's order
(AIR-R-07), readings and the component pack optionally drawn) and plays only actions from the current
legal set.  After every step the general checks of :class:`~rulecraft.testing.GameMachine` run (the
named invariants of ``rulecraft.invariants.airships``, generation against the check, exact chance
odds, JSON round trip, hash against equality) and the state's repr is evaluated back (valid Python).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from hypothesis import note
from hypothesis import strategies as st
from hypothesis.stateful import precondition, rule

from rulecraft.core import Game, GameOver, IllegalAction
from rulecraft.model.airships.actions import EndGo
from rulecraft.model.airships.components import Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState, Attempt, CompanyBoard, Phase
from rulecraft.strategies import games, packs, player_counts, readings
from rulecraft.testing import GameMachine


class AirshipsMachine(GameMachine):
    game_id = "air"
    # The names a state's repr uses (the design wants reprs that are valid Python).
    repr_namespace = MappingProxyType(
        {"AirState": AirState, "CompanyBoard": CompanyBoard, "Attempt": Attempt, "Phase": Phase, "Dice": Dice}
    )

    def games(self) -> st.SearchStrategy[Game[Any, Any]]:
        return games("air", readings=st.just({}) | readings("air"), packs=st.none() | packs("air"))

    def start_state(self, game: Game[Any, Any], data: st.DataObject) -> Any:
        assert isinstance(game, AirshipsGame)
        players = data.draw(player_counts(game), label="players")
        first = data.draw(st.integers(0, players - 1), label="first_seat")
        # AIR-R-07: the nations chosen, seat by seat (default: the pack's order)
        chosen = data.draw(st.none() | st.permutations(game.pack.nations), label="nations")
        options = {} if chosen is None else {"nations": tuple(chosen[:players])}
        note(f"pack {game.pack.source}; new_game({players}, first_seat={first}, **{options!r})")
        return game.new_game(players, first_seat=first, **options)

    @precondition(lambda self: isinstance(self.game.to_move(self.state), GameOver))
    @rule()
    def ending_a_go_after_the_end_is_refused_by_air_r_47(self) -> None:
        rejection = self.game.check(self.state, EndGo())
        assert rejection is not None and rejection.rule == "AIR-R-47"
        try:
            self.game.apply(self.state, EndGo())
        except IllegalAction as exc:
            assert exc.rejection == rejection
        else:  # pragma: no cover - a failure
            raise AssertionError("an action was applied after the game ended")


TestAirships = AirshipsMachine.TestCase
