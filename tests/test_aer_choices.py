"""Aeroplanes: what a uniform random draw picks from (choices.py, issue 18) is ``rules.legal_actions``.

``choices.candidates`` lists a seat's legal actions as a sequence that makes only the action drawn: the
placements counted per destination (``choices.placements``), each destination's open slots worked out
once per slots tuple for every player and stage (``choices._slot_facts``).  ``rules.legal_actions`` (and
``rules.placements``, ``rules._slots_open``) stay the reference: on every seat decision of seeded random
games, under the default readings and under each reading that changes the placements (AER-AMB-09, -10,
-13, -21, -41, -42), the sequence has the reference's length, its items in order (by index, negative
index, slice and iteration), and a seeded draw from it is the draw from the reference list.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import pytest

from rulecraft.core import _draw
from rulecraft.model.aeroplanes import choices
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import _slots_open, legal_actions, placements
from rulecraft.model.aeroplanes.setup import chance_outcomes, new_game
from rulecraft.model.aeroplanes.state import AerState, Phase
from rulecraft.model.aeroplanes.transitions import transition
from rulecraft.sequences import Joined

READINGS: list[dict[str, str]] = [
    {},
    {"AER-AMB-09": "pass"},  # a placement action may place nothing
    {"AER-AMB-10": "fixed"},  # the origins are the airports at the action's start
    {"AER-AMB-13": "anytime"},  # an upgrade beside an empty slot
    {"AER-AMB-21": "no-lr"},  # the ‡ routes need no LR card
    {"AER-AMB-41": "lost"},  # no tile from a card discarded full
    {"AER-AMB-42": "closed"},  # no claim onto a face-down card
]


def decisions(ctx: Context, players: int, seed: int, steps: int) -> Iterator[AerState]:
    """The seat decisions of a seeded random game (chance by its odds, a seat uniformly at random)."""
    rng = random.Random(seed)
    state = new_game(ctx, players)
    for _ in range(steps):
        outcomes = chance_outcomes(ctx, state)
        if outcomes:
            actions = [a for a, _ in outcomes]
            action = rng.choices(actions, weights=[float(p) for _, p in outcomes])[0]
        else:
            legal = legal_actions(ctx, state)
            if not legal:
                return
            yield state
            action = rng.choice(legal)
        state = transition(ctx, state, action)


def assert_same_sequence(listed: object, legal: Sequence[object]) -> None:
    assert isinstance(listed, Sequence)
    assert len(listed) == len(legal)
    assert list(listed) == legal
    assert [listed[i] for i in range(len(legal))] == legal
    if legal:
        assert listed[-1] == legal[-1] and listed[-len(legal)] == legal[0]
        assert list(listed[1:3]) == legal[1:3]
    with pytest.raises(IndexError):
        listed[len(legal)]
    with pytest.raises(IndexError):
        listed[-len(legal) - 1]


@pytest.mark.parametrize("readings", READINGS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_candidates_are_the_legal_actions_in_order(readings: dict[str, str], players: int) -> None:
    ctx = Context.printed(readings=readings)
    placed = 0
    for seed in (1, 7) if not readings else (1,):  # the default readings on two games, the others on one
        for state in decisions(ctx, players, seed=seed + players, steps=700):
            legal = legal_actions(ctx, state)
            assert_same_sequence(choices.candidates(ctx, state), legal)
            if state.phase in (Phase.ACTION, Phase.PLACING):
                reference = list(placements(ctx, state))
                placed += len(reference)
                first = choices.placements(ctx, state)  # worked out: listed on demand
                assert_same_sequence(first, reference)
                again = choices.placements(ctx, state)  # asked again: the listed tuple
                assert list(again) == reference
                assert_same_sequence(choices.candidates(ctx, state), legal)
    assert placed > 100, "the games placed airports: the placements were compared"


def test_a_seeded_draw_from_the_candidates_is_the_draw_from_the_legal_actions() -> None:
    """Same seed, same game: ``rng.choice`` reads the sequence's length and one item, as from the list."""
    ctx = Context.printed()
    drawn = 0
    for state in decisions(ctx, 4, seed=5, steps=900):
        legal = legal_actions(ctx, state)
        for k in range(3):
            choices._CHOICES.cache_clear()  # each draw from a sequence worked out afresh
            assert _draw((choices.candidates(ctx, state), None), random.Random(k)) == random.Random(k).choice(legal)
            drawn += 1
            assert _draw((choices.candidates(ctx, state), None), random.Random(k)) == random.Random(k).choice(legal)
    assert drawn > 300


@pytest.mark.parametrize("anytime", [False, True])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_slot_facts_are_rules_slots_open_for_every_player_and_stage(players: int, anytime: bool) -> None:
    """AER-R-29/30 (l.122-129, l.85), AER-AMB-13: a new airport's and an upgrade's open slots, as
    rules._slots_open works them out, for every seat and stage."""
    ctx = Context.printed(readings={"AER-AMB-13": "anytime"} if anytime else {})
    compared = upgrades = 0
    for state in decisions(ctx, players, seed=players, steps=900):
        for section in state.map:
            held, facts = section.slots, choices._slot_facts(ctx, section.destination, section.slots, players)
            assert facts[0] is held
            for seat in range(players):
                for stage in (1, 2, 3):
                    expected = _slots_open(ctx, held, section.destination, seat, players, stage, False)
                    assert (() if seat in facts[1] else facts[2][stage]) == tuple(expected)
                    expected = _slots_open(ctx, held, section.destination, seat, players, stage, True)
                    assert facts[3].get(seat, facts[4])[stage] == tuple(expected)
                    compared += 1
                    upgrades += bool(expected)
    assert compared > 10_000 and upgrades > 100


def test_a_joined_sequence_is_its_parts_one_after_the_other() -> None:
    ctx = Context.printed()
    state = next(s for s in decisions(ctx, 4, seed=2, steps=400) if s.phase is Phase.ACTION)
    parts = (tuple(legal_actions(ctx, state)[:2]), (), tuple(legal_actions(ctx, state)[2:]))
    assert_same_sequence(Joined(parts), legal_actions(ctx, state))
    assert_same_sequence(Joined(((), ())), [])
