"""The text picture of an Aeroplanes state and the one-line words of each action (``rulecraft play aer``).

The map is drawn as its destinations by region, each with its slots in printed order::

    Europe    Paris      [A⌂ B2 ·  ■ ]

``A``..``E`` are the seats, ``⌂`` a home tile, ``1``-``3`` the stage of a tile, ``·`` an empty
slot and ``■`` a slot blocked for three players (AER-SET-04).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecraft.core import Chance, listed
from rulecraft.model.aeroplanes import actions as a
from rulecraft.model.aeroplanes.components import ADVANTAGE_TYPES, Face
from rulecraft.model.aeroplanes.state import AerState, Airport, Phase, capacity, load

if TYPE_CHECKING:
    from rulecraft.model.aeroplanes.game import AeroplanesGame

SEATS = "ABCDE"
ADVANTAGE_NAMES = {kind: name for kind, (name, _) in ADVANTAGE_TYPES.items()}  # the printed names (l.154-160)
CHANCE_ACTIONS = (
    a.DealWaitingPassenger,
    a.DrawFirstPlayer,
    a.DrawCard,
    a.RiskThrow,
    a.AdvantageThrow,
    a.RefillWaiting,
    a.RollFirstPlayerDie,
)


def seat_name(seat: int) -> str:
    return f"player {SEATS[seat]}" if 0 <= seat < len(SEATS) else f"seat {seat}"


def slot_mark(airport: Airport | None) -> str:
    if airport is None:
        return "· "
    if airport.blocker:
        return "■ "
    letter = SEATS[airport.owner] if 0 <= airport.owner < len(SEATS) else "?"
    return letter + ("⌂" if airport.home else str(airport.stage))


def map_lines(game: AeroplanesGame, state: AerState) -> list[str]:
    """Every destination with a tile on it or a slot open, grouped by region (pack order)."""
    width = max((len(d.name) for d in game.pack.destinations), default=0)
    region_width = max((len(r.id) for r in game.pack.regions), default=0) + 2
    by_name = {s.destination: s.slots for s in state.map}
    out = []
    for region in game.pack.regions:
        rows = [d for d in game.pack.destinations if d.region == region.id]
        for i, d in enumerate(rows):
            slots = by_name.get(d.name, ())
            label = region.id if i == 0 else ""
            out.append(f"  {label:<{region_width}}{d.name:<{width}} [{' '.join(slot_mark(x) for x in slots)}]")
    return out


def _die(face: Face) -> str:
    return "☠" if face == "skull" else str(face)


def text(game: AeroplanesGame, state: AerState) -> str:
    title = game.title
    if state.phase is Phase.OVER:
        scores = game.scores(state)
        totals = ", ".join(f"{seat_name(s)} {v}" for s, v in sorted(scores.items()))
        head = f"{title} — game over: {totals}; winner(s) {listed(seat_name(s) for s in game.winners(state))}"
    else:
        head = (
            f"{title} — era {state.era}, round {state.round}, {seat_name(state.to_move)} to move, {state.phase.value}"
        )
    marker = "in the subsidy section" if state.marker_in_pool else f"taken by {seat_name(state.marker_taker or 0)}"
    supply = " ".join(
        f"{ADVANTAGE_NAMES[t].split()[0]} {n}" for t, n in zip((2, 3, 4, 5, 6), state.advantage_supply, strict=True)
    )
    lines = [
        head,
        f"Subsidies £{state.subsidy_pool}, black marker {marker}; advantage supply: {supply}",
        f"Display {listed(state.display, 'empty')}; deck {len(state.deck)} card(s)",
        "Waiting area: "
        + "; ".join(f"{w.city} {' '.join(t or '·' for t in w.slots)}" for w in state.waiting)
        + (f"; overflow {' '.join(state.overflow)}" if state.overflow else ""),
        f"Bag {len(state.bag)} passenger tile(s)",
        "Map",
        *map_lines(game, state),
    ]
    attempt = state.turn.attempt
    if attempt is not None:
        route = f"{attempt.origin} -> {attempt.via} -> " if attempt.via else f"{attempt.origin} -> "
        throw = f", thrown {attempt.throw[0]} with {attempt.throw[1]} skull(s)" if attempt.throw else ""
        lines.append(
            f"Attempt: card {attempt.card} tile {route if attempt.origin else 'upgrade at '}{attempt.destination}"
            f" slot {attempt.slot}; rolls left {[t for t, _ in attempt.rolls]}{throw}; spent £{attempt.spent}"
        )
    if state.turn.advantage_dice is not None:
        lines.append(f"Advantage dice: {' '.join(_die(f) for f in state.turn.advantage_dice)}")
    for seat, p in enumerate(state.players):
        cards = ", ".join(
            f"#{c.number}{' (down)' if c.face_down else ''} tiles {c.tiles}"
            f" load {load(game.ctx, c)}/{capacity(game.ctx, c)}"
            for c in p.cards
        )
        held = ", ".join(f"{ADVANTAGE_NAMES[t]} {p.held(t)}" for t in (2, 3, 4, 5, 6) if p.held(t))
        stages = "/".join(map(str, p.supply))
        lines.append(
            f"{seat_name(seat)}: home {p.home or '—'}, £{p.money}, {p.vp} VP, tiles in supply (stages 1/2/3) {stages},"
            f" engine failures {p.engine_failures}"
        )
        lines.append(f"    cards: {cards or 'none'}; discarded {listed(p.discards)}; banked {len(p.banked)} tile(s)")
        if held:
            lines.append(f"    advantages: {held}")
    return "\n".join(lines)


def describe(game: AeroplanesGame, state: AerState, action: a.AerAction) -> str:
    """One line for a game log, in the game's words."""
    chance = isinstance(action, CHANCE_ACTIONS) or isinstance(game.to_move(state), Chance)
    who = "chance" if chance else seat_name(state.to_move)
    return f"{who}: {_words(state, action) or _plain(action)}"


def _plain(action: a.AerAction) -> str:
    fields = ", ".join(f"{f.name} {getattr(action, f.name)}" for f in type(action).__attrs_attrs__)
    return action.kind.replace("-", " ") + (f" ({fields})" if fields else "")


def _words(state: AerState, action: a.AerAction) -> str | None:
    match action:
        case a.DealWaitingPassenger(id=t):
            return f"passenger tile {t} goes to the waiting area"
        case a.DrawFirstPlayer(seat=s):
            return f"{seat_name(s)} is drawn as first player"
        case a.ChooseHome(city=c):
            return f"chooses {c} as home city"
        case a.BuyPlane(number=n, increased_production=ip):
            return f"buys plane card #{n}" + (" with Increased Production" if ip else "")
        case a.DrawCard(number=n):
            return f"card #{n} joins the display"
        case a.PlaceAirport(card=c, destination=d, slot=s, origin=None):
            return f"upgrades at {d} (slot {s}) with the tile of card #{c}"
        case a.PlaceAirport(card=c, destination=d, slot=s, origin=o, via=None):
            return f"tries an airport {o} -> {d} (slot {s}) with the tile of card #{c}"
        case a.PlaceAirport(card=c, destination=d, slot=s, origin=o, via=v):
            return f"tries an airport {o} -> {v} -> {d} (slot {s}) with the tile of card #{c}"
        case a.StopPlacing():
            return "stops placing"
        case a.RiskThrow(total=t, skulls=k):
            # "thrown": rulecraft play shows dice throws (not the set-up deals) without --chance
            return f"the risk dice are thrown: {t}" + (f" and {k} skull(s)" if k else "")
        case a.CoverShortfall(money=0, pilots=0):
            return "keeps the throw"
        case a.CoverShortfall(money=m, pilots=p):
            parts = [f"£{m}"] if m else []
            parts += [f"{p} Daring Pilot(s)"] if p else []
            return "covers the shortfall with " + " and ".join(parts)
        case a.Decline():
            return "declines to cover: the attempt fails"
        case a.Abort():
            return "aborts the attempt"
        case a.ClaimPassenger(id=t, card=c, overflow=o):
            return f"claims passenger {t}{' from the overflow' if o else ''} onto card #{c}"
        case a.TakeAdvantage(type=t):
            return f"takes a {ADVANTAGE_NAMES.get(t, str(t))} tile"
        case a.RollForAdvantages():
            return "rolls for advantages"
        case a.AdvantageThrow(faces=f):
            return "the advantage dice are thrown: " + " ".join(_die(x) for x in f)
        case a.TakeSubsidy():
            pool = state.subsidy_pool
            return "takes £1 of subsidy" if pool > 0 else "takes the black subsidy marker: the era ends"
        case a.RollFirstPlayerDie(value=v):
            return f"the first-player die is thrown: {v}"
        case a.RefillWaiting(id=t):
            return f"passenger tile {t} refills the waiting area"
    return None
