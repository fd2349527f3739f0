"""The rulecraft command line: one verb per job.

rulecraft verify [GAME ...]        scenarios + invariant campaign + solver checks
rulecraft scenarios GAME           the printed examples, with a summary table
rulecraft play GAME                a readable log of one seeded random game
rulecraft rules GAME               the rule catalogue, with what enforces and exercises each rule
rulecraft readings GAME            the ambiguity register: readings, defaults, reasons
rulecraft query GAME NAME ...      a rules question (Z3 / exact), --json for machines
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from rulecraft.core import Game, GameOver, RulecraftError
from rulecraft.registry import game_class, game_ids, make_game
from rulecraft.ruleset import parse_reading_overrides

EXIT_OK, EXIT_FAIL, EXIT_INTERRUPTED, EXIT_INTERNAL, EXIT_USAGE = 0, 1, 2, 3, 4  # pytest's conventions
EXIT_NOT_TESTED = 5  # as pytest's "no tests collected": nothing (or not everything planned) was compared
CONFORM_EXIT = {
    "conformant": EXIT_OK,
    "findings": EXIT_FAIL,
    "not-tested": EXIT_NOT_TESTED,
    "incomplete": EXIT_NOT_TESTED,
}


def _console(stream: Any = None) -> Console:
    stream = stream or sys.stdout
    # Tables piped to a file or CI log keep their columns readable.
    width = None if getattr(stream, "isatty", lambda: False)() else 160
    return Console(file=stream, highlight=False, soft_wrap=True, width=width)


def _game(args: argparse.Namespace, game_id: str | None = None) -> Game[Any, Any]:
    gid = game_id or args.game
    # One game: a reading of another game is a mistake, not something to drop without a word.
    readings = _readings_for(gid, getattr(args, "reading", None) or [], strict=game_id is None)
    return make_game(gid, readings=readings, components=getattr(args, "components", None))


def _readings_for(game_id: str, items: Sequence[str], *, strict: bool = False) -> dict[str, str]:
    """The overrides that belong to ``game_id``; an ID of no game is an error, and so (``strict``: a
    run of this game alone) is an ID of another game."""
    game_class(game_id)  # an unknown game is one clear line naming the registered ones
    readings = parse_reading_overrides(items)
    prefixes = {gid: {a.id.split("-")[0] for a in game_class(gid).register} for gid in game_ids()}
    for amb_id in readings:
        if not any(amb_id.split("-")[0] in p for p in prefixes.values()):
            raise RulecraftError(f"--reading {amb_id}: no registered game has this ambiguity")
    mine = prefixes[game_id]
    foreign = [k for k in readings if k.split("-")[0] not in mine]
    if strict and foreign:
        raise RulecraftError(f"--reading {foreign[0]}: an ambiguity of another game; this run plays {game_id}")
    return {k: v for k, v in readings.items() if k.split("-")[0] in mine}


def _add_common(p: argparse.ArgumentParser, *, components: bool = True) -> None:
    p.add_argument(
        "--reading",
        action="append",
        default=[],
        metavar="AMB=READING",
        help="play an ambiguity under a non-default reading, e.g. AIR-AMB-09=C (repeatable)",
    )
    if components:
        p.add_argument("--components", metavar="FILE", help="a component pack (YAML) instead of the bundled one")


# -- verify ------------------------------------------------------------------------------


def cmd_verify(args: argparse.Namespace) -> int:
    from rulecraft.scenarios.loader import scenario_files
    from rulecraft.verify import verify_game

    console = _console()
    ids = args.games_ids or game_ids()
    for gid in ids:  # an unknown game or policy is refused before any work, naming the choices
        _game(args, gid).policy(args.policy)
    reports = []
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_console(sys.stderr),
        transient=True,
        disable=args.quiet,
    ) as progress:
        for gid in ids:
            game = _game(args, gid)
            n_scen = len(list(scenario_files(gid)))
            solvers = sum(1 for q in game.queries().values() if hasattr(q, "oracle_check"))
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
                    shrink_seconds=args.shrink_seconds,
                    policy=args.policy,
                )
            )
    if args.json:
        print(json.dumps([_report_json(r) for r in reports], indent=2))
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


def _start_of(game: Game[Any, Any], finding: Any) -> Any:
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
    from rulecraft.scenarios.loader import scenario_files
    from rulecraft.scenarios.runner import run_scenarios

    game_class(args.game)  # unknown game -> clear error
    paths = [Path(p) for p in args.files] or list(scenario_files(args.game))
    readings = _readings_for(args.game, args.reading)
    console = _console()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        console=_console(sys.stderr),
        transient=True,
        disable=args.quiet,
    ) as progress:
        task = progress.add_task(f"{args.game} scenarios", total=len(paths))
        results = run_scenarios(paths, readings=readings, progress=lambda r: progress.advance(task))
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "id": r.id,
                        "page": r.page,
                        "status": r.status,
                        "failures": list(r.failures),
                        "error": r.error,
                        "path": r.path,
                    }
                    for r in results
                ],
                indent=2,
            )
        )
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
    game = _game(args)
    rng = random.Random(args.seed)
    state = game.new_game(args.players)
    console = _console()
    log = []
    step = 0
    cap = args.max_steps or game.campaign_steps
    game.policy(args.policy)  # an unknown policy is refused before the game starts, naming the choices
    for step in range(1, cap + 1):
        if isinstance(game.to_move(state), GameOver):
            break
        action = game.random_action(state, rng, args.policy)
        assert action is not None
        line = game.describe(state, action)
        state = game.apply(state, action)
        log.append(game.action_to_json(action))
        if not args.json and (args.chance or not line.startswith("chance:") or "thrown" in line):
            console.print(f"{step:>5}. {line}")
    if args.json:
        print(
            json.dumps(
                {
                    "seed": args.seed,
                    "players": args.players,
                    "log": log,
                    "scores": game.scores(state),
                    "winners": list(game.winners(state)) if game.is_over(state) else None,
                }
            )
        )
        return EXIT_OK
    console.print()
    console.print(game.render(state))
    if args.svg:
        picture = game.picture(state)
        if picture is None:
            console.print(f"(--svg: {game.title} has no board picture yet)")
        else:
            Path(args.svg).write_text(picture, "utf-8")
            console.print(f"The final board: {args.svg}")
    if game.is_over(state):
        winners = game.winners(state)
        console.print(
            f"\nGame over after {step} steps. Scores {dict(game.scores(state))}; "
            f"winner(s): {', '.join(f'seat {w}' for w in winners) or 'none named'}"
        )
    else:
        console.print(f"\nStopped after {cap} steps without an end (no turn limit in the rules).")
    return EXIT_OK


# -- rules / readings ---------------------------------------------------------------------------


def cmd_rules(args: argparse.Namespace) -> int:
    from rulecraft.crossref import crossref

    cls = game_class(args.game)
    refs = crossref(cls)
    console = _console()
    if args.json:
        print(
            json.dumps(
                [
                    {"id": rule.id, "page": rule.page, "statement": rule.statement, **refs[rule.id]}
                    for rule in cls.catalogue
                ],
                indent=2,
            )
        )
        return EXIT_OK
    table = Table(title=f"{cls.title}: {len(cls.catalogue)} rules", show_lines=False)
    for col in ("rule", "p.", "statement", "enforced in", "scenarios", "tests"):
        table.add_column(col, overflow="fold")
    bare = 0
    for rule in cls.catalogue:
        r = refs[rule.id]
        if args.unexercised and (r["scenarios"] or r["tests"]):
            continue
        exercised = bool(r["scenarios"] or r["tests"])
        bare += not exercised
        table.add_row(
            rule.id,
            rule.page,
            rule.statement,
            ", ".join(r["code"]) or "[yellow]—[/yellow]",
            ", ".join(r["scenarios"]) or "",
            ", ".join(r["tests"]) if exercised else "[red]nothing exercises it[/red]",
        )
    console.print(table)
    console.print(f"{len(cls.catalogue) - bare}/{len(cls.catalogue)} rules exercised by a scenario or a test")
    return EXIT_OK


def cmd_readings(args: argparse.Namespace) -> int:
    cls = game_class(args.game)
    console = _console()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "id": a.id,
                        "page": a.page,
                        "question": a.question,
                        "readings": {r.key: r.text for r in a.readings},
                        "default": a.default,
                        "why": a.why,
                        "affects_play": a.affects_play,
                    }
                    for a in cls.register
                ],
                indent=2,
            )
        )
        return EXIT_OK
    table = Table(title=f"{cls.title}: {len(cls.register)} registered ambiguities")
    for col in ("id", "p.", "question", "readings (default first)", "why the default"):
        table.add_column(col, overflow="fold")
    for a in cls.register:
        ordered = sorted(a.readings, key=lambda r: r.key != a.default)
        text = "\n".join(f"{'*' if r.key == a.default else ' '}{r.key}: {r.text}" for r in ordered)
        table.add_row(a.id, a.page, a.question, text, a.why)
    console.print(table)
    return EXIT_OK


# -- query ------------------------------------------------------------------------------------------


def cmd_query(args: argparse.Namespace) -> int:
    game = _game(args)
    query = game.queries()[args.query_name]
    params = {k: v for k, v in vars(args).items() if k not in _GLOBAL_DESTS}
    state = None
    if params.get("state"):
        path = Path(params["state"])
        try:
            state = game.state_from_json(json.loads(path.read_text("utf-8")))
        except (OSError, ValueError) as exc:
            raise RulecraftError(f"{path}: cannot read a state: {exc}") from None
    answer = query.run(game, params, state)
    print(json.dumps(answer, indent=2) if args.json else query.format(answer))
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
    from rulecraft import witness_report
    from rulecraft.witness import Budget, ambiguities, tally

    cls = game_class(args.game)
    only = list(args.only or ())
    budget = Budget(seconds=args.seconds, max_examples=args.max_examples, max_steps=args.max_steps, seed=args.seed)
    wanted = [a for a in cls.register if not only or a.id in only]
    total = (0 if args.no_search else sum(len(a.readings) - 1 for a in wanted)) + (
        0 if args.no_examples else len(wanted)
    )
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_console(sys.stderr),
        transient=True,
        disable=args.quiet,
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
        )
    text = witness_report.markdown(args.game, cls.title, results, budget)
    if args.report:
        Path(args.report).write_text(text, "utf-8")
    if args.html:
        Path(args.html).write_text(witness_report.html_report(args.game, cls.title, results, budget), "utf-8")
    if args.json:
        print(witness_report.dumps(args.game, results, budget))
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
    from rulecraft import errata_report
    from rulecraft.errata import ErrataBudget, load_variant
    from rulecraft.errata import errata_report as run_errata
    from rulecraft.witness import Budget

    cls = game_class(args.game)
    if args.parameters or not args.variant:
        table = getattr(cls, "parameters", None)
        out = Table(title=f"{cls.title}: rule parameters a variant may change")
        for col in ("parameter", "rule", "printed", "range", "what it is"):
            out.add_column(col, overflow="fold")
        for p in table or ():
            out.add_row(p.name, p.rule, str(p.default), f"{p.low}..{p.high}", p.text)
        _console().print(out)
        if not args.variant:
            return EXIT_OK
    variant = load_variant(args.variant)
    if variant.game != args.game:
        raise RulecraftError(f"{args.variant}: game: the file is for {variant.game!r}, not {args.game!r}")
    budget = ErrataBudget(
        games=args.games,
        players=args.players,
        campaign_games=args.campaign_games,
        max_steps=args.max_steps,
        witness=Budget(seconds=args.seconds, max_examples=200, max_steps=300, seed=args.seed),
        seed=args.seed,
    )
    with Progress(
        TextColumn("[bold]{task.description}"),
        TimeElapsedColumn(),
        console=_console(sys.stderr),
        transient=True,
        disable=args.quiet,
    ) as progress:
        task = progress.add_task("errata", total=None)
        report = run_errata(
            variant, budget, progress=lambda what: progress.update(task, description=f"{variant.name}: {what}")
        )
    text = errata_report.markdown(report)
    if args.report:
        Path(args.report).write_text(text, "utf-8")
    if args.html:
        Path(args.html).write_text(errata_report.html_report(report), "utf-8")
    if args.plot:
        Path(args.plot).write_text(errata_report.plot(report), "utf-8")
    if args.json:
        print(json.dumps(report.to_json(), indent=2, default=str))
    else:
        _console().print(text, markup=False)
    # A rule change may well contradict printed examples (that is what it reports); a broken
    # invariant or a plugin that crashed is a failure.
    return EXIT_FAIL if report.broken_invariants or report.problems else EXIT_OK


def _pack_data(path: str) -> dict[str, Any]:
    """The pack file as JSON data, to send through the protocol (the game already checked it)."""
    from rulecraft import yamlio

    data = yamlio.load(Path(path).read_text("utf-8"))
    if not isinstance(data, dict):
        raise RulecraftError(f"{path}: a component pack is a mapping at the top level")
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
    from rulecraft.conformance.conform import ConformReport, conform, read_replay, replay
    from rulecraft.conformance.report import html_report, junit, markdown, write_atomically

    for name in ("max_examples", "shrink_replays"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            raise RulecraftError(f"--{name.replace('_', '-')}: must be at least 1, got {getattr(args, name)}")
    if args.max_steps is not None and args.max_steps < 1:
        raise RulecraftError(f"--max-steps: must be at least 1, got {args.max_steps}")
    if args.seconds is not None and not (args.seconds > 0 and args.seconds < float("inf")):
        raise RulecraftError(f"--seconds: a positive number of seconds, got {args.seconds}")
    if not (args.timeout > 0 and args.timeout < float("inf")):
        raise RulecraftError(f"--timeout: a positive number of seconds, got {args.timeout}")
    _writable([args.junit, args.report, args.html])
    game = _game(args)
    if args.full and not args.replay:
        raise RulecraftError("--full: only with --replay FILE (the full game of a finding)")
    document = read_replay(args.replay, game.id) if args.replay else None
    pack = _pack_data(args.components) if args.components else None
    console = _console()
    players = [args.players] if args.players else None
    report: ConformReport
    with (
        _sigterm_as_interrupt(),
        Progress(
            TextColumn("[bold]{task.description}"),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=_console(sys.stderr),
            transient=True,
            disable=args.quiet,
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
            )
    # The reports are written whatever happened, interrupted runs included (as pytest does).
    if args.junit:
        junit(report, args.junit)
    if args.report:
        write_atomically(args.report, markdown(report))
    if args.html:
        write_atomically(args.html, html_report(report))
    console.print(markdown(report), markup=False)
    return CONFORM_EXIT[report.status] if report.stopped != "interrupted" else EXIT_INTERRUPTED


# -- parser -----------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulecraft", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    from rulecraft import __version__

    parser.add_argument("--version", action="version", version=f"rulecraft {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("verify", help="scenarios, invariant campaign and solver checks for every game")
    p.add_argument("games_ids", nargs="*", metavar="GAME", help="games to verify (default: all registered)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", type=int, default=40, help="random games in the invariant campaign")
    p.add_argument(
        "--max-steps",
        type=int,
        default=None,
        help="step cap per campaign game (default: the game's own, 3000 for most; the rules have no turn limit)",
    )
    p.add_argument("--solver-checks", type=int, default=40, help="solver/oracle comparisons per query")
    p.add_argument(
        "--policy",
        default="uniform",
        help="how the campaign's random games choose: 'uniform' (default) or a policy every named game offers,"
        " e.g. stm 'purposeful' (games that reach their end)",
    )
    p.add_argument("--show-deadlock", action="store_true", help="print the deadlocked example's board and log")
    p.add_argument(
        "--shrink-seconds", type=float, default=20.0, help="time to shrink each failing game (0: keep it as found)"
    )
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    _add_common(p)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("scenarios", help="run the printed examples of a game")
    p.add_argument("game")
    p.add_argument("files", nargs="*", help="scenario files (default: the bundled ones)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quiet", action="store_true")
    _add_common(p, components=False)
    p.set_defaults(func=cmd_scenarios)

    p = sub.add_parser("play", help="print a readable log of one seeded random game")
    p.add_argument("game")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-steps", type=int, default=None, help="step cap (default: the game's own, 3000 for most)")
    p.add_argument("--chance", action="store_true", help="also list set-up deals and reveals")
    p.add_argument("--json", action="store_true", help="the action log as JSON")
    p.add_argument("--svg", metavar="FILE", help="also write the final board as a picture (SVG)")
    p.add_argument(
        "--policy",
        default="uniform",
        help="how the random player chooses: 'uniform' (default) or a game's own policy, e.g. stm 'purposeful'",
    )
    _add_common(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("rules", help="the rule catalogue with code, scenarios and tests per rule")
    p.add_argument("game")
    p.add_argument("--unexercised", action="store_true", help="only rules nothing exercises")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("readings", help="the ambiguity register of a game")
    p.add_argument("game")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_readings)

    p = sub.add_parser(
        "ambiguities", help="each registered ambiguity: where its readings change play (witnesses), and the evidence"
    )
    p.add_argument("game")
    p.add_argument("--only", action="append", metavar="AMB-ID", help="only this ambiguity (repeatable)")
    p.add_argument(
        "--seconds",
        type=float,
        default=10.0,
        help="safety cap per reading (default 10); the search is bounded by --max-examples games, and a "
        "reading the cap stops says so",
    )
    p.add_argument("--max-examples", type=int, default=200, help="games per reading at most")
    p.add_argument("--max-steps", type=int, default=300, help="steps per game at most")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-search", action="store_true", help="only list the register and the examples' evidence")
    p.add_argument("--no-examples", action="store_true", help="skip replaying the printed examples")
    p.add_argument("--json", action="store_true", help="the whole result as JSON on standard output")
    p.add_argument("--report", metavar="FILE", help="write a Markdown report")
    p.add_argument("--html", metavar="FILE", help="write an HTML report with the board pictures")
    p.add_argument("--quiet", action="store_true", help="no progress display")
    _add_common(p)
    p.set_defaults(func=cmd_ambiguities)

    p = sub.add_parser("errata", help="check a variant or erratum file against the printed rules")
    p.add_argument("game")
    p.add_argument("variant", nargs="?", metavar="VARIANT_FILE", help="a variant file (docs/errata.md)")
    p.add_argument("--parameters", action="store_true", help="list the rule parameters a variant may change")
    p.add_argument("--games", type=int, default=60, help="random games per ruleset for the shift (default 60)")
    p.add_argument("--campaign-games", type=int, default=40, help="random games checking every invariant")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--max-steps", type=int, default=None, help="steps per random game (default: the game's own cap)")
    p.add_argument("--seconds", type=float, default=20.0, help="budget for finding where play changes")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--report", metavar="FILE", help="write a Markdown report")
    p.add_argument("--html", metavar="FILE", help="write an HTML report with the plot and the board")
    p.add_argument("--plot", metavar="FILE", help="write the play-shift plot as SVG")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=cmd_errata)

    p = sub.add_parser("serve", help="run the reference model as a protocol implementation on stdin/stdout")
    p.add_argument("game")
    _add_common(p)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("conform", help="test another implementation against the rules (see docs/protocol.md)")
    p.add_argument("game")
    p.add_argument("--impl", required=True, metavar="COMMAND", help="the command that starts the implementation")
    p.add_argument(
        "--max-examples", type=int, default=50, help="differential games to play, each to its end (default 50)"
    )
    p.add_argument(
        "--max-steps",
        type=int,
        default=None,
        help="step cap of a differential game (default: far above the game's longest; games that reach it are "
        "reported)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="the search's seed: the same seed gives the same games and findings"
    )
    p.add_argument(
        "--seconds",
        type=float,
        default=900.0,
        help="a wall-clock safety cap on the differential phase (default 900); when it bites the verdict is "
        "'incomplete' (exit 5), never 'conformant'",
    )
    p.add_argument(
        "--shrink-replays",
        type=int,
        default=300,
        help="replays a finding's shrinking may take (a count, so every machine shrinks alike; default 300)",
    )
    p.add_argument(
        "--replay",
        metavar="FILE",
        help="replay one finding's game (the JSON document a report prints) instead of searching",
    )
    p.add_argument("--full", action="store_true", help="with --replay: the full game from a new game")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds the implementation may take per request")
    p.add_argument("--players", type=int, default=None, help="only this player count")
    p.add_argument("--no-scenarios", action="store_true", help="skip the printed examples")
    p.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    p.add_argument("--report", metavar="FILE", help="write a Markdown report")
    p.add_argument("--html", metavar="FILE", help="write an HTML report with the board pictures")
    p.add_argument("--quiet", action="store_true")
    _add_common(p)
    p.set_defaults(func=cmd_conform)

    p = sub.add_parser("query", help="answer a rules question (see 'rulecraft query GAME -h')")
    qsub = p.add_subparsers(dest="game", required=True)
    for gid in game_ids():
        gp = qsub.add_parser(gid, help=game_class(gid).title)
        names = gp.add_subparsers(dest="query_name", required=True)
        for name, query in game_class(gid).configured().queries().items():
            qp = names.add_parser(name, help=query.help, description=query.help)
            query.add_arguments(qp)
            qp.add_argument("--json", action="store_true")
            _add_common(qp)
    p.set_defaults(func=cmd_query)
    return parser


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


def main(argv: Sequence[str] | None = None) -> int:
    try:
        parser = build_parser()
        args = _parse(parser, list(sys.argv[1:] if argv is None else argv))
        code: int = args.func(args)
        return code
    except RulecraftError as exc:
        print(f"rulecraft: error: {type(exc).__name__}: {exc}", file=sys.stderr)
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
