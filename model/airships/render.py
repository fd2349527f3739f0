"""Plain-text pictures of an Airships state and one-line action descriptions."""

from __future__ import annotations

from typing import TYPE_CHECKING

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
from rulecraft.model.airships.components import DEPARTMENTS, DevelopmentCard
from rulecraft.model.airships.state import AirState

if TYPE_CHECKING:
    from rulecraft.model.airships.game import AirshipsGame


def card_label(card: DevelopmentCard) -> str:
    effect = str(card.dice) if card.dice.total() else ""
    if card.fixed:
        effect = f"fixed {card.fixed.colour.value}{card.fixed.value}"
    if card.engine:
        effect = f"+{card.engine.bonus} {card.engine.colour.value if card.engine.colour else 'any'}"
    if card.exchange:
        effect = str(card.exchange)
    if card.pilot_chips:
        effect += f" +{card.pilot_chips}chips"
    vp = f" {card.vp}*" if card.vp else ""
    return f"{card.id}[{card.requirement}>={card.target}: {effect}{vp}]"


def text(game: AirshipsGame, state: AirState) -> str:
    pack = game.pack
    if state.phase.value == "over":
        head = f"Airships — era {state.era}, game over after go {state.goes} (end condition {state.ended})"
    else:
        head = f"Airships — era {state.era}, go {state.goes}, seat {state.seat} to play, phase {state.phase.value}"
        head += f", ending ({state.ended})" if state.ended else ""
    lines = [head]
    stacks = []
    for i, stack in enumerate(state.stacks, start=1):
        if stack:
            top = pack.airship(stack[-1])
            stacks.append(f"{i}:{top.id}[{top.requirement}>={top.target} {top.vp}*] x{len(stack)}")
        else:
            stacks.append(f"{i}:empty")
    lines.append("Airship fields  " + "  ".join(stacks))
    if state.hindenburg:
        stages = []
        for i, owner in enumerate(state.stages, start=1):
            st = pack.stage(i)
            who = "open" if owner is None else f"seat {owner}"
            stages.append(f"{i}:[{st.requirement}>={st.target} {st.vp_low}/{st.vp_high}*] {who}")
        lines.append("Hindenburg      " + "  ".join(stages))
    lines.append("Display")
    for dept, row in zip(DEPARTMENTS, state.display, strict=True):
        cells = [card_label(pack.development(c)) if c else "—" for c in row]
        lines.append(f"  {dept.value:<9} " + " | ".join(cells))
    deck = len(state.deck_era1) + len(state.deck_era2) + (1 if state.era_tile_in_deck else 0)
    tile = "in" if state.era_tile_in_deck else "out"
    lines.append(
        f"Deck {deck} (era-1 {len(state.deck_era1)}, era tile {tile}, era-2 {len(state.deck_era2)});"
        f" removed {len(state.removed)}"
    )
    scores = game.scores(state)
    for seat, board in enumerate(state.boards):
        mark = ">" if seat == state.seat and state.phase.value != "over" else " "
        wood = " +wooden airship" if state.wooden_airship == seat else ""
        comp = game_company(game, state, seat)
        lines.append(
            f"{mark}seat {seat} {board.nation:<8} {scores[seat]:>2} VP  chips {board.chips} (supply "
            f"{state.supplies[seat if len(state.supplies) > 1 else 0]})  dice {comp}{wood}"
        )
        cards = [card_label(pack.development(c)) for c in board.departments if c]
        lines.append("      cards: " + (", ".join(cards) or "none"))
        if board.airships:
            lines.append("      airships: " + ", ".join(board.airships))
        if board.won_this_turn:  # AIR-AMB-26 'next-turn'
            lines.append("      from the next turn: " + ", ".join(board.won_this_turn))
    return "\n".join(lines)


def game_company(game: AirshipsGame, state: AirState, seat: int) -> str:
    from rulecraft.model.airships.rules import company

    comp = company(game.ctx, state, seat)
    out = str(comp.dice)
    if comp.fixed:
        out += f" + fixed {comp.fixed.colour.value}{comp.fixed.value}"
    return out


def describe(game: AirshipsGame, state: AirState, action: AirAction) -> str:
    who = f"seat {state.seat} ({state.boards[state.seat].nation})"
    match action:
        case DealAirship(card=card):
            return f"chance: airship card {card} dealt to field {sum(len(s) for s in state.stacks) % 4 + 1}"
        case DealStarter(card=card):
            return f"chance: starter {card} dealt to seat {sum(1 for b in state.boards if any(b.departments))}"
        case Reveal(card=None):
            return "chance: the era tile is revealed — every entrepreneur tile flips to white + red"
        case Reveal(card=card):
            assert card is not None
            return f"chance: {card_label(game.pack.development(card))} revealed"
        case AttemptTarget(target=target, throw=throw, exchanges=k, give_fixed=gf):
            ex = f", exchanging x{k}" + (" (fixed die given up)" if gf else "") if k else ""
            return f"{who} attempts {target}{ex}, throwing {throw}"
        case Throw(W=w, R=r, B=b):
            parts = [f"{c}{list(v)}" for c, v in (("W", w), ("R", r), ("B", b)) if v]
            return "chance: thrown " + (" ".join(parts) or "no dice")
        case NoAttempt():
            return f"{who} makes no attempt"
        case Resolve(chip=chip, engine=engine, wooden_airship=wood):
            extra = (
                ""
                if engine and wood
                else f" (engine {'on' if engine else 'off'}, wooden airship {'on' if wood else 'off'})"
            )
            return f"{who} {'spends a chip' if chip else 'spends no chip'}{extra}"
        case ExtraGo():
            return f"{who} pays {game.ctx.p('extra_go_cost')} chips for an additional go"
        case EndGo():
            return f"{who} ends the go"
