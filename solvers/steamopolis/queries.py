"""The Steamopolis queries behind ``rulecraft query stm placements|gauge|top``.

``placements``: every legal SET 1 TARGET placement of the seat to move, direct (STM-R-26) or by
channelling (STM-R-28/29) with its path and the machines it activates; ``--best resources|vp`` the
placement whose channelling gains the most; ``--wish LEVEL[,POSITION]`` whether one reaches it
(else the rules saying no).  ``gauge``: the gauges one "increase the pressure by X" gives
(STM-R-15), or ``--target`` whether one is reached.  ``top``: the fewest turns until a stone can go
on level 8 (or ``--district``), looking at the gauge only.

Without ``--state`` the queries use :func:`common.default_state` (two players just set up, seat 0
choosing its action).  Answers are JSON-able, with the Z3 time in ``ms``; ``--oracle`` adds the
brute-force answer (the model's own functions), its time and whether the two agree.  Z3's
``unknown`` is reported as such, never as proved.  ``oracle_check`` lets ``rulecraft verify``
compare Z3 with the oracle on seeded random inputs.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping
from typing import Any

import attrs

from rulecraft.core import RulecraftError
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import Gauge
from rulecraft.model.steamopolis.state import Phase, StmState
from rulecraft.query import Query
from rulecraft.solvers.steamopolis import gauge as gauges  # the solver module beside the local gauge values
from rulecraft.solvers.steamopolis import placements, top
from rulecraft.solvers.steamopolis.common import (
    DEFAULT_TIMEOUT_MS,
    Arrangement,
    check_district,
    context_of,
    describe_gauge,
    gauge_from_params,
    int_param,
    ms,
    parse_district,
    parse_target,
    seat_of,
    state_of,
)
from rulecraft.solvers.steamopolis.samples import random_gauge, random_state


def _common_arguments(parser: argparse.ArgumentParser, timeout_ms: int) -> None:
    parser.add_argument("--state", metavar="FILE", help="a JSON state (default: two players just set up, seat 0)")
    parser.add_argument("--seat", type=int, help="the seat asked about (default: the seat to move)")
    parser.add_argument("--timeout-ms", type=int, help=f"Z3 timeout per check (default {timeout_ms})")
    parser.add_argument(
        "--oracle",
        action="store_true",
        default=None,
        help="also run the brute-force oracle (the model's own functions) and compare",
    )


def _gauge_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gauge", help="the stones' spaces instead of the state's gauge, e.g. g1,g2,g3A (A: arrow)")
    parser.add_argument("--markers", help="bonus markers on that gauge, e.g. g3=2,g7=5")
    parser.add_argument("--base", type=int, help="the base pressure marker's space for that gauge (default 0)")


def _head(name: str, state: Any, st: StmState, seat: int) -> dict[str, Any]:
    return {
        "query": name,
        "solver": "z3",
        "seat": seat,
        "state": "default" if state is None else "given",
        "board_side": st.board_side,
    }


def _footer(answer: Mapping[str, Any]) -> list[str]:
    lines = []
    if answer.get("reason"):
        unknown = answer.get("status") == "unknown"
        lines.append(f"Z3 gave no answer: {answer['reason']}" if unknown else f"why: {answer['reason']}")
    if "oracle" in answer:
        lines.append(f"oracle: {answer['oracle']} - {'agrees' if answer['agrees'] else 'DISAGREES'}")
    lines.append(f"({answer['ms']} ms Z3, {answer['total_ms']} ms in all)")
    return lines


# --- placements ------------------------------------------------------------------------------------------


def _placement_text(p: Mapping[str, Any]) -> str:
    where = f"g{p['space']} (value {p['value']}) -> L{p['level']}-{p['position']}"
    if not p["channel"]:
        return f"{where}, direct"
    machines = ", ".join(f"m{a['position']} {a['tile']}" for a in p["activates"]) or "no machine"
    path = "-".join(f"m{x}" for x in p["path"])
    return f"{where}, channelled {path} ({p['moves_left']} left, placed at value {p['placed_at_value']}): {machines}"


@attrs.frozen
class PlacementsQuery:
    name: str = "placements"
    help: str = "Z3: every SET 1 TARGET placement, direct or channelled (--best resources|vp, --wish LEVEL[,POS])"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        what = parser.add_mutually_exclusive_group()
        what.add_argument(
            "--best",
            choices=placements.OBJECTIVES,
            help="the placement whose channelling gains the most resources or vote points",
        )
        what.add_argument(
            "--wish",
            metavar="LEVEL[,POSITION]",
            help="can a placement reach this level (district)? if not, the rules saying no",
        )
        _common_arguments(parser, self.timeout_ms)

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        ctx, st = context_of(game), state_of(state)
        seat = seat_of(st, params)
        problem = placements.check_phase(st)
        if problem:
            raise RulecraftError(f"--state: {problem}")
        timeout = int_param(params, "timeout_ms", self.timeout_ms, 0)
        inst = placements.instance(ctx, st, seat)
        out = _head(self.name, state, st, seat)
        oracle = bool(params.get("oracle"))
        if params.get("wish"):
            level, position = parse_district(params["wish"], "--wish")
            check_district(ctx, st, level, position, "--wish")
            wish = placements.wish_z3(ctx, st, seat, level, position, timeout_ms=timeout)
            out |= {
                "mode": "wish",
                "wish": {"level": level, "position": position},
                "status": wish.status,
                "placement": wish.placement.to_json(inst) if wish.placement else None,
                "core": list(wish.core),
                "ms": wish.ms,
                "reason": wish.reason,
            }
            if oracle:
                walked, oms = placements.oracle_placements(ctx, st, seat)
                hits = [w for w in walked if w.placement.level == level and position in (None, w.placement.position)]
                out["oracle"] = {"status": "reachable" if hits else "unreachable", "placements": len(hits), "ms": oms}
                out["agrees"] = wish.status == "unknown" or (wish.status == "reachable") == bool(hits)
        elif params.get("best"):
            objective = str(params["best"])
            if objective not in placements.OBJECTIVES:
                raise RulecraftError(f"--best: one of {', '.join(placements.OBJECTIVES)}, got {objective!r}")
            best = placements.best_placement(ctx, st, seat, objective, timeout_ms=timeout)
            out |= {
                "mode": "best",
                "objective": objective,
                "status": best.status,
                "value": best.value,
                "placement": best.placement.to_json(inst) if best.placement else None,
                "gain": best.gain.to_json() if best.gain else None,
                "ms": best.ms,
                "reason": best.reason,
                "counts": "resources: crystals + gears held after the chain minus before (storage not "
                "applied); vp: vote points; costs paid only when affordable (STM-R-22/30)",
            }
            if oracle:
                walked, oms = placements.oracle_placements(ctx, st, seat)
                value, count = _oracle_best(inst, walked, objective)
                out["oracle"] = {"value": value, "placements": count, "ms": oms}
                out["agrees"] = best.status == "unknown" or best.value == value
        else:
            found = placements.placements_z3(ctx, st, seat, timeout_ms=timeout)
            out |= {
                "mode": "all",
                "status": found.status,
                "count": len(found.placements),
                "placements": [p.to_json(inst) for p in found.placements],
                "checks": found.checks,
                "ms": found.ms,
                "reason": found.reason,
            }
            if oracle:
                walked, oms = placements.oracle_placements(ctx, st, seat)
                out["oracle"] = {"count": len(walked), "ms": oms}
                out["agrees"] = found.status == "unknown" or (
                    {p.key for p in found.placements} == {w.placement.key for w in walked}
                )
        out["total_ms"] = ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        who = f"seat {answer['seat']}"
        if answer["mode"] == "wish":
            wish = answer["wish"]
            where = f"L{wish['level']}" + (f"-{wish['position']}" if wish["position"] else "")
            lines = [f"{who}: a placement on {where}: {answer['status']}"]
            if answer["placement"]:
                lines.append("  " + _placement_text(answer["placement"]))
            if answer["status"] == "unreachable":
                lines.append(f"rules saying no: {', '.join(answer['core']) or '-'}")
        elif answer["mode"] == "best":
            lines = [f"{who}: best placement for {answer['objective']}: {answer['status']}"]
            if answer["placement"]:
                gain = answer["gain"]
                lines.append(f"  {_placement_text(answer['placement'])}")
                lines.append(
                    f"  gains {gain['crystals']} crystal(s), {gain['gears']} gear(s), {gain['vp']} VP "
                    f"(value {answer['value']})"
                )
        else:
            lines = [f"{who}: {answer['count']} placement(s) ({answer['status']})"]
            lines += ["  " + _placement_text(p) for p in answer["placements"]]
        return "\n".join(lines + _footer(answer))

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        ctx = context_of(game)
        st = random_state(ctx, rng)
        found = placements.placements_z3(ctx, st, 0, timeout_ms=self.timeout_ms)
        walked, _ = placements.oracle_placements(ctx, st, 0)
        want = {w.placement.key for w in walked}
        if found.status == "done" and {p.key for p in found.placements} != want:
            got = {p.key for p in found.placements}
            return f"{st!r}: z3 extra {sorted(got - want)}, missing {sorted(want - got)}"
        objective = rng.choice(placements.OBJECTIVES)
        best = placements.best_placement(ctx, st, 0, objective, timeout_ms=self.timeout_ms)
        inst = placements.instance(ctx, st, 0)
        value, _ = _oracle_best(inst, walked, objective)
        if best.status != "unknown" and best.value != value:
            return f"{st!r}: best {objective}: z3 {best.value}, the oracle {value}"
        if best.placement is not None:
            mine = [w for w in walked if w.placement.key == best.placement.key]
            if not mine:
                return f"{st!r}: z3's best placement {best.placement} is not legal in the model"
            if placements.oracle_gain(inst, mine[0].programs, objective)[0] != best.value:
                return f"{st!r}: z3's best placement {best.placement} does not gain {best.value} in the model"
        level = rng.randint(1, 8)
        wish = placements.wish_z3(ctx, st, 0, level, None, timeout_ms=self.timeout_ms)
        hit = any(w.placement.level == level for w in walked)
        if wish.status != "unknown" and (wish.status == "reachable") != hit:
            return f"{st!r}: level {level}: z3 {wish.status}, the oracle {'reachable' if hit else 'unreachable'}"
        return None


def _oracle_best(inst: placements.Instance, walked: list[placements.Walked], objective: str) -> tuple[int | None, int]:
    """The oracle's best value and how many placements reach it (None: no placement at all)."""
    if not walked:
        return None, 0
    values = [placements.oracle_gain(inst, w.programs, objective)[0] for w in walked]
    best = max(values)
    return best, values.count(best)


# --- gauge -------------------------------------------------------------------------------------------------


@attrs.frozen
class GaugeQuery:
    name: str = "gauge"
    help: str = "Z3: every gauge one 'increase the pressure by X' reaches (or: is --target reached?)"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--x", type=int, help="the pressure increase X (default 5)")
        parser.add_argument("--target", help="an arrangement: spaces g6,g7A,g8 or VALUES 4,5A,6 (A: arrow)")
        _gauge_arguments(parser)
        _common_arguments(parser, self.timeout_ms)

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        ctx, st = context_of(game), state_of(state)
        seat = seat_of(st, params)
        gauge = gauge_from_params(params, ctx.layout, st.players[seat].gauge)
        x = int_param(params, "x", 5, 0, 30)
        timeout = int_param(params, "timeout_ms", self.timeout_ms, 0)
        out = _head(self.name, state, st, seat) | {
            "from": describe_gauge(gauge, ctx.layout),
            "x": x,
            "readings": {"STM-AMB-32": ctx.r("STM-AMB-32")},
        }
        oracle = bool(params.get("oracle"))
        if params.get("target"):
            targets = parse_target(params["target"], ctx.layout)
            reach = gauges.can_reach(ctx, gauge, x, targets, timeout_ms=timeout)
            out |= {
                "mode": "reach",
                "target": str(params["target"]),
                "status": reach.status,
                "outcome": reach.outcome.to_json(ctx) if reach.outcome else None,
                "core": list(reach.core),
                "ms": reach.ms,
                "reason": reach.reason,
            }
            if oracle:
                ends, oms = gauges.oracle_gauges(ctx, gauge, x)
                hit = _hits(ends, targets)
                out["oracle"] = {"status": "reachable" if hit else "unreachable", "ms": oms}
                out["agrees"] = reach.status == "unknown" or (reach.status == "reachable") == hit
        else:
            found = gauges.reachable_gauges(ctx, gauge, x, timeout_ms=timeout)
            out |= {
                "mode": "all",
                "status": found.status,
                "count": len(found.outcomes),
                "most": found.most,
                "outcomes": [o.to_json(ctx) for o in found.outcomes],
                "checks": found.checks,
                "ms": found.ms,
                "reason": found.reason,
            }
            if oracle:
                ends, oms = gauges.oracle_gauges(ctx, gauge, x)
                out["oracle"] = {"count": len(ends), "ms": oms}
                out["agrees"] = found.status == "unknown" or {o.gauge for o in found.outcomes} == ends
        out["total_ms"] = ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        head = f"from {answer['from']['values'] or '-'} ({answer['from']['spaces'] or 'no stone'}), +{answer['x']}"
        if answer["mode"] == "reach":
            lines = [f"{head} to {answer['target']}: {answer['status']}"]
            if answer["outcome"]:
                o = answer["outcome"]
                lines.append(f"  order {o['picks']} -> {o['values']} ({o['spaces']}), {o['lapsed']} lapsed")
            if answer["status"] == "unreachable" and answer["core"]:
                lines.append(f"rules saying no: {', '.join(answer['core'])}")
        else:
            lines = [f"{head}: {answer['count']} gauge(s) ({answer['status']})"]
            lines += [
                f"  {o['values']:<14} {o['spaces']:<22} order {o['picks']}, {o['lapsed']} lapsed"
                for o in answer["outcomes"]
            ]
        return "\n".join(lines + _footer(answer))

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        ctx = context_of(game)
        gauge = random_gauge(rng, (1, 4))
        x = rng.randint(0, 5)
        found = gauges.reachable_gauges(ctx, gauge, x, timeout_ms=self.timeout_ms)
        ends, _ = gauges.oracle_gauges(ctx, gauge, x)
        got = {o.gauge for o in found.outcomes}
        if found.status == "done" and got != ends:
            return f"{gauge!r} +{x}: z3 found {len(got)} gauges, the oracle {len(ends)}"
        for o in found.outcomes:
            problem = gauges.replay_problem(ctx, gauge, x, o)
            if problem:
                return f"{gauge!r} +{x}: {problem}"
        target = Arrangement(gauges.arrangement_of(random_gauge(rng, (gauge.stones(), gauge.stones()), False)))
        reach = gauges.can_reach(ctx, gauge, x, (target,), timeout_ms=self.timeout_ms)
        hit = _hits(ends, (target,))
        if reach.status != "unknown" and (reach.status == "reachable") != hit:
            return f"{gauge!r} +{x} to {target.text()}: z3 {reach.status}, the oracle {hit}"
        return None


def _hits(ends: frozenset[Gauge], targets: tuple[Arrangement, ...]) -> bool:
    wanted = {t.stones for t in targets}
    return any(gauges.arrangement_of(g) in wanted for g in ends)


# --- top -----------------------------------------------------------------------------------------------------


@attrs.frozen
class TopQuery:
    name: str = "top"
    help: str = "Z3: the fewest turns until a stone can go on level 8 (or --district), gauge only"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--district", metavar="LEVEL[,POSITION]", help="the target (default: level 8)")
        parser.add_argument("--max-turns", type=int, help="the bound K of the model check (default 8)")
        parser.add_argument("--boilers", type=int, help="MAKE STEAM's increase (default: the seat's boilers)")
        _gauge_arguments(parser)
        _common_arguments(parser, self.timeout_ms)

    def spec(self, ctx: Context, st: StmState, seat: int, params: Mapping[str, Any]) -> top.TopSpec:
        if st.phase not in (Phase.ACTION, Phase.START_OF_TURN) or st.turn.pending or st.turn.storing:
            raise RulecraftError(
                f"--state: asked at the start of a turn or the choice of action, not in {st.phase.value}"
            )
        player = st.players[seat]
        gauge = gauge_from_params(params, ctx.layout, player.gauge)
        level, position = parse_district(params.get("district") or "8", "--district")
        check_district(ctx, st, level, position, "--district")
        free = any(
            ctx.is_free(st, d.level, d.position)
            for d in ctx.districts(st)
            if d.level == level and position in (None, d.position)
        )
        return top.TopSpec(
            gauge=gauge,
            boilers=int_param(params, "boilers", ctx.boilers(player), 0, 40),
            level=level,
            position=position,
            district_free=free,
            arrows_first=st.phase is Phase.START_OF_TURN,
            max_turns=int_param(params, "max_turns", 8, 1, 30),
        )

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        ctx, st = context_of(game), state_of(state)
        seat = seat_of(st, params)
        spec = self.spec(ctx, st, seat, params)
        top.readings_problem(ctx)
        timeout = int_param(params, "timeout_ms", self.timeout_ms, 0)
        found = top.fewest_turns(ctx, spec, timeout_ms=timeout)
        out = _head(self.name, state, st, seat) | {
            "from": describe_gauge(spec.gauge, ctx.layout),
            "spec": spec.to_json(),
            "status": found.status,
            "turns": found.turns,
            "plan": [t.to_json() for t in found.plan],
            "core": list(found.core),
            "checked": found.checked,
            "assumes": top.ASSUMES,
            "ms": found.ms,
            "reason": found.reason,
        }
        if params.get("oracle"):
            turns, oms = top.oracle_fewest(ctx, spec)
            out["oracle"] = {"turns": turns, "ms": oms}
            out["agrees"] = found.status == "unknown" or found.turns == turns
        out["total_ms"] = ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        spec = answer["spec"]
        where = f"L{spec['level']}" + (f"-{spec['position']}" if spec["position"] else "")
        head = f"seat {answer['seat']} from {answer['from']['values'] or '-'}, +{spec['boilers']} per MAKE STEAM"
        if answer["status"] == "reachable":
            lines = [f"{head}: a stone on {where} in {answer['turns']} turn(s)"]
            for k, turn in enumerate(answer["plan"], start=1):
                arrows = f"arrows {turn['arrows']}, " if turn["arrows"] else ""
                act = f"MAKE STEAM {turn['picks']}" if turn["action"] == "make-steam" else f"SET g{turn['space']}"
                lines.append(f"  turn {k}: {arrows}{act}")
        elif answer["status"] == "unreachable":
            lines = [
                f"{head}: no stone on {where} within {spec['max_turns']} turn(s)",
                f"rules saying no: {', '.join(answer['core']) or '-'}",
            ]
        else:
            lines = [f"{head}: unknown after {answer['checked']} turn(s)"]
        lines.append(f"assumes: {answer['assumes']}")
        return "\n".join(lines + _footer(answer))

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        ctx = context_of(game)
        top.readings_problem(ctx)
        spec = top.TopSpec(
            random_gauge(rng, (1, 4)),
            rng.randint(2, 5),
            rng.randint(1, 8),
            None,
            rng.random() < 0.9,
            rng.random() < 0.5,
            5,
        )
        found = top.fewest_turns(ctx, spec, timeout_ms=self.timeout_ms)
        if found.status == "unknown":
            return None  # not a disagreement: Z3 proved nothing
        turns, _ = top.oracle_fewest(ctx, spec)
        if found.turns != turns:
            return f"{spec!r}: z3 {found.turns} turn(s), the oracle {turns}"
        if found.plan:
            problem = top.replay_problem(ctx, spec, found.plan)
            if problem:
                return f"{spec!r}: {problem}"
        return None


QUERIES: dict[str, Query] = {"placements": PlacementsQuery(), "gauge": GaugeQuery(), "top": TopQuery()}
