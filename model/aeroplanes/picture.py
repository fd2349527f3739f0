"""An SVG picture of an Aeroplanes state, for HTML reports.

The same content as :func:`rulecraft.model.aeroplanes.render.text`, drawn.  The pack has no map
coordinates, so the layout is deterministic and generic: one column per region in pack order, its
destinations stacked in pack order.  Each destination is a box with its slots as small squares
(coloured by the owner's seat, ``⌂`` a home tile, ``1``-``3`` the stage, dark a 3-player blocker,
open an empty slot); start cities have a thick frame and a ``★``.  Connections are lines under the
boxes in their printed colour (white as light grey), a ‡ route dashed, a long-range connection
thick with an ``LR`` mark, a one-way connection with an arrow head; a connection inside a column
runs through the column's left gutter.  A special connection (reached one way from every
destination of a region, AER-R-15) starts at a bracket beside that region's column.  The
placement attempt in progress is outlined (origin -> via -> destination).  Below the map: the
subsidy pool and black marker, the advantage supply, the display, the waiting area with the
overflow, then one panel per player.  Every shape carries its text as a hover tooltip.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rulecraft.core import CHANCE, listed
from rulecraft.model.aeroplanes.components import Colour, Connection, Pack, SpecialConnection
from rulecraft.model.aeroplanes.render import ADVANTAGE_NAMES, SEATS, _die, seat_name
from rulecraft.model.aeroplanes.state import AerState, Airport, OwnedCard, Phase, capacity, load
from rulecraft.svg import PALETTE, Drawing, Point, fit, ink_on, seat_colour, text_width

if TYPE_CHECKING:
    from rulecraft.model.aeroplanes.game import AeroplanesGame

MARGIN = 12
GAP = 8
HEADER = 56
MIN_WIDTH = 960
COLUMN_GAP = 46  # between region columns: room for the cross-column lines and special brackets
LANE = 5  # the spacing of connection lanes in a column's left gutter
ROW_H = 50
BOX_H = 40
SLOT = 16
SLOT_STEP = 20
MIN_BOX_W = 132
CARD_W = 112
CARD_H = 62
PAX_W = 34
PAX_H = 18
REGION_FILLS = {
    "pale yellow": "#fbf3c8",
    "pale green": "#dff0d5",
    "pale blue": "#d9e8f6",
    "yellow": "#f7e27a",
    "green": "#b9dfa5",
    "blue": "#a9cbe8",
    "red": "#f1b0a8",
    "orange": "#f6c892",
    "purple": "#d6c3e6",
    "grey": "#dddddd",
}
LINE_COLOURS: dict[Colour | None, str] = {
    "white": "#c4c4c4",  # a white connection, drawn light grey on white paper
    "red": "#d62728",
    "black": "#222222",
    None: "#7d5ba6",  # a ‡ route (rolls printed instead of a colour), also dashed
}
BLOCKED = "#444444"


def svg(game: AeroplanesGame, state: AerState) -> str:
    """The state as a standalone ``<svg>`` element (deterministic)."""
    layout = _Layout(game.pack)
    width = max(MIN_WIDTH, layout.width + 2 * MARGIN)
    d = Drawing(width, 0, title=_headline(game, state))
    y = _header(d, game, state, width)
    y = _map(d, game, state, layout, y)
    y = _attempt_line(d, state, width, y)
    y = _supplies(d, game, state, width, y)
    y = _waiting(d, game, state, width, y)
    for seat in range(len(state.players)):
        y = _player(d, game, state, seat, width, y)
    d.height = y + MARGIN
    return d.to_string()


# ---------------------------------------------------------------------------
# Header
# ---------------------------------------------------------------------------


def _headline(game: AeroplanesGame, state: AerState) -> str:
    if state.phase is Phase.OVER:
        return f"{game.title} — game over after era {state.era}, round {state.round}"
    return f"{game.title} — era {state.era}, round {state.round}"


def _header(d: Drawing, game: AeroplanesGame, state: AerState, width: float) -> float:
    d.rect(0, 0, width, HEADER, fill=PALETTE["header"])
    d.text(MARGIN, 24, _headline(game, state), size=17, fill=PALETTE["paper"], bold=True)
    if state.phase is Phase.OVER:
        scores = game.scores(state)
        totals = ", ".join(f"{seat_name(s)} {v}" for s, v in sorted(scores.items()))
        winners = ", ".join(seat_name(s) for s in game.winners(state))
        line = f"final totals: {totals} · winner: {winners}"
    else:
        line = f"{seat_name(state.to_move)} to move · phase {state.phase.value}"
        if game.to_move(state) == CHANCE:
            line += " (a chance step)"
        line += f" · first player {seat_name(state.first_player)}"
    d.text(MARGIN, 44, fit(line, width - 2 * MARGIN, 12), size=12, fill=PALETTE["paper"], class_="status", title=line)
    return HEADER + GAP


# ---------------------------------------------------------------------------
# The map
# ---------------------------------------------------------------------------


class _Layout:
    """Where every destination box sits: a column per region (pack order), rows in pack order."""

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        most_slots = max((dest.slots for dest in pack.destinations), default=1)
        longest = max((len(dest.name) for dest in pack.destinations), default=4)
        self.box_w = max(MIN_BOX_W, 10 + most_slots * SLOT_STEP, int(text_width(" " * longest, 11)) + 24)
        self.column: dict[str, int] = {}
        self.row: dict[str, int] = {}
        columns: list[list[str]] = [[] for _ in pack.regions]
        region_index = {r.id: i for i, r in enumerate(pack.regions)}
        for dest in pack.destinations:
            col = region_index.get(dest.region, 0)
            self.column[dest.name] = col
            self.row[dest.name] = len(columns[col])
            columns[col].append(dest.name)
        self.columns = columns
        self.rows = max((len(c) for c in columns), default=0)
        # Lanes for the connections inside one column, shortest spans innermost (greedy, deterministic).
        self.lane: dict[int, int] = {}
        lanes_per_column = [0] * len(columns)
        spans: list[tuple[int, int, int, int, int]] = []  # (column, length, top, bottom, index)
        for i, c in enumerate(pack.connections):
            if c.a in self.column and c.b in self.column and self.column[c.a] == self.column[c.b]:
                top, bottom = sorted((self.row[c.a], self.row[c.b]))
                spans.append((self.column[c.a], bottom - top, top, bottom, i))
        taken: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for col, _, top, bottom, i in sorted(spans):
            lane = 0
            while any(not (bottom < t or top > b) for t, b in taken.get((col, lane), [])):
                lane += 1
            taken.setdefault((col, lane), []).append((top, bottom))
            self.lane[i] = lane
            lanes_per_column[col] = max(lanes_per_column[col], lane + 1)
        self.gutter = [LANE * (n + 1) + 4 for n in lanes_per_column]
        self.left: list[float] = []
        x: float = MARGIN
        for col in range(len(columns)):
            self.left.append(x + self.gutter[col])
            x += self.gutter[col] + self.box_w + COLUMN_GAP
        self.width = x - COLUMN_GAP - MARGIN
        # A channel above the boxes for the lines that would cross a whole column: connections
        # between columns that are not neighbours, and every special connection.
        self.channel: dict[str, int] = {}
        for i, c in enumerate(pack.connections):
            if c.a in self.column and c.b in self.column and abs(self.column[c.a] - self.column[c.b]) > 1:
                self.channel[f"connection {i}"] = len(self.channel)
        for special in pack.special_connections:
            self.channel[f"special {special.to}"] = len(self.channel)
        self.channel_h = LANE * (len(self.channel) + 1) + 4
        self.top: float = 0

    def box(self, name: str) -> tuple[float, float]:
        """The top-left corner of a destination's box."""
        return self.left[self.column[name]], self.top + self.row[name] * ROW_H

    def centre(self, name: str) -> Point:
        x, y = self.box(name)
        return x + self.box_w / 2, y + BOX_H / 2

    def column_at(self, left: float) -> int:
        return self.left.index(left)

    def entry_x(self, column: int, lane: int) -> float:
        """Where a line from the channel comes down into a column (in the gap left of its gutter)."""
        return self.left[column] - self.gutter[column] - 10 - lane * 3

    def height(self) -> float:
        return self.rows * ROW_H


def _region_fill(colour: str | None) -> str:
    if colour is None:
        return PALETTE["panel"]
    if colour.startswith("#") and len(colour) == 7:
        return colour
    return REGION_FILLS.get(colour.lower(), PALETTE["panel"])


def _map(d: Drawing, game: AeroplanesGame, state: AerState, layout: _Layout, y: float) -> float:
    pack = game.pack
    d.text(MARGIN, y + 14, "Map", size=13, bold=True)
    head = y + 20
    layout.top = head + 22 + layout.channel_h
    for col, region in enumerate(pack.regions):
        x = layout.left[col] - layout.gutter[col]
        w = layout.gutter[col] + layout.box_w
        kind = "a market (AER-R-50)" if region.market else "not a market"
        with d.group(class_="region", title=f"region {region.id} ({region.colour or 'no colour'}), {kind}"):
            d.rect(x - 2, head, w + 6, layout.height() + 24, fill=_region_fill(region.colour), rx=6)
            d.text(x + 4, head + 15, fit(region.id, w, 12), size=12, bold=True)
    # Connections first, so the boxes cover their ends.
    for i, c in enumerate(pack.connections):
        _connection(d, layout, c, i)
    for special in pack.special_connections:
        _special(d, layout, special)
    _attempt_route(d, state, layout)
    slots = {s.destination: s.slots for s in state.map}
    for dest in pack.destinations:
        x, top = layout.box(dest.name)
        here = slots.get(dest.name, ())
        marks = " ".join(_slot_words(a) for a in here)
        title = f"{dest.name} ({dest.region}{', start city' if dest.start_city else ''}): {marks or 'no slots'}"
        classes = "destination start-city" if dest.start_city else "destination"
        with d.group(class_=classes, title=title):
            d.rect(
                x,
                top,
                layout.box_w,
                BOX_H,
                fill=PALETTE["paper"],
                stroke=PALETTE["ink"] if dest.start_city else "#999999",
                stroke_width=2.5 if dest.start_city else 1,
                rx=4,
            )
            label = ("★ " if dest.start_city else "") + dest.name
            d.text(x + 5, top + 13, fit(label, layout.box_w - 10, 11), size=11, bold=dest.start_city)
            for i, airport in enumerate(here):
                _slot(d, x + 5 + i * SLOT_STEP, top + 19, airport, i, dest.slots - dest.four_five_slots)
    _attempt_boxes(d, state, layout)
    return layout.top + layout.height() + GAP + 4


def _slot_words(airport: Airport | None) -> str:
    if airport is None:
        return "empty"
    if airport.blocker:
        return "blocked"
    who = SEATS[airport.owner] if 0 <= airport.owner < len(SEATS) else f"seat {airport.owner}"
    return f"{who} home" if airport.home else f"{who} stage {airport.stage}"


def _slot(d: Drawing, x: float, y: float, airport: Airport | None, index: int, ordinary: int) -> None:
    four_five = " (a 4/5 slot)" if index >= ordinary else ""
    title = f"slot {index}{four_five}: {_slot_words(airport)}"
    if airport is None:
        d.rect(x, y, SLOT, SLOT, fill=PALETTE["paper"], stroke="#999999", dashed=True, class_="slot-empty", title=title)
        return
    if airport.blocker:
        d.rect(x, y, SLOT, SLOT, fill=BLOCKED, stroke=PALETTE["ink"], class_="blocked", title=title)
        return
    colour = seat_colour(airport.owner)
    classes = "airport home" if airport.home else "airport"
    d.rect(x, y, SLOT, SLOT, fill=colour, stroke=PALETTE["ink"], rx=2, class_=classes, title=title)
    d.text(
        x + SLOT / 2, y + 12, "⌂" if airport.home else str(airport.stage), size=10, fill=ink_on(colour), anchor="middle"
    )


def _route_words(colour: Colour | None, long_range: bool, rolls: tuple[int, ...] | None) -> str:
    kind = f"‡ route, rolls {listed(rolls or ())}" if colour is None else f"{colour}"
    return kind + (", long range (LR planes only)" if long_range else "")


def _arrow(d: Drawing, tip: Point, tail: Point, colour: str, class_: str = "arrow") -> None:
    angle = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    back, side = 9, 4.5
    bx, by = tip[0] - back * math.cos(angle), tip[1] - back * math.sin(angle)
    left = (bx + side * math.sin(angle), by - side * math.cos(angle))
    right = (bx - side * math.sin(angle), by + side * math.cos(angle))
    d.polygon([tip, left, right], fill=colour, class_=class_)


def _connection(d: Drawing, layout: _Layout, c: Connection, index: int) -> None:
    if c.a not in layout.column or c.b not in layout.column:
        return
    colour = LINE_COLOURS[c.colour]
    width = 4 if c.long_range else 2
    dash = "6 4" if c.colour is None else None
    one_way = c.direction == "one-way"
    title = f"{c.a} {'->' if one_way else '—'} {c.b}: {_route_words(c.colour, c.long_range, c.rolls)}"
    points: list[Point]
    ax, ay = layout.box(c.a)
    bx, by = layout.box(c.b)
    if layout.column[c.a] == layout.column[c.b]:
        lane = layout.lane.get(index, 0)
        gx = ax - LANE * (lane + 1)
        nudge = (lane % 3 - 1) * 4
        points = [(ax, ay + BOX_H / 2 + nudge), (gx, ay + BOX_H / 2 + nudge)]
        points += [(gx, by + BOX_H / 2 + nudge), (bx, by + BOX_H / 2 + nudge)]
    elif f"connection {index}" in layout.channel:
        (lx, ly), (rx, ry) = sorted([(ax, ay), (bx, by)], key=lambda corner: corner[0])
        lane = layout.channel[f"connection {index}"]
        cy = layout.top - LANE * (lane + 1) - 2
        out_x = lx + layout.box_w + 12 + lane * 3
        in_x = layout.entry_x(layout.column_at(rx), lane)
        points = [(lx + layout.box_w, ly + BOX_H / 2), (out_x, ly + BOX_H / 2), (out_x, cy), (in_x, cy)]
        points += [(in_x, ry + BOX_H / 2), (rx, ry + BOX_H / 2)]
        if (lx, ly) != (ax, ay):
            points.reverse()
    elif layout.column[c.a] < layout.column[c.b]:
        points = [(ax + layout.box_w, ay + BOX_H / 2), (bx, by + BOX_H / 2)]
    else:
        points = [(ax, ay + BOX_H / 2), (bx + layout.box_w, by + BOX_H / 2)]
    with d.group(class_="connection long-range" if c.long_range else "connection", title=title):
        d.polyline(points, stroke=colour, stroke_width=width, dash=dash)
        if c.long_range:
            mx = (points[-2][0] + points[-1][0]) / 2 if len(points) > 2 else (points[0][0] + points[1][0]) / 2
            my = (points[-2][1] + points[-1][1]) / 2 if len(points) > 2 else (points[0][1] + points[1][1]) / 2
            d.rect(mx - 9, my - 7, 18, 13, fill=PALETTE["paper"], stroke=colour, rx=3)
            d.text(mx, my + 3, "LR", size=8, anchor="middle", bold=True)
        if one_way:
            _arrow(d, points[-1], points[-2], colour)


def _special(d: Drawing, layout: _Layout, s: SpecialConnection) -> None:
    if s.to not in layout.column:
        return
    froms = [name for name, col in layout.column.items() if layout.pack.destination(name).region == s.from_region]
    if not froms:
        return
    col = layout.column[froms[0]]
    rows = sorted(layout.row[name] for name in froms)
    x = layout.left[col] + layout.box_w + 8
    top = layout.top + rows[0] * ROW_H + 4
    bottom = layout.top + rows[-1] * ROW_H + BOX_H - 4
    tx, ty = layout.box(s.to)
    ty += BOX_H / 2
    colour = LINE_COLOURS[s.colour]
    width = 4 if s.long_range else 2
    dash = "6 4" if s.colour is None else None
    title = (
        f"special connection to {s.to}, one way from every {s.from_region} destination:"
        f" {_route_words(s.colour, s.long_range, s.rolls)} (AER-R-15)"
    )
    lane = layout.channel[f"special {s.to}"]
    cy = layout.top - LANE * (lane + 1) - 2
    target = layout.column[s.to]
    in_x = layout.entry_x(target, lane) if target > col else tx + layout.box_w + 12 + lane * 3
    end: Point = (tx, ty) if target > col else (tx + layout.box_w, ty)
    points: list[Point] = [(x, top), (x, cy), (in_x, cy), (in_x, ty), end]
    with d.group(class_="special", title=title):
        d.line(x, top, x, bottom, stroke=PALETTE["muted"], stroke_width=3)
        d.polyline(points, stroke=colour, stroke_width=width, dash=dash)
        _arrow(d, end, points[-2], colour)
        if s.long_range:
            d.rect(in_x - 9, cy - 6, 18, 12, fill=PALETTE["paper"], stroke=colour, rx=3)
            d.text(in_x, cy + 3, "LR", size=8, anchor="middle", bold=True)


# ---------------------------------------------------------------------------
# The attempt in progress
# ---------------------------------------------------------------------------


def _attempt_stops(state: AerState, layout: _Layout) -> list[str]:
    attempt = state.turn.attempt
    if attempt is None:
        return []
    stops = [s for s in (attempt.origin, attempt.via, attempt.destination) if s is not None]
    return [s for s in stops if s in layout.column]


def _attempt_route(d: Drawing, state: AerState, layout: _Layout) -> None:
    stops = _attempt_stops(state, layout)
    if len(stops) > 1:
        points = [layout.centre(s) for s in stops]
        d.polyline(
            points, stroke=PALETTE["highlight"], stroke_width=7, class_="attempt-route", title=" -> ".join(stops)
        )


def _attempt_boxes(d: Drawing, state: AerState, layout: _Layout) -> None:
    attempt = state.turn.attempt
    if attempt is None:
        return
    stops = _attempt_stops(state, layout)
    with d.group(class_="attempt", title=_attempt_words(state)):
        for name in stops:
            x, y = layout.box(name)
            d.rect(
                x - 3,
                y - 3,
                layout.box_w + 6,
                BOX_H + 6,
                fill="none",
                stroke=PALETTE["highlight"],
                stroke_width=3,
                rx=6,
            )
        if attempt.destination in layout.column:
            x, y = layout.box(attempt.destination)
            sx = x + 5 + attempt.slot * SLOT_STEP
            d.rect(sx - 2, y + 17, SLOT + 4, SLOT + 4, fill="none", stroke="#b22222", stroke_width=2, rx=3)
        if len(stops) > 1:
            a, b = layout.centre(stops[-2]), layout.centre(stops[-1])
            _arrow(d, ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), a, "#b8860b", class_="attempt-arrow")


def _attempt_words(state: AerState) -> str:
    attempt = state.turn.attempt
    if attempt is None:
        return ""
    route = f"{attempt.origin} -> {attempt.via} -> " if attempt.via else f"{attempt.origin} -> "
    throw = f", thrown {attempt.throw[0]} with {attempt.throw[1]} skull(s)" if attempt.throw else ""
    pending = " (not kept yet)" if attempt.pending else ""
    return (
        f"Attempt: card #{attempt.card} tile {route if attempt.origin else 'upgrade at '}{attempt.destination}"
        f" slot {attempt.slot}; rolls left {[t for t, _ in attempt.rolls]}{throw}{pending}; spent £{attempt.spent}"
    )


def _attempt_line(d: Drawing, state: AerState, width: float, y: float) -> float:
    lines = []
    if state.turn.attempt is not None:
        lines.append(_attempt_words(state))
    if state.turn.advantage_dice is not None:
        lines.append(f"Advantage dice: {' '.join(_die(f) for f in state.turn.advantage_dice)}")
    if state.turn.claims_left:
        lines.append(f"Night Flights claims left: {state.turn.claims_left}")
    for line in lines:
        d.rect(MARGIN, y, width - 2 * MARGIN, 22, fill="#fdf3d0", stroke=PALETTE["highlight"], rx=4)
        d.text(MARGIN + 8, y + 15, fit(line, width - 2 * MARGIN - 16, 12), size=12, class_="turn-note", title=line)
        y += 22 + GAP
    return y


# ---------------------------------------------------------------------------
# Supplies, display and waiting area
# ---------------------------------------------------------------------------


def _supplies(d: Drawing, game: AeroplanesGame, state: AerState, width: float, y: float) -> float:
    pack = game.pack
    per_row = max(1, int((width - 2 * MARGIN - 76) // (CARD_W + 6)))
    rows = max(1, math.ceil(len(state.display) / per_row))
    height = 26 + rows * (CARD_H + 6) + 4
    d.rect(MARGIN, y, width - 2 * MARGIN, height, fill=PALETTE["panel"], rx=6)
    x: float = MARGIN + 8
    pool = f"subsidy section £{state.subsidy_pool} of £{pack.subsidy_pool}"
    with d.group(class_="subsidy", title=pool + " (AER-R-48)"):
        d.text(x, y + 17, f"Subsidies £{state.subsidy_pool}", size=12, bold=True)
    x += 120
    marker = "in the subsidy section" if state.marker_in_pool else f"taken by {seat_name(state.marker_taker or 0)}"
    with d.group(class_="marker", title=f"black subsidy marker {marker}"):
        d.circle(x + 6, y + 13, 6, fill="#111111")
        d.text(x + 16, y + 17, f"marker {marker}", size=11)
    x += 24 + text_width(f"marker {marker}", 11)
    d.text(x, y + 17, "advantage supply:", size=11, fill=PALETTE["muted"])
    x += text_width("advantage supply:", 11) + 6
    for t, n in zip((2, 3, 4, 5, 6), state.advantage_supply, strict=True):
        with d.group(class_="advantage-supply", title=f"{ADVANTAGE_NAMES[t]} (type {t}): {n} in the supply"):
            d.rect(x, y + 5, 40, 16, fill="#e8e2d0", stroke="#999999", rx=3)
            d.text(x + 4, y + 17, f"{t}: {n}", size=10)
        x += 44
    info = f"deck {len(state.deck)} · bag {len(state.bag)} · out of the game {len(state.removed_passengers)}"
    d.text(width - MARGIN - 8, y + 17, info, size=11, anchor="end", title=info)
    x = MARGIN + 8
    d.text(x, y + 26 + CARD_H / 2 + 4, "Display", size=12, bold=True)
    x += 60
    for i, number in enumerate(state.display):
        cx = x + (i % per_row) * (CARD_W + 6)
        _card(d, game, cx, y + 26 + (i // per_row) * (CARD_H + 6), number, None, "display-card")
    return y + height + GAP


def _card(
    d: Drawing, game: AeroplanesGame, x: float, y: float, number: int, owned: OwnedCard | None, class_: str
) -> None:
    card = game.pack.card(number)
    face_down = owned is not None and owned.face_down
    lr = " LR" if card.long_range else ""
    words = (
        f"card #{number}{' ' + card.name if card.name else ''}: £{card.price}{', long range' if lr else ''},"
        f" {card.tile_count} stage-{card.tile_stage} tile(s), {card.vp} VP, capacity {card.capacity}, era {card.era}"
    )
    if owned is not None:
        words += (
            f"; {'face down, ' if face_down else ''}{owned.tiles} tile(s) on it,"
            f" load {load(game.ctx, owned)}/{capacity(game.ctx, owned)}, passengers {listed(owned.passengers)}"
        )
    fill = "#eeeeee" if face_down else "#fffdf6"
    with d.group(class_=class_ + (" face-down" if face_down else ""), title=words):
        d.rect(x, y, CARD_W, CARD_H, fill=fill, stroke="#8a7f66", rx=4, dashed=face_down)
        d.text(x + 5, y + 13, f"#{number}{lr}", size=11, bold=True)
        d.text(x + CARD_W - 5, y + 13, f"£{card.price} · {card.vp}VP", size=9, anchor="end")
        if owned is None:
            d.text(x + 5, y + 30, f"{card.tile_count} × stage {card.tile_stage}", size=10)
            d.text(x + 5, y + 46, f"capacity {card.capacity}", size=10)
            return
        for i in range(owned.tiles):
            d.rect(x + 5 + i * 13, y + 19, 11, 11, fill="#c9b98f", stroke="#555555", rx=1, class_="card-tile")
            d.text(x + 10.5 + i * 13, y + 28, str(card.tile_stage), size=8, anchor="middle")
        if not owned.tiles:
            d.text(x + 5, y + 28, f"no tiles (stage {card.tile_stage})", size=9, fill=PALETTE["muted"])
        room = capacity(game.ctx, owned)
        used = load(game.ctx, owned)
        bar = CARD_W - 10
        d.rect(x + 5, y + 35, bar, 7, fill=PALETTE["paper"], stroke="#999999")
        if room:
            d.rect(x + 5, y + 35, bar * min(used, room) / room, 7, fill="#6a9f58")
        label = f"load {used}/{room}" + (" (down)" if face_down else "")
        d.text(x + 5, y + 55, fit(label + " " + " ".join(owned.passengers), CARD_W - 10, 9), size=9)


def _passenger(d: Drawing, game: AeroplanesGame, x: float, y: float, tile: str, where: str) -> None:
    p = game.pack.passenger(tile)
    region = game.pack.region(game.pack.destination(p.destination).region)
    mark = ", ¤ not in era 1" if p.not_in_era_1 else ""
    title = f"passenger tile {tile} ({where}): to {p.destination}, size {p.capacity}, {p.vp} VP{mark}"
    fill = _region_fill(region.colour)
    d.rect(x, y, PAX_W, PAX_H, fill=fill, stroke="#777777", rx=3, title=title)
    d.text(x + PAX_W / 2, y + 13, tile, size=9, anchor="middle", class_="passenger", title=title)


def _waiting(d: Drawing, game: AeroplanesGame, state: AerState, width: float, y: float) -> float:
    slots = max((len(w.slots) for w in state.waiting), default=0)
    section_w = 8 + max(slots, 1) * (PAX_W + 3) + 4
    per_row = max(1, int((width - 2 * MARGIN - 110) // (section_w + 6)))
    rows = max(1, math.ceil(len(state.waiting) / per_row))
    overflow_rows = 1
    height = 8 + rows * (PAX_H + 22) + overflow_rows * (PAX_H + 10) + 6
    d.rect(MARGIN, y, width - 2 * MARGIN, height, fill=PALETTE["panel"], rx=6)
    d.text(MARGIN + 8, y + 22, "Waiting", size=12, bold=True)
    d.text(MARGIN + 8, y + 36, "area", size=12, bold=True)
    for i, w in enumerate(state.waiting):
        x = MARGIN + 100 + (i % per_row) * (section_w + 6)
        top = y + 8 + (i // per_row) * (PAX_H + 22)
        filled = [t for t in w.slots if t is not None]
        with d.group(class_="waiting", title=f"waiting section {w.city}: {' '.join(filled) or 'empty'}"):
            d.text(x, top + 10, w.city, size=10, fill=PALETTE["muted"])
            for j, tile in enumerate(w.slots):
                left = x + j * (PAX_W + 3)
                if tile is None:
                    d.rect(left, top + 14, PAX_W, PAX_H, fill=PALETTE["paper"], stroke="#bbbbbb", dashed=True, rx=3)
                else:
                    _passenger(d, game, left, top + 14, tile, f"waiting at {w.city}")
    top = y + 8 + rows * (PAX_H + 22)
    cap = game.pack.waiting_area.overflow_capacity
    with d.group(
        class_="overflow", title=f"overflow area: {len(state.overflow)} of {cap} ({' '.join(state.overflow)})"
    ):
        d.text(MARGIN + 100, top + 13, f"overflow {len(state.overflow)}/{cap}", size=10, fill=PALETTE["muted"])
        for j, tile in enumerate(state.overflow):
            _passenger(d, game, MARGIN + 190 + j * (PAX_W + 3), top, tile, "overflow")
    return y + height + GAP


# ---------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------


def _player(d: Drawing, game: AeroplanesGame, state: AerState, seat: int, width: float, y: float) -> float:
    p = state.players[seat]
    colour = seat_colour(seat)
    to_play = seat == state.to_move and state.phase is not Phase.OVER
    per_row = max(1, int((width - 2 * MARGIN - 16) // (CARD_W + 6)))
    card_rows = max(1, math.ceil(len(p.cards) / per_row))
    height = 48 + card_rows * (CARD_H + 6) + 4
    limit = game.pack.risk.engine_failure_limit
    label = (
        f"{seat_name(seat)} · home {p.home or '—'} · £{p.money} · {p.vp} VP"
        f" · discarded {listed(p.discards)} · banked {len(p.banked)} tile(s)"
    )
    with d.group(class_="player to-play" if to_play else "player", title=seat_name(seat)):
        d.rect(
            MARGIN,
            y,
            width - 2 * MARGIN,
            height,
            fill=PALETTE["panel"],
            stroke=colour,
            stroke_width=3 if to_play else 1,
            rx=6,
        )
        d.rect(MARGIN + 8, y + 6, 14, 14, fill=colour, rx=3)
        d.text(
            MARGIN + 28,
            y + 18,
            fit(label, width - 2 * MARGIN - 36, 12),
            size=12,
            bold=True,
            class_="seat-label",
            title=label,
        )
        x: float = MARGIN + 8
        d.text(x, y + 38, "supply", size=10, fill=PALETTE["muted"])
        x += 40
        for stage, n in enumerate(p.supply, start=1):
            with d.group(class_="supply", title=f"{n} stage-{stage} airport tile(s) in the supply"):
                d.rect(x, y + 27, 14, 14, fill=colour, stroke=PALETTE["ink"], rx=2)
                d.text(x + 7, y + 38, str(stage), size=9, fill=ink_on(colour), anchor="middle")
                d.text(x + 18, y + 38, f"×{n}", size=10)
            x += 48
        x += 10
        d.text(x, y + 38, "advantages", size=10, fill=PALETTE["muted"])
        x += 62
        held = [(t, p.held(t)) for t in (2, 3, 4, 5, 6) if p.held(t)]
        for t, n in held:
            name = ADVANTAGE_NAMES[t]
            with d.group(class_="advantage", title=f"{name} (type {t}) × {n}"):
                d.rect(x, y + 27, 26 + text_width(name, 9), 15, fill="#e8e2d0", stroke="#999999", rx=3)
                d.text(x + 4, y + 38, f"{name} ×{n}", size=9)
            x += 32 + text_width(name, 9)
        if not held:
            d.text(x, y + 38, "none", size=10)
            x += 34
        x += 10
        with d.group(
            class_="engine-failures", title=f"{p.engine_failures} engine failure tile(s) (all lost at {limit})"
        ):
            d.text(x, y + 38, "engine failures", size=10, fill=PALETTE["muted"])
            for i in range(p.engine_failures):
                d.circle(x + 88 + i * 14, y + 34, 6, fill="#b22222", stroke=PALETTE["ink"], class_="engine-failure")
            if not p.engine_failures:
                d.text(x + 84, y + 38, "0", size=10)
        for i, card in enumerate(p.cards):
            cx = MARGIN + 8 + (i % per_row) * (CARD_W + 6)
            cy = y + 48 + (i // per_row) * (CARD_H + 6)
            _card(d, game, cx, cy, card.number, card, "card")
        if not p.cards:
            d.text(MARGIN + 8, y + 66, "no plane cards", size=10, fill=PALETTE["muted"])
    return y + height + GAP
