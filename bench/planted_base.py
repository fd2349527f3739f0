"""What a planted rule deviation is (the conformance benchmark, bench/planted.py).

A deviation is the reference model with exactly one rule changed, the way a real implementation
gets it wrong.  ``plant`` changes the model modules of this process, only through the patch
function it is given: ``builtins.setattr`` for the planted server, pytest's
``monkeypatch.setattr`` in tests, so that a test can undo it.  ``observe`` builds a state with a
fresh ``rulecraft.registry.make_game(game)`` and returns a JSON-able observation of the rule in
question; planting must change it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

CATEGORIES = ("end-game", "scoring", "resource-cap", "rare-setup", "player-count", "ordinary")

Patch = Callable[[object, str, Any], None]  # builtins.setattr, or pytest's monkeypatch.setattr


def _category(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in CATEGORIES:
        raise ValueError(f"category {value!r} is not one of {CATEGORIES}")


def _rules(instance: object, attribute: attrs.Attribute[tuple[str, ...]], value: tuple[str, ...]) -> None:
    if not value or not all(isinstance(rule, str) and rule for rule in value):
        raise ValueError(f"a deviation names the rule IDs it breaks; got {value!r}")


@attrs.frozen
class Deviation:
    game: str  # "kas"
    name: str  # "toll"
    rules: tuple[str, ...] = attrs.field(validator=_rules)  # the rule IDs it breaks, e.g. ("KAS-R-38",)
    category: str = attrs.field(validator=_category)  # one of CATEGORIES
    what: str  # plain words: "tolls are never paid to the depot's owner"
    plant: Callable[[Patch], None]  # monkeypatches the model modules, only via the given patch function
    observe: Callable[[], Any]  # a JSON-able observation of the rule on a constructed state
