"""The same seed plays the same game in every process and on every machine (issue 18 part 3).

Reproducibility pins, not rules claims: the digests were recorded from the model (0.13.1) and say
only that a seed's game has not changed.  Each is checked in fresh processes under two different
hash seeds, so an order that leans on ``hash()`` (a set of strings walked in its own order) would
show here.  A change that means seeds to play other games says so in CHANGELOG.md (Changed) and
records the new digests with ``python tests/seeded_games.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("seeded_games.py")

# {game: [(seed, steps, sha256 of the actions' reprs)]}: 4 players, 'uniform', bench/speed.py's loop.
PINNED: dict[str, list[tuple[int, int, str]]] = {
    "aer": [
        (0, 396, "5575ebbe11b233c68e6f584de60d71a0700d2a6f0c3b30385e5fb4e0340caf51"),
        (1, 375, "2fc13286f623fa7258d005e60fd86c9fe211af376bb6df73912a27ffd642e821"),
        (2, 394, "44a40e63ff91d66b2f4077039a97267f1255769f18017ddbe322c29302eac98c"),
    ],
    "air": [
        (0, 216, "3eb1f3c79410f14bdf820396930cc539074dfb1aa50a5410d7bee53fe22f2a24"),
        (1, 325, "452a200106673bee5022dd6945f1d51046f616e74404f46b6b4c3be49b7e6dda"),
        (2, 228, "0073a61be4fb0b6a985e494ac8f5a8d4718dd486fddd37f543a75f0360307b5c"),
    ],
    "kas": [
        # 0.15.0: a uniform draw checks only the candidates it draws (Game.candidates), so a seed plays
        # another game (CHANGELOG); the odds of each legal action are unchanged (tests/test_game_api.py).
        (0, 316, "32661f56a847675726eb2ea4464d674dee956196483215c835afe805c71b316a"),
        (1, 338, "fefbc9c2008f02595934d2038be9ac8e6eaa6ecea8a0bcedce0054217b9ad3c4"),
        (2, 302, "ec8d1b6812e3e9fa1e11a42ee6a20446c34c7f4fbbe9e90a2099e241b16a8ec2"),
    ],
    "stm": [
        (0, 6760, "cde80e3e5ff324339e7d4666666804df5077c467f47ee0ae437f0fa63c80d217"),
        (1, 8672, "69f3e45478954660f9befe74a136f469a5395c69409c6ec4f64f7d95fddc18d4"),
        (2, 7698, "5c82879990048dbe023aa96cb63558cf4849e07b5f47af30cff556eb28dadcce"),
    ],
}


def played(hash_seed: str) -> dict[str, list[tuple[int, int, str]]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, check=False, timeout=300, env=env
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return {g: [(s, n, h) for s, n, h in rows] for g, rows in json.loads(out.stdout).items()}


@pytest.mark.parametrize("hash_seed", ["0", "4242"])
def test_each_pinned_seed_plays_its_pinned_game(hash_seed: str) -> None:
    got = played(hash_seed)
    changed = [
        f"{game} seed {seed}: {steps} steps {sha[:12]}…, pinned {pin[1]} steps {pin[2][:12]}…"
        for game, pins in PINNED.items()
        for pin, (seed, steps, sha) in zip(pins, got[game], strict=True)
        if (seed, steps, sha) != pin
    ]
    assert not changed, "seeded games changed (say so in CHANGELOG.md, then re-pin): " + "; ".join(changed)


def test_the_digest_sees_the_game_in_this_process_too() -> None:
    """In this process as well, and another seed is another digest (the digest reads the moves)."""
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import seeded_games
    finally:
        sys.path.remove(str(SCRIPT.parent))
    assert (0, *seeded_games.digest("air", 0)) == PINNED["air"][0]
    assert seeded_games.digest("air", 3)[1] not in {sha for _, _, sha in PINNED["air"]}
