"""Airships witness starts: states where an ambiguity is consulted that random games rarely reach.

``rulecraft ambiguities air`` plays both readings of an ambiguity from these states, exactly as from
a printed example's given state (rulecraft/witness.py); the witness is still found by that search,
never named here.  Each start is reached from a new game by the model's own legal steps (a
purposeful choice of the set-up's chance outcomes), so it is a state of a real game.

- AIR-AMB-17 (setup overflow, p.2): the display is filled by AIR-R-06 "until 6 development cards lie
  on the board"; only an overflow (AIR-R-24) during the set-up tells that from "n draws".  An
  overflow needs a row holding a remaining starter (AIR-R-05) and then three cards of its
  department (three era-1 cards each): about 1 set-up in 300 at random.  The starts are a 3- and a
  4-player set-up with that row already full: the next reveal of its department overflows it.
- AIR-AMB-27 (a tie after the tie-break, p.5, AIR-R-49): the readings part only at a final scoring
  where the leaders tie on VP and on airships built; random games end tied so rarely that none
  of 60 does.  The start is built with the scenario builder: the last medium card M1 (5 VP) on
  field 1, the other fields down to their dark card, so winning M1 ends the game (AIR-R-47 (a));
  seat 0 (9 VP, 3 airships, the wooden airship and dice for M1) is to attempt it against seat 1's
  14 VP and 4 airships.  Winning it ties the seats on 14 VP and 4 airships: the default shares
  the win, 'undefined' names no winner.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rulecraft.core import Game, Setup
from rulecraft.search import Start
from rulecraft.tools import tools
from rulecraft.witness import StartHook, steered_start


def _full_row_before_setup_ends(game: Game[Any, Any], players: int) -> Start | None:
    """A ``players`` set-up whose last-dealt-starter's department row is full and the display still
    filling: starters of the other departments go to the seats, and the reveals draw that department."""
    pack = game.pack  # type: ignore[attr-defined]
    starters = pack.group("starter")
    kept = starters[-1]  # its starter stays on the board (AIR-R-05)
    department = pack.development(kept).department

    def choose(state: Any, options: Sequence[Any]) -> Any:
        cards = [getattr(a, "card", None) for a in options]
        for action, card in zip(options, cards, strict=True):
            if card is None:
                continue
            if card in starters:
                if card != kept:
                    return action
            elif card in pack.group("era1") and pack.development(card).department == department:
                return action
        return options[0]

    def row_full(state: Any) -> bool:
        row = state.display[_row(pack, department)]
        return state.phase.name == "FILL_DISPLAY" and all(card is not None for card in row)

    label = f"a {players}-player set-up whose row of a remaining starter is full (AIR-R-05, R-06, R-24)"
    return steered_start(game, Setup(players), label, choose, until=row_full, max_steps=200)


def _row(pack: Any, department: Any) -> int:
    from rulecraft.model.airships.components import DEPARTMENT_INDEX

    return int(DEPARTMENT_INDEX[department])


def _setup_overflow(game: Game[Any, Any]) -> Iterator[Start]:
    for players in (3, 4):
        start = _full_row_before_setup_ends(game, players)
        if start is not None:
            yield start


def _last_medium_card_ties_the_game(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    given = {
        "players": 2,
        "era": 2,
        "stacks": [["D1", "M1"], ["D2"], ["D3"], ["D4"]],
        "wooden_airship": 0,
        "boards": {
            0: {"airships": ["M2", "L1", "L2"], "cards": ["E2-FIN-1", "E2-HAN-3", "E2-PIL-3"]},
            1: {"airships": ["M3", "M4", "L3", "L4"]},
        },
    }
    yield (
        "seat 0 (9 VP, 3 airships) to attempt M1 (5 VP), the last card whose win ends the game, against seat 1's 14 VP "
        "and 4 airships (AIR-R-47, R-48, R-49)",
        tools(game).scenario_state(given),
    )


def witness_starts(game: Game[Any, Any]) -> Mapping[str, StartHook]:
    """The Airships witness-start hooks, by ambiguity (the record's ``witness_starts``)."""
    hooks: dict[str, StartHook] = {"AIR-AMB-17": _setup_overflow, "AIR-AMB-27": _last_medium_card_ties_the_game}
    return hooks
