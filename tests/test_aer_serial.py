"""serial.plain_state, the direct read of a state's plain JSON (issue 18), against cattrs' read it
shortcuts: equal states (the same types, field by field) on every state of several games, and on
malformed data either the same state or no answer, so that ``state_from_json`` refuses everything
with cattrs' own words."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.model.aeroplanes.serial import converter, plain_state
from rulecraft.model.aeroplanes.state import AerState
from rulecraft.serialization import SerializationError, from_jsonable

GAMES = [
    AeroplanesGame(),
    AeroplanesGame.configured(readings={"AER-AMB-10": "fixed"}),  # the turn's origins are written then
]


def states_of(game: AeroplanesGame, players: int, seed: int) -> list[AerState]:
    rng = random.Random(seed)
    state = game.new_game(players)
    out = [state]
    while not game.is_over(state):
        action = game.random_action(state, rng)
        assert action is not None  # a game not over has a move
        state = game.apply(state, action)
        out.append(state)
    return out


def cattrs_read(data: Any) -> AerState:
    """The read state_from_json made before the plain path (and makes of anything not plain)."""
    return from_jsonable(dict(data), AerState, what="state", using=converter)


@pytest.mark.parametrize("game", GAMES)
def test_the_plain_read_equals_cattrs_on_every_state_of_games(game: AeroplanesGame) -> None:
    for players, seed in ((3, 1), (5, 3)):
        for state in states_of(game, players, seed)[::2]:  # a step's neighbour shares its shape
            own = game.state_to_json(state)  # tuples and enum members, as state_to_json leaves them
            for data in (own, json.loads(json.dumps(own))):
                read = plain_state(data)
                assert read is not None, state.phase  # a state's own JSON takes the plain path
                # repr shows a list where a tuple belongs, which == between attrs classes might not
                assert read == cattrs_read(data) == state and repr(read) == repr(state)
                assert game.state_from_json(data) == state


def _paths(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key in ``data`` and, of each list, the first item, the last and the first that is not None
    (the items of a list share their type: the rest add time, not cases), outermost first."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield (*path, k)
            yield from _paths(v, (*path, k))
    elif isinstance(data, list):
        some = [i for i, v in enumerate(data) if v is not None][:1]
        for i in sorted({0, len(data) - 1, *some} & set(range(len(data)))):
            yield (*path, i)
            yield from _paths(data[i], (*path, i))


def _replaced(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    """A copy of ``data`` with the value at ``path`` replaced (``_DELETE``: removed)."""
    copy = json.loads(json.dumps(data))
    *head, last = path
    inner = copy
    for k in head:
        inner = inner[k]
    if value is _DELETE:
        del inner[last]
    else:
        inner[last] = value
    return copy


_DELETE = object()
# What a hostile or careless file puts where a value belongs: coercible values (a bool for a number,
# a number's string), wrong shapes, and other members' values.
ODD = [_DELETE, None, True, 1.0, "3", "skull", "action", [], ["x"], {"a": 1}]


def _outcome(read: Any, data: Any) -> tuple[str, str]:
    try:
        return ("state", repr(read(data)))
    except SerializationError as exc:
        return ("refused", str(exc))


def test_malformed_data_is_read_and_refused_as_cattrs_reads_and_refuses_it() -> None:
    """At every place of a mid-game state's JSON (a turn under way, cards held, passengers carried), each
    odd value and a missing key: the plain path gives cattrs' state or none, and state_from_json gives
    cattrs' state or cattrs' refusal word for word (then the pack's ID check, as before)."""
    game = GAMES[1]
    states = states_of(game, 4, 5)
    # an attempt under way from the action's origins (AER-AMB-10 fixed), cards held; an advantage roll's dice
    picked = [s for s in states if s.turn.attempt and s.turn.origins and any(p.cards for p in s.players)][:1]
    picked += [s for s in states if s.turn.advantage_dice is not None][:1]
    assert len(picked) == 2
    plain_taken = refused = 0
    for state in picked:
        data = json.loads(json.dumps(game.state_to_json(state)))
        extra = dict(data, surprise=1)
        for odd in [extra, *(_replaced(data, path, value) for path in _paths(data) for value in ODD)]:
            fast = plain_state(odd)
            try:
                reference = cattrs_read(odd)
            except SerializationError as exc:
                assert fast is None, (odd, exc)
                refused += 1
            else:
                if fast is not None:
                    assert repr(fast) == repr(reference)
                    plain_taken += 1

            def before(data: Any) -> AerState:
                state = cattrs_read(data)
                game._check_ids(state)
                return state

            assert _outcome(game.state_from_json, odd) == _outcome(before, odd)
    assert plain_taken and refused  # both sides were met
