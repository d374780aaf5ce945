"""The Keyper table's legend: colour letters, piece shapes, resource icon shapes, what the outlines mean, and which
values the data pack reconstructed."""

from __future__ import annotations

from engine.keyper.components import default
from engine.keyper.lookup import reconstructed, reconstructed_values
from engine.keyper.vocab import COLOURS
from render import draw as d
from render.keyper.layout import LEGEND_H, MARGIN, WIDTH
from render.keyper.market import MARK
from render.keyper.parts import GROUPS, icon


@d.kept(maxsize=1)
def legend() -> d.Layer:
    """The legend, drawn once."""
    width = WIDTH - 2 * MARGIN
    _, draw = d.canvas(width + 1, LEGEND_H + 1)
    draw.rounded_rectangle((0, 0, width, LEGEND_H), radius=12, fill=d.PANEL, outline=d.GRID, width=2)
    x, ly = 14, 24
    x += d.text(draw, (x, ly), "Colours", 18, bold=True, anchor="lm") + 16
    for colour in COLOURS:
        x += d.colour_tag(draw, (x, ly - 11), colour, 15) + 6
        x += d.text(draw, (x, ly), d.COLOUR_NAME[colour], 17, anchor="lm") + 18
    _pieces(draw, 14, 64)
    x, ly = 14, 98
    for res in ("clay", "brick", "ruby"):
        icon(draw, x + 10, ly, 10, res, fill=(255, 255, 255))
        x += 24
    x += 4 + d.text(draw, (x + 4, ly), "any of that kind", 17, anchor="lm") + 26
    x += d.text(draw, (x, ly), MARK, 20, d.INK, bold=True, anchor="lm") + 8
    d.text(draw, (x, ly), d.ellipsize(reconstructed_note(), 17, width - x - 14), 17, anchor="lm")
    return d.layer(draw)


def _pieces(draw: d.Pen, x: int, ly: int) -> None:
    """The legend's middle line: keyples standing and lying, a keyper, the two outlines, the UP badge, and a
    resource of each group."""
    d.keyple(draw, x + 12, ly, 32, "white")
    x += 30 + d.text(draw, (x + 30, ly), "standing", 17, anchor="lm") + 22
    d.keyple(draw, x + 16, ly + 2, 32, "white", lying=True)
    x += 38 + d.text(draw, (x + 38, ly), "lying", 17, anchor="lm") + 22
    d.keyper(draw, x + 12, ly, 34, 0, "A")
    x += 30 + d.text(draw, (x + 30, ly), "keyper", 17, anchor="lm") + 22
    draw.rectangle((x, ly - 12, x + 24, ly + 12), outline=d.HIGHLIGHT, width=4)
    x += 32 + d.text(draw, (x + 32, ly), "last action", 17, anchor="lm") + 22
    d.dashed_rectangle(draw, (x, ly - 12, x + 24, ly + 12), d.OFFER, width=3, dash=5)
    x += 32 + d.text(draw, (x + 32, ly), "joiner offer", 17, anchor="lm") + 22
    x += d.pill(draw, (x, ly), "UP", 13, (240, 190, 20), ink=d.INK, outline=d.INK, pad=5) + 8
    x += d.text(draw, (x, ly), "upgraded", 17, anchor="lm") + 26
    for res in ("clay", "brick", "wheat", "pig", "ruby"):  # one of each group, labelled with the group
        icon(draw, x + 10, ly, 10, res)
        x += 26 + d.text(draw, (x + 26, ly), GROUPS[res], 17, anchor="lm") + 20


def reconstructed_note() -> str:
    """What the legend says about the data pack's reconstructed values, from their provenance."""
    comps = default()
    layouts = any(reconstructed(display.provenance) for display in comps.displays)
    cargo = any(reconstructed(boat.provenance) for boat in comps.boats.values())
    what = reconstructed_values(comps, layouts, cargo)
    also = f" Also reconstructed: {', '.join(what)}." if what else ""
    return f"build cost reconstructed (not in any public source).{also}"
