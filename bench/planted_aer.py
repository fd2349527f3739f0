"""Planted rule deviations for Aeroplanes: Aviation Ascendant (``aer``): the reference model with
exactly one rule changed, the way a real implementation gets it wrong (the conformance benchmark,
bench/planted.py).

Each deviation patches the model modules of this process through the patch function it is given
(``builtins.setattr`` or pytest's ``monkeypatch.setattr``), only where the model reads the value at
call time, and observes the rule on a state built with a fresh ``make_game("aer")``.  Pack numbers
(the Americas bonus, the engine-failure limit) live in the cached bundled pack, which is never
changed: a deviation hands the one function that reads them a context or pack with the number
changed.  ``transitions.py`` binds ``scoring.era_scores`` at import, so scoring deviations patch
the functions ``era_scores`` calls, which it looks up at call time.  The model's caches
(``bundled_pack``, the ``risk.py`` odds tables) hold nothing a deviation changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
from planted_base import Deviation

from rulecraft.model.aeroplanes import game as aer_game
from rulecraft.model.aeroplanes import scoring as aer_scoring
from rulecraft.model.aeroplanes import transitions as aer_transitions
from rulecraft.model.aeroplanes.actions import PlaceAirport, RiskThrow
from rulecraft.model.aeroplanes.components import Destination, Pack
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.model.aeroplanes.state import BLOCKER, AerState, Phase, TurnState
from rulecraft.registry import make_game
from rulecraft.tools import tools

PatchFn = Callable[[object, str, Any], None]
CACHES_TO_CLEAR: tuple[Callable[[], None], ...] = ()


# ---------------------------------------------------------------------------
# Small helpers for the observations
# ---------------------------------------------------------------------------


def _game() -> AeroplanesGame:
    game = make_game("aer")
    assert isinstance(game, AeroplanesGame)
    return game


def _steps(game: AeroplanesGame, state: AerState, steps: Sequence[Mapping[str, Any]]) -> AerState:
    for step in steps:
        state = game.apply(state, game.action_from_json(step))
    return state


def _legal(game: AeroplanesGame, state: AerState) -> list[dict[str, Any]]:
    return [game.action_to_json(a) for a in game.legal_actions(state)]


def _seats(state: AerState) -> list[dict[str, Any]]:
    return [
        {"money": p.money, "vp": p.vp, "supply": list(p.supply), "engine_failures": p.engine_failures}
        for p in state.players
    ]


def _place(game: AeroplanesGame, state: AerState, destination: str, throw: tuple[int, int]) -> AerState:
    """The mover's first direct PlaceAirport to ``destination``, every roll thrown as ``throw``
    (total, skulls), every passed roll taken without cover."""
    action = next(
        a
        for a in game.legal_actions(state)
        if isinstance(a, PlaceAirport) and a.destination == destination and a.via is None
    )
    state = game.apply(state, action)
    while state.phase in (Phase.RISK_ROLL, Phase.COVER):
        if state.phase is Phase.RISK_ROLL:
            state = game.apply(state, RiskThrow(*throw))
        else:
            state = _steps(game, state, [{"kind": "cover-shortfall", "money": 0, "pilots": 0}])
    return state


def _end_era(game: AeroplanesGame, given: Mapping[str, Any]) -> list[int]:
    """The VP of every seat after the era's scoring: the mover takes the black marker (pool empty)."""
    state = _steps(game, tools(game).scenario_state({**given, "subsidy_pool": 0}), [{"kind": "take-subsidy"}])
    return [p.vp for p in state.players]


# ---------------------------------------------------------------------------
# AER-R-31: the Americas bonus to each of the first two players there
# ---------------------------------------------------------------------------

_BONUS_CONTEXTS: dict[int, tuple[Context, Context]] = {}


def _one_bonus_fewer(ctx: Context) -> Context:
    """``ctx`` with an Americas bonus for one player fewer (derived once per context)."""
    known = _BONUS_CONTEXTS.get(id(ctx))
    if known is not None and known[0] is ctx:
        return known[1]
    bonus = ctx.pack.americas_bonus
    pack = attrs.evolve(ctx.pack, americas_bonus=attrs.evolve(bonus, first_players=bonus.first_players - 1))
    derived = attrs.evolve(ctx, pack=pack)
    _BONUS_CONTEXTS[id(ctx)] = (ctx, derived)
    return derived


def _plant_americas(patch: PatchFn) -> None:
    place_tile = aer_transitions.place_tile

    def patched(ctx: Context, state: AerState, turn: TurnState, *args: Any) -> AerState:
        # `len(paid) < first_players` written as `len(paid) + 1 < first_players`: only the first is paid.
        return place_tile(_one_bonus_fewer(ctx), state, turn, *args)

    patch(aer_transitions, "place_tile", patched)


def _observe_americas() -> Any:
    """Seat 1 placed in North America first (and was paid); seat 0 now places the second tile there."""
    game = _game()
    given = {
        "players": 4,
        "seats": {0: {"home": "London", "money": 20, "cards": [6]}},
        "map": {"North America": ["1:1"]},
    }
    state = attrs.evolve(tools(game).scenario_state(given), americas_paid=(("North America", 1),))
    state = _place(game, state, "North America", (18, 0))
    return {"seat0": _seats(state)[0], "americas_paid": [list(x) for x in state.americas_paid]}


# ---------------------------------------------------------------------------
# AER-R-28: 4 or more engine-failure tiles make the attempt collapse
# ---------------------------------------------------------------------------


def _plant_collapse(patch: PatchFn) -> None:
    with_parameters = aer_game.with_parameters

    def patched(pack: Pack, given: Mapping[str, int]) -> Pack:
        # `ef >= limit` written as `ef > limit`: the attempt collapses at 5 engine failures.
        limit = given.get("engine_failure_limit", pack.risk.engine_failure_limit) + 1
        return with_parameters(pack, {**given, "engine_failure_limit": limit})

    patch(aer_game, "with_parameters", patched)


def _observe_collapse() -> Any:
    """Seat 0 holds 3 EF tiles and throws one skull (6 + 6 + skull) placing in Casablanca."""
    game = _game()
    given = {"players": 3, "seats": {0: {"home": "London", "engine_failures": 3, "cards": [6]}}}
    state = _place(game, tools(game).scenario_state(given), "Casablanca", (12, 1))
    return {
        "phase": state.phase.name,
        "to_move": state.to_move,
        "seat0": _seats(state)[0],
        "cards": [[c.number, c.tiles] for c in state.players[0].cards],
        "casablanca": [None if a is None else [a.owner, a.stage] for a in state.slots("Casablanca")],
    }


# ---------------------------------------------------------------------------
# AER-R-50/52: ties by competition ranking ("1,1,3")
# ---------------------------------------------------------------------------


def _plant_dense_ranks(patch: PatchFn) -> None:
    def dense_ranks(scores: Mapping[int, int]) -> dict[int, int]:
        # Counting the distinct better scores ("1,1,2"), not the better players.
        return {s: 1 + len({v for v in scores.values() if v > score}) for s, score in scores.items()}

    patch(aer_scoring, "competition_ranks", dense_ranks)


def _observe_dense_ranks() -> Any:
    """Europe: seats 0 and 1 tie with 3 airports each, seat 2 has 2 (homes London, Amsterdam, Berlin)."""
    game = _game()
    tiles = {"Paris": ["0:1"], "Madrid": ["0:1"], "Frankfurt": ["1:1"], "Vienna": ["1:1"], "Warsaw": ["2:1"]}
    return _end_era(game, {"players": 3, "map": tiles})


# ---------------------------------------------------------------------------
# AER-R-52: a profit of 0 ranks like any other
# ---------------------------------------------------------------------------


def _plant_zero_profit(patch: PatchFn) -> None:
    rank_profits = aer_scoring.rank_profits

    def patched(ctx: Context, profits: Mapping[int, int], era: int) -> aer_scoring.Ranking:
        # `if profit:` as the test for "has a profit": a profit of exactly 0 is left out of the ranking.
        return rank_profits(ctx, {seat: v for seat, v in profits.items() if v}, era)

    patch(aer_scoring, "rank_profits", patched)


def _observe_zero_profit() -> Any:
    """Profits 2 (card 8 full with P04), 0 (no card) and -2 (card 1 empty)."""
    game = _game()
    seats = {0: {"cards": [{"number": 8, "passengers": ["P04"]}]}, 2: {"cards": [1]}}
    return _end_era(game, {"players": 3, "seats": seats})


# ---------------------------------------------------------------------------
# AER-R-64: a VP tie goes to the most money
# ---------------------------------------------------------------------------


def _plant_money_tie_break(patch: PatchFn) -> None:
    def winners(ctx: Context, state: AerState) -> tuple[int, ...]:
        scores = aer_scoring.final_scores(ctx, state)
        best = max(f.total for f in scores)  # the money tie-break forgotten: a VP tie is shared
        return tuple(f.seat for f in scores if f.total == best)

    patch(aer_scoring, "winners", winners)


def _observe_money_tie_break() -> Any:
    game = _game()
    seats = {0: {"vp": 20, "money": 3}, 1: {"vp": 20, "money": 7}, 2: {"vp": 12, "money": 30}}
    state = attrs.evolve(tools(game).scenario_state({"players": 3, "era": 3, "seats": seats}), phase=Phase.OVER)
    return {"scores": game.scores(state), "winners": list(game.winners(state))}


# ---------------------------------------------------------------------------
# AER-R-63: final scoring adds the VP of every plane card, discarded ones included
# ---------------------------------------------------------------------------


def _plant_discards(patch: PatchFn) -> None:
    final_scores = aer_scoring.final_scores

    def patched(ctx: Context, state: AerState) -> tuple[aer_scoring.FinalScore, ...]:
        # Only the cards in front of the player summed: the discard pile's cards forgotten.
        return tuple(
            attrs.evolve(f, cards=f.cards - sum(ctx.pack.card(n).vp for n in state.players[f.seat].discards))
            for f in final_scores(ctx, state)
        )

    patch(aer_scoring, "final_scores", patched)


def _observe_discards() -> Any:
    """Seats 0 and 1 tie on the track; seat 0's full card 8 (1 VP) went to its discard pile."""
    game = _game()
    seats = {0: {"vp": 15, "money": 2, "cards": [8]}, 1: {"vp": 15, "money": 2}}
    state = tools(game).scenario_state({"players": 3, "era": 3, "seats": seats})
    p = state.players[0]
    p = attrs.evolve(p, cards=(), discards=(8,), supply=(p.supply[0] + p.cards[0].tiles, *p.supply[1:]))
    state = attrs.evolve(state, players=(p, *state.players[1:]), phase=Phase.OVER)
    return {"scores": game.scores(state), "winners": list(game.winners(state))}


# ---------------------------------------------------------------------------
# AER-SET-04: only with 3 players are the "4/5" slots blocked
# ---------------------------------------------------------------------------


def _plant_four_five(patch: PatchFn) -> None:
    def slots_in_play(self: Destination, players: int) -> int:
        # "4/5" read as "in play with 5 players": blocked with 3 and with 4.
        return self.slots - (self.four_five_slots if players <= 4 else 0)

    patch(Destination, "slots_in_play", slots_in_play)


def _observe_four_five() -> Any:
    game = _game()
    out = {}
    for n in (3, 4, 5):
        state = game.new_game(n)
        out[str(n)] = sum(1 for s in state.map for a in s.slots if a is not None and a.owner == BLOCKER)
    return out


# ---------------------------------------------------------------------------
# AER-SET-01: a "¤" tile drawn at set-up is set aside and another drawn
# ---------------------------------------------------------------------------


def _plant_marked_tiles(patch: PatchFn) -> None:
    patch(Context, "not_in_era_1", lambda self, tile_id: False)  # the ¤ mark ignored at set-up


def _observe_marked_tiles() -> Any:
    """The tiles the first waiting slot can be dealt."""
    game = _game()
    state = game.new_game(3)
    outcomes = game.chance_outcomes(state)
    marked = sorted(p.id for p in game.pack.passengers if p.not_in_era_1)
    dealt = {game.action_to_json(a).get("id") for a, _ in outcomes}
    return {"outcomes": len(outcomes), "marked_dealt": sorted(t for t in marked if t in dealt)}


DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        game="aer",
        name="americas-bonus-first-only",
        rules=("AER-R-31",),
        category="resource-cap",
        what="the Americas bonus (£3, 1 VP) goes only to the first player to place there, not the first two",
        plant=_plant_americas,
        observe=_observe_americas,
    ),
    Deviation(
        game="aer",
        name="collapse-at-five-failures",
        rules=("AER-R-28",),
        category="resource-cap",
        what="a placement attempt collapses at 5 engine-failure tiles instead of 4",
        plant=_plant_collapse,
        observe=_observe_collapse,
    ),
    Deviation(
        game="aer",
        name="dense-tie-ranking",
        rules=("AER-R-50", "AER-R-52"),
        category="scoring",
        what="after a tie the next player takes the next place (1,1,2) instead of skipping back (1,1,3)",
        plant=_plant_dense_ranks,
        observe=_observe_dense_ranks,
    ),
    Deviation(
        game="aer",
        name="zero-profit-unranked",
        rules=("AER-R-51", "AER-R-52"),
        category="scoring",
        what="a profit of exactly 0 is left out of the profitability ranking, moving lower profits up",
        plant=_plant_zero_profit,
        observe=_observe_zero_profit,
    ),
    Deviation(
        game="aer",
        name="no-money-tie-break",
        rules=("AER-R-64",),
        category="end-game",
        what="a tie on final VP is shared instead of going to the player with the most money",
        plant=_plant_money_tie_break,
        observe=_observe_money_tie_break,
    ),
    Deviation(
        game="aer",
        name="final-scoring-forgets-discards",
        rules=("AER-R-63",),
        category="end-game",
        what="final scoring adds the VP of the cards in play but not of the cards in the discard pile",
        plant=_plant_discards,
        observe=_observe_discards,
    ),
    Deviation(
        game="aer",
        name="four-five-slots-blocked-with-4",
        rules=("AER-SET-04",),
        category="player-count",
        what="the '4/5' slots are blocked with 4 players as well as with 3",
        plant=_plant_four_five,
        observe=_observe_four_five,
    ),
    Deviation(
        game="aer",
        name="marked-tiles-dealt-at-setup",
        rules=("AER-SET-01",),
        category="rare-setup",
        what="passenger tiles with the '¤' mark are dealt into the waiting area at set-up",
        plant=_plant_marked_tiles,
        observe=_observe_marked_tiles,
    ),
)
