"""The optional mypyc-compiled build (issue 18): its modules are declared once, in setup.py; an editable
install is refused in one line; a development install runs every module as Python; and in the
compiled build (``tox -e compiled``) exactly the declared modules are extension modules."""

from __future__ import annotations

import ast
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rulecraft.compiled import compiled_modules, describe

ROOT = Path(__file__).resolve().parents[1]
COMPILING = os.environ.get("RULECRAFT_COMPILE", "").strip() not in ("", "0")


def declared() -> tuple[str, ...]:
    """setup.py's COMPILED, read as data (setup.py itself runs a build when imported)."""
    tree = ast.parse((ROOT / "setup.py").read_text("utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return tuple(str(v) for v in value)
    raise AssertionError("setup.py declares no COMPILED")


def as_module(path: str) -> str:
    top, _, rest = path.partition("/")
    assert top == "model", path
    return "rulecraft.model." + rest.removesuffix(".py").replace("/", ".")


def backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rulecraft_build", ROOT / "build_backend" / "rulecraft_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_declared_modules_are_each_games_rules_and_effects_and_exist() -> None:
    paths = declared()
    assert len(set(paths)) == len(paths) >= 4
    for path in paths:
        assert (ROOT / path).is_file(), path
    assert {Path(p).parent.name for p in paths} == {"airships", "kings_of_air_and_steam", "steamopolis", "aeroplanes"}


@pytest.mark.skipif(
    COMPILING, reason="the compiled build: test_the_compiled_build_compiles_exactly_the_declared_modules"
)
def test_a_development_install_runs_every_module_as_python() -> None:
    """A stray in-place build would shadow its sources and hide every later edit of them."""
    assert compiled_modules() == ()
    assert describe() == "pure Python"


@pytest.mark.skipif(not COMPILING, reason="runs in the compiled build: tox -e compiled")
def test_the_compiled_build_compiles_exactly_the_declared_modules() -> None:
    assert compiled_modules() == tuple(sorted(as_module(p) for p in declared()))
    for name in compiled_modules():
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None and not spec.origin.endswith(".py"), name
    assert describe().startswith(f"mypyc-compiled ({len(declared())} modules: ")


def test_an_editable_compiled_install_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    hooks = backend()
    monkeypatch.setenv("RULECRAFT_COMPILE", "1")
    for hook in (hooks.build_editable, hooks.get_requires_for_build_editable):
        with pytest.raises(SystemExit) as refused:
            hook("unused")
        message = str(refused.value.code)
        assert "RULECRAFT_COMPILE=1 builds a wheel only" in message and "\n" not in message


def test_only_a_compiled_build_asks_for_mypy_and_the_projects_own_dependencies(monkeypatch: pytest.MonkeyPatch) -> None:
    hooks = backend()
    monkeypatch.setattr(hooks._setuptools, "get_requires_for_build_wheel", lambda config_settings=None: [])
    monkeypatch.setenv("RULECRAFT_COMPILE", "0")
    assert hooks.get_requires_for_build_wheel() == []
    monkeypatch.setenv("RULECRAFT_COMPILE", "1")
    asked = hooks.get_requires_for_build_wheel()
    assert asked[0].startswith("mypy>=") and "attrs>=23.1" in asked and "types-PyYAML" in asked


def test_rule_coverage_refuses_a_compiled_model_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compiled code runs no trace events: a tracer would name fewer rules than ran, so it refuses."""
    from rulecraft import compiled, coverage
    from rulecraft.core import RulecraftError
    from rulecraft.registry import make_game

    game = make_game("air")
    if not COMPILING:
        coverage.RuleTracer(game)  # the pure-Python build traces
        monkeypatch.setattr(compiled, "compiled_modules", lambda: ("rulecraft.model.airships.transitions",))
    with pytest.raises(RulecraftError) as refused:
        coverage.RuleTracer(game)
    message = str(refused.value)
    assert "rulecraft.model.airships.transitions" in message and "pure-Python build" in message
    assert "\n" not in message


def test_the_rule_maps_read_each_modules_python_source() -> None:
    """Of a compiled module, the source installed beside it; the maps cite rules in both builds."""
    from rulecraft.compiled import source_file
    from rulecraft.coverage import rule_map
    from rulecraft.model.steamopolis import rules
    from rulecraft.registry import make_game

    assert source_file(rules).name == "rules.py" and source_file(rules).is_file()
    cited = {
        rule for (path, _), ids in rule_map(type(make_game("stm"))).items() if path.endswith("rules.py") for rule in ids
    }
    assert "STM-R-15" in cited


def test_a_planted_deviation_is_refused_in_a_compiled_build(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A compiled module calls its own functions directly, so a patch would plant nothing."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import planted
    finally:
        sys.path.remove(str(ROOT / "bench"))
    monkeypatch.setattr(planted, "compiled_modules", lambda: ("rulecraft.model.kings_of_air_and_steam.rules",))
    assert planted.main(["kas", "toll"]) == 4
    err = capsys.readouterr().err.strip()
    assert "patches the model's Python functions" in err and "pure-Python build" in err and "\n" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["ambiguities", "air", "--only", "AIR-AMB-09", "--seconds", "1"],
        ["errata", "air", "examples/errata/airships-no-additional-go.yaml"],
        ["conform", "air", "--impl", "true"],
    ],
)
def test_the_verbs_that_trace_rules_refuse_a_compiled_model_in_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulecraft import cli, compiled

    if not COMPILING:
        monkeypatch.setattr(compiled, "compiled_modules", lambda: ("rulecraft.model.airships.transitions",))
    assert cli.main(argv) == 4
    err = capsys.readouterr().err.strip()
    assert f"rulecraft {argv[0]} traces the rules each step exercises" in err and "pure-Python build" in err
    assert "\n" not in err


def test_the_ambiguities_register_alone_runs_on_a_compiled_model(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """--no-search plays only the printed examples under each reading: nothing is traced."""
    from rulecraft import cli, compiled

    if not COMPILING:
        monkeypatch.setattr(compiled, "compiled_modules", lambda: ("rulecraft.model.airships.transitions",))
    assert cli.main(["ambiguities", "air", "--no-search", "--no-examples", "--quiet"]) == 0
    assert "traces the rules" not in capsys.readouterr().err
