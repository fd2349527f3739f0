"""Airships scenario vocabulary: the ``given:`` block and the derived facts.

``given`` describes only what an example needs; everything else comes from
defaults that keep the state a valid game (every card somewhere, every chip
counted)::

    given:
      players: 2                 # 2..4, default 2
      start_seat: 0              # the start player (3 chips; others 4)
      seat: 0                    # whose go it is (default: start_seat)
      phase: attempt             # attempt | reveal | extra-go (default attempt)
      era: 1                     # 2 flips the entrepreneur tiles (era tile out)
      setup: false               # true: a fresh new game (set-up draws to force)
      boards:
        0: {cards: [E1-HAN-2], chips: 1, supply: 5, airships: [L1]}
      display: [E1-ENG-1]        # placed by the placement rule, in order
      rows: {hangar: [E1-HAN-1, null, E1-HAN-3]}   # exact row contents
      stacks: [[D1, M1, L1], [D2, M2, L2], [D3, M3, L3], [D4, M4, L4]]
      wooden_airship: 0
      hindenburg: true
      stages: {2: 1}             # stage -> owner seat
      deck: {era1: [...], era2: [...]}   # default: every card not placed elsewhere
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft.model.airships.components import DEPARTMENT_INDEX, TIERS, Department
from rulecraft.model.airships.rules import company, open_targets
from rulecraft.model.airships.state import AirState, Phase
from rulecraft.model.airships.transitions import place
from rulecraft.scenarios.runner import ScenarioError

if TYPE_CHECKING:
    from rulecraft.model.airships.game import AirshipsGame

_GIVEN_KEYS = {
    "players",
    "start_seat",
    "seat",
    "phase",
    "era",
    "setup",
    "boards",
    "display",
    "rows",
    "stacks",
    "wooden_airship",
    "hindenburg",
    "stages",
    "deck",
}
_BOARD_KEYS = {"cards", "chips", "supply", "airships"}
_PHASES = {"attempt": Phase.ATTEMPT, "reveal": Phase.REVEAL, "extra-go": Phase.EXTRA_GO}


def state_from_given(game: AirshipsGame, given: Mapping[str, Any]) -> AirState:
    unknown = set(given) - _GIVEN_KEYS
    if unknown:
        raise ScenarioError(f"given: unknown field(s) {sorted(unknown)}; known: {sorted(_GIVEN_KEYS)}")
    ctx, pack = game.ctx, game.pack
    players = _int(given, "players", 2)
    start = _int(given, "start_seat", 0)
    try:
        state = game.new_game(players, first_seat=start)
    except Exception as exc:
        raise ScenarioError(f"given.players/start_seat: {exc}") from None
    if given.get("setup"):
        extra = set(given) - {"players", "start_seat", "setup"}
        if extra:
            raise ScenarioError(f"given: with setup: true only players and start_seat apply, not {sorted(extra)}")
        return state

    placed: set[str] = set()

    def claim(card: str, where: str, *, dev: bool = True) -> str:
        try:
            pack.development(card) if dev else pack.airship(card)
        except KeyError:
            raise ScenarioError(f"{where}: unknown {'development' if dev else 'airship'} card {card!r}") from None
        if card in placed:
            raise ScenarioError(f"{where}: card {card} is placed twice")
        placed.add(card)
        return card

    # Airship stacks: given, or dealt in id order (dark, medium, light).
    if "stacks" in given:
        stacks_in = given["stacks"]
        if not isinstance(stacks_in, list) or len(stacks_in) != 4:
            raise ScenarioError("given.stacks: four lists of airship card ids, bottom to top")
        stacks = tuple(
            tuple(claim(c, f"given.stacks[{i}]", dev=False) for c in stack) for i, stack in enumerate(stacks_in)
        )
    else:
        tiers = {t: pack.tier(t) for t in TIERS}
        stacks = tuple(tuple(tiers[t][i] for t in TIERS) for i in range(4))
        placed.update(c for s in stacks for c in s)

    boards = list(state.boards)
    supplies = list(state.supplies)
    stage_owner: list[int | None] = [None] * 4
    for key, owner in (given.get("stages") or {}).items():
        index = int(key)
        if not 1 <= index <= 4 or not 0 <= int(owner) < players:
            raise ScenarioError(f"given.stages.{key}: stage 1..4 owned by a seat 0..{players - 1}")
        stage_owner[index - 1] = int(owner)
    board_specs = given.get("boards") or {}
    for key, spec in board_specs.items():
        seat = int(key)
        if not 0 <= seat < players:
            raise ScenarioError(f"given.boards.{key}: no seat {seat} with {players} players")
        if not isinstance(spec, Mapping) or set(spec) - _BOARD_KEYS:
            raise ScenarioError(f"given.boards.{key}: fields are {sorted(_BOARD_KEYS)}")
        departments: list[str | None] = [None] * 6
        for j, card in enumerate(spec.get("cards", [])):
            claim(card, f"given.boards.{key}.cards[{j}]")
            index = DEPARTMENT_INDEX[pack.development(card).department]
            if departments[index] is not None:
                raise ScenarioError(
                    f"given.boards.{key}.cards[{j}]: a second {pack.development(card).department.value} card (AIR-R-11)"
                )
            departments[index] = card
        airships = tuple(claim(c, f"given.boards.{key}.airships", dev=False) for c in spec.get("airships", []))
        board = attrs.evolve(boards[seat], departments=tuple(departments), airships=airships)
        if "chips" in spec:
            board = attrs.evolve(board, chips=int(spec["chips"]))
        boards[seat] = board
    markers = [sum(1 for o in stage_owner if o == s) for s in range(players)]
    if len(supplies) == players:  # per nation (AIR-AMB-02)
        for seat in range(players):
            spec = board_specs.get(seat, board_specs.get(str(seat), {})) or {}
            default = pack.chips_per_nation - boards[seat].chips - markers[seat]
            supplies[seat] = int(spec.get("supply", default))
    else:
        nations = 4 if ctx.r("AIR-AMB-03") == "all" else players
        supplies[0] = pack.chips_per_nation * nations - sum(b.chips for b in boards) - sum(markers)

    era = _int(given, "era", 1)
    state = attrs.evolve(
        state,
        boards=tuple(boards),
        supplies=tuple(supplies),
        stacks=stacks,
        era=era,
        era_tile_in_deck=era == 1,
        stages=tuple(stage_owner),
        markers=tuple(owner is not None for owner in stage_owner),
        hindenburg=bool(given.get("hindenburg", any(not s for s in stacks))),
        wooden_airship=given.get("wooden_airship"),
        starters_undealt=(),
    )
    # Display: exact rows, then cards placed by the rule.
    display = [list(row) for row in state.display]
    for dept_name, row in (given.get("rows") or {}).items():
        try:
            dept = Department(dept_name)
        except ValueError:
            raise ScenarioError(f"given.rows.{dept_name}: not a department ({[d.value for d in Department]})") from None
        if not isinstance(row, list) or len(row) != 3:
            raise ScenarioError(f"given.rows.{dept_name}: three fields (card id or null)")
        for j, card in enumerate(row):
            if card is not None:
                claim(card, f"given.rows.{dept_name}[{j}]")
                if pack.development(card).department is not dept:
                    home = pack.development(card).department.value
                    raise ScenarioError(f"given.rows.{dept_name}[{j}]: {card} belongs in the {home} row")
        display[DEPARTMENT_INDEX[dept]] = list(row)
    state = attrs.evolve(state, display=tuple(tuple(r) for r in display))
    for j, card in enumerate(given.get("display") or []):
        claim(card, f"given.display[{j}]")
        state = place(ctx, state, card)
    # The deck: given, or every card not placed elsewhere.
    deck = given.get("deck") or {}
    era1 = tuple(claim(c, "given.deck.era1") for c in deck.get("era1", [])) if "era1" in deck else None
    era2 = tuple(claim(c, "given.deck.era2") for c in deck.get("era2", [])) if "era2" in deck else None
    rest1 = tuple(c for c in pack.group("era1") if c not in placed)
    rest2 = tuple(c for c in pack.group("era2") if c not in placed)
    if era1 is None:
        era1 = rest1 if era == 1 else ()
    if era2 is None:
        era2 = rest2
    placed.update(era1, era2)
    removed = tuple(state.removed) + tuple(c.id for c in pack.developments if c.id not in placed)
    airships_out = tuple(sorted(c.id for c in pack.airships if c.id not in placed))
    seat = _int(given, "seat", start)
    phase_name = given.get("phase", "attempt")
    if phase_name not in _PHASES:
        raise ScenarioError(f"given.phase: {phase_name!r} is not one of {sorted(_PHASES)}")
    return attrs.evolve(
        state,
        deck_era1=tuple(sorted(era1)),
        deck_era2=tuple(sorted(era2)),
        removed=removed,
        airships_undealt=airships_out,
        seat=seat,
        phase=_PHASES[phase_name],
        goes=1,
    )


def _int(given: Mapping[str, Any], key: str, default: int) -> int:
    value = given.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ScenarioError(f"given.{key}: a whole number, got {value!r}")
    return value


def facts(game: AirshipsGame, state: AirState) -> dict[str, Any]:
    """Derived values for scenario expectations (``path: dice.0`` etc.)."""
    seats = range(state.players)
    dice: dict[int, dict[str, int]] = {}
    fixed: dict[int, str | None] = {}
    for seat in seats:
        comp = company(game.ctx, state, seat)
        dice[seat] = {c.value: n for c, n in comp.dice.items()}
        fixed[seat] = f"{comp.fixed.colour.value}{comp.fixed.value}" if comp.fixed else None
    out: dict[str, Any] = {
        "dice": dice,
        "fixed": fixed,
        "score": game.scores(state),
        "airships_built": {s: game.airships_built(state, s) for s in seats},
        "displayed": sum(1 for row in state.display for c in row if c is not None),
        "stack_sizes": [len(s) for s in state.stacks],
        "tops": [s[-1] if s else None for s in state.stacks],
    }
    if state.phase is Phase.ATTEMPT:
        legal = {a.target for a in game.legal_actions(state) if hasattr(a, "target")}
        out["legal_targets"] = sorted(legal)
        out["open_targets"] = [t.ref for t in open_targets(game.ctx, state)]
    if state.phase is Phase.OVER:
        out["winners"] = list(game.winners(state))
    return out
