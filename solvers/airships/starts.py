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
  of 60 does.  The start is built with the scenario builder: every airship field down to its dark
  card but field 4, whose top card is M5 (4 VP), so winning M5 ends the game (AIR-R-47 (a)); seat
  0 (10 VP, 3 airships) can attempt nothing else and wins it but for a throw of all 2s (a fixed red
  5, a grey +2 engine, the wooden airship), tying seat 1's 14 VP and 4 airships: the default
  shares the win, 'undefined' names no winner.  (The earlier start, M1 with 16+, left the win to
  about one throw in six and the attempt to one action in three: a 3 s search seldom got there.)
- AIR-AMB-20 (the end after the step or after the go, p.5): the same start, seat 0 holding 4 chips:
  once M5 is won the end condition holds; by default the game is over at once, under 'finish-go'
  seat 0 is offered its paid additional go (AIR-R-42).
- AIR-AMB-09 (an engine colour 'involved', p.6, AIR-R-35): seat 0's only attempt needs 1 black die,
  filled by an Engineer's fixed black 5, with no black die to throw and a black +1 engine: 5 by
  default (no black die thrown: the attempt needs a chip), 6 and won under 'A' and 'C'.
- AIR-AMB-24 (Pilot chips with a short supply, p.6, AIR-R-39): seat 0's only attempt is a Pilot
  with 2 chips, won by any throw, with 1 chip of its nation left: by default it takes that one,
  under 'all-or-none' none.
- AIR-AMB-19 ('the fourth stage is completed', p.5): the Hindenburg revealed, stage 3 built, and
  seat 0's only targets stage 4, won about 4 throws in 5: then the game ends under 'stage-four'
  and goes on by default ('all-four': stages 1 and 2 open, AIR-R-47 (b)).  (A start with stage 4
  already built alone would part the readings at any step, but it is a state 'stage-four' never
  reaches: there the game would have ended when stage 4 was built.)
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
    yield (
        "seat 0 (10 VP, 3 airships) to attempt M5 (4 VP), the last card whose win ends the game, against seat 1's "
        "14 VP and 4 airships (AIR-R-47, R-48, R-49)",
        _m5_ends_the_game(game),
    )


def _m5_ends_the_game(game: Game[Any, Any]) -> Any:
    """Era 2, every airship field down to its dark card but field 4, whose top card is M5 (R3, 13+,
    4 VP): winning it meets AIR-R-47 (a).  Seat 0 can attempt only M5 (red dice alone, no white or
    blue), with the fixed red 5 of E2-ENR-2, the grey +2 engine of E2-ENG-3, the wooden airship's +1
    and 2 red dice of E2-HAN-3: it fails only if every thrown die shows 2 (1 in 36 with two dice,
    1 in 216 with three).  Seat 0 (M2 4 + M4 4 + L1 2 = 10 VP, 3 airships) then ties seat 1 (M3 5 +
    L2 3 + L5 3 + L6 3 = 14 VP, 4 airships) on VP and airships, with 4 chips for an additional go."""
    given = {
        "players": 2,
        "era": 2,
        "stacks": [["D1"], ["D2"], ["D3"], ["D4", "M5"]],
        "wooden_airship": 0,
        "boards": {
            0: {"chips": 4, "cards": ["E2-ENR-2", "E2-HAN-3", "E2-ENG-3"], "airships": ["M2", "M4", "L1"]},
            1: {"airships": ["M3", "L2", "L5", "L6"]},
        },
    }
    return tools(game).scenario_state(given)


def _m5_ends_the_game_with_chips(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    yield (
        "seat 0 with 4 chips to attempt M5, the last card whose win ends the game (AIR-R-42, R-47)",
        _m5_ends_the_game(game),
    )


def _stage_four_to_build(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """The Hindenburg revealed (field 4 empty), stage 3 built by seat 1 (it holds the wooden airship,
    AIR-R-46), stages 1, 2 and 4 open; seat 0's only targets are stage 4 (3 black, 22+) with 2 or 3
    black dice: the fixed black 8 of E2-ENR-3 and the grey +2 engine of E2-ENG-3 win it unless no
    thrown die shows 8 and fewer than two show 6 (about 4 throws in 5).  Won, stage 4 ends the game
    under 'stage-four'; by default ('all-four') stages 1 and 2 are still open and the game goes on."""
    given = {
        "players": 2,
        "era": 2,
        "hindenburg": True,
        "stages": {3: 1},
        "wooden_airship": 1,
        "stacks": [["D1", "M1", "L1"], ["D2", "M2", "L2"], ["D3", "M3", "L5"], []],
        "boards": {
            0: {"cards": ["E2-FIN-2", "E2-HAN-4", "E2-PIL-1", "E2-ENR-3", "E2-ENG-3"], "airships": ["L4"]},
            1: {"airships": ["M4", "D4"]},
        },
    }
    yield (
        "the Hindenburg revealed, stage 3 built, seat 0 to attempt stage 4 with a fixed black 8 and a grey +2 engine "
        "(AIR-R-43, R-47)",
        tools(game).scenario_state(given),
    )


# Field tops that seat 0's dice below cannot attempt (L1 2W, L2 2W+R, L4 2R, L5 3W): the display card is then
# its only target (AIR-R-28).
_OUT_OF_REACH = [["D1", "M1", "L1"], ["D2", "M2", "L2"], ["D3", "M3", "L4"], ["D4", "M4", "L5"]]


def _fixed_die_against_an_engine(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Seat 0's only attempt: E2-MAT-4 (1 black die, 6+) with no black die to throw, the Engineer
    E1-ENR-3's fixed black 5 filling the requirement (AIR-R-18, R-31), and the black +1 engine of
    E2-ENG-4 (AIR-R-19).  The throw has no die: 5 by default (no black die thrown, AIR-R-35), 6 under
    'A' (the target requires black) and 'C' (the fixed black die counts)."""
    given = {
        "players": 2,
        "era": 2,
        "display": ["E2-MAT-4"],
        "stacks": _OUT_OF_REACH,
        "boards": {0: {"cards": ["E1-ENR-3", "E2-ENG-4"]}},
    }
    yield (
        "seat 0 to attempt E2-MAT-4 (1 black, 6+) with a fixed black 5 and a black +1 engine, no black die to throw "
        "(AIR-R-18, R-19, R-35)",
        tools(game).scenario_state(given),
    )


def _pilot_with_the_supply_short(game: Game[Any, Any]) -> Iterator[tuple[str, Any]]:
    """Seat 0's only attempt: the Pilot E2-PIL-1 (2 red, 8+, 2 chips), won by any throw (the fixed red
    5 of E2-ENR-2, a thrown red die of at least 2, the grey +2 engine of E2-ENG-3), with one chip of
    its nation left in the supply (5 on its board, 6 per nation): by default it takes that one,
    under 'all-or-none' none (AIR-R-39)."""
    given = {
        "players": 2,
        "era": 2,
        "display": ["E2-PIL-1"],
        "stacks": _OUT_OF_REACH,
        "boards": {0: {"chips": 5, "supply": 1, "cards": ["E2-ENR-2", "E2-HAN-3", "E2-ENG-3"]}},
    }
    yield (
        "seat 0 to win the Pilot E2-PIL-1 (2 chips) with 1 chip of its nation left in the supply (AIR-R-39)",
        tools(game).scenario_state(given),
    )


def witness_starts(game: Game[Any, Any]) -> Mapping[str, StartHook]:
    """The Airships witness-start hooks, by ambiguity (the record's ``witness_starts``)."""
    hooks: dict[str, StartHook] = {
        "AIR-AMB-09": _fixed_die_against_an_engine,
        "AIR-AMB-17": _setup_overflow,
        "AIR-AMB-19": _stage_four_to_build,
        "AIR-AMB-24": _pilot_with_the_supply_short,
        "AIR-AMB-20": _m5_ends_the_game_with_chips,
        "AIR-AMB-27": _last_medium_card_ties_the_game,
    }
    return hooks
