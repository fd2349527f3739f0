"""Campaigns split across workers (issue 21, part 2): ``--shard I/N`` runs a deterministic share of a
``conform``, ``ambiguities`` or ``errata`` campaign, ``--results`` writes it as JSON, and
``rulecraft merge`` puts the shards back into one report judged as a single run.

The expected values here are the single run's own: a merge of shards 1..N must say what the whole
run over the same seed says (verdict, findings, counts compared), and the shards' work lists must
partition the whole run's work exactly."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rulecraft.cli import main
from rulecraft.conformance.conform import conform_units
from rulecraft.errata import ErrataBudget, errata_units, load_variant
from rulecraft.registry import game_ids, make_game
from rulecraft.results import ResultsError, ambiguity_units, load, merge
from rulecraft.scenarios.loader import scenario_files
from rulecraft.shard import Shard, lane_games, lane_seed

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
PLANTED_SHARP_TURN = f"{PY} {ROOT / 'bench' / 'planted.py'} kas sharp-turn"
# Small budgets: the printed examples fail under the planted bug (KAS-R-26), the games compare states.
CONFORM = ["--max-examples", "2", "--max-steps", "20", "--shrink-replays", "20", "--quiet"]
# Two ambiguities of Airships: AIR-AMB-09 has three readings (two pairs), AIR-AMB-35 two (one pair).
AMBIGUITIES = ["--only", "AIR-AMB-09", "--only", "AIR-AMB-35", "--max-examples", "3", "--max-steps", "40"]
AMBIGUITIES += ["--seconds", "120", "--quiet"]  # a cap far above the work: it never bites, the run is seeded


def _json(path: Path) -> dict[str, Any]:
    data = json.loads(path.read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def _partition(units: list[str], count: int) -> list[list[str]]:
    return [Shard(i, count).select(units) for i in range(1, count + 1)]


def _assert_partition(units: list[str], count: int) -> None:
    shares = _partition(units, count)
    together = Counter(u for share in shares for u in share)
    assert together == Counter(units), "the shards together run every unit exactly once"
    for i, share in enumerate(shares):
        for other in shares[i + 1 :]:
            assert not set(share) & set(other), "two shards share a unit"
        # each share keeps the whole run's order
        assert share == [u for u in units if u in set(share)]


# -- the work lists --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 5])
def test_conform_shards_partition_the_printed_examples_and_the_lanes(count: int) -> None:
    game = make_game("air")
    units = conform_units(game, scenarios=True, lanes=count)
    assert [u for u in units if u.startswith("example:")] == [f"example:{p.name}" for p in scenario_files("air")]
    assert [u for u in units if u.startswith("lane:")] == [f"lane:{j}/{count}" for j in range(1, count + 1)]
    _assert_partition(units, count)
    # every kind is spread: with N lanes, shard I runs lane I
    for i, share in enumerate(_partition(units, count), start=1):
        assert [u for u in share if u.startswith("lane:")] == [f"lane:{i}/{count}"]


def test_lanes_split_the_games_exactly_and_one_lane_keeps_the_seed() -> None:
    for games in (0, 1, 7, 50):
        for lanes in (1, 2, 3, 8):
            assert sum(lane_games(games, j, lanes) for j in range(lanes)) == games
    assert lane_seed(17, 0, 1) == 17  # one lane: the run as it always was
    seeds = {lane_seed(17, j, 4) for j in range(4)}
    assert len(seeds) == 4 and lane_seed(17, 2, 4) == lane_seed(17, 2, 4)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("count", [2, 3, 7])
def test_ambiguities_shards_partition_the_pairs_and_the_examples(game_id: str, count: int) -> None:
    units = ambiguity_units(game_id)
    register = make_game(game_id).register
    pairs = [f"pair:{a.id}={r.key}" for a in register for r in a.readings if r.key != a.default]
    assert [u for u in units if u.startswith("pair:")] == pairs
    assert [u for u in units if u.startswith("examples:")] == [f"examples:{a.id}" for a in register]
    _assert_partition(units, count)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_errata_shards_partition_examples_campaign_games_search_and_shift_games(count: int) -> None:
    variant = load_variant(ROOT / "examples" / "errata" / "airships-one-chip-pool.yaml")
    budget = ErrataBudget(games=9, campaign_games=5)
    units = errata_units(variant, budget)
    assert [u for u in units if u.startswith("shift:")] == [f"shift:{i}" for i in range(9)]
    assert [u for u in units if u.startswith("campaign:")] == [f"campaign:{i}" for i in range(5)]
    assert units.count("witness") == 1
    _assert_partition(units, count)


@pytest.mark.parametrize("text", ["0/2", "3/2", "2", "a/b", "1/0", "-1/2", ""])
def test_a_bad_shard_is_a_one_line_usage_error(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (
        ["conform", "air", "--impl", "true", f"--shard={text}"],
        ["ambiguities", "air", f"--shard={text}"],
        ["errata", "air", "x.yaml", f"--shard={text}"],
    ):
        assert main(argv) == 4
        err = capsys.readouterr().err.strip()
        assert "--shard" in err and "I/N" in err and len(err.splitlines()) == 1, err


# -- conform: two shards merged equal a single run ----------------------------------------------------------


@pytest.fixture(scope="module")
def conform_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """kas against the planted sharp-turn bug: shards 1/2 and 2/2, and the single run with 2 lanes."""
    folder = tmp_path_factory.mktemp("conform")
    out = {}
    for name, extra in (("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"]), ("all", ["--lanes", "2"])):
        out[name] = folder / f"{name}.json"
        code = main(["conform", "kas", "--impl", PLANTED_SHARP_TURN, *CONFORM, *extra, "--results", str(out[name])])
        assert code == 1  # the planted bug is found (KAS-R-26), in each part and in the whole
    return out


def test_two_conform_shards_merged_equal_the_single_run(
    conform_runs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    junit, report = tmp_path / "m.xml", tmp_path / "m.md"
    paths = [str(conform_runs["s2"]), str(conform_runs["s1"])]  # any order
    code = main(["merge", *paths, "--json", "--junit", str(junit), "--report", str(report)])
    merged = json.loads(capsys.readouterr().out)
    single = _json(conform_runs["all"])
    assert code == single["verdict"]["exit"] == 1
    assert merged["verdict"] == single["verdict"]
    for key in ("scenarios_run", "scenarios_passed", "examples_run", "games_planned", "steps_compared"):
        assert merged["result"][key] == single["result"][key], key
    assert merged["result"]["setups_compared"] == single["result"]["setups_compared"]
    assert merged["result"]["rules_exercised"] == single["result"]["rules_exercised"]
    assert [f["title"] for f in merged["result"]["findings"]] == [f["title"] for f in single["result"]["findings"]]
    assert [f["unit"] for f in merged["result"]["findings"]] == [f["unit"] for f in single["result"]["findings"]]
    assert any("KAS-R-26" in f["rules"] for f in merged["result"]["findings"])  # the planted rule (p. of KAS-R-26)
    # the same reports as a single run writes: the verdict heads the Markdown, the JUnit counts failures
    assert report.read_text("utf-8").startswith(f"# rulecraft conform kas: {len(single['result']['findings'])} finding")
    assert "merged: 2 of 2 shards merged" in report.read_text("utf-8")
    assert f'failures="{len(single["result"]["findings"])}"' in junit.read_text("utf-8")
    # a whole run's results (shard 1/1) merge alone into the same verdict
    assert main(["merge", str(conform_runs["all"]), "--json"]) == 1
    alone = json.loads(capsys.readouterr().out)
    assert alone["verdict"] == single["verdict"] and alone["result"]["findings"] == single["result"]["findings"]


def test_conform_shards_ran_exactly_the_single_runs_work(conform_runs: dict[str, Path]) -> None:
    s1, s2, single = (_json(conform_runs[k]) for k in ("s1", "s2", "all"))
    assert s1["units"] == s2["units"] == single["units"]
    assert not set(s1["planned"]) & set(s2["planned"])
    assert sorted(s1["planned"] + s2["planned"]) == sorted(single["planned"]) == sorted(single["units"])
    assert sorted(s1["ran"] + s2["ran"]) == sorted(single["ran"])
    assert s1["planned"][-1] == "lane:1/2" and s2["planned"][-1] == "lane:2/2"
    # each shard compared its own share: the counts add up to the whole run's
    for key in ("scenarios_run", "examples_run", "steps_compared"):
        assert s1["result"][key] + s2["result"][key] == single["result"][key], key


def test_differential_findings_of_two_shards_merged_are_the_single_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The planted air bug 'start-chips-seat-0' (seat 0 takes the start player's chips, AIR-R-09): each
    lane's set-up sweep finds it; the merged findings are the single run's, lane by lane."""
    impl = f"{PY} {ROOT / 'bench' / 'planted.py'} air start-chips-seat-0"
    small = ["--no-scenarios", "--max-examples", "2", "--max-steps", "30", "--shrink-replays", "20", "--quiet"]
    paths = {name: tmp_path / f"{name}.json" for name in ("s1", "s2", "all")}
    for name, extra in (("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"]), ("all", ["--lanes", "2"])):
        assert main(["conform", "air", "--impl", impl, *small, *extra, "--results", str(paths[name])]) == 1
    capsys.readouterr()
    assert main(["merge", str(paths["s2"]), str(paths["s1"]), "--json"]) == 1
    merged, single = json.loads(capsys.readouterr().out)["result"], _json(paths["all"])["result"]
    assert [f["unit"] for f in merged["findings"]] == ["lane:1/2", "lane:2/2"]
    assert all("AIR-R-09" in f["rules"] for f in merged["findings"])
    assert merged["findings"] == single["findings"]  # steps, fields, replay data: all of it
    for key in ("examples_run", "steps_compared", "setups_compared", "rules_exercised"):
        assert merged[key] == single[key], key


# -- ambiguities ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ambiguity_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("ambiguities")
    out = {}
    for name, extra in (("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"]), ("all", [])):
        out[name] = folder / f"{name}.json"
        assert main(["ambiguities", "air", *AMBIGUITIES, *extra, "--results", str(out[name])]) == 0
    return out


def test_two_ambiguities_shards_merged_equal_the_single_run(
    ambiguity_runs: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    s1, s2, single = (_json(ambiguity_runs[k]) for k in ("s1", "s2", "all"))
    assert sorted(s1["planned"] + s2["planned"]) == sorted(single["units"])
    assert not set(s1["planned"]) & set(s2["planned"])
    assert len([u for u in single["units"] if u.startswith("pair:")]) == 3  # AIR-AMB-09: 2, AIR-AMB-35: 1
    capsys.readouterr()
    report = tmp_path / "a.md"
    code = main(["merge", str(ambiguity_runs["s1"]), str(ambiguity_runs["s2"]), "--json", "--report", str(report)])
    merged = json.loads(capsys.readouterr().out)
    assert code == 0 == single["verdict"]["exit"]
    # Wall-clock times are not results; nor is which example a solver's "sat" model shows (Z3's model
    # depends on what the process solved before): its answer is compared.
    ignore = {"seconds", "first_seconds", "solver"}

    def pairs(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any], Any]]:
        return [
            (
                p["unit"],
                {k: v for k, v in p["pair"].items() if k not in ignore},
                (p["pair"]["solver"] or {}).get("status"),
            )
            for p in doc["result"]["pairs"]
        ]

    assert pairs(merged) == pairs(single)
    assert merged["result"]["examples"] == single["result"]["examples"]
    # AIR-AMB-35 'max' allows fewer throws: the witness the whole run finds, the merge finds
    outcomes = {p["unit"]: p["pair"]["outcome"] for p in merged["result"]["pairs"]}
    assert outcomes["pair:AIR-AMB-35=max"] == "witness"
    assert "## AIR-AMB-35 (p.4): witness found" in report.read_text("utf-8")


def test_a_partial_ambiguities_merge_gives_no_verdict_for_what_was_not_run(
    ambiguity_runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["merge", str(ambiguity_runs["s1"]), "--partial", "--json"]) == 5
    merged = json.loads(capsys.readouterr().out)
    lost = Shard(2, 2).select(_json(ambiguity_runs["all"])["units"])
    assert merged["missing_shards"] == ["2/2"]
    assert set(merged["not_run"]) == set(lost)
    assert main(["merge", str(ambiguity_runs["s1"]), "--partial"]) == 5
    text = capsys.readouterr().out
    assert "PARTIAL" in text and "not searched" in text


# -- errata ---------------------------------------------------------------------------------------------------


def test_two_errata_shards_merged_equal_the_single_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """AIR-AMB-02 'pool' (one shared chip pool): the printed examples it contradicts, the invariant games,
    the search for where play changes and the shift's games, in two shards and in one run."""
    variant = str(ROOT / "examples" / "errata" / "airships-one-chip-pool.yaml")
    small = ["--games", "4", "--campaign-games", "3", "--seconds", "60", "--max-steps", "300", "--quiet"]
    paths = {name: tmp_path / f"{name}.json" for name in ("s1", "s2", "all")}
    for name, extra in (("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"]), ("all", [])):
        assert main(["errata", "air", variant, *small, *extra, "--results", str(paths[name])]) == 0
    s1, s2, single = (_json(paths[k]) for k in ("s1", "s2", "all"))
    assert sorted(s1["planned"] + s2["planned"]) == sorted(single["units"])
    assert [u for u in s1["planned"] + s2["planned"] if u == "witness"] == ["witness"]
    capsys.readouterr()
    assert main(["merge", str(paths["s1"]), str(paths["s2"]), "--json"]) == 0
    merged = json.loads(capsys.readouterr().out)["result"]
    whole = single["result"]
    for key in ("examples_run", "contradicted", "unchecked", "problems"):
        assert merged[key] == whole[key], key
    assert merged["contradicted"], "the pooled chips contradict printed examples (e.g. AIR-EX-01's supplies)"
    for key in ("games_played", "games_finished", "steps", "violations"):
        assert merged["invariants"][key] == whole["invariants"][key], key
    assert merged["witness"]["outcome"] == whole["witness"]["outcome"] == "witness"
    assert merged["witness"]["finding"]["steps"] == whole["witness"]["finding"]["steps"]
    for side in ("printed", "changed"):
        a, b = merged[side], whole[side]
        # the same games: the per-game lists in another order (a shard's games come together)
        assert sorted(a.pop("lengths")) == sorted(b.pop("lengths"))
        assert sorted(a.pop("spreads")) == sorted(b.pop("spreads"))
        assert a == b, side


# -- merge refusals ------------------------------------------------------------------------------------------


def test_a_missing_shard_is_refused_and_a_partial_merge_never_passes(
    conform_runs: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["merge", str(conform_runs["s1"])]) == 4
    err = capsys.readouterr().err
    assert "2/2 missing" in err and "--partial" in err and len(err.strip().splitlines()) == 1
    # --partial: the verdict says what was not run; a shard's own findings still fail it
    report = tmp_path / "p.md"
    assert main(["merge", str(conform_runs["s1"]), "--partial", "--report", str(report)]) == 1
    assert "2/2 not merged" in report.read_text("utf-8")
    # a conformant part with a missing shard is "incomplete" (exit 5), never "conformant"
    doc = _json(conform_runs["s1"])
    doc["result"]["findings"] = []
    doc["result"]["scenarios_passed"] = doc["result"]["scenarios_run"]
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps(doc), "utf-8")
    assert main(["merge", str(clean), "--partial", "--report", str(report)]) == 5
    text = report.read_text("utf-8")
    assert "INCOMPLETE" in text and "conformant" not in text.splitlines()[0]


def _variant_of(path: Path, tmp_path: Path, name: str, edit: Any) -> Path:
    doc = _json(path)
    edit(doc)
    out = tmp_path / name
    out.write_text(json.dumps(doc), "utf-8")
    return out


def test_a_mix_of_campaigns_is_refused_naming_the_field(
    conform_runs: dict[str, Path], ambiguity_runs: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    s1, s2 = conform_runs["s1"], conform_runs["s2"]
    seed = _variant_of(s2, tmp_path, "seed.json", lambda d: d["campaign"].update(seed=7))
    cases = [
        ([s1, seed], "campaign.seed"),
        ([s1, ambiguity_runs["s2"]], "verb"),
        ([s1, s1], "shards overlap"),
        ([s1, _variant_of(s2, tmp_path, "n.json", lambda d: d["shard"].update(count=3))], "planned"),
        ([s1, _variant_of(s2, tmp_path, "v.json", lambda d: d.update(rulecraft="0.0.1"))], "rulecraft"),
        ([s1, _variant_of(s2, tmp_path, "g.json", lambda d: d.update(game="air"))], "game"),
    ]
    for files, field in cases:
        assert main(["merge", *map(str, files)]) == 4, field
        err = capsys.readouterr().err.strip()
        assert field in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("not json at all", "(top level)"),
        ("[1, 2]", "(top level)"),
        ('{"schema": "results/9"}', "schema"),
        ("[" * 100_000 + "]" * 100_000, "(top level)"),
        ('{"schema": "results/1", "verb": "conform", "value": NaN}', "(top level)"),
        ('{"schema": "results/1", "verb": "rm -rf"}', "verb"),
        ('{"schema": "results/1", "verb": "conform", "shard": {"index": 3, "count": 2}}', "shard"),
    ],
    ids=["text", "list", "schema", "deep", "nan", "verb", "shard"],
)
def test_a_malformed_results_file_is_one_line_naming_file_and_field(
    text: str, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, "utf-8")
    with pytest.raises(ResultsError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: {field}")
    assert main(["merge", str(path)]) == 4
    err = capsys.readouterr().err.strip()
    assert str(path) in err and len(err.splitlines()) == 1


def test_a_hostile_field_deep_in_a_shard_is_named(conform_runs: dict[str, Path], tmp_path: Path) -> None:
    def steps(d: dict[str, Any]) -> None:
        d["result"]["findings"][0]["steps"] = "__import__('os').system('false')"

    def count(d: dict[str, Any]) -> None:
        d["result"]["steps_compared"] = -3

    def planned(d: dict[str, Any]) -> None:
        d["planned"] = d["units"]  # more than shard 1/2's share

    def script(d: dict[str, Any]) -> None:  # a merged HTML report inlines a finding's drawing
        d["result"]["findings"][0]["svg"] = "<svg><script>fetch('//x')</script></svg>"

    def handler(d: dict[str, Any]) -> None:
        d["result"]["findings"][0]["svg"] = '<svg width="1" onload="alert(1)"><rect x="0"/></svg>'

    def shards(d: dict[str, Any]) -> None:
        d["shard"] = {"index": 1, "count": 10**12}  # a merge would list a trillion missing shards

    cases = [
        (steps, "result.findings[0].steps"),
        (count, "result.steps_compared"),
        (planned, "planned"),
        (script, "result.findings[0].svg"),
        (handler, "result.findings[0].svg"),
        (shards, "shard"),
    ]
    for edit, field in cases:
        bad = _variant_of(conform_runs["s1"], tmp_path, "bad.json", edit)
        with pytest.raises(ResultsError) as caught:
            merge([str(bad), str(conform_runs["s2"])])
        assert str(caught.value).startswith(f"{bad}: {field}: "), str(caught.value)


def test_results_and_shard_are_refused_with_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finding = tmp_path / "f.json"
    finding.write_text(
        json.dumps({"rulecraft_replay": 1, "game": "air", "start": {"setup": {"players": 2}}, "steps": []}), "utf-8"
    )
    code = main(["conform", "air", "--impl", "true", "--replay", str(finding), "--shard", "1/2"])
    assert code == 4
    assert "--shard: not with --replay" in capsys.readouterr().err
