"""The advanced game (KAS-R-57..87), one rule at a time: teams, priority,
the special cards and the characters the model plays."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulecraft.core import RulecraftError
from rulecraft.model.kings_of_air_and_steam.actions import (
    BuildDepot,
    Convert,
    CourseCorrection,
    EndCargo,
    ExtraAction,
    Fly,
    Grant,
    Load,
    Pass,
    ShipGoods,
    Steal,
    UpgradeAirship,
)
from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame
from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase
from rulecraft.registry import make_game
from rulecraft.tools import tools


def game() -> KingsOfAirAndSteamGame:
    g = make_game("kas")
    assert isinstance(g, KingsOfAirAndSteamGame)
    return g


def mid_turn(g: KingsOfAirAndSteamGame, seat_spec: dict[str, Any], **given: Any) -> KasState:
    """A 2-player advanced state in the turn of seat 0 (cycle 1)."""
    other = {"team": "Sky Castle", "character": "Clint Castle", "plan": ["S12", "S11", "S10", "S09"], "at": [3, 3]}
    spec = {"plan": ["S01", "S02", "S03", "S04"], "at": [0, -1], **seat_spec}
    return tools(g).scenario_state({"players": 2, "players_state": {0: spec, 1: other}, "seat": 0, **given})


def rule(g: KingsOfAirAndSteamGame, state: KasState, action: Any) -> str | None:
    rejection = g.check(state, action)
    return rejection.rule if rejection else None


# -- set-up -----------------------------------------------------------------------------------------


def test_starting_depots_in_reverse_priority_and_harveys_free_second_depot_r11_r62() -> None:
    """KAS-R-11, KAS-R-62, KAS-R-63: highest priority places first, Harvey before all, then his free second depot."""
    g = game()
    teams = [("Godfather", "Thaddeus Birch"), ("Emperor", "Harvey Golding"), ("Sphinx", "Victor Blane")]
    s = g.new_game(3, teams=teams)
    assert s.advanced and s.order == (1, 0, 2), "Harvey first, then priority 7 (Godfather), then 3 (Sphinx)"
    rng = random.Random(1)
    while s.phase is Phase.START_DEPOTS and s.bonus is None:
        s = g.apply(s, g.random_action(s, rng))
    assert s.seat == 1 and s.bonus == "second-depot"
    money = s.players[1].money
    first = s.players[1].position
    s = g.apply(s, g.legal_actions(s)[0])
    assert s.players[1].money == money, "the second depot is free"
    assert s.players[1].position == first, "his airship starts on the first depot"
    assert sum(1 for d in s.depots if d.owner == 1) == 2 and s.phase is Phase.NEW_MARKET


def test_reginald_kain_starts_with_twenty_dollars_r63() -> None:
    """KAS-R-63."""
    s = game().new_game(2, teams=[("Emperor", "Reginald Kain"), ("DaVinci", "I.S.A.A.C.")])
    assert [p.money for p in s.players] == [20, 12]
    assert s.players[1].tokens == 5, "KAS-R-67: five perpetual-motion tokens"


def test_team_choice_is_checked_r08_r09() -> None:
    """KAS-R-08, KAS-R-09: different teams, a character of one's own team."""
    g = game()
    with pytest.raises(RulecraftError, match="KAS-R-08"):
        g.new_game(2, teams=[("Emperor", "Harvey Golding"), ("Emperor", "Reginald Kain")])
    with pytest.raises(RulecraftError, match="KAS-R-09"):
        g.new_game(2, teams=[("Emperor", "Clint Castle"), ("Sphinx", "Victor Blane")])


def test_ties_go_to_the_lower_priority_number_r23() -> None:
    """KAS-R-23 (KAS-EX-22, p.17), KAS-R-10: equal letters, priority 2 acts before priority 4."""
    g = game()
    s = tools(g).scenario_state(
        {
            "players": 3,
            "players_state": {
                0: {
                    "team": "Emperor",
                    "character": "Harvey Golding",
                    "plan": ["S03", "S01", "S02", "S04"],
                    "at": [0, -1],
                },
                1: {
                    "team": "Rose & Thorn",
                    "character": "Bishop Kingston",
                    "plan": ["S05", "S01", "S02", "S03"],
                    "at": [0, -1],
                },
                2: {"team": "DaVinci", "character": "I.S.A.A.C.", "plan": ["S06", "S01", "S02", "S03"], "at": [0, -1]},
            },
            "seat": 0,
        }
    )
    assert s.order == (0, 2, 1), "B first; the two C cards: DaVinci (2) before Rose & Thorn (4)"


# -- special cards --------------------------------------------------------------------------------------


def first_turn(
    g: KingsOfAirAndSteamGame, me: dict[str, Any], other: dict[str, Any] | None = None, **given: Any
) -> KasState:
    """Planning ends (seat 1 plans its last card); cycle 1 starts with seat 0's turn."""
    other = other or {"team": "Sky Castle", "character": "Clint Castle", "plan": ["S12", "S11", "S10"], "at": [3, 3]}
    spec = {"at": [0, -1], **me}
    state = tools(g).scenario_state(
        {
            "players": 2,
            "phase": "planning",
            "seat": 1,
            "players_state": {0: spec, 1: other},
            "market": {"slots": ["food", "food", "textile"]},
            **given,
        }
    )
    state = g.apply(state, g.action_from_json({"kind": "plan", "card": "S09"}))
    assert state.order[0] == 0 and state.seat == 0
    return state


def test_emperor_card_skips_movement_for_two_actions_r61() -> None:
    """KAS-R-61 (KAS-AMB-32): no movement step, two full actions, the same one twice allowed."""
    g = game()
    s = first_turn(
        g, {"team": "Emperor", "character": "Harvey Golding", "airship_level": 3, "plan": ["EMP", "S02", "S03", "S04"]}
    )
    assert s.phase is Phase.ACTION and s.actions_left == 2
    assert rule(g, s, Fly((0,))) == "KAS-R-32"
    money = s.players[0].money
    s = g.apply(s, Grant())
    assert s.phase is Phase.ACTION and s.seat == 0, "a second action follows"
    s = g.apply(s, Grant())
    assert s.players[0].money == money + 6 and s.seat == 1


def test_emperor_card_course_correction_then_the_second_action_r61_r42() -> None:
    """KAS-R-61 (p.18): the Emperor card gives two full actions.  KAS-R-42 (p.14): a Course Correction
    moves the airship 1 hex, after which the player may load/unload as after a flight.  When that
    loading step ends, the second action follows in the same turn, with no loading step left open
    (KAS-R-28, p.11: loading belongs to the move just made); after it the turn passes."""
    g = game()
    s = first_turn(
        g, {"team": "Emperor", "character": "Harvey Golding", "airship_level": 3, "plan": ["EMP", "S02", "S03", "S04"]}
    )
    start = s.players[0].position
    assert start is not None
    s = g.apply(s, CourseCorrection(0))  # east, onto a plain hex of map ABC
    assert s.phase is Phase.CARGO and s.players[0].position == start.step(0)
    s = g.apply(s, EndCargo())
    assert s.phase is Phase.ACTION and s.seat == 0 and s.actions_left == 1, "the second action follows"
    assert s.cargo is None, "the loading step after the Course Correction is over"
    assert tools(g).violations(s) == []
    s = g.apply(s, Grant())
    assert s.seat == 1, "two actions taken: the turn passes"


def test_davinci_card_flies_seven_hexes_in_a_straight_line_r65() -> None:
    """KAS-R-65: movement 7, no turns."""
    g = game()
    s = first_turn(
        g, {"team": "DaVinci", "character": "I.S.A.A.C.", "at": [-2, 2], "plan": ["DAV", "S02", "S03", "S04"]}
    )
    flights = [a for a in g.legal_actions(s) if isinstance(a, Fly)]
    assert flights and all(len(set(a.path)) == 1 and len(a.path) == 7 for a in flights if a.path)
    if any(a.path for a in flights):
        bent = (flights[0].path[0],) * 6 + ((flights[0].path[0] + 1) % 6,)
        assert rule(g, s, Fly(bent)) == "KAS-R-65"


def test_sphinx_card_ships_one_good_free_before_the_action_r69() -> None:
    """KAS-R-69 (KAS-AMB-33 'a'): after the movement step, one good shipped; the action still follows."""
    g = game()
    m = g.ctx.game_map("ABC")
    line = m.line("B2")  # Bown Town - Aldenville, one rail hex
    depot = line.hexes[0]
    s = first_turn(
        g,
        {"team": "Sphinx", "character": "Victor Blane", "at": [depot.q, depot.r], "plan": ["SPH", "S02", "S03", "S04"]},
        depots=[{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 2}}],
    )
    path = next(a for a in g.legal_actions(s) if isinstance(a, Fly))
    s = g.apply(g.apply(s, path), EndCargo())
    assert s.phase is Phase.BONUS and s.bonus == "ship-one"
    two = ShipGoods(depot, "food", 2, to_city="Bown Town")
    assert rule(g, s, two) == "KAS-R-69"
    one = ShipGoods(depot, "food", 1, to_city="Bown Town")
    assert g.check(s, one) is None
    s = g.apply(s, one)
    assert s.phase is Phase.ACTION and s.seat == 0, "the shipment was not the turn's action"


def test_rose_and_thorn_card_flies_twice_with_loading_after_each_r73() -> None:
    """KAS-R-73 (KAS-AMB-35): two flights of exactly 2, each followed by loading; then one action."""
    g = game()
    s = first_turn(
        g,
        {"team": "Sphinx", "character": "Victor Blane", "at": [0, 0], "plan": ["S02", "S03", "S04", "S05"]},
        other={"team": "Rose & Thorn", "character": "Bishop Kingston", "plan": ["ROS", "S11", "S10"], "at": [0, 0]},
    )
    # seat 0 (letter A) acts first; then Rose & Thorn's card (letter E)
    s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fly)))
    s = g.apply(g.apply(s, EndCargo()), Grant())
    assert s.seat == 1 and s.phase is Phase.FLIGHT and s.flights_left == 2
    s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fly) and len(a.path) == 2))
    s = g.apply(s, EndCargo())
    assert s.phase is Phase.FLIGHT and s.seat == 1, "the second flight"
    s = g.apply(s, next(a for a in g.legal_actions(s) if isinstance(a, Fly)))
    s = g.apply(s, EndCargo())
    assert s.phase is Phase.ACTION and s.seat == 1


def test_godfather_card_chooses_its_distance_r85() -> None:
    """KAS-R-85: 0, 1 or 2 hexes (KAS-R-77's 0-3 works the same way; its characters are not modelled yet)."""
    g = game()
    for team, character, card, most in (("Godfather", "Thaddeus Birch", "GOD", 2),):
        s = first_turn(g, {"team": team, "character": character, "at": [0, 0], "plan": [card, "S02", "S03", "S04"]})
        lengths = {len(a.path) for a in g.legal_actions(s) if isinstance(a, Fly)}
        assert lengths == set(range(most + 1))
        assert rule(g, s, Fly((0,) * (most + 1))) == "KAS-R-26"


def test_godfather_steals_one_good_on_the_same_hex_r85() -> None:
    """KAS-R-85 (KAS-AMB-42): one good from the opponent's hold on the same hex; a full hold discards first."""
    g = game()
    s = first_turn(
        g,
        {
            "team": "Godfather",
            "character": "Thaddeus Birch",
            "at": [1, 1],
            "hold": {"chemical": 3},
            "plan": ["GOD", "S02", "S03", "S04"],
        },
        other={
            "team": "Sky Castle",
            "character": "Clint Castle",
            "plan": ["S12", "S11", "S10"],
            "at": [1, 1],
            "hold": {"food": 1},
        },
    )
    s = g.apply(s, Fly(()))
    s = g.apply(s, EndCargo())
    assert s.phase is Phase.BONUS and s.bonus == "steal"
    assert g.ctx.capacity(s.players[0]) == 3, "the Godfather's increased capacity (KAS-R-84)"
    assert rule(g, s, Steal(1, "food")) == "KAS-R-85", "the hold is full: discard first"
    s = g.apply(s, Steal(1, "food", discard="chemical"))
    assert s.players[0].hold[2] == 1 and s.players[1].hold[2] == 0 and s.phase is Phase.ACTION


# -- characters --------------------------------------------------------------------------------------------


def test_aurelia_converts_one_good_into_two_r66() -> None:
    """KAS-R-66 (KAS-EX-23, p.18): 1 chemical -> 2 machines, a token spent, as the action."""
    g = game()
    s = mid_turn(
        g, {"team": "DaVinci", "character": "Aurelia Bayley", "tokens": 5, "hold": {"chemical": 1}}, phase="action"
    )
    assert rule(g, s, Convert("chemical", "chemical")) == "KAS-R-66"
    s2 = g.apply(s, Convert("chemical", "machine"))
    assert s2.players[0].hold[:2] == (0, 2) and s2.players[0].tokens == 4 and s2.seat != 0
    capacity_full = mid_turn(
        g,
        {"team": "DaVinci", "character": "Aurelia Bayley", "tokens": 5, "hold": {"chemical": 1, "food": 1}},
        phase="action",
    )
    assert rule(g, capacity_full, Convert("chemical", "machine")) == "KAS-R-29"


def test_isaac_may_spend_a_token_for_a_second_action_r67() -> None:
    """KAS-R-67 (KAS-AMB-45): once per turn, right after the action."""
    g = game()
    s = mid_turn(g, {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": 5}, phase="action")
    s = g.apply(s, Grant())
    assert s.phase is Phase.BONUS and s.bonus == "extra-action"
    s = g.apply(s, ExtraAction())
    assert s.phase is Phase.ACTION and s.players[0].tokens == 4
    s = g.apply(s, UpgradeAirship())
    assert s.seat != 0, "only one extra action per turn"
    declined = g.apply(
        g.apply(mid_turn(g, {"team": "DaVinci", "character": "I.S.A.A.C.", "tokens": 5}, phase="action"), Grant()),
        Pass(),
    )
    assert declined.seat != 0 and declined.players[0].tokens == 5


def test_victor_blane_pays_a_dollar_less_for_depots_r70() -> None:
    """KAS-R-70 (KAS-EX-24, p.19): $3 on an empty line, $6 on a line with a depot."""
    g = game()
    m = g.ctx.game_map("ABC")
    a2 = m.line("A2").hexes
    s = mid_turn(
        g,
        {"team": "Sphinx", "character": "Victor Blane", "money": 20},
        phase="action",
        depots=[{"at": [a2[0].q, a2[0].r], "owner": 1}],
    )
    empty_line = g.apply(s, BuildDepot(m.line("C1").hexes[0]))
    assert empty_line.players[0].money == 17
    used_line = g.apply(s, BuildDepot(a2[1]))
    assert used_line.players[0].money == 14


def test_clint_castle_turns_sharply_and_loads_before_flying_r82() -> None:
    """KAS-R-82 (KAS-AMB-40): 120-degree turns allowed, never backwards; loading before the flight."""
    g = game()
    factory, kind = g.ctx.game_map("ABC").factories[3]
    s = first_turn(
        g,
        {
            "team": "Sky Castle",
            "character": "Clint Castle",
            "at": [factory.q, factory.r],
            "plan": ["S04", "S02", "S03", "S05"],
        },
        other={"team": "Sphinx", "character": "Victor Blane", "plan": ["S12", "S11", "S10"], "at": [0, 0]},
    )
    assert s.phase is Phase.CARGO and s.cargo is not None and s.cargo.after == "pre-flight"
    s = g.apply(s, Load(kind, "factory"))
    s = g.apply(s, EndCargo())
    assert s.phase is Phase.FLIGHT
    ends = {a.path for a in g.legal_actions(s) if isinstance(a, Fly)}
    assert any((a - b) % 6 in (2, 4) for a, b in (p for p in ends)), "a sharp turn is among the flights"
    assert all((a - b) % 6 != 3 for a, b in ends)


def test_thaddeus_birch_pays_no_tolls_r86() -> None:
    """KAS-R-86: shipments stop at opponents' depots for free."""
    g = game()
    m = g.ctx.game_map("ABC")
    b2, b1 = m.line("B2").hexes[0], m.line("B1").hexes[0]
    given = {"depots": [{"at": [b2.q, b2.r], "owner": 0, "goods": {"chemical": 2}}, {"at": [b1.q, b1.r], "owner": 1}]}
    ship = ShipGoods(b2, "chemical", 2, to_city="Warsop")
    for character, paid in (("Thaddeus Birch", 0), ("Ezekiel Crane", 2)):
        s = mid_turn(
            g, {"team": "Godfather", "character": character, "money": 5, "rail_level": 3}, phase="action", **given
        )
        assert g.check(s, ship) is None
        after = g.apply(s, ship)
        assert after.players[1].money - s.players[1].money == paid


def test_ezekiel_crane_robs_airships_he_flies_over_r87() -> None:
    """KAS-R-87 (KAS-AMB-43): $3 from each opponent whose airship is on a hex he enters."""
    g = game()
    s = first_turn(
        g,
        {"team": "Godfather", "character": "Ezekiel Crane", "at": [0, 0], "plan": ["S04", "S02", "S03", "S05"]},
        other={"team": "Sphinx", "character": "Victor Blane", "plan": ["S12", "S11", "S10"], "at": [1, 0], "money": 2},
    )
    robbing = [a for a in g.legal_actions(s) if isinstance(a, Fly) and a.path and a.path[0] == 0]
    assert robbing, "a flight through (1,0)"
    after = g.apply(s, robbing[0])
    assert after.players[0].money == s.players[0].money + 2 and after.players[1].money == 0, "he takes what there is"


def test_random_advanced_games_keep_every_invariant() -> None:
    """KAS-R-57..87 together: random games with the modelled characters, every invariant after every step."""
    g = game()
    modelled = [
        ("Emperor", "Harvey Golding"),
        ("DaVinci", "Aurelia Bayley"),
        ("Sphinx", "Victor Blane"),
        ("Rose & Thorn", "Bishop Kingston"),
        ("Kings Over Aces", "Corey McQueen"),
        ("Sky Castle", "Clint Castle"),
        ("Godfather", "Ezekiel Crane"),
    ]
    for seed in range(3):
        rng = random.Random(seed)
        teams = []
        for team, character in rng.sample(modelled, len(modelled)):
            if team not in {t for t, _ in teams} and len(teams) < 4:
                teams.append((team, character))
        state = g.new_game(4, teams=teams)
        for _ in range(3000):
            action = g.random_action(state, rng)
            if action is None:
                break
            state = g.apply(state, action)
            assert tools(g).violations(state) == []
        assert state.phase is Phase.OVER


def delivery_state(g: KingsOfAirAndSteamGame, character: str, team: str, **me: Any) -> tuple[KasState, Hex]:
    """Seat 0 in its action step with a depot on line B2 next to Bown Town (food demanded)."""
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    spec = {"team": team, "character": character, "money": 5, **me}
    s = mid_turn(
        g,
        spec,
        phase="action",
        depots=[{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 3, "textile": 1}}],
        market={"slots": ["food", "machine", "textile"]},
    )
    return s, depot


def test_bishop_kingston_returns_one_delivered_good_and_is_paid_for_it_r75() -> None:
    """KAS-R-75 (KAS-AMB-37): room for the whole shipment; one good to the supply, all paid."""
    g = game()
    s, depot = delivery_state(g, "Bishop Kingston", "Rose & Thorn")
    ship = ShipGoods(depot, "food", 3, to_city="Bown Town", returned=True)
    after = g.apply(s, ship)
    city = after.cities[g.ctx.game_map("ABC").city_index("Bown Town")]
    assert city.filled == 2 and after.players[0].money == 5 + 3 * 5
    assert rule(g, delivery_state(g, "Victor Blane", "Sphinx")[0], ship) == "KAS-R-75"


def test_sebastian_king_bets_on_his_tokens_r78() -> None:
    """KAS-R-78 (KAS-AMB-38): a $2 bet turns 2 of 5 tokens: a 2/5 chance of $2 per delivered good."""
    from fractions import Fraction

    from rulecraft.model.kings_of_air_and_steam.actions import Gamble

    g = game()
    s, depot = delivery_state(g, "Sebastian King", "Kings Over Aces")
    s = g.apply(s, ShipGoods(depot, "food", 2, to_city="Bown Town", bet=2))
    assert s.phase is Phase.GAMBLE and s.players[0].money == 5 - 2 + 2 * 5
    assert dict(g.chance_outcomes(s)) == {Gamble(True): Fraction(2, 5), Gamble(False): Fraction(3, 5)}
    won = g.apply(s, Gamble(True))
    assert won.players[0].money == 13 + 4 and won.seat != 0
    assert (
        rule(
            g,
            delivery_state(g, "Sebastian King", "Kings Over Aces")[0],
            ShipGoods(depot, "food", 1, to_city="Bown Town", bet=4),
        )
        == "KAS-R-78"
    )


def test_corey_mcqueen_slips_in_one_good_of_another_type_r79() -> None:
    """KAS-R-79 (KAS-EX-25, p.19): 2 food + 1 textile delivered as 3 food, a token spent."""
    g = game()
    s, depot = delivery_state(g, "Corey McQueen", "Kings Over Aces", tokens=5)
    after = g.apply(s, ShipGoods(depot, "food", 3, to_city="Bown Town", swindle="textile"))
    assert after.players[0].money == 5 + 3 * 5, "paid as if all three were food"
    assert after.players[0].tokens == 4
    held = next(d for d in after.depots if d.at == depot).goods
    assert held[2] == 1 and held[3] == 0, "2 food and the textile left the depot"
    city = after.cities[g.ctx.game_map("ABC").city_index("Bown Town")]
    assert city.filled == 3 and city.other == ("textile",)
    assert tools(g).violations(after) == []


def test_flora_kingston_chooses_the_demand_tile_r74() -> None:
    """KAS-R-74 (KAS-AMB-36): her own fill: any tile of the pile; an opponent's: one of two drawn blind."""
    from fractions import Fraction

    from rulecraft.model.kings_of_air_and_steam.actions import ChooseDemandTile, DrawDemandPair

    g = game()
    depot = g.ctx.game_map("ABC").line("B2").hexes[0]
    given: dict[str, Any] = {
        "depots": [{"at": [depot.q, depot.r], "owner": 0, "goods": {"food": 5}}],
        "cities": {"Bown Town": {"filled": 4}},
        "market": {"slots": ["food", "machine", "textile"], "demand_pile": {"luxury": 1, "chemical": 2}},
    }
    ship = ShipGoods(depot, "food", 1, to_city="Bown Town")
    hers = mid_turn(g, {"team": "Rose & Thorn", "character": "Flora Kingston"}, phase="action", **given)
    hers = g.apply(hers, ship)
    assert hers.phase is Phase.DEMAND_CHOICE and g.to_move(hers) == 0
    assert set(g.legal_actions(hers)) == {ChooseDemandTile("chemical"), ChooseDemandTile("luxury")}
    after = g.apply(hers, ChooseDemandTile("luxury"))
    assert after.cities[g.ctx.game_map("ABC").city_index("Bown Town")].demand == "luxury"
    # An opponent fills the city: Flora (seat 1) draws two blind and chooses.
    other = {"team": "Rose & Thorn", "character": "Flora Kingston", "plan": ["S12", "S11", "S10", "S09"], "at": [3, 3]}
    theirs = tools(g).scenario_state(
        {
            "players": 2,
            "seat": 0,
            "phase": "action",
            **given,
            "players_state": {
                0: {"team": "Sphinx", "character": "Victor Blane", "plan": ["S01", "S02", "S03", "S04"], "at": [0, -1]},
                1: other,
            },
        }
    )
    theirs = g.apply(theirs, ship)
    assert theirs.phase is Phase.DEMAND_PAIR
    assert dict(g.chance_outcomes(theirs)) == {
        DrawDemandPair("chemical", "chemical"): Fraction(1, 3),
        DrawDemandPair("chemical", "luxury"): Fraction(2, 3),
    }
    theirs = g.apply(theirs, DrawDemandPair("chemical", "luxury"))
    assert g.to_move(theirs) == 1, "Flora decides in seat 0's turn"
    assert g.apply(theirs, ChooseDemandTile("chemical")).demand_pile[0] == 1


def test_eli_diamond_flies_an_extra_card_face_up_r83() -> None:
    """KAS-R-83 (KAS-AMB-41): a deck card within the rating, flown as his action; its diamonds count."""
    from rulecraft.model.kings_of_air_and_steam.actions import ExtraFlight

    g = game()
    s = mid_turn(
        g,
        {"team": "Sky Castle", "character": "Eli Diamond", "at": [0, 0], "plan": ["S05", "S02", "S03", "S04"]},
        phase="action",
        market={"slots": ["food", "machine", "textile"]},
    )
    assert g.ctx.rating(s.players[0]) == 2, "Sky Castle's best rating: 2 at level 1 (reconstructed chart)"
    assert rule(g, s, ExtraFlight("S02")) == "KAS-R-83", "a planned card is not in the deck"
    assert rule(g, s, ExtraFlight("S11")) == "KAS-R-83", "1 (the current card) + 2 > 2"
    s = g.apply(s, ExtraFlight("S06"))
    assert s.phase is Phase.FLIGHT and s.flying == "S06" and s.players[0].extra_cards == ("S06",)
    flights = [a for a in g.legal_actions(s) if isinstance(a, Fly)]
    assert flights and all(len(a.path) == 3 for a in flights), "S06 moves 3"
    s = g.apply(g.apply(s, flights[0]), EndCargo())
    assert s.seat != 0 and s.flying is None


def test_eva_blane_lays_a_new_rail_line_r71() -> None:
    """KAS-R-71 (KAS-AMB-34): tiles on free full hexes joining two cities, $1 each, a free depot on it."""
    from rulecraft.model.kings_of_air_and_steam.actions import BuildLine

    g = game()
    s = mid_turn(
        g,
        {"team": "Sphinx", "character": "Eva Blane", "tokens": 5, "money": 10},
        phase="action",
        market={"slots": ["food", "machine", "textile"]},
    )
    lines = [a for a in g.legal_actions(s) if isinstance(a, BuildLine)]
    assert lines, "some pair of cities can be joined with 5 tiles"
    build = min(lines, key=lambda a: len(a.hexes))
    after = g.apply(s, build)
    tiles = len(build.hexes)
    assert after.players[0].money == 10 - tiles and after.players[0].tokens == 5 - tiles
    new_map = g.ctx.map_of(after)
    assert any(ln.ends == build.ends and ln.hexes == build.hexes for ln in new_map.lines)
    assert new_map.line_of(build.depot) is not None
    assert any(d.at == build.depot and d.owner == 0 for d in after.depots)
    rail = g.ctx.map_of(s).lines[0].hexes[0]
    assert rule(g, s, BuildLine(build.ends, (rail,), rail)) == "KAS-R-71", "not on a rail hex"
    assert (
        rule(
            g,
            s,
            BuildLine(build.ends, build.hexes[1:], build.hexes[1])
            if tiles > 1
            else BuildLine(build.ends, (), build.depot),
        )
        == "KAS-R-71"
    )
