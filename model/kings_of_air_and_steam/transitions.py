"""Kings of Air and Steam effects: pure functions state -> state.

They run only on actions the check accepted.  Steps without a decision
(the diamond check, the card slide, production, turning market tiles into
demand tiles) happen here, between decisions, each naming its rule.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulecraft.model.kings_of_air_and_steam import shipping
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
from rulecraft.model.kings_of_air_and_steam.components import GOODS, GOODS_INDEX, RailLine
from rulecraft.model.kings_of_air_and_steam.context import Context
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, path_hexes
from rulecraft.model.kings_of_air_and_steam.rules import (
    current_card,
    depot_cost,
    diamonds_in_play,
    factory_here,
    flight_stuck,
    goods_held,
    robbed_by,
)
from rulecraft.model.kings_of_air_and_steam.state import (  # evolve: the turn's hot path
    CargoStep,
    CityState,
    Depot,
    Goods,
    KasState,
    Phase,
    PlayerState,
    SlotStatus,
    evolve,
)

UNLIMITED_SUPPLY = 1000  # KAS-AMB-12 'unlimited': a bank no game can exhaust (<= ~300 cubes made per type)
STARTING_MONEY = 12  # KAS-R-03


def _replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _add(goods: Goods, g: int, delta: int) -> Goods:
    out = list(goods)
    out[g] += delta
    return (out[0], out[1], out[2], out[3], out[4])


def _players_with(state: KasState, seat: int, **changes: Any) -> tuple[PlayerState, ...]:
    """The players with ``changes`` made to one seat: for a state change that makes other changes
    too, in one copy of the state."""
    return _replace(state.players, seat, evolve(state.players[seat], **changes))


def _player(state: KasState, seat: int, **changes: Any) -> KasState:
    return evolve(state, players=_players_with(state, seat, **changes))


def _money(state: KasState, seat: int, delta: int) -> KasState:
    """Money between a player and the bank (positive: from the bank)."""
    state = _player(state, seat, money=state.players[seat].money + delta)
    return evolve(state, bank=state.bank - delta)


def _transfer(state: KasState, payer: int, payee: int, amount: int) -> KasState:
    """Money between players (tolls): the bank is not involved."""
    state = _player(state, payer, money=state.players[payer].money - amount)
    return _player(state, payee, money=state.players[payee].money + amount)


# -- set-up ------------------------------------------------------------------------------------------


TOKEN_CHARACTERS = frozenset({"Aurelia Bayley", "I.S.A.A.C.", "Eva Blane", "Sebastian King", "Corey McQueen"})


def starting_money(player: PlayerState, base: int = STARTING_MONEY) -> int:
    """KAS-R-03: $12 (``starting_money``); KAS-R-63: Reginald Kain starts with $20."""
    return 20 if player.character == "Reginald Kain" else base


def by_priority(ctx: Context, state: KasState) -> tuple[int, ...]:
    """Seats in ascending priority number (KAS-R-10, KAS-AMB-30)."""
    return tuple(sorted(range(state.player_count), key=lambda s: ctx.priority(state.players[s])))


def new_game(
    ctx: Context,
    players: int,
    first_seat: int,
    layout: str,
    teams: tuple[tuple[str, str], ...] = (),
    uncertainty: bool = False,
) -> KasState:
    """KAS-R-01..07: $12 each, one good on every factory, the market at $4.
    With ``teams`` (the advanced game, KAS-R-08..12): each seat's team and character."""
    game_map = ctx.game_map(layout)
    per_type = ctx.pack.goods_per_type if ctx.r("KAS-AMB-12") == "capped" else UNLIMITED_SUPPLY
    supply = [per_type] * 5
    # KAS-R-04: one good of its type on every factory (``factories`` below); the rest is the general supply.
    for _, kind in game_map.factories:
        supply[GOODS_INDEX[kind]] -= 1
    order = tuple((first_seat - 1 - i) % players for i in range(players))  # reverse turn order, start player last
    kit = [PlayerState(money=ctx.p("starting_money"), rail_level=ctx.rail_start()) for _ in range(players)]
    if teams:
        for seat, (team, character) in enumerate(teams):
            tokens = 5 if character in TOKEN_CHARACTERS else 0  # KAS-R-12
            kit[seat] = attrs.evolve(kit[seat], team=team, character=character, tokens=tokens)
            kit[seat] = attrs.evolve(kit[seat], money=starting_money(kit[seat], ctx.p("starting_money")))
        # KAS-R-11: starting depots in reverse priority order; KAS-R-62: Harvey Golding first.
        # KAS-R-58: here the priority number replaces the start-player token.
        ranked = sorted(range(players), key=lambda s: ctx.priority(kit[s]), reverse=True)
        harvey = [s for s in ranked if teams[s][1] == "Harvey Golding"]
        order = tuple(harvey + [s for s in ranked if s not in harvey])
    per_type = ctx.pack.tiles_per_type if uncertainty else 3  # KAS-R-05 / KAS-R-06
    return KasState(
        phase=Phase.REMOVE_TILES if uncertainty else Phase.START_DEPOTS,
        uncertainty=uncertainty,
        advanced=bool(teams),
        players=tuple(kit),
        layout=layout,
        start_player=first_seat,
        market_pile=(per_type,) * 5,
        factories=tuple(1 for _ in game_map.factories),
        cities=tuple(CityState(demand=c.demand, slots=c.slots) for c in game_map.cities),
        supply=(supply[0], supply[1], supply[2], supply[3], supply[4]),
        order=order,
        seat=order[0],
    )


def _remove_tile(ctx: Context, state: KasState, goods: str) -> KasState:
    """KAS-R-06: 5 of the 20 tiles go back to the box unseen; then the starting depots."""
    g = GOODS_INDEX[goods]
    state = attrs.evolve(
        state, market_pile=_add(state.market_pile, g, -1), removed_tiles=_add(state.removed_tiles, g, +1)
    )
    if sum(state.removed_tiles) < 5:
        return state
    return attrs.evolve(state, phase=Phase.START_DEPOTS)


def _place_start_depot(ctx: Context, state: KasState, at: Hex) -> KasState:
    seat = state.seat
    depots = tuple(sorted((*state.depots, Depot(at, seat)), key=lambda d: d.at))
    second = state.bonus == "second-depot"  # KAS-R-62: the airship stays on the first depot
    state = _player(state, seat, depots_left=state.players[seat].depots_left - 1)
    if not second:
        state = _player(state, seat, position=at)
    state = attrs.evolve(state, depots=depots, bonus=None)
    return _next_start(ctx, state, second)


def _next_start(ctx: Context, state: KasState, second: bool) -> KasState:
    """The next seat's starting depot, then Harvey Golding's second (KAS-R-62), then round 1."""
    if not second and state.turn + 1 < len(state.order):
        return attrs.evolve(state, turn=state.turn + 1, seat=state.order[state.turn + 1])
    harvey = [s for s, p in enumerate(state.players) if p.character == "Harvey Golding"]
    if harvey and not second and _second_depot_place(ctx, state):
        return attrs.evolve(state, seat=harvey[0], bonus="second-depot")
    return _begin_round(ctx, attrs.evolve(state, turn=0))


def _second_depot_place(ctx: Context, state: KasState) -> bool:
    """KAS-AMB-29 'strict': Harvey's second depot needs a line with no depot, else none is placed."""
    if ctx.r("KAS-AMB-29") != "strict":
        return True
    game_map = ctx.map_of(state)
    held = {game_map.line_of(d.at) for d in state.depots}
    return any(ln.id not in held for ln in game_map.lines)


# -- a round ---------------------------------------------------------------------------------------------


def clockwise_from(start: int, players: int) -> tuple[int, ...]:
    return tuple((start + i) % players for i in range(players))


def _begin_round(ctx: Context, state: KasState) -> KasState:
    """KAS-R-17/50: with fewer than 3 market tiles left, the game goes to the Sellout."""
    # KAS-R-50: after round 5's Production the tiles cannot fill the 3 slots (KAS-R-13: 5 rounds, then the Sellout).
    if sum(state.market_pile) < 3:
        return _begin_sellout(ctx, state)
    return attrs.evolve(state, phase=Phase.NEW_MARKET, market_slots=(), cycle=1)


def _draw_market_tile(ctx: Context, state: KasState, goods: str) -> KasState:
    """KAS-R-15/16: the tile goes on a future-market slot and pushes its type's value."""
    g = GOODS_INDEX[goods]
    state = evolve(
        state,
        market_pile=_add(state.market_pile, g, -1),
        market_slots=(*state.market_slots, goods),
        pushes=_add(state.pushes, g, +1),
    )
    if len(state.market_slots) < 3:
        return state
    # KAS-R-14: the New Market is done; Plan Airship Movement comes next.
    order = clockwise_from(state.start_player, state.player_count)
    return evolve(state, phase=Phase.PLANNING, order=order, turn=0, seat=order[0])


def _plan(ctx: Context, state: KasState, card: str) -> KasState:
    player = state.players[state.seat]
    plan = (*player.plan, card)
    players = _players_with(state, state.seat, plan=plan, slots=(SlotStatus.PLANNED,) * len(plan))
    if len(plan) < 4:
        return evolve(state, players=players)
    if state.turn + 1 < len(state.order):
        return evolve(state, players=players, turn=state.turn + 1, seat=state.order[state.turn + 1])
    return _begin_cycle(ctx, evolve(state, players=players, cycle=1))


def turn_order(ctx: Context, state: KasState) -> tuple[int, ...]:
    """KAS-R-22: letters A first; ties go clockwise from the start player (holder first).
    KAS-R-23 (advanced game): ties go to the lower priority number."""
    n = state.player_count

    def key(seat: int) -> tuple[str, int]:
        player = state.players[seat]
        # KAS-R-18: the card's turn-order letter (A-G) decides when its owner acts.
        letter = ctx.pack.card(player.plan[state.cycle - 1]).letter
        # KAS-R-58: in the advanced game the priority number replaces the start-player token here.
        if state.advanced:  # KAS-R-23: ties go to the lower priority number
            return letter, ctx.priority(player)
        return letter, (seat - state.start_player) % n

    return tuple(sorted(range(n), key=key))


def _begin_cycle(ctx: Context, state: KasState) -> KasState:
    """KAS-R-21: every slot-i card is revealed; the order follows the letters."""
    order = turn_order(ctx, state)
    return _begin_turn(ctx, evolve(state, order=order, turn=0))


def _begin_turn(ctx: Context, state: KasState) -> KasState:
    while state.turn < len(state.order):
        seat = state.order[state.turn]
        state = evolve(state, seat=seat, cargo=None)
        player = state.players[seat]
        card = current_card(ctx, state)
        # KAS-R-25: the diamond check, with the rating as it is now.
        if diamonds_in_play(ctx, player) + card.diamonds > ctx.rating(player):
            state = _player(state, seat, slots=_replace(player.slots, state.cycle - 1, SlotStatus.RETURNED))
            state = evolve(state, turn=state.turn + 1)
            continue
        state = evolve(state, actions_left=1, flights_left=1, bonus=None, extra_taken=False, taken=())
        if card.special == "two-actions":  # KAS-R-61: no movement step, two full actions
            return evolve(state, phase=Phase.ACTION, actions_left=2)
        if card.special == "double-two":  # KAS-R-73: two movement steps of 2
            state = evolve(state, flights_left=2)
        if player.character == "Clint Castle":  # KAS-R-82: he may load/unload before the flight too
            return evolve(state, phase=Phase.CARGO, cargo=CargoStep(after="pre-flight"))
        return evolve(state, phase=Phase.FLIGHT)
    return _end_cycle(ctx, state)


def _end_turn(ctx: Context, state: KasState) -> KasState:
    """KAS-R-44: the card slides under the board; its diamonds now count."""
    seat = state.seat
    player = state.players[seat]
    players = _players_with(state, seat, slots=_replace(player.slots, state.cycle - 1, SlotStatus.EXECUTED))
    return _begin_turn(ctx, evolve(state, players=players, turn=state.turn + 1, cargo=None, bonus=None, taken=()))


def _end_cycle(ctx: Context, state: KasState) -> KasState:
    if state.cycle < 4:
        return _begin_cycle(ctx, evolve(state, cycle=state.cycle + 1))
    # KAS-R-14: after the 4th Move & Action cycle comes the Upkeep.
    return _begin_upkeep(ctx, state)


# -- flight and cargo ----------------------------------------------------------------------------------


def _fly(ctx: Context, state: KasState, path: tuple[int, ...], spare: tuple[int, ...] = ()) -> KasState:
    player = state.players[state.seat]
    assert player.position is not None
    if not path and ctx.r("KAS-AMB-04") == "b" and state.flying is None and flight_stuck(ctx, state):
        # KAS-AMB-04 'b': no legal flight: the turn is lost as with a diamond overflow.
        state = _player(state, state.seat, slots=_replace(player.slots, state.cycle - 1, SlotStatus.RETURNED))
        return _begin_turn(ctx, evolve(state, turn=state.turn + 1, cargo=None, bonus=None))
    entered = path_hexes(player.position, path)
    end = entered[-1] if path else player.position
    if player.character == "Ezekiel Crane":
        state = _rob(ctx, state, entered, spare)
    # KAS-R-28: loading and unloading open only now, after the flight.
    players = _players_with(state, state.seat, position=end)
    return evolve(state, players=players, phase=Phase.CARGO, cargo=CargoStep(after="flight"))


def _rob(ctx: Context, state: KasState, entered: tuple[Hex, ...], spare: tuple[int, ...]) -> KasState:
    """KAS-R-87 (p.20): $3 (what a short victim has) from each airship passed, but the ones he lets go."""
    left = list(spare)
    for victim in robbed_by(ctx, state, entered):
        if victim in left:
            left.remove(victim)
            continue
        state = _transfer(state, victim, state.seat, min(3, state.players[victim].money))
    return state


def _take(ctx: Context, state: KasState, goods: str, source: str) -> KasState:
    g = GOODS_INDEX[goods]
    position = state.players[state.seat].position
    assert position is not None
    if source == "factory":
        found = factory_here(ctx, state, position)
        assert found is not None
        return evolve(state, factories=_replace(state.factories, found[0], state.factories[found[0]] - 1))
    return _depot_goods(state, position, g, -1)


def _depot_goods(state: KasState, at: Hex, g: int, delta: int) -> KasState:
    depots = tuple(attrs.evolve(d, goods=_add(d.goods, g, delta)) if d.at == at else d for d in state.depots)
    return attrs.evolve(state, depots=depots)


def _load(ctx: Context, state: KasState, goods: str, source: str) -> KasState:
    g = GOODS_INDEX[goods]
    state = _take(ctx, state, goods, source)
    player = state.players[state.seat]
    state = _player(state, state.seat, hold=_add(player.hold, g, +1))
    assert state.cargo is not None
    return evolve(state, cargo=evolve(state.cargo, loaded=state.cargo.loaded | {goods}, source=source))


def _swap(ctx: Context, state: KasState, discard: str, goods: str, source: str) -> KasState:
    """KAS-R-30: the discarded good goes back to the general supply."""
    d = GOODS_INDEX[discard]
    player = state.players[state.seat]
    state = _player(state, state.seat, hold=_add(player.hold, d, -1))
    state = attrs.evolve(state, supply=_add(state.supply, d, +1))
    assert state.cargo is not None
    state = attrs.evolve(state, cargo=attrs.evolve(state.cargo, discarded=state.cargo.discarded | {discard}))
    return _load(ctx, state, goods, source)


def _unload(ctx: Context, state: KasState, goods: str) -> KasState:
    g = GOODS_INDEX[goods]
    player = state.players[state.seat]
    assert player.position is not None
    state = _player(state, state.seat, hold=_add(player.hold, g, -1))
    return _depot_goods(state, player.position, g, +1)


def _end_cargo(ctx: Context, state: KasState) -> KasState:
    step = state.cargo
    assert step is not None
    after = step.after
    # The step closes (cargo None) in the same copy as what comes next.
    if after == "pre-flight":
        return evolve(state, cargo=None, phase=Phase.FLIGHT)
    if after == "pre-course-correction":  # the Course Correction's own cargo step replaces this one
        assert step.direction is not None
        return _course_step(ctx, state, step.direction)
    if after == "course-correction" or state.flying is not None:
        # The action is over: a Course Correction (KAS-R-42) or Eli Diamond's extra flight (KAS-R-83).
        return _after_action(ctx, evolve(state, cargo=None, flying=None))
    if state.flights_left > 1:  # KAS-R-73: the Rose & Thorn card's second flight
        return evolve(state, cargo=None, phase=Phase.FLIGHT, flights_left=state.flights_left - 1)
    special = current_card(ctx, state).special
    if special == "ship-one":  # KAS-R-69: a free shipment of one good before the action
        return evolve(state, cargo=None, phase=Phase.BONUS, bonus="ship-one")
    if special == "choose-distance-steal":  # KAS-R-85: steal 1 good before the action
        return evolve(state, cargo=None, phase=Phase.BONUS, bonus="steal")
    return evolve(state, cargo=None, phase=Phase.ACTION)


def _after_action(ctx: Context, state: KasState) -> KasState:
    """After an action: the Emperor's second action (KAS-R-61), I.S.A.A.C.'s
    offer of an extra action (KAS-R-67), else the card slide (KAS-R-44)."""
    if state.actions_left > 1:
        return attrs.evolve(state, phase=Phase.ACTION, actions_left=state.actions_left - 1)
    player = state.players[state.seat]
    if player.character == "I.S.A.A.C." and player.tokens > 0 and not state.extra_taken:
        return attrs.evolve(state, phase=Phase.BONUS, bonus="extra-action")
    # KAS-R-24: a turn holds exactly one action; after it the card slides and the turn ends.
    return _end_turn(ctx, state)


def _bonus_done(ctx: Context, state: KasState) -> KasState:
    """A team step beside the action is over: on to the action (or, after
    I.S.A.A.C.'s declined offer, to the card slide)."""
    bonus = state.bonus
    state = attrs.evolve(state, bonus=None)
    if bonus == "extra-action":
        return _end_turn(ctx, state)
    return attrs.evolve(state, phase=Phase.ACTION)


def _extra_action(ctx: Context, state: KasState) -> KasState:
    player = state.players[state.seat]
    state = _player(state, state.seat, tokens=player.tokens - 1)
    return attrs.evolve(state, phase=Phase.ACTION, bonus=None, extra_taken=True, actions_left=1)


def _convert(ctx: Context, state: KasState, action: Convert) -> KasState:
    """KAS-R-66: 1 good back to the supply, 2 of the other type from it; a token spent."""
    g, into = GOODS_INDEX[action.goods], GOODS_INDEX[action.into]
    player = state.players[state.seat]
    state = _player(state, state.seat, tokens=player.tokens - 1)
    if action.at is None:
        hold = _add(_add(player.hold, g, -1), into, +2)
        state = _player(state, state.seat, hold=hold)
    else:
        state = _depot_goods(_depot_goods(state, action.at, g, -1), action.at, into, +2)
    supply = _add(_add(state.supply, g, +1), into, -2)
    return _after_action(ctx, attrs.evolve(state, supply=supply))


def _steal(ctx: Context, state: KasState, action: Steal) -> KasState:
    """KAS-R-85: the stolen good goes into the Godfather's hold (a discard first if full)."""
    g = GOODS_INDEX[action.goods]
    if action.discard is not None:
        d = GOODS_INDEX[action.discard]
        state = _player(state, state.seat, hold=_add(state.players[state.seat].hold, d, -1))
        state = attrs.evolve(state, supply=_add(state.supply, d, +1))
    if action.at is None:
        victim = state.players[action.victim]
        state = _player(state, action.victim, hold=_add(victim.hold, g, -1))
    else:
        state = _depot_goods(state, action.at, g, -1)
    state = _player(state, state.seat, hold=_add(state.players[state.seat].hold, g, +1))
    return _bonus_done(ctx, state)


# -- actions --------------------------------------------------------------------------------------------------


def _build(ctx: Context, state: KasState, at: Hex) -> KasState:
    cost = depot_cost(ctx, state, at)
    seat = state.seat
    state = _money(state, seat, -cost)
    state = _player(state, seat, depots_left=state.players[seat].depots_left - 1)
    depots = tuple(sorted((*state.depots, Depot(at, seat)), key=lambda d: d.at))
    return _after_action(ctx, attrs.evolve(state, depots=depots))


def _upgrade(ctx: Context, state: KasState, track: str) -> KasState:
    player = state.players[state.seat]
    if track == "airship":
        cost = ctx.pack.airship_track[player.airship_level].cost
        state = _player(state, state.seat, airship_level=player.airship_level + 1)
    else:
        cost = ctx.pack.rail_track[player.rail_level].cost
        state = _player(state, state.seat, rail_level=player.rail_level + 1)
    return _after_action(ctx, _money(state, state.seat, -cost))


def chosen_route(
    ctx: Context,
    state: KasState,
    origin: Hex,
    destination: shipping.Destination,
    lines: tuple[str, ...] | None,
    payees: tuple[tuple[str, int], ...] | None,
    *,
    sellout: bool = False,
) -> shipping.Route:
    """The route an action names; open choices take the first legal route in canonical order."""
    player = state.players[state.seat]
    game_map = ctx.map_of(state)
    no_tolls = ctx.no_tolls(player, sellout=sellout)
    options = shipping.routes(
        game_map,
        state.depots,
        state.seat,
        origin,
        player.rail_level,
        no_tolls=no_tolls,
        rules=ctx.route_rules(),
        cities=state.cities,
    )
    for route in options:
        if route.destination != destination:
            continue
        if lines is not None and lines not in (route.lines, route.after_origin):
            continue
        if payees is not None and payees != route.payees:
            continue
        return route
    raise AssertionError("the check accepted a shipment without a route")  # pragma: no cover


def _ship(ctx: Context, state: KasState, action: ShipGoods) -> KasState:
    """KAS-R-36..41: move the goods, pay income, then tolls; a full city is resolved."""
    seat = state.seat
    destination = (
        shipping.Destination.city(action.to_city)
        if action.to_city is not None
        else shipping.Destination.depot(action.to_depot)  # type: ignore[arg-type]
    )
    route = chosen_route(ctx, state, action.origin, destination, action.lines, action.payees)
    bonus = state.phase is Phase.BONUS  # the Sphinx card's free shipment (KAS-R-69)
    g = GOODS_INDEX[action.goods]
    if action.bet:  # KAS-R-78: the bet goes to the bank before the tokens are turned
        state = _money(state, seat, -action.bet)
    if action.swindle is not None:  # KAS-R-79: one good of another type rides along
        s = GOODS_INDEX[action.swindle]
        source = action.origin if action.swindle_from is None else action.swindle_from  # KAS-AMB-39 'any-depot'
        state = _depot_goods(_depot_goods(state, action.origin, g, -(action.count - 1)), source, s, -1)
        state = _player(state, seat, tokens=state.players[seat].tokens - 1)
    else:
        state = _depot_goods(state, action.origin, g, -action.count)
    if action.to_depot is not None:
        state = _depot_goods(state, action.to_depot, g, +action.count)
    else:
        assert action.to_city is not None
        index = ctx.map_of(state).city_index(action.to_city)
        city = state.cities[index]
        state = _money(state, seat, action.count * ctx.price(state, action.goods))  # KAS-R-39
        placed = action.count - (1 if action.returned else 0)
        if action.returned:  # KAS-R-75: Bishop Kingston's good goes back to the supply, paid all the same
            state = attrs.evolve(state, supply=_add(state.supply, g, +1))
        other = (*city.other, action.swindle) if action.swindle is not None else city.other
        city = attrs.evolve(city, filled=city.filled + placed, other=other)
        state = attrs.evolve(state, cities=_replace(state.cities, index, city))
    for _line, payee in route.payees:  # KAS-R-38: $1 per good, after the income
        state = _transfer(state, seat, payee, action.count)
    resume = Phase.BONUS if bonus else Phase.ACTION
    if action.bet:
        assert action.to_city is not None
        return attrs.evolve(state, phase=Phase.GAMBLE, gamble=(action.bet, action.count, action.to_city), resume=resume)
    if action.to_city is not None:
        return _resolve_city(ctx, state, action.to_city, resume)
    return _continue(ctx, state, resume)


def _gamble(ctx: Context, state: KasState, win: bool, turned: tuple[str, ...]) -> KasState:
    """KAS-R-78: a turned token showing the goods pays $2 per delivered good;
    KAS-AMB-38 'spent': the turned tokens are used up."""
    assert state.gamble is not None and state.resume is not None
    _bet, delivered, city = state.gamble
    resume = state.resume
    state = attrs.evolve(state, gamble=None, resume=None)
    if turned:
        player = state.players[state.seat]
        spent = tuple(g for g in GOODS if g in player.spent_tokens or g in turned)
        state = _player(state, state.seat, tokens=player.tokens - len(turned), spent_tokens=spent)
    if win:
        state = _money(state, state.seat, 2 * delivered)
    if resume is Phase.SELLOUT:  # KAS-AMB-26 'all': a sale fills no city (KAS-AMB-25)
        return attrs.evolve(state, phase=Phase.SELLOUT)
    return _resolve_city(ctx, state, city, resume)


def _continue(ctx: Context, state: KasState, resume: Phase) -> KasState:
    """After a shipment: the free Sphinx shipment leads to the action; an action to what follows it."""
    return _bonus_done(ctx, state) if resume is Phase.BONUS else _after_action(ctx, state)


def _resolve_city(ctx: Context, state: KasState, name: str, resume: Phase) -> KasState:
    index = ctx.map_of(state).city_index(name)
    city = state.cities[index]
    if city.filled < city.slots:
        return _continue(ctx, state, resume)
    if not city.tile and sum(state.demand_pile) == 0 and ctx.r("KAS-AMB-10") == "d":
        # KAS-AMB-10 'd' (stays-full): the city keeps its goods and accepts nothing (no empty slot)
        # until a tile is available; it queues for one as under 'a' (_serve_waiting_cities).
        return _continue(ctx, attrs.evolve(state, waiting_cities=(*state.waiting_cities, name)), resume)
    state, city = _clear_city(state, index)
    if city.tile:  # KAS-R-41: the tile turns face down; the city closes for good
        closed = attrs.evolve(city, closed=True)
        return _continue(ctx, attrs.evolve(state, cities=_replace(state.cities, index, closed)), resume)
    # KAS-R-40: a printed city draws a demand tile.
    if sum(state.demand_pile) > 0:
        flora = [s for s, p in enumerate(state.players) if p.character == "Flora Kingston"]
        state = attrs.evolve(state, demand_for=name, resume=resume)
        if flora and flora[0] == state.seat:  # KAS-R-74: she looks through the pile and chooses
            return attrs.evolve(state, phase=Phase.DEMAND_CHOICE, decider=flora[0], demand_choices=())
        if flora and sum(state.demand_pile) >= 2:  # an opponent filled it: she draws two blind
            return attrs.evolve(state, phase=Phase.DEMAND_PAIR, decider=flora[0])
        return attrs.evolve(state, phase=Phase.DEMAND_DRAW)
    return _continue(ctx, _no_demand_tile(ctx, state, name), resume)


def _clear_city(state: KasState, index: int) -> tuple[KasState, CityState]:
    """KAS-R-40/41: the goods on a filled city's slots return to the supply; the city is left empty."""
    city = state.cities[index]
    assert city.demand is not None
    g = GOODS_INDEX[city.demand]
    supply = _add(state.supply, g, city.filled - len(city.other))  # the cubes return to the supply
    for goods in city.other:
        supply = _add(supply, GOODS_INDEX[goods], +1)
    city = attrs.evolve(city, filled=0, other=())
    return attrs.evolve(state, supply=supply, cities=_replace(state.cities, index, city)), city


def _no_demand_tile(ctx: Context, state: KasState, name: str) -> KasState:
    """KAS-AMB-10: an empty demand pile when a printed city fills."""
    index = ctx.map_of(state).city_index(name)
    city = state.cities[index]
    reading = ctx.r("KAS-AMB-10")
    if reading == "b":  # closed for good
        changed = attrs.evolve(city, demand=None, closed=True)
    elif reading == "c":  # keeps its printed demand with 5 new slots
        changed = city
    else:  # 'a': waits for the next tile ('d' keeps the city full instead: _resolve_city)
        changed = attrs.evolve(city, demand=None, waiting=True)
        state = attrs.evolve(state, waiting_cities=(*state.waiting_cities, name))
    return attrs.evolve(state, cities=_replace(state.cities, index, changed))


def _build_line(ctx: Context, state: KasState, action: BuildLine) -> KasState:
    """KAS-R-71: $1 a tile to the bank, the line joins the map, her depot goes on it for free."""
    seat = state.seat
    line = RailLine(f"EVA{len(state.new_lines) + 1}", action.ends, action.hexes)
    player = state.players[seat]
    state = _player(state, seat, tokens=player.tokens - len(action.hexes), depots_left=player.depots_left - 1)
    state = _money(state, seat, -len(action.hexes))
    depots = tuple(sorted((*state.depots, Depot(action.depot, seat)), key=lambda d: d.at))
    return _after_action(ctx, attrs.evolve(state, new_lines=(*state.new_lines, line), depots=depots))


def _draw_pair(ctx: Context, state: KasState, first: str, second: str) -> KasState:
    """KAS-R-74: Flora now chooses one of the two; the other goes back into the pile."""
    return attrs.evolve(state, phase=Phase.DEMAND_CHOICE, demand_choices=(first, second))


def _choose_demand(ctx: Context, state: KasState, goods: str) -> KasState:
    state = attrs.evolve(state, decider=None, demand_choices=())
    return _draw_demand_tile(ctx, state, goods)


def _extra_flight(ctx: Context, state: KasState, card: str) -> KasState:
    """KAS-R-83: the card lies face up (its diamonds count this round) and is flown now."""
    player = state.players[state.seat]
    state = _player(state, state.seat, extra_cards=(*player.extra_cards, card))
    return attrs.evolve(state, phase=Phase.FLIGHT, flying=card, flights_left=1)


def _draw_demand_tile(ctx: Context, state: KasState, goods: str) -> KasState:
    name = state.demand_for
    assert name is not None
    index = ctx.map_of(state).city_index(name)
    city = attrs.evolve(state.cities[index], demand=goods, slots=3, filled=0, tile=True, waiting=False)
    state = attrs.evolve(
        state,
        demand_pile=_add(state.demand_pile, GOODS_INDEX[goods], -1),
        cities=_replace(state.cities, index, city),
        demand_for=None,
    )
    resume, state = state.resume, attrs.evolve(state, resume=None)
    if resume in (Phase.ACTION, Phase.BONUS):
        assert resume is not None
        return _continue(ctx, state, resume)
    return _serve_waiting_cities(ctx, state)  # after Production (KAS-AMB-10 'a')


def _course_correction(ctx: Context, state: KasState, direction: int) -> KasState:
    """KAS-R-42: one hex, then load/unload.  KAS-AMB-40 'all-moves': Clint Castle loads and
    unloads before this step too (KAS-R-82), so the direction waits in the cargo step."""
    if state.players[state.seat].character == "Clint Castle" and ctx.r("KAS-AMB-40") == "all-moves":
        return attrs.evolve(
            state, phase=Phase.CARGO, cargo=CargoStep(after="pre-course-correction", direction=direction)
        )
    return _course_step(ctx, state, direction)


def _course_step(ctx: Context, state: KasState, direction: int) -> KasState:
    player = state.players[state.seat]
    assert player.position is not None
    players = _players_with(state, state.seat, position=player.position.step(direction))
    return evolve(state, players=players, phase=Phase.CARGO, cargo=CargoStep(after="course-correction"))


# -- upkeep, production, sellout ----------------------------------------------------------------------------


def _begin_upkeep(ctx: Context, state: KasState) -> KasState:
    """KAS-R-45..47; players in clockwise order from the start player, or by
    priority in the advanced game (KAS-AMB-30)."""
    order = by_priority(ctx, state) if state.advanced else clockwise_from(state.start_player, state.player_count)
    if state.round == 5 and ctx.r("KAS-AMB-24") == "skip-upkeep":
        return _after_upkeep(ctx, attrs.evolve(state, order=order))
    return _next_upkeep(ctx, attrs.evolve(state, phase=Phase.UPKEEP, order=order, turn=0))


def _next_upkeep(ctx: Context, state: KasState) -> KasState:
    while state.turn < len(state.order):
        seat = state.order[state.turn]
        if goods_held(state, seat) > 0:
            return evolve(state, seat=seat)
        state = evolve(state, turn=state.turn + 1)  # nothing stored: nothing to pay
    return _after_upkeep(ctx, state)


def _return_good(ctx: Context, state: KasState, goods: str, at: Hex | None) -> KasState:
    g = GOODS_INDEX[goods]
    if at is None:
        player = state.players[state.seat]
        state = _player(state, state.seat, hold=_add(player.hold, g, -1))
    else:
        state = _depot_goods(state, at, g, -1)
    state = evolve(state, supply=_add(state.supply, g, +1))
    if goods_held(state, state.seat) == 0:
        return _next_upkeep(ctx, evolve(state, turn=state.turn + 1))
    return state


def _pay_upkeep(ctx: Context, state: KasState) -> KasState:
    state = _money(state, state.seat, -goods_held(state, state.seat))
    return _next_upkeep(ctx, attrs.evolve(state, turn=state.turn + 1))


def _after_upkeep(ctx: Context, state: KasState) -> KasState:
    """KAS-R-46/47: cards come back; the start-player token passes clockwise.
    Then Production (KAS-R-48/49)."""
    players = tuple(evolve(p, plan=(), slots=(), extra_cards=()) for p in state.players)
    # KAS-R-47: the start-player token passes clockwise, to the holder's left neighbour.
    state = evolve(state, players=players, start_player=(state.start_player + 1) % state.player_count)
    # KAS-R-14: Production follows the Upkeep.
    return _production(ctx, state)


def _production(ctx: Context, state: KasState) -> KasState:
    game_map = ctx.map_of(state)
    slots = state.market_slots
    factories = list(state.factories)
    supply = list(state.supply)
    for i, (_, kind) in enumerate(game_map.factories):
        g = GOODS_INDEX[kind]
        made = 1 + slots.count(kind)  # KAS-R-48
        made = min(made, supply[g])  # KAS-AMB-12 'capped': no more than the supply holds
        factories[i] += made
        supply[g] -= made
    pile = state.demand_pile
    for goods in slots:  # KAS-R-49: market tiles become demand tiles
        pile = _add(pile, GOODS_INDEX[goods], +1)
    state = attrs.evolve(
        state,
        factories=tuple(factories),
        supply=(supply[0], supply[1], supply[2], supply[3], supply[4]),
        demand_pile=pile,
        market_slots=(),
    )
    return _serve_waiting_cities(ctx, state)


def _serve_waiting_cities(ctx: Context, state: KasState) -> KasState:
    """KAS-AMB-10 'a': cities filled with an empty pile get tiles, in the order they filled; under 'd'
    a city still full is cleared only now, when its tile is available (after the factories produced)."""
    if state.waiting_cities and sum(state.demand_pile) > 0:
        name, rest = state.waiting_cities[0], state.waiting_cities[1:]
        if ctx.r("KAS-AMB-10") == "d":
            state, _ = _clear_city(state, ctx.map_of(state).city_index(name))
        return attrs.evolve(
            state, phase=Phase.DEMAND_DRAW, demand_for=name, waiting_cities=rest, resume=Phase.NEW_MARKET
        )
    return _begin_round(ctx, attrs.evolve(state, round=state.round + 1))


def _begin_sellout(ctx: Context, state: KasState) -> KasState:
    order = by_priority(ctx, state) if state.advanced else clockwise_from(state.start_player, state.player_count)
    return attrs.evolve(state, phase=Phase.SELLOUT, order=order, turn=0, seat=order[0])


def _sell(ctx: Context, state: KasState, action: Sell) -> KasState:
    """KAS-R-51: the good returns to the supply for $4, less the toll of that shipment."""
    route = chosen_route(
        ctx, state, action.origin, shipping.Destination.city(action.to_city), action.lines, action.payees, sellout=True
    )
    g = GOODS_INDEX[action.goods]
    if action.bet:  # KAS-AMB-26 'all', KAS-R-78: the bet goes to the bank before the tokens are turned
        state = _money(state, state.seat, -action.bet)
    state = _depot_goods(state, action.origin, g, -1)
    # KAS-R-75 with KAS-AMB-26 'all': Bishop Kingston's good goes back to the supply, not onto a slot.
    if ctx.r("KAS-AMB-25") == "consume-room" and not action.returned:  # the sold good takes a slot of the city
        index = ctx.map_of(state).city_index(action.to_city)
        city = state.cities[index]
        state = attrs.evolve(state, cities=_replace(state.cities, index, attrs.evolve(city, filled=city.filled + 1)))
    else:
        state = attrs.evolve(state, supply=_add(state.supply, g, +1))
    state = _money(state, state.seat, 4)
    simultaneous = ctx.r("KAS-AMB-30") == "simultaneous"  # the payee may not spend it in this Sellout
    for _line, payee in route.payees:
        state = _transfer(state, state.seat, payee, 1)
        if simultaneous:  # counted only there, so the default's states read as the protocol has them
            state = _player(state, payee, sellout_tolls=state.players[payee].sellout_tolls + 1)
    if action.bet:  # the tokens decide the $2 for the one good sold; then the Sellout goes on
        return attrs.evolve(state, phase=Phase.GAMBLE, gamble=(action.bet, 1, action.to_city), resume=Phase.SELLOUT)
    return state


def _end_sellout(ctx: Context, state: KasState) -> KasState:
    if state.turn + 1 < len(state.order):
        return attrs.evolve(state, turn=state.turn + 1, seat=state.order[state.turn + 1])
    return attrs.evolve(state, phase=Phase.OVER)


# -- dispatch ---------------------------------------------------------------------------------------------------


def transition(ctx: Context, state: KasState, action: KasAction) -> KasState:
    if state.phase is Phase.ACTION:  # what a later action of this turn may not repeat (KAS-AMB-20/32/45)
        state = evolve(state, taken=(*state.taken, action.kind))
    match action:
        case PlaceStartDepot(at=at):
            return _place_start_depot(ctx, state, at)
        case StartAirship(at=at):
            return _next_start(ctx, _player(state, state.seat, position=at), second=False)
        case DrawMarketTile(goods=goods):
            return _draw_market_tile(ctx, state, goods)
        case RemoveMarketTile(goods=goods):
            return _remove_tile(ctx, state, goods)
        case DrawDemandTile(goods=goods):
            return _draw_demand_tile(ctx, state, goods)
        case Plan(card=card):
            return _plan(ctx, state, card)
        case Fly(path=path, spare=spare):
            return _fly(ctx, state, path, spare)
        case Load(goods=goods, source=source):
            return _load(ctx, state, goods, source)
        case Swap(discard=discard, goods=goods, source=source):
            return _swap(ctx, state, discard, goods, source)
        case Unload(goods=goods):
            return _unload(ctx, state, goods)
        case EndCargo():
            return _end_cargo(ctx, state)
        case BuildDepot(at=at):
            return _build(ctx, state, at)
        case UpgradeAirship():
            return _upgrade(ctx, state, "airship")
        case UpgradeRail():
            return _upgrade(ctx, state, "rail")
        case ShipGoods():
            return _ship(ctx, state, action)
        case CourseCorrection(direction=direction):
            return _course_correction(ctx, state, direction)
        case Grant():
            return _after_action(ctx, _money(state, state.seat, ctx.p("grant")))  # KAS-R-43
        case Convert():
            return _convert(ctx, state, action)
        case Steal():
            return _steal(ctx, state, action)
        case ExtraAction():
            return _extra_action(ctx, state)
        case Pass():
            if state.phase is Phase.ACTION:  # KAS-AMB-19 'pass-allowed': no action this time
                return _after_action(ctx, state)
            return _bonus_done(ctx, state)
        case Gamble(win=win, turned=turned):
            return _gamble(ctx, state, win, turned)
        case DrawDemandPair(first=first, second=second):
            return _draw_pair(ctx, state, first, second)
        case ChooseDemandTile(goods=goods):
            return _choose_demand(ctx, state, goods)
        case ExtraFlight(card=card):
            return _extra_flight(ctx, state, card)
        case BuildLine():
            return _build_line(ctx, state, action)
        case ReturnGood(goods=goods, at=at):
            return _return_good(ctx, state, goods, at)
        case PayUpkeep():
            return _pay_upkeep(ctx, state)
        case Sell():
            return _sell(ctx, state, action)
        case EndSellout():
            return _end_sellout(ctx, state)
