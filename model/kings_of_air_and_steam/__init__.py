"""Kings of Air and Steam (Scott Almes, Tasty Minstrel Games): the reference model.

Rulebook: seeds/000 (Hungarian); digest: rules/kings-of-air-and-steam.md.
Rule IDs KAS-R-nn, printed examples KAS-EX-nn, ambiguities KAS-AMB-nn,
component parameters KAS-P-nn.
"""
