"""Issue 17: one way to pick an action's rule or effect by its type, in every game.

A function that chooses a branch by the action's type is a ``match action:`` statement with class
patterns (as python-chess and the Kings of Air and Steam transitions do); where the game's action
union is exhaustive it ends in ``assert_never`` so that mypy proves every action type has a branch.
Two styles drifted in beside it: a dict keyed by action type (Steamopolis transitions) and chains of
``if isinstance(action, ...)`` (Aeroplanes).  This test reads the rules and transitions of every
registered game and refuses both, so the drift cannot come back unnoticed.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulecraft.registry import game_ids, record

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("rules.py", "transitions.py")
# Effects: three branches on the action's type in one block is a dispatch, and a dispatch is a match.
# Legality: a layered check tests a few types between its phase and step checks (a load or a swap,
# then what each needs); a run of five or more branches on the type is a dispatch of its own.
CHAIN = {"transitions.py": 3, "rules.py": 5}


def names() -> list[str]:
    """The bundled games (entry points); a test's own toy game is not this project's model."""
    return [g for g in game_ids() if record(g).game().__module__.startswith("rulecraft.model.")]


def _package(game: str) -> Path:
    module = record(game).game().__module__  # rulecraft.model.<package>.game
    return ROOT / "model" / module.split(".")[2]


def _sources() -> list[tuple[str, Path]]:
    return [(game, _package(game) / name) for game in names() for name in MODULES]


def _isinstance_on_action(test: ast.expr) -> bool:
    """``isinstance(action, ...)``, possibly under ``not`` or as the first operand of ``and``/``or``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _isinstance_on_action(test.operand)
    if isinstance(test, ast.BoolOp):
        return _isinstance_on_action(test.values[0])
    return (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and bool(test.args)
        and isinstance(test.args[0], ast.Name)
        and test.args[0].id == "action"
    )


def isinstance_chains(tree: ast.AST, chain: int = 3) -> list[tuple[str, int, int]]:
    """(function, line, length) of every run of >= ``chain`` consecutive ``if isinstance(action, ...)``
    statements (an ``elif`` counts as the next one) in one block."""
    found: list[tuple[str, int, int]] = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for block in _blocks(fn):
            run: list[ast.If] = []
            for stmt in [*block, None]:
                if isinstance(stmt, ast.If) and _isinstance_on_action(stmt.test):
                    run.append(stmt)
                    continue
                length = sum(_elif_length(s) for s in run)
                if length >= chain:
                    found.append((fn.name, run[0].lineno, length))
                run = []
    return found


def _elif_length(stmt: ast.If) -> int:
    length = 1
    while len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If) and _isinstance_on_action(stmt.orelse[0].test):
        stmt = stmt.orelse[0]
        length += 1
    return length


def _blocks(fn: ast.FunctionDef) -> list[list[ast.stmt]]:
    blocks: list[list[ast.stmt]] = [fn.body]
    for node in ast.walk(fn):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if node is not fn and isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                blocks.append(block)
    return blocks


def type_keyed_dicts(tree: ast.AST) -> list[int]:
    """Lines of dict displays whose keys are all class names and whose values are functions: the
    ``{BuyMachine: buy_machine, ...}`` dispatch table (a literal with at least three entries)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict) and len(node.keys) >= 3:
            keys = [k for k in node.keys if isinstance(k, ast.Name) and k.id[:1].isupper()]
            values = [v for v in node.values if isinstance(v, ast.Name | ast.Attribute | ast.Lambda)]
            if len(keys) == len(node.keys) and len(values) == len(node.values):
                found.append(node.lineno)
    return found


@pytest.mark.parametrize(("game", "path"), _sources(), ids=lambda v: str(v).rsplit("model/", 1)[-1])
def test_no_isinstance_chain_picks_an_actions_branch(game: str, path: Path) -> None:
    chains = isinstance_chains(ast.parse(path.read_text(encoding="utf-8")), CHAIN[path.name])
    assert chains == [], f"{game}: dispatch by isinstance chain in {path.name} (function, line, length): {chains}"


@pytest.mark.parametrize(("game", "path"), _sources(), ids=lambda v: str(v).rsplit("model/", 1)[-1])
def test_no_dict_keyed_by_action_type(game: str, path: Path) -> None:
    assert type_keyed_dicts(ast.parse(path.read_text(encoding="utf-8"))) == [], f"{game}: {path.name}"


@pytest.mark.parametrize("game", names())
def test_every_game_dispatches_its_effects_with_match(game: str) -> None:
    tree = ast.parse((_package(game) / "transitions.py").read_text(encoding="utf-8"))
    matches = [n for n in ast.walk(tree) if isinstance(n, ast.Match) and isinstance(n.subject, ast.Name)]
    assert any(m.subject.id == "action" for m in matches if isinstance(m.subject, ast.Name)), game


# The checks themselves must be able to fail: the two styles this test exists to refuse.
CHAINED = """
def apply(ctx, state, action):
    if isinstance(action, BuyPlane):
        return buy(state)
    if isinstance(action, ClaimPassenger):
        return claim(state)
    if isinstance(action, TakeSubsidy):
        return subsidy(state)
    raise TypeError(action)
"""
ELIF = """
def apply(ctx, state, action):
    if isinstance(action, BuyPlane):
        return buy(state)
    elif isinstance(action, ClaimPassenger):
        return claim(state)
    elif not isinstance(action, TakeSubsidy):
        return subsidy(state)
"""
TABLE = "_EFFECTS = {BuyMachine: buy_machine, BuyBanner: buy_banner, Store: lambda c, s, a: s}\n"
LAYERED = """
def check(ctx, state, action):
    if state.phase is Phase.OVER:
        return reject("R-1", "over")
    if isinstance(action, Store):
        return store(state)
    if isinstance(action, Pass | EndTurn):
        return None
    return other(state)
"""


def test_the_checks_refuse_both_drifted_styles_and_pass_a_layered_check() -> None:
    assert isinstance_chains(ast.parse(CHAINED)) == [("apply", 3, 3)]
    assert isinstance_chains(ast.parse(ELIF)) == [("apply", 3, 3)]
    assert type_keyed_dicts(ast.parse(TABLE)) == [1]
    assert isinstance_chains(ast.parse(LAYERED)) == []
    assert isinstance_chains(ast.parse(CHAINED), CHAIN["rules.py"]) == []  # three branches: a layered check
    assert type_keyed_dicts(ast.parse("RULES = {'a': 1, 'b': 2, 'c': 3}\n")) == []
