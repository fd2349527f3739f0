"""Mutation testing of one game with mutmut 3: a per-module summary and the list of survivors.

    python bench/mutation/run.py GAME [MODULE ...] [--module M] [--changed-since REF] [--jobs N]
    python bench/mutation/run.py GAME --solvers          # the Z3 encodings, against the solver tests

GAME is a game id (aer, air, kas, stm) or its package name.  MODULE is a repository path
(model/aeroplanes/rules.py), a module name of the game's model package (rules), or ``invariants``;
default: the game's modules in games.toml.  ``--changed-since REF`` keeps only the modules changed
since that git ref (nothing changed: nothing mutated).  ``--check`` then runs ratchet.py on the
modules it mutated (exit 1 if a recorded score dropped).

mutmut imports the code it mutates from ``mutants/<source path>``, by the file's path; here the
model, invariants and solvers live in top-level folders that setuptools maps to ``rulecraft.*``.
So the run happens in a temporary shadow tree laid out as installed (``rulecraft/model/...``),
beside copies of tests/, scenarios/ and model/ (the tests read data files there, and the scenario
loader looks for ``scenarios/`` beside the package, as in the source tree): the working tree is never
mutated, and other people's test runs never see a mutant.

Writes ``results/<game>.json`` and ``results/<game>.md`` (git-ignored) and prints the Markdown:
per module killed / survived / no tests / timeout / other / total and the score (killed and
timeouts over every mutant), then each survivor as ``file:line`` and the mutation.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs
import ratchet
from ratchet import ROOT, MutationDataError, changed_files, percent, sha256_of, write_json
from readings import functions_with_lines, reading_lines

HERE = Path(__file__).resolve().parent
GAMES = HERE / "games.toml"
RESULTS = HERE / "results"
PROFILE_PLUGIN = HERE / "rulecraft_mutation_profile.py"
MUTMUT_PIN = "mutmut==3.8.1"
# Repository folder -> where setuptools installs it (pyproject.toml's package-dir).
LAYOUT = {
    "rulecraft": "rulecraft",
    "games": "rulecraft/games",
    "model": "rulecraft/model",
    "invariants": "rulecraft/invariants",
    "solvers": "rulecraft/solvers",
    "scenarios": "rulecraft/scenario_data",
}
# mutmut 3's exit code of a mutant's test run -> status (mutmut/stats.py).
STATUS_BY_EXIT = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped"}
STATUS_BY_EXIT |= {36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout"}
STATUS_BY_EXIT |= {37: "caught by type check", 35: "suspicious", -11: "segfault", -9: "segfault"}
COUNTED = ("killed", "survived", "no tests", "timeout")
LISTED = frozenset({"survived", "no tests", "suspicious", "segfault", "not checked"})
MUTANT_KEY = re.compile(r"^(?P<func>.+)__mutmut_(?P<n>\d+)$")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")


@attrs.frozen
class Game:
    id: str
    package: str
    modules: tuple[str, ...]
    tests: tuple[str, ...]
    deselect: tuple[str, ...]
    # [GAME.solvers]: the Z3 encodings of the rules, mutated in runs of their own (--solvers) against
    # the solver tests, which check each answer beside a brute-force oracle.
    solver_modules: tuple[str, ...] = ()
    solver_tests: tuple[str, ...] = ()
    solver_deselect: tuple[str, ...] = ()

    def selection(self, modules: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The tests (and deselected tests) that must kill the mutants of ``modules``: the solver tests
        for solver modules, else the game's tests; one run mutates one kind."""
        solvers = {m.startswith("solvers/") for m in modules}
        if solvers == {True, False}:
            raise MutationDataError("MODULE", "solvers/", "solver modules are mutated in a run of their own")
        if solvers != {True}:
            return self.tests, self.deselect
        if not self.solver_tests:
            raise MutationDataError(str(GAMES), f"{self.id}.solvers.tests", "no solver tests to run")
        return self.solver_tests, self.solver_deselect


@attrs.frozen
class Survivor:
    """A mutant the tests let through: where, what changed, and mutmut's name for it."""

    line: int
    status: str
    mutation: str
    mutant: str


@attrs.frozen
class ModuleReport:
    module: str
    counts: Mapping[str, int]
    survivors: tuple[Survivor, ...]
    source_sha256: str
    # Ambiguity ID -> {killed, total, survivors: [line, ...]} over the mutants on its readings' lines.
    readings: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def killed(self) -> int:
        # A mutant that makes the tests hang was noticed all the same.
        return self.counts.get("killed", 0) + self.counts.get("timeout", 0)

    def to_json(self) -> dict[str, Any]:
        counts = {name.replace(" ", "_"): self.counts.get(name, 0) for name in COUNTED}
        other = self.total - sum(self.counts.get(name, 0) for name in COUNTED)
        return {
            **counts,
            "other": other,
            "not_checked": self.counts.get("not checked", 0),  # > 0: an unfinished run, no score to record
            "total": self.total,
            "score": percent(self.killed, self.total),
            "source_sha256": self.source_sha256,
            "survivors": [attrs.asdict(s) for s in self.survivors],
            "readings": {
                amb: dict(r, score=percent(r["killed"], r["total"])) for amb, r in sorted(self.readings.items())
            },
        }


# --- games and modules -----------------------------------------------------------------------


def _strings(name: str, field: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MutationDataError(str(GAMES), f"{name}.{field}", "not a list of strings")
    return tuple(value)


def load_games(path: Path = GAMES) -> dict[str, Game]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MutationDataError(str(path), "file", str(exc)) from None
    games = {}
    for gid, raw in data.items():
        if not isinstance(raw, dict) or not isinstance(raw.get("package"), str):
            raise MutationDataError(str(path), f"{gid}.package", "missing or not a string")
        fields = {f: _strings(gid, f, raw.get(f, [])) for f in ("modules", "tests", "deselect")}
        solvers = raw.get("solvers", {})
        if not isinstance(solvers, dict):
            raise MutationDataError(str(path), f"{gid}.solvers", "not a table")
        for f in ("modules", "tests", "deselect"):
            fields[f"solver_{f}"] = _strings(f"{gid}.solvers", f, solvers.get(f, []))
        games[gid] = Game(gid, raw["package"], **fields)
    return games


def find_game(games: Mapping[str, Game], name: str) -> Game:
    for game in games.values():
        if name in {game.id, game.package}:
            return game
    raise MutationDataError("GAME", name, f"not a game; one of {', '.join(sorted(games))} or their package names")


def resolve_module(game: Game, name: str) -> str:
    """A repository path of one of the game's own Python modules."""
    candidates = [name, f"model/{game.package}/{name}.py", f"model/{game.package}/{name}"]
    if name == "invariants":
        candidates.insert(0, f"invariants/{game.package}.py")
    own = (f"model/{game.package}/", f"invariants/{game.package}.py", f"solvers/{game.package}/")
    for candidate in candidates:
        if candidate.endswith(".py") and candidate.startswith(own) and (ROOT / candidate).is_file():
            return candidate
    raise MutationDataError("MODULE", name, f"not a Python module of {game.package} (model/, invariants/, solvers/)")


def shadow_path(module: str) -> str:
    """model/aeroplanes/rules.py -> rulecraft/model/aeroplanes/rules.py."""
    top, _, rest = module.partition("/")
    return f"{LAYOUT[top]}/{rest}"


# --- the shadow tree ---------------------------------------------------------------------------


def _toml_value(value: object) -> str:
    # The values written are strings, lists of strings and ints: JSON spells them as TOML does.
    return json.dumps(value, ensure_ascii=False)


def _toml_table(name: str, table: Mapping[str, object]) -> str:
    return "\n".join([f"[{name}]", *(f"{k} = {_toml_value(v)}" for k, v in table.items())]) + "\n"


def pyproject_text(game: Game, modules: Iterable[str]) -> str:
    """The shadow tree's pyproject: the project's pytest settings and the run's [tool.mutmut]."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_opts = dict(project["tool"]["pytest"]["ini_options"], testpaths=["tests"])
    tests, deselect = game.selection(modules)
    extra = ["-p", PROFILE_PLUGIN.stem, *(arg for test in deselect for arg in ("--deselect", test))]
    mutmut = {
        "source_paths": ["rulecraft"],
        "only_mutate": [shadow_path(m) for m in modules],
        "also_copy": ["scenarios", "model", PROFILE_PLUGIN.name],
        "pytest_add_cli_args": extra,
        "pytest_add_cli_args_test_selection": list(tests),
    }
    return _toml_table("tool.pytest.ini_options", pytest_opts) + "\n" + _toml_table("tool.mutmut", mutmut)


def build_shadow(tree: Path, game: Game, modules: list[str]) -> dict[str, str]:
    """Lay out the shadow tree; returns each module's SHA-256 as copied (what the run mutates)."""
    for folder, installed in LAYOUT.items():
        shutil.copytree(ROOT / folder, tree / installed, ignore=IGNORE, dirs_exist_ok=True)
    for folder in ("tests", "scenarios", "model"):
        shutil.copytree(ROOT / folder, tree / folder, ignore=IGNORE)
    shutil.copy2(PROFILE_PLUGIN, tree / PROFILE_PLUGIN.name)
    shared = ROOT.parent / "shared"
    if shared.is_dir():  # tests that read the rules digests look two folders above themselves
        (tree / "shared").symlink_to(shared, target_is_directory=True)
    (tree / "pyproject.toml").write_text(pyproject_text(game, modules), encoding="utf-8")
    return {m: sha256_of(tree / shadow_path(m)) for m in modules}


def refresh_shadow(tree: Path, game: Game, modules: list[str]) -> dict[str, str]:
    """Bring a kept shadow tree up to date for ``--resume``: the sources, tests, scenarios and plugin as
    they are now.  Copies keep their modification times, so mutmut regenerates the mutants of the files
    changed since the tree was built and, by its hash of each function, re-tests only the functions
    that changed (and mutants never run); every other result stands."""
    if not (tree / "mutants").is_dir():
        raise MutationDataError(str(tree), "--resume", "not a kept shadow tree (no mutants/ folder)")
    # mutmut maps tests to functions once (its stats) and does not map a function that is new, or of a
    # module newly mutated: their mutants would count as "no tests".  One pass of the tests maps them again.
    (tree / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    for folder, installed in LAYOUT.items():
        shutil.copytree(ROOT / folder, tree / installed, ignore=IGNORE, dirs_exist_ok=True)
    for folder in ("tests", "scenarios", "model"):
        shutil.copytree(ROOT / folder, tree / folder, ignore=IGNORE, dirs_exist_ok=True)
    shutil.copy2(PROFILE_PLUGIN, tree / PROFILE_PLUGIN.name)
    # mutmut brings only Python files into mutants/ up to date; a pack, schema or scenario it copied on the
    # tree's first run would stay as it was then (a stale schema.json failed a resumed run).
    data_only = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "*.py")
    for folder, installed in LAYOUT.items():
        shutil.copytree(ROOT / folder, tree / "mutants" / installed, ignore=data_only, dirs_exist_ok=True)
    for folder in ("tests", "scenarios", "model"):
        if (tree / "mutants" / folder).is_dir():
            shutil.copytree(ROOT / folder, tree / "mutants" / folder, ignore=data_only, dirs_exist_ok=True)
    wanted = pyproject_text(game, modules)
    had = (tree / "pyproject.toml").read_text(encoding="utf-8")
    if had != wanted:
        before = set(tomllib.loads(had).get("tool", {}).get("mutmut", {}).get("only_mutate", []))
        for module in modules:
            # A module the tree's last run did not mutate sits in mutants/ as a plain copy newer than its
            # source, which mutmut would take as already mutated: removed, it is mutated again, and its
            # functions' earlier verdicts (kept in its .meta) stand where their hash is unchanged.
            if shadow_path(module) not in before:
                (tree / "mutants" / shadow_path(module)).unlink(missing_ok=True)
        (tree / "pyproject.toml").write_text(wanted, encoding="utf-8")
        if _test_settings(had) != _test_settings(wanted):  # mutmut keeps no verdict then
            print(f"{game.id}: the tests or pytest options changed since this tree's run: mutmut re-tests every mutant")
        else:
            print(f"{game.id}: the tree now mutates {', '.join(modules)}")
    return {m: sha256_of(tree / shadow_path(m)) for m in modules}


def _test_settings(pyproject: str) -> tuple[object, ...]:
    """What mutmut 3 fingerprints as test execution and selection: a change there resets every result."""
    data = tomllib.loads(pyproject)["tool"]
    mutmut = data.get("mutmut", {})
    keys = ("pytest_add_cli_args", "pytest_add_cli_args_test_selection")
    return (data.get("pytest", {}), *(mutmut.get(k) for k in keys))


def run_mutmut(tree: Path, jobs: int, profile: str, log: Path, limit_s: float, names: Iterable[str] = ()) -> float:
    """mutmut run in the shadow tree (only the ``names`` patterns, if any); its output goes to ``log``;
    returns the wall time."""
    env = dict(os.environ, RULECRAFT_PROFILE=profile, PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *names]
    start = time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        try:
            done = subprocess.run(command, cwd=tree, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=limit_s)
        except subprocess.TimeoutExpired:
            raise MutationDataError(str(log), "mutmut run", f"still running after {limit_s:.0f} s") from None
    if done.returncode != 0:
        raise MutationDataError(str(log), "mutmut run", f"exit status {done.returncode}; the log says why")
    return time.monotonic() - start


# --- reading mutmut's results ------------------------------------------------------------------


def _functions(source: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(source)
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _original_def_line(source: str, func: str) -> int:
    """Line of the ``def`` that mutmut names ``func`` (x_name, or xǁClassǁmethod for a method)."""
    tree = ast.parse(source)
    defs = (ast.FunctionDef, ast.AsyncFunctionDef)
    if func.startswith("xǁ"):
        _, cls, method = func.split("ǁ", 2)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == cls:
                hits = [n for n in node.body if isinstance(n, defs) and n.name == method]
                if hits:
                    return hits[0].lineno
        return 0
    hits = [n for n in tree.body if isinstance(n, defs) and n.name == func.removeprefix("x_")]
    return hits[0].lineno if hits else 0


def _segment(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    body = lines[node.lineno - 1 : node.end_lineno]
    return [body[0].replace(node.name, "FUNC", 1), *body[1:]]


def describe(
    original: str, mutated: str, key: str, functions: Mapping[str, Any], def_lines: dict[str, int] | None = None
) -> tuple[int, str]:
    """(line in the original file, ``old -> new``) of one mutant; (0, key) if it cannot be found."""
    match = MUTANT_KEY.match(key.rsplit(".", 1)[-1])
    func = match["func"] if match else ""
    orig, mutant = functions.get(f"{func}__mutmut_orig"), functions.get(key.rsplit(".", 1)[-1])
    cache = {} if def_lines is None else def_lines
    if func and func not in cache:
        cache[func] = _original_def_line(original, func)
    def_line = cache.get(func, 0)
    if orig is None or mutant is None or not def_line:
        return 0, key
    lines = mutated.splitlines()
    before, after = _segment(lines, orig), _segment(lines, mutant)
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag != "equal":
            old = " / ".join(s.strip() for s in before[i1:i2]) or "(nothing)"
            new = " / ".join(s.strip() for s in after[j1:j2]) or "(nothing)"
            return def_line + i1, f"{old}  ->  {new}"
    return def_line, "(no textual change)"


def read_module(tree: Path, module: str, digest: str) -> ModuleReport:
    """A module's counts and survivors; with the tally of the mutants on each ambiguity's lines."""
    shadow = tree / "mutants" / shadow_path(module)
    meta_path = shadow.with_name(shadow.name + ".meta")
    if not meta_path.is_file():
        raise MutationDataError(str(meta_path), "file", "mutmut wrote no results for this module")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    codes: Mapping[str, int | None] = meta.get("exit_code_by_key", {})
    original = (tree / shadow_path(module)).read_text(encoding="utf-8")
    mutated = shadow.read_text(encoding="utf-8")
    functions = _functions(mutated)
    marked = reading_lines(original)
    def_lines: dict[str, int] = {}
    counts: dict[str, int] = {}
    survivors = []
    readings: dict[str, dict[str, Any]] = {}
    for key, code in codes.items():
        status = "not checked" if code is None else STATUS_BY_EXIT.get(code, "suspicious")
        counts[status] = counts.get(status, 0) + 1
        line, mutation = describe(original, mutated, key, functions, def_lines)
        if status in LISTED:
            survivors.append(Survivor(line, status, mutation, key.rsplit(".", 1)[-1]))
        if status == "not checked":  # a --readings run checks only the readings' functions
            continue
        for amb, amb_lines in marked.items():
            if line in amb_lines:
                tally = readings.setdefault(amb, {"killed": 0, "total": 0, "survivors": []})
                tally["total"] += 1
                if status in ("killed", "timeout"):
                    tally["killed"] += 1
                else:
                    tally["survivors"].append(line)
    survivors.sort(key=lambda s: (s.line, len(s.mutant), s.mutant))  # _9 before _10
    for tally in readings.values():
        tally["survivors"].sort()
    return ModuleReport(module, counts, tuple(survivors), digest, readings)


def reading_patterns(tree: Path, modules: Iterable[str]) -> list[str]:
    """mutmut name patterns for the functions that hold an ambiguity's lines (a --readings run)."""
    patterns = []
    for module in modules:
        source = (tree / shadow_path(module)).read_text(encoding="utf-8")
        marked = reading_lines(source)
        lines = set().union(*marked.values()) if marked else set()
        dotted = shadow_path(module).removesuffix(".py").replace("/", ".")
        patterns += [f"{dotted}.{name}__mutmut_*" for name in sorted(functions_with_lines(source, lines))]
    return patterns


# --- reports -----------------------------------------------------------------------------------


def _readings_markdown(summary: Mapping[str, Any]) -> str:
    rows, killed, total = [], 0, 0
    for module, m in summary["modules"].items():
        for amb, r in m.get("readings", {}).items():
            killed, total = killed + r["killed"], total + r["total"]
            lines = ", ".join(str(line) for line in sorted(set(r["survivors"]))) or "-"
            rows.append(f"| {amb} | {module} | {r['killed']} | {r['total']} | {r['score']:.2f}% | {lines} |\n")
    if not rows:
        return ""
    return (
        "\n## The readings' own code\n\n"
        "Mutants on the lines that name an ambiguity (its ID in the statement or its comment, and every\n"
        "branch of a conditional so marked: the default's and the other readings'; bench/mutation/readings.py).\n"
        f"All of them: {killed} of {total} killed ({percent(killed, total):.2f}%).\n\n"
        "| ambiguity | module | killed | total | score | surviving lines |\n|---|---|---:|---:|---:|---|\n"
        + "".join(sorted(rows))
    )


def markdown(summary: Mapping[str, Any]) -> str:
    partial = summary.get("scope") == "readings"
    head = (
        f"# Mutation results: {summary['game']} ({summary['tool']}, Hypothesis profile {summary['profile']})\n\n"
        f"{summary['mutants']} mutants in {summary['seconds']:.0f} s "
        f"({summary['seconds_per_mutant']:.2f} s per mutant, {summary['jobs']} job(s)).\n\n"
    )
    if partial:
        head += (
            "Only the functions that hold an ambiguity's code were mutated (`--readings`): the modules'\n"
            "scores were not measured here; `not checked` mutants are the rest of each module.\n"
        )
        return head + _readings_markdown(summary)
    unfinished = {module: m["not_checked"] for module, m in summary["modules"].items() if m.get("not_checked")}
    if unfinished:
        head += "**Unfinished run**: " + ", ".join(f"{m}: {n} mutants never run" for m, n in unfinished.items())
        head += "; their scores count those as not killed and cannot be recorded.\n\n"
    head += (
        "| module | killed | survived | no tests | timeout | other | total | score |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|\n"
    )
    rows, details = [], []
    for module, m in summary["modules"].items():
        rows.append(
            f"| {module} | {m['killed']} | {m['survived']} | {m['no_tests']} | {m['timeout']} | "
            f"{m['other']} | {m['total']} | {m['score']:.2f}% |\n"
        )
        if m["survivors"]:
            details.append(f"\n### {module}\n\n")
            details.extend(
                f"- `{module}:{s['line']}` {s['status']}: `{s['mutation']}` ({s['mutant']})\n" for s in m["survivors"]
            )
    survivors = "\n## Surviving mutants\n" + "".join(details) if details else ""
    return head + "".join(rows) + _readings_markdown(summary) + survivors


def _mutmut_version() -> str:
    try:
        return importlib.metadata.version("mutmut")
    except importlib.metadata.PackageNotFoundError:  # reading results (--from-tree, tests) needs no mutmut
        return "(not installed)"


def summarize(
    game: Game, reports: list[ModuleReport], seconds: float, jobs: int, profile: str, scope: str = "modules"
) -> dict[str, Any]:
    checked = sum(r.total - r.counts.get("not checked", 0) for r in reports)
    modules = {r.module: r.to_json() for r in reports}
    if scope == "readings":  # no module score: most of each module was not checked
        modules = {m: {"source_sha256": j["source_sha256"], "readings": j["readings"]} for m, j in modules.items()}
    return {
        "game": game.id,
        "tool": f"mutmut {_mutmut_version()}",
        "profile": profile,
        "jobs": jobs,
        "scope": scope,
        "seconds": round(seconds, 1),
        "mutants": checked,
        "seconds_per_mutant": round(seconds / checked, 3) if checked else 0.0,
        "modules": modules,
    }


# --- command line -------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game", help="aer, air, kas, stm (or the package name)")
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: the game's, from games.toml)")
    parser.add_argument("--module", action="append", default=[], help="a module to mutate (repeatable)")
    parser.add_argument("--changed-since", metavar="REF", help="mutate only the modules changed since this git ref")
    parser.add_argument("--jobs", type=int, default=1, help="mutants tested at once (default: %(default)s)")
    parser.add_argument("--profile", default="mutation", help="Hypothesis profile (default: %(default)s)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="folder of the reports (default: %(default)s)")
    parser.add_argument("--max-minutes", type=float, default=180.0, help="stop mutmut after this long")
    parser.add_argument("--keep", action="store_true", help="keep the shadow tree (its path is printed)")
    parser.add_argument("--check", action="store_true", help="then run the ratchet on this game's modules")
    parser.add_argument(
        "--solvers",
        action="store_true",
        help="mutate the game's Z3 solver modules (games.toml [GAME.solvers]) against the solver tests",
    )
    parser.add_argument(
        "--readings",
        action="store_true",
        help="mutate only the functions holding an ambiguity's code; writes GAME.readings.json/.md, no module score",
    )
    parser.add_argument(
        "--from-tree", type=Path, metavar="TREE", help="read the results of a kept shadow tree instead of running"
    )
    parser.add_argument(
        "--resume",
        type=Path,
        metavar="TREE",
        help="an incremental run in a kept shadow tree: copy the current sources and tests in, then re-test only"
        " the functions changed since (tests must only have been added: earlier kills are kept)",
    )
    return parser


def chosen_modules(game: Game, args: argparse.Namespace) -> list[str]:
    names = [*args.modules, *args.module]
    default = game.solver_modules if args.solvers else game.modules
    modules = [resolve_module(game, n) for n in names] if names else list(default)
    if args.changed_since:
        changed = changed_files(ROOT, args.changed_since)
        modules = [m for m in modules if m in changed]
    return list(dict.fromkeys(modules))


def execute(args: argparse.Namespace) -> int:
    if args.jobs < 1:
        raise MutationDataError("--jobs", str(args.jobs), "at least 1")
    if args.resume is not None and not (args.resume / "mutants").is_dir():  # before needing mutmut itself
        raise MutationDataError(str(args.resume), "--resume", "not a kept shadow tree (no mutants/ folder)")
    try:
        importlib.metadata.version("mutmut")
    except importlib.metadata.PackageNotFoundError:
        why = f"not installed: tox -e mutation, or pip install '{MUTMUT_PIN}'"
        raise MutationDataError("mutmut", "import", why) from None
    game = find_game(load_games(), args.game)
    modules = chosen_modules(game, args)
    args.results.mkdir(parents=True, exist_ok=True)
    if not modules:
        since = f" changed since {args.changed_since}" if args.changed_since else ""
        print(f"{game.id}: no module to mutate{since}")
    scope = "readings" if args.readings else "modules"
    if args.from_tree:
        reports, seconds = _read_tree(args.from_tree, modules), 0.0
    elif args.resume:
        reports, seconds = _resume(args.resume, game, modules, args) if modules else ([], 0.0)
    else:
        base = Path(tempfile.mkdtemp(prefix=f"rulecraft-mutation-{game.id}-"))
        try:
            reports, seconds = _mutate(base / "tree", game, modules, args) if modules else ([], 0.0)
        finally:
            if args.keep:
                print(f"shadow tree kept: {base / 'tree'}")
            else:
                shutil.rmtree(base, ignore_errors=True)
    summary = summarize(game, reports, seconds, args.jobs, args.profile, scope)
    stem = f"{game.id}.readings" if args.readings else game.id
    write_json(args.results / f"{stem}.json", summary)
    text = markdown(summary)
    (args.results / f"{stem}.md").write_text(text, encoding="utf-8")
    print(text)
    return _check(game, modules, args) if args.check and modules and not args.readings else 0


def _read_tree(tree: Path, modules: list[str]) -> list[ModuleReport]:
    if not (tree / "mutants").is_dir():
        raise MutationDataError(str(tree), "--from-tree", "not a kept shadow tree (no mutants/ folder)")
    return [read_module(tree, m, sha256_of(tree / shadow_path(m))) for m in modules]


def _check(game: Game, modules: list[str], args: argparse.Namespace) -> int:
    """ratchet.py on this run's results, for the modules it mutated (other games' are not re-run)."""
    argv = ["--results", str(args.results / f"{game.id}.json")]
    argv += [arg for module in modules for arg in ("--module", module)]
    argv += ["--changed-since", args.changed_since] if args.changed_since else []
    return ratchet.main(argv)


def _mutate(tree: Path, game: Game, modules: list[str], args: argparse.Namespace) -> tuple[list[ModuleReport], float]:
    digests = build_shadow(tree, game, modules)
    names = reading_patterns(tree, modules) if args.readings else []
    if args.readings and not names:
        raise MutationDataError(", ".join(modules), "--readings", "no line of these modules names an ambiguity")
    what = f"the {len(names)} functions with an ambiguity's code in " if names else ""
    print(f"{game.id}: mutating {what}{', '.join(modules)} (log: {args.results / f'{game.id}.log'})", flush=True)
    limit_s = args.max_minutes * 60
    seconds = run_mutmut(tree, args.jobs, args.profile, args.results / f"{game.id}.log", limit_s, names)
    return [read_module(tree, m, digests[m]) for m in modules], seconds


def _resume(tree: Path, game: Game, modules: list[str], args: argparse.Namespace) -> tuple[list[ModuleReport], float]:
    digests = refresh_shadow(tree, game, modules)
    names = reading_patterns(tree, modules) if args.readings else []
    print(f"{game.id}: resuming {tree} for {', '.join(modules)} (log: {args.results / f'{game.id}.log'})", flush=True)
    seconds = run_mutmut(tree, args.jobs, args.profile, args.results / f"{game.id}.log", args.max_minutes * 60, names)
    return [read_module(tree, m, digests[m]) for m in modules], seconds


def main(argv: list[str] | None = None) -> int:
    try:
        return execute(_parser().parse_intermixed_args(argv))
    except MutationDataError as exc:
        print(exc, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
