"""Steamopolis witness starts: states where an ambiguity is consulted that random games rarely reach
(rulecraft/witness.py plays both readings from them and finds the witness itself).

Each start is built with the scenario builder (the printed examples' ``given:`` vocabulary) and must
keep the invariants (the search refuses one that does not).

- STM-AMB-28 (p.35, the solo time pressure, STM-R-69): MAKE STEAM and FLY TO ALL TARGETS cost 1 VP at
  once; a random solo game rarely stands at exactly 1 VP when it chooses one.  The start is the solo
  game at 1 VP, in its action: the default loses on reaching 0, 'below-zero' plays on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rulecraft.core import Game
from rulecraft.witness import StartHook


def _solo_at_one_vp(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {"players": 1, "phase": "action", "seats": {0: {"vp": 1}}}
    yield "the solo game at 1 VP choosing its action (STM-R-69)", game.scenario_state(given)


def witness_starts(game: Game[Any, Any]) -> Mapping[str, StartHook]:
    """The Steamopolis witness-start hooks, by ambiguity (the record's ``witness_starts``)."""
    return {"STM-AMB-28": _solo_at_one_vp}
