"""Kings of Air and Steam wired into the rulecraft Game interface (base and advanced game)."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar

import attrs

from rulecraft.core import CHANCE, GAME_OVER, Candidates, Rejection, RulecraftError, Seat, StateError, ToMove
from rulecraft.model.kings_of_air_and_steam import flight, render, shipping
from rulecraft.model.kings_of_air_and_steam.actions import (
    ACTION_TYPES,
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
from rulecraft.model.kings_of_air_and_steam.catalogue import PARAMETERS, RULES
from rulecraft.model.kings_of_air_and_steam.components import BOARD_SETS, GOODS, PACK_FILES, Pack
from rulecraft.model.kings_of_air_and_steam.context import Context
from rulecraft.model.kings_of_air_and_steam.grounds import team_grounds
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex, path_hexes
from rulecraft.model.kings_of_air_and_steam.readings import (
    NEEDS_PACK_DATA,
    NOT_MODELLED,
    NOT_MODELLED_TOGETHER,
    NOT_MODELLED_WHY,
    REGISTER,
)
from rulecraft.model.kings_of_air_and_steam.rules import (
    accepted,
    acceptor,
    check,
    deck_of,
    depot_at,
    depot_cost,
    eli_cards,
    factory_here,
    farthest_flight,
    flight_rules,
    flight_setting,
    gamble_goods,
    gambler_tokens,
    own_depot_at,
    rejections,
    robbed_by,
)
from rulecraft.model.kings_of_air_and_steam.state import (
    ACTION,
    BONUS,
    CARGO,
    DEMAND_CHOICE,
    DEMAND_DRAW,
    DEMAND_PAIR,
    FLIGHT,
    GAMBLE,
    NEW_MARKET,
    NO_GOODS,
    OVER,
    PLANNING,
    REMOVE_TILES,
    SELLOUT,
    START_DEPOTS,
    UPKEEP,
    KasState,
)
from rulecraft.model.kings_of_air_and_steam.transitions import new_game, transition
from rulecraft.packed import PackedGame
from rulecraft.ruleset import UnknownReading
from rulecraft.serialization import from_jsonable, json_object, to_jsonable

# Characters whose abilities the model does not play yet: choosing one is refused.
NOT_MODELLED_CHARACTERS: dict[str, str] = {}
_CHANCE = (NEW_MARKET, DEMAND_DRAW, GAMBLE, DEMAND_PAIR, REMOVE_TILES)
_SEAT = (START_DEPOTS, PLANNING, FLIGHT, CARGO, ACTION, UPKEEP, SELLOUT)


# The invariants every state read from outside must keep: goods, money, depots and market tiles
# counted, holds and tracks in range, cities consistent, teams dealt once each.  The bookkeeping ones
# (phase, diamonds, score formula) are left to ``violations``.
LOAD_INVARIANTS = (
    "goods-conserved",
    "money-conserved",
    "depots-limited",
    "hold-within-capacity",
    "gambler-tokens",
    "tracks-in-range",
    "market-tiles-accounted",
    "cities-consistent",
    "teams-dealt",
)


class KingsOfAirAndSteamGame(PackedGame[KasState, KasAction]):
    id: ClassVar[str] = "kas"
    title: ClassVar[str] = "Kings of Air and Steam"
    catalogue = RULES
    register = REGISTER
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    scenario_folder: ClassVar[str] = "kings_of_air_and_steam"
    load_invariants: ClassVar[tuple[str, ...]] = LOAD_INVARIANTS

    parameters = PARAMETERS

    pack: Pack
    action_types = ACTION_TYPES
    pack_files = PACK_FILES
    not_modelled = MappingProxyType({pair: NOT_MODELLED_WHY.get(pair, "") for pair in NOT_MODELLED})
    needs_pack_data = MappingProxyType(NEEDS_PACK_DATA)
    not_modelled_together = MappingProxyType(NOT_MODELLED_TOGETHER)

    def wire(self) -> None:
        self.ctx = Context(self.pack, dict(self.ruleset.readings), params=self.params)
        if self.ctx.r("KAS-AMB-46") == "per-character":
            missing = [t.name for t in self.pack.teams if not t.character_priority]
            if missing or not self.pack.teams:
                raise UnknownReading(
                    f"KAS-AMB-46=per-character is not modelled without each character's own priority number, which"
                    f" the rulebook does not print: pack {self.pack.name} has no"
                    f" {NEEDS_PACK_DATA[('KAS-AMB-46', 'per-character')]}"
                    f" for {', '.join(missing) or 'any team (it has no teams)'}"
                )

    # -- set-up ---------------------------------------------------------------------------
    def layout_for(self, players: int) -> str:
        """KAS-R-01 with KAS-AMB-47: which board set a player count uses."""
        choice = self.ctx.r("KAS-AMB-47")
        options = BOARD_SETS[players]
        if players == 3 and choice == "cutthroat":
            return "ABC"
        if choice in options:
            return choice
        return options[0]

    @property
    def first_seat_chosen(self) -> bool:  # type: ignore[override]
        """KAS-AMB-28: under 'random' the start seat is a random draw, which ``first_seat`` carries
        (a random set-up draws it); under 'fixed' the set-up names the start player, seat 0."""
        return self.ctx.r("KAS-AMB-28") != "fixed"

    def new_game(self, players: int, *, first_seat: Seat = 0, **options: Any) -> KasState:
        if not self.min_players <= players <= self.max_players:
            raise RulecraftError(f"KAS-R-01 (p.6) — Kings of Air and Steam is for 2 to 7 players; {players} requested")
        if not 0 <= first_seat < players:
            raise RulecraftError(f"KAS-R-07 — the start player must be a seat 0..{players - 1}")
        if first_seat != 0 and not self.first_seat_chosen:
            raise RulecraftError(
                "KAS-R-07 (p.6, KAS-AMB-28 'fixed') — the set-up names the start player: seat 0, the seats"
                " numbered clockwise from them; no other start seat is drawn"
            )
        unknown = set(options) - {"layout", "teams", "uncertainty"}
        if unknown:
            raise RulecraftError(
                f"setup.options: Kings of Air and Steam knows 'layout', 'teams', 'uncertainty'; not {sorted(unknown)}"
            )
        layout = options.get("layout") or self.layout_for(players)
        if layout not in BOARD_SETS[players]:
            raise RulecraftError(
                f"KAS-R-01 (p.6) — {players} players use {' or '.join(BOARD_SETS[players])}, not {layout}"
            )
        teams = self.check_teams(players, options.get("teams") or ())
        return new_game(self.ctx, players, first_seat, layout, teams, bool(options.get("uncertainty")))

    def random_options(self, rng: random.Random, players: int) -> dict[str, Any]:
        """Random games: half on another board set the player count allows, half advanced (random teams
        and characters), a fifth with the Uncertainty variant (KAS-R-06)."""
        options: dict[str, Any] = {}
        layouts = BOARD_SETS[players]
        if len(layouts) > 1 and rng.random() < 0.5:  # KAS-R-01: every board set the count allows
            options["layout"] = rng.choice(layouts)
        if self.pack.teams and rng.random() < 0.5:
            teams = rng.sample(list(self.pack.teams), players)
            options["teams"] = tuple((t.name, rng.choice(t.characters)) for t in teams)
        if rng.random() < 0.2:
            options["uncertainty"] = True
        return options

    def check_teams(self, players: int, teams: Any) -> tuple[tuple[str, str], ...]:
        """KAS-R-08/09: each seat a different team and one of its two characters."""
        if not teams:
            return ()
        pairs = tuple((str(t), str(c)) for t, c in teams)
        if len(pairs) != players:
            raise RulecraftError(f"KAS-R-08 (p.17) — one team per player: {players} players, {len(pairs)} teams")
        if len({t for t, _ in pairs}) != players:
            raise RulecraftError("KAS-R-08 (p.17) — each player takes a different team")
        for team, character in pairs:
            try:
                known = self.pack.team(team).characters
            except KeyError:
                names = [t.name for t in self.pack.teams]
                raise RulecraftError(f"KAS-R-08 (p.17) — no team {team!r}; the teams are {names}") from None
            if character not in known:
                raise RulecraftError(f"KAS-R-09 (p.17) — {team}'s characters are {list(known)}, not {character!r}")
            if character in NOT_MODELLED_CHARACTERS:
                raise RulecraftError(
                    f"{character} ({NOT_MODELLED_CHARACTERS[character]}) is registered but not modelled yet"
                )
        return pairs

    # -- decisions --------------------------------------------------------------------------
    def to_move(self, state: KasState) -> ToMove:
        if state.phase is OVER:
            return GAME_OVER
        if state.phase in _CHANCE:
            return CHANCE
        if state.phase is DEMAND_CHOICE:  # Flora Kingston decides in another's turn (KAS-R-74)
            assert state.decider is not None
            return state.decider
        return state.seat

    def legal_actions(self, state: KasState) -> list[KasAction]:
        return accepted(self.ctx, state, self._generated(state))  # what check accepts, in order

    def candidates(self, state: KasState) -> Candidates[KasAction]:
        """The generated actions unchecked, with ``check``'s verdict as the test: a random draw checks
        only the ones it draws."""
        return self._generated(state), acceptor(self.ctx, state)

    def _generated(self, state: KasState) -> list[KasAction]:
        """The phase's candidates, a superset of the legal actions in their order, each once."""
        phase = state.phase
        if phase is START_DEPOTS:
            game_map = self.ctx.map_of(state)
            candidates: list[KasAction] = [PlaceStartDepot(h) for h in game_map.rail_hexes()]
            if self.ctx.r("KAS-AMB-29") == "strict":  # no line left: the airship alone
                candidates.extend(StartAirship(h) for h in game_map.rail_hexes())
        elif phase is PLANNING:
            player = state.players[state.seat]
            planned = player.plan
            candidates = [plan for plan in _plans(deck_of(self.ctx, player)) if plan.card not in planned]
        elif phase is FLIGHT:
            candidates = self._flights(state)
        elif phase is CARGO:
            candidates = self._cargo(state)
        elif phase is ACTION:
            candidates = self._actions(state)
        elif phase is BONUS:
            candidates = self._bonus(state)
        elif phase is DEMAND_CHOICE:
            candidates = [ChooseDemandTile(g) for g in GOODS]
        elif phase is UPKEEP:
            candidates = self._upkeep(state)
        elif phase is SELLOUT:
            candidates = self._sellout(state)
        else:
            return []
        return candidates

    def _flights(self, state: KasState) -> list[KasAction]:
        player = state.players[state.seat]
        assert player.position is not None
        # The card's distances, the play area and the turn rules, as the check of this state's flights
        # (``fly_problem``) reads them: worked out once for both.
        _, card_distances, game_map, rules = self.ctx.of_state(state, flight_setting)
        kept = self.ctx.kept_for(game_map)
        out: list[KasAction] = []
        # Each distance once: flights of different lengths differ, and each distance's flights differ
        # (one per end hex; Ezekiel's one per end and seats robbed), so the list has no repeats.
        for moves in dict.fromkeys(card_distances):
            if player.character == "Ezekiel Crane":  # KAS-R-87: whom the path passes matters
                out.extend(self._robberies(state, moves))
                continue
            # One Fly per end hex: fixed by the map, the start, the distance and the turn rules (kept).
            key = ("flights", player.position, moves, rules)
            flights = kept.get(key)
            if flights is None:
                ends = flight.endpoints(game_map, player.position, moves, rules)
                flights = kept[key] = tuple(_fly(path) for path in ends.values())
            out.extend(flights)
        if not out and self.ctx.r("KAS-AMB-04") == "c":  # as far as legal
            farthest = farthest_flight(self.ctx, state)
            found = flight.endpoints(game_map, player.position, farthest, rules) if farthest else {}
            out.extend(Fly(path) for path in found.values())
        if not out:
            out.append(Fly(()))  # KAS-AMB-04 'a' (or 'b', the turn lost): no legal flight: the airship stays
        return out

    def _robberies(self, state: KasState, moves: int) -> list[KasAction]:
        """Ezekiel Crane's flights (KAS-R-87, p.20): one per end hex and set of seats robbed.  He
        MAY steal from each airship he passes, so every flight that robs everyone is listed first
        (the list as before the choice), then those sparing some of them (``Fly.spare``), each
        outcome once."""
        player = state.players[state.seat]
        assert player.position is not None
        start = player.position
        flights: list[tuple[tuple[int, ...], Any, tuple[int, ...]]] = []
        for path in flight.legal_flights(self.ctx.map_of(state), start, moves, flight_rules(self.ctx, state)):
            entered = path_hexes(start, path)
            flights.append((path, entered[-1] if path else start, robbed_by(self.ctx, state, entered)))
        seen: dict[tuple[Any, tuple[int, ...]], Fly] = {}
        for path, end, victims in flights:
            seen.setdefault((end, victims), Fly(path))
        for path, end, victims in flights:
            for spare in spared_choices(victims):
                robbed = list(victims)
                for seat in spare:
                    robbed.remove(seat)
                seen.setdefault((end, tuple(robbed)), Fly(path, spare))
        return list(seen.values())

    def _cargo(self, state: KasState) -> list[KasAction]:
        # Only the sources present here (KAS-R-29: a factory's own goods, an own depot; KAS-R-31:
        # unloading onto an own depot): the check would refuse every other load, swap and unload,
        # and refusing them one by one was most of the cargo phase's time.  Left out as well: what
        # is not there to take or give (an empty factory or depot, a swap or unload of a type not
        # in the hold: KAS-R-29..31).  Room in the hold is left to the check.  The check still judges
        # what is left, in the order it always had (a seed plays the same game).
        player = state.players[state.seat]
        at = player.position
        factory = factory_here(self.ctx, state, at)
        made_here = factory[1] if factory is not None and state.factories[factory[0]] >= 1 else None
        depot = self.ctx.depots_by_hex(state).get(at) if at is not None else None  # ``own_depot_at``, looked up
        if depot is not None and depot.owner != state.seat:
            depot = None
        out: list[KasAction] = [_END_CARGO]
        if made_here is None and depot is None:  # nothing here to load, swap or unload
            return out
        aboard = [g for g, n in zip(GOODS, player.hold, strict=True) if n >= 1]
        for i, goods in enumerate(GOODS):
            for source, present in (("factory", goods == made_here), ("depot", depot is not None)):
                if present and (source == "factory" or (depot is not None and depot.goods[i] >= 1)):
                    out.append(Load(goods, source))
                    out.extend(Swap(other, goods, source) for other in aboard if other != goods)
            if depot is not None and player.hold[i] >= 1:
                out.append(Unload(goods))
        return out

    def _actions(self, state: KasState) -> list[KasAction]:
        out: list[KasAction] = list(_ACTION_CHOICES)  # Pass: KAS-AMB-19
        out.extend(self._depots(state))
        out.extend(_COURSE_CORRECTIONS)
        out.extend(self._shipments(state))
        if state.players[state.seat].character == "Eva Blane":
            out.extend(self._new_lines(state))
        if state.players[state.seat].character == "Eli Diamond":
            out.extend(ExtraFlight(card) for card in eli_cards(self.ctx, state))
        if state.players[state.seat].character == "Aurelia Bayley":
            places = [None, *(d.at for d in state.depots if d.owner == state.seat)]
            out.extend(Convert(g, into, at) for at in places for g in GOODS for into in GOODS if g != into)
        return out

    def _depots(self, state: KasState) -> list[KasAction]:
        """Build Depot on the empty rail hexes, less what the check would refuse for the whole turn or
        the whole line: no depot token left (KAS-R-33), a line whose depot costs more than the purse
        (KAS-R-55).  The check still judges each hex that is left, in rail-hex order.

        What :func:`depots_listed` lists, from a table of each empty rail hex's price made once per
        play area, depot hexes and Victor Blane's discount (KAS-R-70): every action phase asked each
        line its price again, and that was most of the phase's time."""
        player = state.players[state.seat]
        if player.depots_left < 1:
            return []
        victor = player.character == "Victor Blane"  # KAS-R-70: the one thing of the seat a price reads
        table = self.ctx.keep_per_depots(state, ("depot-prices", victor), _depot_price_table)
        money = player.money
        return [build for cost, build in table if cost <= money]

    def _new_lines(self, state: KasState) -> list[KasAction]:
        """KAS-R-71: one shortest track path per pair of cities (other paths are legal too)."""
        game_map = self.ctx.map_of(state)
        budget = min(state.players[state.seat].tokens, state.players[state.seat].money)
        strict = self.ctx.r("KAS-AMB-34") == "strict"  # no water, no second line between two cities
        free = {
            h
            for h, mh in game_map.hexes.items()
            if not mh.partial
            and mh.rail is None
            and mh.city is None
            and mh.factory is None
            and not (strict and mh.water)
        }
        linked = {frozenset(ln.ends) for ln in game_map.lines} if strict else set()
        out: list[KasAction] = []
        for i, a in enumerate(game_map.cities):
            starts = sorted(h for h in a.at.neighbours() if h in free)
            for b in game_map.cities[i + 1 :]:
                if frozenset((a.name, b.name)) in linked:
                    continue
                goal = {h for h in b.at.neighbours() if h in free}
                path = _shortest(starts, goal, free, budget)
                if path:
                    out.append(BuildLine((a.name, b.name), path, path[0]))
        return out

    def _shipments(self, state: KasState) -> list[KasAction]:
        seat = state.seat
        for depot in state.depots:
            if depot.owner == seat and depot.goods != NO_GOODS:
                break
        else:
            return []  # no goods of the seat's on the board: ``legal_shipments`` lists none (KAS-R-36)
        player = state.players[seat]
        game_map = self.ctx.map_of(state)
        shipments = shipping.legal_shipments(
            game_map,
            state.depots,
            state.cities,
            state.seat,
            player.money,
            self.ctx.prices(state),
            player.rail_level,
            no_tolls=self.ctx.no_tolls(player),
            rules=self.ctx.route_rules(),
        )
        out: list[KasAction] = [ship_action(s) for s in shipments]
        character = player.character
        if character in ("Bishop Kingston", "Sebastian King", "Corey McQueen"):
            for action in [a for a in out if isinstance(a, ShipGoods) and a.to_city is not None]:
                if character == "Bishop Kingston":  # KAS-R-75; KAS-AMB-37 'placed': room for n - 1
                    out.append(attrs.evolve(action, returned=True))
                    out.append(attrs.evolve(action, returned=True, count=action.count + 1))
                elif character == "Sebastian King":  # KAS-R-78
                    out.extend(attrs.evolve(action, bet=b) for b in (1, 2, 3))
                else:  # KAS-R-79: one good of another type from the same depot
                    for other in GOODS:
                        if other != action.goods:
                            out.append(attrs.evolve(action, swindle=other))
                            out.append(attrs.evolve(action, swindle=other, count=action.count + 1))
                    out.extend(self._swindles_from_other_depots(state, action))
        return out

    def _swindles_from_other_depots(self, state: KasState, action: ShipGoods) -> list[KasAction]:
        """KAS-AMB-39 'any-depot': the swindled good (KAS-R-79) may come from another own depot; the
        shipment still leaves from its origin along its route."""
        if self.ctx.r("KAS-AMB-39") != "any-depot":
            return []
        out: list[KasAction] = []
        for depot in state.depots:
            if depot.owner != state.seat or depot.at == action.origin:
                continue
            for other, held in zip(GOODS, depot.goods, strict=True):
                if other != action.goods and held >= 1:
                    out.append(attrs.evolve(action, swindle=other, swindle_from=depot.at))
                    out.append(attrs.evolve(action, swindle=other, swindle_from=depot.at, count=action.count + 1))
        return out

    def _bonus(self, state: KasState) -> list[KasAction]:
        out: list[KasAction] = [Pass(), ExtraAction()]
        if state.bonus == "ship-one":
            any_size = self.ctx.r("KAS-AMB-33") == "b"  # one shipment of any size
            out.extend(a for a in self._shipments(state) if isinstance(a, ShipGoods) and (any_size or a.count == 1))
        if state.bonus == "steal":
            me = state.players[state.seat]
            discards: list[str | None] = [None, *GOODS]
            for victim in range(state.player_count):
                if victim == state.seat:
                    continue
                places: list[Any] = [None] + [d.at for d in state.depots if d.owner == victim and d.at == me.position]
                out.extend(Steal(victim, g, at, d) for at in places for g in GOODS for d in discards)
        return out

    def _upkeep(self, state: KasState) -> list[KasAction]:
        # Only goods there are to return (the check refuses the others, KAS-R-45).
        hold = state.players[state.seat].hold
        out: list[KasAction] = [PayUpkeep()]
        out.extend(ReturnGood(g) for g, n in zip(GOODS, hold, strict=True) if n >= 1)
        out.extend(
            ReturnGood(g, d.at)
            for d in state.depots
            if d.owner == state.seat
            for g, n in zip(GOODS, d.goods, strict=True)
            if n >= 1
        )
        return out

    def _sellout(self, state: KasState) -> list[KasAction]:
        out: list[KasAction] = [EndSellout()]
        game_map = self.ctx.map_of(state)
        player = state.players[state.seat]
        for depot in state.depots:
            if depot.owner != state.seat:
                continue
            for i, goods in enumerate(GOODS):
                if depot.goods[i] < 1:
                    continue
                for route in shipping.sellout_options(
                    game_map,
                    state.depots,
                    state.cities,
                    state.seat,
                    player.rail_level,
                    depot.at,
                    goods,
                    no_tolls=self.ctx.no_tolls(player, sellout=True),
                    rules=self.ctx.route_rules(),
                ):
                    assert route.destination.name is not None
                    sale = Sell(depot.at, goods, route.destination.name, route.lines, route.payees)
                    out.append(sale)
                    out.extend(self._sale_powers(sale, player.character))
        return out

    def _sale_powers(self, sale: Sell, character: str | None) -> list[KasAction]:
        """KAS-AMB-26 'all': a sale is a one-good delivery, so Sebastian King may bet $1-$3 on it
        (KAS-R-78) and Bishop Kingston may put the good back rather than on a city slot (KAS-R-75:
        a choice only where a sale takes a slot, KAS-AMB-25 'consume-room').  The check judges them."""
        if self.ctx.r("KAS-AMB-26") != "all":
            return []
        if character == "Sebastian King":
            return [attrs.evolve(sale, bet=bet) for bet in (1, 2, 3)]
        if character == "Bishop Kingston" and self.ctx.r("KAS-AMB-25") == "consume-room":
            return [attrs.evolve(sale, returned=True)]
        return []

    def chance_outcomes(self, state: KasState) -> list[tuple[KasAction, Fraction]]:
        if state.phase is REMOVE_TILES:
            pile = state.market_pile
            total = sum(pile)
            return [(RemoveMarketTile(g), Fraction(n, total)) for g, n in zip(GOODS, pile, strict=True) if n]
        if state.phase is NEW_MARKET:
            pile = state.market_pile
            total = sum(pile)
            return [(DrawMarketTile(g), Fraction(n, total)) for g, n in zip(GOODS, pile, strict=True) if n]
        if state.phase is GAMBLE:
            return self._gamble_outcomes(state)
        if state.phase is DEMAND_PAIR:  # two tiles without replacement, exactly
            pile = state.demand_pile
            total = sum(pile)
            pairs = total * (total - 1) // 2
            out: list[tuple[KasAction, Fraction]] = []
            for i, a in enumerate(GOODS):
                for j in range(i, len(GOODS)):
                    ways = pile[i] * (pile[i] - 1) // 2 if i == j else pile[i] * pile[j]
                    if ways:
                        out.append((DrawDemandPair(a, GOODS[j]), Fraction(ways, pairs)))
            return out
        if state.phase is DEMAND_DRAW:
            pile = state.demand_pile
            total = sum(pile)
            return [(DrawDemandTile(g), Fraction(n, total)) for g, n in zip(GOODS, pile, strict=True) if n]
        return []

    def _gamble_outcomes(self, state: KasState) -> list[tuple[KasAction, Fraction]]:
        """KAS-AMB-38: 5 tokens, one per goods type; $k turns k of them.  Under 'reuse' only
        the outcome matters (k/5); under 'spent' every k-set of the tokens left is equally
        likely, and which one turned up decides the later odds."""
        assert state.gamble is not None
        bet = state.gamble[0]
        if self.ctx.r("KAS-AMB-38") == "reuse":
            p = Fraction(bet, 5)
            return [(Gamble(True), p), (Gamble(False), 1 - p)]
        left = gambler_tokens(state.players[state.seat])
        goods = gamble_goods(self.ctx, state)
        sets = list(itertools.combinations(left, bet))
        return [(Gamble(goods in turned, turned), Fraction(1, len(sets))) for turned in sets]

    def sample_chance(self, state: KasState, rng: random.Random) -> KasAction:
        phase = state.phase
        if phase is NEW_MARKET or phase is DEMAND_DRAW:
            # A tile from a pile (KAS-R-15, KAS-R-40), a random game's commonest draw: ``chance_outcomes``'
            # tiles and odds without the Fractions.  ``n / total`` is ``float(Fraction(n, total))`` (the
            # Fraction divides the same two integers, reduced; true division rounds the value exactly),
            # so the draw is the same.
            new_market = phase is NEW_MARKET
            pile = state.market_pile if new_market else state.demand_pile
            tile = _draw_market_tile if new_market else _draw_demand_tile
            total = sum(pile)
            tiles = [tile(g) for g, n in zip(GOODS, pile, strict=True) if n]
            return rng.choices(tiles, weights=[n / total for n in pile if n])[0]
        outcomes = self.chance_outcomes(state)
        return rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]

    # -- legality and effects ---------------------------------------------------------------------
    def check(self, state: KasState, action: KasAction) -> Rejection | None:
        return check(self.ctx, state, action)

    def rejections(self, state: KasState, action: KasAction) -> tuple[Rejection, ...]:
        return rejections(self.ctx, state, action)

    def grounds(self, state: KasState, action: KasAction) -> tuple[str, ...]:
        """The acting team's airship chart and star card (pack data no code line can cite)."""
        return team_grounds(self.ctx, self.catalogue, state, action)

    def transition(self, state: KasState, action: KasAction) -> KasState:
        return transition(self.ctx, state, action)

    # -- outcome ------------------------------------------------------------------------------------
    def scores(self, state: KasState) -> dict[Seat, int]:
        """KAS-R-52: $1 = 1 VP, 10 per depot, 15 for a level-6 airship, rail 4/5/6 = 5/15/30."""
        return {seat: parts["total"] for seat, parts in self.score_parts(state).items()}

    def score_parts(self, state: KasState) -> dict[Seat, dict[str, int]]:
        """KAS-R-52 (p.16) by part: ``money`` ($1 = 1 VP), ``depots`` (10 VP per depot on the board),
        ``airship`` (15 VP at the top of the airship track) and ``rail`` (the rail level reached:
        4/5/6 = 5/15/30 VP)."""
        out: dict[Seat, dict[str, int]] = {}
        for seat, player in enumerate(state.players):
            money = player.money
            depots = 10 * sum(1 for d in state.depots if d.owner == seat)
            airship = 15 if player.airship_level >= len(self.pack.airship_track) else 0
            rail = self.ctx.rail_vp(player)
            total = money + depots + airship + rail
            out[seat] = {"money": money, "depots": depots, "airship": airship, "rail": rail, "total": total}
        return out

    def termination(self, state: KasState) -> str:
        """KAS-R-50 (p.8, p.16): the market tiles cannot fill the 3 slots after round 5; the Sellout
        (KAS-R-51) is played and the game is scored."""
        return "KAS-R-50"

    def tiebreak(self, state: KasState) -> str | None:
        """KAS-R-53 (p.16) whenever seats tie on VP for the win: the most money, else a shared win."""
        scores = self.scores(state)
        best = max(scores.values())
        return "KAS-R-53" if sum(1 for v in scores.values() if v == best) > 1 else None

    def ranking(self, state: KasState) -> dict[Seat, dict[str, int]]:
        """KAS-R-53 (p.16): the count the tie-break compares, each seat's money after the Sellout."""
        return {seat: {"money": p.money} for seat, p in enumerate(state.players)}

    def winners(self, state: KasState) -> tuple[Seat, ...]:
        """KAS-R-53: most VP; then most money; then shared."""
        scores = self.scores(state)
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        richest = max(state.players[s].money for s in leaders)
        return tuple(s for s in leaders if state.players[s].money == richest)

    # -- text ------------------------------------------------------------------------------------------
    def render(self, state: KasState) -> str:
        return render.text(self, state)

    def picture(self, state: KasState) -> str:
        from rulecraft.model.kings_of_air_and_steam.picture import svg

        return svg(self, state)

    def describe(self, state: KasState, action: KasAction) -> str:
        return render.describe(self, state, action)

    # -- serialization -------------------------------------------------------------------------------
    def action_to_json(self, action: KasAction) -> dict[str, Any]:
        data = to_jsonable(action)
        assert isinstance(data, dict)
        if isinstance(action, Gamble) and not action.turned:  # recorded only under KAS-AMB-38 'spent'
            del data["turned"]
        if isinstance(action, Fly) and not action.spare:  # recorded only when Ezekiel Crane spares someone
            del data["spare"]
        if isinstance(action, Sell) and not (action.bet or action.returned):  # KAS-AMB-26 'all' only
            del data["bet"], data["returned"]
        if isinstance(action, ShipGoods) and action.swindle_from is None:  # KAS-AMB-39 'any-depot' only
            del data["swindle_from"]
        return {"kind": action.kind, **data}

    def state_to_json(self, state: KasState) -> dict[str, Any]:
        """Fields only an alternative reading uses are left out while unused, so the
        default readings' JSON stays as it was (KAS-AMB-38 'spent', KAS-AMB-40 'all-moves')."""
        data = to_jsonable(state)
        assert isinstance(data, dict)
        for player in data["players"]:
            if not player["spent_tokens"]:
                del player["spent_tokens"]
            if not player["sellout_tolls"]:  # only after a tolled Sellout sale (KAS-AMB-30)
                del player["sellout_tolls"]
        if data["cargo"] is not None and data["cargo"]["direction"] is None:
            del data["cargo"]["direction"]
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> KasState:
        return from_jsonable(json_object(data, "state"), KasState, what="state")

    def check_state(self, state: KasState) -> None:
        """The layout first (a printed example's own board must have come with the state), then sizes
        against the map and the pack (cheap); the invariants of component counts
        (:data:`LOAD_INVARIANTS`) are checked after it (``rulecraft.statefile.admit``)."""
        from rulecraft.statefile import at_most

        n = len(state.players)
        at_most("state.players", n, self.max_players, "players", "KAS-R-01")
        if n < self.min_players:
            raise StateError("state.players", f"{n} players; the game is for {self.min_players} to {self.max_players}")
        game_map = self._state_map(state)
        for field, count, most in (
            ("factories", len(state.factories), len(game_map.factories)),
            ("cities", len(state.cities), len(game_map.cities)),
        ):
            if count != most:
                raise StateError(f"state.{field}", f"{count} entries; map {state.layout} has {most} (KAS-R-01)")
        at_most("state.depots", len(state.depots), n * 10, "depots", "KAS-R-02")
        at_most("state.market_slots", len(state.market_slots), 3, "market tiles", "KAS-R-15")
        at_most("state.order", len(state.order), n, "seats", "KAS-R-13")
        at_most("state.waiting_cities", len(state.waiting_cities), len(game_map.cities), "cities", "KAS-R-40")
        at_most("state.new_lines", len(state.new_lines), len(game_map.hexes), "rail lines", "KAS-R-71")
        goods = self.pack.goods_per_type * len(GOODS)
        at_most("state.demand_choices", len(state.demand_choices), goods, "demand tiles", "KAS-R-74")
        at_most("state.taken", len(state.taken), 8, "actions taken this turn", "KAS-R-32")
        for seat, p in enumerate(state.players):
            where = f"state.players[{seat}]"
            at_most(f"{where}.plan", len(p.plan), 4, "planned cards", "KAS-R-19")
            at_most(f"{where}.slots", len(p.slots), 4, "plan slots", "KAS-R-19")
            at_most(f"{where}.extra_cards", len(p.extra_cards), len(self.pack.deck) + 1, "cards", "KAS-R-83")
            at_most(f"{where}.spent_tokens", len(p.spent_tokens), len(GOODS), "gambler tokens", "KAS-R-78")

    def _state_map(self, state: KasState) -> Any:
        """The state's map, or why it has none: a fixture layout lives beside the state, not in the pack."""
        try:
            return self.ctx.game_map(state.layout)
        except KeyError:
            layouts = ", ".join(lay.name for lay in self.pack.layouts)
            if state.layout == "fixture":
                raise StateError(
                    "state.layout",
                    "'fixture' is a printed example's own board, which did not come with the state"
                    " (a state file saved by rulecraft carries it; the protocol's set_state takes it as 'fixture')",
                ) from None
            raise StateError(
                "state.layout", f"{state.layout[:60]!r} is no layout of pack {self.pack.name} ({layouts}; KAS-R-01)"
            ) from None

    def state_fixture(self, state: KasState) -> dict[str, Any] | None:
        """A state on a printed example's own board carries that board (``{'map': ...}``, what
        :meth:`load_fixture` takes), so it can be read back without the scenario."""
        if state.layout != "fixture" or "fixture" not in self.ctx.maps:
            return None
        return {"map": map_spec(self.ctx.maps["fixture"])}

    # -- scenarios ----------------------------------------------------------------------------------------

    def load_fixture(self, fixture: Mapping[str, Any]) -> None:
        """A printed example's minimal board (the scenario's ``given.map``) as layout "fixture"."""
        from rulecraft.model.kings_of_air_and_steam.scenario import fixture_map

        if set(fixture) != {"map"}:
            raise RulecraftError(f"fixture: Kings of Air and Steam takes {{'map': ...}}, not {sorted(fixture)}")
        self.ctx.maps["fixture"] = fixture_map(fixture["map"])

    # -- helpers for tools ----------------------------------------------------------------------------
    def own_depot_at(self, state: KasState, seat: int, at: Any) -> Any:
        return own_depot_at(state, seat, at)

    def depot_at(self, state: KasState, at: Any) -> Any:
        return depot_at(state, at)


# Actions are immutable values: the ones offered at every turn are made once.
_COURSE_CORRECTIONS: tuple[KasAction, ...] = tuple(CourseCorrection(d) for d in range(6))
_DECK_PLANS: dict[tuple[str, ...], tuple[Plan, ...]] = {}
_END_CARGO = EndCargo()
# Each action made once per goods type or card id (functools' cache: a pack's types and cards).
_draw_market_tile = functools.cache(DrawMarketTile)
_draw_demand_tile = functools.cache(DrawDemandTile)
_plan = functools.cache(Plan)
_FLIGHTS: dict[tuple[int, ...], Fly] = {}
_ACTION_CHOICES: tuple[KasAction, ...] = (Grant(), UpgradeAirship(), UpgradeRail(), Pass())
_BUILD_DEPOTS: dict[Hex, BuildDepot] = {}


def spared_choices(victims: tuple[int, ...]) -> list[tuple[int, ...]]:
    """KAS-R-87: whom Ezekiel Crane may let go of the ``victims`` his flight passes (a seat listed
    once per theft it would suffer): every non-empty choice, ascending, a seat up to its count."""
    seats = sorted(set(victims))
    counts = [range(victims.count(seat) + 1) for seat in seats]
    choices = [
        tuple(s for s, n in zip(seats, take, strict=True) for _ in range(n)) for take in itertools.product(*counts)
    ]
    return [spare for spare in choices if spare]


def _build_depot(at: Hex) -> BuildDepot:
    """``BuildDepot(at)``, made once per hex."""
    found = _BUILD_DEPOTS.get(at)
    if found is None:
        found = _BUILD_DEPOTS[at] = BuildDepot(at)
    return found


def _depot_price_table(ctx: Context, state: KasState) -> tuple[tuple[int, BuildDepot], ...]:
    """Each empty rail hex of ``state``'s play area, in rail-hex order, with what a depot there costs the
    seat to move (``depot_cost``, asked once per line: a line's hexes cost the same, KAS-R-33)."""
    game_map = ctx.map_of(state)
    occupied = {d.at for d in state.depots}
    prices: dict[str, int] = {}
    table: list[tuple[int, BuildDepot]] = []
    for h, line in game_map.rail_hex_lines():
        if h in occupied:
            continue
        cost = prices.get(line)
        if cost is None:
            cost = prices[line] = depot_cost(ctx, state, h)
        table.append((cost, _build_depot(h)))
    return tuple(table)


def depots_listed(ctx: Context, state: KasState) -> list[KasAction]:
    """The Build Depot candidates as the generator first listed them, every line priced anew: the
    reference the price tables of ``KingsOfAirAndSteamGame._depots`` are tested against."""
    player = state.players[state.seat]
    if player.depots_left < 1:
        return []
    game_map = ctx.map_of(state)
    occupied = {d.at for d in state.depots}
    affordable: dict[str, bool] = {}
    out: list[KasAction] = []
    for h, line in game_map.rail_hex_lines():
        if h in occupied:
            continue
        ok = affordable.get(line)
        if ok is None:
            ok = affordable[line] = depot_cost(ctx, state, h) <= player.money
        if ok:
            out.append(_build_depot(h))
    return out


def _fly(path: tuple[int, ...]) -> Fly:
    """``Fly(path)`` (no seat spared), made once per path."""
    found = _FLIGHTS.get(path)
    if found is None:
        found = _FLIGHTS[path] = Fly(path)
    return found


def _plans(deck: tuple[str, ...]) -> tuple[Plan, ...]:
    """``Plan`` of each card of ``deck``, in its order, made once per deck."""
    found = _DECK_PLANS.get(deck)
    if found is None:
        if len(_DECK_PLANS) >= 256:  # bounded: a deck per team and the standard one
            _DECK_PLANS.clear()
        found = _DECK_PLANS[deck] = tuple(_plan(card) for card in deck)
    return found


def _shortest(starts: list[Any], goal: set[Any], free: set[Any], most: int) -> tuple[Any, ...] | None:
    """A shortest path of free hexes from a start to a goal hex, at most ``most`` long (BFS)."""
    frontier: list[tuple[Any, ...]] = [(h,) for h in starts]
    seen = set(starts)
    while frontier:
        path = frontier.pop(0)
        if len(path) > most:
            return None
        if path[-1] in goal:
            return path
        for nxt in sorted(path[-1].neighbours()):
            if nxt in free and nxt not in seen:
                seen.add(nxt)
                frontier.append((*path, nxt))
    return None


def ship_action(shipment: Any) -> ShipGoods:
    route = shipment.route
    dest = route.destination
    return ShipGoods(
        origin=route.origin,
        goods=shipment.goods,
        count=shipment.count,
        to_city=dest.name if dest.kind == "city" else None,
        to_depot=dest.at if dest.kind == "depot" else None,
        lines=route.lines,
        payees=route.payees,
    )


def map_spec(game_map: Any) -> dict[str, Any]:
    """A map in the scenario's ``given.map`` form (what ``scenario.fixture_map`` reads back)."""
    hexes = sorted(game_map.hexes.values(), key=lambda h: (h.at.q, h.at.r))
    return {
        "hexes": [[h.at.q, h.at.r, "partial"] if h.partial else [h.at.q, h.at.r] for h in hexes],
        "factories": {f"{at.q},{at.r}": kind for at, kind in game_map.factories},
        "cities": [
            {"name": c.name, "at": [c.at.q, c.at.r], "demand": c.demand, "slots": c.slots} for c in game_map.cities
        ],
        "lines": [
            {"id": ln.id, "ends": list(ln.ends), "hexes": [[h.q, h.r] for h in ln.hexes]} for ln in game_map.lines
        ],
    }
