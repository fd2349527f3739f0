"""The game-agnostic kernel: registry, rulesets, catalogue, rejections."""

from __future__ import annotations

import pytest

from rulecraft.core import CHANCE, GAME_OVER, IllegalAction, Rejection
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.registry import UnknownGame, game_class, game_ids, make_game
from rulecraft.ruleset import Ruleset, UnknownReading, parse_reading_overrides


def test_airships_is_registered_through_the_entry_point() -> None:
    assert "air" in game_ids()
    assert game_class("air").title == "Airships"


def test_unknown_game_names_the_registered_ones() -> None:
    with pytest.raises(UnknownGame, match=r"registered games: .*air"):
        game_class("chess")


def test_rejection_reads_as_the_design_card_shows() -> None:
    r = Rejection("AIR-R-30", "at most three dice of one colour may be thrown; 4 W requested", "3-4")
    assert str(r) == "AIR-R-30 (p.3-4) — at most three dice of one colour may be thrown; 4 W requested"
    assert str(IllegalAction(r)) == str(r)
    assert r.to_json() == {"rule": "AIR-R-30", "reason": r.reason, "page": "3-4"}


def test_catalogue_reject_fills_the_page_and_refuses_unknown_ids() -> None:
    cat = game_class("air").catalogue
    assert cat.reject("AIR-R-42", "x").page == "4"
    with pytest.raises(KeyError, match="AIR-R-99 is not a rule of air"):
        cat.reject("AIR-R-99", "x")


def test_catalogue_covers_every_digest_rule_id() -> None:
    cat = game_class("air").catalogue
    assert [r.id for r in cat] == [f"AIR-R-{i:02d}" for i in range(1, 52)]
    assert all(r.page and r.statement for r in cat)


def test_register_covers_every_digest_ambiguity_with_a_valid_default() -> None:
    reg = game_class("air").register
    assert [a.id for a in reg] == [f"AIR-AMB-{i:02d}" for i in range(1, 37)]
    for amb in reg:
        assert amb.default in amb.choices()
        assert amb.why and amb.question


def test_ruleset_overrides_are_validated_and_named() -> None:
    reg = game_class("air").register
    printed = Ruleset.printed(reg)
    assert printed.reading("AIR-AMB-09") == "B"
    other = printed.with_readings(reg, {"AIR-AMB-09": "C"})
    assert other.reading("AIR-AMB-09") == "C"
    assert other.name == "printed+AIR-AMB-09=C"
    assert printed.reading("AIR-AMB-09") == "B", "rulesets are values; overriding makes a new one"
    with pytest.raises(UnknownReading, match="AIR-AMB-09 has no reading 'D'; choose one of A, B, C"):
        printed.with_readings(reg, {"AIR-AMB-09": "D"})
    with pytest.raises(UnknownReading, match="AIR-AMB-99 is not a registered ambiguity"):
        printed.with_readings(reg, {"AIR-AMB-99": "a"})


def test_reading_overrides_parse_the_cli_form() -> None:
    assert parse_reading_overrides(["AIR-AMB-09=C", " AIR-AMB-18 = sequential "]) == {
        "AIR-AMB-09": "C",
        "AIR-AMB-18": "sequential",
    }
    with pytest.raises(UnknownReading, match="expected ID=READING"):
        parse_reading_overrides(["AIR-AMB-09"])


def test_unmodelled_reading_is_refused_not_silently_played() -> None:
    from types import MappingProxyType

    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame

    class Refusing(KingsOfAirAndSteamGame):  # every kas reading is played now: a game that refuses one
        not_modelled = MappingProxyType({("KAS-AMB-39", "any-depot"): "refused for this test"})

    with pytest.raises(UnknownReading, match=r"registered but not modelled yet; the model plays 'same-depot' \(why"):
        Refusing.configured(readings={"KAS-AMB-39": "any-depot"})
    # Two readings each played alone but not together are refused naming both.
    with pytest.raises(UnknownReading, match="KAS-AMB-25=consume-room with KAS-AMB-30=simultaneous is not modelled"):
        make_game("kas", readings={"KAS-AMB-25": "consume-room", "KAS-AMB-30": "simultaneous"})
    # A reading that needs data the rulebook does not print is refused naming the missing pack field.
    with pytest.raises(UnknownReading, match=r"KAS-AMB-46=per-character .* no teams\[\]\.character_priority"):
        make_game("kas", readings={"KAS-AMB-46": "per-character"})


def test_the_model_asks_its_own_ruleset() -> None:
    a = make_game("air")
    b = make_game("air", readings={"AIR-AMB-18": "sequential"})
    assert isinstance(a, AirshipsGame) and isinstance(b, AirshipsGame)
    assert a.ctx.r("AIR-AMB-18") == "free"
    assert b.ctx.r("AIR-AMB-18") == "sequential"


def test_to_move_is_chance_during_setup_and_nobody_at_the_end() -> None:
    import random

    game = make_game("air")
    state = game.new_game(3)
    assert game.to_move(state) is CHANCE
    final, log = game.play_random(state, random.Random(3))
    assert game.to_move(final) is GAME_OVER
    assert game.replay(game.new_game(3), log) == final, "a game replays exactly from its action log"


def test_setup_round_trips_through_json_and_starts_a_game() -> None:
    from rulecraft.core import RulecraftError, Setup

    setup = Setup.from_json({"players": 3, "first_seat": 2, "options": {"nations": ["Italy", "USA", "France"]}})
    assert Setup.from_json(setup.to_json()) == setup
    state = make_game("air").start(setup)
    assert [b.nation for b in state.boards] == ["Italy", "USA", "France"]
    assert [b.chips for b in state.boards] == [4, 4, 3]
    with pytest.raises(RulecraftError, match="AIR-R-07"):
        make_game("air").start(Setup(2, 0, (("nations", ("USA", "USA")),)))
    with pytest.raises(RulecraftError, match="integer 'players'"):
        Setup.from_json({"players": "four"})
