"""A fifth game through the path docs/adding-a-game.md walks (tests/toy_game.py): registered by its
record, played by the shared state machine (rulecraft.testing), and bugs planted in it caught."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from toy_game import RECORD, Take, ToyGame, ToyState

from rulecraft import registry
from rulecraft.core import Game, NoLegalAction, RulecraftError, Seat
from rulecraft.registry import make_game, record, record_of
from rulecraft.testing import GameMachine, once_per_state
from rulecraft.tools import tools

QUICK = settings(
    max_examples=25,
    stateful_step_count=30,
    deadline=None,
    database=None,
    report_multiple_bugs=False,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    registry.game_ids()  # the entry points first, so that restoring keeps them
    saved = dict(registry._RECORDS)
    registry.add_record(RECORD)
    yield
    registry._RECORDS.clear()
    registry._RECORDS.update(saved)


def test_the_toy_game_is_registered_by_its_record() -> None:
    game = make_game("toy")
    assert record("toy") is RECORD and record_of(game) is RECORD
    assert isinstance(game, ToyGame) and tools(game).queries() == {}
    state = game.apply(game.new_game(2), game.chance_outcomes(game.new_game(2))[0][0])
    assert tools(game).violations(state) == []
    broken = ToyState(2, pile=3, taken=(4, 4))  # 8 tokens: no pile of 5 to 7 (TOY-R-01)
    assert [v.invariant for v in tools(game).violations(broken)] == ["tokens-conserved"]


def test_a_game_with_no_rule_parameters_gets_an_empty_table_and_refuses_a_change() -> None:
    """The toy game names no parameter: the kernel gives it an empty table, and asking to change one
    is a one-line refusal naming the game (not an AttributeError deep in a tool)."""
    assert list(ToyGame.parameters) == []  # tests/toy_game.py writes no table
    assert ToyGame.parameters.game == "toy"
    with pytest.raises(RulecraftError, match="toy: this game has no rule parameters to change"):
        make_game("toy", parameters={"extra_go_cost": 2})


class DeadEnd(ToyGame):
    """A planted dead end: from the second step on, the seat to move has no legal action."""

    def __init__(self, reason: str | None) -> None:
        super().__init__()
        self.reason = reason

    def legal_actions(self, state: ToyState) -> Sequence[Take]:
        return [] if any(state.taken) else super().legal_actions(state)

    def stalled(self, state: ToyState) -> str | None:
        return self.reason if any(state.taken) else None


def test_a_seat_with_no_move_is_a_dead_end_when_the_game_says_so_else_a_crash() -> None:
    """``random_action`` names the missing move (``NoLegalAction``); verify counts a game the rules leave
    with no way on (``stalled`` gives why) as unfinished with that reason, and any other such state as a
    crash finding of the game's."""
    import random

    from rulecraft.verify import play_checked

    dead = DeadEnd("TOY-R-02: no token may be taken here")
    ended = play_checked(dead, 1, 2, max_steps=50)
    assert ended.finding is None and not ended.finished and ended.deadlock == "TOY-R-02: no token may be taken here"
    bug = play_checked(DeadEnd(None), 1, 2, max_steps=50)
    assert bug.finding is not None and bug.finding.kind == "crash"
    assert "is to move and has no legal action" in bug.finding.message
    state = dead.apply(dead.new_game(2), dead.chance_outcomes(dead.new_game(2))[0][0])
    state = dead.apply(state, dead.legal_actions(state)[0])
    with pytest.raises(NoLegalAction) as info:
        dead.random_action(state, random.Random(0))
    assert info.value.stalled and str(info.value) == "TOY-R-02: no token may be taken here"


class NoCandidates(ToyGame):
    """A planted inconsistency: the uniform draw's candidates are empty while legal actions exist."""

    def candidates(self, state: ToyState) -> tuple[Sequence[Take], None]:
        return [], None


def test_an_empty_draw_beside_legal_actions_is_a_crash_never_a_dead_end() -> None:
    """An empty choice becomes ``NoLegalAction`` only when ``legal_actions`` is empty too: a draw (the
    uniform one, or a policy) that fails while the seat has moves lets its IndexError go on."""
    import random

    game = NoCandidates()
    state = game.apply(game.new_game(2), game.chance_outcomes(game.new_game(2))[0][0])
    assert game.legal_actions(state)
    with pytest.raises(IndexError) as info:
        game.random_action(state, random.Random(0))
    assert not isinstance(info.value, NoLegalAction)

    def broken_policy(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
        return [][0]

    with pytest.raises(IndexError):
        ToyGame().random_action(state, random.Random(0), broken_policy)
    assert ToyGame().random_action(state, random.Random(0)) in game.legal_actions(state)


class ToyMachine(GameMachine):
    game_id = "toy"


def test_the_shared_machine_plays_the_toy_game_clean() -> None:
    run_state_machine_as_test(ToyMachine, settings=QUICK)


# -- bugs planted in the toy game: each is caught by the shared machine's general checks ----------


class OffersTwoOfOne(ToyGame):
    def legal_actions(self, state: ToyState) -> Sequence[Take]:
        return [Take(n) for n in (1, 2)] if state.pile and state.winner is None else []


class ForgetsTheWinner(ToyGame):
    def transition(self, state: ToyState, action: Any) -> ToyState:
        after = super().transition(state, action)
        return ToyState(after.players, after.pile, after.seat, after.taken, None)


class CrownsTheLoser(ToyGame):
    def winners(self, state: ToyState) -> tuple[Seat, ...]:
        return () if state.winner is None else ((state.winner + 1) % state.players,)


class ForgetsTheWinnerInJson(ToyGame):
    def state_from_json(self, data: Any) -> ToyState:
        state = super().state_from_json(data)
        return ToyState(state.players, state.pile, state.seat, state.taken, None)


class OddTuple(tuple[int, ...]):
    """Equal to the tuple it copies, but hashed otherwise: a state built from it breaks hash-against-eq."""

    def __hash__(self) -> int:
        return super().__hash__() + 1


class HashesOtherwiseFromJson(ToyGame):
    def state_from_json(self, data: Any) -> ToyState:
        state = super().state_from_json(data)
        return ToyState(state.players, state.pile, state.seat, OddTuple(state.taken), state.winner)


def _machine_for(game: Game[Any, Any]) -> type[GameMachine]:
    class Planted(ToyMachine):
        def games(self) -> st.SearchStrategy[Game[Any, Any]]:
            return st.just(game)

    return Planted


@pytest.mark.parametrize(
    ("game", "caught_by"),
    [
        (OffersTwoOfOne(), r"Take\(tokens=2\).* TOY-R-02"),
        (ForgetsTheWinner(), r"last-token-wins \[TOY-R-03\]"),
        (CrownsTheLoser(), r"\{0: [01], 1: [01]"),
        (ForgetsTheWinnerInJson(), r"read back from its JSON differs"),
        (HashesOtherwiseFromJson(), r"two equal states hash differently"),
    ],
    ids=[
        "generation-against-check",
        "named-invariant",
        "winners-have-the-best-score",
        "json-round-trip",
        "hash-against-eq",
    ],
)
def test_the_shared_machine_catches_a_planted_bug(game: ToyGame, caught_by: str) -> None:
    with pytest.raises(AssertionError, match=caught_by):
        run_state_machine_as_test(_machine_for(game), settings=QUICK)


# -- a check once per state (rulecraft.testing.once_per_state) --------------------------------------


class Counting(ToyMachine):
    """Counts the states its check runs on; the check fails while ``fail`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Any] = []
        self.fail = False

    @once_per_state
    def counted(self) -> None:
        self.seen.append(self.state)
        assert not self.fail, "planted failure"


def test_a_check_runs_once_on_each_state_object_and_again_on_every_other() -> None:
    """The same state object is not checked twice; a new one always is, even an equal one (a state read
    back from its JSON), and so is the same state once play has stopped there."""
    machine = Counting()
    machine.game = make_game("toy")
    first = machine.game.new_game(2)
    machine.state = first
    machine.counted()
    machine.counted()
    assert machine.seen == [first]
    after = machine.game.apply(first, machine.game.chance_outcomes(first)[0][0])
    machine.state = after
    machine.counted()
    assert machine.seen == [first, after]
    copy = machine.game.state_from_json(machine.game.state_to_json(after))
    assert copy == after and copy is not after
    machine.state = copy
    machine.counted()
    assert len(machine.seen) == 3
    machine.stopped = "a planted stop"
    machine.counted()
    machine.counted()
    assert len(machine.seen) == 4


def test_a_check_that_failed_on_a_state_is_run_again_on_it() -> None:
    """Only a check that held is remembered: one that failed fails again when asked again."""
    machine = Counting()
    machine.game = make_game("toy")
    machine.state = machine.game.new_game(2)
    machine.fail = True
    for _ in range(2):
        with pytest.raises(AssertionError, match="planted failure"):
            machine.counted()
    assert len(machine.seen) == 2
    machine.fail = False
    machine.counted()
    machine.counted()
    assert len(machine.seen) == 3
