"""Aeroplanes: Aviation Ascendant: the record the ``rulecraft.games`` entry point exports (see rulecraft/record.py).

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
    from rulecraft.model.aeroplanes.game import AeroplanesGame


def _game() -> type[Game[Any, Any]]:
    from rulecraft.model.aeroplanes.game import AeroplanesGame

    return AeroplanesGame


def _own(game: Game[Any, Any]) -> AeroplanesGame:
    """``game`` as this game's class: its invariants and hooks read the model's own attributes."""
    from rulecraft.model.aeroplanes.game import AeroplanesGame

    if not isinstance(game, AeroplanesGame):
        raise TypeError(f"Aeroplanes invariants and hooks need AeroplanesGame, not {type(game).__name__}")
    return game


def _queries() -> Mapping[str, Query]:
    from rulecraft.solvers.aeroplanes.queries import QUERIES

    return QUERIES


def _violations(game: Game[Any, Any], state: Any) -> list[Any]:
    from rulecraft.invariants.aeroplanes import check_all

    return list(check_all(_own(game).ctx, state))


RECORD = GameRecord(
    id="aer",
    title="Aeroplanes: Aviation Ascendant",
    players=range(3, 6),  # AER-R-01
    game=_game,
    queries=_queries,
    violations=_violations,
)
