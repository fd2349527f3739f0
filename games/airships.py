"""Airships: the record the ``rulecraft.games`` entry point exports (rulecraft/record.py).

Names are data; the model, its queries and its invariants are named here and imported when first
asked for, so listing the games imports none of them, and the model imports none of its tools.
"""

from __future__ import annotations

from rulecraft.record import GameRecord

RECORD = GameRecord.of_packages(
    id="air",
    title="Airships",
    players=range(2, 5),
    game="rulecraft.model.airships.game:AirshipsGame",
    catalogue="rulecraft.model.airships.catalogue:RULES",
    register="rulecraft.model.airships.readings:REGISTER",
    queries="rulecraft.solvers.airships.queries:QUERIES",
    invariants="rulecraft.invariants.airships:check_all",
    packs="rulecraft.model.airships.strategies:packs",
    scenarios="rulecraft.model.airships.scenario",
    scenario_folder="airships",
    witness_queries="rulecraft.solvers.airships.separate:witness_queries",
    witness_starts="rulecraft.solvers.airships.starts:witness_starts",
    reading_example="AIR-AMB-09=C",
)
