"""Ambiguity-witness and errata benchmarks.

    python bench/ambiguities.py [--games air kas] [--seconds 30] [--json] [--errata-only]

Per registered ambiguity of Airships and Kings of Air and Steam: the time to
its first witness (or the solver's proof), per reading, within a budget of
``--seconds`` each; and the time for a full errata report on every shipped
variant in examples/errata/. Targets from the issue: 80% of the ambiguities
that have a witness find it within 30 s each; an errata report within 5
minutes on one core. Also counts, per game, the ambiguities with a witness,
proved never to matter, and still open.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from rulecraft.errata import errata_report, load_variant
from rulecraft.witness import Budget, ambiguities, tally

ROOT = Path(__file__).resolve().parents[1]


def witness_figures(game_id: str, seconds: float, seed: int) -> dict[str, Any]:
    start = time.perf_counter()
    results = ambiguities(
        game_id, budget=Budget(seconds=seconds, max_examples=10_000, max_steps=400, seed=seed), examples=False
    )
    rows = []
    for r in results:
        # The time until a game first differed (shrinking runs on to the end of the budget).
        times = [
            p.first_seconds if p.first_seconds is not None else p.seconds for p in r.pairs if p.outcome == "witness"
        ]
        steps = [len(p.finding.steps) for p in r.pairs if p.finding is not None]
        rows.append(
            {
                "id": r.ambiguity.id,
                "outcome": r.outcome,
                "first_witness_s": round(min(times), 2) if times else None,
                "shortest_steps": min(steps) if steps else None,
                "readings": {p.reading: p.outcome for p in r.pairs},
            }
        )
    witnessed = [row for row in rows if row["first_witness_s"] is not None]
    within = [row for row in witnessed if row["first_witness_s"] <= 30]
    return {
        "game": game_id,
        "tally": tally(results),
        "with_witness": len(witnessed),
        "within_30s": len(within),
        "share_within_30s": round(len(within) / len(witnessed), 3) if witnessed else None,
        "median_first_witness_s": round(statistics.median(r["first_witness_s"] for r in witnessed), 2)
        if witnessed
        else None,
        "seconds": round(time.perf_counter() - start, 1),
        "ambiguities": rows,
    }


def errata_figures() -> list[dict[str, Any]]:
    out = []
    for path in sorted((ROOT / "examples" / "errata").glob("*.yaml")):
        variant = load_variant(path)
        start = time.perf_counter()
        report = errata_report(variant)
        out.append(
            {
                "variant": path.name,
                "seconds": round(time.perf_counter() - start, 1),
                "contradicted": len(report.contradicted),
                "examples": report.examples_run,
                "invariants_broken": len(report.broken_invariants),
                "play_changes": report.witness.outcome if report.witness else None,
                "problems": report.problems,
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=["air", "kas"])
    parser.add_argument("--seconds", type=float, default=30.0, help="budget per reading")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--errata-only", action="store_true")
    parser.add_argument("--no-errata", action="store_true", help="only the witness figures")
    args = parser.parse_args(argv)
    figures: dict[str, Any] = {"witnesses": [], "errata": []}
    if not args.errata_only:
        for game_id in args.games:
            figures["witnesses"].append(witness_figures(game_id, args.seconds, args.seed))
            if not args.json:
                g = figures["witnesses"][-1]
                print(
                    f"{game_id}: {g['tally']}; {g['with_witness']} with a witness, {g['within_30s']} within 30 s "
                    f"({g['share_within_30s']}), median {g['median_first_witness_s']} s; run {g['seconds']} s",
                    file=sys.stderr,
                )
    figures["errata"] = [] if args.no_errata else errata_figures()
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        for g in figures["witnesses"]:
            for row in g["ambiguities"]:
                print(
                    f"{g['game']} {row['id']:<11} {row['outcome']:<13} first {row['first_witness_s']} s, "
                    f"shortest {row['shortest_steps']} steps  {row['readings']}"
                )
        for e in figures["errata"]:
            print(
                f"errata {e['variant']:<40} {e['seconds']:>6} s  contradicted {e['contradicted']}/{e['examples']}, "
                f"invariants broken {e['invariants_broken']}, play changes: {e['play_changes']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
