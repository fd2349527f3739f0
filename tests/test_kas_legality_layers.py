"""Generation and the check agree (python-chess style) for Kings of Air and
Steam: over many reachable states, an action is generated exactly when the
check accepts it, and every refusal cites a catalogued rule."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from rulecraft.core import IllegalAction
from rulecraft.model.kings_of_air_and_steam.actions import (
    BuildDepot,
    CourseCorrection,
    EndCargo,
    EndSellout,
    Fly,
    Grant,
    Load,
    PayUpkeep,
    PlaceStartDepot,
    Plan,
    ReturnGood,
    ShipGoods,
    Swap,
    Unload,
    UpgradeAirship,
    UpgradeRail,
)
from rulecraft.model.kings_of_air_and_steam.components import GOODS
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.state import KasState
from rulecraft.registry import make_game


def candidates(game: KingsOfAirAndSteamGame, state: KasState) -> list[Any]:
    """Many actions of every kind, legal or not."""
    game_map = game.ctx.game_map(state.layout)
    hexes = sorted(game_map.hexes)[:: max(1, len(game_map.hexes) // 40)]
    out: list[Any] = [EndCargo(), Grant(), UpgradeAirship(), UpgradeRail(), PayUpkeep(), EndSellout()]
    out += [PlaceStartDepot(h) for h in hexes] + [BuildDepot(h) for h in hexes]
    out += [BuildDepot(h) for h in game_map.rail_hexes()]
    out += [Plan(c.id) for c in game.pack.deck] + [Plan("no-such-card")]
    out += [Fly(p) for n in range(4) for p in itertools.product(range(6), repeat=n)]
    out += [CourseCorrection(d) for d in range(6)]
    for goods in GOODS:
        out += [Load(goods, s) for s in ("factory", "depot", "opponent")] + [Unload(goods), ReturnGood(goods)]
        out += [Swap(other, goods, "factory") for other in GOODS] + [Swap(other, goods, "depot") for other in GOODS]
        out += [ReturnGood(goods, d.at) for d in state.depots]
    for depot in state.depots:
        for goods, n in zip(GOODS, depot.goods, strict=True):
            for city in game_map.cities[:4]:
                out.append(ShipGoods(depot.at, goods, max(1, n), to_city=city.name))
                out.append(ShipGoods(depot.at, goods, n + 1, to_city=city.name))
            for other in state.depots[:4]:
                out.append(ShipGoods(depot.at, goods, max(1, n), to_depot=other.at))
    return out


def reachable_states(seeds: range, players: int) -> list[tuple[KingsOfAirAndSteamGame, KasState]]:
    game = make_game("kas")
    assert isinstance(game, KingsOfAirAndSteamGame)
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players)
        for step in range(2000):
            action = game.random_action(state, rng)
            if action is None:
                break
            if step % 37 == 0 and game.to_move(state) == state.seat:
                out.append((game, state))
            state = game.apply(state, action)
    return out


@pytest.mark.parametrize("players", [2, 4, 7])
def test_an_action_is_generated_exactly_when_the_check_accepts_it(players: int) -> None:
    states = reachable_states(range(3), players)
    assert len(states) > 10
    for game, state in states:
        legal = set(game.legal_actions(state))
        for action in candidates(game, state):
            rejection = game.check(state, action)
            if isinstance(action, Fly | ShipGoods) and rejection is None:
                continue  # the generator lists one path per end hex and canonical routes; others may be legal too
            assert (rejection is None) == (action in legal), (action, rejection, state.phase)
            if rejection is not None:
                assert rejection.rule in game.catalogue, rejection
                with pytest.raises(IllegalAction):
                    game.apply(state, action)
        for action in legal:
            assert game.check(state, action) is None
