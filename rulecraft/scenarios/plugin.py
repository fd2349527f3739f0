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

from rulecraft.core import cite
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
    group.addoption(
        "--conform",
        action="append",
        default=[],
        metavar="GAME=COMMAND",
        help="test an implementation of GAME started by COMMAND against the rules (repeatable)",
    )
    group.addoption(
        "--rulecraft-database",
        metavar="FOLDER|URL",
        help="Hypothesis example database for every search: a folder or redis://HOST:PORT[/DB]"
        " (default: $RULECRAFT_DATABASE, else the profile's)",
    )
    group.addoption("--conform-examples", type=int, default=30, help="differential games per implementation")
    group.addoption("--conform-seed", type=int, default=0)
    group.addoption("--conform-report", metavar="FILE", help="write the conformance report (Markdown) here")


@pytest.hookimpl(trylast=True)  # after Hypothesis's own plugin has loaded --hypothesis-profile
def pytest_configure(config: pytest.Config) -> None:
    """``--rulecraft-database`` (else ``RULECRAFT_DATABASE``): every Hypothesis search of the run
    keeps its examples there, a folder or ``redis://HOST:PORT[/DB]``."""
    from rulecraft.profiles import DatabaseSettingError, database_setting, open_database, use_database

    setting = database_setting(config.getoption("rulecraft_database", None))
    if setting is None:
        return
    try:
        use_database(open_database(setting))
    except DatabaseSettingError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """``--conform air="node my-airships.js"`` adds one test item per implementation."""
    for spec in config.getoption("conform") or []:
        game, sep, command = spec.partition("=")
        if not sep or not command.strip():
            raise pytest.UsageError(f"--conform {spec!r}: expected GAME=COMMAND")
        items.append(ConformItem.from_parent(session, name=f"conform[{game}]", game=game, command=command))


class ConformItem(pytest.Item):
    def __init__(self, *, game: str, command: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = game
        self.command = command

    def runtest(self) -> None:
        from rulecraft.conformance.conform import conform
        from rulecraft.conformance.report import markdown
        from rulecraft.registry import make_game

        report = conform(
            make_game(self.game),
            self.command,
            max_examples=self.config.getoption("conform_examples"),
            seed=self.config.getoption("conform_seed"),
        )
        text = markdown(report)
        path = self.config.getoption("conform_report")
        if path:
            Path(path).write_text(text, "utf-8")
        if not report.conformant:
            raise ScenarioFailed(text)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return self.game, None, f"conform {self.game}: {self.command}"


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
    lines = [f"{result.id} ({cite(result.page)}) {result.title}: {result.status}"]
    if result.error:
        lines.append(f"  error: {result.error}")
    lines += [f"  {f}" for f in result.failures]
    return "\n".join(lines)
