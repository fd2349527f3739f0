"""What a state class's shape costs: one game-like step (copy a state with one field changed, read two
fields) for the shapes a model could use, interpreted and, with ``--compile``, compiled by mypyc.

    python bench/state_classes.py [--steps 20000] [--compile] [--json]

Issue 18 asks for steps/s at least OpenSpiel's fastest pure-Python game (kuhn poker, ~150k steps/s:
under 7 µs a step).  The models' states are frozen attrs classes, which mypyc cannot compile as native
classes (docs/speed.md, 'The compiled build'), so every state a compiled rule builds or reads still goes
through Python's object protocol.  This measures, on the same small state, what each shape costs:

- ``attrs-frozen``: ``@attrs.frozen`` (the models' shape): a copy through ``__init__``, which sets each
  field with ``object.__setattr__``;
- ``slotted``: a plain class with ``__slots__`` and its own ``__init__`` (no attrs);
- ``native``: the same plain class in a module mypyc compiles (``--compile``; needs mypy and a C
  compiler): a C struct, its fields read and set directly by compiled code.

A bench for a design decision, not for a target: the loop is a toy, the figures are per loop step on one
core (process CPU time, best of 5), each with its ratio against ``attrs-frozen`` in the same run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

# Each shape's module: a state of five fields, and the loop that copies it with one field changed.
ATTRS_FROZEN = """
import attrs

@attrs.frozen
class State:
    round: int
    mover: int
    scores: tuple[int, ...]
    supply: int = 0
    over: bool = False

def run(steps: int) -> int:
    state = State(0, 0, (0, 0, 0, 0))
    total = 0
    for _ in range(steps):
        state = State(state.round + 1, (state.mover + 1) % 4, state.scores, state.supply, state.over)
        total += state.mover + state.supply
    return total
"""

SLOTTED = """
from typing import Final

class State:
    __slots__ = ("round", "mover", "scores", "supply", "over")
    round: Final[int]
    mover: Final[int]
    scores: Final[tuple[int, ...]]
    supply: Final[int]
    over: Final[bool]

    def __init__(self, round: int, mover: int, scores: tuple[int, ...], supply: int = 0, over: bool = False) -> None:
        self.round = round
        self.mover = mover
        self.scores = scores
        self.supply = supply
        self.over = over

def run(steps: int) -> int:
    state = State(0, 0, (0, 0, 0, 0))
    total = 0
    for _ in range(steps):
        state = State(state.round + 1, (state.mover + 1) % 4, state.scores, state.supply, state.over)
        total += state.mover + state.supply
    return total
"""


def per_step(module: ModuleType, steps: int) -> float:
    """Seconds of process CPU time per loop step, best of 5."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        module.run(steps)
        best = min(best, time.process_time() - start)
    return best / steps


def load(folder: Path, name: str, source: str) -> ModuleType:
    (folder / f"{name}.py").write_text(source)
    return importlib.import_module(name)


def compile_native(folder: Path) -> ModuleType | None:
    """The slotted shape compiled by mypyc in ``folder``, or None (and why, on stderr) when it cannot be."""
    (folder / "native_state.py").write_text(SLOTTED)
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", "native_state.py"], cwd=folder, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        why = done.stderr.strip()[-300:]
        print(f"state_classes.py: mypyc could not build the native shape: {why}", file=sys.stderr)
        return None
    (folder / "native_state.py").unlink()  # import the compiled module, not its source
    module = importlib.import_module("native_state")
    if not str(module.__file__).endswith((".so", ".pyd")):
        print("state_classes.py: the native shape imported from source, not compiled", file=sys.stderr)
        return None
    return module


def measure(folder: Path, steps: int, native: bool) -> list[dict[str, Any]]:
    """Each shape's time a step and its ratio against ``attrs-frozen``, its modules written to ``folder``
    (which is on ``sys.path``)."""
    shapes = {
        "attrs-frozen": load(folder, "frozen_state", ATTRS_FROZEN),
        "slotted": load(folder, "slotted_state", SLOTTED),
    }
    if native:
        compiled = compile_native(folder)
        if compiled is not None:
            shapes["native"] = compiled
    expected = shapes["attrs-frozen"].run(1000)
    for name, module in shapes.items():
        if module.run(1000) != expected:  # the same loop, or the ratio compares different work
            raise SystemExit(f"state_classes.py: the {name} shape computed another result")
    times = {name: per_step(module, steps) for name, module in shapes.items()}
    base = times["attrs-frozen"]
    return [
        {"shape": name, "ns_per_step": seconds * 1e9, "faster_than_attrs_frozen": base / seconds}
        for name, seconds in times.items()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument(
        "--compile", action="store_true", help="also the native shape (mypyc and a C compiler; a few seconds)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.steps < 1:  # a time per step needs steps
        parser.error(f"--steps: at least 1 step; got {args.steps}")
    with tempfile.TemporaryDirectory() as tmp:
        sys.path.insert(0, tmp)
        try:
            rows = measure(Path(tmp), args.steps, args.compile)
        finally:  # the shapes' modules live in the temporary folder: forget them with it
            sys.path.remove(tmp)
            for name in ("frozen_state", "slotted_state", "native_state"):
                sys.modules.pop(name, None)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        ratio = row["faster_than_attrs_frozen"]
        print(f"{row['shape']:<13} {row['ns_per_step']:7.0f} ns a step   {ratio:5.2f}x attrs-frozen")
    if not args.compile:
        print("(--compile adds the mypyc-compiled native shape)")


if __name__ == "__main__":
    main()
