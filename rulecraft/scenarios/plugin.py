"""pytest plugin (entry point ``pytest11``): scenario files are test items.

Plain ``pytest`` collects every ``scenarios/<game>/XXX-EX-nn-*.yaml`` below
its paths.  A malformed file fails as one item naming the file and field;
the other files still run.  ``--reading AIR-AMB-09=C`` runs them under a
non-default reading (files that set the reading themselves keep theirs).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulecraft.ruleset import parse_reading_overrides
from rulecraft.scenarios.loader import ScenarioFileError, load_scenario
from rulecraft.scenarios.runner import ScenarioResult, run_scenario


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rulecraft")
    group.addoption(
        "--reading",
        action="append",
        default=[],
        metavar="AMB=READING",
        help="run scenarios under this ambiguity reading (repeatable)",
    )


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if (
        file_path.suffix == ".yaml"
        and file_path.parent.parent.name == "scenarios"
        and _is_scenario_name(file_path.name)
    ):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


def _is_scenario_name(name: str) -> bool:
    parts = name.split("-")
    return len(parts) >= 3 and len(parts[0]) == 3 and parts[0].isupper() and parts[1] == "EX"


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioFailed(Exception):
    pass


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        try:
            scenario = load_scenario(self.path)
        except ScenarioFileError as exc:
            raise ScenarioFailed(str(exc)) from None
        readings = parse_reading_overrides(self.config.getoption("reading") or [])
        result = run_scenario(scenario, readings=readings)
        self.user_properties.append(("page", result.page))
        if not result.passed:
            raise ScenarioFailed(_explain(result))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"scenario {self.name}"


def _explain(result: ScenarioResult) -> str:
    lines = [f"{result.id} (p.{result.page}) {result.title}: {result.status}"]
    if result.error:
        lines.append(f"  error: {result.error}")
    lines += [f"  {f}" for f in result.failures]
    return "\n".join(lines)
