"""Shared pieces of the Kings of Air and Steam rule tests: the game, the plain plan and opponent,
and the rule a refusal cites.  Values come from the pack's card data and the rulebook, not the model."""

from __future__ import annotations

from typing import Any

from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.state import KasState
from rulecraft.registry import make_game
from rulecraft.tools import tools

PLAN = ["S01", "S02", "S03", "S04"]  # letters A, A, B, B; 0 diamonds; moves 0, 1, 1, 2 (pack card data)
SPHINX = {"team": "Sphinx", "character": "Victor Blane"}  # a plain opponent for advanced-game states
ALL_TILES = {"chemical": 3, "machine": 3, "food": 3, "textile": 3, "luxury": 3}


def game(**readings: str) -> KingsOfAirAndSteamGame:
    """The printed-rules game, or one under these readings (``game(**{"KAS-AMB-23": "full-hexes"})``)."""
    g = KingsOfAirAndSteamGame.configured(readings=readings) if readings else make_game("kas")
    assert isinstance(g, KingsOfAirAndSteamGame)
    return g


def rule(g: KingsOfAirAndSteamGame, state: KasState, action: Any) -> str | None:
    """The rule ID of the first rejection (None: legal); a rejection always says why in words."""
    rejection = g.check(state, action)
    if rejection is None:
        return None
    assert isinstance(rejection.reason, str) and rejection.reason.strip(), rejection
    return rejection.rule


def turn_state(
    g: KingsOfAirAndSteamGame, me: dict[str, Any], other: dict[str, Any] | None = None, **given: Any
) -> KasState:
    """Seat 0 in its cycle-1 action of a 2-player game on map ABC; ``me`` and ``other`` amend the seats."""
    return tools(g).scenario_state(
        {
            "players": 2,
            "phase": "action",
            "seat": 0,
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: {"plan": PLAN, "at": [0, -1], **me},
                1: {"plan": PLAN, "at": [0, -1], **(other or {})},
            },
            **given,
        }
    )


def delivery(g: KingsOfAirAndSteamGame, character: str, team: str, filled: int = 0, **me: Any) -> tuple[KasState, Hex]:
    """Seat 0 in its action with 3 food and 1 textile in a depot on line B2 beside Bown Town (food)."""
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    s = turn_state(
        g,
        {"team": team, "character": character, "money": 5, **me},
        SPHINX,
        depots=[{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 3, "textile": 1}}],
        cities={"Bown Town": {"filled": filled}},
        market={"slots": ["food", "machine", "textile"], "demand_pile": {"machine": 1}},
    )
    return s, depot
