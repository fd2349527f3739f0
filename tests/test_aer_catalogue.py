"""Aeroplanes: the rule catalogue, the ambiguity register and the rulebook
findings cover exactly the IDs of the digest, in order, with valid line
references and defaults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulecraft.model.aeroplanes.catalogue import RULES
from rulecraft.model.aeroplanes.readings import FINDINGS, REGISTER, Finding
from rulecraft.ruleset import Ruleset, UnknownReading

SHARED = Path(__file__).resolve().parents[2] / "shared"
DIGEST = SHARED / "rules/aeroplanes-aviation-ascendant.md"
SEED = SHARED / "seeds/002_255f9713186abbef.txt"

SEED_LINES = 186  # the seed has no page numbers; "pages" are its line numbers
RULE_IDS = [f"AER-R-{i:02d}" for i in range(1, 65)]
AMB_IDS = [f"AER-AMB-{i:02d}" for i in range(1, 60)]
PAGES = re.compile(r"l\.\d+(-\d+)?(,\d+(-\d+)?)*")
KEY = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")

# The contradictions the digest found in the text, each carried by a reading.
CONTRADICTIONS = {
    "AER-AMB-02": ("nine-each", "box-count"),  # 130 airport tiles vs 5 x 27 = 135
    "AER-AMB-03": ("once", "twice"),  # the era 2/3 income listed twice
    "AER-AMB-04": ("roll", "taker"),  # who gets the first-player die in a new era
    "AER-AMB-16": ("hop", "symmetric"),  # the rows missing from the risk table
}
SETTLED = {
    "AER-AMB-05",
    "AER-AMB-07",
    "AER-AMB-08",
    "AER-AMB-11",
    "AER-AMB-14",
    "AER-AMB-17",
    "AER-AMB-23",
    "AER-AMB-24",
    "AER-AMB-27",
    "AER-AMB-28",
    "AER-AMB-29",
    "AER-AMB-31",
    "AER-AMB-32",
    "AER-AMB-34",
    "AER-AMB-35",
    "AER-AMB-38",
    "AER-AMB-40",
    "AER-AMB-43",
    "AER-AMB-46",
    "AER-AMB-47",
    "AER-AMB-48",
    "AER-AMB-49",
    "AER-AMB-51",
    "AER-AMB-52",
    "AER-AMB-53",
    "AER-AMB-54",
    "AER-AMB-55",
    "AER-AMB-56",
    "AER-AMB-57",
}
# Two readings or more, but none can change play.
HARMLESS = {"AER-AMB-01", "AER-AMB-30", "AER-AMB-33", "AER-AMB-44", "AER-AMB-45"}


def _lines(page: str) -> list[int]:
    """Every seed line a page reference names ('l.40-44,179' -> 40..44, 179)."""
    out: list[int] = []
    for part in page.removeprefix("l.").split(","):
        first, _, last = part.partition("-")
        out.extend(range(int(first), int(last or first) + 1))
    return out


def _assert_valid_page(what: str, page: str) -> None:
    assert PAGES.fullmatch(page), (what, page)
    for part in page.removeprefix("l.").split(","):
        first, _, last = part.partition("-")
        assert not last or int(first) < int(last), (what, page)
    assert all(1 <= n <= SEED_LINES for n in _lines(page)), (what, page)


def _digest() -> str:
    if not DIGEST.is_file():
        pytest.skip(f"the rules digest is not next to this checkout ({DIGEST}), e.g. in a wheel install")
    return DIGEST.read_text(encoding="utf-8")


def _digest_ids(kind: str) -> list[str]:
    """IDs of one kind in the digest, in the order of their defining bullet ('- **AER-R-01 (structure, ...'."""
    return re.findall(rf"^- \*\*(AER-{kind}-\d{{2}})\b", _digest(), flags=re.MULTILINE)


def test_catalogue_has_every_rule_in_order() -> None:
    assert RULES.game == "aer"
    assert [r.id for r in RULES] == RULE_IDS
    for rule in RULES:
        assert rule.statement.strip(), rule.id
        _assert_valid_page(rule.id, rule.page)


def test_register_has_every_ambiguity_in_order_with_valid_defaults() -> None:
    assert REGISTER.game == "aer"
    assert [a.id for a in REGISTER] == AMB_IDS
    for amb in REGISTER:
        assert amb.default in amb.choices(), amb.id
        assert amb.question.strip() and amb.why.strip(), amb.id
        _assert_valid_page(amb.id, amb.page)
        assert all(r.text.strip() for r in amb.readings), amb.id
        assert all(KEY.fullmatch(k) and len(k) <= 12 for k in amb.choices()), (amb.id, amb.choices())


def test_catalogue_and_register_agree_with_the_digest() -> None:
    assert _digest_ids("R") == RULE_IDS
    assert _digest_ids("AMB") == AMB_IDS


def test_rule_lines_meet_the_lines_the_digest_cites() -> None:
    """Where a digest rule heading cites seed lines, the catalogue cites at least one of them."""
    headings = dict(re.findall(r"^- \*\*(AER-R-\d{2}) \(([^)]*)\)", _digest(), flags=re.MULTILINE))
    checked = 0
    for rule in RULES:
        cited = re.findall(r"l\.(\d+)(?:–(\d+))?", headings.get(rule.id, ""))
        if not cited:
            continue
        digest_lines = {n for a, b in cited for n in range(int(a), int(b or a) + 1)}
        assert digest_lines & set(_lines(rule.page)), (rule.id, rule.page, sorted(digest_lines))
        checked += 1
    assert checked >= 25  # the headings of 3.1-3.4 and 3.9-3.10 cite lines; 3.5-3.8 cite them per section


def test_the_seed_has_the_lines_the_pages_name() -> None:
    if not SEED.is_file():
        pytest.skip(f"the rulebook seed is not next to this checkout ({SEED})")
    lines = SEED.read_text(encoding="utf-8").splitlines()
    assert len(lines) == SEED_LINES
    # spot checks that the line numbers are the seed's: the risk table and the profit example
    assert "ТРЕБОВАНИЯ РИСКА" in lines[_lines(RULES["AER-R-21"].page)[6] - 1]
    assert "Коулман" in lines[_lines(REGISTER["AER-AMB-36"].page)[-1] - 1]
    assert "130" in lines[_lines(REGISTER["AER-AMB-02"].page)[0] - 1]


def test_single_reading_entries_are_settled_questions() -> None:
    single = {a.id for a in REGISTER if len(a.readings) == 1}
    assert single == SETTLED
    assert not any(REGISTER[i].affects_play for i in single | HARMLESS)
    assert {a.id for a in REGISTER if not a.affects_play} == SETTLED | HARMLESS


def test_the_contradictions_are_switches() -> None:
    for amb_id, (default, other) in CONTRADICTIONS.items():
        amb = REGISTER[amb_id]
        assert amb.affects_play, amb_id
        assert amb.default == default and other in amb.choices(), (amb_id, amb.choices())


def test_every_finding_names_a_registered_ambiguity() -> None:
    assert [f.id for f in FINDINGS] == [f"AER-F-{i:02d}" for i in range(1, len(FINDINGS) + 1)]
    registered = {a.id for a in REGISTER}
    for finding in FINDINGS:
        assert isinstance(finding, Finding)
        assert finding.ambiguity in registered, finding.id
        assert finding.text.strip(), finding.id
        _assert_valid_page(finding.id, finding.page)
        # the finding's lines are (among) the lines its ambiguity cites
        assert set(_lines(finding.page)) & set(_lines(REGISTER[finding.ambiguity].page)), finding.id
    assert len({f.ambiguity for f in FINDINGS}) == len(FINDINGS)


def test_the_four_contradictions_are_findings() -> None:
    by_ambiguity = {f.ambiguity: f for f in FINDINGS}
    assert set(CONTRADICTIONS) <= set(by_ambiguity)
    assert "130" in by_ambiguity["AER-AMB-02"].text and "135" in by_ambiguity["AER-AMB-02"].text
    assert "twice" in by_ambiguity["AER-AMB-03"].text
    assert "first-player die" in by_ambiguity["AER-AMB-04"].text
    assert "red + white" in by_ambiguity["AER-AMB-16"].text and "10+" in by_ambiguity["AER-AMB-16"].text


def test_findings_are_frozen() -> None:
    finding = FINDINGS[0]
    with pytest.raises(AttributeError):
        finding.text = "changed"  # type: ignore[misc]
    assert hash(finding) == hash(Finding(finding.id, finding.page, finding.text, finding.ambiguity))


def test_printed_ruleset_plays_every_default() -> None:
    printed = Ruleset.printed(REGISTER)
    assert printed.game == "aer" and printed.name == "printed"
    assert printed.reading("AER-AMB-16") == "hop"
    other = printed.with_readings(REGISTER, {"AER-AMB-16": "symmetric", "AER-AMB-04": "taker"})
    assert other.name == "printed+AER-AMB-04=taker,AER-AMB-16=symmetric"
    with pytest.raises(UnknownReading, match="AER-AMB-16 has no reading"):
        printed.with_readings(REGISTER, {"AER-AMB-16": "free"})
    with pytest.raises(UnknownReading, match="AER-AMB-60 is not a registered ambiguity of aer"):
        printed.with_readings(REGISTER, {"AER-AMB-60": "x"})


def test_rejections_cite_the_rule_lines() -> None:
    rejection = RULES.reject("AER-R-29", "Paris has no empty slot and no lower-stage tile to replace")
    assert rejection.page == "l.122-129"
    with pytest.raises(KeyError, match="AER-R-65 is not a rule of aer"):
        RULES.reject("AER-R-65", "x")
