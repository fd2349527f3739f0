"""Hex geometry for Kings of Air and Steam: axial coordinates and turns.

Axial ``(q, r)`` with the six directions numbered counter-clockwise from
east (the digest's convention): E=0 (+1,0), NE=1 (+1,-1), NW=2 (0,-1),
W=3 (-1,0), SW=4 (-1,+1), SE=5 (0,+1).  A turn between two consecutive
steps is ``(next - previous) mod 6``: 0 straight, 1 or 5 a wide (60°) turn,
2 or 4 a sharp (120°) turn, 3 backwards (KAS-R-26, KAS-AMB-01).
"""

from __future__ import annotations

import attrs

DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

STRAIGHT, WIDE, SHARP, BACKWARD = "straight", "wide", "sharp", "backward"


@attrs.frozen(order=False, cache_hash=True)
class Hex:
    q: int
    r: int

    # Ordered by (q, r) as attrs' order=True would, written out: attrs compares through a generic
    # tuple builder, and sorting hexes was a tenth of move generation.
    def __lt__(self, other: object) -> bool:
        if other.__class__ is not Hex:
            return NotImplemented
        return (self.q, self.r) < (other.q, other.r)

    def __le__(self, other: object) -> bool:
        if other.__class__ is not Hex:
            return NotImplemented
        return (self.q, self.r) <= (other.q, other.r)

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not Hex:
            return NotImplemented
        return (self.q, self.r) > (other.q, other.r)

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not Hex:
            return NotImplemented
        return (self.q, self.r) >= (other.q, other.r)

    def step(self, direction: int) -> Hex:
        found = _NEIGHBOURS.get((self.q, self.r))
        return (found or self.neighbours())[direction % 6]

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes in direction order, made once per position (flights and course
        corrections step between the same few dozen hexes all game long), each the position's one
        shared object (:func:`hex_at`)."""
        found = _NEIGHBOURS.get((self.q, self.r))
        if found is None:
            found = tuple(hex_at(self.q + dq, self.r + dr) for dq, dr in DIRECTIONS)
            _NEIGHBOURS[self.q, self.r] = found
        return found

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def direction_to(self, other: Hex) -> int | None:
        """The direction of an adjacent hex, or None if not adjacent."""
        for d, (dq, dr) in enumerate(DIRECTIONS):
            if Hex(self.q + dq, self.r + dr) == other:
                return d
        return None

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


# (q, r) -> the hex's six neighbours (Hex.neighbours): a few hundred entries, one per position flown
# from or next to; hexes are immutable values, so sharing them is safe.
_NEIGHBOURS: dict[tuple[int, int], tuple[Hex, ...]] = {}
_SHARED: dict[tuple[int, int], Hex] = {}


def hex_at(q: int, r: int) -> Hex:
    """``Hex(q, r)``, the same object for every call with the same integer position: the pack's
    maps and the neighbour tables share their hexes, so a dict of hexes finds a key by identity
    without calling ``Hex.__eq__`` (equal hexes stay equal and hash alike either way)."""
    if q.__class__ is not int or r.__class__ is not int:  # a pack's wrong value is kept as it came
        return Hex(q, r)
    found = _SHARED.get((q, r))
    if found is None:
        found = _SHARED[q, r] = Hex(q, r)
    return found


def turn_kind(previous: int, following: int) -> str:
    """KAS-AMB-01 (a): how sharply a flight bends between two steps."""
    change = (following - previous) % 6
    if change == 0:
        return STRAIGHT
    if change in (1, 5):
        return WIDE
    if change in (2, 4):
        return SHARP
    return BACKWARD


def path_hexes(start: Hex, directions: tuple[int, ...]) -> tuple[Hex, ...]:
    """The hexes entered by a flight, in order (the start hex excluded)."""
    out = []
    at = start
    for d in directions:
        at = at.step(d)
        out.append(at)
    return tuple(out)
