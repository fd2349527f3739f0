"""``rulecraft explore`` (issue 20, part 2): the JSON API over a real server on a free loopback port.

Every source kind is opened for at least two games; the state at step I is the state after replaying
I steps, going forward or back; an illegal action is refused with the rule the rulebook names for it
(the printed examples' ``reject`` steps, which quote the page); a diff marks exactly the fields that
differ; hostile requests get a 4xx and one line.  The expected values come from the rulebook (rule
IDs, pages, the variant's stated change), never from the explorer's own output.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from rulecraft import explore
from rulecraft.cli import main
from rulecraft.conformance.conform import ConformReport, differential
from rulecraft.conformance.inprocess import InProcess
from rulecraft.conformance.report import html_report
from rulecraft.core import Game
from rulecraft.registry import make_game
from rulecraft.statefile import save_state
from rulecraft.tools import tools
from rulecraft.witness import Budget, ambiguities

ROOT = Path(__file__).resolve().parent.parent
AIR_EX_04_THROW_3 = {"kind": "attempt", "target": "development:E1-HAN-2", "throw": {"W": 3}}
TWO_CHIPS = ROOT / "examples" / "errata" / "airships-additional-go-2-chips.yaml"


# -- a real server, and plain HTTP against it ------------------------------------------------------------------


@pytest.fixture
def serve() -> Iterator[Any]:
    """Start an explorer on a free loopback port for a trace; every one started is stopped."""
    running: list[explore.Running] = []

    def start(trace: explore.Trace) -> str:
        running.append(explore.start(trace))
        return running[-1].url

    yield start
    for r in running:
        r.stop()


def get(url: str, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url.rstrip("/") + path, timeout=30) as reply:
            body = reply.read()
            kind = reply.headers.get("Content-Type", "")
            return reply.status, json.loads(body) if "json" in kind else body.decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def post(url: str, body: Any) -> tuple[int, Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(
        url.rstrip("/") + "/api/try", data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def raw(url: str, method: str, path: str, headers: Mapping[str, str], body: bytes = b"") -> tuple[int, str]:
    """A request as a hostile client writes it: no normalising of the path, any headers."""
    port = int(url.rstrip("/").rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for key, value in headers.items():
            conn.putheader(key, value)
        conn.endheaders()
        if body:
            conn.send(body)
        reply = conn.getresponse()
        return reply.status, reply.read().decode("utf-8")
    finally:
        conn.close()


def one_line_error(text: str) -> str:
    """The error body is JSON with one line of words, no traceback."""
    message = json.loads(text)["error"]
    assert isinstance(message, str) and "\n" not in message and "Traceback" not in message
    return message


def replayed(game: Game[Any, Any], start: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The state JSON after applying ``steps`` (checked) from ``start``: the replay the page must match."""
    state = game.replay(start, [game.action_from_json(s) for s in steps])
    result: dict[str, Any] = as_json(game.state_to_json(state))
    return result


def as_json(value: Any) -> Any:
    """A value as it travels over HTTP (tuples become lists)."""
    return json.loads(json.dumps(value))


def random_steps(game: Game[Any, Any], seed: int, players: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    state = game.new_game(players)
    steps = []
    for _ in range(count):
        action = game.random_action(state, rng)
        if action is None:
            break
        steps.append(game.action_to_json(action))
        state = game.apply(state, action)
    return steps


def write(path: Path, document: Mapping[str, Any]) -> str:
    path.write_text(json.dumps(document), "utf-8")
    return str(path)


# -- sources: a seeded game, a printed example, a state file ------------------------------------------------------


@pytest.mark.parametrize(("game_id", "players"), [("air", 3), ("kas", 2)])
def test_a_seeded_game_forward_and_back_is_the_replay_of_its_steps(serve: Any, game_id: str, players: int) -> None:
    game = make_game(game_id)
    url = serve(explore.seeded_trace(game, seed=5, players=players, max_steps=60))
    status, trace = get(url, "/api/trace")
    assert status == 200 and trace["game"] == game_id and trace["kind"] == "seed"
    steps = [s["action"] for s in trace["steps"]]
    assert trace["count"] == len(steps) == 60
    # the same seed, played as `rulecraft play` plays it
    assert steps == random_steps(game, 5, players, 60)
    seen: dict[int, Any] = {}
    for i in [0, 1, 7, 30, 60]:  # forward
        status, at = get(url, f"/api/step/{i}")
        assert status == 200 and at["index"] == i
        assert at["left"]["state"] == replayed(game, game.new_game(players), steps[:i])
        seen[i] = at["left"]["state"]
    for i in [30, 7, 1, 0]:  # and back: the same states
        assert get(url, f"/api/step/{i}")[1]["left"]["state"] == seen[i]


def test_the_page_and_its_static_files_are_served(serve: Any) -> None:
    url = serve(explore.seeded_trace(make_game("air"), seed=1, players=2, max_steps=3))
    status, page = get(url, "/")
    assert status == 200 and "/static/explore_page.js" in page and '<ol id="steps"' in page
    for name in ("explore_page.js", "explore_page.css"):
        status, text = get(url, f"/static/{name}")
        assert status == 200 and len(text) > 100


def test_legal_actions_carry_their_rule_citations_with_the_rule_text(serve: Any) -> None:
    # AIR-EX-04 (p.3): after seat 0 passes and E1-FIN-2 is revealed, seat 1 may attempt E1-HAN-2 throwing
    # its three white dice (the scenario's own 'legal' expectation, quoting the rulebook).
    url = serve(explore.scenario_trace("air", "AIR-EX-04"))
    status, at = get(url, "/api/step/2")
    assert status == 200 and at["left"]["to_move"] == "seat 1"
    game = make_game("air")
    # the action in its full JSON form (the wire form names every field)
    wanted = as_json(game.action_to_json(game.action_from_json(AIR_EX_04_THROW_3)))
    found = [a for a in at["left"]["legal"] if a["action"] == wanted]
    assert found, [a["action"] for a in at["left"]["legal"]]
    rules = {r["id"]: r for r in found[0]["rules"]}
    assert rules and all(rule_id in game.catalogue for rule_id in rules)
    for rule_id, rule in rules.items():  # each citation carries the catalogue's page and statement
        assert rule["page"] == game.catalogue[rule_id].page
        assert rule["statement"] == game.catalogue[rule_id].statement
    status, text = get(url, "/rules")
    for rule_id in rules:
        assert f"id='{rule_id}'" in text


@pytest.mark.parametrize(
    ("game_id", "example", "players_step", "action", "rule"),
    [
        # AIR-EX-04, p.3: seat 0 has one white die; the card needs two: AIR-R-27
        ("air", "AIR-EX-04", 0, {"kind": "attempt", "target": "development:E1-HAN-2", "throw": {"W": 1}}, "AIR-R-27"),
        # AER-EX-06: a tile from a card without the LR symbol cannot be placed in India: AER-R-16
        (
            "aer",
            "AER-EX-06",
            0,
            {"kind": "place-airport", "card": 1, "destination": "India", "slot": 0, "origin": "Ethiopia"},
            "AER-R-16",
        ),
    ],
)
def test_a_printed_example_opens_and_an_illegal_action_is_refused_with_its_rule(
    serve: Any, game_id: str, example: str, players_step: int, action: dict[str, Any], rule: str
) -> None:
    url = serve(explore.scenario_trace(game_id, example))
    status, trace = get(url, "/api/trace")
    assert status == 200 and trace["kind"] == "scenario" and trace["heading"].startswith(example)
    before = get(url, f"/api/step/{players_step}")[1]["left"]["state"]
    status, reply = post(url, {"step": players_step, "action": action})
    assert status == 200 and reply["legal"] is False
    assert reply["rejections"][0]["rule"] == rule
    assert reply["rejections"][0]["page"] == make_game(game_id).catalogue[rule].page
    assert reply["rejections"][0]["reason"].strip()
    # nothing was played: the trace and the state are as they were
    assert get(url, "/api/trace")[1]["count"] == trace["count"]
    assert get(url, f"/api/step/{players_step}")[1]["left"]["state"] == before


def test_a_legal_action_is_played_and_the_steps_after_it_are_dropped(serve: Any) -> None:
    game = make_game("air")
    url = serve(explore.seeded_trace(game, seed=2, players=2, max_steps=40))
    steps = [s["action"] for s in get(url, "/api/trace")[1]["steps"]]
    at = get(url, "/api/step/20")[1]
    chosen = at["left"]["legal"][-1]["action"]
    status, reply = post(url, {"step": 20, "action": chosen})
    assert status == 200 and reply == {"legal": True, "text": reply["text"], "step": 21}
    after = get(url, "/api/trace")[1]
    assert after["count"] == 21 and [s["action"] for s in after["steps"]] == [*steps[:20], chosen]
    assert get(url, "/api/step/21")[1]["left"]["state"] == replayed(game, game.new_game(2), [*steps[:20], chosen])


@pytest.mark.parametrize(("game_id", "players"), [("stm", 2), ("air", 2)])
def test_a_saved_state_file_opens_at_that_state(serve: Any, tmp_path: Path, game_id: str, players: int) -> None:
    game = make_game(game_id)
    steps = random_steps(game, 4, players, 25)
    state = game.replay(game.new_game(players), [game.action_from_json(s) for s in steps])
    save_state(tmp_path / "s.json", game, state)
    url = serve(explore.state_trace(game, str(tmp_path / "s.json")))
    status, at = get(url, "/api/step/0")
    assert status == 200 and at["count"] == 0
    assert at["left"]["state"] == as_json(game.state_to_json(state))


# -- findings, witnesses, divergences: two sides and their differences -----------------------------------------------


def test_diff_paths_names_every_differing_leaf_and_nothing_else() -> None:
    a = {"round": 2, "boards": [{"chips": 3, "cards": ["X"]}, {"chips": 1}], "deck": [1, 2]}
    b = {"round": 2, "boards": [{"chips": 4, "cards": ["X"]}, {"chips": 1}], "deck": [1, 2, 3]}
    assert explore.diff_paths(a, b) == ["boards[0].chips", "deck"]
    assert explore.diff_paths(a, a) == []


def test_a_finding_marks_exactly_the_fields_it_reports_at_its_last_step(serve: Any, tmp_path: Path) -> None:
    # A hand-built finding of kas: the implementation reports another value for one top-level field
    # at the last step; the explorer must mark that field, and only that one, and only there.
    game = make_game("kas")
    steps = random_steps(game, 9, 2, 12)
    last = replayed(game, game.new_game(2), steps)
    field = sorted(k for k, v in last.items() if isinstance(v, int) and not isinstance(v, bool))[0]
    document = {
        "rulecraft_replay": 1,
        "game": "kas",
        "kind": "state",
        "title": f"the states differ in {field}",
        "rules": [],
        "start": {"setup": {"players": 2, "first_seat": 0, "options": {}}},
        "steps": steps,
        "differences": [[field, last[field], last[field] + 1]],
    }
    url = serve(explore.finding_trace("kas", write(tmp_path / "f.json", document)))
    trace = get(url, "/api/trace")[1]
    assert trace["labels"] == ["reference", "implementation"] and trace["count"] == 12
    assert trace["reported"] == [{"field": field, "left": last[field], "right": last[field] + 1}]
    end = get(url, "/api/step/12")[1]
    assert end["differs"] == [field]
    assert end["right"]["state"][field] == last[field] + 1 and end["left"]["state"][field] == last[field]
    for i in (0, 6, 11):
        assert get(url, f"/api/step/{i}")[1]["differs"] == []


def _air_finding() -> Any:
    """A real conform finding: the printed rules against an implementation playing AIR-AMB-35 'max'
    (fewer throws allowed, so fewer legal actions), as tests/test_conform_search.py searches it."""
    report = ConformReport("air", "in-process", seed=3)
    differential(
        make_game("air"),
        InProcess(make_game("air", readings={"AIR-AMB-35": "max"})),
        ("*",),
        max_examples=20,
        max_steps=3000,
        seed=3,
        players=[2, 3, 4],
        report=report,
        self_test=True,
        shrink_replays=60,
    )
    assert report.findings
    return report


def test_a_conform_finding_from_its_report_opens_with_both_sides(serve: Any, tmp_path: Path) -> None:
    report = _air_finding()
    finding = report.findings[0]
    page = html_report(report)
    # The report says how to open it, and carries the document to save.
    assert "rulecraft explore air --finding finding-1.json" in page
    found = re.search(r"<summary>the document \(finding-1\.json\)</summary><pre>(.*?)</pre>", page, re.S)
    assert found is not None
    import html as html_module

    document = json.loads(html_module.unescape(found.group(1)))
    url = serve(explore.finding_trace("air", write(tmp_path / "finding-1.json", document)))
    trace = get(url, "/api/trace")[1]
    assert trace["kind"] == "finding" and trace["count"] == len(finding.steps)
    assert [s["action"] for s in trace["steps"]] == list(finding.steps)
    end = get(url, f"/api/step/{trace['count']}")[1]
    assert end["left"]["label"] == "reference" and end["right"]["label"] == "implementation"


def test_an_ambiguity_witness_plays_both_readings_side_by_side(serve: Any, tmp_path: Path) -> None:
    # AIR-AMB-35: the reading 'max' allows fewer throws than the default, so at the witness's last
    # step the default reading has legal actions the other lacks.
    results = ambiguities(
        "air", only=["AIR-AMB-35"], budget=Budget(seconds=20, max_examples=20, seed=3), examples=False
    )
    pair = next(p for p in results[0].pairs if p.finding is not None)
    document = explore.witness_document("air", "AIR-AMB-35", pair)
    url = serve(explore.witness_trace("air", write(tmp_path / "w.json", document)))
    trace = get(url, "/api/trace")[1]
    assert trace["kind"] == "witness"
    assert trace["labels"] == [f"reading {pair.default}", f"reading {pair.reading}"]
    end = get(url, f"/api/step/{trace['count']}")[1]
    only = end["legal_only"]
    assert only["left"] and not only["right"]  # 'max' removes throws, adds none
    assert end["left"]["state"] == end["right"]["state"] and end["differs"] == []  # same state, other actions


def test_a_witness_of_another_game_opens_from_its_document(serve: Any, tmp_path: Path) -> None:
    # stm under the two readings of its first registered ambiguity with two readings: the steps of a
    # seeded game replay on both sides (the document need not be a difference to be stepped through).
    game = make_game("stm")
    amb = next(a for a in game.register if len(a.readings) >= 2)
    other = next(r.key for r in amb.readings if r.key != amb.default)
    steps = random_steps(game, 1, 2, 15)
    document = {
        "rulecraft_explore": 1,
        "kind": "witness",
        "game": "stm",
        "title": "stepping",
        "ambiguity": amb.id,
        "readings": [amb.default, other],
        "start": {"setup": {"players": 2}},
        "steps": steps,
    }
    url = serve(explore.witness_trace("stm", write(tmp_path / "w.json", document)))
    at = get(url, "/api/step/15")[1]
    assert at["left"]["state"] == replayed(game, game.new_game(2), steps)
    assert at["right"] is not None


def test_an_erratum_divergence_marks_the_chips_the_variant_changes(serve: Any, tmp_path: Path) -> None:
    # AIR-R-42 (p.4): an additional go costs 3 chips; the variant file says 2.  After the first
    # additional go the two sides differ by one chip of that seat, and in nothing else on the board.
    game = make_game("air")
    rng = random.Random(0)
    state = game.new_game(2)
    steps: list[dict[str, Any]] = []
    while True:
        extra = [a for a in game.legal_actions(state) if game.action_to_json(a) == {"kind": "extra-go"}]
        action = extra[0] if extra else game.random_action(state, rng)
        assert action is not None and len(steps) < 3000
        steps.append(game.action_to_json(action))
        seat = game.to_move(state)
        state = game.apply(state, action)
        if extra:
            break
    document = {
        "rulecraft_explore": 1,
        "kind": "divergence",
        "game": "air",
        "title": "an additional go",
        "variant": str(TWO_CHIPS),
        "start": {"setup": {"players": 2}},
        "steps": steps,
    }
    url = serve(explore.divergence_trace("air", write(tmp_path / "d.json", document)))
    n = len(steps)
    before = get(url, f"/api/step/{n - 1}")[1]
    assert before["differs"] == []
    end = get(url, f"/api/step/{n}")[1]
    assert end["left"]["label"] == "printed rules" and end["right"]["label"] == "variant"
    chips = f"boards[{seat}].chips"
    assert chips in end["differs"]
    assert [p for p in end["differs"] if p.startswith("boards")] == [chips]
    left, right = end["left"]["state"]["boards"][seat]["chips"], end["right"]["state"]["boards"][seat]["chips"]
    assert right - left == 1  # paid 2 instead of 3
    # and each side tells the step in its own ruleset's words (issue 20: the variant's price, not the printed)
    last = get(url, "/api/trace")[1]["steps"][-1]
    assert "3 chips" in last["text"] and "2 chips" in last["right_text"]


def test_a_document_of_another_game_or_shape_is_one_clear_line(tmp_path: Path) -> None:
    path = write(tmp_path / "x.json", {"rulecraft_replay": 1, "game": "kas", "start": {}, "steps": []})
    with pytest.raises(explore.ExploreError, match="game: this is about 'kas', not 'air'"):
        explore.finding_trace("air", path)
    path = write(
        tmp_path / "y.json",
        {"rulecraft_replay": 1, "game": "air", "start": {"setup": {"players": 2}}, "steps": [{"kind": "no-such-move"}]},
    )
    with pytest.raises(explore.ExploreError, match=r"steps\[0\]"):
        explore.finding_trace("air", path)


# -- hostile requests --------------------------------------------------------------------------------------------


def test_hostile_requests_get_a_4xx_and_one_line(serve: Any) -> None:
    url = serve(explore.seeded_trace(make_game("air"), seed=1, players=2, max_steps=10))
    host = {"Host": url.split("/")[2]}
    cases: list[tuple[str, str, dict[str, str], bytes, int, str]] = [
        ("POST", "/api/try", {**host, "Content-Length": str(10 << 20)}, b"", 413, "body"),
        ("POST", "/api/try", {**host, "Content-Length": "9"}, b"{not json", 400, "body"),
        ("POST", "/api/try", {**host, "Content-Length": "2"}, b"[]", 400, "body"),
        ("POST", "/api/try", host, b"", 411, "Content-Length"),
        ("GET", "/api/step/999", host, b"", 404, "step"),
        ("GET", "/api/step/-1", host, b"", 404, "step"),
        ("GET", "/api/step/abc", host, b"", 404, "step"),
        ("GET", "/static/../explore.py", host, b"", 404, "path"),
        ("GET", "/static/..%2fexplore.py", host, b"", 404, "path"),
        ("GET", "/static/%2e%2e/%2e%2e/etc/passwd", host, b"", 404, "path"),
        ("GET", "/../../etc/passwd", host, b"", 404, "path"),
        ("PUT", "/api/try", {**host, "Content-Length": "0"}, b"", 405, "PUT"),
        ("GET", "/api/trace", {"Host": "evil.example:80"}, b"", 403, "Host"),
    ]
    for method, path, headers, body, status, field in cases:
        got, text = raw(url, method, path, headers, body)
        assert got == status, (method, path, got, text)
        assert one_line_error(text).startswith(field), (path, text)
    for request, field in [
        ({"step": 99, "action": {"kind": "end-go"}}, "step"),
        ({"step": 0}, "action"),
        ({"step": 0, "action": {"kind": "no-such-kind"}}, "action"),
        ({"step": 0, "action": {"kind": "end-go"}, "code": "import os"}, "code"),
        ({"step": 0, "action": json.loads("[" * 30 + "]" * 30)}, "action"),
    ]:
        status, reply = post(url, request)
        assert status == 400 and reply["error"].startswith(field), reply
    # the server still answers after all that
    assert get(url, "/api/trace")[0] == 200


def test_the_explorer_binds_the_loopback_address_only() -> None:
    trace = explore.seeded_trace(make_game("air"), seed=1, players=2, max_steps=1)
    with pytest.raises(explore.ExploreError, match=r"127\.0\.0\.1 only"):
        explore.Explorer(trace, host="0.0.0.0")
    running = explore.start(trace)
    try:
        assert running.server.server_address[0] == "127.0.0.1"
    finally:
        running.stop()


def test_the_command_needs_exactly_one_source(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "air", "--no-open"]) == 4
    assert "one source is needed" in capsys.readouterr().err
    assert main(["explore", "air", "--seed", "1", "--scenario", "AIR-EX-04", "--no-open"]) == 4
    assert "--seed, --scenario" in capsys.readouterr().err
    assert main(["explore", "air", "--scenario", "AIR-EX-99", "--no-open"]) == 4
    assert "AIR-EX-99" in capsys.readouterr().err


def test_the_command_serves_on_loopback_and_prints_its_address() -> None:
    import subprocess
    import sys

    command = [sys.executable, "-m", "rulecraft", "explore", "air", "--seed", "3", "--max-steps", "20", "--no-open"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as proc:
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            assert found is not None, line
            status, trace = get(found.group(0), "/api/trace")
            assert status == 200 and trace["game"] == "air" and trace["count"] == 20
        finally:
            proc.terminate()
            proc.wait(timeout=10)


# -- the reports say how to open each finding, and their documents open ------------------------------------------


def _document_in(page: str, file: str) -> dict[str, Any]:
    """The document a report embeds for ``file`` (what its reader saves)."""
    import html as html_module

    found = re.search(rf"<summary>the document \({re.escape(file)}\)</summary><pre>(.*?)</pre>", page, re.S)
    assert found is not None, f"no document {file} in the report"
    document: dict[str, Any] = json.loads(html_module.unescape(found.group(1)))
    return document


def test_the_ambiguities_report_opens_each_witness_in_the_explorer(serve: Any, tmp_path: Path) -> None:
    from rulecraft import witness_report

    budget = Budget(seconds=20, max_examples=20, seed=3)
    results = ambiguities("air", only=["AIR-AMB-35"], budget=budget, examples=False)
    pair = next(p for p in results[0].pairs if p.finding is not None)
    assert pair.finding is not None
    page = witness_report.html_report("air", "Airships", results, budget)
    file = f"witness-AIR-AMB-35-{pair.reading}.json"
    assert f"rulecraft explore air --witness {file}" in page
    url = serve(explore.witness_trace("air", write(tmp_path / file, _document_in(page, file))))
    trace = get(url, "/api/trace")[1]
    assert [s["action"] for s in trace["steps"]] == as_json(list(pair.finding.steps))


def test_the_errata_report_opens_where_play_changes_with_the_chips_marked(serve: Any, tmp_path: Path) -> None:
    # AIR-R-42 (p.4): an additional go costs 3 chips; examples/errata/airships-additional-go-2-chips.yaml
    # makes it 2.  Where the search finds play changing, the variant's seat keeps one chip more and the
    # supply one chip less than under the printed rules.
    from rulecraft import errata_report
    from rulecraft.errata import ErrataReport, load_variant
    from rulecraft.witness import search_pair_games

    variant = load_variant(TWO_CHIPS)
    pair = search_pair_games(
        make_game("air"),
        variant.configure(),
        variant.name,
        Budget(seconds=20, max_examples=30, seed=0),
        make_pair=lambda: (make_game("air"), variant.configure()),
    )
    assert pair.finding is not None
    page = errata_report.html_report(ErrataReport(variant, witness=pair))
    assert "rulecraft explore air --divergence divergence.json" in page
    url = serve(
        explore.divergence_trace("air", write(tmp_path / "divergence.json", _document_in(page, "divergence.json")))
    )
    trace = get(url, "/api/trace")[1]
    assert trace["labels"] == ["printed rules", "variant"]
    end = get(url, f"/api/step/{trace['count']}")[1]
    chips = [p for p in end["differs"] if re.fullmatch(r"boards\[\d\]\.chips", p)]
    assert len(chips) == 1
    seat = int(chips[0][7])
    printed, changed = end["left"]["state"], end["right"]["state"]
    assert changed["boards"][seat]["chips"] - printed["boards"][seat]["chips"] == 1
    assert sum(changed["supplies"]) - sum(printed["supplies"]) == -1
    # What the source reports differs is listed down to the innermost values, as the report's table:
    # the one seat's chips, not every board.
    rows = {row["field"]: (row["left"], row["right"]) for row in trace["reported"]}
    board = f"boards[{seat}].chips"
    assert board in rows and rows[board][1] - rows[board][0] == 1 and "boards" not in rows


# -- the --json outputs of ambiguities and errata open too ---------------------------------------------------------


def _set_up_witness(game_id: str, reading: str, amb: str, default: str = "printed") -> Any:
    """A witness that starts from a set-up (as most do): a seeded game's first steps, as a PairResult."""
    from rulecraft.conformance.findings import Finding
    from rulecraft.witness import PairResult

    game = make_game(game_id)
    steps = random_steps(game, 6, 2, 10)
    finding = Finding("state", "a difference", "differential", steps=tuple(steps), setup={"players": 2})
    return PairResult(amb, default, reading, "witness", "found", finding=finding)


def test_ambiguities_json_output_opens_by_pick_and_a_printed_example_start_is_named(tmp_path: Path) -> None:
    from rulecraft import witness_report
    from rulecraft.witness import AmbiguityResult

    game = make_game("air")
    amb = game.register["AIR-AMB-35"]
    pair = _set_up_witness("air", "max", amb.id, amb.default)
    document = {
        "rulecraft": "x",
        "schema": "ambiguities/1",
        **witness_report.to_json("air", [AmbiguityResult(amb, (pair,))], Budget()),
    }
    trace = explore.witness_trace("air", write(tmp_path / "a.json", document), pick="AIR-AMB-35=max")
    assert trace.steps == as_json(list(pair.finding.steps)) and trace.right is not None
    assert trace.left.label == f"reading {amb.default}" and trace.right.label == "reading max"
    with pytest.raises(explore.ExploreError, match="no witness for AIR-AMB-01"):
        explore.witness_trace("air", write(tmp_path / "a.json", document), pick="AIR-AMB-01")
    # A witness from a printed example's given state: the JSON output carries that state (start_state,
    # issue 20), so it opens from the JSON alone, at that state; an older document without it says so.
    results = ambiguities(
        "air", only=["AIR-AMB-35"], budget=Budget(seconds=20, max_examples=20, seed=3), examples=False
    )
    finding = next(p.finding for p in results[0].pairs if p.finding is not None)
    assert finding.setup is None and finding.start_state is not None  # this search's witness starts so
    document = witness_report.to_json("air", results, Budget())
    witness = next(p["witness"] for p in document["ambiguities"][0]["pairs"] if p.get("witness"))
    assert witness["setup"] is None and witness["start_state"] == finding.start_state
    trace = explore.witness_trace("air", write(tmp_path / "b.json", document))
    assert as_json(game.state_to_json(trace.left.states[0])) == as_json(finding.start_state)
    assert trace.steps == as_json(list(finding.steps)) and trace.right is not None
    del witness["start_state"]
    with pytest.raises(explore.ExploreError, match="start_state: this witness starts from a printed example"):
        explore.witness_trace("air", write(tmp_path / "c.json", document))


def test_errata_json_output_carries_a_printed_example_start_and_opens_from_it(tmp_path: Path) -> None:
    """AIR-R-42 (p.4): an additional go costs 3 chips; the variant makes it 2.  A divergence that starts
    from a printed example's given state carries that state in ``errata --json`` and opens there."""
    from rulecraft.conformance.findings import Finding
    from rulecraft.errata import ErrataReport, load_variant
    from rulecraft.scenarios.loader import load_scenario, scenario_files
    from rulecraft.witness import PairResult

    variant = load_variant(TWO_CHIPS)
    game = make_game("air")
    path = next(p for p in scenario_files("air") if p.stem.startswith("AIR-EX-04-"))
    state = tools(game).scenario_state(load_scenario(path).given)
    given = game.state_to_json(state)
    rng, steps = random.Random(1), []
    for _ in range(3):
        action = game.random_action(state, rng)
        assert action is not None
        steps.append(game.action_to_json(action))
        state = game.apply(state, action)
    finding = Finding("state", "a difference", "AIR-EX-04", steps=tuple(steps), start_state=given)
    pair = PairResult(variant.name, "printed", variant.name, "witness", "found", finding=finding)
    document = {"schema": "errata/1", **ErrataReport(variant, witness=pair).to_json()}
    witness = document["play_changes"]["witness"]
    assert witness["setup"] is None and witness["start_state"] == given
    trace = explore.divergence_trace("air", write(tmp_path / "e.json", document))
    assert as_json(game.state_to_json(trace.left.states[0])) == as_json(given) and len(trace) == 3


def test_errata_json_output_opens_the_variant_beside_the_printed_rules(tmp_path: Path) -> None:
    from rulecraft.errata import ErrataReport, load_variant

    variant = load_variant(TWO_CHIPS)
    pair = _set_up_witness("air", variant.name, variant.name)
    document = {"schema": "errata/1", **ErrataReport(variant, witness=pair).to_json()}
    trace = explore.divergence_trace("air", write(tmp_path / "e.json", document))
    assert trace.left.label == "printed rules" and trace.right is not None and trace.right.label == "variant"
    assert len(trace) == 10 and len(trace.right.states) == 11


def test_a_kas_erratum_divergence_marks_the_money_a_cheaper_depot_leaves(serve: Any, tmp_path: Path) -> None:
    # KAS-R-33 (p.12): a depot costs $4 on a line without one, $7 otherwise; the variant file makes
    # them $3 / $6.  After the first depot built, the builder has exactly $1 more under the variant.
    game = make_game("kas")
    rng = random.Random(0)
    state = game.new_game(2)
    steps: list[dict[str, Any]] = []
    while True:
        mover = game.to_move(state)
        legal = game.legal_actions(state) if isinstance(mover, int) else []
        depot = [a for a in legal if game.action_to_json(a)["kind"] == "build-depot"]
        action = depot[0] if depot else game.random_action(state, rng)
        assert action is not None and len(steps) < 3000
        steps.append(game.action_to_json(action))
        state = game.apply(state, action)
        if depot:
            break
    document = {
        "rulecraft_explore": 1,
        "kind": "divergence",
        "game": "kas",
        "title": "a depot",
        "variant": str(ROOT / "examples" / "errata" / "kas-cheaper-depots.yaml"),
        "start": {"setup": {"players": 2}},
        "steps": steps,
    }
    url = serve(explore.divergence_trace("kas", write(tmp_path / "d.json", document)))
    n = len(steps)
    assert get(url, f"/api/step/{n - 1}")[1]["differs"] == []
    end = get(url, f"/api/step/{n}")[1]
    money = f"players[{mover}].money"
    assert money in end["differs"]
    assert [p for p in end["differs"] if p.startswith("players")] == [money]
    printed, changed = end["left"]["state"], end["right"]["state"]
    assert changed["players"][mover]["money"] - printed["players"][mover]["money"] == 1


def test_every_file_the_page_needs_is_package_data() -> None:
    """An installed rulecraft serves its page: the files are in the package data (the wheel ships them)."""
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]["rulecraft"]
    for name in ["explore_page.html", *explore.STATIC]:
        assert name in shipped and (ROOT / "rulecraft" / name).is_file(), name


def test_a_finding_with_its_implementation_shows_the_implementations_own_answers(serve: Any, tmp_path: Path) -> None:
    # The implementation plays AIR-AMB-35 'max' (fewer throws allowed): asked along the finding's steps,
    # it agrees on the states and offers fewer legal actions at the end, none the rules do not.
    import sys

    report = _air_finding()
    finding = report.findings[0]
    path = write(tmp_path / "finding.json", explore.finding_document("air", finding))
    command = f"{sys.executable} -m rulecraft.conformance.server air --reading AIR-AMB-35=max"
    url = serve(explore.finding_trace("air", path, impl=command))
    trace = get(url, "/api/trace")[1]
    assert trace["labels"] == ["reference", "implementation"]
    end = get(url, f"/api/step/{trace['count']}")[1]
    assert end["right"]["state"] == end["left"]["state"] and end["differs"] == []
    assert end["legal_only"]["left"] and end["legal_only"]["right"] == []
    assert end["right"]["picture"]  # its state reads as ours: drawn too
    # A step played in the page is the reference's alone; the implementation is not asked.
    chosen = end["left"]["legal"][0]["action"]
    assert post(url, {"step": trace["count"], "action": chosen})[1]["legal"] is True
    after = get(url, f"/api/step/{trace['count'] + 1}")[1]
    assert "not sent to it" in after["right"]["note"]


# -- choosing a source inside the page ----------------------------------------------------------------------------


def test_the_page_opens_a_printed_example_or_a_seeded_game_from_the_servers_fixed_list(serve: Any) -> None:
    """The page may open, besides the command line's source, a seeded game (AIR-R-01: at most 4
    players; the box says 2-4) and each printed example by its file, e.g. AIR-EX-04 (p.3)."""
    from rulecraft.scenarios.loader import load_scenario, scenario_files

    game = make_game("air")
    url = serve(explore.seeded_trace(game, 3, 3, max_steps=12))
    status, listed = get(url, "/api/sources")
    assert status == 200 and listed["current"] == "given"
    ids = [s["id"] for s in listed["sources"]]
    files = list(scenario_files("air"))
    assert ids == ["given", "seed", *(f"scenario:{p.stem}" for p in files)]
    players = listed["sources"][1]["params"]["players"]
    assert (players["min"], players["max"]) == (2, 4)
    # A printed example: its given state at step 0, its page in the heading.
    ex04 = next(p for p in files if p.stem.startswith("AIR-EX-04-"))
    status, opened = post_to(url, "/api/open", {"source": f"scenario:{ex04.stem}"})
    assert status == 200 and opened["heading"].startswith("AIR-EX-04 (p.3)")
    start = get(url, "/api/step/0")[1]
    assert start["left"]["state"] == as_json(game.state_to_json(tools(game).scenario_state(load_scenario(ex04).given)))
    assert get(url, "/api/sources")[1]["current"] == f"scenario:{ex04.stem}"
    # A seeded game of the page's choosing: 2 players, its steps replay from a new game.
    status, opened = post_to(url, "/api/open", {"source": "seed", "seed": 5, "players": 2})
    trace = get(url, "/api/trace")[1]
    assert status == 200 and trace["kind"] == "seed" and opened["count"] == trace["count"] > 0
    last = get(url, f"/api/step/{trace['count']}")[1]
    assert len(last["left"]["state"]["boards"]) == 2
    assert last["left"]["state"] == replayed(game, game.new_game(2), [s["action"] for s in trace["steps"]])
    # And back to the command line's source, as it was given.
    status, opened = post_to(url, "/api/open", {"source": "given"})
    assert status == 200 and opened["heading"].endswith("seed 3, 3 players") and opened["count"] == 12


def test_a_source_not_on_the_list_is_a_4xx_and_one_line(serve: Any) -> None:
    url = serve(explore.seeded_trace(make_game("air"), seed=1, players=2, max_steps=5))
    for body, status, field in [
        ({"source": "/etc/passwd"}, 404, "source"),
        ({"source": "scenario:../../rulecraft/explore"}, 404, "source"),
        ({"source": "state:/tmp/x.json"}, 404, "source"),
        ({"source": 3}, 400, "source"),
        ({}, 400, "source"),
        (["given"], 400, "body"),
        ({"source": "given", "path": "/etc/passwd"}, 400, "path"),
        ({"source": "given", "seed": 1}, 400, "seed"),
        ({"source": "seed", "seed": -1}, 400, "seed"),
        ({"source": "seed", "seed": True}, 400, "seed"),
        ({"source": "seed", "players": 5}, 400, "players"),  # AIR-R-01: at most 4
        ({"source": "seed", "players": 1}, 400, "players"),
    ]:
        got, reply = post_to(url, "/api/open", body)
        assert got == status and reply["error"].startswith(field), (body, got, reply)
        assert "\n" not in reply["error"]
    assert get(url, "/api/trace")[1]["count"] == 5  # still the source it had


def post_to(url: str, path: str, body: Any) -> tuple[int, Any]:
    request = urllib.request.Request(
        url.rstrip("/") + path, data=json.dumps(body).encode("utf-8"), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())
