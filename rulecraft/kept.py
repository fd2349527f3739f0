"""Failures a verb's search found, kept in the example database and replayed first (issue 21).

Hypothesis keeps the examples that failed a test in its example database (a local folder, or Redis
shared by many workers: :mod:`rulecraft.profiles`) and replays them before searching anew.  The
verbs' own searches (``verify``, later ``conform``, ``ambiguities``, ``errata``) are seeded searches
outside Hypothesis; :class:`FailureStore` gives them the same habit in the same database:

- :func:`failure_key` names what was searched: the verb, the game, the check and the options that
  decide what "the same failure" means (the readings, not the number of games);
- :meth:`FailureStore.save` keeps one failure as a small JSON document;
- :meth:`FailureStore.fresh` returns the failures this process has not seen yet (every worker's),
  to be replayed before any new search, and again between search steps to pick up what other
  workers found meanwhile;
- :meth:`FailureStore.forget` drops one that no longer fails (as Hypothesis drops a fixed example).

What is read back is data, never code: JSON (no pickle, no eval), at most :data:`MAX_ENTRY` bytes,
in the envelope ``{"format": FORMAT, "entry": {...}}``, then checked by the verb's own ``parse``.
An entry that fails any of that is reported in one line (``warn``) and skipped; the run goes on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import attrs

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

__all__ = ["FORMAT", "MAX_ENTRY", "FailureStore", "Kept", "MalformedEntry", "failure_key"]

FORMAT = "rulecraft-failure/1"
MAX_ENTRY = 1 << 20  # bytes: a kept failure is a set-up and an action log, far below this
KEY_PREFIX = "rulecraft-failures"

T = TypeVar("T")


class MalformedEntry(ValueError):
    """A kept failure that is not what its verb saves (its ``parse`` raises this, or any ValueError,
    TypeError or KeyError)."""


def failure_key(verb: str, game: str, check: str, options: Mapping[str, Any] | None = None) -> bytes:
    """The database key of one verb's failures of one check on one game under ``options`` (JSON
    data, written canonically: the same options give the same key on every machine)."""
    for part in (verb, game, check):
        if not part or ":" in part:
            raise ValueError(f"failure_key: {part!r} is not a name")
    canonical = json.dumps(dict(options or {}), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return f"{KEY_PREFIX}:{verb}:{game}:{check}:{canonical}".encode()


@attrs.frozen
class Kept(Generic[T]):
    """One failure read back: the entry as parsed and the stored bytes (for :meth:`FailureStore.forget`)."""

    entry: T
    raw: bytes


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


class FailureStore(Generic[T]):
    """The failures kept under one key of ``database``.

    ``dump`` turns an entry into JSON data, ``parse`` checks JSON data read back and builds the entry
    (raising :class:`MalformedEntry`, ValueError, TypeError or KeyError when it is not one);
    ``warn`` receives the one-line report of each malformed entry skipped.
    """

    def __init__(
        self,
        database: ExampleDatabase,
        key: bytes,
        *,
        dump: Callable[[T], Mapping[str, Any]],
        parse: Callable[[Mapping[str, Any]], T],
        warn: Callable[[str], None],
    ) -> None:
        self.database = database
        self.key = key
        self._dump = dump
        self._parse = parse
        self._warn = warn
        self._seen: set[bytes] = set()

    @property
    def where(self) -> str:
        """The database, as a person reads it (a Redis URL or a folder)."""
        url = getattr(self.database, "url", None)
        if isinstance(url, str):
            return url
        path = getattr(self.database, "path", None)
        return str(path) if path is not None else type(self.database).__name__

    def encode(self, entry: T) -> bytes:
        data = {"format": FORMAT, "entry": dict(self._dump(entry))}
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()

    def save(self, entry: T) -> bytes:
        """Keep ``entry``; its bytes are returned and count as seen (not replayed back to this process)."""
        raw = self.encode(entry)
        self._seen.add(raw)
        self.database.save(self.key, raw)
        return raw

    def forget(self, kept: Kept[T]) -> None:
        self.database.delete(self.key, kept.raw)

    def fresh(self) -> list[Kept[T]]:
        """The entries under the key that this process has not seen yet, in a stable order (by their
        bytes); malformed ones are reported once each and skipped."""
        found: list[Kept[T]] = []
        for raw in sorted(set(self.database.fetch(self.key)) - self._seen):
            self._seen.add(raw)
            try:
                found.append(Kept(self.decode(raw), raw))
            except (MalformedEntry, ValueError, TypeError, KeyError) as exc:
                self._warn(f"rulecraft: skipped a malformed saved failure in {self.where}: {_one_line(str(exc))}")
        return found

    def decode(self, raw: bytes) -> T:
        if len(raw) > MAX_ENTRY:
            raise MalformedEntry(f"{len(raw)} bytes, more than {MAX_ENTRY}")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise MalformedEntry(f"not JSON ({exc})") from None
        except RecursionError:  # nested deeper than the parser goes: no failure a verb saves
            raise MalformedEntry("not JSON (nested too deeply)") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("entry"), dict):
            raise MalformedEntry(f"not a {FORMAT} document")
        return self._parse(data["entry"])
