"""Kings of Air and Steam: the record the ``rulecraft.games`` entry point exports (rulecraft/record.py).

Names are data; the model, its queries and its invariants are named here and imported when first
asked for, so listing the games imports none of them, and the model imports none of its tools.
"""

from __future__ import annotations

from rulecraft.record import GameRecord

RECORD = GameRecord.of_packages(
    id="kas",
    title="Kings of Air and Steam",
    players=range(2, 8),
    game="rulecraft.model.kings_of_air_and_steam.game:KingsOfAirAndSteamGame",
    catalogue="rulecraft.model.kings_of_air_and_steam.catalogue:RULES",
    register="rulecraft.model.kings_of_air_and_steam.readings:REGISTER",
    queries="rulecraft.solvers.kings_of_air_and_steam.queries:QUERIES",
    invariants="rulecraft.invariants.kings_of_air_and_steam:check_all",
    packs="rulecraft.model.kings_of_air_and_steam.strategies:packs",
    scenarios="rulecraft.model.kings_of_air_and_steam.scenario",
    policies="rulecraft.model.kings_of_air_and_steam.policies:PLAYOUT",
    scenario_folder="kings_of_air_and_steam",
    witness_queries="rulecraft.solvers.kings_of_air_and_steam.starts:witness_queries",
    witness_starts="rulecraft.solvers.kings_of_air_and_steam.starts:witness_starts",
    reading_example="KAS-AMB-20=once",
)
