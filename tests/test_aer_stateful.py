"""One Hypothesis state machine for Aeroplanes: Aviation Ascendant: legal actions only (chance steps by
their exact outcomes, ``setup.chance_outcomes``), over the bundled and generated component packs
(``strategies.packs``), 3 to 5 players (AER-R-01) and the readings the model builds, every invariant
after every step (digest 3.11, ``rulecraft.invariants.aeroplanes.check_all``), every step invariant
(``check_step``), the legality layers on the current state (``check_legality``), and the outcome at game
over (AER-R-63/64: no legal action; the winners have the most VP, then the most money).

Readings the model refuses as "not modelled" (rules.py: the placing readings other than their defaults,
AER-AMB-41 ``keep``/``lost``, AER-AMB-45 ``run``) may be drawn too: their refusals only remove actions,
and a game they stall (no legal action before the end) stops there cleanly, after checking that every
refusal of the subsidy names "not modelled".
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rulecraft.invariants.aeroplanes import check_all, check_legality, check_step, report
from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.components import Pack
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.readings import REGISTER
from rulecraft.model.aeroplanes.rules import CHANCE_PHASES, PLACING_DEFAULTS, check, legal_actions
from rulecraft.model.aeroplanes.scoring import final_scores, winners
from rulecraft.model.aeroplanes.setup import chance_outcomes, new_game, setup_problem
from rulecraft.model.aeroplanes.state import AerState, Phase
from rulecraft.model.aeroplanes.strategies import packs
from rulecraft.model.aeroplanes.transitions import transition

# Readings rules.py refuses ("not modelled"): the games under them are played as far as they go.
NOT_BUILT = {
    (amb, key)
    for amb in PLACING_DEFAULTS
    for key in (r.key for r in REGISTER[amb].readings)
    if key != PLACING_DEFAULTS[amb]
}
NOT_BUILT |= {("AER-AMB-41", "keep"), ("AER-AMB-41", "lost"), ("AER-AMB-45", "run")}
NON_DEFAULT = sorted((a.id, r.key) for a in REGISTER for r in a.readings if r.key != a.default)
SAFE = [pair for pair in NON_DEFAULT if pair not in NOT_BUILT]
REFUSED = [pair for pair in NON_DEFAULT if pair in NOT_BUILT]
# Random play seldom ends an era: this rule leans towards the subsidy, whose ninth take ends it (AER-R-48).
SUBSIDY = A.TakeSubsidy()


class AeroplanesMachine(RuleBasedStateMachine):
    ctx: Context
    state: AerState
    steps: int
    stalled: bool

    @initialize(
        pack=st.one_of(st.none(), packs()),
        safe=st.lists(st.sampled_from(SAFE), max_size=3, unique_by=lambda pair: pair[0]),
        refused=st.lists(st.sampled_from(REFUSED), max_size=1),
        data=st.data(),
    )
    def start(
        self,
        pack: Pack | None,
        safe: list[tuple[str, str]],
        refused: list[tuple[str, str]],
        data: st.DataObject,
    ) -> None:
        readings = dict(safe)
        readings.update(refused)
        self.ctx = Context.printed(pack, readings)
        seats = [n for n in range(3, 6) if setup_problem(self.ctx, n) is None]
        if not seats:  # a generated pack that seats nobody: the bundled one instead
            self.ctx = Context.printed(None, readings)
            seats = [3, 4, 5]
        players = data.draw(st.sampled_from(seats), label="players")
        self.state = new_game(self.ctx, players)
        self.steps = 0
        self.stalled = False

    # -- moving on -------------------------------------------------------------------------------------

    def _legal(self) -> list[A.AerAction]:
        return legal_actions(self.ctx, self.state)

    def _apply(self, action: A.AerAction) -> None:
        rejection = check(self.ctx, self.state, action)
        assert rejection is None, f"{action!r} drawn from the legal set but refused: {rejection}"
        before = self.state
        self.state = transition(self.ctx, before, action)
        self.steps += 1
        changes = check_step(self.ctx, before, self.state)
        assert not changes, report(changes, where=f"after step {self.steps}: {action!r}")

    @rule(data=st.data())
    def advance(self, data: st.DataObject) -> None:
        """One step: chance by one of its exact outcomes, or the seat to move by one legal action.

        This rule has no precondition, so Hypothesis's swarm testing (which may switch a rule off for a
        whole run) never leaves a run without a way on; once the game is over or stalled it only checks
        that nothing is legal.
        """
        if self.stalled or self.state.phase is Phase.OVER:
            assert self._legal() == []
        elif self.state.phase in CHANCE_PHASES:
            outcomes = chance_outcomes(self.ctx, self.state)
            assert outcomes, f"chance to decide in phase {self.state.phase.value}, with no outcome"
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert all(p > 0 for _, p in outcomes)
            self._apply(data.draw(st.sampled_from([a for a, _ in outcomes]), label="outcome"))
        else:
            legal = self._legal()
            if legal:
                self._apply(data.draw(st.sampled_from(legal), label="action"))
            else:
                self._stall()

    @precondition(lambda self: not self.stalled and self.state.phase is Phase.ACTION)
    @rule(data=st.data())
    def seat_leans_to_the_subsidy(self, data: st.DataObject) -> None:
        """The subsidy whenever it is legal (AER-R-48; always, under the readings the model builds, AER-AMB-46),
        else any legal action."""
        legal = self._legal()
        if SUBSIDY in legal:
            self._apply(SUBSIDY)
        elif legal:
            self._apply(data.draw(st.sampled_from(legal), label="action"))
        else:
            self._stall()

    def _stall(self) -> None:
        """No legal action before the end: only a reading the model refuses may cause it; the game stops."""
        refusal = check(self.ctx, self.state, SUBSIDY)
        assert refusal is not None and "not modelled" in str(refusal), (
            f"no legal action in phase {self.state.phase.value} under readings the model builds: {refusal}"
        )
        self.stalled = True

    @precondition(lambda self: self.state.phase is Phase.OVER)
    @rule()
    def game_over(self) -> None:
        """AER-R-63/64: nothing is legal; the winners have the most VP, and among those the most money."""
        assert self._legal() == []
        totals = {f.seat: f.total for f in final_scores(self.ctx, self.state)}
        best = max(totals.values())
        won = winners(self.ctx, self.state)
        assert won and all(totals[seat] == best for seat in won), (totals, won)
        richest = max(self.state.players[seat].money for seat in totals if totals[seat] == best)
        best_seats = {seat for seat in totals if totals[seat] == best and self.state.players[seat].money == richest}
        assert set(won) == best_seats, "AER-AMB-53: still tied after the money, the victory is shared"

    def teardown(self) -> None:
        """Say how far the run got (``--hypothesis-show-statistics``)."""
        if hasattr(self, "state"):
            where = "over" if self.state.phase is Phase.OVER else "stalled" if self.stalled else f"era {self.state.era}"
            event(f"run ended: {where}")

    # -- after every step ------------------------------------------------------------------------------

    @invariant()
    def every_invariant_holds(self) -> None:
        violations = check_all(self.ctx, self.state)
        assert not violations, report(violations, where=f"after step {self.steps}")

    @invariant()
    def legality_layers_agree(self) -> None:
        found = check_legality(self.ctx, self.state)
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
