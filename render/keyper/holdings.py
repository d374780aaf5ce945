"""What a player holds, in the lower and right parts of their panel: shipping and face-down fairs, the keyp and keyp
tile, the fairs held, the stores, and the building tiles still to build."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.keyper.components import Components, default
from engine.keyper.lookup import reconstructed
from engine.keyper.view import KeyperView, PlayerView
from engine.keyper.vocab import ANIMALS, COLOURS, FINISHED, GEMS, RAW, SEASONS, WHEAT
from render import draw as d
from render.draw import Box
from render.keyper.layout import BUILD_HEAD, CHIP_COLS, CHIP_GAP, CHIP_H
from render.keyper.market import MARK
from render.keyper.parts import icon, keyples_row

STATS = ("Shipping", "Fairs face down")
STORE_ROWS: tuple[tuple[str, ...], ...] = (RAW + FINISHED + (WHEAT,), ANIMALS, GEMS)
"""The stores, in the order and rows a panel shows them."""
ANY_ICON = {"any_raw": "clay", "any_finished": "brick", "any_gem": "ruby", "three_raw": "clay",
            "three_finished": "brick"}
"""The icon a tile chip draws, in white, for a cost group, as the printed tiles do."""


def side_frame(draw: d.Pen, box: Box) -> None:
    """The side column's fixed parts: the shipping and face-down fairs boxes and the KEYP heading."""
    x0, y0, _, _ = box
    x = x0
    for label in STATS:
        x += _stat(draw, (x, y0), label) + 10
    d.text(draw, (x0, y0 + 52 + 12), "KEYP", 19, bold=True, anchor="lm")


def _stat_values(player: PlayerView) -> tuple[int, int]:
    """The numbers in the STATS boxes: shipping points and how many fairs lie face down."""
    hidden = player["hidden_fairs"]
    return player["shipping"], hidden if isinstance(hidden, int) else len(hidden)


def side(draw: d.Pen, view: KeyperView, seat: int, box: Box) -> None:
    """Over the side frame: shipping, face-down fairs, the keyp (keyper and keyples), the keyp tile, the
    fairground."""
    player = view["players"][seat]
    x0, y0, x1, _ = box
    x = x0
    for label, value in zip(STATS, _stat_values(player), strict=True):
        x += _stat_value(draw, (x, y0), label, str(value)) + 10
    ky = _keyp(draw, view, seat, box)
    y = ky + 28
    d.text(draw, (x0, y + 12), "KEYP TILE", 17, bold=True, anchor="lm")
    tile = player["keyp_tile"]
    if tile:
        keyples_row(draw, tile, (x0 + 96, y - 4, min(x1, x0 + 96 + 30 * len(tile)), y + 28), 28)
    else:
        d.text(draw, (x0 + 100, y + 12), "empty", 15, d.MUTED, anchor="lm")
    _fairs(draw, player, x0, x1, y + 38)


def _keyp(draw: d.Pen, view: KeyperView, seat: int, box: Box) -> int:
    """The keyp's keyper (or where it went) and keyples by colour with their counts; returns the last row's y."""
    player = view["players"][seat]
    x0, y0, x1, _ = box
    y = y0 + 52
    x = x0 + 70
    if player["keyper_home"]:
        d.keyper(draw, x + 12, y + 14, 34, seat, player["name"][:1].upper())
        x += 32
    else:
        where = next((f"keyper: board {b['number']}" for b in view["boards"] if b["keyper"] == seat),
                     "keyper out")
        x += d.text(draw, (x, y + 12), where, 15, d.MUTED, anchor="lm") + 12
    keyp = player["keyp"]
    ky = y + 14
    for colour in COLOURS:
        n = keyp.get(colour, 0)  # a colour the player never had is not listed
        if n <= 0:
            continue
        if x + 46 > x1:
            x, ky = x0 + 70, ky + 40
        d.keyple(draw, x + 11, ky, 30, colour)
        d.text(draw, (x + 25, ky + 6), f"{n}", 18, bold=True, anchor="lm")
        x += 46
    if not any(n > 0 for n in keyp.values()):
        d.text(draw, (x, y + 12), "no keyples", 15, d.MUTED, anchor="lm")
    return ky


def _fairs(draw: d.Pen, player: PlayerView, x0: int, x1: int, y: int) -> None:
    """The fairs held in each season with their points, then the winter fairs in hand."""
    d.text(draw, (x0, y + 12), "FAIRS HELD", 17, bold=True, anchor="lm")
    d.text(draw, (x0 + 118, y + 12), "(points)", 15, d.MUTED, anchor="lm")
    y += 28
    for season in SEASONS:
        held = player["fairground"].get(season, [])  # a season with no fair held is not listed
        d.pill(draw, (x0, y + 12), season[:3].upper(), 14, d.SEASON_FILL[season], pad=6)
        text = ", ".join(f"{h['fair']} ({h['points']})" for h in held) if held else "-"
        d.text(draw, (x0 + 56, y + 12), d.ellipsize(text, 17, x1 - x0 - 56), 17, d.INK if held else d.MUTED,
               anchor="lm")
        y += 27
    winter = player["winter_fairs"]
    label = "Winter fairs in hand: " + (", ".join(winter) if winter else "none")
    d.text(draw, (x0, y + 14), d.ellipsize(label, 16, x1 - x0), 16, d.INK if winter else d.MUTED, anchor="lm")


def _stat_width(label: str) -> int:
    """The width of a stat box."""
    return max(d.text_width(label, 14) + 16, 60)


def _stat(draw: d.Pen, xy: tuple[int, int], label: str) -> int:
    """A small box with a label, for a big value under it; returns its width."""
    x, y = xy
    w = _stat_width(label)
    draw.rounded_rectangle((x, y, x + w, y + 44), radius=8, fill=(255, 255, 255), outline=d.GRID, width=2)
    d.text(draw, (x + w / 2, y + 12), label, 14, d.MUTED, anchor="mm")
    return w


def _stat_value(draw: d.Pen, xy: tuple[int, int], label: str, value: str) -> int:
    """The value in a stat box (_stat); returns the box's width."""
    x, y = xy
    w = _stat_width(label)
    d.text(draw, (x + w / 2, y + 31), value, 22, bold=True, anchor="mm")
    return w


def _store_cells(box: Box) -> list[tuple[str, int, int]]:
    """Each resource a player could hold, with where its cell's icon row is (x, y)."""
    x0, y0, x1, _ = box
    cw = (x1 - x0) // 8
    return [(res, x0 + c * cw + 8, y0 + r * 44 + 20) for r, row in enumerate(STORE_ROWS) for c, res in enumerate(row)]


def stores_frame(draw: d.Pen, box: Box) -> None:
    """The stores' box, the STORES label and every resource's icon and faded 0, and its faded name where that
    lies on the white alone (_kept_name)."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle((x0, y0, x1, _stores_bottom(box)), radius=10, fill=(255, 255, 255), outline=d.FAINT,
                           width=1)
    for res, cx, cy in _store_cells(box):
        icon(draw, cx + 9, cy - 7, 9, res)
        d.text(draw, (cx + 24, cy - 7), "0", 20, d.FAINT, anchor="lm")
        if _kept_name(res, cx, cy, box):
            d.text(draw, (cx, cy + 13), res, 13, d.FAINT, anchor="lm")
    d.text(draw, (x1 - 10, y0 + 2 * 44 + 13), "STORES", 17, d.MUTED, bold=True, anchor="rm")


def _stores_bottom(box: Box) -> int:
    """The stores' frame's bottom edge."""
    return box[1] + 3 * 44 - 4


def _kept_name(res: str, cx: int, cy: int, box: Box) -> bool:
    """Whether a resource's faded name is drawn with the frame: when its box keeps clear of the frame's edge (the
    gems' descenders reach it; clear_text could not take those away)."""
    return d.text_bounds((cx, cy + 13), res, 13, anchor="lm")[3] < _stores_bottom(box)


def stores(draw: d.Pen, goods: Mapping[str, int], box: Box) -> None:
    """Over the frame, each resource's count and name: one held in ink (the frame's faded 0 and name cleared
    first), one not held as the frame has it (its name drawn here if the frame has not)."""
    for res, cx, cy in _store_cells(box):
        n = goods.get(res, 0)  # a resource never held is not listed
        kept = _kept_name(res, cx, cy, box)
        if n:
            d.clear_text(draw, (cx + 24, cy - 7), "0", 20, (255, 255, 255), anchor="lm")
            if kept:
                d.clear_text(draw, (cx, cy + 13), res, 13, (255, 255, 255), anchor="lm")
            d.text(draw, (cx + 24, cy - 7), str(n), 20, d.INK, bold=True, anchor="lm")
        if n or not kept:
            d.text(draw, (cx, cy + 13), res, 13, d.MUTED if n else d.FAINT, anchor="lm")


def to_build(draw: d.Pen, comps: Components, tiles: Sequence[str], box: Box) -> None:
    """The building tiles the player holds but has not built (how many, then one chip each with its name and build
    cost), under the heading."""
    x0, y0, x1, _ = box
    x = x0 + d.text_width("TILES TO BUILD", 17, True) + 8  # the heading is the panel frame's
    d.text(draw, (x, y0 + 10), f"({len(tiles)}) with build costs" if tiles else "none", 15, d.MUTED, anchor="lm")
    chip_w = (x1 - x0 - (CHIP_COLS - 1) * CHIP_GAP) // CHIP_COLS
    for i, tile_id in enumerate(tiles):
        cx = x0 + (i % CHIP_COLS) * (chip_w + CHIP_GAP)
        cy = y0 + BUILD_HEAD + (i // CHIP_COLS) * (CHIP_H + CHIP_GAP)
        if tile_id not in comps.tiles:
            d.text_box(draw, (cx, cy, cx + chip_w, cy + CHIP_H), tile_id, 13, 11)
            continue
        d.paste(draw, _chip(tile_id, chip_w), (cx, cy))


@d.kept(maxsize=128)
def _chip(tile_id: str, width: int) -> d.Layer:
    """A tile to build: area-coloured, its name, its cost as counts and icons, and MARK if the cost is reconstructed.

    Drawn once per tile (of the bundled pack) and pasted.
    """
    tile = default().tiles[tile_id]
    _, draw = d.canvas(width, CHIP_H, d.PANEL)
    fill = d.AREA_FILL.get(tile.area, d.MUTED)
    draw.rectangle((0, 0, width - 1, CHIP_H - 1), fill=d.lighter(fill, 0.82), outline=fill, width=2)
    d.text_box(draw, (4, 2, width - 4, 29), tile.name, 13, 11, d.darker(fill, 0.55), bold=True)
    chip_cost(draw, tile.cost, reconstructed(tile.provenance), (4, 29, width - 4, CHIP_H - 3))
    return d.layer(draw)


def chip_cost(draw: d.Pen, cost: Mapping[str, int], marked: bool, box: Box) -> None:
    """A cost as 'count icon' pairs, centred; a group ('any raw') is its kind's icon in white."""
    x0, y0, x1, y1 = box
    parts = [(str(n), res) for res, n in cost.items() if n]
    widths = [d.text_width(n, 14, True) + 2 + 15 for n, _ in parts]
    mark_w = d.text_width(MARK, 18, True) if marked else 0
    gap = 5 if len(parts) < 3 else 2
    total = sum(widths) + gap * (len(parts) - 1) + mark_w
    x = (x0 + x1) / 2 - total / 2
    cy = (y0 + y1) / 2
    for (n, res), w in zip(parts, widths, strict=True):
        d.text(draw, (x, cy), n, 14, bold=True, anchor="lm")
        icon(draw, x + w - 7.5, cy, 7, ANY_ICON.get(res, res), fill=(255, 255, 255) if res in ANY_ICON else None)
        x += w + gap
    if marked:
        d.text(draw, (x - 3, cy - 2), MARK, 18, d.INK, bold=True, anchor="lm")
