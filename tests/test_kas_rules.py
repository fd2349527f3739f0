"""Kings of Air and Steam rules not covered elsewhere, one test each, citing the rule."""

from __future__ import annotations

import random

from rulecraft.model.kings_of_air_and_steam.actions import Fly, Grant
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.state import Phase
from rulecraft.registry import make_game
from rulecraft.tools import tools


def game() -> KingsOfAirAndSteamGame:
    g = make_game("kas")
    assert isinstance(g, KingsOfAirAndSteamGame)
    return g


def test_player_kit_money_and_goods_at_setup_r02_r03_r04() -> None:
    """KAS-R-02: 10 depots, markers on the starting spaces, 12 cards; KAS-R-03: $12; KAS-R-04: 1 good per factory."""
    g = game()
    s = g.new_game(4)
    for p in s.players:
        assert (p.depots_left, p.airship_level, p.rail_level, p.money) == (10, 1, 1, 12)
    assert len(g.pack.deck) == 12
    assert set(s.factories) == {1}
    assert s.market_pile == (3, 3, 3, 3, 3), "KAS-R-05: 3 tiles of each type"


def test_five_rounds_then_the_sellout_r13_r17_r50() -> None:
    """KAS-R-13: 5 rounds; KAS-R-17, KAS-R-50: with fewer than 3 market tiles left the Sellout follows."""
    g = game()
    s = g.new_game(3)
    rng = random.Random(4)
    rounds = set()
    while s.phase is not Phase.SELLOUT:
        rounds.add(s.round)
        s = g.apply(s, g.random_action(s, rng))
    assert rounds == {1, 2, 3, 4, 5} and sum(s.market_pile) == 0 and s.demand_pile != (0, 0, 0, 0, 0)


def test_grant_takes_three_dollars_r43() -> None:
    """KAS-R-43."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "action",
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: {"plan": ["S01", "S02", "S03", "S04"], "at": [0, -1]},
                1: {"plan": ["S05", "S06", "S07", "S08"], "at": [0, -1]},
            },
        }
    )
    assert g.apply(s, Grant()).players[0].money == 15


def test_most_points_win_then_most_money_then_shared_r53() -> None:
    """KAS-R-53."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 3,
            "phase": "sellout",
            "players_state": {0: {"money": 20}, 1: {"money": 10, "rail_level": 4}, 2: {"money": 15}},
        }
    )
    scores = g.scores(s)
    assert scores == {0: 20, 1: 15, 2: 15}
    assert g.winners(s) == (0,)
    tied = tools(g).scenario_state(
        {"players": 2, "phase": "sellout", "players_state": {0: {"money": 15}, 1: {"money": 10, "rail_level": 4}}}
    )
    assert g.scores(tied) == {0: 15, 1: 15} and g.winners(tied) == (0,), "the richer of the tied players"


def test_characters_never_change_r59() -> None:
    """KAS-R-59: the chosen character stays for the whole game."""
    g = game()
    teams = [("Emperor", "Reginald Kain"), ("Sky Castle", "Eli Diamond"), ("Sphinx", "Eva Blane")]
    s = g.new_game(3, teams=teams)
    rng = random.Random(2)
    while not g.is_over(s):
        s = g.apply(s, g.random_action(s, rng))
        assert [(p.team, p.character) for p in s.players] == teams


def test_team_airship_charts_r60_r64_r68_r72_r76_r80_r84() -> None:
    """KAS-R-60, KAS-R-64, KAS-R-76: standard charts; KAS-R-68: Sphinx's diamonds rise more slowly;
    KAS-R-72: Rose & Thorn worst diamonds, best capacity; KAS-R-80: Sky Castle best diamonds, worst
    capacity; KAS-R-84: Godfather more capacity.  The numbers are reconstructed (KAS-P-05); the
    qualities are the rulebook's."""
    pack = game().pack
    base = pack.airship_track
    chart = {t.name: t.airship_track for t in pack.teams}
    for name in ("Emperor", "DaVinci", "Kings Over Aces"):
        assert [(lv.diamonds, lv.capacity) for lv in chart[name]] == [(lv.diamonds, lv.capacity) for lv in base]
    for level in range(6):
        diamonds = {n: c[level].diamonds for n, c in chart.items()}
        capacity = {n: c[level].capacity for n, c in chart.items()}
        assert diamonds["Sphinx"] <= base[level].diamonds
        assert diamonds["Rose & Thorn"] == min(diamonds.values()) and capacity["Rose & Thorn"] == max(capacity.values())
        assert diamonds["Sky Castle"] == max(diamonds.values()) and capacity["Sky Castle"] == min(capacity.values())
        assert capacity["Godfather"] >= base[level].capacity
    assert any(chart["Godfather"][lv].capacity > base[lv].capacity for lv in range(6))
    assert any(chart["Sphinx"][lv].diamonds < base[lv].diamonds for lv in range(6))


def test_sky_castle_card_flies_six_with_normal_turns_r81() -> None:
    """KAS-R-81: movement 6, the fastest card that still allows turning."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "flight",
            "seat": 0,
            "layout": "ABC",
            "market": {"slots": ["food", "food", "food"]},
            "players_state": {
                0: {
                    "team": "Sky Castle",
                    "character": "Clint Castle",
                    "plan": ["SKY", "S02", "S03", "S04"],
                    "at": [0, 0],
                    "airship_level": 1,
                },
                1: {"team": "Sphinx", "character": "Victor Blane", "plan": ["S12", "S05", "S06", "S07"], "at": [0, 0]},
            },
        }
    )
    flights = [a for a in g.legal_actions(s) if isinstance(a, Fly)]
    assert flights and all(len(a.path) == 6 for a in flights)
    assert any(len(set(a.path)) > 1 for a in flights), "turns are allowed"


def test_uncertainty_variant_removes_five_of_twenty_tiles_unseen_r06() -> None:
    """KAS-R-06: all 20 tiles shuffled, 5 removed unseen; a type can then appear 0-4 times."""
    from fractions import Fraction

    from rulecraft.model.kings_of_air_and_steam.actions import RemoveMarketTile

    g = game()
    s = g.new_game(2, uncertainty=True)
    assert s.phase is Phase.REMOVE_TILES and s.market_pile == (4, 4, 4, 4, 4)
    assert dict(g.chance_outcomes(s)) == {
        RemoveMarketTile(t): Fraction(1, 5) for t in ("chemical", "machine", "food", "textile", "luxury")
    }
    for _ in range(4):
        s = g.apply(s, RemoveMarketTile("food"))
    assert g.check(s, RemoveMarketTile("food")) is not None, "only 4 food tiles exist"
    s = g.apply(s, RemoveMarketTile("luxury"))
    assert s.phase is Phase.START_DEPOTS and sum(s.market_pile) == 15 and s.market_pile[2] == 0
    rng = random.Random(1)
    while not g.is_over(s):
        s = g.apply(s, g.random_action(s, rng))
        assert tools(g).violations(s) == []
    assert s.round == 6, "still five rounds"


def test_a_flight_or_course_correction_off_the_six_directions_is_refused_not_a_crash() -> None:
    """KAS-R-26/42: directions are 0..5; 7 or 9 is a rejection naming the rule (it raised ValueError)."""
    import random

    from rulecraft.model.kings_of_air_and_steam.actions import CourseCorrection, Fly
    from rulecraft.registry import make_game

    game = make_game("kas")
    rng = random.Random(2)
    state = game.new_game(3)
    seen: set[str] = set()
    for _ in range(4000):
        kinds = {type(a).__name__ for a in game.legal_actions(state)}
        if "Fly" in kinds and "Fly" not in seen:
            seen.add("Fly")
            rejection = game.check(state, Fly((7, 1)))
            assert rejection is not None and rejection.rule == "KAS-R-26"
        if "CourseCorrection" in kinds and "CourseCorrection" not in seen:
            seen.add("CourseCorrection")
            rejection = game.check(state, CourseCorrection(9))
            assert rejection is not None and rejection.rule == "KAS-R-42"
        action = game.random_action(state, rng)
        if action is None or seen == {"Fly", "CourseCorrection"}:
            break
        state = game.apply(state, action)
    assert seen == {"Fly", "CourseCorrection"}


def test_a_teams_airship_chart_and_star_card_are_the_grounds_of_its_flights() -> None:
    """KAS-R-80/81 (Sky Castle's chart and 6-hex star card), read from pack data, are named as the
    grounds of its flights so rule coverage can see them; a base-game flight names none."""
    import random

    from rulecraft.model.kings_of_air_and_steam.actions import Fly
    from rulecraft.registry import make_game

    game = make_game("kas")
    seen: set[str] = set()
    for seed in range(10):  # seeded games until the star card has been planned and flown
        state = game.new_game(2, teams=(("Sky Castle", "Clint Castle"), ("Emperor", "Reginald Kain")))
        rng = random.Random(seed)
        while not game.is_over(state) and len(seen) < 2:
            for action in game.legal_actions(state):
                if isinstance(action, Fly) and state.players[state.seat].team == "Sky Castle":
                    seen.update(game.grounds(state, action))
            action = game.random_action(state, rng, "purposeful")
            assert action is not None
            state = game.apply(state, action)
    assert seen == {"KAS-R-80", "KAS-R-81"}
    base = game.new_game(2)
    assert all(game.grounds(base, a) == () for a in game.legal_actions(base))
