"""A player's panel on the Keyper table: its frame and band, name and badges, and the farm and village plots (the
side column, the stores and the tiles to build are render.keyper.holdings')."""

from __future__ import annotations

from collections.abc import Sequence

from engine.keyper.components import Components, default
from engine.keyper.decisions import TURN_PHASES
from engine.keyper.view import KeyperView, KeypleView, PlayerView, PlotView
from engine.keyper.vocab import AREAS
from engine.keyper.works import plot_at, plot_cell, plots_of
from render import draw as d
from render.draw import Box
from render.keyper import holdings
from render.keyper.header import Mark
from render.keyper.layout import PLOT_H, PLOT_W, panel_parts
from render.keyper.parts import keyples_row


def panel_frame(draw: d.Pen, seat: int, box: Box) -> None:
    """What a seat's panel always shows: frame, band in the seat's colour, empty plots, fixed labels, store icons."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    draw.rounded_rectangle((x0, y0, x1, y0 + 52), radius=14, fill=d.player_fill(seat),
                           corners=(True, True, False, False))
    plots, side, stores, to_build = panel_parts(box)
    _plot_grid(draw, plots[0], plots[1])
    holdings.side_frame(draw, side)
    holdings.stores_frame(draw, stores)
    d.text(draw, (to_build[0], to_build[1] + 10), "TILES TO BUILD", 17, bold=True, anchor="lm")


def player_panel(draw: d.Pen, view: KeyperView, comps: Components, seat: int, box: Box, mark: Mark | None) -> None:
    """One player's panel over its frame (panel_frame): the acting outline, name and badges, built plots, keyp and
    keyp tile, fairs, store counts, tiles to build."""
    player = view["players"][seat]
    x0, y0, x1, y1 = box
    fill = d.player_fill(seat)
    if seat in view["to_act"]:  # over the grey frame: the same pixels as a panel drawn with this outline
        draw.rounded_rectangle(box, radius=14, outline=fill, width=5)
    ink = d.ink_on(fill)
    d.text(draw, (x0 + 16, y0 + 26), d.ellipsize(player["name"], 28, 300, bold=True), 28, ink, bold=True,
           anchor="lm")
    _badges(draw, view, seat, (x0, y0, x1, y0 + 52))
    owner = mark[2] if mark and mark[2] is not None else view["active"]
    plot_hl = mark[1] if mark and mark[0] is None and seat == owner else None
    plots, side, stores, to_build = panel_parts(box)
    _plots(draw, player, comps, plots[0], plots[1], plot_hl)
    holdings.side(draw, view, seat, side)
    holdings.stores(draw, player["goods"], stores)
    holdings.to_build(draw, comps, player["tiles"], to_build)


def _badges(draw: d.Pen, view: KeyperView, seat: int, band: Box) -> None:
    """Right-aligned pills in a panel header: turn and decision markers, claimed board, display choice."""
    player = view["players"][seat]
    x = band[2] - 12
    cy = (band[1] + band[3]) / 2
    badges: list[tuple[str, d.RGB, d.RGB]] = []
    if seat in view["to_act"]:
        badges.append(("TO ACT", (255, 255, 255), d.HIGHLIGHT))
    elif seat == view["active"] and view["phase"] in TURN_PHASES:
        badges.append(("ACTIVE TURN", d.INK, (255, 255, 255)))
    if view["phase"] == "choose_display":
        chosen = bool(player["chosen_display"])
        badges.append(("display chosen" if chosen else "choosing display", (255, 255, 255), d.INK))
    if player["board"] is not None:
        badges.append((f"board {player['board']}", d.lighter(d.INK, 0.9), d.INK))
    for label, fill, ink in badges:
        x -= d.pill(draw, (x, cy), label, 17, fill, ink=ink, outline=d.INK, anchor="r") + 8


def _plot_box(pid: str, x: int, y: int) -> Box:
    """Where a plot sits in its area's grid, the grid's top-left corner at (x, y)."""
    _, row, col = plot_cell(pid)
    px, py = x + col * PLOT_W, y + row * PLOT_H
    return px, py, px + PLOT_W, py + PLOT_H


def _rows(area: str) -> int:
    """How many rows of plots an area has."""
    return plot_cell(plots_of(area)[-1])[1] + 1


def _plot_grid(draw: d.Pen, x: int, y: int) -> None:
    """The farm (f1..f8) and village (v1..v12) headings and plots, every plot empty."""
    for area in AREAS:
        d.text(draw, (x, y + 12), area.upper(), 19, d.AREA_FILL[area], bold=True, anchor="lm")
        y += 26
        for pid in plots_of(area):
            _plot(draw, default(), area, pid, None, [], _plot_box(pid, x, y))
        y += _rows(area) * PLOT_H + 12


def _plots(draw: d.Pen, player: PlayerView, comps: Components, x: int, y: int, hl: str | None) -> None:
    """Over the empty grid (_plot_grid): how many plots are built, the built plots and the highlighted one's outline.

    Neighbours share their edge lines, the later plot's on top, and the outline spills onto the plots after it: so
    an empty plot right of or under a built one, and every plot after the outlined one, is drawn again."""
    plots, keyples = player["plots"], player["plot_keyples"]
    for area in AREAS:
        built = sum(1 for pid in plots if pid in plots_of(area))
        d.text(draw, (x + d.text_width(area.upper(), 19, True) + 10, y + 12),
               f"{built}/{len(plots_of(area))} built", 16, d.MUTED, anchor="lm")
        y += 26
        after = False
        for pid in plots_of(area):
            _, row, col = plot_cell(pid)
            left, above = plot_at(area, row, col - 1), plot_at(area, row - 1, col)
            box = _plot_box(pid, x, y)
            if pid in plots or after or left in plots or above in plots:
                _plot(draw, comps, area, pid, plots.get(pid), keyples.get(pid, []), box)
            if pid == hl:
                draw.rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), outline=d.HIGHLIGHT, width=6)
                after = True
        y += _rows(area) * PLOT_H + 12


def _plot(draw: d.Pen, comps: Components, area: str, pid: str, plot: PlotView | None,
          keyples: Sequence[KeypleView], box: Box) -> None:
    """A plot: empty with its id, or the built tile's name, an UP badge when upgraded, what it overbuilt."""
    x0, y0, x1, y1 = box
    fill = d.AREA_FILL[area]
    if plot is None:
        draw.rectangle(box, fill=d.lighter(fill, 0.9), outline=d.lighter(fill, 0.5), width=1)
        d.text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), pid, 17, d.lighter(fill, 0.35), anchor="mm")
        return
    draw.rectangle(box, fill=d.lighter(fill, 0.7), outline=d.darker(fill, 0.8), width=2)
    d.text(draw, (x0 + 4, y0 + 3), pid, 12, d.darker(fill, 0.7), anchor="la")
    if plot["upgraded"]:
        d.pill(draw, (x1 - 4, y0 + 11), "UP", 12, (240, 190, 20), ink=d.INK, outline=d.INK, pad=4, anchor="r")
    under = plot["under"]
    bottom = y1 - (28 if keyples else 16 if under else 3)
    d.text_box(draw, (x0 + 4, y0 + 16, x1 - 4, bottom), comps.tiles[plot["tile"]].name, 16, 11, bold=True)
    right = x1 - 2
    if keyples:
        right = x1 - 2 - int(sum(d.keyple_width(24, k["lying"]) + 3 for k in keyples)) if under else x0 + 2
        keyples_row(draw, keyples, (right, y1 - 28, x1 - 2, y1 - 2), 24)
    if under:
        label = d.ellipsize("over " + comps.tiles[under].name, 11, right - x0 - 6)
        d.text(draw, (x0 + 4, y1 - 3), label, 11, d.darker(fill, 0.6), anchor="ld")
