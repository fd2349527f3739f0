"""Protocol 2: the outcome of a game on the wire, and how two outcomes are compared.

The reference's side is :meth:`Game.outcome` / :meth:`Game.score_parts` in their JSON forms
(:func:`outcome_json`, :func:`scores_json`); the implementation's side is whatever it sent.  The
comparisons return every difference as ``(field path, reference, implementation)``, the path in
the reply's own terms (``termination``, ``scores.0.total``, ``scores.0.airships``, ``winners``,
``tiebreak``), so a finding can name the part of the count that went wrong.  Nothing an
implementation sends can make them raise: a missing or mistyped field is a difference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulecraft.core import A, Game, S, Seat

Difference = tuple[str, Any, Any]
TOTAL = "total"


def scores_json(parts: Mapping[Seat, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Score parts as they travel: seats as strings, each seat's parts with its total."""
    return {str(seat): {str(k): int(v) for k, v in p.items()} for seat, p in sorted(parts.items())}


def outcome_json(game: Game[S, A], state: S) -> dict[str, Any] | None:
    """The reference's outcome of ``state`` on the wire (None: the game is not over)."""
    outcome = game.outcome(state)
    return None if outcome is None else outcome.to_json()


def _seat_keys(table: Mapping[Any, Any]) -> list[str]:
    return sorted({str(k) for k in table}, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k))


def _by_seat(table: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in table.items()}


def compare_scores(ours: Mapping[Any, Mapping[str, int]], theirs: Any, *, path: str = "scores") -> list[Difference]:
    """Every difference between the reference's score parts ``ours`` (seat -> part -> points, seats
    as ints or strings) and the implementation's ``theirs``: per seat its total first, then each
    part either side names.  A seat one side lacks is one difference (``scores.2``)."""
    if not isinstance(theirs, Mapping):
        return [(path, {seat: dict(p) for seat, p in _by_seat(ours).items()}, theirs)]
    mine, yours = _by_seat(ours), _by_seat(theirs)
    out: list[Difference] = []
    for seat in _seat_keys({**mine, **yours}):
        where = f"{path}.{seat}"
        a, b = mine.get(seat), yours.get(seat)
        if a is None or not isinstance(b, Mapping):
            out.append((where, None if a is None else dict(a), b))
            continue
        if a.get(TOTAL) != b.get(TOTAL):
            out.append((f"{where}.{TOTAL}", a.get(TOTAL), b.get(TOTAL)))
        for part in sorted((set(a) | set(b)) - {TOTAL}):
            if a.get(part) != b.get(part):
                out.append((f"{where}.{part}", a.get(part), b.get(part)))
    return out


def _seat_set(winners: Any) -> frozenset[Any] | None:
    if not isinstance(winners, list | tuple):
        return None
    try:
        return frozenset(winners)
    except TypeError:  # unhashable items: not a list of seats
        return None


def compare_outcome(ours: Mapping[str, Any] | None, theirs: Any) -> list[Difference]:
    """Every difference between the reference's outcome ``ours`` (``Outcome.to_json()``, None before
    the end) and the implementation's ``theirs``: the termination rule, each seat's total and parts,
    the winners (as a set: their order carries no meaning), the tie-break rule and, when the
    implementation reports them, each seat's tie-break counts (``ranking``).  One side with an
    outcome and the other without is the single difference ``outcome``."""
    if ours is None or theirs is None or not isinstance(theirs, Mapping):
        return [] if ours is None and theirs is None else [("outcome", None if ours is None else dict(ours), theirs)]
    out: list[Difference] = []
    if ours.get("termination") != theirs.get("termination"):
        out.append(("termination", ours.get("termination"), theirs.get("termination")))
    out += compare_scores(ours.get("scores") or {}, theirs.get("scores"))
    mine, yours = ours.get("winners"), theirs.get("winners")
    if _seat_set(mine) != _seat_set(yours) or _seat_set(yours) is None:
        out.append(("winners", sorted(mine) if isinstance(mine, list | tuple) else mine, yours))
    if ours.get("tiebreak") != theirs.get("tiebreak"):
        out.append(("tiebreak", ours.get("tiebreak"), theirs.get("tiebreak")))
    if ours.get("standing") != theirs.get("standing"):  # a solo rank (absent: the game gives none)
        out.append(("standing", ours.get("standing"), theirs.get("standing")))
    if "ranking" in theirs:  # optional: an implementation that reports its tie-break counts has them checked
        out += _compare_counts(ours.get("ranking") or {}, theirs.get("ranking"), "ranking")
    return out


def _compare_counts(ours: Mapping[Any, Mapping[str, int]], theirs: Any, path: str) -> list[Difference]:
    """Per seat, every count either side names (``ranking.1.tiles``); a seat or table one side lacks is
    one difference."""
    if not isinstance(theirs, Mapping):
        return [(path, {seat: dict(c) for seat, c in _by_seat(ours).items()}, theirs)]
    mine, yours = _by_seat(ours), _by_seat(theirs)
    out: list[Difference] = []
    for seat in _seat_keys({**mine, **yours}):
        a, b = mine.get(seat), yours.get(seat)
        if a is None or not isinstance(b, Mapping):
            out.append((f"{path}.{seat}", None if a is None else dict(a), b))
            continue
        for name in sorted(set(a) | set(b)):
            if a.get(name) != b.get(name):
                out.append((f"{path}.{seat}.{name}", a.get(name), b.get(name)))
    return out


__all__ = ["Difference", "compare_outcome", "compare_scores", "outcome_json", "scores_json"]
