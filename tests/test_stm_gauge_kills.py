"""A malformed gauge is reported by rule, never a crash (STM-R-14, R-47, p.9 and p.22; issue 22).

The standard gauge has spaces 0..10 (STM-R-14, p.9); bonus numerals are printed on spaces 3..7
(STM-R-47, p.22).  A gauge read from a hostile file can be longer than its layout; checking it
must name STM-R-14 and not read the layout's numerals past its last space.
"""

from __future__ import annotations

from rulecraft.model.steamopolis.gauge import STANDARD_LAYOUT, BonusMarker, Gauge, Stone, gauge_problems


def test_stm_r14_a_gauge_longer_than_its_layout_with_a_marker_past_the_end_is_reported() -> None:
    """STM-R-14 (p.9): 11 spaces. A 12th space holding a bonus marker has no printed numeral to
    compare with (STM-R-47), so the one problem is the length, in words, without an IndexError."""
    spaces = (None, Stone(), None, None, None, None, None, None, None, None, None, BonusMarker(2))
    long_gauge = Gauge(0, spaces)
    assert len(long_gauge.spaces) == len(STANDARD_LAYOUT.values) + 1
    assert gauge_problems(long_gauge) == ["STM-R-14: 12 spaces, the layout has 11"]


def test_stm_r47_a_marker_on_the_last_printed_space_is_still_checked() -> None:
    """STM-R-47 (p.22): space 10 (value 8) carries no numeral, so a white #5 marker there is off
    its printed space; the check still reaches the layout's last space."""
    spaces: tuple[Stone | BonusMarker | None, ...] = (None, Stone()) + (None,) * 8 + (BonusMarker(5),)
    assert gauge_problems(Gauge(0, spaces)) == ["STM-R-47: bonus marker #5 on space 10, printed numeral None"]
