"""Aeroplanes: the new-connection risk (NCR), exactly (AER-R-19..28, digest 3.4.3-3.4.4).

Which rolls an attempt needs, the dice, and the attempt as a small decision
process with exact probabilities (``fractions.Fraction``, never sampling).
The seed has no pages; it is cited by line ("l.89").

* :func:`rolls_for`: the rolls of a direct connection or a hop, in path
  order, each with its printed target, the +2 for an opponent (AER-R-22) and
  whether Daring Pilot may help it (AER-R-42/43).  The reference algorithm of
  AER-R-25, with the readings of AER-AMB-16, -18, -19, -20, -22, -25.
* :func:`throw_distribution`: the chance outcomes of one roll of the three risk
  dice (faces skull, 2..6 by default, from the pack): total and skull count.
* :func:`analyse`: the attempt under a policy: the probability that the tile is
  placed, that the attempt fails (declined or aborted: the tile goes back onto
  its card) or collapses (the 4th engine failure: the tile goes to the supply),
  the expected money, Daring Pilots and Radio Beacons spent, the expected
  engine failures held afterwards, and a breakdown roll by roll.
  :func:`success_probability` and :func:`expected_cost` are its two headline
  numbers.
* :func:`play`: one attempt with given dice, step by step (the printed risk
  examples, l.119-121).

The order within one roll (AER-R-28, AER-AMB-26 ``reroll``): throw; optional
Radio Beacons re-throws (the skulls of a thrown-away throw are ignored); take
one engine-failure tile per skull of the kept throw; collapse at 4; then pass,
or cover the shortfall in full (£1 a point and/or Daring Pilots, +3 each, only
outside Europe) or decline.  Before each later roll the player may abort
(l.112; AER-AMB-29: the same transition as declining).  Under AER-AMB-26
``at-once`` every throw's skulls are taken as they show, re-thrown or not, and
the collapse check comes before the re-roll decision.

Policies.  :data:`OPTIMAL` maximises the probability that the tile is placed;
ties go to the lower expected money spent, then the fewer expected Daring
Pilots, then the fewer expected Radio Beacons, and a remaining tie to the
option that ends the attempt sooner (abort before continue, keep before
re-throw, decline before cover, fewer pilots before more).  Backward induction
on these lexicographic keys is exact: the keys are expectations, so the order
is preserved by the weighting of the chance nodes.  :data:`ALWAYS_PAY` never
aborts and never re-throws, and covers every shortfall it can, with money
first and only as many Daring Pilots as the money cannot cover.  Any object with
the :class:`Policy` methods can be analysed too (it must decide from the
state alone).

Readings handled (``readings``, the keys of :data:`readings.REGISTER`):
AER-AMB-16 (hop / symmetric), AER-AMB-18 (both / per-leg), AER-AMB-19
(bonus / fixed), AER-AMB-20 (every / last), AER-AMB-22 (allowed / direct),
AER-AMB-25 (target / leg-end) and AER-AMB-26 (reroll / at-once); the others
are checked but do not concern the risk (:data:`RISK_READINGS`).
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import pairwise, product
from typing import Any, Literal, Protocol

import attrs

from rulecraft.core import RulecraftError
from rulecraft.model.aeroplanes.components import Colour, Face, Pack
from rulecraft.model.aeroplanes.readings import REGISTER
from rulecraft.ruleset import Ruleset

RISK_READINGS: tuple[str, ...] = (
    "AER-AMB-16",
    "AER-AMB-18",
    "AER-AMB-19",
    "AER-AMB-20",
    "AER-AMB-22",
    "AER-AMB-25",
    "AER-AMB-26",
)
"""The ambiguities whose readings change :func:`rolls_for` or :func:`analyse`."""

End = Literal["placed", "failed", "collapsed"]
ZERO = Fraction(0)
ONE = Fraction(1)


class RiskError(RulecraftError):
    """A route or an attempt the risk rules cannot evaluate (no such connection, a hop the reading forbids...)."""


# ---------------------------------------------------------------------------
# Routes and rolls
# ---------------------------------------------------------------------------


@attrs.frozen
class Leg:
    """One connection of a route.

    ``colour`` is None only for a ‡ route, whose ``targets`` are the rolls the
    risk table prints for it (l.103-105).  ``outside_europe`` is the region of
    the leg's end (AER-R-42, AER-AMB-25); it defaults to False, so Daring Pilot
    is usable only when the route says so.  ``long_range`` (the LR symbol or a
    ‡ route needing LR) and ``special`` (a one-way connection of l.79) matter
    only to AER-AMB-22.
    """

    colour: Colour | None
    targets: tuple[int, ...] | None = None
    outside_europe: bool = False
    long_range: bool = False
    special: bool = False
    end: str = ""

    def __attrs_post_init__(self) -> None:
        if (self.colour is None) == (self.targets is None):
            raise RiskError("a leg has a colour, or the printed targets of a ‡ route, not both and not neither")

    @property
    def dagger(self) -> bool:
        """A ‡ route (l.103-108): a single connection needing a fixed list of rolls."""
        return self.targets is not None


@attrs.frozen
class Route:
    """A direct connection ``O-D`` (one leg) or a long-range hop ``O-M-D`` (two legs, AER-R-17)."""

    legs: tuple[Leg, ...]

    def __attrs_post_init__(self) -> None:
        if len(self.legs) not in (1, 2):
            raise RiskError(f"a route has 1 leg (direct) or 2 (a hop over one destination, l.83), not {len(self.legs)}")

    @property
    def hop(self) -> bool:
        return len(self.legs) == 2

    @property
    def into_destination(self) -> Leg:
        return self.legs[-1]


def direct(leg: Leg) -> Route:
    return Route((leg,))


def hop(leg1: Leg, leg2: Leg) -> Route:
    return Route((leg1, leg2))


@attrs.frozen
class Opponents:
    """Whether some other player (a 3-player blocker is not one, AER-AMB-23) has a tile at the destination
    ``D`` and at the hopped destination ``M``."""

    destination: bool = False
    hopped: bool = False


@attrs.frozen
class Roll:
    """One required roll of three risk dice: it succeeds when ``total + bonus >= target`` (AER-R-23)."""

    index: int
    leg: int  # 1 or 2; a direct route's only leg is leg 1
    target: int  # as printed: 10, 12 or 14 (l.88, l.91, l.94-105)
    bonus: int  # the +2 of l.110 (AER-R-22), or 0
    daring_pilot: bool  # Daring Pilot may be played on it (D, or the leg's end, outside Europe)
    label: str

    @property
    def need(self) -> int:
        """The target after the +2: the total the dice must reach without help."""
        return self.target - self.bonus


def route_from_pack(pack: Pack, origin: str, destination: str, via: str | None = None) -> Route:
    """The route ``origin -> destination`` (or a hop over ``via``) on the pack's map, with each leg's colour,
    ‡ targets, LR and special flags and whether its end is outside Europe."""
    graph = pack.map_graph()
    names = [origin, destination] if via is None else [origin, via, destination]
    legs: list[Leg] = []
    for a, b in pairwise(names):
        if not graph.has_edge(a, b):
            raise RiskError(f"{pack.source}: no connection {a} -> {b} on the map (AER-R-14, AER-R-15)")
        arc: Mapping[str, Any] = graph.edges[a, b]
        rolls = arc["rolls"]
        legs.append(
            Leg(
                colour=arc["colour"],
                targets=tuple(rolls) if rolls is not None else None,
                outside_europe=pack.destination(b).region != "Europe",
                long_range=bool(arc["long_range"]),
                special=bool(arc["special"]),
                end=b,
            )
        )
    return Route(tuple(legs))


def chosen_readings(readings: Mapping[str, str] | None = None) -> Ruleset:
    """The registered defaults with ``readings`` on top (unknown ids or keys raise ``UnknownReading``)."""
    return _ruleset_of(tuple(sorted((readings or {}).items())))


@functools.lru_cache(maxsize=256)
def _ruleset_of(readings: tuple[tuple[str, str], ...]) -> Ruleset:
    # Memoised: move generation asks for the same readings on every candidate.
    return Ruleset.from_overrides(REGISTER, dict(readings))


def rolls_for(
    pack: Pack,
    route: Route,
    opponents_present: Opponents | None = None,
    readings: Mapping[str, str] | None = None,
) -> tuple[Roll, ...]:
    """The rolls an attempt over ``route`` needs, in path order (l.91: red then black), after the +2s.

    AER-R-21/25: leg 1 is rolled by its colour (white: no roll) or its ‡ targets;
    leg 2 (the hop's "additional" connection, l.90) by its colour or ‡ targets, a
    white leg 2 at 10+ (l.91; AER-AMB-16 ``symmetric``: only when leg 1 is white
    too).  A direct white connection needs no roll (l.86).  The +2 (l.110):
    the rolls of the leg into ``D`` with an opponent at ``D``; leg 1's rolls
    with opponents at both ``D`` and ``M`` (AER-AMB-18 ``per-leg``: at ``M``);
    AER-AMB-19 ``fixed`` denies it to the white leg 2's 10+ roll; AER-AMB-20
    ``last`` gives a ‡ leg's bonus only to its last roll.  Daring Pilot: every
    roll when ``D`` is outside Europe (AER-AMB-25 ``leg-end``: the end of the
    roll's own leg).  AER-AMB-22 ``direct`` forbids a hop with a ‡, special or
    LR-symbol leg.
    """
    rules = chosen_readings(readings)
    risk = pack.risk
    opponents_present = opponents_present or Opponents()
    if not route.hop and opponents_present.hopped:
        raise RiskError("a direct route hops over no destination: Opponents(hopped=True) means nothing here")
    if route.hop and rules.reading("AER-AMB-22") == "direct":
        odd = [leg for leg in route.legs if leg.dagger or leg.special or leg.long_range]
        if odd:
            raise RiskError(
                "AER-AMB-22=direct: a ‡, special or LR-symbol connection is used only as a direct connection into D"
            )
    dest_outside = route.into_destination.outside_europe
    per_leg_dp = rules.reading("AER-AMB-25") == "leg-end"
    out: list[Roll] = []
    for n, leg in enumerate(route.legs, start=1):
        into_d = n == len(route.legs)
        if into_d:
            opp = opponents_present.destination
        elif rules.reading("AER-AMB-18") == "per-leg":
            opp = opponents_present.hopped
        else:
            opp = opponents_present.destination and opponents_present.hopped
        white_second = False
        if leg.targets is not None:
            targets = leg.targets
            label = "‡"
        elif leg.colour == "white":
            leg1 = route.legs[0]
            rolled = route.hop and n == 2
            if rolled and rules.reading("AER-AMB-16") == "symmetric":
                rolled = leg1.colour == "white"
            targets = (risk.white_second_leg,) if rolled else ()
            white_second = rolled
            label = "white"
        else:
            target = risk.target(leg.colour) if leg.colour is not None else None
            targets = (target,) if target is not None else ()
            label = str(leg.colour)
        for k, target in enumerate(targets):
            bonus = risk.opponent_modifier if opp else 0
            if white_second and rules.reading("AER-AMB-19") == "fixed":
                bonus = 0
            if leg.dagger and rules.reading("AER-AMB-20") == "last" and k != len(targets) - 1:
                bonus = 0
            # AER-R-43: Daring Pilot helps a roll only when D (AER-AMB-25 'leg-end': its leg's end) is outside Europe.
            dp = leg.outside_europe if per_leg_dp else dest_outside
            where = f"leg {n}" + (f" to {leg.end}" if leg.end else "")
            out.append(Roll(len(out), n, target, bonus, dp, f"{label} {where}, {target}+"))
    return tuple(out)


# ---------------------------------------------------------------------------
# The dice
# ---------------------------------------------------------------------------


@attrs.frozen
class Throw:
    """A chance outcome of one throw of the risk dice: the sum of the number faces and the skulls (l.89)."""

    total: int
    skulls: int
    probability: Fraction


def read_faces(faces: Iterable[Face]) -> tuple[int, int]:
    """(total, skulls) of thrown faces: a skull counts 0, not 1, and is one engine failure (l.89)."""
    total = skulls = 0
    for face in faces:
        if face == "skull":
            skulls += 1
        else:
            total += int(face)
    return total, skulls


def throw_distribution(pack: Pack) -> tuple[Throw, ...]:
    """The exact distribution of one NCR roll: all ``risk_dice`` dice (l.106), each face equally likely."""
    return _throw_distribution(tuple(pack.supplies.risk_die_faces), pack.supplies.risk_dice)


@functools.lru_cache(maxsize=64)
def _throw_distribution(faces: tuple[Face, ...], dice: int) -> tuple[Throw, ...]:
    # Memoised on the dice themselves: the check of every candidate throw asks for it.
    tally: Counter[tuple[int, int]] = Counter(read_faces(f) for f in product(faces, repeat=dice))
    n = len(faces) ** dice
    return tuple(Throw(t, s, Fraction(c, n)) for (t, s), c in sorted(tally.items()))


# ---------------------------------------------------------------------------
# Policies
# ---------------------------------------------------------------------------


@attrs.frozen
class AttemptState:
    """Where an attempt stands: the roll about to be made (or being made) and what the player still holds."""

    roll: Roll
    money: int
    pilots: int
    beacons: int
    engine_failures: int


@attrs.frozen
class Cover:
    """Covering a shortfall in full: ``money`` pounds and ``pilots`` Daring Pilots (AER-R-23, AER-AMB-24)."""

    money: int
    pilots: int


class Policy(Protocol):
    """The player's choices during an attempt; each must depend only on its arguments."""

    @property
    def name(self) -> str: ...

    def go_on(self, state: AttemptState) -> bool:
        """Before a later roll: make it (True) or abort (False, l.112)."""
        ...

    def reroll(self, state: AttemptState, throw: Throw) -> bool:
        """After a throw, with a Radio Beacon in hand: throw again (l.160).  ``state.engine_failures`` is
        the count before this throw's skulls (AER-AMB-26 ``reroll``) or after them (``at-once``)."""
        ...

    def cover(self, state: AttemptState, shortfall: int, options: tuple[Cover, ...]) -> Cover | None:
        """A shortfall: one of ``options`` (the non-wasteful full covers affordable), or None to decline."""
        ...


@attrs.frozen
class AlwaysPay:
    """Never aborts or re-throws; covers every shortfall it can, money first, then the fewest Daring Pilots."""

    name: str = "always-pay"

    def go_on(self, state: AttemptState) -> bool:
        return True

    def reroll(self, state: AttemptState, throw: Throw) -> bool:
        return False

    def cover(self, state: AttemptState, shortfall: int, options: tuple[Cover, ...]) -> Cover | None:
        return options[0] if options else None


@attrs.define
class ScriptedPolicy:
    """Decisions given in advance, consumed in order (for worked examples): ``covers`` for the shortfalls
    (None = decline), ``rerolls`` for the throws, ``go_ons`` for the later rolls.  Exhausted lists fall back
    to always pay / keep / go on.  Stateful: use a fresh one for each :func:`play`."""

    covers: list[Cover | None] = attrs.field(factory=list)
    rerolls: list[bool] = attrs.field(factory=list)
    go_ons: list[bool] = attrs.field(factory=list)
    name: str = "scripted"

    def go_on(self, state: AttemptState) -> bool:
        return self.go_ons.pop(0) if self.go_ons else True

    def reroll(self, state: AttemptState, throw: Throw) -> bool:
        return self.rerolls.pop(0) if self.rerolls else False

    def cover(self, state: AttemptState, shortfall: int, options: tuple[Cover, ...]) -> Cover | None:
        return self.covers.pop(0) if self.covers else (options[0] if options else None)


ALWAYS_PAY = AlwaysPay()
OPTIMAL: Literal["optimal"] = "optimal"
PolicyChoice = Policy | Literal["optimal", "always-pay"]


def cover_options(roll: Roll, shortfall: int, money: int, pilots: int, pilot_bonus: int) -> tuple[Cover, ...]:
    """The full covers of ``shortfall`` that waste nothing: k Daring Pilots (only when the roll allows them,
    and no more than the shortfall needs) and the rest in pounds, affordable; fewest pilots first."""
    if shortfall <= 0:
        return ()
    # AER-R-43: Daring Pilots only on a roll that allows them, alone or together with money.
    most = min(pilots, -(-shortfall // pilot_bonus)) if roll.daring_pilot and pilot_bonus > 0 else 0
    out = []
    for k in range(most + 1):
        pay = max(0, shortfall - pilot_bonus * k)
        if pay <= money:
            out.append(Cover(pay, k))
    return tuple(out)


# -- the optimal policy: backward induction over (roll, money, pilots, beacons, EF) --------------------

_Val = tuple[Fraction, Fraction, Fraction, Fraction]  # P(placed), E[money], E[pilots], E[beacons]
_NOTHING: _Val = (ZERO, ZERO, ZERO, ZERO)


def _key(v: _Val) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    return (v[0], -v[1], -v[2], -v[3])


def _plus(v: _Val, money: int = 0, pilots: int = 0, beacons: int = 0) -> _Val:
    return (v[0], v[1] + money, v[2] + pilots, v[3] + beacons)


def _best(options: Sequence[_Val]) -> int:
    """The index of the best option; on a tie the earliest (options are listed soonest-ending first)."""
    best = 0
    for i in range(1, len(options)):
        if _key(options[i]) > _key(options[best]):
            best = i
    return best


class OptimalPolicy:
    """Maximise P(placed); ties: lower expected money, then pilots, then beacons, then the sooner end."""

    name = "optimal"

    def __init__(self, pack: Pack, rolls: Sequence[Roll], readings: Mapping[str, str] | None = None) -> None:
        self.rolls = tuple(rolls)
        self.throws = throw_distribution(pack)
        self.limit = pack.risk.engine_failure_limit
        self.bonus = pack.risk.daring_pilot_bonus
        self.at_once = chosen_readings(readings).reading("AER-AMB-26") == "at-once"
        needs = [max(0, r.need) for r in self.rolls]
        self._money_cap = [sum(needs[i:]) for i in range(len(needs) + 1)]
        per = [self._pilots_for(r, n) for r, n in zip(self.rolls, needs, strict=True)]
        self._pilot_cap = [sum(per[i:]) for i in range(len(per) + 1)]
        self._memo: dict[tuple[int, int, int, int, int], _Val] = {}

    def _pilots_for(self, roll: Roll, need: int) -> int:
        return -(-need // self.bonus) if roll.daring_pilot and self.bonus > 0 else 0

    # Money beyond what the remaining rolls could ever ask is never used, and likewise pilots:
    # capping them keeps the state space small without changing a single decision or value.
    def _cap(self, i: int, money: int, pilots: int) -> tuple[int, int]:
        return min(money, self._money_cap[i]), min(pilots, self._pilot_cap[i])

    def value(self, i: int, money: int, pilots: int, beacons: int, ef: int) -> _Val:
        """Before roll ``i`` (``i == len(rolls)``: all passed): the value of going on optimally."""
        if i == len(self.rolls):
            return (ONE, ZERO, ZERO, ZERO)
        go = self.throw_value(i, money, pilots, beacons, ef)
        return go if i == 0 else (_NOTHING, go)[_best((_NOTHING, go))]

    def throw_value(self, i: int, money: int, pilots: int, beacons: int, ef: int) -> _Val:
        money, pilots = self._cap(i, money, pilots)
        key = (i, money, pilots, beacons, ef)
        got = self._memo.get(key)
        if got is None:
            p = m = d = b = ZERO
            for t in self.throws:
                v = self._thrown(i, money, pilots, beacons, ef, t)
                p += t.probability * v[0]
                m += t.probability * v[1]
                d += t.probability * v[2]
                b += t.probability * v[3]
            got = self._memo[key] = (p, m, d, b)
        return got

    def _thrown_options(self, i: int, money: int, pilots: int, beacons: int, ef: int, t: Throw) -> list[_Val]:
        """[keep] or [keep, re-throw]; ``ef`` is the count before this throw's skulls."""
        if self.at_once:
            ef += t.skulls
            if ef >= self.limit:
                return [_NOTHING]
            keep = self._kept(i, money, pilots, beacons, ef, t)
        else:
            keep = self._kept(i, money, pilots, beacons, ef + t.skulls, t)
        if beacons <= 0:
            return [keep]
        return [keep, _plus(self.throw_value(i, money, pilots, beacons - 1, ef), beacons=1)]

    def _thrown(self, i: int, money: int, pilots: int, beacons: int, ef: int, t: Throw) -> _Val:
        options = self._thrown_options(i, money, pilots, beacons, ef, t)
        return options[_best(options)]

    def _cover_values(
        self, i: int, money: int, pilots: int, beacons: int, ef: int, covers: Sequence[Cover]
    ) -> list[_Val]:
        out = [_NOTHING]
        for c in covers:
            v = self.value(i + 1, money - c.money, pilots - c.pilots, beacons, ef)
            out.append(_plus(v, money=c.money, pilots=c.pilots))
        return out

    def _kept(self, i: int, money: int, pilots: int, beacons: int, ef: int, t: Throw) -> _Val:
        """The kept throw, ``ef`` already including its skulls."""
        if ef >= self.limit:
            return _NOTHING
        shortfall = self.rolls[i].need - t.total
        if shortfall <= 0:
            return self.value(i + 1, money, pilots, beacons, ef)
        covers = cover_options(self.rolls[i], shortfall, money, pilots, self.bonus)
        values = self._cover_values(i, money, pilots, beacons, ef, covers)
        return values[_best(values)]

    # -- the Policy interface ------------------------------------------------------------------
    def go_on(self, state: AttemptState) -> bool:
        i = state.roll.index
        go = self.throw_value(i, state.money, state.pilots, state.beacons, state.engine_failures)
        return i == 0 or _best((_NOTHING, go)) == 1

    def reroll(self, state: AttemptState, throw: Throw) -> bool:
        i = state.roll.index
        ef = state.engine_failures
        if self.at_once:  # the state already holds this throw's skulls: undo them for _thrown_options
            ef -= throw.skulls
        options = self._thrown_options(i, state.money, state.pilots, state.beacons, ef, throw)
        return _best(options) == 1

    def cover(self, state: AttemptState, shortfall: int, options: tuple[Cover, ...]) -> Cover | None:
        i = state.roll.index
        values = self._cover_values(i, state.money, state.pilots, state.beacons, state.engine_failures, options)
        best = _best(values)
        return None if best == 0 else options[best - 1]


# ---------------------------------------------------------------------------
# The attempt, measured exactly
# ---------------------------------------------------------------------------


@attrs.frozen
class RollStats:
    """One roll's share of an analysed attempt; probabilities are unconditional (from the start)."""

    roll: Roll
    aborted_before: Fraction  # the player aborted instead of making this roll
    reached: Fraction  # the dice were thrown for it
    passed: Fraction  # the kept throw met the need on its own
    covered: Fraction  # a shortfall was covered in full
    declined: Fraction  # a shortfall was not covered: the attempt fails (l.111)
    collapsed: Fraction  # its skulls made the 4th engine failure (l.114-117)
    money: Fraction  # expected pounds paid on it
    pilots: Fraction  # expected Daring Pilots played on it
    beacons: Fraction  # expected Radio Beacons played on it
    engine_failures: Fraction  # expected engine-failure tiles taken for it


@attrs.frozen
class RiskResult:
    """An attempt analysed exactly under one policy (all values are ``Fraction``)."""

    policy: str
    rolls: tuple[RollStats, ...]
    success: Fraction  # P(the tile is placed)
    failure: Fraction  # P(declined or aborted: the tile goes back onto its card)
    collapse: Fraction  # P(the 4th engine failure: the tile goes to the supply, EF tiles discarded)
    expected_money: Fraction  # expected pounds spent, whatever the end (lost on a failure, AER-R-26/27)
    expected_pilots: Fraction
    expected_beacons: Fraction
    expected_engine_failures: Fraction  # expected EF tiles held after the attempt (0 after a collapse)
    # E[pounds spent, counted only when the tile is placed]: with ``success``, the cost given success.
    money_when_placed: Fraction = ZERO

    @property
    def expected_money_if_placed(self) -> Fraction | None:
        """The expected pounds spent by an attempt that places its tile (None: it never does)."""
        return self.money_when_placed / self.success if self.success else None

    @property
    def expected_cost(self) -> Fraction:
        return self.expected_money


def _policy(pack: Pack, rolls: Sequence[Roll], policy: PolicyChoice, readings: Mapping[str, str] | None) -> Policy:
    if isinstance(policy, str):
        if policy == "optimal":
            return OptimalPolicy(pack, rolls, readings)
        if policy == "always-pay":
            return ALWAYS_PAY
        raise RiskError(f"unknown policy {policy!r}: 'optimal', 'always-pay' or a Policy object")
    return policy


def _check_start(
    pack: Pack, rolls: Sequence[Roll], money: int, pilots: int, beacons: int, engine_failures: int
) -> None:
    if [r.index for r in rolls] != list(range(len(rolls))):
        raise RiskError("the rolls of an attempt are numbered 0, 1, ... in path order (as rolls_for gives them)")
    if min(money, pilots, beacons, engine_failures) < 0:
        raise RiskError("money, Daring Pilots, Radio Beacons and engine failures cannot be negative")
    if engine_failures >= pack.risk.engine_failure_limit:
        raise RiskError(
            f"a player never holds {pack.risk.engine_failure_limit} engine failures: the attempt that took the "
            "last one collapsed and discarded them (l.114-116)"
        )


def _chosen(policy: Policy, cover: Cover | None, options: tuple[Cover, ...]) -> Cover | None:
    if cover is not None and cover not in options:
        raise RiskError(f"policy {policy.name} chose {cover}, not one of the covers {options}")
    return cover


def analyse(
    pack: Pack,
    rolls: Sequence[Roll],
    *,
    money: int,
    pilots: int = 0,
    beacons: int = 0,
    engine_failures: int = 0,
    policy: PolicyChoice = "optimal",
    readings: Mapping[str, str] | None = None,
) -> RiskResult:
    """Every chance outcome of an attempt, weighted exactly, under ``policy``.

    ``pilots``: Daring Pilot tiles held; ``beacons``: Radio Beacon tiles held
    (era 3 only, l.160: holding one implies era 3); ``engine_failures``: EF
    tiles held before the attempt (0..3).  Decisions are made state by state:
    the mass of every (money, pilots, beacons, EF) state is carried forward
    roll by roll, throw by throw.
    """
    rolls = tuple(rolls)
    _check_start(pack, rolls, money, pilots, beacons, engine_failures)
    chooser = _policy(pack, rolls, policy, readings)
    at_once = chosen_readings(readings).reading("AER-AMB-26") == "at-once"
    limit = pack.risk.engine_failure_limit
    bonus = pack.risk.daring_pilot_bonus
    throws = throw_distribution(pack)
    failure = collapse = ef_after = ZERO
    stats: list[RollStats] = []
    ahead: dict[tuple[int, int, int, int], Fraction] = {(money, pilots, beacons, engine_failures): ONE}
    for roll in rolls:
        acc: dict[str, Fraction] = defaultdict(Fraction)
        # Throw nodes by beacons still held: a re-throw spends one, so they are done from the most down.
        nodes: dict[int, dict[tuple[int, int, int, int], Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for (m, d, b, e), p in sorted(ahead.items()):
            if roll.index > 0 and not chooser.go_on(AttemptState(roll, m, d, b, e)):
                acc["aborted_before"] += p
                failure += p
                ef_after += p * e
                continue
            acc["reached"] += p
            nodes[b][(m, d, b, e)] += p
        ahead = defaultdict(Fraction)
        for held in range(max(nodes, default=-1), -1, -1):
            for (m, d, b, e0), p in sorted(nodes.pop(held, {}).items()):
                for t in throws:
                    q = p * t.probability
                    e = e0
                    if at_once:
                        e += t.skulls
                        acc["engine_failures"] += q * t.skulls
                        if e >= limit:
                            acc["collapsed"] += q
                            collapse += q
                            continue
                    if b > 0 and chooser.reroll(AttemptState(roll, m, d, b, e), t):
                        acc["beacons"] += q
                        nodes[b - 1][(m, d, b - 1, e)] += q
                        continue
                    if not at_once:
                        e += t.skulls
                        acc["engine_failures"] += q * t.skulls
                        if e >= limit:
                            acc["collapsed"] += q
                            collapse += q
                            continue
                    shortfall = roll.need - t.total
                    if shortfall <= 0:
                        acc["passed"] += q
                        ahead[(m, d, b, e)] += q
                        continue
                    options = cover_options(roll, shortfall, m, d, bonus)
                    state = AttemptState(roll, m, d, b, e)
                    cover = _chosen(chooser, chooser.cover(state, shortfall, options), options)
                    if cover is None:
                        acc["declined"] += q
                        failure += q
                        ef_after += q * e
                        continue
                    acc["covered"] += q
                    acc["money"] += q * cover.money
                    acc["pilots"] += q * cover.pilots
                    ahead[(m - cover.money, d - cover.pilots, b, e)] += q
        stats.append(
            RollStats(
                roll,
                aborted_before=acc["aborted_before"],
                reached=acc["reached"],
                passed=acc["passed"],
                covered=acc["covered"],
                declined=acc["declined"],
                collapsed=acc["collapsed"],
                money=acc["money"],
                pilots=acc["pilots"],
                beacons=acc["beacons"],
                engine_failures=acc["engine_failures"],
            )
        )
    success = sum(ahead.values(), ZERO)
    ef_after += sum((p * e for (_, _, _, e), p in ahead.items()), ZERO)
    return RiskResult(
        policy=chooser.name,
        rolls=tuple(stats),
        success=success,
        failure=failure,
        collapse=collapse,
        expected_money=sum((s.money for s in stats), ZERO),
        expected_pilots=sum((s.pilots for s in stats), ZERO),
        expected_beacons=sum((s.beacons for s in stats), ZERO),
        expected_engine_failures=ef_after,
        money_when_placed=sum((p * (money - m) for (m, _, _, _), p in ahead.items()), ZERO),
    )


def success_probability(
    pack: Pack,
    rolls: Sequence[Roll],
    *,
    money: int,
    pilots: int = 0,
    beacons: int = 0,
    engine_failures: int = 0,
    policy: PolicyChoice = "optimal",
    readings: Mapping[str, str] | None = None,
) -> Fraction:
    """P(the tile is placed) under ``policy`` (see :func:`analyse`)."""
    return analyse(
        pack,
        rolls,
        money=money,
        pilots=pilots,
        beacons=beacons,
        engine_failures=engine_failures,
        policy=policy,
        readings=readings,
    ).success


def expected_cost(
    pack: Pack,
    rolls: Sequence[Roll],
    *,
    money: int,
    pilots: int = 0,
    beacons: int = 0,
    engine_failures: int = 0,
    policy: PolicyChoice = "optimal",
    readings: Mapping[str, str] | None = None,
) -> Fraction:
    """The expected pounds spent on the attempt under ``policy``, whatever its end (see :func:`analyse`)."""
    return analyse(
        pack,
        rolls,
        money=money,
        pilots=pilots,
        beacons=beacons,
        engine_failures=engine_failures,
        policy=policy,
        readings=readings,
    ).expected_money


# ---------------------------------------------------------------------------
# One attempt with given dice
# ---------------------------------------------------------------------------


@attrs.frozen
class Step:
    """What happened to one throw: ``pass``, ``cover``, ``decline``, ``reroll`` or ``collapse``;
    or ``abort`` before a roll (then ``faces`` is empty)."""

    roll: int
    faces: tuple[Face, ...]
    total: int
    skulls: int
    outcome: Literal["pass", "cover", "decline", "reroll", "collapse", "abort"]
    shortfall: int = 0
    cover: Cover | None = None
    engine_failures: int = 0  # held after the step


@attrs.frozen
class Trace:
    """One attempt played out: its end and what it cost."""

    end: End
    steps: tuple[Step, ...]
    money_spent: int
    pilots_used: int
    beacons_used: int
    engine_failures: int  # held after the attempt

    @property
    def placed(self) -> bool:
        return self.end == "placed"


def play(
    pack: Pack,
    rolls: Sequence[Roll],
    throws: Sequence[Sequence[Face]],
    *,
    money: int,
    pilots: int = 0,
    beacons: int = 0,
    engine_failures: int = 0,
    policy: PolicyChoice = "always-pay",
    readings: Mapping[str, str] | None = None,
) -> Trace:
    """Resolve one attempt with the given throws (each all the risk dice), in order, re-throws included."""
    rolls = tuple(rolls)
    _check_start(pack, rolls, money, pilots, beacons, engine_failures)
    chooser = _policy(pack, rolls, policy, readings)
    at_once = chosen_readings(readings).reading("AER-AMB-26") == "at-once"
    limit = pack.risk.engine_failure_limit
    dice = list(throws)
    steps: list[Step] = []
    m, d, b, e = money, pilots, beacons, engine_failures
    spent_m = spent_d = spent_b = 0

    def trace(end: End) -> Trace:
        return Trace(end, tuple(steps), spent_m, spent_d, spent_b, e)

    for roll in rolls:
        if roll.index > 0 and not chooser.go_on(AttemptState(roll, m, d, b, e)):
            steps.append(Step(roll.index, (), 0, 0, "abort", engine_failures=e))
            return trace("failed")
        while True:
            if not dice:
                raise RiskError(f"the throws ran out during roll {roll.index + 1} ({roll.label})")
            faces = tuple(dice.pop(0))
            if len(faces) != pack.supplies.risk_dice or any(f not in pack.supplies.risk_die_faces for f in faces):
                raise RiskError(f"{faces} is not a throw of {pack.supplies.risk_dice} risk dice")
            total, skulls = read_faces(faces)
            t = Throw(total, skulls, ZERO)
            if at_once:
                e += skulls
                if e >= limit:
                    e = 0
                    steps.append(Step(roll.index, faces, total, skulls, "collapse"))
                    return trace("collapsed")
            if b > 0 and chooser.reroll(AttemptState(roll, m, d, b, e), t):
                b -= 1
                spent_b += 1
                steps.append(Step(roll.index, faces, total, skulls, "reroll", engine_failures=e))
                continue
            break
        if not at_once:
            e += skulls
            if e >= limit:
                e = 0
                steps.append(Step(roll.index, faces, total, skulls, "collapse"))
                return trace("collapsed")
        shortfall = roll.need - total
        if shortfall <= 0:
            steps.append(Step(roll.index, faces, total, skulls, "pass", engine_failures=e))
            continue
        options = cover_options(roll, shortfall, m, d, pack.risk.daring_pilot_bonus)
        cover = _chosen(chooser, chooser.cover(AttemptState(roll, m, d, b, e), shortfall, options), options)
        if cover is None:
            steps.append(Step(roll.index, faces, total, skulls, "decline", shortfall, engine_failures=e))
            return trace("failed")
        m -= cover.money
        d -= cover.pilots
        spent_m += cover.money
        spent_d += cover.pilots
        steps.append(Step(roll.index, faces, total, skulls, "cover", shortfall, cover, engine_failures=e))
    if dice:
        raise RiskError(f"{len(dice)} throw(s) left over after the attempt ended")
    return trace("placed")


__all__ = [
    "ALWAYS_PAY",
    "OPTIMAL",
    "RISK_READINGS",
    "AlwaysPay",
    "AttemptState",
    "Cover",
    "Leg",
    "Opponents",
    "OptimalPolicy",
    "Policy",
    "RiskError",
    "RiskResult",
    "Roll",
    "RollStats",
    "Route",
    "ScriptedPolicy",
    "Step",
    "Throw",
    "Trace",
    "analyse",
    "chosen_readings",
    "cover_options",
    "direct",
    "expected_cost",
    "hop",
    "play",
    "read_faces",
    "rolls_for",
    "route_from_pack",
    "success_probability",
    "throw_distribution",
]
