"""The registry every game's named invariants share (python-chess ``status()`` style).

A game's invariants module registers small generators of messages, ``(subject, state) ->
Iterable[str]``, under a name and the rules they protect; the registry turns each into a check
``(game, state) -> list[Violation]`` that never raises (a broken state may break the recount itself:
that is reported as a violation too).  Two-state checks (``before`` -> ``after`` one step) register
with :meth:`Registry.step` and are called ``(game, before, after)``.  Every check of every game takes
the configured game; the *subject* its recount reads is the registry's business: the game itself by
default, or what ``Registry(subject=...)`` takes from it (Steamopolis and Aeroplanes recount from
their rules context, ``game.ctx``).  Tools call ``record.violations(game, state)`` (rulecraft/record.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import attrs


@attrs.frozen
class Violation:
    """One broken invariant: its name, the rules it protects, and the numbers."""

    invariant: str
    rules: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        return f"{self.invariant} [{', '.join(self.rules)}]: {self.message}"


Check = Callable[[Any, Any], list[Violation]]
StepCheck = Callable[[Any, Any, Any], list[Violation]]
Messages = Callable[[Any, Any], Iterable[str]]
StepMessages = Callable[[Any, Any, Any], Iterable[str]]


class InvariantSpec(NamedTuple):
    """A registry entry: the rules protected, the check, a one-line doc."""

    rules: tuple[str, ...]
    check: Check
    doc: str


class StepSpec(NamedTuple):
    """A registry entry of a two-state check (before, after one step)."""

    rules: tuple[str, ...]
    check: StepCheck
    doc: str


def _first_line(doc: str | None, name: str) -> str:
    return (doc or name).strip().splitlines()[0]


def _named_like(check: Any, messages: Any) -> None:
    check.__name__ = messages.__name__
    check.__qualname__ = messages.__qualname__
    check.__doc__ = messages.__doc__


class Registry:
    """One game's named checks, in registration order.  ``step_guard(before, after)``: a message when
    two states cannot be compared at all (then no step check runs on them); ``subject(game)``: what the
    recounts read (default: the game)."""

    def __init__(
        self,
        step_guard: Callable[[Any, Any], str | None] | None = None,
        *,
        subject: Callable[[Any], Any] | None = None,
    ) -> None:
        self.invariants: dict[str, InvariantSpec] = {}
        self.steps: dict[str, StepSpec] = {}
        self.step_guard = step_guard
        self.subject = subject

    def _subject(self, game: Any) -> Any:
        return game if self.subject is None else self.subject(game)

    def invariant(self, name: str, *rules: str) -> Callable[[Messages], Check]:
        """Register a generator of messages as the named check returning Violations."""

        def wrap(messages: Messages) -> Check:
            def check(game: Any, state: Any) -> list[Violation]:
                try:
                    found = list(messages(self._subject(game), state))
                except Exception as exc:  # a broken state may break the recount itself
                    found = [f"the check could not run: {type(exc).__name__}: {exc}"]
                return [Violation(name, rules, m) for m in found]

            _named_like(check, messages)
            self.invariants[name] = InvariantSpec(rules, check, _first_line(messages.__doc__, name))
            return check

        return wrap

    def step(self, name: str, *rules: str) -> Callable[[StepMessages], StepCheck]:
        """Register a two-state generator of messages as the named step check."""

        def wrap(messages: StepMessages) -> StepCheck:
            def check(game: Any, before: Any, after: Any) -> list[Violation]:
                try:
                    apart = self.step_guard(before, after) if self.step_guard else None
                    found = [apart] if apart else list(messages(self._subject(game), before, after))
                except Exception as exc:
                    found = [f"the check could not run: {type(exc).__name__}: {exc}"]
                return [Violation(name, rules, m) for m in found]

            _named_like(check, messages)
            self.steps[name] = StepSpec(rules, check, _first_line(messages.__doc__, name))
            return check

        return wrap

    def check_all(self, game: Any, state: Any) -> list[Violation]:
        """Every violation of every registered single-state invariant, in registry order."""
        return [v for spec in self.invariants.values() for v in spec.check(game, state)]

    def check_step(self, game: Any, before: Any, after: Any) -> list[Violation]:
        """Every violation of the two-state invariants for one step ``before`` -> ``after``."""
        return [v for spec in self.steps.values() for v in spec.check(game, before, after)]


def report(violations: Iterable[Violation], where: str | None = None) -> str:
    """A plain-text report, one line per violation."""
    items = list(violations)
    subject = f"state {where}" if where else "state"
    if not items:
        return f"{subject} satisfies every invariant"
    names = {v.invariant for v in items}
    noun = "invariant" if len(names) == 1 else "invariants"
    lines = [f"{subject} violates {len(names)} {noun}:"]
    lines.extend(f"  {v}" for v in items)
    return "\n".join(lines)
