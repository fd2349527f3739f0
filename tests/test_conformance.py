"""rulecraft conform end to end: the reference server conforms; planted rule
bugs are found with the rule named; a misbehaving implementation is a
finding, never a crash; the reports are written."""

from __future__ import annotations

import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from rulecraft.cli import main
from rulecraft.conformance.conform import conform
from rulecraft.conformance.report import html_report, junit, markdown
from rulecraft.registry import make_game

PY = sys.executable
FIXTURES = Path(__file__).parent / "fixtures" / "impls"
# The planted rule bugs live in the benchmark, outside the package: bench/planted.py GAME NAME.
PLANTED = f"{PY} {Path(__file__).resolve().parents[1] / 'bench' / 'planted.py'}"
# The four Kings of Air and Steam bugs the printed examples find quickly, with the rule each breaks.
KAS_BUGS = {"toll": "KAS-R-38", "stops": "KAS-R-37", "sharp-turn": "KAS-R-26", "diamonds": "KAS-R-25"}


def test_the_reference_server_conforms_on_airships() -> None:
    report = conform(make_game("air"), f"{PY} -m rulecraft.conformance.server air", max_examples=3, max_steps=40)
    assert report.conformant, markdown(report)
    assert report.scenarios_run == report.scenarios_passed == 22
    assert report.examples_run >= 3 and report.steps_compared > 50


def test_the_reference_server_conforms_on_kings_of_air_and_steam() -> None:
    report = conform(make_game("kas"), f"{PY} -m rulecraft.conformance.server kas", max_examples=2, max_steps=60)
    assert report.conformant, markdown(report)
    assert report.scenarios_passed == 25, "fixture maps travel with set_state"


def test_the_reference_server_conforms_on_aeroplanes() -> None:
    """Every printed example's given state travels by set_state alone: its map is state, not a fixture."""
    report = conform(make_game("aer"), f"{PY} -m rulecraft.conformance.server aer", max_examples=2, max_steps=60)
    assert report.conformant, markdown(report)
    assert report.scenarios_run == report.scenarios_passed == 35


@pytest.mark.parametrize("mutant", sorted(KAS_BUGS))
def test_every_planted_kings_of_air_and_steam_bug_is_found_with_its_rule(mutant: str) -> None:
    rule = KAS_BUGS[mutant]
    report = conform(make_game("kas"), f"{PLANTED} kas {mutant}", max_examples=1, max_steps=20)
    assert not report.conformant
    assert any(rule in f.rules for f in report.findings), [(f.title, f.rules) for f in report.findings]
    shortest = min(len(f.steps) for f in report.findings if rule in f.rules)
    assert shortest <= 10, "a printed example starts from its given state: the failing game is short"


def test_a_crashing_implementation_is_a_finding_not_a_crash() -> None:
    report = conform(
        make_game("air"),
        f"{PY} {FIXTURES / 'crash_on_apply.py'}",
        max_examples=2,
        max_steps=5,
        timeout=2.0,
        scenarios=False,
    )
    # The fixture's made-up state already differs at set-up; what matters is that the run ends
    # with findings and rulecraft carries on (the driver's fault kinds are tested on their own).
    assert not report.conformant and report.findings[0].title, markdown(report)


def test_a_wrong_protocol_version_is_reported_at_hello() -> None:
    report = conform(make_game("air"), f"{PY} {FIXTURES / 'wrong_version.py'}", max_examples=1, timeout=2.0)
    assert [f.kind for f in report.findings] == ["fault"]
    assert "version" in report.findings[0].title


def test_reports_junit_markdown_html(tmp_path: Path) -> None:
    report = conform(make_game("kas"), f"{PLANTED} kas sharp-turn", max_examples=1, max_steps=10)
    junit(report, tmp_path / "junit.xml")
    suite = ET.parse(tmp_path / "junit.xml").getroot()
    assert suite.tag == "testsuite" and int(suite.get("failures", "0")) == len(report.findings) > 0
    text = markdown(report)
    assert "KAS-R-26" in text and "| rulebook model | implementation |" in text
    page = html_report(report)
    assert page.startswith("<!doctype html>")
    # The Markdown is rendered (issue 20): its tables are tables, not pipes in a <pre> block.
    assert "<th>rulebook model</th>" in page and "| rulebook model | implementation |" not in page
    # Every finding carries the drawn board, and the page inlines it.
    assert all(f.svg.startswith("<svg") for f in report.findings)
    assert page.count("<svg") - page.count("<figure class='step'>") == len(report.findings)  # + each step's board
    ET.fromstring(report.findings[0].svg)  # well-formed on its own


def test_cli_exit_codes_follow_pytest(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ok = main(
        [
            "conform",
            "air",
            "--impl",
            f"{PY} -m rulecraft.conformance.server air",
            "--max-examples",
            "2",
            "--max-steps",
            "20",
            "--quiet",
            "--junit",
            str(tmp_path / "j.xml"),
        ]
    )
    assert ok == 0 and (tmp_path / "j.xml").exists()
    bad = main(
        [
            "conform",
            "kas",
            "--impl",
            f"{PLANTED} kas toll",
            "--max-examples",
            "1",
            "--max-steps",
            "10",
            "--quiet",
            "--report",
            str(tmp_path / "r.md"),
        ]
    )
    assert bad == 1 and "KAS-R-38" in (tmp_path / "r.md").read_text("utf-8")
    capsys.readouterr()


def test_the_pytest_plugin_runs_conform_as_a_test(tmp_path: Path) -> None:
    import subprocess

    (tmp_path / "pytest.ini").write_text("[pytest]\n", "utf-8")
    command = f"{PLANTED} kas diamonds"
    proc = subprocess.run(
        [
            PY,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            f"--conform=kas={command}",
            "--conform-examples=1",
            f"--conform-report={tmp_path / 'report.md'}",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert proc.returncode == 1, proc.stdout[-2000:]
    assert "1 failed" in proc.stdout
    assert "KAS-R-25" in (tmp_path / "report.md").read_text("utf-8")
