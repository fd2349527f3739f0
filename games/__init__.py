"""The games' records (installed as ``rulecraft.games``): one small module per game, above its model,
invariants and solvers, exporting ``RECORD`` for the ``rulecraft.games`` entry point."""
