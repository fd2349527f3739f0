"""Z3: where can the seat put an airport tile now (AER-R-13..30), and what risk does each route carry?

A placement is a symbolic choice of a card class (the tile's stage and whether its card is an LR card:
the only card facts the rules read), a destination ``D``, an origin ``O`` (none for an upgrade), a hopped
destination ``M`` (none for a direct connection) and a slot of ``D``.  Everything is one-hot Booleans, so
an unsat core is small and readable.  Rule families (tracked by name):

* ``AER-R-13`` a tile from one of the player's cards (a class the player holds with a tile on it);
* ``AER-R-14`` the first leg starts at one of the player's airports and is a connection of the map (its
  directed arcs: AER-R-15's special connections are one-way, Europe -> X);
* ``AER-R-16`` a connection with the LR symbol needs a tile from an LR card;
* ``AER-R-17`` a hop: an LR card, one other destination ``M`` (not ``O`` or ``D``), a connection ``M -> D``;
* ``AER-R-29 (a)`` a slot in play (3 players: the "4/5" slots are out, AER-SET-04);
* ``AER-R-29 (c)`` at most one own tile on a destination: a new airport goes where the player has none;
* ``AER-R-29 (d)`` an empty slot first: no replacement while one is empty;
* ``AER-R-29 (e)`` a replaced tile has a strictly lower stage;
* ``AER-R-30 (f) a home tile is never replaced`` (so it is never upgraded either);
* ``AER-R-30`` an upgrade replaces the player's own tile (no reach, no roll: AER-AMB-13 ``full``);
* ``AER-R-21`` the rolls by connection colour: leg 1 by its colour (white: none) or its ‡ targets, a
  hop's leg 2 by its colour, a white leg 2 at 10+ (digest AER-R-25, AER-AMB-16 ``hop``);
* ``AER-R-22`` +2 on the rolls of the leg into ``D`` when an opponent (not a blocker) is at ``D``, and on
  leg 1 of a hop when opponents are at ``D`` and ``M`` (AER-AMB-18 ``both``).

The instance (the map's arcs with their colours, the slots' contents, the cards held, where the opponents
are) is data; the question (``--wish``) is a plain assertion.  Enumeration asks for one route (class, D,
O, M) together with the set of slots it may fill (one Boolean per slot, all that the rules allow), then
blocks that route.  Only the default readings of the placing rules are encoded (others: NotApplicable).

The oracle is the model itself: ``rules.placements`` (every PlaceAirport ``place_rejection`` accepts) and
``rules.attempt_rolls`` for the rolls.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs
import z3

from rulecraft.model.aeroplanes.actions import PlaceAirport
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import attempt_rolls, place_rejection
from rulecraft.model.aeroplanes.rules import placements as model_placements
from rulecraft.model.aeroplanes.state import BLOCKER, AerState
from rulecraft.solvers.aeroplanes.common import (
    RuleSolver,
    any_of,
    at_most_one,
    exactly_one,
    ms,
    require_readings,
)

R13 = "AER-R-13 a tile from one of the player's cards"
R14 = "AER-R-14 connected to an own airport (AER-R-15 one-way)"
R16 = "AER-R-16 an LR connection needs an LR card"
R17 = "AER-R-17 an LR hop over one other destination"
R29A = "AER-R-29 (a) a slot in play"
R29C = "AER-R-29 (c) one own tile a destination"
R29D = "AER-R-29 (d) an empty slot first"
R29E = "AER-R-29 (e) replace a lower stage only"
R30F = "AER-R-30 (f) a home tile is never replaced"
R30 = "AER-R-30 an upgrade replaces the player's own tile"
R21 = "AER-R-21 rolls by connection colour"
R22 = "AER-R-22 +2 for an opponent"

RISK_DEFAULTS = {
    "AER-AMB-16": "hop",
    "AER-AMB-18": "both",
    "AER-AMB-19": "bonus",
    "AER-AMB-20": "every",
    "AER-AMB-22": "allowed",
    "AER-AMB-25": "target",
}
MAX_ROLLS = 6  # a hop with a 3-roll ‡ leg and a 2-roll ‡ leg would need 5


# --- the instance ------------------------------------------------------------------------------------------


@attrs.frozen
class Arc:
    origin: int
    end: int
    colour: str
    rolls: tuple[int, ...] | None  # the ‡ targets
    long_range: bool


@attrs.frozen
class SlotInfo:
    """What a slot in play holds: nothing, or a tile (owner, stage; home tiles are stage 0)."""

    owner: int | None
    stage: int
    home: bool


@attrs.frozen
class Instance:
    seat: int
    names: tuple[str, ...]
    own: frozenset[int]
    slots: tuple[tuple[SlotInfo, ...], ...]  # per destination: its slots in play
    opponent: tuple[bool, ...]  # per destination: another player's tile there (AER-AMB-23: not a blocker)
    outside_europe: tuple[bool, ...]
    arcs: tuple[Arc, ...]
    cards: tuple[tuple[int, int, bool], ...]  # (number, stage, LR) of the cards with a tile on them
    classes: tuple[tuple[int, bool], ...]  # every (stage, LR) class, held or not
    red: int
    black: int
    white_second: int
    modifier: int

    def index(self, name: str) -> int:
        return self.names.index(name)

    def succ(self, i: int) -> list[Arc]:
        return [a for a in self.arcs if a.origin == i]

    def base(self, arc: Arc) -> tuple[int, ...]:
        """AER-R-21: a leg's rolls by colour (white: none), or the ‡ targets printed on it."""
        if arc.rolls is not None:
            return arc.rolls
        return {"white": (), "red": (self.red,), "black": (self.black,)}[arc.colour]

    def hop2(self, arc: Arc) -> tuple[int, ...]:
        """A hop's second ("additional") leg: a white one is rolled at 10+ (l.90-91)."""
        if arc.rolls is None and arc.colour == "white":
            return (self.white_second,)
        return self.base(arc)


def instance(ctx: Context, state: AerState, seat: int) -> Instance:
    pack = ctx.pack
    names = tuple(d.name for d in pack.destinations)
    n = len(state.players)
    slots: list[tuple[SlotInfo, ...]] = []
    opponent: list[bool] = []
    for d in pack.destinations:
        held = state.slots(d.name)
        row = []
        for j in range(d.slots_in_play(n)):
            a = held[j]
            row.append(SlotInfo(None, 0, False) if a is None else SlotInfo(a.owner, a.stage, a.home or a.blocker))
        slots.append(tuple(row))
        opponent.append(any(a is not None and a.owner not in (seat, BLOCKER) for a in held))
    graph = pack.graph()
    arcs = tuple(
        Arc(
            names.index(a),
            names.index(b),
            str(data["colour"]),
            tuple(data["rolls"]) if data["rolls"] is not None else None,
            bool(data["long_range"]),
        )
        for a, b, data in graph.edges(data=True)
    )
    cards = tuple(
        (c.number, pack.card(c.number).tile_stage, pack.card(c.number).long_range)
        for c in state.players[seat].cards
        if c.tiles >= 1
    )
    return Instance(
        seat=seat,
        names=names,
        own=frozenset(names.index(x) for x in state.airports(seat)),
        slots=tuple(slots),
        opponent=tuple(opponent),
        outside_europe=tuple(d.region != "Europe" for d in pack.destinations),
        arcs=arcs,
        cards=cards,
        classes=tuple((s, lr) for s in (1, 2, 3) for lr in (False, True)),
        red=pack.risk.red,
        black=pack.risk.black,
        white_second=pack.risk.white_second_leg,
        modifier=pack.risk.opponent_modifier,
    )


# --- the answer -----------------------------------------------------------------------------------------------


@attrs.frozen
class RollReq:
    target: int
    bonus: int
    leg: int

    @property
    def need(self) -> int:
        return self.target - self.bonus


@attrs.frozen
class Option:
    """One route to a destination with one class of card: the cards that can send the tile, the slots it
    may fill, the rolls (after the +2s) and whether the route needs a tile from an LR card."""

    destination: str
    origin: str | None
    via: str | None
    stage: int
    long_range_card: bool
    cards: tuple[int, ...]
    slots: tuple[int, ...]
    rolls: tuple[RollReq, ...]
    needs_lr: bool
    daring_pilot: bool

    @property
    def kind(self) -> str:
        return "upgrade" if self.origin is None else ("hop" if self.via else "direct")

    def actions(self) -> set[tuple[int, str, int, str | None, str | None]]:
        return {(c, self.destination, s, self.origin, self.via) for c in self.cards for s in self.slots}

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "destination": self.destination,
            "origin": self.origin,
            "via": self.via,
            "stage": self.stage,
            "cards": list(self.cards),
            "slots": list(self.slots),
            "rolls": [{"target": r.target, "bonus": r.bonus, "need": r.need, "leg": r.leg} for r in self.rolls],
            "needs_lr": self.needs_lr,
            "daring_pilot": self.daring_pilot,
        }


# --- the encoding ----------------------------------------------------------------------------------------------


@attrs.frozen
class Vars:
    dest: tuple[z3.BoolRef, ...]
    origin: tuple[z3.BoolRef, ...]
    via: tuple[z3.BoolRef, ...]
    cls: tuple[z3.BoolRef, ...]
    takes: tuple[z3.BoolRef, ...]
    up: z3.BoolRef
    hop: z3.BoolRef
    has: tuple[z3.BoolRef, ...]
    target: tuple[z3.ArithRef, ...]
    leg: tuple[z3.ArithRef, ...]
    bonus: tuple[z3.ArithRef, ...]
    needs_lr: z3.BoolRef


def _stage_above(inst: Instance, v: Vars, stage: int) -> z3.BoolRef:
    return any_of(c for c, (s, _) in zip(v.cls, inst.classes, strict=True) if s > stage)


def _slot_parts(inst: Instance, v: Vars, d: int, j: int) -> list[tuple[str, z3.BoolRef]]:
    """The rules on filling slot ``j`` of destination ``d`` (guarded by the caller with dest[d] and takes[j])."""
    row = inst.slots[d]
    if j >= len(row):
        return [(R29A, z3.BoolVal(False))]
    here = row[j]
    parts: list[tuple[str, z3.BoolRef]] = []
    if d in inst.own:
        mine = next(k for k, s in enumerate(row) if s.owner == inst.seat)
        parts.append((R29C, v.up))
        parts.append((R30, z3.BoolVal(j == mine)))
    else:
        parts.append((R30, z3.Not(v.up)))
    empty = [k for k, s in enumerate(row) if s.owner is None]
    if empty:
        parts.append((R29D, z3.BoolVal(j in empty)))
    elif here.home:
        parts.append((R30F, z3.BoolVal(False)))
    else:
        parts.append((R29E, _stage_above(inst, v, here.stage)))
    return parts


_STATIC: dict[tuple[int, int], tuple[Vars, list[tuple[str | None, z3.BoolRef]]]] = {}
_ROLLS: dict[tuple[int, int], list[z3.BoolRef]] = {}


def _class_name(k: tuple[int, bool]) -> str:
    return f"class={k[0]}{'LR' if k[1] else ''}"


def _variables(inst: Instance, width: int) -> Vars:
    return Vars(
        dest=tuple(z3.Bool(f"D={x}") for x in inst.names),
        origin=tuple(z3.Bool(f"O={x}") for x in inst.names),
        via=tuple(z3.Bool(f"M={x}") for x in inst.names),
        cls=tuple(z3.Bool(_class_name(k)) for k in inst.classes),
        takes=tuple(z3.Bool(f"slot{j}") for j in range(width)),
        up=z3.Bool("upgrade"),
        hop=z3.Bool("hop"),
        has=tuple(z3.Bool(f"roll{j}") for j in range(MAX_ROLLS)),
        target=tuple(z3.Int(f"target{j}") for j in range(MAX_ROLLS)),
        leg=tuple(z3.Int(f"leg{j}") for j in range(MAX_ROLLS)),
        bonus=tuple(z3.Int(f"bonus{j}") for j in range(MAX_ROLLS)),
        needs_lr=z3.Bool("needs_lr"),
    )


def _static(inst: Instance, pack_key: int, width: int) -> tuple[Vars, list[tuple[str | None, z3.BoolRef]]]:
    """The variables and the constraints that depend on the map alone (built once per pack): the shape
    of a placement (label None: structure, added plainly), AER-R-14's arcs, AER-R-16 and AER-R-17."""
    key = (pack_key, width)
    if key in _STATIC:
        return _STATIC[key]
    n = len(inst.names)
    v = _variables(inst, width)
    lr_card = any_of(c for c, (_, lr) in zip(v.cls, inst.classes, strict=True) if lr)
    out: list[tuple[str | None, z3.BoolRef]] = [
        (None, exactly_one(v.dest)),
        (None, exactly_one(v.cls)),
        (None, at_most_one(v.origin)),
        (None, at_most_one(v.via)),
        (None, z3.Not(z3.And(v.up, v.hop))),
        (None, z3.Implies(v.up, z3.Not(any_of(v.origin)))),
        (None, z3.Implies(z3.Not(v.up), any_of(v.origin))),
        (None, z3.Implies(v.hop, any_of(v.via))),
        (None, z3.Implies(z3.Not(v.hop), z3.Not(any_of(v.via)))),
        (R17, z3.Implies(v.hop, lr_card)),
    ]
    lr_used: list[z3.BoolRef] = []
    for i in range(n):
        ends = [a.end for a in inst.succ(i)]
        out.append((R14, z3.Implies(z3.And(v.origin[i], z3.Not(v.hop)), any_of(v.dest[e] for e in ends))))
        out.append((R14, z3.Implies(z3.And(v.origin[i], v.hop), any_of(v.via[e] for e in ends))))
        out.append((R17, z3.Implies(v.via[i], z3.And(z3.Not(v.origin[i]), z3.Not(v.dest[i])))))
        out.append((R17, z3.Implies(v.via[i], any_of(v.dest[e] for e in ends))))
    for a in inst.arcs:
        if a.long_range:
            used = z3.Or(
                z3.And(v.origin[a.origin], z3.Not(v.hop), v.dest[a.end]),
                z3.And(v.origin[a.origin], v.hop, v.via[a.end]),
                z3.And(v.via[a.origin], v.dest[a.end]),
            )
            lr_used.append(used)
            out.append((R16, z3.Implies(used, lr_card)))
    out.append((None, v.needs_lr == z3.Or(v.hop, any_of(lr_used))))
    _STATIC[key] = (v, out)
    return v, out


def encode(inst: Instance, rs: RuleSolver, *, enumerate_slots: bool, pack_key: int = 0) -> Vars:
    n = len(inst.names)
    width = max(len(r) for r in inst.slots)
    v, static = _static(inst, pack_key, width)
    for label, c in static:
        if label is None:
            rs.add(c)
        else:
            rs.rule(label, [c])
    rs.add(any_of(v.takes) if enumerate_slots else exactly_one(v.takes))
    # AER-R-13
    held = {(s, lr) for _, s, lr in inst.cards}
    rs.rule(R13, [any_of(c for c, k in zip(v.cls, inst.classes, strict=True) if k in held)])
    # AER-R-14: the origin is one of the player's airports
    rs.rule(R14, [z3.Not(o) for i, o in enumerate(v.origin) if i not in inst.own])
    # AER-R-29 / AER-R-30: the slots
    families: dict[str, list[z3.BoolRef]] = {}
    for d in range(n):
        for j in range(width):
            parts = _slot_parts(inst, v, d, j)
            guard = z3.And(v.dest[d], v.takes[j])
            for label, part in parts:
                if z3.is_true(part):
                    continue
                families.setdefault(label, []).append(z3.Not(guard) if z3.is_false(part) else z3.Implies(guard, part))
            if enumerate_slots:  # the question: every slot the rules allow for this route is taken
                live = [p for _, p in parts if not z3.is_true(p)]
                if not any(z3.is_false(p) for p in live):
                    rs.add(z3.Implies(z3.And(v.dest[d], *live), v.takes[j]))
    for label in (R29A, R29C, R29D, R29E, R30F, R30):
        rs.rule(label, families.get(label, []))
    # AER-R-21 / AER-R-22: the rolls of the route
    _rolls(inst, v, rs, pack_key)
    return v


def _rolls(inst: Instance, v: Vars, rs: RuleSolver, pack_key: int) -> None:
    r21: list[z3.BoolRef] = []

    def fix(guard: z3.BoolRef, rolls: Sequence[tuple[int, int]]) -> z3.BoolRef:
        eqs: list[z3.BoolRef] = []
        for j in range(MAX_ROLLS):
            if j < len(rolls):
                eqs += [v.has[j], v.target[j] == rolls[j][0], v.leg[j] == rolls[j][1]]
            else:
                eqs.append(z3.Not(v.has[j]))
        return z3.Implies(guard, z3.And(eqs))

    r21.append(fix(v.up, []))  # an upgrade rolls nothing (AER-R-19, AER-R-30)
    for o in sorted(inst.own):
        key = (pack_key, o)
        if key not in _ROLLS:
            parts = []
            for a in inst.succ(o):
                parts.append(fix(z3.And(v.origin[o], z3.Not(v.hop), v.dest[a.end]), [(t, 1) for t in inst.base(a)]))
                for b in inst.succ(a.end):
                    rolls = [(t, 1) for t in inst.base(a)] + [(t, 2) for t in inst.hop2(b)]
                    parts.append(fix(z3.And(v.origin[o], v.via[a.end], v.dest[b.end], v.hop), rolls))
            _ROLLS[key] = parts
        r21 += _ROLLS[key]
    rs.rule(R21, r21)
    opp_d = any_of(x for x, o in zip(v.dest, inst.opponent, strict=True) if o)
    opp_m = any_of(x for x, o in zip(v.via, inst.opponent, strict=True) if o)
    r22 = []
    for j in range(MAX_ROLLS):
        into_d = z3.Or(z3.Not(v.hop), v.leg[j] == 2)
        gets = z3.If(into_d, opp_d, z3.And(opp_d, opp_m))
        r22.append(v.bonus[j] == z3.If(gets, inst.modifier, 0))
    rs.rule(R22, r22)


_RADIX = 1 << 10  # one field of the packed answer; integer fields are offset by half of it
_CODES: dict[int, tuple[Vars, z3.ArithRef]] = {}


def _code(v: Vars) -> z3.ArithRef:
    """Every part of a placement the answer reads, packed into one integer term (mixed radix), so that a
    model is read with one evaluation: reading the whole model cost more than finding it (136 routes on a
    busy map took 200 ms)."""
    found = _CODES.get(id(v))
    if found is not None and found[0] is v:
        return found[1]
    half = _RADIX // 2

    def index(bools: Sequence[z3.BoolRef]) -> z3.ArithRef:  # 0: none, i + 1: the i-th
        return z3.Sum([z3.If(b, i + 1, 0) for i, b in enumerate(bools)] or [z3.IntVal(0)])

    def flag(b: z3.BoolRef) -> z3.ArithRef:
        return z3.If(b, 1, 0)

    fields: list[z3.ArithRef] = [index(v.dest), index(v.origin), index(v.via), index(v.cls), flag(v.needs_lr)]
    fields += [flag(t) for t in v.takes]
    for j in range(MAX_ROLLS):
        fields += [flag(v.has[j]), v.target[j] + half, v.bonus[j] + half, v.leg[j] + half]
    code = z3.IntVal(0)
    for f in reversed(fields):
        code = code * _RADIX + f
    if len(_CODES) > 256:
        _CODES.clear()
    _CODES[id(v)] = (v, code)
    return code


def _read(inst: Instance, model: z3.ModelRef, v: Vars) -> Option:
    value = model.eval(_code(v), model_completion=True)
    assert isinstance(value, z3.IntNumRef)
    packed = int(value.as_long())
    half = _RADIX // 2

    def take() -> int:
        nonlocal packed
        packed, part = divmod(packed, _RADIX)
        return part

    d, o, m, k, needs_lr = take() - 1, take() - 1, take() - 1, take() - 1, bool(take())
    slots = tuple(j for j in range(len(v.takes)) if take())
    rolls = []
    for _ in range(MAX_ROLLS):
        has, target, bonus, leg = take(), take() - half, take() - half, take() - half
        if has:
            rolls.append(RollReq(target, bonus, leg))
    stage, lr = inst.classes[k]
    return Option(
        destination=inst.names[d],
        origin=None if o < 0 else inst.names[o],
        via=None if m < 0 else inst.names[m],
        stage=stage,
        long_range_card=lr,
        cards=tuple(c for c, s, c_lr in inst.cards if (s, c_lr) == (stage, lr)),
        slots=slots,
        rolls=tuple(rolls),
        needs_lr=needs_lr,
        daring_pilot=inst.outside_europe[d],
    )


def _block(inst: Instance, option: Option, v: Vars) -> z3.BoolRef:
    """The route just found (class, D, O, M), as a clause to exclude."""
    chosen = [v.dest[inst.index(option.destination)], v.cls[inst.classes.index((option.stage, option.long_range_card))]]
    chosen.append(v.origin[inst.index(option.origin)] if option.origin else z3.Not(any_of(v.origin)))
    chosen.append(v.via[inst.index(option.via)] if option.via else z3.Not(any_of(v.via)))
    return z3.Not(z3.And(chosen))


@attrs.frozen
class Found:
    status: str  # "done" | "unknown" (then ``options`` is a subset)
    options: tuple[Option, ...]
    checks: int
    ms: float
    reason: str | None = None

    def actions(self) -> set[tuple[int, str, int, str | None, str | None]]:
        return {a for o in self.options for a in o.actions()}


def readings_problem(ctx: Context) -> None:
    require_readings(ctx, RISK_DEFAULTS, "the placements encoding")


def placements_z3(ctx: Context, state: AerState, seat: int, *, timeout_ms: int) -> Found:
    """Every route the seat can place a tile along now, with the slots, the cards and the rolls."""
    begin = time.perf_counter()
    readings_problem(ctx)
    inst = instance(ctx, state, seat)
    rs = RuleSolver(timeout_ms, track=False)
    v = encode(inst, rs, enumerate_slots=True, pack_key=id(ctx.pack))
    found: list[Option] = []
    checks = 0
    while True:
        checks += 1
        result = rs.check()
        if result != z3.sat:
            status = "done" if result == z3.unsat else "unknown"
            found.sort(key=lambda o: (o.destination, o.kind, o.origin or "", o.via or "", o.stage, o.long_range_card))
            return Found(status, tuple(found), checks, ms(begin), None if status == "done" else rs.reason())
        option = _read(inst, rs.model(), v)
        found.append(option)
        rs.add(_block(inst, option, v))


@attrs.frozen
class Wish:
    status: str  # "reachable" | "unreachable" | "unknown"
    option: Option | None
    core: tuple[str, ...]
    ms: float
    reason: str | None = None


def wish_z3(
    ctx: Context,
    state: AerState,
    seat: int,
    destination: str,
    *,
    timeout_ms: int,
    origin: str | None = None,
    via: str | None = None,
) -> Wish:
    """Can the seat place a tile in ``destination`` now (a new airport or an upgrade; from ``origin``, over
    ``via`` if given)?  Unsat: the rules that say no."""
    begin = time.perf_counter()
    readings_problem(ctx)
    inst = instance(ctx, state, seat)
    rs = RuleSolver(timeout_ms)
    v = encode(inst, rs, enumerate_slots=False, pack_key=id(ctx.pack))
    rs.add(v.dest[inst.index(destination)])
    if origin is not None:
        rs.add(v.origin[inst.index(origin)])
    if via is not None:
        rs.add(v.via[inst.index(via)], v.hop)
    elif origin is not None:
        rs.add(z3.Not(v.hop))
    result = rs.check()
    if result == z3.sat:
        return Wish("reachable", _read(inst, rs.model(), v), (), ms(begin))
    if result == z3.unsat:
        return Wish("unreachable", None, rs.core(), ms(begin))
    return Wish("unknown", None, (), ms(begin), rs.reason())


# --- the oracle: the model's own functions ------------------------------------------------------------------


@attrs.frozen
class OracleAnswer:
    actions: frozenset[tuple[int, str, int, str | None, str | None]]
    rolls: dict[tuple[str | None, str | None, str], tuple[tuple[int, int], ...]]
    ms: float


def at_turn(state: AerState, seat: int) -> AerState:
    """The state with ``seat`` to move (the model judges the seat to move)."""
    return state if state.to_move == seat else attrs.evolve(state, to_move=seat)


def oracle_placements(ctx: Context, state: AerState, seat: int) -> OracleAnswer:
    """``rules.placements`` (every PlaceAirport ``place_rejection`` accepts) and ``rules.attempt_rolls``."""
    begin = time.perf_counter()
    st = at_turn(state, seat)
    actions = frozenset((a.card, a.destination, a.slot, a.origin, a.via) for a in model_placements(ctx, st))
    rolls: dict[tuple[str | None, str | None, str], tuple[tuple[int, int], ...]] = {}
    for _, d, _, o, m in actions:
        if o is not None and (o, m, d) not in rolls:
            rolls[(o, m, d)] = tuple((r.target, r.bonus) for r in attempt_rolls(ctx, st, seat, o, d, m))
    return OracleAnswer(actions, rolls, ms(begin))


def oracle_rejection(ctx: Context, state: AerState, seat: int, destination: str) -> str | None:
    """None when some PlaceAirport into ``destination`` is accepted; else the rule of one rejection (the
    first card, origin and slot tried)."""
    st = at_turn(state, seat)
    if any(a.destination == destination for a in model_placements(ctx, st)):
        return None
    cards = [c.number for c in st.players[seat].cards] or [0]
    origins: list[str | None] = [None, *st.airports(seat)]
    why = place_rejection(ctx, st, PlaceAirport(cards[0], destination, 0, origins[-1], None))
    return why.rule if why is not None else "AER-R-13"


def disagreement(found: Found, oracle: OracleAnswer) -> str | None:
    """Why the Z3 answer and the oracle differ (None: they agree)."""
    got = found.actions()
    if got != oracle.actions:
        return f"z3 extra {sorted(got - oracle.actions, key=str)}, missing {sorted(oracle.actions - got, key=str)}"
    for option in found.options:
        if option.origin is None:
            if option.rolls:
                return f"the upgrade in {option.destination} needs no roll, z3 says {option.rolls}"
            continue
        want = oracle.rolls[(option.origin, option.via, option.destination)]
        have = tuple((r.target, r.bonus) for r in option.rolls)
        if have != want:
            return f"{option.origin}->{option.via or ''}->{option.destination}: z3 rolls {have}, the model {want}"
    return None
