"""Shrinking a failing game: the result is a legal game that still fails, and shorter."""

from __future__ import annotations

import random
from typing import Any

from rulecraft.registry import make_game
from rulecraft.shrink import choices_of, replay_choices, shrink


def test_choices_replay_a_log_exactly() -> None:
    game = make_game("air")
    _, log = game.play_random(game.new_game(3), random.Random(11), max_steps=200)
    choices = choices_of(game, 3, log)
    replay = replay_choices(game, 3, choices, lambda s, i: None)
    assert list(replay.actions) == log


def test_a_failing_game_shrinks_to_a_shorter_legal_one_that_still_fails() -> None:
    game = make_game("air")

    def wooden_airship_taken(state: Any, step: int) -> str | None:
        # a stand-in "bug": somebody holds the wooden airship
        return f"seat {state.wooden_airship} holds it" if state.wooden_airship is not None else None

    rng = random.Random(3)
    state, log = game.new_game(4), []
    while wooden_airship_taken(state, 0) is None:
        _, more = game.play_random(state, rng, max_steps=1)
        log += more
        state = game.replay(state, more)
    result = shrink(game, 4, log, wooden_airship_taken, seconds=20)
    assert result.failure is not None and result.failed_at == len(result.actions)
    assert len(result.actions) < len(log)
    again = game.replay(game.new_game(4), result.actions)
    assert again.wooden_airship is not None, "the shrunk game is legal and still fails"
    # set-up alone takes 12 + 4 + 4 chance steps; then one reveal, one attempt, one throw
    assert len(result.actions) <= 20 + 3 + 2


def test_a_failure_that_does_not_reproduce_is_returned_unshrunk() -> None:
    game = make_game("air")
    _, log = game.play_random(game.new_game(2), random.Random(1), max_steps=60)
    result = shrink(game, 2, log, lambda s, i: None, seconds=2)
    assert result.failure is None


def test_zeroing_a_choice_that_ends_the_game_earlier_keeps_shrinking() -> None:
    """Regression: when zeroing one choice makes the failure come sooner, the game gets
    shorter under the loop's feet; the shrinker must re-read its bound (it raised IndexError)."""
    game = make_game("air")
    _, log = game.play_random(game.new_game(2), random.Random(5), max_steps=40)

    def late_or_first_card(state: Any, step: int) -> str | None:
        # Fails at step 40, or at once when the first airship dealt is D1 (choice 0 there).
        if step >= len(log):
            return "the 40th step"
        if state.stacks[0] and state.stacks[0][0] == "D1" and step >= 1:
            return "D1 dealt first"
        return None

    result = shrink(game, 2, log, late_or_first_card, seconds=10)
    assert result.failure is not None
    assert len(result.actions) <= len(log)
