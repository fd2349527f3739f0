"""Z3 encodings of rules questions, each beside a brute-force oracle
(installed as rulecraft.solvers)."""
