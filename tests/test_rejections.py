"""``Game.rejections``: every rule that forbids an action, ``check``'s own first.

``rulecraft conform`` accepts another implementation's refusal when it cites any of
these rules, so an implementation that checks the rules in another order (the
action's own rule before the phase's, a cost before a capacity) is not reported
as citing the wrong one.

(a) over seeded random games of every registered game: ``rejections`` is empty
    exactly when ``check`` accepts, and its first element is ``check``'s rejection;
(b) constructed states where two rules forbid one action: both are listed.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulecraft.core import Game
from rulecraft.registry import game_ids, make_game
from rulecraft.tools import tools

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
SEEDS = range(3)
STEPS = 240
EVERY = 6  # judge every 6th state of a walk
CANDIDATES = 30  # foreign actions judged in each of those states


def walk(game: Game[Any, Any], seed: int) -> tuple[list[Any], list[Any]]:
    """The states of one seeded random game (every ``EVERY``-th) and every action played in it."""
    rng = random.Random(seed)
    players = (game.min_players, game.max_players)[seed % 2]  # both ends of the range
    state = game.new_game(players)
    states: list[Any] = []
    played: list[Any] = []
    for step in range(STEPS):
        action = game.random_action(state, rng)
        if action is None:
            break
        if step % EVERY == 0:
            states.append(state)
        played.append(action)
        state = game.apply(state, action)
    return states, played


@pytest.mark.parametrize("game_id", game_ids())
def test_rejections_agree_with_check_over_random_games(game_id: str) -> None:
    """Empty iff ``check`` accepts; otherwise ``check``'s rejection first, and no rule twice."""
    game = make_game(game_id)
    states: list[Any] = []
    pool: list[Any] = []
    for seed in SEEDS:
        walked, played = walk(game, seed)
        states += walked
        pool += played
    rng = random.Random(7)
    refused = several = 0
    for state in states:
        # legal actions of other states: the same kinds of move with other values, and other kinds
        candidates = rng.sample(pool, min(CANDIDATES, len(pool))) + list(game.legal_actions(state))[:5]
        for action in candidates:
            first = game.check(state, action)
            found = game.rejections(state, action)
            if first is None:
                assert found == (), f"{game_id}: {action!r} is legal, yet rejections lists {found}"
                continue
            refused += 1
            assert found[0] == first, f"{game_id}: {action!r}: rejections starts {found[0]}, check says {first}"
            rules = [r.rule for r in found]
            assert len(rules) == len(set(rules)), f"{game_id}: {action!r}: a rule listed twice in {rules}"
            several += len(found) > 1
    assert refused >= 100, f"{game_id}: only {refused} refused candidates judged"
    if game_id in ("kas", "stm", "aer", "air"):
        assert several > 0, f"{game_id}: no refused candidate was forbidden by more than one rule"


# -- (b) constructed states: two rules forbid one action ------------------------------------------------


def given(folder: str, example: str) -> dict[str, Any]:
    """A printed example's ``given:`` block, to vary."""
    path = next((SCENARIOS / folder).glob(f"{example}-*.yaml"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return copy.deepcopy(data["given"])


def rules_of(game: Game[Any, Any], state: Any, action: Any) -> list[str]:
    found = game.rejections(state, action)
    check = game.check(state, action)
    assert check is not None and found[0] == check
    return [r.rule for r in found]


def test_kas_depot_without_a_token_or_the_money() -> None:
    """KAS-R-33 (Build Depot: a depot token from the player's own 10) and KAS-R-55 (every payment needs
    the money): a $7 depot (line C already has one) with $3 and no token left is refused for both."""
    game = make_game("kas")
    start = given("kings_of_air_and_steam", "KAS-EX-10")
    start["players_state"][0].update(money=3, depots_left=0)
    state = tools(game).scenario_state(start)
    action = game.action_from_json({"kind": "build-depot", "at": {"q": 4, "r": 0}})
    assert rules_of(game, state, action) == ["KAS-R-33", "KAS-R-55"]


def test_kas_depot_out_of_phase_on_a_taken_hex() -> None:
    """KAS-R-19 (the planning phase: cards are chosen, nothing is built) and KAS-R-54 (one depot per rail
    hex): building on a hex that holds a depot during planning breaks both."""
    game = make_game("kas")
    start = given("kings_of_air_and_steam", "KAS-EX-10")
    start["phase"] = "planning"
    state = tools(game).scenario_state(start)
    action = game.action_from_json({"kind": "build-depot", "at": {"q": -2, "r": 0}})
    assert rules_of(game, state, action) == ["KAS-R-19", "KAS-R-54"]


def test_stm_target_too_high_and_taken() -> None:
    """STM-R-26 (a stone of pressure value v reaches levels 1..v) and STM-R-27 (a district is free when no
    stone lies on it): STM-EX-03's value-4 stone aimed at a taken level-5 district breaks both."""
    game = make_game("stm")
    start = given("steamopolis", "STM-EX-03")
    start["board"].append({"seat": 1, "level": 5, "position": "left"})
    state = tools(game).scenario_state(start)
    action = game.action_from_json({"kind": "set-target", "space": 6, "level": 5, "position": "left"})
    assert rules_of(game, state, action) == ["STM-R-26", "STM-R-27"]


def test_stm_target_before_the_arrows_on_a_taken_district() -> None:
    """STM-R-23 (the turn starts by moving the arrow stones, then one action) and STM-R-27 (free
    districts only): SET 1 TARGET at the start of the turn, onto a taken district, breaks both."""
    game = make_game("stm")
    start = given("steamopolis", "STM-EX-03")
    start["phase"] = "start-of-turn"
    state = tools(game).scenario_state(start)
    action = game.action_from_json({"kind": "set-target", "space": 6, "level": 4, "position": "right"})
    assert rules_of(game, state, action) == ["STM-R-23", "STM-R-27"]


def test_aer_advantage_without_money_not_yet_available() -> None:
    """AER-R-39 (an advantage costs £1) and AER-R-40 (a type is available from its first era): Radio
    Beacons (type 6, era 3) taken in era 1 with £0 breaks both."""
    game = make_game("aer")
    state = tools(game).scenario_state({"players": 3, "seats": {0: {"home": "Berlin", "money": 0}}})
    action = game.action_from_json({"kind": "take-advantage", "type": 6})
    assert rules_of(game, state, action) == ["AER-R-39", "AER-R-40"]


def test_aer_claim_without_the_airport_or_the_room() -> None:
    """AER-R-34 (a claim needs airports at the start city and the destination) and AER-R-36 (one card
    carries the whole tile): P04 (London, capacity 3) claimed from Berlin onto card 1 (capacity 2) by a
    player with no London airport breaks both."""
    game = make_game("aer")
    state = tools(game).scenario_state(
        {"players": 3, "seats": {0: {"home": "Berlin", "cards": [1]}}, "waiting": {"Berlin": ["P04"]}}
    )
    action = game.action_from_json({"kind": "claim-passenger", "id": "P04", "card": 1})
    assert rules_of(game, state, action) == ["AER-R-34", "AER-R-36"]


def test_aer_purchase_during_set_up_without_the_money() -> None:
    """AER-SET-03 (set-up: each player first puts a home tile in a start city) and AER-R-08 (a plane costs
    its price): buying card 1 with £0 while homes are chosen breaks both."""
    game = make_game("aer")
    state = tools(game).scenario_state({"players": 3, "phase": "choose-home", "seats": {0: {"money": 0}}})
    action = game.action_from_json({"kind": "buy-plane", "number": 1})
    assert rules_of(game, state, action) == ["AER-SET-03", "AER-R-08"]
