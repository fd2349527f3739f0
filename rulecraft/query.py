"""A rules question a game answers (``rulecraft query GAME NAME``): the one protocol every game's
solvers implement, and what the machinery (the command line, ``verify``, scenarios) relies on."""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Query(Protocol):
    """One question: its arguments, its answer (Z3, or exact arithmetic) and its oracle check.

    ``run`` answers for a configured game (``state``: a given state, else the query's default);
    ``format`` words an answer for people; ``oracle_check`` compares the solver with a brute-force
    oracle (the model's own functions) on a seeded random instance: None when they agree, else what
    differs."""

    @property
    def name(self) -> str: ...
    @property
    def help(self) -> str: ...

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...
    def run(self, game: Any, params: Mapping[str, Any], state: Any = None) -> dict[str, Any]: ...
    def format(self, answer: Mapping[str, Any]) -> str: ...
    def oracle_check(self, game: Any, rng: random.Random) -> str | None: ...


__all__ = ["Query"]
