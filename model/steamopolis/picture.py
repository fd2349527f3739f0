"""An SVG picture of a Steamopolis state, for HTML reports.

The same content as :func:`rulecraft.model.steamopolis.render.text`, drawn: the city as eight
levels (level 8 on top) with their districts, the stones on them, each market's face-up tile
and the passengers; then one panel per player with the pressure gauge (values 1 1 2 2 3 4 5 6
7 8, the base pressure marker, stones with their arrows, bonus markers) and the machine room.
Every shape carries its text as a hover tooltip, so nothing the text picture says is lost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecraft.core import listed
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Stone
from rulecraft.model.steamopolis.render import seat_name
from rulecraft.model.steamopolis.rules import decider
from rulecraft.model.steamopolis.state import SHADOW, Phase, StmState
from rulecraft.svg import PALETTE, Drawing, fit, ink_on

if TYPE_CHECKING:
    from rulecraft.model.steamopolis.game import SteamopolisGame

WIDTH = 900
MARGIN = 12
GAP = 8
HEADER = 52
LEVEL_H = 34
LEVEL_LABEL = 36
DISTRICT_W = 96
MARKET_W = 330
SPACE = 34  # a gauge space's side
ROOM_W = 62
PANEL_H = 104
# The colours the text names the seats by (render.COLOURS: Red, Yellow, Blue, Black).
STONE_COLOURS = ("#d62728", "#e6b800", "#1f77b4", "#333333")
SHADOW_COLOUR = "#9e9e9e"


def seat_colour(seat: int) -> str:
    return SHADOW_COLOUR if seat == SHADOW else STONE_COLOURS[seat % len(STONE_COLOURS)]


def svg(game: SteamopolisGame, state: StmState) -> str:
    """The state as a standalone ``<svg>`` element (deterministic)."""
    d = Drawing(WIDTH, 0, title=_headline(state))
    y = _header(d, game, state)
    y = _city(d, game, state, y)
    for seat in range(len(state.players)):
        y = _player(d, game, state, seat, y)
    d.height = y + MARGIN
    return d.to_string()


def _headline(state: StmState) -> str:
    if state.phase is Phase.OVER:
        return f"Steamopolis — game over after round {state.round}"
    return f"Steamopolis — round {state.round}"


def _header(d: Drawing, game: SteamopolisGame, state: StmState) -> float:
    d.rect(0, 0, WIDTH, HEADER, fill=PALETTE["header"])
    d.text(MARGIN, 24, _headline(state), size=17, fill=PALETTE["paper"], bold=True)
    if state.phase is Phase.OVER and state.solo is not None:
        rank = game.solo_rank(state)
        line = "lost on time pressure (STM-R-69)" if rank == "lost" else f"solo rank: {rank} (STM-R-73)"
    elif state.phase is Phase.OVER:
        line = "winner: " + ", ".join(seat_name(s) for s in game.winners(state))
    else:
        line = f"{seat_name(decider(state))} decides · phase {state.phase.value}"
        if state.turn.final_step:
            line += f" · final turn: {state.turn.final_step}"
        elif state.end_triggered:
            line += " · the end is triggered"
    pax = state.passengers
    line += f" · passenger tile {pax.face_up or '—'} ({len(pax.stack)} face down) · tower top {state.tower_top}"
    d.text(MARGIN, 42, fit(line, WIDTH - 2 * MARGIN, 12), size=12, fill=PALETTE["paper"])
    return HEADER + GAP


def _city(d: Drawing, game: SteamopolisGame, state: StmState, y: float) -> float:
    d.text(MARGIN, y + 15, "City", size=13, bold=True)
    y += 22
    districts = game.ctx.districts(state)
    pax = state.passengers
    for row, level in enumerate(range(8, 0, -1)):
        top = y + row * LEVEL_H
        d.rect(MARGIN, top, WIDTH - 2 * MARGIN, LEVEL_H - 4, fill=PALETTE["panel"], rx=4)
        d.text(MARGIN + 8, top + 20, f"L{level}", size=13, bold=True)
        x = MARGIN + LEVEL_LABEL
        for district in (dd for dd in districts if dd.level == level):
            here = [s for s in state.board if s.level == level and s.position == district.position]
            with d.group(class_="district", title=f"L{level} {district.position}: {district.effect!r}"):
                d.rect(x, top + 3, DISTRICT_W - 6, LEVEL_H - 10, fill=PALETTE["paper"], stroke="#999999", rx=3)
                d.text(x + 4, top + 18, district.position, size=10, fill="#666666")
                for i, stone in enumerate(here):
                    colour = seat_colour(stone.seat)
                    who = "shadow stone" if stone.seat == SHADOW else seat_name(stone.seat)
                    with d.group(class_="board-stone", title=f"{who}{' (arrow side up)' if stone.stone.arrow else ''}"):
                        d.circle(x + 52 + i * 18, top + 15, 7, fill=colour, stroke="#222222")
                        if stone.stone.arrow:
                            d.text(x + 52 + i * 18, top + 19, "^", size=10, fill=ink_on(colour), anchor="middle")
            x += DISTRICT_W
        market_x = WIDTH - MARGIN - MARKET_W - 60
        d.text(market_x, top + 20, fit(_market(state, level), MARKET_W, 11), size=11, class_="market")
        standing = [n for n, at in (("banker", pax.banker), ("stoker", pax.stoker)) if at == level]
        if standing:
            d.text(
                WIDTH - MARGIN - 8, top + 20, " ".join(standing), size=11, anchor="end", bold=True, class_="passenger"
            )
    return y + 8 * LEVEL_H + GAP


def _market(state: StmState, level: int) -> str:
    if level == 1:
        b = state.bonus
        return f"bonus: crystal {listed(b.crystal_row)} gear {listed(b.gear_row)}"
    parts = []
    for m in state.markets:
        if m.level == level:
            top = m.tiles[0] if m.tiles else "empty"
            parts.append(
                f"{'extra ' if m.extra else ''}{top} (+{max(len(m.tiles) - 1, 0)}){' statue' if m.statue else ''}"
            )
    return "  ".join(parts)


def _player(d: Drawing, game: SteamopolisGame, state: StmState, seat: int, y: float) -> float:
    p = state.players[seat]
    colour = seat_colour(seat)
    deciding = seat == decider(state) and state.phase is not Phase.OVER
    classes = "player to-play" if deciding else "player"
    with d.group(class_=classes, title=seat_name(seat)):
        d.rect(
            MARGIN,
            y,
            WIDTH - 2 * MARGIN,
            PANEL_H,
            fill=PALETTE["panel"],
            stroke=colour,
            stroke_width=3 if deciding else 1,
            rx=6,
        )
        label = (
            f"{seat_name(seat)} · character {p.character or '?'} · {p.vp} VP · crystals {p.crystals} gears {p.gears}"
            f" (storage {game.ctx.storage(p)}) · supply stones {len(p.supply)} · parasites home {p.parasites_home}"
        )
        d.text(MARGIN + 8, y + 18, fit(label, WIDTH - 2 * MARGIN - 16, 12), size=12, bold=True, class_="seat-label")
        _gauge(d, game, p.gauge, MARGIN + 8, y + 28, colour)
        _room(d, game, state, seat, MARGIN + 8, y + 28 + SPACE + 18)
    return y + PANEL_H + GAP


def _gauge(d: Drawing, game: SteamopolisGame, gauge: Gauge, x: float, y: float, colour: str) -> None:
    layout = game.pack.gauge
    for space, item in enumerate(gauge.spaces):
        left = x + space * SPACE
        value = "base" if space == 0 else str(layout.value(space))
        fill = "#d9d2c3" if space <= gauge.base else PALETTE["paper"]
        with d.group(class_="gauge-space", title=f"space {space} (value {value}): {item!r}"):
            d.rect(left, y, SPACE - 3, SPACE - 3, fill=fill, stroke="#999999", rx=3)
            d.text(left + 3, y + 10, value if space else "B", size=8, fill="#666666")
            if isinstance(item, Stone):
                d.circle(
                    left + SPACE / 2 - 1, y + SPACE / 2 + 2, 9, fill=colour, stroke="#222222", class_="gauge-stone"
                )
                if item.arrow:
                    d.text(left + SPACE / 2 - 1, y + SPACE / 2 + 6, "^", size=11, fill=ink_on(colour), anchor="middle")
            elif isinstance(item, BonusMarker):
                tone = "#e377c2" if item.pink else PALETTE["highlight"]
                d.rect(left + 6, y + 10, SPACE - 15, SPACE - 16, fill=tone, rx=2, class_="bonus-marker")
                d.text(left + SPACE / 2 - 1, y + 24, f"#{item.numeral}", size=10, anchor="middle")
        if space == gauge.base:
            d.line(
                left + SPACE - 4,
                y - 3,
                left + SPACE - 4,
                y + SPACE,
                stroke="#b22222",
                stroke_width=3,
                class_="base-marker",
            )


def _room(d: Drawing, game: SteamopolisGame, state: StmState, seat: int, x: float, y: float) -> None:
    p = state.players[seat]
    d.text(x, y + 4, "machine room", size=10, fill="#666666")
    for position, tile in enumerate(p.machine_room, start=1):
        left = x + 80 + (position - 1) * ROOM_W
        parasites = [q for q in state.parasites if q.host == seat and q.position == position]
        title = f"position {position}: {tile!r}" + (
            f"; parasites of {[q.owner for q in parasites]}" if parasites else ""
        )
        with d.group(class_="room-tile" if tile else "room-empty", title=title):
            fill = PALETTE["paper"] if tile is None else "#e8e2d0"
            d.rect(left, y - 8, ROOM_W - 6, 22, fill=fill, stroke="#999999", rx=3, dashed=tile is None)
            name = "—" if tile is None else (tile.id if tile.kind == "machine" else f"{tile.id[:3]}/{tile.side}")
            d.text(left + 4, y + 7, fit(name, ROOM_W - 10, 10), size=10)
            for i, q in enumerate(parasites):
                d.circle(left + ROOM_W - 12 - i * 9, y - 8, 4, fill=seat_colour(q.owner), class_="parasite")
    d.text(x + 80 + 7 * ROOM_W + 6, y + 7, f"banners {len(p.banners)} · passenger tiles {p.passenger_tiles}", size=10)
