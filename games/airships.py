"""Airships: the record the ``rulecraft.games`` entry point exports (see rulecraft/record.py).

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
    from rulecraft.model.airships.game import AirshipsGame


def _game() -> type[Game[Any, Any]]:
    from rulecraft.model.airships.game import AirshipsGame

    return AirshipsGame


def _own(game: Game[Any, Any]) -> AirshipsGame:
    """``game`` as this game's class: its invariants and hooks read the model's own attributes."""
    from rulecraft.model.airships.game import AirshipsGame

    if not isinstance(game, AirshipsGame):
        raise TypeError(f"Airships invariants and hooks need AirshipsGame, not {type(game).__name__}")
    return game


def _queries() -> Mapping[str, Query]:
    from rulecraft.solvers.airships.queries import QUERIES

    return QUERIES


def _violations(game: Game[Any, Any], state: Any) -> list[Any]:
    from rulecraft.invariants.airships import check_all

    return list(check_all(_own(game), state))


def _witness_queries(game: Game[Any, Any]) -> Mapping[str, Any]:
    from rulecraft.solvers.airships.separate import witness_queries

    return witness_queries(_own(game))


RECORD = GameRecord(
    id="air",
    title="Airships",
    players=range(2, 5),
    game=_game,
    queries=_queries,
    violations=_violations,
    witness_queries=_witness_queries,
)
