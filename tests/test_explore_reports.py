"""The HTML reports link into the explorer (issue 20, part 2: "The reports link into it").

A report written to a file writes each finding's document beside itself (``STEM.finding-N.explore.json``)
and links to ``http://127.0.0.1:PORT/?open=report:STEM.finding-N``; ``rulecraft explore GAME --reports
FOLDER`` lists those documents at start-up, on a fixed list the page opens by ID, never by path.  The
findings here are built by hand from a seeded kas game: the field that differs is the one the finding
reports (the implementation's value is the reference's plus one), so every expected value comes from
the document, never from the explorer's answer.
"""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from test_explore import get, post_to

from rulecraft import explore
from rulecraft.cli import main
from rulecraft.conformance.conform import ConformReport
from rulecraft.conformance.findings import Finding
from rulecraft.conformance.report import html_report
from rulecraft.registry import make_game

SETUP = {"players": 2, "first_seat": 0, "options": {}}


def kas_finding(seed: int, count: int) -> tuple[Finding, str, list[dict[str, Any]]]:
    """A finding of kas after ``count`` random steps of a 2-player game: one top-level whole-number
    field differs at the last step (the implementation's value is one more).  Also: that field and
    the steps."""
    game = make_game("kas")
    rng = random.Random(seed)
    state = game.new_game(2)
    steps: list[dict[str, Any]] = []
    for _ in range(count):
        action = game.random_action(state, rng, "uniform")
        assert action is not None
        steps.append(game.action_to_json(action))
        state = game.transition(state, action)
    last = game.state_to_json(state)
    field = sorted(k for k, v in last.items() if isinstance(v, int) and not isinstance(v, bool))[0]
    finding = Finding(
        "state",
        f"the states differ in {field} after {count} steps",
        "differential",
        step=count,
        steps=tuple(steps),
        fields=((field, last[field], last[field] + 1),),
        setup=dict(SETUP),
    )
    return finding, field, steps


def kas_report(*findings: Finding) -> ConformReport:
    return ConformReport("kas", "an implementation", findings=list(findings))


def write_conform(folder: Path, report: ConformReport, port: int = explore.REPORTS_PORT) -> str:
    """The conform HTML report in ``folder`` with its links (on ``port``); the page's text."""
    path = folder / "conform.html"
    page = explore.report_page(path, lambda links: html_report(report, links), port=port)
    path.write_text(page, "utf-8")
    return page


def serve_reports(folder: Path) -> tuple[explore.Running, list[str]]:
    """An explorer of kas listing the documents in ``folder`` (as ``--reports`` starts it)."""
    reports, left_out = explore.report_sources("kas", folder)
    sources = explore.sources_for("kas", None, None, reports)
    return explore.start(sources[0].opener({}), sources=sources), left_out


# -- the report ---------------------------------------------------------------------------------------------------


def test_a_report_links_each_finding_and_writes_the_document_the_link_opens(tmp_path: Path) -> None:
    one, _, _ = kas_finding(9, 8)
    two, _, _ = kas_finding(4, 5)
    page = write_conform(tmp_path, kas_report(one, two), port=8999)
    # The top: the one command that starts the explorer for the links, on the folder of the report.
    assert f"<code>rulecraft explore kas --reports {tmp_path}</code>" in page
    for i, finding in enumerate((one, two), start=1):
        name = f"conform.finding-{i}.explore.json"
        section = page.split(f"<section id='finding-{i}'>")[1].split("</section>")[0]
        # The link, and beside it the command (it works with no explorer running).
        assert f"href='http://127.0.0.1:8999/?open=report:conform.finding-{i}'" in section
        assert f"rulecraft explore kas --finding {name}" in section
        # The document the link opens is written beside the report, the same as the one embedded.
        written = json.loads((tmp_path / name).read_text("utf-8"))
        embedded = re.search(r"<summary>the document \(.*?\)</summary><pre>(.*?)</pre>", section, re.S)
        assert embedded is not None and json.loads(html.unescape(embedded.group(1))) == written
        assert written["steps"] == list(finding.steps) and written["differences"] == [list(finding.fields[0])]
    # Written again with one finding, the report removes the document it no longer has (and no other).
    (tmp_path / "other.finding-2.explore.json").write_text("{}", "utf-8")
    write_conform(tmp_path, kas_report(two))
    names = sorted(p.name for p in tmp_path.glob("*.explore.json"))
    assert names == ["conform.finding-1.explore.json", "other.finding-2.explore.json"]


def test_a_report_without_a_file_keeps_its_command_and_has_no_link() -> None:
    finding, _, _ = kas_finding(9, 8)
    page = html_report(kas_report(finding))
    assert "rulecraft explore kas --finding finding-1.json" in page
    assert "explore-link" not in page and "--reports" not in page


# -- the server's list --------------------------------------------------------------------------------------------


def test_the_server_lists_a_report_folders_documents_and_opens_one_by_id(tmp_path: Path) -> None:
    one, _, _ = kas_finding(9, 8)
    two, field, steps = kas_finding(4, 5)
    write_conform(tmp_path, kas_report(one, two))
    # Left out, each in one line: a document that does not open, one that is not JSON, and one of
    # another game; a JSON file that no report wrote (not *.explore.json) is not looked at.
    (tmp_path / "broken.finding-1.explore.json").write_text(
        json.dumps({"rulecraft_replay": 1, "game": "kas", "start": {"setup": SETUP}, "steps": [{"kind": "x"}]}),
        "utf-8",
    )
    (tmp_path / "torn.finding-1.explore.json").write_text('{"rulecraft_replay": 1, "ga', "utf-8")
    other = {"rulecraft_replay": 1, "game": "air", "start": {"setup": {"players": 2}}, "steps": []}
    (tmp_path / "air.finding-1.explore.json").write_text(json.dumps(other), "utf-8")
    (tmp_path / "notes.json").write_text("not a document", "utf-8")
    running, left_out = serve_reports(tmp_path)
    try:
        assert len(left_out) == 3 and all("\n" not in line for line in left_out)
        assert left_out[0].startswith("left out air.finding-1.explore.json") and "not 'kas'" in left_out[0]
        assert left_out[1].startswith("left out broken.finding-1.explore.json") and "steps[0]" in left_out[1]
        assert left_out[2].startswith("left out torn.finding-1.explore.json") and "not JSON" in left_out[2]
        status, listed = get(running.url, "/api/sources")
        ids = [s["id"] for s in listed["sources"]]
        assert status == 200 and ids[:3] == ["report:conform.finding-1", "report:conform.finding-2", "seed"]
        assert listed["current"] == "report:conform.finding-1"  # no other source: the first document
        status, opened = post_to(running.url, "/api/open", {"source": "report:conform.finding-2"})
        assert status == 200 and opened["kind"] == "finding" and opened["count"] == len(steps) == 5
        assert opened["heading"] == f"state: {two.title}"
        trace = get(running.url, "/api/trace")[1]
        assert [s["action"] for s in trace["steps"]] == steps
        assert get(running.url, "/api/step/5")[1]["differs"] == [field]
        assert get(running.url, "/api/sources")[1]["current"] == "report:conform.finding-2"
    finally:
        running.stop()


def test_an_id_not_listed_or_a_path_is_refused_in_one_line(tmp_path: Path) -> None:
    finding, _, _ = kas_finding(9, 8)
    write_conform(tmp_path, kas_report(finding))
    (tmp_path / "broken.finding-1.explore.json").write_text("[]", "utf-8")
    running, left_out = serve_reports(tmp_path)
    try:
        assert [line.split(":")[0] for line in left_out] == ["left out broken.finding-1.explore.json"]
        document = tmp_path / "conform.finding-1.explore.json"
        for which in (
            "report:broken.finding-1",  # in the folder, but left out
            "report:conform.finding-9",
            "report:../conform.finding-1",
            "conform.finding-1.explore.json",
            str(document),
            f"report:{document}",
            "report:/etc/passwd",
        ):
            status, reply = post_to(running.url, "/api/open", {"source": which})
            assert status == 404 and reply["error"].startswith("source: no source"), (which, reply)
            assert "\n" not in reply["error"]
        status, reply = post_to(running.url, "/api/open", {"source": "report:conform.finding-1", "path": "/etc"})
        assert status == 400 and reply["error"].startswith("path:")
        assert get(running.url, "/api/trace")[1]["count"] == 8  # still the document it opened
    finally:
        running.stop()


def test_a_folder_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(explore.ExploreError, match=r"--reports .*: no such folder"):
        explore.report_sources("kas", tmp_path / "nowhere")


# -- the command --------------------------------------------------------------------------------------------------


def test_the_command_serves_the_folders_documents_on_the_reports_port(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--reports`` alone is a source; its port is the fixed one the reports' links name (docs/explore.md:
    8537), unless ``--port`` says otherwise; a document left out is one line on stderr."""
    finding, _, _ = kas_finding(9, 8)
    write_conform(tmp_path, kas_report(finding))
    (tmp_path / "torn.finding-1.explore.json").write_text("{", "utf-8")
    served: list[tuple[int, str, list[str]]] = []

    def fake_serve(trace: explore.Trace, port: int = 0, **kw: Any) -> None:
        served.append((port, trace.title, [s.id for s in kw["sources"]]))

    monkeypatch.setattr(explore, "serve", fake_serve)
    assert main(["explore", "kas", "--reports", str(tmp_path), "--no-open"]) == 0
    assert explore.REPORTS_PORT == 8537 and served[0][0] == 8537
    assert served[0][1] == f"state: {finding.title}" and served[0][2][0] == "report:conform.finding-1"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rulecraft explore: left out torn.finding-1.explore.json")
    assert main(["explore", "kas", "--reports", str(tmp_path), "--port", "0", "--no-open"]) == 0
    assert served[1][0] == 0
    # With a source of its own, that source comes first and the documents after it.
    assert main(["explore", "kas", "--seed", "2", "--max-steps", "3", "--reports", str(tmp_path), "--no-open"]) == 0
    assert served[2][2][:2] == ["given", "report:conform.finding-1"] and served[2][0] == 8537
    # Without --reports the port is still a free one.
    assert main(["explore", "kas", "--seed", "2", "--max-steps", "3", "--no-open"]) == 0
    assert served[3][0] == 0 and "report:conform.finding-1" not in served[3][2]


def test_the_ambiguities_and_errata_reports_in_one_folder_open_their_witness_and_divergence(tmp_path: Path) -> None:
    """AIR-EX-17 (p.6) as the start of both: an additional go costs 3 chips under AIR-R-42 (p.4), 2 under
    examples/errata/airships-additional-go-2-chips.yaml; the divergence opens with seat 0 keeping one
    chip more under the variant after the go, and the AIR-AMB-22 witness with its two readings."""
    from test_report_html import _divergence, _ex17

    from rulecraft import errata_report, witness_report
    from rulecraft.witness import AmbiguityResult, Budget, PairResult

    game = make_game("air")
    given, steps = _ex17()
    amb = game.register["AIR-AMB-22"]
    found = Finding("state", "a difference", "AIR-EX-17", steps=tuple(steps), start_state=given)
    pair = PairResult(amb.id, amb.default, "attempt-only", "witness", "found", finding=found)
    results, budget = [AmbiguityResult(amb, (pair,))], Budget(seconds=1, max_examples=5, max_steps=None)
    page = explore.report_page(
        tmp_path / "amb.html", lambda links: witness_report.html_report("air", "Airships", results, budget, links)
    )
    assert "href='http://127.0.0.1:8537/?open=report:amb.witness-AIR-AMB-22-attempt-only'" in page
    assert "rulecraft explore air --witness amb.witness-AIR-AMB-22-attempt-only.explore.json" in page
    page = explore.report_page(tmp_path / "errata.html", lambda links: errata_report.html_report(_divergence(), links))
    assert "href='http://127.0.0.1:8537/?open=report:errata.divergence'" in page
    assert f"rulecraft explore air --reports {tmp_path}" in page
    reports, left_out = explore.report_sources("air", tmp_path)
    assert left_out == []
    assert [(s.id, s.kind) for s in reports] == [
        ("report:amb.witness-AIR-AMB-22-attempt-only", "report"),
        ("report:errata.divergence", "report"),
    ]
    witness = reports[0].opener({})
    assert witness.kind == "witness" and (witness.left.label, witness.right and witness.right.label) == (
        f"reading {amb.default}",
        "reading attempt-only",
    )
    assert len(witness) == 3
    divergence = reports[1].opener({})
    assert divergence.kind == "divergence" and len(divergence) == 3
    after = explore.step_json(divergence, 3)
    left, right = after["left"]["state"], after["right"]["state"]
    assert right["boards"][0]["chips"] == left["boards"][0]["chips"] + 1  # 2 chips paid, not 3
    assert "boards[0].chips" in after["differs"]


def test_an_empty_folder_opens_a_seeded_game_and_a_taken_port_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import socket

    served: list[explore.Trace] = []
    monkeypatch.setattr(explore, "serve", lambda trace, port=0, **kw: served.append(trace))
    assert main(["explore", "kas", "--reports", str(tmp_path), "--no-open"]) == 0
    assert served[0].kind == "seed" and capsys.readouterr().err == ""
    monkeypatch.undo()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        trace = explore.seeded_trace(make_game("kas"), 1, 2, max_steps=1)
        with pytest.raises(explore.ExploreError, match=rf"^--port {port}: cannot serve on 127\.0\.0\.1:{port}: "):
            explore.serve(trace, port, open_browser=False, announce=lambda line: None)
