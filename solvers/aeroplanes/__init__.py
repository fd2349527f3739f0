"""Aeroplanes solvers (installed as rulecraft.solvers.aeroplanes): Z3 queries beside brute-force oracles built
on the model itself.

* :mod:`.placements`: every destination the seat can place an airport in now, with the rolls (AER-R-13..30);
* :mod:`.odds`: the exact probability that a placement attempt succeeds, and its expected cost (AER-R-19..28);
* :mod:`.standings`: the fewest extra airports / passenger tiles to take first place (AER-R-50..52).

The queries themselves (``QUERIES``) live in :mod:`.queries`; it is not imported here so that importing a
solver module never pulls in the game.
"""

from rulecraft.solvers.aeroplanes.odds import exact, play_z3
from rulecraft.solvers.aeroplanes.placements import placements_z3, wish_z3
from rulecraft.solvers.aeroplanes.standings import market_z3, profit_z3

__all__ = ["exact", "market_z3", "placements_z3", "play_z3", "profit_z3", "wish_z3"]
