"""What the Steamopolis rules consult: the component pack and the ruleset's
readings (never a global), plus the small derived facts every rule needs
(a room tile's printed face, storage spaces, boilers, districts)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

import attrs

from rulecraft.model.steamopolis.catalogue import PARAMETERS
from rulecraft.model.steamopolis.components import District, DistrictPosition, MachineFace, Pack, bundled_pack
from rulecraft.model.steamopolis.gauge import GaugeLayout
from rulecraft.model.steamopolis.readings import REGISTER
from rulecraft.model.steamopolis.state import BoardStone, PlayerState, RoomTile, StmState

T = TypeVar("T")


@attrs.frozen
class Context:
    pack: Pack = attrs.field(repr=False)
    readings: dict[str, str] = attrs.field(factory=REGISTER.defaults, hash=False, eq=False, repr=False)
    # The rule parameters (catalogue.PARAMETERS): printed values unless a variant changes them.
    params: dict[str, int] = attrs.field(factory=PARAMETERS.defaults, hash=False, eq=False, repr=False)
    # Faces per machine room, memoised: storage and boilers are asked after nearly every step.
    _faces: dict[tuple[RoomTile | None, ...], tuple[MachineFace, ...]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # Storage spaces per machine room, memoised the same way (settle asks after every step, STM-R-32).
    _storage: dict[tuple[RoomTile | None, ...], int] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # Storage and boilers per machine room by identity (a state's copies share a player's room tuple until it
    # changes; each seat's turn asks its own room): id -> [room, storage, boilers], None where not asked
    # yet.  The room is kept, so its id stays its own while it is here.
    _room_facts: dict[int, list[Any]] = attrs.field(factory=dict, init=False, hash=False, eq=False, repr=False)
    # The printed face per machine or starting machine tile, by identity (the rules build one shared tile per
    # kind, id and side: state.room_tile): id -> (tile, face); the tile is kept, so its id stays its own.
    _face_of: dict[int, tuple[RoomTile, MachineFace]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # The last board and seat whose own stones were asked, and those stones (own_stones).
    _last_board: list[Any] = attrs.field(factory=lambda: [None, None, ()], init=False, hash=False, eq=False, repr=False)
    # The last board whose taken districts were asked, and those districts (free_districts).
    _last_taken: list[Any] = attrs.field(
        factory=lambda: [None, frozenset()], init=False, hash=False, eq=False, repr=False
    )
    # The highest level per board side.
    _top: dict[str, int] = attrs.field(factory=dict, init=False, hash=False, eq=False, repr=False)
    # The free districts outside the final round per board side, top level and taken districts, memoised:
    # every SET 1 TARGET decision asks (a random game's commonest).
    _free: dict[tuple[str, int, frozenset[tuple[int, DistrictPosition]]], tuple[District, ...]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # What the rules read from a few small frozen values and this context's readings alone (the arrow stones'
    # moves from the gauge, MAKE STEAM's from the gauge and the boilers, a market tile's price), by a key the
    # rules give (:meth:`memo`): a random game meets the same gauges and tiles turn after turn.
    _memo: dict[Hashable, Any] = attrs.field(factory=dict, init=False, hash=False, eq=False, repr=False)

    @classmethod
    def printed(
        cls,
        pack: Pack | None = None,
        readings: Mapping[str, str] | None = None,
        params: Mapping[str, int] | None = None,
    ) -> Context:
        """The default readings on ``pack`` (the bundled one unless given), with overrides by ID, and
        the rule parameters with overrides by name (checked against their ranges)."""
        chosen = REGISTER.defaults()
        chosen.update(readings or {})
        return cls(pack or bundled_pack(), chosen, PARAMETERS.resolve(params))

    def r(self, amb_id: str) -> str:
        return self.readings[amb_id]

    @property
    def layout(self) -> GaugeLayout:
        """The printed gauge.  STM-AMB-03 (p.22-23): under 'value' a space's bonus numeral is its pressure
        value 2-5; under 'separate' the numerals are the pack's own (gauge.numerals; the game refuses the
        reading with a pack that gives none)."""
        return self.pack.gauge if self.r("STM-AMB-03") == "separate" else self.pack.value_gauge

    def extra(self) -> GaugeLayout | None:
        """STM-AMB-04 (p.9): under 'extra' the gauge whose values the extra increment of 'increase the pressure
        by X' compares (gauge.increment); None under 'jump'."""
        return self.layout if self.r("STM-AMB-04") == "extra" else None

    # -- the machine room ------------------------------------------------------------------
    def face(self, tile: RoomTile) -> MachineFace:
        """The printed face of a machine-room tile (STM-P-02, P-04, P-06).  A machine's or starting
        machine's face is memoised per tile (the parasites' placements ask it of every other player's
        machines); a capacity tile's is read each time, as it follows a reading (STM-AMB-29), which
        the witness search counts as consulted."""
        if tile.kind == "capacity":  # STM-AMB-29 'both': boiler and storage whatever side is up (p.30)
            return self.pack.capacity.both if self.r("STM-AMB-29") == "both" else self.pack.capacity.sides[tile.side]
        found = self._face_of.get(id(tile))
        if found is None or found[0] is not tile:
            if len(self._face_of) > 65536:  # bounded as the faces' memo
                self._face_of.clear()
            found = self._face_of[id(tile)] = (tile, self._printed_face(tile))
        return found[1]

    def _printed_face(self, tile: RoomTile) -> MachineFace:
        """A machine's or starting machine's face, as the pack prints it."""
        if tile.kind == "machine":
            return self.pack.machine(tile.id).face
        for start in self.pack.starting_machines:
            if start.id == tile.id:
                return start.sides[tile.side]
        raise KeyError(f"pack {self.pack.name} has no starting machine {tile.id}")

    def faces(self, player: PlayerState) -> tuple[MachineFace, ...]:
        room = player.machine_room
        found = self._faces.get(room)
        if found is None:
            if len(self._faces) > 65536:  # a long campaign meets many rooms: keep the memo bounded
                self._faces.clear()
            found = self._faces[room] = tuple(self.face(t) for t in room if t is not None)
        return found

    def _facts(self, room: tuple[RoomTile | None, ...]) -> list[Any]:
        """The memo entry of ``room`` (by identity) for :meth:`boilers` and :meth:`storage`."""
        facts = self._room_facts.get(id(room))
        if facts is None or facts[0] is not room:
            if len(self._room_facts) > 65536:  # bounded as the faces' memo
                self._room_facts.clear()
            facts = self._room_facts[id(room)] = [room, None, None]
        return facts

    def boilers(self, player: PlayerState) -> int:
        """STM-R-25: the 2 built-in boilers plus every boiler in the machine room, piped or not."""
        facts = self._facts(player.machine_room)
        boilers: int | None = facts[2]
        if boilers is None:
            boilers = facts[2] = self.pack.airship.boilers + sum(f.boiler_count() for f in self.faces(player))
        return boilers

    def storage(self, player: PlayerState) -> int:
        """STM-R-32: the 3 built-in spaces plus those on capacity tiles and machines."""
        room = player.machine_room
        facts = self._facts(room)
        storage: int | None = facts[1]
        if storage is None:
            storage = self._storage.get(room)
            if storage is None:
                if len(self._storage) > 65536:  # bounded as the faces' memo
                    self._storage.clear()
                storage = self._storage[room] = self.pack.airship.storage + sum(f.storage for f in self.faces(player))
            facts[1] = storage
        return storage

    def entry(self, value: int) -> int | None:
        """STM-R-29 / STM-AMB-02: the machine-room position a stone of ``value`` enters (None: it cannot)."""
        if self.r("STM-AMB-02") == "v-2":
            return value - 2 if 1 <= value - 2 <= self.pack.machine_room.positions - 1 else None
        return self.pack.machine_room.entry(value)

    # -- the board ---------------------------------------------------------------------------
    def districts(self, state: StmState) -> tuple[District, ...]:
        return self.pack.side(state.board_side)

    def top_level(self, state: StmState) -> int:
        """The board's highest level (STM-R-26: a stone reads the levels up to its value)."""
        found = self._top.get(state.board_side)
        if found is None:
            found = self._top[state.board_side] = max(d.level for d in self.districts(state))
        return found

    def district(self, state: StmState, level: int, position: DistrictPosition) -> District:
        return self.pack.district(state.board_side, level, position)

    def is_free(self, state: StmState, level: int, position: DistrictPosition) -> bool:
        """STM-R-27: no stone of any kind on the district; in the final round only your own stones
        block (STM-R-66; STM-AMB-31 for the solo shadow stones)."""
        here = [s for s in state.board if s.level == level and s.position == position]
        if state.final_round:
            if state.solo is not None and self.r("STM-AMB-31") == "no-printed":
                return not here
            return not any(s.seat == state.to_move for s in here)
        return not here

    def free_districts(self, state: StmState, top: int) -> tuple[District, ...]:
        """The free districts of levels 1..top (STM-R-26/27), bottom to top."""
        if state.final_round:
            return tuple(
                d for d in self.districts(state) if d.level <= top and self.is_free(state, d.level, d.position)
            )
        # Outside the final round every stone blocks: the taken districts, remembered for the last board asked
        # (by identity, as own_stones: a state's copies share the board tuple until a stone moves).
        last = self._last_taken
        if last[0] is not state.board:
            last[:] = [state.board, frozenset((s.level, s.position) for s in state.board)]
        taken: frozenset[tuple[int, DistrictPosition]] = last[1]
        key = (state.board_side, top, taken)
        found = self._free.get(key)
        if found is None:
            if len(self._free) > 65536:  # bounded as the faces' memo
                self._free.clear()
            found = self._free[key] = tuple(
                d for d in self.districts(state) if d.level <= top and (d.level, d.position) not in taken
            )
        return found

    def memo(self, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, memoised under ``key`` for this context (its readings and pack stay fixed); ``key``
        must name everything ``make`` reads besides them."""
        try:
            found: T = self._memo[key]
        except KeyError:
            if len(self._memo) > 65536:  # bounded as the faces' memo
                self._memo.clear()
            found = self._memo[key] = make()
        return found

    def own_stones(self, state: StmState, seat: int) -> tuple[BoardStone, ...]:
        """The seat's stones on the board, remembered for the last board asked (by identity: a state's
        copies share the board tuple until a stone moves) and seat."""
        last = self._last_board
        if last[0] is state.board and last[1] == seat:
            stones: tuple[BoardStone, ...] = last[2]
            return stones
        stones = tuple(s for s in state.board if s.seat == seat)
        last[:] = [state.board, seat, stones]
        return stones
