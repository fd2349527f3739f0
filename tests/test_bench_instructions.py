"""bench/instructions.py (issue 18): instruction counts for two builds on the same seeded games, read
from valgrind's own line, the start-up subtracted, and a one-line reason when it cannot run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import instructions  # noqa: E402 - bench/ is not a package

VALGRIND_3_19 = """==11138== Cachegrind, a cache and branch-prediction profiler
==11138== Command: /usr/bin/python3 bench/instructions.py --child air uniform 50
==11138==
==11138== I   refs:      1,354,742,091
"""


def test_the_count_is_read_from_cachegrinds_own_line() -> None:
    assert instructions.refs(VALGRIND_3_19) == 1_354_742_091


@pytest.mark.parametrize(
    "stderr",
    ["", "==1== Command: python -c pass\n", VALGRIND_3_19 + "==11138== I   refs:      7\n", "I   refs: 12\n"],
)
def test_no_single_count_is_a_one_line_reason_never_a_number(stderr: str) -> None:
    with pytest.raises(instructions.BenchError, match="no single instruction count"):
        instructions.refs(stderr)


def test_the_same_seeds_play_the_same_whole_games() -> None:
    first = instructions.play("air", "uniform", 300)
    assert first == instructions.play("air", "uniform", 300)
    assert first["steps"] >= 300 and first["games"] >= 1
    shorter = instructions.play("air", "uniform", 1)  # whole games: one step asked, the first game played
    assert shorter["games"] == 1 and 1 <= shorter["steps"] <= first["steps"]


def test_the_figure_is_the_games_own_instructions_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    def counted(build: Path, game_id: str, policy: str, steps: int) -> tuple[int, dict[str, Any]]:
        # start-up 1,000 instructions; 30 per step over 40 steps
        return (1_000, {}) if steps == 0 else (1_000 + 30 * 40, {"steps": 40, "games": 2, "digest": "x"})

    warmed: list[list[str]] = []

    def run(command: list[str], **kwargs: Any) -> None:
        warmed.append(command)

    monkeypatch.setattr(instructions, "counted", counted)
    monkeypatch.setattr(subprocess, "run", run)
    row = instructions.per_step(Path("."), "air", "uniform", 40)
    assert row["instructions"] == 1_200 and row["per_step"] == 30.0 and row["games"] == 2
    # one run not counted first (the bytecode written), without valgrind
    assert len(warmed) == 1 and warmed[0][-4:] == ["--child", "air", "uniform", "40"] and "valgrind" not in warmed[0]


def test_without_valgrind_or_a_base_it_says_why_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit):
        instructions.main([])  # no base named: argparse's own one-line usage error
    assert "--base-rev REV or --base DIR" in capsys.readouterr().err
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert instructions.main(["--base", str(tmp_path)]) == 2
    assert capsys.readouterr().err.strip() == (
        "bench/instructions.py: valgrind is not installed (apt-get install valgrind)"
    )
    monkeypatch.setattr(shutil, "which", lambda name: "/usr/bin/valgrind")
    assert instructions.main(["--base", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("bench/instructions.py: --base ") and "no installed rulecraft package" in err
    assert instructions.main(["--base", str(tmp_path), "--game", "chess"]) == 2
    assert "--game chess: no such game" in capsys.readouterr().err
    assert instructions.main(["--base-rev", "no-such-revision-anywhere"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"bench/instructions.py: --base-rev no-such-revision-anywhere: no such revision in {instructions.ROOT}"
    )
