"""``python -m rulecraft.fuzz [OPTIONS] -- [PYTEST ARGS]``: ``hypothesis fuzz`` (HypoFuzz) for slow targets.

The same command, options and dashboard as ``hypothesis fuzz`` (docs/many-machines.md), with one
difference.  HypoFuzz's hub looks at its workers once a minute and stops the campaign when none
has a test left to fuzz; a worker says which tests it has left only after its first 100 examples.
The games' state machines take seconds per example under HypoFuzz's coverage tracing (hundreds of
steps, every invariant after each), so no worker has said anything after a minute and HypoFuzz
(25.11) stops, printing "Found a failing input for every test!" though nothing failed.  Here a
worker that has not reported yet counts as busy with the tests it was given, so the campaign runs
until it is stopped or every test has really failed.

Requires ``pip install hypofuzz`` (``tox -e fuzz`` installs it).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["main", "patient_hub"]


def patient_hub(hub: type[Any]) -> type[Any]:
    """HypoFuzz's hub class with workers that have not reported yet counted as busy."""

    class PatientHub(hub):  # type: ignore[misc]
        def _rebalance(self) -> None:
            super()._rebalance()
            for state in self.shared_states:
                worker = state["worker_state"]
                if not worker["current_lifetime"]:  # its first batch of examples is still running
                    worker["valid_nodeids"] = sorted(state["hub_state"]["nodeids"])

    PatientHub.__name__ = PatientHub.__qualname__ = f"Patient{hub.__name__}"
    return PatientHub


def main(argv: Sequence[str] | None = None) -> int:
    try:
        hypofuzz: Any = importlib.import_module("hypofuzz.hypofuzz")
        entrypoint: Any = importlib.import_module("hypofuzz.entrypoint")
    except ImportError:
        print("rulecraft.fuzz: HypoFuzz is not installed: pip install hypofuzz", file=sys.stderr)
        return 4
    if not getattr(hypofuzz.FuzzWorkerHub, "__name__", "").startswith("Patient"):
        hypofuzz.FuzzWorkerHub = patient_hub(hypofuzz.FuzzWorkerHub)
    args = list(sys.argv[1:] if argv is None else argv)
    entrypoint.fuzz.main(args=args, prog_name="python -m rulecraft.fuzz")
    return 0  # pragma: no cover - click exits


if __name__ == "__main__":
    sys.exit(main())
