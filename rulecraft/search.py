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
- it also keeps the states where a number of the state first went further
  than in any earlier game (a track level, a score, a supply run down, a list
  grown: :func:`extremes`, the value profile of a fuzzer), so thresholds and
  caps that no rule ID marks are approached step by step; and states a few
  steps before the end of finished games, replayed with other endings, so
  scoring and tie-breaks are compared over many close finishes;
- every random number comes from ``random.Random(f"{seed}:{game}")``, and
  shrinking is bounded by a count of replays: the same seed gives the same
  games, the same findings and the same shortest failing game on any machine.
  A wall-clock ``deadline`` is only a safety net, and the result says when
  it stopped the run.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from rulecraft.core import A, AnyGame, Chance, Game, GameOver, S, Setup
from rulecraft.planner import Planner
from rulecraft.tools import named_policy, tools

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
    # For a game whose uniform walk seldom ends: after ``finish_after`` steps of this style, the
    # policy ``finish`` plays on, so the game still reaches its end (and its scoring).
    finish: str | None = None
    finish_after: int = 0
    # Aim for a tie (a close finish replayed): each choice, chance's too, is the one after which the
    # leader's margin is smallest, so ties and the tie-breaks that settle them are reached.
    close: bool = False

    def at(self, step: int) -> Style:
        """The style in force at ``step`` of the game."""
        if self.finish is not None and step >= self.finish_after:
            return Style(policy=self.finish, probe_rate=self.probe_rate, close=self.close)
        return self


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


def options(game: Game[S, A], state: S) -> tuple[list[Any], list[float] | None]:
    """The options at ``state`` and, at a chance step, their exact odds."""
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return [], None
    if isinstance(mover, Chance):
        outcomes = game.chance_outcomes(state)
        return [a for a, _ in outcomes], [float(p) for _, p in outcomes]
    return list(game.legal_actions(state)), None


def kind_of(game: Game[S, A], action: A) -> str:
    data = game.action_to_json(action)
    return str(data.get("kind", "")) if isinstance(data, Mapping) else ""


def pick(
    game: Game[S, A],
    state: S,
    opts: Sequence[Any],
    odds: Sequence[float] | None,
    style: Style,
    rng: random.Random,
) -> int:
    """A fresh choice: chance by its exact odds; a seat by the style's policy and swarm weights."""
    if style.close and len(opts) > 1:
        return closest(game, state, opts, rng)
    policy = named_policy(game, style.policy) if style.policy != "uniform" else None
    planned = isinstance(policy, Planner) and policy.chooses_chance and policy.plans_here(game, state)
    if odds is not None and not planned:
        return rng.choices(range(len(opts)), weights=odds, k=1)[0]
    if policy is not None:
        chosen = policy(game, state, rng)
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
        kind = names[rng.choices(range(len(names)), weights=weights, k=1)[0]]
        return rng.choice(groups[kind])
    if style.rare_kinds:
        weights = [0.1 if kind_of(game, a) in style.rare_kinds else 1.0 for a in opts]
        return rng.choices(range(len(opts)), weights=weights, k=1)[0]
    return rng.randrange(len(opts))


def margin(game: Game[S, A], state: S) -> float:
    """The leader's margin over the next seat by the scores now (0: a tie for the lead)."""
    totals = sorted(game.scores(state).values(), reverse=True)
    return float(totals[0] - totals[1]) if len(totals) > 1 else 0.0


def closest(game: Game[S, A], state: S, opts: Sequence[Any], rng: random.Random, limit: int = 40) -> int:
    """The option after which the leader's margin is smallest (ties broken by ``rng``); at most
    ``limit`` options, a seeded sample, are looked at.  One step of look-ahead: by the last decisions
    of a game the scores are nearly final, and a tie is what a tie-break needs."""
    indices = list(range(len(opts)))
    if len(indices) > limit:
        indices = sorted(rng.sample(indices, limit))
    best: list[int] = []
    smallest = float("inf")
    for i in indices:
        try:
            after = margin(game, game.transition(state, opts[i]))
        except Exception:  # an option the reference cannot score after: not a candidate here
            continue
        if after < smallest:
            best, smallest = [i], after
        elif after == smallest:
            best.append(i)
    return rng.choice(best) if best else rng.randrange(len(opts))


def random_style(game: AnyGame, rng: random.Random, kinds: Sequence[str]) -> Style:
    """A game's lean: usually uniform with a random third of the action kinds made rare; for a game
    whose uniform walk seldom ends (a policy besides 'uniform'), mostly that policy, and otherwise a
    uniform start that hands over to it."""
    policies = sorted(p for p in tools(game).policies() if p != "uniform")
    if policies and rng.random() < 0.9:
        return Style(policy=rng.choice(policies), probe_rate=rng.choice((0.1, 0.3)))
    rare = frozenset(k for k in kinds if rng.random() < 1 / 3) if rng.random() < 0.7 else frozenset()
    style = Style(rare_kinds=rare, probe_rate=rng.choice((0.0, 0.3, 0.6)), by_kind=rng.random() < 0.6)
    if policies:  # a uniform walk that would not end: wander, then play towards the end
        style = attrs.evolve(style, finish=rng.choice(policies), finish_after=rng.choice((50, 150, 400)))
    return style


def random_setup(game: AnyGame, rng: random.Random, players: Sequence[int]) -> Setup:
    """A set-up drawn from what ``new_game`` accepts: player count, start seat, the game's options."""
    n = rng.choice(list(players))
    first = rng.randrange(n) if game.first_seat_chosen else 0
    options = game.random_options(rng, n)
    return Setup(n, first, tuple(sorted((k, v) for k, v in options.items())))


# -- the value profile ---------------------------------------------------------------------------------


def extremes(data: Any, *, limit: int = 5000) -> dict[str, tuple[float, float]]:
    """The smallest and largest value of every number and list length in a state's JSON, by path with
    seats and list positions folded (``players.*.rail_level``, ``display#``): what "further than
    before" means for a state, whatever the game.  At most ``limit`` containers are read.

    Called on every compared state of a search, so written for speed: folded paths are cached per
    parent path, and a number is noted inline (the same result as a plain walk, which a test keeps)."""
    out: dict[str, tuple[float, float]] = {}
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    read = 0
    get = out.get
    while stack and read < limit:
        node, path, depth = stack.pop()
        read += 1
        kind = type(node)
        children = _FOLDED.get(path)
        if children is None:
            children = {}
            if len(_FOLDED) < _FOLDED_LIMIT:
                _FOLDED[path] = children
        if kind is dict:
            items: Iterable[tuple[Any, Any]] = node.items()
        elif kind is list or kind is tuple:
            _note(out, path + "#", float(len(node)))
            items = (("*", value) for value in node)
        else:
            continue
        if depth >= 12:
            continue
        for key, value in items:
            vkind = type(value)
            if vkind is int or vkind is float:
                where = children.get(key) if type(key) is str else None  # str keys only: True == 1
                if where is None:
                    where = _fold(path, key)
                    if type(key) is str and len(children) < _FOLDED_LIMIT:
                        children[key] = where
                number = float(value)
                old = get(where)
                if old is None:
                    out[where] = (number, number)
                elif number < old[0]:
                    out[where] = (number, old[1])
                elif number > old[1]:
                    out[where] = (old[0], number)
            elif vkind is dict or vkind is list or vkind is tuple:
                where = children.get(key) if type(key) is str else None
                if where is None:
                    where = _fold(path, key)
                    if type(key) is str and len(children) < _FOLDED_LIMIT:
                        children[key] = where
                stack.append((value, where, depth + 1))
    return out


# parent path -> key -> folded path: the same few hundred paths recur in every state of a game.  Bounded,
# so a state with ever-new keys (a hostile implementation's) cannot grow it without end.
_FOLDED: dict[str, dict[Any, str]] = {}
_FOLDED_LIMIT = 20_000


def _note(out: dict[str, tuple[float, float]], path: str, value: float) -> None:
    old = out.get(path)
    if old is None:
        out[path] = (value, value)
    elif value < old[0] or value > old[1]:
        out[path] = (min(old[0], value), max(old[1], value))


def _fold(path: str, key: Any) -> str:
    part = "*" if str(key).lstrip("-").isdigit() else str(key)
    return f"{path}.{part}" if path else part


@attrs.define
class Profile:
    """The extremes every game so far reached, and what a new game passed first (at which step)."""

    seen: dict[str, tuple[float, float]] = attrs.Factory(dict)
    labels: set[str] = attrs.Factory(set)  # kinds of ending seen (termination, standing, winners)
    # Features where a number that had only ever had one value moved for the first time (a list that
    # was always empty grew, a count always 0 rose): the rare events a fuzzer's "new edge" marks.
    firsts: set[str] = attrs.Factory(set)

    def beyond(
        self, trial_extremes: Mapping[str, tuple[float, float, int, int]], labels: Mapping[str, int] = {}
    ) -> dict[int, set[str]]:
        """Steps where ``trial`` first went beyond every earlier game, with the features passed; the
        profile takes them in.  ``trial_extremes``: path -> (low, high, step of low, step of high);
        ``labels``: a kind of ending -> the step it was reached."""
        by_step: dict[int, set[str]] = {}
        for label, step in labels.items():
            if label not in self.labels:
                self.labels.add(label)
                by_step.setdefault(step, set()).add(label)
        for path, (low, high, at_low, at_high) in trial_extremes.items():
            old = self.seen.get(path)
            if old is None:
                self.seen[path] = (low, high)
                continue  # a path seen for the first time is no progress on it
            constant = old[0] == old[1]
            if _bucket(high) > _bucket(old[1]):
                by_step.setdefault(at_high, set()).add(feature := f"{path}>={high:g}")
                if constant:
                    self.firsts.add(feature)
            if _bucket(low) < _bucket(old[0]):
                by_step.setdefault(at_low, set()).add(feature := f"{path}<={low:g}")
                if constant:
                    self.firsts.add(feature)
            self.seen[path] = (min(low, old[0]), max(high, old[1]))
        return by_step


def _bucket(value: float) -> float:
    """What counts as further: every value up to 16 (levels, counts, thresholds are small numbers),
    beyond that the next power of two (a fuzzer's hit-count buckets).  Money rising by one each game
    would otherwise fill the corpus with places no rule cares about, and the rare ones (a second
    bonus paid, a list grown) would get few turns."""
    size = abs(value)
    if size <= 16:
        return value
    return math.copysign(float(2 ** int(math.log2(size))), value)


def widen(
    extremes_so_far: dict[str, tuple[float, float, int, int]],
    state_json: Any,
    step: int,
    context: str = "",
    previous: Any = None,
) -> dict[str, tuple[float, float, int, int]]:
    """Fold one state's extremes into a game's (keeping the step where each was first reached).
    ``context`` (e.g. the player count) keeps apart what is far in one set-up and usual in another.
    ``previous``: the game's state before this one, already folded in: its top-level fields that did
    not change are skipped (their numbers are in already, and only a strictly further value moves an
    extreme or its step), so a step costs what it changed, not the whole state."""
    if type(state_json) is dict and type(previous) is dict:
        state_json = {k: v for k, v in state_json.items() if k not in previous or previous[k] != v}
    for bare, (low, high) in extremes(state_json).items():
        path = f"{context}|{bare}" if context else bare
        old = extremes_so_far.get(path)
        if old is None:
            extremes_so_far[path] = (low, high, step, step)
            continue
        lo, hi, at_lo, at_hi = old
        extremes_so_far[path] = (
            min(lo, low),
            max(hi, high),
            step if low < lo else at_lo,
            step if high > hi else at_hi,
        )
    return extremes_so_far


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
    # path -> (lowest, highest, step of the lowest, step of the highest) over the game's states
    extremes: dict[str, tuple[float, float, int, int]] = attrs.Factory(dict)
    labels: dict[str, int] = attrs.Factory(dict)  # categorical features (the kind of ending) -> step
    lead: float | None = None  # at game over: the best score minus the second best (None: one seat)


class Execute(Protocol):
    """Play ``plan`` with ``draws``; at most ``max_steps`` steps; returns the trial (never raises for a
    difference: it is the trial's ``failure``)."""

    def __call__(self, plan: Plan, draws: Draws, max_steps: int) -> Trial: ...


# -- the corpus -------------------------------------------------------------------------------------------------


@attrs.define
class CorpusEntry:
    plan: Plan  # the prefix that first reached ``rules``
    rules: frozenset[str]  # rule IDs, or value-profile features (``path>=v``), or ``ending``
    picked: int = 0
    lead: float = float("inf")  # an ending's: the winner's lead in points at the end
    first: bool = False  # a first of a kind (Profile.firsts): it gets more turns than an extreme


LaterStart = Callable[[Plan, Trial, int], Plan | None]
FIRST_TURNS = 8  # the replays a first of a kind gets before it is one entry among the others


@attrs.define
class Corpus:
    """Game prefixes that first exercised a rule or went further than before: the search returns to
    them and plays on.  Apart from them, a ring of ``endings``: states a few steps before the end of
    finished games, so scoring is compared over many close finishes."""

    entries: list[CorpusEntry] = attrs.Factory(list)
    limit: int = 200
    endings: list[CorpusEntry] = attrs.Factory(list)
    endings_limit: int = 40

    def add(
        self,
        plan: Plan,
        trial: Trial,
        seen_before: set[str],
        later_start: LaterStart | None = None,
        profile: Profile | None = None,
    ) -> None:
        """Keep the places where ``trial`` first exercised rules no earlier game had, or first went
        beyond every earlier game's extremes (``profile``): as the state the reference reached there
        (``later_start``, when the peer can be given a state), else as the prefix of choices that
        leads there."""
        by_step: dict[int, set[str]] = {}
        for rule, step in trial.first_hits.items():
            if rule not in seen_before:
                by_step.setdefault(step, set()).add(rule)
        if profile is not None:
            for step, features in profile.beyond(trial.extremes, trial.labels).items():
                by_step.setdefault(step, set()).update(features)
        for step, rules in sorted(by_step.items()):
            if step == 0:
                continue  # reached at the start: every game from there reaches it
            if len(self.entries) >= self.limit:
                # Full: the most visited entry (the oldest of them) makes room for what is new.
                most = max(e.picked for e in self.entries)
                self.entries.remove(next(e for e in self.entries if e.picked == most))
            first = profile is not None and any(f in profile.firsts for f in rules)
            self.entries.append(CorpusEntry(_entry_at(plan, trial, step, later_start), frozenset(rules), first=first))

    def add_ending(self, plan: Plan, trial: Trial, back: int, later_start: LaterStart | None) -> None:
        """A finished game's state ``back`` steps before its end.  The ring keeps the closest finishes
        (the smallest lead of the winner, :attr:`Trial.lead`; the newest among equals): a tie, and
        what breaks it, is a step or two away from a close finish (Hypothesis's ``target()``)."""
        step = trial.steps - back
        if trial.ended != "over" or step < 1:
            return
        lead = trial.lead if trial.lead is not None else float("inf")
        entry = CorpusEntry(_entry_at(plan, trial, step, later_start), frozenset({"ending"}), lead=lead)
        if len(self.endings) >= self.endings_limit:
            widest = max(range(len(self.endings)), key=lambda i: (self.endings[i].lead, -i))
            if self.endings[widest].lead < lead:
                return  # every kept finish is closer
            del self.endings[widest]
        self.endings.append(entry)

    def choose_ending(self, rng: random.Random) -> CorpusEntry | None:
        """The closest finish among the least replayed (a tie is likelier a step away from it)."""
        if not self.endings:
            return None
        least = min(e.picked for e in self.endings)
        entry = min((e for e in self.endings if e.picked == least), key=lambda e: e.lead)
        entry.picked += 1
        return entry

    def choose(self, rng: random.Random) -> CorpusEntry | None:
        if not self.entries:
            return None
        # A third of the turns go to a first of a kind still under its share of turns: what happened once
        # in all the games so far (a second player paid a bonus, a list grew) is most likely a few
        # replays from what happens once in a hundred.
        firsts = [e for e in self.entries if e.first and e.picked < FIRST_TURNS]
        if firsts and rng.random() < 1 / 3:
            least = min(e.picked for e in firsts)
            entry = [e for e in firsts if e.picked == least][-1]
            entry.picked += 1
            return entry
        # Least-visited first: each new rule's entry gets its turns before old ones get more.
        # Among those, the newest: a game that went further is followed further at once (rail level
        # 3, then 4, then 5), depth first along what is new, breadth over the corpus in time.
        least = min(e.picked for e in self.entries)
        entry = [e for e in self.entries if e.picked == least][-1]
        entry.picked += 1
        return entry


def _entry_at(plan: Plan, trial: Trial, step: int, later_start: LaterStart | None) -> Plan:
    moved = later_start(plan, trial, step) if later_start is not None else None
    if moved is not None:
        return attrs.evolve(moved, choices=())
    prefix = trial.taken[: trial.marks[step]] if step < len(trial.marks) else trial.taken
    return Plan(plan.start, prefix, plan.style, plan.pool)


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
