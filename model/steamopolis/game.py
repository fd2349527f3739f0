"""Steamopolis wired into the rulecraft Game interface, and registered."""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar, get_args

from rulecraft.core import CHANCE, GAME_OVER, Candidates, Rejection, RulecraftError, Seat, ToMove
from rulecraft.model.steamopolis import render as _render
from rulecraft.model.steamopolis import setup
from rulecraft.model.steamopolis.actions import StmAction
from rulecraft.model.steamopolis.catalogue import PARAMETERS, RULES
from rulecraft.model.steamopolis.components import PACK_FILES, Pack
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.readings import NEEDS_PACK_DATA, NOT_MODELLED_WHY, REGISTER
from rulecraft.model.steamopolis.rules import (
    CHANCE_PHASES,
    SOLO_RANKS,
    check,
    decider,
    legal_actions,
    rejections,
    solo_lost,
)
from rulecraft.model.steamopolis.serial import converter
from rulecraft.model.steamopolis.state import ACTION, OVER, SETUP_ROOM, START_OF_TURN, StmState
from rulecraft.model.steamopolis.transitions import transition
from rulecraft.packed import PackedGame
from rulecraft.ruleset import UnknownReading
from rulecraft.serialization import SerializationError, from_jsonable, json_object

ACTION_TYPES: tuple[type[StmAction], ...] = get_args(StmAction)

SOLO_LOST = "lost"  # STM-R-69: the solo game lost on time pressure has no rank


# The invariants every state read from outside must keep: the component counts and where pieces may
# stand.  The situational ones (storage, end trigger, solo turn...) are left to ``violations``: a
# printed example's minimal state may skip them (STM-EX-15 keeps 5 resources on 3 storage spaces).
LOAD_INVARIANTS = (
    "seats-and-board-side",
    "stones-conserved",
    "gauge-items",
    "districts-occupied",
    "resources-conserved",
    "parasites",
    "statues-and-markets",
    "bonus-markers-accounted",
    "machine-tiles-once",
    "passengers",
    "sponsor-and-gala",
)


class SteamopolisGame(PackedGame[StmState, StmAction]):
    id: ClassVar[str] = "stm"
    title: ClassVar[str] = "Steamopolis"
    catalogue = RULES
    register = REGISTER
    parameters = PARAMETERS
    min_players: ClassVar[int] = 1  # 1: the solo game (STM-R-68..73)
    max_players: ClassVar[int] = 4
    scenario_folder: ClassVar[str] = "steamopolis"
    load_invariants: ClassVar[tuple[str, ...]] = LOAD_INVARIANTS
    # A turn is many small decisions (each step of the flight, each effect part): random games run
    # to 4,000-7,000 steps, so a campaign game gets room to reach the end (STM-R-64..67).
    campaign_steps: ClassVar[int] = 12_000
    first_seat_chosen: ClassVar[bool] = False  # the rules choose the start player

    pack: Pack
    action_types = ACTION_TYPES
    pack_files = PACK_FILES
    not_modelled = MappingProxyType(NOT_MODELLED_WHY)
    needs_pack_data = MappingProxyType(NEEDS_PACK_DATA)
    json_converter = converter

    def wire(self) -> None:
        self.ctx = Context.printed(self.pack, dict(self.ruleset.readings), self.params)
        if self.ctx.r("STM-AMB-03") == "separate" and not self.pack.numerals_given:
            raise UnknownReading(
                "STM-AMB-03=separate is not modelled without bonus numerals printed apart from the values, which the"
                f" rulebook does not print: pack {self.pack.name} has no {NEEDS_PACK_DATA[('STM-AMB-03', 'separate')]}"
            )
        if self.ctx.r("STM-AMB-24") == "1-5":
            if self.pack.supplies.colours < 5:
                raise UnknownReading(
                    "STM-AMB-24=1-5 is not modelled without a fifth player colour's pieces, which the components do"
                    f" not hold (p.2-3): pack {self.pack.name} has {NEEDS_PACK_DATA[('STM-AMB-24', '1-5')]}"
                    f" {self.pack.supplies.colours}"
                )
            # This game's own player range (the class keeps the default's 1-4): the CLI, scenarios, campaigns
            # and the witness search read it from the game.
            vars(self)["max_players"] = 5

    # -- set-up -------------------------------------------------------------------------------
    def new_game(self, players: int, *, first_seat: Seat = 0, **options: Any) -> StmState:
        """STM-R-01..13.  The start player is the lowest character (STM-R-07), so ``first_seat``
        must stay 0.  Option ``first_game``: the first-game set-up (characters 5, 11, 15 redrawn,
        the machine room fixed)."""
        unknown = set(options) - {"first_game"}
        if unknown:
            raise RulecraftError(f"setup.options: Steamopolis knows only 'first_game', not {sorted(unknown)}")
        if not self.min_players <= players <= self.max_players:  # 1-4, or 1-5 under STM-AMB-24 '1-5' (wire)
            raise RulecraftError(
                f"STM-R-01 (p.4) — Steamopolis is for {self.min_players} to {self.max_players} players;"
                f" {players} requested"
            )
        if first_seat != 0:
            raise RulecraftError("STM-R-07 (p.6) — the lowest character number starts; no start seat can be chosen")
        first_game = bool(options.get("first_game", False))
        problem = setup.setup_problem(self.ctx, players, first_game)
        if problem:
            raise RulecraftError(f"{self.pack.source}: {problem}")
        return setup.new_game(self.ctx, players, first_game=first_game, solo_vp=self.params["solo_start_vp"])

    def random_options(self, rng: random.Random, players: int) -> dict[str, Any]:
        """A fifth of the campaign games use the first-game set-up."""
        return {"first_game": True} if rng.random() < 0.2 else {}

    # -- decisions ------------------------------------------------------------------------------
    def to_move(self, state: StmState) -> ToMove:
        if state.phase is OVER:
            return GAME_OVER
        if state.phase in CHANCE_PHASES:
            return CHANCE
        return decider(state)  # another player may decide inside the turn (a parasite's owner, envy)

    def legal_actions(self, state: StmState) -> list[StmAction]:
        if state.phase in CHANCE_PHASES or state.phase is OVER:
            return []
        return legal_actions(self.ctx, state)

    def candidates(self, state: StmState) -> Candidates[StmAction]:
        """``legal_actions`` without its guard for chance and the game's end: a random draw asks only while a
        seat is to move (a call less on every step of a random game)."""
        return legal_actions(self.ctx, state), None

    def chance_outcomes(self, state: StmState) -> list[tuple[StmAction, Fraction]]:
        return setup.chance_outcomes(self.ctx, state)

    def check(self, state: StmState, action: StmAction) -> Rejection | None:
        return check(self.ctx, state, action)

    def rejections(self, state: StmState, action: StmAction) -> tuple[Rejection, ...]:
        return rejections(self.ctx, state, action)

    def transition(self, state: StmState, action: StmAction) -> StmState:
        return transition(self.ctx, state, action)

    # -- outcome ----------------------------------------------------------------------------------
    def scores(self, state: StmState) -> dict[Seat, int]:
        return {seat: p.vp for seat, p in enumerate(state.players)}

    def score_parts(self, state: StmState) -> dict[Seat, dict[str, int]]:
        """STM-R-09 (p.4): the vote points are scored as they are won, on the vote point track (the
        3 VP for the 3rd statue, STM-R-64, included); the game has no final scoring of its own, so
        the track is the one part: ``vote_points``."""
        return {seat: {"vote_points": p.vp, "total": p.vp} for seat, p in enumerate(state.players)}

    def termination(self, state: StmState) -> str:
        """STM-R-64 (p.25): 3 statues on the tower top or the passenger stack used up, then the final
        round.  Solo: STM-R-69 (p.35) when time pressure lost the game, else STM-R-73 (p.36)."""
        if state.solo is None:
            return "STM-R-64"
        return "STM-R-69" if solo_lost(self.ctx, state) else "STM-R-73"

    def tiebreak(self, state: StmState) -> str | None:
        """STM-R-67 (p.25) when seats tie on VP for the win (most machine and banner tiles, then turn
        order, which always decides); never in the solo game."""
        if state.solo is not None:
            return None
        best = max(p.vp for p in state.players)
        return "STM-R-67" if sum(1 for p in state.players if p.vp == best) > 1 else None

    def tiles(self, state: StmState, seat: Seat) -> int:
        """STM-R-67 / STM-AMB-18: machine-room tiles plus banners ('bought': bought ones only)."""
        p = state.players[seat]
        if self.ctx.r("STM-AMB-18") == "bought":
            room = sum(1 for t in p.machine_room if t is not None and t.kind == "machine")
        else:
            room = sum(1 for t in p.machine_room if t is not None)
        return room + len(p.banners)

    def ranking(self, state: StmState) -> dict[Seat, dict[str, int]]:
        """STM-R-67 (p.25): the count the tie-break compares, machine-room tiles plus banners (then
        turn order, which the winners show); none in the solo game, which has no tie-break."""
        if state.solo is not None:
            return {}
        return {seat: {"tiles": self.tiles(state, seat)} for seat in range(len(state.players))}

    def winners(self, state: StmState) -> tuple[Seat, ...]:
        """STM-R-67: most VP; tie: most tiles; then the tied player earlier in turn order.

        Solo: ``()`` when the game is lost on time pressure (STM-R-69: "you lose the game
        immediately", there is no winner), else ``(0,)``: a finished solo game is not won or lost
        against anyone, it is ranked (:meth:`solo_rank`)."""
        if state.solo is not None:
            return () if solo_lost(self.ctx, state) else (0,)
        n = len(state.players)

        def rank(seat: Seat) -> tuple[int, int, int]:
            return (state.players[seat].vp, self.tiles(state, seat), -((seat - state.start_player) % n))

        return (max(range(n), key=rank),)

    def solo_lost(self, state: StmState) -> bool:
        """STM-R-69 / STM-AMB-28: the solo game is lost on time pressure (it is then over)."""
        return solo_lost(self.ctx, state)

    def standing(self, state: StmState) -> str | None:
        """The solo game's rank (STM-R-73) in the outcome; the multi-player game gives none."""
        return self.solo_rank(state) if state.solo is not None else None

    def solo_rank(self, state: StmState) -> str:
        """STM-R-73 (p.36): the rank of the solo player's VP, the highest threshold of the table reached
        (final once the game is over; before that, what the VP would give now); ``"lost"`` for a
        game lost on time pressure (STM-R-69)."""
        if state.solo is None:
            raise RulecraftError(f"STM-R-73 (p.36) — the rank table is for the solo game; {len(state.players)} players")
        if solo_lost(self.ctx, state):
            return SOLO_LOST
        vp = max(state.players[0].vp, 0)  # below 0 only when lost ('below-zero')
        return [name for threshold, name in SOLO_RANKS if vp >= threshold][-1]

    # -- text -------------------------------------------------------------------------------------
    def render(self, state: StmState) -> str:
        return _render.text(self, state)

    def picture(self, state: StmState) -> str:
        from rulecraft.model.steamopolis.picture import svg

        return svg(self, state)

    def describe(self, state: StmState, action: StmAction) -> str:
        return _render.describe(self, state, action)

    # -- serialization ----------------------------------------------------------------------------
    def state_to_json(self, state: StmState) -> dict[str, Any]:
        """``held`` (STM-AMB-19 'next-step') is left out while nothing is held, so the default reading's
        JSON stays as it was (docs/protocol/stm.md)."""
        data = converter.unstructure(state)
        assert isinstance(data, dict)
        for player in data["players"]:
            if not any(player["held"]):
                del player["held"]
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> StmState:
        state = from_jsonable(json_object(data, "state"), StmState, what="state", using=converter)
        self._check_ids(state)
        return state

    def check_state(self, state: StmState) -> None:
        """Sizes against the pack first (cheap, so an absurd state is refused before any invariant or
        move generation runs); the invariants of component counts and places (:data:`LOAD_INVARIANTS`)
        are checked after it (``rulecraft.statefile.admit``)."""
        from rulecraft.statefile import at_most

        pack, n = self.pack, len(state.players)
        at_most("state.players", n, 5, "players", "STM-R-01, STM-AMB-24")
        stones = pack.airship.stones
        at_most("state.board", len(state.board), (n + 1) * stones, "pressure stones on the board", "STM-R-08, STM-R-68")
        at_most("state.parasites", len(state.parasites), n * pack.airship.parasite_spaces, "parasites", "STM-R-12")
        at_most("state.markets", len(state.markets), len(pack.districts), "machine markets", "STM-R-03")
        tiles = sum(len(m.tiles) for m in state.markets) + sum(len(p.banners) for p in state.players)
        at_most("state.markets", tiles, len(pack.machines), "machine tiles in markets and banners", "STM-P-02")
        at_most("state.passengers.stack", len(state.passengers.stack), len(pack.passengers), "tiles", "STM-R-05")
        for seat, p in enumerate(state.players):
            where = f"state.players[{seat}]"
            at_most(f"{where}.gauge.spaces", len(p.gauge.spaces), len(pack.gauge.values), "gauge spaces", "STM-R-14")
            at_most(f"{where}.supply", len(p.supply), stones, "pressure stones", "STM-R-08")
            at_most(f"{where}.machine_room", len(p.machine_room), pack.machine_room.positions, "positions", "STM-R-13")
            at_most(f"{where}.carrying", len(p.carrying), pack.airship.passenger_spaces, "passengers", "STM-R-36")
        turn = state.turn
        for name in ("flight_start", "activated", "end_of_turn", "others_activated"):
            at_most(f"state.turn.{name}", len(getattr(turn, name)), len(pack.districts) * 4, "districts", "STM-R-33")

    def _check_ids(self, state: StmState) -> None:
        """A state names only tiles of this game's pack."""
        try:
            for m in state.markets:
                for t in m.tiles:
                    self.pack.machine(t)
            for p in state.players:
                for b in p.banners:
                    self.pack.machine(b)
                for tile in p.machine_room:
                    if tile is not None:
                        self.ctx.face(tile)
            for pid in (*state.passengers.stack, state.passengers.face_up, state.passengers.taken):
                if pid is not None:
                    self.pack.passenger(pid)
        except (KeyError, IndexError) as exc:
            raise SerializationError(f"state: {exc.args[0] if exc.args else exc}") from None

    def stalled(self, state: StmState) -> str | None:
        """STM-AMB-12: when no player has a pressure stone on the gauge or the board, no action is
        ever possible again (only effects return stones from the supply, and effects need an
        action), so every turn passes and no end trigger (STM-R-64) can ever occur.  Under 'stuck' play
        stops at once when the player to act has no action (the rules give no way on)."""
        if state.phase is OVER or state.phase in CHANCE_PHASES or state.phase is SETUP_ROOM:
            return None
        if self.ctx.r("STM-AMB-12") == "stuck" and state.phase is ACTION and not self.legal_actions(state):
            return (
                "STM-AMB-12 'stuck': none of the three actions (STM-R-23) is possible and the turn may not pass;"
                " the rules give no way on"
            )
        if state.turn.pending or state.turn.storing or state.phase is not START_OF_TURN:
            return None
        if any(p.gauge.stones() or any(s.seat == seat for s in state.board) for seat, p in enumerate(state.players)):
            return None
        return (
            "STM-AMB-12: no player has a pressure stone on the gauge or the board, so every turn passes"
            " and no end trigger (STM-R-64) can occur; the rules have no turn limit"
        )
