"""What the rules of a configured game consult: the pack, its map for this
layout, and the ruleset's readings (never a global)."""

from __future__ import annotations

import attrs

from rulecraft.model.kings_of_air_and_steam.components import GOODS, AirshipLevel, GameMap, Pack
from rulecraft.model.kings_of_air_and_steam.state import KasState, PlayerState

STEPPED_TRACK = (4, 5, 6, 7, 8)  # KAS-AMB-09 'b'


@attrs.frozen
class Context:
    pack: Pack
    readings: dict[str, str] = attrs.field(hash=False, eq=False)
    maps: dict[str, GameMap] = attrs.field(factory=dict, hash=False, eq=False)

    def r(self, amb_id: str) -> str:
        return self.readings[amb_id]

    def game_map(self, layout: str) -> GameMap:
        found = self.maps.get(layout)
        if found is None:
            found = GameMap.from_pack(self.pack, layout)
            self.maps[layout] = found
        return found

    def map_of(self, state: KasState) -> GameMap:
        """The play area of a state: its layout plus the rail lines Eva Blane built (KAS-R-71)."""
        base = self.game_map(state.layout)
        if not state.new_lines:
            return base
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
        """KAS-R-10: the character card's priority number (the team's, KAS-AMB-46)."""
        assert player.team is not None
        return self.pack.team(player.team).priority

    def no_tolls(self, player: PlayerState) -> bool:
        """KAS-R-86: Thaddeus Birch never pays tolls."""
        return player.character == "Thaddeus Birch"

    def rating(self, player: PlayerState) -> int:
        return self.airship(player).diamonds

    def capacity(self, player: PlayerState) -> int:
        return self.airship(player).capacity
