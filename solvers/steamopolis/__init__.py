"""Steamopolis solvers (installed as rulecraft.solvers.steamopolis): Z3 queries on the pressure
gauge and SET 1 TARGET, each beside a brute-force oracle built on the model itself.

* :mod:`.placements`: every legal SET 1 TARGET placement, direct (STM-R-26) or by channelling
  (STM-R-28/29), the machines each path activates, the best channelling gain;
* :mod:`.gauges`: the gauges one "increase the pressure by X" reaches (STM-R-15);
* :mod:`.top`: the fewest turns until a stone can go on level 8 (or a given district).

The queries themselves (``QUERIES``) live in :mod:`.queries`; it is not imported here so that
importing a solver module never pulls in the game.
"""

from rulecraft.solvers.steamopolis.gauge import reachable_gauges
from rulecraft.solvers.steamopolis.placements import best_placement, placements_z3
from rulecraft.solvers.steamopolis.top import fewest_turns

__all__ = ["best_placement", "fewest_turns", "placements_z3", "reachable_gauges"]
