"""Named invariants of Steamopolis states, in the style of python-chess ``status()``.

Each check is a small function ``(game, state) -> list[Violation]`` that
recounts a fact of the rules digest (section 3.14, and the rules it
summarises) straight from the state and the game's rules context (its
component pack and readings, ``game.ctx``), without calling the model's
transition code, so that a wrong transition shows up as a violation.
``check_all`` returns every violation at once, and ``report`` words them for
a person::

    from rulecraft.invariants.steamopolis import check_all, report

    violations = check_all(game, state)
    assert not violations, report(violations, where="after step 37")

``INVARIANTS`` lists the single-state checks in order: name -> (rules,
check, doc).  A few facts need two states (VP never falls except by solo
time pressure, a triggered end stays triggered, statues never leave the tower
top): ``STEP_INVARIANTS`` and ``check_step(game, before, after)``.

Where the state's shape cannot express a rule, the check's docstring says
what it leaves out; no check invents a field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulecraft.invariant import InvariantSpec, Registry, StepSpec, Violation, report
from rulecraft.model.steamopolis.components import BONUS_NUMERALS, EXTRA_MARKET_LEVELS, LEVELS, RANK_COUNTS
from rulecraft.model.steamopolis.context import Context
from rulecraft.model.steamopolis.effects import GainPinkMarker, walk
from rulecraft.model.steamopolis.gauge import BonusMarker, Stone
from rulecraft.model.steamopolis.state import SHADOW, BonusMarket, Market, Phase, PlayerState, StmState

if TYPE_CHECKING:
    from rulecraft.model.steamopolis.game import SteamopolisGame

__all__ = [
    "INVARIANTS",
    "STEP_INVARIANTS",
    "InvariantSpec",
    "StepSpec",
    "Violation",
    "check_all",
    "check_bonus_markers",
    "check_districts",
    "check_end_stays_triggered",
    "check_end_trigger",
    "check_gauge_items",
    "check_machine_tiles",
    "check_parasites",
    "check_passengers",
    "check_resources_conserved",
    "check_seats_and_side",
    "check_solo_turn",
    "check_sponsor_and_gala",
    "check_statues_and_markets",
    "check_step",
    "check_stones_conserved",
    "check_storage",
    "check_tower_top_never_falls",
    "check_vp_never_decreases",
    "check_vp_never_negative",
    "report",
]

SETUP_PHASES = (Phase.DEAL, Phase.SETUP_ROOM)  # STM-R-03..R-13: chance deals, then each machine room
BETWEEN_TURNS = (Phase.START_OF_TURN, Phase.ACTION)  # a turn has ended, the next not acted yet
STATUE_LEVELS = tuple(level for level in LEVELS if level >= 2)  # STM-R-02: levels 2-8 (+ the level-1 bonus market)


def _rules_context(game: SteamopolisGame) -> Context:
    """What the recounts read: the game's pack, readings and rule parameters."""
    return game.ctx


_REGISTRY = Registry(subject=_rules_context)
INVARIANTS: dict[str, InvariantSpec] = _REGISTRY.invariants
STEP_INVARIANTS: dict[str, StepSpec] = _REGISTRY.steps
_invariant = _REGISTRY.invariant
_step_invariant = _REGISTRY.step


def check_all(game: SteamopolisGame, state: StmState) -> list[Violation]:
    """Every violation of every registered single-state invariant, in registry order."""
    return _REGISTRY.check_all(game, state)


def check_step(game: SteamopolisGame, before: StmState, after: StmState) -> list[Violation]:
    """Every violation of the two-state invariants for one step ``before`` -> ``after``."""
    return _REGISTRY.check_step(game, before, after)


# -- helpers ----------------------------------------------------------------------


def _seats(state: StmState) -> range:
    return range(len(state.players))


def _solo(state: StmState) -> bool:
    return state.solo is not None


def _mid_turn_gains_allowed(state: StmState) -> bool:
    """A store step or effect part still waits, or a stone is in the machine room: resources
    may exceed storage (STM-R-30: storing waits for the placement; STM-R-32)."""
    return state.turn.storing or bool(state.turn.pending) or state.phase is Phase.CHANNEL


def _bonus_bought_out(ctx: Context, bonus: BonusMarket) -> bool:
    """STM-AMB-26: the level-1 statue shows when both #2 ('both-2') or the first #2 are gone."""
    gone = (2 not in bonus.crystal_row) + (2 not in bonus.gear_row)
    return gone == 2 or (gone >= 1 and ctx.r("STM-AMB-26") == "first-2")


def _statue_markets(state: StmState) -> list[Market]:
    return [m for m in state.markets if not m.extra]


def _solo_lost(ctx: Context, state: StmState) -> bool:
    """STM-R-69 / STM-AMB-28: the solo player's VP reached the losing line."""
    if not _solo(state) or not state.players:
        return False
    vp = state.players[0].vp
    return vp < 0 if ctx.r("STM-AMB-28") == "below-zero" else vp <= 0


def _used_up(ctx: Context, state: StmState) -> bool:
    """STM-R-51 / STM-AMB-27 'due': no face-up tile, none to reveal, none taken this turn and still
    to be replaced; 'empty': no face-down tile is left (once the set-up has revealed one)."""
    pax = state.passengers
    if ctx.r("STM-AMB-27") == "empty":
        return not pax.stack and state.phase is not Phase.DEAL
    return pax.face_up is None and not pax.stack and pax.taken is None


def _player_count_limit(ctx: Context) -> int:
    return 5 if ctx.r("STM-AMB-24") == "1-5" else 4


# -- the invariants ---------------------------------------------------------------


def check_seats_and_side(ctx: Context, state: StmState) -> Iterator[str]:
    """1-4 players on the matching board side, solo fields only in solo, seats in range, characters drawn once.

    Character 0 means "not dealt yet" and is allowed only in phase DEAL.
    """
    n = len(state.players)
    top = _player_count_limit(ctx)
    if not 1 <= n <= top:
        yield f"{n} players; the game is for 1-{top} (STM-AMB-24 {ctx.r('STM-AMB-24')!r})"
    side = "4" if n >= 4 else "2-3"
    if state.board_side != side:
        yield f"{n} player(s) on the {state.board_side}-player side; STM-R-01 gives the {side}-player side"
    if _solo(state) != (n == 1):
        yield f"{n} player(s) but the solo fields are {'set' if _solo(state) else 'missing'}"
    for name, seat in (("to_move", state.to_move), ("start_player", state.start_player)):
        if not 0 <= seat < n:
            yield f"{name} is seat {seat}, outside 0..{n - 1}"
    characters = [p.character for p in state.players]
    known = {c.number for c in ctx.pack.characters}
    for seat, number in enumerate(characters):
        if number == 0 and state.phase is Phase.DEAL:
            continue
        if number not in known:
            yield f"seat {seat} plays character {number}, which pack {ctx.pack.name} does not have"
    for number, times in Counter(c for c in characters if c != 0).items():
        if times > 1:
            yield f"character {number} is drawn {times} times (STM-R-07: one tile each)"
    if state.round < 1:
        yield f"round {state.round}"


_invariant("seats-and-board-side", "STM-R-01", "STM-R-07", "STM-R-68", "STM-AMB-24")(check_seats_and_side)


def check_stones_conserved(ctx: Context, state: StmState) -> Iterator[str]:
    """5 stones per player on gauge + board + personal supply (+ the channelled one in the machine room).

    The machine room holds a stone only while a SET stone is channelled (``turn.channel_stone``,
    phase CHANNEL, in a final turn too).  Shadow stones (seat SHADOW) exist only in solo, at most 5.
    """
    owned = ctx.pack.airship.stones
    turn = state.turn
    in_room = turn.channel_stone is not None
    if state.phase is Phase.CHANNEL and not in_room:
        yield "phase CHANNEL without a stone in the machine room"
    if in_room and state.phase is not Phase.CHANNEL:
        yield f"a stone is in the machine room in phase {state.phase.value} (STM-R-29: only while channelling)"
    if (turn.channel is None) != (turn.channel_stone is None):
        yield f"machine-room position {turn.channel} with channelled stone {turn.channel_stone}"
    if turn.channel is not None and not 1 <= turn.channel <= ctx.pack.machine_room.positions:
        yield f"the channelled stone stands on machine-room position {turn.channel}"
    for seat, p in enumerate(state.players):
        on_gauge = p.gauge.stones()
        on_board = sum(1 for s in state.board if s.seat == seat)
        room = 1 if in_room and seat == state.to_move else 0
        total = on_gauge + on_board + len(p.supply) + room
        if total != owned:
            yield (
                f"seat {seat}: gauge {on_gauge} + board {on_board} + supply {len(p.supply)} + machine room {room}"
                f" = {total} stones, expected {owned}"
            )
        if any(not isinstance(s, Stone) for s in p.supply):
            yield f"seat {seat}: the personal supply holds something other than pressure stones"
    shadows = sum(1 for s in state.board if s.seat == SHADOW)
    if shadows and not _solo(state):
        yield f"{shadows} shadow stones on the board in a {len(state.players)}-player game"
    if shadows > owned:
        yield f"{shadows} shadow stones; the shadow colour has {owned} (STM-R-68)"
    for s in state.board:
        if s.seat != SHADOW and s.seat not in _seats(state):
            yield f"a stone of seat {s.seat} on L{s.level}-{s.position}: no such seat"


_invariant("stones-conserved", "STM-R-08", "STM-R-11", "STM-R-20", "STM-R-29", "STM-R-70")(check_stones_conserved)


def check_gauge_items(ctx: Context, state: StmState) -> Iterator[str]:
    """At most one item per gauge space, all strictly right of the base marker; base marker at value 4 or below.

    "One item per space" is structural (a space holds one entry); the check makes sure every
    entry is a stone, a bonus marker or empty and the gauge has the layout's spaces.
    """
    layout = ctx.layout
    for seat, p in enumerate(state.players):
        g = p.gauge
        if len(g.spaces) != len(layout.values):
            yield f"seat {seat}: {len(g.spaces)} gauge spaces, the layout has {len(layout.values)}"
        if not 0 <= g.base <= layout.base_limit:
            yield (
                f"seat {seat}: base marker on space {g.base}; it goes no further than space {layout.base_limit}"
                f" (value {layout.base_max_value})"
            )
        spaces: tuple[object, ...] = g.spaces  # a corrupt state may hold anything
        for i, item in enumerate(spaces):
            if item is None:
                continue
            if not isinstance(item, Stone | BonusMarker):
                yield f"seat {seat}: space {i} holds {item!r}, not one stone or bonus marker"
            elif i <= g.base:
                kind = "stone" if isinstance(item, Stone) else "bonus marker"
                yield f"seat {seat}: a {kind} on space {i}, on or left of the base marker (space {g.base})"


_invariant("gauge-items", "STM-R-14", "STM-R-17")(check_gauge_items)


def check_districts(ctx: Context, state: StmState) -> Iterator[str]:
    """Stones only on the side's districts; one stone per district outside the final round; never two of one colour.

    Exceptions: in the final round (``final_round``) and after the game other colours may share a
    district (STM-R-66); in solo, during FLY (phase FLIGHT), a shadow stone shares the district of
    your stone until you take yours back (STM-R-70).
    """
    exists = {(d.level, d.position) for d in ctx.districts(state)}
    per_district: dict[tuple[int, str], list[int]] = {}
    for s in state.board:
        key = (s.level, s.position)
        if key not in exists:
            yield (
                f"a stone of seat {s.seat} on L{s.level}-{s.position}, which is no district of the "
                f"{state.board_side}-player side ({len(exists)} districts)"
            )
        per_district.setdefault(key, []).append(s.seat)
    final = state.final_round or state.phase is Phase.OVER
    for (level, position), seats in per_district.items():
        where = f"L{level}-{position}"
        for seat, times in Counter(seats).items():
            if times > 1:
                who = "shadow" if seat == SHADOW else f"seat {seat}'s"
                yield f"{times} {who} stones on {where} (STM-R-27/R-66: never on a district holding your own)"
        if len(seats) < 2 or final:
            continue
        shadow_share = _solo(state) and state.phase is Phase.FLIGHT and len(seats) == 2 and set(seats) == {0, SHADOW}
        if not shadow_share:
            yield f"stones of seats {sorted(seats)} share {where} outside the final round"


_invariant("districts-occupied", "STM-R-01", "STM-R-27", "STM-R-66", "STM-R-70")(check_districts)


def check_storage(ctx: Context, state: StmState) -> Iterator[str]:
    """With no store step or effect pending, every player's crystals + gears fit the storage spaces.

    Storage spaces: 3 built in + those on capacity tiles and machines (``ctx.storage``); sponsor
    and gala need none.  Skipped while ``turn.storing`` or ``turn.pending`` or in phase CHANNEL;
    the player to move is also exempt inside a flight step (``turn.step`` not "next"), since the
    store waits for step 4 (STM-R-39) after take-back passives and step 3, and at set-up until
    the machine room is built (STM-R-13: the character effect comes first).
    """
    if _mid_turn_gains_allowed(state):
        return
    for seat, p in enumerate(state.players):
        if seat == state.to_move and state.turn.step != "next":
            continue
        if state.phase is Phase.SETUP_ROOM and p.starting is not None:
            continue  # STM-R-13: the character's resources are stored once the room is built
        spaces = ctx.storage(p)
        if p.crystals + p.gears > spaces:
            yield f"seat {seat} keeps {p.crystals} crystals + {p.gears} gears on {spaces} storage spaces"


_invariant("resources-within-storage", "STM-R-31", "STM-R-32", "STM-R-39", "STM-AMB-19")(check_storage)


def check_resources_conserved(ctx: Context, state: StmState) -> Iterator[str]:
    """15 crystals and 15 gears between the general supply and the players, stored or held (STM-AMB-19
    'next-step': gained and not stored yet, ``PlayerState.held``); no count negative; nothing held
    under 'at-once' (every gain is stored right after its effect)."""
    supplies = ctx.pack.supplies
    for seat, p in enumerate(state.players):
        if min(p.held) < 0:
            yield f"seat {seat} holds {p.held} (crystals, gears) unstored"
        if p.held != (0, 0) and ctx.r("STM-AMB-19") == "at-once":
            yield f"seat {seat} holds {p.held} (crystals, gears) unstored under STM-AMB-19 'at-once'"
    for name, in_supply, held, total in (
        ("crystals", state.supply.crystals, [p.crystals + p.held[0] for p in state.players], supplies.crystals),
        ("gears", state.supply.gears, [p.gears + p.held[1] for p in state.players], supplies.gears),
    ):
        counted = in_supply + sum(held)
        if counted != total:
            yield f"{name}: supply {in_supply} + players {sum(held)} = {counted}, expected {total}"
        if in_supply < 0:
            yield f"the general supply holds {in_supply} {name}"
    for seat, p in enumerate(state.players):
        for name, n in (("crystals", p.crystals), ("gears", p.gears)):
            if n < 0:
                yield f"seat {seat} holds {n} {name}"


_invariant("resources-conserved", "STM-R-21")(check_resources_conserved)


def check_parasites(ctx: Context, state: StmState) -> Iterator[str]:
    """3 parasites per player (home + placed); placed on another player's occupied machine within the limit.

    Per machine at most 2 own parasites with 2 players, 1 with 3-4 (STM-AMB-20 'per-owner'; 'total'
    counts every parasite on the machine); on an activation symbol only if the tile shows a boiler,
    on a passive only if it shows a passive (never on storage).  Solo: beside the stack (host None),
    and ``solo.parasites_beside_stack`` must agree with those parasites (the state records them twice).
    """
    spaces = ctx.pack.airship.parasite_spaces
    n = len(state.players)
    for seat, p in enumerate(state.players):
        placed = sum(1 for x in state.parasites if x.owner == seat)
        if placed + p.parasites_home != spaces or p.parasites_home < 0:
            yield f"seat {seat}: {placed} placed + {p.parasites_home} at home parasites, expected {spaces}"
    for x in state.parasites:
        if x.owner not in _seats(state):
            yield f"a parasite of seat {x.owner}: no such seat"
            continue
        if x.host is None:
            if not _solo(state):
                yield f"seat {x.owner}'s parasite lies beside the stack in a {n}-player game (STM-R-72: solo only)"
            if x.position is not None:
                yield f"seat {x.owner}'s parasite beside the stack names machine position {x.position}"
            continue
        if x.host == x.owner:
            yield f"seat {x.owner}'s parasite sits on its own machine (position {x.position})"
            continue
        if x.host not in _seats(state):
            yield f"seat {x.owner}'s parasite sits on seat {x.host}'s machine: no such seat"
            continue
        room = state.players[x.host].machine_room
        if x.position is None or not 1 <= x.position <= len(room):
            yield f"seat {x.owner}'s parasite on seat {x.host}'s machine position {x.position}: no such position"
            continue
        tile = room[x.position - 1]
        if tile is None:
            yield f"seat {x.owner}'s parasite on seat {x.host}'s empty machine-room position {x.position}"
            continue
        face = ctx.face(tile)
        if x.on == "activation" and not face.boilers:
            yield f"seat {x.owner}'s parasite on the activation of {tile.id} (seat {x.host}), which shows no boiler"
        if x.on == "passive" and face.passive is None:
            yield f"seat {x.owner}'s parasite on the passive of {tile.id} (seat {x.host}), which shows none"
    limit = 2 if n == 2 else 1
    total = ctx.r("STM-AMB-20") == "total"
    crowd = Counter(
        (x.host, x.position) if total else (x.owner, x.host, x.position) for x in state.parasites if x.host is not None
    )
    for key, count in crowd.items():
        if count > limit:
            machine = f"seat {key[-2]}'s machine position {key[-1]}"
            whose = "parasites" if total else f"of seat {key[0]}'s parasites"
            yield f"{count} {whose} on {machine}; at most {limit} with {n} players"
    if state.solo is not None:
        beside = sum(1 for x in state.parasites if x.host is None)
        if state.solo.parasites_beside_stack != beside:
            yield f"solo.parasites_beside_stack is {state.solo.parasites_beside_stack}, {beside} parasites lie there"


_invariant("parasites", "STM-R-12", "STM-R-52", "STM-R-55", "STM-R-72", "STM-AMB-20")(check_parasites)


def check_statues_and_markets(ctx: Context, state: StmState) -> Iterator[str]:
    """Tower-top statues = bought-out statue markets; a statue leaves only an emptied market; at most 3 before the end.

    A statue market is bought out when its tiles are gone (levels 2-8) or both #2 bonus markers
    are gone (level 1, STM-AMB-26 'both-2'; 'first-2': one).  Solo removals (STM-R-71) empty
    markets too, so they are among the bought-out markets: ``solo.removed_markets`` may not exceed
    the tower top, and an emptied market may keep ``statue`` True only in solo, at most once per
    recorded removal.  4-player extra markets have no statue and never count.  Markets a test state
    leaves out are not counted (the state does not require all seven).
    """
    statue_markets = _statue_markets(state)
    levels = Counter(m.level for m in statue_markets)
    for level, times in levels.items():
        if level not in STATUE_LEVELS:
            yield f"a statue market on level {level}; machine markets stand on levels 2-8"
        if times > 1:
            yield f"{times} statue markets on level {level}"
    extra_levels = Counter(m.level for m in state.markets if m.extra)
    for level, times in extra_levels.items():
        if state.board_side != "4" or level not in EXTRA_MARKET_LEVELS or times > 1:
            yield f"{times} extra market(s) on level {level} of the {state.board_side}-player side"
    ranks = sorted(RANK_COUNTS)
    for m in state.markets:
        try:
            got = [ctx.pack.machine(t).rank for t in m.tiles]
        except KeyError as exc:
            yield str(exc.args[0])
            continue
        if m.extra:
            want = [0] if m.tiles else []
        elif state.phase is Phase.DEAL:
            want = ranks[: len(m.tiles)]  # STM-R-03: dealt rank by rank
        else:
            want = ranks[len(ranks) - len(m.tiles) :]  # STM-R-45: bought from the left
        if got != want:
            where = "extra market" if m.extra else "market"
            yield f"the level-{m.level} {where} holds ranks {got}; it holds ranks {want} from the face-up tile on"
    bought_out = sum(1 for m in statue_markets if not m.tiles)
    bonus_out = _bonus_bought_out(ctx, state.bonus)
    bought_out += int(bonus_out)
    if state.tower_top != bought_out:
        yield f"{state.tower_top} statues on the tower top, {bought_out} statue markets bought out"
    kept = 0
    for m in statue_markets:
        if not m.statue and m.tiles:
            yield f"the level-{m.level} market's statue is gone but {len(m.tiles)} tiles still lie on it"
        if m.statue and not m.tiles:
            kept += 1
    if not state.bonus.statue and not bonus_out:
        yield (
            f"the level-1 statue is gone with #2 still in a row (crystal {list(state.bonus.crystal_row)},"
            f" gear {list(state.bonus.gear_row)}; STM-AMB-26 {ctx.r('STM-AMB-26')!r})"
        )
    if state.bonus.statue and bonus_out:
        kept += 1
    removed = state.solo.removed_markets if state.solo is not None else 0
    if kept > removed:
        yield f"{kept} bought-out markets still show their statue ({removed} solo removals recorded)"
    if removed < 0 or removed > state.tower_top:
        yield f"{removed} markets removed in solo, {state.tower_top} statues on the tower top"
    if state.tower_top > ctx.params["statues_to_end"] and not state.end_triggered:
        yield f"{state.tower_top} statues on the tower top before the end was triggered"
    if not 0 <= state.tower_top <= ctx.pack.supplies.statues:
        yield f"{state.tower_top} statues on the tower top; there are {ctx.pack.supplies.statues}"


_invariant("statues-and-markets", "STM-R-02", "STM-R-03", "STM-R-45", "STM-R-64", "STM-R-71", "STM-AMB-26")(
    check_statues_and_markets
)


def check_bonus_markers(ctx: Context, state: StmState) -> Iterator[str]:
    """Rows lose their foremost marker first (STM-AMB-13 'any': any one); 2 white markers per numeral;
    the pink one is character 7's.

    White markers are counted in the rows and on the gauges.
    A marker on a gauge lies on a space printed with its numeral (the pink one's space is not
    known and is not checked).  Boxed markers are not recorded, hence "at most".
    """
    for name, row in (("crystal", state.bonus.crystal_row), ("gear", state.bonus.gear_row)):
        if ctx.r("STM-AMB-13") == "any":  # any marker may leave: the rest keep their printed order
            if row != tuple(n for n in BONUS_NUMERALS if n in row) or len(set(row)) != len(row):
                yield f"the {name} row holds {list(row)}; its markers are distinct numerals in printed order"
        elif row != BONUS_NUMERALS[len(BONUS_NUMERALS) - len(row) :]:
            yield f"the {name} row holds {list(row)}; markers leave it foremost (highest) first"
    white: Counter[int] = Counter()
    pink = 0
    for seat, p in enumerate(state.players):
        for i, item in enumerate(p.gauge.spaces):
            if not isinstance(item, BonusMarker):
                continue
            if item.pink:
                pink += 1
                if not _has_pink(ctx, p):
                    yield f"seat {seat} (character {p.character}) has the pink bonus marker on space {i}"
                if item.numeral != ctx.pack.pink_numeral:
                    yield f"seat {seat}: pink marker #{item.numeral}, the pack's is #{ctx.pack.pink_numeral}"
                continue
            white[item.numeral] += 1
            printed = ctx.layout.numerals[i] if i < len(ctx.layout.numerals) else None
            if printed != item.numeral:
                yield f"seat {seat}: bonus marker #{item.numeral} on space {i}, printed numeral {printed}"
    for numeral in set(white) | set(BONUS_NUMERALS):
        count = white[numeral] + state.bonus.crystal_row.count(numeral) + state.bonus.gear_row.count(numeral)
        if count > 2 or numeral not in BONUS_NUMERALS:
            yield f"{count} white #{numeral} markers in the rows and on the gauges; there are 2 of each of 2-5"
    if pink > 1:
        yield f"{pink} pink bonus markers on the gauges; there is 1"


_invariant("bonus-markers-accounted", "STM-R-04", "STM-R-46", "STM-R-47", "STM-R-71", "STM-AMB-13")(check_bonus_markers)


def _has_pink(ctx: Context, player: PlayerState) -> bool:
    """STM-R-04 / STM-P-05: the character whose set-up gives the pink marker (character 7)."""
    try:
        setup = ctx.pack.character(player.character).setup
    except KeyError:
        return False
    return any(isinstance(part, GainPinkMarker) for part in walk(setup))


def check_machine_tiles(ctx: Context, state: StmState) -> Iterator[str]:
    """Each machine tile is in at most one place (market, machine room, banners); rooms have 7 positions.

    Every room tile exists in the pack; one starting machine at most per player (drawn and held in
    ``starting`` during the set-up, then built in), each drawn once; capacity tiles in machine
    rooms + supply are at most 20 (STM-R-59 removes replaced ones from the game, so the count may
    fall).
    """
    pack = ctx.pack
    positions = pack.machine_room.positions
    starting = {s.id for s in pack.starting_machines}
    where: dict[str, list[str]] = {}
    for m in state.markets:
        for tile in m.tiles:
            where.setdefault(tile, []).append(f"the level-{m.level} {'extra ' if m.extra else ''}market")
    capacity = 0
    starts: Counter[str] = Counter()
    for seat, p in enumerate(state.players):
        if len(p.machine_room) != positions:
            yield f"seat {seat}: a machine room of {len(p.machine_room)} positions, the airship has {positions}"
        own_starts = 0
        for pos, t in enumerate(p.machine_room, start=1):
            if t is None:
                continue
            if t.kind == "machine":
                where.setdefault(t.id, []).append(f"seat {seat}'s machine room")
            elif t.kind == "starting":
                own_starts += 1
                starts[t.id] += 1
                if t.id not in starting:
                    yield f"seat {seat}: starting machine {t.id} at position {pos} is not in pack {pack.name}"
            else:
                capacity += 1
            if t.kind != "machine" and t.side not in (0, 1):
                yield f"seat {seat}: the tile at position {pos} shows side {t.side}"
        if p.starting is not None:
            own_starts += 1
            starts[p.starting] += 1
            if p.starting not in starting:
                yield f"seat {seat} drew starting machine {p.starting}, which is not in pack {pack.name}"
            if state.phase not in SETUP_PHASES:
                yield f"seat {seat} still holds starting machine {p.starting} after the set-up (STM-R-13)"
        if own_starts > 1:
            yield f"seat {seat} has {own_starts} starting machines (STM-R-13: one)"
        for tile in p.banners:
            where.setdefault(tile, []).append(f"seat {seat}'s banners")
    known = {m.id for m in pack.machines}
    for tile, places in where.items():
        if tile not in known:
            yield f"machine tile {tile} ({places[0]}) is not in pack {pack.name}"
        if len(places) > 1:
            yield f"machine tile {tile} is in {len(places)} places: {', '.join(places)}"
    for tile, times in starts.items():
        if times > 1:
            yield f"starting machine {tile} is in {times} machine rooms"
    in_supply = state.supply.capacity_tiles
    if in_supply < 0 or in_supply + capacity > pack.supplies.capacity_tiles:
        yield (
            f"capacity tiles: supply {in_supply} + machine rooms {capacity} = {in_supply + capacity},"
            f" at most {pack.supplies.capacity_tiles}"
        )


_invariant("machine-tiles-once", "STM-R-03", "STM-R-13", "STM-R-21", "STM-R-41", "STM-R-43", "STM-R-59")(
    check_machine_tiles
)


def check_passengers(ctx: Context, state: StmState) -> Iterator[str]:
    """Banker on levels 5-8, stoker on 1-4, or aboard exactly one airship; passenger tiles accounted.

    Under STM-AMB-09 'pick-up' every carried passenger gets off in the same flight, so only the
    player to move carries, in phase FLIGHT, and ``turn.boarded`` names exactly the
    carried passengers.  Tiles: stack + face-up + taken + face-down beside the airships = 16 (solo:
    at most 16, since the state does not count the tiles 'remove tiles' boxes).
    """
    pax = state.passengers
    for who, where, low, high in (("banker", pax.banker, 5, 8), ("stoker", pax.stoker, 1, 4)):
        carriers = [seat for seat, p in enumerate(state.players) if who in p.carrying]
        if where is None:
            if len(carriers) != 1:
                yield f"the {who} is aboard but carried by seats {carriers}"
        else:
            if not low <= where <= high:
                yield f"the {who} stands on level {where}; he travels on levels {low}-{high}"
            if carriers:
                yield f"the {who} stands on level {where} and is carried by seats {carriers}"
    spaces = ctx.pack.airship.passenger_spaces
    fixed = ctx.r("STM-AMB-09") == "pick-up"
    for seat, p in enumerate(state.players):
        if len(p.carrying) > spaces or len(set(p.carrying)) != len(p.carrying):
            yield f"seat {seat} carries {list(p.carrying)} on {spaces} passenger spaces"
        if p.passenger_tiles < 0:
            yield f"seat {seat} has {p.passenger_tiles} passenger tiles"
        if fixed and p.carrying and (seat != state.to_move or state.phase is not Phase.FLIGHT):
            yield f"seat {seat} carries {list(p.carrying)} outside its own flight (phase {state.phase.value})"
    transported = state.turn.transported
    if len(set(transported)) != len(transported):
        yield f"passengers transported more than once this turn: {list(transported)}"
    if state.players and 0 <= state.to_move < len(state.players):
        carrying = state.players[state.to_move].carrying
        again = set(carrying) & set(transported)
        if again:
            yield f"{sorted(again)} carried again after being transported this turn (STM-R-36)"
        boarded = [who for who, _ in state.turn.boarded]
        if fixed and sorted(boarded) != sorted(carrying):
            yield f"turn.boarded names {boarded}, the player to move carries {list(carrying)}"
    if pax.taken is not None and not transported:
        yield f"passenger tile {pax.taken} taken this turn without a transport (STM-R-37)"
    reveal_waits = pax.face_up is None and pax.taken is None and bool(pax.stack)
    # The next tile turns face up in a chance step at the end of the turn (phase REVEAL); none after the game.
    if reveal_waits and state.phase not in (Phase.DEAL, Phase.END_OF_TURN, Phase.REVEAL, Phase.OVER):
        yield f"no face-up passenger tile with {len(pax.stack)} tiles in the stack (STM-R-51)"
    if state.phase is Phase.REVEAL and not reveal_waits:
        yield f"phase REVEAL with face-up tile {pax.face_up} and {len(pax.stack)} tiles in the stack"
    tiles = [*pax.stack, *(t for t in (pax.face_up, pax.taken) if t is not None)]
    known = {t.id for t in ctx.pack.passengers}
    for tile, times in Counter(tiles).items():
        if tile not in known:
            yield f"passenger tile {tile} is not in pack {ctx.pack.name}"
        if times > 1:
            yield f"passenger tile {tile} is in {times} places"
    total = len(tiles) + sum(p.passenger_tiles for p in state.players)
    if total > len(known) or (not _solo(state) and total != len(known)):
        yield (
            f"passenger tiles: {len(tiles)} on the stack + {total - len(tiles)} beside the airships = {total},"
            f" expected {len(known)}"
        )


_invariant("passengers", "STM-R-05", "STM-R-35", "STM-R-36", "STM-R-37", "STM-R-51")(check_passengers)


def check_sponsor_and_gala(ctx: Context, state: StmState) -> Iterator[str]:
    """Sponsor and gala tiles conserved between supply and players; a used sponsor exists; none used at a turn's start.

    "At most 1 sponsor and 1 gala each" is structural: ``PlayerState.sponsor`` and ``gala`` hold
    one tile or none.  Character 5's second sponsor (STM-AMB-34 'two', p.31) is ``sponsor2``: held
    only by character 5 under that reading, and only beside a first one; the tiles counted include it.
    ``sponsor_used`` is "this turn", and a sponsor may be used in any player's turn, so at
    START_OF_TURN no player's flag may still be set.
    """
    supplies = ctx.pack.supplies
    held = sum((p.sponsor is not None) + (p.sponsor2 is not None) for p in state.players)
    if state.supply.sponsors < 0 or state.supply.sponsors + held != len(supplies.sponsors):
        yield f"sponsors: supply {state.supply.sponsors} + players {held}, expected {len(supplies.sponsors)}"
    for i, kind in enumerate(("crystal", "gear")):
        in_supply = state.supply.galas[i]
        galas = sum(1 for p in state.players if p.gala == kind)
        want = supplies.galas.count(kind)
        if in_supply < 0 or in_supply + galas != want:
            yield f"{kind} galas: supply {in_supply} + players {galas}, expected {want}"
    for seat, p in enumerate(state.players):
        if p.sponsor_used and p.sponsor is None:
            yield f"seat {seat} has used a sponsor this turn but owns none"
        if p.sponsor_used and state.phase is Phase.START_OF_TURN:
            yield f"seat {seat}'s sponsor is still marked used as a new turn starts (STM-R-57: once per turn)"
        yield from _second_sponsor_problems(ctx, state, seat, p)


def _second_sponsor_problems(ctx: Context, state: StmState, seat: int, p: PlayerState) -> Iterator[str]:
    """STM-AMB-34 'two': a second sponsor only for character 5 under that reading, beside a first one."""
    if p.sponsor2 is not None:
        if ctx.r("STM-AMB-34") != "two" or p.character != 5:
            yield f"seat {seat} (character {p.character}) holds a second sponsor (STM-AMB-34: only character 5, 'two')"
        if p.sponsor is None:
            yield f"seat {seat} holds a second sponsor but no first"
    elif p.sponsor2_used:
        yield f"seat {seat} has used a second sponsor this turn but owns none"
    if p.sponsor2_used and state.phase is Phase.START_OF_TURN:
        yield f"seat {seat}'s second sponsor is still marked used as a new turn starts (STM-R-57: once per turn)"


_invariant("sponsor-and-gala", "STM-R-21", "STM-R-57", "STM-R-58")(check_sponsor_and_gala)


def check_vp_never_negative(ctx: Context, state: StmState) -> Iterator[str]:
    """VP are never negative; solo: at the losing line (0 VP; 'below-zero': -1) the game is over.

    STM-AMB-28 'below-zero' lets the solo score reach -1, and only in phase OVER.
    """
    below = ctx.r("STM-AMB-28") == "below-zero"
    for seat, p in enumerate(state.players):
        floor = -1 if below and _solo(state) and state.phase is Phase.OVER else 0
        if p.vp < floor:
            yield f"seat {seat} has {p.vp} VP"
    if _solo_lost(ctx, state) and state.phase is not Phase.OVER:
        vp = state.players[0].vp
        yield f"the solo player has {vp} VP in phase {state.phase.value}: the game is lost at once (STM-R-69)"


_invariant("vp-never-negative", "STM-R-09", "STM-R-69", "STM-AMB-28")(check_vp_never_negative)


def check_end_trigger(ctx: Context, state: StmState) -> Iterator[str]:
    """The end is triggered iff a 3rd statue stands on the tower top or the passenger stack is used up.

    "Used up" (STM-AMB-27): 'due' - no face-up tile, none in the stack, none taken this turn;
    'empty' - no face-down tile left.  The conditions never go back, so a set flag always needs
    one of them; a condition without the flag is reported between turns (phases REVEAL,
    START_OF_TURN, ACTION), since R-64 triggers at the end of the turn.  The final round
    (``final_round``) and phase OVER need the flag (OVER also follows a solo loss on time
    pressure, STM-R-69); each seat has one final turn (``final_turns_done``: distinct seats, only
    in the final round or after it, every seat once the game is over); a final-turn step
    (``turn.final_step``) only in the final round.
    """
    statues = state.tower_top >= ctx.params["statues_to_end"]
    used_up = _used_up(ctx, state)
    if state.end_triggered and not (statues or used_up):
        pax = state.passengers
        yield (
            f"the end is triggered with {state.tower_top} statues on the tower top and the passenger stack"
            f" not used up ({len(pax.stack)} in the stack, face-up {pax.face_up}, taken {pax.taken})"
        )
    if (statues or used_up) and not state.end_triggered and state.phase in BETWEEN_TURNS:
        why = f"{state.tower_top} statues on the tower top" if statues else "the passenger stack is used up"
        yield f"{why} but the end is not triggered (phase {state.phase.value})"
    lost = _solo_lost(ctx, state)
    if state.final_round and not state.end_triggered:
        yield "the final round before the end was triggered"
    if state.phase is Phase.OVER and not state.end_triggered and not lost:
        yield "the game is over but its end was never triggered"
    done = state.final_turns_done
    if len(set(done)) != len(done) or any(seat not in _seats(state) for seat in done):
        yield f"final turns done by seats {list(done)}"
    if done and not state.final_round and state.phase is not Phase.OVER:
        yield f"final turns done by seats {list(done)} outside the final round"
    if state.final_round and state.phase is not Phase.OVER and state.to_move in done:
        yield f"seat {state.to_move} takes a second final turn"
    if state.phase is Phase.OVER and not lost and set(done) != set(_seats(state)):
        yield f"the game is over after final turns of seats {list(done)} only"
    if state.turn.final_step is not None and not state.final_round:
        yield f"a final-turn step ({state.turn.final_step}) outside the final round"


_invariant("end-trigger", "STM-R-64", "STM-R-65", "STM-R-66", "STM-R-73", "STM-AMB-27")(check_end_trigger)


def check_solo_turn(ctx: Context, state: StmState) -> Iterator[str]:
    """The turn's solo fields only in solo; 'remove tiles' only after a FLY; its boxed tiles are nowhere else.

    ``turn.time_paid`` (STM-R-69) and ``turn.removal`` / ``turn.removed`` (STM-R-71) stay empty in a
    multiplayer game.  A removal step follows a FLY of this turn (S0 recorded, ``turn.flight_start``)
    and comes at the end of the turn (phases END_OF_TURN, REVEAL, or OVER after it).  While it waits on
    the parasites (``removal`` "parasites") a parasite lies beside the stack unless an effect or store
    step of an earlier one is still resolving (STM-R-72).  A boxed machine tile lies in no market, no
    machine room and no banner row.
    """
    turn = state.turn
    if not _solo(state):
        if turn.time_paid or turn.removal is not None or turn.removed:
            n = len(state.players)
            yield f"solo turn fields in a {n}-player game (time paid {turn.time_paid}, removal {turn.removal})"
        return
    if turn.removal is not None or turn.removed:
        if not turn.flight_start:
            yield f"'remove tiles' ({turn.removal}) in a turn without FLY TO ALL TARGETS"
        if state.phase not in (Phase.END_OF_TURN, Phase.REVEAL, Phase.OVER):
            yield f"'remove tiles' ({turn.removal}) in phase {state.phase.value}, before the end of the FLY"
    beside = state.solo.parasites_beside_stack if state.solo is not None else 0
    if turn.removal == "parasites" and not beside and not turn.pending and not turn.storing:
        yield "'remove tiles' waits on the parasites, but none lies beside the stack"
    if turn.removal == "parasites" and state.phase is not Phase.END_OF_TURN:
        yield f"'remove tiles' waits on the parasites in phase {state.phase.value}"
    elsewhere = {t for m in state.markets for t in m.tiles}
    for p in state.players:
        elsewhere |= {t.id for t in p.machine_room if t is not None and t.kind == "machine"} | set(p.banners)
    for tile in turn.removed:
        if tile in elsewhere:
            yield f"machine tile {tile} was boxed by 'remove tiles' and still lies in play"


_invariant("solo-turn", "STM-R-69", "STM-R-71", "STM-R-72")(check_solo_turn)


# -- the step invariants ----------------------------------------------------------


def check_vp_never_decreases(ctx: Context, before: StmState, after: StmState) -> Iterator[str]:
    """No step lowers a player's VP, except solo time pressure: 1 VP for choosing MAKE STEAM or FLY.

    The state does not record which action was chosen: a solo drop of exactly 1 from phase
    START_OF_TURN or ACTION is accepted (the final turn's MAKE STEAM and FLY cost 1 VP together;
    a second charge in the same final turn is not visible from one step).
    """
    if len(before.players) != len(after.players):
        yield f"{len(before.players)} players before the step, {len(after.players)} after"
        return
    charging = (Phase.START_OF_TURN, Phase.ACTION)
    for seat, (b, a) in enumerate(zip(before.players, after.players, strict=True)):
        if a.vp >= b.vp:
            continue
        if _solo(after) and b.vp - a.vp == 1 and before.phase in charging:
            continue
        yield f"seat {seat}'s VP fell from {b.vp} to {a.vp} (phase {before.phase.value} -> {after.phase.value})"


_step_invariant("vp-never-decreases", "STM-R-69", "STM-AMB-28")(check_vp_never_decreases)


def check_end_stays_triggered(ctx: Context, before: StmState, after: StmState) -> Iterator[str]:
    """Once triggered, the end stays triggered; the final round's record of final turns only grows."""
    if before.end_triggered and not after.end_triggered:
        yield "the end was triggered before the step and is not after it"
    lost = [seat for seat in before.final_turns_done if seat not in after.final_turns_done]
    if lost:
        yield f"seats {lost} had their final turn before the step, not after it"


_step_invariant("end-stays-triggered", "STM-R-64")(check_end_stays_triggered)


def check_tower_top_never_falls(ctx: Context, before: StmState, after: StmState) -> Iterator[str]:
    """Statues never leave the tower top, and face-down passenger tiles never leave their owner."""
    if after.tower_top < before.tower_top:
        yield f"the tower top fell from {before.tower_top} to {after.tower_top} statues"
    if len(before.players) == len(after.players):
        for seat, (b, a) in enumerate(zip(before.players, after.players, strict=True)):
            if a.passenger_tiles < b.passenger_tiles:
                yield f"seat {seat}'s passenger tiles fell from {b.passenger_tiles} to {a.passenger_tiles}"


_step_invariant("tower-top-never-falls", "STM-R-45", "STM-R-51")(check_tower_top_never_falls)
