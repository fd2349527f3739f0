"""The Aeroplanes queries behind ``rulecraft query aer placements|risk|standings``.

``placements``: every route the seat to move can place an airport tile along now (direct, LR hop,
upgrade), with the cards, the slots, the rolls after the +2s and whether an LR tile is needed;
``--wish DESTINATION`` whether one reaches it (else the rules saying no).  ``risk``: the exact
probability that an attempt succeeds (``--origin/--destination/--via``, or ``--targets``, or the
state's first candidate) and its expected cost; ``--dice`` plays given throws.  ``standings``: the
fewest extra airports in ``--market`` or passenger tiles for profitability (``--profit``) the seat
needs to take first place at the era's end, or the rules that say it cannot.

Answers are JSON-able with the Z3 time in ``ms``; ``--oracle`` adds the model's own answer, its time
and whether the two agree.  Z3's ``unknown`` is reported as such, never as proved.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

from rulecraft.core import RulecraftError
from rulecraft.model.aeroplanes import risk as model_risk
from rulecraft.model.aeroplanes.components import Face
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import DARING_PILOT, attempt_rolls
from rulecraft.model.aeroplanes.state import AerState
from rulecraft.query import Query
from rulecraft.solvers.aeroplanes import odds, placements, standings
from rulecraft.solvers.aeroplanes.common import (
    DEFAULT_TIMEOUT_MS,
    context_of,
    destination_param,
    int_param,
    ms,
    require_action_phase,
    seat_of,
    state_of,
)
from rulecraft.solvers.aeroplanes.samples import random_state

RADIO_BEACONS = 6  # advantage type 6 (l.160, AER-R-47)


def _common_arguments(parser: argparse.ArgumentParser, timeout_ms: int) -> None:
    parser.add_argument("--state", metavar="FILE", help="a JSON state (default: a seeded 3-player game, 30 moves in)")
    parser.add_argument("--seat", type=int, help="the seat asked about (default: the seat to move)")
    parser.add_argument("--timeout-ms", type=int, help=f"Z3 timeout per check (default {timeout_ms})")
    parser.add_argument("--oracle", action="store_true", default=None, help="also run the model's own functions")


def _head(name: str, state: Any, seat: int) -> dict[str, Any]:
    return {"query": name, "solver": "z3", "seat": seat, "state": "default" if state is None else "given"}


def _words(value: Any) -> str:
    """A mapping as ``key value, ...`` words for a reader, not a Python dict."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in value.items() if v is not None)
    return str(value)


def _footer(answer: Mapping[str, Any]) -> list[str]:
    lines = []
    if answer.get("reason"):
        lines.append(f"Z3 gave no answer: {answer['reason']}")
    if "oracle" in answer:
        lines.append(f"oracle: {_words(answer['oracle'])} - {'agrees' if answer['agrees'] else 'DISAGREES'}")
    lines.append(f"({answer['ms']} ms Z3, {answer['total_ms']} ms in all)")
    return lines


def _frac(x: Fraction | None) -> str | None:
    return None if x is None else str(x)


# --- placements -----------------------------------------------------------------------------------------------


def _option_text(o: Mapping[str, Any]) -> str:
    rolls = ", ".join(f"{r['need']}+" + (f" ({r['target']}-{r['bonus']})" if r["bonus"] else "") for r in o["rolls"])
    route = {"upgrade": "upgrade", "direct": f"from {o['origin']}", "hop": f"from {o['origin']} over {o['via']}"}
    lr = ", LR tile" if o["needs_lr"] else ""
    return f"{o['destination']}: {route[o['kind']]}, cards {o['cards']}, slots {o['slots']}, rolls [{rolls or '-'}]{lr}"


@attrs.frozen
class PlacementsQuery:
    name: str = "placements"
    help: str = "Z3: every destination the seat can place an airport in now, with its rolls (--wish DESTINATION)"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--wish", metavar="DESTINATION", help="can a tile go there now? if not, the rules saying no"
        )
        _common_arguments(parser, self.timeout_ms)

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        ctx = context_of(game)
        st = state_of(game, ctx, state)
        require_action_phase(st)
        seat = seat_of(st, params)
        timeout = int_param(params, "timeout_ms", self.timeout_ms, 0)
        out = _head(self.name, state, seat)
        oracle = bool(params.get("oracle"))
        wish = destination_param(ctx, params, "wish")
        if wish is not None:
            got = placements.wish_z3(ctx, st, seat, wish, timeout_ms=timeout)
            out |= {
                "mode": "wish",
                "wish": wish,
                "status": got.status,
                "option": got.option.to_json() if got.option else None,
                "core": list(got.core),
                "ms": got.ms,
                "reason": got.reason,
            }
            if oracle:
                t0 = time.perf_counter()
                why = placements.oracle_rejection(ctx, st, seat, wish)
                out["oracle"] = {"status": "reachable" if why is None else "unreachable", "rule": why, "ms": ms(t0)}
                out["agrees"] = got.status == "unknown" or (got.status == "reachable") == (why is None)
        else:
            found = placements.placements_z3(ctx, st, seat, timeout_ms=timeout)
            out |= {
                "mode": "all",
                "status": found.status,
                "destinations": sorted({o.destination for o in found.options}),
                "count": len(found.actions()),
                "options": [o.to_json() for o in found.options],
                "checks": found.checks,
                "ms": found.ms,
                "reason": found.reason,
            }
            if oracle:
                answer = placements.oracle_placements(ctx, st, seat)
                problem = placements.disagreement(found, answer)
                out["oracle"] = {"count": len(answer.actions), "ms": answer.ms, "problem": problem}
                out["agrees"] = found.status == "unknown" or problem is None
        out["total_ms"] = ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        who = f"seat {answer['seat']}"
        if answer["mode"] == "wish":
            lines = [f"{who}: a tile in {answer['wish']}: {answer['status']}"]
            if answer["option"]:
                lines.append("  " + _option_text(answer["option"]))
            if answer["status"] == "unreachable":
                lines.append(f"rules saying no: {', '.join(answer['core']) or '-'}")
        else:
            lines = [f"{who}: {len(answer['destinations'])} destination(s), {answer['count']} placement(s)"]
            lines += ["  " + _option_text(o) for o in answer["options"]]
        return "\n".join(lines + _footer(answer))

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        ctx = context_of(game)
        st = random_state(ctx, rng)
        seat = st.to_move
        found = placements.placements_z3(ctx, st, seat, timeout_ms=self.timeout_ms)
        if found.status == "done":
            problem = placements.disagreement(found, placements.oracle_placements(ctx, st, seat))
            if problem:
                return f"{st!r}: {problem}"
        wish = rng.choice([d.name for d in ctx.pack.destinations])
        got = placements.wish_z3(ctx, st, seat, wish, timeout_ms=self.timeout_ms)
        why = placements.oracle_rejection(ctx, st, seat, wish)
        if got.status != "unknown" and (got.status == "reachable") != (why is None):
            return f"{st!r}: {wish}: z3 {got.status}, the model {'accepts' if why is None else why}"
        return None


# --- risk -------------------------------------------------------------------------------------------------------


def _parse_targets(text: Any, daring_pilot: bool) -> list[odds.RollSpec]:
    """``12,10`` (needs) or ``12-2,12`` (target-bonus)."""
    out = []
    for item in str(text).replace(" ", "").split(","):
        if not item:
            continue
        target, _, bonus = item.partition("-")
        try:
            out.append(odds.RollSpec(int(target), int(bonus or 0), daring_pilot))
        except ValueError:
            raise RulecraftError(f"--targets: e.g. 12,10 or 12-2,12, got {item!r}") from None
    if not out:
        raise RulecraftError("--targets: at least one roll")
    return out


def _parse_dice(text: Any) -> list[tuple[Face, ...]]:
    """``2,5,4;3,4,skull``: one throw per roll."""
    throws: list[tuple[Face, ...]] = []
    for part in str(text).split(";"):
        faces: list[Face] = []
        for f in part.replace(" ", "").split(","):
            if f.lower() in ("skull", "s", "x"):
                faces.append("skull")
            else:
                try:
                    faces.append(int(f))
                except ValueError:
                    raise RulecraftError(f"--dice: faces are 2..6 or skull, got {f!r}") from None
        throws.append(tuple(faces))
    return throws


@attrs.frozen
class RiskQuery:
    name: str = "risk"
    help: str = (
        "exact P(an attempt places its tile), its expected cost with failures and its expected cost when"
        " it places (--origin/--destination/--via or --targets)"
    )
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--origin", help="the own airport the attempt starts from")
        parser.add_argument("--destination", help="the destination D")
        parser.add_argument("--via", help="the hopped destination M of an LR hop")
        parser.add_argument("--targets", help="the rolls directly: needs 12,10 or target-bonus 12-2,12")
        parser.add_argument(
            "--daring-pilot", action="store_true", default=None, help="with --targets: D outside Europe"
        )
        seat = "default: the seat's in the --state position (the answer lists what it took from there)"
        parser.add_argument("--money", type=int, help=f"pounds for shortfalls ({seat})")
        parser.add_argument("--pilots", type=int, help=f"Daring Pilot tiles ({seat})")
        parser.add_argument("--beacons", type=int, help=f"Radio Beacons tiles ({seat})")
        parser.add_argument("--engine-failures", type=int, help=f"EF tiles held ({seat})")
        parser.add_argument(
            "--policy", choices=("optimal", "always-pay"), help="the player's choices (default optimal)"
        )
        parser.add_argument("--dice", help="play these throws instead, e.g. 2,5,4;3,4,skull")
        _common_arguments(parser, self.timeout_ms)

    def _rolls(
        self, ctx: Context, st: AerState, seat: int, params: Mapping[str, Any], timeout: int
    ) -> tuple[list[odds.RollSpec], list[odds.RollSpec] | None, dict[str, Any]]:
        """Z3's rolls (from the placements encoding) and the model's (attempt_rolls), with the route."""
        if params.get("targets"):
            specs = _parse_targets(params["targets"], bool(params.get("daring_pilot")))
            return specs, specs, {"targets": str(params["targets"])}
        origin = destination_param(ctx, params, "origin")
        destination = destination_param(ctx, params, "destination")
        via = destination_param(ctx, params, "via")
        if destination is None:
            found = placements.placements_z3(ctx, st, seat, timeout_ms=timeout)
            rolled = [o for o in found.options if o.origin is not None]
            if not rolled:
                raise RulecraftError("--destination: the seat has no new airport to attempt now; give --targets")
            pick = max(rolled, key=lambda o: (len(o.rolls), o.destination))
            origin, destination, via = pick.origin, pick.destination, pick.via
        wish = placements.wish_z3(ctx, st, seat, destination, timeout_ms=timeout, origin=origin, via=via)
        route = {"origin": origin, "destination": destination, "via": via}
        if wish.option is None:
            if wish.status == "unknown":
                return [], None, route | {"status": "unknown"}
            raise RulecraftError(f"--destination: no placement along that route ({', '.join(wish.core) or '-'})")
        specs = [odds.RollSpec(r.target, r.bonus, wish.option.daring_pilot) for r in wish.option.rolls]
        route = route | {"origin": wish.option.origin, "via": wish.option.via}
        model: list[odds.RollSpec] | None = None
        if wish.option.origin is not None:
            rolls = attempt_rolls(ctx, placements.at_turn(st, seat), seat, wish.option.origin, destination, via)
            model = [odds.RollSpec(r.target, r.bonus, r.daring_pilot) for r in rolls]
        else:
            model = []
        return specs, model, route

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        ctx = context_of(game)
        st = state_of(game, ctx, state)
        seat = seat_of(st, params)
        timeout = int_param(params, "timeout_ms", self.timeout_ms, 0)
        player = st.players[seat]
        money = int_param(params, "money", player.money, 0)
        pilots = int_param(params, "pilots", player.held(DARING_PILOT), 0)
        beacons = int_param(params, "beacons", player.held(RADIO_BEACONS), 0)
        limit = ctx.pack.risk.engine_failure_limit
        ef = int_param(params, "engine_failures", player.engine_failures, 0, limit - 1)
        policy = str(params.get("policy") or "optimal")
        at_once = ctx.r("AER-AMB-26") == "at-once"
        # Inputs not given are the seat's: said in the answer, never taken silently (a seeded game's
        # seat when there is no --state).
        names = ("money", "pilots", "beacons", "engine_failures")
        from_seat = [name for name in names if params.get(name) is None]
        specs, model_specs, route = self._rolls(ctx, st, seat, params, timeout)
        out = _head(self.name, state, seat) | {
            "route": route,
            "rolls": [
                {"target": r.target, "bonus": r.bonus, "need": r.need, "daring_pilot": r.daring_pilot} for r in specs
            ],
            "money": money,
            "pilots": pilots,
            "beacons": beacons,
            "engine_failures": ef,
            "policy": policy,
            "readings": {"AER-AMB-26": ctx.r("AER-AMB-26")},
            "from_seat": from_seat,
            "position": "the --state file" if state is not None else "a seeded 3-player game (seed 13, 30 moves in)",
        }
        oracle = bool(params.get("oracle"))
        if params.get("dice"):
            throws = _parse_dice(params["dice"])
            played = odds.play_z3(
                ctx.pack, specs, throws, money=money, pilots=pilots, engine_failures=ef, timeout_ms=timeout
            )
            out |= {
                "mode": "dice",
                "status": played.status,
                "end": played.end,
                "steps": list(played.steps),
                "money_spent": played.money_spent,
                "pilots_used": played.pilots_used,
                "engine_failures_after": played.engine_failures,
                "core": list(played.core),
                "ms": played.ms,
                "reason": None,
            }
            if oracle and model_specs is not None and len(throws) == len(specs):
                t0 = time.perf_counter()
                rolls = [
                    model_risk.Roll(i, 1, r.target, r.bonus, r.daring_pilot, "") for i, r in enumerate(model_specs)
                ]
                trace = model_risk.play(ctx.pack, rolls, throws, money=money, pilots=pilots, engine_failures=ef)
                out["oracle"] = {"end": trace.end, "money_spent": trace.money_spent, "ms": ms(t0)}
                out["agrees"] = played.status == "unknown" or (
                    (played.end, played.money_spent, played.pilots_used)
                    == (trace.end, trace.money_spent, trace.pilots_used)
                )
        else:
            got = odds.exact(
                ctx.pack, specs, money=money, pilots=pilots, beacons=beacons, engine_failures=ef,
                policy=policy, at_once=at_once, timeout_ms=timeout,
            )  # fmt: skip
            out |= {
                "mode": "odds",
                "status": got.status,
                "success": _frac(got.success),
                "success_float": None if got.success is None else float(got.success),
                "failure": _frac(got.failure),
                "collapse": _frac(got.collapse),
                "expected_money": _frac(got.expected_money),
                "expected_money_if_placed": _frac(got.expected_money_if_placed),
                "expected_pilots": _frac(got.expected_pilots),
                "expected_beacons": _frac(got.expected_beacons),
                "throws_listed": [c.checks for c in got.classes],
                "ms": got.ms,
                "reason": got.reason,
            }
            if oracle and model_specs is not None:
                t0 = time.perf_counter()
                a = _analyse(ctx, model_specs, money, pilots, beacons, ef, policy)
                out["oracle"] = {
                    "success": str(a.success),
                    "expected_money": str(a.expected_money),
                    "expected_money_if_placed": _frac(a.expected_money_if_placed),
                    "ms": ms(t0),
                }
                out["agrees"] = got.status == "unknown" or (
                    (got.success, got.expected_money, got.collapse, got.expected_money_if_placed)
                    == (a.success, a.expected_money, a.collapse, a.expected_money_if_placed)
                    and [(r.target, r.bonus) for r in specs] == [(r.target, r.bonus) for r in model_specs]
                )
        out["total_ms"] = ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        rolls = ", ".join(f"{r['need']}+" for r in answer["rolls"]) or "none"
        route = _words(answer["route"])
        head = f"seat {answer['seat']} {route}: rolls [{rolls}], £{answer['money']}, {answer['pilots']} DP"
        if answer["mode"] == "dice":
            lines = [f"{head}: {answer['end']} (£{answer['money_spent']} spent, {answer['pilots_used']} DP)"]
            for s in answer["steps"]:
                lines.append(
                    f"  {s['faces']} = {s['total']}, {s['skulls']} skull(s): {s['outcome']} {s.get('shortfall', '')}"
                )
        else:
            lines = [
                f"{head}: P(placed) = {answer['success']} ({answer['success_float']:.4f})"
                if answer["success"] is not None
                else f"{head}: {answer['status']}",
                f"  expected £{answer['expected_money']} spent (failures included),"
                f" £{answer['expected_money_if_placed']} when the tile is placed;"
                f" P(collapse) = {answer['collapse']}, policy {answer['policy']}",
            ]
        if answer.get("from_seat"):
            lines.append(
                f"  {', '.join(answer['from_seat'])} as seat {answer['seat']} holds them in {answer['position']}"
            )
        return "\n".join(lines + _footer(answer))

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        ctx = context_of(game)
        needs = [rng.choice([10, 12, 14]) for _ in range(rng.randint(1, 3))]
        specs = [odds.RollSpec(t, rng.choice([0, 2]), rng.random() < 0.5) for t in needs]
        m, d, b, e = rng.randint(0, 8), rng.randint(0, 2), rng.randint(0, 1), rng.randint(0, 3)
        policy = rng.choice(["optimal", "always-pay"])
        got = odds.exact(ctx.pack, specs, money=m, pilots=d, beacons=b, engine_failures=e, policy=policy,
                         at_once=ctx.r("AER-AMB-26") == "at-once", timeout_ms=self.timeout_ms)  # fmt: skip
        if got.status == "unknown":
            return None
        a = _analyse(ctx, specs, m, d, b, e, policy)
        mine = (got.success, got.expected_money, got.collapse, got.expected_money_if_placed)
        if mine != (a.success, a.expected_money, a.collapse, a.expected_money_if_placed):
            return (
                f"{specs} £{m} DP{d} RB{b} EF{e} {policy}: z3 {got.success}/{got.expected_money}/"
                f"{got.expected_money_if_placed}, model {a.success}/{a.expected_money}/{a.expected_money_if_placed}"
            )
        return None


def _analyse(
    ctx: Context, specs: list[odds.RollSpec], money: int, pilots: int, beacons: int, ef: int, policy: str
) -> model_risk.RiskResult:
    rolls = [model_risk.Roll(i, 1, r.target, r.bonus, r.daring_pilot, "") for i, r in enumerate(specs)]
    choice: model_risk.PolicyChoice = "optimal" if policy == "optimal" else "always-pay"
    return model_risk.analyse(
        ctx.pack, rolls, money=money, pilots=pilots, beacons=beacons, engine_failures=ef, policy=choice,
        readings=ctx.readings,
    )  # fmt: skip


# --- standings ---------------------------------------------------------------------------------------------


@attrs.frozen
class StandingsQuery:
    name: str = "standings"
    help: str = "Z3: the fewest extra airports (--market) or passenger tiles (--profit) to take first place"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--market", help="Europe, Africa or Asia/Australasia")
        what.add_argument("--profit", action="store_true", default=None, help="profitability (AER-R-51/52)")
        parser.add_argument("--alone", action="store_true", default=None, help="a strict lead, not a tie for first")
        parser.add_argument("--claimable", action="store_true", default=None, help="profit: only tiles claimable now")
        _common_arguments(parser, self.timeout_ms)

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        ctx = context_of(game)
        st = state_of(game, ctx, state)
        seat = seat_of(st, params)
        timeout = int_param(params, "timeout_ms", self.timeout_ms, 0)
        alone = bool(params.get("alone"))
        claimable = bool(params.get("claimable"))
        out = _head(self.name, state, seat) | {"era": st.era, "alone": alone}
        if params.get("profit"):
            got = standings.profit_z3(ctx, st, seat, claimable=claimable, alone=alone, timeout_ms=timeout)
            out |= {"mode": "profit", "claimable": claimable, "unit": "passenger tiles"}
        else:
            market = str(params.get("market") or ctx.pack.markets[0])
            names = {m.lower(): m for m in ctx.pack.markets}
            if market.lower() not in names:
                raise RulecraftError(f"--market: one of {', '.join(ctx.pack.markets)}, got {market!r}")
            market = names[market.lower()]
            got = standings.market_z3(ctx, st, seat, market, alone=alone, timeout_ms=timeout)
            out |= {"mode": "market", "market": market, "unit": "airports"}
        out |= {
            "status": got.status,
            "extra": got.extra,
            "plan": list(got.plan),
            "passengers": got.passengers,
            "core": list(got.core),
            "checks": got.checks,
            "ms": got.ms,
            "reason": got.reason,
        }
        if params.get("oracle"):
            if out["mode"] == "profit":
                k, oms = standings.oracle_profit(ctx, st, seat, claimable=claimable, alone=alone)
            else:
                k, oms = standings.oracle_market(ctx, st, seat, out["market"], alone=alone)
            out["oracle"] = {"extra": k, "ms": oms}
            out["agrees"] = got.status == "unknown" or got.extra == k
        out["total_ms"] = ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        what = answer.get("market") or "profitability"
        first = "first place alone" if answer["alone"] else "first place"
        if answer["status"] == "reachable":
            lines = [f"seat {answer['seat']}: {first} in {what} with {answer['extra']} more {answer['unit']}"]
            lines += [f"  {p}" for p in answer["plan"]]
        elif answer["status"] == "unreachable":
            lines = [
                f"seat {answer['seat']}: {first} in {what} is out of reach",
                f"rules saying no: {', '.join(answer['core'])}",
            ]
        else:
            lines = [f"seat {answer['seat']}: {what}: unknown"]
        return "\n".join(lines + _footer(answer))

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        ctx = context_of(game)
        st = random_state(ctx, rng)
        seat = rng.randrange(len(st.players))
        alone = rng.random() < 0.5
        market = rng.choice(ctx.pack.markets)
        got = standings.market_z3(ctx, st, seat, market, alone=alone, timeout_ms=self.timeout_ms)
        want, _ = standings.oracle_market(ctx, st, seat, market, alone=alone)
        if got.status != "unknown" and got.extra != want:
            return f"{st!r}: seat {seat} {market}: z3 {got.extra}, the oracle {want}"
        claimable = rng.random() < 0.5
        got = standings.profit_z3(ctx, st, seat, claimable=claimable, alone=alone, timeout_ms=self.timeout_ms)
        want, _ = standings.oracle_profit(ctx, st, seat, claimable=claimable, alone=alone)
        if got.status != "unknown" and got.extra != want:
            return f"{st!r}: seat {seat} profit: z3 {got.extra}, the oracle {want}"
        return None


QUERIES: dict[str, Query] = {"placements": PlacementsQuery(), "risk": RiskQuery(), "standings": StandingsQuery()}
