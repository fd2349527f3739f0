"""Kings of Air and Steam hex geometry: the axial grid behind KAS-R-26 / KAS-AMB-01."""

from __future__ import annotations

from collections import Counter

import pytest

from rulecraft.model.kings_of_air_and_steam.hexgrid import (
    BACKWARD,
    DIRECTION_NAMES,
    DIRECTIONS,
    SHARP,
    STRAIGHT,
    WIDE,
    Hex,
    path_hexes,
    turn_kind,
)

ORIGIN = Hex(0, 0)


def test_directions_are_numbered_counter_clockwise_from_east() -> None:
    assert DIRECTION_NAMES == ("E", "NE", "NW", "W", "SW", "SE")
    assert [ORIGIN.step(d) for d in range(6)] == [Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)]
    # Opposite directions cancel (what makes change 3 "backwards").
    for d in range(6):
        assert ORIGIN.step(d).step(d + 3) == ORIGIN


def test_step_wraps_direction_numbers() -> None:
    assert ORIGIN.step(6) == ORIGIN.step(0)
    assert ORIGIN.step(-1) == ORIGIN.step(5)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (Hex(0, 0), Hex(0, 0), 0),
        (Hex(0, 0), Hex(1, 0), 1),
        (Hex(0, 0), Hex(1, -1), 1),
        (Hex(0, 0), Hex(2, 0), 2),
        (Hex(0, 0), Hex(1, 1), 2),  # E then SE: a 60° bend still reaches distance 2
        (Hex(0, 0), Hex(0, 3), 3),
        (Hex(0, 0), Hex(2, -4), 4),
        (Hex(-2, 1), Hex(3, -1), 5),
    ],
)
def test_distance(a: Hex, b: Hex, expected: int) -> None:
    assert a.distance(b) == expected
    assert b.distance(a) == expected


def test_ring_sizes() -> None:
    # 6·k hexes at distance k: KAS-EX-07's "12 hexes at distance 2".
    area = [Hex(q, r) for q in range(-4, 5) for r in range(-4, 5)]
    counts = Counter(ORIGIN.distance(h) for h in area if ORIGIN.distance(h) <= 4)
    assert [counts[k] for k in range(5)] == [1, 6, 12, 18, 24]


def test_neighbours_are_the_six_adjacent_hexes() -> None:
    at = Hex(2, -1)
    nbrs = at.neighbours()
    assert len(set(nbrs)) == 6
    assert all(at.distance(n) == 1 for n in nbrs)
    assert nbrs == tuple(at.step(d) for d in range(6))


def test_direction_to() -> None:
    at = Hex(-1, 2)
    for d in range(6):
        assert at.direction_to(at.step(d)) == d
    assert at.direction_to(at) is None
    assert at.direction_to(Hex(1, 2)) is None


def test_turn_kind_for_all_36_pairs() -> None:
    counts = Counter(turn_kind(p, f) for p in range(6) for f in range(6))
    assert counts == {STRAIGHT: 6, WIDE: 12, SHARP: 12, BACKWARD: 6}
    for p in range(6):
        assert turn_kind(p, p) == STRAIGHT
        assert turn_kind(p, (p + 1) % 6) == WIDE
        assert turn_kind(p, (p + 5) % 6) == WIDE
        assert turn_kind(p, (p + 2) % 6) == SHARP
        assert turn_kind(p, (p + 4) % 6) == SHARP
        assert turn_kind(p, (p + 3) % 6) == BACKWARD


def test_turn_kind_matches_the_angle_between_step_vectors() -> None:
    # Independent check: the angle between the two steps' vectors (dot product on the axial grid).
    def dot(a: tuple[int, int], b: tuple[int, int]) -> float:
        # Axial -> cartesian (pointy-top): x = q + r/2, y = r·√3/2; |step| = 1.
        ax, ay = a[0] + a[1] / 2, a[1] * 3**0.5 / 2
        bx, by = b[0] + b[1] / 2, b[1] * 3**0.5 / 2
        return ax * bx + ay * by

    kinds = {1.0: STRAIGHT, 0.5: WIDE, -0.5: SHARP, -1.0: BACKWARD}
    for p in range(6):
        for f in range(6):
            assert turn_kind(p, f) == kinds[round(dot(DIRECTIONS[p], DIRECTIONS[f]), 6)]


def test_path_hexes() -> None:
    assert path_hexes(ORIGIN, ()) == ()
    assert path_hexes(ORIGIN, (0, 0, 0)) == (Hex(1, 0), Hex(2, 0), Hex(3, 0))
    assert path_hexes(ORIGIN, (5, 5)) == (Hex(0, 1), Hex(0, 2))  # KAS-EX-16's [SE, SE]
    assert path_hexes(Hex(1, 1), (0, 1, 1)) == (Hex(2, 1), Hex(3, 0), Hex(4, -1))
    # The start hex is excluded, a return to it is included.
    assert path_hexes(ORIGIN, (0, 3)) == (Hex(1, 0), ORIGIN)


@pytest.mark.parametrize("a", [Hex(0, 0), Hex(-1, 2), Hex(1, -1), Hex(0, 1)])
@pytest.mark.parametrize("b", [Hex(0, 0), Hex(-1, 2), Hex(1, -1), Hex(0, 1), Hex(-1, 3)])
def test_hexes_are_ordered_by_q_then_r(a: Hex, b: Hex) -> None:
    """Board listings and move generation sort hexes: the order is (q, r), as the tuples sort."""
    ta, tb = (a.q, a.r), (b.q, b.r)
    assert (a < b, a <= b, a > b, a >= b) == (ta < tb, ta <= tb, ta > tb, ta >= tb)


def test_a_hex_is_not_ordered_against_other_things() -> None:
    with pytest.raises(TypeError):
        assert Hex(0, 0) < (0, 1)  # type: ignore[operator]
