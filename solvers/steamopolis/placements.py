"""Z3: where can the player put a stone with SET 1 TARGET (STM-R-26..30), and what does channelling
bring?

A placement is a symbolic choice of a stone on the gauge (value ``v``), whether it is channelled, the
number ``m`` of moves left, and a district.  Channelling (STM-R-28/29, STM-AMB-02) enters machine
position ``e = ctx.entry(v)`` with value ``e`` and each move left lowers it by 1, so the stone is
placed at value ``w = e - m``; direct placement keeps ``w = v``.  Rule families (tracked by name):

* ``STM-R-26 a stone of the player's on the gauge``: the stone chosen is one of them;
* ``STM-R-26 level at most value``: the district's level is at most ``w``;
* ``STM-R-27 free district``: no stone of any kind on it;
* ``STM-R-28 channel precondition``: a stone that can enter the machine room (``e`` exists, so not
  value 1; STM-AMB-02) and a free district on a level at most ``e``; under STM-AMB-06 'forbidden'
  also a tile at the entry;
* ``STM-R-29 channel path``: ``0 <= m <= e - 1`` (a move needs ``w >= 2``) and a free district at or
  below the value after the last move (STM-AMB-06 (i)); no moves without channelling;
* ``STM-R-26 a free district at or below the value``: the stone must be placed (enumeration only).

The instance (the stones' values, each district's level and whether it is free, the machine room)
is data; the question (``--wish``) is a plain assertion, so an unsat core names rules only.
Enumeration asks for (stone value, channelled?, moves) together with the *set* of districts the
stone may then take (one Boolean per district), so one check lists every district of a path.

``--best``: the gain of the machines a path activates (STM-R-30), in activation order (the entry
position first, then each position moved to; a tile's piped boilers top to bottom), encoded for
Z3 Optimize.  What is counted (the oracle counts the same):

* white "resources" parts (``either`` split freely, "any number" up to the supply), capped by the
  general supply (STM-R-21); resources above the storage spaces would go back at the store step
  after the placement (STM-R-32): not applied, the gain is what the chain hands out;
* vote points; black costs as the model charges them (resources, crystals per stone owned, a stone
  from the gauge, envy), each paid only if affordable at that moment with the resources gained
  earlier in the chain (STM-R-30); an unpaid cost drops every part beneath it (STM-R-22);
* a slash: either side; every other part (pressure, parasites, 'use all activation effects' ...)
  counts nothing.

So the value is a lower bound on what the model lets a path gain: it leaves out the sponsor's and
the charity gala's discounts on a cost (STM-R-57/58), the effects of the player's own parasites
activated on the way (STM-R-56), a tile bought on the way (STM-R-61 'buy tile') that the stone then
activates, and 'use all activation effects' (STM-R-62).

``resources`` is the change in crystals + gears held, ``vp`` the vote points.  The oracle walks the
model itself: ``check``/``transition`` from ChannelPressure through MoveLeft to PlaceStone, every
effect forgone (the walk's legality never depends on them: the districts do not change); the
machines activated are the positions where the model queued effects for the channelling player, and
the gain is an exhaustive search over those queued programs.  A parasite on an activated machine lets
its owner use the effect once (STM-R-54): the model queues that use behind a hand-over to the owner,
and it is the owner's gain, not the channelling player's, so neither side counts it (the supply cap
assumes the owners forgo their share).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import attrs
import z3

from rulecraft.model.steamopolis.actions import (
    ChannelPressure,
    DeclineCost,
    LetPlayer,
    MoveLeft,
    PlaceStone,
    SetTarget,
    SkipPart,
    StmAction,
)
from rulecraft.model.steamopolis.components import District
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import (
    COSTS,
    Control,
    Either,
    Envy,
    GainResources,
    Handover,
    NextSharer,
    Part,
    PayCrystalsPerStone,
    PayResources,
    Program,
    Queued,
    ReturnStone,
    VotePoints,
)
from rulecraft.model.steamopolis.rules import check, head
from rulecraft.model.steamopolis.state import Phase, RoomTile, StmState, stones_owned
from rulecraft.model.steamopolis.transitions import transition
from rulecraft.solvers.steamopolis.common import POSITIONS, RuleSolver, ms, status_of

R26_LEVEL = "STM-R-26 level at most value"
R26_STONE = "STM-R-26 a stone of the player's on the gauge"
R26_PLACED = "STM-R-26 a free district at or below the value"
R27_FREE = "STM-R-27 free district"
R28_CHANNEL = "STM-R-28 channel precondition"
R29_PATH = "STM-R-29 channel path"
OBJECTIVES = ("resources", "vp")
NONE_FREE = 99  # the lowest free level when no district is free


# --- the instance ---------------------------------------------------------------------------------------


@attrs.frozen
class Instance:
    """What the rules read from the state for one seat."""

    seat: int
    stones: tuple[tuple[int, int], ...]  # (gauge space, pressure value), left to right
    entries: tuple[int, ...]  # per stone: the machine position it enters (0: it cannot channel)
    districts: tuple[District, ...]
    free: tuple[bool, ...]
    room: tuple[RoomTile | None, ...]
    programs: tuple[tuple[Program, ...], ...]  # per position 1..n: what a channelled stone activates
    entry_needs_tile: bool  # STM-AMB-06 'forbidden'
    crystals: int
    gears: int
    supply_crystals: int
    supply_gears: int
    owned: int  # stones on the gauge and the board once the channelled stone has left the gauge
    on_gauge: int  # stones on the gauge once the channelled stone has left it

    @property
    def lowest_free(self) -> int:
        return min((d.level for d, f in zip(self.districts, self.free, strict=True) if f), default=NONE_FREE)

    def value_of(self, space: int) -> int:
        return dict(self.stones)[space]

    def activates(self, path: Sequence[int]) -> list[dict[str, Any]]:
        """The machines a channelling path activates (STM-R-30: piped boilers), in order."""
        out = []
        for p in path:
            tile = self.room[p - 1]
            if tile is not None and self.programs[p - 1]:
                out.append({"position": p, "tile": tile.id, "kind": tile.kind, "boilers": len(self.programs[p - 1])})
        return out


def instance(ctx: Context, state: StmState, seat: int) -> Instance:
    """The instance for ``seat`` in ``state`` (at the choice of action: STM-R-23 (2))."""
    player = state.players[seat]
    spaces = player.gauge.stone_spaces()
    stones = tuple((s, ctx.layout.value(s)) for s in spaces)
    districts = ctx.districts(state)
    room = player.machine_room
    programs = tuple(tuple(b.effect for b in ctx.face(t).activated()) if t else () for t in room)
    return Instance(
        seat=seat,
        stones=stones,
        entries=tuple(ctx.entry(v) or 0 for _, v in stones),
        districts=districts,
        # The final round's 'own stones block' (STM-R-66) is judged for the seat asked about.
        free=tuple(ctx.is_free(at_choice(state, seat), d.level, d.position) for d in districts),
        room=room,
        programs=programs,
        entry_needs_tile=ctx.r("STM-AMB-06") == "forbidden",
        crystals=player.crystals,
        gears=player.gears,
        supply_crystals=state.supply.crystals,
        supply_gears=state.supply.gears,
        owned=stones_owned(state, seat) - 1,
        on_gauge=len(spaces) - 1,
    )


@attrs.frozen
class Placement:
    """One SET 1 TARGET: the stone's space and value, the district, and the channelling path."""

    space: int
    value: int
    level: int
    position: str
    channel: bool = False
    moves: int = 0
    entry: int | None = None

    @property
    def path(self) -> tuple[int, ...]:
        """The machine positions the stone passes, entry first (empty: placed directly)."""
        if not self.channel or self.entry is None:
            return ()
        return tuple(range(self.entry, self.entry - self.moves - 1, -1))

    @property
    def reduced(self) -> int:
        return self.entry - self.moves if self.channel and self.entry is not None else self.value

    @property
    def key(self) -> tuple[int, int, str, bool, int]:
        return (self.space, self.level, self.position, self.channel, self.moves)

    def to_json(self, inst: Instance) -> dict[str, Any]:
        return {
            "space": self.space,
            "value": self.value,
            "level": self.level,
            "position": self.position,
            "channel": self.channel,
            "entry": self.entry,
            "moves_left": self.moves,
            "path": list(self.path),
            "placed_at_value": self.reduced,
            "activates": inst.activates(self.path),
        }


# --- the encoding ------------------------------------------------------------------------------------------


def _pick(sel: z3.ArithRef, values: Sequence[int], default: int = 0) -> z3.ArithRef:
    """values[k] when sel == k (the last one otherwise: a domain constraint is instance, not rule)."""
    if not values:
        return z3.IntVal(default)
    expr: z3.ArithRef = z3.IntVal(values[-1])
    for k in range(len(values) - 2, -1, -1):
        expr = z3.If(sel == k, values[k], expr)
    return expr


@attrs.frozen
class _Vars:
    stone: z3.ArithRef
    channel: z3.BoolRef
    moves: z3.ArithRef
    value: z3.ArithRef
    entry: z3.ArithRef
    reduced: z3.ArithRef


def _stone_vars(values: Sequence[int], entries: Sequence[int], tag: str = "") -> _Vars:
    stone, channel, moves = z3.Int(f"stone{tag}"), z3.Bool(f"channel{tag}"), z3.Int(f"moves{tag}")
    if values:
        value, entry = _pick(stone, values), _pick(stone, entries)
    else:  # no stone on the gauge: only the rule that the stone comes from there says no
        value, entry = z3.Int(f"unlisted_value{tag}"), z3.Int(f"unlisted_entry{tag}")
    return _Vars(stone, channel, moves, value, entry, z3.If(channel, entry - moves, value))


def _channel_rules(inst: Instance, x: _Vars) -> list[tuple[str, list[z3.BoolRef]]]:
    """STM-R-28 and STM-R-29 as named families."""
    low = inst.lowest_free
    pre = [x.entry >= 1, x.entry >= low]
    if inst.entry_needs_tile:
        tiled = [p for p, t in enumerate(inst.room, start=1) if t is not None]
        pre.append(z3.Or([x.entry == p for p in tiled]) if tiled else z3.BoolVal(False))
    return [
        (R28_CHANNEL, [z3.Implies(x.channel, z3.And(pre))]),
        (
            R29_PATH,
            [
                z3.Implies(x.channel, z3.And(x.moves >= 0, x.moves <= x.entry - 1, x.entry - x.moves >= low)),
                z3.Implies(z3.Not(x.channel), x.moves == 0),
            ],
        ),
    ]


@attrs.frozen
class Placements:
    status: str  # "done" | "unknown" (then ``placements`` is a subset)
    placements: tuple[Placement, ...]
    checks: int
    ms: float
    reason: str | None = None


def placements_z3(ctx: Context, state: StmState, seat: int, *, timeout_ms: int) -> Placements:
    """Every legal SET 1 TARGET placement: Z3 lists each (value, channelled?, moves) with the set of
    districts it allows, then blocks it."""
    begin = time.perf_counter()
    inst = instance(ctx, state, seat)
    classes = sorted({v for _, v in inst.stones})
    if not classes:
        return Placements("done", (), 0, ms(begin))
    entries = [ctx.entry(v) or 0 for v in classes]
    rs = RuleSolver(timeout_ms, track=False)
    x = _stone_vars(classes, entries)
    rs.add(x.stone >= 0, x.stone < len(classes))
    takes = [z3.Bool(f"district{k}") for k in range(len(inst.districts))]
    levels = [d.level for d in inst.districts]
    rs.rule(R26_LEVEL, [z3.Implies(t, lvl <= x.reduced) for t, lvl in zip(takes, levels, strict=True)])
    rs.rule(R27_FREE, [z3.Not(t) for t, f in zip(takes, inst.free, strict=True) if not f])
    rs.rule(R26_PLACED, [z3.Or(takes)])
    for label, constraints in _channel_rules(inst, x):
        rs.rule(label, constraints)
    # The question: every district the rules allow for this path is in the set.
    rs.add(*[z3.Implies(lvl <= x.reduced, t) for t, lvl, f in zip(takes, levels, inst.free, strict=True) if f])
    found: list[Placement] = []
    checks = 0
    while True:
        checks += 1
        result = rs.check()
        if result != z3.sat:
            status = "done" if result == z3.unsat else "unknown"
            found.sort(key=lambda p: p.key)
            return Placements(status, tuple(found), checks, ms(begin), None if status == "done" else rs.reason())
        model = rs.model()
        k = model.eval(x.stone, model_completion=True).as_long()
        channel = z3.is_true(model.eval(x.channel, model_completion=True))
        moves = model.eval(x.moves, model_completion=True).as_long()
        value = classes[k]
        for space, v in inst.stones:
            if v != value:
                continue
            for t, d in zip(takes, inst.districts, strict=True):
                if z3.is_true(model.eval(t, model_completion=True)):
                    found.append(
                        Placement(space, v, d.level, d.position, channel, moves, entries[k] if channel else None)
                    )
        rs.add(z3.Not(z3.And(x.stone == k, x.channel == channel, x.moves == moves)))


@attrs.frozen
class _District:
    index: z3.ArithRef
    level: z3.ArithRef
    position: z3.ArithRef
    free: z3.BoolRef


def _district_vars(inst: Instance, tag: str = "") -> _District:
    j = z3.Int(f"district{tag}")
    level = _pick(j, [d.level for d in inst.districts])
    position = _pick(j, [POSITIONS.index(d.position) for d in inst.districts])
    free_k = [k for k, f in enumerate(inst.free) if f]
    free = z3.Or([j == k for k in free_k]) if free_k else z3.BoolVal(False)
    return _District(j, level, position, free)


def _single(inst: Instance, rs: RuleSolver) -> tuple[_Vars, _District]:
    """One placement as variables, every rule family added to ``rs``."""
    x = _stone_vars([v for _, v in inst.stones], list(inst.entries))
    d = _district_vars(inst)
    rs.add(d.index >= 0, d.index < len(inst.districts))
    rs.rule(R26_STONE, [x.stone >= 0, x.stone < len(inst.stones)])
    rs.rule(R26_LEVEL, [d.level <= x.reduced])
    rs.rule(R27_FREE, [d.free])
    for label, constraints in _channel_rules(inst, x):
        rs.rule(label, constraints)
    return x, d


def _read(inst: Instance, model: z3.ModelRef, x: _Vars, d: _District) -> Placement:
    space, value = inst.stones[model.eval(x.stone, model_completion=True).as_long()]
    district = inst.districts[model.eval(d.index, model_completion=True).as_long()]
    channel = z3.is_true(model.eval(x.channel, model_completion=True))
    moves = model.eval(x.moves, model_completion=True).as_long()
    entry = inst.entries[[s for s, _ in inst.stones].index(space)] if channel else None
    return Placement(space, value, district.level, district.position, channel, moves, entry)


@attrs.frozen
class Wish:
    status: str  # "reachable" | "unreachable" | "unknown"
    placement: Placement | None
    core: tuple[str, ...]
    ms: float
    reason: str | None = None


def wish_z3(ctx: Context, state: StmState, seat: int, level: int, position: str | None, *, timeout_ms: int) -> Wish:
    """Can a placement reach this level (district)?  Unsat: the rules that say no."""
    begin = time.perf_counter()
    inst = instance(ctx, state, seat)
    rs = RuleSolver(timeout_ms)
    x, d = _single(inst, rs)
    rs.add(d.level == level)
    if position is not None:
        rs.add(d.position == [str(name) for name in POSITIONS].index(position))
    result = rs.check()
    if result == z3.sat:  # a stone exists: without one the value is 0 and no level fits
        return Wish("reachable", _read(inst, rs.model(), x, d), (), ms(begin))
    if result == z3.unsat:
        return Wish("unreachable", None, rs.core(), ms(begin))
    return Wish("unknown", None, (), ms(begin), rs.reason())


# --- the gain of a channelling path (--best) ---------------------------------------------------------------


@attrs.frozen
class Gain:
    crystals: int
    gears: int
    vp: int

    def objective(self, objective: str) -> int:
        return self.crystals + self.gears if objective == "resources" else self.vp

    def to_json(self) -> dict[str, int]:
        return {"crystals": self.crystals, "gears": self.gears, "vp": self.vp}


class _Chain:
    """The activated programs, part by part, as Z3 terms over the player's holdings."""

    def __init__(self, opt: z3.Optimize, inst: Instance) -> None:
        self.opt = opt
        self.cap_c = inst.crystals + inst.supply_crystals  # STM-R-21: what the supply can still give
        self.cap_g = inst.gears + inst.supply_gears
        self.c: z3.ArithRef = z3.IntVal(inst.crystals)
        self.g: z3.ArithRef = z3.IntVal(inst.gears)
        self.vp: z3.ArithRef = z3.IntVal(0)
        self.owned: z3.ArithRef = z3.IntVal(inst.owned)
        self.on_gauge: z3.ArithRef = z3.IntVal(inst.on_gauge)
        self._n = 0

    def _fresh(self, expr: z3.ArithRef, name: str) -> z3.ArithRef:
        self._n += 1
        var = z3.Int(f"{name}#{self._n}")
        self.opt.add(var == expr)
        return var

    def run(self, parts: Sequence[Part], guard: z3.BoolRef) -> None:
        for k, part in enumerate(parts):
            if isinstance(part, Either):  # a slash: one side, then the rest of the effect
                self._n += 1
                side = z3.Bool(f"side#{self._n}")
                rest = tuple(parts[k + 1 :])
                self.run((*part.first, *rest), z3.And(guard, side))
                self.run((*part.second, *rest), z3.And(guard, z3.Not(side)))
                return
            if isinstance(part, COSTS):
                self._n += 1
                guard = z3.And(guard, z3.Bool(f"pay#{self._n}"))  # unpaid: everything beneath lapses
                self._pay(part, guard)
            else:
                self._gain(part, guard)

    def _pay(self, part: Part, guard: z3.BoolRef) -> None:
        if isinstance(part, PayResources):
            self.opt.add(z3.Implies(guard, z3.And(self.c >= part.crystals, self.g >= part.gears)))
            self.c = self._fresh(self.c - z3.If(guard, part.crystals, 0), "c")
            self.g = self._fresh(self.g - z3.If(guard, part.gears, 0), "g")
        elif isinstance(part, PayCrystalsPerStone):  # STM-R-63
            self.opt.add(z3.Implies(guard, self.c >= self.owned))
            self.c = self._fresh(self.c - z3.If(guard, self.owned, 0), "c")
        elif isinstance(part, ReturnStone):  # STM-R-43 / AMB-11: a gauge stone, never the last one owned
            self.opt.add(z3.Implies(guard, z3.And(self.on_gauge >= 1, self.owned >= 2)))
            self.on_gauge = self._fresh(self.on_gauge - z3.If(guard, 1, 0), "gauge")
            self.owned = self._fresh(self.owned - z3.If(guard, 1, 0), "owned")
        else:
            assert isinstance(part, Envy)  # costs nothing here (STM-R-53: the others' parasites)

    def _gain(self, part: Part, guard: z3.BoolRef) -> None:
        if isinstance(part, GainResources):
            self._n += 1
            rc, rg = z3.Int(f"rc#{self._n}"), z3.Int(f"rg#{self._n}")
            self.opt.add(rc >= 0, rg >= 0)
            if not part.any_number:  # white parts may be done partly (STM-R-22)
                self.opt.add(
                    rc <= part.crystals + part.either,
                    rg <= part.gears + part.either,
                    rc + rg <= part.crystals + part.gears + part.either,
                )
            self.c = self._fresh(self.c + z3.If(guard, rc, 0), "c")
            self.g = self._fresh(self.g + z3.If(guard, rg, 0), "g")
            self.opt.add(self.c <= self.cap_c, self.g <= self.cap_g)
        elif isinstance(part, VotePoints):
            self.vp = self._fresh(self.vp + z3.If(guard, part.n, 0), "vp")


@attrs.frozen
class Best:
    status: str  # "optimal" | "none" (no placement at all) | "unknown"
    objective: str
    value: int | None
    placement: Placement | None
    gain: Gain | None
    ms: float
    reason: str | None = None


def best_placement(ctx: Context, state: StmState, seat: int, objective: str, *, timeout_ms: int) -> Best:
    """Z3 Optimize: the placement whose channelling path gains the most resources (or VP)."""
    begin = time.perf_counter()
    inst = instance(ctx, state, seat)
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    rs = RuleSolver(timeout_ms, track=False)
    x, d = _single(inst, rs)
    opt.add(*rs.plain, *[c for cs in rs.families.values() for c in cs])
    chain = _Chain(opt, inst)
    for p in range(len(inst.room), 0, -1):  # entry first, then leftwards: descending positions
        active = z3.And(x.channel, x.entry >= p, x.entry - x.moves <= p)
        for program in inst.programs[p - 1]:
            chain.run(program, active)
    resources = chain.c + chain.g - (inst.crystals + inst.gears)
    goal = resources if objective == "resources" else chain.vp
    opt.maximize(goal)
    result = _check_opt(opt)
    if status_of(result) == "unknown" or (result == z3.sat and not inst.stones):
        return Best(
            "unknown" if status_of(result) == "unknown" else "none",
            objective,
            None,
            None,
            None,
            ms(begin),
            str(opt.reason_unknown()) if status_of(result) == "unknown" else None,
        )
    if result == z3.unsat:
        return Best("none", objective, None, None, None, ms(begin))
    model = opt.model()
    gain = Gain(
        model.eval(chain.c, model_completion=True).as_long() - inst.crystals,
        model.eval(chain.g, model_completion=True).as_long() - inst.gears,
        model.eval(chain.vp, model_completion=True).as_long(),
    )
    value = model.eval(goal, model_completion=True).as_long()
    return Best("optimal", objective, value, _read(inst, model, x, d), gain, ms(begin))


def _check_opt(opt: z3.Optimize) -> z3.CheckSatResult:
    from rulecraft import solving  # by module: tests replace rulecraft.solving.check

    return solving.check(opt)


# --- the oracle: the model's own check / transition -----------------------------------------------------------


@attrs.frozen
class Walked:
    """A placement the model accepts, with the programs the channelling queued (in order)."""

    placement: Placement
    programs: tuple[Program, ...] = ()
    activated: tuple[int, ...] = ()


def _forgo(ctx: Context, state: StmState) -> StmState:
    """Every queued effect forgone (STM-R-30: 'none, one or all'; STM-R-22: a declined cost drops the
    rest), the other players' shares of a parasite's effect (STM-R-54) included."""
    while state.turn.pending:
        part = head(state)
        action: StmAction
        if isinstance(part, NextSharer):  # STM-AMB-21 'owner-chooses': let them go in seat order
            action = LetPlayer(part.seats[0])
        else:
            action = DeclineCost() if isinstance(part, COSTS) else SkipPart()
        rejection = check(ctx, state, action)
        assert rejection is None, f"the model refuses to forgo {head(state)!r}: {rejection}"
        state = transition(ctx, state, action)
    return state


def own_programs(queued: Sequence[Queued], seat: int) -> tuple[Program, ...]:
    """The programs ``seat`` itself resolves among the effects an activation queued.  A parasite on
    the activated machine goes home and its owner uses the effect once (STM-R-54): those uses follow
    a hand-over to the owner (or wait in an 'owner-chooses' choice, STM-AMB-21) and gain the owner,
    never the channelling player, so they are not the channelling's gain."""
    out: list[Program] = []
    deciding = seat
    for steps in queued:
        if len(steps) == 1 and isinstance(steps[0], Handover):
            deciding = steps[0].seat
            continue
        parts = tuple(x for x in steps if not isinstance(x, Control))
        if deciding == seat and len(parts) == len(steps):
            out.append(parts)
    return tuple(out)


def at_choice(state: StmState, seat: int) -> StmState:
    """The state with ``seat`` choosing its action (the model judges the seat to move)."""
    return attrs.evolve(state, to_move=seat)


def oracle_placements(ctx: Context, state: StmState, seat: int) -> tuple[list[Walked], float]:
    """Every placement the model's ``check`` accepts, walking ChannelPressure -> MoveLeft* -> PlaceStone."""
    begin = time.perf_counter()
    state = at_choice(state, seat)
    out: list[Walked] = []
    gauge = state.players[seat].gauge
    for space in gauge.stone_spaces():
        value = ctx.layout.value(space)
        for d in ctx.districts(state):
            if check(ctx, state, SetTarget(space, d.level, d.position)) is None:
                out.append(Walked(Placement(space, value, d.level, d.position)))
        if check(ctx, state, ChannelPressure(space)) is None:
            after = transition(ctx, state, ChannelPressure(space))
            entry = after.turn.channel
            assert entry is not None
            queued = own_programs(after.turn.pending, seat)
            _walk(ctx, _forgo(ctx, after), space, value, entry, 0, queued, (entry,) if queued else (), out)
    out.sort(key=lambda w: w.placement.key)
    return out, ms(begin)


def _walk(
    ctx: Context,
    state: StmState,
    space: int,
    value: int,
    entry: int,
    moves: int,
    programs: tuple[Program, ...],
    activated: tuple[int, ...],
    out: list[Walked],
) -> None:
    for d in ctx.districts(state):
        if check(ctx, state, PlaceStone(d.level, d.position)) is None:
            out.append(Walked(Placement(space, value, d.level, d.position, True, moves, entry), programs, activated))
    if check(ctx, state, MoveLeft()) is None:
        after = transition(ctx, state, MoveLeft())
        position = after.turn.channel
        assert position is not None
        queued = own_programs(after.turn.pending, state.to_move)
        more = (position,) if queued else ()
        _walk(ctx, _forgo(ctx, after), space, value, entry, moves + 1, programs + queued, activated + more, out)


State5 = tuple[int, int, int, int, int]  # crystals, gears, vp, stones on the gauge, stones owned


def oracle_gain(inst: Instance, programs: Sequence[Program], objective: str) -> tuple[int, Gain]:
    """The best gain of these programs in this order, by exhaustive search over every choice."""
    states: set[State5] = {(inst.crystals, inst.gears, 0, inst.on_gauge, inst.owned)}
    for program in programs:
        states = {end for s in states for end in _run(inst, tuple(program), s)}
    gains = [Gain(c - inst.crystals, g - inst.gears, vp) for c, g, vp, _, _ in states]
    best = max(gains, key=lambda x: (x.objective(objective), x.crystals + x.gears, x.vp))
    return best.objective(objective), best


def _run(inst: Instance, parts: tuple[Part, ...], s: State5) -> set[State5]:
    if not parts:
        return {s}
    part, rest = parts[0], parts[1:]
    c, g, vp, on_gauge, owned = s
    if isinstance(part, Either):
        return _run(inst, (*part.first, *rest), s) | _run(inst, (*part.second, *rest), s)
    if isinstance(part, COSTS):
        out = {s}  # declined: everything beneath lapses
        paid: State5 | None = None
        if isinstance(part, PayResources) and c >= part.crystals and g >= part.gears:
            paid = (c - part.crystals, g - part.gears, vp, on_gauge, owned)
        elif isinstance(part, PayCrystalsPerStone) and c >= owned:
            paid = (c - owned, g, vp, on_gauge, owned)
        elif isinstance(part, ReturnStone) and on_gauge >= 1 and owned >= 2:
            paid = (c, g, vp, on_gauge - 1, owned - 1)
        elif isinstance(part, Envy):
            paid = s
        if paid is not None:
            out |= _run(inst, rest, paid)
        return out
    if isinstance(part, GainResources):
        cap_c, cap_g = inst.crystals + inst.supply_crystals, inst.gears + inst.supply_gears
        if part.any_number:  # as many as the supply holds: more never hurts
            return _run(inst, rest, (cap_c, cap_g, vp, on_gauge, owned))
        out = set()
        for xc in range(part.either + 1):  # the free choice's split; taking all never hurts
            nc = min(c + part.crystals + xc, cap_c)
            ng = min(g + part.gears + part.either - xc, cap_g)
            out |= _run(inst, rest, (nc, ng, vp, on_gauge, owned))
        return out
    if isinstance(part, VotePoints):
        return _run(inst, rest, (c, g, vp + part.n, on_gauge, owned))
    return _run(inst, rest, s)


def check_phase(state: StmState) -> str | None:
    """Why the placements cannot be asked in this state (None: they can)."""
    if state.phase is not Phase.ACTION or state.turn.pending or state.turn.storing:
        return f"the placements are asked at the choice of action (phase action), the state is in {state.phase.value}"
    step = state.turn.final_step
    if step is not None and step != "target":
        # STM-R-66: the final turn is MAKE STEAM, then SET 1 TARGET, then FLY, each once and in order.
        where = "still at MAKE STEAM (make or skip it first)" if step == "steam" else "past SET 1 TARGET, at FLY"
        return f"STM-R-66: this final turn is {where}; placements are asked at its SET 1 TARGET step"
    return None
