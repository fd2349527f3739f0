"""The per-game protocol pages (docs/protocol/<game>.md) say only what the reference does.

Each page lists the choices the rulebook leaves to an implementation.  This test holds
every checkable statement of a page to the reference model:

- every rule ID (``AIR-R-12``, ``AER-SET-03``) it mentions is in that game's catalogue,
  every ambiguity ID (``AIR-AMB-15``) in its register, and every printed-example ID
  (``AIR-EX-05``) names a scenario file;
- its table of ambiguities (rows ``| AIR-AMB-15 | `next` | ...``) lists every registered
  ambiguity once, with the register's default reading;
- every fenced ``json`` block is one action, in exactly the form the reference writes it
  (``action_to_json(action_from_json(x)) == x``);
- every fenced exchange block replays against the reference server in-process: a block
  is one fresh session; ``> `` lines are requests, each followed by its answer, either
  ``< `` (the whole answer, compared as parsed JSON) or ``<~ `` (a part of it: every
  object field shown must be there with that value; arrays and other values compare whole).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rulecraft.conformance.server import Session
from rulecraft.registry import game_class, make_game

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("air", "kas", "stm", "aer")
PREFIX = {"AIR": "air", "KAS": "kas", "STM": "stm", "AER": "aer"}
ID_RE = re.compile(r"\b(AIR|KAS|STM|AER)-(R|SET|AMB|EX)-(\d+)\b")
FENCE_RE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
AMB_ROW_RE = re.compile(r"^\| *((?:AIR|KAS|STM|AER)-AMB-\d+) *\| *`([^`]+)` *\|", re.M)


def page(gid: str) -> str:
    return (ROOT / "docs" / "protocol" / f"{gid}.md").read_text("utf-8")


def fences(text: str) -> list[tuple[str, str]]:
    """(info string, body) of every fenced block."""
    return [(m.group(1).strip(), m.group(2)) for m in FENCE_RE.finditer(text)]


def exchange_blocks(text: str) -> list[list[str]]:
    """The fenced blocks made of ``> ``/``< ``/``<~ `` lines only."""
    out = []
    for info, body in fences(text):
        lines = [line for line in body.splitlines() if line.strip()]
        if info != "json" and lines and all(line.startswith(("> ", "< ", "<~ ")) for line in lines):
            out.append(lines)
    return out


def canon(value: Any) -> str:
    """JSON values compare as text, so that 1 and true, or 1 and 1.0, never pass for each other."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def matches(pattern: Any, actual: Any) -> bool:
    """``actual`` shows everything ``pattern`` shows: object fields by subset, the rest whole."""
    if isinstance(pattern, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in pattern.items())
    return canon(pattern) == canon(actual)


def pairs(lines: list[str]) -> list[tuple[str, str]]:
    """(request line, answer line) pairs of an exchange block, in order."""
    assert len(lines) % 2 == 0, f"a request without its answer, or the reverse: {lines[-1][:80]}"
    out = []
    for request, answer in zip(lines[::2], lines[1::2], strict=True):
        assert request.startswith("> "), f"a request line starts with '> ': {request[:80]}"
        assert answer.startswith(("< ", "<~ ")), f"an answer line starts with '< ' or '<~ ': {answer[:80]}"
        out.append((request[2:], answer))
    return out


@pytest.mark.parametrize("gid", PAGES)
def test_every_cited_id_exists(gid: str) -> None:
    ids = {m.group(0): (m.group(1), m.group(2)) for m in ID_RE.finditer(page(gid))}
    assert any(PREFIX[p] == gid for p, _ in ids.values()), "a page cites its own game's rules"
    unknown = []
    for ident, (prefix, kind) in sorted(ids.items()):
        cls = game_class(PREFIX[prefix])
        if kind in ("R", "SET"):
            known = ident in cls.catalogue
        elif kind == "AMB":
            known = any(a.id == ident for a in cls.register)
        else:
            known = any((ROOT / "scenarios" / cls.scenario_folder).glob(f"{ident}-*.yaml"))
        if not known:
            unknown.append(ident)
    assert not unknown, f"docs/protocol/{gid}.md cites IDs the game does not have: {unknown}"


@pytest.mark.parametrize("gid", PAGES)
def test_the_ambiguity_table_gives_every_default(gid: str) -> None:
    rows = AMB_ROW_RE.findall(page(gid))
    listed = [amb for amb, _ in rows]
    register = {a.id: a.default for a in game_class(gid).register}
    assert sorted(listed) == sorted(register), "every registered ambiguity, each once"
    wrong = {amb: (default, register[amb]) for amb, default in rows if register[amb] != default}
    assert not wrong, f"(page, register) defaults differ: {wrong}"


@pytest.mark.parametrize("gid", PAGES)
def test_action_examples_are_in_the_reference_form(gid: str) -> None:
    game = make_game(gid)
    examples = [body for info, body in fences(page(gid)) if info == "json"]
    assert examples, "the page shows its actions"
    for body in examples:
        data = json.loads(body)
        action = game.action_from_json(data)
        assert canon(game.action_to_json(action)) == canon(data), f"not the reference's own form: {body.strip()}"


@pytest.mark.parametrize("gid", PAGES)
def test_exchanges_replay_against_the_reference_server(gid: str) -> None:
    blocks = exchange_blocks(page(gid))
    assert blocks, "the page shows exchanges"
    for lines in blocks:
        session = Session(gid)  # one block, one session
        for request, answer in pairs(lines):
            response, _done = session.handle_line(request)
            got = json.loads(json.dumps(response))  # the answer as a client parses it
            whole = answer.startswith("< ")
            documented = json.loads(answer[2:] if whole else answer[3:])
            ok = canon(documented) == canon(got) if whole else matches(documented, got)
            assert ok, f"{gid}: > {request[:160]}\n documented: {answer[:400]}\n reference:  {canon(got)[:400]}"
