"""Aeroplanes: the new-connection risk, exactly (model/aeroplanes/risk.py).

The checks are the rulebook's: the risk table (seed l.94-105), the opponent
modifier (l.110), the skull (l.89), risk examples 1 and 2 (l.119-121, digest
AER-EX-16/17, with the variants the digest lists), the engine-failure collapse
(l.114-117) and Radio Beacons (l.160).  The probabilities are checked against
closed forms and against a brute force that enumerates every face of every die
of every throw (written here independently of the model), and by properties.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulecraft.model.aeroplanes.components import Face, bundled_pack
from rulecraft.model.aeroplanes.readings import REGISTER
from rulecraft.model.aeroplanes.risk import (
    RISK_READINGS,
    AttemptState,
    Cover,
    Leg,
    Opponents,
    OptimalPolicy,
    RiskError,
    RiskResult,
    Roll,
    ScriptedPolicy,
    Throw,
    analyse,
    cover_options,
    direct,
    expected_cost,
    hop,
    play,
    read_faces,
    rolls_for,
    route_from_pack,
    success_probability,
    throw_distribution,
)
from rulecraft.ruleset import UnknownReading

PACK = bundled_pack()
FACES: tuple[Face, ...] = PACK.supplies.risk_die_faces
EX_DICE: list[Sequence[Face]] = [(2, 5, 4), (3, 4, "skull")]  # l.119: roll 1 = 11, roll 2 = 7 and a skull

WHITE, RED, BLACK = Leg("white"), Leg("red"), Leg("black")
FAR_WHITE, FAR_RED, FAR_BLACK = (Leg(c, outside_europe=True) for c in ("white", "red", "black"))


def needs(rolls: Sequence[Roll]) -> tuple[int, ...]:
    return tuple(r.need for r in rolls)


def targets(rolls: Sequence[Roll]) -> tuple[int, ...]:
    return tuple(r.target for r in rolls)


def example_1_rolls(*, opponent_in_kenya: bool = False) -> tuple[Roll, ...]:
    route = route_from_pack(PACK, "Ethiopia", "East Africa", via="Kenya")
    return rolls_for(PACK, route, Opponents(destination=True, hopped=opponent_in_kenya))


# ---------------------------------------------------------------------------
# The dice (l.89, digest section 1 row 8)
# ---------------------------------------------------------------------------


def test_the_skull_counts_zero_and_is_one_engine_failure() -> None:
    """AER-EX-11 (l.89): 3, 5, skull = a total of 8 and 1 engine failure."""
    assert read_faces((3, 5, "skull")) == (8, 1)


def test_throw_distribution_is_exact() -> None:
    throws = throw_distribution(PACK)
    assert sum(t.probability for t in throws) == 1
    assert len({(t.total, t.skulls) for t in throws}) == len(throws)
    by = {(t.total, t.skulls): t.probability for t in throws}
    assert by[(0, 3)] == Fraction(1, 216)
    assert by[(18, 0)] == Fraction(1, 216)
    assert sum(p for (_, s), p in by.items() if s == 0) == Fraction(125, 216)
    # a die shows skull (0), 2, 3, 4, 5, 6: mean 20/6 a die, 10 for three; a skull 1/6 a die
    assert sum(t.probability * t.total for t in throws) == 10
    assert sum(t.probability * t.skulls for t in throws) == Fraction(1, 2)
    # against the raw count of all 216 throws
    raw = sum(1 for f in product(FACES, repeat=3) if read_faces(f)[0] >= 12)
    assert sum(t.probability for t in throws if t.total >= 12) == Fraction(raw, 216)


# ---------------------------------------------------------------------------
# Which rolls apply (AER-R-21/22/25, l.86-110)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("reading", ["hop", "symmetric"])
def test_every_printed_row_of_the_risk_table(reading: str) -> None:
    """l.94-102: the rows for coloured connections, under both readings of the missing rows (AER-AMB-16)."""
    legs = {"white": WHITE, "red": RED, "black": BLACK}
    assert len(PACK.risk.table) == 9
    for row in PACK.risk.table:
        route = direct(legs[row.legs[0]]) if len(row.legs) == 1 else hop(legs[row.legs[0]], legs[row.legs[1]])
        got = rolls_for(PACK, route, readings={"AER-AMB-16": reading})
        assert targets(got) == row.rolls, row
        assert [r.leg for r in got] == ([2] if row.legs[0] == "white" and len(row.legs) == 2 else [1, 2][: len(got)])


def test_single_connections_from_the_map() -> None:
    """AER-EX-08..10, -15 (l.86-88, l.110): white none; red 12+ (10+ with an opponent); black 14+ (12+)."""
    assert rolls_for(PACK, route_from_pack(PACK, "Vienna", "Warsaw")) == ()
    india = route_from_pack(PACK, "Persia", "India")
    burma = route_from_pack(PACK, "Persia", "Burma")
    assert needs(rolls_for(PACK, india)) == (12,)
    assert needs(rolls_for(PACK, india, Opponents(destination=True))) == (10,)
    assert needs(rolls_for(PACK, burma)) == (14,)
    assert needs(rolls_for(PACK, burma, Opponents(destination=True))) == (12,)
    assert all(r.daring_pilot for r in rolls_for(PACK, india))  # India is outside Europe (l.156)


def test_dagger_routes() -> None:
    """l.103-105 (‡ routes), AER-AMB-20: every roll, or only the last, gets the +2."""
    java = route_from_pack(PACK, "Java", "Australia")
    dakar = route_from_pack(PACK, "Dakar", "South America")
    america = route_from_pack(PACK, "Paris", "North America")
    assert america.legs[0].special and america.legs[0].long_range
    assert [needs(rolls_for(PACK, r)) for r in (java, dakar, america)] == [(12, 12), (14, 14), (14, 14, 14)]
    opp = Opponents(destination=True)
    assert [needs(rolls_for(PACK, r, opp)) for r in (java, dakar, america)] == [(10, 10), (12, 12), (12, 12, 12)]
    last = {"AER-AMB-20": "last"}
    assert needs(rolls_for(PACK, america, opp, last)) == (14, 14, 12)


def test_hops_in_path_order() -> None:
    """AER-EX-12..14 (l.90-91): red + red two rolls; white + white one roll of 10+; red then black."""
    assert needs(rolls_for(PACK, hop(RED, RED))) == (12, 12)
    assert needs(rolls_for(PACK, hop(WHITE, WHITE))) == (10,)
    assert needs(rolls_for(PACK, hop(RED, BLACK))) == (12, 14)
    assert needs(rolls_for(PACK, hop(BLACK, RED))) == (14, 12)
    assert [r.index for r in rolls_for(PACK, hop(RED, BLACK))] == [0, 1]


def test_the_hop_example_from_the_map() -> None:
    """AER-EX-07 (l.83): Frankfurt -> Madrid over Paris (reconstructed white + white): one 10+ roll, 8+ with an
    opponent in Madrid (AER-AMB-19 bonus), 10+ under AER-AMB-19=fixed; Europe, so no Daring Pilot."""
    route = route_from_pack(PACK, "Frankfurt", "Madrid", via="Paris")
    assert needs(rolls_for(PACK, route)) == (10,)
    opp = Opponents(destination=True)
    assert needs(rolls_for(PACK, route, opp)) == (8,)
    assert needs(rolls_for(PACK, route, opp, {"AER-AMB-19": "fixed"})) == (10,)
    assert not any(r.daring_pilot for r in rolls_for(PACK, route))
    with pytest.raises(RiskError, match="Frankfurt -> Madrid"):
        route_from_pack(PACK, "Frankfurt", "Madrid")


def test_the_missing_rows() -> None:
    """AER-AMB-16: red + white, black + white, white + black (digest section 7: the 'hop' default)."""
    assert needs(rolls_for(PACK, hop(RED, WHITE))) == (12, 10)
    assert needs(rolls_for(PACK, hop(BLACK, WHITE))) == (14, 10)
    assert needs(rolls_for(PACK, hop(WHITE, BLACK))) == (14,)
    sym = {"AER-AMB-16": "symmetric"}
    assert needs(rolls_for(PACK, hop(RED, WHITE), readings=sym)) == (12,)
    assert needs(rolls_for(PACK, hop(BLACK, WHITE), readings=sym)) == (14,)
    assert needs(rolls_for(PACK, hop(WHITE, BLACK), readings=sym)) == (14,)
    assert needs(rolls_for(PACK, hop(WHITE, WHITE), readings=sym)) == (10,)


def test_opponent_modifier_on_a_hop() -> None:
    """AER-AMB-18 (l.110): leg 1 gets +2 with opponents at both D and M (both); at M alone (per-leg)."""
    route = hop(RED, RED)
    assert needs(rolls_for(PACK, route, Opponents(destination=True))) == (12, 10)
    assert needs(rolls_for(PACK, route, Opponents(destination=True, hopped=True))) == (10, 10)
    assert needs(rolls_for(PACK, route, Opponents(hopped=True))) == (12, 12)
    per_leg = {"AER-AMB-18": "per-leg"}
    assert needs(rolls_for(PACK, route, Opponents(hopped=True), per_leg)) == (10, 12)
    assert needs(rolls_for(PACK, route, Opponents(destination=True), per_leg)) == (12, 10)
    with pytest.raises(RiskError, match="hops over no destination"):
        rolls_for(PACK, direct(RED), Opponents(hopped=True))


def test_hops_with_a_dagger_leg() -> None:
    """AER-AMB-22: allowed (leg 1's list then leg 2's, a ‡ leg keeping its targets) or direct only."""
    java = Leg(None, (12, 12), end="Australia")
    assert needs(rolls_for(PACK, hop(java, WHITE))) == (12, 12, 10)
    assert needs(rolls_for(PACK, hop(RED, java), Opponents(destination=True))) == (12, 10, 10)
    for odd in (java, Leg("red", long_range=True), Leg("red", special=True)):
        with pytest.raises(RiskError, match="AER-AMB-22"):
            rolls_for(PACK, hop(odd, WHITE), readings={"AER-AMB-22": "direct"})
    assert needs(rolls_for(PACK, direct(java), readings={"AER-AMB-22": "direct"})) == (12, 12)


def test_daring_pilot_is_for_outside_europe() -> None:
    """AER-R-42/43 (l.156), AER-AMB-25: judged by D (target) or by each roll's leg end (leg-end)."""
    assert [r.daring_pilot for r in rolls_for(PACK, hop(RED, FAR_RED))] == [True, True]
    assert [r.daring_pilot for r in rolls_for(PACK, hop(FAR_RED, RED))] == [False, False]
    leg_end = {"AER-AMB-25": "leg-end"}
    assert [r.daring_pilot for r in rolls_for(PACK, hop(RED, FAR_RED), readings=leg_end)] == [False, True]
    assert [r.daring_pilot for r in rolls_for(PACK, hop(FAR_RED, RED), readings=leg_end)] == [True, False]


def test_readings_are_checked() -> None:
    assert set(RISK_READINGS) <= {a.id for a in REGISTER}
    with pytest.raises(UnknownReading):
        rolls_for(PACK, direct(RED), readings={"AER-AMB-16": "nonsense"})
    with pytest.raises(UnknownReading):
        rolls_for(PACK, direct(RED), readings={"AER-AMB-99": "x"})
    with pytest.raises(RiskError):
        Leg(None)
    with pytest.raises(RiskError):
        Leg("red", (12,))


# ---------------------------------------------------------------------------
# Risk examples 1 and 2 (l.119-121; AER-EX-16, AER-EX-17)
# ---------------------------------------------------------------------------


def test_risk_example_1() -> None:
    """l.119: red + red into East Africa (an opponent there): 12+ and 10+; (2, 5, 4) = 11, short 1, pay £1
    'before continuing'; (3, 4, skull) = 7 and one engine failure, taken first; short 3, pay £3."""
    rolls = example_1_rolls()
    assert targets(rolls) == (12, 12) and needs(rolls) == (12, 10)
    assert all(r.daring_pilot for r in rolls)  # East Africa is outside Europe (l.121: or a Daring Pilot)
    for policy in ("always-pay", "optimal"):
        trace = play(PACK, rolls, EX_DICE, money=4, policy=policy)
        first, second = trace.steps
        assert (first.total, first.skulls, first.shortfall, first.cover) == (11, 0, 1, Cover(1, 0))
        assert (second.total, second.skulls, second.shortfall, second.cover) == (7, 1, 3, Cover(3, 0))
        assert second.engine_failures == 1
        assert (trace.end, trace.money_spent, trace.engine_failures) == ("placed", 4, 1)


def test_risk_example_2() -> None:
    """l.120: also an opponent in Kenya: 10+, 10+; 11 succeeds; 7 and a skull still costs £3; placed."""
    rolls = example_1_rolls(opponent_in_kenya=True)
    assert needs(rolls) == (10, 10)
    trace = play(PACK, rolls, EX_DICE, money=4)
    assert [s.outcome for s in trace.steps] == ["pass", "cover"]
    assert trace.steps[1].shortfall == 3
    assert (trace.end, trace.money_spent, trace.engine_failures) == ("placed", 3, 1)


@pytest.mark.parametrize(
    ("variant", "pilots", "ef", "covers", "want"),
    [
        # (a) decline after roll 1: tile back on its card, £0, 0 EF (l.111)
        ("a", 0, 0, [None], ("failed", 0, 0, 0)),
        # (b) decline after roll 2: £1 lost, 1 EF kept (l.111)
        ("b", 0, 0, [Cover(1, 0), None], ("failed", 1, 0, 1)),
        # (c) 3 EF before: roll 2's skull is the 4th; collapse, EF discarded, £1 lost (l.114-117)
        ("c", 0, 3, [], ("collapsed", 1, 0, 0)),
        # (d) a Daring Pilot on each roll: +3 >= 1 and +3 >= 3, £0 (l.121, l.156)
        ("d", 2, 0, [Cover(0, 1), Cover(0, 1)], ("placed", 0, 2, 1)),
        # (e) £1 on roll 1, a Daring Pilot on roll 2
        ("e", 1, 0, [Cover(1, 0), Cover(0, 1)], ("placed", 1, 1, 1)),
    ],
)
def test_risk_example_1_variants(
    variant: str, pilots: int, ef: int, covers: list[Cover | None], want: tuple[str, int, int, int]
) -> None:
    """The regression variants of AER-EX-16 (digest)."""
    dice = EX_DICE[:1] if variant == "a" else EX_DICE
    script = ScriptedPolicy(covers=list(covers))
    trace = play(PACK, example_1_rolls(), dice, money=4, pilots=pilots, engine_failures=ef, policy=script)
    assert (trace.end, trace.money_spent, trace.pilots_used, trace.engine_failures) == want


def test_risk_example_1_probabilities() -> None:
    """The attempt of example 1 before the dice: exact numbers (derived, not printed; the brute force below
    agrees).  With enough money only a collapse can stop it: 4 skulls over the two throws (l.114), the skulls
    of a throw being binomial(3, 1/6): P(collapse) = sum over s1 of P(s1) P(s2 >= 4 - s1) = 406/46656."""
    rolls = example_1_rolls()
    rich = analyse(PACK, rolls, money=22)
    skulls = [Fraction(125, 216), Fraction(75, 216), Fraction(15, 216), Fraction(1, 216)]
    collapse = sum(skulls[s1] * sum(skulls[4 - s1 :]) for s1 in range(1, 4))
    assert collapse == Fraction(406, 46656)
    assert rich.success == 1 - collapse
    assert rich.collapse == 1 - rich.success and rich.failure == 0
    four = analyse(PACK, rolls, money=4)  # the example's player has at least £4
    assert four.success == Fraction(28651, 46656)
    assert four.expected_money == Fraction(64663, 46656)
    # with £4 and nothing else, paying whenever possible is optimal
    pay = analyse(PACK, rolls, money=4, policy="always-pay")
    assert (head(pay), pay.rolls) == (head(four), four.rolls)
    assert success_probability(PACK, rolls, money=4) == four.success
    assert expected_cost(PACK, rolls, money=4) == four.expected_cost == four.expected_money
    # example 2: easier, so more likely and cheaper
    two = analyse(PACK, example_1_rolls(opponent_in_kenya=True), money=4)
    assert two.success > four.success and two.expected_money < four.expected_money


# ---------------------------------------------------------------------------
# Engine failures and Radio Beacons (l.114-117, l.160; AER-AMB-26)
# ---------------------------------------------------------------------------


def test_radio_beacons_save_a_fourth_engine_failure() -> None:
    """AER-AMB-26 reroll: the skulls of a thrown-away throw are ignored (l.160), so a throw with two skulls
    and 2 EF held can be re-thrown; under at-once the 4th EF collapses the attempt first."""
    rolls = rolls_for(PACK, direct(FAR_RED))
    dice: list[Sequence[Face]] = [("skull", "skull", 2), (6, 6, 2)]
    trace = play(PACK, rolls, dice, money=0, beacons=1, engine_failures=2, policy="optimal")
    assert [s.outcome for s in trace.steps] == ["reroll", "pass"]
    assert (trace.end, trace.beacons_used, trace.engine_failures) == ("placed", 1, 2)
    at_once = play(
        PACK, rolls, dice[:1], money=0, beacons=1, engine_failures=2, policy="optimal",
        readings={"AER-AMB-26": "at-once"},
    )  # fmt: skip
    assert (at_once.end, at_once.engine_failures) == ("collapsed", 0)


def test_a_white_connection_is_certain_and_free() -> None:
    result = analyse(PACK, (), money=0)
    assert result.success == 1 and result.expected_money == 0 and result.rolls == ()


def test_play_checks_its_dice_and_choices() -> None:
    rolls = example_1_rolls()
    with pytest.raises(RiskError, match="ran out"):
        play(PACK, rolls, EX_DICE[:1], money=4)
    with pytest.raises(RiskError, match="left over"):
        play(PACK, rolls, [*EX_DICE, (6, 6, 6)], money=4)
    with pytest.raises(RiskError, match="not a throw"):
        play(PACK, rolls, [(1, 5, 4)], money=4)
    with pytest.raises(RiskError, match="not one of the covers"):
        play(PACK, rolls, EX_DICE, money=4, policy=ScriptedPolicy(covers=[Cover(2, 0)]))
    with pytest.raises(RiskError, match="never holds 4"):
        analyse(PACK, rolls, money=4, engine_failures=4)
    with pytest.raises(RiskError, match="numbered 0, 1"):
        analyse(PACK, rolls[1:], money=4)
    with pytest.raises(RiskError, match="unknown policy"):
        analyse(PACK, rolls, money=4, policy="greedy")  # type: ignore[arg-type]


def test_abort_before_a_later_roll() -> None:
    """l.112: abort at any time; the £1 paid on roll 1 is lost and the tile goes back onto its card."""
    trace = play(PACK, example_1_rolls(), EX_DICE[:1], money=4, policy=ScriptedPolicy(go_ons=[False]))
    assert [s.outcome for s in trace.steps] == ["cover", "abort"]
    assert (trace.end, trace.money_spent) == ("failed", 1)


def test_cover_options() -> None:
    """Full cover only (AER-AMB-24), money and pilots mixed (l.121), pilots only outside Europe (l.156)."""
    far = rolls_for(PACK, direct(FAR_RED))[0]
    near = rolls_for(PACK, direct(RED))[0]
    assert cover_options(far, 4, 4, 2, 3) == (Cover(4, 0), Cover(1, 1), Cover(0, 2))  # AER-EX-11
    assert cover_options(far, 4, 1, 2, 3) == (Cover(1, 1), Cover(0, 2))
    assert cover_options(near, 4, 3, 2, 3) == ()
    assert cover_options(near, 0, 3, 2, 3) == ()


# ---------------------------------------------------------------------------
# Brute force: every face of every die of every throw, decisions enumerated
# ---------------------------------------------------------------------------

Vec = tuple[Fraction, Fraction, Fraction, Fraction]  # P(placed), E[money], E[pilots], E[beacons]


def brute(
    needs_: Sequence[int],
    dps: Sequence[bool],
    money: int,
    pilots: int,
    beacons: int,
    ef: int,
    *,
    optimal: bool,
) -> Vec:
    """A naive expectimax over the 216 raw throws, no memo; reading AER-AMB-26 reroll.  ``optimal``: the
    lexicographic best (P up, then money, pilots, beacons down); else always pay (money first) and never
    abort or re-throw."""
    p216 = Fraction(1, len(FACES) ** 3)
    zero: Vec = (Fraction(0), Fraction(0), Fraction(0), Fraction(0))

    def key(v: Vec) -> tuple[Fraction, ...]:
        return (v[0], -v[1], -v[2], -v[3])

    def before(i: int, m: int, d: int, b: int, e: int) -> Vec:
        if i == len(needs_):
            return (Fraction(1), Fraction(0), Fraction(0), Fraction(0))
        go = throw(i, m, d, b, e)
        return max([zero, go], key=key) if optimal and i > 0 else go

    def throw(i: int, m: int, d: int, b: int, e: int) -> Vec:
        acc = [Fraction(0)] * 4
        for faces in product(FACES, repeat=3):
            total = sum(f for f in faces if f != "skull")
            skulls = sum(1 for f in faces if f == "skull")
            options = [kept(i, m, d, b, e + skulls, total)]
            if optimal and b > 0:
                again = throw(i, m, d, b - 1, e)
                options.append((again[0], again[1], again[2], again[3] + 1))
            v = max(options, key=key)
            for k in range(4):
                acc[k] += p216 * v[k]
        return (acc[0], acc[1], acc[2], acc[3])

    def kept(i: int, m: int, d: int, b: int, e: int, total: int) -> Vec:
        if e >= 4:
            return zero
        s = needs_[i] - total
        if s <= 0:
            return before(i + 1, m, d, b, e)
        options = [zero] if optimal else []
        for k in range(0, (d if dps[i] else 0) + 1):
            pay = max(0, s - 3 * k)
            if pay <= m and (k == 0 or s - 3 * (k - 1) > 0):
                v = before(i + 1, m - pay, d - k, b, e)
                options.append((v[0], v[1] + pay, v[2] + k, v[3]))
                if not optimal:
                    break
        return max(options, key=key) if optimal else (options[0] if options else zero)

    return before(0, money, pilots, beacons, ef)


def as_rolls(needs_: Sequence[int], dps: Sequence[bool]) -> tuple[Roll, ...]:
    return tuple(Roll(i, 1, n, 0, dp, f"{n}+") for i, (n, dp) in enumerate(zip(needs_, dps, strict=True)))


def head(result: RiskResult) -> Vec:
    return (result.success, result.expected_money, result.expected_pilots, result.expected_beacons)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("needs_", "dps", "money", "pilots", "beacons", "ef"),
    [
        ((12, 10), (True, True), 4, 0, 0, 0),  # risk example 1
        ((12, 10), (True, True), 3, 1, 0, 3),  # example 1 with 3 EF held and a pilot
        ((10, 10), (False, False), 2, 0, 0, 1),  # example 2 in Europe
        ((14,), (True,), 3, 1, 1, 2),  # one black roll with a beacon
        ((12,), (False,), 0, 0, 2, 0),  # beacons only
    ],
)
def test_recursion_equals_brute_force(
    needs_: tuple[int, ...], dps: tuple[bool, ...], money: int, pilots: int, beacons: int, ef: int
) -> None:
    rolls = as_rolls(needs_, dps)
    if beacons < 2:
        opt = analyse(PACK, rolls, money=money, pilots=pilots, beacons=beacons, engine_failures=ef)
        assert head(opt) == brute(needs_, dps, money, pilots, beacons, ef, optimal=True)
    pay = analyse(PACK, rolls, money=money, pilots=pilots, beacons=beacons, engine_failures=ef, policy="always-pay")
    assert head(pay) == brute(needs_, dps, money, pilots, beacons, ef, optimal=False)


def test_backward_values_equal_the_forward_measure() -> None:
    rolls = example_1_rolls()
    policy = OptimalPolicy(PACK, rolls)
    for money, pilots, beacons, ef in [(0, 0, 0, 0), (4, 1, 1, 2), (9, 2, 2, 3)]:
        result = analyse(PACK, rolls, money=money, pilots=pilots, beacons=beacons, engine_failures=ef)
        assert head(result) == policy.value(0, money, pilots, beacons, ef)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

NEEDS = st.lists(st.sampled_from([8, 10, 12, 14]), min_size=1, max_size=3)


Attempt = tuple[tuple[Roll, ...], int, int, int, int]  # rolls, money, pilots, beacons, engine failures


@st.composite
def attempts(draw: st.DrawFn) -> Attempt:
    needs_ = draw(NEEDS)
    dps = draw(st.lists(st.booleans(), min_size=len(needs_), max_size=len(needs_)))
    return (
        as_rolls(needs_, dps),
        draw(st.integers(0, 8)),
        draw(st.integers(0, 2)),
        draw(st.integers(0, 1)),
        draw(st.integers(0, 3)),
    )


def run(rolls: Sequence[Roll], m: int, d: int, b: int, e: int, policy: str = "optimal", **kw: str) -> RiskResult:
    return analyse(PACK, rolls, money=m, pilots=d, beacons=b, engine_failures=e, policy=policy, readings=kw)  # type: ignore[arg-type]


@settings(max_examples=15)
@given(attempts(), st.sampled_from(["optimal", "always-pay"]))
def test_results_are_probabilities_and_add_up(attempt: Attempt, policy: str) -> None:
    rolls, m, d, b, e = attempt
    r = run(rolls, m, d, b, e, policy)
    for x in (r.success, r.failure, r.collapse):
        assert 0 <= x <= 1
    assert r.success + r.failure + r.collapse == 1
    assert 0 <= r.expected_money <= m and 0 <= r.expected_pilots <= d and 0 <= r.expected_beacons <= b
    assert 0 <= r.expected_engine_failures <= 3
    assert sum(s.declined + s.aborted_before for s in r.rolls) == r.failure
    assert sum(s.collapsed for s in r.rolls) == r.collapse
    for s, nxt in zip(r.rolls, [*r.rolls[1:], None], strict=True):
        assert s.reached == s.passed + s.covered + s.declined + s.collapsed
        ahead = s.passed + s.covered
        assert (nxt.reached + nxt.aborted_before if nxt else r.success) == ahead


@settings(max_examples=12)
@given(attempts(), st.sampled_from(["optimal", "always-pay"]))
def test_more_money_or_pilots_never_lowers_success(attempt: Attempt, policy: str) -> None:
    rolls, m, d, b, e = attempt
    base = run(rolls, m, d, b, e, policy).success
    assert run(rolls, m + 1, d, b, e, policy).success >= base
    assert run(rolls, m, d + 1, b, e, policy).success >= base
    if e < 3:
        assert run(rolls, m, d, b, e + 1, policy).success <= base


@settings(max_examples=12)
@given(attempts())
def test_optimal_is_best(attempt: Attempt) -> None:
    rolls, m, d, b, e = attempt
    best = run(rolls, m, d, b, e)
    assert best.success >= run(rolls, m, d, b, e, "always-pay").success
    assert run(rolls, m, d, b + 1, e).success >= best.success  # a Radio Beacon never hurts
    # reading AER-AMB-26=at-once is never kinder: thrown-away skulls count too
    assert run(rolls, m, d, b, e, **{"AER-AMB-26": "at-once"}).success <= best.success
    if b == 0:
        assert run(rolls, m, d, b, e, **{"AER-AMB-26": "at-once"}) == best


@settings(max_examples=10)
@given(attempts(), st.data())
def test_play_keeps_the_books(attempt: Attempt, data: st.DataObject) -> None:
    """An attempt played with drawn dice under the optimal policy: what it spends is what its steps cover,
    engine failures are the kept throws' skulls (l.114, l.160), and it is placed iff every roll is made."""
    rolls, m, d, b, e = attempt
    dice: list[Sequence[Face]] = []
    policy = OptimalPolicy(PACK, rolls)
    while True:  # draw throws until the attempt ends
        try:
            trace = play(PACK, rolls, dice, money=m, pilots=d, beacons=b, engine_failures=e, policy=policy)
            break
        except RiskError as exc:
            assert "ran out" in str(exc)
            dice.append(tuple(data.draw(st.sampled_from(FACES)) for _ in range(3)))
    covers = [s.cover for s in trace.steps if s.cover is not None]
    assert trace.money_spent == sum(c.money for c in covers) <= m
    assert trace.pilots_used == sum(c.pilots for c in covers) <= d
    assert trace.beacons_used == sum(1 for s in trace.steps if s.outcome == "reroll") <= b
    kept = sum(s.skulls for s in trace.steps if s.outcome not in ("reroll", "abort"))
    assert trace.engine_failures == (0 if trace.end == "collapsed" else e + kept)
    assert trace.placed == (sum(1 for s in trace.steps if s.outcome in ("pass", "cover")) == len(rolls))


def test_optimal_prefers_pilots_to_money_on_a_tie() -> None:
    """Ties in P(placed) go to the lower expected money: the last roll, short 3, with £3 and a pilot."""
    roll = as_rolls((12,), (True,))[0]
    policy = OptimalPolicy(PACK, (roll,))
    state = AttemptState(roll, 3, 1, 0, 0)
    options = cover_options(roll, 3, 3, 1, 3)
    assert policy.cover(state, 3, options) == Cover(0, 1)
    assert not policy.reroll(state, Throw(9, 0, Fraction(0)))
