"""Shards: a campaign's work split across workers without overlap (issue 21, part 2).

A campaign (``conform``, ``ambiguities``, ``errata``) lists its work as named *units* in a fixed
order that depends only on the campaign's options (never on time or on the machine): a printed
example, a lane of differential games, an (ambiguity, reading) pair, a block of random games.
Each unit name starts with its kind (``example:``, ``lane:``, ``pair:``...).  Shard ``I/N`` takes,
within each kind, the units whose index is ``I - 1`` modulo ``N``: shards 1..N together take every
unit exactly once, and every kind is spread over the shards.  The same seed and shard give the
same units, and so the same work, on any machine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import attrs


@attrs.frozen
class Shard:
    """Shard ``index`` of ``count`` (1 <= index <= count)."""

    index: int = 1
    count: int = 1

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    @property
    def whole(self) -> bool:
        return self.count == 1

    def select(self, units: Sequence[str]) -> list[str]:
        """This shard's units of ``units``, in their order (see the module docstring)."""
        seen: dict[str, int] = {}
        out = []
        for unit in units:
            kind = unit.split(":", 1)[0]
            i = seen.get(kind, 0)
            seen[kind] = i + 1
            if i % self.count == self.index - 1:
                out.append(unit)
        return out


WHOLE = Shard(1, 1)
MAX_SHARDS = 10_000  # far above any farm of workers; keeps a merge's count of missing shards small


def parse_shard(text: str) -> Shard:
    """``I/N`` with 1 <= I <= N, for ``--shard``; ValueError (one line) for anything else."""
    index, slash, count = text.strip().partition("/")
    try:
        if not slash:
            raise ValueError
        i, n = int(index, 10), int(count, 10)
    except ValueError:
        raise ValueError(f"I/N (this worker's shard of N, e.g. 2/4), got {text!r}") from None
    if not 1 <= i <= n or n > MAX_SHARDS:
        raise ValueError(f"I/N with 1 <= I <= N (at most {MAX_SHARDS} shards), got {text!r}")
    return Shard(i, n)


def lane_seed(seed: int, lane: int, lanes: int) -> int:
    """The seed of lane ``lane`` (0-based) of ``lanes``: the campaign's own seed when there is one lane
    (the run without lanes, unchanged), else a seed derived from both, the same on every machine."""
    if lanes == 1:
        return seed
    digest = hashlib.sha256(f"rulecraft-lane:{seed}:{lane}:{lanes}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def lane_games(games: int, lane: int, lanes: int) -> int:
    """Games lane ``lane`` (0-based) plays of ``games``: the game indexes equal to it modulo ``lanes``."""
    return len(range(lane, games, lanes))


__all__ = ["MAX_SHARDS", "WHOLE", "Shard", "lane_games", "lane_seed", "parse_shard"]
