"""What the Aeroplanes solvers share: the Z3 machinery of :mod:`rulecraft.solving` (re-exported here:
the one place Z3 runs, rule families tracked by name with a core that keeps only the rules needed to
say no), the context/state/seat readers and the flag parsers.

Every encoding keeps the rules (named families, ``assert_and_track`` through one literal per family) apart
from the instance (the state's data and the question, plain assertions), so an unsat core names rules only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.state import AerState, Phase

# The shared Z3 machinery, re-exported: the Aeroplanes encodings import it from here.
from rulecraft.query import int_param as int_param
from rulecraft.solving import RuleSolver as RuleSolver
from rulecraft.solving import any_of as any_of
from rulecraft.solving import at_most_one as at_most_one
from rulecraft.solving import check as check
from rulecraft.solving import exactly_one as exactly_one
from rulecraft.solving import int_in as int_in
from rulecraft.solving import ms as ms
from rulecraft.solving import new_optimize as new_optimize
from rulecraft.solving import new_solver as new_solver
from rulecraft.solving import status_of as status_of
from rulecraft.solving import true_in as true_in

DEFAULT_TIMEOUT_MS = 5000


# --- the game, the state, the seat ------------------------------------------------------------------


def context_of(game: Any) -> Context:
    """``game.ctx`` (the AerGame), or a Context itself."""
    ctx = game if isinstance(game, Context) else getattr(game, "ctx", None)
    if not isinstance(ctx, Context):
        raise RulecraftError(f"the Aeroplanes queries need an Aeroplanes game (with a Context), got {game!r}")
    return ctx


def default_state(ctx: Context) -> AerState:
    """The position the queries use without ``--state``: a seeded 3-player game, 30 decisions in (seed 13)."""
    import random

    from rulecraft.solvers.aeroplanes.samples import random_state

    return random_state(ctx, random.Random(13), players=3, steps=30)


def state_of(game: Any, ctx: Context, state: Any) -> AerState:
    """An AerState, its JSON form (through ``game.state_from_json``), or the default state."""
    if state is None:
        return default_state(ctx)
    if isinstance(state, AerState):
        return state
    reader = getattr(game, "state_from_json", None)
    if isinstance(state, Mapping) and reader is not None:
        got = reader(state)
        if isinstance(got, AerState):
            return got
    raise RulecraftError(f"--state: an Aeroplanes state is needed, got {type(state).__name__}")


def seat_of(state: AerState, params: Mapping[str, Any]) -> int:
    seat = int_param(params, "seat", state.to_move)
    if not 0 <= seat < len(state.players):
        raise RulecraftError(f"--seat: the state has seats 0..{len(state.players) - 1}, got {seat}")
    return seat


def require_action_phase(state: AerState) -> None:
    if state.phase not in (Phase.ACTION, Phase.PLACING):
        raise RulecraftError(
            f"--state: placements are asked at the choice of action or between attempts, not in {state.phase.value}"
        )


def require_readings(ctx: Context, defaults: Mapping[str, str], what: str) -> None:
    """The encodings build only these readings; any other is refused (never answered wrongly)."""
    odd = {k: ctx.r(k) for k, v in defaults.items() if ctx.r(k) != v}
    if odd:
        raise NotApplicable(f"{what}: encoded for the default readings only, not {odd}")


def destination_param(ctx: Context, params: Mapping[str, Any], key: str) -> str | None:
    value = params.get(key)
    if value is None or value == "":
        return None
    names: dict[str, str] = {str(d.name).lower(): str(d.name) for d in ctx.pack.destinations}
    got = names.get(str(value).strip().lower())
    if got is None:
        flag = f"--{key.replace('_', '-')}"
        raise RulecraftError(f"{flag}: no destination {value!r} on the map (AER-R-14)")
    return got
