"""Airships effects: pure functions state -> state (attrs.evolve).

They run only on actions the check accepted (see rules.py), so they assert
rather than re-check.  Each effect names the rule it carries out.
"""

from __future__ import annotations

import attrs

from rulecraft.evolve import evolve
from rulecraft.model.airships.actions import (
    AirAction,
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
from rulecraft.model.airships.components import DEPARTMENT_INDEX, TIERS
from rulecraft.model.airships.dice import (
    base_score,
    engine_bonus,
    fixed_counts,
)
from rulecraft.model.airships.rules import Context, TargetInfo, company, declared_target, pooled
from rulecraft.model.airships.state import AirState, Attempt, CompanyBoard, Phase, evolve_state

SETUP_DISPLAY = 6  # AIR-R-06


# -- set-up -----------------------------------------------------------------------


def new_game(ctx: Context, players: int, first_seat: int, nations: tuple[str, ...]) -> AirState:
    """AIR-R-01..09: boards, chips 3 for the start player and 4 for the others;
    AIR-R-02: the rest of the chips and the wooden airship (held by nobody) in the supply."""
    pack = ctx.pack
    first, other = ctx.p("start_chips_first"), ctx.p("start_chips_other")
    boards = tuple(CompanyBoard(nation=nations[i], chips=first if i == first_seat else other) for i in range(players))
    per_nation = pack.chips_per_nation
    if ctx.r("AIR-AMB-02") == "nation":
        supplies = tuple(per_nation - b.chips for b in boards)
    else:
        counted = 4 if ctx.r("AIR-AMB-03") == "all" else players
        supplies = (per_nation * counted - sum(b.chips for b in boards),)
    return AirState(
        phase=Phase.DEAL_AIRSHIPS,
        boards=boards,
        supplies=supplies,
        airships_undealt=tuple(sorted(c.id for c in pack.airships)),
        starters_undealt=pack.group("starter"),
        deck_era1=pack.group("era1"),
        deck_era2=pack.group("era2"),
        seat=first_seat,
        start_seat=first_seat,
    )


def supply_index(ctx: Context, seat: int) -> int:
    """AIR-R-50: the seat's own nation's supply, or the one shared pool."""
    return seat if ctx.r("AIR-AMB-02") == "nation" else 0


def _deal_airship(state: AirState, card: str) -> AirState:
    dealt = sum(len(s) for s in state.stacks)
    stack = dealt % 4
    stacks = tuple(s + (card,) if i == stack else s for i, s in enumerate(state.stacks))
    undealt = tuple(c for c in state.airships_undealt if c != card)
    phase = Phase.DEAL_STARTERS if dealt + 1 == 4 * len(TIERS) else Phase.DEAL_AIRSHIPS
    return evolve_state(state, stacks=stacks, airships_undealt=undealt, phase=phase)


def _deal_starter(ctx: Context, state: AirState, card: str) -> AirState:
    seat = sum(1 for b in state.boards if any(b.departments))
    # AIR-R-08: the starter's white die and the entrepreneur tile's make the 2 starting white dice.
    board = _with_card(state.boards[seat], ctx, card)
    boards = _replace(state.boards, seat, board)
    undealt = tuple(c for c in state.starters_undealt if c != card)
    state = evolve_state(state, boards=boards, starters_undealt=undealt)
    if seat + 1 < state.players:
        return state
    # AIR-R-05: the remaining starters lie face up in their rows.
    for rest in undealt:
        state = place(ctx, state, rest)
    state = evolve_state(state, starters_undealt=(), phase=Phase.FILL_DISPLAY)
    return _after_setup_draw(ctx, state)


def _setup_done(ctx: Context, state: AirState) -> bool:
    if ctx.r("AIR-AMB-17") == "n-draws":
        drawn = len(ctx.pack.group("era1")) - len(state.deck_era1)
        return drawn >= state.players
    # AIR-R-06: the set-up reveals cards until 6 development cards lie on the board.
    return displayed(state) >= SETUP_DISPLAY


def _after_setup_draw(ctx: Context, state: AirState) -> AirState:
    if _setup_done(ctx, state) or not state.deck_era1:
        return _begin_go(state, seat=state.start_seat, goes=1)
    return state


def displayed(state: AirState) -> int:
    return sum(1 for row in state.display for card in row if card is not None)


# -- the display -------------------------------------------------------------------


def place(ctx: Context, state: AirState, card: str, **changes: object) -> AirState:
    """AIR-R-24: the leftmost free field of the card's row; a full row drops
    its leftmost card out of the game and shifts left.  ``changes``: made in the same copy."""
    row_index = DEPARTMENT_INDEX[ctx.pack.development(card).department]
    row = state.display[row_index]
    removed = state.removed
    if None in row:
        i = row.index(None)
        new_row = row[:i] + (card,) + row[i + 1 :]
    else:
        assert row[0] is not None
        removed = removed + (row[0],)
        new_row = row[1:] + (card,)
    display = _replace(state.display, row_index, new_row)
    return evolve_state(state, display=display, removed=removed, **changes)


def _display_without(ctx: Context, state: AirState, card: str) -> tuple[tuple[str | None, ...], ...]:
    """The display once ``card`` has left its field (AIR-R-38; AIR-AMB-16 'compact': its row closes up)."""
    rows = []
    for row in state.display:
        if card in row:
            row = tuple(None if c == card else c for c in row)
            if ctx.r("AIR-AMB-16") == "compact":
                kept = tuple(c for c in row if c is not None)
                row = kept + (None,) * (3 - len(kept))
        rows.append(row)
    return tuple(rows)


# -- a go ----------------------------------------------------------------------------


def deck_empty(state: AirState) -> bool:
    return not state.deck_era1 and not state.era_tile_in_deck and not state.deck_era2


def _begin_go(state: AirState, **changes: int) -> AirState:
    """AIR-R-22/23: step 1 reveals a card, skipped when the deck is empty; ``changes``: the go's seat and
    count, made in the same step."""
    phase = Phase.ATTEMPT if deck_empty(state) else Phase.REVEAL
    return evolve_state(state, phase=phase, attempt=None, reveal_again=False, **changes)


def _reveal(ctx: Context, state: AirState, card: str | None) -> AirState:
    if card is None:
        # AIR-R-25: every entrepreneur tile flips; the tile leaves the game.
        state = evolve_state(state, era=2, era_tile_in_deck=False)
        if state.phase is Phase.REVEAL:
            again = ctx.r("AIR-AMB-15") == "next" and not deck_empty(state)
            return evolve_state(state, phase=Phase.REVEAL if again else Phase.ATTEMPT)
        return _after_setup_draw(ctx, state)
    # The card leaves its deck segment and takes its field in one copy of the state (with step 2 next,
    # AIR-R-22/23, unless the set-up is still filling the display).
    if card in state.deck_era1:
        deck = {"deck_era1": tuple(c for c in state.deck_era1 if c != card)}
    else:
        deck = {"deck_era2": tuple(c for c in state.deck_era2 if c != card)}
    if state.phase is Phase.FILL_DISPLAY:
        return _after_setup_draw(ctx, place(ctx, state, card, **deck))
    return place(ctx, state, card, phase=Phase.ATTEMPT, **deck)


def _declare(state: AirState, action: AttemptTarget) -> AirState:
    # AIR-R-28: the target is declared before the throw; the throw and its outcome only read it.
    attempt = Attempt(action.target, action.exchanges, action.give_fixed, action.throw)
    return evolve_state(state, attempt=attempt, phase=Phase.THROW)


@attrs.frozen
class Totals:
    """A throw's parts (AIR-R-33..36): base S, engine E, wooden airship A."""

    base: int
    engine: int
    airship: int
    target: int
    info: TargetInfo


def throw_totals(ctx: Context, state: AirState) -> Totals:
    assert state.attempt is not None
    kept = ctx.kept_totals
    if kept[0] is state:  # the state the throw went to the bonus step with: its totals as worked out then
        found = kept[1]
        assert isinstance(found, Totals)
        return found
    assert state.attempt.faces is not None
    return _totals(ctx, state, state.attempt, state.attempt.faces)


def _totals(ctx: Context, state: AirState, attempt: Attempt, faces: tuple[tuple[int, ...], ...]) -> Totals:
    """The parts of ``attempt``'s throw, showing ``faces``, by the seat to move in ``state``."""
    info = declared_target(ctx, state, attempt.target)
    comp = company(ctx, state, state.seat)
    # The check allowed the attempt's exchanges under the chosen readings (rules.py: AIR-AMB-06 decides
    # which dice may be given up); the score needs only the fixed die they leave (AIR-AMB-08: gone if
    # given up), not the pool again.
    fixed = None if attempt.give_fixed else comp.fixed
    base = base_score(info.requirement, faces, fixed, pooled=pooled(ctx))
    # AIR-R-19/35: a board without an Engine card has no bonus (nothing to work out).
    engine = 0
    if comp.engine is not None:
        engine = engine_bonus(
            comp.engine,
            info.requirement,
            attempt.throw,
            involved=ctx.r("AIR-AMB-09"),
            per=ctx.r("AIR-AMB-10"),
            fixed_counted=fixed_counts(info.requirement, faces, fixed, pooled=pooled(ctx)),
            fixed=fixed,
        )
    # AIR-R-36: the wooden airship's holder gets +1 (``wooden_airship_bonus``) on every attempt.
    airship = ctx.p("wooden_airship_bonus") if state.wooden_airship == state.seat else 0
    return Totals(base, engine, airship, info.target, info)


def _throw(ctx: Context, state: AirState, action: Throw) -> AirState:
    assert state.attempt is not None
    # The faces go into the state only when the bonus step reads them; settling at once needs the target alone.
    faces = (action.W, action.R, action.B)
    totals = _totals(ctx, state, state.attempt, faces)
    chips = state.boards[state.seat].chips
    auto = totals.base + totals.engine + totals.airship
    if ctx.r("AIR-AMB-12") == "optional":
        if totals.engine or totals.airship or (chips and auto < totals.target):
            return _to_bonus(ctx, state, evolve(state.attempt, faces=faces), totals)
        return _settle(ctx, state, auto >= totals.target, totals.info)
    if auto >= totals.target:
        return _settle(ctx, state, True, totals.info)
    if chips and (ctx.r("AIR-AMB-11") == "legal" or auto + 1 >= totals.target):
        return _to_bonus(ctx, state, evolve(state.attempt, faces=faces), totals)
    return _settle(ctx, state, False, totals.info)


def _to_bonus(ctx: Context, state: AirState, attempt: Attempt, totals: Totals) -> AirState:
    """AIR-R-34/37: the bonus step follows the throw; it reads the same totals (nothing else changes)."""
    bonus = evolve_state(state, attempt=attempt, phase=Phase.BONUS)
    ctx.kept_totals[:] = (bonus, totals)
    return bonus


def _resolve(ctx: Context, state: AirState, action: Resolve) -> AirState:
    totals = throw_totals(ctx, state)
    total = totals.base
    total += totals.engine if action.engine else 0
    total += totals.airship if action.wooden_airship else 0
    if action.chip:
        # AIR-R-37: the spent chip goes back to the supply.
        state = _move_chips(ctx, state, state.seat, -1)
        total += 1
    return _settle(ctx, state, total >= totals.target, totals.info)


def _settle(ctx: Context, state: AirState, success: bool, info: TargetInfo) -> AirState:
    """The attempt at ``info`` (its target, read before the chip's effects) succeeds or fails."""
    assert state.attempt is not None
    assert state.attempt.target == info.ref
    if success:
        state = _extra_red_die(ctx, _win(ctx, state, info))
    elif info.kind != "stage" or ctx.r("AIR-AMB-33") == "chip":
        state = _failure_chip(ctx, state)
    return _after_step_two(ctx, state)


def _extra_red_die(ctx: Context, state: AirState) -> AirState:
    """AIR-AMB-01 'every-success': the p.3 sentence read as a rule, so every
    successful attempt (AIR-R-34: a development card, an airship card or a
    stage) gives the company one more red die "from then on", at once."""
    if ctx.r("AIR-AMB-01") != "every-success":
        return state
    board = state.boards[state.seat]
    board = evolve(board, extra_red_dice=board.extra_red_dice + 1)
    return evolve_state(state, boards=_replace(state.boards, state.seat, board))


def _won_this_turn(ctx: Context, board: CompanyBoard, card: str, old: str | None = None) -> CompanyBoard:
    """AIR-AMB-26 'next-turn': the new card waits for the player's next regular
    go; a card it replaced has left the game, so it leaves the record too."""
    if ctx.r("AIR-AMB-26") != "next-turn":
        return board
    kept = tuple(c for c in board.won_this_turn if c != old)
    return evolve(board, won_this_turn=kept + (card,))


def _failure_chip(ctx: Context, state: AirState) -> AirState:
    """AIR-R-41: one chip from the own supply, if there is one (``failure_chips``: as many as are there)."""
    take = min(ctx.p("failure_chips"), state.supplies[supply_index(ctx, state.seat)])
    return _move_chips(ctx, state, state.seat, +take) if take > 0 else state


def _move_chips(ctx: Context, state: AirState, seat: int, delta: int) -> AirState:
    """Chips between a board and its supply (AIR-R-50): +delta to the board."""
    board = state.boards[seat]
    i = supply_index(ctx, seat)
    supplies = _replace(state.supplies, i, state.supplies[i] - delta)
    boards = _replace(state.boards, seat, evolve(board, chips=board.chips + delta))
    return evolve_state(state, boards=boards, supplies=supplies)


def _with_card(board: CompanyBoard, ctx: Context, card: str) -> CompanyBoard:
    index = DEPARTMENT_INDEX[ctx.pack.development(card).department]
    # AIR-R-11: one card per department, so the new card takes the department's slot.
    return evolve(board, departments=_replace(board.departments, index, card))


def _win(ctx: Context, state: AirState, info: TargetInfo) -> AirState:
    seat = state.seat
    if info.kind == "development":
        assert info.card is not None
        # AIR-R-38: the card leaves the display for its department field; the old one leaves the game.
        display = _display_without(ctx, state, info.card)
        board = state.boards[seat]
        old = board.departments[DEPARTMENT_INDEX[ctx.pack.development(info.card).department]]
        removed = state.removed + ((old,) if old is not None else ())
        board = _won_this_turn(ctx, _with_card(board, ctx, info.card), info.card, old)
        state = evolve_state(state, display=display, boards=_replace(state.boards, seat, board), removed=removed)
        return _pilot_chips(ctx, state, info.card)
    if info.kind == "airship":
        assert info.card is not None
        # AIR-R-40: on top of the owner's airships; the wooden airship comes along.
        stacks = _replace(state.stacks, info.index - 1, state.stacks[info.index - 1][:-1])
        board = state.boards[seat]
        board = _won_this_turn(ctx, evolve(board, airships=board.airships + (info.card,)), info.card)
        revealed_before = state.hindenburg
        state = evolve_state(state, stacks=stacks, boards=_replace(state.boards, seat, board))
        if _airship_moves_wooden(ctx, state, revealed_before):
            state = evolve_state(state, wooden_airship=seat)
        if not state.hindenburg and any(not s for s in state.stacks):
            state = evolve_state(state, hindenburg=True)  # AIR-R-43
        return state
    # AIR-R-45: the stage is marked with the player's chip; the wooden airship moves.
    stages = _replace(state.stages, info.index - 1, seat)
    i = supply_index(ctx, seat)
    marked = True
    if state.supplies[i] > 0:
        supplies = _replace(state.supplies, i, state.supplies[i] - 1)
        state = evolve_state(state, supplies=supplies)
    elif state.boards[seat].chips > 0:
        board = state.boards[seat]
        state = evolve_state(state, boards=_replace(state.boards, seat, evolve(board, chips=board.chips - 1)))
    else:
        marked = False  # AIR-AMB-29 'record': no chip anywhere, ownership still recorded
    markers = _replace(state.markers, info.index - 1, marked)
    return evolve_state(state, stages=stages, markers=markers, wooden_airship=seat)


def _airship_moves_wooden(ctx: Context, state: AirState, revealed_before: bool) -> bool:
    """AIR-R-46 with AIR-AMB-13/14."""
    if any(owner is not None for owner in state.stages):
        return False
    if ctx.r("AIR-AMB-13") == "reveal":
        if revealed_before:
            return False
        emptied = any(not s for s in state.stacks)
        if emptied and ctx.r("AIR-AMB-14") == "no":
            return False
    return True


def _pilot_chips(ctx: Context, state: AirState, card: str) -> AirState:
    """AIR-R-39 / AIR-AMB-24: a Pilot won by a throw brings its chips."""
    wanted = ctx.pack.development(card).pilot_chips
    if not wanted:
        return state
    available = state.supplies[supply_index(ctx, state.seat)]
    if ctx.r("AIR-AMB-24") == "all-or-none":
        take = wanted if available >= wanted else 0
    else:
        take = min(wanted, available)
    return _move_chips(ctx, state, state.seat, take) if take else state


def end_condition(ctx: Context, state: AirState) -> str | None:
    """AIR-R-47: (a) airship fields nearly used up, or (b) the Hindenburg built."""
    small = [len(s) <= 1 for s in state.stacks]
    if all(small) if ctx.r("AIR-AMB-21") == "every" else any(small):
        return "a"
    if ctx.r("AIR-AMB-19") == "all-four":
        if None not in state.stages:  # every stage has its owner
            return "b"
    elif state.stages[3] is not None:
        return "b"
    return None


def _after_step_two(ctx: Context, state: AirState) -> AirState:
    """The end check (AIR-R-47), then the additional go (AIR-R-42) or the next seat; the settled attempt
    is cleared in the same copy of the state."""
    reason = state.ended or end_condition(ctx, state)
    if reason is not None:
        if ctx.r("AIR-AMB-20") == "immediate":
            return evolve_state(state, ended=reason, phase=Phase.OVER, attempt=None)
        state = evolve_state(state, ended=reason)
    # AIR-R-42: an additional go is offered only to a company with the chips to pay for it.
    if state.boards[state.seat].chips >= ctx.p("extra_go_cost"):
        return evolve_state(state, phase=Phase.EXTRA_GO, attempt=None)
    return _next_seat(state)


def _next_seat(state: AirState) -> AirState:
    """AIR-R-10: the next seat's go (its step 1, AIR-R-22/23), or the game's end once it was triggered
    (AIR-R-47); no attempt is left open either way."""
    state = turn_over(state)
    if state.ended is not None:
        return evolve_state(state, phase=Phase.OVER, attempt=None)
    seat = (state.seat + 1) % state.players  # AIR-R-10
    return _begin_go(state, seat=seat, goes=state.goes + 1)


def turn_over(state: AirState) -> AirState:
    """The seat's turn ends: the cards it won count from its next regular go
    (AIR-AMB-26 'next-turn'; the record is empty under the other reading)."""
    board = state.boards[state.seat]
    if not board.won_this_turn:
        return state
    return evolve_state(state, boards=_replace(state.boards, state.seat, evolve(board, won_this_turn=())))


def _extra_go(ctx: Context, state: AirState) -> AirState:
    """AIR-R-42: 3 chips (``extra_go_cost``) back to the own supply; another go at once."""
    state = _move_chips(ctx, state, state.seat, -ctx.p("extra_go_cost"))
    state = evolve_state(state, goes=state.goes + 1)
    if ctx.r("AIR-AMB-22") == "attempt-only":
        return evolve_state(state, phase=Phase.ATTEMPT, attempt=None)
    return _begin_go(state)


def _no_attempt(ctx: Context, state: AirState) -> AirState:
    if ctx.r("AIR-AMB-23") == "chip":
        state = _failure_chip(ctx, state)
    return _after_step_two(ctx, state)


def transition(ctx: Context, state: AirState, action: AirAction) -> AirState:
    # The kinds a game plays most come first (each case is an isinstance test): the set-up's deals last.
    match action:
        case AttemptTarget():
            return _declare(state, action)
        case Throw():
            return _throw(ctx, state, action)
        case Reveal(card=card):
            return _reveal(ctx, state, card)
        case Resolve():
            return _resolve(ctx, state, action)
        case EndGo():
            return _next_seat(state)
        case ExtraGo():
            return _extra_go(ctx, state)
        case NoAttempt():
            return _no_attempt(ctx, state)
        case DealAirship(card=card):
            return _deal_airship(state, card)
        case DealStarter(card=card):
            return _deal_starter(ctx, state, card)


def _replace(items: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    return items[:index] + (value,) + items[index + 1 :]
