"""The SVG picture of an Aeroplanes state: well-formed, deterministic, and showing what is there.

Random seeded games for 3, 4 and 5 players stand in for the states a report meets; every ~40 steps
the picture is parsed back and its shapes counted against the state (a box per destination, a
square per airport tile and blocker, a line per connection, a tile per waiting passenger...).
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import attrs
import pytest

from rulecraft.core import CHANCE
from rulecraft.model.aeroplanes.game import AeroplanesGame
from rulecraft.model.aeroplanes.picture import svg
from rulecraft.model.aeroplanes.render import seat_name
from rulecraft.model.aeroplanes.state import AerState, Attempt, Phase
from rulecraft.registry import make_game
from rulecraft.svg import SVG_NAMESPACE

NS = f"{{{SVG_NAMESPACE}}}"


def _game() -> AeroplanesGame:
    game = make_game("aer")
    assert isinstance(game, AeroplanesGame)
    return game


def _states(game: AeroplanesGame, players: int, seed: int, chunk: int = 40) -> Iterator[AerState]:
    """The start state, then every ``chunk`` random steps (chance by its odds) until the game ends, and
    the first state with a placement attempt in progress (so an attempt is always drawn once)."""
    rng = random.Random(seed)
    state = game.new_game(players)
    yield state
    attempt_shown = False
    for _ in range(60):  # a bound, so a stalled game cannot hang the test
        for _ in range(chunk):
            if state.turn.attempt is not None and not attempt_shown:
                attempt_shown = True
                yield state
            if game.is_over(state):
                break
            if game.to_move(state) == CHANCE:
                action = game.sample_chance(state, rng)
            else:
                legal = game.legal_actions(state)
                if not legal:
                    break
                action = rng.choice(legal)
            state = game.apply(state, action)
        yield state
        if game.is_over(state):
            return


def _parse(game: AeroplanesGame, state: AerState) -> ET.Element:
    """Parse the picture, checking the root and that equal states give equal bytes."""
    out = svg(game, state)
    assert not out.startswith("<?xml"), "inlinable: no XML declaration"
    assert svg(game, state) == out
    assert game.picture(state) == out
    assert svg(game, game.state_from_json(game.state_to_json(state))) == out
    root = ET.fromstring(out)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    return root


def _classed(root: ET.Element, tag: str, name: str) -> list[ET.Element]:
    return [el for el in root.iter(f"{NS}{tag}") if name in (el.get("class") or "").split()]


def _content(el: ET.Element) -> str:
    """A text element's visible words (after its tooltip, when it has one)."""
    tooltip = el.find(f"{NS}title")
    return (el.text or "") if tooltip is None else (tooltip.tail or "")


def _titles(elements: list[ET.Element]) -> list[str]:
    return [el.findtext(f"{NS}title") or "" for el in elements]


def _check(game: AeroplanesGame, state: AerState) -> None:
    root = _parse(game, state)
    pack = game.pack
    n = len(state.players)
    # The map: a box per destination, named first in its tooltip, start cities marked.
    destinations = _classed(root, "g", "destination")
    assert sorted(t.split(" (")[0] for t in _titles(destinations)) == sorted(d.name for d in pack.destinations)
    assert len(_classed(root, "g", "start-city")) == len(pack.start_cities)
    tiles = [a for s in state.map for a in s.slots if a is not None]
    assert len(_classed(root, "rect", "airport")) == sum(1 for a in tiles if not a.blocker)
    assert len(_classed(root, "rect", "home")) == sum(1 for a in tiles if a.home)
    assert len(_classed(root, "rect", "blocked")) == sum(1 for a in tiles if a.blocker)
    assert len(_classed(root, "rect", "slot-empty")) == sum(1 for s in state.map for a in s.slots if a is None)
    if n == 3:
        assert len(_classed(root, "rect", "blocked")) == sum(d.four_five_slots for d in pack.destinations)
    else:
        assert not _classed(root, "rect", "blocked")
    # Each tile square is filled with its owner's seat colour and names the owner.
    for rect, title in zip(_classed(root, "rect", "airport"), _titles(_classed(root, "rect", "airport")), strict=True):
        assert rect.get("fill", "").startswith("#") and title.split(": ")[1][0] in "ABCDE"
    assert len(_classed(root, "g", "connection")) == len(pack.connections)
    assert len(_classed(root, "g", "long-range")) == sum(1 for c in pack.connections if c.long_range)
    assert len(_classed(root, "g", "special")) == len(pack.special_connections)
    assert len(_classed(root, "g", "region")) == len(pack.regions)
    # The attempt in progress is outlined, and its words shown.
    attempt = state.turn.attempt
    assert len(_classed(root, "g", "attempt")) == (0 if attempt is None else 1)
    if attempt is not None:
        (words,) = _titles(_classed(root, "g", "attempt"))
        assert f"card #{attempt.card}" in words and attempt.destination in words
    # Supplies, display, waiting area and overflow.
    assert len(_classed(root, "g", "display-card")) == len(state.display)
    waiting = [t for w in state.waiting for t in w.slots if t is not None]
    passengers = [_content(el) for el in _classed(root, "text", "passenger")]
    assert sorted(passengers) == sorted([*waiting, *state.overflow])
    assert len(_classed(root, "g", "waiting")) == len(state.waiting)
    assert len(_classed(root, "g", "advantage-supply")) == 5
    (marker,) = _titles(_classed(root, "g", "marker"))
    assert ("subsidy section" in marker) == state.marker_in_pool
    # One panel per player, with its cards, tiles on cards, advantages and engine failures.
    assert len(_classed(root, "g", "player")) == n
    assert len(_classed(root, "g", "to-play")) == (0 if state.phase is Phase.OVER else 1)
    labels = [_content(el) for el in _classed(root, "text", "seat-label")]
    for seat, p in enumerate(state.players):
        assert any(label.startswith(f"{seat_name(seat)} ·") and f"£{p.money} · {p.vp} VP" in label for label in labels)
    assert len(_classed(root, "g", "card")) == sum(len(p.cards) for p in state.players)
    assert len(_classed(root, "g", "face-down")) == sum(1 for p in state.players for c in p.cards if c.face_down)
    assert len(_classed(root, "rect", "card-tile")) == sum(c.tiles for p in state.players for c in p.cards)
    assert len(_classed(root, "g", "supply")) == 3 * n
    assert len(_classed(root, "g", "advantage")) == sum(1 for p in state.players for k in p.advantages if k)
    assert len(_classed(root, "circle", "engine-failure")) == sum(p.engine_failures for p in state.players)


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (5, 3)])
def test_aer_pictures_show_the_state(players: int, seed: int) -> None:
    game = _game()
    seen = 0
    attempts = 0
    state = None
    for state in _states(game, players, seed):
        _check(game, state)
        attempts += state.turn.attempt is not None
        seen += 1
    assert state is not None and game.is_over(state), "the random game reaches its end"
    assert seen >= 5
    assert attempts >= 1, "some pictures show a placement attempt in progress"
    # The game-over picture names the final totals and the winners.
    root = _parse(game, state)
    (status,) = _classed(root, "text", "status")
    line = status.findtext(f"{NS}title") or ""
    winners = ", ".join(seat_name(s) for s in game.winners(state))
    assert line.endswith(f"winner: {winners}")
    for seat, total in game.scores(state).items():
        assert f"{seat_name(seat)} {total}" in line
    assert "game over" in (root.findtext(f"{NS}title") or "")


def test_aer_picture_outlines_a_hop() -> None:
    """An LR hop's attempt outlines origin, via and destination, and the target slot."""
    game = _game()
    hop = Attempt(card=6, destination="Warsaw", origin="Paris", via="Berlin", slot=1, rolls=((12, 0),))
    start = game.new_game(4)
    state = attrs.evolve(start, turn=attrs.evolve(start.turn, attempt=hop))
    root = _parse(game, state)
    (group,) = _classed(root, "g", "attempt")
    assert (group.findtext(f"{NS}title") or "").startswith("Attempt: card #6 tile Paris -> Berlin -> Warsaw slot 1")
    assert len(list(group.iter(f"{NS}rect"))) == 4  # three boxes and the slot
    (route,) = _classed(root, "polyline", "attempt-route")
    assert len((route.get("points") or "").split()) == 3
