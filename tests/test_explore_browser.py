"""The explorer and the HTML reports in a real browser (issue 20, part 3): Debian's Chromium, headless,
driven by selenium through the system chromedriver, so nothing is downloaded at run time.

Skipped, with the reason, where the browser is not installed; with RULECRAFT_REQUIRE_BROWSER=1 (CI,
.ci/run) a missing browser fails instead.  Expected values: the differing field is the one the
finding document reports, the rule text is the catalogue's (from the digest), the report's tables
are the Markdown tables of the same run.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_explore import _air_finding, random_steps, replayed

from rulecraft import explore
from rulecraft.conformance.report import html_report
from rulecraft.registry import make_game

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WAIT = 10.0
POLL = 0.02  # how often a wait looks again (selenium's own 0.5 s made each wait idle for up to that)


def _missing() -> str | None:
    """Why the browser test cannot run here (None: it can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    why = _missing()
    if why is not None:
        if os.environ.get("RULECRAFT_REQUIRE_BROWSER") == "1":
            pytest.fail(f"RULECRAFT_REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
    ):
        options.add_argument(flag)
    profile = Path(os.environ.get("TMPDIR", "/tmp")) / f"rulecraft-chromium-{os.getpid()}"
    options.add_argument(f"--user-data-dir={profile}")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SE_OFFLINE", "true")  # selenium-manager must not fetch a driver or a browser
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        driver.set_page_load_timeout(30)
        try:
            yield driver
        finally:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)


def _wait(driver: Any, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=POLL).until(condition)


def _at_step(driver: Any, i: int) -> None:
    """Wait until the page shows step ``i`` and its sides are drawn for it."""
    from selenium.webdriver.common.by import By

    _wait(driver, lambda d: d.find_element(By.ID, "step-index").text == str(i))
    _wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#sides .side"))


def test_a_finding_steps_forward_and_back_marks_the_differing_field_and_links_its_rules(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    # A kas finding whose implementation reports another value of one top-level field at the last step.
    game = make_game("kas")
    steps = random_steps(game, 9, 2, 8)
    last = replayed(game, game.new_game(2), steps)
    field = sorted(k for k, v in last.items() if isinstance(v, int) and not isinstance(v, bool))[0]
    rule = game.catalogue.rules[0]
    document = {
        "rulecraft_replay": 1,
        "game": "kas",
        "kind": "state",
        "title": f"the states differ in {field}",
        "rules": [rule.id],
        "start": {"setup": {"players": 2}},
        "steps": steps,
        "differences": [[field, last[field], last[field] + 1]],
    }
    path = tmp_path / "finding.json"
    path.write_text(json.dumps(document), "utf-8")
    running = explore.start(explore.finding_trace("kas", str(path)))
    try:
        browser.get(running.url)
        _at_step(browser, 0)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#sides .side")) == 2
        assert browser.find_elements(By.CSS_SELECTOR, ".differs") == []
        assert browser.find_elements(By.CSS_SELECTOR, ".picture svg")  # the board is drawn
        forward = browser.find_element(By.ID, "forward")
        for i in range(1, 4):  # the button
            forward.click()
            _at_step(browser, i)
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_LEFT)  # and the arrow keys
        _at_step(browser, 2)
        body.send_keys(Keys.ARROW_RIGHT)
        _at_step(browser, 3)
        browser.find_element(By.ID, "back").click()
        _at_step(browser, 2)
        # The last step: the reported field is marked on both sides, and nothing else.
        browser.find_element(By.CSS_SELECTOR, f"#steps li[data-step='{len(steps)}']").click()
        _at_step(browser, len(steps))
        _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".differs"))
        marked = browser.find_elements(By.CSS_SELECTOR, ".differs")
        assert {m.get_attribute("data-path") for m in marked} == {field}
        assert len(marked) == 2  # the reference's value and the implementation's
        values = [m.text for m in marked]
        assert values == [str(last[field]), str(last[field] + 1)]
        # A rule ID links to its text: the catalogue row, with its page and statement.
        link = browser.find_element(By.CSS_SELECTOR, f"#trace-rules a.rule[href='/rules#{rule.id}']")
        link.click()
        _wait(browser, lambda d: d.current_url.endswith(f"/rules#{rule.id}"))
        row = browser.find_element(By.ID, rule.id)
        assert rule.statement in row.text and rule.page in row.text
    finally:
        running.stop()


def test_an_illegal_action_typed_in_the_page_shows_its_rule(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    # AIR-EX-04 (p.3): seat 0 has one white die, the card needs two: AIR-R-27 refuses the attempt.
    running = explore.start(explore.scenario_trace("air", "AIR-EX-04"))
    try:
        browser.get(running.url)
        _at_step(browser, 0)
        box = browser.find_element(By.ID, "try-action")
        box.clear()
        box.send_keys(json.dumps({"kind": "attempt", "target": "development:E1-HAN-2", "throw": {"W": 1}}))
        browser.find_element(By.ID, "try-button").click()
        _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#try-result .refusals a.rule"))
        link = browser.find_element(By.CSS_SELECTOR, "#try-result .refusals a.rule")
        assert link.text == "AIR-R-27"
        assert "p.3" in browser.find_element(By.ID, "try-result").text
    finally:
        running.stop()


def test_a_conform_report_renders_its_tables_as_tables(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    report = _air_finding()
    page = tmp_path / "conform.html"
    page.write_text(html_report(report), "utf-8")
    browser.get(page.as_uri())
    tables = browser.find_elements(By.TAG_NAME, "table")
    assert tables, "the report's Markdown tables are rendered as <table>"
    for pre in browser.find_elements(By.TAG_NAME, "pre"):
        assert "|---|" not in pre.get_attribute("textContent")  # no raw Markdown table left in a block
    assert "rulecraft explore air --finding finding-1.json" in browser.find_element(By.TAG_NAME, "body").text


def test_a_printed_example_and_a_seeded_game_are_opened_from_the_pages_menu(browser: Any) -> None:
    """The menu lists what the server may open; AIR-EX-04 (p.3) opens at its given state with its
    played steps (the file's do/chance steps), and a seeded game of 2 players (AIR-R-01: 2-4)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from rulecraft.scenarios.loader import load_scenario, scenario_files

    ex04 = next(p for p in scenario_files("air") if p.stem.startswith("AIR-EX-04-"))
    played = [step for step in load_scenario(ex04).steps if "reject" not in step]
    running = explore.start(explore.seeded_trace(make_game("air"), 3, 3, max_steps=12))
    try:
        browser.get(running.url)
        _at_step(browser, 0)
        _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f"#source option[value='scenario:{ex04.stem}']"))
        menu = Select(browser.find_element(By.ID, "source"))
        assert menu.first_selected_option.get_attribute("value") == "given"
        menu.select_by_value(f"scenario:{ex04.stem}")
        assert not browser.find_element(By.ID, "seed-params").is_displayed()
        browser.find_element(By.ID, "source-open").click()
        _wait(browser, lambda d: d.find_element(By.ID, "heading").text.startswith("AIR-EX-04 (p.3)"))
        _at_step(browser, 0)
        assert browser.find_element(By.ID, "step-count").text == str(len(played))
        assert len(browser.find_elements(By.CSS_SELECTOR, "#steps li")) == len(played) + 1
        menu.select_by_value("seed")
        assert browser.find_element(By.ID, "seed-params").is_displayed()
        for box, value in (("source-seed", "5"), ("source-players", "2")):
            field = browser.find_element(By.ID, box)
            field.clear()
            field.send_keys(value)
        browser.find_element(By.ID, "source-open").click()
        _wait(browser, lambda d: d.find_element(By.ID, "heading").text.endswith("seed 5, 2 players"))
        # A number out of range is refused in one line, and the game shown stays.
        field = browser.find_element(By.ID, "source-players")
        field.clear()
        field.send_keys("9")
        browser.find_element(By.ID, "source-open").click()
        _wait(browser, lambda d: d.find_element(By.ID, "source-error").text.startswith("players:"))
        assert browser.find_element(By.ID, "heading").text.endswith("seed 5, 2 players")
    finally:
        running.stop()


def test_a_printed_examples_id_links_to_its_entry_on_the_rules_page(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened on AIR-EX-04, the heading's example ID links to the example's entry on the rules page
    (from the rules digest); with no digest at hand the ID stays plain text, never a broken link."""
    from selenium.webdriver.common.by import By

    digests = tmp_path / "digests"
    digests.mkdir()
    (digests / "airships.md").write_text(
        "## Examples (p.3)\n\n- **AIR-EX-04 Two white dice for five:** a target of 5 with two white dice.\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("RULECRAFT_DIGESTS", str(digests))
    running = explore.start(explore.scenario_trace("air", "AIR-EX-04"))
    try:
        browser.get(running.url)
        _at_step(browser, 0)
        link = _wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#heading a.example"))
        assert link.text == "AIR-EX-04" and link.get_attribute("href").endswith("/rules#AIR-EX-04")
        link.click()
        _wait(browser, lambda d: d.current_url.endswith("/rules#AIR-EX-04"))
        entry = browser.find_element(By.ID, "AIR-EX-04")
        assert "Two white dice for five" in entry.text and "two white dice" in entry.text
        monkeypatch.setenv("RULECRAFT_DIGESTS", str(tmp_path / "nowhere"))
        browser.get(running.url)
        _at_step(browser, 0)
        _wait(browser, lambda d: d.find_element(By.ID, "heading").text.startswith("AIR-EX-04"))
        assert browser.find_elements(By.CSS_SELECTOR, "#heading a") == []
    finally:
        running.stop()


def test_a_rule_link_in_a_report_leads_to_the_rule_text_in_the_same_file(browser: Any, tmp_path: Path) -> None:
    """AIR-R-42 (p.4) in the errata report of the two-chip additional go: the link works from the file
    alone (no server) and lands on the rule's row, with its page and the digest's statement."""
    from selenium.webdriver.common.by import By
    from test_report_html import _divergence

    from rulecraft.errata_report import html_report as errata_html

    page = tmp_path / "errata.html"
    page.write_text(errata_html(_divergence()), "utf-8")
    browser.get(page.as_uri())
    rule = make_game("air").catalogue["AIR-R-42"]
    links = browser.find_elements(By.CSS_SELECTOR, "a.rule[href='#AIR-R-42']")
    assert links, "AIR-R-42 is a link"
    links[0].click()
    _wait(browser, lambda d: d.current_url.endswith("#AIR-R-42"))
    row = browser.find_element(By.ID, "AIR-R-42")
    assert rule.statement in row.text and "p.4" in row.text
    top = browser.execute_script("return arguments[0].getBoundingClientRect().top", row)
    assert 0 <= top < browser.execute_script("return window.innerHeight")  # scrolled to it


def test_a_missing_browser_is_named_in_the_skip_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the browser the test is skipped saying what to install (and fails under
    RULECRAFT_REQUIRE_BROWSER=1, which the fixture reads): the reason names the missing file."""
    import test_explore_browser as module

    monkeypatch.setattr(module, "CHROMIUM", "/nonexistent/chromium")
    why = module._missing()
    assert why is not None and "/nonexistent/chromium" in why and "apt-get install chromium" in why


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_a_reports_link_opens_its_finding_in_the_explorer_started_on_its_folder(browser: Any, tmp_path: Path) -> None:
    """Issue 20: "the reports link into it".  A conform report written into a folder; the explorer
    started as the report's top says (``rulecraft explore kas --reports FOLDER``, here on a free port
    the report's links name); a click on finding 2's link shows that finding: its first step in the
    game's words, and at its last step the field it reports marked on both sides."""
    import re
    import subprocess
    import sys

    from selenium.webdriver.common.by import By
    from test_explore_reports import kas_finding, kas_report, write_conform

    one, _, _ = kas_finding(9, 8)
    two, field, steps = kas_finding(4, 5)
    port = _free_port()
    write_conform(tmp_path, kas_report(one, two), port=port)
    game = make_game("kas")
    first_words = game.describe(game.new_game(2), game.action_from_json(steps[0]))
    command = [sys.executable, "-m", "rulecraft", "explore", "kas", "--reports", str(tmp_path)]
    command += ["--port", str(port), "--no-open"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            assert re.search(rf"http://127\.0\.0\.1:{port}/", line), line
            browser.get((tmp_path / "conform.html").as_uri())
            top = browser.find_element(By.CSS_SELECTOR, ".explore-start").text
            assert f"rulecraft explore kas --reports {tmp_path}" in top
            browser.find_element(By.CSS_SELECTOR, "#finding-2 a.explore-link").click()
            _wait(browser, lambda d: d.find_element(By.ID, "heading").text == f"state: {two.title}")
            _at_step(browser, 0)
            assert browser.find_element(By.ID, "step-count").text == str(len(steps))
            assert browser.find_element(By.CSS_SELECTOR, "#steps li[data-step='1']").text == first_words
            browser.find_element(By.CSS_SELECTOR, f"#steps li[data-step='{len(steps)}']").click()
            _at_step(browser, len(steps))
            _wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".differs"))
            marked = browser.find_elements(By.CSS_SELECTOR, ".differs")
            assert [m.get_attribute("data-path") for m in marked] == [field, field]
            assert [m.text for m in marked] == [str(two.fields[0][1]), str(two.fields[0][2])]
            # An ID the explorer does not list: one line, and what it shows stays.
            browser.get(f"http://127.0.0.1:{port}/?open=report:conform.finding-7")
            _wait(browser, lambda d: d.find_element(By.ID, "source-error").text)
            said = browser.find_element(By.ID, "source-error").text
            assert said.startswith('no source "report:conform.finding-7"') and "\n" not in said
            _wait(browser, lambda d: d.find_element(By.ID, "heading").text == f"state: {two.title}")
        finally:
            proc.terminate()
            proc.wait(timeout=10)


def test_a_board_drawn_once_and_used_twice_is_drawn_at_full_size_in_the_report(browser: Any, tmp_path: Path) -> None:
    """A report writes a board shown twice once (a ``<symbol>``) and ``<use>``s it: each use shows the
    whole drawing, at the size of the ``<svg>`` that holds it.  AIR-EX-17 (Airships p.6), its first
    three steps (the third an additional go for 3 chips, AIR-R-42 p.4), reported twice."""
    from selenium.webdriver.common.by import By
    from test_html_reports_look import _given

    from rulecraft.conformance.conform import ConformReport
    from rulecraft.conformance.findings import Finding

    game: Any = make_game("air")
    given, steps = _given(game, "AIR-EX-17")
    state = game.state_from_json(given)
    for data in steps[:3]:
        state = game.transition(state, game.action_from_json(data))
    finding = Finding("state", "t", "AIR-EX-17", steps=tuple(steps[:3]), start_state=given, svg=game.picture(state))
    page = tmp_path / "conform.html"
    page.write_text(html_report(ConformReport("air", "in-process", findings=[finding, finding])), "utf-8")
    browser.get(page.as_uri())
    # The drawing is written in the first board, folded away (the steps): the board shown below them
    # draws it all the same.
    shown = browser.find_elements(By.CSS_SELECTOR, "section > .board svg use")
    assert len(shown) == 2
    boxes = [browser.execute_script("const b = arguments[0].getBBox(); return [b.width, b.height];", u) for u in shown]
    browser.execute_script("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    uses = browser.find_elements(By.CSS_SELECTOR, ".board svg use")
    assert len(uses) == 8
    for use in shown + uses:
        box = boxes.pop(0) if boxes else None
        box = box or browser.execute_script("const b = arguments[0].getBBox(); return [b.width, b.height];", use)
        view = browser.execute_script(
            "const v = arguments[0].ownerSVGElement.viewBox.baseVal; return [v.width, v.height];", use
        )
        assert box[0] >= 0.95 * view[0] and box[1] >= 0.95 * view[1]  # the whole drawing, not an empty box
        assert use.find_element(By.XPATH, "..").size["width"] >= 0.95 * view[0]


def test_the_two_sides_can_be_shown_one_above_the_other_with_larger_boards(browser: Any, tmp_path: Path) -> None:
    """Side by side, an Airships board (980 px wide) is drawn at less than half its size; the page's
    "one above the other" box gives each side the width of the view."""
    from selenium.webdriver.common.by import By

    game = make_game("air")
    steps = random_steps(game, 3, 2, 4)
    path = tmp_path / "finding.json"
    document = {
        "rulecraft_replay": 1,
        "game": "air",
        "kind": "state",
        "title": "t",
        "rules": [],
        "start": {"setup": {"players": 2}},
        "steps": steps,
        "differences": [],
    }
    path.write_text(json.dumps(document), "utf-8")
    running = explore.start(explore.finding_trace("air", str(path)))
    try:
        browser.get(running.url)
        _at_step(browser, 0)
        before = [p.size["width"] for p in browser.find_elements(By.CSS_SELECTOR, ".picture svg")]
        assert len(before) == 2
        browser.find_element(By.ID, "stacked").click()
        after = [p.size["width"] for p in browser.find_elements(By.CSS_SELECTOR, ".picture svg")]
        assert all(a >= 1.8 * b for a, b in zip(after, before, strict=True))
        browser.find_element(By.ID, "forward").click()  # it stays so from step to step
        _at_step(browser, 1)
        assert [p.size["width"] for p in browser.find_elements(By.CSS_SELECTOR, ".picture svg")] == after
        # A rule ID is never broken over two lines ("AIR-R-" / "17") in the list of legal actions.
        browser.find_element(By.ID, "stacked").click()
        links = browser.find_elements(By.CSS_SELECTOR, ".legal a.rule")
        assert links
        lines = browser.execute_script("return arguments[0].map((a) => a.getClientRects().length);", links)
        wrap = browser.execute_script("return arguments[0].map((a) => getComputedStyle(a).whiteSpace);", links)
        assert set(lines) == {1} and set(wrap) == {"nowrap"}
    finally:
        running.stop()


_STYLE_PROPERTIES = (
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "opacity",
)


def _shape_styles(browser: Any) -> list[list[str]]:
    """The computed style of every shape of every picture on the page, in order."""
    script = (
        "const props = arguments[0]; return Array.from(document.querySelectorAll('svg *'))"
        ".filter((e) => !['title', 'svg', 'defs', 'symbol', 'use'].includes(e.tagName))"
        ".map((e) => { const s = getComputedStyle(e);"
        " return [e.tagName].concat(props.map((p) => s.getPropertyValue(p))); });"
    )
    styles: list[list[str]] = browser.execute_script(script, list(_STYLE_PROPERTIES))
    return styles


def test_a_report_draws_each_game_s_board_with_the_styles_the_game_drew(browser: Any, tmp_path: Path) -> None:
    """The report writes the presentation attributes that many shapes share as classes of its stylesheet
    (a third of a board's bytes): every shape of each game's board keeps the colour, line, font and
    anchor the game's own drawing gives it."""
    from rulecraft import htmlpage

    pictures = []
    for game_id in ("air", "kas", "stm", "aer"):
        game = make_game(game_id)
        players = {"aer": 3}.get(game_id, 2)
        steps = random_steps(game, 5, players, 12)
        picture = game.picture(game.replay(game.new_game(players), [game.action_from_json(s) for s in steps]))
        assert picture
        pictures.append(picture)
    plain = tmp_path / "plain.html"
    plain.write_text("<!doctype html><html><body>" + "".join(pictures) + "</body></html>", "utf-8")
    report = tmp_path / "report.html"
    page = htmlpage.page("t", pictures)
    assert 'class="p-0' in page or ' p-0"' in page  # the shared attributes are classes
    report.write_text(page, "utf-8")
    browser.get(plain.as_uri())
    expected = _shape_styles(browser)
    browser.get(report.as_uri())
    assert _shape_styles(browser) == expected and len(expected) > 400


def test_a_report_s_heading_levels_can_be_told_apart(browser: Any, tmp_path: Path) -> None:
    """Title, ambiguity or finding, finding inside an ambiguity, and the board under it: each level
    is drawn smaller than the one above it."""
    from rulecraft import htmlpage

    page = tmp_path / "levels.html"
    page.write_text(htmlpage.page("t", [htmlpage.render("# a\n\n## b\n\n### c\n\n#### d\n\n##### e\n")]), "utf-8")
    browser.get(page.as_uri())
    sizes = [
        float(browser.execute_script(f"return parseFloat(getComputedStyle(document.querySelector('h{i}')).fontSize);"))
        for i in range(1, 6)
    ]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 5


def test_a_witness_whose_set_up_one_reading_refuses_says_so_and_not_that_the_states_agree(
    browser: Any, tmp_path: Path
) -> None:
    """AIR-AMB-28 'one' plays a game of 1 player; the printed rules refuse it (AIR-R-01, Airships p.2)."""
    from selenium.webdriver.common.by import By

    document = {
        "rulecraft_explore": 1,
        "kind": "witness",
        "game": "air",
        "title": "AIR-AMB-28: two against one",
        "ambiguity": "AIR-AMB-28",
        "readings": ["two", "one"],
        "base": {},
        "start": {"setup": {"players": 1, "first_seat": 0, "options": {}}},
        "steps": [],
        "differences": [],
        "rules": [],
    }
    path = tmp_path / "witness.json"
    path.write_text(json.dumps(document), "utf-8")
    running = explore.start(explore.witness_trace("air", str(path)))
    try:
        browser.get(running.url)
        _at_step(browser, 0)
        summary = browser.find_element(By.ID, "differs-summary").text
        assert "agree" not in summary and "reading two has no state here" in summary
        refusal = browser.find_element(By.CSS_SELECTOR, "#sides .side .refusal").text
        assert refusal.startswith("refused the start: AIR-R-01 (p.2)")
    finally:
        running.stop()


def test_a_report_draws_a_board_across_the_page_width(browser: Any, tmp_path: Path) -> None:
    """A Kings of Air and Steam board is drawn about 800 px wide with 7 px labels on its hexes; a report
    draws it across the text's width (72rem), a little larger, never smaller than drawn."""
    from selenium.webdriver.common.by import By

    from rulecraft import htmlpage

    game = make_game("kas")
    picture = game.picture(game.new_game(2))
    assert picture
    drawn = float(picture.split(' width="', 1)[1].split('"', 1)[0])  # about 800 px
    page = tmp_path / "board.html"
    page.write_text(htmlpage.page("t", ["<p>text</p><div class='board'>", picture, "</div>"]), "utf-8")
    browser.get(page.as_uri())
    board = browser.find_element(By.CSS_SELECTOR, ".board svg")
    text = browser.find_element(By.TAG_NAME, "p")
    assert board.size["width"] == text.size["width"] > drawn
