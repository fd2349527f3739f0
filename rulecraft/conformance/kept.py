"""Differences a campaign found, kept in the example database and replayed first (issue 21).

``conform`` (the implementation against the rules), ``ambiguities`` (one reading against another)
and ``errata`` (a variant against the printed rules) all find a *difference*: a game from a start
(a set-up, or a state the reference reached) after whose steps the two sides part.  This module
keeps such a game in the example database (:mod:`rulecraft.kept`, the helper ``verify`` uses) and
plays it again, on both sides, before the next run searches:

- :class:`KeptDifference` is what is kept: the start, the steps, a final probe (a verdict that
  differs on an action not among the steps), a printed example's fixture board, and the full way
  there from a new game (for the report);
- :func:`replay_difference` plays it on the reference and a peer (an implementation, or the model
  under another ruleset) with the comparisons the search makes, and returns the finding when they
  still part, else None;
- :class:`DifferenceStore` reads (checked field by field, never executed), replays, drops what no
  longer parts and says so in one line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from rulecraft.conformance.client import ImplementationFault
from rulecraft.conformance.findings import Finding
from rulecraft.conformance.lockstep import Lockstep, Mismatch, Peer, RunStopped, _restart
from rulecraft.core import AnyGame, Setup
from rulecraft.coverage import RuleTracer
from rulecraft.kept import FailureStore, Kept, MalformedEntry, failure_key

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

REPLAYED = "replayed from the example database: "
SCORES_EVERY = 10  # the search compares the running scores every this many steps (differential._play)


@attrs.frozen
class KeptDifference:
    """A game after which two sides part: its start (``setup`` or ``state``), its ``steps``, and what
    the report shows of it."""

    setup: dict[str, Any] | None
    state: dict[str, Any] | None
    steps: tuple[dict[str, Any], ...]
    probe: dict[str, Any] | None = None
    fixture: dict[str, Any] | None = None  # a printed example's board the start's state is on
    unit: str = ""  # the unit of work that found it (rulecraft.shard)
    origin: dict[str, Any] | None = None
    path: tuple[dict[str, Any], ...] = ()
    root: str = ""

    @property
    def game_key(self) -> str:
        """The game itself (start, steps, probe, board): two entries with the same are one difference."""
        data = [self.setup, self.state, list(self.steps), self.probe, self.fixture]
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def to_json(self) -> dict[str, Any]:
        return {
            "start": {"setup": self.setup} if self.setup is not None else {"state": self.state},
            "steps": list(self.steps),
            "probe": self.probe,
            "fixture": self.fixture,
            "unit": self.unit,
            "full": {"origin": self.origin, "path": list(self.path), "root": self.root},
        }


def kept_from(finding: Finding, fixture: Mapping[str, Any] | None = None) -> KeptDifference | None:
    """What to keep of ``finding`` (None: it has no start to replay from)."""
    if finding.setup is None and finding.start_state is None:
        return None
    return KeptDifference(
        dict(finding.setup) if finding.setup is not None else None,
        dict(finding.start_state) if finding.setup is None and finding.start_state is not None else None,
        tuple(dict(a) for a in finding.steps),
        dict(finding.probe) if finding.probe is not None else None,
        dict(fixture) if fixture else None,
        finding.unit,
        dict(finding.origin) if finding.origin is not None else None,
        tuple(dict(a) for a in finding.path),
        finding.root,
    )


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise MalformedEntry(f"{field}: an object, got {type(value).__name__}")
    return value


def _optional_object(value: Any, field: str) -> dict[str, Any] | None:
    return None if value is None else _object(value, field)


def _actions(game: AnyGame, value: Any, field: str) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list):
        raise MalformedEntry(f"{field}: a list of actions, got {type(value).__name__}")
    out = []
    for i, item in enumerate(value):
        action = _object(item, f"{field}[{i}]")
        try:  # every action must read as one of this game's (data only: nothing runs)
            game.action_from_json(action)
        except Exception as exc:
            raise MalformedEntry(f"{field}[{i}]: not a {game.id} action ({' '.join(str(exc).split())[:80]})") from None
        out.append(action)
    return tuple(out)


def parse_difference(game: AnyGame, data: Mapping[str, Any]) -> KeptDifference:
    """A kept difference read back, every field checked (:class:`MalformedEntry` naming the field)."""
    start = _object(data["start"], "start")
    if set(start) not in ({"setup"}, {"state"}):
        raise MalformedEntry("start: an object with a 'setup' or a 'state' object")
    setup = _optional_object(start.get("setup"), "start.setup")
    state = _optional_object(start.get("state"), "start.state")
    if setup is None and state is None:
        raise MalformedEntry("start: an object with a 'setup' or a 'state' object")
    if setup is not None:
        try:
            Setup.from_json(setup)
        except Exception as exc:
            raise MalformedEntry(f"start.setup: {' '.join(str(exc).split())[:80]}") from None
    steps = _actions(game, data["steps"], "steps")
    probe = data.get("probe")
    probe_action = _actions(game, [probe], "probe")[0] if probe is not None else None
    unit, full = data.get("unit", ""), _object(data.get("full", {}), "full")
    root = full.get("root", "")
    if not isinstance(unit, str) or not isinstance(root, str):
        raise MalformedEntry("unit, full.root: text")
    return KeptDifference(
        setup,
        state,
        steps,
        probe_action,
        _optional_object(data.get("fixture"), "fixture"),
        unit,
        _optional_object(full.get("origin"), "full.origin"),
        _actions(game, full.get("path", []), "full.path"),
        root,
    )


def replay_difference(
    game: AnyGame,
    peer: Peer,
    kept: KeptDifference,
    *,
    models: tuple[str, ...] = ("*",),
    protocol: int = 2,
    self_test: bool = False,
    components: Mapping[str, Any] | None = None,
) -> tuple[Finding | None, int]:
    """Play ``kept`` on the reference ``game`` and ``peer`` with the comparisons the search makes
    (the legal actions before each step, the state after it, the running scores every
    :data:`SCORES_EVERY` steps, the final probe, the end); (the finding where they part or None,
    the states compared).  A game that no longer goes the saved way (a step the reference now
    refuses on both sides) parts nowhere: None."""
    lock = Lockstep(
        game,
        peer,
        models,
        "differential",  # where a fresh run finds it; the title says it was replayed
        kept.setup,
        self_test=self_test,
        tracer=RuleTracer(game),
        protocol=protocol,
    )
    try:
        if kept.setup is not None:
            with lock.traced() as hit:  # the set-up rules (the deal, the start player), as the search names them
                lock.state = game.start(Setup.from_json(kept.setup))
            lock.exercised |= hit
            lock.step_rules = lock.ordered(hit)
            reply = peer.new_game(dict(kept.setup), components=dict(components) if components is not None else None)
            if not reply.get("ok"):
                raise Mismatch(lock.finding("verdict", f"new_game was refused: {reply.get('error', '')}"))
            lock.compare_state(reply, "after set-up")
        else:
            assert kept.state is not None
            if kept.fixture:
                game.load_fixture(kept.fixture)
            lock.state = game.state_from_json(kept.state)
            lock.start_state = dict(kept.state)
            reply = peer.set_state(dict(kept.state), fixture=dict(kept.fixture) if kept.fixture else None)
            if not reply.get("ok"):
                if self_test:
                    return None, lock.compared
                raise Mismatch(lock.finding("scenario", f"the given state was refused: {reply.get('error', '')}"))
            lock.compare_scores("at the given state")
        for number, data in enumerate(kept.steps, start=1):
            if game.is_over(lock.state):
                return None, lock.compared  # the saved game went on past an end it now reaches
            lock.compare_legal_actions()
            action = game.action_from_json(data)
            if game.check(lock.state, action) is not None:
                lock.probe(action)  # a difference when the peer accepts it
                return None, lock.compared  # refused on both sides: the game no longer goes this way
            lock.step(action)
            if number % SCORES_EVERY == 0:
                lock.compare_scores(f"after step {number}")
        if kept.probe is not None:
            lock.probe(game.action_from_json(kept.probe))
        if game.is_over(lock.state):
            lock.compare_end()
        else:
            lock.compare_legal_actions()
    except Mismatch as mismatch:
        return mismatch.finding, lock.compared
    except ImplementationFault as fault:
        finding = lock.finding("fault", f"the implementation failed: {fault.kind}", evidence=str(fault))
        try:
            _restart(peer, lock, fault.kind)
        except RunStopped as stopped:
            return stopped.finding, lock.compared
        return finding, lock.compared
    except Exception:  # the game no longer starts or reads its steps this way: nothing to replay
        return None, lock.compared
    return None, lock.compared


def digest(text: str) -> str:
    """A short stable hash (an implementation command, a variant file's content) for a key."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def configured() -> ExampleDatabase | None:
    """The example database a setting chose for this run (:func:`rulecraft.profiles.configured_database`),
    without importing Hypothesis when nothing did: no setting was made then, and none is kept."""
    import sys

    if "hypothesis" not in sys.modules:
        return None
    from rulecraft.profiles import configured_database

    return configured_database()


def _print_stderr(line: str) -> None:
    import sys

    print(line, file=sys.stderr)


@attrs.frozen
class Replayed:
    """A kept difference replayed: the entry and the finding it still shows (None: dropped)."""

    kept: KeptDifference
    finding: Finding | None
    raw: bytes
    compared: int


class DifferenceStore:
    """One campaign's kept differences: those of ``verb`` on ``game`` for ``check`` under ``options``
    (rulecraft.kept's key), read, replayed and dropped here; ``say`` gets the one-line reports."""

    def __init__(
        self,
        database: ExampleDatabase,
        verb: str,
        game: AnyGame,
        check: str,
        options: Mapping[str, Any],
        *,
        say: Callable[[str], None] | None = None,
        label: str = "",
    ) -> None:
        self.say = say or _print_stderr
        self.notes: list[str] = []
        self.label = label or f"{verb} {game.id}"

        def warn(line: str) -> None:
            self.notes.append(line)
            self.say(line)

        self.store: FailureStore[KeptDifference] = FailureStore(
            database,
            failure_key(verb, game.id, check, options),
            dump=KeptDifference.to_json,
            parse=lambda data: parse_difference(game, data),
            warn=warn,
        )
        self.reported: set[str] = set()  # game keys replayed and still parting: a search finding them adds nothing

    def replay(
        self,
        play: Callable[[KeptDifference], tuple[Finding | None, int]],
        mine: Callable[[KeptDifference, bytes], bool] = lambda kept, raw: True,
    ) -> list[Replayed]:
        """Replay every kept difference not seen yet that is ``mine`` (a shard's share): those still
        parting the sides come back with their finding (its title marked :data:`REPLAYED`), the
        others are dropped from the database; one line says so (none when there was nothing)."""
        entries: list[Kept[KeptDifference]] = [k for k in self.store.fresh() if mine(k.entry, k.raw)]
        if not entries:
            return []
        out = []
        for entry in entries:
            finding, compared = play(entry.entry)
            if finding is None:
                self.store.forget(entry)
            else:
                self.reported.add(entry.entry.game_key)
                finding = attrs.evolve(
                    finding,
                    title=REPLAYED + finding.title,
                    unit=entry.entry.unit,
                    origin=entry.entry.origin,
                    path=entry.entry.path,
                    root=entry.entry.root,
                )
            out.append(Replayed(entry.entry, finding, entry.raw, compared))
        parting = sum(r.finding is not None for r in out)
        line = (
            f"{self.label}: replayed {len(out)} saved difference(s) from {self.store.where} before any new search: "
            f"{parting} still found, {len(out) - parting} no longer found (dropped)"
        )
        self.notes.append(line)
        self.say(line)
        return out

    def keep(self, finding: Finding, fixture: Mapping[str, Any] | None = None) -> bool:
        """Save a finding of the search; False when it is a difference a replay reported already."""
        kept = kept_from(finding, fixture)
        if kept is None:
            return True
        if kept.game_key in self.reported:
            return False
        self.store.save(kept)
        return True


def owned(
    units: Sequence[str], planned: Sequence[str], index: int, count: int
) -> Callable[[KeptDifference, bytes], bool]:
    """Which kept differences a shard replays: those of its own units, and of the rest (a unit
    this campaign does not have: another lane count, another run) a share by hash, so that the
    shards 1..N replay each one exactly once."""
    known, mine = set(units), set(planned)

    def owns(kept: KeptDifference, raw: bytes) -> bool:
        if kept.unit in known:
            return kept.unit in mine
        return int.from_bytes(hashlib.sha256(raw).digest()[:4], "big") % count == index - 1

    return owns


__all__ = [
    "REPLAYED",
    "DifferenceStore",
    "KeptDifference",
    "Replayed",
    "configured",
    "digest",
    "kept_from",
    "owned",
    "parse_difference",
    "replay_difference",
]
