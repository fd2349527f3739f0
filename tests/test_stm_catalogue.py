"""Steamopolis: the rule catalogue and the ambiguity register cover exactly the
IDs of the digest, in order, with valid pages and defaults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulecraft.model.steamopolis.catalogue import RULES, reject
from rulecraft.model.steamopolis.game import SteamopolisGame
from rulecraft.model.steamopolis.readings import NOT_MODELLED, REGISTER
from rulecraft.ruleset import Ruleset, UnknownReading

DIGEST = Path(__file__).resolve().parents[2] / "shared/rules/steamopolis.md"
RULEBOOK = Path(__file__).resolve().parents[2] / "shared/seeds/004_518a942f8ddfeea1.txt"
GAUGE_TESTS = Path(__file__).with_name("test_stm_gauge.py")

RULE_IDS = [f"STM-R-{i:02d}" for i in range(1, 74)]
AMB_IDS = [f"STM-AMB-{i:02d}" for i in range(1, 43)]  # 34-42 found while modelling
PAGES = re.compile(r"\d+(-\d+)?(,\d+(-\d+)?)*")


def _digest() -> str:
    if not DIGEST.is_file():
        pytest.skip(f"the rules digest is not next to this checkout ({DIGEST}), e.g. in a wheel install")
    return DIGEST.read_text(encoding="utf-8")


def _digest_ids(kind: str) -> list[str]:
    """IDs of one kind in the digest, in the order of their defining bullet ('* **STM-R-01 Board side.**')."""
    return re.findall(rf"^\* \*\*(STM-{kind}-\d{{2}})\b", _digest(), flags=re.MULTILINE)


def test_catalogue_has_every_rule_in_order() -> None:
    assert RULES.game == "stm"
    assert [r.id for r in RULES] == RULE_IDS
    for rule in RULES:
        assert rule.statement.strip(), rule.id
        assert PAGES.fullmatch(rule.page), (rule.id, rule.page)


def test_register_has_every_ambiguity_in_order_with_valid_defaults() -> None:
    assert REGISTER.game == "stm"
    assert [a.id for a in REGISTER] == AMB_IDS
    for amb in REGISTER:
        assert amb.default in amb.choices(), amb.id
        assert amb.question.strip() and amb.why.strip(), amb.id
        assert PAGES.fullmatch(amb.page), (amb.id, amb.page)
        assert all(r.key and r.text.strip() for r in amb.readings), amb.id


def test_catalogue_and_register_agree_with_the_digest() -> None:
    """The register holds the digest's ambiguities in order, then those found while modelling."""
    assert _digest_ids("R") == RULE_IDS
    digest = _digest_ids("AMB")
    assert AMB_IDS[: len(digest)] == digest
    assert AMB_IDS[len(digest) :] == [f"STM-AMB-{n:02d}" for n in range(len(digest) + 1, len(AMB_IDS) + 1)]


def test_every_example_the_gauge_tests_cite_is_in_the_digest() -> None:
    examples = set(re.findall(r"STM-EX-\d{2}", _digest()))
    cited = set(re.findall(r"STM-EX-\d{2}", GAUGE_TESTS.read_text(encoding="utf-8")))
    assert cited and cited <= examples, cited - examples


def test_single_reading_entries_are_settled_questions() -> None:
    single = {a.id for a in REGISTER if len(a.readings) == 1}
    assert single == {"STM-AMB-01", "STM-AMB-08", "STM-AMB-30"}
    assert all(not REGISTER[i].affects_play for i in single)


def test_the_briefed_readings_and_defaults() -> None:
    """STM-AMB-02 (machine-room entry) and STM-AMB-03 (bonus numerals) are real switches."""
    assert REGISTER["STM-AMB-02"].choices() == ("v-1", "v-2") and REGISTER["STM-AMB-02"].default == "v-1"
    assert REGISTER["STM-AMB-03"].choices() == ("value", "separate") and REGISTER["STM-AMB-03"].default == "value"
    assert REGISTER["STM-AMB-32"].default == "free-order"
    assert REGISTER["STM-AMB-05"].default == "optional"


def test_printed_ruleset_plays_every_default() -> None:
    printed = Ruleset.printed(REGISTER)
    assert printed.game == "stm" and printed.name == "printed"
    assert printed.reading("STM-AMB-02") == "v-1"
    other = printed.with_readings(REGISTER, {"STM-AMB-02": "v-2"})
    assert other.name == "printed+STM-AMB-02=v-2"
    with pytest.raises(UnknownReading, match="STM-AMB-02 has no reading"):
        printed.with_readings(REGISTER, {"STM-AMB-02": "v-3"})


def test_rejections_cite_the_rule_page() -> None:
    rejection = RULES.reject("STM-R-18", "no free space and no bonus marker")
    assert rejection.page == "15"
    with pytest.raises(KeyError, match="STM-R-74 is not a rule of stm"):
        RULES.reject("STM-R-74", "x")


def test_the_rules_refusals_cite_the_page_as_the_catalogue_does() -> None:
    """The rules build their refusals through catalogue.reject (the pages read once): STM-R-18 is on p.15
    as RULES.reject cites it, and an ID the catalogue lacks is refused the same way."""
    assert reject("STM-R-18", "no free space and no bonus marker") == RULES.reject(
        "STM-R-18", "no free space and no bonus marker"
    )
    assert reject("STM-R-18", "x").page == "15"
    with pytest.raises(KeyError, match="STM-R-74 is not a rule of stm"):
        reject("STM-R-74", "x")


# The rulebook's own words each reviewed entry quotes, and the pages the rulebook names for them:
# the component list is "pages 2 and 3" and the game board "(see page 5)"; the parasite examples are
# "Examples (page 34)"; "Resource markers (see page 29)"; "Bonus markers (see page 22)" with its
# "Example (page 23)".
QUOTED: dict[str, tuple[tuple[str, ...], set[int]]] = {
    # the banner's stone (p.20, "Examples (page 20)") and a parasite's use (p.33, before "Examples (page 34)")
    "STM-AMB-11": (("You cannot give up your last pressure stone",), {20}),
    "STM-AMB-36": (
        (
            "For each of your parasites on a machine of a fellow player",
            "you must put the parasite back into your supply. Afterwards you may likewise use the effect",
        ),
        {33},
    ),
    "STM-AMB-19": (
        (
            "If you receive resources through the effect, you must store or discard them immediately",
            "Red must store the crystal only at the end of her turn",
            "You must store the resources only after you have placed your pressure stone",
        ),
        {29, 34},
    ),
    "STM-AMB-24": (
        (
            "Game board (double-sided for 1-3 or 4-5 players)",
            "4x Base pressure markers (1 per player colour)",
            "20x Pressure stones (5 per player colour)",
            "Set up the game on the 2/3-player side",
        ),
        {2, 3, 5},
    ),
    "STM-AMB-42": (
        (
            "If there is already a pressure stone there, you may increase its pressure by 1 to make room. "
            "If that is not possible, you must put the bonus marker into the box.",
            "she may move it",
        ),
        {22, 23},
    ),
}


def _pages(field: str) -> set[int]:
    """'2-5,17' -> {2, 3, 4, 5, 17}."""
    out: set[int] = set()
    for part in field.split(","):
        low, _, high = part.partition("-")
        out.update(range(int(low), int(high or low) + 1))
    return out


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("amb_id", sorted(QUOTED))
def test_reviewed_entries_quote_the_rulebook_and_cite_its_pages(amb_id: str) -> None:
    """STM-AMB-19 (p.33-34 storing), STM-AMB-24 (p.2-3 board sides), STM-AMB-42 (p.22-23 bump) and the
    two reasons that paraphrased inside quote marks (STM-AMB-11, 36): every quote the reason and the
    readings give is the rulebook's wording, on a page the entry cites."""
    if not RULEBOOK.is_file():
        pytest.skip(f"the rulebook is not next to this checkout ({RULEBOOK})")
    rulebook = _words(RULEBOOK.read_text(encoding="utf-8"))
    amb = REGISTER[amb_id]
    said = _words(" ".join([amb.why, *(r.text for r in amb.readings)]))
    quotes, pages = QUOTED[amb_id]
    for quote in quotes:
        assert quote in rulebook, f"not the rulebook's words: {quote!r}"
        assert quote in said, f"{amb_id} does not quote {quote!r}"
    assert pages <= _pages(amb.page), (amb_id, amb.page)


def test_board_sides_are_the_component_lists_1_3_and_4_5() -> None:
    """STM-AMB-24 (p.2-3): the board is 'double-sided for 1-3 or 4-5 players'; no reading names a
    2-3 player side."""
    texts = " ".join([REGISTER["STM-AMB-24"].why, *(r.text for r in REGISTER["STM-AMB-24"].readings)])
    assert "'1-3'" in texts and "'4-5'" in texts
    assert "2-3 players" not in texts and "2-3 /" not in texts


def test_a_declined_bonus_marker_bump_is_registered_and_compulsory_is_played() -> None:
    """STM-R-47 (p.22): 'you may increase its pressure by 1 to make room'; the digest's 'declined: to the
    box' is a reading (STM-AMB-42), the default the model plays; 'compulsory' is played too (chosen with
    --reading: tests/test_stm_readings.py shows where it refuses)."""
    amb = REGISTER["STM-AMB-42"]
    assert amb.choices() == ("optional", "compulsory") and amb.default == "optional"
    assert amb.affects_play
    assert ("STM-AMB-42", "compulsory") not in NOT_MODELLED
    assert SteamopolisGame.configured(readings={"STM-AMB-42": "compulsory"}).ctx.r("STM-AMB-42") == "compulsory"
