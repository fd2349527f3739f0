"""Aeroplanes: Aviation Ascendant wired into the rulecraft Game interface, and registered."""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Mapping
from fractions import Fraction
from itertools import accumulate, filterfalse
from math import lcm
from types import MappingProxyType
from typing import Any, ClassVar, get_args

import attrs

from rulecraft.catalogue import RuleCatalogue
from rulecraft.core import CHANCE, GAME_OVER, Candidates, Rejection, RulecraftError, Seat, ToMove
from rulecraft.model.aeroplanes import choices, scoring, setup
from rulecraft.model.aeroplanes import render as _render
from rulecraft.model.aeroplanes.actions import AerAction, DealWaitingPassenger, DrawCard, RefillWaiting, RiskThrow
from rulecraft.model.aeroplanes.catalogue import RULES, SETUP
from rulecraft.model.aeroplanes.components import PACK_FILES, Pack
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.readings import NOT_MODELLED_WHY, REGISTER
from rulecraft.model.aeroplanes.risk import read_faces
from rulecraft.model.aeroplanes.rules import CHANCE_PHASES, check, legal_actions, rejections
from rulecraft.model.aeroplanes.serial import converter, plain_state
from rulecraft.model.aeroplanes.state import (
    ADVANTAGE_ROLL,
    CARD_DRAW,
    DEAL_PASSENGERS,
    OVER,
    REFILL,
    RISK_ROLL,
    ROUND_DIE,
    UPDATE_DRAW,
    AerState,
    Phase,
)
from rulecraft.model.aeroplanes.transitions import transition
from rulecraft.packed import PackedGame
from rulecraft.parameters import Parameter, ParameterTable
from rulecraft.serialization import SerializationError, from_jsonable, json_object

ACTION_TYPES: tuple[type[AerAction], ...] = get_args(AerAction)
# The numbers of the rules live in the component pack (the rules read them from there); a parameter
# names one of them so a variant can change it without a pack file. Given parameters override the pack.
PARAMETERS = ParameterTable(
    "aer",
    (
        Parameter("subsidy_notes", "AER-R-02", 8, 0, 12, "£1 notes each era's Income step puts in the subsidy section"),
        Parameter("opponent_modifier", "AER-R-22", 2, 0, 4, "what an opponent's airport takes off a roll's target"),
        Parameter("daring_pilot_bonus", "AER-R-42", 3, 1, 6, "what a Daring Pilot adds to a risk roll's total"),
        Parameter("engine_failure_limit", "AER-R-28", 4, 2, 6, "engine-failure tiles at which an attempt fails"),
    ),
)


def with_parameters(pack: Pack, given: Mapping[str, int]) -> Pack:
    """The pack with the given parameters written into it (those not given keep the pack's own value)."""
    risk = pack.risk
    risk = attrs.evolve(
        risk,
        opponent_modifier=given.get("opponent_modifier", risk.opponent_modifier),
        daring_pilot_bonus=given.get("daring_pilot_bonus", risk.daring_pilot_bonus),
        engine_failure_limit=given.get("engine_failure_limit", risk.engine_failure_limit),
    )
    if risk != pack.risk:
        pack = attrs.evolve(pack, risk=risk)
    if "subsidy_notes" in given:
        pack = attrs.evolve(pack, subsidy_pool=given["subsidy_notes"])
    return pack


# The rules of play and the set-up steps (digest section 2): a set-up refusal cites AER-SET-xx.
CATALOGUE = RuleCatalogue("aer", RULES.rules + SETUP.rules)


# The invariants every state read from outside must keep: tiles, passengers, cards, money and markers
# counted, one tile per slot, planes within capacity.  The bookkeeping ones (era and phase, turn
# order, VP sources) are left to ``violations``: a printed example's minimal state may skip them
# (AER-EX-02 gives money during the set-up).
LOAD_INVARIANTS = (
    "airport-tiles-conserved",
    "one-tile-per-slot",
    "money",
    "subsidy-pool-and-marker",
    "passengers-conserved",
    "plane-capacity",
    "cards-conserved",
    "advantage-tiles-conserved",
    "engine-failures",
)


class AeroplanesGame(PackedGame[AerState, AerAction]):
    id: ClassVar[str] = "aer"
    title: ClassVar[str] = "Aeroplanes: Aviation Ascendant"
    catalogue = CATALOGUE
    register = REGISTER
    parameters = PARAMETERS
    min_players: ClassVar[int] = 3  # AER-R-01 (l.9, l.25)
    max_players: ClassVar[int] = 5
    scenario_folder: ClassVar[str] = "aeroplanes"
    load_invariants: ClassVar[tuple[str, ...]] = LOAD_INVARIANTS
    # Three eras of rounds, each action a few decisions (a placement's rolls and covers): random
    # games run to a few hundred steps, so a campaign game gets room to reach the end (AER-R-63).
    campaign_steps: ClassVar[int] = 4000
    first_seat_chosen: ClassVar[bool] = False  # the rules choose the start player

    pack: Pack
    action_types = ACTION_TYPES
    pack_files = PACK_FILES
    not_modelled = MappingProxyType(NOT_MODELLED_WHY)
    json_converter = converter

    def wire(self) -> None:
        self.pack = with_parameters(self.pack, self.changed_parameters)
        self.ctx = Context.printed(self.pack, dict(self.ruleset.readings))
        # The dice odds depend only on the pack (and the round die on nothing else): worked out once.
        self._dice_tables: dict[Phase, tuple[list[AerAction], list[int], list[int]]] = {}
        # The "¤" tiles (l.23, AER-AMB-31: ctx.not_in_era_1), looked up once for the deal's draws.
        self._not_in_era_1 = frozenset(p.id for p in self.ctx.pack.passengers if p.not_in_era_1)

    # -- set-up -------------------------------------------------------------------------------
    def new_game(self, players: int, *, first_seat: Seat = 0, **options: Any) -> AerState:
        """AER-SET-01..10.  The first player is drawn at random (AER-SET-03, a chance step), so
        ``first_seat`` must stay 0; no set-up options."""
        if options:
            raise RulecraftError(f"setup.options: Aeroplanes has no set-up options, not {sorted(options)}")
        if first_seat != 0:
            raise RulecraftError(
                "AER-SET-03 (l.24) — the first player is chosen at random; no start seat can be chosen"
            )
        problem = setup.setup_problem(self.ctx, players)
        if problem:
            raise RulecraftError(f"{self.pack.source}: {problem}")
        return setup.new_game(self.ctx, players)

    def random_options(self, rng: random.Random, players: int) -> dict[str, Any]:
        return {}

    # -- decisions ------------------------------------------------------------------------------
    def to_move(self, state: AerState) -> ToMove:
        if state.phase is OVER:
            return GAME_OVER
        if state.phase in CHANCE_PHASES:
            return CHANCE
        return state.to_move

    def legal_actions(self, state: AerState) -> list[AerAction]:
        if state.phase in CHANCE_PHASES or state.phase is OVER:
            return []
        return legal_actions(self.ctx, state)

    def candidates(self, state: AerState) -> Candidates[AerAction]:
        """A seat's legal actions straight from the rules (asked only while a seat is to move, so without
        ``legal_actions``' chance and game-over test; issue 18), as a sequence that makes only the action
        drawn (choices.py: the placements are counted, not listed)."""
        return choices.candidates(self.ctx, state), None

    def chance_outcomes(self, state: AerState) -> list[tuple[AerAction, Fraction]]:
        return setup.chance_outcomes(self.ctx, state)

    def sample_chance(self, state: AerState, rng: random.Random) -> AerAction:
        """A faster draw with the same support and weights as ``chance_outcomes``
        (tests/test_aer_game.py holds ``sampling_table`` equal to them, and the draw from a pile to
        the table): a tile drawn from a pile is one of its tiles, each equally likely; the dice
        tables are worked out once per game."""
        if state.phase is DEAL_PASSENGERS:  # one tile drawn, one action built (the bag holds ~70)
            # the bag's tiles without the '¤' ones, in order (filtered in C: the bag holds ~70)
            return DealWaitingPassenger(rng.choice(list(filterfalse(self._not_in_era_1.__contains__, state.bag))))
        if state.phase is REFILL:
            return RefillWaiting(rng.choice(state.bag))
        if (state.phase is CARD_DRAW or state.phase is UPDATE_DRAW) and state.deck:
            # The one outcome, the lowest deck card (AER-SET-08, AER-R-53), drawn as ``choices`` draws
            # from a one-entry table: one ``random()`` spent, so a seeded game goes on as it did.
            rng.random()
            return DrawCard(min(state.deck))
        if state.phase in self._dice_tables:  # the cumulative weights of a dice table, worked out once
            actions, _, cumulative = self._dice_tables[state.phase]
            # ``rng.choices(actions, cum_weights=cumulative, k=1)[0]`` as random.choices works it out: one
            # random() times the total, bisected in the cumulative weights (the same draw, with no list)
            return actions[bisect(cumulative, rng.random() * (cumulative[-1] + 0.0), 0, len(actions) - 1)]
        population, weights = self.sampling_table(state)
        if weights is None:
            return rng.choice(population)
        return rng.choices(population, weights=weights, k=1)[0]

    def sampling_table(self, state: AerState) -> tuple[list[AerAction], list[int] | None]:
        """What ``sample_chance`` draws from: the actions and integer weights (None: all equal)."""
        if state.phase is DEAL_PASSENGERS:  # AER-SET-01: a '¤' tile drawn is set aside
            return [DealWaitingPassenger(t) for t in state.bag if not self.ctx.not_in_era_1(t)], None
        if state.phase is REFILL:  # AER-R-58
            return [RefillWaiting(t) for t in state.bag], None
        if state.phase in (RISK_ROLL, ADVANTAGE_ROLL, ROUND_DIE):
            if state.phase not in self._dice_tables:
                outcomes = setup.chance_outcomes(self.ctx, state)
                scale = lcm(*(p.denominator for _, p in outcomes))
                weights = [int(p * scale) for _, p in outcomes]
                self._dice_tables[state.phase] = ([a for a, _ in outcomes], weights, list(accumulate(weights)))
            actions, weights, _ = self._dice_tables[state.phase]
            return list(actions), list(weights)
        outcomes = setup.chance_outcomes(self.ctx, state)
        scale = lcm(*(p.denominator for _, p in outcomes)) if outcomes else 1
        return [a for a, _ in outcomes], [int(p * scale) for _, p in outcomes]

    def check(self, state: AerState, action: AerAction) -> Rejection | None:
        return check(self.ctx, state, action)

    def rejections(self, state: AerState, action: AerAction) -> tuple[Rejection, ...]:
        return rejections(self.ctx, state, action)

    def transition(self, state: AerState, action: AerAction) -> AerState:
        return transition(self.ctx, state, action)

    # -- outcome ----------------------------------------------------------------------------------
    def scores(self, state: AerState) -> dict[Seat, int]:
        """The VP track during the game; at its end the final totals (AER-R-63: track + plane cards
        + passenger tiles)."""
        if state.phase is OVER:
            return {f.seat: f.total for f in scoring.final_scores(self.ctx, state)}
        return {seat: p.vp for seat, p in enumerate(state.players)}

    def score_parts(self, state: AerState) -> dict[Seat, dict[str, int]]:
        """By part (:func:`scoring.score_parts`): ``americas_bonus`` (AER-R-31) and ``era_scoring``
        (AER-R-49..52, the rest of the VP track) during the game, and at its end ``plane_cards`` and
        ``passenger_tiles`` too (AER-R-63)."""
        return scoring.score_parts(self.ctx, state, final=state.phase is OVER)

    def winners(self, state: AerState) -> tuple[Seat, ...]:
        """AER-R-64 (l.186): most final VP, then most money; a tie on both is shared (AER-AMB-53)."""
        return scoring.winners(self.ctx, state)

    def termination(self, state: AerState) -> str:
        """AER-R-01 (l.34-38, 53): the game lasts three eras; it ends after era 3's scoring."""
        return "AER-R-01"

    def tiebreak(self, state: AerState) -> str | None:
        """AER-R-64 (l.186) when money decides between seats tied on final VP; AER-AMB-53 when they are
        tied on money too (a shared win by default)."""
        return scoring.tiebreak(self.ctx, state)

    def ranking(self, state: AerState) -> dict[Seat, dict[str, int]]:
        """AER-R-64 (l.186): the count the tie-break compares, each seat's money at the end."""
        return {f.seat: {"money": f.money} for f in scoring.final_scores(self.ctx, state)}

    # -- text -------------------------------------------------------------------------------------
    def render(self, state: AerState) -> str:
        return _render.text(self, state)

    def picture(self, state: AerState) -> str | None:
        from rulecraft.model.aeroplanes.picture import svg

        return svg(self, state)

    def describe(self, state: AerState, action: AerAction) -> str:
        return _render.describe(self, state, action)

    # -- serialization ----------------------------------------------------------------------------
    def state_to_json(self, state: AerState) -> dict[str, Any]:
        data = converter.unstructure(state)
        assert isinstance(data, dict)
        return data

    def action_from_json(self, data: Mapping[str, Any]) -> AerAction:
        """As every game's, and a risk throw may also be written as its thrown faces, as the rulebook
        gives it (l.89: "a throw of a 3, a 5 and a skull is a total of 8 and 1 engine failure"):
        ``{"kind": "risk-throw", "faces": [3, 5, "skull"]}``, one face of the risk die per die."""
        if isinstance(data, Mapping) and data.get("kind") == RiskThrow.kind and "faces" in data:
            return self._throw_of_faces(data)
        return super().action_from_json(data)

    def _throw_of_faces(self, data: Mapping[str, Any]) -> RiskThrow:
        faces, extra = data["faces"], sorted(set(data) - {"kind", "faces"})
        supplies = self.pack.supplies
        if extra:
            raise SerializationError(f"action risk-throw: 'faces' or 'total' and 'skulls', not both ({extra})")
        if not isinstance(faces, list) or len(faces) != supplies.risk_dice:
            raise SerializationError(f"action risk-throw.faces: a list of {supplies.risk_dice} faces, got {faces!r}")
        known = {str(face): face for face in supplies.risk_die_faces}  # "3" and 3 are the face 3
        for i, face in enumerate(faces):
            if isinstance(face, bool) or str(face) not in known:
                raise SerializationError(
                    f"action risk-throw.faces[{i}]: {face!r} is not a face of the risk die ({sorted(known)})"
                )
        total, skulls = read_faces(known[str(face)] for face in faces)
        return RiskThrow(total, skulls)

    def state_from_json(self, data: Mapping[str, Any]) -> AerState:
        # plain JSON (a state's own) built directly; anything else read, and refused, by cattrs
        state = plain_state(data) if type(data) is dict else None
        if state is None:
            state = from_jsonable(json_object(data, "state"), AerState, what="state", using=converter)
        self._check_ids(state)
        return state

    def check_state(self, state: AerState) -> None:
        """Sizes against the pack first (cheap, so an absurd state is refused before any invariant or
        move generation runs); the invariants of component counts (:data:`LOAD_INVARIANTS`) are
        checked after it (``rulecraft.statefile.admit``)."""
        from rulecraft.statefile import at_most

        pack, n = self.pack, len(state.players)
        at_most("state.players", n, pack.max_players, "players", "AER-R-01")
        cards, tiles = len(pack.cards), len(pack.passengers)
        at_most("state.display", len(state.display), pack.display_size, "cards", "AER-SET-08")
        for name in ("deck", "removed_cards"):
            at_most(f"state.{name}", len(getattr(state, name)), cards, "plane cards", "AER-SET-08")
        for name in ("bag", "overflow", "removed_passengers"):
            at_most(f"state.{name}", len(getattr(state, name)), tiles, "passenger tiles", "AER-SET-01")
        at_most("state.map", len(state.map), len(pack.destinations), "destinations", "AER-R-29")
        at_most("state.map", sum(len(s.slots) for s in state.map), 6 * len(pack.destinations), "slots", "AER-R-29")
        area = pack.waiting_area
        at_most("state.waiting", len(state.waiting), len(area.section_order), "sections", "AER-R-32")
        for i, section in enumerate(state.waiting):
            at_most(f"state.waiting[{i}].slots", len(section.slots), area.slots_per_city, "slots", "AER-R-32")
        at_most("state.americas_paid", len(state.americas_paid), 2 * n, "bonuses", "AER-R-31")
        for seat, p in enumerate(state.players):
            where = f"state.players[{seat}]"
            at_most(f"{where}.cards", len(p.cards), cards, "plane cards", "AER-R-09")
            at_most(f"{where}.cards", sum(len(c.passengers) for c in p.cards), tiles, "passengers", "AER-R-34")
            at_most(f"{where}.discards", len(p.discards), cards, "plane cards", "AER-R-54")
            at_most(f"{where}.banked", len(p.banked), tiles, "passenger tiles", "AER-R-56")

    def _check_ids(self, state: AerState) -> None:
        """A state names only cards, passenger tiles and destinations of this game's pack."""
        try:
            for n in (*state.display, *state.deck, *state.removed_cards):
                self.pack.card(n)
            for p in state.players:
                for c in p.cards:
                    self.pack.card(c.number)
                    for t in c.passengers:
                        self.pack.passenger(t)
                for n in p.discards:
                    self.pack.card(n)
                for t in p.banked:
                    self.pack.passenger(t)
            for t in (*state.bag, *state.overflow, *state.removed_passengers):
                self.pack.passenger(t)
            for w in state.waiting:
                for waiting in w.slots:
                    if waiting is not None:
                        self.pack.passenger(waiting)
            for s in state.map:
                self.pack.destination(s.destination)
        except (KeyError, IndexError) as exc:
            raise SerializationError(f"state: {exc.args[0] if exc.args else exc}") from None
        if len(state.map) != len(self.pack.destinations):
            raise SerializationError(
                f"state.map: {len(state.map)} destinations;"
                f" the pack {self.pack.source} has {len(self.pack.destinations)}"
            )

    # -- scenarios ----------------------------------------------------------------------------------
