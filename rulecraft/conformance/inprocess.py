"""The reference model under another ruleset, as a peer for the differential engine.

An ambiguity is two rulesets that differ in one reading, an erratum the
printed ruleset against a variant: both are differential testing of the
model against itself.  :class:`InProcess` answers the requests
:class:`~rulecraft.conformance.lockstep.Lockstep` makes of an implementation
(the protocol's replies, as dicts) from a configured :class:`Game` in this
process, so the conformance engine — lockstep comparison, Hypothesis games,
shrinking — finds where two rulesets part ways.

It speaks protocol 2: a reply whose ``to_move`` is ``"over"`` carries the
``outcome``, and ``scores``/``outcome`` answer as the server's ops do.  Every
state reply also carries ``scores`` (the totals) and, at game over,
``winners`` — not protocol fields, but what ``conform``'s self-test compares
(:func:`outcome`): two rulesets can agree on every state and still count the
points differently.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rulecraft.conformance.outcome import outcome_json, scores_json
from rulecraft.conformance.server import to_move_json
from rulecraft.core import A, AnyGame, Chance, Game, GameOver, RulecraftError, S, Setup


class InProcess:
    """A configured game as a protocol peer: no process, no JSON lines, same replies."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.state: Any = None

    # -- the requests Lockstep makes --------------------------------------------------------------
    def hello(self) -> dict[str, Any]:
        return {"ok": True, "game": self.game.id, "protocol": 2, "models": ["*"], "capabilities": ["set_state"]}

    def restart(self) -> None:
        self.state = None

    def new_game(
        self, setup: dict[str, Any], readings: dict[str, str] | None = None, components: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        if readings or components is not None:
            return {"ok": False, "error": "an in-process peer keeps the ruleset it was configured with"}
        try:
            self.state = self.game.start(Setup.from_json(setup))
        except RulecraftError as exc:
            return {"ok": False, "error": str(exc)}
        return self.current()

    def set_state(
        self, state: dict[str, Any], *, readings: dict[str, str] | None = None, fixture: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        try:
            if fixture:
                self.game.load_fixture(fixture)
            self.state = self.game.state_from_json(state)
        except RulecraftError as exc:
            return {"ok": False, "error": str(exc)}
        return {"ok": True, "to_move": to_move_json(self.game.to_move(self.state))}

    def chance_outcomes(self) -> dict[str, str]:
        """The chance outcomes and their exact probabilities (not a protocol request)."""
        return {_key(self.game.action_to_json(a)): str(p) for a, p in self.game.chance_outcomes(self.state)}

    def legal_actions(self) -> dict[str, Any]:
        if isinstance(self.game.to_move(self.state), Chance | GameOver):
            return {"ok": True, "actions": []}
        return {"ok": True, "actions": [self.game.action_to_json(a) for a in self.game.legal_actions(self.state)]}

    def apply(self, data: Mapping[str, Any]) -> dict[str, Any]:
        try:
            action = self.game.action_from_json(data)
        except RulecraftError as exc:
            return {"ok": False, "error": str(exc)}
        rejection = self.game.check(self.state, action)
        if rejection is not None:
            return {"ok": False, "rejected": {"rule": rejection.rule, "reason": rejection.reason}}
        self.state = self.game.transition(self.state, action)
        return self.current()

    def scores(self) -> dict[str, Any]:
        """Protocol 2's ``scores``: the score parts per seat, now."""
        return {"ok": True, "scores": scores_json(self.game.score_parts(self.state))}

    def outcome(self) -> dict[str, Any]:
        """Protocol 2's ``outcome``: the game's outcome, null before the end."""
        return {"ok": True, "outcome": outcome_json(self.game, self.state)}

    # -- replies ------------------------------------------------------------------------------------
    def current(self) -> dict[str, Any]:
        return {
            "ok": True,
            "state": self.game.state_to_json(self.state),
            "to_move": to_move_json(self.game.to_move(self.state)),
            **outcome(self.game, self.state),
        }


def _key(action: Mapping[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def outcome(game: Game[S, A], state: S) -> dict[str, Any]:
    """What two rulesets may count differently in the same state: the total ``scores`` per seat, and
    at game over the ``winners`` and protocol 2's ``outcome`` (``Outcome.to_json()``)."""
    scores = {str(seat): points for seat, points in game.scores(state).items()}
    out: dict[str, Any] = {"scores": scores}
    if isinstance(game.to_move(state), GameOver):
        out["winners"] = list(game.winners(state))
        out["outcome"] = outcome_json(game, state)
    return out
