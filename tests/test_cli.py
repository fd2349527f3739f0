"""The command line: each verb does its job and bad input is explained."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from rulecraft.cli import main
from rulecraft.tools import Tools


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_verify_runs_scenarios_campaign_and_solver_checks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "air", "--games", "3", "--solver-checks", "3", "--quiet", "--json")
    (report,) = json.loads(out)["reports"]
    assert report["game"] == "air"
    assert report["games"] == 3 and report["steps"] > 0
    assert report["scenarios"]["total"] >= 1
    assert report["solver_checks"] >= 3
    assert code == (0 if report["ok"] else 1)


def test_verify_prints_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "verify", "air", "--games", "2", "--solver-checks", "1", "--quiet")
    assert "rulecraft verify (seed 0)" in out and "air" in out and "scenarios" in out


def test_play_is_reproducible_from_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "play", "air", "--players", "4", "--seed", "7", "--json")
    _, second, _ = run(capsys, "play", "air", "--players", "4", "--seed", "7", "--json")
    assert first == second
    log = json.loads(first)
    assert log["players"] == 4 and log["log"] and log["winners"]
    code, text, _ = run(capsys, "play", "air", "--players", "4", "--seed", "7")
    assert code == 0 and "attempts" in text and "Game over" in text


def test_play_and_verify_take_a_playout_policy(capsys: pytest.CaptureFixture[str]) -> None:
    """Steamopolis 'purposeful' games reach their end (STM-R-64..67); a policy a game lacks is a usage
    error naming the game and its policies, before any work."""
    code, text, _ = run(capsys, "play", "stm", "--players", "3", "--seed", "7", "--policy", "purposeful")
    assert code == 0 and "Game over" in text
    code, out, _ = run(
        capsys, "verify", "stm", "--policy", "purposeful", "--games", "3", "--solver-checks", "1", "--quiet", "--json"
    )
    (report,) = json.loads(out)["reports"]
    assert report["policy"] == "purposeful" and report["finished"] == 3 and code == 0
    code, _, err = run(capsys, "verify", "air", "--policy", "purposeful", "--games", "1", "--quiet")
    assert code == 4 and "no playout policy 'purposeful'" in err and "uniform" in err
    code, _, err = run(capsys, "play", "stm", "--policy", "clever")
    assert code == 4 and "purposeful, uniform" in err


def test_play_aer_shows_the_dice_and_writes_the_final_board(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    picture = tmp_path / "board.svg"
    code, text, _ = run(capsys, "play", "aer", "--players", "4", "--seed", "7", "--svg", str(picture))
    assert code == 0 and "Game over" in text
    assert "the risk dice are thrown" in text  # a placement's outcome is in the log, not only with --chance
    assert "goes to the waiting area" not in text  # the set-up deals stay hidden (AER-SET-01)
    root = ET.fromstring(picture.read_text("utf-8"))
    assert root.tag.endswith("svg") and "game over" in picture.read_text("utf-8").lower()


def test_rules_lists_every_rule_with_code_and_exercise(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "rules", "air", "--json")
    rules = json.loads(out)["rules"]
    assert len(rules) == 51
    r30 = next(r for r in rules if r["id"] == "AIR-R-30")
    assert r30["page"] == "3-4"
    assert any(c.startswith("rules.py:") for c in r30["code"])
    assert "test_air_rules.py" in r30["tests"]
    assert "AIR-EX-05" in r30["scenarios"]


def test_readings_lists_the_register(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "readings", "air", "--json")
    register = json.loads(out)["ambiguities"]
    assert len(register) == 36
    amb09 = next(a for a in register if a["id"] == "AIR-AMB-09")
    assert amb09["default"] == "B" and set(amb09["readings"]) == {"A", "B", "C"}


def test_query_chance_gives_the_digest_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "query", "air", "chance", "--dice", "W=3", "--need", "W=2", "--target", "5", "--chips", "1", "--json"
    )
    answer = json.loads(out)
    assert code == 0
    assert answer["without_chip"] == "16/27" and answer["with_chip"] == "23/27"


def test_bad_reading_and_bad_pack_are_errors_not_tracebacks(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "play", "air", "--reading", "AIR-AMB-09=Z")
    assert code == 4 and "AIR-AMB-09 has no reading 'Z'" in err
    code, _, err = run(capsys, "play", "air", "--reading", "XYZ-AMB-01=a")
    assert code == 4 and "no registered game has this ambiguity" in err
    pack = tmp_path / "pack.yaml"
    pack.write_text("name: x\n", "utf-8")
    code, _, err = run(capsys, "play", "air", "--components", str(pack))
    assert code == 4 and str(pack) in err and "required property" in err


def test_scenarios_command_reports_and_fails_on_a_bad_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "AIR-EX-97-bad.yaml"
    bad.write_text("id: AIR-EX-97\n", "utf-8")
    code, out, err = run(capsys, "scenarios", "air", str(bad), "--quiet")
    # a malformed file the user names is an input error (exit 4), one line naming file and field
    assert code == 4 and str(bad) in err and "title" in err and "required" in err, out + err
    assert len(err.strip().splitlines()) == 1


def test_verify_fails_with_the_seed_and_the_failing_log(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulecraft.model.airships.game import AirshipsGame

    def broken(self: Tools[Any, Any], state: object) -> list[str]:
        # a planted invariant failure: the third go breaks "the rules"
        return ["planted-check [AIR-R-10]: go 3 reached"] if getattr(state, "goes", 0) >= 3 else []

    monkeypatch.setattr(Tools, "violations", broken)
    code, out, _ = run(capsys, "verify", "air", "--games", "2", "--solver-checks", "0", "--quiet")
    assert code == 1
    assert "FAILED" in out and "planted-check [AIR-R-10]: go 3 reached" in out
    assert "reproduce: seed" in out and "shortest failing log" in out
    assert "the state where it fails:" in out and "Airships —" in out, "the board picture follows the log"
    log_line = next(line for line in out.splitlines() if line.startswith("  as JSON: "))
    log = json.loads(log_line.removeprefix("  as JSON: "))
    game = AirshipsGame()
    seed_players = next(line for line in out.splitlines() if "reproduce: seed" in line)
    players = int(seed_players.split(",")[1].split()[0])
    state = game.replay(game.new_game(players), [game.action_from_json(a) for a in log])
    assert state.goes >= 3, "the printed log replays to the failing state"
    prefix = game.replay(game.new_game(players), [game.action_from_json(a) for a in log[:-1]])
    assert prefix.goes < 3, "and it is the shortest prefix that fails"


def test_version_names_the_release(capsys: pytest.CaptureFixture[str]) -> None:
    import rulecraft

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == f"rulecraft {rulecraft.__version__}"


def test_an_unknown_game_is_one_line_naming_the_registered_ones(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["play", "foo"], ["verify", "foo"], ["conform", "foo", "--impl", "x"]):
        assert main(argv) == 4
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "unknown game 'foo'" in err and "air" in err


def test_a_reading_of_another_game_is_refused_not_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "air", "--reading", "KAS-AMB-01=b"]) == 4
    assert "KAS-AMB-01: an ambiguity of another game; this run plays air" in capsys.readouterr().err


def test_an_unexpected_error_is_one_line_with_exit_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulecraft.cli as cli

    def broken(args: object) -> int:
        raise TypeError("something rulecraft did not expect")

    monkeypatch.setattr(cli, "cmd_rules", broken)
    monkeypatch.delenv("RULECRAFT_DEBUG", raising=False)
    assert main(["rules", "air"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error: TypeError: something rulecraft did not expect" in err
    assert "Traceback" not in err and "report" in err


def test_options_may_come_before_a_positional_file(tmp_path: Path) -> None:
    """As pytest and ruff take them: `errata air --quiet FILE` (argparse stopped at the option)."""
    variant = Path(__file__).resolve().parent.parent / "examples" / "errata" / "airships-no-additional-go.yaml"
    report = tmp_path / "r.md"
    argv = ["errata", "air", "--quiet", str(variant), "--games", "2", "--campaign-games", "1", "--seconds", "2"]
    code = main([*argv, "--report", str(report)])
    assert code in (0, 1) and "no-additional-go" in report.read_text("utf-8")


def test_progress_in_a_log_is_a_line_per_phase_and_every_few_seconds() -> None:
    """Issue 20: rich draws its bar only on a terminal; in a CI log or a pipe, LineProgress writes a line
    when a task starts, when its phase changes (at most one a second), every 5 s while it advances,
    and at the end."""
    import io

    from rulecraft.cli import LineProgress

    now = [0.0]
    out = io.StringIO()
    with LineProgress(out, every_s=5.0, clock=lambda: now[0]) as progress:
        task = progress.add_task("air", total=10)
        progress.update(task, advance=1, description="air: scenarios")  # phase change, but < 1 s after the start line
        now[0] = 1.5
        progress.update(task, advance=1, description="air: games")  # a new phase, 1.5 s on: a line
        now[0] = 3.0
        progress.advance(task)  # same phase, 1.5 s after the last line: quiet
        now[0] = 7.0
        progress.advance(task)  # 5.5 s after the last line: a line
    lines = out.getvalue().splitlines()
    assert lines == [
        "air: 0/10 (0 s)",
        "air: games: 2/10 (2 s)",
        "air: games: 4/10 (7 s)",
        "air: games: 4/10 (7 s) done",
    ]


def test_progress_in_a_log_keeps_a_heartbeat_through_a_silent_phase() -> None:
    """Issue 20: a phase that reports nothing for a while (errata's invariant campaign) is not silent in
    a log: the current line comes again every ``every_s`` seconds, a phase change held back by the
    one-second limit included."""
    import io

    from rulecraft.cli import LineProgress

    out = io.StringIO()
    with LineProgress(out, every_s=0.1) as progress:
        task = progress.add_task("errata")
        progress.update(task, description="errata: invariants")  # < 1 s after the start line: held back
        time.sleep(0.45)  # the phase reports nothing meanwhile
    lines = out.getvalue().splitlines()
    assert lines[0] == "errata: 0 (0 s)" and lines[-1] == "errata: invariants: 0 (0 s) done"
    beats = lines[1:-1]
    assert len(beats) >= 2 and set(beats) == {"errata: invariants: 0 (0 s)"}


def test_verify_piped_prints_progress_lines_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    """A run whose stderr is not a terminal still shows it is alive (the lines go to stderr)."""
    main(["verify", "air", "--games", "1", "--solver-checks", "1", "--max-steps", "50"])
    err = capsys.readouterr().err
    assert "air" in err and err.strip().splitlines()[-1].endswith("done")


def test_the_rules_listing_reads_scenario_ids_and_rules_without_a_yaml_parse_or_schema() -> None:
    """`rulecraft rules` finds which scenarios exercise a rule from their text: the `id:` (quoted or not)
    and every rule ID in the file, its `rules:` list included; and it loads no JSON Schema."""
    import subprocess
    import sys

    from rulecraft.crossref import _SCENARIO_ID

    assert _SCENARIO_ID.search("# note\nid: 'AIR-EX-07'\nrules: [AIR-R-12]\n").group(1) == "AIR-EX-07"  # type: ignore[union-attr]
    assert _SCENARIO_ID.search('title: x\nid: "KAS-EX-01"  # p.9\n').group(1) == "KAS-EX-01"  # type: ignore[union-attr]
    assert _SCENARIO_ID.search("given:\n  id: nested\n") is None  # only a top-level id names the scenario
    code = (
        "import sys\n"
        "from rulecraft.crossref import crossref\n"
        "from rulecraft.registry import make_game\n"
        "table = crossref(type(make_game('air')))\n"
        "assert table['AIR-R-27']['scenarios'], table['AIR-R-27']\n"
        "print('jsonschema' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("total", [60, 80, 120, 160, 240])
def test_the_rules_table_fits_the_screen_and_keeps_the_statement_readable(total: int) -> None:
    """`rulecraft rules` sizes its columns itself (issue 18: rich measuring every cell was a third of
    the command): the table fits ``total`` characters wherever the statement keeps 20 of them, and no
    column is wider than its longest cell."""
    from rulecraft.cli import _rules_widths

    columns = ("rule", "p.", "statement", "enforced in", "scenarios", "tests")
    rows = [
        ("AIR-R-01", "2", "2 to 4 companies play; " * 4, "game.py:100, transitions.py:40", "", "test_air_rules.py"),
        ("AIR-R-02", "2-3", "short", "", "AIR-EX-01, AIR-EX-02", ""),
    ]
    widths = _rules_widths(rows, columns, total)
    longest = [max([len(c), *(len(r[i]) for r in rows)]) for i, c in enumerate(columns)]
    assert widths[2] >= 20
    assert all(w <= max(n, len("nothing exercises it")) for w, n in zip(widths, longest, strict=True))
    if total >= 120:
        assert sum(widths) + 3 * len(columns) + 1 <= total
        assert widths[2] == min(longest[2], total - 19 - sum(widths) + widths[2])
    else:
        assert sum(widths) + 19 <= max(total, 20 + 11 + 9 + 5 + widths[0] + widths[1] + 19)
        assert all(w >= len(c) for w, c in zip(widths, columns, strict=True)), "a heading never folds"
