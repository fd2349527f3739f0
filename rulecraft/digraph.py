"""A small directed graph with attributes: what a game's map needs of networkx's ``DiGraph``.

The Aeroplanes map is read at every placement (arcs and their attributes, each destination's
successors); importing networkx for it cost 0.15 s on every command that configures the game.  This
is the part of the ``DiGraph`` interface the models and their tests use, with the same orders (nodes
as first added; each node's successors as their arcs were first added), so that every action list,
and every seeded game, is what it was.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, overload


class FrozenGraph(TypeError):
    """A change to a graph that was frozen (networkx raises NetworkXError, a subclass of Exception)."""


class _Nodes(Mapping[str, dict[str, Any]]):
    """``graph.nodes``: node -> its attributes, in the order nodes were added."""

    __slots__ = ("_nodes",)

    def __init__(self, nodes: dict[str, dict[str, Any]]) -> None:
        self._nodes = nodes

    def __getitem__(self, name: str) -> dict[str, Any]:
        return self._nodes[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


class _Arcs:
    """``graph.edges``: ``edges[a, b]`` an arc's attributes; ``edges()`` / ``edges(data=True)`` every arc."""

    __slots__ = ("_succ",)

    def __init__(self, succ: dict[str, dict[str, dict[str, Any]]]) -> None:
        self._succ = succ

    def __getitem__(self, arc: tuple[str, str]) -> dict[str, Any]:
        a, b = arc
        return self._succ[a][b]

    @overload
    def __call__(self) -> Iterator[tuple[str, str]]: ...
    @overload
    def __call__(self, *, data: bool) -> Iterator[tuple[Any, ...]]: ...
    def __call__(self, *, data: bool = False) -> Iterator[tuple[Any, ...]]:
        for a, out in self._succ.items():
            for b, attributes in out.items():
                yield (a, b, attributes) if data else (a, b)

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return ((a, b) for a, out in self._succ.items() for b in out)

    def __len__(self) -> int:
        return sum(len(out) for out in self._succ.values())


class DiGraph:
    """Nodes with attributes and at most one arc per ordered pair, with attributes."""

    __slots__ = ("_frozen", "_nodes", "_succ")

    def __init__(self) -> None:
        self._nodes: dict[str, dict[str, Any]] = {}
        self._succ: dict[str, dict[str, dict[str, Any]]] = {}
        self._frozen = False

    def __repr__(self) -> str:
        return f"<DiGraph of {len(self._nodes)} nodes and {len(self.edges)} arcs>"

    # -- building -------------------------------------------------------------------------------
    def _changing(self) -> None:
        if self._frozen:
            raise FrozenGraph("a frozen graph cannot be changed")

    def add_node(self, name: str, **attributes: Any) -> None:
        self._changing()
        if name not in self._nodes:
            self._nodes[name], self._succ[name] = {}, {}
        self._nodes[name].update(attributes)

    def add_edge(self, a: str, b: str, **attributes: Any) -> None:
        """The arc ``a -> b`` (its ends added as nodes when new); given again, its attributes are updated."""
        self._changing()
        for name in (a, b):
            if name not in self._nodes:
                self._nodes[name], self._succ[name] = {}, {}
        self._succ[a].setdefault(b, {}).update(attributes)

    def remove_node(self, name: str) -> None:
        self._changing()
        del self._nodes[name], self._succ[name]
        for out in self._succ.values():
            out.pop(name, None)

    def freeze(self) -> DiGraph:
        """This graph, from now on unchangeable (its readers share it)."""
        self._frozen = True
        return self

    @property
    def frozen(self) -> bool:
        return self._frozen

    # -- reading --------------------------------------------------------------------------------
    @property
    def nodes(self) -> _Nodes:
        return _Nodes(self._nodes)

    @property
    def edges(self) -> _Arcs:
        return _Arcs(self._succ)

    def has_edge(self, a: str, b: str) -> bool:
        out = self._succ.get(a)
        return out is not None and b in out

    def successors(self, name: str) -> Iterator[str]:
        """The ends of ``name``'s arcs, in the order they were added (KeyError: no such node)."""
        return iter(self._succ[name])

    def __contains__(self, name: object) -> bool:
        return name in self._nodes

    def __iter__(self) -> Iterator[str]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    def __eq__(self, other: object) -> bool:
        """The same nodes and arcs with the same attributes (orders aside), as networkx's graphs_equal."""
        if not isinstance(other, DiGraph):
            return NotImplemented
        return self._nodes == other._nodes and self._succ == other._succ

    __hash__ = None  # type: ignore[assignment]  # mutable until frozen, like a dict
