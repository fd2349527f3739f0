"""Seeded, coverage-guided search over whole games, with shrinking bounded by counts.

Used by every tool that hunts for a difference in play: ``conform`` (the
reference against an implementation), ``ambiguities`` (one reading against
another) and ``errata`` (the printed rules against a variant).  The caller
supplies how one game is *executed* (:data:`Execute`); this module decides
which games to play and how to shrink a failing one:

- a game is a :class:`Plan`: where it starts (a set-up drawn from everything
  ``new_game`` accepts, a printed example's given state, or a state the search
  reached earlier) and a *choice sequence*: one integer per decision, each an
  index into the options there (taken modulo their number), so every
  replay is a legal game and a shorter or smaller sequence is a simpler game;
- games play to the end; a game that reaches the step cap is counted and
  reported, never silently taken as finished;
- the search aims: it records the rule IDs each step exercised
  (:mod:`rulecraft.coverage`), keeps a corpus of game prefixes that first
  reached a rule and extends them, and weights action kinds differently from
  game to game (swarm testing), so rare rules and the end game are reached;
- every random number comes from ``random.Random(f"{seed}:{game}")``, and
  shrinking is bounded by a count of replays: the same seed gives the same
  games, the same findings and the same shortest failing game on any machine.
  A wall-clock ``deadline`` is only a safety net, and the result says when
  it stopped the run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from rulecraft.core import Chance, Game, GameOver, Setup

# -- plans --------------------------------------------------------------------------------------------


@attrs.frozen
class Start:
    """Where a game starts: a new game from ``setup``, or a reference ``state``.

    A state the search reached keeps its way there: ``origin`` (the set-up)
    and ``path`` (the actions from it, as JSON), so a finding can be replayed
    from a new game as well.
    """

    label: str
    setup: Mapping[str, Any] | None = None
    state: Any = None
    fixture: Mapping[str, Any] | None = None
    origin: Mapping[str, Any] | None = None
    path: tuple[Mapping[str, Any], ...] = ()
    root: str = ""  # the label of the start ``path`` leads from ("a new game", "KAS-EX-13 (p.13)")

    @property
    def is_new_game(self) -> bool:
        return self.state is None


@attrs.frozen
class Style:
    """How a game's random choices lean (swarm testing): a playout policy and
    the action kinds played at a tenth of their weight."""

    policy: str = "uniform"
    rare_kinds: frozenset[str] = frozenset()
    probe_rate: float = 0.3
    # Choose a kind of action first, then one of that kind: a kind with few options (a shipment
    # beside forty flights) is chosen as often as any other.
    by_kind: bool = False


@attrs.frozen
class Plan:
    start: Start
    choices: tuple[int, ...]
    style: Style = Style()
    # Actions seen in earlier games, to try where they are probably illegal (a chance outcome another
    # set-up allows, a move of another phase): fixed with the plan, so a replay probes the same ones.
    pool: tuple[Any, ...] = ()


class PlanEnd(Exception):
    """A replayed plan has no choices left: the game stops there."""


class Draws:
    """The source of a game's choices: fresh from a random generator (recorded),
    or replayed from a plan's sequence."""

    def __init__(self, rng: random.Random | None, replay: Sequence[int] = ()) -> None:
        self.rng = rng
        self.replay = tuple(replay)
        self.taken: list[int] = []

    def choose(self, n: int, propose: Callable[[random.Random], int]) -> int:
        """An index in ``range(n)``: the next recorded choice, else ``propose``'s."""
        i = len(self.taken)
        if i < len(self.replay):
            value = self.replay[i] % n if n else 0
        elif self.rng is None:
            raise PlanEnd
        else:
            value = propose(self.rng)
        self.taken.append(value)
        return value


# -- choosing an action ----------------------------------------------------------------------------------


def options(game: Game[Any, Any], state: Any) -> tuple[list[Any], list[float] | None]:
    """The options at ``state`` and, at a chance step, their exact odds."""
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return [], None
    if isinstance(mover, Chance):
        outcomes = game.chance_outcomes(state)
        return [a for a, _ in outcomes], [float(p) for _, p in outcomes]
    return list(game.legal_actions(state)), None


def kind_of(game: Game[Any, Any], action: Any) -> str:
    data = game.action_to_json(action)
    return str(data.get("kind", "")) if isinstance(data, Mapping) else ""


def pick(
    game: Game[Any, Any],
    state: Any,
    opts: Sequence[Any],
    odds: Sequence[float] | None,
    style: Style,
    rng: random.Random,
) -> int:
    """A fresh choice: chance by its exact odds; a seat by the style's policy and swarm weights."""
    if odds is not None:
        return rng.choices(range(len(opts)), weights=odds, k=1)[0]
    if style.policy != "uniform":
        chosen = game.policy(style.policy)(game, state, rng)
        try:
            return list(opts).index(chosen)
        except ValueError:  # a policy that strays from legal_actions is the game's bug, not a reason to stop
            return rng.randrange(len(opts))
    if style.by_kind:
        groups: dict[str, list[int]] = {}
        for i, action in enumerate(opts):
            groups.setdefault(kind_of(game, action), []).append(i)
        names = sorted(groups)
        weights = [0.1 if name in style.rare_kinds else 1.0 for name in names]
        chosen = names[rng.choices(range(len(names)), weights=weights, k=1)[0]]
        return rng.choice(groups[chosen])
    if style.rare_kinds:
        weights = [0.1 if kind_of(game, a) in style.rare_kinds else 1.0 for a in opts]
        return rng.choices(range(len(opts)), weights=weights, k=1)[0]
    return rng.randrange(len(opts))


def random_style(game: Game[Any, Any], rng: random.Random, kinds: Sequence[str]) -> Style:
    """A game's lean: usually uniform with a random third of the action kinds made rare; for a game
    whose uniform walk seldom ends (a policy besides 'uniform'), mostly that policy."""
    policies = sorted(p for p in game.policies() if p != "uniform")
    if policies and rng.random() < 0.9:
        return Style(policy=rng.choice(policies), probe_rate=rng.choice((0.1, 0.3)))
    rare = frozenset(k for k in kinds if rng.random() < 1 / 3) if rng.random() < 0.7 else frozenset()
    return Style(rare_kinds=rare, probe_rate=rng.choice((0.0, 0.3, 0.6)), by_kind=rng.random() < 0.6)


def random_setup(game: Game[Any, Any], rng: random.Random, players: Sequence[int]) -> Setup:
    """A set-up drawn from what ``new_game`` accepts: player count, start seat, the game's options."""
    n = rng.choice(list(players))
    first = rng.randrange(n) if game.first_seat_chosen else 0
    options = game.random_options(rng, n)
    return Setup(n, first, tuple(sorted((k, v) for k, v in options.items())))


# -- one game's result ---------------------------------------------------------------------------------------


@attrs.define
class Trial:
    """What executing a plan gave."""

    failure: Any = None  # the caller's finding, or None
    ended: str = "over"  # over | cap | plan-end | failure
    steps: int = 0
    taken: tuple[int, ...] = ()  # the choices consumed
    actions: list[Any] = attrs.Factory(list)  # the reference actions, in order
    # rule ID -> the number of steps played when the rule was first exercised in this game
    first_hits: dict[str, int] = attrs.Factory(dict)
    rules: set[str] = attrs.Factory(set)
    compared: int = 0  # states compared
    # choices consumed before each step: a later start at step k replays ``taken[marks[k]:]``
    marks: list[int] = attrs.Factory(list)


class Execute(Protocol):
    """Play ``plan`` with ``draws``; at most ``max_steps`` steps; returns the trial (never raises for a
    difference: it is the trial's ``failure``)."""

    def __call__(self, plan: Plan, draws: Draws, max_steps: int) -> Trial: ...


# -- the corpus -------------------------------------------------------------------------------------------------


@attrs.define
class CorpusEntry:
    plan: Plan  # the prefix that first reached ``rules``
    rules: frozenset[str]
    picked: int = 0


@attrs.define
class Corpus:
    """Game prefixes that first exercised a rule: the search returns to them and plays on."""

    entries: list[CorpusEntry] = attrs.Factory(list)
    limit: int = 200

    def add(
        self,
        plan: Plan,
        trial: Trial,
        seen_before: set[str],
        later_start: Callable[[Plan, Trial, int], Plan | None] | None = None,
    ) -> None:
        """Keep the places where ``trial`` first exercised rules no earlier game had: as the state
        the reference reached there (``later_start``, when the peer can be given a state), else as
        the prefix of choices that leads there."""
        by_step: dict[int, set[str]] = {}
        for rule, step in trial.first_hits.items():
            if rule not in seen_before:
                by_step.setdefault(step, set()).add(rule)
        for step, rules in sorted(by_step.items()):
            if len(self.entries) >= self.limit:
                return
            if step == 0:
                continue  # reached at the start: every game from there reaches it
            moved = later_start(plan, trial, step) if later_start is not None else None
            if moved is not None:
                entry = attrs.evolve(moved, choices=())
            else:
                prefix = trial.taken[: trial.marks[step]] if step < len(trial.marks) else trial.taken
                entry = Plan(plan.start, prefix, plan.style, plan.pool)
            self.entries.append(CorpusEntry(entry, frozenset(rules)))

    def choose(self, rng: random.Random) -> CorpusEntry | None:
        if not self.entries:
            return None
        # Least-visited first: each new rule's entry gets its turns before old ones get more.
        least = min(e.picked for e in self.entries)
        candidates = [e for e in self.entries if e.picked == least]
        entry = rng.choice(candidates)
        entry.picked += 1
        return entry


# -- shrinking, by a count of replays -----------------------------------------------------------------------------


@attrs.define
class Shrunk:
    plan: Plan
    trial: Trial
    replays: int
    exhausted: bool  # the replay budget ran out before no smaller game failed


def shrink(
    execute: Execute,
    plan: Plan,
    trial: Trial,
    *,
    same: Callable[[Trial], bool],
    budget: int,
    max_steps: int,
    later_start: Callable[[Plan, Trial, int], Plan | None] | None = None,
) -> Shrunk:
    """The smallest failing plan found in at most ``budget`` replays.

    ``same(trial)``: does a candidate fail the same way.  ``later_start(plan,
    trial, k)``: the plan started from the state after its ``k``-th step (None:
    this start cannot be moved), tried first so a late difference is shown
    from a nearby state.  Passes, each deterministic: cut what follows the
    failure; move the start as late as still fails; delete runs of choices
    from the end; lower each choice towards 0.
    """
    replays = 0
    best_plan = attrs.evolve(plan, choices=trial.taken)
    best = trial

    def attempt(candidate: Plan) -> bool:
        nonlocal replays, best_plan, best
        if replays >= budget:
            return False
        replays += 1
        result = execute(candidate, Draws(None, candidate.choices), max_steps)
        if result.failure is not None and same(result):
            best_plan, best = attrs.evolve(candidate, choices=result.taken), result
            return True
        return False

    if later_start is not None and best.steps > 1:
        # Latest start first: a difference seen at step f is usually shown by the state before it.
        for k in _start_points(best.steps):
            moved = later_start(best_plan, best, k)
            if moved is not None and attempt(moved):
                break
            if replays >= budget:
                break
    improved = True
    while improved and replays < budget:
        improved = False
        # Delete runs of choices, longest runs first, scanning from the end.
        for size in (8, 4, 2, 1):
            i = len(best_plan.choices) - size
            while i >= 0 and replays < budget:
                choices = best_plan.choices
                candidate = attrs.evolve(best_plan, choices=choices[:i] + choices[i + size :])
                if attempt(candidate):
                    improved = True
                i = min(i, len(best_plan.choices)) - size
        # Lower each choice: to 0, else halve it.
        i = 0
        while i < len(best_plan.choices) and replays < budget:
            value = best_plan.choices[i]
            for lower in (0, value // 2, value - 1):
                if 0 <= lower < value:
                    lowered = list(best_plan.choices)
                    lowered[i] = lower
                    if attempt(attrs.evolve(best_plan, choices=tuple(lowered))):
                        improved = True
                        break
            i += 1
    return Shrunk(best_plan, best, replays, exhausted=replays >= budget)


def _start_points(steps: int) -> list[int]:
    """Start moves to try, latest first: the last 15 steps one by one, then halving towards 0."""
    near = list(range(steps - 1, max(0, steps - 16), -1))
    far: list[int] = []
    k = steps - 16
    while k > 0:
        far.append(k)
        k //= 2
    return [k for k in near + far if k > 0]
