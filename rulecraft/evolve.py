"""``evolve`` for the hot paths of the game models: ``attrs.evolve`` with a compiled body per class.

``attrs.evolve`` looks every field up again on each call (about 4 µs for a 19-field state); a random
game makes thousands of them.  :func:`evolve` compiles, once per class, a function that passes each
field straight to the class's ``__init__`` (about 2 µs; by position where ``__init__`` allows), so
validators and converters still run.
A plain frozen slotted class (every field its own slot, no validator, converter or ``__attrs_post_init__``)
is copied by setting each slot through its descriptor, as its own ``__init__`` does through
``object.__setattr__``, a third faster again (first measured on Aeroplanes' state, issue 18).
A plain frozen class without slots (``slots=False``: the fields live in the instance's dict) is copied
fastest of all: its dict copied whole in C, the changes set, a cached hash cleared (a game state of
twenty-odd fields that a random game copies once to three times a step; issue 18).
A class it cannot compile either way (a field outside ``__init__``, or an alias) falls back to
``attrs.evolve``; an unknown field raises ``TypeError`` as ``attrs.evolve`` does.

:func:`evolver` gives the function itself, for a hot path that copies one class to bind once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import attrs

T = TypeVar("T")

_MISSING = object()
_EVOLVERS: dict[type, Callable[..., Any]] = {}


def evolve(inst: T, /, **changes: Any) -> T:
    """A copy of the attrs instance ``inst`` with ``changes`` applied (what ``attrs.evolve`` returns)."""
    try:
        copier = _EVOLVERS[type(inst)]
    except KeyError:
        copier = _EVOLVERS[type(inst)] = _compile(type(inst))
    result: T = copier(inst, **changes)
    return result


def evolver(cls: type[T]) -> Callable[..., T]:
    """The function :func:`evolve` copies instances of exactly ``cls`` with (``evolver(cls)(inst,
    **changes)``), for a hot path to bind once instead of looking it up on every copy."""
    try:
        copier = _EVOLVERS[cls]
    except KeyError:
        copier = _EVOLVERS[cls] = _compile(cls)
    return copier


def _compile(cls: type) -> Callable[..., Any]:
    fields = attrs.fields(cls)
    if any(not f.init or f.alias != f.name or f.name.startswith("_") for f in fields):
        return attrs.evolve
    slots = cls.__dict__.get("__slots__", ())
    bare = all(f.validator is None and f.converter is None for f in fields)
    bare = bare and not hasattr(cls, "__attrs_post_init__") and not hasattr(cls, "__attrs_pre_init__")
    if bare and not any("__slots__" in vars(c) for c in cls.__mro__[:-1]):
        return _compile_dict(cls, frozenset(f.name for f in fields), _compile_init(cls))
    if bare and all(f.name in slots for f in fields):
        return _compile_slots(cls, [f.name for f in fields], "_attrs_cached_hash" in slots)
    return _compile_init(cls)


def _compile_init(cls: type) -> Callable[..., Any]:
    """A copy made by the class's own ``__init__``, each field passed straight to it."""
    fields = attrs.fields(cls)
    names = [f.name for f in fields]
    params = "".join(f", {n}=_MISSING" for n in names)
    # Positional where ``__init__`` takes the field by position (faster than by keyword), by keyword where
    # it is keyword-only; the positional ones keep the fields' order, which is ``__init__``'s.
    args = ", ".join(
        [f"_inst_.{f.name} if {f.name} is _MISSING else {f.name}" for f in fields if not f.kw_only]
        + [f"{f.name}=_inst_.{f.name} if {f.name} is _MISSING else {f.name}" for f in fields if f.kw_only]
    )
    source = f"def evolve(_inst_, /{params}):\n    return _cls_({args})\n"
    namespace: dict[str, Any] = {"_MISSING": _MISSING, "_cls_": cls}
    exec(compile(source, f"<evolve {cls.__qualname__}>", "exec"), namespace)  # the source holds only attrs field names
    evolver: Callable[..., Any] = namespace["evolve"]
    return evolver


def _compile_slots(cls: type, names: list[str], cached_hash: bool) -> Callable[..., Any]:
    """A copy made as the class's own ``__init__`` makes it (each slot set through its descriptor), without
    the call: only for a class whose ``__init__`` does nothing else (see :func:`_compile`)."""
    namespace: dict[str, Any] = {"_MISSING": _MISSING, "_new_": object.__new__, "_cls_": cls}
    # Field names never start with "_" here (see _compile), so the generated names cannot clash with them.
    lines = ["    _copy_ = _new_(_cls_)"]
    for name in names:
        namespace[f"_set_{name}"] = cls.__dict__[name].__set__
        lines.append(f"    _set_{name}(_copy_, _inst_.{name} if {name} is _MISSING else {name})")
    if cached_hash:  # cache_hash=True: the copy's hash is not worked out yet
        namespace["_set_hash_"] = cls.__dict__["_attrs_cached_hash"].__set__
        lines.append("    _set_hash_(_copy_, None)")
    params = "".join(f", {n}=_MISSING" for n in names)
    source = f"def evolve(_inst_, /{params}):\n" + "\n".join(lines) + "\n    return _copy_\n"
    exec(compile(source, f"<evolve {cls.__qualname__}>", "exec"), namespace)  # the source holds only attrs field names
    evolver: Callable[..., Any] = namespace["evolve"]
    return evolver


def _compile_dict(cls: type, names: frozenset[str], by_init: Callable[..., Any]) -> Callable[..., Any]:
    """A copy made as the class's own ``__init__`` makes it, for a class whose fields live in the
    instance's dict and whose ``__init__`` does nothing else (see :func:`_compile`): the dict copied whole,
    the changes set, a cached hash (``cache_hash=True``) cleared.  An instance whose dict holds more
    than its fields (a ``cached_property``'s value, say: it would be wrong in the copy) is copied
    ``by_init``."""
    new = object.__new__
    set_attribute = object.__setattr__  # the class is frozen: its own __init__ sets fields this way too
    size = len(names)

    def evolve(inst: Any, /, **changes: Any) -> Any:
        if not names.issuperset(changes):
            unknown = sorted(set(changes) - names)
            name = unknown[0]
            raise TypeError(
                f"{cls.__qualname__} has no field {name!r} (__init__() got an unexpected keyword argument {name!r})"
            )
        fields = inst.__dict__.copy()
        if len(fields) != size:
            if len(fields) != size + 1 or "_attrs_cached_hash" not in fields:
                return by_init(inst, **changes)
            fields["_attrs_cached_hash"] = None  # only a class that caches its hash has it: not worked out yet
        fields.update(changes)
        copy: Any = new(cls)
        set_attribute(copy, "__dict__", fields)
        return copy

    return evolve
