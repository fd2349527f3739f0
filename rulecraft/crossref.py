"""Which code enforces a rule, and which scenarios and tests exercise it.

Found by reading the sources for the rule's ID: the model cites rule IDs in
every rejection and effect, scenarios list them under ``rules:``, and tests
name them in their names, docstrings or assertions.
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Collection, Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from rulecraft import yamlio
from rulecraft.core import AnyGame

if TYPE_CHECKING:
    from rulecraft.catalogue import RuleCatalogue

_ID = re.compile(r"\b([A-Z]{3}-(?:R|SET)-\d{2,3})\b")
_TAIL = re.compile(r"-(?:R|SET)-\d{2,3}\b")  # what follows the game's three letters in _ID
_SCENARIO_ID = re.compile(r"""^id:[ \t]*["']?([^"'\s#]+)""", re.MULTILINE)  # a scenario's top-level id
_SKIP = {"catalogue.py", "readings.py"}  # they list every rule; they enforce none


def _package_dir(module: str) -> Path | None:
    """Where a module's source is, found without running it (the solvers would import Z3)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


_OTHER_BREAKS = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"  # str.splitlines' line ends but \n


def _scan(paths: list[Path], root: Path, prefixes: Collection[str] | None = None) -> dict[str, list[str]]:
    """Where each rule ID occurs: ``file:line`` once per line, in file and line order; with
    ``prefixes`` (a game's three letters, AIR), the IDs of those games alone."""
    found: dict[str, list[str]] = {}
    own = None if prefixes is None else tuple(f"{prefix}-" for prefix in prefixes)
    letters = None if own is None else [prefix.encode() for prefix in own]
    for path in paths:
        if path.name in _SKIP:
            continue
        try:
            data = path.read_bytes()
        except OSError:
            continue
        # Most test files name no rule of the game: their bytes are searched, never decoded (in UTF-8
        # an ASCII letter is its own byte, and no other character's bytes hold one).
        if letters is not None and not any(prefix in data for prefix in letters):
            continue
        text = data.decode("utf-8")
        if "\r" in text:  # what read_text's universal newlines make of them, as before
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        name = f"{path.relative_to(root)}" if path.is_relative_to(root) else path.name
        if any(end in text for end in _OTHER_BREAKS):  # rare: number the lines as str.splitlines does
            hits = [(number, rule) for number, line in enumerate(text.splitlines(), 1) for rule in _ID.findall(line)]
            hits = hits if own is None else [hit for hit in hits if hit[1].startswith(own)]
        else:  # one pass over the whole text, not a search per line (it was most of `rulecraft rules`)
            hits = _hits(text, prefixes)
        seen: set[tuple[int, str]] = set()
        for hit in hits:  # a rule named twice on one line counts once
            if hit not in seen:
                seen.add(hit)
                found.setdefault(hit[1], []).append(f"{name}:{hit[0]}")
    return found


def _hits(text: str, prefixes: Collection[str] | None = None) -> list[tuple[int, str]]:
    """(line number, rule ID) of every rule ID in ``text``, whose only line ends are newlines (a rule
    ID holds no line end, so it is found in the whole text as on its line); with ``prefixes``, of
    those games' IDs alone."""
    out = []
    number, counted = 1, 0
    if prefixes is None:  # a literal first: many times faster than _ID over a whole file
        starts: Iterable[int] = (candidate.start() - 3 for candidate in _TAIL.finditer(text))
    else:  # the game's own letters: a longer literal, rarer still (a third of `rulecraft rules`' scan)
        starts = sorted(hit.start() for prefix in prefixes for hit in _prefixed(prefix).finditer(text))
    for start in starts:
        match = _ID.match(text, start) if start >= 0 else None  # the whole ID, its left edge a word's
        if match is None:
            continue
        number += text.count("\n", counted, start)
        counted = start
        out.append((number, match.group(1)))
    return out


def _parts(path: Path) -> tuple[str, ...]:
    """A path's sort key: the order of sorted paths (part by part, in lower case on Windows as Path
    compares there), without Path's slow comparisons."""
    return tuple(part.lower() for part in path.parts) if os.name == "nt" else path.parts


@cache
def _prefixed(prefix: str) -> re.Pattern[str]:
    """A rule ID of the game ``prefix`` names, found from its literal letters (``_ID`` checks the match)."""
    return re.compile(re.escape(prefix) + _TAIL.pattern)


def crossref(cls: type[AnyGame]) -> dict[str, dict[str, list[str]]]:
    """Rule ID -> where the code cites it, which scenarios and which test files name it."""
    return cross_reference(cls.id, cls.__module__.rsplit(".", 1)[0], cls.catalogue)


def cross_reference(game_id: str, package: str, catalogue: RuleCatalogue) -> dict[str, dict[str, list[str]]]:
    """:func:`crossref` of the game ``game_id`` whose model is ``package`` (rulecraft.model.<game>),
    from its catalogue alone: the sources are read, not imported (`rulecraft rules` imports no rules engine)."""
    short = package.rsplit(".", 1)[1]
    code_paths: list[Path] = []
    for module in (package, f"rulecraft.invariants.{short}", f"rulecraft.solvers.{short}"):
        d = _package_dir(module)
        if d is None:
            continue
        if module.startswith("rulecraft.invariants"):
            code_paths.extend(p for p in d.glob("*.py") if p.stem == short)
        else:
            code_paths.extend(d.glob("*.py"))
    repo = Path(__file__).resolve().parents[1]
    prefixes = {rule.id.split("-")[0] for rule in catalogue}  # only the catalogue's rules are listed
    code = _scan(sorted(set(code_paths), key=_parts), repo, prefixes)

    from rulecraft.scenarios.loader import scenario_files

    scenarios: dict[str, list[str]] = {}
    for path in scenario_files(game_id):
        try:  # within yamlio's limits: a hostile scenario file must not stall `rulecraft rules`
            text = yamlio.read_text_file(path)
        except yamlio.DataFileError:
            continue
        # The rule IDs a scenario names (its `rules:` list among them) and its `id:` are read from the
        # text: parsing every scenario's YAML was most of `rulecraft rules`' time.
        named = _SCENARIO_ID.search(text)
        scenario_id = named.group(1) if named else path.stem
        for rule_id in {rule_id for _, rule_id in _hits(text, prefixes)}:  # (the line numbers are not needed)
            scenarios.setdefault(rule_id, []).append(scenario_id)
    tests: dict[str, list[str]] = {}
    test_dir = repo / "tests"
    if test_dir.is_dir():
        for rule_id, places in _scan(sorted(test_dir.glob("test_*.py"), key=_parts), repo, prefixes).items():
            tests[rule_id] = sorted({p.split(":")[0].removeprefix("tests/") for p in places})
    out: dict[str, dict[str, list[str]]] = {}
    for rule in catalogue:
        places = code.get(rule.id, [])
        files: dict[str, str] = {}
        for p in places:
            name, line = p.rsplit(":", 1)
            files.setdefault(name, line)
        out[rule.id] = {
            "code": [f"{Path(n).name}:{line}" for n, line in files.items()],
            "scenarios": sorted(set(scenarios.get(rule.id, []))),
            "tests": tests.get(rule.id, []),
        }
    return out
