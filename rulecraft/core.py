"""The game-agnostic kernel: who decides, rejections, and the Game interface.

Every game implements :class:`Game`.  A configured game instance carries its
ruleset (printed rules + one reading per registered ambiguity) and its
component pack; states are plain frozen data that the instance interprets.
Chance is an explicit player: dice and draws are actions chosen by
``Chance`` with exact probabilities, so a game replays from its action log.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, TypeVar

import attrs

if TYPE_CHECKING:
    from rulecraft.catalogue import RuleCatalogue
    from rulecraft.parameters import ParameterTable
    from rulecraft.ruleset import AmbiguityRegister, Ruleset

Seat = int


@attrs.frozen(repr=False)
class Chance:
    """The decision belongs to chance (a throw, a draw)."""

    def __repr__(self) -> str:
        return "Chance()"


@attrs.frozen(repr=False)
class GameOver:
    """Nobody decides any more: the game has ended."""

    def __repr__(self) -> str:
        return "GameOver()"


CHANCE = Chance()
GAME_OVER = GameOver()

ToMove = Seat | Chance | GameOver


def cite(page: object) -> str:
    """A rulebook place as text: 'p.12' for a page, 'l.122-129' as is for a rulebook cited by lines
    (the Russian Aeroplanes seed has no page numbers)."""
    text = str(page)
    return text if text.startswith("l.") else f"p.{text}"


def listed(items: Iterable[object], empty: str = "none") -> str:
    """Items for a reader: ``2, 4, 5`` rather than Python's ``[2, 4, 5]``; a tuple is written as its
    words (``2 left``), and nothing at all as ``empty``."""
    words = [" ".join(map(str, item)) if isinstance(item, tuple) else str(item) for item in items]
    return ", ".join(words) if words else empty


@attrs.frozen
class Rejection:
    """Why an action is illegal: the rule that says no, in plain words."""

    rule: str
    reason: str
    page: str | None = None

    def __str__(self) -> str:
        where = f" ({cite(self.page)})" if self.page else ""
        return f"{self.rule}{where} — {self.reason}"

    def to_json(self) -> dict[str, str]:
        out = {"rule": self.rule, "reason": self.reason}
        if self.page:
            out["page"] = self.page
        return out


class RulecraftError(Exception):
    """Base class of every error rulecraft raises on purpose."""


class NotApplicable(RulecraftError):
    """A question this configuration cannot answer (e.g. a solver encoding the printed numbers, asked
    about a variant): the check is skipped and said so, never counted as passed or failed."""


class StateError(RulecraftError):
    """A game state the rules cannot hold (a component count broken, an invariant violated), read from
    outside (a state file, the protocol's ``set_state``): ``field`` names where (``state.supply``),
    ``reason`` why, with the rule ID; ``str()`` is the one line ``field: reason``."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class IllegalAction(RulecraftError):
    """An action was applied that the rules forbid; carries the rejection."""

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(str(rejection))
        self.rejection = rejection


class NoLegalAction(RulecraftError):
    """A seat is to move and has no legal action: the game can never go on from here when
    :meth:`Game.stalled` gives the reason (a reading's dead end, e.g. STM-AMB-12 'stuck'), else a bug."""

    def __init__(self, reason: str, stalled: bool) -> None:
        super().__init__(reason)
        self.stalled = stalled


@attrs.frozen
class Setup:
    """How a game starts: the number of players, the start player, and
    game-specific choices (e.g. Airships nations), as JSON-able pairs."""

    players: int
    first_seat: Seat = 0
    options: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "first_seat": self.first_seat, "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping) or not isinstance(data.get("players"), int):
            raise RulecraftError(f"setup: an object with an integer 'players' is needed, got {data!r}")
        unknown = set(data) - {"players", "first_seat", "options"}
        if unknown:
            raise RulecraftError(f"setup: unknown field(s) {sorted(unknown)}")
        first = data.get("first_seat", 0)
        if not isinstance(first, int):
            raise RulecraftError(f"setup.first_seat: a seat number, got {first!r}")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise RulecraftError(f"setup.options: an object, got {options!r}")
        return cls(data["players"], first, tuple(sorted((str(k), _frozen(v)) for k, v in options.items())))


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _score_table(scores: Mapping[Seat, Mapping[str, int]]) -> dict[Seat, dict[str, int]]:
    """A private plain copy of a score table (seat -> part -> points), so an Outcome's repr is valid
    Python and the caller's later edits cannot reach it."""
    return {int(seat): {str(part): int(points) for part, points in parts.items()} for seat, parts in scores.items()}


def parts_problem(parts: Mapping[str, int]) -> str | None:
    """Why one seat's score parts are not a valid table ("total" present and the other parts adding
    up to it), or None."""
    if "total" not in parts:
        return f"no 'total' among the parts {sorted(parts)}"
    named = {k: v for k, v in parts.items() if k != "total"}
    if named and sum(named.values()) != parts["total"]:
        return f"the parts {named} add up to {sum(named.values())}, not to the total {parts['total']}"
    return None


def _seats(seats: Iterable[Seat]) -> tuple[Seat, ...]:
    return tuple(int(seat) for seat in seats)


def _check_scores(instance: Outcome, attribute: attrs.Attribute[Any], value: dict[Seat, dict[str, int]]) -> None:
    for seat, parts in value.items():
        why = parts_problem(parts)
        if why is not None:
            raise ValueError(f"Outcome.scores[{seat}]: {why}")


@attrs.frozen
class Outcome:
    """How a finished game came out, as the rulebook counts it.

    ``termination``: the rule ID that ended the game; ``scores``: per seat the parts the rulebook
    scores, named in the game's own words, and ``"total"`` (the parts add up to it); ``winners``:
    the winning seats after the tie-breaks (several: a shared win; none: nobody wins, e.g. a lost
    solo game); ``tiebreak``: the rule (or ambiguity reading) that decided between seats tied on
    points, None when no tie for the win had to be broken; ``standing``: a rank the rulebook gives
    beside the win (Steamopolis' solo rank, STM-R-73), None where it gives none; ``ranking``: per
    seat the counts the game's tie-breaks compare (Airships' airships built, the money of Kings of
    Air and Steam), so a tie-break counted wrongly shows at the end of every game, tied or not;
    empty where the game has no tie-break.
    """

    termination: str
    scores: Mapping[Seat, Mapping[str, int]] = attrs.field(converter=_score_table, validator=_check_scores, hash=False)
    winners: tuple[Seat, ...] = attrs.field(converter=_seats)
    tiebreak: str | None = None
    standing: str | None = None
    ranking: Mapping[Seat, Mapping[str, int]] = attrs.field(factory=dict, converter=_score_table, hash=False)

    def totals(self) -> dict[Seat, int]:
        return {seat: parts["total"] for seat, parts in self.scores.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "termination": self.termination,
            "scores": {str(seat): dict(parts) for seat, parts in sorted(self.scores.items())},
            "winners": list(self.winners),
            "tiebreak": self.tiebreak,
            **({"standing": self.standing} if self.standing is not None else {}),
            **({"ranking": {str(seat): dict(c) for seat, c in sorted(self.ranking.items())}} if self.ranking else {}),
        }


S = TypeVar("S")
A = TypeVar("A")
# A random playout policy: (game, state, rng) -> a legal action for the seat to move.
Policy = Callable[["Game[S, A]", S, random.Random], A]
# What a uniform random draw picks from (``Game.candidates``): actions holding every legal action once,
# in ``legal_actions``' order, and the test that accepts exactly the legal ones (None: all are legal).
Candidates = tuple[Sequence[A], Callable[[A], bool] | None]


def all_rejections(first: Rejection | None, judges: Sequence[Callable[..., Any]], *args: Any) -> tuple[Rejection, ...]:
    """``check``'s rejection first, then each layer's (``judge(*args)``: a rejection, a tuple of them or
    None), one per rule ID: every rule that forbids an action, for :meth:`Game.rejections`.  A layer that
    raises is skipped: an action's own rule judged out of its step may need that step's bookkeeping."""
    if first is None:
        return ()
    out = [first]
    for judge in judges:
        try:
            found = judge(*args)
        except Exception:
            continue
        for r in found if isinstance(found, tuple) else (found,):
            if r is not None and all(r.rule != o.rule for o in out):
                out.append(r)
    return tuple(out)


class Game(ABC, Generic[S, A]):
    """One interface for every game (the OpenSpiel shape).

    Subclasses set the class attributes and implement the abstract methods;
    conditions (``check``) live apart from effects (``transition``), and
    ``apply`` is the two joined, so a transition never runs on an action the
    check refused.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    catalogue: ClassVar[RuleCatalogue]
    register: ClassVar[AmbiguityRegister]
    parameters: ClassVar[ParameterTable]  # the numbers the rules state, which a variant may change
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    scenario_folder: ClassVar[str]  # scenarios/<folder>/ holds the printed examples
    # Steps a random campaign game may take before it counts as unfinished (the rules set no turn
    # limit); a game whose turns are many small decisions sets a higher cap.
    campaign_steps: ClassVar[int] = 3000
    # Whether ``new_game`` takes any start seat (False: the rules choose it, e.g. by a die roll).
    first_seat_chosen: ClassVar[bool] = True
    # The invariants every state read from outside must keep (names in the game's invariants), checked
    # after ``check_state``; the bookkeeping ones are left to a full check.
    load_invariants: ClassVar[tuple[str, ...]] = ()

    ruleset: Ruleset

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game whose rules name no parameter a variant may change gets an empty table, so tools ask
        ``cls.parameters`` of every game alike."""
        super().__init_subclass__(**kwargs)
        if getattr(cls, "parameters", None) is None:
            from rulecraft.parameters import ParameterTable  # it imports this module

            cls.parameters = ParameterTable(getattr(cls, "id", cls.__name__))

    @classmethod
    @abstractmethod
    def configured(
        cls,
        *,
        readings: Mapping[str, str] | None = None,
        components: str | Path | None = None,
        parameters: Mapping[str, int] | None = None,
    ) -> Game[S, A]:
        """The printed rules with reading overrides and rule parameters, on the bundled or a user's pack."""

    # -- set-up --------------------------------------------------------------
    @abstractmethod
    def new_game(self, players: int, *, first_seat: Seat = 0, **options: Any) -> S:
        """The state before the first decision (set-up draws are chance steps)."""

    def random_options(self, rng: random.Random, players: int) -> dict[str, Any]:
        """Set-up options for a random game (teams, variants...), drawn from everything ``new_game``
        accepts, so searches reach every set-up; none by default."""
        return {}

    def start(self, setup: Setup) -> S:
        """``new_game`` from a :class:`Setup` (its options are the game's keywords)."""
        return self.new_game(setup.players, first_seat=setup.first_seat, **dict(setup.options))

    # -- decisions ------------------------------------------------------------
    @abstractmethod
    def to_move(self, state: S) -> ToMove:
        """Whose decision it is: a seat, chance, or nobody (game over)."""

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]:
        """Every legal action of the seat to move (empty for chance/game over)."""

    def candidates(self, state: S) -> Candidates[A]:
        """What a uniform random draw picks from while a seat is to move (it is asked at no other state): a
        list holding every legal action exactly once (and maybe others), with the test that accepts
        exactly the legal ones, or None when every listed action is legal (the default:
        ``legal_actions`` itself).  A game whose ``legal_actions`` filters
        generated candidates returns them unfiltered here, so a random game checks only the candidates
        it draws (``_uniform``) instead of all of them.  ``[a for a in listed if test(a)]`` must equal
        ``legal_actions``, order included (tests/test_game_api.py holds every game to it)."""
        return self.legal_actions(state), None

    @abstractmethod
    def chance_outcomes(self, state: S) -> Sequence[tuple[A, Fraction]]:
        """The chance actions with their exact probabilities (sum 1)."""

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """Draw one chance action; games may override with a faster sampler
        whose support and weights a test holds to ``chance_outcomes``."""
        outcomes = self.chance_outcomes(state)
        actions = [a for a, _ in outcomes]
        weights = [float(p) for _, p in outcomes]
        return rng.choices(actions, weights=weights, k=1)[0]

    # -- legality and effects -------------------------------------------------
    @abstractmethod
    def check(self, state: S, action: A) -> Rejection | None:
        """None when legal, else the rule that forbids the action."""

    @abstractmethod
    def transition(self, state: S, action: A) -> S:
        """The effect of a legal action (never called on an illegal one)."""

    def apply(self, state: S, action: A) -> S:
        rejection = self.check(state, action)
        if rejection is not None:
            raise IllegalAction(rejection)
        return self.transition(state, action)

    def is_legal(self, state: S, action: A) -> bool:
        return self.check(state, action) is None

    def rejections(self, state: S, action: A) -> tuple[Rejection, ...]:
        """Every rule that forbids ``action`` in ``state``, the one ``check`` cites first.  When several
        rules forbid an action, another implementation may check them in another order and cite any
        of them; games that can judge their rules apart list them all (default: ``check``'s alone)."""
        rejection = self.check(state, action)
        return () if rejection is None else (rejection,)

    def grounds(self, state: S, action: A) -> tuple[str, ...]:
        """The rules that make a legal ``action`` legal in ``state``, the decisive ones first.

        The converse of ``check``: when another implementation refuses a
        legal action, these are the rules it is likely to misapply.  A rule
        is decisive when the action would be illegal without it (e.g. a die
        the era change adds).  Empty when the game does not say.
        """
        return ()

    # -- outcome --------------------------------------------------------------
    @abstractmethod
    def scores(self, state: S) -> Mapping[Seat, int]:
        """Victory points per seat, as they would be counted now."""

    @abstractmethod
    def winners(self, state: S) -> tuple[Seat, ...]:
        """The winning seat(s) after the game's tie-breaks (only at game over)."""

    def is_over(self, state: S) -> bool:
        return isinstance(self.to_move(state), GameOver)

    def score_parts(self, state: S) -> Mapping[Seat, Mapping[str, int]]:
        """The points per seat by the rulebook's scoring parts, as counted now (mid-game too), each
        seat's parts with their ``"total"``, which equals :meth:`scores`.  Games name their parts;
        the default is the total alone."""
        return {seat: {"total": points} for seat, points in self.scores(state).items()}

    def termination(self, state: S) -> str:
        """The rule ID that ended the (finished) game; '' when the game names none (the default)."""
        return ""

    def tiebreak(self, state: S) -> str | None:
        """The rule ID (or ambiguity ID, when a reading settles it) of the tie-break that decided the
        win between seats tied on points; None when no tie had to be broken (the default)."""
        return None

    def standing(self, state: S) -> str | None:
        """A rank the rulebook gives a finished game beside the win (e.g. a solo game's rank); None
        where it gives none (the default)."""
        return None

    def ranking(self, state: S) -> Mapping[Seat, Mapping[str, int]]:
        """Per seat, the counts the game's tie-breaks compare after the points, named in the game's
        words (``{0: {"airships": 6}, ...}``); empty where the game has no tie-break (the default)."""
        return {}

    def outcome(self, state: S) -> Outcome | None:
        """How the game came out: None unless it is over."""
        if not self.is_over(state):
            return None
        return Outcome(
            self.termination(state),
            self.score_parts(state),
            self.winners(state),
            self.tiebreak(state),
            self.standing(state),
            self.ranking(state),
        )

    # -- text -----------------------------------------------------------------
    @abstractmethod
    def render(self, state: S) -> str:
        """A plain-text picture of the state."""

    def picture(self, state: S) -> str | None:
        """A drawn picture of the state as a standalone SVG document (None: the game has none)."""
        return None

    @abstractmethod
    def describe(self, state: S, action: A) -> str:
        """One line for a game log: the action in the game's own words."""

    # -- serialization hooks (see rulecraft.serialization) --------------------
    @abstractmethod
    def action_to_json(self, action: A) -> dict[str, Any]: ...

    @abstractmethod
    def action_from_json(self, data: Mapping[str, Any]) -> A: ...

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]: ...

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> S: ...

    # -- hooks for scenarios and state files (invariants, queries and scenario builders: rulecraft.tools)
    def load_fixture(self, fixture: Mapping[str, Any]) -> None:
        """Take a printed example's own small component fixture (e.g. a board); none by default."""
        raise RulecraftError(f"{self.id}: this game takes no fixtures")

    def stalled(self, state: S) -> str | None:
        """Why the game can provably never end from ``state`` (None: it may)."""
        return None

    def check_state(self, state: S) -> None:
        """Raise :class:`StateError` when a state read from outside (``state_from_json`` of a state
        file or of the protocol's ``set_state``) holds more components than the pack has, before
        anything enumerates it: a state with 3000 crystals makes move generation quadratic.  Sizes
        only, so the check stays cheap and bounded even for absurd inputs; the invariants named in
        :attr:`load_invariants` are checked after it (``rulecraft.statefile.admit``).  Nothing is
        checked by default."""

    def state_fixture(self, state: S) -> dict[str, Any] | None:
        """The component fixture ``state`` needs beside its JSON (what :meth:`load_fixture` takes back),
        e.g. a printed example's own board; None: the state stands alone (the default)."""
        return None

    # -- helpers shared by every game -----------------------------------------
    def replay(self, state: S, actions: Iterable[A]) -> S:
        """Apply a log of actions (chance included), checking each one."""
        for action in actions:
            state = self.apply(state, action)
        return state

    def random_action(self, state: S, rng: random.Random, policy: str | Policy[S, A] = "uniform") -> A | None:
        """A random legal action: chance by its odds, a seat by the playout policy (a callable, or its
        name in the game's record: ``rulecraft.tools.tools(game).policies()``; 'uniform': every legal
        action equally likely); None at game over."""
        mover = self.to_move(state)
        if isinstance(mover, GameOver):
            return None
        if isinstance(mover, Chance):
            return self.sample_chance(state, rng)
        if policy == "uniform":  # the common path: no policy looked up
            try:
                return _draw(self.candidates(state), rng)
            except IndexError as empty:
                self._no_legal_action(state, mover, empty)
        if isinstance(policy, str):
            from rulecraft.tools import named_policy  # named in the game's record: a tool, not a rule

            choose = named_policy(self, policy)
        else:
            choose = policy
        try:
            return choose(self, state, rng)
        except IndexError as empty:
            self._no_legal_action(state, mover, empty)

    def _no_legal_action(self, state: S, mover: Seat, empty: IndexError) -> NoReturn:
        """After an empty choice: ``NoLegalAction`` when the seat has none (the lists are only built again
        on this path), else the policy's own IndexError goes on."""
        if self.legal_actions(state):
            raise empty
        why = self.stalled(state)
        raise NoLegalAction(why or f"seat {mover} is to move and has no legal action", why is not None) from None

    def play_random(self, state: S, rng: random.Random, *, max_steps: int = 10_000) -> tuple[S, list[A]]:
        """Play uniformly random legal actions (chance by its odds)."""
        log: list[A] = []
        for _ in range(max_steps):
            action = self.random_action(state, rng)
            if action is None:
                break
            state = self.apply(state, action)
            log.append(action)
        return state, log


# A game chosen by name at run time (the registry, the command line, a record): its state and action
# types are known only to the game itself, so the tools that take any game say so once, here.  A tool
# that relates a game to its own states and actions takes ``Game[S, A]`` instead, so that a caller
# holding a typed game (``KasGame``) gets its states and actions checked.
AnyGame = Game[Any, Any]


def _uniform(game: Game[S, A], state: S, rng: random.Random) -> A:
    """The 'uniform' playout policy: every legal action equally likely (``_draw`` from the candidates)."""
    return _draw(game.candidates(state), rng)


def _draw(candidates: Candidates[A], rng: random.Random) -> A:
    """A uniformly random legal action of ``candidates`` (``Game.candidates``).

    Where they all are legal, ``rng.choice`` over them.  Otherwise candidates are drawn without
    replacement, each remaining one equally likely, until one passes the test: the first legal action of
    a uniformly random order, so every legal action is equally likely again (the order is random, the
    legal actions are among the candidates once each), and a draw checks about
    (candidates + 1) / (legal + 1) of them instead of all.  An empty list, or no legal candidate, raises
    IndexError as ``rng.choice`` does."""
    actions, legal = candidates
    if legal is not None:  # a pool of its own: the draw uses it up
        return _first_legal(list(actions), legal, rng)
    # ``choice`` reads the length and one item: a list, a tuple or another sequence as it comes (no copy: a
    # game's sequence may make only the item drawn), anything else listed.
    listed: Sequence[A] = actions if isinstance(actions, list | tuple | Sequence) else list(actions)
    return rng.choice(listed)


def _first_legal(pool: list[A], legal: Callable[[A], bool], rng: random.Random) -> A:
    """The first action of ``pool`` in a uniformly random order that ``legal`` accepts (``pool`` is
    used up): a partial Fisher-Yates shuffle, one ``randrange`` per candidate looked at."""
    while pool:
        index = rng.randrange(len(pool))
        action = pool[index]
        if legal(action):
            return action
        pool[index] = pool[-1]  # the last one takes the rejected one's place: the rest stay equally likely
        pool.pop()
    raise IndexError("no legal candidate")
