"""Game.outcome: how a finished game came out, for every registered game.

Seeded random games are played to the end: the score parts add up to the total, the total is
``scores()``, the winners are ``winners()``, the game ended by a catalogue rule, and there is no
outcome before the end.  Then one constructed tie per game, from a finished state where two seats
tie on points: the tie-break rule is named and the winner is the one the rulebook's text gives
(quoted with its page), not one read off the model.
"""

from __future__ import annotations

import json
import random
from typing import Any

import attrs
import pytest

from rulecraft.core import Game, Outcome
from rulecraft.registry import game_ids, make_game
from rulecraft.tools import tools

# Steamopolis's uniform walk takes very long to finish; its 'purposeful' policy plays towards the end.
POLICY = {"stm": "purposeful"}


def finish(game: Game[Any, Any], players: int, seed: int) -> tuple[Any, list[Any]] | None:
    """A seeded game to its end: the last state and every state before it; None when it stalled
    (Airships can, AIR-AMB-30: the rules have no turn limit)."""
    rng = random.Random(seed)
    state = game.new_game(players, **game.random_options(rng, players))
    before: list[Any] = []
    for _ in range(game.campaign_steps * 4):
        action = game.random_action(state, rng, policy=POLICY.get(game.id, "uniform"))
        if action is None:
            return state, before
        before.append(state)
        state = game.apply(state, action)
        if len(before) % 100 == 0 and game.stalled(state):
            return None
    return None


def games(game: Game[Any, Any], players: int, count: int, first_seed: int = 1) -> list[tuple[Any, list[Any]]]:
    """The first ``count`` seeded games from ``first_seed`` on that finish."""
    out = []
    for seed in range(first_seed, first_seed + 20):
        played = finish(game, players, seed)
        if played is not None:
            out.append(played)
            if len(out) == count:
                return out
    raise AssertionError(f"{game.id}: fewer than {count} of 20 seeded games finished")


def rule_ids(game: Game[Any, Any]) -> set[str]:
    """Every rule the game names: catalogue rules and registered ambiguities (a reading may decide)."""
    return {r.id for r in game.catalogue} | {a.id for a in game.register}


CASES = [(gid, n) for gid in game_ids() for n in range(make_game(gid).min_players, make_game(gid).max_players + 1)]


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_random_games_end_with_a_consistent_outcome(game_id: str, players: int) -> None:
    game = make_game(game_id)
    for end, before in games(game, players, 2):
        for state in before[:: max(1, len(before) // 25)]:
            assert game.outcome(state) is None  # not over yet
            parts = game.score_parts(state)  # counted now, mid-game too
            assert {s: p["total"] for s, p in parts.items()} == dict(game.scores(state))
            for p in parts.values():
                named = {k: v for k, v in p.items() if k != "total"}
                assert not named or sum(named.values()) == p["total"], p
        outcome = game.outcome(end)
        assert outcome is not None
        for seat, p in outcome.scores.items():
            named = {k: v for k, v in p.items() if k != "total"}
            assert named, f"{game_id}: seat {seat} has no scoring parts"
            assert sum(named.values()) == p["total"], p
        assert outcome.totals() == dict(game.scores(end))
        assert outcome.scores == game.score_parts(end)
        assert outcome.winners == tuple(game.winners(end))
        assert outcome.termination in game.catalogue, outcome.termination
        assert outcome.tiebreak is None or outcome.tiebreak in rule_ids(game), outcome.tiebreak
        totals = outcome.totals()
        tied_for_the_win = sum(1 for v in totals.values() if v == max(totals.values())) > 1
        assert (outcome.tiebreak is not None) == (tied_for_the_win and not _solo(game, end))
        # Every multi-player game reports each seat's tie-break count, and a winner has the most of it
        # among the seats tied on points (AIR-R-49, KAS-R-53, STM-R-67, AER-R-64).
        if _solo(game, end):
            assert outcome.ranking == {}
        else:
            assert set(outcome.ranking) == set(outcome.scores)
            leaders = [s for s, v in totals.items() if v == max(totals.values())]
            most = max(tuple(outcome.ranking[s].values()) for s in leaders)
            assert all(tuple(outcome.ranking[w].values()) == most for w in outcome.winners), outcome
        # The wire form: JSON, seats as strings, and a repr that is valid Python.
        data = json.loads(json.dumps(outcome.to_json()))
        assert data["scores"] == {str(s): dict(p) for s, p in outcome.scores.items()}
        assert data["winners"] == list(outcome.winners) and data["termination"] == outcome.termination
        assert eval(repr(outcome), {"Outcome": Outcome}) == outcome


def _solo(game: Game[Any, Any], state: Any) -> bool:
    return getattr(state, "solo", None) is not None


def test_an_outcome_refuses_parts_that_do_not_add_up() -> None:
    with pytest.raises(ValueError, match="add up to 5, not to the total 6"):
        Outcome("AIR-R-47", {0: {"airships": 5, "total": 6}}, (0,), None)
    with pytest.raises(ValueError, match="no 'total'"):
        Outcome("AIR-R-47", {0: {"airships": 5}}, (0,), None)
    outcome = Outcome("AIR-R-47", {1: {"airships": 5, "total": 5}, 0: {"total": 2}}, [1], None)
    assert outcome.to_json() == {
        "termination": "AIR-R-47",
        "scores": {"0": {"total": 2}, "1": {"airships": 5, "total": 5}},
        "winners": [1],
        "tiebreak": None,
    }
    assert hash(outcome) == hash(Outcome("AIR-R-47", {0: {"total": 2}, 1: {"airships": 5, "total": 5}}, (1,)))


def test_the_default_outcome_is_the_total_alone() -> None:
    """A game that names no parts still has an outcome: its total per seat (Game's defaults)."""
    game = make_game("air")
    [(end, _)] = games(game, 2, 1, first_seed=3)
    defaults = Game.score_parts(game, end)
    assert defaults == {s: {"total": v} for s, v in game.scores(end).items()}
    assert Game.termination(game, end) == "" and Game.tiebreak(game, end) is None


# -- constructed ties ------------------------------------------------------------------------------


def finished(game_id: str, players: int, seed: int = 5) -> Any:
    game = make_game(game_id)
    [(end, _)] = games(game, players, 1, first_seed=seed)
    assert game.is_over(end)
    return end


def _air_board(game: Game[Any, Any], board: Any, developments: tuple[str, ...], airships: tuple[str, ...]) -> Any:
    from rulecraft.model.airships.components import DEPARTMENT_INDEX

    departments: list[str | None] = [None] * 6
    for card in developments:
        departments[DEPARTMENT_INDEX[game.pack.development(card).department]] = card  # type: ignore[attr-defined]
    return attrs.evolve(board, departments=tuple(departments), airships=airships)


def air_tie(
    developments: tuple[tuple[str, ...], tuple[str, ...]],
    airships: tuple[tuple[str, ...], tuple[str, ...]],
    stages: tuple[int | None, ...] = (None, None, None, None),
) -> tuple[Game[Any, Any], Any]:
    game = make_game("air")
    end = finished("air", 2)
    boards = tuple(_air_board(game, b, developments[s], airships[s]) for s, b in enumerate(end.boards))
    return game, attrs.evolve(end, boards=boards, stages=stages)


def test_airships_tie_goes_to_the_most_airships_built() -> None:
    # Rulebook p.5: "Döntetlen esetén az a játékos nyer, aki a több léghajót építette." (A tie goes to
    # the player who built more airships.)  Pack stars: L1 2, L3 2, L2 3, E2-FIN-4 1: 4 VP each.
    game, state = air_tie(((), ("E2-FIN-4",)), (("L1", "L3"), ("L2",)))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.totals() == {0: 4, 1: 4}
    assert outcome.scores[1] == {"developments": 1, "airships": 3, "stages": 0, "total": 4}
    assert outcome.winners == (0,) and outcome.tiebreak == "AIR-R-49"


def test_airships_tie_break_counts_a_hindenburg_stage_as_an_airship() -> None:
    # Rulebook p.5: "Itt a Hindenburg építési fázisai is léghajónak számítanak." (Here the Hindenburg's
    # building stages count as airships too.)  Seat 0: L2 3 + E2-FIN-4 1 + E2-ENG-4 1 = 5 VP, one
    # airship; seat 1: stage 1 (3 VP, low value: the Hindenburg is not finished, p.5) + L3 2 = 5 VP,
    # two airships counting the stage: seat 1 wins.
    game, state = air_tie((("E2-FIN-4", "E2-ENG-4"), ()), (("L2",), ("L3",)), stages=(1, None, None, None))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores[1] == {"developments": 0, "airships": 2, "stages": 3, "total": 5}
    assert outcome.totals() == {0: 5, 1: 5}
    assert outcome.winners == (1,) and outcome.tiebreak == "AIR-R-49"
    # The count the tie-break compares is reported for every seat: 1 card; 1 card + 1 stage.
    assert outcome.ranking == {0: {"airships": 1}, 1: {"airships": 2}}
    assert outcome.to_json()["ranking"] == {"0": {"airships": 1}, "1": {"airships": 2}}


def test_airships_tie_on_airships_too_is_a_shared_win_by_ambiguity_27() -> None:
    # p.5 names no further tie-break: AIR-AMB-27's default reading shares the win.
    game, state = air_tie(((), ()), (("L1",), ("L3",)))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.tiebreak == "AIR-AMB-27"


def kas_tie(money: tuple[int, int], depots: tuple[int, int]) -> tuple[Game[Any, Any], Any]:
    from rulecraft.model.kings_of_air_and_steam.hexgrid import Hex
    from rulecraft.model.kings_of_air_and_steam.state import Depot
    from rulecraft.model.kings_of_air_and_steam.transitions import starting_money

    game = make_game("kas")
    end = finished("kas", 3)
    players = list(end.players)
    for seat, player in enumerate(players):
        cash = money[seat] if seat < 2 else 1
        players[seat] = attrs.evolve(player, money=cash, airship_level=1, rail_level=1)
    # A consistent state (it is also given to implementations through set_state, which checks it):
    # depots on rail hexes, placed + left = 10 per player, and the bank's takings balancing the money.
    rail = sorted(game.ctx.map_of(end).rail_hexes(), key=lambda h: (h.q, h.r))[: sum(depots)]
    hexes = [Hex(h.q, h.r) for h in rail]
    owned = tuple(Depot(hexes.pop(), seat) for seat in (0, 1) for _ in range(depots[seat]))
    for seat, player in enumerate(players):
        placed = sum(1 for d in owned if d.owner == seat)
        players[seat] = attrs.evolve(player, depots_left=10 - placed)
    state = attrs.evolve(end, players=tuple(players), depots=tuple(sorted(owned, key=lambda d: (d.at.q, d.at.r))))
    held = sum(p.money for p in state.players)
    start = sum(starting_money(p, game.ctx.p("starting_money")) for p in state.players)
    state = attrs.evolve(state, bank=start - held)
    assert not tools(game).violations(state), tools(game).violations(state)
    return game, state


def test_kings_of_air_and_steam_tie_goes_to_the_most_money() -> None:
    # Rulebook p.16: "Holtverseny esetén, közülük az nyer, akinek a legtöbb pénze van." (In a tie, the
    # one of them with the most money wins.)  $1 = 1 VP, a depot 10 VP (p.16): $25 = $15 + 1 depot.
    game, state = kas_tie(money=(15, 25), depots=(1, 0))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores[0] == {"money": 15, "depots": 10, "airship": 0, "rail": 0, "total": 25}
    assert outcome.totals()[1] == 25
    assert outcome.winners == (1,) and outcome.tiebreak == "KAS-R-53"
    assert outcome.ranking == {0: {"money": 15}, 1: {"money": 25}, 2: {"money": 1}}


def test_kings_of_air_and_steam_tie_on_money_too_is_shared() -> None:
    # Rulebook p.16: "Ha még mindig holtverseny van, akkor ezek a játékosok megosztva nyernek." (If still
    # tied, those players share the victory.)
    game, state = kas_tie(money=(12, 12), depots=(1, 1))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.totals()[0] == outcome.totals()[1] == 22
    assert outcome.winners == (0, 1) and outcome.tiebreak == "KAS-R-53"


def stm_tie(banners: tuple[int, int], start_player: int) -> tuple[Game[Any, Any], Any]:
    game = make_game("stm")
    end = finished("stm", 3)
    room = end.players[0].machine_room
    players = []
    for seat, player in enumerate(end.players):
        flags = ("M2-04",) * (banners[seat] if seat < 2 else 0)
        players.append(attrs.evolve(player, vp=10 if seat < 2 else 4, machine_room=room, banners=flags))
    return game, attrs.evolve(end, players=tuple(players), start_player=start_player)


def test_steamopolis_tie_goes_to_the_most_machine_and_banner_tiles() -> None:
    # Rulebook, "Winning the Game", Tie (p.25): "The tied player who owns the most machine and banner
    # tiles wins."  Same machine room, seat 1 has one banner more.
    game, state = stm_tie(banners=(0, 1), start_player=0)
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores[0] == {"vote_points": 10, "total": 10}
    assert outcome.termination == "STM-R-64"
    assert outcome.winners == (1,) and outcome.tiebreak == "STM-R-67"
    # Machine-room tiles plus banners: the same room, one banner more for seat 1, none for seat 2.
    tiles = sum(1 for t in state.players[0].machine_room if t is not None)
    assert outcome.ranking == {0: {"tiles": tiles}, 1: {"tiles": tiles + 1}, 2: {"tiles": tiles}}


def test_steamopolis_tie_on_tiles_too_goes_to_the_earlier_in_turn_order() -> None:
    # p.25: "If there is still a tie, the tied player who is earlier in turn order wins."  With seat 2
    # the start player, turn order is 2, 0, 1: seat 0 comes before seat 1.
    game, state = stm_tie(banners=(1, 1), start_player=2)
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0,) and outcome.tiebreak == "STM-R-67"


def test_steamopolis_solo_has_no_tie_break() -> None:
    game = make_game("stm")
    end = finished("stm", 1)
    outcome = game.outcome(end)
    assert outcome is not None and outcome.tiebreak is None
    # STM-R-69 (p.35): at 0 VP the solo game is lost at once; otherwise it ends by STM-R-73 (p.36).
    assert outcome.termination == ("STM-R-69" if end.players[0].vp <= 0 else "STM-R-73")
    won = attrs.evolve(end, players=(attrs.evolve(end.players[0], vp=9),))
    # The rank table (p.36): "7 VP | Hobby mechanic", "14 VP | Tinkerer": 9 VP is a hobby mechanic.
    assert game.outcome(won) == Outcome(
        "STM-R-73", {0: {"vote_points": 9, "total": 9}}, (0,), None, standing="Hobby mechanic"
    )
    assert game.outcome(won).ranking == {} and "ranking" not in game.outcome(won).to_json()  # type: ignore[union-attr]
    seven = attrs.evolve(end, players=(attrs.evolve(end.players[0], vp=7),))
    assert game.outcome(seven) is not None and game.outcome(seven).standing == "Hobby mechanic"  # type: ignore[union-attr]
    assert game.outcome(seven).to_json()["standing"] == "Hobby mechanic"  # type: ignore[union-attr]


def aer_tie(money: tuple[int, int]) -> tuple[Game[Any, Any], Any]:
    game = make_game("aer")
    end = finished("aer", 3)
    players = []
    for seat, player in enumerate(end.players):
        players.append(
            attrs.evolve(
                player,
                vp=40 if seat < 2 else 30,
                money=money[seat] if seat < 2 else 50,
                cards=(),
                discards=(),
                banked=(),
            )
        )
    return game, attrs.evolve(end, players=tuple(players), americas_paid=())


def test_aeroplanes_tie_goes_to_the_most_money() -> None:
    # Rulebook l.186: "В случай равенства, игрок с большим количеством ассигнаций побеждает в игре." (In
    # a tie, the player with the most banknotes wins.)  Seat 2 is richest but behind on VP.
    game, state = aer_tie(money=(5, 9))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.scores[0] == {
        "americas_bonus": 0,
        "era_scoring": 40,
        "plane_cards": 0,
        "passenger_tiles": 0,
        "total": 40,
    }
    assert outcome.termination == "AER-R-01"
    assert outcome.winners == (1,) and outcome.tiebreak == "AER-R-64"


def test_aeroplanes_tie_on_money_too_is_shared_by_ambiguity_53() -> None:
    # l.186 says nothing past the money: AER-AMB-53's default shares the win.
    game, state = aer_tie(money=(7, 7))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.winners == (0, 1) and outcome.tiebreak == "AER-AMB-53"


def test_aeroplanes_parts_split_the_track_and_add_cards_and_passengers_at_the_end() -> None:
    game = make_game("aer")
    end = finished("aer", 4)
    parts = game.score_parts(end)
    for seat, player in enumerate(end.players):
        track = parts[seat]["americas_bonus"] + parts[seat]["era_scoring"]
        assert track == player.vp  # the VP track: Americas bonuses (AER-R-31) and era scorings (AER-R-49)
        assert parts[seat]["americas_bonus"] == sum(1 for _, s in end.americas_paid if s == seat)  # 1 VP each


# -- comparing outcomes (rulecraft.conformance.outcome) ----------------------------------------------

REFERENCE = {
    "termination": "AIR-R-47",
    "scores": {
        "0": {"developments": 3, "airships": 10, "stages": 5, "total": 18},
        "1": {"developments": 1, "airships": 12, "stages": 5, "total": 18},
    },
    "winners": [1],
    "tiebreak": "AIR-R-49",
}


def test_equal_outcomes_have_no_differences() -> None:
    from rulecraft.conformance.outcome import compare_outcome

    assert compare_outcome(REFERENCE, json.loads(json.dumps(REFERENCE))) == []
    assert compare_outcome(None, None) == []
    # Winners are a set: the order carries no meaning.
    shared = {**REFERENCE, "winners": [0, 1], "tiebreak": "AIR-AMB-27"}
    assert compare_outcome(shared, {**shared, "winners": [1, 0]}) == []


def test_every_difference_is_named_by_its_field() -> None:
    from rulecraft.conformance.outcome import compare_outcome

    theirs = {
        "termination": "AIR-R-48",
        "scores": {
            "0": {"developments": 3, "airships": 10, "stages": 5, "total": 18},
            "1": {"developments": 1, "airships": 11, "stages": 5, "chips": 2, "total": 19},
        },
        "winners": [1, 0],
        "tiebreak": None,
    }
    assert compare_outcome(REFERENCE, theirs) == [
        ("termination", "AIR-R-47", "AIR-R-48"),
        ("scores.1.total", 18, 19),
        ("scores.1.airships", 12, 11),
        ("scores.1.chips", None, 2),
        ("winners", [1], [1, 0]),
        ("tiebreak", "AIR-R-49", None),
    ]


def test_the_tie_break_counts_are_compared_when_the_implementation_reports_them() -> None:
    """A tie-break counted wrongly shows in an untied game too: seat 1's 'airships' differ."""
    from rulecraft.conformance.outcome import compare_outcome

    ours = {**REFERENCE, "ranking": {"0": {"airships": 5}, "1": {"airships": 6}}}
    assert compare_outcome(ours, ours) == []
    assert compare_outcome(ours, REFERENCE) == []  # optional: not reported, not compared
    assert compare_outcome(ours, {**ours, "ranking": {"0": {"airships": 5}, "1": {"airships": 5}}}) == [
        ("ranking.1.airships", 6, 5)
    ]
    assert compare_outcome(ours, {**ours, "ranking": {"0": {"airships": 5}}}) == [
        ("ranking.1", {"airships": 6}, None)
    ]
    assert compare_outcome(ours, {**ours, "ranking": "most airships"}) == [
        ("ranking", {"0": {"airships": 5}, "1": {"airships": 6}}, "most airships")
    ]


def test_a_missing_or_malformed_outcome_is_a_difference_not_an_error() -> None:
    from rulecraft.conformance.outcome import compare_outcome

    assert compare_outcome(REFERENCE, None) == [("outcome", REFERENCE, None)]
    assert compare_outcome(None, REFERENCE) == [("outcome", None, REFERENCE)]
    assert compare_outcome(REFERENCE, "over") == [("outcome", REFERENCE, "over")]
    partial = compare_outcome(REFERENCE, {"termination": "AIR-R-47", "scores": {"0": 18}, "winners": "1"})
    assert partial == [
        ("scores.0", REFERENCE["scores"]["0"], 18),  # type: ignore[index]
        ("scores.1", REFERENCE["scores"]["1"], None),  # type: ignore[index]
        ("winners", [1], "1"),
        ("tiebreak", "AIR-R-49", None),
    ]
    assert compare_outcome(REFERENCE, {**REFERENCE, "winners": [[1]]}) == [("winners", [1], [[1]])]


def test_compare_scores_takes_seats_as_numbers_or_strings() -> None:
    from rulecraft.conformance.outcome import compare_scores

    ours = {0: {"money": 12, "depots": 10, "airship": 0, "rail": 0, "total": 22}}
    assert compare_scores(ours, {"0": dict(ours[0])}) == []
    assert compare_scores(ours, {"0": {**ours[0], "money": 13, "total": 23}, "1": {"total": 0}}) == [
        ("scores.0.total", 22, 23),
        ("scores.0.money", 12, 13),
        ("scores.1", None, {"total": 0}),
    ]
    assert compare_scores(ours, []) == [("scores", {"0": ours[0]}, [])]


@pytest.mark.parametrize("game_id", ["air", "kas", "stm", "aer"])
def test_the_in_process_peer_speaks_protocol_2(game_id: str) -> None:
    from rulecraft.conformance import messages
    from rulecraft.conformance.inprocess import InProcess, outcome
    from rulecraft.conformance.outcome import compare_outcome

    game = make_game(game_id)
    players = 3 if game_id != "air" else 2
    end = finished(game_id, players)
    peer = InProcess(game)
    assert peer.hello()["protocol"] == 2
    assert peer.new_game({"players": players})["ok"] is True
    assert peer.outcome() == {"ok": True, "outcome": None}
    assert messages.problem("response", "scores", peer.scores(), 2) is None
    assert peer.set_state(game.state_to_json(end)) == {"ok": True, "to_move": "over"}
    reply = json.loads(json.dumps(peer.current()))
    assert messages.problem("response", "state", reply, 2) is None
    expected = game.outcome(end)
    assert expected is not None
    assert compare_outcome(expected.to_json(), reply["outcome"]) == []
    assert peer.outcome()["outcome"] == expected.to_json()
    # What conform's self-test compares: the totals and the winners, as before protocol 2.
    legacy = outcome(game, end)
    assert legacy["scores"] == {str(s): v for s, v in game.scores(end).items()}
    assert legacy["winners"] == list(game.winners(end))


def test_a_different_solo_rank_is_a_difference_of_the_outcome() -> None:
    from rulecraft.conformance.outcome import compare_outcome

    ours = {"termination": "STM-R-73", "scores": {"0": {"vote_points": 7, "total": 7}}, "winners": [0]}
    ours |= {"tiebreak": None, "standing": "Hobby mechanic"}
    theirs = dict(ours, standing="Nothing but hot air")
    assert compare_outcome(ours, theirs) == [("standing", "Hobby mechanic", "Nothing but hot air")]
    assert compare_outcome(ours, dict(ours)) == []
