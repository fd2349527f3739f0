"""What the Steamopolis solvers share: the one place Z3 runs, rule families tracked by name with a
core that keeps only the rules needed to say no, the default state, and the flag parsers.

Every encoding keeps the rules (named families, ``assert_and_track``) apart from the instance (the
state's data and the question, plain assertions), so an unsat core names rules only.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise, product
from typing import Any

import attrs
import z3

from rulecraft.core import RulecraftError
from rulecraft.model.steamopolis.components import DistrictPosition
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, GaugeLayout, Stone, gauge_of, values
from rulecraft.model.steamopolis.state import Phase, StmState, new_player

DEFAULT_TIMEOUT_MS = 5000
POSITIONS: tuple[DistrictPosition, ...] = ("left", "right", "third")


def ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000, 2)


def check(solver: z3.Solver | z3.Optimize, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
    """The one place that runs Z3 (tests replace it to force 'unknown')."""
    return solver.check(*assumptions)


def new_solver(timeout_ms: int, logic: str | None = None) -> z3.Solver:
    """A solver with a timeout; ``logic`` "QF_FD" (bit-vectors and Booleans only) is Z3's incremental
    SAT solver, an order of magnitude faster per check on the gauge encodings."""
    solver = z3.SolverFor(logic) if logic else z3.Solver()
    solver.set("timeout", timeout_ms)  # Z3's convention: 0 means no limit
    return solver


def status_of(result: z3.CheckSatResult) -> str:
    """'sat' | 'unsat' | 'unknown': z3's unknown is its own outcome, never read as a proof."""
    if result == z3.sat:
        return "sat"
    if result == z3.unsat:
        return "unsat"
    return "unknown"


class RuleSolver:
    """A solver whose rule families are tracked by name; the instance is added plainly.

    Each family has one literal; its parts are added as ``literal -> part`` and every check assumes
    all family literals, so an unsat core is a set of family names.  A family may be added several
    times (one part per step or turn).
    """

    def __init__(self, timeout_ms: int, *, track: bool = True, logic: str | None = None) -> None:
        self.timeout_ms = timeout_ms
        self.logic = logic
        self.track = track  # False: the families are added plainly (enumerations need no core; faster)
        self.solver = new_solver(timeout_ms, logic)
        self.plain: list[z3.BoolRef] = []
        self.families: dict[str, list[z3.BoolRef]] = {}
        self._lits: dict[str, z3.BoolRef] = {}

    def add(self, *constraints: z3.BoolRef) -> None:
        """Instance facts and the question: never part of a core."""
        self.plain.extend(constraints)
        self.solver.add(*constraints)

    def rule(self, label: str, constraints: Iterable[z3.BoolRef]) -> None:
        parts = list(constraints)
        if not parts:
            return
        self.families.setdefault(label, []).extend(parts)
        if not self.track:
            self.solver.add(*parts)
            return
        lit = self._lits.setdefault(label, z3.Bool(f"rule!{label}"))
        self.solver.add(*[z3.Implies(lit, p) for p in parts])

    def assume(self, expr: z3.BoolRef, name: str) -> z3.BoolRef:
        """A literal standing for ``expr``: checked as an assumption, so the question can change."""
        lit = z3.Bool(f"ask!{name}!{len(self.plain)}")
        self.add(z3.Implies(lit, expr))
        return lit

    def check(self, *assumptions: z3.BoolRef) -> z3.CheckSatResult:
        return check(self.solver, *self._lits.values(), *assumptions)

    def model(self) -> z3.ModelRef:
        return self.solver.model()

    def reason(self) -> str:
        return str(self.solver.reason_unknown())

    def core(self, assumptions: Sequence[z3.BoolRef] = ()) -> tuple[str, ...]:
        """The rule families of the last unsat core, then dropped one by one while the rest still says
        no (Z3's cores are not minimal; each family kept is needed)."""
        names = {str(lit): label for label, lit in self._lits.items()}
        kept = {names[str(b)] for b in self.solver.unsat_core() if str(b) in names}
        for label in sorted(kept):
            trial = kept - {label}
            probe = new_solver(self.timeout_ms, self.logic)
            probe.add(*self.plain)
            for name in trial:
                probe.add(*self.families[name])
            if check(probe, *assumptions) == z3.unsat:
                kept = trial
        return tuple(sorted(kept))


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


def int_param(params: Mapping[str, Any], key: str, default: int, lo: int | None = None, hi: int | None = None) -> int:
    flag = f"--{key.replace('_', '-')}"
    value = params.get(key)
    if value is None:
        return default
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise RulecraftError(f"{flag}: an integer, got {value!r}") from None
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        raise RulecraftError(f"{flag}: between {lo} and {hi}, got {n}")
    return n


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
