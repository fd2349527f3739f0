"""Steamopolis: the data and pure-function layer of the reference model.

Rulebook: seeds/004 (English); digest: rules/steamopolis.md.  Rule IDs
STM-R-nn, printed examples STM-EX-nn, ambiguities STM-AMB-nn, component
parameters STM-P-nn.

This package is the foundation only: the rule catalogue, the ambiguity
register, the component pack (an effect vocabulary in the rulebook's symbols
and the reconstructed Technician's Handbook data), the pressure gauge as pure
functions, and the frozen state classes; on top of it the multiplayer turn:
actions (actions.py), legality and move generation (rules.py, with the
Context of context.py) and effects (transitions.py).  Parasites, sponsors,
galas, the final round, solo and the game wiring come later; the game is not
registered yet.
"""
