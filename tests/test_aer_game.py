"""The Aeroplanes game wrapper: its fast chance sampler draws from exactly the odds chance_outcomes
states, refused readings are named, a state names only the pack's pieces, and the text picture."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from rulecraft.core import Chance, GameOver
from rulecraft.model.aeroplanes import setup
from rulecraft.model.aeroplanes.actions import (
    AdvantageThrow,
    AerAction,
    DealWaitingPassenger,
    DrawCard,
    DrawFirstPlayer,
    RefillWaiting,
    RiskThrow,
    RollFirstPlayerDie,
    TakeSubsidy,
)
from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.model.aeroplanes.rules import CHANCE_PHASES
from rulecraft.model.aeroplanes.setup import advantage_throw_outcomes
from rulecraft.model.aeroplanes.state import AerState, Phase
from rulecraft.ruleset import UnknownReading
from rulecraft.serialization import SerializationError

GAME = AeroplanesGame()


def chance_states(players: int, seed: int) -> list[AerState]:
    """Every chance state along one random game."""
    rng = random.Random(seed)
    state = GAME.new_game(players)
    out = []
    for _ in range(4000):
        mover = GAME.to_move(state)
        if isinstance(mover, GameOver):
            break
        if isinstance(mover, Chance):
            out.append(state)
            action = GAME.sample_chance(state, rng)
        else:
            action = rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, action)
    assert GAME.is_over(state)
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_the_sampler_draws_from_the_exact_odds(players: int, seed: int) -> None:
    """core.Game.sample_chance's contract: a faster sampler has chance_outcomes' support and weights."""
    seen: set[Phase] = set()
    for state in chance_states(players, seed):
        population, weights = GAME.sampling_table(state)
        total = len(population) if weights is None else sum(weights)
        drawn: Counter[object] = Counter()
        for i, action in enumerate(population):
            drawn[action] += 1 if weights is None else weights[i]
        odds = {a: Fraction(n, total) for a, n in drawn.items()}
        assert odds == dict(GAME.chance_outcomes(state)), state.phase
        seen.add(state.phase)
    # Every kind of chance step a game from set-up reaches was compared.
    assert {Phase.DEAL_PASSENGERS, Phase.FIRST_PLAYER, Phase.RISK_ROLL, Phase.ROUND_DIE, Phase.REFILL} <= seen


def test_a_pile_draw_is_the_tables_draw() -> None:
    """The shortcuts of sample_chance (a pile's tile, a dice table's cumulative weights) draw what
    sampling_table lists, from the same random stream."""
    seen = set()
    for i, state in enumerate(chance_states(3, 4)):
        population, weights = GAME.sampling_table(state)
        if weights is None:
            expected = random.Random(i).choice(population)
        else:
            expected = random.Random(i).choices(population, weights=weights, k=1)[0]
        assert GAME.sample_chance(state, random.Random(i)) == expected, state.phase
        seen.add(state.phase)
    assert {Phase.DEAL_PASSENGERS, Phase.REFILL, Phase.RISK_ROLL, Phase.ROUND_DIE} <= seen


def test_a_drawn_outcome_is_always_a_listed_one() -> None:
    rng = random.Random(0)
    for state in chance_states(4, 7)[:200]:
        assert GAME.sample_chance(state, rng) in dict(GAME.chance_outcomes(state))


def test_every_registered_reading_is_played_and_an_unknown_one_is_refused() -> None:
    """Issue 19: no Aeroplanes reading is refused as not modelled any more (AER-AMB-30 'placed' was the
    last); a key that is not a reading of its ambiguity is still refused, naming the readings."""
    assert not AeroplanesGame.not_modelled
    for amb in AeroplanesGame.register:
        for reading in amb.readings:
            AeroplanesGame.configured(readings={amb.id: reading.key})
    with pytest.raises(UnknownReading, match=r"AER-AMB-30.*'counted'.*paid.*placed"):
        AeroplanesGame.configured(readings={"AER-AMB-30": "counted"})


def test_a_state_naming_a_tile_the_pack_lacks_is_refused() -> None:
    state = GAME.new_game(3)
    data = GAME.state_to_json(state)
    data["bag"] = [*data["bag"][:-1], "P999"]
    with pytest.raises(SerializationError, match="P999"):
        GAME.state_from_json(data)
    data = GAME.state_to_json(state)
    data["players"][0]["money"] = "lots"
    with pytest.raises(SerializationError, match=r"players"):
        GAME.state_from_json(data)


def test_the_json_round_trip_keeps_every_state_of_a_game() -> None:
    rng = random.Random(11)
    state = GAME.new_game(4)
    for _ in range(600):
        assert GAME.state_from_json(GAME.state_to_json(state)) == state
        action = GAME.random_action(state, rng)
        if action is None:
            break
        assert GAME.action_from_json(GAME.action_to_json(action)) == action
        state = GAME.apply(state, action)


def test_the_text_picture_shows_every_airport() -> None:
    rng = random.Random(5)
    state = GAME.new_game(3)
    state, _ = GAME.play_random(state, rng, max_steps=300)
    text = GAME.render(state)
    tiles = sum(1 for s in state.map for a in s.slots if a is not None and not a.blocker)
    marks = sum(text.count(f"{letter}{stage}") for letter in "ABC" for stage in "⌂123")
    assert marks == tiles
    blocked = sum(1 for s in state.map for a in s.slots if a is not None and a.blocker)
    assert text.count("■") == blocked > 0  # three players: the "4/5" slots are blocked (AER-SET-04)


def test_a_parameter_writes_its_number_into_the_pack() -> None:
    game = AeroplanesGame.configured(parameters={"daring_pilot_bonus": 2, "subsidy_notes": 6})
    assert game.pack.risk.daring_pilot_bonus == 2 and game.pack.subsidy_pool == 6
    assert game.pack.risk.opponent_modifier == 2  # not given: the pack's own value (AER-R-22, l.110)
    assert repr(game) == (
        "AeroplanesGame.configured(readings={}, components=None,"
        " parameters={'subsidy_notes': 6, 'daring_pilot_bonus': 2})"  # in the parameter table's order
    )
    # The Income step fills the section with the changed number of notes (AER-R-02, l.40).
    rng = random.Random(3)
    state = game.new_game(3)
    while state.phase is not Phase.ACTION:
        state = game.apply(state, game.random_action(state, rng))  # type: ignore[arg-type]
    assert state.subsidy_pool == 6


def test_a_parameter_out_of_range_names_its_rule() -> None:
    from rulecraft.parameters import ParameterError

    with pytest.raises(ParameterError, match=r"engine_failure_limit.*AER-R-28"):
        AeroplanesGame.configured(parameters={"engine_failure_limit": 9})
    with pytest.raises(ParameterError, match=r"'income' is not a parameter of aer"):
        AeroplanesGame.configured(parameters={"income": 3})


def _near_misses(state: AerState) -> list[AerAction]:
    """Chance actions that are not outcomes now, or only just: every kind with values around the
    outcomes (the bag's tiles, a seat past the table, the deck's next card and its neighbours, a tile of
    the pack not in the bag), so the direct test is held to the listing's answer on both sides."""
    tiles = [p.id for p in GAME.ctx.pack.passengers]
    numbers = sorted(c.number for c in GAME.ctx.pack.cards)
    out: list[AerAction] = [DealWaitingPassenger(t) for t in tiles]
    out += [RefillWaiting(t) for t in tiles]
    out += [DrawFirstPlayer(seat) for seat in range(-1, len(state.players) + 2)]
    out += [DrawCard(n) for n in (*numbers, 0, numbers[-1] + 1)]
    out += [RiskThrow(total, skulls) for total in range(-1, 20) for skulls in range(0, 5)]
    out += [RollFirstPlayerDie(v) for v in range(-1, 8)]
    out += [a for a, _ in advantage_throw_outcomes(GAME.ctx)] + [AdvantageThrow(("skull",)), AdvantageThrow(())]
    out += [DealWaitingPassenger("P999"), RefillWaiting("P999"), TakeSubsidy()]
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (5, 6)])
def test_the_direct_chance_test_agrees_with_the_listed_outcomes(players: int, seed: int) -> None:
    """setup.is_chance_outcome is ``action in`` chance_outcomes' actions, on every chance state of a game
    and on the first states of each other phase, for every outcome and many near misses."""
    states = chance_states(players, seed)
    rng = random.Random(seed)
    state = GAME.new_game(players)
    while not GAME.is_over(state):  # the seats' states too: no chance outcome is one there
        if rng.random() < 0.05:
            states.append(state)
        action = GAME.random_action(state, rng)
        assert action is not None  # a game not over has a move
        state = GAME.apply(state, action)
    states.append(state)
    phases = set()
    for state in states:
        listed = [a for a, _ in setup.chance_outcomes(GAME.ctx, state)]
        for action in [*listed, *_near_misses(state)]:
            assert setup.is_chance_outcome(GAME.ctx, state, action) is (action in listed), (state.phase, action)
        phases.add(state.phase)
    assert set(CHANCE_PHASES) | {Phase.ACTION, Phase.OVER} <= phases
