"""Which of rulecraft's modules run compiled (the optional mypyc build: ``RULECRAFT_COMPILE=1 pip
install .``, setup.py) rather than as Python, found on disk without importing them.

Benchmarks print it beside their figures, so a number is never read as the other build's; the test
suite checks that a development install has none (a stray in-place build would hide every later edit
of the sources it shadows).
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

# The top-level packages: pyproject.toml installs each from its own folder in a development install.
PACKAGES = ("rulecraft", "rulecraft.games", "rulecraft.model", "rulecraft.invariants", "rulecraft.solvers")


@cache  # the installed files do not change while a process runs
def compiled_modules() -> tuple[str, ...]:
    """The dotted names of rulecraft's modules that are extension modules, sorted."""
    found: set[str] = set()
    for package in PACKAGES:
        for folder in importlib.import_module(package).__path__:
            root = Path(folder)
            for path in root.rglob("*"):
                suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
                if suffix is None or "__pycache__" in path.parts:
                    continue
                parts = path.relative_to(root).parent.parts
                found.add(".".join((package, *parts, path.name[: -len(suffix)])))
    return tuple(sorted(found))


def compiled_under(prefix: str) -> list[str]:
    """The compiled modules whose names start with ``prefix`` (``"rulecraft.model."``: any game's model)."""
    return [name for name in compiled_modules() if name.startswith(prefix)]


def describe() -> str:
    """One line for a report: the build's kind and its compiled modules."""
    names = compiled_modules()
    if not names:
        return "pure Python"
    return f"mypyc-compiled ({len(names)} modules: {', '.join(n.removeprefix('rulecraft.') for n in names)})"


def source_file(module: ModuleType) -> Path:
    """The Python source of ``module``: its own file, or for a compiled module the source installed
    beside it (``rules.cpython-311-x86_64-linux-gnu.so`` -> ``rules.py``)."""
    path = Path(str(module.__file__))
    if path.suffix == ".py":
        return path
    return path.with_name(module.__name__.rsplit(".", 1)[-1] + ".py")
