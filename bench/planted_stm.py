"""Planted rule deviations for Steamopolis (``stm``): the reference model with exactly one rule
changed, the way a real implementation gets it wrong (the conformance benchmark, bench/planted.py).

Each deviation patches the model modules of this process through the patch function it is given
(``builtins.setattr`` or pytest's ``monkeypatch.setattr``), only where the model reads the value at
call time, and observes the rule on a state built with a fresh ``make_game("stm")``.  Nothing here
is cached by the model beyond a game: ``Context._faces`` memoises machine-room faces per game, and
the ``lru_cache``s of ``rules.py`` hold pressure walks only, which no deviation here changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
from planted_base import Deviation

from rulecraft.model.steamopolis import game as stm_game
from rulecraft.model.steamopolis import setup as stm_setup
from rulecraft.model.steamopolis import transitions as stm_transitions
from rulecraft.model.steamopolis.actions import SetTarget
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.gauge import GaugeLayout
from rulecraft.model.steamopolis.state import Phase, StmState, TurnState
from rulecraft.registry import make_game
from rulecraft.tools import tools

PatchFn = Callable[[object, str, Any], None]
CACHES_TO_CLEAR: tuple[Callable[[], None], ...] = ()


# ---------------------------------------------------------------------------
# Small helpers for the observations
# ---------------------------------------------------------------------------


def _game() -> SteamopolisGame:
    game = make_game("stm")
    assert isinstance(game, SteamopolisGame)
    return game


def _steps(game: SteamopolisGame, state: StmState, steps: Sequence[Mapping[str, Any]]) -> StmState:
    for step in steps:
        state = game.apply(state, game.action_from_json(step))
    return state


def _legal(game: SteamopolisGame, state: StmState) -> list[dict[str, Any]]:
    return [game.action_to_json(a) for a in game.legal_actions(state)]


def _deal(game: SteamopolisGame, state: StmState) -> StmState:
    """Play every chance step of the set-up with its first outcome (deterministic)."""
    while state.phase is not Phase.OVER and game.chance_outcomes(state):
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    return state


# ---------------------------------------------------------------------------
# STM-R-17: the base pressure marker goes no further than the value-4 space
# ---------------------------------------------------------------------------


def _plant_base_marker(patch: PatchFn) -> None:
    # `values.index(4)` read as "up to and including the space after the first 4".
    patch(GaugeLayout, "base_limit", property(lambda self: self.values.index(self.base_max_value) + 1))


def _observe_base_marker() -> Any:
    """Base marker on g6 (value 4); a channelled stone activates M2-03 ("base pressure marker")."""
    game = _game()
    given = {"players": 2, "seats": {0: {"gauge": "base@g6 g7 g8 g9 g10", "machine_room": {4: "M2-03"}}}}
    state = _steps(game, tools(game).scenario_state(given), [{"kind": "channel-pressure", "space": 7}])
    return {"gauge": tools(game).facts(state)["gauge"][0], "legal": _legal(game, state)}


# ---------------------------------------------------------------------------
# STM-R-64: the 3rd statue on the tower top triggers the end
# ---------------------------------------------------------------------------


def _plant_fourth_statue(patch: PatchFn) -> None:
    erect = stm_transitions.erect_statue

    def erect_statue(ctx: Context, state: StmState) -> StmState:
        # `tower == statues_to_end` written as `tower > statues_to_end`: the 4th statue ends the game.
        late = attrs.evolve(ctx, params={**ctx.params, "statues_to_end": ctx.params["statues_to_end"] + 1})
        return erect(late, state)

    patch(stm_transitions, "erect_statue", erect_statue)


def _observe_fourth_statue() -> Any:
    """Two markets already bought out; seat 0 buys the last tile of the level-5 market (STM-EX-15)."""
    game = _game()
    given = {
        "players": 2,
        "seats": {0: {"gauge": "", "crystals": 4, "gears": 1, "machine_room": {1: "capacity"}}},
        "board": [{"seat": 0, "level": 5, "position": "left"}],
        "markets": {5: ["M3-04"], 6: [], 7: []},
    }
    state = _steps(
        game,
        tools(game).scenario_state(given),
        [
            {"kind": "fly-to-all-targets"},
            {"kind": "take-back", "level": 5, "position": "left"},
            {"kind": "buy-machine", "position": 2, "remove": 1},
        ],
    )
    return {"tower_top": state.tower_top, "end_triggered": state.end_triggered, "vp": game.scores(state)}


# ---------------------------------------------------------------------------
# STM-R-65/66: after the trigger the round is finished, then the final round from the start player
# ---------------------------------------------------------------------------


def _plant_final_round_at_once(patch: PatchFn) -> None:
    end_turn = stm_transitions.end_turn

    def patched(ctx: Context, state: StmState) -> StmState:
        # `elif state.end_triggered and seat == state.start_player:` lost its second half.
        after = end_turn(ctx, state)
        if state.end_triggered and not state.final_round and after.phase is Phase.START_OF_TURN:
            return attrs.evolve(after, final_round=True)
        return after

    patch(stm_transitions, "end_turn", patched)


def _observe_final_round() -> Any:
    """3 players, start player 0; seat 0's turn triggered the end and is over."""
    game = _game()
    state = tools(game).scenario_state({"players": 3, "start_player": 0, "to_move": 0, "end_triggered": True})
    seen = []
    for _ in range(2):
        state = attrs.evolve(state, phase=Phase.END_OF_TURN, turn=TurnState())
        state = _steps(game, state, [{"kind": "end-turn"}])
        seen.append({"to_move": state.to_move, "final_round": state.final_round, "phase": state.phase.name})
    return seen


# ---------------------------------------------------------------------------
# STM-R-73: the solo rank is the highest threshold reached
# ---------------------------------------------------------------------------


def _plant_solo_rank(patch: PatchFn) -> None:
    # `vp > threshold` instead of `vp >= threshold`: a threshold must be passed, not reached.
    table = tuple((threshold + 1 if threshold else 0, name) for threshold, name in stm_game.SOLO_RANKS)
    patch(stm_game, "SOLO_RANKS", table)


def _observe_solo_rank() -> Any:
    game = _game()
    out = {}
    for vp in (6, 7, 13, 14, 21, 49):
        state = tools(game).scenario_state({"players": 1, "seats": {0: {"vp": vp}}})
        out[str(vp)] = game.solo_rank(state)
    return out


# ---------------------------------------------------------------------------
# STM-R-67: the tie-break counts machine-room tiles plus banners
# ---------------------------------------------------------------------------


def _plant_tie_break(patch: PatchFn) -> None:
    def tiles(self: SteamopolisGame, state: StmState, seat: int) -> int:
        # The banners beside the airship forgotten: only the machine room counts.
        return sum(1 for t in state.players[seat].machine_room if t is not None)

    patch(SteamopolisGame, "tiles", tiles)


def _observe_tie_break() -> Any:
    """Equal VP; seat 0 has one machine-room tile, seat 1 two banners and an empty room."""
    game = _game()
    given = {
        "players": 2,
        "start_player": 0,
        "seats": {
            0: {"vp": 12, "machine_room": {1: "capacity"}},
            1: {"vp": 12, "banners": ["M0-03", "M0-05"]},
        },
    }
    state = tools(game).scenario_state(given)
    return {"winners": list(game.winners(state)), "tiles": [game.tiles(state, s) for s in (0, 1)]}


# ---------------------------------------------------------------------------
# STM-R-32: 3 built-in storage spaces
# ---------------------------------------------------------------------------


def _plant_storage(patch: PatchFn) -> None:
    storage = Context.storage

    def patched(self: Context, player: Any) -> int:
        return storage(self, player) + 1  # the airship's 3 spaces read as 4

    patch(Context, "storage", patched)


def _observe_storage() -> Any:
    """STM-EX-24: with 1 gear stored, seat 0 takes 3 crystals from L5-left."""
    game = _game()
    given = {
        "players": 2,
        "seats": {0: {"gauge": "", "gears": 1}},
        "board": [{"seat": 0, "level": 5, "position": "left"}],
    }
    state = _steps(
        game,
        tools(game).scenario_state(given),
        [
            {"kind": "fly-to-all-targets"},
            {"kind": "take-back", "level": 5, "position": "left"},
            {"kind": "use-district"},
            {"kind": "take-resources", "crystals": 3},
        ],
    )
    return {
        "storing": state.turn.storing,
        "storage": tools(game).facts(state)["storage"][0],
        "legal": _legal(game, state),
    }


# ---------------------------------------------------------------------------
# STM-R-69: solo, only MAKE STEAM and FLY TO ALL TARGETS cost 1 VP
# ---------------------------------------------------------------------------


def _plant_solo_target_costs(patch: PatchFn) -> None:
    set_target = stm_transitions.set_target

    def patched(ctx: Context, state: StmState, action: Any) -> StmState:
        # Time pressure charged on every action choice, SET 1 TARGET included.
        state = stm_transitions.time_pressure(ctx, state)
        if state.phase is Phase.OVER:
            return state
        return set_target(ctx, state, action)

    patch(stm_transitions, "set_target", patched)  # the effects' match calls it by name


def _observe_solo_target() -> Any:
    game = _game()
    state = tools(game).scenario_state({"players": 1, "seats": {0: {"vp": 4}}})
    action = next(a for a in game.legal_actions(state) if isinstance(a, SetTarget))
    after = game.apply(state, action)
    return {"action": game.action_to_json(action), "vp": after.players[0].vp, "phase": after.phase.name}


# ---------------------------------------------------------------------------
# STM-R-01: the 4-player side only for 4 players
# ---------------------------------------------------------------------------


def _plant_board_side(patch: PatchFn) -> None:
    patch(stm_setup, "board_side", lambda players: "4" if players >= 3 else "2-3")  # 3 players on the 4 side


def _observe_board_side() -> Any:
    game = _game()
    return {str(n): game.new_game(n).board_side for n in (1, 2, 3, 4)}


# ---------------------------------------------------------------------------
# STM-R-07: a first game leaves out characters 5, 11 and 15
# ---------------------------------------------------------------------------


def _plant_first_game(patch: PatchFn) -> None:
    patch(stm_setup, "FIRST_GAME_REDRAW", (5, 11))  # character 15 forgotten


def _observe_first_game() -> Any:
    game = _game()
    state = game.new_game(2, first_game=True)
    return sorted(game.action_to_json(a)["number"] for a, _ in game.chance_outcomes(state))


# ---------------------------------------------------------------------------
# STM-R-03: 4 players, a second market with one rank-0 tile on levels 2, 3 and 4
# ---------------------------------------------------------------------------


def _plant_extra_markets(patch: PatchFn) -> None:
    patch(stm_setup, "EXTRA_MARKET_LEVELS", (2, 3))  # level 4's extra market forgotten


def _observe_extra_markets() -> Any:
    game = _game()
    state = _deal(game, game.new_game(4))
    return sorted([m.level, m.extra, len(m.tiles)] for m in state.markets)


# ---------------------------------------------------------------------------
# STM-R-25: MAKE STEAM increases by 2 + the machine room's boilers (an ordinary rule)
# ---------------------------------------------------------------------------


def _plant_make_steam(patch: PatchFn) -> None:
    def boilers(self: Context, player: Any) -> int:
        return sum(f.boiler_count() for f in self.faces(player))  # the airship's 2 built-in boilers forgotten

    patch(Context, "boilers", boilers)


def _observe_make_steam() -> Any:
    game = _game()
    given = {"players": 2, "seats": {0: {"gauge": "g1 g2 g3", "machine_room": {1: "capacity"}}}}
    state = tools(game).scenario_state(given)
    moves = [a for a in _legal(game, state) if a["kind"] == "make-steam"]
    after = game.apply(state, game.action_from_json(moves[0]))
    return {
        "boilers": tools(game).facts(state)["boilers"][0],
        "make_steam": moves,
        "gauge": tools(game).facts(after)["gauge"][0],
    }


DEVIATIONS: tuple[Deviation, ...] = (
    Deviation(
        game="stm",
        name="base-marker-past-value-4",
        rules=("STM-R-17",),
        category="resource-cap",
        what="the base pressure marker may move one space beyond the value-4 space instead of stopping there",
        plant=_plant_base_marker,
        observe=_observe_base_marker,
    ),
    Deviation(
        game="stm",
        name="end-at-fourth-statue",
        rules=("STM-R-64",),
        category="end-game",
        what="the end is triggered (and the 3 VP paid) by the 4th statue on the tower top, not the 3rd",
        plant=_plant_fourth_statue,
        observe=_observe_fourth_statue,
    ),
    Deviation(
        game="stm",
        name="final-round-at-once",
        rules=("STM-R-65", "STM-R-66"),
        category="end-game",
        what="the final round starts right after the triggering turn instead of after the round is finished",
        plant=_plant_final_round_at_once,
        observe=_observe_final_round,
    ),
    Deviation(
        game="stm",
        name="solo-rank-threshold-exclusive",
        rules=("STM-R-73",),
        category="end-game",
        what="a solo rank needs more VP than its threshold (7 VP is still 'Nothing but hot air')",
        plant=_plant_solo_rank,
        observe=_observe_solo_rank,
    ),
    Deviation(
        game="stm",
        name="tie-break-without-banners",
        rules=("STM-R-67",),
        category="scoring",
        what="the VP tie-break counts machine-room tiles only, forgetting the banners",
        plant=_plant_tie_break,
        observe=_observe_tie_break,
    ),
    Deviation(
        game="stm",
        name="storage-four-built-in",
        rules=("STM-R-32",),
        category="resource-cap",
        what="the airship has 4 built-in storage spaces instead of 3",
        plant=_plant_storage,
        observe=_observe_storage,
    ),
    Deviation(
        game="stm",
        name="solo-target-costs-vp",
        rules=("STM-R-69",),
        category="player-count",
        what="in the solo game SET 1 TARGET costs 1 VP too (only MAKE STEAM and FLY do)",
        plant=_plant_solo_target_costs,
        observe=_observe_solo_target,
    ),
    Deviation(
        game="stm",
        name="three-players-on-4-side",
        rules=("STM-R-01",),
        category="player-count",
        what="3 players use the 4-player side of the board instead of the 2/3-player side",
        plant=_plant_board_side,
        observe=_observe_board_side,
    ),
    Deviation(
        game="stm",
        name="first-game-keeps-character-15",
        rules=("STM-R-07",),
        category="rare-setup",
        what="the first-game set-up leaves out characters 5 and 11 but not 15",
        plant=_plant_first_game,
        observe=_observe_first_game,
    ),
    Deviation(
        game="stm",
        name="no-extra-market-on-level-4",
        rules=("STM-R-03",),
        category="player-count",
        what="with 4 players only levels 2 and 3 get the second (rank-0) market, not level 4",
        plant=_plant_extra_markets,
        observe=_observe_extra_markets,
    ),
    Deviation(
        game="stm",
        name="make-steam-without-built-in-boilers",
        rules=("STM-R-25",),
        category="ordinary",
        what="MAKE STEAM increases the pressure by the machine room's boilers only, without the 2 built-in",
        plant=_plant_make_steam,
        observe=_observe_make_steam,
    ),
)
