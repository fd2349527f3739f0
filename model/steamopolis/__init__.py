"""Steamopolis: the data and pure-function layer of the reference model.

Rulebook: seeds/004 (English); digest: rules/steamopolis.md.  Rule IDs
STM-R-nn, printed examples STM-EX-nn, ambiguities STM-AMB-nn, component
parameters STM-P-nn.

The whole game: the rule catalogue and ambiguity register (catalogue.py,
readings.py), the component pack (components.py: an effect vocabulary in the
rulebook's symbols and the reconstructed Technician's Handbook data), the
pressure gauge as pure functions (gauge.py), the frozen state classes
(state.py), actions (actions.py), legality and move generation (rules.py,
with the Context of context.py), effects (transitions.py, effects.py), the
solo game, playout policies and the game itself (game.py, a PackedGame).
Its record, above the model, ties in the invariants and solvers
(games/steamopolis.py).
"""
