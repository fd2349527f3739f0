"""Game models, one package per game (installed as rulecraft.model)."""
