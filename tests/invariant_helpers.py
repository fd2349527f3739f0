"""The invariant checks take the configured game (rulecraft.invariant); Steamopolis and Aeroplanes
recount from its rules context.  Tests that build a context with a reading or a small pack of their
own hand the checks a copy of the printed game holding that context."""

from __future__ import annotations

import copy
from typing import Any

from rulecraft.registry import make_game


def game_with(game_id: str, ctx: Any) -> Any:
    """A copy of the printed ``game_id`` whose rules context is ``ctx``."""
    game = copy.copy(make_game(game_id))
    game.ctx = ctx  # type: ignore[attr-defined]  # both games keep their context in .ctx
    return game
