"""The pressure gauge of one airship, as pure functions (STM-R-14..20, R-47/48).

Spaces are numbered ``0..10`` left to right (the digest's ``g0..g10``);
space 0 is the base-pressure symbol space and has no pressure value.  The
values of spaces 1..10 are 1, 1, 2, 2, 3, 4, 5, 6, 7, 8: the rulebook never
lists them, but setup (p.6: "1, 1, 2") and the solo VALUES lines (p.36 ff.)
force every one of them (STM-R-14, STM-AMB-01).

Every function takes a :class:`Gauge` and returns a new one (or a small
result record); nothing mutates.  A move the rules forbid raises
:class:`GaugeError` naming the rule; an effect the rules let *lapse* simply
returns the gauge unchanged and says so in its result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import permutations

import attrs

from rulecraft.core import RulecraftError


class GaugeError(RulecraftError):
    """A gauge move the rules forbid; ``rule`` is the STM-R ID that says no."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


@attrs.frozen(cache_hash=True)  # hashed with every gauge the pressure walk visits
class Stone:
    """One of the player's 5 pressure stones; ``arrow``: the arrow side is up (STM-R-19)."""

    arrow: bool = False


@attrs.frozen(cache_hash=True)
class BonusMarker:
    """A bonus marker (STM-R-46..48): its numeral 2..5; the pink one is character 7's."""

    numeral: int
    pink: bool = False


Item = Stone | BonusMarker


@attrs.frozen
class GaugeLayout:
    """The printed gauge (STM-P-10): pressure value and bonus numeral per space.

    ``values[0]`` and ``numerals[0]`` are None: space 0 is the base-pressure
    symbol space.  ``base_max_value``: the base pressure marker goes no
    further than the space with this pressure value (STM-R-17: "4").
    """

    values: tuple[int | None, ...]
    numerals: tuple[int | None, ...]
    base_max_value: int = 4

    def __attrs_post_init__(self) -> None:
        if len(self.values) != len(self.numerals) or len(self.values) < 2:
            raise ValueError("a gauge layout needs one value and one numeral per space, and at least 2 spaces")
        if self.values[0] is not None or any(v is None for v in self.values[1:]):
            raise ValueError("space 0 is the base-pressure symbol space; every other space has a value")
        if self.base_max_value not in self.values[1:]:
            raise ValueError(f"no space has the base marker's maximum value {self.base_max_value}")

    @property
    def last(self) -> int:
        return len(self.values) - 1

    @property
    def base_limit(self) -> int:
        """The space the base pressure marker can reach at most (STM-R-17: the first of value 4)."""
        return self.values.index(self.base_max_value)

    def value(self, space: int) -> int:
        """The pressure value of a stone on ``space`` (STM-R-14)."""
        v = self.values[space]
        if v is None:
            raise GaugeError("STM-R-14", f"space {space} is the base-pressure symbol space and has no value")
        return v

    def space_of_value(self, value: int) -> int | None:
        """The rightmost space with ``value`` (for 8: the last space, STM-R-61 'stone to 8')."""
        found = [i for i, v in enumerate(self.values) if v == value]
        return found[-1] if found else None

    def numeral_spaces(self, numeral: int) -> tuple[int, ...]:
        return tuple(i for i, n in enumerate(self.numerals) if n == numeral)


# STM-R-14 with STM-AMB-03 (a): a space's bonus numeral is its value for 2..5.
STANDARD_LAYOUT = GaugeLayout(
    values=(None, 1, 1, 2, 2, 3, 4, 5, 6, 7, 8),
    numerals=(None, None, None, 2, 2, 3, 4, 5, None, None, None),
    base_max_value=4,
)


def _no_item_left_of_base(
    instance: Gauge, attribute: attrs.Attribute[tuple[Item | None, ...]], value: tuple[Item | None, ...]
) -> None:
    if not 0 <= instance.base < len(value):
        raise ValueError(f"base marker on space {instance.base}, outside 0..{len(value) - 1}")
    # STM-R-14: stones and bonus markers lie strictly right of the base marker (every space up to it free;
    # counted in C: a gauge is built after nearly every step).
    if value[: instance.base + 1].count(None) != instance.base + 1:
        raise ValueError("an item lies on or left of the base pressure marker (STM-R-14)")


@attrs.frozen(cache_hash=True)
class Gauge:
    """One player's gauge: the base marker's space and what lies on each space.

    The hash is cached: gauges key the memoised pressure walks (rules.py), asked several times a turn."""

    base: int
    spaces: tuple[Item | None, ...] = attrs.field(validator=_no_item_left_of_base)

    # -- reading ---------------------------------------------------------------
    def stone_spaces(self) -> tuple[int, ...]:
        return _stone_spaces(self)

    def arrow_spaces(self) -> tuple[int, ...]:
        return _arrow_spaces(self)

    def marker_spaces(self) -> tuple[int, ...]:
        return tuple(i for i, item in enumerate(self.spaces) if isinstance(item, BonusMarker))

    def stones(self) -> int:
        return len(self.stone_spaces())

    def stone_at(self, space: int, rule: str) -> Stone:
        item = self.spaces[space] if 0 <= space < len(self.spaces) else None
        if not isinstance(item, Stone):
            raise GaugeError(rule, f"no pressure stone on space {space}")
        return item

    def is_free(self, space: int) -> bool:
        """Free: right of the base marker, no stone and no bonus marker on it (digest section 0)."""
        return self.base < space < len(self.spaces) and self.spaces[space] is None

    def next_free_right(self, space: int) -> int | None:
        """The nearest free space right of ``space``, jumping stones and markers (STM-R-15)."""
        for i in range(max(space, self.base) + 1, len(self.spaces)):
            if self.spaces[i] is None:
                return i
        return None

    def first_free(self) -> int | None:
        """The first free space right of the base marker (STM-R-18)."""
        return self.next_free_right(self.base)


def _stone_spaces_uncached(gauge: Gauge) -> tuple[int, ...]:
    return tuple(i for i, item in enumerate(gauge.spaces) if isinstance(item, Stone))


def _arrow_spaces_uncached(gauge: Gauge) -> tuple[int, ...]:
    return tuple(i for i, item in enumerate(gauge.spaces) if isinstance(item, Stone) and item.arrow)


# Memoised by a call rather than a decorator (mutmut skips decorated functions), by the gauge (its hash is
# cached): the rules ask a gauge's stones several times a step, the arrow stones at every turn's start.
_stone_spaces = lru_cache(maxsize=16384)(_stone_spaces_uncached)
_arrow_spaces = lru_cache(maxsize=16384)(_arrow_spaces_uncached)


def _put(gauge: Gauge, space: int, item: Item | None) -> Gauge:
    spaces = list(gauge.spaces)
    spaces[space] = item
    return Gauge(gauge.base, tuple(spaces))


def _move(gauge: Gauge, src: int, dst: int) -> Gauge:
    spaces = list(gauge.spaces)
    spaces[dst] = spaces[src]
    spaces[src] = None
    return Gauge(gauge.base, tuple(spaces))


def setup_gauge(layout: GaugeLayout = STANDARD_LAYOUT) -> Gauge:
    """STM-R-10/R-11 (p.6): base marker on the symbol space, 3 arrowless stones on spaces 1-3 (values 1, 1, 2)."""
    spaces: list[Item | None] = [None] * len(layout.values)
    # STM-R-11: 3 stones, arrow side hidden, on g1-g3 (values 1, 1, 2); the other 2 wait in the supply.
    for i in (1, 2, 3):
        spaces[i] = Stone()
    return Gauge(0, tuple(spaces))


def gauge_problems(gauge: Gauge, layout: GaugeLayout = STANDARD_LAYOUT, stones: int = 5) -> list[str]:
    """Every violation of the gauge invariants (digest 3.14), each naming its rule."""
    out: list[str] = []
    if len(gauge.spaces) != len(layout.values):
        out.append(f"STM-R-14: {len(gauge.spaces)} spaces, the layout has {len(layout.values)}")
    if gauge.base > layout.base_limit:
        out.append(f"STM-R-17: base marker on space {gauge.base}, beyond the value-{layout.base_max_value} space")
    if gauge.stones() > stones:
        out.append(f"STM-R-08: {gauge.stones()} stones on the gauge, a player owns {stones}")
    for i in gauge.marker_spaces():
        marker = gauge.spaces[i]
        assert isinstance(marker, BonusMarker)
        if i < len(layout.numerals) and layout.numerals[i] != marker.numeral and not marker.pink:
            out.append(f"STM-R-47: bonus marker #{marker.numeral} on space {i}, printed numeral {layout.numerals[i]}")
    return out


# ---------------------------------------------------------------------------
# Increasing the pressure (STM-R-15, R-16)
# ---------------------------------------------------------------------------


def can_move(gauge: Gauge, space: int) -> bool:
    """STM-R-15: a stone can move when a free space lies somewhere to its right."""
    return isinstance(gauge.spaces[space], Stone) and gauge.next_free_right(space) is not None


def _movable_uncached(gauge: Gauge) -> tuple[int, ...]:
    """The spaces of the stones that can make an increment (STM-R-15; STM-R-24: MAKE STEAM needs one)."""
    return tuple(i for i in gauge.stone_spaces() if can_move(gauge, i))


# Memoised by a call rather than a decorator: mutmut skips decorated functions.  Every MAKE STEAM
# decision asks it of the gauge (frozen, its hash cached).
movable = lru_cache(maxsize=16384)(_movable_uncached)


def increment(gauge: Gauge, space: int, extra: GaugeLayout | None = None) -> Gauge:
    """One increment (STM-R-15): the stone on ``space`` moves to the nearest free space to its right.

    Bonus markers never move and are jumped like stones; "equal pressure in
    two boilers" gives nothing extra (STM-AMB-04 'jump').  With ``extra``, the
    layout whose values count (STM-AMB-04 'extra', p.9: "additionally increase
    the pressure as soon as it would become equal in two boilers"), the moved
    stone goes on to the next free space while its value equals another stone's
    on the gauge; at the end of the gauge the extra increment lapses (p.9).
    """
    gauge.stone_at(space, "STM-R-15")
    target = gauge.next_free_right(space)
    if target is None:
        raise GaugeError("STM-R-15", f"the stone on space {space} has no free space to its right")
    gauge = _move(gauge, space, target)
    while extra is not None and shows_equal(gauge, target, extra):
        further = gauge.next_free_right(target)
        if further is None:
            break
        gauge, target = _move(gauge, target, further), further
    return gauge


def shows_equal(gauge: Gauge, space: int, layout: GaugeLayout) -> bool:
    """STM-AMB-04 'extra': the stone on ``space`` shows the pressure value of another stone on the gauge."""
    value = layout.value(space)
    return any(layout.value(i) == value for i in gauge.stone_spaces() if i != space)


def bump(gauge: Gauge, space: int) -> tuple[Gauge, bool]:
    """STM-R-16: "increase its pressure by 1" for one named stone; a blocked stone lapses.

    Returns the gauge and whether the stone moved.
    """
    gauge.stone_at(space, "STM-R-16")
    if not can_move(gauge, space):
        return gauge, False
    return increment(gauge, space), True


def _bumped_uncached(gauge: Gauge, order: tuple[int, ...]) -> Gauge:
    """STM-R-19: the arrow stones on ``order`` increased by 1 in turn (:func:`bump`: a blocked one stays)."""
    for space in order:
        gauge, _ = bump(gauge, space)
    return gauge


# Memoised by a call rather than a decorator (mutmut skips decorated functions): every turn starts by moving
# the arrow stones, and the order the player picks is one the rules listed, from this very chain.
bumped = lru_cache(maxsize=16384)(_bumped_uncached)


@attrs.frozen
class Increase:
    """The result of increasing the pressure by X: ``used`` increments made, ``lapsed`` lost."""

    gauge: Gauge
    used: int
    lapsed: int


def increase(gauge: Gauge, x: int, picks: Sequence[int], extra: GaugeLayout | None = None) -> Increase:
    """STM-R-15 (p.9-10): increase the pressure by ``x``, moving the stone on ``picks[k]`` at increment k.

    Each pick is the *current* space of the chosen stone; the same stone may
    be picked again.  The player may not stop while a stone can move and
    increments remain ("you must increase the pressure by as much as
    possible"), but the order is free even if it gets stuck sooner
    (STM-AMB-32 'free-order'); the increments left when no stone can move
    lapse.  ``extra``: STM-AMB-04 'extra' (:func:`increment`).  Memoised by its arguments (every MAKE STEAM
    plays one of the orders the rules listed for this gauge): :func:`increased`.
    """
    return _increase(gauge, x, tuple(picks), extra)


def increased(gauge: Gauge, x: int, picks: tuple[int, ...], extra: GaugeLayout | None = None) -> Increase:
    """:func:`increase` itself, not memoised."""
    if x < 0:
        raise GaugeError("STM-R-15", f"cannot increase the pressure by {x}")
    if len(picks) > x:
        raise GaugeError("STM-R-15", f"{len(picks)} increments chosen, the pressure rises by {x} only")
    for k, space in enumerate(picks):
        if not can_move(gauge, space):
            raise GaugeError("STM-R-15", f"increment {k + 1}: no stone on space {space} that can move")
        gauge = increment(gauge, space, extra)
    used = len(picks)
    if used < x and movable(gauge):
        raise GaugeError(
            "STM-R-15",
            f"{x - used} increment(s) left and the stones on {list(movable(gauge))} can still move: "
            "pressure may not lapse voluntarily",
        )
    return Increase(gauge, used, x - used)


# Memoised by a call rather than a decorator: mutmut skips decorated functions.
_increase = lru_cache(maxsize=16384)(increased)


def increase_outcomes(gauge: Gauge, x: int, reading: str = "free-order") -> frozenset[Increase]:
    """Every result of increasing by ``x`` over all legal orders (STM-R-15).

    ``reading`` is STM-AMB-32: 'free-order' (default) keeps every order;
    'most' keeps only the orders that use the most increments.
    """
    if reading not in ("free-order", "most"):
        raise ValueError(f"STM-AMB-32 has no reading {reading!r}")
    results = frozenset(Increase(g, x - left, left) for g, left in _ends(gauge, x))
    if reading == "most" and results:
        best = max(r.used for r in results)
        results = frozenset(r for r in results if r.used == best)
    return results


def _ends_uncached(gauge: Gauge, x: int) -> frozenset[tuple[Gauge, int]]:
    """(end gauge, increments left) for every maximal sequence of increments."""
    options = movable(gauge) if x > 0 else ()
    if not options:
        return frozenset({(gauge, x)})
    out: set[tuple[Gauge, int]] = set()
    for space in options:
        out |= _ends(increment(gauge, space), x - 1)
    return frozenset(out)


# Memoised by a call rather than a decorator: mutation testing (mutmut) skips decorated functions.
_ends = cache(_ends_uncached)


def increase_one_stone(gauge: Gauge, space: int, steps: int, limit: int = 5) -> Increase:
    """STM-R-16/R-61: "increase the pressure of one stone by up to 5": 0..limit increments of one stone.

    The stone is chosen once (``space``) and moves ``steps`` times, each to
    the nearest free space; once it is blocked the rest lapses.
    """
    gauge.stone_at(space, "STM-R-16")
    if not 0 <= steps <= limit:
        raise GaugeError("STM-R-16", f"one stone rises by 0 to {limit}, not {steps}")
    used = 0
    while used < steps and can_move(gauge, space):
        target = gauge.next_free_right(space)
        assert target is not None
        gauge, space, used = _move(gauge, space, target), target, used + 1
    return Increase(gauge, used, steps - used)


# ---------------------------------------------------------------------------
# Arrow stones at the start of the turn (STM-R-19)
# ---------------------------------------------------------------------------


def arrow_moves(gauge: Gauge, order: Sequence[int]) -> Gauge:
    """STM-R-19 (p.31): each arrow stone on the gauge increases by 1, in the player's ``order``.

    ``order`` lists the starting spaces of *all* arrow stones on the gauge,
    each once (STM-AMB-07 'each': compulsory, one increment per stone, a
    blocked one does not move).  A stone only moves itself, so its space is
    still its starting space when its turn in the order comes.
    """
    arrows = gauge.arrow_spaces()
    if sorted(order) != list(arrows):
        raise GaugeError("STM-R-19", f"the order {list(order)} must list each arrow stone {list(arrows)} once")
    for space in order:
        gauge, _ = bump(gauge, space)
    return gauge


def arrow_outcomes(gauge: Gauge) -> frozenset[Gauge]:
    """The gauges every order of the start-of-turn arrow moves can give (STM-R-19)."""
    return frozenset(arrow_moves(gauge, order) for order in permutations(gauge.arrow_spaces()))


# ---------------------------------------------------------------------------
# Taking back and gaining stones (STM-R-18, R-20, R-34)
# ---------------------------------------------------------------------------


@attrs.frozen
class TakeBack:
    """Where a stone placed "as if taken back" went: ``space`` None = to the personal supply."""

    gauge: Gauge
    space: int | None
    discarded: BonusMarker | None = None


def take_back(gauge: Gauge, stone: Stone, discard: int | None = None) -> TakeBack:
    """STM-R-18 (p.15), memoised by the gauge, stone and discard (:func:`placed_back`): every flight
    takes its stones back (STM-R-34)."""
    return _take_back(gauge, stone, discard)


def placed_back(gauge: Gauge, stone: Stone, discard: int | None = None) -> TakeBack:
    """STM-R-18 (p.15): place ``stone`` on the first free space right of the base marker.

    Stones and bonus markers are skipped.  Only when no space is free, the
    player returns the bonus marker on ``discard`` to the box and uses the
    freed space; with no bonus marker on the gauge the stone goes to the
    personal supply.  The stone keeps its face (STM-R-34).  Discarding a
    marker while a space is free is STM-R-48's "at any time"
    (:func:`discard_marker` first).
    """
    target = gauge.first_free()
    if target is not None:
        if discard is not None:
            raise GaugeError("STM-R-18", f"space {target} is free: no bonus marker is returned to make room")
        return TakeBack(_put(gauge, target, stone), target)
    markers = gauge.marker_spaces()
    if not markers:
        return TakeBack(gauge, None)
    if discard not in markers:
        raise GaugeError("STM-R-18", f"no free space: choose a bonus marker to return to the box from {list(markers)}")
    assert discard is not None
    marker = gauge.spaces[discard]
    assert isinstance(marker, BonusMarker)
    # With every space right of the base filled, the freed space is the only free one.
    return TakeBack(_put(gauge, discard, stone), discard, marker)


# Memoised by a call rather than a decorator: mutmut skips decorated functions.
_take_back = lru_cache(maxsize=16384)(placed_back)


def gain_stone(gauge: Gauge, stone: Stone, discard: int | None = None) -> TakeBack:
    """STM-R-20 (p.29): a stone from the personal supply is placed as if taken back (STM-R-18)."""
    return take_back(gauge, stone, discard)


def lift(gauge: Gauge, space: int, rule: str = "STM-R-26") -> tuple[Gauge, Stone]:
    """Take the stone on ``space`` off the gauge (to a district, into the machine room, to the supply)."""
    stone = gauge.stone_at(space, rule)
    return _put(gauge, space, None), stone


def turn_stone(gauge: Gauge, space: int, arrow: bool) -> Gauge:
    """Turn the stone on ``space`` arrow side up or down (STM-R-19 'turn N stones', static discharge)."""
    gauge.stone_at(space, "STM-R-19")
    return _put(gauge, space, Stone(arrow))


def stone_to_eight(
    gauge: Gauge, space: int, layout: GaugeLayout = STANDARD_LAYOUT, *, bump: bool = False
) -> tuple[Gauge, bool]:
    """STM-R-61 (p.31): the stone just taken back goes to the space with pressure value 8.

    An occupied value-8 space makes the effect lapse (STM-AMB-22 'lapse'); with ``bump``
    (STM-AMB-22 'bump') the occupant is bumped, and since it cannot move right of the last
    space it leaves the gauge (the caller reads it first: a stone goes to the personal supply).
    Returns the gauge and whether the stone moved.
    """
    gauge.stone_at(space, "STM-R-61")
    eight = layout.space_of_value(8)
    if eight is None or eight == space or (gauge.spaces[eight] is not None and not bump):
        return gauge, False
    return _move(_put(gauge, eight, None), space, eight), True


# ---------------------------------------------------------------------------
# The base pressure marker (STM-R-17)
# ---------------------------------------------------------------------------


@attrs.frozen
class BaseAdvance:
    """What the base marker effect did: ``to_supply`` a stone, ``to_box`` a bonus marker, or ``lapsed``."""

    gauge: Gauge
    lapsed: bool = False
    bumped: bool = False
    to_supply: Stone | None = None
    to_box: BonusMarker | None = None


def advance_base_marker(gauge: Gauge, layout: GaugeLayout = STANDARD_LAYOUT, *, bump_stone: bool = True) -> BaseAdvance:
    """STM-R-17 (p.30-31): move the base pressure marker one space right.

    It never goes further than the space with pressure value 4: there the
    effect lapses.  A stone on the target space may be increased by 1
    (``bump_stone``; STM-AMB-05 'optional'); if it is not, or cannot move, it
    goes to the personal supply.  A bonus marker there leaves the game.
    """
    if gauge.base >= layout.base_limit:
        return BaseAdvance(gauge, lapsed=True)
    target = gauge.base + 1
    item = gauge.spaces[target]
    if isinstance(item, BonusMarker):
        return BaseAdvance(Gauge(target, _cleared(gauge, target)), to_box=item)
    if isinstance(item, Stone):
        if bump_stone and can_move(gauge, target):
            moved = increment(gauge, target)
            return BaseAdvance(Gauge(target, moved.spaces), bumped=True)
        return BaseAdvance(Gauge(target, _cleared(gauge, target)), to_supply=item)
    return BaseAdvance(Gauge(target, gauge.spaces))


def _cleared(gauge: Gauge, space: int) -> tuple[Item | None, ...]:
    return _put(gauge, space, None).spaces


# ---------------------------------------------------------------------------
# Bonus markers on the gauge (STM-R-47, R-48)
# ---------------------------------------------------------------------------


def marker_spaces_for(gauge: Gauge, numeral: int, layout: GaugeLayout = STANDARD_LAYOUT) -> tuple[int, ...]:
    """The spaces a bonus marker #numeral may go on: its printed numeral, right of the base marker."""
    return tuple(i for i in layout.numeral_spaces(numeral) if i > gauge.base)


@attrs.frozen
class MarkerPlacement:
    """The result of placing a bought bonus marker: ``boxed`` lists the markers that went to the box."""

    gauge: Gauge
    placed: bool
    boxed: tuple[BonusMarker, ...] = ()


def place_bonus_marker(
    gauge: Gauge,
    marker: BonusMarker,
    space: int | None,
    layout: GaugeLayout = STANDARD_LAYOUT,
    *,
    bump_stone: bool = True,
) -> MarkerPlacement:
    """STM-R-47 (p.22): put a bought bonus marker on a space printed with its numeral.

    A stone there may be increased by 1 to make room; if it is not, or cannot
    move, the new marker goes to the box.  An old marker there goes to the
    box.  ``space`` None: no usable space exists, the marker goes to the box
    (STM-AMB-15 'box').
    """
    usable = marker_spaces_for(gauge, marker.numeral, layout)
    if space is None:
        if usable:
            raise GaugeError("STM-R-47", f"bonus marker #{marker.numeral} has a space: choose one of {list(usable)}")
        return MarkerPlacement(gauge, False, (marker,))
    if space not in usable:
        raise GaugeError(
            "STM-R-47", f"space {space} is not a #{marker.numeral} space right of the base marker {list(usable)}"
        )
    item = gauge.spaces[space]
    if isinstance(item, Stone):
        if not (bump_stone and can_move(gauge, space)):
            return MarkerPlacement(gauge, False, (marker,))
        return MarkerPlacement(_put(increment(gauge, space), space, marker), True)
    if isinstance(item, BonusMarker):
        return MarkerPlacement(_put(gauge, space, marker), True, (item,))
    return MarkerPlacement(_put(gauge, space, marker), True)


def discard_marker(gauge: Gauge, space: int) -> tuple[Gauge, BonusMarker]:
    """STM-R-48 (p.23): a bonus marker on the gauge may be returned to the box at any time."""
    item = gauge.spaces[space] if 0 <= space < len(gauge.spaces) else None
    if not isinstance(item, BonusMarker):
        raise GaugeError("STM-R-48", f"no bonus marker on space {space}")
    return _put(gauge, space, None), item


def values(gauge: Gauge, layout: GaugeLayout = STANDARD_LAYOUT) -> tuple[str, ...]:
    """The solo example's VALUES line: each stone's value, 'A' for an arrow, left to right (p.36 ff.)."""
    out = []
    for i in gauge.stone_spaces():
        stone = gauge.spaces[i]
        assert isinstance(stone, Stone)
        out.append(f"{layout.value(i)}{'A' if stone.arrow else ''}")
    return tuple(out)


def gauge_of(stones: Iterable[tuple[int, bool]], markers: Iterable[tuple[int, int]] = (), base: int = 0) -> Gauge:
    """A gauge from (space, arrow) stones and (space, numeral) markers: for tests and scenarios."""
    spaces: list[Item | None] = [None] * len(STANDARD_LAYOUT.values)
    for space, arrow in stones:
        spaces[space] = Stone(arrow)
    for space, numeral in markers:
        spaces[space] = BonusMarker(numeral)
    return Gauge(base, tuple(spaces))
