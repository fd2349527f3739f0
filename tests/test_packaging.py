"""Installed, everything imports as rulecraft.*: the wheel is checked."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _declared() -> tuple[list[str], dict[str, str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    return config["packages"], config["package-dir"]


def test_every_package_folder_is_listed_under_the_rulecraft_namespace() -> None:
    packages, package_dir = _declared()
    found = set()
    for top, name in (
        ("rulecraft", "rulecraft"),
        ("games", "rulecraft.games"),
        ("model", "rulecraft.model"),
        ("invariants", "rulecraft.invariants"),
        ("solvers", "rulecraft.solvers"),
        ("scenarios", "rulecraft.scenario_data"),
    ):
        for init in (ROOT / top).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / top)
            found.add(".".join([name, *rel.parts]))
    assert found == set(packages)
    assert package_dir == {
        "rulecraft.games": "games",
        "rulecraft.model": "model",
        "rulecraft.invariants": "invariants",
        "rulecraft.solvers": "solvers",
        "rulecraft.scenario_data": "scenarios",
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # The pure-Python wheel, also under tox -e compiled (whose environment asks for the compiled one).
    env = {k: v for k, v in os.environ.items() if k != "RULECRAFT_COMPILE"}
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    (built,) = out.glob("rulecraft-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


def test_wheel_installs_no_generic_top_level_module(wheel_names: list[str]) -> None:
    tops = {name.split("/")[0] for name in wheel_names}
    assert {t for t in tops if not t.startswith("rulecraft")} == set(), tops
    for generic in ("model/", "invariants/", "solvers/", "scenarios/", "tests/", "bench/"):
        assert not any(n.startswith(generic) for n in wheel_names), generic


def test_wheel_ships_types_data_and_scenarios(wheel_names: list[str]) -> None:
    names = set(wheel_names)
    for needed in (
        "rulecraft/py.typed",
        "rulecraft/schemas/scenario.json",
        "rulecraft/model/airships/game.py",
        "rulecraft/model/airships/packs/reconstructed.yaml",
        "rulecraft/model/airships/packs/schema.json",
        "rulecraft/invariants/airships.py",
        "rulecraft/solvers/airships/reach.py",
        "rulecraft/scenario_data/airships/AIR-EX-05-throw-3-2-2.yaml",
    ):
        assert needed in names, needed


def test_wheel_registers_the_game_and_the_pytest_plugin(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith("entry_points.txt"))
        text = zf.read(name).decode()
    assert "[rulecraft.games]" in text and "air = rulecraft.games.airships:RECORD" in text
    assert "[pytest11]" in text and "rulecraft.scenarios.plugin" in text
    assert "rulecraft = rulecraft.cli:main" in text
