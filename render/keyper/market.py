"""The Keyper table's market: the country tiles and winter fairs on display, and the season's boats."""

from __future__ import annotations

from collections.abc import Mapping

from engine.keyper.components import Components, default
from engine.keyper.lookup import boat_name, reconstructed
from engine.keyper.view import KeyperView
from render import draw as d
from render.draw import Box
from render.keyper.layout import MARGIN, WIDTH
from render.keyper.parts import icon

COST_LABEL = {"any_raw": "any raw", "any_finished": "any finished", "any_gem": "any gem"}
"""A cost group's short label on a tile card (the groups a printed tile cost may ask for)."""
MARK = "*"  # after a build cost the data pack reconstructed; explained in the legend

Card = tuple[str, str, str, int | None]  # ("tile" | "fair" | "boat", its id, the season, the board a boat is on)


def market(draw: d.Pen, view: KeyperView, comps: Components, y: int) -> None:
    """The country tiles on display (winter fairs marked as such), then the season's boats."""
    display = view["display"]
    slots = 8
    card_w = (WIDTH - 2 * MARGIN - (slots - 1) * 10) // slots
    cy = y + 32
    for i, tile_id in enumerate(display[:slots]):
        x = MARGIN + i * (card_w + 10)
        _card(draw, ("fair" if tile_id in comps.fairs else "tile", tile_id, "", None), (x, cy, x + card_w, cy + 132))
    for i in range(len(display), slots):
        x = MARGIN + i * (card_w + 10)
        d.dashed_rectangle(draw, (x, cy, x + card_w, cy + 132), d.FAINT, width=2)
    by = cy + 132 + 16
    on_board = {b["boat"]: b["number"] for b in view["boards"] if b["boat"]}
    chip_w = (WIDTH - 2 * MARGIN - 100 - 3 * 10) // 4
    for i, boat in enumerate(view["boats"][:4]):
        x = MARGIN + 100 + i * (chip_w + 10)
        _card(draw, ("boat", boat, view["season_name"], on_board.get(boat)), (x, by, x + chip_w, by + 62))


def _card(draw: d.Pen, card: Card, box: Box) -> None:
    """A country tile, winter fair or boat card in box, drawn once (_card_face) and pasted."""
    x0, y0, x1, y1 = box
    px, py = x0 % 2, y0 % 2  # drawn at the same parity as here: Pillow rounds halves to even
    d.paste(draw, _card_face(card, x1 - x0, y1 - y0, px, py), (x0 - px, y0 - py))


@d.kept(maxsize=256)
def _card_face(card: Card, width: int, height: int, px: int, py: int) -> d.Layer:
    """A card width x height drawn on the background at (px, py), depending on nothing but the bundled pack."""
    kind, item, season, board = card
    _, draw = d.canvas(px + width + 1, py + height + 1)
    box = (px, py, px + width, py + height)
    comps = default()
    if kind == "fair":
        _winter_card(draw, comps, item, box)
    elif kind == "tile":
        _tile_card(draw, comps, item, box)
    else:
        _boat_chip(draw, comps, item, season, board, box)
    return d.layer(draw)


def _tile_card(draw: d.Pen, comps: Components, tile_id: str, box: Box) -> None:
    """A country building tile: area band, name and cost."""
    tile = comps.tiles[tile_id]
    x0, y0, x1, y1 = box
    fill = d.AREA_FILL.get(tile.area, d.MUTED)
    draw.rounded_rectangle(box, radius=10, fill=d.lighter(fill, 0.82), outline=fill, width=3)
    draw.rounded_rectangle((x0, y0, x1, y0 + 26), radius=10, fill=fill, corners=(True, True, False, False))
    d.text(draw, (x0 + 10, y0 + 13), tile.area.upper(), 15, d.ink_on(fill), bold=True, anchor="lm")
    d.text_box(draw, (x0 + 8, y0 + 30, x1 - 8, y0 + 86), tile.name, 21, 14, bold=True)
    _cost(draw, tile.cost, (x0 + 8, y0 + 92, x1 - 8, y1 - 6), reconstructed(tile.provenance))


def _cost(draw: d.Pen, cost: Mapping[str, int], box: Box, marked: bool = False) -> None:
    """A build cost as counts with icons, centred in a box; 'any raw' style groups in words."""
    x0, y0, x1, y1 = box
    parts = [(str(n), res, (d.text_width(COST_LABEL[res], 14) if res in COST_LABEL else 18))
             for res, n in cost.items()]
    widths = [d.text_width(n, 17, True) + 3 + w + 12 for n, _, w in parts]
    x = (x0 + x1) / 2 - (sum(widths) - 12) / 2
    cy = (y0 + y1) / 2
    for (n, res, _), w in zip(parts, widths, strict=True):
        nx = x + d.text(draw, (x, cy), n, 17, bold=True, anchor="lm") + 3
        if res in COST_LABEL:
            d.text(draw, (nx, cy), COST_LABEL[res], 14, d.INK, anchor="lm")
        else:
            icon(draw, nx + 9, cy, 9, res)
        x += w
    d.text(draw, ((x0 + x1) / 2, y0 - 2), "cost" + (MARK if marked else ""), 12, d.MUTED, anchor="mm")


def _winter_card(draw: d.Pen, comps: Components, fair_id: str, box: Box) -> None:
    """A winter fair tile on the display: its id and the points of each side with the seasons it suits."""
    fair = comps.fairs[fair_id]
    x0, y0, x1, y1 = box
    fill = d.SEASON_FILL["winter"]
    draw.rounded_rectangle(box, radius=10, fill=d.lighter(fill, 0.8), outline=fill, width=3)
    draw.rounded_rectangle((x0, y0, x1, y0 + 26), radius=10, fill=fill, corners=(True, True, False, False))
    d.text(draw, (x0 + 10, y0 + 13), "WINTER FAIR", 15, (255, 255, 255), bold=True, anchor="lm")
    d.text(draw, ((x0 + x1) / 2, y0 + 46), fair_id, 20, bold=True, anchor="mm")
    for i, side in enumerate(fair.sides[:2]):
        seasons = "/".join(s[:3] for s in side.seasons)
        d.text(draw, ((x0 + x1) / 2, y0 + 78 + i * 24), f"{side.points} pts  {seasons}", 16, anchor="mm")


def _boat_chip(draw: d.Pen, comps: Components, boat: str, season: str, board: int | None, box: Box) -> None:
    """One of the season's boats: id, its two resources and where it sails."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=d.lighter(d.WATER, 0.55), outline=d.WATER_DARK, width=2)
    d.shape(draw, [(x0 + 10, y0 + 18), (x0 + 100, y0 + 18), (x0 + 88, y0 + 44), (x0 + 22, y0 + 44)], d.HULL, d.INK)
    d.text(draw, (x0 + 55, y0 + 31), boat_name(boat), 16, (255, 255, 255), bold=True, anchor="mm")
    x = x0 + 114
    for res in comps.boats[boat].side_for(season).resources:
        icon(draw, x + 9, y0 + 22, 9, res)
        x += 22 + d.text(draw, (x + 22, y0 + 22), res, 18, bold=True, anchor="lm") + 12
    where = f"on board {board}" if board is not None else "not yet on a board"
    d.text(draw, (x0 + 114, y0 + 46), where, 15, d.MUTED if board is None else d.INK, anchor="lm")
