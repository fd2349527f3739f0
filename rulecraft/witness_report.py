"""Ambiguity reports for rules people and publishers: Markdown, HTML (with the board) and JSON."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from rulecraft import explore, htmlpage
from rulecraft.conformance.report import both_words, markdown_finding
from rulecraft.core import AnyGame, Rejection, RulecraftError, Setup, cite
from rulecraft.witness import AmbiguityResult, Budget, PairResult, tally

VERDICT = {
    "witness": "witness found",
    "proved": "proved never to matter",
    "not-found": "no witness within the budget",
    "unknown": "unknown (the solver gave no answer)",
    "not-modelled": "a reading is not modelled yet",
    "error": "error",
    "settled": "one reading registered (nothing to compare)",
    "not-searched": "not searched (--no-search): no verdict",
}


def pair_json(pair: PairResult) -> dict[str, Any]:
    """A pair's JSON; a witness that starts from a printed example's given state carries that state
    (``start_state``, canonical state JSON) beside its ``setup`` (null then), so it replays alone."""
    out = pair.to_json()
    witness = out.get("witness")
    if isinstance(witness, dict) and pair.finding is not None:
        witness["start_state"] = pair.finding.start_state if not pair.finding.setup else None
    return out


def result_json(result: AmbiguityResult) -> dict[str, Any]:
    out = result.to_json()
    out["pairs"] = [pair_json(p) for p in result.pairs]
    return out


def to_json(game_id: str, results: Sequence[AmbiguityResult], budget: Budget) -> dict[str, Any]:
    return {
        "game": game_id,
        "budget": {"seconds": budget.seconds, "max_examples": budget.max_examples, "max_steps": budget.max_steps},
        "seed": budget.seed,
        "tally": tally(results),
        "ambiguities": [result_json(r) for r in results],
    }


def reading_words(game_id: str, ambiguity: str, pair: PairResult) -> list[str | None]:
    """Each step of a witness in the other reading's own words (its game describes what that reading
    makes of the step), None where it did not play the step or cannot be built again here."""
    from rulecraft.core import RulecraftError, Setup
    from rulecraft.registry import make_game

    f = pair.finding
    if f is None or not f.steps:
        return []
    words: list[str | None] = [None] * len(f.steps)
    try:
        game = make_game(game_id, readings={**dict(pair.base), ambiguity: pair.reading}, components=pair.components)
        if f.setup:
            state = game.start(Setup.from_json(f.setup))
        elif f.start_state is not None:
            state = game.state_from_json(f.start_state)
        else:
            return words
        for i, data in enumerate(f.steps):
            action = game.action_from_json(data)
            if game.check(state, action) is not None:
                break
            words[i] = game.describe(state, action)
            state = game.transition(state, action)
    except (RulecraftError, ValueError, KeyError, TypeError):  # words are a help: the default's stay
        pass
    return words


def _pair_markdown(result: AmbiguityResult, pair: PairResult, game_id: str | None = None) -> list[str]:
    head = f"**{pair.default}** (default) against **{pair.reading}**: {VERDICT[pair.outcome]}"
    first = f"first difference after {pair.first_seconds:.1f} s, " if pair.first_seconds is not None else ""
    covered = f", rule coverage {pair.coverage}" if pair.coverage else ""
    reach = f"; {pair.reach}" if pair.reach and pair.outcome != "not-found" else ""  # not-found says it already
    labels = (f"reading {pair.default}", f"reading {pair.reading}")
    words = reading_words(game_id, result.ambiguity.id, pair) if game_id and pair.finding is not None else []
    said = pair.finding.step_text if pair.finding is not None else ()
    reason = both_words(pair.reason, said, words, labels[1])  # it quotes a step in the default's words
    lines = [f"- {head} — {reason} ({first}{pair.seconds:.1f} s in all, {pair.games} games{covered}{reach})"]
    if pair.solver is not None:
        lines.append(f"  - solver: {pair.solver.status} — {pair.solver.reason} ({pair.solver.seconds:.2f} s)")
    if pair.finding is not None:
        catalogue = htmlpage.catalogue_of(game_id) if game_id else None  # the rules involved in its order
        body = markdown_finding(pair.finding, labels, heading="####", other_words=words, catalogue=catalogue)
        lines += ["", body, ""]
    return lines


def ambiguity_markdown(result: AmbiguityResult, game_id: str | None = None) -> str:
    """One ambiguity; with ``game_id``, each witness step also in the other reading's words where
    they differ."""
    amb = result.ambiguity
    lines = [
        f"## {amb.id} ({cite(amb.page)}): {VERDICT[result.outcome]}",
        "",
        f"{amb.question}",
        "",
        "| reading | what it says |",
        "|---|---|",
    ]
    for r in amb.readings:
        mark = " (default)" if r.key == amb.default else ""
        lines.append(f"| {r.key}{mark} | {r.text} |")
    lines += ["", f"Why the default: {amb.why}", ""]
    for pair in result.pairs:
        lines += _pair_markdown(result, pair, game_id)
    evidence = result.evidence()
    if evidence:
        lines += ["", "Printed examples as evidence (they pass under these readings only):"]
        for reading, examples in sorted(evidence.items()):
            lines.append(f"- {reading}: {', '.join(examples)}")
    failing = [run for run in result.examples if not run.passed]
    if failing:
        lines += ["", "Printed examples that do not hold under a reading:"]
        for run in failing:
            what = "cannot be played" if run.error else "fails"
            lines.append(f"- {run.example} ({cite(run.page)}) {what} under {run.reading}: {run.detail[:200]}")
    if evidence or failing:
        pass
    elif result.examples:
        readings = sorted({run.reading for run in result.examples})
        lines += ["", f"Printed examples: every one gives the same verdict under {', '.join(readings)}."]
    return "\n".join(lines)


def markdown(game_id: str, title: str, results: Sequence[AmbiguityResult], budget: Budget) -> str:
    counts = tally(results)
    summary = ", ".join(f"{n} {VERDICT[k]}" for k, n in counts.items() if n)
    per_game = f"{budget.max_steps} steps" if budget.max_steps else "the game's own step cap"
    lines = [
        f"# {title}: {len(results)} registered ambiguities",
        "",
        f"- outcome: {summary}",
        f"- budget per reading: {budget.seconds:g} s, at most {budget.max_examples} games of "
        f"{per_game}; seed {budget.seed} (the same seed gives the same run)",
        "- a witness is a legal game from set-up after which the two readings differ; "
        "'proved' means the model never consults the switch or a solver query answered unsat",
        "",
        "| ambiguity | p. | outcome | shortest witness |",
        "|---|---|---|---|",
    ]
    for r in results:
        steps = [len(p.finding.steps) for p in r.pairs if p.finding is not None]
        shortest = f"{min(steps)} steps" if steps else "—"
        lines.append(f"| {r.ambiguity.id} | {r.ambiguity.page} | {VERDICT[r.outcome]} | {shortest} |")
    for r in results:
        lines += ["", ambiguity_markdown(r, game_id)]
    return "\n".join(lines) + "\n"


def html_report(
    game_id: str,
    title: str,
    results: Sequence[AmbiguityResult],
    budget: Budget,
    links: explore.ReportLinks | None = None,
) -> str:
    """The Markdown text per ambiguity, with the board where each witness's readings part ways; with
    ``links`` (the report written to a file), each witness links into the explorer."""
    # The head of this run's own Markdown (its count and outcome line), so the two reports agree.
    head = markdown(game_id, title, results, budget).split("\n| ambiguity")[0]
    body = [htmlpage.render(head)]
    counts = tally(results)
    body.append("<table><tr><th>outcome</th><th>ambiguities</th></tr>")
    for kind, n in counts.items():
        body.append(f"<tr><td>{html.escape(VERDICT[kind])}</td><td>{n}</td></tr>")
    body.append("</table>")
    default = _default_game(game_id) if any(p.finding for r in results for p in r.pairs) else None
    for r in results:
        body.append(f"<section id='{html.escape(r.ambiguity.id)}'>")
        body.append(htmlpage.render(ambiguity_markdown(r, game_id)))
        for pair in r.pairs:
            if pair.finding is not None and default is not None:
                body.append(explore.step_pictures_html(default, pair.finding, f"reading {pair.default}"))
            if pair.finding is not None:
                body.append(parting_html(game_id, r.ambiguity.id, pair))
            if pair.finding is not None:
                file = f"witness-{r.ambiguity.id}-{pair.reading}.json"
                document = explore.witness_document(game_id, r.ambiguity.id, pair)
                body.append(explore.report_link(game_id, "witness", file, document, links))
        body.append("</section>")
    if links is not None and links.documents:  # the top says how to start the explorer for its links
        body.insert(1, links.head(game_id))
    return htmlpage.page(f"{title} ambiguities", body, htmlpage.catalogue_of(game_id))


def html_file(path: str | Path, game_id: str, title: str, results: Sequence[AmbiguityResult], budget: Budget) -> str:
    """The HTML report to write to ``path``; the documents its explorer links open are written beside it."""
    return explore.report_page(path, lambda links: html_report(game_id, title, results, budget, links))


@attrs.frozen
class PartingSide:
    """One reading at the state where a witness's readings part: its board (SVG), or the rule by which
    it refused the set-up (``step`` 0) or a step of the witness (``step`` N); neither: it cannot be
    built here (the picture is a help, never a cost)."""

    label: str
    svg: str = ""
    refusal: Rejection | None = None
    step: int = 0


def parting_sides(game_id: str, ambiguity: str, pair: PairResult) -> list[PartingSide]:
    """The default reading and the other reading, each replaying the witness from its start (set-up or
    a printed example's given state) under its own ruleset: its board after the witness's steps, or
    the refusal that stopped it, as the explorer shows a witness's two sides."""
    from rulecraft.registry import make_game
    from rulecraft.statefile import state_from_data

    f = pair.finding
    if f is None:
        return []
    sides = []
    for reading, label in (
        (pair.default, f"reading {pair.default} (default)"),
        (pair.reading, f"reading {pair.reading}"),
    ):
        side = PartingSide(label)
        try:
            game = make_game(game_id, readings={**dict(pair.base), ambiguity: reading}, components=pair.components)
            if f.setup:
                refusal = explore.setup_refusal(game, {"setup": f.setup})
                if refusal is not None:
                    sides.append(attrs.evolve(side, refusal=refusal))
                    continue
                state = game.start(Setup.from_json(f.setup))
            elif f.start_state is not None:
                fixture = explore.example_fixture(game_id, f)
                if fixture is not None:  # a printed example's own board (kas's given map)
                    game.load_fixture(fixture)
                state = state_from_data(game, f.start_state, field="start")
            else:
                sides.append(side)
                continue
            for number, data in enumerate(f.steps, start=1):
                action = game.action_from_json(data)
                refusal = game.check(state, action)
                if refusal is not None:
                    side = attrs.evolve(side, refusal=refusal, step=number)
                    break
                state = game.transition(state, action)
            else:
                side = attrs.evolve(side, svg=game.picture(state) or "")
        except (RulecraftError, ValueError, KeyError, TypeError):
            pass
        sides.append(side)
    if not sides[0].svg and sides[0].refusal is None and f.svg:  # the search drew the default's board
        sides[0] = attrs.evolve(sides[0], svg=f.svg)
    return sides


def parting_html(game_id: str, ambiguity: str, pair: PairResult) -> str:
    """Both readings' boards where a witness's readings part ways, side by side, each under its reading's
    name; a reading that refused the set-up or a step shows that refusal and its rule instead."""
    sides = parting_sides(game_id, ambiguity, pair)
    if not any(side.svg or side.refusal for side in sides):
        return ""
    figures = []
    for side in sides:
        if side.refusal is not None:
            what = f"refused step {side.step}" if side.step else "refused the set-up"
            shown = f"<p class='refusal'>{what}: {html.escape(str(side.refusal))}</p>"
        elif side.svg:
            shown = f"<div class='board'>{side.svg}</div>"
        else:
            shown = "<p>(no picture of this reading here)</p>"
        figures.append(f"<figure class='side'><figcaption>{html.escape(side.label)}</figcaption>{shown}</figure>")
    return (
        f"<h5>{html.escape(pair.default)} against {html.escape(pair.reading)}: the state where they part ways</h5>"
        f"<div class='sides'>{''.join(figures)}</div>"
    )


def _default_game(game_id: str) -> AnyGame | None:
    """The game under its default readings, which replays a witness's steps for their pictures."""
    from rulecraft.core import RulecraftError
    from rulecraft.registry import make_game

    try:
        return make_game(game_id)
    except RulecraftError:
        return None


def dumps(game_id: str, results: Sequence[AmbiguityResult], budget: Budget) -> str:
    return json.dumps(to_json(game_id, results, budget), indent=2, default=str)
