"""Ambiguity witnesses: where two readings change play, shown by a legal game
that is checked again here, independently of the search that found it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulecraft import htmlpage
from rulecraft.cli import main
from rulecraft.core import Game
from rulecraft.model.steamopolis.actions import ChannelPressure
from rulecraft.registry import game_class, make_game
from rulecraft.scenarios.loader import scenario_files
from rulecraft.witness import (
    AmbiguityResult,
    Budget,
    SolverVerdict,
    ambiguities,
    example_dependence,
    never_consulted,
    search_pair,
    tally,
)

# Bounded by counts; the 120 s cap is a safety net only (a 4 s cap cut searches short on a loaded machine).
QUICK = Budget(seconds=120, max_examples=60, max_steps=120, seed=0)


def replay(game: Game[Any, Any], setup: dict[str, Any], steps: tuple[dict[str, Any], ...]) -> Any:
    """Play a witness's steps, every one checked by the game (an illegal step raises)."""
    from rulecraft.core import Setup

    state = game.start(Setup.from_json(setup))
    for step in steps:
        state = game.apply(state, game.action_from_json(step))
    return state


def amb(game_id: str, amb_id: str) -> Any:
    return game_class(game_id).register[amb_id]


def test_a_setup_reading_differs_right_after_set_up() -> None:
    """AIR-AMB-02: one chip pool against a supply per nation shows in the very first state."""
    result = search_pair("air", amb("air", "AIR-AMB-02"), "pool", QUICK)
    assert result.outcome == "witness" and result.finding is not None
    assert result.finding.steps == () and result.finding.kind == "state"
    assert [f for f, _, _ in result.finding.fields] == ["supplies"]
    setup = result.finding.setup
    assert setup is not None
    ours = replay(make_game("air"), setup, ())
    theirs = replay(make_game("air", readings={"AIR-AMB-02": "pool"}), setup, ())
    assert len(ours.supplies) == setup["players"] and len(theirs.supplies) == 1


def test_a_legal_action_witness_replays_and_the_legal_sets_really_differ() -> None:
    """AIR-AMB-35 'max': the witness is a legal game under both readings, after which
    the default allows throws the other reading forbids."""
    result = search_pair("air", amb("air", "AIR-AMB-35"), "max", QUICK)
    assert result.outcome == "witness" and result.finding is not None
    finding = result.finding
    assert finding.kind == "legal-actions"
    # The full way from a new game (the short game may start from a state the search reached).
    assert finding.origin is not None and finding.path[-len(finding.steps) :] == finding.steps
    default = make_game("air")
    other = make_game("air", readings={"AIR-AMB-35": "max"})
    ours = replay(default, finding.origin, finding.path)
    theirs = replay(other, finding.origin, finding.path)
    assert default.state_to_json(ours) == other.state_to_json(theirs), "the same state under both readings"
    only_default = set(default.legal_actions(ours)) - set(other.legal_actions(theirs))
    assert only_default, "the default reading allows more throws here"
    assert all(other.check(theirs, a) is not None for a in only_default)
    assert finding.svg.startswith("<svg"), "the witness comes with the board"


def test_the_same_seed_gives_the_same_witness() -> None:
    first = search_pair("air", amb("air", "AIR-AMB-35"), "max", QUICK)
    again = search_pair("air", amb("air", "AIR-AMB-35"), "max", QUICK)
    assert first.finding is not None and again.finding is not None
    assert first.finding.steps == again.finding.steps


def test_a_switch_the_model_never_consults_is_proved_never_to_matter() -> None:
    """The Airships model consults every switch that has a second reading, so the proof
    comes from KAS-AMB-08 (team chart data, which the pack supplies either way): the
    Kings of Air and Steam model never names it."""
    game = make_game("kas")
    assert never_consulted(game, "KAS-AMB-08") and not never_consulted(game, "KAS-AMB-01")
    result = search_pair("kas", amb("kas", "KAS-AMB-08"), "team-data", QUICK)
    assert result.outcome == "proved" and "never consults KAS-AMB-08" in result.reason


def test_a_reading_the_model_does_not_play_is_not_modelled_never_harmless() -> None:
    result = search_pair("kas", amb("kas", "KAS-AMB-46"), "per-character", QUICK)
    assert result.outcome == "not-modelled" and "not modelled" in result.reason


def test_a_solver_unknown_is_never_reported_as_proved() -> None:
    """AIR-AMB-27 (winner on a full tie) rarely shows in random games: with an
    'unknown' solver answer and no game differing, the outcome is unknown.  The
    random search alone (its targeted start, a built tie, finds the witness at once)."""

    def no_starts(game: Game[Any, Any]) -> tuple[()]:
        return ()

    def undecided(a: Game[Any, Any], b: Game[Any, Any], timeout: float) -> SolverVerdict:
        return SolverVerdict("unknown", "timeout")

    tiny = Budget(seconds=1, max_examples=3, max_steps=30)
    result = search_pair("air", amb("air", "AIR-AMB-27"), "undefined", tiny, solver=undecided, starts=no_starts)
    assert result.outcome == "unknown" and result.solver is not None

    def refuted(a: Game[Any, Any], b: Game[Any, Any], timeout: float) -> SolverVerdict:
        return SolverVerdict("unsat", "no state of the encoding separates them")

    proved = search_pair("air", amb("air", "AIR-AMB-27"), "undefined", tiny, solver=refuted, starts=no_starts)
    assert proved.outcome == "proved" and proved.reason == "no state of the encoding separates them"

    def broken(a: Game[Any, Any], b: Game[Any, Any], timeout: float) -> SolverVerdict:
        raise RuntimeError("z3 exploded")

    survived = search_pair("air", amb("air", "AIR-AMB-27"), "undefined", tiny, solver=broken, starts=no_starts)
    assert survived.outcome == "unknown" and "z3 exploded" in survived.reason


def test_printed_examples_are_evidence_for_the_readings_they_pass_under() -> None:
    """AIR-AMB-35: AIR-EX-06 (p.4) throws no white although more were usable,
    so it holds only if the number of dice is a choice."""
    runs = example_dependence("air", amb("air", "AIR-AMB-35"))
    result = AmbiguityResult(amb("air", "AIR-AMB-35"), (), runs)
    assert "AIR-EX-06" in result.evidence().get("choice", [])
    assert all(run.passed for run in runs if run.reading == "choice"), "every example holds under the default"


def test_a_kings_of_air_and_steam_setup_reading_has_a_witness() -> None:
    """KAS-AMB-47: the other board set for 3-5 players is a different map from the start."""
    result = search_pair("kas", amb("kas", "KAS-AMB-47"), "ABCFG", QUICK, players=[4])
    assert result.outcome == "witness" and result.finding is not None
    assert result.finding.steps == ()
    assert "layout" in {f for f, _, _ in result.finding.fields}


def test_unknown_ambiguity_ids_are_refused() -> None:
    with pytest.raises(Exception, match="AIR-AMB-99"):
        ambiguities("air", only=["AIR-AMB-99"], budget=QUICK)


def test_cli_json_markdown_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    md, page = tmp_path / "amb.md", tmp_path / "amb.html"
    code = main(
        [
            "ambiguities",
            "air",
            "--only",
            "AIR-AMB-02",
            "--seconds",
            "3",
            "--json",
            "--quiet",
            "--report",
            str(md),
            "--html",
            str(page),
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {a["id"]: a for a in data["ambiguities"]}
    assert by_id["AIR-AMB-02"]["outcome"] == "witness"
    assert by_id["AIR-AMB-02"]["pairs"][0]["witness"]["fields"][0]["field"] == "supplies"
    assert data["tally"]["witness"] == 1
    text = md.read_text("utf-8")
    assert "## AIR-AMB-02 (p.2,4): witness found" in text and "| supplies |" in text
    assert "<svg" in page.read_text("utf-8")
    # The HTML summary is the Markdown's own (it was built from no results: "0 registered ambiguities").
    head = text.split("\n| ambiguity")[0]
    assert "# Airships: 1 registered ambiguities" in head and "- outcome: 1 witness found" in head
    rendered = page.read_text("utf-8")
    assert htmlpage.render(head) in rendered  # the same head, rendered (issue 20)
    assert "<td>supplies</td>" in rendered and "| supplies |" not in rendered  # a table, not pipes
    assert main(["ambiguities", "air", "--only", "AIR-AMB-99", "--quiet"]) not in (0, 1)
    # Every Airships reading is modelled; a reading the model refuses shows in Kings of Air and Steam.
    code = main(
        ["ambiguities", "kas", "--only", "KAS-AMB-46", "--only", "KAS-AMB-08", "--seconds", "3", "--json", "--quiet"]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {a["id"]: a for a in data["ambiguities"]}
    assert by_id["KAS-AMB-46"]["outcome"] == "not-modelled"
    assert [(p["reading"], p["outcome"]) for p in by_id["KAS-AMB-46"]["pairs"]] == [("per-character", "not-modelled")]
    assert by_id["KAS-AMB-08"]["outcome"] == "proved"
    assert data["tally"]["not-modelled"] == 1 and data["tally"]["proved"] == 1
    # A reading not modelled is never outweighed by a proof of another reading of the same switch.
    refused = search_pair("kas", amb("kas", "KAS-AMB-46"), "per-character", QUICK)
    proved = search_pair("kas", amb("kas", "KAS-AMB-08"), "team-data", QUICK)
    assert AmbiguityResult(amb("kas", "KAS-AMB-46"), (refused, proved)).outcome == "not-modelled"


def test_a_reading_of_the_player_count_differs_at_set_up() -> None:
    """AIR-AMB-28 'one': a one-player game starts under it and is refused under the default (AIR-R-01)."""
    result = search_pair("air", amb("air", "AIR-AMB-28"), "one", QUICK)
    assert result.outcome == "witness" and result.finding is not None
    assert result.finding.kind == "set-up" and result.finding.setup == {"players": 1, "first_seat": 0, "options": {}}
    assert "AIR-R-01" in str(result.finding.theirs) or "AIR-R-01" in str(result.finding.ours)


def test_a_question_that_arises_under_another_reading_is_searched_there() -> None:
    """AIR-AMB-03 (which chips are in play) matters only with a pooled supply (AIR-AMB-02 'pool')."""
    question = amb("air", "AIR-AMB-03")
    assert question.context == {"AIR-AMB-02": "pool"}
    result = search_pair("air", question, "all", QUICK)
    assert result.outcome == "witness" and result.finding is not None
    assert result.finding.steps == () and "supplies" in result.finding.title


def test_a_single_reading_gap_is_settled_not_proved() -> None:
    """AIR-AMB-30 (no turn limit) is a gap with one registered reading: nothing to compare."""
    (result,) = ambiguities("air", only=["AIR-AMB-30"], budget=QUICK, examples=False)
    assert result.pairs == () and result.outcome == "settled"


def test_without_a_search_an_ambiguity_with_readings_gets_no_verdict() -> None:
    """--no-search: AIR-AMB-07 has readings to compare and nobody compared them; saying 'settled'
    (one reading, nothing to compare) would be a verdict from a search that did not run."""
    results = ambiguities("air", only=["AIR-AMB-07", "AIR-AMB-30"], budget=QUICK, search=False, examples=False)
    by_id = {r.ambiguity.id: r for r in results}
    assert len(by_id["AIR-AMB-07"].ambiguity.readings) > 1
    assert by_id["AIR-AMB-07"].pairs == () and by_id["AIR-AMB-07"].outcome == "not-searched"
    assert by_id["AIR-AMB-30"].outcome == "settled"
    assert tally(results)["not-searched"] == 1 and tally(results)["proved"] == 0


def test_a_printed_example_state_is_a_starting_point_for_rare_situations() -> None:
    """KAS-AMB-17 'cash-only' (tolls paid from money held before the delivery) shows only when a
    shipment's toll exceeds the shipper's cash; the printed shipping examples (KAS-EX-13, p.13) hold
    such states.  Whole games reach one too now; either way the witness names where it starts."""
    # Bounded by a count (seed 0 finds a witness within 50 games), not by the clock: a 20 s cap cut the
    # search short on a loaded machine; the 300 s cap is only a safety net.
    budget = Budget(seconds=300, max_examples=50, max_steps=300)
    result = search_pair("kas", amb("kas", "KAS-AMB-17"), "cash-only", budget)
    assert result.outcome == "witness" and result.finding is not None
    where = result.finding.where
    assert (where.startswith("KAS-EX-") and "given state" in where) or "a new game" in where, where


def test_a_steamopolis_witness_replays_and_the_legal_sets_really_differ() -> None:
    """STM-AMB-06 'forbidden' (p.13, p.36): after the witness game the default lets a stone channel
    into an empty machine-room position, which the other reading refuses."""
    # A Steamopolis game spends ~40 steps on its set-up deals: room for them and a first turn.
    budget = Budget(seconds=15, max_examples=10_000, max_steps=400)
    result = search_pair("stm", amb("stm", "STM-AMB-06"), "forbidden", budget)
    assert result.outcome == "witness" and result.finding is not None
    finding = result.finding
    setup = finding.origin  # the full way from a new game
    assert setup is not None and finding.kind == "legal-actions"
    default = make_game("stm")
    other = make_game("stm", readings={"STM-AMB-06": "forbidden"})
    ours = replay(default, setup, finding.path)
    theirs = replay(other, setup, finding.path)
    assert ours == theirs  # the same legal game under both readings
    only_default = set(default.legal_actions(ours)) - set(other.legal_actions(theirs))
    assert only_default and all(isinstance(a, ChannelPressure) for a in only_default)
    assert all(other.check(theirs, a) is not None for a in only_default)


def test_a_witness_search_reports_the_rule_coverage_of_its_games() -> None:
    """The same coverage-guided search as conform, with the same figure in the report."""
    from rulecraft.witness_report import _pair_markdown

    result = search_pair("air", amb("air", "AIR-AMB-35"), "max", QUICK)
    assert result.games >= 1 and result.rules_total == 51
    assert 0 < len(result.rules_exercised) <= 51
    assert result.coverage == f"{len(result.rules_exercised)}/51 rule IDs"
    assert result.to_json()["rules_total"] == 51
    from rulecraft.witness import AmbiguityResult

    text = "\n".join(_pair_markdown(AmbiguityResult(amb("air", "AIR-AMB-35"), (result,)), result))
    assert f"rule coverage {result.coverage}" in text


def test_a_search_the_safety_cap_stopped_says_so() -> None:
    """The budget is a count of games; --seconds is a safety cap whose biting is reported, never
    silently taken as 'nothing to find'."""
    result = search_pair("air", amb("air", "AIR-AMB-35"), "max", Budget(seconds=1e-6, max_examples=60, max_steps=120))
    assert result.outcome == "not-found" and "cut short by the" in result.reason


def test_the_printed_examples_read_once_give_what_reading_them_per_ambiguity_gives() -> None:
    """`ambiguities` reads each printed example once for every ambiguity (it read them once per
    ambiguity: 792 file reads for Airships); the runs are the same either way."""
    from rulecraft.witness import printed_examples

    printed = printed_examples("air")
    assert len(printed) == len(list(scenario_files("air")))
    for amb_id in ("AIR-AMB-35", "AIR-AMB-15", "AIR-AMB-22"):
        once = example_dependence("air", amb("air", amb_id), examples=printed)
        assert once == example_dependence("air", amb("air", amb_id)) and once


def test_a_witness_is_worded_under_the_readings_the_run_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20 (each step's words come from the ruleset that played it): a run under --reading
    AIR-AMB-08=no keeps that reading on both sides, so the other reading's steps are worded by a game
    configured with it too, and a results file (shards) keeps it for the merged report."""
    from rulecraft import registry, results, witness_report

    pair = search_pair("air", amb("air", "AIR-AMB-35"), "max", QUICK, base={"AIR-AMB-08": "no"})
    assert pair.outcome == "witness" and pair.base == (("AIR-AMB-08", "no"),)
    built: list[dict[str, str]] = []
    real = registry.make_game

    def recording(game_id: str, **options: Any) -> Game[Any, Any]:
        built.append(dict(options.get("readings") or {}))
        return real(game_id, **options)

    monkeypatch.setattr(registry, "make_game", recording)
    words = witness_report.reading_words("air", "AIR-AMB-35", pair)
    assert built == [{"AIR-AMB-08": "no", "AIR-AMB-35": "max"}]
    assert words and words[0] is not None
    data = json.loads(json.dumps(results.pair_json(pair)))
    assert results.pair_from(results.Field("results.json", "pair", data)).base == pair.base


def test_the_cap_counts_from_the_search_not_from_the_analysis_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The per-game analysis a first pair pays (the model's rule maps, built once) is not taken from its
    cap: on a clock that moves only while the maps are built (50 s against a 10 s cap), AIR-AMB-35
    'max' is still searched to its witness, and the pair's reported time counts the analysis."""
    from rulecraft.coverage import rule_map as real

    clock = [1000.0]
    monkeypatch.setattr("rulecraft.witness.time.monotonic", lambda: clock[0])

    def slow_rule_map(cls: Any) -> Any:
        clock[0] += 50.0
        return real(cls)

    monkeypatch.setattr("rulecraft.witness.rule_map", slow_rule_map)
    capped = Budget(seconds=10, max_examples=60, max_steps=120, seed=0)
    result = search_pair("air", amb("air", "AIR-AMB-35"), "max", capped)
    assert result.outcome == "witness", result.reason
    assert result.seconds >= 50.0
