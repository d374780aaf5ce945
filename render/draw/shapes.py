"""Shapes shared by every table: pills, dashed rectangles, outlined polygons and evenly spread slots."""

from __future__ import annotations

from collections.abc import Sequence

from render.draw.canvas import Pen
from render.draw.colours import RGB, ink_on
from render.draw.fonts import text, text_width


def pill(
    draw: Pen,
    xy: tuple[float, float],
    label: str,
    size: int,
    fill: RGB,
    *,
    ink: RGB | None = None,
    outline: RGB | None = None,
    bold: bool = True,
    pad: int = 8,
    anchor: str = "l",
) -> int:
    """A rounded label; xy is its left (anchor 'l'), centre ('m') or right ('r') edge at mid-height.

    Returns the pill's width.
    """
    w = text_width(label, size, bold) + 2 * pad
    h = size + pad
    x, y = xy
    x0 = {"l": x, "m": x - w / 2, "r": x - w}[anchor]
    draw.rounded_rectangle((x0, y - h / 2, x0 + w, y + h / 2), radius=h // 2, fill=fill, outline=outline, width=2)
    text(draw, (x0 + w / 2, y), label, size, ink or ink_on(fill), bold=bold, anchor="mm")
    return w


def pill_width(label: str, size: int, *, bold: bool = True, pad: int = 8) -> int:
    """The width pill() would draw."""
    return text_width(label, size, bold) + 2 * pad


def dashed_rectangle(
    draw: Pen, box: tuple[int, int, int, int], fill: RGB, width: int = 3, dash: int = 10
) -> None:
    """A rectangle outline drawn in dashes."""
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line((x, y0, min(x + dash, x1), y0), fill=fill, width=width)
        draw.line((x, y1, min(x + dash, x1), y1), fill=fill, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=fill, width=width)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=fill, width=width)


def shape(
    draw: Pen, points: Sequence[tuple[float, float]], fill: RGB, edge: RGB, width: int = 2
) -> None:
    """A filled polygon with an outline; thick outlines are drawn as a closed line.

    (Pillow's own thick polygon outline allocates a mask the size of the whole image on every call.)
    """
    draw.polygon(list(points), fill=fill, outline=edge, width=1)
    if width > 1:
        draw.line([*points, points[0]], fill=edge, width=width, joint="curve")


def outline(draw: Pen, points: Sequence[tuple[float, float]], edge: RGB, width: int) -> None:
    """A polygon's outline width pixels thick inside its edge, as Pillow draws it, on a crop just round it.

    (Pillow masks the whole image for a thick polygon outline; on the crop the mask is the polygon's size.)
    """
    ox, oy = draw.origin
    left = max(ox, int(min(x for x, _ in points)) - 2)
    top = max(oy, int(min(y for _, y in points)) - 2)
    right = min(ox + draw.image.width, int(max(x for x, _ in points)) + 3)
    bottom = min(oy + draw.image.height, int(max(y for _, y in points)) + 3)
    if right <= left or bottom <= top:
        return
    part = draw.image.crop((left - ox, top - oy, right - ox, bottom - oy))
    Pen(part, draw.colours).polygon([(x - left, y - top) for x, y in points], outline=edge, width=width)
    draw.image.paste(part, (left - ox, top - oy))


def spread(count: int, start: float, end: float) -> Sequence[float]:
    """Centres of count equal slots between start and end."""
    step = (end - start) / max(1, count)
    return [start + step * (i + 0.5) for i in range(count)]
