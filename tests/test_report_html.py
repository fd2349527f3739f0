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
import json
import random
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import attrs
import pytest

from rulecraft import errata_report, htmlpage, witness_report
from rulecraft.catalogue import RuleCatalogue
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
    appendix = page.split("<section id='rules-cited'>", 1)[1].split("</section>", 1)[0]
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
    examples = htmlpage.digest_examples("air")  # AIR-EX-17 links to its entry too, where the digest is
    for section in text.split("\n## "):  # every part of the Markdown of the same run, rendered
        if "Where play changes" not in section:  # (that one is split round the board picture)
            body = section if section.startswith("# ") else "## " + section
            linked = htmlpage.link_rules(htmlpage.render(body), make_game("air").catalogue, {}, examples, {})
            assert linked in page


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


# -- issue 20, the three items left open (session 12) -----------------------------------------------------------

HREF = re.compile(r"href='#([^']+)'")
EXAMPLE_LINK = re.compile(r"<a class='example' href='#([A-Z]+-EX-\d+)' title='([^']*)'>")
AIR_DIGEST = """\
## 4. Example catalogue

### AIR-EX-09 / AIR-EX-10 — "This card is worth 3 VP" / "This card is worth 2 VP" (p.5 captions)
- Rules: AIR-R-21, AIR-R-38, AIR-R-48.
- Assert:
  - a player owning both at the end scores 5 from them;

### AIR-EX-11 … AIR-EX-22 — the card examples of p.6 (six "Példa" paragraphs, two cards each)
For all twelve, the pictures hide the card's requirement.

- **AIR-EX-17 Engineer (left):** an imaginary **red die, fixed at 4**. Rules AIR-R-18, AIR-R-31,
  AIR-R-33.
  - Assert: a `{R:1}` target is legal with no red entitlement, and S = 4 with no randomness.
- **AIR-EX-18 Engineer (right):** an imaginary **black die, fixed at 7**.

---

Buying as a banner (p.20; R-40, R-43, R-45):
* **STM-EX-16** **2 gears + 1 stone**. **STM-EX-17** **2 crystals + 1 stone**.

**STM-EX-02 — Increase by 6, two lapse (p.10).** R-15. Black may increase by **6**, moves the leftmost
stone **4** times.

**KAS-AMB-05 — Do diamonds of a card lost to the diamond check still count?** (KAS-R-25, KAS-EX-04)
"""


def _no_broken_links(page: str) -> None:
    """Every in-page link of ``page`` lands on an element with that ``id``."""
    ids = set(re.findall(r"\sid='([^']+)'", page))
    assert HREF.findall(page) and set(HREF.findall(page)) <= ids


def test_the_digest_entries_of_printed_examples_in_every_form_the_digests_write_them() -> None:
    """The Airships digest (section 4) heads AIR-EX-09 and AIR-EX-10 together (p.5 captions), groups
    AIR-EX-11 … 22 (the card examples of p.6) and gives each its list item; the Steamopolis digest
    writes bold paragraphs (STM-EX-02, p.10) and bold items under a lead line (STM-EX-16, -17, p.20).
    An ambiguity that mentions an example (KAS-AMB-05 names KAS-EX-04) is no entry of it."""
    found = htmlpage.parse_examples(AIR_DIGEST)
    assert list(found) == ["AIR-EX-09", "AIR-EX-10", "AIR-EX-17", "AIR-EX-18", "STM-EX-16", "STM-EX-17", "STM-EX-02"]
    assert found["AIR-EX-09"].text == found["AIR-EX-10"].text
    assert found["AIR-EX-10"].heading.endswith("(p.5 captions)") and "scores 5" in found["AIR-EX-10"].text
    ex17 = found["AIR-EX-17"]
    assert ex17.heading.startswith("Engineer (left) (AIR-EX-11 … AIR-EX-22 — the card examples of p.6")
    assert ex17.text.startswith("an imaginary **red die, fixed at 4**.") and "S = 4" in ex17.text
    assert "black die" not in ex17.text and "All twelve" not in ex17.text  # its own item only
    # The nested list stays nested once rendered (the item's indentation is taken off, not its own).
    assert "<li>Assert: a <code>{R:1}</code> target" in htmlpage.render(ex17.text)
    assert found["STM-EX-16"].heading == "Buying as a banner (p.20; R-40, R-43, R-45)"
    assert found["STM-EX-17"].text == found["STM-EX-16"].text
    assert found["STM-EX-02"].heading == "Increase by 6, two lapse (p.10)"
    assert (
        found["STM-EX-02"].text.startswith("R-15. Black may increase by **6**") and "KAS" not in found["STM-EX-02"].text
    )


@pytest.mark.parametrize(
    ("game_id", "example_id", "heading"),
    [
        ("kas", "KAS-EX-07", "Flight example: which factory can Yellow reach? (p.11)"),
        ("air", "AIR-EX-10", '"This card is worth 3 VP" / "This card is worth 2 VP" (p.5 captions)'),
        ("aer", "AER-EX-01", "Era-1 income, Paris (l.41)"),
        ("stm", "STM-EX-02", "Increase by 6, two lapse (p.10)"),
    ],
)
def test_every_printed_example_of_a_game_has_its_entry_in_the_digest(
    game_id: str, example_id: str, heading: str
) -> None:
    """Each scenario's example ID (scenarios/<game>/<ID>-*.yaml) finds its entry in the game's digest,
    so that no example link of a report is missing; one heading per game as the digest prints it."""
    if htmlpage.digest_path(game_id) is None:
        pytest.skip("the rules digests are not next to this checkout (e.g. a wheel install)")
    examples = htmlpage.digest_examples(game_id)
    ids = {re.match(r"[A-Z]+-EX-\d+", p.stem).group(0) for p in scenario_files(game_id)}  # type: ignore[union-attr]
    assert ids and not ids - set(examples)
    assert examples[example_id].heading == heading


def test_a_printed_example_id_links_to_its_digest_entry_in_an_appendix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AIR-EX-17 (Airships p.6, the engineer's red die fixed at 4) where the errata report's finding
    starts: a link, like a rule ID's, to its row in 'The printed examples cited', which quotes the
    digest's entry; the rules' appendix stays the rules' alone and every link lands."""
    (tmp_path / "airships.md").write_text(AIR_DIGEST, encoding="utf-8")
    monkeypatch.setenv(htmlpage.DIGESTS_VARIABLE, str(tmp_path))
    assert htmlpage.digest_path("air") == tmp_path / "airships.md"
    page = errata_report.html_report(_divergence())
    links = EXAMPLE_LINK.findall(page)
    assert {example_id for example_id, _ in links} == {"AIR-EX-17"}
    assert html.unescape(links[0][1]).startswith("Engineer (left) (AIR-EX-11 … AIR-EX-22 — the card examples of p.6")
    cited = page.split("<section id='examples-cited'>", 1)[1].split("</section>", 1)[0]
    rows = re.findall(r"<tr id='([^']+)'>(.*?)</tr>", cited, re.S)
    assert [row_id for row_id, _ in rows] == ["AIR-EX-17"]
    assert "red die, fixed at 4</strong>" in rows[0][1] and "S = 4 with no randomness" in rows[0][1]
    assert "AIR-EX-17" not in _rows(page)
    _no_broken_links(page)
    _assert_links_resolve(page, {"AIR-R-42", "AIR-R-50"})
    # A conform finding's 'where' names the example and its scenario file: the ID links, the file name not.
    where = "<li>where: AIR-EX-17 (AIR-EX-17-engineer-extra-go.yaml, p.6)</li>"
    linked = htmlpage.link_rules(where, make_game("air").catalogue, {}, htmlpage.digest_examples("air"), {})
    assert EXAMPLE_LINK.findall(linked)[0][0] == "AIR-EX-17" and linked.count("class='example'") == 1
    assert "(AIR-EX-17-engineer-extra-go.yaml, p.6)" in linked


def test_without_the_digest_an_example_id_stays_plain_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No digest at hand (an installed wheel): AIR-EX-17 is text, no appendix of examples, no link
    that lands nowhere; the rule IDs still link (AIR-R-42, p.4)."""
    monkeypatch.setenv(htmlpage.DIGESTS_VARIABLE, str(tmp_path))
    assert htmlpage.digest_path("air") is None and htmlpage.digest_examples("air") == {}
    page = errata_report.html_report(_divergence())
    assert "AIR-EX-17" in page and "class='example'" not in page and "examples-cited" not in page
    _no_broken_links(page)
    _assert_links_resolve(page, {"AIR-R-42"})


NUMBERED = RuleCatalogue.from_rows(
    "kas", [("KAS-R-2", "8", "two"), ("KAS-R-9", "9", "nine"), ("KAS-R-10", "9", "ten"), ("KAS-R-11", "10", "eleven")]
)


def test_rules_involved_are_listed_in_catalogue_order_not_as_strings_sort() -> None:
    """A catalogue whose IDs carry no leading zero: KAS-R-9 comes before KAS-R-10 (its order, the
    order of ``rulecraft rules``), an ID the catalogue lacks (an ambiguity) after them, each once."""
    hit = ("KAS-R-10", "KAS-AMB-01", "KAS-R-9", "KAS-R-2", "KAS-R-10")
    assert htmlpage.in_catalogue_order(hit, NUMBERED) == ["KAS-R-2", "KAS-R-9", "KAS-R-10", "KAS-AMB-01"]
    assert htmlpage.in_catalogue_order(hit, None) == ["KAS-R-10", "KAS-AMB-01", "KAS-R-9", "KAS-R-2"]
    text = markdown_finding(Finding("state", "t", "differential", rules=hit), catalogue=NUMBERED)
    assert "- rules involved: KAS-R-2, KAS-R-9, KAS-R-10, KAS-AMB-01" in text.splitlines()


def test_every_report_lists_the_rules_involved_in_catalogue_order(tmp_path: Path) -> None:
    """Hit in the order AIR-R-42 (p.4), AIR-R-30 (p.3-4), AIR-R-22 (p.3): the Airships digest lists
    them AIR-R-22, AIR-R-30, AIR-R-42, and so do the conform, ambiguities and errata reports, Markdown
    and HTML, and the explorer's 'rules involved' line."""
    from rulecraft import explore

    hit = ("AIR-R-42", "AIR-R-30", "AIR-R-22")
    finding = Finding("state", "t", "differential", rules=hit, setup={"players": 2})
    line = "rules involved: AIR-R-22, AIR-R-30, AIR-R-42"
    report = ConformReport("air", "in-process", findings=[finding])

    def plain(page: str) -> str:
        return re.sub(r"<[^>]+>", "", page)

    assert line in conform_markdown(report) and line in plain(conform_html(report))
    game = make_game("air")
    amb = game.register["AIR-AMB-35"]
    results = [AmbiguityResult(amb, (PairResult(amb.id, amb.default, "max", "witness", "found", finding=finding),))]
    budget = Budget(seconds=1, max_examples=5, max_steps=None)
    assert line in witness_report.markdown("air", "Airships", results, budget)
    assert line in plain(witness_report.html_report("air", "Airships", results, budget))
    divergence = _divergence()
    assert divergence.witness is not None and divergence.witness.finding is not None
    witness = attrs.evolve(divergence.witness, finding=attrs.evolve(divergence.witness.finding, rules=hit))
    divergence = ErrataReport(divergence.variant, witness=witness)
    assert line in errata_report.markdown(divergence) and line in plain(errata_report.html_report(divergence))
    document = explore.witness_document("air", amb.id, results[0].pairs[0])
    path = tmp_path / "witness.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    trace = explore.witness_trace("air", str(path))
    assert [rule["id"] for rule in explore.trace_json(trace)["rules"]] == ["AIR-R-22", "AIR-R-30", "AIR-R-42"]
