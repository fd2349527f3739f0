"""A configured game's tools: its invariants, rules questions and scenario builder, from its record.

``Game`` holds the rules alone (state, actions, chance, transitions, outcome); what a tool asks of a
game beyond the rules comes from the game's :class:`~rulecraft.record.GameRecord`, bound to the
configured game here::

    from rulecraft.tools import tools

    tools(game).violations(state)      # every invariant violation of state (empty: valid)
    tools(game).queries()              # name -> Query, the rules questions the game answers
    tools(game).scenario_state(given)  # a state from a scenario's given: block
    tools(game).facts(state)           # derived values a scenario may assert on

An amended game (rulecraft.errata.Amendment) has its base game's invariants and scenario builder,
and no queries: the base game's solvers encode the printed rules, not the amendment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

from rulecraft.core import Game, RulecraftError

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
        return Tools(base.game, base.record, printed_rules=False)
    return Tools(game, None)
