"""The conformance kit: a language-neutral protocol (JSON Lines over standard
input and output), the reference model as a server, a robust driver for
other implementations, and ``rulecraft conform``."""
