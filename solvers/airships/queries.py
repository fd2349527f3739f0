"""The Airships queries behind ``rulecraft query air reach|chance``.

Each query reads an attempt either from flags (--dice, --need, --target ...)
or from a saved state (--state FILE --seat N --target-ref REF), answers in
JSON-able form (fractions as "16/27" strings beside a float "approx") and
formats a short text.  ``oracle_check`` lets ``rulecraft verify`` compare a
query with the brute-force oracle on seeded random attempts.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

from rulecraft.core import NotApplicable, RulecraftError
from rulecraft.model.airships.components import (
    COLOURS,
    Colour,
    Dice,
    EngineBonus,
    Exchange,
    FixedDie,
)
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState
from rulecraft.query import Query
from rulecraft.solvers.airships.chance import chance
from rulecraft.solvers.airships.oracle import oracle, oracle_cost
from rulecraft.solvers.airships.reach import DEFAULT_TIMEOUT_MS, reach
from rulecraft.solvers.airships.spec import AttemptSpec, SpecError, readings_of
from rulecraft.solving import ms as _ms

# Readings the encodings and the oracle do not model: the queries refuse them.
_UNENCODED: tuple[tuple[str, str], ...] = (
    ("AIR-AMB-01", "every-success"),  # successes add red dice (a board count the encodings ignore)
    ("AIR-AMB-26", "next-turn"),  # cards won this turn do not count yet
)


def _airships(game: Any) -> AirshipsGame:
    if not isinstance(game, AirshipsGame):
        raise RulecraftError(f"the Airships queries need an Airships game, got {game!r}")
    if game.ctx.r("AIR-AMB-04") != "exact":
        # The encodings and the brute-force oracle score per colour (AIR-AMB-04 'exact').
        raise NotApplicable("the Airships queries encode AIR-AMB-04 'exact' (requirements per colour)")
    for amb_id, reading in _UNENCODED:
        if game.ctx.r(amb_id) == reading:
            # The encodings read one attempt of a company as it stands; these readings make the
            # company's dice depend on successes and on the turn, which the encodings do not state.
            raise NotApplicable(f"the Airships queries do not encode {amb_id} {reading!r}")
    changed = game.parameters.changed(game.ctx.params)
    if changed:
        # The encodings state the printed numbers (3 dice per colour, +1 per chip...): refuse rather than
        # answer a variant's question with the printed rules.
        raise NotApplicable(f"the Airships queries are encoded for the printed rule parameters; changed: {changed}")
    return game


def spec_of(game: AirshipsGame, params: Mapping[str, Any], state: Any = None) -> AttemptSpec:
    """From a state with --target-ref (seat default: the seat to move), else from the flags."""
    if state is None and params.get("state") and params.get("target_ref"):
        from rulecraft.statefile import load_state

        state = load_state(str(params["state"]), game)  # bounded, checked, one line on bad input
    if params.get("target_ref"):
        if not isinstance(state, AirState):
            raise SpecError("target_ref", "needs a state (--state FILE)")
        seat = params.get("seat")
        seat_no = state.seat if seat is None else int(seat)
        return AttemptSpec.from_state(game, state, seat_no, str(params["target_ref"]))
    return AttemptSpec.from_params(params)


def add_spec_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("the attempt, by hand")
    group.add_argument("--dice", help="throwable dice per colour, e.g. W=5,R=3")
    group.add_argument("--fixed", help="the Engineer's fixed die, e.g. W3")
    group.add_argument("--engine", help="engine marker and bonus, e.g. R+1 or any+2")
    group.add_argument("--exchange", help="Material exchange, e.g. 3W>1B")
    group.add_argument(
        "--wooden-airship", action="store_true", default=None, help="the company holds the wooden airship (+1)"
    )
    group.add_argument("--chips", type=int, help="chips on the company board")
    group.add_argument("--need", help="the target's required dice, e.g. W=1,R=1,B=1")
    group.add_argument("--target", type=int, help="the target's total T")
    group = parser.add_argument_group("the attempt, from a saved state")
    group.add_argument("--state", metavar="FILE", help="a JSON state (game.state_to_json)")
    group.add_argument("--seat", type=int, help="the company's seat (default: the seat to move)")
    group.add_argument("--target-ref", help="development:<card>, airship:<1-4> or stage:<1-4>")


def _text_need(spec: Mapping[str, Any]) -> str:
    need = " ".join(f"{n}{c}" for c, n in spec["need"].items())
    return f"target {spec['target']} with {need}"


def _text_choice(choice: Mapping[str, Any] | None) -> str:
    if choice is None:
        return "no legal choice"
    throw = ", ".join(f"{n} {c}" for c, n in choice["throw"].items() if n) or "no dice"
    trade = ""
    if choice["exchanges"]:
        trade = f" after {choice['exchanges']} exchange(s)"
        trade += " giving up the fixed die" if choice["give_fixed"] else ""
    return f"throw {throw}{trade}"


@attrs.frozen
class ReachQuery:
    name: str = "reach"
    help: str = "Z3: can this target ever be reached from this company board? (core, best, help)"
    timeout_ms: int = DEFAULT_TIMEOUT_MS

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_spec_arguments(parser)

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        g = _airships(game)
        start = time.perf_counter()
        spec = spec_of(g, params, state)
        answer = reach(g, spec, timeout_ms=self.timeout_ms)
        return {
            "query": self.name,
            "solver": "z3",
            "spec": spec.to_json(),
            "readings": readings_of(g),
            **answer.to_json(),
            "ms": _ms(start),
        }

    def format(self, answer: Mapping[str, Any]) -> str:
        spec = answer["spec"]
        head = f"{_text_need(spec)}: {answer['status']}"
        lines = [head, f"best total: {answer['best_total']}"]
        w = answer.get("witness")
        if w:
            faces = " ".join(f"{c}{w['faces'][c]}" for c in w["faces"] if w["faces"][c])
            lines.append(f"witness: {_text_choice(w)}; faces {faces or '-'}; chip {w['chip']}; total {w['total']}")
        if answer["status"] == "unreachable":
            lines.append(f"rules saying no: {', '.join(answer['core'])}")
            options = [" + ".join(h) for h in answer["help_alternatives"]]
            lines.append("smallest help: " + (" or ".join(options) or "nothing helps"))
        if answer["status"] == "unknown":
            lines.append(f"Z3 could not decide: {answer.get('reason')}")
        lines.append(f"({answer['ms']} ms)")
        return "\n".join(lines)

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        g = _airships(game)
        spec = random_spec(g, rng)
        got = reach(g, spec, timeout_ms=self.timeout_ms, want_help=False)
        want = oracle(g, spec)
        status = "reachable" if want.reachable else "unreachable"
        if got.status == "unknown":
            return None  # not a disagreement: Z3 proved nothing
        if (got.status, got.best_total) != (status, want.best_total):
            return f"{spec.to_json()}: z3 says {got.status}/{got.best_total}, the oracle {status}/{want.best_total}"
        return None


@attrs.frozen
class ChanceQuery:
    name: str = "chance"
    help: str = "exact chance of success with the best choice of dice and trade"

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        add_spec_arguments(parser)

    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]:
        g = _airships(game)
        start = time.perf_counter()
        spec = spec_of(g, params, state)
        a = chance(g, spec)
        choice = a.choice.to_json() if a.choice else None
        return {
            "query": self.name,
            "solver": "exact",
            "spec": spec.to_json(),
            "readings": readings_of(g),
            "probability": str(a.probability),
            "approx": _approx(a.probability),
            "without_chip": str(a.p_no_chip),
            "without_chip_approx": _approx(a.p_no_chip),
            "with_chip": str(a.p_with_chip),
            "with_chip_approx": _approx(a.p_with_chip),
            "chip_available": a.chips_available,
            "choice": choice,
            "choice_without_chip": a.choice_no_chip.to_json() if a.choice_no_chip else None,
            "choice_with_chip": a.choice_with_chip.to_json() if a.choice_with_chip else None,
            "choices": a.choices,
            "ms": _ms(start),
        }

    def format(self, answer: Mapping[str, Any]) -> str:
        spec = answer["spec"]
        chip_note = "" if answer["chip_available"] else " (no chip on the board)"
        return "\n".join(
            [
                f"{_text_need(spec)}: P(success) = {answer['probability']} ≈ {answer['approx']:.4f}",
                f"without a chip {answer['without_chip']} ≈ {answer['without_chip_approx']:.4f}; "
                f"with one decisive chip {answer['with_chip']} ≈ {answer['with_chip_approx']:.4f}"
                f"{chip_note}",
                f"best choice: {_text_choice(answer['choice'])}",
                f"({answer['choices']} choices, {answer['ms']} ms)",
            ]
        )

    def oracle_check(self, game: Any, rng: random.Random) -> str | None:
        g = _airships(game)
        spec = random_spec(g, rng)
        got, want = chance(g, spec), oracle(g, spec)
        if (got.p_no_chip, got.p_with_chip) != (want.p_no_chip, want.p_with_chip):
            return (
                f"{spec.to_json()}: exact {got.p_no_chip}/{got.p_with_chip}, "
                f"the oracle {want.p_no_chip}/{want.p_with_chip}"
            )
        return None


def _approx(p: Fraction) -> float:
    return round(float(p), 6)


ORACLE_BUDGET = 4000  # face combinations per random spec: keeps the oracle around 0.1 s


def random_spec(game: AirshipsGame, rng: random.Random, budget: int = ORACLE_BUDGET) -> AttemptSpec:
    """A random attempt small enough for the brute-force oracle."""
    colours = list(COLOURS)
    need = Dice()
    for _ in range(rng.randint(1, 3)):
        c = rng.choice(colours)
        need = need.with_count(c, need[c] + 1)
    fixed = FixedDie(rng.choice(colours), rng.randint(1, 9)) if rng.random() < 0.4 else None
    engine = None
    if rng.random() < 0.4:
        engine = EngineBonus(rng.choice([None, *colours]), rng.randint(1, 2))
    exchange = None
    if rng.random() < 0.4:
        give_c, get_c = rng.sample(colours, 2)
        exchange = Exchange(rng.randint(1, 3), give_c, rng.randint(1, 2), get_c)
    spec = AttemptSpec(
        dice=Dice(*(rng.randint(0, 4) for _ in colours)),
        fixed=fixed,
        engine=engine,
        exchange=exchange,
        wooden_airship=rng.random() < 0.3,
        chips=rng.randint(0, 2),
        requirement=need,
        target=rng.randint(1, 30),
    )
    return shrink_to_budget(game, spec, budget)


def shrink_to_budget(game: AirshipsGame, spec: AttemptSpec, budget: int) -> AttemptSpec:
    """Drop dice of the fullest colour until the oracle's enumeration fits."""
    while oracle_cost(game, spec) > budget:
        colour: Colour = max(COLOURS, key=lambda c: spec.dice[c])
        if spec.dice[colour] == 0:  # only the exchange's dice are left: drop it
            return spec.evolve(exchange=None)
        spec = spec.evolve(dice=spec.dice.with_count(colour, spec.dice[colour] - 1))
    return spec


QUERIES: dict[str, Query] = {"reach": ReachQuery(), "chance": ChanceQuery()}
