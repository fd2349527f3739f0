"""Steamopolis printed examples: every STM-EX has a scenario, and the pending ones stay honest.

The files in ``scenarios/steamopolis/`` run as pytest items through the rulecraft plugin
(``testpaths`` includes ``scenarios``).  Examples that need rules the model does not have yet
live in ``scenarios/steamopolis/pending/``, which neither the loader's glob nor the plugin
collects.  Each pending file starts with a line ``# PENDING: <rule IDs>: <what is missing>``.
Here they must still load (schema, file name, id) and build their given state where the model
allows it, and each runs as a strict xfail: once the model learns the missing rules and a pending
example passes, the xfail fails and says to move the file up into ``scenarios/steamopolis/``.

Since the solo game (STM-R-68..73) every printed example runs, so the folder is gone; the pending
tests stay for examples that may need to wait again (a missing folder holds no pending file).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulecraft.model.steamopolis.catalogue import RULES
from rulecraft.model.steamopolis.readings import REGISTER
from rulecraft.scenarios import load_scenario, run_scenario, scenario_files
from rulecraft.scenarios.plugin import pytest_collect_file

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "scenarios" / "steamopolis"
PENDING = FOLDER / "pending"
PENDING_LINE = re.compile(r"^# PENDING: (STM-R-\d{2}(?:, STM-R-\d{2})*): \S.*$")
# The example turns of the solo rules (STM-EX-38..43) are one chained scenario, filed as STM-EX-38.
CHAIN = {"STM-EX-38": tuple(f"STM-EX-{n:02d}" for n in range(38, 44))}


def _ids(paths: list[Path]) -> set[str]:
    out: set[str] = set()
    for path in paths:
        sid = load_scenario(path).id
        out.update(CHAIN.get(sid, (sid,)))
    return out


def pending_files() -> list[Path]:
    return sorted(PENDING.glob("STM-EX-*.yaml")) if PENDING.is_dir() else []


NONE_PENDING = pytest.param(None, marks=pytest.mark.skip(reason="no pending example: every STM-EX runs"))


def test_every_printed_example_has_a_scenario() -> None:
    """STM-EX-01..43 (digest section 4): each is a scenario file, run or pending."""
    wanted = {f"STM-EX-{n:02d}" for n in range(1, 44)}
    have = _ids(list(scenario_files("stm"))) | _ids(pending_files())
    assert sorted(wanted - have) == []
    assert sorted(have - wanted) == []


def test_the_example_turns_run_as_multiplayer_and_as_solo() -> None:
    """STM-EX-38..43 (p.36-38) twice: the multiplayer game ignores the highlighted solo passages,
    the solo file plays them (STM-R-68..72)."""
    chained = [load_scenario(p) for p in scenario_files("stm") if load_scenario(p).id == "STM-EX-38"]
    assert sorted(s.given["players"] for s in chained) == [1, 2]


def test_scenarios_cite_known_rules_and_ambiguities() -> None:
    """Every rule ID and ambiguity ID a scenario names is in the catalogue and the register."""
    rules = {r.id for r in RULES}
    ambiguities = {a.id for a in REGISTER}
    for path in [*scenario_files("stm"), *pending_files()]:
        scenario = load_scenario(path)
        assert set(scenario.rules) <= rules, f"{path.name}: {sorted(set(scenario.rules) - rules)}"
        named = set(scenario.depends_on) | set(scenario.readings)
        assert named <= ambiguities, f"{path.name}: {sorted(named - ambiguities)}"


def test_pending_files_are_not_collected() -> None:
    """Neither ``rulecraft scenarios stm`` nor the pytest plugin picks up pending/."""
    collected = list(scenario_files("stm"))
    assert collected and all(p.parent == FOLDER for p in collected)
    for path in pending_files():
        assert pytest_collect_file(parent=None, file_path=path) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("path", pending_files() or [NONE_PENDING], ids=lambda p: p.stem if p else "none")
def test_a_pending_file_loads_and_names_its_gap(path: Path) -> None:
    first = path.read_text("utf-8").splitlines()[0]
    assert PENDING_LINE.match(first), f"{path.name}: first line must be '# PENDING: <rule IDs>: <why>'"
    scenario = load_scenario(path)
    assert scenario.game == "stm"
    for rule in PENDING_LINE.match(first).group(1).split(", "):  # type: ignore[union-attr]
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


def test_notes_name_scenario_files_where_they_are() -> None:
    """A note that names another example's file names one that runs: since the solo game every
    printed example runs (nothing is pending), so a note pointing into pending/ sends the reader to
    a file that is not there (STM-EX-38's multiplayer file did, for the solo example turns p.36-38)."""
    for path in scenario_files("stm"):
        text = path.read_text(encoding="utf-8")
        for named in re.findall(r"[\w/]*STM-EX-\d{2}[\w-]*\.yaml", text):
            where = ROOT / named if named.startswith("scenarios/") else FOLDER / named
            assert where.is_file(), f"{path.name} names {named}, which is not a scenario file"
