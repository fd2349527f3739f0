"""The HTML page every report writes: its Markdown rendered (tables as tables, long lines wrapped),
with the game's pictures inlined, in one small stylesheet (issue 20).

The Markdown is rendered by markdown-it-py (CommonMark with tables) with raw HTML turned off: a
report quotes names and values from users' files, and those must show as text, never run.

A report is a file people mail around, so its rule links work without a server: every rule ID of
the game's catalogue in the page's text links to an anchor in an appendix of the same page (the rule
ID, its page and the digest's statement), the same anchors as the explorer's ``/rules`` page.  A
printed example's ID (``AIR-EX-03``) links the same way to a second appendix holding the example's
entry in the game's rules digest (``rules/<game title>.md``, see :func:`digest_path`); where the digest
is not at hand (an installed wheel), example IDs stay plain text: a report never holds a broken link.
"""

from __future__ import annotations

import html
import os
import re
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs
from markdown_it import MarkdownIt

from rulecraft.catalogue import Rule, RuleCatalogue
from rulecraft.core import cite

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 72rem; margin: 1.5rem auto; padding: 0 1rem;
       line-height: 1.45; color: #222; }
table { border-collapse: collapse; margin: 0.8rem 0; }
th, td { border: 1px solid #bbb; padding: 0.25rem 0.5rem; vertical-align: top; text-align: left; }
th { background: #f1f1f1; }
pre, code { font-family: ui-monospace, monospace; font-size: 0.9em; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f7f7f7; padding: 0.6rem; }
code { overflow-wrap: anywhere; }
.board svg, .plot svg { max-width: 100%; height: auto; }
.board svg { width: 100%; }
tr:target { background: #fff3b0; }
a.rule, a.example { font-family: ui-monospace, monospace; font-size: 0.92em; white-space: nowrap; }
h1 { font-size: 1.9rem; }
h2 { font-size: 1.45rem; border-bottom: 2px solid #ccc; padding-bottom: 0.2rem; margin-top: 2.2rem; }
h3 { font-size: 1.15rem; margin-top: 1.6rem; }
h4 { font-size: 1rem; margin-top: 1.3rem; color: #333; border-left: 4px solid #9ab; padding-left: 0.5rem; }
h5 { font-size: 0.95rem; margin: 1rem 0 0.4rem; color: #444; }
/* A witness's two readings: one after the other, each as wide as the text (kas's hex labels stay
   readable); side by side across the window where it is wide enough for two such boards. */
.sides { display: grid; gap: 1rem; }
@media (min-width: 1800px) { .sides { grid-template-columns: 1fr 1fr; width: 94vw; margin-left: calc(50% - 47vw); } }
.sides figure { margin: 0; min-width: 0; }
.sides figcaption { font-weight: 600; margin-bottom: 0.3rem; }
p.refusal { color: #8a1c1c; background: #fdf0f0; border-left: 4px solid #c33; padding: 0.4rem 0.6rem; }
table.examples td:last-child > :first-child { margin-top: 0; }
""".strip()

# A rule ID as the digests write them (AIR-R-42, AER-SET-03); only the catalogue's own become links.
RULE_ID = re.compile(r"\b[A-Z]{2,4}-[A-Z]{1,4}-\d{1,4}[a-z]?\b")
# Text inside these is left alone: a link in a link, the documents to save and the text pictures
# (folded in <details>), the drawings, the head.
_NO_LINKS = frozenset({"a", "details", "svg", "script", "style", "title", "textarea"})
_TAG = re.compile(r"(<[^>]*>)")
_TAG_NAME = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)")

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


def render(markdown: str) -> str:
    """Markdown to HTML: tables, headings, lists and code as such; raw HTML in the text is escaped."""
    html: str = _MD.render(markdown)
    return html


def link_rules(
    fragment: str,
    catalogue: RuleCatalogue,
    cited: dict[str, Rule],
    examples: Mapping[str, Example] | None = None,
    cited_examples: dict[str, Example] | None = None,
) -> str:
    """``fragment`` with every rule ID of ``catalogue`` in its text made a link to ``#ID`` (its row in
    the appendix); the rules linked are added to ``cited`` in order.  With ``examples`` (the digest's
    printed examples, :func:`digest_examples`), each of their IDs in the text links to ``#ID`` too and
    is added to ``cited_examples``; an ID in neither stays plain text.  Tags, attributes and the text of
    links, ``<details>`` (the documents to save) and drawings are left as they are."""
    examples = examples or {}
    cited_examples = {} if cited_examples is None else cited_examples
    out: list[str] = []
    skipping = 0

    def link(match: re.Match[str]) -> str:
        some_id = match.group(0)
        if some_id in catalogue:
            rule = cited.setdefault(some_id, catalogue[some_id])
            hint = html.escape(f"{cite(rule.page)}: {rule.statement}", quote=True)
            return f"<a class='rule' href='#{some_id}' title='{hint}'>{some_id}</a>"
        if some_id in examples and not match.string.startswith("-", match.end()):  # not in a file name
            example = cited_examples.setdefault(some_id, examples[some_id])
            hint = html.escape(example.heading, quote=True)
            return f"<a class='example' href='#{some_id}' title='{hint}'>{some_id}</a>"
        return some_id

    for token in _TAG.split(fragment):
        if token.startswith("<"):
            found = _TAG_NAME.match(token)
            if found is not None and found.group(2).lower() in _NO_LINKS and not token.endswith("/>"):
                skipping = max(skipping - 1, 0) if found.group(1) else skipping + 1
            out.append(token)
        elif skipping or not token:
            out.append(token)
        else:
            out.append(RULE_ID.sub(link, token))
    return "".join(out)


def in_catalogue_order(rule_ids: Iterable[str], catalogue: RuleCatalogue | None) -> list[str]:
    """``rule_ids`` once each, in the order of ``catalogue`` (the order of ``rulecraft rules GAME``:
    KAS-R-9 before KAS-R-10); IDs it does not hold (an ambiguity's) follow in their own order.  With no
    catalogue, as given."""
    unique = list(dict.fromkeys(rule_ids))
    if catalogue is None:
        return unique
    order = {rule.id: i for i, rule in enumerate(catalogue)}
    return sorted(unique, key=lambda r: order.get(r, len(order)))


def rule_rows(rules: Iterable[Rule]) -> str:
    """Table rows, one per rule, each with the rule ID as its anchor (``id``): the explorer's ``/rules``
    page and a report's appendix both use them, so ``#AIR-R-42`` lands on the same row in either."""
    return "".join(
        f"<tr id='{html.escape(r.id)}'><td><a href='#{html.escape(r.id)}'>{html.escape(r.id)}</a></td>"
        f"<td>{html.escape(cite(r.page))}</td><td>{html.escape(r.statement)}</td></tr>"
        for r in rules
    )


def rule_table(rules: Iterable[Rule]) -> str:
    return f"<table class='rules'><tr><th>rule</th><th>page</th><th>statement</th></tr>{rule_rows(rules)}</table>"


def appendix(game_id: str, cited: Iterable[Rule]) -> str:
    """The rules a report cites, in catalogue order, each with its page and the digest's statement."""
    rules = list(cited)
    if not rules:
        return ""
    return (
        "<section id='rules-cited'><h2>The rules cited</h2>"
        "<p>Each rule ID in this report with its rulebook page and statement, from the game's rule catalogue"
        f" (<code>rulecraft rules {html.escape(game_id)}</code>).</p>" + rule_table(rules) + "</section>"
    )


def example_rows(examples: Iterable[Example]) -> str:
    """Table rows, one per printed example, anchored by its ID: the entry's heading and its text."""
    return "".join(
        f"<tr id='{html.escape(e.id)}'><td><a href='#{html.escape(e.id)}'>{html.escape(e.id)}</a></td>"
        f"<td><strong>{html.escape(e.heading)}</strong>{render(e.text)}</td></tr>"
        for e in examples
    )


def example_appendix(game_id: str, cited: Iterable[Example]) -> str:
    """The printed examples a report cites, in digest order, each with its entry in the rules digest."""
    examples = list(cited)
    if not examples:
        return ""
    return (
        "<section id='examples-cited'><h2>The printed examples cited</h2>"
        "<p>Each printed example ID in this report with its entry in the game's rules digest"
        f" (the example's scenario: <code>rulecraft scenarios {html.escape(game_id)}</code>).</p>"
        "<table class='examples'><tr><th>example</th><th>what the rulebook shows</th></tr>"
        + example_rows(examples)
        + "</table></section>"
    )


@attrs.frozen
class Example:
    """A printed example's entry in a rules digest: its ID, its heading (title and page, as the digest
    writes them) and the rest of the entry (Markdown)."""

    id: str
    heading: str
    text: str


# Where the rules digests are looked for: $RULECRAFT_DIGESTS (a folder) alone when it is set, else a
# ``rules`` folder beside the checkout (the design's layout) or in the ``shared`` folder beside it.
DIGESTS_VARIABLE = "RULECRAFT_DIGESTS"
_CHECKOUT = Path(__file__).resolve().parent.parent


def digest_folders() -> list[Path]:
    chosen = os.environ.get(DIGESTS_VARIABLE)
    if chosen:
        return [Path(chosen)]
    return [_CHECKOUT / "rules", _CHECKOUT.parent / "rules", _CHECKOUT.parent / "shared" / "rules"]


def digest_name(title: str) -> str:
    """A game's digest file, named after its title: 'Aeroplanes: Aviation Ascendant' ->
    ``aeroplanes-aviation-ascendant.md``."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") + ".md"


def digest_path(game_id: str) -> Path | None:
    """The game's rules digest, if one is at hand (None: an unknown game, or no digest found)."""
    from rulecraft.core import RulecraftError
    from rulecraft.registry import game_class

    try:
        name = digest_name(game_class(game_id).title)
    except RulecraftError:
        return None
    return next((folder / name for folder in digest_folders() if (folder / name).is_file()), None)


EXAMPLE_ID = re.compile(r"\b[A-Z]{2,4}-EX-\d{1,4}[a-z]?\b")
# An entry's first line: a heading, a bold paragraph or a bold list item that starts with example IDs
# ("### AIR-EX-09 / AIR-EX-10 — ...", "**STM-EX-02 — ...**", "- **AIR-EX-11 Finance (left):** ...").
_ENTRY = re.compile(
    r"^(?P<mark>#{2,6}\s+|[-*]\s+\*\*|\*\*)(?P<ids>[A-Z]{2,4}-EX-\d{1,4}[a-z]?"
    r"(?:\s*(?:/|,|&|and)\s*[A-Z]{2,4}-EX-\d{1,4}[a-z]?)*)\b(?P<rest>.*)$"
)
_BOLD_ID = re.compile(r"\*\*([A-Z]{2,4}-EX-\d{1,4}[a-z]?)\b")


def parse_examples(digest: str) -> dict[str, Example]:
    """The printed examples of a rules digest, by ID, in the digest's order.  An entry runs from its
    first line to the next heading, rule or entry; a list item's entry to the end of the item, a bold
    paragraph's to the blank line.  A list item's heading names the paragraph that introduces its list
    ("Buying as a machine (p.19; ...):") or the group heading above it ("AIR-EX-11 … AIR-EX-22 — the
    card examples of p.6"): that is where its page is.  A range heading ("A … B") is no example's entry."""
    lines = digest.splitlines()
    out: dict[str, Example] = {}
    group = ""  # the last heading, when it names examples (a range heading included)
    lead = ""  # the paragraph line that introduces the list under way ("...:"), if any
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            group = _plain(line.lstrip("#")) if EXAMPLE_ID.search(line) else ""
            lead = ""
        entry = _ENTRY.match(line)
        rest = entry.group("rest") if entry is not None else ""
        if entry is None or rest.lstrip().startswith(("…", "..")):
            if line.strip() and not line.startswith(("#", "-", "*", " ", "\t")):
                lead = _plain(line) if line.rstrip().endswith(":") else ""
            i += 1
            continue
        mark = entry.group("mark")
        kind = "heading" if mark.startswith("#") else "bold" if mark == "**" else "item"
        ids = EXAMPLE_ID.findall(entry.group("ids"))
        ids += [x for x in _BOLD_ID.findall(rest) if x not in ids]
        j = i + 1
        while j < len(lines):
            following = lines[j]
            if following.startswith(("#", "---")) or _ENTRY.match(following):
                break
            if kind == "item" and following.strip() and not following.startswith((" ", "\t")):
                break
            if kind == "bold" and not following.strip():
                break
            j += 1
        if kind == "heading":
            own, first = rest, ""
        else:  # the bold part after the IDs is the title, the rest of the line the text
            own, _, first = rest.partition("**")
        own = _plain(own.lstrip(" —–-:"))
        context = (lead or group) if kind == "item" else ""
        heading = f"{own} ({context})" if own and context else own or context
        # A list item's own lines are indented under it: without that indentation its nested list stays one.
        text = "\n".join([first.strip(), textwrap.dedent("\n".join(lines[i + 1 : j]))]).strip()
        for example_id in ids:
            out.setdefault(example_id, Example(example_id, heading, text))
        i = j
    return out


def _plain(text: str) -> str:
    """A line without its Markdown emphasis and trailing colon or full stop."""
    return re.sub(r"\*\*|__|`", "", text).strip().rstrip(":.").strip()


def digest_examples(game_id: str) -> dict[str, Example]:
    """The printed examples of the game's rules digest, by ID (empty: no digest at hand)."""
    path = digest_path(game_id)
    if path is None:
        return {}
    try:
        return parse_examples(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return {}


def catalogue_of(game_id: str) -> RuleCatalogue | None:
    """The game's rule catalogue, whose IDs a report links to its appendix (None: a game unknown here)."""
    from rulecraft.core import RulecraftError
    from rulecraft.registry import game_class

    try:
        return game_class(game_id).catalogue
    except RulecraftError:
        return None


# One inlined picture: a game's drawing or a plot (rulecraft.svg: no ids, no nested <svg>, no <style>).
_SVG = re.compile(r"<svg\b([^>]*)>(.*?)</svg>", re.S)
_SVG_TITLE = re.compile(r"\s*(<title>.*?</title>)", re.S)
_VIEW_BOX = re.compile(r"""\sviewBox=["']([^"']*)["']""")


def share_pictures(body: str) -> str:
    """``body`` with every picture that occurs more than once drawn once: its first occurrence holds the
    drawing as a ``<symbol>`` and every occurrence (the first too) is an ``<svg>`` of the same size and
    tooltip that ``<use>``s it.  A finding's last step and "the state where it differs" are the same
    board, and the steps of several witnesses often share one: a report of the 27 witnesses of Airships
    drew 64 boards of which 36 differ (2.4 MB); each is now written once.  Pictures seen once, and the
    number of ``<svg>`` elements, are left as they are."""
    counts: dict[str, int] = {}
    for match in _SVG.finditer(body):
        counts[match.group(0)] = counts.get(match.group(0), 0) + 1
    shared = {svg: f"picture-{i}" for i, svg in enumerate(s for s, n in counts.items() if n > 1)}
    written: set[str] = set()

    def use(match: re.Match[str]) -> str:
        name = shared.get(match.group(0))
        if name is None:
            return match.group(0)
        attributes, inner = match.group(1), match.group(2)
        title = _SVG_TITLE.match(inner)
        head = f"<svg{attributes}>{title.group(1) if title else ''}"
        if name in written:
            return f"{head}<use href='#{name}'/></svg>"
        written.add(name)
        box = _VIEW_BOX.search(attributes)
        view = f" viewBox='{box.group(1)}'" if box else ""
        return f"{head}<defs><symbol id='{name}'{view}>{inner}</symbol></defs><use href='#{name}'/></svg>"

    return _SVG.sub(use, body) if shared else body


# The presentation attributes of rulecraft.svg's shapes that are CSS properties of the same name and
# value (lengths in user units are px); geometry (x, y, width, rx...) stays on the shapes.
_PRESENTATION = frozenset(
    {"fill", "stroke", "stroke-width", "stroke-dasharray", "font-size", "font-weight", "font-style", "text-anchor"}
    | {"opacity", "fill-opacity", "stroke-opacity"}
)
_LENGTHS = frozenset({"font-size", "stroke-width"})
_SHAPE = re.compile(r"<(rect|text|circle|ellipse|line|polyline|polygon|path|g)\b([^<>]*?)(/?)>")
_ATTRIBUTE = re.compile(r"""\s([\w:-]+)=("[^"]*"|'[^']*')""")
_SAFE_VALUE = re.compile(r"[#\w .,%-]+")
_CLASS_PREFIX = "p-"  # the page's own classes (rule, board, steps...) never start so


def compact_pictures(body: str, least: int = 3) -> tuple[str, str]:
    """``body`` with the presentation attributes that ``least`` or more shapes of its pictures share
    (``fill="#ffffff" stroke="#222222" stroke-width="0.8"`` on every die) replaced by one class each, and
    the page's CSS rules for those classes.  A class rule on a shape sets exactly what its attributes
    set, so the drawing is the same; a report's boards are a third smaller."""

    def presentation(attributes: str) -> tuple[tuple[tuple[str, str], ...], list[tuple[str, str]]]:
        style: list[tuple[str, str]] = []
        rest: list[tuple[str, str]] = []
        for match in _ATTRIBUTE.finditer(attributes):
            name, value = match.group(1), match.group(2)
            if name in _PRESENTATION and _SAFE_VALUE.fullmatch(value[1:-1]):
                style.append((name, value[1:-1]))
            else:
                rest.append((name, value))
        return tuple(style), rest

    pictures = [m.group(0) for m in _SVG.finditer(body)]
    counts: dict[tuple[tuple[str, str], ...], int] = {}
    for picture in pictures:
        for shape in _SHAPE.finditer(picture):
            style, _ = presentation(shape.group(2))
            if style:
                counts[style] = counts.get(style, 0) + 1
    ranked = sorted((s for s, n in counts.items() if n >= least), key=lambda s: (-counts[s], s))
    names = {style: f"{_CLASS_PREFIX}{i}" for i, style in enumerate(ranked)}
    if not names:
        return body, ""

    def classed(match: re.Match[str]) -> str:
        style, rest = presentation(match.group(2))
        name = names.get(style)
        if name is None:
            return match.group(0)
        classes = [v[1:-1] for k, v in rest if k == "class"] + [name]
        kept = "".join(f" {k}={v}" for k, v in rest if k != "class")
        return f'<{match.group(1)} class="{" ".join(classes)}"{kept}{match.group(3)}>'

    body = _SVG.sub(lambda m: _SHAPE.sub(classed, m.group(0)), body)

    def value(name: str, text: str) -> str:
        return f"{text}px" if name in _LENGTHS and re.fullmatch(r"[\d.]+", text) else text

    css = "".join(f".{name}{{{';'.join(f'{k}:{value(k, v)}' for k, v in style)}}}" for style, name in names.items())
    return body, css


def page(title: str, parts: Iterable[str], catalogue: RuleCatalogue | None = None) -> str:
    """A whole HTML document: ``parts`` are HTML fragments (rendered Markdown, inlined SVG...).  With a
    ``catalogue``, its rule IDs in the text link to an appendix of the rules cited, at the end, and
    its printed examples' IDs to an appendix of their entries in the game's rules digest (where the
    digest is at hand: else they stay text).  A picture that occurs more than once is written once
    (:func:`share_pictures`)."""
    body = "".join(parts)
    if catalogue is not None:
        cited: dict[str, Rule] = {}
        examples = digest_examples(catalogue.game)
        cited_examples: dict[str, Example] = {}
        body = link_rules(body, catalogue, cited, examples, cited_examples)
        order = {rule.id: i for i, rule in enumerate(catalogue)}
        body += appendix(catalogue.game, sorted(cited.values(), key=lambda r: order[r.id]))
        place = {example_id: i for i, example_id in enumerate(examples)}
        body += example_appendix(catalogue.game, sorted(cited_examples.values(), key=lambda e: place[e.id]))
    body, pictures_css = compact_pictures(share_pictures(body))
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}\n{pictures_css}</style></head><body>"
        + body
        + "</body></html>"
    )


__all__ = [
    "Example",
    "appendix",
    "catalogue_of",
    "compact_pictures",
    "digest_examples",
    "digest_path",
    "example_appendix",
    "in_catalogue_order",
    "link_rules",
    "page",
    "parse_examples",
    "render",
    "rule_rows",
    "rule_table",
    "share_pictures",
]
