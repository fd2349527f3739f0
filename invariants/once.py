"""A game's invariants recounted once per state object (issue 18).

A stateful test checks every invariant after every step, and once a game is over it keeps checking
the same final state at every remaining step (most steps of a long run): the recount of an immutable
state object gives the same answer each time.  ``once_per_state`` remembers the last answer, for that
state object, game object and rules context; any other state is recounted.  The answer is remembered
per process: a forked process (mutation testing runs each mutant in one) recounts, so a mutant's check
never gets the parent's answer.  tests/test_aer_invariants.py holds it to the plain check.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

V = TypeVar("V")


def once_per_state(check: Callable[[Any, Any], list[V]]) -> Callable[[Any, Any], list[V]]:
    """``check(game, state)``, answered again from memory for the same state object (states are frozen)."""
    last: list[Any] = [None, None, None, None, []]  # the game, its context, the state, the process; the answer

    def checked(game: Any, state: Any) -> list[V]:
        ctx = getattr(game, "ctx", None)  # what the recounts read: a game may be given another context
        if last[2] is state and last[0] is game and last[1] is ctx and last[3] == os.getpid():
            return list(last[4])
        found = check(game, state)
        last[:] = [game, ctx, state, os.getpid(), list(found)]
        return found

    checked.__doc__ = check.__doc__
    return checked


def _aeroplanes(game: Any, state: Any) -> list[Any]:
    from rulecraft.invariants.aeroplanes import check_all

    return check_all(game, state)


aeroplanes = once_per_state(_aeroplanes)
"""Aeroplanes' ``check_all``, once per state object (the game record's invariants)."""
