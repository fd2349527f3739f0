"""Conformance-kit benchmark: how fast planted rule deviations are found, how short the failing
game is, whether the rule is named, and that clean implementations give no finding.

    python bench/conformance.py [--json] [--seconds 60] [--game GAME] [--clean-seeds 10]

Every planted deviation of bench/planted*.py (the reference server with one rule changed) and, when
Node.js is present, every switch of examples/airships-js, is hunted with the printed examples
switched off (``--no-scenarios``): the differential search alone.  Per deviation: the seconds until
the first game differed, the length of the reported game from its start (a state the reference
reached, where the implementation takes ``set_state``) and of the full game from a new game, and
whether a rule the deviation breaks is among the finding's rules.  Then the reference server of
every game and the clean JavaScript example over ``--clean-seeds`` seeds: zero findings expected.

Targets (issue 15): every deviation found within 60 s on one core, median under 10 s; the
reported game at most 15 actions long from its start.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

from planted import ALL  # noqa: E402  (bench/ is not a package)

from rulecraft.conformance.conform import conform  # noqa: E402
from rulecraft.registry import game_ids, make_game  # noqa: E402

JS = ROOT / "examples" / "airships-js" / "airships.js"
JS_BUGS = {
    "three-dice": ("AIR-R-30",),
    "failure-chip": ("AIR-R-41",),
    "extra-go-2": ("AIR-R-42",),
    "era-red": ("AIR-R-25",),
    "engine-colour": ("AIR-R-35",),
}


def planted(game: str | None) -> list[dict[str, Any]]:
    """Every planted deviation available here: label, game, command, the rules it breaks, category."""
    out = [
        {
            "label": f"{d.game} {d.name}",
            "game": d.game,
            "command": f"{sys.executable} {BENCH / 'planted.py'} {d.game} {d.name}",
            "rules": d.rules,
            "category": d.category,
        }
        for d in ALL.values()
    ]
    if shutil.which("node") and JS.exists():
        out += [
            {
                "label": f"air js {bug}",
                "game": "air",
                "command": f"node {JS} --bug={bug}",
                "rules": rules,
                "category": "implementation",
            }
            for bug, rules in JS_BUGS.items()
        ]
    return [row for row in out if game is None or row["game"] == game]


def hunt(row: dict[str, Any], seconds: float, seed: int) -> dict[str, Any]:
    start = time.perf_counter()
    report = conform(
        make_game(row["game"]), row["command"], max_examples=100_000, seconds=seconds, scenarios=False, seed=seed
    )
    elapsed = time.perf_counter() - start
    findings = report.findings
    named = [f for f in findings if set(row["rules"]) & set(f.rules)]
    best = min(findings, key=lambda f: len(f.steps)) if findings else None
    return {
        "found": bool(findings),
        "rule_named": bool(named),
        "seconds_to_difference": report.first_difference_at,
        "run_seconds": round(elapsed, 2),
        "games": report.examples_run,
        "reported_steps": len(best.steps) if best else None,
        "from_a_reached_state": best is not None and best.start_state is not None and not best.setup,
        "full_path_steps": len(best.path) if best else None,
        "shrink_replays": best.shrink_replays if best else None,
        "kind": best.kind if best else None,
        "rules_reported": list(best.rules[:6]) if best else [],
    }


def clean(seeds: int, games: int) -> list[dict[str, Any]]:
    """The reference server of every game, and the clean JavaScript example: findings per seed."""
    targets = [(g, f"{sys.executable} -m rulecraft.conformance.server {g}") for g in game_ids()]
    if shutil.which("node") and JS.exists():
        targets.append(("air", f"node {JS}"))
    rows = []
    for game_id, command in targets:
        findings = 0
        statuses = set()
        for seed in range(seeds):
            report = conform(make_game(game_id), command, max_examples=games, seed=seed, scenarios=seed == 0)
            findings += len(report.findings)
            statuses.add(report.status)
        rows.append({"game": game_id, "command": command, "seeds": seeds, "findings": findings, "status": statuses})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--seconds", type=float, default=60.0, help="safety cap per deviation (the target: 60)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", choices=game_ids(), help="only this game's deviations")
    parser.add_argument("--clean-seeds", type=int, default=10, help="seeds for the clean implementations (0: skip)")
    parser.add_argument("--clean-games", type=int, default=10, help="differential games per clean seed")
    args = parser.parse_args()
    rows = []
    for row in planted(args.game):
        result = {
            **{k: row[k] for k in ("label", "category")},
            "rules": list(row["rules"]),
            **hunt(row, args.seconds, args.seed),
        }
        rows.append(result)
        took = result["seconds_to_difference"]
        print(  # progress, also with --json (then on standard error, beside the JSON document)
            f"{row['label']:34} {row['category']:14} found={result['found']!s:5} named={result['rule_named']!s:5} "
            f"{(f'{took:5.1f} s' if took is not None else '  -  '):>8}  reported {result['reported_steps']} steps"
            f" (full game {result['full_path_steps']})",
            file=sys.stderr if args.json else sys.stdout,
            flush=True,
        )
    times = [r["seconds_to_difference"] for r in rows if r["found"] and r["seconds_to_difference"] is not None]
    summary: dict[str, Any] = {
        "deviations": rows,
        "found": sum(r["found"] for r in rows),
        "planted": len(rows),
        "found_within_60s": sum(1 for t in times if t <= 60),
        "median_seconds": statistics.median(times) if times else None,
        "rule_named": sum(r["rule_named"] for r in rows),
        "reported_at_most_15_steps": sum(
            1 for r in rows if r["reported_steps"] is not None and r["reported_steps"] <= 15
        ),
    }
    if args.clean_seeds:
        summary["clean"] = clean(args.clean_seeds, args.clean_games)
    if args.json:
        print(json.dumps(summary, indent=2, default=sorted))
        return
    print(
        f"found {summary['found']}/{summary['planted']} ({summary['found_within_60s']} within 60 s), "
        f"median {summary['median_seconds']:.1f} s; rule named in {summary['rule_named']}; "
        f"reported game at most 15 steps in {summary['reported_at_most_15_steps']}"
        if times
        else "nothing found"
    )
    for row in summary.get("clean", []):
        print(f"clean {row['game']:4} {row['command'][-40:]:40} {row['seeds']} seeds: {row['findings']} finding(s)")


if __name__ == "__main__":
    main()
