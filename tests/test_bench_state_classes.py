"""bench/state_classes.py (issue 18) compares class shapes on the same work: every shape's loop computes
the same result, and the baseline row is the frozen attrs shape the models use."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import state_classes  # noqa: E402 - bench/ is not a package


def test_each_shape_copies_and_reads_the_same_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    frozen = state_classes.load(tmp_path, "frozen_shape", state_classes.ATTRS_FROZEN)
    slotted = state_classes.load(tmp_path, "slotted_shape", state_classes.SLOTTED)
    # 10 steps: the mover goes round 4 seats (1, 2, 3, 0, ...), the supply stays 0
    assert frozen.run(10) == slotted.run(10) == sum((i + 1) % 4 for i in range(10))
    with pytest.raises(AttributeError):
        slotted.State(0, 0, ()).extra = 1  # slotted: no field beyond its five
    assert frozen.State(1, 2, (3,)) == frozen.State(1, 2, (3,))


def test_the_report_gives_each_shape_against_attrs_frozen(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["state_classes.py", "--steps", "200", "--json"])
    path = list(sys.path)
    state_classes.main()
    assert sys.path == path  # its temporary folder is off the path again
    rows = json.loads(capsys.readouterr().out)
    assert [row["shape"] for row in rows] == ["attrs-frozen", "slotted"]
    assert rows[0]["faster_than_attrs_frozen"] == 1.0
    assert all(row["ns_per_step"] > 0 for row in rows)


@pytest.mark.parametrize("steps", ["0", "-5"])
def test_a_step_count_below_one_is_refused_in_one_line(
    steps: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "argv", ["state_classes.py", "--steps", steps])
    with pytest.raises(SystemExit) as exit_info:
        state_classes.main()
    assert exit_info.value.code == 2
    assert f"--steps: at least 1 step; got {steps}" in capsys.readouterr().err
