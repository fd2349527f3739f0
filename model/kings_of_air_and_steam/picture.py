"""An SVG picture of a Kings of Air and Steam state, for HTML reports.

The play area is drawn as pointy-top hexagons from the axial coordinates of
:mod:`rulecraft.model.kings_of_air_and_steam.hexgrid` (the text board's
half-cell shift per row is the same geometry), with rail lines, cities,
factories, depots and airships on top; a side panel holds the market, the
turn and the players, then a legend.  Every hexagon has a tooltip naming
its coordinates and content, as the text picture's cell does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from rulecraft.model.kings_of_air_and_steam.components import GOODS, GameMap, MapHex
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.render import goods_text
from rulecraft.model.kings_of_air_and_steam.state import Depot, KasState, Phase, PlayerState, SlotStatus
from rulecraft.svg import PALETTE, Drawing, Point, fit, ink_on, seat_colour

if TYPE_CHECKING:
    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame

HEX = 22.0  # a hexagon's circumradius in pixels
ROOT3 = math.sqrt(3)
MARGIN = 12
GAP = 8
HEADER = 52
PANEL_W = 330
LINE = 16  # one line of panel text

GOODS_FILL: Mapping[str, str] = {
    "chemical": "#2e9e5b",
    "machine": "#6c7a89",
    "food": "#e6a117",
    "textile": "#8e44ad",
    "luxury": "#d63384",
}
HEX_STROKE = "#9aa58a"
SLOT_FILL: Mapping[SlotStatus, str] = {
    SlotStatus.PLANNED: "#d5d8dc",
    SlotStatus.EXECUTED: "#58d68d",
    SlotStatus.RETURNED: "#f1948a",
}


def svg(game: KingsOfAirAndSteamGame, state: KasState) -> str:
    """The state as a standalone ``<svg>`` element (deterministic)."""
    game_map = game.ctx.map_of(state)
    centres, map_w, map_h = _layout(game_map)
    panel_x = MARGIN + map_w + GAP
    d = Drawing(panel_x + PANEL_W + MARGIN, 0, title=_headline(state))
    _header(d, game, state)
    _hexes(d, game, state, centres)
    _rails(d, game_map, centres)
    _contents(d, state, game_map, centres)
    _depots(d, state, centres)
    _airships(d, game, state, centres)
    panel_bottom = _panel(d, game, state, panel_x, HEADER + GAP)
    # The height is only known once the map and the panel are laid out.
    d.height = max(HEADER + GAP + map_h, panel_bottom) + MARGIN
    return d.to_string()


# -- geometry ------------------------------------------------------------------------------------
def _axial(at: Hex) -> tuple[float, float]:
    """Pointy-top axial to pixels: E is +x, NE and NW go up (hexgrid.DIRECTIONS)."""
    return HEX * ROOT3 * (at.q + at.r / 2), HEX * 1.5 * at.r


def _layout(game_map: GameMap) -> tuple[dict[Hex, Point], float, float]:
    """Each hex's centre in picture coordinates, and the map's width and height."""
    raw = {at: _axial(at) for at in sorted(game_map.hexes)}
    xs = [x for x, _ in raw.values()]
    ys = [y for _, y in raw.values()]
    half_w = HEX * ROOT3 / 2
    left, top = MARGIN + half_w - min(xs), HEADER + GAP + HEX - min(ys)
    centres: dict[Hex, Point] = {at: (x + left, y + top) for at, (x, y) in raw.items()}
    return centres, max(xs) - min(xs) + 2 * half_w, max(ys) - min(ys) + 2 * HEX


def _corners(cx: float, cy: float, radius: float = HEX) -> list[Point]:
    return [
        (cx + radius * math.cos(math.radians(60 * i - 30)), cy + radius * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


# -- header ----------------------------------------------------------------------------------------
def _headline(state: KasState) -> str:
    return f"Kings of Air and Steam — round {state.round}, cycle {state.cycle}"


def _header(d: Drawing, game: KingsOfAirAndSteamGame, state: KasState) -> None:
    d.rect(0, 0, d.width, HEADER, fill=PALETTE["header"])
    d.text(MARGIN, 24, _headline(state), size=17, fill=PALETTE["paper"], bold=True)
    if state.phase is Phase.OVER:
        winners = ", ".join(f"seat {s}" for s in game.winners(state))
        line = f"game over · winner {winners}"
    else:
        line = f"seat {state.seat} to act · phase {state.phase.value}"
    line += f" · layout {state.layout} · start player {state.start_player}"
    d.text(MARGIN, 42, line, size=12, fill=PALETTE["paper"])


# -- the map -------------------------------------------------------------------------------------------
def _hex_fill(mh: MapHex) -> str:
    if mh.water:
        return PALETTE["water"]
    if mh.partial:
        return PALETTE["partial"]
    return PALETTE["land"]


def _hex_title(game: KingsOfAirAndSteamGame, state: KasState, game_map: GameMap, mh: MapHex) -> str:
    at = mh.at
    parts = [f"hex {at} (q={at.q}, r={at.r}), board {mh.board}"]
    if mh.partial:
        parts.append("partial hex: fly through, never end here")
    if mh.water:
        parts.append("water")
    if mh.city is not None:
        parts.append(_city_text(state, game_map, mh.city))
    if mh.factory is not None:
        index = game_map.factory_index(at)
        count = state.factories[index] if index is not None else 0
        parts.append(f"{mh.factory} factory with {count} goods")
    if mh.rail is not None:
        parts.append(f"rail line {mh.rail}")
    for depot in state.depots:
        if depot.at == at:
            parts.append(f"depot of seat {depot.owner} storing {goods_text(depot.goods)}")
    ships = [str(s) for s, p in enumerate(state.players) if p.position == at]
    if ships:
        parts.append("airship of seat " + ", ".join(ships))
    if len(parts) == 1:
        parts.append("land")
    return "; ".join(parts)


def _city_text(state: KasState, game_map: GameMap, name: str) -> str:
    city = state.cities[game_map.city_index(name)]
    if city.closed:
        return f"city {name}: closed"
    if city.waiting or city.demand is None:
        return f"city {name}: waiting for a demand tile"
    kind = "tile" if city.tile else "printed"
    return f"city {name}: demands {city.demand} {city.filled}/{city.slots} ({kind})"


def _hexes(d: Drawing, game: KingsOfAirAndSteamGame, state: KasState, centres: Mapping[Hex, Point]) -> None:
    game_map = game.ctx.map_of(state)
    for at, (cx, cy) in centres.items():
        mh = game_map.hexes[at]
        d.polygon(
            _corners(cx, cy),
            fill=_hex_fill(mh),
            stroke=PALETTE["faint"] if mh.partial else HEX_STROKE,
            stroke_width=0.8,
            dashed=mh.partial,
            class_="hex",
            title=_hex_title(game, state, game_map, mh),
        )


def _rails(d: Drawing, game_map: GameMap, centres: Mapping[Hex, Point]) -> None:
    """Each rail line from city to city: sleepers under a solid rail."""
    for line in game_map.lines:
        ends = [game_map.city(name).at for name in line.ends]
        path = [centres[at] for at in (ends[0], *line.hexes, ends[1]) if at in centres]
        title = f"rail line {line.id}: {line.ends[0]} – {line.ends[1]}"
        with d.group(class_="rail", title=title):
            d.polyline(path, stroke=PALETTE["rail"], stroke_width=7, dash="2 5")
            d.polyline(path, stroke=PALETTE["rail"], stroke_width=2.5)


def short_names(names: Sequence[str]) -> dict[str, str]:
    """The shortest prefix telling each name from the others (Wa/Wi, not W/W), at most 3 letters."""
    out: dict[str, str] = {}
    for name in names:
        size = 1
        while size < len(name) and sum(1 for other in names if other[:size] == name[:size]) > 1:
            size += 1
        out[name] = name[: min(size, 3)]
    return out


def _contents(d: Drawing, state: KasState, game_map: GameMap, centres: Mapping[Hex, Point]) -> None:
    """Cities and factories, drawn over the rails that run into them."""
    short = short_names([c.name for c in game_map.cities])
    for city in game_map.cities:
        cx, cy = centres[city.at]
        now = state.cities[game_map.city_index(city.name)]
        if now.closed:
            fill, mark = PALETTE["closed"], "×"
        elif now.waiting or now.demand is None:
            fill, mark = PALETTE["paper"], "?"
        else:
            fill, mark = GOODS_FILL[now.demand], short[city.name]
        with d.group(class_="city", title=_city_text(state, game_map, city.name)):
            d.circle(cx, cy - 3, 11, fill=fill, stroke=PALETTE["ink"], stroke_width=1.5)
            size = (12, 12, 10, 8)[len(mark)]  # longer prefixes in a smaller font, to stay inside the disc
            d.text(cx, cy + 1, mark, size=size, fill=ink_on(fill), anchor="middle", bold=True)
            if not now.closed and not now.waiting:
                d.text(cx, cy + 16, f"{now.filled}/{now.slots}", size=8, anchor="middle")
    for index, (at, goods) in enumerate(game_map.factories):
        cx, cy = centres[at]
        count = state.factories[index]
        fill = GOODS_FILL[goods]
        with d.group(class_="factory", title=f"{goods} factory at {at}: {count} goods"):
            d.rect(cx - 9, cy - 9, 18, 18, fill=fill, stroke=PALETTE["ink"], rx=3)
            d.text(cx, cy + 4, str(count), size=11, fill=ink_on(fill), anchor="middle", bold=True)


def _depots(d: Drawing, state: KasState, centres: Mapping[Hex, Point]) -> None:
    by_hex: dict[Hex, list[Depot]] = {}
    for depot in state.depots:
        by_hex.setdefault(depot.at, []).append(depot)
    for at, depots in sorted(by_hex.items()):
        cx, cy = centres[at]
        for i, depot in enumerate(depots):
            x, y = cx + 2 + 12 * i, cy + 3
            fill = seat_colour(depot.owner)
            stored = sum(depot.goods)
            title = f"depot of seat {depot.owner} at {at}: {goods_text(depot.goods)}"
            with d.group(class_="depot", title=title):
                d.rect(x, y, 11, 11, fill=fill, stroke=PALETTE["ink"], stroke_width=1)
                if stored:
                    d.text(x + 5.5, y + 9, str(stored), size=9, fill=ink_on(fill), anchor="middle", bold=True)


def _airships(d: Drawing, game: KingsOfAirAndSteamGame, state: KasState, centres: Mapping[Hex, Point]) -> None:
    stacked: dict[Hex, int] = {}
    for seat, player in enumerate(state.players):
        if player.position is None or player.position not in centres:
            continue
        cx, cy = centres[player.position]
        # Airships sharing a hex sit side by side, in seat order.
        n = stacked.get(player.position, 0)
        stacked[player.position] = n + 1
        x, y = cx - 8 + 10 * n, cy - 9
        fill = seat_colour(seat)
        title = f"airship of seat {seat} at {player.position}: L{player.airship_level}, hold {goods_text(player.hold)}"
        with d.group(class_="airship", title=title):
            d.circle(x, y, 8, fill=fill, stroke=PALETTE["paper"], stroke_width=1.5)
            d.text(x, y + 4, str(seat), size=11, fill=ink_on(fill), anchor="middle", bold=True)


# -- the side panel ----------------------------------------------------------------------------------
def _panel(d: Drawing, game: KingsOfAirAndSteamGame, state: KasState, x: float, y: float) -> float:
    y = _market(d, game, state, x, y)
    scores = game.scores(state)
    for seat, player in enumerate(state.players):
        y = _player(d, game, state, seat, player, scores[seat], x, y)
    y = _cities(d, game, state, x, y + GAP)
    return _legend(d, x, y + GAP)


def _title(d: Drawing, x: float, y: float, text: str) -> float:
    d.text(x, y + 13, text, size=13, bold=True)
    return y + 20


def _swatch(d: Drawing, x: float, y: float, goods: str, size: float = 10) -> None:
    d.rect(x, y, size, size, fill=GOODS_FILL[goods], stroke=PALETTE["ink"], stroke_width=0.6, rx=2)


def _market(d: Drawing, game: KingsOfAirAndSteamGame, state: KasState, x: float, y: float) -> float:
    y = _title(d, x, y, "Market")
    prices = game.ctx.prices(state)
    for i, (goods, price) in enumerate(zip(GOODS, prices, strict=True)):
        gx = x + (i % 3) * 110
        gy = y + (i // 3) * LINE
        with d.group(class_="price", title=f"{goods}: ${price} ({state.pushes[i]} market tiles drawn)"):
            _swatch(d, gx, gy + 2, goods)
            d.text(gx + 14, gy + 11, f"{goods} ${price}", size=11)
    y += 2 * LINE + 2
    d.text(x, y + 11, "future", size=11, fill=PALETTE["muted"])
    for i, goods in enumerate(state.market_slots):
        with d.group(class_="future-tile", title=f"future market slot {i + 1}: {goods}"):
            _swatch(d, x + 46 + 14 * i, y + 2, goods)
    d.text(x + 100, y + 11, f"draw pile {sum(state.market_pile)} · demand pile {sum(state.demand_pile)}", size=11)
    return y + LINE + GAP


def _player(
    d: Drawing,
    game: KingsOfAirAndSteamGame,
    state: KasState,
    seat: int,
    player: PlayerState,
    vp: int,
    x: float,
    y: float,
) -> float:
    to_act = seat == state.seat and state.phase is not Phase.OVER
    height = 4 * LINE + 8
    depots = sum(1 for dep in state.depots if dep.owner == seat)
    with d.group(class_="player to-act" if to_act else "player", title=f"seat {seat}: {vp} VP, ${player.money}"):
        stroke, width = (PALETTE["highlight"], 3.0) if to_act else (seat_colour(seat), 1.5)
        d.rect(x, y, PANEL_W, height, fill=PALETTE["panel"], stroke=stroke, stroke_width=width, rx=6)
        d.circle(x + 12, y + 12, 6, fill=seat_colour(seat), stroke=PALETTE["ink"], stroke_width=0.8)
        who = f"seat {seat}"
        if player.team is not None:
            who += f" · {player.team}" + (f" ({player.character})" if player.character else "")
        d.text(x + 24, y + 16, fit(who, PANEL_W - 110, 13), size=13, bold=True, class_="seat-label")
        right = "▶ " if to_act else ""
        d.text(x + PANEL_W - 8, y + 16, f"{right}{vp} VP · ${player.money}", size=12, anchor="end", bold=True)
        ctx = game.ctx
        airship = f"airship L{player.airship_level} (◆{ctx.rating(player)}, hold {ctx.capacity(player)})"
        d.text(x + 8, y + 16 + LINE, f"{airship} · rail L{player.rail_level}", size=11)
        at = "not placed yet" if player.position is None else f"at {player.position}"
        tokens = f" · tokens {player.tokens}" if player.team is not None else ""
        d.text(x + 8, y + 16 + 2 * LINE, f"{at} · depots {depots} (+{player.depots_left} left){tokens}", size=11)
        d.text(x + 8, y + 16 + 3 * LINE, "hold", size=11, fill=PALETTE["muted"])
        _hold(d, x + 38, y + 7 + 3 * LINE, player.hold)
        _plan(d, x + PANEL_W - 8, y + 6 + 3 * LINE, player)
    return y + height + GAP / 2


def _hold(d: Drawing, x: float, y: float, hold: tuple[int, ...]) -> None:
    with d.group(class_="hold", title=f"hold: {goods_text(hold)}"):
        for goods, count in zip(GOODS, hold, strict=True):
            for _ in range(count):
                _swatch(d, x, y, goods)
                x += 12
        if not sum(hold):
            d.text(x, y + 9, "empty", size=11, fill=PALETTE["faint"], italic=True)


def _plan(d: Drawing, right: float, y: float, player: PlayerState) -> None:
    """The planned cards as small face-down cards, right-aligned (ids in tooltips only)."""
    if not player.plan:
        return
    x = right - 16 * len(player.plan)
    for i, (card, status) in enumerate(zip(player.plan, player.slots, strict=True)):
        with d.group(class_="plan-slot", title=f"slot {i + 1}: {card} ({status.value})"):
            d.rect(x + 16 * i, y, 12, 16, fill=SLOT_FILL[status], stroke=PALETTE["ink"], stroke_width=0.6, rx=2)


def _cities(d: Drawing, game: KingsOfAirAndSteamGame, state: KasState, x: float, y: float) -> float:
    y = _title(d, x, y, "Cities")
    game_map = game.ctx.map_of(state)
    for i, (city, now) in enumerate(zip(game_map.cities, state.cities, strict=True)):
        cx, cy = x + (i % 2) * 165, y + (i // 2) * LINE
        if now.closed:
            fill, note = PALETTE["closed"], "closed"
        elif now.waiting or now.demand is None:
            fill, note = PALETTE["paper"], "waiting"
        else:
            fill, note = GOODS_FILL[now.demand], f"{now.filled}/{now.slots}"
        with d.group(class_="city-row", title=_city_text(state, game_map, city.name)):
            d.circle(cx + 5, cy + 6, 5, fill=fill, stroke=PALETTE["ink"], stroke_width=0.6)
            d.text(cx + 14, cy + 10, fit(f"{city.name} {note}", 150, 11), size=11)
    return y + ((len(game_map.cities) + 1) // 2) * LINE


def _legend(d: Drawing, x: float, y: float) -> float:
    y = _title(d, x, y, "Legend")
    with d.group(class_="legend"):
        items: list[tuple[str, str]] = [
            (PALETTE["land"], "land"),
            (PALETTE["water"], "water"),
            (PALETTE["partial"], "partial hex (pass only)"),
        ]
        for i, (fill, label) in enumerate(items):
            lx = x + i * 95
            d.polygon(_corners(lx + 8, y + 8, 8), fill=fill, stroke=HEX_STROKE, class_="legend-hex")
            d.text(lx + 20, y + 12, label, size=10)
        y += LINE + 2
        d.line(x, y + 6, x + 18, y + 6, stroke=PALETTE["rail"], stroke_width=2.5)
        d.text(x + 22, y + 10, "rail line", size=10)
        d.circle(x + 86, y + 6, 6, fill=GOODS_FILL["food"], stroke=PALETTE["ink"])
        d.text(x + 96, y + 10, "city (demand)", size=10)
        d.rect(x + 174, y, 12, 12, fill=GOODS_FILL["machine"], stroke=PALETTE["ink"], rx=2)
        d.text(x + 190, y + 10, "factory (goods)", size=10)
        y += LINE + 2
        d.rect(x, y, 11, 11, fill=seat_colour(0), stroke=PALETTE["ink"])
        d.text(x + 16, y + 10, "depot (owner, stored)", size=10)
        d.circle(x + 146, y + 6, 6, fill=seat_colour(1), stroke=PALETTE["ink"])
        d.text(x + 156, y + 10, "airship (seat)", size=10)
        y += LINE + 2
        for i, goods in enumerate(GOODS):
            _swatch(d, x + i * 66, y, goods)
            d.text(x + i * 66 + 13, y + 9, goods, size=10)
    return y + LINE
