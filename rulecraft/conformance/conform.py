"""``rulecraft conform``: CI for other implementations of the games.

Two checks, both against the reference model:

1. every printed-example scenario is replayed on the implementation (it
   receives the example's given state with ``set_state``), and after every
   step the states and the accept/reject verdicts must agree;
2. property-based differential testing: Hypothesis draws games as choice
   sequences (legal actions from the reference, chance outcomes forced),
   with a probe of an illegal action at every step; after every step the
   states, the sets of legal actions and the verdicts must agree.  A
   difference is shrunk by Hypothesis to the shortest failing game.

A misbehaving implementation (crash, hang, garbage, enormous output, the
wrong protocol) is a finding with its evidence, never a crash of rulecraft.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

import attrs
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from rulecraft.conformance.client import Implementation, ImplementationFault
from rulecraft.core import Chance, Game, GameOver, Setup, cite
from rulecraft.scenarios.loader import ScenarioFileError, load_scenario, scenario_files


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


@attrs.define
class ConformReport:
    game: str
    command: str
    models: tuple[str, ...] = ("*",)
    scenarios_run: int = 0
    scenarios_passed: int = 0
    examples_run: int = 0
    steps_compared: int = 0
    seconds: float = 0.0
    seed: int = 0
    findings: list[Finding] = attrs.Factory(list)
    skipped: list[str] = attrs.Factory(list)
    first_finding_at: float | None = None  # seconds from the start until the first finding was known
    first_difference_at: float | None = None  # seconds until a differential game first differed (before shrinking)
    started: float = attrs.field(factory=time.monotonic)

    def add(self, finding: Finding) -> None:
        if self.first_finding_at is None:
            self.first_finding_at = time.monotonic() - self.started
        self.findings.append(finding)

    @property
    def conformant(self) -> bool:
        return not self.findings


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
    return [(k, ours.get(k), theirs.get(k)) for k in keys if _canon(ours.get(k)) != _canon(theirs.get(k))]


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _action_set(actions: Any) -> set[str]:
    return {_canon(a) for a in actions} if isinstance(actions, list) else set()


class _OutOfTime(BaseException):
    """The time budget is spent: stops Hypothesis at once, even mid-shrink (it lets BaseException through)."""


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

    def finding(self, kind: str, title: str, **extra: Any) -> Finding:
        steps = tuple(self.game.action_to_json(a) for a in self.log)
        text = []
        try:
            replay = self.game.start(Setup.from_json(self.setup)) if self.setup else None
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
        differing = field_differences(self.models, ours, reply.get("state"))
        if differing:
            names = ", ".join(f for f, _, _ in differing)
            raise Mismatch(self.finding("state", f"{context}: the states differ in {names}", fields=tuple(differing)))
        if self.self_test:
            self._compare_outcome(reply, context)
        theirs_mover = reply.get("to_move")
        if theirs_mover is not None and theirs_mover != _to_move(self.game, self.state):
            raise Mismatch(
                self.finding(
                    "state",
                    f"{context}: the decision is {theirs_mover!r}'s, the rules give it to "
                    f"{_to_move(self.game, self.state)!r}",
                    ours=_to_move(self.game, self.state),
                    theirs=theirs_mover,
                )
            )

    def _compare_outcome(self, reply: Mapping[str, Any], context: str) -> None:
        from rulecraft.conformance.inprocess import outcome

        ours = outcome(self.game, self.state)
        differing = [(k, ours.get(k), reply.get(k)) for k in ("scores", "winners") if ours.get(k) != reply.get(k)]
        if differing:
            names = " and ".join(k for k, _, _ in differing)
            raise Mismatch(self.finding("outcome", f"{context}: the {names} differ", fields=tuple(differing)))

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
        ours = {_canon(self.game.action_to_json(a)) for a in self.game.legal_actions(self.state)}
        theirs = _action_set(self.impl.legal_actions().get("actions"))
        if ours != theirs:
            missing, extra = sorted(ours - theirs), sorted(theirs - ours)
            rules = self._rules_of_extra(extra)
            raise Mismatch(
                self.finding(
                    "legal-actions",
                    f"the legal actions differ: {len(missing)} missing, {len(extra)} extra",
                    ours=[json.loads(m) for m in missing[:20]],
                    theirs=[json.loads(e) for e in extra[:20]],
                    rules=rules,
                )
            )

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

    def _grounds(self, action: Any, rejected: Any) -> tuple[str, ...]:
        """For a legal action refused: the rules it rests on (decisive first), then the rule they cited."""
        try:
            rules = list(self.game.grounds(self.state, action))
        except Exception:  # an explanation must never cost the finding
            rules = []
        cited = rejected.get("rule") if isinstance(rejected, Mapping) else None
        if isinstance(cited, str) and cited not in rules:
            rules.append(cited)
        return tuple(rules)

    def probe(self, action: Any) -> None:
        """An action the reference may refuse: the verdicts (and the rule, when given) must agree."""
        ours = self.game.check(self.state, action)
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
            self.state = self.game.transition(self.state, action)
            self.compare_state(reply, f"after {self.game.describe(self.state, action)}")
            return
        if theirs_ok:
            self.log.append(action)
            raise Mismatch(
                self.finding(
                    "verdict",
                    f"{action!r} is illegal ({ours}), but the implementation accepted it",
                    ours=ours.to_json(),
                    theirs="accepted",
                    rules=(ours.rule,),
                )
            )
        their_rule = (reply.get("rejected") or {}).get("rule")
        if their_rule and their_rule != ours.rule and not self.self_test:
            raise Mismatch(
                self.finding(
                    "verdict",
                    f"{action!r} is refused for another rule: {their_rule}, the rulebook says {ours.rule}",
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
        self.state = self.game.transition(self.state, action)
        self.compare_state(reply, f"after {description}")


# -- the differential run ------------------------------------------------------------------------------


def _probe_for(game: Game[Any, Any], state: Any, seen: Sequence[Any], choice: int) -> Any | None:
    """An action taken elsewhere in the game: at this point often illegal, so a good probe."""
    if not seen:
        return None
    candidate = seen[choice % len(seen)]
    return candidate if game.check(state, candidate) is not None else None


def _keep(smallest: list[Finding], finding: Finding) -> None:
    if not smallest or len(finding.steps) < len(smallest[0].steps):
        smallest[:] = [finding]


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
    random_setup: bool = False,
    starts: Sequence[tuple[str, Any]] = (),
) -> None:
    """Hypothesis draws games; the first difference is shrunk to the shortest failing game.

    ``components``: the pack (as JSON data) ``game`` is configured with; every
    ``new_game`` sends it, so both sides play with the same components.
    """
    found: list[Finding] = []
    smallest: list[Finding] = []  # the shortest failing game seen, kept in case shrinking is cut short

    @settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        derandomize=False,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @given(players=st.sampled_from(list(players)), data=st.data())
    def run(players: int, data: st.DataObject) -> None:
        # Choices are drawn step by step, each bounded by the options there: a game draws only what
        # it uses, and shrinking moves every choice towards the first option.
        if deadline is not None and time.monotonic() > deadline:
            raise _OutOfTime
        start_label, start_state = starts[data.draw(st.integers(0, len(starts) - 1))] if starts else ("", None)
        setup_options: tuple[tuple[str, Any], ...] = ()
        if random_setup and start_state is None:  # the game's own random options (e.g. teams), from a drawn seed
            drawn = game.random_options(random.Random(data.draw(st.integers(0, 2**32 - 1))), players)
            setup_options = tuple(sorted(drawn.items()))
        setup = Setup(players, 0, setup_options).to_json() if start_state is None else None
        where = "differential" if start_state is None else f"{start_label} (its given state)"
        lock = Lockstep(game, impl, models, where, setup, self_test=self_test)
        report.examples_run += 1
        if progress:
            progress(1)
        try:
            if start_state is not None:
                # A printed example's given state: rich in the situations random play rarely reaches.
                lock.state = start_state
                reply = impl.set_state(game.state_to_json(start_state))
                if not reply.get("ok"):
                    if self_test:  # the other ruleset cannot hold this state at all: no start here
                        assume(False)
                    raise Mismatch(lock.finding("scenario", f"the given state was refused: {reply.get('error', '')}"))
            else:
                assert setup is not None
                lock.state = game.start(Setup.from_json(setup))
                reply = impl.new_game(setup, components=dict(components) if components is not None else None)
                if not reply.get("ok"):
                    raise Mismatch(lock.finding("verdict", f"new_game was refused: {reply.get('error', '')}"))
                lock.compare_state(reply, "after set-up")
            seen: list[Any] = []
            for _ in range(max_steps):
                if deadline is not None and time.monotonic() > deadline:
                    raise _OutOfTime
                mover = game.to_move(lock.state)
                if isinstance(mover, GameOver):
                    break
                if seen:
                    probe = _probe_for(game, lock.state, seen, data.draw(st.integers(0, len(seen) - 1)))
                    if probe is not None:
                        lock.probe(probe)
                lock.compare_legal_actions()
                if isinstance(mover, Chance):
                    options = [a for a, _ in game.chance_outcomes(lock.state)]
                else:
                    options = list(game.legal_actions(lock.state))
                action = options[data.draw(st.integers(0, len(options) - 1))]
                seen.append(action)
                lock.step(action)
        except ImplementationFault as fault:
            impl.restart()
            impl.hello()
            mismatch = Mismatch(lock.finding("fault", f"the implementation failed: {fault.kind}", evidence=str(fault)))
            _keep(smallest, mismatch.finding)
            raise mismatch from None
        except Mismatch as mismatch:
            if report.first_difference_at is None:
                report.first_difference_at = time.monotonic() - report.started
            _keep(smallest, mismatch.finding)
            raise
        finally:
            report.steps_compared += lock.compared

    try:
        random_seed = random.Random(seed).randrange(2**31)
        from hypothesis import seed as hypothesis_seed

        hypothesis_seed(random_seed)(run)()
    except Mismatch as mismatch:
        found.append(mismatch.finding)
    except _OutOfTime:
        # The budget ran out, perhaps while shrinking: keep the shortest failing game seen so far.
        if smallest:
            found.append(smallest[0])
    except HypothesisException as exc:
        # The time budget ran out while shrinking (the final replay then passes): report the
        # shortest failing game seen so far rather than losing the finding.
        if smallest:
            found.append(smallest[0])
        else:  # pragma: no cover - reported, not raised
            report.skipped.append(f"differential testing stopped: {exc}")
    for finding in found:
        report.add(finding)


# -- printed examples -------------------------------------------------------------------------------------


def replay_scenarios(
    game: Game[Any, Any],
    impl: Peer,
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
        lock = Lockstep(reference, impl, models, f"{scenario.id} ({path.name}, {cite(scenario.page)})")
        try:
            lock.state = reference.scenario_state(scenario.given)
            fixture = reference.scenario_fixture(scenario.given)
            reply = impl.set_state(
                reference.state_to_json(lock.state), readings=dict(scenario.readings) or None, fixture=fixture
            )
            if not reply.get("ok"):
                raise Mismatch(lock.finding("scenario", f"the given state was refused: {reply.get('error', '')}"))
            for step in scenario.steps:
                key = "reject" if "reject" in step else ("do" if "do" in step else "chance")
                action = reference.action_from_json(step[key])
                if key == "reject":
                    lock.probe(action)
                else:
                    lock.step(action)
            report.scenarios_passed += 1
        except Mismatch as mismatch:
            # The finding's own rules first (for a refused legal action: the decisive ones), then the example's.
            rules = tuple(dict.fromkeys([*mismatch.finding.rules, *scenario.rules]))
            report.add(attrs.evolve(mismatch.finding, rules=rules))
        except ImplementationFault as fault:
            report.add(lock.finding("fault", f"the implementation failed: {fault.kind}", evidence=str(fault)))
            impl.restart()
            impl.hello()
        finally:
            report.steps_compared += lock.compared


def conform(
    game: Game[Any, Any],
    command: str,
    *,
    max_examples: int = 50,
    max_steps: int = 80,
    seed: int = 0,
    timeout: float = 5.0,
    seconds: float | None = None,
    players: Sequence[int] | None = None,
    scenarios: bool = True,
    progress: Callable[[str, int], None] | None = None,
    components: Mapping[str, Any] | None = None,
) -> ConformReport:
    """Replay the printed examples, then run differential games (see the module docstring).

    ``components``: a component pack as JSON data, the one ``game`` was
    configured with; it is sent with every differential ``new_game``.  The
    printed examples keep the bundled pack: their expected values come from it.
    """
    report = ConformReport(game.id, command, seed=seed)
    start = report.started
    deadline = start + seconds if seconds else None
    with Implementation(command, game=game.id, timeout=timeout) as impl:
        try:
            hello = impl.hello()
        except ImplementationFault as fault:
            report.add(
                Finding("fault", f"the implementation failed at hello: {fault.kind}", "hello", evidence=str(fault))
            )
            report.seconds = time.monotonic() - start
            return report
        report.models = tuple(hello.get("models") or ["*"])
        capabilities = tuple(hello.get("capabilities") or ())
        if scenarios:
            replay_scenarios(
                game,
                impl,
                report.models,
                capabilities,
                report,
                (lambda n: progress("printed examples", n)) if progress else None,
            )
        counts = list(players or range(game.min_players, game.max_players + 1))
        differential(
            game,
            impl,
            report.models,
            max_examples=max_examples,
            max_steps=max_steps,
            seed=seed,
            players=counts,
            report=report,
            progress=(lambda n: progress("differential", n)) if progress else None,
            deadline=deadline,
            components=components,
        )
    report.seconds = time.monotonic() - start
    return report


def iter_findings(report: ConformReport) -> Iterator[Finding]:
    yield from report.findings
