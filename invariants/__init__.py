"""Named invariants per game (installed as rulecraft.invariants)."""
