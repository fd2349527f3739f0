"""Each named Airships invariant fails when its fact is broken on purpose.

A valid reachable state is broken with ``attrs.evolve`` and the test asserts
that the named invariant reports it (and, where the break touches nothing
else, that no other invariant does).  A check that cannot fail is worthless.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import attrs
import pytest

from rulecraft.invariants.airships import (
    INVARIANTS,
    Violation,
    check_all,
    report,
)
from rulecraft.model.airships.actions import AttemptTarget, Throw
from rulecraft.model.airships.catalogue import RULES
from rulecraft.model.airships.components import DEPARTMENT_INDEX, Dice
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState, Phase
from rulecraft.registry import make_game

Pred = Callable[[AirState], bool]


def _game(**readings: str) -> AirshipsGame:
    game = make_game("air", readings=readings)
    assert isinstance(game, AirshipsGame)
    return game


GAME = _game()


def find(game: AirshipsGame, pred: Pred, players: int = 3) -> AirState:
    """The first state of seeded random play that satisfies ``pred``."""
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_game(players)
        for _ in range(3000):
            if pred(state):
                assert check_all(game, state) == []
                return state
            action = game.random_action(state, rng)
            if action is None:
                break
            state = game.apply(state, action)
    raise AssertionError("no seeded game reached the wanted state")  # pragma: no cover


def _owns_airship(s: AirState) -> bool:
    return s.phase is Phase.ATTEMPT and any(b.airships for b in s.boards) and not s.hindenburg


@cache
def mid() -> AirState:
    """Era 1, an airship card won, no Hindenburg, the seat to attempt."""
    return find(GAME, lambda s: _owns_airship(s) and s.era == 1)


@cache
def stage_owned() -> AirState:
    return find(GAME, lambda s: any(o is not None for o in s.stages) and s.phase is not Phase.OVER)


@cache
def throwing() -> AirState:
    return find(GAME, lambda s: s.phase is Phase.THROW and s.attempt is not None and s.attempt.throw.total() >= 2)


@cache
def bonus() -> AirState:
    return find(GAME, lambda s: s.phase is Phase.BONUS)


@cache
def over() -> AirState:
    return find(GAME, lambda s: s.phase is Phase.OVER)


@cache
def dealing() -> AirState:
    return find(GAME, lambda s: s.phase is Phase.DEAL_AIRSHIPS and 4 < sum(map(len, s.stacks)) < 8)


def names(violations: list[Violation]) -> set[str]:
    return {v.invariant for v in violations}


def broken(state: AirState, game: AirshipsGame = GAME) -> set[str]:
    return names(check_all(game, state))


def replace(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def with_board(state: AirState, seat: int, **changes: Any) -> AirState:
    board = attrs.evolve(state.boards[seat], **changes)
    return attrs.evolve(state, boards=replace(state.boards, seat, board))


# -- the registry and the report ------------------------------------------------------


def test_registry_lists_the_required_invariants_in_order() -> None:
    required = [
        "nine-shared-dice",
        "chips-conserved",
        "one-card-per-department",
        "development-cards-accounted",
        "airship-cards-in-play",
        "display-rows",
        "wooden-airship-single-holder",
        "stages-once",
        "era-consistent",
        "end-condition-consistent",
        "scores-are-stars",
        "turn-bookkeeping",
    ]
    assert list(INVARIANTS)[: len(required)] == required
    for name, (rules, check, doc) in INVARIANTS.items():
        assert rules and all(r in RULES for r in rules), name
        assert doc and "\n" not in doc, name
        assert check(GAME, mid()) == []


def test_valid_states_have_no_violations() -> None:
    for state in (mid(), stage_owned(), throwing(), bonus(), over(), dealing()):
        assert check_all(GAME, state) == [], report(check_all(GAME, state))


def test_report_lists_every_violation() -> None:
    state = with_board(mid(), 0, chips=mid().boards[0].chips + 1)
    state = attrs.evolve(state, wooden_airship=7)
    violations = check_all(GAME, state)
    assert names(violations) == {"chips-conserved", "wooden-airship-single-holder"}
    text = report(violations, where="after step 37")
    lines = text.splitlines()
    assert lines[0] == "state after step 37 violates 2 invariants:"
    rules = "AIR-R-37, AIR-R-41, AIR-R-42, AIR-R-45, AIR-R-50"
    assert lines[1].startswith(f"  chips-conserved [{rules}]: ")
    assert "nation USA: supply" in text and "expected 6" in text
    assert any(line.startswith("  wooden-airship-single-holder [AIR-R-36") for line in lines)
    assert report([], where="after step 1") == "state after step 1 satisfies every invariant"
    one = report(violations[:1])
    assert one.startswith("state violates 1 invariant:")


def test_a_check_that_crashes_is_reported_not_raised() -> None:
    state = with_board(mid(), 0, departments=("NO-SUCH-CARD", *mid().boards[0].departments[1:]))
    found = broken(state)
    assert "one-card-per-department" in found
    assert "development-cards-accounted" in found


# -- one test per invariant -------------------------------------------------------------


def test_nine_shared_dice() -> None:
    state = throwing()
    assert state.attempt is not None
    four = attrs.evolve(state, attempt=attrs.evolve(state.attempt, throw=Dice(W=4)))
    assert broken(four) == {"nine-shared-dice"}
    # faces that are not faces of the colour, and a count that does not match
    throw = state.attempt.throw
    faces = ((7,) * throw.W, (1,) * throw.R, (9,) * throw.B)
    bad_faces = attrs.evolve(state, phase=Phase.BONUS, attempt=attrs.evolve(state.attempt, faces=faces))
    assert broken(bad_faces) == {"nine-shared-dice"}
    short = attrs.evolve(state, phase=Phase.BONUS, attempt=attrs.evolve(state.attempt, faces=((), (), ())))
    assert broken(short) == {"nine-shared-dice"}


def test_chips_conserved_per_nation() -> None:
    state = mid()
    extra = with_board(state, 1, chips=state.boards[1].chips + 1)
    violations = check_all(GAME, extra)
    assert names(violations) == {"chips-conserved"}
    nation = state.boards[1].nation
    assert any(f"nation {nation}: supply" in v.message and "expected 6" in v.message for v in violations)
    # a negative supply, the total kept
    seat = 0
    moved = state.supplies[seat] + 1
    negative = attrs.evolve(
        with_board(state, seat, chips=state.boards[seat].chips + moved),
        supplies=replace(state.supplies, seat, -1),
    )
    assert broken(negative) == {"chips-conserved"}
    assert any("-1 chips" in v.message for v in check_all(GAME, negative))


def test_chips_conserved_pooled() -> None:
    game = _game(**{"AIR-AMB-02": "pool"})
    state = find(game, lambda s: s.phase is Phase.ATTEMPT and s.goes > 3)
    assert len(state.supplies) == 1
    assert broken(attrs.evolve(state, supplies=(state.supplies[0] + 1,)), game) == {"chips-conserved"}
    # under 'all' the pool holds 24 chips whatever the player count
    game_all = _game(**{"AIR-AMB-02": "pool", "AIR-AMB-03": "all"})
    assert check_all(game_all, state) != []
    assert check_all(game_all, attrs.evolve(state, supplies=(state.supplies[0] + 6,))) == []


def test_one_card_per_department_wrong_field() -> None:
    state = mid()
    board = state.boards[0]
    held = next(i for i, c in enumerate(board.departments) if c is not None)
    empty = next(i for i, c in enumerate(board.departments) if c is None)
    fields = replace(replace(board.departments, empty, board.departments[held]), held, None)
    moved = with_board(state, 0, departments=fields)
    assert broken(moved) == {"one-card-per-department"}


def test_one_card_per_department_card_in_two_places() -> None:
    state = mid()
    shown = next(c for row in state.display for c in row if c is not None)
    dept = DEPARTMENT_INDEX[GAME.pack.development(shown).department]
    seat = next(i for i, b in enumerate(state.boards) if b.departments[dept] is None)
    board = state.boards[seat]
    twice = with_board(state, seat, departments=replace(board.departments, dept, shown))
    assert broken(twice) == {"one-card-per-department", "development-cards-accounted"}


def test_development_cards_accounted() -> None:
    state = mid()
    lost = attrs.evolve(state, deck_era1=state.deck_era1[1:])
    violations = check_all(GAME, lost)
    assert names(violations) == {"development-cards-accounted"}
    assert any("= 47, expected 48" in v.message for v in violations)
    assert any(state.deck_era1[0] in v.message for v in violations)
    stranger = attrs.evolve(state, removed=(*state.removed, "X-99"))
    assert broken(stranger) == {"development-cards-accounted"}


def test_airship_cards_in_play() -> None:
    state = mid()
    lost = attrs.evolve(state, airships_undealt=state.airships_undealt[1:])
    assert broken(lost) == {"airship-cards-in-play"}
    full = next(i for i, s in enumerate(state.stacks) if len(s) == 3)
    upside_down = attrs.evolve(state, stacks=replace(state.stacks, full, tuple(reversed(state.stacks[full]))))
    assert broken(upside_down) == {"airship-cards-in-play"}
    # while dealing, the counts still add up to 18
    deal = dealing()
    assert broken(attrs.evolve(deal, airships_undealt=deal.airships_undealt[1:])) == {"airship-cards-in-play"}


def test_display_rows() -> None:
    state = mid()
    row_index = next(i for i, row in enumerate(state.display) if row[0] is not None)
    other = next(i for i, row in enumerate(state.display) if i != row_index and None in row)
    card = state.display[row_index][0]
    row = state.display[other]
    slot = row.index(None)
    display = replace(state.display, other, replace(row, slot, card))
    display = replace(display, row_index, (None, *state.display[row_index][1:]))
    assert broken(attrs.evolve(state, display=display)) == {"display-rows"}
    wide = replace(state.display, other, (*row, None))
    assert broken(attrs.evolve(state, display=wide)) == {"display-rows"}
    # under AIR-AMB-16 'compact' a row never has a gap
    compact = _game(**{"AIR-AMB-16": "compact"})

    def partly_filled(row: tuple[str | None, ...]) -> bool:
        return row[0] is not None and row[2] is None

    tidy = find(compact, lambda s: s.phase is Phase.ATTEMPT and any(map(partly_filled, s.display)))
    index = next(i for i, row in enumerate(tidy.display) if partly_filled(row))
    gap = replace(tidy.display, index, (None, *tidy.display[index][:2]))
    assert broken(attrs.evolve(tidy, display=gap), compact) == {"display-rows"}
    assert broken(attrs.evolve(tidy, display=gap), GAME) == set()  # gaps are fine by default


def test_wooden_airship_single_holder() -> None:
    state = mid()
    assert broken(attrs.evolve(state, wooden_airship=7)) == {"wooden-airship-single-holder"}
    assert broken(attrs.evolve(state, wooden_airship=None)) == {"wooden-airship-single-holder"}
    fresh = find(GAME, lambda s: s.phase is Phase.ATTEMPT)
    assert fresh.wooden_airship is None
    assert broken(attrs.evolve(fresh, wooden_airship=0)) == {"wooden-airship-single-holder"}
    staged = stage_owned()
    owners = {o for o in staged.stages if o is not None}
    outsider = next(s for s in range(staged.players) if s not in owners)
    assert broken(attrs.evolve(staged, wooden_airship=outsider)) == {"wooden-airship-single-holder"}


def test_stages_once() -> None:
    state = mid()
    seat = state.wooden_airship
    assert seat is not None
    # a stage owned before the reveal, with its marker chip taken and the airship moved
    supply = state.supplies[seat]
    early = attrs.evolve(
        state,
        stages=(seat, None, None, None),
        markers=(True, False, False, False),
        supplies=replace(state.supplies, seat, supply - 1) if supply else state.supplies,
    )
    if not supply:
        early = with_board(early, seat, chips=state.boards[seat].chips - 1)
    assert broken(early) == {"stages-once"}
    assert broken(attrs.evolve(state, hindenburg=True)) == {"stages-once"}
    staged = stage_owned()
    index = next(i for i, o in enumerate(staged.stages) if o is not None)
    assert "stages-once" in broken(attrs.evolve(staged, stages=replace(staged.stages, index, 9)))
    # under the sequential reading, stages in order only
    sequential = _game(**{"AIR-AMB-18": "sequential"})
    fake = attrs.evolve(staged, stages=(None, None, None, None))
    fake = attrs.evolve(fake, stages=(None, staged.stages[index], None, None))
    assert "stages-once" in broken(fake, sequential)


def test_era_consistent() -> None:
    state = mid()
    assert state.era == 1
    assert broken(attrs.evolve(state, era=2)) == {"era-consistent"}
    tile_gone = attrs.evolve(state, era=2, era_tile_in_deck=False)
    assert broken(tile_gone) == {"era-consistent"}
    # an era-2 card drawn before the era tile: swap it with an era-1 card of the display
    row_i, field = next(
        (r, f)
        for r, row in enumerate(state.display)
        for f, c in enumerate(row)
        if c is not None and GAME.pack.development(c).group == "era1"
    )
    era1_card = state.display[row_i][field]
    assert era1_card is not None
    dept = GAME.pack.development(era1_card).department
    era2_card = next(c for c in state.deck_era2 if GAME.pack.development(c).department is dept)
    swapped = attrs.evolve(
        state,
        display=replace(state.display, row_i, replace(state.display[row_i], field, era2_card)),
        deck_era2=(*tuple(c for c in state.deck_era2 if c != era2_card), era1_card),
    )
    assert broken(swapped) == {"era-consistent"}


def test_end_condition_consistent() -> None:
    state = mid()
    assert broken(attrs.evolve(state, phase=Phase.OVER)) == {"end-condition-consistent"}
    done = over()
    assert broken(attrs.evolve(done, phase=Phase.ATTEMPT)) == {"end-condition-consistent"}
    pending = attrs.evolve(done, attempt=throwing().attempt)
    assert "end-condition-consistent" in broken(pending)


def test_scores_are_stars() -> None:
    class ForgetsAirships(AirshipsGame):
        """A mutant scorer that leaves out the airship cards' VP."""

        def scores(self, state: AirState) -> dict[int, int]:
            out = dict(super().scores(state))
            for seat, board in enumerate(state.boards):
                out[seat] -= sum(self.pack.airship(c).vp for c in board.airships)
            return out

    mutant = ForgetsAirships()
    state = mid()
    assert broken(state, mutant) == {"scores-are-stars"}
    assert broken(dealing(), mutant) == set()  # no airship owned yet: nothing to miss


def test_turn_bookkeeping() -> None:
    state = mid()
    assert broken(attrs.evolve(state, seat=5)) == {"turn-bookkeeping"}
    assert broken(attrs.evolve(state, start_seat=-1)) == {"turn-bookkeeping"}
    assert broken(attrs.evolve(throwing(), attempt=None)) == {"turn-bookkeeping"}
    assert broken(attrs.evolve(state, attempt=throwing().attempt)) == {"turn-bookkeeping"}
    assert broken(attrs.evolve(state, goes=0)) == {"turn-bookkeeping"}
    thrown = bonus().attempt
    assert broken(attrs.evolve(throwing(), attempt=thrown)) == {"turn-bookkeeping"}


@pytest.mark.parametrize("name", list(INVARIANTS))
def test_every_invariant_is_shown_to_fail(name: str) -> None:
    """Collects the breaks above: each registered invariant fails at least once."""
    pending = throwing().attempt
    assert pending is not None
    breaks: dict[str, Callable[[], tuple[AirState, AirshipsGame]]] = {
        "nine-shared-dice": lambda: (
            attrs.evolve(throwing(), attempt=attrs.evolve(pending, throw=Dice(B=5))),
            GAME,
        ),
        "chips-conserved": lambda: (with_board(mid(), 0, chips=99), GAME),
        "one-card-per-department": lambda: (
            with_board(mid(), 0, departments=tuple(reversed(mid().boards[0].departments))),
            GAME,
        ),
        "development-cards-accounted": lambda: (attrs.evolve(mid(), removed=("E2-FIN-1",)), GAME),
        "airship-cards-in-play": lambda: (attrs.evolve(mid(), airships_undealt=()), GAME),
        "display-rows": lambda: (attrs.evolve(mid(), display=tuple(reversed(mid().display))), GAME),
        "wooden-airship-single-holder": lambda: (attrs.evolve(mid(), wooden_airship=7), GAME),
        "stages-once": lambda: (attrs.evolve(mid(), hindenburg=True), GAME),
        "era-consistent": lambda: (attrs.evolve(mid(), era=3), GAME),
        "end-condition-consistent": lambda: (attrs.evolve(mid(), phase=Phase.OVER), GAME),
        "scores-are-stars": lambda: (mid(), _MiscountingStages()),
        "turn-bookkeeping": lambda: (attrs.evolve(mid(), seat=9), GAME),
    }
    state, game = breaks[name]()
    assert name in broken(state, game)


class _MiscountingStages(AirshipsGame):
    """A mutant scorer: one VP too many for everybody."""

    def scores(self, state: AirState) -> dict[int, int]:
        return {seat: vp + 1 for seat, vp in super().scores(state).items()}


def test_pooled_stage_marker_with_no_chip_anywhere() -> None:
    """Regression: under AIR-AMB-02 'pool' a stage won with no chip in the pool or on
    the board is owned without a marker (AIR-AMB-29 'record'); chips stay conserved."""
    game = _game(**{"AIR-AMB-02": "pool"})

    def stage_open(s: AirState) -> bool:
        return s.phase is Phase.ATTEMPT and any(
            isinstance(a, AttemptTarget) and a.target.startswith("stage") for a in game.legal_actions(s)
        )

    state = find(game, stage_open, players=2)
    seat, other = state.seat, 1 - state.seat
    total = state.supplies[0] + sum(b.chips for b in state.boards)
    # every chip on the other company's board: reachable through failure chips
    state = with_board(with_board(state, seat, chips=0), other, chips=total)
    state = attrs.evolve(state, supplies=(0,))
    assert check_all(game, state) == []
    attempt = max(
        (a for a in game.legal_actions(state) if isinstance(a, AttemptTarget) and a.target.startswith("stage")),
        key=lambda a: a.throw.total(),
    )
    state = game.apply(state, attempt)
    best = max(game.chance_outcomes(state), key=lambda o: sum(map(sum, _faces(o[0]))))[0]
    state = game.apply(state, best)
    if seat not in state.stages:  # pragma: no cover - depends on the pack's stage targets
        pytest.skip("the best throw did not win the stage with this pack")
    violations = check_all(game, state)
    assert violations == [], report(violations, where="after a stage won with no chip anywhere")


def _faces(action: Any) -> tuple[tuple[int, ...], ...]:
    assert isinstance(action, Throw)
    return (action.W, action.R, action.B)


# -- the records of the non-default readings AIR-AMB-01 and AIR-AMB-26 (issue 22) -------------------------------


def test_waiting_cards_are_flagged_unless_next_turn_delays_them() -> None:
    """AIR-AMB-26: only 'next-turn' makes a won card wait (on the winner's board, once, during the
    winner's own turn); under the default no card ever waits."""
    state = mid()
    seat = state.seat
    held = next(c for c in state.boards[seat].departments if c is not None)
    waiting = with_board(state, seat, won_this_turn=(held,))
    assert "one-card-per-department" in broken(waiting)  # default 'next-throw': nothing waits
    next_turn = _game(**{"AIR-AMB-26": "next-turn"})
    assert broken(waiting, next_turn) == set()
    # a waiting card that is not on the board, a card recorded twice
    absent = next(c for c in ("E1-FIN-1", "E1-HAN-1", "E1-PIL-1") if c not in state.boards[seat].departments)
    assert "one-card-per-department" in broken(with_board(state, seat, won_this_turn=(absent,)), next_turn)
    assert "one-card-per-department" in broken(with_board(state, seat, won_this_turn=(held, held)), next_turn)
    # an airship card won this turn waits as well (it is on the board)
    owner = next(s for s, b in enumerate(state.boards) if b.airships)
    if owner == seat:
        airship = state.boards[seat].airships[0]
        assert broken(with_board(state, seat, won_this_turn=(airship,)), next_turn) == set()
    # only the seat whose turn it is may have waiting cards
    other = (seat + 1) % state.players
    card = next(c for c in state.boards[other].departments if c is not None)
    assert "turn-bookkeeping" in broken(with_board(state, other, won_this_turn=(card,)), next_turn)


def test_extra_red_dice_only_under_every_success_and_at_most_one_a_go() -> None:
    """AIR-AMB-01: only 'every-success' gives extra red dice, one per successful go at most."""
    state = mid()
    seat = state.seat
    one = with_board(state, seat, extra_red_dice=1)
    assert "turn-bookkeeping" in broken(one)
    every = _game(**{"AIR-AMB-01": "every-success"})
    assert broken(one, every) == set()
    too_many = with_board(state, seat, extra_red_dice=state.goes + 1)
    assert "turn-bookkeeping" in broken(too_many, every)
    assert "turn-bookkeeping" in broken(with_board(state, seat, extra_red_dice=-1), every)
