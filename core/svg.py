"""Small helpers shared by the games' SVG pictures (``core/<game>/render.py: svg``): escaping, a few
elements, and the standalone SVG 1.1 document around them.

Every element is written on a line of its own, so that pictures of neighbouring positions share
most of their lines; the HTML replay (``replay/html.py``) stores each distinct line once.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
HIGHLIGHT = "#ff7f0e"  # what the last command changed
SHOT = "#d62728"


def esc(text: object) -> str:
    return escape(str(text), {'"': "&quot;"})


def _num(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".") if isinstance(v, float) else str(v)


def attrs_text(**attrs: object) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        out.append(f'{name}="{esc(_num(value) if isinstance(value, (int, float)) else value)}"')
    return " ".join(out)


# Pictures of neighbouring positions repeat most of their elements: each element's text is made once
# and looked up after (typed: 1 and 1.0, or 1 and True, are different keys).
_element = lru_cache(maxsize=1 << 16, typed=True)


@_element
def rect(x: float, y: float, w: float, h: float, **attrs: object) -> str:
    return f"<rect {attrs_text(x=x, y=y, width=w, height=h, **attrs)}/>"


@_element
def circle(cx: float, cy: float, r: float, **attrs: object) -> str:
    return f"<circle {attrs_text(cx=cx, cy=cy, r=r, **attrs)}/>"


@_element
def line(x1: float, y1: float, x2: float, y2: float, **attrs: object) -> str:
    return f"<line {attrs_text(x1=x1, y1=y1, x2=x2, y2=y2, **attrs)}/>"


def polygon(points: Iterable[tuple[float, float]], **attrs: object) -> str:
    return _polygon(tuple(points), **attrs)


@_element
def _polygon(points: tuple[tuple[float, float], ...], **attrs: object) -> str:
    pts = " ".join(f"{_num(round(x, 1))},{_num(round(y, 1))}" for x, y in points)
    return f"<polygon {attrs_text(points=pts, **attrs)}/>"


@_element
def text(x: float, y: float, content: object, size: float = 12, anchor: str = "start", **attrs: object) -> str:
    return (
        f"<text {attrs_text(x=x, y=y, font_size=size, text_anchor=anchor, **attrs)}>{esc(content)}</text>"
    )


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = HIGHLIGHT, width: float = 4) -> list[str]:
    """A line with a triangular head at (x2, y2), as plain elements (no markers, no ids)."""
    import math

    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    head = 3.2 * width
    bx, by = x2 - ux * head, y2 - uy * head
    px, py = -uy * head * 0.6, ux * head * 0.6
    return [
        line(round(x1, 1), round(y1, 1), round(bx, 1), round(by, 1), stroke=colour, stroke_width=width,
             stroke_linecap="round", opacity=0.85),
        polygon([(x2, y2), (bx + px, by + py), (bx - px, by - py)], fill=colour, opacity=0.85),
    ]


def document(width: int, height: int, body: Iterable[str], *, size: int | None, title: str) -> str:
    """A standalone SVG 1.1 document: ``viewBox`` is the drawing's own units; ``size`` (the width in
    pixels, height to scale) sets ``width``/``height`` when given."""
    dims = ""
    if size:
        dims = f' width="{size}" height="{round(size * height / width)}"'
    head = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1"{dims} viewBox="0 0 {width} {height}"'
        f' font-family="{FONT}">'
    )
    return "\n".join([head, f"<title>{esc(title)}</title>", *body, "</svg>"]) + "\n"
