"""Hypothesis strategies for writing your own property tests of rulecraft games.

Everything except :func:`airships_packs` and :func:`airships_games` goes
through the game-agnostic :class:`rulecraft.core.Game` interface and the
registry, so it works for any registered game::

    from hypothesis import given, strategies as st
    from rulecraft import strategies as rs

    @given(st.data())
    def test_legal_actions_pass_the_check(data):
        game = data.draw(rs.games("air"))
        state = data.draw(rs.reachable_states(game, max_steps=200))
        if game.legal_actions(state):
            action = data.draw(rs.legal_actions(game, state))
            assert game.check(state, action) is None

Strategies:

- :func:`player_counts` -- a legal number of players for a game;
- :func:`readings` -- a dict of reading overrides drawn from the game's
  ambiguity register (never a registered-but-not-modelled reading);
- :func:`games` -- configured game instances (readings drawn or given);
- :func:`reachable_states` -- a state reached from ``new_game`` by random
  legal play, chance included (``reachable_histories`` also returns the log);
- :func:`legal_actions` / :func:`chance_actions` -- an action legal in a state;
- :func:`airships_packs` -- Airships component packs that keep the
  rulebook's counts and ranges; :func:`airships_games` plays them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulecraft.core import Game, RulecraftError
from rulecraft.registry import game_class
from rulecraft.ruleset import Ruleset, UnknownReading

__all__ = [
    "airships_games",
    "airships_packs",
    "chance_actions",
    "games",
    "legal_actions",
    "not_modelled",
    "player_counts",
    "reachable_histories",
    "reachable_states",
    "readings",
]

AnyGame = Game[Any, Any]
ReadingsArg = Mapping[str, str] | st.SearchStrategy[dict[str, str]] | None


# -- readings and games ---------------------------------------------------------------


def player_counts(game: str | AnyGame = "air") -> st.SearchStrategy[int]:
    """A legal player count.

    For a game id: between the class's ``min_players`` and ``max_players``.
    For a configured game: the counts its ``new_game`` accepts, which a
    reading may widen (e.g. Airships' AIR-AMB-28 'one').
    """
    if isinstance(game, str):
        cls = game_class(game)
        return st.integers(min_value=cls.min_players, max_value=cls.max_players)
    counts = [n for n in range(1, game.max_players + 1) if _accepts(game, n)]
    return st.sampled_from(counts)


def _accepts(game: AnyGame, players: int) -> bool:
    try:
        game.new_game(players)
    except RulecraftError:
        return False
    return True


@cache
def not_modelled(game_id: str) -> frozenset[tuple[str, str]]:
    """(ambiguity, reading) pairs the game registers but refuses to play.

    Found through the interface: configuring the game with the reading
    raises :class:`~rulecraft.ruleset.UnknownReading`.
    """
    cls = game_class(game_id)
    refused: set[tuple[str, str]] = set()
    for amb in cls.register:
        for key in amb.keys():  # noqa: SIM118 - Ambiguity.keys() is a method, not a dict
            try:
                cls.configured(readings={amb.id: key})
            except UnknownReading:
                refused.add((amb.id, key))
    return frozenset(refused)


def readings(
    game_id: str = "air",
    *,
    exclude: set[tuple[str, str]] | frozenset[tuple[str, str]] | None = None,
) -> st.SearchStrategy[dict[str, str]]:
    """A dict of reading overrides ``{"AIR-AMB-09": "C", ...}`` from the register.

    Each registered ambiguity is either left at its default (absent from the
    dict) or given one of its readings.  ``exclude`` lists ``(id, reading)``
    pairs never to draw; by default, those the game refuses to play
    (:func:`not_modelled`).  Shrinks towards the printed defaults.
    """
    register = game_class(game_id).register
    banned = not_modelled(game_id) if exclude is None else frozenset(exclude)
    choices: dict[str, st.SearchStrategy[str | None]] = {}
    for amb in register:
        keys = [k for k in amb.keys() if (amb.id, k) not in banned]  # noqa: SIM118
        if keys:
            choices[amb.id] = st.none() | st.sampled_from(keys)
    return st.fixed_dictionaries(choices).map(lambda drawn: {k: v for k, v in drawn.items() if v is not None})


def _readings_strategy(game_id: str, given: ReadingsArg) -> st.SearchStrategy[dict[str, str]]:
    if given is None:
        return readings(game_id)
    if isinstance(given, st.SearchStrategy):
        return given
    return st.just(dict(given))


def games(
    game_id: str = "air",
    readings: ReadingsArg = None,
    *,
    components: str | Path | None = None,
) -> st.SearchStrategy[AnyGame]:
    """Configured instances of a registered game.

    ``readings``: None draws overrides with :func:`readings`; a mapping fixes
    them; a strategy draws them.  ``components`` is a pack file path passed
    to ``configured``.
    """
    cls = game_class(game_id)
    return _readings_strategy(game_id, readings).map(
        lambda chosen: cls.configured(readings=chosen, components=components)
    )


# -- play -------------------------------------------------------------------------------


def _random_play(game: AnyGame, state: Any, rng: random.Random, steps: int) -> tuple[Any, list[Any]]:
    return game.play_random(state, rng, max_steps=steps)


@st.composite
def reachable_histories(
    draw: st.DrawFn,
    game: AnyGame,
    *,
    max_steps: int = 300,
    min_steps: int = 0,
    players: int | None = None,
) -> tuple[Any, list[Any]]:
    """(state, action log): ``new_game`` then up to ``max_steps`` random legal
    actions (chance by its odds, a seat uniformly among its legal actions).

    The player count and first seat are drawn unless ``players`` is given;
    the randomness comes from ``st.randoms()``, so examples replay.
    """
    n = players if players is not None else draw(player_counts(game))
    first = draw(st.integers(min_value=0, max_value=n - 1))
    steps = draw(st.integers(min_value=min_steps, max_value=max_steps))
    rng = draw(st.randoms(use_true_random=False))
    state = game.new_game(n, first_seat=first)
    return _random_play(game, state, rng, steps)


def reachable_states(
    game: AnyGame,
    *,
    max_steps: int = 300,
    min_steps: int = 0,
    players: int | None = None,
) -> st.SearchStrategy[Any]:
    """A state reached from ``new_game`` by random legal play, chance included."""
    return reachable_histories(game, max_steps=max_steps, min_steps=min_steps, players=players).map(
        lambda pair: pair[0]
    )


def legal_actions(game: AnyGame, state: Any) -> st.SearchStrategy[Any]:
    """One of ``game.legal_actions(state)`` (nothing when there is none)."""
    actions = list(game.legal_actions(state))
    return st.sampled_from(actions) if actions else st.nothing()


def chance_actions(game: AnyGame, state: Any) -> st.SearchStrategy[Any]:
    """One action of ``game.chance_outcomes(state)`` (uniformly, not by its odds)."""
    actions = [a for a, _ in game.chance_outcomes(state)]
    return st.sampled_from(actions) if actions else st.nothing()


# -- Airships component packs -------------------------------------------------------------

_COLOURS = ("W", "R", "B")
_MIN_FACE = {"W": 1, "R": 2, "B": 4}
_MAX_FACE = {"W": 3, "R": 5, "B": 8}
_DEPARTMENTS = ("finance", "hangar", "pilot", "engineer", "engine", "material")
_ABBREVIATION = {
    "finance": "FIN",
    "hangar": "HAN",
    "pilot": "PIL",
    "engineer": "ENR",
    "engine": "ENG",
    "material": "MAT",
}
_PROVENANCE = "generated by rulecraft.strategies.airships_packs"


def _requirement(
    rng: random.Random, most: Mapping[str, int], least_total: int = 1, most_total: int = 4
) -> dict[str, int]:
    """Dice per colour, at most ``most[c]`` each, total in the given bounds."""
    counts = {c: rng.randint(0, most[c]) for c in _COLOURS}
    while sum(counts.values()) < least_total:
        colour = next(c for c in _COLOURS if counts[c] < most[c])
        counts[colour] += 1
    for c in reversed(_COLOURS):
        while sum(counts.values()) > most_total and counts[c] > 0:
            counts[c] -= 1
    return {c: n for c, n in counts.items() if n}


def _target(rng: random.Random, requirement: Mapping[str, int], ease: float) -> int:
    """A target between the requirement's minimum and maximum sum, skewed by ``ease``
    (0 = the minimum, 1 = the maximum) so that games can end."""
    low = sum(_MIN_FACE[c] * n for c, n in requirement.items())
    high = sum(_MAX_FACE[c] * n for c, n in requirement.items())
    cap = low + round((high - low) * ease)
    return rng.randint(low, max(low, cap))


def _dice(rng: random.Random, least: int, most: int) -> dict[str, int]:
    total = rng.randint(least, most)
    colours = rng.choices(_COLOURS, k=total)
    out: dict[str, int] = {}
    for c in colours:
        out[c] = out.get(c, 0) + 1
    return out


def _development(rng: random.Random, card_id: str, group: str, department: str) -> dict[str, Any]:
    """One development card with its department's p.6 effect and range."""
    most = {"W": 3, "R": 2, "B": 1} if group == "era1" else {"W": 3, "R": 3, "B": 2}
    requirement = _requirement(rng, most, 1, 3 if group == "era1" else 4)
    card: dict[str, Any] = {
        "id": card_id,
        "group": group,
        "department": department,
        "requirement": requirement,
        "target": _target(rng, requirement, 0.6),
        "vp": rng.randint(0, 3 if group == "era1" else 5),
        "provenance": _PROVENANCE,
    }
    if department == "finance":
        card["dice"] = _dice(rng, 1, 3)
    elif department == "hangar":
        card["dice"] = _dice(rng, 1, 2)
    elif department == "pilot":
        card["dice"] = _dice(rng, 1, 2)
        card["pilot_chips"] = rng.randint(1, 3)
    elif department == "engineer":
        colour = rng.choice(_COLOURS)
        value = rng.randint(1, _MAX_FACE[colour] + 1)
        card["fixed"] = {"colour": colour, "value": value}
    elif department == "engine":
        card["engine"] = {
            "colour": rng.choice(("W", "R", "B", "any")),
            "bonus": rng.choice((1, 2)),
        }
    else:
        give_colour, get_colour = rng.sample(_COLOURS, 2)
        card["exchange"] = {
            "give": rng.randint(1, 3),
            "give_colour": give_colour,
            "get": rng.randint(1, 2),
            "get_colour": get_colour,
        }
    return card


def _pack_data(rng: random.Random) -> dict[str, Any]:
    airships: list[dict[str, Any]] = []
    tier_dice = {
        "light": ({"W": 3, "R": 2, "B": 1}, 1, 3, 0.5),
        "medium": ({"W": 3, "R": 3, "B": 2}, 2, 4, 0.5),
        "dark": ({"W": 4, "R": 3, "B": 3}, 2, 5, 0.55),
    }
    for tier, (most, least_total, most_total, ease) in tier_dice.items():
        for i in range(1, 7):
            requirement = _requirement(rng, most, least_total, most_total)
            airships.append(
                {
                    "id": f"{tier[0].upper()}{i}",
                    "tier": tier,
                    "requirement": requirement,
                    "target": _target(rng, requirement, ease),
                    "vp": rng.randint(1, {"light": 4, "medium": 6, "dark": 10}[tier]),
                    "provenance": _PROVENANCE,
                }
            )
    developments: list[dict[str, Any]] = []
    for dept in _DEPARTMENTS:
        # AIR-AMB-31: a starter gives exactly 1 white die and nothing else.
        requirement = _requirement(rng, {"W": 2, "R": 0, "B": 0}, 1, 2)
        developments.append(
            {
                "id": f"S-{_ABBREVIATION[dept]}",
                "group": "starter",
                "department": dept,
                "requirement": requirement,
                "target": _target(rng, requirement, 0.5),
                "dice": {"W": 1},
                "provenance": _PROVENANCE,
            }
        )
    for group, size in (("era1", 18), ("era2", 24)):
        # every department appears in every era; the rest is drawn
        extra = rng.choices(_DEPARTMENTS, k=size - 6)
        departments = sorted([*_DEPARTMENTS, *extra], key=_DEPARTMENTS.index)
        for n, dept in enumerate(departments, start=1):
            card_id = f"{'E1' if group == 'era1' else 'E2'}-{_ABBREVIATION[dept]}-{n}"
            developments.append(_development(rng, card_id, group, dept))
    stages: list[dict[str, Any]] = []
    for index in range(1, 5):
        requirement = _requirement(rng, {"W": 3, "R": 3, "B": 3}, 2, 4)
        low = rng.randint(0, 10)
        stages.append(
            {
                "index": index,
                "requirement": requirement,
                "target": _target(rng, requirement, 0.5),
                "vp_low": low,
                "vp_high": rng.randint(low, low + 6),
                "provenance": _PROVENANCE,
            }
        )
    nations = rng.sample(["USA", "Germany", "Italy", "France"], 4)
    return {
        "name": "generated",
        "reconstructed": True,
        "chips_per_nation": 6,
        "nations": nations,
        "airships": airships,
        "developments": developments,
        "stages": stages,
    }


def airships_packs() -> st.SearchStrategy[Any]:
    """Airships component packs (:class:`~rulecraft.model.airships.components.Pack`).

    Counts as the rulebook gives them: 18 airship cards (6 per tier), 48
    development cards (6 starters, 18 era-1, 24 era-2), 4 stages with
    ``vp_high >= vp_low``, 4 nations and 6 chips each; every department's
    effect within its p.6 range.  Requirements stay small and every target
    lies between the requirement's minimum and maximum sum (lower half), so
    random play can still end the game.  The data passes through
    ``pack_from_data``, so the schema and count checks apply.
    """
    # Imported by name so that this module stays free of static imports of any game.
    components = importlib.import_module("rulecraft.model.airships.components")

    def build(seed: int) -> Any:
        data = _pack_data(random.Random(seed))
        return components.pack_from_data(data, f"<airships_packs() seed {seed}>")

    # One drawn seed: the pack is large, and shrinking its entries one by one
    # would say little; the seed replays it exactly (and shrinks towards 0).
    return st.integers(min_value=0, max_value=2**32 - 1).map(build)


def airships_games(
    readings: ReadingsArg = None, packs: st.SearchStrategy[Any] | None = None
) -> st.SearchStrategy[AnyGame]:
    """Configured Airships games on a drawn pack (default: the bundled one or
    one from :func:`airships_packs`) under drawn or given readings."""
    airships: Any = game_class("air")  # AirshipsGame(ruleset, pack)

    pack_strategy = packs if packs is not None else st.none() | airships_packs()

    @st.composite
    def build(draw: st.DrawFn) -> AnyGame:
        chosen = draw(_readings_strategy("air", readings))
        pack = draw(pack_strategy)
        game: AnyGame = airships(Ruleset.from_overrides(airships.register, chosen), pack)
        return game

    return build()
