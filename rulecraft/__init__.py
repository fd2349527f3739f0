"""rulecraft: board-game rulebooks as executable, checkable specifications.

Games register through the ``rulecraft.games`` entry point; start with
``rulecraft.registry.make_game("air")``.
"""

from rulecraft.core import (
    CHANCE,
    GAME_OVER,
    Chance,
    Game,
    GameOver,
    IllegalAction,
    Rejection,
    RulecraftError,
    Seat,
    Setup,
)

__version__ = "0.20.0"

__all__ = [
    "CHANCE",
    "GAME_OVER",
    "Chance",
    "Game",
    "GameOver",
    "IllegalAction",
    "Rejection",
    "RulecraftError",
    "Seat",
    "Setup",
    "__version__",
]
