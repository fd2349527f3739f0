"""Ambiguity witnesses: where two readings of the rulebook actually change play.

An ambiguity is two rulesets that differ in one reading.  For each
non-default reading this module asks, in order:

1. can the reading be played at all?  (a registered reading the model does
   not play yet is reported as ``not-modelled``, never as harmless);
2. is it *proved* never to matter?  Either the model never consults the
   switch (checked in its source), or a solver query the game offers for the
   question's shape answers ``unsat``.  A solver ``unknown`` is its own
   outcome and never counts as proved;
3. is there a *witness*: a short legal game from set-up after which the two
   readings differ in the legal actions, the result of an action, the chance
   odds, the scores or the winners?  The conformance kit's differential
   engine plays the reference under the default against the reference under
   the other reading (:class:`~rulecraft.conformance.inprocess.InProcess`);
   Hypothesis draws the games and shrinks the first difference.

Beside the search, :func:`example_dependence` replays every printed example
under every playable reading: an example that passes only under some
readings is evidence for them.
"""

from __future__ import annotations

import ast
import re
import time
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import attrs

from rulecraft.conformance.conform import ConformReport, Finding, differential, max_steps_for
from rulecraft.conformance.inprocess import InProcess
from rulecraft.core import A, AnyGame, Chance, Game, GameOver, RulecraftError, S, Setup, cite
from rulecraft.coverage import line_map, rule_map
from rulecraft.registry import game_class, make_game
from rulecraft.ruleset import Ambiguity
from rulecraft.scenarios.loader import Scenario, ScenarioFileError, load_scenario, scenario_files
from rulecraft.scenarios.runner import run_scenario
from rulecraft.search import Start
from rulecraft.tools import tools

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

    from rulecraft.conformance.kept import DifferenceStore, KeptDifference

Outcome = Literal["witness", "not-found", "proved", "unknown", "not-modelled", "error", "settled", "not-searched"]
OUTCOMES: tuple[Outcome, ...] = (
    "witness",
    "proved",
    "not-found",
    "unknown",
    "not-modelled",
    "error",
    "settled",
    "not-searched",
)


@attrs.frozen
class Budget:
    """How hard to look, per pair of readings: ``max_examples`` games from set-up (and as many from the
    printed examples' given states) of up to ``max_steps`` steps (None: the game's own cap, far above
    its longest game, so games play to their end); ``seconds`` is a safety cap, reported
    when it stops the search.  The seed makes every run the cap does not stop reproducible."""

    seconds: float = 10.0
    max_examples: int = 200
    max_steps: int | None = None
    seed: int = 0


def steps_for(budget: Budget, game: AnyGame) -> int:
    """A witness game's step cap: the budget's, else the game's own (games play to their end)."""
    return budget.max_steps if budget.max_steps is not None else max_steps_for(game)


@attrs.frozen
class SolverVerdict:
    """A solver's answer to "is there a state where reading a allows X and reading b forbids it?"."""

    status: Literal["sat", "unsat", "unknown"]
    reason: str
    seconds: float = 0.0
    witness: Mapping[str, Any] | None = None  # the state (or its parts) the solver found


# A game may answer the question's shape with a solver: (amb_id, reading) -> verdict or None (no query).
SolverHook = Callable[[AnyGame, AnyGame, float], SolverVerdict | None]


@attrs.frozen
class PairResult:
    """The default reading against one other reading."""

    ambiguity: str
    default: str
    reading: str
    outcome: Outcome
    reason: str
    finding: Finding | None = None
    seconds: float = 0.0
    games: int = 0
    solver: SolverVerdict | None = None
    first_seconds: float | None = None  # until a game first differed, before shrinking
    rules_exercised: frozenset[str] = frozenset()  # rule IDs the compared steps exercised
    rules_total: int = 0  # rule IDs of the game
    states: int = 0  # steps compared in all the games (each a state both readings reached)
    # How often the default side's rules asked for the ambiguity's reading during the search (None:
    # not counted, e.g. the game keeps no readings the search can watch); 0 says the games never
    # reached the code that consults it.
    consulted: int | None = None
    targeted: int = 0  # states the game's witness-start hook offered for this ambiguity
    # The readings both sides played under besides the ambiguity's own (its context and the run's
    # --reading) and the component pack: what a report needs to word a step as each side played it.
    base: tuple[tuple[str, str], ...] = ()
    components: str | None = None

    @property
    def coverage(self) -> str:
        """'n/N rule IDs' of the games compared (empty when no game was played)."""
        return f"{len(self.rules_exercised)}/{self.rules_total} rule IDs" if self.rules_total and self.games else ""

    @property
    def reach(self) -> str:
        """How far the search got: states compared, and whether the consulting code was reached."""
        if not self.games:
            return ""
        parts = [f"{self.states} states compared"]
        if self.targeted:
            parts.append(f"{self.targeted} targeted start(s)")
        if self.consulted is not None:
            asked = f"consulted {self.consulted} times" if self.consulted else "never consulted in these games"
            parts.append(f"{self.ambiguity} {asked}")
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "default": self.default,
            "reading": self.reading,
            "outcome": self.outcome,
            "reason": self.reason,
            "seconds": round(self.seconds, 3),
            "first_difference_seconds": round(self.first_seconds, 3) if self.first_seconds is not None else None,
            "games": self.games,
            "rules_exercised": sorted(self.rules_exercised),
            "rules_total": self.rules_total,
            "states_compared": self.states,
            "consulted": self.consulted,
            "targeted_starts": self.targeted,
        }
        if self.solver is not None:
            out["solver"] = {
                "status": self.solver.status,
                "reason": self.solver.reason,
                "seconds": round(self.solver.seconds, 3),
                "witness": dict(self.solver.witness) if self.solver.witness is not None else None,
            }
        if self.finding is not None:
            f = self.finding
            out["witness"] = {
                "kind": f.kind,
                "difference": f.title,
                "setup": f.setup,
                "steps": list(f.steps),
                "steps_text": list(f.step_text),
                "fields": [{"field": k, "default": a, "reading": b} for k, a, b in f.fields],
                "default_side": f.ours,
                "reading_side": f.theirs,
                "rules": list(f.rules),
            }
        return out


@attrs.frozen
class ExampleRun:
    """One printed example under one reading."""

    example: str
    page: str
    reading: str
    passed: bool
    detail: str = ""
    error: bool = False  # the example cannot even be set up or played under this reading


@attrs.frozen
class AmbiguityResult:
    ambiguity: Ambiguity
    pairs: tuple[PairResult, ...]
    examples: tuple[ExampleRun, ...] = ()

    @property
    def outcome(self) -> Outcome:
        """Witness if any reading differs; proved only if every reading is proved; else the weakest."""
        outcomes = {p.outcome for p in self.pairs}
        if not outcomes:
            if len(self.ambiguity.readings) < 2:
                return "settled"  # one reading registered (a gap the register records): nothing to compare
            return "not-searched"  # readings to compare, but no search ran (--no-search): no verdict
        # A pair not searched (its shard's results missing from a merge) leaves no verdict but a witness.
        order: tuple[Outcome, ...] = ("witness", "error", "not-searched", "unknown", "not-found", "not-modelled")
        for kind in order:
            if kind in outcomes:
                return kind
        return "proved"

    def evidence(self) -> dict[str, list[str]]:
        """Per reading, the printed examples that pass under it but fail under another reading."""
        by_example: dict[str, dict[str, bool]] = {}
        for run in self.examples:
            by_example.setdefault(run.example, {})[run.reading] = run.passed
        out: dict[str, list[str]] = {}
        broken = {(run.example, run.reading) for run in self.examples if run.error}
        for example, verdicts in sorted(by_example.items()):
            verdicts = {k: v for k, v in verdicts.items() if (example, k) not in broken}
            if len(set(verdicts.values())) > 1:
                for reading, passed in verdicts.items():
                    if passed:
                        out.setdefault(reading, []).append(example)
        return out

    def to_json(self) -> dict[str, Any]:
        amb = self.ambiguity
        return {
            "id": amb.id,
            "page": amb.page,
            "question": amb.question,
            "readings": [{"key": r.key, "text": r.text} for r in amb.readings],
            "default": amb.default,
            "why": amb.why,
            "outcome": self.outcome,
            "pairs": [p.to_json() for p in self.pairs],
            "examples_evidence": self.evidence(),
            "examples_failing": [
                {"example": r.example, "page": r.page, "reading": r.reading, "error": r.error, "detail": r.detail}
                for r in self.examples
                if not r.passed
            ],
        }


# -- 2. proofs ---------------------------------------------------------------------------------------------


@cache
def _model_sources(module: str) -> tuple[str, ...]:
    """The source text of the game's model package, its ambiguity register left out."""
    package = module.rsplit(".", 1)[0]
    spec_file = __import__(package, fromlist=["__file__"]).__file__
    assert spec_file is not None
    texts = []
    for path in sorted(Path(spec_file).parent.rglob("*.py")):
        if path.name in {"readings.py", "catalogue.py"}:
            continue  # the register names every ID without consulting it
        texts.append(path.read_text("utf-8"))
    return tuple(texts)


def never_consulted(game: AnyGame, amb_id: str) -> bool:
    """True when no code of the model names the switch, so no reading of it can change play.

    Conservative: a mere mention (a comment) counts as consulted, so the
    answer errs towards "not proved".
    """
    pattern = re.compile(re.escape(amb_id) + r"(?!\d)")
    return not any(pattern.search(text) for text in _model_sources(type(game).__module__))


_READING_CALLS = frozenset({"r", "reading", "get"})  # ctx.r(ID), rules.reading(ID), readings.get(ID, ...)


@cache
def _model_trees(module: str) -> tuple[ast.Module, ...]:
    return tuple(ast.parse(text) for text in _model_sources(module))


def _literals(node: ast.expr) -> set[str] | None:
    """The strings of ``"a"`` or ``("a", "b")`` (a tuple, list or set of string constants); else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        out: set[str] = set()
        for element in node.elts:
            if not (isinstance(element, ast.Constant) and isinstance(element.value, str)):
                return None
            out.add(element.value)
        return out
    return None


def compared_keys(game: AnyGame, amb_id: str) -> tuple[frozenset[str], int] | None:
    """The reading keys the model's source compares ``amb_id`` with, and in how many places, when
    every use of the ID in code is ``X.r("ID") == "key"`` (or ``!=``, ``in (...)``, ``not in (...)``;
    ``reading``/``get`` alike), or ``name = X.r("ID")`` in a function every use of whose ``name`` is
    such a comparison; None when any use is anything else (a value kept, passed on, looked up), so
    the answer errs towards "not proved".  Comments and prose never count: only the exact string
    constant ``"ID"`` in the code is a use."""
    keys: set[str] = set()
    places = 0
    trees = _model_trees(type(game).__module__)
    if any(_builds_ids(tree, amb_id) for tree in trees):
        return None  # an ID put together at run time (f"...-AMB-{n}") might be this one
    for tree in trees:
        parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[child] = node
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and node.value == amb_id):
                continue
            call = parents.get(node)
            if not (
                isinstance(call, ast.Call)
                and call.args
                and call.args[0] is node
                and isinstance(call.func, ast.Attribute)
                and call.func.attr in _READING_CALLS
            ):
                return None
            holder = parents.get(call)
            if isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name):
                uses = _name_uses(holder, holder.targets[0].id, parents)
            else:
                uses = [call]
            for use in uses:
                literals = _compared_with(use, parents.get(use))
                if literals is None:
                    return None
                keys |= literals
                places += 1
    return frozenset(keys), places


def _name_uses(assign: ast.Assign, name: str, parents: Mapping[ast.AST, ast.AST]) -> list[ast.expr]:
    """Every read of ``name`` in the function the assignment is in (none outside a function)."""
    scope = parents.get(assign)
    while scope is not None and not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
        scope = parents.get(scope)
    if scope is None:
        return [assign.value]  # a module-level value: not a comparison, so never proved
    return [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)]


def _compared_with(use: ast.expr, compare: ast.AST | None) -> set[str] | None:
    """The string literals ``use`` is compared with (``==``, ``!=``, ``in``, ``not in``), else None."""
    if not (isinstance(compare, ast.Compare) and len(compare.ops) == 1):
        return None
    if not isinstance(compare.ops[0], ast.Eq | ast.NotEq | ast.In | ast.NotIn):
        return None
    return _literals(compare.comparators[0] if compare.left is use else compare.left)


def consulted_in(game: AnyGame, amb_id: str) -> set[str | None]:
    """The names of the functions of the model's code that use ``amb_id`` (the exact string constant;
    None for a use outside any function): an exhaustive check of one rule holds only when the
    switch is consulted in that rule alone."""
    enclosing: set[str | None] = set()

    def visit(node: ast.AST, inside: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            inside = node.name
        if isinstance(node, ast.Constant) and node.value == amb_id:
            enclosing.add(inside)
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    for tree in _model_trees(type(game).__module__):
        visit(tree, None)
    return enclosing


def _builds_ids(tree: ast.Module, amb_id: str) -> bool:
    """Whether the code holds a string constant that starts ``amb_id`` without being it (the
    ``"AER-AMB-"`` of ``f"AER-AMB-{n}"``), from which an ID could be put together."""
    stem = amb_id.rsplit("-", 1)[0] + "-"
    return any(
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value != amb_id
        and len(node.value) >= len(stem)
        and amb_id.startswith(node.value)
        for node in ast.walk(tree)
    )


def indistinguishable(game: AnyGame, amb_id: str, a: str, b: str) -> str | None:
    """Why readings ``a`` and ``b`` of ``amb_id`` always play alike (None when that is not shown): the
    model consults the switch only by comparing it with keys that are neither, so every comparison
    comes out the same under both, and so does every branch it guards."""
    found = compared_keys(game, amb_id)
    if found is None:
        return None
    keys, places = found
    if places == 0:
        return (
            f"the model's code never uses {amb_id} (it is named only in comments, docstrings or pack "
            "data): every reading plays the same"
        )
    if a in keys or b in keys:
        return None
    named = ", ".join(repr(k) for k in sorted(keys))
    return (
        f"the model consults {amb_id} only by comparing it with {named} ({places} place(s) in its source): "
        f"{a!r} and {b!r} take the same branch at every one, so they play the same"
    )


# -- 3. the search -----------------------------------------------------------------------------------------


def configure(game_id: str, readings: Mapping[str, str], components: str | Path | None) -> AnyGame:
    return make_game(game_id, readings=dict(readings), components=components)


def search_pair(
    game_id: str,
    amb: Ambiguity,
    reading: str,
    budget: Budget,
    *,
    base: Mapping[str, str] | None = None,
    components: str | Path | None = None,
    solver: SolverHook | None = None,
    players: Sequence[int] | None = None,
    starts: StartHook | None = None,
    database: ExampleDatabase | None = None,
    say: Callable[[str], None] | None = None,
) -> PairResult:
    """The default reading of ``amb`` against ``reading``: proof, witness, or nothing found.

    ``starts``: the game's witness-start hook for ``amb`` (default: its record's); every state it
    offers must pass the game's invariants, else the pair is an error naming the hook.
    ``database``: where the witness found is kept and replayed from before the search, which is then
    skipped when the saved witness still parts the readings (None: nothing is kept); ``say``
    receives the one-line reports of the replays (default: stderr)."""
    start = time.monotonic()
    base = dict(amb.context) | dict(base or {})  # the question arises only under its context readings
    played: dict[str, Any] = {
        "base": tuple(sorted((k, v) for k, v in base.items() if k != amb.id)),
        "components": None if components is None else str(components),
    }

    def result(outcome: Outcome, reason: str, **extra: Any) -> PairResult:
        return PairResult(
            amb.id, amb.default, reading, outcome, reason, seconds=time.monotonic() - start, **played, **extra
        )

    try:
        default_game = configure(game_id, base | {amb.id: amb.default}, components)
        other_game = configure(game_id, base | {amb.id: reading}, components)
    except RulecraftError as exc:
        outcome: Outcome = "not-modelled" if "not modelled" in str(exc) else "error"
        return result(outcome, str(exc))
    if never_consulted(default_game, amb.id):
        return result("proved", f"the model never consults {amb.id}: every reading plays the same")
    same = indistinguishable(default_game, amb.id, amb.default, reading)
    if same is not None:
        return result("proved", same)
    try:
        targeted = targeted_starts(default_game, amb.id, starts, others=(other_game,))
    except BadStart as exc:
        return result("error", str(exc))
    asked: Counter[str] = Counter()
    watch(default_game, amb.id, asked)
    # The cap is for the search: the source analysis above and the game's rule maps (built once per
    # game, by whichever pair comes first) are bounded by the model's size, not by games, and must
    # not leave the first pair searched a shorter search than the others.
    rule_map(type(default_game))
    line_map(type(default_game))
    searched = time.monotonic()

    def make_pair() -> tuple[AnyGame, AnyGame]:
        fresh = (
            configure(game_id, base | {amb.id: amb.default}, components),
            configure(game_id, base | {amb.id: reading}, components),
        )
        watch(fresh[0], amb.id, asked)
        return fresh

    found = search_pair_games(
        default_game,
        other_game,
        f"{amb.id}={reading}",
        budget,
        players=players,
        solver=solver,
        start=searched,
        make_pair=make_pair,
        targeted=targeted,
        consulted=lambda: asked[amb.id] if asked["watched"] and not asked["escaped"] else None,
        watched=amb.id,
        kept=_pair_store(database, default_game, amb, reading, base, components, say),
    )
    return attrs.evolve(
        found,
        ambiguity=amb.id,
        default=amb.default,
        reading=reading,
        seconds=time.monotonic() - start,  # the whole pair, its analysis too
        **played,
    )


def search_pair_games(
    default_game: AnyGame,
    other_game: AnyGame,
    label: str,
    budget: Budget,
    *,
    players: Sequence[int] | None = None,
    solver: SolverHook | None = None,
    start: float | None = None,
    make_pair: Callable[[], tuple[AnyGame, AnyGame]] | None = None,
    targeted: Sequence[Start] = (),
    consulted: Callable[[], int | None] | None = None,
    watched: str = "",
    kept: DifferenceStore | None = None,
) -> PairResult:
    """Two configured rulesets of one game: a solver's proof, a witness game, or nothing found.

    Games from the ``targeted`` starts first (states a game's witness-start hook built where the
    question arises); if none differs, games from set-up, then from the printed examples' given
    states.  ``consulted``: how often the rules asked for the ambiguity ``watched`` so far (None:
    not counted), reported with a search that found nothing.  ``kept``: the witnesses kept for this
    pair, replayed on both rulesets first; one that still parts them is the result (the search is
    skipped), and a witness the search finds is kept."""
    start = time.monotonic() if start is None else start

    def result(outcome: Outcome, reason: str, **extra: Any) -> PairResult:
        asked = consulted() if consulted is not None else None
        return PairResult(
            label,
            "printed",
            label,
            outcome,
            reason,
            seconds=time.monotonic() - start,
            consulted=asked,
            targeted=len(targeted),
            **extra,
        )

    if kept is not None:  # the saved witnesses first, before any new search
        replayed = kept.replay(lambda k: _replay_witness(default_game, other_game, make_pair, k))
        still = [r for r in replayed if r.finding is not None]
        if still:
            best = min(still, key=lambda r: len(r.kept.steps))
            assert best.finding is not None
            return result(
                "witness",
                best.finding.title,
                finding=best.finding,
                states=sum(r.compared for r in replayed),
                first_seconds=time.monotonic() - start,
            )
    found = _search_pair_games(
        default_game, other_game, label, budget, start, players, solver, make_pair, targeted, consulted, watched, result
    )
    witness = found.finding if found.outcome == "witness" else None
    # (a player count one ruleset refuses is checked before any search: it is not kept)
    if kept is not None and witness is not None and witness.kind != "set-up":
        kept.keep(witness, _fixture_of(witness, default_game.id, targeted))
    return found


def _search_pair_games(
    default_game: AnyGame,
    other_game: AnyGame,
    label: str,
    budget: Budget,
    start: float,
    players: Sequence[int] | None,
    solver: SolverHook | None,
    make_pair: Callable[[], tuple[AnyGame, AnyGame]] | None,
    targeted: Sequence[Start],
    consulted: Callable[[], int | None] | None,
    watched: str,
    result: Callable[..., PairResult],
) -> PairResult:
    """The search of :func:`search_pair_games` (its kept witnesses aside)."""
    verdict: SolverVerdict | None = None
    if solver is not None:
        try:
            verdict = solver(default_game, other_game, max(1.0, budget.seconds / 2))
        except Exception as exc:  # a failing query must not cost the search
            verdict = SolverVerdict("unknown", f"the solver query failed: {type(exc).__name__}: {exc}")
        if verdict is not None and verdict.status == "unsat":
            return result("proved", verdict.reason, solver=verdict)
    setup_difference = _setup_difference(default_game, other_game, players)
    if setup_difference is not None:
        return result("witness", setup_difference.title, finding=setup_difference, solver=verdict, first_seconds=0.0)
    report = ConformReport(default_game.id, label, seed=budget.seed)
    counts = list(players or range(default_game.min_players, default_game.max_players + 1))
    starts = example_starts(default_game.id) if make_pair is not None else []
    # Games are bounded by count (max_examples from the targeted starts if the game offers any, as many
    # from set-up, then as many from the printed examples' given states); budget.seconds is a safety
    # cap on the whole search, reported when it bites.  The targeted starts go first: they are few,
    # their games differ within a step or two when they differ at all, and long games from set-up
    # must not use up the cap before them.
    cap = start + budget.seconds
    try:
        aimed = _from_targeted(default_game, other_game, targeted, budget, counts, report, cap) if targeted else None
        if aimed is None or (not aimed.findings and aimed.stopped is None):
            _compare(default_game, other_game, budget, counts, report, cap, random_setup=True)
        if aimed is not None:
            _merge(report, aimed)
        if not report.findings and report.stopped is None and starts and make_pair is not None:
            _from_examples(make_pair, starts, budget, report, cap)
    except Exception as exc:  # a model bug under one ruleset is reported, and the run goes on
        return result(
            "error", f"{type(exc).__name__}: {exc}", games=report.examples_run, **_coverage(report), solver=verdict
        )
    if report.findings:
        finding = min(report.findings, key=lambda f: len(f.steps))
        first = report.first_difference_at
        return result(
            "witness",
            finding.title,
            finding=finding,
            games=report.examples_run,
            **_coverage(report),
            solver=verdict,
            first_seconds=(first + (report.started - start)) if first is not None else None,
        )
    if verdict is not None and verdict.status == "sat":
        # A solver's state is not shown reachable: a witness needs a legal game from set-up.
        return result(
            "not-found",
            f"the solver found a state where they differ ({verdict.reason}); no game reached one in the budget",
            games=report.examples_run,
            **_coverage(report),
            solver=verdict,
        )
    if verdict is not None and verdict.status == "unknown":
        return result(
            "unknown",
            f"solver: {verdict.reason}; no game differed",
            games=report.examples_run,
            **_coverage(report),
            solver=verdict,
        )
    cut = f"; cut short by the {budget.seconds:g} s safety cap" if report.stopped == "time" else ""
    reach = [f"{report.steps_compared} states compared"]
    if targeted:
        reach.append(f"{len(targeted)} targeted start(s)")
    asked = consulted() if consulted is not None else None
    if asked is not None:
        reach.append(f"{watched} consulted {asked} times" if asked else f"{watched} never consulted: not reached")
    return result(
        "not-found",
        f"no difference in {report.examples_run} games of up to {steps_for(budget, default_game)} steps"
        f" ({', '.join(reach)}){cut}",
        games=report.examples_run,
        **_coverage(report),
        solver=verdict,
    )


def _replay_witness(
    default_game: AnyGame,
    other_game: AnyGame,
    make_pair: Callable[[], tuple[AnyGame, AnyGame]] | None,
    kept: KeptDifference,
) -> tuple[Finding | None, int]:
    """A kept witness played under both rulesets (on a fresh pair when it starts on a printed
    example's fixture board, which changes a game's maps)."""
    from rulecraft.conformance.kept import replay_difference

    if kept.fixture:
        if make_pair is None:
            return None, 0
        default_game, other_game = make_pair()
    return replay_difference(default_game, InProcess(other_game), kept, self_test=True)


def _fixture_of(finding: Finding, game_id: str, targeted: Sequence[Start]) -> Mapping[str, Any] | None:
    """The fixture board of the start a witness was found from (a printed example's, a targeted
    start's), so that it replays on that board; None for a new game or a start without one."""
    if finding.setup is not None or not finding.root:
        return None
    boards: dict[str, Mapping[str, Any] | None] = {s.label: s.fixture for s in example_starts(game_id)}
    boards.update({s.label: s.fixture for s in targeted})
    return boards.get(finding.root)


def _pair_store(
    database: ExampleDatabase | None,
    game: AnyGame,
    amb: Ambiguity,
    reading: str,
    base: Mapping[str, str],
    components: str | Path | None,
    say: Callable[[str], None] | None,
) -> DifferenceStore | None:
    """The witnesses kept for one (ambiguity, reading) pair: under the verb, the game, the ambiguity
    and the pair of readings, with the readings underneath and the component pack's content hash."""
    from rulecraft.conformance.kept import DifferenceStore, configured, digest

    database = database if database is not None else configured()
    if database is None:
        return None
    pack = None
    if components is not None:
        try:
            pack = digest(Path(components).read_text("utf-8"))
        except (OSError, UnicodeDecodeError):
            pack = digest(str(components))
    options = {"readings": [amb.default, reading], "base": dict(base), "components": pack}
    label = f"ambiguities {game.id} {amb.id}={reading}"
    return DifferenceStore(database, "ambiguities", game, amb.id, options, say=say, label=label)


def _from_targeted(
    default_game: AnyGame,
    other_game: AnyGame,
    targeted: Sequence[Start],
    budget: Budget,
    counts: Sequence[int],
    report: ConformReport,
    deadline: float,
) -> ConformReport:
    """``budget.max_examples`` games, each from one of the targeted starts (or a later state of those
    games the search keeps), in a report of their own (merged by :func:`_merge`): the search keeps a
    later state when a game exercises rules none before it did, so the games from set-up and these
    must not use up what is new about each other, and the games from set-up stay the games a game
    without targeted starts plays."""
    own = ConformReport(report.game, report.command, seed=report.seed, started=report.started)
    _compare(default_game, other_game, budget, counts, own, deadline, starts=list(targeted), only_starts=True)
    return own


def _compare(
    default_game: AnyGame,
    other_game: AnyGame,
    budget: Budget,
    counts: Sequence[int],
    report: ConformReport,
    deadline: float,
    **where: Any,
) -> None:
    """The two readings' games side by side within the budget (``where``: from set-up or from starts)."""
    differential(
        default_game,
        InProcess(other_game),
        ("*",),
        max_examples=budget.max_examples,
        max_steps=steps_for(budget, default_game),
        seed=budget.seed,
        players=counts,
        report=report,
        deadline=deadline,
        self_test=True,
        **where,
    )


def _merge(report: ConformReport, own: ConformReport) -> None:
    """The targeted games' findings and counts, into the search's report."""
    for finding in own.findings:
        report.add(finding)
    report.examples_run += own.examples_run
    report.games_planned += own.games_planned
    report.games_capped += own.games_capped
    report.games_finished += own.games_finished
    report.games_stalled += own.games_stalled
    report.steps_compared += own.steps_compared
    report.rules_exercised |= own.rules_exercised
    report.rules_total = report.rules_total or own.rules_total
    report.differential_seconds += own.differential_seconds
    if own.first_difference_at is not None and report.first_difference_at is None:
        report.first_difference_at = own.first_difference_at
    if own.stopped is not None and report.stopped is None:
        report.stopped, report.stopped_detail = own.stopped, own.stopped_detail


def _coverage(report: ConformReport) -> dict[str, Any]:
    return {
        "rules_exercised": frozenset(report.rules_exercised & report.rules_total),
        "rules_total": len(report.rules_total),
        "states": report.steps_compared,
    }


# -- targeted starts and consultation counts ---------------------------------------------------------

# A game's witness-start hook for one ambiguity: the configured game -> (description, state) pairs, or
# :class:`~rulecraft.search.Start` values that keep their way from a new game (:func:`steered_start`).
StartHook = Callable[[AnyGame], Iterable[tuple[str, Any] | Start]]


class BadStart(RulecraftError):
    """A witness-start hook offered a state that breaks one of the game's invariants."""


def start_hooks(game: AnyGame) -> Mapping[str, StartHook]:
    """The game's witness-start hooks (amb id -> hook), from its record (an amended game's: its base's)."""
    return tools(game).witness_starts()


def _hook_name(hook: object) -> str:
    module = getattr(hook, "__module__", None)
    name = getattr(hook, "__qualname__", None) or type(hook).__name__
    return f"{module}.{name}" if module else name


def targeted_starts(
    game: AnyGame, amb_id: str, hook: StartHook | None = None, others: Sequence[AnyGame] = ()
) -> list[Start]:
    """The states ``hook`` (default: the game's own for ``amb_id``) offers, each checked against the
    game's invariants and those of ``others`` (the games of the readings compared with it: a state one
    reading could never be in parts nothing): a state that breaks one is refused (:class:`BadStart`,
    one line naming the hook, the reading and the invariant), never searched from."""
    if hook is None:
        hook = start_hooks(game).get(amb_id)
        if hook is None:
            return []
    out: list[Start] = []
    for offered in hook(game):
        start = offered if isinstance(offered, Start) else Start(offered[0], state=offered[1])
        for judge in (game, *others):
            if judge is not game and start.fixture:
                judge.load_fixture(start.fixture)  # as the search gives it the start's board
            broken = tools(judge).violations(start.state)
            if broken:
                under = "" if judge is game else f" under {amb_id} {judge.ruleset.reading(amb_id)!r}"
                text = f"{_hook_name(hook)} offered an illegal start for {amb_id} ({start.label}){under}:"
                text += f" it breaks {broken[0]}"
                raise BadStart(" ".join(text.split()))
        out.append(attrs.evolve(start, label=f"{start.label} [targeted start for {amb_id}]"))
    return out


def steer(
    game: Game[S, A],
    state: S,
    choose: Callable[[Any, Sequence[Any]], Any],
    *,
    until: Callable[[Any], bool],
    max_steps: int = 500,
    path: list[Any] | None = None,
) -> Any | None:
    """A purposeful policy for a witness-start hook: from ``state``, ``choose(state, options)`` picks
    each step's action among the legal actions or, at a chance step, among the chance outcomes that
    can happen (``options``, never empty), and the game applies it (so every step is legal), until
    ``until(state)``; None when the game ends, or ``max_steps`` pass, first.  ``path`` collects the
    actions taken."""
    for _ in range(max_steps):
        if until(state):
            return state
        to_move = game.to_move(state)
        if isinstance(to_move, GameOver):
            return None
        if isinstance(to_move, Chance):
            options: Sequence[Any] = [a for a, p in game.chance_outcomes(state) if p > 0]
        else:
            options = game.legal_actions(state)
        action = choose(state, options)
        state = game.apply(state, action)
        if path is not None:
            path.append(action)
    return state if until(state) else None


def steered_start(
    game: AnyGame,
    setup: Setup,
    label: str,
    choose: Callable[[Any, Sequence[Any]], Any],
    *,
    until: Callable[[Any], bool],
    max_steps: int = 500,
) -> Start | None:
    """A start reached from a new game by :func:`steer`, keeping its way there (set-up and actions), so
    a witness from it replays from a new game; None when ``until`` is never met."""
    path: list[Any] = []
    state = steer(game, game.start(setup), choose, until=until, max_steps=max_steps, path=path)
    if state is None:
        return None
    steps = tuple(game.action_to_json(a) for a in path)
    return Start(label, state=state, origin=setup.to_json(), path=steps, root="a new game")


class _Watched(dict[str, str]):
    """A game's readings that count how often the rules ask for one ambiguity (``ctx.r(ID)``, or a
    ``readings.get(ID)``); the game's readings are otherwise untouched."""

    def __init__(self, readings: Mapping[str, str], amb_id: str, counts: Counter[str]) -> None:
        super().__init__(readings)
        self.amb_id, self.counts = amb_id, counts

    def __getitem__(self, key: str) -> str:
        if key == self.amb_id:
            self.counts[key] += 1
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        if key == self.amb_id:
            self.counts[key] += 1
        return super().get(key, default)

    # Read wholesale (copied into another ruleset, say), a reading escapes the count: say so.
    def _escaped(self) -> None:
        self.counts["escaped"] = 1

    def __iter__(self) -> Iterator[str]:
        self._escaped()
        return super().__iter__()

    def keys(self) -> Any:
        self._escaped()
        return super().keys()

    def items(self) -> Any:
        self._escaped()
        return super().items()

    def values(self) -> Any:
        self._escaped()
        return super().values()

    def copy(self) -> dict[str, str]:
        self._escaped()
        return dict(super().items())


def watch(game: AnyGame, amb_id: str, counts: Counter[str]) -> bool:
    """Count in ``counts[amb_id]`` every time ``game``'s rules ask for the reading of ``amb_id``; True
    when the game keeps its readings where they can be watched (a ``ctx`` whose ``readings`` is a
    dict), and then ``counts["watched"]`` is set."""
    ctx = getattr(game, "ctx", None)
    readings = getattr(ctx, "readings", None)
    if ctx is None or type(readings) is not dict:
        return isinstance(readings, _Watched)
    object.__setattr__(ctx, "readings", _Watched(readings, amb_id, counts))  # a frozen context: set once, here
    counts["watched"] = 1
    return True


@attrs.frozen
class ExampleStart:
    """A printed example's given state as a starting point: rich in what random play rarely reaches."""

    label: str
    given: Mapping[str, Any]
    fixture: Mapping[str, Any] | None


def example_starts(game_id: str) -> list[ExampleStart]:
    """The printed examples that pin no readings or pack of their own (their fixture board is fine)."""
    out: list[ExampleStart] = []
    for path in scenario_files(game_id):
        try:
            scenario = load_scenario(path)
        except ScenarioFileError:
            continue
        if scenario.readings or scenario.components:
            continue  # its own ruleset or pack: not a state of the games compared here
        fixture = {"map": scenario.given["map"]} if "map" in scenario.given else None
        out.append(ExampleStart(f"{scenario.id} ({cite(scenario.page)})", scenario.given, fixture))
    return out


def _from_examples(
    make_pair: Callable[[], tuple[AnyGame, AnyGame]],
    starts: Sequence[ExampleStart],
    budget: Budget,
    report: ConformReport,
    deadline: float,
) -> None:
    """Short random continuations from each example's given state, in turn, until one differs: as many
    games in all as from set-up, shared among the examples (a count; ``deadline`` is the safety cap)."""
    each = max(2, budget.max_examples // max(1, len(starts)))
    for i, start in enumerate(starts):
        if report.findings or report.stopped is not None:
            return
        default_game, other_game = make_pair()  # fresh: a fixture board changes a game's maps
        try:
            if start.fixture:
                default_game.load_fixture(start.fixture)
                other_game.load_fixture(start.fixture)
            state = tools(default_game).scenario_state(start.given)
        except Exception:  # a state this configuration cannot build is no start
            continue
        differential(
            default_game,
            InProcess(other_game),
            ("*",),
            max_examples=each,
            max_steps=steps_for(budget, default_game),
            seed=budget.seed + i,
            players=[2],
            report=report,
            deadline=deadline,
            self_test=True,
            starts=[(start.label, state)],
            only_starts=True,
        )


def _setup_difference(default_game: AnyGame, other_game: AnyGame, players: Sequence[int] | None) -> Finding | None:
    """A player count one ruleset starts and the other refuses (e.g. a reading of the minimum)."""
    for n in players or range(1, default_game.max_players + 2):
        verdicts = []
        for game in (default_game, other_game):
            try:
                game.start(Setup(n))
                verdicts.append("accepted")
            except RulecraftError as exc:
                verdicts.append(f"refused: {exc}")
        if (verdicts[0] == "accepted") != (verdicts[1] == "accepted"):
            setup = Setup(n).to_json()
            title = f"a game of {n} player(s) is {verdicts[0]} under one ruleset and {verdicts[1]} under the other"
            return Finding(
                "set-up", title, "differential", 0, (), (), ours=verdicts[0], theirs=verdicts[1], setup=setup
            )
    return None


# -- printed examples ----------------------------------------------------------------------------------------


def printed_examples(game_id: str) -> tuple[Scenario, ...]:
    """The game's printed examples, read once (a malformed file is reported by `rulecraft scenarios`
    and is no evidence here)."""
    out = []
    for path in scenario_files(game_id):
        try:
            out.append(load_scenario(path))
        except ScenarioFileError:
            continue
    return tuple(out)


def example_dependence(
    game_id: str,
    amb: Ambiguity,
    *,
    base: Mapping[str, str] | None = None,
    components: str | Path | None = None,
    examples: Sequence[Scenario] | None = None,
) -> tuple[ExampleRun, ...]:
    """Every printed example of the game under every playable reading of ``amb`` (``examples``: the
    game's printed examples already read, so that a run over every ambiguity reads each file once)."""
    runs: list[ExampleRun] = []
    base = dict(amb.context) | dict(base or {})
    playable = []
    for r in amb.readings:  # once per reading, not once per example
        try:
            configure(game_id, base | {amb.id: r.key}, components)
        except RulecraftError:
            continue  # not playable: no evidence either way
        playable.append(r)
    for scenario in printed_examples(game_id) if examples is None else examples:
        for r in playable:
            outcome = run_scenario(scenario, readings=base, force={amb.id: r.key})
            detail = outcome.error or "; ".join(outcome.failures[:2])
            runs.append(
                ExampleRun(scenario.id, scenario.page, r.key, outcome.passed, detail, outcome.error is not None)
            )
    return tuple(runs)


# -- everything --------------------------------------------------------------------------------------------


def solver_hooks(game: AnyGame) -> Mapping[str, SolverHook]:
    """The game's solver queries for ambiguities of the right shape (amb id -> hook), from its record."""
    return tools(game).witness_queries()


def ambiguities(
    game_id: str,
    *,
    only: Iterable[str] = (),
    budget: Budget = Budget(),
    search: bool = True,
    examples: bool = True,
    base: Mapping[str, str] | None = None,
    components: str | Path | None = None,
    progress: Callable[[str], None] | None = None,
    units: Container[str] | None = None,
    database: ExampleDatabase | None = None,
    say: Callable[[str], None] | None = None,
) -> list[AmbiguityResult]:
    """Each registered ambiguity with its witnesses (or proofs) and the examples that depend on it.
    ``units``: only these units of work (``pair:AMB=READING``, ``examples:AMB``: a shard's share,
    :func:`rulecraft.results.ambiguity_units`); None: all.  ``database``: where each pair's witness
    is kept and replayed from first (default: the one a setting configured; none: nothing kept)."""
    from rulecraft.conformance.kept import configured

    database = database if database is not None else configured()
    cls = game_class(game_id)
    chosen = set(only)
    unknown = chosen - {a.id for a in cls.register}
    if unknown:
        raise RulecraftError(f"{', '.join(sorted(unknown))}: not a registered ambiguity of {game_id}")
    hooks = solver_hooks(make_game(game_id, components=components))
    printed = printed_examples(game_id) if examples else ()
    results = []
    for amb in cls.register:
        if chosen and amb.id not in chosen:
            continue
        if units is not None and not any(u in units for u in _units_of(amb)):
            continue  # none of its work is this shard's: it is another shard's to report
        pairs: list[PairResult] = []
        if search:
            for r in amb.readings:
                if r.key == amb.default or (units is not None and f"pair:{amb.id}={r.key}" not in units):
                    continue
                if progress:
                    progress(f"{amb.id}={r.key}")
                hook = hooks.get(amb.id)
                pairs.append(
                    search_pair(
                        game_id,
                        amb,
                        r.key,
                        budget,
                        base=base,
                        components=components,
                        solver=hook,
                        database=database,
                        say=say,
                    )
                )
        mine = examples and (units is None or f"examples:{amb.id}" in units)
        if mine and progress:
            progress(f"{amb.id}: the printed examples under each reading")
        runs = example_dependence(game_id, amb, base=base, components=components, examples=printed) if mine else ()
        results.append(AmbiguityResult(amb, tuple(pairs), runs))
    return results


def _units_of(amb: Ambiguity) -> list[str]:
    return [f"pair:{amb.id}={r.key}" for r in amb.readings if r.key != amb.default] + [f"examples:{amb.id}"]


def tally(results: Sequence[AmbiguityResult]) -> dict[str, int]:
    """How many ambiguities end in each outcome."""
    counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
    for result in results:
        counts[result.outcome] += 1
    return counts
