"""Hypothesis profiles shared by the test suite, ``rulecraft verify`` and users.

- ``ci``: bounded and derandomized, so the README's test command is
  reproducible and stays well under 15 minutes on 2 cores;
- ``dev``: a little more, random, with the local example database;
- ``campaign``: long runs; failures are kept in ``.hypothesis/examples``.

Select with ``pytest --hypothesis-profile=campaign`` or the environment
variable ``RULECRAFT_PROFILE``.

:func:`example_database` puts the example database where a project's
``[tool.rulecraft] database = "path"`` says, for the length of one command
(without it Hypothesis keeps its own default, ``.hypothesis/examples`` in the
current folder).

The same setting comes from the environment variable ``RULECRAFT_DATABASE``, the pytest option
``--rulecraft-database`` and the ``--database`` option of the verbs that search; its value is a
folder or ``redis://HOST:PORT[/DB]``, Hypothesis's own Redis database shared by many workers
(:func:`open_database`).  When that server goes away mid-run the run goes on with its local folder
and says so once on stderr (:class:`SharedDatabase`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import urllib.parse
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase, ExampleDatabase

from rulecraft.core import RulecraftError

_SLOW_OK = [HealthCheck.too_slow, HealthCheck.data_too_large]

settings.register_profile(
    "ci",
    max_examples=40,
    stateful_step_count=40,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=_SLOW_OK,
)
# Hypothesis's own default under a CI variable (`CI=true`) is derandomized with no database; the
# random profiles say so explicitly, or they would inherit that on a CI machine (and HypoFuzz, which
# skips derandomized tests, would find nothing to fuzz there).
settings.register_profile(
    "dev",
    max_examples=100,
    derandomize=False,
    database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
    stateful_step_count=60,
    deadline=None,
    print_blob=True,
    suppress_health_check=_SLOW_OK,
)
settings.register_profile(
    "campaign",
    max_examples=5_000,
    derandomize=False,
    stateful_step_count=200,
    deadline=None,
    print_blob=True,
    database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
    suppress_health_check=_SLOW_OK,
)


def load_default() -> str:
    """Load the profile named by RULECRAFT_PROFILE (default ``ci``)."""
    name = os.environ.get("RULECRAFT_PROFILE", "ci")
    settings.load_profile(name)
    return name


DATABASE_PROFILE = "rulecraft-database"


DATABASE_ENV = "RULECRAFT_DATABASE"
LOCAL_FOLDER = Path(".hypothesis") / "examples"
REDIS_FORM = "redis://HOST:PORT[/DB]"


class DatabaseSettingError(RulecraftError):
    """A database setting that is neither a folder nor a ``redis://HOST:PORT[/DB]`` URL."""


def _redis_errors() -> tuple[type[BaseException], ...]:
    import redis.exceptions

    return (redis.exceptions.RedisError, OSError)


class SharedDatabase(ExampleDatabase):
    """Hypothesis's Redis database with a local folder beside it.

    Every example saved goes to both, so the folder holds this machine's findings; reads come from
    Redis.  The first time Redis fails (the server stopped, the network gone) one line naming the
    URL goes to stderr and from then on the folder alone is used: the run goes on.
    """

    def __init__(self, url: str, shared: ExampleDatabase, local: ExampleDatabase, stream: TextIO | None = None) -> None:
        super().__init__()
        self.url = url
        self.shared: ExampleDatabase | None = shared
        self.local = local
        self._stream = stream

    def __repr__(self) -> str:
        return f"SharedDatabase({self.url!r}, local={self.local!r})"

    def _lost(self, exc: BaseException) -> None:
        self.shared = None
        detail = " ".join(str(exc).split())[:120]
        print(
            f"rulecraft: the example database {self.url} is unreachable ({detail}); "
            "this run goes on with its local database",
            file=self._stream or sys.stderr,
        )

    def _shared(self, action: str, *args: bytes) -> Any:
        if self.shared is None:
            return None
        try:
            result = getattr(self.shared, action)(*args)
            return list(result) if action == "fetch" else result
        except _redis_errors() as exc:
            self._lost(exc)
            return None

    def fetch(self, key: bytes) -> Iterable[bytes]:
        found = self._shared("fetch", key)
        if found is None:
            yield from self.local.fetch(key)
        else:
            yield from found

    def save(self, key: bytes, value: bytes) -> None:
        self.local.save(key, value)
        self._shared("save", key, value)

    def delete(self, key: bytes, value: bytes) -> None:
        self.local.delete(key, value)
        self._shared("delete", key, value)

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        self.local.move(src, dest, value)
        self._shared("move", src, dest, value)

    # Change listeners (HypoFuzz's workers follow each other's finds through them) are Redis's: its
    # pubsub channel announces every worker's saves.  Without Redis there is nothing to follow.
    def _start_listening(self) -> None:
        if self.shared is not None:
            try:
                self.shared.add_listener(self._broadcast_change)
            except _redis_errors() as exc:
                self._lost(exc)

    def _stop_listening(self) -> None:
        if self.shared is not None:
            try:
                self.shared.remove_listener(self._broadcast_change)
            except _redis_errors() as exc:
                self._lost(exc)


def _redis_address(url: str) -> tuple[str, int, int]:
    """``(host, port, db)`` of ``redis://HOST:PORT[/DB]``; anything else is a one-line error."""
    try:
        parts = urllib.parse.urlsplit(url)
        port = parts.port
    except ValueError:
        port, parts = None, None
    bad = f"database: {url!r} is not {REDIS_FORM}"
    if parts is None or parts.scheme != "redis" or not parts.hostname or port is None:
        raise DatabaseSettingError(bad)
    if parts.query or parts.fragment or parts.username or parts.password:
        raise DatabaseSettingError(bad)
    db = parts.path.strip("/")
    if db and not db.isdigit():
        raise DatabaseSettingError(f"{bad} (DB is a number)")
    return parts.hostname, port, int(db or 0)


def check_database(value: str) -> str:
    """``value`` if it is a usable setting (a non-empty folder path or a Redis URL)."""
    if not value:
        raise DatabaseSettingError(f"database: a folder or {REDIS_FORM}, got an empty value")
    if "://" in value:
        _redis_address(value)
    return value


def open_database(value: str, base: Path | None = None, local: Path | None = None) -> ExampleDatabase:
    """The example database ``value`` names: a folder (relative to ``base``) or a Redis URL, whose
    local fallback is the folder ``local`` (default ``.hypothesis/examples``)."""
    check_database(value)
    if "://" not in value:
        return DirectoryBasedExampleDatabase((base or Path.cwd()) / value)
    host, port, db = _redis_address(value)
    try:
        import redis
        from hypothesis.extra.redis import RedisExampleDatabase
    except ImportError:
        raise DatabaseSettingError(
            f"database: {value} needs the redis client: pip install 'rulecraft[shared]'"
        ) from None
    from redis.backoff import ExponentialBackoff
    from redis.retry import Retry

    # a short retry (a blip), then the local folder: a run does not wait seconds per example
    retry = Retry(ExponentialBackoff(cap=0.5, base=0.1), 2)
    client = redis.Redis(host=host, port=port, db=db, socket_timeout=5, socket_connect_timeout=5, retry=retry)
    folder = DirectoryBasedExampleDatabase(local or LOCAL_FOLDER)
    return SharedDatabase(value, RedisExampleDatabase(client), folder)


def database_setting(given: str | None = None) -> str | None:
    """The setting in force: ``given`` (an option) else ``RULECRAFT_DATABASE`` (None: neither)."""
    return given or os.environ.get(DATABASE_ENV) or None


def configured_database() -> ExampleDatabase | None:
    """The example database a setting chose for this run (``--database``, ``RULECRAFT_DATABASE``,
    ``--rulecraft-database`` or the project file), else None: the verbs' own searches keep their
    failures only where they were told to (a plain run leaves no ``.hypothesis/`` folder)."""
    if getattr(settings, "_current_profile", None) != DATABASE_PROFILE:
        return None
    database: ExampleDatabase | None = settings().database
    return database


def use_database(database: ExampleDatabase) -> None:
    """Load a profile that is the current one with ``database`` (for the pytest plugin)."""
    settings.register_profile(DATABASE_PROFILE, parent=settings.default, database=database)
    settings.load_profile(DATABASE_PROFILE)


@contextlib.contextmanager
def example_database(path: Path | ExampleDatabase) -> Iterator[None]:
    """Hypothesis keeps its examples in the folder ``path`` (or the database given) while the block
    runs; the profile loaded before is loaded again after, so a command run in-process leaves no
    trace."""
    previous = getattr(settings, "_current_profile", None) or "default"
    database = path if isinstance(path, ExampleDatabase) else DirectoryBasedExampleDatabase(path)
    settings.register_profile(DATABASE_PROFILE, parent=settings.default, database=database)
    settings.load_profile(DATABASE_PROFILE)
    try:
        yield
    finally:
        settings.load_profile(previous)
