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
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import attrs

from rulecraft.core import Game, GameOver, IllegalAction, Setup, cite
from rulecraft.scenarios.loader import scenario_files
from rulecraft.scenarios.runner import ScenarioResult, run_scenarios
from rulecraft.shrink import DEFAULT_REPLAYS, DEFAULT_SAFETY_SECONDS, shrink


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

    @property
    def scenarios_passed(self) -> int:
        return sum(1 for r in self.scenarios if r.passed)

    @property
    def ok(self) -> bool:
        return not self.findings and self.scenarios_passed == len(self.scenarios)


Progress = Callable[[str, int], None]  # (phase, advance)


def campaign(
    game: Game[Any, Any],
    *,
    seed: int,
    games: int,
    max_steps: int,
    report: GameReport,
    progress: Progress | None = None,
    shrink_replays: int = DEFAULT_REPLAYS,
    shrink_seconds: float = DEFAULT_SAFETY_SECONDS,
    policy: str = "uniform",
) -> None:
    """Random legal games under the playout ``policy``, every invariant after every step."""
    game.policy(policy)  # an unknown policy is refused before any game, naming the choices
    report.policy = policy
    rng = random.Random(seed)
    for _ in range(games):
        game_seed = rng.randrange(2**32)
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


def play_checked(
    game: Game[Any, Any], seed: int, setup: Setup | int, max_steps: int, policy: str = "uniform"
) -> PlayResult:
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
        except IllegalAction as exc:
            message = f"a generated action was refused: {exc}"
            return PlayResult(_finding(game, "legality", message, seed, setup, log), step, False)
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"
            return PlayResult(_finding(game, "crash", message, seed, setup, log), step, False)
        violations = game.violations(state)
        if violations:
            text = "; ".join(str(v) for v in violations)
            message = f"after step {step + 1}: {text}"
            return PlayResult(_finding(game, "invariant", message, seed, setup, log), step + 1, False)
    return PlayResult(None, max_steps, isinstance(game.to_move(state), GameOver), game.stalled(state), tuple(log))


def _finding(game: Game[Any, Any], kind: str, message: str, seed: int, setup: Setup, log: list[Any]) -> Finding:
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


def _failing(game: Game[Any, Any]) -> Callable[[Any, int], str | None]:
    def failing(state: Any, step: int) -> str | None:
        violations = game.violations(state)
        return f"after step {step}: " + "; ".join(str(v) for v in violations) if violations else None

    return failing


def shrunk(
    game: Game[Any, Any],
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
    game: Game[Any, Any],
    *,
    seed: int,
    count: int,
    report: GameReport,
    progress: Progress | None = None,
) -> None:
    """Every query is compared with its oracle on seeded inputs."""
    rng = random.Random(seed)
    for name, query in game.queries().items():
        for _ in range(count):
            problem = query.oracle_check(game, rng)
            report.solver_checks += 1
            if problem:
                report.solver_failures += 1
                report.findings.append(Finding("solver", f"{name}: {problem}", seed))
            if progress:
                progress("solvers", 1)


def verify_game(
    game: Game[Any, Any],
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
) -> GameReport:
    report = GameReport(game.id, game.title)
    paths = list(scenario_files(game.id, scenario_root))

    def tick(result: ScenarioResult) -> None:
        if progress:
            progress("scenarios", 1)

    report.scenarios = run_scenarios(paths, readings=readings, progress=tick)
    for r in report.scenarios:
        if not r.passed:
            report.findings.append(Finding("scenario", f"{r.id} ({cite(r.page)}): {r.error or '; '.join(r.failures)}"))
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
    )
    solver_checks(game, seed=seed, count=solver_count, report=report, progress=progress)
    return report
