"""Planted rule bugs for testing the conformance kit: the reference server
with exactly one rule changed, the way a real implementation gets it wrong.

    python -m rulecraft.conformance.mutants kas toll

Each mutant names the rule it breaks; ``rulecraft conform`` must find every
one of them (tests/test_conformance_mutants.py).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import attrs

MUTANTS: dict[str, dict[str, tuple[str, str]]] = {
    "kas": {
        "toll": ("KAS-R-38", "tolls are never paid to the depot's owner"),
        "stops": ("KAS-R-37", "a shipment may make one stop more than the rail level"),
        "sharp-turn": ("KAS-R-26", "flights may turn sharply (120 degrees)"),
        "diamonds": ("KAS-R-25", "the diamond check forgets the cards already played"),
    },
}


def _plant_kas(name: str) -> None:
    from rulecraft.model.kings_of_air_and_steam import flight, shipping, transitions

    if name == "toll":
        transitions._transfer = lambda state, payer, payee, amount: state
    elif name == "stops":
        for fn_name in ("routes", "legal_shipments", "shipment_problem", "sellout_options"):
            original = getattr(shipping, fn_name)
            setattr(shipping, fn_name, _one_more_stop(original))
    elif name == "sharp-turn":
        original_rules = flight.FlightRules.from_readings

        def sharp(readings: Any, **kw: Any) -> Any:
            return attrs.evolve(original_rules(readings, **kw), sharp_ok=True)

        flight.FlightRules.from_readings = sharp  # type: ignore[method-assign]
    elif name == "diamonds":
        setattr(transitions, "diamonds_in_play", lambda ctx, player: 0)  # noqa: B010 - not re-exported, so no attribute for mypy
    else:  # pragma: no cover - guarded by main()
        raise KeyError(name)


def _one_more_stop(original: Callable[..., Any]) -> Callable[..., Any]:
    """The rail level is passed positionally after the fixed arguments of each shipping function."""
    import inspect

    position = list(inspect.signature(original).parameters).index("rail_level")

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if "rail_level" in kwargs:
            kwargs["rail_level"] += 1
        else:
            args = (*args[:position], args[position] + 1, *args[position + 1 :])
        return original(*args, **kwargs)

    return wrapped


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] not in MUTANTS or args[1] not in MUTANTS[args[0]]:
        known = {g: sorted(m) for g, m in MUTANTS.items()}
        print(f"usage: python -m rulecraft.conformance.mutants GAME MUTANT; known: {known}", file=sys.stderr)
        return 4
    game, name = args
    if game == "kas":
        _plant_kas(name)
    from rulecraft.conformance.server import serve

    return serve(game)


if __name__ == "__main__":
    raise SystemExit(main())
