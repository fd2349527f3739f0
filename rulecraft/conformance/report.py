"""Conformance reports: JUnit XML for CI, Markdown for people, HTML with the board picture."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from rulecraft import explore, htmlpage
from rulecraft.catalogue import RuleCatalogue
from rulecraft.conformance.conform import EXAMPLE_ID, ConformReport, Finding, replay_document
from rulecraft.core import AnyGame, RulecraftError
from rulecraft.files import write_atomically


def _value(value: Any) -> str:
    if value is None:
        return "—"
    # A str-valued enum (a state's phase) reads as its JSON value ('reveal'), not 'Phase.REVEAL'.
    text = json.dumps(value, sort_keys=True, default=str) if not isinstance(value, str) else str.__str__(value)
    return text if len(text) <= 300 else text[:297] + "..."


def leaf_differences(path: str, ours: Any, theirs: Any, limit: int = 12) -> list[tuple[str, Any, Any]]:
    """The innermost places where two JSON values differ (``boards[1].chips``), at most ``limit``.
    Compared as JSON: the model's side holds tuples where the implementation's parsed JSON holds lists,
    and ``(0, 0) != [0, 0]`` in Python although both are the JSON ``[0, 0]``."""
    out: list[tuple[str, Any, Any]] = []

    def walk(where: str, a: Any, b: Any) -> None:
        if len(out) >= limit or a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for key in sorted(set(a) | set(b), key=str):
                walk(f"{where}.{key}", a.get(key), b.get(key))
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(f"{where}[{i}]", x, y)
        else:
            out.append((where, a, b))

    walk(path, explore.plain_json(ours), explore.plain_json(theirs))
    return out


def junit(report: ConformReport, path: str | Path) -> None:
    """One test case per printed example and one for the differential run (JUnit XML).  A run that
    compared nothing, or stopped before its plan, is an error case, never a passing one."""
    write_atomically(path, junit_text(report))


def junit_text(report: ConformReport) -> str:
    failures = len(report.findings)
    unfinished = report.status in ("not-tested", "incomplete")
    suite = ET.Element(
        "testsuite",
        name=f"rulecraft-conform-{report.game}",
        tests=str(report.scenarios_run + 1),
        failures=str(failures),
        errors=str(int(unfinished)),
        skipped=str(len(report.skipped)),
        time=f"{report.seconds:.3f}",
    )
    failed_where = {f.where for f in report.findings}
    catalogue = htmlpage.catalogue_of(report.game) if report.findings else None
    for finding in report.findings:
        case = ET.SubElement(suite, "testcase", classname=f"{report.game}.{finding.kind}", name=finding.where)
        failure = ET.SubElement(case, "failure", message=finding.title, type=finding.kind)
        failure.text = markdown_finding(finding, catalogue=catalogue)
    passed = report.scenarios_passed
    ok = ET.SubElement(suite, "testcase", classname=f"{report.game}.printed-examples", name="passed")
    ok.set("time", "0")
    ok.text = f"{passed}/{report.scenarios_run} printed examples conform"
    if not report.scenarios_run:  # none replayed (--no-scenarios, no set_state): not a passing test
        ET.SubElement(ok, "skipped", message="no printed example was replayed")
    if "differential" not in failed_where:
        case = ET.SubElement(
            suite, "testcase", classname=f"{report.game}.differential", name=f"{report.examples_run} games"
        )
        if unfinished:
            error = ET.SubElement(case, "error", message=report.verdict, type=report.status)
            error.text = report.verdict
    for skipped in report.skipped:
        case = ET.SubElement(suite, "testcase", classname=f"{report.game}.skipped", name=skipped[:80])
        ET.SubElement(case, "skipped", message=skipped)
    return ET.tostring(suite, encoding="unicode")


def both_words(text: str, words: Sequence[str], other_words: Sequence[str | None], label: str) -> str:
    """``text`` (a finding's title, which quotes a step in the left side's words) with the other side's
    words beside each step it quotes, where they differ: "pays 3 chips ... (variant: pays 2 chips ...)"."""
    for mine, other in zip(words, other_words, strict=False):
        if other is not None and other != mine and mine and mine in text and other not in text:
            text = text.replace(mine, f"{mine} ({label}: {other})")
    return text


def markdown_finding(
    finding: Finding,
    labels: tuple[str, str] = ("rulebook model", "implementation"),
    *,
    heading: str = "###",
    game: str | None = None,
    other_words: Sequence[str | None] = (),
    catalogue: RuleCatalogue | None = None,
) -> str:
    """One finding: the minimal steps, the differing fields side by side (``labels`` name the sides).
    ``other_words``: each step in the right side's own words (a variant's game words its own costs),
    shown where they differ from the left side's; None where that side did not play the step.
    ``catalogue``: the game's rules, whose order the rules involved are listed in (KAS-R-9 before
    KAS-R-10, as ``rulecraft rules`` lists them), not the order the run hit them."""
    left, right = labels
    title = both_words(finding.title, finding.step_text, other_words, right)
    # Findings of several printed examples often share their title (the same step, the same fields):
    # the heading names the example, so that they can be told apart in a table of contents.
    example = EXAMPLE_ID.match(finding.where)
    suffix = f" (in {example.group(0)})" if example is not None and example.group(0) not in title else ""
    lines = [f"{heading} {finding.kind}: {title}{suffix}", "", f"- where: {finding.where}"]
    if finding.rules:
        lines.append(f"- rules involved: {', '.join(htmlpage.in_catalogue_order(finding.rules, catalogue))}")
    if finding.setup:
        lines.append(f"- set-up: `{json.dumps(finding.setup)}`")
    if finding.start_state is not None and not finding.setup:
        # Only conform prints the replay document (``game``); a witness's state is in its own document.
        below = "the given state in the replay document below" if game else "a given state, not a set-up"
        lines.append(f"- starts from: {below}")
    if finding.shrink_replays:
        more = "; the replay budget ran out, a shorter game may exist" if finding.shrink_exhausted else ""
        lines.append(f"- shrunk with {finding.shrink_replays} replays{more}")
    if finding.steps:
        count = len(finding.steps)
        lines += ["", f"Shortest failing game ({count} step{'' if count == 1 else 's'}):", ""]
        for i, (text, action) in enumerate(zip(finding.step_text, finding.steps, strict=False), start=1):
            other = other_words[i - 1] if i <= len(other_words) else None
            if other is not None and other != text:
                lines.append(f"{i}. {left}: {text}; {right}: {other} — `{json.dumps(action)}`")
            else:
                lines.append(f"{i}. {text} — `{json.dumps(action)}`")
    if finding.path and len(finding.path) > len(finding.steps):
        lines += [
            "",
            f"The full game from {finding.root or 'a new game'}: {len(finding.path)} steps "
            "(in the replay document's `full` part).",
        ]
    if finding.fields:
        lines += ["", f"| field | {left} | {right} |", "|---|---|---|"]
        for field, ours, theirs in finding.fields:
            for where, a, b in leaf_differences(field, ours, theirs):
                lines.append(f"| {where} | `{_value(a)}` | `{_value(b)}` |")
    elif finding.ours is not None or finding.theirs is not None:
        lines += [
            "",
            f"| {left} | {right} |",
            "|---|---|",
            f"| `{_value(finding.ours)}` | `{_value(finding.theirs)}` |",
        ]
    if finding.evidence:
        lines += ["", "Evidence:", "", "```", finding.evidence, "```"]
    if game and (finding.steps or finding.start_state is not None or finding.setup):
        lines += [
            "",
            f"Replay it: save this as `finding.json`, then `rulecraft conform {game} --impl ... --replay finding.json`",
            "",
            "```json",
            json.dumps(replay_document(game, finding), sort_keys=True),
            "```",
        ]
    return "\n".join(lines)


def markdown(report: ConformReport) -> str:
    hit, total = report.coverage()
    share = f" ({100 * hit / total:.0f}%)" if total else ""
    lines = [
        f"# rulecraft conform {report.game}: {report.verdict}",
        "",
        f"- implementation: `{report.command}` (protocol {report.protocol})",
        f"- models: {', '.join(report.models)}",
        *([f"- merged: {report.shards}"] if report.shards else []),
        *([f"- lanes: {report.lanes} independent differential searches"] if report.lanes > 1 else []),
        (
            f"- printed examples: {report.scenarios_passed}/{report.scenarios_run} conform"
            if report.scenarios_run or report.skipped
            else "- printed examples: not replayed"
        ),
        f"- differential games: {report.examples_run} of {report.games_planned} planned (seed {report.seed}): "
        f"{report.games_finished} played to the end, {report.games_stalled} stopped in a state that can never "
        f"end, {report.games_capped} stopped at the step cap; "
        f"{report.steps_compared} states compared",
        *(
            [f"- set-ups swept: {report.setups_compared} distinct set-ups compared through their first steps"]
            if report.setups_compared
            else []
        ),
        f"- rule coverage of the differential games: {hit}/{total} rule IDs{share}",
        f"- time: {report.seconds:.1f} s ({report.differential_seconds:.1f} s differential)",
    ]
    if report.stopped:
        lines.append(f"- stopped early: {report.stopped} ({report.stopped_detail})")
    if report.games_without_ranking:
        lines.append(
            f"- {report.games_without_ranking} finished game(s) without the implementation's `ranking`: the "
            "tie-break counts were not compared (only the winners, which show them in tied games alone)"
        )
    if report.games_capped:
        lines.append(
            f"- {report.games_capped} game(s) reached the step cap before the rules ended them: their end was "
            "not compared"
        )
    missing = sorted(report.rules_total - report.rules_exercised)
    if missing and report.examples_run:
        lines.append(f"- rule IDs no compared step exercised: {', '.join(missing)}")
    if report.skipped:
        lines += ["", "Skipped:", *(f"- {s}" for s in report.skipped)]
    catalogue = htmlpage.catalogue_of(report.game) if report.findings else None
    for i, finding in enumerate(report.findings, start=1):
        lines += ["", markdown_finding(finding, heading=f"### {i}.", game=report.game, catalogue=catalogue)]
    return "\n".join(lines) + "\n"


def html_report(report: ConformReport, links: explore.ReportLinks | None = None) -> str:
    # The head of this run's Markdown (its title and summary), so the two reports agree; then each
    # finding under its number, as the Markdown numbers them ("1. state: ...").  With ``links`` (the
    # report written to a file), each finding links into the explorer and its document is written.
    body = [htmlpage.render(markdown(report).split("\n### ")[0])]
    reference = _reference(report.game) if report.findings else None
    catalogue = htmlpage.catalogue_of(report.game)
    for i, finding in enumerate(report.findings, start=1):
        body.append(f"<section id='finding-{i}'>")
        body.append(htmlpage.render(markdown_finding(finding, heading=f"## {i}.", catalogue=catalogue)))
        if reference is not None:
            body.append(explore.step_pictures_html(reference, finding, "rulebook model"))
        if finding.steps or finding.setup or finding.start_state is not None:
            document = explore.finding_document(report.game, finding)
            body.append(explore.report_link(report.game, "finding", f"finding-{i}.json", document, links))
        if finding.svg or finding.picture:
            body.append("<h3>The state where it differs</h3>")
        if finding.svg:
            # The game's own drawing, inlined (it carries no ids or styles that could clash).
            body.append(f"<div class='board'>{finding.svg}</div>")
        if finding.picture:
            body.append(
                "<details><summary>as text</summary>"
                f"<pre style='font-size:11px'>{html.escape(finding.picture)}</pre></details>"
            )
        body.append("</section>")
    if links is not None and links.documents:  # the top says how to start the explorer for its links
        body.insert(1, links.head(report.game))
    return htmlpage.page(f"rulecraft conform {report.game}", body, catalogue)


def html_file(report: ConformReport, path: str | Path) -> str:
    """The HTML report to write to ``path``; the documents its explorer links open are written beside it."""
    return explore.report_page(path, lambda links: html_report(report, links))


def _reference(game_id: str) -> AnyGame | None:
    """The rulebook model that replays a finding's steps for their pictures (None: not here)."""
    from rulecraft.registry import make_game

    try:
        return make_game(game_id)
    except RulecraftError:
        return None
