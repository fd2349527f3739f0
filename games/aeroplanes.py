"""Aeroplanes: Aviation Ascendant: the record the ``rulecraft.games`` entry point exports (rulecraft/record.py).

Names are data; the model, its queries and its invariants are named here and imported when first
asked for, so listing the games imports none of them, and the model imports none of its tools.
"""

from __future__ import annotations

from rulecraft.record import GameRecord

RECORD = GameRecord.of_packages(
    id="aer",
    title="Aeroplanes: Aviation Ascendant",
    players=range(3, 6),  # AER-R-01
    game="rulecraft.model.aeroplanes.game:AeroplanesGame",
    # no catalogue: the game class joins RULES and SETUP (model/aeroplanes/game.py), so `rules aer` imports it
    register="rulecraft.model.aeroplanes.readings:REGISTER",
    queries="rulecraft.solvers.aeroplanes.queries:QUERIES",
    invariants="rulecraft.invariants.aeroplanes:check_all",
    packs="rulecraft.model.aeroplanes.strategies:packs",
    scenarios="rulecraft.model.aeroplanes.scenario",
    scenario_folder="aeroplanes",
    witness_queries="rulecraft.solvers.aeroplanes.starts:witness_queries",
    witness_starts="rulecraft.solvers.aeroplanes.starts:witness_starts",
    reading_example="AER-AMB-03=twice",
)
