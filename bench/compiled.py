"""What the optional mypyc-compiled build buys (issue 18): the same random games, pure Python against
compiled, in interleaved pairs of one run.

    python bench/compiled.py [--pairs 3] [--seconds 3] [--game GAME] [--peers] [--compiled DIR] [--json]

Builds two installs of this source tree side by side in a temporary folder (``pip install --no-deps
--target``): the pure-Python package, and the compiled one (``RULECRAFT_COMPILE=1``, about a minute
and a half on one core; ``--compiled DIR`` reuses such a folder).  First it checks that both play the
same seeded games (tests/seeded_games.py: steps and a digest of every move); a build that plays other
games has no speed worth reporting, and the run stops there.  Then it runs ``bench/speed.py --json``
for each build in turn, ``--pairs`` times, and prints the median steps/s of each with their ratio.
``--peers`` adds OpenSpiel's games (when installed) to the compiled runs: the ratio against its slowest
pure-Python game, as bench/speed.py reports it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def install(target: Path, compiled: bool) -> None:
    env = {**os.environ, "RULECRAFT_COMPILE": "1" if compiled else "0"}
    what = "the compiled build (mypyc; about 90 s)" if compiled else "the pure-Python build"
    print(f"installing {what} into {target}", file=sys.stderr, flush=True)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), str(ROOT)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"bench/compiled.py: building {what} failed: {done.stderr.strip().splitlines()[-1:]}")


def run(build: Path, args: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(build)}
    # From the build's own folder: ``python -c`` puts the working folder first on the path, and this
    # source tree's rulecraft/ would be imported instead of the build's.
    done = subprocess.run([sys.executable, *args], env=env, cwd=build, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench/compiled.py: {' '.join(args)} failed in {build}: {done.stderr.strip()[-400:]}")
    return done.stdout


def builds_of(pure: Path, compiled: Path) -> dict[str, str]:
    """Each build's own account of itself (rulecraft.compiled): the pure one must have no compiled module."""
    probe = ["-c", "import rulecraft, rulecraft.compiled as c; print(rulecraft.__file__, '|', c.describe())"]
    seen = {"pure": run(pure, probe).strip(), "compiled": run(compiled, probe).strip()}
    if not seen["pure"].startswith(str(pure)) or not seen["pure"].endswith("pure Python"):
        raise SystemExit(f"bench/compiled.py: the pure build is not what runs: {seen['pure']}")
    if not seen["compiled"].startswith(str(compiled)) or "mypyc-compiled" not in seen["compiled"]:
        raise SystemExit(f"bench/compiled.py: the compiled build is not what runs: {seen['compiled']}")
    return {k: v.split("|", 1)[1].strip() for k, v in seen.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=3, help="pure/compiled pairs of runs (medians)")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per game entry per run")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--peers", action="store_true", help="OpenSpiel's games beside the compiled runs")
    parser.add_argument("--compiled", type=Path, help="a folder the compiled build was installed into (--target)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.pairs < 1 or args.seconds <= 0:
        parser.error("--pairs must be at least 1 and --seconds above 0")
    with tempfile.TemporaryDirectory(prefix="rulecraft-compiled-") as tmp:
        pure = Path(tmp) / "pure"
        install(pure, compiled=False)
        compiled = args.compiled.resolve() if args.compiled else Path(tmp) / "compiled"
        if args.compiled is None:
            install(compiled, compiled=True)
        elif not (compiled / "rulecraft").is_dir():
            raise SystemExit(f"bench/compiled.py: --compiled {args.compiled}: no rulecraft package in that folder")
        builds = builds_of(pure, compiled)
        print(f"compiled build: {builds['compiled']}", file=sys.stderr, flush=True)
        seeded = [str(ROOT / "tests" / "seeded_games.py"), *([args.game] if args.game else [])]
        same = run(pure, seeded) == run(compiled, seeded)
        print(f"same seeded games in both builds: {'yes' if same else 'NO'}", file=sys.stderr, flush=True)
        if not same:
            raise SystemExit("bench/compiled.py: the compiled build plays other games than the pure one: no figures")
        speed = [str(ROOT / "bench" / "speed.py"), "--json", "--no-cli", "--seconds", str(args.seconds)]
        speed += ["--game", args.game] if args.game else []
        runs: dict[str, list[list[dict[str, Any]]]] = {"pure": [], "compiled": []}
        for pair in range(args.pairs):
            for name, build in (("pure", pure), ("compiled", compiled)):
                peers = args.peers and name == "compiled" and pair == 0  # OpenSpiel once, beside the compiled run
                rows = json.loads(run(build, [*speed, *([] if peers else ["--no-peers"])]))["games"]
                runs[name].append(rows)
            print(f"pair {pair + 1}/{args.pairs} done", file=sys.stderr, flush=True)
    table = []
    for i, row in enumerate(runs["pure"][0]):
        pure_rate = statistics.median(r[i]["steps_per_s"] for r in runs["pure"])
        compiled_rate = statistics.median(r[i]["steps_per_s"] for r in runs["compiled"])
        pure_games = statistics.median(r[i]["games_per_s"] for r in runs["pure"])
        compiled_games = statistics.median(r[i]["games_per_s"] for r in runs["compiled"])
        entry = {
            "game": row["game"],
            "pure_games_per_s": pure_games,
            "compiled_games_per_s": compiled_games,
            "policy": row["policy"],
            "pure_steps_per_s": pure_rate,
            "compiled_steps_per_s": compiled_rate,
            "ratio": compiled_rate / pure_rate,
            "compiled_ratio_to_openspiel_python": runs["compiled"][0][i].get("ratio_to_openspiel_python"),
        }
        table.append(entry)
        peer = entry["compiled_ratio_to_openspiel_python"]
        print(
            f"{row['game']} {row['policy']:10} pure {pure_rate:8.0f} steps/s, compiled {compiled_rate:8.0f}"
            f" steps/s: {entry['ratio']:.2f}x (medians of {args.pairs} pairs; games/s {pure_games:.1f} and"
            f" {compiled_games:.1f})"
            + (f"; compiled against OpenSpiel's slowest pure-Python game {peer:.2f}x" if peer else ""),
            file=sys.stderr if args.json else sys.stdout,
            flush=True,
        )
    if args.json:
        print(json.dumps({"builds": builds, "pairs": args.pairs, "games": table}, indent=2))


if __name__ == "__main__":
    main()
