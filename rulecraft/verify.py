"""``rulecraft verify``: the main job, for every registered game.

1. the printed-example scenarios;
2. a bounded invariant campaign: seeded random legal games (chance by its
   odds), every invariant checked after every step, apply() re-checking
   each generated action (so generation and the check must agree);
3. the solver/oracle agreement checks of every query.

Everything is seeded and reproducible; a failure keeps the seed and a
shortest failing action log: the failing random game is shrunk (see
:mod:`rulecraft.shrink`) to a locally minimal legal game that still fails.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Container, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft.core import AnyGame, GameOver, IllegalAction, NoLegalAction, Setup, cite
from rulecraft.kept import FailureStore, Kept, MalformedEntry, failure_key
from rulecraft.scenarios.loader import scenario_files
from rulecraft.scenarios.runner import ScenarioResult, run_scenarios
from rulecraft.shrink import DEFAULT_REPLAYS, DEFAULT_SAFETY_SECONDS, shrink
from rulecraft.tools import tools

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase


@attrs.frozen
class Finding:
    """A failure with what is needed to reproduce it."""

    kind: str  # scenario | invariant | legality | crash | solver
    message: str
    seed: int | None = None
    players: int | None = None
    log: tuple[dict[str, Any], ...] = ()
    log_text: tuple[str, ...] = ()
    setup: Setup | None = None  # how the game started (players, start seat, options)


@attrs.define
class GameReport:
    game: str
    title: str
    scenarios: list[ScenarioResult] = attrs.Factory(list)
    games_played: int = 0
    games_finished: int = 0
    games_stalled: int = 0  # step cap reached, or deadlocked (below)
    games_deadlocked: int = 0  # the game can provably never end from the state reached
    deadlock_example: Finding | None = None
    steps: int = 0
    policy: str = "uniform"  # how the campaign's random games chose (Game.policies)
    violations: int = 0
    solver_checks: int = 0
    solver_failures: int = 0
    findings: list[Finding] = attrs.Factory(list)
    # Failures kept in the example database (rulecraft.kept): what was replayed, and when
    replayed: int = 0  # saved failures replayed (earlier runs' and other workers')
    replayed_failing: int = 0  # of which still fail (they are in ``findings``)
    replay_at: list[int] = attrs.Factory(list)  # games this run had played when each batch was replayed
    kept_notes: list[str] = attrs.Factory(list)  # one line each: the replays, malformed entries skipped

    @property
    def scenarios_passed(self) -> int:
        return sum(1 for r in self.scenarios if r.passed)

    @property
    def ok(self) -> bool:
        return not self.findings and self.scenarios_passed == len(self.scenarios)


Progress = Callable[[str, int], None]  # (phase, advance)


def campaign(
    game: AnyGame,
    *,
    seed: int,
    games: int,
    max_steps: int,
    report: GameReport,
    progress: Progress | None = None,
    shrink_replays: int = DEFAULT_REPLAYS,
    shrink_seconds: float = DEFAULT_SAFETY_SECONDS,
    policy: str = "uniform",
    kept: VerifyKept | None = None,
    only: Container[int] | None = None,
) -> None:
    """Random legal games under the playout ``policy``, every invariant after every step.
    ``only``: play just these game indexes (a shard's share; the others' seeds are still drawn, so
    game ``i`` is the same game in every shard and in the whole run)."""
    tools(game).policy(policy)  # an unknown policy is refused before any game, naming the choices
    report.policy = policy
    rng = random.Random(seed)
    for index in range(games):
        game_seed = rng.randrange(2**32)
        if only is not None and index not in only:
            continue
        if kept is not None:  # what other workers found meanwhile is replayed before the next game
            kept.replay(game, report)
        draw = random.Random(game_seed)
        players = draw.randint(game.min_players, game.max_players)
        setup = Setup(players, 0, tuple(sorted(game.random_options(draw, players).items())))
        result = play_checked(game, game_seed, setup, max_steps, policy)
        finding, steps, finished = result.finding, result.steps, result.finished
        report.games_played += 1
        report.steps += steps
        if finished:
            report.games_finished += 1
        elif finding is None:
            report.games_stalled += 1  # the rules may have no turn limit (e.g. AIR-AMB-30)
            if result.deadlock:
                report.games_deadlocked += 1
                if report.deadlock_example is None:
                    example = _finding(game, "deadlock", result.deadlock, game_seed, setup, list(result.log))
                    if shrink_replays > 0:  # a short witness is what a rules person wants to read
                        example = shrunk(
                            game, example, shrink_replays, shrink_seconds, failing=lambda s, i: game.stalled(s)
                        )
                    report.deadlock_example = example
        if finding is not None:
            if shrink_replays > 0:
                finding = shrunk(game, finding, shrink_replays, shrink_seconds)
            if kept is None or kept.keep_game(finding):  # (not when a replay reported it already)
                report.findings.append(finding)
                if finding.kind == "invariant":
                    report.violations += 1
        if progress:
            progress("campaign", 1)


@attrs.frozen
class PlayResult:
    finding: Finding | None
    steps: int
    finished: bool
    deadlock: str | None = None  # why the game can never end, when that was shown
    log: tuple[Any, ...] = ()


DEADLOCK_EVERY = 25  # steps between checks whether the game can still end


def play_checked(game: AnyGame, seed: int, setup: Setup | int, max_steps: int, policy: str = "uniform") -> PlayResult:
    """One seeded game under the playout ``policy``: every action re-checked, every invariant after
    every step."""
    rng = random.Random(seed)
    setup = setup if isinstance(setup, Setup) else Setup(setup)
    state = game.start(setup)
    log: list[Any] = []
    for step in range(max_steps):
        mover = game.to_move(state)
        if isinstance(mover, GameOver):
            return PlayResult(None, step, True)
        if step % DEADLOCK_EVERY == 0:
            reason = game.stalled(state)
            if reason:
                return PlayResult(None, step, False, reason, tuple(log))
        try:
            action = game.random_action(state, rng, policy)
            log.append(action)
            state = game.apply(state, action)
        except NoLegalAction as exc:
            if exc.stalled:  # the rules (under this reading) leave no way on: unfinished, never a crash
                return PlayResult(None, step, False, str(exc), tuple(log))
            return PlayResult(_finding(game, "crash", str(exc), seed, setup, log), step, False)
        except IllegalAction as exc:
            message = f"a generated action was refused: {exc}"
            return PlayResult(_finding(game, "legality", message, seed, setup, log), step, False)
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"
            return PlayResult(_finding(game, "crash", message, seed, setup, log), step, False)
        violations = tools(game).violations(state)
        if violations:
            text = "; ".join(str(v) for v in violations)
            message = f"after step {step + 1}: {text}"
            return PlayResult(_finding(game, "invariant", message, seed, setup, log), step + 1, False)
    return PlayResult(None, max_steps, isinstance(game.to_move(state), GameOver), game.stalled(state), tuple(log))


def _finding(game: AnyGame, kind: str, message: str, seed: int, setup: Setup, log: list[Any]) -> Finding:
    state = game.start(setup)
    lines = []
    for action in log:
        lines.append(game.describe(state, action))
        try:
            state = game.transition(state, action)
        except Exception:
            break
    log_json = tuple(game.action_to_json(a) for a in log)
    return Finding(kind, message, seed, setup.players, log_json, tuple(lines), setup)


def _failing(game: AnyGame) -> Callable[[Any, int], str | None]:
    def failing(state: Any, step: int) -> str | None:
        violations = tools(game).violations(state)
        return f"after step {step}: " + "; ".join(str(v) for v in violations) if violations else None

    return failing


def shrunk(
    game: AnyGame,
    finding: Finding,
    replays: int = DEFAULT_REPLAYS,
    seconds: float = DEFAULT_SAFETY_SECONDS,
    failing: Callable[[Any, int], str | None] | None = None,
) -> Finding:
    """The finding with its log shrunk, in at most ``replays`` replays, to a shortest game that fails
    the same way; ``seconds`` is a safety cap, named in the message when it bites (the result then
    depends on the machine's speed)."""
    assert finding.setup is not None and finding.seed is not None
    log = [game.action_from_json(a) for a in finding.log]
    try:
        result = shrink(game, finding.setup, log, failing or _failing(game), replays=replays, seconds=seconds)
    except Exception:  # the game itself raises on replay (a crash finding): keep the finding as found
        return finding
    cap = f"; shrinking cut short by the {seconds:g} s safety cap" if result.cut_short else ""
    if result.failure is None or len(result.actions) >= len(log):
        return attrs.evolve(finding, message=finding.message + f" (not shrunk{cap})") if cap else finding
    again = _finding(game, finding.kind, result.failure, finding.seed, finding.setup, list(result.actions))
    shrunk_by = f"shrunk from {len(log)} to {len(result.actions)} steps in {result.replays} replays"
    return attrs.evolve(again, message=f"{result.failure} ({shrunk_by}{cap})")


def solver_checks(
    game: AnyGame,
    *,
    seed: int,
    count: int,
    report: GameReport,
    progress: Progress | None = None,
    kept: VerifyKept | None = None,
) -> None:
    """Every query is compared with its oracle on seeded inputs (each check its own seed, drawn from
    ``seed``: a failing check is replayed from its seed alone)."""
    rng = random.Random(seed)
    for name, query in tools(game).queries().items():
        for _ in range(count):
            check_seed = rng.randrange(2**32)
            problem = query.oracle_check(game, random.Random(check_seed))
            report.solver_checks += 1
            if problem:
                report.solver_failures += 1
                if kept is None or kept.keep_solver(name, check_seed):
                    report.findings.append(Finding("solver", f"{name}: {problem}", check_seed))
            if progress:
                progress("solvers", 1)


def verify_game(
    game: AnyGame,
    *,
    seed: int = 0,
    games: int = 50,
    max_steps: int = 3000,
    solver_count: int = 50,
    readings: Mapping[str, str] | None = None,
    scenario_root: Path | None = None,
    progress: Progress | None = None,
    shrink_replays: int = DEFAULT_REPLAYS,
    shrink_seconds: float = DEFAULT_SAFETY_SECONDS,
    policy: str = "uniform",
    database: ExampleDatabase | None = None,
    say: Callable[[str], None] | None = None,
) -> GameReport:
    """``database``: where failures are kept and replayed from (default: the one a setting
    configured, :func:`rulecraft.profiles.configured_database`; none: nothing is kept); ``say``
    receives the lines about replays (default: stderr)."""
    report = GameReport(game.id, game.title)
    paths = list(scenario_files(game.id, scenario_root))

    def tick(result: ScenarioResult) -> None:
        if progress:
            progress("scenarios", 1)

    report.scenarios = run_scenarios(paths, readings=readings, progress=tick)
    for r in report.scenarios:
        if not r.passed:
            report.findings.append(Finding("scenario", f"{r.id} ({cite(r.page)}): {r.error or '; '.join(r.failures)}"))
    if database is None:
        from rulecraft.profiles import configured_database

        database = configured_database()
    kept = VerifyKept(game, database, report, say) if database is not None else None
    if kept is not None:  # the saved failures first, before any new search
        kept.replay(game, report)
    campaign(
        game,
        seed=seed,
        games=games,
        max_steps=max_steps,
        report=report,
        progress=progress,
        shrink_replays=shrink_replays,
        shrink_seconds=shrink_seconds,
        policy=policy,
        kept=kept,
    )
    solver_checks(game, seed=seed, count=solver_count, report=report, progress=progress, kept=kept)
    return report


# -- failures kept in the example database (issue 21) ------------------------------------------------------

CAMPAIGN_KINDS = ("invariant", "legality", "crash")  # the campaign's findings a saved game replays
REPLAYED = "replayed from the example database: "


@attrs.frozen
class KeptGame:
    """A campaign failure as kept: how the game started and the actions up to the failure."""

    kind: str
    seed: int
    setup: Setup
    log: tuple[dict[str, Any], ...]


@attrs.frozen
class KeptCheck:
    """A failing solver check: the query and the seed of its input."""

    query: str
    seed: int


def _seed_of(data: Mapping[str, Any]) -> int:
    seed = data["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise MalformedEntry(f"seed: a whole number, got {seed!r}")
    return seed


def _parse_game(game: AnyGame, data: Mapping[str, Any]) -> KeptGame:
    kind, log = data["kind"], data["log"]
    if kind not in CAMPAIGN_KINDS:
        raise MalformedEntry(f"kind: one of {', '.join(CAMPAIGN_KINDS)}, got {kind!r}")
    if not isinstance(log, list) or not all(isinstance(a, dict) for a in log):
        raise MalformedEntry("log: a list of actions (objects)")
    setup = Setup.from_json(data["setup"])
    for action in log:  # every action must read as one of this game's (data only: nothing runs)
        try:
            game.action_from_json(action)
        except Exception as exc:
            raise MalformedEntry(f"log: {action!r} is not a {game.id} action ({exc})") from None
    return KeptGame(kind, _seed_of(data), setup, tuple(log))


def _parse_check(game: AnyGame, data: Mapping[str, Any]) -> KeptCheck:
    query = data["query"]
    if not isinstance(query, str) or query not in tools(game).queries():
        raise MalformedEntry(f"query: one of {game.id}'s queries, got {query!r}")
    return KeptCheck(query, _seed_of(data))


def replay_game(game: AnyGame, kept: KeptGame) -> Finding | None:
    """The finding when the kept game still fails (an invariant broken, a logged action refused at
    the step where it was, a crash); None when it plays through or leaves the way it was found."""
    try:
        actions = [game.action_from_json(a) for a in kept.log]
        state = game.start(kept.setup)
    except Exception:
        return None  # the game no longer starts or reads its actions this way: nothing to replay
    for step, action in enumerate(actions):
        try:
            state = game.apply(state, action)
        except IllegalAction as exc:
            if step < len(actions) - 1:
                return None  # refused earlier than found: the game went another way
            message = f"a generated action was refused: {exc}"
            return _finding(game, "legality", REPLAYED + message, kept.seed, kept.setup, actions)
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"
            return _finding(game, "crash", REPLAYED + message, kept.seed, kept.setup, actions[: step + 1])
        violations = tools(game).violations(state)
        if violations:
            message = f"after step {step + 1}: " + "; ".join(str(v) for v in violations)
            return _finding(game, "invariant", REPLAYED + message, kept.seed, kept.setup, actions[: step + 1])
    return None


def replay_check(game: AnyGame, kept: KeptCheck) -> Finding | None:
    problem = tools(game).queries()[kept.query].oracle_check(game, random.Random(kept.seed))
    return Finding("solver", f"{REPLAYED}{kept.query}: {problem}", kept.seed) if problem else None


def _print_stderr(line: str) -> None:
    import sys

    print(line, file=sys.stderr)


class VerifyKept:
    """``verify``'s failures of one game in ``database``: the campaign's games and the solver checks,
    each under a key naming the game, the check and the readings (rulecraft.kept)."""

    def __init__(
        self,
        game: AnyGame,
        database: ExampleDatabase,
        report: GameReport,
        say: Callable[[str], None] | None = None,
    ) -> None:
        options = {"readings": dict(game.ruleset.readings)}
        self.report = report
        self.say = say or _print_stderr

        def warn(line: str) -> None:
            report.kept_notes.append(line)
            self.say(line)

        self.games: FailureStore[KeptGame] = FailureStore(
            database,
            failure_key("verify", game.id, "invariants", options),
            dump=lambda k: {"kind": k.kind, "seed": k.seed, "setup": k.setup.to_json(), "log": list(k.log)},
            parse=lambda data: _parse_game(game, data),
            warn=warn,
        )
        self.checks: FailureStore[KeptCheck] = FailureStore(
            database,
            failure_key("verify", game.id, "solvers", options),
            dump=lambda k: {"query": k.query, "seed": k.seed},
            parse=lambda data: _parse_check(game, data),
            warn=warn,
        )
        self._reported: set[bytes] = set()  # replayed and still failing: a search finding it again adds nothing

    def replay(self, game: AnyGame, report: GameReport) -> None:
        """Replay every failure not seen yet; those that still fail join the findings, the others are
        dropped from the database; one line says so."""
        games, checks = self.games.fresh(), self.checks.fresh()
        if not games and not checks:
            return
        failing = 0
        batches: list[tuple[FailureStore[Any], list[Kept[Any]], Callable[[Any], Finding | None]]] = [
            (self.games, list(games), lambda k: replay_game(game, k)),
            (self.checks, list(checks), lambda k: replay_check(game, k)),
        ]
        for store, batch, again in batches:
            for kept in batch:
                finding = again(kept.entry)
                if finding is None:
                    store.forget(kept)
                    continue
                failing += 1
                self._reported.add(kept.raw)
                report.findings.append(finding)
                if finding.kind == "invariant":
                    report.violations += 1
                if finding.kind == "solver":
                    report.solver_failures += 1
        count = len(games) + len(checks)
        report.replayed += count
        report.replayed_failing += failing
        report.replay_at.append(report.games_played)
        when = "before any new search" if report.games_played == 0 else f"after {report.games_played} new game(s)"
        line = (
            f"{game.id}: replayed {count} saved failure(s) from {self.games.where} {when}: "
            f"{failing} still fail, {count - failing} no longer fail (dropped)"
        )
        report.kept_notes.append(line)
        self.say(line)

    def keep_game(self, finding: Finding) -> bool:
        """Save a campaign finding; False when it is one a replay reported already."""
        if finding.kind not in CAMPAIGN_KINDS or finding.setup is None or finding.seed is None:
            return True
        raw = self.games.save(KeptGame(finding.kind, finding.seed, finding.setup, finding.log))
        return raw not in self._reported

    def keep_solver(self, query: str, seed: int) -> bool:
        """Save a failing solver check; False when it is one a replay reported already."""
        raw = self.checks.save(KeptCheck(query, seed))
        return raw not in self._reported
