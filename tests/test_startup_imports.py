"""Start-up (issue 18): what a command imports, as a regression guard that times nothing.

Each command runs in a fresh interpreter as ``python -m rulecraft`` runs it (the whole process, as a
user types it) and the modules it imported are read from ``sys.modules`` at its exit: ``--help``
and the parser import no game, no solver, no Z3, Hypothesis, jsonschema, YAML or rich; ``rules GAME``
and ``readings GAME`` import that game's catalogue or register and nothing of another game or of the
rules engine; a query imports its own game alone.  Beside them: the record parts these commands read
instead of the game class are the class's own, the whole-text rule-ID scan finds what a line-by-line
scan finds, and the bundled packs read the same with LibYAML and with the pure-Python loader.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml

from rulecraft import crossref
from rulecraft.registry import game_class, game_ids, record

PACKAGES = {"air": "airships", "kas": "kings_of_air_and_steam", "stm": "steamopolis", "aer": "aeroplanes"}
# Never needed to list, parse or explain: the solvers' engine, the property-testing library, the schema
# checker, the YAML parser, the table drawer, Aeroplanes' graph library.
HEAVY = ("z3", "hypothesis", "jsonschema", "yaml", "rich", "networkx", "pytest")
_PROBE = (
    "import atexit, runpy, sys\n"
    "path = sys.argv.pop()\n"
    "def report() -> None:\n"
    "    with open(path, 'w', encoding='utf-8') as out:\n"
    "        out.write('\\n'.join(sorted(sys.modules)))\n"
    "atexit.register(report)\n"
    "sys.argv[0] = 'rulecraft'\n"
    "runpy.run_module('rulecraft', run_name='__main__', alter_sys=True)\n"
)


def imported(*words: str, env: dict[str, str] | None = None) -> set[str]:
    """Every module in ``sys.modules`` when ``python -m rulecraft WORDS...`` ends (run as ``-m`` runs
    it, by runpy, in a fresh interpreter; the list is written at exit).  ``-X importtime`` would not
    do: it leaves out what ``importlib.import_module`` imports, as the registry imports the games."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "modules.txt"
        run = subprocess.run(
            [sys.executable, "-c", _PROBE, *words, str(report)],
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, **(env or {})},
            check=False,
        )
        assert run.returncode == 0, run.stderr[-2000:]
        names = set(report.read_text("utf-8").splitlines())
    assert "rulecraft.cli" in names and "rulecraft.registry" in names
    return names


def under(names: set[str], *packages: str) -> set[str]:
    """The names that are one of ``packages`` or inside one."""
    return {n for n in names if any(n == p or n.startswith(p + ".") for p in packages)}


def game_parts(names: set[str]) -> set[str]:
    """The modules of the games' models, invariants and solvers (their top packages, which hold no
    code, left out)."""
    return {
        n
        for n in under(names, "rulecraft.model", "rulecraft.invariants", "rulecraft.solvers")
        if n not in ("rulecraft.model", "rulecraft.invariants", "rulecraft.solvers")
    }


@pytest.mark.parametrize("words", [["--help"], ["verify", "--help"], ["query", "--help"], ["--version"]])
def test_help_and_the_parser_import_no_game_solver_or_heavy_library(words: list[str]) -> None:
    """Issue 18: `rulecraft --help` lists the games from their records (entry-point names), so it
    imports no game's model, invariants or solvers, and none of the heavy libraries."""
    names = imported(*words)
    assert under(names, *HEAVY) == set()
    assert game_parts(names) == set()


def test_the_games_are_found_without_importlib_metadata() -> None:
    """The registry reads the entry points itself (tests/test_entry_points.py): importlib.metadata and
    the email parser it brings (0.02 s) stay unimported, unless the interpreter itself starts with them."""
    bare = subprocess.run(
        [sys.executable, "-c", "import sys; print('importlib.metadata' in sys.modules)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    for words in (["--help"], ["rules", "air"], ["query", "air", "-h"]):
        assert "importlib.metadata" not in imported(*words) or bare == "True"


@pytest.mark.parametrize("gid", sorted(PACKAGES))
def test_readings_imports_its_games_register_alone(gid: str) -> None:
    """`rulecraft readings GAME` prints the register: the game's readings module, not its rules engine
    nor another game (rich draws the table; nothing else heavy)."""
    names = imported("readings", gid)
    assert game_parts(names) == {f"rulecraft.model.{PACKAGES[gid]}", f"rulecraft.model.{PACKAGES[gid]}.readings"}
    assert under(names, *HEAVY) == under(names, "rich")


@pytest.mark.parametrize("gid", ["air", "kas", "stm"])
def test_rules_imports_its_games_catalogue_alone(gid: str) -> None:
    """`rulecraft rules GAME` (the catalogue with what cites each rule) reads the sources of the model,
    invariants and solvers as text: it imports the game's catalogue module and nothing else of any game,
    and neither Z3 nor Hypothesis, nor the YAML parser (the scenarios' rule IDs are read from their text)."""
    names = imported("rules", gid)
    package = f"rulecraft.model.{PACKAGES[gid]}"
    assert game_parts(names) <= {package, f"{package}.catalogue"} and f"{package}.catalogue" in names
    assert under(names, "z3", "hypothesis", "jsonschema", "networkx", "pytest", "yaml") == set()


def test_rules_of_aeroplanes_imports_no_other_game() -> None:
    """Aeroplanes' catalogue is joined in its game class (RULES + SETUP), so `rules aer` imports the
    Aeroplanes model: that one, and no other game's, nor any solver."""
    names = imported("rules", "aer")
    others = {f"rulecraft.model.{p}" for g, p in PACKAGES.items() if g != "aer"}
    assert under(names, *others) == set()
    assert under(names, "rulecraft.solvers", "rulecraft.invariants") <= {"rulecraft.solvers", "rulecraft.invariants"}
    assert under(names, "z3", "hypothesis", "jsonschema") == set()


def test_a_query_imports_its_own_game_alone() -> None:
    """`rulecraft query air chance ...` (docs/cli.md's example) configures Airships alone: no other
    game's model or solvers, and no Hypothesis."""
    names = imported("query", "air", "chance", "--dice", "W=3", "--need", "W=2", "--target", "5", "--chips", "1")
    assert "rulecraft.solvers.airships.queries" in names
    others = [p for g, p in PACKAGES.items() if g != "air"]
    assert (
        under(names, *(f"rulecraft.{kind}.{p}" for kind in ("model", "solvers", "invariants") for p in others)) == set()
    )
    assert under(names, "hypothesis", "jsonschema", "rich") == set()


def test_a_database_setting_still_loads_hypothesis(tmp_path: Path) -> None:
    """Hypothesis is left unimported only when no example database is set: with RULECRAFT_DATABASE
    the run sets it (and so imports Hypothesis), as before."""
    names = imported("readings", "air", env={"RULECRAFT_DATABASE": str(tmp_path / "examples")})
    assert "hypothesis" in names and "rulecraft.profiles" in names


def test_the_database_variable_is_the_profiles_own() -> None:
    from rulecraft import cli, profiles

    assert cli.DATABASE_ENV == profiles.DATABASE_ENV


@pytest.mark.parametrize("gid", game_ids())
def test_a_records_catalogue_register_and_model_are_its_game_classs(gid: str) -> None:
    """What `rules` and `readings` read from the record instead of importing the game is the game
    class's own: the same catalogue and register, and the package its class lives in."""
    rec, cls = record(gid), game_class(gid)
    assert rec.rule_catalogue() == cls.catalogue
    assert rec.ambiguity_register() is cls.register
    assert rec.model_package() == cls.__module__.rsplit(".", 1)[0]
    if rec.catalogue is not None:
        assert rec.rule_catalogue() is cls.catalogue


def test_a_record_naming_the_wrong_part_is_a_bad_record() -> None:
    """A record whose ``catalogue`` or ``register`` names something else is one line naming the part,
    when the part is first used (as for every other part of a record)."""
    from rulecraft.record import BadRecord, GameRecord

    def bad(**parts: str) -> GameRecord:
        return GameRecord.of_packages(
            id="bad", title="Bad", players=range(2, 3), game="rulecraft.model.airships.game:AirshipsGame", **parts
        )

    with pytest.raises(BadRecord, match=r"bad: catalogue = .* is AmbiguityRegister, not a RuleCatalogue"):
        bad(catalogue="rulecraft.model.airships.readings:REGISTER").rule_catalogue()
    with pytest.raises(BadRecord, match=r"bad: register = .* is RuleCatalogue, not an AmbiguityRegister"):
        bad(register="rulecraft.model.airships.catalogue:RULES").ambiguity_register()
    plain = bad()  # neither named: the game class's own
    assert plain.rule_catalogue() is game_class("air").catalogue
    assert plain.ambiguity_register() is game_class("air").register
    assert plain.model_package() == "rulecraft.model.airships"


def test_a_record_of_a_class_answers_from_the_class() -> None:
    from rulecraft.record import GameRecord

    cls = game_class("stm")
    rec = GameRecord.of_class(cls)
    assert (rec.rule_catalogue(), rec.ambiguity_register()) == (cls.catalogue, cls.register)
    assert rec.model_package() == "rulecraft.model.steamopolis"


def _scan_by_line(paths: list[Path], root: Path) -> dict[str, list[str]]:
    """The rule-ID scan as it was, line by line (the reference for the whole-text scan)."""
    found: dict[str, list[str]] = {}
    for path in paths:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            for rule in sorted(set(crossref._ID.findall(line))):
                found.setdefault(rule, []).append(f"{path.relative_to(root)}:{number}")
    return found


TEXTS = [
    "x = 'AIR-R-01' and AIR-R-01 again\n# KAS-SET-101, KAS-R-02\n\nSTM-R-1 STM-R-1234 AER-R-12x\n",
    "ABCAIR-R-03 _AIR-R-04 é AIR-R-05 AIR-R-06_ 1AIR-R-07\nAIR-R-08-R-09 AIR-R-10\n",
    "crlf AIR-R-11\r\nAIR-R-12\r\nform\x0cfeed AIR-R-13\n\u2028AIR-R-14 AIR-R-14\n",
    "no line end at the end AIR-R-15",
    "",
]


def test_the_whole_text_rule_scan_finds_what_a_line_by_line_scan_finds(tmp_path: Path) -> None:
    """`rulecraft rules` scans each file once (not a regular-expression search per line): the same
    rule IDs at the same line numbers, once per line, with str.splitlines' line ends."""
    paths = []
    for i, text in enumerate(TEXTS):
        path = tmp_path / f"test_{i}.py"
        path.write_text(text, "utf-8", newline="")
        paths.append(path)
    found = crossref._scan(paths, tmp_path)
    assert found == _scan_by_line(paths, tmp_path)
    assert found["AIR-R-01"] == ["test_0.py:1"] and found["AIR-R-13"] == ["test_2.py:4"]
    assert "AIR-R-03" not in found and "AIR-R-07" not in found and "STM-R-1" not in found


def test_the_whole_text_scan_agrees_on_the_projects_own_tests() -> None:
    """On the real test files (where most of the IDs are), the two scans agree too."""
    root = Path(crossref.__file__).resolve().parents[1]
    paths = sorted((root / "tests").glob("test_*.py"))
    assert crossref._scan(paths, root) == _scan_by_line(paths, root)


@pytest.mark.parametrize("prefixes", [{"AIR"}, {"KAS"}, {"STM"}, {"AER"}, {"AIR", "KAS"}, {"XYZ"}])
def test_a_scan_for_some_games_finds_their_ids_as_the_whole_scan_does(tmp_path: Path, prefixes: set[str]) -> None:
    """`rulecraft rules GAME` scans for that game's letters alone: the same places for its rule IDs as
    the scan for every ID, on made-up texts (line ends of every kind, IDs run together) and on the
    project's own tests, model, invariants and solvers."""
    paths = []
    mixed = "KAS~R~01 AIR~R~01\nxKAS~R~02 STM~SET~101 AER~R~99 AIR~SET~01\n".replace("~", "-")  # names no rule here
    for i, text in enumerate([*TEXTS, mixed]):
        path = tmp_path / f"test_{i}.py"
        path.write_text(text, "utf-8", newline="")
        paths.append(path)
    root = Path(__file__).resolve().parents[1]  # this checkout (also when the package is an installed wheel)
    real = [p for folder in ("tests", "model", "invariants", "solvers") for p in sorted((root / folder).rglob("*.py"))]
    for files, base in ((paths, tmp_path), (real, root)):
        whole = crossref._scan(files, base)
        own = {rule: places for rule, places in whole.items() if rule.split("-")[0] in prefixes}
        assert crossref._scan(files, base, prefixes) == own
        assert own or prefixes == {"XYZ"}


def _cross_reference_as_it_was(game_id: str, package: str, catalogue: Any) -> dict[str, dict[str, list[str]]]:
    """rulecraft.crossref.cross_reference before it scanned for the game's letters alone (the reference):
    every rule ID of every file, sorted paths, each scenario's IDs by a search over its whole text."""
    from rulecraft import yamlio
    from rulecraft.scenarios.loader import scenario_files

    short = package.rsplit(".", 1)[1]
    code_paths: list[Path] = []
    for module in (package, f"rulecraft.invariants.{short}", f"rulecraft.solvers.{short}"):
        d = crossref._package_dir(module)
        if d is not None:
            code_paths.extend(p for p in d.glob("*.py") if p.stem == short or not module.startswith("rulecraft.inv"))
    repo = Path(crossref.__file__).resolve().parents[1]
    code = _scan_by_line([p for p in sorted(set(code_paths)) if p.name not in crossref._SKIP], repo)
    scenarios: dict[str, list[str]] = {}
    for path in scenario_files(game_id):
        text = yamlio.read_text_file(path)
        named = crossref._SCENARIO_ID.search(text)
        for rule_id in set(crossref._ID.findall(text)):
            scenarios.setdefault(rule_id, []).append(named.group(1) if named else path.stem)
    tests = {
        rule_id: sorted({p.split(":")[0].removeprefix("tests/") for p in places})
        for rule_id, places in _scan_by_line(sorted((repo / "tests").glob("test_*.py")), repo).items()
    }
    out = {}
    for rule in catalogue:
        files: dict[str, str] = {}
        for place in code.get(rule.id, []):
            name, line = place.rsplit(":", 1)
            files.setdefault(name, line)
        out[rule.id] = {
            "code": [f"{Path(n).name}:{line}" for n, line in files.items()],
            "scenarios": sorted(set(scenarios.get(rule.id, []))),
            "tests": tests.get(rule.id, []),
        }
    return out


@pytest.mark.parametrize("gid", sorted(PACKAGES))
def test_rules_cross_references_are_what_the_whole_scan_finds(gid: str) -> None:
    """`rulecraft rules GAME`'s table (code, scenarios, tests of each rule), found from the game's own
    letters in the bytes that hold them, is the one every rule ID of every file gave."""
    rec = record(gid)
    catalogue = rec.rule_catalogue()
    got = crossref.cross_reference(gid, rec.model_package(), catalogue)
    assert got == _cross_reference_as_it_was(gid, rec.model_package(), catalogue)
    assert any(r["code"] for r in got.values())
    # An installed wheel (tox -e compiled) ships no tests folder beside the package: no tests column then.
    if (Path(crossref.__file__).resolve().parents[1] / "tests").is_dir():
        assert any(r["tests"] for r in got.values())


@pytest.mark.parametrize("gid", sorted(PACKAGES))
def test_bundled_packs_read_the_same_without_libyaml(gid: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bundled pack is read by LibYAML's safe loader where PyYAML has it, and by PyYAML's own safe
    loader where it has not: the same data either way, and never a loader that runs code."""
    from rulecraft.packs import read_bundled

    monkeypatch.setenv("RULECRAFT_CACHE", "off")  # parsed here, not a parse kept by an earlier run (test_pack_cache)
    package = f"rulecraft.model.{PACKAGES[gid]}"
    loaders: list[Any] = []
    load = yaml.load

    def spy(stream: Any, Loader: Any) -> Any:  # PyYAML's own keyword
        loaders.append(Loader)
        return load(stream, Loader=Loader)

    monkeypatch.setattr(yaml, "load", spy)
    fast = read_bundled(package)
    if hasattr(yaml, "CSafeLoader"):
        monkeypatch.delattr(yaml, "CSafeLoader")
    slow = read_bundled(package)
    assert fast == slow and isinstance(fast, dict) and fast
    assert loaders[-1] is yaml.SafeLoader
    assert loaders[0] is getattr(yaml.cyaml, "CSafeLoader", yaml.SafeLoader)
    assert all(issubclass(loader, yaml.constructor.SafeConstructor) for loader in loaders)


# -- the printed examples read by LibYAML's parser (rulecraft.yamlio.load(..., bundled=True)) ----------


def _shipped_scenarios() -> list[Path]:
    from rulecraft.scenarios.loader import scenario_files

    return [path for gid in sorted(PACKAGES) for path in scenario_files(gid)]


def test_every_shipped_scenario_reads_the_same_by_both_parsers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shipped printed examples are read by LibYAML's parser under the same composer, limits and
    constructor: the same values as PyYAML's pure-Python loader gives, file by file (and the same
    again where PyYAML has no LibYAML: the pure-Python loader alone)."""
    from rulecraft import yamlio, yamlparse

    paths = _shipped_scenarios()
    assert len(paths) >= 80  # every game's examples
    fast = [yamlio.load_file(path, bundled=True) for path in paths]
    pure = [yamlio.load_file(path) for path in paths]
    assert fast == pure
    if yamlparse._FastLoader is not None:  # LibYAML's own reading, not a fallback to the pure one
        for path, data in zip(paths, pure, strict=True):
            loader = yamlparse._FastLoader(path.read_text("utf-8"))
            try:
                assert loader.get_single_data() == data, path
            finally:
                loader.dispose()
    monkeypatch.setattr(yamlparse, "_FastLoader", None)
    assert [yamlio.load_file(path, bundled=True) for path in paths] == pure


def test_the_scenario_loader_takes_the_fast_parser_for_shipped_files_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shipped example is `bundled`; the same file copied elsewhere (a user's) is read by the
    pure-Python parser, as every user file is."""
    from rulecraft import yamlio
    from rulecraft.scenarios.loader import load_scenario

    seen: list[bool] = []
    load = yamlio.load

    def spy(text: str, source: str = "<text>", **options: Any) -> Any:
        seen.append(options.get("bundled", False))
        return load(text, source, **options)

    monkeypatch.setattr(yamlio, "load", spy)
    shipped = _shipped_scenarios()[0]
    copy = tmp_path / shipped.name
    copy.write_text(shipped.read_text("utf-8"), "utf-8")
    assert attrs.evolve(load_scenario(shipped), path=str(copy)) == load_scenario(copy)
    assert seen == [True, False]


HOSTILE = [
    "a: 1\na: 2\n",  # a key given twice
    "a: &x [1, 2]\nb: " + "[" * 70 + "]" * 70 + "\n",  # deeper than MAX_DEPTH
    "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e]\n",  # aliases
    "n: 123456789012345678901234567890\n",  # beyond 64 bits
    "x: .nan\n",
    "b: !!binary aGVsbG8=\n",
    "p: !!python/object:os.system ls\n",  # no code, ever
    "a: [1, 2\n",  # malformed
]


@pytest.mark.parametrize("text", HOSTILE)
def test_the_fast_parser_keeps_every_limit_and_refuses_as_the_pure_one_does(text: str) -> None:
    """rulecraft/yamlio.py's limits hold under LibYAML's parser too (they live in the composer and
    constructor, which stay PyYAML's): the same one-line DataFileError as the pure-Python loader."""
    from rulecraft import yamlio

    with pytest.raises(yamlio.DataFileError) as pure:
        yamlio.load(text, "x.yaml")
    with pytest.raises(yamlio.DataFileError) as fast:
        yamlio.load(text, "x.yaml", bundled=True)
    assert str(fast.value) == str(pure.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("a: !!int\n", "'' is not a whole number"),
        ("a: !!int abc\n", "'abc' is not a whole number"),
        ("a: !!float abc\n", "'abc' is not a number"),
        ("a: !!bool maybe\n", "'maybe' is not true or false"),
    ],
)
def test_an_explicit_tag_on_the_wrong_text_is_a_data_file_error(text: str, reason: str) -> None:
    """rulecraft/yamlio.py: "Every failure is a DataFileError: FILE: FIELD: reason on one line".  PyYAML
    itself crashes on these (IndexError, ValueError, KeyError), which the command line reported as an
    internal error (exit 3) instead of a bad input file (exit 4)."""
    from rulecraft import yamlio

    for bundled in (False, True):
        with pytest.raises(yamlio.DataFileError, match=re.escape(f"x.yaml: (file): not valid YAML: {reason}")):
            yamlio.load(text, "x.yaml", bundled=bundled)
