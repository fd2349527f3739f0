"""Every game's record (rulecraft/record.py, games/*.py): names as data that agree with the game,
factories that give the game's tools, and a model that imports none of its tools."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft import registry
from rulecraft import strategies as rs
from rulecraft.core import Game
from rulecraft.query import Query
from rulecraft.record import BadRecord, GameRecord
from rulecraft.registry import BadRegistration, game_class, game_ids, make_game, record, record_of
from rulecraft.tools import tools

GAMES = game_ids()
PACKAGES = {"air": "airships", "kas": "kings_of_air_and_steam", "stm": "steamopolis", "aer": "aeroplanes"}


def _modules_after(code: str) -> set[str]:
    """The rulecraft tool modules and z3 loaded by a fresh interpreter running ``code``."""
    probe = (
        f"import sys\n{code}\n"
        "print('\\n'.join(m for m in sys.modules if m == 'z3' or m.startswith(("
        "'rulecraft.model', 'rulecraft.solvers', 'rulecraft.invariants'))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    return {line for line in out.stdout.splitlines() if line}


def test_the_four_games_are_registered_by_records() -> None:
    assert set(GAMES) >= set(PACKAGES)
    for gid in PACKAGES:
        assert isinstance(record(gid), GameRecord)


@pytest.mark.parametrize("gid", GAMES)
def test_a_record_names_its_game_as_the_game_itself_does(gid: str) -> None:
    rec, cls = record(gid), game_class(gid)
    assert (rec.id, rec.title) == (cls.id, cls.title)
    assert rec.players == range(cls.min_players, cls.max_players + 1)
    assert rec.scenario_folder in (None, cls.scenario_folder)


@pytest.mark.parametrize("gid", GAMES)
def test_a_configured_game_answers_with_its_records_queries_and_invariants(gid: str) -> None:
    game = make_game(gid)
    rec = record_of(game)
    assert rec is record(gid)
    assert dict(tools(game).queries()) == dict(rec.queries()) and tools(game).queries()
    assert all(isinstance(q, Query) and q.name == name for name, q in tools(game).queries().items())
    state = game.new_game(rec.players[-1])
    assert tools(game).violations(state) == rec.violations(game, state) == []


@pytest.mark.parametrize("gid", sorted(PACKAGES))
def test_a_records_invariants_refuse_another_games_instance(gid: str) -> None:
    other = make_game(next(g for g in PACKAGES if g != gid))
    with pytest.raises(TypeError, match=game_class(gid).__name__):
        record(gid).violations(other, other.new_game(record(other.id).players[-1]))


def test_listing_the_games_and_building_the_parser_import_no_game() -> None:
    loaded = _modules_after("from rulecraft.cli import build_parser\nbuild_parser(queries=False)")
    assert loaded == set()
    assert (
        _modules_after("from rulecraft.registry import game_ids, record\n[record(g).title for g in game_ids()]")
        == set()
    )


@pytest.mark.parametrize("gid", sorted(PACKAGES))
def test_a_games_model_imports_none_of_its_tools(gid: str) -> None:
    """Issue 17: the model holds the rules; its solvers and invariants are the record's."""
    package = PACKAGES[gid]
    loaded = _modules_after(f"import rulecraft.model.{package}.game")
    assert not {m for m in loaded if m.startswith(("rulecraft.solvers", "rulecraft.invariants")) or m == "z3"}
    assert f"rulecraft.model.{package}.game" in loaded


def test_the_help_imports_no_game() -> None:
    code = (
        "import contextlib, io\nfrom rulecraft.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    try:\n        main(['--help'])\n    except SystemExit:\n        pass\n"
        "assert 'conform' in out.getvalue()"
    )
    loaded = _modules_after(code)
    assert loaded == set()


def test_a_query_about_one_game_loads_that_games_solvers_alone() -> None:
    """Issue 18: 'rulecraft query air -h' configured all four games and their solvers (1.3 s CPU)."""

    def help_of(*words: str) -> str:
        return (
            "import contextlib, io\nfrom rulecraft.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    try:\n        main({['query', *words, '-h']!r})\n    except SystemExit:\n        pass\n"
            "assert 'usage: rulecraft query' in out.getvalue(), out.getvalue()\n"
        )

    loaded = _modules_after(help_of("air"))
    assert {"rulecraft.solvers.airships.reach", "rulecraft.solvers.airships.chance"} <= loaded
    others = ("rulecraft.model.steamopolis", "rulecraft.model.aeroplanes", "rulecraft.model.kings_of_air_and_steam")
    assert not {m for m in loaded if m.startswith(others)}
    assert _modules_after(help_of()) == set()  # 'query -h' lists the games from their records


@pytest.mark.parametrize("players", [range(0, 3), range(2, 2), range(1, 9, 2)])
def test_a_record_refuses_a_bad_player_range_naming_the_field(players: range) -> None:
    with pytest.raises(ValueError, match=r"GameRecord\.players"):
        GameRecord(id="toy", title="Toy", players=players, game=lambda: game_class("air"))


class _Toy(Game[int, int]):
    """A game registered by its class alone (the older way): no record factories of its own."""

    id: ClassVar[str] = "toyclass"
    title: ClassVar[str] = "Toy"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 2

    @classmethod
    def configured(cls, **_: Any) -> _Toy:
        return cls()

    def new_game(self, players: int, *, first_seat: int = 0, **options: Any) -> int:
        return 0

    def to_move(self, state: int) -> Any:
        return 0

    def legal_actions(self, state: int) -> list[int]:
        return []

    def chance_outcomes(self, state: int) -> list[Any]:
        return []

    def check(self, state: int, action: int) -> None:
        return None

    def transition(self, state: int, action: int) -> int:
        return state

    def scores(self, state: int) -> Mapping[int, int]:
        return {0: state}

    def winners(self, state: int) -> tuple[int, ...]:
        return (0,)

    def render(self, state: int) -> str:
        return str(state)

    def describe(self, state: int, action: int) -> str:
        return str(action)

    def action_to_json(self, action: int) -> dict[str, Any]:
        return {"n": action}

    def action_from_json(self, data: Mapping[str, Any]) -> int:
        return int(data["n"])

    def state_to_json(self, state: int) -> dict[str, Any]:
        return {"n": state}

    def state_from_json(self, data: Mapping[str, Any]) -> int:
        return int(data["n"])


@pytest.fixture
def clean_registry() -> Iterator[None]:
    saved, loaded = dict(registry._RECORDS), registry._LOADED
    yield
    registry._RECORDS.clear()
    registry._RECORDS.update(saved)
    registry._LOADED = loaded


@pytest.mark.usefixtures("clean_registry")
def test_a_game_registered_by_its_class_gets_a_record_with_no_tools() -> None:
    registry.register(_Toy)
    rec = record("toyclass")
    assert (rec.title, rec.players, rec.game()) == ("Toy", range(1, 3), _Toy)
    toy = _Toy()
    assert record_of(toy) is rec
    assert tools(toy).queries() == {} and tools(toy).violations(0) == []


@pytest.mark.usefixtures("clean_registry")
def test_an_entry_point_exporting_neither_record_nor_game_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class _EntryPoint:
        name, value = "bad", "somewhere:THING"

        def load(self) -> object:
            return {"not": "a record"}

    monkeypatch.setattr(registry, "entry_points", lambda group: [_EntryPoint()])
    registry._LOADED = False
    registry._RECORDS.clear()
    with pytest.raises(BadRegistration, match=r"entry point bad = somewhere:THING .*exports dict, not a GameRecord"):
        game_ids()


@pytest.mark.parametrize(
    ("reference", "why"),
    [
        ("rulecraft.core:Nothing", r"toy: game = 'rulecraft.core:Nothing' does not resolve: .*Nothing"),
        ("rulecraft.core:Seat", r"toy: game = 'rulecraft.core:Seat' is type, not a Game class|not a Game class"),
    ],
)
def test_a_record_naming_a_part_that_is_not_there_is_one_clear_error(reference: str, why: str) -> None:
    rec = GameRecord.of_packages(id="toy", title="Toy", players=range(2, 3), game=reference)
    with pytest.raises(BadRecord, match=why):
        rec.game()


def test_a_record_without_queries_or_invariants_has_none() -> None:
    rec = GameRecord.of_packages(
        id="air", title="Airships", players=range(2, 5), game="rulecraft.model.airships.game:AirshipsGame"
    )
    game = make_game("air")
    assert rec.queries() == {} and rec.violations(game, game.new_game(2)) == [] and rec.witness_queries(game) == {}


@pytest.mark.parametrize("gid", sorted(PACKAGES))
@settings(max_examples=5, deadline=None)
@given(data=st.data())
def test_a_records_pack_generator_gives_packs_a_game_is_played_on(gid: str, data: st.DataObject) -> None:
    """``rulecraft.strategies.packs(GAME)``: the record's generator; every pack seats a game."""
    game = data.draw(rs.games(gid, readings={}, packs=rs.packs(gid)))
    assert game.pack is not None and game.pack is not make_game(gid).pack  # type: ignore[attr-defined]
    counts = [n for n in record(gid).players if rs._accepts(game, n)]
    assert counts, f"a generated {gid} pack seats no player count"
    state = game.new_game(counts[0])
    assert tools(game).violations(state) == []


def test_a_record_naming_a_module_that_does_not_import_says_which() -> None:
    """A module of the game that does not import is a broken install: an ImportError naming the part."""
    rec = GameRecord.of_packages(id="toy", title="Toy", players=range(2, 3), game="rulecraft.nowhere:Game")
    with pytest.raises(ImportError, match=r"toy: game = 'rulecraft.nowhere:Game' does not resolve: No module named"):
        rec.game()


@pytest.mark.parametrize("gid", GAMES)
def test_every_rule_and_ambiguity_id_starts_with_the_records_prefix(gid: str) -> None:
    """The command line sorts --reading overrides to their game by the record's prefix alone."""
    cls, prefix = game_class(gid), record(gid).prefix
    assert all(rule.id.split("-")[0] == prefix for rule in cls.catalogue)
    assert all(amb.id.split("-")[0] == prefix for amb in cls.register)


@pytest.mark.parametrize("game_id", ["air", "kas", "stm", "aer"])
def test_each_game_shows_its_own_non_default_reading_in_the_help(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The --reading help of a game's query names that game's ambiguity, a registered non-default reading."""
    from rulecraft.cli import main
    from rulecraft.registry import make_game, record

    example = record(game_id).reading_example
    amb_id, reading = example.split("=")
    game = make_game(game_id)
    ambiguity = next(a for a in game.register if a.id == amb_id)
    assert reading in {r.key for r in ambiguity.readings} and reading != ambiguity.default
    game.configured(readings={amb_id: reading})  # playable, not refused as not modelled
    query = sorted(tools(game).queries())[0]
    with pytest.raises(SystemExit):
        main(["query", game_id, query, "-h"])
    shown = " ".join(capsys.readouterr().out.split())
    assert example in shown.replace("- ", "-")
    others = {record(g).reading_example for g in ("air", "kas", "stm", "aer")} - {example}
    assert not any(other in shown for other in others)


def test_a_query_option_out_of_range_names_the_option_and_its_bounds() -> None:
    from rulecraft.core import RulecraftError
    from rulecraft.query import int_param

    assert int_param({}, "timeout_ms", 500, 0) == 500
    assert int_param({"timeout_ms": "250"}, "timeout_ms", 500, 0) == 250
    for params, lo, hi, words in (
        ({"timeout_ms": -5}, 0, None, "--timeout-ms: at least 0, got -5"),
        ({"seat": 9}, 0, 3, "--seat: between 0 and 3, got 9"),
        ({"engine_failures": 7}, None, 2, "--engine-failures: at most 2, got 7"),
        ({"seat": "two"}, 0, 3, "--seat: an integer, got 'two'"),
    ):
        key = next(iter(params))
        with pytest.raises(RulecraftError, match=words):
            int_param(params, key, 0, lo, hi)


def test_every_register_entry_keeps_its_readings_in_order() -> None:
    from rulecraft.ruleset import Ambiguity

    amb = Ambiguity.of("X-AMB-01", "3", "Which?", [("a", "one"), ("b", "two")], "b", "p.3", context={"X-AMB-02": "c"})
    assert amb.choices() == ("a", "b") and amb.default == "b" and amb.text_of("b") == "two"
    assert amb.context == {"X-AMB-02": "c"} and amb.affects_play
    with pytest.raises(ValueError, match="default 'z'"):
        Ambiguity.of("X-AMB-02", "3", "Which?", [("a", "one")], "z", "p.3")


@pytest.mark.parametrize("game_id", ["aer", "air", "kas", "stm"])
def test_the_scenario_builder_is_the_record_s_not_the_game_class_s(game_id: str) -> None:
    """Issue 17: the game class holds the rules; the scenario builder is a tool the record names."""
    from rulecraft.core import Game
    from rulecraft.registry import make_game, record

    rec = record(game_id)
    cls = rec.game()
    for hook in (
        "scenario_state",
        "facts",
        "queries",
        "violations",
        "scenario_fixture",
        "policies",
        "policy",
        "_policy",
    ):
        assert not hasattr(cls, hook) and not hasattr(Game, hook), f"{cls.__name__} has the tool hook {hook}"
    assert rec.scenario_state is not None
    game = make_game(game_id)
    state = tools(game).scenario_state({})
    assert game.state_to_json(state) == game.state_to_json(rec.scenario_state(game, {}))
    assert tools(game).facts(state) == rec.facts(game, state)


def test_a_game_class_without_a_record_has_no_scenarios() -> None:
    from toy_game import ToyGame

    class Unregistered(ToyGame):
        id = "unregistered"

    game = Unregistered()
    with pytest.raises(NotImplementedError, match="unregistered: scenarios are not supported"):
        tools(game).scenario_state({})
    assert tools(game).facts(game.new_game(2)) == {}


@pytest.mark.parametrize("words", [["air", "chance", "--need", "W=1,R=1", "--target", "7"], ["stm", "gauge"]])
def test_a_query_imports_neither_the_table_drawer_nor_the_schema_checker(words: list[str]) -> None:
    """Issue 18: a query prints plain text and reads no user pack, so it pays neither rich (0.07 s)
    nor jsonschema (0.1 s) at start-up."""
    code = (
        "import contextlib, io, sys\nfrom rulecraft.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    code = main({['query', *words]!r})\n"
        "assert code == 0, out.getvalue()\n"
        "print(sorted(m for m in ('rich', 'jsonschema') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"


def test_playout_policies_are_the_record_s_and_an_amended_game_plays_them_by_its_own_rules() -> None:
    """Issue 17: the playout policies are a tool the record names (like OpenSpiel's bots beside its
    games), not methods of the game class; a name the record lacks is refused in one line."""
    from rulecraft.core import RulecraftError
    from rulecraft.registry import make_game, record

    assert set(record("kas").policies()) == {"uniform", "purposeful"}
    assert set(record("stm").policies()) == {"uniform", "purposeful"}
    assert dict(record("air").policies()) == {}
    game = make_game("kas")
    assert list(tools(game).policies()) == ["uniform", "purposeful"]
    assert tools(game).policies()["uniform"].startswith("every legal action equally likely (goods are seldom")
    assert tools(make_game("air")).policies() == {"uniform": "every legal action equally likely"}
    with pytest.raises(RulecraftError, match=r"^Airships has no playout policy 'purposeful'; it has: uniform$"):
        tools(make_game("air")).policy("purposeful")
    # The same seed plays the same moves whether the policy is named or passed as the callable.
    state = game.new_game(4)
    while not isinstance(game.to_move(state), int):
        state = game.apply(state, game.chance_outcomes(state)[0][0])
    with pytest.raises(RulecraftError, match=r"^Kings of Air and Steam has no playout policy 'fastest'; it has: "):
        game.random_action(state, random.Random(0), "fastest")
    named, passed = random.Random(3), random.Random(3)
    chosen = tools(game).policy("purposeful")
    from rulecraft.tools import named_policy

    assert named_policy(game, "purposeful") is named_policy(game, "purposeful") is chosen  # looked up once
    through_tools = random.Random(3)
    for _ in range(40):
        action = game.random_action(state, named, "purposeful")
        assert action == game.random_action(state, passed, chosen)
        assert action == tools(game).random_action(state, through_tools, "purposeful")
        assert action is not None
        state = game.apply(state, action)


NOT_POLICIES = {"fast": "a description alone", "slow": None}


def test_a_record_whose_policies_are_not_playout_policies_is_refused_naming_them() -> None:
    rec = GameRecord.of_packages(
        id="toy", title="Toy", players=range(2, 3), game="toy_game:ToyGame", policies=f"{__name__}:NOT_POLICIES"
    )
    with pytest.raises(BadRecord, match=r"^toy: policies = '.*:NOT_POLICIES': fast, slow not a PlayoutPolicy$"):
        rec.policies()
    listed = GameRecord.of_packages(id="toy", title="Toy", players=range(2, 3), game="x:Y", policies="random:__all__")
    with pytest.raises(BadRecord, match=r"^toy: policies = 'random:__all__' is list, not a mapping of PlayoutPolicy$"):
        listed.policies()


def test_a_printed_example_s_own_board_travels_through_the_record() -> None:
    """KAS-EX-* scenarios with a ``map:`` carry it beside their state (``Game.load_fixture`` takes it)."""
    from rulecraft.registry import make_game

    kas = make_game("kas")
    assert tools(kas).scenario_fixture({"map": {"hexes": []}}) == {"map": {"hexes": []}}
    assert tools(kas).scenario_fixture({"players": 2}) is None
    assert tools(make_game("stm")).scenario_fixture({"map": {}}) is None  # no game of its own board
