"""What the rules of a configured game consult: the pack, its map for this
layout, and the ruleset's readings (never a global)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

from rulecraft.model.kings_of_air_and_steam.catalogue import PARAMETERS
from rulecraft.model.kings_of_air_and_steam.components import GOODS, AirshipLevel, GameMap, Pack
from rulecraft.model.kings_of_air_and_steam.flight import FlightRules
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.shipping import RouteRules
from rulecraft.model.kings_of_air_and_steam.state import Depot, KasState, PlayerState

STEPPED_TRACK = (4, 5, 6, 7, 8)  # KAS-AMB-09 'b'

T = TypeVar("T")


class _Memo(dict[int, tuple["Context", GameMap, dict[Any, Any]]]):
    """``Context.kept_for``'s values per play area (by the map's id; the context and the map are kept
    with them, so that the id is never another's).  Module-level and emptied by ``cache_clear`` as
    functools' caches are: the mutation runs empty those before every test (a value kept from an
    earlier test would hide a mutant of the rule that worked it out)."""

    def cache_clear(self) -> None:
        self.clear()

    def cache_info(self) -> int:
        return len(self)


_KEPT = _Memo()
_KEPT_MAPS = 16  # play areas kept
_KEPT_VALUES = 8192  # values kept per play area


def _without_fillers(game_map: GameMap) -> GameMap:
    """KAS-AMB-03 'boards-only': fillers only close gaps, so their hexes are not part of
    the play area (no flight passes or ends there, no Course Correction enters them)."""
    hexes = {at: mh for at, mh in game_map.hexes.items() if mh.board != "filler"}
    return GameMap(game_map.layout, hexes, game_map.cities, game_map.lines, game_map.factories)


@attrs.frozen
class Context:
    pack: Pack
    readings: dict[str, str] = attrs.field(hash=False, eq=False)
    maps: dict[str, GameMap] = attrs.field(factory=dict, hash=False, eq=False)
    # The rule parameters (catalogue.PARAMETERS), printed values unless a variant changes them.
    params: dict[str, int] = attrs.field(factory=PARAMETERS.defaults, hash=False, eq=False)
    # The flight rules built from the readings, by (sharp_ok, straight_only): asked for at every flight.
    _flight_rules: dict[tuple[bool, bool], FlightRules] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # The last (map, depots tuple) asked of ``depot_lines`` and its answer.
    _depot_memo: list[Any] = attrs.field(factory=list, init=False, hash=False, eq=False, repr=False)
    # ``keep_per_depots``: the last depots tuple, map, function and key asked, and the answer.
    _depots_last: list[Any] = attrs.field(factory=list, init=False, hash=False, eq=False, repr=False)
    # ``depots_by_hex``: the last depots tuple asked and its depots by hex.
    _by_hex_memo: list[Any] = attrs.field(factory=list, init=False, hash=False, eq=False, repr=False)
    # ``of_state``: per function, the last state asked and its answer.
    _state_memo: dict[Callable[..., Any], tuple[KasState, Any]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )

    # ``route_rules``, built once: the readings do not change.
    _route_rules: list[RouteRules] = attrs.field(factory=list, init=False, hash=False, eq=False, repr=False)

    def r(self, amb_id: str) -> str:
        return self.readings[amb_id]

    def p(self, name: str) -> int:
        return self.params[name]

    def game_map(self, layout: str) -> GameMap:
        found = self.maps.get(layout)
        if found is None:
            found = GameMap.from_pack(self.pack, layout)
            if self.r("KAS-AMB-03") == "boards-only":
                found = _without_fillers(found)
            self.maps[layout] = found
        return found

    def map_of(self, state: KasState) -> GameMap:
        """The play area of a state: its layout plus the rail lines Eva Blane built (KAS-R-71)."""
        if not state.new_lines:  # the common case, asked by nearly every rule: the layout's own map
            known = self.maps.get(state.layout)
            return known if known is not None else self.game_map(state.layout)
        base = self.game_map(state.layout)
        key = f"{state.layout}+" + "+".join(f"{ln.id}:{ln.ends}:{ln.hexes}" for ln in state.new_lines)
        found = self.maps.get(key)
        if found is None:
            hexes = dict(base.hexes)
            for line in state.new_lines:
                for at in line.hexes:
                    hexes[at] = attrs.evolve(hexes[at], rail=line.id)
            lines = tuple(sorted((*base.lines, *state.new_lines), key=lambda ln: ln.id))
            found = GameMap(base.layout, hexes, base.cities, lines, base.factories)
            self.maps[key] = found
        return found

    def flight_rules(self, *, sharp_ok: bool = False, straight_only: bool = False) -> FlightRules:
        """``FlightRules.from_readings`` for these readings, built once per pair of flags."""
        found = self._flight_rules.get((sharp_ok, straight_only))
        if found is None:
            found = FlightRules.from_readings(self.readings, sharp_ok=sharp_ok, straight_only=straight_only)
            self._flight_rules[sharp_ok, straight_only] = found
        return found

    def depot_lines(self, state: KasState) -> frozenset[str | None]:
        """The rail lines of the state's play area that hold a depot (KAS-R-33's price of a depot).
        Remembered for the last map and depots tuple asked (by identity: a state and those after it
        share one depots tuple until a depot is built, and the move generator asks once per line)."""
        game_map = self.map_of(state)
        depots = state.depots
        memo = self._depot_memo
        if memo and memo[0] is game_map and memo[1] is depots:
            lines: frozenset[str | None] = memo[2]
            return lines
        lines = frozenset(game_map.line_of(d.at) for d in depots)
        memo[:] = (game_map, depots, lines)
        return lines

    def depots_by_hex(self, state: KasState) -> Mapping[Hex, Depot]:
        """The state's depots by hex, the first on a hex (what ``rules.depot_at`` finds).  Remembered for
        the last depots tuple asked (by identity: the states of a turn share one until goods move)."""
        memo = self._by_hex_memo
        depots = state.depots
        if memo and memo[0] is depots:
            found: dict[Hex, Depot] = memo[1]
            return found
        found = {}
        for depot in depots:
            found.setdefault(depot.at, depot)
        memo[:] = (depots, found)
        return found

    def of_state(self, state: KasState, compute: Callable[[Context, KasState], T]) -> T:
        """``compute(self, state)``, worked out once for the last state it was asked for (by identity:
        a state is an immutable value).  For what the rules ask again for every candidate action of
        one state, such as the card, play area and turn rules every flight is judged against."""
        memo = self._state_memo.get(compute)
        if memo is not None and memo[0] is state:
            found: T = memo[1]
            return found
        value = compute(self, state)
        self._state_memo[compute] = (state, value)
        return value

    def kept_for(self, game_map: GameMap) -> dict[Any, Any]:
        """A memo for values worked out from this context and a play area (and what else their keys
        say): one dict per (context, map), a bounded few (a game has one map; a fixture or Eva Blane's
        lines make more), in :data:`_KEPT`."""
        kept = _KEPT.get(id(game_map))
        if kept is None or kept[1] is not game_map or kept[0] is not self:
            if len(_KEPT) >= _KEPT_MAPS:
                _KEPT.clear()
            kept = _KEPT[id(game_map)] = (self, game_map, {})
        values = kept[2]
        if len(values) >= _KEPT_VALUES:  # bounded: a caller adds a value or two after asking
            values.clear()
        return values

    def keep_per_depots(self, state: KasState, key: Any, compute: Callable[[Context, KasState], T]) -> T:
        """``compute(self, state)`` for a value that depends only on the state's play area, the hexes of
        its depots and ``key`` (what else it reads of the state, e.g. the seat's discount): worked out once
        and kept (bounded), since the depots change a few dozen times a game and are asked every turn."""
        game_map = self.map_of(state)
        depots = state.depots
        last = self._depots_last
        # The last answer first, by identity (the states of a turn share one depots tuple until goods
        # move or a depot is built): no key to build and hash.
        if last and last[0] is depots and last[1] is game_map and last[2] is compute and last[3] == key:
            found: T = last[4]
            return found
        values = self.kept_for(game_map)
        full_key = ("depots", tuple([d.at for d in depots]), key)
        try:
            found = values[full_key]
        except KeyError:
            found = values[full_key] = compute(self, state)
        last[:] = (depots, game_map, compute, key, found)
        return found

    def route_rules(self) -> RouteRules:
        """The shipping readings KAS-AMB-14..17 as the shipping module takes them (built once: every
        action phase asks)."""
        if self._route_rules:
            return self._route_rules[0]
        rules = RouteRules(
            origin_stop=self.r("KAS-AMB-14") == "origin-stop",
            open_only=self.r("KAS-AMB-15") == "open-only",
            revisit=self.r("KAS-AMB-15") == "revisit",
            free_stop=self.r("KAS-AMB-16") == "free-choice",
            cash_only=self.r("KAS-AMB-17") == "cash-only",
        )
        self._route_rules.append(rules)
        return rules

    def market_track(self) -> tuple[int, ...]:
        return STEPPED_TRACK if self.r("KAS-AMB-09") == "b" else self.pack.market_track

    def prices(self, state: KasState) -> tuple[int, ...]:
        """KAS-R-16: each type's value is the track space its pushes reached (capped)."""
        track = self.market_track()
        return tuple(track[min(n, len(track) - 1)] for n in state.pushes)

    def price(self, state: KasState, goods: str) -> int:
        return self.prices(state)[GOODS.index(goods)]

    def airship_track(self, player: PlayerState) -> tuple[AirshipLevel, ...]:
        """The base side, or the team's airship chart in the advanced game (KAS-R-57)."""
        if player.team is not None:
            return self.pack.team(player.team).airship_track
        return self.pack.airship_track

    def airship(self, player: PlayerState) -> AirshipLevel:
        """The airship track space the player's marker stands on (KAS-R-34)."""
        return self.airship_track(player)[player.airship_level - 1]

    def priority(self, player: PlayerState) -> int:
        """KAS-R-10: the character card's priority number: the team's (KAS-AMB-46 'team-order'), or
        under 'per-character' the character's own, from the pack (the game refuses a pack without)."""
        assert player.team is not None
        team = self.pack.team(player.team)
        if self.r("KAS-AMB-46") == "per-character":
            return next(number for name, number in team.character_priority if name == player.character)
        return team.priority

    def no_tolls(self, player: PlayerState, *, sellout: bool = False) -> bool:
        """KAS-R-86: Thaddeus Birch never pays tolls; in the Sellout only while his
        power holds there (KAS-AMB-26: not under 'none')."""
        if sellout and self.r("KAS-AMB-26") == "none":
            return False
        return player.character == "Thaddeus Birch"

    def rail_start(self) -> int:
        """The rail track's starting space (KAS-AMB-07): level 1, or 0 under 'rail-0',
        a space below level 1 from which no shipment has a stop to spare."""
        return 0 if self.r("KAS-AMB-07") == "rail-0" else 1

    def rail_vp(self, player: PlayerState) -> int:
        """KAS-R-52: the rail track's VP; the 'rail-0' starting space (KAS-AMB-07) scores none."""
        if player.rail_level < 1:
            return 0
        return self.pack.rail_track[player.rail_level - 1].vp

    def rating(self, player: PlayerState) -> int:
        return self.airship(player).diamonds

    def capacity(self, player: PlayerState) -> int:
        return self.airship(player).capacity
