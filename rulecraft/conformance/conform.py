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
import re
import time
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft.conformance.client import Implementation, ImplementationFault
from rulecraft.conformance.differential import DEFAULT_SHRINK_REPLAYS, differential
from rulecraft.conformance.findings import ConformReport, Finding
from rulecraft.conformance.lockstep import Lockstep, Mismatch, RunStopped, _restart
from rulecraft.core import AnyGame, RulecraftError, Setup, cite
from rulecraft.coverage import RuleTracer
from rulecraft.registry import make_game
from rulecraft.scenarios.loader import ScenarioFileError, load_scenario, scenario_files
from rulecraft.search import (
    Start,
)
from rulecraft.shard import WHOLE, Shard, lane_games, lane_seed
from rulecraft.tools import tools

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

    from rulecraft.conformance.kept import DifferenceStore

# -- printed examples -------------------------------------------------------------------------------------


def replay_scenarios(
    game: AnyGame,
    impl: Implementation,
    models: tuple[str, ...],
    capabilities: Sequence[str],
    report: ConformReport,
    progress: Callable[[int], None] | None = None,
    only: Container[str] | None = None,
) -> None:
    """Every printed example: its given state via set_state, then its steps on both sides.
    ``only``: the example units (``example:FILE``, :func:`conform_units`) to replay (None: all)."""
    for path in scenario_files(game.id):
        unit = f"example:{path.name}"
        if only is not None and unit not in only:
            continue
        if progress:
            progress(1)
        found = len(report.findings)
        _replay_scenario(game, impl, models, capabilities, report, path)
        report.findings[found:] = [attrs.evolve(f, unit=unit) for f in report.findings[found:]]
        report.units_run.append(unit)


def _replay_scenario(
    game: AnyGame,
    impl: Implementation,
    models: tuple[str, ...],
    capabilities: Sequence[str],
    report: ConformReport,
    path: Path,
) -> None:
    """One printed example (see :func:`replay_scenarios`)."""
    try:
        scenario = load_scenario(path)
    except ScenarioFileError as exc:
        report.skipped.append(str(exc))
        return
    if "set_state" not in capabilities:
        report.skipped.append(f"{scenario.id}: the implementation cannot take a given state (no set_state)")
        return
    report.scenarios_run += 1
    reference = game.__class__.configured(readings=dict(scenario.readings))
    lock = Lockstep(
        reference, impl, models, f"{scenario.id} ({path.name}, {cite(scenario.page)})", protocol=impl.protocol
    )
    try:
        lock.state = tools(reference).scenario_state(scenario.given)
        # The given state, so that a finding from here replays (and its steps are worded, not JSON).
        lock.start_state = reference.state_to_json(lock.state)
        fixture = tools(reference).scenario_fixture(scenario.given)
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


def max_steps_for(game: AnyGame) -> int:
    """The step cap of a differential game: the game's campaign cap, far above its longest game."""
    return max(game.campaign_steps, 1000)


def conform(
    game: AnyGame,
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
    lanes: int = 1,
    shard: Shard = WHOLE,
    database: ExampleDatabase | None = None,
    say: Callable[[str], None] | None = None,
) -> ConformReport:
    """Replay the printed examples, then run differential games (see the module docstring).

    ``database``: where the differential games' findings are kept, and replayed from before anything
    else (default: the one a setting configured; none: nothing is kept, :mod:`rulecraft.conformance.kept`);
    ``say`` receives the one-line reports of the replays (default: stderr).

    ``lanes``: the differential games split into that many independent seeded searches (lane ``j``
    plays the game indexes equal to ``j`` modulo ``lanes``; one lane: the search as it always ran).
    ``shard``: run only this shard's units of :func:`conform_units` (printed examples and lanes);
    the shards 1..N of the same options together run exactly the work of the whole run.

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
    report.lanes = lanes
    all_units = conform_units(game, scenarios=scenarios, lanes=lanes)
    report.units_planned = shard.select(all_units)
    planned = set(report.units_planned)
    kept = _kept(game, command, components, database, say)
    start = report.started
    steps = max_steps if max_steps is not None else max_steps_for(game)
    try:
        with _launch(command, game, timeout) as impl:
            capabilities = _handshake(impl, report)
            if capabilities is None:
                report.seconds = time.monotonic() - start
                return report
            if kept is not None:  # the saved differences first, before any new search
                _replay_kept(game, impl, kept, capabilities, components, report, all_units, shard)
            try:
                if scenarios:
                    replay_scenarios(
                        game,
                        impl,
                        report.models,
                        capabilities,
                        report,
                        (lambda n: progress("printed examples", n)) if progress else None,
                        only=planned,
                    )
            except RunStopped as stopped:
                report.add(stopped.finding)
                report.stopped, report.stopped_detail = "fault", "the implementation could not be restarted"
            if report.stopped is None:
                counts = list(players or range(game.min_players, game.max_players + 1))
                # The safety cap counts from here: a slow printed-example replay cannot eat the differential phase.
                deadline = time.monotonic() + seconds if seconds else None
                for lane in range(lanes):
                    unit = lane_unit(lane, lanes)
                    if unit not in planned or report.stopped is not None:
                        continue
                    # Each lane on its own report: what a lane's search steers by (the rules exercised
                    # so far) is its own, so a lane runs alike alone in a shard and after another lane.
                    part = ConformReport(
                        game.id,
                        command,
                        models=report.models,
                        protocol=report.protocol,
                        seed=seed,
                        rules_total=report.rules_total,
                        started=report.started,
                    )
                    differential(
                        game,
                        impl,
                        report.models,
                        max_examples=lane_games(max_examples, lane, lanes),
                        max_steps=steps,
                        seed=lane_seed(seed, lane, lanes),
                        players=counts,
                        report=part,
                        progress=(lambda n: progress("differential", n)) if progress else None,
                        deadline=deadline,
                        components=components,
                        starts=example_starts(game) if components is None else (),
                        set_state="set_state" in capabilities,
                        shrink_replays=shrink_replays,
                    )
                    part.findings = [attrs.evolve(f, unit=unit) for f in part.findings]
                    if kept is not None:  # kept; one a replay reported already is not reported twice
                        part.findings = [f for f in part.findings if kept.keep(f)]
                    report.absorb(part)
                    if part.stopped is None:
                        report.units_run.append(unit)
    except KeyboardInterrupt:
        report.stopped = "interrupted"
        report.stopped_detail = report.stopped_detail or f"after {report.examples_run} differential games"
    report.seconds = time.monotonic() - start
    return report


def _kept(
    game: AnyGame,
    command: str,
    components: Mapping[str, Any] | None,
    database: ExampleDatabase | None,
    say: Callable[[str], None] | None,
) -> DifferenceStore | None:
    """The run's kept differences: under the verb, the game, the implementation's command, the
    readings and the component pack (None: no database configured, nothing kept)."""
    from rulecraft.conformance.kept import DifferenceStore, configured, digest

    database = database if database is not None else configured()
    if database is None:
        return None
    pack = digest(json.dumps(components, sort_keys=True)) if components is not None else None
    readings = dict(game.ruleset.readings)
    options = {"impl": command, "readings": readings, "components": pack}
    return DifferenceStore(database, "conform", game, "differential", options, say=say, label=f"conform {game.id}")


def _replay_kept(
    game: AnyGame,
    impl: Implementation,
    kept: DifferenceStore,
    capabilities: Sequence[str],
    components: Mapping[str, Any] | None,
    report: ConformReport,
    all_units: Sequence[str],
    shard: Shard,
) -> None:
    """Replay this shard's share of the kept differences on the implementation: those it still shows
    are findings of the run, the others are dropped from the database."""
    from rulecraft.conformance.kept import owned, replay_difference

    share = owned(all_units, report.units_planned, shard.index, shard.count)
    can_set = "set_state" in capabilities
    replayed = kept.replay(
        lambda k: replay_difference(
            game, impl, k, models=report.models, protocol=report.protocol, components=components
        ),
        # (conform keeps no fixture board: an entry with one would change this run's map, and is not replayed)
        mine=lambda k, raw: (k.setup is not None or can_set) and k.fixture is None and share(k, raw),
    )
    for one in replayed:
        report.steps_compared += one.compared
        if one.finding is not None:
            report.add(one.finding)
    report.replayed += len(replayed)
    report.replayed_found += sum(one.finding is not None for one in replayed)
    report.kept_notes += kept.notes


def lane_unit(lane: int, lanes: int) -> str:
    return f"lane:{lane + 1}/{lanes}"


def conform_units(game: AnyGame, *, scenarios: bool = True, lanes: int = 1) -> list[str]:
    """The whole run's units of work, in order: every printed example (``example:FILE``, unless
    ``scenarios`` is off), then the differential lanes (``lane:J/L``).  A shard runs its share."""
    examples = [f"example:{path.name}" for path in scenario_files(game.id)] if scenarios else []
    return examples + [lane_unit(lane, lanes) for lane in range(lanes)]


def _launch(command: str, game: AnyGame, timeout: float) -> Implementation:
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


def example_starts(game: AnyGame) -> list[Start]:
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
            if tools(game).scenario_fixture(scenario.given):
                continue  # a fixture board changes the game's map: not a start for this configuration
            state = tools(game).scenario_state(scenario.given)
        except Exception:  # a state this configuration cannot build is no start
            continue
        out.append(Start(f"{scenario.id} ({cite(scenario.page)})", state=state))
    return out


def iter_findings(report: ConformReport) -> Iterator[Finding]:
    yield from report.findings


# -- replaying a finding ------------------------------------------------------------------------------------------

REPLAY_FORMAT = 1


# A printed example's ID at the start of a finding's ``where`` ("KAS-EX-13 (KAS-EX-13-....yaml, p.13)").
EXAMPLE_ID = re.compile(r"[A-Z]{2,4}-EX-\d+[a-z]?\b")


def example_start(game_id: str, finding: Finding) -> dict[str, Any]:
    """What a finding that starts from a printed example's given state needs beside that state: the
    example's own component fixture (kas's ``given.map``: a board the state's layout names) and the
    readings the example pins (``depends_on``), as ``{"fixture": ..., "readings": ...}`` (either
    left out when the example has none; empty for any other finding)."""
    found = EXAMPLE_ID.match(finding.where)
    if finding.setup or finding.start_state is None or found is None:
        return {}
    path = next((p for p in scenario_files(game_id) if p.stem.startswith(f"{found.group(0)}-")), None)
    if path is None:
        return {}
    try:
        scenario = load_scenario(path)
        fixture = tools(make_game(game_id)).scenario_fixture(scenario.given)
    except (RulecraftError, ScenarioFileError):
        return {}
    out: dict[str, Any] = {}
    if fixture is not None:
        out["fixture"] = fixture
    if scenario.readings:
        out["readings"] = dict(scenario.readings)
    return out


def replay_document(game_id: str, finding: Finding) -> dict[str, Any]:
    """Everything needed to replay a finding's game exactly, as JSON: its start (a set-up, or a given
    state with the printed example's fixture and readings), its steps, and the full way there from a
    new game (or a printed example)."""
    start: dict[str, Any]
    if finding.setup:
        start = {"setup": finding.setup}
    else:
        start = {"state": finding.start_state, **example_start(game_id, finding)}
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
    if "fixture" in start and not isinstance(start["fixture"], dict):
        raise RulecraftError(f"{path}: start.fixture: an object (a printed example's own components) is needed")
    readings = start.get("readings", {})
    if not isinstance(readings, dict) or not all(isinstance(v, str) for v in readings.values()):
        raise RulecraftError(f"{path}: start.readings: an object of ambiguity ID -> reading is needed")
    return data


def replay_game(game: AnyGame, document: Mapping[str, Any]) -> AnyGame:
    """The reference that replays ``document``: ``game``, or for a finding from a printed example the
    game under the example's readings with its own board loaded (each problem one line)."""
    start = document["start"]
    pinned, fixture = start.get("readings"), start.get("fixture")
    try:
        if pinned:  # a printed example's own readings, as the search played it (conform's _replay_scenario)
            game = game.__class__.configured(readings=dict(pinned))
    except RulecraftError as exc:
        raise RulecraftError(f"replay: start.readings: {exc}") from None
    try:
        if fixture is not None:  # a printed example's own board, which its state's layout names
            game.load_fixture(fixture)
    except (RulecraftError, TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
        raise RulecraftError(f"replay: start.fixture: {type(exc).__name__}: {str(exc)[:200]}") from None
    return game


def replay(
    game: AnyGame, command: str, document: Mapping[str, Any], *, timeout: float = 5.0, full: bool = False
) -> ConformReport:
    """Play a replay document's game on both sides, comparing after every step as the search did.
    ``full``: from the origin (a new game) along the full path instead of from the short game's start."""
    report = ConformReport(game.id, command, rules_total=frozenset(r.id for r in game.catalogue))
    report.games_planned = 1
    start = dict(document["start"])
    steps = list(document["steps"])
    pinned, fixture = start.get("readings"), start.get("fixture")
    game = replay_game(game, document)
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
                    reply = impl.set_state(dict(start["state"]), readings=dict(pinned or {}) or None, fixture=fixture)
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


# The names the conformance kit is used by (the pieces live in findings, lockstep and differential).
__all__ = [
    "DEFAULT_SHRINK_REPLAYS",
    "ConformReport",
    "Finding",
    "Lockstep",
    "Mismatch",
    "conform",
    "conform_units",
    "differential",
    "example_starts",
    "iter_findings",
    "max_steps_for",
    "read_replay",
    "replay",
    "replay_document",
    "replay_game",
    "replay_scenarios",
]
