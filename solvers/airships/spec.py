"""One attempt as data: the company's dice and effects, the target, and the
legal choices (exchange, fixed die given up, dice thrown) the readings allow.

``AttemptSpec`` is what every Airships solver takes; it is built from a game
state (``from_state``) or from CLI/scenario parameters (``from_params``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from itertools import product
from typing import Any

import attrs

from rulecraft.core import Rejection, RulecraftError
from rulecraft.model.airships.components import (
    COLOURS,
    Colour,
    Dice,
    EngineBonus,
    Exchange,
    FixedDie,
)
from rulecraft.model.airships.dice import Company, Pool, covers
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.rules import (
    TargetInfo,
    company,
    exchange_options,
    parse_target,
    pool_or_rejection,
    throw_allowed,
)
from rulecraft.model.airships.state import AirState


class SpecError(RulecraftError):
    """A spec parameter that cannot be read; names the parameter."""

    def __init__(self, param: str, message: str) -> None:
        super().__init__(f"{param}: {message}")
        self.param = param
        self.message = message


# The readings that change what one attempt can do; answers echo them.
READINGS: tuple[str, ...] = (
    "AIR-AMB-05", "AIR-AMB-06", "AIR-AMB-07", "AIR-AMB-08", "AIR-AMB-09",
    "AIR-AMB-10", "AIR-AMB-32", "AIR-AMB-35", "AIR-AMB-36",
)


def readings_of(game: AirshipsGame) -> dict[str, str]:
    return {amb: game.ctx.r(amb) for amb in READINGS}


@attrs.frozen
class AttemptSpec:
    """A company's dice and effects facing one target (AIR-R-12..20, 26..37)."""

    dice: Dice
    fixed: FixedDie | None
    engine: EngineBonus | None
    exchange: Exchange | None
    wooden_airship: bool
    chips: int
    requirement: Dice
    target: int

    @property
    def company(self) -> Company:
        return Company(self.dice, self.fixed, self.engine, self.exchange)

    def target_info(self) -> TargetInfo:
        # The model's rules read a TargetInfo; the ref only appears in messages.
        return TargetInfo("spec", "development", self.requirement, self.target)

    def evolve(self, **changes: Any) -> AttemptSpec:
        return attrs.evolve(self, **changes)

    @classmethod
    def from_state(
        cls, game: AirshipsGame, state: AirState, seat: int, target_ref: str
    ) -> AttemptSpec:
        if not 0 <= seat < len(state.boards):
            raise SpecError("seat", f"seat {seat} is not 0..{len(state.boards) - 1}")
        info = parse_target(game.ctx, state, target_ref)
        if isinstance(info, Rejection):
            raise SpecError("target_ref", str(info))
        comp = company(game.ctx, state, seat)
        return cls(
            dice=comp.dice, fixed=comp.fixed, engine=comp.engine, exchange=comp.exchange,
            wooden_airship=state.wooden_airship == seat, chips=state.boards[seat].chips,
            requirement=info.requirement, target=info.target,
        )

    @classmethod
    def from_params(cls, params: Mapping[str, Any]) -> AttemptSpec:
        """Parse the CLI/scenario forms (see the module's parsers)."""
        need = parse_dice("need", params.get("need"))
        if need.total() == 0:
            raise SpecError("need", "a target requires at least one die, e.g. 'W=2'")
        target = parse_int("target", params.get("target"), required=True)
        return cls(
            dice=parse_dice("dice", params.get("dice")),
            fixed=parse_fixed(params.get("fixed")),
            engine=parse_engine(params.get("engine")),
            exchange=parse_exchange(params.get("exchange")),
            wooden_airship=parse_bool("wooden_airship", params.get("wooden_airship")),
            chips=parse_int("chips", params.get("chips")),
            requirement=need,
            target=target,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": self.dice.to_mapping(),
            "fixed": f"{self.fixed.colour.value}{self.fixed.value}" if self.fixed else None,
            "engine": (
                f"{self.engine.colour.value if self.engine.colour else 'any'}+{self.engine.bonus}"
                if self.engine else None
            ),
            "exchange": (
                f"{self.exchange.give}{self.exchange.give_colour.value}>"
                f"{self.exchange.get}{self.exchange.get_colour.value}"
                if self.exchange else None
            ),
            "wooden_airship": self.wooden_airship,
            "chips": self.chips,
            "need": self.requirement.to_mapping(),
            "target": self.target,
        }


# -- parameter parsers: each names its parameter in the error -----------------


def _colour(param: str, text: str) -> Colour:
    try:
        return Colour(text.strip().upper())
    except ValueError:
        raise SpecError(param, f"colour {text!r} is not W, R or B") from None


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def parse_int(param: str, value: Any, *, required: bool = False) -> int:
    if _empty(value):
        if required:
            raise SpecError(param, "is required")
        return 0
    if isinstance(value, bool):
        raise SpecError(param, f"expected a whole number, got {value!r}")
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise SpecError(param, f"expected a whole number, got {value!r}") from None
    if n < 0 or (isinstance(value, float) and n != value):
        raise SpecError(param, f"expected a whole number >= 0, got {value!r}")
    return n


def parse_bool(param: str, value: Any) -> bool:
    if _empty(value):
        return False
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "y", "on"):
        return True
    if text in ("0", "false", "no", "n", "off"):
        return False
    raise SpecError(param, f"expected yes/no, got {value!r}")


def parse_dice(param: str, value: Any) -> Dice:
    """'W=5,R=3' (also 'W5 R3') or a mapping {'W': 5}."""
    if _empty(value):
        if param == "need":
            raise SpecError(param, "is required, e.g. 'W=1,R=1'")
        return Dice()
    counts: dict[str, int] = {}
    if isinstance(value, Mapping):
        items = [(str(k), v) for k, v in value.items()]
    elif isinstance(value, str):
        items = []
        for part in re.split(r"[,\s]+", value.strip()):
            m = re.fullmatch(r"([A-Za-z]+)\s*[=:]?\s*(\d+)", part)
            if m is None:
                raise SpecError(param, f"{part!r} is not COLOUR=COUNT, e.g. 'W=5,R=3'")
            items.append((m.group(1), m.group(2)))
    else:
        raise SpecError(param, f"expected 'W=5,R=3' or a mapping, got {value!r}")
    for key, n in items:
        colour = _colour(param, key)
        if colour.value in counts:
            raise SpecError(param, f"colour {colour.value} given twice")
        counts[colour.value] = parse_int(f"{param}.{colour.value}", n, required=True)
    return Dice.from_mapping(counts)


def parse_fixed(value: Any) -> FixedDie | None:
    """'W3' or {'colour': 'W', 'value': 3}."""
    if _empty(value):
        return None
    if isinstance(value, Mapping):
        if "colour" not in value or "value" not in value:
            raise SpecError("fixed", "a mapping needs 'colour' and 'value'")
        return FixedDie(_colour("fixed", str(value["colour"])),
                        parse_int("fixed.value", value["value"], required=True))
    if isinstance(value, FixedDie):
        return value
    m = re.fullmatch(r"\s*([A-Za-z])\s*=?\s*(\d+)\s*", str(value))
    if m is None:
        raise SpecError("fixed", f"{value!r} is not COLOUR VALUE, e.g. 'W3'")
    return FixedDie(_colour("fixed", m.group(1)), int(m.group(2)))


def parse_engine(value: Any) -> EngineBonus | None:
    """'R+1', 'any+2' (also 'grey+2') or {'colour': 'R'|'any', 'bonus': 1}."""
    if _empty(value):
        return None
    if isinstance(value, EngineBonus):
        return value
    if isinstance(value, Mapping):
        colour_text, bonus_value = str(value.get("colour", "")), value.get("bonus")
    else:
        m = re.fullmatch(r"\s*([A-Za-z]+)\s*\+\s*(\d+)\s*", str(value))
        if m is None:
            raise SpecError("engine", f"{value!r} is not COLOUR+BONUS, e.g. 'R+1' or 'any+2'")
        colour_text, bonus_value = m.group(1), m.group(2)
    bonus = parse_int("engine.bonus", bonus_value, required=True)
    if bonus < 1:
        raise SpecError("engine", "the bonus must be at least 1")
    if colour_text.lower() in ("any", "grey", "gray"):
        return EngineBonus(None, bonus)
    return EngineBonus(_colour("engine", colour_text), bonus)


def parse_exchange(value: Any) -> Exchange | None:
    """'3W>1B' (also '3W->1B') or {'give': 3, 'give_colour': 'W', 'get': 1, 'get_colour': 'B'}."""
    if _empty(value):
        return None
    if isinstance(value, Exchange):
        return value
    if isinstance(value, Mapping):
        try:
            give, give_c = value["give"], str(value["give_colour"])
            get, get_c = value["get"], str(value["get_colour"])
        except KeyError as exc:
            raise SpecError("exchange", f"a mapping needs {exc.args[0]!r}") from None
    else:
        m = re.fullmatch(r"\s*(\d+)\s*([A-Za-z])\s*-?>\s*(\d+)\s*([A-Za-z])\s*", str(value))
        if m is None:
            raise SpecError("exchange", f"{value!r} is not GIVE>GET, e.g. '3W>1B'")
        give, give_c, get, get_c = m.groups()
    ex = Exchange(
        parse_int("exchange.give", give, required=True), _colour("exchange", give_c),
        parse_int("exchange.get", get, required=True), _colour("exchange", get_c),
    )
    if ex.give < 1 or ex.get < 1:
        raise SpecError("exchange", "both sides of an exchange need at least one die")
    if ex.give_colour is ex.get_colour:
        raise SpecError("exchange", "an exchange turns one colour into another")
    return ex


# -- the legal choices of one attempt ----------------------------------------


@attrs.frozen
class Choice:
    """What the player decides before the throw (AIR-R-28..31)."""

    exchanges: int
    give_fixed: bool
    throw: Dice

    def to_json(self) -> dict[str, Any]:
        return {
            "exchanges": self.exchanges,
            "give_fixed": self.give_fixed,
            "throw": {c.value: self.throw[c] for c in COLOURS},
        }


def legal_pools(game: AirshipsGame, spec: AttemptSpec) -> Iterator[tuple[int, bool, Pool]]:
    """Every exchange choice the readings allow whose pool covers the target
    (AIR-R-27/29), through the model's own rules."""
    ctx = game.ctx
    comp = spec.company
    capped = ctx.r("AIR-AMB-32") == "capped"
    for k, give_fixed in exchange_options(ctx, comp):
        pool = pool_or_rejection(ctx, comp, k, give_fixed)
        if isinstance(pool, Pool) and covers(pool, spec.requirement, capped=capped) is None:
            yield k, give_fixed, pool


def legal_choices(game: AirshipsGame, spec: AttemptSpec) -> Iterator[tuple[Choice, Pool]]:
    """Every (exchange, give_fixed, dice thrown) the model's rules accept."""
    info = spec.target_info()
    for k, give_fixed, pool in legal_pools(game, spec):
        ranges = [range(min(pool.dice[c], pool.cap) + 1) for c in COLOURS]
        for counts in product(*ranges):
            throw = Dice(*counts)
            if throw_allowed(game.ctx, pool, info, throw) is None:
                yield Choice(k, give_fixed, throw), pool
