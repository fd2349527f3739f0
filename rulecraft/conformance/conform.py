"""``rulecraft conform``: CI for other implementations of the games.

Two checks, both against the reference model:

1. every printed-example scenario is replayed on the implementation (it
   receives the example's given state with ``set_state``), and after every
   step the states and the accept/reject verdicts must agree;
2. differential games (:mod:`rulecraft.search`): seeded whole games from
   random set-ups, from the printed examples' given states and from states
   the search found worth returning to, steered towards the rules not yet
   exercised, with a probe of an illegal action at many steps; after every
   step the states, the sets of legal actions, the verdicts and (protocol 2)
   the outcome must agree.  A difference is shrunk, by a count of replays, to
   a short failing game from a state the reference reached, and the full path
   from a new game is kept beside it.

A misbehaving implementation (crash, hang, garbage, enormous output, the
wrong protocol) is a finding with its evidence, never a crash of rulecraft.
The verdict never says "conformant" without having compared: a run that
compared no game is "not tested", one cut short says how far it got.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from typing import Any, Protocol

import attrs

from rulecraft.conformance.client import Implementation, ImplementationFault
from rulecraft.conformance.outcome import compare_outcome, compare_scores, outcome_json, scores_json
from rulecraft.core import Chance, Game, GameOver, RulecraftError, Setup, cite
from rulecraft.coverage import RuleTracer
from rulecraft.scenarios.loader import ScenarioFileError, load_scenario, scenario_files
from rulecraft.search import (
    Corpus,
    Draws,
    Plan,
    PlanEnd,
    Profile,
    Start,
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


@attrs.frozen
class Finding:
    """One way the implementation differs from the rulebook's model."""

    kind: str  # state | legal-actions | verdict | fault | scenario
    title: str
    where: str  # the scenario file, or "differential"
    step: int | None = None
    steps: tuple[dict[str, Any], ...] = ()  # the actions from set-up (or the given state) to the difference
    step_text: tuple[str, ...] = ()
    ours: Any = None
    theirs: Any = None
    fields: tuple[tuple[str, Any, Any], ...] = ()  # (field, reference, implementation)
    rules: tuple[str, ...] = ()
    setup: dict[str, Any] | None = None
    evidence: str = ""
    picture: str = ""  # the text picture of the state where it differs
    svg: str = ""  # the drawn picture (SVG), where the game has one
    # A finding from a state the reference reached: that state (canonical JSON), and the way
    # there from a new game (``origin`` set-up, ``path`` actions), so it replays either way.
    start_state: dict[str, Any] | None = None
    origin: dict[str, Any] | None = None  # the set-up of the new game ``path`` starts from
    path: tuple[dict[str, Any], ...] = ()  # from ``origin`` (or the printed example ``root``) to the difference
    root: str = ""  # where ``path`` starts: "a new game" or a printed example's label
    shrink_replays: int = 0  # replays spent shrinking it
    shrink_exhausted: bool = False  # the replay budget ran out: a shorter game may exist


@attrs.define
class ConformReport:
    game: str
    command: str
    models: tuple[str, ...] = ("*",)
    protocol: int = 1
    scenarios_run: int = 0
    scenarios_passed: int = 0
    examples_run: int = 0  # differential games played (each compared from its start)
    games_planned: int = 0
    games_capped: int = 0  # games that reached the step cap before their end (reported)
    games_finished: int = 0  # games played to the rules' end
    games_stalled: int = 0  # games that reached a state from which the rules can never end them
    steps_compared: int = 0
    seconds: float = 0.0
    differential_seconds: float = 0.0
    seed: int = 0
    findings: list[Finding] = attrs.Factory(list)
    skipped: list[str] = attrs.Factory(list)
    # Why the run stopped before its plan: "time" (the safety cap), "interrupted", "fault" (the
    # implementation could not be restarted), or None when it ran everything it planned.
    stopped: str | None = None
    stopped_detail: str = ""
    rules_exercised: set[str] = attrs.Factory(set)
    rules_total: frozenset[str] = frozenset()  # the game's rule IDs
    first_finding_at: float | None = None  # seconds from the start until the first finding was known
    first_difference_at: float | None = None  # seconds until a differential game first differed (before shrinking)
    started: float = attrs.field(factory=time.monotonic)

    def add(self, finding: Finding) -> None:
        if self.first_finding_at is None:
            self.first_finding_at = time.monotonic() - self.started
        self.findings.append(finding)

    @property
    def tested(self) -> bool:
        """Something was compared: a printed example or a differential game."""
        return self.scenarios_run > 0 or self.examples_run > 0

    @property
    def status(self) -> str:
        """``findings``, ``not-tested`` (nothing compared), ``incomplete`` (no finding, but the run
        stopped before its plan) or ``conformant``."""
        if self.findings:
            return "findings"
        if not self.tested:
            return "not-tested"
        if self.stopped is not None:
            return "incomplete"
        return "conformant"

    @property
    def conformant(self) -> bool:
        return self.status == "conformant"

    @property
    def verdict(self) -> str:
        """The verdict in words."""
        status = self.status
        if status == "findings":
            return f"{len(self.findings)} finding(s)"
        if status == "not-tested":
            why = f" ({self.stopped_detail})" if self.stopped_detail else ""
            return f"NOT TESTED: nothing was compared{why}"
        if status == "incomplete":
            return (
                f"no finding, but INCOMPLETE: {self.examples_run} of {self.games_planned} differential games "
                f"compared before the run stopped ({self.stopped}: {self.stopped_detail})"
            )
        return "conformant"

    def coverage(self) -> tuple[int, int]:
        """(rule IDs exercised by compared steps, rule IDs of the game)."""
        return len(self.rules_exercised & self.rules_total), len(self.rules_total)


def _to_move(game: Game[Any, Any], state: Any) -> int | str:
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return "over"
    if isinstance(mover, Chance):
        return "chance"
    return int(mover)


def field_differences(models: Sequence[str], ours: Mapping[str, Any], theirs: Any) -> list[tuple[str, Any, Any]]:
    """The top-level state fields that differ, limited to those the implementation models."""
    if not isinstance(theirs, Mapping):
        return [("(state)", "an object", theirs)]
    keys = sorted(ours) if "*" in models else [k for k in models if k in ours]
    # Equal as a whole (two serialisations) is the usual answer; only then field by field.
    if _canon({k: ours.get(k) for k in keys}) == _canon({k: theirs.get(k) for k in keys}):
        return []
    return [(k, ours.get(k), theirs.get(k)) for k in keys if _canon(ours.get(k)) != _canon(theirs.get(k))]


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _action_set(actions: Any) -> set[str]:
    return {_canon(a) for a in actions} if isinstance(actions, list) else set()


class Mismatch(Exception):
    """Raised inside a Hypothesis example; carries the finding (the last one raised is the shrunk one)."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.title)
        self.finding = finding


# -- one game, step by step, on both sides ------------------------------------------------------


class Peer(Protocol):
    """What Lockstep asks of the other side: a process (Implementation) or
    the model under another ruleset (inprocess.InProcess)."""

    def hello(self) -> dict[str, Any]: ...

    def restart(self) -> None: ...

    def new_game(
        self, setup: dict[str, Any], readings: dict[str, str] | None = None, components: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def set_state(
        self, state: dict[str, Any], *, readings: dict[str, str] | None = None, fixture: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...

    def legal_actions(self) -> dict[str, Any]: ...

    def apply(self, action: dict[str, Any]) -> dict[str, Any]: ...

    def scores(self) -> dict[str, Any]: ...


@attrs.define
class Lockstep:
    """The reference game and the implementation, driven together.

    ``self_test``: the peer is the model under another ruleset (an ambiguity's
    other reading, an erratum).  Then a different rule ID for the same refusal
    is no difference in play, and scores, winners and chance odds are compared too.
    """

    game: Game[Any, Any]
    impl: Peer
    models: tuple[str, ...]
    where: str
    setup: dict[str, Any] | None = None
    state: Any = None
    log: list[Any] = attrs.Factory(list)
    compared: int = 0
    self_test: bool = False
    protocol: int = 1  # the peer's protocol: 2 reports scores and the outcome
    tracer: RuleTracer | None = None  # records the rules each step exercised
    step_rules: tuple[str, ...] = ()  # the rules the last step exercised, in catalogue order
    exercised: set[str] = attrs.Factory(set)
    start_state: dict[str, Any] | None = None  # set when the game started from a given state
    last_json: Any = None  # the reference's state after the last compared step, as JSON
    _legal: tuple[Any, list[Any]] | None = None

    def traced(self) -> AbstractContextManager[set[str]]:
        return self.tracer.tracing() if self.tracer is not None else nullcontext(set())

    def _considered(self) -> set[str]:
        """The rules whose conditions the last traced check tested (a legal action's grounds)."""
        return set(self.tracer.considered) if self.tracer is not None else set()

    def ordered(self, rules: set[str] | Sequence[str]) -> tuple[str, ...]:
        """Rule IDs in the catalogue's order (unknown ones last)."""
        order = {rule.id: i for i, rule in enumerate(self.game.catalogue)}
        return tuple(sorted(set(rules), key=lambda r: (order.get(r, len(order)), r)))

    def finding(self, kind: str, title: str, **extra: Any) -> Finding:
        steps = tuple(self.game.action_to_json(a) for a in self.log)
        text = []
        try:
            if self.setup:
                replay = self.game.start(Setup.from_json(self.setup))
            elif self.start_state is not None:
                replay = self.game.state_from_json(self.start_state)
            else:
                replay = None
        except Exception:
            replay = None
        for action in self.log:
            if replay is not None:
                text.append(self.game.describe(replay, action))
                try:
                    replay = self.game.transition(replay, action)
                except Exception:
                    replay = None
            else:
                text.append(json.dumps(self.game.action_to_json(action)))
        picture = drawn = ""
        try:
            picture = self.game.render(self.state) if self.state is not None else ""
            drawn = (self.game.picture(self.state) or "") if self.state is not None else ""
        except Exception:  # a picture must never cost the finding
            pass
        extra.setdefault("start_state", self.start_state)
        return Finding(
            kind,
            title,
            self.where,
            len(self.log),
            steps,
            tuple(text),
            setup=self.setup,
            picture=picture,
            svg=drawn,
            **extra,
        )

    def compare_state(self, reply: Mapping[str, Any], context: str) -> None:
        self.compared += 1
        ours = self.game.state_to_json(self.state)
        self.last_json = ours  # the search's value profile reads it (no second serialisation)
        differing = field_differences(self.models, ours, reply.get("state"))
        if differing:
            names = ", ".join(f for f, _, _ in differing)
            raise Mismatch(
                self.finding(
                    "state", f"{context}: the states differ in {names}", fields=tuple(differing), rules=self.step_rules
                )
            )
        if self.self_test:
            self._compare_outcome(reply, context)
        if self.protocol >= 2 and self.game.is_over(self.state):
            self.compare_final(reply.get("outcome"), context)
        theirs_mover = reply.get("to_move")
        if theirs_mover is not None and theirs_mover != _to_move(self.game, self.state):
            raise Mismatch(
                self.finding(
                    "state",
                    f"{context}: the decision is {theirs_mover!r}'s, the rules give it to "
                    f"{_to_move(self.game, self.state)!r}",
                    ours=_to_move(self.game, self.state),
                    theirs=theirs_mover,
                    rules=self.step_rules,
                )
            )

    def _compare_outcome(self, reply: Mapping[str, Any], context: str) -> None:
        from rulecraft.conformance.inprocess import outcome

        ours = outcome(self.game, self.state)
        differing = [(k, ours.get(k), reply.get(k)) for k in ("scores", "winners") if ours.get(k) != reply.get(k)]
        if differing:
            names = " and ".join(k for k, _, _ in differing)
            raise Mismatch(
                self.finding(
                    "outcome", f"{context}: the {names} differ", fields=tuple(differing), rules=self.step_rules
                )
            )

    def _scoring(self) -> tuple[dict[str, Any] | None, set[str]]:
        """The reference's outcome on the wire, and the rules its scoring exercised."""
        with self.traced() as hit:
            ours = outcome_json(self.game, self.state)
            self.game.scores(self.state)
            self.game.winners(self.state)
        self.exercised |= hit
        return ours, hit

    def compare_final(self, theirs: Any, context: str) -> None:
        """Protocol 2, game over: the outcome (each seat's score by its parts, the winners, the
        tie-break and the rule that ended the game) must agree."""
        ours, hit = self._scoring()
        differing = compare_outcome(ours, theirs)
        if differing:
            names = ", ".join(sorted({path.split(".")[0] for path, _, _ in differing}))
            raise Mismatch(
                self.finding(
                    "outcome",
                    f"{context}: the outcome of the game differs in {names}",
                    fields=tuple(differing),
                    rules=self.ordered(hit | set(self.step_rules)),
                )
            )

    def compare_scores(self, context: str) -> None:
        """Protocol 2: the scores as counted now, part by part (the ``scores`` request)."""
        if self.protocol < 2:
            return
        with self.traced() as hit:
            ours = scores_json(self.game.score_parts(self.state))
        reply = self.impl.scores()
        differing = compare_scores(ours, reply.get("scores") if reply.get("ok") else reply)
        if differing:
            raise Mismatch(
                self.finding(
                    "scores",
                    f"{context}: the scores differ in {len(differing)} place(s)",
                    fields=tuple(differing[:20]),
                    rules=self.ordered(hit | set(self.step_rules)),
                )
            )

    def compare_end(self) -> None:
        """At game over: the reference's final scoring and winners are exercised (their rules count as
        covered); the outcome itself was compared with the last step's reply (protocol 2)."""
        _ours, hit = self._scoring()
        self.step_rules = self.ordered(hit)

    def compare_chance(self) -> None:
        """Self-test only: the same chance outcomes with the same exact odds."""
        from rulecraft.conformance.inprocess import InProcess

        if not isinstance(self.impl, InProcess):
            return
        ours = {_canon(self.game.action_to_json(a)): str(p) for a, p in self.game.chance_outcomes(self.state)}
        theirs = self.impl.chance_outcomes()
        if ours != theirs:
            keys = sorted(set(ours) | set(theirs))
            fields = tuple(
                (k, ours.get(k, "impossible"), theirs.get(k, "impossible"))
                for k in keys
                if ours.get(k) != theirs.get(k)
            )
            raise Mismatch(
                self.finding("chance", f"the chance outcomes differ in {len(fields)} outcome(s)", fields=fields[:20])
            )

    def compare_legal_actions(self) -> None:
        mover = self.game.to_move(self.state)
        if isinstance(mover, Chance):
            if self.self_test:
                self.compare_chance()
            return
        if isinstance(mover, GameOver):
            return
        ours = {_canon(self.game.action_to_json(a)) for a in self.legal_actions()}
        theirs = _action_set(self.impl.legal_actions().get("actions"))
        if ours != theirs:
            missing, extra = sorted(ours - theirs), sorted(theirs - ours)
            rules = self.ordered([*self._rules_of_extra(extra), *self._rules_of_missing(missing)])
            raise Mismatch(
                self.finding(
                    "legal-actions",
                    f"the legal actions differ: {len(missing)} missing, {len(extra)} extra",
                    ours=[json.loads(m) for m in missing[:20]],
                    theirs=[json.loads(e) for e in extra[:20]],
                    rules=rules,
                )
            )

    def legal_actions(self) -> list[Any]:
        """The reference's legal actions in the current state (computed once per state)."""
        cached = self._legal
        if cached is None or cached[0] is not self.state:
            cached = (self.state, list(self.game.legal_actions(self.state)))
            self._legal = cached
        return cached[1]

    def _rules_of_extra(self, extra: Sequence[str]) -> tuple[str, ...]:
        rules = []
        for text in extra[:20]:
            try:
                rejection = self.game.check(self.state, self.game.action_from_json(json.loads(text)))
            except Exception:
                continue
            if rejection is not None:
                rules.append(rejection.rule)
        return tuple(sorted(set(rules)))

    def _rules_of_missing(self, missing: Sequence[str]) -> set[str]:
        """The rules that make the actions the implementation lacks legal: their grounds, and the
        rules the reference's check of them exercises."""
        rules: set[str] = set()
        for text in missing[:20]:
            try:
                action = self.game.action_from_json(json.loads(text))
                rules.update(self.game.grounds(self.state, action))
                with self.traced() as hit:
                    self.game.check(self.state, action)
                rules |= hit | self._considered()
            except Exception:
                continue
        return rules

    def _grounds(self, action: Any, rejected: Any) -> tuple[str, ...]:
        """For a legal action refused: the rules it rests on (decisive first), then the rule they cited."""
        try:
            rules = list(self.game.grounds(self.state, action))
            with self.traced() as hit:
                self.game.check(self.state, action)
            rules += [r for r in self.ordered(hit | self._considered()) if r not in rules]
        except Exception:  # an explanation must never cost the finding
            rules = []
        cited = rejected.get("rule") if isinstance(rejected, Mapping) else None
        if isinstance(cited, str) and cited not in rules:
            rules.append(cited)
        return tuple(rules)

    def probe(self, action: Any) -> None:
        """An action the reference may refuse: the verdicts (and the rule, when given) must agree."""
        with self.traced() as hit:
            ours = self.game.check(self.state, action)
        if ours is not None:
            hit.add(ours.rule)
        self.exercised |= hit
        reply = self.impl.apply(self.game.action_to_json(action))
        theirs_ok = bool(reply.get("ok"))
        if ours is None:
            # Accepted by the rules: the implementation must accept it too; then both sides step on.
            if not theirs_ok:
                rejected = reply.get("rejected") or {}
                raise Mismatch(
                    self.finding(
                        "verdict",
                        f"{self.game.describe(self.state, action)}: legal, but the implementation "
                        f"refused it ({rejected.get('rule') or 'no rule'}: {rejected.get('reason', '')})",
                        ours="accepted",
                        theirs=rejected,
                        rules=self._grounds(action, rejected),
                    )
                )
            self.log.append(action)
            description = self.game.describe(self.state, action)
            self._advance(action)
            self.compare_state(reply, f"after {description}")
            return
        if theirs_ok:
            self.log.append(action)
            raise Mismatch(
                self.finding(
                    "verdict",
                    f"{action!r} is illegal ({ours}), but the implementation accepted it",
                    ours=ours.to_json(),
                    theirs="accepted",
                    # the rule cited first, then the rules the refusal's check ran or tested
                    rules=(ours.rule, *(r for r in self.ordered(hit | self._considered()) if r != ours.rule)),
                )
            )
        their_rule = (reply.get("rejected") or {}).get("rule")
        forbidding = {ours.rule} | {r.rule for r in self.game.rejections(self.state, action)}
        if their_rule and their_rule not in forbidding and not self.self_test:
            raise Mismatch(
                self.finding(
                    "verdict",
                    f"{action!r} is refused for another rule: {their_rule}, the rulebook says "
                    f"{' or '.join(sorted(forbidding))}",
                    ours=ours.to_json(),
                    theirs=reply.get("rejected"),
                    rules=(ours.rule, str(their_rule)),
                )
            )

    def step(self, action: Any) -> None:
        """A legal action on both sides."""
        reply = self.impl.apply(self.game.action_to_json(action))
        description = self.game.describe(self.state, action)
        self.log.append(action)
        if not reply.get("ok"):
            rejected = reply.get("rejected") or {}
            rules = self._grounds(action, rejected)
            raise Mismatch(
                self.finding(
                    "verdict",
                    f"{description}: legal, but the implementation refused it "
                    f"({rejected.get('rule') or 'no rule'}: {rejected.get('reason', reply.get('error', ''))})",
                    ours="accepted",
                    theirs=rejected or reply,
                    rules=rules,
                )
            )
        self._advance(action)
        self.compare_state(reply, f"after {description}")

    def _advance(self, action: Any) -> None:
        """The reference takes a legal step; the rules its check and effects ran are the step's."""
        grounds = self.game.grounds(self.state, action)  # the rules that make it legal, where the game says
        with self.traced() as hit:
            self.game.check(self.state, action)
            self.state = self.game.transition(self.state, action)
        hit.update(grounds)
        # A finding names the rules the step exercised and those whose conditions it tested (an
        # effect that went the other way than the implementation's shows only as a condition).
        self.step_rules = self.ordered(hit | self._considered())
        self.exercised |= hit


# -- the differential run ------------------------------------------------------------------------------


class RunStopped(Exception):
    """The implementation could not be brought back after a fault: the run ends with this finding."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.title)
        self.finding = finding


def _restart(impl: Peer, lock: Lockstep, cause: str) -> None:
    """Bring the implementation back after a fault; failing that, end the run with a finding."""
    try:
        impl.restart()
        impl.hello()
    except ImplementationFault as fault:
        raise RunStopped(
            lock.finding(
                "fault",
                f"the implementation failed ({cause}) and then failed its restart: {fault.kind}",
                evidence=str(fault),
            )
        ) from None


@attrs.define
class Differential:
    """One differential campaign: the reference, the peer and how a game is played on both."""

    game: Game[Any, Any]
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
            widen(trial.extremes, lock.last_json, trial.steps, context)
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


def _context(game: Game[Any, Any], start: Start, state: Any) -> str:
    """What keeps value profiles apart: the player count (a solo score is not a 4-player score)."""
    setup = start.setup if start.is_new_game else start.origin
    if setup is not None and "players" in setup:
        return f"{setup['players']}p"
    try:
        return f"{len(game.scores(state))}p"
    except Exception:  # a state the scoring cannot read: no context
        return ""


def _lead(game: Game[Any, Any], state: Any) -> float | None:
    """The winner's lead over the next seat at the end (None: a single seat, or no scores)."""
    try:
        seats = len(game.scores(state))
        return margin(game, state) if seats > 1 else None
    except Exception:  # scoring that fails is compared (and reported) elsewhere
        return None


def _ending_kind(game: Game[Any, Any], state: Any) -> str:
    """A finished game's kind of ending: how it ended, the standing, how many won."""
    try:
        return f"{game.termination(state)}/{game.standing(state)}/{len(game.winners(state))} won"
    except Exception:  # scoring that fails is compared (and reported) elsewhere
        return "unscored"


def _transplants(
    game: Game[Any, Any], outcome: Any, pooled: Mapping[str, list[Any]], cache: dict[str, list[Any]]
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


def differential(
    game: Game[Any, Any],
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
    corpus_rate: float = 0.3,
    ending_rate: float = 0.15,
    trace: bool = True,
    only_starts: bool = False,
) -> None:
    """Seeded games on both sides until one differs (then shrunk) or ``max_examples`` are played.

    ``starts``: given states to start from (printed examples), used when the
    peer takes ``set_state``.  ``deadline``: a wall-clock safety net; when it
    bites, the report says so.  The same seed gives the same games, findings
    and shrunk game on any machine as long as the safety net does not bite.  ``only_starts``: every
    game from one of ``starts`` (none from a new game).
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
        for index in range(max_examples):
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
            trial = run.execute(plan, Draws(rng, plan.choices), max_steps)
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


def random_setup_of(game: Game[Any, Any], rng: random.Random, players: Sequence[int]) -> dict[str, Any]:
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


def _path(game: Game[Any, Any], plan: Plan, trial: Trial) -> tuple[dict[str, Any], ...]:
    """The actions from the root start (a new game, or a printed example's given state) to the difference."""
    return tuple(dict(a) for a in plan.start.path) + tuple(game.action_to_json(a) for a in trial.actions)


def _root(plan: Plan) -> str:
    start = plan.start
    return "a new game" if start.is_new_game or start.origin is not None else (start.root or start.label)


# -- printed examples -------------------------------------------------------------------------------------


def replay_scenarios(
    game: Game[Any, Any],
    impl: Implementation,
    models: tuple[str, ...],
    capabilities: Sequence[str],
    report: ConformReport,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Every printed example: its given state via set_state, then its steps on both sides."""
    for path in scenario_files(game.id):
        if progress:
            progress(1)
        try:
            scenario = load_scenario(path)
        except ScenarioFileError as exc:
            report.skipped.append(str(exc))
            continue
        if "set_state" not in capabilities:
            report.skipped.append(f"{scenario.id}: the implementation cannot take a given state (no set_state)")
            continue
        report.scenarios_run += 1
        reference = game.__class__.configured(readings=dict(scenario.readings))
        lock = Lockstep(
            reference, impl, models, f"{scenario.id} ({path.name}, {cite(scenario.page)})", protocol=impl.protocol
        )
        try:
            lock.state = reference.scenario_state(scenario.given)
            fixture = reference.scenario_fixture(scenario.given)
            reply = impl.set_state(
                reference.state_to_json(lock.state), readings=dict(scenario.readings) or None, fixture=fixture
            )
            if not reply.get("ok"):
                raise Mismatch(lock.finding("scenario", f"the given state was refused: {reply.get('error', '')}"))
            # The state as the implementation holds it: a given state it loads wrongly shows here,
            # even in an example without steps.
            lock.compare_state(impl.state(), "after the given state was set")
            for step in scenario.steps:
                key = "reject" if "reject" in step else ("do" if "do" in step else "chance")
                action = reference.action_from_json(step[key])
                if key == "reject":
                    lock.probe(action)
                else:
                    lock.step(action)
            # The example's end state: its legal actions (a `legal:`/`illegal:` fact of the example is
            # one of them) and, at game over, the outcome.
            lock.compare_legal_actions()
            lock.compare_scores("at the example's end")
            if reference.is_over(lock.state):
                lock.compare_end()
            report.scenarios_passed += 1
        except Mismatch as mismatch:
            # The finding's own rules first (for a refused legal action: the decisive ones), then the example's.
            rules = tuple(dict.fromkeys([*mismatch.finding.rules, *scenario.rules]))
            report.add(attrs.evolve(mismatch.finding, rules=rules))
        except ImplementationFault as fault:
            report.add(lock.finding("fault", f"the implementation failed: {fault.kind}", evidence=str(fault)))
            _restart(impl, lock, fault.kind)
        finally:
            report.steps_compared += lock.compared


def max_steps_for(game: Game[Any, Any]) -> int:
    """The step cap of a differential game: the game's campaign cap, far above its longest game."""
    return max(game.campaign_steps, 1000)


def conform(
    game: Game[Any, Any],
    command: str,
    *,
    max_examples: int = 50,
    max_steps: int | None = None,
    seed: int = 0,
    timeout: float = 5.0,
    seconds: float | None = None,
    players: Sequence[int] | None = None,
    scenarios: bool = True,
    progress: Callable[[str, int], None] | None = None,
    components: Mapping[str, Any] | None = None,
    shrink_replays: int = DEFAULT_SHRINK_REPLAYS,
) -> ConformReport:
    """Replay the printed examples, then run differential games (see the module docstring).

    ``max_steps``: a differential game's step cap (default: far above the
    game's longest game).  ``seconds``: a wall-clock safety cap on the
    differential phase alone (not on the printed examples); when it bites the
    verdict is "incomplete", never "conformant".  ``components``: a component
    pack as JSON data, the one ``game`` was configured with; it is sent with
    every differential ``new_game``.  The printed examples keep the bundled
    pack: their expected values come from it.

    Interrupted (Ctrl-C, SIGTERM turned into KeyboardInterrupt), the report
    so far is returned with ``stopped == "interrupted"``.
    """
    report = ConformReport(game.id, command, seed=seed, rules_total=frozenset(r.id for r in game.catalogue))
    start = report.started
    steps = max_steps if max_steps is not None else max_steps_for(game)
    try:
        with _launch(command, game, timeout) as impl:
            capabilities = _handshake(impl, report)
            if capabilities is None:
                report.seconds = time.monotonic() - start
                return report
            try:
                if scenarios:
                    replay_scenarios(
                        game,
                        impl,
                        report.models,
                        capabilities,
                        report,
                        (lambda n: progress("printed examples", n)) if progress else None,
                    )
            except RunStopped as stopped:
                report.add(stopped.finding)
                report.stopped, report.stopped_detail = "fault", "the implementation could not be restarted"
            if report.stopped is None:
                counts = list(players or range(game.min_players, game.max_players + 1))
                # The safety cap counts from here: a slow printed-example replay cannot eat the differential phase.
                deadline = time.monotonic() + seconds if seconds else None
                differential(
                    game,
                    impl,
                    report.models,
                    max_examples=max_examples,
                    max_steps=steps,
                    seed=seed,
                    players=counts,
                    report=report,
                    progress=(lambda n: progress("differential", n)) if progress else None,
                    deadline=deadline,
                    components=components,
                    starts=example_starts(game) if components is None else (),
                    set_state="set_state" in capabilities,
                    shrink_replays=shrink_replays,
                )
    except KeyboardInterrupt:
        report.stopped = "interrupted"
        report.stopped_detail = report.stopped_detail or f"after {report.examples_run} differential games"
    report.seconds = time.monotonic() - start
    return report


def _launch(command: str, game: Game[Any, Any], timeout: float) -> Implementation:
    """The implementation, started; a command that cannot start (no such program) is a usage error."""
    implementation = Implementation(command, game=game.id, timeout=timeout)
    try:
        implementation.start()
    except ImplementationFault as fault:
        raise RulecraftError(f"--impl {command!r}: {fault.message}") from None
    return implementation


def _handshake(impl: Implementation, report: ConformReport) -> tuple[str, ...] | None:
    """``hello``: the implementation's capabilities, with its models and protocol on the report; None
    (a finding that stops the run) when it fails the handshake."""
    try:
        hello = impl.hello()
    except ImplementationFault as fault:
        report.add(Finding("fault", f"the implementation failed at hello: {fault.kind}", "hello", evidence=str(fault)))
        report.stopped, report.stopped_detail = "fault", "no handshake"
        return None
    report.models = tuple(hello.get("models") or ["*"])
    report.protocol = int(hello.get("protocol") or 1)
    return tuple(hello.get("capabilities") or ())


def example_starts(game: Game[Any, Any]) -> list[Start]:
    """Every printed example's given state (under the game's own ruleset) as a differential start;
    none when the game plays another component pack than the bundled one the examples are built on."""
    out: list[Start] = []
    try:
        bundled = type(game).configured(readings=dict(game.ruleset.readings))
    except Exception:
        return out
    if getattr(bundled, "pack", None) != getattr(game, "pack", None):
        return out
    for path in scenario_files(game.id):
        try:
            scenario = load_scenario(path)
        except ScenarioFileError:
            continue
        if scenario.readings or scenario.components:
            continue  # its own ruleset or pack: not a state of this game's ruleset
        try:
            if game.scenario_fixture(scenario.given):
                continue  # a fixture board changes the game's map: not a start for this configuration
            state = game.scenario_state(scenario.given)
        except Exception:  # a state this configuration cannot build is no start
            continue
        out.append(Start(f"{scenario.id} ({cite(scenario.page)})", state=state))
    return out


def iter_findings(report: ConformReport) -> Iterator[Finding]:
    yield from report.findings


# -- replaying a finding ------------------------------------------------------------------------------------------

REPLAY_FORMAT = 1


def replay_document(game_id: str, finding: Finding) -> dict[str, Any]:
    """Everything needed to replay a finding's game exactly, as JSON: its start (a set-up or a given
    state), its steps, and the full way there from a new game (or a printed example)."""
    start: dict[str, Any]
    if finding.setup:
        start = {"setup": finding.setup}
    else:
        start = {"state": finding.start_state}
    return {
        "rulecraft_replay": REPLAY_FORMAT,
        "game": game_id,
        "kind": finding.kind,
        "title": finding.title,
        "rules": list(finding.rules),
        "start": start,
        "steps": list(finding.steps),
        "full": {"origin": finding.origin, "root": finding.root or "a new game", "path": list(finding.path)},
    }


def read_replay(path: str, game_id: str) -> dict[str, Any]:
    """A replay document from ``path``, checked: one line naming file and field on any problem."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(1 << 24)
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise RulecraftError(f"{path}: not a readable replay document: {str(exc)[:120]}") from None
    if not isinstance(data, dict) or data.get("rulecraft_replay") != REPLAY_FORMAT:
        raise RulecraftError(f"{path}: rulecraft_replay: a replay document of format {REPLAY_FORMAT} is needed")
    if data.get("game") != game_id:
        raise RulecraftError(f"{path}: game: this is a replay of {str(data.get('game'))[:20]!r}, not {game_id!r}")
    start, steps = data.get("start"), data.get("steps")
    if not isinstance(start, dict) or not (
        isinstance(start.get("setup"), dict) or isinstance(start.get("state"), dict)
    ):
        raise RulecraftError(f"{path}: start: an object with a 'setup' or a 'state' object is needed")
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise RulecraftError(f"{path}: steps: a list of action objects is needed")
    return data


def replay(
    game: Game[Any, Any], command: str, document: Mapping[str, Any], *, timeout: float = 5.0, full: bool = False
) -> ConformReport:
    """Play a replay document's game on both sides, comparing after every step as the search did.
    ``full``: from the origin (a new game) along the full path instead of from the short game's start."""
    report = ConformReport(game.id, command, rules_total=frozenset(r.id for r in game.catalogue))
    report.games_planned = 1
    start = dict(document["start"])
    steps = list(document["steps"])
    whole = document.get("full") or {}
    if full:
        if not isinstance(whole.get("origin"), dict):
            raise RulecraftError(
                "--full: this finding's game starts from a printed example's state, not from a new game"
            )
        start, steps = {"setup": whole["origin"]}, list(whole.get("path") or [])
    try:
        with _launch(command, game, timeout) as impl:
            if _handshake(impl, report) is None:
                return report
            setup = start.get("setup")
            lock = Lockstep(
                game, impl, report.models, "replay", setup, tracer=RuleTracer(game), protocol=report.protocol
            )
            try:
                if setup is not None:
                    lock.state = game.start(Setup.from_json(setup))
                    reply = impl.new_game(setup)
                    if not reply.get("ok"):
                        raise Mismatch(lock.finding("verdict", f"new_game was refused: {reply.get('error', '')}"))
                    lock.compare_state(reply, "after set-up")
                else:
                    lock.state = game.state_from_json(start["state"])
                    lock.start_state = dict(start["state"])
                    reply = impl.set_state(dict(start["state"]))
                    if not reply.get("ok"):
                        raise Mismatch(
                            lock.finding("scenario", f"the given state was refused: {reply.get('error', '')}")
                        )
                    lock.compare_state(impl.state(), "after the given state was set")
                    lock.compare_scores("at the given state")  # as the search does: a finding may be here
                for data in steps:
                    lock.compare_legal_actions()
                    action = game.action_from_json(data)
                    rejection = game.check(lock.state, action)
                    if rejection is not None:
                        raise RulecraftError(
                            f"replay: step {len(lock.log) + 1} is illegal under the rules: {rejection}"
                        )
                    lock.step(action)
                lock.compare_legal_actions()
                report.examples_run = 1
                report.games_finished = int(game.is_over(lock.state))
            except Mismatch as mismatch:
                report.examples_run = 1
                report.add(mismatch.finding)
            except ImplementationFault as fault:
                report.examples_run = 1
                report.add(lock.finding("fault", f"the implementation failed: {fault.kind}", evidence=str(fault)))
            finally:
                report.steps_compared += lock.compared
                report.rules_exercised |= lock.exercised
    except KeyboardInterrupt:
        report.stopped, report.stopped_detail = "interrupted", "during the replay"
    report.seconds = time.monotonic() - report.started
    return report
