"""The rulecraft command line: one verb per job.

  verify [GAME ...]     printed examples + invariant campaign + solver checks (about 20-60 s per game)
  scenarios GAME        the printed examples, with a summary table (seconds)
  play GAME             a readable log of one seeded random game; --save-state writes a state file
  rules GAME            the rule catalogue, with what enforces and exercises each rule
  readings GAME         the ambiguity register: readings, defaults, reasons
  ambiguities GAME      where each ambiguity's readings change play (up to --seconds per reading)
  errata GAME FILE      what a variant or erratum changes (about a minute)
  serve GAME            the reference model as a protocol implementation on stdin/stdout
  conform GAME          test another implementation against the rules (minutes; see docs/protocol.md)
  merge FILE ...        one report from the --results of a campaign's shards (--shard I/N)
  query GAME NAME ...   a rules question (Z3 / exact), --json for machines
  explore GAME          step through a game, an example, a finding or a witness in the browser (local)

Defaults may come from [tool.rulecraft] in the project's pyproject.toml (docs/cli.md);
the command line wins.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import attrs

from rulecraft import config as project_config
from rulecraft.core import AnyGame, GameOver, RulecraftError
from rulecraft.files import write_atomically
from rulecraft.registry import game_class, game_ids, make_game, record
from rulecraft.ruleset import parse_reading_overrides
from rulecraft.shrink import DEFAULT_REPLAYS as DEFAULT_SHRINK_REPLAYS
from rulecraft.shrink import DEFAULT_SAFETY_SECONDS as DEFAULT_SHRINK_SECONDS
from rulecraft.tools import tools

if TYPE_CHECKING:
    from rich.console import Console  # rich is imported by the verbs that draw (0.07 s): a query prints plain text

    from rulecraft.shard import Shard

# One table for every verb (docs/cli.md).  The numbers follow pytest's, which rules people and CI
# scripts already know (1 failed, 3 internal error, 4 usage error, 5 nothing tested), with 130 for
# an interrupted run as shells report one killed by Ctrl-C.  argparse's own errors exit 4 too.
EXIT_OK = 0  # everything checked held
EXIT_FAIL = 1  # verification failed / findings
EXIT_INTERNAL = 3  # a bug of rulecraft's (one line; RULECRAFT_DEBUG=1 shows the traceback)
EXIT_USAGE = 4  # usage or input error: bad option, unknown game, unreadable or malformed file
EXIT_NOT_TESTED = 5  # as pytest's "no tests collected": nothing (or not everything planned) was compared
EXIT_INTERRUPTED = 130  # Ctrl-C or SIGTERM (128 + SIGINT)
DATABASE_ENV = "RULECRAFT_DATABASE"  # rulecraft.profiles.DATABASE_ENV, named here to leave Hypothesis unimported
CONFORM_EXIT = {
    "conformant": EXIT_OK,
    "findings": EXIT_FAIL,
    "not-tested": EXIT_NOT_TESTED,
    "incomplete": EXIT_NOT_TESTED,
}
EXIT_TABLE = """exit codes (every verb):
  0    ok: everything checked held
  1    verification failed: a failing example, an invariant, a finding, a reading that crashed
  3    internal error: a bug of rulecraft's, one line (RULECRAFT_DEBUG=1 shows the traceback)
  4    usage or input error: a bad option or value, an unknown game, a missing or malformed file
  5    not tested or incomplete (conform): nothing, or not everything planned, was compared
  130  interrupted (Ctrl-C, SIGTERM); conform still writes its reports"""


# -- argument types: a bad number is a usage error naming the option, before any work -------------------


@attrs.frozen
class Whole:
    """A whole number at least ``low`` (no nan, inf, fractions or negatives)."""

    low: int
    high: int = 2**63 - 1  # far above any budget; keeps a seed a machine word

    @property
    def kinds(self) -> tuple[type, ...]:  # what a TOML value may be
        return (int,)

    def __call__(self, text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number, got {text!r}") from None
        if not self.low <= value <= self.high:
            # the upper end is named only where it is a real limit (a port), not a machine word
            bounds = f"from {self.low} to {self.high}" if self.high < 2**63 - 1 else f"at least {self.low}"
            raise argparse.ArgumentTypeError(f"a whole number {bounds}, got {value}")
        return value


@attrs.frozen
class Seconds:
    """A finite number of seconds above 0."""

    @property
    def kinds(self) -> tuple[type, ...]:
        return (int, float)

    def __call__(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a number of seconds, got {text!r}") from None
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"a finite number of seconds above 0, got {text!r}")
        return value


POSITIVE = Whole(1)  # a count where 0 would mean nothing (steps, games, examples, players)
NATURAL = Whole(0)  # a count where 0 means "skip this phase" or "the start"
SEED = Whole(0)
SECONDS = Seconds()


def _game_id(text: str) -> str:
    if text not in game_ids():
        known = ", ".join(game_ids()) or "none"
        raise argparse.ArgumentTypeError(f"unknown game {text!r}; registered games: {known}")
    return text


def _game_help() -> str:
    return "the game: " + ", ".join(f"{gid} ({record(gid).title})" for gid in game_ids())


class _Parser(argparse.ArgumentParser):
    """argparse with rulecraft's usage exit code and a one-line message naming the option."""

    def error(self, message: str) -> NoReturn:
        message = message.replace("argument {" + ",".join(game_ids()) + "}", "argument GAME")
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class LineProgress:
    """Progress for a log or a pipe (issue 20): rich draws its bar only on a terminal, so a CI log
    saw nothing until the end.  A line when a task starts, when its phase changes (at most one a
    second) and at least every few seconds while it advances; the same add_task / update / advance
    calls as rich's Progress.  Between calls (a long phase that reports nothing, a phase change held
    back by the one-second limit) a heartbeat thread writes the current line every ``every_s``
    seconds, so a long command is never silent.  Timing only paces the lines: no result depends on it."""

    def __init__(self, stream: Any, every_s: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.stream, self.every_s, self.clock = stream, every_s, clock
        self.tasks: list[dict[str, Any]] = []
        self.start = clock()
        self.last = -1e9
        self.current = 0  # the task last added or updated: the one the heartbeat reports
        import threading  # here, not at the top: a command that draws no progress does not pay for it

        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.beat: threading.Thread | None = None
        self.thread = threading.Thread

    def __enter__(self) -> LineProgress:
        self.beat = self.thread(target=self._heartbeat, name="rulecraft-progress", daemon=True)
        self.beat.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.beat is not None:
            self.beat.join(timeout=5)
        with self.lock:
            for task in self.tasks:
                self._line(task, "done" if exc[0] is None else "stopped")

    def _heartbeat(self) -> None:
        while not self.stop.wait(self.every_s):
            with self.lock:
                if self.tasks and self.clock() - self.last >= self.every_s:
                    self._line(self.tasks[self.current])

    def add_task(self, description: str, total: float | None = None, **_: Any) -> int:
        with self.lock:
            self.tasks.append({"description": description, "total": total, "completed": 0.0})
            self.current = len(self.tasks) - 1
            self._line(self.tasks[-1])
            return self.current

    def update(self, task_id: int, *, advance: float = 0, description: str | None = None, **_: Any) -> None:
        with self.lock:
            task = self.tasks[task_id]
            self.current = task_id
            task["completed"] += advance
            now = self.clock()
            changed = description is not None and description != task["description"]
            if description is not None:
                task["description"] = description
            if (changed and now - self.last >= 1.0) or now - self.last >= self.every_s:
                self._line(task)

    def advance(self, task_id: int, advance: float = 1) -> None:
        self.update(task_id, advance=advance)

    def _line(self, task: Mapping[str, Any], state: str = "") -> None:
        self.last = self.clock()
        done = f"{task['completed']:g}/{task['total']:g}" if task["total"] else f"{task['completed']:g}"
        tail = f" {state}" if state else ""
        print(f"{task['description']}: {done} ({self.last - self.start:.0f} s){tail}", file=self.stream, flush=True)


def progress_for(*columns: Any, quiet: bool = False) -> Any:
    """rich's live progress bar on a terminal; :class:`LineProgress` lines in a log or a pipe; nothing
    with --quiet."""
    from rich.progress import Progress

    if quiet or sys.stderr.isatty():
        return Progress(*columns, console=_console(sys.stderr), transient=True, disable=quiet)
    return LineProgress(sys.stderr)


PIPE_WIDTH = 160  # the width of a table written to a file or a pipe


def _console(stream: Any = None) -> Console:
    from rich.console import Console

    stream = stream or sys.stdout
    # Tables piped to a file or CI log keep their columns readable.
    width = None if getattr(stream, "isatty", lambda: False)() else PIPE_WIDTH
    return Console(file=stream, highlight=False, soft_wrap=True, width=width)


def _envelope(verb: str, body: dict[str, Any]) -> dict[str, Any]:
    """Every --json document names the rulecraft that wrote it and its schema, so that a reader
    can tell versions apart (``"schema": "<verb>/1"``)."""
    from rulecraft import __version__

    return {"rulecraft": __version__, "schema": f"{verb}/1", **body}


def _print_json(verb: str, body: dict[str, Any], **dump: Any) -> None:
    print(json.dumps(_envelope(verb, body), **dump))


def _game(args: argparse.Namespace, game_id: str | None = None) -> AnyGame:
    gid = game_id or args.game
    # One game: a reading of another game is a mistake, not something to drop without a word.
    readings = _readings_for(gid, getattr(args, "reading", None) or [], strict=game_id is None)
    return make_game(gid, readings=readings, components=getattr(args, "components", None))


def _readings_for(game_id: str, items: Sequence[str], *, strict: bool = False) -> dict[str, str]:
    """The overrides that belong to ``game_id``; an ID of no game is an error, and so (``strict``: a
    run of this game alone) is an ID of another game."""
    record(game_id)  # an unknown game is one clear line naming the registered ones
    readings = parse_reading_overrides(items)
    if not readings:
        return {}
    prefixes = {gid: {record(gid).prefix} for gid in game_ids()}  # from the records: no game imported
    for amb_id in readings:
        if not any(amb_id.split("-")[0] in p for p in prefixes.values()):
            raise RulecraftError(f"--reading {amb_id}: no registered game has this ambiguity")
    mine = prefixes[game_id]
    foreign = [k for k in readings if k.split("-")[0] not in mine]
    if strict and foreign:
        raise RulecraftError(f"--reading {foreign[0]}: an ambiguity of another game; this run plays {game_id}")
    return {k: v for k, v in readings.items() if k.split("-")[0] in mine}


def _reading_examples(game_id: str | None) -> str:
    """A non-default reading of the game (of every game when the command names none yet), from the
    records alone: no game is configured to write a help text."""
    ids = [game_id] if game_id is not None else game_ids()
    found = [record(g).reading_example for g in ids if record(g).reading_example]
    return ", ".join(found) if found else "AMB-ID=READING"


def _add_common(p: argparse.ArgumentParser, *, components: bool = True, game_id: str | None = None) -> None:
    p.add_argument(
        "--reading",
        action="append",
        default=[],
        metavar="AMB=READING",
        help=f"play an ambiguity under a non-default reading, e.g. {_reading_examples(game_id)} (repeatable;"
        " 'rulecraft ambiguities GAME' lists them)",
    )
    if components:
        p.add_argument("--components", metavar="FILE", help="a component pack (YAML) instead of the bundled one")


# -- verify ------------------------------------------------------------------------------


def cmd_verify(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from rulecraft.scenarios.loader import scenario_files
    from rulecraft.verify import verify_game

    console = _console()
    ids = args.games_ids or game_ids()
    for gid in ids:  # an unknown game or policy is refused before any work, naming the choices
        tools(_game(args, gid)).policy(args.policy)
    reports = []
    with progress_for(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        quiet=args.quiet,
    ) as progress:
        for gid in ids:
            game = _game(args, gid)
            n_scen = len(list(scenario_files(gid)))
            solvers = len(tools(game).queries())
            task = progress.add_task(f"{gid}", total=n_scen + args.games + solvers * args.solver_checks)

            def tick(phase: str, n: int, task: Any = task, gid: str = gid) -> None:
                progress.update(task, advance=n, description=f"{gid}: {phase}")

            readings = _readings_for(gid, args.reading)
            reports.append(
                verify_game(
                    game,
                    seed=args.seed,
                    games=args.games,
                    max_steps=args.max_steps or game.campaign_steps,
                    solver_count=args.solver_checks,
                    readings=readings,
                    progress=tick,
                    shrink_replays=args.shrink_replays,
                    shrink_seconds=args.shrink_seconds,
                    policy=args.policy,
                )
            )
    if args.json:
        _print_json("verify", {"seed": args.seed, "reports": [_report_json(r) for r in reports]}, indent=2)
    else:
        _print_verify(console, reports, args)
    return EXIT_OK if all(r.ok for r in reports) else EXIT_FAIL


def _report_json(r: Any) -> dict[str, Any]:
    return {
        "game": r.game,
        "ok": r.ok,
        "scenarios": {"passed": r.scenarios_passed, "total": len(r.scenarios)},
        "games": r.games_played,
        "policy": r.policy,
        "finished": r.games_finished,
        "stalled": r.games_stalled,
        "deadlocked": r.games_deadlocked,
        "deadlock_example": (
            None
            if r.deadlock_example is None
            else {
                "reason": r.deadlock_example.message,
                "seed": r.deadlock_example.seed,
                "players": r.deadlock_example.players,
                "log": list(r.deadlock_example.log),
            }
        ),
        "steps": r.steps,
        "invariant_violations": r.violations,
        "solver_checks": r.solver_checks,
        "solver_failures": r.solver_failures,
        "findings": [
            {
                "kind": f.kind,
                "message": f.message,
                "seed": f.seed,
                "players": f.players,
                "setup": f.setup.to_json() if f.setup else None,
                "log": list(f.log),
            }
            for f in r.findings
        ],
    }


def _print_verify(console: Console, reports: list[Any], args: argparse.Namespace) -> None:
    from rich.table import Table

    policy = f", policy {args.policy}" if args.policy != "uniform" else ""
    table = Table(title=f"rulecraft verify (seed {args.seed}{policy})")
    columns = ("game", "scenarios", "games", "steps", "unfinished", "invariant violations", "solver checks", "result")
    for col in columns:
        table.add_column(col, justify="right" if col not in ("game", "result") else "left")
    for r in reports:
        table.add_row(
            f"{r.game} ({r.title})",
            f"{r.scenarios_passed}/{len(r.scenarios)}",
            f"{r.games_played}",
            f"{r.steps}",
            f"{r.games_stalled}" + (f" ({r.games_deadlocked} deadlocked)" if r.games_deadlocked else ""),
            f"{r.violations}",
            f"{r.solver_checks - r.solver_failures}/{r.solver_checks}",
            "[green]ok[/green]" if r.ok else "[red]FAILED[/red]",
        )
    console.print(table)
    for r in reports:
        if r.games_stalled:
            capped = r.games_stalled - r.games_deadlocked
            parts = []
            if r.games_deadlocked:
                parts.append(f"{r.games_deadlocked} reached a state from which the game can never end")
            if capped:
                parts.append(f"{capped} hit the cap of {args.max_steps or game_class(r.game).campaign_steps} steps")
            console.print(
                f"{r.game}: {r.games_stalled} game(s) unfinished: {'; '.join(parts)}"
                " (not a failure: the rulebook sets no turn limit)."
            )
        if r.deadlock_example is not None:
            d = r.deadlock_example
            console.print(f"  example: seed {d.seed}, {d.players} players, {len(d.log)} steps — {d.message}")
            if args.show_deadlock:
                game = _game(args, r.game)
                final = game.replay(_start_of(game, d), [game.action_from_json(a) for a in d.log])
                console.print(game.render(final), markup=False)
                console.print("  as JSON: " + json.dumps(list(d.log)))
        for f in r.findings:
            console.print(f"[red]{r.game} {f.kind}[/red]: {f.message}")
            if f.seed is not None and f.players is not None:
                console.print(
                    f"  reproduce: seed {f.seed}, {f.players} players; shortest failing log ({len(f.log)} steps):"
                )
                for i, line in enumerate(f.log_text, start=1):
                    console.print(f"   {i:>4}. {line}")
                picture = _final_picture(args, r.game, f)
                if picture:
                    console.print("  the state where it fails:")
                    console.print(picture, markup=False)
                console.print("  as JSON: " + json.dumps(list(f.log)))


def _start_of(game: AnyGame, finding: Any) -> Any:
    return game.start(finding.setup) if finding.setup is not None else game.new_game(finding.players)


def _final_picture(args: argparse.Namespace, game_id: str, finding: Any) -> str | None:
    """The board after the failing log, as a picture (None if it cannot be replayed)."""
    try:
        game = _game(args, game_id)
        state = _start_of(game, finding)
        for data in finding.log:
            state = game.transition(state, game.action_from_json(data))
        return game.render(state)
    except Exception:  # the picture is a help, never a second failure
        return None


# -- scenarios --------------------------------------------------------------------------


def cmd_scenarios(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.table import Table

    from rulecraft.scenarios.loader import check_scenario_files, scenario_files
    from rulecraft.scenarios.runner import run_scenarios

    paths = [Path(p) for p in args.files] or list(scenario_files(args.game))
    for path in paths:  # a file that is not there is an input error, not a failing example
        if not path.is_file():
            raise RulecraftError(f"{path}: file: {'is a folder' if path.is_dir() else 'no such file'}")
    if args.files:
        # a file the user names is checked before anything runs: a malformed one, or one written
        # for another game, is an input error (exit 4, one line), not a failing printed example
        check_scenario_files(paths, args.game)
    readings = _readings_for(args.game, args.reading)
    console = _console()
    with progress_for(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        quiet=args.quiet,
    ) as progress:
        task = progress.add_task(f"{args.game} scenarios", total=len(paths))
        results = run_scenarios(paths, readings=readings, progress=lambda r: progress.advance(task))
    if args.json:
        rows = [
            {
                "id": r.id,
                "page": r.page,
                "status": r.status,
                "failures": list(r.failures),
                "error": r.error,
                "path": r.path,
            }
            for r in results
        ]
        _print_json("scenarios", {"game": args.game, "examples": rows}, indent=2)
    else:
        table = Table(title=f"{args.game}: printed examples")
        for col in ("example", "page", "title", "checks", "result"):
            table.add_column(col)
        for r in results:
            colour = {"pass": "green", "fail": "red", "error": "magenta"}[r.status]
            table.add_row(r.id, r.page, r.title, str(r.checks), f"[{colour}]{r.status}[/{colour}]")
        console.print(table)
        for r in results:
            if not r.passed:
                console.print(f"[red]{r.id}[/red] {r.path}")
                if r.error:
                    console.print(f"  error: {r.error}")
                for f in r.failures:
                    console.print(f"  {f}")
        passed = sum(1 for r in results if r.passed)
        console.print(f"{passed}/{len(results)} printed examples hold")
    return EXIT_OK if all(r.passed for r in results) else EXIT_FAIL


# -- play ---------------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    _writable([args.svg, args.save_state])
    game = _game(args)
    rng = random.Random(args.seed)
    state = game.new_game(args.players)
    console = _console()
    log = []
    step = 0
    # --at N: the game stops after step N, so that the log printed leads to the state saved.
    cap = args.at if args.at is not None else args.max_steps or game.campaign_steps
    tools(game).policy(args.policy)  # an unknown policy is refused before the game starts, naming the choices
    for step in range(1, cap + 1):
        if isinstance(game.to_move(state), GameOver):
            step -= 1
            break
        action = game.random_action(state, rng, args.policy)
        assert action is not None
        line = game.describe(state, action)
        state = game.apply(state, action)
        log.append(game.action_to_json(action))
        if not args.json and (args.chance or not line.startswith("chance:") or "thrown" in line):
            console.print(f"{step:>5}. {line}")
    if args.at is not None and step < args.at:
        raise RulecraftError(f"--at {args.at}: the game (seed {args.seed}) ended after {step} steps")
    if args.save_state:
        from rulecraft.statefile import save_state

        save_state(args.save_state, game, state)
    if args.json:
        _print_json(
            "play",
            {
                "game": game.id,
                "seed": args.seed,
                "players": args.players,
                "policy": args.policy,
                "log": log,
                "scores": {str(seat): score for seat, score in game.scores(state).items()},
                "winners": list(game.winners(state)) if game.is_over(state) else None,
                "state_file": args.save_state,
            },
        )
        return EXIT_OK
    console.print()
    console.print(game.render(state))
    if args.svg:
        picture = game.picture(state)
        if picture is None:
            console.print(f"(--svg: {game.title} has no board picture yet)")
        else:
            write_atomically(args.svg, picture)
            console.print(f"The final board: {args.svg}")
    if game.is_over(state):
        winners = game.winners(state)
        scores = ", ".join(f"seat {seat} {score}" for seat, score in sorted(game.scores(state).items()))
        console.print(
            f"\nGame over after {step} steps. Scores: {scores}; "
            f"winner(s): {', '.join(f'seat {w}' for w in winners) or 'none named'}"
        )
    elif args.at is not None:
        console.print(f"\nStopped after step {step} (--at).")
    else:
        console.print(f"\nStopped after {cap} steps without an end (no turn limit in the rules).")
    if args.save_state:
        console.print(f"The state after step {step}: {args.save_state} (use it with --state)")
    return EXIT_OK


# -- rules / readings ---------------------------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> int:
    from rulecraft import plaintable
    from rulecraft.crossref import cross_reference

    game = record(args.game)  # the catalogue without the rules engine (issue 18: start-up)
    catalogue = game.rule_catalogue()
    refs = cross_reference(game.id, game.model_package(), catalogue)
    if args.json:
        rules = [{"id": rule.id, "page": rule.page, "statement": rule.statement, **refs[rule.id]} for rule in catalogue]
        _print_json("rules", {"game": game.id, "rules": rules}, indent=2)
        return EXIT_OK
    rows: list[tuple[str, ...]] = []
    bare = 0
    for rule in catalogue:
        r = refs[rule.id]
        exercised = bool(r["scenarios"] or r["tests"])
        bare += not exercised
        if args.unexercised and exercised:
            continue
        code, tests = ", ".join(r["code"]), ", ".join(r["tests"])
        rows.append((rule.id, rule.page, rule.statement, code, ", ".join(r["scenarios"]), tests if exercised else ""))
    title = f"{game.title}: {len(catalogue)} rules"
    summary = f"{len(catalogue) - bare}/{len(catalogue)} rules exercised by a scenario or a test"
    columns = ("rule", "p.", "statement", "enforced in", "scenarios", "tests")
    if plaintable.plain_stream(sys.stdout):  # a file or a pipe: rich's characters without rich (0.08 s)
        shown = [
            (*row[:3], row[3] or "—", row[4], row[5] if row[4] or row[5] else "nothing exercises it") for row in rows
        ]
        text = plaintable.draw(title, columns, _rules_widths(rows, columns, PIPE_WIDTH), shown, PIPE_WIDTH)
        if text is not None:
            sys.stdout.write(text + summary + "\n")
            return EXIT_OK
    _print_rules_table(title, columns, rows, summary)
    return EXIT_OK


def _print_rules_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]], summary: str) -> None:
    """The rules table drawn by rich: on a terminal (in colour, as wide as it is), and wherever
    :func:`rulecraft.plaintable.draw` cannot promise rich's characters."""
    from rich.table import Table

    console = _console()
    table = Table(title=title, show_lines=False)
    for col, width in zip(columns, _rules_widths(rows, columns, console.width), strict=True):
        table.add_column(col, overflow="fold", width=width)
    for row in rows:
        exercised = bool(row[4] or row[5])
        table.add_row(
            *row[:3],
            row[3] or "[yellow]—[/yellow]",
            row[4],
            row[5] if exercised else "[red]nothing exercises it[/red]",
        )
    console.print(table)
    console.print(summary)


def _rules_widths(rows: Sequence[Sequence[str]], columns: Sequence[str], total: int) -> list[int]:
    """Column widths for the rules table within ``total`` characters, fitted to the longest cell of each
    (the statement takes what is left, at least 20): rich measured every cell of 150 rows for this,
    a third of `rulecraft rules`.  A cell wider than its column folds."""
    caps = (12, 12, 0, 24, 20, 24)  # the statement (0) is sized last
    longest = [max([len(col), *(len(row[i]) for row in rows)]) for i, col in enumerate(columns)]
    widths = [min(n, cap) for n, cap in zip(longest, caps, strict=True)]
    widths[5] = max(widths[5], min(len("nothing exercises it"), caps[5]))
    # each column has a space either side and a rule after it, plus the rule on the left
    room = total - 3 * len(columns) - 1
    widths[2] = max(20, min(longest[2], room - sum(widths) + widths[2]))
    for i in (4, 3, 5):  # too narrow a screen: the lists give way first, down to their headings
        over = sum(widths) - room
        if over > 0:
            widths[i] = max(len(columns[i]), widths[i] - over)
    return widths


def cmd_readings(args: argparse.Namespace) -> int:
    from rich.table import Table

    game = record(args.game)  # the register without the rules engine (issue 18: start-up)
    ambiguities = game.ambiguity_register()
    console = _console()
    if args.json:
        register = [
            {
                "id": a.id,
                "page": a.page,
                "question": a.question,
                "readings": {r.key: r.text for r in a.readings},
                "default": a.default,
                "why": a.why,
                "affects_play": a.affects_play,
            }
            for a in ambiguities
        ]
        _print_json("readings", {"game": game.id, "ambiguities": register}, indent=2)
        return EXIT_OK
    table = Table(title=f"{game.title}: {len(ambiguities)} registered ambiguities")
    for col in ("id", "p.", "question", "readings (default first)", "why the default"):
        table.add_column(col, overflow="fold")
    for a in ambiguities:
        ordered = sorted(a.readings, key=lambda r: r.key != a.default)
        text = "\n".join(f"{'*' if r.key == a.default else ' '}{r.key}: {r.text}" for r in ordered)
        table.add_row(a.id, a.page, a.question, text, a.why)
    console.print(table)
    return EXIT_OK


# -- query ------------------------------------------------------------------------------------------


def cmd_query(args: argparse.Namespace) -> int:
    game = _game(args)
    query = tools(game).queries()[args.query_name]
    params = {k: v for k, v in vars(args).items() if k not in _GLOBAL_DESTS}
    state = None
    if params.get("state"):
        from rulecraft.statefile import load_state

        state = load_state(params["state"], game)  # bounded, checked, one line FILE: FIELD: reason
    answer = query.run(game, params, state)
    if args.json:
        body = answer if isinstance(answer, dict) else {"answer": answer}
        _print_json("query", {"game": game.id, "query": args.query_name, **body}, indent=2)
    else:
        print(query.format(answer))
    return EXIT_OK


_GLOBAL_DESTS = {"command", "game", "query_name", "reading", "components", "json", "func", "quiet"}


# -- conformance ------------------------------------------------------------------------------------------


def cmd_serve(args: argparse.Namespace) -> int:
    from rulecraft.conformance.server import serve

    game_class(args.game)
    readings = _readings_for(args.game, args.reading)
    return serve(args.game, readings=readings, components=args.components)


def cmd_ambiguities(args: argparse.Namespace) -> int:
    """Every registered ambiguity, a witness search per reading, and the printed examples as evidence."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from rulecraft import witness_report
    from rulecraft.results import ambiguities_document, ambiguity_units
    from rulecraft.results import write as write_results
    from rulecraft.witness import Budget, ambiguities, tally

    _writable([args.report, args.html, args.results])
    cls = game_class(args.game)
    only = list(args.only or ())
    budget = Budget(seconds=args.seconds, max_examples=args.max_examples, max_steps=args.max_steps, seed=args.seed)
    unknown = set(only) - {a.id for a in cls.register}
    if unknown:
        raise RulecraftError(f"{', '.join(sorted(unknown))}: not a registered ambiguity of {args.game}")
    shard = _shard(args)
    all_units = ambiguity_units(args.game, only=only, search=not args.no_search, examples=not args.no_examples)
    units = shard.select(all_units)
    total = len(units)
    with progress_for(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        quiet=args.quiet,
    ) as progress:
        task = progress.add_task(f"{args.game}: ambiguities", total=total)

        def tick(what: str) -> None:
            progress.update(task, advance=1, description=f"{args.game}: {what}")

        results = ambiguities(
            args.game,
            only=only,
            budget=budget,
            search=not args.no_search,
            examples=not args.no_examples,
            base=parse_reading_overrides(args.reading or []),
            components=args.components,
            progress=tick,
            units=None if shard.whole else set(units),
        )
    if args.results:
        campaign = {
            "seed": args.seed,
            "seconds": args.seconds,
            "max_examples": args.max_examples,
            "max_steps": args.max_steps,
            "only": sorted(only),
            "search": not args.no_search,
            "examples": not args.no_examples,
            "readings": sorted(args.reading or []),
            "components": args.components,
        }
        write_results(args.results, ambiguities_document(args.game, results, campaign, all_units, shard))
    text = witness_report.markdown(args.game, cls.title, results, budget)
    if args.report:
        write_atomically(args.report, text)
    if args.html:
        write_atomically(args.html, witness_report.html_file(args.html, args.game, cls.title, results, budget))
    if args.json:
        document = json.loads(witness_report.dumps(args.game, results, budget))
        _print_json("ambiguities", document if isinstance(document, dict) else {"results": document}, indent=2)
    else:
        console = _console()
        table = Table(title=f"{cls.title}: {len(results)} ambiguities, {tally(results)['witness']} with a witness")
        for col in ("id", "p.", "outcome", "readings", "shortest witness", "examples as evidence"):
            table.add_column(col, overflow="fold")
        for r in results:
            steps = [len(p.finding.steps) for p in r.pairs if p.finding is not None]
            evidence = "; ".join(f"{k}: {', '.join(v)}" for k, v in r.evidence().items())
            readings = ", ".join(f"{p.reading}={p.outcome}" for p in r.pairs)
            table.add_row(
                r.ambiguity.id,
                r.ambiguity.page,
                witness_report.VERDICT[r.outcome],
                readings,
                f"{min(steps)} steps" if steps else "—",
                evidence or "—",
            )
        console.print(table)
    # Listing ambiguities is no failure; a reading that crashed the model is.
    return EXIT_FAIL if any(p.outcome == "error" for r in results for p in r.pairs) else EXIT_OK


def cmd_errata(args: argparse.Namespace) -> int:
    """A variant file against the printed rules: contradicted examples, broken invariants, play shift."""
    from rich.progress import TextColumn, TimeElapsedColumn
    from rich.table import Table

    from rulecraft import errata_report
    from rulecraft.errata import ErrataBudget, errata_units, load_variant
    from rulecraft.errata import errata_report as run_errata
    from rulecraft.witness import Budget

    _writable([args.report, args.html, args.plot, args.results])
    cls = game_class(args.game)
    shard = _shard(args)
    if (args.shard or args.results) and not args.variant:
        raise RulecraftError(f"{'--shard' if args.shard else '--results'}: only with a VARIANT_FILE to check")
    if args.parameters or not args.variant:
        table = cls.parameters
        out = Table(title=f"{cls.title}: rule parameters a variant may change")
        for col in ("parameter", "rule", "printed", "range", "what it is"):
            out.add_column(col, overflow="fold")
        for p in table:
            out.add_row(p.name, p.rule, str(p.default), f"{p.low}..{p.high}", p.text)
        _console().print(out)
        if not args.variant:
            return EXIT_OK
    variant = load_variant(args.variant, allow_plugin_code=args.allow_plugin_code)
    if variant.game != args.game:
        raise RulecraftError(f"{args.variant}: game: the file is for {variant.game!r}, not {args.game!r}")
    budget = ErrataBudget(
        games=args.games,
        players=args.players,
        campaign_games=args.campaign_games,
        max_steps=args.max_steps,
        witness=Budget(seconds=args.seconds, max_examples=200, max_steps=args.max_steps, seed=args.seed),
        seed=args.seed,
    )
    with progress_for(
        TextColumn("[bold]{task.description}"),
        TimeElapsedColumn(),
        quiet=args.quiet,
    ) as progress:
        task = progress.add_task("errata", total=None)
        units = errata_units(variant, budget)
        report = run_errata(
            variant,
            budget,
            progress=lambda what: progress.update(task, description=f"{variant.name}: {what}"),
            units=None if shard.whole else set(shard.select(units)),
        )
    if args.results:
        import hashlib

        from rulecraft import results

        campaign = {
            "variant": variant.name,
            "variant_sha256": hashlib.sha256(Path(args.variant).read_bytes()).hexdigest()[:16],
            "seed": args.seed,
            "games": args.games,
            "players": args.players,
            "campaign_games": args.campaign_games,
            "max_steps": args.max_steps,
            "seconds": args.seconds,
            "allow_plugin_code": args.allow_plugin_code,
        }
        results.write(args.results, results.errata_document(report, campaign, units, shard))
    text = errata_report.markdown(report)
    if args.report:
        write_atomically(args.report, text)
    if args.html:
        write_atomically(args.html, errata_report.html_file(report, args.html))
    if args.plot:
        write_atomically(args.plot, errata_report.plot(report))
    if args.json:
        _print_json("errata", report.to_json(), indent=2, default=str)
    else:
        _console().print(text, markup=False)
    # A rule change may well contradict printed examples (that is what it reports); a broken
    # invariant or a plugin that crashed is a failure.
    return EXIT_FAIL if report.broken_invariants or report.problems else EXIT_OK


def _pack_data(path: str) -> dict[str, Any]:
    """The pack file as JSON data, to send through the protocol (the game already checked it)."""
    from rulecraft import yamlio

    data = yamlio.load_file(path)  # the same size, depth and node limits as every data file
    if not isinstance(data, dict):
        raise RulecraftError(f"{path}: (top level): a component pack is a mapping")
    return data


def _writable(paths: Sequence[str | None]) -> None:
    """Refuse, before any work, an output path that cannot be written (its results would be lost)."""
    import os

    for path in paths:
        if not path:
            continue
        target = Path(path)
        folder = target.parent if str(target.parent) else Path(".")
        if target.is_dir():
            raise RulecraftError(f"{path}: is a folder, not a file to write")
        if not folder.is_dir():
            raise RulecraftError(f"{path}: the folder {folder} does not exist")
        if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
            raise RulecraftError(f"{path}: cannot be written (permission denied)")


@contextlib.contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (what `timeout` and CI runners send) ends the run like Ctrl-C: the implementation's
    process group is killed and the reports are written with what ran."""
    import signal

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def cmd_conform(args: argparse.Namespace) -> int:
    from rich.progress import MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from rulecraft.conformance.conform import ConformReport, conform, read_replay, replay, replay_game
    from rulecraft.conformance.report import markdown

    if not args.impl:
        raise RulecraftError(
            "--impl: the command that starts the implementation is required (or impl in [tool.rulecraft.conform])"
        )
    _writable([args.junit, args.report, args.html])
    shard = _shard(args)
    game = _game(args)
    if args.full and not args.replay:
        raise RulecraftError("--full: only with --replay FILE (the full game of a finding)")
    document = read_replay(args.replay, game.id) if args.replay else None
    if document is not None:
        replay_game(game, document)  # its readings and board refused in one line before anything runs
    if document is not None and (args.shard or args.results):
        raise RulecraftError(f"{'--shard' if args.shard else '--results'}: not with --replay (one finding's game)")
    _writable([args.results])
    pack = _pack_data(args.components) if args.components else None
    lanes = args.lanes or shard.count
    console = _console()
    players = [args.players] if args.players else None
    report: ConformReport
    with (
        _sigterm_as_interrupt(),
        progress_for(
            TextColumn("[bold]{task.description}"),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            quiet=args.quiet,
        ) as progress,
    ):
        task = progress.add_task("conform", total=None)
        plain = not sys.stderr.isatty() and not args.quiet  # a CI log: a line now and then, not a live bar
        counts: dict[str, int] = {}

        def tick(phase: str, n: int) -> None:
            progress.update(task, advance=n, description=f"{args.game}: {phase}")
            counts[phase] = counts.get(phase, 0) + n
            if plain and counts[phase] % 10 == 0:
                print(f"rulecraft conform {args.game}: {phase}: {counts[phase]}", file=sys.stderr, flush=True)

        if document is not None:
            report = replay(game, args.impl, document, timeout=args.timeout, full=args.full)
        else:
            report = conform(
                game,
                args.impl,
                max_examples=args.max_examples,
                max_steps=args.max_steps,
                seed=args.seed,
                timeout=args.timeout,
                seconds=args.seconds,
                players=players,
                scenarios=not args.no_scenarios,
                progress=tick,
                components=pack,
                shrink_replays=args.shrink_replays,
                lanes=lanes,
                shard=shard,
            )
    # The reports are written whatever happened, interrupted runs included (as pytest does).
    if args.results and document is None:
        from rulecraft import results
        from rulecraft.conformance.conform import conform_units

        units = conform_units(game, scenarios=not args.no_scenarios, lanes=lanes)
        results.write(args.results, results.conform_document(report, _conform_campaign(args, lanes), units, shard))
    _conform_reports(report, args)
    console.print(markdown(report), markup=False)
    return CONFORM_EXIT[report.status] if report.stopped != "interrupted" else EXIT_INTERRUPTED


def _conform_campaign(args: argparse.Namespace, lanes: int) -> dict[str, Any]:
    """Every option a conform campaign's work depends on: equal in all the shards of one campaign."""
    import hashlib

    pack = None
    if args.components:
        pack = hashlib.sha256(json.dumps(_pack_data(args.components), sort_keys=True).encode()).hexdigest()[:16]
    return {
        "impl": args.impl,
        "seed": args.seed,
        "max_examples": args.max_examples,
        "max_steps": args.max_steps,
        "players": args.players,
        "scenarios": not args.no_scenarios,
        "lanes": lanes,
        "timeout": args.timeout,
        "seconds": args.seconds,
        "shrink_replays": args.shrink_replays,
        "readings": sorted(args.reading or []),
        "components": pack,
    }


def cmd_merge(args: argparse.Namespace) -> int:
    """The shards' results of one campaign, merged and judged by the verb's own verdict and reports."""
    from rulecraft import results

    _writable([args.junit, args.report, args.html])
    merged = results.merge(args.files, partial=args.partial)
    if merged.conform is not None:
        from rulecraft.conformance.report import markdown

        report = merged.conform
        _conform_reports(report, args)
        if args.json:
            print(json.dumps(results.merged_document(merged), indent=2, default=str))
        else:
            _console().print(markdown(report), markup=False)
        return CONFORM_EXIT[report.status]
    if args.junit:
        raise RulecraftError(f"--junit: JUnit XML is written for conform results, not {merged.verb}")
    if merged.ambiguities is not None:
        from rulecraft import witness_report

        budget = results.ambiguities_budget(merged.parts[0])
        title = game_class(merged.game).title
        if merged.missing:
            title += f" (PARTIAL: {results.not_run_text(merged.parts[0], merged.missing)})"
        text = witness_report.markdown(merged.game, title, merged.ambiguities, budget)
        if args.report:
            write_atomically(args.report, text)
        if args.html:
            write_atomically(
                args.html, witness_report.html_file(args.html, merged.game, title, merged.ambiguities, budget)
            )
        if args.json:
            print(json.dumps(results.merged_document(merged), indent=2, default=str))
        else:
            _console().print(text, markup=False)
        if any(p.outcome == "error" for r in merged.ambiguities for p in r.pairs):
            return EXIT_FAIL
        return EXIT_NOT_TESTED if merged.missing else EXIT_OK
    return _merged_errata(args, merged)


def _merged_errata(args: argparse.Namespace, merged: Any) -> int:
    from rulecraft import errata_report, results

    report = merged.errata
    if args.report:
        write_atomically(args.report, errata_report.markdown(report))
    if args.html:
        write_atomically(args.html, errata_report.html_file(report, args.html))
    if args.json:
        print(json.dumps(results.merged_document(merged), indent=2, default=str))
    else:
        _console().print(errata_report.markdown(report), markup=False)
    if report.broken_invariants or report.problems:
        return EXIT_FAIL
    return EXIT_NOT_TESTED if merged.missing else EXIT_OK


# -- explore ----------------------------------------------------------------------------------------------


def _conform_reports(report: Any, args: argparse.Namespace) -> None:
    """The files a conform run (or a merge of its shards) writes: --junit, --report, --html."""
    from rulecraft.conformance.report import html_file, junit, markdown

    if args.junit:
        junit(report, args.junit)
    if args.report:
        write_atomically(args.report, markdown(report))
    if args.html:
        write_atomically(args.html, html_file(report, args.html))


def cmd_explore(args: argparse.Namespace) -> int:
    from rulecraft import explore

    given = list(explore.sources(vars(args)))
    if len(given) > 1 or not (given or args.reports):
        names = ", ".join(f"--{name}" for name in given) or "none"
        raise RulecraftError(
            "explore: one source is needed (--seed, --scenario, --state, --finding, --witness or --divergence),"
            f" or --reports FOLDER; got {names}"
        )
    readings = _readings_for(args.game, args.reading, strict=True)
    kind = given[0] if given else "reports"
    if args.impl and kind != "finding":
        raise RulecraftError("--impl: only with --finding (the implementation of a conform finding)")
    players = 0
    if kind == "seed":
        game = _game(args)
        players = args.players if args.players is not None else min(game.min_players + 1, game.max_players)
        if not game.min_players <= players <= game.max_players:
            raise RulecraftError(f"--players {players}: {game.title} takes {game.min_players}-{game.max_players}")
        tools(game).policy(args.policy)  # an unknown policy is refused before the game is played

    def opened() -> explore.Trace:  # the command line's source, opened again when the page asks for it
        if kind == "seed":
            return explore.seeded_trace(_game(args), args.seed, players, args.max_steps, args.policy)
        if kind == "scenario":
            return explore.scenario_trace(args.game, args.scenario, readings)
        if kind == "state":
            return explore.state_trace(_game(args), args.state)
        if kind == "finding":
            return explore.finding_trace(args.game, args.finding, readings, impl=args.impl)
        if kind == "witness":
            return explore.witness_trace(args.game, args.witness, args.pick)
        return explore.divergence_trace(args.game, args.divergence, allow_plugin_code=args.allow_plugin_code)

    reports: list[explore.Source] = []
    if args.reports is not None:  # the documents the reports in FOLDER wrote: listed once, now
        reports, left_out = explore.report_sources(
            args.game, args.reports, readings, allow_plugin_code=args.allow_plugin_code
        )
        for line in left_out:
            print(f"rulecraft explore: {line}", file=sys.stderr, flush=True)
    label = f"--{kind} {getattr(args, kind)} (the command line's)"
    sources = explore.sources_for(args.game, (label, opened) if given else None, readings, reports)
    trace = opened() if given else sources[0].opener({})  # a report's first document, or a seeded game
    port = args.port if args.port is not None else explore.REPORTS_PORT if args.reports is not None else 0
    try:
        explore.serve(
            trace,
            port,
            open_browser=not args.no_open,
            announce=lambda line: print(line, flush=True),
            sources=sources,
        )
    except KeyboardInterrupt:
        return EXIT_OK  # Ctrl-C is how a local page is closed, not an interrupted piece of work
    return EXIT_OK


# -- parser -----------------------------------------------------------------------------------------------


def _add_game(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", type=_game_id, metavar="{" + ",".join(game_ids()) + "}", help=_game_help())


def _add_seed(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--seed", type=SEED, default=0, help=f"{what}; the same seed gives the same result on every machine (default 0)"
    )


def _add_json(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument(
        "--json",
        action="store_true",
        help=f'{what} as one JSON document on standard output, with "rulecraft" (version) and "schema" fields',
    )


def _add_quiet(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quiet", action="store_true", help="no progress display on standard error")


def _players_help(default: str) -> str:
    ranges = ", ".join(f"{gid} {r.players[0]}-{r.players[-1]}" for gid in game_ids() for r in [record(gid)])
    return f"number of players: {ranges} ({default})"


def build_parser(*, queries: bool = True, query_game: str | None = None) -> argparse.ArgumentParser:
    """The command line.  ``queries``: add the games' rules questions under ``query`` (their
    arguments come from the queries themselves, so the games and their solvers are imported), only
    ``query_game``'s when it is named ("": none, the games listed from their records; None: every
    game's); without, the parser is built from the games' records alone."""
    parser = _Parser(
        prog="rulecraft",
        description=__doc__,
        epilog=EXIT_TABLE + "\n\nDocumentation of every option, the exit codes and [tool.rulecraft]: docs/cli.md",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from rulecraft import __version__

    parser.add_argument("--version", action="version", version=f"rulecraft {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="VERB")
    verb = _verb_adder(sub)

    p = verb("verify", "scenarios, invariant campaign and solver checks (about 20 s for air, 1 min for stm, per game)")
    p.add_argument(
        "games_ids", nargs="*", type=_game_id, metavar="GAME", help="games to verify (default: all): " + _game_help()
    )
    _add_seed(p, "seed of the campaign and of the solver checks")
    p.add_argument(
        "--games", type=NATURAL, default=40, help="random games in the invariant campaign (default 40; 0 skips)"
    )
    p.add_argument(
        "--max-steps",
        type=POSITIVE,
        default=None,
        help="step cap per campaign game (default: the game's own, 3000 for most; the rules have no turn limit)",
    )
    p.add_argument(
        "--solver-checks", type=NATURAL, default=40, help="solver/oracle comparisons per query (default 40; 0 skips)"
    )
    p.add_argument(
        "--policy",
        default="uniform",
        help="how the campaign's random games choose: 'uniform' (default) or a policy every named game offers,"
        " e.g. stm 'purposeful' (games that reach their end)",
    )
    p.add_argument("--show-deadlock", action="store_true", help="print the deadlocked example's board and log")
    p.add_argument(
        "--shrink-replays",
        type=NATURAL,
        default=DEFAULT_SHRINK_REPLAYS,
        help="replays a failing game's shrinking may take (a count, so every machine shrinks the same seed alike;"
        f" default {DEFAULT_SHRINK_REPLAYS}; 0: keep it as found)",
    )
    p.add_argument(
        "--shrink-seconds",
        type=SECONDS,
        default=DEFAULT_SHRINK_SECONDS,
        help=f"a wall-clock safety cap on each shrinking (default {DEFAULT_SHRINK_SECONDS:g}); a finding it cuts"
        " short says so",
    )
    _add_json(p, "the reports")
    _add_quiet(p)
    _add_common(p)
    _add_database(p)
    p.set_defaults(func=cmd_verify)

    p = verb("scenarios", "run the printed examples of a game (a few seconds)")
    _add_game(p)
    p.add_argument("files", nargs="*", metavar="FILE", help="scenario files (default: the bundled ones)")
    _add_json(p, "one result per example")
    _add_quiet(p)
    _add_common(p, components=False)
    p.set_defaults(func=cmd_scenarios)

    p = verb("play", "print a readable log of one seeded random game; --save-state writes a state file (seconds)")
    _add_game(p)
    p.add_argument("--players", type=POSITIVE, default=4, help=_players_help("default 4"))
    _add_seed(p, "seed of the random choices and of chance")
    p.add_argument("--max-steps", type=POSITIVE, default=None, help="step cap (default: the game's own, 3000 for most)")
    p.add_argument("--chance", action="store_true", help="also list set-up deals and reveals")
    _add_json(p, "the action log, scores and winners")
    p.add_argument("--svg", metavar="FILE", help="also write the final board as a picture (SVG)")
    p.add_argument(
        "--save-state",
        metavar="FILE",
        help="write the state reached as a state file, for --state of the queries (docs/cli.md)",
    )
    p.add_argument(
        "--at",
        type=NATURAL,
        metavar="STEP",
        default=None,
        help="stop after this step (0: the state before the first step); default: play to the end",
    )
    p.add_argument(
        "--policy",
        default="uniform",
        help="how the random player chooses: 'uniform' (default) or a game's own policy, e.g. stm 'purposeful'",
    )
    _add_common(p)
    p.set_defaults(func=cmd_play)

    p = verb("rules", "the rule catalogue with code, scenarios and tests per rule")
    _add_game(p)
    p.add_argument("--unexercised", action="store_true", help="only rules nothing exercises")
    _add_json(p, "the catalogue")
    p.set_defaults(func=cmd_rules)

    p = verb("readings", "the ambiguity register of a game")
    _add_game(p)
    _add_json(p, "the register")
    p.set_defaults(func=cmd_readings)

    p = verb(
        "ambiguities",
        "each registered ambiguity: where its readings change play (witnesses), and the evidence"
        " (up to --seconds per reading; a few minutes per game)",
    )
    _add_game(p)
    p.add_argument("--only", action="append", metavar="AMB-ID", help="only this ambiguity (repeatable)")
    p.add_argument(
        "--seconds",
        type=SECONDS,
        default=10.0,
        help="safety cap per reading (default 10); the search is bounded by --max-examples games, and a "
        "reading the cap stops says so",
    )
    p.add_argument("--max-examples", type=POSITIVE, default=200, help="games per reading at most (default 200)")
    p.add_argument(
        "--max-steps",
        type=POSITIVE,
        default=None,
        help="steps per game at most (default: the game's own cap, so games end)",
    )
    _add_seed(p, "seed of the witness search")
    p.add_argument("--no-search", action="store_true", help="only list the register and the examples' evidence")
    p.add_argument("--no-examples", action="store_true", help="skip replaying the printed examples")
    _add_shard(p, "its (ambiguity, reading) pairs and each ambiguity's printed examples")
    _add_json(p, "the whole result")
    p.add_argument("--report", metavar="FILE", help="write a Markdown report")
    p.add_argument("--html", metavar="FILE", help="write an HTML report with the board pictures")
    _add_quiet(p)
    _add_common(p)
    _add_database(p)
    p.set_defaults(func=cmd_ambiguities)

    p = verb("errata", "check a variant or erratum file against the printed rules (about a minute)")
    _add_game(p)
    p.add_argument("variant", nargs="?", metavar="VARIANT_FILE", help="a variant file (docs/errata.md)")
    p.add_argument("--parameters", action="store_true", help="list the rule parameters a variant may change")
    p.add_argument(
        "--allow-plugin-code",
        action="store_true",
        help="let the variant file's plugins name module:function (code the file chose); without it only "
        "installed plugins (entry points) load",
    )
    p.add_argument("--games", type=POSITIVE, default=60, help="random games per ruleset for the shift (default 60)")
    p.add_argument(
        "--campaign-games", type=POSITIVE, default=40, help="random games checking every invariant (default 40)"
    )
    p.add_argument("--players", type=POSITIVE, default=None, help=_players_help("default: every count the game takes"))
    p.add_argument(
        "--max-steps", type=POSITIVE, default=None, help="steps per random game (default: the game's own cap)"
    )
    p.add_argument(
        "--seconds", type=SECONDS, default=20.0, help="safety cap on finding where play changes (default 20)"
    )
    _add_seed(p, "seed of the random games and of the search")
    _add_json(p, "the report")
    p.add_argument("--report", metavar="FILE", help="write a Markdown report")
    p.add_argument("--html", metavar="FILE", help="write an HTML report with the plot and the board")
    p.add_argument("--plot", metavar="FILE", help="write the play-shift plot as SVG")
    _add_shard(p, "its printed examples, invariant-campaign games, the search and the shift's games")
    _add_quiet(p)
    _add_database(p)
    p.set_defaults(func=cmd_errata)

    p = verb(
        "merge",
        "merge the --results files of one campaign's shards (conform, ambiguities, errata) into one report,"
        " judged as a single run (seconds)",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="results files written with --shard I/N --results FILE")
    p.add_argument(
        "--partial",
        action="store_true",
        help="merge even with shards missing; the verdict then says what was not run (never a pass: exit 5)",
    )
    p.add_argument("--junit", metavar="FILE", help="write JUnit XML (conform)")
    p.add_argument("--report", metavar="FILE", help="write a Markdown report")
    p.add_argument("--html", metavar="FILE", help="write an HTML report")
    _add_json(p, "the merged results")
    p.set_defaults(func=cmd_merge)

    p = verb("serve", "run the reference model as a protocol implementation on stdin/stdout (until end of input)")
    _add_game(p)
    _add_common(p)
    p.set_defaults(func=cmd_serve)

    p = verb(
        "conform",
        "test another implementation against the rules (see docs/protocol.md; minutes: up to --seconds, default 900)",
    )
    _add_game(p)
    p.add_argument(
        "--impl",
        required=True,
        metavar="COMMAND",
        help="the command that starts the implementation (or impl in [tool.rulecraft.conform])",
    )
    p.add_argument(
        "--max-examples", type=POSITIVE, default=50, help="differential games to play, each to its end (default 50)"
    )
    p.add_argument(
        "--max-steps",
        type=POSITIVE,
        default=None,
        help="step cap of a differential game (default: far above the game's longest; games that reach it are "
        "reported)",
    )
    _add_seed(p, "the search's seed: the same seed gives the same games and findings")
    p.add_argument(
        "--seconds",
        type=SECONDS,
        default=900.0,
        help="a wall-clock safety cap on the differential phase (default 900); when it bites the verdict is "
        "'incomplete' (exit 5), never 'conformant'",
    )
    p.add_argument(
        "--shrink-replays",
        type=POSITIVE,
        default=300,
        help="replays a finding's shrinking may take (a count, so every machine shrinks alike; default 300)",
    )
    p.add_argument(
        "--replay",
        metavar="FILE",
        help="replay one finding's game (the JSON document a report prints) instead of searching",
    )
    p.add_argument("--full", action="store_true", help="with --replay: the full game from a new game")
    p.add_argument(
        "--timeout", type=SECONDS, default=5.0, help="seconds the implementation may take per request (default 5)"
    )
    p.add_argument("--players", type=POSITIVE, default=None, help=_players_help("default: every count"))
    p.add_argument("--no-scenarios", action="store_true", help="skip the printed examples")
    p.add_argument(
        "--lanes",
        type=POSITIVE,
        default=None,
        help="split the differential games into this many independent seeded searches (default 1, with --shard"
        " I/N: N); a run with --lanes N does exactly the work of the N shards",
    )
    _add_shard(p, "its printed examples and differential lanes")
    p.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    p.add_argument("--report", metavar="FILE", help="write a Markdown report")
    p.add_argument("--html", metavar="FILE", help="write an HTML report with the board pictures")
    _add_quiet(p)
    _add_common(p)
    _add_database(p)
    p.set_defaults(func=cmd_conform)

    p = verb(
        "explore",
        "step through a game in a local web page (127.0.0.1): a seeded game, a printed example, a state file,"
        " a conform finding, an ambiguity witness or an errata divergence (runs until Ctrl-C)",
    )
    _add_game(p)
    source = p.add_argument_group("what to step through (one of)")
    source.add_argument("--seed", type=SEED, default=None, help="a seeded random game (chance included)")
    source.add_argument("--scenario", metavar="FILE_OR_ID", help="a printed example: its file, or its ID (AIR-EX-02)")
    source.add_argument("--state", metavar="FILE", help="a state file (rulecraft play GAME --save-state FILE)")
    source.add_argument("--finding", metavar="FILE", help="a conform finding (the replay document a report prints)")
    source.add_argument(
        "--witness", metavar="FILE", help="an ambiguity witness (a report's document, or 'ambiguities --json' output)"
    )
    source.add_argument(
        "--divergence", metavar="FILE", help="where an erratum changes play (a report's document, or 'errata --json')"
    )
    p.add_argument("--players", type=POSITIVE, default=None, help=_players_help("with --seed; default: the fewest + 1"))
    p.add_argument(
        "--max-steps",
        type=POSITIVE,
        default=None,
        help="with --seed: step cap (default: the game's own, 3000 for most)",
    )
    p.add_argument("--policy", default="uniform", help="with --seed: how the random player chooses (default uniform)")
    p.add_argument("--pick", metavar="AMB-ID[=READING]", help="with --witness and 'ambiguities --json': which witness")
    p.add_argument(
        "--impl",
        metavar="COMMAND",
        help="with --finding: the implementation, asked its state and legal actions at each step (as conform runs it)",
    )
    p.add_argument(
        "--allow-plugin-code",
        action="store_true",
        help="with --divergence: let the variant file's plugins name module:function (as errata takes it)",
    )
    p.add_argument(
        "--reports",
        metavar="FOLDER",
        help="list the documents the HTML reports in FOLDER wrote (their 'open it in the explorer' links);"
        " the port is then 8537 unless --port says otherwise",
    )
    p.add_argument(
        "--port",
        type=Whole(0, 65535),
        default=None,
        help="the port on 127.0.0.1 (default 0: a free one; 8537 with --reports)",
    )
    p.add_argument("--no-open", action="store_true", help="print the address only; do not open a browser")
    _add_common(p)
    p.set_defaults(func=cmd_explore)

    p = verb("query", "answer a rules question (see 'rulecraft query GAME -h'; seconds)")
    p.set_defaults(func=cmd_query)
    if not queries:
        return parser
    qsub = p.add_subparsers(dest="game", required=True, metavar="{" + ",".join(game_ids()) + "}")
    for gid in game_ids():
        gp = qsub.add_parser(gid, help=record(gid).title)
        if query_game is not None and gid != query_game:
            continue  # another game's questions: not configured for a command about one game
        names = gp.add_subparsers(dest="query_name", required=True)
        for name, query in _queries_of(gid).items():
            qp = names.add_parser(name, help=query.help, description=query.help, epilog=EXIT_TABLE)
            query.add_arguments(qp)
            _checked_numbers(qp)
            _add_json(qp, "the answer")
            _add_common(qp, game_id=gid)
    return parser


def _shard(args: argparse.Namespace) -> Shard:
    """``--shard I/N``, checked (before any work): the whole campaign when it is not given."""
    from rulecraft.shard import WHOLE, parse_shard

    if args.shard is None:
        return WHOLE
    try:
        return parse_shard(args.shard)
    except ValueError as exc:
        raise RulecraftError(f"--shard: {exc}") from None


def _add_shard(p: argparse.ArgumentParser, units: str) -> None:
    p.add_argument(
        "--shard",
        default=None,
        metavar="I/N",
        help=f"run shard I of N of the campaign ({units}, by index modulo N): shards 1..N of the same options"
        " together do exactly the whole run's work; merge their --results with 'rulecraft merge'",
    )
    p.add_argument(
        "--results",
        metavar="FILE",
        help="write the machine-readable results (JSON, schema results/1) for 'rulecraft merge'",
    )


def _queries_of(game_id: str) -> Mapping[str, Any]:
    """A game's rules questions, from its record: the solvers are imported, no game is configured
    to build the options."""
    return record(game_id).queries()


def _add_database(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--database",
        metavar="FOLDER|URL",
        help="Hypothesis example database: a folder or redis://HOST:PORT[/DB] shared by many workers"
        " (default: $RULECRAFT_DATABASE, then [tool.rulecraft] database, then .hypothesis/examples);"
        " checked and set for the run, but this verb's own seeded search keeps no examples yet (issue 21):"
        " today it serves the pytest state machines and property tests",
    )


def _verb_adder(sub: Any) -> Callable[[str, str], argparse.ArgumentParser]:
    def verb(name: str, text: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = sub.add_parser(
            name, help=text, description=text, epilog=EXIT_TABLE, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        return made

    return verb


# Query options that count something where 0 means nothing; the other whole numbers (seat, money,
# level) may be 0.
_QUERY_POSITIVE = {"timeout_ms", "limit", "count"}


def _checked_numbers(p: argparse.ArgumentParser) -> None:
    """The queries declare ``type=int``; give those options the checked types (no negatives)."""
    for action in p._actions:
        if action.type is int:
            action.type = POSITIVE if action.dest in _QUERY_POSITIVE else NATURAL


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Options anywhere, as pytest and ruff take them: ``errata air --quiet FILE`` too.  argparse
    stops filling an optional positional at the first option, so a verb whose words are left over
    is parsed again with its own parser, intermixed."""
    args, rest = parser.parse_known_args(argv)
    if not rest:
        return args
    verbs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    verb = verbs.choices.get(str(getattr(args, "command", "")))
    nested = verb is not None and any(isinstance(a, argparse._SubParsersAction) for a in verb._actions)
    if verb is None or nested or args.command not in argv:
        return parser.parse_args(argv)  # argparse's own message for what is left
    at = argv.index(args.command)
    again: argparse.Namespace = verb.parse_intermixed_args(argv[at + 1 :])
    for key, value in vars(args).items():
        if not hasattr(again, key):
            setattr(again, key, value)
    return again


# Per-run options, not project defaults: output files, a replayed finding, a stopping step.
_NOT_CONFIGURABLE = {
    "help",
    "svg",
    "save_state",
    "at",
    "report",
    "html",
    "plot",
    "junit",
    "replay",
    "full",
    "parameters",
    "database",  # the top-level key [tool.rulecraft] database sets it for every verb
    "shard",  # a worker's share of one campaign, and where it writes it
    "results",
}
_CONFIG_VERBS = ("verify", "scenarios", "play", "rules", "readings", "ambiguities", "errata", "serve", "conform")
_SHARED_DESTS = {"seed": "seed", "readings": "reading"}  # top-level key -> option dest


def _verbs(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: p for name, p in sub.choices.items() if name in _CONFIG_VERBS}


def _configurable(verb: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The options of ``verb`` a project may set, by long name without the dashes."""
    out = {}
    for action in verb._actions:
        if action.option_strings and action.dest not in _NOT_CONFIGURABLE:
            out[action.option_strings[-1].removeprefix("--")] = action
    return out


def _config_value(config: project_config.Config, where: tuple[str, ...], action: argparse.Action, value: Any) -> Any:
    """``value`` checked as the option ``action`` would check its text; a wrong type is one line."""
    if isinstance(action, argparse._StoreTrueAction):
        if not isinstance(value, bool):
            raise config.error(f"true or false, got {value!r}", *where)
        return value
    if isinstance(action, argparse._AppendAction):
        pairs = action.dest == "reading"  # --reading AMB=READING; --only takes bare IDs
        if not isinstance(value, list) or not all(isinstance(v, str) and ("=" in v or not pairs) for v in value):
            example = '"AMB-ID=READING" strings, e.g. ["AIR-AMB-09=C"]' if pairs else 'strings, e.g. ["AIR-AMB-09"]'
            raise config.error(f"a list of {example}", *where)
        return list(value)
    checker = action.type
    if isinstance(checker, Whole | Seconds):
        if isinstance(value, bool) or not isinstance(value, checker.kinds):
            kind = "a whole number" if isinstance(checker, Whole) else "a number of seconds"
            raise config.error(f"{kind}, got {value!r}", *where)
        try:
            return checker(str(value))
        except argparse.ArgumentTypeError as exc:
            raise config.error(str(exc), *where) from None
    if not isinstance(value, str):
        raise config.error(f"a string, got {value!r}", *where)
    if action.choices is not None and value not in action.choices:
        raise config.error(f"one of {', '.join(map(str, action.choices))}, got {value!r}", *where)
    if action.dest == "components":  # a path in the file starts at the file's folder, as in ruff
        return str(config.folder / value)
    return value


def _apply_config(parser: argparse.ArgumentParser, config: project_config.Config) -> None:
    """The project's ``[tool.rulecraft]`` values become the verbs' defaults (the command line wins)."""
    if config.path is None:
        return
    verbs = _verbs(parser)
    options = {name: _configurable(verb) for name, verb in verbs.items()}
    project_config.check_keys(config, {name: frozenset(o) for name, o in options.items()})
    project_config.database(config)  # its type is checked before any work
    for name, verb in verbs.items():
        defaults: dict[str, Any] = {}
        by_dest = {a.dest: a for a in options[name].values()}
        for key, dest in _SHARED_DESTS.items():
            if key in config.table and dest in by_dest:
                defaults[dest] = _config_value(config, (key,), by_dest[dest], config.table[key])
        for key, value in config.verb(name).items():
            action = options[name][key]
            defaults[action.dest] = _config_value(config, (name, key), action, value)
            action.required = False  # a configured --impl need not be typed again
        if defaults:
            verb.set_defaults(**defaults)


def _database(args: argparse.Namespace, config: project_config.Config) -> Any:
    """The example database in force: ``--database``, else ``RULECRAFT_DATABASE``, else the project's
    ``database`` key (None: Hypothesis's default); a malformed value is a usage error."""
    if not (getattr(args, "database", None) or os.environ.get(DATABASE_ENV)) and "database" not in config.table:
        return None  # nothing set: Hypothesis (0.3 s to import, its plugins included) stays unimported
    from rulecraft.profiles import database_setting, open_database

    given = database_setting(getattr(args, "database", None))
    if given is not None:
        return open_database(given)
    folder = project_config.database(config)
    if folder is None:
        return None
    return open_database(str(folder), config.folder)


def _require_python_model(verb: str) -> None:
    """These verbs name the rules each step exercised by tracing the model's Python lines (a search
    also steers by them): in a compiled build they would see fewer rules, and search otherwise."""
    from rulecraft.compiled import compiled_under

    compiled = compiled_under("rulecraft.model.")
    if compiled:
        raise RulecraftError(
            f"rulecraft {verb} traces the rules each step exercises, and {len(compiled)} model modules of this"
            " install run compiled (RULECRAFT_COMPILE): use the pure-Python build (pip install . without"
            " RULECRAFT_COMPILE; docs/speed.md)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        # Only `query` needs the games' solvers to build its options; every other verb starts
        # from the records (names and player counts) without importing a game.
        verb, *rest = [w for w in words if not w.startswith("-")] or [""]
        named = rest[0] if rest and rest[0] in game_ids() else None
        # `query GAME ...` configures that game alone; `query -h` lists the games from their records.
        parser = build_parser(queries=verb == "query", query_game=named or "")
        config = project_config.find(Path.cwd())
        _apply_config(parser, config)
        try:
            args = _parse(parser, words)
        except SystemExit as exc:  # a usage error is a code like any other; --help and --version exit 0
            if exc.code == EXIT_USAGE:
                return EXIT_USAGE
            raise
        searching = args.func is not cmd_ambiguities or not args.no_search  # the register alone traces nothing
        if args.func in (cmd_ambiguities, cmd_errata, cmd_conform) and searching:
            _require_python_model(verb)
        with contextlib.ExitStack() as stack:
            database = _database(args, config)
            if database is not None:
                from rulecraft.profiles import example_database

                stack.enter_context(example_database(database))
            code: int = args.func(args)
        return code
    except RulecraftError as exc:
        # the message names the file, field or option already: the exception's class is noise to a user
        print(f"rulecraft: error: {' '.join(str(exc).splitlines())}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rulecraft: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # a bug of rulecraft's: one line and where to report it, not a traceback
        if os.environ.get("RULECRAFT_DEBUG"):
            raise
        print(
            f"rulecraft: internal error: {type(exc).__name__}: {str(exc)[:300]} "
            "(a bug: please report it with the command line; RULECRAFT_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
