"""rulecraft.evolve: the same result as attrs.evolve, validators included, and the same errors."""

from __future__ import annotations

import functools
from typing import Any

import attrs
import pytest

from rulecraft.evolve import evolve, evolver


def _positive(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if value < 0:
        raise ValueError(f"{attribute.name} must be at least 0")


@attrs.frozen
class Depot:
    coal: int = attrs.field(validator=_positive)
    name: str = "depot"
    cls: str = "a field named like the generated code's variables"


@attrs.frozen
class Hidden:
    shown: int
    _secret: int = 0  # an alias ("secret"): the compiled form does not apply
    derived: int = attrs.field(init=False, default=7)


def test_same_as_attrs_evolve() -> None:
    depot = Depot(3, "north")
    assert evolve(depot, coal=5) == attrs.evolve(depot, coal=5) == Depot(5, "north")
    assert evolve(depot) == depot
    assert evolve(depot, cls="x").cls == "x"


def test_validators_still_run() -> None:
    with pytest.raises(ValueError, match="coal must be at least 0"):
        evolve(Depot(3), coal=-1)


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(TypeError):
        evolve(Depot(3), gold=1)


def test_aliases_and_uninitialised_fields_fall_back_to_attrs() -> None:
    hidden = Hidden(1, 2)
    assert evolve(hidden, shown=4) == attrs.evolve(hidden, shown=4) == Hidden(4, 2)
    assert evolve(hidden, secret=9) == Hidden(1, 9)


@attrs.frozen(cache_hash=True)
class Route:
    """A plain frozen slotted class: copied slot by slot.  Field names like the generated code's own."""

    new: int
    copy: tuple[str, ...] = ()
    inst: str = "x"


def test_a_plain_slotted_class_is_copied_slot_by_slot_with_the_same_result() -> None:
    route = Route(1, ("a",))
    hash(route)  # the cached hash is worked out now: a copy must not keep it
    changes: dict[str, Any] = {"new": 2, "inst": "y"}  # 'inst' is also the name of evolve's own parameter
    moved = evolve(route, **changes)
    assert moved == attrs.evolve(route, **changes) == Route(2, ("a",), "y")
    assert type(moved) is Route and hash(moved) == hash(Route(2, ("a",), "y")) != hash(route)
    assert evolve(route) == route and evolve(route) is not route
    with pytest.raises(TypeError):
        evolve(route, gold=1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moved.new = 3  # type: ignore[misc]


@attrs.frozen(cache_hash=True, slots=False)
class Ledger:
    """A plain frozen class without slots: copied by its fields' dict.  Field names like the copier's own."""

    fields: tuple[int, ...]
    copy: int = 0
    names: str = "x"


@attrs.frozen(slots=False)
class Sheet:
    """Without a cached hash, and with a cached property whose value lives in the instance's dict."""

    rows: int
    cols: int = 1

    @functools.cached_property
    def cells(self) -> int:
        return self.rows * self.cols


def test_a_plain_class_without_slots_is_copied_by_its_dict_with_the_same_result() -> None:
    ledger = Ledger((1, 2), 3)
    hash(ledger)  # the cached hash is worked out now: a copy must not keep it
    moved = evolve(ledger, copy=4, names="y")
    assert moved == attrs.evolve(ledger, copy=4, names="y") == Ledger((1, 2), 4, "y")
    assert type(moved) is Ledger and hash(moved) == hash(Ledger((1, 2), 4, "y")) != hash(ledger)
    assert vars(moved) == vars(Ledger((1, 2), 4, "y")) | {"_attrs_cached_hash": hash(moved)}
    assert evolve(ledger) == ledger and evolve(ledger) is not ledger
    with pytest.raises(TypeError, match="unexpected keyword argument 'gold'"):
        evolve(ledger, gold=1)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        moved.copy = 5  # type: ignore[misc]
    assert vars(evolve(Sheet(2), cols=3)) == {"rows": 2, "cols": 3}  # no cached-hash key made up


def test_a_dict_holding_more_than_the_fields_is_copied_by_init_never_carried_over() -> None:
    sheet = Sheet(2, 3)
    assert sheet.cells == 6  # now in the instance's dict
    wider = evolve(sheet, cols=5)
    assert wider.cells == 10 and wider == Sheet(2, 5)


def test_the_evolver_of_a_class_is_the_one_evolve_uses() -> None:
    copier = evolver(Ledger)
    assert copier is evolver(Ledger)
    assert copier(Ledger((1,)), copy=2) == evolve(Ledger((1,)), copy=2) == Ledger((1,), 2)
