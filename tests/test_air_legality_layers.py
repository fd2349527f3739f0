"""Generation and the check agree (python-chess style), over random reachable states.

(a) every action of ``legal_actions`` passes ``check``;
(b) actions outside the legal set fail it with a Rejection that names a rule
    of the game's catalogue, and ``apply`` raises IllegalAction carrying it;
(c) ``sample_chance`` stays in the support of ``chance_outcomes``, whose
    probabilities sum to exactly 1;
(d) actions and states survive the JSON round trip.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from importlib.resources import files
from typing import Any

import attrs
import pytest
import yaml
from hypothesis import given, note
from hypothesis import strategies as st

from rulecraft.core import Chance, GameOver, IllegalAction
from rulecraft.model.airships.actions import (
    AttemptTarget,
    DealAirship,
    DealStarter,
    EndGo,
    ExtraGo,
    NoAttempt,
    Resolve,
    Reveal,
    Throw,
)
from rulecraft.model.airships.components import Dice, pack_from_data
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.readings import NOT_MODELLED, REGISTER
from rulecraft.model.airships.state import AirState, Phase
from rulecraft.registry import make_game
from rulecraft.ruleset import Ruleset
from rulecraft.strategies import (
    games,
    legal_actions,
    packs,
    reachable_histories,
    reachable_states,
    readings,
)

# Several readings: the printed rules, readings that change what is legal, and drawn ones.
READINGS: list[dict[str, str]] = [
    {},
    {"AIR-AMB-05": "yes", "AIR-AMB-07": "repeat", "AIR-AMB-36": "forbidden"},
    {"AIR-AMB-12": "optional", "AIR-AMB-11": "forbid", "AIR-AMB-23": "pass"},
    {"AIR-AMB-35": "max", "AIR-AMB-08": "no", "AIR-AMB-06": "before", "AIR-AMB-18": "sequential"},
    {"AIR-AMB-32": "uncapped", "AIR-AMB-02": "pool", "AIR-AMB-22": "attempt-only"},
]

GAMES = st.one_of(
    st.sampled_from(READINGS).flatmap(lambda chosen: games("air", readings=chosen)),
    games("air", readings=readings("air")),
    games("air", packs=st.none() | packs("air")),
)


@st.composite
def situations(draw: st.DrawFn) -> tuple[AirshipsGame, AirState]:
    game = draw(GAMES)
    assert isinstance(game, AirshipsGame)
    state, log = draw(reachable_histories(game, max_steps=400))
    note(f"{game!r} pack {game.pack.source}; {len(log)} steps; phase {state.phase.value}")
    return game, state


def targets(game: AirshipsGame, state: AirState) -> list[str]:
    refs = [f"development:{c}" for row in state.display for c in row if c is not None]
    refs += [f"airship:{i}" for i in range(0, 6)]
    refs += [f"stage:{i}" for i in range(0, 6)]
    refs += ["development:NO-SUCH-CARD", "nonsense", "airship:x"]
    return refs


def candidates(game: AirshipsGame, state: AirState) -> list[Any]:
    """Actions of every kind, most of them illegal now."""
    out: list[Any] = []
    throws = [Dice(w, r, b) for w, r, b in itertools.product(range(5), repeat=3)]
    for ref in targets(game, state):
        for throw in throws:
            for k in range(3):
                for give_fixed in (False, True):
                    out.append(AttemptTarget(ref, throw, k, give_fixed))
    out += [Resolve(c, e, w) for c, e, w in itertools.product((False, True), repeat=3)]
    out += [ExtraGo(), EndGo(), NoAttempt()]
    pack = game.pack
    out += [DealAirship(c.id) for c in pack.airships]
    out += [DealStarter(c) for c in pack.group("starter")]
    out += [Reveal(None)] + [Reveal(c.id) for c in pack.developments]
    out += [Throw(), Throw(W=(3,)), Throw(R=(5, 2)), Throw(B=(8, 8, 8)), Throw(W=(1, 3))]
    out += [Throw(W=(4,)), Throw(R=(1,)), Throw(B=(5,))]
    return out


@given(situations())
def test_every_generated_action_passes_the_check(case: tuple[AirshipsGame, AirState]) -> None:
    game, state = case
    legal = list(game.legal_actions(state))
    if isinstance(game.to_move(state), int):
        assert legal, f"seat {state.seat} to move in {state.phase.value} with no legal action"
    else:
        assert legal == []
    assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
    for action in legal:
        assert game.check(state, action) is None, action


@given(situations())
def test_actions_outside_the_legal_set_are_rejected(
    case: tuple[AirshipsGame, AirState],
) -> None:
    game, state = case
    allowed = set(game.legal_actions(state)) | {a for a, _ in game.chance_outcomes(state)}
    for action in candidates(game, state):
        if action in allowed:
            continue
        rejection = game.check(state, action)
        assert rejection is not None, f"{action!r} passes the check but is not generated"
        assert rejection.rule in game.catalogue, rejection
        assert rejection.reason
        try:  # pytest.raises costs as much as the check itself, over ~10,000 actions per example
            game.apply(state, action)
        except IllegalAction as refused:
            assert refused.rejection == rejection
        else:
            pytest.fail(f"apply plays {action!r}, which the check refuses: {rejection}")


@given(situations(), st.randoms(use_true_random=False))
def test_chance_sampling_stays_in_the_support(case: tuple[AirshipsGame, AirState], rng: random.Random) -> None:
    game, state = case
    outcomes = list(game.chance_outcomes(state))
    if state.phase in (Phase.ATTEMPT, Phase.BONUS, Phase.EXTRA_GO, Phase.OVER):
        assert outcomes == []
        return
    assert sum((p for _, p in outcomes), Fraction(0)) == 1
    assert all(p > 0 for _, p in outcomes)
    support = [a for a, _ in outcomes]
    assert len(set(support)) == len(support), "an outcome is listed twice"
    members = set(support)
    for _ in range(20):
        action = game.sample_chance(state, random.Random(rng.getrandbits(32)))
        assert action in members, action
        assert game.check(state, action) is None


@given(situations())
def test_json_round_trips(case: tuple[AirshipsGame, AirState]) -> None:
    game, state = case
    actions = list(game.legal_actions(state)) + [a for a, _ in game.chance_outcomes(state)]
    for action in actions[:300]:
        data = game.action_to_json(action)
        assert game.action_from_json(json.loads(json.dumps(data))) == action
    text = json.dumps(game.state_to_json(state))
    back = game.state_from_json(json.loads(text))
    assert back == state and hash(back) == hash(state)


def test_uncapped_requirement_above_three_leaves_a_legal_action() -> None:
    """Regression: under AIR-AMB-32 'uncapped' a 4-of-a-colour target passed the
    requirement but no throw (at most 3, AIR-R-30) could meet it, and NoAttempt was
    refused (AIR-R-22): the seat had no legal action at all."""
    data = yaml.safe_load(files("rulecraft.model.airships").joinpath("packs/reconstructed.yaml").read_text("utf-8"))
    for card in data["airships"]:
        if card["id"] == "D1":
            card["requirement"], card["target"] = {"W": 4}, 8
    game = AirshipsGame(Ruleset.from_overrides(REGISTER, {"AIR-AMB-32": "uncapped"}), pack_from_data(data))
    state = game.new_game(2)
    rng = random.Random(0)
    while state.phase is not Phase.ATTEMPT:
        state = game.apply(state, game.sample_chance(state, rng))
    # Late game: deck and display empty, D1 (4 W) and D2 (2 R + 2 B) left on the fields,
    # stages 1-3 built; seat 0 holds 1 W (tile) + 1 W (finance) + 2 W (hangar) + 1 R (era 2).
    board = attrs.evolve(state.boards[0], departments=("E1-FIN-1", "E1-HAN-3", None, None, None, None))
    state = attrs.evolve(
        state,
        boards=(board, *state.boards[1:]),
        display=((None, None, None),) * 6,
        stacks=(("D1",), ("D2",), (), ()),
        deck_era1=(),
        era_tile_in_deck=False,
        deck_era2=(),
        era=2,
        hindenburg=True,
        stages=(1, 1, 1, None),
    )
    legal = list(game.legal_actions(state))
    assert legal == [NoAttempt()]
    assert game.check(state, NoAttempt()) is None  # fails: AIR-R-22, "step 2 is not optional"


# -- the strategies themselves ------------------------------------------------------------


@given(packs("air"))
def test_generated_packs_keep_the_rulebook_counts(pack: Any) -> None:
    assert [c.tier for c in pack.airships].count("dark") == 6
    assert len(pack.airships) == 18 and len(pack.developments) == 48
    groups = [c.group for c in pack.developments]
    assert (groups.count("starter"), groups.count("era1"), groups.count("era2")) == (6, 18, 24)
    assert all(s.vp_high > s.vp_low for s in pack.stages)
    for card in pack.developments:
        if card.group == "starter":
            continue
        extra = card.dice.total()
        dept = card.department.value
        assert {
            "finance": 1 <= extra <= 3,
            "hangar": 1 <= extra <= 2,
            "pilot": 1 <= extra <= 2 and 1 <= card.pilot_chips <= 3,
            "engineer": card.fixed is not None,
            "engine": card.engine is not None,
            "material": card.exchange is not None,
        }[dept], card
    for item in (*pack.airships, *pack.developments, *pack.stages):
        low = item.requirement.W + 2 * item.requirement.R + 4 * item.requirement.B
        high = 3 * item.requirement.W + 5 * item.requirement.R + 8 * item.requirement.B
        assert low <= item.target <= high, item


@given(readings("air"))
def test_drawn_readings_are_registered_and_modelled(chosen: dict[str, str]) -> None:
    for amb_id, key in chosen.items():
        assert REGISTER[amb_id].text_of(key)
        assert (amb_id, key) not in NOT_MODELLED
    make_game("air", readings=chosen)


@given(st.data())
def test_reachable_states_and_legal_actions(data: st.DataObject) -> None:
    game = data.draw(games("air", readings={}))
    state = data.draw(reachable_states(game, max_steps=120))
    assert isinstance(game.to_move(state), int | Chance | GameOver)
    if game.legal_actions(state):
        assert game.check(state, data.draw(legal_actions(game, state))) is None
