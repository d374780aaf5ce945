"""Small parts several areas of the Keyper table draw: a row of keyples, a resource's icon, a player's name."""

from __future__ import annotations

from collections.abc import Sequence

from engine.keyper.view import KeyperView, KeypleView
from engine.keyper.vocab import RESOURCES, resource_group
from render import draw as d
from render.draw import Box

GROUPS = {resource: resource_group(resource) for resource in RESOURCES}


def icon(draw: d.Pen, cx: float, cy: float, r: float, resource: str, *, fill: d.RGB | None = None) -> None:
    """A resource's icon, shaped by its group (a disc for what is no resource)."""
    d.resource_icon(draw, cx, cy, r, resource, GROUPS.get(resource, ""), fill=fill)


def name(view: KeyperView, seat: int) -> str:
    """A seat's player name."""
    return view["players"][seat]["name"]


def keyples_row(draw: d.Pen, keyples: Sequence[KeypleView], box: Box, h: int) -> None:
    """Keyples side by side, centred in a box, shrinking when many."""
    if not keyples:
        return
    x0, y0, x1, y1 = box
    widths = [d.keyple_width(h, k["lying"]) for k in keyples]
    gap = 4
    scale = min(1.0, (x1 - x0) / (sum(widths) + gap * (len(keyples) - 1)))
    hh = h * scale
    x = (x0 + x1) / 2 - (sum(widths) + gap * (len(keyples) - 1)) * scale / 2
    cy = (y0 + y1) / 2
    for k, w in zip(keyples, widths, strict=True):
        lying = k["lying"]
        ky = cy + (hh * 0.18 if lying else 0)
        d.keyple(draw, x + w * scale / 2, ky, hh, k["colour"], lying=lying)
        x += (w + gap) * scale
