"""The reference model as a protocol server (versions 1 and 2): driven in-process through
StringIO pipes (and once as a real subprocess), every answer checked against
the response schemas and against the reference model itself."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterable
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulecraft.conformance import messages
from rulecraft.conformance.server import MAX_LINE_BYTES, Session, main, serve, to_move_json
from rulecraft.core import CHANCE, GAME_OVER, Game
from rulecraft.model.airships.game import AirshipsGame
from rulecraft.registry import make_game
from rulecraft.tools import tools

ROOT = Path(__file__).resolve().parents[1]


def run(game_id: str, requests: Iterable[Any], **options: Any) -> list[dict[str, Any]]:
    """Send requests (objects, or raw strings sent as they are) and parse every answer line."""
    lines = [r if isinstance(r, str) else json.dumps(r) for r in requests]
    out = io.StringIO()
    assert serve(game_id, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out, **options) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def wire(data: Any) -> Any:
    """``data`` as it arrives over the wire: the models' JSON forms keep tuples and str enums."""
    return json.loads(json.dumps(data))


class Client:
    """One request at a time against a live in-process session, like a driver would."""

    def __init__(self, game_id: str, protocol: int = 1) -> None:
        self.session = Session(game_id)
        self.protocol = protocol
        if protocol != 1:
            assert self({"op": "hello", "protocol": protocol})["protocol"] == protocol

    def __call__(self, request: dict[str, Any]) -> dict[str, Any]:
        answer, _ = self.session.handle_line(json.dumps(request))
        # Through JSON and back: the client sees only what survives the wire.
        parsed: dict[str, Any] = json.loads(json.dumps(answer))
        if parsed.get("ok", True) and "rejected" not in parsed:
            assert messages.problem("response", request["op"], parsed, self.protocol) is None, parsed
        return parsed


# -- hello and versioning --------------------------------------------------------------------------


def test_hello_names_the_game_protocol_models_and_capabilities() -> None:
    [answer] = run("air", [{"op": "hello", "protocol": 1}])
    assert answer == {"ok": True, "game": "air", "protocol": 1, "models": ["*"], "capabilities": ["set_state"]}
    assert messages.problem("response", "hello", answer) is None


def test_protocol_2_is_answered_in_protocol_2() -> None:
    [answer] = run("air", [{"op": "hello", "protocol": 2}])
    assert answer == {"ok": True, "game": "air", "protocol": 2, "models": ["*"], "capabilities": ["set_state"]}
    assert messages.problem("response", "hello", answer, 2) is None


def test_another_protocol_version_is_refused_with_our_own_number() -> None:
    [answer, after] = run("kas", [{"op": "hello", "protocol": 3}, {"op": "hello", "protocol": 1}])
    assert answer["ok"] is False
    assert answer["error"] == "protocol 3 is not supported; this server speaks 1 and 2"
    assert answer["protocol"] == 2  # the client learns which version to stop on (our newest)
    assert after["ok"] is True and after["protocol"] == 1


# -- new_game --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), [("air", 4), ("kas", 2), ("stm", 3)])
def test_new_game_answers_the_reference_start_state(game_id: str, players: int) -> None:
    [answer] = run(game_id, [{"op": "new_game", "setup": {"players": players}}])
    game = make_game(game_id)
    start = game.new_game(players)
    assert answer["ok"] is True
    assert answer["state"] == wire(game.state_to_json(start))
    assert answer["to_move"] == to_move_json(game.to_move(start))
    assert messages.problem("response", "new_game", answer) is None


def test_new_game_errors_are_plain_words_and_the_server_goes_on() -> None:
    answers = run(
        "air",
        [
            {"op": "new_game", "setup": {"players": 7}},
            {"op": "new_game", "setup": {"players": 2}, "readings": {"AIR-AMB-99": "x"}},
            {"op": "new_game", "setup": {"players": 2}, "components": {}},
            {"op": "new_game", "setup": {"players": 2}, "readings": {"AIR-AMB-28": "one"}},
        ],
    )
    assert [a["ok"] for a in answers] == [False, False, False, True]
    assert "AIR-R-01" in answers[0]["error"]
    assert "AIR-AMB-99" in answers[1]["error"]
    # The pack is named as the client sent it, never by the server's temporary file.
    assert answers[2]["error"].startswith("components: ") and "rulecraft-pack-" not in answers[2]["error"]


def test_new_game_takes_a_pack_as_a_json_object() -> None:
    pack = yaml.safe_load(files("rulecraft.model.airships").joinpath("packs/reconstructed.yaml").read_text("utf-8"))
    [answer] = run("air", [{"op": "new_game", "setup": {"players": 2}, "components": pack}])
    game = make_game("air")
    assert answer["ok"] is True and answer["state"] == wire(game.state_to_json(game.new_game(2)))


# -- random games through the protocol -------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players", "seed"), [("air", 4, 1), ("kas", 2, 2), ("stm", 4, 3)])
def test_sixty_random_steps_match_the_reference_model(game_id: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    game: Game[Any, Any] = make_game(game_id)
    client = Client(game_id)
    answer = client({"op": "new_game", "setup": {"players": players}})
    state = game.new_game(players)
    for step in range(60 if game_id != "stm" else 150):  # stm: past the set-up deals into the turns
        assert answer["state"] == wire(game.state_to_json(state)), f"step {step}"
        mover = game.to_move(state)
        assert answer["to_move"] == to_move_json(mover)
        if mover == GAME_OVER:
            break
        listed = client({"op": "legal_actions"})["actions"]
        if mover == CHANCE:
            # The client forces chance: an outcome of the state the server returned.
            assert listed == []
            served = game.state_from_json(answer["state"])
            outcomes = game.chance_outcomes(served)
            action = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes])[0]
            sent = wire(game.action_to_json(action))
        else:
            assert listed == wire([game.action_to_json(a) for a in game.legal_actions(state)])
            sent = rng.choice(listed)
            action = game.action_from_json(sent)
        answer = client({"op": "apply", "action": sent})
        assert answer["ok"] is True, answer
        state = game.apply(state, action)
    again = client({"op": "state"})
    assert again["state"] == wire(game.state_to_json(state))


# -- set_state and rejections ----------------------------------------------------------------------


def four_white_dice_state() -> dict[str, Any]:
    """AIR-R-30's test position: a seat entitled to 4 white dice, who may throw only 3."""
    game = make_game("air")
    state = tools(game).scenario_state({"boards": {0: {"cards": ["S-FIN", "E1-HAN-3"]}}, "display": ["E1-FIN-3"]})
    return dict(wire(game.state_to_json(state)))


def test_an_illegal_action_is_rejected_with_its_rule_and_the_state_is_unchanged() -> None:
    start = four_white_dice_state()
    four = {"kind": "attempt", "target": "development:E1-FIN-3", "throw": {"W": 4}}
    three = {"kind": "attempt", "target": "development:E1-FIN-3", "throw": {"W": 3}}
    answers = run(
        "air",
        [
            {"op": "set_state", "state": start},
            {"op": "apply", "action": four},
            {"op": "state"},
            {"op": "apply", "action": three},
            {"op": "apply", "action": {"kind": "throw", "W": [3, 2, 2]}},
        ],
    )
    assert answers[0] == {"ok": True, "to_move": 0}
    assert answers[1]["ok"] is False
    assert answers[1]["rejected"]["rule"] == "AIR-R-30"
    assert "at most 3 dice of one colour" in answers[1]["rejected"]["reason"]
    assert messages.problem("response", "apply", answers[1]) is None
    assert answers[2]["state"] == start
    assert answers[3]["ok"] is True and answers[3]["to_move"] == "chance"
    assert answers[4]["ok"] is True  # the forced throw is applied as given


def test_a_bad_state_or_action_is_an_error_not_a_crash() -> None:
    answers = run(
        "air",
        [
            {"op": "set_state", "state": {"phase": "nowhere"}},
            {"op": "state"},
            {"op": "set_state", "state": four_white_dice_state()},
            {"op": "apply", "action": {"kind": "fly"}},
            {"op": "apply", "action": {"kind": "attempt"}},
            {"op": "legal_actions"},
        ],
    )
    assert [a["ok"] for a in answers] == [False, False, True, False, False, True]
    assert answers[1]["error"].startswith("no game yet")
    assert "'fly'" in answers[3]["error"]
    assert answers[5]["actions"]


def test_requests_before_a_game_are_refused() -> None:
    answers = run("kas", [{"op": "state"}, {"op": "legal_actions"}, {"op": "apply", "action": {"kind": "grant"}}])
    assert all(a == {"ok": False, "error": "no game yet: send new_game or set_state first"} for a in answers)


# -- robustness ------------------------------------------------------------------------------------


def test_malformed_lines_get_an_error_and_the_server_keeps_answering() -> None:
    answers = run(
        "air",
        [
            "not json",
            "[1, 2]",
            '{"protocol": 1}',
            '{"op": "dance"}',
            '{"op": "hello", "protocol": "1"}',
            '{"op": "apply"}',
            '{"op": "new_game", "setup": {"players": 2, "colour": "red"}}',
            "[" * 100_000,
            "",  # a blank line is no request and gets no answer
            '{"op": "hello", "protocol": 1}',
        ],
    )
    assert len(answers) == 9
    assert all(a["ok"] is False and a["error"] for a in answers[:8])
    assert "not JSON" in answers[0]["error"]
    assert "unknown op 'dance'" in answers[3]["error"]
    assert "protocol" in answers[4]["error"]
    assert answers[8]["game"] == "air"


def test_an_over_long_line_is_refused_and_the_next_line_is_read_cleanly() -> None:
    huge = json.dumps({"op": "hello", "protocol": 1, "pad": "x" * MAX_LINE_BYTES})
    answers = run("air", [huge, {"op": "hello", "protocol": 1}])
    assert answers[0]["ok"] is False and "limit" in answers[0]["error"]
    assert answers[1]["ok"] is True


def test_an_exception_in_the_model_is_an_internal_error_and_the_server_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: AirshipsGame, state: Any) -> Any:
        raise ZeroDivisionError("a model bug")

    monkeypatch.setattr(AirshipsGame, "legal_actions", broken)
    answers = run(
        "air", [{"op": "set_state", "state": four_white_dice_state()}, {"op": "legal_actions"}, {"op": "state"}]
    )
    assert answers[1] == {"ok": False, "error": "internal error: ZeroDivisionError: a model bug"}
    assert answers[2]["ok"] is True


def test_quit_ends_the_session_and_later_lines_are_not_read() -> None:
    answers = run("air", [{"op": "quit"}, {"op": "hello", "protocol": 1}])
    assert answers == [{"ok": True}]


def test_the_end_of_input_ends_the_session() -> None:
    assert run("air", []) == []


def test_main_refuses_an_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chess"]) == 4
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_the_server_runs_as_a_subprocess() -> None:
    requests = "".join(json.dumps(r) + "\n" for r in ({"op": "hello", "protocol": 1}, {"op": "quit"}))
    done = subprocess.run(
        [sys.executable, "-m", "rulecraft.conformance.server", "air"],
        input=requests.encode("utf-8"),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    answers = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert answers[0]["game"] == "air" and answers[0]["protocol"] == 1
    assert answers[1] == {"ok": True}


# -- protocol 2: the outcome -----------------------------------------------------------------------


def ending(game_id: str, players: int) -> tuple[Any, Any, Any]:
    """A seeded game that reaches its end: (the state before the last action, that action, the end)."""
    game = make_game(game_id)
    policy = "purposeful" if game_id == "stm" else "uniform"
    for seed in range(1, 20):
        rng = random.Random(seed)
        state, previous, action = game.new_game(players), None, None
        for step in range(20_000):
            move = game.random_action(state, rng, policy=policy)
            if move is None:
                return previous, action, state
            previous, action, state = state, move, game.apply(state, move)
            if step % 100 == 0 and game.stalled(state):
                break
    raise AssertionError(f"{game_id}: no seeded game finished")


@pytest.mark.parametrize(("game_id", "players"), [("air", 2), ("kas", 3), ("stm", 2), ("stm", 1), ("aer", 3)])
def test_protocol_2_answers_the_outcome_at_game_over(game_id: str, players: int) -> None:
    game = make_game(game_id)
    before, last, end = ending(game_id, players)
    client = Client(game_id, protocol=2)
    assert client({"op": "set_state", "state": wire(game.state_to_json(before))})["ok"] is True
    assert client({"op": "outcome"}) == {"ok": True, "outcome": None}  # not over yet
    answer = client({"op": "apply", "action": wire(game.action_to_json(last))})  # the game's last step
    assert answer["to_move"] == "over"
    expected = game.outcome(end)
    assert expected is not None
    assert answer["outcome"] == wire(expected.to_json())
    assert client({"op": "state"})["outcome"] == answer["outcome"]
    assert client({"op": "outcome"}) == {"ok": True, "outcome": answer["outcome"]}
    assert client({"op": "scores"}) == {"ok": True, "scores": answer["outcome"]["scores"]}
    # A finished state sent with set_state: the state reply carries the outcome too.
    again = Client(game_id, protocol=2)
    assert again({"op": "set_state", "state": wire(game.state_to_json(end))}) == {"ok": True, "to_move": "over"}
    assert again({"op": "state"})["outcome"] == answer["outcome"]


def test_protocol_2_scores_mid_game_are_the_score_parts_now() -> None:
    game = make_game("air")
    before, _, _ = ending("air", 3)
    client = Client("air", protocol=2)
    client({"op": "set_state", "state": wire(game.state_to_json(before))})
    scores = client({"op": "scores"})["scores"]
    assert scores == {str(s): p for s, p in wire(game.score_parts(before)).items()}
    assert set(scores["0"]) == {"developments", "airships", "stages", "total"}
    answer = client({"op": "new_game", "setup": {"players": 2}})
    assert "outcome" not in answer  # only a finished game has one
    assert client({"op": "scores"})["scores"] == {
        "0": {"developments": 0, "airships": 0, "stages": 0, "total": 0},
        "1": {"developments": 0, "airships": 0, "stages": 0, "total": 0},
    }


def test_protocol_1_stays_as_it_was() -> None:
    """Without hello 2 the session speaks version 1: no outcome field, no scores or outcome ops."""
    game = make_game("kas")
    before, last, _ = ending("kas", 2)
    answers = run(
        "kas",
        [
            {"op": "hello", "protocol": 1},
            {"op": "set_state", "state": wire(game.state_to_json(before))},
            {"op": "apply", "action": wire(game.action_to_json(last))},
            {"op": "scores"},
            {"op": "outcome"},
            {"op": "hello", "protocol": 2},  # the session may change its version
            {"op": "state"},
        ],
    )
    assert answers[2]["to_move"] == "over" and "outcome" not in answers[2]
    assert messages.problem("response", "apply", answers[2], 1) is None
    assert messages.problem("response", "apply", answers[2], 2) is not None  # v2 requires the outcome
    assert answers[3] == {
        "ok": False,
        "error": "unknown op 'scores'; protocol 1 knows apply, hello, legal_actions, new_game, quit, set_state, "
        "state ('scores' is protocol 2's: say hello with it)",
    }
    assert answers[4]["ok"] is False and "unknown op 'outcome'" in answers[4]["error"]
    assert answers[5]["protocol"] == 2 and answers[6]["outcome"]["termination"] == "KAS-R-50"


def test_the_new_ops_need_a_game() -> None:
    answers = run("air", [{"op": "hello", "protocol": 2}, {"op": "scores"}, {"op": "outcome"}])
    assert answers[1:] == [{"ok": False, "error": "no game yet: send new_game or set_state first"}] * 2


# -- the published schemas -------------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2])
def test_the_published_json_schemas_equal_the_python_ones(version: int) -> None:
    """docs/schemas/protocol-v<N>.json is generated from messages.schemas(N); regenerate it after a change:
    python -c "import json; from rulecraft.conformance.messages import schemas;
    print(json.dumps(schemas(2), indent=2))" > docs/schemas/protocol-v2.json"""
    published = json.loads((ROOT / "docs" / "schemas" / f"protocol-v{version}.json").read_text("utf-8"))
    assert published == messages.schemas(version)


def test_the_examples_in_the_protocol_document_are_valid_messages() -> None:
    """Every complete example exchange in docs/protocol.md parses, and its request and
    successful answer meet the schemas (the examples were made by running this server)."""
    text = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    pairs = re.findall(r"^> (\{.*\})\n< (\{.*\})$", text, flags=re.M)
    assert len(pairs) >= 15
    for request_line, answer_line in pairs:
        request = json.loads(request_line)
        # An exchange is protocol 2's when it uses what only version 2 has: its ops or the outcome.
        v2 = request["op"] not in messages.ops(1) or '"outcome"' in answer_line or request.get("protocol") == 2
        version = 2 if v2 else 1
        assert messages.problem("request", request["op"], request, version) is None, request_line
        if "…" in answer_line:
            continue  # a state cut short for the reader
        answer = json.loads(answer_line)
        if answer.get("ok", True) or "rejected" in answer:
            assert messages.problem("response", request["op"], answer, version) is None, answer_line


@pytest.mark.parametrize(
    ("game_id", "title", "players"),
    [("air", "Airships", 2), ("kas", "Kings of Air and Steam", 2), ("stm", "Steamopolis", 2), ("aer", "Aeroplanes", 3)],
)
def test_the_protocol_document_lists_every_top_level_state_field(game_id: str, title: str, players: int) -> None:
    """docs/protocol.md, "The canonical state": each game's table names every top-level field of its
    state_to_json, and no other."""
    text = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    section = text.split(f"### {title} (`{game_id}`)\n", 1)[1].split("\n#", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_0-9]+)` \|", section, flags=re.M))
    game = make_game(game_id)
    state, rng = game.new_game(players), random.Random(7)
    fields: set[str] = set()
    for _ in range(300):  # fields left out while unused (Airships' boards) do not matter: top level only
        fields |= set(game.state_to_json(state))
        action = game.random_action(state, rng)
        if action is None:
            break
        state = game.apply(state, action)
    assert listed == fields
