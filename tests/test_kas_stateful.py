"""Kings of Air and Steam as a Hypothesis state machine (rulecraft.testing.GameMachine): legal actions
only (chance by its outcomes), over generated component packs, player counts 2-7 and the modelled
readings, every invariant after every step (KAS-R-56) and the general checks of the machine."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from rulecraft.core import Game
from rulecraft.model.kings_of_air_and_steam.actions import Load, ShipGoods, Swap, Unload
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.readings import MODELLED_ALTERNATIVES, NOT_MODELLED_TOGETHER, REGISTER
from rulecraft.model.kings_of_air_and_steam.strategies import packs
from rulecraft.ruleset import Ruleset
from rulecraft.testing import GameMachine

READINGS = sorted(MODELLED_ALTERNATIVES)


def _game(pack: Any, chosen: list[tuple[str, str]]) -> KingsOfAirAndSteamGame:
    return KingsOfAirAndSteamGame(Ruleset.from_overrides(REGISTER, dict(chosen)), pack)


class KasMachine(GameMachine):
    game_id = "kas"

    def games(self) -> st.SearchStrategy[Game[Any, Any]]:
        chosen = st.lists(st.sampled_from(READINGS), max_size=2, unique_by=lambda pair: pair[0]).filter(
            lambda drawn: tuple(sorted(drawn)) not in NOT_MODELLED_TOGETHER  # refused together (KAS-AMB-25, 30)
        )
        return st.builds(_game, st.one_of(st.none(), packs()), chosen)

    def leans_to(self, action: Any) -> bool:
        """Random play seldom ships: lean to loading, unloading and shipping."""
        return isinstance(action, ShipGoods | Load | Swap | Unload)


TestKas = KasMachine.TestCase
# A Kings of Air and Steam game is several hundred steps long: fewer, longer
# runs than the profile's default reach the later rounds, upkeep and the sellout.
TestKas.settings = settings(
    stateful_step_count=max(300, settings().stateful_step_count),
    max_examples=max(8, settings().max_examples // 4),
    deadline=None,
)
