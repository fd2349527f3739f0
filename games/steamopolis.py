"""Steamopolis: the record the ``rulecraft.games`` entry point exports (see rulecraft/record.py).

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
    from rulecraft.model.steamopolis.game import SteamopolisGame


def _game() -> type[Game[Any, Any]]:
    from rulecraft.model.steamopolis.game import SteamopolisGame

    return SteamopolisGame


def _own(game: Game[Any, Any]) -> SteamopolisGame:
    """``game`` as this game's class: its invariants and hooks read the model's own attributes."""
    from rulecraft.model.steamopolis.game import SteamopolisGame

    if not isinstance(game, SteamopolisGame):
        raise TypeError(f"Steamopolis invariants and hooks need SteamopolisGame, not {type(game).__name__}")
    return game


def _queries() -> Mapping[str, Query]:
    from rulecraft.solvers.steamopolis.queries import QUERIES

    return QUERIES


def _violations(game: Game[Any, Any], state: Any) -> list[Any]:
    from rulecraft.invariants.steamopolis import check_all

    return list(check_all(_own(game).ctx, state))


RECORD = GameRecord(
    id="stm",
    title="Steamopolis",
    players=range(1, 5),  # 1: the solo game (STM-R-68..73)
    game=_game,
    queries=_queries,
    violations=_violations,
)
