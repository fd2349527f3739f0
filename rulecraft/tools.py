"""A configured game's tools: its invariants, rules questions and scenario builder, from its record.

``Game`` holds the rules alone (state, actions, chance, transitions, outcome); what a tool asks of a
game beyond the rules comes from the game's :class:`~rulecraft.record.GameRecord`, bound to the
configured game here::

    from rulecraft.tools import tools

    tools(game).violations(state)      # every invariant violation of state (empty: valid)
    tools(game).queries()              # name -> Query, the rules questions the game answers
    tools(game).scenario_state(given)  # a state from a scenario's given: block
    tools(game).facts(state)           # derived values a scenario may assert on
    tools(game).policies()             # name -> what it does, the playout policies ('uniform' first)
    tools(game).policy("purposeful")   # (game, state, rng) -> a legal action, for Game.random_action

An amended game (rulecraft.errata.Amendment) has its base game's invariants, scenario builder and
playout policies (a policy's action the amendment refuses gives way to a uniform choice among the
amended game's legal actions), and no queries: the base game's solvers encode the printed rules,
not the amendment.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from rulecraft.core import AnyGame, Game, Policy, RulecraftError, _uniform

if TYPE_CHECKING:
    from rulecraft.invariant import Violation
    from rulecraft.query import Query
    from rulecraft.record import GameRecord

S = TypeVar("S")
A = TypeVar("A")


class NoScenarios(RulecraftError, NotImplementedError):
    """The game's record names no scenario builder."""


@attrs.frozen
class Tools(Generic[S, A]):
    """The tools of one configured game (``game``): its record's parts, called with it."""

    game: Game[S, A]
    # None: a game no one registered (a test's toy class): no invariants, queries or scenarios.
    record: GameRecord | None
    # False for a game that changes the printed rules: the record's solvers do not answer for it.
    printed_rules: bool = True
    # The amended game whose tools these are (its base game's, above), for its playout policies.
    amended: AnyGame | None = None

    def violations(self, state: S) -> list[Violation]:
        """Every invariant violation of ``state`` (empty when valid)."""
        return list(self.record.violations(self.game, state)) if self.record is not None else []

    def queries(self) -> Mapping[str, Query]:
        """The rules questions the game answers (name -> Query)."""
        return self.record.queries() if self.record is not None and self.printed_rules else {}

    def scenario_state(self, given: Mapping[str, Any]) -> S:
        """A state from a scenario's ``given:`` block (only what matters)."""
        if self.record is None or self.record.scenario_state is None:
            raise NoScenarios(f"{self.game.id}: scenarios are not supported yet")
        state: S = self.record.scenario_state(self.game, given)
        return state

    def facts(self, state: S) -> dict[str, Any]:
        """Derived values a scenario may assert on, beside the state's JSON."""
        return self.record.facts(self.game, state) if self.record is not None else {}

    def witness_starts(self) -> Mapping[str, Any]:
        """The witness search's targeted starts (amb id -> hook), states random games rarely reach."""
        return self.record.witness_starts(self.game) if self.record is not None else {}

    def scenario_fixture(self, given: Mapping[str, Any]) -> dict[str, Any] | None:
        """The component fixture a scenario's ``given`` carries beside its state (a printed example's
        own board, for ``Game.load_fixture``); None: the given state stands alone."""
        return self.record.scenario_fixture(self.game, given) if self.record is not None else None

    def policies(self) -> Mapping[str, str]:
        """The playout policies the game offers, each with what it does: 'uniform' (every legal action
        equally likely) first, then the record's own."""
        own = self.record.policies() if self.record is not None else {}
        uniform = own["uniform"].description if "uniform" in own else "every legal action equally likely"
        return {"uniform": uniform, **{name: p.description for name, p in own.items() if name != "uniform"}}

    def policy(self, name: str) -> Policy[S, A]:
        """The playout policy ``name``: (game, state, rng) -> a legal action for the seat to move
        (``Game.random_action`` handles chance and the game's end); an unknown name is refused in one
        line naming the choices."""
        if name == "uniform":
            return _uniform
        own = self.record.policies() if self.record is not None else {}
        found = own.get(name)
        if found is None or found.choose is None:
            raise RulecraftError(
                f"{self.game.title} has no playout policy {name!r}; it has: {', '.join(sorted(self.policies()))}"
            )
        chosen: Policy[S, A] = found.choose
        return chosen if self.amended is None else _amended(self.amended, self.game, chosen)

    def random_action(self, state: S, rng: random.Random, policy: str = "uniform") -> A | None:
        """``Game.random_action`` with the policy named: chance by its odds, a seat by the policy."""
        game: Game[S, A] = self.amended if self.amended is not None else self.game
        return game.random_action(state, rng, self.policy(policy))

    def witness_queries(self) -> Mapping[str, Any]:
        """The solver hooks for ambiguities that only decide legality (amb id -> hook)."""
        return self.record.witness_queries(self.game) if self.record is not None else {}


def tools(game: Game[S, A]) -> Tools[S, A]:
    """``game``'s tools: its record's, bound to it (an amendment's: its base game's, without queries)."""
    from rulecraft.registry import record_of

    found = record_of(game)
    if found is not None:
        return Tools(game, found)
    from rulecraft.errata import Amendment  # only for a game whose class is not the record's

    if isinstance(game, Amendment):
        base: Tools[S, A] = tools(game.base)
        return Tools(base.game, base.record, printed_rules=False, amended=game)
    return Tools(game, None)


def named_policy(game: Game[S, A], name: str) -> Policy[S, A]:
    """``tools(game).policy(name)``, looked up once per game: a campaign or a search asks every step."""
    named: dict[str, Policy[S, A]] = vars(game).setdefault("_named_policies", {})
    found = named.get(name)
    if found is None:
        found = named[name] = tools(game).policy(name)
    return found


def _amended(amended: AnyGame, base: Game[S, A], chosen: Policy[S, A]) -> Policy[S, A]:
    """The base game's policy plays by the printed rules: an action the amendment refuses gives way to
    a uniform choice among the amended game's own legal actions."""

    def play(_game: Game[S, A], state: S, rng: random.Random) -> A:
        action = chosen(base, state, rng)
        if amended.check(state, action) is None:
            return action
        legal: list[A] = list(amended.legal_actions(state))
        return rng.choice(legal)

    return play
