"""Steamopolis component packs: the effect vocabulary, the bundled reconstruction,
the loader's checks (errors name file, entry and field), and generated packs."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

import jsonschema
import pytest
import yaml
from hypothesis import given

from rulecraft.model.steamopolis import effects as fx
from rulecraft.model.steamopolis.components import (
    BUNDLED_SOURCE,
    RANK_COUNTS,
    MachineRoom,
    Pack,
    PackError,
    bundled_pack,
    bundled_pack_data,
    load_pack,
    pack_from_data,
    pack_schema,
    printed_value_problems,
)
from rulecraft.model.steamopolis.gauge import STANDARD_LAYOUT
from rulecraft.model.steamopolis.strategies import packs, programs

BUNDLED = Path(__file__).resolve().parents[1] / "model/steamopolis/packs/reconstructed.yaml"


def _all_programs(pack: Pack) -> list[fx.Program]:
    out: list[fx.Program] = [d.effect for d in pack.districts]
    faces = [m.face for m in pack.machines] + [s for m in pack.starting_machines for s in m.sides]
    faces += list(pack.capacity.sides)
    for face in faces:
        out += [b.effect for b in face.boilers]
        out += [face.passive.effect] if face.passive else []
    out += [c.setup for c in pack.characters]
    out += [r for p in pack.passengers for r in (p.banker_reward, p.stoker_reward)]
    out += [s.machine_program() for s in pack.market_slots] + [s.banner_program() for s in pack.market_slots]
    return out


# ---------------------------------------------------------------------------
# The bundled pack
# ---------------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(pack_schema())


def test_the_bundled_pack_loads_with_the_rulebook_counts() -> None:
    pack = bundled_pack()
    assert pack is bundled_pack(), "cached"
    assert pack.source == BUNDLED_SOURCE and pack.reconstructed
    assert Counter(m.rank for m in pack.machines) == Counter(RANK_COUNTS)  # p.2: 10/11/12/11
    assert len(pack.side("2-3")) == 16 and len(pack.side("4")) == 20  # STM-R-01
    assert len(pack.starting_machines) == 5 and len(pack.characters) == 8 and len(pack.passengers) == 16
    assert pack.supplies.crystals == pack.supplies.gears == 15 and len(pack.supplies.sponsors) == 5
    assert Counter(pack.supplies.galas) == {"crystal": 4, "gear": 4}
    assert [[s.numeral for s in r.slots] for r in pack.bonus_rows] == [[5, 4, 3, 2]] * 2


def test_the_bundled_file_loads_from_its_path_too() -> None:
    from_file = load_pack(BUNDLED)
    assert from_file.source == str(BUNDLED)
    assert from_file.machines == bundled_pack().machines and from_file.districts == bundled_pack().districts


def test_every_entry_is_labelled_with_its_provenance() -> None:
    data = yaml.safe_load(BUNDLED.read_text("utf-8"))
    lists = ("districts", "market_slots", "extra_market_slots", "bonus_rows", "machines", "starting_machines")
    entries = [e for key in (*lists, "characters", "passengers") for e in data[key]]
    entries += [data[k] for k in ("gauge", "machine_room", "airship", "supplies", "pink_marker", "capacity")]
    entries.append(data["board_destinations"])
    for entry in entries:
        prov = entry["provenance"]
        assert prov["source"] in ("printed", "partly printed", "reconstructed") and prov["why"].strip(), entry
        if prov["source"] != "reconstructed":
            assert "page" in prov, entry  # a printed value names its page
    assert data["reconstructed"] is True and "RECONSTRUCTED" in data["note"]


def test_the_bundled_pack_keeps_every_printed_fact() -> None:
    """Digest section 6: the district facts, market examples, bonus prices and the pictured passenger tile."""
    assert printed_value_problems(bundled_pack()) == []


def test_the_pack_gauge_is_the_forced_layout() -> None:
    """STM-P-10 only confirms STM-R-14 (STM-AMB-01); numerals STM-AMB-03 (a)."""
    assert bundled_pack().gauge == STANDARD_LAYOUT


def test_machine_room_entry_is_v_minus_1() -> None:
    """STM-AMB-02 (a): value v enters position v-1; the value-1 spaces cannot channel (p.13)."""
    room = bundled_pack().machine_room
    assert [room.entry(v) for v in range(1, 9)] == [None, 1, 2, 3, 4, 5, 6, 7]
    # STM-EX-05 (p.13): the third stone (value 2) would drop to 1.
    assert room.entry(2) == 1
    # STM-AMB-02 (b): entry v-2 on 6 positions; values 1 and 2 cannot channel.
    alt = MachineRoom(positions=6, entry_offset=2)
    assert [alt.entry(v) for v in range(1, 9)] == [None, None, 1, 2, 3, 4, 5, 6]


# ---------------------------------------------------------------------------
# The effect vocabulary
# ---------------------------------------------------------------------------

PART_TYPES: tuple[type, ...] = get_args(fx.Part)


def test_the_bundled_pack_uses_the_whole_vocabulary() -> None:
    used = {type(p) for program in _all_programs(bundled_pack()) for p in fx.walk(program)}
    assert used == set(PART_TYPES)


def test_programs_round_trip_through_the_file_form() -> None:
    for program in _all_programs(bundled_pack()):
        assert fx.program_from_data(fx.program_to_data(program)) == program


def test_ex27_black_costs_gate_only_the_parts_beneath() -> None:
    """STM-EX-27 (symbol pages, 'Costs'): the upper effect without paying; the black cost gates the lower."""
    program = (fx.GainResources(gears=1), fx.PayResources(crystals=1), fx.VotePoints(2))
    assert fx.gated(program) == (
        ((), (fx.GainResources(gears=1),)),
        ((fx.PayResources(crystals=1),), (fx.VotePoints(2),)),
    )
    assert [fx.colour(p) for p in program] == ["white", "black", "grey"]
    assert bundled_pack().machine("M0-09").face.boilers[0].effect == program


def test_ex28_resource_cost_then_capacity() -> None:
    """STM-EX-28 / STM-EX-32 (p.29): 'Spend 2 gears to receive 1 capacity tile'."""
    effect = bundled_pack().district("2-3", 2, "left").effect
    assert fx.gated(effect) == (((fx.PayResources(gears=2),), (fx.GainCapacityTile(),)),)


def test_ex26_slash_offers_one_side() -> None:
    """STM-EX-26 (symbol pages, 'Slash'): 'Place your parasites or activate them'."""
    (part,) = bundled_pack().machine("M1-06").face.boilers[0].effect
    assert part == fx.Either((fx.PlaceParasites(1),), (fx.ActivateParasites(1),))
    assert fx.colour(part) == "slash"


def test_ex01_unpiped_boilers_count_for_make_steam_but_never_activate() -> None:
    """STM-EX-01 (p.8) / STM-R-25, R-30: every boiler counts for MAKE STEAM; an unpiped one never activates."""
    face = bundled_pack().machine("M1-03").face
    assert face.boiler_count() == 2 and len(face.activated()) == 1


def test_market_programs_follow_ex12_to_19() -> None:
    """STM-EX-12..19 (p.19-20): row 3 always; row 1 as a machine, row 2 as a banner."""
    slot = bundled_pack().market_slots[3]
    assert slot.machine_program() == (fx.PayResources(4, 1), fx.Envy(), fx.VotePoints(5))
    assert slot.banner_program() == (fx.PayResources(4, 1), fx.ReturnStone(), fx.Envy())
    assert slot.remove_machine


# ---------------------------------------------------------------------------
# Bad packs: every error names the file, the entry and the field
# ---------------------------------------------------------------------------


def _mutated(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data: dict[str, Any] = bundled_pack_data()
    change(data)
    return data


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def _delete(path: list[Any]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return change


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    (
        "negative cost",
        _set(["machines", 3, "boilers", 0, "effect", 0, "pay", "crystals"], -1),
        "machines[3] (M0-04).boilers[0].effect[0].pay.crystals",
        "minimum",
    ),
    (
        "unknown symbol",
        _set(["districts", 0, "effect", 0], "fly-to-the-moon"),
        "districts[0] (2-3:L1-left).effect[0]",
        "fly-to-the-moon",
    ),
    (
        "bad turn count",
        _set(["machines", 16, "boilers", 0, "effect", 0], {"turn-stones": 2}),
        "machines[16] (M1-07)",
        "2",
    ),
    ("missing provenance", _delete(["characters", 2, "provenance"]), "characters[2] (5)", "provenance"),
    ("unknown field", _set(["machines", 0, "colour"], "red"), "machines[0] (M0-01)", "colour"),
    (
        "banker too low",
        _set(["passengers", 4, "banker", "destination"], 3),
        "passengers[4] (P05).banker.destination",
        "5-8",
    ),
    (
        "alternate equals",
        _set(["passengers", 0, "stoker", "alternate"], 1),
        "passengers[0] (P01).stoker.alternate",
        "differs",
    ),
    ("duplicate id", _set(["machines", 1, "id"], "M0-01"), "machines[1] (M0-01).id", "duplicate"),
    ("rank count", _delete(["machines", 0]), "machines", "10 rank-0"),
    ("purple single", _set(["machines", 2, "banners"], 1), "machines[2] (M0-03).banners", "purple"),
    ("bonus order", _set(["bonus_rows", 0, "slots", 0, "numeral"], 2), "bonus_rows[0] (crystal).slots", "5, 4, 3, 2"),
    ("character 13 missing", _set(["characters", 6, "number"], 17), "characters", "13"),
    ("third on 2-3", _set(["districts", 0, "position"], "third"), "districts[0] (2-3:L1-third).position", "4-player"),
    ("gauge numerals", _set(["gauge", "numerals"], [None, 2]), "gauge.numerals", "2 numerals"),
    (
        "empty machine",
        _set(
            ["machines", 10],
            {"id": "X", "rank": 1, "banner": "blue", "provenance": {"source": "publisher", "why": "x"}},
        ),
        "machines[10] (X)",
        "boiler",
    ),
]


@pytest.mark.parametrize(("name", "change", "where", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_packs_name_entry_and_field(
    name: str, change: Callable[[dict[str, Any]], None], where: str, words: str
) -> None:
    with pytest.raises(PackError) as info:
        pack_from_data(_mutated(change), "bad.yaml")
    assert info.value.source == "bad.yaml"
    assert info.value.where.startswith(where), info.value.where
    assert words in str(info.value), str(info.value)


def test_a_file_error_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(PackError, match=r"missing\.yaml: \(file\): cannot read"):
        load_pack(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n", "utf-8")
    with pytest.raises(PackError, match=r"bad\.yaml: \(file\): not valid YAML"):
        load_pack(bad)
    twice = tmp_path / "twice.yaml"
    twice.write_text("name: a\nname: b\n", "utf-8")
    with pytest.raises(PackError, match="given twice"):
        load_pack(twice)


def test_a_bad_pack_file_names_file_entry_and_field(tmp_path: Path) -> None:
    data = bundled_pack_data()
    data["passengers"][2]["banker"]["alternate"] = 9
    path = tmp_path / "publisher.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    with pytest.raises(PackError) as info:
        load_pack(path)
    assert str(info.value).startswith(f"{path}: passengers[2] (P03).banker.alternate:")


# ---------------------------------------------------------------------------
# Generated packs
# ---------------------------------------------------------------------------


@given(programs())
def test_prop_programs_round_trip_and_gate_every_part(program: fx.Program) -> None:
    assert fx.program_from_data(fx.program_to_data(program)) == program
    gated = fx.gated(program)
    assert tuple(p for costs, parts in gated for p in (*costs, *parts)) == program
    assert all(fx.colour(c) == "black" for costs, _ in gated for c in costs)
    assert all(fx.colour(p) != "black" for _, parts in gated for p in parts)


@given(packs())
def test_prop_generated_packs_load_and_keep_the_printed_facts(pack: Pack) -> None:
    assert Counter(m.rank for m in pack.machines) == Counter(RANK_COUNTS)
    assert printed_value_problems(pack) == []
    for machine in pack.machines:
        face = machine.face
        assert face.boilers or face.passive or face.storage
        assert machine.banners == (2 if machine.banner == "purple" else 1)
        assert len(face.activated()) <= face.boiler_count()


def test_generated_data_is_not_the_bundled_data_object() -> None:
    assert bundled_pack_data() is not bundled_pack_data()
    assert copy.deepcopy(bundled_pack_data()) == bundled_pack_data()
