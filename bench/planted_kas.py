"""Planted rule deviations for Kings of Air and Steam (``kas``): the reference model with exactly one
rule changed, the way a real implementation gets it wrong (the conformance benchmark,
bench/planted.py).

Each deviation patches the model modules of this process through the patch function it is given
(``builtins.setattr`` or pytest's ``monkeypatch.setattr``), where the model looks the name up at call
time: ``game.py`` binds ``new_game`` and ``BOARD_SETS`` at import, so set-up deviations patch the
game module's names; ``transitions.py`` binds ``diamonds_in_play`` and ``starting_money`` is read
from ``transitions`` itself.  The model's memos (``shipping._network`` keyed by the rail lines,
``flight._moves`` keyed by the frozen FlightRules) hold nothing a deviation changes; they are
listed in ``CACHES_TO_CLEAR`` all the same, so a test can start from empty memos.

Observations are made on small constructed states: the ``LINE_MAP`` fixture (four cities in a row
joined by three one-hex rail lines, a chemical factory below) for shipping, cargo and scoring,
and fresh set-ups of the bundled pack for the set-up rules.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
from planted_base import Deviation, Patch

from rulecraft.model.kings_of_air_and_steam import components, flight, rules, shipping, transitions
from rulecraft.model.kings_of_air_and_steam import game as kas_game
from rulecraft.model.kings_of_air_and_steam.actions import Load
from rulecraft.model.kings_of_air_and_steam.components import GOODS
from rulecraft.model.kings_of_air_and_steam.context import Context
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase, PlayerState
from rulecraft.registry import make_game
from rulecraft.tools import tools

CACHES_TO_CLEAR: tuple[Callable[[], None], ...] = (shipping._network.cache_clear, flight._moves.cache_clear)


# ---------------------------------------------------------------------------
# Small helpers for the observations
# ---------------------------------------------------------------------------

# Cities C0..C3 in a row, lines L1 (C0-C1), L2 (C1-C2), L3 (C2-C3) of one rail hex each.
LINE_MAP: dict[str, Any] = {
    "hexes": [[q, r] for r in range(3) for q in range(7)],
    "factories": {"1,1": "chemical"},
    "cities": [
        {"name": "C0", "at": [0, 0], "demand": "chemical", "slots": 5},
        {"name": "C1", "at": [2, 0], "demand": "luxury", "slots": 5},
        {"name": "C2", "at": [4, 0], "demand": "luxury", "slots": 5},
        {"name": "C3", "at": [6, 0], "demand": "food", "slots": 5},
    ],
    "lines": [
        {"id": "L1", "ends": ["C0", "C1"], "hexes": [[1, 0]]},
        {"id": "L2", "ends": ["C1", "C2"], "hexes": [[3, 0]]},
        {"id": "L3", "ends": ["C2", "C3"], "hexes": [[5, 0]]},
    ],
}


def _game() -> KingsOfAirAndSteamGame:
    game = make_game("kas")
    assert isinstance(game, KingsOfAirAndSteamGame)
    return game


def _given(game: KingsOfAirAndSteamGame, **given: Any) -> KasState:
    state = tools(game).scenario_state({"players": 2, "map": LINE_MAP, **given})
    assert isinstance(state, KasState)
    return state


def _legal(game: KingsOfAirAndSteamGame, state: KasState, kind: str | None = None) -> list[dict[str, Any]]:
    actions = [game.action_to_json(a) for a in game.legal_actions(state)]
    return [a for a in actions if kind is None or a["kind"] == kind]


def _step(game: KingsOfAirAndSteamGame, state: KasState, action: Mapping[str, Any]) -> KasState:
    after = game.apply(state, game.action_from_json(action))
    assert isinstance(after, KasState)
    return after


def _money(state: KasState) -> list[int]:
    return [p.money for p in state.players]


# Seat 0 with 2 luxury in its depot on L1, seat 1 with a depot on L2.
_SHIPPING = {
    "depots": [{"at": [1, 0], "owner": 0, "goods": {"luxury": 2}}, {"at": [3, 0], "owner": 1}],
    "players_state": {
        0: {"at": [1, 1], "plan": ["S01", "S02", "S03", "S04"]},
        1: {"at": [3, 1], "plan": ["S02", "S03", "S04", "S05"]},
    },
    "phase": "action",
    "seat": 0,
}


def _with_rail(level: int) -> dict[str, Any]:
    players = {0: {**_SHIPPING["players_state"][0], "rail_level": level}, 1: _SHIPPING["players_state"][1]}  # type: ignore[index]
    return {**_SHIPPING, "players_state": players}


# ---------------------------------------------------------------------------
# The four original deviations (formerly rulecraft.conformance.mutants)
# ---------------------------------------------------------------------------


def _plant_toll(patch: Patch) -> None:
    patch(transitions, "_transfer", lambda state, payer, payee, amount: state)


def _observe_toll() -> Any:
    """Seat 0 (rail level 2) ships a luxury to C2, stopping at seat 1's depot on L2: $1 toll."""
    game = _game()
    state = _given(game, **_with_rail(2))
    ship = next(a for a in _legal(game, state, "ship") if a["to_city"] == "C2")
    return {"ship": ship, "money": _money(_step(game, state, ship))}


def _plant_stops(patch: Patch) -> None:
    for fn_name in ("routes", "legal_shipments", "shipment_problem", "sellout_options"):
        patch(shipping, fn_name, _one_more_stop(getattr(shipping, fn_name)))


def _one_more_stop(original: Callable[..., Any]) -> Callable[..., Any]:
    """The rail level is passed positionally after the fixed arguments of each shipping function."""
    position = list(inspect.signature(original).parameters).index("rail_level")

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if "rail_level" in kwargs:
            kwargs["rail_level"] += 1
        else:
            args = (*args[:position], args[position] + 1, *args[position + 1 :])
        return original(*args, **kwargs)

    return wrapped


def _observe_stops() -> Any:
    """At rail level 1 only C1 (one stop) takes seat 0's luxury; C2 needs a second stop."""
    game = _game()
    state = _given(game, **_with_rail(1))
    return sorted({a["to_city"] for a in _legal(game, state, "ship") if a["to_city"]})


def _plant_sharp_turn(patch: Patch) -> None:
    original_rules = flight.FlightRules.from_readings

    def sharp(readings: Any, **kw: Any) -> Any:
        return attrs.evolve(original_rules(readings, **kw), sharp_ok=True)

    patch(flight.FlightRules, "from_readings", sharp)


def _observe_sharp_turn() -> Any:
    """Seat 0 flies S04 (2 hexes) from (3,1): where may it end?"""
    game = _game()
    state = _given(
        game,
        phase="flight",
        players_state={
            0: {"at": [3, 1], "plan": ["S04", "S01", "S02", "S03"]},
            1: {"plan": ["S05", "S01", "S02", "S03"]},
        },
    )
    return tools(game).facts(state)["flight_ends"]


def _plant_diamonds(patch: Patch) -> None:
    patch(transitions, "diamonds_in_play", lambda ctx, player: 0)


def _observe_diamonds() -> Any:
    """Seat 0 (rating 1) played S05 (1 diamond) in cycle 1 and reveals S07 (1 diamond) in cycle 2:
    the turn is lost, so seat 1 flies first."""
    game = _game()
    state = _given(
        game,
        phase="action",
        seat=0,
        players_state={
            0: {"at": [1, 1], "plan": ["S05", "S07", "S01", "S02"]},
            1: {"at": [3, 1], "plan": ["S01", "S09", "S02", "S03"]},
        },
    )
    after = _step(game, state, {"kind": "grant"})
    return {"seat": after.seat, "phase": after.phase.value, "slots": [s.value for s in after.players[0].slots]}


# ---------------------------------------------------------------------------
# KAS-R-17 / KAS-R-50: the end comes when the pile cannot fill the 3 slots
# ---------------------------------------------------------------------------


def _plant_end_after_round_4(patch: Patch) -> None:
    def begin_round(ctx: Context, state: KasState) -> KasState:
        # "too few tiles to fill the 3 slots" written as <= 3: round 5's three tiles are never drawn.
        if sum(state.market_pile) <= 3:
            return transitions._begin_sellout(ctx, state)
        return attrs.evolve(state, phase=Phase.NEW_MARKET, market_slots=(), cycle=1)

    patch(transitions, "_begin_round", begin_round)


def _observe_end_after_round_4() -> Any:
    """Round 4's Upkeep: seat 0 pays for its one good; 3 tiles are left for round 5."""
    game = _game()
    state = _given(
        game,
        phase="upkeep",
        round=4,
        seat=0,
        players_state={0: {"at": [1, 1], "hold": {"chemical": 1}}, 1: {"at": [3, 1]}},
        market={"slots": ["food", "chemical", "machine"], "pile": {"textile": 3}},
    )
    after = _step(game, state, {"kind": "pay-upkeep"})
    return {"phase": after.phase.value, "round": after.round}


# ---------------------------------------------------------------------------
# KAS-R-51: the Sellout pays $4 a good
# ---------------------------------------------------------------------------


def _plant_sellout_market_value(patch: Patch) -> None:
    original = transitions._sell

    def sell(ctx: Context, state: KasState, action: Any) -> KasState:
        # The good is paid at its market value, as a delivery would be, instead of the flat $4.
        after = original(ctx, state, action)
        return transitions._money(after, state.seat, ctx.price(state, action.goods) - shipping.SELLOUT_PRICE)

    patch(transitions, "_sell", sell)


def _observe_sellout_market_value() -> Any:
    """The Sellout: seat 0 sells a luxury (market value $6) to C1."""
    game = _game()
    state = _given(
        game,
        phase="sellout",
        round=6,
        seat=0,
        depots=[{"at": [1, 0], "owner": 0, "goods": {"luxury": 1}}],
        players_state={0: {"at": [1, 1]}, 1: {"at": [3, 1]}},
        market={"pile": {}, "pushes": {"luxury": 2}},
    )
    sell = _legal(game, state, "sell")[0]
    return {"sell": sell, "money": _money(_step(game, state, sell))}


# ---------------------------------------------------------------------------
# KAS-R-52 / KAS-R-53: scoring and the tie-break
# ---------------------------------------------------------------------------


def _plant_rail_vp_cumulative(patch: Patch) -> None:
    def rail_vp(self: Context, player: PlayerState) -> int:
        # Every rail level passed scores, not only the one reached (5 + 15 at level 5).
        return sum(level.vp for level in self.pack.rail_track[: max(0, player.rail_level)])

    patch(Context, "rail_vp", rail_vp)


def _observe_rail_vp() -> Any:
    game = _game()
    state = _given(game, players_state={0: {"at": [1, 1], "rail_level": 5}, 1: {"at": [3, 1], "rail_level": 4}})
    return [game.score_parts(state)[seat] for seat in range(2)]


def _plant_tie_shared(patch: Patch) -> None:
    def winners(self: KingsOfAirAndSteamGame, state: KasState) -> tuple[int, ...]:
        # Most VP wins; a tie is shared at once, without looking at the money.
        scores = self.scores(state)
        best = max(scores.values())
        return tuple(seat for seat, vp in scores.items() if vp == best)

    patch(KingsOfAirAndSteamGame, "winners", winners)


def _observe_tie() -> Any:
    """30 VP each: seat 0 with $20 and 1 depot, seat 1 with $10 and 2 depots."""
    game = _game()
    state = _given(
        game,
        phase="sellout",
        round=6,
        depots=[{"at": [1, 0], "owner": 0}, {"at": [3, 0], "owner": 1}, {"at": [5, 0], "owner": 1}],
        players_state={0: {"at": [1, 1], "money": 20}, 1: {"at": [3, 1], "money": 10}},
        market={"pile": {}},
    )
    for _ in range(2):
        state = _step(game, state, {"kind": "end-sellout"})
    return {
        "over": game.is_over(state),
        "scores": list(game.scores(state).values()),
        "winners": list(game.winners(state)),
    }


# ---------------------------------------------------------------------------
# Resource caps: the hold (KAS-R-29) and the 10 depots (KAS-R-02, KAS-R-07, KAS-R-54)
# ---------------------------------------------------------------------------


class _RoomForOneMore(Context):
    """The hold-full test written ``held > capacity``: one good more fits."""

    def capacity(self, player: PlayerState) -> int:
        return super().capacity(player) + 1


def _plant_hold_one_over(patch: Patch) -> None:
    original = rules.cargo_problem

    def cargo_problem(ctx: Context, state: KasState, action: Any) -> Any:
        if isinstance(action, Load):
            ctx = _RoomForOneMore(ctx.pack, ctx.readings, ctx.maps, ctx.params)
        return original(ctx, state, action)

    patch(rules, "cargo_problem", cargo_problem)


def _observe_hold() -> Any:
    """Seat 0's hold (capacity 2) is full of food at the chemical factory."""
    game = _game()
    state = _given(
        game,
        phase="cargo",
        seat=0,
        factories={"1,1": 2},
        players_state={
            0: {"at": [1, 1], "hold": {"food": 2}, "plan": ["S01", "S02", "S03", "S04"]},
            1: {"at": [3, 1], "plan": ["S02", "S03", "S04", "S05"]},
        },
    )
    return _legal(game, state)


def _plant_start_depot_free(patch: Patch) -> None:
    original = transitions._place_start_depot

    def place(ctx: Context, state: KasState, at: Any) -> KasState:
        # The starting depot is taken as an extra, not as one of the player's 10.
        seat = state.seat
        after = original(ctx, state, at)
        return transitions._player(after, seat, depots_left=after.players[seat].depots_left + 1)

    patch(transitions, "_place_start_depot", place)


def _observe_start_depot() -> Any:
    game = _game()
    state = game.new_game(2)
    seat = state.seat
    placed = _step(game, state, _legal(game, state, "start-depot")[0])
    return {"seat": seat, "depots_left": [p.depots_left for p in placed.players]}


# ---------------------------------------------------------------------------
# Set-up: the start player, the advanced game, the Uncertainty variant, the player count
# ---------------------------------------------------------------------------


def _plant_start_order_seat_0(patch: Patch) -> None:
    original = transitions.new_game  # what game.py binds as new_game

    def new_game(
        ctx: Context,
        players: int,
        first_seat: int,
        layout: str,
        teams: tuple[tuple[str, str], ...] = (),
        uncertainty: bool = False,
    ) -> KasState:
        # "Reverse turn order" computed as seats n-1 .. 0, right only when seat 0 starts.
        return attrs.evolve(original(ctx, players, 0, layout, teams, uncertainty), start_player=first_seat)

    patch(kas_game, "new_game", new_game)


def _observe_start_order() -> Any:
    """3 players, seat 1 starts: the starting depots go 0, 2, then the start player 1."""
    state = _game().new_game(3, first_seat=1)
    return {"start_player": state.start_player, "order": list(state.order), "seat": state.seat}


_TEAMS = (("Sphinx", "Victor Blane"), ("Emperor", "Reginald Kain"), ("Sky Castle", "Clint Castle"))


def _plant_kain_twelve(patch: Patch) -> None:
    patch(transitions, "starting_money", lambda player, base=transitions.STARTING_MONEY: base)


def _observe_kain() -> Any:
    state = _game().new_game(3, teams=_TEAMS)
    return _money(state)


def _plant_priority_ascending(patch: Patch) -> None:
    original = transitions.new_game  # what game.py binds as new_game

    def new_game(
        ctx: Context,
        players: int,
        first_seat: int,
        layout: str,
        teams: tuple[tuple[str, str], ...] = (),
        uncertainty: bool = False,
    ) -> KasState:
        state = original(ctx, players, first_seat, layout, teams, uncertainty)
        if not teams:
            return state
        # Sorted by priority number without reverse=True: the lowest number places first.
        ranked = sorted(range(players), key=lambda s: ctx.pack.team(teams[s][0]).priority)
        harvey = [s for s in ranked if teams[s][1] == "Harvey Golding"]
        order = tuple(harvey + [s for s in ranked if s not in harvey])
        return attrs.evolve(state, order=order, seat=order[0])

    patch(kas_game, "new_game", new_game)


def _observe_priority() -> Any:
    """Priorities 3 (Sphinx), 1 (Emperor), 6 (Sky Castle): the starting depots go 6, 3, 1."""
    state = _game().new_game(3, teams=_TEAMS)
    return {"order": list(state.order), "seat": state.seat}


def _plant_uncertainty_fifteen(patch: Patch) -> None:
    original = transitions.new_game  # what game.py binds as new_game

    def new_game(
        ctx: Context,
        players: int,
        first_seat: int,
        layout: str,
        teams: tuple[tuple[str, str], ...] = (),
        uncertainty: bool = False,
    ) -> KasState:
        # The variant's 5 unseen tiles are taken from the base game's 15, not from all 20.
        state = original(ctx, players, first_seat, layout, teams, uncertainty)
        return attrs.evolve(state, market_pile=(3, 3, 3, 3, 3)) if uncertainty else state

    patch(kas_game, "new_game", new_game)


def _observe_uncertainty() -> Any:
    game = _game()
    state = game.new_game(2, uncertainty=True)
    odds = {game.action_to_json(a)["goods"]: str(p) for a, p in game.chance_outcomes(state)}
    return {"pile": dict(zip(GOODS, state.market_pile, strict=True)), "first_removal": odds}


def _plant_six_players_five_boards(patch: Patch) -> None:
    # "3, 4 or 5 players" written as players <= 6: six players get five boards.
    patch(kas_game, "BOARD_SETS", {**components.BOARD_SETS, 6: components.BOARD_SETS[5]})


def _observe_board_sets() -> Any:
    game = _game()
    return {str(n): game.new_game(n).layout for n in (5, 6, 7)}


# ---------------------------------------------------------------------------

DEVIATIONS: Sequence[Deviation] = (
    Deviation(
        game="kas",
        name="toll",
        rules=("KAS-R-38",),
        category="ordinary",
        what="tolls are never paid to the depot's owner",
        plant=_plant_toll,
        observe=_observe_toll,
    ),
    Deviation(
        game="kas",
        name="stops",
        rules=("KAS-R-37",),
        category="ordinary",
        what="a shipment may make one stop more than the rail level",
        plant=_plant_stops,
        observe=_observe_stops,
    ),
    Deviation(
        game="kas",
        name="sharp-turn",
        rules=("KAS-R-26",),
        category="ordinary",
        what="flights may turn sharply (120 degrees)",
        plant=_plant_sharp_turn,
        observe=_observe_sharp_turn,
    ),
    Deviation(
        game="kas",
        name="diamonds",
        rules=("KAS-R-25",),
        category="ordinary",
        what="the diamond check forgets the cards already played",
        plant=_plant_diamonds,
        observe=_observe_diamonds,
    ),
    Deviation(
        game="kas",
        name="end-after-round-4",
        rules=("KAS-R-17", "KAS-R-50"),
        category="end-game",
        what="the game ends when 3 market tiles are left (<= 3), so round 5 is never played",
        plant=_plant_end_after_round_4,
        observe=_observe_end_after_round_4,
    ),
    Deviation(
        game="kas",
        name="sellout-market-value",
        rules=("KAS-R-51",),
        category="end-game",
        what="a good sold in the Sellout earns its market value instead of $4",
        plant=_plant_sellout_market_value,
        observe=_observe_sellout_market_value,
    ),
    Deviation(
        game="kas",
        name="rail-vp-cumulative",
        rules=("KAS-R-52",),
        category="scoring",
        what="every rail level passed scores (level 5: 5 + 15 VP), not only the level reached",
        plant=_plant_rail_vp_cumulative,
        observe=_observe_rail_vp,
    ),
    Deviation(
        game="kas",
        name="tie-shared",
        rules=("KAS-R-53",),
        category="scoring",
        what="players tied on VP share the win; the most money does not break the tie",
        plant=_plant_tie_shared,
        observe=_observe_tie,
    ),
    Deviation(
        game="kas",
        name="hold-one-over",
        rules=("KAS-R-29",),
        category="resource-cap",
        what="the hold-full test is held > capacity, so a full hold still loads one more good",
        plant=_plant_hold_one_over,
        observe=_observe_hold,
    ),
    Deviation(
        game="kas",
        name="start-depot-extra",
        rules=("KAS-R-07", "KAS-R-54"),
        category="resource-cap",
        what="the starting depot is not one of the player's 10, so a player may have 11 on the board",
        plant=_plant_start_depot_free,
        observe=_observe_start_depot,
    ),
    Deviation(
        game="kas",
        name="start-order-seat-0",
        rules=("KAS-R-07",),
        category="rare-setup",
        what="starting depots go in reverse seat order from the last seat, right only when seat 0 starts",
        plant=_plant_start_order_seat_0,
        observe=_observe_start_order,
    ),
    Deviation(
        game="kas",
        name="kain-twelve",
        rules=("KAS-R-63", "KAS-R-12"),
        category="rare-setup",
        what="Reginald Kain starts with $12 like everyone else instead of $20",
        plant=_plant_kain_twelve,
        observe=_observe_kain,
    ),
    Deviation(
        game="kas",
        name="priority-ascending",
        rules=("KAS-R-11",),
        category="rare-setup",
        what="advanced game: starting depots go in ascending priority order instead of the reverse",
        plant=_plant_priority_ascending,
        observe=_observe_priority,
    ),
    Deviation(
        game="kas",
        name="uncertainty-fifteen",
        rules=("KAS-R-06",),
        category="rare-setup",
        what="Uncertainty variant: the 5 unseen tiles are removed from the base 15 tiles, not from all 20",
        plant=_plant_uncertainty_fifteen,
        observe=_observe_uncertainty,
    ),
    Deviation(
        game="kas",
        name="six-players-five-boards",
        rules=("KAS-R-01",),
        category="player-count",
        what="6 players play on five boards (ABCDE) instead of all seven",
        plant=_plant_six_players_five_boards,
        observe=_observe_board_sets,
    ),
)
