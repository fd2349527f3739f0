"""The planted rule deviations of the conformance benchmark (bench/planted*.py): each one really
changes its rule on a constructed state, names rules of its game's catalogue, and is undone
without a trace; ``python bench/planted.py GAME NAME`` serves the changed model over the protocol.
The planted bugs live in bench/, never in the installed package."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulecraft.registry import game_class

BENCH = Path(__file__).resolve().parents[1] / "bench"
if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))

import planted  # noqa: E402 - bench/ is not a package: its folder goes on the path first
import planted_base  # noqa: E402

KEYS = sorted(planted.ALL)


@pytest.fixture
def patcher(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """monkeypatch, with the model's memos cleared before, after planting (by the test) and after undo."""
    planted.clear_caches()
    yield monkeypatch
    monkeypatch.undo()
    planted.clear_caches()


@pytest.mark.parametrize("key", KEYS, ids=[f"{game}-{name}" for game, name in KEYS])
def test_a_planted_deviation_changes_its_rule_and_is_undone(key: tuple[str, str], patcher: pytest.MonkeyPatch) -> None:
    deviation = planted.ALL[key]
    before = deviation.observe()
    assert json.loads(json.dumps(before)) is not None, "an observation is JSON-able"
    deviation.plant(patcher.setattr)
    planted.clear_caches()
    after = deviation.observe()
    assert before != after, f"{key}: planting changes nothing on the constructed state"
    patcher.undo()
    planted.clear_caches()
    assert deviation.observe() == before, f"{key}: the plant changed the model beyond its patch function"


@pytest.mark.parametrize("key", KEYS, ids=[f"{game}-{name}" for game, name in KEYS])
def test_a_deviation_names_rules_of_its_game_and_a_known_category(key: tuple[str, str]) -> None:
    deviation = planted.ALL[key]
    assert deviation.category in planted_base.CATEGORIES
    catalogue = game_class(deviation.game).catalogue
    assert deviation.rules and all(rule in catalogue for rule in deviation.rules), deviation.rules
    assert deviation.what.strip() and deviation.name == deviation.name.strip().lower()


def test_names_are_unique_and_categories_checked() -> None:
    loaded = [sys.modules[name] for name in planted.MODULES if name in sys.modules]
    listed = [(d.game, d.name) for module in loaded for d in module.DEVIATIONS]
    assert sorted(listed) == KEYS, [k for k, n in Counter(listed).items() if n > 1]
    with pytest.raises(ValueError, match="category"):
        planted_base.Deviation("kas", "x", ("KAS-R-01",), "rare", "?", lambda patch: None, lambda: None)


def test_kings_of_air_and_steam_and_airships_cover_the_rare_rules() -> None:
    ours = [d for d in planted.ALL.values() if d.game in ("kas", "air")]
    assert len(ours) >= 13
    assert sum(1 for d in ours if d.category != "ordinary") >= 7
    assert {"toll", "stops", "sharp-turn", "diamonds"} <= {d.name for d in ours if d.game == "kas"}


def test_the_planted_server_answers_hello() -> None:
    proc = subprocess.run(
        [sys.executable, str(BENCH / "planted.py"), "kas", "toll"],
        input='{"op":"hello","protocol":1}\n{"op":"quit"}\n',
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    hello = json.loads(proc.stdout.splitlines()[0])
    assert hello["ok"] is True and hello["game"] == "kas"


def test_an_unknown_deviation_is_one_usage_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert planted.main(["kas", "no-such-bug"]) == 4
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "toll" in err
    assert planted.main(["--list"]) == 0
    out, _ = capsys.readouterr()
    assert "kas" in out and "KAS-R-38" in out and "end-game" in out


def test_the_planted_bugs_are_not_in_the_installed_package() -> None:
    assert importlib.util.find_spec("rulecraft.conformance.mutants") is None
