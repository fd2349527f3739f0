"""Airships legality: one named condition per rule, each returning a
Rejection (rule ID + plain words) or None.  Effects live in transitions.py.

``Context`` bundles what a condition reads: the pack and the ruleset's
readings, looked up once per configured game.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

import attrs

from rulecraft.core import Rejection
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
from rulecraft.model.airships.catalogue import RULES
from rulecraft.model.airships.components import (
    COLOURS,
    FACES,
    Colour,
    Dice,
)

# Re-exported: the game, the effects and the solvers import them from here (context.py: why apart).
from rulecraft.model.airships.context import Context as Context
from rulecraft.model.airships.context import TargetInfo as TargetInfo
from rulecraft.model.airships.dice import company_of, covers, covers_pooled, exchanged, faces_valid
from rulecraft.model.airships.pools import Company, Pool
from rulecraft.model.airships.state import AirState, Phase

reject = RULES.reject


# -- targets ----------------------------------------------------------------


def parse_target(ctx: Context, state: AirState, ref: str) -> TargetInfo | Rejection:
    """AIR-R-26: what may be chosen: a displayed card, a stack's top card, an open stage."""
    kind, sep, rest = ref.partition(":")
    if not sep:
        return reject("AIR-R-26", f"target {ref!r} is not development:<card>, airship:<1-4> or stage:<1-4>")
    if kind == "development":
        if not any(rest in row for row in state.display):
            return reject("AIR-R-26", f"development card {rest} is not in the display")
        card = ctx.pack.development(rest)
        return TargetInfo(ref, kind, card.requirement, card.target, card=rest)
    if kind in ("airship", "stage"):
        try:
            index = int(rest)
        except ValueError:
            return reject("AIR-R-26", f"{kind} number {rest!r} is not a number")
        if not 1 <= index <= 4:
            return reject("AIR-R-26", f"there is no {kind} {index}; they are numbered 1 to 4")
        if kind == "airship":
            stack = state.stacks[index - 1]
            if not stack:
                return reject("AIR-R-26", f"airship field {index} is empty")
            top = ctx.pack.airship(stack[-1])
            return TargetInfo(ref, kind, top.requirement, top.target, card=top.id, index=index)
        return _stage_target(ctx, state, ref, index)
    return reject("AIR-R-26", f"target kind {kind!r} is not development, airship or stage")


def _stage_target(ctx: Context, state: AirState, ref: str, index: int) -> TargetInfo | Rejection:
    if not state.hindenburg:
        return reject("AIR-R-43", "the Hindenburg is not revealed yet: no airship stack has been used up")
    owner = state.stages[index - 1]
    if owner is not None:
        return reject("AIR-R-44", f"stage {index} was already completed (by seat {owner}); each stage is built once")
    if ctx.r("AIR-AMB-18") == "sequential":
        for earlier in range(1, index):
            if state.stages[earlier - 1] is None:
                return reject("AIR-R-44", f"stage {earlier} comes first (AIR-AMB-18 'sequential')")
    # A stage's requirement and target are printed on the board (AIR-R-44): its target is made once.
    known = ctx.targets
    target = known.get(("stage", index, ref))
    if target is None:
        stage = ctx.pack.stage(index)
        target = known["stage", index, ref] = TargetInfo(ref, "stage", stage.requirement, stage.target, index=index)
    return target


def open_targets(ctx: Context, state: AirState) -> list[TargetInfo]:
    """Every target AIR-R-26 offers, before asking for dice: the displayed cards row by row (a row's
    targets kept by its fields), each stack's top card, the open stages."""
    rows = ctx.rows
    out: list[TargetInfo] = []
    for row in state.display:
        found = rows.get(row)
        if found is None:
            found = rows[row] = tuple(_development_target(ctx, card) for card in row if card is not None)
        out += found
    stacks = state.stacks
    kept = ctx.stack_targets
    found = kept.get(stacks)
    if found is None:
        if len(kept) >= ctx.board_limit:
            kept.clear()
        found = kept[stacks] = tuple(
            _airship_target(ctx, i, stack[-1]) for i, stack in enumerate(stacks, start=1) if stack
        )
    out += found
    if state.hindenburg:
        # The open stages depend on their owners alone (and AIR-AMB-18's reading, fixed per context).
        stages = ctx.stage_targets.get(state.stages)
        if stages is None:
            stages = ctx.stage_targets[state.stages] = tuple(
                t for i in range(1, 5) if isinstance(t := _stage_target(ctx, state, f"stage:{i}", i), TargetInfo)
            )
        out += stages
    return out


def _airship_target(ctx: Context, index: int, card: str) -> TargetInfo:
    """The kept target of airship card ``card`` on top of stack ``index`` (AIR-R-26)."""
    known = ctx.targets
    target = known.get(("airship", index, card))
    if target is None:
        top = ctx.pack.airship(card)
        target = TargetInfo(f"airship:{index}", "airship", top.requirement, top.target, card=top.id, index=index)
        known["airship", index, card] = target
    return target


_DEVELOPMENT = "development:"  # a development card's target reference: this, then the card's id (AIR-R-26)
_AIRSHIP = "airship:"  # a stack's top card's: this, then the stack's number 1-4


def declared_target(ctx: Context, state: AirState, ref: str) -> TargetInfo:
    """The target of an attempt the check accepted (AIR-R-26/28): a development card's or a stack's top
    airship card's is the one ``open_targets`` keeps (no display to search again); a stage's is read by
    ``parse_target``."""
    if ref.startswith(_DEVELOPMENT):
        return _development_target(ctx, ref[len(_DEVELOPMENT) :])
    if ref.startswith(_AIRSHIP):
        index = int(ref[len(_AIRSHIP) :])
        return _airship_target(ctx, index, state.stacks[index - 1][-1])
    info = parse_target(ctx, state, ref)
    assert isinstance(info, TargetInfo)
    return info


def _development_target(ctx: Context, card: str) -> TargetInfo:
    """The kept target of a displayed development card (AIR-R-26)."""
    known = ctx.targets
    target = known.get(("development", 0, card))
    if target is None:
        info = ctx.pack.development(card)
        target = TargetInfo(f"development:{card}", "development", info.requirement, info.target, card=card)
        known["development", 0, card] = target
    return target


# -- the company's dice -------------------------------------------------------


class Board:
    """What the context keeps of one board: its company, and the pools its exchanges leave (AIR-R-29,
    ``pools``: exchanges, give_fixed, pool and the pool's number in ``Context.pool_ids``)."""

    __slots__ = ("company", "pool_set", "pools")
    pool_set: int  # the pools' number in ``Context.pool_set_ids``, set with them by ``pools``

    def __init__(self, company: Company) -> None:
        self.company = company
        self.pools: list[tuple[int, bool, Pool, int]] | None = None


def board_of(ctx: Context, state: AirState, seat: int) -> Board:
    """The seat's board as the context keeps it: the company (``company_of``) depends on the board's
    cards, the cards won this turn, the extra red dice and the era only (with the pack and readings); the
    airship cards only when they give dice (AIR-R-14: they do not, unless AIR-AMB-25 'yes')."""
    board = state.boards[seat]
    airship_dice = ctx.r("AIR-AMB-25") == "yes"
    airships = board.airships if airship_dice else ()
    key = (board.departments, airships, board.won_this_turn, board.extra_red_dice, state.era)
    found = ctx.boards.get(key)
    if found is None:
        if len(ctx.boards) >= ctx.board_limit:
            ctx.boards.clear()
        found = Board(company_of(board, state.era, ctx.pack, airship_dice=airship_dice))
        ctx.boards[key] = found
    return found


def company(ctx: Context, state: AirState, seat: int) -> Company:
    return board_of(ctx, state, seat).company


def exchange_options(ctx: Context, comp: Company) -> Iterator[tuple[int, bool]]:
    """(exchanges, give_fixed) choices a board allows (AIR-R-29, AIR-AMB-07/08)."""
    yield 0, False
    ex = comp.exchange
    if ex is None:
        return
    # 'repeat': as long as the dice to give last.  Each exchange gives up at least one die of that
    # colour (the fixed die at most once), so their count bounds the loop; the loop ends at the
    # first count ``exchanged`` refuses, the same test ``check`` applies.
    most = 1 if ctx.r("AIR-AMB-07") == "once" else comp.dice[ex.give_colour] + 1
    for k in range(1, most + 1):
        fixed_ok = ctx.r("AIR-AMB-08") == "yes" and comp.fixed is not None and comp.fixed.colour is ex.give_colour
        any_ok = False
        for give_fixed in (False, True) if fixed_ok else (False,):
            if isinstance(
                exchanged(comp, k, give_fixed, cap_first=_cap_first(ctx), cap=ctx.p("dice_per_colour")), Pool
            ):
                any_ok = True
                yield k, give_fixed
        if not any_ok:
            return


def _cap_first(ctx: Context) -> bool:
    return ctx.r("AIR-AMB-06") == "before"


def _capped(ctx: Context) -> bool:
    return ctx.r("AIR-AMB-32") == "capped"


def pooled(ctx: Context) -> bool:
    """AIR-AMB-04 'any': a surplus die of one listed colour may fill another's requirement."""
    return ctx.r("AIR-AMB-04") == "any"


def short_colour(ctx: Context, pool: Pool, requirement: Dice) -> Colour | None:
    """The colour whose requirement the pool cannot cover (under 'any', the first
    listed colour when the listed colours together fall short), or None."""
    if not pooled(ctx):
        return covers(pool, requirement, capped=_capped(ctx))
    if covers_pooled(pool, requirement, capped=_capped(ctx)):
        return None
    return next(colour for colour, q in requirement.items() if q)


def pool_or_rejection(ctx: Context, comp: Company, exchanges: int, give_fixed: bool) -> Pool | Rejection:
    if exchanges < 0:
        return reject("AIR-R-29", "the number of exchanges cannot be negative")
    if exchanges > 0 and comp.exchange is None:
        return reject("AIR-R-20", "an exchange needs a Material card on the board")
    if exchanges > 1 and ctx.r("AIR-AMB-07") == "once":
        return reject("AIR-R-29", f"the exchange is applied once per throw (AIR-AMB-07); {exchanges} requested")
    if give_fixed and ctx.r("AIR-AMB-08") == "no":
        return reject("AIR-R-18", "the fixed die cannot be given up in an exchange (AIR-AMB-08 'no')")
    pool = exchanged(comp, exchanges, give_fixed, cap_first=_cap_first(ctx), cap=ctx.p("dice_per_colour"))
    if isinstance(pool, str):
        return reject("AIR-R-29", pool)
    return pool


def requirement_met(ctx: Context, pool: Pool, target: TargetInfo) -> Rejection | None:
    """AIR-R-27: min(n', 3) + fixed >= q for every colour (AIR-AMB-04 'any': in total)."""
    short = short_colour(ctx, pool, target.requirement)
    if short is None:
        return None
    if pooled(ctx):
        q, have = (
            target.requirement.total(),
            sum(pool.usable(c, capped=_capped(ctx)) for c, n in target.requirement.items() if n),
        )
        return reject(
            "AIR-R-27", f"{target.ref} needs {q} dice of its colours (AIR-AMB-04 'any'); the company can use {have}"
        )
    q = target.requirement[short]
    have = pool.usable(short, capped=_capped(ctx))
    return reject(
        "AIR-R-27",
        f"{target.ref} needs {q} {short.name} {'die' if q == 1 else 'dice'}; the company can use {have}",
    )


def throw_allowed(ctx: Context, pool: Pool, target: TargetInfo, throw: Dice) -> Rejection | None:
    """AIR-R-30/31 and AIR-AMB-04/05/35/36: how many dice of each colour are thrown."""
    total = counting = 0
    for colour in COLOURS:
        t = throw[colour]
        q = target.requirement[colour]
        total += t
        cap = ctx.p("dice_per_colour")
        if t > cap:
            return reject("AIR-R-30", f"at most {cap} dice of one colour may be thrown; {t} {colour.name} requested")
        if t > pool.dice[colour]:
            return reject("AIR-R-12", f"the company has {pool.dice[colour]} {colour.name} dice to throw; {t} requested")
        if not q:
            if t and ctx.r("AIR-AMB-05") == "no":
                return reject("AIR-R-30", f"{target.ref} does not use {colour.name} dice (AIR-AMB-05)")
            continue
        # AIR-R-31: the fixed die counts towards q without being thrown; the cap above counts thrown dice only.
        fixed = pool.fixed_count(colour)
        counting += t + fixed
        if t + fixed < q and not pooled(ctx):
            return reject(
                "AIR-R-30", f"{target.ref} needs {q} {colour.name}: throw at least {q - fixed}, {t} requested"
            )
        if ctx.r("AIR-AMB-35") == "max":
            most = min(pool.dice[colour], cap)
            if t != most:
                return reject("AIR-R-30", f"all {most} usable {colour.name} dice are thrown (AIR-AMB-35 'max')")
    if pooled(ctx) and counting < target.requirement.total():
        q = target.requirement.total()
        return reject(
            "AIR-R-30", f"{target.ref} needs {q} dice of its colours: {counting} thrown or fixed (AIR-AMB-04 'any')"
        )
    if total == 0 and ctx.r("AIR-AMB-36") == "forbidden":
        return reject("AIR-R-30", "an attempt throws at least one die (AIR-AMB-36 'forbidden')")
    return None


def attempt_rejection(ctx: Context, state: AirState, action: AttemptTarget) -> Rejection | None:
    target = parse_target(ctx, state, action.target)
    if isinstance(target, Rejection):
        return target
    comp = company(ctx, state, state.seat)
    pool = pool_or_rejection(ctx, comp, action.exchanges, action.give_fixed)
    if isinstance(pool, Rejection):
        return pool
    return requirement_met(ctx, pool, target) or throw_allowed(ctx, pool, target, action.throw)


def throw_candidates(ctx: Context, pool: Pool, requirement: Dice) -> list[Dice]:
    """Every throw vector within AIR-R-30/31's ranges (AIR-AMB-05 widens the
    colours); ``throw_allowed`` still judges the reading-specific limits."""
    ranges = []
    for colour in COLOURS:
        most = min(pool.dice[colour], pool.cap)
        if requirement[colour]:
            # AIR-AMB-04 'any': another listed colour may make up this one's count.
            least = 0 if pooled(ctx) else max(0, requirement[colour] - pool.fixed_count(colour))
            ranges.append(range(least, most + 1))
        elif ctx.r("AIR-AMB-05") == "yes":
            ranges.append(range(0, most + 1))
        else:
            ranges.append(range(0, 1))
    return [Dice(w, r, b) for w in ranges[0] for r in ranges[1] for b in ranges[2]]


def attempts(ctx: Context, state: AirState) -> Iterator[AttemptTarget]:
    """Every legal AttemptTarget of the seat to move (generation; ``check`` judges): per open target,
    per pool the exchanges leave, per allowed throw."""
    return chain.from_iterable(attempt_groups(ctx, state))


def attempt_actions(ctx: Context, state: AirState) -> list[AirAction]:
    """``attempts`` as a new list (the attempt step's actions, which a caller may add to), built from
    the same kept groups as ``attempt_groups`` without listing the groups first."""
    board = board_of(ctx, state, state.seat)
    board_pools = pools(ctx, board)
    pool_set = board.pool_set
    out: list[AirAction] = []
    for target in open_targets(ctx, state):
        groups = target.groups
        found = groups.get(pool_set)
        if found is None:
            found = groups[pool_set] = tuple(
                chain.from_iterable(pool_attempts(ctx, target, choice) for choice in board_pools)
            )
        out += found
    return out


def attempt_groups(ctx: Context, state: AirState) -> list[tuple[AttemptTarget, ...]]:
    """``attempts`` in groups, one per open target (a group may be empty): its attempts with each of the
    board's pools in turn, kept on the target by the number of the board's set of pools."""
    board = board_of(ctx, state, state.seat)
    board_pools = pools(ctx, board)
    pool_set = board.pool_set
    return [_group(ctx, target, pool_set, board_pools) for target in open_targets(ctx, state)]


def _group(
    ctx: Context, target: TargetInfo, pool_set: int, board_pools: list[tuple[int, bool, Pool, int]]
) -> tuple[AttemptTarget, ...]:
    """The attempts at ``target`` with each of the board's pools in turn, kept on the target by the
    number of the board's set of pools."""
    groups = target.groups
    found = groups.get(pool_set)
    if found is None:
        found = groups[pool_set] = tuple(
            chain.from_iterable(pool_attempts(ctx, target, choice) for choice in board_pools)
        )
    return found


def pool_attempts(ctx: Context, target: TargetInfo, choice: tuple[int, bool, Pool, int]) -> tuple[AttemptTarget, ...]:
    """The attempts at ``target`` with one of the board's pools (``pools``: exchanges, give_fixed, pool,
    number), kept in the context: the action names the reference; its throws depend on the requirement
    and the pool only."""
    k, give_fixed, pool, pool_id = choice
    ref, req = target.ref, target.requirement
    key = (ref, req.W, req.R, req.B, pool_id)
    found = ctx.attempts.get(key)
    if found is None:
        throws = allowed_throws(ctx, pool, target)
        found = ctx.attempts[key] = tuple(AttemptTarget(ref, throw, k, give_fixed) for throw in throws)
    return found


def pools(ctx: Context, board: Board) -> list[tuple[int, bool, Pool, int]]:
    """The (exchanges, give_fixed, pool, pool number) choices of the board's company, kept on the board."""
    if board.pools is None:
        comp = board.company
        # The exchanges read the company's dice, fixed die and Material card alone (not its engine).
        key = (comp.dice.W, comp.dice.R, comp.dice.B, comp.fixed, comp.exchange)
        found = ctx.pool_sets.get(key)
        if found is None:
            found = ctx.pool_sets[key] = []
            for k, give_fixed in exchange_options(ctx, comp):
                pool = pool_or_rejection(ctx, comp, k, give_fixed)
                if isinstance(pool, Pool):
                    # The pool's attempts (``allowed_throws``): its capped dice and its fixed die's colour.
                    pool_key = (k, give_fixed, *_throws_key(pool))
                    pool_id = ctx.pool_ids.setdefault(pool_key, len(ctx.pool_ids))
                    found.append((k, give_fixed, pool, pool_id))
        board.pools = found
        # The set's number (``attempt_groups``' key): the same pools, in the same order, share it.
        board.pool_set = ctx.pool_set_ids.setdefault(tuple(p[3] for p in found), len(ctx.pool_set_ids))
    return board.pools


def _throws_key(pool: Pool) -> tuple[object, ...]:
    """What of a pool its throws depend on: dice above the cap are never thrown (AIR-R-30) and a
    requirement only they would meet (AIR-AMB-32 'uncapped') has no throw either, so the capped dice;
    the fixed die counts by its colour (AIR-R-31), its printed value only in the score (AIR-R-33)."""
    dice, cap, fixed = pool.dice, pool.cap, pool.fixed
    colour = None if fixed is None else fixed.colour
    return (min(dice.W, cap), min(dice.R, cap), min(dice.B, cap), colour, cap)


def allowed_throws(ctx: Context, pool: Pool, target: TargetInfo) -> tuple[Dice, ...]:
    """The throws ``throw_allowed`` accepts with ``pool`` at ``target`` (none when AIR-R-27's requirement
    is not met), kept in the context: they depend on the pool, the requirement, the readings and the
    parameters only."""
    req = target.requirement
    key = (*_throws_key(pool), req.W, req.R, req.B)
    found = ctx.throws.get(key)
    if found is None:
        if short_colour(ctx, pool, target.requirement) is not None:
            found = ()  # AIR-R-27 (the check words the rejection; generation only skips)
        else:
            candidates = throw_candidates(ctx, pool, target.requirement)
            found = tuple(t for t in candidates if throw_allowed(ctx, pool, target, t) is None)
        ctx.throws[key] = found
    return found


def has_legal_target(ctx: Context, state: AirState) -> bool:
    """AIR-AMB-23: a target is in reach when some attempt at it is legal, i.e.
    its requirement is met *and* a throw within the cap exists (a requirement
    above 3 counted under AIR-AMB-32 'uncapped' may have none)."""
    return any(attempt_groups(ctx, state))


# -- the check, layer by layer ----------------------------------------------------

_PHASE_OF: dict[type[AirAction], tuple[Phase, ...]] = {
    DealAirship: (Phase.DEAL_AIRSHIPS,),
    DealStarter: (Phase.DEAL_STARTERS,),
    Reveal: (Phase.FILL_DISPLAY, Phase.REVEAL),
    Throw: (Phase.THROW,),
    AttemptTarget: (Phase.ATTEMPT,),
    NoAttempt: (Phase.ATTEMPT,),
    Resolve: (Phase.BONUS,),
    ExtraGo: (Phase.EXTRA_GO,),
    EndGo: (Phase.EXTRA_GO,),
}

_PHASE_RULE: dict[Phase, str] = {
    Phase.DEAL_AIRSHIPS: "AIR-R-03",
    Phase.DEAL_STARTERS: "AIR-R-05",
    Phase.FILL_DISPLAY: "AIR-R-06",
    Phase.REVEAL: "AIR-R-23",
    Phase.ATTEMPT: "AIR-R-22",
    Phase.THROW: "AIR-R-32",
    Phase.BONUS: "AIR-R-34",
    Phase.EXTRA_GO: "AIR-R-42",
    Phase.OVER: "AIR-R-47",
}


def phase_rejection(state: AirState, action: AirAction) -> Rejection | None:
    allowed = _PHASE_OF.get(type(action))
    if allowed is None:
        return reject("AIR-R-22", f"{action!r} is not an Airships action")
    if state.phase in allowed:
        return None
    if state.phase is Phase.OVER:
        return reject("AIR-R-47", "the game is over")
    return reject(
        _PHASE_RULE[state.phase],
        f"a {action.kind} is not possible now: the game waits for {state.phase.value}",
    )


def check(ctx: Context, state: AirState, action: AirAction) -> Rejection | None:
    rejection = phase_rejection(state, action)
    if rejection is not None:
        return rejection
    return action_rejection(ctx, state, action)


def rejections(ctx: Context, state: AirState, action: AirAction) -> tuple[Rejection, ...]:
    """Every rule that forbids ``action``, each judged on its own: the step order's (the one ``check``
    cites first) and the action's own rule, judged as if it were the action's step.  Another
    implementation may check them in the other order and cite either."""
    out = [r for r in (phase_rejection(state, action),) if r is not None]
    try:
        own = action_rejection(ctx, state, action)
    except Exception:  # the action's own check may need its step's bookkeeping: then the step's rule alone
        own = None
    if own is not None and all(own.rule != r.rule for r in out):
        out.append(own)
    return tuple(out)


def action_rejection(ctx: Context, state: AirState, action: AirAction) -> Rejection | None:
    """The action's own rules, once its step has come."""
    # A random game checks the bonus step's choices at every bonus step (``legal_actions``): first case.
    match action:
        case Resolve():
            return _resolve(ctx, state, action)
        case DealAirship(card=card):
            return _deal_airship(ctx, state, card)
        case DealStarter(card=card):
            if card not in state.starters_undealt:
                return reject("AIR-R-05", f"{card} is not an undealt starter card")
            return None
        case Reveal(card=card):
            return _reveal(state, card)
        case Throw():
            return _throw(state, action)
        case AttemptTarget():
            return attempt_rejection(ctx, state, action)
        case NoAttempt():
            if ctx.r("AIR-AMB-23") == "pass" or not has_legal_target(ctx, state):
                return None
            return reject(
                "AIR-R-22", "step 2 is not optional: a target is within reach of the company's dice (AIR-AMB-23)"
            )
        case ExtraGo():
            chips = state.boards[state.seat].chips
            cost = ctx.p("extra_go_cost")
            if chips < cost:
                return reject("AIR-R-42", f"an additional go costs {cost} chips; the company has {chips}")
            return None
        case EndGo():
            return None


def _deal_airship(ctx: Context, state: AirState, card: str) -> Rejection | None:
    dealt = sum(len(s) for s in state.stacks)
    tier = ("dark", "medium", "light")[dealt // 4]
    if card not in state.airships_undealt:
        return reject("AIR-R-03", f"{card} is not an undealt airship card")
    if ctx.pack.airship(card).tier != tier:
        return reject("AIR-R-03", f"the {tier} cards are dealt now; {card} is {ctx.pack.airship(card).tier}")
    return None


def _reveal(state: AirState, card: str | None) -> Rejection | None:
    if state.deck_era1:
        if card in state.deck_era1:
            return None
        return reject(
            "AIR-R-04", f"the era-1 cards lie on top of the deck; {card or 'the era tile'} is not one of them"
        )
    if state.era_tile_in_deck:
        if card is None:
            return None
        return reject("AIR-R-04", "the era tile lies on top of the deck now")
    if card is not None and card in state.deck_era2:
        return None
    if not state.deck_era2:
        return reject("AIR-R-23", "the deck is empty")
    return reject("AIR-R-04", f"{card or 'the era tile'} is not in the deck")


def _throw(state: AirState, action: Throw) -> Rejection | None:
    attempt = state.attempt
    assert attempt is not None
    for colour, faces in zip(COLOURS, (action.W, action.R, action.B), strict=True):
        if len(faces) != attempt.throw[colour]:
            return reject(
                "AIR-R-32",
                f"{attempt.throw[colour]} {colour.name} dice were declared; {len(faces)} faces given",
            )
        if not faces_valid(colour, faces):
            return reject("AIR-R-51", f"{colour.name} dice show only {sorted(set(FACES[colour]))}; got {list(faces)}")
        if list(faces) != sorted(faces, reverse=True):
            return reject("AIR-R-32", f"{colour.name} faces are listed high to low; got {list(faces)}")
    return None


def _resolve(ctx: Context, state: AirState, action: Resolve) -> Rejection | None:
    from rulecraft.model.airships.transitions import throw_totals

    board = state.boards[state.seat]
    if action.chip and board.chips < 1:
        return reject("AIR-R-37", "no chip on the company board to spend")
    if ctx.r("AIR-AMB-12") == "auto" and not (action.engine and action.wooden_airship):
        return reject("AIR-R-34", "the engine and wooden-airship bonuses always apply (AIR-AMB-12 'auto')")
    if action.chip:
        totals = throw_totals(ctx, state)
        reached = totals.base + (totals.engine if action.engine else 0)
        reached += totals.airship if action.wooden_airship else 0
        if reached >= totals.target:
            return reject(
                "AIR-R-37", f"the throw already makes {reached} of {totals.target}: a chip is only for a short throw"
            )
        if ctx.r("AIR-AMB-11") == "forbid" and reached + 1 < totals.target:
            return reject(
                "AIR-R-37", f"a chip makes {reached + 1} of {totals.target}: not decisive (AIR-AMB-11 'forbid')"
            )
    return None


# -- why a legal action is legal (Game.grounds) ----------------------------------------------------------------

# The rule that gives a department card's effect (p.6).
_DEPARTMENT_RULE = ("AIR-R-15", "AIR-R-16", "AIR-R-17", "AIR-R-18", "AIR-R-19", "AIR-R-20")

_GROUNDS: dict[type, tuple[str, ...]] = {
    DealAirship: ("AIR-R-03",),
    DealStarter: ("AIR-R-05",),
    Reveal: ("AIR-R-23", "AIR-R-24"),
    Throw: ("AIR-R-32", "AIR-R-51"),
    NoAttempt: ("AIR-R-22",),
    Resolve: ("AIR-R-34", "AIR-R-37"),
    ExtraGo: ("AIR-R-42",),
    EndGo: ("AIR-R-42",),
}


def grounds(ctx: Context, state: AirState, action: AirAction) -> tuple[str, ...]:
    """The rules a legal action rests on, the decisive ones first (see ``Game.grounds``)."""
    if isinstance(action, AttemptTarget):
        return _attempt_grounds(ctx, state, action)
    if isinstance(action, Reveal) and action.card is None:
        return ("AIR-R-25", "AIR-R-23")
    return _GROUNDS.get(type(action), ())


def _attempt_grounds(ctx: Context, state: AirState, action: AttemptTarget) -> tuple[str, ...]:
    decisive: list[str] = []
    # Counterfactuals: without the era change, or without one card, would the attempt still be allowed?
    if state.era != 1 and attempt_rejection(ctx, attrs.evolve(state, era=1), action) is not None:
        decisive += ["AIR-R-25", "AIR-R-13"]
    board = state.boards[state.seat]
    for index, card in enumerate(board.departments):
        if card is None:
            continue
        without = board.departments[:index] + (None,) + board.departments[index + 1 :]
        boards = list(state.boards)
        boards[state.seat] = attrs.evolve(board, departments=without)
        if attempt_rejection(ctx, attrs.evolve(state, boards=tuple(boards)), action) is not None:
            decisive += ["AIR-R-12", _DEPARTMENT_RULE[index]]
    usual = ["AIR-R-26", "AIR-R-27", "AIR-R-30"]
    if action.exchanges:
        usual += ["AIR-R-20", "AIR-R-29"]
    if action.target.startswith("stage:"):
        usual += ["AIR-R-43", "AIR-R-44"]
    return tuple(dict.fromkeys([*decisive, *usual]))
