"""Airships variants as rule-logic plugins: an example for writing your own.

A plugin takes the configured game and returns the changed one; register it
under the entry point group ``rulecraft.variants`` and name it in a variant
file's ``plugins:`` (docs/errata.md).  It lives beside the game's record, above
the model: a variant is built on the errata machinery, which the model never
imports.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulecraft.core import Game, Rejection, RulecraftError
from rulecraft.errata import Amendment


class NoAdditionalGo(Amendment):
    """Airships house rule: no additional go; the go ends after step 2 (AIR-R-42 struck out)."""

    def legal_actions(self, state: Any) -> Sequence[Any]:
        return [a for a in self.base.legal_actions(state) if self.base.action_to_json(a)["kind"] != "extra-go"]

    def check(self, state: Any, action: Any) -> Rejection | None:
        if self.base.action_to_json(action)["kind"] == "extra-go":
            return Rejection("AIR-R-42", "the variant strikes out the additional go", "4")
        return self.base.check(state, action)


def no_additional_go(game: Game[Any, Any]) -> Game[Any, Any]:
    if game.id != "air":
        raise RulecraftError(f"air-no-additional-go changes Airships, not {game.title}")
    return NoAdditionalGo(game)
