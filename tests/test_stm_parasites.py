"""Steamopolis multiplayer rules: parasites and envy (STM-R-52..56), sponsor and charity gala
(R-57/58), 'buy tile' and 'use another district' (R-61), character 7's pink marker (R-04).

Per rule a small state built from the state classes and the outcome the rulebook states, with its
page; printed examples are cited by their STM-EX IDs and their numbers come from the rulebook text,
never from running the model.  Another player acting inside the turn (a parasite's owner, an
envious player) is the *decider* (``rules.decider``); the tests follow the decision as it passes.
The last tests hold legal-move generation to the check, action by action, on random states.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.core import Rejection
from rulecraft.model.steamopolis.actions import (
    ActivateParasite,
    BuildCapacity,
    BuyBanner,
    BuyBonusMarker,
    BuyMachine,
    ChannelPressure,
    DeclineCost,
    EndTurn,
    FlyToAllTargets,
    LetLapse,
    LetPlayer,
    MakeSteam,
    MoveLeft,
    PayCost,
    PlaceParasite,
    PlacePinkMarker,
    PlaceStone,
    RaisePressure,
    ShakeOffParasite,
    SkipPart,
    StmAction,
    Store,
    TakeBack,
    TakeGala,
    TakeResources,
    TakeSponsor,
    UseDistrict,
    UseOtherDistrict,
    UsePart,
)
from rulecraft.model.steamopolis.catalogue import RULES
from rulecraft.model.steamopolis.components import Resource, bundled_pack_data, pack_from_data
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import (
    ActivateParasites,
    BuyTile,
    Envy,
    EnvyParasite,
    GainPinkMarker,
    GainResources,
    GainSponsor,
    Handover,
    NextSharer,
    PlaceParasites,
    ShakeOff,
    StoneToEight,
    UseAnotherDistrict,
    VotePoints,
    program_to_data,
    queued_from_data,
)
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.gauge import BonusMarker, Stone, gauge_of
from rulecraft.model.steamopolis.rules import NOT_YET, check, decider, legal_actions
from rulecraft.model.steamopolis.state import (
    SHADOW,
    BoardStone,
    BonusMarket,
    Market,
    Parasite,
    Passengers,
    Phase,
    PlayerState,
    RoomTile,
    Solo,
    StmState,
    Supply,
    TurnState,
    new_player,
    problems,
)
from rulecraft.model.steamopolis.transitions import transition

CTX = Context.printed()
PACK = CTX.pack
EMPTY_ROOM: tuple[RoomTile | None, ...] = (None,) * 7
# Actions of which the generator lists one representative per outcome (the pressure increments).
REPRESENTATIVE = (MakeSteam, RaisePressure)


def room(*tiles: tuple[int, RoomTile]) -> tuple[RoomTile | None, ...]:
    """A machine room from (position 1..7, tile) pairs."""
    out = list(EMPTY_ROOM)
    for position, tile in tiles:
        out[position - 1] = tile
    return tuple(out)


def machine(tile_id: str) -> RoomTile:
    return RoomTile("machine", tile_id)


BOILER = RoomTile("capacity", "capacity", 0)  # a capacity tile's boiler side: 'increase the pressure by 1'
STORAGE = RoomTile("capacity", "capacity", 1)  # its storage side: no symbol a parasite could sit on


def player(stones: Sequence[tuple[int, bool]] = (), *, on_board: int = 0, **kw: Any) -> PlayerState:
    """A player with stones on (space, arrow); the supply holds the stones not on gauge or board."""
    supply = (Stone(),) * (5 - len(stones) - on_board)
    return attrs.evolve(new_player(1), gauge=gauge_of(stones), supply=supply, **kw)


def game(*players: PlayerState, phase: Phase = Phase.ACTION, **kw: Any) -> StmState:
    """A state whose general supply holds what the players do not (STM-R-21 conservation)."""
    supply = Supply(
        crystals=15 - sum(p.crystals for p in players),
        gears=15 - sum(p.gears for p in players),
        sponsors=5 - sum(1 for p in players if p.sponsor),
        galas=(4 - sum(p.gala == "crystal" for p in players), 4 - sum(p.gala == "gear" for p in players)),
    )
    state = StmState(players=players, phase=phase, supply=supply, board_side="4" if len(players) == 4 else "2-3")
    return attrs.evolve(state, **kw)


def play(state: StmState, *actions: StmAction, ctx: Context = CTX) -> StmState:
    """Apply actions one by one; each must pass the check and be generated (pressure: one of a kind)."""
    for action in actions:
        rejection = check(ctx, state, action)
        assert rejection is None, f"{action!r}: {rejection}"
        if not isinstance(action, REPRESENTATIVE):
            assert action in legal_actions(ctx, state), f"{action!r} is accepted but not generated"
        state = transition(ctx, state, action)
        assert problems(state, ctx.pack, ctx.layout) == [], problems(state, ctx.pack, ctx.layout)
    return state


def refused(state: StmState, action: StmAction, rule: str, ctx: Context = CTX) -> Rejection:
    rejection = check(ctx, state, action)
    assert rejection is not None, f"{action!r} was accepted"
    assert rejection.rule == rule, str(rejection)
    assert rejection.page == RULES[rule].page
    assert action not in legal_actions(ctx, state)
    return rejection


def flying(level: int, position: str, *players: PlayerState, ctx: Context = CTX, **kw: Any) -> StmState:
    """Seat 0's flight with one stone on (level, position), taken back: steps 2/3 of that stone."""
    first = attrs.evolve(players[0], supply=(Stone(),) * (4 - players[0].gauge.stones()))
    board = (BoardStone(0, level, position), *kw.pop("board", ()))  # type: ignore[arg-type]
    state = game(first, *players[1:], board=board, **kw)
    return play(state, FlyToAllTargets(), TakeBack(level, position), ctx=ctx)  # type: ignore[arg-type]


def pack_ctx(change: Any, readings: dict[str, str] | None = None) -> Context:
    """The bundled pack with one change (a test's component), under the given readings."""
    data = bundled_pack_data()
    change(data)
    return Context.printed(pack_from_data(data, "<test>"), readings)


def homes(state: StmState) -> list[int]:
    return [p.parasites_home for p in state.players]


# ---------------------------------------------------------------------------
# STM-R-54: a triggered parasite goes home and its owner uses the effect (p.32-34)
# ---------------------------------------------------------------------------


def _ex34(ctx: Context = CTX) -> StmState:
    """STM-EX-34 (p.34): Red (seat 0) activates her machine 'Receive 1 crystal' carrying the parasites
    of Blue (seat 1) and Yellow (seat 2) by channelling; all three storages are full."""
    red = player([(4, False)], crystals=1, gears=2, machine_room=room((1, machine("M0-01"))))
    blue = player(crystals=2, gears=1, parasites_home=2)
    yellow = player(gears=3, parasites_home=2)
    state = game(red, blue, yellow, parasites=(Parasite(1, 0, 1), Parasite(2, 0, 1)))
    return play(state, ChannelPressure(4), ctx=ctx)  # value 2 enters position 1


def test_r54_ex34_the_parasites_share_the_crystal_and_store_at_once() -> None:
    """STM-EX-34 (p.34): 'All three receive 1 crystal each. Blue and Yellow must store their crystals
    immediately if they want to keep them. Red must store the crystal only at the end of her turn.
    Blue and Yellow return their parasite to their supply.'"""
    state = _ex34()
    assert state.parasites == () and homes(state) == [3, 3, 3]  # 'as soon as the machine is activated'
    state = play(state, TakeResources(1, 0))
    assert decider(state) == 1 and state.to_move == 0  # clockwise from Red's left (STM-AMB-21)
    state = play(state, TakeResources(1, 0))
    assert state.turn.storing and decider(state) == 1  # Blue stores at once
    refused(state, PlaceStone(1, "left"), "STM-R-32")
    state = play(state, Store(3, 0))
    assert decider(state) == 2
    state = play(state, TakeResources(1, 0), Store(1, 2))
    assert decider(state) == 0 and not state.turn.storing and state.phase is Phase.CHANNEL
    assert (state.players[0].crystals, state.players[0].gears) == (2, 2)  # Red holds 4 on 3 spaces
    state = play(state, PlaceStone(1, "left"))
    assert state.turn.storing  # Red stores after her placement (STM-R-31/32)
    state = play(state, Store(2, 1))
    crystals = [p.crystals for p in state.players]
    assert crystals == [2, 3, 1]  # each gained 1 crystal: 1 → 2, 2 → 3, 0 → 1


def test_r54_ex35_a_passive_is_shared_once() -> None:
    """STM-EX-35 (p.34): Black takes back 2 stones from level 7; her machine 'take back from level 7:
    1 VP' carries Red's parasite.  'Both receive 1 vote point for the 1st pressure stone and Red
    returns the parasite to her supply. Black receives 1 further vote point for the 2nd.'"""
    black = player(on_board=2, machine_room=room((1, machine("M0-06"))))
    red = player(parasites_home=2)
    board = (BoardStone(0, 7, "left"), BoardStone(0, 7, "right"))
    state = game(black, red, board=board, parasites=(Parasite(1, 0, 1, "passive"),))
    state = play(state, FlyToAllTargets(), TakeBack(7, "left"), UsePart())
    assert decider(state) == 1
    state = play(state, UsePart(), LetLapse(), TakeBack(7, "right"), UsePart(), LetLapse())
    assert [p.vp for p in state.players] == [2, 1]
    assert homes(state) == [3, 3] and state.phase is Phase.END_OF_TURN


def test_r54_ex36_the_parasite_pays_what_the_owner_cannot() -> None:
    """STM-EX-36 (p.34): Blue channels through 'pay 2 gears: 2 VP' carrying Yellow's parasite.  'She
    cannot pay the costs of 2 gears and therefore cannot use the effect. Yellow pays 2 gears and
    receives 2 VP. Yellow returns the parasite to her supply.'"""
    blue = player([(4, False)], machine_room=room((1, machine("M0-05"))))
    yellow = player(gears=2, parasites_home=2)
    state = play(game(blue, yellow, parasites=(Parasite(1, 0, 1),)), ChannelPressure(4))
    refused(state, PayCost(), "STM-R-22")
    state = play(state, DeclineCost())
    assert decider(state) == 1
    state = play(state, PayCost(), UsePart())
    assert (state.players[1].gears, state.players[1].vp, state.players[0].vp) == (0, 2, 0)
    assert homes(state) == [3, 3] and decider(state) == 0


def test_r54_the_owner_may_forgo_the_parasite_acts_anyway() -> None:
    """p.33: 'You may also use the effect if the player who activated it has forgone doing so';
    'Frequently Forgotten Rules' (back page): 'You may forgo the effect of activated machines; parasites
    are nevertheless activated.'"""
    state = _ex34()
    state = play(state, SkipPart())
    assert decider(state) == 1
    state = play(state, SkipPart(), SkipPart())  # Blue and Yellow forgo theirs too
    assert decider(state) == 0 and homes(state) == [3, 3, 3]  # 'you must always take back the parasite'


def test_r54_make_steam_and_use_all_activation_effects_leave_parasites_asleep() -> None:
    """'Frequently Forgotten Rules' (back page): 'Parasites on steam boilers are not activated by the
    action MAKE STEAM'; p.32 'Use all activation effects … All parasites in your machine room sleep
    meanwhile … and remain on their spaces' (STM-R-62: every machine right to left, as a value-8
    stone channelled down)."""
    blue = player([(1, False), (2, False), (3, False)], machine_room=room((1, machine("M0-01"))))
    state = game(blue, player(parasites_home=2), parasites=(Parasite(1, 0, 1),))
    steam = next(a for a in legal_actions(CTX, state) if isinstance(a, MakeSteam))
    after = play(state, steam)
    assert after.parasites == state.parasites and after.phase is Phase.END_OF_TURN
    every = player([(6, False)], machine_room=room((1, machine("M0-01")), (3, machine("M3-01"))))
    state = play(game(every, player(parasites_home=2), parasites=(Parasite(1, 0, 1),)), ChannelPressure(6))
    # Right to left: M3-01's own 'use all' is not used again (STM-AMB-37 'once'), then M0-01.
    state = play(state, UsePart(), TakeResources(1, 0))
    assert state.parasites == (Parasite(1, 0, 1),) and state.players[0].crystals == 1
    assert state.players[1].crystals == 0 and decider(state) == 0


def test_r54_only_the_symbol_triggered_wakes_the_parasite() -> None:
    """p.33: 'If the machine has both an activation effect and a passive effect, the parasite is only
    taken back and activated if exactly the effect is triggered on which the parasite lies.'"""

    def both(data: dict[str, Any]) -> None:
        tile = next(m for m in data["machines"] if m["id"] == "M0-01")
        tile["passive"] = {"trigger": {"kind": "take-back", "level": 7}, "effect": [{"vp": 1}]}

    ctx = pack_ctx(both)
    blue = player([(4, False)], machine_room=room((1, machine("M0-01"))))
    parasites = (Parasite(1, 0, 1, "activation"), Parasite(1, 0, 1, "passive"))
    state = play(game(blue, player(parasites_home=1), parasites=parasites), ChannelPressure(4), ctx=ctx)
    assert state.parasites == (Parasite(1, 0, 1, "passive"),) and homes(state) == [3, 2]


def test_r54_each_parasite_on_the_symbol_gives_one_use() -> None:
    """2 players (p.33: up to 2 parasites on the same machine): each parasite goes home and gives its
    owner one use of the effect (reading of 'for each parasite the owner may co-use … once', p.19)."""
    blue = player([(4, False)], machine_room=room((1, machine("M0-01"))))
    state = game(blue, player(parasites_home=1), parasites=(Parasite(1, 0, 1), Parasite(1, 0, 1)))
    state = play(state, ChannelPressure(4), SkipPart(), TakeResources(1, 0), TakeResources(1, 0))
    assert state.players[1].crystals == 2 and homes(state) == [3, 3] and decider(state) == 0


# ---------------------------------------------------------------------------
# STM-R-52: place or move parasites (p.32-33)
# ---------------------------------------------------------------------------


def _blue_room() -> tuple[RoomTile | None, ...]:
    """A starting machine (boiler), a capacity tile on each side, a passive-only machine."""
    return room((1, RoomTile("starting", "S1", 0)), (2, BOILER), (3, STORAGE), (4, machine("M0-06")))


def test_r52_ex42_place_2_parasites_on_machines_of_others() -> None:
    """STM-EX-42 (p.36 ff.): the L1-left district 'may place 2 parasites'; p.33: on another player's machine,
    on the activation or the passive symbol, starting machines and capacity tiles included, never on
    storage spaces; 2 players: up to 2 on the same machine."""
    state = play(flying(1, "left", player(), player(machine_room=_blue_room())), UseDistrict())
    placements = {a for a in legal_actions(CTX, state) if isinstance(a, PlaceParasite)}
    assert placements == {PlaceParasite(1, 1), PlaceParasite(1, 2), PlaceParasite(1, 4, "passive")}
    refused(state, PlaceParasite(0, 1), "STM-R-52")  # never on your own machines
    refused(state, PlaceParasite(1, 3), "STM-R-52")  # the storage side shows no symbol
    refused(state, PlaceParasite(1, 4), "STM-R-52")  # M0-06 has a passive effect, no boiler
    refused(state, PlaceParasite(1, 5), "STM-R-52")  # no tile there
    state = play(state, PlaceParasite(1, 1))
    assert state.turn.pending[0][0] == PlaceParasites(1)
    state = play(state, PlaceParasite(1, 1))
    assert state.parasites == (Parasite(0, 1, 1), Parasite(0, 1, 1)) and homes(state) == [1, 3]
    assert not state.turn.pending


def test_r52_two_players_two_per_machine_three_players_one_of_each_owner() -> None:
    """p.33: '2 players: You may place up to 2 parasites on the same machine. 3 or more players: … a
    maximum of 1 parasite on each machine. You may also place parasites on machines on which
    parasites of other players already sit' (STM-AMB-20 'per-owner')."""
    mine = (Parasite(0, 1, 1), Parasite(0, 1, 2))
    two = flying(1, "left", player(parasites_home=1), player(machine_room=_blue_room()), parasites=mine)
    two = play(two, UseDistrict(), PlaceParasite(1, 1))
    assert two.parasites.count(Parasite(0, 1, 1)) == 2
    yellows = (Parasite(2, 1, 1),)
    blue = player(machine_room=_blue_room())
    three = flying(1, "left", player(), blue, player(parasites_home=2), parasites=yellows)
    three = play(three, UseDistrict(), PlaceParasite(1, 1))  # joins Yellow's parasite
    refused(three, PlaceParasite(1, 1), "STM-R-52")  # a second of Red's on the same machine
    assert check(CTX, three, PlaceParasite(1, 2)) is None


def test_r52_a_third_parasite_on_one_machine_is_refused_with_2_players() -> None:
    """p.33, 2 players: 'up to 2 parasites on the same machine'."""
    mine = (Parasite(0, 1, 1), Parasite(0, 1, 1))
    state = flying(1, "left", player(parasites_home=1), player(machine_room=_blue_room()), parasites=mine)
    state = play(state, UseDistrict())
    refused(state, PlaceParasite(1, 1), "STM-R-52")
    assert check(CTX, state, PlaceParasite(1, 2)) is None


def test_amb20_total_counts_every_parasite_on_the_machine() -> None:
    """STM-AMB-20 'total': with 3 players a machine holding Yellow's parasite takes no other."""
    ctx = Context.printed(readings={"STM-AMB-20": "total"})
    blue = player(machine_room=_blue_room())
    yellows = (Parasite(2, 1, 1),)
    state = flying(1, "left", player(), blue, player(parasites_home=2), ctx=ctx, parasites=yellows)
    state = play(state, UseDistrict(), ctx=ctx)
    rejection = refused(state, PlaceParasite(1, 1), "STM-R-52", ctx=ctx)
    assert "STM-AMB-20 'total'" in rejection.reason
    assert check(CTX, state, PlaceParasite(1, 1)) is None  # 'per-owner' lets Red join Yellow


def test_r52_place_or_move_moves_a_placed_parasite() -> None:
    """p.32 'Place or move 1 own parasite': with all three placed, one moves to another place."""
    red = player(parasites_home=0)
    placed = (Parasite(0, 1, 1), Parasite(0, 1, 2), Parasite(0, 1, 4, "passive"))
    state = flying(1, "left", red, player(machine_room=_blue_room()), parasites=placed)
    state = play(state, UseDistrict())
    refused(state, PlaceParasite(1, 1), "STM-R-52")  # none left in the supply
    refused(state, PlaceParasite(1, 2, "activation", (1, 2, "activation")), "STM-R-52")  # same place
    refused(state, PlaceParasite(1, 2, "activation", (1, 3, "activation")), "STM-R-52")  # none there
    state = play(state, PlaceParasite(1, 1, "activation", (1, 4, "passive")))
    assert sorted(state.parasites, key=repr) == sorted(
        (Parasite(0, 1, 1), Parasite(0, 1, 1), Parasite(0, 1, 2)), key=repr
    )
    assert homes(state) == [0, 3]


def test_r52_any_number_is_at_most_the_three_parasites() -> None:
    """p.32 'Place or move any number of own parasites' (M3-04): one after the other, up to the 3
    parasites a player owns (a reading: each use places or moves one parasite), or stop."""
    red = player([(4, False)], machine_room=room((1, machine("M3-04"))))
    blue = player(machine_room=_blue_room())
    state = play(game(red, blue), ChannelPressure(4), PlaceParasite(1, 1))
    assert state.turn.pending[0][0] == PlaceParasites(2)
    state = play(state, PlaceParasite(1, 2), PlaceParasite(1, 4, "passive"))
    assert not state.turn.pending and homes(state) == [0, 3]


def test_r72_solo_parasites_go_beside_the_stack() -> None:
    """STM-R-72 (solo rules, p.35): 'If an effect allows you to place parasites, place them next to the
    passenger stack' (solo turn 5, p.36 ff.: L1-left, 'She places them next to the passenger stack').
    The solo player starts with 4 VP (STM-R-68): FLY costs 1 (STM-R-69)."""
    solo = attrs.evolve(game(player(on_board=1, vp=4), board=(BoardStone(0, 1, "left"),)), solo=Solo(), supply=Supply())
    state = play(solo, FlyToAllTargets(), TakeBack(1, "left"), UseDistrict())
    assert [a for a in legal_actions(CTX, state) if isinstance(a, PlaceParasite)] == [PlaceParasite(None, None)]
    state = play(state, PlaceParasite(None, None), PlaceParasite(None, None))
    assert state.parasites == (Parasite(0), Parasite(0)) and state.solo == Solo(parasites_beside_stack=2)
    assert state.players[0].parasites_home == 1


# ---------------------------------------------------------------------------
# STM-R-56: activate without taking back (p.34); R-55: shake off, removal (p.33)
# ---------------------------------------------------------------------------


def _activator(level: int, position: str, red: PlayerState, parasites: tuple[Parasite, ...]) -> StmState:
    blue = player(machine_room=room((1, machine("M0-01")), (2, machine("M0-06"))))
    return flying(level, position, red, blue, parasites=parasites)


def test_r56_activate_a_parasite_without_taking_it_back() -> None:
    """p.34: 'activate 1 parasite that you have placed on a fellow player's machine as if the
    corresponding effect had been triggered … Leave the parasite in its place' (L5-right)."""
    parasites = (Parasite(0, 1, 1), Parasite(0, 1, 2, "passive"))
    state = play(_activator(5, "right", player(parasites_home=1), parasites), UseDistrict())
    refused(state, ActivateParasite(((1, 1, "activation"), (1, 2, "passive"))), "STM-R-56")  # only 1
    refused(state, ActivateParasite(((1, 3, "activation"),)), "STM-R-56")  # not a parasite of Red's
    state = play(state, ActivateParasite(((1, 1, "activation"),)), TakeResources(1, 0))
    assert state.players[0].crystals == 1 and state.parasites == parasites and homes(state) == [1, 3]


def test_r56_a_passive_is_used_whatever_its_prerequisite() -> None:
    """p.34: 'With a passive effect it does not matter whether you or the player fulfil the
    prerequisite': Red on L7-left uses the 'take back from level 7: 1 VP' passive."""
    parasites = (Parasite(0, 1, 2, "passive"),)
    state = play(_activator(7, "left", player(parasites_home=2), parasites), UseDistrict())
    state = play(state, ActivateParasite(((1, 2, "passive"),)), UsePart())
    assert state.players[0].vp == 1 and state.players[1].vp == 0 and state.parasites == parasites


def test_r56_any_number_each_parasite_once_in_the_chosen_order() -> None:
    """p.32 'Activate any number of own parasites without taking them back' (M3-05): the order is the
    player's; a parasite is activated at most once."""
    red = player([(4, False)], parasites_home=1, machine_room=room((1, machine("M3-05"))))
    blue = player(machine_room=room((1, machine("M0-01")), (2, machine("M0-06"))))
    parasites = (Parasite(0, 1, 1), Parasite(0, 1, 2, "passive"))
    state = play(game(red, blue, parasites=parasites), ChannelPressure(4))
    chosen = {a for a in legal_actions(CTX, state) if isinstance(a, ActivateParasite)}
    assert len(chosen) == 4  # each one alone, both in either order
    refused(state, ActivateParasite(((1, 1, "activation"), (1, 1, "activation"))), "STM-R-56")
    state = play(state, ActivateParasite(((1, 2, "passive"), (1, 1, "activation"))), UsePart())
    state = play(state, TakeResources(1, 0))
    assert (state.players[0].vp, state.players[0].crystals) == (1, 1) and state.parasites == parasites


def test_r56_place_and_activate_at_once() -> None:
    """p.32 'Place or move and immediately activate 1 own parasite, without taking it back' (M2-04)."""
    red = player([(4, False)], machine_room=room((1, machine("M2-04"))))
    blue = player(machine_room=room((1, machine("M0-01"))))
    state = play(game(red, blue), ChannelPressure(4), PlaceParasite(1, 1))
    state = play(state, TakeResources(1, 0))
    assert state.players[0].crystals == 1 and state.parasites == (Parasite(0, 1, 1),)


def test_r55_shake_off_all_returns_them_unactivated() -> None:
    """p.32: 'Shake off parasites: You may shake off all opposing parasites from your airship. (Your
    fellow players return them to their supplies.)' — no effect is used."""
    blue = player([(4, False)], machine_room=room((1, machine("M2-05")), (2, machine("M0-01"))))
    parasites = (Parasite(1, 0, 2), Parasite(2, 0, 2), Parasite(2, 0, 1))
    state = game(blue, player(parasites_home=2), player(parasites_home=1), parasites=parasites)
    state = play(state, ChannelPressure(4))  # M2-05's own parasite goes home and Yellow may shake off
    assert homes(state) == [3, 2, 2] and decider(state) == 0
    state = play(state, UsePart())
    assert state.parasites == () and homes(state) == [3, 3, 3] and decider(state) == 2
    refused(state, UsePart(), "STM-R-55")  # Yellow's share: no opposing parasite sits on her tiles
    state = play(state, SkipPart())
    assert decider(state) == 0 and [p.crystals for p in state.players] == [0, 0, 0]


def test_r55_shake_off_one_chosen_parasite() -> None:
    """p.33: 'choose 1 parasite on one of your machines and give it back' (4-player L1-third)."""
    blue = player(machine_room=room((1, machine("M0-01"))))
    parasites = (Parasite(1, 0, 1), Parasite(2, 0, 1))
    others = (player(parasites_home=2), player(parasites_home=2), player(machine_room=room((1, BOILER))))
    state = play(flying(1, "third", blue, *others, parasites=parasites), UseDistrict())
    assert {a for a in legal_actions(CTX, state) if isinstance(a, ShakeOffParasite)} == {
        ShakeOffParasite(1, 1),
        ShakeOffParasite(2, 1),
    }
    refused(state, ShakeOffParasite(3, 1), "STM-R-55")
    state = play(state, ShakeOffParasite(2, 1))
    assert state.parasites == (Parasite(1, 0, 1),) and homes(state) == [3, 2, 3, 3]
    assert state.turn.pending[0][0] == PlaceParasites(1)


def test_r55_a_removed_tile_sends_its_parasites_home_unactivated() -> None:
    """p.33: 'If a machine is removed on which you have placed a parasite, it is discarded. Return it
    to your supply without activating it' (a capacity tile built over it, STM-R-59)."""
    blue = player(gears=2, machine_room=room((1, machine("M0-01"))))
    state = flying(2, "left", blue, player(parasites_home=2), parasites=(Parasite(1, 0, 1),))
    state = play(state, UseDistrict(), PayCost(), BuildCapacity(1, 0))
    assert state.parasites == () and homes(state) == [3, 3] and state.players[1].crystals == 0


# ---------------------------------------------------------------------------
# STM-R-53: envy (p.19-20, p.22-23, p.32)
# ---------------------------------------------------------------------------


def test_r53_ex14_envy_after_the_machine_is_built_in() -> None:
    """STM-EX-14 (p.19): 'Pay 3 crystals and 1 machine. Receive 3 vote points and the machine tile.
    Other players place 1 parasite each on your machines after you have built in the machine.'"""
    blue = player(crystals=3, machine_room=room((1, STORAGE)))
    state = flying(5, "left", blue, player(), player(), markets=(Market(5, ("M2-01", "M3-01")),))
    state = play(state, BuyMachine(3, 1))
    p = state.players[0]
    assert (p.crystals, p.vp, p.machine_room[2]) == (0, 3, machine("M2-01"))
    assert decider(state) == 1 and state.turn.pending[0][0] == EnvyParasite(0)
    refused(state, PlaceParasite(2, 1), "STM-R-53")  # on the envied player's machines only
    assert {a for a in legal_actions(CTX, state) if isinstance(a, PlaceParasite)} == {PlaceParasite(0, 3)}
    state = play(state, PlaceParasite(0, 3))
    assert decider(state) == 2
    state = play(state, PlaceParasite(0, 3))  # 3 players: one of each owner (STM-AMB-20 'per-owner')
    assert state.parasites == (Parasite(1, 0, 3), Parasite(2, 0, 3))
    assert decider(state) == 0 and state.phase is Phase.END_OF_TURN


def test_r53_ex18_a_rank_2_banner_lures_parasites() -> None:
    """STM-EX-18 (p.20): 'Pay 3 crystals and 1 pressure stone. Receive the banner tile. All other players
    may each place 1 parasite on you.'"""
    blue = player([(3, False)], crystals=3, machine_room=room((1, machine("M0-01"))))
    state = flying(5, "left", blue, player(), markets=(Market(5, ("M2-01", "M3-01")),))
    state = play(state, BuyBanner(3))
    assert state.players[0].crystals == 0 and state.players[0].banners == ("M2-01",)
    assert decider(state) == 1
    refused(state, PlaceParasite(0, 1, "activation", (0, 1, "activation")), "STM-R-53")
    state = play(state, PlaceParasite(0, 1))
    assert state.parasites == (Parasite(1, 0, 1),) and decider(state) == 0


def test_r53_ex23_a_bonus_marker_2_lures_parasites() -> None:
    """STM-EX-23 (p.23): 'She spends 3 gears to take bonus marker #2. She additionally receives 5 VP and
    lures parasites.'"""
    blue = player([(3, False), (4, False), (5, False), (6, False)], gears=3, machine_room=room((1, BOILER)))
    state = flying(1, "right", blue, player(), bonus=BonusMarket(gear_row=(2,)))
    state = play(state, BuyBonusMarker("gear", 3))
    assert state.players[0].vp == 5 and decider(state) == 1
    state = play(state, PlaceParasite(0, 1))
    assert decider(state) == 0 and state.turn.step == "buying"


def test_r53_no_envy_without_a_parasite_or_a_machine_to_place_on() -> None:
    """STM-R-21/53: an envious player with no parasite at home, or no machine of the envied player to
    put it on, places nothing; the decision does not stop there."""
    blue = player(crystals=3, machine_room=room((1, STORAGE)))
    red = player(parasites_home=0)  # all three sit on Yellow's machines
    yellow = player(machine_room=room((1, BOILER), (2, BOILER), (3, BOILER)))
    placed = (Parasite(1, 2, 1), Parasite(1, 2, 2), Parasite(1, 2, 3))
    market = (Market(5, ("M2-11", "M3-01")),)
    state = flying(5, "left", blue, red, yellow, markets=market, parasites=placed)
    state = play(state, BuyMachine(3, 1))  # M2-11 shows storage only: Yellow has nowhere to place
    assert decider(state) == 0 and state.phase is Phase.END_OF_TURN and state.parasites == placed


def test_r53_an_envy_symbol_waits_until_the_effect_is_done() -> None:
    """p.32: 'Envy symbol: All other players may each place 1 of their parasites on one of your machines.
    They may wait with this until you have carried out all effects of the district.'"""

    def envious_district(data: dict[str, Any]) -> None:
        d = next(d for d in data["districts"] if (d["side"], d["level"], d["position"]) == ("2-3", 1, "right"))
        d["effect"] = ["envy", {"vp": 2}]

    ctx = pack_ctx(envious_district)
    blue = player(machine_room=room((1, BOILER)))
    state = play(flying(1, "right", blue, player(), ctx=ctx), UseDistrict(), ctx=ctx)
    assert state.turn.pending[0][0] == Envy()
    state = play(state, PayCost(), ctx=ctx)
    assert decider(state) == 0 and state.turn.pending[0][0] == VotePoints(2)
    state = play(state, UsePart(), ctx=ctx)
    assert state.players[0].vp == 2 and decider(state) == 1
    state = play(state, PlaceParasite(0, 1), ctx=ctx)
    assert decider(state) == 0 and state.parasites == (Parasite(1, 0, 1),)


def test_amb21_owner_chooses_the_order() -> None:
    """STM-AMB-21 'owner-chooses': Red names who of Blue and Yellow uses the crystal first."""
    ctx = Context.printed(readings={"STM-AMB-21": "owner-chooses"})
    state = play(_ex34(ctx), TakeResources(1, 0), ctx=ctx)
    assert decider(state) == 0 and isinstance(state.turn.pending[0][0], NextSharer)
    assert [a for a in legal_actions(ctx, state)] == [LetPlayer(1), LetPlayer(2)]
    refused(state, LetPlayer(0), "STM-R-54", ctx=ctx)
    refused(state, SkipPart(), "STM-R-54", ctx=ctx)  # the others' right is not Red's to forgo
    state = play(state, LetPlayer(2), ctx=ctx)
    assert decider(state) == 2
    state = play(state, TakeResources(1, 0), Store(1, 2), ctx=ctx)
    assert decider(state) == 1  # the only one left follows without a choice
    state = play(state, TakeResources(1, 0), Store(3, 0), ctx=ctx)
    assert decider(state) == 0 and [p.crystals for p in state.players] == [2, 3, 1]


# ---------------------------------------------------------------------------
# STM-R-57, R-58: sponsor and charity gala (p.29)
# ---------------------------------------------------------------------------


def test_r57_ex31_the_sponsor_pays_a_crystal_and_turns_over() -> None:
    """STM-EX-31 (p.29): 'Red has activated this machine and her sponsor lies with the crystal side up.
    Since she has not yet used her sponsor in this turn, she turns it to the other side, which lowers
    the costs to 0 crystals. She increases her pressure by 3. In her next turn Red can use the sponsor
    instead of paying 1 gear.'"""
    red = player([(1, False), (2, False), (4, False)], sponsor="crystal", machine_room=room((1, machine("M0-04"))))
    state = play(game(red, player()), ChannelPressure(4))
    refused(state, PayCost(), "STM-R-22")  # no crystal to pay
    state = play(state, PayCost(sponsor=True))
    p = state.players[0]
    assert (p.crystals, p.sponsor, p.sponsor_used) == (0, "gear", True)
    raise3 = next(a for a in legal_actions(CTX, state) if isinstance(a, RaisePressure) and len(a.picks) == 3)
    state = play(state, raise3, PlaceStone(1, "left"), EndTurn())
    assert not any(p.sponsor_used for p in state.players)  # once per turn, any player's turn


def test_r57_once_per_turn_and_only_for_its_resource() -> None:
    """p.29: 'You can use the sponsor 1 time per turn … You may only use the sponsor if the depicted
    resource is actually part of the costs.'"""
    red = player(
        [(5, False)],
        crystals=1,
        sponsor="crystal",
        machine_room=room((1, machine("M0-04")), (2, machine("M0-04"))),
    )
    state = play(game(red, player()), ChannelPressure(5), PayCost(sponsor=True), SkipPart(), MoveLeft())
    refused(state, PayCost(sponsor=True), "STM-R-57")  # used this turn
    state = play(state, PayCost())
    assert state.players[0].crystals == 0
    gear = player([(4, False)], gears=2, sponsor="crystal", machine_room=room((1, machine("M0-05"))))
    refused(play(game(gear, player()), ChannelPressure(4)), PayCost(sponsor=True), "STM-R-57")


def test_r57_the_sponsor_works_in_another_players_turn() -> None:
    """p.29: 'You can use the sponsor 1 time per turn (also during a fellow player's turn)': STM-EX-36
    with Yellow's gear sponsor: she pays 1 gear for the 2 VP."""
    blue = player([(4, False)], machine_room=room((1, machine("M0-05"))))
    yellow = player(gears=1, sponsor="gear", parasites_home=2)
    state = play(game(blue, yellow, parasites=(Parasite(1, 0, 1),)), ChannelPressure(4), DeclineCost())
    refused(state, PayCost(), "STM-R-22")
    state = play(state, PayCost(sponsor=True), UsePart())
    y = state.players[1]
    assert (y.gears, y.vp, y.sponsor, y.sponsor_used) == (0, 2, "crystal", True)


def test_r57_the_sponsor_discounts_tiles_and_bonus_markers() -> None:
    """p.29: 'when paying any costs … when buying tiles and bonus markers': STM-EX-12 (p.19) 'Pay 2
    gears' becomes 1 gear; the crystal row's #5 (1 crystal, STM-EX-23) becomes free."""
    blue = player(gears=1, sponsor="gear")
    state = flying(5, "left", blue, player(), markets=(Market(5, ("M0-01", "M1-01")),))
    refused(state, BuyMachine(1), "STM-R-40")
    state = play(state, BuyMachine(1, sponsor=True))
    assert (state.players[0].gears, state.players[0].vp) == (0, 1)
    marker = flying(1, "right", player(sponsor="crystal"), player())
    marker = play(marker, BuyBonusMarker("crystal", 7, sponsor=True))
    assert marker.players[0].gauge.spaces[7] == BonusMarker(5) and marker.players[0].sponsor == "gear"


def test_r58_ex32_the_gala_pays_2_gears_and_returns_to_the_supply() -> None:
    """STM-EX-32 (p.29): 'Purple uses the district effect by discarding her gear charity gala to reduce
    the costs of 2 gears to 0, and therefore receives 1 capacity tile.'"""
    purple = player(gala="gear")
    state = play(flying(2, "left", purple, player()), UseDistrict())
    refused(state, PayCost(), "STM-R-22")
    state = play(state, PayCost(gala=True), BuildCapacity(1, 1))
    assert state.players[0].gala is None and state.supply.galas == (4, 4)
    assert state.players[0].machine_room[0] == STORAGE and state.players[0].gears == 0


def test_r58_the_gala_never_lowers_a_cost_below_0() -> None:
    """p.29: 'Through this discount the costs cannot fall below 0': 1 gear with a gear gala costs 0,
    the gala is spent; a crystal gala does not touch a gear cost."""
    blue = player([(4, False)], gears=1, gala="gear", machine_room=room((1, machine("M0-05"))))
    state = play(game(blue, player()), ChannelPressure(4))
    wrong = attrs.evolve(state, players=(attrs.evolve(state.players[0], gala="crystal"), state.players[1]))
    wrong = attrs.evolve(wrong, supply=attrs.evolve(wrong.supply, galas=(3, 4)))
    refused(wrong, PayCost(gala=True), "STM-R-58")
    state = play(state, PayCost(gala=True), UsePart())
    assert (state.players[0].gears, state.players[0].vp, state.players[0].gala) == (1, 2, None)


def test_r57_r58_taking_a_sponsor_and_a_gala() -> None:
    """p.29: 'Sponsor (Maximum: 1) … Place the sponsor on your airship with a visible side of your
    choice'; 'Charity gala (Maximum: 1) … Choose which type of donations'; STM-R-21 supply limits."""
    state = play(flying(7, "right", player(), player()), UseDistrict())
    assert {a for a in legal_actions(CTX, state) if isinstance(a, TakeSponsor)} == {
        TakeSponsor("crystal"),
        TakeSponsor("gear"),
    }
    after = play(state, TakeSponsor("gear"))
    assert after.players[0].sponsor == "gear" and after.supply.sponsors == 4
    held = attrs.evolve(state, players=(attrs.evolve(state.players[0], sponsor="crystal"), state.players[1]))
    refused(attrs.evolve(held, supply=attrs.evolve(held.supply, sponsors=4)), TakeSponsor("gear"), "STM-R-57")
    refused(attrs.evolve(state, supply=attrs.evolve(state.supply, sponsors=0)), TakeSponsor("gear"), "STM-R-21")
    gala = play(flying(6, "right", player(), player()), UseDistrict())
    after = play(gala, TakeGala("crystal"))
    assert after.players[0].gala == "crystal" and after.supply.galas == (3, 4)
    refused(attrs.evolve(gala, supply=attrs.evolve(gala.supply, galas=(0, 4))), TakeGala("crystal"), "STM-R-21")


def test_r57_character_5_keeps_one_sponsor() -> None:
    """Model decision (proposed STM-AMB-34, default 'one'): character 5's set-up (reconstructed as two
    sponsor gains) leaves one sponsor; the second gain lapses as surplus over 'Maximum: 1' (p.29)."""
    state = game(player(), player(), phase=Phase.SETUP_ROOM, turn=TurnState(pending=((GainSponsor(), GainSponsor()),)))
    state = attrs.evolve(state, players=(attrs.evolve(state.players[0], character=5), state.players[1]))
    state = play(state, TakeSponsor("crystal"))
    refused(state, TakeSponsor("gear"), "STM-R-57")
    assert legal_actions(CTX, state) == [SkipPart()]


def test_r57_turn_sponsor() -> None:
    """p.31: 'Turn sponsor. You may turn your sponsor to the other side … No effect if you have no
    sponsor' (M1-11): no discount is used."""
    red = player([(4, False)], sponsor="crystal", machine_room=room((1, machine("M1-11"))))
    state = play(game(red, player()), ChannelPressure(4), UsePart())
    assert (state.players[0].sponsor, state.players[0].sponsor_used) == ("gear", False)
    bare = play(game(attrs.evolve(red, sponsor=None), player()), ChannelPressure(4))
    refused(bare, UsePart(), "STM-R-57")


# ---------------------------------------------------------------------------
# STM-R-61: 'buy tile' and 'use another district' (p.31)
# ---------------------------------------------------------------------------


def test_r61_buy_tile_on_any_level_by_the_normal_rules() -> None:
    """p.31: 'Choose 1 face-up machine tile on any level and buy it according to the normal rules …
    With this ability you can only buy tiles, no bonus markers' (L4-right); STM-EX-12 prices."""
    markets = (Market(4, ("M0-02",)), Market(6, ("M0-05", "M1-05")))
    state = play(flying(4, "right", player(gears=2), player(), markets=markets), UseDistrict())
    assert state.turn.pending[0][0] == BuyTile()
    refused(state, BuyMachine(1), "STM-R-61")  # name the level
    refused(state, BuyMachine(1, level=1), "STM-R-61")  # no bonus markers
    refused(state, BuyMachine(1, level=3), "STM-R-40")  # no market there
    refused(state, BuyBonusMarker("gear", 3), "STM-R-22")
    state = play(state, BuyMachine(1, level=6))
    p = state.players[0]
    assert (p.gears, p.vp, p.machine_room[0]) == (0, 1, machine("M0-05"))
    assert state.markets[1].tiles == ("M1-05",) and state.phase is Phase.END_OF_TURN


def test_r61_a_flight_step_buys_only_on_its_level() -> None:
    """STM-R-38: buying in step 3 uses the active level's market; naming another level is 'buy tile'."""
    state = flying(5, "left", player(gears=2), player(), markets=(Market(5, ("M0-01",)), Market(6, ("M0-05",))))
    refused(state, BuyMachine(1, level=6), "STM-R-38")


def test_r61_use_another_district() -> None:
    """p.31: 'Use the effect of 1 arbitrary district that you have not activated in this turn and on
    which none of your pressure stones lies. (If the district is occupied by another player, you can
    use it nevertheless. You may not use those districts on which a pressure stone lay at the start of
    your action FLY TO ALL TARGETS - even if you only bought on the market with it.)' (L8-right)."""
    blue = player(on_board=3)
    board = (BoardStone(0, 3, "left"), BoardStone(0, 8, "right"), BoardStone(0, 5, "left"), BoardStone(1, 3, "right"))
    state = play(game(blue, player(on_board=1), board=board), FlyToAllTargets(), TakeBack(3, "left"), LetLapse())
    state = play(state, TakeBack(8, "right"), UseDistrict())
    refused(state, UseOtherDistrict(3, "left"), "STM-R-61")  # in S0
    refused(state, UseOtherDistrict(8, "right"), "STM-R-61")  # activated this turn
    refused(state, UseOtherDistrict(5, "left"), "STM-R-61")  # Blue's stone lies there
    refused(state, UseOtherDistrict(3, "third"), "STM-R-01")
    state = play(state, UseOtherDistrict(3, "right"), TakeResources(2, 1))
    assert (3, "right") in state.turn.activated and state.players[0].crystals == 2


def test_amb33_stone_parts_of_the_other_district() -> None:
    """STM-AMB-33: 'stone to 8' reached through 'use another district' (4-player L3-third) moves the stone
    taken back in the current step ('current'), or lapses ('lapse')."""
    blue = player([(1, False)], on_board=1)
    others = (player(), player(), player())
    state = play(game(blue, *others, board=(BoardStone(0, 8, "right"),)), FlyToAllTargets(), TakeBack(8, "right"))
    state = play(state, UseDistrict())
    current = play(state, UseOtherDistrict(3, "third"))
    assert current.turn.pending[0][0] == StoneToEight()
    moved = play(current, UsePart())
    assert moved.players[0].gauge.stone_spaces() == (1, PACK.gauge.space_of_value(8))
    lapse = Context.printed(readings={"STM-AMB-33": "lapse"})
    after = play(state, UseOtherDistrict(3, "third"), ctx=lapse)
    assert not after.turn.pending and after.players[0].gauge.stone_spaces() == (1, 2)


def test_amb23_a_district_behind_a_shadow_stone() -> None:
    """STM-AMB-23: 'yes' — a district blocked by a solo shadow stone may be used ('occupied by another
    player'); 'no' refuses it.  In a FLY every shadow stone lies on a district of S0 (STM-R-70), which
    R-61 refuses anyway, so the question arises outside the flight: a machine's 'use another district'
    while channelling (here the effect waits in the channel phase)."""
    board = (BoardStone(0, 8, "right"), BoardStone(SHADOW, 3, "right"))
    solo = attrs.evolve(game(player(on_board=1, vp=4), board=board), solo=Solo(), supply=Supply())
    flown = play(solo, FlyToAllTargets(), TakeBack(8, "right"), UseDistrict())
    assert flown.board == (BoardStone(SHADOW, 8, "right"),)  # STM-R-70: the old shadow stone left the board
    refused(flown, UseOtherDistrict(8, "right"), "STM-R-61")  # already activated, and in S0
    channelling = attrs.evolve(solo, phase=Phase.CHANNEL, turn=TurnState(channel=3, pending=((UseAnotherDistrict(),),)))
    assert check(CTX, channelling, UseOtherDistrict(3, "right")) is None
    refused(channelling, UseOtherDistrict(3, "right"), "STM-R-61", ctx=Context.printed(readings={"STM-AMB-23": "no"}))


# ---------------------------------------------------------------------------
# STM-R-04: character 7's pink bonus marker (p.2, p.22)
# ---------------------------------------------------------------------------


def test_r04_the_pink_marker_goes_on_its_numeral() -> None:
    """STM-R-04 (p.2 '1x pink for character 7'), placed as a bought bonus marker (STM-R-47, p.22) on a
    space printed with its numeral (STM-P-08: a pack parameter)."""
    numeral = PACK.pink_numeral
    (space,) = [s for s in PACK.gauge.numeral_spaces(numeral) if s > 3]
    seven = attrs.evolve(player([(1, False), (2, False), (3, False)]), character=7)
    state = game(seven, player(), phase=Phase.SETUP_ROOM, turn=TurnState(pending=((GainPinkMarker(),),)))
    refused(state, PlacePinkMarker(None), "STM-R-47")
    refused(state, PlacePinkMarker(1), "STM-R-47")
    after = play(state, PlacePinkMarker(space))
    assert after.players[0].gauge.spaces[space] == BonusMarker(numeral, pink=True)
    other = attrs.evolve(state, players=(attrs.evolve(seven, character=9), state.players[1]))
    refused(other, PlacePinkMarker(space), "STM-R-04")


# ---------------------------------------------------------------------------
# Nothing is left only to be forgone; the turn's bookkeeping round-trips
# ---------------------------------------------------------------------------


def test_every_part_is_playable() -> None:
    assert NOT_YET == {}


def test_waiting_handovers_round_trip_through_json_and_repr() -> None:
    """``turn.pending`` with handovers, envy placements and a choice of order is written in the effect
    vocabulary and read back; the state's repr evaluates in the state module."""
    import rulecraft.model.steamopolis.state as state_module

    pending = (
        (Handover(1),),
        (EnvyParasite(0),),
        (NextSharer((1, 2), ((GainResources(crystals=1),), (EnvyParasite(0),))),),
        (ActivateParasites(None), ShakeOff(False), UseAnotherDistrict()),
    )
    state = game(player(), player(), player(), turn=TurnState(pending=pending, decider=2))
    for program in pending:
        assert queued_from_data(program_to_data(program)) == program
    g = SteamopolisGame()
    assert g.state_from_json(json.loads(json.dumps(g.state_to_json(state)))) == state
    assert eval(repr(state), dict(vars(state_module))) == state
    actions: list[StmAction] = [
        PlaceParasite(1, 2, "passive", (2, 3, "activation")),
        PlaceParasite(None, None),
        ActivateParasite(((1, 2, "passive"), (2, 1, "activation"))),
        ShakeOffParasite(1, 4, "passive"),
        LetPlayer(2),
        TakeSponsor("gear"),
        TakeGala("crystal"),
        PlacePinkMarker(5, False),
        UseOtherDistrict(3, "third"),
        BuyMachine(2, 1, True, 6, True, True),
        BuyBanner(3, False, 4, False, True),
        BuyBonusMarker("gear", 3, False, True, False),
        PayCost(None, True, True),
    ]
    for action in actions:
        assert g.action_from_json(json.loads(json.dumps(g.action_to_json(action)))) == action


# ---------------------------------------------------------------------------
# Generation lists exactly what the check accepts (random states with parasites, sponsors, galas)
# ---------------------------------------------------------------------------


def _random_state(rng: random.Random) -> StmState:
    n = rng.choice((2, 3, 4))
    side = PACK.side("4" if n == 4 else "2-3")
    free = [(d.level, d.position) for d in side]
    rng.shuffle(free)
    tiles = [m.id for m in PACK.machines]
    rng.shuffle(tiles)
    players: list[PlayerState] = []
    board: list[BoardStone] = []
    for seat in range(n):
        spaces = sorted(rng.sample(range(1, 11), rng.randint(0, 3)))
        on_board = rng.randint(0 if spaces else 1, 5 - len(spaces))
        for _ in range(on_board):
            level, position = free.pop()
            board.append(BoardStone(seat, level, position, Stone(rng.random() < 0.3)))
        positions = rng.sample(range(1, 8), rng.randint(1, 4))
        players.append(
            player(
                [(s, rng.random() < 0.3) for s in spaces],
                on_board=on_board,
                machine_room=room(*((pos, machine(tiles.pop())) for pos in positions)),
                crystals=rng.randint(0, 3),
                gears=rng.randint(0, 3),
                sponsor=rng.choice((None, "crystal", "gear")),
                gala=rng.choice((None, None, "crystal", "gear")),
                character=rng.choice((5, 7, 9)),
            )
        )
    parasites: list[Parasite] = []
    for owner in range(n):
        for _ in range(rng.randint(0, 3)):
            host = rng.choice([s for s in range(n) if s != owner])
            spots = [
                (pos, on)
                for pos, t in enumerate(players[host].machine_room, start=1)
                if t is not None
                for on in ("activation", "passive")
                if (CTX.face(t).boilers if on == "activation" else CTX.face(t).passive)
            ]
            if spots:
                pos, on = rng.choice(spots)
                x = Parasite(owner, host, pos, on)  # type: ignore[arg-type]
                if sum(1 for y in parasites if (y.owner, y.host, y.position) == (owner, host, pos)) < (
                    2 if n == 2 else 1
                ):
                    parasites.append(x)
    players = [
        attrs.evolve(p, parasites_home=3 - sum(1 for x in parasites if x.owner == seat))
        for seat, p in enumerate(players)
    ]
    markets = tuple(Market(level, tuple(tiles.pop() for _ in range(rng.randint(0, 2)))) for level in range(2, 9))
    pax_ids = [t.id for t in PACK.passengers]
    rng.shuffle(pax_ids)
    pax = Passengers(banker=rng.randint(5, 8), stoker=rng.randint(1, 4), stack=tuple(pax_ids[1:]), face_up=pax_ids[0])
    return game(*players, board=tuple(board), markets=markets, parasites=tuple(parasites), passengers=pax)


def _probes(state: StmState) -> Iterator[StmAction]:
    """A grid of the new actions over a range wider than the legal one."""
    n = len(state.players)
    seats: tuple[int | None, ...] = (None, *range(n + 1))
    placed = sorted({(x.host, x.position, x.on) for x in state.parasites if x.host is not None})
    for host in seats:
        for position in (None, 0, 1, 2, 3, 4, 5, 6, 7, 8):
            for on in ("activation", "passive"):
                for moved in (None, *placed[:3]):
                    yield PlaceParasite(host, position, on, moved)  # type: ignore[arg-type]
    for k in range(3):
        yield ActivateParasite(tuple(placed[:k]))  # type: ignore[arg-type]
        yield ActivateParasite(tuple(reversed(placed[:k])))  # type: ignore[arg-type]
    for owner in range(n + 1):
        for position in range(0, 9):
            for on in ("activation", "passive"):
                yield ShakeOffParasite(owner, position, on)  # type: ignore[arg-type]
    yield from (LetPlayer(s) for s in range(-1, n + 1))
    resources: tuple[Resource, ...] = ("crystal", "gear")
    yield from (TakeSponsor(r) for r in resources)
    yield from (TakeGala(r) for r in resources)
    for space in (None, *range(-1, 12)):
        yield PlacePinkMarker(space)
        yield PlacePinkMarker(space, False)
    for d in (*PACK.side("4"), *PACK.side("2-3")):
        yield UseOtherDistrict(d.level, d.position)
    for level in (None, 1, 2, 5, 8, 9):
        for extra in (False, True):
            for sponsor in (False, True):
                for gala in (False, True):
                    yield BuyBanner(None, extra, level, sponsor, gala)
                    yield BuyMachine(1, None, extra, level, sponsor, gala)
                    yield BuyMachine(5, 2, extra, level, sponsor, gala)
    for sponsor in (False, True):
        for gala in (False, True):
            yield PayCost(None, sponsor, gala)
            yield BuyBonusMarker("crystal", 7, True, sponsor, gala)
            yield BuyBonusMarker("gear", 3, False, sponsor, gala)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["clockwise", "owner-chooses"]))
def test_generation_and_check_agree_along_random_turns(seed: int, order: str) -> None:
    """Every generated action passes the check; every probe of the new kinds the check accepts is
    generated; the state invariants hold after every step; some action is always available."""
    ctx = Context.printed(readings={"STM-AMB-21": order})
    rng = random.Random(seed)
    state = _random_state(rng)
    assert problems(state, PACK) == []
    for step in range(80):
        if state.phase in (Phase.REVEAL, Phase.OVER):
            break
        actions = legal_actions(ctx, state)
        assert actions, state
        assert len(set(actions)) == len(actions)
        for action in actions:
            assert check(ctx, state, action) is None, action
        if step % 3 == 0:
            accepted = {a for a in _probes(state) if check(ctx, state, a) is None}
            assert accepted <= set(actions), accepted - set(actions)
        state = transition(ctx, state, rng.choice(actions))
        assert problems(state, PACK) == [], state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_pass_the_decision_between_players(players: int) -> None:
    """Random full turns from set-up: the decision passes to other players (parasites, envy) and back,
    and every turn ends with the player to move deciding again."""
    g = SteamopolisGame()
    rng = random.Random(players)
    state = g.new_game(players)
    helped = 0
    for _ in range(1500):
        action = g.random_action(state, rng)
        if action is None:
            break
        state = g.apply(state, action)
        helped += state.turn.decider is not None
        if state.phase is Phase.START_OF_TURN:
            assert state.turn.decider is None
        assert problems(state, g.pack) == []
    assert helped > 0
