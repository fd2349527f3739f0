"""Instructions per step (issue 18): two builds compared on the same seeded random games, counted in
machine instructions, so that the ratio is the same on a busy machine as on an idle one.

    python bench/instructions.py --base-rev v0.15.0 [--game GAME] [--steps 6000] [--json]
    python bench/instructions.py --base DIR ...      # DIR: an installed package (pip install --target)

A steps-per-second ratio moves by a fifth when other work shares the machine (measured on this
project's 2-core machine with three other jobs running); a count of the instructions the interpreter
runs does not.  Each game of bench/speed.py's table (the same loop: seeded 4-player random games,
chance by its odds, each drawn action played with ``transition``) is played under valgrind's
cachegrind (``--cache-sim=no``: instructions only) until at least ``--steps`` steps, whole games, by
each build in turn: this tree and the base, both installed as a wheel would be (``pip install
--no-deps --target``) into a temporary folder.  A run that plays no game (imports, the game built) is
subtracted, so the figure is the games' own; string hashing is fixed (``PYTHONHASHSEED=0``) so the
count repeats to the instruction.

Printed per game: the steps each build played, a digest of their moves (the same seeds play the same
games, or the line says they do not: then the two builds did different work and the ratio is per step
only), instructions per step, and base / this tree (above 1: this tree runs fewer instructions).  Fewer
instructions is not the same as less time (a cache miss costs more than an add), so the steps-per-second
figures of bench/speed.py and bench/compiled.py stay the ones the targets are judged by; this one
tells which way a change went when the clock cannot.  Needs valgrind (``apt-get install valgrind``);
about 20 s per game and build.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
STEPS_PER_GAME_CAP = 20_000  # bench/speed.py's MAX_STEPS: a game past it stops there
REFS = re.compile(r"^==\d+== I\s+refs:\s+([\d,]+)\s*$", re.MULTILINE)


class BenchError(Exception):
    """A one-line reason the benchmark cannot go on."""


def play(game_id: str, policy: str, steps: int) -> dict[str, Any]:
    """Seeded random games (seeds 0, 1, ...) of ``game_id`` in bench/speed.py's loop until at least
    ``steps`` steps: their count and a digest of every move (the same seeds play the same games)."""
    from rulecraft.registry import make_game

    game = make_game(game_id)
    players = min(4, game.max_players)
    digest = hashlib.sha256()
    played = games = 0
    while played < steps:
        rng = random.Random(games)
        state = game.new_game(players)
        for step in range(STEPS_PER_GAME_CAP):
            if step % 50 == 49 and game.stalled(state):  # as bench/speed.py: a game that can never end stops
                break
            action = game.random_action(state, rng, policy)
            if action is None:
                break
            digest.update(repr(action).encode())
            state = game.transition(state, action)
            played += 1
        games += 1
    return {"steps": played, "games": games, "digest": digest.hexdigest()[:16]}


def refs(valgrind_stderr: str) -> int:
    """The instruction count cachegrind prints (``==PID== I   refs:      1,234``)."""
    found = REFS.findall(valgrind_stderr)
    if len(found) != 1:
        tail = valgrind_stderr.strip().splitlines()[-1:] or ["no output"]
        raise BenchError(f"valgrind printed no single instruction count (I refs): {tail[0]}")
    return int(found[0].replace(",", ""))


def counted(build: Path, game_id: str, policy: str, steps: int) -> tuple[int, dict[str, Any]]:
    """Instructions (and the child's account of its games) for ``steps`` steps of ``build``, run from the
    build's own folder so that its rulecraft is the one imported."""
    env = {**os.environ, "PYTHONPATH": str(build), "PYTHONHASHSEED": "0"}
    child = [sys.executable, str(Path(__file__).resolve()), "--child", game_id, policy, str(steps)]
    valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    done = subprocess.run(valgrind + child, env=env, cwd=build, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise BenchError(f"{game_id} under valgrind in {build} exited {done.returncode}: {tail[0]}")
    return refs(done.stderr), json.loads(done.stdout)


def per_step(build: Path, game_id: str, policy: str, steps: int) -> dict[str, Any]:
    """The games' own instructions per step: a run of ``steps`` steps less a run of none (after one run
    not counted, which writes the bytecode of every module the games import, as an installed package
    has it: else the first counted run would count the compiler)."""
    env = {**os.environ, "PYTHONPATH": str(build)}
    child = [sys.executable, str(Path(__file__).resolve()), "--child", game_id, policy, str(steps)]
    subprocess.run(child, env=env, cwd=build, capture_output=True, check=False)
    bare, _ = counted(build, game_id, policy, 0)
    total, games = counted(build, game_id, policy, steps)
    return {**games, "instructions": total - bare, "per_step": (total - bare) / games["steps"]}


def install(source: Path, target: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(source)],
        env={**os.environ, "RULECRAFT_COMPILE": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise BenchError(f"installing {source} failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}")


def checkout(rev: str, into: Path) -> None:
    """The source tree of ``rev`` (a git revision of this repository) in ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True, check=False)
    if archive.returncode != 0:
        raise BenchError(f"--base-rev {rev}: {archive.stderr.decode(errors='replace').strip()}")
    into.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    base = parser.add_mutually_exclusive_group()
    base.add_argument("--base-rev", help="a git revision of this repository to compare against")
    base.add_argument("--base", type=Path, help="a folder holding an installed rulecraft package")
    parser.add_argument("--game", help="only this game (its policies as bench/speed.py times them)")
    parser.add_argument("--steps", type=int, default=6000, help="steps per game and build, whole games (default 6000)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", nargs=3, metavar=("GAME", "POLICY", "STEPS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        game_id, policy, steps = args.child
        print(json.dumps(play(game_id, policy, int(steps))))
        return 0
    if args.base_rev is None and args.base is None:
        parser.error("say what to compare against: --base-rev REV or --base DIR")
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    try:
        return compare(args)
    except BenchError as problem:
        print(f"bench/instructions.py: {problem}", file=sys.stderr)
        return 2


def compare(args: argparse.Namespace) -> int:
    if shutil.which("valgrind") is None:
        raise BenchError("valgrind is not installed (apt-get install valgrind)")
    sys.path.insert(0, str(HERE))
    from speed import TARGETS  # the games and policies bench/speed.py times

    rows = [(g, p) for g, p in TARGETS if args.game in (None, g)]
    if not rows:
        known = sorted({g for g, _ in TARGETS})
        raise BenchError(f"--game {args.game}: no such game in bench/speed.py's table ({known})")
    if args.base is not None and not (args.base / "rulecraft" / "__init__.py").is_file():
        raise BenchError(f"--base {args.base}: no installed rulecraft package there (rulecraft/__init__.py)")
    if args.base_rev is not None:  # a revision that is none is said before this tree is installed
        revision = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{args.base_rev}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        if revision.returncode != 0:
            raise BenchError(f"--base-rev {args.base_rev}: no such revision in {ROOT}")
    log = sys.stderr if args.json else sys.stdout
    with tempfile.TemporaryDirectory(prefix="rulecraft-instructions-") as tmp:
        cur = Path(tmp) / "this-tree"
        print(f"installing this tree into {cur}", file=log, flush=True)
        install(ROOT, cur)
        if args.base is not None:
            base = args.base.resolve()
        else:
            source = Path(tmp) / "base-source"
            checkout(args.base_rev, source)
            base = Path(tmp) / "base"
            print(f"installing {args.base_rev} into {base}", file=log, flush=True)
            install(source, base)
        out = []
        for game_id, policy in rows:
            print(f"{game_id} {policy}: counting (base, then this tree) ...", file=log, flush=True)
            before = per_step(base, game_id, policy, args.steps)
            after = per_step(cur, game_id, policy, args.steps)
            same = (before["steps"], before["digest"]) == (after["steps"], after["digest"])
            row = {"game": game_id, "policy": policy, "base": before, "this_tree": after, "same_games": same}
            row["ratio"] = before["per_step"] / after["per_step"]
            out.append(row)
            games = "the same games" if same else "DIFFERENT games (a seed now plays another game): per step only"
            print(
                f"{game_id} {policy:10} base {before['per_step']:9,.0f} instructions/step, this tree "
                f"{after['per_step']:9,.0f}: {row['ratio']:.3f}x ({after['steps']} steps; {games})",
                file=log,
                flush=True,
            )
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
