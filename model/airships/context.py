"""What Airships' rules consult (``Context``: the pack, the readings, the rule parameters and what is
kept per configured game) and a target as the rules read it (``TargetInfo``).

Kept apart from rules.py, whose conditions the optional compiled build compiles (docs/speed.md): mypyc
cannot compile an attrs class whose fields have defaults, and these are read, not computed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from rulecraft.model.airships.actions import AttemptTarget
from rulecraft.model.airships.catalogue import PARAMETERS
from rulecraft.model.airships.components import Dice, Pack
from rulecraft.model.airships.pools import Pool

if TYPE_CHECKING:
    from rulecraft.model.airships.rules import Board


@attrs.frozen
class Context:
    """The pack and the readings the rules consult (never a global)."""

    pack: Pack
    readings: dict[str, str] = attrs.field(hash=False, eq=False)
    # The rule parameters (catalogue.PARAMETERS), printed values unless a variant changes them.
    params: dict[str, int] = attrs.field(factory=PARAMETERS.defaults, hash=False, eq=False)
    # The throws an attempt may make, by pool and requirement (``allowed_throws``): the same few come
    # back at every attempt step, and they depend on nothing else the context does not fix.
    throws: dict[tuple[object, ...], tuple[Dice, ...]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # What a board gives (``board_of``), by what AIR-R-12..14 read of the board and the era; emptied
    # when it holds ``board_limit`` boards (a random game meets about 40).
    boards: dict[tuple[object, ...], Board] = attrs.field(factory=dict, init=False, hash=False, eq=False, repr=False)
    # A number per (exchanges, give_fixed, pool) met (``pools``), and the attempts at a target by its
    # reference, its requirement and that number (``attempts``): about 300 numbers, 30,000 entries.
    pool_ids: dict[tuple[object, ...], int] = attrs.field(factory=dict, init=False, hash=False, eq=False, repr=False)
    # The pools of a company (``pools``), by its dice, fixed die and Material card.
    pool_sets: dict[tuple[object, ...], list[tuple[int, bool, Pool, int]]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # A number per list of pool numbers (``pools``: a board's whole choice), keying ``attempts``.
    pool_set_ids: dict[tuple[int, ...], int] = attrs.field(factory=dict, init=False, hash=False, eq=False, repr=False)
    attempts: dict[tuple[object, ...], tuple[AttemptTarget, ...]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # The last throw that went to the bonus step (AIR-R-34/37): its state and its Totals, which that step
    # (``throw_totals``: the chip's check and the Resolve) reads again.
    kept_totals: list[object] = attrs.field(factory=lambda: [None, None], init=False, hash=False, eq=False, repr=False)
    board_limit: int = attrs.field(default=4096, kw_only=True, hash=False, eq=False, repr=False)
    # The targets of the airship stacks' top cards, by the stacks (emptied at ``board_limit``, as the
    # boards), and of the open stages once the Hindenburg is revealed, by the stages' owners
    # (``open_targets``): both change a few times a game, and every attempt step asks for them.
    stack_targets: dict[tuple[tuple[str, ...], ...], tuple[TargetInfo, ...]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    stage_targets: dict[tuple[int | None, ...], tuple[TargetInfo, ...]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # The TargetInfo of a displayed development card, a stack's top airship card or a stage (``open_targets``).
    targets: dict[tuple[str, int, str], TargetInfo] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )
    # The targets of a display row (``open_targets``), by its fields: rows come back far more often than
    # they change.
    rows: dict[tuple[str | None, ...], tuple[TargetInfo, ...]] = attrs.field(
        factory=dict, init=False, hash=False, eq=False, repr=False
    )

    def r(self, amb_id: str) -> str:
        return self.readings[amb_id]

    def p(self, name: str) -> int:
        return self.params[name]


@attrs.frozen
class TargetInfo:
    ref: str
    kind: str  # development | airship | stage
    requirement: Dice
    target: int
    card: str | None = None  # development or airship card id
    index: int = 0  # stack 1-4 or stage 1-4
    # The attempts at this target with each pool of a board's set in turn, by the set's number
    # (``attempt_groups``; the context keeps the targets ``open_targets`` offers).
    groups: dict[int, tuple[AttemptTarget, ...]] = attrs.field(
        factory=dict, init=False, eq=False, hash=False, repr=False
    )
