"""Aeroplanes end-of-era and end-of-game scoring as pure functions (digest §3.8, §3.10).

Nothing here changes a state: each function reads an :class:`AerState` and
returns frozen result classes; putting the VPs on the track is the caller's
step (AER-R-49: "VPs are added to the VP track at once").

* :func:`market_majorities` — AER-R-50 (l.165-167): ranks 1 and 2 of each
  market score the market's row of the VPs/Era table; ties by competition
  ranking ("1,1,3", AER-AMB-40).
* :func:`profitability` — AER-R-51/52 (l.169-170): ranks 1..3 score the Profit
  row; ties "skip back" (competition ranking by default, AER-AMB-58).
* :func:`era_scores` — AER-R-49 (l.164-165): both parts, per seat and per source.
* :func:`final_scores` / :func:`final_ranking` / :func:`winners` — AER-R-63/64
  (l.183-186): plane-card and passenger VPs, then the money tie-break.

Readings consulted through ``ctx.r``: AER-AMB-36 (profit counts passenger VP or
passengers), AER-AMB-37 (whose unused capacity counts), AER-AMB-39 (who ranks in
a market, whether the home tile counts), AER-AMB-58 (profit ties of three or
more), AER-AMB-59 (profit scope, non-positive profit), AER-AMB-53 (shared win).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import attrs

from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.state import HOME, AerState, PlayerState, capacity, load

MAJORITY = "majority"  # a source name in EraScores.breakdown: the market's name is appended
PROFIT = "profit"  # the profitability source in EraScores.breakdown


@attrs.frozen
class Place:
    """One seat's place in a scored ranking: ``score`` is what was compared (airport tiles in a market,
    or profit), ``rank`` its place after the tie rule, ``vp`` what the table pays for it."""

    seat: int
    score: int
    rank: int
    vp: int


@attrs.frozen
class Ranking:
    """A scored ranking: ``source`` (a market or "profit"), the table row used (VPs by place) and the
    ranked places, best first (ties by seat).  Seats that do not rank (AER-AMB-39) are absent."""

    source: str
    table: tuple[int, ...]
    places: tuple[Place, ...]

    def vp(self, seat: int) -> int:
        return next((p.vp for p in self.places if p.seat == seat), 0)

    def rank(self, seat: int) -> int | None:
        return next((p.rank for p in self.places if p.seat == seat), None)

    @property
    def awarded(self) -> int:
        return sum(p.vp for p in self.places)


@attrs.frozen
class EraScores(Mapping[int, int]):
    """AER-R-49: one era's scoring.  A mapping seat -> VP gained (``dict(scores)`` is the
    ``dict[seat, int]``), with the breakdown by source kept in ``markets`` and ``profit``."""

    era: int
    seats: int
    markets: tuple[Ranking, ...]
    profit: Ranking

    def __getitem__(self, seat: int) -> int:
        if not 0 <= seat < self.seats:
            raise KeyError(seat)
        return sum(r.vp(seat) for r in self.markets) + self.profit.vp(seat)

    def __iter__(self) -> Iterator[int]:
        return iter(range(self.seats))

    def __len__(self) -> int:
        return self.seats

    def breakdown(self, seat: int) -> dict[str, int]:
        """Per source: ``"majority:<market>"`` for each market, then ``"profit"``."""
        out = {f"{MAJORITY}:{r.source}": r.vp(seat) for r in self.markets}
        out[PROFIT] = self.profit.vp(seat)
        return out


@attrs.frozen
class FinalScore:
    """AER-R-63: a seat's final VP = the track (``track``: every era's scoring already added)
    + its plane cards' VP (owned or discarded) + its passenger tiles' VP (banked or still on cards)."""

    seat: int
    track: int
    cards: int
    passengers: int
    money: int

    @property
    def total(self) -> int:
        return self.track + self.cards + self.passengers


# ---------------------------------------------------------------------------
# Ranking rules
# ---------------------------------------------------------------------------


def competition_ranks(scores: Mapping[int, int]) -> dict[int, int]:
    """Standard competition ranking ("1,1,3"): ``rank(p) = 1 + |{q : score(q) > score(p)}|``.
    The tie rule of the majorities (AER-R-50, l.167; AER-AMB-40) and the profit default (AER-R-52,
    l.169; AER-AMB-58 ``competition``)."""
    return {s: 1 + sum(1 for v in scores.values() if v > score) for s, score in scores.items()}


def one_place_ranks(scores: Mapping[int, int]) -> dict[int, int]:
    """AER-AMB-58 ``one-place`` (l.169 read literally): after a tie of any size the next players are
    pushed back by one position only; after an untied score, by none.  Agrees with competition
    ranking for ties of two (the only printed case, l.170)."""
    out: dict[int, int] = {}
    rank = 1
    for value in sorted(set(scores.values()), reverse=True):
        group = [s for s, v in scores.items() if v == value]
        for s in group:
            out[s] = rank
        rank += 2 if len(group) > 1 else 1
    return out


def rank_places(source: str, scores: Mapping[int, int], table: Sequence[int], *, rule: str = "competition") -> Ranking:
    """Rank ``scores`` (seat -> compared value) under ``rule`` (``competition`` or ``one-place``) and pay
    ``table[rank - 1]`` to ranks within the table (AER-R-50, AER-R-52)."""
    if rule not in ("competition", "one-place"):
        raise ValueError(f"AER-AMB-58: no tie rule {rule!r} (competition or one-place)")
    ranks = competition_ranks(scores) if rule == "competition" else one_place_ranks(scores)
    places = tuple(
        Place(seat, scores[seat], ranks[seat], table[ranks[seat] - 1] if ranks[seat] <= len(table) else 0)
        for seat in sorted(scores, key=lambda s: (ranks[s], s))
    )
    return Ranking(source, tuple(table), places)


# ---------------------------------------------------------------------------
# AER-R-50: market majorities
# ---------------------------------------------------------------------------


def _check_era(era: int) -> None:
    if era not in (1, 2, 3):
        raise ValueError(f"AER-R-01: the game has eras 1 to 3, not {era}")


def market_counts(ctx: Context, state: AerState, market: str) -> dict[int, int]:
    """AER-R-50 (l.167): each seat's airport tiles on the market's destinations; blockers belong to
    nobody; the home tile counts unless AER-AMB-39 = ``no-home``."""
    with_home = ctx.r("AER-AMB-39") != "no-home"
    counts = dict.fromkeys(range(len(state.players)), 0)
    for slots in state.map:
        if ctx.pack.market_of(slots.destination) != market:
            continue
        for a in slots.slots:
            if a is None or a.blocker or not 0 <= a.owner < len(state.players):
                continue
            if a.stage == HOME and not with_home:
                continue
            counts[a.owner] += 1
    return counts


def market_majorities(ctx: Context, state: AerState, era: int) -> tuple[Ranking, ...]:
    """AER-R-50 (l.165-167): per market (Europe, Africa, Asia/Australasia, in the pack's order) the
    ranking by airport tiles there, ranks 1 and 2 paid from the VPs/Era row for ``era``.  Ties
    (l.167): all tied for 1st get the 1st-place VPs and nobody gets 2nd; all tied for 2nd get the
    2nd-place VPs — competition ranking for any tie size (AER-AMB-40).  Who ranks: AER-AMB-39
    (default ``min-1``: at least one tile there; ``zero``: everyone)."""
    _check_era(era)
    everyone = ctx.r("AER-AMB-39") == "zero"
    out = []
    for market in ctx.pack.markets:
        counts = market_counts(ctx, state, market)
        ranked = {s: n for s, n in counts.items() if everyone or n >= 1}
        out.append(rank_places(market, ranked, ctx.pack.majority_vp(market, era)))
    return tuple(out)


# ---------------------------------------------------------------------------
# AER-R-51/52: profitability
# ---------------------------------------------------------------------------


def _passenger_value(ctx: Context, tile: str) -> int:
    """AER-AMB-36: ``vp`` the tile's VP (l.169), ``count`` the passengers it stands for (its size)."""
    p = ctx.pack.passenger(tile)
    return p.vp if ctx.r("AER-AMB-36") == "vp" else p.capacity


def profit(ctx: Context, player: PlayerState) -> int:
    """AER-R-51 (l.169): the passengers carried minus the unused capacity of the player's planes.

    Carried: the tiles on the player's cards (AER-AMB-59 ``this-era``; ``all-time`` adds the banked
    tiles of earlier eras), valued by AER-AMB-36.  Unused: capacity minus load of every card not
    discarded (AER-AMB-37 ``all``: face-down cards of earlier eras and empty cards too; ``face-up``:
    face-up cards only).  Discarded cards are full and count nothing."""
    carried = sum(_passenger_value(ctx, t) for c in player.cards for t in c.passengers)
    if ctx.r("AER-AMB-59") == "all-time":
        carried += sum(_passenger_value(ctx, t) for t in player.banked)
    face_up_only = ctx.r("AER-AMB-37") == "face-up"
    unused = sum(capacity(ctx, c) - load(ctx, c) for c in player.cards if not (face_up_only and c.face_down))
    # AER-R-38: filled capacity earns profit, unused capacity costs it.
    return carried - unused


def rank_profits(ctx: Context, profits: Mapping[int, int], era: int) -> Ranking:
    """AER-R-52 (l.169-170): ranks 1..3 score the Profit row for ``era``; tied players all get the best
    place they share and the next players "skip back" (AER-AMB-58: ``competition`` by default,
    ``one-place`` literally).  AER-AMB-59 ``positive``: a profit of 0 or less takes no paying place
    (it ranks, unpaid)."""
    _check_era(era)
    ranking = rank_places(PROFIT, profits, ctx.pack.profit_vp(era), rule=ctx.r("AER-AMB-58"))
    if ctx.r("AER-AMB-59") == "positive":
        ranking = attrs.evolve(
            ranking, places=tuple(p if p.score > 0 else attrs.evolve(p, vp=0) for p in ranking.places)
        )
    return ranking


def profitability(ctx: Context, state: AerState, era: int) -> Ranking:
    """AER-R-51/52 (l.169-170; example l.170, AER-EX-22): every seat ranked by :func:`profit`, ranks
    1..3 paid from the Profit row of the VPs/Era table for ``era`` with the skip-back tie rule."""
    return rank_profits(ctx, {seat: profit(ctx, p) for seat, p in enumerate(state.players)}, era)


# ---------------------------------------------------------------------------
# AER-R-49: the era's scoring
# ---------------------------------------------------------------------------


def era_scores(ctx: Context, state: AerState, era: int) -> EraScores:
    """AER-R-49 (l.164-165): market majorities (AER-R-50), then profitability (AER-R-51/52).  The
    result maps seat -> VP gained this era; ``breakdown(seat)`` gives it by source."""
    return EraScores(era, len(state.players), market_majorities(ctx, state, era), profitability(ctx, state, era))


# ---------------------------------------------------------------------------
# AER-R-63/64: end of the game
# ---------------------------------------------------------------------------


def final_scores(ctx: Context, state: AerState) -> tuple[FinalScore, ...]:
    """AER-R-63 (l.183-185): to each seat's track VP (era 3's scoring already added, no update run,
    AER-AMB-45) add the VP of every plane card it owns (face up, face down or discarded) and of
    every passenger tile it holds (banked or still on its cards)."""
    out = []
    for seat, p in enumerate(state.players):
        cards = sum(ctx.pack.card(c.number).vp for c in p.cards) + sum(ctx.pack.card(n).vp for n in p.discards)
        tiles = [t for c in p.cards for t in c.passengers] + list(p.banked)
        passengers = sum(ctx.pack.passenger(t).vp for t in tiles)
        out.append(FinalScore(seat, p.vp, cards, passengers, p.money))
    return tuple(out)


def final_ranking(ctx: Context, state: AerState) -> tuple[int, ...]:
    """AER-R-64 (l.186): seats by final VP, most first; ties broken by money, most first.  Seats tied
    on both share their place (AER-AMB-53 ``shared``) and are listed by seat number."""
    scores = final_scores(ctx, state)
    return tuple(f.seat for f in sorted(scores, key=lambda f: (-f.total, -f.money, f.seat)))


def score_parts(ctx: Context, state: AerState, *, final: bool) -> dict[int, dict[str, int]]:
    """The VP per seat by the rulebook's parts.  The VP track holds the ``americas_bonus`` (AER-R-31,
    l.131-132: the bonuses recorded as paid to the seat) and the ``era_scoring`` (AER-R-49..52,
    l.164-170: market majorities and profitability; the rest of the track).  With ``final`` (the game
    is over) AER-R-63 (l.183-185) adds ``plane_cards`` and ``passenger_tiles`` (:func:`final_scores`)."""
    bonus = ctx.pack.americas_bonus.vp
    out: dict[int, dict[str, int]] = {}
    for seat, p in enumerate(state.players):
        americas = bonus * sum(1 for _, paid in state.americas_paid if paid == seat)
        out[seat] = {"americas_bonus": americas, "era_scoring": p.vp - americas}
    if final:
        for f in final_scores(ctx, state):
            out[f.seat] |= {"plane_cards": f.cards, "passenger_tiles": f.passengers}
    for parts in out.values():
        parts["total"] = sum(parts.values())
    return out


def tiebreak(ctx: Context, state: AerState) -> str | None:
    """AER-R-64 (l.186) when money decides between the seats tied on the most final VP; AER-AMB-53
    when they are tied on money too; None when no tie for the win."""
    scores = final_scores(ctx, state)
    best = max(f.total for f in scores)
    leaders = [f for f in scores if f.total == best]
    if len(leaders) < 2:
        return None
    richest = max(f.money for f in leaders)
    return "AER-AMB-53" if sum(1 for f in leaders if f.money == richest) > 1 else "AER-R-64"


def winners(ctx: Context, state: AerState) -> tuple[int, ...]:
    """AER-R-64 (l.186), AER-AMB-53: the seats with the most VP and, among them, the most money;
    more than one seat means a shared victory."""
    scores = final_scores(ctx, state)
    best = max((f.total, f.money) for f in scores)
    return tuple(f.seat for f in scores if (f.total, f.money) == best)


__all__ = [
    "MAJORITY",
    "PROFIT",
    "EraScores",
    "FinalScore",
    "Place",
    "Ranking",
    "competition_ranks",
    "era_scores",
    "final_ranking",
    "final_scores",
    "market_counts",
    "market_majorities",
    "one_place_ranks",
    "profit",
    "profitability",
    "rank_places",
    "rank_profits",
    "score_parts",
    "tiebreak",
    "winners",
]
