"""Kings of Air and Steam component packs: the bundled reconstruction, the loader's checks, generated packs."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import networkx as nx
import pytest
import yaml
from hypothesis import given

from rulecraft.model.kings_of_air_and_steam.components import (
    BOARD_SETS,
    BUNDLED_SOURCE,
    GOODS,
    LETTERS,
    REQUIRED_LAYOUTS,
    TEAM_SPECIALS,
    GameMap,
    Pack,
    PackError,
    bundled_pack,
    bundled_pack_data,
    load_pack,
    pack_from_data,
    pack_schema,
    printed_value_problems,
    team_chart_problems,
)
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.strategies import packs

BUNDLED = Path(__file__).resolve().parents[1] / "model/kings_of_air_and_steam/packs/reconstructed.yaml"
# KAS-R-07: every player needs a line without another player's starting depot.
MIN_LINES = {"ABC": 3, "ABCDE": 5, "ABCFG": 5, "ABCDEFG": 7}


def rail_network(game_map: GameMap) -> nx.MultiGraph[str]:
    """Cities as nodes, rail lines as edges: the graph shipments travel on (KAS-R-37)."""
    graph: nx.MultiGraph[str] = nx.MultiGraph()
    graph.add_nodes_from(c.name for c in game_map.cities)
    for line in game_map.lines:
        graph.add_edge(*line.ends, key=line.id)
    return graph


# ---------------------------------------------------------------------------
# The bundled pack
# ---------------------------------------------------------------------------


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(pack_schema())


def test_the_bundled_pack_loads_with_the_rulebook_counts() -> None:
    pack = bundled_pack()
    assert pack is bundled_pack(), "cached"
    assert pack.source == BUNDLED_SOURCE and pack.reconstructed
    assert [b.letter for b in pack.boards] == list(LETTERS)
    assert len(pack.deck) == 12 and len(pack.teams) == 7
    assert [lv.level for lv in pack.airship_track] == [1, 2, 3, 4, 5, 6]
    assert [lv.vp for lv in pack.rail_track] == [0, 0, 0, 5, 15, 30]
    assert pack.market_track == (4, 5, 6, 8)


def test_the_bundled_file_loads_from_its_path_too() -> None:
    from_file = load_pack(BUNDLED)
    assert from_file.source == str(BUNDLED)
    assert from_file.boards == bundled_pack().boards and from_file.teams == bundled_pack().teams


def test_the_kas_r_01_layouts_are_present_with_their_boards_and_fillers() -> None:
    pack = bundled_pack()
    for name, (letters, fillers) in REQUIRED_LAYOUTS.items():
        layout = pack.layout(name)
        assert layout.boards == letters
        pieces = {
            len(p["hexes"]) for lay in bundled_pack_data()["layouts"] if lay["name"] == name for p in lay["fillers"]
        }
        assert len(pieces) == 1, "identical fillers"
        assert len(layout.fillers) == fillers * pieces.pop()
    assert {lay for sets in BOARD_SETS.values() for lay in sets} <= {lay.name for lay in pack.layouts}


def test_every_entry_says_where_its_values_come_from() -> None:
    pack = bundled_pack()
    entries: list[Any] = [*pack.boards, *pack.layouts, *pack.airship_track, *pack.rail_track, *pack.deck]
    for team in pack.teams:
        entries += [team, team.special, *team.airship_track]
    labels = ("reconstructed", "partly printed", "printed")
    assert all(e.provenance.startswith(labels) and ":" in e.provenance for e in entries), "a source and a reason"
    # City and RailLine carry no provenance field: the YAML entries must still have one.
    for board in bundled_pack_data()["boards"]:
        for entry in [*board["cities"], *board["lines"]]:
            assert entry["provenance"]["source"] in labels and entry["provenance"]["why"]


def test_the_printed_values_and_the_team_charts_give_no_warnings() -> None:
    pack = bundled_pack()
    assert printed_value_problems(pack) == []
    assert team_chart_problems(pack) == []


def test_the_teams_have_their_special_cards_and_priorities() -> None:
    pack = bundled_pack()
    assert sorted(t.priority for t in pack.teams) == list(range(1, 8))
    for team in pack.teams:
        assert (team.special.special, team.special.moves) == TEAM_SPECIALS[team.name]
        assert pack.card(team.special.id) == team.special
    assert any(0 in c.moves for c in pack.deck) and {1, 2, 3, 4} <= {m for c in pack.deck for m in c.moves}


@pytest.mark.parametrize("layout", list(REQUIRED_LAYOUTS))
def test_each_layout_assembles_into_a_playable_map(layout: str) -> None:
    pack = bundled_pack()
    game_map = GameMap.from_pack(pack, layout)
    board_hexes = sum(len(pack.board(x).hexes) for x in pack.layout(layout).boards)
    assert len(game_map.hexes) == board_hexes + len(pack.layout(layout).fillers), "nothing overlaps"
    assert any(h.partial for h in game_map.hexes.values()), "KAS-R-27 partial hexes exist"
    assert {g for _, g in game_map.factories} == set(GOODS), "every goods type is produced"
    assert {c.demand for c in game_map.cities} == set(GOODS), "every goods type is demanded"
    assert len(game_map.lines) >= MIN_LINES[layout]
    names = {c.name for c in game_map.cities}
    for line in game_map.lines:
        assert set(line.ends) <= names and 1 <= len(line.hexes) <= 4
        assert all(game_map.line_of(h) == line.id and game_map.can_end_on(h) for h in line.hexes)
        assert game_map.city(line.ends[0]).at.distance(line.hexes[0]) == 1
        assert game_map.city(line.ends[1]).at.distance(line.hexes[-1]) == 1
    graph = rail_network(game_map)
    assert nx.is_connected(graph)
    # Multi-stop shipments (KAS-EX-13) need routes over several lines.
    assert nx.diameter(nx.Graph(graph)) >= 3


# ---------------------------------------------------------------------------
# Broken packs: each names the file, the entry and the field
# ---------------------------------------------------------------------------

Mutation = Callable[[dict[str, Any]], None]


def _board(data: dict[str, Any], letter: str) -> dict[str, Any]:
    board: dict[str, Any] = next(b for b in data["boards"] if b["letter"] == letter)
    return board


def _line_gap(data: dict[str, Any]) -> None:
    a = _board(data, "A")
    del a["lines"][0]["hexes"][1]  # A1: (1,-2) (0,-2) (-1,-1) -> (1,-2) (-1,-1)
    del next(h for h in a["hexes"] if (h["q"], h["r"]) == (0, -2))["rail"]


def _no_zero_card(data: dict[str, Any]) -> None:
    for card in data["deck"]:
        card["moves"] = [m or 1 for m in card["moves"]]


def _overlapping_boards(data: dict[str, Any]) -> None:
    _board(data, "D")["hexes"].append({"q": 0, "r": 0})


def _add_layout(data: dict[str, Any]) -> None:
    data["layouts"].append({"name": "ABE", "boards": ["A", "B", "E"], "fillers": [], "provenance": "test"})


def _set(path: str, value: Any) -> Mutation:
    """Set data[path] where path is 'a.0.b' (ints index lists)."""

    def mutate(data: dict[str, Any]) -> None:
        keys: list[str | int] = [int(k) if k.lstrip("-").isdigit() else k for k in path.split(".")]
        node: Any = data
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value

    return mutate


def _delete(path: str) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        keys: list[str | int] = [int(k) if k.isdigit() else k for k in path.split(".")]
        node: Any = data
        for k in keys[:-1]:
            node = node[k]
        del node[keys[-1]]

    return mutate


BROKEN: list[tuple[str, Mutation, str, str]] = [
    ("rail line with a gap", _line_gap, "boards[0] (A).lines[0] (A1).hexes[1]", "gap"),
    (
        "line ends swapped",
        _set("boards.0.lines.0.ends", ["Wiesbaden", "Bown Town"]),
        "boards[0] (A).lines[0] (A1).hexes[0]",
        "not adjacent to the first city Wiesbaden",
    ),
    (
        "line to itself",
        _set("boards.0.lines.0.ends", ["Bown Town", "Bown Town"]),
        "boards[0] (A).lines[0] (A1).ends",
        "two different cities",
    ),
    (
        "line to an unknown city",
        _set("boards.0.lines.0.ends.1", "Atlantis"),
        "boards[0] (A).lines[0] (A1).ends[1]",
        "unknown city Atlantis",
    ),
    (
        "line ends on a board the layout lacks",
        _add_layout,
        "boards[0] (A).lines[1] (A2).ends[1]",
        "New Belfort is on board C, which layout ABE",
    ),
    (
        "rail hex not listed by its line",
        _set("boards.0.hexes.1.rail", "A1"),
        "boards[0] (A).hexes[1] (-2,1).rail",
        "does not list this hex",
    ),
    (
        "factory and city on one hex",
        _set("boards.0.hexes.0.factory", "food"),
        "boards[0] (A).hexes[0] (-2,0).city",
        "also has factory",
    ),
    (
        "rail on a partial hex",
        _set("boards.0.hexes.3.partial", True),
        "boards[0] (A).hexes[3] (-1,-1).partial",
        "full hex",
    ),
    (
        "unknown goods type",
        _set("boards.0.hexes.2.factory", "oil"),
        "boards[0] (A).hexes[2] (-2,2).factory",
        "'oil' is not one of",
    ),
    (
        "unknown demand",
        _set("boards.0.cities.0.demand", "tea"),
        "boards[0] (A).cities[0] (Bown Town).demand",
        "'tea' is not one of",
    ),
    ("city off its hex", _set("boards.0.cities.0.q", 1), "boards[0] (A).cities[0] (Bown Town).q", "not labelled city"),
    ("six boards", _delete("boards.6"), "boards", "missing G"),
    ("overlapping boards", _overlapping_boards, "layouts[1] (ABCDE).boards", "boards A and D overlap at (0,0)"),
    (
        "filler on a board",
        _set("layouts.0.fillers.0.hexes.0", {"q": 0, "r": 0}),
        "layouts[0] (ABC).fillers[0].hexes[0] (0,0)",
        "overlaps board A",
    ),
    ("missing layout", _delete("layouts.2"), "layouts", "ABCFG is missing"),
    (
        "wrong boards in a layout",
        _set("layouts.1.boards", ["A", "B", "C", "D", "F"]),
        "layouts[1] (ABCDE).boards",
        "KAS-R-01",
    ),
    ("wrong filler count", _delete("layouts.0.fillers.2"), "layouts[0] (ABC).fillers", "3 fillers"),
    ("deck without a 0 card", _no_zero_card, "deck", "movement 0 (p.11)"),
    ("eleven cards", _delete("deck.11"), "deck", "12 standard cards"),
    ("duplicate card id", _set("deck.1.id", "S01"), "deck[1] (S01).id", "twice"),
    ("standard card with two moves", _set("deck.3.moves", [2, 3]), "deck[3] (S04).moves", "exactly one"),
    ("three diamonds", _set("deck.0.diamonds", 3), "deck[0] (S01).diamonds", "maximum of 2"),
    ("letter H", _set("deck.0.letter", "H"), "deck[0] (S01).letter", "'H' is not one of"),
    ("no provenance", _delete("deck.0.provenance"), "deck[0] (S01)", "'provenance' is a required property"),
    ("decreasing airship track", _set("airship_track.3.capacity", 2), "airship_track[3].capacity", "decrease"),
    ("an upgrade raising nothing", _set("airship_track.3.capacity", 3), "airship_track[3]", "raises neither"),
    ("free upgrade", _set("airship_track.4.cost", 0), "airship_track[4].cost", "positive"),
    ("five airship levels", _delete("airship_track.5"), "airship_track", "6 levels"),
    ("wrong rail VP", _set("rail_track.4.vp", 10), "rail_track[4].vp", "15 VP (p.16)"),
    ("decreasing market", _set("market_track", [4, 6, 5, 8]), "market_track[2]", "below"),
    ("market not ending at $8", _set("market_track", [4, 5, 6, 7]), "market_track[3]", "$8"),
    ("shared priority", _set("teams.1.priority", 1), "teams[1] (DaVinci).priority", "KAS-P-06"),
    ("wrong special movement", _set("teams.1.special.moves", [6]), "teams[1] (DaVinci).special.moves", "[7]"),
    (
        "wrong special effect",
        _set("teams.0.special.special", "straight"),
        "teams[0] (Emperor).special.special",
        "two-actions",
    ),
    (
        "wrong characters",
        _set("teams.0.characters", ["Harvey Golding", "Eli Diamond"]),
        "teams[0] (Emperor).characters",
        "Reginald Kain",
    ),
    (
        "team chart level without a cost",
        _delete("teams.2.airship_track.1.cost"),
        "teams[2] (Sphinx).airship_track[1]",
        "'cost' is a required property",
    ),
    (
        "provenance without a reason",
        _delete("rail_track.2.provenance.why"),
        "rail_track[2].provenance",
        "'why' is a required property",
    ),
    (
        "decreasing team chart",
        _set("teams.2.airship_track.4.diamonds", 0),
        "teams[2] (Sphinx).airship_track[4].diamonds",
        "decrease",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "where", "message"), [pytest.param(m, w, msg, id=name) for name, m, w, msg in BROKEN]
)
def test_a_broken_pack_names_the_file_the_entry_and_the_field(
    tmp_path: Path, mutate: Mutation, where: str, message: str
) -> None:
    data = bundled_pack_data()
    mutate(data)
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), "utf-8")
    with pytest.raises(PackError) as info:
        load_pack(path)
    err = info.value
    assert (err.source, err.where) == (str(path), where)
    assert message in err.message
    assert str(err) == f"{path}: {where}: {err.message}"


def test_a_file_that_is_not_yaml_or_missing_is_explained(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\nboards: {", "utf-8")
    with pytest.raises(PackError) as info:
        load_pack(bad)
    assert (info.value.source, info.value.where) == (str(bad), "(file)") and "not valid YAML" in info.value.message
    missing = tmp_path / "missing.yaml"
    with pytest.raises(PackError) as info:
        load_pack(missing)
    assert (info.value.source, info.value.where) == (str(missing), "(file)") and "cannot read" in info.value.message
    scalar = tmp_path / "scalar.yaml"
    scalar.write_text("42\n", "utf-8")
    with pytest.raises(PackError) as info:
        load_pack(scalar)
    assert info.value.where == "(top level)"


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (_set("airship_track.1.cost", 4), "level 2 cost is 4, the rulebook shows 3 (KAS-EX-11)"),
        (_set("airship_track.2.diamonds", 1), None),  # level 3 diamond 1 would break the p.12 step rule first
        (_set("rail_track.3.cost", 5), "rail_track level 4 cost is 5, the rulebook shows 4 (KAS-EX-12)"),
        (_set("market_track", [4, 5, 7, 8]), "market_track[2] is 7, the rulebook shows $6 (KAS-EX-01)"),
    ],
)
def test_printed_values_are_warnings_not_errors(mutate: Mutation, fragment: str | None) -> None:
    data = bundled_pack_data()
    mutate(data)
    if fragment is None:
        with pytest.raises(PackError):
            pack_from_data(data, "edited.yaml")
        return
    problems = printed_value_problems(pack_from_data(data, "edited.yaml"))
    assert len(problems) == 1 and fragment in problems[0] and problems[0].startswith("edited.yaml: ")


def test_a_team_chart_against_kas_p_05_is_a_warning() -> None:
    data = bundled_pack_data()
    data["teams"][5]["airship_track"] = data["teams"][3]["airship_track"]  # Sky Castle flies Rose & Thorn's chart
    problems = team_chart_problems(pack_from_data(data, "edited.yaml"))
    assert problems and all("Sky Castle" in p for p in problems)


def test_the_packaged_resource_is_the_repository_file() -> None:
    resource = files("rulecraft.model.kings_of_air_and_steam").joinpath("packs/reconstructed.yaml")
    assert resource.read_text("utf-8") == BUNDLED.read_text("utf-8")
    schema = files("rulecraft.model.kings_of_air_and_steam").joinpath("packs/schema.json")
    assert json.loads(schema.read_text("utf-8")) == pack_schema()


# ---------------------------------------------------------------------------
# Generated packs
# ---------------------------------------------------------------------------


def _raises_each_step(track: tuple[Any, ...]) -> bool:
    return all(
        b.cost > 0
        and b.diamonds >= a.diamonds
        and b.capacity >= a.capacity
        and (b.diamonds, b.capacity) != (a.diamonds, a.capacity)
        for a, b in itertools.pairwise(track)
    )


@given(packs())
def test_generated_packs_satisfy_the_rulebook_constraints(pack: Pack) -> None:
    assert pack.boards == bundled_pack().boards, "the map is the bundled one"
    assert len(pack.deck) == 12 and any(c.moves == (0,) for c in pack.deck)
    assert all(len(c.moves) == 1 and 0 <= c.diamonds <= 2 and c.letter in LETTERS for c in pack.deck)
    assert {1, 2, 3, 4} <= {c.moves[0] for c in pack.deck} and {"B", "C"} <= {c.letter for c in pack.deck}
    assert list(pack.market_track) == sorted(pack.market_track) and pack.market_track[-1] == 8
    assert _raises_each_step(pack.airship_track) and pack.airship_track[0].cost == 0
    assert all(_raises_each_step(t.airship_track) for t in pack.teams)
    assert Counter(t.priority for t in pack.teams) == Counter(range(1, 8))
    assert all((t.special.special, t.special.moves) == TEAM_SPECIALS[t.name] for t in pack.teams)
    assert printed_value_problems(pack) == []
    assert team_chart_problems(pack) == []
    assert GameMap.from_pack(pack, "ABC").factories == GameMap.from_pack(bundled_pack(), "ABC").factories
    assert Hex(0, 0) in GameMap.from_pack(pack, "ABC").hexes


def test_rail_hexes_are_every_hex_of_every_line_sorted() -> None:
    """KAS-R-33: a depot goes on a rail hex; the listing move generation uses is every line's hexes, once,
    in (q, r) order."""
    game_map = GameMap.from_pack(bundled_pack(), "ABC")
    expected = sorted({(h.q, h.r) for line in game_map.lines for h in line.hexes})
    assert [(h.q, h.r) for h in game_map.rail_hexes()] == expected
    assert game_map.rail_hexes() is game_map.rail_hexes()  # built once with the map
