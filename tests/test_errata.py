"""rulecraft errata: variant files checked field by field, and what a rule change
contradicts, breaks and shifts; misbehaving plugins are reported, never fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulecraft.cli import main
from rulecraft.core import Rejection
from rulecraft.errata import Amendment, ErrataBudget, VariantFileError, errata_report, load_variant, play_stats
from rulecraft.errata_report import html_report, markdown, plot
from rulecraft.registry import make_game
from rulecraft.statefile import admit
from rulecraft.tools import tools
from rulecraft.witness import Budget

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "examples" / "errata").glob("*.yaml"))
FIXTURES = Path(__file__).parent / "fixtures" / "errata"
SMALL = ErrataBudget(games=6, campaign_games=4, max_steps=1500, witness=Budget(seconds=6, max_steps=200))


def test_two_worked_variants_per_game_are_shipped_and_load() -> None:
    games = [load_variant(p).game for p in SHIPPED]
    assert all(games.count(g) >= 2 for g in ("air", "kas", "stm", "aer"))
    kinds = {(load_variant(p).game, bool(load_variant(p).parameters), bool(load_variant(p).readings)) for p in SHIPPED}
    for game in ("air", "kas", "stm", "aer"):
        assert (game, True, False) in kinds, f"{game}: a variant changing a cost or limit"
        assert (game, False, True) in kinds, f"{game}: a variant settling an ambiguity against the default"


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        ("variant: x\ngame: air\ntitle: [unclosed\n", "(file)", "not valid YAML"),
        ("- a list\n", "(top level)", "a mapping"),
        ("variant: x\ngame: air\n", "(top level)", "'title' is a required property"),
        ("variant: x\ngame: air\ntitle: t\ncolour: red\n", "(top level)", "'colour' was unexpected"),
        ("variant: Bad Name\ngame: air\ntitle: t\n", "variant", "does not match"),
        ("variant: x\ngame: chess\ntitle: t\n", "game", "'chess' is not a registered game"),
        ("variant: x\ngame: air\ntitle: t\nreadings: {AIR-AMB-99: a}\n", "readings.AIR-AMB-99", "not a registered"),
        (
            "variant: x\ngame: air\ntitle: t\nreadings: {AIR-AMB-02: many}\n",
            "readings.AIR-AMB-02",
            "'many' is not a reading",
        ),
        ("variant: x\ngame: air\ntitle: t\nparameters: {go_cost: 2}\n", "parameters.go_cost", "not a parameter of air"),
        (
            "variant: x\ngame: air\ntitle: t\nparameters: {extra_go_cost: 7}\n",
            "parameters.extra_go_cost",
            "out of range 0..6",
        ),
        (
            "variant: x\ngame: air\ntitle: t\nparameters: {extra_go_cost: two}\n",
            "parameters.extra_go_cost",
            "not of type 'integer'",
        ),
        ("variant: x\ngame: air\ntitle: t\ncomponents: nowhere.yaml\n", "components", "no such file"),
        ("variant: x\ngame: air\ntitle: t\nplugins: [no-such-plugin]\n", "plugins[0]", "no plugin 'no-such-plugin'"),
        ("variant: x\ngame: air\ntitle: t\nvariant: y\n", "(file)", "given twice"),
    ],
)
def test_a_bad_variant_file_names_the_file_and_the_field(tmp_path: Path, text: str, field: str, words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, "utf-8")
    with pytest.raises(VariantFileError) as info:
        load_variant(path)
    assert info.value.field == field, str(info.value)
    assert words in str(info.value) and str(path) in str(info.value)


def test_a_cost_change_contradicts_the_examples_that_pay_the_printed_cost() -> None:
    """extra_go_cost 2: AIR-EX-17 (p.6) pays the company's 3 chips for the additional go
    (AIR-R-42, p.4) and ends with none; at 2 chips one is left, so its outcome no longer holds."""
    variant = load_variant(ROOT / "examples" / "errata" / "airships-additional-go-2-chips.yaml")
    report = errata_report(variant, SMALL)
    assert report.examples_run == 22
    contradicted = {c.example for c in report.contradicted}
    assert "AIR-EX-17" in contradicted
    assert all("chips" in c.detail or "decision" in c.detail for c in report.contradicted), report.contradicted
    assert {c.example for c in report.unchecked} == {"AIR-EX-06"}, "its chance query encodes the printed numbers"
    assert report.broken_invariants == [], "chips stay conserved per nation (AIR-R-50)"
    assert report.witness is not None and report.witness.outcome == "witness"
    fields = {f for f, _, _ in report.witness.finding.fields} if report.witness.finding else set()
    assert "boards" in fields, "after paying for an additional go the chips differ"
    assert report.printed is not None and report.changed is not None
    # Both rulesets' random games reached the choice. How often it is open is not a rule fact: at 2
    # chips random players pay more often and so hold fewer chips, so the rate may go either way.
    assert report.changed.legal_kinds.get("extra-go", 0) > 0 and report.printed.legal_kinds.get("extra-go", 0) > 0
    text = markdown(report)
    assert "## Printed examples contradicted:" in text and "| 'extra-go' legal |" in text
    page = html_report(report)
    steps = page.count("<figure class='step'>")  # the board after each step, folded
    assert page.count("<svg") - steps == 2, "the plot and the board where play changes"
    assert "<table>" in page and "| 'extra-go' legal |" not in page  # rendered Markdown (issue 20)


def test_settling_an_ambiguity_shows_play_changing_at_set_up() -> None:
    variant = load_variant(ROOT / "examples" / "errata" / "airships-one-chip-pool.yaml")
    report = errata_report(variant, SMALL)
    assert report.witness is not None and report.witness.finding is not None
    assert report.witness.finding.steps == () and "supplies" in report.witness.finding.title
    assert report.contradicted, "printed examples count chips per nation"


def test_a_rule_logic_plugin_changes_play() -> None:
    variant = load_variant(ROOT / "examples" / "errata" / "airships-no-additional-go.yaml")
    game = variant.configure()
    stats = play_stats(game, games=4, seed=1, players=3, max_steps=1500)
    printed = play_stats(make_game("air"), games=4, seed=1, players=3, max_steps=1500)
    assert stats.legal_rate("extra-go") == 0 and printed.legal_rate("extra-go") > 0
    assert game.check(game.new_game(2), game.action_from_json({"kind": "extra-go"})) is not None


def test_a_plugin_that_raises_is_reported_and_the_run_ends_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))
    report = errata_report(load_variant(FIXTURES / "explode.yaml", allow_plugin_code=True), SMALL)
    assert report.problems and "plugin 'errata_plugins:explode' raised" in report.problems[0]
    assert "this plugin is broken" in report.problems[0]


def test_a_plugin_that_crashes_in_play_is_a_finding_and_the_rest_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(FIXTURES))
    report = errata_report(load_variant(FIXTURES / "crash-later.yaml", allow_plugin_code=True), SMALL)
    assert report.invariants is not None
    crashes = [f for f in report.invariants.findings if f.kind == "crash"]
    assert crashes and "additional go" in crashes[0].message
    assert report.changed is not None and "additional go" in report.changed.crashed
    assert any("crashed in random play" in p for p in report.problems)
    assert report.examples_run == 22, "the printed examples still ran"


def test_kings_of_air_and_steam_depot_prices_contradict_the_depot_examples() -> None:
    """$3/$6 depots: KAS-EX-10 and KAS-EX-24 (p.12, p.19) print $4/$7 prices."""
    variant = load_variant(ROOT / "examples" / "errata" / "kas-cheaper-depots.yaml")
    report = errata_report(variant, ErrataBudget(games=2, campaign_games=1, max_steps=400, witness=Budget(seconds=3)))
    assert {"KAS-EX-10", "KAS-EX-24"} <= {c.example for c in report.contradicted}
    assert report.broken_invariants == []


def test_cli_errata_json_plot_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "errata" / "airships-one-chip-pool.yaml"
    svg = tmp_path / "shift.svg"
    args = ["errata", "air", str(path), "--games", "4", "--campaign-games", "2", "--seconds", "3", "--quiet"]
    assert main([*args, "--json", "--plot", str(svg)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "one-chip-pool" and data["changes"]["readings"] == {"AIR-AMB-02": "pool"}
    assert data["shift"]["printed"]["games"] == 4 and data["play_changes"]["outcome"] == "witness"
    assert svg.read_text("utf-8").startswith("<svg")
    assert main(["errata", "air", "--parameters"]) == 0
    assert "extra_go_cost" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    bad.write_text("variant: x\ngame: air\ntitle: t\nparameters: {extra_go_cost: 9}\n", "utf-8")
    code = main(["errata", "air", str(bad), "--quiet"])
    assert code not in (0, 1)
    assert "parameters.extra_go_cost" in capsys.readouterr().err
    assert main(["errata", "kas", str(path), "--quiet"]) not in (0, 1), "a file for another game"


def test_the_plot_is_a_picture_of_both_rulesets() -> None:
    variant = load_variant(ROOT / "examples" / "errata" / "airships-additional-go-2-chips.yaml")
    report = errata_report(variant, ErrataBudget(games=3, campaign_games=0, witness=Budget(seconds=1)))
    picture = plot(report)
    assert picture.count("printed rules") == 1 and "variant" in picture
    assert picture.count("<rect") >= 2 * 3 + 2  # a pair of bars per measure, the legend


# -- an amended game keeps what its base game says beside the rules -------------------------------------------


@pytest.mark.parametrize("game_id", ["aer", "air", "kas", "stm"])
def test_an_amendment_keeps_the_base_games_parts_checks_and_policies(game_id: str) -> None:
    """Scores by the rulebook's parts, the outcome, state checks and policies are the base game's:
    Game's defaults (total alone, nothing checked) would hide a broken state file or a scoring part."""
    import random

    import attrs

    from rulecraft.core import StateError
    from rulecraft.errata import Amendment

    base = make_game(game_id)
    amended = Amendment(base)  # type: ignore[abstract]  # mypy cannot see the forwards Amendment sets up
    policy = "uniform" if game_id in ("air", "aer") else sorted(set(tools(base).policies()) - {"uniform"})[0]
    assert tools(amended).policies() == tools(base).policies()
    state = base.new_game(base.min_players)
    rng_a, rng_b = random.Random(3), random.Random(3)
    for _ in range(20_000):  # the policy's own steps, the same seed on both: the same game
        if base.is_over(state):
            break
        action = amended.random_action(state, rng_a, policy=policy)
        assert action == base.random_action(state, rng_b, policy=policy)
        state = base.apply(state, action)
    assert base.is_over(state), "the policy ends the game"
    assert amended.score_parts(state) == base.score_parts(state) and amended.outcome(state) == base.outcome(state)
    assert len(next(iter(base.score_parts(state).values()))) > 1, "the base game names its scoring parts"
    # a state breaking a component count is refused through the amendment too
    broken = {
        "stm": lambda s: attrs.evolve(s, players=(attrs.evolve(s.players[0], crystals=3000), *s.players[1:])),
        "kas": lambda s: attrs.evolve(s, players=(attrs.evolve(s.players[0], hold=(0, 0, 0, 0, 400)), *s.players[1:])),
        "air": lambda s: attrs.evolve(s, boards=(attrs.evolve(s.boards[0], chips=3000), *s.boards[1:])),
        "aer": lambda s: attrs.evolve(s, bag=s.bag * 40),
    }[game_id](state)
    with pytest.raises(StateError):
        admit(amended, broken)


FORBIDDEN = Rejection("TEST-R-1", "the first legal action is forbidden here")


class NoFirstAction(Amendment):
    """An amendment forbidding the first of several legal actions (its moves and its check both change)."""

    def legal_actions(self, state: object) -> list[object]:
        return [a for a in self.base.legal_actions(state) if self.check(state, a) is None]

    def check(self, state: object, action: object) -> Rejection | None:
        own = self.base.legal_actions(state) if isinstance(self.base.to_move(state), int) else []
        if len(own) > 1 and action == own[0]:
            return FORBIDDEN
        return self.base.check(state, action)


def test_an_amended_check_is_its_own_rejection_and_its_policy_plays_by_it() -> None:
    """A plugin that forbids an action: the rejection is the plugin's alone, and the base game's
    playout policy never hands the amended game an action it refuses."""
    import random

    base = make_game("kas")
    amended = NoFirstAction(base)  # type: ignore[abstract]  # mypy cannot see the forwards Amendment sets up
    policy = sorted(set(tools(base).policies()) - {"uniform"})[0]
    state, rng, refused = base.new_game(3), random.Random(5), 0
    for _ in range(200):
        if base.is_over(state):
            break
        action = amended.random_action(state, rng, policy=policy)
        assert amended.check(state, action) is None, action
        options = base.legal_actions(state) if isinstance(base.to_move(state), int) else []
        if len(options) > 1:
            assert amended.rejections(state, options[0]) == (FORBIDDEN,)
            refused += 1
        state = base.apply(state, action)
    assert refused > 20, "the forbidden first action was there to refuse"


def test_an_amended_games_uniform_draw_never_picks_what_the_amendment_forbids() -> None:
    """Issue 18: Kings of Air and Steam draws a uniform action from unchecked candidates with its own
    check as their test (``Game.candidates``).  An amendment that changes the moves or the check draws
    from its own ``legal_actions`` instead, so the base game's candidates never slip a forbidden action
    through; one that changes neither keeps the base game's candidates."""
    import random

    class SameRules(Amendment):
        def transition(self, state: object, action: object) -> object:
            return self.base.transition(state, action)

    base = make_game("kas")
    # mypy cannot see the forwards Amendment sets up (setattr, then abc.update_abstractmethods)
    amended, same = NoFirstAction(base), SameRules(base)  # type: ignore[abstract]
    state, rng, refused = base.new_game(3), random.Random(5), 0
    for _ in range(300):
        if base.is_over(state):
            break
        action = amended.random_action(state, rng)  # the uniform policy
        assert amended.check(state, action) is None, action
        if isinstance(base.to_move(state), int):
            listed, test = same.candidates(state)
            base_listed, base_test = base.candidates(state)
            assert list(listed) == list(base_listed) and (test is None) == (base_test is None)
            if len(base.legal_actions(state)) > 1:
                refused += 1
        state = base.apply(state, action)
    assert refused > 20, "the forbidden first action was there to refuse"


def test_an_amendment_forwards_every_game_method_it_does_not_change() -> None:
    """Issue 17: no hand-written forwarding list to drift.  Every method of the Game interface is
    built from the others (apply, outcome...), defined by Amendment (rejections, score_parts...) or
    forwarded to the base game by name; the forwards answer as the base game does."""
    from rulecraft.core import Game
    from rulecraft.errata import _COMPOSED, FORWARDED, Amendment

    methods = {n for n, v in vars(Game).items() if callable(v) and not n.startswith("__")}
    own = {n for n in vars(Amendment) if not n.startswith("__")} - set(FORWARDED)
    assert methods <= _COMPOSED | own | set(FORWARDED)
    assert not Amendment.__abstractmethods__
    base = make_game("air")
    amended = Amendment(base)  # type: ignore[abstract]  # mypy cannot see the forwards Amendment sets up
    state = base.new_game(3)
    for name in ("to_move", "legal_actions", "chance_outcomes", "scores", "termination", "state_to_json"):
        assert getattr(amended, name)(state) == getattr(base, name)(state), name
    assert tools(amended).violations(state) == tools(base).violations(state) == []
    assert tools(amended).policies() == tools(base).policies() and tools(amended).queries() == {}
