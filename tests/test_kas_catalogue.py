"""Kings of Air and Steam: the rule catalogue and the ambiguity register
cover exactly the IDs of the digest, in order, with valid defaults."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulecraft.model.kings_of_air_and_steam.catalogue import RULES
from rulecraft.model.kings_of_air_and_steam.readings import NOT_MODELLED, REGISTER
from rulecraft.ruleset import Ruleset

DIGEST = Path(__file__).resolve().parents[2] / "shared/rules/kings-of-air-and-steam.md"

RULE_IDS = [f"KAS-R-{i:02d}" for i in range(1, 88)]
AMB_IDS = [f"KAS-AMB-{i:02d}" for i in range(1, 48)]


def _digest_ids(kind: str) -> list[str]:
    """IDs of one kind in the digest, in order of their defining heading."""
    if not DIGEST.is_file():
        pytest.skip(f"the rules digest is not next to this checkout ({DIGEST}), e.g. in a wheel install")
    text = DIGEST.read_text(encoding="utf-8")
    # A rule or ambiguity is defined by a bold heading at the start of a line.
    return re.findall(rf"^\*\*(KAS-{kind}-\d{{2}}) — ", text, flags=re.MULTILINE)


def test_catalogue_has_every_rule_in_order() -> None:
    assert RULES.game == "kas"
    assert [r.id for r in RULES] == RULE_IDS
    assert len(RULES) == 87
    for rule in RULES:
        assert rule.page.strip() and rule.statement.strip(), rule.id
        assert re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", rule.page), (rule.id, rule.page)


def test_register_has_every_ambiguity_in_order_with_valid_defaults() -> None:
    assert REGISTER.game == "kas"
    assert [a.id for a in REGISTER] == AMB_IDS
    assert len(REGISTER) == 47
    for amb in REGISTER:
        assert amb.default in amb.choices(), amb.id
        assert amb.question.strip() and amb.why.strip(), amb.id
        assert re.fullmatch(r"\d+(-\d+)?(,\d+(-\d+)?)*", amb.page), (amb.id, amb.page)
        assert all(r.key and r.text.strip() for r in amb.readings), amb.id


def test_single_reading_entries_are_not_real_choices() -> None:
    for amb in REGISTER:
        if len(amb.readings) == 1:
            assert not amb.affects_play, amb.id
    assert {a.id for a in REGISTER if len(a.readings) == 1} == {"KAS-AMB-13", "KAS-AMB-31"}


def test_the_briefed_readings_and_defaults() -> None:
    expected = {
        "KAS-AMB-09": (("a", "b"), "a"),
        "KAS-AMB-10": (("a", "b", "c", "d"), "a"),
        "KAS-AMB-12": (("unlimited", "capped"), "unlimited"),
        "KAS-AMB-24": (("full", "skip-upkeep"), "full"),
        "KAS-AMB-47": (("ABCDE", "ABCFG", "cutthroat"), "ABCDE"),
    }
    for amb_id, (keys, default) in expected.items():
        assert REGISTER[amb_id].choices() == keys, amb_id
        assert REGISTER[amb_id].default == default, amb_id
    assert not REGISTER["KAS-AMB-06"].affects_play
    assert not REGISTER["KAS-AMB-08"].affects_play


def test_not_modelled_names_registered_readings_only() -> None:
    for amb_id, key in NOT_MODELLED:
        assert key in REGISTER[amb_id].choices()
        assert key != REGISTER[amb_id].default


def test_catalogue_and_register_agree_with_the_digest() -> None:
    assert _digest_ids("R") == RULE_IDS
    assert _digest_ids("AMB") == AMB_IDS


def test_printed_ruleset_plays_every_default() -> None:
    printed = Ruleset.printed(REGISTER)
    assert printed.game == "kas"
    assert printed.name == "printed"
    assert dict(printed.readings) == REGISTER.defaults()
    assert printed.non_defaults(REGISTER) == {}
    assert printed.reading("KAS-AMB-09") == "a"
    other = printed.with_readings(REGISTER, {"KAS-AMB-10": "b"})
    assert other.name == "printed+KAS-AMB-10=b"


def test_rejections_cite_the_rule_page() -> None:
    rejection = RULES.reject("KAS-R-33", "no depot token left")
    assert rejection.page == "12"
    with pytest.raises(KeyError, match="KAS-R-88 is not a rule of kas"):
        RULES.reject("KAS-R-88", "x")
