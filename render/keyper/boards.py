"""The country boards on the Keyper table: each board's fields by border colour, its keyper, boat and keyples."""

from __future__ import annotations

from collections.abc import Sequence

from engine.keyper.components import Components, FieldKind, default
from engine.keyper.lookup import boat_name
from engine.keyper.view import BoardView, KeyperView, KeypleView
from engine.keyper.vocab import FINISHED_OF_RAW
from render import draw as d
from render.draw import Box
from render.keyper.header import Mark
from render.keyper.layout import BOARD_H, BOARD_PAD, BOARD_W, CELL, GAP, WIDTH
from render.keyper.parts import icon, keyples_row, name


def boards(draw: d.Pen, view: KeyperView, comps: Components, y: int, mark: Mark | None) -> None:
    """Every country board in play, side by side and centred."""
    shown = view["boards"]
    total = len(shown) * BOARD_W + (len(shown) - 1) * GAP
    x = (WIDTH - total) // 2
    offer = view["offer"]
    for board in shown:
        hl = mark[1] if mark and mark[0] == board["number"] else None
        offered = offer["field"] if offer and offer["board"] == board["number"] else None
        d.paste(draw, _board_face(board["number"], board["display"]), (x, y))
        _board(draw, view, comps, board, x, y, hl, offered)
        x += BOARD_W + GAP


def _field_boxes(display_id: str, x: int, y: int) -> list[tuple[str, str, Box]]:
    """(field id, kind, box) for every field of a display drawn with its board's top-left corner at (x, y)."""
    gx, gy = x + BOARD_PAD, y + 44
    found = []
    for f in default().display(display_id).fields:
        rows = [c[0] for c in f.cells]
        cols = [c[1] for c in f.cells]
        box = (gx + min(cols) * CELL, gy + min(rows) * CELL, gx + (max(cols) + 1) * CELL, gy + (max(rows) + 1) * CELL)
        found.append((f.id, f.kind, box))
    return found


@d.kept(maxsize=64)
def _board_face(number: int, display_id: str) -> d.Layer:
    """What never changes on a board showing a display: frame, title, field colours, letters, icons and water.

    Drawn once per (board, display) and pasted; labels, pieces and boats are drawn on top each time.
    """
    _, draw = d.canvas(BOARD_W + 1, BOARD_H + 1)
    draw.rounded_rectangle((0, 0, BOARD_W, BOARD_H), radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    title = f"Board {number}"
    d.text(draw, (14, 22), title, 24, bold=True, anchor="lm")
    d.text(draw, (14 + d.text_width(title, 24, True) + 10, 22), display_id, 17, d.MUTED, anchor="lm")
    comps = default()
    for _, kind, box in _field_boxes(display_id, 0, 0):
        if kind == "river":
            _river_face(draw, box)
        elif kind == "keyp":
            _keyp_face(draw, box)
        else:
            _field_face(draw, comps.field_kinds[kind], box)
    return d.layer(draw)


def _board(draw: d.Pen, view: KeyperView, comps: Components, board: BoardView, x: int, y: int,
           hl: str | None, offered: str | None) -> None:
    """A board's changing parts: who claimed it, labels, keyper, boat, keyples and the outlines."""
    keyper = board["keyper"]
    if keyper is not None:
        d.pill(draw, (x + BOARD_W - 12, y + 22), name(view, keyper), 18, d.player_fill(keyper), anchor="r")
    else:
        d.pill(draw, (x + BOARD_W - 12, y + 22), "unclaimed", 16, d.lighter(d.GRID, 0.6), ink=d.MUTED,
               bold=False, anchor="r")
    late: list[Box] = []
    for field_id, kind, box in _field_boxes(board["display"], x, y):
        keyples = board["spaces"].get(field_id, [])  # a field nobody stands on is not listed
        if kind == "river":
            _river(draw, box, board["boat"], keyples, view["season_name"], comps)
        elif kind == "keyp":
            _keyp_field(draw, view, box, keyper)
        else:
            _field(draw, box, comps.field_kinds[kind], keyples)
        if field_id == offered:
            d.dashed_rectangle(draw, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), d.OFFER, width=4, dash=8)
        if field_id == hl:
            late.append(box)
    for box in late:  # outlines go on top of the neighbouring cells
        draw.rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), outline=d.HIGHLIGHT, width=6)


def _field_face(draw: d.Pen, kind: FieldKind, box: Box) -> None:
    """A field's fixed look: tinted by its border colour, with the colour letter and its resource icons."""
    x0, y0, x1, y1 = box
    colour = kind.colour
    if colour:
        border = d.KEYPLE_FILL[colour]
        draw.rectangle(box, fill=d.lighter(border, 0.78), outline=d.darker(border, 0.85) if colour == "white"
                       else border, width=1)
        draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=border if colour != "white" else d.GRID, width=6)
        d.colour_tag(draw, (x0 + 5, y0 + 5), colour, 13)
    else:
        draw.rectangle(box, fill=(250, 248, 242), outline=d.GRID, width=1)
        draw.rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), outline=d.FAINT, width=2)
    for i, res in enumerate(reversed(_field_resources(kind))):
        icon(draw, x1 - 17 - i * 20, y0 + 15, 8, res)


def field_label(kind: FieldKind) -> str:
    """A field's label: what a convert field turns into what ('Clay to brick'), else its kind ('Trade raw', 'Pig')."""
    if kind.category == "convert" and kind.resource:
        return f"{kind.resource.capitalize()} to {FINISHED_OF_RAW[kind.resource]}"
    return kind.name.replace("_", " ").capitalize()


def _field(draw: d.Pen, box: Box, kind: FieldKind, keyples: Sequence[KeypleView]) -> None:
    """A field's label, centred when empty and above the keyples otherwise, and its keyples."""
    x0, y0, x1, y1 = box
    label = field_label(kind)
    if keyples:
        d.text_box(draw, (x0 + 6, y0 + 23, x1 - 6, y0 + 57), label, 16, 11, bold=True)
        keyples_row(draw, keyples, (x0 + 5, y0 + 57, x1 - 5, y1 - 4), 31)
    else:
        d.text_box(draw, (x0 + 7, y0 + 26, x1 - 7, y1 - 10), label, 18, 12, bold=True)


def _field_resources(kind: FieldKind) -> list[str]:
    """The resource icons a field shows: what it gives, or what it converts and into what."""
    if kind.category == "resource" and kind.resource:
        return [kind.resource]
    if kind.category == "convert" and kind.resource:
        return [kind.resource, FINISHED_OF_RAW[kind.resource]]
    return []


def _river_face(draw: d.Pen, box: Box) -> None:
    """The double river field's water, waves, colour letter and name."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=d.WATER, outline=d.GRID, width=1)
    draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=d.KEYPLE_FILL["blue"], width=6)
    for wy in range(y0 + 16, y1 - 6, 18):
        for wx in range(x0 + 12, x1 - 20, 24):
            draw.arc((wx, wy, wx + 12, wy + 8), 200, 340, fill=d.WATER_DARK, width=2)
    d.colour_tag(draw, (x0 + 5, y0 + 5), "blue", 13)
    d.text(draw, (x0 + 34, y0 + 14), "River", 16, d.INK, bold=True, anchor="lm")


def _river(draw: d.Pen, box: Box, boat: str | None, keyples: Sequence[KeypleView], season: str,
           comps: Components) -> None:
    """The river's boat with its id and two resources, and the keyples on it."""
    x0, y0, x1, y1 = box
    wide = x1 - x0 > y1 - y0
    if keyples:
        kbox = (x1 - 70, y0 + 26, x1 - 6, y1 - 6) if wide else (x0 + 6, y1 - 44, x1 - 6, y1 - 8)
        keyples_row(draw, keyples, kbox, 32)
    if not boat:
        cx = (x0 + x1) / 2 - (34 if wide and keyples else 0)
        d.pill(draw, (cx, (y0 + y1) / 2 + 8), "no boat", 14, (255, 255, 255), ink=d.WATER_DARK, pad=6, anchor="m")
        return
    bx1 = x1 - 76 if wide and keyples else x1 - 8
    by1 = y1 - 8 if wide or not keyples else y1 - 48
    _boat(draw, (x0 + 8, y0 + 28, bx1, by1), comps.boats[boat].side_for(season).resources, boat)


def _boat(draw: d.Pen, box: Box, resources: tuple[str, str], boat: str) -> None:
    """A boat tile on the river: hull with its number, and its two resources for the season."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    hull_w = min(x1 - x0, 120)
    hy = y0 + 4
    d.shape(draw, [(cx - hull_w / 2, hy), (cx + hull_w / 2, hy), (cx + hull_w / 2 - 14, hy + 24),
                   (cx - hull_w / 2 + 14, hy + 24)], d.HULL, d.INK)
    d.text(draw, (cx, hy + 12), boat_name(boat), 15, (255, 255, 255), bold=True, anchor="mm")
    ry = hy + 40
    if y1 - ry < 20:
        return
    card = (255, 255, 255)
    if x1 - x0 >= 150:  # side by side
        draw.rounded_rectangle((x0 + 2, ry - 12, x1 - 2, ry + 12), radius=8, fill=card, outline=d.WATER_DARK)
        for res, rx in zip(resources, d.spread(2, x0, x1), strict=True):
            icon(draw, rx - 28, ry, 8, res)
            d.text(draw, (rx - 16, ry), res, 15, d.INK, bold=True, anchor="lm")
    else:
        draw.rounded_rectangle((x0 - 2, ry - 12, x1 + 2, ry + 34), radius=8, fill=card, outline=d.WATER_DARK)
        for i, res in enumerate(resources):
            icon(draw, x0 + 10, ry + i * 22, 8, res)
            d.text(draw, (x0 + 22, ry + i * 22), res, 15, d.INK, bold=True, anchor="lm")


def _keyp_face(draw: d.Pen, box: Box) -> None:
    """The keyp field's frame and name."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=(236, 230, 214), outline=d.GRID, width=1)
    draw.rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), outline=d.INK, width=2)
    d.text(draw, ((x0 + x1) / 2, y0 + 18), "KEYP", 16, d.INK, bold=True, anchor="mm")


def _keyp_field(draw: d.Pen, view: KeyperView, box: Box, keyper: int | None) -> None:
    """The keyper of the player who claimed the board, or 'free'."""
    x0, y0, x1, _ = box
    if keyper is None:
        d.text(draw, ((x0 + x1) / 2, y0 + 54), "free", 15, d.MUTED, anchor="mm")
        return
    d.keyper(draw, (x0 + x1) / 2, y0 + 56, 44, keyper, name(view, keyper)[:1].upper())
