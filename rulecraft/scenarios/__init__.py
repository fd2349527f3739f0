"""Printed-example scenarios: schema, loader, runner and pytest plugin."""

from rulecraft.scenarios.loader import Scenario, ScenarioFileError, load_scenario, scenario_files
from rulecraft.scenarios.runner import ScenarioResult, run_scenario, run_scenarios

__all__ = [
    "Scenario",
    "ScenarioFileError",
    "ScenarioResult",
    "load_scenario",
    "run_scenario",
    "run_scenarios",
    "scenario_files",
]
