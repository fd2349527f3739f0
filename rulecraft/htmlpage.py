"""The HTML page every report writes: its Markdown rendered (tables as tables, long lines wrapped),
with the game's pictures inlined, in one small stylesheet (issue 20).

The Markdown is rendered by markdown-it-py (CommonMark with tables) with raw HTML turned off: a
report quotes names and values from users' files, and those must show as text, never run.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from markdown_it import MarkdownIt

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
""".strip()

_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


def render(markdown: str) -> str:
    """Markdown to HTML: tables, headings, lists and code as such; raw HTML in the text is escaped."""
    html: str = _MD.render(markdown)
    return html


def page(title: str, parts: Iterable[str]) -> str:
    """A whole HTML document: ``parts`` are HTML fragments (rendered Markdown, inlined SVG...)."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>" + "".join(parts) + "</body></html>"
    )


__all__ = ["page", "render"]
