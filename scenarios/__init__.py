"""Printed-example scenarios, one folder per game (installed as rulecraft.scenario_data)."""
