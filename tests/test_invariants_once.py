"""invariants/once.py: the game record's invariants answer the same state object from memory and
recount every other one (issue 18), with check_all's answer each time."""

from __future__ import annotations

import os
import random
from typing import Any

import attrs
import pytest

from rulecraft.invariants.aeroplanes import check_all
from rulecraft.invariants.once import once_per_state
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.tools import tools


def test_the_record_gives_check_alls_answer_on_every_state_and_a_broken_one() -> None:
    game = AeroplanesGame()
    checker = tools(game)
    rng = random.Random(4)
    state = game.new_game(4)
    while not game.is_over(state):
        assert checker.violations(state) == check_all(game, state) == []
        broken = attrs.evolve(state, subsidy_pool=99)  # AER-R-02: the section holds at most 8 notes
        assert checker.violations(broken) == check_all(game, broken) != []
        assert checker.violations(state) == []  # the good state again: recounted, not the broken answer
        state = game.apply(state, game.random_action(state, rng))
    for _ in range(3):  # the final state, over and over as a finished stateful run asks
        assert checker.violations(state) == check_all(game, state) == []


def test_only_the_same_state_game_context_and_process_are_answered_from_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []

    def counted(game: Any, state: Any) -> list[Any]:
        calls.append(state)
        return [len(calls)]

    check = once_per_state(counted)
    game = AeroplanesGame()
    state = game.new_game(3)
    assert check(game, state) == [1] and check(game, state) == [1]  # remembered
    answer = check(game, state)
    answer.append("changed by the caller")
    assert check(game, state) == [1]  # a copy each time: the memory is not the caller's list
    assert check(game, attrs.evolve(state)) == [2]  # an equal state, another object: recounted
    assert check(AeroplanesGame(), state) == [3]  # another game
    game.ctx = Context.printed(game.pack, {"AER-AMB-10": "fixed"})
    assert check(game, state) == [4]  # another rules context
    assert check(game, state) == [4]
    pid = os.getpid()
    monkeypatch.setattr(os, "getpid", lambda: pid + 1)  # as in a forked child
    assert check(game, state) == [5]
    assert len(calls) == 5
