"""Kings of Air and Steam's kept values (issue 18) agree with the paths they shortcut: the Build Depot
price tables with the generator's own per-line pricing, the kept flights with the flight enumerator,
the memoised flight judge with the judge itself, over many reachable states of random games (base
and advanced, every board set a player count allows)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from rulecraft.model.kings_of_air_and_steam import flight
from rulecraft.model.kings_of_air_and_steam.actions import EndCargo, Fly, Plan, Unload
from rulecraft.model.kings_of_air_and_steam.components import GOODS, GameMap
from rulecraft.model.kings_of_air_and_steam.context import _KEPT, _KEPT_MAPS, _KEPT_VALUES, Context
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame, depots_listed
from rulecraft.model.kings_of_air_and_steam.rules import card_moves, deck_of, depot_at, flight_rules, own_depot_at
from rulecraft.model.kings_of_air_and_steam.state import Depot, KasState, Phase, evolve
from rulecraft.registry import make_game


def reachable(game: KingsOfAirAndSteamGame, games: int, seed: int) -> Iterator[KasState]:
    """Every state of ``games`` seeded random games, half of them advanced (random teams)."""
    for n in range(games):
        rng = random.Random(seed + n)
        players = rng.choice((2, 3, 4, 5))
        state = game.new_game(players, **game.random_options(rng, players))
        while True:
            yield state
            action = game.random_action(state, rng)
            if action is None:
                break
            state = game.transition(state, action)


def kas_game() -> KingsOfAirAndSteamGame:
    made = make_game("kas")
    assert isinstance(made, KingsOfAirAndSteamGame)
    return made


@pytest.fixture(scope="module")
def game() -> KingsOfAirAndSteamGame:
    return kas_game()


def test_build_depot_candidates_from_the_price_tables_are_the_per_line_pricing_r33_r55_r70(
    game: KingsOfAirAndSteamGame,
) -> None:
    seen = victor = 0
    for state in reachable(game, 24, 100):
        if state.phase is not Phase.ACTION:
            continue
        listed = game._depots(state)
        assert listed == depots_listed(game.ctx, state), state
        seen += 1
        victor += state.players[state.seat].character == "Victor Blane"
    assert seen > 500  # the comparison ran over many action phases, Victor Blane's discount among them
    assert victor > 0


def test_a_price_table_is_kept_per_depot_hexes_and_discount(game: KingsOfAirAndSteamGame) -> None:
    """A depot built changes the table (a new hex taken, its line dearer: KAS-R-33): the memo never
    answers for other depot hexes."""
    rng = random.Random(7)
    state = game.new_game(4)
    before: list[object] = []
    while True:
        if state.phase is Phase.ACTION:
            got = game._depots(state)
            assert got == depots_listed(game.ctx, state)
            before.append(tuple(got))
        action = game.random_action(state, rng)
        if action is None:
            break
        state = game.transition(state, action)
    assert len(set(before)) > 3  # the tables differed as depots were built and money changed


def test_kept_flights_are_the_enumerated_flights_r26_r27(game: KingsOfAirAndSteamGame) -> None:
    seen = 0
    for state in reachable(game, 24, 200):
        if state.phase is not Phase.FLIGHT or state.players[state.seat].character == "Ezekiel Crane":
            continue
        player = state.players[state.seat]
        assert player.position is not None
        game_map = game.ctx.map_of(state)
        rules = flight_rules(game.ctx, state)
        fresh = [
            Fly(path)
            for moves in dict.fromkeys(card_moves(game.ctx, state))
            for path in flight.endpoints(game_map, player.position, moves, rules).values()
        ]
        generated = game._flights(state)
        if fresh:  # none: KAS-AMB-04's fallback, listed as before
            assert generated == fresh
            seen += 1
    assert seen > 500


def test_the_memoised_flight_judge_is_the_judge_r26_r27(game: KingsOfAirAndSteamGame) -> None:
    """Every flight of up to 4 steps from a sample of hexes, under each turn reading and exception:
    judged through the memo (twice: the second from it) as the judge judges it afresh."""
    game_map = game.ctx.game_map("ABCDE")
    tables = flight._tables(game_map)
    starts = sorted(game_map.hexes)[::13]
    judged = 0
    for rules in (
        flight.FlightRules(),
        flight.FlightRules(turns="spaced"),
        flight.FlightRules(turns="straight", no_revisit=True),
        flight.FlightRules(sharp_ok=True, no_return=True),
        flight.FlightRules(straight_only=True),
    ):
        for start in starts:
            for n in range(5):
                for path in itertools.product(range(6), repeat=n):
                    want = flight._judge(tables, start, path, n, rules)
                    assert flight.flight_problem(game_map, start, path, n, rules) == want
                    assert flight.flight_problem(game_map, start, list(path), n, rules) == want
                    assert flight.flight_problem(game_map, start, path, n + 1, rules) == flight._judge(
                        tables, start, path, n + 1, rules
                    )
                    judged += 1
    assert judged > 10_000


def test_the_flight_judge_still_refuses_bad_directions_before_the_memo() -> None:
    game_map = kas_game().ctx.game_map("ABC")
    start = sorted(game_map.hexes)[0]
    for bad in ((6,), (-1,), (1.0,), ("1",)):
        with pytest.raises(ValueError, match=r"directions are 0\.\.5"):
            flight.flight_problem(game_map, start, bad, 1, flight.FlightRules())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="never negative"):
        flight.flight_problem(game_map, start, (), -1, flight.FlightRules())


def test_kept_values_belong_to_one_context_and_one_map_and_stay_bounded() -> None:
    """Two contexts over one map object keep apart (their parameters may differ); the memo holds a
    bounded number of maps and of values per map."""
    game = kas_game()
    game_map = game.ctx.game_map("ABC")
    other = Context(game.pack, dict(game.ctx.readings), maps={"ABC": game_map})
    mine = game.ctx.kept_for(game_map)
    mine["probe"] = 1
    assert game.ctx.kept_for(game_map)["probe"] == 1
    assert "probe" not in other.kept_for(game_map)
    assert "probe" not in game.ctx.kept_for(game_map)  # the other context took the map's place
    values = game.ctx.kept_for(game_map)
    values.update((n, n) for n in range(_KEPT_VALUES))
    assert len(game.ctx.kept_for(game_map)) == 0  # full: emptied before another value is added
    maps = [GameMap(game_map.layout, game_map.hexes, game_map.cities, game_map.lines, game_map.factories)]
    for _ in range(_KEPT_MAPS + 3):
        maps.append(GameMap(game_map.layout, game_map.hexes, game_map.cities, game_map.lines, game_map.factories))
        game.ctx.kept_for(maps[-1])["probe"] = 2
        assert 1 <= len(_KEPT) <= _KEPT_MAPS
    assert game.ctx.kept_for(maps[-1])["probe"] == 2
    _KEPT.cache_clear()
    assert _KEPT.cache_info() == 0


def test_depots_by_hex_finds_what_depot_at_finds_r54(game: KingsOfAirAndSteamGame) -> None:
    seen = 0
    for state in reachable(game, 12, 400):
        by_hex = game.ctx.depots_by_hex(state)
        for at in {d.at for d in state.depots} | {p.position for p in state.players if p.position is not None}:
            assert by_hex.get(at) is depot_at(state, at)
            for seat in range(len(state.players)):
                mine = by_hex.get(at)
                assert (mine if mine is not None and mine.owner == seat else None) is own_depot_at(state, seat, at)
            seen += 1
    assert seen > 1000


def test_the_first_depot_on_a_hex_is_the_one_found() -> None:
    """A state read from outside may hold two depots on one hex (the invariants refuse it later):
    the lookup answers as the scan does, the first."""
    game = kas_game()
    state = game.new_game(2)
    at = sorted(game.ctx.map_of(state).rail_hexes())[0]
    twice = evolve(state, depots=(Depot(at, 0), Depot(at, 1, (1, 0, 0, 0, 0))))
    assert game.ctx.depots_by_hex(twice)[at] is twice.depots[0] is depot_at(twice, at)


def test_planning_and_cargo_candidates_are_listed_as_before_r19_r28_r31(game: KingsOfAirAndSteamGame) -> None:
    """The plans from a deck's kept actions, and the cargo choices from the depot lookup, are what
    the generator listed card by card and scan by scan."""
    plans = cargo = 0
    for state in reachable(game, 16, 500):
        player = state.players[state.seat]
        if state.phase is Phase.PLANNING:
            listed = game._generated(state)
            assert listed == [Plan(c) for c in deck_of(game.ctx, player) if c not in player.plan]
            plans += 1
        elif state.phase is Phase.CARGO:
            listed = game._generated(state)
            assert listed[0] == EndCargo()
            assert game.legal_actions(state) == [a for a in listed if game.check(state, a) is None]
            depot = own_depot_at(state, state.seat, player.position)
            if depot is None:
                assert not any(isinstance(a, Unload) or getattr(a, "source", None) == "depot" for a in listed)
            else:
                assert [Unload(g) for g, n in zip(GOODS, player.hold, strict=True) if n >= 1] == [
                    a for a in listed if isinstance(a, Unload)
                ]
            cargo += 1
    assert plans > 300 and cargo > 300


def test_tile_draws_are_drawn_with_the_chance_outcomes_odds_r15_r40(game: KingsOfAirAndSteamGame) -> None:
    """The market and demand tile draws skip the Fractions: the same tiles, the same float odds (so
    the same draw from the same generator) as ``chance_outcomes`` gives."""
    seen = 0
    for state in reachable(game, 16, 600):
        if state.phase not in (Phase.NEW_MARKET, Phase.DEMAND_DRAW):
            continue
        outcomes = game.chance_outcomes(state)
        for seed in range(3):
            want = random.Random(seed).choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
            assert game.sample_chance(state, random.Random(seed)) == want
        seen += 1
    assert seen > 100
    for total in range(1, 40):  # every pile size a game can reach: the float of the Fraction is n / total
        for n in range(total + 1):
            assert float(Fraction(n, total)) == n / total
