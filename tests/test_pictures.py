"""SVG pictures of game states: well-formed, deterministic, and showing what is there.

Random seeded games stand in for the states a report meets; at several
points along each game the picture is parsed back and its shapes counted
against the state (a hexagon per map hex, a marker per airship, a card per
display field...), so a picture that silently drops content fails here.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from rulecraft.core import Game
from rulecraft.model.airships.picture import svg as airships_svg
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.picture import short_names
from rulecraft.model.kings_of_air_and_steam.picture import svg as kas_svg
from rulecraft.registry import make_game
from rulecraft.svg import SVG_NAMESPACE, Drawing

NS = f"{{{SVG_NAMESPACE}}}"


def _states(game: Game[Any, Any], players: int, seed: int, chunk: int) -> Iterator[Any]:
    """The start state, then every ``chunk`` random steps until the game ends."""
    rng = random.Random(seed)
    state = game.new_game(players, **game.random_options(rng, players))
    yield state
    for _ in range(40):  # a bound, so a stalled game cannot hang the test
        state, log = game.play_random(state, rng, max_steps=chunk)
        yield state
        if not log or game.is_over(state):
            return


def _parse(game: Game[Any, Any], state: Any, draw: Any) -> ET.Element:
    """Parse the picture, checking the root and that equal states give equal bytes."""
    out = draw(game, state)
    assert isinstance(out, str)
    assert not out.startswith("<?xml"), "inlinable: no XML declaration"
    # Determinism: the same state again, and an equal state rebuilt from JSON.
    assert draw(game, state) == out
    assert draw(game, game.state_from_json(game.state_to_json(state))) == out
    root = ET.fromstring(out)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    return root


def _classed(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{NS}{tag}") if name in (el.get("class") or "").split()]


def _texts(root: ET.Element) -> set[str]:
    return {el.text or "" for el in root.iter(f"{NS}text")}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_airships_pictures_show_the_state(players: int, seed: int) -> None:
    game = make_game("air")
    seen = 0
    for state in _states(game, players, seed, chunk=37):
        root = _parse(game, state, airships_svg)
        texts = _texts(root)
        for seat, board in enumerate(state.boards):
            assert f"seat {seat} · {board.nation}" in texts
        filled = sum(1 for row in state.display for card in row if card is not None)
        assert len(_classed(root, "g", "display-card")) == filled
        assert len(_classed(root, "g", "display-empty")) == 18 - filled
        assert len(_classed(root, "g", "airship-field")) == 4
        on_boards = sum(1 for b in state.boards for c in b.departments if c is not None)
        assert len(_classed(root, "g", "board-card")) == on_boards
        assert len(_classed(root, "g", "board-airship")) == sum(len(b.airships) for b in state.boards)
        assert len(_classed(root, "g", "stage")) == (4 if state.hindenburg else 0)
        assert len(_classed(root, "g", "company")) == players
        # Exactly one company is highlighted while the game runs, none after.
        assert len(_classed(root, "g", "to-play")) == (0 if game.is_over(state) else 1)
        seen += 1
    assert seen >= 3


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (7, 3)])
def test_kas_pictures_show_the_state(players: int, seed: int) -> None:
    game = make_game("kas")
    assert isinstance(game, KingsOfAirAndSteamGame)
    seen = 0
    for state in _states(game, players, seed, chunk=60):
        root = _parse(game, state, kas_svg)
        game_map = game.ctx.map_of(state)
        hexes = _classed(root, "polygon", "hex")
        assert len(hexes) == len(game_map.hexes)
        # Each hexagon's tooltip names its own hex first.
        named = sorted((el.findtext(f"{NS}title") or "").split(" (q=")[0] for el in hexes)
        assert named == sorted(f"hex {at}" for at in game_map.hexes)
        placed = sum(1 for p in state.players if p.position is not None)
        assert len(_classed(root, "g", "airship")) == placed
        assert len(_classed(root, "g", "depot")) == len(state.depots)
        assert len(_classed(root, "g", "city")) == len(game_map.cities)
        assert len(_classed(root, "g", "factory")) == len(game_map.factories)
        assert len(_classed(root, "g", "player")) == players
        assert len(_classed(root, "g", "price")) == 5
        labels = {el.text or "" for el in _classed(root, "text", "seat-label")}
        for seat in range(players):
            assert any(label.startswith(f"seat {seat}") for label in labels)
        seen += 1
    assert seen >= 2


def test_kas_city_marks_tell_cities_apart() -> None:
    names = ["Warsop", "Wiesbaden", "Copperfield", "Cogsworth", "Irdyo"]
    assert short_names(names) == {
        "Warsop": "Wa",
        "Wiesbaden": "Wi",
        "Copperfield": "Cop",
        "Cogsworth": "Cog",
        "Irdyo": "I",
    }


def test_svg_text_and_attributes_are_escaped() -> None:
    nasty = "a<b & c>\"d'"
    d = Drawing(100, 50, title=nasty)
    d.text(10, 20, nasty, title=nasty, class_='x"y')
    with d.group(title=nasty, class_="g<&>"):
        d.rect(0, 0, 10, 10, title=nasty)
    out = d.to_string()
    assert "a<b" not in out and 'c>"d' not in out
    assert "a&lt;b &amp; c&gt;" in out
    root = ET.fromstring(out)
    assert root.findtext(f"{NS}title") == nasty
    text = root.find(f"{NS}text")
    assert text is not None and text.get("class") == 'x"y'
    tooltip = text.find(f"{NS}title")  # first, so the text's own content is its tail
    assert tooltip is not None and tooltip.text == nasty and tooltip.tail == nasty
    group = root.find(f"{NS}g")
    assert group is not None and group.get("class") == "g<&>" and group.findtext(f"{NS}title") == nasty


def test_svg_output_is_deterministic_and_standalone() -> None:
    def draw() -> str:
        d = Drawing(120.5, 80)
        d.polygon([(0.1 + 0.2, 1 / 3), (10, -0.0), (5, 7.25)], fill="#123456")
        d.circle(5, 5, 2)
        d.line(0, 0, 10, 10, dashed=True)
        d.polyline([(0, 0), (1, 2), (3, 4)], dash="2 5")
        with d.group(offset=(3, 4)):
            d.text(1, 2, "hi", anchor="middle", bold=True)
        return d.to_string()

    out = draw()
    assert out == draw()
    assert out.startswith(f'<svg xmlns="{SVG_NAMESPACE}" viewBox="0 0 120.5 80"')
    assert 'points="0.3,0.33 10,0 5,7.25"' in out
    assert 'transform="translate(3,4)"' in out
    ET.fromstring(out)


def test_svg_refuses_to_close_inside_a_group() -> None:
    d = Drawing(10, 10)
    with d.group(), pytest.raises(RuntimeError):
        d.to_string()


@pytest.mark.parametrize(("players", "seed"), [(1, 4), (2, 1), (3, 2), (4, 3)])
def test_steamopolis_pictures_show_the_state(players: int, seed: int) -> None:
    from rulecraft.model.steamopolis.game import SteamopolisGame
    from rulecraft.model.steamopolis.picture import svg as stm_svg

    game = make_game("stm")
    assert isinstance(game, SteamopolisGame)
    seen = 0
    for state in _states(game, players, seed, chunk=150):
        root = _parse(game, state, stm_svg)
        assert len(_classed(root, "g", "district")) == len(game.ctx.districts(state))
        assert len(_classed(root, "g", "board-stone")) == len(state.board)
        assert len(_classed(root, "circle", "gauge-stone")) == sum(p.gauge.stones() for p in state.players)
        assert len(_classed(root, "rect", "bonus-marker")) == sum(len(p.gauge.marker_spaces()) for p in state.players)
        assert len(_classed(root, "line", "base-marker")) == players
        assert len(_classed(root, "g", "room-tile")) == sum(1 for p in state.players for t in p.machine_room if t)
        assert len(_classed(root, "circle", "parasite")) == sum(1 for q in state.parasites if q.host is not None)
        assert len(_classed(root, "g", "player")) == players
        assert len(_classed(root, "g", "to-play")) == (0 if game.is_over(state) else 1)
        standing = {state.passengers.banker, state.passengers.stoker} - {None}  # aboard: not on a level
        assert len(_classed(root, "text", "passenger")) == len(standing)
        seen += 1
    assert seen >= (2 if players == 1 else 3)  # a random solo game is soon lost on time pressure


# The Airships card borders by department, p.6 ([EN] "Overview and effect of individual expansion
# cards", and p.1's component list): hue ranges in degrees, and whether the colour is a dark one.
AIR_BORDERS = {
    "engineer": ("orange", (20, 40), False),
    "pilot": ("brown (the Captains)", (15, 40), True),
    "finance": ("purple", (260, 310), False),
    "material": ("blue", (195, 240), False),
    "hangar": ("yellow", (45, 65), False),
    "engine": ("green", (90, 160), False),
}


@pytest.mark.parametrize("department", sorted(AIR_BORDERS))
def test_airships_departments_have_the_rulebooks_border_colours(department: str) -> None:
    import colorsys

    from rulecraft.model.airships.components import Department
    from rulecraft.model.airships.picture import DEPT_FILL

    name, (low, high), dark = AIR_BORDERS[department]
    fill = DEPT_FILL[Department(department)].lstrip("#")
    r, g, b = (int(fill[i : i + 2], 16) / 255 for i in (0, 2, 4))
    hue, lightness, _ = colorsys.rgb_to_hls(r, g, b)
    assert low <= hue * 360 <= high, f"{department} should be {name}, #{fill} has hue {hue * 360:.0f}"
    assert (lightness < 0.4) == dark, f"{department} should be {name}, #{fill} has lightness {lightness:.2f}"
