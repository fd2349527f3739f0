"""Aeroplanes printed examples: every AER-EX has a scenario, each holds, and the pending ones stay honest.

The files in ``scenarios/aeroplanes/`` also run as pytest items through the rulecraft plugin
(``testpaths`` includes ``scenarios``); here each runs once more so that this module alone checks
them.  Examples that need rules the model does not have yet live in ``scenarios/aeroplanes/pending/``,
which neither the loader's glob nor the plugin collects.  Each pending file starts with a line
``# PENDING: <rule IDs>: <what is missing>``; it must still load, and it runs as a strict xfail: once
the model catches up and it passes, the xfail fails and says to move the file up.  Today every
AER-EX-01..22 runs, so the folder does not exist.

Expected values in the files come from the rulebook (seed 002, cited by line "l.NN"), never from the
model; the map they need is the bundled reconstructed pack (digest 4.1).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rulecraft.model.aeroplanes.catalogue import RULES
from rulecraft.model.aeroplanes.readings import REGISTER
from rulecraft.model.aeroplanes.risk import read_faces
from rulecraft.registry import make_game
from rulecraft.scenarios import load_scenario, run_scenario, scenario_files
from rulecraft.scenarios.plugin import pytest_collect_file
from rulecraft.scenarios.runner import ScenarioError
from rulecraft.serialization import SerializationError
from rulecraft.tools import tools

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "scenarios" / "aeroplanes"
PENDING = FOLDER / "pending"
PENDING_LINE = re.compile(r"^# PENDING: (AER-R-\d{2}(?:, AER-R-\d{2})*): \S.*$")
LINE_CITATION = re.compile(r"^l\.\d+")
NONE_PENDING = pytest.param(None, marks=pytest.mark.skip(reason="no pending example: every AER-EX runs"))


def _files() -> list[Path]:
    return list(scenario_files("aer"))


def pending_files() -> list[Path]:
    return sorted(PENDING.glob("AER-EX-*.yaml")) if PENDING.is_dir() else []


def _example(sid: str) -> str:
    """AER-EX-16a -> AER-EX-16: a lettered id is a variant of its printed example."""
    return sid.rstrip("abcdefghijklmnopqrstuvwxyz")


def test_every_printed_example_has_a_scenario() -> None:
    """AER-EX-01..22 (digest 4.2): each is at least one scenario file, run or pending."""
    wanted = {f"AER-EX-{n:02d}" for n in range(1, 23)}
    have = {_example(load_scenario(p).id) for p in [*_files(), *pending_files()]}
    assert sorted(wanted - have) == []
    assert sorted(have - wanted) == []


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_the_printed_example_holds(path: Path) -> None:
    result = run_scenario(load_scenario(path))
    assert result.passed, "\n".join([result.error or "", *result.failures])
    assert result.checks > 0
    assert not result.unchecked, result.unchecked


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.stem)
def test_a_scenario_cites_the_rulebook(path: Path) -> None:
    """Known rule and ambiguity IDs; a line citation and a quote of the seed; what is reconstructed."""
    scenario = load_scenario(path)
    rules = {r.id for r in RULES.rules}
    ambiguities = {a.id for a in REGISTER}
    assert scenario.game == "aer"
    assert set(scenario.rules) <= rules, sorted(set(scenario.rules) - rules)
    named = set(scenario.depends_on) | set(scenario.readings)
    assert named <= ambiguities, sorted(named - ambiguities)
    assert LINE_CITATION.match(scenario.page), f"{path.name}: cite the seed by line, l.NN (got {scenario.page!r})"
    text = path.read_text("utf-8")
    assert "quote:" in text, f"{path.name}: quote the rulebook line"
    assert scenario.reconstruction.strip(), f"{path.name}: say what is reconstructed (or 'None')"
    assert scenario.components is None  # the bundled reconstructed pack holds the digest 4.1 fragment


def test_the_skull_counts_zero() -> None:
    """AER-EX-11 (l.89): "бросок 3-ки, 5-ки и «Черепа», является суммой 8 и 1-ним Отказом Двигателя";
    the scenario throws these faces, which the game reads as (8, 1)."""
    assert read_faces(["3", "5", "skull"]) == (8, 1)
    game = make_game("aer")
    assert game.action_to_json(game.action_from_json({"kind": "risk-throw", "faces": [3, 5, "skull"]})) == {
        "kind": "risk-throw",
        "total": 8,
        "skulls": 1,
    }


@pytest.mark.parametrize(
    ("faces", "words"),
    [
        ([3, 5], "a list of 3 faces"),
        ([3, 5, 1], "faces[2]: 1 is not a face of the risk die"),  # the risk die has no 1 (a skull instead)
        ([3, 5, True], "faces[2]: True is not a face"),
        ("358", "a list of 3 faces"),
    ],
)
def test_a_throw_given_by_faces_names_the_face_that_is_wrong(faces: Any, words: str) -> None:
    with pytest.raises(SerializationError, match=re.escape(words)):
        make_game("aer").action_from_json({"kind": "risk-throw", "faces": faces})


def test_the_risk_examples_throw_the_printed_faces() -> None:
    """AER-EX-16/17 (l.119-120): (2, 5, 4) = 11 and (3, 4, skull) = 7 and one engine failure."""
    assert read_faces(["2", "5", "4"]) == (11, 0)
    assert read_faces(["3", "4", "skull"]) == (7, 1)


def test_pending_files_are_not_collected() -> None:
    collected = _files()
    assert collected and all(p.parent == FOLDER for p in collected)
    for path in pending_files():
        assert pytest_collect_file(parent=None, file_path=path) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("path", pending_files() or [NONE_PENDING], ids=lambda p: p.stem if p else "none")
def test_a_pending_file_loads_and_names_its_gap(path: Path) -> None:
    first = path.read_text("utf-8").splitlines()[0]
    match = PENDING_LINE.match(first)
    assert match, f"{path.name}: first line must be '# PENDING: <rule IDs>: <why>'"
    scenario = load_scenario(path)
    assert scenario.game == "aer"
    for rule in match.group(1).split(", "):
        assert rule in scenario.rules, f"{path.name}: the pending rule {rule} is not among the scenario's rules"


def _pending_params() -> list[object]:
    out: list[object] = []
    for path in pending_files():
        match = PENDING_LINE.match(path.read_text("utf-8").splitlines()[0])
        reason = match.group(0)[len("# PENDING: ") :] if match else "pending"
        out.append(pytest.param(path, id=path.stem, marks=pytest.mark.xfail(strict=True, reason=reason)))
    return out or [NONE_PENDING]


@pytest.mark.parametrize("path", _pending_params())
def test_a_pending_example_does_not_hold_yet(path: Path) -> None:
    """XPASS (a failure under ``xfail_strict``) means: the model caught up, move the file up."""
    result = run_scenario(load_scenario(path))
    assert result.passed, "\n".join([result.error or "", *result.failures])


# -- the given vocabulary: a bad field is named ----------------------------------------------------


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"players": 2}, "given.players"),
        ({"colour": "red"}, "given"),
        ({"phase": "flight"}, "given.phase"),
        ({"seats": {7: {}}}, "given.seats.7"),
        ({"seats": {0: {"home": "Madrid"}}}, "given.seats.0.home"),
        ({"seats": {0: {"cards": [99]}}}, "given.seats.0.cards[0].number"),
        ({"seats": {0: {"cards": [{"number": 1, "wings": 2}]}}}, "given.seats.0.cards[0]"),
        ({"seats": {0: {"advantages": {"jetpack": 1}}}}, "given.seats.0.advantages.jetpack"),
        ({"map": {"Atlantis": ["0:1"]}}, "given.map.Atlantis"),
        ({"map": {"Warsaw": ["0:4"]}}, "given.map.Warsaw[0]"),
        ({"map": {"Warsaw": ["0:1", "1:1", "2:1"]}}, "given.map.Warsaw"),
        ({"map": {"Warsaw": ["0:1", "0:2"]}}, "given.map.Warsaw"),
        ({"waiting": {"Madrid": ["P01"]}}, "given.waiting.Madrid"),
        ({"waiting": {"Berlin": ["P01"]}, "overflow": ["P01"]}, "given.overflow[0]"),
        ({"seats": {0: {"cards": [{"number": 1, "passengers": ["P999"]}]}}}, "given.seats.0.cards[0].passengers[0]"),
    ],
)
def test_a_bad_given_names_its_field(given: dict[str, Any], field: str) -> None:
    game = make_game("aer")
    with pytest.raises(ScenarioError, match=re.escape(field)):
        tools(game).scenario_state(given)


def test_the_default_given_keeps_the_invariants() -> None:
    """Defaults fill the rest: homes, supplies, display and deck, bag, advantage stacks."""
    game = make_game("aer")
    for players in (3, 4, 5):
        state = tools(game).scenario_state({"players": players, "seats": {0: {"cards": [6, 17]}}})
        assert list(tools(game).violations(state)) == []
        assert len({p.home for p in state.players}) == players
        assert 6 not in state.display and 17 not in state.deck
