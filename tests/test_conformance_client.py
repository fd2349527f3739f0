"""The conformance driver against misbehaving fake implementations (tests/fixtures/impls/).

Every fault must arrive as an ImplementationFault of the right kind, with its
evidence, within a bounded time, and leave no process behind.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import os
import random
import shlex
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulecraft.conformance.client import STDERR_TAIL, Implementation, ImplementationFault
from rulecraft.core import RulecraftError

FIXTURES = Path(__file__).parent / "fixtures" / "impls"
TIMEOUT = 0.5  # short, so the whole file runs in seconds
SLACK = 3.0  # the kill's 1 s grace plus scheduling noise
# The timeout for a process that never answers, where waiting it out is not what the test checks (the
# kill of a whole tree is): a fifth of TIMEOUT, so that those tests do not idle.
NEVER_ANSWERS = 0.1


def command(name: str, *args: str) -> list[str]:
    return [sys.executable, str(FIXTURES / f"{name}.py"), *args]


def make(name: str, *args: str, **kwargs: Any) -> Implementation:
    kwargs.setdefault("timeout", TIMEOUT)
    return Implementation(command(name, *args), **kwargs)


def gone(pid: int, *, zombie_ok: bool = False, within: float = 2.0) -> bool:
    """Whether ``pid`` has ended (waiting a little: signals land asynchronously).

    ``zombie_ok`` is for grandchildren: once their parent dies they belong to
    init, and in a container init may never reap them; a zombie runs nothing.
    """
    deadline = time.monotonic() + within
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if zombie_ok:
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except FileNotFoundError:
                return True
            if stat.rsplit(")", 1)[1].split()[0] == "Z":
                return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


@pytest.fixture
def clock() -> Iterator[list[float]]:
    started = [time.monotonic()]
    yield started


def elapsed(clock: list[float]) -> float:
    return time.monotonic() - clock[0]


# -- a good implementation -------------------------------------------------------


def test_good_implementation_round_trip() -> None:
    with make("good", game="air") as impl:
        pid = impl.pid
        assert pid is not None and impl.alive
        hello = impl.hello()
        assert hello["game"] == "air" and hello["protocol"] == 1
        assert impl.protocol == 1  # it named version 1 when asked for 2: the session goes on in 1
        assert hello["models"] == ["turn", "board"] and hello["capabilities"] == ["set_state"]
        assert impl.new_game({"players": 3}, readings={"x": "y"}, components={})["ok"] is True
        assert impl.state() == {"state": {"turn": 1, "board": []}, "to_move": 0}
        assert impl.legal_actions() == {"actions": [{"kind": "pass"}]}
        assert impl.apply({"kind": "pass"})["ok"] is True
        assert impl.set_state({"turn": 2})["ok"] is True
        ops = [request["op"] for request, _ in impl.transcript()]
        assert ops == ["hello", "new_game", "state", "legal_actions", "apply", "set_state"]
        assert impl.transcript()[2][1] == {"state": {"turn": 1, "board": []}, "to_move": 0}
    assert (impl.alive, impl.pid) == (False, None)  # one comparison: mypy narrowed .alive to True above
    assert gone(pid)
    impl.close()  # idempotent


def test_string_command_is_split_not_shelled() -> None:
    line = " ".join(shlex.quote(part) for part in command("good"))
    with Implementation(line, timeout=TIMEOUT) as impl:
        assert impl.hello()["game"] == "air"


def test_slow_start_passes_with_a_normal_timeout(clock: list[float]) -> None:
    with make("slow_start", timeout=5.0) as impl:
        assert impl.hello()["game"] == "air"
    assert 0.5 <= elapsed(clock) < 5.0


def test_transcript_keeps_the_last_twenty() -> None:
    with make("good") as impl:
        impl.hello()
        for _ in range(25):
            impl.state()
        transcript = impl.transcript()
    assert len(transcript) == 20
    assert all(request == {"op": "state"} for request, _ in transcript)


def test_invalid_requests_are_refused_before_sending() -> None:
    with make("good") as impl:
        with pytest.raises(RulecraftError, match="invalid request") as info:
            impl.request({"op": "apply"})  # no action
        assert not isinstance(info.value, ImplementationFault)
        with pytest.raises(RulecraftError, match="invalid request"):
            impl.request({"op": "teleport"})
        with pytest.raises(RulecraftError, match="not JSON"):
            impl.set_state({"cards": {1, 2}})
        assert impl.alive and impl.hello()["game"] == "air"  # the process was not punished


# -- faults -----------------------------------------------------------------------


def test_crash_has_exit_status_and_stderr(clock: list[float]) -> None:
    impl = make("crash_on_apply")
    with impl:
        impl.hello()
        pid = impl.pid
        assert pid is not None
        clock[0] = time.monotonic()
        with pytest.raises(ImplementationFault) as info:
            impl.apply({"kind": "pass"})
        assert elapsed(clock) < TIMEOUT + SLACK
        fault = info.value
        assert fault.kind == "crash"
        assert fault.returncode == 3
        assert fault.request == {"op": "apply", "action": {"kind": "pass"}}
        # The traceback survives although ~100 KiB of noise came first: the tail is kept, bounded.
        assert "RuntimeError: boom: apply is not implemented" in fault.stderr
        assert "Traceback" in fault.stderr
        assert len(fault.stderr.encode()) <= STDERR_TAIL
        text = str(fault)
        assert "crash" in text and "'apply'" in text and "exit status 3" in text and "boom" in text
        assert not impl.alive
        assert gone(pid)
        assert impl.transcript()[-1] == (fault.request, "<EOF>")
        with pytest.raises(RulecraftError, match="not running"):
            impl.state()


def test_hang_times_out_and_restart_recovers(clock: list[float]) -> None:
    with make("hang") as impl:
        impl.hello()
        pid = impl.pid
        assert pid is not None
        clock[0] = time.monotonic()
        with pytest.raises(ImplementationFault) as info:
            impl.state()
        assert elapsed(clock) < TIMEOUT + SLACK
        assert info.value.kind == "hang"
        assert info.value.request == {"op": "state"}
        assert "'state'" in str(info.value) and "no reply within 0.5 s" in str(info.value)
        assert gone(pid)
        impl.restart()
        assert impl.pid != pid
        assert impl.hello()["game"] == "air"  # the fresh process answers its first request again


def test_a_process_that_stops_reading_cannot_block_a_large_request(clock: list[float]) -> None:
    with Implementation(["sleep", "30"], timeout=NEVER_ANSWERS) as impl:  # never reads its input
        with pytest.raises(ImplementationFault) as info:
            impl.set_state({"padding": "x" * (4 << 20)})  # far more than a pipe holds
        assert elapsed(clock) < NEVER_ANSWERS + SLACK
        assert info.value.kind == "hang" and "stopped reading its input" in str(info.value)


def test_garbage_is_malformed_with_the_line_as_evidence(clock: list[float]) -> None:
    with make("garbage") as impl:
        pid = impl.pid
        assert pid is not None
        with pytest.raises(ImplementationFault) as info:
            impl.hello()
    assert elapsed(clock) < TIMEOUT + SLACK
    assert info.value.kind == "malformed"
    assert "not json{" in info.value.message and "not json{" in str(info.value)
    assert "'hello'" in str(info.value)
    assert gone(pid)


def test_schema_breaker(clock: list[float]) -> None:
    with make("schema_breaker") as impl, pytest.raises(ImplementationFault) as info:
        impl.hello()
    assert elapsed(clock) < TIMEOUT + SLACK
    assert info.value.kind == "schema"
    assert "hello response" in info.value.message and '"game": 5' in info.value.message
    assert "schema" in str(info.value)


def test_huge_line_is_oversize_without_reading_it_all(clock: list[float]) -> None:
    with make("huge", max_line=1 << 20) as impl:
        pid = impl.pid
        assert pid is not None
        with pytest.raises(ImplementationFault) as info:
            impl.hello()
    assert elapsed(clock) < TIMEOUT + SLACK
    assert info.value.kind == "oversize"
    assert "exceeds 1048576 bytes" in info.value.message and '{"game": "air"' in info.value.message
    assert len(str(info.value)) < 1000  # the evidence is a quotation, not the line
    assert gone(pid)


def test_wrong_version(clock: list[float]) -> None:
    with make("wrong_version") as impl:
        pid = impl.pid
        assert pid is not None
        with pytest.raises(ImplementationFault) as info:
            impl.hello()
        assert info.value.kind == "version" and "protocol 3" in str(info.value)
        assert "rulecraft speaks 1 and 2" in str(info.value)
        assert not impl.alive and gone(pid)
    assert elapsed(clock) < TIMEOUT + SLACK


def test_refusals_are_answers_not_faults() -> None:
    # docs/protocol.md: any op may be answered {"ok": false, "error": ...}, even
    # where the op's schema has no such fields (state before any game, say).
    with make("refuses") as impl:
        assert impl.state() == {"ok": False, "error": "no game yet"}
        assert impl.legal_actions() == {"ok": False, "error": "no game yet"}
        assert impl.alive
        with pytest.raises(ImplementationFault) as info:
            impl.hello()
    assert info.value.kind == "version"
    assert "protocol 2" in str(info.value) and "this server speaks 2" in str(info.value)


def test_wrong_game() -> None:
    with make("good", game="kas") as impl, pytest.raises(ImplementationFault) as info:
        impl.hello()
    assert info.value.kind == "game"
    assert "'air'" in str(info.value) and "'kas'" in str(info.value)


def test_external_kill_is_a_crash_and_restart_recovers() -> None:
    with make("good") as impl:
        impl.hello()
        pid = impl.pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        with pytest.raises(ImplementationFault) as info:
            impl.state()
        assert info.value.kind == "crash"
        assert info.value.returncode == -signal.SIGKILL and "SIGKILL" in str(info.value)
        impl.restart()
        assert impl.hello()["game"] == "air"
        assert impl.state()["to_move"] == 0


def test_exit_is_a_crash_even_when_a_grandchild_holds_stdout(tmp_path: Path, clock: list[float]) -> None:
    pidfile = tmp_path / "grandchild.pid"
    script = f"sleep 30 & echo $! > {shlex.quote(str(pidfile))}; read line; exit 5"
    with Implementation(["sh", "-c", script], timeout=5.0) as impl, pytest.raises(ImplementationFault) as info:
        impl.hello()
    assert elapsed(clock) < 2.0  # not the 5 s timeout: the driver noticed the exit
    assert info.value.kind == "crash" and info.value.returncode == 5
    assert gone(int(pidfile.read_text()), zombie_ok=True)


def test_a_command_that_cannot_start_is_a_crash() -> None:
    impl = Implementation([str(FIXTURES / "no-such-implementation")], timeout=TIMEOUT)
    with pytest.raises(ImplementationFault) as info:
        impl.start()
    assert info.value.kind == "crash" and "could not start" in str(info.value)
    impl.close()


# -- cleaning up ------------------------------------------------------------------


def test_close_kills_an_implementation_that_ignores_quit_and_sigterm(clock: list[float]) -> None:
    impl = make("ignores_quit")
    impl.start()
    impl.hello()
    pid = impl.pid
    assert pid is not None
    clock[0] = time.monotonic()
    impl.close()
    assert elapsed(clock) < TIMEOUT + SLACK
    assert gone(pid, within=0)
    impl.close()


def _grandchild(pidfile: Path) -> int:
    deadline = time.monotonic() + 5
    while not pidfile.exists():
        assert time.monotonic() < deadline, "the fixture never wrote its grandchild's pid"
        time.sleep(0.02)
    return int(pidfile.read_text())


def test_hang_fault_kills_the_grandchild_too(tmp_path: Path, clock: list[float]) -> None:
    pidfile = tmp_path / "grandchild.pid"
    with make("forks_child", str(pidfile), timeout=NEVER_ANSWERS) as impl:
        grandchild = _grandchild(pidfile)
        pid = impl.pid
        assert pid is not None and not gone(grandchild, within=0)
        clock[0] = time.monotonic()
        with pytest.raises(ImplementationFault) as info:
            impl.hello()
        assert elapsed(clock) < NEVER_ANSWERS + SLACK
        assert info.value.kind == "hang"
    assert gone(pid)
    assert gone(grandchild, zombie_ok=True)


def test_close_kills_the_grandchild_too(tmp_path: Path) -> None:
    pidfile = tmp_path / "grandchild.pid"
    impl = make("forks_child", str(pidfile), timeout=NEVER_ANSWERS)  # close()'s quit waits it out
    impl.start()
    grandchild = _grandchild(pidfile)
    impl.close()
    assert gone(grandchild, zombie_ok=True)


def test_close_kills_a_grandchild_that_left_the_process_group(tmp_path: Path) -> None:
    """A daemonising grandchild (setsid: its own session and group) escapes a kill of the group; the
    implementation's whole tree of processes is killed instead."""
    pidfile = tmp_path / "grandchild.pid"
    impl = make("forks_child", str(pidfile), "--setsid", timeout=NEVER_ANSWERS)
    impl.start()
    grandchild = _grandchild(pidfile)
    assert os.getpgid(grandchild) != impl.pid  # it really left the group
    impl.close()
    assert gone(grandchild, zombie_ok=True)


def test_context_manager_cleans_up_on_an_exception() -> None:
    pid = None
    with pytest.raises(KeyError), make("good") as impl:
        pid = impl.pid
        impl.hello()
        raise KeyError("the caller's own bug")
    assert pid is not None and gone(pid)


def test_a_forgotten_close_still_kills_the_process() -> None:
    impl = make("ignores_quit")
    impl.start()
    impl.hello()  # by now it ignores SIGTERM, so the guard has to escalate to SIGKILL
    pid = impl.pid
    assert pid is not None
    del impl
    gc.collect()  # the weakref.finalize guard fires (it would at interpreter exit too)
    assert gone(pid, within=0)


# -- the reference server, when present -------------------------------------------


# The servers below run with -P: the installed rulecraft, never this source folder's (a wheel install:
# tox -e compiled).
def test_reference_server_says_hello() -> None:
    if importlib.util.find_spec("rulecraft.conformance.server") is None:
        pytest.skip("rulecraft.conformance.server is not there yet")
    root = Path(__file__).resolve().parent.parent
    with Implementation(
        [sys.executable, "-P", "-m", "rulecraft.conformance.server", "air"], game="air", timeout=15, cwd=str(root)
    ) as impl:
        hello = impl.hello()
        assert hello["protocol"] == 2 and hello["game"] == "air" and impl.protocol == 2
        assert impl.new_game({"players": 3})["ok"] is True
        assert "state" in impl.state()


# -- protocol 2: the handshake, the fallback to 1 and the outcome ----------------------------------


def script(tmp_path: Path, name: str, body: str) -> list[str]:
    """A fake implementation made of ``good.py``'s parts and ``body`` (which defines ``answer``)."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(FIXTURES)!r})\n"
        "from good import HELLO, STATE, reply, serve\n" + body + "\nserve(answer)\n",
        "utf-8",
    )
    return [sys.executable, str(path)]


# A version-1 server as the reference server was before version 2: any other version is refused
# with its own number (docs/protocol.md, Versioning).
V1_ONLY = """
def answer(request):
    if request.get("op") == "hello":
        if request["protocol"] != 1:
            why = f"protocol {request['protocol']} is not supported; this server speaks 1"
            return {**HELLO, "ok": False, "error": why}
        return {**HELLO, "ok": True}
    return reply(request)
"""


def test_a_version_1_server_is_no_fault_the_client_falls_back(tmp_path: Path) -> None:
    with Implementation(script(tmp_path, "v1_only", V1_ONLY), game="air", timeout=TIMEOUT) as impl:
        hello = impl.hello()
        assert hello == {**hello, "ok": True, "protocol": 1} and impl.protocol == 1
        asked = [request["protocol"] for request, _ in impl.transcript() if request["op"] == "hello"]
        assert asked == [2, 1]  # refused in 2, said again in 1
        # The version-2 ops are refused before sending: the server would not know them.
        with pytest.raises(RulecraftError, match="unknown op 'scores'; protocol 1 knows"):
            impl.scores()
        with pytest.raises(RulecraftError, match="unknown op 'outcome'"):
            impl.outcome()
        assert impl.alive and impl.new_game({"players": 2})["ok"] is True


def test_restart_forgets_the_version_until_the_next_hello() -> None:
    root = Path(__file__).resolve().parent.parent
    with Implementation(
        [sys.executable, "-P", "-m", "rulecraft.conformance.server", "kas"], game="kas", timeout=15, cwd=str(root)
    ) as impl:
        impl.hello()
        assert impl.protocol == 2
        impl.restart()
        assert impl.protocol == 1
        impl.hello()
        assert impl.protocol == 2


def test_the_reference_server_in_protocol_2_scores_and_outcome() -> None:
    from rulecraft.registry import make_game

    game = make_game("air")
    state, rng = game.new_game(2), random.Random(4)
    for _ in range(5000):  # a seeded Airships game that ends (seed 4 does, in a few hundred steps)
        action = game.random_action(state, rng)
        if action is None:
            break
        state = game.apply(state, action)
    assert game.is_over(state)
    end = json.loads(json.dumps(game.state_to_json(state)))
    expected = game.outcome(state)
    assert expected is not None
    root = Path(__file__).resolve().parent.parent
    with Implementation(
        [sys.executable, "-P", "-m", "rulecraft.conformance.server", "air"], game="air", timeout=15, cwd=str(root)
    ) as impl:
        impl.hello()
        impl.new_game({"players": 2})
        assert impl.outcome() == {"ok": True, "outcome": None}
        assert impl.scores()["scores"]["1"] == {"developments": 0, "airships": 0, "stages": 0, "total": 0}
        assert impl.set_state(end) == {"ok": True, "to_move": "over"}
        reply = impl.state()
        assert reply["to_move"] == "over" and reply["outcome"] == json.loads(json.dumps(expected.to_json()))
        assert impl.outcome()["outcome"] == reply["outcome"]
        assert impl.scores()["scores"] == reply["outcome"]["scores"]


# Speaks version 2 but leaves the outcome out of a finished game's state.
NO_OUTCOME = """
def answer(request):
    if request.get("op") == "hello":
        return {**HELLO, "protocol": 2}
    if request.get("op") == "state":
        return {"state": STATE, "to_move": "over"}
    return reply(request)
"""


def test_protocol_2_without_the_outcome_at_game_over_is_a_schema_fault(tmp_path: Path) -> None:
    with Implementation(script(tmp_path, "no_outcome", NO_OUTCOME), timeout=TIMEOUT) as impl:
        assert impl.hello()["protocol"] == 2 and impl.protocol == 2
        with pytest.raises(ImplementationFault) as info:
            impl.state()
    assert info.value.kind == "schema" and "'outcome' is a required property" in info.value.message
