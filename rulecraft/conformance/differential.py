"""Differential games: seeded whole games on both sides from random set-ups, given states and the
search's corpus, a difference shrunk by a count of replays (rulecraft.search drives the choices)."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import attrs

from rulecraft.conformance.client import ImplementationFault
from rulecraft.conformance.findings import ConformReport, Finding
from rulecraft.conformance.lockstep import Lockstep, Mismatch, Peer, RunStopped, _restart
from rulecraft.core import A, AnyGame, Chance, Game, GameOver, S, Setup
from rulecraft.coverage import RuleTracer
from rulecraft.search import (
    Corpus,
    Draws,
    Plan,
    PlanEnd,
    Profile,
    Start,
    Style,
    Trial,
    kind_of,
    margin,
    options,
    pick,
    random_setup,
    random_style,
    shrink,
    widen,
)

# Replays a finding's shrinking may take: a count, not a time, so every machine shrinks alike.
DEFAULT_SHRINK_REPLAYS = 300
POOL_PER_KIND = 40  # distinct actions of each kind kept from earlier games, for probing
POOL_SAMPLE_PER_KIND = 6  # of which a game probes with a seeded sample


@attrs.define
class Differential:
    """One differential campaign: the reference, the peer and how a game is played on both."""

    game: AnyGame
    impl: Peer
    models: tuple[str, ...]
    report: ConformReport
    self_test: bool = False
    components: Mapping[str, Any] | None = None
    deadline: float | None = None
    tracer: RuleTracer | None = None
    kinds: set[str] = attrs.Factory(set)  # action kinds seen so far (for the swarm)
    # Steps that exercised each rule so far: a finding lists its step's rules rarest first, so the
    # rules particular to that step lead and the ones every step touches trail.
    rule_steps: Counter[str] = attrs.Factory(Counter)
    unranked: int = 0  # game ends where the peer sent no tie-break counts (``ranking``)
    pool: dict[str, list[Any]] = attrs.Factory(dict)  # distinct actions of earlier games by kind, oldest first
    _pooled: set[Any] = attrs.Factory(set)

    def remember(self, actions: Sequence[Any]) -> None:
        """Keep distinct actions of the games played, by kind, so that rare kinds (a set-up deal) stay
        beside common ones; past the limit of a kind, the oldest go first."""
        for action in actions:
            if action in self._pooled:
                continue
            kept = self.pool.setdefault(kind_of(self.game, action), [])
            self._pooled.add(action)
            kept.append(action)
            if len(kept) > POOL_PER_KIND:
                self._pooled.discard(kept.pop(0))

    def pool_sample(self, rng: random.Random) -> tuple[Any, ...]:
        """A seeded sample of the pool for one game: a few actions of every kind."""
        return tuple(
            action
            for kind in sorted(self.pool)
            for action in rng.sample(self.pool[kind], min(POOL_SAMPLE_PER_KIND, len(self.pool[kind])))
        )

    def lockstep(self, plan: Plan) -> Lockstep:
        start = plan.start
        setup = dict(start.setup) if start.setup is not None else None
        if start.is_new_game:
            where = "differential"
        elif start.path:
            how = "a new game" if start.origin is not None else f"{start.root} (its given state)"
            where = f"{len(start.path)} steps into {how}"
        else:
            where = f"{start.label} (its given state)"
        lock = Lockstep(
            self.game,
            self.impl,
            self.models,
            where,
            setup,
            self_test=self.self_test,
            tracer=self.tracer,
            protocol=self.report.protocol,
        )
        if not start.is_new_game:
            lock.start_state = self.game.state_to_json(start.state)
        return lock

    def execute(self, plan: Plan, draws: Draws, max_steps: int) -> Trial:
        """Play ``plan`` on both sides (see :class:`rulecraft.search.Execute`)."""
        trial = Trial()
        lock = self.lockstep(plan)
        try:
            self._begin(plan, lock)
            self._play(plan, draws, max_steps, lock, trial)
        except PlanEnd:
            trial.ended = "plan-end"
        except Mismatch as mismatch:
            trial.failure, trial.ended = mismatch.finding, "failure"
        except ImplementationFault as fault:
            finding = lock.finding("fault", f"the implementation failed: {fault.kind}", evidence=str(fault))
            trial.failure, trial.ended = finding, "failure"
            _restart(self.impl, lock, fault.kind)
        trial.taken = tuple(draws.taken)
        trial.actions = list(lock.log)
        trial.compared = lock.compared
        trial.rules |= lock.exercised
        self.unranked += lock.ranking_unreported
        return trial

    def _begin(self, plan: Plan, lock: Lockstep) -> None:
        start = plan.start
        if start.is_new_game:
            assert start.setup is not None
            with lock.traced() as hit:  # the set-up rules: the deal, the start player...
                lock.state = self.game.start(Setup.from_json(start.setup))
            lock.exercised |= hit
            reply = self.impl.new_game(
                dict(start.setup), components=dict(self.components) if self.components is not None else None
            )
            if not reply.get("ok"):
                raise Mismatch(lock.finding("verdict", f"new_game was refused: {reply.get('error', '')}"))
            lock.step_rules = lock.ordered(hit)
            lock.compare_state(reply, "after set-up")
            return
        lock.state = start.state
        reply = self.impl.set_state(
            self.game.state_to_json(start.state), fixture=dict(start.fixture) if start.fixture else None
        )
        if not reply.get("ok"):
            if self.self_test:  # the other ruleset cannot hold this state at all: no start here
                raise PlanEnd
            raise Mismatch(lock.finding("scenario", f"the given state was refused: {reply.get('error', '')}"))
        # The running score of the given state: a late scoring difference shrinks to its state.
        lock.compare_scores("at the given state")

    def _play(self, plan: Plan, draws: Draws, max_steps: int, lock: Lockstep, trial: Trial) -> None:
        game, style = self.game, plan.style
        seen: list[Any] = []
        pooled: dict[str, list[Any]] = {}  # the plan's pool by kind: probes of the kind about to be played
        for action in plan.pool:
            pooled.setdefault(kind_of(game, action), []).append(action)
        transplanted: dict[str, list[Any]] = {}
        context = _context(game, plan.start, lock.state)
        previous: Any = None  # the state before, for widen: its unchanged fields are skipped
        for _ in range(max_steps):
            if self.deadline is not None and time.monotonic() > self.deadline:
                trial.ended = "time"
                return
            if isinstance(game.to_move(lock.state), GameOver):
                trial.ended = "over"
                lock.compare_end()
                trial.labels.setdefault(f"{context}|end:{_ending_kind(game, lock.state)}", trial.steps)
                trial.lead = _lead(game, lock.state)
                return
            if trial.steps % 50 == 49 and game.stalled(lock.state):
                trial.ended = "stalled"  # provably never ends (e.g. AIR-AMB-30): the rest is the same loop
                return
            trial.marks.append(len(draws.taken))
            # Two choices a step, always: a probe (0: none) and the action.  A fixed shape keeps a
            # shrunk or later-started game aligned with the original.
            chance = isinstance(game.to_move(lock.state), Chance)
            opts, odds = options(game, lock.state) if chance else (lock.legal_actions(), None)
            # Probes: this game's earlier actions, and earlier games' actions of a kind playable here
            # (a chance outcome another set-up allows, a move another state permits).
            near = [a for k in sorted({kind_of(game, a) for a in opts[:1]}) for a in pooled.get(k, ())]
            if chance and opts:
                near += _transplants(game, opts[0], pooled, transplanted)
            candidates = seen + near
            # 0: no probe; 1..n: that candidate; n + 1: every near one (at a chance step, every other
            # outcome of this kind seen elsewhere: where a set-up deal or a die differs).
            sweep = chance and bool(near)
            probe = draws.choose(len(candidates) + 2, partial(_propose_probe, len(candidates), style.probe_rate, sweep))
            chosen = near if probe == len(candidates) + 1 else candidates[probe - 1 : probe] if probe else []
            for candidate in chosen:
                try:
                    refused = game.check(lock.state, candidate) is not None
                except Exception:  # a probe the reference's own check cannot judge is no probe
                    refused = False
                if refused:
                    lock.probe(candidate)
            lock.compare_legal_actions()
            index = draws.choose(len(opts), partial(pick, game, lock.state, opts, odds, style.at(trial.steps)))
            action = opts[index]
            if odds is None:
                self.kinds.add(kind_of(game, action))
            seen.append(action)
            before = set(lock.exercised)
            lock.step(action)
            self.rule_steps.update(lock.step_rules)
            trial.steps += 1
            if trial.steps % 10 == 0:  # the running score, part by part, now and then
                lock.compare_scores(f"after step {trial.steps}")
            for rule in lock.exercised - before:
                trial.first_hits.setdefault(rule, trial.steps)
            widen(trial.extremes, lock.last_json, trial.steps, context, previous)
            previous = lock.last_json
        trial.ended = "cap"

    def later_start(self, plan: Plan, trial: Trial, k: int) -> Plan | None:
        """The plan from the reference's state after its ``k``-th step (for shrinking and the corpus)."""
        if k > len(trial.actions) or k < 1:
            return None
        start = plan.start
        try:
            state = self.game.start(Setup.from_json(start.setup)) if start.is_new_game and start.setup else start.state
            for action in trial.actions[:k]:
                state = self.game.transition(state, action)
        except Exception:
            return None
        path = tuple(start.path) + tuple(self.game.action_to_json(a) for a in trial.actions[:k])
        root = start.root or start.label
        moved = Start(
            root if start.is_new_game or start.origin is not None else root.split(" (")[0],
            state=state,
            fixture=start.fixture,
            origin=start.setup if start.is_new_game else start.origin,
            path=path,
            root=root,
        )
        rest = trial.taken[trial.marks[k] :] if k < len(trial.marks) else ()
        return Plan(moved, rest, plan.style, plan.pool)


def _context(game: Game[S, A], start: Start, state: S) -> str:
    """What keeps value profiles apart: the player count (a solo score is not a 4-player score)."""
    setup = start.setup if start.is_new_game else start.origin
    if setup is not None and "players" in setup:
        return f"{setup['players']}p"
    try:
        return f"{len(game.scores(state))}p"
    except Exception:  # a state the scoring cannot read: no context
        return ""


def _lead(game: Game[S, A], state: S) -> float | None:
    """The winner's lead over the next seat at the end (None: a single seat, or no scores)."""
    try:
        seats = len(game.scores(state))
        return margin(game, state) if seats > 1 else None
    except Exception:  # scoring that fails is compared (and reported) elsewhere
        return None


def _ending_kind(game: Game[S, A], state: S) -> str:
    """A finished game's kind of ending: how it ended, the standing, how many won."""
    try:
        return f"{game.termination(state)}/{game.standing(state)}/{len(game.winners(state))} won"
    except Exception:  # scoring that fails is compared (and reported) elsewhere
        return "unscored"


def _transplants(
    game: AnyGame, outcome: Any, pooled: Mapping[str, list[Any]], cache: dict[str, list[Any]]
) -> list[Any]:
    """Chance outcomes of this kind built from the values of other kinds' actions with the same fields
    (a tile dealt by a refill, offered as a set-up deal): what one implementation may deal where the
    rules forbid it.  Built once per kind and game, from the plan's pool, so replays build the same."""
    data = game.action_to_json(outcome)
    kind = str(data.get("kind", ""))
    if kind in cache:
        return cache[kind]
    fields = set(data) - {"kind"}
    built: list[Any] = []
    for other in sorted(k for k in pooled if k != kind):
        for action in pooled[other]:
            source = game.action_to_json(action)
            if set(source) - {"kind"} != fields or not fields:
                continue
            try:
                built.append(game.action_from_json({**source, "kind": kind}))
            except Exception:  # a value this kind cannot hold: no probe
                continue
    cache[kind] = built[:12]
    return cache[kind]


def _propose_probe(candidates: int, rate: float, sweep: bool, rng: random.Random) -> int:
    """0 (no probe), 1 + the index of a candidate to try here, or ``candidates + 1``: all the near ones
    (offered at a chance step half the time)."""
    if sweep and rng.random() < 0.5:
        return candidates + 1
    return 1 + rng.randrange(candidates) if candidates and rng.random() < rate else 0


SETUP_SWEEP = 48  # distinct set-ups compared at their start before the games (see differential)
SWEEP_STEPS = 8  # a set-up's first steps: the deals and choices of the set-up itself


def differential(
    game: AnyGame,
    impl: Peer,
    models: tuple[str, ...],
    *,
    max_examples: int,
    max_steps: int,
    seed: int,
    players: Sequence[int],
    report: ConformReport,
    progress: Callable[[int], None] | None = None,
    deadline: float | None = None,
    components: Mapping[str, Any] | None = None,
    self_test: bool = False,
    random_setup: bool = True,
    starts: Sequence[tuple[str, Any] | Start] = (),
    set_state: bool = True,
    shrink_replays: int = DEFAULT_SHRINK_REPLAYS,
    corpus_rate: float = 0.45,
    ending_rate: float = 0.15,
    trace: bool = True,
    only_starts: bool = False,
    setup_sweep: int = SETUP_SWEEP,
) -> None:
    """Seeded games on both sides until one differs (then shrunk) or ``max_examples`` are played.

    ``starts``: given states to start from (printed examples), used when the
    peer takes ``set_state``.  ``deadline``: a wall-clock safety net; when it
    bites, the report says so.  The same seed gives the same games, findings
    and shrunk game on any machine as long as the safety net does not bite.  ``only_starts``: every
    game from one of ``starts`` (none from a new game).  ``setup_sweep``: before the games, that many
    distinct random set-ups (at most eight per planned game) are compared through their first
    :data:`SWEEP_STEPS` steps: a deviation in a rare set-up (one character, one board set, one player
    count) shows there at once, where whole games would meet it once in dozens.
    """
    run = Differential(
        game,
        impl,
        models,
        report,
        self_test=self_test,
        components=components,
        deadline=deadline,
        tracer=RuleTracer(game) if trace else None,
    )
    report.rules_total = frozenset(rule.id for rule in game.catalogue)
    begun = time.monotonic()
    given = [s if isinstance(s, Start) else Start(s[0], state=s[1]) for s in starts] if set_state else []
    corpus, profile = Corpus(), Profile()
    counts = list(players)
    report.games_planned += max_examples
    failing: tuple[Plan, Trial] | None = None
    try:
        if random_setup and not only_starts:
            # At most half the safety net's time: a busy machine cuts the sweep short, never the games.
            halfway = None if deadline is None else begun + (deadline - begun) / 2
            failing = _sweep(run, report, seed, counts, min(setup_sweep, 8 * max_examples), halfway)
        for index in range(max_examples if failing is None and report.stopped is None else 0):
            if deadline is not None and time.monotonic() > deadline:
                report.stopped, report.stopped_detail = "time", f"the safety cap stopped it after {index} games"
                break
            rng = random.Random(f"{seed}:{index}")
            style = random_style(game, rng, sorted(run.kinds))
            # Now and then a close finish replayed with another ending; else, often, a corpus entry.
            draw = rng.random()
            entry = corpus.choose_ending(rng) if draw < ending_rate else None
            if entry is None and draw < ending_rate + corpus_rate:
                entry = corpus.choose(rng)
            pool = run.pool_sample(rng)
            if entry is not None:
                if "ending" in entry.rules and rng.random() < 0.5:
                    style = attrs.evolve(style, close=True)  # half the close finishes aim for a tie
                plan = Plan(entry.plan.start, entry.plan.choices, style, pool)
            elif given and (only_starts or rng.random() < 0.3):
                plan = Plan(rng.choice(given), (), style, pool)
            else:
                setup = random_setup_of(game, rng, counts) if random_setup else Setup(rng.choice(counts)).to_json()
                plan = Plan(Start("a new game", setup=setup), (), style, pool)
            unranked = run.unranked
            trial = run.execute(plan, Draws(rng, plan.choices), max_steps)
            report.games_without_ranking += run.unranked - unranked
            report.examples_run += 1
            report.steps_compared += trial.compared
            if progress:
                progress(1)
            seen_before = set(report.rules_exercised)
            report.rules_exercised |= trial.rules
            if trial.failure is not None:
                failing = (plan, trial)
                if report.first_difference_at is None:
                    report.first_difference_at = time.monotonic() - report.started
                break
            if trial.ended == "cap":
                report.games_capped += 1
            elif trial.ended == "stalled":
                report.games_stalled += 1
            elif trial.ended == "over":
                report.games_finished += 1
            elif trial.ended == "time":
                report.examples_run -= 1  # cut short: not a compared game
                report.stopped, report.stopped_detail = "time", f"the safety cap stopped it after {index} games"
                break
            corpus.add(plan, trial, seen_before, run.later_start if set_state else None, profile)
            corpus.add_ending(plan, trial, rng.randint(1, 12), run.later_start if set_state else None)
            run.remember(trial.actions)
        if report.sweep_cut:
            cut = report.sweep_cut if report.stopped is None else f"{report.stopped_detail}; {report.sweep_cut}"
            report.stopped, report.stopped_detail = report.stopped or "time", cut
    except KeyboardInterrupt:
        report.stopped, report.stopped_detail = "interrupted", f"after {report.examples_run} games"
    except RunStopped as stopped:
        report.stopped, report.stopped_detail = "fault", "the implementation could not be restarted"
        report.add(stopped.finding)
        failing = None
    if failing is not None:
        plan, trial = failing
        unshrunk = attrs.evolve(trial.failure, origin=_origin(plan), path=_path(game, plan, trial), root=_root(plan))
        try:
            report.add(_shrunk(run, failing, max_steps, shrink_replays, set_state))
        except KeyboardInterrupt:
            report.add(unshrunk)
            report.stopped, report.stopped_detail = "interrupted", "while shrinking the first finding (not shrunk)"
        except RunStopped as stopped:
            report.add(unshrunk)
            report.add(stopped.finding)
            report.stopped, report.stopped_detail = "fault", "the implementation could not be restarted"
    report.differential_seconds += time.monotonic() - begun


def _sweep(
    run: Differential, report: ConformReport, seed: int, counts: Sequence[int], size: int, deadline: float | None
) -> tuple[Plan, Trial] | None:
    """Compare up to ``size`` distinct random set-ups through their first steps; the first that differs
    (its plan and trial), or None.  Seeded apart from the games, and without a trace in them."""
    # The sweep probes with its own set-ups' actions, then leaves the run as it found it: the games
    # after it are the games a run without it plays (a sweep is an addition, never a different search).
    kept = ({k: list(v) for k, v in run.pool.items()}, set(run._pooled), set(run.kinds), Counter(run.rule_steps))
    try:
        return _sweep_setups(run, report, seed, counts, size, deadline)
    finally:
        run.pool, run._pooled, run.kinds, run.rule_steps = kept


def _sweep_setups(
    run: Differential, report: ConformReport, seed: int, counts: Sequence[int], size: int, deadline: float | None
) -> tuple[Plan, Trial] | None:
    seen: set[str] = set()
    cut = False
    for attempt in range(4 * size):
        if len(seen) >= size:
            break
        if deadline is not None and time.monotonic() > deadline:
            cut = True
            break
        rng = random.Random(f"{seed}:setup:{attempt}")
        setup = random_setup_of(run.game, rng, counts)
        key = json.dumps(setup, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        # With earlier set-ups' actions as probes: a deal one set-up makes and another must refuse.
        plan = Plan(Start("a new game", setup=setup), (), Style(probe_rate=0.6), run.pool_sample(rng))
        trial = run.execute(plan, Draws(rng, ()), SWEEP_STEPS)
        run.remember(trial.actions)
        if trial.ended == "time":
            cut = True
            break
        report.steps_compared += trial.compared
        report.rules_exercised |= trial.rules
        if trial.failure is not None:
            if report.first_difference_at is None:
                report.first_difference_at = time.monotonic() - report.started
            return plan, trial
        report.setups_compared += 1
    if cut:
        # Cut short, the run is incomplete however the games go; they are still played and compared.
        report.sweep_cut = f"the safety cap cut the set-up sweep after {report.setups_compared} of {size} set-ups"
    return None


def random_setup_of(game: AnyGame, rng: random.Random, players: Sequence[int]) -> dict[str, Any]:
    return random_setup(game, rng, players).to_json()


def _shrunk(run: Differential, failing: tuple[Plan, Trial], max_steps: int, budget: int, set_state: bool) -> Finding:
    """The failing game shrunk by at most ``budget`` replays (deterministic), with its full path kept."""
    plan, trial = failing
    kind = trial.failure.kind
    result = shrink(
        run.execute,
        plan,
        trial,
        same=lambda t: t.failure is not None and t.failure.kind == kind,
        budget=budget,
        max_steps=max_steps,
        later_start=run.later_start if set_state else None,
    )
    best_plan, best = result.plan, result.trial
    finding = best.failure
    assert isinstance(finding, Finding)
    finding = attrs.evolve(finding, rules=_rarest_first(run, finding.rules))
    return attrs.evolve(
        finding,
        origin=_origin(best_plan),
        path=_path(run.game, best_plan, best),
        root=_root(best_plan),
        shrink_replays=result.replays,
        shrink_exhausted=result.exhausted,
    )


def _rarest_first(run: Differential, rules: Sequence[str]) -> tuple[str, ...]:
    """Rules in order of how few compared steps exercised them (ties: as given)."""
    order = {rule: i for i, rule in enumerate(rules)}
    return tuple(sorted(rules, key=lambda r: (run.rule_steps[r], order[r])))


def _origin(plan: Plan) -> dict[str, Any] | None:
    origin = plan.start.setup if plan.start.is_new_game else plan.start.origin
    return dict(origin) if origin is not None else None


def _path(game: AnyGame, plan: Plan, trial: Trial) -> tuple[dict[str, Any], ...]:
    """The actions from the root start (a new game, or a printed example's given state) to the difference."""
    return tuple(dict(a) for a in plan.start.path) + tuple(game.action_to_json(a) for a in trial.actions)


def _root(plan: Plan) -> str:
    start = plan.start
    return "a new game" if start.is_new_game or start.origin is not None else (start.root or start.label)
