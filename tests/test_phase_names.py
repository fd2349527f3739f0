"""Each game's phases bound as module names for its hot paths (issue 18) are the members they name: a
name bound to another member would send a phase's dispatch down the wrong branch."""

from __future__ import annotations

from enum import Enum
from types import ModuleType

import pytest

from rulecraft.model.aeroplanes import state as aer
from rulecraft.model.airships import state as air
from rulecraft.model.kings_of_air_and_steam import state as kas
from rulecraft.model.steamopolis import state as stm


@pytest.mark.parametrize("module", [aer, air, kas, stm], ids=["aer", "air", "kas", "stm"])
def test_every_module_name_of_a_member_is_that_member(module: ModuleType) -> None:
    bound = {name: value for name, value in vars(module).items() if isinstance(value, Enum) and name.isupper()}
    assert "OVER" in bound  # every game binds at least its end phase
    for name, member in bound.items():
        assert member.name == name, f"{module.__name__}.{name} is {member!r}"
