"""Plain-text pictures of a Kings of Air and Steam state (board, market,
players) and one-line action descriptions for logs and failure reports."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecraft.core import listed
from rulecraft.model.kings_of_air_and_steam.actions import (
    BuildDepot,
    BuildLine,
    ChooseDemandTile,
    Convert,
    CourseCorrection,
    DrawDemandPair,
    DrawDemandTile,
    DrawMarketTile,
    EndCargo,
    EndSellout,
    ExtraAction,
    ExtraFlight,
    Fly,
    Gamble,
    Grant,
    KasAction,
    Load,
    Pass,
    PayUpkeep,
    PlaceStartDepot,
    Plan,
    RemoveMarketTile,
    ReturnGood,
    Sell,
    ShipGoods,
    StartAirship,
    Steal,
    Swap,
    Unload,
    UpgradeAirship,
    UpgradeRail,
)
from rulecraft.model.kings_of_air_and_steam.components import GOODS
from rulecraft.model.kings_of_air_and_steam.hexgrid import DIRECTION_NAMES, Hex, path_hexes
from rulecraft.model.kings_of_air_and_steam.state import KasState

if TYPE_CHECKING:
    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame

SHORT = {"chemical": "c", "machine": "m", "food": "f", "textile": "t", "luxury": "x"}
LEGEND = (
    "legend: ~ partial hex, = rail (digit: depot owner), Cx city x demanding x, "
    "Fm2 factory making m with 2 goods, @n airship of seat n; goods c=chemical m=machine f=food t=textile x=luxury"
)


def goods_text(goods: tuple[int, ...]) -> str:
    return " ".join(f"{n}{SHORT[g]}" for g, n in zip(GOODS, goods, strict=True) if n) or "-"


def _cell(game: KingsOfAirAndSteamGame, state: KasState, at: Hex) -> str:
    game_map = game.ctx.map_of(state)
    mh = game_map.hexes[at]
    ships = "".join(str(s) for s, p in enumerate(state.players) if p.position == at)
    if mh.city is not None:
        city = state.cities[game_map.city_index(mh.city)]
        demand = "#" if city.closed else ("?" if city.waiting or city.demand is None else SHORT[city.demand])
        text = f"C{mh.city[0]}{demand}"
    elif mh.factory is not None:
        index = game_map.factory_index(at)
        assert index is not None
        text = f"F{SHORT[mh.factory]}{state.factories[index]}"
    elif mh.rail is not None:
        depot = next((d for d in state.depots if d.at == at), None)
        text = f"={depot.owner}" if depot else "=="
    elif mh.partial:
        text = "~~"
    elif mh.water:
        text = "ww"
    else:
        text = ".."
    if ships:
        text += "@" + ships
    return text[:6]


def board_text(game: KingsOfAirAndSteamGame, state: KasState) -> str:
    """Hexes in axial rows (each row shifted half a cell), one cell per hex."""
    hexes = game.ctx.map_of(state).hexes
    qs = [h.q for h in hexes]
    rs = [h.r for h in hexes]
    lines = []
    for r in range(min(rs), max(rs) + 1):
        indent = " " * (3 * (r - min(rs)))
        cells = []
        for q in range(min(qs), max(qs) + 1):
            at = Hex(q, r)
            cells.append(f"{_cell(game, state, at):<6}" if at in hexes else " " * 6)
        lines.append((indent + "".join(cells)).rstrip())
    return "\n".join(line for line in lines if line.strip())


def text(game: KingsOfAirAndSteamGame, state: KasState) -> str:
    ctx = game.ctx
    game_map = ctx.map_of(state)
    prices = ctx.prices(state)
    out = [
        f"Kings of Air and Steam — round {state.round}, cycle {state.cycle}, phase {state.phase.value}, "
        f"seat {state.seat} to act; layout {state.layout}; start player {state.start_player}",
        "market: "
        + ", ".join(f"{g} ${p}" for g, p in zip(GOODS, prices, strict=True))
        + f"; future slots {listed(state.market_slots)}; draw pile {sum(state.market_pile)}"
        + f"; demand pile {sum(state.demand_pile)}",
        board_text(game, state),
        LEGEND,
        "cities: "
        + "; ".join(
            f"{c.name} {'closed' if s.closed else ('waiting' if s.waiting else f'{s.demand} {s.filled}/{s.slots}')}"
            for c, s in zip(game_map.cities, state.cities, strict=True)
        ),
    ]
    for seat, p in enumerate(state.players):
        depots = [d for d in state.depots if d.owner == seat]
        stored = " | ".join(f"{d.at}:{goods_text(d.goods)}" for d in depots if sum(d.goods))
        plan = (
            " ".join(f"{card}({status.value[0]})" for card, status in zip(p.plan, p.slots, strict=True))
            if p.plan
            else "-"
        )
        out.append(
            f"seat {seat}: ${p.money}, airship L{p.airship_level} "
            f"(rating {ctx.rating(p)}, capacity {ctx.capacity(p)}), "
            f"rail L{p.rail_level}, at {p.position}, hold {goods_text(p.hold)}, depots {len(depots)} "
            f"({stored or 'empty'}), plan {plan}"
        )
    return "\n".join(out)


def describe(game: KingsOfAirAndSteamGame, state: KasState, action: KasAction) -> str:
    who = f"seat {state.seat}"
    match action:
        case PlaceStartDepot(at=at):
            return f"{who} places a starting depot and the airship at {at}"
        case StartAirship(at=at):
            return f"{who} has no line left for a starting depot and places only the airship at {at} (KAS-AMB-29)"
        case RemoveMarketTile(goods=goods):
            return f"chance: a {goods} tile goes back to the box unseen (Uncertainty variant)"
        case DrawMarketTile(goods=goods):
            return f"chance: market tile {goods}"
        case DrawDemandTile(goods=goods):
            return f"chance: demand tile {goods} for {state.demand_for}"
        case Plan(card=card):
            return f"{who} plans a card for slot {len(state.players[state.seat].plan) + 1} ({card}, hidden)"
        case Fly(path=path, spare=spare):
            start = state.players[state.seat].position
            end = path_hexes(start, path)[-1] if path and start is not None else start
            steps = "-".join(DIRECTION_NAMES[d] for d in path) or "no move"
            spared = f", sparing seat {', '.join(map(str, spare))} (KAS-R-87)" if spare else ""
            return f"{who} flies {steps} to {end}{spared}"
        case Load(goods=goods, source=source):
            return f"{who} loads 1 {goods} from the {source}"
        case Swap(discard=discard, goods=goods, source=source):
            return f"{who} discards 1 {discard} to load 1 {goods} from the {source}"
        case Unload(goods=goods):
            return f"{who} unloads 1 {goods}"
        case EndCargo():
            return f"{who} is done loading"
        case BuildDepot(at=at):
            return f"{who} builds a depot at {at}"
        case UpgradeAirship():
            return f"{who} upgrades the airship"
        case UpgradeRail():
            return f"{who} upgrades the rail"
        case ShipGoods(origin=origin, goods=goods, count=count, to_city=city, to_depot=depot, payees=payees):
            where = city if city is not None else f"own depot {depot}"
            tolls = f", tolls to {[p for _, p in payees]}" if payees else ""
            extra = ""
            if action.returned:
                extra += ", one good back to the supply (Bishop Kingston)"
            if action.swindle:
                extra += f", one of them {action.swindle} (Corey McQueen's swindle)"
                if action.swindle_from is not None:  # KAS-AMB-39 'any-depot'
                    extra += f" from his depot at {action.swindle_from}"
            if action.bet:
                extra += f", betting ${action.bet} (Sebastian King)"
            return f"{who} ships {count} {goods} from {origin} to {where}{tolls}{extra}"
        case CourseCorrection(direction=d):
            return f"{who} corrects course {DIRECTION_NAMES[d]}"
        case Grant():
            return f"{who} takes the $3 grant"
        case ReturnGood(goods=goods, at=at):
            return f"{who} returns 1 {goods} from {'the hold' if at is None else at}"
        case PayUpkeep():
            return f"{who} pays upkeep"
        case Sell(origin=origin, goods=goods, to_city=city, returned=returned, bet=bet):
            power = f", betting ${bet}" if bet else (", the good back to the supply" if returned else "")
            return f"{who} sells 1 {goods} from {origin} (shippable to {city}){power}"
        case EndSellout():
            return f"{who} ends the sellout"
        case Convert(goods=goods, into=into, at=at):
            return f"{who} converts 1 {goods} into 2 {into} ({'hold' if at is None else at})"
        case Steal(victim=victim, goods=goods, at=at, discard=discard):
            first = f"discards 1 {discard}, then " if discard else ""
            return f"{who} {first}steals 1 {goods} from seat {victim}'s {'hold' if at is None else 'depot'}"
        case Gamble(win=win, turned=turned):
            shown = f" ({', '.join(turned)} turned up and used up)" if turned else ""
            return f"chance: Sebastian King's tokens {'show' if win else 'miss'} the goods{shown}"
        case DrawDemandPair(first=first, second=second):
            return f"chance: Flora Kingston draws the demand tiles {first} and {second}"
        case ChooseDemandTile(goods=goods):
            return f"seat {state.decider} (Flora Kingston) gives {state.demand_for} the {goods} tile"
        case BuildLine(ends=ends, hexes=hexes, depot=depot):
            return f"{who} lays a new line {ends[0]}-{ends[1]} over {len(hexes)} hexes, depot at {depot} (Eva Blane)"
        case ExtraFlight(card=card):
            return f"{who} flies the extra card {card} face up (Eli Diamond)"
        case ExtraAction():
            return f"{who} spends a token for another action"
        case Pass():
            return f"{who} passes"
