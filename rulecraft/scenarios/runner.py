"""Running a scenario: build the given state, play the steps, check the
expectations.  Expected values come from the scenario file (the rulebook),
never from the model; the runner only compares.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from rulecraft.core import A, AnyGame, Chance, Game, GameOver, NotApplicable, RulecraftError, S
from rulecraft.registry import make_game
from rulecraft.scenarios.loader import Scenario, ScenarioFileError, load_scenario
from rulecraft.tools import tools


class ScenarioError(RulecraftError):
    """A scenario that cannot be run as written (unknown card, bad step...)."""


@attrs.frozen
class ScenarioResult:
    id: str
    path: str
    title: str
    page: str
    passed: bool
    failures: tuple[str, ...] = ()
    error: str | None = None  # the file or its set-up is at fault
    checks: int = 0
    unchecked: tuple[str, ...] = ()  # expectations set aside: the configuration cannot answer them

    @property
    def status(self) -> str:
        return "error" if self.error else ("pass" if self.passed else "fail")


def run_scenario(
    scenario: Scenario,
    *,
    readings: Mapping[str, str] | None = None,
    force: Mapping[str, str] | None = None,
    configure: Callable[[Mapping[str, str], Path | None], AnyGame] | None = None,
) -> ScenarioResult:
    """Run one scenario; ``readings`` (a run's overrides) yield to the file's own.

    ``force``: readings that override even the file's own (to ask whether the
    printed outcome still holds under another reading).  ``configure``: how to
    make the game from the readings and the pack (an erratum's variant game).
    """
    try:
        chosen = dict(readings or {}) | dict(scenario.readings) | dict(force or {})
        components = None
        if scenario.components:
            components = Path(scenario.path).parent / scenario.components
        if configure is not None:
            game = configure(chosen, components)
        else:
            game = make_game(scenario.game, readings=chosen, components=components)
        state = tools(game).scenario_state(scenario.given)
    except RulecraftError as exc:
        return _error(scenario, f"given: {exc}")
    except Exception as exc:
        return _error(scenario, f"given: internal error {type(exc).__name__}: {exc}")
    failures: list[str] = []
    unchecked: list[str] = []  # expectations this configuration cannot answer (NotApplicable)
    checks = 0
    for i, step in enumerate(scenario.steps):
        where = f"steps[{i}]"
        try:
            state, step_failures = _step(game, state, step, where)
        except RulecraftError as exc:
            return _error(scenario, f"{where}: {exc}", failures, checks)
        except Exception as exc:
            return _error(scenario, f"{where}: internal error {type(exc).__name__}: {exc}", failures, checks)
        failures += step_failures
        checks += 1
        if step_failures and "reject" not in step:
            break  # the game went somewhere else; later steps would only add noise
        for j, item in enumerate(step.get("expect", ())):
            checks += 1
            failures += _guarded(game, state, item, f"{where}.expect[{j}]", unchecked)
    for j, item in enumerate(scenario.expect):
        checks += 1
        failures += _guarded(game, state, item, f"expect[{j}]", unchecked)
    return ScenarioResult(
        scenario.id,
        scenario.path,
        scenario.title,
        scenario.page,
        not failures,
        tuple(failures),
        None,
        checks,
        tuple(unchecked),
    )


def _guarded(game: Game[S, A], state: S, item: Mapping[str, Any], where: str, unchecked: list[str]) -> list[str]:
    """One expectation; a question the configuration cannot answer is set aside, a model bug is a failure."""
    try:
        return _expect(game, state, item, where)
    except NotApplicable as exc:
        unchecked.append(f"{where}: {exc}")
        return []
    except RulecraftError as exc:
        return [f"{where}: {exc}"]
    except Exception as exc:  # a model bug must not hide the other checks
        return [f"{where}: internal error {type(exc).__name__}: {exc}"]


def _error(scenario: Scenario, message: str, failures: Sequence[str] = (), checks: int = 0) -> ScenarioResult:
    return ScenarioResult(
        scenario.id, scenario.path, scenario.title, scenario.page, False, tuple(failures), message, checks
    )


def _mover(game: Game[S, A], state: S) -> str:
    mover = game.to_move(state)
    if isinstance(mover, GameOver):
        return "over"
    if isinstance(mover, Chance):
        return "chance"
    return f"seat {mover}"


def _step(game: Game[S, A], state: S, step: Mapping[str, Any], where: str) -> tuple[Any, list[str]]:
    if "reject" in step:
        action = game.action_from_json(step["reject"])
        rejection = game.check(state, action)
        if rejection is None:
            rule = step.get("rule", "any rule")
            return state, [
                f"{where}: {game.describe(state, action)} was expected to be illegal ({rule}), but it is legal"
            ]
        if step.get("rule") and rejection.rule != step["rule"]:
            return state, [f"{where}: rejected by {rejection.rule} ({rejection.reason}), expected {step['rule']}"]
        return state, []
    key = "do" if "do" in step else "chance"
    action = game.action_from_json(step[key])
    mover = game.to_move(state)
    if key == "chance" and not isinstance(mover, Chance):
        return state, [f"{where}: a chance step, but the decision is {_mover(game, state)}'s"]
    if key == "do":
        if isinstance(mover, Chance | GameOver):
            return state, [f"{where}: a seat's step, but the decision is {_mover(game, state)}'s"]
        if "seat" in step and step["seat"] != mover:
            return state, [f"{where}: seat {step['seat']} acts, but the decision is seat {mover}'s"]
    rejection = game.check(state, action)
    if rejection is not None:
        return state, [f"{where}: {game.describe(state, action)} was refused: {rejection}"]
    return game.transition(state, action), []


def lookup(view: Any, path: str) -> Any:
    """Follow a dotted path through dicts and lists ("boards.0.chips")."""
    node = view
    for part in path.split("."):
        if isinstance(node, Mapping):
            if part in node:
                node = node[part]
            elif part.lstrip("-").isdigit() and int(part) in node:
                node = node[int(part)]
            else:
                raise ScenarioError(f"path {path!r}: no field {part!r} (have {', '.join(sorted(map(str, node)))})")
        elif isinstance(node, list | tuple):
            try:
                node = node[int(part)]
            except (ValueError, IndexError):
                raise ScenarioError(f"path {path!r}: {part!r} is not an index of a list of {len(node)}") from None
        else:
            raise ScenarioError(f"path {path!r}: {part!r} reaches into a plain value {node!r}")
    return node


def same(actual: Any, expected: Any) -> bool:
    """Equality with JSON's looseness: lists = tuples, '16/27' = Fraction(16, 27)."""
    if isinstance(expected, str) and "/" in expected and isinstance(actual, str | Fraction):
        try:
            return Fraction(str(actual)) == Fraction(expected)
        except (ValueError, ZeroDivisionError):
            return str(actual) == expected
    if isinstance(expected, Mapping) and isinstance(actual, Mapping):
        keys = set(map(str, expected)) | set(map(str, actual))
        norm_a = {str(k): v for k, v in actual.items()}
        norm_e = {str(k): v for k, v in expected.items()}
        return all(same(norm_a.get(k), norm_e.get(k)) for k in keys)
    if isinstance(expected, list | tuple) and isinstance(actual, list | tuple):
        return len(actual) == len(expected) and all(same(a, e) for a, e in zip(actual, expected, strict=True))
    if isinstance(expected, bool) or isinstance(actual, bool):
        return actual is expected or (actual == expected and type(actual) is type(expected))
    return bool(actual == expected)


def _expect(game: Game[S, A], state: S, item: Mapping[str, Any], where: str) -> list[str]:
    checks: dict[str, Callable[[], list[str]]] = {
        "path": lambda: _expect_path(game, state, item, where),
        "legal": lambda: _expect_legal(game, state, item, where),
        "illegal": lambda: _expect_illegal(game, state, item, where),
        "to_move": lambda: _expect_mover(game, state, item, where),
        "winners": lambda: _expect_winners(game, state, item, where),
        "query": lambda: _expect_query(game, state, item, where),
        "invariants": lambda: _expect_invariants(game, state, where),
    }
    for key, run in checks.items():
        if key in item:
            return run()
    raise ScenarioError(f"{where}: unknown expectation {', '.join(sorted(map(str, item)))}")


def view_of(game: Game[S, A], state: S) -> dict[str, Any]:
    view = dict(game.state_to_json(state))
    view.update(tools(game).facts(state))
    return view


def _expect_path(game: Game[S, A], state: S, item: Mapping[str, Any], where: str) -> list[str]:
    path = item["path"]
    try:
        actual = lookup(view_of(game, state), path)
    except ScenarioError as exc:
        return [f"{where}: {exc}"]
    out = []
    if "equals" in item and not same(actual, item["equals"]):
        out.append(f"{where}: {path} is {actual!r}, the rulebook says {item['equals']!r}")
    if "contains" in item and not any(same(a, item["contains"]) for a in _items(actual)):
        out.append(f"{where}: {path} = {actual!r} does not contain {item['contains']!r}")
    if "lacks" in item and any(same(a, item["lacks"]) for a in _items(actual)):
        out.append(f"{where}: {path} = {actual!r} contains {item['lacks']!r}")
    if "at_least" in item and not actual >= item["at_least"]:
        out.append(f"{where}: {path} is {actual!r}, expected at least {item['at_least']}")
    if "at_most" in item and not actual <= item["at_most"]:
        out.append(f"{where}: {path} is {actual!r}, expected at most {item['at_most']}")
    if not {"equals", "contains", "lacks", "at_least", "at_most"} & set(item):
        raise ScenarioError(f"{where}: a path expectation needs equals, contains, lacks, at_least or at_most")
    return out


def _items(value: Any) -> Iterable[Any]:
    if isinstance(value, Mapping):
        return list(value.keys())
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    return [value]


def _expect_legal(game: Game[S, A], state: S, item: Mapping[str, Any], where: str) -> list[str]:
    action = game.action_from_json(item["legal"])
    rejection = game.check(state, action)
    if rejection is not None:
        return [f"{where}: {game.describe(state, action)} should be legal, but: {rejection}"]
    # Generation may list one canonical form per move (one flight path per end hex, say), so a
    # legal action need not be listed; the reverse (listed but refused) is always an error.
    return []


def _expect_illegal(game: Game[S, A], state: S, item: Mapping[str, Any], where: str) -> list[str]:
    action = game.action_from_json(item["illegal"])
    rejection = game.check(state, action)
    if rejection is None:
        rule = item.get("rule", "any rule")
        return [f"{where}: {game.describe(state, action)} should be illegal ({rule}), but it is legal"]
    if item.get("rule") and rejection.rule != item["rule"]:
        return [f"{where}: rejected by {rejection} — expected {item['rule']}"]
    if not isinstance(game.to_move(state), Chance) and action in game.legal_actions(state):
        return [f"{where}: the check refuses {action!r} but legal_actions lists it"]
    return []


def _expect_mover(game: Game[S, A], state: S, item: Mapping[str, Any], where: str) -> list[str]:
    want = item["to_move"]
    have = _mover(game, state)
    want_text = want if isinstance(want, str) else f"seat {want}"
    return [] if have == want_text else [f"{where}: the decision is {have}'s, expected {want_text}'s"]


def _expect_winners(game: Game[S, A], state: S, item: Mapping[str, Any], where: str) -> list[str]:
    have = list(game.winners(state))
    return [] if have == list(item["winners"]) else [f"{where}: winners {have}, expected {item['winners']}"]


def _expect_query(game: Game[S, A], state: S, item: Mapping[str, Any], where: str) -> list[str]:
    queries = tools(game).queries()
    name = item["query"]
    if name not in queries:
        raise ScenarioError(f"{where}: {game.id} has no query {name!r} (have {', '.join(sorted(queries))})")
    answer = queries[name].run(game, dict(item.get("args", {})), state)
    out = []
    for key, expected in item.get("answer", {}).items():
        if key not in answer:
            out.append(f"{where}: query {name} gave no {key!r} (gave {', '.join(sorted(map(str, answer)))})")
        elif not same(answer[key], expected):
            out.append(f"{where}: query {name}: {key} is {answer[key]!r}, the rulebook example gives {expected!r}")
    return out


def _expect_invariants(game: Game[S, A], state: S, where: str) -> list[str]:
    return [f"{where}: invariant {v}" for v in tools(game).violations(state)]


def run_scenarios(
    paths: Iterable[Path],
    *,
    readings: Mapping[str, str] | None = None,
    progress: Callable[[ScenarioResult], None] | None = None,
) -> list[ScenarioResult]:
    """Run many files; a malformed one is an error result, the rest still run."""
    results = []
    for path in paths:
        try:
            scenario = load_scenario(path)
        except ScenarioFileError as exc:
            result = ScenarioResult(path.stem[:9], str(path), "(malformed file)", "?", False, (), str(exc))
        else:
            result = run_scenario(scenario, readings=readings)
        results.append(result)
        if progress is not None:
            progress(result)
    return results
