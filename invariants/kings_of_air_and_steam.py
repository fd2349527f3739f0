"""Kings of Air and Steam invariants: named checks returning every violation
at once (like python-chess ``status()``), each citing the rules it protects.

They recount from the state and the pack, never through the transition
code, so that a wrong transition shows up here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulecraft.invariant import InvariantSpec, Registry, Violation, report
from rulecraft.model.kings_of_air_and_steam.components import GOODS
from rulecraft.model.kings_of_air_and_steam.state import KasState, Phase, PlayerState, SlotStatus
from rulecraft.model.kings_of_air_and_steam.transitions import UNLIMITED_SUPPLY, starting_money

if TYPE_CHECKING:
    from rulecraft.model.kings_of_air_and_steam.game import KingsOfAirAndSteamGame


_REGISTRY = Registry()
INVARIANTS: dict[str, InvariantSpec] = _REGISTRY.invariants
_invariant = _REGISTRY.invariant


def check_goods_conserved(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """Per type: supply + factories + holds + depots + cities = the goods at set-up."""
    game_map = game.ctx.map_of(state)
    total = game.pack.goods_per_type if game.ctx.r("KAS-AMB-12") == "capped" else UNLIMITED_SUPPLY
    for g, goods in enumerate(GOODS):
        factories = sum(n for (_, kind), n in zip(game_map.factories, state.factories, strict=True) if kind == goods)
        holds = sum(p.hold[g] for p in state.players)
        depots = sum(d.goods[g] for d in state.depots)
        cities = sum(c.filled - len(c.other) for c in state.cities if c.demand == goods)
        cities += sum(c.other.count(goods) for c in state.cities)
        counted = state.supply[g] + factories + holds + depots + cities
        if counted != total:
            yield (
                f"{goods}: supply {state.supply[g]} + factories {factories} + holds {holds} + depots {depots} "
                f"+ cities {cities} = {counted}, expected {total}"
            )
        negatives = [
            n
            for n in (state.supply[g], *(p.hold[g] for p in state.players), *(d.goods[g] for d in state.depots))
            if n < 0
        ]
        if negatives or any(n < 0 for n in state.factories):
            yield f"{goods}: a negative count of goods somewhere"


_invariant(
    "goods-conserved", "KAS-R-04", "KAS-R-29", "KAS-R-30", "KAS-R-39", "KAS-R-40", "KAS-R-41", "KAS-R-45", "KAS-R-48"
)(check_goods_conserved)


def check_money_conserved(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """The players' money plus the bank's net takings equals the starting money; nobody is below $0."""
    held = sum(p.money for p in state.players)
    start = sum(starting_money(p, game.ctx.p("starting_money")) for p in state.players)
    if held + state.bank != start:
        yield f"players ${held} + bank takings ${state.bank} = ${held + state.bank}, expected ${start}"
    for seat, p in enumerate(state.players):
        if p.money < 0:
            yield f"seat {seat} has ${p.money}"


_invariant(
    "money-conserved", "KAS-R-03", "KAS-R-33", "KAS-R-38", "KAS-R-39", "KAS-R-43", "KAS-R-45", "KAS-R-51", "KAS-R-55"
)(check_money_conserved)


def check_depots_limited(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """At most 10 depots per player (placed + left = 10), one per rail hex, only on rail hexes."""
    game_map = game.ctx.map_of(state)
    seen = set()
    for d in state.depots:
        if d.at in seen:
            yield f"two depots at {d.at}"
        seen.add(d.at)
        if game_map.line_of(d.at) is None:
            yield f"a depot of seat {d.owner} at {d.at}, which is not a rail hex"
        if not 0 <= d.owner < state.player_count:
            yield f"a depot at {d.at} belongs to no seat ({d.owner})"
    for seat, p in enumerate(state.players):
        placed = sum(1 for d in state.depots if d.owner == seat)
        if placed + p.depots_left != 10 or placed > 10 or p.depots_left < 0:
            yield f"seat {seat}: {placed} depots placed + {p.depots_left} left != 10"
    if list(state.depots) != sorted(state.depots, key=lambda d: d.at):
        yield "depots are not kept in hex order"


_invariant("depots-limited", "KAS-R-02", "KAS-R-33", "KAS-R-54")(check_depots_limited)


def check_hold_within_capacity(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """Every cargo hold holds no more than the airship's capacity (KAS-AMB-44 'ignore-capacity':
    Aurelia Bayley's hold may exceed it by one good per converter token spent)."""
    for seat, p in enumerate(state.players):
        capacity = game.ctx.airship_track(p)[p.airship_level - 1].capacity
        beyond = _conversions_beyond_capacity(game, p)
        if sum(p.hold) > capacity + beyond:
            yield f"seat {seat} holds {sum(p.hold)} goods with capacity {capacity} (+{beyond}, KAS-AMB-44)"


_invariant("hold-within-capacity", "KAS-R-29", "KAS-R-30", "KAS-R-34")(check_hold_within_capacity)


CONVERTER_TOKENS = 5  # KAS-R-12: Aurelia Bayley starts with 5 converter tokens


def _conversions_beyond_capacity(game: KingsOfAirAndSteamGame, p: PlayerState) -> int:
    """KAS-AMB-44 'ignore-capacity': each conversion in the hold adds one good past any room;
    loading, swapping and stealing still need room, so nothing else overfills a hold."""
    if game.ctx.r("KAS-AMB-44") != "ignore-capacity" or p.character != "Aurelia Bayley":
        return 0
    return max(0, CONVERTER_TOKENS - p.tokens)


GAMBLER_TOKENS = 5  # KAS-R-78: Sebastian King's five gambler tokens, one per goods type (KAS-AMB-38)


def check_gambler_tokens(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """Used-up gambler tokens are Sebastian King's, only under KAS-AMB-38 'spent': distinct goods
    symbols in goods order, and with the tokens left no more than his five."""
    spent_allowed = game.ctx.r("KAS-AMB-38") == "spent"
    for seat, p in enumerate(state.players):
        if not p.spent_tokens:
            continue
        if not spent_allowed or p.character != "Sebastian King":
            yield f"seat {seat} ({p.character}) has used-up gambler tokens {list(p.spent_tokens)}"
        if p.spent_tokens != tuple(g for g in GOODS if g in p.spent_tokens):
            yield f"seat {seat}: used-up tokens {list(p.spent_tokens)} are not distinct goods in goods order"
        if p.tokens + len(p.spent_tokens) > GAMBLER_TOKENS:
            yield f"seat {seat}: {p.tokens} tokens left + {len(p.spent_tokens)} used up > {GAMBLER_TOKENS}"


_invariant("gambler-tokens", "KAS-R-78")(check_gambler_tokens)


def check_tracks_in_range(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """Airship and rail levels lie on their tracks (1..6; rail from 0 under KAS-AMB-07 'rail-0')."""
    lowest_rail = game.ctx.rail_start()  # KAS-AMB-07: the rail marker's starting space
    for seat, p in enumerate(state.players):
        if not 1 <= p.airship_level <= len(game.pack.airship_track):
            yield f"seat {seat}: airship level {p.airship_level}"
        if not lowest_rail <= p.rail_level <= len(game.pack.rail_track):
            yield f"seat {seat}: rail level {p.rail_level} (KAS-AMB-07 {game.ctx.r('KAS-AMB-07')!r})"


_invariant("tracks-in-range", "KAS-R-34", "KAS-R-35", "KAS-R-56")(check_tracks_in_range)


def check_market_prices(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """Each type's value is pushed one space per tile of its type drawn (KAS-R-16).

    The state keeps only the pushes: a value is read off the track from them (``Context.prices``), so it
    is always a space of the track, and the pushes are what a wrong market gets wrong.
    """
    for g, goods in enumerate(GOODS):
        drawn = _tiles_per_type(game, state) - state.market_pile[g] - state.removed_tiles[g]
        if state.pushes[g] != drawn:
            yield f"{goods}: pushed {state.pushes[g]} times but {drawn} tiles were drawn"


_invariant("market-prices", "KAS-R-16", "KAS-R-56")(check_market_prices)


def _tiles_per_type(game: KingsOfAirAndSteamGame, state: KasState) -> int:
    """KAS-R-05: 3 tiles of each type; KAS-R-06 (Uncertainty): all 4, 5 of the 20 removed unseen."""
    return game.pack.tiles_per_type if state.uncertainty else 3


def check_market_tiles(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """15 tiles (3 per type; 20 with 5 removed under KAS-R-06): pile + slots + demand pile + on cities."""
    for g, goods in enumerate(GOODS):
        on_cities = sum(1 for c in state.cities if c.tile and c.demand == goods)
        counted = state.market_pile[g] + state.market_slots.count(goods) + state.demand_pile[g] + on_cities
        counted += state.removed_tiles[g]
        if counted != _tiles_per_type(game, state):
            yield (
                f"{goods}: pile {state.market_pile[g]} + slots {state.market_slots.count(goods)} + demand pile "
                f"{state.demand_pile[g]} + on cities {on_cities} (+ removed) = {counted}, "
                f"expected {_tiles_per_type(game, state)}"
            )
    if len(state.market_slots) > 3:
        yield f"{len(state.market_slots)} tiles on the 3 future-market slots"


_invariant("market-tiles-accounted", "KAS-R-05", "KAS-R-15", "KAS-R-40", "KAS-R-49")(check_market_tiles)


def check_cities_consistent(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """A city holds no more than its slots; a closed or waiting city holds nothing and accepts nothing."""
    game_map = game.ctx.map_of(state)
    for city, s in zip(game_map.cities, state.cities, strict=True):
        if not 0 <= s.filled <= s.slots:
            yield f"{city.name}: {s.filled} goods on {s.slots} slots"
        if (s.closed or s.waiting) and s.filled:
            yield f"{city.name} is {'closed' if s.closed else 'waiting'} yet holds {s.filled} goods"
        if s.tile and s.slots != 3:
            yield f"{city.name}: a demand tile has 3 slots, not {s.slots}"
        if not s.tile and not s.closed and not s.waiting and s.slots != city.slots:
            yield f"{city.name}: the printed city has {city.slots} slots, not {s.slots}"


_invariant("cities-consistent", "KAS-R-36", "KAS-R-40", "KAS-R-41")(check_cities_consistent)


def check_diamonds_within_rating(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """The executed cards' diamonds never exceed the player's diamond rating."""
    for seat, p in enumerate(state.players):
        spent = sum(
            game.pack.card(c).diamonds for c, st in zip(p.plan, p.slots, strict=True) if st is SlotStatus.EXECUTED
        )
        spent += sum(game.pack.card(c).diamonds for c in p.extra_cards)  # Eli Diamond's cards (KAS-R-83)
        rating = game.ctx.airship_track(p)[p.airship_level - 1].diamonds
        if spent > rating:
            yield f"seat {seat} has {spent} diamonds in play with a rating of {rating}"


_invariant("diamonds-within-rating", "KAS-R-25")(check_diamonds_within_rating)


def check_phase_bookkeeping(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """Round 1..5 (6 after the last Production), cycle 1..4; plans are complete during the cycles,
    and exactly the cards of earlier cycles (and earlier turns of this one) are played or returned."""
    if not 1 <= state.round <= 6:
        yield f"round {state.round}"
    if not 1 <= state.cycle <= 4:
        yield f"cycle {state.cycle}"
    if not 0 <= state.seat < state.player_count:
        yield f"seat {state.seat}"
    if state.phase in (Phase.FLIGHT, Phase.CARGO, Phase.ACTION):
        done_before = set(state.order[: state.turn])
        for seat, p in enumerate(state.players):
            if len(p.plan) != 4 or len(set(p.plan)) != 4:
                yield f"seat {seat} plays a plan of {len(p.plan)} cards"
                continue
            for i, st in enumerate(p.slots, start=1):
                played = st is not SlotStatus.PLANNED
                should = i < state.cycle or (i == state.cycle and seat in done_before)
                if played != should:
                    yield f"seat {seat} slot {i} is {st.value} in cycle {state.cycle}, turn {state.turn}"
        if len(state.market_slots) != 3:
            yield f"{len(state.market_slots)} future-market tiles during the turns"
    if state.phase in (Phase.NEW_MARKET, Phase.UPKEEP, Phase.SELLOUT, Phase.OVER):
        for seat, p in enumerate(state.players):
            if state.phase is not Phase.UPKEEP and p.plan:
                yield f"seat {seat} still holds a plan in {state.phase.value}"
    if (state.cargo is not None) != (state.phase is Phase.CARGO):
        yield f"a load/unload step is {'open' if state.cargo else 'missing'} in phase {state.phase.value}"


_invariant("phase-bookkeeping", "KAS-R-13", "KAS-R-14", "KAS-R-19", "KAS-R-21", "KAS-R-44")(check_phase_bookkeeping)


def check_score_formula(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """Scores are money + 10 per depot + 15 for a level-6 airship + rail 4/5/6 = 5/15/30."""
    rail_vp = {4: 5, 5: 15, 6: 30}
    for seat, p in enumerate(state.players):
        want = p.money + 10 * sum(1 for d in state.depots if d.owner == seat)
        want += 15 if p.airship_level == 6 else 0
        want += rail_vp.get(p.rail_level, 0)
        got = game.scores(state)[seat]
        if got != want:
            yield f"seat {seat} scores {got}, the formula gives {want}"


_invariant("score-formula", "KAS-R-52")(check_score_formula)


def check_teams(game: KingsOfAirAndSteamGame, state: KasState) -> Iterator[str]:
    """The advanced game deals every player a team board of the pack, none twice (KAS-R-08), and each
    shows one of the two characters of its team's card (KAS-R-09); in the base game nobody has one."""
    teams = [p.team for p in state.players]
    if all(t is None for t in teams):
        return
    if None in teams:
        yield f"seats {[s for s, t in enumerate(teams) if t is None]} have no team in an advanced game"
    twice = sorted({t for t in teams if t is not None and teams.count(t) > 1})
    if twice:
        yield f"team(s) {twice} dealt to more than one seat"
    for seat, p in enumerate(state.players):
        if p.team is None:
            continue
        try:
            characters = game.ctx.pack.team(p.team).characters
        except KeyError:
            yield f"seat {seat}'s team {p.team!r} is not in the pack"
            continue
        if p.character not in characters:
            yield f"seat {seat} plays {p.character!r}, not a character of {p.team} ({' or '.join(characters)})"


_invariant("teams-dealt", "KAS-R-08", "KAS-R-09")(check_teams)


def check_all(game: KingsOfAirAndSteamGame, state: KasState) -> list[Violation]:
    """Every violation of every registered invariant, in registry order."""
    return _REGISTRY.check_all(game, state)


__all__ = ["INVARIANTS", "Violation", "check_all", "report"]
