"""State files (rulecraft.statefile) and the state check every loaded state passes (Game.check_state).

A state read from outside (``--state FILE``, the protocol's ``set_state``) is refused in one line naming
the file and the field when it is malformed, hostile, of another game, or breaks the component counts;
a state of a printed example's own board (KAS) carries that board and can be queried.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import attrs
import pytest

from rulecraft.conformance.server import Session
from rulecraft.core import Game, StateError
from rulecraft.registry import game_ids, make_game
from rulecraft.scenarios.loader import load_scenario, scenario_root
from rulecraft.statefile import (
    FORMAT_KEY,
    MAX_DEPTH,
    StateFileError,
    admit,
    load_state,
    read_state_file,
    save_state,
    state_from_data,
)
from rulecraft.tools import Tools, tools

GAMES = ("aer", "air", "kas", "stm")


def mid_game(game_id: str, seed: int = 7, steps: int = 40) -> tuple[Game[Any, Any], Any]:
    """A state a few seeded random legal steps into a game (chance by its odds)."""
    game = make_game(game_id)
    rng = random.Random(seed)
    state = game.new_game(max(game.min_players, 3) if game_id == "aer" else game.min_players)
    for _ in range(steps):
        action = game.random_action(state, rng)
        if action is None:
            break
        state = game.apply(state, action)
    return game, state


def refusal(path: Path, game: Game[Any, Any]) -> str:
    with pytest.raises(StateFileError) as caught:
        load_state(path, game)
    message = str(caught.value)
    assert "\n" not in message, message
    assert message.startswith(f"{path}: "), message
    return message


def write(tmp_path: Path, data: Any, name: str = "state.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


# -- round trips ---------------------------------------------------------------------------------------------


def test_the_games_are_the_four_this_module_covers() -> None:
    assert set(GAMES) <= set(game_ids())


@pytest.mark.parametrize("game_id", GAMES)
def test_round_trip_of_a_mid_game_state(tmp_path: Path, game_id: str) -> None:
    game, state = mid_game(game_id)
    path = tmp_path / "mid.json"
    save_state(path, game, state)
    doc = json.loads(path.read_text("utf-8"))
    assert doc[FORMAT_KEY] == 1 and doc["game"] == game_id
    assert doc["state"] == json.loads(json.dumps(game.state_to_json(state)))
    assert load_state(path, make_game(game_id)) == state
    assert list(tmp_path.iterdir()) == [path]  # the temporary file was renamed, none left behind


@pytest.mark.parametrize("game_id", GAMES)
def test_a_bare_state_of_the_old_format_still_loads(tmp_path: Path, game_id: str) -> None:
    game, state = mid_game(game_id, seed=3)
    path = write(tmp_path, game.state_to_json(state))
    saved = read_state_file(path)
    assert saved.game is None
    assert load_state(path, make_game(game_id)) == state


def test_save_replaces_an_existing_file_whole(tmp_path: Path) -> None:
    game, state = mid_game("stm")
    path = write(tmp_path, "old contents")
    save_state(path, game, state)
    assert load_state(path, game) == state


def test_readings_travel_with_the_state(tmp_path: Path) -> None:
    game = make_game("stm", readings={"STM-AMB-18": "bought"})
    state = game.new_game(2)
    path = tmp_path / "s.json"
    save_state(path, game, state)
    assert read_state_file(path).readings == {"STM-AMB-18": "bought"}
    assert load_state(path, make_game("stm", readings={"STM-AMB-18": "bought"})) == state
    message = refusal(path, make_game("stm"))
    assert "readings.STM-AMB-18" in message and "--reading STM-AMB-18=bought" in message


# -- hostile and malformed files -------------------------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    assert "file: cannot read: no such file" in refusal(tmp_path / "nowhere.json", make_game("stm"))


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"players": "\xe9"}')
    assert "file: not UTF-8" in refusal(path, make_game("stm"))


def test_not_json(tmp_path: Path) -> None:
    assert "file: not JSON" in refusal(write(tmp_path, "{players: 2"), make_game("stm"))


def test_nan_is_not_json(tmp_path: Path) -> None:
    assert "file: not JSON" in refusal(write(tmp_path, '{"round": NaN}'), make_game("stm"))


@pytest.mark.parametrize("text", ["[1, 2]", '"a state"', "3", "null"])
def test_json_that_is_not_an_object(tmp_path: Path, text: str) -> None:
    message = refusal(write(tmp_path, text), make_game("stm"))
    assert ": state: a state is a JSON object" in message


def test_deep_nesting_from_the_parser(tmp_path: Path) -> None:
    message = refusal(write(tmp_path, "[" * 100_000 + "]" * 100_000), make_game("kas"))
    assert ": file: nested deeper than" in message


def test_deep_nesting_the_parser_takes(tmp_path: Path) -> None:
    nested: Any = 1
    for _ in range(MAX_DEPTH + 5):
        nested = [nested]
    message = refusal(write(tmp_path, {"players": nested}), make_game("kas"))
    assert ": state.players[0]" in message and "nested deeper" in message


def test_a_huge_integer_the_parser_refuses(tmp_path: Path) -> None:
    assert ": file: not JSON" in refusal(write(tmp_path, '{"round": ' + "9" * 5000 + "}"), make_game("stm"))


def test_a_huge_integer_beyond_any_count(tmp_path: Path) -> None:
    game, state = mid_game("stm")
    data = game.state_to_json(state)
    data["players"][0]["crystals"] = 10**400
    message = refusal(write(tmp_path, data), make_game("stm"))
    assert ": state.players[0].crystals: an integer of about 401 digits" in message


def test_a_file_beyond_the_size_limit(tmp_path: Path) -> None:
    path = write(tmp_path, '{"pad": "' + "x" * (2 << 20) + '"}')
    assert ": file: 2097163 bytes; a data file may have at most 1048576" in refusal(path, make_game("stm"))


def test_a_state_of_another_game_in_a_state_file(tmp_path: Path) -> None:
    game, state = mid_game("stm")
    path = tmp_path / "stm.json"
    save_state(path, game, state)
    assert refusal(path, make_game("aer")) == f"{path}: game: this is a stm state; this command plays aer"


def test_a_bare_state_of_another_game_is_told_apart(tmp_path: Path) -> None:
    game, state = mid_game("stm")
    path = write(tmp_path, game.state_to_json(state))
    message = refusal(path, make_game("aer"))
    assert message == f"{path}: game: this is a stm state; this command plays aer"


def test_a_field_of_the_wrong_type_names_the_field(tmp_path: Path) -> None:
    game, state = mid_game("kas")
    data = game.state_to_json(state)
    data["players"][1]["money"] = "lots"
    message = refusal(write(tmp_path, data), make_game("kas"))
    assert "state.players[1].money" in message


def test_a_long_quoted_value_is_cut_short(tmp_path: Path) -> None:
    game, state = mid_game("stm")
    data = game.state_to_json(state)
    data["phase"] = "x" * 5000
    message = refusal(write(tmp_path, data), make_game("stm"))
    assert "state" in message and len(message) < len(str(tmp_path)) + 400
    assert "x" * 100 not in message


def test_an_unknown_envelope_field(tmp_path: Path) -> None:
    game, state = mid_game("air")
    data = {FORMAT_KEY: 1, "game": "air", "state": game.state_to_json(state), "extra": 1}
    assert ": extra: unknown field" in refusal(write(tmp_path, data), game)


def test_a_later_format_version(tmp_path: Path) -> None:
    game, state = mid_game("air")
    data = {FORMAT_KEY: 2, "game": "air", "state": game.state_to_json(state)}
    assert f": {FORMAT_KEY}: version 2" in refusal(write(tmp_path, data), game)


# -- component counts, checked before anything enumerates ------------------------------------------------------


def _no_enumeration(game: Game[Any, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any) -> Any:
        raise AssertionError("legal_actions ran on a state that should have been refused")

    monkeypatch.setattr(game, "legal_actions", refuse)


def _broken(game_id: str) -> tuple[Game[Any, Any], Any, str]:
    """One broken count per game, and the rule the refusal must name."""
    game, state = mid_game(game_id)
    if game_id == "stm":
        p = attrs.evolve(state.players[0], crystals=3000)
        return game, attrs.evolve(state, players=(p, *state.players[1:])), "STM-R-21"
    if game_id == "kas":
        p = attrs.evolve(state.players[0], hold=(0, 0, 0, 0, 400))
        return game, attrs.evolve(state, players=(p, *state.players[1:])), "KAS-"
    if game_id == "air":
        board = attrs.evolve(state.boards[0], chips=3000)
        return game, attrs.evolve(state, boards=(board, *state.boards[1:])), "AIR-R-37"
    return game, attrs.evolve(state, bag=state.bag * 40), "AER-SET-01"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_broken_count_is_refused_before_enumeration(
    tmp_path: Path, game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, state, rule = _broken(game_id)
    path = write(tmp_path, game.state_to_json(state))
    fresh = make_game(game_id)
    _no_enumeration(fresh, monkeypatch)
    message = refusal(path, fresh)
    assert rule in message, message


def test_3000_crystals_name_the_invariant_and_rule(tmp_path: Path) -> None:
    game, state, _ = _broken("stm")
    message = refusal(write(tmp_path, game.state_to_json(state)), make_game("stm"))
    assert "resources-conserved [STM-R-21]" in message and "3015" in message


def test_a_kas_state_dealing_one_team_twice_is_refused_on_load(tmp_path: Path) -> None:
    """KAS-R-08 (p.17): the team boards are dealt one to each player; a state file giving two seats the
    Sphinx team is refused in one line naming the invariant and the rule."""
    game = make_game("kas")
    state = game.new_game(
        3, teams=(("Sphinx", "Victor Blane"), ("DaVinci", "I.S.A.A.C."), ("Emperor", "Reginald Kain"))
    )
    twice = attrs.evolve(state.players[1], team="Sphinx", character="Eva Blane")
    path = write(tmp_path, game.state_to_json(attrs.evolve(state, players=(state.players[0], twice, state.players[2]))))
    message = refusal(path, make_game("kas"))
    assert "teams-dealt [KAS-R-08, KAS-R-09]" in message and "Sphinx" in message, message


def test_an_absurd_size_is_refused_before_the_invariants(monkeypatch: pytest.MonkeyPatch) -> None:
    """The size caps come first: the invariants (and legal_actions) never see 20 000 stones."""
    game, state = mid_game("stm")
    stones = state.board[:1] * 20_000 if state.board else ()
    assert stones, "the seeded game has a stone on the board"
    counted: list[str] = []

    def violations(_: Tools[Any, Any], __: Any) -> list[Any]:
        counted.append("ran")
        return []

    monkeypatch.setattr(Tools, "violations", violations)
    _no_enumeration(game, monkeypatch)
    with pytest.raises(StateError) as caught:
        admit(game, attrs.evolve(state, board=stones))
    assert caught.value.field == "state.board" and "STM-R-08" in caught.value.reason
    assert counted == []


def test_the_load_invariants_are_registered_names() -> None:
    """A misspelt name would silently check nothing."""
    from rulecraft.invariants import aeroplanes, airships, kings_of_air_and_steam, steamopolis
    from rulecraft.model.aeroplanes import game as aer
    from rulecraft.model.airships import game as air
    from rulecraft.model.kings_of_air_and_steam import game as kas
    from rulecraft.model.steamopolis import game as stm

    for module, invariants in (
        (aer, aeroplanes.INVARIANTS),
        (air, airships.INVARIANTS),
        (kas, kings_of_air_and_steam.INVARIANTS),
        (stm, steamopolis.INVARIANTS),
    ):
        assert set(module.LOAD_INVARIANTS) <= set(invariants), module.__name__


@pytest.mark.parametrize("game_id", GAMES)
def test_valid_states_pass_the_check(game_id: str) -> None:
    for seed in range(3):
        game, state = mid_game(game_id, seed=seed, steps=120)
        assert state_from_data(game, game.state_to_json(state)) == state


# -- the protocol's set_state ------------------------------------------------------------------------------


def test_set_state_refuses_a_broken_state_with_an_error_reply() -> None:
    game, state, _ = _broken("stm")
    session = Session("stm")
    answer, done = session.handle_line(json.dumps({"op": "set_state", "state": game.state_to_json(state)}))
    assert not done and answer["ok"] is False
    assert "STM-R-21" in answer["error"] and "internal error" not in answer["error"]
    assert session.game is None and session.state is None  # the session is as it was


def test_set_state_refuses_a_field_error_in_one_line() -> None:
    game, state = mid_game("kas")
    data = game.state_to_json(state)
    data["players"][0]["money"] = [1] * 50
    answer, _ = Session("kas").handle_line(json.dumps({"op": "set_state", "state": data}))
    assert answer["ok"] is False and "state.players[0].money" in answer["error"]
    assert "\n" not in answer["error"] and "internal error" not in answer["error"]


def test_set_state_still_takes_a_valid_state() -> None:
    game, state = mid_game("air")
    session = Session("air")
    answer, _ = session.handle_line(json.dumps({"op": "set_state", "state": game.state_to_json(state)}))
    assert answer["ok"] is True and session.state == state


# -- a printed example's own board (KAS) -----------------------------------------------------------------------


def _kas_example(name: str) -> tuple[Game[Any, Any], Any]:
    scenario = load_scenario(scenario_root() / "kings_of_air_and_steam" / name)
    game = make_game("kas", readings=dict(scenario.readings))
    return game, tools(game).scenario_state(scenario.given)


def test_a_fixture_state_file_carries_its_board_and_answers_deliveries(tmp_path: Path) -> None:
    game, state = _kas_example("KAS-EX-13-ship-goods-five-options.yaml")
    assert state.layout == "fixture"
    path = tmp_path / "ex13.json"
    save_state(path, game, state)
    assert "map" in json.loads(path.read_text("utf-8"))["fixture"]
    fresh = make_game("kas")
    loaded = load_state(path, fresh)
    assert loaded == state
    answer = tools(fresh).queries()["deliveries"].run(fresh, {"seat": 0}, loaded)
    # p.13: Bown Town takes 1 machine at 1 stop, no toll (KAS-EX-13 option 1).
    assert answer["by_city"]["Bown Town"] == {"machine": [1, 1, 0]}


def test_a_fixture_state_file_answers_sellout_through_the_state_param(tmp_path: Path) -> None:
    game, state = _kas_example("KAS-EX-21-sellout.yaml")
    path = tmp_path / "ex21.json"
    save_state(path, game, state)
    fresh = make_game("kas")
    answer = tools(fresh).queries()["sellout"].run(fresh, {"state": str(path), "seat": 0}, None)
    assert answer["value"] == 17  # p.16: 5 goods x $4 - $3 tolls


def test_a_bare_fixture_state_without_its_board_is_one_line(tmp_path: Path) -> None:
    game, state = _kas_example("KAS-EX-21-sellout.yaml")
    path = write(tmp_path, game.state_to_json(state))
    message = refusal(path, make_game("kas"))
    assert f"{path}: state.layout: 'fixture' is a printed example's own board" in message
    fresh = make_game("kas")
    with pytest.raises(StateError, match=r"state\.layout: 'fixture'"):
        tools(fresh).queries()["deliveries"].run(fresh, {"seat": 0}, state)
