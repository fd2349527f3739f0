"""A fifth game, as small as a game gets: the path docs/adding-a-game.md walks.

*Take-away*: a pile of tokens, its size rolled at the start (chance: 5, 6 or 7, equally likely,
TOY-R-01); seats in turn take 1 or 2 tokens (TOY-R-02); whoever takes the last token wins (TOY-R-03).
One ambiguity: may a seat take 2 when only 1 is left?  No (TOY-AMB-01 'no', the default) -- the
reading 'yes' is registered to show the register, and refused like any registered-but-not-modelled
reading would be.

The model (state, actions, rules) knows nothing of its tools; the record at the bottom ties it to its
invariants and (no) queries, as ``games/<game>.py`` does for the four real games.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

import attrs

from rulecraft.catalogue import RuleCatalogue
from rulecraft.core import CHANCE, GAME_OVER, Game, Rejection, RulecraftError, Seat, ToMove
from rulecraft.invariant import Registry, Violation
from rulecraft.record import GameRecord
from rulecraft.ruleset import Ambiguity, AmbiguityRegister, Reading, Ruleset, UnknownReading

CATALOGUE = RuleCatalogue.from_rows(
    "toy",
    [
        ("TOY-R-01", "1", "The pile holds 5, 6 or 7 tokens, rolled at the start."),
        ("TOY-R-02", "1", "On your turn take 1 or 2 tokens from the pile."),
        ("TOY-R-03", "1", "Whoever takes the last token wins; nothing is played after."),
    ],
)
REGISTER = AmbiguityRegister(
    "toy",
    (
        Ambiguity(
            "TOY-AMB-01",
            "1",
            "May a seat take 2 tokens when 1 is left?",
            (Reading("no", "only 1"), Reading("yes", "2, emptying the pile")),
            default="no",
            why="'take 1 or 2 tokens from the pile': there are not 2 to take",
        ),
    ),
)


@attrs.frozen
class ToyState:
    players: int
    pile: int | None = None  # None: not rolled yet
    seat: int = 0
    taken: tuple[int, ...] = ()  # tokens each seat took
    winner: int | None = None


@attrs.frozen
class Roll:
    tokens: int


@attrs.frozen
class Take:
    tokens: int


ToyAction = Roll | Take


class ToyGame(Game[ToyState, ToyAction]):
    id: ClassVar[str] = "toy"
    title: ClassVar[str] = "Take-away"
    catalogue = CATALOGUE
    register = REGISTER
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    scenario_folder: ClassVar[str] = "toy"

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        self.ruleset = ruleset or Ruleset.printed(REGISTER)
        if dict(self.ruleset.readings).get("TOY-AMB-01") == "yes":
            raise UnknownReading("TOY-AMB-01=yes is registered but not modelled")

    @classmethod
    def configured(
        cls,
        *,
        readings: Mapping[str, str] | None = None,
        components: str | Path | None = None,
        parameters: Mapping[str, int] | None = None,
    ) -> ToyGame:
        if components is not None or parameters:
            raise RulecraftError("toy: no component packs or rule parameters")
        return cls(Ruleset.from_overrides(REGISTER, readings))

    def __repr__(self) -> str:
        return "ToyGame.configured()"

    def new_game(self, players: int, *, first_seat: Seat = 0, **options: Any) -> ToyState:
        if not self.min_players <= players <= self.max_players or options:
            raise RulecraftError(f"toy: 2 or 3 players and no options, not {players} and {sorted(options)}")
        if not 0 <= first_seat < players:
            raise RulecraftError(f"toy: first_seat {first_seat} is not a seat of {players}")
        return ToyState(players, seat=first_seat, taken=(0,) * players)

    def to_move(self, state: ToyState) -> ToMove:
        if state.pile is None:
            return CHANCE
        return GAME_OVER if state.winner is not None else state.seat

    def legal_actions(self, state: ToyState) -> Sequence[ToyAction]:
        if state.pile is None or state.winner is not None:
            return []
        return [Take(n) for n in (1, 2) if n <= state.pile]

    def chance_outcomes(self, state: ToyState) -> Sequence[tuple[ToyAction, Fraction]]:
        return [(Roll(n), Fraction(1, 3)) for n in (5, 6, 7)] if state.pile is None else []

    def check(self, state: ToyState, action: ToyAction) -> Rejection | None:
        if state.winner is not None:
            return CATALOGUE.reject("TOY-R-03", "the game is over")
        if isinstance(action, Roll):
            ok = state.pile is None and action.tokens in (5, 6, 7)
            return None if ok else CATALOGUE.reject("TOY-R-01", "the pile is rolled once, 5 to 7")
        if state.pile is None:
            return CATALOGUE.reject("TOY-R-01", "the pile is not rolled yet")
        if action.tokens not in (1, 2) or action.tokens > state.pile:
            return CATALOGUE.reject("TOY-R-02", f"take 1 or 2 of the {state.pile} left")
        return None

    def transition(self, state: ToyState, action: ToyAction) -> ToyState:
        if isinstance(action, Roll):
            return attrs.evolve(state, pile=action.tokens)
        assert state.pile is not None
        taken = tuple(t + action.tokens if s == state.seat else t for s, t in enumerate(state.taken))
        pile = state.pile - action.tokens
        winner = state.seat if pile == 0 else None
        return attrs.evolve(state, pile=pile, taken=taken, winner=winner, seat=(state.seat + 1) % state.players)

    def scores(self, state: ToyState) -> Mapping[Seat, int]:
        return {s: int(s == state.winner) for s in range(state.players)}

    def winners(self, state: ToyState) -> tuple[Seat, ...]:
        return () if state.winner is None else (state.winner,)

    def render(self, state: ToyState) -> str:
        return f"pile {state.pile}, seat {state.seat} to move"

    def describe(self, state: ToyState, action: ToyAction) -> str:
        return f"rolls a pile of {action.tokens}" if isinstance(action, Roll) else f"takes {action.tokens}"

    def action_to_json(self, action: ToyAction) -> dict[str, Any]:
        return {"kind": "roll" if isinstance(action, Roll) else "take", "tokens": action.tokens}

    def action_from_json(self, data: Mapping[str, Any]) -> ToyAction:
        kinds: dict[str, type[Roll] | type[Take]] = {"roll": Roll, "take": Take}
        return kinds[str(data["kind"])](int(data["tokens"]))

    def state_to_json(self, state: ToyState) -> dict[str, Any]:
        return {**attrs.asdict(state), "taken": list(state.taken)}

    def state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState(**{**data, "taken": tuple(data["taken"])})


# -- the invariants (a tools module of their own in a real game: invariants/<game>.py) --------------

INVARIANTS = Registry()


def tokens_conserved(game: ToyGame, state: ToyState) -> Iterator[str]:
    """The tokens taken and the tokens left make the pile rolled."""
    if state.pile is not None and not 5 <= state.pile + sum(state.taken) <= 7:
        yield f"{sum(state.taken)} taken + {state.pile} left is not a pile of 5 to 7 (TOY-R-01)"


def last_token_wins(game: ToyGame, state: ToyState) -> Iterator[str]:
    """A winner exactly when the pile is empty."""
    if (state.pile == 0) != (state.winner is not None):
        yield f"pile {state.pile} with winner {state.winner} (TOY-R-03)"


INVARIANTS.invariant("tokens-conserved", "TOY-R-01", "TOY-R-02")(tokens_conserved)
INVARIANTS.invariant("last-token-wins", "TOY-R-03")(last_token_wins)


def violations(game: Game[Any, Any], state: Any) -> list[Violation]:
    return INVARIANTS.check_all(game, state)


RECORD = GameRecord(id="toy", title="Take-away", players=range(2, 4), game=lambda: ToyGame, violations=violations)
