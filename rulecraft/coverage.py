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
own files.
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

from rulecraft.core import Game

_RULE = re.compile(r"\b([A-Z]{2,4}-(?:R|SET)-\d{2,3})\b")


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
        rules = frozenset(set(_RULE.findall(ast.get_docstring(node) or "")) & known)
        if rules:
            # A decorated function's code object starts at its first decorator.
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out[(str(path), first)] = rules
    return out


def _statement_rules(path: Path, known: frozenset[str]) -> dict[tuple[str, int], frozenset[str]]:
    """(file, line) -> the known rule IDs a statement on that line cites: in its own text (for a compound
    statement, its header), in comments at the end of its lines, or in the comment block just above it."""
    try:
        source = path.read_text("utf-8")
        tree = ast.parse(source)
    except (OSError, SyntaxError, UnicodeDecodeError):
        return {}
    text = source.splitlines()
    out: dict[tuple[str, int], frozenset[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt) or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # a docstring: counted when its function is called
        body = getattr(node, "body", None)
        first = node.lineno
        last = (body[0].lineno - 1) if isinstance(body, list) and body else (node.end_lineno or first)
        last = max(first, last)
        cited: set[str] = set()
        for i in range(first, last + 1):
            if 0 < i <= len(text):
                cited.update(_RULE.findall(text[i - 1]))
        above = first - 1
        while 0 < above <= len(text) and text[above - 1].lstrip().startswith("#"):
            cited.update(_RULE.findall(text[above - 1]))
            above -= 1
        rules = frozenset(cited & known)
        if rules and isinstance(node, ast.If) and node.body:
            # A condition's rule counts when its branch is taken, not whenever the test runs.
            first = last = node.body[0].lineno
        if rules:
            for i in range(first, last + 1):
                key = (str(path), i)
                out[key] = out.get(key, frozenset()) | rules
    return out


def _model_paths(game_cls: type[Game[Any, Any]]) -> list[Path]:
    package_name = game_cls.__module__.rsplit(".", 1)[0]
    package = import_module(package_name)
    paths = [Path(str(package.__file__))]
    for info in walk_packages(package.__path__, package_name + "."):
        module = import_module(info.name)
        if getattr(module, "__file__", None):
            paths.append(Path(str(module.__file__)))
    return paths


@cache
def line_map(game_cls: type[Game[Any, Any]]) -> dict[tuple[str, int], frozenset[str]]:
    """Every statement of the game's model package that cites one of the game's rule IDs."""
    known = frozenset(rule.id for rule in game_cls.catalogue)
    out: dict[tuple[str, int], frozenset[str]] = {}
    for path in _model_paths(game_cls):
        out.update(_statement_rules(path, known))
    return out


@cache
def rule_map(game_cls: type[Game[Any, Any]]) -> dict[tuple[str, int], frozenset[str]]:
    """Every function of the game's model package that cites one of the game's rule IDs."""
    known = frozenset(rule.id for rule in game_cls.catalogue)
    out: dict[tuple[str, int], frozenset[str]] = {}
    for path in _model_paths(game_cls):
        out.update(_function_rules(path, known))
    return out


def citable(game: Game[Any, Any]) -> frozenset[str]:
    """The rule IDs some function of the model cites: what a step can be seen to exercise."""
    return frozenset().union(*rule_map(type(game)).values(), *line_map(type(game)).values())


class RuleTracer:
    """Collects the rule IDs exercised inside :meth:`tracing`: a model function whose docstring cites
    a rule was called, or a model statement citing it (in its text or in the comment just above it)
    ran.  So a branch counts only when it was taken."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.calls = rule_map(type(game))
        self.lines = line_map(type(game))
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
            rules = self.lines.get((frame.f_code.co_filename, frame.f_lineno))
            if rules:
                self.hit.update(rules)
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
