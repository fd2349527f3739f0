"""Machine-readable results of a campaign or of one shard of it, and their merge (issue 21, part 2).

``rulecraft conform|ambiguities|errata ... --results FILE`` writes one JSON document:

- ``schema`` (``"results/1"``), ``rulecraft`` (the version that wrote it), ``verb`` and ``game``;
- ``campaign``: every option the work depends on (seed, budgets, players, readings...): shards of
  one campaign have equal campaigns, and a merge refuses a mix naming the first differing field;
- ``units`` (the whole campaign's units of work, :mod:`rulecraft.shard`), ``shard`` (``I/N``),
  ``planned`` (this shard's units) and ``ran`` (those that ran to their end);
- ``result``: what was compared, with every finding and the data to replay it (the verb's own);
- ``verdict``: the verdict this document alone gives, and its exit code.

:func:`load` checks a document field by field: a malformed or hostile file is one line naming the
file and the field (JSON only: nothing in it is run).  :func:`merge` puts the shards of one campaign
back together into the objects the verbs themselves report on, so that a merged report is written
and judged by the verbs' own code (``conformance.report``, ``witness_report``, ``errata_report``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Container, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from rulecraft.conformance.findings import COUNTS
from rulecraft.core import RulecraftError
from rulecraft.files import write_atomically
from rulecraft.shard import MAX_SHARDS, WHOLE, Shard

if TYPE_CHECKING:
    from rulecraft.conformance.findings import ConformReport, Finding
    from rulecraft.errata import ErrataReport
    from rulecraft.witness import AmbiguityResult, Budget, PairResult

SCHEMA = "results/1"
VERBS = ("conform", "ambiguities", "errata")
MAX_BYTES = 1 << 26  # 64 MiB: far above a real campaign's results, far below a hostile file's aim
T = TypeVar("T")


class ResultsError(RulecraftError):
    """A results file that cannot be used, or shards that cannot be merged: one line."""


# -- reading, checked ---------------------------------------------------------------------------------------


@attrs.frozen
class Field:
    """A value read from a results file, with where it came from (for the one-line error)."""

    path: str
    where: str
    value: Any

    def fail(self, why: str) -> ResultsError:
        return ResultsError(f"{self.path}: {self.where or '(top level)'}: {why}")

    def at(self, key: str | int) -> Field:
        where = f"{self.where}[{key}]" if isinstance(key, int) else (f"{self.where}.{key}" if self.where else key)
        if isinstance(key, int):
            return Field(self.path, where, self.array()[key])
        data = self.obj()
        if key not in data:
            raise Field(self.path, where, None).fail("missing")
        return Field(self.path, where, data[key])

    def get(self, key: str) -> Field:
        """``key`` of this object, or a null field when it is absent."""
        data = self.obj()
        where = f"{self.where}.{key}" if self.where else key
        return Field(self.path, where, data.get(key))

    def obj(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.fail("an object is needed")
        return self.value

    def array(self) -> list[Any]:
        if not isinstance(self.value, list):
            raise self.fail("a list is needed")
        return self.value

    def items(self) -> list[Field]:
        return [self.at(i) for i in range(len(self.array()))]

    def text(self) -> str:
        if not isinstance(self.value, str):
            raise self.fail("a string is needed")
        return self.value

    def whole(self, low: int = 0) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < low:
            raise self.fail(f"a whole number at least {low} is needed")
        return self.value

    def number(self) -> float:
        if isinstance(self.value, bool) or not isinstance(self.value, int | float):
            raise self.fail("a number is needed")
        return float(self.value)

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail("true or false is needed")
        return self.value

    def optional(self, read: Callable[[Field], T]) -> T | None:
        return None if self.value is None else read(self)

    def strs(self) -> list[str]:
        return [f.text() for f in self.items()]

    def objs(self) -> list[dict[str, Any]]:
        return [f.obj() for f in self.items()]


@attrs.frozen
class Results:
    """One results document, checked."""

    path: str
    verb: str
    game: str
    version: str
    campaign: dict[str, Any]
    units: tuple[str, ...]
    shard: Shard
    planned: tuple[str, ...]
    ran: tuple[str, ...]
    result: Field
    document: dict[str, Any]


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load(path: str | Path) -> Results:
    """A results document from ``path``, its envelope checked (the verb's part is checked as merged)."""
    where = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
        if len(raw) > MAX_BYTES:
            raise ResultsError(f"{where}: (top level): larger than {MAX_BYTES >> 20} MiB, not a results file")
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constants)
    except ResultsError:
        raise
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise ResultsError(f"{where}: (top level): not a readable results file: {str(exc)[:120]}") from None
    top = Field(where, "", data)
    top.obj()
    if top.get("schema").value != SCHEMA:
        raise top.get("schema").fail(f"a rulecraft results document ({SCHEMA!r}) is needed")
    verb = top.at("verb").text()
    if verb not in VERBS:
        raise top.at("verb").fail(f"one of {', '.join(VERBS)} is needed, got {verb[:40]!r}")
    shard_field = top.at("shard")
    index, count = shard_field.at("index").whole(1), shard_field.at("count").whole(1)
    if index > count or count > MAX_SHARDS:
        raise shard_field.fail(f"index {index} of count {count}: 1 <= index <= count <= {MAX_SHARDS} is needed")
    shard = Shard(index, count)
    units = tuple(top.at("units").strs())
    if len(set(units)) != len(units):
        raise top.at("units").fail("a unit is listed twice")
    planned = tuple(top.at("planned").strs())
    if list(planned) != shard.select(units):
        raise top.at("planned").fail(f"not shard {shard}'s share of the units")
    ran = tuple(top.at("ran").strs())
    if not set(ran) <= set(planned):
        raise top.at("ran").fail("a unit that was not planned")
    return Results(
        where,
        verb,
        top.at("game").text(),
        top.at("rulecraft").text(),
        top.at("campaign").obj(),
        units,
        shard,
        planned,
        ran,
        top.at("result"),
        data,
    )


def document(
    verb: str,
    game: str,
    campaign: Mapping[str, Any],
    units: Sequence[str],
    shard: Shard,
    planned: Sequence[str],
    ran: Sequence[str],
    result: Mapping[str, Any],
    verdict: Mapping[str, Any],
) -> dict[str, Any]:
    from rulecraft import __version__

    return {
        "schema": SCHEMA,
        "rulecraft": __version__,
        "verb": verb,
        "game": game,
        "campaign": dict(campaign),
        "units": list(units),
        "shard": {"index": shard.index, "count": shard.count},
        "planned": list(planned),
        "ran": list(ran),
        "not_run": [u for u in planned if u not in set(ran)],
        "result": dict(result),
        "verdict": dict(verdict),
    }


def write(path: str | Path, data: Mapping[str, Any]) -> None:
    write_atomically(path, json.dumps(data, indent=1, sort_keys=True, default=str) + "\n")


# -- conform ------------------------------------------------------------------------------------------------


def finding_json(finding: Finding) -> dict[str, Any]:
    """A finding with every field (and its replay document), as JSON."""
    out = attrs.asdict(finding, recurse=False)
    for key in ("steps", "step_text", "rules", "path"):
        out[key] = list(out[key])
    out["fields"] = [list(f) for f in finding.fields]
    return out


# What rulecraft's drawings (rulecraft.svg) are made of.  A merged HTML report inlines a finding's
# drawing, so one read from a file must be a drawing of these alone: no script, no event handler,
# no link, no style, nothing else a browser would run or fetch.
SVG_ELEMENTS = frozenset(
    {"svg", "g", "rect", "circle", "ellipse", "line", "polygon", "polyline", "path", "text", "tspan", "title"}
)
_SVG_TAG = re.compile(r"<\s*/?\s*([^\s/>]*)")
_SVG_ATTRIBUTE = re.compile(r"""\s([^\s=<>"']+)\s*=""")


def svg_from(f: Field) -> str:
    """A finding's drawing read from a results file: "" or an SVG of :data:`SVG_ELEMENTS` alone."""
    text = f.text()
    if not text:
        return text
    tags = {t.lower() for t in _SVG_TAG.findall(text)}
    names = {a.lower() for a in _SVG_ATTRIBUTE.findall(text)}
    risky = [n for n in names if n.startswith("on") or "href" in n or n == "style"]
    if not text.lstrip().startswith("<svg") or tags - SVG_ELEMENTS or risky or "javascript:" in text.lower():
        what = sorted(tags - SVG_ELEMENTS)[:1] or risky[:1] or ["its content"]
        raise f.fail(f"not a drawing rulecraft writes ({what[0][:30]!r} is refused)")
    return text


def finding_from(f: Field) -> Finding:
    from rulecraft.conformance.findings import Finding

    def opt_obj(x: Field) -> dict[str, Any]:
        return x.obj()

    fields = []
    for item in f.at("fields").items():
        if len(item.array()) != 3:
            raise item.fail("a [field, reference, implementation] triple is needed")
        fields.append((item.at(0).text(), item.array()[1], item.array()[2]))
    return Finding(
        kind=f.at("kind").text(),
        title=f.at("title").text(),
        where=f.at("where").text(),
        step=f.get("step").optional(Field.whole),
        steps=tuple(f.at("steps").objs()),
        step_text=tuple(f.at("step_text").strs()),
        ours=f.get("ours").value,
        theirs=f.get("theirs").value,
        fields=tuple(fields),
        rules=tuple(f.at("rules").strs()),
        setup=f.get("setup").optional(opt_obj),
        evidence=f.at("evidence").text(),
        picture=f.at("picture").text(),
        svg=svg_from(f.at("svg")),
        start_state=f.get("start_state").optional(opt_obj),
        origin=f.get("origin").optional(opt_obj),
        path=tuple(f.at("path").objs()),
        root=f.at("root").text(),
        shrink_replays=f.at("shrink_replays").whole(),
        shrink_exhausted=f.at("shrink_exhausted").flag(),
        unit=f.at("unit").text(),
    )


def conform_result(report: ConformReport) -> dict[str, Any]:
    """The result part of a conform results document."""
    from rulecraft.conformance.conform import replay_document

    return {
        "command": report.command,
        "models": list(report.models),
        "protocol": report.protocol,
        **{name: getattr(report, name) for name in COUNTS},
        "seconds": round(report.seconds, 3),
        "differential_seconds": round(report.differential_seconds, 3),
        "first_finding_at": report.first_finding_at,
        "first_difference_at": report.first_difference_at,
        "stopped": report.stopped,
        "stopped_detail": report.stopped_detail,
        "sweep_cut": report.sweep_cut,
        "skipped": list(report.skipped),
        "rules_exercised": sorted(report.rules_exercised),
        "rules_total": sorted(report.rules_total),
        "lanes": report.lanes,
        "findings": [{**finding_json(f), "replay": replay_document(report.game, f)} for f in report.findings],
    }


def conform_verdict(report: ConformReport) -> dict[str, Any]:
    from rulecraft.cli import CONFORM_EXIT

    return {"status": report.status, "verdict": report.verdict, "exit": CONFORM_EXIT[report.status]}


def conform_document(
    report: ConformReport, campaign: Mapping[str, Any], units: Sequence[str], shard: Shard
) -> dict[str, Any]:
    return document(
        "conform",
        report.game,
        campaign,
        units,
        shard,
        report.units_planned,
        report.units_run,
        conform_result(report),
        conform_verdict(report),
    )


def conform_report(part: Results) -> ConformReport:
    """A shard's conform report, rebuilt from its results (every field checked)."""
    from rulecraft.conformance.findings import ConformReport

    r = part.result
    stopped = r.get("stopped").optional(Field.text)
    report = ConformReport(
        part.game,
        r.at("command").text(),
        models=tuple(r.at("models").strs()),
        protocol=r.at("protocol").whole(1),
        seed=Field(part.path, "campaign.seed", part.campaign.get("seed")).whole(),
        stopped=stopped,
        stopped_detail=r.at("stopped_detail").text(),
        sweep_cut=r.at("sweep_cut").text(),
        seconds=r.at("seconds").number(),
        differential_seconds=r.at("differential_seconds").number(),
        skipped=r.at("skipped").strs(),
        rules_exercised=set(r.at("rules_exercised").strs()),
        rules_total=frozenset(r.at("rules_total").strs()),
        first_finding_at=r.get("first_finding_at").optional(Field.number),
        first_difference_at=r.get("first_difference_at").optional(Field.number),
        findings=[finding_from(f) for f in r.at("findings").items()],
        units_planned=list(part.planned),
        units_run=list(part.ran),
        lanes=r.at("lanes").whole(1),
    )
    for name in COUNTS:
        setattr(report, name, r.at(name).whole())
    return report


def merge_conform(parts: Sequence[Results], missing: Sequence[Shard]) -> ConformReport:
    """One report from the shards' reports: counts summed, findings in the campaign's unit order,
    stopped when any shard stopped or (``missing``) a shard was not run."""
    from rulecraft.conformance.findings import ConformReport

    reports = [conform_report(p) for p in parts]
    first = reports[0]
    merged = ConformReport(
        first.game,
        first.command,
        models=first.models,
        protocol=first.protocol,
        seed=first.seed,
        rules_total=first.rules_total,
        lanes=first.lanes,
    )
    order = {unit: i for i, unit in enumerate(parts[0].units)}
    for report in reports:
        merged.absorb(report)
        merged.seconds += report.seconds
    merged.findings.sort(key=lambda f: order.get(f.unit, -1))
    merged.units_planned.sort(key=lambda u: order[u])
    merged.units_run.sort(key=lambda u: order[u])
    stops = [(p.shard, r) for p, r in zip(parts, reports, strict=True) if r.stopped is not None]
    details = [f"shard {s}: {r.stopped} ({r.stopped_detail})" for s, r in stops]
    if missing:
        details.append(not_run_text(parts[0], missing))
    if stops or missing:
        merged.stopped = stops[0][1].stopped if stops else "partial"
        merged.stopped_detail = "; ".join(details)
    merged.shards = shards_text(parts, missing)
    return merged


def not_run_text(part: Results, missing: Sequence[Shard]) -> str:
    units = [u for s in missing for u in s.select(part.units)]
    kinds: dict[str, int] = {}
    for unit in units:
        kind = unit.split(":", 1)[0]
        kinds[kind] = kinds.get(kind, 0) + 1
    what = ", ".join(f"{n} {kind} unit(s)" for kind, n in kinds.items()) or "no unit"
    return f"shard(s) {', '.join(map(str, missing))} not merged: {what} not run"


def shards_text(parts: Sequence[Results], missing: Sequence[Shard]) -> str:
    count = parts[0].shard.count
    text = f"{len(parts)} of {count} shards merged ({', '.join(str(p.shard) for p in parts)})"
    return text + (f"; missing: {', '.join(map(str, missing))}" if missing else "")


# -- ambiguities ---------------------------------------------------------------------------------------------


def pair_json(pair: PairResult) -> dict[str, Any]:
    out = attrs.asdict(pair, recurse=False)
    out["finding"] = finding_json(pair.finding) if pair.finding is not None else None
    out["solver"] = attrs.asdict(pair.solver) if pair.solver is not None else None
    out["rules_exercised"] = sorted(pair.rules_exercised)
    out["base"] = dict(pair.base)
    return out


def pair_from(f: Field) -> PairResult:
    from rulecraft.witness import OUTCOMES, PairResult, SolverVerdict

    outcome = f.at("outcome").text()
    if outcome not in OUTCOMES:
        raise f.at("outcome").fail(f"one of {', '.join(OUTCOMES)} is needed")

    def solver(s: Field) -> SolverVerdict:
        status = s.at("status").text()
        if status not in ("sat", "unsat", "unknown"):
            raise s.at("status").fail("sat, unsat or unknown is needed")
        witness = s.get("witness").optional(Field.obj)
        return SolverVerdict(status, s.at("reason").text(), s.at("seconds").number(), witness)  # type: ignore[arg-type]

    return PairResult(
        ambiguity=f.at("ambiguity").text(),
        default=f.at("default").text(),
        reading=f.at("reading").text(),
        outcome=outcome,
        reason=f.at("reason").text(),
        finding=f.get("finding").optional(finding_from),
        seconds=f.at("seconds").number(),
        games=f.at("games").whole(),
        solver=f.get("solver").optional(solver),
        first_seconds=f.get("first_seconds").optional(Field.number),
        rules_exercised=frozenset(f.at("rules_exercised").strs()),
        rules_total=f.at("rules_total").whole(),
        states=f.at("states").whole(),
        consulted=f.get("consulted").optional(Field.whole),
        targeted=f.at("targeted").whole(),
        base=tuple(sorted(_readings_of(f.get("base")).items())),
        components=f.get("components").optional(Field.text),
    )


def _readings_of(f: Field) -> dict[str, str]:
    """A pair's other readings (absent in older results files: none)."""
    found = f.optional(Field.obj) or {}
    for key, value in found.items():
        if not isinstance(value, str):
            raise f.at(key).fail("a reading's key (text) is needed")
    return dict(found)


def ambiguity_units(game_id: str, *, only: Sequence[str] = (), search: bool = True, examples: bool = True) -> list[str]:
    """The whole ``ambiguities`` run's units, in order: each (ambiguity, other reading) pair searched
    (``pair:AMB=READING``), then each ambiguity's printed examples under every reading
    (``examples:AMB``)."""
    from rulecraft.registry import game_class

    wanted = [a for a in game_class(game_id).register if not only or a.id in only]
    pairs = [f"pair:{a.id}={r.key}" for a in wanted for r in a.readings if r.key != a.default] if search else []
    return pairs + ([f"examples:{a.id}" for a in wanted] if examples else [])


def ambiguities_document(
    game_id: str,
    results: Sequence[AmbiguityResult],
    campaign: Mapping[str, Any],
    units: Sequence[str],
    shard: Shard,
    not_run: Container[str] = (),
) -> dict[str, Any]:
    """``not_run``: units a merge did not have (their pairs and examples are left out)."""
    planned = shard.select(units)
    pairs = [
        {"unit": unit, "pair": pair_json(p)}
        for r in results
        for p in r.pairs
        if (unit := f"pair:{r.ambiguity.id}={p.reading}") not in not_run
    ]
    runs = [
        {"unit": unit, "runs": [attrs.asdict(e) for e in r.examples]}
        for r in results
        if (unit := f"examples:{r.ambiguity.id}") in planned and unit not in not_run
    ]
    ran = [u for u in planned if u in {p["unit"] for p in pairs} | {e["unit"] for e in runs}]
    errors = sum(p.outcome == "error" for r in results for p in r.pairs)
    verdict = {"errors": errors, "exit": 1 if errors else (0 if len(ran) == len(planned) else 5)}
    return document(
        "ambiguities", game_id, campaign, units, shard, planned, ran, {"pairs": pairs, "examples": runs}, verdict
    )


def merge_ambiguities(parts: Sequence[Results], missing: Sequence[Shard]) -> list[AmbiguityResult]:
    """Each ambiguity of the campaign with its pairs and examples from whichever shard ran them; a pair
    a missing shard held is ``not-searched`` (no verdict without evidence)."""
    from rulecraft.registry import game_class
    from rulecraft.witness import AmbiguityResult, ExampleRun, PairResult

    pairs: dict[str, PairResult] = {}
    runs: dict[str, tuple[ExampleRun, ...]] = {}
    for part in parts:
        for entry in part.result.at("pairs").items():
            pairs[entry.at("unit").text()] = pair_from(entry.at("pair"))
        for entry in part.result.at("examples").items():
            runs[entry.at("unit").text()] = tuple(
                ExampleRun(
                    e.at("example").text(),
                    e.at("page").text(),
                    e.at("reading").text(),
                    e.at("passed").flag(),
                    e.at("detail").text(),
                    e.at("error").flag(),
                )
                for e in entry.at("runs").items()
            )
    units = parts[0].units
    lost = {u for s in missing for u in s.select(units)}
    out = []
    only = Field(parts[0].path, "campaign.only", parts[0].campaign.get("only", [])).strs()
    for amb in game_class(parts[0].game).register:
        if only and amb.id not in only:
            continue
        mine: list[PairResult] = []
        for r in amb.readings:
            unit = f"pair:{amb.id}={r.key}"
            if unit in pairs:
                mine.append(pairs[unit])
            elif unit in lost:
                why = f"not run: its shard was not merged ({not_run_text(parts[0], missing)})"
                mine.append(PairResult(amb.id, amb.default, r.key, "not-searched", why))
        out.append(AmbiguityResult(amb, tuple(mine), runs.get(f"examples:{amb.id}", ())))
    return out


def ambiguities_budget(part: Results) -> Budget:
    from rulecraft.witness import Budget

    c = Field(part.path, "campaign", part.campaign)
    return Budget(
        seconds=c.at("seconds").number(),
        max_examples=c.at("max_examples").whole(1),
        max_steps=c.get("max_steps").optional(Field.whole),
        seed=c.at("seed").whole(),
    )


# -- merging ------------------------------------------------------------------------------------------------


@attrs.define
class Merged:
    """Shards of one campaign, put back together."""

    verb: str
    game: str
    parts: list[Results]
    missing: list[Shard]
    conform: ConformReport | None = None
    ambiguities: list[AmbiguityResult] | None = None
    errata: ErrataReport | None = None

    @property
    def complete(self) -> bool:
        return not self.missing


def check_campaign(parts: Sequence[Results]) -> None:
    """Refuse a mix of campaigns, naming the first differing field."""
    first = parts[0]
    for part in parts[1:]:
        checks: tuple[tuple[str, object, object], ...] = (
            ("verb", first.verb, part.verb),
            ("game", first.game, part.game),
            ("rulecraft", first.version, part.version),
            ("shard.count", first.shard.count, part.shard.count),
        )
        for name, a, b in checks:
            if a != b:
                raise ResultsError(
                    f"merge: {part.path}: {name}: {str(b)[:60]!r}, but {first.path} has {str(a)[:60]!r}"
                    " (shards of one campaign only)"
                )
        for key in sorted(set(first.campaign) | set(part.campaign)):
            mine, theirs = first.campaign.get(key), part.campaign.get(key)
            if mine != theirs:
                raise ResultsError(
                    f"merge: {part.path}: campaign.{key}: {json.dumps(theirs)[:60]}, but {first.path} has "
                    f"{json.dumps(mine)[:60]} (shards of one campaign only)"
                )
        if part.units != first.units:
            raise ResultsError(f"merge: {part.path}: units: not the units of {first.path}'s campaign")


def merge(paths: Sequence[str], *, partial: bool = False) -> Merged:
    """The shards' results files of one campaign, checked and merged (see the module docstring)."""
    if not paths:
        raise ResultsError("merge: no results file given")
    parts = [load(p) for p in paths]
    check_campaign(parts)
    by_index: dict[int, Results] = {}
    for part in parts:
        if part.shard.index in by_index:
            other = by_index[part.shard.index]
            raise ResultsError(
                f"merge: {part.path}: shard: {part.shard} again ({other.path} is shard {other.shard} too);"
                " shards overlap"
            )
        by_index[part.shard.index] = part
    count = parts[0].shard.count
    missing = [Shard(i, count) for i in range(1, count + 1) if i not in by_index]
    if missing and not partial:
        raise ResultsError(
            f"merge: shard(s) {', '.join(map(str, missing))} missing; give every shard's results file, or"
            " --partial for a report that says what was not run"
        )
    ordered = [by_index[i] for i in sorted(by_index)]
    merged = Merged(parts[0].verb, parts[0].game, ordered, missing)
    if merged.verb == "conform":
        merged.conform = merge_conform(ordered, missing)
    elif merged.verb == "ambiguities":
        merged.ambiguities = merge_ambiguities(ordered, missing)
    else:
        merged.errata = merge_errata(ordered, missing)
    return merged


def merged_document(merged: Merged) -> dict[str, Any]:
    """The merged campaign as one results document (shard 1/1; ``merged_from`` names the files)."""
    first = merged.parts[0]
    not_run = {u for s in merged.missing for u in s.select(first.units)}
    if merged.conform is not None:
        report = merged.conform
        out = document(
            "conform",
            merged.game,
            first.campaign,
            first.units,
            WHOLE,
            first.units,
            report.units_run,
            conform_result(report),
            conform_verdict(report),
        )
    elif merged.ambiguities is not None:
        out = ambiguities_document(merged.game, merged.ambiguities, first.campaign, first.units, WHOLE, not_run)
    else:
        assert merged.errata is not None
        out = errata_document(merged.errata, first.campaign, first.units, WHOLE, not_run)
    out["merged_from"] = [{"file": p.path, "shard": str(p.shard)} for p in merged.parts]
    out["missing_shards"] = [str(s) for s in merged.missing]
    return out


# -- errata ---------------------------------------------------------------------------------------------------


def _play_finding_json(f: Any) -> dict[str, Any]:
    return {
        "kind": f.kind,
        "message": f.message,
        "seed": f.seed,
        "players": f.players,
        "log": list(f.log),
        "log_text": list(f.log_text),
        "setup": f.setup.to_json() if f.setup is not None else None,
    }


def _play_finding(f: Field) -> Any:
    from rulecraft.core import Setup
    from rulecraft.verify import Finding as PlayFinding

    setup = f.get("setup").optional(Field.obj)
    try:
        built = Setup.from_json(setup) if setup is not None else None
    except Exception:
        raise f.at("setup").fail("not a set-up") from None
    return PlayFinding(
        f.at("kind").text(),
        f.at("message").text(),
        f.get("seed").optional(Field.whole),
        f.get("players").optional(Field.whole),
        tuple(f.at("log").objs()),
        tuple(f.at("log_text").strs()),
        built,
    )


_INVARIANT_COUNTS = ("games_played", "games_finished", "games_stalled", "games_deadlocked", "steps", "violations")


def errata_result(report: ErrataReport) -> dict[str, Any]:
    inv = report.invariants
    return {
        "variant": attrs.asdict(report.variant, recurse=False, value_serializer=lambda _i, _a, v: _plain(v)),
        "examples_run": report.examples_run,
        "contradicted": [attrs.asdict(c) for c in report.contradicted],
        "unchecked": [attrs.asdict(c) for c in report.unchecked],
        "invariants": None
        if inv is None
        else {
            **{name: getattr(inv, name) for name in _INVARIANT_COUNTS},
            "title": inv.title,
            "policy": inv.policy,
            "findings": [_play_finding_json(f) for f in inv.findings],
            "deadlock_example": _play_finding_json(inv.deadlock_example) if inv.deadlock_example else None,
        },
        "witness": pair_json(report.witness) if report.witness is not None else None,
        "printed": attrs.asdict(report.printed) if report.printed is not None else None,
        "changed": attrs.asdict(report.changed) if report.changed is not None else None,
        "problems": list(report.problems),
        "seconds": round(report.seconds, 3),
    }


def _plain(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def errata_document(
    report: ErrataReport,
    campaign: Mapping[str, Any],
    units: Sequence[str],
    shard: Shard,
    not_run: Container[str] = (),
) -> dict[str, Any]:
    planned = shard.select(units)
    ran = [u for u in planned if u not in not_run]
    failed = bool(report.broken_invariants or report.problems)
    verdict = {
        "broken_invariants": len(report.broken_invariants),
        "problems": len(report.problems),
        "exit": 1 if failed else (0 if len(ran) == len(planned) else 5),
    }
    return document("errata", report.variant.game, campaign, units, shard, planned, ran, errata_result(report), verdict)


def _stats(f: Field) -> Any:
    from rulecraft.errata import PlayStats

    kinds = f.at("legal_kinds")
    return PlayStats(
        f.at("games").whole(),
        f.at("finished").whole(),
        tuple(x.whole() for x in f.at("lengths").items()),
        tuple(x.whole(-(2**62)) for x in f.at("spreads").items()),
        f.at("first_player_wins").whole(),
        f.at("decisions").whole(),
        {k: kinds.at(k).whole() for k in kinds.obj()},
        f.at("crashed").text(),
    )


def errata_report(part: Results) -> ErrataReport:
    """A shard's errata report, rebuilt from its results (every field checked; no code is loaded:
    the variant is the data recorded, its plugins are names)."""
    from rulecraft.errata import Contradiction, ErrataReport, Variant
    from rulecraft.verify import GameReport

    r = part.result
    v = r.at("variant")
    components = v.get("components").optional(Field.text)
    variant = Variant(
        v.at("name").text(),
        part.game,
        v.at("title").text(),
        v.at("path").text(),
        v.at("description").text(),
        v.at("source").text(),
        {k: v.at("readings").at(k).text() for k in v.at("readings").obj()},
        {k: v.at("parameters").at(k).whole(-(2**62)) for k in v.at("parameters").obj()},
        Path(components) if components is not None else None,
        tuple(v.at("plugins").strs()),
    )

    def contradiction(c: Field) -> Contradiction:
        return Contradiction(
            c.at("example").text(),
            c.at("page").text(),
            c.at("title").text(),
            c.at("detail").text(),
            c.at("error").flag(),
        )

    report = ErrataReport(
        variant,
        examples_run=r.at("examples_run").whole(),
        contradicted=[contradiction(c) for c in r.at("contradicted").items()],
        unchecked=[contradiction(c) for c in r.at("unchecked").items()],
        witness=r.get("witness").optional(pair_from),
        printed=r.get("printed").optional(_stats),
        changed=r.get("changed").optional(_stats),
        problems=r.at("problems").strs(),
        seconds=r.at("seconds").number(),
    )
    inv = r.get("invariants")
    if inv.value is not None:
        game = GameReport(part.game, inv.at("title").text(), policy=inv.at("policy").text())
        for name in _INVARIANT_COUNTS:
            setattr(game, name, inv.at(name).whole())
        game.findings = [_play_finding(f) for f in inv.at("findings").items()]
        game.deadlock_example = inv.get("deadlock_example").optional(_play_finding)
        report.invariants = game
    return report


def merge_errata(parts: Sequence[Results], missing: Sequence[Shard]) -> ErrataReport:
    """One errata report from the shards': counts summed, lists in the campaign's order, the search
    for where play changes from the shard that ran it; a missing shard is a problem named in it."""
    import random

    from rulecraft.errata import PlayStats
    from rulecraft.verify import GameReport

    reports = [errata_report(p) for p in parts]
    merged = reports[0]
    merged = attrs.evolve(merged, contradicted=[], unchecked=[], problems=[], witness=None, seconds=0.0)
    merged.examples_run = 0
    examples = [u.split(":", 1)[1] for u in parts[0].units if u.startswith("example:")]
    c = Field(parts[0].path, "campaign", parts[0].campaign)
    rng = random.Random(c.at("seed").whole())
    games = sum(u.startswith("campaign:") for u in parts[0].units)  # as many as the file lists, no more
    seeds = {rng.randrange(2**32): i for i in range(games)}
    inv: GameReport | None = None

    def position(finding: Any) -> int:
        return seeds.get(finding.seed, 0) if finding.seed is not None else 0

    for report in reports:
        merged.examples_run += report.examples_run
        merged.contradicted += report.contradicted
        merged.unchecked += report.unchecked
        merged.problems += report.problems
        merged.seconds += report.seconds
        merged.witness = merged.witness or report.witness
        if report.invariants is not None:
            if inv is None:
                inv = GameReport(report.invariants.game, report.invariants.title, policy=report.invariants.policy)
            for name in _INVARIANT_COUNTS:
                setattr(inv, name, getattr(inv, name) + getattr(report.invariants, name))
            inv.findings += report.invariants.findings
            if report.invariants.deadlock_example is not None:
                candidates = [e for e in (inv.deadlock_example, report.invariants.deadlock_example) if e is not None]
                inv.deadlock_example = min(candidates, key=position)
    order = {name: i for i, name in enumerate(examples)}
    by_id = {}
    from rulecraft.scenarios.loader import ScenarioFileError, load_scenario, scenario_files

    for path in scenario_files(parts[0].game):
        try:
            by_id[load_scenario(path).id] = order.get(path.name, 0)
        except ScenarioFileError:
            continue
    merged.contradicted.sort(key=lambda x: by_id.get(x.example, 0))
    merged.unchecked.sort(key=lambda x: by_id.get(x.example, 0))
    if inv is not None:
        inv.findings.sort(key=position)
    merged.invariants = inv

    def joined(side: str) -> PlayStats | None:
        stats = [getattr(r, side) for r in reports if getattr(r, side) is not None]
        if not stats:
            return None
        kinds: dict[str, int] = {}
        for s in stats:
            for k, n in s.legal_kinds.items():
                kinds[k] = kinds.get(k, 0) + n
        return PlayStats(
            sum(s.games for s in stats),
            sum(s.finished for s in stats),
            tuple(x for s in stats for x in s.lengths),
            tuple(x for s in stats for x in s.spreads),
            sum(s.first_player_wins for s in stats),
            sum(s.decisions for s in stats),
            kinds,
            next((s.crashed for s in stats if s.crashed), ""),
        )

    merged.printed, merged.changed = joined("printed"), joined("changed")
    if missing:  # said where the report starts: its title (a problem would make it a failure)
        title = f"{merged.variant.title} (PARTIAL: {not_run_text(parts[0], missing)})"
        merged = attrs.evolve(merged, variant=attrs.evolve(merged.variant, title=title))
    return merged


__all__ = [
    "SCHEMA",
    "Merged",
    "Results",
    "ResultsError",
    "ambiguity_units",
    "conform_document",
    "load",
    "merge",
    "write",
]
