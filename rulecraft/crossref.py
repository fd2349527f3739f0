"""Which code enforces a rule, and which scenarios and tests exercise it.

Found by reading the sources for the rule's ID: the model cites rule IDs in
every rejection and effect, scenarios list them under ``rules:``, and tests
name them in their names, docstrings or assertions.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

from rulecraft import yamlio
from rulecraft.core import Game

_ID = re.compile(r"\b([A-Z]{3}-(?:R|SET)-\d{2,3})\b")
_SCENARIO_ID = re.compile(r"""^id:[ \t]*["']?([^"'\s#]+)""", re.MULTILINE)  # a scenario's top-level id
_SKIP = {"catalogue.py", "readings.py"}  # they list every rule; they enforce none


def _package_dir(module: str) -> Path | None:
    """Where a module's source is, found without running it (the solvers would import Z3)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def _scan(paths: list[Path], root: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in paths:
        if path.name in _SKIP:
            continue
        try:
            lines = path.read_text("utf-8").splitlines()
        except OSError:
            continue
        for number, line in enumerate(lines, start=1):
            for rule in set(_ID.findall(line)):
                where = f"{path.relative_to(root)}:{number}" if path.is_relative_to(root) else f"{path.name}:{number}"
                found.setdefault(rule, []).append(where)
    return found


def crossref(cls: type[Game[Any, Any]]) -> dict[str, dict[str, list[str]]]:
    package = cls.__module__.rsplit(".", 1)[0]  # rulecraft.model.<game>
    short = package.rsplit(".", 1)[1]
    code_paths: list[Path] = []
    for module in (package, f"rulecraft.invariants.{short}", f"rulecraft.solvers.{short}"):
        d = _package_dir(module)
        if d is None:
            continue
        if module.startswith("rulecraft.invariants"):
            code_paths.extend(p for p in d.glob("*.py") if p.stem == short)
        else:
            code_paths.extend(sorted(d.glob("*.py")))
    repo = Path(__file__).resolve().parents[1]
    code = _scan(sorted(set(code_paths)), repo)

    from rulecraft.scenarios.loader import scenario_files

    scenarios: dict[str, list[str]] = {}
    for path in scenario_files(cls.id):
        try:  # within yamlio's limits: a hostile scenario file must not stall `rulecraft rules`
            text = yamlio.read_text_file(path)
        except yamlio.DataFileError:
            continue
        # The rule IDs a scenario names (its `rules:` list among them) and its `id:` are read from the
        # text: parsing every scenario's YAML was most of `rulecraft rules`' time.
        named = _SCENARIO_ID.search(text)
        scenario_id = named.group(1) if named else path.stem
        for rule_id in set(_ID.findall(text)):
            scenarios.setdefault(rule_id, []).append(scenario_id)
    tests: dict[str, list[str]] = {}
    test_dir = repo / "tests"
    if test_dir.is_dir():
        for rule_id, places in _scan(sorted(test_dir.glob("test_*.py")), repo).items():
            tests[rule_id] = sorted({p.split(":")[0].removeprefix("tests/") for p in places})
    out: dict[str, dict[str, list[str]]] = {}
    for rule in cls.catalogue:
        places = code.get(rule.id, [])
        files: dict[str, str] = {}
        for p in places:
            name, line = p.rsplit(":", 1)
            files.setdefault(name, line)
        out[rule.id] = {
            "code": [f"{Path(n).name}:{line}" for n, line in files.items()],
            "scenarios": sorted(set(scenarios.get(rule.id, []))),
            "tests": tests.get(rule.id, []),
        }
    return out
