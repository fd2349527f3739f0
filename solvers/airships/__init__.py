"""Airships solvers: one attempt's dice as a Z3 reachability query and as an
exact probability, each checked against a brute-force oracle built on the
model's own dice functions (installed as rulecraft.solvers.airships)."""

from rulecraft.solvers.airships.spec import AttemptSpec, Choice, SpecError, legal_choices

__all__ = ["AttemptSpec", "Choice", "SpecError", "legal_choices"]
