"""Plain-text pictures of a Steamopolis state (each gauge, the city's levels) and one-line action words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulecraft.core import listed
from rulecraft.model.steamopolis import actions as a
from rulecraft.model.steamopolis.effects import program_to_data
from rulecraft.model.steamopolis.gauge import BonusMarker, Gauge, Stone
from rulecraft.model.steamopolis.rules import decider
from rulecraft.model.steamopolis.state import SHADOW, Phase, PlayerState, StmState

if TYPE_CHECKING:
    from rulecraft.model.steamopolis.game import SteamopolisGame

COLOURS = ("Red", "Yellow", "Blue", "Black")


def seat_name(seat: int) -> str:
    if seat == SHADOW:
        return "shadow"
    # The rulebook names 4 colours (p.2-3); a fifth seat (STM-AMB-24 '1-5') plays a pack's fifth colour.
    return f"seat {seat} ({COLOURS[seat] if seat < len(COLOURS) else f'colour {seat + 1}'})"


def gauge_line(game: SteamopolisGame, gauge: Gauge) -> str:
    """One row per gauge: ``|`` the base marker, ``o`` a stone, ``^`` a stone arrow side up, ``#n`` a bonus marker.

    The values row above reads 1 1 2 2 3 4 5 6 7 8 (STM-P-10)."""
    cells = []
    for space, item in enumerate(gauge.spaces):
        if space == 0:
            continue
        if isinstance(item, Stone):
            cells.append(" ^" if item.arrow else " o")
        elif isinstance(item, BonusMarker):
            cells.append(f"#{item.numeral}" if not item.pink else "#p")
        elif space <= gauge.base:
            cells.append(" |")
        else:
            cells.append(" .")
    return " ".join(cells)


def gauge_values(game: SteamopolisGame) -> str:
    layout = game.pack.gauge
    return " ".join(f"{layout.value(s):>2}" for s in range(1, layout.last + 1))


def player_lines(game: SteamopolisGame, state: StmState, seat: int) -> list[str]:
    p: PlayerState = state.players[seat]
    mark = ">" if seat == decider(state) and state.phase is not Phase.OVER else " "
    room = " ".join(
        "--" if t is None else (t.id if t.kind == "machine" else f"{t.id}/{t.side}") for t in p.machine_room
    )
    extras = []
    if p.sponsor:
        extras.append(f"sponsor {p.sponsor}")
    if p.sponsor2:
        extras.append(f"second sponsor {p.sponsor2}")
    if p.gala:
        extras.append(f"gala {p.gala}")
    if any(p.held):  # STM-AMB-19 'next-step'
        extras.append(f"held until the next store step: {p.held[0]} crystals {p.held[1]} gears")
    if p.carrying:
        extras.append("carrying " + ",".join(p.carrying))
    supply = "".join("^" if s.arrow else "o" for s in p.supply) or "-"
    return [
        f"{mark}{seat_name(seat)} character {p.character or '?'}  {p.vp} VP  crystals {p.crystals} gears {p.gears}"
        f" (storage {game.ctx.storage(p)})  stones in supply {supply}  parasites home {p.parasites_home}"
        + (f"  {'; '.join(extras)}" if extras else ""),
        f"   gauge  {gauge_line(game, p.gauge)}",
        f"   room   {room}   banners {len(p.banners)}  passenger tiles {p.passenger_tiles}",
    ]


def city_lines(game: SteamopolisGame, state: StmState) -> list[str]:
    """Levels 8 (top) to 1: each district with the stone on it, the market's face-up tile, passengers."""
    lines = []
    pax = state.passengers
    for level in range(8, 0, -1):
        cells = []
        for d in game.ctx.districts(state):
            if d.level != level:
                continue
            here = [s for s in state.board if s.level == level and s.position == d.position]
            who = ",".join("S" if s.seat == SHADOW else f"{s.seat}{'^' if s.stone.arrow else ''}" for s in here)
            cells.append(f"{d.position}[{who or ' '}]")
        market = ""
        if level == 1:
            b = state.bonus
            market = f"bonus crystal {listed(b.crystal_row)} gear {listed(b.gear_row)}"
        else:
            for m in state.markets:
                if m.level == level:
                    top = m.tiles[0] if m.tiles else "empty"
                    market += f"{'extra ' if m.extra else ''}market {top} (+{max(len(m.tiles) - 1, 0)})"
                    market += " statue " if m.statue else " "
        standing = [n for n, at in (("banker", pax.banker), ("stoker", pax.stoker)) if at == level]
        lines.append(f"  L{level}  {'  '.join(cells):<36} {market.strip():<36} {' '.join(standing)}")
    return lines


def text(game: SteamopolisGame, state: StmState) -> str:
    if state.phase is Phase.OVER and state.solo is not None:
        rank = game.solo_rank(state)
        outcome = "lost on time pressure (STM-R-69)" if rank == "lost" else f"rank: {rank} (STM-R-73)"
        head = f"Steamopolis solo — game over after round {state.round} with {state.players[0].vp} VP; {outcome}"
    elif state.phase is Phase.OVER:
        head = f"Steamopolis — game over after round {state.round}; winner(s) {listed(game.winners(state))}"
    else:
        head = f"Steamopolis — round {state.round}, {seat_name(state.to_move)}'s turn, phase {state.phase.value}"
        if decider(state) != state.to_move:
            head += f"; {seat_name(decider(state))} decides"
        if state.turn.final_step:
            head += f", final turn: {state.turn.final_step}"
        elif state.final_round:
            head += ", final round"
        elif state.end_triggered:
            head += ", the end is triggered"
    pax = state.passengers
    lines = [
        head,
        f"Passenger tile {pax.face_up or '—'} face up, {len(pax.stack)} face down;"
        f" tower top {state.tower_top} statue(s); supply crystals {state.supply.crystals} gears {state.supply.gears}",
        "City",
        *city_lines(game, state),
        f"Gauge values  {gauge_values(game)}",
    ]
    for seat in range(len(state.players)):
        lines += player_lines(game, state, seat)
    if state.solo is not None:
        lines.append(f"Solo: {state.solo.parasites_beside_stack} parasite(s) beside the stack")
        if state.turn.removal is not None:
            lines.append(f"Remove tiles: {state.turn.removal!r}")
    if state.turn.pending:
        lines.append("Waiting effects: " + "; ".join(str(program_to_data(p)) for p in state.turn.pending))
    return "\n".join(lines)


def describe(game: SteamopolisGame, state: StmState, action: a.StmAction) -> str:
    """One line for a game log, in the game's words."""
    who = "chance" if isinstance(action, a.CHANCE_ACTIONS) else seat_name(decider(state))
    # Kinds without their own words yet (a new rule's actions) still read plainly: the kind and fields.
    words = _words(game, state, action) or _plain(action)
    return f"{who}: {words}"


def _time_pressure(state: StmState) -> str:
    """STM-R-69: in the solo game MAKE STEAM and FLY cost 1 VP (once in the final turn)."""
    return " (-1 VP, time pressure)" if state.solo is not None and not state.turn.time_paid else ""


def _discount(action: a.PayCost | a.BuyMachine | a.BuyBanner | a.BuyBonusMarker) -> str:
    named = (("sponsor", action.sponsor), ("second sponsor", action.sponsor2), ("charity gala", action.gala))
    used = [name for name, on in named if on]
    return f" (using the {' and the '.join(used)})" if used else ""


def _plain(action: a.StmAction) -> str:
    fields = ", ".join(f"{f.name} {getattr(action, f.name)}" for f in type(action).__attrs_attrs__)
    return f"{action.kind.replace('-', ' ')}" + (f" ({fields})" if fields else "")


def _words(game: SteamopolisGame, state: StmState, action: a.StmAction) -> str:
    layout = game.pack.gauge
    match action:
        case a.DealCharacter(number=n):
            return f"draws character {n}"
        case a.DealStartingMachine(id=i):
            return f"draws starting machine {i}"
        case a.DealMarketTile(id=i):
            return f"puts machine tile {i} in a market"
        case a.RevealPassenger(id=i):
            return f"turns passenger tile {i} face up"
        case a.BuildStartingRoom(machine_position=m, machine_side=ms, capacity_position=c, capacity_side=cs):
            return f"builds the starting machine (side {ms}) on {m} and a capacity tile (side {cs}) on {c}"
        case a.MoveArrowStones(order=o):
            return f"moves the arrow stones on spaces {listed(o)}" if o else "has no arrow stone to move"
        case a.MakeSteam(picks=p):
            return f"MAKE STEAM: increments at spaces {listed(p)}{_time_pressure(state)}"
        case a.SetTarget(space=s, level=lv, position=pos):
            return f"SET 1 TARGET: the {layout.value(s)} onto L{lv} {pos}"
        case a.ChannelPressure(space=s):
            return f"SET 1 TARGET, channelling the {layout.value(s)} into the machine room"
        case a.FlyToAllTargets():
            return f"FLY TO ALL TARGETS{_time_pressure(state)}"
        case a.PassTurn():
            return "passes (no action possible)"
        case a.SkipStep():
            return f"skips {state.turn.final_step} in the final turn"
        case a.MoveLeft():
            return "moves the channelled stone one position left"
        case a.PlaceStone(level=lv, position=pos):
            return f"places the channelled stone on L{lv} {pos}"
        case a.TakeBack(level=lv, position=pos, discard=d):
            return f"takes back the stone on L{lv} {pos}" + (f", discarding the marker on {d}" if d else "")
        case a.PickUp(passenger=p):
            return f"picks up the {p}"
        case a.UseDistrict():
            return "uses the district"
        case a.BuyMachine(position=pos, remove=r, extra=x, level=lv):
            market = f"{'the extra' if x else 'the'} market{f' of L{lv}' if lv else ''}"
            removing = f", removing {', '.join(map(str, (r, *action.more)))}" if r else ""  # STM-AMB-25: more
            return f"buys {market}'s tile as a machine on {pos}{removing}{_discount(action)}"
        case a.BuyBanner(stone=s, extra=x, level=lv, board=b):
            market = f"{'the extra' if x else 'the'} market{f' of L{lv}' if lv else ''}"
            stone = f", returning the stone on {s}" if s is not None else ""
            stone += f", returning the stone on the board at L{b[0]} {b[1]}" if b is not None else ""
            stone += "".join(f" and the stone on {m}" for m in action.more)  # STM-AMB-25 'cumulative'
            return f"buys {market}'s tile as a banner{stone}{_discount(action)}"
        case a.BuyBonusMarker(row=r, space=s, numeral=n):
            where = f"onto space {s}" if s is not None else "(boxed)"
            which = f"#{n} " if n is not None else ""
            return f"buys the {r} bonus marker {which}{where}{_discount(action)}"
        case a.PlaceParasite(host=h, position=pos, symbol=sym, moved=m):
            if h is None:
                return "places a parasite beside the passenger stack"
            verb = f"moves the parasite from {m}" if m is not None else "places a parasite"
            return f"{verb} onto {seat_name(h)}'s machine {pos}, on its {sym} symbol"
        case a.ActivateParasite(targets=t):
            hosts = listed(f"{seat_name(h)}'s machine {pos} ({sym})" for h, pos, sym in t)
            return f"activates own parasites without taking them back: {hosts}"
        case a.ShakeOffParasite(owner=o, position=pos, symbol=sym):
            return f"shakes {seat_name(o)}'s parasite off machine {pos} ({sym})"
        case a.LetPlayer(seat=seat):
            return f"lets {seat_name(seat)} act next"
        case a.TakeSponsor(side=sd):
            return f"takes a sponsor, {sd} side up"
        case a.TakeGala(resource=r):
            return f"takes a {r} charity gala"
        case a.PlacePinkMarker(space=s):
            return f"places the pink bonus marker onto space {s}" if s is not None else "boxes the pink bonus marker"
        case a.UseOtherDistrict(level=lv, position=pos):
            return f"uses another district: L{lv} {pos}"
        case a.UseFaceUpTile(level=lv, symbol=sym):
            return f"uses the face-up tile on L{lv}, its {sym} effect (a parasite beside the stack)"
        case a.UseRemovedTile(tile=t, symbol=sym):
            return f"takes back a parasite from beside the stack to use the removed {t}'s {sym} effect"
        case a.LeaveParasites():
            return "leaves the other parasites beside the stack; the passenger tile goes to the box"
        case a.StopBuying():
            return "buys no more bonus markers"
        case a.LetLapse():
            return "neither uses the district nor buys"
        case a.PayCost(stone=s):
            return "pays the cost" + (f" with the stone on {s}" if s is not None else "") + _discount(action)
        case a.DeclineCost():
            return "declines the cost"
        case a.ChooseSide(side=s):
            return f"chooses the {'upper' if s == 0 else 'lower'} side of the slash"
        case a.SkipPart():
            return "forgoes the part"
        case a.UsePart(sponsor2=True):
            return "turns the second sponsor"
        case a.UsePart():
            return "carries out the part"
        case a.TakeResources(crystals=c, gears=g):
            return f"takes {c} crystal(s) and {g} gear(s)"
        case a.RaisePressure(picks=p):
            return f"increases the pressure: increments at spaces {listed(p)}"
        case a.RaiseOneStone(space=s, steps=n):
            return f"increases the stone on {s} by {n}"
        case a.GainStone(arrow=ar):
            return "gains a pressure stone" + (" arrow side up" if ar else "")
        case a.MoveBaseMarker():
            return "advances the base pressure marker"
        case a.TurnArrows(spaces=s, districts=d):
            return f"turns arrows up on spaces {listed(s)} and districts {listed(d)}"
        case a.BuildCapacity(position=pos, side=sd):
            return f"builds a capacity tile (side {sd}) on {pos}"
        case a.Store(crystals=c, gears=g):
            return f"stores {c} crystal(s) and {g} gear(s)"
        case a.EndOfTurnStep(step=st):
            return f"carries out the end-of-turn step next: {st}"
        case a.EndTurn():
            return "ends the turn"
