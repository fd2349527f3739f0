"""The differential search of ``rulecraft conform``: whole games from every set-up, verdicts that
never say "conformant" without having compared, shrinking bounded by a count (the same seed gives
the same finding on a fast and on a slow peer), findings that name their rules and replay exactly,
and reports written whatever happened."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from rulecraft.cli import main
from rulecraft.conformance.conform import (
    ConformReport,
    conform,
    differential,
    read_replay,
    replay,
    replay_document,
)
from rulecraft.conformance.inprocess import InProcess
from rulecraft.conformance.report import junit_text, markdown
from rulecraft.core import RulecraftError, Setup
from rulecraft.registry import game_ids, make_game
from rulecraft.search import Draws, Plan, Start, Style, random_setup
from rulecraft.tools import tools

PY = sys.executable
FIXTURES = Path(__file__).parent / "fixtures" / "impls"
WRAPPED = f"{PY} {FIXTURES / 'wrapped_reference.py'}"


class SlowPeer(InProcess):
    """The same peer on a slower machine: every request takes longer."""

    def apply(self, data: Any) -> dict[str, Any]:
        time.sleep(0.0003)
        return super().apply(data)


def _pair_search(peer_cls: type[InProcess], seed: int = 3, budget: int = 60) -> ConformReport:
    """The printed rules against AIR-AMB-35 'max' (fewer throws allowed): a difference in legal actions."""
    game = make_game("air")
    report = ConformReport("air", "in-process", seed=seed)
    differential(
        game,
        peer_cls(make_game("air", readings={"AIR-AMB-35": "max"})),
        ("*",),
        max_examples=20,
        max_steps=3000,
        seed=seed,
        players=[2, 3, 4],
        report=report,
        self_test=True,
        shrink_replays=budget,
    )
    return report


def test_the_same_seed_gives_the_same_shrunk_game_on_a_fast_and_a_slow_peer() -> None:
    fast = _pair_search(InProcess)
    slow = _pair_search(SlowPeer)
    assert fast.findings and slow.findings
    a, b = fast.findings[0], slow.findings[0]
    assert (a.kind, a.title, a.steps, a.start_state, a.origin, a.path) == (
        b.kind,
        b.title,
        b.steps,
        b.start_state,
        b.origin,
        b.path,
    )
    assert a.shrink_replays == b.shrink_replays <= 60
    assert fast.examples_run == slow.examples_run


def test_shrinking_is_bounded_by_its_count_of_replays() -> None:
    report = _pair_search(InProcess, budget=1)
    finding = report.findings[0]
    assert finding.shrink_replays == 1 and finding.shrink_exhausted


def test_a_late_finding_is_shown_from_a_state_the_reference_reached_with_the_full_way_there() -> None:
    finding = _pair_search(InProcess).findings[0]
    assert len(finding.steps) <= 15
    assert finding.origin is not None and len(finding.path) >= len(finding.steps)
    assert tuple(finding.path[-len(finding.steps) :]) == finding.steps if finding.steps else True
    # The full path replays from a new game under the rules, legally, to the start state.
    game = make_game("air")
    state = game.start(Setup.from_json(finding.origin))
    for data in finding.path[: len(finding.path) - len(finding.steps)]:
        state = game.apply(state, game.action_from_json(data))
    assert game.state_to_json(state) == finding.start_state


def test_every_compared_step_records_its_rules_and_the_report_prints_the_coverage() -> None:
    report = conform(make_game("air"), f"{PY} -m rulecraft.conformance.server air", max_examples=3, scenarios=False)
    assert report.conformant, markdown(report)
    hit, total = report.coverage()
    assert total == 51 and 20 < hit <= total
    assert f"rule coverage of the differential games: {hit}/{total} rule IDs" in markdown(report)
    # Games are played to their end (the step cap is far above the longest game).
    assert report.games_finished + report.games_stalled == 3 and report.games_capped == 0


@pytest.mark.parametrize("game_id", game_ids())
def test_random_set_ups_cover_what_new_game_accepts(game_id: str) -> None:
    import random

    game = make_game(game_id)
    rng = random.Random(0)
    setups = [random_setup(game, rng, range(game.min_players, game.max_players + 1)) for _ in range(60)]
    for setup in setups:
        game.start(setup)  # every drawn set-up is one new_game accepts
    assert {s.players for s in setups} == set(range(game.min_players, game.max_players + 1))
    if game.first_seat_chosen:
        assert any(s.first_seat != 0 for s in setups)
    if game_id in ("air", "kas"):
        assert any(s.options for s in setups), "nations / teams, layouts, Uncertainty are drawn too"


def test_draws_replay_a_plan_and_stop_at_its_end() -> None:
    import random

    draws = Draws(random.Random(1))
    first = [draws.choose(5, lambda rng: rng.randrange(5)) for _ in range(4)]
    again = Draws(None, tuple(first))
    assert [again.choose(5, lambda rng: 0) for _ in range(4)] == first
    from rulecraft.search import PlanEnd

    with pytest.raises(PlanEnd):
        again.choose(5, lambda rng: 0)
    assert Plan(Start("x", setup={"players": 2}), (1, 2), Style()).choices == (1, 2)


# -- verdicts that cannot lie ----------------------------------------------------------------------------------


def test_a_run_that_compared_nothing_is_not_tested_never_conformant(tmp_path: Path) -> None:
    report = conform(make_game("air"), f"{PY} -m rulecraft.conformance.server air", scenarios=False, seconds=1e-9)
    assert report.status == "not-tested" and not report.conformant
    assert "NOT TESTED" in markdown(report)
    suite = ET.fromstring(junit_text(report))
    assert suite.get("errors") == "1" and suite.find(".//error") is not None
    code = main(
        [
            "conform",
            "air",
            "--impl",
            f"{PY} -m rulecraft.conformance.server air",
            "--no-scenarios",
            "--seconds",
            "0.000000001",
            "--quiet",
            "--junit",
            str(tmp_path / "j.xml"),
        ]
    )
    assert code == 5 and (tmp_path / "j.xml").exists()


def test_the_time_budget_counts_from_the_differential_phase(tmp_path: Path) -> None:
    """A slow printed-example replay (0.1 s per given state, 2 s in all) cannot eat the differential
    phase's 1 s: set-ups and games are still compared, and a run the cap stopped is incomplete, not
    conformant.  (A whole game through a subprocess may outlast what is left of the second on a busy
    machine: the set-ups swept count as compared too.)"""
    report = conform(make_game("air"), f"{WRAPPED} air --delay-set-state 0.1", seconds=1.0, max_examples=500)
    assert report.scenarios_run == 22 and report.setups_compared + report.examples_run >= 1
    assert report.status == "incomplete" and "INCOMPLETE" in report.verdict


def test_a_crash_then_a_failed_restart_ends_the_run_with_a_finding_and_every_report(tmp_path: Path) -> None:
    marker = tmp_path / "crashed"
    impl = f"{WRAPPED} air --crash-on-apply 5 --marker {marker}"
    report = conform(make_game("air"), impl, scenarios=False, max_examples=5, timeout=5.0)
    assert report.status == "findings" and report.stopped == "fault"
    assert any("failed its restart" in f.title for f in report.findings), markdown(report)
    marker.unlink()
    out = tmp_path / "out"
    out.mkdir()
    code = main(
        [
            "conform",
            "air",
            "--impl",
            impl,
            "--quiet",
            "--junit",
            str(out / "j.xml"),
            "--report",
            str(out / "r.md"),
            "--html",
            str(out / "r.html"),
        ]
    )
    assert code == 1
    assert "failed its restart" in (out / "r.md").read_text("utf-8")
    assert ET.parse(out / "j.xml").getroot().get("failures") != "0"
    assert (out / "r.html").read_text("utf-8").startswith("<!doctype html>")


def test_an_output_path_that_cannot_be_written_is_refused_before_any_work(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "air", "--impl", "no-such-program", "--junit", "/nonexistent/folder/j.xml"])
    assert code == 4
    assert "/nonexistent/folder/j.xml" in capsys.readouterr().err


# -- replaying a finding --------------------------------------------------------------------------------------


def test_a_finding_replays_exactly_from_its_document(tmp_path: Path) -> None:
    report = _pair_search(InProcess)
    finding = report.findings[0]
    document = replay_document("air", finding)
    path = tmp_path / "finding.json"
    path.write_text(json.dumps(document), "utf-8")
    assert read_replay(str(path), "air")["steps"] == list(finding.steps)
    # Against the reference server the game conforms (it is legal under the printed rules) ...
    again = replay(make_game("air"), f"{PY} -m rulecraft.conformance.server air", document)
    assert again.status == "conformant" and again.examples_run == 1, markdown(again)
    # ... and so does the full game from a new game.
    full = replay(make_game("air"), f"{PY} -m rulecraft.conformance.server air", document, full=True)
    assert full.status == "conformant" and full.steps_compared > again.steps_compared


def test_a_replay_document_of_another_game_or_shape_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"rulecraft_replay": 1, "game": "kas", "start": {}, "steps": []}), "utf-8")
    with pytest.raises(RulecraftError, match="game: this is a replay of 'kas'"):
        read_replay(str(path), "air")
    path.write_text("[" * 100_000, "utf-8")
    with pytest.raises(RulecraftError, match="not a readable replay document"):
        read_replay(str(path), "air")


def test_sigterm_ends_the_run_with_every_report_and_no_implementation_left(tmp_path: Path) -> None:
    """What `timeout` and CI runners send: the reports are written with what ran (exit 2), and the
    implementation's process group is gone.  The signal comes in the middle of the differential
    games: once the run's log (a CI log: stderr is no terminal) says ten were compared."""
    import os
    import signal
    import subprocess
    import threading

    report = tmp_path / "r.md"
    proc = subprocess.Popen(
        [
            PY,
            "-m",
            "rulecraft",
            "conform",
            "kas",
            "--impl",
            f"{PY} -m rulecraft.conformance.server kas",
            "--no-scenarios",
            "--report",
            str(report),
            "--junit",
            str(tmp_path / "j.xml"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Waiting for the log line, not a fixed time: as far into the games on a busy machine as on an idle one.
    lines: list[str] = []
    underway = threading.Event()

    def read_log() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if line.startswith("rulecraft conform kas: differential: 10"):
                underway.set()
        underway.set()  # the run ended first: the assertions below say how

    reader = threading.Thread(target=read_log, daemon=True)
    reader.start()
    underway.wait(timeout=60)
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)
    reader.join(timeout=60)
    assert proc.stderr is not None
    proc.stderr.close()
    err = "".join(lines)
    assert children, err[-2000:]  # the implementation was running when the signal came
    assert proc.returncode == 130, err[-2000:]  # interrupted (128 + SIGINT), as shells report it
    text = report.read_text("utf-8")
    assert "INCOMPLETE" in text or "NOT TESTED" in text
    assert "interrupted" in text
    assert ET.parse(tmp_path / "j.xml").getroot().get("errors") == "1"
    for pid in children:
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)


def test_a_refusal_may_cite_any_rule_that_forbids_the_action() -> None:
    """When several rules forbid an action, an implementation that checks them in another order
    cites another of them: that is no difference.  An unrelated rule still is."""
    import random

    from rulecraft.conformance.conform import Lockstep, Mismatch
    from rulecraft.model.airships.actions import EndGo, ExtraGo

    game = make_game("air")
    rng = random.Random(1)
    state = game.new_game(3)
    found = None
    for _ in range(3000):
        for probe in (ExtraGo(), EndGo()):
            forbidding = game.rejections(state, probe)
            if forbidding:
                assert forbidding[0] == game.check(state, probe)  # check cites the first
                if len(forbidding) > 1 and found is None:
                    found = (state, probe, forbidding)
        action = game.random_action(state, rng)
        if action is None:
            break
        state = game.apply(state, action)
    assert found is not None
    state, probe, forbidding = found

    class Refuses:
        def __init__(self, rule: str) -> None:
            self.rule = rule

        def apply(self, action: dict[str, Any]) -> dict[str, Any]:
            return {"ok": False, "rejected": {"rule": self.rule, "reason": "no"}}

    for rejection in forbidding:
        lock = Lockstep(game, Refuses(rejection.rule), ("*",), "test")  # type: ignore[arg-type]
        lock.state = state
        lock.probe(probe)  # no Mismatch: the rule forbids it
    lock = Lockstep(game, Refuses("AIR-R-01"), ("*",), "test")  # type: ignore[arg-type]
    lock.state = state
    with pytest.raises(Mismatch, match="refused for another rule"):
        lock.probe(probe)


def test_an_implementation_that_cannot_be_started_is_one_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["conform", "air", "--impl", "no-such-program-xyz", "--quiet"])
    err = capsys.readouterr().err
    assert code == 4 and err.count("\n") == 1
    assert "--impl 'no-such-program-xyz'" in err and "No such file" in err and "while before" not in err


def test_a_wrong_outcome_is_a_finding_in_protocol_2() -> None:
    """KAS-R-53 (p.16: a tie goes to the most money) planted away: a finished game tied on 25 VP
    ($15 and a depot against $25) has the same state on both sides, only its outcome differs;
    protocol 2 reports it with the tie-break rule named."""
    from test_outcome import kas_tie

    game, state = kas_tie(money=(15, 25), depots=(1, 0))
    document = {"rulecraft_replay": 1, "game": "kas", "start": {"state": game.state_to_json(state)}, "steps": []}
    planted = Path(__file__).resolve().parent.parent / "bench" / "planted.py"
    report = replay(make_game("kas"), f"{PY} {planted} kas tie-shared", document)
    assert report.protocol == 2
    assert [f.kind for f in report.findings] == ["outcome"], markdown(report)
    finding = report.findings[0]
    assert "KAS-R-53" in finding.rules and any(path.startswith("winners") for path, _, _ in finding.fields)
    # The reference itself gives the rulebook's winner (seat 1, the most money): no finding.
    again = replay(make_game("kas"), f"{PY} -m rulecraft.conformance.server kas", document)
    assert again.status == "conformant", markdown(again)


def test_rule_citations_are_read_with_the_models_shorthands() -> None:
    from rulecraft.coverage import _cited, citable

    assert _cited("STM-R-45/R-64, AIR-R-30/31 and AER-R-13..15") == {
        "STM-R-45",
        "STM-R-64",
        "AIR-R-30",
        "AIR-R-31",
        "AER-R-13",
        "AER-R-14",
        "AER-R-15",
    }
    game = make_game("air")
    # Every Airships rule is cited by some model function or statement: coverage can see all of them.
    assert citable(game) == {rule.id for rule in game.catalogue}


def test_a_rules_branch_counts_only_when_taken() -> None:
    """AIR-R-42 is cited by the refusal of an additional go the company cannot pay: checking an
    affordable one tests that condition (considered) without exercising the refusal."""
    from rulecraft.coverage import RuleTracer
    from rulecraft.model.airships.actions import ExtraGo

    game = make_game("air")
    tracer = RuleTracer(game)
    state = game.new_game(2)
    import random

    rng = random.Random(4)
    while ExtraGo() not in game.legal_actions(state):
        action = game.random_action(state, rng)
        assert action is not None
        state = game.apply(state, action)
    with tracer.tracing() as hit:
        assert game.check(state, ExtraGo()) is None
    assert "AIR-R-42" in tracer.considered and "AIR-R-42" not in hit


def test_a_chance_outcome_the_set_up_forbids_is_offered_to_the_implementation() -> None:
    """AER-SET-01 (l.23): a "¤" tile is not dealt at set-up.  Such tiles are dealt later by another
    kind of chance step (a refill); the search builds set-up deals from those values and offers them,
    so an implementation that deals them at set-up is caught."""
    planted = Path(__file__).resolve().parent.parent / "bench" / "planted.py"
    report = conform(
        make_game("aer"), f"{PY} {planted} aer marked-tiles-dealt-at-setup", scenarios=False, max_examples=20
    )
    assert [f.kind for f in report.findings] == ["verdict"], markdown(report)
    assert report.findings[0].rules[0] == "AER-SET-01" and report.findings[0].theirs == "accepted"


def test_replay_options_with_nonsense_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    server = f"{PY} -m rulecraft.conformance.server air"
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not json")
    cases = [
        ["conform", "air", "--impl", server, "--full"],
        ["conform", "air", "--impl", server, "--replay", str(bad)],
        ["conform", "air", "--impl", server, "--replay", str(tmp_path / "missing.json")],
        ["conform", "air", "--impl", server, "--shrink-replays", "0"],
        ["conform", "air", "--impl", server, "--seconds", "nan"],
        ["conform", "air", "--impl", server, "--max-steps", "-1"],
    ]
    # a replay document's printed-example parts: readings that are not an object or not registered, and
    # a fixture that is not one or not the game's (each one line, before the implementation plays)
    for n, start in enumerate(
        [
            {"state": {}, "readings": 5},
            {"state": {}, "readings": {"AIR-AMB-99": "zz"}},
            {"state": {}, "fixture": [1]},
            {"state": {}, "fixture": {"map": "nonsense"}},
        ]
    ):
        document = tmp_path / f"start-{n}.json"
        document.write_text(json.dumps({"rulecraft_replay": 1, "game": "air", "start": start, "steps": []}), "utf-8")
        cases.append(["conform", "air", "--impl", server, "--replay", str(document)])
    for argv in cases:
        assert main(argv) == 4, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err, (argv, err)


def test_junit_marks_printed_examples_not_replayed_as_skipped() -> None:
    report = conform(make_game("air"), f"{PY} -m rulecraft.conformance.server air", scenarios=False, max_examples=1)
    suite = ET.fromstring(junit_text(report))
    case = suite.find("testcase[@classname='air.printed-examples']")
    assert case is not None and case.find("skipped") is not None


def test_the_value_profile_folds_seats_and_positions_and_counts_list_lengths() -> None:
    from rulecraft.search import extremes

    state = {"players": [{"vp": 3, "goods": [1, 2]}, {"vp": 9, "goods": []}], "round": 2, "over": False, "7": 4}
    assert extremes(state) == {
        "players#": (2.0, 2.0),
        "players.*.vp": (3.0, 9.0),
        "players.*.goods#": (0.0, 2.0),
        "players.*.goods.*": (1.0, 2.0),
        "round": (2.0, 2.0),
        "*": (4.0, 4.0),  # a seat-keyed mapping folds like a list
    }
    # Bounded: a huge tree is read only up to the limit of containers.
    assert len(extremes({"a": [[i] for i in range(10_000)]}, limit=10)) <= 3


def _plain_extremes(data: Any) -> dict[str, tuple[float, float]]:
    """The value profile by its definition, written plainly (the search's is written for speed)."""
    out: dict[str, tuple[float, float]] = {}

    def fold(path: str, key: Any) -> str:
        part = "*" if str(key).lstrip("-").isdigit() else str(key)
        return f"{path}.{part}" if path else part

    def note(path: str, value: float) -> None:
        low, high = out.get(path, (value, value))
        out[path] = (min(low, value), max(high, value))

    def walk(node: Any, path: str, depth: int) -> None:
        if isinstance(node, dict):
            items = [(fold(path, k), v) for k, v in node.items()]
        elif isinstance(node, (list, tuple)):
            note(path + "#", float(len(node)))
            items = [(fold(path, "*"), v) for v in node]
        else:
            return
        if depth >= 12:
            return
        for where, value in items:
            if type(value) in (int, float):
                note(where, float(value))
            else:
                walk(value, where, depth + 1)

    walk(data, "", 0)
    return out


@pytest.mark.parametrize("game_id", game_ids())
def test_the_value_profile_of_real_states_is_the_plain_definition_and_skipping_unchanged_fields_keeps_it(
    game_id: str,
) -> None:
    """Every state of a seeded game: ``extremes`` equals the plain walk, and a game's profile folded
    step by step with the unchanged fields skipped (``previous``) equals the one folded whole."""
    import random

    from rulecraft.search import extremes, widen

    game = make_game(game_id)
    rng = random.Random(5)
    state = game.new_game(game.min_players + 1 if game.max_players > game.min_players else game.min_players)
    whole: dict[str, Any] = {}
    skipping: dict[str, Any] = {}
    previous = None
    for step in range(1, 151):
        action = game.random_action(state, rng, policy="purposeful" if game_id == "stm" else "uniform")
        if action is None:
            break
        state = game.apply(state, action)
        data = json.loads(json.dumps(game.state_to_json(state)))  # as the protocol carries it
        assert extremes(data) == _plain_extremes(data)
        widen(whole, data, step, "ctx")
        widen(skipping, data, step, "ctx", previous)
        previous = data
    assert skipping == whole and len(whole) > 5


def test_a_game_that_goes_further_than_every_earlier_one_marks_the_step_where_it_did() -> None:
    from rulecraft.search import Profile, widen

    profile = Profile()
    first = widen({}, {"rail_level": 1}, 0, "2p")
    widen(first, {"rail_level": 2}, 4, "2p")
    assert profile.beyond(first) == {}  # a path seen for the first time is no progress
    second = widen({}, {"rail_level": 1}, 0, "2p")
    widen(second, {"rail_level": 3}, 7, "2p")
    widen(second, {"rail_level": 3}, 9, "2p")
    assert profile.beyond(second) == {7: {"2p|rail_level>=3"}}
    # The same height again is nothing new; another player count is another profile.
    assert profile.beyond(widen({}, {"rail_level": 3}, 5, "2p")) == {}
    assert profile.beyond(widen({}, {"rail_level": 3}, 5, "3p")) == {}
    # Small numbers count one by one; beyond 16, only a new power of two is further (money creeping
    # up by one each game is not a place to return to).
    profile.beyond(widen({}, {"money": 17}, 1, "2p"))
    assert profile.beyond(widen({}, {"money": 30}, 3, "2p")) == {}
    assert profile.beyond(widen({}, {"money": 33}, 6, "2p")) == {6: {"2p|money>=33"}}
    assert profile.beyond(widen({}, {"money": 40}, 6, "2p")) == {}
    # A kind of ending is new once.
    assert profile.beyond({}, {"1p|end:lost": 40}) == {40: {"1p|end:lost"}}
    assert profile.beyond({}, {"1p|end:lost": 12}) == {}


def test_a_first_of_a_kind_gets_more_turns_than_one_more_extreme() -> None:
    """A list always empty that grows (a second bonus paid) is rarer than money going up: it is marked
    first of a kind and gets a third of the corpus turns until it has had FIRST_TURNS of them."""
    import random

    from rulecraft.search import FIRST_TURNS, Corpus, CorpusEntry, Profile, widen

    profile = Profile()

    def game(*states: dict[str, Any]) -> dict[str, Any]:
        extremes: dict[str, Any] = {}
        for step, state in enumerate(states, 1):
            widen(extremes, state, step, "3p")
        return extremes

    start = {"paid": [], "money": 3}
    profile.beyond(game(start))
    profile.beyond(game(start, {"paid": [], "money": 9}))
    assert profile.firsts == {"3p|money>=9"}  # money had only ever been 3: its first move is a first
    grown = profile.beyond(game(start, start, start, {"paid": [[0, 1]], "money": 12}))
    assert grown == {4: {"3p|paid#>=1", "3p|money>=12"}}
    assert "3p|paid#>=1" in profile.firsts and "3p|money>=12" not in profile.firsts

    # Twenty extremes and the first of a kind, each a prefix of a game: least-visited-first alone
    # would give the first of a kind one turn in 24; it gets about a third of them.
    corpus = Corpus()
    start = Start("a new game", setup={"players": 3})
    for n in range(20):
        corpus.entries.append(CorpusEntry(Plan(start, (n,)), frozenset({f"3p|money>={40 + n}"})))
    corpus.entries.insert(3, CorpusEntry(Plan(start, (99,)), frozenset({"3p|paid#>=1"}), first=True))
    rng = random.Random(0)
    picks = [entry.rules for entry in (corpus.choose(rng) for _ in range(24)) if entry is not None]
    assert 5 <= picks.count(frozenset({"3p|paid#>=1"})) <= FIRST_TURNS
    # Its share spent, it is one entry among the others.
    corpus.entries[3].picked = FIRST_TURNS
    later = [entry.rules for entry in (corpus.choose(rng) for _ in range(20)) if entry is not None]
    assert frozenset({"3p|paid#>=1"}) not in later


def test_the_closest_finishes_are_kept_as_states_a_few_steps_before_the_end() -> None:
    from rulecraft.search import Corpus, Trial

    corpus = Corpus(endings_limit=2)
    plan = Plan(Start("a new game", setup={"players": 2}), ())
    for n in range(3):
        trial = Trial(ended="over", steps=20 + n, taken=tuple(range(40 + 2 * n)), marks=list(range(0, 40 + 2 * n, 2)))
        corpus.add_ending(plan, trial, 5, None)
    assert len(corpus.endings) == 2
    # The oldest went first: the ring holds the games of 21 and 22 steps, each cut 5 steps early.
    assert sorted(len(e.plan.choices) for e in corpus.endings) == [32, 34]
    unfinished = Trial(ended="cap", steps=30, taken=(0,) * 60, marks=list(range(0, 60, 2)))
    corpus.add_ending(plan, unfinished, 5, None)
    assert sorted(len(e.plan.choices) for e in corpus.endings) == [32, 34]
    # The closest finishes are kept (the smallest lead of the winner): a 1-point finish displaces an
    # unscored one, a 9-point finish does not displace it again.
    close = Trial(ended="over", steps=30, taken=tuple(range(60)), marks=list(range(0, 60, 2)), lead=1.0)
    corpus.add_ending(plan, close, 5, None)
    wide = Trial(ended="over", steps=31, taken=tuple(range(62)), marks=list(range(0, 62, 2)), lead=9.0)
    corpus.add_ending(plan, wide, 5, None)
    assert sorted(e.lead for e in corpus.endings) == [1.0, 9.0]
    closer = Trial(ended="over", steps=32, taken=tuple(range(64)), marks=list(range(0, 64, 2)), lead=0.0)
    corpus.add_ending(plan, closer, 5, None)
    wider = Trial(ended="over", steps=33, taken=tuple(range(66)), marks=list(range(0, 66, 2)), lead=20.0)
    corpus.add_ending(plan, wider, 5, None)
    assert sorted(e.lead for e in corpus.endings) == [0.0, 1.0]


def test_a_scoring_difference_late_in_a_game_is_shown_at_the_state_where_it_appears() -> None:
    """KAS-R-52 planted as cumulative (level 5 scores 5 + 15): only a player at rail level 5 scores
    differently.  A state with one there, given to the implementation, is a scores finding with no
    step: the running score is compared when a game starts from a given state."""
    game = make_game("kas")
    given = {"players_state": {0: {"at": [1, 1], "rail_level": 5}, 1: {"at": [3, 1], "rail_level": 2}}}
    state = tools(game).scenario_state({"players": 2, **given})
    document = {"rulecraft_replay": 1, "game": "kas", "start": {"state": game.state_to_json(state)}, "steps": []}
    planted = Path(__file__).resolve().parent.parent / "bench" / "planted.py"
    report = replay(make_game("kas"), f"{PY} {planted} kas rail-vp-cumulative", document)
    assert [f.kind for f in report.findings] == ["scores"], markdown(report)
    assert "KAS-R-52" in report.findings[0].rules
    assert any("rail" in path for path, _, _ in report.findings[0].fields)


def test_a_uniform_walk_that_would_not_end_hands_over_to_the_games_policy() -> None:
    """Steamopolis's uniform walk runs to the step cap (STM-R-64 seldom triggers): a uniform style there
    wanders, then its game's policy plays on to the end; a game with no policy keeps uniform."""
    import random

    from rulecraft.search import random_style

    stm, air = make_game("stm"), make_game("air")
    styles = [random_style(stm, random.Random(i), ["a", "b"]) for i in range(60)]
    uniform = [s for s in styles if s.policy == "uniform"]
    assert uniform and all(s.finish in tools(stm).policies() and s.finish_after > 0 for s in uniform)
    style = uniform[0]
    assert style.at(style.finish_after - 1) is style
    assert style.at(style.finish_after).policy == style.finish
    assert all(random_style(air, random.Random(i), ["a"]).finish is None for i in range(20))


def test_a_close_style_chooses_the_option_that_leaves_the_smallest_lead() -> None:
    """A replayed close finish aims for a tie: every option is looked at one step ahead and the one
    after which the leader's margin is smallest is chosen, chance outcomes included (a tie is what a
    tie-break deviation needs, e.g. AIR-R-49)."""
    import random

    from rulecraft.search import closest, margin, options, pick

    game = make_game("air")
    rng = random.Random(4)
    state = game.new_game(2)
    for _ in range(120):  # into the game, where attempts change the scores
        state = game.apply(state, game.random_action(state, rng))
    checked = 0
    for _ in range(200):
        if game.is_over(state):
            break
        opts, odds = options(game, state)
        if len(opts) > 1:
            margins = [margin(game, game.transition(state, o)) for o in opts]
            chosen = pick(game, state, opts, odds, Style(close=True), random.Random(7))
            assert margins[chosen] == min(margins), (margins, chosen)
            assert closest(game, state, opts, random.Random(7)) == chosen
            checked += 1
            state = game.transition(state, opts[chosen])
        else:
            state = game.apply(state, game.random_action(state, rng))
    assert checked > 20
    # the close style survives the hand-over to a game's policy
    assert Style(close=True, finish="purposeful", finish_after=5).at(9).close


def test_a_solo_set_target_exercises_the_time_pressure_rule_a_multi_player_one_does_not() -> None:
    """STM-R-69 (p.36): in the solo game SET 1 TARGET is free while MAKE STEAM and FLY cost 1 VP; a
    solo SET 1 TARGET step exercises the rule (so a finding there names it), a 2-player one does not."""
    import random

    from rulecraft.coverage import RuleTracer
    from rulecraft.model.steamopolis.actions import SetTarget

    game = make_game("stm")
    tracer = RuleTracer(game)
    for players, expected in ((1, True), (2, False)):
        state, rng = game.new_game(players), random.Random(2)
        for _ in range(400):
            targets = (
                [a for a in game.legal_actions(state) if isinstance(a, SetTarget)] if not game.is_over(state) else []
            )
            if targets and isinstance(game.to_move(state), int):
                break
            state = game.apply(state, game.random_action(state, rng, policy="purposeful"))
        assert targets, "a SET 1 TARGET choice is reached"
        with tracer.tracing() as hit:
            after = game.transition(state, targets[0])
        assert ("STM-R-69" in hit) is expected, players
        assert game.scores(after)[0] == game.scores(state)[0], "SET 1 TARGET costs no VP"


def test_a_deviation_in_a_rare_set_up_is_found_by_the_set_up_sweep_before_any_game() -> None:
    """The planted 'Kain starts with $12' (KAS-R-63: Reginald Kain's $20) shows only when the advanced
    set-up deals that character: the sweep compares dozens of set-ups at their start, so it is found
    before a single whole game is played."""
    bench = Path(__file__).resolve().parents[1] / "bench" / "planted.py"
    report = conform(make_game("kas"), f"{PY} {bench} kas kain-twelve", scenarios=False, max_examples=6, seed=0)
    assert report.findings and report.examples_run == 0
    assert {"KAS-R-63", "KAS-R-12"} & set(report.findings[0].rules)
    assert not report.findings[0].steps or len(report.findings[0].steps) <= 2


class SlowStartPeer(InProcess):
    """A peer that takes 50 ms to start each game: the set-up sweep alone would need seconds."""

    def new_game(
        self, setup: dict[str, Any], readings: dict[str, str] | None = None, components: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        time.sleep(0.05)
        return super().new_game(setup, readings, components)


def test_a_sweep_cut_by_the_safety_cap_leaves_time_for_the_games_and_says_so() -> None:
    """The sweep may take at most half the safety net: on a slow machine it is cut, the games are
    still played and compared, and the run is incomplete, naming the cut sweep."""
    game = make_game("air")
    report = ConformReport("air", "in-process", seed=0)
    differential(
        game,
        SlowStartPeer(make_game("air")),
        ("*",),
        max_examples=500,
        max_steps=40,
        seed=0,
        players=[2, 3, 4],
        report=report,
        deadline=time.monotonic() + 1.0,
    )
    from rulecraft.conformance import differential as D

    assert report.setups_compared < D.SETUP_SWEEP and report.examples_run >= 1
    assert report.stopped == "time" and "set-up sweep" in report.stopped_detail
    assert not report.conformant


def test_a_clean_run_reports_the_set_ups_it_swept() -> None:
    report = conform(make_game("stm"), f"{PY} -m rulecraft.conformance.server stm", scenarios=False, max_examples=2)
    assert not report.findings
    assert 1 <= report.setups_compared <= 16  # at most eight per planned game
    assert f"set-ups swept: {report.setups_compared} distinct set-ups" in markdown(report)


def test_the_set_up_sweep_leaves_the_games_after_it_as_they_would_be(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep is an addition: with or without it, the same seed plays the same games afterwards
    (its probes and action kinds are its own)."""
    from rulecraft.conformance import differential as D

    played: list[tuple[str, int]] = []
    execute = D.Differential.execute

    def recording(self: Any, plan: Any, draws: Any, max_steps: int) -> Any:
        trial = execute(self, plan, draws, max_steps)
        if max_steps != D.SWEEP_STEPS:
            played.append((plan.start.label, len(trial.actions)))
        return trial

    monkeypatch.setattr(D.Differential, "execute", recording)
    runs = []
    for sweep in (0, D.SETUP_SWEEP):
        played.clear()
        monkeypatch.setattr(D, "SETUP_SWEEP", sweep)
        original = D.differential

        def with_sweep(*a: Any, _s: int = sweep, _o: Any = original, **k: Any) -> Any:
            return _o(*a, **k, setup_sweep=_s)

        monkeypatch.setattr("rulecraft.conformance.conform.differential", with_sweep)
        report = conform(make_game("air"), f"{PY} -m rulecraft.conformance.server air", scenarios=False, max_examples=4)
        runs.append((list(played), report.setups_compared))
    (without, none_swept), (with_sweep, swept) = runs
    assert none_swept == 0 and swept > 0
    assert with_sweep == without and len(without) == 4


class NoRankingPeer(InProcess):
    """A protocol-2 implementation that reports its outcome without the optional tie-break counts."""

    def current(self) -> dict[str, Any]:
        reply = super().current()
        if isinstance(reply.get("outcome"), dict):
            reply["outcome"] = {k: v for k, v in reply["outcome"].items() if k != "ranking"}
        return reply


@pytest.mark.parametrize(("peer_cls", "unranked"), [(InProcess, False), (NoRankingPeer, True)])
def test_a_report_says_when_the_tie_break_counts_were_not_compared(peer_cls: type[InProcess], unranked: bool) -> None:
    """The outcome's `ranking` is optional: a run that never saw it says so instead of staying silent."""
    report = ConformReport("aer", "in-process", seed=1, protocol=2)
    differential(
        make_game("aer"),
        peer_cls(make_game("aer")),
        ("*",),
        max_examples=2,
        max_steps=3000,
        seed=1,
        players=[3],
        report=report,
        setup_sweep=0,
    )
    assert report.games_finished == 2 and not report.findings
    assert (report.games_without_ranking == 2) is unranked and (report.games_without_ranking == 0) is not unranked
    assert ("tie-break counts were not compared" in markdown(report)) is unranked


def test_a_finding_from_a_kas_printed_example_replays_on_the_example_s_own_board(tmp_path: Path) -> None:
    """KAS-EX-13 (p.13) is played on the example's own small board (its ``given.map``): against an
    implementation that never pays the toll (KAS-R-38) conform finds it there, and the finding's replay
    document carries that board, so `conform --replay` plays it again (it used to refuse the state:
    layout 'fixture' names no board of the pack) and finds the same deviation; the reference conforms."""
    from rulecraft.scenarios.loader import load_scenario, scenario_files

    planted = f"{PY} {Path(__file__).resolve().parents[1] / 'bench' / 'planted.py'} kas toll"
    example = next(p for p in scenario_files("kas") if p.name.startswith("KAS-EX-13-"))
    report = conform(make_game("kas"), planted, max_examples=0, timeout=10.0, database=None)
    finding = next((f for f in report.findings if f.where.startswith("KAS-EX-13")), None)
    assert finding is not None and "KAS-R-38" in finding.rules, markdown(report)
    document = replay_document("kas", finding)
    assert document["start"]["fixture"] == {"map": load_scenario(example).given["map"]}
    path = tmp_path / "finding.json"
    path.write_text(json.dumps(document), "utf-8")
    again = replay(make_game("kas"), planted, read_replay(str(path), "kas"))
    assert again.findings and "KAS-R-38" in again.findings[0].rules, markdown(again)
    assert "refused" not in again.findings[0].title
    reference = replay(make_game("kas"), f"{PY} -m rulecraft.conformance.server kas", document)
    assert reference.status == "conformant", markdown(reference)
