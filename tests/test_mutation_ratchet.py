"""The mutation-score ratchet (bench/mutation/ratchet.py) and run.py's report reading, on small fake
files: no mutation run, no mutmut needed."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench" / "mutation"
RULES = "model/aeroplanes/rules.py"
SCORING = "model/aeroplanes/scoring.py"


def _load(name: str, file: str) -> ModuleType:
    """The scripts import each other by bare name (they run as scripts): load them under those names."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


ratchet = _load("ratchet", "ratchet.py")
readings = _load("readings", "readings.py")
run = _load("mutation_run", "run.py")


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for module in (RULES, SCORING):
        (root / module).parent.mkdir(parents=True, exist_ok=True)
        (root / module).write_text(f"# {module}\nX = 1\n", encoding="utf-8")
    return root


def _digest(root: Path, module: str) -> str:
    return hashlib.sha256((root / module).read_bytes()).hexdigest()


def _results(root: Path, path: Path, scores: dict[str, tuple[int, int]]) -> Path:
    modules = {
        m: {"killed": k, "total": t, "score": round(100 * k / t, 2), "source_sha256": _digest(root, m)}
        for m, (k, t) in scores.items()
    }
    path.write_text(json.dumps({"game": "aer", "modules": modules}), encoding="utf-8")
    return path


def _scores(path: Path, scores: dict[str, tuple[int, int]]) -> Path:
    modules = {m: {"killed": k, "total": t, "score": round(100 * k / t, 2)} for m, (k, t) in scores.items()}
    path.write_text(json.dumps({"tool": "mutmut", "modules": modules}), encoding="utf-8")
    return path


def _main(root: Path, results: Path, scores: Path, *extra: str) -> int:
    argv = ["--root", str(root), "--results", str(results), "--scores", str(scores), "--message", "", *extra]
    return int(ratchet.main(argv))


def test_a_drop_fails_with_one_line_per_module(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    results = _results(root, tmp_path / "aer.json", {RULES: (70, 100), SCORING: (30, 40)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100), SCORING: (35, 40)})
    assert _main(root, results, scores) == 1
    out = capsys.readouterr().out.splitlines()
    drops = [line for line in out if ": DROP: " in line]
    assert [line.split(":")[0] for line in drops] == [RULES, SCORING]
    assert "70.00% (70/100 killed), recorded 80.00% (80/100 killed)" in drops[0]


def test_an_equal_or_higher_score_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    results = _results(root, tmp_path / "aer.json", {RULES: (80, 100), SCORING: (36, 40)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100), SCORING: (35, 40)})
    assert _main(root, results, scores) == 0
    assert sum(": ok: " in line for line in capsys.readouterr().out.splitlines()) == 2


def test_a_module_never_recorded_passes_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    results = _results(root, tmp_path / "aer.json", {RULES: (1, 100)})
    assert _main(root, results, tmp_path / "absent.json") == 0
    assert f"{RULES}: NEW: 1.00% (1/100 killed)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("flag", "message", "code"),
    [
        ("--accept", "", 0),
        (None, "scoring: simpler ranking\n\n[mutation-accept] the removed branch was dead\n", 0),
        (None, "scoring: simpler ranking\n", 1),
    ],
)
def test_a_drop_is_accepted_by_the_flag_or_the_commit_message(
    tmp_path: Path, flag: str | None, message: str, code: int
) -> None:
    root = _repo(tmp_path)
    results = _results(root, tmp_path / "aer.json", {RULES: (70, 100)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100)})
    extra = [flag] if flag else []
    assert _main(root, results, scores, *extra, "--message", message) == code


def test_stale_results_fail_even_when_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    results = _results(root, tmp_path / "aer.json", {RULES: (90, 100)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100)})
    (root / RULES).write_text("# changed after the mutation run\n", encoding="utf-8")
    assert _main(root, results, scores, "--accept") == 1
    assert f"{RULES}: STALE: the module was changed after the run" in capsys.readouterr().out


def _git(root: Path, *args: str) -> None:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    subprocess.run(command, cwd=root, check=True, capture_output=True, timeout=60)


def test_changed_since_checks_only_the_touched_modules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "base")
    (root / SCORING).write_text("# scoring, changed\n", encoding="utf-8")
    # RULES dropped, but it is untouched since HEAD: not this change's business.
    results = _results(root, tmp_path / "aer.json", {RULES: (10, 100), SCORING: (36, 40)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100), SCORING: (35, 40)})
    assert _main(root, results, scores, "--changed-since", "HEAD") == 0
    out = capsys.readouterr().out
    assert f"{SCORING}: ok" in out and RULES not in out


def test_a_touched_module_without_a_result_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "base")
    (root / RULES).write_text("# rules, changed\n", encoding="utf-8")
    results = _results(root, tmp_path / "aer.json", {SCORING: (36, 40)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100), SCORING: (35, 40)})
    assert _main(root, results, scores, "--changed-since", "HEAD", "--accept") == 1
    assert f"{RULES}: MISSING:" in capsys.readouterr().out


def test_record_writes_the_checked_scores_and_keeps_the_others(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    results = _results(root, tmp_path / "aer.json", {RULES: (70, 100)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100), SCORING: (35, 40)})
    before = scores.read_text(encoding="utf-8")
    assert _main(root, results, scores, "--record") == 1, "a drop is not recorded unless it is accepted"
    assert scores.read_text(encoding="utf-8") == before
    assert _main(root, results, scores, "--record", "--accept") == 0
    written = json.loads(scores.read_text(encoding="utf-8"))["modules"]
    assert written == {
        RULES: {"score": 70.0, "killed": 70, "total": 100, "source_sha256": _digest(root, RULES)},
        SCORING: {"score": 87.5, "killed": 35, "total": 40},
    }
    assert _main(root, results, scores) == 0  # the recorded drop is now the bar


def test_stale_names_every_recorded_score_its_module_has_outgrown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CI's check, without any results: a score recorded for an older source (or without a hash) fails."""
    root = _repo(tmp_path)
    results = _results(root, tmp_path / "aer.json", {RULES: (90, 100), SCORING: (36, 40)})
    scores = _scores(tmp_path / "scores.json", {RULES: (80, 100)})
    stale = ["--root", str(root), "--scores", str(scores), "--stale"]
    assert ratchet.main(stale) == 1 and "recorded without the source's SHA-256" in capsys.readouterr().out
    assert _main(root, results, scores, "--record") == 0
    assert ratchet.main(stale) == 0 and "every recorded score" in capsys.readouterr().out
    (root / SCORING).write_text("# changed\nX = 2\n", encoding="utf-8")
    assert ratchet.main(stale) == 1
    out = capsys.readouterr().out
    assert f"{SCORING}: STALE SCORE: the module changed after its score was recorded" in out
    assert "tox -e mutation -- aer" in out and RULES not in out
    missing = ["--root", str(root), "--scores", str(tmp_path / "none.json"), "--stale"]
    assert ratchet.main(missing) == 2, "no scores file: nothing was checked, never 'up to date'"
    assert "no such scores file" in capsys.readouterr().err


def test_the_committed_scores_are_for_the_modules_as_they_are() -> None:
    """What CI checks (ratchet.py --stale): no model change has outrun its recorded mutation score."""
    done = subprocess.run(
        [sys.executable, str(BENCH / "ratchet.py"), "--stale"], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(
    ("content", "field"),
    [
        ("{not json", "file"),
        ('{"modules": []}', "modules"),
        ('{"modules": {"../../etc/passwd": {}}}', "modules.../../etc/passwd"),
        ('{"modules": {"model/aeroplanes/rules.py": {"killed": 5, "total": 4, "score": 100}}}', ".killed"),
        ('{"modules": {"model/aeroplanes/rules.py": {"killed": 1, "total": 4, "score": "high"}}}', ".score"),
        ('{"modules": {"model/aeroplanes/rules.py": {"killed": 1, "total": 4, "score": 25}}}', ".source_sha256"),
        ("[" * 100_000 + "]" * 100_000, "file"),
    ],
)
def test_a_malformed_results_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, field: str
) -> None:
    root = _repo(tmp_path)
    results = tmp_path / "bad.json"
    results.write_text(content, encoding="utf-8")
    assert _main(root, results, tmp_path / "absent.json") == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"{results}: ") and field in err


def test_a_module_in_two_results_files_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    first = _results(root, tmp_path / "a.json", {RULES: (70, 100)})
    second = _results(root, tmp_path / "b.json", {RULES: (75, 100)})
    argv = ["--root", str(root), "--results", str(first), "--results", str(second)]
    assert ratchet.main([*argv, "--scores", str(tmp_path / "s.json")]) == 2
    assert f"also in {first}" in capsys.readouterr().err


def test_run_reads_the_line_and_the_change_of_a_mutant() -> None:
    original = "import x\n\n\ndef f(a):\n    b = a\n    return b + 1\n"
    mutated = (
        "def x_f__mutmut_orig(a):\n    b = a\n    return b + 1\ndef x_f__mutmut_3(a):\n    b = a\n    return b - 1\n"
    )
    functions = run._functions(mutated)
    assert run.describe(original, mutated, "pkg.mod.x_f__mutmut_3", functions) == (6, "return b + 1  ->  return b - 1")
    # An unknown name is reported as is, never a crash.
    assert run.describe(original, mutated, "pkg.mod.x_g__mutmut_1", functions) == (0, "pkg.mod.x_g__mutmut_1")


def test_run_finds_a_method_mutant_by_its_class() -> None:
    original = "class A:\n    def m(self):\n        return 1\n"
    mutated = (
        "class A:\n    def xǁAǁm__mutmut_orig(self):\n        return 1\n"
        "    def xǁAǁm__mutmut_1(self):\n        return 2\n"
    )
    key = "pkg.mod.xǁAǁm__mutmut_1"
    assert run.describe(original, mutated, key, run._functions(mutated)) == (3, "return 1  ->  return 2")


def test_run_summary_scores_timeouts_as_detected() -> None:
    report = run.ModuleReport(RULES, {"killed": 6, "timeout": 2, "survived": 1, "no tests": 1}, (), "0" * 64)
    data: dict[str, Any] = report.to_json()
    assert (data["killed"], data["timeout"], data["survived"], data["no_tests"], data["total"]) == (6, 2, 1, 1, 10)
    assert data["score"] == 80.0


def test_every_game_lists_modules_and_tests_that_exist() -> None:
    games = run.load_games()
    assert set(games) == {"aer", "air", "kas", "stm"}
    for game in games.values():
        for path in (*game.modules, *game.tests, *(d.split("::")[0] for d in game.deselect)):
            assert (ROOT / path).exists(), f"{game.id}: {path}"
        assert all(m == run.resolve_module(game, m) for m in game.modules)
        solvers = (*game.solver_modules, *game.solver_tests, *(d.split("::")[0] for d in game.solver_deselect))
        assert game.solver_modules and game.solver_tests, f"{game.id}: no [solvers] selection"
        for path in solvers:
            assert (ROOT / path).exists(), f"{game.id}.solvers: {path}"
        assert all(m == run.resolve_module(game, m) and m.startswith("solvers/") for m in game.solver_modules)


def test_solver_modules_are_killed_by_the_solver_tests_in_a_run_of_their_own(tmp_path: Path) -> None:
    """A solver module's mutants run against the solver tests (the model's tests never ask Z3); a run
    mixing solver and model modules is a one-line error, as is a game with no solver tests."""
    game = run.load_games()["air"]
    text = run.pyproject_text(game, ["solvers/airships/chance.py"])
    assert "rulecraft/solvers/airships/chance.py" in text
    assert '"tests/test_air_solvers.py"' in text and '"tests/test_air_rules.py"' not in text
    assert '"tests/test_air_rules.py"' in run.pyproject_text(game, ["model/airships/rules.py"])
    with pytest.raises(ratchet.MutationDataError, match="solver modules are mutated in a run of their own"):
        game.selection(["solvers/airships/chance.py", "model/airships/rules.py"])
    bare = attrs.evolve(game, solver_tests=())
    with pytest.raises(ratchet.MutationDataError, match=r"air\.solvers\.tests: no solver tests"):
        bare.selection(["solvers/airships/chance.py"])
    args = run._parser().parse_args(["air", "--solvers"])
    assert run.chosen_modules(game, args) == list(game.solver_modules)


def test_the_committed_scores_file_is_valid() -> None:
    recorded = ratchet.load_scores(BENCH / "scores.json")
    assert recorded, "scores.json records at least one module"
    games = tomllib.loads((BENCH / "games.toml").read_text(encoding="utf-8"))
    known = {m for g in games.values() for m in (*g["modules"], *g.get("solvers", {}).get("modules", []))}
    assert set(recorded) <= known


READING_SOURCE = '''def capped(ctx):
    """Docstring naming AIR-AMB-99 is prose, not code."""
    return ctx.r("AIR-AMB-32") == "capped"


def limit(ctx, n):
    x = n + 1
    if capped(ctx):
        x = min(x, 3)
    if ctx.r("AIR-AMB-18") == "sequential":
        x -= 1
    else:
        x += 1
    y = x * 2  # AIR-AMB-25 'yes'
    return y
'''


def test_reading_lines_follow_ids_in_code_comments_and_predicates() -> None:
    marked = readings.reading_lines(READING_SOURCE)
    assert marked["AIR-AMB-18"] == {10, 11, 12, 13}  # the test and both readings' branches
    assert marked["AIR-AMB-32"] == {3, 8, 9}  # the predicate, and the if that calls it with its body
    assert marked["AIR-AMB-25"] == {14}  # a comment marks its own statement only
    assert "AIR-AMB-99" not in marked  # docstrings are not code
    assert 7 not in set().union(*marked.values()) and 15 not in set().union(*marked.values())


def test_reading_functions_are_named_as_mutmut_names_them() -> None:
    source = "def f():\n    return 1\n\n\nclass A:\n    def m(self):\n        return 2\n"
    assert readings.functions_with_lines(source, {2, 7}) == {"x_f", "xǁAǁm"}
    assert readings.functions_with_lines(source, {4}) == set()


def test_run_tallies_the_mutants_on_each_ambiguity_s_lines(tmp_path: Path) -> None:
    """A kept shadow tree read back: killed and surviving mutants of a reading's lines, not the rest."""
    module = "model/airships/rules.py"
    original = READING_SOURCE
    body = original.split("\n")
    mutated_lines = [*body]
    # Three mutants of limit(): one on AIR-AMB-18's branch (killed), one on it (survived), one elsewhere.
    limit_src = "\n".join(body[5:15])
    variants = {
        "orig": limit_src,
        "1": limit_src.replace("x -= 1", "x -= 2"),
        "2": limit_src.replace("x += 1\n    y", "x += 2\n    y"),
        "3": limit_src.replace("x = n + 1", "x = n + 2"),
    }
    mutated_lines = body[:5] + [v.replace("def limit", f"def x_limit__mutmut_{k}") for k, v in variants.items()]
    shadow = tmp_path / "rulecraft/model/airships/rules.py"
    shadow.parent.mkdir(parents=True)
    shadow.write_text(original, encoding="utf-8")
    mutants = tmp_path / "mutants/rulecraft/model/airships/rules.py"
    mutants.parent.mkdir(parents=True)
    mutants.write_text("\n".join(mutated_lines), encoding="utf-8")
    codes = {"x_limit__mutmut_1": 1, "x_limit__mutmut_2": 0, "x_limit__mutmut_3": 0}
    meta = {"exit_code_by_key": {f"rulecraft.model.airships.rules.{k}": v for k, v in codes.items()}}
    mutants.with_name("rules.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    report = run.read_module(tmp_path, module, "0" * 64)
    assert report.readings == {"AIR-AMB-18": {"killed": 1, "total": 2, "survivors": [13]}}
    data = report.to_json()
    assert data["readings"]["AIR-AMB-18"]["score"] == 50.0
    summary = run.summarize(run.Game("air", "airships", (module,), (), ()), [report], 1.0, 1, "mutation", "readings")
    text = run.markdown(summary)
    assert "| AIR-AMB-18 | model/airships/rules.py | 1 | 2 | 50.00% | 13 |" in text
    assert "score" not in summary["modules"][module]  # a --readings run measures no module score


def test_an_unfinished_run_has_no_score_to_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stopped run (mutants never run) reports itself as unfinished, and the ratchet refuses its score."""
    report = run.ModuleReport(RULES, {"killed": 6, "survived": 1, "not checked": 13}, (), "0" * 64)
    data: dict[str, Any] = report.to_json()
    assert data["not_checked"] == 13 and data["score"] == 30.0
    summary = run.summarize(run.Game("aer", "aeroplanes", (RULES,), (), ()), [report], 1.0, 1, "mutation")
    assert "**Unfinished run**: model/aeroplanes/rules.py: 13 mutants never run" in run.markdown(summary)
    results = tmp_path / "aer.json"
    results.write_text(json.dumps(summary), encoding="utf-8")
    assert ratchet.main(["--results", str(results), "--scores", str(tmp_path / "s.json"), "--record"]) == 2
    assert "never run" in capsys.readouterr().err


def test_no_mutated_function_hides_behind_a_decorator() -> None:
    """mutmut 3 does not mutate decorated functions (only @staticmethod and @classmethod): a check
    registered with a decorator, or a body memoised with ``@functools.cache``, would drop out of the
    module's mutation score without a word.  Module-level functions are registered and memoised by a
    call instead; the decorated methods left are one-to-seven-line properties, listed here so that a new
    one is a decision (bench/mutation/README.md)."""
    import ast

    games = tomllib.loads((ROOT / "bench/mutation/games.toml").read_text("utf-8"))
    decorated: list[str] = []
    for game in games.values():
        for module in game["modules"]:
            tree = ast.parse((ROOT / module).read_text("utf-8"))
            for node in tree.body:  # module-level functions: the ones mutmut mutates through a trampoline
                if isinstance(node, ast.FunctionDef) and node.decorator_list:
                    decorated.append(f"{module}::{node.name}")
            for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
                for method in cls.body:
                    if not isinstance(method, ast.FunctionDef) or not method.decorator_list:
                        continue
                    names = [ast.unparse(d) for d in method.decorator_list]
                    if names not in (["staticmethod"], ["classmethod"]):
                        decorated.append(f"{module}::{cls.name}.{method.name}")
    assert sorted(decorated) == [
        "model/aeroplanes/scoring.py::FinalScore.total",
        "model/aeroplanes/scoring.py::Ranking.awarded",
        "model/kings_of_air_and_steam/shipping.py::Destination.is_city",
        "model/kings_of_air_and_steam/shipping.py::Destination.name",
        "model/kings_of_air_and_steam/shipping.py::Route.after_origin",
        "model/kings_of_air_and_steam/shipping.py::RouteRules.extra_stops",
        "model/steamopolis/gauge.py::GaugeLayout.base_limit",
        "model/steamopolis/gauge.py::GaugeLayout.last",
    ]


def test_the_mutation_plugin_empties_memo_caches_before_each_test() -> None:
    """A memo cache filled before mutmut forks a mutant's run would answer for the unmutated code; the
    plugin empties every rulecraft module's caches before each test."""
    from rulecraft.model.steamopolis import gauge, rules

    plugin = _load("rulecraft_mutation_profile", "rulecraft_mutation_profile.py")
    caches = [rules._walk_ends, rules._raises_for, rules._pressure_verdict, gauge._ends]  # decorated or not
    for cache in caches:
        cache.cache_clear()
    rules._walk_ends(gauge.Gauge(0, (None, None, gauge.Stone(), *([None] * 8))), 1)
    assert rules._walk_ends.cache_info().currsize == 1
    assert plugin.clear_memo_caches() >= len(caches)
    assert [c.cache_info().currsize for c in caches] == [0, 0, 0, 0]


def test_resume_refuses_a_folder_that_is_not_a_kept_tree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An incremental run needs mutmut's results to build on: a plain folder is a one-line error, exit 2."""
    assert run.main(["aer", "scoring", "--resume", str(tmp_path), "--results", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "--resume" in err and "no mutants/ folder" in err


def test_resume_brings_a_kept_tree_up_to_date_and_keeps_unchanged_files_older(tmp_path: Path) -> None:
    """mutmut re-mutates a file only when the source is newer than its mutants: the refresh copies the
    current sources keeping their times, rewrites the pyproject only when the selection changed."""
    games = run.load_games()
    game = games["aer"]
    tree = tmp_path / "tree"
    run.build_shadow(tree, game, ["model/aeroplanes/scoring.py"])
    (tree / "mutants").mkdir()
    stale = tree / run.shadow_path("model/aeroplanes/scoring.py")
    stale.write_text("# an older copy\n", encoding="utf-8")
    digests = run.refresh_shadow(tree, game, ["model/aeroplanes/scoring.py"])
    source = ROOT / "model/aeroplanes/scoring.py"
    assert stale.read_bytes() == source.read_bytes()
    assert stale.stat().st_mtime == source.stat().st_mtime
    assert digests == {"model/aeroplanes/scoring.py": hashlib.sha256(source.read_bytes()).hexdigest()}
    before = (tree / "pyproject.toml").read_text("utf-8")
    # the last run mutated scoring.py alone: mutmut left rules.py in mutants/ as a plain, newer copy
    plain = tree / "mutants" / run.shadow_path("model/aeroplanes/rules.py")
    plain.parent.mkdir(parents=True, exist_ok=True)
    plain.write_text("# a plain copy\n", encoding="utf-8")
    kept = tree / "mutants" / run.shadow_path("model/aeroplanes/scoring.py")
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_text("# its mutants\n", encoding="utf-8")
    run.refresh_shadow(tree, game, ["model/aeroplanes/scoring.py", "model/aeroplanes/rules.py"])
    after = (tree / "pyproject.toml").read_text("utf-8")
    assert before != after and "model/aeroplanes/rules.py" in after
    assert not plain.exists(), "a module newly mutated is mutated again, not taken from its plain copy"
    stats = tree / "mutants" / "mutmut-stats.json"
    stats.write_text("{}", encoding="utf-8")
    run.refresh_shadow(tree, game, ["model/aeroplanes/scoring.py"])
    assert not stats.exists(), "new functions are mapped to their tests again (else 'no tests')"
    assert kept.read_text("utf-8") == "# its mutants\n"  # one the last run mutated keeps its mutants


def test_resume_refreshes_the_data_files_mutmut_copied_on_the_tree_s_first_run(tmp_path: Path) -> None:
    """mutmut brings only Python files in mutants/ up to date: a pack schema copied on the first run would
    stay as it was, and a resumed run would test today's code against yesterday's schema."""
    game = run.load_games()["kas"]
    tree = tmp_path / "tree"
    run.build_shadow(tree, game, ["model/kings_of_air_and_steam/rules.py"])
    schema = tree / "mutants" / run.shadow_path("model/kings_of_air_and_steam/packs/schema.json")
    schema.parent.mkdir(parents=True)
    schema.write_text("{}", encoding="utf-8")
    mutated = tree / "mutants" / run.shadow_path("model/kings_of_air_and_steam/rules.py")
    mutated.write_text("# its mutants\n", encoding="utf-8")
    run.refresh_shadow(tree, game, ["model/kings_of_air_and_steam/rules.py"])
    assert schema.read_bytes() == (ROOT / "model/kings_of_air_and_steam/packs/schema.json").read_bytes()
    assert mutated.read_text("utf-8") == "# its mutants\n"  # Python in mutants/ stays mutmut's
