"""Rule coverage: which rule IDs a step of a game exercised.

A rule counts as exercised by a step when, while the reference checked and
applied that step (its grounds and its effects), a function of the game's
model whose docstring cites the rule ID was called, or a statement citing
it ran (the ID in the statement's text, at the end of its lines, or in the
comment block just above it).  Every game already cites its rules where it
enforces them (``catalogue.reject("AIR-R-30", ...)``, ``# KAS-R-38: tolls
after income``), so the map needs no per-game wiring and stays true when the
code moves; a branch not taken does not count.

Tracing uses ``sys.settrace``; line events are asked for only in the model's
own files.  Compiled modules (the optional mypyc build, docs/speed.md) run no
trace events, so a tracer for a game with any is refused rather than reporting
fewer rules than ran.
"""

from __future__ import annotations

import ast
import re
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib import import_module
from pathlib import Path
from pkgutil import walk_packages
from types import CodeType, FrameType
from typing import Any

from rulecraft.compiled import compiled_under, source_file
from rulecraft.core import AnyGame, RulecraftError

# A rule ID, with the shorthands the models use: "AIR-R-30/31" or "STM-R-45/R-64" (two rules),
# "AER-R-13..18" (a range).
_RULE_TOKEN = re.compile(r"\b([A-Z]{2,4})-(R|SET)-(\d{2,3})((?:/(?:R-|SET-)?\d{2,3})*)(?:\.\.(\d{2,3}))?\b")


def _cited(text: str) -> set[str]:
    """The rule IDs a line cites, shorthands expanded."""
    out: set[str] = set()
    for game, kind, first, more, last in _RULE_TOKEN.findall(text):
        width = len(first)
        numbers = [int(first), *(int(n.rsplit("-", 1)[-1]) for n in more.split("/") if n)]
        if last:
            numbers += list(range(int(first), int(last) + 1))
        out.update(f"{game}-{kind}-{n:0{width}d}" for n in numbers)
    return out


def _function_rules(path: Path, known: frozenset[str]) -> dict[tuple[str, int], frozenset[str]]:
    """(file, first line of the code object) -> the known rule IDs its docstring cites: a function
    whose docstring names a rule implements it as a whole, so a call exercises it."""
    try:
        tree = ast.parse(path.read_text("utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    out: dict[tuple[str, int], frozenset[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        rules = frozenset(_cited(ast.get_docstring(node) or "") & known)
        if rules:
            # A decorated function's code object starts at its first decorator.
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out[(str(path), first)] = rules
    return out


Lines = dict[tuple[str, int], frozenset[str]]


def _statement_rules(path: Path, known: frozenset[str]) -> tuple[Lines, Lines]:
    """(file, line) -> the known rule IDs a statement on that line cites: in its own text (for a compound
    statement, its header), in comments at the end of its lines, or in the comment block just above it;
    and the *guards*: an ``if`` header's line -> the rules its branch cites (``if chips < cost: return
    reject("AIR-R-42", ...)``), the conditions a legal action passed."""
    try:
        source = path.read_text("utf-8")
        tree = ast.parse(source)
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}, {}
    text = source.splitlines()
    out: Lines = {}
    guards: Lines = {}

    def cite(first: int, last: int, rules: frozenset[str]) -> None:
        for i in range(first, last + 1):
            key = (str(path), i)
            out[key] = out.get(key, frozenset()) | rules

    def comments_above(line: int) -> set[str]:
        cited: set[str] = set()
        above = line - 1
        while 0 < above <= len(text) and text[above - 1].lstrip().startswith("#"):
            cited |= _cited(text[above - 1])
            above -= 1
        return cited

    def lines_of(first: int, last: int) -> set[str]:
        return {r for i in range(first, last + 1) if 0 < i <= len(text) for r in _cited(text[i - 1])}

    # Only statements inside functions run during a step; module and class bodies run at import.
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for function in functions:
        for node in ast.walk(function):
            if isinstance(node, ast.match_case) and node.body:
                # A case's rule counts when the case is taken, not whenever its pattern is tried.
                head = node.pattern.lineno
                rules = frozenset((lines_of(head, node.body[0].lineno - 1) | comments_above(head)) & known)
                if rules:
                    cite(node.body[0].lineno, node.body[0].lineno, rules)
                continue
            if not isinstance(node, ast.stmt) or node is function:
                continue
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue  # walked on its own
            if isinstance(node, ast.Expr) and isinstance(getattr(node.value, "value", None), str):
                continue  # a docstring: counted when its function is called
            body = getattr(node, "body", None)
            first = node.lineno
            if isinstance(node, ast.Match):
                last = first  # the subject line; each case is cited on its own
            elif isinstance(body, list) and body:
                last = max(first, body[0].lineno - 1)
            else:
                last = node.end_lineno or first
            rules = frozenset((lines_of(first, last) | comments_above(first)) & known)
            if isinstance(node, ast.If) and node.body:
                branch = node.body[0]
                guarded = rules | (lines_of(branch.lineno, branch.end_lineno or branch.lineno) & known)
                for i in range(first, last + 1) if guarded else ():
                    guards[(str(path), i)] = guards.get((str(path), i), frozenset()) | guarded
            if not rules:
                continue
            if isinstance(node, ast.If) and node.body:
                # A condition's rule counts when its branch is taken, not whenever the test runs.
                cite(node.body[0].lineno, node.body[0].lineno, rules)
            else:
                cite(first, last, rules)
    return out, guards


def _model_paths(game_cls: type[AnyGame]) -> list[Path]:
    """The Python sources of the game's model package (of a compiled module, the source beside it)."""
    package_name = game_cls.__module__.rsplit(".", 1)[0]
    package = import_module(package_name)
    paths = [Path(str(package.__file__))]
    for info in walk_packages(package.__path__, package_name + "."):
        module = import_module(info.name)
        if getattr(module, "__file__", None):
            paths.append(source_file(module))
    return paths


@cache
def _line_maps(game_cls: type[AnyGame]) -> tuple[Lines, Lines]:
    known = frozenset(rule.id for rule in game_cls.catalogue)
    out: Lines = {}
    guards: Lines = {}
    for path in _model_paths(game_cls):
        lines, guarding = _statement_rules(path, known)
        out.update(lines)
        guards.update(guarding)
    return out, guards


def line_map(game_cls: type[AnyGame]) -> Lines:
    """Every statement of the game's model package that cites one of the game's rule IDs."""
    return _line_maps(game_cls)[0]


def guard_map(game_cls: type[AnyGame]) -> Lines:
    """Every ``if`` header whose branch cites a rule: the rule's condition."""
    return _line_maps(game_cls)[1]


@cache
def rule_map(game_cls: type[AnyGame]) -> dict[tuple[str, int], frozenset[str]]:
    """Every function of the game's model package that cites one of the game's rule IDs."""
    known = frozenset(rule.id for rule in game_cls.catalogue)
    out: dict[tuple[str, int], frozenset[str]] = {}
    for path in _model_paths(game_cls):
        out.update(_function_rules(path, known))
    return out


def citable(game: AnyGame) -> frozenset[str]:
    """The rule IDs some function of the model cites: what a step can be seen to exercise."""
    return frozenset().union(*rule_map(type(game)).values(), *line_map(type(game)).values())


class RuleTracer:
    """Collects the rule IDs exercised inside :meth:`tracing`: a model function whose docstring cites
    a rule was called, or a model statement citing it (in its text or in the comment just above it)
    ran.  So a branch counts only when it was taken."""

    def __init__(self, game: AnyGame) -> None:
        compiled = compiled_under(type(game).__module__.rsplit(".", 1)[0] + ".")
        if compiled:
            raise RulecraftError(
                f"rule coverage traces the model's Python lines, and {', '.join(compiled)} run compiled"
                " (RULECRAFT_COMPILE): naming the rules a step exercised needs the pure-Python build"
                " (pip install . without RULECRAFT_COMPILE)"
            )
        self.calls = rule_map(type(game))
        self.lines = line_map(type(game))
        self.guards = guard_map(type(game))
        # The rules whose conditions were tested (passed or not) in the last traced block: the grounds
        # of a legal action, which a branch not taken would not show.
        self.considered: set[str] = set()
        self.files = frozenset(f for f, _ in self.lines) | frozenset(f for f, _ in self.calls)
        self._by_code: dict[CodeType, tuple[bool, frozenset[str]]] = {}
        self.hit: set[str] = set()

    def _call(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event != "call":
            return None
        code = frame.f_code
        known = self._by_code.get(code)
        if known is None:
            inside = code.co_filename in self.files
            known = (inside, self.calls.get((code.co_filename, code.co_firstlineno), frozenset()))
            self._by_code[code] = known
        inside, rules = known
        if rules:
            self.hit.update(rules)
        return self._line if inside else None  # line events only in the model's own files

    def _line(self, frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            key = (frame.f_code.co_filename, frame.f_lineno)
            rules = self.lines.get(key)
            if rules:
                self.hit.update(rules)
            guarded = self.guards.get(key)
            if guarded:
                self.considered.update(guarded)
        return self._line

    @contextmanager
    def tracing(self) -> Iterator[set[str]]:
        """Trace the block; yields the set that receives this block's rule IDs.  Under a debugger or
        a coverage tool (which own the hook) nothing is counted rather than breaking them."""
        previous = sys.gettrace()
        if previous is not None or threading.current_thread() is not threading.main_thread():
            yield set()
            return
        self.hit = set()
        self.considered = set()
        sys.settrace(self._call)
        try:
            yield self.hit
        finally:
            sys.settrace(previous)


def coverage_line(game_id: str, hit: Iterable[str], total: Iterable[str]) -> str:
    """'air: 49/51 rule IDs (96%)'."""
    seen, every = set(hit), set(total)
    n, d = len(seen & every), len(every)
    return f"{game_id}: {n}/{d} rule IDs ({100 * n / d:.0f}%)" if d else f"{game_id}: no rule IDs"
