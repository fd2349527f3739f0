"""A driver for an implementation under test that never crashes or hangs rulecraft.

The implementation is a separate process speaking the protocol (see
``messages.py``; version 2, or 1 when that is all it speaks): one JSON request
line on its standard input, one JSON response line on its standard output.  Anything it does wrong — dying,
stalling, printing garbage or a gigantic line, answering outside the schema,
speaking another protocol version or another game — becomes an
:class:`ImplementationFault` with the evidence attached, and the process (with
every process it started) is killed, so a broken implementation costs one
finding and never a stuck or crashed run.

    with Implementation("./my-impl --air", game="air", timeout=5) as impl:
        impl.hello()
        impl.new_game({"players": 3})
        impl.apply({"kind": "pass"})

Not thread-safe: one driver, one conversation, one caller.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, NoReturn

from rulecraft.conformance.messages import PROTOCOL, PROTOCOLS, problem
from rulecraft.core import RulecraftError

FaultKind = Literal["crash", "hang", "malformed", "schema", "oversize", "version", "game"]
FAULT_KINDS: Final = frozenset({"crash", "hang", "malformed", "schema", "oversize", "version", "game"})

STDERR_TAIL: Final = 4096  # bytes of standard error kept as evidence
EVIDENCE_CHARS: Final = 200  # characters of a bad line quoted as evidence
TRANSCRIPT_LENGTH: Final = 20
KILL_GRACE: Final = 1.0  # seconds between SIGTERM and SIGKILL
QUIT_WAIT: Final = 1.0  # how long close() waits for a voluntary exit after quit
_CHUNK: Final = 1 << 16


class ImplementationFault(RulecraftError):
    """The implementation under test misbehaved; the process has been killed.

    ``kind`` says how (one of :data:`FAULT_KINDS`), ``message`` what was seen,
    ``request`` the last request sent (None if it failed before any),
    ``stderr`` the tail of its standard error (at most 4 KiB) and
    ``returncode`` its exit status (negative: killed by that signal).
    """

    def __init__(
        self,
        kind: FaultKind,
        message: str,
        *,
        request: dict[str, Any] | None = None,
        stderr: str = "",
        returncode: int | None = None,
    ) -> None:
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault kind {kind!r}")
        self.kind: FaultKind = kind
        self.message = message
        self.request = request
        self.stderr = stderr
        self.returncode = returncode
        super().__init__(self._summary())

    def _summary(self) -> str:
        op = self.request.get("op") if isinstance(self.request, dict) else None
        during = f"while answering {op!r}" if op is not None else "before any request"
        parts = [f"implementation fault ({self.kind}) {during}: {self.message}"]
        if self.returncode is not None:
            parts.append(f"exit status {self.returncode}{_signal_name(self.returncode)}")
        tail = self.stderr.strip()
        if tail:
            # The last few lines are what a reader needs (the exception, usually);
            # the whole tail stays on .stderr.
            lines = tail.splitlines()[-6:]
            parts.append("standard error ends with:\n  " + "\n  ".join(lines))
        return "; ".join(parts)

    def __str__(self) -> str:
        return self._summary()


def _signal_name(returncode: int) -> str:
    if returncode >= 0:
        return ""
    try:
        return f" (killed by {signal.Signals(-returncode).name})"
    except ValueError:
        return ""


def _strict_constant(name: str) -> float:
    # Python's json accepts NaN and Infinity; other languages' parsers do not,
    # so an implementation that emits them is not speaking JSON.
    raise ValueError(f"{name} is not JSON")


def _quote(data: bytes | str) -> str:
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return repr(text[:EVIDENCE_CHARS]) + ("…" if len(text) > EVIDENCE_CHARS else "")


def _is_error_reply(reply: Any) -> bool:
    return isinstance(reply, dict) and reply.get("ok") is False and isinstance(reply.get("error"), str)


class _StderrDrain:
    """Reads a process's standard error on a daemon thread, keeping the tail.

    Draining matters: a chatty implementation blocks once the pipe fills
    (64 KiB on Linux), which would look like a hang.  The loop polls a stop
    flag because a grandchild that escaped the kill could hold the pipe open
    forever and the thread must still end.
    """

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._buf = bytearray()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"rulecraft-stderr-{fd}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        with selectors.DefaultSelector() as sel:
            sel.register(self._fd, selectors.EVENT_READ)
            while not self._stop.is_set():
                if not sel.select(0.1):
                    continue
                try:
                    chunk = os.read(self._fd, _CHUNK)
                except OSError:
                    return
                if not chunk:
                    return
                with self._lock:
                    self._buf += chunk
                    del self._buf[:-STDERR_TAIL]

    def tail(self) -> str:
        with self._lock:
            data = bytes(self._buf)
        # Cutting to the tail may split a UTF-8 character: drop its continuation
        # bytes so the text stays within the byte bound.
        start = 0
        while start < min(len(data), 3) and 0x80 <= data[start] < 0xC0:
            start += 1
        return data[start:].decode("utf-8", "replace")

    def finish(self, timeout: float) -> None:
        """Let the reader reach EOF (the process is dead), then stop it."""
        self._thread.join(timeout)
        self._stop.set()
        self._thread.join(1.0)


def _exited(proc: subprocess.Popen[bytes]) -> bool:
    """Whether the process has exited, without reaping it.

    Not reaping keeps its pid (and so its process-group id) reserved until the
    group has been killed: a reaped pid may be reused by an unrelated process.
    """
    if proc.returncode is not None:
        return True
    try:
        info = os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True  # already reaped elsewhere
    return info is not None


def _wait_exited(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not _exited(proc):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def _start_time(pid: int) -> str | None:
    """A process's start time (field 22 of /proc/PID/stat), which tells it from a later one with the
    same pid; None when it is gone or there is no /proc (the tree is then not searched)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()  # after "pid (comm) ": the command may hold spaces
    return fields[19] if len(fields) > 19 else None


def _descendants(root: int) -> list[tuple[int, str]]:
    """Every process below ``root`` (pid, start time), from /proc; empty where there is none."""
    children: dict[int, list[int]] = {}
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1].isdigit():
            children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[tuple[int, str]] = []
    todo = list(children.get(root, ()))
    while todo and len(found) < 10_000:
        pid = todo.pop()
        started = _start_time(pid)
        if started is not None:
            found.append((pid, started))
            todo.extend(children.get(pid, ()))
    return found


def _kill_group(proc: subprocess.Popen[bytes], drain: _StderrDrain | None, grace: float = KILL_GRACE) -> None:
    """SIGTERM the process group, SIGKILL it after ``grace`` seconds, reap, close the pipes.

    The group is SIGKILLed even when the leader left in time, so grandchildren
    that ignored SIGTERM go too.  Safe to call more than once.
    """
    if proc.returncode is None:
        # A descendant that left the group (setsid: a daemon) is found through the process tree while
        # the leader still holds it, and killed by pid, checked against its start time (no reused pid).
        family = _descendants(proc.pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGTERM)
        _wait_exited(proc, grace)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        for pid, started in family:
            if _start_time(pid) == started:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            proc.wait()
    if drain is not None:
        drain.finish(1.0)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()


class Implementation:
    """One implementation under test, driven over the protocol.

    ``protocol`` is the version in use: 1 until :meth:`hello` has agreed on
    another (2, or 1 from a server that speaks only that).

    ``command`` is an argv list or a shell-like string (split with
    :func:`shlex.split`, never given to a shell).  ``timeout`` bounds each
    request (writing it and reading the reply), ``max_line`` the reply size in
    bytes.  ``env`` replaces the environment, as in :mod:`subprocess`.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        game: str | None = None,
        timeout: float = 5.0,
        max_line: int = 1 << 20,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise RulecraftError("implementation: an empty command")
        if timeout <= 0 or max_line <= 0:
            raise RulecraftError("implementation: timeout and max_line must be positive")
        self.argv: list[str] = argv
        self.game = game
        self.timeout = timeout
        self.max_line = max_line
        self.cwd = cwd
        self.env: dict[str, str] | None = dict(env) if env is not None else None
        self._proc: subprocess.Popen[bytes] | None = None
        self._drain: _StderrDrain | None = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._buf = bytearray()  # stdout bytes read past the last reply line
        self._last_request: dict[str, Any] | None = None
        self._transcript: deque[tuple[dict[str, Any], dict[str, Any] | str]] = deque(maxlen=TRANSCRIPT_LENGTH)
        self.protocol = 1  # a process starts in version 1 until hello agrees on another

    # -- lifecycle -----------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The running process's pid (also its process-group id), or None."""
        return self._proc.pid if self._proc is not None else None

    @property
    def alive(self) -> bool:
        return self._proc is not None and not _exited(self._proc)

    def start(self) -> None:
        """Launch the implementation; a launch failure is a "crash" fault."""
        if self._proc is not None:
            raise RulecraftError("implementation: already started (use restart())")
        try:
            # Binary pipes, unbuffered: replies are read from the file descriptor
            # with a deadline and a size limit, which a TextIOWrapper's own
            # buffering would defeat; the encoding is UTF-8 whatever the locale.
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,  # its own process group, killed as a whole
            )
        except OSError as exc:
            raise ImplementationFault("crash", f"could not start {shlex.join(self.argv)}: {exc}") from exc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        # Non-blocking stdin: a process that stops reading must not block us
        # once the pipe is full (a large set_state, say).
        os.set_blocking(proc.stdin.fileno(), False)
        self._proc = proc
        self._drain = _StderrDrain(proc.stderr.fileno())
        self._buf = bytearray()
        self.protocol = 1
        # If close() is forgotten, garbage collection or interpreter exit still
        # kills the group: the callback holds the process, never self.
        self._finalizer = weakref.finalize(self, _kill_group, proc, self._drain)

    def _kill(self) -> None:
        if self._finalizer is not None:
            self._finalizer()  # kills the group; runs at most once
        self._proc = None
        self._drain = None
        self._finalizer = None
        self._buf = bytearray()

    def restart(self) -> None:
        """Kill the current process (if any) and start a fresh one."""
        self._kill()
        self.start()

    def close(self) -> None:
        """Ask the implementation to quit, give it a moment, then kill its group.  Idempotent."""
        proc = self._proc
        if proc is None:
            return
        if not _exited(proc):
            with contextlib.suppress(ImplementationFault, RulecraftError):
                self._exchange({"op": "quit"}, timeout=min(self.timeout, QUIT_WAIT))
            if self._proc is not None:  # quit did not fault: let it leave on its own
                _wait_exited(proc, QUIT_WAIT)
        self._kill()

    def __enter__(self) -> Implementation:
        if self._proc is None:
            self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- evidence ------------------------------------------------------------

    def transcript(self) -> list[tuple[dict[str, Any], dict[str, Any] | str]]:
        """The last exchanges, oldest first: (request, reply), the reply a string when it was not one."""
        return list(self._transcript)

    def stderr(self) -> str:
        """The tail of the running process's standard error so far."""
        return self._drain.tail() if self._drain is not None else ""

    # -- requests ------------------------------------------------------------

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its validated reply, or raise ImplementationFault.

        The reply either fits the op's response schema or is a refusal
        ``{"ok": false, "error": ...}``, which any op may get: check ``ok``.
        """
        return self._exchange(message, timeout=self.timeout)

    def hello(self) -> dict[str, Any]:
        """Handshake: the reply (``game``, ``protocol``, ``models``, ``capabilities``) once checked,
        with :attr:`protocol` set to the version agreed.

        rulecraft asks for its newest version (2).  A server that answers with
        version 1 — refusing 2, as a version-1 server does, or simply naming
        1 — is no fault: hello is said again in version 1 if it was refused,
        and the session goes on in version 1 (the reply returned is that
        version's).  Any other number, or a refusal of a version the server
        says it speaks, is a "version" fault.
        """
        reply = self._hello(PROTOCOL)
        if reply.get("protocol") in PROTOCOLS and reply.get("protocol") != PROTOCOL:
            older = int(reply["protocol"])
            if reply.get("ok") is False:
                reply = self._hello(older)
            self._agree(reply, older)
        else:
            self._agree(reply, PROTOCOL)
        if self.game is not None and reply["game"] != self.game:
            self._fault("game", f"it implements game {reply['game']!r}, {self.game!r} was expected")
        return reply

    def _hello(self, version: int) -> dict[str, Any]:
        return self.request({"op": "hello", "protocol": version})

    def _agree(self, reply: dict[str, Any], version: int) -> None:
        theirs = reply.get("protocol")
        refused = f" (it answered: {reply['error']})" if reply.get("ok") is False else ""
        if theirs != version:
            speaks = " and ".join(map(str, PROTOCOLS))
            self._fault("version", f"it speaks protocol {theirs}, rulecraft speaks {speaks}{refused}")
        if refused:
            # Same protocol number yet no handshake: nothing after hello can work.
            self._fault("version", f"it refused hello although it speaks protocol {version}{refused}")
        self.protocol = version

    def new_game(
        self, setup: dict[str, Any], readings: dict[str, str] | None = None, components: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        message: dict[str, Any] = {"op": "new_game", "setup": setup}
        if readings is not None:
            message["readings"] = readings
        if components is not None:
            message["components"] = components
        return self.request(message)

    def set_state(
        self, state: dict[str, Any], *, readings: dict[str, str] | None = None, fixture: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        message: dict[str, Any] = {"op": "set_state", "state": state}
        if readings:
            message["readings"] = readings
        if fixture:
            message["fixture"] = fixture
        return self.request(message)

    def state(self) -> dict[str, Any]:
        return self.request({"op": "state"})

    def legal_actions(self) -> dict[str, Any]:
        return self.request({"op": "legal_actions"})

    def apply(self, action: dict[str, Any]) -> dict[str, Any]:
        return self.request({"op": "apply", "action": action})

    def scores(self) -> dict[str, Any]:
        """Protocol 2: the score parts per seat, as counted now."""
        return self.request({"op": "scores"})

    def outcome(self) -> dict[str, Any]:
        """Protocol 2: the game's outcome (``null`` before its end)."""
        return self.request({"op": "outcome"})

    # -- internals -----------------------------------------------------------

    def _fault(self, kind: FaultKind, message: str, reply: str | None = None) -> NoReturn:
        """Kill the process, record the evidence and raise the fault."""
        if reply is not None and self._last_request is not None:
            self._transcript.append((self._last_request, reply))
        drain, proc = self._drain, self._proc
        self._kill()
        raise ImplementationFault(
            kind,
            message,
            request=self._last_request,
            stderr=drain.tail() if drain is not None else "",
            returncode=proc.returncode if proc is not None else None,
        )

    def _exchange(self, message: dict[str, Any], *, timeout: float) -> dict[str, Any]:
        # A bad request is the caller's bug, not the implementation's: refuse it
        # before sending so the fault kinds stay about the implementation.
        op = message.get("op") if isinstance(message, dict) else None
        why = problem("request", op, message, self.protocol) if isinstance(op, str) else "a request needs a string 'op'"
        if why is not None:
            raise RulecraftError(f"implementation: refusing to send an invalid request: {why}")
        if self._proc is None:
            raise RulecraftError("implementation: not running (call start() or restart())")
        assert isinstance(op, str)
        try:
            encoded = json.dumps(message, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise RulecraftError(f"implementation: refusing to send a request that is not JSON: {exc}") from exc
        self._last_request = json.loads(encoded)  # a private copy, immune to the caller's later edits
        line = (encoded + "\n").encode("utf-8")
        deadline = time.monotonic() + timeout
        self._write(line, deadline, timeout)
        raw = self._read_line(deadline, timeout)
        try:
            text = raw.decode("utf-8")
            reply = json.loads(text, parse_constant=_strict_constant)
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are both ValueErrors
            self._fault("malformed", f"its reply is not JSON ({exc}): {_quote(raw)}", reply=_quote(raw))
        why = problem("response", op, reply, self.protocol)
        if why is not None and _is_error_reply(reply):
            # docs/protocol.md: any request may be refused with {"ok": false,
            # "error": ...} (no game yet, say), even where the op's own schema
            # has no such fields; that is an answer for the caller, not a fault.
            why = None
        if why is not None:
            self._fault("schema", f"{why}; reply was {_quote(text)}", reply=_quote(text))
        self._transcript.append((self._last_request, reply))
        return reply  # type: ignore[no-any-return]  # the schema check made it an object

    def _crash(self, what: str, reply: str) -> NoReturn:
        # Give a dying process a moment so its exit status and last words on
        # standard error (a traceback, typically) make it into the evidence.
        if self._proc is not None:
            _wait_exited(self._proc, KILL_GRACE)
        self._fault("crash", what, reply=reply)

    def _write(self, line: bytes, deadline: float, timeout: float) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        if _exited(proc):
            self._crash("the process had already exited", reply="<not sent: process gone>")
        fd = proc.stdin.fileno()
        view = memoryview(line)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    self._fault(
                        "hang",
                        f"it stopped reading its input: {len(view)} of {len(line)} request bytes unsent "
                        f"after {timeout:g} s",
                        reply="<request not fully sent>",
                    )
                if not sel.select(remaining):
                    continue
                try:
                    written = os.write(fd, view)
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    self._crash("it closed its standard input (or died) before reading the request", "<not sent>")
                view = view[written:]

    def _read_line(self, deadline: float, timeout: float) -> bytes:
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        scanned = 0  # bytes of self._buf already searched for a newline
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while True:
                end = self._buf.find(b"\n", scanned)
                if end >= 0:
                    if end > self.max_line:
                        break
                    line = bytes(self._buf[:end])
                    # Bytes after the newline stay buffered: they are the start
                    # of the next reply if the implementation wrote ahead.
                    del self._buf[: end + 1]
                    return line
                scanned = len(self._buf)
                if scanned > self.max_line:
                    break  # no need to see the rest: it is already too long
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    partial = f" (a partial line without newline: {_quote(bytes(self._buf))})" if self._buf else ""
                    self._fault("hang", f"no reply within {timeout:g} s{partial}", reply=f"<no reply in {timeout:g} s>")
                # Wake up now and then: if the process died but a grandchild holds
                # its stdout open, no EOF ever comes, and waiting out the timeout
                # would misreport a crash as a hang.
                if not sel.select(min(remaining, 0.1)):
                    if _exited(proc):
                        self._crash("it exited without replying", reply="<exited>")
                    continue
                try:
                    chunk = os.read(fd, _CHUNK)
                except OSError as exc:
                    self._crash(f"reading its output failed: {exc}", reply="<read error>")
                if not chunk:
                    partial = f" after a partial line {_quote(bytes(self._buf))}" if self._buf else ""
                    self._crash(f"its standard output closed (end of file) before a reply{partial}", reply="<EOF>")
                self._buf += chunk
        head = _quote(bytes(self._buf[:EVIDENCE_CHARS]))
        self._fault(
            "oversize",
            f"its reply line exceeds {self.max_line} bytes (reading stopped at {len(self._buf)}); it begins {head}",
            reply=f"<over {self.max_line} bytes: {head}>",
        )
