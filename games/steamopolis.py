"""Steamopolis: the record the ``rulecraft.games`` entry point exports (rulecraft/record.py).

Names are data; the model, its queries and its invariants are named here and imported when first
asked for, so listing the games imports none of them, and the model imports none of its tools.
"""

from __future__ import annotations

from rulecraft.record import GameRecord

RECORD = GameRecord.of_packages(
    id="stm",
    title="Steamopolis",
    players=range(1, 5),  # 1: the solo game (STM-R-68..73)
    game="rulecraft.model.steamopolis.game:SteamopolisGame",
    catalogue="rulecraft.model.steamopolis.catalogue:RULES",
    register="rulecraft.model.steamopolis.readings:REGISTER",
    queries="rulecraft.solvers.steamopolis.queries:QUERIES",
    invariants="rulecraft.invariants.steamopolis:check_all",
    packs="rulecraft.model.steamopolis.strategies:packs",
    scenarios="rulecraft.model.steamopolis.scenario",
    policies="rulecraft.model.steamopolis.policies:PLAYOUT",
    scenario_folder="steamopolis",
    witness_queries="rulecraft.solvers.steamopolis.starts:witness_queries",
    witness_starts="rulecraft.solvers.steamopolis.starts:witness_starts",
    reading_example="STM-AMB-28=below-zero",
)
