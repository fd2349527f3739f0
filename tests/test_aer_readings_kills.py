"""Aeroplanes: the readings' own code (issue 22 part 3), played under each reading.

``bench/mutation/readings.py`` counts the mutants on the lines that name an ambiguity.  AER-AMB-26
(digest /work/shared/rules/aeroplanes-aviation-ascendant.md; seed l.114, l.160): under ``reroll``
(default) a Radio Beacons holder decides on a re-throw before the throw is kept; under ``at-once``
the engine failures are taken as the skulls show and the re-throw is offered afterwards, beside
the cover choices, on every throw, a passed one too.  The state: the red 12+ connection
Ethiopia - Kenya (l.87-88), one roll, thrown at exactly 12 (AER-R-20, R-23: it passes).
"""

from __future__ import annotations

import pytest
from test_aer_advantages import beacon_state, step_with
from test_aer_placing import LR1, with_card
from test_aer_rules import give_airport, started

from rulecraft.model.aeroplanes import actions as A
from rulecraft.model.aeroplanes.context import Context
from rulecraft.model.aeroplanes.rules import check, legal_actions
from rulecraft.model.aeroplanes.state import AerState, Phase


def thrown_12(reading: str, beacons: int) -> tuple[Context, AerState]:
    """The single red 12+ roll thrown at 12 (no skull) by a player holding ``beacons`` tiles."""
    ctx = Context.printed(readings={"AER-AMB-26": reading})
    state, _me = beacon_state(beacons, 0)
    state = step_with(ctx, state, A.PlaceAirport(LR1, "Kenya", 0, "Ethiopia"))
    assert state.phase is Phase.RISK_ROLL
    return ctx, step_with(ctx, state, A.RiskThrow(12, 0))


def test_at_once_a_holder_may_still_throw_again_after_a_passed_roll_aer_amb_26() -> None:
    """``at-once`` with one Radio Beacons tile: the throw is kept at once, and the tile's re-throw
    (l.160) stays open after it, so the passed roll does not place the tile yet: the player is
    asked (COVER), and the re-throw is among the choices."""
    ctx, state = thrown_12("at-once", 1)
    assert state.phase is Phase.COVER
    assert A.PlayRadioBeacons() in legal_actions(ctx, state)
    assert A.KeepThrow() not in legal_actions(ctx, state)  # kept already (at once)


@pytest.mark.parametrize("reading", ["reroll", "at-once"])
def test_without_a_tile_a_passed_single_roll_places_at_once_aer_r_23(reading: str) -> None:
    """No Radio Beacons held: a passed last roll leaves nothing to decide (AER-R-23, l.110), so the
    attempt goes straight on to placing the tile, under either reading."""
    _ctx, state = thrown_12(reading, 0)
    assert state.phase is Phase.PLACING


def test_reroll_a_kept_passed_roll_places_at_once_aer_amb_26() -> None:
    """``reroll`` (default) with a Radio Beacons tile: the throw waits for the choice (COVER, the
    throw pending); once kept, no re-throw is left (l.160: re-throws come before keeping), so the
    passed single roll places the tile at once."""
    ctx, state = thrown_12("reroll", 1)
    assert state.phase is Phase.COVER
    assert legal_actions(ctx, state) == [A.PlayRadioBeacons(), A.KeepThrow()]
    state = step_with(ctx, state, A.KeepThrow())
    assert state.phase is Phase.PLACING


@pytest.mark.parametrize("reading", ["allowed", "direct"])
def test_a_hop_into_a_special_connection_under_each_reading_aer_amb_22(reading: str) -> None:
    """AER-AMB-22 (the rulebook is silent, l.77-83 on hops): Amsterdam over London to Casablanca is a
    white leg, then London - Casablanca, a red connection printed as special (pack data).  ``allowed``
    (default): the hop is a legal placement with an LR card's tile (AER-R-17, AER-R-18); ``direct``: a
    special, ‡ or LR-symbol connection is used only as a direct connection into the destination, so
    the same hop is refused under the hop's rule, AER-R-17, and is not offered."""
    ctx = Context.printed(readings={"AER-AMB-22": reading})
    state = started(4, seed=3)
    me = state.to_move
    state = with_card(give_airport(state, me, "Amsterdam"), me, LR1, 2)
    hop = A.PlaceAirport(LR1, "Casablanca", 0, "Amsterdam", "London")
    why = check(ctx, state, hop)
    if reading == "allowed":
        assert why is None, why
        assert hop in legal_actions(ctx, state)
    else:
        assert why is not None and why.rule == "AER-R-17", why
        assert "AER-AMB-22" in why.reason
        assert hop not in legal_actions(ctx, state)
