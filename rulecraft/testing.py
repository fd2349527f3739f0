"""One Hypothesis state machine for every registered game, for the games' own tests and for yours.

:class:`GameMachine` plays a game from ``new_game`` with legal actions only (a seat's from
``legal_actions``, chance's from ``chance_outcomes``) and checks after every step what must hold in
every game: the game's named invariants (its record's), generation against the check
(python-chess's ``legal_moves`` beside ``is_legal``), exact chance odds, the state's JSON round
trip, hash against equality, and at the end a typed outcome whose winners have the best score::

    # test_my_game.py
    from rulecraft.testing import GameMachine

    class AirshipsMachine(GameMachine):
        game_id = "air"

    TestAirships = AirshipsMachine.TestCase

A game's tests subclass it and add what is that game's: a set-up drawn otherwise
(:meth:`GameMachine.start_state`), actions to lean towards (:meth:`GameMachine.leans_to`), checks of
two states one step apart (:meth:`GameMachine.step_violations`), the outcome's rule
(:meth:`GameMachine.check_outcome`), and further ``@rule``/``@invariant`` methods, which Hypothesis
collects from the whole class hierarchy.  A failure report replays exactly (Hypothesis's own).

:class:`ConformanceMachine` is the conformance check as a Hypothesis property: your implementation
(a protocol command, docs/protocol.md) and the rules' model play the same legal game in lockstep,
every state, legal-action list and verdict compared.  Being a plain Hypothesis test it keeps its
failures in the example database and runs under HypoFuzz (docs/many-machines.md)::

    class MyAirships(ConformanceMachine):
        game_id = "air"
        command = "node my-airships.js"

    TestMyAirships = MyAirships.TestCase
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from hypothesis import event, note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from rulecraft import strategies as rs
from rulecraft.core import AnyGame, Chance, GameOver, IllegalAction, Setup
from rulecraft.registry import make_game, record
from rulecraft.tools import tools

if TYPE_CHECKING:
    from rulecraft.conformance.client import Implementation
    from rulecraft.conformance.lockstep import Lockstep

__all__ = ["ConformanceMachine", "GameMachine", "once_per_state"]

M = TypeVar("M", bound="GameMachine")


def once_per_state(check: Callable[[M], None]) -> Callable[[M], None]:
    """A check of a :class:`GameMachine` that runs once on each state object (and why play stopped).

    Once a game is over its only rule (``game_over``) leaves the state as it is, and Hypothesis runs
    every invariant after each of the run's remaining steps: most of a long game's checks were the
    same checks of the same state again.  States are immutable and the checks deterministic, so the
    same state object can only give the same answer; every new state is still checked.  Put it under
    ``@invariant()``, on a game's own invariants too."""
    name = check.__qualname__

    @functools.wraps(check)
    def checked(self: M) -> None:
        held = self._checked.get(name)
        if held is not None and held[0] is self.state and held[1] == self.stopped:
            return
        check(self)
        self._checked[name] = (self.state, self.stopped)

    return checked


def _seat_to_move(machine: GameMachine) -> bool:
    return machine.stopped is None and isinstance(machine.game.to_move(machine.state), int)


def _chance_to_move(machine: GameMachine) -> bool:
    return machine.stopped is None and isinstance(machine.game.to_move(machine.state), Chance)


def _over(machine: GameMachine) -> bool:
    return isinstance(machine.game.to_move(machine.state), GameOver)


def _playing(machine: GameMachine) -> bool:
    return machine.stopped is None and not _over(machine)


class GameMachine(RuleBasedStateMachine):
    """Legal play of the game ``game_id`` with every general check after every step (see the module)."""

    game_id: ClassVar[str]
    # Names a state's repr uses, when the game's reprs are valid Python (checked by eval); None: unchecked.
    repr_namespace: ClassVar[Mapping[str, Any] | None] = None

    game: AnyGame
    state: Any

    def __init__(self) -> None:
        super().__init__()
        self.steps = 0
        self.log: list[Any] = []
        self.stopped: str | None = None  # why play stopped before the end (see :meth:`no_legal_action`)
        # The legal actions of the state they were generated for: the rule that moves and the
        # invariants after it ask for the same state's list several times (generation is most of a step).
        self._legal_of: tuple[Any, tuple[Any, ...]] | None = None
        # What each check last held on (see once_per_state): the state and why play stopped.
        self._checked: dict[str, tuple[Any, str | None]] = {}

    # -- hooks for a game's own machine -----------------------------------------------------------------

    def games(self) -> st.SearchStrategy[AnyGame]:
        """Configured games: the printed rules or drawn readings (never a reading the game refuses), on
        the bundled pack or, when the game's record names a pack generator, a generated one."""
        if record(self.game_id).packs is None:
            return rs.games(self.game_id)
        return rs.games(self.game_id, packs=st.none() | rs.packs(self.game_id))

    def start_state(self, game: AnyGame, data: st.DataObject) -> Any:
        """A new game: a player count ``new_game`` accepts, any first seat where the rules let one
        choose it, and the game's own set-up options (``random_options``) drawn from a seeded random."""
        players = data.draw(rs.player_counts(game), label="players")
        first = data.draw(rs.first_seats(game, players), label="first_seat")
        rng = data.draw(st.randoms(use_true_random=False), label="options")
        options = game.random_options(rng, players)
        note(f"new_game({players}, first_seat={first}, **{options!r})")
        return game.new_game(players, first_seat=first, **options)

    def leans_to(self, action: Any) -> bool:
        """Actions the leaning rule prefers (random play seldom reaches some: a purchase, a shipment)."""
        return False

    def step_violations(self, before: Any, action: Any, after: Any) -> Sequence[Any]:
        """What is wrong with one step ``before`` -> ``after`` (a game's two-state invariants)."""
        return ()

    def check_outcome(self) -> None:
        """At game over: a typed outcome; the winners have the best score (a game with a tie-break or a
        solo rule says more in its own machine)."""
        outcome = self.game.outcome(self.state)
        assert outcome is not None, "the game is over but has no outcome"
        scores = self.game.scores(self.state)
        winners = self.game.winners(self.state)
        assert set(winners) <= set(scores), (scores, winners)
        if winners:
            best = max(scores.values())
            assert all(scores[w] == best for w in winners), (scores, winners)

    def no_legal_action(self) -> None:
        """A seat to move with no legal action: a bug, unless the game's machine says why play stops
        there (then it sets :attr:`stopped`)."""
        raise AssertionError(f"a seat to move has no legal action after step {self.steps}")

    # -- moving on ----------------------------------------------------------------------------------------

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        self.game = data.draw(self.games(), label="game")
        note(f"game: {self.game!r}")
        self.state = self.start_state(self.game, data)

    def _apply(self, action: Any) -> None:
        rejection = self.game.check(self.state, action)
        assert rejection is None, f"{action!r} drawn from the legal set but refused: {rejection}"
        before = self.state
        self.state = self.game.apply(before, action)
        self.steps += 1
        self.log.append(action)
        wrong = list(self.step_violations(before, action, self.state))
        assert not wrong, "\n".join(map(str, wrong)) + f"\nafter step {self.steps}: {action!r}"

    def _legal(self) -> list[Any]:
        if self._legal_of is None or self._legal_of[0] is not self.state:
            self._legal_of = (self.state, tuple(self.game.legal_actions(self.state)))
        return list(self._legal_of[1])

    @once_per_state
    def _assert_invariants(self) -> None:
        violations = tools(self.game).violations(self.state)
        assert not violations, "\n".join(map(str, violations)) + (
            f"\nafter step {self.steps}; last actions: {self.log[-5:]!r}"
        )

    @precondition(_seat_to_move)
    @rule(data=st.data())
    def seat_plays_a_legal_action(self, data: st.DataObject) -> None:
        legal = self._legal()
        if not legal:
            self.no_legal_action()
            return
        self._apply(data.draw(st.sampled_from(legal), label="action"))

    @precondition(_seat_to_move)
    @rule(data=st.data())
    def seat_leans(self, data: st.DataObject) -> None:
        """One of the actions the game's machine leans to when there is one, else any legal action."""
        legal = self._legal()
        if not legal:
            self.no_legal_action()
            return
        preferred = [a for a in legal if self.leans_to(a)]
        self._apply(data.draw(st.sampled_from(preferred or legal), label="action"))

    @precondition(_chance_to_move)
    @rule(data=st.data())
    def chance_deals(self, data: st.DataObject) -> None:
        outcomes = [a for a, _ in self.game.chance_outcomes(self.state)]
        assert outcomes, f"chance to move with no outcome after step {self.steps}"
        self._apply(data.draw(st.sampled_from(outcomes), label="chance"))

    @precondition(_chance_to_move)
    @rule(rng=st.randoms(use_true_random=False))
    def chance_by_its_odds(self, rng: random.Random) -> None:
        action = self.game.sample_chance(self.state, rng)
        support = [a for a, _ in self.game.chance_outcomes(self.state)]
        assert action in support, f"sample_chance gave {action!r}, outside chance_outcomes"
        self._apply(action)

    @precondition(_playing)
    @rule(rng=st.randoms(use_true_random=False), steps=st.integers(1, 40))
    def play_on(self, rng: random.Random, steps: int) -> None:
        """Several random legal steps at once, so runs reach the late game; the named invariants are
        still checked after every single step."""
        for _ in range(steps):
            mover = self.game.to_move(self.state)
            if isinstance(mover, GameOver) or self.stopped is not None:
                return
            if isinstance(mover, Chance):
                action = self.game.sample_chance(self.state, rng)
            else:
                legal = self._legal()
                if not legal:
                    self.no_legal_action()
                    return
                action = rng.choice(legal)
            self._apply(action)
            self._assert_invariants()

    @precondition(lambda self: _over(self) or self.stopped is not None)
    @rule()
    @once_per_state
    def game_over(self) -> None:
        """Nothing is legal after the end, not even the last action played, and the outcome holds.
        (A run stopped early only checks that nothing is legal: a rule always applies, so a run never
        ends for want of one.)"""
        assert self._legal() == [] and list(self.game.chance_outcomes(self.state)) == []
        if self.stopped is not None:
            return
        if self.log:
            last = self.log[-1]
            assert not self.game.is_legal(self.state, last)
            try:
                self.game.apply(self.state, last)
            except IllegalAction as exc:
                assert exc.rejection.rule, "a refusal names its rule"
            else:  # pragma: no cover - a failure
                raise AssertionError(f"{last!r} was applied after the game ended")
        self.check_outcome()

    def teardown(self) -> None:
        """How far the run got (``--hypothesis-show-statistics``)."""
        if hasattr(self, "state"):
            where = "over" if _over(self) else f"stopped: {self.stopped}" if self.stopped else "playing"
            event(f"run ended: {where}")

    # -- after every step ---------------------------------------------------------------------------------

    @invariant()
    def every_invariant_holds(self) -> None:
        self._assert_invariants()  # once per state: play_on has checked the state it stopped at

    @invariant()
    @once_per_state
    def generation_agrees_with_check(self) -> None:
        """Every action offered passes ``check``; chance's odds are exact, positive and sum to 1."""
        for action in self._legal():
            rejection = self.game.check(self.state, action)
            assert rejection is None, f"legal_actions offers {action!r}; check says {rejection}"
        outcomes = list(self.game.chance_outcomes(self.state))
        if outcomes:
            assert sum((p for _, p in outcomes), Fraction(0)) == 1
            assert all(p > 0 for _, p in outcomes)
            for action, _ in outcomes:
                assert self.game.check(self.state, action) is None, action

    @invariant()
    @once_per_state
    def state_round_trips_through_json(self) -> None:
        """The state read back from its JSON text is equal to it and hashes alike (a fresh object, so
        equality and the hash are checked on two states built apart)."""
        copy = self.game.state_from_json(json.loads(json.dumps(self.game.state_to_json(self.state))))
        assert copy == self.state, "the state read back from its JSON differs"
        assert hash(copy) == hash(self.state), "two equal states hash differently"

    @invariant()
    @once_per_state
    def repr_is_python(self) -> None:
        if self.repr_namespace is not None:
            assert eval(repr(self.state), dict(self.repr_namespace)) == self.state


# -- conformance as a Hypothesis property ----------------------------------------------------------------

# One running implementation per machine class and process: a new game resets it (``new_game``), so
# examples do not pay a process start each.
_IMPLEMENTATIONS: dict[type[ConformanceMachine], tuple[Implementation, tuple[str, ...], int]] = {}


def _comparing(machine: ConformanceMachine) -> bool:
    return not isinstance(machine.game.to_move(machine.lock.state), GameOver)


class ConformanceMachine(RuleBasedStateMachine):
    """The implementation that ``command`` starts, played in lockstep with the rules of ``game_id``
    (see the module): a difference fails the test with the conformance finding's title and steps."""

    game_id: ClassVar[str]
    command: ClassVar[str | Sequence[str]]
    timeout: ClassVar[float] = 5.0  # seconds per request

    game: AnyGame
    lock: Lockstep

    def implementation(self) -> tuple[Implementation, tuple[str, ...], int]:
        """The running implementation, its models and protocol (started once per class and process)."""
        from rulecraft.conformance.client import Implementation

        kept = _IMPLEMENTATIONS.get(type(self))
        if kept is not None and kept[0].alive:
            return kept
        impl = Implementation(self.command, game=self.game_id, timeout=self.timeout)
        impl.start()
        hello = impl.hello()
        kept = (impl, tuple(hello.get("models") or ["*"]), int(hello.get("protocol") or 1))
        _IMPLEMENTATIONS[type(self)] = kept
        return kept

    def _compared(self, action: Callable[[], None]) -> None:
        from rulecraft.conformance.client import ImplementationFault
        from rulecraft.conformance.lockstep import Mismatch

        try:
            action()
        except Mismatch as mismatch:
            finding = mismatch.finding
            raise AssertionError(
                "\n".join([f"{finding.kind}: {finding.title}", *(f"  {line}" for line in finding.step_text)])
            ) from None
        except ImplementationFault as fault:
            _IMPLEMENTATIONS.pop(type(self), None)  # the next example starts it again
            raise AssertionError(f"the implementation failed: {fault}") from None

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        from rulecraft.conformance.lockstep import Lockstep, Mismatch

        self.game = make_game(self.game_id)
        impl, models, protocol = self.implementation()
        players = data.draw(rs.player_counts(self.game), label="players")
        first = data.draw(rs.first_seats(self.game, players), label="first_seat")
        rng = data.draw(st.randoms(use_true_random=False), label="options")
        setup = Setup(players, first, tuple(sorted(self.game.random_options(rng, players).items())))
        note(f"set-up: {setup.to_json()!r}")
        self.lock = Lockstep(self.game, impl, models, "conformance property", setup.to_json(), protocol=protocol)

        def begin() -> None:
            self.lock.state = self.game.start(setup)
            reply = impl.new_game(setup.to_json())
            if not reply.get("ok"):
                raise Mismatch(self.lock.finding("verdict", f"new_game was refused: {reply.get('error', '')}"))
            self.lock.compare_state(reply, "after set-up")

        self._compared(begin)

    def _options(self) -> list[Any]:
        state = self.lock.state
        if isinstance(self.game.to_move(state), Chance):
            return [a for a, _ in self.game.chance_outcomes(state)]
        self.lock.compare_legal_actions()
        return self.lock.legal_actions()

    @precondition(_comparing)
    @rule(data=st.data())
    def both_play_one_action(self, data: st.DataObject) -> None:
        """One action drawn from the rules' legal set (or chance's outcomes), played on both sides."""

        def step() -> None:
            options = self._options()
            assert options, f"no legal action after {len(self.lock.log)} steps"
            self.lock.step(data.draw(st.sampled_from(options), label="action"))

        self._compared(step)

    @precondition(_comparing)
    @rule(rng=st.randoms(use_true_random=False), steps=st.integers(1, 40))
    def both_play_on(self, rng: random.Random, steps: int) -> None:
        """Several seeded steps at once, so examples reach the late game and its scoring."""

        def play() -> None:
            for _ in range(steps):
                if isinstance(self.game.to_move(self.lock.state), GameOver):
                    self.lock.compare_end()
                    return
                options = self._options()
                assert options, f"no legal action after {len(self.lock.log)} steps"
                self.lock.step(rng.choice(options))
            self.lock.compare_scores(f"after step {len(self.lock.log)}")

        self._compared(play)

    @precondition(lambda self: not _comparing(self))
    @rule()
    def both_end_alike(self) -> None:
        """At the end the outcome is compared (the winners, the scores by their parts)."""
        self._compared(self.lock.compare_end)
