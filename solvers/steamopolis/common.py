"""What the Steamopolis solvers share: the Z3 machinery of :mod:`rulecraft.solving` (re-exported here:
the one place Z3 runs, rule families tracked by name with a core that keeps only the rules needed to
say no), the default state and the flag parsers.

Every encoding keeps the rules (named families, ``assert_and_track``) apart from the instance (the
state's data and the question, plain assertions), so an unsat core names rules only.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise, product
from typing import Any

import attrs

from rulecraft.core import RulecraftError
from rulecraft.model.steamopolis.components import DistrictPosition
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, GaugeLayout, Stone, gauge_of, values
from rulecraft.model.steamopolis.state import Phase, StmState, new_player

# The shared Z3 machinery, re-exported: the Steamopolis encodings import it from here.
from rulecraft.query import int_param as int_param
from rulecraft.solving import RuleSolver as RuleSolver
from rulecraft.solving import check as check
from rulecraft.solving import ms as ms
from rulecraft.solving import new_solver as new_solver
from rulecraft.solving import status_of as status_of

DEFAULT_TIMEOUT_MS = 5000
POSITIONS: tuple[DistrictPosition, ...] = ("left", "right", "third")


# --- the state --------------------------------------------------------------------------------------


def default_state() -> StmState:
    """The position the queries use without ``--state``: two players just set up (STM-R-08..12: base
    marker on g0, stones on g1-g3 = values 1, 1, 2, two stones in the supply), empty machine rooms,
    no resources, an empty 2/3-player board, seat 0 choosing its action (phase action)."""
    return StmState(players=(new_player(1), new_player(3)), phase=Phase.ACTION)


def seat_of(state: StmState, params: Mapping[str, Any]) -> int:
    seat = int_param(params, "seat", state.to_move)
    if not 0 <= seat < len(state.players):
        raise RulecraftError(f"--seat: the state has seats 0..{len(state.players) - 1}, got {seat}")
    return seat


def context_of(game: Any) -> Context:
    ctx = getattr(game, "ctx", None)
    if not isinstance(ctx, Context):
        raise RulecraftError(f"the Steamopolis queries need a Steamopolis game (with a Context), got {game!r}")
    return ctx


def state_of(state: Any) -> StmState:
    if state is None:
        return default_state()
    if not isinstance(state, StmState):
        raise RulecraftError(f"--state: a Steamopolis state is needed, got {type(state).__name__}")
    return state


# --- flags -----------------------------------------------------------------------------------------------


def _items(text: Any) -> list[str]:
    return [part.strip() for part in str(text).replace(" ", ",").split(",") if part.strip()]


def _space(item: str, layout: GaugeLayout, flag: str) -> tuple[int, bool]:
    body = item[1:] if item[:1].lower() == "g" else item
    arrow = body[-1:].upper() == "A"
    body = body[:-1] if arrow else body
    try:
        space = int(body)
    except ValueError:
        raise RulecraftError(f"{flag}: a gauge space is g1..g{layout.last} (A: arrow), got {item!r}") from None
    if not 1 <= space <= layout.last:
        raise RulecraftError(f"{flag}: a gauge space is g1..g{layout.last}, got {item!r}")
    return space, arrow


def parse_stones(text: Any, layout: GaugeLayout, flag: str) -> list[tuple[int, bool]]:
    """Spaces form, e.g. ``g1,g2,g3A``: the stones' gauge spaces, ``A`` for an arrow stone."""
    stones = [_space(item, layout, flag) for item in _items(text)]
    if len({s for s, _ in stones}) != len(stones):
        raise RulecraftError(f"{flag}: at most one stone per gauge space (STM-R-14), got {text!r}")
    return stones


def parse_markers(text: Any, layout: GaugeLayout) -> list[tuple[int, int]]:
    """``g3=2,g7=5``: bonus markers by space and numeral."""
    out: list[tuple[int, int]] = []
    for item in _items(text):
        where, _, numeral = item.partition("=")
        space, _ = _space(where, layout, "--markers")
        try:
            out.append((space, int(numeral)))
        except ValueError:
            raise RulecraftError(f"--markers: space=numeral, e.g. g3=2, got {item!r}") from None
    return out


def gauge_from_params(params: Mapping[str, Any], layout: GaugeLayout, fallback: Gauge) -> Gauge:
    """``--gauge g1,g2,g3A`` (with ``--markers``, ``--base``), else the seat's gauge in the state."""
    if not params.get("gauge"):
        if params.get("markers") or params.get("base") is not None:
            raise RulecraftError("--markers/--base describe a --gauge: give the stones with --gauge g1,g2,g3")
        return fallback
    stones = parse_stones(params["gauge"], layout, "--gauge")
    markers = parse_markers(params["markers"], layout) if params.get("markers") else []
    base = int_param(params, "base", 0, 0, layout.base_limit)
    if len(layout.values) != len(fallback.spaces):
        raise RulecraftError("--gauge: the pack's gauge layout differs from the standard one")
    try:
        return gauge_of(stones, markers, base)
    except ValueError as err:
        raise RulecraftError(f"--gauge: {err}") from None


@attrs.frozen
class Arrangement:
    """A target arrangement: the stones' spaces with their faces (markers and base never move)."""

    stones: frozenset[tuple[int, bool]]

    def text(self) -> str:
        return ",".join(f"g{s}{'A' if a else ''}" for s, a in sorted(self.stones))


def parse_target(text: Any, layout: GaugeLayout, flag: str = "--target") -> tuple[Arrangement, ...]:
    """Spaces form (``g6,g7A,g8``: exactly these) or the VALUES form (``4,5A,6``: every arrangement
    whose left-to-right values and faces read so, STM-EX-38 ff.)."""
    items = _items(text)
    if not items:
        raise RulecraftError(f"{flag}: give the stones, e.g. g6,g7A,g8 or 4,5A,6")
    if all(item[:1].lower() == "g" for item in items):
        return (Arrangement(frozenset(parse_stones(text, layout, flag))),)
    wanted: list[tuple[int, bool]] = []
    for item in items:
        arrow = item[-1:].upper() == "A"
        try:
            wanted.append((int(item[:-1] if arrow else item), arrow))
        except ValueError:
            raise RulecraftError(f"{flag}: values such as 4,5A,6 or spaces such as g6,g7A,g8, got {item!r}") from None
    choices = [[i for i in range(1, layout.last + 1) if layout.values[i] == v] for v, _ in wanted]
    out = []
    for spaces in product(*choices):
        if all(a < b for a, b in pairwise(spaces)):
            out.append(Arrangement(frozenset((s, a) for s, (_, a) in zip(spaces, wanted, strict=True))))
    if not out:
        raise RulecraftError(f"{flag}: no gauge arrangement reads {text!r} left to right")
    return tuple(out)


def parse_district(text: Any, flag: str) -> tuple[int, DistrictPosition | None]:
    """``LEVEL`` or ``LEVEL,POSITION`` (left, right, third)."""
    items = _items(text)
    try:
        level = int(items[0])
    except (IndexError, ValueError):
        raise RulecraftError(f"{flag}: LEVEL[,POSITION], e.g. 5 or 5,left, got {text!r}") from None
    if len(items) > 2:
        raise RulecraftError(f"{flag}: LEVEL[,POSITION], got {text!r}")
    position = items[1].lower() if len(items) == 2 else None
    for known in POSITIONS:
        if position == known:
            return level, known
    if position is not None:
        raise RulecraftError(f"{flag}: a district position is left, right or third, got {items[1]!r}")
    return level, None


def check_district(ctx: Context, state: StmState, level: int, position: DistrictPosition | None, flag: str) -> None:
    """STM-R-01: the board side has that level (and district)."""
    here = [d for d in ctx.districts(state) if d.level == level and position in (None, d.position)]
    if not here:
        where = f"a {position} district on level {level}" if position else f"level {level}"
        raise RulecraftError(f"{flag}: the {state.board_side}-player side has no {where} (STM-R-01)")


def describe_gauge(gauge: Gauge, layout: GaugeLayout) -> dict[str, Any]:
    """A gauge in both text forms (spaces and the solo example's VALUES line)."""
    stones = ",".join(
        f"g{i}{'A' if isinstance(item, Stone) and item.arrow else ''}"
        for i, item in enumerate(gauge.spaces)
        if isinstance(item, Stone)
    )
    markers = [f"g{i}=#{item.numeral}" for i, item in enumerate(gauge.spaces) if isinstance(item, BonusMarker)]
    return {"spaces": stones, "values": ",".join(values(gauge, layout)), "base": gauge.base, "markers": markers}
