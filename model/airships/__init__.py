"""Airships (Andreas Seyfarth, Queen Games): the reference model.

Rulebook: seeds/003 (Hungarian); digest: rules/airships.md.  Rule IDs
AIR-R-nn, printed examples AIR-EX-nn, ambiguities AIR-AMB-nn.
"""
