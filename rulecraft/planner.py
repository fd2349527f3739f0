"""A planned playout: a beam search over the reference's own states, for the ends a random player
never reaches.

A random or "purposeful" player loses every solo game of Steamopolis to time pressure (STM-R-69):
each MAKE STEAM and FLY costs a VP, and only a player who plans ahead earns them back.  So the solo
end (STM-R-73), its final turn and its rank table are never played by a search that draws moves one
at a time.  A :class:`Planner` looks ahead instead: from the state where it is first asked, it keeps
the ``width`` best of the states one step further (a seeded sample of ``sample`` options of each,
chance's outcomes too), scored by the game's ``value``, until the game ends; then it plays the path
to one of the finished states.  Usually (``boundary_rate``) that is the finished state nearest a boundary of the
outcome (``margin`` 0: a tie, a rank threshold met exactly), where a comparison that should be
``>=`` and is ``>`` shows; otherwise the best one.

Everything is bounded by counts (``width``, ``sample``, ``horizon``): the same seed plans the same
game on any machine.  The plan of a game is kept with that game's random generator, so one game's
plan never leaks into another's choices.
"""

from __future__ import annotations

import json
import random
import weakref
from collections.abc import Callable, Hashable
from typing import Any

import attrs

from rulecraft.core import A, AnyGame, Chance, Game, GameOver, S

Value = Callable[[AnyGame, Any], float]  # (game, state) -> how good, higher better; -inf: lost

# Per game (its random generator): state -> the planned action there.  Weak keys, so a finished
# game's plan goes with its generator.
_PLANS: weakref.WeakKeyDictionary[random.Random, dict[Hashable, Any]] = weakref.WeakKeyDictionary()
_GAVE_UP = object()  # in a game's plans: no plan reached the end, the game goes on unplanned


@attrs.frozen
class Node:
    """A state of the beam and the way to it (a linked list back to the root)."""

    state: Any
    action: Any = None
    parent: Node | None = None

    def path(self) -> list[tuple[Any, Any]]:
        """(state before, action) from the root to this node, in order."""
        out: list[tuple[Any, Any]] = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            out.append((node.parent.state, node.action))
            node = node.parent
        return out[::-1]


@attrs.frozen
class Planner:
    """A playout policy that plans the rest of the game by beam search (see the module text).

    It chooses chance's outcomes as well as the seats' moves (``chooses_chance``): a planned game is
    a legal game that chance happened to deal, as a close finish is."""

    value: Value
    margin: Callable[[AnyGame, Any], float | None] | None = None
    width: int = attrs.field(default=12, validator=attrs.validators.ge(1))
    sample: int = attrs.field(default=6, validator=attrs.validators.ge(1))
    horizon: int = attrs.field(default=3000, validator=attrs.validators.ge(1))
    chooses_chance: bool = True
    boundary_rate: float = 0.8  # how often a plan ends on a boundary of the outcome rather than its best
    variants: int = attrs.field(default=16, validator=attrs.validators.ge(0))  # endings tried for a boundary
    variants_back: int = attrs.field(default=40, validator=attrs.validators.ge(1))  # from this many steps back
    # Where planning pays (None: everywhere); elsewhere ``otherwise`` chooses a seat's move (None: a
    # uniform choice) and chance goes by its odds.
    when: Callable[[AnyGame, Any], bool] | None = None
    otherwise: Callable[[Any, Any, random.Random], Any] | None = None  # (game, state, rng) -> a move

    def plans_here(self, game: AnyGame, state: Any) -> bool:
        """Whether this state is planned (so chance's outcome here is the plan's, not a draw)."""
        return self.when is None or self.when(game, state)

    def __call__(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        if not self.plans_here(game, state):
            return self._unplanned(game, state, rng)
        plans = _PLANS.setdefault(rng, {})
        if _GAVE_UP in plans:
            return self._unplanned(game, state, rng)
        key = _key(game, state)
        if key not in plans:
            plans.clear()  # off the last plan (or none yet): plan afresh from here
            path, ends = self.planned(game, state, rng)
            for before, action in path:
                # The action at a state's last visit: a path that comes back to a state (a loop of moves
                # that changes nothing, as a parasite taken back and placed again, STM-R-72) then
                # leaves it as the plan does, where the first visit's action would loop forever.
                plans[_key(game, before)] = action
            if not ends:
                # No end within the horizon (a loop the value cannot see past): planning again from
                # the best state would cost as much for as little, so this game plays on unplanned.
                plans[_GAVE_UP] = True
        if key in plans:
            return plans[key]
        return self._unplanned(game, state, rng)

    def _unplanned(self, game: AnyGame, state: Any, rng: random.Random) -> Any:
        if isinstance(game.to_move(state), Chance):
            return game.sample_chance(state, rng)  # by its exact odds, as every random game
        return self.otherwise(game, state, rng) if self.otherwise else rng.choice(_options(game, state))

    def planned(self, game: AnyGame, root: Any, rng: random.Random) -> tuple[list[tuple[Any, Any]], bool]:
        """:meth:`plan`'s path and whether it reaches the end of the game."""
        path = self.plan(game, root, rng)
        end = game.transition(path[-1][0], path[-1][1]) if path else root
        return path, isinstance(game.to_move(end), GameOver)

    def plan(self, game: AnyGame, root: Any, rng: random.Random) -> list[tuple[Any, Any]]:
        """(state, action) pairs from ``root`` to the chosen finished state (or, past the horizon,
        the best state reached)."""
        finished, beam = self._search(game, Node(root), rng)
        if not finished:
            return max(((self.value(game, n.state), n) for n in beam), key=lambda pair: pair[0])[1].path()
        best = max(finished, key=lambda pair: pair[0])[1]
        if self.margin is None or rng.random() >= self.boundary_rate:
            return best.path()
        return self._boundary(game, best, finished, rng).path()

    def _search(self, game: AnyGame, root: Node, rng: random.Random) -> tuple[list[tuple[float, Node]], list[Node]]:
        """The beam from ``root``: the finished nodes (with their values) and the last unfinished beam."""
        beam = [root]
        finished: list[tuple[float, Node]] = []
        for _ in range(self.horizon):
            children: dict[Hashable, tuple[float, Node]] = {}
            for node in beam:
                for action in self._sampled(game, node.state, rng):
                    try:
                        after = game.transition(node.state, action)
                    except Exception:  # an option the reference cannot play on: not a way forward
                        continue
                    key = _key(game, after)
                    if key not in children:
                        children[key] = (self.value(game, after), Node(after, action, node))
            if not children:
                break
            ranked = list(children.values())
            rng.shuffle(ranked)  # equal values in a seeded order, not the order of the options
            ranked.sort(key=lambda pair: pair[0], reverse=True)
            beam = []
            for score, node in ranked[: self.width]:
                if isinstance(game.to_move(node.state), GameOver):
                    finished.append((score, node))
                else:
                    beam.append(node)
            if not beam:
                break
        return finished, beam

    def _boundary(self, game: AnyGame, best: Node, finished: list[tuple[float, Node]], rng: random.Random) -> Node:
        """A finished game nearest a boundary of the outcome (margin 0 first).  The beam's own ends are
        near-copies, so the last ``variants_back`` steps of the best path are replayed ``variants``
        times from a seeded step with a narrow beam of their own: endings that differ by a point."""
        assert self.margin is not None
        spine: list[Node] = []
        node: Node | None = best
        while node is not None and len(spine) < self.variants_back:
            spine.append(node)
            node = node.parent
        ends = list(finished)
        narrow = attrs.evolve(self, width=max(1, self.width // 4), sample=max(1, self.sample // 2), margin=None)
        for _ in range(self.variants if len(spine) > 1 else 0):
            fork = rng.choice(spine[1:])
            for score, end in narrow._search(game, fork, rng)[0]:
                ends.append((score, end))
        alive = [(s, n) for s, n in ends if s > float("-inf")]
        scored = [(m, s, n) for s, n in alive if (m := self.margin(game, n.state)) is not None]
        if not scored:
            return best
        nearest = min(m for m, _, _ in scored)
        return max(((s, n) for m, s, n in scored if m == nearest), key=lambda pair: pair[0])[1]

    def _sampled(self, game: AnyGame, state: Any, rng: random.Random) -> list[Any]:
        mover = game.to_move(state)
        if isinstance(mover, GameOver):
            return []
        if isinstance(mover, Chance):
            outcomes = game.chance_outcomes(state)
            if len(outcomes) <= self.sample:
                return [a for a, _ in outcomes]
            drawn = rng.choices([a for a, _ in outcomes], weights=[float(p) for _, p in outcomes], k=self.sample)
            return list(dict.fromkeys(drawn))
        legal = list(game.legal_actions(state))
        return legal if len(legal) <= self.sample else rng.sample(legal, self.sample)


def _key(game: Game[S, A], state: S) -> Hashable:
    """The state itself where it hashes (frozen states do), else its JSON as text."""
    try:
        hash(state)
    except TypeError:
        return json.dumps(game.state_to_json(state), sort_keys=True, default=str)
    return state


def _options(game: Game[S, A], state: S) -> list[Any]:
    mover = game.to_move(state)
    if isinstance(mover, Chance):
        return [a for a, _ in game.chance_outcomes(state)]
    return list(game.legal_actions(state))
