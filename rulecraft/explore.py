"""``rulecraft explore``: a local web page that steps through a game (issue 20, part 2).

A *trace* is a start state and a list of steps (action JSON) played by one game, and, for a conform
finding, an ambiguity witness or an errata divergence, by a second game beside it (the
implementation, the other reading, the variant).  The server replays every step through the games'
own ``action_from_json`` + ``check`` and serves one page and a small JSON API on 127.0.0.1 only:

    GET  /                   the page (explore_page.html; its script and style under /static/)
    GET  /api/trace          what is open: game, kind, labels, the steps with their words and rules
    GET  /api/step/I         both sides at step I: state JSON, picture, text, legal actions with
                             their rule citations, and the state fields that differ
    POST /api/try            {"step": I, "action": {...}}: an illegal action's refusals (rule ID,
                             page, words); a legal one is played, the steps after I dropped
    GET  /api/rules          the rule catalogue; GET /rules is the same as a page, one anchor a rule
    GET  /api/sources        what the page may open instead: a fixed list made when the server starts
                             (a seeded game, each printed example, the source given on the command line)
    POST /api/open           {"source": ID} (a seeded game: and "seed", "players"): open that source

Nothing from a request is run but game actions; bodies are capped; a bad request is a 4xx with one
line naming the field, never a traceback.  The sources' documents: :func:`finding_document`,
:func:`witness_document` and :func:`divergence_document` write them (the HTML reports embed them).
"""

from __future__ import annotations

import glob
import html
import json
import random
import re
import shlex
import threading
import urllib.parse
import webbrowser
from collections.abc import Callable, Iterator, Mapping, Sequence
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import attrs

from rulecraft.core import A, AnyGame, Chance, Game, GameOver, Rejection, RulecraftError, S, Setup
from rulecraft.registry import make_game
from rulecraft.tools import tools

if TYPE_CHECKING:
    from rulecraft.conformance.findings import Finding
    from rulecraft.errata import ErrataReport
    from rulecraft.witness import PairResult

FORMAT_KEY = "rulecraft_explore"
FORMAT_VERSION = 1
LOOPBACK = "127.0.0.1"
MAX_BODY = 64 * 1024  # an action is a few hundred bytes; anything near this is not one
MAX_DOCUMENT = 1 << 24  # a trace document (a game of a few thousand steps) stays far below 16 MiB
MAX_TRACE_STEPS = 20_000  # a document's steps; no game of these rules comes near
CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:"
STATIC = {"explore_page.js": "text/javascript", "explore_page.css": "text/css"}


class ExploreError(RulecraftError):
    """A source that cannot be opened (file, field, reason) or a request that cannot be answered."""


# -- traces --------------------------------------------------------------------------------------------------


@attrs.define
class Side:
    """One game along the steps: its state after each step (None once it refused one)."""

    label: str
    game: AnyGame
    states: list[Any]
    refused: dict[int, Rejection] = attrs.Factory(dict)  # step number -> why this side refused it

    def state(self, i: int) -> Any:
        return self.states[i] if i < len(self.states) else None


@attrs.define
class Remote:
    """An implementation's own answers along a finding's steps (``--impl``): its state JSON, whose
    decision it is and its legal actions after each step, and the reply that stopped it, if one did.
    It is asked once, when the explorer opens; steps played in the page are the reference's alone."""

    label: str
    states: list[Any] = attrs.Factory(list)
    movers: list[Any] = attrs.Factory(list)
    legal: list[list[Any]] = attrs.Factory(list)
    stopped: dict[int, str] = attrs.Factory(dict)  # step number -> why the implementation stopped there


@attrs.define
class Trace:
    """What the explorer shows: the steps, one side or two, and what the source said differs."""

    game_id: str
    kind: str  # seed | scenario | state | finding | witness | divergence
    title: str
    steps: list[dict[str, Any]]
    texts: list[str]
    left: Side
    right: Side | None = None
    # A finding's differing top-level state fields at its last step (the implementation's values),
    # and every difference the source reported (field, left, right), shown as a table.
    patch: dict[str, Any] = attrs.Factory(dict)
    reported: list[tuple[str, Any, Any]] = attrs.Factory(list)
    rules: list[str] = attrs.Factory(list)
    notes: list[str] = attrs.Factory(list)
    # Each step in the right side's own words (a variant's game describes its own costs), None where
    # that side did not play it.
    right_texts: list[str | None] = attrs.Factory(list)
    remote: Remote | None = None

    def __len__(self) -> int:
        return len(self.steps)

    def play(self, data: Mapping[str, Any]) -> Rejection | None:
        """Append one step (action JSON) on every side; the left side's refusal, or None when played."""
        number = len(self.steps) + 1
        state = self.left.states[-1]
        action = self.left.game.action_from_json(data)
        rejection = self.left.game.check(state, action)
        if rejection is not None:
            return rejection
        self.texts.append(self.left.game.describe(state, action))
        self.left.states.append(self.left.game.transition(state, action))
        self.steps.append(dict(data))
        right = self.right
        if right is not None:
            self.right_texts.append(None)
        if right is not None and len(right.states) == number:
            there = right.states[-1]
            theirs = right.game.action_from_json(data)
            refusal = right.game.check(there, theirs)
            if refusal is None:
                self.right_texts[-1] = right.game.describe(there, theirs)
                right.states.append(right.game.transition(there, theirs))
            else:
                right.refused[number] = refusal
        return None

    def cut(self, i: int) -> None:
        """Drop the steps after step ``i`` (a new action played there starts a new branch)."""
        del self.steps[i:], self.texts[i:], self.right_texts[i:], self.left.states[i + 1 :]
        if self.right is not None:
            del self.right.states[i + 1 :]
            self.right.refused = {k: v for k, v in self.right.refused.items() if k <= i}
        if self.remote is not None:
            remote = self.remote
            del remote.states[i + 1 :], remote.movers[i + 1 :], remote.legal[i + 1 :]
            remote.stopped = {k: v for k, v in remote.stopped.items() if k <= i}
        self.patch = {}


def _new_trace(
    game_id: str,
    kind: str,
    title: str,
    left: tuple[str, AnyGame, Any],
    steps: Sequence[Mapping[str, Any]],
    right: tuple[str, AnyGame, Any] | None = None,
) -> Trace:
    """A trace from start states and steps; a step the left side refuses is an error naming it."""
    label, game, state = left
    trace = Trace(game_id, kind, title, [], [], Side(label, game, [state]))
    if right is not None:
        trace.right = Side(right[0], right[1], [right[2]])
    if len(steps) > MAX_TRACE_STEPS:
        raise ExploreError(f"steps: {len(steps)} steps; the explorer opens at most {MAX_TRACE_STEPS}")
    for i, data in enumerate(steps):
        if not isinstance(data, Mapping):
            raise ExploreError(f"steps[{i}]: an action object is needed, got {_short(data)}")
        try:
            rejection = trace.play(data)
        except RulecraftError as exc:
            raise ExploreError(f"steps[{i}]: {_short(str(exc), 200)}") from None
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            raise ExploreError(f"steps[{i}]: not an action of {game_id}: {type(exc).__name__}: {_short(exc)}") from None
        if rejection is not None:
            raise ExploreError(f"steps[{i}]: {label} refuses it: {rejection}")
    return trace


def seeded_trace(
    game: AnyGame, seed: int, players: int, max_steps: int | None = None, policy: str = "uniform"
) -> Trace:
    """A seeded random game (chance included), as ``rulecraft play`` plays it, up to a step cap."""
    rng = random.Random(seed)
    state = game.new_game(players)
    cap = max_steps or game.campaign_steps
    steps = []
    for _ in range(cap):
        action = game.random_action(state, rng, policy)
        if action is None:
            break
        steps.append(game.action_to_json(action))
        state = game.transition(state, action)
    title = f"{game.title}: seed {seed}, {players} players"
    return _new_trace(game.id, "seed", title, ("rules", game, game.new_game(players)), steps)


def scenario_trace(game_id: str, which: str, readings: Mapping[str, str] | None = None) -> Trace:
    """A printed example: its given state and its played steps (``do`` and ``chance``; a ``reject``
    step is a note, since it changes nothing)."""
    from rulecraft.scenarios.loader import load_scenario, scenario_files

    path = Path(which)
    if not path.is_file():
        found = [p for p in scenario_files(game_id) if p.stem == which or p.stem.startswith(which + "-")]
        if not found:
            raise ExploreError(f"--scenario {which}: no such file, and no printed example of {game_id} with this ID")
        path = found[0]
    scenario = load_scenario(path, game=game_id)
    chosen = dict(readings or {}) | dict(scenario.readings)
    components = Path(scenario.path).parent / scenario.components if scenario.components else None
    game = make_game(game_id, readings=chosen, components=components)
    state = tools(game).scenario_state(scenario.given)
    steps: list[Mapping[str, Any]] = []
    notes = []
    for i, step in enumerate(scenario.steps):
        if "reject" in step:
            notes.append(f"steps[{i}]: the example shows {json.dumps(step['reject'])} refused ({step.get('rule', '')})")
        else:
            steps.append(step["do"] if "do" in step else step["chance"])
    from rulecraft.core import cite

    title = f"{scenario.id} ({cite(scenario.page)}): {scenario.title}"
    trace = _new_trace(game_id, "scenario", title, ("rules", game, state), steps)
    if scenario.english:
        notes.append(f"the English edition settles a point: {scenario.english_citation()}")
    trace.rules, trace.notes = list(scenario.rules), notes
    return trace


def state_trace(game: AnyGame, path: str) -> Trace:
    """A saved state file (``rulecraft play --save-state``): no steps yet; try actions from it."""
    from rulecraft.statefile import load_state

    state = load_state(path, game)
    return _new_trace(game.id, "state", f"{game.title}: {path}", ("rules", game, state), [])


# -- documents of findings, witnesses and divergences -------------------------------------------------------------


def _start_json(finding: Finding, game_id: str) -> dict[str, Any]:
    if finding.setup:
        return {"setup": finding.setup}
    return _with_fixture({"state": finding.start_state}, game_id, finding)


def example_fixture(game_id: str, finding: Finding) -> dict[str, Any] | None:
    """The component fixture (a printed example's own small board: kas's ``given.map``) that a finding
    starting from that example's given state needs beside the state, or None.  Without it the state
    (layout 'fixture') cannot be read back, and the report's link into the explorer was refused."""
    from rulecraft.conformance.conform import example_start

    fixture: dict[str, Any] | None = example_start(game_id, finding).get("fixture")
    return fixture


def _with_fixture(start: dict[str, Any], game_id: str, finding: Finding) -> dict[str, Any]:
    fixture = example_fixture(game_id, finding)
    return start if fixture is None else {**start, "fixture": fixture}


def _fields_json(finding: Finding) -> list[list[Any]]:
    return [[str(k), a, b] for k, a, b in finding.fields]


def finding_document(game_id: str, finding: Finding) -> dict[str, Any]:
    """A conform finding for ``--finding``: its replay document (``conform --replay`` reads it too) with
    the differing fields (field, reference, implementation), which the replay document leaves out."""
    from rulecraft.conformance.conform import replay_document

    document = replay_document(game_id, finding)  # its start carries a printed example's fixture and readings
    return {**document, "differences": _fields_json(finding)}


def witness_document(
    game_id: str, ambiguity: str, pair: PairResult, base: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """An ambiguity witness for ``--witness``: both readings, the start (a set-up or the printed
    example's given state, which ``ambiguities --json`` does not carry) and the steps."""
    assert pair.finding is not None
    f = pair.finding
    return {
        FORMAT_KEY: FORMAT_VERSION,
        "kind": "witness",
        "game": game_id,
        "title": f"{ambiguity}: {pair.default} against {pair.reading}: {f.title}",
        "ambiguity": ambiguity,
        "readings": [pair.default, pair.reading],
        "base": dict(base or {}),
        "start": _start_json(f, game_id),
        "steps": list(f.steps),
        "differences": _fields_json(f),
        "rules": list(f.rules),
    }


def divergence_document(report: ErrataReport) -> dict[str, Any] | None:
    """Where an erratum changes play, for ``--divergence``: the variant file (read again to build the
    variant's game), the start and the steps; None when the report found no such place."""
    w = report.witness
    if w is None or w.finding is None:
        return None
    f = w.finding
    return {
        FORMAT_KEY: FORMAT_VERSION,
        "kind": "divergence",
        "game": report.variant.game,
        "title": f"{report.variant.title}: {f.title}",
        "variant": str(Path(report.variant.path).resolve()),
        "start": _start_json(f, report.variant.game),
        "steps": list(f.steps),
        "differences": _fields_json(f),
        "rules": list(f.rules),
    }


def open_command(game_id: str, option: str, file: str) -> str:
    """The command a report prints to open one of its findings in the explorer."""
    return f"rulecraft explore {game_id} --{option} {file}"


STEP_PICTURES = 6  # a report draws the board after at most this many steps of a finding (the last ones)


def step_pictures(game: AnyGame, finding: Finding, most: int = STEP_PICTURES) -> tuple[list[tuple[int, str, str]], int]:
    """The board after each of a finding's last ``most`` steps, replayed by ``game`` from the finding's
    start: (step number, the step's words, the SVG), and how many steps there are.  A step the game
    refuses, or a start it cannot build, ends the pictures there (a picture is a help, never a cost)."""
    from rulecraft.statefile import state_from_data

    steps = list(finding.steps)
    out: list[tuple[int, str, str]] = []
    try:
        if finding.setup:
            state = game.start(Setup.from_json(finding.setup))
        elif finding.start_state is not None:
            fixture = example_fixture(game.id, finding)
            if fixture is not None:  # a printed example's own board: a map the game adds, by its name
                game.load_fixture(fixture)
            state = state_from_data(game, finding.start_state, field="start")
        else:
            return out, len(steps)
        for number, data in enumerate(steps, start=1):
            action = game.action_from_json(data)
            if game.check(state, action) is not None:
                break
            words = game.describe(state, action)
            state = game.transition(state, action)
            if number > len(steps) - most:
                out.append((number, words, game.picture(state) or ""))
    except (RulecraftError, ValueError, KeyError, TypeError):
        pass
    return [row for row in out if row[2]], len(steps)


def step_pictures_html(game: AnyGame, finding: Finding, label: str = "") -> str:
    """The board after each step (the last few), folded: a report's steps each with their picture."""
    rows, total = step_pictures(game, finding)
    if not rows:
        return ""
    which = f"the last {len(rows)} of {total} steps" if len(rows) < total else f"all {total} steps"
    side = f" ({html.escape(label)})" if label else ""
    figures = "".join(
        "<figure class='step'>"
        f"<figcaption>after step {number}: {html.escape(words)}</figcaption><div class='board'>{svg}</div></figure>"
        for number, words, svg in rows
    )
    return f"<details class='steps'><summary>the board after each step{side}: {which}</summary>{figures}</details>"


def report_link(
    game_id: str, option: str, file: str, document: Mapping[str, Any], links: ReportLinks | None = None
) -> str:
    """The HTML a report adds under a finding: how to open it in the explorer (a local process, not a
    hosted page), and the document to save for it; with ``links`` (a report written to a file), the
    document written beside the report and a link that opens it in a running explorer."""
    if links is not None:
        return links.link(game_id, option, file, document)
    text = _document_text(document)
    return (
        "<p class='explore'>Step through it in the explorer (a local page): save the document below as "
        f"<code>{html.escape(file)}</code>, then run <code>{html.escape(open_command(game_id, option, file))}</code>."
        f"</p><details class='explore'><summary>the document ({html.escape(file)})</summary>"
        f"<pre>{html.escape(text)}</pre></details>"
    )


# -- a report's links into the explorer (``rulecraft explore GAME --reports DIR``) -------------------------------

REPORTS_PORT = 8537  # the explorer's port with --reports (--port still wins): what the reports' links point at
DOCUMENT_SUFFIX = ".explore.json"  # a document a report wrote beside itself; --reports lists these only
_REPORT_DOCUMENT = re.compile(r"^(finding-\d+|witness-.+|divergence)\.json$")


@attrs.define
class ReportLinks:
    """How a report written to a file links its findings, witnesses and divergences into the explorer:
    each document is written beside the report (``STEM.finding-1.explore.json``), and the report shows
    the command that opens it (it works with no explorer running) and a link to
    ``http://127.0.0.1:REPORTS_PORT/?open=report:NAME`` (it works once ``rulecraft explore GAME --reports
    FOLDER`` runs, which the report's top names)."""

    folder: Path
    stem: str
    port: int = REPORTS_PORT
    documents: dict[str, dict[str, Any]] = attrs.Factory(dict)

    @classmethod
    def beside(cls, report: str | Path) -> ReportLinks:
        path = Path(report)
        return cls(path.resolve().parent, path.stem)

    def name(self, file: str) -> str:
        """The file a document is written to: ``finding-1.json`` -> ``STEM.finding-1.explore.json``."""
        return f"{self.stem}.{file.removesuffix('.json')}{DOCUMENT_SUFFIX}"

    def link(self, game_id: str, option: str, file: str, document: Mapping[str, Any]) -> str:
        """The HTML under a finding: a link into the explorer, the command, and the document (folded)."""
        name = self.name(file)
        self.documents[name] = dict(document)
        url = explore_url(report_source_id(name), self.port)
        return (
            f"<p class='explore'><a class='explore-link' href='{html.escape(url, quote=True)}'>open it in the"
            " explorer</a> (with the explorer started as the top of this report says), or, with no explorer"
            f" running, in this report's folder: <code>{html.escape(open_command(game_id, option, name))}</code>"
            f"</p><details class='explore'><summary>the document ({html.escape(name)})</summary>"
            f"<pre>{html.escape(_document_text(document))}</pre></details>"
        )

    def head(self, game_id: str) -> str:
        """The line at a report's top: the one command that starts the explorer its links point at."""
        command = f"rulecraft explore {game_id} --reports {shlex.quote(str(self.folder))}"
        return (
            "<p class='explore-start'>The links \u201copen it in the explorer\u201d below need the explorer"
            f" running on this machine: <code>{html.escape(command)}</code> (it serves 127.0.0.1:{self.port}"
            " and lists the documents this report wrote beside itself).</p>"
        )

    def write(self) -> None:
        """Write the documents, and remove the ones this report wrote last time that it no longer has."""
        from rulecraft.files import write_atomically

        for old in self.folder.glob(f"{glob.escape(self.stem)}.*{DOCUMENT_SUFFIX}"):
            rest = old.name[len(self.stem) + 1 : -len(DOCUMENT_SUFFIX)] + ".json"
            if _REPORT_DOCUMENT.match(rest) and old.name not in self.documents:
                old.unlink(missing_ok=True)
        for name, document in self.documents.items():
            write_atomically(self.folder / name, _document_text(document) + "\n")


def _document_text(document: Mapping[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, indent=1, default=str)


def report_source_id(file_name: str) -> str:
    """A report document's source ID: ``report:`` and its file name without ``.explore.json``."""
    return "report:" + file_name.removesuffix(DOCUMENT_SUFFIX)


def explore_url(source_id: str, port: int = REPORTS_PORT) -> str:
    return f"http://{LOOPBACK}:{port}/?open={urllib.parse.quote(source_id, safe=':')}"


def report_page(path: str | Path, build: Callable[[ReportLinks], str], port: int = REPORTS_PORT) -> str:
    """An HTML report to be written to ``path``, built with links into the explorer (on ``port``); the
    documents its links open are written beside ``path`` now, the page is the caller's to write."""
    links = ReportLinks.beside(path)
    links.port = port
    page = build(links)
    links.write()
    return page


def _read_document(path: str) -> dict[str, Any]:
    from rulecraft import yamlio

    try:
        text = yamlio.read_text_file(path, limit=MAX_DOCUMENT)
    except yamlio.DataFileError as exc:
        raise ExploreError(f"{path}: file: {exc.message}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ExploreError(f"{path}: file: not JSON: {_short(exc)}") from None
    if not isinstance(data, dict):
        raise ExploreError(f"{path}: (top level): a JSON object is needed")
    return data


def _start(game: AnyGame, start: Any, where: str) -> Any:
    from rulecraft.statefile import state_from_data

    if not isinstance(start, Mapping):
        raise ExploreError(f"{where}.start: an object with 'setup' or 'state' is needed")
    try:
        if isinstance(start.get("setup"), Mapping):
            return game.start(Setup.from_json(start["setup"]))
        if isinstance(start.get("state"), Mapping):
            if isinstance(start.get("fixture"), Mapping):  # a printed example's own board (kas's map)
                try:
                    game.load_fixture(start["fixture"])
                except (TypeError, ValueError, KeyError, AttributeError) as exc:
                    why = _short(f"{type(exc).__name__}: {exc}", 200)
                    raise ExploreError(f"{where}.start.fixture: {why}") from None
            return state_from_data(game, start["state"], field=f"{where}.start.state")
    except RulecraftError as exc:
        raise ExploreError(f"{where}.start: {_short(str(exc), 200)}") from None
    raise ExploreError(f"{where}.start: an object with a 'setup' or a 'state' object is needed")


_REFUSAL = re.compile(r"([A-Z]{2,4}-[A-Z]{1,4}-\d{1,4}[a-z]?)(?: \(p\.([^)]*)\))? — (.*)", re.S)


def setup_refusal(game: AnyGame, start: Any) -> Rejection | None:
    """Why ``game`` refuses the set-up of ``start`` (its rule, page and words), or None: it takes it, or
    ``start`` is not a set-up (a given state is read by :func:`_start`, which names its errors)."""
    if not (isinstance(start, Mapping) and isinstance(start.get("setup"), Mapping)):
        return None
    try:
        game.start(Setup.from_json(start["setup"]))
    except RulecraftError as exc:
        found = _REFUSAL.fullmatch(str(exc))
        if found is None:
            return Rejection("set-up", _short(str(exc), 200))
        return Rejection(found.group(1), _short(found.group(3), 200), found.group(2))
    return None


def _differences(data: Mapping[str, Any], where: str) -> list[tuple[str, Any, Any]]:
    rows = data.get("differences", [])
    if not isinstance(rows, list) or not all(isinstance(r, list) and len(r) == 3 for r in rows):
        raise ExploreError(f"{where}.differences: a list of [field, one side, other side] is needed")
    return [(str(k), a, b) for k, a, b in rows]


def _steps(data: Mapping[str, Any], where: str) -> list[Mapping[str, Any]]:
    steps = data.get("steps")
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        raise ExploreError(f"{where}: steps: a list of action objects is needed")
    return steps


def _same_game(data: Mapping[str, Any], game_id: str, where: str) -> None:
    if data.get("game") != game_id:
        raise ExploreError(f"{where}: game: this is about {_short(repr(data.get('game')), 20)}, not {game_id!r}")


def finding_trace(
    game_id: str,
    path: str,
    readings: Mapping[str, str] | None = None,
    *,
    impl: str | None = None,
    timeout: float = 5.0,
) -> Trace:
    """A conform finding (a replay document, as ``conform`` reports print it): the reference along its
    steps; beside it the implementation ``impl`` (a command, as ``conform --impl`` takes it) asked at
    every step, or without one the reference again with, at the last step, the values the finding
    reports for the fields that differ."""
    data = _read_document(path)
    if "rulecraft_replay" not in data:
        raise ExploreError(f"{path}: rulecraft_replay: a conform replay document (a report's finding) is needed")
    _same_game(data, game_id, path)
    start = data.get("start")
    pinned = start.get("readings") if isinstance(start, Mapping) else None
    if pinned is not None and not (
        isinstance(pinned, Mapping) and all(isinstance(k, str) and isinstance(v, str) for k, v in pinned.items())
    ):
        raise ExploreError(f"{path}.start.readings: an object of ambiguity ID -> reading is needed")
    try:  # a printed example's own readings, as conform played it
        game = make_game(game_id, readings={**(readings or {}), **(pinned or {})})
    except RulecraftError as exc:
        raise ExploreError(f"{path}.start.readings: {_short(str(exc), 200)}") from None
    steps = _steps(data, path)
    state = _start(game, data.get("start"), path)
    reported = _differences(data, path)
    left = ("reference", game, state)
    title = f"{data.get('kind', 'finding')}: {_short(data.get('title', ''), 300)}"
    trace = _new_trace(game_id, "finding", title, left, steps, right=("implementation", game, state))
    trace.reported = reported
    keys = set(game.state_to_json(trace.left.states[-1]))
    trace.patch = {k: b for k, _, b in reported if k in keys}
    trace.rules = [str(r) for r in data.get("rules", []) if isinstance(r, str)]
    if impl is not None:
        trace.right, trace.right_texts, trace.patch = None, [], {}
        trace.remote = ask_implementation(impl, game, dict(data["start"]), [dict(s) for s in steps], timeout)
    elif not reported:
        trace.notes.append("the document carries no differing fields: the implementation side shows the reference")
    return trace


def ask_implementation(
    command: str, game: AnyGame, start: dict[str, Any], steps: list[dict[str, Any]], timeout: float
) -> Remote:
    """Play ``steps`` on the implementation started by ``command`` (the conformance protocol), asking
    its state and legal actions after each; a refusal or a fault stops it there, said in one line."""
    from rulecraft.conformance.client import Implementation, ImplementationFault

    remote = Remote("implementation")
    implementation = Implementation(command, game=game.id, timeout=timeout)
    try:
        implementation.start()
    except ImplementationFault as fault:
        raise ExploreError(f"--impl {command!r}: {fault.message}") from None
    number = 0
    try:
        with implementation:
            implementation.hello()
            if isinstance(start.get("setup"), dict):
                reply = implementation.new_game(start["setup"])
            else:
                fixture = start.get("fixture")  # a printed example's own board and readings, as conform sent them
                pinned = start.get("readings")
                reply = implementation.set_state(
                    start["state"],
                    readings=dict(pinned) if isinstance(pinned, dict) and pinned else None,
                    fixture=fixture if isinstance(fixture, dict) else None,
                )
            if not reply.get("ok"):
                remote.stopped[0] = f"the start was refused: {_short(reply.get('error', reply), 200)}"
                return remote
            for number in range(len(steps) + 1):
                state = implementation.state()
                legal = implementation.legal_actions()
                remote.states.append(state.get("state"))
                remote.movers.append(state.get("to_move"))
                remote.legal.append(list(legal.get("actions") or []))
                if number == len(steps):
                    break
                reply = implementation.apply(steps[number])
                if not reply.get("ok"):
                    why = reply.get("rejected") or reply.get("error") or reply
                    remote.stopped[number + 1] = f"it refused the step: {_short(json.dumps(why), 200)}"
                    break
    except ImplementationFault as fault:
        remote.stopped[number + 1] = f"{fault.kind}: {_short(fault.message, 200)}"
    return remote


def _witness_from_ambiguities(data: Mapping[str, Any], path: str, pick: str | None) -> dict[str, Any]:
    """The ``ambiguities --json`` document's first witness (or the one ``pick`` names: AMB-ID or
    AMB-ID=READING) as a witness document."""
    for amb in data.get("ambiguities") or []:
        if not isinstance(amb, dict):
            continue
        for pair in amb.get("pairs") or []:
            if not isinstance(pair, dict) or not isinstance(pair.get("witness"), dict):
                continue
            name = f"{amb.get('id')}={pair.get('reading')}"
            if pick and pick not in (amb.get("id"), name):
                continue
            w = pair["witness"]
            start = _json_start(w, f"{path}: {name}")
            fields = [[r.get("field"), r.get("default"), r.get("reading")] for r in w.get("fields", [])]
            return {
                "game": data.get("game"),
                "title": f"{amb.get('id')}: {pair.get('default')} against {pair.get('reading')}: {w.get('difference')}",
                "ambiguity": amb.get("id"),
                "readings": [pair.get("default"), pair.get("reading")],
                "start": start,
                "steps": w.get("steps"),
                "differences": fields,
                "rules": w.get("rules", []),
            }
    raise ExploreError(f"{path}: ambiguities: no witness{f' for {pick}' if pick else ''} in this document")


def _json_start(witness: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A ``--json`` witness's start: its set-up, or the printed example's given state it starts from
    (``start_state``, in the JSON outputs after rulecraft 0.8.0; older documents lack it)."""
    if isinstance(witness.get("setup"), dict):
        return {"setup": witness["setup"]}
    if isinstance(witness.get("start_state"), dict):
        return {"state": witness["start_state"]}
    raise ExploreError(
        f"{where}: start_state: this witness starts from a printed example's state, which this JSON document does "
        "not record (written by an older rulecraft); open it with the document in the HTML report"
    )


def witness_trace(game_id: str, path: str, pick: str | None = None) -> Trace:
    """An ambiguity witness: the game under one reading beside the game under the other."""
    data = _read_document(path)
    if data.get("schema") == "ambiguities/1" or "ambiguities" in data:
        _same_game(data, game_id, path)
        data = _witness_from_ambiguities(data, path, pick)
    elif data.get(FORMAT_KEY) != FORMAT_VERSION or data.get("kind") != "witness":
        raise ExploreError(f"{path}: {FORMAT_KEY}: a witness document (or 'ambiguities --json' output) is needed")
    _same_game(data, game_id, path)
    amb, readings = data.get("ambiguity"), data.get("readings")
    if not isinstance(amb, str) or not (isinstance(readings, list) and len(readings) == 2):
        raise ExploreError(f"{path}: readings: the ambiguity ID and its two readings are needed")
    base = data.get("base") or {}
    if not isinstance(base, dict):
        raise ExploreError(f"{path}: base: an object of ambiguity IDs to readings is needed")
    try:
        one = make_game(game_id, readings={**base, amb: str(readings[0])})
        other = make_game(game_id, readings={**base, amb: str(readings[1])})
    except RulecraftError as exc:
        raise ExploreError(f"{path}: readings: {_short(str(exc), 200)}") from None
    steps = _steps(data, path)
    title = _short(data.get("title", amb), 300)
    refusals = [setup_refusal(game, data.get("start")) for game in (one, other)]
    if not steps and (refusals[0] is None) != (refusals[1] is None):
        # A witness that one reading refuses the set-up (AIR-AMB-28: a game of 1 player): the reading that
        # plays it on the left, the refusal with its rule on the right (the report links here too).
        keeps = 0 if refusals[0] is None else 1
        games, labels = (one, other), [f"reading {readings[0]}", f"reading {readings[1]}"]
        start = _start(games[keeps], data.get("start"), path)
        trace = _new_trace(game_id, "witness", title, (labels[keeps], games[keeps], start), [])
        refusal = refusals[1 - keeps]
        assert refusal is not None
        trace.right = Side(labels[1 - keeps], games[1 - keeps], [], refused={0: refusal})
        trace.notes.append(f"{labels[1 - keeps]} refuses this set-up ({refusal}); {labels[keeps]} plays it")
        trace.reported = _differences(data, path)
        trace.rules = [str(r) for r in data.get("rules", []) if isinstance(r, str)]
        return trace
    left = (f"reading {readings[0]}", one, _start(one, data.get("start"), path))
    right = (f"reading {readings[1]}", other, _start(other, data.get("start"), path))
    trace = _new_trace(game_id, "witness", title, left, steps, right=right)
    trace.reported = _differences(data, path)
    trace.rules = [str(r) for r in data.get("rules", []) if isinstance(r, str)]
    return trace


def divergence_trace(game_id: str, path: str, *, allow_plugin_code: bool = False) -> Trace:
    """Where an erratum changes play: the printed rules beside the variant (its file read again)."""
    from rulecraft.errata import load_variant

    data = _read_document(path)
    if data.get("schema") == "errata/1" or "play_changes" in data:
        _same_game(data, game_id, path)
        w = (data.get("play_changes") or {}).get("witness")
        if not isinstance(w, dict):
            raise ExploreError(f"{path}: play_changes: this errata run found no place where play changes")
        start = _json_start(w, f"{path}: play_changes")
        fields = [[r.get("field"), r.get("default"), r.get("reading")] for r in w.get("fields", [])]
        data = {
            "game": data.get("game"),
            "title": f"{data.get('title')}: {w.get('difference')}",
            "variant": data.get("file"),
            "start": start,
            "steps": w.get("steps"),
            "differences": fields,
            "rules": w.get("rules", []),
        }
    elif data.get(FORMAT_KEY) != FORMAT_VERSION or data.get("kind") != "divergence":
        raise ExploreError(f"{path}: {FORMAT_KEY}: a divergence document (or 'errata --json' output) is needed")
    _same_game(data, game_id, path)
    file = data.get("variant")
    if not isinstance(file, str) or not file:
        raise ExploreError(f"{path}: variant: the variant file's path is needed")
    where = Path(file)
    if not where.is_absolute() and not where.is_file():
        where = Path(path).parent / file  # a path written relative to the document's folder
    variant = load_variant(where, allow_plugin_code=allow_plugin_code)
    if variant.game != game_id:
        raise ExploreError(f"{path}: variant: {file} is a variant of {variant.game!r}, not {game_id!r}")
    printed, changed = make_game(game_id), variant.configure()
    steps = _steps(data, path)
    left = ("printed rules", printed, _start(printed, data.get("start"), path))
    right = ("variant", changed, _start(changed, data.get("start"), path))
    trace = _new_trace(game_id, "divergence", _short(data.get("title", ""), 300), left, steps, right=right)
    trace.reported = _differences(data, path)
    trace.rules = [str(r) for r in data.get("rules", []) if isinstance(r, str)]
    return trace


# -- the sources the page may open ---------------------------------------------------------------------------------


@attrs.frozen
class Source:
    """One thing the page may open: an ID from a fixed list made when the server starts (never a path
    from a request), what it is, and how to open it (a fresh trace each time)."""

    id: str
    kind: str  # seed | scenario | given | report
    label: str
    opener: Callable[[Mapping[str, Any]], Trace] = attrs.field(eq=False, repr=False)
    params: dict[str, Any] = attrs.Factory(dict)  # a seeded game's numbers: their ranges and defaults

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "label": self.label, "params": self.params}


def _whole(body: Mapping[str, Any], name: str, low: int, high: int, default: int) -> int:
    value = body.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"{name}: a whole number from {low} to {high} is needed, got {_short(value)}")
    return value


MAX_SEED = 2**63 - 1


def sources_for(
    game_id: str,
    given: tuple[str, Callable[[], Trace]] | None = None,
    readings: Mapping[str, str] | None = None,
    reports: Sequence[Source] = (),
) -> list[Source]:
    """What the page may open for ``game_id``: the source given on the command line (``given``: its
    label and how to open it again), the documents of ``--reports`` (``reports``), a seeded random game
    (the page chooses seed and players) and each printed example by its file's name."""
    from rulecraft.scenarios.loader import scenario_files

    chosen = dict(readings or {})
    out: list[Source] = []
    if given is not None:
        label, again = given
        out.append(Source("given", "given", label, lambda body: again()))
    out.extend(reports)  # the documents of --reports FOLDER, by their file names
    game = make_game(game_id, readings=chosen)
    low, high = game.min_players, game.max_players
    players = min(low + 1, high)

    def seeded(body: Mapping[str, Any]) -> Trace:
        seed = _whole(body, "seed", 0, MAX_SEED, 0)
        count = _whole(body, "players", low, high, players)
        return seeded_trace(make_game(game_id, readings=chosen), seed, count)

    params = {
        "seed": {"min": 0, "max": MAX_SEED, "default": 0},
        "players": {"min": low, "max": high, "default": players},
    }
    out.append(Source("seed", "seed", f"a seeded random game ({low}-{high} players)", seeded, params))

    def example(path: Path) -> Callable[[Mapping[str, Any]], Trace]:
        return lambda body: scenario_trace(game_id, str(path), chosen)

    for path in scenario_files(game_id):
        out.append(Source(f"scenario:{path.stem}", "scenario", f"printed example {path.stem}", example(path)))
    return out


def document_trace(
    game_id: str,
    path: str,
    readings: Mapping[str, str] | None = None,
    *,
    allow_plugin_code: bool = False,
) -> Trace:
    """A document a report wrote (a finding, a witness or a divergence), opened as its option opens it."""
    data = _read_document(path)
    if "rulecraft_replay" in data:
        return finding_trace(game_id, path, readings)
    if data.get(FORMAT_KEY) == FORMAT_VERSION and data.get("kind") == "witness":
        return witness_trace(game_id, path)
    if data.get(FORMAT_KEY) == FORMAT_VERSION and data.get("kind") == "divergence":
        return divergence_trace(game_id, path, allow_plugin_code=allow_plugin_code)
    raise ExploreError(f"{path}: kind: a report's finding, witness or divergence document is needed")


def report_sources(
    game_id: str,
    folder: str | Path,
    readings: Mapping[str, str] | None = None,
    *,
    allow_plugin_code: bool = False,
) -> tuple[list[Source], list[str]]:
    """``--reports FOLDER``: the documents the reports in ``folder`` wrote (``*.explore.json``), each a
    source ``report:NAME`` once it opens as its option would open it; and one line per document left
    out (malformed, or about another game).  The list is made here, once: the page names an ID on it."""
    where = Path(folder)
    if not where.is_dir():
        raise ExploreError(f"--reports {folder}: no such folder")
    out: list[Source] = []
    left_out: list[str] = []
    for path in sorted(where.glob(f"*{DOCUMENT_SUFFIX}")):
        if not path.is_file():
            continue
        try:
            trace = document_trace(game_id, str(path), readings, allow_plugin_code=allow_plugin_code)
        except RulecraftError as exc:
            text = str(exc)  # its errors name the file first: by its name here, the folder is known
            said = path.name + text[len(str(path)) :] if text.startswith(str(path)) else f"{path.name}: {text}"
            left_out.append(f"left out {_short(said, 300)}")
            continue
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
            left_out.append(f"left out {path.name}: {type(exc).__name__}: {_short(exc, 200)}")
            continue

        def again(body: Mapping[str, Any], path: Path = path) -> Trace:
            return document_trace(game_id, str(path), readings, allow_plugin_code=allow_plugin_code)

        label = f"{path.name.removesuffix(DOCUMENT_SUFFIX)}: {trace.kind}: {_short(trace.title, 100)}"
        out.append(Source(report_source_id(path.name), "report", label, again))
    return out, left_out


def open_source(sources: Sequence[Source], body: Any) -> tuple[Source, Trace]:
    """POST /api/open: ``{"source": ID}`` (with ``seed`` and ``players`` for a seeded game) opened
    from the fixed list; an ID not on it is a 404, never a path looked up."""
    if not isinstance(body, dict):
        raise BadRequest("body: a JSON object with 'source' is needed")
    unknown = sorted(set(body) - {"source", "seed", "players"})
    if unknown:
        raise BadRequest(f"{_short(unknown[0], 40)}: unknown field; the body has 'source' (and 'seed', 'players')")
    which = body.get("source")
    if not isinstance(which, str):
        raise BadRequest(f"source: a source ID from /api/sources is needed, got {_short(which)}")
    found = next((source for source in sources if source.id == which), None)
    if found is None:
        raise BadRequest(f"source: no source {_short(which, 60)} (see /api/sources)", HTTPStatus.NOT_FOUND)
    if found.kind != "seed" and ("seed" in body or "players" in body):
        raise BadRequest("seed: only a seeded game takes 'seed' and 'players'")
    try:
        return found, found.opener(body)
    except RulecraftError as exc:
        raise BadRequest(f"source: {found.id}: {_short(str(exc), 200)}", HTTPStatus.UNPROCESSABLE_ENTITY) from None


# -- what the API answers -----------------------------------------------------------------------------------------


def diff_paths(a: Any, b: Any, limit: int = 2000) -> list[str]:
    """Every innermost place where two JSON values differ (``boards[1].chips``; a list whose length
    differs, or values of different kinds, count as one place), at most ``limit``.  Compared as JSON:
    a model's state holds tuples where a document's holds lists (``(0, 0) != [0, 0]`` in Python)."""
    out: list[str] = []

    def walk(where: str, x: Any, y: Any) -> None:
        if len(out) >= limit or x == y:
            return
        if isinstance(x, dict) and isinstance(y, dict):
            for key in sorted(set(x) | set(y), key=str):
                walk(f"{where}.{key}" if where else str(key), x.get(key), y.get(key))
        elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
            for i, (p, q) in enumerate(zip(x, y, strict=True)):
                walk(f"{where}[{i}]", p, q)
        else:
            out.append(where)

    walk("", plain_json(a), plain_json(b))
    return out


def plain_json(value: Any) -> Any:
    """``value`` as JSON reads it back: tuples as lists, enums and other objects as their text."""
    return json.loads(json.dumps(value, default=str))


def _mover(game: Game[S, A], state: S) -> str:
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return "game over"
    if isinstance(mover, Chance):
        return "chance"
    return f"seat {mover}"


def _rule_json(game: AnyGame, rule_id: str) -> dict[str, str]:
    if rule_id in game.catalogue:
        rule = game.catalogue[rule_id]
        return {"id": rule.id, "page": rule.page, "statement": rule.statement}
    return {"id": rule_id, "page": "", "statement": ""}  # an ambiguity ID, or a rule of no catalogue


def _legal(game: Game[S, A], state: S, most: int = 400) -> tuple[list[dict[str, Any]], int]:
    """The legal actions (or chance outcomes) at ``state``, each with its words and rule citations."""
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return [], 0
    actions = [a for a, _ in game.chance_outcomes(state)] if isinstance(mover, Chance) else game.legal_actions(state)
    out = []
    for action in list(actions)[:most]:
        try:
            grounds = game.grounds(state, action)
        except Exception:  # a citation is a help; an action without one is still listed
            grounds = ()
        out.append(
            {
                "action": game.action_to_json(action),
                "text": game.describe(state, action),
                "rules": [_rule_json(game, r) for r in grounds],
            }
        )
    return out, len(actions)


def _side_json(trace: Trace, side: Side, i: int, state: Any) -> dict[str, Any]:
    if state is None:
        step = max(k for k in side.refused if k <= i)
        return {"label": side.label, "refused": {"step": step, **side.refused[step].to_json()}}
    game = side.game
    picture = game.picture(state)
    legal, total = _legal(game, state)
    outcome = game.outcome(state)
    return {
        "label": side.label,
        "to_move": _mover(game, state),
        "state": game.state_to_json(state),
        "picture": picture,
        "text": game.render(state),
        "legal": legal,
        "legal_total": total,
        "outcome": outcome.to_json() if outcome is not None else None,
    }


def _remote_json(trace: Trace, remote: Remote, i: int) -> dict[str, Any]:
    """The implementation's side at step ``i``: its own state JSON and legal actions, drawn and worded
    by the reference game where they read as its states and actions."""
    if i >= len(remote.states):
        stops = [k for k in remote.stopped if k <= i]
        why = remote.stopped[max(stops)] if stops else "steps played in the page are not sent to it"
        return {"label": remote.label, "note": f"the implementation stopped at step {max(stops, default=i)}: {why}"}
    game, data = trace.left.game, remote.states[i]
    out: dict[str, Any] = {"label": remote.label, "to_move": str(remote.movers[i]), "state": data}
    try:
        state = game.state_from_json(data)
        out["picture"], out["text"] = game.picture(state), game.render(state)
    except Exception:  # its state need not read as ours: shown as JSON alone
        state = trace.left.states[i]
        out["picture"], out["text"] = None, "(the implementation's state does not read as a state of the model)"
    legal = []
    for action in remote.legal[i]:
        try:
            text = game.describe(state, game.action_from_json(action))
        except Exception:
            text = json.dumps(action, sort_keys=True)
        legal.append({"action": action, "text": text, "rules": []})
    out.update(legal=legal, legal_total=len(legal), outcome=None)
    return out


def step_json(trace: Trace, i: int) -> dict[str, Any]:
    """Everything the page shows at step ``i`` (0: the start): each side, and what differs."""
    left = _side_json(trace, trace.left, i, trace.left.state(i))
    out: dict[str, Any] = {"index": i, "count": len(trace), "left": left, "right": None, "differs": []}
    if trace.right is not None or trace.remote is not None:
        if trace.remote is not None:
            right = _remote_json(trace, trace.remote, i)
        else:
            assert trace.right is not None
            right = _side_json(trace, trace.right, i, trace.right.state(i))
        if i == len(trace) and trace.patch and "state" in right:
            right["state"] = {**right["state"], **trace.patch}
            right["patched"] = sorted(trace.patch)
        out["right"] = right
        if "state" in left and "state" in right:
            out["differs"] = diff_paths(left["state"], right["state"])
            mine = {_key(a["action"]) for a in left["legal"]}
            theirs = {_key(a["action"]) for a in right["legal"]}
            out["legal_only"] = {
                "left": sorted(mine - theirs),
                "right": sorted(theirs - mine),
            }
    return out


def _key(action: Any) -> str:
    """An action's JSON as the page writes it (``JSON.stringify`` of its sorted keys), to match them."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _other_words(trace: Trace, i: int, text: str) -> dict[str, str]:
    """The right side's words for step ``i + 1`` where they differ from the left's (a variant's cost)."""
    other = trace.right_texts[i] if i < len(trace.right_texts) else None
    return {"right_text": other} if other is not None and other != text else {}


def trace_json(trace: Trace) -> dict[str, Any]:
    from rulecraft import htmlpage
    from rulecraft.conformance.report import leaf_differences

    game = trace.left.game
    return {
        "game": trace.game_id,
        "title": game.title,
        "kind": trace.kind,
        "heading": trace.title,
        "labels": [trace.left.label, *([trace.right.label] if trace.right else [])]
        + ([trace.remote.label] if trace.remote else []),
        "count": len(trace),
        "steps": [
            {"index": i + 1, "text": text, "action": action, **_other_words(trace, i, text)}
            for i, (text, action) in enumerate(zip(trace.texts, trace.steps, strict=True))
        ],
        "refused": {str(k): v.to_json() for k, v in (trace.right.refused.items() if trace.right is not None else ())},
        # Down to the innermost values, as the reports' tables show them (boards[0].chips, not all boards).
        "reported": [
            {"field": where, "left": x, "right": y}
            for k, a, b in trace.reported
            for where, x, y in leaf_differences(k, a, b)
        ],
        # In the catalogue's order (as ``rulecraft rules`` and the reports list them), not the order hit.
        "rules": [_rule_json(game, r) for r in htmlpage.in_catalogue_order(trace.rules, game.catalogue)],
        "notes": list(trace.notes),
        "examples": _examples_named(trace),
    }


def _examples_named(trace: Trace) -> dict[str, str]:
    """The printed examples the heading and notes name that the rules digest holds, each with its entry's
    heading: the page links them to the rules page (an ID the digest lacks stays plain text)."""
    from rulecraft import htmlpage

    named = {m.group(0) for text in (trace.title, *trace.notes) for m in htmlpage.EXAMPLE_ID.finditer(text)}
    if not named:
        return {}
    known = htmlpage.digest_examples(trace.game_id)
    return {i: known[i].heading for i in sorted(named) if i in known}


def try_action(trace: Trace, body: Any) -> dict[str, Any]:
    """POST /api/try: ``{"step": I, "action": {...}}``.  Illegal: every rule that forbids it; legal: it is
    played at step I (the steps after I dropped) and the new step number returned."""
    from rulecraft.statefile import json_problem

    if not isinstance(body, dict):
        raise BadRequest("body: a JSON object with 'step' and 'action' is needed")
    unknown = sorted(set(body) - {"step", "action"})
    if unknown:
        raise BadRequest(f"{_short(unknown[0], 40)}: unknown field; the body has 'step' and 'action'")
    i = body.get("step")
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i <= len(trace):
        raise BadRequest(f"step: a step number from 0 to {len(trace)} is needed, got {_short(i)}")
    data = body.get("action")
    if not isinstance(data, dict):
        raise BadRequest(f"action: an action object is needed, got {_short(data)}")
    problem = json_problem(data, "action")
    if problem is not None:
        raise BadRequest(f"{problem[0]}: {problem[1]}")
    game = trace.left.game
    state = trace.left.states[i]
    try:
        action = game.action_from_json(data)
    except RulecraftError as exc:
        raise BadRequest(f"action: {_short(str(exc), 200)}") from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        raise BadRequest(f"action: not an action of {trace.game_id}: {type(exc).__name__}: {_short(exc)}") from None
    rejections = game.rejections(state, action)
    if rejections:
        return {
            "legal": False,
            "text": _describe(game, state, action),
            "rejections": [_refusal(game, r) for r in rejections],
        }
    trace.cut(i)
    trace.play(game.action_to_json(action))
    return {"legal": True, "text": trace.texts[-1], "step": len(trace)}


def _describe(game: Game[S, A], state: S, action: A) -> str:
    try:
        return game.describe(state, action)
    except Exception:  # an illegal action may not describe; its JSON says what it was
        return json.dumps(game.action_to_json(action), sort_keys=True)


def _refusal(game: AnyGame, rejection: Rejection) -> dict[str, str]:
    out = rejection.to_json()
    out["text"] = str(rejection)
    if rejection.rule in game.catalogue:
        out["statement"] = game.catalogue[rejection.rule].statement
    return out


def rules_json(game: AnyGame) -> dict[str, Any]:
    return {"game": game.id, "rules": [{"id": r.id, "page": r.page, "statement": r.statement} for r in game.catalogue]}


def rules_page(game: AnyGame) -> str:
    """The rule catalogue as a page, one anchor per rule ID (the page's rule links land here)."""
    from rulecraft import htmlpage

    parts = [
        f"<h1>{html.escape(game.title)}: the rules</h1>",
        "<p>Each rule ID with its rulebook page and statement, from the game's rule catalogue"
        " (<code>rulecraft rules " + html.escape(game.id) + "</code>). <a href='/'>Back to the explorer</a>.</p>",
        htmlpage.rule_table(game.catalogue),  # the same rows and anchors as a report's appendix
    ]
    examples = htmlpage.digest_examples(game.id)
    if examples:  # the printed examples, anchored by ID, when the rules digest is at hand
        parts += [
            "<h2 id='examples'>The printed examples</h2>",
            "<table class='examples'><tr><th>example</th><th>what the rulebook shows</th></tr>"
            + htmlpage.example_rows(examples.values())
            + "</table>",
        ]
    return htmlpage.page(f"{game.title}: rules", parts)


# -- the server ---------------------------------------------------------------------------------------------------


class BadRequest(Exception):
    """A request the API refuses: ``status`` and one line naming the field."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(message)
        self.status = status


def _short(value: object, most: int = 80) -> str:
    text = value if isinstance(value, str) else repr(value)
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 3] + "..."


_STEP = re.compile(r"^/api/step/(\d{1,9})$")


class Explorer(ThreadingHTTPServer):
    """The HTTP server: one trace, a lock around it (the page and a test may ask at once)."""

    daemon_threads = True

    def __init__(
        self, trace: Trace, port: int = 0, host: str = LOOPBACK, sources: Sequence[Source] | None = None
    ) -> None:
        if host != LOOPBACK:
            raise ExploreError(f"--host {host}: the explorer serves 127.0.0.1 only (it is a local tool)")
        self.trace = trace
        self.lock = threading.Lock()
        if sources is None:  # the trace itself (as it is then), a seeded game and the printed examples
            sources = sources_for(trace.game_id, (f"{trace.kind}: {_short(trace.title, 100)}", lambda: trace))
        self.sources = list(sources)
        self.current = self.sources[0].id if self.sources else ""
        super().__init__((LOOPBACK, port), Handler)

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.server_address[1]}/"


class Handler(BaseHTTPRequestHandler):
    server: Explorer
    server_version = "rulecraft-explore"
    error_content_type = "text/plain; charset=utf-8"
    error_message_format = "%(code)d %(message)s\n"

    def log_message(self, format: str, *args: Any) -> None:
        return  # a quiet local tool: the page's own requests are no news

    # -- plumbing --
    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if kind.startswith("text/html"):
            # Scripts only from this server: a name in a user's file that reached a picture unescaped
            # still could not run.  Styles inline (the pictures and the rules page carry their own).
            self.send_header("Content-Security-Policy", CSP)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data: Any, status: int = 200) -> None:
        self._send(status, json.dumps(data, default=str).encode("utf-8"), "application/json")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._json({"error": " ".join(message.split())[:300]}, status)

    def _host_ok(self) -> bool:
        # A page on another site may not reach this server by a name pointing at 127.0.0.1 (DNS
        # rebinding): only the loopback names are answered.
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0]
        return host in ("127.0.0.1", "localhost")

    def _guarded(self, answer: Callable[[], None]) -> None:
        if not self._host_ok():
            self._error(HTTPStatus.FORBIDDEN, "Host: the explorer answers 127.0.0.1 and localhost only")
            return
        try:
            answer()
        except BadRequest as exc:
            self._error(exc.status, str(exc))
        except Exception as exc:  # a bug of rulecraft's: one line, never a traceback to the page
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {type(exc).__name__}: {_short(exc, 200)}")

    # -- verbs --
    def do_GET(self) -> None:
        self._guarded(self._get)

    def do_HEAD(self) -> None:
        self._guarded(self._get)

    def do_POST(self) -> None:
        self._guarded(self._post)

    def do_PUT(self) -> None:
        self._guarded(self._not_allowed)

    do_DELETE = do_PATCH = do_PUT

    def _not_allowed(self) -> None:
        raise BadRequest(f"{self.command}: the explorer takes GET and POST only", HTTPStatus.METHOD_NOT_ALLOWED)

    def _get(self) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        trace = self.server.trace
        if path in ("/", "/index.html"):
            self._send(200, _asset("explore_page.html"), "text/html; charset=utf-8")
        elif path.startswith("/static/"):
            name = path.removeprefix("/static/")
            if name not in STATIC:  # a fixed list: no path from a request reaches the file system
                raise BadRequest(f"path: no static file {_short(name, 60)}", HTTPStatus.NOT_FOUND)
            self._send(200, _asset(name), f"{STATIC[name]}; charset=utf-8")
        elif path == "/rules":
            self._send(200, rules_page(trace.left.game).encode("utf-8"), "text/html; charset=utf-8")
        elif path == "/api/rules":
            self._json(rules_json(trace.left.game))
        elif path == "/api/sources":
            with self.server.lock:
                sources = [source.to_json() for source in self.server.sources]
                self._json({"current": self.server.current, "sources": sources})
        elif path == "/api/trace":
            with self.server.lock:
                self._json(trace_json(trace))
        elif (found := _STEP.match(path)) is not None:
            i = int(found.group(1))
            with self.server.lock:
                if i > len(trace):
                    raise BadRequest(f"step: {i} is past the last step ({len(trace)})", HTTPStatus.NOT_FOUND)
                self._json(step_json(trace, i))
        elif path.startswith("/api/step/"):
            raise BadRequest("step: a step number is needed (/api/step/0 is the start)", HTTPStatus.NOT_FOUND)
        else:
            raise BadRequest(f"path: nothing at {_short(path, 60)}", HTTPStatus.NOT_FOUND)

    def _post(self) -> None:
        path = self.path.split("?", 1)[0]
        if path not in ("/api/try", "/api/open"):
            raise BadRequest(f"path: nothing to POST at {_short(path, 60)}", HTTPStatus.NOT_FOUND)
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            raise BadRequest("Content-Length: the body's length is needed", HTTPStatus.LENGTH_REQUIRED)
        if int(length) > MAX_BODY:
            self.close_connection = True  # the body is not read: the connection cannot carry on
            raise BadRequest(
                f"body: {int(length)} bytes; a request carries at most {MAX_BODY}", HTTPStatus.REQUEST_ENTITY_TOO_LARGE
            )
        raw = self.rfile.read(int(length))
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise BadRequest(f"body: not JSON: {_short(str(exc), 100)}") from None
        if path == "/api/open":
            source, trace = open_source(self.server.sources, body)  # outside the lock: a game may take a while
            with self.server.lock:
                self.server.trace, self.server.current = trace, source.id
                self._json({"source": source.id, "kind": trace.kind, "heading": trace.title, "count": len(trace)})
            return
        with self.server.lock:
            self._json(try_action(self.server.trace, body))


def _asset(name: str) -> bytes:
    return resources.files("rulecraft").joinpath(name).read_bytes()


@attrs.frozen
class Running:
    """A server started in a thread (tests, and the CLI until Ctrl-C)."""

    server: Explorer
    thread: threading.Thread

    @property
    def url(self) -> str:
        return self.server.url

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


# How often the serving thread looks for a stop: ``Running.stop()`` waits up to this long (the
# standard library's 0.5 s made each explorer test wait half a second to end; the idle cost is nil).
STOP_POLL: Final = 0.02


def start(trace: Trace, port: int = 0, sources: Sequence[Source] | None = None) -> Running:
    server = Explorer(trace, port, sources=sources)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": STOP_POLL}, name="rulecraft-explore", daemon=True
    )
    thread.start()
    return Running(server, thread)


def serve(
    trace: Trace,
    port: int = 0,
    *,
    open_browser: bool = True,
    announce: Callable[[str], None] = print,
    sources: Sequence[Source] | None = None,
) -> None:
    """Serve until interrupted; prints the URL (and opens it, unless told not to)."""
    try:
        server = Explorer(trace, port, sources=sources)
    except OSError as exc:  # the port is taken (another explorer?): one line, not a traceback
        why = exc.strerror or type(exc).__name__
        raise ExploreError(f"--port {port}: cannot serve on {LOOPBACK}:{port}: {why}") from None
    announce(f"rulecraft explore: {trace.title} ({len(trace)} steps) at {server.url} (Ctrl-C stops)")
    if open_browser:
        webbrowser.open(server.url)
    try:
        server.serve_forever()
    finally:
        server.server_close()


def sources(args: Mapping[str, Any]) -> Iterator[str]:
    """The source options given (exactly one is needed)."""
    for key in ("seed", "scenario", "state", "finding", "witness", "divergence"):
        if args.get(key) is not None:
            yield key


__all__ = [
    "ExploreError",
    "Explorer",
    "ReportLinks",
    "Source",
    "Trace",
    "diff_paths",
    "divergence_document",
    "divergence_trace",
    "document_trace",
    "finding_document",
    "finding_trace",
    "open_command",
    "open_source",
    "report_page",
    "report_sources",
    "scenario_trace",
    "seeded_trace",
    "serve",
    "setup_refusal",
    "sources_for",
    "start",
    "state_trace",
    "step_json",
    "trace_json",
    "try_action",
    "witness_document",
    "witness_trace",
]
