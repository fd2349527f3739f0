"""Hypothesis strategies for writing your own property tests of rulecraft games.

Everything goes through the game-agnostic :class:`rulecraft.core.Game`
interface and the games' records, so it works for any registered game::

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
- :func:`games` -- configured game instances (readings drawn or given, on
  the bundled pack, a pack file, or drawn packs);
- :func:`packs` -- a game's component packs that keep its rulebook's counts
  and ranges (the generator its record names);
- :func:`reachable_states` -- a state reached from ``new_game`` by random
  legal play, chance included (``reachable_histories`` also returns the log);
- :func:`legal_actions` / :func:`chance_actions` -- an action legal in a state;
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from rulecraft.core import A, AnyGame, Game, RulecraftError, S
from rulecraft.registry import game_class, record
from rulecraft.ruleset import Ruleset, UnknownReading

__all__ = [
    "chance_actions",
    "games",
    "legal_actions",
    "not_modelled",
    "packs",
    "player_counts",
    "reachable_histories",
    "reachable_states",
    "readings",
]

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
    packs: st.SearchStrategy[Any] | None = None,
) -> st.SearchStrategy[AnyGame]:
    """Configured instances of a registered game.

    ``readings``: None draws overrides with :func:`readings`; a mapping fixes
    them; a strategy draws them.  ``components`` is a pack file path passed
    to ``configured``; ``packs`` draws the pack instead (e.g.
    ``st.none() | packs("air")``: the bundled one or a generated one), for a
    game class built as ``cls(ruleset, pack)`` (None: the bundled pack), as
    the four games are.
    """
    cls = game_class(game_id)
    chosen = _readings_strategy(game_id, readings)
    if packs is None:
        return chosen.map(lambda overrides: cls.configured(readings=overrides, components=components))
    if components is not None:
        raise RulecraftError("games(): a pack file or drawn packs, not both")
    make: Any = cls  # the four games' constructors take (ruleset, pack); the Game interface leaves it open
    return st.tuples(chosen, packs).map(lambda drawn: make(Ruleset.from_overrides(cls.register, drawn[0]), drawn[1]))


def packs(game_id: str) -> st.SearchStrategy[Any]:
    """Component packs of a game that keep its rulebook's counts and ranges: the generator the game's
    record names (Airships: 18 airship cards, 48 development cards, 4 stages...)."""
    generator = record(game_id).packs
    if generator is None:
        raise RulecraftError(f"{game_id}: the game's record names no pack generator")
    strategy = generator()
    if not isinstance(strategy, st.SearchStrategy):
        raise RulecraftError(f"{game_id}: the record's pack generator gave {type(strategy).__name__}, not a strategy")
    return strategy


# -- play -------------------------------------------------------------------------------


def _random_play(game: Game[S, A], state: S, rng: random.Random, steps: int) -> tuple[S, list[A]]:
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
    first = draw(first_seats(game, n))
    steps = draw(st.integers(min_value=min_steps, max_value=max_steps))
    rng = draw(st.randoms(use_true_random=False))
    state = game.new_game(n, first_seat=first)
    return _random_play(game, state, rng, steps)


def first_seats(game: AnyGame, players: int) -> st.SearchStrategy[int]:
    """The start seats ``new_game`` takes: any seat, or seat 0 alone where the rules choose the start
    player themselves (``first_seat_chosen`` False: a die roll, or a set-up reading that names one)."""
    return st.integers(min_value=0, max_value=players - 1) if game.first_seat_chosen else st.just(0)


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


def legal_actions(game: Game[S, A], state: S) -> st.SearchStrategy[A]:
    """One of ``game.legal_actions(state)`` (nothing when there is none)."""
    actions = list(game.legal_actions(state))
    return st.sampled_from(actions) if actions else st.nothing()


def chance_actions(game: Game[S, A], state: S) -> st.SearchStrategy[A]:
    """One action of ``game.chance_outcomes(state)`` (uniformly, not by its odds)."""
    actions = [a for a, _ in game.chance_outcomes(state)]
    return st.sampled_from(actions) if actions else st.nothing()
