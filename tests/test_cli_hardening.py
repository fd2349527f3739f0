"""The command line under bad input and in a project: budgets checked, one table of exit codes,
state files from `play`, [tool.rulecraft] defaults, help that explains, seeded shrinking."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rulecraft
import rulecraft.cli as cli
from rulecraft.cli import build_parser, main
from rulecraft.registry import make_game
from rulecraft.tools import Tools

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _leaf_parsers() -> list[tuple[list[str], argparse.ArgumentParser]]:
    """Every verb (and every query) with the words that reach it."""
    out = []
    for verb, p in _subparsers(build_parser()).items():
        if verb != "query":
            out.append(([verb], p))
            continue
        for gid, gp in _subparsers(p).items():
            out += [(["query", gid, name], qp) for name, qp in _subparsers(gp).items()]
    return out


# -- 1. budgets ------------------------------------------------------------------------------------------


def test_every_numeric_option_refuses_nan_inf_negatives_and_a_zero_that_means_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    checked = 0
    for words, parser in _leaf_parsers():
        game = [] if words[0] in ("query", "verify") else ["air"]
        for action in parser._actions:
            if not isinstance(action.type, cli.Whole | cli.Seconds):
                assert action.type in (None, cli._game_id), f"{words} {action.dest}: an unchecked type"
                continue
            option = action.option_strings[-1]
            bad = ["nan", "inf", "-1", "1e400"]
            if action.type == cli.POSITIVE or isinstance(action.type, cli.Seconds):
                bad.append("0")
            for value in bad:
                code, out, err = run(capsys, *words, *game, option, value)
                assert out == ""
                assert code == cli.EXIT_USAGE, (words, option, value)
                assert err.count("\n") == 1 and option in err and "Traceback" not in err, (words, option, value, err)
                checked += 1
    assert checked > 150, "every verb's numbers, the queries' included"


def test_zero_is_refused_where_it_would_silently_mean_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "air", "--max-steps", "0")
    assert code == 4 and "--max-steps: a whole number at least 1, got 0" in err
    code, _, err = run(capsys, "verify", "air", "--max-steps", "-1")
    assert code == 4 and "--max-steps" in err
    code, _, err = run(capsys, "verify", "air", "--solver-checks", "-1")
    assert code == 4 and "--solver-checks: a whole number at least 0, got -1" in err


def test_a_number_with_a_real_upper_limit_names_both_ends(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "explore", "air", "--seed", "1", "--port", "99999")
    assert code == 4 and "--port: a whole number from 0 to 65535, got 99999" in err


def test_a_budget_of_nan_seconds_is_refused_at_once_not_searched_forever() -> None:
    for argv in (["ambiguities", "air", "--seconds", "nan"], ["verify", "--max-steps", "-1"]):
        # -P: the installed rulecraft, never this source folder's (a wheel install: tox -e compiled)
        proc = subprocess.run(
            [PY, "-P", "-m", "rulecraft", *argv], capture_output=True, text=True, timeout=60, cwd=ROOT, check=False
        )
        assert proc.returncode == 4, proc.stderr
        assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr and proc.stdout == ""


# -- 2. exit codes ----------------------------------------------------------------------------------------


def _documented_codes(text: str) -> set[int]:
    return {int(m) for m in re.findall(r"^\|\s*(\d+)\s*\|", text, re.M)}


def test_one_table_of_exit_codes_in_the_help_and_the_docs(capsys: pytest.CaptureFixture[str]) -> None:
    constants = {v for k, v in vars(cli).items() if k.startswith("EXIT_") and isinstance(v, int)}
    assert constants == {0, 1, 3, 4, 5, 130}
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    helped = {int(m) for m in re.findall(r"^\s+(\d+)\s{2,}\S", text.split("exit codes")[1], re.M)}
    assert helped == constants
    assert _documented_codes((ROOT / "docs" / "cli.md").read_text("utf-8")) == constants


def test_every_documented_code_is_produced(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert run(capsys, "readings", "air")[0] == 0
    # a well-formed example whose expectation does not hold is a failing example (1); a malformed
    # one is an input error (4)
    example = ROOT / "scenarios" / "airships" / "AIR-EX-13-hangar-white.yaml"
    wrong = tmp_path / example.name
    text = example.read_text("utf-8").replace("{W: 3, R: 0, B: 0}, note", "{W: 4, R: 0, B: 0}, note")
    wrong.write_text(text, "utf-8")
    assert run(capsys, "scenarios", "air", str(wrong), "--quiet")[0] == 1
    bad = tmp_path / "AIR-EX-97-bad.yaml"
    bad.write_text("id: AIR-EX-97\n", "utf-8")
    assert run(capsys, "scenarios", "air", str(bad), "--quiet")[0] == 4
    assert run(capsys, "play", "air", "--players", "-2")[0] == 4  # argparse's own check: 4 too, not 2
    assert run(capsys, "play", "air", "--players", "9")[0] == 4  # the game's own range
    assert run(capsys, "nonsense")[0] == 4

    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    def broken(args: object) -> int:
        raise TypeError("a bug")

    monkeypatch.delenv("RULECRAFT_DEBUG", raising=False)
    monkeypatch.setattr(cli, "cmd_rules", interrupted)
    code, _, err = run(capsys, "rules", "air")
    assert code == 130 and err == "rulecraft: interrupted\n"
    monkeypatch.setattr(cli, "cmd_rules", broken)
    assert run(capsys, "rules", "air")[0] == 3
    server = f"{PY} -m rulecraft.conformance.server air"
    argv = ["conform", "air", "--impl", server, "--no-scenarios", "--seconds", "1e-9", "--quiet"]
    code, out, _ = run(capsys, *argv)
    assert code == 5 and "NOT TESTED" in out


def test_a_missing_scenario_file_is_an_input_error_not_a_failing_example(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / "AIR-EX-99-none.yaml"
    code, out, err = run(capsys, "scenarios", "air", str(missing), "--quiet")
    assert code == 4 and out == ""
    assert err.count("\n") == 1 and f"{missing}: file: no such file" in err
    code, _, err = run(capsys, "scenarios", "air", str(tmp_path))
    assert code == 4 and "is a folder" in err


# -- 3. a state from the command line ------------------------------------------------------------------------


def test_play_saves_the_state_after_a_step_for_the_queries(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from rulecraft.statefile import load_state

    saved = tmp_path / "state.json"
    code, out, _ = run(capsys, "play", "stm", "--seed", "0", "--at", "60", "--save-state", str(saved), "--json")
    assert code == 0
    played = json.loads(out)
    assert len(played["log"]) == 60 and played["state_file"] == str(saved)
    game = make_game("stm")
    expected = game.replay(game.new_game(4), [game.action_from_json(a) for a in played["log"]])
    assert load_state(saved, game) == expected, "the file holds the state after step 60 of the seeded game"
    assert json.loads(saved.read_text("utf-8"))["game"] == "stm"
    code, out, _ = run(capsys, "query", "stm", "placements", "--state", str(saved), "--wish", "8", "--json")
    assert code == 0 and json.loads(out)["state"] == "given"
    code, _, err = run(capsys, "query", "aer", "placements", "--state", str(saved))
    assert code == 4 and "this is a stm state" in err


def test_play_saves_the_last_state_by_default_and_refuses_a_step_after_the_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from rulecraft.statefile import load_state

    saved = tmp_path / "end.json"
    code, out, _ = run(capsys, "play", "air", "--seed", "3", "--save-state", str(saved))
    assert code == 0 and f"{saved} (use it with --state)" in out
    game = make_game("air")
    assert game.is_over(load_state(saved, game))
    steps = int(re.search(r"Game over after (\d+) steps", out).group(1))  # type: ignore[union-attr]
    code, _, err = run(capsys, "play", "air", "--seed", "3", "--at", str(steps + 1))
    assert code == 4 and f"ended after {steps} steps" in err
    code, _, err = run(capsys, "play", "air", "--save-state", str(tmp_path / "nowhere" / "s.json"))
    assert code == 4 and "does not exist" in err


# -- 4. [tool.rulecraft] -----------------------------------------------------------------------------------


def _project(tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(text, "utf-8")
    inner = tmp_path / "src" / "deeper"
    inner.mkdir(parents=True)
    monkeypatch.chdir(inner)  # found walking up, as pytest finds its table
    return tmp_path / "pyproject.toml"


def test_project_defaults_come_from_pyproject_and_the_command_line_wins(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text = '[tool.rulecraft]\nseed = 7\n\n[tool.rulecraft.play]\nplayers = 2\nmax-steps = 12\npolicy = "uniform"\n'
    _project(tmp_path, text, monkeypatch)
    code, out, _ = run(capsys, "play", "air", "--json")
    data = json.loads(out)
    assert code == 0 and (data["seed"], data["players"], len(data["log"])) == (7, 2, 12)
    code, out, _ = run(capsys, "play", "air", "--json", "--players", "3", "--seed", "1")
    data = json.loads(out)
    assert (data["seed"], data["players"], len(data["log"])) == (1, 3, 12)


def test_a_project_may_name_readings_and_the_conform_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = _project(tmp_path, '[tool.rulecraft]\nreadings = ["AIR-AMB-09=Z"]\n', monkeypatch)
    code, _, err = run(capsys, "play", "air")
    assert code == 4 and "AIR-AMB-09 has no reading 'Z'" in err, "the configured reading is used"
    path.write_text('[tool.rulecraft.conform]\nimpl = "no-such-program-xyz"\n', "utf-8")
    code, _, err = run(capsys, "conform", "air", "--quiet")
    assert code == 4 and "no-such-program-xyz" in err, "--impl comes from the project"


@pytest.mark.parametrize(
    ("table", "key", "reason"),
    [
        ("[tool.rulecraft]\nsed = 1\n", "tool.rulecraft.sed", "unknown key"),
        ("[tool.rulecraft.verify]\ngame = 3\n", "tool.rulecraft.verify.game", "unknown key"),
        ("[tool.rulecraft.verify]\nsvg = 'x'\n", "tool.rulecraft.verify.svg", "unknown key"),
        ("[tool.rulecraft.plya]\nseed = 1\n", "tool.rulecraft.plya", "unknown table"),
        ("[tool.rulecraft.verify]\ngames = 'ten'\n", "tool.rulecraft.verify.games", "a whole number, got 'ten'"),
        ("[tool.rulecraft.verify]\nmax-steps = -1\n", "tool.rulecraft.verify.max-steps", "at least 1"),
        ("[tool.rulecraft.ambiguities]\nseconds = nan\n", "tool.rulecraft.ambiguities.seconds", "finite"),
        ("[tool.rulecraft.play]\njson = 1\n", "tool.rulecraft.play.json", "true or false"),
        ("[tool.rulecraft]\nseed = true\n", "tool.rulecraft.seed", "a whole number"),
        ("[tool.rulecraft]\nreadings = 'AIR-AMB-09=C'\n", "tool.rulecraft.readings", "a list"),
        ("[tool.rulecraft]\ndatabase = 3\n", "tool.rulecraft.database", "a folder path"),
        ("[tool.rulecraft.ambiguities]\nonly = 'AIR-AMB-09'\n", "tool.rulecraft.ambiguities.only", "a list of strings"),
        ("[tool.rulecraft.play]\npolicy = 3\n", "tool.rulecraft.play.policy", "a string, got 3"),
        ("[tool]\nrulecraft = 3\n", "tool.rulecraft", "a table"),
        ("[tool.rulecraft\n", "file", "not TOML"),
    ],
)
def test_a_bad_project_table_is_one_line_naming_the_file_and_the_key(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    table: str,
    key: str,
    reason: str,
) -> None:
    path = _project(tmp_path, table, monkeypatch)
    code, out, err = run(capsys, "readings", "air")
    assert code == 4 and out == ""
    assert err.count("\n") == 1 and f"{path}: {key}: " in err and reason in err, err


def test_the_hypothesis_database_goes_where_the_project_says_for_the_command_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from hypothesis import settings
    from hypothesis.database import DirectoryBasedExampleDatabase

    _project(tmp_path, '[tool.rulecraft]\ndatabase = "cache/examples"\n', monkeypatch)
    before = settings().database
    seen: list[Any] = []

    def rules(args: object) -> int:
        seen.append(settings().database)
        return 0

    monkeypatch.setattr(cli, "cmd_rules", rules)
    assert run(capsys, "rules", "air")[0] == 0
    (database,) = seen
    assert isinstance(database, DirectoryBasedExampleDatabase)
    assert Path(database.path) == tmp_path / "cache" / "examples", "relative to the pyproject.toml, not the cwd"
    assert settings().database == before, "the test process's profile is back"


# -- 5. help and output ---------------------------------------------------------------------------------------


def test_help_lists_every_verb_and_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    verbs = _subparsers(build_parser())
    assert len(verbs) == 12  # merge (issue 21, part 2) joined the eleven
    with pytest.raises(SystemExit):
        main(["--help"])
    description = capsys.readouterr().out.split("positional arguments")[0]
    for verb in verbs:
        assert re.search(rf"^\s+{verb}\b", description, re.M), f"{verb} missing from the description"
    for words, parser in _leaf_parsers():
        for action in parser._actions:
            assert action.help, f"{' '.join(words)} {action.dest}: no help"
    for verb in ("play", "rules", "conform"):
        with pytest.raises(SystemExit):
            main([verb, "--help"])
        assert "{aer,air,kas,stm}" in capsys.readouterr().out
    for verb, duration in (("verify", "1 min"), ("ambiguities", "minutes"), ("errata", "minute"), ("conform", "900")):
        with pytest.raises(SystemExit):
            main([verb, "--help"])
        assert duration in capsys.readouterr().out, verb


def test_play_prints_words_not_python_structures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "play", "air", "--seed", "7")
    last = out.strip().splitlines()[-1]
    assert code == 0 and re.fullmatch(r"Game over after \d+ steps\. Scores: (seat \d \d+, )*seat \d \d+; .*", last)
    assert "{" not in last and "'" not in last


# Python's list, tuple and dict reprs: "[2, 4]", "[]", "[(0, 7, 'passive')]", "['player D']", "{0: 26}".
# Airships' dice ("W[3] R[4, 4]", a colour letter before the faces, AIR-R-20) are its notation, not a repr.
PYTHON_STRUCTURE = re.compile(r"(?<![WRB])\[(\]|\(|'|\d+, )|\{'|\{\d+: ")


@pytest.mark.parametrize("game", ["aer", "air", "kas", "stm"])
def test_every_line_of_a_whole_log_is_words_not_python_structures(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """Every action's words, chance included, and the final board of two seeded games."""
    for seed in ("1", "2"):
        code, out, _ = run(capsys, "play", game, "--seed", seed, "--chance")
        bad = [line for line in out.splitlines() if PYTHON_STRUCTURE.search(line)]
        assert code == 0 and not bad, bad[:5]


def test_a_query_prints_words_not_python_structures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "query", "aer", "risk", "--targets", "12,10", "--money", "4", "--oracle")
    assert code == 0 and "targets 12,10: rolls [12+, 10+]" in out and "oracle: success " in out
    assert "{" not in out and "'" not in out


@pytest.mark.parametrize(
    ("argv", "schema"),
    [
        (["play", "air", "--max-steps", "5", "--json"], "play/1"),
        (["rules", "air", "--json"], "rules/1"),
        (["readings", "air", "--json"], "readings/1"),
        (["scenarios", "air", "--json", "--quiet"], "scenarios/1"),
        (["verify", "air", "--games", "1", "--solver-checks", "0", "--quiet", "--json"], "verify/1"),
        (["ambiguities", "air", "--no-search", "--no-examples", "--quiet", "--json"], "ambiguities/1"),
        (["query", "air", "chance", "--dice", "W=3", "--need", "W=2", "--target", "5", "--json"], "query/1"),
    ],
)
def test_every_json_output_names_its_version_and_schema(
    capsys: pytest.CaptureFixture[str], argv: list[str], schema: str
) -> None:
    code, out, _ = run(capsys, *argv)
    data = json.loads(out)
    assert code in (0, 1) and isinstance(data, dict)
    assert data["rulecraft"] == rulecraft.__version__ and data["schema"] == schema


# -- 6. shrinking by a count of replays ------------------------------------------------------------------------


def _wooden_airship_game() -> tuple[Any, list[Any], Any]:
    game = make_game("air")

    def taken(state: Any, step: int) -> str | None:
        return f"seat {state.wooden_airship} holds it" if state.wooden_airship is not None else None

    rng = random.Random(3)
    state, log = game.new_game(4), []
    while taken(state, 0) is None:
        _, more = game.play_random(state, rng, max_steps=1)
        log += more
        state = game.replay(state, more)
    return game, log, taken


def test_shrinking_by_a_count_gives_the_same_game_whatever_the_safety_cap() -> None:
    from rulecraft.shrink import shrink

    game, log, taken = _wooden_airship_game()
    results = [shrink(game, 4, log, taken, replays=60, seconds=cap) for cap in (30.0, 3000.0)]
    assert results[0] == results[1] and results[0].replays == 60 and not results[0].cut_short
    assert len(results[0].actions) < len(log)
    bitten = shrink(game, 4, log, taken, replays=60, seconds=1e-9)
    assert bitten.cut_short and bitten.replays < 60


def test_verify_names_the_safety_cap_when_it_cuts_shrinking_short(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulecraft.verify import shrunk

    game, log, taken = _wooden_airship_game()
    from rulecraft.core import Setup
    from rulecraft.verify import _finding

    finding = _finding(game, "invariant", "planted", 1, Setup(4), log)
    calm = shrunk(game, finding, replays=60, seconds=3000, failing=taken)
    assert "in 60 replays" in calm.message and "cut short" not in calm.message
    cut = shrunk(game, finding, replays=60, seconds=1e-9, failing=taken)
    assert "shrinking cut short by the 1e-09 s safety cap" in cut.message


def test_verify_shrinks_a_seed_alike_whatever_its_seconds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:

    def broken(self: Tools[Any, Any], state: Any) -> list[str]:
        return ["planted-check [AIR-R-10]: go 3 reached"] if getattr(state, "goes", 0) >= 3 else []

    monkeypatch.setattr(Tools, "violations", broken)
    base = ["verify", "air", "--games", "1", "--solver-checks", "0", "--quiet", "--json", "--shrink-replays", "40"]
    outs = []
    for seconds in ("60", "600"):
        code, out, _ = run(capsys, *base, "--shrink-seconds", seconds)
        assert code == 1
        findings = json.loads(out)["reports"][0]["findings"]
        outs.append([f for f in findings if f["kind"] == "invariant"])
    assert outs[0] == outs[1] and len(outs[0]) == 1
    assert "in 40 replays" in outs[0][0]["message"] and "cut short" not in outs[0][0]["message"]


# -- the whole program, as a user runs it ------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "air", "--max-steps", "0"],
        ["scenarios", "air", "no-such-file.yaml"],
        ["conform", "air"],
        ["play", "air", "--players", "1"],
    ],
)
def test_the_program_exits_with_a_usage_code_and_no_traceback(argv: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "RULECRAFT_DEBUG"}
    proc = subprocess.run(
        [PY, "-P", "-m", "rulecraft", *argv], capture_output=True, text=True, timeout=60, cwd=ROOT, env=env, check=False
    )
    assert proc.returncode == 4, proc.stderr
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_errata_runs_plugin_code_only_with_the_explicit_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A variant file naming module:function is refused (data files run no code) unless the user passes
    --allow-plugin-code; then the plugin is called (os.getcwd takes no game: it raises, reported, exit 1)."""
    from rulecraft.cli import main

    variant = tmp_path / "v.yaml"
    variant.write_text('game: air\nvariant: x\ntitle: t\nplugins: ["os:getcwd"]\n', "utf-8")
    assert main(["errata", "air", str(variant), "--quiet"]) == 4
    err = capsys.readouterr().err
    assert "plugins[0]" in err and "--allow-plugin-code" in err and len(err.strip().splitlines()) == 1
    code = main(["errata", "air", str(variant), "--quiet", "--allow-plugin-code", "--games", "1", "--seconds", "1"])
    out = capsys.readouterr()
    assert "may not run" not in out.err
    assert code == 1 and "plugin 'os:getcwd' raised while changing the rules" in out.out + out.err
