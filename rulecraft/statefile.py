"""State files: a game state saved to disk and read back, refused in one line when it cannot be.

The format (version 1) names its game, so that a state of another game is told apart::

    {"rulecraft_state": 1, "game": "stm",
     "readings": {"STM-AMB-18": "bought"},   # optional: the non-default readings it was played under
     "fixture": {...},                       # optional: a printed example's own components (a KAS board)
     "state": {...}}                         # what the game's state_to_json gives

A bare state object (what ``state_to_json`` returns, the format before version 1) is read too.
:func:`save_state` writes atomically; :func:`load_state` reads, refuses every malformed or hostile
file with a :class:`StateFileError` ``FILE: FIELD: reason``, and checks the state against the
component counts and invariants (:func:`admit`) before anything enumerates it.
:func:`state_from_data` does the same for a state that came in another way (the protocol's
``set_state``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from rulecraft import yamlio
from rulecraft.core import A, AnyGame, Game, RulecraftError, S, StateError
from rulecraft.files import write_atomically
from rulecraft.registry import game_ids, make_game
from rulecraft.serialization import json_type

FORMAT_KEY = "rulecraft_state"
FORMAT_VERSION = 1
ENVELOPE_FIELDS = frozenset({FORMAT_KEY, "game", "readings", "fixture", "state"})

# Limits no state of a board game comes near (a state is a few kB, a few levels deep, counts in the
# hundreds), so that a hostile file is refused before it costs time or memory.
MAX_STATE_BYTES = 1 << 20
MAX_DEPTH = 24
MAX_NODES = 100_000
MAX_INT = 10**9
QUOTE_CHARS = 60  # a quoted value in a message is cut to this many characters
MESSAGE_CHARS = 300


class StateFileError(RulecraftError):
    """A state file that cannot be read as a state of the game asked for; ``str()`` is one line
    ``FILE: FIELD: reason``."""

    def __init__(self, path: str | Path, field: str, reason: str) -> None:
        super().__init__(f"{path}: {field}: {reason}")
        self.path = str(path)
        self.field = field
        self.reason = reason


@attrs.frozen
class SavedState:
    """What a state file holds: the game id (None for a bare state), the state's JSON, the readings
    it was played under and the component fixture it needs."""

    game: str | None
    state: Mapping[str, Any]
    readings: Mapping[str, str] = attrs.field(factory=dict)
    fixture: Mapping[str, Any] | None = None


# -- writing -----------------------------------------------------------------------------------------


def state_document(game: Game[S, A], state: S) -> dict[str, Any]:
    """The version-1 document of ``state``: game id, non-default readings, fixture and state."""
    doc: dict[str, Any] = {FORMAT_KEY: FORMAT_VERSION, "game": game.id}
    readings = game.ruleset.non_defaults(game.register)
    if readings:
        doc["readings"] = dict(sorted(readings.items()))
    fixture = game.state_fixture(state)
    if fixture is not None:
        doc["fixture"] = fixture
    doc["state"] = game.state_to_json(state)
    return doc


def save_state(path: str | Path, game: Game[S, A], state: S) -> None:
    """Write ``state`` as a version-1 state file, atomically: a temporary file in the same folder,
    renamed over ``path`` once complete, so a crash never leaves half a file (nor loses the old one)."""
    target = Path(path)
    text = json.dumps(state_document(game, state), indent=1, sort_keys=False) + "\n"
    write_atomically(target, text)


# -- reading -------------------------------------------------------------------------------------------


def load_state(path: str | Path, game: AnyGame) -> Any:
    """The state in the file ``path``, for ``game`` (which takes the file's fixture, if any).

    Refused with a one-line :class:`StateFileError` ``FILE: FIELD: reason``: a file missing,
    unreadable, too large, not UTF-8, not JSON or too deep; a state of another game; readings other
    than the game's; a field of the wrong type; a state that breaks the component counts or an
    invariant (:func:`admit`, with the rule ID)."""
    saved = read_state_file(path)
    if saved.game is not None and saved.game != game.id:
        raise StateFileError(path, "game", f"this is a {saved.game} state; this command plays {game.id}")
    _same_readings(path, game, saved.readings)
    if saved.fixture is not None:
        try:
            game.load_fixture(saved.fixture)
        except RulecraftError as exc:
            raise StateFileError(path, "fixture", _short(str(exc))) from None
        except Exception as exc:  # a malformed fixture may break the game's own reader
            raise StateFileError(path, "fixture", _short(f"{type(exc).__name__}: {exc}")) from None
    try:
        return state_from_data(game, saved.state)
    except StateError as exc:
        if saved.game is None:
            other = other_game(game.id, saved.state)
            if other is not None:
                raise StateFileError(path, "game", f"this is a {other} state; this command plays {game.id}") from None
        raise StateFileError(path, exc.field, exc.reason) from None


def read_state_file(path: str | Path) -> SavedState:
    """The parts of a state file, the envelope checked (the state itself is not interpreted yet)."""
    data = read_json(path)
    if not isinstance(data, dict):
        raise StateFileError(path, "state", f"a state is a JSON object; the file holds a {json_type(data)}")
    if FORMAT_KEY not in data:
        return SavedState(None, data)  # the bare state of the format before version 1
    unknown = sorted(set(data) - ENVELOPE_FIELDS)
    if unknown:
        known = ", ".join(sorted(ENVELOPE_FIELDS))
        raise StateFileError(path, _short(unknown[0], 40), f"unknown field; a state file has {known}")
    version = data[FORMAT_KEY]
    if version != FORMAT_VERSION or isinstance(version, bool):
        raise StateFileError(path, FORMAT_KEY, f"version {_short(repr(version))}; this rulecraft reads version 1")
    game_id = data.get("game")
    if not isinstance(game_id, str) or not game_id:
        raise StateFileError(path, "game", f"a game id such as {', '.join(game_ids())}; got {_short(repr(game_id))}")
    state = data.get("state")
    if not isinstance(state, dict):
        raise StateFileError(path, "state", f"a JSON object; got a {json_type(state)}")
    readings = data.get("readings", {})
    if not isinstance(readings, dict) or not all(isinstance(v, str) for v in readings.values()):
        raise StateFileError(path, "readings", "an object of ambiguity IDs to reading names")
    fixture = data.get("fixture")
    if fixture is not None and not isinstance(fixture, dict):
        raise StateFileError(path, "fixture", f"a JSON object; got a {json_type(fixture)}")
    return SavedState(game_id, state, readings, fixture)


def read_json(path: str | Path) -> Any:
    """The JSON in ``path``, refused in one line when missing, too large, not UTF-8, not JSON, too
    deep or holding an integer beyond any count."""
    try:
        # the shared reader: a regular file only (a FIFO in its place would block the open forever,
        # a device never ends), bounded in size, UTF-8 without NUL bytes
        text = yamlio.read_text_file(path, limit=MAX_STATE_BYTES)
    except yamlio.DataFileError as exc:
        raise StateFileError(path, "file", exc.message) from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise StateFileError(path, "file", f"nested deeper than the limit of {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise StateFileError(path, "file", f"not JSON: {_short(str(exc))}") from None
    problem = json_problem(data)
    if problem is not None:
        raise StateFileError(path, problem[0], problem[1])
    return data


def state_from_data(game: AnyGame, data: Any, *, field: str = "state") -> Any:
    """``game``'s state from its JSON ``data``, with the same checks as a state file: size, depth and
    integers bounded, field errors as :class:`StateError` ``state.<field>: reason``, then
    ``admit`` (component counts, invariants).  For the protocol's ``set_state``."""
    if not isinstance(data, Mapping):
        raise StateError(field, f"a state is a JSON object; got a {json_type(data)}")
    problem = json_problem(data, field)
    if problem is not None:
        raise StateError(*problem)
    try:
        state = game.state_from_json(data)
    except RulecraftError as exc:
        raise _field_error(str(exc), field) from None
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        # A game's reader may trip on bad input below its own checks: still a field error, not a crash.
        raise _field_error(f"{type(exc).__name__}: {exc}", field) from None
    admit(game, state)
    return state


def admit(game: Game[S, A], state: S) -> None:
    """Refuse a state read from outside that ``game`` could not have reached: its sizes against the
    pack (``game.check_state``), then the invariants every such state must keep
    (``game.load_invariants``), each a :class:`StateError` in one line."""
    from rulecraft.tools import tools

    game.check_state(state)
    if game.load_invariants:
        refuse_violations(tools(game).violations(state), game.load_invariants)


def other_game(game_id: str, data: Mapping[str, Any]) -> str | None:
    """The registered game other than ``game_id`` whose reader takes ``data``, if one does: to say
    "this is a stm state" rather than list the fields ``game_id`` misses.  Only on the error path."""
    for other in game_ids():
        if other == game_id:
            continue
        try:
            make_game(other).state_from_json(data)
        except Exception:  # any failure means: not this game's state
            continue
        return other
    return None


# -- helpers -----------------------------------------------------------------------------------------------


def json_problem(data: Any, root: str = "state") -> tuple[str, str] | None:
    """(field, reason) for JSON beyond the limits of any state (depth, size, integers), else None.
    Iterative, so a deep structure cannot exhaust the stack, and linear in the data."""
    stack: list[tuple[Any, str, int]] = [(data, root, 0)]
    nodes = 0
    while stack:
        value, where, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return root, f"more than {MAX_NODES} values; no state of a board game holds that many"
        if depth > MAX_DEPTH:
            return where, f"nested deeper than the limit of {MAX_DEPTH} levels"
        if isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        if isinstance(value, int):
            if abs(value) > MAX_INT:
                digits = "about " + str(int(value.bit_length() * 0.30103) + 1) + " digits"
                return where, f"an integer of {digits}, beyond any count of a board game (limit {MAX_INT})"
        elif isinstance(value, float):
            return where, f"{_short(repr(value))}: counts are whole numbers"
        elif isinstance(value, dict):
            stack.extend((v, f"{where}.{_short(str(k), 30)}", depth + 1) for k, v in value.items())
        elif isinstance(value, list | tuple):
            stack.extend((v, f"{where}[{i}]", depth + 1) for i, v in enumerate(value))
    return None


def _same_readings(path: str | Path, game: AnyGame, readings: Mapping[str, str]) -> None:
    """A state saved under a reading is read under the same one: another reading may not hold it."""
    for amb_id, key in sorted(readings.items()):
        try:
            playing = game.ruleset.reading(amb_id)
        except RulecraftError:
            raise StateFileError(path, f"readings.{_short(amb_id, 30)}", f"not an ambiguity of {game.id}") from None
        if playing != key:
            raise StateFileError(
                path,
                f"readings.{amb_id}",
                f"the state was saved under {_short(repr(key))}; this command plays {playing!r}"
                f" (add --reading {amb_id}={_short(key)})",
            )


_AT = re.compile(r"^(?P<reason>.*?) @ (?P<field>\S+)$")  # cattrs: "invalid value for type, expected int @ state.x"
_FIELD = re.compile(r"^(?P<field>[A-Za-z_][\w.\[\]-]*): (?P<reason>.+)$", re.S)


def _field_error(message: str, root: str) -> StateError:
    """A reader's message as ``StateError(field, reason)``: the first problem, its field pulled out of
    the ``@ path`` (cattrs) or ``path: reason`` forms, quoted values cut short, one line."""
    first = " ".join(message.split("; ")[0].split())
    found = _AT.match(first)
    if found:
        return StateError(found["field"], _short(found["reason"]))
    found = _FIELD.match(first)
    if found and found["field"].split(".")[0].split("[")[0] == root:
        return StateError(found["field"], _short(found["reason"]))
    return StateError(root, _short(first))


_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def _short(text: str, most: int = MESSAGE_CHARS) -> str:
    """``text`` on one line, each quoted value cut to QUOTE_CHARS and the whole to ``most`` characters."""
    text = _QUOTED.sub(_cut, " ".join(text.split()))
    return text if len(text) <= most else text[: most - 1] + "…"


def _cut(found: re.Match[str]) -> str:
    quoted = found.group(0)
    return quoted if len(quoted) <= QUOTE_CHARS else quoted[: QUOTE_CHARS - 2] + "…" + quoted[0]


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


# -- helpers for the games' check_state -------------------------------------------------------------------


def at_most(field: str, count: int, most: int, what: str, rule: str) -> None:
    """Refuse ``count`` ``what`` where the components allow ``most``: checked before any invariant
    or enumeration, so an absurd state costs no more than counting it."""
    if count > most:
        raise StateError(field, f"{count} {what}; the components allow at most {most} ({rule})")


def refuse_violations(violations: Iterable[Any], names: Collection[str]) -> None:
    """Refuse a state breaking one of the invariants ``names``: the first such violation (its name, the
    rules it protects, the numbers) in one line."""
    for violation in violations:
        if getattr(violation, "invariant", None) in names:
            raise StateError("state", _short(str(violation)))
