"""The HTML reports and the explorer as a reader sees them (issue 20, looked at in headless Chromium at
1280 px, session 11): what the screenshots showed wrong, each pinned here.

- A conform finding's table listed fields that do not differ (``players[0].hold [0, 0, 0, 0, 0]`` on both
  sides): the model's state holds tuples, the implementation's JSON lists, and ``(0, 0) != [0, 0]``.  The
  explorer marked the same fields as differing.
- Findings from two printed examples with the same step had the same heading.
- A finding from a kas printed example played on its own small board (the scenario's ``given.map``,
  layout 'fixture'): the report's link into the explorer was refused (the document lacked the board)
  and the report drew no board after its steps.
- A board drawn twice (a finding's last step and "the state where it differs") was written twice: the
  ambiguities report of Airships was 2.4 MB.

Expected values come from the rulebooks and the documents themselves: KAS-EX-13 (Kings of Air and Steam
p.13) ships 3 luxury over lines A, C, D to seat 0's own depot at (4,0), paying seat 2 a toll (KAS-R-38);
AIR-EX-17 (Airships p.6) pays for an additional go (AIR-R-42, p.4) after its first attempt.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from rulecraft import explore, htmlpage
from rulecraft.conformance.conform import ConformReport
from rulecraft.conformance.findings import Finding
from rulecraft.conformance.report import html_report, markdown_finding
from rulecraft.registry import make_game
from rulecraft.scenarios.loader import load_scenario, scenario_files
from rulecraft.tools import tools

SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.S)


def _given(game: Any, scenario_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A printed example's given state (as JSON) and its steps (the ``do``/``chance`` actions)."""
    path = next(p for p in scenario_files(game.id) if p.stem.startswith(f"{scenario_id}-"))
    scenario = load_scenario(path)
    state = tools(game).scenario_state(scenario.given)
    steps = [
        game.action_to_json(game.action_from_json(s.get("do") or s["chance"]))
        for s in scenario.steps
        if "do" in s or "chance" in s
    ]
    return game.state_to_json(state), steps


def _kas_ex13_finding() -> tuple[Finding, dict[str, Any]]:
    """The toll finding of KAS-EX-13 (p.13) as conform reports it against an implementation that never
    pays the toll (KAS-R-38): seat 0 keeps the $3 it owes seat 2 (the digest's 'toll' deviation).  Also
    the reference's state after the step."""
    game: Any = make_game("kas")
    given, steps = _given(game, "KAS-EX-13")
    assert given["layout"] == "fixture"  # the example's own board
    game.load_fixture(
        {"map": load_scenario(next(p for p in scenario_files("kas") if "KAS-EX-13-" in p.name)).given["map"]}
    )
    after = game.state_to_json(game.transition(game.state_from_json(given), game.action_from_json(steps[0])))
    ours, theirs = after["players"], json.loads(json.dumps(after["players"]))
    theirs[0]["money"] += 3
    theirs[2]["money"] -= 3
    finding = Finding(
        "state",
        "after seat 0 ships 3 luxury: the states differ in players",
        "KAS-EX-13 (KAS-EX-13-ship-goods-five-options.yaml, p.13)",
        step=1,
        steps=(steps[0],),
        step_text=("seat 0 ships 3 luxury",),
        start_state=given,
        fields=(("players", ours, theirs),),
        rules=("KAS-R-38",),
    )
    return finding, after


def test_a_finding_table_lists_only_the_fields_that_differ() -> None:
    """KAS-R-38 (p.13): only the two players' money differs; their holds (tuples in the model's state,
    lists in the implementation's JSON) are equal and are not rows, in the report or the explorer."""
    finding, after = _kas_ex13_finding()
    assert isinstance(after["players"][0]["hold"], (list, tuple))
    text = markdown_finding(finding)
    rows = re.findall(r"^\| (players\S*) \|", text, re.M)
    assert rows == ["players[0].money", "players[2].money"]
    assert "Shortest failing game (1 step):" in text  # one step, not "1 steps"
    ours, theirs = finding.fields[0][1], finding.fields[0][2]
    assert explore.diff_paths({"players": ours}, {"players": theirs}) == ["players[0].money", "players[2].money"]


def test_findings_of_two_printed_examples_have_headings_that_tell_them_apart() -> None:
    """The same step and title from KAS-EX-14 and KAS-EX-15 (both p.14): each heading names its example."""
    one = Finding("state", "after seat 0 ships 3 food: the states differ in players", "KAS-EX-14 (x.yaml, p.14)")
    two = Finding("state", one.title, "KAS-EX-15 (y.yaml, p.14)")
    report = ConformReport("kas", "an implementation", findings=[one, two])
    page = html_report(report)
    headings = [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h2>(.*?)</h2>", page)]  # the IDs are links
    assert f"1. state: {one.title} (in KAS-EX-14)" in headings
    assert f"2. state: {one.title} (in KAS-EX-15)" in headings
    # A finding of a random game names no example.
    assert markdown_finding(Finding("state", "t", "differential")).splitlines()[0] == "### state: t"


def test_a_finding_on_a_printed_example_board_opens_in_the_explorer_and_draws_its_steps(tmp_path: Path) -> None:
    """KAS-EX-13 (p.13) is played on its own small board: the finding's document carries that board, the
    explorer opens it (the report's link), and the report draws the board after the step."""
    finding, after = _kas_ex13_finding()
    document = explore.finding_document("kas", finding)
    assert document["start"]["fixture"] == {
        "map": load_scenario(next(p for p in scenario_files("kas") if "KAS-EX-13-" in p.name)).given["map"]
    }
    path = tmp_path / "finding-1.json"
    path.write_text(json.dumps(document), "utf-8")
    trace = explore.finding_trace("kas", str(path))
    replayed = make_game("kas").state_to_json(trace.left.states[-1])
    assert explore.plain_json(replayed["players"]) == explore.plain_json(after["players"])
    # The report: the board after step 1 (seat 0 on its own depot's side of the board), captioned.
    page = html_report(ConformReport("kas", "an implementation", findings=[finding]))
    folded = page.split("<details class='steps'>", 1)[1].split("</details>", 1)[0]
    assert "after step 1: " in folded and folded.count("<svg") == 1
    # A random game's finding (from a set-up) carries no board.
    assert (
        "fixture"
        not in explore.finding_document("kas", Finding("state", "t", "differential", setup={"players": 2}))["start"]
    )


def test_a_board_drawn_twice_is_written_once_and_a_small_report_stays_small() -> None:
    """AIR-EX-17 (p.6), its first three steps (the third an additional go for 3 chips, AIR-R-42 p.4), as a
    finding whose "state where it differs" is the board after step 3, reported twice: 8 boards are
    shown (3 steps and the state, twice), 3 differ, and each is written once."""
    game: Any = make_game("air")
    given, steps = _given(game, "AIR-EX-17")
    state = game.state_from_json(given)
    boards = []
    for data in steps[:3]:
        state = game.transition(state, game.action_from_json(data))
        boards.append(game.picture(state))
    last = boards[-1]
    assert last and len(set(boards)) == 3
    finding = Finding("state", "t", "AIR-EX-17", steps=tuple(steps[:3]), start_state=given, svg=last)
    page = html_report(ConformReport("air", "in-process", findings=[finding, finding]))
    shown = SVG.findall(page)
    assert len(shown) == 8 and all("<use href='#picture-" in svg for svg in shown)
    assert page.count("<symbol id=") == 3
    assert page.count("<rect") == sum(board.count("<rect") for board in boards)  # each drawing once
    # Each board keeps its size and tooltip: the <svg> element as drawn, holding one <use>.
    opening = last.split(">", 1)[0]
    assert sum(svg.startswith(opening) for svg in shown) == 8
    # The bound: 3 boards of about 30 kB and the text, where the 8 boards alone were 8 times that.
    assert len(page) < 3 * len(last) + 40_000


def test_share_pictures_leaves_a_picture_seen_once_as_it_is() -> None:
    body = "<p>a</p><svg viewBox='0 0 2 2'><title>one</title><rect/></svg><svg viewBox='0 0 3 3'><circle/></svg>"
    assert htmlpage.share_pictures(body) == body
    twice = body + "<svg viewBox='0 0 3 3'><circle/></svg>"
    shared = htmlpage.share_pictures(twice)
    assert shared.count("<circle/>") == 1 and shared.count("<use href='#picture-0'/>") == 2
    assert shared.endswith(
        "<svg viewBox='0 0 3 3'><defs><symbol id='picture-0' viewBox='0 0 3 3'><circle/></symbol></defs>"
        "<use href='#picture-0'/></svg><svg viewBox='0 0 3 3'><use href='#picture-0'/></svg>"
    )
    assert shared.count("<svg") == twice.count("<svg")
    assert "<svg viewBox='0 0 2 2'><title>one</title><rect/></svg>" in shared


def test_compact_pictures_turns_shared_presentation_attributes_into_classes_inside_pictures_only() -> None:
    die = '<rect class="die" x="{}" y="0" width="10" height="10" fill="#ffffff" stroke="#222222" stroke-width="0.8"/>'
    picture = (
        "<svg viewBox='0 0 40 10'>" + "".join(die.format(x) for x in (0, 12, 24)) + '<text font-size="9">a</text></svg>'
    )
    outside = '<p>fill="#ffffff" stroke="#222222"</p>'
    body, css = htmlpage.compact_pictures(outside + picture)
    assert body.startswith(outside)
    assert body.count('<rect class="die p-0" x=') == 3 and 'fill="#ffffff"' not in body[len(outside) :]
    assert css == ".p-0{fill:#ffffff;stroke:#222222;stroke-width:0.8px}"
    assert '<text font-size="9">a</text>' in body  # one shape alone keeps its attribute


def test_an_errata_detail_too_long_to_show_is_cut_at_a_word_and_says_so() -> None:
    """AIR-EX-06 (Airships p.4) under a changed AIR-R-42 cost: its queries encode the printed numbers, and
    the report lists it as partly unchecked with a detail cut to 200 characters: at a word, marked."""
    from rulecraft import errata_report

    detail = (
        "steps[0].expect[0]: the Airships queries are encoded for the printed rule parameters; changed: "
        "{'extra_go_cost': 2}; expect[9]: the Airships queries are encoded for the printed rule parameters; "
        "changed: {'extra_go_cost': 2}"
    )
    cut = errata_report.clip(detail, 200)
    assert cut.endswith(" …") and detail.startswith(cut[:-2]) and len(cut) <= 202
    assert cut[:-2].endswith("parameters")  # the last whole clause, not "...; change"
    assert errata_report.clip("short", 200) == "short"


def test_a_finding_says_the_replay_document_is_below_only_where_it_is() -> None:
    """A conform report prints each finding's replay document under it; a witness (an ambiguities or
    errata report) prints none, and must not send the reader looking for it.  AIR-EX-17 (p.6)."""
    given = _given(make_game("air"), "AIR-EX-17")[0]
    finding = Finding("state", "t", "AIR-EX-17", start_state=given)
    conform_text = markdown_finding(finding, game="air")
    assert "- starts from: the given state in the replay document below" in conform_text
    assert '"rulecraft_replay": 1' in conform_text
    witness_text = markdown_finding(finding)
    assert "replay document" not in witness_text and "- starts from: a given state, not a set-up" in witness_text


def test_a_witness_whose_set_up_one_reading_refuses_opens_in_the_explorer(tmp_path: Path) -> None:
    """AIR-AMB-28 'one' lets a single player play; the printed rules refuse it (AIR-R-01, Airships p.2:
    2 to 4 players).  The ambiguities report links to that witness; the explorer used to leave it out
    (a broken link).  It opens: the reading that plays it on the left, the refusal and its rule on the
    right."""
    document = {
        "rulecraft_explore": 1,
        "kind": "witness",
        "game": "air",
        "title": "AIR-AMB-28: two against one: a game of 1 player(s) is refused",
        "ambiguity": "AIR-AMB-28",
        "readings": ["two", "one"],
        "base": {},
        "start": {"setup": {"players": 1, "first_seat": 0, "options": {}}},
        "steps": [],
        "differences": [],
        "rules": [],
    }
    (tmp_path / "amb.witness-AIR-AMB-28-one.explore.json").write_text(json.dumps(document), "utf-8")
    sources, left_out = explore.report_sources("air", tmp_path)
    assert left_out == [] and len(sources) == 1
    trace = explore.witness_trace("air", str(tmp_path / "amb.witness-AIR-AMB-28-one.explore.json"))
    shown = explore.step_json(trace, 0)
    assert shown["left"]["label"] == "reading one" and len(shown["left"]["state"]["boards"]) == 1
    refused = shown["right"]["refused"]
    assert shown["right"]["label"] == "reading two" and refused["step"] == 0
    assert refused["rule"] == "AIR-R-01" and refused["page"] == "2" and "1 requested" in refused["reason"]


def test_the_explorer_heading_of_a_divergence_words_the_step_as_each_ruleset_does(tmp_path: Path) -> None:
    """AIR-EX-17 (Airships p.6) under the two-chip variant: the printed rules pay 3 chips for an
    additional go (AIR-R-42, p.4), the variant 2; the document the errata report writes for the
    explorer quotes both, as the report's own heading does."""
    from test_report_html import _divergence

    from rulecraft import errata_report

    errata_report.html_file(_divergence(), tmp_path / "errata.html")
    document = json.loads((tmp_path / "errata.divergence.explore.json").read_text("utf-8"))
    assert document["title"] == (
        "An additional go costs 2 chips: after seat 0 (USA) pays 3 chips for an additional go "
        "(variant: seat 0 (USA) pays 2 chips for an additional go): the states differ in boards, supplies"
    )


def _parting(page: str, heading: str) -> list[tuple[str, str]]:
    """The figures under "HEADING: the state where they part ways": (caption, what it shows)."""
    part = page.split(f"<h5>{heading}: the state where they part ways</h5>", 1)[1]
    sides = part.split("<div class='sides'>", 1)[1]
    figures = re.findall(r"<figure class='side'><figcaption>(.*?)</figcaption>(.*?)</figure>", sides, re.S)[:2]
    # A board drawn earlier in the page (the last step's) is a <use> of its <symbol>: drawn here as such.
    symbols = dict(re.findall(r"<symbol id='([^']+)'[^>]*>(.*?)</symbol>", page, re.S))
    return [
        (caption, re.sub(r"<use href='#([^']+)'/>", lambda m: symbols[m.group(1)], shown)) for caption, shown in figures
    ]


def _witness_page(game: Any, amb_id: str, default: str, reading: str, finding: Finding) -> str:
    """The ambiguities report of one witness of ``amb_id``: ``reading`` against ``default``."""
    from rulecraft.witness import AmbiguityResult, Budget, PairResult
    from rulecraft.witness_report import html_report as ambiguities_html

    amb = game.register[amb_id]
    pair = PairResult(amb.id, default, reading, "witness", "found", finding=finding)
    return ambiguities_html("air", "Airships", [AmbiguityResult(amb, (pair,))], Budget(1, 5, None))


def test_where_a_witness_parts_ways_both_readings_boards_are_shown() -> None:
    """AIR-AMB-22 from AIR-EX-17's given state (Airships p.6): seat 0 pays 3 chips for an additional go
    (AIR-R-42, p.4).  Reading 'full' (the default: "another complete go ... both steps", p.4 [EN])
    starts the go again at its first step, the reveal; 'attempt-only' repeats step 2, the attempt.  The
    report shows both boards at that state, each under its reading's name (it showed the default's)."""
    game: Any = make_game("air")
    given, steps = _given(game, "AIR-EX-17")
    finding = Finding("state", "the states differ in phase", "AIR-EX-17", steps=tuple(steps[:3]), start_state=given)
    page = _witness_page(game, "AIR-AMB-22", "full", "attempt-only", finding)
    (full, one), (attempt, other) = _parting(page, "full against attempt-only")
    assert full == "reading full (default)" and attempt == "reading attempt-only"
    assert "phase reveal</text>" in one and "phase attempt" not in one
    assert "phase attempt</text>" in other and "phase reveal" not in other
    assert one.count("<svg") == 1 and other.count("<svg") == 1


def test_a_reading_that_refuses_where_the_witness_goes_shows_its_refusal_and_rule() -> None:
    """AIR-AMB-28: the printed rules (reading 'two') refuse a game of 1 player (AIR-R-01, Airships p.2:
    2 to 4 companies), reading 'one' plays it: the default's side shows the refusal with its rule
    (linked to the appendix), the other the board.  AIR-AMB-35 'max' (all usable dice thrown, AIR-R-30
    p.3-4) refuses AIR-EX-17's first step, an attempt throwing one die of several: its side says so."""
    game: Any = make_game("air")
    setup = {"players": 1, "first_seat": 0, "options": {}}
    one_player = Finding("set-up", "a game of 1 player(s) is refused", "differential", ours="refused", setup=setup)
    page = _witness_page(game, "AIR-AMB-28", "two", "one", one_player)
    (two, refused), (one, board) = _parting(page, "two against one")
    assert two == "reading two (default)" and "<svg" not in refused
    assert refused.startswith("<p class='refusal'>refused the set-up: <a class='rule' href='#AIR-R-01'")
    assert "(p.2)" in refused and "<tr id='AIR-R-01'>" in page
    assert one == "reading one" and board.count("<svg") == 1
    given, steps = _given(game, "AIR-EX-17")
    finding = Finding("state", "t", "AIR-EX-17", steps=tuple(steps[:3]), start_state=given)
    page = _witness_page(game, "AIR-AMB-35", game.register["AIR-AMB-35"].default, "max", finding)
    (choice, board), (most, refused) = _parting(page, "choice against max")
    assert choice == "reading choice (default)" and board.count("<svg") == 1
    assert most == "reading max" and "<svg" not in refused
    assert refused.startswith("<p class='refusal'>refused step 1: <a class='rule' href='#AIR-R-30'")
