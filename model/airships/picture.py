"""An SVG picture of an Airships state, for HTML reports.

The same content as :func:`rulecraft.model.airships.render.text`, drawn:
airship fields and Hindenburg stages on top, the 6 x 3 display as a grid of
cards, the deck piles, then one panel per company.  Every card carries its
full text label as a hover tooltip, so nothing the text picture says is lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rulecraft.model.airships.components import (
    COLOURS,
    DEPARTMENTS,
    AirshipCard,
    Colour,
    Department,
    DevelopmentCard,
    Dice,
    FixedDie,
)
from rulecraft.model.airships.render import card_label
from rulecraft.model.airships.rules import company
from rulecraft.model.airships.state import AirState, Phase
from rulecraft.svg import PALETTE, Drawing, fit, ink_on, seat_colour, text_width

if TYPE_CHECKING:
    from rulecraft.model.airships.game import AirshipsGame

WIDTH = 980
MARGIN = 12
GAP = 8
HEADER = 52
SECTION = 22  # a section title's line
FIELD_W, FIELD_H = 170, 84
LABEL_W = 92  # the display's department column
CARD_H = 62
DIE = 10  # a die square's side

DIE_FILL: Mapping[Colour, str] = {Colour.W: "#ffffff", Colour.R: "#c0392b", Colour.B: "#222222"}
TIER_FILL: Mapping[str, str] = {"dark": "#a3aeb9", "medium": "#c5cdd6", "light": "#eef1f4"}
# The card borders, p.6 ([EN] "Overview and effect of individual expansion cards"): Engineers orange,
# Captains brown, Financiers purple, Materials blue, Hangars yellow, Engines green.
DEPT_FILL: Mapping[Department, str] = {
    Department.FINANCE: "#8e44ad",
    Department.HANGAR: "#f1c40f",
    Department.PILOT: "#8b5a2b",
    Department.ENGINEER: "#e67e22",
    Department.ENGINE: "#27ae60",
    Department.MATERIAL: "#2e86de",
}
CHIP_FILL = "#e8c547"
FIELD_NOTE = "#4a4a4a"  # small print on airship cards: readable on the dark tier too


def svg(game: AirshipsGame, state: AirState) -> str:
    """The state as a standalone ``<svg>`` element (deterministic)."""
    d = Drawing(WIDTH, 0, title=_headline(state))
    y = _header(d, game, state)
    y = _fields(d, game, state, y)
    if state.hindenburg:
        y = _stages(d, game, state, y)
    y = _display(d, game, state, y)
    y = _deck(d, state, y)
    y = _companies(d, game, state, y)
    d.height = y + MARGIN  # the height is only known once every section is laid out
    return d.to_string()


# -- header -----------------------------------------------------------------------------------
def _headline(state: AirState) -> str:
    if state.phase is Phase.OVER:
        return f"Airships — era {state.era}, game over after go {state.goes} (end condition {state.ended})"
    return f"Airships — era {state.era}, go {state.goes}"


def _header(d: Drawing, game: AirshipsGame, state: AirState) -> float:
    d.rect(0, 0, WIDTH, HEADER, fill=PALETTE["header"])
    d.text(MARGIN, 24, _headline(state), size=17, fill=PALETTE["paper"], bold=True)
    if state.phase is Phase.OVER:
        winners = game.winners(state)
        names = ", ".join(f"seat {s} ({state.boards[s].nation})" for s in winners)
        line = f"winner: {names}" if winners else "no winner (tie undefined)"
    else:
        line = f"seat {state.seat} ({state.boards[state.seat].nation}) to play · phase {state.phase.value}"
        line += f" · ending ({state.ended})" if state.ended else ""
        if state.attempt is not None:
            att = state.attempt
            line += f" · attempting {att.target}, throwing {att.throw}"
            line += f" (x{att.exchanges} exchange)" if att.exchanges else ""
            if att.faces is not None:
                thrown = " ".join(f"{c.value}{list(v)}" for c, v in zip(COLOURS, att.faces, strict=True) if v)
                line += f", thrown {thrown}"
    d.text(MARGIN, 42, fit(line, WIDTH - 2 * MARGIN, 12), size=12, fill=PALETTE["paper"])
    return HEADER + GAP


def _section(d: Drawing, y: float, title: str) -> float:
    d.text(MARGIN, y + 15, title, size=13, bold=True)
    return y + SECTION


# -- dice ---------------------------------------------------------------------------------------
def _dice(d: Drawing, x: float, y: float, dice: Dice) -> float:
    """Dice as coloured squares from ``x`` (top at ``y``); returns the x after them."""
    for colour, count in dice.items():
        for _ in range(count):
            d.rect(x, y, DIE, DIE, fill=DIE_FILL[colour], stroke=PALETTE["ink"], stroke_width=0.8, rx=2, class_="die")
            x += DIE + 2
    return x


def _fixed_die(d: Drawing, x: float, y: float, fixed: FixedDie, size: float = DIE + 4) -> float:
    """An Engineer's fixed die: a dashed square showing its printed value."""
    fill = DIE_FILL[fixed.colour]
    with d.group(class_="fixed-die", title=f"fixed {fixed.colour.value} die showing {fixed.value}"):
        d.rect(x, y, size, size, fill=fill, stroke=PALETTE["ink"], rx=2, dashed=True)
        label = str(fixed.value)
        d.text(x + size / 2, y + size - 3, label, size=size - 4, fill=ink_on(fill), anchor="middle", bold=True)
    return x + size + 3


def _requirement(d: Drawing, x: float, y: float, requirement: Dice, target: int) -> float:
    x = _dice(d, x, y, requirement)
    d.text(x + 2, y + DIE - 1, f"≥ {target}", size=11)
    return x + 2 + text_width(f"≥ {target}", 11)


# -- airship fields and stages ---------------------------------------------------------------
def _airship_title(card: AirshipCard) -> str:
    return f"{card.id} ({card.tier}) needs {card.requirement} ≥ {card.target}, {card.vp} VP"


def _fields(d: Drawing, game: AirshipsGame, state: AirState, y: float) -> float:
    y = _section(d, y, "Airship fields")
    for i, stack in enumerate(state.stacks, start=1):
        x = MARGIN + (i - 1) * (FIELD_W + 2 * GAP)
        if not stack:
            with d.group(class_="airship-field empty", title=f"field {i}: empty"):
                d.rect(x, y, FIELD_W, FIELD_H, fill=PALETTE["paper"], stroke=PALETTE["faint"], rx=6, dashed=True)
                d.text(x + 8, y + 16, f"field {i}", size=10, fill=PALETTE["muted"])
                d.text(x + FIELD_W / 2, y + FIELD_H / 2 + 5, "empty", size=12, fill=PALETTE["muted"], anchor="middle")
            continue
        top = game.pack.airship(stack[-1])
        title = f"field {i}: {_airship_title(top)}; {len(stack)} card(s) in the stack"
        with d.group(class_="airship-field", title=title):
            # The cards under the top one peek out below it: the stack's height at a glance.
            for k in range(min(len(stack) - 1, 4), 0, -1):
                d.rect(x + 3 * k, y + 3 * k, FIELD_W, FIELD_H, fill=PALETTE["panel"], stroke=PALETTE["faint"], rx=6)
            d.rect(x, y, FIELD_W, FIELD_H, fill=TIER_FILL.get(top.tier, PALETTE["panel"]), stroke=PALETTE["ink"], rx=6)
            d.text(x + 8, y + 16, f"field {i}", size=10, fill=FIELD_NOTE)
            d.text(x + FIELD_W - 8, y + 16, f"{top.vp} VP", size=12, anchor="end", bold=True)
            d.text(x + 8, y + 36, top.id, size=15, bold=True)
            _requirement(d, x + 8, y + 46, top.requirement, top.target)
            d.text(x + 8, y + 76, f"stack ×{len(stack)} · {top.tier}", size=10, fill=FIELD_NOTE)
    return y + FIELD_H + 4 * 3 + GAP


def _stages(d: Drawing, game: AirshipsGame, state: AirState, y: float) -> float:
    y = _section(d, y, "Hindenburg")
    for i, owner in enumerate(state.stages, start=1):
        stage = game.pack.stage(i)
        x = MARGIN + (i - 1) * (FIELD_W + 2 * GAP)
        who = "open" if owner is None else f"seat {owner} ({state.boards[owner].nation})"
        title = f"stage {i}: needs {stage.requirement} ≥ {stage.target}, {stage.vp_low}/{stage.vp_high} VP; {who}"
        with d.group(class_="stage", title=title):
            fill = PALETTE["paper"] if owner is None else seat_colour(owner)
            d.rect(x, y, FIELD_W, FIELD_H - 14, fill=PALETTE["panel"], stroke=PALETTE["ink"], rx=6)
            d.rect(x, y + FIELD_H - 34, FIELD_W, 20, fill=fill, stroke=PALETTE["ink"], rx=0)
            d.text(x + 8, y + 16, f"stage {i}", size=12, bold=True)
            d.text(x + FIELD_W - 8, y + 16, f"{stage.vp_low}/{stage.vp_high} VP", size=12, anchor="end")
            _requirement(d, x + 8, y + 24, stage.requirement, stage.target)
            d.text(x + 8, y + FIELD_H - 19, fit(who, FIELD_W - 16, 11), size=11, fill=ink_on(fill))
    return y + FIELD_H - 14 + GAP


# -- development cards -------------------------------------------------------------------------
def _effect_text(card: DevelopmentCard) -> str:
    """What a card gives besides its dice (which are drawn as squares)."""
    parts = []
    if card.engine:
        parts.append(f"+{card.engine.bonus} {card.engine.colour.value if card.engine.colour else 'any'}")
    if card.exchange:
        parts.append(str(card.exchange).replace("->", "→"))
    if card.pilot_chips:
        parts.append(f"+{card.pilot_chips} chips")
    return " ".join(parts)


def _card(d: Drawing, x: float, y: float, w: float, card: DevelopmentCard, class_: str) -> None:
    with d.group(class_=class_, title=card_label(card)):
        d.rect(x, y, w, CARD_H, fill=PALETTE["paper"], stroke=PALETTE["ink"], stroke_width=0.8, rx=4)
        d.rect(x, y, 5, CARD_H, fill=DEPT_FILL[card.department])
        d.text(x + 10, y + 15, fit(card.id, w - 50, 12), size=12, bold=True)
        if card.vp:
            d.text(x + w - 6, y + 15, f"{card.vp}★", size=12, anchor="end", bold=True, fill="#b7950b")
        _requirement(d, x + 10, y + 22, card.requirement, card.target)
        ex = x + 10
        d.text(ex, y + CARD_H - 8, "→", size=11, fill=PALETTE["muted"])
        ex = _dice(d, ex + 14, y + CARD_H - 17, card.dice)
        if card.fixed is not None:
            ex = _fixed_die(d, ex, y + CARD_H - 19, card.fixed)
        effect = _effect_text(card)
        if effect:
            d.text(ex + 2, y + CARD_H - 8, fit(effect, x + w - ex - 6, 11), size=11)


def _empty_slot(d: Drawing, x: float, y: float, w: float, label: str, class_: str) -> None:
    with d.group(class_=class_, title=label):
        d.rect(x, y, w, CARD_H, fill=PALETTE["paper"], stroke=PALETTE["faint"], rx=4, dashed=True)
        d.text(x + w / 2, y + CARD_H / 2 + 4, fit(label, w - 8, 10), size=10, fill=PALETTE["muted"], anchor="middle")


def _display(d: Drawing, game: AirshipsGame, state: AirState, y: float) -> float:
    y = _section(d, y, "Display")
    cell_w = (WIDTH - 2 * MARGIN - LABEL_W - 2 * GAP) / 3
    for dept, row in zip(DEPARTMENTS, state.display, strict=True):
        d.rect(MARGIN, y, LABEL_W - GAP, CARD_H, fill=DEPT_FILL[dept], rx=4)
        d.text(MARGIN + 8, y + CARD_H / 2 + 4, dept.value, size=12, fill=ink_on(DEPT_FILL[dept]), bold=True)
        for col, card_id in enumerate(row):
            x = MARGIN + LABEL_W + col * (cell_w + GAP)
            if card_id is None:
                _empty_slot(d, x, y, cell_w, f"{dept.value} field {col + 1}: empty", "display-empty")
            else:
                _card(d, x, y, cell_w, game.pack.development(card_id), "card display-card")
        y += CARD_H + GAP / 2
    return y + GAP


def _deck(d: Drawing, state: AirState, y: float) -> float:
    y = _section(d, y, "Deck")
    piles = (
        ("era-1 cards", str(len(state.deck_era1))),
        ("era tile", "in" if state.era_tile_in_deck else "out"),
        ("era-2 cards", str(len(state.deck_era2))),
        ("removed", str(len(state.removed))),
    )
    for i, (label, count) in enumerate(piles):
        x = MARGIN + i * 130
        with d.group(class_="pile", title=f"{label}: {count}"):
            d.rect(x, y, 120, 26, fill=PALETTE["panel"], stroke=PALETTE["faint"], rx=4)
            d.text(x + 8, y + 17, label, size=11, fill=PALETTE["muted"])
            d.text(x + 112, y + 17, count, size=13, anchor="end", bold=True)
    return y + 26 + GAP


# -- company boards ---------------------------------------------------------------------------
PANEL_H = 22 + 24 + CARD_H + 8 + 34 + 10


def _companies(d: Drawing, game: AirshipsGame, state: AirState, y: float) -> float:
    y = _section(d, y, "Companies")
    scores = game.scores(state)
    for seat in range(state.players):
        _company(d, game, state, seat, scores[seat], y)
        y += PANEL_H + GAP
    return y


def _company(d: Drawing, game: AirshipsGame, state: AirState, seat: int, vp: int, y: float) -> None:
    board = state.boards[seat]
    to_play = seat == state.seat and state.phase is not Phase.OVER
    x0, w = MARGIN, WIDTH - 2 * MARGIN
    owned = [str(i) for i, owner in enumerate(state.stages, start=1) if owner == seat]
    supply = state.supplies[seat if len(state.supplies) > 1 else 0]
    with d.group(class_="company to-play" if to_play else "company", title=f"seat {seat}: {board.nation}, {vp} VP"):
        stroke, width = (PALETTE["highlight"], 3.0) if to_play else (seat_colour(seat), 1.5)
        d.rect(x0, y, w, PANEL_H, fill=PALETTE["panel"], stroke=stroke, stroke_width=width, rx=8)
        d.circle(x0 + 16, y + 15, 7, fill=seat_colour(seat), stroke=PALETTE["ink"], stroke_width=0.8)
        d.text(x0 + 30, y + 20, f"seat {seat} · {board.nation}", size=14, bold=True, class_="seat-label")
        d.text(x0 + 210, y + 20, f"{vp} VP", size=14, bold=True)
        x = _chips(d, x0 + 280, y + 15, board.chips, supply)
        extras = []
        if state.wooden_airship == seat:
            extras.append("wooden airship")
        if owned:
            extras.append("stage " + ", ".join(owned))
        if state.phase is Phase.OVER and seat in game.winners(state):
            extras.append("winner")
        if extras:
            d.text(x + 12, y + 20, " · ".join(extras), size=12, bold=True, fill="#7d5a00")
        if to_play:
            d.text(x0 + w - 10, y + 20, "▶ to play", size=13, anchor="end", bold=True, fill="#7d5a00")
        comp = company(game.ctx, state, seat)
        d.text(x0 + 10, y + 40, "dice", size=11, fill=PALETTE["muted"])
        with d.group(class_="company-dice", title=_dice_title(comp.dice, comp.fixed)):
            dx = _dice(d, x0 + 44, y + 31, comp.dice)
            if comp.fixed is not None:
                _fixed_die(d, dx + 6, y + 29, comp.fixed)
        _departments(d, game, board.departments, x0 + 10, y + 48, w - 20)
        _airships(d, game, board.airships, x0 + 10, y + 48 + CARD_H + 8)


def _dice_title(dice: Dice, fixed: FixedDie | None) -> str:
    out = f"dice {dice}"
    return out + (f" + fixed {fixed.colour.value}{fixed.value}" if fixed else "")


def _chips(d: Drawing, x: float, cy: float, chips: int, supply: int) -> float:
    """Chips as gold discs (beyond 10, a count); returns the x after the label."""
    with d.group(class_="chips", title=f"{chips} chips on the board, {supply} in the supply"):
        for i in range(min(chips, 10)):
            d.circle(x + 5 + i * 11, cy, 5, fill=CHIP_FILL, stroke="#8a6d00", stroke_width=0.8)
        x += min(chips, 10) * 11 + 4
        label = f"{chips} chip{'' if chips == 1 else 's'} (supply {supply})"
        d.text(x, cy + 4, label, size=11, fill=PALETTE["muted"])
    return x + text_width(label, 11)


def _departments(d: Drawing, game: AirshipsGame, cards: tuple[str | None, ...], x: float, y: float, w: float) -> None:
    slot_w = (w - 5 * GAP) / 6
    for i, (dept, card_id) in enumerate(zip(DEPARTMENTS, cards, strict=True)):
        sx = x + i * (slot_w + GAP)
        if card_id is None:
            _empty_slot(d, sx, y, slot_w, f"no {dept.value} card", "board-empty")
        else:
            _card(d, sx, y, slot_w, game.pack.development(card_id), "card board-card")


def _airships(d: Drawing, game: AirshipsGame, cards: tuple[str, ...], x: float, y: float) -> None:
    d.text(x, y + 20, "airships", size=11, fill=PALETTE["muted"])
    x += 56
    if not cards:
        d.text(x, y + 20, "none yet", size=11, fill=PALETTE["faint"], italic=True)
        return
    for card_id in cards:
        card = game.pack.airship(card_id)
        with d.group(class_="card board-airship", title=_airship_title(card)):
            d.rect(x, y + 2, 64, 30, fill=TIER_FILL.get(card.tier, PALETTE["panel"]), stroke=PALETTE["ink"], rx=4)
            d.text(x + 6, y + 22, card.id, size=12, bold=True)
            d.text(x + 58, y + 22, f"{card.vp}★", size=11, anchor="end")
        x += 70
