"""Airships wired into the rulecraft Game interface, and registered."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar

import attrs

from rulecraft.core import CHANCE, GAME_OVER, Rejection, RulecraftError, Seat, ToMove
from rulecraft.model.airships import render as _render
from rulecraft.model.airships.actions import (
    ACTION_TYPES,
    AirAction,
    AttemptTarget,
    DealAirship,
    DealStarter,
    EndGo,
    ExtraGo,
    NoAttempt,
    Resolve,
    Reveal,
    Throw,
)
from rulecraft.model.airships.catalogue import PARAMETERS, RULES
from rulecraft.model.airships.components import (
    COLOURS,
    FACES,
    PACK_FILES,
    TIERS,
    Colour,
    Pack,
)
from rulecraft.model.airships.readings import NOT_MODELLED, REGISTER
from rulecraft.model.airships.rules import Context, attempt_actions, check, grounds, has_legal_target, rejections
from rulecraft.model.airships.state import (
    ATTEMPT,
    BONUS,
    DEAL_AIRSHIPS,
    DEAL_STARTERS,
    EXTRA_GO,
    FILL_DISPLAY,
    OVER,
    REVEAL,
    THROW,
    AirState,
)
from rulecraft.model.airships.transitions import deck_empty, new_game, transition, turn_over
from rulecraft.packed import PackedGame
from rulecraft.serialization import SerializationError, from_jsonable, json_object, to_jsonable

# Board fields only AIR-AMB-01 'every-success' and AIR-AMB-26 'next-turn' fill:
# left out of the canonical state while unused, so that the printed rules'
# state reads as before (docs/protocol.md) and a server need not know them.
_UNUSED_BOARD_FIELDS: dict[str, object] = {"extra_red_dice": 0, "won_this_turn": []}
# The era tile as the one outcome of its reveal (AIR-R-25): ``sample_chance`` draws from it as from the list.
_ERA_TILE = (Reveal(None),)
# Each colour's faces (p.1), looked up once: a throw is sampled at every attempt.
_WHITE, _RED, _BLACK = (FACES[c] for c in COLOURS)


def _thrown(choice: Callable[[tuple[int, ...]], int], sides: tuple[int, ...], n: int) -> tuple[int, ...]:
    """``n`` dice of one colour thrown, one ``choice`` each, listed high to low (AIR-R-32); one die or
    none needs no sort."""
    if n > 1:
        return tuple(sorted([choice(sides) for _ in range(n)], reverse=True))
    return (choice(sides),) if n else ()


# The seat's choices at the end of a go (AIR-R-42), made once: actions are frozen values.
_END_GO = EndGo()
_EXTRA_GO = ExtraGo()


@cache
def colour_distribution(colour: Colour, count: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Sorted faces of ``count`` dice of one colour with exact probabilities."""
    tally: Counter[tuple[int, ...]] = Counter(
        tuple(sorted(roll, reverse=True)) for roll in itertools.product(FACES[colour], repeat=count)
    )
    total = 6**count
    return tuple((faces, Fraction(n, total)) for faces, n in sorted(tally.items(), reverse=True))


# The invariants every state read from outside must keep: dice, chips and cards counted, one card per
# department, the display's rows.  The bookkeeping ones (era, end, turn, scores) are left to ``violations``.
LOAD_INVARIANTS = (
    "nine-shared-dice",
    "chips-conserved",
    "one-card-per-department",
    "development-cards-accounted",
    "airship-cards-in-play",
    "display-rows",
    "wooden-airship-single-holder",
    "stages-once",
)


class AirshipsGame(PackedGame[AirState, AirAction]):
    id: ClassVar[str] = "air"
    title: ClassVar[str] = "Airships"
    catalogue = RULES
    register = REGISTER
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    scenario_folder: ClassVar[str] = "airships"
    load_invariants: ClassVar[tuple[str, ...]] = LOAD_INVARIANTS

    parameters = PARAMETERS

    pack: Pack
    action_types = ACTION_TYPES
    pack_files = PACK_FILES
    not_modelled = MappingProxyType(dict.fromkeys(NOT_MODELLED, ""))

    def wire(self) -> None:
        self.ctx = Context(self.pack, dict(self.ruleset.readings), self.params)
        # The bonus step's choices (AIR-R-37, AIR-AMB-12) are the same at every bonus step: made once.
        flags = (True, False) if self.ctx.r("AIR-AMB-12") == "optional" else (True,)
        self._resolves: tuple[Resolve, ...] = tuple(
            Resolve(chip, engine, wooden) for chip in (False, True) for engine in flags for wooden in flags
        )
        # AIR-AMB-23 'pass': step 2 may be skipped even with a target in reach.
        self._may_pass = self.ctx.r("AIR-AMB-23") == "pass"

    # -- set-up -------------------------------------------------------------
    def new_game(self, players: int, *, first_seat: Seat = 0, **options: Any) -> AirState:
        """AIR-R-01..09. Option ``nations``: the nations chosen, seat by seat
        (AIR-R-07; default: the pack's order)."""
        unknown = set(options) - {"nations"}
        if unknown:
            raise RulecraftError(f"setup.options: Airships knows only 'nations', not {sorted(unknown)}")
        least = 1 if self.ctx.r("AIR-AMB-28") == "one" else self.min_players
        if not least <= players <= self.max_players:
            raise RulecraftError(
                f"AIR-R-01 (p.2) — Airships is for {least} to {self.max_players} players; {players} requested"
            )
        if not 0 <= first_seat < players:
            raise RulecraftError(f"AIR-R-09 — the start player must be a seat 0..{players - 1}")
        nations = tuple(options.get("nations") or self.pack.nations[:players])
        if len(nations) != players or len(set(nations)) != players or not set(nations) <= set(self.pack.nations):
            known = list(self.pack.nations)
            raise RulecraftError(
                f"AIR-R-07 (p.2) — each company takes a different nation of {known}; got {list(nations)}"
            )
        return new_game(self.ctx, players, first_seat, nations)

    def random_options(self, rng: random.Random, players: int) -> dict[str, Any]:
        """Random games: half with nations other than the pack's first ones, in a random order (AIR-R-07)."""
        if rng.random() < 0.5:
            return {"nations": tuple(rng.sample(list(self.pack.nations), players))}
        return {}

    # -- decisions ------------------------------------------------------------
    def to_move(self, state: AirState) -> ToMove:
        # By identity, the seat's three steps first: asked at every step, and a phase compared by ``in``
        # or hashed runs Enum's Python-level ``__eq__``/``__hash__``.
        phase = state.phase
        if phase is ATTEMPT or phase is BONUS or phase is EXTRA_GO:
            return state.seat
        if phase is OVER:
            return GAME_OVER
        return CHANCE

    def legal_actions(self, state: AirState) -> list[AirAction]:
        if state.phase is ATTEMPT:
            return self._attempt_actions(state)
        if state.phase is BONUS:
            ctx = self.ctx
            return [a for a in self._resolves if check(ctx, state, a) is None]
        if state.phase is EXTRA_GO:
            if state.boards[state.seat].chips >= self.ctx.p("extra_go_cost"):  # AIR-R-42: what the check asks
                return [_END_GO, _EXTRA_GO]
            return [_END_GO]
        return []

    def _attempt_actions(self, state: AirState) -> list[AirAction]:
        out = attempt_actions(self.ctx, state)
        if not out or self._may_pass:
            out.append(NoAttempt())
        return out

    def chance_outcomes(self, state: AirState) -> list[tuple[AirAction, Fraction]]:
        if state.phase is THROW:
            assert state.attempt is not None
            throw = state.attempt.throw
            parts = [colour_distribution(c, throw[c]) for c in COLOURS]
            return [(Throw(w, r, b), pw * pr * pb) for (w, pw), (r, pr), (b, pb) in itertools.product(*parts)]
        actions = self._equally_likely(state)
        return [(a, Fraction(1, len(actions))) for a in actions]

    def _equally_likely(self, state: AirState) -> list[AirAction]:
        """The outcomes of a chance step other than a throw, each as likely as the others: the cards that
        may be dealt or revealed (AIR-R-03, AIR-R-05, AIR-R-04), or the era tile alone (AIR-R-25)."""
        phase = state.phase
        if phase is DEAL_AIRSHIPS:
            tier = TIERS[sum(len(s) for s in state.stacks) // 4]
            return [DealAirship(c) for c in state.airships_undealt if self.pack.airship(c).tier == tier]
        if phase is DEAL_STARTERS:
            return [DealStarter(c) for c in state.starters_undealt]
        if phase in (FILL_DISPLAY, REVEAL):
            if state.deck_era1:
                return [Reveal(c) for c in state.deck_era1]
            if state.era_tile_in_deck:
                return [Reveal(None)]
            return [Reveal(c) for c in state.deck_era2]
        return []

    def sample_chance(self, state: AirState, rng: random.Random) -> AirAction:
        """Fast sampler; tests hold its support to ``chance_outcomes``."""
        if state.phase is THROW:
            assert state.attempt is not None
            throw = state.attempt.throw
            # One ``rng.choice`` per die, white, red, then black (the draws the seeded games were made
            # with: the arguments are worked out left to right).
            choice = rng.choice
            return Throw(
                _thrown(choice, _WHITE, throw.W), _thrown(choice, _RED, throw.R), _thrown(choice, _BLACK, throw.B)
            )
        # Every other chance step is uniform: the draw ``rng.choice`` makes from ``chance_outcomes``' list,
        # without the probabilities; a card revealed or a starter dealt is drawn from its tuple in the state,
        # in the same order, so that only the drawn one becomes an action.
        phase = state.phase
        if phase is FILL_DISPLAY or phase is REVEAL:
            if state.deck_era1:
                return Reveal(rng.choice(state.deck_era1))
            if state.era_tile_in_deck:
                return rng.choice(_ERA_TILE)
            return Reveal(rng.choice(state.deck_era2))
        if phase is DEAL_STARTERS:
            return DealStarter(rng.choice(state.starters_undealt))
        return rng.choice(self._equally_likely(state))

    # -- legality and effects -------------------------------------------------
    def check(self, state: AirState, action: AirAction) -> Rejection | None:
        return check(self.ctx, state, action)

    def transition(self, state: AirState, action: AirAction) -> AirState:
        return transition(self.ctx, state, action)

    def grounds(self, state: AirState, action: AirAction) -> tuple[str, ...]:
        return grounds(self.ctx, state, action)

    def rejections(self, state: AirState, action: AirAction) -> tuple[Rejection, ...]:
        return rejections(self.ctx, state, action)

    def has_legal_target(self, state: AirState) -> bool:
        return has_legal_target(self.ctx, state)

    # -- outcome ----------------------------------------------------------------
    def scores(self, state: AirState) -> dict[Seat, int]:
        """AIR-R-48: stars on held development cards, all airship cards, stages."""
        return {seat: parts["total"] for seat, parts in self.score_parts(state).items()}

    def score_parts(self, state: AirState) -> dict[Seat, dict[str, int]]:
        """AIR-R-48 (p.5) by part: ``developments`` (the stars on the development cards still on the
        board, AIR-R-21), ``airships`` (the stars on every airship card owned) and ``stages`` (each
        owned Hindenburg stage at its high value once all four are built, else its low value)."""
        built = all(owner is not None for owner in state.stages)
        out: dict[Seat, dict[str, int]] = {}
        for seat, board in enumerate(state.boards):
            # AIR-R-21: a development card's stars count only while it is still on the board.
            developments = sum(self.pack.development(c).vp for c in board.departments if c is not None)
            airships = sum(self.pack.airship(c).vp for c in board.airships)
            stages = 0
            for index, owner in enumerate(state.stages, start=1):
                if owner == seat:
                    stage = self.pack.stage(index)
                    stages += stage.vp_high if built else stage.vp_low
            total = developments + airships + stages
            out[seat] = {"developments": developments, "airships": airships, "stages": stages, "total": total}
        return out

    def termination(self, state: AirState) -> str:
        """AIR-R-47 (p.5): (a) the airship fields are (nearly) used up, or (b) the Hindenburg is built."""
        return "AIR-R-47"

    def tiebreak(self, state: AirState) -> str | None:
        """AIR-R-49 (p.5) when the most airships built decides between seats tied on VP; AIR-AMB-27 when
        they are tied on that too (its reading shares the win, or leaves it undefined)."""
        scores = self.scores(state)
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        if len(leaders) < 2:
            return None
        most = max(self.airships_built(state, s) for s in leaders)
        if sum(1 for s in leaders if self.airships_built(state, s) == most) > 1:
            return "AIR-AMB-27"
        return "AIR-R-49"

    def airships_built(self, state: AirState, seat: Seat) -> int:
        """AIR-R-49: airship cards plus owned stages (each counts as an airship)."""
        return len(state.boards[seat].airships) + sum(1 for o in state.stages if o == seat)

    def ranking(self, state: AirState) -> dict[Seat, dict[str, int]]:
        """AIR-R-49 (p.5): the count the tie-break compares, airships built (stages included)."""
        return {seat: {"airships": self.airships_built(state, seat)} for seat in range(len(state.boards))}

    def winners(self, state: AirState) -> tuple[Seat, ...]:
        scores = self.scores(state)
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        most = max(self.airships_built(state, s) for s in leaders)
        leaders = [s for s in leaders if self.airships_built(state, s) == most]
        if len(leaders) > 1 and self.ctx.r("AIR-AMB-27") == "undefined":
            return ()
        return tuple(leaders)

    # -- text ---------------------------------------------------------------------
    def render(self, state: AirState) -> str:
        return _render.text(self, state)

    def picture(self, state: AirState) -> str:
        from rulecraft.model.airships.picture import svg

        return svg(self, state)

    def describe(self, state: AirState, action: AirAction) -> str:
        return _render.describe(self, state, action)

    # -- serialization --------------------------------------------------------------
    def action_to_json(self, action: AirAction) -> dict[str, Any]:
        data = to_jsonable(action)
        assert isinstance(data, dict)
        if isinstance(action, AttemptTarget):
            data["throw"] = action.throw.to_mapping()
        if isinstance(action, Throw):
            data = {c: list(v) for c, v in data.items() if v}
        return {"kind": action.kind, **data}

    def state_to_json(self, state: AirState) -> dict[str, Any]:
        data = to_jsonable(state)
        assert isinstance(data, dict)
        for board in data["boards"]:
            for field, empty in _UNUSED_BOARD_FIELDS.items():
                if board.get(field) == empty:
                    del board[field]
        return data

    def state_from_json(self, data: Mapping[str, Any]) -> AirState:
        state = from_jsonable(json_object(data, "state"), AirState, what="state")
        self._check_ids(state)
        return state

    def check_state(self, state: AirState) -> None:
        """Sizes against the pack first (cheap, so an absurd state is refused before any invariant or
        move generation runs); the invariants of component counts (:data:`LOAD_INVARIANTS`) are
        checked after it (``rulecraft.statefile.admit``)."""
        from rulecraft.statefile import at_most

        pack, n = self.pack, len(state.boards)
        at_most("state.boards", n, self.max_players, "company boards", "AIR-R-01")
        at_most("state.supplies", len(state.supplies), max(n, 1), "chip supplies", "AIR-R-02")
        devs, ships = len(pack.developments), len(pack.airships)
        at_most("state.stacks", len(state.stacks), 4, "airship stacks", "AIR-R-03")
        at_most("state.stacks", sum(len(s) for s in state.stacks), ships, "airship cards", "AIR-R-03")
        for name in ("airships_undealt", "starters_undealt"):
            at_most(f"state.{name}", len(getattr(state, name)), ships, "airship cards", "AIR-R-03")
        for name in ("deck_era1", "deck_era2", "removed"):
            at_most(f"state.{name}", len(getattr(state, name)), devs, "development cards", "AIR-R-04")
        at_most("state.display", len(state.display), 6, "display rows", "AIR-R-24")
        at_most("state.display", sum(len(row) for row in state.display), 18, "display fields", "AIR-R-24")
        at_most("state.stages", len(state.stages), len(pack.stages), "stages", "AIR-R-43")
        at_most("state.markers", len(state.markers), len(pack.stages), "stage markers", "AIR-R-45")
        for seat, board in enumerate(state.boards):
            where = f"state.boards[{seat}]"
            at_most(f"{where}.departments", len(board.departments), 6, "departments", "AIR-R-11")
            at_most(f"{where}.airships", len(board.airships), ships, "airship cards", "AIR-R-40")
            at_most(f"{where}.won_this_turn", len(board.won_this_turn), devs + ships, "cards", "AIR-R-38")

    def _check_ids(self, state: AirState) -> None:
        """A state names only cards of this game's pack."""
        for board in state.boards:
            for card in board.departments:
                if card is not None:
                    self._known_dev(card)
        for row in state.display:
            for card in row:
                if card is not None:
                    self._known_dev(card)
        for stack in state.stacks:
            for card in stack:
                try:
                    self.pack.airship(card)
                except KeyError:
                    raise SerializationError(f"state: airship card {card!r} is not in pack {self.pack.name}") from None

    def _known_dev(self, card: str) -> None:
        try:
            self.pack.development(card)
        except KeyError:
            raise SerializationError(f"state: development card {card!r} is not in pack {self.pack.name}") from None

    # -- scenarios -------------------------------------------------------------------

    def stalled(self, state: AirState) -> str | None:
        """AIR-AMB-30: with the deck empty and no company able to attempt
        anything, nothing can change a company's dice again, so no end
        condition (AIR-R-47) can ever be met: the rules have no turn limit."""
        if state.phase is OVER or not deck_empty(state):
            return None
        if self.ctx.r("AIR-AMB-20") == "finish-go" and state.ended:
            return None
        # Cards won this turn count once the turn is over (AIR-AMB-26 'next-turn').
        state = turn_over(state)
        for seat in range(state.players):
            if has_legal_target(self.ctx, attrs.evolve(state, seat=seat, phase=ATTEMPT)):
                return None
        return (
            "AIR-AMB-30: the deck is empty and no company has the dice for any remaining target, "
            "so no end condition (AIR-R-47) can ever be met"
        )
