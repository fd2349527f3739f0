"""Test-suite configuration: the Hypothesis profile (``ci`` by default), and a real Redis server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis_server import RedisServer, required_binary  # tests/redis_server.py (bench/scale.py starts it too)

from rulecraft.profiles import load_default

load_default()


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """Debian's ``redis-server`` on a free loopback port, no persistence, stopped after the test module
    (each module numbers its own databases; skips without the binary, fails instead under
    ``RULECRAFT_REQUIRE_REDIS=1``)."""
    server = RedisServer(required_binary(), tmp_path_factory.mktemp("redis"))
    try:
        yield server
    finally:
        server.stop()
