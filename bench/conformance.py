"""Conformance-kit benchmarks: how fast planted rule bugs are found and shrunk.

    python bench/conformance.py [--json] [--differential-only]

For every planted bug (the rule deviations of bench/planted.py and, when
Node.js is present, the switches of examples/airships-js), the time until
``conform`` reports it, the length of the shortest failing game and whether
the rule is named; and the differential steps per second against the
reference server over the protocol.  Targets from the issue: every bug within 60 s, median under 10 s,
shrunk games of at most 10 actions where the bug allows.
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

from planted import ALL

from rulecraft.conformance.conform import conform
from rulecraft.registry import make_game

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
JS = ROOT / "examples" / "airships-js" / "airships.js"
JS_BUGS = {
    "three-dice": "AIR-R-30",
    "failure-chip": "AIR-R-41",
    "extra-go-2": "AIR-R-42",
    "era-red": "AIR-R-25",
    "engine-colour": "AIR-R-35",
}


def planted() -> list[tuple[str, str, str, str]]:
    """(label, game, command, rule) for every planted bug available here."""
    out = [
        # A deviation breaking several rules is named by its first.
        (f"{game} {name}", game, f"{sys.executable} {BENCH}/planted.py {game} {name}", deviation.rules[0])
        for (game, name), deviation in ALL.items()
    ]
    if shutil.which("node") and JS.exists():
        out += [(f"air js {bug}", "air", f"node {JS} --bug={bug}", rule) for bug, rule in JS_BUGS.items()]
    return out


def hunt(game_id: str, command: str, rule: str, *, scenarios: bool, seconds: float) -> dict[str, Any]:
    start = time.perf_counter()
    report = conform(make_game(game_id), command, max_examples=200, max_steps=150, seconds=seconds, scenarios=scenarios)
    elapsed = time.perf_counter() - start
    named = [f for f in report.findings if rule in f.rules]
    return {
        "found": bool(report.findings),
        "rule_named": bool(named),
        "seconds": report.first_finding_at if report.first_finding_at is not None else elapsed,
        "run_seconds": elapsed,
        "shortest_game": min((len(f.steps) for f in report.findings), default=None),
        "findings": len(report.findings),
    }


def differential_rate(game_id: str, seconds: float) -> float:
    report = conform(
        make_game(game_id),
        f"{sys.executable} -m rulecraft.conformance.server {game_id}",
        max_examples=10_000,
        max_steps=100,
        seconds=seconds,
        scenarios=False,
    )
    return report.steps_compared / report.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--differential-only", action="store_true", help="without the printed examples")
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per bug")
    args = parser.parse_args()
    rows = []
    for label, game_id, command, rule in planted():
        row = {
            "bug": label,
            "rule": rule,
            **hunt(game_id, command, rule, scenarios=not args.differential_only, seconds=args.seconds),
        }
        rows.append(row)
        if not args.json:
            print(
                f"{label:24} {rule:9} found={row['found']!s:5} rule named={row['rule_named']!s:5} "
                f"{row['seconds']:6.1f} s  shortest game {row['shortest_game']}"
            )
    rates = {g: differential_rate(g, 10.0) for g in ("air", "kas")}
    times = [r["seconds"] for r in rows if r["found"]]
    summary = {
        "bugs": rows,
        "median_seconds": statistics.median(times) if times else None,
        "differential_steps_per_s": rates,
    }
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(f"median time to a finding: {summary['median_seconds']:.1f} s" if times else "nothing found")
        for game_id, rate in rates.items():
            print(f"differential steps/s against the reference server ({game_id}): {rate:.0f}")


if __name__ == "__main__":
    main()
