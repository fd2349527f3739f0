"""A game's record: what the machinery knows of a game without importing its rules.

Each game's entry point (group ``rulecraft.games``) exports one :class:`GameRecord`, assembled in a
small module above the game's model, invariants and solvers (``games/<name>.py``, installed as
``rulecraft.games.<name>``).  The model imports none of its tools; the record ties them together:

- names for the command line (``id``, ``title``, ``players``) as plain data, so listing the games
  and building the parser imports no game;
- the rule catalogue and the ambiguity register, imported without the rules engine (``rulecraft
  rules`` and ``rulecraft readings`` print them: the game's model is not imported for a table);
- factories, imported when first called: the game class, its queries, its invariant check, its
  scenario builder (a printed example's ``given:`` block to a state, and the facts a scenario may
  assert), its witness hooks for ``rulecraft ambiguities``.  These are the tools' hooks: the game
  class holds the rules, and its ``scenario_state``, ``facts``, ``queries`` and ``violations``
  answer from here.

Like OpenSpiel's ``GameType``/``GameInfo`` beside its factories.  A game registered the older way
(an entry point naming a :class:`~rulecraft.core.Game` class) is given a record built from the
class (:meth:`GameRecord.of_class`).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from rulecraft.core import AnyGame, RulecraftError

if TYPE_CHECKING:
    from rulecraft.catalogue import RuleCatalogue
    from rulecraft.query import Query
    from rulecraft.ruleset import AmbiguityRegister

T = TypeVar("T")


class BadRecord(RulecraftError):
    """A game record that names a part which does not exist or is not what it should be."""


def _no_queries() -> Mapping[str, Query]:
    return {}


def _no_violations(game: AnyGame, state: Any) -> list[Any]:
    return []


def _no_hooks(game: AnyGame) -> Mapping[str, Any]:
    return {}


def _no_facts(game: AnyGame, state: Any) -> dict[str, Any]:
    return {}


def _no_fixture(game: AnyGame, given: Mapping[str, Any]) -> dict[str, Any] | None:
    return None


def _no_policies() -> Mapping[str, PlayoutPolicy]:
    return {}


@attrs.frozen
class PlayoutPolicy:
    """A way to play a seat at random that a game offers beside 'uniform': what it does, and the choice
    itself, ``choose(game, state, rng)`` -> a legal action for the seat to move (chance and the game's
    end are ``Game.random_action``'s).  A game whose uniform walk seldom reaches an end adds one that
    plays towards it; an entry named 'uniform' only words what uniform play does in that game."""

    description: str = attrs.field(validator=attrs.validators.min_len(1))
    choose: Callable[..., Any] | None = attrs.field(default=None, repr=False)


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
    game: Callable[[], type[AnyGame]] = attrs.field(repr=False)
    # The rules questions the game answers, name -> query (the solvers, imported when called).
    queries: Callable[[], Mapping[str, Query]] = attrs.field(default=_no_queries, repr=False)
    # Every invariant violation of a state: ``violations(game, state)`` (empty when valid).
    violations: Callable[[AnyGame, Any], list[Any]] = attrs.field(default=_no_violations, repr=False)
    # Z3 hooks for ambiguities that only decide legality (amb id -> hook), per configured game.
    witness_queries: Callable[[AnyGame], Mapping[str, Any]] = attrs.field(default=_no_hooks, repr=False)
    # A Hypothesis strategy of the game's component packs (None: the game has no generator).
    packs: Callable[[], Any] | None = attrs.field(default=None, repr=False)
    # The folder of the game's printed examples under scenarios/ (None: the game class says).
    scenario_folder: str | None = attrs.field(default=None, repr=False)
    # What the game's rule and ambiguity IDs start with (``AIR`` in AIR-R-12, AIR-AMB-03).
    prefix: str = attrs.field(default=attrs.Factory(lambda self: self.id.upper(), takes_self=True), repr=False)
    # A non-default reading to show in the game's help (``AIR-AMB-09=C``); "" when it has none.
    reading_example: str = attrs.field(default="", repr=False)
    # A scenario's ``given:`` block -> a state: ``scenario_state(game, given)`` (None: no scenarios).
    scenario_state: Callable[[AnyGame, Mapping[str, Any]], Any] | None = attrs.field(default=None, repr=False)
    # Derived values a scenario may assert beside the state's JSON: ``facts(game, state)``.
    facts: Callable[[AnyGame, Any], dict[str, Any]] = attrs.field(default=_no_facts, repr=False)
    # Targeted starts for the witness search (amb id -> hook), per configured game: each hook takes
    # the game and yields (description, state) pairs, states where the ambiguity is consulted that
    # random games rarely reach; the search plays both readings from them (rulecraft/witness.py).
    witness_starts: Callable[[AnyGame], Mapping[str, Any]] = attrs.field(default=_no_hooks, repr=False)
    # The component fixture a scenario's ``given`` carries beside its state (a printed example's own
    # board), for ``Game.load_fixture``: ``scenario_fixture(game, given)`` (None: the state stands alone).
    scenario_fixture: Callable[[AnyGame, Mapping[str, Any]], dict[str, Any] | None] = attrs.field(
        default=_no_fixture, repr=False
    )
    # The playout policies the game offers beside 'uniform' (name -> PlayoutPolicy, imported when called).
    policies: Callable[[], Mapping[str, PlayoutPolicy]] = attrs.field(default=_no_policies, repr=False)
    # The rule catalogue and the ambiguity register, imported without the rules engine (None: the
    # game class's own, importing the game); the package of the game's model (None: the class's).
    catalogue: Callable[[], RuleCatalogue] | None = attrs.field(default=None, repr=False)
    register: Callable[[], AmbiguityRegister] | None = attrs.field(default=None, repr=False)
    model: str | None = attrs.field(default=None, repr=False)

    def rule_catalogue(self) -> RuleCatalogue:
        """The game's rule catalogue (its class's ``catalogue``), without the game where the record names it."""
        return self.catalogue() if self.catalogue is not None else self.game().catalogue

    def ambiguity_register(self) -> AmbiguityRegister:
        """The game's ambiguity register (its class's ``register``), without the game where the record names it."""
        return self.register() if self.register is not None else self.game().register

    def model_package(self) -> str:
        """The package of the game's model (``rulecraft.model.airships``), whose sources cite the rules."""
        return self.model if self.model is not None else self.game().__module__.rsplit(".", 1)[0]

    @classmethod
    def of_packages(
        cls,
        *,
        id: str,
        title: str,
        players: range,
        game: str,
        queries: str | None = None,
        invariants: str | None = None,
        witness_queries: str | None = None,
        witness_starts: str | None = None,
        packs: str | None = None,
        scenario_folder: str | None = None,
        reading_example: str = "",
        scenarios: str | None = None,
        policies: str | None = None,
        catalogue: str | None = None,
        register: str | None = None,
    ) -> GameRecord:
        """A record whose parts are named as ``module:attribute`` (like an entry point) and imported
        when first used: ``game`` the Game class; ``queries`` a mapping name -> Query;
        ``invariants`` a ``check_all(game, state)`` (rulecraft.invariant: what its recounts
        read is the invariants module's own business); ``witness_queries`` a ``(game) -> hooks``;
        ``witness_starts`` a ``(game) -> {amb id: (game) -> iterable of (description, state)}``;
        ``packs`` a ``() -> strategy`` of component packs; ``scenario_folder`` the folder of its
        printed examples under scenarios/; ``scenarios`` the module of its scenario builder, with
        ``state_from_given(game, given)`` and ``facts(game, state)`` (and, where a printed example
        carries its own board, ``scenario_fixture(game, given)``); ``policies`` a mapping name ->
        :class:`PlayoutPolicy` of the playout policies it offers beside 'uniform'; ``catalogue`` and ``register``
        the game class's ``catalogue`` (a RuleCatalogue) and ``register`` (an AmbiguityRegister) in
        modules that do not import the rules engine (tests/test_startup_imports.py checks that they
        are the class's own)."""

        def game_class() -> type[AnyGame]:
            from rulecraft.core import Game

            found = _resolve(game, f"{id}: game")
            if not (isinstance(found, type) and issubclass(found, Game)):
                raise BadRecord(f"{id}: game = {game!r} is {type(found).__name__}, not a Game class")
            return found

        def own(instance: AnyGame) -> AnyGame:
            expected = game_class()
            if not isinstance(instance, expected):
                raise TypeError(
                    f"the {title} tools need a game of class {expected.__name__}, not {type(instance).__name__}"
                )
            return instance

        def all_queries() -> Mapping[str, Query]:
            return {} if queries is None else dict(_resolve(queries, f"{id}: queries"))

        def violations(instance: AnyGame, state: Any) -> list[Any]:
            if invariants is None:
                return []
            return list(_resolve(invariants, f"{id}: invariants")(own(instance), state))

        def hooks(instance: AnyGame) -> Mapping[str, Any]:
            if witness_queries is None:
                return {}
            return dict(_resolve(witness_queries, f"{id}: witness_queries")(own(instance)))

        def starts(instance: AnyGame) -> Mapping[str, Any]:
            if witness_starts is None:
                return {}
            return dict(_resolve(witness_starts, f"{id}: witness_starts")(own(instance)))

        def pack_strategy() -> Any:
            assert packs is not None
            return _resolve(packs, f"{id}: packs")()

        def scenario_state(instance: AnyGame, given: Mapping[str, Any]) -> Any:
            return _resolve(f"{scenarios}:state_from_given", f"{id}: scenarios")(own(instance), given)

        def facts(instance: AnyGame, state: Any) -> dict[str, Any]:
            return dict(_resolve(f"{scenarios}:facts", f"{id}: scenarios")(own(instance), state))

        def scenario_fixture(instance: AnyGame, given: Mapping[str, Any]) -> dict[str, Any] | None:
            module = importlib.import_module(str(scenarios))
            found = getattr(module, "scenario_fixture", None)  # optional: most examples need no board of their own
            return None if found is None else found(own(instance), given)

        @cache  # checked once: a campaign asks for its policy every step
        def all_policies() -> Mapping[str, PlayoutPolicy]:
            if policies is None:
                return MappingProxyType({})
            found = _resolve(policies, f"{id}: policies")
            if not isinstance(found, Mapping):
                raise BadRecord(
                    f"{id}: policies = {policies!r} is {type(found).__name__}, not a mapping of PlayoutPolicy"
                )
            bad = [str(name) for name, p in found.items() if not isinstance(p, PlayoutPolicy)]
            if bad:
                raise BadRecord(f"{id}: policies = {policies!r}: {', '.join(bad)} not a PlayoutPolicy")
            return MappingProxyType(dict(found))

        def rule_catalogue() -> RuleCatalogue:
            from rulecraft.catalogue import RuleCatalogue

            assert catalogue is not None
            return _instance(id, "catalogue", catalogue, RuleCatalogue)

        def ambiguity_register() -> AmbiguityRegister:
            from rulecraft.ruleset import AmbiguityRegister

            assert register is not None
            return _instance(id, "register", register, AmbiguityRegister)

        strategy = pack_strategy if packs else None
        return cls(
            id,
            title,
            players,
            game_class,
            all_queries,
            violations,
            hooks,
            strategy,
            scenario_folder,
            reading_example=reading_example,
            witness_starts=starts,
            scenario_state=scenario_state if scenarios else None,
            facts=facts if scenarios else _no_facts,
            scenario_fixture=scenario_fixture if scenarios else _no_fixture,
            policies=all_policies,
            catalogue=rule_catalogue if catalogue else None,
            register=ambiguity_register if register else None,
            model=game.partition(":")[0].rpartition(".")[0] or None,  # the game class's module's package
        )

    @classmethod
    def of_class(cls, game: type[AnyGame]) -> GameRecord:
        """The record of a game registered by its class: names from the class; its own ``queries``
        and ``violations`` methods, if it overrides them, stay in force (the defaults here are empty)."""
        return cls(
            id=game.id,
            title=game.title,
            players=range(game.min_players, game.max_players + 1),
            game=lambda: game,
        )


def _instance(game_id: str, field: str, reference: str, kind: type[T]) -> T:
    """A record field's ``module:attribute``, which must be a ``kind`` (else one line naming both)."""
    found = _resolve(reference, f"{game_id}: {field}")
    if not isinstance(found, kind):
        article = "an" if kind.__name__[0] in "AEIOU" else "a"
        raise BadRecord(f"{game_id}: {field} = {reference!r} is {type(found).__name__}, not {article} {kind.__name__}")
    return found


def _resolve(reference: str, what: str) -> Any:
    """``module:attribute`` imported (a reference that does not resolve is one line naming it)."""
    module, _, attribute = reference.partition(":")
    try:
        # The loaded module straight from sys.modules (what import_module returns, 15x cheaper: the
        # invariants are resolved every checked step); looked up on every call, so a patched or
        # replaced module is still seen.
        loaded = sys.modules.get(module)
        return getattr(loaded if loaded is not None else importlib.import_module(module), attribute)
    except ImportError as exc:  # a module of the game that does not import: a broken install, not a choice
        raise ImportError(f"{what} = {reference!r} does not resolve: {exc}") from exc
    except AttributeError as exc:
        raise BadRecord(f"{what} = {reference!r} does not resolve: {exc}") from exc


__all__ = ["BadRecord", "GameRecord", "PlayoutPolicy"]
