"""Which lines of a module belong to a rulebook ambiguity's readings (issue 22: a mutation score
under every registered reading, not only the default).

The code marks reading-dependent code with the ambiguity's ID, in the code or in a comment on the
statement (``if ctx.r("AIR-AMB-18") == "sequential":``, ``if airship_dice:  # AIR-AMB-25 'yes'``).
A statement so marked belongs to that ambiguity; a marked ``if``/``while``/``for``/``with`` brings
its whole body and ``else`` (both readings' branches); a function whose every statement is marked
(``def strict(ctx): return ctx.r("AIR-AMB-32") == "capped"``) marks every statement that calls it.
Docstrings do not count: they are prose, and mutation testing leaves them alone.

A mutant on a marked line changes what one of the readings does, so the share of them the tests
kill is the score of the readings' own code; the module's score counts them too, among the rest.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator

AMBIGUITY = re.compile(r"\b(?:KAS|AIR|STM|AER)-AMB-\d+\b")
_COMPOUND = (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _comment_ids(source: str) -> dict[int, set[str]]:
    """Ambiguity IDs named in comments, by line."""
    found: dict[int, set[str]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            for amb in AMBIGUITY.findall(tok.string):
                found.setdefault(tok.start[0], set()).add(amb)
    return found


def _header(node: ast.stmt) -> list[ast.AST]:
    """The parts of a statement that are its own (a compound statement's test, not its body)."""
    if isinstance(node, ast.If | ast.While):
        return [node.test]
    if isinstance(node, ast.For | ast.AsyncFor):
        return [node.target, node.iter]
    if isinstance(node, ast.With | ast.AsyncWith):
        return list(node.items)
    if isinstance(node, ast.Try):
        return []
    return [node]


def _header_lines(node: ast.stmt) -> range:
    if isinstance(node, _COMPOUND) and node.body:
        return range(node.lineno, max(node.lineno, node.body[0].lineno - 1) + 1)
    return range(node.lineno, (node.end_lineno or node.lineno) + 1)


def _is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _statements(tree: ast.AST) -> Iterator[ast.stmt]:
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(node, _DEFS) and not _is_docstring(node):
            yield node


def _called_names(parts: list[ast.AST]) -> set[str]:
    names: set[str] = set()
    for part in parts:
        for sub in ast.walk(part):
            if isinstance(sub, ast.Call):
                func = sub.func
                if isinstance(func, ast.Name):
                    names.add(func.id)
                elif isinstance(func, ast.Attribute):
                    names.add(func.attr)
    return names


def _string_ids(parts: list[ast.AST]) -> set[str]:
    ids: set[str] = set()
    for part in parts:
        for sub in ast.walk(part):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                ids.update(AMBIGUITY.findall(sub.value))
    return ids


def reading_lines(source: str) -> dict[str, set[int]]:
    """Ambiguity ID -> the lines of its readings' code in ``source`` (see the module docstring)."""
    tree = ast.parse(source)
    comments = _comment_ids(source)
    own: dict[int, set[str]] = {}  # id(statement) -> the ambiguities it names itself
    statements = list(_statements(tree))
    for node in statements:
        ids = _string_ids(_header(node))
        for line in _header_lines(node):
            ids |= comments.get(line, set())
        if ids:
            own[id(node)] = ids
    predicates: dict[str, set[str]] = {}
    for _ in range(3):  # a predicate may call a predicate; three levels are plenty
        for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)):
            body = [s for s in fn.body if not _is_docstring(s)]
            if body and all(id(s) in own for s in body):
                predicates[fn.name] = set().union(*(own[id(s)] for s in body))
        for node in statements:
            called = _called_names(_header(node)) & predicates.keys()
            if called:
                own.setdefault(id(node), set()).update(*(predicates[c] for c in called))
    marked: dict[str, set[int]] = {}
    for node in statements:
        named = own.get(id(node))
        if not named:
            continue
        span = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        for amb in named:
            marked.setdefault(amb, set()).update(span)
    return marked


def functions_with_lines(source: str, lines: set[int]) -> set[str]:
    """mutmut's names (``x_name``, ``xǁClassǁmethod``) of the functions holding any of ``lines``."""
    tree = ast.parse(source)
    names: set[str] = set()
    defs = (ast.FunctionDef, ast.AsyncFunctionDef)
    for node in tree.body:
        members = [(f"x_{node.name}", node)] if isinstance(node, defs) else []
        if isinstance(node, ast.ClassDef):
            members = [(f"xǁ{node.name}ǁ{m.name}", m) for m in node.body if isinstance(m, defs)]
        for name, fn in members:
            if any(fn.lineno <= line <= (fn.end_lineno or fn.lineno) for line in lines):
                names.add(name)
    return names
