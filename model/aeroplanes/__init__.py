"""Aeroplanes: Aviation Ascendant: the foundation of the reference model.

Rulebook: seeds/002 (a Russian translation, 186 lines with no page numbers);
digest: rules/aeroplanes-aviation-ascendant.md.  Rule IDs AER-R-nn, set-up
steps AER-SET-nn, printed examples AER-EX-nn, ambiguities AER-AMB-nn; the
rulebook findings of this model are AER-F-nn.

Because the seed has no page numbers, a "page" here is a line reference into
the seed, as the digest gives it: ``"l.85,128"`` means lines 85 and 128.

The whole game: the rule catalogue (catalogue.py), the ambiguity register
with the rulebook findings (readings.py), the component pack with the map as
a directed graph (components.py; rulecraft.digraph), the new-connection risk computed exactly
(risk.py), state, actions, set-up, legality (rules.py), effects
(transitions.py), scoring and the game itself (game.py, a PackedGame).  Its
record, above the model, ties in the invariants and solvers
(games/aeroplanes.py).
"""
