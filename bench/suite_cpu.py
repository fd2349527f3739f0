"""Where the test suite's time goes: process CPU seconds per test, recorded and compared between two
checkouts (issue 18: the README's test command within 4 minutes on 2 cores).

    python bench/suite_cpu.py record OUT.json [PYTEST ARGS ...]     # in the checkout to measure
    python bench/suite_cpu.py compare BASE.json NEW.json [--top 25] [--json]

A wall-clock time of the whole suite moves with whatever else the machine runs; the CPU a test's own
process spends (setup, call and teardown, ``time.process_time``) moves far less, so two checkouts
recorded side by side, even on a busy machine, say which tests and files grew.  ``record`` runs
``python -m pytest`` in one process (``-p no:xdist``: per-test figures need one process; run it in
the checkout to measure, with that checkout's install) with this file as a plugin, then writes
``{nodeid: seconds}``.  ``compare`` prints both totals, the files that grew and shrank most, and the
tests only one side has.  A record whose run failed is still written (the figures of the tests that
ran), and ``record`` exits with pytest's status.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Generator, Mapping
from pathlib import Path
from typing import Any

import pytest

_OUT = "RULECRAFT_SUITE_CPU_OUT"  # where the plugin writes, set by ``record``
_SPENT: dict[str, float] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    start = time.process_time()
    yield
    _SPENT[item.nodeid] = _SPENT.get(item.nodeid, 0.0) + time.process_time() - start


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get(_OUT)
    if out:
        Path(out).write_text(json.dumps(_SPENT, indent=0, sort_keys=True), "utf-8")


def record(out: Path, pytest_args: list[str]) -> int:
    """Run the suite in one process with this plugin; the per-test CPU seconds go to ``out``."""
    env = {**os.environ, _OUT: str(out.resolve())}
    here = str(Path(__file__).resolve().parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (here, env.get("PYTHONPATH", "")) if p)
    command = [sys.executable, "-m", "pytest", "-p", "suite_cpu", "-p", "no:xdist", *pytest_args]
    return subprocess.run(command, env=env, check=False).returncode


def load(path: Path) -> dict[str, float]:
    """A record: test id -> seconds; a file that is not one is refused in one line."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SystemExit(f"suite_cpu.py: {path}: not a record ({exc})") from None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool) for k, v in data.items()
    ):
        raise SystemExit(f"suite_cpu.py: {path}: not a record (a JSON object of test id -> seconds)")
    return {k: float(v) for k, v in data.items()}


def by_file(spent: Mapping[str, float]) -> dict[str, float]:
    files: dict[str, float] = {}
    for nodeid, seconds in spent.items():
        file = nodeid.split("::", 1)[0]
        files[file] = files.get(file, 0.0) + seconds
    return files


def compare(base: Mapping[str, float], new: Mapping[str, float], top: int) -> dict[str, Any]:
    """Both totals, the ``top`` files that grew and shrank most (seconds before and after), and the
    tests only one side ran."""
    old_files, new_files = by_file(base), by_file(new)
    changes = sorted(
        ((f, old_files.get(f, 0.0), new_files.get(f, 0.0)) for f in set(old_files) | set(new_files)),
        key=lambda row: row[2] - row[1],
    )
    rows: list[dict[str, Any]] = [{"file": f, "base": b, "new": n, "change": n - b} for f, b, n in changes]
    return {
        "base_total": sum(base.values()),
        "new_total": sum(new.values()),
        "base_tests": len(base),
        "new_tests": len(new),
        "grew": [r for r in reversed(rows) if r["change"] > 0][:top],
        "shrank": [r for r in rows if r["change"] < 0][:top],
        "only_base": sorted(set(base) - set(new)),
        "only_new": sorted(set(new) - set(base)),
    }


def _print(report: Mapping[str, Any]) -> None:
    b, n = report["base_total"], report["new_total"]
    print(f"total: base {b:.1f} s CPU ({report['base_tests']} tests), new {n:.1f} s ({report['new_tests']} tests)")
    for title in ("grew", "shrank"):
        print(f"files that {title}:")
        for r in report[title]:
            print(f"  {r['file']:<60} {r['base']:8.1f} -> {r['new']:8.1f}  ({r['change']:+.1f})")
    print(f"tests only in base: {len(report['only_base'])}, only in new: {len(report['only_new'])}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    rec = verbs.add_parser("record", help="run the suite in one process and write per-test CPU seconds")
    rec.add_argument("out", type=Path)
    rec.add_argument("pytest_args", nargs=argparse.REMAINDER, help="passed to pytest")
    cmp = verbs.add_parser("compare", help="two records side by side")
    cmp.add_argument("base", type=Path)
    cmp.add_argument("new", type=Path)
    cmp.add_argument("--top", type=int, default=25)
    cmp.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.verb == "record":
        if not args.out.parent.is_dir():  # found at the end of the run, it would be a traceback and a lost record
            parser.error(f"record: {args.out}: its folder {args.out.parent} does not exist")
        raise SystemExit(record(args.out, args.pytest_args))
    if args.top < 1:
        parser.error(f"--top: at least 1 file; got {args.top}")
    report = compare(load(args.base), load(args.new), args.top)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        _print(report)


if __name__ == "__main__":
    main()
