"""Seeded random inputs for the solver/oracle comparisons (``oracle_check`` and the tests).

The states are small and plausible rather than reachable: a gauge for the seat to move, other
players' and own stones on random districts, a random machine room from the pack, a few resources.
Stone counts respect the 5 stones per player (STM-R-08) and resources the 15 + 15 (STM-R-21).
"""

from __future__ import annotations

import random

import attrs

from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.gauge import STANDARD_LAYOUT, Gauge, Stone, gauge_of
from rulecraft.model.steamopolis.state import BoardStone, Phase, RoomTile, StmState, Supply, new_player


def random_gauge(rng: random.Random, stones: tuple[int, int] = (0, 5), markers: bool = True) -> Gauge:
    """Stones on random spaces right of a random base marker, some with arrows, maybe bonus markers."""
    layout = STANDARD_LAYOUT
    base = rng.choice([0, 0, 0, 1, 2])
    spaces = list(range(base + 1, layout.last + 1))
    n = rng.randint(stones[0], min(stones[1], len(spaces)))
    chosen = rng.sample(spaces, n)
    placed = [(s, rng.random() < 0.3) for s in chosen]
    marks: list[tuple[int, int]] = []
    if markers:
        for s in spaces:
            numeral = layout.numerals[s]
            if numeral is not None and s not in chosen and rng.random() < 0.2:
                marks.append((s, numeral))
    return gauge_of(placed, marks, base)


def random_room(ctx: Context, rng: random.Random) -> tuple[RoomTile | None, ...]:
    """Up to 7 tiles from the pack: bought machines, a starting machine, capacity tiles (either side)."""
    room: list[RoomTile | None] = [None] * ctx.pack.machine_room.positions
    for position in range(len(room)):
        roll = rng.random()
        if roll < 0.45:
            room[position] = RoomTile("machine", rng.choice(ctx.pack.machines).id)
        elif roll < 0.55:
            room[position] = RoomTile("starting", rng.choice(ctx.pack.starting_machines).id, rng.randint(0, 1))
        elif roll < 0.65:
            room[position] = RoomTile("capacity", "capacity", rng.randint(0, 1))
    return tuple(room)


def random_state(ctx: Context, rng: random.Random, stones: tuple[int, int] = (0, 5)) -> StmState:
    """Two players, seat 0 choosing its action (phase action)."""
    gauge = random_gauge(rng, stones)
    districts = list(ctx.pack.side("2-3"))
    rng.shuffle(districts)
    own = rng.randint(0, 5 - gauge.stones())
    others = rng.randint(0, 2)  # the other seat keeps the setup gauge (3 stones) and 2 in its supply
    board = tuple(BoardStone(0, d.level, d.position) for d in districts[:own]) + tuple(
        BoardStone(1, d.level, d.position) for d in districts[own : own + others]
    )
    crystals, gears = rng.randint(0, 4), rng.randint(0, 4)
    me = attrs.evolve(
        new_player(1),
        gauge=gauge,
        supply=(Stone(),) * (5 - gauge.stones() - own),
        machine_room=random_room(ctx, rng),
        crystals=crystals,
        gears=gears,
    )
    other = attrs.evolve(new_player(3), supply=new_player(3).supply[: 2 - others])
    supply = Supply(crystals=15 - crystals, gears=15 - gears)
    return StmState(players=(me, other), phase=Phase.ACTION, board=board, supply=supply)
