"""Aeroplanes: Aviation Ascendant as a Hypothesis state machine (rulecraft.testing.GameMachine): legal
actions only (chance steps by their exact outcomes), over the bundled and generated component packs
(``strategies.packs``), 3 to 5 players (AER-R-01) and the readings the model builds, every invariant
after every step (digest 3.11), every step invariant (``check_step``), the legality layers on the
current state (``check_legality``), and the outcome at game over (AER-R-63/64: no legal action; the
winners have the most VP, then the most money).

Readings the model refuses as "not modelled" (readings.NOT_MODELLED_WHY; none today) may be drawn too:
their refusals only remove actions, and a game they stall (no legal action before the end) stops there
cleanly, after checking that every refusal of the subsidy names "not modelled".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import invariant

from rulecraft.core import Game
from rulecraft.invariants.aeroplanes import check_legality, check_step, report
from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.components import Pack
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.model.aeroplanes.readings import NOT_MODELLED_WHY, REGISTER
from rulecraft.model.aeroplanes.scoring import final_scores, winners
from rulecraft.model.aeroplanes.setup import setup_problem
from rulecraft.model.aeroplanes.strategies import packs
from rulecraft.ruleset import Ruleset
from rulecraft.testing import GameMachine

# Readings the game refuses when configured ("not modelled", UnknownReading): the games under them are
# played as far as they go (none is refused today; the machine keeps the path for the next one).
NOT_BUILT = set(NOT_MODELLED_WHY)
NON_DEFAULT = sorted(
    (a.id, r.key) for a in REGISTER for r in a.readings if r.key != a.default
)
SAFE = [pair for pair in NON_DEFAULT if pair not in NOT_BUILT]
REFUSED = [pair for pair in NON_DEFAULT if pair in NOT_BUILT]
# Random play seldom ends an era: the leaning rule prefers the subsidy, whose ninth take ends it (AER-R-48).
SUBSIDY = A.TakeSubsidy()


def _game(pack: Pack | None, safe: list[tuple[str, str]], refused: list[tuple[str, str]]) -> AeroplanesGame:
    game = AeroplanesGame(Ruleset.from_overrides(REGISTER, dict(safe)), pack)
    if not any(setup_problem(game.ctx, n) is None for n in range(3, 6)):
        game = AeroplanesGame(game.ruleset)  # a generated pack that seats nobody: the bundled one instead
    if refused:
        # The game refuses these readings when configured (UnknownReading); the model's rules are
        # played under them here, to check that their refusals only remove actions.
        game.ctx = Context.printed(game.pack, {**dict(safe), **dict(refused)})
    return game


class AeroplanesMachine(GameMachine):
    game_id = "aer"
    game: AeroplanesGame

    def games(self) -> st.SearchStrategy[Game[Any, Any]]:
        safe = st.lists(st.sampled_from(SAFE), max_size=3, unique_by=lambda pair: pair[0])
        refused = st.lists(st.sampled_from(REFUSED), max_size=1) if REFUSED else st.just([])
        return st.builds(_game, st.one_of(st.none(), packs()), safe, refused)

    def start_state(self, game: Game[Any, Any], data: st.DataObject) -> Any:
        assert isinstance(game, AeroplanesGame)
        seats = [n for n in range(3, 6) if setup_problem(game.ctx, n) is None]
        return game.new_game(data.draw(st.sampled_from(seats), label="players"))

    def leans_to(self, action: Any) -> bool:
        """The subsidy whenever it is legal (AER-R-48; always, under the readings the model builds, AER-AMB-46)."""
        return bool(action == SUBSIDY)

    def step_violations(self, before: Any, action: Any, after: Any) -> Sequence[Any]:
        return check_step(self.game, before, after)

    def no_legal_action(self) -> None:
        """No legal action before the end: only a reading the model refuses may cause it; the game stops."""
        refusal = self.game.check(self.state, SUBSIDY)
        assert refusal is not None and "not modelled" in str(refusal), (
            f"no legal action in phase {self.state.phase.value} under readings the model builds: {refusal}"
        )
        self.stopped = "a reading the model refuses left no legal action"

    def check_outcome(self) -> None:
        """AER-R-63/64: the winners have the most VP, and among those the most money."""
        super().check_outcome()
        ctx = self.game.ctx
        totals = {f.seat: f.total for f in final_scores(ctx, self.state)}
        best = max(totals.values())
        won = winners(ctx, self.state)
        assert won and all(totals[seat] == best for seat in won), (totals, won)
        richest = max(self.state.players[seat].money for seat in totals if totals[seat] == best)
        best_seats = {seat for seat in totals if totals[seat] == best and self.state.players[seat].money == richest}
        assert set(won) == best_seats, "AER-AMB-53: still tied after the money, the victory is shared"

    @invariant()
    def generation_agrees_with_check(self) -> None:
        """The shared invariant, by the game's own legality layers: every listed action passes the check,
        none is listed twice, a chance step lists exactly its outcomes with exact odds (check_legality)."""
        found = check_legality(self.game, self.state)
        assert not found, report(found, where=f"after step {self.steps}")


TestAeroplanes = AeroplanesMachine.TestCase
# A game from set-up is a few hundred steps (a 23-tile deal, then three eras): longer runs than the
# profile's default reach the era updates; fewer of them keep the file well under a minute on 2 cores.
TestAeroplanes.settings = settings(
    stateful_step_count=max(500, settings().stateful_step_count),
    max_examples=max(16, settings().max_examples),
    deadline=None,
    # A whole game is the smallest natural example: every step draws its action.
    suppress_health_check=[*settings().suppress_health_check, HealthCheck.large_base_example],
)
