"""rulecraft.digraph.DiGraph against networkx's DiGraph, which it replaces in the Aeroplanes map
(issue 18: networkx cost 0.15 s per command).  The orders matter: the rules list placements by each
destination's successors, so a seeded game is the same game only if the orders are networkx's."""

from __future__ import annotations

import networkx as nx  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulecraft.digraph import DiGraph, FrozenGraph
from rulecraft.model.aeroplanes.components import bundled_pack

NAMES = st.sampled_from(["Paris", "Rome", "Cairo", "Java", "Oslo"])
ATTRIBUTES = st.dictionaries(st.sampled_from(["colour", "rolls", "special"]), st.integers(0, 3), max_size=2)
OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("node"), NAMES, ATTRIBUTES),
        st.tuples(st.just("edge"), st.tuples(NAMES, NAMES), ATTRIBUTES),
        st.tuples(st.just("remove"), NAMES, st.just({})),
    ),
    max_size=30,
)


@given(OPERATIONS)
def test_the_same_changes_give_networkx_s_nodes_arcs_and_orders(
    operations: list[tuple[str, object, dict[str, int]]],
) -> None:
    ours, theirs = DiGraph(), nx.DiGraph()
    for kind, what, attributes in operations:
        if kind == "node":
            ours.add_node(str(what), **attributes)
            theirs.add_node(what, **attributes)
        elif kind == "edge":
            a, b = what  # type: ignore[misc]
            ours.add_edge(a, b, **attributes)
            theirs.add_edge(a, b, **attributes)
        elif what in theirs:
            ours.remove_node(str(what))
            theirs.remove_node(what)
    assert list(ours.nodes) == list(theirs.nodes) and list(ours) == list(theirs)
    assert [ours.nodes[n] for n in ours.nodes] == [theirs.nodes[n] for n in theirs.nodes]
    assert list(ours.edges(data=True)) == list(theirs.edges(data=True))
    assert list(ours.edges) == list(theirs.edges) and len(ours.edges) == len(theirs.edges)
    for a in theirs.nodes:
        assert list(ours.successors(a)) == list(theirs.successors(a))
        for b in theirs.nodes:
            assert ours.has_edge(a, b) == theirs.has_edge(a, b)
            if theirs.has_edge(a, b):
                assert ours.edges[a, b] == theirs.edges[a, b]
    assert len(ours) == len(theirs) and all((n in ours) == (n in theirs) for n in ["Paris", "Nowhere"])


def test_the_bundled_map_is_the_graph_networkx_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """AER-R-14/15 (l.77-79): the bundled pack's map, built by the model's own code once with this
    graph and once with networkx's in its place: the same nodes, arcs, attributes and orders."""
    from rulecraft.model.aeroplanes import components

    pack = bundled_pack()
    ours = pack.graph()
    monkeypatch.setattr(components, "DiGraph", nx.DiGraph)
    theirs = pack.graph()
    assert isinstance(theirs, nx.DiGraph) and not isinstance(ours, nx.DiGraph)
    assert list(ours.nodes.items()) == list(theirs.nodes.items())
    assert list(ours.edges(data=True)) == list(theirs.edges(data=True))
    for name in theirs.nodes:
        assert list(ours.successors(name)) == list(theirs.successors(name))
    assert len(ours.edges) > len(pack.connections)  # both-way connections give an arc each way


def test_a_frozen_graph_refuses_every_change_and_a_missing_node_is_a_key_error() -> None:
    g = DiGraph()
    g.add_edge("Paris", "Rome", colour="white")
    assert g.freeze() is g and g.frozen
    for change in (lambda: g.add_node("Oslo"), lambda: g.add_edge("Rome", "Paris"), lambda: g.remove_node("Paris")):
        with pytest.raises(FrozenGraph):
            change()
    assert list(g.edges(data=True)) == [("Paris", "Rome", {"colour": "white"})]
    with pytest.raises(KeyError):
        g.successors("Nowhere")
    assert not g.has_edge("Nowhere", "Paris") and g != DiGraph() and len(g) == 2
