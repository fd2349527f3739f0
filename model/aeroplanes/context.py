"""What the Aeroplanes rules consult: the component pack and the ruleset's
readings (never a global), plus the small derived facts every rule needs."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import attrs

from rulecraft.model.aeroplanes.components import Pack, PlaneCard, bundled_pack
from rulecraft.model.aeroplanes.readings import REGISTER


@attrs.frozen
class Context:
    pack: Pack = attrs.field(repr=False)
    readings: dict[str, str] = attrs.field(factory=REGISTER.defaults, hash=False, eq=False, repr=False)
    # ``r(amb_id)``: the reading chosen for an ambiguity, the readings' own ``__getitem__`` (asked about a
    # thousand times a random game: no Python call on the way); an unknown ID raises KeyError
    r: Callable[[str], str] = attrs.field(init=False, hash=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "r", self.readings.__getitem__)

    @classmethod
    def printed(cls, pack: Pack | None = None, readings: Mapping[str, str] | None = None) -> Context:
        """The default readings on ``pack`` (the bundled one unless given), with overrides by ID."""
        chosen = REGISTER.defaults()
        chosen.update(readings or {})
        return cls(pack or bundled_pack(), chosen)

    def tiles_per_stage(self, stage: int) -> int:
        """AER-R-11 (l.66): the airport tiles of one stage in a colour set.  AER-AMB-02 ``box-count``
        reads the box's 130 tiles (l.8) as 26 a player: one fewer of stage 1."""
        n = self.pack.airport_tiles.per_stage(stage)
        if stage == 1 and self.r("AER-AMB-02") == "box-count":
            return n - 1
        return n

    def card(self, number: int) -> PlaneCard:
        return self.pack.card(number)

    def not_in_era_1(self, tile_id: str) -> bool:
        """The "¤" mark (l.23, AER-AMB-31)."""
        return self.pack.passenger(tile_id).not_in_era_1

    def europe(self, destination: str) -> bool:
        """Whether a destination lies in Europe (Daring Pilot, Night Flights: AER-R-42, R-46; AER-AMB-25, -33)."""
        return self.pack.destination(destination).region == "Europe"
