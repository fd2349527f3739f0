"""Airships invariants: the registry wrapper and the helpers, pinned to the rules digest.

Issue 22 (a mutation score for every module).  The checks themselves are registered by a
decorator, which mutmut does not mutate; what it mutates is the wrapper ``_invariant`` and
the helpers the checks call (``_dev_locations``, ``_seat_ok``, ``_after_setup``,
``_waiting_cards``, ``_turn_records``).  Each test builds a valid state by seeded play,
corrupts exactly one thing with ``attrs.evolve``, and asserts the named invariant's message
names the seat, the cards, the places and the rule (digest /work/shared/rules/airships.md,
section 3.10 and AIR-AMB-01/26); the uncorrupted state reports nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import attrs
import pytest

from rulecraft.invariants import airships as inv
from rulecraft.invariants.airships import INVARIANTS, InvariantSpec, Violation, check_all
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState, Phase
from rulecraft.registry import make_game


def _game(**readings: str) -> AirshipsGame:
    game = make_game("air", readings=readings)
    assert isinstance(game, AirshipsGame)
    return game


GAME = _game()


def _play(game: AirshipsGame, pred: Callable[[AirState], bool], players: int = 3) -> AirState:
    """The first state of seeded random play that satisfies ``pred`` (and every invariant)."""
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_game(players)
        for _ in range(2000):
            if pred(state):
                assert check_all(game, state) == []
                return state
            action = game.random_action(state, rng)
            if action is None:
                break
            state = game.apply(state, action)
    raise AssertionError("no seeded game reached the wanted state")  # pragma: no cover


@cache
def early() -> AirState:
    """Era 1, a few goes played, a seat to attempt: every deck part still holds cards."""
    return _play(GAME, lambda s: s.phase is Phase.ATTEMPT and s.goes >= 2 and bool(s.deck_era1))


@cache
def won_card(reading: str) -> tuple[AirshipsGame, AirState]:
    """A seat to attempt that holds a development card, under AIR-AMB-26 ``reading``."""
    game = _game(**{"AIR-AMB-26": reading})
    state = _play(game, lambda s: s.phase is Phase.ATTEMPT and any(s.boards[s.seat].departments))
    return game, state


def held_card(state: AirState, seat: int) -> str:
    return next(c for c in state.boards[seat].departments if c is not None)


def messages(game: AirshipsGame, state: AirState, name: str) -> list[str]:
    return [v.message for v in check_all(game, state) if v.invariant == name]


def with_board(state: AirState, seat: int, **changes: Any) -> AirState:
    boards = list(state.boards)
    boards[seat] = attrs.evolve(boards[seat], **changes)
    return attrs.evolve(state, boards=tuple(boards))


# -- the registry wrapper _invariant -----------------------------------------------------------


@pytest.fixture
def scratch_registry() -> Iterator[None]:
    """Register throw-away checks, then put the registry back as it was."""
    saved = dict(INVARIANTS)
    try:
        yield
    finally:
        INVARIANTS.clear()
        INVARIANTS.update(saved)


@pytest.mark.usefixtures("scratch_registry")
def test_invariant_wrapper_turns_each_message_into_a_named_violation_with_its_rules() -> None:
    """A registered check yields one Violation per message, carrying the invariant's name and
    rule IDs (here AIR-R-30/AIR-R-51, the 9 shared dice); the registry keeps rules, check and
    the docstring's first line."""

    def recount(game: AirshipsGame, state: AirState) -> Iterator[str]:
        """Two facts from the game and the state.

        Only the first line is the registry's one-line doc."""
        yield f"pack {game.pack.name}"
        yield f"{state.players} seats"

    state = early()  # found before registering: the scratch check would break it
    check = inv._invariant("scratch-recount", "AIR-R-30", "AIR-R-51")(recount)
    assert check(GAME, state) == [
        Violation("scratch-recount", ("AIR-R-30", "AIR-R-51"), f"pack {GAME.pack.name}"),
        Violation("scratch-recount", ("AIR-R-30", "AIR-R-51"), "3 seats"),
    ]
    assert INVARIANTS["scratch-recount"] == InvariantSpec(
        ("AIR-R-30", "AIR-R-51"), check, "Two facts from the game and the state."
    )
    # the check keeps the generator's identity, so a report or a traceback names it
    assert check.__name__ == "recount"
    assert check.__qualname__ == recount.__qualname__
    assert check.__doc__ == recount.__doc__


@pytest.mark.usefixtures("scratch_registry")
def test_invariant_wrapper_without_docstring_uses_the_name_as_doc() -> None:
    def silent(game: AirshipsGame, state: AirState) -> Iterator[str]:
        return iter(())

    state = early()
    check = inv._invariant("scratch-silent", "AIR-R-24")(silent)
    assert check(GAME, state) == []  # no message, no violation
    assert INVARIANTS["scratch-silent"].doc == "scratch-silent"
    assert INVARIANTS["scratch-silent"].rules == ("AIR-R-24",)


@pytest.mark.usefixtures("scratch_registry")
def test_invariant_wrapper_reports_a_check_that_raises_as_could_not_run() -> None:
    """A broken state may break the recount itself: that is one violation, not a traceback."""

    def crashes(game: AirshipsGame, state: AirState) -> Iterator[str]:
        """Looks up a card that is not in the pack."""
        yield "first"
        raise KeyError("NO-SUCH-CARD")

    state = early()
    check = inv._invariant("scratch-crash", "AIR-R-38")(crashes)
    found = check(GAME, state)
    assert len(found) == 1  # the messages before the crash are dropped with it
    (violation,) = found
    assert violation.invariant == "scratch-crash"
    assert violation.rules == ("AIR-R-38",)
    assert violation.message.startswith("the check could not run: KeyError: ")
    assert "NO-SUCH-CARD" in violation.message
    assert str(violation).startswith("scratch-crash [AIR-R-38]: the check could not run")


# -- _dev_locations: the places named in development-cards-accounted (AIR-R-04/05/24/38) --------


def _count_parts(message: str) -> list[str]:
    """'the era-1 deck 12 + display 6 = 47, expected 48' -> ['the era-1 deck 12', 'display 6']."""
    return message.split(" = ")[0].split(" + ")


def test_dev_cards_lost_from_each_deck_part_are_counted_by_place_air_r_04() -> None:
    """AIR-R-04: 48 development cards; the recount names each place with its count."""
    state = early()
    assert messages(GAME, state, "development-cards-accounted") == []
    era1, era2 = len(state.deck_era1), len(state.deck_era2)
    lost1 = messages(GAME, attrs.evolve(state, deck_era1=state.deck_era1[1:]), "development-cards-accounted")
    parts = _count_parts(lost1[0])
    assert f"the era-1 deck {era1 - 1}" in parts
    assert f"the era-2 deck {era2}" in parts
    assert lost1[0].endswith("= 47, expected 48")
    lost2 = messages(GAME, attrs.evolve(state, deck_era2=state.deck_era2[1:]), "development-cards-accounted")
    assert f"the era-2 deck {era2 - 1}" in _count_parts(lost2[0])
    assert f"missing from every place: {state.deck_era2[0]}" in lost2


def test_a_card_also_in_the_removed_pile_names_both_places_air_r_24() -> None:
    """AIR-R-24: a card pushed out of a row leaves the game; it cannot also lie in the deck."""
    state = early()
    card = state.deck_era1[0]
    twice = attrs.evolve(state, removed=(*state.removed, card))
    found = messages(GAME, twice, "development-cards-accounted")
    assert f"{card} appears 2 times (the era-1 deck, the removed pile)" in found
    assert f"the removed pile {len(state.removed) + 1}" in _count_parts(found[0])


def test_a_card_also_among_the_undealt_starters_names_both_places_air_r_05() -> None:
    """AIR-R-05: the starters left over after dealing lie on the board, so none stays undealt;
    a card both in the era-2 deck and among the undealt starters lies in two places."""
    state = early()
    assert state.starters_undealt == ()
    card = state.deck_era2[0]
    twice = attrs.evolve(state, starters_undealt=(card,))
    found = messages(GAME, twice, "development-cards-accounted")
    assert f"{card} appears 2 times (the era-2 deck, the undealt starters)" in found
    assert "the undealt starters 1" in _count_parts(found[0])


# -- _seat_ok: seats are 0..players-1 (AIR-R-10, AIR-R-36) ---------------------------------------


def test_seat_numbers_stop_at_players_minus_one_air_r_10() -> None:
    state = early()
    last = state.players - 1
    assert messages(GAME, attrs.evolve(state, start_seat=last), "turn-bookkeeping") == []
    past = messages(GAME, attrs.evolve(state, start_seat=state.players), "turn-bookkeeping")
    assert past == [f"start seat {state.players}; seats are 0..{last}"]
    assert inv._seat_ok(state, last)
    assert not inv._seat_ok(state, state.players)
    assert not inv._seat_ok(state, -1)
    assert not inv._seat_ok(state, None)


def test_wooden_airship_held_by_the_seat_after_the_last_is_reported_air_r_36() -> None:
    state = early()
    found = messages(GAME, attrs.evolve(state, wooden_airship=state.players), "wooden-airship-single-holder")
    assert found == [f"held by seat {state.players}; seats are 0..{state.players - 1}"]


# -- _after_setup: the three dealing phases are set-up (AIR-R-03, 05, 06) ------------------------


@pytest.mark.parametrize("phase", list(Phase))
def test_after_setup_is_every_phase_but_the_three_dealing_ones(phase: Phase) -> None:
    state = attrs.evolve(early(), phase=phase)
    dealing = phase in (Phase.DEAL_AIRSHIPS, Phase.DEAL_STARTERS, Phase.FILL_DISPLAY)
    assert inv._after_setup(state) is not dealing


# -- _waiting_cards and _turn_records: AIR-AMB-26 and AIR-AMB-01 records, every reading ----------


def test_a_waiting_card_is_allowed_only_under_air_amb_26_next_turn() -> None:
    """AIR-AMB-26 'next-turn': the card just won waits on the winner's board; 'next-throw'
    (the default) never delays a card, so a waiting card is a violation naming it."""
    game, state = won_card("next-turn")
    card = held_card(state, state.seat)
    waiting = with_board(state, state.seat, won_this_turn=(card,))
    assert messages(game, waiting, "one-card-per-department") == []
    assert messages(game, waiting, "turn-bookkeeping") == []
    game, state = won_card("next-throw")
    card = held_card(state, state.seat)
    found = messages(game, with_board(state, state.seat, won_this_turn=(card,)), "one-card-per-department")
    assert len(found) == 1
    assert found[0].startswith(f"seat {state.seat}'s cards ['{card}'] wait for its next turn")
    assert "AIR-AMB-26 'next-turn'" in found[0]


def test_a_card_recorded_twice_as_waiting_is_reported_air_amb_26() -> None:
    game, state = won_card("next-turn")
    card = held_card(state, state.seat)
    found = messages(game, with_board(state, state.seat, won_this_turn=(card, card)), "one-card-per-department")
    assert found == [f"seat {state.seat} records a card won twice this turn: ['{card}', '{card}'] (AIR-AMB-26)"]


def test_a_waiting_card_not_on_the_board_is_reported_air_amb_26() -> None:
    game, state = won_card("next-turn")
    stranger = state.deck_era1[0] if state.deck_era1 else state.deck_era2[0]
    found = messages(game, with_board(state, state.seat, won_this_turn=(stranger,)), "one-card-per-department")
    assert found == [
        f"seat {state.seat}'s card {stranger} waits for its next turn but is not on its board (AIR-AMB-26)"
    ]


def test_cards_waiting_on_another_seat_belong_to_a_turn_that_is_over_air_amb_26() -> None:
    """The record is cleared when the turn ends, so only the seat to move may have waiting cards."""
    game, state = won_card("next-turn")
    other = next(s for s, b in enumerate(state.boards) if s != state.seat and any(b.departments))
    card = held_card(state, other)
    found = messages(game, with_board(state, other, won_this_turn=(card,)), "turn-bookkeeping")
    assert found == [f"seat {other} still has cards waiting from a turn that is over: ['{card}']"]


@pytest.mark.parametrize(("reading", "allowed"), [("caption", False), ("every-success", True), ("stray", False)])
def test_extra_red_dice_exist_only_under_air_amb_01_every_success(reading: str, allowed: bool) -> None:
    """AIR-AMB-01: only 'every-success' gives a red die per success, at most one per go."""
    game = _game(**{"AIR-AMB-01": reading})
    state = _play(game, lambda s: s.phase is Phase.ATTEMPT and s.goes >= 2)
    one = with_board(state, 0, extra_red_dice=1)
    found = messages(game, one, "turn-bookkeeping")
    if allowed:
        assert found == []
        too_many = with_board(state, 0, extra_red_dice=state.goes + 1)
        assert messages(game, too_many, "turn-bookkeeping") == [
            f"{state.goes + 1} extra red dice after {state.goes} goes; a go brings at most one"
        ]
    else:
        assert found == ["1 extra red dice on the boards, but only AIR-AMB-01 'every-success' gives them"]
