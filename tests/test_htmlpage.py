"""The reports' HTML page (rulecraft.htmlpage, issue 20): Markdown rendered with tables, users' text
escaped, long lines wrapped."""

from __future__ import annotations

from rulecraft import htmlpage


def test_tables_headings_and_code_are_rendered() -> None:
    text = "## Findings\n\n| field | ours | theirs |\n|---|---|---|\n| `money` | 3 | 4 |\n"
    out = htmlpage.render(text)
    assert "<h2>Findings</h2>" in out
    assert "<th>field</th>" in out and "<td><code>money</code></td>" in out and "|---|" not in out


def test_raw_html_in_a_report_shows_as_text() -> None:
    """A variant's name or an implementation's message is quoted as text, never run as HTML."""
    out = htmlpage.render("name: <script>alert(1)</script> and <b>bold</b>")
    assert "<script>" not in out and "&lt;script&gt;" in out and "<b>" not in out


def test_the_page_wraps_long_lines_and_escapes_its_title() -> None:
    doc = htmlpage.page("errata <x>", [htmlpage.render("```\n" + "x" * 500 + "\n```")])
    assert doc.startswith("<!doctype html>") and "<title>errata &lt;x&gt;</title>" in doc
    assert "white-space: pre-wrap" in doc and "<pre><code>" + "x" * 500 in doc
