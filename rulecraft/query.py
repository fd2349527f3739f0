"""A rules question a game answers (``rulecraft query GAME NAME``): the one protocol every game's
solvers implement, and what the machinery (the command line, ``verify``, scenarios) relies on."""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from rulecraft.core import RulecraftError


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


def int_param(params: Mapping[str, Any], key: str, default: int, lo: int | None = None, hi: int | None = None) -> int:
    """A whole-number argument of a query (``params[key]``, else ``default``), within ``lo``..``hi``; a
    bad value is one line naming the option (``--timeout-ms: at least 0, got -5``)."""
    flag = f"--{key.replace('_', '-')}"
    value = params.get(key)
    if value is None:
        return default
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise RulecraftError(f"{flag}: an integer, got {value!r}") from None
    if (lo is not None and n < lo) or (hi is not None and n > hi):
        bounds = (
            f"between {lo} and {hi}"
            if lo is not None and hi is not None
            else f"at least {lo}"
            if hi is None
            else f"at most {hi}"
        )
        raise RulecraftError(f"{flag}: {bounds}, got {n}")
    return n


__all__ = ["Query", "int_param"]
