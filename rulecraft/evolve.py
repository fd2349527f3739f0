"""``evolve`` for the hot paths of the game models: ``attrs.evolve`` with a compiled body per class.

``attrs.evolve`` looks every field up again on each call (about 4 µs for a 19-field state); a random
game makes thousands of them.  :func:`evolve` compiles, once per class, a function that passes each
field straight to the class's ``__init__`` (about 2 µs), so validators and converters still run.
A class it cannot compile that way (a field outside ``__init__``, or an alias) falls back to
``attrs.evolve``; an unknown field raises ``TypeError`` as ``attrs.evolve`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

_MISSING = object()
_EVOLVERS: dict[type, Callable[..., Any]] = {}


def evolve(inst: T, **changes: Any) -> T:
    """A copy of the attrs instance ``inst`` with ``changes`` applied (what ``attrs.evolve`` returns)."""
    cls = type(inst)
    evolver = _EVOLVERS.get(cls)
    if evolver is None:
        evolver = _EVOLVERS[cls] = _compile(cls)
    result: T = evolver(inst, **changes)
    return result


def _compile(cls: type) -> Callable[..., Any]:
    fields = attrs.fields(cls)
    if any(not f.init or f.alias != f.name or f.name.startswith("_") for f in fields):
        return attrs.evolve
    names = [f.name for f in fields]
    params = "".join(f", {n}=_MISSING" for n in names)
    args = ", ".join(f"{n}=_inst_.{n} if {n} is _MISSING else {n}" for n in names)
    source = f"def evolve(_inst_, /{params}):\n    return _cls_({args})\n"
    namespace: dict[str, Any] = {"_MISSING": _MISSING, "_cls_": cls}
    exec(compile(source, f"<evolve {cls.__qualname__}>", "exec"), namespace)  # the source holds only attrs field names
    evolver: Callable[..., Any] = namespace["evolve"]
    return evolver
