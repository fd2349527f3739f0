"""The digest of a few seeded random games per game, as ``bench/speed.py`` plays them: chance by its
odds, a uniform legal action for every seat, each applied with ``transition``.

    python tests/seeded_games.py        # prints {game: [[seed, steps, sha256 of the actions], ...]}

tests/test_seeded_games_pinned.py runs this in fresh processes under different hash seeds (and the
compiled build, ``tox -e compiled``, runs it too): a seed must play the same game in every process,
on every machine and in every build.  Not a rules claim: a change that means to play other games
says so in CHANGELOG.md and updates the pins.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from rulecraft.registry import make_game

SEEDS = (0, 1, 2)
PLAYERS = 4
MAX_STEPS = 20_000  # bench/speed.py's cap: no pinned game comes near it


def digest(game_id: str, seed: int) -> tuple[int, str]:
    """(steps, sha256 over each action's repr) of one seeded 4-player game played to its end."""
    game = make_game(game_id)
    rng = random.Random(seed)
    state = game.new_game(PLAYERS)
    sha = hashlib.sha256()
    for step in range(MAX_STEPS):
        action = game.random_action(state, rng)
        if action is None:
            return step, sha.hexdigest()
        sha.update(repr(action).encode())
        sha.update(b"\n")
        state = game.transition(state, action)
    raise RuntimeError(f"{game_id} seed {seed}: still running after {MAX_STEPS} steps")


def main(argv: list[str]) -> int:
    games = argv or ["aer", "air", "kas", "stm"]
    print(json.dumps({g: [[s, *digest(g, s)] for s in SEEDS] for g in games}, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
