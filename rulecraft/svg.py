"""A tiny SVG builder for pictures of game states (standard library only).

A :class:`Drawing` collects shapes and text and returns one standalone
``<svg>`` element: no XML declaration and no ``id`` attributes, so several
pictures can be inlined into one HTML report without clashing.  Styles are
plain presentation attributes rather than a ``<style>`` block, because an
inlined ``<style>`` would leak into the whole page.

Output is deterministic: attributes are written in a fixed order and numbers
through one formatter, so the same calls give the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from xml.sax.saxutils import escape, quoteattr

SVG_NAMESPACE = "http://www.w3.org/2000/svg"

# Named colours shared by every picture, so reports look of a piece.
PALETTE: Mapping[str, str] = {
    "ink": "#222222",
    "muted": "#777777",
    "faint": "#bbbbbb",
    "paper": "#ffffff",
    "panel": "#f6f4ef",
    "header": "#2f3e4e",
    "highlight": "#f2b705",
    "water": "#7fb3d5",
    "land": "#e3ecd0",
    "partial": "#f3f1ea",
    "rail": "#5b4636",
    "closed": "#555555",
}

# One colour per seat (up to 7 players), far enough apart to tell markers apart.
SEAT_COLOURS: tuple[str, ...] = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#17becf",
)

# A rough average glyph width of a sans-serif font, in ems: enough to keep
# labels inside their boxes without measuring fonts.
_EM_WIDTH = 0.6

Number = float | int
Point = tuple[Number, Number]


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def ink_on(fill: str) -> str:
    """Dark or light text, whichever reads better on a ``#rrggbb`` fill."""
    if len(fill) != 7 or not fill.startswith("#"):
        return PALETTE["ink"]
    red, green, blue = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    luminance = 0.299 * red + 0.587 * green + 0.114 * blue
    return PALETTE["ink"] if luminance > 150 else PALETTE["paper"]


def fit(text: str, width: Number, size: Number) -> str:
    """``text`` cut with an ellipsis so it roughly fits ``width`` pixels."""
    most = max(1, int(width / (size * _EM_WIDTH)))
    return text if len(text) <= most else text[: most - 1] + "…"


def text_width(text: str, size: Number) -> float:
    """The estimated width of ``text`` at ``size`` (see ``_EM_WIDTH``)."""
    return len(text) * size * _EM_WIDTH


def _num(value: Number) -> str:
    """Two decimals at most, no trailing zeros, never '-0'."""
    out = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if out in ("-0", "") else out


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _attrs(pairs: Sequence[tuple[str, str | Number | None]]) -> str:
    out = []
    for name, value in pairs:
        if value is None:
            continue
        shown = value if isinstance(value, str) else _num(value)
        out.append(f" {name}={quoteattr(shown)}")
    return "".join(out)


def _stroke(stroke: str | None, width: Number, dashed: bool) -> list[tuple[str, str | Number | None]]:
    if stroke is None:
        return []
    return [("stroke", stroke), ("stroke-width", width), ("stroke-dasharray", "4 3" if dashed else None)]


class Drawing:
    """An SVG picture ``width`` x ``height`` pixels, built shape by shape.

    Every shape takes an optional ``title`` (a hover tooltip) and ``class_``
    (a CSS class, which also lets tests and scripts find shapes by role).
    """

    def __init__(
        self,
        width: Number,
        height: Number,
        *,
        title: str | None = None,
        background: str | None = PALETTE["paper"],
    ) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.background = background
        # One list per open group; shapes go into the innermost one.
        self._stack: list[list[str]] = [[]]

    # -- shapes ---------------------------------------------------------------------
    def rect(
        self,
        x: Number,
        y: Number,
        width: Number,
        height: Number,
        *,
        fill: str = PALETTE["paper"],
        stroke: str | None = None,
        stroke_width: Number = 1,
        rx: Number = 0,
        dashed: bool = False,
        opacity: Number | None = None,
        class_: str | None = None,
        title: str | None = None,
    ) -> None:
        pairs: list[tuple[str, str | Number | None]] = [
            ("class", class_),
            ("x", x),
            ("y", y),
            ("width", width),
            ("height", height),
            ("rx", rx or None),
            ("fill", fill),
            ("fill-opacity", opacity),
            *_stroke(stroke, stroke_width, dashed),
        ]
        self._element("rect", pairs, title=title)

    def circle(
        self,
        cx: Number,
        cy: Number,
        r: Number,
        *,
        fill: str = PALETTE["paper"],
        stroke: str | None = None,
        stroke_width: Number = 1,
        dashed: bool = False,
        class_: str | None = None,
        title: str | None = None,
    ) -> None:
        pairs: list[tuple[str, str | Number | None]] = [
            ("class", class_),
            ("cx", cx),
            ("cy", cy),
            ("r", r),
            ("fill", fill),
            *_stroke(stroke, stroke_width, dashed),
        ]
        self._element("circle", pairs, title=title)

    def polygon(
        self,
        points: Sequence[Point],
        *,
        fill: str = PALETTE["paper"],
        stroke: str | None = None,
        stroke_width: Number = 1,
        dashed: bool = False,
        class_: str | None = None,
        title: str | None = None,
    ) -> None:
        pairs: list[tuple[str, str | Number | None]] = [
            ("class", class_),
            ("points", _points(points)),
            ("fill", fill),
            *_stroke(stroke, stroke_width, dashed),
        ]
        self._element("polygon", pairs, title=title)

    def polyline(
        self,
        points: Sequence[Point],
        *,
        stroke: str = PALETTE["ink"],
        stroke_width: Number = 1,
        dash: str | None = None,
        class_: str | None = None,
        title: str | None = None,
    ) -> None:
        """An open path through ``points`` (unfilled); ``dash`` e.g. "2 5"."""
        pairs: list[tuple[str, str | Number | None]] = [
            ("class", class_),
            ("points", _points(points)),
            ("fill", "none"),
            ("stroke", stroke),
            ("stroke-width", stroke_width),
            ("stroke-dasharray", dash),
            ("stroke-linejoin", "round"),
        ]
        self._element("polyline", pairs, title=title)

    def line(
        self,
        x1: Number,
        y1: Number,
        x2: Number,
        y2: Number,
        *,
        stroke: str = PALETTE["ink"],
        stroke_width: Number = 1,
        dashed: bool = False,
        dash: str | None = None,
        class_: str | None = None,
        title: str | None = None,
    ) -> None:
        """A segment; ``dash`` overrides the default dash pattern (e.g. rail ties)."""
        pairs: list[tuple[str, str | Number | None]] = [
            ("class", class_),
            ("x1", x1),
            ("y1", y1),
            ("x2", x2),
            ("y2", y2),
            ("stroke", stroke),
            ("stroke-width", stroke_width),
            ("stroke-dasharray", dash or ("4 3" if dashed else None)),
            ("stroke-linecap", "round" if dash is None else None),
        ]
        self._element("line", pairs, title=title)

    def text(
        self,
        x: Number,
        y: Number,
        content: str,
        *,
        size: Number = 12,
        fill: str = PALETTE["ink"],
        anchor: str = "start",
        bold: bool = False,
        italic: bool = False,
        class_: str | None = None,
        title: str | None = None,
    ) -> None:
        """``content`` at baseline ``y``; ``anchor`` is start, middle or end."""
        pairs: list[tuple[str, str | Number | None]] = [
            ("class", class_),
            ("x", x),
            ("y", y),
            ("font-size", size),
            ("fill", fill),
            ("text-anchor", None if anchor == "start" else anchor),
            ("font-weight", "bold" if bold else None),
            ("font-style", "italic" if italic else None),
        ]
        self._element("text", pairs, body=escape(content), title=title)

    @contextmanager
    def group(
        self,
        *,
        title: str | None = None,
        class_: str | None = None,
        offset: Point | None = None,
    ) -> Iterator[None]:
        """Shapes drawn inside the ``with`` block form one ``<g>``: one tooltip
        for all of them, and ``offset`` moves them together."""
        self._stack.append([])
        try:
            yield
        finally:
            children = self._stack.pop()
        transform = None if offset is None else f"translate({_num(offset[0])},{_num(offset[1])})"
        self._element("g", [("class", class_), ("transform", transform)], body="\n".join(children), title=title)

    # -- output -----------------------------------------------------------------------
    def to_string(self) -> str:
        """The standalone ``<svg>`` document (no XML declaration: inlinable)."""
        if len(self._stack) != 1:
            raise RuntimeError("to_string() inside an open group")
        root = _attrs(
            [
                ("xmlns", SVG_NAMESPACE),
                ("viewBox", f"0 0 {_num(self.width)} {_num(self.height)}"),
                ("width", self.width),
                ("height", self.height),
                ("font-family", "Helvetica, Arial, sans-serif"),
                ("role", "img"),
            ]
        )
        parts = [f"<svg{root}>"]
        if self.title is not None:
            parts.append(f"<title>{escape(self.title)}</title>")
        if self.background is not None:
            parts.append(f'<rect width="100%" height="100%" fill={quoteattr(self.background)}/>')
        parts.extend(self._stack[0])
        parts.append("</svg>")
        return "\n".join(parts) + "\n"

    def _element(
        self,
        tag: str,
        pairs: Sequence[tuple[str, str | Number | None]],
        *,
        body: str = "",
        title: str | None = None,
    ) -> None:
        # A <title> child must come first to be the element's tooltip.
        inner = (f"<title>{escape(title)}</title>" if title is not None else "") + body
        attributes = _attrs(pairs)
        self._stack[-1].append(f"<{tag}{attributes}>{inner}</{tag}>" if inner else f"<{tag}{attributes}/>")
