"""Steamopolis's generation shortcuts held to the paths they shortcut (issue 18: a fast path must be
tested to agree with the plain one), over every state of seeded random games: each player count, the
solo game, and the readings a shortcut reads (STM-AMB-20 'total' counts every parasite on a machine)."""

from __future__ import annotations

import random

import attrs
import pytest

from rulecraft.core import Chance, GameOver
from rulecraft.model.steamopolis.actions import BuyBonusMarker, SetTarget
from rulecraft.model.steamopolis.effects import PayResources
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.rules import (
    _candidates,
    _discounts,
    _marker_payable,
    _paying_discounts,
    _pays,
    _placements,
    accepted_placements,
    legal_actions,
    legal_actions_by_check,
    me,
    placement_rejection,
)
from rulecraft.model.steamopolis.state import Phase, StmState
from rulecraft.registry import make_game


def random_states(game: SteamopolisGame, players: int, seed: int, steps: int) -> list[StmState]:
    """Every state of one seeded uniform random game, up to ``steps`` of them."""
    rng = random.Random(seed)
    state = game.new_game(players)
    states = [state]
    for _ in range(steps):
        action = game.random_action(state, rng)
        if action is None:
            break
        state = game.transition(state, action)
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("players", "seed", "readings"),
    [(4, 1, {}), (3, 2, {}), (2, 3, {}), (1, 4, {}), (4, 5, {"STM-AMB-20": "total"}), (2, 6, {"STM-AMB-20": "total"})],
)
def test_r52_r53_accepted_placements_are_the_checked_candidates(
    players: int, seed: int, readings: dict[str, str]
) -> None:
    """STM-R-52 (p.33, place or move) and R-53 (p.33, envy): at every state, for every envy host and none,
    the direct list equals the candidates :func:`placement_rejection` accepts, order included."""
    game = make_game("stm", readings=readings)
    assert isinstance(game, SteamopolisGame)
    ctx = game.ctx
    seen = moved = 0
    for state in random_states(game, players, seed, 1500):
        for envy_host in (None, *range(len(state.players))):
            expected = [a for a in _placements(ctx, state) if placement_rejection(ctx, state, a, envy_host) is None]
            assert accepted_placements(ctx, state, envy_host) == expected
            seen += len(expected)
            moved += sum(1 for a in expected if a.moved is not None)
    assert seen > 0  # the comparison met placements, not only empty lists
    if players > 1:
        assert moved > 0  # and moves of placed parasites (STM-R-52)


@pytest.mark.parametrize(
    ("players", "seed", "readings"),
    [(4, 7, {}), (2, 8, {}), (1, 9, {}), (3, 10, {"STM-AMB-19": "next-step", "STM-AMB-16": "free"})],
)
def test_listed_decisions_equal_the_checked_candidates(players: int, seed: int, readings: dict[str, str]) -> None:
    """The decisions listed without a candidate check hold to ``legal_actions_by_check`` (the plain
    reference: every candidate through ``check``), order included, at every state of seeded random games
    that meets one of the less frequent ones: the store step (STM-R-32, p.14), a channelled stone (STM-R-29,
    p.13), an effect part waiting (STM-R-21/22, p.29) and a flight step (STM-R-36..38, p.16-18)."""
    game = make_game("stm", readings=readings)
    assert isinstance(game, SteamopolisGame)
    ctx = game.ctx
    met: set[str] = set()
    for state in random_states(game, players, seed, 1500):
        if isinstance(game.to_move(state), Chance | GameOver):
            continue
        turn = state.turn
        if turn.storing:
            kind = "store"
        elif turn.pending:
            kind = "part"
        elif state.phase in (Phase.CHANNEL, Phase.FLIGHT):
            kind = state.phase.value
        else:
            continue
        met.add(kind)
        assert legal_actions(ctx, state) == legal_actions_by_check(ctx, state), kind
    assert "part" in met  # the comparison met the shortcut paths, not only the others
    if players > 1:
        assert Phase.FLIGHT.value in met


def _level_one_flight_step(game: SteamopolisGame) -> StmState:
    """A flight step on a level-1 district (STM-R-36..38) from a seeded uniform random game, the player to
    move rich enough to buy any bonus marker (STM-R-46: up to 5 of the row's resource)."""
    for seed in range(20):
        for state in random_states(game, 4, seed, 1500):
            turn = state.turn
            step = state.phase is Phase.FLIGHT and turn.step == "passengers" and not turn.pending and not turn.storing
            if step and turn.active is not None and turn.active[0] == 1:
                seat = state.to_move if turn.decider is None else turn.decider
                rich = attrs.evolve(state.players[seat], crystals=5, gears=5)
                players = (*state.players[:seat], rich, *state.players[seat + 1 :])
                return attrs.evolve(state, players=players)
    raise AssertionError("no level-1 flight step in 20 seeded games")


@pytest.mark.parametrize("foremost", [True, False])
def test_r46_an_empty_bonus_row_sells_nothing_and_is_pruned_before_its_places(foremost: bool) -> None:
    """STM-R-46 (p.21-22): a row whose markers are all bought sells nothing (STM-AMB-13 'any': a named
    marker the row no longer holds neither).  The generator prunes such offers before building their places,
    and the listed decisions stay those the check accepts among every candidate, order included."""
    game = make_game("stm", readings={} if foremost else {"STM-AMB-13": "any"})
    assert isinstance(game, SteamopolisGame)
    ctx = game.ctx
    state = _level_one_flight_step(game)
    rows = [attrs.evolve(state.bonus, crystal_row=()), attrs.evolve(state.bonus, crystal_row=(), gear_row=(3, 2))]
    for bonus in rows:
        empty = attrs.evolve(state, bonus=bonus)
        listed = legal_actions(ctx, empty)
        assert listed == legal_actions_by_check(ctx, empty)
        bought = [a for a in listed if isinstance(a, BuyBonusMarker)]
        assert bought and {a.row for a in bought} == {"gear"}  # the gear row still sells (STM-R-46)
        if not foremost:
            assert {a.numeral for a in bought} == set(bonus.gear_row)
        pruned = [a for a in _candidates(ctx, empty) if isinstance(a, BuyBonusMarker)]
        assert {a.row for a in pruned} == {"gear"}  # no crystal offer even reaches the check
        assert not _marker_payable(ctx, me(empty), "crystal", (), None)
        assert not _marker_payable(ctx, me(empty), "gear", (3, 2), 5)  # #5 is gone from the row (AMB-13 'any')
        assert _marker_payable(ctx, me(empty), "gear", (3, 2), 3)


def test_r57_r58_paying_discounts_follow_each_part_of_the_purse() -> None:
    """STM-R-40/46 with R-57/58: the discount choices that pay a cost are memoised by the cost and the purse;
    purses that differ in one part alone (resources, the sponsor's side or use, the gala) get their own
    answer, each what the choices' own check (discounted, afford) gives."""
    game = make_game("stm")
    assert isinstance(game, SteamopolisGame)
    ctx = game.ctx
    player = me(_level_one_flight_step(game))
    pay = PayResources(3, 1)
    purses = [
        attrs.evolve(player, crystals=3, gears=1, sponsor=None, gala=None),
        attrs.evolve(player, crystals=2, gears=1, sponsor=None, gala=None),
        attrs.evolve(player, crystals=2, gears=1, sponsor="crystal", sponsor_used=False, gala=None),
        attrs.evolve(player, crystals=2, gears=1, sponsor="crystal", sponsor_used=True, gala=None),
        attrs.evolve(player, crystals=2, gears=1, sponsor="gear", sponsor_used=False, gala=None),
        attrs.evolve(player, crystals=1, gears=0, sponsor=None, gala="crystal"),
        attrs.evolve(player, crystals=1, gears=0, sponsor="gear", gala="crystal"),
    ]
    expected = [
        ((False, False, False),),
        (),
        ((True, False, False),),
        (),
        (),
        (),
        ((True, True, False),),
    ]
    for purse, choices in zip(purses, expected, strict=True):
        assert _paying_discounts(ctx, purse, pay) == choices, purse
        plain = tuple(d for d in _discounts(purse) if _pays(ctx, purse, pay, *d))
        assert plain == choices


@pytest.mark.parametrize(("players", "seed"), [(4, 11), (3, 12), (2, 13)])
def test_r23_r29_the_ordinary_action_listed_equals_the_checked_candidates(players: int, seed: int) -> None:
    """STM-R-23..R-29 (p.10-13): the action decision listed without a check (MAKE STEAM's orders, each
    stone's SET 1 TARGET on the free districts up to its value, CHANNEL PRESSURE, FLY) equals every
    candidate the check accepts, order included, at each action decision of a seeded random game."""
    game = make_game("stm")
    assert isinstance(game, SteamopolisGame)
    ctx = game.ctx
    met = 0
    for state in random_states(game, players, seed, 1500):
        if state.phase is Phase.ACTION and not state.turn.pending and not state.turn.storing:
            listed = legal_actions(ctx, state)
            assert listed == legal_actions_by_check(ctx, state)
            met += any(isinstance(a, SetTarget) for a in listed)
    assert met > 50
