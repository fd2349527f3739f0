"""A game's record: what the machinery knows of a game without importing its rules.

Each game's entry point (group ``rulecraft.games``) exports one :class:`GameRecord`, assembled in a
small module above the game's model, invariants and solvers (``games/<name>.py``, installed as
``rulecraft.games.<name>``).  The model imports none of its tools; the record ties them together:

- names for the command line (``id``, ``title``, ``players``) as plain data, so listing the games
  and building the parser imports no game;
- factories, imported when first called: the game class, its queries, its invariant check, its
  witness hooks for ``rulecraft ambiguities``.

Like OpenSpiel's ``GameType``/``GameInfo`` beside its factories.  A game registered the older way
(an entry point naming a :class:`~rulecraft.core.Game` class) is given a record built from the
class (:meth:`GameRecord.of_class`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from rulecraft.core import Game
    from rulecraft.query import Query


def _no_queries() -> Mapping[str, Query]:
    return {}


def _no_violations(game: Game[Any, Any], state: Any) -> list[Any]:
    return []


def _no_hooks(game: Game[Any, Any]) -> Mapping[str, Any]:
    return {}


def _players(instance: GameRecord, attribute: attrs.Attribute[Any], value: range) -> None:
    if not isinstance(value, range) or value.step != 1 or len(value) == 0 or value.start < 1:
        raise ValueError(f"GameRecord.{attribute.name}: a non-empty range of player counts from 1, got {value!r}")


@attrs.frozen
class GameRecord:
    """One game as the machinery sees it.  The callables import the game's packages when called."""

    id: str = attrs.field(validator=attrs.validators.matches_re(r"[a-z][a-z0-9_]*"))
    title: str = attrs.field(validator=attrs.validators.min_len(1))
    players: range = attrs.field(validator=_players)
    # The game class (imported when called); ``make_game`` configures it.
    game: Callable[[], type[Game[Any, Any]]] = attrs.field(repr=False)
    # The rules questions the game answers, name -> query (the solvers, imported when called).
    queries: Callable[[], Mapping[str, Query]] = attrs.field(default=_no_queries, repr=False)
    # Every invariant violation of a state: ``violations(game, state)`` (empty when valid).
    violations: Callable[[Game[Any, Any], Any], list[Any]] = attrs.field(default=_no_violations, repr=False)
    # Z3 hooks for ambiguities that only decide legality (amb id -> hook), per configured game.
    witness_queries: Callable[[Game[Any, Any]], Mapping[str, Any]] = attrs.field(default=_no_hooks, repr=False)

    @classmethod
    def of_class(cls, game: type[Game[Any, Any]]) -> GameRecord:
        """The record of a game registered by its class: names from the class; its own ``queries``
        and ``violations`` methods, if it overrides them, stay in force (the defaults here are empty)."""
        return cls(
            id=game.id,
            title=game.title,
            players=range(game.min_players, game.max_players + 1),
            game=lambda: game,
        )


__all__ = ["GameRecord"]
