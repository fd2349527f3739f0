"""Component packs: the bundled one is labelled; bad packs are explained."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulecraft.model.airships.components import PackError, bundled_pack, load_pack, pack_from_data
from rulecraft.registry import make_game

BUNDLED = Path(__file__).resolve().parents[1] / "model/airships/packs/reconstructed.yaml"


def bundled_data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(BUNDLED.read_text("utf-8"))
    return data


def test_bundled_pack_has_the_rulebook_counts() -> None:
    pack = bundled_pack()
    assert len(pack.airships) == 18 and len(pack.developments) == 48 and len(pack.stages) == 4
    assert [len(pack.group(g)) for g in ("starter", "era1", "era2")] == [6, 18, 24]


def test_every_bundled_entry_says_where_its_values_come_from() -> None:
    pack = bundled_pack()
    assert pack.reconstructed
    entries = [*pack.airships, *pack.developments, *pack.stages]
    assert all(e.provenance.startswith(("reconstructed", "partly printed")) for e in entries)
    assert all(":" in e.provenance for e in entries), "each label gives its reason"


def test_the_p6_example_cards_carry_the_printed_effects() -> None:
    pack = bundled_pack()
    fin = pack.development("E2-FIN-1")  # AIR-EX-11: 1 white, 1 red, 1 black
    assert (fin.dice.W, fin.dice.R, fin.dice.B) == (1, 1, 1)
    assert pack.development("E1-FIN-1").vp == 3  # AIR-EX-12
    eng = pack.development("E2-ENR-1").fixed  # AIR-EX-18: black fixed at 7
    assert eng is not None and (eng.colour.value, eng.value) == ("B", 7)
    mat = pack.development("E2-MAT-1").exchange  # AIR-EX-22: 2 red -> 1 black
    assert mat is not None and str(mat) == "2R->1B"


def _write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "pack.yaml"
    path.write_text(yaml.safe_dump(data), "utf-8")
    return path


def test_a_user_pack_loads_from_a_file(tmp_path: Path) -> None:
    data = bundled_data()
    data["name"] = "publisher"
    data["airships"][0]["vp"] = 9
    game = make_game("air", components=_write(tmp_path, data))
    assert game.pack.name == "publisher" and game.pack.airship("L1").vp == 9


@pytest.mark.parametrize(
    ("mutate", "where", "message"),
    [
        (
            lambda d: d["developments"][3].__setitem__("department", "kitchen"),
            "developments[3] (id S-ENR).department",
            "is not one of",
        ),
        (
            lambda d: d["airships"][2]["requirement"].__setitem__("W", "two"),
            "airships[2] (id L3).requirement.W",
            "is not of type 'integer'",
        ),
        (lambda d: d["airships"].pop(), "airships", "expected 18 airship cards"),
        (lambda d: d["developments"][10].__setitem__("group", "era2"), "developments", "expected 18 era1 cards"),
        (
            lambda d: d["developments"][15].pop("fixed"),
            "developments[15] (id E1-ENR-1).fixed",
            "an Engineer card gives a fixed die",
        ),
        (lambda d: d["stages"][0].__setitem__("vp_high", 1), "stages[0].vp_high", "high value"),
        # p.5 [EN]: "Two different victory point values are given for each construction phase."
        (lambda d: d["stages"][2].__setitem__("vp_high", d["stages"][2]["vp_low"]), "stages[2].vp_high", "different"),
        (lambda d: d["developments"][7].__setitem__("id", "S-FIN"), "id S-FIN", "duplicate card id"),
    ],
)
def test_a_bad_pack_names_file_entry_and_field(tmp_path: Path, mutate: Any, where: str, message: str) -> None:
    data = copy.deepcopy(bundled_data())
    mutate(data)
    path = _write(tmp_path, data)
    with pytest.raises(PackError) as info:
        load_pack(path)
    assert info.value.source == str(path)
    assert info.value.where == where
    assert message in info.value.message


def test_unreadable_and_non_yaml_packs_are_explained(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="cannot read"):
        load_pack(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed", "utf-8")
    with pytest.raises(PackError, match="not valid YAML"):
        load_pack(bad)
    with pytest.raises(PackError, match=r"\(top level\)"):
        pack_from_data(["not", "a", "mapping"], "list.yaml")


def test_the_bundled_pack_has_a_card_worth_vp_in_every_department() -> None:
    """p.6 [EN]: "In addition, there are also cards for each department, which are worth victory
    points, if a player still has them at the end of the game" (AIR-R-21)."""
    pack = load_pack(BUNDLED)
    departments = {card.department for card in pack.developments}
    with_vp = {card.department for card in pack.developments if card.vp > 0}
    assert with_vp == departments and len(departments) == 6
