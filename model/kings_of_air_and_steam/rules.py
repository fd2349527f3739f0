"""Kings of Air and Steam legality: one named condition per rule, each
returning a Rejection (rule ID + plain words) or None.  Effects live in
transitions.py; flight geometry in flight.py; shipping in shipping.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import attrs

from rulecraft.core import Rejection, all_rejections
from rulecraft.model.kings_of_air_and_steam import flight, shipping
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
from rulecraft.model.kings_of_air_and_steam.catalogue import RULES
from rulecraft.model.kings_of_air_and_steam.components import GOODS, GOODS_INDEX, Card, GameMap
from rulecraft.model.kings_of_air_and_steam.context import Context
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, path_hexes
from rulecraft.model.kings_of_air_and_steam.state import (
    CargoStep,
    Depot,
    Goods,
    KasState,
    Phase,
    PlayerState,
    SlotStatus,
)

reject = RULES.reject

_PHASE_OF: dict[type, tuple[Phase, ...]] = {
    PlaceStartDepot: (Phase.START_DEPOTS,),
    StartAirship: (Phase.START_DEPOTS,),
    DrawMarketTile: (Phase.NEW_MARKET,),
    DrawDemandTile: (Phase.DEMAND_DRAW,),
    Plan: (Phase.PLANNING,),
    Fly: (Phase.FLIGHT,),
    Load: (Phase.CARGO,),
    Swap: (Phase.CARGO,),
    Unload: (Phase.CARGO,),
    EndCargo: (Phase.CARGO,),
    BuildDepot: (Phase.ACTION,),
    UpgradeAirship: (Phase.ACTION,),
    UpgradeRail: (Phase.ACTION,),
    ShipGoods: (Phase.ACTION, Phase.BONUS),
    CourseCorrection: (Phase.ACTION,),
    Grant: (Phase.ACTION,),
    ReturnGood: (Phase.UPKEEP,),
    PayUpkeep: (Phase.UPKEEP,),
    Sell: (Phase.SELLOUT,),
    EndSellout: (Phase.SELLOUT,),
    Convert: (Phase.ACTION,),
    Steal: (Phase.BONUS,),
    ExtraAction: (Phase.BONUS,),
    Pass: (Phase.BONUS, Phase.ACTION),  # in the action phase only under KAS-AMB-19 'pass-allowed'
    Gamble: (Phase.GAMBLE,),
    DrawDemandPair: (Phase.DEMAND_PAIR,),
    ChooseDemandTile: (Phase.DEMAND_CHOICE,),
    ExtraFlight: (Phase.ACTION,),
    BuildLine: (Phase.ACTION,),
    RemoveMarketTile: (Phase.REMOVE_TILES,),
}
_PHASE_RULE: dict[Phase, str] = {
    Phase.REMOVE_TILES: "KAS-R-06",
    Phase.START_DEPOTS: "KAS-R-07",
    Phase.NEW_MARKET: "KAS-R-15",
    Phase.PLANNING: "KAS-R-19",
    Phase.FLIGHT: "KAS-R-26",
    Phase.CARGO: "KAS-R-28",
    Phase.ACTION: "KAS-R-32",
    Phase.DEMAND_DRAW: "KAS-R-40",
    Phase.GAMBLE: "KAS-R-78",
    Phase.DEMAND_PAIR: "KAS-R-74",
    Phase.DEMAND_CHOICE: "KAS-R-74",
    Phase.BONUS: "KAS-R-57",
    Phase.UPKEEP: "KAS-R-45",
    Phase.SELLOUT: "KAS-R-51",
    Phase.OVER: "KAS-R-52",
}


def phase_rejection(state: KasState, action: KasAction) -> Rejection | None:
    allowed = _PHASE_OF.get(type(action))
    if allowed is None:
        return reject("KAS-R-24", f"{action!r} is not a Kings of Air and Steam action")
    if state.phase in allowed:
        return None
    if isinstance(action, Plan) and state.phase is not Phase.START_DEPOTS:
        return reject("KAS-R-20", "the plan is locked: no card is planned or exchanged outside the planning phase")
    if state.phase is Phase.OVER:
        return reject("KAS-R-52", "the game is over")
    return reject(
        _PHASE_RULE[state.phase], f"a {action.kind} is not possible now: the game waits for {state.phase.value}"
    )


# -- helpers ----------------------------------------------------------------------------------


def depot_at(state: KasState, at: Hex) -> Depot | None:
    for depot in state.depots:
        if depot.at == at:
            return depot
    return None


def own_depot_at(state: KasState, seat: int, at: Hex | None) -> Depot | None:
    if at is None:
        return None
    depot = depot_at(state, at)
    return depot if depot is not None and depot.owner == seat else None


def current_card(ctx: Context, state: KasState) -> Card:
    """The card being flown: this cycle's planned card, or Eli Diamond's extra card (KAS-R-83)."""
    if state.flying is not None:
        return ctx.pack.card(state.flying)
    player = state.players[state.seat]
    return ctx.pack.card(player.plan[state.cycle - 1])


def diamonds_in_play(ctx: Context, player: PlayerState) -> int:
    """KAS-R-25 / KAS-AMB-05: diamonds of this round's executed (slid) cards and of
    Eli Diamond's face-up cards (KAS-R-83); under 'counted' those of cards lost to
    the diamond check as well."""
    counting = {SlotStatus.EXECUTED}
    if ctx.r("KAS-AMB-05") == "counted":
        counting.add(SlotStatus.RETURNED)
    played = sum(
        ctx.pack.card(card).diamonds
        for card, status in zip(player.plan, player.slots, strict=True)
        if status in counting
    )
    return played + sum(ctx.pack.card(card).diamonds for card in player.extra_cards)


def eli_cards(ctx: Context, state: KasState) -> tuple[str, ...]:
    """KAS-AMB-41: any card in Eli Diamond's deck: not planned (a returned card is back), not yet face up;
    under 'unreturned' a card returned by a diamond overflow this round is not playable either."""
    player = state.players[state.seat]
    back = ctx.r("KAS-AMB-41") == "any-deck"
    away = {c for c, st in zip(player.plan, player.slots, strict=True) if not (back and st is SlotStatus.RETURNED)}
    return tuple(c for c in deck_of(ctx, player) if c not in away and c not in player.extra_cards)


def extra_flight_problem(ctx: Context, state: KasState, card: str) -> Rejection | None:
    """KAS-R-83: as the action, a card from the deck flown at once, within the diamond rating."""
    player = state.players[state.seat]
    if player.character != "Eli Diamond":
        return reject("KAS-R-83", "only Eli Diamond flies an extra card as his action")
    if card not in eli_cards(ctx, state):
        return reject("KAS-R-83", f"{card} is not in the deck (planned cards and face-up cards are not)")
    current = ctx.pack.card(player.plan[state.cycle - 1]).diamonds
    total = diamonds_in_play(ctx, player) + current + ctx.pack.card(card).diamonds
    if total > ctx.rating(player):
        return reject("KAS-R-83", f"its diamonds would make {total} in play with a rating of {ctx.rating(player)}")
    return None


def line_problem(ctx: Context, state: KasState, action: BuildLine) -> Rejection | None:
    """KAS-R-71 (KAS-AMB-34): a contiguous path of track tiles from one city to another,
    on full hexes that hold no rail, city or factory; $1 a tile; a free depot on it."""
    player = state.players[state.seat]
    game_map = ctx.map_of(state)
    tiles = len(action.hexes)
    if player.character != "Eva Blane":
        return reject("KAS-R-71", "only Eva Blane builds new rail lines")
    if tiles < 1 or tiles > player.tokens:
        return reject("KAS-R-71", f"{tiles} track tiles needed; {player.tokens} left (5 for the game, KAS-AMB-34)")
    if player.money < tiles:
        return reject("KAS-R-55", f"the tiles cost ${tiles}; you have ${player.money}")
    if player.depots_left < 1:
        return reject("KAS-R-71", "the free depot needs a depot token, and all 10 are on the board")
    names = {c.name: c for c in game_map.cities}
    a, b = action.ends
    if a not in names or b not in names or a == b:
        return reject("KAS-R-71", f"a rail line joins two different cities of the map, not {a!r} and {b!r}")
    if len(set(action.hexes)) != tiles:
        return reject("KAS-R-71", "a hex takes one track tile")
    strict = ctx.r("KAS-AMB-34") == "strict"
    if strict and any(set(ln.ends) == {a, b} for ln in game_map.lines):
        return reject("KAS-R-71", f"{a} and {b} are already joined by a rail line (KAS-AMB-34 'strict')")
    for at in action.hexes:
        mh = game_map.hexes.get(at)
        if mh is None or mh.partial:
            return reject("KAS-R-71", f"{at} is not a full hex of the play area")
        if mh.rail is not None or mh.city is not None or mh.factory is not None:
            return reject("KAS-R-71", f"track tiles never go on rail, city or factory hexes: {at}")
        if strict and mh.water:
            return reject("KAS-R-71", f"track tiles never go on water: {at} (KAS-AMB-34 'strict')")
    path = (names[a].at, *action.hexes, names[b].at)
    for here, there in itertools.pairwise(path):
        if here.distance(there) != 1:
            return reject("KAS-R-71", f"the track must join up: {here} and {there} are not neighbours")
    if action.depot not in action.hexes:
        return reject("KAS-R-71", f"the free depot goes on the new line, not at {action.depot}")
    return None


def choose_demand_problem(state: KasState, goods: str) -> Rejection | None:
    """KAS-R-74: a tile of the two drawn, or any tile of the pile when Flora filled the city."""
    if goods not in GOODS_INDEX or state.demand_pile[GOODS_INDEX[goods]] < 1:
        return reject("KAS-R-74", f"no {goods} tile is in the demand pile")
    if state.demand_choices and goods not in state.demand_choices:
        return reject("KAS-R-74", f"the tiles drawn are {' and '.join(state.demand_choices)}")
    return None


def factory_here(ctx: Context, state: KasState, at: Hex | None) -> tuple[int, str] | None:
    if at is None:
        return None
    game_map = ctx.map_of(state)
    index = game_map.factory_index(at)
    if index is None:
        return None
    return index, game_map.factories[index][1]


def line_has_depot(state: KasState, ctx: Context, line: str) -> bool:
    return line in ctx.depot_lines(state)


def depot_cost(ctx: Context, state: KasState, at: Hex) -> int:
    """KAS-R-33: $4 on a line with no depot yet, $7 when it has one; KAS-R-70:
    Victor Blane pays $1 less."""
    line = ctx.map_of(state).line_of(at)
    assert line is not None
    cost = ctx.p("depot_cost_more") if line_has_depot(state, ctx, line) else ctx.p("depot_cost_first")
    return max(0, cost - 1) if state.players[state.seat].character == "Victor Blane" else cost


def partial_refused(ctx: Context, state: KasState, at: Hex) -> bool:
    """KAS-AMB-23 'full-hexes': partial edge rail hexes take no depot."""
    mh = ctx.map_of(state).hexes.get(at)
    return ctx.r("KAS-AMB-23") == "full-hexes" and mh is not None and mh.partial


# -- set-up -------------------------------------------------------------------------------------


def start_depot_problem(ctx: Context, state: KasState, at: Hex) -> Rejection | None:
    """KAS-R-07 (KAS-AMB-29): an empty rail hex of a line without another player's depot."""
    game_map = ctx.map_of(state)
    line = game_map.line_of(at)
    if line is None:
        return reject("KAS-R-07", f"{at} is not a rail hex")
    if depot_at(state, at) is not None:
        return reject("KAS-R-54", f"{at} already holds a depot: one per rail hex")
    if partial_refused(ctx, state, at):
        return reject("KAS-R-07", f"{at} is a partial edge hex: no depot there (KAS-AMB-23 'full-hexes')")
    strict = ctx.r("KAS-AMB-29") == "strict"  # no fallback: the restriction always stays
    if state.bonus == "second-depot":  # KAS-R-62: a line with no depot yet (KAS-AMB-29 fallbacks)
        empty = [ln.id for ln in game_map.lines if not line_has_depot(state, ctx, ln.id)]
        if empty and line not in empty:
            return reject("KAS-R-62", f"Harvey Golding's second depot goes on a line with no depot; {line} has one")
        if empty:
            return None
        if strict:
            return reject("KAS-R-62", "no line without a depot is left for Harvey Golding's second depot (KAS-AMB-29)")
    if _line_taken(ctx, state, line, state.seat) and (strict or _free_line_exists(ctx, state, state.seat)):
        return reject(
            "KAS-R-07", f"line {line} already holds another player's depot; at set-up each takes a line of their own"
        )
    return None


def start_airship_problem(ctx: Context, state: KasState, at: Hex) -> Rejection | None:
    """KAS-AMB-29 'strict': only a player with no qualifying line places the airship alone, on an
    empty rail hex (p.6 step D's hex, without the depot)."""
    if ctx.r("KAS-AMB-29") != "strict":
        return reject("KAS-R-07", "the airship starts on the starting depot's hex (KAS-AMB-29 'relax' always has one)")
    if state.bonus == "second-depot":
        return reject("KAS-R-62", "Harvey Golding's airship is already on his first depot")
    game_map = ctx.map_of(state)
    if game_map.line_of(at) is None:
        return reject("KAS-R-07", f"{at} is not a rail hex")
    if depot_at(state, at) is not None:
        return reject("KAS-R-07", f"{at} holds a depot: the airship goes on an empty rail hex")
    if partial_refused(ctx, state, at):
        return reject("KAS-R-07", f"{at} is a partial edge hex (KAS-AMB-23 'full-hexes')")
    if _free_line_exists(ctx, state, state.seat):
        return reject("KAS-R-07", "a line without another player's depot has an empty hex: place the starting depot")
    return None


def _line_taken(ctx: Context, state: KasState, line: str, seat: int) -> bool:
    game_map = ctx.map_of(state)
    return any(game_map.line_of(d.at) == line and d.owner != seat for d in state.depots)


def _free_line_exists(ctx: Context, state: KasState, seat: int) -> bool:
    """A line holding no other player's depot (``_line_taken``, asked once for all lines) has an empty hex."""
    game_map = ctx.map_of(state)
    occupied = {d.at for d in state.depots}
    taken = {game_map.line_of(d.at) for d in state.depots if d.owner != seat}
    return any(ln.id not in taken and any(h not in occupied for h in ln.hexes) for ln in game_map.lines)


# -- planning -------------------------------------------------------------------------------------


def plan_problem(ctx: Context, state: KasState, action: Plan) -> Rejection | None:
    player = state.players[state.seat]
    if action.card not in deck_of(ctx, player):
        return reject("KAS-R-19", f"{action.card} is not a card of this deck")
    if action.card in player.plan:
        return reject("KAS-R-19", f"{action.card} is already planned for slot {player.plan.index(action.card) + 1}")
    return None


def deck_of(ctx: Context, player: PlayerState) -> tuple[str, ...]:
    """KAS-R-02: the 12 standard cards; KAS-R-08: plus the team's special card."""
    standard = ctx.pack.deck_ids
    if player.team is None:
        return standard
    return (*standard, ctx.pack.team(player.team).special.id)


# -- flight and cargo --------------------------------------------------------------------------------


def flight_rules(ctx: Context, state: KasState | None = None) -> flight.FlightRules:
    """The readings' turn rules; DaVinci's card flies straight (KAS-R-65);
    Clint Castle may turn sharply (KAS-R-82)."""
    if state is None or state.phase not in (Phase.FLIGHT, Phase.CARGO, Phase.ACTION, Phase.BONUS):
        return ctx.flight_rules()
    player = state.players[state.seat]
    straight = bool(player.plan) and current_card(ctx, state).special == "straight"
    return ctx.flight_rules(sharp_ok=player.character == "Clint Castle", straight_only=straight)


def flight_setting(ctx: Context, state: KasState) -> tuple[Card, tuple[int, ...], GameMap, flight.FlightRules]:
    """What every flight of ``state`` is judged against: the card flown, the distances it may fly
    (``moves_of``), the play area and the turn rules (``flight_rules``)."""
    card = current_card(ctx, state)
    return card, moves_of(ctx, card), ctx.map_of(state), flight_rules(ctx, state)


def fly_problem(ctx: Context, state: KasState, action: Fly) -> Rejection | None:
    player = state.players[state.seat]
    assert player.position is not None
    card, moves, game_map, rules = ctx.of_state(state, flight_setting)  # once for all of a state's flights
    length = len(action.path)
    if not moves:
        return reject("KAS-R-61", f"{card.id} has no movement step: the Emperor card skips the whole movement step")
    if length not in moves:
        wanted = " or ".join(map(str, moves))
        reading = ctx.r("KAS-AMB-04")
        stuck = (length == 0 or reading == "c") and flight_stuck(ctx, state)
        if stuck and reading in ("a", "b") and length == 0:
            return None  # KAS-AMB-04 'a': the airship stays; 'b': the turn is lost (transitions)
        if stuck and reading == "c":
            farthest = farthest_flight(ctx, state)
            if length != farthest:
                return reject("KAS-R-26", f"no flight of {wanted} exists: fly as far as legal, {farthest} hexes")
            if length == 0:
                return None  # not even one hex is legal: the airship stays
        else:
            return reject("KAS-R-26", f"{card.id} moves exactly {wanted} hexes; the flight has {length} steps")
    problem = flight.flight_problem(game_map, player.position, action.path, length, rules)
    if problem is not None:
        return reject(problem[0], problem[1])
    return spare_problem(ctx, state, action) if action.spare else None


def spare_problem(ctx: Context, state: KasState, action: Fly) -> Rejection | None:
    """KAS-R-87 (p.20): Ezekiel Crane MAY steal from each airship he passes, so he may let any of
    them go; nobody else robs, and he can spare only whom the flight passes."""
    player = state.players[state.seat]
    assert player.position is not None
    if player.character != "Ezekiel Crane":
        who = player.character or "this player"
        return reject("KAS-R-87", f"only Ezekiel Crane robs the airships he passes (p.20); {who} spares nobody")
    left = list(robbed_by(ctx, state, path_hexes(player.position, action.path)))
    for seat in action.spare:
        if seat not in left:
            return reject(
                "KAS-R-87", f"the flight does not pass seat {seat}'s airship (again): nothing to spare (p.20)"
            )
        left.remove(seat)
    return None


def robbed_by(ctx: Context, state: KasState, entered: tuple[Hex, ...]) -> tuple[int, ...]:
    """KAS-R-87 (KAS-AMB-43): every opponent whose airship is on an entered hex, once each;
    under 'no-end' the hex the flight ends on does not count; under 'repeat' a victim is robbed
    once per pass (a seat listed once for each time the flight enters its hex)."""
    reading = ctx.r("KAS-AMB-43")
    hexes = set(entered[:-1] if reading == "no-end" else entered)
    victims = tuple(seat for seat, p in enumerate(state.players) if seat != state.seat and p.position in hexes)
    if reading != "repeat":
        return victims
    return tuple(seat for seat in victims for _ in range(entered.count(state.players[seat].position)))


def card_moves(ctx: Context, state: KasState) -> tuple[int, ...]:
    """The distances the current card may fly (``moves_of`` the current card)."""
    return moves_of(ctx, current_card(ctx, state))


def moves_of(ctx: Context, card: Card) -> tuple[int, ...]:
    """The distances ``card`` may fly: its movement values; the Rose & Thorn card's flights are
    up to 2 each under KAS-AMB-35 'up-to'."""
    if card.special == "double-two" and ctx.r("KAS-AMB-35") == "up-to":
        return tuple(range(max(card.moves) + 1))
    return card.moves


def farthest_flight(ctx: Context, state: KasState) -> int:
    """KAS-AMB-04 'c': the longest flight shorter than the card's values that some legal path
    flies (0: the airship stays)."""
    player = state.players[state.seat]
    assert player.position is not None
    game_map = ctx.map_of(state)
    rules = flight_rules(ctx, state)
    for length in range(max(current_card(ctx, state).moves) - 1, 0, -1):
        if flight.endpoints(game_map, player.position, length, rules):
            return length
    return 0


def flight_stuck(ctx: Context, state: KasState) -> bool:
    """No legal flight of any of the card's values exists (KAS-AMB-04)."""
    player = state.players[state.seat]
    assert player.position is not None
    game_map = ctx.map_of(state)
    rules = flight_rules(ctx, state)
    return not any(flight.endpoints(game_map, player.position, m, rules) for m in card_moves(ctx, state))


def load_problem(ctx: Context, state: KasState, goods: str, source: str) -> Rejection | None:
    """KAS-R-29: from a factory here with goods, or an own depot here."""
    if goods not in GOODS_INDEX:
        return reject("KAS-R-29", f"{goods!r} is not a goods type")
    player = state.players[state.seat]
    g = GOODS_INDEX[goods]
    if source == "factory":
        found = factory_here(ctx, state, player.position)
        if found is None:
            return reject("KAS-R-29", f"no factory at {player.position}")
        index, kind = found
        if kind != goods:
            return reject("KAS-R-29", f"the factory at {player.position} makes {kind}, not {goods}")
        if state.factories[index] < 1:
            return reject("KAS-R-29", f"the {kind} factory at {player.position} is empty")
        return None
    if source == "depot":
        depot = own_depot_at(state, state.seat, player.position)
        if depot is None:
            return reject(
                "KAS-R-29", f"no depot of yours at {player.position} (loading from an opponent's depot is not allowed)"
            )
        if depot.goods[g] < 1:
            return reject("KAS-R-29", f"your depot at {player.position} holds no {goods}")
        return None
    return reject("KAS-R-29", f"goods are loaded from a factory or an own depot, not {source!r}")


def source_problem(ctx: Context, step: CargoStep, source: str) -> Rejection | None:
    """KAS-AMB-22 'one-source': a loading step takes goods from one source only."""
    if ctx.r("KAS-AMB-22") == "one-source" and step.source not in (None, source):
        return reject("KAS-R-29", f"this loading step loads from the {step.source} only (KAS-AMB-22 'one-source')")
    return None


def cargo_problem(ctx: Context, state: KasState, action: KasAction) -> Rejection | None:
    player = state.players[state.seat]
    step = state.cargo
    assert step is not None
    capacity = ctx.capacity(player)
    held = sum(player.hold)
    # KAS-AMB-21 'any-swap': any good may go back to load one of another type, room or not.
    any_swap = ctx.r("KAS-AMB-21") == "any-swap"
    if isinstance(action, Load | Swap):
        problem = load_problem(ctx, state, action.goods, action.source) or source_problem(ctx, step, action.source)
        if problem:
            return problem
    if isinstance(action, Load):
        if held >= capacity:
            return reject("KAS-R-29", f"the hold is full ({held} of {capacity}); swap a good of another type instead")
        if action.goods in step.discarded and not any_swap:
            return reject("KAS-R-30", f"{action.goods} was discarded in this step and cannot be loaded again")
        return None
    if isinstance(action, Swap):
        if action.discard not in GOODS_INDEX or player.hold[GOODS_INDEX[action.discard]] < 1:
            return reject("KAS-R-30", f"no {action.discard} in the hold to discard")
        if held < capacity and not any_swap:
            return reject(
                "KAS-R-30", f"the hold has room ({held} of {capacity}): goods are discarded only to make room"
            )
        if action.discard == action.goods:
            return reject("KAS-R-30", "a good is discarded only to load a good of a different type")
        if held > capacity:  # only after a conversion beyond capacity (KAS-AMB-44 'ignore-capacity')
            return reject("KAS-R-29", f"the hold holds {held} of {capacity}: one discard still leaves no room")
        if (action.discard in step.loaded or action.goods in step.discarded) and not any_swap:
            return reject("KAS-R-30", "a type loaded in this step cannot be discarded in it, and back (KAS-AMB-21)")
        return None
    if isinstance(action, Unload):
        if own_depot_at(state, state.seat, player.position) is None:
            return reject("KAS-R-31", f"no depot of yours at {player.position} to unload onto")
        if action.goods not in GOODS_INDEX or player.hold[GOODS_INDEX[action.goods]] < 1:
            return reject("KAS-R-31", f"no {action.goods} in the hold")
        return None
    return None  # EndCargo is always possible


# -- actions -----------------------------------------------------------------------------------------


def build_problem(ctx: Context, state: KasState, at: Hex) -> Rejection | None:
    player = state.players[state.seat]
    game_map = ctx.map_of(state)
    if player.depots_left < 1:
        return reject("KAS-R-33", "all 10 depots are on the board")
    if game_map.line_of(at) is None:
        return reject("KAS-R-33", f"{at} is not a rail hex")
    if depot_at(state, at) is not None:
        return reject("KAS-R-54", f"{at} already holds a depot: one per rail hex")
    if partial_refused(ctx, state, at):
        return reject("KAS-R-33", f"{at} is a partial edge hex: no depot there (KAS-AMB-23 'full-hexes')")
    cost = depot_cost(ctx, state, at)
    if player.money < cost:
        return reject("KAS-R-55", f"the depot costs ${cost}; you have ${player.money}")
    return None


def upgrade_problem(ctx: Context, state: KasState, track: str) -> Rejection | None:
    player = state.players[state.seat]
    if track == "airship":
        levels, level, rule = ctx.pack.airship_track, player.airship_level, "KAS-R-34"
        cost = levels[level].cost if level < len(levels) else 0
    else:
        levels_r, level, rule = ctx.pack.rail_track, player.rail_level, "KAS-R-35"
        cost = levels_r[level].cost if level < len(levels_r) else 0
        levels = levels_r  # type: ignore[assignment]
    if level >= len(levels):
        return reject(rule, f"the {track} track is fully upgraded (level {level})")
    if player.money < cost:
        return reject("KAS-R-55", f"level {level + 1} costs ${cost}; you have ${player.money}")
    return None


def ship_problem(ctx: Context, state: KasState, action: ShipGoods) -> Rejection | None:
    if state.phase is Phase.BONUS:
        if state.bonus != "ship-one":
            return reject("KAS-R-32", "shipping now needs the Sphinx card's free shipment")
        if action.count != 1 and ctx.r("KAS-AMB-33") == "a":
            return reject("KAS-R-69", f"the Sphinx card ships one good (KAS-AMB-33); {action.count} requested")
    problem = shipping_adapter_problem(ctx, state, action)
    return reject(problem[0], problem[1]) if problem else None


def delivery_power_problem(ctx: Context, state: KasState, action: ShipGoods) -> tuple[str, str] | None:
    """KAS-R-75, KAS-R-78, KAS-R-79: the characters' delivery powers, each only for its character."""
    player = state.players[state.seat]
    to_city = action.to_city is not None
    if action.returned and (player.character != "Bishop Kingston" or not to_city or action.count < 1):
        return ("KAS-R-75", "only Bishop Kingston puts a delivered good back, on a delivery to a city")
    if action.bet:
        if player.character != "Sebastian King" or not to_city:
            return ("KAS-R-78", "only Sebastian King bets, on a delivery to a city")
        if not 1 <= action.bet <= 3:
            return ("KAS-R-78", f"the bet is $1 to $3; ${action.bet} requested")
        if player.money < action.bet:
            return ("KAS-R-78", f"the bet is paid first; ${action.bet} bet with ${player.money}")
        if ctx.r("KAS-AMB-38") == "spent" and action.bet > player.tokens:
            # One token is turned up per dollar, and used-up tokens are gone.
            return ("KAS-R-78", f"a ${action.bet} bet turns up {action.bet} tokens; {player.tokens} left (KAS-AMB-38)")
    if action.swindle is None and action.swindle_from is not None:
        return ("KAS-R-79", "a depot for the swindled good, but no swindled good")
    if action.swindle is not None:
        if player.character != "Corey McQueen" or not to_city:
            return ("KAS-R-79", "only Corey McQueen swindles, on a delivery to a city")
        if player.tokens < 1:
            return ("KAS-R-79", "no swindler token is left")
        if action.swindle not in GOODS_INDEX or action.swindle == action.goods or action.count < 2:
            return ("KAS-R-79", "one good of another type goes with at least one good of the demanded type")
        source = action.origin if action.swindle_from is None else action.swindle_from
        if source != action.origin and ctx.r("KAS-AMB-39") != "any-depot":
            return ("KAS-R-79", "the swindled good goes in the shipment from its own depot (KAS-AMB-39)")
        depot = own_depot_at(state, state.seat, source)  # 'any-depot': any depot of his; the route stays
        if depot is None or depot.goods[GOODS_INDEX[action.swindle]] < 1:
            return ("KAS-R-79", f"no {action.swindle} in a depot of yours at {source} to slip in (KAS-AMB-39)")
    return None


def _plus_one(goods: Goods, g: int) -> Goods:
    out = list(goods)
    out[g] += 1
    return (out[0], out[1], out[2], out[3], out[4])


def all_of_type_problem(ctx: Context, state: KasState, action: ShipGoods) -> tuple[str, str] | None:
    """KAS-AMB-18 'all-of-type': a shipment takes every good of its type in the depot."""
    depot = own_depot_at(state, state.seat, action.origin)
    if ctx.r("KAS-AMB-18") != "all-of-type" or depot is None or action.goods not in GOODS_INDEX:
        return None
    held = depot.goods[GOODS_INDEX[action.goods]]
    demanded = action.count - (1 if action.swindle is not None else 0)  # Corey's off-type good rides along
    if demanded != held:
        return ("KAS-R-36", f"a shipment takes all {held} {action.goods} of the depot (KAS-AMB-18); {demanded} named")
    return None


def shipping_adapter_problem(ctx: Context, state: KasState, action: ShipGoods) -> tuple[str, str] | None:
    power = delivery_power_problem(ctx, state, action) or all_of_type_problem(ctx, state, action)
    if power is not None:
        return power
    player = state.players[state.seat]
    depots = state.depots
    if action.swindle is not None:
        # The swindled good counts as one of the demanded type for the route, room, income and tolls.
        g = GOODS_INDEX[action.goods]
        depots = tuple(attrs.evolve(d, goods=_plus_one(d.goods, g)) if d.at == action.origin else d for d in depots)
    return shipping.shipment_problem(
        ctx.map_of(state),
        depots,
        state.cities,
        state.seat,
        player.money - action.bet,  # KAS-AMB-17: the bet is paid before the income
        ctx.prices(state),
        player.rail_level,
        action.origin,
        action.goods,
        action.count,
        shipping.Destination.city(action.to_city)
        if action.to_city is not None
        else shipping.Destination.depot(action.to_depot)
        if action.to_depot is not None
        else None,
        action.lines,
        action.payees,
        no_tolls=ctx.no_tolls(player),
        rules=ctx.route_rules(),
        room_for=action.count - 1 if action.returned and ctx.r("KAS-AMB-37") == "placed" else None,
    )


def course_problem(ctx: Context, state: KasState, direction: int) -> Rejection | None:
    player = state.players[state.seat]
    assert player.position is not None
    problem = flight.course_correction_problem(ctx.map_of(state), player.position, direction)
    return reject(problem[0], problem[1]) if problem else None


# -- upkeep and sellout -----------------------------------------------------------------------------


def goods_held(state: KasState, seat: int) -> int:
    player = state.players[seat]
    return sum(player.hold) + sum(sum(d.goods) for d in state.depots if d.owner == seat)


def return_problem(state: KasState, action: ReturnGood) -> Rejection | None:
    if action.goods not in GOODS_INDEX:
        return reject("KAS-R-45", f"{action.goods!r} is not a goods type")
    g = GOODS_INDEX[action.goods]
    if action.at is None:
        if state.players[state.seat].hold[g] < 1:
            return reject("KAS-R-45", f"no {action.goods} in the hold")
        return None
    depot = own_depot_at(state, state.seat, action.at)
    if depot is None or depot.goods[g] < 1:
        return reject("KAS-R-45", f"no {action.goods} in a depot of yours at {action.at}")
    return None


def pay_problem(state: KasState) -> Rejection | None:
    owed = goods_held(state, state.seat)
    money = state.players[state.seat].money
    if money < owed:
        return reject("KAS-R-45", f"storage costs ${owed} for {owed} goods; you have ${money}: return goods first")
    return None


def sell_problem(ctx: Context, state: KasState, action: Sell) -> Rejection | None:
    player = state.players[state.seat]
    if ctx.r("KAS-AMB-30") == "simultaneous":  # tolls received from other sellers are paid out after all
        # sales (p.5, 17): a sale's toll and bet are judged without them (the seller's own $4s still count).
        player = attrs.evolve(player, money=player.money - player.sellout_tolls)
        players = list(state.players)
        players[state.seat] = player
        state = attrs.evolve(state, players=tuple(players))
    depot = own_depot_at(state, state.seat, action.origin)
    if depot is None or action.goods not in GOODS_INDEX or depot.goods[GOODS_INDEX[action.goods]] < 1:
        return reject("KAS-R-51", f"no {action.goods} in a depot of yours at {action.origin}")
    options = shipping.sellout_options(
        ctx.map_of(state),
        state.depots,
        state.cities,
        state.seat,
        player.rail_level,
        action.origin,
        action.goods,
        no_tolls=ctx.no_tolls(player, sellout=True),  # KAS-AMB-26: Thaddeus Birch's power in the sellout
        rules=ctx.route_rules(),
    )
    if action.returned or action.bet:
        problem = sellout_power_problem(ctx, state, action)
        if problem is not None:
            return problem
    for route in options:
        same_lines = action.lines is None or action.lines in (route.lines, route.after_origin)
        same_payees = action.payees is None or action.payees == route.payees
        if route.destination.name == action.to_city and same_lines and same_payees:
            purse = player.money - action.bet  # KAS-R-78: a bet is paid first
            if route.toll_per_good > purse + 4:  # the toll is paid from the $4 and the purse
                return reject("KAS-R-55", f"the toll ${route.toll_per_good} exceeds $4 plus your ${purse}")
            return None
    return reject(
        "KAS-R-51", f"no {action.goods} could be shipped to {action.to_city} that way (route, depots, stops, tolls)"
    )


def sellout_power_problem(ctx: Context, state: KasState, action: Sell) -> Rejection | None:
    """KAS-AMB-26 'all': a sale is a delivery of one good to the city (p.16), so Bishop Kingston's
    and Sebastian King's delivery powers (p.19) hold as on any delivery; not under the other readings."""
    if ctx.r("KAS-AMB-26") != "all":
        return reject(
            "KAS-R-51", "a Sellout sale returns the good to the supply for $4: no delivery power (KAS-AMB-26)"
        )
    problem = delivery_power_problem(ctx, state, action.as_delivery())
    return reject(problem[0], problem[1]) if problem else None


# -- the advanced game ---------------------------------------------------------------------------


def convert_problem(ctx: Context, state: KasState, action: Convert) -> Rejection | None:
    """KAS-R-66: Aurelia Bayley turns 1 good into 2 of one other type (KAS-AMB-44)."""
    player = state.players[state.seat]
    if player.character != "Aurelia Bayley":
        return reject("KAS-R-66", "only Aurelia Bayley converts goods")
    if player.tokens < 1:
        return reject("KAS-R-66", "no converter token is left")
    if action.goods not in GOODS_INDEX or action.into not in GOODS_INDEX or action.goods == action.into:
        return reject("KAS-R-66", "1 good becomes 2 goods of one other type")
    g = GOODS_INDEX[action.goods]
    if action.at is None:
        if player.hold[g] < 1:
            return reject("KAS-R-66", f"no {action.goods} in the hold")
        # KAS-AMB-44 'ignore-capacity': the hold may exceed capacity after a conversion.
        if ctx.r("KAS-AMB-44") == "capacity" and sum(player.hold) + 1 > ctx.capacity(player):
            return reject("KAS-R-29", "the hold has no room for the second good (KAS-AMB-44)")
    else:
        depot = own_depot_at(state, state.seat, action.at)
        if depot is None or depot.goods[g] < 1:
            return reject("KAS-R-66", f"no {action.goods} in a depot of yours at {action.at}")
    if state.supply[GOODS_INDEX[action.into]] < 2:
        return reject("KAS-R-66", f"the supply has fewer than 2 {action.into} (KAS-AMB-12)")
    return None


def steal_problem(ctx: Context, state: KasState, action: Steal) -> Rejection | None:
    """KAS-R-85 (KAS-AMB-42): one good from an opponent's depot or hold on this hex."""
    if state.bonus != "steal":
        return reject("KAS-R-85", "stealing needs the Godfather card, after its movement step")
    player = state.players[state.seat]
    if not 0 <= action.victim < state.player_count or action.victim == state.seat:
        return reject("KAS-R-85", f"seat {action.victim} is not an opponent")
    if action.goods not in GOODS_INDEX:
        return reject("KAS-R-85", f"{action.goods!r} is not a goods type")
    g = GOODS_INDEX[action.goods]
    victim = state.players[action.victim]
    if action.at is None:
        if victim.position != player.position or victim.hold[g] < 1:
            return reject("KAS-R-85", f"seat {action.victim}'s airship is not here with a {action.goods}")
    elif ctx.r("KAS-AMB-42") == "hold-only":
        return reject("KAS-R-85", "the Godfather card steals only from an opponent's hold (KAS-AMB-42 'hold-only')")
    else:
        depot = depot_at(state, action.at)
        if action.at != player.position or depot is None or depot.owner != action.victim or depot.goods[g] < 1:
            return reject("KAS-R-85", f"no {action.goods} in a depot of seat {action.victim} on this hex")
    if sum(player.hold) > ctx.capacity(player):  # over capacity only by KAS-AMB-44 'ignore-capacity'
        return reject("KAS-R-29", "the hold is over capacity: one discard still leaves no room for the good")
    full = sum(player.hold) >= ctx.capacity(player)
    discard = action.discard
    if full and (discard is None or discard not in GOODS_INDEX or player.hold[GOODS_INDEX[discard]] < 1):
        return reject("KAS-R-85", "with a full hold, discard 1 good first")
    if not full and action.discard is not None:
        return reject("KAS-R-30", "the hold has room: nothing is discarded")
    return None


def gambler_tokens(player: PlayerState) -> tuple[str, ...]:
    """KAS-AMB-38: Sebastian King's tokens show the 5 goods types, one each, less those
    used up (under 'spent'), in goods order."""
    return tuple(g for g in GOODS if g not in player.spent_tokens)


def gamble_goods(ctx: Context, state: KasState) -> str:
    """The shipment's goods type: the demand of the city the bet was placed on (KAS-R-36);
    the city is resolved only after the tokens are turned."""
    assert state.gamble is not None
    demand = state.cities[ctx.map_of(state).city_index(state.gamble[2])].demand
    assert demand is not None
    return demand


def gamble_problem(ctx: Context, state: KasState, action: Gamble) -> Rejection | None:
    """KAS-R-78 (KAS-AMB-38): under 'reuse' only the outcome counts; under 'spent' the turned
    tokens are named: one per dollar bet, from those left, in goods order, and the bet wins
    exactly when one shows the shipment's goods."""
    if ctx.r("KAS-AMB-38") == "reuse":
        if action.turned:
            return reject("KAS-R-78", "the tokens are reused: which ones turned up is not kept (KAS-AMB-38)")
        return None
    assert state.gamble is not None
    bet = state.gamble[0]
    left = gambler_tokens(state.players[state.seat])
    if len(action.turned) != bet or tuple(g for g in left if g in action.turned) != action.turned:
        return reject("KAS-R-78", f"a ${bet} bet turns up {bet} of the tokens left ({', '.join(left)}), in goods order")
    if action.win != (gamble_goods(ctx, state) in action.turned):
        return reject("KAS-R-78", "the bet wins exactly when a turned token shows the shipment's goods")
    return None


def bonus_problem(ctx: Context, state: KasState, action: KasAction) -> Rejection | None:
    if isinstance(action, ExtraAction):
        player = state.players[state.seat]
        if state.bonus != "extra-action":
            return reject("KAS-R-67", "an extra action is I.S.A.A.C.'s, right after his action")
        if player.tokens < 1:
            return reject("KAS-R-67", "no perpetual-motion token is left")
        return None
    if state.phase is Phase.ACTION:  # Pass instead of the action
        if ctx.r("KAS-AMB-19") == "mandatory":
            return reject("KAS-R-32", "the player must choose and carry out one action; there is no pass (KAS-AMB-19)")
        return None
    if state.bonus is None:  # Pass
        return reject("KAS-R-57", "there is nothing to decline")
    return None


# -- the check ------------------------------------------------------------------------------------


def repeat_problem(ctx: Context, state: KasState, action: KasAction) -> Rejection | None:
    """A turn's later action against its earlier ones: KAS-AMB-20 'once' (one upgrade a turn),
    KAS-AMB-32 'distinct' (the Emperor card's two actions differ), KAS-AMB-45 'different'
    (I.S.A.A.C.'s extra action is of another type)."""
    if state.phase is not Phase.ACTION or not state.taken:
        return None
    upgrades = {UpgradeAirship.kind, UpgradeRail.kind}
    if action.kind in upgrades and upgrades & set(state.taken) and ctx.r("KAS-AMB-20") == "once":
        rule = "KAS-R-34" if action.kind == UpgradeAirship.kind else "KAS-R-35"
        return reject(rule, "at most one upgrade per turn (KAS-AMB-20 'once')")
    if action.kind not in state.taken:
        return None
    if state.extra_taken and ctx.r("KAS-AMB-45") == "different":
        return reject("KAS-R-67", f"the extra action must differ from the first, a {action.kind} (KAS-AMB-45)")
    if current_card(ctx, state).special == "two-actions" and ctx.r("KAS-AMB-32") == "distinct":
        return reject("KAS-R-61", f"the Emperor card's two actions must differ: a {action.kind} again (KAS-AMB-32)")
    return None


def check(ctx: Context, state: KasState, action: KasAction) -> Rejection | None:
    """The first rule that forbids ``action``: the phase's, then a turn's repeat, then the action's own."""
    return phase_rejection(state, action) or repeat_problem(ctx, state, action) or action_rejection(ctx, state, action)


def accepted(ctx: Context, state: KasState, candidates: list[KasAction]) -> list[KasAction]:
    """The candidates ``check`` accepts, in their order: ``[a for a in candidates if check(...) is None]``."""
    legal = acceptor(ctx, state)
    return [action for action in candidates if legal(action)]


def acceptor(ctx: Context, state: KasState) -> Callable[[KasAction], bool]:
    """``check(ctx, state, action) is None`` for the actions of one state.  The phase's layer and the
    turn's repeat rule read only the action's type (its ``kind`` is the class's), so they are judged
    once per type; the action's own rule, for each action."""
    layers: dict[type, bool] = {}

    def legal(action: KasAction) -> bool:
        kind = type(action)
        if kind not in layers:
            layers[kind] = phase_rejection(state, action) is None and repeat_problem(ctx, state, action) is None
        return layers[kind] and action_rejection(ctx, state, action) is None

    return legal


def rejections(ctx: Context, state: KasState, action: KasAction) -> tuple[Rejection, ...]:
    """Every rule that forbids ``action``, each layer judged on its own: the phase's (the one ``check``
    cites first), the turn's repeat rule, the action's own rule as if its phase had come, and the
    independent conditions of that rule (a cost beside a capacity).  Another implementation may check
    them in another order and cite any of them."""
    return all_rejections(check(ctx, state, action), _JUDGES, ctx, state, action)


def phase_rejection_of(ctx: Context, state: KasState, action: KasAction) -> Rejection | None:
    """``phase_rejection`` with the judges' signature."""
    return phase_rejection(state, action)


def condition_rejections(ctx: Context, state: KasState, action: KasAction) -> tuple[Rejection | None, ...]:
    """The conditions of an action's own rule that can fail together, each judged apart: what it costs
    (KAS-R-55) beside what it needs (a depot token, room in the hold, the supply, the Sphinx card)."""
    player = state.players[state.seat]
    match action:
        case BuildDepot(at=at):
            cost = depot_cost(ctx, state, at) if ctx.map_of(state).line_of(at) is not None else 0
            return (
                reject("KAS-R-33", "all 10 depots are on the board") if player.depots_left < 1 else None,
                reject("KAS-R-55", f"the depot costs ${cost}; you have ${player.money}")
                if player.money < cost
                else None,
            )
        case BuildLine(hexes=hexes):
            poor = player.money < len(hexes)
            return (reject("KAS-R-55", f"the tiles cost ${len(hexes)}; you have ${player.money}") if poor else None,)
        case Load(goods=goods) if state.cargo is not None:
            held, capacity = sum(player.hold), ctx.capacity(player)
            again = goods in state.cargo.discarded and ctx.r("KAS-AMB-21") != "any-swap"
            return (
                load_problem(ctx, state, goods, action.source),
                reject("KAS-R-29", f"the hold is full ({held} of {capacity})") if held >= capacity else None,
                reject("KAS-R-30", f"{goods} was discarded in this step and cannot be loaded again") if again else None,
            )
        case Convert(into=into) if into in GOODS_INDEX:
            short = state.supply[GOODS_INDEX[into]] < 2
            return (reject("KAS-R-66", f"the supply has fewer than 2 {into} (KAS-AMB-12)") if short else None,)
        case ShipGoods() if state.phase is Phase.BONUS:
            problem = shipping_adapter_problem(ctx, state, action)
            return (reject(problem[0], problem[1]) if problem else None,)
    return ()


_Judge = Callable[[Context, KasState, KasAction], Rejection | tuple[Rejection | None, ...] | None]


def action_rejection(ctx: Context, state: KasState, action: KasAction) -> Rejection | None:
    """The action's own rules, once its phase has come."""
    match action:
        case Plan():
            return plan_problem(ctx, state, action)
        case Fly(path=path):
            if path and (min(path) < 0 or max(path) > 5):  # KAS-R-26: six directions, 0=E .. 5=SE
                return reject("KAS-R-26", f"a flight step is a direction 0..5 (0=E .. 5=SE); got {list(path)}")
            return fly_problem(ctx, state, action)
        case CourseCorrection(direction=direction):
            if not 0 <= direction <= 5:  # KAS-R-42: one hex in one of the six directions
                return reject("KAS-R-42", f"a course correction is a direction 0..5 (0=E .. 5=SE); got {direction}")
            return course_problem(ctx, state, direction)
        case BuildDepot(at=at):
            return build_problem(ctx, state, at)
        case Load() | Swap() | Unload() | EndCargo():
            return cargo_problem(ctx, state, action)
        case Grant():
            return None
        case UpgradeAirship():
            return upgrade_problem(ctx, state, "airship")
        case UpgradeRail():
            return upgrade_problem(ctx, state, "rail")
        case ExtraAction() | Pass():
            return bonus_problem(ctx, state, action)
        case PlaceStartDepot(at=at):
            return start_depot_problem(ctx, state, at)
        case ShipGoods():
            return ship_problem(ctx, state, action)
        case ReturnGood():
            return return_problem(state, action)
        case PayUpkeep():
            return pay_problem(state)
        case StartAirship(at=at):
            return start_airship_problem(ctx, state, at)
        case RemoveMarketTile(goods=goods):
            if goods not in GOODS_INDEX or state.market_pile[GOODS_INDEX[goods]] < 1:
                return reject("KAS-R-06", f"no {goods} tile is left to remove")
            return None
        case DrawMarketTile(goods=goods):
            if goods not in GOODS_INDEX or state.market_pile[GOODS_INDEX[goods]] < 1:
                return reject("KAS-R-15", f"no {goods} tile is left in the market draw pile")
            return None
        case DrawDemandTile(goods=goods):
            if goods not in GOODS_INDEX or state.demand_pile[GOODS_INDEX[goods]] < 1:
                return reject("KAS-R-40", f"no {goods} tile is in the demand pile")
            return None
        case Sell():
            return sell_problem(ctx, state, action)
        case EndSellout():
            return None
        case Convert():
            return convert_problem(ctx, state, action)
        case Steal():
            return steal_problem(ctx, state, action)
        case Gamble():
            return gamble_problem(ctx, state, action)
        case DrawDemandPair(first=first, second=second):
            pile = list(state.demand_pile)
            for goods in (first, second):
                if goods not in GOODS_INDEX or pile[GOODS_INDEX[goods]] < 1:
                    return reject("KAS-R-74", f"the demand pile does not hold the tiles {first} and {second}")
                pile[GOODS_INDEX[goods]] -= 1
            return None
        case ChooseDemandTile(goods=goods):
            return choose_demand_problem(state, goods)
        case ExtraFlight(card=card):
            return extra_flight_problem(ctx, state, card)
        case BuildLine():
            return line_problem(ctx, state, action)


# The layers ``rejections`` judges apart, in ``check``'s order.
_JUDGES: tuple[_Judge, ...] = (phase_rejection_of, repeat_problem, action_rejection, condition_rejections)
