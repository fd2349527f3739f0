"""Planted rule deviations: the reference server with exactly one rule changed.

    python bench/planted.py GAME NAME     # serve GAME over the protocol with NAME planted
    python bench/planted.py --list        # the table of deviations

The conformance benchmark (bench/conformance.py) runs ``rulecraft conform`` against each of them;
a good conformance kit finds every one and names its rule.  The deviations of each game live in
bench/planted_<game>.py (``DEVIATIONS``, see planted_base.Deviation).
"""

from __future__ import annotations

import builtins
import importlib
import sys
from collections.abc import Callable, Sequence

import planted_base

from rulecraft.compiled import compiled_modules

MODULES = ("planted_air", "planted_kas", "planted_stm", "planted_aer")


def _collect() -> tuple[dict[tuple[str, str], planted_base.Deviation], tuple[Callable[[], None], ...]]:
    found: dict[tuple[str, str], planted_base.Deviation] = {}
    caches: list[Callable[[], None]] = []
    for module_name in MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:  # a module the game file itself needs is missing: a real error
                raise
            continue  # another engineer has not written this game's deviations yet
        for deviation in module.DEVIATIONS:
            key = (deviation.game, deviation.name)
            if key in found:
                raise ValueError(f"{module_name}: deviation {key} is defined twice")
            found[key] = deviation
        caches.extend(getattr(module, "CACHES_TO_CLEAR", ()))
    return found, tuple(caches)


ALL, CACHES = _collect()  # CACHES: the model memos a deviation may touch, to clear after planting or undoing


def clear_caches() -> None:
    for clear in CACHES:
        clear()


def table() -> str:
    rows = [("game", "name", "category", "rules", "what")]
    rows += [(d.game, d.name, d.category, " ".join(d.rules), d.what) for d in ALL.values()]
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)) + "  " + row[4]
        for row in rows
    )


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--list"]:
        print(table())
        return 0
    if len(args) != 2 or tuple(args) not in ALL:
        known: dict[str, list[str]] = {}
        for game, name in ALL:
            known.setdefault(game, []).append(name)
        listed = "; ".join(f"{game}: {', '.join(sorted(names))}" for game, names in sorted(known.items()))
        print(f"usage: python bench/planted.py GAME NAME | --list; known: {listed}", file=sys.stderr)
        return 4
    deviation = ALL[(args[0], args[1])]
    compiled = compiled_modules()
    if compiled:  # a compiled module calls its own functions directly: a patch would change nothing
        print(
            f"bench/planted.py: a planted deviation patches the model's Python functions, and {len(compiled)}"
            " modules run compiled (RULECRAFT_COMPILE): use the pure-Python build",
            file=sys.stderr,
        )
        return 4
    deviation.plant(builtins.setattr)
    clear_caches()
    from rulecraft.conformance.server import serve

    return serve(deviation.game)


if __name__ == "__main__":
    raise SystemExit(main())
