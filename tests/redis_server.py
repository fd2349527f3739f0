"""A real ``redis-server`` on a free loopback port, started and stopped by the tests
(tests/test_shared_database.py, tests/test_kept_failures.py) and by bench/scale.py alike."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path


def redis_binary() -> str | None:
    """Debian's ``redis-server`` (``apt-get install redis-server``; .ci/run installs it), or None."""
    return shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)


def required_binary() -> str:
    """The server for a test: skipped with the reason when it or the client is missing, unless
    RULECRAFT_REQUIRE_REDIS=1 (CI), where a missing server fails the test."""
    import pytest

    binary = redis_binary()
    if binary is None:
        if os.environ.get("RULECRAFT_REQUIRE_REDIS") == "1":
            pytest.fail("redis-server is missing and RULECRAFT_REQUIRE_REDIS=1 (apt-get install redis-server)")
        pytest.skip("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    pytest.importorskip("redis", reason="the redis client is not installed (pip install 'rulecraft[shared]')")
    return binary


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class RedisServer:
    """One ``redis-server`` process on a free loopback port, nothing written to disk."""

    def __init__(self, binary: str, folder: Path) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=folder,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server did not answer on port {self.port}")
            time.sleep(0.05)

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def keys(self, db: int = 0) -> list[bytes]:
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port, db=db)
        found: list[bytes] = client.keys(b"hypothesis-example:*")  # type: ignore[assignment]
        client.close()
        return found

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
