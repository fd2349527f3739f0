"""Test-suite configuration: the Hypothesis profile (``ci`` by default)."""

from __future__ import annotations

from rulecraft.profiles import load_default

load_default()
