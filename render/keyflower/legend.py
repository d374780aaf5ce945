"""The Keyflower table's legend: keyple and resource letters, edges and badges, the modules' pieces (drawn once per
place and modules, d.kept), then each player's bid edge."""

from __future__ import annotations

from engine.keyflower import keyples as kp
from engine.keyflower import village as vg
from engine.keyflower.components import RESOURCES
from engine.keyflower.view import KfView
from render import draw as d
from render.keyflower.chips import (
    GHOST_CHIP_W,
    chip,
    chip_width,
    ghost_chip,
    ghost_icon,
    keyple_icon,
    resource_chip,
    seat_disc,
    worker_pill,
)
from render.keyflower.look import PAD, ROAD, ROAD_EDGE, WATER, Box
from render.keyflower.reading import edge_of, name_of


def _modules(view: KfView) -> tuple[bool, bool]:
    """Which modules the game plays with: (Keymelequin, Key Celeste)."""
    return bool(view["modules"]["keymelequin"]), view["modules"]["key_celeste"]


def legend_height(view: KfView) -> int:
    """Three lines of keys, a fourth for the modules."""
    return (4 if any(_modules(view)) else 3) * 34 + 16


def legend(draw: d.Pen, view: KfView, box: Box) -> None:
    """The legend's fixed lines (_legend_keys, drawn once per place and modules), then the bid edges of each
    player."""
    x0, y0, x1, _ = box
    d.paste(draw, _legend_keys(box, _modules(view)), (x0, y0))
    y = y0 + 8 + 17 + 34 * (3 if any(_modules(view)) else 2)
    x = x0 + PAD
    x += d.text(draw, (x, y), "Bid edges", 17, bold=True, anchor="lm") + 12
    players = len(view["names"])
    for seat in range(players):
        seat_disc(draw, x + 11, y, seat)
        label = f"{d.ellipsize(name_of(view, seat), 16, 150)} {vg.EDGE_NAMES[edge_of(seat, players)]}"
        x += 26 + d.text(draw, (x + 26, y), label, 16, anchor="lm") + 16
    note = "q/r: village coordinates (0/0 home).  *: Keywood's own figure, not public (F-2)"
    d.text(draw, (x1 - PAD, y), d.ellipsize(note, 15, int(x1 - PAD - x - 10)), 15, d.MUTED, anchor="rm")


@d.kept(maxsize=8)
def _legend_keys(box: Box, modules: tuple[bool, bool]) -> d.Layer:
    """The legend's panel in box with the table's coordinates: keyple and resource letters, edges, badges, the
    modules' pieces."""
    x0, y0, x1, y1 = box
    _, draw = d.canvas(x1 - x0 + 1, y1 - y0 + 1, origin=(x0, y0))
    draw.rounded_rectangle(box, radius=12, fill=d.PANEL, outline=d.GRID, width=2)
    y = y0 + 8 + 17
    x = x0 + PAD
    x += d.text(draw, (x, y), "Keyples", 17, bold=True, anchor="lm") + 12
    for colour in kp.COLOURS:
        x += worker_pill(draw, x, y, colour, None) + 5
        x += d.text(draw, (x, y), colour, 16, anchor="lm") + 14
    keyple_icon(draw, x + 10, y, 28, "purple")
    x += 26 + d.text(draw, (x + 26, y), "purple: start player", 16, anchor="lm") + 18
    x += worker_pill(draw, x, y, "red", 3, flat=True) + 5
    x += d.text(draw, (x, y), "lower case: laid flat (summer boat 4a/4b)", 16, anchor="lm") + 18
    chip(draw, x + 30, y, 1, (("blue", 2),), False)
    d.text(draw, (x + 64, y), "player 2's bid or use", 16, anchor="lm")
    y += 34
    x = x0 + PAD
    x += d.text(draw, (x, y), "Resources", 17, bold=True, anchor="lm") + 12
    for kind in RESOURCES:
        x += resource_chip(draw, x, y, kind, 1) + 5
        x += d.text(draw, (x, y), kind, 16, anchor="lm") + 14
    x += resource_chip(draw, x + 3, y, "wood", 2, stored=True) + 11
    x += d.text(draw, (x, y), "framed: moved onto its storage tile in play (scores there)", 16, anchor="lm") + 18
    draw.line((x, y, x + 26, y), fill=ROAD, width=9)
    for k in (3, 11, 19):
        draw.line((x + k, y, x + k + 4, y), fill=ROAD_EDGE, width=2)
    x += 32 + d.text(draw, (x + 32, y), "road", 16, anchor="lm") + 14
    draw.line((x, y, x + 26, y), fill=WATER, width=7)
    x += 32 + d.text(draw, (x + 32, y), "water edge", 16, anchor="lm") + 14
    x += d.pill(draw, (x, y), "UP", 14, d.INK, ink=(255, 255, 255), pad=5) + 5
    d.text(draw, (x, y), "upgraded (double outline)", 16, anchor="lm")
    if any(modules):
        _legend_modules(draw, modules, x0 + PAD, y + 34)
    return d.layer(draw)


def _legend_modules(draw: d.Pen, modules: tuple[bool, bool], x: float, y: float) -> None:
    """The modules' pieces: Sven and Paulo (Keymelequin), the ghost and its chip (Key Celeste)."""
    mele, celeste = modules
    x += d.text(draw, (x, y), "Modules", 17, bold=True, anchor="lm") + 12
    if mele:
        for wild, words in (("sven", "Sven: blue or yellow"), ("paulo", "Paulo: green or red")):
            x += worker_pill(draw, x, y, wild, None) + 5
            x += d.text(draw, (x, y), words, 16, anchor="lm") + 14
        x += chip_width((("sven", 1), ("yellow", 2))) // 2
        chip(draw, x, y, 0, (("sven", 1), ("yellow", 2)), False)
        x += chip_width((("sven", 1), ("yellow", 2))) // 2 + 6
        x += d.text(draw, (x, y), "a bid of 3 with Sven", 16, anchor="lm") + 18
    if celeste:
        ghost_icon(draw, x + 10, y, 28)
        x += 26 + d.text(draw, (x + 26, y), "the ghost (Key Celeste): its holder is public", 16, anchor="lm") + 18
        ghost_chip(draw, x + GHOST_CHIP_W / 2 + 4, y, 1)
        d.text(draw, (x + GHOST_CHIP_W + 14, y), "played: wins the tile for player 2", 16, anchor="lm")


