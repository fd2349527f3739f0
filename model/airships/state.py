"""Airships state: frozen, hashable data with a repr that is valid Python.

The state holds card IDs only; the configured game (its pack and ruleset)
interprets them.  Nothing here mutates: transitions return new states.
"""

from __future__ import annotations

from enum import Enum

import attrs

from rulecraft.evolve import evolver
from rulecraft.model.airships.components import Dice


class Phase(str, Enum):
    """Where in the game the next decision falls."""

    DEAL_AIRSHIPS = "deal-airships"  # chance: AIR-R-03
    DEAL_STARTERS = "deal-starters"  # chance: AIR-R-05
    FILL_DISPLAY = "fill-display"  # chance: AIR-R-06
    REVEAL = "reveal"  # chance: step 1, AIR-R-23
    ATTEMPT = "attempt"  # seat: step 2, choose target, exchange, dice (AIR-R-26..30)
    THROW = "throw"  # chance: the dice (AIR-R-32)
    BONUS = "bonus"  # seat: spend a chip (AIR-R-37), optional bonuses (AIR-AMB-12)
    EXTRA_GO = "extra-go"  # seat: pay 3 chips for another go (AIR-R-42)
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


# The phases under plain module names, for the hot paths: reading a member off an Enum class costs about
# 0.2 µs under Python 3.11 (EnumType's __getattr__ puts every class attribute read through a Python-level
# hook) against a few hundredths for a module name, and a step compares its phase several times (issue 18).
DEAL_AIRSHIPS = Phase.DEAL_AIRSHIPS
DEAL_STARTERS = Phase.DEAL_STARTERS
FILL_DISPLAY = Phase.FILL_DISPLAY
REVEAL = Phase.REVEAL
ATTEMPT = Phase.ATTEMPT
THROW = Phase.THROW
BONUS = Phase.BONUS
EXTRA_GO = Phase.EXTRA_GO
OVER = Phase.OVER


@attrs.frozen
class CompanyBoard:
    """One company (AIR-R-11): a card per department field, owned airship
    cards bottom to top, and the chips on the board."""

    nation: str
    departments: tuple[str | None, ...] = (None,) * 6
    airships: tuple[str, ...] = ()
    chips: int = 0
    # The extra red dice successes have brought (AIR-AMB-01 'every-success');
    # they count like card dice (AIR-R-12).  Always 0 under the other readings.
    extra_red_dice: int = 0
    # Cards won during the current turn, whose effects wait for the player's
    # next regular go (AIR-AMB-26 'next-turn').  Always empty under 'next-throw'.
    won_this_turn: tuple[str, ...] = ()


@attrs.frozen
class Attempt:
    """A declared attempt (AIR-R-28): the target cannot change after the throw."""

    target: str
    exchanges: int
    give_fixed: bool
    throw: Dice
    faces: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None = None


# slots=False: a frozen class with a __dict__ gets an __init__ that fills the dict directly, where a
# slotted one calls object.__setattr__ once per field (20 fields, a state or more at every step).
@attrs.frozen(cache_hash=True, slots=False)
class AirState:
    phase: Phase
    boards: tuple[CompanyBoard, ...]
    # Chip supplies: one per seat's nation (AIR-AMB-02 'nation'), or a single
    # shared pool at index 0 ('pool').
    supplies: tuple[int, ...]
    # Airship stacks, bottom to top (AIR-R-03).
    stacks: tuple[tuple[str, ...], ...] = ((), (), (), ())
    # Airship cards not dealt: during set-up the cards still to deal; after
    # it, the 6 removed unseen (AIR-R-03).
    airships_undealt: tuple[str, ...] = ()
    starters_undealt: tuple[str, ...] = ()
    # The deck as unordered segments: draws are chance decisions (AIR-R-04).
    deck_era1: tuple[str, ...] = ()
    era_tile_in_deck: bool = True
    deck_era2: tuple[str, ...] = ()
    # Six rows (department order), three fields each; None is an empty field.
    display: tuple[tuple[str | None, ...], ...] = ((None, None, None),) * 6
    removed: tuple[str, ...] = ()  # development cards out of the game
    era: int = 1
    wooden_airship: int | None = None
    hindenburg: bool = False
    stages: tuple[int | None, ...] = (None, None, None, None)
    # A chip lies on the completed stage as its marker (AIR-R-45).  False for
    # an owned stage only under AIR-AMB-02 'pool' when no chip was left in the
    # pool or on the board (AIR-AMB-29 'record': ownership is still recorded).
    markers: tuple[bool, ...] = (False, False, False, False)
    seat: int = 0
    start_seat: int = 0
    goes: int = 0
    attempt: Attempt | None = None
    # Reveal the next card after the era tile (AIR-AMB-15 'next').
    reveal_again: bool = False
    # Set by the end check (AIR-R-47): 'a' (airship fields) or 'b' (stage 4).
    ended: str | None = None

    @property
    def players(self) -> int:
        return len(self.boards)


# A random game copies a state one to three times a step: bound once, the shared copy by the fields' dict
# (AirState is slots=False and has no validator, converter or post-init; rulecraft.evolve).
evolve_state = evolver(AirState)
