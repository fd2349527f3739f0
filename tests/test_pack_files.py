"""rulecraft.packs.PackFiles: the one reader of every game's pack files (issue 17: the four games'
copies of load_pack / bundled_pack / bundled_pack_data are gone)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from rulecraft.model.aeroplanes import components as aer
from rulecraft.model.airships import components as air
from rulecraft.model.kings_of_air_and_steam import components as kas
from rulecraft.model.steamopolis import components as stm
from rulecraft.packs import PackChecker, PackError, PackFiles, entry_label, find_entry, unshared

GAMES = [aer, air, kas, stm]


@pytest.mark.parametrize("module", GAMES, ids=lambda m: m.__name__.split(".")[-2])
def test_every_game_reads_its_bundled_pack_once(module: Any) -> None:
    files: PackFiles[Any] = module.PACK_FILES
    assert module.bundled_pack() is module.bundled_pack()  # built once, shared by every configured game
    assert files.source == f"{files.package.replace('.', '/')}/packs/reconstructed.yaml"
    if hasattr(module, "BUNDLED_SOURCE"):
        assert files.source == module.BUNDLED_SOURCE


@pytest.mark.parametrize("module", [aer, kas, stm], ids=lambda m: m.__name__.split(".")[-2])
def test_bundled_data_is_a_fresh_copy_each_time(module: Any) -> None:
    first, second = module.bundled_pack_data(), module.bundled_pack_data()
    assert first == second and first is not second
    key = next(iter(first))
    first[key] = "changed"
    assert module.bundled_pack_data()[key] != "changed"  # the bundled pack is never changed through a copy


def test_yaml_aliases_become_separate_objects() -> None:
    shared = {"a": 1}
    copied = unshared({"x": shared, "y": shared, "z": [shared]})
    assert copied == {"x": {"a": 1}, "y": {"a": 1}, "z": [{"a": 1}]}
    assert copied["x"] is not copied["y"] and copied["z"][0] is not copied["x"]


def test_a_user_pack_is_built_by_the_game_s_builder_and_errors_name_the_file(tmp_path: Path) -> None:
    built: list[tuple[Any, str]] = []
    files = PackFiles("rulecraft.model.airships", lambda data, source: built.append((data, source)) or len(built))
    good = tmp_path / "pack.yaml"
    good.write_text("cards: [1, 2]\n", encoding="utf-8")
    assert files.load(good) == 1 and built == [({"cards": [1, 2]}, str(good))]
    bad = tmp_path / "bad.yaml"
    bad.write_text("cards: [1, 2\n", encoding="utf-8")
    with pytest.raises(PackError) as caught:
        files.load(bad)
    assert "bad.yaml" in str(caught.value)


def test_every_packed_game_reads_packs_through_its_pack_files(tmp_path: Path) -> None:
    """PackedGame's bundled_pack and read_pack come from the game's pack_files, no copy per game."""
    from rulecraft.registry import game_class

    for game_id, module in (("aer", aer), ("air", air), ("kas", kas), ("stm", stm)):
        cls: Any = game_class(game_id)
        assert cls.pack_files is module.PACK_FILES
        assert cls.bundled_pack() is module.bundled_pack()
        bad = tmp_path / f"{game_id}.yaml"
        bad.write_text("[1, 2]\n", encoding="utf-8")
        with pytest.raises(PackError) as caught:
            cls.read_pack(bad)
        assert f"{game_id}.yaml" in str(caught.value)


@pytest.mark.parametrize("module", GAMES, ids=lambda m: m.__name__.split(".")[-2])
def test_the_shipped_pack_keeps_its_schema(module: Any) -> None:
    """The shipped pack is built without its JSON Schema check (configuring a game imports no
    jsonschema); this is the check, here: the shipped file is valid against its own schema, and a user's
    pack is still checked (a schema break is a PackError naming the field)."""
    from rulecraft.packs import read_bundled, validator_of

    files: PackFiles[Any] = module.PACK_FILES
    data = read_bundled(files.package)
    assert list(validator_of(files.package).iter_errors(data)) == []
    broken = dict(data, name=12345)  # every pack schema wants the pack's name as a string
    with pytest.raises(PackError, match="name"):
        module.pack_from_data(broken, "user.yaml")


def test_configuring_a_game_imports_no_jsonschema() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from rulecraft.registry import make_game\n"
        "for g in ('aer', 'air', 'kas', 'stm'):\n"
        "    make_game(g)\n"
        "print('jsonschema' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_find_entry_returns_the_first_wanted_and_names_what_is_missing() -> None:
    boards = [("A", 1), ("B", 2), ("B", 3)]
    assert find_entry(boards, lambda b: b[0] == "B", "printed", "board B") == ("B", 2)
    with pytest.raises(KeyError, match="pack printed has no board C"):
        find_entry(boards, lambda b: b[0] == "C", "printed", "board C")


def test_entry_label_names_an_entry_by_its_first_key_or_by_several_fields() -> None:
    def hex_name(node: Mapping[str, Any]) -> str | None:
        return f"{node['q']},{node['r']}" if "q" in node and "r" in node else None

    label = entry_label("id", "name", last=hex_name)
    assert label({"name": "Bown Town", "id": "B2"}) == " (B2)"
    assert label({"name": "Bown Town", "q": 1, "r": -2}) == " (Bown Town)"
    assert label({"q": 1, "r": -2}) == " (1,-2)"
    assert label({"id": True}) == ""  # a flag is no name
    assert label(["not", "an", "entry"]) == ""
    first = entry_label("id", first=hex_name)
    assert first({"id": "B2", "q": 0, "r": 3}) == " (0,3)"


def test_a_pack_checker_failure_names_the_file_the_entry_and_the_field() -> None:
    class Checker(PackChecker):
        def check(self) -> None:
            if self.data["players"] < 2:
                raise self.fail("players", "at least 2 (p.1)")

    with pytest.raises(PackError) as caught:
        Checker({"players": 1}, "my-pack.yaml").check()
    assert (caught.value.source, caught.value.where) == ("my-pack.yaml", "players")
    assert "at least 2 (p.1)" in str(caught.value)
    with pytest.raises(NotImplementedError):
        PackChecker({}, "x.yaml").check()
