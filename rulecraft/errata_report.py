"""Errata reports for publishers: Markdown, HTML with a plot of how play shifts, and JSON."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from rulecraft import explore, htmlpage
from rulecraft.conformance.findings import Finding
from rulecraft.conformance.report import both_words, markdown_finding
from rulecraft.core import AnyGame, RulecraftError, Setup, cite
from rulecraft.errata import ErrataReport
from rulecraft.registry import make_game
from rulecraft.svg import PALETTE, Drawing, fit

PRINTED_COLOUR, VARIANT_COLOUR = "#4c72b0", "#dd8452"


def _changes(report: ErrataReport) -> list[str]:
    v = report.variant
    lines = []
    for amb_id, key in v.readings.items():
        lines.append(f"- reading {amb_id} = {key}")
    for name, value in v.parameters.items():
        lines.append(f"- parameter {name} = {value}")
    if v.components:
        lines.append(f"- component pack {v.components}")
    for plugin in v.plugins:
        lines.append(f"- rule-logic plugin {plugin}")
    return lines or ["- (no change: the printed rules)"]


def shift_rows(report: ErrataReport) -> list[tuple[str, str, str]]:
    """(measure, printed, variant) for the side-by-side table."""
    a, b = report.printed, report.changed
    if a is None or b is None:
        return []
    rows = [
        ("games finished", f"{a.finished}/{a.games}", f"{b.finished}/{b.games}"),
        ("mean game length (steps)", f"{a.mean_length():.1f}", f"{b.mean_length():.1f}"),
        ("mean score spread (VP)", f"{a.mean_spread():.2f}", f"{b.mean_spread():.2f}"),
        ("first player wins", f"{a.first_player_rate():.0%}", f"{b.first_player_rate():.0%}"),
    ]
    for kind in sorted(set(a.legal_kinds) | set(b.legal_kinds)):
        rows.append((f"'{kind}' legal", f"{a.legal_rate(kind):.0%}", f"{b.legal_rate(kind):.0%}"))
    return rows


def _start(game: AnyGame, finding: Finding) -> Any:
    if finding.setup:
        return game.start(Setup.from_json(finding.setup))
    if finding.start_state is not None:
        return game.state_from_json(finding.start_state)
    return None


def variant_words(report: ErrataReport) -> list[str | None]:
    """Each step of the place where play changes in the variant's own words (its game describes its
    own costs: 'pays 2 chips' where the printed rules' words say 3), None where the variant did not
    play the step (it refused it, or the variant's game cannot be built again here)."""
    w = report.witness
    if w is None or w.finding is None or not w.finding.steps:
        return []
    finding = w.finding
    words: list[str | None] = [None] * len(finding.steps)
    try:
        game = report.variant.configure()
        state = _start(game, finding)
        for i, data in enumerate(finding.steps):
            if state is None:
                break
            action = game.action_from_json(data)
            if game.check(state, action) is not None:
                break
            words[i] = game.describe(state, action)
            state = game.transition(state, action)
    except (RulecraftError, ValueError, KeyError, TypeError):  # words are a help: the printed ones stay
        pass
    return words


def clip(text: str, most: int) -> str:
    """``text`` cut to about ``most`` characters at a clause or word boundary, with " …" saying that it
    was cut (a detail cut mid-word, "...; change", read as if it said all)."""
    if len(text) <= most:
        return text
    head = text[:most]
    at = max(head.rfind("; "), head.rfind(" "))
    return (head[:at] if at > most // 2 else head).rstrip(" ;,:") + " …"


def markdown(report: ErrataReport) -> str:
    v = report.variant
    lines = [f"# Errata check: {v.title}", "", f"- game: {v.game}; variant `{v.name}` ({v.path})"]
    if v.source:
        lines.append(f"- source: {v.source}")
    if v.description:
        lines += ["", v.description.strip()]
    lines += ["", "## The change", "", *_changes(report), ""]
    lines += [f"## Printed examples contradicted: {len(report.contradicted)} of {report.examples_run}", ""]
    for c in report.contradicted:
        what = "can no longer be played" if c.error else "no longer holds"
        lines.append(f"- {c.example} ({cite(c.page)}, {c.title}) {what}: {clip(c.detail, 300)}")
    if not report.contradicted:
        lines.append("- none: every printed example still holds")
    for c in report.unchecked:
        lines.append(
            f"- {c.example} ({cite(c.page)}): partly unchecked, the variant's game cannot answer: {clip(c.detail, 200)}"
        )
    broken = report.broken_invariants
    inv = report.invariants
    lines += ["", f"## Invariants broken: {len(broken)}", ""]
    if inv is not None:
        lines.append(f"- {inv.games_played} random games, {inv.steps} steps, every invariant after every step")
    for f in inv.findings if inv else []:
        lines.append(f"- {f.kind}: {f.message}")
        if f.setup is not None:
            lines.append(f"  - set-up: `{json.dumps(f.setup.to_json())}`")
        for i, text in enumerate(f.log_text, start=1):
            lines.append(f"  {i}. {text}")
    lines += ["", "## Where play changes", ""]
    w = report.witness
    if w is None:
        lines.append("- not searched")
    else:
        covered = f", rule coverage {w.coverage}" if w.coverage else ""
        words = variant_words(report)
        said = w.finding.step_text if w.finding is not None else ()
        reason = both_words(w.reason, said, words, "variant")  # it quotes a step in the printed rules' words
        lines.append(f"- {w.outcome}: {reason} ({w.seconds:.1f} s, {w.games} games{covered})")
        if w.finding is not None:
            catalogue = htmlpage.catalogue_of(report.variant.game)  # the rules involved in its order
            labels = ("printed rules", "variant")
            finding = markdown_finding(w.finding, labels, heading="###", other_words=words, catalogue=catalogue)
            lines += ["", finding]
    lines += ["", "## How play shifts", ""]
    rows = shift_rows(report)
    if rows:
        assert report.printed is not None
        lines.append(f"Seeded random games, the same seeds under both rulesets ({report.printed.games} each).")
        lines += ["", "| measure | printed | variant |", "|---|---|---|"]
        lines += [f"| {m} | {a} | {b} |" for m, a, b in rows]
    if report.problems:
        lines += ["", "## Problems", "", *(f"- {p}" for p in report.problems)]
    lines += ["", f"Time: {report.seconds:.1f} s"]
    return "\n".join(lines) + "\n"


def plot(report: ErrataReport) -> str:
    """Paired bars, printed against variant: the headline measures, then how often each action is legal."""
    a, b = report.printed, report.changed
    if a is None or b is None:
        return ""
    kinds = sorted(set(a.legal_kinds) | set(b.legal_kinds))
    headline: list[tuple[str, float, float, str]] = [
        ("mean length", a.mean_length(), b.mean_length(), "steps"),
        ("score spread", a.mean_spread(), b.mean_spread(), "VP"),
        ("first player wins", a.first_player_rate() * 100, b.first_player_rate() * 100, "%"),
    ]
    legal = [(k, a.legal_rate(k) * 100, b.legal_rate(k) * 100, "%") for k in kinds]
    row_h, label_w, bar_w = 30, 170, 360
    height = 70 + row_h * (len(headline) + len(legal)) + 40
    d = Drawing(label_w + bar_w + 140, height, title=f"how play shifts: {report.variant.title}")
    d.text(10, 22, fit(f"How play shifts: {report.variant.title}", label_w + bar_w + 120, 14), size=14, bold=True)
    d.rect(10, 34, 12, 12, fill=PRINTED_COLOUR)
    d.text(28, 44, "printed rules", size=11)
    d.rect(130, 34, 12, 12, fill=VARIANT_COLOUR)
    d.text(148, 44, "variant", size=11)
    y = 60
    for title, rows in (("per game", headline), ("how often an action is legal (decision states)", legal)):
        d.text(10, y + 12, title, size=11, fill=PALETTE["muted"], italic=True)
        y += 18
        for label, left, right, unit in rows:
            scale = max(left, right, 1e-9)
            top = 100.0 if unit == "%" else scale
            for i, (value, colour) in enumerate(((left, PRINTED_COLOUR), (right, VARIANT_COLOUR))):
                width = bar_w * (value / top) if top else 0
                d.rect(
                    label_w,
                    y + i * 11,
                    max(width, 0.5),
                    10,
                    fill=colour,
                    title=f"{label}: {value:.1f} {unit} ({'printed' if i == 0 else 'variant'})",
                )
                d.text(label_w + max(width, 0.5) + 4, y + i * 11 + 9, f"{value:.1f} {unit}", size=9)
            d.text(label_w - 6, y + 15, fit(label, label_w - 16, 11), size=11, anchor="end")
            y += row_h - 4
    return d.to_string()


def html_report(report: ErrataReport, links: explore.ReportLinks | None = None) -> str:
    """The Markdown of the same run, rendered: the plot under its title, and the board where play
    changes (with the document that opens it in the explorer; with ``links``, the report written to a
    file, a link into the explorer too) at the end of its own section."""
    text = markdown(report)
    head, _, rest = text.partition("\n## ")  # the Markdown's title and source, then its sections
    change, _, shift = ("## " + rest).partition("\n## How play shifts")
    body = [htmlpage.render(head)]
    picture = plot(report)
    if picture:
        body.append(f"<div class='plot'>{picture}</div>")
    body.append(htmlpage.render(change if rest else ""))
    w = report.witness
    if w is not None and w.finding is not None:
        with contextlib.suppress(RulecraftError):  # a picture is a help: the report stands without it
            body.append(explore.step_pictures_html(make_game(report.variant.game), w.finding, "printed rules"))
    if w is not None and w.finding is not None and w.finding.svg:
        body += ["<h4>The state where play changes</h4>", f"<div class='board'>{w.finding.svg}</div>"]
    document = explore.divergence_document(report)
    if document is not None and w is not None and w.finding is not None:
        # The explorer's heading quotes the step as the report does: each ruleset's own words.
        title = both_words(w.finding.title, w.finding.step_text, variant_words(report), "variant")
        document["title"] = f"{report.variant.title}: {title}"
    if document is not None:
        body.append(explore.report_link(report.variant.game, "divergence", "divergence.json", document, links))
    if shift:
        body.append(htmlpage.render("## How play shifts" + shift))
    if links is not None and links.documents:  # the top says how to start the explorer for its links
        body.insert(1, links.head(report.variant.game))
    return htmlpage.page(f"errata {report.variant.name}", body, htmlpage.catalogue_of(report.variant.game))


def html_file(report: ErrataReport, path: str | Path) -> str:
    """The HTML report to write to ``path``; the document its explorer link opens is written beside it."""
    return explore.report_page(path, lambda links: html_report(report, links))
