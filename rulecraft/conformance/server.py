"""The reference model as a protocol server, versions 1 and 2 (see docs/protocol.md).

``python -m rulecraft.conformance.server air`` reads JSON Lines requests on
standard input and answers each with exactly one JSON line on standard
output.  It is what another implementation is compared against, and a
working example of the protocol for anyone writing their own server.

The server never dies of a bad request: every failure becomes an
``{"ok": false, "error": ...}`` line (or ``rejected`` for an illegal action),
because a conformance driver needs an answer to every line it sends to keep
its requests and responses paired.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from rulecraft.conformance.messages import PROTOCOL, PROTOCOLS, ops, problem
from rulecraft.conformance.outcome import outcome_json, scores_json
from rulecraft.core import AnyGame, Chance, GameOver, RulecraftError, Setup, ToMove
from rulecraft.registry import game_class, make_game
from rulecraft.ruleset import parse_reading_overrides
from rulecraft.statefile import state_from_data

# A line longer than this is refused unparsed: a runaway client must not make
# the server hold an unbounded string (the protocol's documented limit).
MAX_LINE_BYTES = 1 << 20
CAPABILITIES = ("set_state",)
MODELS = ("*",)  # the reference models every top-level state field

Response = dict[str, Any]


def to_move_json(mover: ToMove) -> int | str:
    """The protocol's ``to_move``: a seat number, ``"chance"`` or ``"over"``."""
    if isinstance(mover, Chance):
        return "chance"
    if isinstance(mover, GameOver):
        return "over"
    return int(mover)


def _error(message: str) -> Response:
    return {"ok": False, "error": message}


class Session:
    """One connection's game: the configured instance, the current state and
    the protocol version of the last accepted ``hello`` (1 before any).

    The state is replaced only after a request succeeded, so a failed or
    refused request leaves the session exactly as it was.
    """

    def __init__(
        self, game_id: str, *, readings: Mapping[str, str] | None = None, components: str | None = None
    ) -> None:
        self.game_id = game_id
        self.readings = dict(readings or {})
        self.components = components
        # Configuring validates the server's own readings and pack up front:
        # a misconfigured server fails at start, not on every new_game.
        self.default_game: AnyGame = make_game(game_id, readings=self.readings, components=components)
        self.game: AnyGame | None = None
        self.state: Any = None
        self.protocol = 1

    # -- dispatch ---------------------------------------------------------------------------
    def handle_line(self, line: str) -> tuple[Response, bool]:
        """The answer to one request line, and whether the session should end."""
        try:
            request = json.loads(line)
        except (ValueError, RecursionError) as exc:  # RecursionError: absurdly deep nesting
            return _error(f"the line is not JSON: {exc}"), False
        if not isinstance(request, dict):
            return _error(f"a request is a JSON object with an 'op'; got {type(request).__name__}"), False
        op = request.get("op")
        if not isinstance(op, str):
            return _error("a request needs an 'op' (a string)"), False
        known = ops(self.protocol)
        if op not in known:
            later = [v for v in PROTOCOLS if v > self.protocol and op in ops(v)]
            hint = f" ({op!r} is protocol {later[0]}'s: say hello with it)" if later else ""
            return _error(f"unknown op {op!r}; protocol {self.protocol} knows {', '.join(known)}{hint}"), False
        why = problem("request", op, request, self.protocol)
        if why is not None:
            return _error(why), False
        if op == "quit":
            return {"ok": True}, True
        try:
            return self.handle(op, request), False
        except Exception as exc:  # a model bug must not end the session: report it and go on
            return _error(f"internal error: {type(exc).__name__}: {exc}"), False

    def handle(self, op: str, request: Mapping[str, Any]) -> Response:
        """Answer a schema-valid request (``quit`` excluded)."""
        if op == "hello":
            return self.hello(request["protocol"])
        if op == "new_game":
            return self.new_game(request["setup"], request.get("readings"), request.get("components"))
        if op == "set_state":
            return self.set_state(request["state"], request.get("readings"), request.get("fixture"))
        if self.game is None:
            return _error("no game yet: send new_game or set_state first")
        if op == "state":
            return self.current()
        if op == "legal_actions":
            return self.legal_actions()
        if op == "apply":
            return self.apply(request["action"])
        if op == "scores":
            return {"ok": True, "scores": scores_json(self.game.score_parts(self.state))}
        if op == "outcome":
            return {"ok": True, "outcome": outcome_json(self.game, self.state)}
        raise AssertionError(f"op {op!r} has a schema but no handler")

    # -- ops ------------------------------------------------------------------------------------
    def hello(self, protocol: int) -> Response:
        """Speak the client's version when it is one of ours (the session keeps it); otherwise
        refuse, naming our newest version."""
        spoken = protocol if protocol in PROTOCOLS else PROTOCOL
        answer: Response = {
            "ok": True,
            "game": self.game_id,
            "protocol": spoken,
            "models": list(MODELS),
            "capabilities": list(CAPABILITIES),
        }
        if protocol not in PROTOCOLS:
            # Still the full hello, with our own number, so the client can see
            # which version we speak before it stops.
            versions = " and ".join(map(str, PROTOCOLS))
            answer.update(ok=False, error=f"protocol {protocol} is not supported; this server speaks {versions}")
        else:
            self.protocol = protocol
        return answer

    def new_game(self, setup_data: Any, readings: Any, components: Any) -> Response:
        try:
            setup = Setup.from_json(setup_data)
            game = self._configure(readings, components)
            state = game.start(setup)
        except RulecraftError as exc:
            return _error(str(exc))
        self.game, self.state = game, state
        return self.current()

    def set_state(
        self,
        data: Mapping[str, Any],
        readings: Mapping[str, str] | None = None,
        fixture: Mapping[str, Any] | None = None,
    ) -> Response:
        try:
            # A given state may come with its readings and a fixture (a printed example's own
            # small board); both configure a fresh game, never the server's default one.
            game = self._configure(readings, None) if readings or fixture else (self.game or self.default_game)
            if fixture:
                if game is self.default_game:
                    game = make_game(self.game_id, readings=dict(self.readings), components=self.components)
                game.load_fixture(fixture)
            # The checks of a state file: bounded size and depth, field errors in one line, and the
            # component counts and invariants before any legal_actions can enumerate a broken state.
            state = state_from_data(game, data)
        except RulecraftError as exc:
            return _error(str(exc))
        self.game, self.state = game, state
        return {"ok": True, "to_move": to_move_json(game.to_move(state))}

    def current(self) -> Response:
        assert self.game is not None
        mover = to_move_json(self.game.to_move(self.state))
        answer: Response = {"ok": True, "state": self.game.state_to_json(self.state), "to_move": mover}
        if self.protocol >= 2 and mover == "over":
            answer["outcome"] = outcome_json(self.game, self.state)  # protocol 2: the count at the end
        return answer

    def legal_actions(self) -> Response:
        assert self.game is not None
        # Chance steps have no legal actions of a seat: the client forces the
        # outcome with apply instead (docs/protocol.md, "Chance").
        if isinstance(self.game.to_move(self.state), (Chance, GameOver)):
            return {"ok": True, "actions": []}
        return {"ok": True, "actions": [self.game.action_to_json(a) for a in self.game.legal_actions(self.state)]}

    def apply(self, data: Mapping[str, Any]) -> Response:
        game = self.game
        assert game is not None
        try:
            action = game.action_from_json(data)
        except RulecraftError as exc:
            return _error(str(exc))
        rejection = game.check(self.state, action)
        if rejection is not None:
            return {"ok": False, "rejected": {"rule": rejection.rule, "reason": rejection.reason}}
        # transition, not apply: check has just run and apply would repeat it.
        self.state = game.transition(self.state, action)
        return self.current()

    # -- configuration ------------------------------------------------------------------------------
    def _configure(self, readings: Mapping[str, str] | None, components: Mapping[str, Any] | None) -> AnyGame:
        """The game for one new_game: the server's readings with the request's
        on top, and the request's pack or else the server's."""
        if not readings and components is None:
            return self.default_game
        merged = {**self.readings, **(readings or {})}
        if components is None:
            return make_game(self.game_id, readings=merged, components=self.components)
        # The games load packs from files only; JSON is YAML, so a .json file
        # in a private folder goes through the same loader and its checks.
        with tempfile.TemporaryDirectory(prefix="rulecraft-pack-") as folder:
            path = Path(folder) / "components.json"
            path.write_text(json.dumps(components), "utf-8")
            try:
                return make_game(self.game_id, readings=merged, components=str(path))
            except RulecraftError as exc:
                # Name the pack as the client knows it, not by our temporary path.
                raise RulecraftError(str(exc).replace(str(path), "components")) from None


def _read_line(stdin: TextIO) -> tuple[str | None, str | None]:
    """The next request line (None at end of input) or why it was refused."""
    try:
        # A bounded read: characters are at least a byte each, so MAX + 1
        # characters are enough to tell an over-long line.
        line = stdin.readline(MAX_LINE_BYTES + 1)
    except UnicodeDecodeError as exc:
        return "", f"the line is not UTF-8: {exc}"
    if not line:
        return None, None
    ended = line.endswith("\n")
    if len(line.encode("utf-8", "surrogatepass")) - ended > MAX_LINE_BYTES:
        # Drain the rest of the over-long line so the next request starts clean.
        rest = line
        while rest and not rest.endswith("\n"):
            rest = stdin.readline(MAX_LINE_BYTES)
        return "", f"the line is longer than the limit of {MAX_LINE_BYTES} bytes"
    return line, None


def _utf8(stream: TextIO, *, errors: str) -> TextIO:
    """The process stream, switched to UTF-8: the protocol is UTF-8 whatever
    the locale, and undecodable input becomes a refused line, not a crash."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(encoding="utf-8", errors=errors)
    return stream


def serve(
    game_id: str,
    *,
    readings: Mapping[str, str] | None = None,
    components: str | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Answer protocol requests (version 1, or 2 once ``hello`` asked for it) from ``stdin`` on
    ``stdout`` until ``quit`` or the end of input; returns the exit status (0).

    ``stdin``/``stdout`` default to the process's streams (looked up at call
    time, so a test's replaced ``sys.stdout`` is honoured), switched to UTF-8.
    An unknown game, reading or pack raises :class:`RulecraftError` before
    any line is read: that is the server's configuration, not a request.
    """
    session = Session(game_id, readings=readings, components=components)
    if stdin is None:
        stdin = _utf8(sys.stdin, errors="replace")
    if stdout is None:
        stdout = _utf8(sys.stdout, errors="strict")
    while True:
        line, refused = _read_line(stdin)
        if line is None:
            return 0
        if refused is None and not line.strip():
            continue  # a blank line is no request: answering it would shift every later answer
        if refused is not None:
            response, done = _error(refused), False
        else:
            response, done = session.handle_line(line)
        try:
            # ASCII escapes keep the output valid UTF-8 whatever the stream's encoding.
            stdout.write(json.dumps(response, separators=(",", ":")) + "\n")
            stdout.flush()
        except BrokenPipeError:
            return 0  # the client has gone: nobody is left to answer
        if done:
            return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m rulecraft.conformance.server",
        description="The rulecraft reference model as a conformance-protocol server (JSON Lines on stdin/stdout).",
    )
    parser.add_argument("game", help="the game id, e.g. air or kas")
    parser.add_argument(
        "--reading",
        action="append",
        default=[],
        metavar="AMB=READING",
        help="play an ambiguity under a non-default reading, e.g. AIR-AMB-09=C (repeatable)",
    )
    parser.add_argument("--components", metavar="FILE", help="a component pack (YAML) instead of the bundled one")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        game_class(args.game)
        readings = parse_reading_overrides(args.reading)
        return serve(args.game, readings=readings, components=args.components)
    except RulecraftError as exc:
        print(f"rulecraft server: error: {exc}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
