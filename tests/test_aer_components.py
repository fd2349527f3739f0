"""Aeroplanes component packs: the bundled reconstruction, the map as a graph,
the loader's checks (errors name file, entry and field), and generated packs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import networkx as nx  # type: ignore[import-untyped]
import pytest
import yaml
from hypothesis import given

from rulecraft.digraph import DiGraph, FrozenGraph
from rulecraft.model.aeroplanes.components import (
    ADVANTAGE_TYPES,
    BUNDLED_SOURCE,
    CARD_COUNT,
    MARKETS,
    PASSENGER_COUNT,
    SPECIAL_DESTINATIONS,
    START_CITIES,
    THREE_PLAYER_BLOCKERS,
    Pack,
    PackError,
    bundled_pack,
    bundled_pack_data,
    load_pack,
    pack_from_data,
    pack_schema,
    printed_value_problems,
    unreachable,
)
from rulecraft.model.aeroplanes.strategies import packs

BUNDLED = Path(__file__).resolve().parents[1] / "model/aeroplanes/packs/reconstructed.yaml"


def as_networkx(graph: DiGraph) -> nx.DiGraph:
    """The map as networkx's DiGraph, for its graph algorithms (the model needs none of them)."""
    out = nx.DiGraph()
    out.add_nodes_from(graph.nodes.items())
    out.add_edges_from(graph.edges(data=True))
    return out
EUROPE_NAMED = (
    *START_CITIES,
    "Frankfurt",
    "Madrid",
    "Vienna",
    "Warsaw",
    "Stockholm",
    "Copenhagen",
)  # digest 6.1: European by the text's usage
OTHERS_NAMED = (
    "North America",
    "South America",
    "Casablanca",
    "Cairo",
    "Middle East",
    "Ethiopia",
    "Kenya",
    "East Africa",
    "Dakar",
    "Persia",
    "India",
    "Burma",
    "Java",
    "Australia",
)


# ---------------------------------------------------------------------------
# The bundled pack
# ---------------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(pack_schema())


def test_the_bundled_pack_loads_with_the_rulebook_counts() -> None:
    pack = bundled_pack()
    assert pack is bundled_pack(), "cached"
    assert isinstance(hash(pack), int)  # frozen and hashable: usable as a cache key
    assert pack.source == BUNDLED_SOURCE and pack.reconstructed
    assert (pack.min_players, pack.max_players) == (3, 5)
    assert [c.number for c in pack.cards] == list(range(1, CARD_COUNT + 1))  # l.7, l.29
    assert len(pack.passengers) == PASSENGER_COUNT  # l.11
    assert {p.capacity for p in pack.passengers} == {1, 2, 3}  # "size 1-3"
    assert {a.type: (a.name, a.first_era) for a in pack.advantages} == dict(ADVANTAGE_TYPES)  # l.156-160
    assert [a.count for a in pack.advantages] == [6] * 5  # l.16: 30 = 5 x 6
    assert (pack.subsidy_pool, pack.display_size, pack.era_end_discards) == (8, 12, 2)  # l.40, l.29, l.172
    assert pack.waiting_area.overflow_capacity == 8  # l.176
    s = pack.supplies
    assert (s.engine_failure_tiles, s.excess_passenger_tiles, s.risk_dice, s.vp_tokens) == (15, 40, 3, 5)
    assert s.risk_die_faces == ("skull", 2, 3, 4, 5, 6) and s.first_player_die_faces == (1, 2, 3, 4, 5, 6)
    assert pack.markets == MARKETS


def test_the_bundled_file_loads_from_its_path_too() -> None:
    from_file = load_pack(BUNDLED)
    assert from_file.source == str(BUNDLED)
    assert from_file.cards == bundled_pack().cards and from_file.destinations == bundled_pack().destinations
    assert from_file.graph() == bundled_pack().graph()


def test_every_entry_is_labelled_with_its_provenance() -> None:
    data = yaml.safe_load(BUNDLED.read_text("utf-8"))
    lists = ("regions", "destinations", "connections", "special_connections", "income_modifiers", "cards")
    entries = [e for key in (*lists, "passengers", "advantages", "vp_per_era") for e in data[key]]
    singles = ("players", "waiting_area", "income", "subsidy", "display", "airport_tiles", "risk", "americas_bonus")
    entries += [data[k] for k in (*singles, "supplies")]
    for entry in entries:
        prov = entry["provenance"]
        assert prov["source"] in ("printed", "partly printed", "reconstructed") and prov["why"].strip(), entry
        if prov["source"] != "reconstructed":
            assert str(prov.get("page", "")).startswith("l."), entry  # a printed value names its lines in the seed
    assert data["reconstructed"] is True and "RECONSTRUCTED" in data["note"]
    # Every Pack-level provenance is reachable too, and the bulk data is reconstructed.
    provs = dict(bundled_pack().provenances())
    assert all(provs[f"cards ({n})"].reconstructed for n in range(1, CARD_COUNT + 1))
    assert provs["destinations (Warsaw)"].source == "printed"
    assert provs["vp_per_era (Profit)"].source == "partly printed"
    assert provs["income_modifiers (Paris)"].source == "printed"
    assert provs["income_modifiers (London)"].reconstructed


def test_what_is_printed_and_what_is_reconstructed() -> None:
    """The report's tally: the reconstructed entries are the card list, the passenger tiles and most of the map."""
    tally = Counter(p.source for _, p in bundled_pack().provenances())
    assert tally["reconstructed"] >= CARD_COUNT + PASSENGER_COUNT
    assert tally["printed"] >= 10 and tally["partly printed"] >= 10


def test_the_bundled_pack_keeps_every_printed_fact() -> None:
    """Digest section 6.1: slots, income modifiers, named connections, ‡ routes, the special connections."""
    assert printed_value_problems(bundled_pack()) == []


def test_airport_tiles_carry_both_numbers_of_aer_amb_02() -> None:
    tiles = bundled_pack().airport_tiles
    assert tiles.tiles_per_stage == (9, 9, 9) and tiles.per_player == 27  # l.66
    assert tiles.box_total == 130  # l.8
    assert tiles.rules_total() == 135 != tiles.box_total  # AER-AMB-02
    assert tiles.provenance.ambiguity == "AER-AMB-02"


def test_income_table_and_era_1_modifiers() -> None:
    """AER-EX-01/02 (l.41-43): Paris 11, Berlin 14 in era 1; 22 and 32 unchanged afterwards."""
    income = bundled_pack().income
    assert income.amount(1, "Paris") == 11 and income.amount(1, "Berlin") == 14
    assert {income.amount(era, home) for era in (2, 3) for home in ("Paris", "Berlin")} == {22, 32}
    assert income.amount(2, "Paris") == 22 and income.amount(3, "Berlin") == 32
    assert {m.city for m in income.modifiers} == set(START_CITIES)
    assert income.modifier("Paris") == -1 and income.modifier("Madrid") == 0


def test_risk_targets_and_printed_table() -> None:
    """AER-R-21/22 (l.86-110): 10+ / 12+ / 14+, +2 per opponent; the printed rows agree with the targets."""
    risk = bundled_pack().risk
    assert (risk.target("red"), risk.target("black"), risk.target("white")) == (12, 14, None)
    assert risk.target("white", second_leg=True) == 10
    assert (risk.opponent_modifier, risk.daring_pilot_bonus, risk.engine_failure_limit) == (2, 3, 4)
    assert len(risk.table) == 9
    row = risk.printed_row(("black", "red"))
    assert row is not None and row.rolls == (14, 12)
    assert risk.printed_row(("red", "white")) is None  # not printed: AER-AMB-16


def test_vp_per_era_table() -> None:
    pack = bundled_pack()
    assert pack.profit_vp(1) == (5, 3, 1)  # AER-EX-22 (l.170)
    for market in MARKETS:
        for era in (1, 2, 3):
            first, second = pack.majority_vp(market, era)
            assert first > second >= 0  # l.167
    assert pack.vp_row("Europe").provenance.reconstructed


def test_card_and_passenger_lookups() -> None:
    """AER-R-12 (l.67-74): a card's stage, LR icon and era; AER-R-33 (l.135-140): a passenger tile's
    destination, capacity, VP and region background."""
    pack = bundled_pack()
    card = pack.card(1)
    assert card.tile_stage == card.era == 1 and card.provenance.reconstructed
    assert {c.tile_stage for c in pack.cards} == {1, 2, 3}
    assert any(c.long_range for c in pack.cards[: pack.display_size])
    kenya = pack.passenger("P62")  # AER-EX-20's synthetic tile
    assert (kenya.destination, kenya.capacity, kenya.vp) == ("Kenya", 2, 2)
    assert pack.passenger_region("P62") == "Africa"
    berlin = pack.passenger("P10")  # AER-EX-21's synthetic tile
    assert (berlin.destination, berlin.capacity, berlin.vp) == ("Berlin", 1, 1)
    assert any(p.vp == 0 for p in pack.passengers)  # l.175
    open_tiles = [p for p in pack.passengers if not p.not_in_era_1]
    assert len(open_tiles) >= pack.waiting_area.slots_per_city * 6  # AER-SET-01 can fill the waiting area
    for lookup in (lambda: pack.card(47), lambda: pack.passenger("P97"), lambda: pack.destination("Moscow")):
        with pytest.raises(KeyError):
            lookup()


# ---------------------------------------------------------------------------
# The map as a graph
# ---------------------------------------------------------------------------


def test_the_map_names_every_destination_of_the_text() -> None:
    pack = bundled_pack()
    g = pack.graph()
    assert isinstance(g, DiGraph)
    assert set(g.nodes) == set(EUROPE_NAMED) | set(OTHERS_NAMED)
    assert set(pack.in_region("Europe")) == set(EUROPE_NAMED)
    assert set(pack.start_cities) == set(START_CITIES)
    assert pack.market_of("Kenya") == "Africa" and pack.market_of("North America") is None


def test_nodes_carry_region_slots_and_the_three_player_blockers() -> None:
    """AER-R-29 (l.124) and AER-SET-04 (l.25): 6 "4/5" slots, one per start city, out of play with 3 players."""
    pack = bundled_pack()
    g = pack.graph()
    assert g.nodes["Paris"]["slots"] == 3 and g.nodes["Warsaw"]["slots"] == 2
    assert g.nodes["Paris"]["region"] == "Europe" and g.nodes["Paris"]["market"]
    assert sum(g.nodes[n]["four_five_slots"] for n in g.nodes) == THREE_PLAYER_BLOCKERS
    for d in pack.destinations:
        if d.start_city:
            assert d.slots_in_play(3) == d.slots - 1 >= 1
            assert d.slots_in_play(4) == d.slots_in_play(5) == d.slots
        else:
            assert d.slots_in_play(3) == d.slots
    assert {n for n in g.nodes if g.nodes[n]["special"]} == set(SPECIAL_DESTINATIONS)


def test_special_connections_are_one_way_from_every_european_destination() -> None:
    """AER-EX-05 (l.79): Paris -> Cairo and Stockholm -> Middle East; never back."""
    pack = bundled_pack()
    g = pack.graph()
    europe = pack.in_region("Europe")
    for special in SPECIAL_DESTINATIONS:
        for city in europe:
            assert g.has_edge(city, special) and g.edges[city, special]["directed"]
            assert g.edges[city, special]["special"]
            assert not g.has_edge(special, city)
    assert not g.has_edge("Cairo", "Paris") and not g.has_edge("Middle East", "Stockholm")
    assert g.edges["Paris", "North America"]["rolls"] == (14, 14, 14)  # l.105


def test_ordinary_connections_run_both_ways_with_colour_and_long_range() -> None:
    g = bundled_pack().graph()
    assert g.edges["Vienna", "Warsaw"]["colour"] == g.edges["Warsaw", "Vienna"]["colour"] == "white"  # l.86
    assert g.edges["India", "Ethiopia"]["long_range"]  # l.81
    assert g.edges["Australia", "Java"]["rolls"] == (12, 12) and not g.edges["Java", "Australia"]["long_range"]
    assert g.edges["Persia", "Burma"]["colour"] == "black"  # l.87
    # AER-EX-07: Frankfurt -> Madrid only as a hop over Paris.
    assert not g.has_edge("Frankfurt", "Madrid")
    assert g.has_edge("Frankfurt", "Paris") and g.has_edge("Paris", "Madrid")
    for _, _, attrs in g.edges(data=True):
        assert set(attrs) == {"colour", "long_range", "rolls", "directed", "special"}
        assert attrs["colour"] in ("white", "red", "black") or attrs["rolls"]


def test_the_map_is_playable_from_every_start_city() -> None:
    pack = bundled_pack()
    assert unreachable(pack.graph(), pack.start_cities) == []
    assert nx.is_weakly_connected(as_networkx(pack.graph()))


def test_graph_returns_a_fresh_graph() -> None:
    pack = bundled_pack()
    g = pack.graph()
    g.remove_node("Paris")
    assert "Paris" in pack.graph()


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


def _append(key: str, entry: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data[key].append(entry)

    return change


def _index(key: str, field: str, value: Any) -> int:
    data = bundled_pack_data()
    return next(i for i, e in enumerate(data[key]) if e[field] == value)


def _conn(a: str, b: str) -> int:
    data = bundled_pack_data()
    return next(i for i, c in enumerate(data["connections"]) if c["between"] == [a, b])


_PUB = {"source": "publisher", "why": "x"}
PARIS = _index("destinations", "name", "Paris")
KENYA = _index("destinations", "name", "Kenya")
ROME = _index("destinations", "name", "Rome")
VW = _conn("Vienna", "Warsaw")
LP = _conn("London", "Paris")

BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    # schema violations, translated to the entry path
    ("negative price", _set(["cards", 3, "price"], -1), "cards[3] (4).price", "minimum"),
    ("stage 4", _set(["cards", 20, "tiles", "stage"], 4), "cards[20] (21).tiles.stage", "maximum"),
    ("size 4 passenger", _set(["passengers", 4, "capacity"], 4), "passengers[4] (P05).capacity", "maximum"),
    (
        "unknown colour",
        _set(["connections", VW, "colour"], "purple"),
        f"connections[{VW}] (Vienna-Warsaw).colour",
        "purple",
    ),
    ("missing provenance", _delete(["cards", 2, "provenance"]), "cards[2] (3)", "provenance"),
    ("unknown field", _set(["destinations", PARIS, "airport"], True), f"destinations[{PARIS}] (Paris)", "airport"),
    ("bad face", _set(["supplies", "risk_die_faces", 0], "moon"), "supplies.risk_die_faces[0]", "skull"),
    (
        "bad ambiguity id",
        _set(["airport_tiles", "provenance", "ambiguity"], "AMB-2"),
        "airport_tiles.provenance.ambiguity",
        "AMB-2",
    ),
    # count violations
    ("45 cards", _delete(["cards", 45]), "cards", "46 plane cards"),
    ("95 passengers", _delete(["passengers", 0]), "passengers", "96 passenger tiles"),
    ("advantage count", _set(["advantages", 0, "count"], 5), "advantages[0] (Daring Pilot).count", "6 tiles"),
    ("advantage era", _set(["advantages", 4, "first_era"], 2), "advantages[4] (Radio Beacons).first_era", "era 3"),
    ("advantage missing", _delete(["advantages", 2]), "advantages", "2 to 6"),
    # unknown ids and duplicates
    ("unknown destination", _set(["connections", VW, "between", 1], "Moscow"), f"connections[{VW}]", "Moscow"),
    ("unknown passenger destination", _set(["passengers", 7, "destination"], "Oslo"), "passengers[7] (P08)", "Oslo"),
    (
        "unknown region",
        _set(["destinations", KENYA, "region"], "Mars"),
        f"destinations[{KENYA}] (Kenya).region",
        "Mars",
    ),
    (
        "unknown special",
        _set(["special_connections", 0, "to"], "Lisbon"),
        "special_connections[0] (Lisbon).to",
        "Lisbon",
    ),
    ("unknown americas", _set(["americas_bonus", "destinations", 0], "Peru"), "americas_bonus.destinations[0]", "Peru"),
    ("unknown vp row", _set(["vp_per_era", 0, "row"], "Oceania"), "vp_per_era[0] (Oceania).row", "Oceania"),
    ("duplicate card", _set(["cards", 1, "number"], 1), "cards[1] (1).number", "duplicate"),
    ("duplicate passenger", _set(["passengers", 1, "id"], "P01"), "passengers[1] (P01).id", "duplicate"),
    ("duplicate destination", _set(["destinations", 1, "name"], "London"), "destinations[1] (London).name", "twice"),
    (
        "duplicate connection",
        _set(["connections", LP, "between"], ["Warsaw", "Vienna"]),
        f"connections[{LP}]",
        "second connection",
    ),
    # the rulebook's structure
    ("no blocker", _set(["destinations", ROME, "four_five_slots"], 0), f"destinations[{ROME}] (Rome)", "4/5"),
    ("blocker elsewhere", _set(["destinations", KENYA, "four_five_slots"], 1), f"destinations[{KENYA}]", "4/5"),
    ("no room for home", _set(["destinations", ROME, "slots"], 1), f"destinations[{ROME}] (Rome).slots", "home"),
    ("start city not named", _set(["destinations", KENYA, "start_city"], True), f"destinations[{KENYA}]", "l.24"),
    ("colourless", _set(["connections", VW, "colour"], None), f"connections[{VW}] (Vienna-Warsaw).colour", "‡"),
    ("waiting order", _set(["waiting_area", "section_order", 0], "Zurich"), "waiting_area.section_order", "l."),
    ("refill order", _set(["waiting_area", "section_order"], list(reversed(START_CITIES))), "waiting_area", "Rome"),
    ("modifier of a non-start city", _set(["income_modifiers", 0, "city"], "Madrid"), "income_modifiers[0]", "start"),
    ("market ranks", _set(["vp_per_era", 0, "vp", 1], [3, 5]), "vp_per_era[0] (Europe).vp[1]", "l.167"),
    ("market tie", _set(["vp_per_era", 1, "vp", 0], [2, 2]), "vp_per_era[1] (Africa).vp[0]", "more than"),
    ("profit places", _set(["vp_per_era", 3, "vp", 2], [1, 2]), "vp_per_era[3] (Profit).vp[2]", "3 places"),
    ("risk row", _set(["risk", "targets", "red"], 11), "risk.table[2].rolls", "white + red says [12]"),
    ("no skull", _set(["supplies", "risk_die_faces", 0], 1), "supplies.risk_die_faces", "skull"),
    ("region tag", _set(["passengers", 0, "region"], "Africa"), "passengers[0] (P01).region", "Europe"),
    ("six players", _set(["players", "max"], 6), "players.max", "5 colour sets"),
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


def test_an_ordinary_connection_back_to_europe_is_refused() -> None:
    """l.79: Cairo -> Paris is never allowed, so no two-way connection joins Cairo to Europe."""
    change = _append("connections", {"between": ["Cairo", "Rome"], "colour": "red", "provenance": _PUB})
    with pytest.raises(PackError, match=r"connections\[\d+\] \(Cairo-Rome\): Cairo is joined to Europe only"):
        pack_from_data(_mutated(change), "bad.yaml")


def test_an_unreachable_destination_is_refused() -> None:
    def cut(data: dict[str, Any]) -> None:
        data["connections"] = [c for c in data["connections"] if "Australia" not in c["between"]]

    with pytest.raises(PackError, match=r"connections: Australia cannot be reached from the start city"):
        pack_from_data(_mutated(cut), "bad.yaml")


def test_a_passenger_no_plane_can_carry_is_refused() -> None:
    def small(data: dict[str, Any]) -> None:
        for card in data["cards"]:
            card["capacity"] = min(card["capacity"], 2)

    with pytest.raises(PackError, match=r"passengers\[3\] \(P04\)\.capacity: no plane card can carry it"):
        pack_from_data(_mutated(small), "bad.yaml")


def test_setup_needs_enough_tiles_without_the_era_1_mark() -> None:
    def marked(data: dict[str, Any]) -> None:
        for tile in data["passengers"][:80]:
            tile["not_in_era_1"] = True

    with pytest.raises(PackError, match=r"passengers: set-up fills 24 waiting spaces"):
        pack_from_data(_mutated(marked), "bad.yaml")


def test_long_range_connections_need_a_long_range_plane() -> None:
    def no_lr(data: dict[str, Any]) -> None:
        for card in data["cards"]:
            card["long_range"] = False

    with pytest.raises(PackError, match=r"cards: .*LR plane"):
        pack_from_data(_mutated(no_lr), "bad.yaml")


def test_a_missing_special_destination_is_refused() -> None:
    with pytest.raises(PackError, match=r"special_connections: the special destinations are"):
        pack_from_data(_mutated(_delete(["special_connections", 1])), "bad.yaml")


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
    scalar = tmp_path / "scalar.yaml"
    scalar.write_text("just words\n", "utf-8")
    with pytest.raises(PackError, match=r"scalar\.yaml: \(top level\): 'just words' is not of type 'object'"):
        load_pack(scalar)


def test_a_bad_pack_file_names_file_entry_and_field(tmp_path: Path) -> None:
    data = bundled_pack_data()
    data["cards"][5]["tiles"]["count"] = 12
    path = tmp_path / "publisher.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
    with pytest.raises(PackError) as info:
        load_pack(path)
    assert str(info.value).startswith(f"{path}: cards[5] (6).tiles.count:")


def test_a_publisher_pack_loads_and_reports_printed_disagreements(tmp_path: Path) -> None:
    """A real pack is authoritative: values that disagree with the text are warnings, not errors."""
    data = bundled_pack_data()
    data["name"] = "publisher"
    data["reconstructed"] = False
    paris = data["destinations"][PARIS]
    paris["slots"] = 4
    paris["provenance"] = dict(_PUB)
    path = tmp_path / "publisher.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), "utf-8")
    pack = load_pack(path)
    assert not pack.reconstructed and pack.destination("Paris").slots == 4
    assert printed_value_problems(pack) == [f"{path}: Paris has 3 slots (l.124)"]


def test_bundled_data_copies_are_unshared() -> None:
    """YAML aliases (one provenance for many entries) come back as separate objects."""
    data = bundled_pack_data()
    assert data["passengers"][1]["provenance"] == data["passengers"][2]["provenance"]
    assert data["passengers"][1]["provenance"] is not data["passengers"][2]["provenance"]
    data["passengers"][1]["provenance"]["why"] = "changed"
    assert bundled_pack_data()["passengers"][1]["provenance"]["why"] != "changed"


# ---------------------------------------------------------------------------
# Generated packs
# ---------------------------------------------------------------------------


@given(packs())
def test_prop_generated_packs_keep_the_counts_and_the_printed_facts(pack: Pack) -> None:
    assert [c.number for c in pack.cards] == list(range(1, CARD_COUNT + 1))
    assert len(pack.passengers) == PASSENGER_COUNT
    assert printed_value_problems(pack) == []
    biggest = max(c.capacity for c in pack.cards)
    assert all(1 <= p.capacity <= 3 and p.capacity <= biggest for p in pack.passengers)
    assert sum(1 for p in pack.passengers if not p.not_in_era_1) >= 6 * pack.waiting_area.slots_per_city
    for row in pack.vp_per_era:
        for era in (1, 2, 3):
            vp = row.for_era(era)
            assert list(vp) == sorted(vp, reverse=True)


@given(packs())
def test_prop_generated_maps_are_playable_graphs(pack: Pack) -> None:
    g = pack.graph()
    assert set(g.nodes) == {d.name for d in pack.destinations}
    assert unreachable(g, pack.start_cities) == []
    europe = set(pack.in_region("Europe"))
    assert set(pack.start_cities) == set(START_CITIES) and set(START_CITIES) <= europe
    for special in SPECIAL_DESTINATIONS:
        assert all(g.has_edge(city, special) for city in europe)
        assert not any(succ in europe for succ in g.successors(special))  # l.79: never back to Europe
    for a, b, attrs in g.edges(data=True):
        assert attrs["directed"] == attrs["special"] == (not g.has_edge(b, a))
        if not attrs["directed"]:
            assert g.edges[b, a] == attrs  # an ordinary connection runs both ways, the same
        assert attrs["colour"] is not None or attrs["rolls"]
    if any(attrs["long_range"] for *_, attrs in g.edges(data=True)):
        assert any(c.long_range for c in pack.cards)
    assert sum(d.slots - d.slots_in_play(3) for d in pack.destinations) == THREE_PLAYER_BLOCKERS
    assert all(d.slots_in_play(3) >= 1 for d in pack.destinations if d.start_city)


def test_the_shared_map_is_the_map_frozen_and_built_once() -> None:
    """Route look-ups read one frozen copy of the map; ``graph()`` still hands out a fresh, editable one."""
    pack = bundled_pack()
    shared = pack.map_graph()
    assert shared is pack.map_graph()
    assert shared.frozen and not pack.graph().frozen
    assert shared == pack.graph()
    with pytest.raises(FrozenGraph):
        shared.add_edge("Paris", "Nowhere")
