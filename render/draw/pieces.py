"""Keyper's pieces: colour tags, keyples, keypers and resource icons."""

from __future__ import annotations

from render.draw.canvas import Pen
from render.draw.colours import COLOUR_LETTER, FAINT, INK, KEYPLE_FILL, RESOURCE_FILL, RGB, darker, ink_on, player_fill
from render.draw.fonts import text, text_width
from render.draw.shapes import shape


def colour_tag(draw: Pen, xy: tuple[float, float], colour: str, size: int = 13) -> int:
    """A keyple colour's swatch with its letter (B, O, G, Br, K, Gy, W); xy is the top-left corner."""
    fill = KEYPLE_FILL[colour]
    label = COLOUR_LETTER[colour]
    w = max(size + 8, text_width(label, size, True) + 8)
    h = size + 6
    x, y = xy
    draw.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=fill, outline=INK, width=1)
    text(draw, (x + w / 2, y + h / 2), label, size, ink_on(fill), bold=True, anchor="mm")
    return w


def _meeple(cx: float, cy: float, h: float) -> tuple[list[tuple[float, float]], tuple[float, float, float]]:
    """An upright keyple's body polygon and head circle (centre x, centre y, radius), centred on (cx, cy)."""
    top = cy - h / 2
    r = h * 0.19
    head = (cx, top + r, r)
    w = h * 0.8
    neck = top + 2 * r - 1
    bottom = cy + h / 2
    body = [
        (cx - w * 0.2, neck),
        (cx + w * 0.2, neck),
        (cx + w * 0.5, neck + h * 0.14),
        (cx + w * 0.5, neck + h * 0.26),
        (cx + w * 0.32, neck + h * 0.3),
        (cx + w * 0.42, bottom),
        (cx - w * 0.42, bottom),
        (cx - w * 0.32, neck + h * 0.3),
        (cx - w * 0.5, neck + h * 0.26),
        (cx - w * 0.5, neck + h * 0.14),
    ]
    return body, head


def keyple(
    draw: Pen, cx: float, cy: float, h: float, colour: str, *, lying: bool = False, letter: bool = True
) -> None:
    """A keyple centred on (cx, cy), h pixels tall standing, with its colour letter; lying ones lie on their side."""
    fill = KEYPLE_FILL[colour]
    edge = INK
    body, (hx, hy, r) = _meeple(cx, cy, h)
    if lying:  # a quarter turn about the centre: the head points left
        body = [(cx + (y - cy), cy - (x - cx)) for x, y in body]
        hx, hy = cx + (hy - cy), cy - (hx - cx)
    shape(draw, body, fill, edge)
    draw.ellipse((hx - r, hy - r, hx + r, hy + r), fill=fill, outline=edge, width=2)
    if letter:
        label = COLOUR_LETTER[colour]
        size = max(10, int(h * (0.36 if len(label) == 1 else 0.32)))
        lx, ly = (cx + h * 0.14, cy) if lying else (cx, cy + h * 0.17)
        text(draw, (lx, ly), label, size, ink_on(fill), bold=True, anchor="mm")


def keyple_width(h: float, lying: bool) -> float:
    """The horizontal room a keyple of height h takes."""
    return h if lying else h * 0.8


def keyper(draw: Pen, cx: float, cy: float, h: float, seat: int, initial: str) -> None:
    """A player's keyper: a tall crowned piece in the player's colour with the player's initial."""
    fill = player_fill(seat)
    w = h * 0.62
    top = cy - h / 2
    crown = top + h * 0.28
    shape(
        draw,
        [
            (cx - w * 0.5, cy + h / 2),
            (cx - w * 0.34, crown),
            (cx - w * 0.5, top + h * 0.06),
            (cx - w * 0.2, top + h * 0.18),
            (cx, top),
            (cx + w * 0.2, top + h * 0.18),
            (cx + w * 0.5, top + h * 0.06),
            (cx + w * 0.34, crown),
            (cx + w * 0.5, cy + h / 2),
        ],
        fill,
        INK,
    )
    text(draw, (cx, cy + h * 0.12), initial, max(10, int(h * 0.34)), ink_on(fill), bold=True, anchor="mm")


def resource_icon(
    draw: Pen, cx: float, cy: float, r: float, resource: str, group: str, *, fill: RGB | None = None
) -> None:
    """A resource's icon by its group (engine.keyper.vocab.resource_group): raw a cube, finished a striped block,
    wheat a sheaf, a gem a diamond, an animal (or anything else) a disc.

    fill overrides the resource's colour (white draws the printed tiles' "any of this kind" icon).
    """
    fill = fill or RESOURCE_FILL.get(resource, FAINT)
    edge = INK
    if group == "raw":
        draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=max(1, r / 4), fill=fill, outline=edge, width=1)
    elif group == "finished":
        draw.rectangle((cx - r, cy - r * 0.75, cx + r, cy + r * 0.75), fill=fill, outline=edge, width=1)
        draw.line((cx - r, cy, cx + r, cy), fill=darker(fill), width=1)
    elif group == "wheat":
        draw.ellipse((cx - r * 0.55, cy - r, cx + r * 0.55, cy + r), fill=fill, outline=edge, width=1)
        draw.line((cx, cy - r * 0.7, cx, cy + r * 0.9), fill=darker(fill), width=1)
    elif group == "gem":
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=edge, width=1)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=1)
