"""Named invariants of Airships states, in the style of python-chess ``status()``.

Each check is a small function ``(game, state) -> list[Violation]`` that
recounts a fact of the rules digest (sections 3.9 and 3.10) straight from the
state and the game's component pack, without calling the model's transition
code, so that a wrong transition shows up as a violation.  ``check_all``
returns every violation at once, and ``report`` words them for a person::

    from rulecraft.invariants.airships import check_all, report

    violations = check_all(game, state)
    assert not violations, report(violations, where="after step 37")

``INVARIANTS`` lists the checks in order: name -> (rules, check, doc).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rulecraft.invariant import InvariantSpec, Registry, Violation, report
from rulecraft.model.airships.components import (
    COLOURS,
    DEPARTMENTS,
    FACES,
    TIERS,
)
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.model.airships.state import AirState, CompanyBoard, Phase
from rulecraft.model.airships.transitions import end_condition

__all__ = [
    "INVARIANTS",
    "InvariantSpec",
    "Violation",
    "check_airship_cards_in_play",
    "check_all",
    "check_chips_conserved",
    "check_development_cards_accounted",
    "check_display_rows",
    "check_end_condition_consistent",
    "check_era_consistent",
    "check_nine_shared_dice",
    "check_one_card_per_department",
    "check_scores_are_stars",
    "check_stages_once",
    "check_turn_bookkeeping",
    "check_wooden_airship_single_holder",
    "report",
]

SETUP_PHASES = (Phase.DEAL_AIRSHIPS, Phase.DEAL_STARTERS, Phase.FILL_DISPLAY)
AIRSHIP_CARDS = 18
AIRSHIPS_IN_PLAY = 12  # 4 stacks of 3 (AIR-R-03)
DEVELOPMENT_CARDS = 48


_REGISTRY = Registry()
INVARIANTS: dict[str, InvariantSpec] = _REGISTRY.invariants
_invariant = _REGISTRY.invariant


def check_all(game: AirshipsGame, state: AirState) -> list[Violation]:
    """Every violation of every registered invariant, in registry order."""
    return _REGISTRY.check_all(game, state)


# -- helpers ----------------------------------------------------------------------


def _dev_locations(state: AirState) -> Iterator[tuple[str, str]]:
    """(place, card) for every development card the state names."""
    for card in state.deck_era1:
        yield "the era-1 deck", card
    for card in state.deck_era2:
        yield "the era-2 deck", card
    for r, row in enumerate(state.display):
        for shown in row:
            if shown is not None:
                yield f"display row {DEPARTMENTS[r].value}", shown
    for seat, board in enumerate(state.boards):
        for held in board.departments:
            if held is not None:
                yield f"seat {seat}'s board", held
    for card in state.removed:
        yield "the removed pile", card
    for card in state.starters_undealt:
        yield "the undealt starters", card


def _seat_ok(state: AirState, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < state.players


def _after_setup(state: AirState) -> bool:
    return state.phase not in SETUP_PHASES


# -- the invariants ---------------------------------------------------------------


def check_nine_shared_dice(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """A pending attempt throws at most 3 dice per colour, with faces of that colour."""
    attempt = state.attempt
    if attempt is None:
        return
    exist = game.ctx.p("dice_per_colour")  # printed: 3 of each colour
    for colour in COLOURS:
        n = attempt.throw[colour]
        if n > exist:
            yield f"the attempt throws {n} {colour.value} dice; only {exist} exist"
    if attempt.faces is None:
        return
    if len(attempt.faces) != len(COLOURS):
        yield f"the thrown faces have {len(attempt.faces)} colour groups, expected 3"
        return
    for colour, faces in zip(COLOURS, attempt.faces, strict=True):
        if len(faces) != attempt.throw[colour]:
            yield (f"{attempt.throw[colour]} {colour.value} dice declared, {len(faces)} {colour.value} faces thrown")
        bad = [v for v in faces if v not in FACES[colour]]
        if bad:
            yield f"{colour.value} faces {bad} are not faces of a {colour.value} die"


_invariant("nine-shared-dice", "AIR-R-30", "AIR-R-51")(check_nine_shared_dice)


def check_chips_conserved(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Per nation supply + board + stage markers = 6 (pooled: the total); none negative."""
    per = game.pack.chips_per_nation
    for i, n in enumerate(state.supplies):
        if n < 0:
            yield f"supply {i} holds {n} chips"
    for seat, board in enumerate(state.boards):
        if board.chips < 0:
            yield f"seat {seat} ({board.nation}) has {board.chips} chips on the board"
    markers = Counter(
        owner for owner, marked in zip(state.stages, state.markers, strict=True) if owner is not None and marked
    )
    for index, (owner, marked) in enumerate(zip(state.stages, state.markers, strict=True), start=1):
        if marked and owner is None:
            yield f"stage {index} carries a marker chip but has no owner"
        if owner is not None and not marked and game.ctx.r("AIR-AMB-02") == "nation":
            yield f"stage {index} (seat {owner}) has no marker chip, but a nation's chips always suffice"
    if game.ctx.r("AIR-AMB-02") == "nation":
        if len(state.supplies) != state.players:
            yield f"{len(state.supplies)} supplies for {state.players} nations"
            return
        for seat, board in enumerate(state.boards):
            supply = state.supplies[seat]
            total = supply + board.chips + markers[seat]
            if total != per:
                yield (
                    f"nation {board.nation}: supply {supply} + board {board.chips} "
                    f"+ stage markers {markers[seat]} = {total}, expected {per}"
                )
        return
    if len(state.supplies) != 1:
        yield f"a pooled supply is one pile; the state has {len(state.supplies)}"
        return
    nations = 4 if game.ctx.r("AIR-AMB-03") == "all" else state.players
    want = per * nations
    on_boards = sum(b.chips for b in state.boards)
    placed = sum(markers.values())
    total = state.supplies[0] + on_boards + placed
    if total != want:
        yield (f"supply {state.supplies[0]} + boards {on_boards} + markers {placed} = {total}, expected {want}")


_invariant("chips-conserved", "AIR-R-37", "AIR-R-41", "AIR-R-42", "AIR-R-45", "AIR-R-50")(check_chips_conserved)


def check_one_card_per_department(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Each board field holds a card of its department; a held card is nowhere else; a waiting card is held."""
    places = Counter(card for _, card in _dev_locations(state))
    for seat, board in enumerate(state.boards):
        yield from _waiting_cards(game, seat, board)
        if len(board.departments) != len(DEPARTMENTS):
            yield f"seat {seat}'s board has {len(board.departments)} department fields, expected 6"
            continue
        for dept, card in zip(DEPARTMENTS, board.departments, strict=True):
            if card is None:
                continue
            actual = game.pack.development(card).department
            if actual is not dept:
                yield (f"seat {seat} holds {actual.value} card {card} on the {dept.value} field")
            if places[card] > 1:
                yield f"seat {seat}'s {card} lies in {places[card]} places"


_invariant("one-card-per-department", "AIR-R-11", "AIR-R-38")(check_one_card_per_department)


def _waiting_cards(game: AirshipsGame, seat: int, board: CompanyBoard) -> Iterator[str]:
    """AIR-AMB-26 'next-turn': the cards won this turn, waiting to take effect,
    lie on the winner's board; under 'next-throw' no card ever waits."""
    waiting = board.won_this_turn
    if waiting and game.ctx.r("AIR-AMB-26") != "next-turn":
        yield f"seat {seat}'s cards {list(waiting)} wait for its next turn, but only AIR-AMB-26 'next-turn' delays them"
    held = {c for c in board.departments if c is not None} | set(board.airships)
    for card in sorted(set(waiting) - held):
        yield f"seat {seat}'s card {card} waits for its next turn but is not on its board (AIR-AMB-26)"
    if len(set(waiting)) != len(waiting):
        yield f"seat {seat} records a card won twice this turn: {list(waiting)} (AIR-AMB-26)"


def check_development_cards_accounted(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Deck + display + boards + removed + undealt starters = the pack's 48, once each."""
    located = list(_dev_locations(state))
    counts = Counter(card for _, card in located)
    pack_ids = Counter(c.id for c in game.pack.developments)
    by_place = Counter(place.split(" row ")[0] for place, _ in located)
    total = sum(counts.values())
    if total != DEVELOPMENT_CARDS:
        parts = " + ".join(f"{where} {n}" for where, n in sorted(by_place.items()))
        yield f"{parts} = {total}, expected {DEVELOPMENT_CARDS}"
    for card, n in sorted(counts.items()):
        if n > 1:
            where = ", ".join(place for place, c in located if c == card)
            yield f"{card} appears {n} times ({where})"
    missing = sorted(pack_ids - counts)
    unknown = sorted(set(counts) - set(pack_ids))
    if missing:
        yield f"missing from every place: {', '.join(missing)}"
    if unknown:
        yield f"not cards of pack {game.pack.name}: {', '.join(unknown)}"


_invariant("development-cards-accounted", "AIR-R-04", "AIR-R-05", "AIR-R-24", "AIR-R-38")(
    check_development_cards_accounted
)


def check_airship_cards_in_play(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """4 stacks + owned = 12 and 6 removed (18 while dealing); tiers dark/medium/light up."""
    stacked = [c for s in state.stacks for c in s]
    owned = [c for b in state.boards for c in b.airships]
    undealt = list(state.airships_undealt)
    everything = Counter(stacked + owned + undealt)
    total = sum(everything.values())
    if len(state.stacks) != 4:
        yield f"{len(state.stacks)} airship fields, expected 4"
    if total != AIRSHIP_CARDS:
        yield (
            f"stacks {len(stacked)} + owned {len(owned)} + undealt {len(undealt)} = {total}, expected {AIRSHIP_CARDS}"
        )
    for card, n in sorted(everything.items()):
        if n > 1:
            yield f"airship card {card} appears {n} times"
    pack_ids = {c.id for c in game.pack.airships}
    unknown = sorted(set(everything) - pack_ids)
    if unknown:
        yield f"not airship cards of pack {game.pack.name}: {', '.join(unknown)}"
        return
    for i, stack in enumerate(state.stacks, start=1):
        if len(stack) > len(TIERS):
            yield f"airship field {i} holds {len(stack)} cards, at most 3"
        for level, card in enumerate(stack):
            tier = game.pack.airship(card).tier
            if level < len(TIERS) and tier != TIERS[level]:
                yield (f"airship field {i} has {tier} card {card} at level {level + 1}, expected {TIERS[level]}")
    if state.phase is Phase.DEAL_AIRSHIPS:
        lengths = [len(s) for s in state.stacks]
        if owned:
            yield f"{len(owned)} airship cards owned during set-up"
        if lengths != sorted(lengths, reverse=True) or max(lengths) - min(lengths) > 1:
            yield f"stacks dealt unevenly: {lengths}"
        return
    if len(stacked) + len(owned) != AIRSHIPS_IN_PLAY:
        yield (f"stacks {len(stacked)} + owned {len(owned)} = {len(stacked) + len(owned)}, expected {AIRSHIPS_IN_PLAY}")
    tiers = Counter(game.pack.airship(c).tier for c in undealt)
    for tier in TIERS:
        if tiers[tier] != 2:
            yield f"{tiers[tier]} {tier} cards removed unseen, expected 2"


_invariant("airship-cards-in-play", "AIR-R-03", "AIR-R-40")(check_airship_cards_in_play)


def check_display_rows(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Six rows of at most 3 cards, each in its department's row (no gaps if 'compact')."""
    if len(state.display) != len(DEPARTMENTS):
        yield f"{len(state.display)} display rows, expected 6"
    for dept, row in zip(DEPARTMENTS, state.display, strict=False):
        if len(row) != 3:
            yield f"the {dept.value} row has {len(row)} fields, expected 3"
        for card in row:
            if card is None:
                continue
            actual = game.pack.development(card).department
            if actual is not dept:
                yield f"{actual.value} card {card} lies in the {dept.value} row"
        if game.ctx.r("AIR-AMB-16") == "compact":
            filled = [c is not None for c in row]
            if filled != sorted(filled, reverse=True):
                yield f"the {dept.value} row has a gap under AIR-AMB-16 'compact': {list(row)}"


_invariant("display-rows", "AIR-R-24")(check_display_rows)


def check_wooden_airship_single_holder(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Nobody or one valid seat holds it; held iff an airship card or stage was won."""
    holder = state.wooden_airship
    if holder is not None and not _seat_ok(state, holder):
        yield f"held by seat {holder}; seats are 0..{state.players - 1}"
        return
    won = sum(len(b.airships) for b in state.boards)
    stages = [o for o in state.stages if o is not None]
    if holder is None and (won or stages):
        yield f"nobody holds it, though {won} airship cards and {len(stages)} stages were won"
    if holder is not None and not won and not stages:
        yield f"seat {holder} holds it, though no airship card or stage was won"
    if stages and holder is not None and holder not in stages:
        yield (
            f"seat {holder} holds it, but stages were completed (by seats {sorted(set(stages))}) "
            f"and only a stage moves it after the first (AIR-R-46)"
        )


_invariant("wooden-airship-single-holder", "AIR-R-36", "AIR-R-40", "AIR-R-45")(check_wooden_airship_single_holder)


def check_stages_once(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Four stages, each owned once by a valid seat, only after the Hindenburg's reveal."""
    if len(state.stages) != 4:
        yield f"{len(state.stages)} Hindenburg stages, expected 4"
    for i, owner in enumerate(state.stages, start=1):
        if owner is not None and not _seat_ok(state, owner):
            yield f"stage {i} is owned by seat {owner}; seats are 0..{state.players - 1}"
    owned = [i for i, o in enumerate(state.stages, start=1) if o is not None]
    if owned and not state.hindenburg:
        yield f"stages {owned} are owned but the Hindenburg is not revealed"
    empty = [i for i, s in enumerate(state.stacks, start=1) if not s]
    if state.phase is Phase.DEAL_AIRSHIPS:
        if state.hindenburg:
            yield "the Hindenburg is revealed during set-up"
        return
    if state.hindenburg and not empty:
        yield "the Hindenburg is revealed but no airship field is empty"
    if not state.hindenburg and empty:
        yield f"airship fields {empty} are empty but the Hindenburg is not revealed"
    if game.ctx.r("AIR-AMB-18") == "sequential" and owned != list(range(1, len(owned) + 1)):
        yield f"stages {owned} are completed, not in order 1, 2, 3, 4 (AIR-AMB-18)"


_invariant("stages-once", "AIR-R-43", "AIR-R-44", "AIR-R-45")(check_stages_once)


def check_era_consistent(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Era 2 iff the era tile is out; era-1 cards before the tile, era-2 cards after it."""
    tile_out = not state.era_tile_in_deck
    if state.era not in (1, 2):
        yield f"era {state.era}; there are eras 1 and 2"
    if (state.era == 2) != tile_out:
        where = "out of the deck" if tile_out else "still in the deck"
        yield f"era {state.era} with the era tile {where}"
    era1 = set(game.pack.group("era1"))
    era2 = set(game.pack.group("era2"))
    starters = set(game.pack.group("starter"))
    stray1 = sorted(set(state.deck_era1) - era1)
    stray2 = sorted(set(state.deck_era2) - era2)
    stray_s = sorted(set(state.starters_undealt) - starters)
    if stray1:
        yield f"non-era-1 cards in the era-1 part of the deck: {', '.join(stray1)}"
    if stray2:
        yield f"non-era-2 cards in the era-2 part of the deck: {', '.join(stray2)}"
    if stray_s:
        yield f"non-starter cards among the undealt starters: {', '.join(stray_s)}"
    if tile_out and state.deck_era1:
        yield f"the era tile is out while {len(state.deck_era1)} era-1 cards remain in the deck"
    if state.era_tile_in_deck and len(set(state.deck_era2) & era2) != len(era2):
        drawn = len(era2) - len(set(state.deck_era2) & era2)
        yield f"{drawn} era-2 cards drawn before the era tile"


_invariant("era-consistent", "AIR-R-04", "AIR-R-13", "AIR-R-25")(check_era_consistent)


def check_end_condition_consistent(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Over iff the end condition holds (AIR-AMB-20 'immediate'); nothing pending when over."""
    over = state.phase is Phase.OVER
    if over and state.ended is None:
        yield "the game is over but no end condition was recorded"
    if state.phase is Phase.DEAL_AIRSHIPS:
        if state.ended is not None:
            yield f"end condition {state.ended!r} recorded during set-up"
        return
    reason = end_condition(game.ctx, state)
    if state.ended is not None and reason is None:
        yield f"end condition {state.ended!r} recorded but no end condition holds"
    if game.ctx.r("AIR-AMB-20") == "immediate":
        if reason is not None and not over:
            yield f"end condition ({reason}) holds but the game waits for {state.phase.value}"
        if over and reason is None:
            yield "the game is over but no end condition holds"
    if over:
        if state.attempt is not None:
            yield f"an attempt at {state.attempt.target} is pending after the game ended"
        if state.reveal_again:
            yield "a reveal is pending after the game ended"


_invariant("end-condition-consistent", "AIR-R-47")(check_end_condition_consistent)


def check_scores_are_stars(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """game.scores equals a recount of stars, airship VP and stage values from the pack."""
    pack = game.pack
    all_four = all(owner is not None for owner in state.stages)
    scores = game.scores(state)
    if sorted(scores) != list(range(state.players)):
        yield f"scores name seats {sorted(scores)}, expected 0..{state.players - 1}"
    for seat, board in enumerate(state.boards):
        dev = sum(pack.development(c).vp for c in board.departments if c is not None)
        air = sum(pack.airship(c).vp for c in board.airships)
        stages = 0
        for stage in pack.stages:
            if state.stages[stage.index - 1] == seat:
                stages += stage.vp_high if all_four else stage.vp_low
        want = dev + air + stages
        got = scores.get(seat)
        if got != want:
            yield (
                f"seat {seat}: scores say {got}, recount development {dev} + airships {air} + stages {stages} = {want}"
            )


_invariant("scores-are-stars", "AIR-R-21", "AIR-R-48")(check_scores_are_stars)


def check_turn_bookkeeping(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """Seats in range; an attempt pending exactly in THROW and BONUS; the per-turn board records agree.

    An attempt is pending with no faces in THROW and with faces in BONUS.
    The extra red dice (AIR-AMB-01) and the cards waiting for the next turn
    (AIR-AMB-26) exist only under their readings."""
    least = 1 if game.ctx.r("AIR-AMB-28") == "one" else game.min_players
    if not least <= state.players <= game.max_players:
        yield f"{state.players} companies; the game is for {least}..{game.max_players}"
    if not _seat_ok(state, state.seat):
        yield f"seat {state.seat} to move; seats are 0..{state.players - 1}"
    if not _seat_ok(state, state.start_seat):
        yield f"start seat {state.start_seat}; seats are 0..{state.players - 1}"
    nations = [b.nation for b in state.boards]
    if len(set(nations)) != len(nations) or not set(nations) <= set(game.pack.nations):
        yield f"company nations {nations} are not distinct nations of the pack"
    pending = state.attempt is not None
    if pending != (state.phase in (Phase.THROW, Phase.BONUS)):
        yield f"phase {state.phase.value} with {'an' if pending else 'no'} attempt pending"
    if state.attempt is not None:
        thrown = state.attempt.faces is not None
        if state.phase is Phase.THROW and thrown:
            yield "the dice are thrown but the game still waits for the throw"
        if state.phase is Phase.BONUS and not thrown:
            yield "the game waits for the bonus choice but no dice were thrown"
    if state.phase in SETUP_PHASES:
        if state.goes != 0:
            yield f"{state.goes} goes counted during set-up"
        if state.seat != state.start_seat:
            yield f"seat {state.seat} is to move during set-up, not the start seat"
    elif state.goes < 1:
        yield f"{state.goes} goes counted after set-up"
    if state.reveal_again and state.phase is not Phase.REVEAL:
        yield f"a second reveal is pending in phase {state.phase.value}"
    yield from _turn_records(game, state)


_invariant("turn-bookkeeping", "AIR-R-10", "AIR-R-22", "AIR-R-12", "AIR-R-38")(check_turn_bookkeeping)


def _turn_records(game: AirshipsGame, state: AirState) -> Iterator[str]:
    """What the non-default readings AIR-AMB-01 'every-success' and AIR-AMB-26
    'next-turn' keep per board: zero and empty under the other readings."""
    for seat, board in enumerate(state.boards):
        # AIR-AMB-26: the record is cleared when the turn ends, so only the seat
        # whose turn it is (or was, when the game ended in it) has waiting cards.
        if board.won_this_turn and (seat != state.seat or state.phase in SETUP_PHASES):
            yield f"seat {seat} still has cards waiting from a turn that is over: {list(board.won_this_turn)}"
        if board.extra_red_dice < 0:
            yield f"seat {seat} has {board.extra_red_dice} extra red dice"
    extra = sum(b.extra_red_dice for b in state.boards)
    if extra and game.ctx.r("AIR-AMB-01") != "every-success":
        yield f"{extra} extra red dice on the boards, but only AIR-AMB-01 'every-success' gives them"
    elif extra > state.goes:
        # One attempt per go, and a success gives one red die (AIR-AMB-01 'every-success').
        yield f"{extra} extra red dice after {state.goes} goes; a go brings at most one"
