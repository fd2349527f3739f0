"""Errata and variants: what a rule change contradicts, breaks and shifts.

A variant file (YAML, schema ``rulecraft/schemas/variant.json``, documented
in docs/errata.md) names a game and changes its rules: readings settled
against the default, rule parameters (costs, limits, counts), another
component pack, and named rule-logic plugins.  :func:`errata_report` puts the
variant beside the printed rules and reports

1. the printed examples whose printed outcome no longer holds;
2. the invariants the variant breaks, each with a shortest witness game;
3. a state where play changes (the witness engine of ``rulecraft ambiguities``);
4. how play shifts over seeded random games under both rulesets: game
   length, score spread, how often each action is legal, first-player wins.

A plugin is a callable ``plugin(game) -> game`` registered under the entry
point group ``rulecraft.variants``; most subclass :class:`Amendment`.  A
plugin is code: a variant file may name ``module:function`` only when the
caller passes ``allow_plugin_code=True`` (``--allow-plugin-code``), since a
data file must not run code its reader did not choose to install.  A plugin that raises is reported as such and
the rest of the report still runs.
"""

from __future__ import annotations

import abc
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Container, Mapping
from functools import cache
from importlib import import_module, resources
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import attrs

from rulecraft import yamlio
from rulecraft.core import AnyGame, Candidates, Chance, Game, GameOver, Rejection, RulecraftError, Seat, Setup
from rulecraft.packs import PackError, read_pack_file
from rulecraft.registry import game_class, game_ids, make_game
from rulecraft.ruleset import UnknownReading
from rulecraft.scenarios.loader import ScenarioFileError, load_scenario, scenario_files
from rulecraft.scenarios.runner import run_scenario
from rulecraft.verify import Finding as PlayFinding
from rulecraft.verify import GameReport, campaign
from rulecraft.witness import Budget, PairResult, search_pair_games
from rulecraft.yamlio import DataFileError, excerpt
from rulecraft.yamlio import name as name_of

if TYPE_CHECKING:
    import jsonschema
    from hypothesis.database import ExampleDatabase

    from rulecraft.conformance.kept import DifferenceStore

PLUGIN_GROUP = "rulecraft.variants"


class VariantFileError(DataFileError):
    """A variant file that cannot be used: the file, the field and why."""


class PluginError(RulecraftError):
    """A plugin that cannot be found, or raised while changing the rules."""


# -- the file -------------------------------------------------------------------------------------------------


@attrs.frozen
class Variant:
    name: str
    game: str
    title: str
    path: str
    description: str = ""
    source: str = ""
    readings: Mapping[str, str] = attrs.field(factory=dict)
    parameters: Mapping[str, int] = attrs.field(factory=dict)
    components: Path | None = None
    plugins: tuple[str, ...] = ()
    allow_plugin_code: bool = False  # whether plugins may name module:function (code the file chose)

    def configure(self, readings: Mapping[str, str] | None = None, components: Path | None = None) -> AnyGame:
        """The variant's game: ``readings`` underneath the variant's own; the pack is the variant's,
        else ``components`` (a printed example's fixture pack)."""
        chosen = dict(readings or {}) | dict(self.readings)
        game = make_game(
            self.game,
            readings=chosen,
            components=self.components or components,
            parameters=dict(self.parameters) or None,
        )
        for name in self.plugins:
            plugin = load_plugin(name, allow_code=self.allow_plugin_code)
            try:
                game = plugin(game)
            except Exception as exc:
                raise PluginError(
                    f"plugin {name!r} raised while changing the rules: {type(exc).__name__}: {exc}"
                ) from exc
            if not isinstance(game, Game):
                raise PluginError(f"plugin {name!r} returned {type(game).__name__}, not a game")
        return game


@cache
def variant_schema() -> dict[str, Any]:
    text = resources.files("rulecraft").joinpath("schemas/variant.json").read_text("utf-8")
    data: dict[str, Any] = yamlio.load_json_text(text, "rulecraft/schemas/variant.json")
    return data


@cache
def _validator() -> jsonschema.protocols.Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(variant_schema())


def load_variant(path: str | Path, *, allow_plugin_code: bool = False) -> Variant:
    """Read and check a variant file; every problem names the file and the field.

    A data file does not run code: its ``plugins`` may name only plugins installed under the entry
    point group :data:`PLUGIN_GROUP`; a ``module:function`` is refused unless ``allow_plugin_code``
    (the CLI's ``--allow-plugin-code``) says the user trusts this file."""
    p = Path(path)
    data = yamlio.load_file(p, error=VariantFileError)
    if not isinstance(data, dict):
        raise VariantFileError(p, "(top level)", "a variant file is a mapping (variant:, game:, title:, ...)")
    errors = sorted(yamlio.schema_errors(_validator(), data), key=lambda e: list(map(str, e.path)))
    if errors:
        first = errors[0]
        raise VariantFileError(p, yamlio.field_of(first.absolute_path), yamlio.schema_message(first))
    game_id = data["game"]
    if game_id not in game_ids():
        raise VariantFileError(
            p, "game", f"{excerpt(game_id)} is not a registered game; known: {', '.join(game_ids())}"
        )
    cls = game_class(game_id)
    readings = dict(data.get("readings") or {})
    _check_readings(p, cls, readings)
    parameters = dict(data.get("parameters") or {})
    _check_parameters(p, cls, parameters)
    components = _components(p, data.get("components"))
    plugins = tuple(data.get("plugins") or ())
    for i, plugin in enumerate(plugins):
        try:
            load_plugin(plugin, allow_code=allow_plugin_code)
        except PluginError as exc:
            raise VariantFileError(p, f"plugins[{i}]", str(exc)) from None
    variant = Variant(
        data["variant"],
        game_id,
        data["title"],
        str(p),
        data.get("description", ""),
        data.get("source", ""),
        readings,
        parameters,
        components,
        plugins,
        allow_plugin_code,
    )
    try:  # configuring checks what only the game can: unmodelled readings, the pack's own schema
        make_game(game_id, readings=readings, components=components, parameters=parameters or None)
    except RulecraftError as exc:
        field = "components" if components is not None and str(components) in str(exc) else "readings"
        raise VariantFileError(p, field, str(exc)) from None
    return variant


def _check_readings(p: Path, cls: type[AnyGame], readings: Mapping[str, str]) -> None:
    for amb_id, key in readings.items():
        try:
            keys = cls.register[amb_id].choices()
        except UnknownReading:
            raise VariantFileError(
                p, f"readings.{name_of(amb_id)}", f"not a registered ambiguity of {cls.id}"
            ) from None
        if key not in keys:
            raise VariantFileError(
                p, f"readings.{amb_id}", f"{excerpt(key)} is not a reading; choose one of {list(keys)}"
            )


def _check_parameters(p: Path, cls: type[AnyGame], parameters: Mapping[str, int]) -> None:
    table = cls.parameters
    for param, value in parameters.items():
        if not len(table):
            raise VariantFileError(p, f"parameters.{name_of(param)}", f"{cls.id} has no rule parameters")
        try:
            table.resolve({param: value}, where="parameters")
        except RulecraftError as exc:
            raise VariantFileError(p, f"parameters.{name_of(param)}", str(exc).split(": ", 1)[-1]) from None


def _components(p: Path, given: str | None) -> Path | None:
    """The variant's pack, resolved against the variant's folder and read once here, so that a path to
    something that is not a pack (``/etc/passwd``) is one line that does not quote it."""
    if not given:
        return None
    components = (p.parent / given).resolve()
    try:
        data = read_pack_file(components)
    except PackError as exc:
        raise VariantFileError(p, "components", f"{components}: {exc.message}") from None
    if not isinstance(data, dict):
        raise VariantFileError(p, "components", f"{components} is not a component pack (a YAML mapping)")
    return components


def load_plugin(name: str, *, allow_code: bool = False) -> Callable[[AnyGame], AnyGame]:
    """An entry point of the group ``rulecraft.variants``; a ``module:function`` only with ``allow_code``
    (it imports any module and calls any callable: code, which a data file must not run unasked)."""
    if ":" in name:
        if not allow_code:
            raise PluginError(
                f"{excerpt(name)} names code to import (module:function), which a data file may not run; "
                f"install it as an entry point of {PLUGIN_GROUP}, or pass --allow-plugin-code "
                "(allow_plugin_code=True) if you trust this file"
            )
        module, _, attr = name.partition(":")
        try:
            found = getattr(import_module(module), attr)
        except Exception as exc:
            raise PluginError(f"cannot load plugin {excerpt(name)}: {type(exc).__name__}: {exc}") from None
    else:
        matches = [ep for ep in entry_points(group=PLUGIN_GROUP) if ep.name == name]
        if not matches:
            known = sorted(ep.name for ep in entry_points(group=PLUGIN_GROUP))
            raise PluginError(f"no plugin {excerpt(name)} in the entry point group {PLUGIN_GROUP}; known: {known}")
        try:
            found = matches[0].load()
        except Exception as exc:
            raise PluginError(f"plugin {name!r} failed to load: {type(exc).__name__}: {exc}") from None
    if not callable(found):
        raise PluginError(f"plugin {name!r} is not callable")
    plugin: Callable[[AnyGame], AnyGame] = found
    return plugin


# -- rule-logic plugins ---------------------------------------------------------------------------------------


class Amendment(AnyGame):
    """A game with some rules changed: everything not overridden is the base game's.

    Subclass and override ``check`` / ``legal_actions`` / ``transition`` (or
    any other hook); keep generation and check in agreement.  Attributes the
    model's own code reads (``ctx``, ``pack``...) come from the base game.
    """

    def __init__(self, base: AnyGame) -> None:
        self.base = base
        self.ruleset = base.ruleset
        # The class attributes every tool reads, taken over from the base game.
        for attr in (
            "id",
            "title",
            "catalogue",
            "register",
            "min_players",
            "max_players",
            "scenario_folder",
            "load_invariants",
        ):
            setattr(self, attr, getattr(base, attr))

    def __getattr__(self, name: str) -> Any:
        if name == "base":  # not yet set: avoid recursing during construction
            raise AttributeError(name)
        return getattr(self.base, name)

    @classmethod
    def configured(
        cls,
        *,
        readings: Mapping[str, str] | None = None,
        components: str | Path | None = None,
        parameters: Mapping[str, int] | None = None,
    ) -> AnyGame:
        raise RulecraftError("an amendment is made by its plugin from a configured game, not configured itself")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base!r})"

    # -- where an amendment differs from plain forwarding (every other method: see below).
    def rejections(self, state: Any, action: Any) -> tuple[Rejection, ...]:
        first = self.check(state, action)
        if first is None:
            return ()
        if type(self).check is Amendment.check:  # the base game's rules judge: all of them
            return self.base.rejections(state, action)
        return (first,)  # an amended check: its own word, the base's list may no longer hold

    def candidates(self, state: Any) -> Candidates[Any]:
        """The base game's candidates while the amendment leaves its moves and its check alone; else the
        amended ``legal_actions``, every one legal (the base's candidates and test would draw what the
        amendment forbids)."""
        if type(self).legal_actions is Amendment.legal_actions and type(self).check is Amendment.check:
            return self.base.candidates(state)
        return self.legal_actions(state), None

    def score_parts(self, state: Any) -> Mapping[Seat, Mapping[str, int]]:
        if type(self).scores is not Amendment.scores:  # scoring changed: the parts are the total
            return super().score_parts(state)
        return self.base.score_parts(state)


# Game's methods that are built from the others (``apply`` is ``check`` then ``transition``...): they
# run on the amended ones.  Every other method of the Game interface that Amendment does not define
# above, abstract or with a default, is the base game's, forwarded by name; a hook Game gains later is
# forwarded without a change here (a hand-written list drifted: a hook missing from it fell back to
# Game's default, e.g. an amended game scored by total alone and took state files unchecked).
_COMPOSED = frozenset({"apply", "is_legal", "is_over", "outcome", "play_random", "random_action", "replay", "start"})


def _forward(name: str) -> Callable[..., Any]:
    def forward(self: Amendment, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.base, name)(*args, **kwargs)

    forward.__name__ = name
    forward.__qualname__ = f"Amendment.{name}"
    forward.__doc__ = f"The base game's ``{name}``."
    return forward


def _forwarded() -> tuple[str, ...]:
    return tuple(
        sorted(
            name
            for name, value in vars(Game).items()
            if callable(value) and not name.startswith("__") and name not in _COMPOSED and name not in vars(Amendment)
        )
    )


FORWARDED = _forwarded()
for _name in FORWARDED:
    setattr(Amendment, _name, _forward(_name))
abc.update_abstractmethods(cast(type[Any], Amendment))  # the forwards above implement the abstract methods

# -- the report ---------------------------------------------------------------------------------------------


@attrs.frozen
class Contradiction:
    example: str
    page: str
    title: str
    detail: str
    error: bool = False  # the example could not even be played under the variant


@attrs.frozen
class PlayStats:
    """Seeded random games under one ruleset."""

    games: int
    finished: int
    lengths: tuple[int, ...]
    spreads: tuple[int, ...]  # highest minus lowest score at the end of each finished game
    first_player_wins: int  # finished games the first seat won (shared wins count)
    decisions: int  # decision states seen (chance steps left out)
    legal_kinds: Mapping[str, int]  # decision states where at least one action of the kind was legal
    crashed: str = ""

    def mean_length(self) -> float:
        return statistics.fmean(self.lengths) if self.lengths else 0.0

    def mean_spread(self) -> float:
        return statistics.fmean(self.spreads) if self.spreads else 0.0

    def first_player_rate(self) -> float:
        return self.first_player_wins / self.finished if self.finished else 0.0

    def legal_rate(self, kind: str) -> float:
        return self.legal_kinds.get(kind, 0) / self.decisions if self.decisions else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "finished": self.finished,
            "mean_length": round(self.mean_length(), 2),
            "mean_score_spread": round(self.mean_spread(), 2),
            "first_player_win_rate": round(self.first_player_rate(), 3),
            "legal_rate": {k: round(self.legal_rate(k), 3) for k in sorted(self.legal_kinds)},
            "crashed": self.crashed or None,
        }


def play_stats(
    game: AnyGame, *, games: int, seed: int, players: int, max_steps: int, only: Container[int] | None = None
) -> PlayStats:
    """``games`` random games from the same seeds (so both rulesets get the same deals where they can);
    ``only``: just these game indexes (a shard's share)."""
    lengths: list[int] = []
    spreads: list[int] = []
    first_wins = finished = decisions = 0
    kinds: Counter[str] = Counter()
    crashed = ""
    indexes = [i for i in range(games) if only is None or i in only]
    for i in indexes:
        rng = random.Random(seed * 1_000_003 + i)
        try:
            state = game.start(Setup(players))
            steps = 0
            while steps < max_steps:
                mover = game.to_move(state)
                if isinstance(mover, GameOver):
                    break
                if not isinstance(mover, Chance):
                    decisions += 1
                    kinds.update({game.action_to_json(a)["kind"] for a in game.legal_actions(state)})
                action = game.random_action(state, rng)
                if action is None:
                    break
                state = game.apply(state, action)
                steps += 1
            if isinstance(game.to_move(state), GameOver):
                finished += 1
                lengths.append(steps)
                scores = game.scores(state)
                spreads.append(max(scores.values()) - min(scores.values()))
                first_wins += 1 if 0 in game.winners(state) else 0
        except Exception as exc:  # a plugin's bug: reported, and the other numbers still count
            crashed = crashed or f"game {i}: {type(exc).__name__}: {exc}"
    return PlayStats(
        len(indexes), finished, tuple(lengths), tuple(spreads), first_wins, decisions, dict(kinds), crashed
    )


@attrs.define
class ErrataReport:
    variant: Variant
    examples_run: int = 0
    contradicted: list[Contradiction] = attrs.Factory(list)
    unchecked: list[Contradiction] = attrs.Factory(list)  # expectations the variant's game cannot answer
    invariants: GameReport | None = None
    witness: PairResult | None = None
    printed: PlayStats | None = None
    changed: PlayStats | None = None
    problems: list[str] = attrs.Factory(list)
    seconds: float = 0.0

    @property
    def broken_invariants(self) -> list[PlayFinding]:
        return [f for f in (self.invariants.findings if self.invariants else []) if f.kind == "invariant"]

    def to_json(self) -> dict[str, Any]:
        from rulecraft.witness_report import pair_json  # a witness from a printed example: its given state too

        v = self.variant
        return {
            "variant": v.name,
            "game": v.game,
            "title": v.title,
            "file": v.path,
            "changes": {
                "readings": dict(v.readings),
                "parameters": dict(v.parameters),
                "components": str(v.components) if v.components else None,
                "plugins": list(v.plugins),
            },
            "examples_run": self.examples_run,
            "contradicted": [attrs.asdict(c) for c in self.contradicted],
            "unchecked": [attrs.asdict(c) for c in self.unchecked],
            "invariants": [
                {
                    "kind": f.kind,
                    "message": f.message,
                    "setup": f.setup.to_json() if f.setup else None,
                    "steps": list(f.log),
                    "steps_text": list(f.log_text),
                }
                for f in (self.invariants.findings if self.invariants else [])
            ],
            "play_changes": pair_json(self.witness) if self.witness else None,
            "shift": {
                "printed": self.printed.to_json() if self.printed else None,
                "variant": self.changed.to_json() if self.changed else None,
            },
            "problems": list(self.problems),
            "seconds": round(self.seconds, 2),
        }


@attrs.frozen
class ErrataBudget:
    games: int = 60  # per ruleset, for the shift
    players: int | None = None  # None: the game's smallest count + 1 (capped)
    campaign_games: int = 40
    max_steps: int | None = None  # None: the game's own campaign cap (Game.campaign_steps)
    witness: Budget = attrs.field(factory=lambda: Budget(seconds=20, max_examples=150))
    seed: int = 0


def errata_units(variant: Variant, budget: ErrataBudget) -> list[str]:
    """The whole errata run's units, in order (:mod:`rulecraft.shard`): each printed example
    (``example:FILE``), each invariant-campaign game (``campaign:I``), the search for where play
    changes (``witness``, one seeded search) and each random game of the shift (``shift:I``, under
    both rulesets)."""
    return (
        [f"example:{path.name}" for path in scenario_files(variant.game)]
        + [f"campaign:{i}" for i in range(budget.campaign_games)]
        + ["witness"]
        + [f"shift:{i}" for i in range(budget.games)]
    )


def _indexes(units: Container[str] | None, kind: str, count: int) -> set[int] | None:
    return None if units is None else {i for i in range(count) if f"{kind}:{i}" in units}


def errata_report(
    variant: Variant,
    budget: ErrataBudget = ErrataBudget(),
    progress: Callable[[str], None] | None = None,
    units: Container[str] | None = None,
    database: ExampleDatabase | None = None,
    say: Callable[[str], None] | None = None,
) -> ErrataReport:
    """``units``: only these units of :func:`errata_units` (a shard's share); None: all.
    ``database``: where the state where play changes is kept and replayed from before the search,
    which is skipped when it still shows the change (default: the one a setting configured; none:
    nothing is kept); ``say`` receives the one-line reports of the replays (default: stderr)."""
    report = ErrataReport(variant)
    start = time.monotonic()
    printed = make_game(variant.game)

    def step(what: str) -> None:
        if progress:
            progress(what)

    try:
        changed = variant.configure()
    except RulecraftError as exc:
        report.problems.append(str(exc))
        report.seconds = time.monotonic() - start
        return report
    step("printed examples")
    _contradictions(variant, report, units)
    step("invariants")
    max_steps = budget.max_steps or printed.campaign_steps
    try:
        inv = GameReport(variant.game, printed.title)
        only = _indexes(units, "campaign", budget.campaign_games)
        campaign(changed, seed=budget.seed, games=budget.campaign_games, max_steps=max_steps, report=inv, only=only)
        report.invariants = inv
    except Exception as exc:
        report.problems.append(f"the invariant campaign stopped: {type(exc).__name__}: {exc}")
    step("where play changes")
    try:
        if units is None or "witness" in units:
            report.witness = search_pair_games(
                printed,
                changed,
                variant.name,
                budget.witness,
                make_pair=lambda: (make_game(variant.game), variant.configure()),
                kept=_witness_store(variant, printed, database, say),
            )
    except Exception as exc:
        report.problems.append(f"the witness search stopped: {type(exc).__name__}: {exc}")
    step("how play shifts")
    players = budget.players or min(printed.min_players + 1, printed.max_players)
    shift = _indexes(units, "shift", budget.games)
    report.printed = play_stats(
        printed, games=budget.games, seed=budget.seed, players=players, max_steps=max_steps, only=shift
    )
    report.changed = play_stats(
        changed, games=budget.games, seed=budget.seed, players=players, max_steps=max_steps, only=shift
    )
    if report.changed.crashed:
        report.problems.append(f"the variant crashed in random play: {report.changed.crashed}")
    report.seconds = time.monotonic() - start
    return report


def _witness_store(
    variant: Variant, game: AnyGame, database: ExampleDatabase | None, say: Callable[[str], None] | None
) -> DifferenceStore | None:
    """Where the variant's change of play is kept: under the verb, the game and the variant file's
    content hash (an edited file is another variant)."""
    from rulecraft.conformance.kept import DifferenceStore, configured

    database = database if database is not None else configured()
    if database is None:
        return None
    import hashlib

    try:
        content = hashlib.sha256(Path(variant.path).read_bytes()).hexdigest()[:16]
    except OSError:  # a variant built in code, not read from a file: its changes name it
        changes = repr((variant.readings, variant.parameters, variant.components, variant.plugins))
        content = hashlib.sha256(changes.encode()).hexdigest()[:16]
    options = {"variant": variant.name, "variant_sha256": content}
    label = f"errata {variant.game} {variant.name}"
    return DifferenceStore(database, "errata", game, "witness", options, say=say, label=label)


def _contradictions(variant: Variant, report: ErrataReport, units: Container[str] | None = None) -> None:
    """Printed examples that hold under the printed rules and no longer hold under the variant."""
    for path in scenario_files(variant.game):
        if units is not None and f"example:{path.name}" not in units:
            continue
        try:
            scenario = load_scenario(path)
        except ScenarioFileError:
            continue
        before = run_scenario(scenario)
        if not before.passed:
            continue  # not the variant's doing; `rulecraft scenarios` reports it
        report.examples_run += 1
        try:
            # The variant's readings go on top of the example's own: a variant that settles a reading
            # against the printed example's premise contradicts it.
            after = run_scenario(scenario, configure=variant.configure)
        except Exception as exc:
            report.problems.append(f"{scenario.id}: {type(exc).__name__}: {exc}")
            continue
        if not after.passed:
            detail = after.error or "; ".join(after.failures[:3])
            report.contradicted.append(
                Contradiction(scenario.id, scenario.page, scenario.title, detail, after.error is not None)
            )
        if after.unchecked:
            report.unchecked.append(
                Contradiction(scenario.id, scenario.page, scenario.title, "; ".join(after.unchecked))
            )
