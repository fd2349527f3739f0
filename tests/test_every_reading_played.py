"""Issue 19: every registered reading of every game is played.  A game may refuse a reading only where
it declares why: a pack field the rulebook does not print (``needs_pack_data``: played with a pack that
gives it, refused naming the field without), or a group no rule settles together
(``not_modelled_together``: each played alone).  ``not_modelled`` stays empty."""

from __future__ import annotations

from typing import Any

import pytest

from rulecraft.registry import game_class, game_ids, make_game
from rulecraft.ruleset import UnknownReading

ALTERNATIVES = [
    (game_id, amb.id, reading.key)
    for game_id in game_ids()
    for amb in game_class(game_id).register
    if amb.affects_play
    for reading in amb.readings
    if reading.key != amb.default
]
TOGETHER = [
    (game_id, group) for game_id in game_ids() for group in getattr(game_class(game_id), "not_modelled_together", {})
]


def _declared(game_id: str, name: str) -> Any:
    return getattr(game_class(game_id), name, {})


def test_every_game_registers_alternatives_and_refuses_none_as_unmodelled() -> None:
    assert {game_id for game_id, _, _ in ALTERNATIVES} == set(game_ids())
    assert {game_id: dict(_declared(game_id, "not_modelled")) for game_id in game_ids()} == {
        game_id: {} for game_id in game_ids()
    }


@pytest.mark.parametrize(("game_id", "amb_id", "key"), ALTERNATIVES, ids=lambda v: str(v))
def test_the_reading_is_played_or_names_the_pack_field_it_needs(game_id: str, amb_id: str, key: str) -> None:
    amb = game_class(game_id).register[amb_id]
    readings = {**amb.context, amb_id: key}
    field = _declared(game_id, "needs_pack_data").get((amb_id, key))
    if field is None:
        game = make_game(game_id, readings=readings)
        assert dict(game.ruleset.readings)[amb_id] == key
    else:  # the bundled packs hold only what the rulebook prints
        with pytest.raises(UnknownReading) as info:
            make_game(game_id, readings=readings)
        assert str(info.value).startswith(f"{amb_id}={key} is not modelled without ") and field in str(info.value)


@pytest.mark.parametrize(("game_id", "group"), TOGETHER, ids=lambda v: str(v))
def test_a_group_refused_together_is_played_alone_and_refused_naming_each(
    game_id: str, group: tuple[tuple[str, str], ...]
) -> None:
    for amb_id, key in group:
        alone = make_game(game_id, readings={amb_id: key})
        assert dict(alone.ruleset.readings)[amb_id] == key
    with pytest.raises(UnknownReading) as info:
        make_game(game_id, readings=dict(group))
    assert all(f"{amb_id}={key}" in str(info.value) for amb_id, key in group)
