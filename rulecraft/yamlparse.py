"""rulecraft's YAML parser: PyYAML's safe loader within :mod:`rulecraft.yamlio`'s limits.

Apart from yamlio so that a command that reads no YAML file (``rulecraft rules``, ``--help``) does
not import PyYAML; :func:`rulecraft.yamlio.load` and ``load_file`` call :func:`load` here.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.resolver import Resolver

from rulecraft.yamlio import INT_LIMIT, MAX_DEPTH, MAX_NODES, DataFileError, excerpt, one_line

_MERGE_TAG = "tag:yaml.org,2002:merge"


class DuplicateKeyError(ConstructorError):
    """A mapping key given twice (PyYAML would keep the last one silently)."""


class LimitError(ComposerError):
    """A file over one of the limits: too deep, too many nodes, a number too big."""


if TYPE_CHECKING:
    _LoaderParts = yaml.SafeLoader  # what the mixin below is mixed into, as mypy should see it
else:
    _LoaderParts = object


class _Limits(_LoaderParts):
    """The limits of this module over PyYAML's composer and safe constructor (a mixin: the loaders
    below put it first, so ``super()`` is PyYAML's own)."""

    def _start_counting(self) -> None:
        self._depth = 0
        self._nodes = 0
        self._open: set[str] = set()  # anchors of the collections being composed
        self._expansion = _Expansion()

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        # Composing recurses per level: the depth is checked here, before Python's own limit is hit.
        self._depth += 1
        self._nodes += 1
        try:
            event = self.peek_event()  # type: ignore[no-untyped-call]
            if self._depth > MAX_DEPTH:
                raise LimitError(None, None, f"nested deeper than {MAX_DEPTH} levels", event.start_mark)
            if self._nodes > MAX_NODES:
                raise LimitError(None, None, f"more than {MAX_NODES} values", event.start_mark)
            if isinstance(event, yaml.AliasEvent):
                self._count_alias(event)
            anchor = event.anchor if isinstance(event, yaml.CollectionStartEvent) else None
            if anchor:
                self._open.add(anchor)
            try:
                node: yaml.Node | None = super().compose_node(parent, index)
            finally:
                self._open.discard(anchor or "")
            return node
        finally:
            self._depth -= 1

    def _count_alias(self, event: Any) -> None:  # a yaml.AliasEvent (its stub types the mark apart)
        """An alias counts as the whole value it stands for, refused at the alias's own line."""
        if event.anchor in self._open:
            raise LimitError(None, None, "an alias inside the value it names (a loop)", event.start_mark)
        node = self.anchors.get(event.anchor)
        if node is None:
            return  # PyYAML reports the undefined alias
        size, height = self._expansion.measure(node, 1)
        self._nodes += size - 1
        if self._nodes > MAX_NODES:
            raise LimitError(None, None, f"more than {MAX_NODES} values once aliases are expanded", event.start_mark)
        if self._depth + height - 1 > MAX_DEPTH:
            raise LimitError(
                None, None, f"nested deeper than {MAX_DEPTH} levels once aliases are expanded", event.start_mark
            )

    def get_single_node(self) -> yaml.Node | None:
        node: yaml.Node | None = super().get_single_node()
        if node is not None:  # a safety net: the counts above should already have refused
            _Expansion().measure(node, 1)
        return node

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:  # '<<: *base' merges another mapping; its keys may be overridden
                continue
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, bool) or not isinstance(key, str | int):
                raise ConstructorError(
                    None,
                    None,
                    f"a key must be text or a whole number, not {_kind(key)}: quote it",
                    key_node.start_mark,
                )
            if key in seen:
                raise DuplicateKeyError(None, None, f"the key {excerpt(key)} is given twice", key_node.start_mark)
            seen.add(key)
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        text = str(node.value)
        if len(text) > 80:  # before int(): a 5,000-digit number is a ValueError (or seconds of work)
            raise LimitError(None, None, f"a number of {len(text)} characters", node.start_mark)
        try:
            value: int = super().construct_yaml_int(node)
        except (ValueError, IndexError):  # an explicit `!!int` on text that is no number (PyYAML's own crash)
            raise ConstructorError(None, None, f"{excerpt(text)} is not a whole number", node.start_mark) from None
        if abs(value) > INT_LIMIT:
            raise LimitError(None, None, f"the number {excerpt(value)} is beyond 64 bits", node.start_mark)
        return value

    def construct_yaml_float(self, node: yaml.ScalarNode) -> float:
        try:
            value: float = super().construct_yaml_float(node)
        except (ValueError, IndexError):  # an explicit `!!float` on text that is no number
            raise ConstructorError(None, None, f"{excerpt(node.value)} is not a number", node.start_mark) from None
        if not math.isfinite(value):
            raise LimitError(None, None, f"{excerpt(node.value)} is not a finite number", node.start_mark)
        return value

    def construct_yaml_bool(self, node: yaml.ScalarNode) -> bool:
        try:
            value: bool = super().construct_yaml_bool(node)
        except KeyError:  # an explicit `!!bool` on text that is neither true nor false
            raise ConstructorError(None, None, f"{excerpt(node.value)} is not true or false", node.start_mark) from None
        return value

    def construct_yaml_timestamp(self, node: yaml.ScalarNode) -> str:  # type: ignore[override]
        # A date stays text: every value must survive a trip through JSON (the protocol, state files).
        return str(node.value)

    def refuse_tag(self, node: yaml.Node) -> Any:
        raise ConstructorError(None, None, f"the tag {excerpt(node.tag)} makes no JSON value", node.start_mark)


class _SafeLoader(_Limits, yaml.SafeLoader):
    """PyYAML's pure-Python safe loader with the limits of this module: the reference, and the loader
    of every text the fast one below refuses (so that each refusal reads the same)."""

    def __init__(self, stream: str) -> None:
        yaml.SafeLoader.__init__(self, stream)
        self._start_counting()


_CParser: Any = getattr(getattr(yaml, "_yaml", None), "CParser", None) if yaml.__with_libyaml__ else None
_FastLoader: type[_Limits] | None = None  # None: PyYAML without LibYAML, the pure-Python loader alone

if _CParser is not None:

    class _LibYAMLLoader(_Limits, yaml.composer.Composer, _CParser, yaml.constructor.SafeConstructor, Resolver):  # type: ignore[misc]
        """LibYAML's scanner and parser (C) under PyYAML's own composer and safe constructor with
        the limits of this module: the same values and the same depth, node, alias and number checks,
        about seven times faster than the pure-Python loader (LibYAML's own composer, CSafeLoader's,
        would skip the limits).  Any text it refuses is read again by :class:`_SafeLoader`."""

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._start_counting()

    _FastLoader = _LibYAMLLoader

for _loader in (_SafeLoader, _FastLoader or _SafeLoader):
    _loader.add_constructor("tag:yaml.org,2002:int", _Limits.construct_yaml_int)
    _loader.add_constructor("tag:yaml.org,2002:float", _Limits.construct_yaml_float)
    _loader.add_constructor("tag:yaml.org,2002:bool", _Limits.construct_yaml_bool)
    _loader.add_constructor("tag:yaml.org,2002:timestamp", _Limits.construct_yaml_timestamp)
    for _tag in ("binary", "set", "omap", "pairs"):
        _loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _Limits.refuse_tag)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (an unquoted yes, no, on or off is read so)"
    if value is None:
        return "null"
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "a mapping"
    return excerpt(value)


class _Expansion:
    """Size and depth of a composed document with every alias expanded, without expanding it.

    Each node is measured once (aliases point at the same node object), so the cost is the size of
    the file, not of the tree it stands for."""

    def __init__(self) -> None:
        self.done: dict[int, tuple[int, int]] = {}  # id(node) -> (values, height)
        self.open: set[int] = set()

    def measure(self, node: yaml.Node, depth: int) -> tuple[int, int]:
        key = id(node)
        if key in self.open:
            raise LimitError(None, None, "an alias inside the value it names (a loop)", node.start_mark)
        if key not in self.done:
            self.open.add(key)
            self.done[key] = self._children(node, depth)
            self.open.discard(key)
        size, height = self.done[key]
        if depth + height - 1 > MAX_DEPTH:
            raise LimitError(None, None, f"nested deeper than {MAX_DEPTH} levels (aliases expanded)", node.start_mark)
        return size, height

    def _children(self, node: yaml.Node, depth: int) -> tuple[int, int]:
        if isinstance(node, yaml.MappingNode):
            children: list[yaml.Node] = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        else:
            return 1, 1
        size, height = 1, 1
        for child in children:
            s, h = self.measure(child, depth + 1)
            size, height = size + s, max(height, h + 1)
            if size > MAX_NODES:
                raise LimitError(None, None, f"more than {MAX_NODES} values once aliases are expanded", node.start_mark)
        return size, height


def load(
    text: str, source: str = "<text>", *, error: type[DataFileError] = DataFileError, bundled: bool = False
) -> Any:
    """Parse YAML text within the limits; a bad text is ``error(source, '(file)', reason with its line)``.

    ``bundled``: the text is a file shipped with rulecraft (a printed example), which LibYAML's parser
    reads where PyYAML has it, under the same composer, limits and constructor (about seven times
    faster; tests/test_startup_imports.py checks that every shipped file reads the same both ways).
    Anything else is read by PyYAML's pure-Python parser: LibYAML takes some texts PyYAML refuses (a
    tab in a plain value, a comment right after a block scalar's ``|``, a byte-order mark inside the
    text) and reads a few differently (a bare ``!`` tag), so a user's file reads as it always has.  A
    text the fast loader refuses is read again by the pure-Python one, whose error is the one reported."""
    if bundled and _FastLoader is not None:
        fast = _FastLoader(text)
        try:
            return fast.get_single_data()
        except Exception:  # the reference loader below refuses it and says why, as it always has
            pass
        finally:
            fast.dispose()
    return _load_pure(text, source, error=error)


def _load_pure(text: str, source: str = "<text>", *, error: type[DataFileError] = DataFileError) -> Any:
    """:func:`load` by PyYAML's pure-Python loader alone (where PyYAML has no LibYAML, and for every
    text the fast loader refuses)."""
    try:
        loader = _SafeLoader(text)  # its reader refuses control characters already here
    except yaml.YAMLError as exc:
        raise error(source, "(file)", f"not valid YAML: {_yaml_reason(exc, text)}") from None
    try:
        return loader.get_single_data()
    except LimitError as exc:
        raise error(source, "(file)", f"refused: {_yaml_reason(exc, text)}") from None
    except yaml.YAMLError as exc:
        raise error(source, "(file)", f"not valid YAML: {_yaml_reason(exc, text)}") from None
    except RecursionError:  # belt and braces: the depth limit should have caught it
        raise error(source, "(file)", "refused: nested too deeply") from None
    finally:
        loader.dispose()


def _yaml_reason(exc: yaml.YAMLError, text: str) -> str:
    """PyYAML's problem and its line, without its quoted snippet of the file or '<unicode string>'."""
    if isinstance(exc, yaml.MarkedYAMLError):
        what = exc.problem or exc.context or "malformed"
        mark = exc.problem_mark or exc.context_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        return one_line(f"{what}{where}", 200)
    if isinstance(exc, yaml.reader.ReaderError):
        line = text.count("\n", 0, exc.position) + 1
        code = exc.character if isinstance(exc.character, int) else exc.character[0]
        return f"the character #x{code:04x} is not allowed (line {line})"
    return one_line(str(exc), 200)
