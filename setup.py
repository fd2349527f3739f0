"""Builds rulecraft (the metadata is pyproject.toml's).  With RULECRAFT_COMPILE=1 (a wheel, never an
editable install: build_backend/rulecraft_build.py) the modules in COMPILED are compiled with mypyc
beside their pure-Python sources; docs/speed.md says what that buys."""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "build_backend"))
from rulecraft_build import COMPILE, compiling  # noqa: E402 - the backend's folder, put on the path above

# Each game's legality and effects: where a random game spends its time (bench/speed.py).  The flight
# rules of Kings of Air and Steam and every state.py stay interpreted: mypyc cannot compile an attrs
# class whose fields have defaults (Airships keeps its own in context.py and pools.py for this).  The
# games' game.py and the hex grid compile, but break the suite (tox -e compiled): a configured game or a
# test subclasses the game class ("interpreted classes cannot inherit from compiled"), and hexes compared
# in compiled code misjudge depots and lines (KAS-R-29/51, KAS-EX-09, -10 ...).
COMPILED = (
    "model/airships/dice.py",
    "model/airships/rules.py",
    "model/airships/transitions.py",
    "model/kings_of_air_and_steam/rules.py",
    "model/kings_of_air_and_steam/transitions.py",
    "model/steamopolis/rules.py",
    "model/steamopolis/transitions.py",
    "model/aeroplanes/rules.py",
    "model/aeroplanes/transitions.py",
)


def layout() -> dict[str, str]:
    """Source folder -> import path, as pyproject.toml's [tool.setuptools.package-dir] maps them."""
    mapped = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-dir"]
    return {"rulecraft": "rulecraft", **{folder: name.replace(".", "/") for name, folder in mapped.items()}}


STAGE = ROOT / "build" / "mypyc-src"


def staged(path: str) -> str:
    """``path`` (a source file) as it lies in the stage, in its import layout."""
    top, _, rest = path.partition("/")
    return f"{layout()[top]}/{rest}"


def stage() -> None:
    """Copy the Python sources into their import layout (model/ as rulecraft/model/ ...), so that mypyc
    names each compiled module as it is imported and type-checks it against the others."""
    shutil.rmtree(STAGE, ignore_errors=True)
    for top, target in layout().items():
        for source in (ROOT / top).rglob("*"):
            if source.suffix in (".py", ".typed") and "__pycache__" not in source.parts:
                dest = STAGE / target / source.relative_to(ROOT / top)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, dest)


def extensions() -> list[object]:
    # Only a build compiles: setuptools also runs this file to read the metadata and the requirements.
    if not compiling() or not {"bdist_wheel", "build", "build_ext", "install"} & set(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit(f"{COMPILE}=1 needs mypy (mypyc) in the build environment: pip install 'mypy>=1.16'") from None
    stage()
    # setuptools packages whatever an earlier build left in build/lib*: a module compiled then but not
    # listed now would ship as a stale extension beside its source (and fail to import).
    for stale in (ROOT / "build").glob("lib*/**/*.so"):
        stale.unlink()
    here = Path.cwd()
    os.chdir(STAGE)  # mypy names modules from the stage's layout, never from the source folders
    try:
        return list(
            mypycify(
                [staged(p) for p in COMPILED],
                opt_level="3",
                group_name="rulecraft",
                target_dir=str(ROOT / "build" / "mypyc-c"),
            )
        )
    finally:
        os.chdir(here)


setup(ext_modules=extensions())
