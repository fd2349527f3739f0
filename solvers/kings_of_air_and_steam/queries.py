"""The Kings of Air and Steam queries behind ``rulecraft query kas plan|flight``.

``plan``: is a 4-card plan free of forfeits (KAS-R-25) given the money for
upgrades (KAS-R-34, KAS-R-55)?  Also every such plan (``--all``) and the best
one (``--best movement|letters``).  ``flight``: where a card's flight can end
(KAS-R-26/27, the special cards), or whether it can end on one hex (``--to``).

Answers are JSON-able, with the Z3 time in ``ms``; ``--oracle`` adds the
brute-force answer, its time and whether the two agree.  ``oracle_check``
lets ``rulecraft verify`` compare Z3 with the oracle on seeded random inputs.
The delivery queries live in ``deliveries.py`` (another module) and join
:data:`QUERIES` when that module imports.
"""

from __future__ import annotations

import argparse
import importlib
import random
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.kings_of_air_and_steam.components import Card
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.query import Query
from rulecraft.solvers.kings_of_air_and_steam import flights, plans
from rulecraft.solvers.kings_of_air_and_steam.mapfile import MAP_HELP, use_map
from rulecraft.solving import ms as _ms

if TYPE_CHECKING:
    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame


def _kas(game: Any) -> KingsOfAirAndSteamGame:
    # Imported here, not at the top: game.py's queries() imports this module.
    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame

    if not isinstance(game, KingsOfAirAndSteamGame):
        raise RulecraftError(f"the Kings of Air and Steam queries need a Kings of Air and Steam game, got {game!r}")
    changed = game.parameters.changed(game.ctx.params)
    if changed:
        # The encodings state the printed costs ($4/$7 depots...): refuse rather than answer a variant wrongly.
        raise NotApplicable(
            f"the Kings of Air and Steam queries are encoded for the printed parameters; changed: {changed}"
        )
    return game


def _ids(text: Any) -> list[str]:
    return [part.strip() for part in str(text).split(",") if part.strip()]


def _hex(text: Any, what: str) -> Hex:
    try:
        q, r = (int(part) for part in str(text).split(","))
    except ValueError:
        raise RulecraftError(f"{what}: a hex is q,r (two integers), got {text!r}") from None
    return Hex(q, r)


def _int(params: Mapping[str, Any], key: str, default: int) -> int:
    value = params.get(key)
    if value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RulecraftError(f"--{key.replace('_', '-')}: an integer, got {value!r}") from None


# --- plan ------------------------------------------------------------------------------------------


def _layout(game: Any, params: Mapping[str, Any]) -> str:
    """--map FILE (read and made the game's layout) or --layout NAME of the pack."""
    if params.get("map"):
        return use_map(game, params["map"])
    return str(params.get("layout") or flights.DEFAULT_LAYOUT)


def _diamonds(text: Any) -> tuple[int, ...]:
    """--diamonds: one diamond rating per slot of the plan (KAS-R-19: 4 cards), whole numbers >= 0."""
    parts = [p.strip() for p in str(text).split(",")]
    if len(parts) != plans.PLAN_SIZE or not all(p.isdigit() for p in parts):
        raise RulecraftError(
            f"--diamonds: {plans.PLAN_SIZE} diamond ratings >= 0, one per slot (KAS-R-19), e.g. 0,1,2,1; got {text!r}"
        )
    return tuple(int(p) for p in parts)


@attrs.frozen
class PlanQuery:
    name: str = "plan"
    help: str = "Z3: is a 4-card plan free of forfeits given the money for upgrades? (--all, --best)"
    timeout_ms: int = plans.DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--cards", help="the plan in slot order, e.g. S01,S02,S03,S04")
        what.add_argument("--diamonds", help="the plan as the diamond ratings of its cards in slot order, e.g. 0,1,2,1")
        what.add_argument(
            "--all",
            dest="all_plans",
            action="store_true",
            default=None,
            help="every ordered 4-card plan of the deck free of forfeits",
        )
        what.add_argument(
            "--best",
            choices=("movement", "letters"),
            help="the plan free of forfeits with the most movement (letters: fitting --letters)",
        )
        parser.add_argument("--letters", help="letters per cycle for --best letters, e.g. A?C? ('?': any)")
        parser.add_argument("--money", type=int, help="money for upgrades (default 12, KAS-R-03)")
        parser.add_argument("--level", type=int, help="the airship level at the round's start (default 1)")
        parser.add_argument("--deck", help="card ids of the deck for --all/--best (default: the 12 standard cards)")
        parser.add_argument("--limit", type=int, help="plans listed with --all (default 20)")
        parser.add_argument("--timeout-ms", type=int, help=f"Z3 timeout per check (default {self.timeout_ms})")
        parser.add_argument(
            "--oracle", action="store_true", default=None, help="also run the brute-force oracle and compare"
        )

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        g = _kas(game)
        start = time.perf_counter()
        money, level = _int(params, "money", 12), _int(params, "level", 1)
        timeout = _int(params, "timeout_ms", self.timeout_ms)
        deck = _ids(params["deck"]) if params.get("deck") else None
        head = {"query": self.name, "solver": "z3", "money": money, "level": level}
        if params.get("cards") or params.get("diamonds"):
            if params.get("cards"):
                answer = plans.plan_free_of_forfeits(g, _ids(params["cards"]), money, level, timeout)
            else:
                spec = plans.PlanSpec(_diamonds(params["diamonds"]), tuple(g.pack.airship_track), money, level)
                answer = plans.check_plan(spec, timeout_ms=timeout)
            out = {**head, "mode": "check", **answer.to_json()}
            if params.get("oracle"):
                t = time.perf_counter()
                want = plans.oracle_free(answer.spec)
                out["oracle"] = {
                    "status": "free" if want else "forfeit",
                    "ms": _ms(t),
                    "schedule": want.to_json() if want else None,
                }
                out["agrees"] = answer.status == "unknown" or (answer.status == "free") == (want is not None)
        elif params.get("all_plans"):
            legal = plans.legal_plans(g, money, level, deck, timeout_ms=timeout)
            out = {**head, "mode": "all", **legal.to_json(_int(params, "limit", 20))}
            if params.get("oracle"):
                t = time.perf_counter()
                found = plans.oracle_legal_plans(g, money, level, deck)
                out["oracle"] = {"count": len(found), "ms": _ms(t)}
                out["agrees"] = legal.status != "done" or legal.count == len(found)
        elif params.get("best"):
            objective = str(params["best"])
            best = plans.best_plan(g, money, level, objective, params.get("letters"), deck, timeout_ms=timeout)
            out = {**head, "mode": "best", "objective": objective, **best.to_json()}
            if params.get("oracle"):
                t = time.perf_counter()
                value, ties = plans.oracle_best_plan(g, money, level, params.get("letters"), deck)
                out["oracle"] = {"movement": value, "plans": len(ties), "ms": _ms(t)}
                out["agrees"] = best.status == "unknown" or best.movement == value
        else:
            raise RulecraftError(
                "plan: give --cards S01,S02,S03,S04, --diamonds 0,1,2,1, --all or --best movement|letters"
            )
        out["total_ms"] = _ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        mode = answer["mode"]
        where = f"${answer['money']}, airship level {answer['level']}"
        if mode == "check":
            cards = ",".join(answer["spec"]["cards"])
            lines = [f"plan {cards} ({where}): {answer['status']}"]
            if answer["schedule"]:
                turns = answer["schedule"]["upgrade_turns"]
                lines.append("upgrade in turn(s) " + ", ".join(map(str, turns)) if turns else "no upgrade needed")
                lines.append(
                    f"ratings at the checks: {answer['schedule']['ratings']}; spent ${answer['schedule']['spent']}"
                )
            if answer["status"] == "forfeit":
                lines.append(f"rules saying no: {', '.join(answer['core'])}")
                effort = answer["best_effort"]
                if effort:
                    lost = [i + 1 for i, e in enumerate(effort["executed"]) if not e]
                    lines.append(f"at best, turn(s) {', '.join(map(str, lost))} lost")
        elif mode == "all":
            lines = [
                f"{answer['count']} of {answer['total']} plans free of forfeits ({where})",
                f"free diamond sequences: {answer['sequences']}",
            ]
        else:
            if answer["status"] == "none":
                lines = [f"no plan free of forfeits fits ({where}); rules saying no: {', '.join(answer['core'])}"]
            else:
                lines = [
                    f"best plan ({where}): {','.join(answer['cards'])} letters {answer['letters']}, "
                    f"movement {answer['movement']} ({answer['status']})"
                ]
        if answer.get("reason"):
            lines.append(f"Z3: {answer['reason']}")
        if "oracle" in answer:
            lines.append(f"oracle: {answer['oracle']} - {'agrees' if answer['agrees'] else 'DISAGREES'}")
        lines.append(f"({answer['ms']} ms)")
        return "\n".join(lines)

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        g = _kas(game)
        track = tuple(g.pack.airship_track)
        deck: list[Card] = list(g.pack.deck) + [t.special for t in g.pack.teams]
        cards = rng.sample(deck, plans.PLAN_SIZE)
        spec = plans.plan_spec(g, cards, rng.randint(0, 15), rng.randint(1, len(track)))
        got = plans.check_plan(spec, timeout_ms=self.timeout_ms)
        if got.status == "unknown":
            return None  # not a disagreement: Z3 proved nothing
        want = plans.oracle_free(spec)
        if (got.status == "free") != (want is not None):
            return f"{spec.to_json()}: z3 says {got.status}, the oracle {'free' if want else 'forfeit'}"
        if got.schedule is not None and want is not None:
            replay = plans.oracle_round(spec, got.schedule.upgrades)
            if replay is None or not all(replay.executed) or got.schedule.spent != want.spent:
                return f"{spec.to_json()}: z3's schedule {got.schedule} does not replay as the cheapest {want}"
        if got.status == "forfeit" and got.best_effort is not None:
            most = plans.oracle_most_executed(spec)
            if sum(got.best_effort.executed) != most:
                return f"{spec.to_json()}: z3 executes at most {sum(got.best_effort.executed)}, the oracle {most}"
        return None


# --- flight -----------------------------------------------------------------------------------------


@attrs.frozen
class FlightQuery:
    name: str = "flight"
    help: str = "Z3: where can a card's flight end from a hex (or: can it end on --to)?"
    timeout_ms: int = flights.DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--from", dest="start", help="the airship's hex q,r (required)")
        what = parser.add_mutually_exclusive_group()
        what.add_argument("--card", help="a card id, special cards included (DAV, ROS, KOA, SKY, GOD ...)")
        what.add_argument("--moves", help="bare movement values, e.g. 3 or 0,1,2,3")
        parser.add_argument("--to", help="the hex q,r to reach (default: every end)")
        area = parser.add_mutually_exclusive_group()
        area.add_argument("--layout", help=f"the play area (default {flights.DEFAULT_LAYOUT})")
        area.add_argument("--map", metavar="FILE", help=MAP_HELP)
        parser.add_argument(
            "--sharp-ok", action="store_true", default=None, help="Clint Castle: sharp turns allowed (KAS-R-82)"
        )
        parser.add_argument(
            "--straight", action="store_true", default=None, help="no turns at all (as the DaVinci card, KAS-R-65)"
        )
        parser.add_argument("--timeout-ms", type=int, help=f"Z3 timeout per check (default {self.timeout_ms})")
        parser.add_argument(
            "--oracle", action="store_true", default=None, help="also run the model's endpoint search and compare"
        )

    def spec(self, game: Any, params: Mapping[str, Any]) -> flights.FlightSpec:
        if not params.get("start"):
            raise RulecraftError("flight: --from q,r is required")
        card = params.get("card")
        moves = [int(m) for m in _ids(params["moves"])] if params.get("moves") else None
        if card is None and moves is None:
            raise RulecraftError("flight: give --card ID or --moves N[,N]")
        return flights.flight_spec(
            game,
            _hex(params["start"], "--from"),
            card=card,
            moves=moves,
            layout=_layout(game, params),
            sharp_ok=bool(params.get("sharp_ok")),
            straight=bool(params.get("straight")),
        )

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        g = _kas(game)
        start = time.perf_counter()
        spec = self.spec(g, params)
        timeout = _int(params, "timeout_ms", self.timeout_ms)
        out: dict[str, Any] = {"query": self.name, "solver": "z3", "spec": spec.to_json()}
        if params.get("to"):
            target = _hex(params["to"], "--to")
            status, per, ms = flights.can_end_on(g, spec, target, timeout_ms=timeout)
            out |= {
                "mode": "reach",
                "to": [target.q, target.r],
                "status": status,
                "distances": [a.to_json() for a in per],
                "ms": ms,
            }
            if params.get("oracle"):
                ends, oms = flights.oracle_card_ends(g, spec)
                want = any(target in e for e in ends.values())
                out["oracle"] = {"status": "reachable" if want else "unreachable", "ms": oms}
                out["agrees"] = status == "unknown" or (status == "reachable") == want
        else:
            found, ms = flights.card_ends(g, spec, timeout_ms=timeout)
            every = sorted({h for e in found for h in e.ends})
            status = "unknown" if any(e.status != "done" for e in found) else "done"
            out |= {
                "mode": "ends",
                "status": status,
                "distances": [e.to_json() for e in found],
                "ends": [[h.q, h.r] for h in every],
                "count": len(every),
                "ms": ms,
                "stuck": status == "done" and not every and bool(spec.distances),
                "readings": {"KAS-AMB-04": g.ctx.readings.get("KAS-AMB-04")},
            }
            if params.get("oracle"):
                ends, oms = flights.oracle_card_ends(g, spec)
                out["oracle"] = {"count": len(set().union(*ends.values())) if ends else 0, "ms": oms}
                out["agrees"] = status == "unknown" or all(set(e.ends) == ends[e.distance] for e in found)
        out["total_ms"] = _ms(start)
        return out

    def format(self, answer: Mapping[str, Any]) -> str:
        spec = answer["spec"]
        what = spec["card"] or f"moves {','.join(map(str, spec['distances']))}"
        head = f"{what} from ({spec['from'][0]},{spec['from'][1]}) on {spec['layout']}"
        if answer["mode"] == "reach":
            lines = [f"{head} to ({answer['to'][0]},{answer['to'][1]}): {answer['status']}"]
            for a in answer["distances"]:
                if a["status"] == "reachable":
                    lines.append(f"  distance {a['distance']}: path {a['path']}")
                elif a["status"] == "unreachable":
                    lines.append(f"  distance {a['distance']}: no; rules saying no: {', '.join(a['core'])}")
                else:
                    lines.append(f"  distance {a['distance']}: Z3 could not decide ({a['reason']})")
        else:
            ends = " ".join(f"({q},{r})" for q, r in answer["ends"])
            lines = [f"{head}: {answer['count']} end hex(es) ({answer['status']})", ends or "-"]
            if answer["stuck"]:
                lines.append(f"no legal flight: KAS-AMB-04 reading {answer['readings']['KAS-AMB-04']!r} applies")
        if "oracle" in answer:
            lines.append(f"oracle: {answer['oracle']} - {'agrees' if answer['agrees'] else 'DISAGREES'}")
        lines.append(f"({answer['ms']} ms)")
        return "\n".join(lines)

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        g = _kas(game)
        game_map = g.ctx.game_map(flights.DEFAULT_LAYOUT)
        deck: list[Card] = list(g.pack.deck) + [t.special for t in g.pack.teams]
        card = rng.choice(deck)
        at = rng.choice(sorted(h for h in game_map.hexes if game_map.can_end_on(h)))
        spec = flights.flight_spec(g, at, card=card, sharp_ok=rng.random() < 0.3)
        found, _ = flights.card_ends(g, spec, timeout_ms=self.timeout_ms)
        want, _ = flights.oracle_card_ends(g, spec)
        for e in found:
            if e.status != "done":
                continue  # Z3 proved nothing
            if set(e.ends) != want[e.distance]:
                extra, missing = set(e.ends) - want[e.distance], want[e.distance] - set(e.ends)
                return f"{spec.to_json()} distance {e.distance}: z3 extra {sorted(extra)}, missing {sorted(missing)}"
            for h, path in e.ends.items():
                problem = flights.judge_path(game_map, at, path, e.distance, spec.legs, spec.rules)
                if problem:
                    return f"{spec.to_json()}: z3's path {path} to {h} is illegal: {problem}"
        return None


_own: dict[str, Query] = {"plan": PlanQuery(), "flight": FlightQuery()}

# Last, after everything above exists: deliveries.py may import from this module.
try:
    # By name: the module may not exist yet, and the type checker must not insist it does.
    _deliveries_module = importlib.import_module("rulecraft.solvers.kings_of_air_and_steam.deliveries")
except ImportError:  # not written yet, or its own imports fail: the other queries still work
    _deliveries: dict[str, Query] = {}
else:
    _deliveries = dict(getattr(_deliveries_module, "QUERIES", {}))

QUERIES: dict[str, Query] = {**_own, **_deliveries}
