"""Kings of Air and Steam: the record the ``rulecraft.games`` entry point exports (see rulecraft/record.py).

Names are data; the model, its queries and its invariants are imported when first asked for, so
listing the games imports none of them, and the model imports none of its tools.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rulecraft.core import Game
from rulecraft.query import Query
from rulecraft.record import GameRecord

if TYPE_CHECKING:
    from rulecraft.model.kings_of_air_and_steam.game import KasGame


def _game() -> type[Game[Any, Any]]:
    from rulecraft.model.kings_of_air_and_steam.game import KasGame

    return KasGame


def _own(game: Game[Any, Any]) -> KasGame:
    """``game`` as this game's class: its invariants and hooks read the model's own attributes."""
    from rulecraft.model.kings_of_air_and_steam.game import KasGame

    if not isinstance(game, KasGame):
        raise TypeError(f"Kings of Air and Steam invariants and hooks need KasGame, not {type(game).__name__}")
    return game


def _queries() -> Mapping[str, Query]:
    from rulecraft.solvers.kings_of_air_and_steam.queries import QUERIES

    return QUERIES


def _violations(game: Game[Any, Any], state: Any) -> list[Any]:
    from rulecraft.invariants.kings_of_air_and_steam import check_all

    return list(check_all(_own(game), state))


RECORD = GameRecord(
    id="kas",
    title="Kings of Air and Steam",
    players=range(2, 8),
    game=_game,
    queries=_queries,
    violations=_violations,
)
