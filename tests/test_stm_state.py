"""Steamopolis state: frozen, hashable, reprs that are valid Python, and the
invariants this layer can already check (digest 3.14)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from rulecraft.model.steamopolis import gauge as gauge_module
from rulecraft.model.steamopolis import state as state_module
from rulecraft.model.steamopolis.components import bundled_pack
from rulecraft.model.steamopolis.gauge import BonusMarker, Stone, gauge_of
from rulecraft.model.steamopolis.state import (
    SHADOW,
    BoardStone,
    Market,
    Parasite,
    Phase,
    PlayerState,
    RoomTile,
    Solo,
    StmState,
    new_player,
    problems,
    stones_owned,
)

NAMESPACE: dict[str, Any] = {**vars(state_module), **vars(gauge_module)}


def _two_players() -> StmState:
    blue = attrs.evolve(
        new_player(5),
        gauge=gauge_of([(2, True), (8, False)], markers=[(7, 5)], base=1),
        supply=(Stone(arrow=True),),
        machine_room=(RoomTile("starting", "S1", 1), RoomTile("capacity", "capacity"), RoomTile("machine", "M2-04"))
        + (None,) * 4,
        banners=("M1-02",),
        crystals=2,
        gears=1,
        vp=7,
        carrying=("banker",),
        parasites_home=2,
        sponsor="gear",
        gala="crystal",
    )
    red = new_player(7)
    return StmState(
        players=(blue, red),
        markets=(Market(2, ("M0-01", "M1-01", "M2-01", "M3-01")),),
        board=(BoardStone(0, 3, "left"), BoardStone(0, 6, "right", Stone(arrow=True))),
        parasites=(Parasite(owner=0, host=1, position=1, on="passive"),),
        supply=state_module.Supply(crystals=13, gears=14),
        phase=Phase.FLIGHT,
    )


def test_repr_is_valid_python() -> None:
    state = _two_players()
    again = eval(repr(state), NAMESPACE)
    assert again == state and hash(again) == hash(state)
    assert repr(Phase.FLIGHT) == "Phase.FLIGHT"
    assert eval(repr(BonusMarker(2, pink=True)), NAMESPACE) == BonusMarker(2, pink=True)


def test_state_is_frozen() -> None:
    state = _two_players()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.round = 2  # type: ignore[misc]


def test_new_player_follows_setup() -> None:
    """STM-R-08..R-12 (p.6): base on the symbol space, stones 1, 1, 2 without arrows, 2 in the supply,
    3 parasites on the charging spaces, 0 VP."""
    p = new_player(13)
    assert gauge_module.values(p.gauge) == ("1", "1", "2") and p.gauge.base == 0
    assert p.supply == (Stone(), Stone()) and p.parasites_home == 3 and p.vp == 0
    assert p.machine_room == (None,) * 7


def test_a_consistent_state_has_no_problems() -> None:
    assert problems(_two_players(), bundled_pack()) == []
    assert problems(StmState(players=(new_player(1), new_player(3))), bundled_pack()) == []


def test_problems_name_their_rules() -> None:
    pack = bundled_pack()
    state = _two_players()
    lost_stone = attrs.evolve(state, board=state.board[:1])
    assert any("STM-R-08" in p for p in problems(lost_stone, pack))
    crowded = attrs.evolve(state, board=(*state.board, BoardStone(1, 3, "left")))
    crowded = attrs.evolve(crowded, players=(crowded.players[0], attrs.evolve(crowded.players[1], supply=(Stone(),))))
    assert any("STM-R-27" in p for p in problems(crowded, pack))
    assert problems(attrs.evolve(crowded, final_round=True), pack) == []
    extra_crystal = attrs.evolve(state, supply=state_module.Supply(crystals=14, gears=14))
    assert any("STM-R-21" in p for p in problems(extra_crystal, pack))


def test_ex37_shadow_stones_share_a_district_during_the_flight() -> None:
    """STM-EX-37 / STM-R-70 (p.35): a shadow stone goes on each district holding one of your stones."""
    me = attrs.evolve(new_player(13), gauge=gauge_of([(1, False)]), supply=())
    board = (
        BoardStone(0, 3, "left"),
        BoardStone(0, 5, "right"),
        BoardStone(0, 8, "left"),
        BoardStone(0, 6, "left"),
        BoardStone(SHADOW, 3, "left"),
        BoardStone(SHADOW, 5, "right"),
    )
    state = StmState(players=(me,), board=board, phase=Phase.FLIGHT, solo=Solo())
    assert problems(state, bundled_pack()) == []


def test_ex29_stones_owned_counts_gauge_and_board() -> None:
    """STM-EX-29 / STM-R-63 (symbol pages, 'Resource Costs'): 1 stone on the gauge and 2 on the board → pay 3."""
    me = attrs.evolve(new_player(1), gauge=gauge_of([(1, False)]), supply=(Stone(), Stone()))
    state = StmState(players=(me,), board=(BoardStone(0, 2, "left"), BoardStone(0, 4, "right")))
    assert stones_owned(state, 0) == 3
    assert problems(state, bundled_pack()) == []


def test_player_defaults_are_the_airship() -> None:
    """STM-P-13: 3 parasites, 2 passenger spaces; the pack's airship agrees with the state's defaults."""
    airship = bundled_pack().airship
    p = PlayerState(character=1, gauge=gauge_of([]))
    assert p.parasites_home == airship.parasite_spaces
    assert len(p.machine_room) == bundled_pack().machine_room.positions
