"""The HTML reports of errata, ambiguities and conform (issue 20, part 1): every rule ID in a step's
words, a refusal or a finding links to the rule's text in an appendix of the same page (a report is
mailed around: no server), each step is worded by the ruleset that played it, the summary is the
Markdown's of the same run, and a finding from a printed example is worded and replayable.

Expected values come from the rulebook: AIR-R-42 (Airships p.4) makes an additional go cost 3 chips,
the variant examples/errata/airships-additional-go-2-chips.yaml makes it 2; AIR-R-27 (p.3) is the
legality rule a throw of too few dice breaks; AIR-EX-17 (p.6) pays for an additional go after its
first attempt.  Rule pages and statements are the digest's (the rule catalogue).
"""

from __future__ import annotations

import html
import random
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

from rulecraft import errata_report, htmlpage, witness_report
from rulecraft.conformance.conform import ConformReport, conform
from rulecraft.conformance.findings import Finding
from rulecraft.conformance.report import html_report as conform_html
from rulecraft.conformance.report import markdown as conform_markdown
from rulecraft.conformance.report import markdown_finding
from rulecraft.core import cite
from rulecraft.errata import ErrataReport, load_variant
from rulecraft.registry import make_game
from rulecraft.scenarios.loader import load_scenario, scenario_files
from rulecraft.tools import tools
from rulecraft.witness import AmbiguityResult, Budget, PairResult

ROOT = Path(__file__).resolve().parent.parent
TWO_CHIPS = ROOT / "examples" / "errata" / "airships-additional-go-2-chips.yaml"
LINK = re.compile(r"<a class='rule' href='#([A-Z]+-[A-Z]+-\d+)'")


def _ex17() -> tuple[Any, list[dict[str, Any]]]:
    """AIR-EX-17 (p.6): its given state and its first three steps (an attempt, its throw, and an
    additional go paid for by AIR-R-42)."""
    game = make_game("air")
    path = next(p for p in scenario_files("air") if p.stem.startswith("AIR-EX-17-"))
    scenario = load_scenario(path)
    steps = [
        game.action_to_json(game.action_from_json(step.get("do") or step["chance"])) for step in scenario.steps[:3]
    ]
    assert steps[2] == {"kind": "extra-go"}
    return game.state_to_json(tools(game).scenario_state(scenario.given)), steps


def _divergence() -> ErrataReport:
    """The two-chip variant's report where play changes at AIR-EX-17's additional go."""
    variant = load_variant(TWO_CHIPS)
    given, steps = _ex17()
    finding = Finding(
        "state",
        "after seat 0 (USA) pays 3 chips for an additional go: the states differ in boards, supplies",
        "AIR-EX-17",
        steps=tuple(steps),
        step_text=("one", "two", "seat 0 (USA) pays 3 chips for an additional go"),
        rules=("AIR-R-42", "AIR-R-50"),
        start_state=given,
    )
    pair = PairResult(variant.name, "printed", variant.name, "witness", finding.title, finding=finding)
    return ErrataReport(variant, witness=pair)


def _rows(page: str) -> dict[str, str]:
    """The appendix's rows: rule ID -> the row's text."""
    appendix = page.split("<section id='rules-cited'>", 1)[1]
    return {
        rule_id: html.unescape(re.sub(r"<[^>]+>", " ", row))
        for rule_id, row in re.findall(r"<tr id='([^']+)'>(.*?)</tr>", appendix)
    }


def _assert_links_resolve(page: str, expected: set[str]) -> None:
    """Each expected rule ID is a link to a row of the appendix that carries its page and statement,
    and every link has its row."""
    catalogue = make_game("air").catalogue
    linked = set(LINK.findall(page))
    assert expected <= linked
    rows = _rows(page)
    assert set(rows) == linked
    for rule_id in linked:
        rule = catalogue[rule_id]
        assert cite(rule.page) in rows[rule_id] and rule.statement in rows[rule_id]


def test_link_rules_links_catalogue_ids_in_text_only() -> None:
    """AIR-R-42 (p.4) in the text and AIR-R-30 in an evidence block link; the same IDs in an attribute,
    an existing link, a saved document (in <details>) or a drawing stay as they are; an example ID
    (AIR-EX-17) and an unknown rule ID are not rules of the catalogue."""
    catalogue = make_game("air").catalogue
    cited: dict[str, Any] = {}
    fragment = (
        "<p title='AIR-R-27'>pay per AIR-R-42; see AIR-EX-17 and AIR-R-99</p><pre>refused: AIR-R-30</pre>"
        '<details><pre>{"rules": ["AIR-R-43"]}</pre></details><a href="/x">AIR-R-44</a>'
        "<svg><text>AIR-R-45</text></svg>"
    )
    out = htmlpage.link_rules(fragment, catalogue, cited)
    assert LINK.findall(out) == ["AIR-R-42", "AIR-R-30"]
    assert "title='AIR-R-27'" in out and '["AIR-R-43"]' in out and ">AIR-R-44</a>" in out
    assert "AIR-EX-17 and AIR-R-99" in out
    assert list(cited) == ["AIR-R-42", "AIR-R-30"] and cited["AIR-R-42"].page == "4"


def test_the_explorer_rules_page_and_a_report_appendix_share_their_anchors() -> None:
    from rulecraft import explore

    game = make_game("air")
    rules_page = explore.rules_page(game)
    rule = game.catalogue["AIR-R-42"]
    assert htmlpage.rule_rows([rule]) in rules_page  # the same row, anchored by the rule ID
    assert f"<tr id='{rule.id}'>" in htmlpage.appendix("air", [rule])


def test_an_errata_report_links_its_rules_and_words_each_step_by_the_ruleset_that_played_it() -> None:
    report = _divergence()
    text = errata_report.markdown(report)
    # AIR-R-42: 3 chips under the printed rules; the variant's own words say 2 (its parameter).
    step = next(line for line in text.splitlines() if line.startswith("3. "))
    assert "printed rules: seat 0 (USA) pays 3 chips" in step and "variant: seat 0 (USA) pays 2 chips" in step
    assert errata_report.variant_words(report)[2] == "seat 0 (USA) pays 2 chips for an additional go"
    # The finding's title and the summary line quote that step: with the variant's words beside them.
    both = "pays 3 chips for an additional go (variant: seat 0 (USA) pays 2 chips for an additional go):"
    assert f"### state: after seat 0 (USA) {both}" in text and f"- witness: after seat 0 (USA) {both}" in text
    page = errata_report.html_report(report)
    _assert_links_resolve(page, {"AIR-R-42", "AIR-R-50"})
    assert page.count("<h1>") == 1  # the Markdown's title, not a second one above it
    for section in text.split("\n## "):  # every part of the Markdown of the same run, rendered
        if "Where play changes" not in section:  # (that one is split round the board picture)
            body = section if section.startswith("# ") else "## " + section
            assert htmlpage.link_rules(htmlpage.render(body), make_game("air").catalogue, {}) in page


def test_a_conform_report_links_the_rules_of_a_refusal_and_numbers_its_findings() -> None:
    """A refused legal action cites AIR-R-27 (p.3) in its evidence; two findings with the same title
    are told apart by their numbers, as in the Markdown."""
    finding = Finding(
        "legal-actions",
        "the implementation refuses a legal attempt",
        "differential",
        steps=({"kind": "no-attempt"},),
        step_text=("seat 0 (USA) makes no attempt",),
        rules=("AIR-R-22",),
        setup={"players": 2},
        evidence="refused: AIR-R-27 too few dice",
    )
    report = ConformReport("air", "in-process", findings=[finding, finding])
    page = conform_html(report)
    _assert_links_resolve(page, {"AIR-R-22", "AIR-R-27"})
    assert "<h2>1. legal-actions:" in page and "<h2>2. legal-actions:" in page
    assert "id='finding-1'" in page and "id='finding-2'" in page
    head = conform_markdown(report).split("\n### ")[0]
    assert htmlpage.render(head) in page  # the summary is the Markdown's of the same run


def test_an_ambiguities_report_summary_is_the_markdown_of_the_same_run_and_links_its_rules() -> None:
    game = make_game("air")
    amb = game.register["AIR-AMB-35"]
    steps = _ex17()[1]
    finding = Finding("state", "a difference", "AIR-EX-17", steps=tuple(steps[:2]), rules=("AIR-R-30",))
    pair = PairResult(amb.id, amb.default, "max", "witness", "found", finding=finding)
    results = [AmbiguityResult(amb, (pair,))]
    budget = Budget(seconds=1, max_examples=5, max_steps=None)
    text = witness_report.markdown("air", "Airships", results, budget)
    page = witness_report.html_report("air", "Airships", results, budget)
    head = text.split("\n| ambiguity")[0]
    assert htmlpage.render(head) in page
    assert "1 registered ambiguities" in page and "None steps" not in text and "the game's own step cap" in text
    _assert_links_resolve(page, {"AIR-R-30"})


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js (`node`) is not installed")
def test_a_finding_from_a_printed_example_is_worded_and_replayable() -> None:
    """AIR-EX-17 (p.6) against the JavaScript implementation whose planted bug charges 2 chips for an
    additional go (AIR-R-42 says 3): the finding starts from the example's given state, which it
    carries, and its steps are the game's words, not their JSON twice."""
    command = f"node {shlex.quote(str(ROOT / 'examples' / 'airships-js' / 'airships.js'))} --bug=extra-go-2"
    report = conform(make_game("air"), command, max_examples=1, max_steps=10, seconds=4)
    finding = next(f for f in report.findings if f.where.startswith("AIR-EX-17 "))
    given, steps = _ex17()
    assert finding.start_state == given and list(finding.steps[:3]) == steps
    assert finding.step_text[2] == "seat 0 (USA) pays 3 chips for an additional go"
    assert all(not text.startswith("{") for text in finding.step_text)


def test_a_state_enum_reads_as_its_json_value_in_a_finding_table() -> None:
    from enum import Enum

    class Phase(str, Enum):
        REVEAL = "reveal"

    finding = Finding("state", "t", "differential", fields=(("phase", Phase.REVEAL, "extra-go"),))
    text = markdown_finding(finding)
    assert "| phase | `reveal` | `extra-go` |" in text and "Phase." not in text


def test_a_witness_step_is_worded_by_each_reading_that_played_it() -> None:
    """AIR-EX-17 (p.6) played as a witness from its given state: a reading that plays its steps words
    them (AIR-AMB-22 'attempt-only': the additional go still costs 3 chips, AIR-R-42 p.4); a reading
    that refuses its first step (AIR-AMB-35 'max': the example depends on AIR-AMB-35) words none, and
    the Markdown keeps the default reading's words alone."""
    game = make_game("air")
    given, steps = _ex17()
    said = ("seat 0 (USA) attempts airship:3, throwing 1W", "chance: thrown W[3]", "seat 0 (USA) pays 3 chips")
    finding = Finding("state", "a difference", "AIR-EX-17", steps=tuple(steps), step_text=said, start_state=given)
    amb22, amb35 = game.register["AIR-AMB-22"], game.register["AIR-AMB-35"]
    plays = PairResult(amb22.id, amb22.default, "attempt-only", "witness", "found", finding=finding)
    words = witness_report.reading_words("air", amb22.id, plays)
    assert words == [
        "seat 0 (USA) attempts airship:3, throwing 1W",
        "chance: thrown W[3]",
        "seat 0 (USA) pays 3 chips for an additional go",
    ]
    refuses = PairResult(amb35.id, amb35.default, "max", "witness", "found", finding=finding)
    assert witness_report.reading_words("air", amb35.id, refuses) == [None, None, None]
    text = witness_report.ambiguity_markdown(AmbiguityResult(amb35, (refuses,)), "air")
    assert "1. seat 0 (USA) attempts airship:3, throwing 1W — `" in text and "reading max:" not in text
    # Where the words differ (here the default's are cut short), each reading's are shown.
    text = witness_report.ambiguity_markdown(AmbiguityResult(amb22, (plays,)), "air")
    assert "3. reading full: seat 0 (USA) pays 3 chips; reading attempt-only: seat 0 (USA) pays 3 chips for" in text
    quoted = PairResult(
        amb22.id, "full", "attempt-only", "witness", "after seat 0 (USA) pays 3 chips: differ", finding=finding
    )
    text = witness_report.ambiguity_markdown(AmbiguityResult(amb22, (quoted,)), "air")
    assert (
        "— after seat 0 (USA) pays 3 chips (reading attempt-only: seat 0 (USA) pays 3 chips for an additional go):"
        in text
    )
    assert witness_report.reading_words("air", amb35.id, PairResult(amb35.id, "x", "max", "witness", "")) == []


def test_each_step_of_a_finding_has_its_board_in_the_report() -> None:
    """AIR-EX-17 (p.6) as a finding: the board after each of its three steps, captioned with the step's
    words (the additional go costs 3 chips, AIR-R-42 p.4); a long finding draws its last steps only."""
    given, steps = _ex17()
    said = tuple(f"step {i}" for i in range(1, 4))
    finding = Finding("state", "t", "AIR-EX-17", steps=tuple(steps), step_text=said, start_state=given)
    page = conform_html(ConformReport("air", "in-process", findings=[finding]))
    folded = page.split("<details class='steps'>", 1)[1].split("</details>", 1)[0]
    assert "the board after each step (rulebook model): all 3 steps" in folded
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", folded)
    assert captions[2] == "after step 3: seat 0 (USA) pays 3 chips for an additional go"
    assert len(captions) == 3 and folded.count("<svg") == 3
    # A game of 12 steps from set-up: the last 6 drawn (steps 7 to 12), so that a report stays mailable.
    game = make_game("air")
    state, played = game.new_game(2), []
    rng = random.Random(4)
    for _ in range(12):
        action = game.random_action(state, rng)
        assert action is not None
        played.append(game.action_to_json(action))
        state = game.apply(state, action)
    long = Finding("state", "t", "differential", steps=tuple(played), setup={"players": 2})
    page = conform_html(ConformReport("air", "in-process", findings=[long]))
    assert "all 12" not in page and ": the last 6 of 12 steps</summary>" in page
    numbers = re.findall(r"<figcaption>after step (\d+):", page)
    assert numbers == [str(n) for n in range(7, 13)]
    # The errata and ambiguities reports draw them too, by the printed rules / the default reading.
    assert "the board after each step (printed rules): all 3 steps" in errata_report.html_report(_divergence())
