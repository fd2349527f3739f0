"""The scenario machinery: schema errors name file and field, a bad file
never stops the others, and the pytest plugin collects scenario files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulecraft.scenarios import ScenarioFileError, load_scenario, run_scenario, run_scenarios
from rulecraft.scenarios.runner import lookup, same

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "scenarios/airships/AIR-EX-05-throw-3-2-2.yaml"


def write(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "scenarios" / "airships"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ("id: AIR-EX-98\n", "(top level)", "'title' is a required property"),
        (GOOD.read_text("utf-8").replace("page: 4", "page: [4]"), "source.page", "is not of type"),
        (GOOD.read_text("utf-8").replace("rules: [AIR-R-12,", "rules: [AIR-12,"), "rules[0]", "does not match"),
        (GOOD.read_text("utf-8").replace("  - chance: {kind: throw", "  - dice: {kind: throw"), "steps[1]", ""),
        ("id: [unclosed\n", "(file)", "not valid YAML"),
        (GOOD.read_text("utf-8") + "expect: []\n", "(file)", "the key 'expect' is given twice"),
        (
            GOOD.read_text("utf-8").replace("page: 4", "page: 4\n  english: {quote: two white dice}"),
            "source.english",
            "'where' is a required property",
        ),
    ],
)
def test_malformed_file_names_the_file_and_the_field(tmp_path: Path, text: str, field: str, message: str) -> None:
    path = write(tmp_path, "AIR-EX-98-bad.yaml", text.replace("AIR-EX-05", "AIR-EX-98"))
    with pytest.raises(ScenarioFileError) as info:
        load_scenario(path)
    assert info.value.path == str(path)
    assert info.value.field == field
    assert message in info.value.message


def test_a_bad_file_does_not_stop_the_others(tmp_path: Path) -> None:
    bad = write(tmp_path, "AIR-EX-98-bad.yaml", "id: AIR-EX-98\n")
    good = write(tmp_path, GOOD.name, GOOD.read_text("utf-8"))
    results = run_scenarios([bad, good])
    assert [r.status for r in results] == ["error", "pass"]
    assert "AIR-EX-98-bad.yaml" in (results[0].error or "")


def test_a_wrong_expected_value_fails_with_both_numbers(tmp_path: Path) -> None:
    text = GOOD.read_text("utf-8").replace("{path: boards.0.chips, equals: 3", "{path: boards.0.chips, equals: 2")
    result = run_scenario(load_scenario(write(tmp_path, GOOD.name, text)))
    assert result.status == "fail"
    assert any("boards.0.chips is 3, the rulebook says 2" in f for f in result.failures)


def test_an_unknown_card_in_given_is_an_error_naming_the_field(tmp_path: Path) -> None:
    text = GOOD.read_text("utf-8").replace("display: [E1-HAN-2]", "display: [NO-SUCH-CARD]")
    result = run_scenario(load_scenario(write(tmp_path, GOOD.name, text)))
    assert result.status == "error"
    assert "given.display[0]: unknown development card 'NO-SUCH-CARD'" in (result.error or "")


def test_paths_and_loose_equality() -> None:
    view = {"boards": [{"chips": 3}], "dice": {0: {"W": 3}}}
    assert lookup(view, "boards.0.chips") == 3
    assert lookup(view, "dice.0.W") == 3
    assert same("16/27", "16/27") and not same("16/27", "17/27")
    assert same((1, 2), [1, 2]) and not same(True, 1)


def test_plain_pytest_collects_scenario_files(tmp_path: Path) -> None:
    write(tmp_path, GOOD.name, GOOD.read_text("utf-8"))
    write(tmp_path, "AIR-EX-98-bad.yaml", "id: AIR-EX-98\n")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", "utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "scenarios")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    out = proc.stdout
    assert proc.returncode == 1, out
    assert "1 failed, 1 passed" in out
    assert "AIR-EX-98-bad.yaml: (top level): 'title' is a required property" in out


def test_a_citation_of_the_english_edition_is_read_and_shown_as_the_english_edition_s() -> None:
    """Issue 19: where the English edition settles a point the Hungarian rulebook leaves open (AIR-AMB-31:
    one white die from the starter), the example cites it apart from the rulebook's words, marked [EN]."""
    from rulecraft.explore import scenario_trace

    example = load_scenario(ROOT / "scenarios/airships/AIR-EX-01-starting-company-board.yaml")
    assert example.rulebook == "Airships (Hungarian, seeds/003)" and example.page == "2"
    assert example.english == (
        "At the start of the game, all players have 2 white dice at their disposal.",
        "Business start-up for a player’s company",
    )
    assert example.english_citation().startswith('[EN] (Business start-up for a player’s company): "At the start')
    assert load_scenario(GOOD).english is None and load_scenario(GOOD).english_citation() == ""
    notes = scenario_trace("air", "AIR-EX-01").notes
    assert any(n.startswith("the English edition settles a point: [EN]") for n in notes)
