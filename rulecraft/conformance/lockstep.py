"""Playing the reference and an implementation in lockstep: every step's state, legal actions, verdicts
and (protocol 2) outcome compared, a difference raised as a finding with the rules of its step."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol

import attrs

from rulecraft.conformance.client import ImplementationFault
from rulecraft.conformance.findings import Finding
from rulecraft.conformance.outcome import compare_outcome, compare_scores, outcome_json, scores_json
from rulecraft.core import A, AnyGame, Chance, Game, GameOver, S, Setup
from rulecraft.coverage import RuleTracer


def _to_move(game: Game[S, A], state: S) -> int | str:
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

    game: AnyGame
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
    ranking_unreported: int = 0  # game ends where the peer sent no tie-break counts to compare
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
        if ours and "ranking" in ours and not (isinstance(theirs, Mapping) and "ranking" in theirs):
            self.ranking_unreported += 1  # optional: the report says it was not compared
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
        ours_json = [self.game.action_to_json(a) for a in self.legal_actions()]
        theirs_json = self.impl.legal_actions().get("actions")
        if _canon(ours_json) == _canon(theirs_json):
            return  # the same list in the same order (the usual answer): the same set, in two serialisations
        ours = {_canon(a) for a in ours_json}
        theirs = _action_set(theirs_json)
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
                        probe=self.game.action_to_json(action),
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
                    probe=self.game.action_to_json(action),
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
