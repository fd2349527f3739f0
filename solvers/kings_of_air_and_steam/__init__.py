"""Kings of Air and Steam solvers: plans free of forfeits (KAS-R-25) and flight
reachability (KAS-R-26/27) as Z3 queries, each beside a brute-force oracle
(installed as rulecraft.solvers.kings_of_air_and_steam).

The queries themselves (``QUERIES``) live in :mod:`.queries`; it is not
imported here so that importing a solver module never pulls in the game.
"""

from rulecraft.solvers.kings_of_air_and_steam.flights import FlightSpec, can_end_on, endpoints_z3, flight_spec
from rulecraft.solvers.kings_of_air_and_steam.plans import (
    PlanSpec,
    best_plan,
    check_plan,
    legal_plans,
    plan_free_of_forfeits,
)

__all__ = [
    "FlightSpec",
    "PlanSpec",
    "best_plan",
    "can_end_on",
    "check_plan",
    "endpoints_z3",
    "flight_spec",
    "legal_plans",
    "plan_free_of_forfeits",
]
